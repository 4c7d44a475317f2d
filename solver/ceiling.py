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

A sampled V and its Q.  Q(I, a) need not be the exact mean of V: the argument only uses
that the charge V(next) - Q(I, a) has mean 0 for a player who does not see the order, so
any Q whose expectation is that mean will do, if its random draws are independent of the
order relaxed (and a larger Q only makes the bound larger).  The clairvoyant win chance
C(I), sampled on orders drawn from a generator seeded by the unseen set, with Q(I, a) the
share of the *same* orders a clairvoyant still wins after playing a, is unbiased on both
sides and superharmonic order by order (`CoupledClairvoyantValue`): the branch and bound is
exact for it, and the bound's expectation over the draws is above the fair optimum.  The
noise only loosens it: the best line takes the draws that charge it least.

The check bound (`RevealBound`, `blind-first-K`) is not a penalty: the best win chance of a
player who is blind for the first K reveals and sees the deck after them.
"""

from __future__ import annotations

import hashlib
import itertools
import math
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from games.base import Game, VisiblePositions
from solver.expectimax import FairExpectimax, SearchStopped
from solver.stats import Z_95

#: Two sums closer than this are equal (sums of products of small fractions).
EPSILON = 1e-12
#: Positions a branch and bound expands for one order before bounding the rest by their sums.
ORDER_NODES = 20_000


#: Whether a player who sees the order wins this full state (a solve that does not finish says
#: True, which keeps every figure built on it an upper bound).
Wins = Callable[[Game, Any], bool]
#: The same with the first move of the winning line found (None where it did not finish).
Solve = Callable[[Game, Any], tuple[bool, Any]]


class CeilingStopped(Exception):
    """The exhaustive inner search ran out of nodes (a value that is not superharmonic), or
    a value said to be superharmonic gave a term above 0."""


class ValueFunction(ABC):
    """V(I) of an unfinished visible position; a fixed function of it, never of the order."""

    name: str
    #: V(I) >= Q(I, a) for every legal move a: the branch and bound may cut on running sums.
    superharmonic: bool
    #: It charges from the first decision on, so a clairvoyant's winning line is charged
    #: heavily: a poor first line for the branch and bound to beat.
    charges_early = False

    @abstractmethod
    def __call__(self, visible: Any) -> float:
        """V(I)."""

    def after(self, visible: Any, move: Any) -> float | None:
        """Q(I, move) where the value has its own estimate of it; None: the exact mean of V
        over what the move reveals."""
        return None


class ClairvoyantValue(ValueFunction):
    """V = 1 before the end: no charge but at the end, so the bound is the clairvoyant rate
    (a check of the machinery, and the ceiling with no penalty)."""

    name = "none"
    superharmonic = True

    def __call__(self, visible: Any) -> float:
        return 1.0


class LateFairValue(ValueFunction):
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


class LateClairvoyantValue(ValueFunction):
    """C(I), the clairvoyant win chance of I (the mean over every order of the unseen cards of
    whether a player who sees that order wins), exactly where at most `cards` are unseen, 1
    before: superharmonic, since choosing after seeing the order is never worse than choosing
    before (C(I) >= Q(I, a)) and 1 bounds any mean.  Cheaper than fair-last-K (K! solves,
    no expectimax) and never below it, so it charges no more."""

    superharmonic = True

    def __init__(self, game: Game, model: VisiblePositions, cards: int, wins: Wins):
        self.name = f"clairvoyant-last-{cards}"
        self.game, self.model, self.cards, self.wins = game, model, cards, wins

    def __call__(self, visible: Any) -> float:
        if self.model.unknown_count(visible) > self.cards:
            return 1.0
        return exact_clairvoyant_chance(self.game, self.model, visible, self.wins)


def exact_clairvoyant_chance(game: Game, model: VisiblePositions, visible: Any, wins: Wins,
                             move: Any = None) -> float:
    """C(I) over every order of the unseen cards; with `move`, the chance after playing it
    (Q(I, move) with V = C: the move chosen before the order is seen)."""
    orders = list(itertools.permutations(visible.unknown))
    return math.fsum(wins(game, _after(game, model.state_with_order(game, visible, order), move))
                     for order in orders) / len(orders)


def sampled_clairvoyant_chance(game: Game, model: VisiblePositions, visible: Any, wins: Wins, orders: int,
                               rng: random.Random, move: Any = None) -> float:
    """C(I) (or Q(I, move)) estimated without bias on `orders` uniform orders drawn from `rng`."""
    return sum(wins(game, _after(game, model.sample_state(game, visible, rng), move))
               for _ in range(orders)) / orders


def _after(game: Game, state: Any, move: Any) -> Any:
    return state if move is None else game.apply(state, move)


class CoupledClairvoyantValue(ValueFunction):
    """C(I) estimated on `orders` orders of the unseen cards drawn from a generator seeded by
    the *set* of unseen cards alone, with Q(I, a) estimated on the same orders (the move
    played in each, then solved): a sampled C that is superharmonic, exactly.

    Why the bound stays valid: the penalty of a move is V(next) - Q(I, a), and all the bound
    needs is that it has mean 0 for a player who does not see the order (then the player's
    penalised result has its true mean, and the penalised clairvoyant is above it).  Q(I, a)
    need not be the exact mean of V over what the move reveals: any estimate of that mean
    whose expectation is the same does, if its draws do not depend on the order relaxed.
    Both are unbiased here: each of V and Q is a mean over uniform orders of whether a
    clairvoyant wins, so E V(J) = C(J) and E Q(I, a) = mean of C over what a reveals.

    Why it is superharmonic, exactly: in each drawn order a clairvoyant who may still choose
    the move does at least as well as one who has played it, so V(I) >= Q(I, a) order by
    order; a move that reveals nothing leaves the unseen set, so its Q is V of the next
    position on the same orders.  Every term is <= 0, and the branch and bound is exact for
    this V.  A clairvoyant solve is memoised on the full state, so one state has one verdict;
    a solve that does not finish counts as a win (see `Wins`): V is then the mean of that
    verdict, still one fixed function of the full state, so the charges keep mean 0; a state
    after a move from a state proven lost is lost, whatever its own solve would say.  Should
    an unfinished solve still put a term above 0 (it was solved, as won, before the proof
    that it is lost), the search stops (CeilingStopped) rather than report a figure that
    might be below the bound's value."""

    superharmonic = True
    charges_early = True

    def __init__(self, game: Game, model: VisiblePositions, orders: int, solve: Solve):
        self.name = f"clairvoyant-{orders}"
        self.game, self.model, self.orders, self.solve = game, model, orders, solve
        self.drawn: dict[tuple, list[tuple]] = {}
        self.verdicts: dict[tuple, bool] = {}
        self.first_moves: dict[tuple, Any] = {}     # the first move of a winning line found
        self.solves = 0

    def __call__(self, visible: Any) -> float:
        orders = self._orders(visible)
        return sum(self._won(self.model.state_with_order(self.game, visible, order), visible, order)
                   for order in orders) / len(orders)

    def after(self, visible: Any, move: Any) -> float:
        """Q(I, move): the share of the same orders a clairvoyant wins once `move` is played.
        Where the order is lost before the move it is lost after it, and where the winning
        line found first plays the move it is won after it: no solve for either."""
        won = 0
        orders = self._orders(visible)
        for order in orders:
            before = self._won(self.model.state_with_order(self.game, visible, order), visible, order)
            if before and self.first_moves.get((visible, order)) == move:
                won += 1
                continue
            state = self.game.apply(self.model.state_with_order(self.game, visible, order), move)
            seen = self.model.visible_of(self.game, state)
            key = (seen, order[len(order) - self.model.unknown_count(seen):])
            if not before:
                self.verdicts.setdefault(key, False)  # proven lost before the move: lost after it
            won += self._won(state, *key)
        return won / len(orders)

    def _orders(self, visible: Any) -> list[tuple]:
        """The orders of I's unseen set: every one where there are at most `orders` (then V is
        C and Q its exact mean), else `orders` drawn from a generator seeded by the set."""
        unseen = tuple(visible.unknown)
        known = self.drawn.get(unseen)
        if known is None:
            if math.factorial(len(unseen)) <= self.orders:
                known = list(itertools.permutations(unseen))
            else:
                rng = random.Random(seed_of(repr(unseen)))
                known = [tuple(rng.sample(unseen, len(unseen))) for _ in range(self.orders)]
            self.drawn[unseen] = known
        return known

    def _won(self, state: Any, visible: Any, order: tuple) -> bool:
        """The verdict of `state`, which is `visible` with the unseen cards in `order`."""
        outcome = self.game.outcome(state)
        if outcome is not None:
            return outcome.won
        key = (visible, order)
        known = self.verdicts.get(key)
        if known is None:
            self.solves += 1
            known, first = self.solve(self.game, state)
            self.verdicts[key] = known
            if first is not None:
                self.first_moves[key] = first
        return known


class SampledClairvoyantValue(ValueFunction):
    """C(I) estimated: the share of `samples` orders of the unseen cards that a clairvoyant
    wins, the orders drawn from a generator seeded by I's notation (so a fixed function of
    I).  Not superharmonic (sampling noise), so only small positions can use it."""

    superharmonic = False

    def __init__(self, game: Game, model: VisiblePositions, samples: int, wins: Wins):
        self.name = f"sampled-clairvoyant-{samples}"
        self.game, self.model, self.samples, self.wins = game, model, samples, wins

    def __call__(self, visible: Any) -> float:
        rng = random.Random(seed_of(self.model.format_visible(self.game, visible)))
        return sampled_clairvoyant_chance(self.game, self.model, visible, self.wins, self.samples, rng)


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

    def __init__(self, game: Game, model: VisiblePositions, value: ValueFunction, order_nodes: int = ORDER_NODES,
                 wins: Wins | None = None):
        self.game, self.model, self.value = game, model, value
        self.order_nodes = order_nodes
        self.wins = wins    # the order's own verdict: between equal terms, a move that keeps it won first
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
            known = self.value.after(visible, move)
            if known is None:
                known = math.fsum(chance * self.v(child) for child, chance in self.chances(visible, move).items())
            self.q_values[key] = known
        return known

    def terms(self, state: Any) -> list[tuple[float, Any]]:
        """Each legal move with its term Q(I, a) - V(I), largest first (ties: the game's order)."""
        visible = self.model.visible_of(self.game, state)
        here = self.v(visible)
        moves = self.game.order_moves(state, self.game.legal_moves(state))
        terms = sorted(((self.q(visible, move) - here, move) for move in moves), key=lambda pair: -pair[0])
        if self.value.superharmonic and terms[0][0] > EPSILON:
            raise CeilingStopped(f"V {self.value.name} is below Q by {terms[0][0]:.3g} at "
                                 f"{self.model.format_visible(self.game, visible)}: the branch and bound "
                                 "would not be exact")
        return terms

    def search_order(self, state: Any) -> list[tuple[float, Any]]:
        """`terms`, and between equal terms the moves after which this order is still won
        first: the first line the search finishes then wins where it can, and is charged
        no more than the largest terms allow, a good line to beat."""
        terms = self.terms(state)
        if self.wins is None or len(terms) < 2:
            return terms
        return sorted(terms, key=lambda pair: (-round(pair[0], 9),
                                               not self.wins(self.game, self.game.apply(state, pair[1]))))

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
        for term, move in self.ceiling.search_order(state):
            self.visit(game.apply(state, move), running + term)


# ----- the check bound: fair for the first reveals, clairvoyant after -----------------------------
#: Orders a clairvoyant chance is estimated on, and cards drawn a reveal before the last, where
#: there are too many to take them all.
REVEAL_ORDERS = 100
REVEAL_CARDS = 10
#: At most this many unseen cards: every order (and every card) is taken, the value is exact.
EXACT_CARDS = 5


class RevealBound:
    """The best win chance of a player who does not see the deck until `reveals` moves have
    revealed cards, and sees the whole order from then on: above the fair optimum (it knows
    more), below the clairvoyant (it knows less), the fair optimum once `reveals` covers
    every unseen card, and with reveals = 1 at most max over a of Q(I0, a) with V = C (equal
    where every move reveals; a move that reveals nothing leaves the player blind).

    An expectimax over the first reveals, the clairvoyant chance at its leaves.  Where every
    order and every card can be taken (EXACT_CARDS) it is exact; else each mean is a mean
    over uniform draws (`cards` children a reveal, `orders` orders a clairvoyant chance),
    from generators seeded by the position: unbiased means under maxima, so the figure's
    expectation is at or above the bound's value (a max of unbiased estimates is never below
    the max of their means), an upper bound still."""

    def __init__(self, game: Game, model: VisiblePositions, reveals: int, wins: Wins,
                 orders: int = REVEAL_ORDERS, cards: int = REVEAL_CARDS, exact_cards: int = EXACT_CARDS):
        self.name = f"blind-first-{reveals}"
        self.game, self.model, self.reveals, self.wins = game, model, reveals, wins
        self.orders, self.cards, self.exact_cards = orders, cards, exact_cards
        self.table: dict[tuple[Hashable, int], float] = {}
        self.solves = 0

    def counted(self, game: Game, state: Any) -> bool:
        self.solves += 1
        return self.wins(game, state)

    def value(self, visible: Any, left: int | None = None) -> float:
        """The win chance from `visible` with `left` reveals still played blind."""
        left = self.reveals if left is None else left
        key = (visible, left)
        known = self.table.get(key)
        if known is None:
            known = self._value(visible, left)
            self.table[key] = known
        return known

    def _value(self, visible: Any, left: int) -> float:
        state = self.model.state_with_order(self.game, visible, tuple(visible.unknown))
        outcome = self.game.outcome(state)
        if outcome is not None:
            return 1.0 if outcome.won else 0.0
        if left == 0:
            return self._clairvoyant(visible)
        best = 0.0
        for move in self.game.order_moves(state, self.game.legal_moves(state)):
            best = max(best, self.move_value(visible, move, left))
            if best >= 1.0:
                break
        return best

    def move_value(self, visible: Any, move: Any, left: int) -> float:
        """The win chance of playing `move` blind: the mean over what it reveals."""
        unseen = self.model.unknown_count(visible)
        first = self.game.apply(self.model.state_with_order(self.game, visible, tuple(visible.unknown)), move)
        if self.model.unknown_count(self.model.visible_of(self.game, first)) == unseen:
            return self.value(self.model.visible_of(self.game, first), left)  # nothing revealed
        if left == 1:  # the last blind reveal: the clairvoyant chance of the move itself
            if unseen <= self.exact_cards:
                return exact_clairvoyant_chance(self.game, self.model, visible, self.counted, move)
            return sampled_clairvoyant_chance(self.game, self.model, visible, self.counted, self.orders,
                                              self._rng(visible, move), move)
        return math.fsum(chance * self.value(child, left - 1) for child, chance in self._children(visible, move))

    def _children(self, visible: Any, move: Any) -> list[tuple[Any, float]]:
        if self.model.unknown_count(visible) <= self.exact_cards:
            return list(FairExpectimax(self.game, self.model).chances(visible, move).items())
        rng = self._rng(visible, move)
        drawn = [self.model.visible_of(self.game, self.game.apply(self.model.sample_state(self.game, visible, rng),
                                                                   move)) for _ in range(self.cards)]
        return [(child, 1.0 / self.cards) for child in drawn]

    def _clairvoyant(self, visible: Any) -> float:
        if self.model.unknown_count(visible) <= self.exact_cards:
            return exact_clairvoyant_chance(self.game, self.model, visible, self.counted)
        return sampled_clairvoyant_chance(self.game, self.model, visible, self.counted, self.orders,
                                          self._rng(visible, None))

    def _rng(self, visible: Any, move: Any) -> random.Random:
        return random.Random(seed_of(f"{self.model.format_visible(self.game, visible)}|{move}"))

    def deal_bound(self, state: Any) -> float:
        """This full state's deal as one draw: the moves the player has no choice about are
        played as the deal has them (a draw of what they reveal), then the expectimax."""
        left = self.reveals
        while self.game.outcome(state) is None and left > 0:
            moves = self.game.legal_moves(state)
            if len(moves) > 1:
                return self.value(self.model.visible_of(self.game, state), left)
            unseen = self.model.unknown_count(self.model.visible_of(self.game, state))
            state = self.game.apply(state, moves[0])
            left -= self.model.unknown_count(self.model.visible_of(self.game, state)) < unseen
        outcome = self.game.outcome(state)
        if outcome is not None:
            return 1.0 if outcome.won else 0.0
        return float(self.counted(self.game, state))  # the player now sees this deal's order


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
    # Bounds that are all shares of one have a mean that is one too: no interval end above 1.
    high = min(mean + half, 1.0) if all(0.0 <= x <= 1.0 for x in values) else mean + half
    return CeilingEstimate(mean, mean - half, high, count, sum(bound.cut for bound in bounds))


# ----- a range of deals -----------------------------------------------------------------------
def value_named(game: Game, model: VisiblePositions, name: str, solve: Solve) -> ValueFunction:
    """`none`, `fair-last-K` or `clairvoyant-last-K` (K unseen cards at most, 1..8),
    `clairvoyant-N` or `sampled-clairvoyant-N` (N orders; `solve` is the clairvoyant's
    verdict on a full state); ValueError otherwise."""
    if name == "none":
        return ClairvoyantValue()
    stem, _, count = name.rpartition("-")
    if stem in ("fair-last", "clairvoyant-last") and count.isdigit() and 1 <= int(count) <= 8:
        if stem == "fair-last":
            return LateFairValue(game, model, int(count))
        return LateClairvoyantValue(game, model, int(count), wins_of(solve))
    if stem in ("clairvoyant", "sampled-clairvoyant") and count.isdigit() and int(count) >= 1:
        if stem == "clairvoyant":
            return CoupledClairvoyantValue(game, model, int(count), solve)
        return SampledClairvoyantValue(game, model, int(count), wins_of(solve))
    raise ValueError(f"unknown value {name!r}: expected none, fair-last-K or clairvoyant-last-K (K 1-8), "
                     "clairvoyant-N, sampled-clairvoyant-N or blind-first-K")


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
    winning line, where there is one, is the first line the search must beat, unless V
    charges early: then that line is charged heavily, and the search's own first line, the
    largest term first, is a better start than the Q of every move along it)."""
    game = ceiling.game
    state = game.initial_state(game.deal_from_seed(seed))
    started = clock()
    line = clairvoyant(game, state)
    first = [line] if line is not None and not ceiling.value.charges_early else []
    bound = ceiling.order_bound(state, first)
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


def clairvoyant_verdict(seconds: float) -> Solve:
    """Whether a player who sees the order wins the state (solved within `seconds`; a solve
    that does not finish says won, see `Wins`), with the first move of the winning line
    found (None where none was)."""
    from games.base import Verdict
    from solver.analysis import analyse
    from solver.answers import Budget

    def verdict(game: Game, state: Any) -> tuple[bool, Any]:
        result = analyse(game, state, "winnable", Budget(time_limit=seconds))
        won = result.verdict == Verdict.WON
        return result.verdict != Verdict.LOST, (result.line[0] if won and result.line else None)
    return verdict


def wins_of(solve: Solve) -> Wins:
    """The verdict alone."""
    return lambda game, state: solve(game, state)[0]


def deal_bounder(game: Game, model: VisiblePositions, value_name: str, order_nodes: int,
                 seconds: float) -> tuple[str, Callable[[int, Callable[[], float]], DealCeiling]]:
    """The bound's name and its figure for one seed's deal: the penalised clairvoyant with V
    `value_name`, or with `blind-first-K` the check bound (RevealBound); ValueError where
    the name is neither."""
    verdict = clairvoyant_verdict(seconds)
    stem, _, count = value_name.rpartition("-")
    if stem == "blind-first" and count.isdigit() and int(count) >= 1:
        reveal = RevealBound(game, model, int(count), wins_of(verdict))

        def blind(seed: int, clock: Callable[[], float]) -> DealCeiling:
            state = game.initial_state(game.deal_from_seed(seed))
            started, solves = clock(), reveal.solves
            bound = reveal.deal_bound(state)
            return DealCeiling(seed, bound, verdict(game, state)[0], reveal.solves - solves, False,
                               clock() - started)
        return reveal.name, blind
    value = value_named(game, model, value_name, verdict)
    ceiling = Ceiling(game, model, value, order_nodes, wins_of(verdict) if value.charges_early else None)
    clairvoyant = clairvoyant_line(seconds)
    return ceiling.value.name, lambda seed, clock: deal_ceiling(ceiling, seed, clairvoyant, clock)


def describe_bound(name: str, cut: int) -> str:
    """What the summary says the bound is (and, for a penalty, how many searches were cut)."""
    if name.startswith("blind-first-"):
        reveals = int(name.rpartition("-")[2])
        return (f"{name}: the best player blind for the first {reveals} reveal{'s' if reveals > 1 else ''} "
                "of cards, who sees the deck after them")
    return f"V = {name}; {cut} deals' searches cut by the node budget, bounded by their running sums"


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
    try:
        name, bound_deal = deal_bounder(game, model, value_name, order_nodes, seconds)
    except ValueError as error:
        raise UsurperError(f"bad --value: {error}") from None
    started = clock()
    rows = []
    for seed in seeds:
        try:
            rows.append(bound_deal(seed, clock))
        except CeilingStopped as stopped:
            raise UsurperError(f"--value {name}: {stopped}") from None
        each(rows[-1])
    estimate = summarise([OrderBound(row.bound, row.nodes, row.cut) for row in rows])
    won = sum(row.clairvoyant_won for row in rows)
    low, high = wilson_interval(won, len(rows))
    seconds_spent = clock() - started
    summary = [
        f"{game.name}, {len(rows)} deals: fair ceiling {estimate.mean:.2%} [{estimate.low:.2%}, {estimate.high:.2%}] "
        f"(an upper bound on the win rate of any player who does not see the deck; "
        f"{describe_bound(name, estimate.cut)}; {seconds_spent:.0f} s)",
        f"clairvoyant (sees the deck), the same deals: {won}/{len(rows)} = {won / len(rows):.1%} "
        f"[{low:.1%}, {high:.1%}]",
        "fair policy: `usurper bench GAME --policy fair --seeds ...` on the same seeds (or --fair-rows FILE)",
    ]
    return {"game": game.name, "variant": game.variant, "value": name, "order_nodes": order_nodes,
            "ceiling": {"mean": estimate.mean, "low": estimate.low, "high": estimate.high, "cut": estimate.cut},
            "clairvoyant": {"won": won, "deals": len(rows), "low": low, "high": high},
            "seconds": seconds_spent, "rows": [vars(row) for row in rows], "summary": summary}
