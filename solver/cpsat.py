"""CP-SAT models stated generically; a game maps its positions onto them.

`best_keep` answers: "items of given values must cover demands, each demand by a disjoint
set of at most `max_per_demand` compatible items whose values add up to the demand; some
items must first be bought (paid like a demand, then usable); at most `max_kept` unused
items are kept. What is the most value the kept items can have?"  It knows nothing of
cards: for Adaman the demands are the personalities still to control, the items the
resources owned or still to be dealt, the items to buy the Capital's cards, and the kept
items the Resources left at a win.

Ignoring when things happen makes this a relaxation: its answer is an upper bound on what
real play can keep, and "infeasible" proves that real play cannot cover every demand.

`maximise` solves a model a game states in full (Devil's Throne's joint play, whose optimum
is Q1): the best solution found and the bound CP-SAT proved, both as far as time allowed.
"""

from __future__ import annotations

import math
import os
import signal
import threading
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from games.base import CoverProblem, Game

INFEASIBLE = None
#: Per refined bound; a solve cut short still returns a sound bound.
SECONDS_PER_BOUND = 0.5


def refined_upper_bound(game: Game, state: Any, seconds: float = SECONDS_PER_BOUND) -> int:
    """The game's fast bound, tightened by the exact static covering problem it states
    (`cover_problem`) where it states one, solved for at most `seconds`."""
    fast = game.score_upper_bound(state)
    problem = game.cover_problem(state)
    if problem is None:
        return fast
    return min(fast, game.bound_given_keep(state, best_keep(problem, seconds)))


def best_keep(problem: CoverProblem, time_limit: float = 10.0) -> int | None:
    """The most value `max_kept` unused items can hold while every demand is covered, or
    None when the demands cannot all be covered.  Cached on the problem, which is a value.

    A solve that hits `time_limit` returns CP-SAT's proven bound, still an upper bound."""
    return _best_keep(problem, time_limit)


@lru_cache(maxsize=200_000)
def _best_keep(problem: CoverProblem, time_limit: float) -> int | None:
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    count = len(problem.values)
    pays = {(i, d): model.NewBoolVar("") for i in range(count) for d in problem.serves[i]}
    buys = {(i, j): model.NewBoolVar("") for i in range(count) for j in problem.buys[i]}
    kept = [model.NewBoolVar("") for _ in range(count)]
    bought = {j: model.NewBoolVar("") for j in range(count) if problem.to_buy[j]}
    for i in range(count):
        uses = [pays[i, d] for d in problem.serves[i]] + [buys[i, j] for j in problem.buys[i]] + [kept[i]]
        model.Add(sum(uses) <= (bought[i] if problem.to_buy[i] else 1))
    for d, need in enumerate(problem.demands):
        payers = [i for i in range(count) if d in problem.serves[i]]
        model.Add(sum(problem.values[i] * pays[i, d] for i in payers) >= need)
        model.Add(sum(pays[i, d] for i in payers) <= problem.max_per_demand)
    for j, flag in bought.items():
        payers = [i for i in range(count) if j in problem.buys[i]]
        model.Add(sum(problem.values[i] * buys[i, j] for i in payers) >= problem.values[j] * flag)
        model.Add(sum(buys[i, j] for i in payers) <= problem.max_per_demand * flag)
    model.Add(sum(kept) <= problem.max_kept)
    model.Maximize(sum(problem.values[i] * kept[i] for i in range(count)))
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = time_limit
    solver.parameters.num_workers = 1
    status = _solve_interruptibly(solver, model)
    if status == cp_model.INFEASIBLE:
        return INFEASIBLE
    if status == cp_model.OPTIMAL:
        return int(round(solver.ObjectiveValue()))
    if status == cp_model.FEASIBLE:
        return int(solver.BestObjectiveBound())
    # UNKNOWN: nothing proven either way; the trivial bound keeps the answer sound.
    return sum(sorted(problem.values, reverse=True)[: problem.max_kept])


#: CP-SAT's workers for a model solved on its own: a portfolio of strategies finds lines and
#: proofs far sooner than one worker; the threads share whatever cores the process has.
PORTFOLIO_WORKERS = 8
#: ... but a question of feasibility (a model whose objective cannot move: a line exists or
#: none does) goes to one complete search without the LP relaxation, which on one core
#: decides these far sooner than the portfolio, whose other strategies only improve
#: solutions (bench/results/devils-throne/README.md).
FEASIBILITY_LINEARIZATION = 0


@dataclass(frozen=True)
class Maximised:
    """A maximisation's result: the best value found (None: no solution found), the proven
    bound (None: nothing proven), `read`, whether a literal is true in the solution, and
    whether the model was proven to have no solution at all."""

    value: int | None
    bound: int | None
    read: Callable[[Any], bool] | None
    infeasible: bool = False


def maximise(model: Any, seconds: float | None, feasibility: bool = False) -> Maximised:
    """Solve `model` (a CpModel with an objective to maximise) within `seconds` (None: to the
    end); with `feasibility`, a model whose objective is a constant, by the search that
    decides such a question soonest."""
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    if seconds is not None:
        solver.parameters.max_time_in_seconds = max(0.0, seconds)
    if feasibility:
        solver.parameters.num_workers = 1
        solver.parameters.linearization_level = FEASIBILITY_LINEARIZATION
    else:
        solver.parameters.num_workers = PORTFOLIO_WORKERS
    status = _solve_interruptibly(solver, model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return Maximised(None, None, None, infeasible=status == cp_model.INFEASIBLE)
    bound = solver.objective_value if status == cp_model.OPTIMAL else math.floor(solver.best_objective_bound + 1e-6)
    return Maximised(int(round(solver.objective_value)), int(round(bound)), solver.boolean_value)


def _solve_interruptibly(solver: Any, model: Any) -> Any:
    """Solve, stopping at once on Ctrl-C and still letting it interrupt the program: CP-SAT's
    own catch of SIGINT would stop the search and swallow the signal.  Python's handler notes
    the signal (raised as KeyboardInterrupt once the solve returns) and writes it to a pipe
    that a watcher thread turns into a stop of the search."""
    solver.parameters.catch_sigint_signal = False
    if threading.current_thread() is not threading.main_thread():
        return solver.solve(model)  # signals reach the main thread, which is not waiting here
    read_end, write_end = os.pipe()
    os.set_blocking(write_end, False)
    previous = signal.set_wakeup_fd(write_end)
    finished = threading.Event()

    def stop_on_interrupt() -> None:
        while not finished.is_set():
            if signal.SIGINT in os.read(read_end, 64):
                solver.stop_search()
                return

    watcher = threading.Thread(target=stop_on_interrupt, daemon=True)
    watcher.start()
    try:
        return solver.solve(model)
    finally:
        finished.set()
        os.write(write_end, b"\0")  # wakes the watcher at once
        watcher.join()
        signal.set_wakeup_fd(previous)
        os.close(read_end)
        os.close(write_end)
