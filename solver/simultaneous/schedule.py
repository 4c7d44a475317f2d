"""The schedule of one payoff of a Q1-Q3 question: its searches (Python or compiled), the
game's models of joint play (Q1) and the driver of null-window probes, each part with its
share of the time (SimultaneousSettings).  Every end it moves is a real guarantee, and says
what it rests on."""

from __future__ import annotations

import itertools
import math
import time
from dataclasses import dataclass
from typing import Any

from games.base import EngineError, SimultaneousGame
from solver.answers import MARGIN, Answer, Budget, Interval, SeatStats
from solver.cpsat import Maximised, maximise
from solver.search import BudgetExceeded
from solver.simultaneous.paranoid import HorizonFloor, Paranoid, compiled_paranoid, payoff_now
from solver.simultaneous.reasons import (
    FEW_HIGH,
    GREEDY_HIGH,
    GREEDY_LOW,
    HORIZON_LOW,
    MODEL_BELOW_CEILING,
    MODEL_HIGH,
    MODEL_LOW,
    SEARCH_HIGH,
    SEARCH_LOW,
    STATIC_HIGH,
    STATIC_LOW,
    known_high,
    known_low,
)
from solver.simultaneous.settings import DEFAULT_SETTINGS, SimultaneousSettings
from solver.verify import replay


@dataclass(frozen=True)
class ModelLine:
    """Where the best line the models found ends, P's first action on it, and its payoff."""

    end: Any
    action: str
    value: int


class Searches:
    """One payoff of one question: the searches (Python or compiled), the game's model of
    joint play (Q1) and the probe driver."""

    def __init__(self, game: SimultaneousGame, state: Any, seat: int, question: str, payoff: str, budget: Budget,
                 deadline: float | None, stats: SeatStats, engine: str, use_model: bool = False,
                 settings: SimultaneousSettings = DEFAULT_SETTINGS):
        self.game, self.state, self.seat, self.question, self.payoff = game, state, seat, question, payoff
        self.budget, self.deadline, self.stats, self.engine = budget, deadline, stats, engine
        self.use_model, self.settings = use_model, settings
        self.model_line: ModelLine | None = None   # the best line the models found
        self.floor_action: tuple[str, float] | None = None  # P's root action and the floor it holds

    def share_end(self, part: float) -> float | None:
        """The moment `part` of the time left for this payoff runs out (None without a limit)."""
        if self.deadline is None:
            return None
        return time.perf_counter() + part * max(0.0, self.deadline - time.perf_counter())

    def search(self, fixed: tuple[int, ...] = (), deadline: float | None = None,
               few_replies: bool = False) -> Paranoid:
        compiled = compiled_paranoid(self.game, self.state, self.seat, self.question, self.payoff, self.engine,
                                      fixed, few_replies)
        return Paranoid(self.game, self.seat, self.question, self.payoff, self.budget,
                         self.deadline if deadline is None else deadline, self.stats, compiled, fixed, few_replies)

    def start_bounds(self, known: dict[str, Answer]) -> Interval:
        low, high = Paranoid.bounds_of(self.game, self.state, self.seat, self.payoff)
        bounds = Interval(low, high, STATIC_LOW[self.payoff], STATIC_HIGH[self.payoff])
        if self.question == "q3" and "q2" in known:
            bounds.raise_low(known["q2"].intervals[self.payoff].low, known_low("q2", "Q2 <= Q3"))
        if self.question in ("q2", "q3") and "q1" in known:
            bounds.lower_high(known["q1"].intervals[self.payoff].high, known_high("q1", "Q3 <= Q1"))
        if self.question == "q2" and "q3" in known:
            bounds.lower_high(known["q3"].intervals[self.payoff].high, known_high("q3", "Q2 <= Q3"))
        return bounds

    def one_sided(self, bounds: Interval) -> None:
        """A strategy of one side against the best reply: the others' greedy bots bound Q3 (so
        Q2) from above, and with three or four seats then the others kept to the game's few
        replies (`ceiling_from_few_replies`: a lower ceiling, found more slowly); P's greedy
        bot bounds Q2 (so Q3) from below.  Each gets a share of the time and is probed only
        inside the bounds already known (a value outside them says nothing new); what it
        proved before its time ran out still counts."""
        players = len(self.game.returns(self.state))
        others = tuple(s for s in range(players) if s != self.seat)
        self._one_side(bounds, GREEDY_HIGH, self.settings.one_sided_share, fixed=others)
        if 2 <= players - 1 <= self.settings.few_replies_most_others and self.game.offers_few_options:
            self.ceiling_from_few_replies(bounds, players - 1 <= self.settings.few_replies_floor_first_most_others)
        self._one_side(bounds, GREEDY_LOW, self.settings.one_sided_share, fixed=(self.seat,), lower=True)

    def ceiling_from_few_replies(self, bounds: Interval, floor_first: bool = True) -> None:
        """The others kept to the game's few replies at each choice (`few_options`, a short
        list the game chooses that holds its greedy bot's reply): a set of their strategies
        holding the greedy bots', so what it holds P to is a ceiling of Q2 and Q3, and no
        higher than theirs.  With `floor_first` it probes just above the floor first: with
        two others ganging up, P's floor is often all they allow, and the few replies prove
        it in a fraction of the states the full search needs (most of the others' replies are
        never tried).  Then it walks its ceiling down, one probe just below it at a time."""
        self._one_side(bounds, FEW_HIGH, self.settings.few_replies_share, few_replies=True,
                       first_above_floor=floor_first, descending=True)

    def _one_side(self, bounds: Interval, reason: str, share: float, fixed: tuple[int, ...] = (),
                  few_replies: bool = False, lower: bool = False, first_above_floor: bool = False,
                  descending: bool = False) -> None:
        """A one-sided search probed inside `bounds` with `share` of the time left (bisecting,
        or `descending` from the ceiling): its floor (`lower`) or its ceiling joins them with
        `reason`.  What it proved before its share ran out still counts; the payoff's own
        deadline passing ends the payoff."""
        if bounds.low >= bounds.high:
            return
        side = Interval(bounds.low, bounds.high, "", "")
        search = self.search(fixed, self.share_end(share), few_replies)
        try:
            drive(search, self.state, side, bounds.low + 1 if first_above_floor else None, want_action=False,
                  descending=descending)
        except BudgetExceeded:
            if self.deadline is not None and time.perf_counter() >= self.deadline:
                raise
        if lower:
            bounds.raise_low(side.low, reason)
        else:
            bounds.lower_high(side.high, reason)

    def drive(self, bounds: Interval) -> str | None:
        """The question's own search: probes until the bounds meet; P's root action.  Q1
        probes its ceiling first (often reached: every card to P); where that probe outlasts
        its share of a time limit, the game's models of joint play (where offered and used)
        and then bisection in the time left narrow the bounds."""
        reasons = SEARCH_LOW[self.question], SEARCH_HIGH[self.question]
        if self.question != "q1":
            search = self.search()
            several = len(self.game.returns(self.state)) > 2
            if several:
                self.probe_above_floor(search, bounds, reasons)
            return drive(search, self.state, bounds, None, *reasons, descending=several)
        if bounds.low < bounds.high and self.deadline is None and self.use_model:
            self.model_bounds(bounds, None)
        elif bounds.low < bounds.high and self.deadline is not None:
            first_share = (self.settings.q1_probe_before_model_share if self.use_model
                           else self.settings.q1_ceiling_share)
            share = self.share_end(first_share)
            try:
                return drive(self.search(deadline=share), self.state, bounds, bounds.high, *reasons)
            except BudgetExceeded:
                if time.perf_counter() >= self.deadline:
                    raise
            if self.use_model:
                self.model_bounds(bounds, self.settings.q1_model_share * max(0.0, self.deadline - time.perf_counter()))
        # a line the models found names P's action wherever it holds the floor
        line_action = None
        if self.model_line is not None and self.model_line.value >= bounds.low:
            line_action = self.model_line.action
        first = bounds.high if self.deadline is None else None
        found = drive(self.search(), self.state, bounds, first, *reasons, want_action=line_action is None)
        return found or line_action

    def probe_above_floor(self, search: Paranoid, bounds: Interval, reasons: tuple[str, str]) -> None:
        """With three or more seats Q2 and Q3 lie near their floor (the others gang up on P),
        and a strategy that gains P one card more is found sooner there than by bisection,
        which would probe the middle first and spend the time there: one probe at the floor
        + 1, with a share of a time limit (its table stays for the probes after it)."""
        if bounds.low >= bounds.high:
            return
        search.deadline = self.share_end(self.settings.floor_probe_share)
        try:
            drive(search, self.state, bounds, bounds.low + 1, *reasons, want_action=False, probes=1)
        except BudgetExceeded:
            if self.deadline is not None and time.perf_counter() >= self.deadline:
                raise
        finally:
            search.deadline = self.deadline

    def floor_from_next_rounds(self, bounds: Interval) -> None:
        """Probes just above the floor that look only `horizon_rounds` rounds ahead
        (HorizonFloor), raising it while they succeed: a card P gains at once whatever the
        others do (a Robber played now) is found in a few thousand nodes, where the full
        search first spends its time refuting P's other cards to the end of the game."""
        search = HorizonFloor(self.game, self.seat, self.question, self.payoff, self.budget,
                              self.share_end(self.settings.horizon_share), self.stats, self.settings.horizon_rounds)
        try:
            while bounds.low < bounds.high:
                value = search.probe(self.state, bounds.low, bounds.low + 1)
                if value <= bounds.low:
                    return
                bounds.raise_low(value, HORIZON_LOW[self.question])
                if search.root_action is not None:
                    self.floor_action = search.root_action, value
        except BudgetExceeded:
            if self.deadline is not None and time.perf_counter() >= self.deadline:
                raise

    def model_bounds(self, bounds: Interval, seconds: float | None) -> None:
        """Q1 from the game's models of joint play, where it offers them, each with a share of
        the time: first the restricted one (its lines are found sooner); then, where the
        ceiling is what the game's model would give P with every card, the models of the plays
        that reach it, or one card fewer, ... (`_ceiling_model`: a line decides; no solution
        lowers the ceiling by one); then the exact one, started from the best line and held to
        the ceiling proven by then.  Each best line, replayed through the rules, raises the
        floor; the exact model's proven bound lowers the ceiling.  The best line is kept in
        `model_line`."""
        margin = self.payoff == MARGIN
        started = time.perf_counter()

        def share(part: float) -> float | None:
            return None if seconds is None else part * seconds

        restricted = self.game.joint_play_model(self.state, self.seat, margin, restricted=True)
        line = None
        if restricted is not None:
            line = self._solve_model(restricted, share(self.settings.restricted_model_share), bounds, exact=False)
        if bounds.low < bounds.high:
            line = self._ceiling_model(bounds, share(self.settings.at_ceiling_model_share)) or line
        if bounds.low >= bounds.high:
            return
        exact = self.game.joint_play_model(self.state, self.seat, margin)
        if exact is None:
            return
        if line is not None:
            exact.hint(line)
        exact.model.add(exact.payoff <= int(bounds.high))
        self._solve_model(exact, None if seconds is None else max(0.0, seconds - (time.perf_counter() - started)),
                          bounds, exact=True)

    def _ceiling_model(self, bounds: Interval, seconds: float | None) -> list | None:
        """Can P reach the models' ceiling (every card still in play), or that less one card,
        two, ...?  Each asked of the game's model of the plays reaching exactly that, while it
        is the ceiling proven so far and the game states such a model: a line decides (it is
        returned), a proof that there is none lowers the ceiling by one and the next count is
        asked in the time left."""
        deadline = None if seconds is None else time.perf_counter() + seconds
        for short in itertools.count():
            if bounds.low >= bounds.high or (deadline is not None and time.perf_counter() >= deadline):
                return None
            built = self.game.joint_play_model(self.state, self.seat, self.payoff == MARGIN, at_ceiling=True,
                                               short=short)
            if built is None or built.ceiling - short != bounds.high:
                return None
            solved = maximise(built.model, None if deadline is None else max(0.0, deadline - time.perf_counter()),
                              feasibility=True)
            if not solved.infeasible:
                return self._take_solution(built, solved, bounds, exact=False)
            bounds.lower_high(built.ceiling - short - 1, MODEL_BELOW_CEILING)
        return None

    def _solve_model(self, built: Any, seconds: float | None, bounds: Interval, exact: bool) -> list | None:
        """Solve one model and take its solution (`_take_solution`): its line or None."""
        return self._take_solution(built, maximise(built.model, seconds), bounds, exact)

    def _take_solution(self, built: Any, solved: Maximised, bounds: Interval, exact: bool) -> list | None:
        """Replay a model's line (a line that does not replay to the value the model claims is
        a defect) and narrow the bounds.  The line, None where none was found."""
        if solved.value is None:
            return None
        line = built.line(solved.read)
        reached = replay(self.game, self.state, line)
        if not reached.ok or reached.outcome is None:
            raise EngineError(f"the joint-play model's line does not replay: {reached.error or 'the game goes on'}")
        payoff = payoff_now(self.game.returns(reached.state), self.seat, self.payoff)
        if payoff != solved.value:
            raise EngineError(f"the joint-play model's line reaches {payoff}, not the {solved.value} it claims")
        bounds.raise_low(payoff, MODEL_LOW)
        if exact:
            bounds.lower_high(solved.bound, MODEL_HIGH)
        if self.model_line is None or payoff > self.model_line.value:
            acting = self.game.acting_players(self.state)
            action = self.game.format_action(self.state, line[0][acting.index(self.seat)])
            self.model_line = ModelLine(reached.state, action, payoff)
        return line


def drive(search: Paranoid, state: Any, bounds: Interval, first: float | None, low_reason: str = "",
           high_reason: str = "", want_action: bool = True, probes: int | None = None,
           descending: bool = False) -> str | None:
    """Null-window probes: is the value at least gamma?  A probe that fails high proves a
    floor, one that fails low a ceiling (fail-soft: often past gamma).  First at `first`,
    then halving the interval or, `descending`, at the ceiling each time (at most `probes` of
    them).  Descending suits three or more seats under a time limit: a probe just below the
    ceiling is refuted in a fraction of the time of one in the middle (the others need only
    hold P a card short of it), and each one refuted lowers the ceiling, where a probe in
    the middle left unfinished proves nothing.  Returns P's root action on a line holding
    the floor."""
    action = None
    while bounds.low < bounds.high and probes != 0:
        probes = None if probes is None else probes - 1
        middle = bounds.high if descending else math.floor((bounds.low + bounds.high + 1) / 2)
        gamma = first if first is not None else middle
        first = None
        value = search.probe(state, gamma - 1, gamma)
        if value >= gamma:
            bounds.raise_low(value, low_reason)
            action = search.root_action
        else:
            bounds.lower_high(value, high_reason)
    if action is None and want_action:
        # the floor came from elsewhere: one probe at it names a root action holding it
        if search.probe(state, bounds.low - 1, bounds.low) >= bounds.low:
            action = search.root_action
    return action
