"""The fair ceiling (solver/ceiling.py): on late Royal Assassin positions, where the exact fair
optimum is known (solver/expectimax.py) and every order of the unseen cards can be taken,
the bound is never below the optimum and equals it with V the exact fair value; the inner
search agrees with a brute force over every line; the values said to be superharmonic are
(no term above 0, order by order); the check bound (a player blind for the first K reveals)
sits between the fair optimum and the clairvoyant and is the fair optimum once K covers
every card."""

from __future__ import annotations

import itertools
import math

import pytest

from games import make_game
from games.base import UsurperError
from solver.ceiling import (
    Ceiling,
    ClairvoyantValue,
    CoupledClairvoyantValue,
    LateClairvoyantValue,
    LateFairValue,
    OrderBound,
    RevealBound,
    SampledClairvoyantValue,
    bench_ceiling,
    clairvoyant_line,
    clairvoyant_verdict,
    exact_clairvoyant_chance,
    summarise,
    value_named,
    wins_of,
)
from solver.expectimax import FairExpectimax
from usurper.app.measure import fair_ceiling, fair_wins

GAME = make_game("royal-assassin")
MODEL = GAME.visible_positions()
WINS = clairvoyant_line(30.0)
VERDICT = clairvoyant_verdict(30.0)


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
    wins = wins_of(VERDICT)
    values = (ClairvoyantValue(), LateFairValue(GAME, MODEL, 2), SampledClairvoyantValue(GAME, MODEL, 4, wins),
              LateClairvoyantValue(GAME, MODEL, 3, wins), LateClairvoyantValue(GAME, MODEL, 4, wins),
              CoupledClairvoyantValue(GAME, MODEL, 24, VERDICT))
    for value in values:
        assert exact_bound(visible, value) >= optimum - 1e-9, value.name


def test_with_no_penalty_the_bound_is_the_clairvoyant_win_chance():
    visible = MODEL.visible_of(GAME, late_position(5, 4))
    orders = list(itertools.permutations(visible.unknown))
    won = sum(WINS(GAME, MODEL.state_with_order(GAME, visible, order)) is not None for order in orders)
    assert exact_bound(visible, ClairvoyantValue()) == pytest.approx(won / len(orders))
    assert won / len(orders) > FairExpectimax(GAME, MODEL).value(visible)[0]  # the gap is real


@pytest.mark.parametrize("value_name", ["none", "fair-last-3", "sampled-clairvoyant-3", "clairvoyant-last-3",
                                        "clairvoyant-5", "clairvoyant-24"])
def test_inner_search_matches_a_brute_force_over_every_line(value_name):
    visible = MODEL.visible_of(GAME, late_position(5, 4))
    value = value_named(GAME, MODEL, value_name, VERDICT)
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


def positions_of_every_order(visible):
    """Every position a player who sees the order can reach from `visible`, over every order."""
    orders = itertools.permutations(visible.unknown)
    seen, stack = {}, [MODEL.state_with_order(GAME, visible, order) for order in orders]
    while stack:
        state = stack.pop()
        if GAME.outcome(state) is None and GAME.key(state) + (state.stock,) not in seen:
            seen[GAME.key(state) + (state.stock,)] = state
            stack.extend(GAME.apply(state, move) for move in GAME.legal_moves(state))
    return list(seen.values())


# 5 orders of 4 unseen cards: drawn, not all 24, so V is not C; 24: every order, V is C.
@pytest.mark.parametrize("orders", [5, 24])
@pytest.mark.parametrize("seed", [5, 6])
def test_the_coupled_clairvoyant_value_is_superharmonic_order_by_order(seed, orders):
    visible = MODEL.visible_of(GAME, late_position(seed, 4))
    ceiling = Ceiling(GAME, MODEL, CoupledClairvoyantValue(GAME, MODEL, orders, VERDICT))
    positions = positions_of_every_order(visible)
    assert len(positions) > 20
    for state in positions:
        assert max(term for term, _ in ceiling.terms(state)) <= 1e-12


@pytest.mark.parametrize("seed", [5, 6])
def test_with_every_order_the_coupled_value_is_the_exact_clairvoyant_chance(seed):
    visible = MODEL.visible_of(GAME, late_position(seed, 4))
    value = CoupledClairvoyantValue(GAME, MODEL, 24, VERDICT)
    wins = wins_of(VERDICT)
    assert value(visible) == pytest.approx(exact_clairvoyant_chance(GAME, MODEL, visible, wins))
    state = MODEL.state_with_order(GAME, visible, visible.unknown)
    for move in GAME.legal_moves(state):
        assert value.after(visible, move) == pytest.approx(exact_clairvoyant_chance(GAME, MODEL, visible, wins, move))


def test_the_exact_clairvoyant_chance_is_superharmonic():
    visible = MODEL.visible_of(GAME, late_position(5, 4))
    value = LateClairvoyantValue(GAME, MODEL, 4, wins_of(VERDICT))
    ceiling = Ceiling(GAME, MODEL, value)
    for state in positions_of_every_order(visible):
        assert max(term for term, _ in ceiling.terms(state)) <= 1e-12
    assert value(visible) > FairExpectimax(GAME, MODEL).value(visible)[0]  # C is above the fair optimum here


@pytest.mark.parametrize("seed", [5, 6])
def test_the_reveal_bound_sits_between_the_fair_optimum_and_the_clairvoyant(seed):
    visible = MODEL.visible_of(GAME, late_position(seed, 4))
    optimum = FairExpectimax(GAME, MODEL).value(visible)[0]
    clairvoyant = exact_clairvoyant_chance(GAME, MODEL, visible, wins_of(VERDICT))
    bounds = [RevealBound(GAME, MODEL, reveals, wins_of(VERDICT)).value(visible) for reveals in (1, 2, 3, 4)]
    assert clairvoyant + 1e-12 >= bounds[0]
    assert all(earlier + 1e-12 >= later for earlier, later in zip(bounds, bounds[1:]))  # blind longer, no better
    assert bounds[-1] == pytest.approx(optimum)  # blind for every card: the fair player itself


def test_one_blind_reveal_is_at_most_the_best_clairvoyant_chance_of_a_first_move():
    visible = MODEL.visible_of(GAME, late_position(5, 4))
    wins = wins_of(VERDICT)
    state = MODEL.state_with_order(GAME, visible, visible.unknown)
    chances = {move: exact_clairvoyant_chance(GAME, MODEL, visible, wins, move) for move in GAME.legal_moves(state)}
    reveal = RevealBound(GAME, MODEL, 1, wins)
    optimum = FairExpectimax(GAME, MODEL).value(visible)[0]
    # max over a of Q(I0, a) with V = C sees the deck after one move; here the best move, an
    # attack, reveals nothing, so the player blind until a card is revealed chooses on
    assert optimum - 1e-12 <= reveal.value(visible) < max(chances.values())
    attack = GAME.apply(state, "A(D)")
    assert reveal.value(visible) == pytest.approx(reveal.value(MODEL.visible_of(GAME, attack)))
    turned = MODEL.visible_of(GAME, GAME.apply(attack, "T"))  # after the reveal the player sees all
    assert reveal.value(turned, 0) == pytest.approx(exact_clairvoyant_chance(GAME, MODEL, turned, wins))


def test_a_whole_deal_reveal_bound_is_a_share_and_the_bench_names_it():
    report = bench_ceiling(GAME, [0], "blind-first-2", 2000, 30.0)
    assert report["value"] == "blind-first-2"
    assert 0.0 <= report["rows"][0]["bound"] <= 1.0
    assert "blind-first-2" in report["summary"][0]


def test_the_fair_policys_rows_give_its_rate_beside_the_bound(tmp_path):
    rows = tmp_path / "fair.csv"
    rows.write_text("0,1,12,30,1.0\n1,0,9,31,0.8\n2,1,12,20,0.5\n")
    report, lines = fair_ceiling(GAME, "0-1", "none", 2000, 30.0, False, str(rows))
    assert report["fair"]["won"] == 1 and report["fair"]["deals"] == 2
    assert lines[-1].startswith(f"fair policy ({rows}), the same deals: 1/2 = 50.0%")


@pytest.mark.parametrize("text, words", [("0,1\n", "no row for seed 1"), ("0,yes\n1,1\n", "line 1"),
                                         ("seed,won\n", "line 1")])
def test_fair_rows_that_do_not_cover_the_seeds_are_refused_in_one_line(tmp_path, text, words):
    rows = tmp_path / "fair.csv"
    rows.write_text(text)
    with pytest.raises(UsurperError, match=words):
        fair_wins(rows, [0, 1])


def test_unreadable_fair_rows_are_refused_in_one_line(tmp_path):
    with pytest.raises(UsurperError, match="cannot read --fair-rows"):
        fair_ceiling(GAME, "0-199", "none", 2000, 30.0, False, str(tmp_path / "absent.csv"))


def test_trying_the_moves_that_keep_the_order_won_first_changes_no_bound():
    visible = MODEL.visible_of(GAME, late_position(5, 4))
    value = CoupledClairvoyantValue(GAME, MODEL, 24, VERDICT)
    plain, steered = Ceiling(GAME, MODEL, value), Ceiling(GAME, MODEL, value, wins=wins_of(VERDICT))
    for order in itertools.permutations(visible.unknown):
        state = MODEL.state_with_order(GAME, visible, order)
        assert steered.order_bound(state).bound == pytest.approx(plain.order_bound(state).bound, abs=1e-12)
        ordered = steered.search_order(state)
        tied = [move for term, move in ordered if abs(term - ordered[0][0]) <= 1e-9]
        kept = [VERDICT(GAME, GAME.apply(state, move))[0] for move in tied]
        assert kept == sorted(kept, reverse=True)  # the moves that keep it won come first


def test_an_interval_of_shares_of_one_ends_at_one_at_most():
    """Bounds that are win chances have a mean of at most 1, whatever the spread."""
    shares = summarise([OrderBound(1.0, 1, False)] * 197 + [OrderBound(0.0, 1, False)] * 3)
    assert shares.high == 1.0 and shares.mean == 0.985 and shares.low < shares.mean
    anything = summarise([OrderBound(1.2, 1, False), OrderBound(0.9, 1, False)])
    assert anything.high > 1.05
