"""Policies that do not peek, and the benchmark that sets them beside the clairvoyant rate."""

import random

import pytest

from games import make_game
from games.adaman.rules import PERSONALITY_BITS, RANK, rank_sum
from games.base import UsurperError, Verdict
from solver.analysis import analyse
from solver.fair import REPEATING_SAMPLE_BUDGET, SAMPLE_BUDGET, sample_budget, sample_question
from solver.players import greedy_move, play_deal, policy
from solver.verify import replay
from usurper.app.policies import bench_policies, where_fair_lost

ADAMAN = make_game("adaman")
RA = make_game("royal-assassin")


def test_greedy_adaman_controls_the_highest_personality_with_the_least_overpay():
    state = ADAMAN.initial_state(ADAMAN.deal_from_seed(5))
    target, payment = greedy_move(ADAMAN, state, random.Random(0))
    people = [(t, p) for t, p in ADAMAN.legal_moves(state) if PERSONALITY_BITS >> t & 1]
    assert PERSONALITY_BITS >> target & 1
    assert RANK[target] == max(RANK[t] for t, _ in people)
    assert rank_sum(payment) == min(rank_sum(p) for t, p in people if t == target)


def test_greedy_royal_assassin_takes_a_kill_when_one_is_offered():
    for seed in range(30):
        state = RA.initial_state(RA.deal_from_seed(seed))
        rng = random.Random(seed)
        while RA.outcome(state) is None:
            moves = RA.legal_moves(state)
            killing = [m for m in moves if "(" in m and m[0] in "AR" and sum(map(len, RA.apply(state, m).columns))
                       < sum(map(len, state.columns))]
            if killing:
                assert greedy_move(RA, state, rng) in killing
                return
            state = RA.apply(state, rng.choice(moves))
    pytest.fail("no kill offered in 30 random games")


@pytest.mark.parametrize("name", ["random", "greedy", "fair"])
def test_a_policy_plays_a_deal_to_its_end_the_same_way_each_time(name):
    first, second = (play_deal(ADAMAN, 5, policy(name, samples=10)) for _ in range(2))
    assert first.decisions > 0
    assert (first.won, first.score, first.decisions) == (second.won, second.score, second.decisions)
    assert first.won == (first.score >= ADAMAN.lowest_win_score)


def test_random_policy_is_repeatable_and_plays_legal_moves():
    rng = random.Random(3)
    state = RA.initial_state(RA.deal_from_seed(3))
    moves = []
    choose = policy("random")
    while RA.outcome(state) is None:
        move = choose(RA, state, rng)
        moves.append(move)
        state = RA.apply(state, move)
    assert replay(RA, RA.initial_state(RA.deal_from_seed(3)), moves).ok
    assert play_deal(RA, 3, choose).score == play_deal(RA, 3, choose).score


def test_unknown_policy_is_refused_in_one_line():
    with pytest.raises(UsurperError, match="unknown policy 'smart'"):
        policy("smart")


def test_benchmark_prints_each_policy_beside_the_clairvoyant_rate():
    lines = bench_policies(RA, [0, 1, 2], ["greedy", "random"])
    assert lines[0] == "royal-assassin (standard), 3 deals (seeds 0-2)"
    assert lines[1].startswith("greedy ") and "won" in lines[1] and "ms CPU/decision" in lines[1]
    assert lines[2].startswith("random ")
    assert lines[3].startswith("clairvoyant      3/3     winnable 100.00%")


def test_the_fair_hint_in_play_keeps_its_two_second_limit_and_reads_nothing_of_the_deal(monkeypatch):
    import usurper.app.play as play

    asked = {}

    def hint(game, state, samples, rng, time_limit=None):
        asked["hint"] = time_limit
        return Hint()

    class Hint:
        move = None

        def lines(self):
            return ["Fair hint: x"]

    def where_lost(*args):
        raise AssertionError("the fair hint reviewed the moves played: that reads the deal")

    monkeypatch.setattr(play, "fair_hint_for_state", hint)
    monkeypatch.setattr(play, "where_lost", where_lost)
    session = play.PlaySession(ADAMAN, ADAMAN.initial_state(ADAMAN.deal_from_seed(5)))
    session.play(ADAMAN.legal_moves(session.state)[0])
    assert session.fair_hint(200) == ["Fair hint: x"]
    assert asked["hint"] == play.FAIR_SECONDS == 2.0


def test_fair_policy_is_deterministic_under_its_seed_and_keeps_its_table():
    choose = policy("fair", 30)
    first = play_deal(RA, 3, choose)
    again = play_deal(RA, 3, policy("fair", 30))
    assert (first.won, first.score, first.decisions) == (again.won, again.score, again.decisions)
    assert choose.tables  # the expectimax table kept for the next decision


def test_bench_budgets_prints_the_curve_and_draws_it(tmp_path):
    from click.testing import CliRunner

    from cli import usurper

    picture = tmp_path / "curve.png"
    result = CliRunner().invoke(usurper, ["bench", "royal-assassin", "--seeds", "0-1", "--budgets", "4,8",
                                          "--plot", str(picture)])
    assert result.exit_code == 0, result.output
    header, *rows = result.output.strip().splitlines()
    assert header.startswith("game,samples,wins,deals,win_rate,low,high")
    assert [row.split(",")[1] for row in rows] == ["4", "8"]
    assert picture.stat().st_size > 1000


def test_the_fair_policy_asks_for_the_optimum_only_where_wins_score_differently():
    adaman, royal, kings = (make_game(name) for name in ("adaman", "royal-assassin", "kings-reign"))
    assert adaman.lowest_win_score < adaman.max_score and sample_question(adaman) == "optimal"
    assert royal.lowest_win_score == royal.max_score and sample_question(royal) == "winnable"
    assert sample_question(kings) == "winnable"  # repeating positions: an optimum costs far more
    assert sample_budget(adaman) == sample_budget(royal) == SAMPLE_BUDGET
    assert sample_budget(kings) == REPEATING_SAMPLE_BUDGET  # a state costs far more where positions repeat


def test_a_deal_that_a_policy_never_ends_stops_as_stalled_and_not_won():
    """King's Reign's positions repeat: a policy that only passes never ends a deal."""
    kings = make_game("kings-reign")

    def first_move(game, state, rng):
        return game.legal_moves(state)[0]

    deal = play_deal(kings, 0, first_move, max_decisions=30)
    assert deal.stalled and not deal.won and deal.score == 0 and deal.decisions == 30


def test_the_fair_policy_ends_a_kings_reign_deal():
    """Every move wins in every sample there; preferring the sooner win makes progress (it
    used to pass for ever)."""
    kings = make_game("kings-reign")
    deal = play_deal(kings, 0, policy("fair", 30), max_decisions=200)
    assert not deal.stalled and deal.decisions < 200


def test_where_a_policy_lost_a_winnable_deal_is_the_move_after_which_no_win_is_left():
    """The random policy loses most Royal Assassin deals that can be won; for each, the row
    names the decision where the last win went: the position before it can be won, the one
    after the move played cannot, and the moves said to keep the win do."""
    choose = policy("random")
    rows = where_fair_lost(RA, range(4), choose, samples=20)
    assert rows
    for row in rows:
        line: list = []
        assert play_deal(RA, row["seed"], choose, line=line).score == row["score"]
        state = RA.initial_state(RA.deal_from_seed(row["seed"]))
        for move in line[: row["move"] - 1]:
            state = RA.apply(state, move)
        played = line[row["move"] - 1]
        assert analyse(RA, state, "winnable").verdict == Verdict.WON
        assert analyse(RA, RA.apply(state, played), "winnable").verdict == Verdict.LOST
        model = RA.visible_positions()
        keeping = [model.move_words(RA, state, m) for m in RA.legal_moves(state)
                   if analyse(RA, RA.apply(state, m), "winnable").verdict == Verdict.WON]
        assert row["kept_win"] == " | ".join(keeping)
        assert row["played"] == model.move_words(RA, state, played) and row["played"] not in keeping
        assert row["unseen"] == model.unknown_count(model.visible_of(RA, state))
        assert 0 <= row["played_estimate"] <= 1 and 0 <= row["best_kept_estimate"] <= 1
        assert (row["played_exact"] is None) == (row["best_kept_exact"] is None)
