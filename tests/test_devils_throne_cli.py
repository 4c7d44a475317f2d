"""`usurper solve` and `usurper hint` for Devil's Throne: the §8 questions through the CLI."""

import json

import pytest
from click.testing import CliRunner

import cli
from games import make_game


def run(*args: str):
    return CliRunner().invoke(cli.usurper, list(args))


def test_solve_answers_the_paranoid_and_optimistic_questions_of_a_two_player_deal():
    result = run("solve", "devils-throne", "--seed", "42", "--players", "2", "--question", "q1", "--question", "q2",
                 "--question", "q3", "--json")
    assert result.exit_code == 0, result.output
    answers = json.loads(result.output)["answers"]
    assert [(answers[q]["cards"], answers[q]["margin"], answers[q]["wins"]) for q in ("q1", "q2", "q3")] == [
        (26, 26, "sole"), (5, -12, "no"), (17, 10, "sole")]


@pytest.mark.slow
def test_solve_gives_the_mixed_strategy_value_with_both_mixes():
    result = run("solve", "devils-throne", "--seed", "42", "--players", "2", "--question", "q4", "--json")
    assert result.exit_code == 0, result.output
    q4 = json.loads(result.output)["answers"]["q4"]
    assert q4["decided"] and q4["margin"] == pytest.approx(-1.635, abs=1e-3)
    for mix in (q4["strategy"], q4["opponent_strategy"]):
        assert sum(mix.values()) == pytest.approx(1)


def test_a_budget_that_runs_out_gives_an_interval_never_a_value():
    result = run("solve", "devils-throne", "--seed", "1", "--players", "3", "--question", "q2",
                 "--max-states", "500")
    assert result.exit_code == 0, result.output
    assert "undecided (state budget of 500 states ran out): margin between" in result.output


def test_one_time_limit_is_shared_by_the_questions_of_one_answer():
    # A limit too short for three players' Q2 and Q3: each question stops within its share.
    result = run("solve", "devils-throne", "--seed", "1", "--players", "3", "--time-limit", "2", "--json")
    assert result.exit_code == 0, result.output
    answers = json.loads(result.output)["answers"]
    assert list(answers) == ["q1", "q2", "q3"]
    stopped = [answer["exhausted"] for answer in answers.values() if not answer["decided"]]
    assert stopped and all(text.startswith("time limit share of ") and text.endswith(" of 2 s") for text in stopped)


def late_line(seed: int, rounds: int, players: int = 2) -> str:
    """The first legal joint move, again and again, until `rounds` rounds are played."""
    game = make_game("devils-throne", [f"players={players}"])
    state = game.initial_state(game.deal_from_seed(seed))
    texts = []
    while not game.is_over(state) and state_round(game, state) <= rounds:
        move = game.legal_moves(state)[0]
        texts.append(game.format_move(state, move))
        state = game.apply(state, move)
    return "; ".join(texts)


def state_round(game, state) -> int:
    return int(game.describe(state).split()[1])


def test_hint_gives_both_seats_equilibrium_mixes_late_in_a_deal():
    result = run("hint", "devils-throne", "--seed", "42", "--players", "2", "--moves", late_line(42, 8), "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["value"] is not None
    for mix in report["seats"].values():
        assert mix and sum(mix.values()) == pytest.approx(1)


def test_hint_at_three_players_gives_each_acting_seat_its_guarantee_late_in_a_deal():
    result = run("hint", "devils-throne", "--seed", "42", "--players", "3", "--moves", late_line(42, 7, players=3),
                 "--time-limit", "20", "--json")
    assert result.exit_code == 0, result.output
    seats = json.loads(result.output)["seats"]
    assert seats and all(advice["q2"] is not None and advice["q2_margin"] is not None for advice in seats.values())


def test_players_and_suits_belong_to_devils_throne_only():
    result = run("solve", "adaman", "--seed", "1", "--players", "2")
    assert result.exit_code != 0 and "Devil's Throne's options" in str(result.exception or result.output)
