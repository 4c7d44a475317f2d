"""The King's Reign game object: the Game contract of games/base.py over rules.py.

Deals are the 30 number cards (A-10 of ♣, ♦, ♠), top first, shuffled by the project's seeded
shuffle (`random.Random(seed).shuffle` of ♣A..♣10, ♦A..♦10, ♠A..♠10; §2).  A shorter number
deck (`KingsReign(cards=...)`) exists for tests and small studies only: every rule reads the
same with fewer cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType

from games.base import LOST, WON, Game, GameType, Outcome, Termination, VariantError
from games.decks import STANDARD_DECK, PlayingCard, parse_spaced_cards, playing_card_lookup, shuffled
from games.kings_reign import aim, bounds, notation, rules

#: The number deck in canonical order (§2): ♣A..♣10, ♦A..♦10, ♠A..♠10.
NUMBER_CARDS = tuple(card for suit in "CDS" for card in STANDARD_DECK if card.suit == suit and card.rank <= 10)
LOOKUP = playing_card_lookup()
ENDINGS = {
    rules.DISCOVERED: (WON, Termination.KINGDOM_DISCOVERED),
    rules.EXHAUSTED: (WON, Termination.DECK_EXHAUSTED),
    rules.KING_TAKEN: (LOST, Termination.KING_TAKEN),
    rules.STARVED: (LOST, Termination.STARVED),
}


def card_index(card: PlayingCard) -> int:
    """The canonical index 0..29 the rules use for a number card."""
    return "CDS".index(card.suit) * 10 + card.rank - 1


class KingsReign(Game):
    """King's Reign (docs/rules/kings-reign.md); the spec defines no variants."""

    name = "kings-reign"
    game_type = GameType(repeats=True)

    def __init__(self, cards: Sequence[PlayingCard] | None = None):
        self.cards = NUMBER_CARDS if cards is None else tuple(cards)
        if any(card not in NUMBER_CARDS for card in self.cards) or len(set(self.cards)) != len(self.cards):
            raise VariantError("a King's Reign deck holds distinct number cards (A-10 of C, D, S) only")
        # 2 a card, 4 queens, 4 jacks × 2, 5 farms, 4 forts × 2 (§9); 85 with the full deck
        self.max_score = 2 * len(self.cards) + 4 + 8 + 5 + 8
        self.lowest_win_score = -1000  # a win may score below a loss; the solver ranks wins first

    @classmethod
    def from_variants(cls, words: Sequence[str]) -> KingsReign:
        for word in words:
            if word.strip():
                raise VariantError(f"unknown kings-reign variant {word.strip()!r} (King's Reign has no variants)")
        return cls()

    # ----- deals -------------------------------------------------------------------------
    def deal_from_seed(self, seed: int) -> tuple:
        return shuffled(self.cards, seed)

    def parse_deal(self, text: str) -> tuple:
        return parse_spaced_cards(text, LOOKUP, self.cards, "the number deck")

    def format_deal(self, deal: tuple) -> str:
        return " ".join(card.name for card in deal)

    def initial_state(self, deal: tuple) -> rules.KingsReignState:
        self.check_deal(deal)
        return rules.initial_state(tuple(card_index(card) for card in deal))

    # ----- rules ---------------------------------------------------------------------------
    def legal_moves(self, state: rules.KingsReignState) -> list[tuple]:
        return rules.legal_moves(state)

    def apply(self, state: rules.KingsReignState, move: tuple) -> rules.KingsReignState:
        return rules.apply(state, move)

    def outcome(self, state: rules.KingsReignState) -> Outcome | None:
        if state.phase != rules.OVER:
            return None
        result, reason = ENDINGS[state.ending]
        return Outcome(result, reason, rules.score(state), score_detail(state))

    def key(self, state: rules.KingsReignState) -> rules.KingsReignState:
        """The state itself: cells and people are sorted, the rest are counts and ordered lists."""
        return state

    def checkpoint(self, state: rules.KingsReignState) -> bool:
        """Start-of-turn states: every cycle passes through one, so a search that remembers
        only these still breaks every cycle."""
        return state.phase == rules.TRAIN

    # ----- notation ------------------------------------------------------------------------
    def format_move(self, state: rules.KingsReignState, move: tuple) -> str:
        return notation.format_move(state, move)

    def parse_move(self, state: rules.KingsReignState, text: str) -> tuple:
        return notation.parse_move(state, text)

    def describe(self, state: rules.KingsReignState) -> str:
        return notation.describe(state)

    def render(self, state: rules.KingsReignState, reveal: bool = False) -> str:
        return notation.render(state, reveal)

    def legend(self) -> str:
        """The goal, the phases of a turn and the moves, for `?` in play (docs/rules/kings-reign.md §6-8)."""
        return ("Goal: turn up every face-down cell (##) around the king K: a win (a battle fought with fewer "
                "than 3 cards left in the deck also wins, scoring -15 for the enemy on the board).  Lost: "
                "an enemy reaches K, or the last farm falls.\n"
                "Each turn: 1. train: 'train Q' (on K in 2 turns), 'train J' (3 turns) or 'train none'; "
                "people and trainees stay within 2 a farm.  2. one action: 'Q 0,1 N' steps the queen on "
                "cell 0,1 north (N, E, S, W; onto ## turns the card up; a step from land to lower land calls "
                "an enemy; a jack, J, fights enemies: 3 cards drawn, it loses to three of rank 3 or less or "
                "two diamonds ♦), 'farm x,y' (a queen on diamond land), 'fort x,y' (a queen on land not beside K, 2 "
                "turns), 'demolish x,y', or 'pass'.  3. enemies step towards K by themselves, trampling "
                "farms.  'dispose x,y T0' sends people (by cell) and trainees (T and their number) back "
                "when farms fall short.\n"
                "Score at the end: +2 a card turned up, +1 a queen, +2 a jack, +1 a farm, +2 a fort, "
                "-2 a rubble, -15 with an enemy on the board.")

    # ----- what a player sees --------------------------------------------------------------
    def visible_positions(self) -> ModuleType:
        from games.kings_reign import visible
        return visible

    def greedy_move(self, state):
        return self.visible_positions().greedy_move(self, state)

    # ----- search facts --------------------------------------------------------------------
    def score_upper_bound(self, state: rules.KingsReignState) -> int:
        return min(self.max_score, bounds.score_upper_bound(state))

    def can_still_win(self, state: rules.KingsReignState) -> bool:
        return bounds.can_still_win(state)

    def order_moves(self, state: rules.KingsReignState, moves: Sequence[tuple]) -> list:
        return bounds.order_moves(state, list(moves))

    def progress(self, state: rules.KingsReignState) -> int:
        return bounds.progress(state)

    # ----- lines aimed at the maximum score (a heuristic guide, games/kings_reign/aim.py) -----
    def aimed_successors(self, state: rules.KingsReignState) -> list[tuple[rules.KingsReignState, tuple]]:
        """(next state, the moves to it) for lines aiming at `max_score`; may leave out
        anything, as the search that uses it only looks for better lines."""
        return aim.aimed_successors(state)

    def aimed_progress(self, state: rules.KingsReignState) -> int:
        return aim.aimed_progress(state)


def score_detail(state: rules.KingsReignState) -> str:
    """The §8 items of a score, for people."""
    grid = rules.board(state.cells)
    kinds = [kind for kind, _ in grid.values()]
    discovered = sum(1 for kind, card in grid.values() if kind in (rules.LAND, rules.FARM, rules.FORT)
                     and card != rules.NO_CARD)
    queens = sum(1 for p in state.people if p >> 2 & 3 == rules.QUEEN)
    jacks = len(state.people) - queens
    return (f"discovered {discovered}, queens {queens}, jacks {jacks}, farms {kinds.count(rules.FARM)}, "
            f"forts {kinds.count(rules.FORT)}, rubble {kinds.count(rules.RUBBLE)}, "
            f"enemy on the board: {'yes (-15)' if state.enemies else 'no'}")
