"""Catalogues: every seed of a range solved, one JSON line per seed, resumable, in parallel.

A catalogue file is JSON Lines.  Line 1 is a header naming the question every row answers
(game, variants in canonical order, mode, engine, budget); each further line is one seed:

    {"seed": 5, "outcome": "WON", "score": 95, "best": 95, "states": 838568, "seconds": 0.7591,
     "first_move": "Painter <- Battle", "engine": "compiled usurper-0.1.0"}

`outcome` is the solver's verdict as it stands (WON / LOST / UNDECIDED) or ERROR, with the
message in `error`; `score` is the proven optimum (null when not proven, and always in mode
winnable), `best` the score of the best line found, which was replayed through the rules
(`solver.verify.check_claim`) before the row was written; `first_move` is that line's first
move.  Rows are written in the order seeds finish; a completed run leaves them sorted.

Safe against being killed at any moment: only the parent process writes, each row with one
`os.write` of a whole line on an O_APPEND descriptor followed by fsync, so a kill -9 can
cut at most the last line short, and reopening the file drops such a line before
appending.  Re-running the same command skips the seeds already there; a run with other
parameters is refused, naming the difference.  The solver never learns a game's rules
here: a seed goes through `games.make_game`, `solve` and `check_claim` like any deal.
"""

from __future__ import annotations

import contextlib
import functools
import glob
import json
import multiprocessing
import os
import random
import signal
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

from games import make_game
from games.base import EngineError, Game, UsurperError
from solver.search import LOST, UNDECIDED, WON, Budget, solve
from solver.stats import median, percentile, wilson_interval
from solver.verify import check_claim

ERROR = "ERROR"
OUTCOMES = (WON, LOST, UNDECIDED, ERROR)
FORMAT = "usurper-catalogue"
FORMAT_VERSION = 1
#: The header fields that shape the answers: a resumed run must ask the same question.
QUESTION_FIELDS = ("format", "version", "game", "variants", "mode", "engine", "time_limit", "max_states",
                   "max_memory_mb", "verdict_limit")
#: Seeds in flight per worker: enough to keep every worker busy, few enough that an
#: interrupted run loses little and a range of 100,000 seeds is never submitted at once.
WINDOW_PER_WORKER = 4
#: Seconds to wait for a Dask scheduler before giving up with one line.
SCHEDULER_TIMEOUT = 10.0
#: Where the shipped catalogues live (the repository's data/, next to the packages).
SHIPPED_DIR = Path(__file__).resolve().parent.parent / "data" / "catalogue"


def _package_version() -> str:
    try:
        return metadata.version("usurper")
    except metadata.PackageNotFoundError:
        return "unknown"


#: Which code answered a row: the installed usurper release, written beside the engine.
ENGINE_VERSION = f"usurper-{_package_version()}"


@dataclass(frozen=True)
class Job:
    """The question every row of one catalogue answers: game, variants, mode, engine, budget.
    Small and picklable: it travels to every worker, in a process pool or on a cluster."""

    game: str
    variants: tuple[str, ...] = ()
    mode: str = "optimal"
    engine: str = "auto"
    time_limit: float | None = 60.0
    max_states: int | None = None
    max_memory_mb: int | None = 4096
    #: Mode optimal: seconds for a winnability search when the optimal one ran out before
    #: it knew whether the deal is won (None: no second search).  Proving an optimum
    #: costs far more than deciding the deal, so a short optimal search plus this one
    #: decides almost every deal at a fraction of the time.
    verdict_limit: float | None = None

    def budget(self) -> Budget:
        return Budget(time_limit=self.time_limit, max_states=self.max_states, max_memory_mb=self.max_memory_mb)

    def verdict_budget(self) -> Budget:
        return Budget(time_limit=self.verdict_limit, max_states=self.max_states, max_memory_mb=self.max_memory_mb)

    def header(self) -> dict:
        return {
            "format": FORMAT, "version": FORMAT_VERSION, "game": self.game, "variants": list(self.variants),
            "mode": self.mode, "engine": self.engine, "time_limit": self.time_limit, "max_states": self.max_states,
            "max_memory_mb": self.max_memory_mb, "verdict_limit": self.verdict_limit, "created_by": ENGINE_VERSION,
        }

    @property
    def title(self) -> str:
        return f"{self.game} ({','.join(self.variants) or 'standard'})"


@dataclass
class Catalogue:
    """A catalogue file as read: its header and its rows by seed."""

    path: Path
    header: dict
    rows: dict[int, dict] = field(default_factory=dict)

    @property
    def title(self) -> str:
        return f"{self.header['game']} ({','.join(self.header['variants']) or 'standard'})"


@dataclass
class RunReport:
    """What one run did: the seeds asked for, those already there, those added, and the
    outcomes over the whole range."""

    path: Path
    seeds: int
    already: int
    added: int
    outcomes: Counter


class Interrupted(Exception):
    """The user stopped a run (Ctrl-C); every row written so far stays in the file."""

    def __init__(self, path: Path, done: int, total: int):
        super().__init__(f"interrupted; {done} of {total} seeds done, re-run the same command to resume")
        self.path, self.done, self.total = path, done, total


def make_job(game_name: str, variants: Iterable[str] = (), mode: str = "optimal", engine: str = "auto",
             time_limit: float | None = 60.0, max_states: int | None = None,
             max_memory_mb: int | None = 4096, verdict_limit: float | None = None) -> Job:
    """A checked Job: the game and its variants exist (named canonically), the mode is
    known, and the engine is one this game and variant offer."""
    game = make_game(game_name, list(variants))
    if mode not in ("optimal", "winnable"):
        raise UsurperError(f"unknown mode {mode!r} (known: optimal, winnable)")
    _check_engine(game, mode, engine)
    if verdict_limit is not None and mode != "optimal":
        raise UsurperError("--verdict-limit only applies to mode optimal (mode winnable decides the verdict)")
    return Job(game.name, canonical_variants(game), mode, engine, time_limit, max_states, max_memory_mb,
               verdict_limit)


def canonical_variants(game: Game) -> tuple[str, ...]:
    """The game's variant words in the game's own canonical order; () for the standard game."""
    return () if game.variant == "standard" else tuple(game.variant.split(","))


def solve_seed(job: Job, seed: int) -> dict:
    """One catalogue row: deal `seed`, solve it, replay the line, report.  Any exception
    becomes an ERROR row carrying its message, so that one bad seed never stops a run.
    Top-level (picklable), so a process pool and a Dask cluster can both run it."""
    started = time.perf_counter()
    try:
        game = _game(job.game, job.variants)
        state = game.initial_state(game.deal_from_seed(seed))
        result = solve(game, state, job.mode, job.engine, job.budget())
        states = result.stats.states
        if result.verdict == UNDECIDED and job.verdict_limit is not None:
            verdict = solve(game, state, "winnable", job.engine, job.verdict_budget())
            states += verdict.stats.states
            if verdict.verdict == WON or (verdict.verdict == LOST and result.line_score is None):
                result.line, result.line_score = verdict.line, verdict.line_score
            result.verdict = verdict.verdict
        if result.line_score is not None:  # every line is replayed before it is recorded
            check_claim(game, state, result.line, result.verdict == WON, result.line_score)
        return {
            "seed": seed, "outcome": result.verdict, "score": result.score, "best": result.line_score,
            "states": states, "seconds": _since(started),
            "first_move": game.format_move(state, result.line[0]) if result.line else None,
            "engine": f"{result.engine} {ENGINE_VERSION}",
        }
    except Exception as exc:  # noqa: BLE001 - recorded in the row, the run goes on
        return error_row(job, seed, exc, started)


def error_row(job: Job, seed: int, error: BaseException | str, started: float | None = None) -> dict:
    """The row of a seed that could not be answered, with the reason on one line."""
    if isinstance(error, BaseException):
        text = str(error) if isinstance(error, UsurperError) else f"{type(error).__name__}: {error}"
    else:
        text = error
    return {
        "seed": seed, "outcome": ERROR, "score": None, "best": None, "states": None,
        "seconds": _since(started) if started is not None else 0.0, "first_move": None,
        "engine": f"{job.engine} {ENGINE_VERSION}", "error": " ".join(text.split()),
    }


def run(path: str | os.PathLike, job: Job, seeds: Iterable[int], workers: int | None = None,
        scheduler: str | None = None,
        on_start: Callable[[int, Iterable[dict]], None] = lambda todo, rows: None,
        on_row: Callable[[dict], None] = lambda row: None,
        solve_one: Callable[[Job, int], dict] = solve_seed) -> RunReport:
    """Solve every seed of `seeds` not yet in the catalogue at `path`, appending one row each.

    `workers`: processes of a local pool (default: every core; 1 solves in this process).
    `scheduler`: the address of a running Dask scheduler instead; the same rows come back.
    `on_start(todo, rows already in the file)` is called once before solving, and
    `on_row(row)` after each row is safely on disk.  `solve_one` is the per-seed function
    (a top-level function, so that it can be pickled).  Ctrl-C raises Interrupted.
    Everything is checked before the file is created, so a refused run leaves no file.
    Worker processes start by forkserver (spawn where there is none), so a script that
    calls this must guard its own top level with `if __name__ == "__main__":`.
    """
    path = Path(path)
    seeds = list(dict.fromkeys(seeds))
    if workers is not None and workers < 1:
        raise UsurperError(f"--workers must be 1 or more, not {workers}")
    if scheduler is not None and workers is not None:
        raise UsurperError("give --workers (a local pool) or --scheduler (a Dask cluster), not both")
    workers = workers or os.cpu_count() or 1
    _check_existing(path, job)  # a foreign or mismatched file is refused before anyone is contacted
    client = _connect(scheduler) if scheduler else None
    try:
        with contextlib.closing(_Writer.open(path, job)) as book:
            todo = [seed for seed in seeds if seed not in book.rows]
            already = len(seeds) - len(todo)
            on_start(len(todo), book.rows.values())
            if client is not None:
                rows = _rows_from_dask(client, job, todo, solve_one)
            elif workers == 1 or len(todo) <= 1:
                rows = _rows_in_process(job, todo, solve_one)
            else:
                rows = _rows_from_pool(job, todo, min(workers, len(todo)), solve_one)
            added = 0
            try:
                with contextlib.closing(rows):
                    for row in rows:
                        if book.append(row):
                            added += 1
                            on_row(row)
            except KeyboardInterrupt:
                raise Interrupted(path, sum(seed in book.rows for seed in seeds), len(seeds)) from None
            book.sort()
            outcomes = Counter(book.rows[seed]["outcome"] for seed in seeds)
    finally:
        if client is not None:
            client.close()
    return RunReport(path, len(seeds), already, added, outcomes)


def read(path: str | os.PathLike) -> Catalogue:
    """Read a catalogue file.  A last line cut short (a run killed mid-write) is ignored;
    anything else that is not a catalogue raises UsurperError naming the file and line."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise UsurperError(f"cannot read catalogue {path}: {exc.strerror or exc}") from None
    catalogue, _, _ = _parse(path, data)
    return catalogue


def undecided_seeds(catalogue: Catalogue) -> list[int]:
    """The seeds with no verdict (UNDECIDED or ERROR): what a longer search should retry."""
    return sorted(seed for seed, row in catalogue.rows.items() if row["outcome"] in (UNDECIDED, ERROR))


def seed_list(seeds: Iterable[int]) -> str:
    """Seeds as the --seeds text that names exactly them: runs written A-B, joined by commas."""
    parts: list[str] = []
    run: list[int] = []
    for seed in sorted(seeds):
        if run and seed == run[-1] + 1:
            run.append(seed)
            continue
        if run:
            parts.append(f"{run[0]}-{run[-1]}" if len(run) > 1 else str(run[0]))
        run = [seed]
    if run:
        parts.append(f"{run[0]}-{run[-1]}" if len(run) > 1 else str(run[0]))
    return ",".join(parts)


def shipped_catalogue(job: Job) -> Path:
    """The catalogue shipped in data/catalogue/ for this game and variant (may not exist)."""
    suffix = "" if not job.variants else "." + "+".join(job.variants).replace(":", "-").replace("=", "-")
    return SHIPPED_DIR / f"{job.game}{suffix}.jsonl"


def check_matches(catalogue: Catalogue, job: Job) -> None:
    """Refuse a catalogue of another game or variant than `job`'s."""
    header = catalogue.header
    if header["game"] != job.game or tuple(header["variants"]) != job.variants:
        raise UsurperError(f"{catalogue.path} is a catalogue of {catalogue.title}, not of {job.title}")


def summarise(catalogue: Catalogue) -> dict:
    """The figures of a catalogue: outcomes, win rate with its Wilson 95 % interval, the
    distribution of proven scores, solve-time percentiles and states.

    The interval is honest about the seeds not decided: its low end is the Wilson low end
    of won / all seeds, as if every UNDECIDED (and ERROR) seed were lost; its high end is
    the Wilson high end of (won + undecided + errors) / all seeds, as if each were won.
    """
    rows = list(catalogue.rows.values())
    if not rows:
        raise UsurperError(f"{catalogue.path} holds no seeds yet")
    count = len(rows)
    outcomes = Counter({outcome: 0 for outcome in OUTCOMES})
    outcomes.update(row["outcome"] for row in rows)
    won, lost = outcomes[WON], outcomes[LOST]
    unknown = count - won - lost
    low, _ = wilson_interval(won, count)
    _, high = wilson_interval(won + unknown, count)
    scores = Counter(row["score"] for row in rows if row.get("score") is not None)
    seconds = [row["seconds"] for row in rows if row.get("seconds") is not None]
    states = [row["states"] for row in rows if row.get("states") is not None]
    header = catalogue.header
    return {
        "file": str(catalogue.path), "game": header["game"], "variants": header["variants"],
        "mode": header["mode"], "engine": header["engine"], "time_limit": header["time_limit"],
        "max_states": header["max_states"], "verdict_limit": header.get("verdict_limit"),
        "seeds": count, "first_seed": min(catalogue.rows), "last_seed": max(catalogue.rows),
        "outcomes": dict(outcomes),
        "win_rate": won / count, "win_rate_of_decided": won / (won + lost) if won + lost else None,
        "wilson_95": [low, high],
        "proven_scores": sum(scores.values()),
        "scores": {str(score): scores[score] for score in sorted(scores)},
        "seconds": _spread(seconds), "states": _spread(states),
        "engines": sorted({row["engine"] for row in rows if row.get("engine")}),
    }


def format_summary(summary: dict) -> list[str]:
    """The summary as the text `usurper catalogue stats` prints."""
    variant = ",".join(summary["variants"]) or "standard"
    budget = f"time limit {summary['time_limit']:g} s" if summary["time_limit"] is not None else "no time limit"
    if summary["max_states"] is not None:
        budget += f", at most {summary['max_states']:,} states"
    if summary.get("verdict_limit") is not None:
        budget += f", then winnability for {summary['verdict_limit']:g} s where undecided"
    outcomes = summary["outcomes"]
    low, high = summary["wilson_95"]
    decided = outcomes[WON] + outcomes[LOST]
    of_decided = (f" ({100 * summary['win_rate_of_decided']:.1f} % of the {decided:,} decided)"
                  if decided else "")
    lines = [
        f"{summary['file']}: {summary['game']} ({variant}), {summary['mode']}, engine {summary['engine']}, {budget}",
        f"seeds         {summary['seeds']:,} (seeds {summary['first_seed']}-{summary['last_seed']})",
        "outcomes      " + ", ".join(f"{outcomes[name]:,} {name}" for name in OUTCOMES),
        (f"win rate      {100 * summary['win_rate']:.1f} % of all seeds{of_decided}; Wilson 95 % "
         f"[{100 * low:.1f}, {100 * high:.1f}] % (undecided counted lost for the low end, won for the high)"),
    ]
    for name, unit in (("seconds", ".3f"), ("states", ",.0f")):
        spread = summary[name]
        if spread:
            lines.append(f"{name:<14}median {spread['median']:{unit}}  p90 {spread['p90']:{unit}}  "
                         f"p99 {spread['p99']:{unit}}  max {spread['max']:{unit}}")
    lines.append(f"scores        {summary['proven_scores']:,} proven" +
                 (":" if summary["scores"] else " (none: mode winnable, or no search finished)"))
    widest = max(summary["scores"].values(), default=1)
    for score, count in summary["scores"].items():
        bar = "#" * max(1, round(40 * count / widest))
        lines.append(f"  {score:>5} {count:>8,}  {bar}")
    return lines


def plot(catalogue: Catalogue, out: str | os.PathLike) -> Path:
    """A PNG with two panels, the proven scores' histogram (won and lost stacked) and the
    distribution of solve times (log scale), written atomically to `out`."""
    from matplotlib.figure import Figure  # lazily: only --plot needs matplotlib

    rows = list(catalogue.rows.values())
    if not rows:
        raise UsurperError(f"{catalogue.path} holds no seeds yet")
    figure = Figure(figsize=(11, 4.5), layout="constrained")
    scores_axes, times_axes = figure.subplots(1, 2)
    proven = [row for row in rows if row.get("score") is not None]
    if proven:
        low = min(row["score"] for row in proven)
        high = max(row["score"] for row in proven)
        bins = [value - 0.5 for value in range(low, high + 2)]
        stacks = [[row["score"] for row in proven if row["outcome"] == outcome] for outcome in (WON, LOST)]
        scores_axes.hist(stacks, bins=bins, stacked=True, label=["won", "lost"], color=["tab:green", "tab:red"])
        scores_axes.legend()
    else:
        scores_axes.text(0.5, 0.5, "no proven scores", ha="center", va="center", transform=scores_axes.transAxes)
    scores_axes.set(title=f"Optimal score, {len(proven):,} of {len(rows):,} seeds proven", xlabel="score",
                    ylabel="seeds")
    seconds = [max(row["seconds"], 1e-4) for row in rows if row.get("seconds") is not None]
    if seconds:
        low, high = min(seconds), max(seconds)
        high = max(high, low * 1.01)
        steps = 40
        bins = [low * (high / low) ** (step / steps) for step in range(steps + 1)]
        times_axes.hist(seconds, bins=bins, color="tab:blue")
        times_axes.set_xscale("log")
    limit = catalogue.header.get("time_limit")
    if limit:
        times_axes.axvline(limit, color="black", linestyle="--", label=f"time limit {limit:g} s")
        times_axes.legend()
    times_axes.set(title="Solve time (replay included)", xlabel="seconds (log scale)", ylabel="seeds")
    figure.suptitle(f"{catalogue.title}: {len(rows):,} seeds, {catalogue.header['mode']}")
    return _write_atomically(Path(out), lambda handle: figure.savefig(handle, format="png", dpi=100))


def pick(catalogue: Catalogue, winnable: bool = False, min_score: int | None = None,
         rng: random.Random | None = None) -> tuple[dict, int]:
    """A row chosen uniformly among those that match, and how many matched: won (with
    `winnable`), and a score of at least `min_score` known reachable (the proven optimum,
    or else the score of the verified best line).  ERROR rows are never picked."""
    candidates = [row for _, row in sorted(catalogue.rows.items())
                  if row["outcome"] != ERROR and (not winnable or row["outcome"] == WON)
                  and (min_score is None or (reachable_score(row) or -1) >= min_score)]
    if not candidates:
        wanted = " and ".join(filter(None, ["won" if winnable else "",
                                            f"score >= {min_score}" if min_score is not None else ""])) or "any"
        raise UsurperError(f"no seed in {catalogue.path} matches ({wanted}) among its {len(catalogue.rows):,} seeds")
    return (rng or random.Random()).choice(candidates), len(candidates)


def reachable_score(row: dict) -> int | None:
    """A score known reachable from the deal: the proven optimum, else the best line's."""
    return row["score"] if row.get("score") is not None else row.get("best")


class Tally:
    """Running counts for a progress bar: the win rate over the seeds decided so far."""

    def __init__(self, rows: Iterable[dict] = ()):
        self.outcomes: Counter = Counter()
        for row in rows:
            self.add(row)

    def add(self, row: dict) -> None:
        self.outcomes[row["outcome"]] += 1

    def text(self) -> str:
        won, decided = self.outcomes[WON], self.outcomes[WON] + self.outcomes[LOST]
        rate = f"{100 * won / decided:.1f} %" if decided else "-"
        extra = "".join(f", {self.outcomes[name]} {name.lower()}" for name in (UNDECIDED, ERROR)
                        if self.outcomes[name])
        return f"won {won}/{decided} decided = {rate}{extra}"


# ----- the file ---------------------------------------------------------------------------

class _Writer:
    """The catalogue file opened for appending, locked against a second run on it."""

    def __init__(self, path: Path, fd: int, catalogue: Catalogue, header_line: bytes, order: list[int]):
        self.path, self.fd, self.catalogue = path, fd, catalogue
        self.rows = catalogue.rows
        self.header_line = header_line
        self.order = order

    @classmethod
    def open(cls, path: Path, job: Job) -> _Writer:
        """Create the file with its header, or reopen it to resume: check the header,
        drop a last line cut short, and read the rows already there."""
        if path.parent and not path.parent.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o644)
        except OSError as exc:
            raise UsurperError(f"cannot open catalogue {path}: {exc.strerror or exc}") from None
        try:
            _lock(fd, path)
            for stale in path.parent.glob(f".{glob.escape(path.name)}.*.tmp"):  # a sort cut short by a kill
                stale.unlink(missing_ok=True)
            data = _read_all(fd)
            if _is_new(data):
                os.ftruncate(fd, 0)
                header_line = (json.dumps(job.header()) + "\n").encode()
                _write_line(fd, header_line)
                _fsync_dir(path.parent)
                data = header_line
            catalogue, kept, order = _parse(path, data)
            _check_header(catalogue, job)
            if kept < len(data):  # a row cut short by a kill mid-write
                os.ftruncate(fd, kept)
                os.fsync(fd)
            return cls(path, fd, catalogue, data[: data.index(b"\n") + 1], order)
        except BaseException:
            os.close(fd)
            raise

    def close(self) -> None:
        os.close(self.fd)

    def append(self, row: dict) -> bool:
        """Write one row durably; a seed already present is never written twice."""
        seed = row["seed"]
        if seed in self.rows:
            return False
        _write_line(self.fd, (json.dumps(row) + "\n").encode())
        self.rows[seed] = row
        self.order.append(seed)
        return True

    def sort(self) -> None:
        """Leave the rows in seed order (diff-friendly), by an atomic rewrite, if needed."""
        if self.order == sorted(self.order) and len(self.order) == len(set(self.order)):
            return
        body = b"".join((json.dumps(self.rows[seed]) + "\n").encode() for seed in sorted(self.rows))
        _write_atomically(self.path, lambda handle: handle.write(self.header_line + body))
        self.order = sorted(self.rows)


def _check_existing(path: Path, job: Job) -> None:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return
    except OSError as exc:
        raise UsurperError(f"cannot read catalogue {path}: {exc.strerror or exc}") from None
    if not _is_new(data):
        _check_header(_parse(path, data)[0], job)


def _is_new(data: bytes) -> bool:
    """An empty file, or one whose header was cut short: nothing in it to keep."""
    marker = b'{"format": "' + FORMAT.encode() + b'"'
    return not data.strip() or (b"\n" not in data and (data.startswith(marker) or marker.startswith(data)))


def _parse(path: Path, data: bytes) -> tuple[Catalogue, int, list[int]]:
    """The catalogue in `data`, how many bytes of it are whole lines, and the seeds in file
    order.  A last line without its newline is a write cut short: ignored, never an error."""
    kept = data.rfind(b"\n") + 1
    lines = data[:kept].split(b"\n")[:-1]
    if not lines:
        raise UsurperError(f"{path} is not a usurper catalogue (no header line)")
    try:
        header = json.loads(lines[0])
    except (ValueError, UnicodeDecodeError):
        raise UsurperError(f"{path} is not a usurper catalogue (line 1 is not JSON)") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise UsurperError(f"{path} is not a usurper catalogue (line 1 is not its header)")
    if header.get("version") != FORMAT_VERSION:
        raise UsurperError(f"{path}: catalogue format version {header.get('version')!r} is not "
                           f"{FORMAT_VERSION}, the one this usurper reads")
    missing = [name for name in QUESTION_FIELDS if name not in header]
    if missing:
        raise UsurperError(f"{path}: the catalogue header lacks {', '.join(missing)}")
    rows: dict[int, dict] = {}
    order = []
    for number, line in enumerate(lines[1:], 2):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except (ValueError, UnicodeDecodeError):
            raise UsurperError(f"{path}: line {number} is not JSON") from None
        if (not isinstance(row, dict) or not isinstance(row.get("seed"), int) or isinstance(row["seed"], bool)
                or row["seed"] < 0 or row.get("outcome") not in OUTCOMES):
            raise UsurperError(f"{path}: line {number} is not a catalogue row (seed and outcome)")
        rows[row["seed"]] = row
        order.append(row["seed"])
    return Catalogue(path, header, rows), kept, order


def _check_header(catalogue: Catalogue, job: Job) -> None:
    """A resumed run must ask exactly the question the file answers."""
    wanted = job.header()
    differ = [name for name in QUESTION_FIELDS if catalogue.header.get(name) != wanted[name]]
    if differ:
        has = ", ".join(f"{name}={_show(catalogue.header.get(name))}" for name in differ)
        asks = ", ".join(f"{name}={_show(wanted[name])}" for name in differ)
        raise UsurperError(f"{catalogue.path} holds {has}, but this run asks {asks}: "
                           "re-run with the file's options, or write to another --out")


def _show(value: Any) -> str:
    if isinstance(value, list):
        return ",".join(value) or "standard"
    return "none" if value is None else f"{value:g}" if isinstance(value, float) else str(value)


def _write_line(fd: int, line: bytes) -> None:
    """One whole line on an O_APPEND descriptor, then fsync: on disk before anyone is told."""
    view = memoryview(line)
    while view:
        written = os.write(fd, view)
        view = view[written:]
    os.fsync(fd)


def _read_all(fd: int) -> bytes:
    os.lseek(fd, 0, os.SEEK_SET)
    chunks = []
    while chunk := os.read(fd, 1 << 20):
        chunks.append(chunk)
    return b"".join(chunks)


def _write_atomically(path: Path, write: Callable[[Any], Any]) -> Path:
    """Write a file through a temporary file beside it and os.replace: readers see the old
    file or the whole new one, never a part."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = None
    try:
        with tempfile.NamedTemporaryFile(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp",
                                         delete=False) as handle:
            temporary = handle.name
            write(handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        if temporary is not None:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
        raise
    _fsync_dir(path.parent)
    return path


def _fsync_dir(directory: Path) -> None:
    with contextlib.suppress(OSError):  # not every platform can fsync a directory
        fd = os.open(directory or ".", os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _lock(fd: int, path: Path) -> None:
    """One run per file: a second one (which could write a seed twice) is refused."""
    try:
        import fcntl
    except ImportError:  # no advisory locks here (Windows): one run at a time is on the user
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        raise UsurperError(f"{path} is being written by another usurper catalogue run") from None
    try:
        same = os.fstat(fd).st_ino == os.stat(path).st_ino
    except OSError:
        same = False
    if not same:  # the file was replaced (a run that just finished sorted it): refuse, re-run
        raise UsurperError(f"{path} changed while it was being opened; run the command again")


def _since(started: float) -> float:
    return round(time.perf_counter() - started, 4)


def _spread(values: list) -> dict:
    if not values:
        return {}
    return {"median": median(values), "p90": percentile(values, 0.9), "p99": percentile(values, 0.99),
            "max": max(values)}


# ----- the work ---------------------------------------------------------------------------

def _game(name: str, variants: tuple[str, ...]) -> Game:
    """One Game per worker thread and question, built once: building Adaman's bound tables
    costs ~20 ms, a lot next to a quick solve.  A Game holds rules and parameters (and
    caches keyed by deal), so reusing it changes no answer; one per thread, because a Dask
    worker may run several seeds at once in threads."""
    return _game_of_thread(name, variants, threading.get_ident())


@functools.lru_cache(maxsize=64)
def _game_of_thread(name: str, variants: tuple[str, ...], thread: int) -> Game:
    return make_game(name, variants)


def _check_engine(game: Game, mode: str, engine: str) -> None:
    """Refuse, before any file is made, an engine this game or variant does not offer."""
    from solver.search import ENGINES

    if engine not in ENGINES:
        raise UsurperError(f"unknown engine {engine!r} (known: {', '.join(ENGINES)})")
    if engine == "compiled":  # a one-state search asks the solver whether the engine is there
        try:
            solve(game, game.initial_state(game.deal_from_seed(0)), mode, engine, Budget(max_states=1))
        except EngineError as exc:
            raise UsurperError(str(exc)) from None


def _rows_in_process(job: Job, seeds: list[int], solve_one: Callable) -> Iterator[dict]:
    for seed in seeds:
        started = time.perf_counter()
        try:
            row = solve_one(job, seed)
        except Exception as exc:  # noqa: BLE001 - solve_seed catches its own; a custom solve_one may not
            row = error_row(job, seed, exc, started)
        yield row


def _rows_from_pool(job: Job, seeds: list[int], workers: int, solve_one: Callable) -> Iterator[dict]:
    """Rows from a local process pool, as they finish, with a bounded window of seeds in
    flight.  A worker that dies (killed, out of memory, a crash in compiled code) breaks
    the pool: the seeds that were in flight are then retried one by one, each in a pool of
    its own, so that only the seed that kills its worker becomes an ERROR row."""
    context = _mp_context()
    queue = iter(seeds)
    window = workers * WINDOW_PER_WORKER
    pool = _new_pool(workers, context)
    pending: dict = {}
    try:
        while True:
            while len(pending) < window and (seed := next(queue, None)) is not None:
                pending[pool.submit(solve_one, job, seed)] = seed
            if not pending:
                return
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            suspects = []
            for future in done:
                seed = pending.pop(future)
                problem = future.exception()
                if isinstance(problem, BrokenProcessPool):
                    suspects.append(seed)
                elif problem is None:
                    yield future.result()
                elif isinstance(problem, Exception):
                    yield error_row(job, seed, problem)
                else:
                    raise problem
            if suspects:
                suspects += pending.values()
                pending.clear()
                _stop_pool(pool)
                for seed in suspects:
                    yield _solve_alone(job, seed, solve_one, context)
                pool = _new_pool(workers, context)
    finally:
        if pending:
            _stop_pool(pool)
        else:
            pool.shutdown(wait=True)


def _solve_alone(job: Job, seed: int, solve_one: Callable, context) -> dict:
    """A seed in a pool of its own, after a worker died: if this worker dies too, the seed
    is what kills it (ERROR row); if no worker can even start, the run stops."""
    pool = _new_pool(1, context)
    try:
        try:
            pool.submit(_alive).result()
        except BrokenProcessPool:
            raise UsurperError("worker processes die as they start; the rows written are kept "
                               "(--workers 1 solves in this process)") from None
        started = time.perf_counter()
        try:
            return pool.submit(solve_one, job, seed).result()
        except BrokenProcessPool:
            return error_row(job, seed, "the worker process died solving this seed (killed, out of memory, or a "
                                        "crash in compiled code)", started)
        except Exception as exc:  # noqa: BLE001 - a custom solve_one that raised
            return error_row(job, seed, exc, started)
    finally:
        _stop_pool(pool)


def _alive() -> bool:
    return True


def _mp_context():
    """forkserver where there is one: workers start clean, whatever threads the parent runs."""
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


def _new_pool(workers: int, context) -> ProcessPoolExecutor:
    return ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_worker_ignores_ctrl_c)


def _worker_ignores_ctrl_c() -> None:
    """Ctrl-C reaches the whole process group; only the parent acts on it (and then stops
    the workers), so that no worker prints a traceback or returns a half-made row."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _stop_pool(pool: ProcessPoolExecutor) -> None:
    """Stop a pool now: pending seeds cancelled, running workers terminated."""
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14+
    if terminate is not None:
        with contextlib.suppress(Exception):
            terminate()
        return
    processes = list((getattr(pool, "_processes", None) or {}).values())  # no public way before 3.14
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        with contextlib.suppress(Exception):
            process.terminate()
    for process in processes:
        with contextlib.suppress(Exception):
            process.join(timeout=5)


def _connect(address: str):
    """A client of the Dask scheduler at `address`; one line when it cannot be reached."""
    try:
        from distributed import Client
    except ImportError:
        raise UsurperError("--scheduler needs dask.distributed: pip install 'dask[distributed]'") from None
    try:
        return Client(address, timeout=SCHEDULER_TIMEOUT, set_as_default=False)
    except Exception as exc:  # noqa: BLE001 - OSError, TimeoutError, ValueError for a bad address...
        detail = " ".join(str(exc).split()) or type(exc).__name__
        raise UsurperError(f"cannot reach the Dask scheduler at {address}: {detail}") from None


def _rows_from_dask(client, job: Job, seeds: list[int], solve_one: Callable) -> Iterator[dict]:
    """Rows from a Dask cluster, as they finish, with a bounded window of seeds in flight.
    A task that failed (it raised, or killed its workers: KilledWorker) is an ERROR row;
    losing the scheduler stops the run, keeping every row written."""
    from distributed import as_completed

    window = max(4, WINDOW_PER_WORKER * sum(client.nthreads().values()))
    queue = iter(seeds)
    in_flight: dict = {}

    def submit(seed: int):
        future = client.submit(solve_one, job, seed, pure=False)
        in_flight[future.key] = (future, seed)
        return future

    futures = as_completed([submit(seed) for seed in _take(queue, window)], loop=client.loop)
    try:
        for future in futures:
            _, seed = in_flight.pop(future.key)
            if future.status == "finished":
                yield future.result()
            elif future.status == "error":
                yield error_row(job, seed, future.exception())
            else:
                raise UsurperError(f"the Dask cluster lost seed {seed} ({future.status}); the rows written are "
                                   "kept, re-run the same command to resume")
            following = next(queue, None)
            if following is not None:
                futures.add(submit(following))
    finally:
        if in_flight:
            with contextlib.suppress(Exception):
                client.cancel([future for future, _ in in_flight.values()])


def _take(queue: Iterator[int], count: int) -> list[int]:
    return [seed for _, seed in zip(range(count), queue)]
