"""Adaman, P.D. Magnus's Decktet solitaire: the rules exactly as docs/rules/adaman.md fixes them.

Rows are bitmasks over card indices (ID − 1), so a position is a handful of ints and rows
are sets by construction (R15).  The forced procedures (DEAL §3, the win check §5.2, the
Excuse step §9.1) run inside `apply`, so every state the solver sees is a decision point or
a finished game.  The two variant switches of §9 (the Excuse, E1–E6; the Pawns and Courts,
P1–P3) fix the deck, and with it the score's bounds.

A move is (target, payment mask), or (card, 0) at an Excuse choice (E2, E3); when no card is
eligible the Excuse step is forced and never offered as a move (E4).  A finished game's
score comes with its outcome; a loss scores the controlled personalities, read off the
position (controlled = dealt personalities no longer in the Capital or the Palace, §2).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import NamedTuple

from games.base import LOST, WON, Outcome, Termination, VariantError
from games.decks import BASIC_DECK, DECKTET, EXCUSE, PAWNS_AND_COURTS

PLAYING, FINISHED_WON, FINISHED_UTTER = 0, 1, 2
PALACE_LIMIT = 5  # a sixth personality in the Palace loses utterly (R9); unchanged by variants
ROW_SIZE = 5

RANK = tuple(card.rank for card in DECKTET)
PERSONALITY_BITS = sum(1 << card.index for card in DECKTET if card.personality)
EXCUSE_BIT = 1 << EXCUSE.index
#: SHARES[i]: mask of the cards sharing at least one suit with card i (ruling R4).
SHARES = tuple(
    sum(1 << other.index for other in DECKTET if set(other.suits) & set(card.suits)) for card in DECKTET
)
#: The Pawns and Courts personalities a variant may add (P1), by lower-case name.
EXTRA_PERSONALITIES = {card.name.lower(): card for card in PAWNS_AND_COURTS if card.personality}


@cache
def rank_sum(mask: int) -> int:
    """Total rank of the cards in a row mask (rows hold at most a few cards, so few masks occur)."""
    total, index = 0, 0
    while mask:
        if mask & 1:
            total += RANK[index]
        mask >>= 1
        index += 1
    return total


def bits(mask: int) -> Iterator[int]:
    """The card indices in a mask, lowest first (so rows list in ID order)."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class DealTables(NamedTuple):
    """The deck of one deal with what the engine derives from it once."""

    cards: tuple[int, ...]          # card indices, top first
    dealt_mask: tuple[int, ...]     # dealt_mask[d]: the first d cards as a mask
    undealt_mask: tuple[int, ...]   # undealt_mask[d]: cards[d:] as a mask


def deal_tables(cards: tuple[int, ...]) -> DealTables:
    """The tables of a deck given as card indices, top first."""
    dealt_mask = [0]
    for index in cards:
        dealt_mask.append(dealt_mask[-1] | (1 << index))
    return DealTables(cards, tuple(dealt_mask), tuple(dealt_mask[-1] & ~done for done in dealt_mask))


class AdamanState(NamedTuple):
    deal: DealTables
    dealt: int       # cards dealt from the deck so far
    capital: int
    resources: int
    palace: int
    status: int      # PLAYING, FINISHED_WON or FINISHED_UTTER


class AdamanRules:
    """The rules of Adaman with its two variant switches (§9), `excuse` and `pawns_courts`:
    the part of games/adaman/game.py's `Adaman` its verbs delegate to."""

    def __init__(self, excuse: bool = False, pawns_courts: str | frozenset = "none"):
        self.excuse = excuse
        self.pawns_courts = pawns_courts
        extra = ()
        if pawns_courts == "all":
            extra = PAWNS_AND_COURTS
        elif isinstance(pawns_courts, frozenset):
            if not pawns_courts or not pawns_courts <= set(EXTRA_PERSONALITIES.values()):
                raise VariantError("pawns_courts=personalities: needs one or more of Watchman, Light Keeper, Consul")
            extra = tuple(sorted(pawns_courts, key=lambda card: card.id))
        elif pawns_courts != "none":
            raise VariantError(f"unknown pawns_courts value {pawns_courts!r}")
        self.cards = tuple(BASIC_DECK) + tuple(extra) + ((EXCUSE,) if excuse else ())
        self.personality_total = sum(card.rank for card in self.cards if card.personality)  # 66 basic (R1)
        self.lowest_win_score = self.personality_total  # a loss misses a personality (§6)
        non_personality_ranks = sorted((c.rank for c in self.cards if not c.personality), reverse=True)
        # A win leaves at most ROW_SIZE - 1 resources unspent: the winning move paid one.
        self.max_score = self.personality_total + sum(non_personality_ranks[: ROW_SIZE - 1])

    def set_up(self, tables: DealTables) -> AdamanState:
        """Set-up (§4) is one DEAL on empty rows; it may already end in an utter loss."""
        return self._deal(tables, 0, 0, 0, 0)

    # ----- the decisions ----------------------------------------------------------------
    def legal_moves(self, state: AdamanState) -> list[tuple[int, int]]:
        """Every (target, payment) of §5.1, or at an Excuse choice every (card, 0) of §9.1."""
        if state.status != PLAYING:
            return []
        if (state.capital | state.resources) & EXCUSE_BIT:
            return [(card, 0) for card in bits(self._excuse_choices(state))]
        moves = []
        resources = state.resources
        for target in bits(state.capital | state.palace):  # any card there (R11)
            usable = resources & SHARES[target]
            need = RANK[target]
            if rank_sum(usable) < need:
                continue
            payment = usable
            while payment:  # every non-empty subset; overpaying is legal (R3)
                if rank_sum(payment) >= need:
                    moves.append((target, payment))
                payment = (payment - 1) & usable
        return moves

    def apply(self, state: AdamanState, move: tuple[int, int]) -> AdamanState:
        target, payment = move
        if not payment:
            return self._resolve_excuse(state, target)
        bit = 1 << target
        capital, palace = state.capital & ~bit, state.palace & ~bit
        resources = state.resources & ~payment  # spent for good (R13)
        if not PERSONALITY_BITS >> target & 1:
            resources |= bit  # a controlled non-personality joins Resources (R12)
        elif not (capital | palace) & PERSONALITY_BITS and not state.deal.undealt_mask[state.dealt] & PERSONALITY_BITS:
            # Win check before any dealing (R5): the score counts Resources as they are now.
            return state._replace(capital=capital, resources=resources, palace=palace, status=FINISHED_WON)
        return self._deal(state.deal, state.dealt, capital, resources, palace)

    def outcome(self, state: AdamanState) -> Outcome | None:
        if state.status == FINISHED_UTTER:
            return Outcome(LOST, Termination.PALACE_OVERFLOW, 0)  # R9
        if state.status == FINISHED_WON:
            leftover = rank_sum(state.resources)
            return Outcome(
                WON, Termination.ALL_PERSONALITIES_CONTROLLED, self.personality_total + leftover,
                f"{self.personality_total} + {leftover} left in Resources",
            )
        if (state.capital | state.resources) & EXCUSE_BIT or self._has_move(state):
            return None
        return Outcome(LOST, Termination.NO_LEGAL_MOVE, self.controlled_score(state))  # R2

    def controlled_score(self, state: AdamanState) -> int:
        return rank_sum(self.controlled(state))

    def controlled(self, state: AdamanState) -> int:
        dealt = state.deal.dealt_mask[state.dealt]
        return dealt & PERSONALITY_BITS & ~state.capital & ~state.palace

    def key(self, state: AdamanState) -> int:
        """Dealt count and the three rows as sets: everything the future depends on."""
        return state.dealt | (state.capital << 6) | (state.resources << 51) | (state.palace << 96) | (
            state.status << 141
        )

    # ----- the forced procedures --------------------------------------------------------
    def _deal(self, tables: DealTables, dealt: int, capital: int, resources: int, palace: int) -> AdamanState:
        """DEAL (§3): Capital first (R8, no diversion there: R7), then Resources with
        personalities diverted to the Palace; a sixth Palace card ends the game at once (R9).
        The deck running out just stops dealing (R10)."""
        cards = tables.cards
        size = len(cards)
        in_capital = capital.bit_count()
        while in_capital < ROW_SIZE and dealt < size:
            capital |= 1 << cards[dealt]
            dealt += 1
            in_capital += 1
        in_resources = resources.bit_count()
        while in_resources < ROW_SIZE and dealt < size:
            card = cards[dealt]
            dealt += 1
            if PERSONALITY_BITS >> card & 1:
                palace |= 1 << card
                if palace.bit_count() > PALACE_LIMIT:
                    return AdamanState(tables, dealt, capital, resources, palace, FINISHED_UTTER)
            else:
                resources |= 1 << card
                in_resources += 1
        state = AdamanState(tables, dealt, capital, resources, palace, PLAYING)
        if (capital | resources) & EXCUSE_BIT and not self._excuse_choices(state):
            return self._discard_excuse(state)  # E4: nothing eligible, the step is forced
        return state

    def _excuse_choices(self, state: AdamanState) -> int:
        """Cards the Excuse step may move (E2, E3): any resource, or a Capital non-personality."""
        if state.capital & EXCUSE_BIT:
            return state.resources
        return state.capital & ~PERSONALITY_BITS

    def _resolve_excuse(self, state: AdamanState, card: int) -> AdamanState:
        bit = 1 << card
        if state.capital & EXCUSE_BIT:
            state = state._replace(resources=state.resources & ~bit, capital=state.capital | bit)
        else:
            state = state._replace(capital=state.capital & ~bit, resources=state.resources | bit)
        return self._discard_excuse(state)

    def _discard_excuse(self, state: AdamanState) -> AdamanState:
        """The Excuse leaves the game (E5) and DEAL steps 1–2 run again."""
        return self._deal(
            state.deal, state.dealt, state.capital & ~EXCUSE_BIT, state.resources & ~EXCUSE_BIT, state.palace
        )

    def _has_move(self, state: AdamanState) -> bool:
        resources = state.resources
        return any(rank_sum(resources & SHARES[t]) >= RANK[t] for t in bits(state.capital | state.palace))
