"""The fair ceiling: an upper bound on the win chance of any player who never sees the deck.

Information relaxation with a penalty (Brown, Smith and Sun, Operations Research 58(4), 2010).
Let a player see the whole order of the unseen cards, but charge it at every decision the
term Q(I, a) - V(I), where V is any fixed function of the visible position I (the value of a
finished game being its result, 1 for a win, 0 otherwise) and Q(I, a) is the exact mean of V
over what the move can reveal (solver/expectimax.py's `chances`).  The charges sum to zero in
expectation for a player who does not see the order, so for every V

    fair optimum <= E over orders [ V(I0) + max over lines of the sum of Q(I_t, a_t) - V(I_t) ],

with equality when V is the exact fair value.  For one order the inner max is a longest path
over the clairvoyant positions of that deal.

Solving that path.  A whole deal has far too many clairvoyant positions for an exhaustive
search, so the values here say whether they are *superharmonic*: V(I) >= Q(I, a) for every
move, so that every term is <= 0 and a line's running sum (from V(I0)) only falls.  Then a
branch and bound is exact: a line is cut where its running sum cannot beat the best finished
line, and where the node budget runs out the running sum of each line left unsearched is
itself a bound on it (the answer is then still an upper bound, said in `OrderBound.cut`).
A value that is not superharmonic gets the exhaustive search, memoised on positions, which
stops (`CeilingStopped`) past its node budget: it is for small positions.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from games.base import Game, VisiblePositions
from solver.expectimax import FairExpectimax, SearchStopped
from solver.stats import Z_95

#: Two sums closer than this are equal (sums of products of small fractions).
EPSILON = 1e-12
#: Positions a branch and bound expands for one order before bounding the rest by their sums.
ORDER_NODES = 20_000


class CeilingStopped(Exception):
    """The exhaustive inner search ran out of nodes (a value that is not superharmonic)."""


class ValueFunction(Protocol):
    """V(I) of an unfinished visible position; a fixed function of it, never of the order."""

    name: str
    #: V(I) >= Q(I, a) for every legal move a: the branch and bound may cut on running sums.
    superharmonic: bool

    def __call__(self, visible: Any) -> float:
        ...


class ClairvoyantValue:
    """V = 1 before the end: no charge but at the end, so the bound is the clairvoyant rate
    (a check of the machinery, and the ceiling with no penalty)."""

    name = "none"
    superharmonic = True

    def __call__(self, visible: Any) -> float:
        return 1.0


class LateFairValue:
    """The exact fair optimum where at most `cards` are unseen, 1 before: superharmonic, since
    the fair optimum is its own best Q and 1 bounds any mean."""

    superharmonic = True

    def __init__(self, game: Game, model: VisiblePositions, cards: int, nodes: int = 200_000):
        self.name = f"fair-last-{cards}"
        self.cards = cards
        self.model = model
        self.expectimax = FairExpectimax(game, model)
        self.nodes = nodes

    def __call__(self, visible: Any) -> float:
        if self.model.unknown_count(visible) > self.cards:
            return 1.0
        try:
            return self.expectimax.value(visible, node_budget=self.nodes)[0]
        except SearchStopped:
            return 1.0  # an upper bound on the fair value keeps every term above it <= 0


class SampledClairvoyantValue:
    """C(I) estimated: the share of `samples` orders of the unseen cards that a clairvoyant
    wins, the orders drawn from a generator seeded by I's notation (so a fixed function of
    I).  Not superharmonic (sampling noise), so only small positions can use it."""

    superharmonic = False

    def __init__(self, game: Game, model: VisiblePositions, samples: int,
                 solve: Callable[[Game, Any], bool]):
        self.name = f"sampled-clairvoyant-{samples}"
        self.game, self.model, self.samples, self.solve = game, model, samples, solve

    def __call__(self, visible: Any) -> float:
        rng = random.Random(seed_of(self.model.format_visible(self.game, visible)))
        wins = sum(self.solve(self.game, self.model.sample_state(self.game, visible, rng))
                   for _ in range(self.samples))
        return wins / self.samples


def seed_of(text: str) -> int:
    """A generator seed that depends on the text alone (not on Python's hash salt)."""
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


@dataclass(frozen=True)
class OrderBound:
    """One order's penalised clairvoyant value: V(I0) plus the best line's sum of terms."""

    bound: float
    nodes: int
    cut: bool          # the node budget ran out: unsearched lines bounded by their running sums


class Ceiling:
    """The penalised clairvoyant of one game with one value function; V and Q memoised on
    visible positions across orders (the early positions are shared by every order)."""

    def __init__(self, game: Game, model: VisiblePositions, value: ValueFunction, order_nodes: int = ORDER_NODES):
        self.game, self.model, self.value = game, model, value
        self.order_nodes = order_nodes
        self.chances = FairExpectimax(game, model).chances
        self.values: dict[Hashable, float] = {}
        self.q_values: dict[tuple[Hashable, Any], float] = {}

    # ----- V and Q --------------------------------------------------------------------------
    def v(self, visible: Any) -> float:
        """V(I), the result at a finished game."""
        known = self.values.get(visible)
        if known is None:
            outcome = self.game.outcome(self.model.state_with_order(self.game, visible, tuple(visible.unknown)))
            known = (1.0 if outcome.won else 0.0) if outcome is not None else self.value(visible)
            self.values[visible] = known
        return known

    def q(self, visible: Any, move: Any) -> float:
        """The exact mean of V over what `move` can reveal."""
        key = (visible, move)
        known = self.q_values.get(key)
        if known is None:
            known = math.fsum(chance * self.v(child) for child, chance in self.chances(visible, move).items())
            self.q_values[key] = known
        return known

    def terms(self, state: Any) -> list[tuple[float, Any]]:
        """Each legal move with its term Q(I, a) - V(I), largest first (ties: the game's order)."""
        visible = self.model.visible_of(self.game, state)
        here = self.v(visible)
        moves = self.game.order_moves(state, self.game.legal_moves(state))
        return sorted(((self.q(visible, move) - here, move) for move in moves), key=lambda pair: -pair[0])

    # ----- one order ------------------------------------------------------------------------
    def order_bound(self, state: Any, lines: Sequence[Sequence[Any]] = ()) -> OrderBound:
        """V(I0) plus the best sum of terms over the lines of this full state (its order known);
        `lines` (each played to its end) give the branch and bound a first line to beat."""
        start = self.v(self.model.visible_of(self.game, state))
        if self.value.superharmonic:
            return self._branch_and_bound(state, start, [self.line_sum(state, start, line) for line in lines])
        table: dict[Hashable, float] = {}
        counter = [0]
        best = self._longest(state, table, counter)
        return OrderBound(start + best, counter[0], False)

    def _longest(self, state: Any, table: dict[Hashable, float], counter: list[int]) -> float:
        """The exact longest path from `state` (memoised; CeilingStopped past the budget)."""
        if self.game.outcome(state) is not None:
            return 0.0
        key = self.game.key(state)
        known = table.get(key)
        if known is not None:
            return known
        counter[0] += 1
        if counter[0] > self.order_nodes:
            raise CeilingStopped(f"more than {self.order_nodes} positions in one order's exhaustive search")
        best = max(term + self._longest(self.game.apply(state, move), table, counter)
                   for term, move in self.terms(state))
        table[key] = best
        return best

    def line_sum(self, state: Any, start: float, line: Sequence[Any]) -> float:
        """`start` plus the terms of `line` played from `state`; -inf unless it ends the game."""
        running = start
        for move in line:
            running += dict((m, term) for term, m in self.terms(state))[move]
            state = self.game.apply(state, move)
        return running if self.game.outcome(state) is not None else -math.inf

    def _branch_and_bound(self, state: Any, start: float, known: Sequence[float]) -> OrderBound:
        """Every term <= 0: depth first, best term first, cut where the running sum cannot
        beat the best line found or a position was reached before with at least as much."""
        search = _Search(self, self.order_nodes)
        search.best = max(known, default=-math.inf)
        search.visit(state, start)
        return OrderBound(max(search.best, search.frontier), search.nodes, search.frontier > search.best)


class _Search:
    """The branch and bound's state: the best finished line, the largest running sum left
    unsearched by the budget, and the best running sum each position was reached with."""

    def __init__(self, ceiling: Ceiling, budget: int):
        self.ceiling, self.budget = ceiling, budget
        self.best = -math.inf
        self.frontier = -math.inf
        self.reached: dict[Hashable, float] = {}
        self.nodes = 0

    def visit(self, state: Any, running: float) -> None:
        game = self.ceiling.game
        if game.outcome(state) is not None:
            self.best = max(self.best, running)
            return
        if running <= max(self.best, self.frontier) + EPSILON:
            return
        key = game.key(state)
        if self.reached.get(key, -math.inf) >= running - EPSILON:
            return
        self.reached[key] = running
        if self.nodes >= self.budget:
            self.frontier = max(self.frontier, running)
            return
        self.nodes += 1
        for term, move in self.ceiling.terms(state):
            self.visit(game.apply(state, move), running + term)


@dataclass(frozen=True)
class CeilingEstimate:
    """The mean of the orders' bounds with its 95 % interval (normal: each bound is in [0, 1]
    for a superharmonic value, any real for another)."""

    mean: float
    low: float
    high: float
    orders: int
    cut: int


def summarise(bounds: Sequence[OrderBound]) -> CeilingEstimate:
    """The estimate over sampled orders, each order's bound one observation."""
    values = [bound.bound for bound in bounds]
    count = len(values)
    mean = math.fsum(values) / count
    spread = math.sqrt(math.fsum((x - mean) ** 2 for x in values) / (count - 1)) if count > 1 else 0.0
    half = Z_95 * spread / math.sqrt(count)
    return CeilingEstimate(mean, mean - half, mean + half, count, sum(bound.cut for bound in bounds))


# ----- a range of deals -----------------------------------------------------------------------
def value_named(game: Game, model: VisiblePositions, name: str,
                solve: Callable[[Game, Any], bool] | None = None) -> ValueFunction:
    """`none`, `fair-last-K` (K unseen cards at most, 1..8) or `sampled-clairvoyant-N`
    (N samples; `solve` says whether a clairvoyant wins a full state); ValueError otherwise."""
    if name == "none":
        return ClairvoyantValue()
    stem, _, count = name.rpartition("-")
    if stem == "fair-last" and count.isdigit() and 1 <= int(count) <= 8:
        return LateFairValue(game, model, int(count))
    if stem == "sampled-clairvoyant" and count.isdigit() and int(count) >= 1 and solve is not None:
        return SampledClairvoyantValue(game, model, int(count), solve)
    raise ValueError(f"unknown value {name!r}: expected none, fair-last-K (K 1-8) or sampled-clairvoyant-N")


@dataclass(frozen=True)
class DealCeiling:
    """One seed: its order's bound, whether a clairvoyant wins it, the work and time spent."""

    seed: int
    bound: float
    clairvoyant_won: bool
    nodes: int
    cut: bool
    seconds: float


def deal_ceiling(ceiling: Ceiling, seed: int, clairvoyant: Callable[[Game, Any], list | None],
                 clock: Callable[[], float]) -> DealCeiling:
    """The seed's deal as one sampled order: its penalised clairvoyant value (the clairvoyant's
    winning line, where there is one, is the first line the search must beat)."""
    game = ceiling.game
    state = game.initial_state(game.deal_from_seed(seed))
    started = clock()
    line = clairvoyant(game, state)
    bound = ceiling.order_bound(state, [line] if line is not None else [])
    return DealCeiling(seed, bound.bound, line is not None, bound.nodes, bound.cut, clock() - started)


def clairvoyant_line(seconds: float) -> Callable[[Game, Any], list | None]:
    """A winning line of a player who sees the order (found within `seconds`), else None."""
    from games.base import Verdict
    from solver.analysis import analyse
    from solver.answers import Budget

    def line(game: Game, state: Any) -> list | None:
        result = analyse(game, state, "winnable", Budget(time_limit=seconds))
        return list(result.line) if result.verdict == Verdict.WON else None
    return line


def bench_ceiling(game: Game, seeds: Sequence[int], value_name: str, order_nodes: int, seconds: float,
                  each: Callable[[DealCeiling], None] = lambda row: None,
                  clock: Callable[[], float] | None = None) -> dict:
    """The fair ceiling over the seeds' deals (each deal one sampled order) with V `value_name`,
    beside the clairvoyant rate on the same deals; UsurperError (one line) where the game
    has no state per order, the value is unknown, or a value that is not superharmonic
    meets a deal too large for its exhaustive search."""
    import time

    from games.base import UsurperError
    from solver.fair import visible_model
    from solver.stats import wilson_interval

    clock = clock or time.perf_counter
    model = visible_model(game)
    if not model.exact_orders:
        raise UsurperError(f"{game.name}'s visible positions give no state per order: no ceiling")
    clairvoyant = clairvoyant_line(seconds)
    try:
        value = value_named(game, model, value_name, lambda rules, state: clairvoyant(rules, state) is not None)
    except ValueError as error:
        raise UsurperError(f"bad --value: {error}") from None
    ceiling = Ceiling(game, model, value, order_nodes)
    started = clock()
    rows = []
    for seed in seeds:
        try:
            rows.append(deal_ceiling(ceiling, seed, clairvoyant, clock))
        except CeilingStopped as stopped:
            raise UsurperError(f"V {value.name} is not superharmonic and its exhaustive search stopped: "
                               f"{stopped}") from None
        each(rows[-1])
    estimate = summarise([OrderBound(row.bound, row.nodes, row.cut) for row in rows])
    won = sum(row.clairvoyant_won for row in rows)
    low, high = wilson_interval(won, len(rows))
    seconds_spent = clock() - started
    summary = [
        f"{game.name}, {len(rows)} deals: fair ceiling {estimate.mean:.2%} [{estimate.low:.2%}, {estimate.high:.2%}] "
        f"(an upper bound on the win rate of any player who does not see the deck; V = {value.name}; "
        f"{estimate.cut} deals' searches cut by the node budget, bounded by their running sums; {seconds_spent:.0f} s)",
        f"clairvoyant (sees the deck), the same deals: {won}/{len(rows)} = {won / len(rows):.1%} "
        f"[{low:.1%}, {high:.1%}]",
        "fair policy: `usurper bench GAME --policy fair --seeds ...` on the same seeds",
    ]
    return {"game": game.name, "variant": game.variant, "value": value.name, "order_nodes": order_nodes,
            "ceiling": {"mean": estimate.mean, "low": estimate.low, "high": estimate.high, "cut": estimate.cut},
            "clairvoyant": {"won": won, "deals": len(rows), "low": low, "high": high},
            "seconds": seconds_spent, "rows": [vars(row) for row in rows], "summary": summary}
