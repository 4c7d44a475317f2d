"""Catalogues (solver/catalogue.py, `usurper catalogue`, `usurper pick`): rows equal to solving
each seed directly, the same rows from a process pool, in this process and on a Dask cluster,
resume after a clean stop, a cut-short line or a real kill -9, ERROR rows, and the figures.

Budgets are state counts, never time, so that every row is deterministic and comparable.
"""

from __future__ import annotations

import contextlib
import fcntl
import gzip
import json
import os
import random
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from catalogue_helpers import ctrl_c_as_in_a_terminal, die_on_seed_3, raise_on_seed_3

from games import make_game
from games.base import UsurperError
from games.royal_assassin import RoyalAssassin
from solver import catalogue
from solver.search import Budget, solve
from solver.stats import wilson_interval
from solver.verify import check_claim

ROOT = Path(__file__).resolve().parent.parent.parent
ADAMAN = catalogue.make_job(make_game, "adaman", engine="compiled", time_limit=None, max_states=30_000)
#: Without a memory cap: solved in this process at --workers 1, so that a test's own
#: solve_one may be a closure (a capped run solves in worker processes).
ROYAL = catalogue.make_job(make_game, "royal-assassin", time_limit=None, max_states=3_000, max_memory_mb=None)
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def without_seconds(rows: dict) -> dict:
    """Rows as comparable facts: everything but the wall-clock time."""
    return {seed: {name: value for name, value in row.items() if name != "seconds"} for seed, row in rows.items()}


def file_seeds(path: Path) -> list[int]:
    """The seeds of the rows in file order, checking every line is whole JSON."""
    data = path.read_bytes()
    assert data.endswith(b"\n")
    lines = data.decode().splitlines()
    assert json.loads(lines[0])["format"] == catalogue.FORMAT
    return [json.loads(line)["seed"] for line in lines[1:]]


def usurper(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", "import cli; cli.main()", *args],
                          check=False, capture_output=True, text=True, cwd=ROOT, timeout=timeout)


def one_line_error(done: subprocess.CompletedProcess, problem: str) -> None:
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2, done.stderr
    assert len(lines) == 1 and lines[0].startswith("usurper: error:") and problem in lines[0], done.stderr


# ----- rows -----------------------------------------------------------------------------

def test_rows_are_what_solving_each_seed_directly_gives(tmp_path):
    path = tmp_path / "adaman.jsonl"
    catalogue.run(path, ADAMAN, range(6), workers=1)
    rows = catalogue.read(path).rows
    game = make_game("adaman")
    for seed in range(6):
        state = game.initial_state(game.deal_from_seed(seed))
        result = solve(game, state, "optimal", "compiled", Budget(max_states=30_000))
        if result.line_score is not None:
            check_claim(game, state, result.line, result.verdict == "WON", result.line_score)
        row = rows[seed]
        assert (row["outcome"], row["score"], row["best"], row["states"]) == (
            result.verdict, result.score, result.line_score, result.stats.states)
        assert row["first_move"] == (game.format_move(state, result.line[0]) if result.line else None)
        assert row["engine"] == f"compiled {catalogue.ENGINE_VERSION}" and "error" not in row
        assert row.get("stopped") == (result.exhausted or None)
    assert {row.get("stopped") for row in rows.values()} == {None, "state budget of 30000 states"}


def test_stats_count_the_unfinished_searches_by_the_limit_that_stopped_them(tmp_path):
    path = tmp_path / "adaman.jsonl"
    catalogue.run(path, ADAMAN, range(6), workers=1)
    rows = catalogue.read(path).rows
    stopped = sum("stopped" in row for row in rows.values())
    summary = catalogue.summarise(catalogue.read(path))
    assert summary["stopped"] == {"states": stopped} and stopped == sum(row["score"] is None for row in rows.values())
    text = "\n".join(catalogue.format_summary(summary))
    assert f"stopped       {stopped} by the state budget (the searches left unfinished whose rows say why)" in text


def test_the_header_names_the_question_with_variants_in_canonical_order(tmp_path):
    path = tmp_path / "ra.jsonl"
    job = catalogue.make_job(make_game, "royal_assassin", ["joker_dies,two_jokers"], max_states=1000)
    catalogue.run(path, job, range(2), workers=1)
    header = catalogue.read(path).header
    assert (header["game"], header["variants"], header["mode"], header["engine"]) == (
        "royal-assassin", ["two_jokers", "joker_dies"], "optimal", "auto")
    assert (header["time_limit"], header["max_states"], header["version"]) == (60.0, 1000, catalogue.FORMAT_VERSION)


def test_process_pool_rows_equal_in_process_rows_and_end_in_seed_order(tmp_path):
    alone, pooled = tmp_path / "alone.jsonl", tmp_path / "pooled.jsonl"
    catalogue.run(alone, ADAMAN, range(8), workers=1)
    report = catalogue.run(pooled, ADAMAN, range(8), workers=2)
    assert report.added == 8
    assert without_seconds(catalogue.read(pooled).rows) == without_seconds(catalogue.read(alone).rows)
    assert file_seeds(pooled) == list(range(8))


def test_dask_cluster_rows_equal_process_pool_rows(tmp_path):
    distributed = pytest.importorskip("distributed")
    pooled, clustered = tmp_path / "pooled.jsonl", tmp_path / "clustered.jsonl"
    catalogue.run(pooled, ADAMAN, range(8), workers=2)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        report = catalogue.run(clustered, ADAMAN, range(8), scheduler=cluster.scheduler_address)
        assert report.added == 8
        again = catalogue.run(clustered, ADAMAN, range(10), scheduler=cluster.scheduler_address)
        assert (again.already, again.added) == (8, 2)
    rows = catalogue.read(clustered).rows
    assert without_seconds({seed: rows[seed] for seed in range(8)}) == without_seconds(catalogue.read(pooled).rows)
    assert file_seeds(clustered) == list(range(10))


def test_an_unreachable_scheduler_is_one_error_and_no_file(tmp_path, monkeypatch):
    monkeypatch.setattr(catalogue.work, "SCHEDULER_TIMEOUT", 1.0)
    path = tmp_path / "never.jsonl"
    with pytest.raises(UsurperError, match="cannot reach the Dask scheduler at tcp://127.0.0.1:1"):
        catalogue.run(path, ROYAL, range(3), scheduler="tcp://127.0.0.1:1")
    assert not path.exists()


# ----- resume ---------------------------------------------------------------------------

def test_resume_solves_only_the_seeds_not_yet_in_the_file(tmp_path):
    path = tmp_path / "ra.jsonl"
    catalogue.run(path, ROYAL, range(5), workers=1)
    solved = []

    def counting(job, seed):
        solved.append(seed)
        return catalogue.solve_seed(job, seed)

    report = catalogue.run(path, ROYAL, range(10), workers=1, solve_one=counting)
    assert solved == [5, 6, 7, 8, 9] and (report.already, report.added) == (5, 5)
    before = path.read_bytes()
    again = catalogue.run(path, ROYAL, range(10), workers=1, solve_one=counting)
    assert solved == [5, 6, 7, 8, 9] and again.added == 0
    assert path.read_bytes() == before


def test_a_line_cut_short_is_dropped_and_its_seed_solved_again(tmp_path):
    path = tmp_path / "ra.jsonl"
    catalogue.run(path, ROYAL, range(5), workers=1)
    whole = json.dumps(catalogue.solve_seed(ROYAL, 5)) + "\n"
    with path.open("a") as handle:  # what a kill -9 in the middle of a write leaves
        handle.write(whole[: len(whole) // 2])
    assert sorted(catalogue.read(path).rows) == list(range(5))  # readers ignore it
    catalogue.run(path, ROYAL, range(7), workers=1)
    assert file_seeds(path) == list(range(7))
    assert without_seconds({5: catalogue.read(path).rows[5]}) == without_seconds({5: json.loads(whole)})


def test_a_gz_catalogue_is_written_whole_and_read_transparently(tmp_path):
    plain, packed = tmp_path / "ra.jsonl", tmp_path / "ra.jsonl.gz"
    catalogue.run(plain, ROYAL, range(6), workers=1)
    catalogue.run(packed, ROYAL, range(6), workers=1)
    assert packed.read_bytes()[:2] == b"\x1f\x8b" and not (tmp_path / "ra.jsonl.gz.part").exists()
    assert without_seconds(catalogue.read(packed).rows) == without_seconds(catalogue.read(plain).rows)
    assert catalogue.store.read_header(packed) == catalogue.read(plain).header
    before = packed.read_bytes()
    again = catalogue.run(packed, ROYAL, range(6), workers=1)  # nothing left: nothing rewritten
    assert again.added == 0 and packed.read_bytes() == before and not (tmp_path / "ra.jsonl.gz.part").exists()


def test_an_interrupted_gz_run_resumes_from_its_part_file_and_extends_a_finished_one(tmp_path):
    packed, part = tmp_path / "ra.jsonl.gz", tmp_path / "ra.jsonl.gz.part"

    def stop_at_3(job, seed):
        if seed == 3:
            raise KeyboardInterrupt
        return catalogue.solve_seed(job, seed)

    with pytest.raises(catalogue.Interrupted):
        catalogue.run(packed, ROYAL, range(6), workers=1, solve_one=stop_at_3)
    assert not packed.exists() and file_seeds(part) == [0, 1, 2]
    solved = []

    def counting(job, seed):
        solved.append(seed)
        return catalogue.solve_seed(job, seed)

    catalogue.run(packed, ROYAL, range(6), workers=1, solve_one=counting)
    assert solved == [3, 4, 5] and not part.exists() and sorted(catalogue.read(packed).rows) == list(range(6))
    catalogue.run(packed, ROYAL, range(9), workers=1, solve_one=counting)  # a finished .gz, extended
    assert solved == [3, 4, 5, 6, 7, 8] and not part.exists()
    assert sorted(catalogue.read(packed).rows) == list(range(9))


def test_a_damaged_gz_catalogue_is_one_line_naming_it(tmp_path):
    packed = tmp_path / "ra.jsonl.gz"
    catalogue.run(packed, ROYAL, range(3), workers=1)
    packed.write_bytes(packed.read_bytes()[:-12])
    with pytest.raises(UsurperError, match="damaged gzip"):
        catalogue.read(packed)
    one_line_error(usurper("catalogue", "stats", str(packed)), "damaged gzip")


def test_a_header_cut_short_is_started_again(tmp_path):
    path = tmp_path / "ra.jsonl"
    path.write_text(json.dumps(ROYAL.header())[:20])
    catalogue.run(path, ROYAL, range(2), workers=1)
    assert file_seeds(path) == [0, 1]


def test_kill_9_mid_run_then_the_same_command_leaves_every_seed_exactly_once(tmp_path):
    path = tmp_path / "adaman.jsonl"
    command = [sys.executable, "-c", "import cli; cli.main()", "catalogue", "adaman", "--seeds", "0-29",
               "--out", str(path), "--max-states", "150000", "--workers", "2"]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True)
    deadline = time.monotonic() + 60
    while process.poll() is None and time.monotonic() < deadline:
        if path.exists() and path.read_bytes().count(b"\n") >= 4:  # the header and three rows
            break
        time.sleep(0.005)
    os.killpg(process.pid, signal.SIGKILL)  # the whole group: the parent and its workers
    assert process.wait(timeout=10) == -signal.SIGKILL, "the run finished before it could be killed"
    survivors = catalogue.read(path).rows
    assert 3 <= len(survivors) < 30
    done = subprocess.run(command, check=False, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert f"{30 - len(survivors)} solved now, {len(survivors)} already there" in done.stdout
    assert file_seeds(path) == list(range(30))
    rows = catalogue.read(path).rows
    assert all(rows[seed] == row for seed, row in survivors.items())


def run_until_two_rows(path, **popen):
    """A catalogue run of 300 seeds in a session of its own, once two rows are written: far
    more seeds than can finish between the second row and a signal, however loaded the
    machine (with 30, a slow poll could miss the whole run)."""
    command = [sys.executable, "-c", "import cli; cli.main()", "catalogue", "adaman", "--seeds", "0-299",
               "--out", str(path), "--max-states", "150000", "--workers", "2"]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True, **popen)
    deadline = time.monotonic() + 60
    while process.poll() is None and time.monotonic() < deadline:
        if path.exists() and path.read_bytes().count(b"\n") >= 3:  # the header and two rows
            break
        time.sleep(0.005)
    return process


def test_ctrl_c_stops_cleanly_keeping_the_rows_written(tmp_path):
    path = tmp_path / "adaman.jsonl"
    process = run_until_two_rows(path, preexec_fn=ctrl_c_as_in_a_terminal)
    os.killpg(process.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the whole foreground group
    _, stderr = process.communicate(timeout=30)
    assert process.returncode == 130, stderr
    assert stderr.strip().splitlines()[-1].startswith("usurper: interrupted; ")
    assert stderr.strip().endswith("seeds done, re-run the same command to resume")
    assert "Traceback" not in stderr
    seeds = file_seeds(path)
    assert len(seeds) == len(set(seeds)) and 2 <= len(seeds) < 300


def processes_marked(mark: str) -> list[int]:
    """The processes whose environment holds `mark` (the run's, its fork server's, its workers')."""
    found = []
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            with contextlib.suppress(OSError):  # gone meanwhile, or not ours to read
                if mark.encode() in (proc / "environ").read_bytes():
                    found.append(int(proc.name))
    return found


def test_sigterm_to_the_run_alone_stops_its_workers_too_keeping_the_rows_written(tmp_path):
    """`kill PID` reaches the parent only: its workers, children of the fork server, must not
    go on solving without it."""
    path = tmp_path / "adaman.jsonl"
    token = uuid.uuid4().hex
    mark = f"USURPER_TEST_RUN={token}"
    process = run_until_two_rows(path, env=dict(os.environ, USURPER_TEST_RUN=token))
    process.send_signal(signal.SIGTERM)
    try:
        _, stderr = process.communicate(timeout=60)  # a worker left running keeps the pipes open
        deadline = time.monotonic() + 60  # the fork server notices its parent is gone
        while processes_marked(mark) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not processes_marked(mark), "worker processes outlived the run"
    finally:
        for pid in processes_marked(mark):
            os.kill(pid, signal.SIGKILL)
    assert stderr.strip().splitlines()[-1].startswith("usurper: interrupted; "), stderr
    assert "Traceback" not in stderr
    seeds = file_seeds(path)
    assert len(seeds) == len(set(seeds)) and 2 <= len(seeds) < 300


def test_interrupting_a_run_raises_interrupted_with_the_seeds_done(tmp_path):
    path = tmp_path / "ra.jsonl"

    def stop_at_3(job, seed):
        if seed == 3:
            raise KeyboardInterrupt
        return catalogue.solve_seed(job, seed)

    with pytest.raises(catalogue.Interrupted, match="interrupted; 3 of 6 seeds done"):
        catalogue.run(path, ROYAL, range(6), workers=1, solve_one=stop_at_3)
    assert file_seeds(path) == [0, 1, 2]


def test_a_run_with_other_parameters_is_refused_naming_the_difference(tmp_path):
    path = tmp_path / "ra.jsonl"
    catalogue.run(path, ROYAL, range(2), workers=1)
    before = path.read_bytes()
    other = catalogue.make_job(make_game, "royal-assassin", time_limit=None, max_states=4_000, max_memory_mb=None)
    with pytest.raises(UsurperError, match=r"holds max_states=3000, but this run asks max_states=4000"):
        catalogue.run(path, other, range(4), workers=1)
    with pytest.raises(UsurperError, match=r"game=royal-assassin.*game=adaman"):
        catalogue.run(path, ADAMAN, range(4), workers=1)
    assert path.read_bytes() == before


def test_a_second_run_on_the_same_file_at_once_is_refused(tmp_path):
    path = tmp_path / "ra.jsonl"
    catalogue.run(path, ROYAL, range(2), workers=1)
    with path.open("rb") as held:
        fcntl.flock(held.fileno(), fcntl.LOCK_EX)
        with pytest.raises(UsurperError, match="being written by another"):
            catalogue.run(path, ROYAL, range(4), workers=1)
    assert file_seeds(path) == [0, 1]


@pytest.mark.parametrize("content, problem", [
    ("hello\n", "line 1 is not JSON"),
    ('{"a": 1}\n', "line 1 is not its header"),
    ("not a catalogue at all", "no header line"),
])
def test_a_file_that_is_not_a_catalogue_is_refused_and_left_alone(tmp_path, content, problem):
    path = tmp_path / "other.txt"
    path.write_text(content)
    with pytest.raises(UsurperError, match=problem):
        catalogue.run(path, ROYAL, range(2), workers=1)
    with pytest.raises(UsurperError, match=problem):
        catalogue.read(path)
    assert path.read_text() == content


def test_a_malformed_row_in_the_middle_is_an_error_naming_its_line(tmp_path):
    path = tmp_path / "ra.jsonl"
    catalogue.run(path, ROYAL, range(3), workers=1)
    lines = path.read_text().splitlines(keepends=True)
    path.write_text(lines[0] + lines[1] + '{"seed": "x"}\n' + lines[3])
    with pytest.raises(UsurperError, match="line 3 is not a catalogue row"):
        catalogue.read(path)


# ----- errors ---------------------------------------------------------------------------

class FailsOnSeed3(RoyalAssassin):
    """Royal Assassin whose deal of seed 3 cannot be made: an honest failure inside a seed."""

    name = "stub-fails-on-3"

    def deal_from_seed(self, seed: int) -> tuple:
        if seed == 3:
            raise ValueError("no deal for seed 3")
        return super().deal_from_seed(seed)


def build_fails_on_seed_3(name: str, variants) -> FailsOnSeed3:
    return FailsOnSeed3()


def test_a_seed_that_raises_is_an_error_row_and_the_run_goes_on(tmp_path):
    job = catalogue.make_job(build_fails_on_seed_3, FailsOnSeed3.name, time_limit=None, max_states=3_000)
    path = tmp_path / "stub.jsonl"
    report = catalogue.run(path, job, range(6), workers=1)
    rows = catalogue.read(path).rows
    assert rows[3]["outcome"] == "ERROR" and rows[3]["error"] == "ValueError: no deal for seed 3"
    assert (rows[3]["score"], rows[3]["best"], rows[3]["first_move"]) == (None, None, None)
    assert report.outcomes["ERROR"] == 1 and all(rows[seed]["outcome"] != "ERROR" for seed in (0, 1, 2, 4, 5))
    assert catalogue.run(path, job, range(6), workers=1).added == 0  # an ERROR row is an answer: not retried


def test_a_seed_that_raises_in_a_worker_is_an_error_row(tmp_path):
    path = tmp_path / "ra.jsonl"
    catalogue.run(path, ROYAL, range(6), workers=2, solve_one=raise_on_seed_3)
    rows = catalogue.read(path).rows
    assert rows[3]["outcome"] == "ERROR" and "the test's seed 3 fails" in rows[3]["error"]
    assert sorted(rows) == list(range(6))


def test_a_seed_that_kills_its_worker_is_an_error_row_and_the_pool_goes_on(tmp_path):
    alone, pooled = tmp_path / "alone.jsonl", tmp_path / "pooled.jsonl"
    catalogue.run(alone, ROYAL, range(8), workers=1)
    catalogue.run(pooled, ROYAL, range(8), workers=2, solve_one=die_on_seed_3)
    rows = catalogue.read(pooled).rows
    assert rows[3]["outcome"] == "ERROR" and "worker process died" in rows[3]["error"]
    del rows[3]
    expected = catalogue.read(alone).rows
    del expected[3]
    assert without_seconds(rows) == without_seconds(expected)


# ----- figures, plot, pick ----------------------------------------------------------------

def hand_made(path: Path) -> Path:
    """Ten seeds: six won (one score unproven), two lost (one unproven), two undecided."""
    facts = [("WON", 70, 70), ("WON", 70, 70), ("WON", 80, 80), ("WON", 90, 90), ("WON", None, 85),
             ("WON", 95, 95), ("LOST", 30, 30), ("LOST", None, 40), ("UNDECIDED", None, 60),
             ("UNDECIDED", None, None)]
    job = catalogue.Job("adaman", make_game)
    lines = [json.dumps(job.header())]
    for seed, (outcome, score, best) in enumerate(facts):
        lines.append(json.dumps({"seed": seed, "outcome": outcome, "score": score, "best": best,
                                 "states": 10 * (seed + 1), "seconds": round(0.1 * (seed + 1), 1),
                                 "first_move": None, "engine": "compiled test"}))
    path.write_text("\n".join(lines) + "\n")
    return path


def test_figures_count_undecided_as_lost_for_the_low_end_and_won_for_the_high(tmp_path):
    summary = catalogue.summarise(catalogue.read(hand_made(tmp_path / "hand.jsonl")))
    assert summary["outcomes"] == {"WON": 6, "LOST": 2, "UNDECIDED": 2, "ERROR": 0}
    low, high = summary["wilson_95"]
    assert (low, high) == (wilson_interval(6, 10)[0], wilson_interval(8, 10)[1])
    assert round(low, 4) == 0.3127 and round(high, 4) == 0.9433
    assert summary["win_rate"] == 0.6 and summary["win_rate_of_decided"] == 0.75
    assert summary["scores"] == {"30": 1, "70": 2, "80": 1, "90": 1, "95": 1} and summary["proven_scores"] == 6
    assert (summary["score_median"], summary["score_mode"]) == (75, 70)  # of 30 70 70 80 90 95
    assert summary["seconds"] == pytest.approx({"median": 0.55, "p90": 0.91, "p99": 0.991, "max": 1.0})
    assert summary["states"]["median"] == 55 and summary["states"]["max"] == 100
    assert summary["seconds_total"] == pytest.approx(5.5)
    text = "\n".join(catalogue.format_summary(summary))
    assert "Wilson 95 % [31.3, 94.3] %" in text and "6 WON, 2 LOST, 2 UNDECIDED, 0 ERROR" in text
    assert "6 proven: median 75, mode 70" in text


def test_the_median_optimum_of_every_seed_is_bracketed_while_some_are_unproven(tmp_path):
    book = catalogue.read(hand_made(tmp_path / "hand.jsonl"))
    # low: the unproven at their best lines 85, 40, 60 and below every score (no line):
    # -inf 30 40 60 70 | 70 80 85 90 95; high: the four unbounded: 30 70 70 80 90 | 95 and above
    assert catalogue.summarise(book)["optimum_median"] == [70, 92.5]
    text = "\n".join(catalogue.format_summary(catalogue.summarise(book)))
    assert "median optimum of all 10 seeds within [70, 92.5] (the 4 unproven" in text
    assert catalogue.summarise(book)["optimum_median_deciders"] == [4, 7, 8, 9]  # unbounded: every one
    assert "the unproven seeds that can still move it (4): 4, 7, 8, 9" in text
    other = catalogue.read(hand_made(tmp_path / "other.jsonl"))
    other.rows[8]["bound"], other.rows[9]["best"] = 70, 93
    # low: 30 40 60 70 70 | 80 85 90 93 95, high: 30 70 70 70 80 | 90 95 and above: [75, 85];
    # 4's line reaches the high end, 8's bound stays below the low end, 9 is above both
    assert catalogue.summarise(other)["optimum_median"] == [75, 85]
    assert catalogue.summarise(other)["optimum_median_deciders"] == [7]
    for seed, bound in ((4, 88), (7, 45), (8, 65), (9, 50)):
        book.rows[seed]["bound"] = bound  # proven bounds (King's Reign's rows carry them)
    # high: 30 45 50 65 70 | 70 80 88 90 95
    assert catalogue.summarise(book)["optimum_median"] == [70, 70]
    assert catalogue.summarise(book)["optimum_median_deciders"] == []  # settled
    assert "median optimum of all 10 seeds is 70, whatever the 4 unproven prove" in "\n".join(
        catalogue.format_summary(catalogue.summarise(book)))
    for row in book.rows.values():
        row.pop("bound", None)
        if row["score"] is None:
            row["best"] = None
    for seed in (0, 1):
        book.rows[seed]["score"] = None
    # six unproven, four without a line, none bounded: low -inf x4 30 | 70 70 80 90 95, high unknown
    assert catalogue.summarise(book)["optimum_median"] == [50, None]
    assert "median optimum of all 10 seeds at least 50 (the 6 unproven" in "\n".join(
        catalogue.format_summary(catalogue.summarise(book)))


def test_an_odd_count_takes_its_middle_value_beside_an_unbounded_seed():
    rows = [{"score": 1}, {"score": 2}, {"score": None, "best": 0}]
    assert catalogue.summary.optimum_median_range(rows) == [1, 2]  # 0 1 2 and 1 2 above every score
    rows = [{"score": 5}, {"score": None, "best": 3}, {"score": None, "best": None}]
    assert catalogue.summary.optimum_median_range(rows) == [3, None]


def test_every_optimum_proven_or_none_gives_no_bracket(tmp_path):
    book = catalogue.read(hand_made(tmp_path / "hand.jsonl"))
    for row in book.rows.values():
        row["score"] = row["score"] if row["score"] is not None else row["best"] or 0
    assert catalogue.summarise(book)["optimum_median"] is None
    for row in book.rows.values():
        row["score"] = None
    assert catalogue.summarise(book)["optimum_median"] is None


def test_the_running_win_rate_ends_at_the_summary_figures_and_counts_each_seed_once(tmp_path):
    book = catalogue.read(hand_made(tmp_path / "hand.jsonl"))
    curve = catalogue.summary.running_win_rate(book, points=4)
    assert [point[0] for point in curve] == sorted({point[0] for point in curve}) and curve[-1][0] == 10
    first = curve[0]
    assert first[0] == 1 and first[1] == 1.0  # seed 0 is won
    summary = catalogue.summarise(book)
    assert curve[-1][1:] == (summary["win_rate"], *summary["wilson_95"])


def test_stats_command_prints_figures_and_plot_writes_a_whole_png(tmp_path):
    path = hand_made(tmp_path / "hand.jsonl")
    plot = tmp_path / "plots" / "hand.png"
    plot.parent.mkdir()
    done = usurper("catalogue", "stats", str(path), "--plot", str(plot))
    assert done.returncode == 0, done.stderr
    assert "win rate      60.0 % of all seeds (75.0 % of the 8 decided)" in done.stdout
    assert plot.read_bytes().startswith(PNG_SIGNATURE)
    assert sorted(item.name for item in plot.parent.iterdir()) == ["hand.png"]  # no temporary file left
    report = json.loads(usurper("catalogue", "stats", str(path), "--json").stdout)
    assert report["outcomes"]["WON"] == 6


@pytest.mark.parametrize(("low", "high", "limits"), [
    (85, 85, (79.5, 90.5)),    # one score: a bar amid an axis of SCORE_AXIS_SPAN points
    (0, 12, (-0.5, 12.5)),     # wide enough already: the scores' own range
    (2, 4, (-0.5, 10.5)),      # widened, but not below a score of 0
    (-3, -3, (-8.5, 2.5)),     # negative scores widen evenly
])
def test_the_score_axis_spans_at_least_a_few_points_and_never_goes_below_zero_needlessly(low, high, limits):
    assert catalogue.summary.SCORE_AXIS_SPAN == 10  # the span the cases below are worked for
    assert catalogue.summary._score_axis_limits(low, high) == limits


def test_pick_keeps_to_the_filters_and_chooses_among_all_that_match(tmp_path):
    book = catalogue.read(hand_made(tmp_path / "hand.jsonl"))

    def picks(**filters) -> set:
        return {catalogue.pick_row(book, rng=random.Random(number), **filters)[0]["seed"] for number in range(200)}

    assert picks(winnable=True) == {0, 1, 2, 3, 4, 5}
    assert picks(min_score=85) == {3, 4, 5}  # seed 4: its best line reaches 85, the optimum unproven
    assert picks(min_score=50) == {0, 1, 2, 3, 4, 5, 8}  # undecided seed 8 has a verified line of 60
    assert picks(winnable=True, min_score=91) == {5}
    assert catalogue.pick_row(book, winnable=True, rng=random.Random(1))[1] == 6
    with pytest.raises(UsurperError, match=r"matches \(won and score >= 96\)"):
        catalogue.pick_row(book, winnable=True, min_score=96)


def test_pick_command_prints_the_seed_and_how_to_play_it(tmp_path):
    path = hand_made(tmp_path / "hand.jsonl")
    done = usurper("pick", "adaman", "--catalogue", str(path), "--winnable", "--min-score", "91")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Seed 5 of adaman (standard)") and "usurper deal adaman --seed 5" in done.stdout
    chosen = json.loads(usurper("pick", "adaman", "--catalogue", str(path), "--random-seed", "3", "--json").stdout)
    again = json.loads(usurper("pick", "adaman", "--catalogue", str(path), "--random-seed", "3", "--json").stdout)
    assert chosen["seed"] == again["seed"]


# ----- the command ----------------------------------------------------------------------

def test_catalogue_command_writes_rows_and_reports(tmp_path):
    path = tmp_path / "out" / "ra.jsonl"
    path.parent.mkdir()
    done = usurper("catalogue", "royal-assassin", "--seeds", "0-9", "--out", str(path), "--max-states", "3000",
                   "--workers", "1")
    assert done.returncode == 0, done.stderr
    assert "10 solved now, 0 already there" in done.stdout
    assert file_seeds(path) == list(range(10))
    again = usurper("catalogue", "run", "royal-assassin", "--seeds", "0-11", "--out", str(path), "--max-states",
                    "3000", "--workers", "1")
    assert "2 solved now, 10 already there" in again.stdout


@pytest.mark.parametrize("args, problem", [
    (["adaman", "--seeds", "9-1"], "bad seed range '9-1'"),
    (["adaman", "--seeds", "0-9", "--variant", "nonsense"], "unknown adaman variant"),
    (["chess", "--seeds", "0-9"], "unknown game 'chess'"),
    (["royal-assassin", "--seeds", "0-9", "--engine", "compiled", "--variant", "redeal"], "redeal"),
    (["adaman", "--seeds", "0-9", "--workers", "2", "--scheduler", "tcp://127.0.0.1:1"], "not both"),
    (["adaman", "--seeds", "0-9", "--workers", "0"], "--workers"),
])
def test_bad_catalogue_options_are_one_line_exit_2_and_no_file(tmp_path, args, problem):
    path = tmp_path / "never.jsonl"
    one_line_error(usurper("catalogue", *args, "--out", str(path)), problem)
    assert not path.exists()


def test_unreadable_catalogues_are_one_line_and_exit_2(tmp_path):
    one_line_error(usurper("catalogue", "stats", str(tmp_path / "missing.jsonl")), "cannot read catalogue")
    (tmp_path / "notes.txt").write_text("just notes\n")
    one_line_error(usurper("catalogue", "stats", str(tmp_path / "notes.txt")), "is not a usurper catalogue")
    one_line_error(usurper("pick", "adaman", "--catalogue", str(tmp_path / "notes.txt")), "is not a usurper catalogue")
    path = hand_made(tmp_path / "hand.jsonl")
    one_line_error(usurper("pick", "royal-assassin", "--catalogue", str(path)), "is a catalogue of adaman")
    one_line_error(usurper("pick", "adaman", "--catalogue", str(path), "--min-score", "200"), "no seed in")
    one_line_error(usurper("catalogue", "adaman", "--seeds", "0-3", "--out", str(path), "--time-limit", "5"),
                   "holds time_limit=60, but this run asks time_limit=5")


def test_a_verdict_search_settles_what_a_short_optimal_search_left_open(tmp_path):
    """Seed 203 has no win (about 14,000 states prove it); an optimal search stopped at its
    first budget check (4,096 states) cannot know that, and the winnability search of
    --verdict-limit can: the row says LOST, with the best line replayed and no optimum."""
    game = make_game("adaman")
    proof = solve(game, game.initial_state(game.deal_from_seed(203)), "winnable", "compiled")
    assert proof.verdict == "LOST" and proof.stats.states > 4_096
    short = catalogue.make_job(make_game, "adaman", engine="compiled", time_limit=1e-9)
    settled = catalogue.make_job(make_game, "adaman", engine="compiled", time_limit=1e-9, verdict_limit=60)
    assert catalogue.solve_seed(short, 203)["outcome"] == "UNDECIDED"
    row = catalogue.solve_seed(settled, 203)
    assert (row["outcome"], row["score"]) == ("LOST", None) and row["states"] > proof.stats.states
    with pytest.raises(UsurperError, match="verdict-limit"):
        catalogue.make_job(make_game, "adaman", mode="winnable", verdict_limit=5)


def test_a_resumed_run_must_keep_its_verdict_limit(tmp_path):
    path = tmp_path / "c.jsonl"
    with_limit = catalogue.make_job(make_game, "royal-assassin", time_limit=None, max_states=3_000, verdict_limit=1.0)
    catalogue.run(path, with_limit, range(2), workers=1)
    with pytest.raises(UsurperError, match="verdict_limit"):
        catalogue.run(path, ROYAL, range(3), workers=1)


def test_a_floor_on_the_optimum_keeps_the_optima_above_it_and_bounds_the_rest(tmp_path):
    """--at-least 80 over Adaman seeds 19-21 (optima 87, a loss of 61, 76): 19's optimum,
    and for the others a proven bound below 80 in the row; a resumed run asks the same."""
    path = tmp_path / "c.jsonl"
    job = catalogue.make_job(make_game, "adaman", time_limit=60.0, at_least=80)
    catalogue.run(path, job, range(19, 22), workers=1)
    book = catalogue.read(path)
    assert book.header["at_least"] == 80
    answers = {seed: (row["outcome"], row["score"], row.get("bound")) for seed, row in book.rows.items()}
    assert answers[19] == ("WON", 87, None)
    assert answers[20][:2] == ("LOST", None) and 61 <= answers[20][2] < 80
    assert answers[21][:2] == ("WON", None) and 76 <= answers[21][2] < 80
    with pytest.raises(UsurperError, match="at_least=80, but this run asks at_least=0"):
        catalogue.run(path, catalogue.make_job(make_game, "adaman", time_limit=60.0), range(19, 23), workers=1)
    for wrong, words in ((dict(mode="winnable"), "winnable"), (dict(at_least=-1), "0 or more")):
        with pytest.raises(UsurperError, match=words):
            catalogue.make_job(make_game, "adaman", **{"at_least": 80, **wrong})
    with pytest.raises(UsurperError, match="tree search"):
        catalogue.make_job(make_game, "kings-reign", at_least=80)


def test_the_undecided_seeds_print_as_a_seeds_list_that_reads_back(tmp_path):
    path = tmp_path / "c.jsonl"
    header = catalogue.make_job(make_game, "royal-assassin", time_limit=None, max_states=3_000).header()
    outcomes = {0: "WON", 1: "UNDECIDED", 2: "ERROR", 3: "UNDECIDED", 5: "LOST", 7: "UNDECIDED"}
    rows = [{"seed": seed, "outcome": outcome, "score": None, "best": None, "states": 1, "seconds": 0.1,
             "first_move": None, "engine": "x"} for seed, outcome in outcomes.items()]
    path.write_text("".join(json.dumps(line) + "\n" for line in [header, *rows]))
    done = usurper("catalogue", "stats", str(path), "--undecided")
    assert done.returncode == 0 and done.stdout.strip() == "1-3,7"
    rows[0]["score"] = 10  # a proven optimum; seed 5 is lost with its optimum unproven
    path.write_text("".join(json.dumps(line) + "\n" for line in [header, *rows]))
    assert usurper("catalogue", "stats", str(path), "--unproven").stdout.strip() == "1-3,5,7"
    from usurper.app.benchmark import parse_seed_range
    assert parse_seed_range("1-3,7") == [1, 2, 3, 7] and parse_seed_range("4") == [4]
    assert parse_seed_range("9-10, 2,9") == [2, 9, 10]
    with pytest.raises(UsurperError, match="bad seed range"):
        parse_seed_range("3,x")


# ----- a game's whole catalogue: the main file and the files that answered it again -------------

def test_a_later_file_answers_the_undecided_seeds_of_the_main_one(tmp_path):
    main, again = tmp_path / "main.jsonl", tmp_path / "again.jsonl"
    header = catalogue.make_job(make_game, "royal-assassin", time_limit=None, max_states=3_000).header()
    longer = dict(header, time_limit=300.0)
    rows = [{"seed": 0, "outcome": "UNDECIDED", "score": None, "best": 9},
            {"seed": 1, "outcome": "WON", "score": 12, "best": 12},
            {"seed": 2, "outcome": "LOST", "score": 9, "best": 9}]
    answers = [{"seed": 0, "outcome": "WON", "score": 12, "best": 12},
               {"seed": 2, "outcome": "LOST", "score": None, "best": 8}]  # no optimum: the earlier stays
    for path, head, lines in ((main, header, rows), (again, longer, answers)):
        path.write_text("\n".join(json.dumps(line) for line in [head, *lines]) + "\n")
    whole = catalogue.read_all([main, again])
    assert whole.sources == (main, again)
    assert {seed: row["outcome"] for seed, row in whole.rows.items()} == {0: "WON", 1: "WON", 2: "LOST"}
    assert whole.rows[2]["score"] == 9
    lines = catalogue.format_summary(catalogue.summarise(whole))
    assert any(line.startswith("read ") and str(again) in line for line in lines)


def test_a_wider_winnability_file_fills_in_verdicts_but_never_hides_an_optimum(tmp_path):
    main, wide = tmp_path / "main.jsonl", tmp_path / "wide.jsonl.gz"
    optimal = catalogue.make_job(make_game, "royal-assassin", time_limit=60.0).header()
    winnable = catalogue.make_job(make_game, "royal-assassin", mode="winnable", time_limit=10.0).header()
    main.write_text("\n".join(json.dumps(line) for line in [
        optimal, {"seed": 0, "outcome": "WON", "score": 12, "best": 12},
        {"seed": 1, "outcome": "UNDECIDED", "score": None, "best": 3},
        {"seed": 2, "outcome": "WON", "score": None, "best": 7}]) + "\n")
    wide.write_bytes(gzip.compress(("\n".join(json.dumps(line) for line in [
        winnable, *({"seed": seed, "outcome": outcome, "score": None, "best": 5}
                    for seed, outcome in enumerate(["WON", "LOST", "WON", "LOST"]))]) + "\n").encode()))
    whole = catalogue.read_all([main, wide])
    assert {seed: (row["outcome"], row["score"], row["best"]) for seed, row in whole.rows.items()} == {
        0: ("WON", 12, 12),  # the proven optimum stays
        1: ("LOST", None, 5),  # a verdict beats none
        2: ("WON", None, 7),  # as much known: the longer search's row (60 s against 10 s)
        3: ("LOST", None, 5)}  # the wider range adds its seeds
    assert catalogue.summarise(whole)["seeds"] == 4


def test_an_unproven_seed_keeps_its_best_line_and_the_least_bound_any_of_its_searches_proved(tmp_path):
    """The row with the better line stands for an unproven seed (then the longer search's),
    with the least bound of all its rows (a bound holds whichever search proved it); where
    the best line meets that bound the optimum is proven; a proven optimum needs no bound."""
    short, long = tmp_path / "short.jsonl", tmp_path / "long.jsonl"
    header = catalogue.make_job(make_game, "adaman", time_limit=1.0).header()
    for path, limit, lines in (
            (short, 1.0, [{"seed": 0, "outcome": "WON", "score": None, "best": 100, "bound": 110},
                          {"seed": 1, "outcome": "WON", "score": None, "best": 92, "bound": 95},
                          {"seed": 2, "outcome": "WON", "score": None, "best": 80, "bound": 99},
                          {"seed": 3, "outcome": "WON", "score": None, "best": 96, "bound": 120}]),
            (long, 900.0, [{"seed": 0, "outcome": "WON", "score": None, "best": 104},
                           {"seed": 1, "outcome": "WON", "score": None, "best": 92, "bound": 97},
                           {"seed": 2, "outcome": "WON", "score": 85, "best": 85},
                           {"seed": 3, "outcome": "WON", "score": None, "best": 90, "bound": 96}])):
        path.write_text("\n".join(json.dumps(line) for line in [dict(header, time_limit=limit), *lines]) + "\n")
    whole = catalogue.read_all([short, long])
    assert {seed: (row["best"], row.get("bound"), row["score"]) for seed, row in whole.rows.items()} == {
        0: (104, 110, None), 1: (92, 95, None), 2: (85, None, 85), 3: (96, None, 96)}
    assert catalogue.summarise(whole)["optimum_median"] == [94, 95.5]


def test_a_file_of_another_game_cannot_answer_a_catalogue(tmp_path):
    main, other = tmp_path / "main.jsonl", tmp_path / "other.jsonl"
    main.write_text(json.dumps(catalogue.make_job(make_game, "royal-assassin").header()) + "\n")
    other.write_text(json.dumps(catalogue.make_job(make_game, "adaman").header()) + "\n")
    with pytest.raises(UsurperError, match="is a catalogue of adaman"):
        catalogue.read_all([main, other])


