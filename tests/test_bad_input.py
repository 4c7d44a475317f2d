"""The bad-input audit: one table of careless or hostile input across every command, each
answered by exactly one line `usurper: error: ...` and exit 2 (no traceback, nothing on
stdout), and none destroying or replacing a file that is not the command's own regular
output: the FIFO, the link to it, the text file and the folder handed in as outputs are
there, unchanged, afterwards.

Run through cli.main in this process (the same entry point as the console script) to stay
fast; every case is refused before any search or play starts.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from cli_helpers import one_line_error, run_main

from games import make_game
from solver import catalogue

ADAMAN_DEAL = ", ".join(card.name for card in make_game("adaman").deal_from_seed(1))
ROYAL_DEAL = " ".join(make_game("royal-assassin").format_deal(make_game("royal-assassin").deal_from_seed(1)).split())
TEXT = "a user's notes, not a catalogue\n"

#: (case, command line, words the error line must hold).  Placeholders name the files of
#: `world`: {fifo}, {link} (a link to the FIFO), {text} (a regular file that is no
#: catalogue), {book} (a catalogue), {dir} (a folder), {missing} (nothing there).
CASES = [
    # malformed deals, unknown, duplicate and missing cards
    ("deal: no seed or deal", ["deal", "adaman"], ["exactly one of --seed"]),
    ("deal: both seed and deal", ["deal", "adaman", "--seed", "1", "--deal", ADAMAN_DEAL], ["exactly one of --seed"]),
    ("deal: unknown card", ["deal", "adaman", "--deal", ADAMAN_DEAL.replace("Painter", "Plumber")], ["Plumber"]),
    ("deal: duplicate card", ["deal", "adaman", "--deal", ADAMAN_DEAL.replace("Painter", "Sailor")], ["Sailor"]),
    ("deal: missing card", ["deal", "adaman", "--deal", ADAMAN_DEAL.rsplit(", ", 1)[0]], []),
    ("deal: no separators", ["deal", "adaman", "--deal", ADAMAN_DEAL.replace(", ", " ")], ["commas"]),
    ("deal: royal unknown card", ["deal", "royal-assassin", "--deal", ROYAL_DEAL.replace("10C", "1X", 1)], ["1X"]),
    ("deal: royal missing card", ["deal", "royal-assassin", "--deal", ROYAL_DEAL.rsplit(" ", 1)[0]], []),
    ("deal: unknown game", ["deal", "chess", "--seed", "1"], ["chess"]),
    ("deal: unknown variant", ["deal", "adaman", "--seed", "1", "--variant", "nonsense"], ["nonsense"]),
    ("deal: negative seed", ["deal", "adaman", "--seed", "-1"], ["--seed"]),
    ("deal: seed not a number", ["deal", "adaman", "--seed", "one"], ["--seed"]),
    ("deal: bad suits", ["deal", "devils-throne", "--seed", "1", "--suits", "X,Y"], ["'X'"]),
    ("deal: players of a solitaire", ["deal", "adaman", "--seed", "1", "--players", "2"], ["Devil's Throne"]),
    ("show: bad move", ["show", "adaman", "--seed", "1", "--moves", "Nobody <- Nowhere"], ["move 1"]),
    ("show: bad deal", ["show", "royal-assassin", "--deal", "QH QH"], []),
    # limits
    ("solve: nan time limit", ["solve", "adaman", "--seed", "1", "--time-limit", "nan"], ["not a time limit"]),
    ("solve: inf time limit", ["solve", "adaman", "--seed", "1", "--time-limit", "inf"], ["not a time limit"]),
    ("solve: huge time limit", ["solve", "adaman", "--seed", "1", "--time-limit", "1e308"], ["not a time limit"]),
    ("solve: huge memory", ["solve", "adaman", "--seed", "1", "--max-memory", "99999999999"],
     ["more than the most it takes, 1,073,741,824 MB"]),
    ("solve: no memory", ["solve", "adaman", "--seed", "1", "--max-memory", "0"], ["give 1 or more"]),
    ("solve: huge states", ["solve", "adaman", "--seed", "1", "--max-states", "1" + "0" * 30], ["the most it takes"]),
    ("solve: at-least above the top", ["solve", "adaman", "--seed", "1", "--at-least", "100000"], ["highest score"]),
    ("solve: seat beyond the table", ["solve", "devils-throne", "--seed", "1", "--players", "2", "--seat", "3"],
     ["seat 3"]),
    ("hint: bad move", ["hint", "adaman", "--seed", "1", "--moves", "garbage"], ["move 1"]),
    ("hint: bad visible", ["hint", "adaman", "--visible", "garbage"], []),
    ("hint: nan time limit", ["hint", "adaman", "--seed", "1", "--time-limit", "nan"], ["not a time limit"]),
    ("play: bad deal", ["play", "adaman", "--plain", "--deal", "garbage"], []),
    ("play: bad move", ["play", "adaman", "--plain", "--seed", "1", "--moves", "garbage"], ["move 1"]),
    ("verify: bad deal", ["verify", "adaman", "--deal", "garbage", "--moves", "x"], []),
    # seed ranges
    ("bench: open range", ["bench", "adaman", "--seeds", "5-"], ["bad seed range '5-'"]),
    ("bench: backwards range", ["bench", "adaman", "--seeds", "9-1"], ["bad seed range '9-1'"]),
    ("bench: huge range", ["bench", "adaman", "--seeds", "0-1000000000000"], ["10,000,000"]),
    ("bench: inf time limit", ["bench", "adaman", "--seeds", "0", "--time-limit", "inf"], ["not a time limit"]),
    ("bench: bad budgets", ["bench", "adaman", "--seeds", "0", "--budgets", "x"], ["--budgets"]),
    # outputs that are not the command's own regular file
    ("bench plot: fifo", ["bench", "adaman", "--seeds", "0", "--budgets", "2", "--plot", "{fifo}"], ["named pipe"]),
    ("bench plot: link to fifo", ["bench", "adaman", "--seeds", "0", "--budgets", "2", "--plot", "{link}"],
     ["named pipe"]),
    ("bench plot: missing folder", ["bench", "adaman", "--seeds", "0", "--budgets", "2", "--plot",
                                    "{missing}/p.png"], ["no folder"]),
    ("bench plot: under a file", ["bench", "adaman", "--seeds", "0", "--budgets", "2", "--plot", "{text}/p.png"],
     ["is not a folder"]),
    ("catalogue: fifo", ["catalogue", "adaman", "--seeds", "0-1", "--out", "{fifo}"], ["named pipe"]),
    ("catalogue: link to fifo", ["catalogue", "adaman", "--seeds", "0-1", "--out", "{link}"], ["named pipe"]),
    ("catalogue: a folder", ["catalogue", "adaman", "--seeds", "0-1", "--out", "{dir}"], ["directory"]),
    ("catalogue: device", ["catalogue", "adaman", "--seeds", "0-1", "--out", "/dev/null"], ["character device"]),
    ("catalogue: missing folder", ["catalogue", "adaman", "--seeds", "0-1", "--out", "{missing}/c.jsonl"],
     ["no folder"]),
    ("catalogue: under a file", ["catalogue", "adaman", "--seeds", "0-1", "--out", "{text}/c.jsonl"],
     ["is not a folder"]),
    ("catalogue: not a catalogue", ["catalogue", "adaman", "--seeds", "0-1", "--out", "{text}"],
     ["not a usurper catalogue"]),
    ("catalogue: another question", ["catalogue", "adaman", "--seeds", "0-1", "--out", "{book}", "--mode",
                                     "optimal"], ["this run asks"]),
    ("catalogue: bad range", ["catalogue", "run", "adaman", "--seeds", "9-1", "--out", "{missing}"],
     ["bad seed range"]),
    ("catalogue: unknown variant", ["catalogue", "adaman", "--seeds", "0", "--out", "{missing}", "--variant", "x"],
     ["variant"]),
    ("catalogue: huge memory", ["catalogue", "adaman", "--seeds", "0", "--out", "{missing}", "--max-memory",
                                "99999999999"], ["the most it takes"]),
    ("catalogue: nan verdict limit", ["catalogue", "adaman", "--seeds", "0", "--out", "{missing}",
                                      "--verdict-limit", "nan"], ["not a time limit"]),
    ("catalogue: devils-throne", ["catalogue", "devils-throne", "--seeds", "0", "--out", "{missing}"],
     ["has no catalogue"]),
    ("catalogue: no workers", ["catalogue", "adaman", "--seeds", "0-3", "--out", "{missing}", "--workers", "0"],
     ["--workers"]),
    # catalogues to read
    ("stats: missing file", ["catalogue", "stats", "{missing}"], ["No such file"]),
    ("stats: fifo", ["catalogue", "stats", "{fifo}"], ["named pipe"]),
    ("stats: device", ["catalogue", "stats", "/dev/zero"], ["character device"]),
    ("stats: a folder", ["catalogue", "stats", "{dir}"], ["directory"]),
    ("stats: not a catalogue", ["catalogue", "stats", "{text}"], ["not a usurper catalogue"]),
    ("stats: plot to fifo", ["catalogue", "stats", "{book}", "--plot", "{fifo}"], ["named pipe"]),
    ("stats: plot to link to fifo", ["catalogue", "stats", "{book}", "--plot", "{link}"], ["named pipe"]),
    ("stats: plot to a folder", ["catalogue", "stats", "{book}", "--plot", "{dir}"], ["directory"]),
    ("stats: plot to a missing folder", ["catalogue", "stats", "{book}", "--plot", "{missing}/p.png"], ["no folder"]),
    ("stats: both lists", ["catalogue", "stats", "{book}", "--undecided", "--unproven"], ["not both"]),
    ("pick: missing catalogue", ["pick", "adaman", "--catalogue", "{missing}"], ["No such file"]),
    ("pick: fifo", ["pick", "adaman", "--catalogue", "{fifo}"], ["named pipe"]),
    ("pick: not a catalogue", ["pick", "adaman", "--catalogue", "{text}"], ["not a usurper catalogue"]),
    ("pick: another game's", ["pick", "royal-assassin", "--catalogue", "{book}"], ["not of royal-assassin"]),
    ("pick: devils-throne", ["pick", "devils-throne"], ["has no catalogue"]),
    ("pick: unknown game", ["pick", "chess"], ["chess"]),
]


@pytest.fixture
def world(tmp_path: Path) -> dict[str, Path]:
    """The files a case may name: a FIFO, a link to it, a text file, a catalogue, a folder."""
    files = {name: tmp_path / name for name in ("fifo", "link", "text", "book.jsonl", "dir", "missing")}
    os.mkfifo(files["fifo"])
    files["link"].symlink_to("fifo")
    files["text"].write_text(TEXT)
    header = catalogue.make_job(make_game, "adaman", mode="winnable").header()
    rows = [{"seed": 0, "outcome": "WON", "score": None, "best": 70, "states": 5, "seconds": 0.1,
             "first_move": None, "engine": "test"}]
    files["book.jsonl"].write_text("".join(json.dumps(line) + "\n" for line in [header, *rows]))
    files["dir"].mkdir()
    return {("book" if name == "book.jsonl" else name): path for name, path in files.items()}


def snapshot(folder: Path) -> dict[str, tuple]:
    """What is in `folder`: each entry's kind, and a regular file's bytes or a link's target."""
    seen = {}
    for path in sorted(folder.rglob("*")):
        if path.is_symlink():
            seen[path.name] = ("link", os.readlink(path))
        elif path.is_fifo():
            seen[path.name] = ("fifo",)
        elif path.is_dir():
            seen[path.name] = ("dir",)
        else:
            seen[path.name] = ("file", path.read_bytes())
    return seen


@pytest.mark.parametrize("args, words", [case[1:] for case in CASES], ids=[case[0] for case in CASES])
def test_bad_input_is_one_line_and_exit_2_and_touches_no_file(args, words, world, monkeypatch, capsys):
    folder = world["fifo"].parent
    before = snapshot(folder)
    dev_null = os.stat("/dev/null")
    done = run_main(monkeypatch, capsys, *[word.format(**world) for word in args])
    one_line_error(done, *words)
    assert done.stdout == ""
    assert snapshot(folder) == before  # nothing made, replaced, or written
    after = os.stat("/dev/null")
    assert (after.st_mode, after.st_rdev) == (dev_null.st_mode, dev_null.st_rdev)


def test_the_documented_answers_that_are_not_errors(world, monkeypatch, capsys):
    """Not every odd input is an error: an illegal line is verify's finding (exit 1), and a
    catalogue with no undecided seed says so on stderr (exit 0), printing no empty list."""
    done = run_main(monkeypatch, capsys, "verify", "adaman", "--seed", "5", "--moves", "Nobody <- Nowhere")
    assert done.returncode == 1 and done.stdout.startswith("Illegal: move 1") and done.stderr == ""
    done = run_main(monkeypatch, capsys, "catalogue", "stats", str(world["book"]), "--undecided")
    assert done.returncode == 0 and done.stdout == "" and done.stderr.startswith("usurper: note: no undecided seed")
