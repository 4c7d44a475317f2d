"""Q4 and Q5, in mixed strategies: the zero-sum game of P against the coalition of every other
seat, solved by backward induction with one matrix game per simultaneous node (the game's
compiled Q4 values round starts where it offers them), and the root's mixes of both sides."""

from __future__ import annotations

import itertools
import time
from typing import Any

from games.base import CompiledMissing, EngineError, SimultaneousGame
from solver.answers import CARDS, EPSILON, MARGIN, Answer, Budget, Interval, SeatStats
from solver.search import BudgetExceeded
from solver.simultaneous.matrix import matrix_game
from solver.simultaneous.paranoid import Budgeted, Paranoid, not_built, payoff_now
from solver.simultaneous.reasons import STATIC_HIGH, STATIC_LOW
from solver.simultaneous.settings import DEFAULT_SETTINGS, SimultaneousSettings, payoff_deadline


def answer_mixed(game: SimultaneousGame, state: Any, seat: int, question: str, budget: Budget,
                 engine: str, settings: SimultaneousSettings = DEFAULT_SETTINGS) -> Answer:
    """Q4 (two players, the margin; the compiled round starts where offered) or Q5 (P
    against the coalition of the others, each payoff, the cards with half the time): exact
    values in mixed strategies, or the cheap bounds where the budget runs out."""
    answer = Answer(question, seat)
    started = time.perf_counter()
    compiled = compiled_q4(game, state, seat, engine) if question == "q4" else None
    spare = game.cards_reachable(state)
    for payoff in (MARGIN,) if question == "q4" else (CARDS, MARGIN):
        search = _Equilibrium(game, state, seat, budget, payoff_deadline(payoff, started, budget, settings),
                              answer.stats, compiled, payoff)
        low_reason, high_reason = STATIC_LOW[payoff], STATIC_HIGH[payoff]
        bounds = Paranoid.bounds_of(game, state, seat, payoff, spare)
        try:
            value, mine, theirs = search.root(state)
            value += 0.0  # never print -0
            bounds, low_reason, high_reason = (value, value), "", ""
            if payoff == MARGIN:
                answer.margin, answer.strategy, answer.opponent_strategy = value, mine, theirs
            else:
                answer.cards = value
        except BudgetExceeded as exc:
            answer.stop(exc.limit, str(exc))
        search.merge_compiled_stats()
        answer.intervals[payoff] = Interval(*bounds, low_reason, high_reason)
    answer.stats.seconds = time.perf_counter() - started
    return answer


def compiled_q4(game: SimultaneousGame, state: Any, seat: int, engine: str) -> Any:
    """The game's compiled Q4 values of round starts, None for the Python search."""
    if engine == "python":
        return None
    compiled = None
    try:
        compiled = game.compiled_q4(state, seat)
    except CompiledMissing as exc:
        not_built(exc, engine)
    if compiled is None and engine == "compiled":
        raise EngineError(f"no compiled Q4 engine for {game.name} here (not built, or not two players)")
    return compiled


class _Equilibrium(Budgeted):
    """Exact values of the zero-sum game of P against the coalition of every other seat (one
    player choosing their joint action, so the others may correlate; with two players it is
    the opponent) on P's margin or P's cards, in mixed strategies, table at round starts.
    A payoff that adds up over rounds (the cards; the margin of two players) stores a
    value-to-go; the margin of three or more seats is keyed with the differences c_P - c_Q.
    With a compiled engine (Q4), round starts are valued by it and this class only walks the
    root's round (for the root mixes)."""

    def __init__(self, game: SimultaneousGame, state: Any, seat: int, budget: Budget, deadline: float | None,
                 stats: SeatStats, compiled: Any = None, payoff: str = MARGIN):
        super().__init__(game, budget, deadline, stats)
        self.seat, self.payoff = seat, payoff
        self.others = tuple(other for other in range(len(game.returns(state))) if other != seat)
        self.adds_up = payoff == CARDS or len(self.others) == 1
        self.compiled = compiled
        self.compiled_run = None

    def merge_compiled_stats(self) -> None:
        run = self.compiled_run
        if run is not None:
            self.stats.states += run.states
            self.stats.table_hits += run.table_hits
            self.stats.matrix_games += run.matrix_games
            self.stats.saddles += run.saddles
            self.stats.lps += run.lps

    def _compiled_value(self, state: Any) -> float:
        seconds = None if self.deadline is None else self.deadline - time.perf_counter()
        states = None
        if self.budget.max_states is not None:
            done = self.compiled_run.states if self.compiled_run else 0
            states = self.budget.max_states - self.stats.states - done
        if (seconds is not None and seconds <= 0) or (states is not None and states < 0):
            raise self._stopped("time" if seconds is not None and seconds <= 0 else "states")
        run = self.compiled.value(state, seconds, states)
        self.compiled_run = run
        if run.value is None:
            raise self._stopped(run.exhausted)
        return run.value

    def lead(self, state: Any) -> int:
        """The payoff if the game ended now."""
        return payoff_now(self.game.returns(state), self.seat, self.payoff)

    def root(self, state: Any) -> tuple[float, dict[str, float] | None, dict[str, float] | None]:
        """The value and, where the game is not over, P's mix over its own actions and the
        coalition's over its joint actions here (None for a side that does not act)."""
        if self.game.is_over(state):
            return self.lead(state), None, None
        acting, rows, columns = self._sides(state)
        matrix = [[self._child(state, acting, row, column) for column in columns] for row in rows]
        value, x, y = matrix_game(matrix, strategies=True, stats=self.stats)
        mine = self._mix([self.game.format_action(state, row) for row in rows], x) if self.seat in acting else None
        theirs = None
        if any(other in acting for other in self.others):
            theirs = self._mix([self._joint_text(state, acting, column) for column in columns], y)
        return value, mine, theirs

    def _sides(self, state: Any) -> tuple[tuple[int, ...], list, list]:
        """The acting seats, P's actions (rows; [None] if P does not act) and the coalition's
        joint actions (columns, in seat order; [()] if none of them acts)."""
        acting = self.game.acting_players(state)
        rows = self.game.legal_actions(state, self.seat) if self.seat in acting else [None]
        columns = list(itertools.product(*(self.game.legal_actions(state, other)
                                           for other in self.others if other in acting)))
        return acting, rows, columns

    def _joint_text(self, state: Any, acting: tuple[int, ...], column: tuple) -> str:
        seats = [other for other in self.others if other in acting]
        if len(seats) == 1:
            return self.game.format_action(state, column[0])
        return " + ".join(f"seat {other + 1} {self.game.format_action(state, action)}"
                          for other, action in zip(seats, column))

    @staticmethod
    def _mix(texts: list[str], weights: list[float]) -> dict[str, float]:
        return {text: weight for text, weight in zip(texts, weights) if weight > EPSILON}

    def _child(self, state: Any, acting: tuple[int, ...], row: Any, column: tuple) -> float:
        choice = dict(zip((other for other in self.others if other in acting), column))
        if row is not None:
            choice[self.seat] = row
        return self._value(self.game.apply_joint(state, tuple(choice[seat] for seat in acting)))

    def _value(self, state: Any) -> float:
        self._tick()
        if self.game.is_over(state):
            return self.lead(state)
        if not self.game.round_start(state):
            return self._node(state)
        if self.compiled is not None:
            return self.lead(state) + self._compiled_value(state)
        key, offset = self._table_key(state)
        stored = self.table.get(key)
        if stored is not None:
            self.stats.table_hits += 1
            return stored + offset
        self._count_state()
        value = self._node(state)
        self.table[key] = value - offset
        return value

    def _table_key(self, state: Any) -> tuple[Any, float]:
        """The key of a round start and what its stored value is relative to."""
        if self.adds_up:
            return self.game.value_key(state), self.lead(state)
        returns = self.game.returns(state)
        return (self.game.key(state), tuple(returns[self.seat] - returns[other] for other in self.others)), 0

    def _node(self, state: Any) -> float:
        acting, rows, columns = self._sides(state)
        if rows == [None] or not any(other in acting for other in self.others):  # one side alone: max or min
            values = [self._child(state, acting, row, column) for row in rows for column in columns]
            return max(values) if self.seat in acting else min(values)
        matrix = [[self._child(state, acting, row, column) for column in columns] for row in rows]
        return matrix_game(matrix, stats=self.stats)[0]
