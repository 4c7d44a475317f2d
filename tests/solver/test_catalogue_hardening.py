"""`usurper catalogue` where the world is hostile: outputs that are not files, a full disk,
Ctrl-C while the workers start, and a missing compiled engine with several workers.

Tests that run the command in a subprocess poll with generous time-outs and never assert
how long anything took, so that they pass on a machine whose cores are all busy.
"""

from __future__ import annotations

import contextlib
import errno
import gzip
import json
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from catalogue_helpers import ctrl_c_as_in_a_terminal, nap
from cli_helpers import run_main

from games import make_game
from games.base import UsurperError
from solver import catalogue
from solver.catalogue import store, work

ROOT = Path(__file__).resolve().parent.parent.parent
ROYAL = catalogue.make_job(make_game, "royal-assassin", time_limit=None, max_states=3_000)
#: Endless devices are refused before a byte is read; were one read, this caps the damage
#: (a MemoryError) rather than letting the test eat the machine's memory.
MEMORY_CAP = 2 << 30
#: Seconds before a command that should answer at once counts as hung.
HANG = 60


def usurper(*args: str, timeout: float = HANG, env: dict | None = None) -> subprocess.CompletedProcess:
    def cap_memory():
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))

    return subprocess.run([sys.executable, "-c", "import cli; cli.main()", *args], check=False,
                          capture_output=True, text=True, cwd=ROOT, timeout=timeout, env=env,
                          preexec_fn=cap_memory)


def one_line_error(done: subprocess.CompletedProcess, *words: str) -> str:
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2, done.stderr
    assert len(lines) == 1 and lines[0].startswith("usurper: error: "), done.stderr
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


def file_seeds(path: Path) -> list[int]:
    """The seeds of the rows in file order, checking every line is whole JSON."""
    data = path.read_bytes()
    assert data.endswith(b"\n")
    lines = data.decode().splitlines()
    assert json.loads(lines[0])["format"] == catalogue.FORMAT
    return [json.loads(line)["seed"] for line in lines[1:]]


# ----- outputs and inputs that are not regular files --------------------------------------

@pytest.mark.parametrize("out", ["/dev/full", "/dev/zero", "/dev/null", "/dev/stdout", "FIFO"])
def test_an_output_that_is_not_a_regular_file_is_refused_at_once(out, tmp_path):
    if out == "FIFO":
        out = str(tmp_path / "fifo.jsonl")
        os.mkfifo(out)
    elif not Path(out).exists():
        pytest.skip(f"no {out} here")
    # /dev/stdout is the pipe the test reads: reading it would wait forever
    done = usurper("catalogue", "adaman", "--seeds", "0-3", "--out", out, "--workers", "1")
    one_line_error(done, out, "not a regular file")
    assert done.stdout == ""


@pytest.mark.parametrize("which", ["part", "gz"])
def test_a_gz_output_whose_file_or_part_is_a_fifo_is_refused(which, tmp_path):
    out = tmp_path / "c.jsonl.gz"
    fifo = tmp_path / "c.jsonl.gz.part" if which == "part" else out
    os.mkfifo(fifo)
    job = catalogue.make_job(make_game, "royal-assassin", max_states=3_000)  # the command's question
    if which == "gz":  # a resumable .part beside it, whose rows would end in the .gz
        (tmp_path / "c.jsonl.gz.part").write_text(json.dumps(job.header()) + "\n")
    one_line_error(usurper("catalogue", "royal-assassin", "--seeds", "0-1", "--out", str(out), "--max-states",
                           "3000", "--workers", "1"), str(fifo), "not a regular file")
    with pytest.raises(UsurperError, match="not a regular file"):
        catalogue.run(out, job, range(2), workers=1)
    assert fifo.is_fifo()


def test_stats_and_pick_refuse_a_fifo_or_a_device_without_waiting(tmp_path):
    fifo = tmp_path / "fifo.jsonl"
    os.mkfifo(fifo)
    for source in (str(fifo), "/dev/zero"):
        one_line_error(usurper("catalogue", "stats", source), source, "not a regular file")
        one_line_error(usurper("pick", "adaman", "--catalogue", source), source, "not a regular file")
    for read in (catalogue.read, store.read_header):
        with pytest.raises(UsurperError, match="not a regular file"):
            read(fifo)


def test_a_first_line_over_a_megabyte_is_not_a_catalogue(tmp_path):
    plain = tmp_path / "long.jsonl"
    plain.write_bytes(b"x" * (store.HEADER_LIMIT + 1) + b"\n")
    packed = tmp_path / "long.jsonl.gz"
    packed.write_bytes(gzip.compress(b"{" * (4 * store.HEADER_LIMIT)))
    for path in (plain, packed):
        for read in (catalogue.read, store.read_header):
            with pytest.raises(UsurperError, match="not a usurper catalogue .line 1 is longer than"):
                read(path)
    before = plain.read_bytes()
    with pytest.raises(UsurperError, match="line 1 is longer than"):
        catalogue.run(plain, ROYAL, range(2), workers=1)
    assert plain.read_bytes() == before
    # a header of just under the limit is still read
    header = {**ROYAL.header(), "padding": " " * (store.HEADER_LIMIT - 400)}
    near = tmp_path / "near.jsonl"
    near.write_text(json.dumps(header) + "\n")
    assert len(near.read_bytes()) <= store.HEADER_LIMIT + 1
    assert catalogue.read(near).header["padding"] == header["padding"]


# ----- a full disk ------------------------------------------------------------------------

def disk_full_after(rows_that_fit: int, monkeypatch) -> None:
    """Rows written after `rows_that_fit` fail as on a full disk: half the line reaches the
    file, then ENOSPC."""
    real = store._write_line
    rows = []

    def write_line(fd: int, line: bytes) -> None:
        if line.startswith(b'{"seed"'):
            if len(rows) == rows_that_fit:
                os.write(fd, line[: len(line) // 2])
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            rows.append(line)
        real(fd, line)

    monkeypatch.setattr(store, "_write_line", write_line)


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_full_disk_is_one_line_naming_the_rows_kept_and_a_rerun_finishes(workers, tmp_path, monkeypatch, capsys):
    path = tmp_path / "ra.jsonl"
    args = ["catalogue", "royal-assassin", "--seeds", "0-9", "--out", str(path), "--max-states", "3000",
            "--workers", workers]
    with monkeypatch.context() as patch:
        disk_full_after(3, patch)
        done = run_main(patch, capsys, *args)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1, done.stderr
    assert lines[0] == (f"usurper: error: cannot write {path}: No space left on device; the 3 rows already in it "
                        "are safe, re-run the same command to resume")
    kept = catalogue.read(path).rows
    assert len(kept) == 3 and len(file_seeds(path)) == 3  # the half line is gone
    done = run_main(monkeypatch, capsys, *args)
    assert done.returncode == 0, done.stderr
    assert file_seeds(path) == list(range(10))
    rows = catalogue.read(path).rows
    assert all(rows[seed] == row for seed, row in kept.items())


def test_a_full_disk_while_the_header_is_written_is_one_line_and_a_rerun_starts_again(tmp_path, monkeypatch,
                                                                                      capsys):
    path = tmp_path / "ra.jsonl"
    args = ["catalogue", "royal-assassin", "--seeds", "0-2", "--out", str(path), "--max-states", "3000",
            "--workers", "1"]

    def no_room(fd: int, line: bytes) -> None:
        os.write(fd, line[:10])
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    with monkeypatch.context() as patch:
        patch.setattr(store, "_write_line", no_room)
        done = run_main(patch, capsys, *args)
    assert done.stderr.strip() == f"usurper: error: cannot write {path}: No space left on device", done.stderr
    assert done.returncode == 2
    done = run_main(monkeypatch, capsys, *args)
    assert done.returncode == 0, done.stderr
    assert file_seeds(path) == [0, 1, 2]


# ----- Ctrl-C at any moment -------------------------------------------------------------

def children(pid: int) -> list[int]:
    """The processes whose parent is `pid` (from /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = (Path("/proc") / entry / "stat").read_text().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue  # gone meanwhile
            if int(fields[1]) == pid:
                found.append(int(entry))
    return found


def command_line(pid: int) -> str:
    try:
        return (Path("/proc") / str(pid) / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def fork_server_started(pid: int) -> bool:
    """The run's fork server exists: its pool's workers are about to be (or being) started."""
    return any("forkserver" in command_line(child) for child in children(pid))


def worker_started(pid: int) -> bool:
    return any(children(child) for child in children(pid) if "forkserver" in command_line(child))


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="looks for the run's processes in /proc")
@pytest.mark.parametrize("moment", ["file made", "fork server starting", "worker starting"])
def test_ctrl_c_while_the_run_starts_stops_cleanly_and_the_file_resumes(moment, tmp_path):
    path = tmp_path / "adaman.jsonl"
    command = [sys.executable, "-c", "import cli; cli.main()", "catalogue", "adaman", "--seeds", "0-299",
               "--out", str(path), "--max-states", "150000", "--workers", "2"]
    ready = {"file made": lambda pid: path.exists(), "fork server starting": fork_server_started,
             "worker starting": worker_started}[moment]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True, preexec_fn=ctrl_c_as_in_a_terminal)
    try:
        deadline = time.monotonic() + HANG
        while process.poll() is None and not ready(process.pid):
            assert time.monotonic() < deadline, f"no '{moment}' within {HANG} s"
            time.sleep(0.001)
        os.killpg(process.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the whole foreground group
        _, stderr = process.communicate(timeout=HANG)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    assert process.returncode == 130, stderr
    assert "Traceback" not in stderr and "Error" not in stderr, stderr
    lines = stderr.strip().splitlines()
    # once the pool starts, the run itself says how far it got (a fork server killed by the
    # Ctrl-C would end it as a bare "interrupted", or with a traceback)
    said = "usurper: interrupted" if moment == "file made" else "usurper: interrupted; "
    assert len(lines) == 1 and lines[0].startswith(said), stderr
    # no file, or one with no whole header yet, is a run to start again: no rows
    seeds = file_seeds(path) if path.exists() and b"\n" in path.read_bytes() else []
    assert len(seeds) == len(set(seeds)) < 300
    resumed = subprocess.run([*command[:6], "0-3", *command[7:]], check=False, cwd=ROOT, capture_output=True,
                             text=True, timeout=10 * HANG)
    assert resumed.returncode == 0, resumed.stderr
    again = file_seeds(path)
    assert len(again) == len(set(again)) and set(range(4)) | set(seeds) == set(again)


def descendants(pid: int) -> dict[int, str]:
    """Every process below `pid`, with its start time (so that a reused number is not it)."""
    found, todo = {}, [pid]
    while todo:
        for child in children(todo.pop()):
            found[child] = started_at(child)
            todo.append(child)
    return found


def started_at(pid: int) -> str:
    try:
        return (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return ""


def still_running(processes: dict[int, str]) -> list[str]:
    """Those of `processes` still there and not a zombie (an orphan's zombie waits for a reaper
    that may not reap), by their command lines."""
    left = []
    for pid, start in processes.items():
        try:
            state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z" and started_at(pid) == start:
            left.append(command_line(pid))
    return left


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="looks for the run's processes in /proc")
def test_a_run_killed_with_kill_9_leaves_no_process_behind(tmp_path):
    """kill -9 gives the run no chance to stop its workers: they, the fork server and the
    resource tracker must each notice it is gone and end."""
    path = tmp_path / "adaman.jsonl"
    command = [sys.executable, "-c", "import cli; cli.main()", "catalogue", "adaman", "--seeds", "0-299",
               "--out", str(path), "--max-states", "150000", "--workers", "2"]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True)
    try:
        deadline = time.monotonic() + HANG
        while process.poll() is None and not worker_started(process.pid):
            assert time.monotonic() < deadline, f"no worker within {HANG} s"
            time.sleep(0.01)
        below = descendants(process.pid)
        assert any("resource_tracker" in command_line(pid) for pid in below)
        assert len(below) >= 3, below  # the tracker, the fork server and a worker at least
        process.kill()
        process.wait(timeout=HANG)
        deadline = time.monotonic() + HANG
        while still_running(below):
            assert time.monotonic() < deadline, f"still there {HANG} s after the kill: {still_running(below)}"
            time.sleep(0.1)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)  # whatever is left, so that a failure leaks nothing
        process.wait()


def test_a_stopped_pool_leaves_no_thread_behind(tmp_path):
    """An exit right after stopping a pool raced its manager thread (EBADF at exit)."""
    pool = work._new_pool(2, work._mp_context())
    futures = [pool.submit(nap, 0.01 if index < 2 else 60) for index in range(6)]
    futures[0].result(timeout=HANG)
    manager = pool._executor_manager_thread
    work._stop_pool(pool)
    assert not manager.is_alive()


# ----- a note once per run, not once per worker ----------------------------------------------

def test_without_the_compiled_engine_the_note_is_printed_once_whatever_the_workers(tmp_path):
    # every process of the run (the workers come from a fresh interpreter, the fork server)
    # imports this sitecustomize: the compiled engines are then not there
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "sitecustomize.py").write_text(
        "import sys\n"
        "for name in ('games.adaman._core', 'games.royal_assassin._core'):\n"
        "    sys.modules[name] = None  # import fails: not built\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(tmp_path / "site"),
                                                                     os.environ.get("PYTHONPATH")]))}
    path = tmp_path / "adaman.jsonl"
    done = usurper("catalogue", "adaman", "--seeds", "0-15", "--out", str(path), "--max-states", "3000",
                   "--workers", "2", env=env, timeout=10 * HANG)
    assert done.returncode == 0, done.stderr
    notes = [line for line in done.stderr.splitlines() if line.startswith("usurper: note:")]
    assert len(notes) == 1 and "Adaman engine is not built" in notes[0], done.stderr
    assert notes[0].endswith("using the Python engine (slower)")
    assert {row["engine"].split()[0] for row in catalogue.read(path).rows.values()} == {"pruned"}
