"""The Devil's Throne game object: the SimultaneousGame contract of games/base.py over rules.py.

A variant is the number of seats (2-4) and each seat's suit [R1]; the texts are notation.py's,
the compiled searches compiled.py's.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Hashable, Mapping, Sequence

from games.base import LOST, WON, GameType, MoveError, Outcome, SimultaneousGame, Termination, VariantError
from games.devils_throne import compiled, notation
from games.devils_throne.cards import DEFAULT_SUITS, HIGH, parse_suit
from games.devils_throne.joint_play import JointPlay, states_short
from games.devils_throne.rules import ENVOY, OVER, PASS, SELECT, Deal, Rules, State, deal_from_seed


class DevilsThrone(SimultaneousGame):
    """The rules for `players` seats holding `suits` (one suit letter per seat)."""

    name = "devils-throne"
    game_type = GameType(min_players=2, max_players=4, simultaneous=True, deterministic=True,
                         perfect_information=False, returns=True)
    #: compiled.py's searches copy rules.py (games/devils_throne/_core.c).
    compiled = True

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
        self.rules = Rules(letters)
        self.players = players
        self.suits = self.rules.suits
        self.effects = self.rules.effects
        self.max_score = 13 * players
        self.variant = f"players={players},suits={''.join(self.suits)}"

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
            elif not equals and suits is not None:
                suits.append(word.strip())  # a list split at commas: `suits=D,H` arrives as two words
            else:
                raise VariantError(f"unknown devils-throne variant {word.strip()!r} (known: players=N, suits=D,H)")
        bad = [suit for suit in suits or () if parse_suit(suit) is None]
        if bad:
            raise VariantError(f"unknown suit {bad[0]!r} (suits are C, D, H, S)")
        if players is None and suits is not None and not 2 <= len(suits) <= 4:
            raise VariantError(f"--suits names one suit a seat for 2 to 4 players, not {len(suits)} "
                               f"({','.join(suits)})")
        if players is None:
            players = len(suits) if suits else 2
        return cls(players, suits)

    def legend(self) -> str:
        return ("Seats: 1♦ is seat 1 holding Diamonds.  HIGH or LOW: this round's coin (the higher or "
                "the lower total takes the trick).  select, effect, envoy: what the seats choose now.  "
                "hand: the ranks in hand; res: reserve cards left; tricks: cards won; main/total: this "
                "round's card and total.  Actions: a rank (A, 2-10, J, Q, K) plays that card; @2 aims a "
                "three's power or an Envoy ace at seat 2; pass plays no Envoy.  " + notation.CARD_POWERS)

    # ----- deals ----------------------------------------------------------------------
    def deal_from_seed(self, seed: int) -> Deal:
        return deal_from_seed(self.players, seed)

    def parse_deal(self, text: str) -> Deal:
        return notation.parse_deal(text, self.suits)

    def format_deal(self, deal: Deal) -> str:
        return notation.format_deal(deal, self.suits)

    def check_deal(self, deal: Deal) -> None:
        """A deal built in code must still fit the rules: ten coins, three distinct commons a seat."""
        notation.check_deal(deal, self.players)

    def initial_state(self, deal: Deal) -> State:
        self.check_deal(deal)
        return self.rules.initial_state(deal)

    # ----- the simultaneous-move verbs ------------------------------------------------
    def acting_players(self, state: State) -> tuple[int, ...]:
        return self.rules.acting_players(state)

    def legal_actions(self, state: State, seat: int) -> list[int]:
        return self.rules.legal_actions(state, seat)

    def apply_joint(self, state: State, actions: Sequence[int] | Mapping[int, int]) -> State:
        """Play one action per acting seat (a sequence in seat order, or a seat -> action map)
        and run every forced step up to the next decision point or the end."""
        seats = self.rules.acting_players(state)
        if isinstance(actions, Mapping):
            if set(actions) != set(seats):
                raise MoveError(f"seats {_seat_list(seats)} act here, not {_seat_list(sorted(actions))}")
            actions = tuple(actions[seat] for seat in seats)
        elif len(actions) != len(seats):
            raise MoveError(f"{len(seats)} seat(s) act here ({_seat_list(seats)}), not {len(actions)}")
        for seat, action in zip(seats, actions):
            if action not in self.rules.legal_actions(state, seat):
                raise MoveError(f"seat {seat + 1} cannot play {notation.format_action(state.phase, action)} here")
        return self.rules.apply_joint(state, actions)

    def returns(self, state: State) -> tuple[int, ...]:
        """Each seat's trick pile so far: the final scores once the game is over (spec §5)."""
        return state.tricks

    def is_over(self, state: State) -> bool:
        return state.phase == OVER

    def round_start(self, state: State) -> bool:
        """Round starts are the only states two lines can share (spec §8), so a table keys them only."""
        return state.phase == SELECT

    def cards_in_play(self, state: State) -> int:
        return self.rules.cards_in_play(state)

    def cards_reachable(self, state: State) -> int:
        return self.rules.cards_reachable(state)

    def cards_out_of_reach(self, state: State, seat: int) -> int:
        return self.rules.cards_out_of_reach(state, seat)

    def mode(self, state: State) -> int:
        """HIGH or LOW: this round's coin [R3]."""
        return self.rules.mode(state)

    # ----- the single-move contract, on joint moves -------------------------------------
    def legal_moves(self, state: State) -> list[tuple[int, ...]]:
        """Every joint move (one action per acting seat, in seat order)."""
        seats = self.rules.acting_players(state)
        if not seats:
            return []
        return list(itertools.product(*(self.rules.legal_actions(state, seat) for seat in seats)))

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
        return self.rules.key(state)

    def value_key(self, state: State) -> Hashable:
        return self.rules.value_key(state)

    # ----- notation ---------------------------------------------------------------------
    def format_action(self, state: State, action: int) -> str:
        """One seat's action as typed: a rank at SELECT, `@2` or `pass` otherwise."""
        return notation.format_action(state.phase, action)

    def format_move(self, state: State, move: Sequence[int]) -> str:
        return notation.format_joint(state.phase, move)

    def parse_move(self, state: State, text: str) -> tuple[int, ...]:
        seats = self.rules.acting_players(state)
        if not seats:
            raise MoveError("the game is over")
        move = notation.parse_joint(state.phase, text, len(seats))
        for seat, action in zip(seats, move):
            if action not in self.rules.legal_actions(state, seat):
                options = ", ".join(notation.format_action(state.phase, a)
                                    for a in self.rules.legal_actions(state, seat))
                raise MoveError(f"seat {seat + 1} cannot play {notation.format_action(state.phase, action)}"
                                f" here (options: {options})")
        return move

    def describe(self, state: State) -> str:
        return notation.describe(self.rules, state)

    def parse_action(self, state: State, seat: int, text: str) -> int:
        """A rank typed is a rank (`7`, `1` or `A` the ace, `T` the 10); at a target choice a
        number is the seat (`2` is `@2`); a rank not held is refused naming those held."""
        return notation.parse_seat_action(state.phase, text, self.rules.legal_actions(state, seat))

    def action_keys(self, state: State) -> str:
        return notation.action_keys(state.phase)

    def board(self, state: State, seat: int) -> str:
        return notation.board_text(self.rules, state, seat, self.rules.mode(state))

    def stage(self, state: State) -> str:
        return notation.stage_text(state)

    # ----- search and play hooks ----------------------------------------------------------
    def order_actions(self, state: State, seat: int, actions: list[int]) -> list[int]:
        """A search order (strongest first): high cards first in HIGH rounds, low ones in
        LOW; an Envoy before PASS.  It changes only how soon a search finds good lines."""
        if state.phase == SELECT:
            return sorted(actions, reverse=self.rules.mode(state) == HIGH)
        return sorted(actions, reverse=True)

    def greedy_action(self, state: State, seat: int) -> int:
        """The greedy bot's rule.  At a Select node, by the round's coin:

        - HIGH: the *threat* is the highest card any other seat holds (J 11, Q 12, K 13, A 1;
          the deuce's effect is ignored).  Play the lowest card of the seat's hand that is
          above the threat; if none is, play the lowest card of its hand.
        - LOW: the threat is the lowest card any other seat holds.  Play the highest card
          below the threat; if none is, play the highest card.

        So it wins the round as cheaply as it surely can, and otherwise throws the card least
        useful in this round's direction.  At a three's target it plays the first action in
        the search order (`order_actions`): the highest-numbered target seat.  In an Envoy
        sub-round it passes: an ace helps the seat it is played onto (+1 in HIGH, -1 in LOW),
        and this bot plays against every other seat."""
        return self.greedy_action_against(state, seat, range(len(state.hands)))

    def greedy_action_against(self, state: State, seat: int, against: Sequence[int]) -> int:
        """`greedy_action` with the threat taken from the seats `against` only (a seat of a
        coalition playing against one seat); the open-deal analysis's one-sided searches.  In
        an Envoy sub-round: an ace onto the highest-numbered legal target not in `against`,
        else PASS."""
        ranks = self.rules.legal_actions(state, seat)
        if state.phase == ENVOY:  # an ace helps its target: never onto a seat played against
            return next(action for action in self.order_actions(state, seat, ranks) if action not in against)
        if state.phase != SELECT:
            return self.order_actions(state, seat, ranks)[0]
        others = [rank for other in against if other != seat for rank in state.hands[other]]
        if self.rules.mode(state) == HIGH:
            threat = max(others, default=0)
            winners = [rank for rank in ranks if rank > threat]
            return min(winners) if winners else min(ranks)
        threat = min(others, default=14)
        winners = [rank for rank in ranks if rank < threat]
        return max(winners) if winners else max(ranks)

    def compiled_q4(self, state: State, seat: int) -> compiled.Q4Values | None:
        """The compiled two-player Q4 values of `state`'s deal for `seat` (an object whose
        `value(round_start, seconds, max_states)` gives a value-to-go), or None."""
        if not self.compiled:
            return None
        return compiled.q4_values(self.rules, state, seat)

    def compiled_paranoid(self, state: State, seat: int, question: str, margin: bool,
                          fixed: tuple[int, ...] = (), few_replies: bool = False) -> compiled.ParanoidValues | None:
        """The compiled Q1-Q3 (`question` "q1".."q3", on the margin or the cards) of `state`'s
        deal for `seat`, any number of players: `value(round_start, alpha, beta, seconds,
        max_states)` gives a fail-soft value in the window.  The seats in `fixed` play
        `greedy_action_against` (P against every other seat, the others against P): a
        one-sided search.  With `few_replies` the other seats choose among `few_options`."""
        if not self.compiled:
            return None
        return compiled.paranoid_values(self.rules, state, seat, question, margin, fixed, few_replies)

    offers_few_options = True

    def few_options(self, state: State, seat: int, p: int, actions: list[int], answered: int | None) -> list[int]:
        """The options a seat of the coalition against seat `p` (answering P's main card
        `answered`, None where P has not chosen) keeps in the search with few replies: at a
        main-card choice the greedy bot's card against P, the seat's weakest and strongest
        cards for the round, its 2 and 3 (the deuce, a three's power) and, answering P, the
        cheapest card that beats P's and one that ties it; every option elsewhere.  Fewer
        replies for the others can only help P, so the search's value is a ceiling of Q2 and
        Q3 (docs/rules/devils-throne.md §10 item 20).  In the order they are tried: answering
        P, beating and tying first, then the greedy bot's card, the weakest, the 2, the 3 and
        the strongest (a card that wins the round cheaply, or one thrown away, refutes P's
        card soonest); else in the order of `actions` (the search order, strongest first)."""
        if state.phase != SELECT or len(actions) <= 2:
            return actions
        high = self.rules.mode(state) == HIGH
        wanted = [self.greedy_action_against(state, seat, [p]), actions[-1], 2, 3, actions[0]]
        if answered is None:
            return [rank for rank in actions if rank in wanted]
        beating = [rank for rank in actions if (rank > answered if high else rank < answered)]
        wanted = beating[-1:] + [answered] + wanted
        return [rank for rank in dict.fromkeys(wanted) if rank in actions]

    def order_replies(self, state: State, seat: int, p: int, actions: list[int], answered: int | None) -> list[int]:
        """Every option of a coalition seat answering P, `few_options` first and the rest in
        the order of `actions`."""
        few = self.few_options(state, seat, p, actions, answered)
        return few + [rank for rank in actions if rank not in few]

    def joint_play_model(self, state: State, seat: int, margin: bool, restricted: bool = False,
                         at_ceiling: bool = False, short: int = 0) -> JointPlay | None:
        """Every joint play from round start `state` as one CP-SAT model (joint_play.py);
        `restricted`: those in which no Envoy ace is played; `at_ceiling`: those that give
        `seat` every card still in play but `short` (None where `short` is the number of seats
        or more, or any short of the margin's ceiling: JointPlay)."""
        if not self.round_start(state):
            return None
        if not states_short(self.players, margin, at_ceiling, short):
            return None
        return JointPlay(self.rules, state, seat, margin, envoys=not restricted, at_ceiling=at_ceiling, short=short)


def late_round_start(game: DevilsThrone, seed: int, cards_left: int, envoys: bool = False,
                     accept: Callable[[State], bool] = lambda state: True) -> State:
    """A round start near the end of a deal: seeded random deals played by random joint
    actions until the smallest hand holds at most `cards_left` cards, the first such start
    (game not over) that `accept` takes.  `envoys`: an Envoy is played whenever one may, so
    that hands end uneven.  For the tests and for measuring how a search's cost grows."""
    rng = random.Random(seed)
    while True:
        state = game.initial_state(game.deal_from_seed(rng.randrange(10**6)))
        while not game.is_over(state) and (state.phase != SELECT or min(map(len, state.hands)) > cards_left):
            joint = []
            for seat in game.acting_players(state):
                actions = game.legal_actions(state, seat)
                aces = [action for action in actions if action != PASS] if envoys and state.phase == ENVOY else []
                joint.append(rng.choice(aces or actions))
            state = game.apply_joint(state, tuple(joint))
        if not game.is_over(state) and accept(state):
            return state


def _seat_list(seats: Sequence[int]) -> str:
    return ",".join(str(s + 1) for s in seats) or "none"


def _split_suits(text: str) -> list[str]:
    parts = [p for p in text.replace(",", " ").split() if p]
    if len(parts) == 1 and len(parts[0]) > 1 and all(parse_suit(ch) for ch in parts[0]):
        parts = list(parts[0])  # suits=DH
    return parts
