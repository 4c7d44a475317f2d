"""Q1-Q3 on one payoff: alpha-beta (fail-soft) over max/min layers, with a table of (floor,
ceiling) per round start, probed with null windows; the one-sided and few-replies variants
(some seats on the game's greedy bot, or kept to its few replies) and the search of the next
round alone (HorizonFloor); and the game's compiled engine of the same search.

A payoff that adds up stores a value-to-go (the key leaves the tricks out); the margin of
three or more seats does not add up, so its key carries the differences c_P - c_Q, shifted so
that the least is 0 (the margin is their minimum, so the shift only moves the value) and
capped where a lead can no longer be the least."""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Sequence
from typing import Any

from games.base import CompiledMissing, EngineError, SimultaneousGame
from solver.answers import CARDS, MARGIN, TABLE_MEMORY_TEXT, Budget, Limit, SeatStats, state_budget_text
from solver.search import BudgetExceeded, notice_once

#: Nodes between two looks at the clock.
CHECK_EVERY = 256


def payoff_now(returns: Sequence[int], seat: int, payoff: str) -> int:
    """A payoff as the trick piles stand: P's cards, or P's margin over the best other seat."""
    if payoff == CARDS:
        return returns[seat]
    return returns[seat] - max(cards for other, cards in enumerate(returns) if other != seat)


def compiled_paranoid(game: SimultaneousGame, state: Any, seat: int, question: str, payoff: str,
                       engine: str, fixed: tuple[int, ...] = (), few_replies: bool = False) -> Any:
    """The game's compiled Q1-Q3 from this round start, None for the Python search."""
    if engine == "python":
        return None
    compiled = None
    if game.round_start(state):
        try:
            if fixed or few_replies:
                compiled = game.compiled_paranoid(state, seat, question, payoff == MARGIN, fixed=fixed,
                                                  few_replies=few_replies)
            else:
                compiled = game.compiled_paranoid(state, seat, question, payoff == MARGIN)
        except CompiledMissing as exc:
            not_built(exc, engine)
    if compiled is None and engine == "compiled":
        raise EngineError(f"no compiled {question.upper()} engine for {game.name} here"
                          " (not built, or not a round start)")
    return compiled


def not_built(exc: CompiledMissing, engine: str) -> None:
    """A compiled engine that is not built: an error when asked for by name, else said once
    on stderr (the Python engine answers)."""
    if engine == "compiled":
        raise exc
    notice_once(f"usurper: note: {exc}; using the Python engine (slower)")


class Budgeted:
    def __init__(self, game: SimultaneousGame, budget: Budget, deadline: float | None, stats: SeatStats):
        self.game = game
        self.budget = budget
        self.deadline = deadline
        self.stats = stats
        self.calls = 0
        self.table: dict = {}

    def _tick(self) -> None:
        self.stats.nodes += 1
        self.calls += 1
        if self.calls % CHECK_EVERY == 0 and self.deadline is not None and time.perf_counter() > self.deadline:
            raise BudgetExceeded(Limit.TIME, self.budget.time_text())

    def _stopped(self, which: str) -> BudgetExceeded:
        """What stops a search whose compiled run ran out of "time", "states" or "memory"."""
        if which == "time":
            return BudgetExceeded(Limit.TIME, self.budget.time_text())
        if which == "states":
            return BudgetExceeded(Limit.STATES, state_budget_text(self.budget.max_states))
        return BudgetExceeded(Limit.MEMORY, TABLE_MEMORY_TEXT)

    def _count_state(self) -> None:
        self.stats.states += 1
        if self.budget.max_states is not None and self.stats.states > self.budget.max_states:
            raise BudgetExceeded(Limit.STATES, state_budget_text(self.budget.max_states))


class Paranoid(Budgeted):
    """Q1-Q3 on one payoff: alpha-beta (fail-soft) with a table of (floor, ceiling) per key,
    probed with windows; seats in `fixed` play the game's greedy bot (one option); with
    `few_replies` the other seats choose among the game's `few_options` only (a ceiling).
    Where the others answer P's action (Q2), they try their replies in the game's
    `order_replies`."""

    def __init__(self, game: SimultaneousGame, seat: int, question: str, payoff: str, budget: Budget,
                 deadline: float | None, stats: SeatStats, compiled: Any = None, fixed: tuple[int, ...] = (),
                 few_replies: bool = False):
        super().__init__(game, budget, deadline, stats)
        self.compiled = compiled
        self.seat = seat
        self.question = question
        self.payoff = payoff
        self.fixed = fixed
        self.few_replies = few_replies
        self.root = None
        self.root_action: str | None = None
        self._compiled_counts = (0, 0)

    def probe(self, state: Any, alpha: float, beta: float) -> float:
        """The fail-soft value of round start `state` within (alpha, beta)."""
        self.root = state
        self.root_action = None
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise self._stopped("time")
        if self.compiled is not None:
            return self._probe_compiled(state, alpha, beta)
        return self._root_value(state, alpha, beta)

    def _probe_compiled(self, state: Any, alpha: float, beta: float) -> float:
        seconds = None if self.deadline is None else max(1e-6, self.deadline - time.perf_counter())
        states = None if self.budget.max_states is None else max(0, self.budget.max_states - self.stats.states)
        run = self.compiled.value(state, alpha, beta, seconds, states)
        self.stats.states += run.states - self._compiled_counts[0]
        self.stats.table_hits += run.table_hits - self._compiled_counts[1]
        self._compiled_counts = (run.states, run.table_hits)
        if run.root_action:
            self.root_action = self.game.format_action(state, run.root_action)
        if run.value is None:
            raise self._stopped(run.exhausted)
        return int(run.value)

    @staticmethod
    def bounds_of(game: SimultaneousGame, state: Any, seat: int, payoff: str,
                  spare: int | None = None) -> tuple[int, int]:
        """No line from `state` leaves the payoff outside these: the others together gain at
        most every card that can still be won (`spare`, `cards_reachable`), P those less the
        ones out of its reach."""
        if spare is None:
            spare = game.cards_reachable(state)
        now, mine = payoff_now(game.returns(state), seat, payoff), spare - game.cards_out_of_reach(state, seat)
        return (now if payoff == CARDS else now - spare), now + mine

    def _payoff(self, state: Any) -> int:
        return payoff_now(self.game.returns(state), self.seat, self.payoff)

    def _table_key(self, state: Any, spare: int) -> tuple[Any, int]:
        """The key and the offset that turns a stored value-to-go into the state's value
        (`spare`: the cards that can still be won)."""
        returns = self.game.returns(state)
        if self.payoff == CARDS:
            return self.game.value_key(state), returns[self.seat]
        leads = [returns[self.seat] - r for s, r in enumerate(returns) if s != self.seat]
        if len(leads) == 1:
            return self.game.value_key(state), leads[0]
        least = min(leads)
        # a lead more than twice the cards that can still be won above the least can never be the least
        cap = 2 * spare + 1
        return (self.game.value_key(state), tuple(min(lead - least, cap) for lead in leads)), least

    def _entry(self, state: Any, count_hit: bool) -> tuple[Any, int, float, float]:
        spare = self.game.cards_reachable(state)
        key, offset = self._table_key(state, spare)
        floor, ceiling = self.bounds_of(self.game, state, self.seat, self.payoff, spare)
        entry = self.table.get(key)
        if entry is not None:
            if count_hit:
                self.stats.table_hits += 1
            floor, ceiling = max(floor, entry[0] + offset), min(ceiling, entry[1] + offset)
        return key, offset, floor, ceiling

    def _store(self, key, offset, floor, ceiling, low, high, value) -> None:
        if value <= low:
            ceiling = min(ceiling, value)
        elif value >= high:
            floor = max(floor, value)
        else:
            floor = ceiling = value
        self.table[key] = (floor - offset, ceiling - offset)

    def _root_value(self, state: Any, alpha: float, beta: float) -> float:
        """As _value, but always expanded (no table hit counted), noting P's root action."""
        self._tick()
        key, offset, floor, ceiling = self._entry(state, False)
        self._count_state()
        value = self._node(state, alpha, beta)
        self._store(key, offset, floor, ceiling, alpha, beta, value)
        return value

    def _value(self, state: Any, alpha: float, beta: float) -> float:
        self._tick()
        if self.game.is_over(state):
            return self._payoff(state)
        if not self.game.round_start(state):
            return self._node(state, alpha, beta)
        key, offset, floor, ceiling = self._entry(state, True)
        if floor >= beta or floor == ceiling:
            return floor
        if ceiling <= alpha:
            return ceiling
        low, high = max(alpha, floor), min(beta, ceiling)
        self._count_state()
        value = self._node(state, low, high)
        self._store(key, offset, floor, ceiling, low, high, value)
        return value

    def _node(self, state: Any, alpha: float, beta: float) -> float:
        acting = self.game.acting_players(state)
        options = {}
        for seat in acting:
            if seat in self.fixed:
                options[seat] = [self._policy(state, seat)]
            else:
                options[seat] = self.game.order_actions(state, seat, self.game.legal_actions(state, seat))
        return self._layer(state, acting, options, self._layers(acting), 0, {}, alpha, beta)

    def _policy(self, state: Any, seat: int) -> Any:
        """A fixed seat's action: the game's greedy bot, P's against every other seat and a
        coalition seat's against P (where the game can aim it; else its plain greedy bot)."""
        players = len(self.game.returns(state))
        against = [s for s in range(players) if s != seat] if seat == self.seat else [self.seat]
        return self.game.greedy_action_against(state, seat, against)

    def _layers(self, acting: tuple[int, ...]) -> list[tuple[tuple[int, ...], bool]]:
        """Who chooses in which order at this node, and whether that choice maximises."""
        if self.question == "q1":
            return [(acting, True)]
        others = tuple(s for s in acting if s != self.seat)
        if self.seat not in acting:
            return [(others, False)]
        if not others:
            return [((self.seat,), True)]
        if self.question == "q2":
            return [((self.seat,), True), (others, False)]
        return [(others, False), ((self.seat,), True)]

    def _layer(self, state, acting, options, layers, index, chosen, alpha, beta) -> float:
        if index == len(layers):
            return self._value(self.game.apply_joint(state, tuple(chosen[s] for s in acting)), alpha, beta)
        seats, maximise = layers[index]
        at_root = state is self.root and index == 0
        best = -math.inf if maximise else math.inf
        choices = [options[s] for s in seats]
        answered = chosen.get(self.seat) if self.seat not in seats else None  # P's action, where P chose first
        if self.few_replies and self.seat not in seats:
            choices = [self.game.few_options(state, s, self.seat, options[s], answered) for s in seats]
        elif answered is not None:
            choices = [self.game.order_replies(state, s, self.seat, options[s], answered) for s in seats]
        for joint in itertools.product(*choices):
            chosen.update(zip(seats, joint))
            value = self._layer(state, acting, options, layers, index + 1, chosen, alpha, beta)
            if maximise and value > best:
                best, alpha = value, max(alpha, value)
                if at_root:
                    self.root_action = self._action_text(state, seats, joint)
            elif not maximise and value < best:
                best, beta = value, min(beta, value)
            if alpha >= beta:
                break
        return best

    def _action_text(self, state, seats, joint) -> str | None:
        if self.seat not in seats:
            return None
        return self.game.format_action(state, joint[seats.index(self.seat)])


class HorizonFloor(Paranoid):
    """Q2 or Q3 over the next `horizon` rounds alone: a round start beyond them, and any node
    whose static floor already reaches the probe, counts at its static floor.  Every leaf is
    then at most its value in the whole game and max/min are monotone, so any value this
    search proves is a floor of the whole game's; a probe that fails proves nothing (no
    ceiling is taken from it).  Python, no table: its values are not the full search's."""

    def __init__(self, game: SimultaneousGame, seat: int, question: str, payoff: str, budget: Budget,
                 deadline: float | None, stats: SeatStats, horizon: int):
        super().__init__(game, seat, question, payoff, budget, deadline, stats)
        self.horizon = horizon
        self.rounds = 0

    def _root_value(self, state: Any, alpha: float, beta: float) -> float:
        self._tick()
        self._count_state()
        self.rounds = 1
        return self._node(state, alpha, beta)

    def _value(self, state: Any, alpha: float, beta: float) -> float:
        self._tick()
        if self.game.is_over(state):
            return self._payoff(state)
        floor, ceiling = self.bounds_of(self.game, state, self.seat, self.payoff)
        if floor >= beta or floor == ceiling:
            return floor
        if not self.game.round_start(state):
            return self._node(state, alpha, beta)
        if self.rounds >= self.horizon:
            return floor
        if ceiling <= alpha:
            return ceiling
        self._count_state()
        self.rounds += 1
        try:
            return self._node(state, max(alpha, floor), min(beta, ceiling))
        finally:
            self.rounds -= 1
