"""The exact fair optimum (solver/expectimax.py) against a plain brute force on tiny deals."""

import itertools
import random

import pytest

from games import make_game
from solver.expectimax import FairExpectimax, SearchStopped, offers_exact
from solver.fair import fair_hint
from solver.search import Budget, solve

ADAMAN = make_game("adaman")
RA = make_game("royal-assassin")


def late_position(game, seed, unseen):
    """A position on a winning line of a seeded deal (the clairvoyant solver's) with
    `unseen` cards or fewer face down and a choice to make (None if there is none)."""
    model = game.visible_positions()
    state = game.initial_state(game.deal_from_seed(seed))
    for move in solve(game, state, "winnable", "auto", Budget(time_limit=10)).line:
        if len(model.visible_of(game, state).unknown) <= unseen and len(game.legal_moves(state)) > 1:
            return model.visible_of(game, state)
        state = game.apply(state, move)
    return None


def brute_force(game, worlds):
    """The best win chance of a player who sees only what the worlds (full states, equally
    likely) have in common: every move, the worlds split by what the player then sees."""
    model = game.visible_positions()
    outcome = game.outcome(worlds[0])
    if outcome is not None:
        return 1.0 if outcome.won else 0.0
    best = 0.0
    for move in game.legal_moves(worlds[0]):
        classes = {}
        for world in worlds:
            child = game.apply(world, move)
            classes.setdefault(model.visible_of(game, child), []).append(child)
        best = max(best, sum(len(part) / len(worlds) * brute_force(game, part) for part in classes.values()))
    return best


def every_order(game, visible):
    model = game.visible_positions()
    return [model.state_with_order(game, visible, order) for order in itertools.permutations(visible.unknown)]


def reaching(game, unseen: int, count: int) -> list[tuple]:
    """The first `count` seeds whose deal still goes on with `unseen` cards unseen."""
    seeds = (seed for seed in range(200) if late_position(game, seed, unseen) is not None)
    return [(game, seed, unseen) for seed in itertools.islice(seeds, count)]


TINY = reaching(RA, 4, 16) + reaching(ADAMAN, 2, 12)
SLOWER = reaching(RA, 5, 12) + reaching(ADAMAN, 3, 12)


@pytest.mark.parametrize("game, seed, unseen", TINY + [pytest.param(*case, marks=pytest.mark.slow) for case in SLOWER],
                         ids=[f"{g.name}-{s}-{u}" for g, s, u in TINY + SLOWER])
def test_expectimax_matches_brute_force_on_tiny_deals(game, seed, unseen):
    visible = late_position(game, seed, unseen)
    search = FairExpectimax(game, game.visible_positions())
    assert search.value(visible)[0] == pytest.approx(brute_force(game, every_order(game, visible)), abs=1e-9)


def test_a_fair_player_cannot_always_win_what_a_clairvoyant_one_wins():
    visible = late_position(ADAMAN, 2, 3)  # winnable as dealt; two orders in three win for a fair player
    assert FairExpectimax(ADAMAN, ADAMAN.visible_positions()).value(visible)[0] == pytest.approx(2 / 3)


@pytest.mark.parametrize("game", [ADAMAN, RA])
def test_chances_of_a_move_add_up_to_one(game):
    visible = late_position(game, 1, 5)
    search = FairExpectimax(game, game.visible_positions())
    state = game.visible_positions().state_with_order(game, visible, visible.unknown)
    for move in game.legal_moves(state):
        chances = search.chances(visible, move)
        assert sum(chances.values()) == pytest.approx(1.0)
        assert all(len(child.unknown) <= len(visible.unknown) for child in chances)


def test_the_node_budget_stops_the_search():
    visible = late_position(ADAMAN, 0, 8)
    search = FairExpectimax(ADAMAN, ADAMAN.visible_positions())
    with pytest.raises(SearchStopped):
        search.value(visible, node_budget=50)
    assert search.nodes <= 51


def test_kings_reign_offers_no_exact_search():
    # its unseen pool may hold cards that left the game, so an order is not a deal
    assert not offers_exact(make_game("kings-reign").visible_positions())
    assert offers_exact(ADAMAN.visible_positions()) and offers_exact(RA.visible_positions())


def test_fair_hint_uses_the_exact_optimum_with_few_cards_unseen():
    visible = late_position(RA, 3, 4)
    hint = fair_hint(RA, visible, samples=50, rng=random.Random(0))
    assert hint.method == "expectimax"
    best = FairExpectimax(RA, RA.visible_positions()).value(visible)
    assert hint.estimates[0].win_rate == pytest.approx(best[0])
    assert "exact fair optimum" in hint.lines()[0]
