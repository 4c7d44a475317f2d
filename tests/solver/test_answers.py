"""solver.answers: which limit stopped a search is kept on its result as a Limit, beside the
words, and the words read back name the same limit; a seat's answers are intervals by
question and payoff, each end with what it rests on."""

from __future__ import annotations

import pytest

from games import make_game
from solver.analysis import SeatQuestions, analyse
from solver.answers import CARDS, MARGIN, Budget, Interval, Limit

LIMITS = [(Budget(max_states=10), Limit.STATES), (Budget(max_table=5), Limit.TABLE)]


@pytest.mark.parametrize("engine", ["pruned", "compiled"])
@pytest.mark.parametrize("budget, limit", LIMITS)
def test_a_search_stopped_by_a_budget_says_which_limit_and_its_words_agree(engine, budget, limit):
    game = make_game("adaman")
    result = analyse(game, game.initial_state(game.deal_from_seed(3)), "optimal", budget, engine)
    assert result.score is None and result.limit is limit
    assert Limit.of_words(result.exhausted) is limit


def test_a_finished_search_names_no_limit():
    game = make_game("adaman")
    state = game.initial_state(game.deal_from_seed(3))
    while game.outcome(state) is None:  # play the first move to the end: a finished position
        state = game.apply(state, game.legal_moves(state)[0])
    result = analyse(game, state, "optimal", Budget(max_states=1))
    assert (result.exhausted, result.limit) == ("", None)


def test_the_repeating_positions_search_keeps_its_limit():
    game = make_game("kings-reign")
    result = analyse(game, game.initial_state(game.deal_from_seed(0)), "optimal", Budget(max_states=20))
    assert result.limit is Limit.STATES and result.exhausted == "state budget of 20 states"


def test_every_limit_s_words_read_back_as_that_limit():
    words = {"time limit of 300 s": Limit.TIME, "time limit share of 1.5 s of 3 s": Limit.TIME,
             "state budget of 1 state": Limit.STATES, "transposition table cap of 1000 entries": Limit.TABLE,
             "memory cap of 8 MB (1 table entry)": Limit.MEMORY, "this machine's free memory of 8 MB": Limit.MEMORY,
             "memory for the transposition table": Limit.MEMORY, "a reason no search gives": None}
    assert {text: Limit.of_words(text) for text in words} == words


@pytest.mark.parametrize("engine", ["pruned", "compiled"])
def test_a_seat_s_answers_are_intervals_by_question_and_payoff(engine):
    game = make_game("devils-throne", ["players=2"])
    state = game.initial_state(game.deal_from_seed(42))
    analysis = analyse(game, state, SeatQuestions(0, ("q1", "q2")), Budget(max_states=50), engine)
    for answer in analysis.answers.values():
        for payoff in (CARDS, MARGIN):
            interval = answer.intervals[payoff]
            assert isinstance(interval, Interval) and interval.low <= interval.high
            assert interval.low_reason and interval.high_reason
            assert (interval.low, interval.high) == (answer.cards_bounds if payoff == CARDS else answer.margin_bounds)
    stopped = [answer for answer in analysis.answers.values() if not answer.decided]
    assert stopped and all(answer.limit is Limit.STATES and answer.exhausted == "state budget of 50 states"
                           for answer in stopped)
