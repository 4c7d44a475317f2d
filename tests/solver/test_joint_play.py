"""Q1 from Devil's Throne's CP-SAT model of every joint play (games/devils_throne/joint_play.py)
against the tree search: on endings of real deals for two, three and four seats (hands even
and left uneven by Envoys), both payoffs, the model's optimum equals the search's exact value
and the line it describes replays through the rules to that value; through `analyse`, the
model decides Q1 and says so.  The restricted model (no Envoy played) gives lines that replay,
never above the exact value.  The model of the plays that give P every card has a solution
exactly where Q1 reaches that ceiling, and its line replays to it; so has the model of the
plays one card short of it (two, ...) where Q1 is that, and none where Q1 is less.  Ctrl-C
stops a solve at once and still interrupts the program."""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from games.devils_throne import DevilsThrone
from games.devils_throne.game import late_round_start
from games.devils_throne.rules import ENVOY, PASS
from solver.answers import Budget
from solver.cpsat import maximise
from solver.simultaneous import analyse, payoff_now
from solver.simultaneous.reasons import CARDS_CEILING_FOR_MARGIN, MODEL_BELOW_CEILING, MODEL_HIGH, MODEL_LOW
from solver.verify import replay

ROOT = Path(__file__).resolve().parents[2]


def model_value(game, state, seat, payoff):
    """The model's optimum, after checking that its line replays to it."""
    built = game.joint_play_model(state, seat, payoff == "margin")
    solved = maximise(built.model, None)
    assert solved.value == solved.bound  # solved to the end
    reached = replay(game, state, built.line(solved.read))
    assert reached.ok and reached.outcome is not None
    assert payoff_now(game.returns(reached.state), seat, payoff) == solved.value
    return solved.value


def restricted_value(game, state, seat, payoff):
    """The restricted model's optimum (no Envoy played), after checking that its line replays
    to it and passes at every Envoy window."""
    built = game.joint_play_model(state, seat, payoff == "margin", restricted=True)
    solved = maximise(built.model, None)
    line = built.line(solved.read)
    current = state
    for move in line:
        if current.phase == ENVOY:
            assert set(move) == {PASS}
        current = game.apply_joint(current, move)
    assert game.is_over(current)
    assert payoff_now(game.returns(current), seat, payoff) == solved.value
    return solved.value


def reaches_the_ceiling(game, state, seat, payoff, short=0):
    """Whether the model of the plays giving `seat` every card but `short` has a solution
    (solved to the end, as a question of feasibility), after checking that its line replays
    to that payoff; also returns the payoff it asks for."""
    built = game.joint_play_model(state, seat, payoff == "margin", at_ceiling=True, short=short)
    solved = maximise(built.model, None, feasibility=True)
    if solved.infeasible:
        return False, built.ceiling - short
    reached = replay(game, state, built.line(solved.read))
    assert reached.ok and reached.outcome is not None
    assert payoff_now(game.returns(reached.state), seat, payoff) == solved.value == built.ceiling - short
    return True, built.ceiling - short


def assert_the_model_equals_the_search(players, seed, cards_left, uneven, seat):
    game = DevilsThrone(players)
    state = late_round_start(game, seed, cards_left, envoys=uneven)
    exact = analyse(game, state, seat, ("q1",), joint_model=False).answers["q1"]
    assert exact.decided
    assert model_value(game, state, seat, "cards") == exact.cards
    assert model_value(game, state, seat, "margin") == exact.margin
    assert restricted_value(game, state, seat, "cards") <= exact.cards
    assert restricted_value(game, state, seat, "margin") <= exact.margin
    for payoff, value in (("cards", exact.cards), ("margin", exact.margin)):
        reached, ceiling = reaches_the_ceiling(game, state, seat, payoff)
        assert value <= ceiling
        assert reached == (value == ceiling)
    # the cards a little below the ceiling: none above the value, the value itself reached
    for short in range(1, players):
        asked = ceiling_of_cards(game, state, seat) - short
        if asked < exact.cards:
            break
        assert reaches_the_ceiling(game, state, seat, "cards", short) == (asked == exact.cards, asked)
    assert game.joint_play_model(state, seat, False, at_ceiling=True, short=players) is None
    assert game.joint_play_model(state, seat, True, at_ceiling=True, short=1) is None


def ceiling_of_cards(game, state, seat):
    return game.joint_play_model(state, seat, False, at_ceiling=True).ceiling


@pytest.mark.parametrize(("players", "seed", "cards_left", "uneven"), [
    (2, 1, 6, False), (2, 2, 4, True), (2, 21829, 8, False),
    (3, 3, 4, False), (3, 4, 3, True), (3, 834879, 5, True),
    (4, 5, 3, False), (4, 6, 2, True), (4, 96051, 4, True),
])
def test_the_model_of_joint_play_equals_the_search_and_its_line_replays(players, seed, cards_left, uneven):
    assert_the_model_equals_the_search(players, seed, cards_left, uneven, seed % players)


@pytest.mark.slow
@pytest.mark.parametrize("draw", range(60))
def test_the_model_equals_the_search_on_random_endings(draw):
    rng = random.Random(draw)
    players = rng.choice((2, 3, 4))
    cards_left = rng.randint(2, {2: 9, 3: 5, 4: 4}[players])
    assert_the_model_equals_the_search(players, rng.randrange(10**6), cards_left, rng.random() < 0.4,
                                       rng.randrange(players))


def assert_the_model_decided(game, state, seat, budget):
    answer = analyse(game, state, seat, ("q1",), budget=budget, joint_model=True).answers["q1"]
    exact = analyse(game, state, seat, ("q1",), joint_model=False).answers["q1"]
    assert (answer.cards, answer.margin) == (exact.cards, exact.margin)
    assert (answer.cards_low_reason, answer.cards_high_reason) == (MODEL_LOW, MODEL_HIGH)
    assert answer.margin_low_reason == MODEL_LOW
    assert answer.margin_high_reason in (MODEL_HIGH, CARDS_CEILING_FOR_MARGIN)  # the exact model's, or the cards'
    assert answer.best_action in {game.format_action(state, action) for action in game.legal_actions(state, seat)}
    return answer


def test_without_a_time_limit_the_model_decides_q1_before_any_probe():
    game = DevilsThrone(4)
    answer = assert_the_model_decided(game, late_round_start(game, 96051, 4, envoys=True), 2, Budget())
    assert answer.stats.states == 0


def test_where_the_first_probe_runs_out_the_model_decides_q1_within_the_time_left():
    game = DevilsThrone(3)
    assert_the_model_decided(game, late_round_start(game, 834879, 5, envoys=True), 0,
                             Budget(time_limit=600, max_states=1))


@pytest.mark.parametrize(("players", "seed", "cards_left", "uneven", "seat"), [
    (2, 387926, 4, False, 1), (3, 329879, 4, True, 1),
])
def test_the_model_of_the_plays_at_the_ceiling_agrees_with_the_search(players, seed, cards_left, uneven, seat):
    """One ending whose Q1 is every card, one whose Q1 is one card short of it."""
    assert_the_model_equals_the_search(players, seed, cards_left, uneven, seat)


def test_where_no_play_gives_p_every_card_q1_says_so():
    game = DevilsThrone(3)
    answer = analyse(game, late_round_start(game, 329879, 4, envoys=True), 1, ("q1",),
                     joint_model=True).answers["q1"]
    assert answer.decided and answer.cards == 27  # every card still in play would be 28
    assert (answer.cards_low_reason, answer.cards_high_reason) == (MODEL_LOW, MODEL_BELOW_CEILING)
    assert answer.margin == 27 - 7  # the most another seat holds now: 7
    assert (answer.margin_low_reason, answer.margin_high_reason) == (MODEL_LOW, CARDS_CEILING_FOR_MARGIN)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_four_players_can_give_seat_one_every_card_of_the_first_deals(seed):
    """The tree search neither reached nor refuted 52 in ten minutes on these deals."""
    game = DevilsThrone(4)
    assert model_value(game, game.initial_state(game.deal_from_seed(seed)), 0, "cards") == 52


@pytest.mark.slow
@pytest.mark.parametrize(("players", "seed", "short", "reached", "asked"), [
    (4, 16, 0, True, 52), (4, 4, 0, True, 52), (3, 4, 0, False, 39), (3, 4, 1, True, 38),
])
def test_the_plays_at_the_ceiling_decide_what_the_exact_model_left_open(players, seed, short, reached, asked):
    """None had been decided by the exact model in ten minutes (its best: 51, 51 and 38).
    Up to a minute each."""
    game = DevilsThrone(players)
    state = game.initial_state(game.deal_from_seed(seed))
    assert reaches_the_ceiling(game, state, 0, "cards", short) == (reached, asked)


CHILD = """
import signal, sys
signal.signal(signal.SIGINT, signal.default_int_handler)  # as at a terminal
from games.devils_throne import DevilsThrone
from solver.cpsat import maximise
game = DevilsThrone(4)
model = game.joint_play_model(game.initial_state(game.deal_from_seed(4)), 0, False).model
print("solving", flush=True)
maximise(model, 600)
print("finished", flush=True)
"""


def test_ctrl_c_stops_a_model_at_once_and_still_interrupts_the_program():
    """CP-SAT's own catch of SIGINT would end the solve and swallow the signal."""
    child = subprocess.Popen([sys.executable, "-c", CHILD], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, cwd=ROOT)
    assert child.stdout.readline().strip() == "solving"
    time.sleep(1)
    sent = time.monotonic()
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=300)
    assert "finished" not in out and "KeyboardInterrupt" in err
    assert time.monotonic() - sent < 120  # far inside the solve's 600 s
