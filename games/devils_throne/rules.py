"""Devil's Throne rules, exactly as docs/rules/devils-throne.md fixes them (rulings cited [Rn], spec §9).

The decision points of spec §4 are explicit phases of the state:

    SELECT   every seat picks a main card (simultaneous)
    EFFECT   the owner of a played 3 picks its target (sequential; one seat)
    ENVOY    every eligible seat picks PASS or a target for its ace (simultaneous)
    OVER     the game is finished

Everything forced (coin, deuce, totals, winner, tie-break, trick, end check) runs inside
`Rules.apply_joint`.  A three whose power has no legal target is skipped, as the spec says;
one with a single legal target is applied at once (a choice of one is no choice).

States are small immutable tuples.  Hands are sorted tuples of ranks (a card is its rank:
[R22]), reserves tuples of ranks top first, trick piles counts.  The deal's coins ride along
in the state so that the state alone can be played; `key` leaves them out (the round fixes
the coin within one deal) and leaves out the trick counts, which the game's `returns` gives:
a solver adds to the key whatever part of them its payoff needs (spec §8).

Actions: at SELECT a rank (int 1-13); at EFFECT and ENVOY a target seat (int, 0-based), and
at ENVOY also PASS (-1).  Seats are 0-based in code, 1-based in every text.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Hashable, Sequence
from typing import NamedTuple

from games.devils_throne.cards import (
    ACE,
    COMMONS,
    DEUCE,
    EFFECT_ORDER,
    GRAVEDIGGER,
    HIGH,
    LOVER,
    MARTYR,
    MAX_ROUNDS,
    ROBBER,
    SPECIALS,
    THREE,
    card_value,
)

SELECT, EFFECT, ENVOY, OVER = 0, 1, 2, 3
PHASE_NAMES = ("select", "effect", "envoy", "over")
PASS = -1
RESERVE_SIZE = 3


class Deal(NamedTuple):
    """Everything a seed fixes: the ten coins (0 heads = HIGH, 1 tails = LOW) and each seat's
    reserve, top first.  The hands follow: the rest of each seat's suit."""

    coins: tuple[int, ...]
    reserves: tuple[tuple[int, ...], ...]


class State(NamedTuple):
    round: int                            # 1-based; fixes the coin
    phase: int                            # SELECT, EFFECT, ENVOY or OVER
    hands: tuple[tuple[int, ...], ...]    # sorted ranks per seat
    reserves: tuple[tuple[int, ...], ...]  # ranks per seat, top first
    tricks: tuple[int, ...]               # trick pile sizes
    mains: tuple[int, ...]                # this round's main cards (empty at SELECT)
    totals: tuple[int, ...]               # this round's totals (empty at SELECT)
    pool: int                             # cards in the round pool
    effect: int                           # EFFECT: index into the game's effects of the pending three
    discarded: int                        # cards that left the game in void rounds [R17]
    coins: tuple[int, ...]                # the deal's coins (not in the key)


def deal_from_seed(players: int, seed: int) -> Deal:
    """The seeded deal of spec §2: ten coins first, then each seat's reserve, seat by seat."""
    rng = random.Random(seed)
    coins = tuple(rng.getrandbits(1) for _ in range(MAX_ROUNDS))
    reserves = []
    for _ in range(players):
        commons = list(COMMONS)
        rng.shuffle(commons)
        reserves.append(tuple(commons[:RESERVE_SIZE]))  # item 0 is the top [R2]
    return Deal(coins, tuple(reserves))


class Rules:
    """The rules for one seat a suit of `suits` (the game checks them first [R1])."""

    def __init__(self, suits: Sequence[str]):
        self.suits = tuple(suits)
        self.players = len(self.suits)
        #: The threes in play, in resolution order [R11]: (power, owning seat).
        self.effects = tuple((power, self.suits.index(power)) for power in EFFECT_ORDER if power in self.suits)

    def initial_state(self, deal: Deal) -> State:
        """Each hand is its suit less the reserve [R2]; nothing won yet."""
        hands = tuple(tuple(sorted(SPECIALS + tuple(c for c in COMMONS if c not in reserve)))
                      for reserve in deal.reserves)
        zeros = (0,) * self.players
        return State(1, SELECT, hands, tuple(deal.reserves), zeros, (), (), 0, 0, 0, tuple(deal.coins))

    def mode(self, state: State) -> int:
        """HIGH or LOW: this round's coin [R3]."""
        return state.coins[state.round - 1]

    # ----- decision points ------------------------------------------------------------
    def acting_players(self, state: State) -> tuple[int, ...]:
        """The seats that choose at this node; () exactly when the game is over."""
        if state.phase == SELECT:
            return tuple(range(self.players))
        if state.phase == EFFECT:
            return (self.effects[state.effect][1],)
        if state.phase == ENVOY:
            return self.envoy_eligible(state)
        return ()

    def legal_actions(self, state: State, seat: int) -> list[int]:
        """`seat`'s options here: ranks at SELECT (one per rank held), target seats at EFFECT,
        PASS or a target at ENVOY; [] for a seat that does not act."""
        if state.phase == SELECT:
            return sorted(set(state.hands[seat]))
        if state.phase == EFFECT and seat == self.effects[state.effect][1]:
            return self.effect_targets(state, *self.effects[state.effect])
        if state.phase == ENVOY and seat in self.envoy_eligible(state):
            return [PASS] + self.envoy_targets(state, seat)
        return []

    def effect_targets(self, state: State, power: str, owner: int) -> list[int]:
        """Legal targets of a three's power (§4 step 4) [R12, R13, R14]."""
        seats = range(self.players)
        if power == MARTYR:
            return [s for s in seats if s != owner] if state.reserves[owner] else []
        if power in (GRAVEDIGGER, ROBBER):
            return [s for s in seats if state.reserves[s]]
        return [s for s in seats if s != owner and state.reserves[s]]  # the Lover

    def envoy_eligible(self, state: State) -> tuple[int, ...]:
        """Seats holding an ace with a legal target under the current totals [R6, R7]."""
        return tuple(s for s in range(self.players) if state.hands[s][:1] == (ACE,) and self.envoy_targets(state, s))

    def envoy_targets(self, state: State, owner: int) -> list[int]:
        """Another seat that the ace's ±1 makes tie for best or sole best: one short of best,
        or tied at best with someone else [R7, R25]."""
        totals = state.totals
        best = max(totals) if self.mode(state) == HIGH else min(totals)
        short = best - 1 if self.mode(state) == HIGH else best + 1
        at_best = totals.count(best)
        return [j for j, total in enumerate(totals)
                if j != owner and (total == short or (total == best and at_best > 1))]

    # ----- play -------------------------------------------------------------------------
    def apply_joint(self, state: State, actions: Sequence[int]) -> State:
        """Play one legal action per acting seat (in acting_players' order) and run every
        forced step up to the next decision point or the end."""
        if state.phase == SELECT:
            return self._reveal(state, actions)
        if state.phase == EFFECT:
            return self._after_effect(self._apply_effect(state, state.effect, actions[0]), state.effect + 1)
        return self._envoy_subround(state, dict(zip(self.acting_players(state), actions)))

    def key(self, state: State) -> Hashable:
        """Canonical within one deal (spec §8): round, phase, hands as multisets of ranks,
        reserve depths (as sizes left), and the in-round sub-state; not the trick counts."""
        return (state.round, state.phase, state.effect, state.hands, tuple(len(r) for r in state.reserves),
                state.mains, state.totals, state.pool)

    def value_key(self, state: State) -> Hashable:
        """The key of a round start's class of positions with its value, for the searches:
        `key` of the position with its hands' commons relabelled (`relabelling`), and the
        label of the 10 every hand is taken to hold where there is one."""
        relabelled = self.relabelling(state)
        if relabelled is None:
            return self.key(state)
        hands, ten = relabelled
        key = self.key(state._replace(hands=hands))
        return key if ten is None else (key, ten)

    def relabelled_hands(self, state: State) -> tuple[tuple[int, ...], ...] | None:
        """The hands of `relabelling`, or None where it does not hold."""
        relabelled = self.relabelling(state)
        return None if relabelled is None else relabelled[0]

    def relabelling(self, state: State) -> tuple[tuple[tuple[int, ...], ...], int | None] | None:
        """The hands with their commons relabelled so that positions that share them (and
        all else in the key) have the same value, with the label of the 10 that every hand
        is taken to hold while a 2 is held by one of three or more seats (else None); None
        where that does not hold (a Martyr or Gravedigger still in hand; with three or more
        seats, the Lover).  Why it is exact: the C engine's `relabel_commons`
        (games/devils_throne/_core.c), which this mirrors."""
        players = len(state.hands)
        if any(THREE in state.hands[owner] and (power in (MARTYR, GRAVEDIGGER) or (power == LOVER and players > 2))
               for power, owner in self.effects):
            return None
        counts = [{rank: hand.count(rank) for rank in hand} for hand in state.hands]
        ten = players > 2 and any(DEUCE in hand for hand in state.hands)
        held = [{rank for rank in hand if rank not in SPECIALS} | ({10} if ten else set()) for hand in state.hands]
        widest = 2 if any(ACE in hand for hand in state.hands) else 1
        ranks = sorted(set().union(*held))
        relabelled: list[list[int]] = [[rank for rank in hand if rank in SPECIALS] for hand in state.hands]
        label = previous = 3
        last_rank, last_label = [3] * players, [3] * players
        alone, count, ten_label = None, 0, None
        for i, rank in enumerate(ranks):
            sides = [side for side in range(players) if rank in held[side]]
            seat = sides[0] if len(sides) == 1 else None
            if seat is not None and seat == alone and count + counts[seat][rank] <= 3 and all(
                    previous - last_rank[other] >= widest
                    and next((higher for higher in ranks[i + 1:] if higher in held[other]), 99) - rank >= widest
                    for other in range(players) if other != seat):
                count += counts[seat][rank]
                relabelled[seat] += [label] * counts[seat][rank]
                last_rank[seat] = previous = rank
                continue
            label = max([label + 1] + [last_label[other] + min(rank - last_rank[other], widest)
                                       for side in sides for other in range(players) if other != side])
            for side in sides:
                relabelled[side] += [label] * counts[side].get(rank, 0)
                last_rank[side], last_label[side] = rank, label
            if ten and rank == 10:
                ten_label = label
            count = 0 if seat is None else counts[seat][rank]
            previous, alone = rank, seat
        return tuple(tuple(sorted(hand)) for hand in relabelled), ten_label

    def cards_in_play(self, state: State) -> int:
        """Cards in hands, reserves and the round pool."""
        return sum(map(len, state.hands)) + sum(map(len, state.reserves)) + state.pool

    def cards_reachable(self, state: State) -> int:
        """Cards that may still reach some trick pile: those in play less, at a round start,
        those that must stay in hands (`cards_stuck`)."""
        stuck = self.cards_stuck(state) if state.phase == SELECT else 0
        return self.cards_in_play(state) - stuck

    def cards_out_of_reach(self, state: State, seat: int) -> int:
        """At a round start, of the cards that may still be won, those of the other seats'
        reserves that `seat` can never win.  A reserve card leaves its reserve by a three's
        power (at most one card each) or in a tie-break [R16]; a seat wins a tie-break only by
        drawing from its own reserve at each step (with an empty one it no longer draws), and
        each step draws at most one card from each other seat.  So `seat` wins at most
        (seats - 1) other reserve cards per card of its own reserve, besides one a three still
        in a hand."""
        if state.phase != SELECT:
            return 0
        others = sum(len(reserve) for other, reserve in enumerate(state.reserves) if other != seat)
        threes = sum(1 for _, owner in self.effects if THREE in state.hands[owner])
        return max(0, others - (self.players - 1) * len(state.reserves[seat]) - threes)

    def cards_stuck(self, state: State) -> int:
        """At a round start, cards that can never leave a hand [R18]: every seat plays one main
        card a round and the game ends when a hand is empty, so what the longer hands hold
        beyond the shortest stays there.  A seat holding its ace may shorten its hand by one
        (an Envoy), and each Martyr or Gravedigger still in a hand may lengthen one hand by
        one [R12, R13]: the least surplus over those choices."""
        sizes = [len(hand) for hand in state.hands]
        if min(sizes) == max(sizes):
            return 0
        gifts = sum(1 for power, owner in self.effects
                    if power in (MARTYR, GRAVEDIGGER) and THREE in state.hands[owner])
        choices = [(size, size - 1) if ACE in hand else (size,) for size, hand in zip(sizes, state.hands)]
        return min(_least_surplus(list(shortened), gifts) for shortened in itertools.product(*choices))

    # ----- forced procedures ------------------------------------------------------------
    def _reveal(self, state: State, mains: Sequence[int]) -> State:
        """Step 2-3: main cards leave the hands into the pool; the deuce fixes values [R10]."""
        hands = tuple(_remove(hand, rank) for hand, rank in zip(state.hands, mains))
        deuce = DEUCE in mains
        totals = tuple(card_value(rank, deuce) for rank in mains)
        state = state._replace(hands=hands, mains=tuple(mains), totals=totals, pool=self.players)
        return self._after_effect(state, 0)

    def _after_effect(self, state: State, start: int) -> State:
        """Step 4: the next three with a choice to make, applying those with one target
        and skipping those with none; then the Envoy window [R11]."""
        for index in range(start, len(self.effects)):
            power, owner = self.effects[index]
            if state.mains[owner] != THREE:
                continue
            targets = self.effect_targets(state, power, owner)
            if len(targets) == 1:
                state = self._apply_effect(state, index, targets[0])
            elif targets:
                return state._replace(phase=EFFECT, effect=index)
        return self._open_envoy_window(state._replace(effect=0))

    def _apply_effect(self, state: State, index: int, target: int) -> State:
        power, owner = self.effects[index]
        reserves = list(state.reserves)
        if power == MARTYR:  # the owner's reserve top into the target's hand [R12]
            card, reserves[owner] = reserves[owner][0], reserves[owner][1:]
            hands = _replace_at(state.hands, target, _insert(state.hands[target], card))
            return state._replace(hands=hands, reserves=tuple(reserves))
        card, reserves[target] = reserves[target][0], reserves[target][1:]
        if power == GRAVEDIGGER:  # into the owner's hand [R13]
            hands = _replace_at(state.hands, owner, _insert(state.hands[owner], card))
            return state._replace(hands=hands, reserves=tuple(reserves))
        if power == ROBBER:  # onto the owner's trick pile, for good [R13, R17]
            tricks = _replace_at(state.tricks, owner, state.tricks[owner] + 1)
            return state._replace(tricks=tricks, reserves=tuple(reserves))
        assert power == LOVER  # into the pool, adding to the target's total in both modes [R14, R15]
        deuce = DEUCE in state.mains
        totals = _replace_at(state.totals, target, state.totals[target] + card_value(card, deuce))
        return state._replace(totals=totals, reserves=tuple(reserves), pool=state.pool + 1)

    def _open_envoy_window(self, state: State) -> State:
        if self.envoy_eligible(state):
            return state._replace(phase=ENVOY)
        return self._finish_round(state)

    def _envoy_subround(self, state: State, choices: dict[int, int]) -> State:
        """All chosen aces apply together, each judged on the sub-round's starting totals;
        they join the pool [R6, R7, R9].  Another sub-round follows while any ace was played."""
        step = 1 if self.mode(state) == HIGH else -1  # [R5]
        totals, hands, played = list(state.totals), list(state.hands), 0
        for seat, target in choices.items():
            if target != PASS:
                totals[target] += step
                hands[seat] = hands[seat][1:]  # the ace sorts first
                played += 1
        if not played:
            return self._finish_round(state)
        state = state._replace(totals=tuple(totals), hands=tuple(hands), pool=state.pool + played)
        return self._open_envoy_window(state)

    def _finish_round(self, state: State) -> State:
        """Steps 7-9: winner (with the tie-break), trick or void, end check [R4, R16, R17, R18]."""
        winner, reserves, drawn = self._winner(state)
        pool = state.pool + drawn
        if winner is None:
            state = state._replace(reserves=reserves, discarded=state.discarded + pool)
        else:
            tricks = _replace_at(state.tricks, winner, state.tricks[winner] + pool)
            state = state._replace(reserves=reserves, tricks=tricks)
        state = state._replace(mains=(), totals=(), pool=0, effect=0)
        if any(not hand for hand in state.hands):
            return state._replace(phase=OVER)
        return state._replace(round=state.round + 1, phase=SELECT)

    def _winner(self, state: State) -> tuple[int | None, tuple[tuple[int, ...], ...], int]:
        """The round's winner (None: void), the reserves after tie-break draws, and the number
        of cards drawn.  In LOW every comparison is reversed, the tie-break's too [R4, R16]."""
        pick = max if self.mode(state) == HIGH else min
        best = pick(state.totals)
        tied = [s for s, total in enumerate(state.totals) if total == best]
        reserves, drawn, deuce = list(state.reserves), 0, DEUCE in state.mains
        while len(tied) > 1:
            drawing = [s for s in tied if reserves[s]]
            if not drawing:
                return None, tuple(reserves), drawn
            values = {}
            for seat in drawing:
                values[seat] = card_value(reserves[seat][0], deuce)
                reserves[seat] = reserves[seat][1:]
            drawn += len(drawing)
            best = pick(values.values())
            tied = [s for s in drawing if values[s] == best]
        return tied[0], tuple(reserves), drawn


def _remove(hand: tuple[int, ...], rank: int) -> tuple[int, ...]:
    index = hand.index(rank)
    return hand[:index] + hand[index + 1:]


def _insert(hand: tuple[int, ...], rank: int) -> tuple[int, ...]:
    return tuple(sorted(hand + (rank,)))


def _replace_at(values: tuple, index: int, value) -> tuple:
    return values[:index] + (value,) + values[index + 1:]


def _least_surplus(sizes: list[int], gifts: int) -> int:
    """The cards beyond the shortest hand, the least over adding up to `gifts` cards to hands."""
    best = sum(sizes) - len(sizes) * min(sizes)
    if gifts and best:
        for seat in range(len(sizes)):
            sizes[seat] += 1
            best = min(best, _least_surplus(sizes, gifts - 1))
            sizes[seat] -= 1
    return best
