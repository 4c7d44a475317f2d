"""Hardening: every user error is one line `usurper: error: ...` with exit 2, never a
traceback, a runaway or a partly written file; every limit is kept; start-up stays light.

Unwritable paths are paths under a regular file or under /proc: tests run as root here,
and root writes through a chmod'ed directory.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
import tracemalloc
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

import cli
import solver.search
from games import make_game
from games.base import UsurperError, VariantError
from solver import catalogue
from solver.answers import Budget, Limit
from solver.search import solve
from solver.seeds import MAX_SEEDS, parse_seed_ranges

ROOT = Path(__file__).resolve().parent.parent


def usurper(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", "import cli; cli.main()", *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=timeout)


def assert_one_line_error(done: subprocess.CompletedProcess, *words: str) -> str:
    """Exit 2, nothing on stdout, and exactly one line `usurper: error: ...` on stderr."""
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("usurper: error: "), done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


def small_catalogue(path: Path, rows=None, **header_changes) -> Path:
    header = {**catalogue.make_job(make_game, "adaman", time_limit=None, max_states=100).header(), **header_changes}
    rows = rows if rows is not None else [
        {"seed": seed, "outcome": "WON", "score": None, "best": 70 + seed, "states": 10, "seconds": 0.1,
         "first_move": "x", "engine": "x"} for seed in range(3)]
    path.write_text("".join(json.dumps(line) + "\n" for line in [header, *rows]))
    return path


# ----- 1, 6: seed ranges are lazy, bounded, and written in full -------------------------------
def test_a_huge_seed_range_is_refused_at_once_naming_the_maximum():
    with pytest.raises(UsurperError, match="at most 10,000,000"):
        parse_seed_ranges("0-1000000000000")  # a range that is listed first would never get here
    seeds = parse_seed_ranges(f"0-{MAX_SEEDS - 1}")  # the maximum itself is held as one range
    assert len(seeds) == MAX_SEEDS and MAX_SEEDS - 1 in seeds and MAX_SEEDS not in seeds


@pytest.mark.parametrize("command", [["catalogue", "adaman", "--out", "x.jsonl"], ["bench", "adaman"]])
def test_a_huge_seed_range_is_one_line_from_the_cli(command, tmp_path):
    out = tmp_path / "x.jsonl"
    args = [word if word != "x.jsonl" else str(out) for word in command]
    assert_one_line_error(usurper(*args, "--seeds", "0-1000000000000", timeout=30), "10,000,000")
    assert not out.exists()


def test_seed_ranges_read_back_sorted_once_each_and_refuse_open_ends():
    assert list(parse_seed_ranges("9-10, 2,9")) == [2, 9, 10]
    assert parse_seed_ranges("3,10-12").text() == "3,10-12"
    assert parse_seed_ranges("4-6,1-4").text() == "1-6"
    for text in ("5-", "-5", "5--6", "", ",", "3,,4", "a-b", "6-5", "1.5", "²", "0x10", " - "):
        with pytest.raises(UsurperError, match="bad seed range"):
            parse_seed_ranges(text)
    assert_one_line_error(usurper("bench", "adaman", "--seeds", "5-"), "bad seed range '5-'")


def test_resuming_a_long_range_never_builds_it_in_memory(tmp_path):
    """10,000,000 seeds with 3 in the file: the run stops (Ctrl-C) after two seeds, having
    used a few hundred kilobytes, not the ~400 MB a list or set of the range costs."""
    path = tmp_path / "long.jsonl"
    job = catalogue.make_job(make_game, "adaman", time_limit=None, max_states=100, max_memory_mb=None)
    small_catalogue(path, max_memory_mb=None)  # uncapped: solved in this process, where the closure runs
    solved = []

    def solve_one(job, seed):
        if len(solved) == 2:
            raise KeyboardInterrupt
        solved.append(seed)
        return {"seed": seed, "outcome": "UNDECIDED", "score": None, "best": None, "states": 1, "seconds": 0.0,
                "first_move": None, "engine": "test"}

    started = {}
    tracemalloc.start()
    try:
        with pytest.raises(catalogue.Interrupted) as stopped:
            catalogue.run(path, job, parse_seed_ranges(f"0-{MAX_SEEDS - 1}"), workers=1,
                          on_start=lambda todo, rows: started.update(todo=todo), solve_one=solve_one)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert started["todo"] == MAX_SEEDS - 3 and solved == [3, 4]
    assert stopped.value.done == 5 and stopped.value.total == MAX_SEEDS
    assert peak < 5 * 2**20, peak


def test_bench_names_the_seeds_it_ran_as_given():
    done = usurper("bench", "adaman", "--seeds", "3,10-11", "--mode", "winnable", "--time-limit", "5")
    assert done.returncode == 0, done.stderr
    assert "seeds 3,10-11" in done.stdout and "seeds 3-11" not in done.stdout


# ----- 2, 3: output paths that cannot be written ------------------------------------------
@pytest.mark.parametrize("where", ["under a file", "proc"])
def test_an_unwritable_catalogue_is_one_line_and_leaves_nothing(where, tmp_path):
    blocker = tmp_path / "file.txt"
    blocker.write_text("a file, not a directory")
    out = blocker / "sub" / "x.jsonl" if where == "under a file" else Path("/proc/usurper-test/x.jsonl")
    assert_one_line_error(usurper("catalogue", "adaman", "--seeds", "0-1", "--out", str(out)), "cannot write")
    assert blocker.read_text() == "a file, not a directory" and sorted(tmp_path.iterdir()) == [blocker]


@pytest.mark.parametrize("where", ["under a file", "beside a file", "proc"])
def test_an_unwritable_plot_is_one_line_and_leaves_nothing(where, tmp_path):
    book = small_catalogue(tmp_path / "c.jsonl")
    blocker = tmp_path / "file.txt"
    blocker.write_text("x")
    plot = {"under a file": blocker / "sub" / "p.png", "beside a file": blocker / "p.png",
            "proc": Path("/proc/p.png")}[where]
    assert_one_line_error(usurper("catalogue", "stats", str(book), "--plot", str(plot)), "cannot write", str(plot))
    assert sorted(path.name for path in tmp_path.iterdir()) == ["c.jsonl", "file.txt"]


def test_missing_optional_extras_name_the_pip_command(monkeypatch, tmp_path):
    book = catalogue.read(small_catalogue(tmp_path / "c.jsonl"))
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    with pytest.raises(UsurperError, match=r"pip install 'usurper\[plot\]'"):
        catalogue.plot(book, tmp_path / "p.png")
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(UsurperError, match=r"pip install 'usurper\[cluster\]'"):
        catalogue.work._connect("tcp://127.0.0.1:1")
    assert not (tmp_path / "p.png").exists()


# ----- 4: a scheduler that is not there ---------------------------------------------------
@pytest.mark.parametrize("address", ["notanaddress", "tcp://127.0.0.1:1"])
def test_a_bad_scheduler_is_one_line_and_prompt(address, tmp_path, monkeypatch):
    pytest.importorskip("distributed")
    out = tmp_path / "s.jsonl"
    # A connect that never gave up would hang past the run's timeout and fail the test.
    assert catalogue.work.SCHEDULER_TIMEOUT < 60
    done = usurper("catalogue", "adaman", "--seeds", "0-3", "--out", str(out), "--scheduler", address, timeout=60)
    assert_one_line_error(done, "cannot reach the Dask scheduler")
    assert not out.exists()


# ----- 5: non-finite numbers ----------------------------------------------------------------
@pytest.mark.parametrize("args", [
    ["solve", "adaman", "--seed", "1", "--time-limit"],
    ["hint", "adaman", "--seed", "1", "--time-limit"],
    ["bench", "adaman", "--seeds", "0", "--time-limit"],
    ["bench", "adaman", "--seeds", "0", "--baseline-limit"],
    ["catalogue", "adaman", "--seeds", "0", "--out", "OUT", "--time-limit"],
    ["catalogue", "adaman", "--seeds", "0", "--out", "OUT", "--verdict-limit"],
])
@pytest.mark.parametrize("number", ["nan", "inf", "-inf", "NaN", "1e999"])
def test_non_finite_numbers_are_refused_everywhere(args, number, tmp_path):
    out = tmp_path / "x.jsonl"
    result = CliRunner().invoke(cli.usurper, [str(out) if word == "OUT" else word for word in args] + [number],
                                standalone_mode=False)
    assert isinstance(result.exception, click.BadParameter), result.exception
    message = result.exception.format_message()
    assert "is not a time limit: give seconds from 0.001 to 10,000,000" in message and not out.exists()


def test_non_finite_number_from_the_cli_is_one_line():
    assert_one_line_error(usurper("solve", "adaman", "--seed", "1", "--time-limit", "nan"), "not a time limit")


def test_a_catalogue_job_refuses_a_non_finite_limit_and_nan_in_a_file(tmp_path):
    with pytest.raises(UsurperError, match="finite"):
        catalogue.make_job(make_game, "adaman", time_limit=math.nan)
    path = tmp_path / "nan.jsonl"
    path.write_text(small_catalogue(tmp_path / "ok.jsonl").read_text().replace('"time_limit": null',
                                                                               '"time_limit": NaN'))
    with pytest.raises(UsurperError, match="line 1 is not JSON"):
        catalogue.read(path)


# ----- 7: time limits are kept --------------------------------------------------------------
COMPILED_CLOCK_EVERY = 256  # states between looks at the clock: BUDGET_CHECK_EVERY, solver/_search_core.h


class _TickingClock:
    """A clock that moves on a millisecond at every read: a search's stopping point under a
    time limit then depends on the states it counts, not on how busy the machine is."""

    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 0.001
        return self.now


@pytest.mark.parametrize("engine, variants", [("pruned", ()), ("pruned", ("excuse",)), ("plain", ())])
def test_the_python_engines_stop_at_the_first_state_past_the_time_limit(engine, variants, monkeypatch):
    clock = _TickingClock()
    monkeypatch.setattr(solver.search.time, "perf_counter", clock)
    game = make_game("adaman", variants)
    state = game.initial_state(game.deal_from_seed(1))
    limit = 0.3
    result = solve(game, state, "optimal", engine, Budget(time_limit=limit))
    assert "time limit" in result.exhausted
    # The clock is read once a state (and once to report): one read past the deadline ends it.
    assert limit < result.stats.seconds <= limit + 0.0025, result.stats.seconds
    assert result.stats.states >= 0.9 * limit / 0.001


def test_the_compiled_engine_reads_the_clock_every_few_hundred_states():
    """A limit already passed ends the compiled search at its first look at the clock, so a
    limit is overrun by at most that many states (microseconds each: `bench/startup.py`'s
    figures put a state well under 10 us)."""
    game = make_game("adaman", ())
    state = game.initial_state(game.deal_from_seed(83))
    result = solve(game, state, "optimal", "compiled", Budget(time_limit=1e-9))
    assert "time limit" in result.exhausted
    assert result.stats.states <= COMPILED_CLOCK_EVERY + 1, result.stats.states


# ----- 8: the memory cap bounds the process --------------------------------------------------
def _peak_rss_mb(*args: str) -> float:
    code = ("import resource, subprocess, sys\n"
            "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)\n"
            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024)")
    done = subprocess.run([sys.executable, "-c", code, sys.executable, "-c", "import cli; cli.main()", *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    return float(done.stdout.strip())


@pytest.mark.parametrize("game, seed, engine, cap", [
    ("adaman", 83, "compiled", 50),
    ("royal-assassin", 3152, "plain", 50),
    pytest.param("adaman", 83, "compiled", 200, marks=pytest.mark.slow),
    pytest.param("adaman", 83, "plain", 50, marks=pytest.mark.slow),
    pytest.param("royal-assassin", 3152, "plain", 200, marks=pytest.mark.slow),
])
def test_max_memory_bounds_the_peak_resident_memory(game, seed, engine, cap):
    """Peak RSS of a capped solve, less that of a `usurper deal` (the process itself)."""
    baseline = _peak_rss_mb("deal", game, "--seed", str(seed))
    peak = _peak_rss_mb("solve", game, "--seed", str(seed), "--engine", engine, "--max-memory", str(cap),
                        "--time-limit", "300")
    assert peak - baseline <= cap * 1.1, (peak, baseline)


def test_a_compiled_table_holds_what_its_memory_cap_has_room_for():
    """The compiled engines cap their tables in bytes (solver.search.COMPILED_TABLE_SHARE of
    --max-memory, a growth's old and new slots together), not at an entry's worst-case cost:
    Royal Assassin's 40-byte slots, 70 % full at most, at 8 MB hold at least 0.4 of the most
    that fits (twice the 26,214 entries of 320 bytes each that the worst case allowed)."""
    game = make_game("royal-assassin", ())
    result = solve(game, game.initial_state(game.deal_from_seed(3152)), "optimal", "compiled",
                   Budget(max_memory_mb=8))
    most = 0.7 * 8 * 2**20 * solver.search.COMPILED_TABLE_SHARE / 40
    assert result.exhausted == "memory cap of 8 MB"
    assert 0.4 * most <= result.stats.unique <= most, (result.stats.unique, most)


def test_a_compiled_table_stays_within_the_memory_the_machine_has_free(monkeypatch):
    """A cap above the machine's free memory would end in the kernel's out-of-memory kill:
    the table takes no more than what is free as the search starts, and says so."""
    monkeypatch.setattr(solver.search.MemoryGuard, "available_mb", staticmethod(lambda: 8))
    game = make_game("royal-assassin", ())
    result = solve(game, game.initial_state(game.deal_from_seed(3152)), "optimal", "compiled",
                   Budget(max_memory_mb=32000))
    assert result.exhausted == "this machine's free memory of 8 MB"
    assert result.stats.unique <= 0.7 * 8 * 2**20 * solver.search.COMPILED_TABLE_SHARE / 40


@pytest.mark.parametrize("workers", [1, 2])
def test_a_catalogue_keeps_the_memory_cap_over_several_big_searches(workers, tmp_path):
    """Memory a search leaves to the allocator is reused unseen by the next search's cap,
    so one process solving these three capped seeds grew by about twice the cap: a process
    that keeps much after a seed must not start another.  (King's Reign's best-first list
    reaches any cap within seconds.)"""
    cap, out = 100, tmp_path / "kings-reign.jsonl"
    baseline = _peak_rss_mb("deal", "kings-reign", "--seed", "1333")
    peak = _peak_rss_mb("catalogue", "kings-reign", "--seeds", "1333,1433,1595", "--out", str(out),
                        "--max-memory", str(cap), "--time-limit", "300", "--workers", str(workers))
    rows = catalogue.read(out).rows
    assert sorted(rows) == [1333, 1433, 1595] and all(row["score"] is None for row in rows.values())
    assert peak - baseline <= cap * 1.5, (peak, baseline)


# ----- 9: start-up ----------------------------------------------------------------------------
def test_the_cli_imports_no_heavy_module_before_a_command_needs_it():
    code = ("import sys, cli, games.adaman\n"
            "print(' '.join(sorted(name for name in sys.modules)))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    loaded = set(done.stdout.split())
    for heavy in ("tqdm", "solver.catalogue", "usurper.app.benchmark", "importlib.metadata", "ortools", "matplotlib",
                  "distributed"):
        assert heavy not in loaded, heavy


_LINES_RUN_BY_IMPORT = """
import sys
lines = 0
def count_lines(frame, event, arg):
    global lines
    lines += event == "line"
    return count_lines
sys.settrace(lambda frame, event, arg: count_lines)
import games.adaman
sys.settrace(None)
print(lines)
"""


def test_importing_adaman_builds_no_big_table():
    """Lines of Python run by the import (standard library included), a count that a busy
    machine does not change: about 150,000.  Building the rank tables chunk by chunk, bit by
    bit, ran millions (half a second at every command's start); `bench/startup.py` times it."""
    done = subprocess.run([sys.executable, "-c", _LINES_RUN_BY_IMPORT], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert int(done.stdout) < 600_000, done.stdout


def test_the_startup_benchmark_prints_medians_and_ratios():
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "startup.py"), "--runs", "1"],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "python -c pass" in done.stdout and "ratio" in done.stdout


# ----- 10-14: words -------------------------------------------------------------------------
def test_a_hint_with_no_line_found_never_says_none():
    done = usurper("hint", "adaman", "--seed", "83", "--max-states", "1000")
    assert done.returncode == 0, done.stderr
    assert "None" not in done.stdout and "Not proven" in done.stdout


def test_pick_suggests_a_catalogue_command_with_the_variant():
    variants = "excuse,pawns_courts=all"  # no catalogue of the two together is shipped
    line = assert_one_line_error(usurper("pick", "adaman", "--variant", variants), "no shipped catalogue")
    assert "--variant excuse --variant pawns_courts=all" in line


def test_verify_reports_an_illegal_move_as_its_finding_and_hint_refuses_it():
    moves = "Painter <- Battle; Sailor <- Battle"
    done = usurper("verify", "adaman", "--seed", "5", "--moves", moves)
    assert done.returncode == 1 and done.stderr == ""
    assert done.stdout.startswith("Illegal: move 2") and "(after 1 legal move)" in done.stdout
    assert_one_line_error(usurper("hint", "adaman", "--seed", "5", "--moves", moves), "move 2")
    readme = (ROOT / "README.md").read_text()
    assert "`Illegal: ...` with exit code 1" in readme


def test_counts_of_one_are_singular(tmp_path):
    done = usurper("verify", "adaman", "--seed", "5", "--moves", "Painter <- Battle")
    assert "Legal, 1 move;" in done.stdout
    out = tmp_path / "one.jsonl"
    done = usurper("catalogue", "adaman", "--seeds", "5", "--out", str(out), "--workers", "1", "--mode", "winnable",
                   "--time-limit", "5")
    assert done.returncode == 0, done.stderr
    assert ": 1 seed of adaman" in done.stdout
    done = usurper("bench", "adaman", "--seeds", "5", "--mode", "winnable", "--time-limit", "5")
    assert "1 deal," in done.stdout and "1 deals" not in done.stdout
    assert Budget(max_table=1).table_cap(100)[1:] == (Limit.TABLE, "transposition table cap of 1 entry")
    result = solve(make_game("adaman"), make_game("adaman").initial_state(make_game("adaman").deal_from_seed(6)),
                   "optimal", "pruned", Budget(max_states=1))
    assert result.exhausted == "state budget of 1 state"


def test_bare_usurper_prints_help_and_version_is_there():
    for args in ([], ["catalogue"]):
        done = usurper(*args)
        assert done.returncode == 0 and done.stderr == "" and done.stdout.startswith("Usage:")
    done = usurper("--version")
    assert done.returncode == 0 and done.stdout.startswith("usurper ")


# ----- 15: repeated variants, foreign headers, repeated rows -------------------------------
@pytest.mark.parametrize("game, words", [
    ("royal-assassin", ["fixed_royals=4", "fixed_royals=5"]),
    ("royal-assassin", ["fixed_royals=4", "fixed_royals=4"]),
    ("royal-assassin", ["two_jokers", "two_jokers"]),
    ("adaman", ["excuse", "excuse"]),
    ("adaman", ["pawns_courts=all", "pawns_courts=none"]),
])
def test_a_repeated_variant_is_refused(game, words):
    with pytest.raises(VariantError, match="more than once"):
        make_game(game, words)
    assert_one_line_error(usurper("deal", game, "--seed", "1", "--variant", ",".join(words)), "more than once")


def test_stats_refuses_a_catalogue_of_an_unknown_game(tmp_path):
    book = small_catalogue(tmp_path / "c.jsonl", game="chess")
    assert_one_line_error(usurper("catalogue", "stats", str(book)), "unknown game 'chess'")


def test_a_repeated_seed_row_is_refused_naming_both_lines(tmp_path):
    row = {"seed": 1, "outcome": "WON", "score": None, "best": 70, "states": 1, "seconds": 0.1,
           "first_move": None, "engine": "x"}
    book = small_catalogue(tmp_path / "c.jsonl", rows=[row, {**row, "seed": 2}, {**row, "outcome": "LOST"}])
    with pytest.raises(UsurperError, match="line 4 repeats seed 1 of line 2"):
        catalogue.read(book)
    assert_one_line_error(usurper("catalogue", "stats", str(book)), "repeats seed 1")


# ----- 16: Adaman deal separators -------------------------------------------------------------
def test_adaman_deals_read_commas_semicolons_and_newlines():
    game = make_game("adaman")
    deal = game.deal_from_seed(5)
    names = [card.name for card in deal]
    for separator in (", ", "; ", "\n", ";\n", " ,"):
        assert game.parse_deal(separator.join(names)) == deal
    with pytest.raises(UsurperError, match="separate cards with commas"):
        game.parse_deal(" ".join(names))
