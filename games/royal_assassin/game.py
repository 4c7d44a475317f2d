"""The Royal Assassin game object: the Game contract of games/base.py over rules.py (the
rules), bounds.py (the search knowledge), notation.py (the texts), visible.py (what a player
sees) and compiled.py (the compiled search in _core.c, every variant but V7).
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType

from games.base import CompiledLimits, CompiledRun, EngineError, Game, Outcome
from games.decks import shuffled
from games.royal_assassin import compiled, notation, visible
from games.royal_assassin.bounds import RoyalAssassinBounds
from games.royal_assassin.rules import RoyalAssassinRules, RoyalAssassinState


class RoyalAssassin(Game):
    """Royal Assassin (docs/rules/royal-assassin.md) with the seven switches of spec §10,
    freely combined (default: all off).  Composed as games/base.py says: the rules
    (`rules`, rules.py), the search knowledge (`bounds`, bounds.py), the texts
    (notation.py), what a player sees (visible.py) and the compiled engine (compiled.py);
    each verb and hook below names the part that answers it."""

    name = "royal-assassin"
    #: The compiled engine copies rules.py and bounds.py: a subclass that changes either
    #: declares False (engine "auto" then runs the Python search).
    compiled = True

    def __init__(self, two_jokers: bool = False, fixed_royals: int | None = None, ace_first_play: bool = False,
                 discard_on_equal_only: bool = False, royal_beneath: bool = False, joker_dies: bool = False,
                 redeal: bool = False):
        self.rules = RoyalAssassinRules(two_jokers, fixed_royals, ace_first_play, discard_on_equal_only,
                                        royal_beneath, joker_dies, redeal)
        self.bounds = RoyalAssassinBounds(self.rules)
        self.two_jokers, self.fixed_royals, self.ace_first_play = two_jokers, fixed_royals, ace_first_play
        self.discard_on_equal_only, self.royal_beneath = discard_on_equal_only, royal_beneath
        self.joker_dies, self.redeal = joker_dies, redeal
        self.cards = self.rules.cards
        self.resting_value = self.rules.resting_value
        self.max_score = self.rules.max_score
        self.lowest_win_score = self.rules.lowest_win_score
        self.variant = notation.variant_text(self)
        self._tables_for_c: compiled.RoyalAssassinTables | None = None  # built on the first compiled solve

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
        return self.rules.set_up(tuple(card.id for card in deal))

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

    # ----- the rules (rules.py) -------------------------------------------------------
    def legal_moves(self, state: RoyalAssassinState) -> list[str]:
        return self.rules.legal_moves(state)

    def apply(self, state: RoyalAssassinState, move: str) -> RoyalAssassinState:
        return self.rules.apply(state, move)

    def outcome(self, state: RoyalAssassinState) -> Outcome | None:
        return self.rules.outcome(state)

    def key(self, state: RoyalAssassinState) -> tuple:
        return self.rules.key(state)

    # ----- the search knowledge (bounds.py) ------------------------------------------------
    def search_moves(self, state: RoyalAssassinState) -> list[str]:
        return self.bounds.search_moves(state)

    def order_moves(self, state: RoyalAssassinState, moves: list[str]) -> list[str]:
        return self.bounds.order_moves(state, moves)

    def score_upper_bound(self, state: RoyalAssassinState) -> int:
        return self.bounds.score_upper_bound(state)

    def can_still_win(self, state: RoyalAssassinState) -> bool:
        return self.bounds.can_still_win(state)

    # ----- the compiled engine (compiled.py) -------------------------------------------------
    def compiled_solve(self, state: RoyalAssassinState, mode: str, limits: CompiledLimits) -> CompiledRun | None:
        """compiled.solve on this instance's tables, built once.  Not covered (EngineError,
        so engine "auto" falls back to Python): the redeal variant (V7), whose stock changes."""
        if not self.compiled:
            return None
        if self.redeal:
            raise EngineError("the compiled Royal Assassin engine does not cover the redeal variant; "
                              "use --engine pruned")
        if self._tables_for_c is None:
            self._tables_for_c = compiled.tables(self.rules)
        return compiled.solve(state, self._tables_for_c, mode, limits)
