"""The full-screen game driven through Textual's test pilot: a known deal from its first
move to its end, the final score equal to verify's on the same line; work in the background
that never blocks a key; each game's screen."""

import asyncio
import time

import pytest

pytest.importorskip("textual")

from textual.widgets import OptionList  # noqa: E402

from games import make_game  # noqa: E402
from games.base import SYMBOL_LETTERS  # noqa: E402
from solver.search import Budget, solve  # noqa: E402
from solver.verify import replay  # noqa: E402
from usurper.app.play import PlaySession  # noqa: E402


def play_with_keys(game, seed, extra_keys=()):
    """Pick each move of the solver's line by keyboard (its number's digits, or arrow keys
    for the first moves) and Enter; returns the session, the line and the advice shown at
    the end."""
    from usurper.app.tui import PlayApp

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
    from usurper.app.tui import PlayApp

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
    from usurper.app.tui import PlayApp

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
    from usurper.app.tui import PlayApp

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
    from usurper.app.tui import PlayApp

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
    from usurper.app.tui import PlayApp

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


# ----- the frame: questions, sizes, quitting ------------------------------------------------
async def until(pilot, condition, what: str, rounds: int = 2400) -> None:
    """Let the app run until `condition()` holds (background work ends when it ends); the
    cap only stops a broken test."""
    for _ in range(rounds):
        if condition():
            return
        await pilot.pause(0.05)
    raise AssertionError(f"never happened: {what}")


def status_of(app) -> str:
    return str(app.query_one("#status").render())


def adaman_session(seed: int = 5, played=()):
    game = make_game("adaman")
    return PlaySession(game, game.initial_state(game.deal_from_seed(seed)), played=list(played))


def test_q_during_a_hint_keeps_its_question_shown_and_the_next_key_picks_a_move():
    """The hint's progress goes on being shown (on the advice pane's border) while the
    question stays on the status line; the digit typed next takes the question back and
    still picks its move, and Enter plays it."""
    from usurper.app.tui import PlayApp

    session = adaman_session()
    session.clairvoyant_advice = lambda: time.sleep(60) or (None, ["never"])

    async def drive():
        app = PlayApp(session)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("enter", "h", "q")
            question = status_of(app)
            border = app.query_one("#advice")
            progress = [border.border_title]
            await until(pilot, lambda: len(set(progress + [border.border_title])) >= 3 or
                        progress.append(border.border_title), "the progress line moving on")
            kept = status_of(app)
            await pilot.press("2")
            picked = status_of(app), app.query_one("#moves", OptionList).highlighted, app.is_running
            await pilot.press("enter")
            app.action_cancel()
            return question, kept, picked

    question, kept, picked = asyncio.run(drive())
    assert question.startswith("quit the game in progress?") and kept == question
    assert picked == ("move 2: Enter plays it", 1, True)
    assert len(session.played) == 2


@pytest.mark.parametrize("name, keys", [("adaman", ["question_mark"]), ("royal-assassin", ["question_mark"]),
                                        ("kings-reign", ["question_mark"]), ("kings-reign", [])])
def test_at_80x24_with_the_advice_open_the_move_list_keeps_five_rows(name, keys):
    from usurper.app.tui import MOVES_ROWS, PlayApp

    game = make_game(name)
    session = PlaySession(game, game.initial_state(game.deal_from_seed(3)))

    async def drive():
        app = PlayApp(session)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press(*keys)
            await pilot.pause()
            moves, advice = app.query_one("#moves"), app.query_one("#advice")
            return moves.content_region.height, advice.region.height, str(advice.render())

    rows, advice_rows, advice = asyncio.run(drive())
    assert rows >= MOVES_ROWS == 5
    assert advice_rows >= 3 and (not keys or "Keys:" in advice)


def test_below_the_minimum_size_the_screen_says_so():
    from usurper.app.tui import PlayApp

    async def drive():
        app = PlayApp(adaman_session())
        async with app.run_test(size=(70, 20)) as pilot:
            await pilot.pause()
            note = app.query_one("#too-small")
            small = note.display, str(note.render()), app.query_one("#game").display
            await pilot.resize_terminal(100, 30)
            await until(pilot, lambda: app.query_one("#game").display, "the game shown again")
            return small, (note.display, app.query_one("#game").display)

    (shown, text, game_shown), after = asyncio.run(drive())
    assert shown and not game_shown and "70x20" in text and "80x24" in text
    assert after == (False, True)


def test_quitting_prints_the_moves_with_the_prefix_and_verify_accepts_them():
    """`play --moves` then two moves by keys, then q y: the line printed holds all four, and
    `usurper verify` takes it."""
    from click.testing import CliRunner

    from cli import usurper
    from usurper.app.tui import PlayApp

    game = make_game("adaman")
    start = game.initial_state(game.deal_from_seed(5))
    prefix = game.legal_moves(start)[:1]
    prefix.append(game.legal_moves(game.apply(start, prefix[0]))[0])
    session = PlaySession(game, start, played=list(prefix))

    async def drive():
        app = PlayApp(session)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("enter", "enter", "q", "y")
            await pilot.pause()
            return app.query_one("#position").border_subtitle

    asyncio.run(drive())
    printed = session.farewell()
    assert printed.startswith("moves: ") and len(session.played) == 4
    assert session.played[:2] == prefix
    result = CliRunner().invoke(usurper, ["verify", "adaman", "--seed", "5", "--moves", printed[len("moves: "):]])
    assert result.exit_code == 0 and result.output.startswith("Legal, 4 moves"), result.output


def test_the_hinted_move_is_marked_in_the_list():
    from usurper.app.tui import HINT_MARK, PlayApp

    session = adaman_session()
    third = session.legal()[2][0]
    session.clairvoyant_advice = lambda: (third, ["Hint (reads the deal): the third"])

    async def drive():
        app = PlayApp(session)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("h")
            await until(pilot, lambda: "the third" in str(app.query_one("#advice").render()), "the hint")
            moves = app.query_one("#moves", OptionList)
            return [str(moves.get_option_at_index(i).prompt) for i in range(moves.option_count)]

    prompts = asyncio.run(drive())
    assert [i for i, prompt in enumerate(prompts) if prompt.endswith(HINT_MARK)] == [2]


def test_a_move_typed_in_notation_is_played():
    from usurper.app.tui import PlayApp

    session = adaman_session()
    move = session.legal()[3][0]
    # typed as on a plain keyboard: the suit letters the notation reads back for its symbols
    text = "".join(SYMBOL_LETTERS.get(character, character) for character in
                   session.game.format_move(session.state, move))

    async def drive():
        app = PlayApp(session)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("colon", *list(text), "enter")
            await pilot.pause()
            return status_of(app)

    status = asyncio.run(drive())
    assert session.played == [move] and status.startswith("played: ")


def test_a_digit_after_the_game_is_over_says_the_game_is_over():
    from usurper.app.tui import PlayApp

    game = make_game("royal-assassin")
    start = game.initial_state(game.deal_from_seed(5))
    line = solve(game, start, "optimal", "auto", Budget(time_limit=30)).line
    session = PlaySession(game, start, played=list(line))

    async def drive():
        app = PlayApp(session)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("1")
            status = status_of(app)
            app.action_cancel()
            return status

    assert asyncio.run(drive()) == "the game is over: u takes a move back, q quits"


# ----- Devil's Throne ---------------------------------------------------------------------
def throne_session(players: int = 3, seed: int = 42, bot: str = "greedy"):
    import random

    from usurper.app.bots import ThroneSession, make_bots

    game = make_game("devils-throne", [f"players={players}"])
    start = game.initial_state(game.deal_from_seed(seed))
    return ThroneSession(game, start, 0, make_bots(game, start, 0, bot), random.Random(7))


def rank_keys(text: str) -> list[str]:
    """The keys that type an action: `10` is 1 then 0; `pass` is p; `@2` is 2."""
    return list(text) if text.isdigit() else ["p"] if text == "pass" else [text.lstrip("@")]


def test_devils_throne_three_players_a_whole_game_by_keys_against_greedy_bots():
    """Each choice typed by its rank (or seat) and Enter; the bots answer in the background;
    at the end the screen shows the result and the line replays to the same end."""
    from click.testing import CliRunner

    from cli import usurper
    from usurper.app.throne_screen import ThroneApp

    session = throne_session()
    reveals = []

    async def drive():
        app = ThroneApp(session)
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(200):
                await until(pilot, lambda: session.over() or (app.bots_job is None and not app.chosen
                                                               and session.person_acts()), "your turn")
                if session.over():
                    break
                _, text = session.actions()[-1]
                await pilot.press(*rank_keys(text))
                assert status_of(app) == f"{text}: Enter plays it"
                await pilot.press("enter")
                reveals.append(len(session.reveals))
            return str(app.query_one("#advice").render())

    advice = asyncio.run(drive())
    assert session.over() and "Game over: cards " in advice
    assert reveals == sorted(reveals) and len(session.reveals) >= len(reveals)
    game = session.game
    assert game.apply_line(session.start, game.parse_line(session.start, session.line_text())) == session.state
    result = CliRunner().invoke(usurper, ["verify", "devils-throne", "--players", "3", "--seed", "42",
                                          "--moves", session.farewell()[len("moves: "):]])
    assert result.exit_code == 0, result.output


def test_devils_throne_a_rank_not_held_is_refused_in_one_line():
    from usurper.app.throne_screen import ThroneApp

    session = throne_session(players=2)
    held = [text for _, text in session.actions()]
    missing = next(rank for rank in "23456789" if rank not in held)

    async def drive():
        app = ThroneApp(session)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press(missing)
            return status_of(app)

    status = asyncio.run(drive())
    assert status == f"you hold no {missing} (your ranks: {' '.join(held)})"
    assert session.moves == []


def test_devils_throne_board_legend_and_quit_question():
    """The board shows every seat's hand; ? gives the keys and the cards' powers; q after a
    move asks, and the moves played are what leaving prints."""
    from usurper.app.throne_screen import ThroneApp

    session = throne_session(players=2)

    async def drive():
        app = ThroneApp(session)
        async with app.run_test(size=(80, 24)) as pilot:
            board = str(app.query_one("#position").render())
            await pilot.press("enter")
            await until(pilot, lambda: app.bots_job is None and session.moves, "the bots' answer")
            await pilot.press("question_mark")
            legend = str(app.query_one("#advice").render())
            await pilot.press("q")
            asked = status_of(app)
            await pilot.press("y")
            await pilot.pause()
            return board, legend, asked, app.is_running

    board, legend, asked, running = asyncio.run(drive())
    assert "1♦ you" in board and "2♥ bot" in board and "Round 1" in board
    assert "Robber" in legend and "Keys:" in legend
    assert asked.startswith("quit the game in progress?") and not running
    assert session.farewell().startswith("moves: ") and len(session.moves) == 1
