"""The full-screen game driven through Textual's test pilot: a known deal from its first
move to its end, the final score equal to verify's on the same line; work in the background
that never blocks a key; each game's screen."""

import asyncio
import time

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
            return await advice_when(pilot, app, lambda text: "score" in text)

    return session, line, asyncio.run(drive())


async def advice_when(pilot, app, ready, seconds: float = 120.0) -> str:
    """The advice pane once `ready(text)` holds: background work ends when it ends, so the
    pilot waits for it (a generous bound that only stops a broken test)."""
    waited_until = time.monotonic() + seconds
    while time.monotonic() < waited_until:
        await pilot.pause(0.05)
        text = str(app.query_one("#advice").render())
        if ready(text):
            return text
    raise AssertionError(f"the advice never came: {text!r}")


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
            return await advice_when(pilot, app, lambda text: "winnable" in text)

    assert asyncio.run(drive()) == "still winnable: yes; best score 95"


def screen_after(game_name: str, seed: int, keys=(), size=(100, 40)):
    """The position pane, the status line and the advice after pressing `keys`."""
    from app.tui import PlayApp

    game = make_game(game_name)
    session = PlaySession(game, game.initial_state(game.deal_from_seed(seed)))

    async def drive():
        app = PlayApp(session)
        async with app.run_test(size=size) as pilot:
            await pilot.press(*keys)
            await pilot.pause()
            return tuple(str(app.query_one(pane).render()) for pane in ("#position", "#status", "#advice"))

    return asyncio.run(drive())


def test_q_while_a_hint_is_thinking_quits_without_waiting_for_it():
    """A hint that would take a minute is under way; q quits (no move played: nothing to
    confirm), the child doing the work is stopped, and the app does not wait for it."""
    from app.tui import PlayApp

    game = make_game("adaman")
    session = PlaySession(game, game.initial_state(game.deal_from_seed(5)))
    session.clairvoyant_advice = lambda: time.sleep(60) or (None, ["never"])

    async def drive():
        app = PlayApp(session)
        async with app.run_test() as pilot:
            await pilot.press("h")
            await pilot.pause()
            job = app.job
            assert job is not None and "thinking: hint" in app.query_one("#advice").border_title
            await pilot.press("q")
            await pilot.pause()
            return job, app.is_running

    job, running = asyncio.run(drive())
    assert not running
    assert job._process is None or not job._process.is_alive()  # stopped, not waited for


def test_escape_cancels_a_hint_and_the_game_goes_on():
    from app.tui import PlayApp

    game = make_game("adaman")
    session = PlaySession(game, game.initial_state(game.deal_from_seed(5)))
    session.clairvoyant_advice = lambda: time.sleep(60) or (None, ["never"])

    async def drive():
        app = PlayApp(session)
        async with app.run_test() as pilot:
            await pilot.press("h")
            await pilot.pause(0.2)
            await pilot.press("escape", "enter")
            await pilot.pause()
            return app.job, str(app.query_one("#status").render())

    job, status = asyncio.run(drive())
    assert job is None and status.startswith("played: ")
    assert len(session.played) == 1


def test_quitting_a_game_in_progress_asks_first():
    from app.tui import PlayApp

    game = make_game("adaman")
    session = PlaySession(game, game.initial_state(game.deal_from_seed(5)))

    async def drive():
        app = PlayApp(session)
        async with app.run_test() as pilot:
            await pilot.press("enter", "q")
            asked = str(app.query_one("#status").render())
            await pilot.press("x")
            still_running = app.is_running
            going_on = str(app.query_one("#status").render())
            await pilot.press("q", "y")
            await pilot.pause()
            return asked, still_running, going_on

    asked, still_running, going_on = asyncio.run(drive())
    assert "quit the game in progress?" in asked and still_running and going_on == "going on"


def test_typed_digits_are_shown_and_a_move_played_is_named():
    position, status, _ = screen_after("adaman", 5, ["1"])
    assert status == "move 1: Enter plays it"
    _, status, _ = screen_after("adaman", 5, ["enter"])
    assert status.startswith("played: ")


def test_kings_reign_is_drawn_as_its_board_with_the_legend():
    position, _, _ = screen_after("kings-reign", 1)
    assert "Legend:" in position and "##" in position and "K" in position


def test_royal_assassin_shows_suit_symbols_in_position_and_moves_and_explains_its_cells():
    position, _, advice = screen_after("royal-assassin", 5, ["question_mark"])
    assert "♣" in position or "♦" in position or "♥" in position or "♠" in position
    assert "Keys:" in advice and "attack" in advice.lower()


def test_adaman_help_lists_the_keys():
    _, _, advice = screen_after("adaman", 5, ["question_mark"])
    assert "h hint" in advice and "Esc" in advice
