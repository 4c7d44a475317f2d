"""The questions of a seat and their order: which are asked, each one's answer from its parts
(the cheap bounds, the answers already known, the schedule of searches of each payoff), and
the intervals narrowed at the end by the order of the questions (Q2 <= Q5 <= Q3 <= Q1 on
each payoff, Q2 <= Q4 <= Q3 on the margin)."""

from __future__ import annotations

import copy
import itertools
import time
from collections.abc import Callable, Sequence
from typing import Any

from games.base import EngineError, Game, SimultaneousGame, UnsupportedGame
from solver.answers import CARDS, MARGIN, MIXED, PAYOFFS, QUESTIONS, Analysis, Answer, Budget, Interval, shared_budgets
from solver.search import BudgetExceeded
from solver.simultaneous.mixed import answer_mixed
from solver.simultaneous.paranoid import payoff_now
from solver.simultaneous.reasons import (
    CARDS_CEILING_FOR_MARGIN,
    EVERY_CARD_TO_P,
    MARGIN_WITHIN_CARDS_HIGH,
    MARGIN_WITHIN_CARDS_LOW,
    MODEL_LOW,
    known_high,
    known_low,
)
from solver.simultaneous.schedule import ModelLine, Searches
from solver.simultaneous.settings import DEFAULT_SETTINGS, SimultaneousSettings, payoff_deadline

ENGINES = ("auto", "python", "compiled")


def check_simultaneous(game: Game) -> None:
    """Refuse, in one line, a game this search cannot analyse."""
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
            payoffs: Sequence[str] = PAYOFFS, shared_time: bool = False,
            on_answer: Callable[[str, Answer], None] | None = None,
            settings: SimultaneousSettings = DEFAULT_SETTINGS) -> Analysis:
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
    narrowed by all of them, so an early one may end narrower).  `settings`: how the time is
    shared among the parts of a search."""
    check_simultaneous(game)
    players = len(game.returns(state))
    questions = default_questions(players) if questions is None else questions
    _check_asked(questions, seat, players, engine, payoffs)
    answers: dict[str, Answer] = {}
    budgets = shared_budgets(budget, len(questions)) if shared_time else itertools.repeat(budget)
    for question, asked in zip(questions, budgets):
        if question in MIXED:
            answers[question] = answer_mixed(game, state, seat, question, asked, engine, settings)
        else:
            answers[question] = _answer_paranoid(game, state, seat, question, asked, engine, answers, joint_model,
                                                 tuple(payoffs), settings)
        if on_answer is not None:
            so_far = copy.deepcopy(answers)
            _tighten(so_far)
            on_answer(question, so_far[question])
    _tighten(answers)
    return Analysis(seat, answers)


def _check_asked(questions: Sequence[str], seat: int, players: int, engine: str, payoffs: Sequence[str]) -> None:
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
    if not payoffs or any(payoff not in PAYOFFS for payoff in payoffs):
        raise ValueError(f"payoffs are {CARDS!r} and {MARGIN!r}, not {tuple(payoffs)!r}")


def equilibrium(game: Game, state: Any, seat: int = 0, budget: Budget = Budget(), engine: str = "auto") -> Answer:
    """Q4 at `state`: the value to `seat` and both seats' equilibrium mixes at this node
    (a hint for a two-player game)."""
    check_simultaneous(game)
    if len(game.returns(state)) != 2:
        raise UnsupportedGame("mixed-strategy hints need two players")
    return answer_mixed(game, state, seat, "q4", budget, engine)


# ----- Q1-Q3 ------------------------------------------------------------------------------

def _answer_paranoid(game: SimultaneousGame, state: Any, seat: int, question: str, budget: Budget,
                     engine: str, known: dict[str, Answer] | None = None, joint_model: bool | None = None,
                     payoffs: tuple[str, ...] = PAYOFFS, settings: SimultaneousSettings = DEFAULT_SETTINGS) -> Answer:
    """Each payoff: the cheap bounds, narrowed by the answers already known (Q2 <= Q3 <= Q1)
    and by what the cards proved (`_margin_start`), then searched (`_search_payoff`).  The
    cards get their share of the time (`payoff_deadline`), the margin what is left; a payoff
    asked alone has all of it."""
    answer = Answer(question, seat)
    started = time.perf_counter()
    model_line = None
    use_model = _uses_model(question, budget, joint_model)
    for payoff in payoffs:
        deadline = payoff_deadline(payoff, started, budget, settings, use_model, alone=len(payoffs) == 1)
        searches = Searches(game, state, seat, question, payoff, budget, deadline, answer.stats, engine, use_model,
                            settings)
        bounds = searches.start_bounds(known or {})
        if payoff == MARGIN:
            _margin_start(searches, bounds, answer, model_line)
        root_action = _search_payoff(searches, bounds, answer)
        model_line = searches.model_line
        if payoff == CARDS and question == "q2":
            answer.cards_floor_action = _floor_action(root_action, searches.floor_action, bounds.low)
        _record(answer, payoff, bounds, root_action)
    answer.stats.seconds = time.perf_counter() - started
    return answer


def _margin_start(searches: Searches, bounds: Interval, answer: Answer, model_line: ModelLine | None) -> None:
    """What the cards' search says of the margin: a line taking every card for P, Q1's ceiling
    of P's cards, and the best line the models of joint play found."""
    game, state, seat = searches.game, searches.state, searches.seat
    if answer.cards is not None and answer.cards == game.returns(state)[seat] + game.cards_reachable(state):
        # P takes every card that can still be won: no one else gains, the lead grows by them all
        bounds.raise_low(bounds.high, EVERY_CARD_TO_P)
    if searches.question == "q1":
        # the others' cards never shrink: P's lead is at most its cards less the most they hold now
        most_now = max(cards for other, cards in enumerate(game.returns(state)) if other != seat)
        bounds.lower_high(answer.intervals[CARDS].high - most_now, CARDS_CEILING_FOR_MARGIN)
    if model_line is not None:
        lead = payoff_now(game.returns(model_line.end), seat, MARGIN)
        bounds.raise_low(lead, MODEL_LOW)
        searches.model_line = ModelLine(model_line.end, model_line.action, lead)


def _search_payoff(searches: Searches, bounds: Interval, answer: Answer) -> str | None:
    """Narrow `bounds` by the payoff's searches: for Q2 and Q3, with three or more seats, the
    search of the next round alone, then the one-sided searches (P on the greedy bot against
    the others' best reply; the others on it, then with three or four seats on a few replies each,
    against P's best reply); then the question's own probes until the bounds meet.  P's root
    action, where the probes name one; a limit that stops them is noted on `answer`."""
    try:
        if searches.question != "q1" and bounds.low < bounds.high:
            if len(searches.game.returns(searches.state)) > 2:
                searches.floor_from_next_rounds(bounds)
            searches.one_sided(bounds)
        return searches.drive(bounds)
    except BudgetExceeded as exc:
        answer.stop(exc.limit, str(exc))
        return None


def _record(answer: Answer, payoff: str, bounds: Interval, root_action: str | None) -> None:
    """A payoff's interval on the answer, and its value where the ends met."""
    if bounds.low == bounds.high:
        if payoff == CARDS:
            answer.cards = int(bounds.low)
        else:
            answer.margin = int(bounds.low)
            answer.best_action = root_action
    answer.intervals[payoff] = bounds


def _floor_action(driven: str | None, found: tuple[str, float] | None, floor: float) -> str | None:
    """P's root action on a strategy that guarantees `floor`: the probes' (they ended at the
    floor), else the next round's search's where it reached the floor."""
    if driven is not None:
        return driven
    return found[0] if found is not None and found[1] >= floor else None


def _uses_model(question: str, budget: Budget, joint_model: bool | None) -> bool:
    """Whether Q1 asks the game's model of joint play: as told, else where the budget is a
    time limit alone (the model counts no states, so it cannot keep a state budget)."""
    if question != "q1":
        return False
    if joint_model is not None:
        return joint_model
    return budget.time_limit is not None and budget.max_states is None


# ----- bounds shared between questions ----------------------------------------------------

def _tighten(answers: dict[str, Answer]) -> None:
    """Narrow undecided intervals by the questions' order: Q2 <= Q5 <= Q3 <= Q1 on each payoff
    and Q2 <= Q4 <= Q3 on the margin (each a theorem of its model, spec §8); each end moved
    says where it came from."""
    for payoff in PAYOFFS:
        chain = [q for q in ("q2", "q4", "q5", "q3", "q1") if q in answers and not (q == "q4" and payoff == CARDS)]
        for lower, upper in itertools.combinations(chain, 2):
            below, above = answers[lower].intervals[payoff], answers[upper].intervals[payoff]
            low_l, high_l = below.ends
            low_u, high_u = above.ends
            order = f"{lower.upper()} <= {upper.upper()}"
            if low_l != high_l and high_u < high_l:  # a proved value stays as proved (Q4's may differ by rounding)
                below.high, below.high_reason = high_u, known_high(upper, order)
            if low_u != high_u and low_l > low_u:
                above.low, above.low_reason = low_l, known_low(lower, order)
    for answer in answers.values():
        _margin_within_cards(answer)


def _margin_within_cards(answer: Answer) -> None:
    """P's margin is at most P's cards on every line (no seat has fewer than 0), so under
    every question too (in mixed strategies as well: every expectation keeps the order): the
    margin's floor lifts the cards', the cards' ceiling caps the margin's."""
    if answer.question == "q4":
        return
    cards, margin = answer.intervals[CARDS], answer.intervals[MARGIN]
    (cards_low, cards_high), (margin_low, margin_high) = cards.ends, margin.ends
    if cards_low != cards_high and margin_low > cards_low:
        cards.low, cards.low_reason = margin_low, MARGIN_WITHIN_CARDS_LOW
        if margin_low == cards_high:
            answer.cards = int(cards_high)
    if margin_low != margin_high and cards_high < margin_high:
        margin.high, margin.high_reason = cards_high, MARGIN_WITHIN_CARDS_HIGH
        if cards_high == margin_low:
            answer.margin = int(margin_low)
