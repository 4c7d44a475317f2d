"""The status line of a command at work (usurper/app/progress.py): drawn on a terminal's stderr, never
on a pipe; Devil's Throne's answers heard one by one; a hint's default limit said; a
fallback move where the equilibrium is not found; a finished deal's search counted truly."""

import io
import json
import os
import pty
import subprocess
import sys
import time
from pathlib import Path

from click.testing import CliRunner

import cli
from games import make_game
from games.base import LOST
from solver.analysis import SeatQuestions, analyse
from solver.search import ENGINES, Budget, solve
from solver.simultaneous import questions
from usurper.app.progress import ERASE, StatusLine, limit_words
from usurper.app.reports import format_seat_report, solve_report

ROOT = Path(__file__).resolve().parents[2]
#: Long enough for any loaded machine to draw a line that refreshes every few milliseconds.
PATIENCE = 60.0


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def run(*args: str):
    return CliRunner().invoke(cli.usurper, list(args))


def wait_for(condition) -> bool:
    """Poll `condition` until it holds or PATIENCE runs out (a wait, not a timing)."""
    deadline = time.monotonic() + PATIENCE
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


# ----- the status line ----------------------------------------------------------------------

def test_the_status_line_says_what_runs_for_how_long_and_the_limit_with_its_source():
    now = [100.0]
    status = StatusLine("solving adaman seed 5", limit_words(10, False), stream=FakeTerminal(),
                        clock=lambda: now[0])
    now[0] += 3.2
    assert status.text() == "usurper: solving adaman seed 5... 3 s of 10 s (--time-limit)"
    assert limit_words(60, True) == "60 s (the default --time-limit)"
    assert limit_words(None, True) == "none"


def test_a_terminal_sees_the_status_line_and_it_is_erased_at_the_end():
    terminal = FakeTerminal()
    with StatusLine("searching", "60 s (the default --time-limit)", stream=terminal, refresh=0.001):
        assert wait_for(lambda: "usurper: searching... " in terminal.getvalue())
    assert terminal.getvalue().endswith(ERASE)
    assert "of 60 s (the default --time-limit)" in terminal.getvalue()


def test_a_pipe_sees_no_status_line_and_echoed_answers_still_print():
    pipe, out = io.StringIO(), io.StringIO()
    with StatusLine("searching", "10 s (--time-limit)", stream=pipe, out=out, refresh=0.001) as status:
        status.echo("Q1 optimistic (everyone helps P):")
        status.doing("searching Q2")
    assert pipe.getvalue() == ""
    assert out.getvalue() == "Q1 optimistic (everyone helps P):\n"


def test_an_echoed_line_on_a_terminal_comes_above_the_status_line():
    terminal = FakeTerminal()
    with StatusLine("searching", stream=terminal, out=terminal, refresh=0.001) as status:
        assert wait_for(lambda: "usurper: searching" in terminal.getvalue())
        status.echo("an answer")
    text = terminal.getvalue()
    assert ERASE + "an answer\n" in text  # the status line erased first, the answer on a line of its own


def usurper_with_stderr_on(stderr_terminal: bool, *args: str) -> tuple[bytes, bytes]:
    """Run usurper with stdout piped and stderr on a pseudo-terminal or a pipe."""
    command = [sys.executable, "-c", "import cli; cli.main()", *args]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    if not stderr_terminal:
        done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, timeout=600)
        return done.stdout, done.stderr
    leader, follower = pty.openpty()
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=follower)
    os.close(follower)
    seen = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # the terminal closed with the process
            break
        if not chunk:
            break
        seen += chunk
    stdout = process.stdout.read()
    process.wait(timeout=600)
    os.close(leader)
    return stdout, seen


# Q2 of this three-player deal is not decided in a second: the command runs its whole limit.
UNDECIDED_RUN = ("solve", "devils-throne", "--seed", "7", "--players", "3", "--question", "q2", "--time-limit", "2")


def test_a_long_solve_draws_its_status_on_a_terminal_and_nothing_on_a_pipe():
    stdout, stderr = usurper_with_stderr_on(True, *UNDECIDED_RUN)
    assert b"usurper: searching Q2 paranoid, P commits first... " in stderr
    assert b"of 2 s (--time-limit)" in stderr
    assert b"usurper:" not in stdout and b"\x1b" not in stdout
    piped_out, piped_err = usurper_with_stderr_on(False, *UNDECIDED_RUN)
    assert piped_err == b""
    assert piped_out.splitlines()[:3] == stdout.splitlines()[:3]  # the answer itself, unchanged


# ----- Devil's Throne's answers as they come -------------------------------------------------

def test_each_question_is_heard_in_order_before_the_next_is_searched(monkeypatch):
    game = make_game("devils-throne", ["players=2"])
    state = game.initial_state(game.deal_from_seed(42))
    heard, searching = [], []
    real_answer = questions._answer_paranoid

    def spying_answer(*args, **kwargs):  # notes, as each question starts, what has been heard
        searching.append((args[3], tuple(heard)))
        return real_answer(*args, **kwargs)

    monkeypatch.setattr(questions, "_answer_paranoid", spying_answer)
    analysis = analyse(game, state, SeatQuestions(0, ("q1", "q2", "q3")), Budget(),
                       on_answer=lambda question, answer: heard.append(question))
    assert heard == ["q1", "q2", "q3"]
    assert searching == [("q1", ()), ("q2", ("q1",)), ("q3", ("q1", "q2"))]
    assert analysis.answers["q2"].cards == 5 and analysis.answers["q2"].margin == -12


def test_the_streamed_text_is_the_whole_report_and_the_json_is_whole_at_the_end():
    game = make_game("devils-throne", ["players=2"])
    cards = game.deal_from_seed(42)
    out = io.StringIO()
    with StatusLine("solving", stream=io.StringIO(), out=out) as status:
        report = solve_report(game, cards, game.initial_state(cards), 42, "optimal", 0, ("q1", "q2", "q3"), "auto",
                              Budget(), status=status)
    assert out.getvalue().splitlines() == format_seat_report(report)
    result = run("solve", "devils-throne", "--seed", "42", "--players", "2", "--question", "q1", "--question", "q2",
                 "--json")
    assert result.exit_code == 0, result.output
    assert list(json.loads(result.output)["answers"]) == ["q1", "q2"]  # one JSON document, nothing before it


# ----- what a hint says -----------------------------------------------------------------------

def test_a_hint_at_its_default_limit_says_the_limit_and_how_it_is_shared():
    result = run("hint", "adaman", "--seed", "5", "--moves", "Huntress <- Journey + Chance Meeting")
    assert result.exit_code == 0, result.output
    last = result.output.splitlines()[-1]
    assert last.startswith("Time limit: 60 s (the default --time-limit): the hint 32.4 s (60 % of the 90 % kept"), last
    given = run("hint", "adaman", "--seed", "5", "--moves", "Huntress <- Journey + Chance Meeting",
                "--time-limit", "20")
    assert given.exit_code == 0 and "Time limit" not in given.output
    report = json.loads(run("hint", "adaman", "--seed", "5", "--json").output)
    assert report["time_limit"] == {"seconds": 60.0, "default": True}


def test_an_undecided_equilibrium_hint_still_gives_each_seat_a_labelled_move():
    result = run("hint", "devils-throne", "--seed", "42", "--players", "2", "--max-states", "1000", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    game = make_game("devils-throne", ["players=2"])
    state = game.initial_state(game.deal_from_seed(42))
    greedy = {str(seat + 1): game.format_action(state, game.greedy_action(state, seat)) for seat in (0, 1)}
    assert report["value"] is None and report["fallback"] == greedy
    text = run("hint", "devils-throne", "--seed", "42", "--players", "2", "--max-states", "1000").output
    assert "undecided (state budget of 1000 states ran out), between" in text
    assert f"Seat 1: play {greedy['1']} (a fallback: the game's greedy rule, not the equilibrium)" in text


# ----- a deal lost before its first move ------------------------------------------------------

def test_a_deal_without_a_move_counts_one_state_and_no_table_hit_in_every_engine():
    game = make_game("adaman", [])
    top = ["Huntress", "Bard", "Sea", "End", "Calamity", "Ace of Moons", "Ace of Suns", "Ace of Waves",
           "Ace of Leaves", "Ace of Wyrms"]  # the rules' Example D: no legal move
    names = game.format_deal(game.deal_from_seed(0)).split(", ")
    state = game.initial_state(game.parse_deal(", ".join(top + [name for name in names if name not in top])))
    assert game.legal_moves(state) == []
    for engine in ENGINES:
        for mode in ("optimal", "winnable"):
            result = solve(game, state, mode, engine)
            assert (result.verdict, result.line, result.line_score) == (LOST, [], 0)
            stats = result.stats
            assert (stats.states, stats.unique, stats.table_hits, stats.max_depth) == (1, 1, 0, 0), (engine, mode)
