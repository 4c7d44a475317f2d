"""The question a catalogue answers (Job), one seed answered (solve_seed), and the row format.

A row: {"seed", "outcome" (WON / LOST / UNDECIDED / ERROR), "score" (the proven optimum or
null), "best" (the score of the best line found, replayed before the row is written),
"bound" (a proven upper bound on the optimum, where one is known but not met),
"states", "seconds", "first_move", "engine", "stopped" (the limit that ended a search that
did not finish)}, and "error" on an ERROR row.  A graded catalogue (mode "grade",
solver/grade.py) adds "grade", "ladder" (every play, with its moves) and "narrowness"; its
"outcome" is the exact search's verdict, or WON where a play won before the search decided.  The game comes
from the caller's builder (Job.build), so the catalogue never reaches for a game registry.
"""

from __future__ import annotations

import contextlib
import functools
import math
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path

from games.base import LOST, UNDECIDED, WON, EngineError, Game, UsurperError
from solver.analysis import analyse, check_floor, check_replacing, engines_of
from solver.grade import check_gradable, grade_deal, ladder_of
from solver.search import Budget
from solver.verify import check_claim

ERROR = "ERROR"


OUTCOMES = (WON, LOST, UNDECIDED, ERROR)


FORMAT = "usurper-catalogue"


FORMAT_VERSION = 1


#: What a catalogue can ask of each seed: its optimum, whether it can be won, or its grade.
CATALOGUE_MODES = ("optimal", "winnable", "grade")


#: The header fields that shape the answers: a resumed run must ask the same question.
QUESTION_FIELDS = ("format", "version", "game", "variants", "mode", "engine", "time_limit", "max_states",
                   "max_memory_mb", "verdict_limit", "replace_when_full", "at_least", "ladder")
#: The question fields a header may leave out (those added later), and what their absence means.
QUESTION_DEFAULTS = {"replace_when_full": False, "at_least": 0, "ladder": None}


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
    #: Builds the game from its name and variant words: a top-level function (the caller's
    #: game registry), so that the Job pickles to workers by reference.
    build: Callable[[str, Sequence[str]], Game]
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
    #: A table at its cap replaces entries instead of ending the search (tree search only).
    replace_when_full: bool = False
    #: Mode optimal: the optimum only where it reaches this score, else a proven bound below
    #: it (solver.search.solve's floor; 0: the optimum always).
    at_least: int = 0

    def budget(self) -> Budget:
        return Budget(time_limit=self.time_limit, max_states=self.max_states, max_memory_mb=self.max_memory_mb,
                      replace_when_full=self.replace_when_full)

    def verdict_budget(self) -> Budget:
        return Budget(time_limit=self.verdict_limit, max_states=self.max_states, max_memory_mb=self.max_memory_mb,
                      replace_when_full=self.replace_when_full)

    def header(self) -> dict:
        return {
            "format": FORMAT, "version": FORMAT_VERSION, "game": self.game, "variants": list(self.variants),
            "mode": self.mode, "engine": self.engine, "time_limit": self.time_limit, "max_states": self.max_states,
            "max_memory_mb": self.max_memory_mb, "verdict_limit": self.verdict_limit,
            # only when set, so that the files made before it existed still match their runs
            **({"replace_when_full": True} if self.replace_when_full else {}),
            **({"at_least": self.at_least} if self.at_least else {}),
            **({"ladder": ladder_of(self.game).text} if self.mode == "grade" else {}), "created_by": ENGINE_VERSION,
        }

    @property
    def title(self) -> str:
        return f"{self.game} ({','.join(self.variants) or 'standard'})"


@dataclass
class Catalogue:
    """A catalogue as read: its header and its rows by seed; `sources`, the files read (one,
    or a main file and those that answered its undecided seeds again)."""

    path: Path
    header: dict
    rows: dict[int, dict] = field(default_factory=dict)
    sources: tuple[Path, ...] = ()

    @property
    def title(self) -> str:
        return f"{self.header['game']} ({','.join(self.header['variants']) or 'standard'})"


def make_job(build: Callable[[str, Sequence[str]], Game], game_name: str, variants: Iterable[str] = (),
             mode: str = "optimal", engine: str = "auto", time_limit: float | None = 60.0,
             max_states: int | None = None, max_memory_mb: int | None = 4096,
             verdict_limit: float | None = None, replace_when_full: bool = False, at_least: int = 0) -> Job:
    """A checked Job: the game and its variants exist (named canonically) and are a
    one-player game (a catalogue row is one optimum per seed), the mode is known, and the
    engine is one this game and variant offer."""
    game = build(game_name, list(variants))
    if game.game_type.max_players > 1:
        raise UsurperError(f"{game.name} has no catalogue: a deal of several players is asked its questions seat by "
                           f"seat (usurper solve {game.name} --seed N --seat S), not one optimum per seed")
    for name, seconds in (("time_limit", time_limit), ("verdict_limit", verdict_limit)):
        # NaN or inf would mean no limit, and is not JSON: the header could not be read back.
        if seconds is not None and not (isinstance(seconds, (int, float)) and math.isfinite(seconds) and seconds > 0):
            raise UsurperError(f"{name} must be a finite number of seconds above 0, not {seconds!r}")
    if mode not in CATALOGUE_MODES:
        raise UsurperError(f"unknown mode {mode!r} (known: {', '.join(CATALOGUE_MODES)})")
    if mode == "grade":
        _check_grading(game, engine, time_limit, max_states, verdict_limit, replace_when_full, at_least)
    else:
        _check_engine(game, mode, engine)
    if verdict_limit is not None and mode != "optimal":
        raise UsurperError("--verdict-limit only applies to mode optimal (mode winnable decides the verdict)")
    check_replacing(game, replace_when_full)
    if not isinstance(at_least, int) or at_least < 0:
        raise UsurperError(f"at_least must be a score of 0 or more, not {at_least!r}")
    check_floor(game, mode, at_least)
    return Job(game.name, build, canonical_variants(game), mode, engine, time_limit, max_states, max_memory_mb,
               verdict_limit, replace_when_full, at_least)


def canonical_variants(game: Game) -> tuple[str, ...]:
    """The game's variant words in the game's own canonical order; () for the standard game."""
    return () if game.variant == "standard" else tuple(game.variant.split(","))


def solve_seed(job: Job, seed: int) -> dict:
    """One catalogue row: deal `seed`, solve it, replay the line, report.  Any exception
    becomes an ERROR row carrying its message, so that one bad seed never stops a run.
    Top-level (picklable), so a process pool and a Dask cluster can both run it."""
    started = time.perf_counter()
    try:
        game = _game(job)
        state = game.initial_state(game.deal_from_seed(seed))
        if job.mode == "grade":
            return grade_row(game, state, seed, started)
        result = analyse(game, state, job.mode, job.budget(), job.engine, at_least=job.at_least)
        states = result.stats.states
        if result.verdict == UNDECIDED and job.verdict_limit is not None:
            verdict = analyse(game, state, "winnable", job.verdict_budget(), job.engine)
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
            # where the optimum is not proven but bounded: the bound
            **({"bound": result.upper_bound} if result.score is None and result.upper_bound is not None else {}),
            **({"stopped": result.exhausted} if result.exhausted else {}),
        }
    except Exception as exc:  # noqa: BLE001 - recorded in the row, the run goes on
        return error_row(job, seed, exc, started)


def grade_row(game: Game, state, seed: int, started: float) -> dict:
    """A graded catalogue's row: the grade, every play of the ladder and the narrowness."""
    report = grade_deal(game, state, seed)
    won_play = next((play for play in report.ladder if play.won), None)
    outcome = WON if won_play is not None else str(report.verdict)
    return {
        "seed": seed, "outcome": outcome, "score": None,
        "best": won_play.score if won_play is not None else None,
        "states": None, "seconds": _since(started),
        "first_move": game.format_move(state, report.winning_line[0]) if report.winning_line else None,
        "engine": f"auto {ENGINE_VERSION}", **report.as_dict(),
    }


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


def _since(started: float) -> float:
    return round(time.perf_counter() - started, 4)


def _game(job: Job) -> Game:
    """One Game per worker thread and question, built once: building Adaman's bound tables
    costs ~20 ms, a lot next to a quick solve.  A Game holds rules and parameters (and
    caches keyed by deal), so reusing it changes no answer; one per thread, because a Dask
    worker may run several seeds at once in threads."""
    return _game_of_thread(job.build, job.game, job.variants, threading.get_ident())


@functools.lru_cache(maxsize=64)
def _game_of_thread(build: Callable, name: str, variants: tuple[str, ...], thread: int) -> Game:
    return build(name, variants)


def probe_engine(job: Job) -> None:
    """A one-state search of seed 0 in this process, for what it tells the user on the way:
    a note such as "the compiled engine is not built" is then printed here, once, rather than
    by every worker process.  Any error is left for the seeds' own rows to report."""
    with contextlib.suppress(Exception):  # only the note is wanted here
        game = _game(job)
        mode = "winnable" if job.mode == "grade" else job.mode
        analyse(game, game.initial_state(game.deal_from_seed(0)), mode, Budget(max_states=1), job.engine)


def _check_grading(game: Game, engine: str, time_limit, max_states, verdict_limit, replace_when_full,
                   at_least) -> None:
    """A grade is asked with the ladder's own budgets (state counts, so that it repeats on any
    machine): the search options of the other modes do not apply."""
    check_gradable(game)
    given = [name for name, value, default in (("--engine", engine, "auto"), ("--time-limit", time_limit, None),
                                               ("--max-states", max_states, None),
                                               ("--verdict-limit", verdict_limit, None),
                                               ("--replace-when-full", replace_when_full, False),
                                               ("--at-least", at_least, 0)) if value != default]
    if given:
        raise UsurperError(f"mode grade plays and searches with fixed budgets of states; {', '.join(given)} "
                           "does not apply to it")


def _check_engine(game: Game, mode: str, engine: str) -> None:
    """Refuse, before any file is made, an engine this game or variant does not offer."""
    if engine not in engines_of(game):
        raise UsurperError(f"unknown engine {engine!r} for {game.name} (known: {', '.join(engines_of(game))})")
    if engine == "compiled":  # a one-state search asks the solver whether the engine is there
        try:
            analyse(game, game.initial_state(game.deal_from_seed(0)), mode, Budget(max_states=1), engine)
        except EngineError as exc:
            raise UsurperError(str(exc)) from None
