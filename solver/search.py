"""Depth-first search over a deal's full game tree, with a transposition table and budgets.

The search knows no game's rules: it walks states through the contract of `games.base`
(legal_moves / apply / outcome / key) and uses a game's optional hooks where offered.

Two questions, two modes:
- `optimal`: the best score reachable (a win always outscores a loss in every game here),
  with one line of play reaching it.  The table maps a state's key to an exact value, or,
  with bounds on, to a bound that is only trusted when it decides the comparison.
- `winnable`: stops at the first win; the table records states proved to have no win.

Outcomes are explicit, as in Solvitaire and Freecell Solver: WON and LOST only from a
search that finished (a complete win search that found none proves LOST even when the
optimum of the loss then runs out of budget); a search whose time, state or table budget
ran out says UNDECIDED (with the best line it had found, never presented as optimal).
`engine="plain"` is the baseline (no bounds); `engine="pruned"` adds the game's
score_upper_bound hook as branch and bound (with move_bounds, which rule children out
before they are made, and may_exceed, the finer test of a node the bound lets through) and
its search_moves (below the root);
`engine="cpsat"` also asks CP-SAT the covering problem the game states (`cover_problem`,
solver/cpsat.py) near the root; `engine="compiled"` hands the search to the game's
compiled_solve hook (Adaman and Royal Assassin: the "pruned" search in C, node for node;
EngineError when a game or variant has none); `engine="auto"` (the CLI's default) is
"compiled" where the game has it for the variant in use, else "pruned";
`engine="compiled-plain"` is the plain baseline in C, node for node (Adaman: side-by-side
benchmark runs need it to reach far enough for their state ratio to mean something;
EngineError elsewhere).
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from games.base import (
    LOST,
    UNDECIDED,
    WON,
    CompiledLimits,
    CompiledMissing,
    EngineError,
    Game,
    Schedule,
    UnsupportedGame,
    Verdict,
)
from solver.answers import (
    LEAST_SHARE,
    TABLE_MEMORY_TEXT,
    Budget,
    Limit,
    SolveResult,
    Stats,
    shared_budgets,
    state_budget_text,
)
from solver.cpsat import SECONDS_PER_BOUND, refined_upper_bound

#: The engines of this search (solver.analysis gives their meaning to every family).
ENGINES = ("auto", "plain", "pruned", "cpsat", "compiled", "compiled-plain")

__all__ = ["ENGINES", "LEAST_SHARE", "LOST", "UNDECIDED", "WON", "Budget", "BudgetExceeded", "SearchSettings",
           "SolveResult", "Stats", "Verdict", "check_single_player", "shared_budgets", "solve", "state_budget_text"]

#: With engine "cpsat", nodes this shallow whose fast bound does not cut them also ask the
#: game's refined (slower, CP-SAT) bound.
REFINED_BOUND_DEPTH = 1


@dataclass(frozen=True)
class SearchSettings:
    """How the search is scheduled: the solver's own choices, the same for every game.

    `lds_rounds`: rounds of limited discrepancy search (0, 1, ... departures from the move
    order) tried for a quick win before the complete search.  `first_pass_moves`: a won
    deal's value probes run first over a narrowed tree, the first this-many moves of each
    position whose move bound passes the floor (0: no first pass).  `level_probes`: a lost
    deal's optimum comes from level probes (else from value probes).  None of them changes
    an answer, only how soon it comes; tests switch them to check that.
    `keep_whole_refutations`: what a round of limited discrepancy search refuted whole is kept
    in the table for the later rounds and the complete search (find_win).  Within a budget of
    states the search order decides what is found, so a budgeted search that must replay as
    it was measured (the fair hint's samples) keeps the order it was measured with."""

    lds_rounds: int = 5
    first_pass_moves: int = 4
    level_probes: bool = True
    keep_whole_refutations: bool = True

    def schedule(self, replace_when_full: bool = False) -> Schedule:
        """The settings as the compiled skeleton reads them, with the budget's choice of
        what a full table does."""
        return Schedule(self.lds_rounds, self.first_pass_moves, self.level_probes, replace_when_full,
                        self.keep_whole_refutations)


DEFAULT_SETTINGS = SearchSettings()


#: What a table entry costs the Python engines, Adaman's int keys (measured: 145 bytes of
#: peak RSS per entry, the dict's resizes included).  Royal Assassin's tuple keys cost about
#: 450: the entries cap alone does not bound memory, so the Python engines also watch the
#: process's resident memory (`MemoryGuard`).
PYTHON_ENTRY_BYTES = 200
#: The share of --max-memory the compiled engines give their tables' slots (a growth's old and
#: new slots together); the rest is the search's own arrays and the process.
COMPILED_TABLE_SHARE = 0.9
#: The guard reads the process's memory once per this many new table entries (the search for
#: repeating positions: states).
MEMORY_CHECK_EVERY = 4096
#: What a dict's resize adds for a moment, per entry (its old and new arrays both live).
DICT_RESIZE_BYTES = 48


class MemoryGuard:
    """The process's resident memory may grow by at most `megabytes` during a search (so
    that --workers N x --max-memory fits the machine).  Growth is the larger of the peak's
    (which catches a spike between two checks) and the present size's (/proc/self/statm,
    where there is one): a process that solves several searches keeps the peak of an earlier
    one, and judged by the peak alone a later search would grow unseen up to it and then
    get its whole cap again.  Memory an earlier search freed that the allocator kept is still
    reused unseen; a catalogue therefore replaces a worker that keeps much.  Where the
    platform cannot say (no `resource` module), only the entries cap applies."""

    def __init__(self, megabytes: int | None):
        self.limit = None if megabytes is None else megabytes * 2**20
        self.start = self._peak() if self.limit is not None else None
        self.start_now = self.resident() if self.limit is not None else None

    @staticmethod
    def _peak() -> int | None:
        try:
            import resource
        except ImportError:
            return None
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak if sys.platform == "darwin" else peak * 1024  # bytes on macOS, KiB elsewhere

    @staticmethod
    def resident() -> int | None:
        """The process's resident memory now, in bytes (None where /proc cannot say)."""
        try:
            with open("/proc/self/statm") as handle:
                return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
        except (OSError, ValueError, IndexError, AttributeError):
            return None

    @staticmethod
    def available_mb() -> int | None:
        """The memory the machine has free now (MemAvailable), in MB; None where /proc cannot say."""
        try:
            with open("/proc/meminfo") as handle:
                for line in handle:
                    if line.startswith("MemAvailable:"):
                        return int(line.split()[1]) // 1024
        except (OSError, ValueError, IndexError):
            return None
        return None

    def grown(self) -> int:
        """Bytes the process has grown by since the search began."""
        growth = self._peak() - self.start
        now = self.resident()
        if now is not None and self.start_now is not None:
            growth = max(growth, now - self.start_now)
        return growth

    def exceeded(self, entries: int) -> bool:
        """Whether the growth so far, plus the next resize of a table of `entries`, passes the cap."""
        if self.start is None:
            return False
        return self.grown() + entries * DICT_RESIZE_BYTES > self.limit


class BudgetExceeded(Exception):
    """A budget ran out: `limit` says which, the message in words.  Caught inside solve(): UNDECIDED."""

    def __init__(self, limit: Limit, words: str):
        super().__init__(words)
        self.limit = limit


def check_single_player(game: Game) -> None:
    """This search walks a tree: one player, moves in turn, no chance, no position twice on
    a line.  Any other kind of game is refused in one line, naming what handles it."""
    kind = game.game_type
    if kind.max_players == 1 and not kind.simultaneous and kind.deterministic and not kind.repeats:
        return
    if kind.simultaneous or kind.max_players > 1:
        other = "use the simultaneous-move analysis (solver.simultaneous)"
    elif kind.repeats:
        other = "use the search for repeating positions (solver.cycles)"
    else:
        other = "no search here handles chance"
    raise UnsupportedGame(f"the single-player search cannot analyse {game.name} ({kind.describe()}); {other}")


def solve(game: Game, state: Any, mode: str = "optimal", engine: str = "pruned",
          budget: Budget = Budget(), settings: SearchSettings = DEFAULT_SETTINGS, at_least: int = 0) -> SolveResult:
    """Decide `state` of `game`: is a win reachable, and (mode 'optimal') the best score,
    or with `at_least` the best score where it reaches at_least, else a proof that it
    does not (score None, upper_bound below at_least): the refutations below the floor,
    most of a hard deal's proof, are skipped."""
    check_single_player(game)
    if mode not in ("optimal", "winnable") or engine not in ENGINES:
        raise ValueError(f"unknown mode {mode!r} or engine {engine!r}")
    if at_least < 0 or (at_least and mode != "optimal"):
        raise ValueError(f"at_least is a score to reach in mode 'optimal', not {at_least!r} in {mode!r}")
    return _bounded_above(game, state, _solve(game, state, mode, engine, budget, settings, at_least), at_least)


def _bounded_above(game: Game, state: Any, result: SolveResult, at_least: int) -> SolveResult:
    """An optimal search without its optimum still proves the root's bound (below any
    win's score once the loss is proven), and one that finished, below its floor, that
    nothing reaches the floor: the optimum lies between the best line's score and that
    bound, which is given where it says more than the highest score of the game."""
    if result.mode != "optimal" or result.score is not None or result.upper_bound is not None:
        return result
    bound = game.score_upper_bound(state)
    if result.verdict == LOST:
        bound = min(bound, game.lowest_win_score - 1)
    if at_least and not result.exhausted:
        bound = min(bound, at_least - 1)
    if bound < game.max_score:
        result.upper_bound = bound
    return result


def _solve(game: Game, state: Any, mode: str, engine: str, budget: Budget, settings: SearchSettings,
           at_least: int) -> SolveResult:
    finished = _finished(game, state, mode, engine)
    if finished is not None:
        return finished
    if engine in ("compiled", "auto", "compiled-plain"):  # the game's own compiled search
        try:
            result = _compiled(game, state, mode, budget, settings, at_least, plain=engine == "compiled-plain")
            if result is None:
                raise EngineError(f"no compiled engine for {game.name}")
            return result
        except EngineError as exc:
            if engine != "auto":
                raise
            if isinstance(exc, CompiledMissing):
                notice_once(f"usurper: note: {exc}; using the Python engine (slower)")
            engine = "pruned"  # auto: the same search in Python where C does not reach
    search = _Search(game, engine, budget, settings, at_least)
    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old_limit, 20_000))
    try:
        if mode == "optimal":
            return search.run_optimal(state)
        return search.run_winnable(state)
    finally:
        sys.setrecursionlimit(old_limit)


def _finished(game: Game, state: Any, mode: str, engine: str) -> SolveResult | None:
    """A position already over is its own answer, whatever the engine, counted as the plain
    baseline counts it: one state, valued once (one entry), never met again (no table hit);
    the bounded searches would count it again in each of their phases and meet it in their
    table in each round.  None while the game goes on."""
    started = time.perf_counter()
    outcome = game.outcome(state)
    if outcome is None:
        return None
    # The one line, empty, meets every bound: its score is the optimum, whatever the floor.
    score = outcome.score if mode == "optimal" else None
    named = engine if engine != "auto" else _auto_engine(game)
    return SolveResult(outcome.result, score, [], outcome.score, mode, named,
                       Stats(states=1, unique=1, seconds=time.perf_counter() - started))


def _auto_engine(game: Game) -> str:
    """The engine "auto" names: the game's compiled search where it has one."""
    return "compiled" if type(game).compiled_solve is not Game.compiled_solve else "pruned"


_NOTICES: set[str] = set()


def notice_once(text: str) -> None:
    """A note for the user on stderr, once per process (e.g. the compiled engine is missing),
    or once per run of several: see `noticed`."""
    if text not in _NOTICES:
        _NOTICES.add(text)
        print(text, file=sys.stderr)


def noticed() -> frozenset[str]:
    """The notes this process has printed.  Handed to worker processes (`mark_noticed`), so
    that a note the parent printed is not printed again by every worker."""
    return frozenset(_NOTICES)


def mark_noticed(texts: Iterable[str]) -> None:
    """Take `texts` as printed already: `notice_once` stays silent about them."""
    _NOTICES.update(texts)


def _compiled(game: Game, state: Any, mode: str, budget: Budget, settings: SearchSettings, at_least: int,
              plain: bool = False) -> SolveResult | None:
    """The game's compiled search under this budget, as a SolveResult (None: it has none);
    with `plain`, its plain baseline."""
    max_bytes, memory_words = compiled_table_bytes(budget.max_memory_mb)
    started = time.perf_counter()
    run = game.compiled_solve(state, mode, CompiledLimits(budget.time_limit, budget.max_states, budget.max_table,
                                                          max_bytes,
                                                          settings.schedule(budget.replace_when_full), plain,
                                                          at_least))
    if run is None:
        return None
    stats = Stats(run.states, run.table_hits, run.unique, run.max_depth, time.perf_counter() - started)
    limit, exhausted = {
        "": (None, ""), "states": (Limit.STATES, state_budget_text(budget.max_states)),
        "time": (Limit.TIME, budget.time_text()),
        "table": (Limit.TABLE, budget.entries_cap_text()), "memory cap": (Limit.MEMORY, memory_words),
        "memory": (Limit.MEMORY, TABLE_MEMORY_TEXT),
    }[run.exhausted]
    return SolveResult(Verdict(run.verdict), run.score, run.line, run.line_score, mode,
                       "compiled-plain" if plain else "compiled", stats, exhausted, limit=limit)


def compiled_table_bytes(max_memory_mb: int | None) -> tuple[int | None, str]:
    """The bytes a compiled search's tables may take (COMPILED_TABLE_SHARE of --max-memory),
    no more than the memory the machine has free as it starts (more would end in the
    kernel's out-of-memory kill, not in an answer), and the words for a table stopped there."""
    free_mb = MemoryGuard.available_mb()
    limits = [(megabytes, words) for megabytes, words in (
        (max_memory_mb, f"memory cap of {max_memory_mb} MB"),
        (free_mb, f"this machine's free memory of {free_mb} MB")) if megabytes is not None]
    if not limits:
        return None, ""
    megabytes, words = min(limits, key=lambda limit: limit[0])  # the cap on a tie
    return int(megabytes * 2**20 * COMPILED_TABLE_SHARE), words


class StateMeter:
    """Counts the states of one search into its Stats and against its budget: states and
    time.  The clock is read at every state: a state of the pruned engines can cost
    milliseconds (its bounds), so counting states between reads overran a limit many times
    over; one read costs well under 1 % of the cheapest state."""

    def __init__(self, budget: Budget, stats: Stats):
        self.budget, self.stats = budget, stats
        self.started = time.perf_counter()
        self.deadline = None if budget.time_limit is None else self.started + budget.time_limit

    def count(self, depth: int) -> None:
        """One more state at `depth`; BudgetExceeded when the states or the time run out."""
        stats, budget = self.stats, self.budget
        stats.states += 1
        if depth > stats.max_depth:
            stats.max_depth = depth
        if budget.max_states is not None and stats.states > budget.max_states:
            raise BudgetExceeded(Limit.STATES, state_budget_text(budget.max_states))
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise BudgetExceeded(Limit.TIME, budget.time_text())


class _Search:
    def __init__(self, game: Game, engine: str, budget: Budget, settings: SearchSettings, at_least: int = 0):
        self.game = game
        self.settings = settings
        self.engine = engine
        self.budget = budget
        self.table: dict = {}
        self.table_cap, self.table_cap_limit, self.table_cap_reason = budget.table_cap(PYTHON_ENTRY_BYTES)
        self.memory = MemoryGuard(budget.max_memory_mb)
        if engine == "cpsat":  # loaded before the clock starts: importing OR-Tools is no search
            import ortools.sat.python.cp_model  # noqa: F401
        self.stats = Stats()
        self.meter = StateMeter(budget, self.stats)
        self.started = self.meter.started
        self._count = self.meter.count
        self.path: list = []
        self.best_score: int | None = None
        self.best_line: list = []
        self.bounded = engine != "plain"
        self.refined = engine == "cpsat"
        self.proved_lost = False  # optimal mode: the complete win search found none
        self.at_least = at_least  # optimal mode: the probes start here (solve's floor)
        self.below_floor = False  # the complete probes refuted at_least above the best line
        self.level = game.lowest_win_score  # what find_win looks for: a line scoring this much
        self.narrowed = 0  # value(): moves searched per position in the first pass (0: all)
        self.cuts = 0  # find_win's rounds: the moves and subtrees left out so far

    # ----- optimal score ------------------------------------------------------------------
    def run_optimal(self, root) -> SolveResult:
        """Branch and bound in a max tree: the best line found so far (the incumbent) is a
        floor for every node, so a node whose bound cannot beat it is cut.

        With bounds on: a quick first win (if any) is the first incumbent, raised by a
        first pass over a narrowed tree (`_first_pass`), then probes upwards from it,
        each for a line beating the best found (`_probe_values`; a lost deal whose game
        offers level probes has its own).
        """
        self.root = root
        try:
            if not self.bounded:
                self.value(root, -1, 0, self.game.max_score + 1)
            else:
                target = self._first_target(root)
                if self.proved_lost and self.settings.level_probes:
                    self._probe_levels(root, target)
                else:
                    if not self.proved_lost:
                        self._first_pass(root, target)
                    self._probe_values(root, target)
        except BudgetExceeded as exc:
            return self._undecided("optimal", exc)
        line = self.best_line
        # no line at all: a floor above a lost deal's optimum refuted at once
        verdict = WON if self.best_score is not None and self._line_wins(root, line) else LOST
        score = None if self.below_floor else self.best_score
        return self._result(verdict, score, line, self.best_score, "optimal")

    def _first_target(self, root) -> int:
        """The root's bound, lowered below any win's score when a winnability search
        proves there is none."""
        won = self.search_win(root)
        self.proved_lost = not won
        if won:
            self._note_terminal_line(self._line_score(root, self.path), self.path)
        self.path = []
        self.table.clear()  # it held winnability facts, not values
        target = self.game.score_upper_bound(root)
        return target if won else min(target, self.game.lowest_win_score - 1)

    def _probe_values(self, root, top: int) -> None:
        """Probes upwards from the best line found (`low`) to an upper bound on the
        optimum (`high`, first the root's bound): a probe asks for a line scoring at
        least T = low + 1, searching with floor T - 1, where almost every node's bound
        falls short and is cut at once, and stopping at the first line that reaches T.
        A probe that succeeds raises `low` to the line it found (often well above T);
        the first that fails returns an upper bound below T: the optimum is proved.
        Table entries are upper bounds (or exact), valid from probe to probe.

        Every probe above the optimum is a refutation, and those just above it cost the
        most; probes below it end at their first line.  Bisecting between `low` and the
        bound would refute several targets above the optimum on the way; going up refutes
        only one (docs/performance.md has the measurements).  With a floor (`at_least`)
        the first probe asks for at_least, whatever the best line: below the floor only
        its refutation is wanted."""
        low = max(-1 if self.best_score is None else self.best_score, self.at_least - 1)
        high = max(top, low)
        while low < high:
            target = low + 1
            found = self.value(root, target - 1, 0, target)
            if found >= target:
                low = self.best_score  # the line that reached the target was noted
                if low is None or low < target:
                    raise RuntimeError(f"a probe reached {found} without a line to it")
            else:
                break  # nothing beats the best line: it is optimal
        if not self.narrowed:
            self._note_below_floor(min(low, top))

    def _first_pass(self, root, top: int) -> None:
        """A won deal's value probes, first over a narrowed tree: at each position only
        the first `first_pass_moves` moves (search order) whose move bound passes the
        floor.  Its best line is a real line, so it stays the incumbent; its refutations
        hold only in the narrowed tree, so the table is emptied after it.

        The first win is often far below the optimum, and a probe that finds a better
        line must first refute, at its low floor, every subtree it tries before that
        line; the narrowed tree often finds a line at or near the optimum for a small
        part of the states, and the complete probes then start from there."""
        if not self.settings.first_pass_moves:
            return
        self.narrowed = self.settings.first_pass_moves
        self._probe_values(root, top)
        self.narrowed = 0
        self.table.clear()

    def _probe_levels(self, root, top: int) -> None:
        """A lost deal's best score by level probes: for a level L, a complete find_win for
        a line ending in a loss scoring at least L, pruned by the game's loss_can_reach and
        ended early where the game guarantees L (guaranteed_score).  Levels go up from one
        above the best loss already seen: a level reached raises the best to its line
        (played on to the end by the first move in the search order), and the first
        level refuted is one above the optimum.  A state refuted at one level is refuted
        at every higher one, so the table of refutations is kept from level to level.

        Every loss misses a personality, a card or a Royal, and a search for exactly that
        prunes far more than branch and bound on values, where every position that could
        conceivably still win is bounded above any loss."""
        level = max(0 if self.best_score is None else self.best_score + 1, self.at_least)
        while level <= top:
            self.level, self.path = level, []
            if not self.search_win(root):
                break
            self._note_terminal_line(*self._completed(root, self.path))
            level = self.best_score + 1
        self._note_below_floor(min(level - 1, top))

    def _note_below_floor(self, proven: int) -> None:
        """The complete probes proved that nothing scores above `proven`; above the best
        line, the floor (`at_least`) skipped the best line's proof: no optimum then."""
        self.below_floor = proven > (-1 if self.best_score is None else self.best_score)

    def _completed(self, root, line: list) -> tuple[int, list]:
        """`line` played on by the first move in the search order to the end: (score, line)."""
        line, state = list(line), self.game.apply_line(root, line)
        while (outcome := self.game.outcome(state)) is None:
            move = self._moves(state, len(line))[0]
            line.append(move)
            state = self.game.apply(state, move)
        return outcome.score, line

    def value(self, state, floor: int, depth: int, enough: int) -> int:
        """The best score reachable from `state`, exact when it is above `floor` and
        below `enough`.

        When every line from `state` scores at most `floor`, any upper bound <= floor may
        be returned (fail-low).  A line scoring `enough` is all the caller needs: once one
        is found its score is returned at once, a lower bound, and nothing is stored on
        the way back.  With bounds on, the incumbent raises every floor.  Table entries
        are (value, exact): an inexact entry is an upper bound, trusted only while it stays
        at or below the floor of the caller.
        """
        game = self.game
        if self.bounded and self.best_score is not None and self.best_score > floor:
            floor = self.best_score
        key = game.key(state)
        entry = self.table.get(key)
        if entry is not None:
            known, exact = entry
            if exact or known <= floor:
                self.stats.table_hits += 1
                return known
        self._count(depth)
        outcome = game.outcome(state)
        if outcome is not None:
            self._note_terminal(outcome.score)
            self._store(key, outcome.score, True)
            return outcome.score
        ceiling = game.score_upper_bound(state) if self.bounded else game.max_score
        if self.refined and ceiling > floor and depth <= REFINED_BOUND_DEPTH:
            ceiling = min(ceiling, refined_upper_bound(game, state, self._cpsat_seconds()))
        if ceiling <= floor:
            self._store(key, ceiling, False)
            return ceiling
        if self.bounded and not game.may_exceed(state, floor, ceiling):
            self._store(key, floor, False)  # an upper bound at the floor: fail-low
            return floor
        best = -1
        moves = self._moves(state, depth)
        # A move whose own bound cannot beat the bar is not played: its bound stands in
        # for its child's value (so a fail-low answer stays an upper bound), and the child
        # is never made.  Most children of an expanded node fall here.
        move_bounds = game.move_bounds(state, moves, floor) if self.bounded else [game.max_score] * len(moves)
        passing = 0  # moves above the floor so far: the first pass plays only the first few
        for move, move_bound in zip(moves, move_bounds):
            if self.narrowed and move_bound > floor:
                passing += 1
                if passing > self.narrowed:
                    continue
            if self.bounded and move_bound <= self._bar(floor, best):
                child = move_bound
            else:
                self.path.append(move)
                child = self.value(game.apply(state, move), max(floor, best), depth + 1, enough)
                self.path.pop()
            if child > best:
                best = child
                if best >= enough:
                    return best
                if best >= ceiling:
                    break
        # A child may have failed low against an incumbent raised during the loop, so
        # exactness is judged against the floor as it stands now.  Without bounds nothing
        # fails low, so every value is exact.
        if self.bounded and self.best_score is not None and self.best_score > floor:
            floor = self.best_score
        self._store(key, best, best > floor or not self.bounded)
        return best

    def _cpsat_seconds(self) -> float:
        """CP-SAT's seconds for one refined bound, cut to what the time limit leaves (the
        full time where it fits: the bounds are cached by it)."""
        if self.meter.deadline is None:
            return SECONDS_PER_BOUND
        left = self.meter.deadline - time.perf_counter()
        return SECONDS_PER_BOUND if left >= SECONDS_PER_BOUND else max(left, 0.001)

    def _bar(self, floor: int, best: int) -> int:
        """What a child must beat to matter: the floor, the best sibling, the incumbent."""
        bar = max(floor, best)
        return bar if self.best_score is None else max(bar, self.best_score)

    # ----- winnability ----------------------------------------------------------------------
    def run_winnable(self, root) -> SolveResult:
        self.root = root
        try:
            won = self.search_win(root)
        except BudgetExceeded as exc:
            return self._undecided("winnable", exc)
        if won:
            line = list(self.path)
            return self._result(WON, None, line, self._line_score(root, line), "winnable")
        return self._result(LOST, None, self.best_line, self.best_score, "winnable")

    def search_win(self, root) -> bool:
        """With bounds on, a few rounds of limited discrepancy search first (Harvey and
        Ginsberg): lines that leave the move order at most k times, for k = 0, 1, ...
        Wins that the move order nearly finds turn up long before a depth-first search
        that went wrong near the root has emptied its subtree.  Such a restricted search
        only ever proves a win; without one, the complete search decides."""
        if self.bounded:
            for allowed in range(self.settings.lds_rounds):
                self.tried = {}
                if self.find_win(root, 0, allowed):
                    return True
            self.tried = {}
        return self.find_win(root, 0)

    def find_win(self, state, depth: int, allowed: int | None = None) -> bool:
        """True when a win is reachable; `self.path` then holds the moves to it.

        With `allowed`, only lines leaving the move order at most that many times are
        searched (one round of limited discrepancy search), and what failed is remembered
        per round in `self.tried` with the discrepancies it had.  With the settings'
        `keep_whole_refutations`, a subtree that a round searched whole (it left out no
        move, met no state that `self.tried` cut) is refuted for good and goes into the
        table, which every round and the complete search consult, so that none of them
        searches it again."""
        game = self.game
        key = game.key(state)
        complete = allowed is None
        keep = self.settings.keep_whole_refutations
        if (complete or keep) and key in self.table:
            self.stats.table_hits += 1
            return False
        if not complete and self.tried.get(key, -1) >= allowed:
            self.stats.table_hits += 1
            self.cuts += 1
            return False
        self._count(depth)
        cuts = self.cuts
        outcome = game.outcome(state)
        dead = True
        if outcome is not None:
            self._note_terminal(outcome.score)
            if outcome.score >= self.level:  # at a win's level: a win
                return True
        elif game.guaranteed_score(state) >= self.level:
            return True
        elif not self.bounded or self._may_reach(state):
            dead = False
            for rank, move in enumerate(self._reaching(state, self._moves(state, depth))):
                if not complete and rank and not allowed:
                    self.cuts += 1
                    break
                self.path.append(move)
                if self.find_win(game.apply(state, move), depth + 1, None if complete else allowed - (rank > 0)):
                    return True
                self.path.pop()
        if complete or (keep and self.cuts == cuts):
            self._store(key, None, True)
        else:
            self._remember(self.tried, key, self.settings.lds_rounds if dead else allowed)  # kept: not dead
        return False

    def _reaching(self, state, moves: list) -> list:
        """The moves whose bound (`move_bounds`) reaches the level sought: a move bounded
        below it cannot lead there, and its child is not made."""
        if not self.bounded:
            return moves
        bounds = self.game.move_bounds(state, moves, self.level - 1)
        return [move for move, bound in zip(moves, bounds) if bound >= self.level]

    def _may_reach(self, state) -> bool:
        """Whether a line from `state` may still reach the level sought: a win, or below a
        win's level (a lost deal's level probes) a loss scoring that much."""
        if self.level >= self.game.lowest_win_score:
            return self.game.can_still_win(state)
        return self.game.loss_can_reach(state, self.level)

    def _moves(self, state, depth: int) -> list:
        """The plain engine tries every legal move in rule order; the pruned one drops the
        moves the game proves dominated and tries the promising ones first.

        Except at the root: a dominance proof may rest on how a search reaches a position
        (Royal Assassin drops a Joker placement after a turn because the position before
        the turn offered it), and the root was reached by no search, so it keeps every
        legal move."""
        game = self.game
        if not self.bounded:
            return game.legal_moves(state)
        return game.order_moves(state, game.legal_moves(state) if depth == 0 else game.search_moves(state))

    # ----- bookkeeping --------------------------------------------------------------------
    def _store(self, key, value, exact: bool) -> None:
        self._remember(self.table, key, (value, exact))

    def _remember(self, table: dict, key, entry) -> None:
        size = len(table)
        if self.table_cap is not None and size >= self.table_cap and key not in table:
            self._make_room(table, self.table_cap_limit, self.table_cap_reason)
        elif size % MEMORY_CHECK_EVERY == 0 and size and key not in table and self.memory.exceeded(size):
            self._make_room(table, Limit.MEMORY, f"memory cap of {self.budget.max_memory_mb} MB")
        table[key] = entry

    def _make_room(self, table: dict, limit: Limit, reason: str) -> None:
        """A full table ends the search; with replace_when_full it stops growing and its
        newest entry goes (a dict's cheapest removal: the search only loses what it knew)."""
        if not self.budget.replace_when_full:
            raise BudgetExceeded(limit, reason)
        self.table_cap = len(table)
        table.popitem()

    def _note_terminal_line(self, score: int, line: list) -> None:
        if self.best_score is None or score > self.best_score:
            self.best_score, self.best_line = score, line

    def _note_terminal(self, score: int) -> None:
        if self.best_score is None or score > self.best_score:
            self.best_score = score
            self.best_line = list(self.path)

    def _line_end(self, root, line):
        state = root
        for move in line:
            state = self.game.apply(state, move)
        return self.game.outcome(state)

    def _line_wins(self, root, line) -> bool:
        return self._line_end(root, line).won

    def _line_score(self, root, line) -> int:
        return self._line_end(root, line).score

    def _result(self, verdict, score, line, line_score, mode) -> SolveResult:
        self.stats.unique = len(self.table)
        self.stats.seconds = time.perf_counter() - self.started
        return SolveResult(verdict, score, line, line_score, mode, self.engine, self.stats)

    def _undecided(self, mode: str, why: BudgetExceeded) -> SolveResult:
        """Budget ran out: no optimum, but a win already found is still a proven win, and
        a complete win search that found none still proves the loss."""
        line, score = self.best_line, self.best_score
        won = score is not None and self._line_wins(self.root, line)
        verdict = WON if won else LOST if self.proved_lost else UNDECIDED
        result = self._result(verdict, None, line, score, mode)
        result.exhausted, result.limit = str(why), why.limit
        return result
