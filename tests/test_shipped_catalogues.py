"""The catalogues shipped in data/catalogue/: every seed of each file's range once, the files
that ask again exactly what the file before left undecided, and rows that solving again
confirms (the cheapest first: 20 a file here, 200 a file in the slow tier)."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

from games import make_game
from games.base import LOST, WON
from solver import catalogue

SHIPPED = sorted(path for pattern in ("*.jsonl", "*.jsonl.gz") for path in catalogue.SHIPPED_DIR.glob(pattern))
GAMES = ("adaman", "royal-assassin", "kings-reign")

#: The main file of a game holds seeds 0-9,999, the main file of a variant (GAME.VARIANTS.jsonl)
#: seeds 0-999; a file named GAME-A-B.jsonl[.gz] holds A-B; STEM-hard-Ns.jsonl asks again what
#: STEM.jsonl[.gz] and the hard files of STEM before it (by time limit) left undecided.
MAIN_RANGE = range(10_000)
VARIANT_RANGE = range(1_000)
RANGE_NAME = re.compile(r"^(?P<game>[a-z-]+?)-(?P<first>\d+)-(?P<last>\d+)\.jsonl(\.gz)?$")
HARD_NAME = re.compile(r"^(?P<stem>.+)-hard-\d+s\.jsonl$")


def parent_of(path: Path) -> Path:
    """The file whose undecided seeds a hard file asks again."""
    stem = HARD_NAME.match(path.name)["stem"]
    return next(parent for parent in SHIPPED if parent.name in (f"{stem}.jsonl", f"{stem}.jsonl.gz"))


def hard_files_of(parent: Path) -> list[Path]:
    stem = parent.name.removesuffix(".gz").removesuffix(".jsonl")
    files = [path for path in SHIPPED if (match := HARD_NAME.match(path.name)) and match["stem"] == stem]
    return sorted(files, key=lambda path: catalogue.store.read_header(path)["time_limit"])


def job_of(book: catalogue.Catalogue) -> catalogue.Job:
    """The question a file answers, from its header: what a re-solve must ask again."""
    header = book.header
    return catalogue.make_job(make_game, header["game"], header["variants"], header["mode"], header["engine"],
                              header["time_limit"], header["max_states"], header["max_memory_mb"],
                              header.get("verdict_limit"), header.get("replace_when_full", False))


def cheapest_decided(book: catalogue.Catalogue, count: int, most_seconds: float) -> list[dict]:
    """Up to `count` rows with a verdict that took at most `most_seconds`, the cheapest
    first, half won and half lost where the file has both, so that both answers are checked."""
    decided = sorted((row for row in book.rows.values()
                      if row["outcome"] in (WON, LOST) and (row.get("seconds") or 0) <= most_seconds),
                     key=lambda row: (row.get("seconds") or 0, row["seed"]))
    won = [row for row in decided if row["outcome"] == WON]
    lost = [row for row in decided if row["outcome"] == LOST]
    lost = lost[: max(count // 2, count - len(won))]
    return won[: count - len(lost)] + lost


def test_every_game_ships_a_catalogue():
    names = {path.name for path in SHIPPED}
    assert {f"{game}.jsonl" for game in GAMES} <= names


@pytest.mark.parametrize("path", SHIPPED, ids=lambda path: path.name)
def test_each_shipped_file_holds_every_seed_of_its_range_once(path):
    """The reader refuses a second row for a seed, so reading a file proves each seed is
    there at most once; the set of seeds is then exactly the file's range."""
    book = catalogue.read(path)
    if path.name == f"{book.header['game']}.jsonl":
        assert set(book.rows) == set(MAIN_RANGE)
    elif path.name == catalogue.shipped_catalogue(job_of(book)).name:
        assert book.header["variants"] and set(book.rows) == set(VARIANT_RANGE)
    elif match := RANGE_NAME.match(path.name):
        assert match["game"] == book.header["game"]
        assert set(book.rows) == set(range(int(match["first"]), int(match["last"]) + 1))
    else:
        assert HARD_NAME.match(path.name), f"{path.name}: a shipped catalogue of no known kind"
        assert set(book.rows) <= set(catalogue.read(parent_of(path)).rows)


@pytest.mark.parametrize("path", [path for path in SHIPPED if HARD_NAME.match(path.name)], ids=lambda path: path.name)
def test_a_hard_file_asks_again_exactly_what_was_left_undecided(path):
    """A STEM-hard-Ns.jsonl holds exactly the seeds that STEM's file and the hard files of
    STEM with a shorter time limit, read together, left open: without a proven optimum
    when both files ask for the optimum, else without a verdict (a hard file may ask only
    the verdict of an optimum's catalogue, or the optimum of a winnability one's seeds)."""
    parent = parent_of(path)
    before = [parent, *hard_files_of(parent)]
    before = catalogue.read_all(before[: before.index(path)])
    book = catalogue.read(path)
    both_optimal = book.header["mode"] == catalogue.read(parent).header["mode"] == "optimal"
    left_open = catalogue.unproven_seeds if both_optimal else catalogue.undecided_seeds
    assert sorted(book.rows) == left_open(before)


@pytest.mark.parametrize("game", GAMES)
def test_the_whole_catalogue_reads_every_file_of_the_game(game):
    paths = catalogue.shipped_catalogues(catalogue.make_job(make_game, game))
    assert set(paths) == {path for path in SHIPPED if path.name == f"{game}.jsonl" or
                          path.name.startswith(f"{game}-")}
    whole = catalogue.read_all(paths)
    widest = max((set(catalogue.read(path).rows) for path in paths), key=len)
    assert set(whole.rows) == widest | set(MAIN_RANGE)


def solved_again(job: catalogue.Job, row: dict) -> dict:
    """The row's seed answered again as the catalogue answers it, with room to finish on a
    loaded machine: a proven optimum by the optimal search, a verdict alone by the
    winnability search (an optimum that was not proven would only run to the limit)."""
    if row.get("score") is not None:
        job = replace(job, time_limit=max(job.time_limit or 0, RESOLVE_SECONDS), verdict_limit=None)
    else:
        job = replace(job, mode="winnable", time_limit=RESOLVE_SECONDS, verdict_limit=None)
    return catalogue.solve_seed(job, row["seed"])


RESOLVE_SECONDS = 60.0


def agrees_when_solved_again(book: catalogue.Catalogue, count: int, most_seconds: float) -> None:
    """The `count` cheapest decided rows (those that took at most `most_seconds`) answered
    again: a file of hard seeds only (GAME-hard-*) may have none that cheap."""
    job = job_of(book)
    sample = cheapest_decided(book, count, most_seconds)
    assert len(sample) == count or HARD_NAME.match(book.path.name), (book.path.name, len(sample))
    for row in sample:
        again = solved_again(job, row)
        assert again["outcome"] == row["outcome"], (book.path.name, row, again)
        if row.get("score") is not None:
            assert again["score"] == row["score"], (book.path.name, row, again)
        for one, other in ((row, again), (again, row)):  # two sound intervals of the one optimum overlap
            if one.get("best") is not None and other.get("bound") is not None and one["outcome"] == WON:
                assert one["best"] <= other["bound"], (book.path.name, row, again)


@pytest.mark.parametrize("path", SHIPPED, ids=lambda path: path.name)
def test_the_cheapest_rows_of_each_file_agree_with_solving_again(path):
    agrees_when_solved_again(catalogue.read(path), 20, most_seconds=1.0)


@pytest.mark.slow
@pytest.mark.parametrize("path", SHIPPED, ids=lambda path: path.name)
def test_two_hundred_rows_of_each_file_agree_with_solving_again(path):
    agrees_when_solved_again(catalogue.read(path), 200, most_seconds=60.0)


def test_a_variant_catalogue_is_read_whole_by_pick_and_stats():
    variants = [path for path in SHIPPED if path.name.count(".") == 2 and path.name.endswith(".jsonl")
                and "-hard-" not in path.name]
    assert variants, "no variant catalogue shipped"
    for path in variants:
        job = job_of(catalogue.read(path))
        assert catalogue.shipped_catalogues(job)[0] == path


def test_shipped_files_are_named_for_what_they_hold():
    for path in SHIPPED:
        header = catalogue.store.read_header(path)
        assert path.name.startswith(header["game"]), path.name
        assert Path(path).suffix in (".jsonl", ".gz")


def test_the_pawns_optima_figures_in_the_readmes_are_those_of_their_files():
    """README.md and data/README.md quote how many pawns_courts=all optima are proven and
    where the median of all 1,000 lies: `usurper catalogue stats` over the files of
    bench/results/adaman-pawns-optimum prints the same."""
    root = Path(__file__).resolve().parent.parent
    files = sorted((root / "bench" / "results" / "adaman-pawns-optimum").glob("*.jsonl"))
    summary = catalogue.summarise(catalogue.read_all(files))
    low, high = summary["optimum_median"]
    median = f"within [{low:g}, {high:g}]" if low != high else f"is {low:g}"
    readme = (root / "README.md").read_text(encoding="utf-8")
    assert f"`pawns_courts=all` {summary['proven_scores']:,} proven so far, the median of all 1,000 {median}" in readme
    data = " ".join((root / "data" / "README.md").read_text(encoding="utf-8").split())
    assert f"{summary['proven_scores']:,} so far with 300 s" in data and f"median of all 1,000 {median}" in data
