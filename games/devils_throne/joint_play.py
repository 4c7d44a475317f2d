"""Every joint play of Devil's Throne from a round start, as one CP-SAT model (spec §8, Q1).

Q1 asks for the most a seat P can end with when every seat plays for it.  As a tree search
that is wide (10^4 joint main cards a round at four seats) and its only bound, "every card
still in play", is reached or refuted only at the end of a line.  The same question is a
small integer program over the rounds still to come: which card each seat plays each round,
where each three aims, which Envoy aces go where in which sub-round, and what follows by
force (deuce, totals, tie-break draws, winner, trick, end check).  CP-SAT's bound then proves
a ceiling that no joint play passes, and its solution is a line the solver replays.

The model is exact, not a relaxation: every constraint below is one rule of
docs/rules/devils-throne.md, and every legal joint play is a solution with the same payoff
(so the optimum is Q1's value), while every solution is a legal line (so the solver can replay
it; one that does not replay, or reaches another payoff, is a defect it reports).

Time runs over rounds t (the state's round up to the tenth [R24]); within a round the
reserve draws are events in the rules' order: the Martyr, the Gravedigger, the Robber, the
Lover [R11], then up to three tie-break steps [R16].  A reserve is a stack: an event takes
card d of seat j's reserve only when exactly d cards have left it before.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from games.devils_throne.cards import ACE, DEUCE, GRAVEDIGGER, HIGH, LOVER, MARTYR, MAX_ROUNDS, RANKS, ROBBER, THREE
from games.devils_throne.rules import EFFECT, ENVOY, OVER, PASS, SELECT, Rules, State

#: A reserve holds three cards and each tie-break step draws one from each drawer, so after
#: three steps the seats still tied draw nothing: the round is void [R16].
TIE_BREAK_STEPS = 3


@dataclass
class _Round:
    """The decision variables of one round, read back into moves by `JointPlay.line`."""

    number: int
    mains: dict[int, dict[int, object]] = field(default_factory=dict)        # seat -> rank -> literal
    effect_targets: dict[int, dict[int, object]] = field(default_factory=dict)  # effect index -> seat -> literal
    envoys: list[dict[tuple[int, int], object]] = field(default_factory=list)   # sub-round -> (ace's seat, target)


@dataclass
class _Now:
    """The expressions of the round being built, passed between its steps."""

    plan: _Round
    alive: object                   # the round is played
    hands: list[dict]               # seat -> rank -> count at the round's start
    depth: list                     # seat -> cards gone from its reserve (moved on by each draw)
    high: bool                      # the coin: HIGH, else LOW
    gained: list[dict]              # seat -> rank -> cards a three put in its hand
    mains: list[dict] = field(default_factory=list)          # seat -> rank -> literal
    deuce: object = None
    totals: list = field(default_factory=list)
    extra_cards: list = field(default_factory=list)  # literals of the pool's cards besides the mains
    robbed: dict = field(default_factory=lambda: defaultdict(int))  # seat -> the Robber's card
    spent: dict = field(default_factory=dict)        # seat -> its ace played as an Envoy


def states_short(players: int, margin: bool, at_ceiling: bool, short: int) -> bool:
    """Whether JointPlay states the plays `short` cards below the ceiling: for the cards, at
    the ceiling, fewer cards than there are seats (so that P still wins every round)."""
    return short == 0 or (at_ceiling and not margin and 0 < short < players)


class JointPlay:
    """The CP-SAT model of every joint play from round start `state`, maximising `seat`'s cards
    (or, with `margin`, its cards less the most any other seat holds) at the game's end.
    Without `envoys`, of the joint plays in which no Envoy ace is played: a restriction (a
    streamliner) whose lines are legal and often found far sooner, but whose bound proves
    nothing.  `ceiling` is the payoff were the seat to take every card still in play; with
    `at_ceiling`, of the joint plays that give it every card but `short` only (a model with no
    solution then proves that Q1 is not ceiling - short).  With fewer cards missing than there
    are seats, the seat still wins every round (a round lost or void takes a main card of every
    seat), which is what makes these models fast; so `short` is below the number of seats, and
    0 for the margin."""

    def __init__(self, rules: Rules, state: State, seat: int, margin: bool, envoys: bool = True,
                 at_ceiling: bool = False, short: int = 0):
        from ortools.sat.python import cp_model

        if state.phase != SELECT:
            raise ValueError("the joint-play model starts at a round start")
        if not states_short(rules.players, margin, at_ceiling, short):
            raise ValueError(f"no model of the plays {short} short of the ceiling here")
        self.model = cp_model.CpModel()
        self.rules, self.state, self.seat = rules, state, seat
        self.players = rules.players
        self.reserves = state.reserves
        self.rounds: list[_Round] = []
        # seat -> rank -> each round's change in hand (given less played)
        self._flows: list[dict] = [defaultdict(list) for _ in range(self.players)]
        self.envoys, self.at_ceiling, self.short = envoys, at_ceiling, short
        self._robbed_by_others: list = []  # each round's Robber cards taken by another seat than P
        self._true = self.model.new_constant(1)
        self._build(margin)

    # ----- small reified helpers ------------------------------------------------------------
    def _bool(self):
        return self.model.new_bool_var("")

    def _all(self, literals: Sequence) -> object:
        """A literal true exactly when every one of `literals` is."""
        literals = list(literals)
        if len(literals) == 1:
            return literals[0]
        both = self._bool()
        self.model.add_bool_and(literals).only_enforce_if(both)
        self.model.add_bool_or([~lit for lit in literals] + [both])
        return both

    def _any(self, literals: Sequence) -> object:
        """A literal true exactly when some one of `literals` is (false when there are none)."""
        literals = list(literals)
        if not literals:
            return ~self._true
        if len(literals) == 1:
            return literals[0]
        some = self._bool()
        self.model.add_bool_or(literals).only_enforce_if(some)
        self.model.add_bool_and([~lit for lit in literals]).only_enforce_if(~some)
        return some

    def _equals(self, expr, value) -> object:
        """A literal true exactly when the linear `expr` equals `value` (a number or expression)."""
        same = self._bool()
        self.model.add(expr == value).only_enforce_if(same)
        self.model.add(expr != value).only_enforce_if(~same)
        return same

    def _at_least(self, expr, value: int) -> object:
        """A literal true exactly when `expr` >= `value`."""
        reached = self._bool()
        self.model.add(expr >= value).only_enforce_if(reached)
        self.model.add(expr <= value - 1).only_enforce_if(~reached)
        return reached

    def _int(self, expr, low: int, high: int):
        """An integer variable equal to `expr` (keeps later expressions short)."""
        var = self.model.new_int_var(low, high, "")
        self.model.add(var == expr)
        return var

    def _value(self, chosen: Sequence[tuple[object, int]], deuce) -> object:
        """The value of the card whose literal is true among (literal, rank) pairs: its rank,
        or 10 for a J, Q or K in a deuce round [R10]."""
        total = 0
        for literal, rank in chosen:
            total += rank * literal
            if rank > 10:
                total -= (rank - 10) * self._all([literal, deuce])
        return total

    # ----- reserves: stacks read from the top --------------------------------------------------
    def _nonempty(self, depth: list, seat: int) -> object:
        """A literal true exactly when `seat`'s reserve still holds a card."""
        size = len(self.reserves[seat])
        if size == 0:
            return ~self._true
        return ~self._at_least(depth[seat], size)

    def _takes(self, depth: list, seat: int) -> dict[int, object]:
        """Literals "this event takes card d of `seat`'s reserve", each true only where d cards
        have left that reserve before: the card taken is always the top."""
        takes = {}
        for card in range(len(self.reserves[seat])):
            take = self._bool()
            self.model.add(depth[seat] == card).only_enforce_if(take)
            takes[card] = take
        return takes

    def _take(self, depth: list, seat: int, fire) -> dict[int, object]:
        """The top card of `seat`'s reserve taken exactly when `fire` holds; moves the depth on."""
        takes = self._takes(depth, seat)
        self.model.add(sum(takes.values()) == fire)
        depth[seat] = depth[seat] + sum(takes.values())
        return takes

    def _take_one_of(self, depth: list, seats: Sequence[int], fire) -> dict[int, dict[int, object]]:
        """As _take, from exactly one of `seats`' non-empty reserves when `fire` holds."""
        takes = {seat: self._takes(depth, seat) for seat in seats}
        self.model.add(sum(t for cards in takes.values() for t in cards.values()) == fire)
        for seat in seats:
            depth[seat] = depth[seat] + sum(takes[seat].values())
        return takes

    # ----- the game ---------------------------------------------------------------------------
    def _build(self, margin: bool) -> None:
        players, state = self.players, self.state
        hands = [{rank: state.hands[seat].count(rank) for rank in RANKS} for seat in range(players)]
        depth: list = [0] * players
        alive = self._true
        cards = [state.tricks[seat] for seat in range(players)]
        for number in range(state.round, MAX_ROUNDS + 1):
            alive, hands, gains = self._round(number, alive, hands, depth)
            cards = [cards[seat] + gains[seat] for seat in range(players)]
        self.model.add(alive == 0)  # every game ends by the tenth round [R24]
        # no card is created, and those left in hands and reserves are won by no one: redundant
        # cuts that let the solver's bound see the ceiling
        left = sum(sum(hand.values()) for hand in hands) + sum(len(self.reserves[s]) - depth[s] for s in range(players))
        self.model.add(sum(cards) + left <= sum(state.tricks) + self.rules.cards_in_play(state))
        self.model.add(cards[self.seat] <= state.tricks[self.seat] + self.rules.cards_reachable(state)
                       - self.rules.cards_out_of_reach(state, self.seat))
        every_card = state.tricks[self.seat] + self.rules.cards_in_play(state)
        if self.at_ceiling:
            self.model.add(cards[self.seat] == every_card - self.short)
            self._left_at_the_end(hands, depth)
        self.payoff, self.ceiling = cards[self.seat], every_card
        if margin:
            most_now = max(state.tricks[other] for other in range(players) if other != self.seat)
            most = self.model.new_int_var(0, 13 * players, "")
            for other in range(players):
                if other != self.seat:
                    self.model.add(most >= cards[other])
            if self.at_ceiling:  # the others gain nothing (implied; the payoff is then exact)
                self.model.add(most == most_now)
            self.payoff, self.ceiling = self.payoff - most, every_card - most_now
        # at the ceiling the payoff is fixed: a question of feasibility, so the solver stops at
        # the first solution instead of trying to prove a bound on an objective that cannot move
        self.model.maximize(self.ceiling - self.short if self.at_ceiling else self.payoff)

    def _left_at_the_end(self, hands: list[dict], depth: list) -> None:
        """Where the seat takes every card but `short`, and wins every round, the cards it
        misses are those left in hands and reserves at the end and those another seat's Robber
        took: `short` in all.  Implied by the payoff, but written seat by seat and rank by rank
        (each as one sum over the rounds of the cards played and given, and as the final hand),
        so that the solver sees at once, with nothing short, that every hand must empty in the
        same round: a seat that plays an Envoy must have been given a card to make up for it."""
        left = []
        for seat in range(self.players):
            for rank, count in hands[seat].items():
                flat = self.state.hands[seat].count(rank) + sum(self._flows[seat][rank])
                for expr in (count, flat):
                    if not isinstance(expr, int):
                        self.model.add_linear_constraint(expr, 0, self.short)
                left.append(flat)
            in_reserve = len(self.reserves[seat]) - depth[seat]
            if not isinstance(in_reserve, int):
                self.model.add_linear_constraint(in_reserve, 0, self.short)
            left.append(in_reserve)
        self.model.add(sum(left) + sum(self._robbed_by_others) == self.short)

    def _round(self, number: int, alive, hands: list[dict], depth: list):
        """One round's variables and rules; returns whether the next round is played, the hands
        after this one, and the cards each seat gains in it."""
        plan = _Round(number)
        self.rounds.append(plan)
        high = self.rules.mode(self.state._replace(round=number)) == HIGH
        now = _Now(plan, alive, hands, depth, high, [{rank: 0 for rank in RANKS} for _ in range(self.players)])
        self._select(now)
        self._threes(now)
        now.totals = [self._int(total, -10, 40) for total in now.totals]
        if self.envoys:
            self._envoy_window(now)
        winners = self._winners(now)
        if self.at_ceiling:
            self._every_round_to_the_seat(now, winners)
        gains = self._gains(now, winners)
        after = self._hands_after(now)
        nonempty = [self._at_least(sum(hand.values()), 1) for hand in after]
        return self._all([alive] + nonempty), after, gains

    def _select(self, now: _Now) -> None:
        """Every seat plays one card it holds [§4 step 2]; a 2 makes it a deuce round [R10]."""
        reachable = self._ranks_reaching(now.hands)
        for seat in range(self.players):
            now.plan.mains[seat] = {rank: self._bool() for rank in reachable[seat]}
            for rank, literal in now.plan.mains[seat].items():
                self.model.add(literal <= now.hands[seat][rank])
            self.model.add(sum(now.plan.mains[seat].values()) == now.alive)
        now.mains = list(now.plan.mains.values())
        now.deuce = self._any([mains[DEUCE] for mains in now.mains if DEUCE in mains])
        now.totals = [self._value([(lit, rank) for rank, lit in mains.items()], now.deuce) for mains in now.mains]

    def _threes(self, now: _Now) -> None:
        """The threes played, in the order Martyr, Gravedigger, Robber, Lover, each on a legal
        target whenever there is one [R11-R14]."""
        players, depth = self.players, now.depth
        for index, (power, owner) in enumerate(self.rules.effects):
            three = now.mains[owner].get(THREE)
            if three is None:
                continue
            others = [s for s in range(players) if s != owner]
            if power == MARTYR:  # the owner's reserve top into another seat's hand
                fire = self._all([three, self._nonempty(depth, owner)])
                aims = {s: self._bool() for s in others}
                self.model.add(sum(aims.values()) == fire)
                takes = self._take(depth, owner, fire)
                for target, aim in aims.items():
                    for card, take in takes.items():
                        now.gained[target][self.reserves[owner][card]] += self._all([aim, take])
                now.plan.effect_targets[index] = aims
                continue
            sources = range(players) if power in (GRAVEDIGGER, ROBBER) else others
            fire = self._all([three, self._any([self._nonempty(depth, s) for s in sources])])
            takes = self._take_one_of(depth, sources, fire)
            now.plan.effect_targets[index] = {s: self._any(list(takes[s].values())) for s in sources}
            if power == GRAVEDIGGER:  # into the owner's hand
                for source in sources:
                    for card, take in takes[source].items():
                        now.gained[owner][self.reserves[source][card]] += take
            elif power == ROBBER:  # onto the owner's trick pile, even in a void round [R17]
                now.robbed[owner] = fire
            else:  # the Lover: into the pool, adding to the target's total
                assert power == LOVER
                for target in sources:
                    pairs = [(take, self.reserves[target][card]) for card, take in takes[target].items()]
                    now.totals[target] = now.totals[target] + self._value(pairs, now.deuce)
                now.extra_cards.append(fire)

    def _envoy_window(self, now: _Now) -> None:
        """Sub-rounds in which each seat holding its ace may play it onto another seat that it
        makes tie for best or best alone, judged on the sub-round's starting totals; the window
        closes at the first sub-round with no ace played [R5-R9]."""
        players = self.players
        step = 1 if now.high else -1
        aces = [s for s in range(players) if ACE in now.mains[s]]
        now.spent = {s: 0 for s in aces}
        played_before = None
        for _ in range(len(aces)):  # one ace a seat: at most this many sub-rounds with plays
            best = self._best(now.totals, now.high)
            at_best = [self._equals(now.totals[s], best) for s in range(players)]
            shared = self._at_least(sum(at_best), 2)
            plays: dict[tuple[int, int], object] = {}
            for target in range(players):
                short = self._equals(now.totals[target], best - step)
                legal = self._any([short, self._all([at_best[target], shared])])
                for owner in aces:
                    if owner != target:
                        play = self._bool()
                        self.model.add_implication(play, legal)
                        plays[owner, target] = play
            for owner in aces:
                own = [p for (o, _), p in plays.items() if o == owner]
                self.model.add(sum(own) + now.spent[owner] + now.mains[owner][ACE] <= now.hands[owner][ACE])
                self.model.add(sum(own) <= now.alive)
                now.spent[owner] = now.spent[owner] + sum(own)
            played = self._any(list(plays.values()))
            if played_before is not None:
                self.model.add_implication(played, played_before)  # the window closed
            played_before = played
            now.plan.envoys.append(plays)
            now.totals = [self._int(now.totals[t] + step * sum(p for (_, tt), p in plays.items() if tt == t), -10, 40)
                          for t in range(players)]
            now.extra_cards.extend(plays.values())

    def _winners(self, now: _Now) -> list:
        """A literal a seat: it wins the round, alone at best or by the tie-break's draws, which
        join the pool; none in a void round [§4 step 7, R4, R16]."""
        players, depth = self.players, now.depth
        best = self._best(now.totals, now.high)
        tied = [self._all([now.alive, self._equals(now.totals[s], best)]) for s in range(players)]
        for _ in range(TIE_BREAK_STEPS):
            contest = self._at_least(sum(tied), 2)
            drawers = [self._all([tied[s], contest, self._nonempty(depth, s)]) for s in range(players)]
            draws = [self._take(depth, s, drawers[s]) if self.reserves[s] else {} for s in range(players)]
            values = [self._int(self._value([(take, self.reserves[s][card]) for card, take in draws[s].items()],
                                            now.deuce), 0, 13) for s in range(players)]
            drawn_best = self.model.new_int_var(0, 13, "")
            tops = []
            for s in range(players):
                beaten = values[s] <= drawn_best if now.high else values[s] >= drawn_best
                self.model.add(beaten).only_enforce_if(drawers[s])
                top = self._bool()
                self.model.add_implication(top, drawers[s])
                self.model.add(values[s] == drawn_best).only_enforce_if(top)
                tops.append(top)
            self.model.add(sum(tops) >= 1).only_enforce_if(self._any(drawers))
            now.extra_cards.extend(drawers)
            tied = [self._any([self._all([~contest, tied[s]]),
                               self._all([drawers[s], self._equals(values[s], drawn_best)])])
                    for s in range(players)]
        alone = self._equals(sum(tied), 1)  # still tied after three draws: every reserve is empty, void
        winners = [self._all([tied[s], alone]) for s in range(players)]
        self.model.add(sum(winners) <= now.alive)
        return winners

    def _every_round_to_the_seat(self, now: _Now, winners: list) -> None:
        """Where the seat misses fewer cards than there are seats, it wins every round played
        (a void round's pool leaves the game) and, with nothing missing, no other seat's Robber
        fires: implied by the payoff, written out so that the solver sees them at once,
        not through the sum of every round's gains."""
        self.model.add(winners[self.seat] == now.alive)
        for owner, fired in now.robbed.items():  # only the Robbers played this round, so far
            if owner != self.seat:
                self._robbed_by_others.append(fired)
                if not self.short:
                    self.model.add(fired == 0)

    def _gains(self, now: _Now, winners: list) -> list:
        """The cards each seat gains this round: the pool if it wins, and the Robber's card.
        The pool counted card by card, each ANDed with its winner, is a far tighter relaxation
        than winner * pool size."""
        gains = [self.players * winners[s] + now.robbed[s] for s in range(self.players)]
        for card in now.extra_cards:
            taken = [self._all([winners[s], card]) for s in range(self.players)]
            self.model.add(sum(taken) <= card)  # one winner a card (implied, but not by the relaxation)
            gains = [gain + take for gain, take in zip(gains, taken)]
        return gains

    def _hands_after(self, now: _Now) -> list[dict]:
        """Each seat's ranks in hand after the round: less its main card and its Envoy, plus what
        a Martyr or the Gravedigger gave it."""
        after = []
        for seat in range(self.players):
            hand = {}
            for rank in RANKS:
                change = now.gained[seat][rank] - now.mains[seat].get(rank, 0)
                if rank == ACE and seat in now.spent:
                    change = change - now.spent[seat]
                self._flows[seat][rank].append(change)
                expr = now.hands[seat][rank] + change
                hand[rank] = expr if isinstance(expr, int) else self._int(expr, 0, 1 + self.players)
            after.append(hand)
        return after

    def _best(self, totals: Sequence, high: bool):
        best = self.model.new_int_var(-10, 40, "")
        if high:
            self.model.add_max_equality(best, totals)
        else:
            self.model.add_min_equality(best, totals)
        return best

    def _ranks_reaching(self, hands: list[dict]) -> list[list[int]]:
        """The ranks each seat may hold this round: what its hand may hold, and any common still
        in a reserve when a Martyr or the Gravedigger could bring it [R12, R13]."""
        in_reserves = sorted({rank for reserve in self.reserves for rank in reserve})
        receivers = set()
        for power, owner in self.rules.effects:
            if power == MARTYR:
                receivers |= {s for s in range(self.players) if s != owner}
            elif power == GRAVEDIGGER:
                receivers.add(owner)
        reaching = []
        for seat in range(self.players):
            held = {rank for rank, count in hands[seat].items() if not isinstance(count, int) or count > 0}
            if seat in receivers:
                held |= set(in_reserves)
            reaching.append(sorted(held))
        return reaching

    # ----- reading and suggesting solutions -----------------------------------------------------
    def hint(self, moves: Sequence[tuple[int, ...]]) -> None:
        """Suggest the main cards of a line (from this model's start) as the solver's first guess."""
        state, rounds = self.state, iter(self.rounds)
        for move in moves:
            if state.phase == SELECT:
                plan = next(rounds)
                for seat, rank in enumerate(move):
                    for held, literal in plan.mains[seat].items():
                        self.model.add_hint(literal, held == rank)
            state = self.rules.apply_joint(state, move)

    def line(self, value: Callable[[object], int]) -> list[tuple[int, ...]]:
        """The joint moves of the solution whose literals `value` reads, walked through the
        rules so that each node gets the actions its acting seats choose there."""
        state, moves = self.state, []
        for plan in self.rounds:
            if state.phase == OVER:
                break
            mains = tuple(next(rank for rank, lit in plan.mains[seat].items() if value(lit))
                          for seat in range(self.players))
            moves.append(mains)
            state = self.rules.apply_joint(state, mains)
            sub_round = 0
            while state.phase in (EFFECT, ENVOY) and state.round == plan.number:
                if state.phase == EFFECT:
                    aims = plan.effect_targets[state.effect]
                    joint = (next((s for s, lit in aims.items() if value(lit)), PASS),)
                else:
                    plays = plan.envoys[sub_round] if sub_round < len(plan.envoys) else {}
                    chosen = {owner: target for (owner, target), lit in plays.items() if value(lit)}
                    joint = tuple(chosen.get(seat, PASS) for seat in self.rules.acting_players(state))
                    sub_round += 1
                moves.append(joint)
                state = self.rules.apply_joint(state, joint)
        return moves
