"""The search for repeating positions (solver/cycles.py) against a plain breadth-first
enumeration on mini deals (a short number deck), plus replay, bounds and refusals."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from games.base import GameType, UnsupportedGame
from games.kings_reign import NUMBER_CARDS, KingsReign
from solver.cycles import _CycleSearch, solve_cycles
from solver.search import Budget, BudgetExceeded
from solver.verify import replay

BY_NAME = {card.name: card for card in NUMBER_CARDS}
#: Mini deals (deck top first) whose whole state graph a test can enumerate.
MINI_DEALS = [
    "4C 8C 10C 4S",
    "4S 7C 8S AC",
    "6S 10S 7C 7S",
    "8C 3S 7C 2D",
    "10S 5S 7S AC 3D",
    "6S 10C 7S 8S 3S",
]


def mini(text: str) -> tuple[KingsReign, object]:
    game = KingsReign(cards=[BY_NAME[name] for name in text.split()])
    return game, game.initial_state(game.parse_deal(text))


def enumerate_terminals(game, root) -> tuple[bool, int | None, int | None]:
    """Plain breadth-first enumeration of every reachable state: (a win is reachable, best
    win, best loss)."""
    seen = {game.key(root)}
    queue = [root]
    best_win = best_loss = None
    for state in queue:
        for move in game.legal_moves(state):
            child = game.apply(state, move)
            outcome = game.outcome(child)
            if outcome is not None:
                if outcome.won:
                    best_win = outcome.score if best_win is None else max(best_win, outcome.score)
                else:
                    best_loss = outcome.score if best_loss is None else max(best_loss, outcome.score)
                continue
            if game.key(child) not in seen:
                seen.add(game.key(child))
                queue.append(child)
    return best_win is not None, best_win, best_loss


@pytest.mark.parametrize("text", MINI_DEALS)
def test_complete_search_agrees_with_breadth_first_enumeration(text):
    game, root = mini(text)
    winnable, best_win, best_loss = enumerate_terminals(game, root)
    for strategy in ("deep", "best-first"):
        result = solve_cycles(game, root, "optimal", Budget(time_limit=60), strategy=strategy)
        assert (result.verdict == "WON") == winnable
        assert result.score == (best_win if winnable else best_loss)
        assert result.upper_bound == result.score
        end = replay(game, root, result.line)
        assert end.ok and end.outcome is not None and end.outcome.score == result.line_score
        assert end.outcome.won == winnable
    quick = solve_cycles(game, root, "winnable")
    assert (quick.verdict == "WON") == winnable
    assert replay(game, root, quick.line).outcome.won == winnable


@pytest.mark.parametrize("text", MINI_DEALS[:3])
def test_upper_bound_never_below_the_optimum_when_the_budget_runs_out(text):
    game, root = mini(text)
    _, best_win, _ = enumerate_terminals(game, root)
    for states in (50, 300, 2000):
        result = solve_cycles(game, root, "optimal", Budget(max_states=states))
        assert result.verdict in ("WON", "UNDECIDED")
        if result.upper_bound is not None:
            assert result.upper_bound >= best_win
        if result.score is not None:
            assert result.score == best_win
        if result.verdict == "WON":
            assert replay(game, root, result.line).outcome.score == result.line_score


def test_a_best_first_search_stopped_while_it_expands_a_state_still_bounds_by_that_state():
    """The state being expanded is off the open list but its children are not all on it:
    stopped then (here at its first child, with a poor incumbent), the bound is still at
    least that state's own bound, never the incumbent alone."""
    game = KingsReign()
    root = game.initial_state(game.deal_from_seed(362))
    search = _CycleSearch(game, root, Budget(max_states=0), "optimal", "deep")
    search.win = (8, [])
    with pytest.raises(BudgetExceeded):
        search._best_first()
    assert search._frontier_bound() == game.score_upper_bound(root) == 85


def test_full_deal_first_win_replays_and_bounds_hold():
    game = KingsReign()
    for seed in range(3):
        root = game.initial_state(game.deal_from_seed(seed))
        result = solve_cycles(game, root, "winnable", Budget(time_limit=10))
        assert result.verdict == "WON"
        end = replay(game, root, result.line)
        assert end.ok and end.outcome.won and end.outcome.score == result.line_score
        optimal = solve_cycles(game, root, "optimal", Budget(max_states=5_000))
        assert optimal.verdict == "WON"
        assert optimal.upper_bound >= optimal.line_score >= result.line_score  # the same first win, then better
        assert optimal.upper_bound <= game.max_score == 85
        assert replay(game, root, optimal.line).outcome.score == optimal.line_score


def test_the_bound_is_never_below_any_score_seen_on_random_lines():
    import random

    game = KingsReign()
    rng = random.Random(3)
    for _ in range(300):
        state = game.initial_state(game.deal_from_seed(rng.randrange(1000)))
        trail = [state]
        while game.outcome(state) is None and len(trail) < 150:
            state = game.apply(state, rng.choice(game.legal_moves(state)))
            trail.append(state)
        if game.outcome(state) is not None:
            final = game.outcome(state).score
            assert all(game.score_upper_bound(s) >= final for s in trail)


class _Other(KingsReign):
    pass


@pytest.mark.parametrize("kind", [GameType(min_players=2, max_players=2, repeats=True),
                                  GameType(simultaneous=True, repeats=True),
                                  GameType(deterministic=False, repeats=True)])
def test_refuses_games_that_are_not_deterministic_solitaires(kind):
    game = _Other()
    game.game_type = kind
    with pytest.raises(UnsupportedGame, match="cannot analyse"):
        solve_cycles(game, game.initial_state(game.deal_from_seed(0)))


def test_the_memory_cap_is_kept_though_the_open_list_is_not_in_the_table():
    """Seed 1333's best-first phase holds hundreds of megabytes of open states and lines
    while the table of visited checkpoints stays small: the search must still stop at the
    memory cap (in a fresh process, whose peak memory is the search's own)."""
    script = (
        "import resource\n"
        "from games import make_game\n"
        "from solver.cycles import solve_cycles\n"
        "from solver.search import Budget\n"
        "game = make_game('kings-reign')\n"
        "before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "result = solve_cycles(game, game.initial_state(game.deal_from_seed(1333)), 'optimal',\n"
        "                      Budget(time_limit=300, max_memory_mb=100))\n"
        "grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024\n"
        "print(result.verdict, result.exhausted, round(grown))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=600,
                          cwd=Path(__file__).resolve().parents[2])
    assert done.returncode == 0, done.stderr
    verdict, *reason, grown = done.stdout.split()
    assert verdict == "WON" and " ".join(reason) == "memory cap of 100 MB"
    assert int(grown) <= 150  # the cap, the next table resize, and what one check interval adds
