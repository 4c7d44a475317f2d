"""Royal Assassin's compiled engine (engine "compiled", every variant but V7:
games/royal_assassin/_core.c under the skeleton of the solver, bound in
native/royal_assassin.c): the one place that says what crosses to C.

Three named structures cross, each read in C by field name in one function: the position
(`RoyalAssassinPosition`, the state as C packs it: `position`), the tables of a game
instance (`RoyalAssassinTables`, built once per instance by `tables`) and the solver's
limits (games/base.py's `CompiledLimits`).  A new table is a field here, its value in
`tables`, and its reading in native/royal_assassin.c's `read_tables`.
"""

from __future__ import annotations

from typing import NamedTuple

from games.base import CompiledLimits, CompiledMissing, CompiledRun, EngineError
from games.royal_assassin.rules import (
    ATTACK,
    IS_RED,
    IS_ROYAL,
    JOKER,
    JOKER_RESERVE,
    JOKER_SET_ASIDE,
    JOKER_TURNED,
    MOVE_E,
    MOVE_P,
    MOVE_REDEAL,
    MOVE_T,
    OPPONENTS,
    RANK,
    RESERVE,
    ROYALS_IN_DECK,
    SUIT,
    VALUE,
    RoyalAssassinRules,
    RoyalAssassinState,
    royal_attack,
    royal_defence,
)


class RoyalAssassinTables(NamedTuple):
    """Everything the C search knows about the cards and the rules; the per-card sequences
    are indexed by card id (0-51, 52 the Joker)."""

    move_names: tuple[str, ...]       # the moves by C's move number, as Python names them
    kind: tuple[int, ...]             # 0 number card, 1 Royal, 2 Joker
    suit: tuple[int, ...]
    landing: tuple[int, ...]          # a card's value in the test right after it lands (V3)
    resting: tuple[int, ...]          # ... and at every other time
    side: tuple[int, ...]             # the attack supply a card counts for: 0 red, 1 black
    rcode: tuple[int, ...]            # a Royal's code: J 1, Q 2, K 3 (0 for others)
    royal_value: tuple[int, ...]      # 16 values: [column * 4 + code]
    column_colour: tuple[int, ...]    # per column, 1 red
    opponents: tuple[int, ...]        # 8 columns: the two that each column's suit attacks
    max_score: int
    lowest_win_score: int
    discard_on_equal_only: bool       # the variant switches the C rules read
    joker_dies: bool
    royal_beneath: bool
    two_jokers: bool


class RoyalAssassinPosition(NamedTuple):
    """A state as the C search packs it: the reserve as a mask over stock indices, each
    column as one word of 16 bits a Royal (`position`)."""

    stock: tuple[int, ...]
    pos: int
    reserve: int
    columns: tuple[int, ...]
    locks: tuple[int, ...]
    jokers_on: int
    available: int
    turned: int
    redeal_blocked: bool
    status: int


def tables(rules: RoyalAssassinRules) -> RoyalAssassinTables:
    """The tables of one game instance (its variant)."""
    cards = range(53)
    royal_value = [0] * 16
    for c in range(52):
        if IS_ROYAL[c]:
            royal_value[SUIT[c] * 4 + RANK[c] - 10] = VALUE[c]
    return RoyalAssassinTables(
        move_names=(MOVE_T, MOVE_P, MOVE_E, MOVE_REDEAL) + ATTACK + RESERVE + JOKER_SET_ASIDE + JOKER_RESERVE
        + JOKER_TURNED,
        kind=tuple(2 if c == JOKER else 1 if IS_ROYAL[c] else 0 for c in cards),
        suit=tuple(max(s, 0) for s in SUIT),
        landing=rules.landing_value[:53],
        resting=rules.resting_value[:53],
        side=tuple(int(not IS_RED[c // 13]) if c < 52 else 0 for c in cards),
        rcode=tuple(RANK[c] - 10 if IS_ROYAL[c] else 0 for c in cards),
        royal_value=tuple(royal_value),
        column_colour=tuple(int(red) for red in IS_RED),
        opponents=tuple(y for x in range(4) for y in OPPONENTS[x]),
        max_score=ROYALS_IN_DECK,
        lowest_win_score=rules.lowest_win_score,
        discard_on_equal_only=rules.discard_on_equal_only,
        joker_dies=rules.joker_dies,
        royal_beneath=rules.royal_beneath,
        two_jokers=rules.two_jokers,
    )


def position(state: RoyalAssassinState) -> RoyalAssassinPosition:
    """`state` as the C search reads it."""
    return RoyalAssassinPosition(
        state.stock, state.pos, reserve_mask(state), column_words(state), state.locks, state.jokers_on,
        state.available, state.turned, state.redeal_blocked, state.status,
    )


def solve(state: RoyalAssassinState, game_tables: RoyalAssassinTables, mode: str,
          limits: CompiledLimits) -> CompiledRun:
    """The "pruned" search of solver/search.py run in C, node for node (no plain search:
    EngineError)."""
    if limits.plain:
        raise EngineError("Royal Assassin has no compiled plain engine; use --engine plain")
    try:
        import games.royal_assassin._core as core  # the C extension, a leaf: it imports nothing of the package
    except ImportError:
        raise CompiledMissing("the compiled Royal Assassin engine is not built; install a C compiler "
                              "and the Python headers, then reinstall usurper") from None
    return CompiledRun(*core.solve(position(state), game_tables, mode, limits))


def reserve_mask(state: RoyalAssassinState) -> int:
    """The reserve as a bit mask over stock indices: without V7 it is a subsequence of the
    cards turned so far, in turning order (a Joker is matched to the first one that fits)."""
    mask, index = 0, 0
    for card in state.reserve:
        while index < state.pos and state.stock[index] != card:
            index += 1
        if index >= state.pos:
            raise EngineError("the compiled Royal Assassin engine needs the reserve in stock order")
        mask |= 1 << index
        index += 1
    return mask


def column_words(state: RoyalAssassinState) -> tuple[int, ...]:
    """Each column as the C side packs it: 16 bits per Royal, bottom first, code J 1, Q 2,
    K 3 | A << 2 | D << 9."""
    words = []
    for royals in state.columns:
        word = 0
        for i, code in enumerate(royals):
            word |= (RANK[code & 63] - 10 | royal_attack(code) << 2 | royal_defence(code) << 9) << (16 * i)
        words.append(word)
    return tuple(words)
