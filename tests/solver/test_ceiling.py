"""The fair ceiling (solver/ceiling.py): on late Royal Assassin positions, where the exact fair
optimum is known (solver/expectimax.py) and every order of the unseen cards can be taken,
the bound is never below the optimum and equals it with V the exact fair value; the inner
search agrees with a brute force over every line."""

from __future__ import annotations

import itertools
import math

import pytest

from games import make_game
from games.base import UsurperError
from solver.ceiling import (
    Ceiling,
    ClairvoyantValue,
    LateFairValue,
    SampledClairvoyantValue,
    bench_ceiling,
    clairvoyant_line,
    value_named,
)
from solver.expectimax import FairExpectimax

GAME = make_game("royal-assassin")
MODEL = GAME.visible_positions()
WINS = clairvoyant_line(30.0)


def late_position(seed: int, unseen: int):
    """The first decision with at most `unseen` cards unseen and a choice, on the greedy line."""
    state = GAME.initial_state(GAME.deal_from_seed(seed))
    while GAME.outcome(state) is None:
        if MODEL.unknown_count(MODEL.visible_of(GAME, state)) <= unseen and len(GAME.legal_moves(state)) > 1:
            return state
        state = GAME.apply(state, GAME.greedy_move(state))
    raise AssertionError(f"seed {seed} ends before {unseen} cards are unseen")


def exact_bound(visible, value) -> float:
    """The bound averaged over every order of the unseen cards (each equally likely)."""
    ceiling = Ceiling(GAME, MODEL, value)
    orders = list(itertools.permutations(visible.unknown))
    return math.fsum(ceiling.order_bound(MODEL.state_with_order(GAME, visible, order)).bound
                     for order in orders) / len(orders)


def brute_force(ceiling: Ceiling, state) -> float:
    """V(I0) plus the best sum of terms over every line, each line walked to its end."""
    def best(position) -> float:
        if GAME.outcome(position) is not None:
            return 0.0
        return max(term + best(GAME.apply(position, move)) for term, move in ceiling.terms(position))
    return ceiling.v(MODEL.visible_of(GAME, state)) + best(state)


# Seed 5's late position: fair optimum 5/12, clairvoyant 2/3 (a gap to close); seed 6: no gap.
@pytest.mark.parametrize("seed", [5, 6])
def test_bound_equals_the_fair_optimum_with_the_exact_fair_value(seed):
    visible = MODEL.visible_of(GAME, late_position(seed, 4))
    optimum = FairExpectimax(GAME, MODEL).value(visible)[0]
    assert exact_bound(visible, LateFairValue(GAME, MODEL, 4)) == pytest.approx(optimum, abs=1e-9)


@pytest.mark.parametrize("seed", [5, 6])
def test_bound_is_never_below_the_fair_optimum(seed):
    visible = MODEL.visible_of(GAME, late_position(seed, 4))
    optimum = FairExpectimax(GAME, MODEL).value(visible)[0]
    sampled = SampledClairvoyantValue(GAME, MODEL, 4, lambda game, state: WINS(game, state) is not None)
    for value in (ClairvoyantValue(), LateFairValue(GAME, MODEL, 2), sampled):
        assert exact_bound(visible, value) >= optimum - 1e-9, value.name


def test_with_no_penalty_the_bound_is_the_clairvoyant_win_chance():
    visible = MODEL.visible_of(GAME, late_position(5, 4))
    orders = list(itertools.permutations(visible.unknown))
    won = sum(WINS(GAME, MODEL.state_with_order(GAME, visible, order)) is not None for order in orders)
    assert exact_bound(visible, ClairvoyantValue()) == pytest.approx(won / len(orders))
    assert won / len(orders) > FairExpectimax(GAME, MODEL).value(visible)[0]  # the gap is real


@pytest.mark.parametrize("value_name", ["none", "fair-last-3", "sampled-clairvoyant-3"])
def test_inner_search_matches_a_brute_force_over_every_line(value_name):
    visible = MODEL.visible_of(GAME, late_position(5, 4))
    value = value_named(GAME, MODEL, value_name, lambda game, state: WINS(game, state) is not None)
    ceiling = Ceiling(GAME, MODEL, value)
    for order in itertools.permutations(visible.unknown):
        state = MODEL.state_with_order(GAME, visible, order)
        assert ceiling.order_bound(state).bound == pytest.approx(brute_force(ceiling, state), abs=1e-12)


def test_a_first_line_to_beat_does_not_change_the_bound():
    visible = MODEL.visible_of(GAME, late_position(5, 4))
    ceiling = Ceiling(GAME, MODEL, LateFairValue(GAME, MODEL, 4))
    for order in itertools.permutations(visible.unknown):
        state = MODEL.state_with_order(GAME, visible, order)
        line = WINS(GAME, state)
        known = [line] if line is not None else []
        assert ceiling.order_bound(state, known).bound == pytest.approx(ceiling.order_bound(state).bound)


def test_a_cut_search_still_bounds_from_above():
    visible = MODEL.visible_of(GAME, late_position(5, 4))
    value = LateFairValue(GAME, MODEL, 4)
    whole, cut = Ceiling(GAME, MODEL, value), Ceiling(GAME, MODEL, value, order_nodes=1)
    for order in itertools.permutations(visible.unknown):
        state = MODEL.state_with_order(GAME, visible, order)
        assert cut.order_bound(state).bound >= whole.order_bound(state).bound - 1e-12


def test_a_whole_deal_bound_with_no_penalty_is_its_clairvoyant_verdict():
    report = bench_ceiling(GAME, [0, 1], "none", 2000, 30.0)
    assert [row["bound"] for row in report["rows"]] == [1.0, 1.0]
    assert report["clairvoyant"]["won"] == 2


def test_unknown_value_is_refused_in_one_line():
    with pytest.raises(UsurperError, match="bad --value"):
        bench_ceiling(GAME, [0], "fair-last-0", 2000, 30.0)
