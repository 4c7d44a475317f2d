"""The Adaman game object: the Game contract of games/base.py over rules.py (the rules),
bounds.py (the search knowledge), notation.py (the texts), visible.py (what a player sees)
and compiled.py (the compiled search in _core.c).

Deals are the variant's deck shuffled by the project's seeded shuffle (`games.decks.shuffled`
over the deck in order: the basic deck, then the Pawns and Courts in play, then the Excuse).
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType

from games.adaman import compiled, notation, rules
from games.adaman.bounds import AdamanBounds
from games.adaman.rules import AdamanRules, AdamanState
from games.base import CompiledLimits, CompiledRun, CoverProblem, Game, Outcome
from games.decks import DECKTET_SUIT_SYMBOLS, shuffled


class Adaman(Game):
    """Adaman (docs/rules/adaman.md) with its two variant switches (§9): `excuse` and
    `pawns_courts` ("none", "all" or a frozenset of the Pawns and Courts personalities).
    Composed as games/base.py says: the rules (`rules`, rules.py), the search knowledge
    (`bounds`, bounds.py), the texts (notation.py), what a player sees (visible.py) and the
    compiled engine (compiled.py); each verb and hook below names the part that answers it."""

    name = "adaman"
    #: The compiled engine copies rules.py and bounds.py: a subclass that changes either
    #: declares False (engine "auto" then runs the Python search).
    compiled = True
    #: With the Excuse, the compiled search bounds it as bounds.py does (every Capital card
    #: owned while the Excuse may act: node for node the "pruned" engine) when True; when
    #: False by the closer bounds of _core.c's excuse_gift (one Capital card given, at most),
    #: the same answers in fewer states.  Read once, at the first compiled solve.
    compiled_excuse_fold = False

    def __init__(self, excuse: bool = False, pawns_courts: str | frozenset = "none"):
        self.rules = AdamanRules(excuse, pawns_courts)
        self.bounds = AdamanBounds(self.rules)
        self.excuse, self.pawns_courts = excuse, pawns_courts
        self.cards = self.rules.cards
        self.personality_total = self.rules.personality_total
        self.lowest_win_score = self.rules.lowest_win_score
        self.max_score = self.rules.max_score
        self.variant = notation.variant_text(excuse, pawns_courts)
        self._tables_for_c: compiled.AdamanTables | None = None  # built on the first compiled solve

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
        return self.rules.set_up(rules.deal_tables(tuple(card.index for card in deal)))

    # ----- notation -------------------------------------------------------------------
    def format_move(self, state: AdamanState, move: tuple[int, int]) -> str:
        return notation.format_move(move)

    def parse_move(self, state: AdamanState, text: str) -> tuple[int, int]:
        return notation.parse_move(self, state, text)

    def describe(self, state: AdamanState) -> str:
        """What a player sees: the rows, the controlled personalities and the spent cards, in
        the visible-position notation (docs/play.md) that `hint --visible` reads back."""
        return self.visible_positions().visible_text(self, state)

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
        """The visible-position model: games.adaman.visible, imported at first use (a solve
        or a deal never needs it, and every command pays for what it imports)."""
        from games.adaman import visible

        return visible

    def greedy_move(self, state: AdamanState) -> tuple[int, int]:
        """The greedy rule documented in docs/play.md (games.adaman.visible.greedy_move)."""
        return self.visible_positions().greedy_move(self, state)

    # ----- the rules (rules.py) -------------------------------------------------------
    def legal_moves(self, state: AdamanState) -> list[tuple[int, int]]:
        return self.rules.legal_moves(state)

    def apply(self, state: AdamanState, move: tuple[int, int]) -> AdamanState:
        return self.rules.apply(state, move)

    def outcome(self, state: AdamanState) -> Outcome | None:
        return self.rules.outcome(state)

    def key(self, state: AdamanState) -> int:
        return self.rules.key(state)

    def controlled(self, state: AdamanState) -> int:
        """The personalities controlled so far, as a mask (rules.py)."""
        return self.rules.controlled(state)

    # ----- the search knowledge (bounds.py) ------------------------------------------------
    def search_moves(self, state: AdamanState) -> list[tuple[int, int]]:
        return self.bounds.search_moves(state)

    def order_moves(self, state: AdamanState, moves: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
        return self.bounds.order_moves(state, moves)

    def score_upper_bound(self, state: AdamanState) -> int:
        return self.bounds.score_upper_bound(state)

    def move_bounds(self, state: AdamanState, moves: Sequence[tuple[int, int]], floor: int | None = None) -> list[int]:
        return self.bounds.move_bounds(state, moves, floor)

    def can_still_win(self, state: AdamanState) -> bool:
        return self.bounds.can_still_win(state)

    def may_exceed(self, state: AdamanState, floor: int, ceiling: int) -> bool:
        return self.bounds.may_exceed(state, floor, ceiling)

    def guaranteed_score(self, state: AdamanState) -> int:
        return self.bounds.guaranteed_score(state)

    def loss_can_reach(self, state: AdamanState, level: int) -> bool:
        return self.bounds.loss_can_reach(state, level)

    def cover_problem(self, state: AdamanState) -> CoverProblem | None:
        return self.bounds.cover_problem(state)

    def bound_given_keep(self, state: AdamanState, kept: int | None) -> int:
        return self.bounds.bound_given_keep(state, kept)

    # ----- the compiled engine (compiled.py) -------------------------------------------------
    def compiled_solve(self, state: AdamanState, mode: str, limits: CompiledLimits) -> CompiledRun | None:
        """compiled.solve on this instance's tables, built once.  With the Excuse the search
        is node for node "pruned" only under `compiled_excuse_fold`."""
        if not self.compiled:
            return None
        if self._tables_for_c is None:
            self._tables_for_c = compiled.tables(self.rules, self.bounds, self.compiled_excuse_fold)
        return compiled.solve(state, self._tables_for_c, mode, limits)
