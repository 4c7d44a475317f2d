"""The Royal Assassin game object: the Game contract of games/base.py over rules.py (the
rules), bounds.py (the search knowledge), notation.py (the texts), visible.py (what a player
sees) and _core.c (the compiled search, every variant but V7).
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType

from games.base import CompiledLimits, CompiledMissing, CompiledRun, EngineError, Game
from games.decks import shuffled
from games.royal_assassin import notation, visible
from games.royal_assassin.bounds import RoyalAssassinBounds
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

#: The rule methods the compiled engine copies: a subclass overriding one of them gets no
#: compiled engine (it would not search the subclass's rules).
_COMPILED_COPIES = ("initial_state", "set_up", "legal_moves", "apply", "outcome", "key", "search_moves", "order_moves",
                    "score_upper_bound", "can_still_win", "_doomed", "_stock_suffix", "_joker_targets",
                    "_joker_moves")


class RoyalAssassin(RoyalAssassinBounds, RoyalAssassinRules, Game):
    """Royal Assassin (docs/rules/royal-assassin.md) with the seven switches of spec §10,
    freely combined (default: all off).  The rules and the search facts are methods of the
    classes it takes in, so the solver's calls reach them directly."""

    name = "royal-assassin"

    def __init__(self, two_jokers: bool = False, fixed_royals: int | None = None, ace_first_play: bool = False,
                 discard_on_equal_only: bool = False, royal_beneath: bool = False, joker_dies: bool = False,
                 redeal: bool = False):
        super().__init__(two_jokers, fixed_royals, ace_first_play, discard_on_equal_only, royal_beneath, joker_dies,
                         redeal)
        self.variant = notation.variant_text(self)
        self._prepare_bounds()
        self._tables_for_c = None  # built on the first compiled_solve

    @classmethod
    def from_variants(cls, variants: Sequence[str]) -> RoyalAssassin:
        """Build the game from `--variant` words (spec §10), e.g. `two_jokers`, `fixed_royals=4`."""
        return cls(**notation.parse_variants(variants))

    # ----- deals ----------------------------------------------------------------------
    def deal_from_seed(self, seed: int) -> tuple:
        return shuffled(self.cards, seed)

    def parse_deal(self, text: str) -> tuple:
        return notation.parse_deal(text, self.cards)

    def format_deal(self, deal: tuple) -> str:
        return notation.format_deal(deal)

    def initial_state(self, deal: tuple) -> RoyalAssassinState:
        """Setup (§3; V1, V2): Royals to their columns, number cards (and V1 Jokers) to the reserve."""
        self.check_deal(deal)
        return self.set_up(tuple(card.id for card in deal))

    # ----- notation -------------------------------------------------------------------
    def format_move(self, state: RoyalAssassinState, move: str) -> str:
        return move

    def parse_move(self, state: RoyalAssassinState, text: str) -> str:
        return notation.parse_move(self, state, text)

    def describe(self, state: RoyalAssassinState) -> str:
        """What a player sees, in the visible-position notation (docs/play.md) that `hint
        --visible` reads back; with `redeal`, whose redealt stock's order is seen, the full
        position (the top of the stock included)."""
        if not self.redeal:
            return visible.visible_text(self, state)
        return notation.full_description(state)

    def render(self, state: RoyalAssassinState, reveal: bool = False) -> str:
        """The position; `reveal` adds the face-down stock, top first (what a player never sees)."""
        text = self.describe(state)
        if not reveal:
            return text
        return f"{text}; Stock, top first: {notation.card_names(state.stock[state.pos:])}"

    def legend(self) -> str:
        return ("A column lists its Royals bottom to top: Q♣[A7:7♦ D3:3♣] is the Queen of Clubs with "
                "7 points of attack (the 7♦) and 3 of defence (the 3♣); +JK a Joker on the column; "
                "(D attacks): only Diamonds attack that column now.  Moves: T turn the top card, A(H) "
                "attack Hearts with it, P pass it to the reserve, R(D) attack from the reserve, J(S) "
                "place the Joker, E end.")

    # ----- what a player sees (fair hints, play) ----------------------------------------
    def visible_positions(self) -> ModuleType:
        """The visible-position model: games.royal_assassin.visible."""
        return visible

    def greedy_move(self, state: RoyalAssassinState) -> str:
        """The greedy rule documented in docs/play.md (games.royal_assassin.visible.greedy_move)."""
        return visible.greedy_move(self, state)

    # ----- compiled engine (engine "compiled": games/royal_assassin/_core.c) ------------
    def compiled_solve(self, state: RoyalAssassinState, mode: str, limits: CompiledLimits) -> CompiledRun:
        """The "pruned" search of solver/search.py run in C, node for node, on the tables of
        this instance (`_compiled_tables`).  Not covered (EngineError, so engine "auto" falls
        back to Python): the redeal variant (V7), whose stock changes, and subclasses that
        change the rules."""
        if limits.plain:
            raise EngineError("Royal Assassin has no compiled plain engine; use --engine plain")
        if self.redeal:
            raise EngineError("the compiled Royal Assassin engine does not cover the redeal variant; "
                              "use --engine pruned")
        for name in _COMPILED_COPIES:
            if getattr(type(self), name) is not getattr(RoyalAssassin, name):
                raise EngineError(f"the compiled Royal Assassin engine does not cover {type(self).__name__}, "
                                  f"which changes {name}; use --engine pruned")
        try:
            import games.royal_assassin._core as core  # the C extension, a leaf: it imports nothing of the package
        except ImportError:
            raise CompiledMissing("the compiled Royal Assassin engine is not built; install a C compiler "
                                  "and the Python headers, then reinstall usurper") from None
        return CompiledRun(*core.solve(
            state.stock, state.pos, self._reserve_mask(state), self._column_words(state), state.locks,
            state.jokers_on, state.available, state.turned, state.redeal_blocked, state.status,
            self._compiled_tables(), mode, limits.time_limit, limits.max_states, limits.max_table,
            limits.max_bytes, limits.plan(),
        ))

    @staticmethod
    def _reserve_mask(state: RoyalAssassinState) -> int:
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

    @staticmethod
    def _column_words(state: RoyalAssassinState) -> list[int]:
        """Each column as the C side packs it: 16 bits per Royal, bottom first, code J 1, Q 2,
        K 3 | A << 2 | D << 9."""
        words = []
        for royals in state.columns:
            word = 0
            for i, code in enumerate(royals):
                word |= (RANK[code & 63] - 10 | royal_attack(code) << 2 | royal_defence(code) << 9) << (16 * i)
            words.append(word)
        return words

    def _compiled_tables(self) -> tuple:
        """Everything the C search knows about the cards and rules, from this instance: move
        names, per card id its kind, suit, landing and resting values (V3), the attack supply
        it counts for, its Royal code; the Royal values, column colours, OPPONENTS, the score
        and the variant switches."""
        if self._tables_for_c is None:
            names = (MOVE_T, MOVE_P, MOVE_E, MOVE_REDEAL) + ATTACK + RESERVE + JOKER_SET_ASIDE + JOKER_RESERVE \
                + JOKER_TURNED
            cards = range(53)
            kind = tuple(2 if c == JOKER else 1 if IS_ROYAL[c] else 0 for c in cards)
            royal_value = [0] * 16
            for c in range(52):
                if IS_ROYAL[c]:
                    royal_value[SUIT[c] * 4 + RANK[c] - 10] = VALUE[c]
            self._tables_for_c = (
                names, kind, tuple(max(s, 0) for s in SUIT), self.landing_value[:53], self.resting_value[:53],
                tuple(int(not IS_RED[c // 13]) if c < 52 else 0 for c in cards),
                tuple(RANK[c] - 10 if IS_ROYAL[c] else 0 for c in cards), tuple(royal_value),
                tuple(int(red) for red in IS_RED), tuple(y for x in range(4) for y in OPPONENTS[x]),
                ROYALS_IN_DECK, self.lowest_win_score, self.discard_on_equal_only, self.joker_dies,
                self.royal_beneath, self.two_jokers,
            )
        return self._tables_for_c
