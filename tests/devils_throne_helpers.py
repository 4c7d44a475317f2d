"""Devil's Throne test helpers shared by the search tests: endings of real deals, the
mixed-strategy value of a small position by brute force over contingent plans, and the
marker of the tests that need the compiled core (an install without a C compiler has none)."""

from __future__ import annotations

import itertools
import math

import pytest

from games.devils_throne import DevilsThrone, State
from games.devils_throne.game import late_round_start
from solver.simultaneous import lp_row_player


def late_position(game: DevilsThrone, seed: int, cards_left: int) -> State:
    """A round start reached by random joint play, with at most `cards_left` cards in the
    smallest hand (and the game not over)."""
    return late_round_start(game, seed, cards_left)


def late_uneven_position(game: DevilsThrone, seed: int, cards_left: int) -> State:
    """As `late_position`, but with hands left uneven (so some cards must stay in hands):
    random joint play that plays an Envoy whenever it may."""
    return late_round_start(game, seed, cards_left, envoys=True, accept=game.rules.cards_stuck)


def contingent_plan_value(game: DevilsThrone, state: State, seat: int, payoff: str = "margin") -> float:
    """Q4 (two players) or Q5 (more) as one matrix game over the whole tree, P against the
    coalition of the others: a pure strategy of a seat is an action at every node where it
    acts (a node is the joint-action history leading to it), the coalition's one such
    strategy for each other seat; the payoff P's cards or P's margin over the best other."""
    players = len(game.returns(state))
    others = [other for other in range(players) if other != seat]
    nodes: dict[int, list] = {s: [] for s in range(players)}

    def walk(current, history):
        if game.is_over(current):
            return
        acting = game.acting_players(current)
        for s in acting:
            nodes[s].append((history, game.legal_actions(current, s)))
        for joint in itertools.product(*(game.legal_actions(current, s) for s in acting)):
            walk(game.apply_joint(current, joint), history + (joint,))

    walk(state, ())
    sizes = [math.prod(len(options) for _, options in nodes[s]) for s in range(players)]
    assert math.prod(sizes) <= 50_000, "position too big for the brute force"
    plans = {s: [dict(zip([h for h, _ in nodes[s]], choice))
                 for choice in itertools.product(*(options for _, options in nodes[s]))] for s in range(players)}

    def play(by_seat):
        current, history = state, ()
        while not game.is_over(current):
            joint = tuple(by_seat[s][history] for s in game.acting_players(current))
            current, history = game.apply_joint(current, joint), history + (joint,)
        returns = game.returns(current)
        return returns[seat] if payoff == "cards" else returns[seat] - max(returns[other] for other in others)

    coalition = list(itertools.product(*(plans[other] for other in others)))
    matrix = [[play({seat: mine, **dict(zip(others, theirs))}) for theirs in coalition] for mine in plans[seat]]
    return lp_row_player(matrix)[0]


def _compiled_built() -> bool:
    from games.devils_throne import compiled

    return compiled._core is not None


needs_core = pytest.mark.skipif(not _compiled_built(), reason="games/devils_throne/_core is not built")
