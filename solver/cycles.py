"""Search for single-player deterministic games whose positions repeat (King's Reign).

The state graph has cycles (passing, walking back and forth) and no turn limit, so a value
cannot be cached per state the way a tree search does: the best score "from here" found on
one path may be cut short by a visited state that lies on that very path.  Instead:

- **A visited set, never values.**  Each state is expanded at most once (the game's
  optional `checkpoint(state)` hook says which states to remember, e.g. start-of-turn ones;
  every cycle must pass through one).  The question asked is about the set of terminals
  reachable from the root: "is one of them a win" and "the best of them".  That set does not
  depend on the order of the search, and a traversal that expands every reachable state
  meets every reachable terminal, so the best terminal it met is the optimum, and no win
  among them is a proof of loss.  Nothing path-dependent is ever stored.
- **Pruning by a sound bound.**  A state whose `score_upper_bound` is at most the best win
  found so far (the incumbent) cannot lead to a better terminal, and it stays pruned as the
  incumbent only grows; states that `can_still_win` rules out are pruned once a win is
  known.  A pruned state counts as visited: its bound is a fact of the state, not of the
  path.
- **The bound of an unfinished search.**  In a depth-first traversal with a visited set,
  every reachable terminal not yet met is reachable from an unexplored move of some frame
  on the stack: follow a path from the root to it, and take the last state on the path the
  search has opened; a finished (or pruned) state has no unopened child, so it is a stack
  frame with the next state still unexplored (or the terminal is bounded by the prune).
  So max(incumbent, the bound of every stack frame with moves left) bounds the optimum.
  The best-first search has the same fact with its open list and the state it is expanding.
- **Wins first, then better wins.**  `winnable`: a depth-first search in the game's move
  order (`order_moves`), stopped at the first win.  `optimal`: that first win, then beam
  phases (they follow deep lines fast but prove nothing, so their lines only raise the
  incumbent): over the game's own successors towards its maximum score when it has them
  (`aimed_successors`, ordered by `aimed_progress`), then over checkpoint states ordered
  by `progress`; then a complete best-first traversal pruned by that incumbent, which
  alone can prove the optimum (a line scoring the maximum proves itself).

Verdicts: WON with a line that is replayed through the rules before it is returned; LOST
only from a complete traversal; otherwise UNDECIDED.  A budget that runs out leaves WON
(with the best line and a sound upper bound) or UNDECIDED, never a guess.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Callable
from itertools import count
from typing import Any

from games.base import LOST, UNDECIDED, WON, Game, UnsupportedGame
from solver.answers import Budget, Limit, SolveResult, Stats
from solver.search import MEMORY_CHECK_EVERY, BudgetExceeded, MemoryGuard, StateMeter
from solver.verify import replay

__all__ = ["solve_cycles", "STRATEGIES"]

STRATEGIES = ("deep", "best-first")
#: What one visited-set entry costs (a King's Reign state with its shared parts).
ENTRY_BYTES = 600
#: Beam widths tried in turn by the optimal search before its complete traversal.
BEAM_WIDTHS = (16, 64, 256, 1024)
#: A beam stops after this many turns without a better best estimate (it is wandering).
BEAM_PATIENCE = 20
#: Share of the time limit the beams over checkpoint states may use after the aimed beams
#: (the rest goes to the complete search).
BEAM_SHARE = 0.15
#: Beam widths tried in turn over the game's errands towards its maximum score.
AIMED_WIDTHS = (4, 16, 64, 256, 1024, 4096)
#: Share of the time limit the aimed beams may use, before the other beam phases: most of
#: it, as they alone reach the maximum (and so prove it), and a short limit must leave them
#: time to finish their first, narrowest beam.
AIMED_SHARE = 0.8


def solve_cycles(game: Game, state: Any, mode: str = "optimal", budget: Budget = Budget(),
                 strategy: str = "deep") -> SolveResult:
    """Decide `state` of a single-player deterministic game whose positions repeat.

    `mode`: "winnable" stops at the first win; "optimal" looks for the best win (the best
    loss when no win exists) and reports it with a sound `upper_bound`, `score` when exact.
    `strategy`: "deep" (first win, beam phases, complete branch and bound) or "best-first"
    (the plain baseline: one open list ordered by `progress`, complete, with the same
    pruning in mode "optimal")."""
    check_repeating_solitaire(game)
    if mode not in ("optimal", "winnable") or strategy not in STRATEGIES:
        raise ValueError(f"unknown mode {mode!r} or strategy {strategy!r}")
    search = _CycleSearch(game, state, budget, mode, strategy)
    return search.run()


def check_repeating_solitaire(game: Game) -> None:
    """One player, moves in turn, no chance: anything else is refused in one line."""
    kind = game.game_type
    if kind.max_players != 1 or kind.min_players != 1 or kind.simultaneous or not kind.deterministic:
        raise UnsupportedGame(f"the search for repeating positions cannot analyse {game.name} ({kind.describe()}); "
                              "it handles one player, sequential moves, no chance")


class _CycleSearch:
    def __init__(self, game: Game, root: Any, budget: Budget, mode: str, strategy: str):
        self.game, self.root, self.budget, self.mode, self.strategy = game, root, budget, mode, strategy
        self.stats = Stats()
        self.meter = StateMeter(budget, self.stats)
        self.started = self.meter.started
        self.table_cap, self.table_cap_limit, self.table_cap_reason = budget.table_cap(ENTRY_BYTES)
        self.memory = MemoryGuard(budget.max_memory_mb)
        self.checkpoint: Callable[[Any], bool] = game.checkpoint
        self.progress: Callable[[Any], int] = game.progress
        self.win: tuple[int, list] | None = None    # best win: (score, line)
        self.loss: tuple[int, list] | None = None   # best loss, reported when no win is found
        self.visited: set = set()
        self.frames: list[list] = []    # depth-first stack: [state, ordered moves, next index]
        self.open_list: list = []       # best-first: (priority, tie, state, line, bound)
        self.expanding_bound: int | None = None  # best-first: the bound of the state being expanded
        self.running = ""               # the phase under way, for the bound of an early stop

    # ----- the schedule ----------------------------------------------------------------------
    def run(self) -> SolveResult:
        upper = None
        complete = False
        try:
            if self.strategy == "best-first":
                complete, upper = self._best_first()
            elif self.mode == "winnable":
                complete, upper = self._depth_first()
            else:
                complete, upper = self._depth_first()
                if self.win is not None and self.win[0] < self.game.max_score:
                    self._aimed_phases()
                if self.win is not None and self.win[0] < self.game.max_score:
                    self._beam_phases()
                if self.win is not None and self.win[0] < self.game.max_score:
                    complete, upper = self._best_first()
            stopped = None
        except BudgetExceeded as exc:
            stopped = exc
            upper = self._frontier_bound()
        return self._result(complete, upper, stopped)

    def _result(self, complete: bool, upper: int | None, stopped: BudgetExceeded | None) -> SolveResult:
        """The result of a search that finished, or that `stopped` ended."""
        exhausted, limit = ("", None) if stopped is None else (str(stopped), stopped.limit)
        self.stats.seconds = time.perf_counter() - self.started
        self.stats.unique = len(self.visited)
        if self.win is not None:
            score, line = self.win
            self._verify(line, True, score)
            if self.mode == "winnable":
                return SolveResult(WON, None, line, score, self.mode, self._engine(), self.stats, exhausted, None,
                                   limit)
            if complete or score >= self.game.max_score:
                return SolveResult(WON, score, line, score, self.mode, self._engine(), self.stats, "", score)
            bound = max(score, min(self.game.max_score, upper if upper is not None else self.game.max_score))
            exact = bound == score
            return SolveResult(WON, score if exact else None, line, score, self.mode, self._engine(), self.stats,
                               "" if exact else exhausted, bound, None if exact else limit)
        line, score = (self.loss[1], self.loss[0]) if self.loss else ([], None)
        if self.loss:
            self._verify(line, False, score)
        if complete:  # every reachable state expanded: no win, and the best loss is exact
            return SolveResult(LOST, score, line, score, self.mode, self._engine(), self.stats, "", score)
        return SolveResult(UNDECIDED, None, line, score, self.mode, self._engine(), self.stats, exhausted,
                           upper, limit)

    def _engine(self) -> str:
        return "cycles" if self.strategy == "deep" else "cycles-best-first"

    # ----- depth-first traversal with a visited set --------------------------------------------
    def _depth_first(self) -> tuple[bool, int | None]:
        """A traversal in the game's move order that stops at the first win; complete (no
        win anywhere) when it runs to its end.  Returns (complete, upper bound)."""
        game = self.game
        self.visited = set()
        self.frames = []
        self.running = "depth-first"
        path: list = []
        if not self._open(self.root, path):
            return True, self._best_known()
        while self.frames:
            frame = self.frames[-1]
            state, moves, index = frame
            if index == len(moves):
                self.frames.pop()
                if path:
                    path.pop()
                continue
            frame[2] = index + 1
            move = moves[index]
            path.append(move)
            if not self._open(game.apply(state, move), path):
                path.pop()
                if self.win is not None:
                    return False, None  # the first win is all this pass wanted
        return True, self._best_known()

    def _open(self, state: Any, path: list) -> bool:
        """Meet `state`: note a terminal, skip a visited or pruned state, else push a frame."""
        game = self.game
        self._count(len(path))
        outcome = game.outcome(state)
        if outcome is not None:
            self._note(outcome.won, outcome.score, path)
            return False
        if self.checkpoint(state):
            key = game.key(state)
            if key in self.visited:
                self.stats.table_hits += 1
                return False
            self._visit(key)
        self.frames.append([state, game.order_moves(state, game.legal_moves(state)), 0])
        return True

    def _count(self, depth: int) -> None:
        """One more state against the budget.  The process's real memory growth is watched
        every MEMORY_CHECK_EVERY states, not only the entries of `visited`: the open list
        and the stack hold states and lines that the entries cap does not count."""
        self.meter.count(depth)
        if self.stats.states % MEMORY_CHECK_EVERY == 0 and self.memory.exceeded(len(self.visited)):
            raise BudgetExceeded(Limit.MEMORY, f"memory cap of {self.budget.max_memory_mb} MB")

    def _visit(self, key: Any) -> None:
        """Remember a new key, within the entries cap."""
        if self.table_cap is not None and len(self.visited) >= self.table_cap:
            raise BudgetExceeded(self.table_cap_limit, self.table_cap_reason)
        self.visited.add(key)

    def _stack_bound(self) -> int | None:
        """max over stack frames with moves left of their bound (module docstring)."""
        best = None
        top = len(self.frames) - 1
        for depth, (state, moves, index) in enumerate(self.frames):
            # the top frame also covers the child being opened when the budget ran out
            if index < len(moves) or depth == top:
                bound = self.game.score_upper_bound(state)
                best = bound if best is None else max(best, bound)
                if best >= self.game.max_score:
                    break
        return best

    def _best_known(self) -> int | None:
        return self.win[0] if self.win else None

    # ----- beam phases -------------------------------------------------------------------------
    def _aimed_phases(self) -> None:
        """Beams of growing width over the game's own successors towards its maximum score
        (`aimed_successors`: several moves each, chosen by game knowledge, any of them may be
        left out), when the game has them.  They prune every state whose sound bound is below
        that score; like every beam they only ever raise the incumbent."""
        if self.game.aimed_successors(self.root) is None:
            return
        successors, rank = self.game.aimed_successors, self.game.aimed_progress
        self.running = "beam"
        stop = self._share_end(AIMED_SHARE)
        for width in AIMED_WIDTHS:
            if stop is not None and time.perf_counter() >= stop:
                break
            if self._beam(width, stop, lambda state: self._counted(successors(state)), rank, self.game.max_score):
                break

    def _counted(self, successors):
        """The game's successors, each counted against the budget like any other state."""
        for child, moves in successors:
            self._count(len(moves))
            yield child, moves

    def _beam_phases(self) -> None:
        """Beams of growing width over checkpoint states, each a whole game deep: they reach
        the long lines a good score needs, and only ever raise the incumbent."""
        self.running = "beam"
        stop = self._share_end(AIMED_SHARE + BEAM_SHARE)
        for width in BEAM_WIDTHS:
            if stop is not None and time.perf_counter() >= stop:
                break
            if self._beam(width, stop, self._turn, self.progress):
                break

    def _share_end(self, share: float) -> float | None:
        limit = self.budget.time_limit
        return None if limit is None else self.started + share * limit

    def _beam(self, width: int, stop: float | None, expand: Callable, rank: Callable[[Any], int],
              target: int | None = None) -> bool:
        """One beam of `width` over `expand(state)` -> (child, moves) ordered by `rank`,
        pruning children that cannot beat the incumbent (or reach `target`); True when it
        reached the game's maximum score."""
        game = self.game
        seen: set = set()
        layer = [(self.root, ())]
        tie = count()
        best_progress, stalled = None, 0
        while layer and stalled < BEAM_PATIENCE:
            children: list = []
            for state, line in layer:
                for child, moves in expand(state):
                    full = line + tuple(moves)
                    outcome = game.outcome(child)
                    if outcome is not None:
                        self._note(outcome.won, outcome.score, full)
                        if self.win is not None and self.win[0] >= game.max_score:
                            return True
                        continue
                    key = game.key(child)
                    if key in seen:
                        continue
                    seen.add(key)
                    bound = game.score_upper_bound(child)
                    if (self.win is not None and bound <= self.win[0]) or (target is not None and bound < target):
                        continue
                    children.append((-rank(child), next(tie), child, full))
                if stop is not None and time.perf_counter() >= stop:
                    return False
            chosen = heapq.nsmallest(width, children)
            layer = [(child, full) for _, _, child, full in chosen]
            if chosen and (best_progress is None or -chosen[0][0] > best_progress):
                best_progress, stalled = -chosen[0][0], 0
            else:
                stalled += 1
        return False

    def _turn(self, state: Any):
        """Every (next checkpoint state or terminal, moves to it) one turn from `state`."""
        game = self.game
        stack = [(state, ())]
        while stack:
            here, moves = stack.pop()
            for move in game.legal_moves(here):
                child = game.apply(here, move)
                self._count(len(moves))
                if game.outcome(child) is not None or self.checkpoint(child):
                    yield child, moves + (move,)
                else:
                    stack.append((child, moves + (move,)))

    # ----- the plain baseline: best-first ----------------------------------------------------
    def _best_first(self) -> tuple[bool, int | None]:
        """One open list ordered by `progress`, with a visited set: complete, and in mode
        "optimal" pruned by the incumbent like the depth-first traversal."""
        game = self.game
        self.visited = {game.key(self.root)}
        tie = count()
        open_list = [(-self.progress(self.root), next(tie), self.root, (), game.score_upper_bound(self.root))]
        self.open_list = open_list
        self.running = "best-first"
        while open_list:
            _, _, state, line, bound = heapq.heappop(open_list)
            if self.mode == "optimal" and self.win is not None and bound <= self.win[0]:
                continue
            self.expanding_bound = bound  # off the open list but not yet expanded: still frontier
            for move in game.legal_moves(state):
                child = game.apply(state, move)
                full = line + (move,)
                self._count(len(full))
                outcome = game.outcome(child)
                if outcome is not None:
                    self._note(outcome.won, outcome.score, full)
                    if self.mode == "winnable" and self.win is not None:
                        return False, None
                    continue
                key = game.key(child)
                if key in self.visited:
                    self.stats.table_hits += 1
                    continue
                self._visit(key)
                child_bound = game.score_upper_bound(child)
                if self.mode == "optimal" and self.win is not None and child_bound <= self.win[0]:
                    continue
                heapq.heappush(open_list, (-self.progress(child), next(tie), child, full, child_bound))
            self.expanding_bound = None
        return True, self._best_known()

    # ----- bookkeeping -----------------------------------------------------------------------
    def _frontier_bound(self) -> int | None:
        """A sound bound on the optimum when a search stops early (module docstring): the
        open list of the best-first search, the stack of a depth-first traversal, and the
        root's own bound when a beam (which proves nothing) was running."""
        if self.running == "best-first":
            bounds = [entry[4] for entry in self.open_list]
            if self.expanding_bound is not None:
                bounds.append(self.expanding_bound)
            frontier = max(bounds, default=None)
        elif self.running == "depth-first" and self.frames:
            frontier = self._stack_bound()
        elif self.game.outcome(self.root) is None:
            frontier = self.game.score_upper_bound(self.root)
        else:
            frontier = None
        known = self._best_known()
        if frontier is None:
            return known
        return frontier if known is None else max(frontier, known)

    def _note(self, won: bool, score: int, line) -> None:
        if won:
            if self.win is None or score > self.win[0]:
                self.win = (score, list(line))
        elif self.loss is None or score > self.loss[0]:
            self.loss = (score, list(line))

    def _verify(self, line: list, won: bool, score: int) -> None:
        """Every reported line replays through the rules to the end it claims."""
        result = replay(self.game, self.root, line)
        if not result.ok or result.outcome is None or result.outcome.won != won or result.outcome.score != score:
            raise RuntimeError(f"{self.game.name}: a line found by the search does not replay "
                               f"({result.error or 'it ends elsewhere'})")
