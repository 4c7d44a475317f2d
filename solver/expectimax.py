"""The exact fair optimum: the best win chance of a player who never sees the deck.

A fair player knows a visible position (games/<game>/visible.py): the face-up rows and the
*set* of unseen cards, every order of them equally likely.  Since every card drawn stays in
sight, that position is all a fair player can know, so its value is an expectimax over
visible positions, memoised on them:

    V(v) = max over moves m of  sum over next visible v' of  P(v' | v, m) * V(v')

P comes from the order of the unseen cards: a move draws the next card, maybe a few more
(how many may depend on what came), so the children are found by extending a prefix of the
order one card at a time until the move drew no more than the prefix (`chances`).  Values
are pairs (win chance, mean score): the win chance is the exact optimum, the score only
breaks its ties (a sure win is not searched for a higher one).  It is exact, so it is worth
its cost only when few cards are unseen; a node budget and a deadline stop it
(`SearchStopped`) where it would take too long.

The model must offer `state_with_order(game, visible, order)` (games/base.py).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from typing import Any

from games.base import Game, VisiblePositions

Value = tuple[float, float]   # (win chance, mean score)
#: Two win chances closer than this are equal (sums of products of 1/k! fractions).
EPSILON = 1e-9


class SearchStopped(Exception):
    """The node budget or the deadline ran out before the value was known."""


def offers_exact(model: VisiblePositions | None) -> bool:
    """Whether the model can give a state for each order of its unseen cards."""
    return model is not None and model.exact_orders


class FairExpectimax:
    """The exact fair value of visible positions of one game, memoised across calls (the
    table of one game of play can be kept from one decision to the next)."""

    def __init__(self, game: Game, model: VisiblePositions, max_nodes: int | None = None,
                 clock: Callable[[], float] = time.perf_counter):
        self.game, self.model = game, model
        self.max_nodes = max_nodes
        self.clock = clock
        self.table: dict[Hashable, Value] = {}
        self.nodes = 0          # chance expansions (game.apply calls) made so far
        self.deadline: float | None = None

    # ----- the values ---------------------------------------------------------------------
    def value(self, visible: Any, deadline: float | None = None, node_budget: int | None = None) -> Value:
        """V(visible); SearchStopped when the budget (nodes from now) or deadline runs out."""
        self._arm(deadline, node_budget)
        return self._value(visible)

    def move_values(self, visible: Any, deadline: float | None = None,
                    node_budget: int | None = None) -> list[tuple[Any, Value]]:
        """Each legal move with the value of playing it, in the game's move order."""
        self._arm(deadline, node_budget)
        state = self._state(visible)
        return [(move, self._expected(visible, move)) for move in self.game.legal_moves(state)]

    def chances(self, visible: Any, move: Any) -> dict[Any, float]:
        """The visible positions `move` can lead to, with their probabilities."""
        unknown = tuple(visible.unknown)
        count = len(unknown)
        out: dict[Any, float] = {}

        def extend(prefix: tuple, chance: float) -> None:
            self._tick()
            rest = tuple(card for card in unknown if card not in prefix)
            child = self.game.apply(self.model.state_with_order(self.game, visible, prefix + rest), move)
            seen = self.model.visible_of(self.game, child)
            drawn = count - len(seen.unknown)
            if drawn <= len(prefix):
                out[seen] = out.get(seen, 0.0) + chance
                return
            for card in rest:
                extend(prefix + (card,), chance / len(rest))

        extend((), 1.0)
        return out

    # ----- helpers --------------------------------------------------------------------------
    def _arm(self, deadline: float | None, node_budget: int | None) -> None:
        self.deadline = deadline
        self.max_nodes = None if node_budget is None else self.nodes + node_budget

    def _tick(self) -> None:
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise SearchStopped("node budget")
        if self.deadline is not None and self.nodes % 64 == 0 and self.clock() > self.deadline:
            raise SearchStopped("deadline")

    def _state(self, visible: Any) -> Any:
        return self.model.state_with_order(self.game, visible, tuple(visible.unknown))

    def _value(self, visible: Any) -> Value:
        known = self.table.get(visible)
        if known is not None:
            return known
        state = self._state(visible)
        outcome = self.game.outcome(state)
        if outcome is not None:
            value = (1.0 if outcome.won else 0.0, float(outcome.score))
        else:
            value = (-1.0, -1.0)
            for move in self.game.order_moves(state, self.game.legal_moves(state)):
                value = better(value, self._expected(visible, move, value[0]))
                if value[0] >= 1.0 - EPSILON:
                    break  # a sure win: the score only breaks ties, so none is sought further
        self.table[visible] = value
        return value

    def _expected(self, visible: Any, move: Any, floor: float = -1.0) -> Value:
        """The value of `move`; below `floor` (a move already found is better), it may stop
        as soon as even winning every chance left could not reach the floor."""
        win = score = 0.0
        left = 1.0
        for child, chance in self.chances(visible, move).items():
            child_win, child_score = self._value(child)
            win += chance * child_win
            score += chance * child_score
            left -= chance
            if win + left < floor - EPSILON:
                return win + left, score
        return win, score


def better(a: Value, b: Value) -> Value:
    """The better of two values: the higher win chance, then the higher mean score."""
    if b[0] > a[0] + EPSILON or (abs(b[0] - a[0]) <= EPSILON and b[1] > a[1]):
        return b
    return a
