"""Open-deal analysis of simultaneous-move games: the four questions of Devil's Throne's §8.

The search knows no rules: it walks states through the verbs of games.base.SimultaneousGame
(`acting_players`, `legal_actions`, `apply_joint`, `returns`, `is_over`, `key`,
`round_start`, `cards_reachable`, `order_actions`, `greedy_action` and, where offered,
`greedy_action_against` and `few_options`, `format_action`) and refuses any other kind of
game in one line.

For a seat P:
- Q1, optimistic: one agent maximises over every joint action.
- Q2, paranoid, P commits first: at a simultaneous node P fixes its action, then the other
  seats (one coalition) answer together to hurt P; a node where P does not act is one
  minimising choice of the coalition.
- Q3, paranoid, P commits last: the coalition commits first and P answers.
- Q4, two players: the value of the zero-sum game on the card margin in mixed strategies, by
  backward induction with one matrix game per simultaneous node (a pure saddle point, then
  dominance, then a 2x2 formula, and only then an LP with GLOP).

Q1-Q3 are each asked of two payoffs: P's cards c_P (it adds up over rounds) and the margin
c_P - max_{Q != P} c_Q (whether P can win: > 0 alone, = 0 shared).  They are plain max/min
trees, searched by alpha-beta with a transposition table keyed at round starts only (within
a round two joint actions never meet again, spec §8).  A payoff that adds up stores a
value-to-go (the key leaves the tricks out); the margin of three or more seats does not add
up, so its key carries the differences c_P - c_Q, shifted so that the least is 0 (the margin
is their minimum, so the shift only moves the value) and capped where a lead can no longer
be the least.  The game's `cards_reachable` bounds what any payoff can still move.

The search is driven by null-window probes ("is the value at least g?"), each of which
proves a floor or a ceiling, halving the interval until it closes (Q1 probes the ceiling
first: everyone helping P often reaches it; Q2 and Q3 probe just above the floor first, with
a share of a time limit: the others ganging up hold P near it).  Q1 is also a single
optimisation over joint play, which a game may state whole as a CP-SAT model
(`joint_play_model`): where the first probe does not decide within its share of a time
limit, the model's best line, replayed through the rules, raises the floor and its proven
bound lowers the ceiling; a line that does not replay to the value claimed is a defect,
reported as an error, never used.
Before the probes, Q2 and Q3 get two one-sided searches, each a fixed strategy against the
best reply: P on the game's greedy bot (a floor for Q2 and Q3) and the other seats on it,
aimed at P (a ceiling for Q3 and Q2); with three or more seats, first a search of the next
round alone, each position after it counted at its static floor, which proves floors only
(a card P gains at once whatever the others do), and with three seats, after the others'
greedy bots, the others kept to the game's few replies at each choice (`few_options`, where
offered): a set of their strategies holding the bots', so its value is a lower ceiling, and
where they hold P to its floor it is found far sooner than by the full search.  The answers
already known narrow the start (Q2 <= Q3 <= Q1).  So every end of an interval is a real guarantee, and the answer says
which: a strategy found, a finished probe, a bound.

Engines: "python" is this module; "compiled" hands round starts to the game's compiled
hooks (`compiled_q4` for two players, `compiled_paranoid` for any number: for Devil's
Throne, solver/_simultaneous_core.h over the game's rules in C), which run the same searches
node for node (the tests compare values, states and table hits); "auto" uses them where the
game offers them.  For Q4 this module still walks the analysed node's own round, for the
root mixes.

A search that runs out of budget answers with an interval, never a value: the probes'
floors and ceilings, the one-sided searches' values and the order of the questions (Q2 <=
Q3 <= Q1 on each payoff, Q2 <= Q4 <= Q3 on the margin).
"""

from __future__ import annotations

import copy
import itertools
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.base import (
    LOST,
    UNDECIDED,
    WON,
    CompiledMissing,
    EngineError,
    Game,
    SimultaneousGame,
    UnsupportedGame,
    Verdict,
)
from solver.cpsat import Maximised, maximise
from solver.search import Budget, BudgetExceeded, notice_once, shared_budgets, state_budget_text
from solver.verify import replay

QUESTIONS = ("q1", "q2", "q3", "q4", "q5")
#: The questions answered in mixed strategies (the others are pure max/min trees).
MIXED = ("q4", "q5")
ENGINES = ("auto", "python", "compiled")
CARDS, MARGIN = "cards", "margin"
CHECK_EVERY = 256
#: Matrix entries this close count as equal (Q4 values are sums of LP solutions).
EPSILON = 1e-9


@dataclass
class Stats:
    states: int = 0         # round starts expanded (table misses)
    nodes: int = 0          # decision nodes visited
    table_hits: int = 0
    matrix_games: int = 0   # Q4: simultaneous nodes with two acting seats
    saddles: int = 0        # ... solved by a pure saddle point
    lps: int = 0            # ... that needed the LP
    seconds: float = 0.0

    def add(self, other: Stats) -> None:
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(self, name) + getattr(other, name))


@dataclass
class Answer:
    """One question's answer for seat P.  `cards` and `margin` are set only when proved;
    the bounds always hold (equal ends when proved).  Q4 has no cards and its margin may be
    fractional; its strategies are P's and the opponent's mixes at the root node."""

    question: str
    seat: int
    cards: int | None = None
    cards_bounds: tuple[float, float] = (-math.inf, math.inf)
    margin: float | None = None
    margin_bounds: tuple[float, float] = (-math.inf, math.inf)
    strategy: dict[str, float] | None = None
    opponent_strategy: dict[str, float] | None = None
    best_action: str | None = None   # Q1-Q3: P's action at the root, where the value was proved
    # Q2: P's action at the root on a strategy found that guarantees the cards' lower bound
    cards_floor_action: str | None = None
    stats: Stats = field(default_factory=Stats)
    exhausted: str = ""              # the budget that ran out, for an undecided part
    # Q1-Q3: what each end of the bounds rests on, in words ("" where nothing was computed)
    cards_low_reason: str = ""
    cards_high_reason: str = ""
    margin_low_reason: str = ""
    margin_high_reason: str = ""

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
    seat: int
    answers: dict[str, Answer]

    @property
    def stats(self) -> Stats:
        total = Stats()
        for answer in self.answers.values():
            total.add(answer.stats)
        return total


def check_simultaneous(game: Game) -> None:
    """Refuse, in one line, a game this module cannot analyse."""
    game_type = game.game_type
    if (not isinstance(game, SimultaneousGame) or not game_type.simultaneous or not game_type.deterministic
            or game_type.repeats):
        raise UnsupportedGame(f"{game.name} ({game_type.describe()}): the simultaneous-move analysis needs a"
                              " deterministic simultaneous-move game without repeating positions")


def default_questions(players: int) -> tuple[str, ...]:
    """What is asked when no question is named: Q1-Q3, and Q4 for two players (Q5, the
    coalition in mixed strategies, only when asked: it is searched in Python alone)."""
    return ("q1", "q2", "q3", "q4") if players == 2 else ("q1", "q2", "q3")


def analyse(game: Game, state: Any, seat: int = 0, questions: Sequence[str] | None = None,
            budget: Budget = Budget(), engine: str = "auto", joint_model: bool | None = None,
            payoffs: Sequence[str] = (CARDS, MARGIN), shared_time: bool = False,
            on_answer: Callable[[str, Answer], None] | None = None) -> Analysis:
    """Answer `questions` (q1-q5; None: `default_questions`) for seat P = `seat` from `state`;
    each question has the whole budget, or with `shared_time` its share of one time limit for
    them all (`shared_budgets`) (its two payoffs share it; Q1-Q3 ask only `payoffs`,
    a payoff not asked keeps no bounds and the answer is not `decided`).  Q4 needs two players, Q5
    three or more.  `engine`: "python", "compiled" (Q4 values of round starts from the game's
    `compiled_q4` hook; EngineError without one) or "auto" (compiled where the game offers it).
    `joint_model`: whether Q1 also asks the game's model of joint play (None: where the budget
    is a time limit without a state limit, since the model counts no states).
    `on_answer(question, answer)`: called as each question is answered, before the next is
    searched, with a copy narrowed by the answers known so far (the returned answers are
    narrowed by all of them, so an early one may end narrower)."""
    check_simultaneous(game)
    players = len(game.returns(state))
    questions = default_questions(players) if questions is None else questions
    unknown = [q for q in questions if q not in QUESTIONS]
    if unknown:
        raise ValueError(f"unknown question {unknown[0]!r} (known: {', '.join(QUESTIONS)})")
    if not 0 <= seat < players:
        raise ValueError(f"seat {seat + 1} is not in a {players}-player game")
    if "q4" in questions and players != 2:
        raise UnsupportedGame(f"Q4 (mixed strategies) is defined for two players, not {players}")
    if "q5" in questions and players == 2:
        raise UnsupportedGame("Q5 (the coalition in mixed strategies) is for three or more players;"
                              " with two it is Q4")
    if engine not in ENGINES:
        raise EngineError(f"unknown engine {engine!r} (known: {', '.join(ENGINES)})")
    if not payoffs or any(payoff not in (CARDS, MARGIN) for payoff in payoffs):
        raise ValueError(f"payoffs are {CARDS!r} and {MARGIN!r}, not {tuple(payoffs)!r}")
    answers = {}
    budgets = shared_budgets(budget, len(questions)) if shared_time else itertools.repeat(budget)
    for question, asked in zip(questions, budgets):
        if question in MIXED:
            answers[question] = _answer_mixed(game, state, seat, question, asked, engine)
        else:
            answers[question] = _answer_paranoid(game, state, seat, question, asked, engine, answers, joint_model,
                                                 tuple(payoffs))
        if on_answer is not None:
            so_far = copy.deepcopy(answers)
            _tighten(so_far)
            on_answer(question, so_far[question])
    _tighten(answers)
    return Analysis(seat, answers)


def equilibrium(game: Game, state: Any, seat: int = 0, budget: Budget = Budget(), engine: str = "auto") -> Answer:
    """Q4 at `state`: the value to `seat` and both seats' equilibrium mixes at this node
    (a hint for a two-player game)."""
    check_simultaneous(game)
    if len(game.returns(state)) != 2:
        raise UnsupportedGame("mixed-strategy hints need two players")
    return _answer_mixed(game, state, seat, "q4", budget, engine)


def matrix_game(matrix: Sequence[Sequence[float]], strategies: bool = False,
                stats: Stats | None = None) -> tuple[float, list[float] | None, list[float] | None]:
    """The value of the zero-sum matrix game (rows maximise), and, with `strategies`, an optimal
    mix for each side.  A pure saddle point skips the LP; so do dominated lines and 2x2 games."""
    stats = stats if stats is not None else Stats()
    stats.matrix_games += 1
    rows, columns = len(matrix), len(matrix[0])
    row_floors = [min(row) for row in matrix]
    column_ceilings = [max(matrix[r][c] for r in range(rows)) for c in range(columns)]
    maxmin, minmax = max(row_floors), min(column_ceilings)
    if maxmin >= minmax - EPSILON:
        stats.saddles += 1
        if not strategies:
            return maxmin, None, None
        return maxmin, _pure(rows, row_floors.index(maxmin)), _pure(columns, column_ceilings.index(minmax))
    keep_rows, keep_columns = _undominated(matrix)
    reduced = [[matrix[r][c] for c in keep_columns] for r in keep_rows]
    if len(keep_rows) == 2 and len(keep_columns) == 2 and _mixes_fully(reduced):
        value, x, y = _two_by_two(reduced)
    else:
        stats.lps += 1
        value, x = _lp_row_player(reduced)
        y = None
        if strategies:
            transposed = [[-reduced[r][c] for r in range(len(keep_rows))] for c in range(len(keep_columns))]
            y = _lp_row_player(transposed)[1]
    if not strategies:
        return value, None, None
    return value, _spread(x, keep_rows, rows), _spread(y, keep_columns, columns)


# ----- Q1-Q3: alpha-beta over max/min layers ------------------------------------------------

#: What each end of an interval rests on, by how it was found (the question fills in).
STATIC_LOW = {CARDS: "the cards P has won so far", MARGIN: "P's lead now less every card that can still be won"}
STATIC_HIGH = {CARDS: "P's cards plus every card P can still win",
               MARGIN: "P's lead now plus every card P can still win"}
SEARCH_LOW = {"q1": "a line of joint play reaching it was found",
              "q2": "P's best strategy found guarantees it against every reply of the others",
              "q3": "P's replies found reach it against every choice of the others"}
SEARCH_HIGH = {"q1": "the search proved no joint play reaches more",
               "q2": "the others' replies found hold each of P's strategies to it",
               "q3": "the others' best strategy found holds every reply of P to it"}
GREEDY_LOW = "P playing the greedy bot guarantees it against the others' best reply"
GREEDY_HIGH = "the others playing the greedy bot against P hold P's best reply to it"
FEW_HIGH = "the others, each kept to a short list of replies, hold each of P's strategies to it"
#: Of the time left for a Q2 or Q3 payoff after the others' greedy bots' search, what the
#: search with the others kept to a few replies may take; it runs where two to this many
#: other seats play (three others' few replies make up to 343 joint choices, too many to
#: refute within a share: four players at 60 s had worse ceilings with it).
FEW_REPLIES_SHARE = 0.5
FEW_REPLIES_MOST_OTHERS = 2
#: Of the time left for a payoff, what Q2's and Q3's first probe, just above the floor, may take.
FLOOR_PROBE_SHARE = 0.1
#: Before the one-sided searches, the probes of the next round alone (_HorizonFloor): their
#: share of the time, and how many rounds they look ahead.
HORIZON_SHARE = 0.05
HORIZON_ROUNDS = 1
HORIZON_LOW = {"q2": "P's strategy found for the next round alone guarantees it against every reply of the others",
               "q3": "P's replies found in the next round alone reach it against every choice of the others"}
#: Of the time left for a payoff, what each one-sided search may take.
ONE_SIDED_SHARE = 0.2
#: Of the time for a Q1 payoff, what the first probe (at the ceiling) may take.
Q1_CEILING_SHARE = 0.5
#: ... when the game's model of joint play comes next, and of the time then left, the model's.
Q1_PROBE_BEFORE_MODEL_SHARE = 0.1
Q1_MODEL_SHARE = 0.9
#: Of a Q1's time, the cards' where the model is used.
Q1_MODEL_CARDS_SHARE = 0.95
#: Of the models' time, the restricted model's and the model of the plays reaching the
#: ceiling's (where the game offers them); the exact model has the rest.
RESTRICTED_MODEL_SHARE = 0.1
AT_CEILING_MODEL_SHARE = 0.8
MODEL_LOW = "a line of joint play found by the CP-SAT model reaches it (replayed)"
MODEL_HIGH = "the CP-SAT model of every joint play proves no more"
MODEL_BELOW_CEILING = ("the CP-SAT models of the plays that reach each count above it prove that none does "
                       "(every card still in play, then one card fewer, ...)")
CARDS_CEILING_FOR_MARGIN = "P's cards' ceiling less the most another seat holds now"


@dataclass
class _Interval:
    """A payoff's bounds with what each end rests on."""

    low: float
    high: float
    low_reason: str
    high_reason: str

    def raise_low(self, value: float, reason: str) -> None:
        if value > self.low:
            self.low, self.low_reason = value, reason

    def lower_high(self, value: float, reason: str) -> None:
        if value < self.high:
            self.high, self.high_reason = value, reason


def _answer_paranoid(game: SimultaneousGame, state: Any, seat: int, question: str, budget: Budget,
                     engine: str, known: dict[str, Answer] | None = None, joint_model: bool | None = None,
                     payoffs: tuple[str, ...] = (CARDS, MARGIN)) -> Answer:
    """Each payoff: the cheap bounds, narrowed by the answers already known (Q2 <= Q3 <= Q1),
    then for Q2 and Q3 (with three or more seats) by a search of the next round alone, by
    the one-sided searches (P on the greedy bot against the others' best reply; the others
    on it, then with three seats on a few replies each, against P's best reply), then probes
    with null windows until the bounds meet.
    The cards get half the time (three quarters for a Q1 that uses the game's model of joint
    play: its line for the cards bounds the margin too, as does its ceiling: the others'
    cards never shrink); the margin what is left.  A payoff asked alone has all the time."""
    answer = Answer(question, seat)
    started = time.perf_counter()
    every_card = game.returns(state)[seat] + game.cards_reachable(state)
    model_line = None
    use_model = _uses_model(question, budget, joint_model)
    for payoff in payoffs:
        deadline = _payoff_deadline(payoff, started, budget, use_model, alone=len(payoffs) == 1)
        searches = _Searches(game, state, seat, question, payoff, budget, deadline, answer.stats, engine, use_model)
        bounds = searches.start_bounds(known or {})
        if payoff == MARGIN and answer.cards is not None and answer.cards == every_card:
            # P takes every card that can still be won: no one else gains, the lead grows by them all
            bounds.raise_low(bounds.high, "the line taking every card for P leaves the others none")
        if payoff == MARGIN and question == "q1":
            # the others' cards never shrink: P's lead is at most its cards less the most they hold now
            most_now = max(cards for other, cards in enumerate(game.returns(state)) if other != seat)
            bounds.lower_high(answer.cards_bounds[1] - most_now, CARDS_CEILING_FOR_MARGIN)
        if payoff == MARGIN and model_line is not None:
            lead = payoff_now(game.returns(model_line.end), seat, MARGIN)
            bounds.raise_low(lead, MODEL_LOW)
            searches.model_line = _ModelLine(model_line.end, model_line.action, lead)
        root_action = None
        try:
            if question != "q1" and bounds.low < bounds.high:
                if len(game.returns(state)) > 2:
                    searches.floor_from_next_rounds(bounds)
                searches.one_sided(bounds)
            root_action = searches.drive(bounds)
        except BudgetExceeded as exc:
            answer.exhausted = answer.exhausted or str(exc)
        model_line = searches.model_line
        if payoff == CARDS and question == "q2":
            answer.cards_floor_action = _floor_action(root_action, searches.floor_action, bounds.low)
        if bounds.low == bounds.high:
            if payoff == CARDS:
                answer.cards = int(bounds.low)
            else:
                answer.margin = int(bounds.low)
                answer.best_action = root_action
        if payoff == CARDS:
            answer.cards_bounds = (bounds.low, bounds.high)
            answer.cards_low_reason, answer.cards_high_reason = bounds.low_reason, bounds.high_reason
        else:
            answer.margin_bounds = (bounds.low, bounds.high)
            answer.margin_low_reason, answer.margin_high_reason = bounds.low_reason, bounds.high_reason
    answer.stats.seconds = time.perf_counter() - started
    return answer


def _floor_action(driven: str | None, found: tuple[str, float] | None, floor: float) -> str | None:
    """P's root action on a strategy that guarantees `floor`: the probes' (they ended at the
    floor), else the next round's search's where it reached the floor."""
    if driven is not None:
        return driven
    return found[0] if found is not None and found[1] >= floor else None


def payoff_now(returns: Sequence[int], seat: int, payoff: str) -> int:
    """A payoff as the trick piles stand: P's cards, or P's margin over the best other seat."""
    if payoff == CARDS:
        return returns[seat]
    return returns[seat] - max(cards for other, cards in enumerate(returns) if other != seat)


def _uses_model(question: str, budget: Budget, joint_model: bool | None) -> bool:
    """Whether Q1 asks the game's model of joint play: as told, else where the budget is a
    time limit alone (the model counts no states, so it cannot keep a state budget)."""
    if question != "q1":
        return False
    if joint_model is not None:
        return joint_model
    return budget.time_limit is not None and budget.max_states is None


def _payoff_deadline(payoff: str, started: float, budget: Budget, with_model: bool = False,
                     alone: bool = False) -> float | None:
    """When a payoff's search must stop: the cards, asked first, get half the time, or three
    quarters where the model of joint play is used; a payoff asked alone all of it."""
    if budget.time_limit is None:
        return None
    if payoff != CARDS or alone:
        return started + budget.time_limit
    return started + budget.time_limit * (Q1_MODEL_CARDS_SHARE if with_model else 0.5)


@dataclass(frozen=True)
class _ModelLine:
    """Where the best line the models found ends, P's first action on it, and its payoff."""

    end: Any
    action: str
    value: int


class _Searches:
    """One payoff of one question: the searches (Python or compiled), the game's model of
    joint play (Q1) and the probe driver."""

    def __init__(self, game: SimultaneousGame, state: Any, seat: int, question: str, payoff: str, budget: Budget,
                 deadline: float | None, stats: Stats, engine: str, use_model: bool = False):
        self.game, self.state, self.seat, self.question, self.payoff = game, state, seat, question, payoff
        self.budget, self.deadline, self.stats, self.engine = budget, deadline, stats, engine
        self.use_model = use_model
        self.model_line: _ModelLine | None = None   # the best line the models found
        self.floor_action: tuple[str, float] | None = None  # P's root action and the floor it holds

    def share_end(self, part: float) -> float | None:
        """The moment `part` of the time left for this payoff runs out (None without a limit)."""
        if self.deadline is None:
            return None
        return time.perf_counter() + part * max(0.0, self.deadline - time.perf_counter())

    def search(self, fixed: tuple[int, ...] = (), deadline: float | None = None,
               few_replies: bool = False) -> _Paranoid:
        compiled = _compiled_paranoid(self.game, self.state, self.seat, self.question, self.payoff, self.engine,
                                      fixed, few_replies)
        return _Paranoid(self.game, self.seat, self.question, self.payoff, self.budget,
                         self.deadline if deadline is None else deadline, self.stats, compiled, fixed, few_replies)

    def start_bounds(self, known: dict[str, Answer]) -> _Interval:
        low, high = _Paranoid.bounds_of(self.game, self.state, self.seat, self.payoff)
        bounds = _Interval(low, high, STATIC_LOW[self.payoff], STATIC_HIGH[self.payoff])
        name = "cards_bounds" if self.payoff == CARDS else "margin_bounds"
        if self.question == "q3" and "q2" in known:
            bounds.raise_low(getattr(known["q2"], name)[0], "Q2's lower bound (Q2 <= Q3)")
        if self.question in ("q2", "q3") and "q1" in known:
            bounds.lower_high(getattr(known["q1"], name)[1], "Q1's upper bound (Q3 <= Q1)")
        if self.question == "q2" and "q3" in known:
            bounds.lower_high(getattr(known["q3"], name)[1], "Q3's upper bound (Q2 <= Q3)")
        return bounds

    def one_sided(self, bounds: _Interval) -> None:
        """A strategy of one side against the best reply: the others' greedy bots bound Q3 (so
        Q2) from above, and with three seats then the others kept to the game's few
        replies (`ceiling_from_few_replies`: a lower ceiling, found more slowly); P's greedy
        bot bounds Q2 (so Q3) from below.  Each gets a share of the time and is probed only
        inside the bounds already known (a value outside them says nothing new); what it
        proved before its time ran out still counts."""
        players = len(self.game.returns(self.state))
        others = tuple(s for s in range(players) if s != self.seat)
        self._one_side(bounds, GREEDY_HIGH, ONE_SIDED_SHARE, fixed=others)
        if 2 <= players - 1 <= FEW_REPLIES_MOST_OTHERS and getattr(self.game, "few_options", None) is not None:
            self.ceiling_from_few_replies(bounds)
        self._one_side(bounds, GREEDY_LOW, ONE_SIDED_SHARE, fixed=(self.seat,), lower=True)

    def ceiling_from_few_replies(self, bounds: _Interval) -> None:
        """The others kept to the game's few replies at each choice (`few_options`, a short
        list the game chooses that holds its greedy bot's reply): a set of their strategies
        holding the greedy bots', so what it holds P to is a ceiling of Q2 and Q3, and no
        higher than theirs.  It probes just above the floor first: with two others ganging
        up, P's floor is often all they allow, and the few replies prove it in a fraction of
        the states the full search needs (most of the others' replies are never tried)."""
        self._one_side(bounds, FEW_HIGH, FEW_REPLIES_SHARE, few_replies=True, first_above_floor=True)

    def _one_side(self, bounds: _Interval, reason: str, share: float, fixed: tuple[int, ...] = (),
                  few_replies: bool = False, lower: bool = False, first_above_floor: bool = False) -> None:
        """A one-sided search probed inside `bounds` with `share` of the time left: its floor
        (`lower`) or its ceiling joins them with `reason`.  What it proved before its share ran
        out still counts; the payoff's own deadline passing ends the payoff."""
        if bounds.low >= bounds.high:
            return
        side = _Interval(bounds.low, bounds.high, "", "")
        search = self.search(fixed, self.share_end(share), few_replies)
        try:
            _drive(search, self.state, side, bounds.low + 1 if first_above_floor else None, want_action=False)
        except BudgetExceeded:
            if self.deadline is not None and time.perf_counter() >= self.deadline:
                raise
        if lower:
            bounds.raise_low(side.low, reason)
        else:
            bounds.lower_high(side.high, reason)

    def drive(self, bounds: _Interval) -> str | None:
        """The question's own search: probes until the bounds meet; P's root action.  Q1
        probes its ceiling first (often reached: every card to P); where that probe outlasts
        its share of a time limit, the game's models of joint play (where offered and used)
        and then bisection in the time left narrow the bounds."""
        reasons = SEARCH_LOW[self.question], SEARCH_HIGH[self.question]
        if self.question != "q1":
            search = self.search()
            if len(self.game.returns(self.state)) > 2:
                self.probe_above_floor(search, bounds, reasons)
            return _drive(search, self.state, bounds, None, *reasons)
        if bounds.low < bounds.high and self.deadline is None and self.use_model:
            self.model_bounds(bounds, None)
        elif bounds.low < bounds.high and self.deadline is not None:
            first_share = Q1_PROBE_BEFORE_MODEL_SHARE if self.use_model else Q1_CEILING_SHARE
            share = self.share_end(first_share)
            try:
                return _drive(self.search(deadline=share), self.state, bounds, bounds.high, *reasons)
            except BudgetExceeded:
                if time.perf_counter() >= self.deadline:
                    raise
            if self.use_model:
                self.model_bounds(bounds, Q1_MODEL_SHARE * max(0.0, self.deadline - time.perf_counter()))
        # a line the models found names P's action wherever it holds the floor
        line_action = None
        if self.model_line is not None and self.model_line.value >= bounds.low:
            line_action = self.model_line.action
        first = bounds.high if self.deadline is None else None
        found = _drive(self.search(), self.state, bounds, first, *reasons, want_action=line_action is None)
        return found or line_action

    def probe_above_floor(self, search: _Paranoid, bounds: _Interval, reasons: tuple[str, str]) -> None:
        """With three or more seats Q2 and Q3 lie near their floor (the others gang up on P),
        and a strategy that gains P one card more is found sooner there than by bisection,
        which would probe the middle first and spend the time there: one probe at the floor
        + 1, with a share of a time limit (its table stays for the probes after it)."""
        if bounds.low >= bounds.high:
            return
        search.deadline = self.share_end(FLOOR_PROBE_SHARE)
        try:
            _drive(search, self.state, bounds, bounds.low + 1, *reasons, want_action=False, probes=1)
        except BudgetExceeded:
            if self.deadline is not None and time.perf_counter() >= self.deadline:
                raise
        finally:
            search.deadline = self.deadline

    def floor_from_next_rounds(self, bounds: _Interval) -> None:
        """Probes just above the floor that look only HORIZON_ROUNDS rounds ahead
        (_HorizonFloor), raising it while they succeed: a card P gains at once whatever the
        others do (a Robber played now) is found in a few thousand nodes, where the full
        search first spends its time refuting P's other cards to the end of the game."""
        search = _HorizonFloor(self.game, self.seat, self.question, self.payoff, self.budget,
                               self.share_end(HORIZON_SHARE), self.stats, HORIZON_ROUNDS)
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

    def model_bounds(self, bounds: _Interval, seconds: float | None) -> None:
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
            line = self._solve_model(restricted, share(RESTRICTED_MODEL_SHARE), bounds, exact=False)
        if bounds.low < bounds.high:
            line = self._ceiling_model(bounds, share(AT_CEILING_MODEL_SHARE)) or line
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

    def _ceiling_model(self, bounds: _Interval, seconds: float | None) -> list | None:
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

    def _solve_model(self, built: Any, seconds: float | None, bounds: _Interval, exact: bool) -> list | None:
        """Solve one model and take its solution (`_take_solution`): its line or None."""
        return self._take_solution(built, maximise(built.model, seconds), bounds, exact)

    def _take_solution(self, built: Any, solved: Maximised, bounds: _Interval, exact: bool) -> list | None:
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
            self.model_line = _ModelLine(reached.state, action, payoff)
        return line


def _drive(search: _Paranoid, state: Any, bounds: _Interval, first: float | None, low_reason: str = "",
           high_reason: str = "", want_action: bool = True, probes: int | None = None) -> str | None:
    """Null-window probes: is the value at least gamma?  A probe that fails high proves a
    floor, one that fails low a ceiling (fail-soft: often past gamma).  First at `first`,
    then halving the interval (at most `probes` of them).  Returns P's root action on a line
    holding the floor."""
    action = None
    while bounds.low < bounds.high and probes != 0:
        probes = None if probes is None else probes - 1
        gamma = first if first is not None else math.floor((bounds.low + bounds.high + 1) / 2)
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


def _compiled_paranoid(game: SimultaneousGame, state: Any, seat: int, question: str, payoff: str,
                       engine: str, fixed: tuple[int, ...] = (), few_replies: bool = False) -> Any:
    """The game's compiled Q1-Q3 from this round start, None for the Python search."""
    if engine == "python":
        return None
    compiled = None
    if game.round_start(state):
        try:
            if fixed or few_replies:
                compiled = game.compiled_paranoid(state, seat, question, payoff == MARGIN, fixed=fixed,
                                                  few_replies=few_replies)
            else:
                compiled = game.compiled_paranoid(state, seat, question, payoff == MARGIN)
        except CompiledMissing as exc:
            _not_built(exc, engine)
    if compiled is None and engine == "compiled":
        raise EngineError(f"no compiled {question.upper()} engine for {game.name} here"
                          " (not built, or not a round start)")
    return compiled


def _not_built(exc: CompiledMissing, engine: str) -> None:
    """A compiled engine that is not built: an error when asked for by name, else said once
    on stderr (the Python engine answers)."""
    if engine == "compiled":
        raise exc
    notice_once(f"usurper: note: {exc}; using the Python engine (slower)")


class _Budgeted:
    def __init__(self, game: SimultaneousGame, budget: Budget, deadline: float | None, stats: Stats):
        self.game = game
        self.budget = budget
        self.deadline = deadline
        self.stats = stats
        self.calls = 0
        self.table: dict = {}

    def _tick(self) -> None:
        self.stats.nodes += 1
        self.calls += 1
        if self.calls % CHECK_EVERY == 0 and self.deadline is not None and time.perf_counter() > self.deadline:
            raise BudgetExceeded(self.budget.time_text())

    def _exhausted_text(self, which: str) -> str:
        """The words for a compiled run's "time", "states" or "memory"."""
        if which == "time":
            return self.budget.time_text()
        if which == "states":
            return state_budget_text(self.budget.max_states)
        return "memory for the transposition table"

    def _count_state(self) -> None:
        self.stats.states += 1
        if self.budget.max_states is not None and self.stats.states > self.budget.max_states:
            raise BudgetExceeded(state_budget_text(self.budget.max_states))


class _Paranoid(_Budgeted):
    """Q1-Q3 on one payoff: alpha-beta (fail-soft) with a table of (floor, ceiling) per key,
    probed with windows; seats in `fixed` play the game's greedy bot (one option); with
    `few_replies` the other seats choose among the game's `few_options` only (a ceiling)."""

    def __init__(self, game: SimultaneousGame, seat: int, question: str, payoff: str, budget: Budget,
                 deadline: float | None, stats: Stats, compiled: Any = None, fixed: tuple[int, ...] = (),
                 few_replies: bool = False):
        super().__init__(game, budget, deadline, stats)
        self.compiled = compiled
        self.seat = seat
        self.question = question
        self.payoff = payoff
        self.fixed = fixed
        self.few_replies = few_replies
        self.root = None
        self.root_action: str | None = None
        self._compiled_counts = (0, 0)

    def probe(self, state: Any, alpha: float, beta: float) -> float:
        """The fail-soft value of round start `state` within (alpha, beta)."""
        self.root = state
        self.root_action = None
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise BudgetExceeded(self._exhausted_text("time"))
        if self.compiled is not None:
            return self._probe_compiled(state, alpha, beta)
        return self._root_value(state, alpha, beta)

    def _probe_compiled(self, state: Any, alpha: float, beta: float) -> float:
        seconds = None if self.deadline is None else max(1e-6, self.deadline - time.perf_counter())
        states = None if self.budget.max_states is None else max(0, self.budget.max_states - self.stats.states)
        run = self.compiled.value(state, alpha, beta, seconds, states)
        self.stats.states += run.states - self._compiled_counts[0]
        self.stats.table_hits += run.table_hits - self._compiled_counts[1]
        self._compiled_counts = (run.states, run.table_hits)
        if run.root_action:
            self.root_action = self.game.format_action(state, run.root_action)
        if run.value is None:
            raise BudgetExceeded(self._exhausted_text(run.exhausted))
        return int(run.value)

    @staticmethod
    def bounds_of(game: SimultaneousGame, state: Any, seat: int, payoff: str,
                  spare: int | None = None) -> tuple[int, int]:
        """No line from `state` leaves the payoff outside these: the others together gain at
        most every card that can still be won (`spare`, `cards_reachable`), P those less the
        ones out of its reach."""
        if spare is None:
            spare = game.cards_reachable(state)
        now, mine = payoff_now(game.returns(state), seat, payoff), spare - game.cards_out_of_reach(state, seat)
        return (now if payoff == CARDS else now - spare), now + mine

    def _payoff(self, state: Any) -> int:
        return payoff_now(self.game.returns(state), self.seat, self.payoff)

    def _table_key(self, state: Any, spare: int) -> tuple[Any, int]:
        """The key and the offset that turns a stored value-to-go into the state's value
        (`spare`: the cards that can still be won)."""
        returns = self.game.returns(state)
        if self.payoff == CARDS:
            return self.game.key(state), returns[self.seat]
        leads = [returns[self.seat] - r for s, r in enumerate(returns) if s != self.seat]
        if len(leads) == 1:
            return self.game.key(state), leads[0]
        least = min(leads)
        # a lead more than twice the cards that can still be won above the least can never be the least
        cap = 2 * spare + 1
        return (self.game.key(state), tuple(min(lead - least, cap) for lead in leads)), least

    def _entry(self, state: Any, count_hit: bool) -> tuple[Any, int, float, float]:
        spare = self.game.cards_reachable(state)
        key, offset = self._table_key(state, spare)
        floor, ceiling = self.bounds_of(self.game, state, self.seat, self.payoff, spare)
        entry = self.table.get(key)
        if entry is not None:
            if count_hit:
                self.stats.table_hits += 1
            floor, ceiling = max(floor, entry[0] + offset), min(ceiling, entry[1] + offset)
        return key, offset, floor, ceiling

    def _store(self, key, offset, floor, ceiling, low, high, value) -> None:
        if value <= low:
            ceiling = min(ceiling, value)
        elif value >= high:
            floor = max(floor, value)
        else:
            floor = ceiling = value
        self.table[key] = (floor - offset, ceiling - offset)

    def _root_value(self, state: Any, alpha: float, beta: float) -> float:
        """As _value, but always expanded (no table hit counted), noting P's root action."""
        self._tick()
        key, offset, floor, ceiling = self._entry(state, False)
        self._count_state()
        value = self._node(state, alpha, beta)
        self._store(key, offset, floor, ceiling, alpha, beta, value)
        return value

    def _value(self, state: Any, alpha: float, beta: float) -> float:
        self._tick()
        if self.game.is_over(state):
            return self._payoff(state)
        if not self.game.round_start(state):
            return self._node(state, alpha, beta)
        key, offset, floor, ceiling = self._entry(state, True)
        if floor >= beta or floor == ceiling:
            return floor
        if ceiling <= alpha:
            return ceiling
        low, high = max(alpha, floor), min(beta, ceiling)
        self._count_state()
        value = self._node(state, low, high)
        self._store(key, offset, floor, ceiling, low, high, value)
        return value

    def _node(self, state: Any, alpha: float, beta: float) -> float:
        acting = self.game.acting_players(state)
        options = {}
        for seat in acting:
            if seat in self.fixed:
                options[seat] = [self._policy(state, seat)]
            else:
                options[seat] = self.game.order_actions(state, seat, self.game.legal_actions(state, seat))
        return self._layer(state, acting, options, self._layers(acting), 0, {}, alpha, beta)

    def _policy(self, state: Any, seat: int) -> Any:
        """A fixed seat's action: the game's greedy bot, P's against every other seat and a
        coalition seat's against P (where the game can aim it; else its plain greedy bot)."""
        aim = getattr(self.game, "greedy_action_against", None)
        if aim is None:
            return self.game.greedy_action(state, seat)
        players = len(self.game.returns(state))
        against = [s for s in range(players) if s != seat] if seat == self.seat else [self.seat]
        return aim(state, seat, against)

    def _layers(self, acting: tuple[int, ...]) -> list[tuple[tuple[int, ...], bool]]:
        """Who chooses in which order at this node, and whether that choice maximises."""
        if self.question == "q1":
            return [(acting, True)]
        others = tuple(s for s in acting if s != self.seat)
        if self.seat not in acting:
            return [(others, False)]
        if not others:
            return [((self.seat,), True)]
        if self.question == "q2":
            return [((self.seat,), True), (others, False)]
        return [(others, False), ((self.seat,), True)]

    def _layer(self, state, acting, options, layers, index, chosen, alpha, beta) -> float:
        if index == len(layers):
            return self._value(self.game.apply_joint(state, tuple(chosen[s] for s in acting)), alpha, beta)
        seats, maximise = layers[index]
        at_root = state is self.root and index == 0
        best = -math.inf if maximise else math.inf
        choices = [options[s] for s in seats]
        if self.few_replies and self.seat not in seats:
            answered = chosen.get(self.seat)  # P's action where P chose first at this node
            choices = [self.game.few_options(state, s, self.seat, options[s], answered) for s in seats]
        for joint in itertools.product(*choices):
            chosen.update(zip(seats, joint))
            value = self._layer(state, acting, options, layers, index + 1, chosen, alpha, beta)
            if maximise and value > best:
                best, alpha = value, max(alpha, value)
                if at_root:
                    self.root_action = self._action_text(state, seats, joint)
            elif not maximise and value < best:
                best, beta = value, min(beta, value)
            if alpha >= beta:
                break
        return best

    def _action_text(self, state, seats, joint) -> str | None:
        if self.seat not in seats:
            return None
        return self.game.format_action(state, joint[seats.index(self.seat)])


class _HorizonFloor(_Paranoid):
    """Q2 or Q3 over the next `horizon` rounds alone: a round start beyond them, and any node
    whose static floor already reaches the probe, counts at its static floor.  Every leaf is
    then at most its value in the whole game and max/min are monotone, so any value this
    search proves is a floor of the whole game's; a probe that fails proves nothing (no
    ceiling is taken from it).  Python, no table: its values are not the full search's."""

    def __init__(self, game: SimultaneousGame, seat: int, question: str, payoff: str, budget: Budget,
                 deadline: float | None, stats: Stats, horizon: int):
        super().__init__(game, seat, question, payoff, budget, deadline, stats)
        self.horizon = horizon
        self.rounds = 0

    def _root_value(self, state: Any, alpha: float, beta: float) -> float:
        self._tick()
        self._count_state()
        self.rounds = 1
        return self._node(state, alpha, beta)

    def _value(self, state: Any, alpha: float, beta: float) -> float:
        self._tick()
        if self.game.is_over(state):
            return self._payoff(state)
        floor, ceiling = self.bounds_of(self.game, state, self.seat, self.payoff)
        if floor >= beta or floor == ceiling:
            return floor
        if not self.game.round_start(state):
            return self._node(state, alpha, beta)
        if self.rounds >= self.horizon:
            return floor
        if ceiling <= alpha:
            return ceiling
        self._count_state()
        self.rounds += 1
        try:
            return self._node(state, max(alpha, floor), min(beta, ceiling))
        finally:
            self.rounds -= 1


# ----- Q4: backward induction with a matrix game per simultaneous node ---------------------

def _answer_mixed(game: SimultaneousGame, state: Any, seat: int, question: str, budget: Budget,
                  engine: str) -> Answer:
    """Q4 (two players, the margin; the compiled round starts where offered) or Q5 (P
    against the coalition of the others, each payoff, the cards with half the time): exact
    values in mixed strategies, or the cheap bounds where the budget runs out."""
    answer = Answer(question, seat)
    started = time.perf_counter()
    compiled = _compiled_q4(game, state, seat, engine) if question == "q4" else None
    spare = game.cards_reachable(state)
    for payoff in (MARGIN,) if question == "q4" else (CARDS, MARGIN):
        search = _Equilibrium(game, state, seat, budget, _payoff_deadline(payoff, started, budget), answer.stats,
                              compiled, payoff)
        low_reason, high_reason = STATIC_LOW[payoff], STATIC_HIGH[payoff]
        bounds = _Paranoid.bounds_of(game, state, seat, payoff, spare)
        try:
            value, mine, theirs = search.root(state)
            value += 0.0  # never print -0
            bounds, low_reason, high_reason = (value, value), "", ""
            if payoff == MARGIN:
                answer.margin, answer.strategy, answer.opponent_strategy = value, mine, theirs
            else:
                answer.cards = value
        except BudgetExceeded as exc:
            answer.exhausted = answer.exhausted or str(exc)
        search.merge_compiled_stats()
        if payoff == CARDS:
            answer.cards_bounds, answer.cards_low_reason, answer.cards_high_reason = bounds, low_reason, high_reason
        else:
            answer.margin_bounds, answer.margin_low_reason, answer.margin_high_reason = bounds, low_reason, high_reason
    answer.stats.seconds = time.perf_counter() - started
    return answer


def _compiled_q4(game: SimultaneousGame, state: Any, seat: int, engine: str) -> Any:
    """The game's compiled Q4 values of round starts, None for the Python search."""
    if engine == "python":
        return None
    compiled = None
    try:
        compiled = game.compiled_q4(state, seat)
    except CompiledMissing as exc:
        _not_built(exc, engine)
    if compiled is None and engine == "compiled":
        raise EngineError(f"no compiled Q4 engine for {game.name} here (not built, or not two players)")
    return compiled


class _Equilibrium(_Budgeted):
    """Exact values of the zero-sum game of P against the coalition of every other seat (one
    player choosing their joint action, so the others may correlate; with two players it is
    the opponent) on P's margin or P's cards, in mixed strategies, table at round starts.
    A payoff that adds up over rounds (the cards; the margin of two players) stores a
    value-to-go; the margin of three or more seats is keyed with the differences c_P - c_Q.
    With a compiled engine (Q4), round starts are valued by it and this class only walks the
    root's round (for the root mixes)."""

    def __init__(self, game: SimultaneousGame, state: Any, seat: int, budget: Budget, deadline: float | None,
                 stats: Stats, compiled: Any = None, payoff: str = MARGIN):
        super().__init__(game, budget, deadline, stats)
        self.seat, self.payoff = seat, payoff
        self.others = tuple(other for other in range(len(game.returns(state))) if other != seat)
        self.adds_up = payoff == CARDS or len(self.others) == 1
        self.compiled = compiled
        self.compiled_run = None

    def merge_compiled_stats(self) -> None:
        run = self.compiled_run
        if run is not None:
            self.stats.states += run.states
            self.stats.table_hits += run.table_hits
            self.stats.matrix_games += run.matrix_games
            self.stats.saddles += run.saddles
            self.stats.lps += run.lps

    def _compiled_value(self, state: Any) -> float:
        seconds = None if self.deadline is None else self.deadline - time.perf_counter()
        states = None
        if self.budget.max_states is not None:
            done = self.compiled_run.states if self.compiled_run else 0
            states = self.budget.max_states - self.stats.states - done
        if (seconds is not None and seconds <= 0) or (states is not None and states < 0):
            raise BudgetExceeded(self._exhausted_text("time" if seconds is not None and seconds <= 0 else "states"))
        run = self.compiled.value(state, seconds, states)
        self.compiled_run = run
        if run.value is None:
            raise BudgetExceeded(self._exhausted_text(run.exhausted))
        return run.value

    def lead(self, state: Any) -> int:
        """The payoff if the game ended now."""
        return payoff_now(self.game.returns(state), self.seat, self.payoff)

    def root(self, state: Any) -> tuple[float, dict[str, float] | None, dict[str, float] | None]:
        """The value and, where the game is not over, P's mix over its own actions and the
        coalition's over its joint actions here (None for a side that does not act)."""
        if self.game.is_over(state):
            return self.lead(state), None, None
        acting, rows, columns = self._sides(state)
        matrix = [[self._child(state, acting, row, column) for column in columns] for row in rows]
        value, x, y = matrix_game(matrix, strategies=True, stats=self.stats)
        mine = self._mix([self.game.format_action(state, row) for row in rows], x) if self.seat in acting else None
        theirs = None
        if any(other in acting for other in self.others):
            theirs = self._mix([self._joint_text(state, acting, column) for column in columns], y)
        return value, mine, theirs

    def _sides(self, state: Any) -> tuple[tuple[int, ...], list, list]:
        """The acting seats, P's actions (rows; [None] if P does not act) and the coalition's
        joint actions (columns, in seat order; [()] if none of them acts)."""
        acting = self.game.acting_players(state)
        rows = self.game.legal_actions(state, self.seat) if self.seat in acting else [None]
        columns = list(itertools.product(*(self.game.legal_actions(state, other)
                                           for other in self.others if other in acting)))
        return acting, rows, columns

    def _joint_text(self, state: Any, acting: tuple[int, ...], column: tuple) -> str:
        seats = [other for other in self.others if other in acting]
        if len(seats) == 1:
            return self.game.format_action(state, column[0])
        return " + ".join(f"seat {other + 1} {self.game.format_action(state, action)}"
                          for other, action in zip(seats, column))

    @staticmethod
    def _mix(texts: list[str], weights: list[float]) -> dict[str, float]:
        return {text: weight for text, weight in zip(texts, weights) if weight > EPSILON}

    def _child(self, state: Any, acting: tuple[int, ...], row: Any, column: tuple) -> float:
        choice = dict(zip((other for other in self.others if other in acting), column))
        if row is not None:
            choice[self.seat] = row
        return self._value(self.game.apply_joint(state, tuple(choice[seat] for seat in acting)))

    def _value(self, state: Any) -> float:
        self._tick()
        if self.game.is_over(state):
            return self.lead(state)
        if not self.game.round_start(state):
            return self._node(state)
        if self.compiled is not None:
            return self.lead(state) + self._compiled_value(state)
        key, offset = self._table_key(state)
        stored = self.table.get(key)
        if stored is not None:
            self.stats.table_hits += 1
            return stored + offset
        self._count_state()
        value = self._node(state)
        self.table[key] = value - offset
        return value

    def _table_key(self, state: Any) -> tuple[Any, float]:
        """The key of a round start and what its stored value is relative to."""
        if self.adds_up:
            return self.game.key(state), self.lead(state)
        returns = self.game.returns(state)
        return (self.game.key(state), tuple(returns[self.seat] - returns[other] for other in self.others)), 0

    def _node(self, state: Any) -> float:
        acting, rows, columns = self._sides(state)
        if rows == [None] or not any(other in acting for other in self.others):  # one side alone: max or min
            values = [self._child(state, acting, row, column) for row in rows for column in columns]
            return max(values) if self.seat in acting else min(values)
        matrix = [[self._child(state, acting, row, column) for column in columns] for row in rows]
        return matrix_game(matrix, stats=self.stats)[0]


# ----- matrix games ---------------------------------------------------------------------

def _undominated(matrix: Sequence[Sequence[float]]) -> tuple[list[int], list[int]]:
    """Rows and columns left by iterated removal of weakly dominated pure lines: the value
    stays, and optimal mixes of what is left are optimal in the whole game."""
    rows, columns = list(range(len(matrix))), list(range(len(matrix[0])))
    changed = True
    while changed and (len(rows) > 1 or len(columns) > 1):
        changed = False
        for r in list(rows):
            if len(rows) > 1 and any(o != r and all(matrix[o][c] >= matrix[r][c] - EPSILON for c in columns)
                                     for o in rows):
                rows.remove(r)
                changed = True
        for c in list(columns):
            if len(columns) > 1 and any(o != c and all(matrix[r][o] <= matrix[r][c] + EPSILON for r in rows)
                                        for o in columns):
                columns.remove(c)
                changed = True
    return rows, columns


def _two_by_two(m: Sequence[Sequence[float]]) -> tuple[float, list[float], list[float]]:
    """A 2x2 game without a saddle point (dominance removed it otherwise): both sides mix."""
    (a, b), (c, d) = m
    denominator = a - b - c + d
    p = (d - c) / denominator
    q = (d - b) / denominator
    return (a * d - b * c) / denominator, [p, 1 - p], [q, 1 - q]


def _mixes_fully(m: Sequence[Sequence[float]]) -> bool:
    """The 2x2 formula holds when each side's best reply flips with the other's choice."""
    (a, b), (c, d) = m
    return abs(a - b - c + d) > EPSILON and (a - c) * (d - b) > 0 and (a - b) * (d - c) > 0


def _lp_row_player(matrix: Sequence[Sequence[float]]) -> tuple[float, list[float]]:
    """max v subject to sum_r x_r M[r][c] >= v for every column c, sum x = 1, x >= 0 (GLOP)."""
    from ortools.linear_solver import pywraplp

    # Entries are rounded (GLOP gives up on coefficients such as 1e-17) and shifted to be at
    # least 1, so that v is positive and bounded.
    shift = 1 - min(min(row) for row in matrix)
    solver = pywraplp.Solver.CreateSolver("GLOP")
    x = [solver.NumVar(0.0, 1.0, f"x{r}") for r in range(len(matrix))]
    v = solver.NumVar(0.0, solver.infinity(), "v")
    for c in range(len(matrix[0])):
        solver.Add(sum(x[r] * round(matrix[r][c] + shift, 10) for r in range(len(matrix))) >= v)
    solver.Add(sum(x) == 1)
    solver.Maximize(v)
    if solver.Solve() != pywraplp.Solver.OPTIMAL:
        raise RuntimeError("GLOP found no optimum for a matrix game (every matrix game has one)")
    weights = [max(0.0, var.solution_value()) for var in x]
    total = sum(weights)
    return v.solution_value() - shift, [w / total for w in weights]


def _pure(size: int, index: int) -> list[float]:
    return [1.0 if i == index else 0.0 for i in range(size)]


def _spread(weights: list[float], kept: list[int], size: int) -> list[float]:
    full = [0.0] * size
    for index, weight in zip(kept, weights):
        full[index] = weight
    return full


# ----- bounds shared between questions ----------------------------------------------------

def _tighten(answers: dict[str, Answer]) -> None:
    """Narrow undecided intervals by the questions' order: Q2 <= Q5 <= Q3 <= Q1 on each payoff
    and Q2 <= Q4 <= Q3 on the margin (each a theorem of its model, spec §8); each end moved
    says where it came from."""
    for payoff in ("cards", "margin"):
        bounds = f"{payoff}_bounds"
        chain = [q for q in ("q2", "q4", "q5", "q3", "q1") if q in answers and not (q == "q4" and payoff == "cards")]
        for lower, upper in itertools.combinations(chain, 2):
            low_l, high_l = getattr(answers[lower], bounds)
            low_u, high_u = getattr(answers[upper], bounds)
            order = f"{lower.upper()} <= {upper.upper()}"
            if low_l != high_l and high_u < high_l:  # a proved value stays as proved (Q4's may differ by rounding)
                setattr(answers[lower], bounds, (low_l, high_u))
                setattr(answers[lower], f"{payoff}_high_reason", f"{upper.upper()}'s upper bound ({order})")
            if low_u != high_u and low_l > low_u:
                setattr(answers[upper], bounds, (low_l, high_u))
                setattr(answers[upper], f"{payoff}_low_reason", f"{lower.upper()}'s lower bound ({order})")
    for answer in answers.values():
        _margin_within_cards(answer)


def _margin_within_cards(answer: Answer) -> None:
    """P's margin is at most P's cards on every line (no seat has fewer than 0), so under
    every question too (in mixed strategies as well: every expectation keeps the order): the
    margin's floor lifts the cards', the cards' ceiling caps the margin's."""
    if answer.question == "q4":
        return
    (cards_low, cards_high), (margin_low, margin_high) = answer.cards_bounds, answer.margin_bounds
    if cards_low != cards_high and margin_low > cards_low:
        answer.cards_bounds = (margin_low, cards_high)
        answer.cards_low_reason = "the margin's lower bound (P's cards are at least P's margin)"
        if margin_low == cards_high:
            answer.cards = int(cards_high)
    if margin_low != margin_high and cards_high < margin_high:
        answer.margin_bounds = (margin_low, cards_high)
        answer.margin_high_reason = "the cards' upper bound (P's margin is at most P's cards)"
        if cards_high == margin_low:
            answer.margin = int(margin_low)
