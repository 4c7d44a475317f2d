"""Hardening, round two: careless input and unusual terminals through the real command line.
Each test names the defect it pins down; every refusal is one line and exit 2."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_helpers import one_line_error as assert_one_line_error

from usurper.app.reports import as_json_text, readable

ROOT = Path(__file__).resolve().parent.parent


def usurper(*args: str, stdin: str = "", env: dict | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", "import cli; cli.main()", *args], input=stdin,
                          capture_output=True, text=True, cwd=ROOT, timeout=timeout,
                          env={**os.environ, **(env or {})})


# ----- a seat that is not at the table ----------------------------------------------------------
@pytest.mark.parametrize("players, seat", [(2, 3), (3, 4)])
def test_a_seat_beyond_the_table_is_one_line(players, seat):
    done = usurper("solve", "devils-throne", "--seed", "1", "--players", str(players), "--seat", str(seat),
                   "--time-limit", "1")
    assert_one_line_error(done, f"seat {seat}", f"{players}-player")


# ----- an ASCII stdout ----------------------------------------------------------------------------
ASCII = {"PYTHONIOENCODING": "ascii"}


def test_plain_play_of_royal_assassin_survives_an_ascii_stdout():
    done = usurper("play", "royal-assassin", "--seed", "1", "--plain", stdin="h\nq\n", env=ASCII)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert "♦" not in done.stdout and "T 3D (turned)" in done.stdout


def test_devils_throne_play_survives_an_ascii_stdout():
    done = usurper("play", "devils-throne", "--seed", "1", "--plain", stdin="q\n", env=ASCII)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "1D hand" in done.stdout


def test_show_of_kings_reign_survives_an_ascii_stdout():
    done = usurper("show", "kings-reign", "--seed", "1", env=ASCII)
    assert done.returncode == 0 and "Traceback" not in done.stderr


# ----- the full screen wants a terminal ---------------------------------------------------------
def test_full_screen_play_without_a_terminal_is_refused_pointing_to_plain():
    done = usurper("play", "adaman", "--seed", "1", stdin="q\n", timeout=60)
    assert_one_line_error(done, "terminal", "--plain")
    assert "\x1b[" not in done.stdout


# ----- JSON everywhere the README says, and JSON that is JSON -----------------------------------
def test_deal_show_and_bench_print_json():
    deal = json.loads(usurper("deal", "adaman", "--seed", "3", "--json").stdout)
    assert deal["seed"] == 3 and deal["deal"].count(",") == 35
    shown = json.loads(usurper("show", "royal-assassin", "--seed", "3", "--json").stdout)
    assert shown["legal_moves"] and shown["finished"] is False
    bench = json.loads(usurper("bench", "adaman", "--seeds", "0-2", "--mode", "winnable", "--json").stdout)
    assert [row["seed"] for row in bench["rows"]] == [0, 1, 2] and bench["summary"]
    played = json.loads(usurper("bench", "adaman", "--seeds", "0-1", "--policy", "greedy", "--json").stdout)
    assert {row["policy"] for row in played["rows"]} == {"greedy"} and len(played["rows"]) == 2


def test_catalogue_run_prints_json(tmp_path):
    out = tmp_path / "a.jsonl"
    done = usurper("catalogue", "adaman", "--seeds", "0-2", "--out", str(out), "--mode", "winnable",
                   "--time-limit", "5", "--workers", "1", "--json")
    report = json.loads(done.stdout)
    assert report["seeds"] == 3 and report["solved_now"] == 3 and sum(report["outcomes"].values()) == 3


def test_an_undecided_interval_prints_null_not_infinity():
    done = usurper("solve", "devils-throne", "--seed", "1", "--players", "3", "--question", "q2",
                   "--max-states", "1", "--json")
    assert done.returncode == 0, done.stderr
    assert "Infinity" not in done.stdout and "NaN" not in done.stdout
    json.loads(done.stdout)
    assert as_json_text({"bounds": [float("-inf"), float("inf")]}).count("null") == 2


# ----- echoed input is cut to a readable length ------------------------------------------------
def test_a_huge_echoed_input_gives_a_short_line():
    done = usurper("hint", "adaman", "--seed", "1", "--moves", "x" * 130_000)
    line = assert_one_line_error(done, "move 1")
    assert len(line) < 500
    done = usurper("verify", "adaman", "--seed", "1", "--moves", "y" * 130_000)
    assert done.returncode == 1 and len(done.stdout) < 500
    assert readable("'" + "z" * 1000 + "'").count("z") < 100


# ----- limits mean what they say -------------------------------------------------------------------
@pytest.mark.parametrize("limit", ["1e308", "1e-300", "inf", "nan", "0", "-1"])
def test_time_limits_outside_a_millisecond_to_115_days_are_refused(limit):
    assert_one_line_error(usurper("solve", "adaman", "--seed", "1", "--time-limit", limit), "--time-limit")


# ----- help that stands alone ----------------------------------------------------------------------
def test_help_names_each_game_once_shows_no_huge_caps_and_needs_no_readme():
    for command in ("solve", "hint", "bench", "catalogue run", "pick", "play", "show", "deal", "verify"):
        text = usurper(*command.split(), "--help").stdout
        assert "royal_assassin" not in text and "4611686018427387904" not in text, command
        assert "README" not in text and "docs/" not in text, command
    bench = usurper("bench", "--help").stdout
    for option in ("--mode", "--baseline-limit"):
        described = bench.split(option, 1)[1].split("\n  --", 1)[0]
        assert len(described.split()) > 3, (option, described)


def test_underscore_game_names_still_work():
    done = usurper("deal", "royal_assassin", "--seed", "1")
    assert done.returncode == 0 and done.stdout.split()[:3] == ["JS", "10C", "QH"]


# ----- a hint keeps its one time limit -------------------------------------------------------------
def test_a_hint_hands_its_searches_no_more_time_than_its_limit_in_all(monkeypatch):
    """The hint, then where the moves played lost: every search is handed a limit that ends
    before the command's --time-limit does (the searches keep theirs: tests/solver)."""
    import time

    from click.testing import CliRunner

    import cli
    import solver.hints
    import usurper.app.play
    from solver.analysis import analyse

    handed = []

    def recording(game, state, question="optimal", budget=None, *args, **kwargs):
        handed.append(time.perf_counter() + budget.time_limit)
        return analyse(game, state, question, budget, *args, **kwargs)

    started = []

    class Counted(usurper.app.play.Deadline):
        """The command's own clock: a loaded machine may take a while to reach it."""

        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            started.append(self.started)

    monkeypatch.setattr(usurper.app.play, "analyse", recording)
    monkeypatch.setattr(solver.hints, "analyse", recording)
    monkeypatch.setattr(usurper.app.play, "Deadline", Counted)
    done = CliRunner().invoke(cli.usurper, ["hint", "adaman", "--seed", "5", "--time-limit", "2", "--moves",
                                            "Huntress <- Journey + Chance Meeting; Painter <- Battle"])
    assert done.exit_code == 0, done.output
    assert len(started) == 1 and len(handed) >= 2, (started, handed)
    assert max(handed) <= started[0] + 2.0, [end - started[0] for end in handed]


def test_where_lost_past_its_deadline_answers_nothing_without_searching(monkeypatch):
    import time

    import usurper.app.play
    from games import make_game

    monkeypatch.setattr(usurper.app.play, "analyse", lambda *args, **kwargs: pytest.fail("searched past the deadline"))
    game = make_game("adaman")
    start = game.initial_state(game.deal_from_seed(5))
    moves = game.parse_line(start, "Huntress <- Journey + Chance Meeting")
    assert usurper.app.play.where_lost(game, start, moves, deadline=time.perf_counter() - 1) is None


# ----- a bad suit is named ---------------------------------------------------------------------------
@pytest.mark.parametrize("suits, named", [("X,Y", "'X'"), ("D,Y", "'Y'"), ("X", "'X'"), ("D", "not 1 (D)")])
def test_a_bad_suit_list_names_the_bad_suit(suits, named):
    assert_one_line_error(usurper("deal", "devils-throne", "--seed", "1", "--suits", suits), named)


# ----- show --reveal shows what is face down ---------------------------------------------------------
@pytest.mark.parametrize("game, tail", [("adaman", "Deck, top first: Journey 3 ☾≈, Sea 10 ≈, Windfall 10 ∞"),
                                        ("royal-assassin", "Stock, top first: 3♦ J♦ 8♠")])
def test_show_reveal_adds_the_face_down_cards_in_order(game, tail):
    hidden = usurper("show", game, "--seed", "1").stdout
    shown = usurper("show", game, "--seed", "1", "--reveal").stdout
    assert tail not in hidden and tail in shown and shown.startswith(hidden.strip())


def test_a_fair_hint_without_a_time_limit_takes_two_seconds_not_a_minute(monkeypatch):
    from click.testing import CliRunner

    import cli
    import solver.fair

    asked = []
    real = solver.fair.fair_hint_for_state

    def recording(game, state, **options):
        asked.append(options["time_limit"])
        return real(game, state, **{**options, "samples": 5})

    monkeypatch.setattr(solver.fair, "fair_hint_for_state", recording)
    done = CliRunner().invoke(cli.usurper, ["hint", "adaman", "--seed", "5", "--fair"])
    assert done.exit_code == 0, done.output
    done = CliRunner().invoke(cli.usurper, ["hint", "adaman", "--seed", "5", "--fair", "--time-limit", "7"])
    assert done.exit_code == 0, done.output
    assert asked[0] <= 2.0 and 2.0 < asked[1] <= 7.0


# ----- the fair policy's curve: its options and its picture -------------------------------------
@pytest.mark.parametrize("budgets", ["abc", "0", "", "10,,20", "-3"])
def test_budgets_that_are_not_sample_counts_are_one_line(budgets):
    done = usurper("bench", "adaman", "--seeds", "0-0", f"--budgets={budgets}")
    assert_one_line_error(done, "--budgets", "whole numbers")


def test_a_plot_without_a_curve_to_draw_is_one_line_not_ignored():
    done = usurper("bench", "adaman", "--seeds", "0-0", "--policy", "greedy", "--plot", "curve.png")
    assert_one_line_error(done, "--plot", "--budgets")


def test_a_curve_whose_picture_cannot_be_written_is_refused_before_any_deal_is_played(tmp_path):
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    done = usurper("bench", "adaman", "--seeds", "0-0", "--budgets", "5", "--plot", str(blocked / "curve.png"))
    assert_one_line_error(done, "cannot write", "curve.png")
    assert done.stdout == "" and blocked.read_text() == "not a folder"
    assert list(tmp_path.iterdir()) == [blocked]


def test_a_curve_into_a_missing_folder_is_refused_naming_it_and_drawn_once_it_is_there(tmp_path):
    picture = tmp_path / "new" / "curve.png"
    done = usurper("bench", "adaman", "--seeds", "0-0", "--budgets", "5", "--plot", str(picture))
    assert_one_line_error(done, "cannot write", f"no folder {picture.parent}")
    assert list(tmp_path.iterdir()) == []  # no folder made
    picture.parent.mkdir()
    done = usurper("bench", "adaman", "--seeds", "0-0", "--budgets", "5", "--plot", str(picture))
    assert done.returncode == 0, done.stderr
    assert picture.read_bytes().startswith(b"\x89PNG") and list(picture.parent.iterdir()) == [picture]
