"""The files usurper writes: every writer goes through one check (store.output_file), so a
FIFO, a device or a folder is refused and never replaced, a symbolic link is written
through, and a missing folder is an error.  And what a catalogue run or its figures say
when there is nothing (left) to say.

Devices: no test writes one.  A device's refusal is asked of the checker alone, which
refuses before anything is written; the writers are tried on FIFOs made in tmp_path.
"""

from __future__ import annotations

import gzip
import json
import os
import stat
from pathlib import Path

import pytest
from cli_helpers import one_line_error, run_main, usurper

from games import make_game
from games.base import UsurperError
from solver import catalogue
from solver.catalogue import store

ROYAL = catalogue.make_job(make_game, "royal-assassin", max_states=3_000)
ROYAL_ARGS = ["--max-states", "3000", "--workers", "1"]  # the command line asking ROYAL's question
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def row(seed: int, outcome: str = "WON", **fields) -> dict:
    return {"seed": seed, "outcome": outcome, "score": None, "best": 70 if outcome == "WON" else None, "states": 10,
            "seconds": 0.1, "first_move": None, "engine": "test", **fields}


def write_catalogue(path: Path, rows: list[dict], job: catalogue.Job = ROYAL) -> Path:
    path.write_text("".join(json.dumps(line) + "\n" for line in [job.header(), *rows]))
    return path


def file_seeds(path: Path) -> list[int]:
    return [json.loads(line)["seed"] for line in path.read_text().splitlines()[1:]]


# ----- a FIFO, a device, a folder: refused by every writer, never replaced -----------------------

def fifo_or_link_to_one(tmp_path: Path, kind: str) -> tuple[Path, Path]:
    """(the output path to give, the FIFO behind it)."""
    fifo = tmp_path / "pipe.out"
    os.mkfifo(fifo)
    if kind == "fifo":
        return fifo, fifo
    link = tmp_path / "link.out"
    link.symlink_to(fifo.name)
    return link, fifo


@pytest.mark.parametrize("kind", ["fifo", "link to a fifo"])
@pytest.mark.parametrize("writer", ["catalogue stats --plot", "bench --budgets --plot", "catalogue run --out"])
def test_every_writer_refuses_a_fifo_in_one_line_and_leaves_it_there(writer, kind, tmp_path):
    book = write_catalogue(tmp_path / "c.jsonl", [row(0), row(1)])
    out, fifo = fifo_or_link_to_one(tmp_path, kind)
    args = {"catalogue stats --plot": ["catalogue", "stats", str(book), "--plot", str(out)],
            "bench --budgets --plot": ["bench", "adaman", "--seeds", "0", "--budgets", "2", "--plot", str(out)],
            "catalogue run --out": ["catalogue", "royal-assassin", "--seeds", "0-1", "--out", str(out), *ROYAL_ARGS]}
    one_line_error(usurper(*args[writer], timeout=60), str(out), "a named pipe (FIFO), not a regular file")
    assert fifo.is_fifo()
    assert out == fifo or (out.is_symlink() and os.readlink(out) == fifo.name)
    assert sorted(path.name for path in tmp_path.iterdir()) == sorted({"c.jsonl", out.name, fifo.name})


def test_the_output_check_refuses_a_device_before_writing_anything():
    """The checker's verdict on a character device: it is refused by a look at what is
    there, before any file is made beside it or written (so /dev/null is safe to ask)."""
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    before = sorted(os.listdir("/dev"))
    for check in (store.check_writable, store.output_file):
        with pytest.raises(UsurperError, match="/dev/null is a character device, not a regular file"):
            check(Path("/dev/null"))
    assert sorted(os.listdir("/dev")) == before


def test_an_atomic_write_never_replaces_a_fifo_or_a_folder(tmp_path):
    fifo = tmp_path / "pipe.png"
    os.mkfifo(fifo)
    folder = tmp_path / "folder.png"
    folder.mkdir()
    for path, kind in ((fifo, "a named pipe"), (folder, "a folder")):
        with pytest.raises(UsurperError, match=f"is {kind}"):
            store.write_atomically(path, lambda handle: handle.write(b"x"))
    assert fifo.is_fifo() and folder.is_dir() and list(folder.iterdir()) == []
    assert sorted(path.name for path in tmp_path.iterdir()) == ["folder.png", "pipe.png"]


# ----- a symbolic link is written through ---------------------------------------------------------

def test_a_catalogue_through_a_link_goes_to_its_target_sorted_and_the_link_stays(tmp_path):
    target = write_catalogue(tmp_path / "real.jsonl", [row(2), row(0)])  # out of seed order
    link = tmp_path / "link.jsonl"
    link.symlink_to(target.name)
    catalogue.run(link, ROYAL, range(4), workers=1)
    assert link.is_symlink() and os.readlink(link) == target.name
    assert file_seeds(target) == [0, 1, 2, 3]  # the finished run leaves the target sorted
    assert sorted(path.name for path in tmp_path.iterdir()) == ["link.jsonl", "real.jsonl"]


def test_a_plot_through_a_link_replaces_its_target_and_the_link_stays(tmp_path):
    book = write_catalogue(tmp_path / "c.jsonl", [row(0), row(1)])
    target = tmp_path / "old.png"
    target.write_bytes(b"an old picture")
    link = tmp_path / "plot.png"
    link.symlink_to(target.name)
    done = usurper("catalogue", "stats", str(book), "--plot", str(link))
    assert done.returncode == 0, done.stderr
    assert link.is_symlink() and target.read_bytes().startswith(PNG_SIGNATURE)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["c.jsonl", "old.png", "plot.png"]


# ----- folders: never made; a missing one is named ------------------------------------------------

@pytest.mark.parametrize("writer", ["catalogue run --out", "catalogue stats --plot"])
def test_a_missing_folder_is_one_line_naming_it_and_nothing_is_made(writer, tmp_path):
    book = write_catalogue(tmp_path / "c.jsonl", [row(0)])
    out = tmp_path / "tpyo" / "deeper" / "x.out"
    args = {"catalogue run --out": ["catalogue", "royal-assassin", "--seeds", "0-1", "--out", str(out), *ROYAL_ARGS],
            "catalogue stats --plot": ["catalogue", "stats", str(book), "--plot", str(out)]}[writer]
    one_line_error(usurper(*args), f"cannot write {out}: no folder {out.parent}")
    assert list(tmp_path.iterdir()) == [book]


def test_a_complete_catalogue_is_not_opened_for_writing_so_a_read_only_one_reruns(tmp_path, monkeypatch, capsys):
    """Nothing left to write: the re-run reports the file complete and exits 0, whether or
    not the file could be written (as root every file can, so writing is refused here)."""
    path = write_catalogue(tmp_path / "done.jsonl", [row(0), row(1, "LOST"), row(2)])
    path.chmod(0o444)
    real_open = store._open_regular

    def read_only(where: Path, flags: int = os.O_RDONLY) -> int:
        if flags & (os.O_WRONLY | os.O_RDWR):
            raise PermissionError(13, "Permission denied", str(where))
        return real_open(where, flags)

    monkeypatch.setattr(store, "_open_regular", read_only)
    before = path.read_bytes()
    done = run_main(monkeypatch, capsys, "catalogue", "royal-assassin", "--seeds", "0-2", "--out", str(path),
                    *ROYAL_ARGS)
    assert done.returncode == 0, done.stderr
    assert "0 solved now, 3 already there; 2 WON, 1 LOST" in done.stdout
    assert path.read_bytes() == before
    # a seed still to solve needs the file written: then the refusal is the one line it was
    done = run_main(monkeypatch, capsys, "catalogue", "royal-assassin", "--seeds", "0-3", "--out", str(path),
                    *ROYAL_ARGS)
    assert one_line_error(done) == f"usurper: error: cannot write {path}: Permission denied"


# ----- an interrupted .gz run: its rows are in the .part ------------------------------------------

def test_stats_of_an_unfinished_gz_names_the_part_that_holds_its_rows(tmp_path):
    packed = tmp_path / "c.jsonl.gz"
    part = write_catalogue(tmp_path / "c.jsonl.gz.part", [row(0), row(1)])
    line = one_line_error(usurper("catalogue", "stats", str(packed)), f"cannot read catalogue {packed}")
    assert f"the rows of its unfinished run are in {part}" in line
    done = usurper("catalogue", "stats", str(part))
    assert done.returncode == 0 and "seeds         2" in done.stdout, done.stderr
    # a .gz that simply is not there says just that
    line = one_line_error(usurper("catalogue", "stats", str(tmp_path / "other.jsonl.gz")), "No such file")
    assert ".part" not in line
    packed.write_bytes(gzip.compress(part.read_bytes()))
    part.unlink()
    assert usurper("catalogue", "stats", str(packed)).returncode == 0


# ----- the seeds left: JSON with --json, and no bare newline --------------------------------------

@pytest.mark.parametrize("which", ["undecided", "unproven"])
def test_the_seeds_left_print_as_json_and_none_left_is_said_not_a_blank_line(which, tmp_path):
    book = write_catalogue(tmp_path / "c.jsonl", [row(0, score=70), row(1, "UNDECIDED"), row(2, "UNDECIDED"),
                                                  row(5, "ERROR", error="x")])
    done = usurper("catalogue", "stats", str(book), f"--{which}", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"catalogue": str(book), "which": which, "seeds": "1-2,5", "count": 3}
    settled = write_catalogue(tmp_path / "settled.jsonl", [row(0, score=70), row(1, "LOST", score=20)])
    done = usurper("catalogue", "stats", str(settled), f"--{which}")
    assert done.returncode == 0 and done.stdout == ""
    assert done.stderr == f"usurper: note: no {which} seed in {settled} (2 seeds)\n"
    done = usurper("catalogue", "stats", str(settled), f"--{which}", "--json")
    assert json.loads(done.stdout) == {"catalogue": str(settled), "which": which, "seeds": "", "count": 0}


# ----- a limit too large is named as such ----------------------------------------------------------

@pytest.mark.parametrize("option, value, words", [
    ("--max-memory", "99999999999", "99,999,999,999 MB is more than the most it takes, 1,073,741,824 MB"),
    ("--max-memory", "0", "0 MB is not a limit: give 1 or more"),
    ("--max-states", str(2**70), "is more than the most it takes, 4,611,686,018,427,387,904"),
])
def test_a_limit_out_of_range_says_which_end_it_passed(option, value, words):
    line = one_line_error(usurper("solve", "adaman", "--seed", "1", option, value), option, words)
    assert "x>=1" not in line


# ----- Devil's Throne has no catalogue; a run that answered nothing fails --------------------------

@pytest.mark.parametrize("args", [
    ["pick", "devils-throne"],
    ["catalogue", "devils-throne", "--seeds", "0-2", "--variant", "players=2", "--variant", "suits=DH",
     "--out", "OUT"],
])
def test_devils_throne_catalogue_and_pick_refuse_in_one_line(args, tmp_path):
    out = tmp_path / "dt.jsonl"
    one_line_error(usurper(*[str(out) if word == "OUT" else word for word in args]), "devils-throne has no catalogue",
                   "--seat")
    assert not out.exists()


def fail_every_seed(job: catalogue.Job, seed: int) -> dict:
    raise RuntimeError(f"seed {seed} cannot be dealt")


def test_a_run_whose_every_row_is_an_error_reports_failure(tmp_path):
    job = catalogue.make_job(make_game, "royal-assassin", max_states=3_000, max_memory_mb=None)  # in this process
    report = catalogue.run(tmp_path / "bad.jsonl", job, range(3), workers=1, solve_one=fail_every_seed)
    assert report.failed and report.outcomes["ERROR"] == 3
    assert report.error == "RuntimeError: seed 0 cannot be dealt"
    mixed = catalogue.run(tmp_path / "mixed.jsonl", job, range(2), workers=1)
    assert not mixed.failed and mixed.error is None


def test_the_command_never_exits_0_when_every_row_is_an_error(tmp_path):
    path = write_catalogue(tmp_path / "bad.jsonl", [row(seed, "ERROR", error=f"broken {seed}") for seed in range(3)])
    done = usurper("catalogue", "royal-assassin", "--seeds", "0-2", "--out", str(path), *ROYAL_ARGS)
    assert done.returncode == 1, done.stderr
    assert "3 ERROR" in done.stdout
    assert done.stderr == "usurper: error: every seed is an ERROR row, e.g. broken 0\n"
    done = usurper("catalogue", "royal-assassin", "--seeds", "0-3", "--out", str(path), *ROYAL_ARGS, "--json")
    assert done.returncode == 0, done.stderr  # seed 3 is answered: not every row is an ERROR
    assert json.loads(done.stdout)["outcomes"]["ERROR"] == 3
