"""What the solver's front door (solver.analysis) returns, and what it is asked within: the
budget of a search, which limit stopped one that did not finish, a one-player game's
SolveResult, and a simultaneous-move game's answers as intervals keyed by question and
payoff, each end with what it rests on.  The searches build these; everything outside
solver/ reads them from here."""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Iterator
from dataclasses import dataclass, field, fields, replace
from enum import Enum
from typing import Any

from games.base import LOST, UNDECIDED, WON, Verdict

__all__ = ["CARDS", "LOST", "MARGIN", "MIXED", "PAYOFFS", "QUESTIONS", "UNDECIDED", "WON", "Analysis", "Answer",
           "Budget", "Interval", "Limit", "SeatStats", "SolveResult", "Stats", "Verdict", "shared_budgets",
           "state_budget_text"]


class Limit(Enum):
    """Which limit stopped a search that did not finish.  A result keeps it beside the words
    for people (`exhausted`), which also say how much the limit was."""

    TIME = "time"
    STATES = "states"
    TABLE = "table"     # the transposition table's cap of entries
    MEMORY = "memory"   # a cap in megabytes, the machine's free memory, or a table that could not grow

    @classmethod
    def of_words(cls, words: str) -> Limit | None:
        """The limit a stopped search's words name (catalogue rows keep only the words)."""
        return next((limit for opening, limit in _OPENING_WORDS if words.startswith(opening)), None)


#: How the words for each limit open (Budget's and the searches' texts).
_OPENING_WORDS = (("time limit", Limit.TIME), ("state budget", Limit.STATES),
                  ("transposition table cap", Limit.TABLE), ("memory cap", Limit.MEMORY),
                  ("this machine's free memory", Limit.MEMORY), ("memory for the transposition table", Limit.MEMORY))
#: The words for a compiled table that could not be allocated.
TABLE_MEMORY_TEXT = "memory for the transposition table"


def state_budget_text(states: int | None) -> str:
    """The words for a search stopped by a budget of `states` ("" without one)."""
    return f"state budget of {states} state{'' if states == 1 else 's'}" if states is not None else ""


@dataclass(frozen=True)
class Budget:
    """Limits of one search; None means unlimited.  The transposition table is capped by
    `max_table` entries and by `max_memory_mb`, which the Python engines turn into entries
    by what one of theirs costs and the compiled ones into bytes for their tables' slots
    (solver.search's `COMPILED_TABLE_SHARE` of it).  A table at its cap ends the search, or
    with `replace_when_full` replaces entries, so that only time or states end it.
    `time_of_whole`: the limit that `time_limit` is a share of (`shared_budgets`), if any."""

    time_limit: float | None = None
    max_states: int | None = None
    max_table: int | None = None
    max_memory_mb: int | None = 4096
    replace_when_full: bool = False
    time_of_whole: float | None = None

    def time_text(self) -> str:
        """The words for a search stopped by `time_limit` ("" without one)."""
        if self.time_limit is None:
            return ""
        if self.time_of_whole is None:
            return f"time limit of {self.time_limit:g} s"
        return f"time limit share of {round(self.time_limit, 2):g} s of {self.time_of_whole:g} s"

    def table_cap(self, entry_bytes: int) -> tuple[int | None, Limit | None, str]:
        """The entries a table of `entry_bytes`-byte entries may hold, the limit that sets it
        and the words that say so."""
        caps = []
        if self.max_table is not None:
            caps.append((self.max_table, Limit.TABLE, self.entries_cap_text()))
        if self.max_memory_mb is not None:
            entries = self.max_memory_mb * 2**20 // entry_bytes
            caps.append((entries, Limit.MEMORY, f"memory cap of {self.max_memory_mb} MB ({entries} table "
                                                f"{'entry' if entries == 1 else 'entries'})"))
        return min(caps, key=lambda cap: (cap[0], cap[2])) if caps else (None, None, "")

    def entries_cap_text(self) -> str:
        """The words for a table stopped at `max_table` entries."""
        return f"transposition table cap of {self.max_table} {'entry' if self.max_table == 1 else 'entries'}"


#: The least time a part of a shared limit is given (the command line's least --time-limit),
#: so that a part whose turn comes after the limit has passed still answers at once.
LEAST_SHARE = 0.001


def shared_budgets(budget: Budget, parts: int, clock=time.perf_counter) -> Iterator[Budget]:
    """The budgets of `parts` searches run one after another within one time limit: each,
    as it starts, gets the time left split evenly among the parts still to run (one that
    ends early leaves its time to the rest), so the whole keeps `budget.time_limit`.
    Without a time limit, or for one part, `budget` itself."""
    if budget.time_limit is None or parts == 1:
        yield from itertools.repeat(budget, parts)
        return
    end = clock() + budget.time_limit
    for left in range(parts, 0, -1):
        share = max((end - clock()) / left, LEAST_SHARE)
        yield replace(budget, time_limit=share, time_of_whole=budget.time_limit)


# ----- one player -------------------------------------------------------------------------

@dataclass
class Stats:
    states: int = 0        # nodes expanded (table misses)
    table_hits: int = 0
    unique: int = 0        # entries in the transposition table at the end
    max_depth: int = 0
    seconds: float = 0.0


@dataclass
class SolveResult:
    """What a one-player search established.  `score` is the proven optimum, None when not
    proven; `line` reaches `line_score` (the best found), and is the optimal line when score
    is set.  A search that did not finish says which limit stopped it (`limit`) and in words
    (`exhausted`)."""

    verdict: Verdict
    score: int | None
    line: list[Any]
    line_score: int | None
    mode: str
    engine: str
    stats: Stats = field(default_factory=Stats)
    exhausted: str = ""    # which budget ran out, for UNDECIDED, in words
    upper_bound: int | None = None  # a proven bound on the optimum where it is not exact
    limit: Limit | None = None      # which budget ran out


# ----- several seats choosing at once -----------------------------------------------------

#: The open-deal questions of a seat (Devil's Throne's §8), and those answered in mixed
#: strategies (the others are pure max/min trees).
QUESTIONS = ("q1", "q2", "q3", "q4", "q5")
MIXED = ("q4", "q5")
#: What a question is asked of: P's cards, and P's margin over the best other seat.
CARDS, MARGIN = "cards", "margin"
PAYOFFS = (CARDS, MARGIN)
#: Values this close count as equal (Q4 values are sums of LP solutions).
EPSILON = 1e-9


@dataclass
class SeatStats:
    """What a seat's questions cost."""

    states: int = 0         # round starts expanded (table misses)
    nodes: int = 0          # decision nodes visited
    table_hits: int = 0
    matrix_games: int = 0   # Q4: simultaneous nodes with two acting seats
    saddles: int = 0        # ... solved by a pure saddle point
    lps: int = 0            # ... that needed the LP
    seconds: float = 0.0

    def add(self, other: SeatStats) -> None:
        for counter in fields(self):
            setattr(self, counter.name, getattr(self, counter.name) + getattr(other, counter.name))


@dataclass
class Interval:
    """Where a payoff lies: every end a real guarantee, with what it rests on in words ("" where
    nothing was computed).  Equal ends where it is proved."""

    low: float = -math.inf
    high: float = math.inf
    low_reason: str = ""
    high_reason: str = ""

    @property
    def ends(self) -> tuple[float, float]:
        return self.low, self.high

    def raise_low(self, value: float, reason: str) -> None:
        if value > self.low:
            self.low, self.low_reason = value, reason

    def lower_high(self, value: float, reason: str) -> None:
        if value < self.high:
            self.high, self.high_reason = value, reason


def _open_intervals() -> dict[str, Interval]:
    return {payoff: Interval() for payoff in PAYOFFS}


@dataclass
class Answer:
    """One question's answer for seat P: an Interval per payoff (`intervals[CARDS]`,
    `intervals[MARGIN]`), and `cards` and `margin` set only where a search proved them.  Q4
    has no cards and its margin may be fractional; its strategies are P's and the opponent's
    mixes at the root node."""

    question: str
    seat: int
    cards: float | None = None
    margin: float | None = None
    intervals: dict[str, Interval] = field(default_factory=_open_intervals)
    strategy: dict[str, float] | None = None
    opponent_strategy: dict[str, float] | None = None
    best_action: str | None = None   # Q1-Q3: P's action at the root, where the value was proved
    # Q2: P's action at the root on a strategy found that guarantees the cards' lower bound
    cards_floor_action: str | None = None
    stats: SeatStats = field(default_factory=SeatStats)
    exhausted: str = ""              # the budget that ran out, for an undecided part, in words
    limit: Limit | None = None       # ... and which

    @property
    def cards_bounds(self) -> tuple[float, float]:
        return self.intervals[CARDS].ends

    @property
    def margin_bounds(self) -> tuple[float, float]:
        return self.intervals[MARGIN].ends

    @property
    def cards_low_reason(self) -> str:
        return self.intervals[CARDS].low_reason

    @property
    def cards_high_reason(self) -> str:
        return self.intervals[CARDS].high_reason

    @property
    def margin_low_reason(self) -> str:
        return self.intervals[MARGIN].low_reason

    @property
    def margin_high_reason(self) -> str:
        return self.intervals[MARGIN].high_reason

    def stop(self, limit: Limit, words: str) -> None:
        """Note the limit that stopped a part of this answer (the first one is kept)."""
        if not self.exhausted:
            self.exhausted, self.limit = words, limit

    @property
    def decided(self) -> bool:
        return self.margin is not None and (self.question == "q4" or self.cards is not None)

    @property
    def wins(self) -> str | None:
        """Q1-Q3: 'sole', 'shared' or 'no' where the margin's bounds decide it, else None."""
        low, high = self.margin_bounds
        if self.question in MIXED:
            return None
        if low > 0:
            return "sole"
        if low == 0 and high == 0:
            return "shared"
        if high < 0:
            return "no"
        return None

    @property
    def verdict(self) -> Verdict:
        """Q1-Q3: WON when P wins (alone or shared) under the question's model, LOST when it
        cannot, UNDECIDED while the bounds straddle 0.  Q4, Q5: by the sign of the value (who
        is favoured, not a guarantee), UNDECIDED at exactly 0 or while unproved."""
        low, high = self.margin_bounds
        if self.question in MIXED:
            return WON if low > EPSILON else LOST if high < -EPSILON else UNDECIDED
        return WON if low >= 0 else LOST if high < 0 else UNDECIDED


@dataclass
class Analysis:
    """A seat's answers, keyed by question."""

    seat: int
    answers: dict[str, Answer]

    @property
    def stats(self) -> SeatStats:
        total = SeatStats()
        for answer in self.answers.values():
            total.add(answer.stats)
        return total
