"""Devil's Throne, Tom Gale's 2-4 player game, exactly as docs/rules/devils-throne.md fixes it.

Rulings are cited as [Rn] (spec §9).  The game is a simultaneous-move game in the manner of
OpenSpiel: a state says which seats choose now (`acting_players`), each seat's options
(`legal_actions`), and `apply_joint` takes one action per acting seat.  The decision points
of spec §4 are explicit phases of the state:

    SELECT   every seat picks a main card (simultaneous)
    EFFECT   the owner of a played 3 picks its target (sequential; one seat)
    ENVOY    every eligible seat picks PASS or a target for its ace (simultaneous)
    OVER     the game is finished

Everything forced (coin, deuce, totals, winner, tie-break, trick, end check) runs inside
`apply_joint`.  A three whose power has no legal target is skipped, as the spec says; one
with a single legal target is applied at once (a choice of one is no choice).

States are small immutable tuples.  Hands are sorted tuples of ranks (a card is its rank:
[R22]), reserves tuples of ranks top first, trick piles counts.  The deal's coins ride along
in the state so that the state alone can be played; `key` leaves them out (the round fixes
the coin within one deal) and leaves out the trick counts, which `returns` gives: a solver
adds to the key whatever part of them its payoff needs (spec §8).

Actions: at SELECT a rank (int 1-13); at EFFECT and ENVOY a target seat (int, 0-based), and
at ENVOY also PASS (-1).  Seats are 0-based in code, 1-based in every text.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Hashable, Mapping, Sequence
from typing import NamedTuple

from games.base import LOST, WON, Game, GameType, MoveError, Outcome, Termination, VariantError
from games.devils_throne import notation
from games.devils_throne.cards import (
    ACE,
    COMMONS,
    DEFAULT_SUITS,
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
    parse_suit,
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


class DevilsThrone(Game):
    """The rules for `players` seats holding `suits` (one suit letter per seat)."""

    name = "devils-throne"
    game_type = GameType(min_players=2, max_players=4, simultaneous=True, deterministic=True,
                         perfect_information=False, returns=True)

    def __init__(self, players: int = 2, suits: Sequence[str] | None = None):
        if players not in (2, 3, 4):
            raise VariantError(f"devils-throne is played by 2, 3 or 4 players, not {players}")
        if suits is None:
            suits = DEFAULT_SUITS[:players]  # [R1]
        letters = [parse_suit(suit) for suit in suits]
        if None in letters:
            bad = suits[letters.index(None)]
            raise VariantError(f"unknown suit {bad!r} (suits are C, D, H, S)")
        if len(letters) != players:
            raise VariantError(f"{players} players need {players} suits, one a seat, not {len(letters)}")
        if len(set(letters)) != players:
            raise VariantError(f"each seat needs its own suit, not {','.join(letters)}")
        self.players = players
        self.suits = tuple(letters)
        self.max_score = 13 * players
        self.variant = f"players={players},suits={''.join(self.suits)}"
        #: The threes in play, in resolution order [R11]: (power, owning seat).
        self.effects = tuple((power, self.suits.index(power)) for power in EFFECT_ORDER if power in self.suits)

    @classmethod
    def from_variants(cls, words: Sequence[str]) -> DevilsThrone:
        """Build the game from variant words: `players=N`, `suits=D,H` (or `suits=DH`).  A bare
        suit letter continues the suits before it, since variant lists are split at commas."""
        players, suits = None, None
        for word in words:
            name, equals, value = word.strip().partition("=")
            name, value = name.strip().lower(), value.strip()
            if name == "players" and equals:
                if value not in ("2", "3", "4"):
                    raise VariantError(f"players needs 2, 3 or 4, not {value or 'nothing'!r}")
                players = int(value)
            elif name == "suits" and equals:
                suits = _split_suits(value)
            elif not equals and suits is not None and parse_suit(name) is not None:
                suits.append(name)
            else:
                raise VariantError(f"unknown devils-throne variant {word.strip()!r} (known: players=N, suits=D,H)")
        if players is None:
            players = len(suits) if suits else 2
        return cls(players, suits)

    # ----- deals ----------------------------------------------------------------------
    def deal_from_seed(self, seed: int) -> Deal:
        """The seeded deal of spec §2: ten coins first, then each seat's reserve, seat by seat."""
        rng = random.Random(seed)
        coins = tuple(rng.getrandbits(1) for _ in range(MAX_ROUNDS))
        reserves = []
        for _ in range(self.players):
            commons = list(COMMONS)
            rng.shuffle(commons)
            reserves.append(tuple(commons[:RESERVE_SIZE]))  # item 0 is the top [R2]
        return Deal(coins, tuple(reserves))

    def parse_deal(self, text: str) -> Deal:
        return notation.parse_deal(text, self.suits)

    def format_deal(self, deal: Deal) -> str:
        return notation.format_deal(deal, self.suits)

    def initial_state(self, deal: Deal) -> State:
        notation.check_deal(deal, self.players)
        hands = tuple(tuple(sorted(SPECIALS + tuple(c for c in COMMONS if c not in reserve)))
                      for reserve in deal.reserves)
        zeros = (0,) * self.players
        return State(1, SELECT, hands, tuple(deal.reserves), zeros, (), (), 0, 0, 0, tuple(deal.coins))

    # ----- the simultaneous-move verbs ------------------------------------------------
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

    def apply_joint(self, state: State, actions: Sequence[int] | Mapping[int, int]) -> State:
        """Play one action per acting seat (a sequence in seat order, or a seat -> action map)
        and run every forced step up to the next decision point or the end."""
        seats = self.acting_players(state)
        if isinstance(actions, Mapping):
            if set(actions) != set(seats):
                raise MoveError(f"seats {_seat_list(seats)} act here, not {_seat_list(sorted(actions))}")
            actions = tuple(actions[seat] for seat in seats)
        elif len(actions) != len(seats):
            raise MoveError(f"{len(seats)} seat(s) act here ({_seat_list(seats)}), not {len(actions)}")
        for seat, action in zip(seats, actions):
            if action not in self.legal_actions(state, seat):
                raise MoveError(f"seat {seat + 1} cannot play {notation.format_action(state.phase, action)} here")
        if state.phase == SELECT:
            return self._reveal(state, actions)
        if state.phase == EFFECT:
            return self._after_effect(self._apply_effect(state, state.effect, actions[0]), state.effect + 1)
        return self._envoy_subround(state, dict(zip(seats, actions)))

    def returns(self, state: State) -> tuple[int, ...]:
        """Each seat's trick pile so far: the final scores once the game is over (spec §5)."""
        return state.tricks

    def is_over(self, state: State) -> bool:
        return state.phase == OVER

    def mode(self, state: State) -> int:
        """HIGH or LOW: this round's coin [R3]."""
        return state.coins[state.round - 1]

    # ----- the single-move contract, on joint moves -------------------------------------
    def legal_moves(self, state: State) -> list[tuple[int, ...]]:
        """Every joint move (one action per acting seat, in seat order)."""
        seats = self.acting_players(state)
        if not seats:
            return []
        return list(itertools.product(*(self.legal_actions(state, seat) for seat in seats)))

    def apply(self, state: State, move: Sequence[int]) -> State:
        return self.apply_joint(state, move)

    def outcome(self, state: State, seat: int = 0) -> Outcome | None:
        """For `seat`: WON when no one has more cards (co-winners win, [R19]), else LOST."""
        if state.phase != OVER:
            return None
        best = max(state.tricks)
        result = WON if state.tricks[seat] == best else LOST
        leaders = [str(s + 1) for s, count in enumerate(state.tricks) if count == best]
        detail = "cards " + "-".join(map(str, state.tricks))
        detail += f"; co-winners {','.join(leaders)}" if len(leaders) > 1 else f"; seat {leaders[0]} wins"
        return Outcome(result, Termination.HAND_EMPTIED, state.tricks[seat], detail)

    def key(self, state: State) -> Hashable:
        """Canonical within one deal (spec §8): round, phase, hands as multisets of ranks,
        reserve depths (as sizes left), and the in-round sub-state; not the trick counts."""
        return (state.round, state.phase, state.effect, state.hands, tuple(len(r) for r in state.reserves),
                state.mains, state.totals, state.pool)

    def order_actions(self, state: State, seat: int, actions: list[int]) -> list[int]:
        """A search order (strongest first): high cards first in HIGH rounds, low ones in
        LOW; an Envoy before PASS.  It changes only how soon a search finds good lines."""
        if state.phase == SELECT:
            return sorted(actions, reverse=self.mode(state) == HIGH)
        return sorted(actions, reverse=True)

    def compiled_q4(self, state: State, seat: int):
        """The compiled two-player Q4 values of `state`'s deal for `seat` (an object whose
        `value(round_start, seconds, max_states)` gives a value-to-go), or None."""
        from games.devils_throne.compiled import q4_values

        return q4_values(self, state, seat)

    def compiled_paranoid(self, state: State, seat: int, question: str, margin: bool):
        """The compiled two-player Q1-Q3 (`question` "q1".."q3", on the margin or the cards)
        of `state`'s deal for `seat`: `value(round_start, seconds, max_states)`; or None."""
        from games.devils_throne.compiled import paranoid_values

        return paranoid_values(self, state, seat, question, margin)

    def round_start(self, state: State) -> bool:
        """Round starts are the only states two lines can share (spec §8), so a table keys them only."""
        return state.phase == SELECT

    def cards_in_play(self, state: State) -> int:
        """Cards that may still reach some trick pile: hands, reserves and the round pool."""
        return sum(map(len, state.hands)) + sum(map(len, state.reserves)) + state.pool

    def format_action(self, state: State, action: int) -> str:
        """One seat's action as typed: a rank at SELECT, `@2` or `pass` otherwise."""
        return notation.format_action(state.phase, action)

    def format_move(self, state: State, move: Sequence[int]) -> str:
        return notation.format_joint(state.phase, move)

    def parse_move(self, state: State, text: str) -> tuple[int, ...]:
        seats = self.acting_players(state)
        if not seats:
            raise MoveError("the game is over")
        move = notation.parse_joint(state.phase, text, len(seats))
        for seat, action in zip(seats, move):
            if action not in self.legal_actions(state, seat):
                options = ", ".join(notation.format_action(state.phase, a) for a in self.legal_actions(state, seat))
                raise MoveError(f"seat {seat + 1} cannot play {notation.format_action(state.phase, action)}"
                                f" here (options: {options})")
        return move

    def describe(self, state: State) -> str:
        return notation.describe(self, state)

    # ----- the decision points' options -----------------------------------------------
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


def _seat_list(seats: Sequence[int]) -> str:
    return ",".join(str(s + 1) for s in seats) or "none"


def _split_suits(text: str) -> list[str]:
    parts = [p for p in text.replace(",", " ").split() if p]
    if len(parts) == 1 and len(parts[0]) > 1 and all(parse_suit(ch) for ch in parts[0]):
        parts = list(parts[0])  # suits=DH
    return parts
