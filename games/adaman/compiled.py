"""Adaman's compiled engine (engine "compiled": games/adaman/_core.c under the skeleton of
the solver, bound in native/adaman.c): the one place that says what crosses to C.

Three named structures cross, each read in C by field name in one function: the position
(an `AdamanState`), the tables of a game instance (`AdamanTables`, built once per instance
by `tables`) and the solver's limits (games/base.py's `CompiledLimits`).  A new table is a
field here, its value in `tables`, and its reading in native/adaman.c's `read_tables`.
"""

from __future__ import annotations

from typing import NamedTuple

from games.adaman import rules
from games.adaman.bounds import AdamanBounds
from games.adaman.rules import AdamanRules, AdamanState
from games.base import CompiledLimits, CompiledMissing, CompiledRun
from games.decks import EXCUSE


class AdamanTables(NamedTuple):
    """Everything the C search knows about the cards and the variant."""

    rank: tuple[int, ...]                       # per card index
    personality_bits: int                       # the personalities as a mask
    shares: tuple[int, ...]                     # per card, the cards sharing a suit with it (R4)
    groups: tuple[tuple[int, int, int], ...]    # the Hall suit groups: (demand, touching, straddling)
    touching_groups: tuple[int, ...]            # per card, a mask over the group numbers it touches
    by_rank: tuple[int, ...]                    # the keepable cards, highest rank first (no Excuse)
    personality_total: int
    lowest_win_score: int
    minimal_payments: bool                      # search_moves: only minimal payments once the deck is empty
    cover_gap: int                              # may_exceed's cover test: how far above the floor (-1: never)
    cover_node_limit: int                       # ... and the nodes it may spend
    excuse_bit: int                             # the Excuse's bit, 0 without the variant
    max_score: int                              # the bound of an Excuse choice's moves
    excuse_fold: bool                           # bound the Excuse as bounds.py does (else _core.c's excuse_gift)


def tables(game_rules: AdamanRules, bounds: AdamanBounds, excuse_fold: bool) -> AdamanTables:
    """The tables of one game instance (its variant's deck and bounds)."""
    return AdamanTables(
        rank=rules.RANK,
        personality_bits=rules.PERSONALITY_BITS,
        shares=rules.SHARES,
        groups=bounds.hall_groups,
        touching_groups=tuple(sum(1 << g for g in groups) for groups in bounds.touching_groups),
        by_rank=tuple(card for card in bounds.by_rank if card != EXCUSE.index),
        personality_total=game_rules.personality_total,
        lowest_win_score=game_rules.lowest_win_score,
        minimal_payments=True,  # bounds.search_moves drops the others once the deck is empty
        cover_gap=bounds.cover_gap,
        cover_node_limit=bounds.cover_node_limit,
        excuse_bit=rules.EXCUSE_BIT if game_rules.excuse else 0,
        max_score=game_rules.max_score,
        excuse_fold=excuse_fold,
    )


def solve(state: AdamanState, game_tables: AdamanTables, mode: str, limits: CompiledLimits) -> CompiledRun:
    """The "pruned" search of solver/search.py run in C, or with `limits.plain` its "plain"
    search (the baseline: every legal move, no bound; it stops trying siblings only at
    max_score).  Every variant, the Excuse's choices included: they come back as (card, 0),
    as `legal_moves` has them."""
    try:
        import games.adaman._core as core  # the C extension, a leaf: it imports nothing of the package
    except ImportError:
        raise CompiledMissing("the compiled Adaman engine is not built; install a C compiler "
                              "and the Python headers, then reinstall usurper") from None
    return CompiledRun(*core.solve(state, game_tables, mode, limits))
