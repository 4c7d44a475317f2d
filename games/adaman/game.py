"""The Adaman game object: the Game contract of games/base.py over rules.py (the rules),
bounds.py (the search knowledge), notation.py (the texts), visible.py (what a player sees)
and _core.c (the compiled search).

Deals are the variant's deck shuffled by the project's seeded shuffle (`games.decks.shuffled`
over the deck in order: the basic deck, then the Pawns and Courts in play, then the Excuse).
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType

from games.adaman import notation, rules, visible
from games.adaman.bounds import AdamanBounds
from games.adaman.rules import AdamanRules, AdamanState
from games.base import CompiledLimits, CompiledMissing, CompiledRun, Game
from games.decks import DECKTET_SUIT_SYMBOLS, EXCUSE, shuffled


class Adaman(AdamanBounds, AdamanRules, Game):
    """Adaman (docs/rules/adaman.md) with its two variant switches (§9): `excuse` and
    `pawns_courts` ("none", "all" or a frozenset of the Pawns and Courts personalities).
    The rules and the search facts are methods of the classes it takes in, so the solver's
    calls reach them directly."""

    name = "adaman"

    def __init__(self, excuse: bool = False, pawns_courts: str | frozenset = "none"):
        super().__init__(excuse, pawns_courts)
        self.variant = notation.variant_text(excuse, pawns_courts)
        self._prepare_bounds()
        self._tables_for_c = None  # built on the first compiled_solve

    @classmethod
    def from_variants(cls, variants: Sequence[str]) -> Adaman:
        """Build the game from `--variant` words: `excuse`, `pawns_courts=all|none|personalities:A+B`."""
        excuse, pawns_courts = notation.parse_variants(variants)
        return cls(excuse=excuse, pawns_courts=pawns_courts)

    # ----- deals ----------------------------------------------------------------------
    def deal_from_seed(self, seed: int) -> tuple:
        return shuffled(self.cards, seed)

    def parse_deal(self, text: str) -> tuple:
        return notation.parse_deal(text, self.cards)

    def format_deal(self, deal: tuple) -> str:
        return notation.format_deal(deal)

    def initial_state(self, deal: tuple) -> AdamanState:
        self.check_deal(deal)
        return self.set_up(rules.deal_tables(tuple(card.index for card in deal)))

    # ----- notation -------------------------------------------------------------------
    def format_move(self, state: AdamanState, move: tuple[int, int]) -> str:
        return notation.format_move(move)

    def parse_move(self, state: AdamanState, text: str) -> tuple[int, int]:
        return notation.parse_move(self, state, text)

    def describe(self, state: AdamanState) -> str:
        """What a player sees: the rows, the controlled personalities and the spent cards, in
        the visible-position notation (docs/play.md) that `hint --visible` reads back."""
        return visible.visible_text(self, state)

    def render(self, state: AdamanState, reveal: bool = False) -> str:
        """The position; `reveal` adds the face-down deck, top first (what a player never sees)."""
        text = self.describe(state)
        if not reveal:
            return text
        return f"{text}; Deck, top first: {notation.card_names(state.deal.cards[state.dealt:])}"

    def legend(self) -> str:
        suits = ", ".join(f"{symbol} {suit}" for suit, symbol in DECKTET_SUIT_SYMBOLS.items())
        return ("Rows: the Capital (cards to control), Resources (cards to pay with), the Palace "
                "(personalities waiting; a sixth loses utterly), Controlled and Spent.  Each card shows its "
                f"rank and suits: Journey 3 ☾≈ is rank 3, Moons and Waves ({suits}).  A move "
                "'Painter 3 ☼∞ <- Battle 4 ⚕∞ + Pact 9 ☾☼' pays Battle and Pact from Resources to control the "
                "Painter: the ranks paid must reach its rank, each card sharing a suit with it.  Type a move's "
                "number, or the move with or without the ranks and suits ('Painter <- Battle + Pact').")

    # ----- what a player sees (fair hints, play) ----------------------------------------
    def visible_positions(self) -> ModuleType:
        """The visible-position model: games.adaman.visible."""
        return visible

    def greedy_move(self, state: AdamanState) -> tuple[int, int]:
        """The greedy rule documented in docs/play.md (games.adaman.visible.greedy_move)."""
        return visible.greedy_move(self, state)

    # ----- compiled engine (engine "compiled": games/adaman/_core.c) --------------------
    #: With the Excuse, the compiled search bounds it as bounds.py does (every Capital card
    #: owned while the Excuse may act: node for node the "pruned" engine) when True; when
    #: False by the closer bounds of _core.c's excuse_gift (one Capital card given, at most),
    #: the same answers in fewer states.  Read once, at the first compiled solve.
    compiled_excuse_fold = False

    def compiled_solve(self, state: AdamanState, mode: str, limits: CompiledLimits) -> CompiledRun:
        """The "pruned" search of solver/search.py run in C, on the tables of this instance
        (`_compiled_tables`), or with `limits.plain` its "plain" search (the baseline: every
        legal move, no bound; it stops trying siblings only at max_score).  Every variant,
        the Excuse's choices included: they come back as (card, 0), as `legal_moves` has them.
        With the Excuse the search is node for node "pruned" only under
        `compiled_excuse_fold`."""
        try:
            import games.adaman._core as core  # the C extension, a leaf: it imports nothing of the package
        except ImportError:
            raise CompiledMissing("the compiled Adaman engine is not built; install a C compiler "
                                  "and the Python headers, then reinstall usurper") from None
        return CompiledRun(*core.solve(
            state.deal.cards, state.dealt, state.capital, state.resources, state.palace, state.status,
            self._compiled_tables(), mode, limits.time_limit, limits.max_states, limits.max_table,
            limits.max_bytes, limits.plan(), self.max_score if limits.plain else -1,
        ))

    def _compiled_tables(self) -> tuple:
        """Everything the C search knows about the cards, from this instance: ranks,
        personalities, suit sharing, the Hall suit groups (bounds.py), the keepable order
        (without the Excuse, which no bound keeps or counts), totals, and the Excuse's bit
        (0 without it) with max_score, the bound move_bounds gives an Excuse choice's moves,
        and `compiled_excuse_fold`."""
        if self._tables_for_c is None:
            group_masks = tuple(
                sum(1 << g for g in groups) for groups in self._touching_groups
            )
            # search_moves: with the deck empty only minimal payments (when this class
            # prunes the others; the Game default keeps every legal move)
            minimal = type(self).search_moves is not Game.search_moves
            by_rank = tuple(card for card in self._by_rank if card != EXCUSE.index)
            self._tables_for_c = (
                rules.RANK, rules.PERSONALITY_BITS, rules.SHARES, self._hall_groups, group_masks, by_rank,
                self.personality_total, self.lowest_win_score, minimal, self.cover_gap, self.cover_node_limit,
                rules.EXCUSE_BIT if self.excuse else 0, self.max_score, self.compiled_excuse_fold,
            )
        return self._tables_for_c
