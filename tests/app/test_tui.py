"""The full-screen game driven through Textual's test pilot: a known deal from its first
move to its end, the final score equal to verify's on the same line."""

import asyncio

import pytest

pytest.importorskip("textual")

from app.play import PlaySession  # noqa: E402
from games import make_game  # noqa: E402
from solver.search import Budget, solve  # noqa: E402
from solver.verify import replay  # noqa: E402


def play_with_keys(game, seed, extra_keys=()):
    """Pick each move of the solver's line by keyboard (its number's digits, or arrow keys
    for the first moves) and Enter; returns the session, the line and the advice shown at
    the end."""
    from app.tui import PlayApp

    start = game.initial_state(game.deal_from_seed(seed))
    line = solve(game, start, "optimal", "auto", Budget(time_limit=30)).line
    session = PlaySession(game, start)

    async def drive():
        app = PlayApp(session)
        async with app.run_test() as pilot:
            for key in extra_keys:
                await pilot.press(key)
            for number, move in enumerate(line):
                index = game.legal_moves(session.state).index(move)
                keys = ["down"] * index if number < 3 or not index else list(str(index + 1))
                await pilot.press(*keys, "enter")
            await pilot.pause()
            return str(app.query_one("#advice").render())

    return session, line, asyncio.run(drive())


@pytest.mark.parametrize("name, seed, score", [("adaman", 5, 95), ("royal-assassin", 5, 12)])
def test_keyboard_game_of_the_optimal_line_ends_with_verifys_score(name, seed, score):
    game = make_game(name)
    session, line, advice = play_with_keys(game, seed)
    assert session.played == line
    verified = replay(game, session.start, line)
    assert session.outcome().score == verified.outcome.score == score
    assert f"score {score}; the deal's optimum is {score} (reached)" in advice


def test_undo_redo_and_verdict_keys():
    from app.tui import PlayApp

    game = make_game("adaman")
    start = game.initial_state(game.deal_from_seed(5))
    session = PlaySession(game, start)

    async def drive():
        app = PlayApp(session)
        async with app.run_test() as pilot:
            await pilot.press("enter", "enter", "u")
            assert len(session.played) == 1
            await pilot.press("r")
            assert len(session.played) == 2
            await pilot.press("u", "u", "v")
            assert session.played == []
            return str(app.query_one("#advice").render())

    assert asyncio.run(drive()) == "still winnable: yes; best score 95"
