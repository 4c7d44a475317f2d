"""Fair hints: sampled from what a player sees, exact where the unknown cards lie one way."""

import random

import pytest

from games import make_game
from solver.fair import fair_hint, fair_hint_for_state, parse_visible, visible_of
from solver.hints import clairvoyant_hint
from solver.search import Budget, solve

ADAMAN = make_game("adaman")
RA = make_game("royal-assassin")


def along_optimal_line(game, seed, cards_left):
    """The first choice (two moves or more) on the solver's line of a seed with `cards_left`
    cards face down."""
    state = game.initial_state(game.deal_from_seed(seed))
    for move in solve(game, state, "optimal", "auto", Budget(time_limit=30)).line:
        if len(visible_of(game, state).unknown) == cards_left and len(game.legal_moves(state)) > 1:
            return state
        state = game.apply(state, move)
    raise AssertionError(f"no position with {cards_left} face-down cards on the line")


@pytest.mark.parametrize("game, seed", [(ADAMAN, 5), (ADAMAN, 7), (RA, 8), (RA, 15), (RA, 39)])
def test_one_unknown_card_gives_the_clairvoyant_hint_and_says_exact(game, seed):
    state = along_optimal_line(game, seed, 1)
    fair = fair_hint_for_state(game, state, samples=50, rng=random.Random(1))
    assert fair.exact
    assert fair.move == clairvoyant_hint(game, state).move
    assert "exact" in fair.lines()[0]


def test_fair_hint_repeats_under_the_same_random_seed():
    state = ADAMAN.initial_state(ADAMAN.deal_from_seed(5))
    first, second = (fair_hint_for_state(ADAMAN, state, samples=60, rng=random.Random(7)) for _ in range(2))
    assert first.move == second.move
    assert [(e.text, e.wins, e.samples, e.score_total) for e in first.estimates] == [
        (e.text, e.wins, e.samples, e.score_total) for e in second.estimates]


def test_samples_that_hit_their_budget_count_as_unknown_not_as_wins():
    state = ADAMAN.initial_state(ADAMAN.deal_from_seed(5))
    hint = fair_hint_for_state(ADAMAN, state, samples=40, per_sample_budget=Budget(max_states=1),
                               rng=random.Random(0))
    assert sum(e.wins for e in hint.estimates) == 0
    assert sum(e.unknown for e in hint.estimates) == hint.samples > 0
    assert all(e.decided == 0 and e.decided_win_rate is None for e in hint.estimates)
    assert "(no sample decided)" in hint.lines()[1]


def test_bandit_spends_most_samples_on_the_leading_move():
    state = RA.apply(RA.initial_state(RA.deal_from_seed(5)), "T")
    hint = fair_hint_for_state(RA, state, samples=120, rng=random.Random(2))
    assert hint.samples == 120
    assert sum(e.samples for e in hint.estimates) == 120
    assert hint.estimates[0].samples == max(e.samples for e in hint.estimates)
    low, high = hint.estimates[0].interval
    assert low <= hint.estimates[0].win_rate <= high


def test_every_move_gets_a_sample_even_with_fewer_samples_asked():
    state = ADAMAN.initial_state(ADAMAN.deal_from_seed(5))
    hint = fair_hint_for_state(ADAMAN, state, samples=3, mode="winnable", rng=random.Random(0))
    assert hint.samples == len(ADAMAN.legal_moves(state))
    assert all(e.samples == 1 for e in hint.estimates)


def test_fair_hint_of_a_typed_position_names_cards():
    text = ("Stock: 42 left; Reserve: 2C 5H; C: QC[A7:7D D3:3C] KC +JK (D attacks); D: -; H: JH; S: -; "
            "Jokers available: 0; Turned: 9D; Discard: 4H JS")
    hint = fair_hint(RA, parse_visible(RA, text), samples=40, rng=random.Random(0))
    assert {e.text for e in hint.estimates} == {"A(C) 9♦ attacks K♣", "P 9♦ to the reserve"}
    assert hint.lines()[0].startswith(f"Fair hint: {hint.move_text}  (40 samples")


def test_a_forced_move_is_the_fair_and_the_clairvoyant_hint():
    state = RA.initial_state(RA.deal_from_seed(5))  # at D1 with nothing to attack: only T
    assert RA.legal_moves(state) == ["T"]
    hint = fair_hint_for_state(RA, state, samples=10, rng=random.Random(0))
    assert hint.move == clairvoyant_hint(RA, state).move == "T"
    assert "the only legal move, so the clairvoyant hint too" in hint.lines()[0]


class TickingClock:
    """A fake time source: each reading is `step` seconds after the one before."""

    def __init__(self, step=0.01):
        self.now, self.step = 100.0, step

    def __call__(self):
        self.now += self.step
        return self.now


def test_no_sample_starts_after_the_deadline(monkeypatch):
    import solver.fair as fair

    clock, started = TickingClock(), []
    real_sample = fair._sample

    def sample(*args):
        started.append(clock.now)
        real_sample(*args)

    monkeypatch.setattr(fair, "_sample", sample)
    state = ADAMAN.initial_state(ADAMAN.deal_from_seed(5))
    hint = fair_hint_for_state(ADAMAN, state, samples=500, rng=random.Random(0), time_limit=0.2, clock=clock,
                               mode="winnable")
    deadline = 100.0 + 0.01 + 0.2
    assert hint.stopped_by_time and 0 < hint.samples == len(started) < 500
    assert max(started) < deadline
    assert hint.samples < len(ADAMAN.legal_moves(state))  # the limit wins over "one sample a move"


def test_each_sample_is_given_no_more_time_than_is_left(monkeypatch):
    import solver.fair as fair

    clock, given = TickingClock(0.001), []
    real_analyse = fair.analyse

    def analyse(game, state, mode, budget, **options):
        given.append((budget.time_limit, deadline - clock.now))
        return real_analyse(game, state, mode, budget, **options)

    monkeypatch.setattr(fair, "analyse", analyse)
    deadline = 100.0 + 0.001 + 2.0
    state = RA.apply(RA.initial_state(RA.deal_from_seed(5)), "T")
    fair_hint_for_state(RA, state, samples=60, rng=random.Random(0), time_limit=2.0, clock=clock)
    assert given and all(limit is not None and limit <= left + 1e-9 for limit, left in given)


def test_a_hint_with_too_little_time_still_answers_a_legal_move():
    state = ADAMAN.initial_state(ADAMAN.deal_from_seed(5))
    hint = fair_hint_for_state(ADAMAN, state, samples=100, rng=random.Random(0), time_limit=0.0,
                               clock=TickingClock())
    assert hint.samples == 0 and hint.stopped_by_time
    assert hint.move in ADAMAN.legal_moves(state)


def test_the_one_order_hint_keeps_the_time_limit(monkeypatch):
    import solver.fair as fair

    budgets = []
    real = fair.clairvoyant_hint

    def clairvoyant(game, state, budget):
        budgets.append(budget)
        return real(game, state, budget=budget)

    monkeypatch.setattr(fair, "clairvoyant_hint", clairvoyant)
    state = along_optimal_line(ADAMAN, 5, 1)
    fair_hint_for_state(ADAMAN, state, samples=10, time_limit=1.5, clock=TickingClock(0.001))
    assert budgets and budgets[0].time_limit <= 1.5


def test_halving_keeps_the_better_half_on_common_worlds():
    state = ADAMAN.initial_state(ADAMAN.deal_from_seed(5))
    moves = len(ADAMAN.legal_moves(state))
    hint = fair_hint_for_state(ADAMAN, state, samples=400, mode="winnable", rng=random.Random(3))
    assert hint.samples == 400 == sum(e.samples for e in hint.estimates)
    leader = hint.estimates[0]
    assert leader.samples == max(e.samples for e in hint.estimates)
    assert leader.survived == max(e.survived for e in hint.estimates) > 0
    assert sum(e.survived > 0 for e in hint.estimates) == (moves + 1) // 2
    # common worlds: moves sampled as often were valued on the very same worlds
    assert len({e.samples for e in hint.estimates if e.survived == 0}) == 1


def test_where_positions_repeat_the_sooner_win_ranks_first_at_equal_chances():
    from solver.fair import MoveEstimate

    slow = MoveEstimate("pass", "pass", samples=4, wins=4, score_total=80, quickness_total=4 / 101)
    soon = MoveEstimate("step", "step", samples=4, wins=4, score_total=80, quickness_total=4 / 11)
    assert soon.reward(85, quick=True) > slow.reward(85, quick=True)
    assert soon.reward(85) == slow.reward(85)  # elsewhere only the chance and the score count
    losing = MoveEstimate("lose", "lose", samples=4, wins=3, score_total=80, quickness_total=3.0)
    assert slow.reward(85, quick=True) > losing.reward(85, quick=True)  # the chance comes first


def test_samples_count_how_soon_their_wins_come():
    kings = make_game("kings-reign")
    state = kings.initial_state(kings.deal_from_seed(0))
    hint = fair_hint_for_state(kings, state, samples=20, rng=random.Random(1))
    for estimate in hint.estimates:
        assert 0 < estimate.quickness_total <= estimate.wins / 2 or estimate.wins == 0
        if estimate.wins:
            assert estimate.mean_moves_to_win >= 1
    assert hint.quick and "moves on average" in hint.lines()[1]
    assert hint.report()["moves"][0]["mean_moves_to_win"] == round(hint.estimates[0].mean_moves_to_win, 1)


# ----- under a time limit: every move before any move twice, and more never founds less -----
class SampleClock:
    """A clock that moves only when a sample is solved, `costs` units for the n-th sample
    (the last cost repeats): time limits counted in samples, not in seconds."""

    def __init__(self, monkeypatch, costs=(1,)):
        import solver.fair as fair

        self.now, self.costs, self.played = 0, list(costs), []
        real_sample = fair._sample

        def sample(game, world, arm, budget, mode):
            self.played.append(arm.text)
            real_sample(game, world, arm, budget, mode)
            self.now += self.costs[min(len(self.played), len(self.costs)) - 1]

        monkeypatch.setattr(fair, "_sample", sample)

    def __call__(self):
        return self.now


def timed_hint(monkeypatch, samples, limit, costs=(1,), state=None):
    clock = SampleClock(monkeypatch, costs)
    state = state or ADAMAN.initial_state(ADAMAN.deal_from_seed(5))
    hint = fair_hint_for_state(ADAMAN, state, samples=samples, rng=random.Random(0), time_limit=limit, clock=clock,
                               mode="winnable")
    return hint, clock.played


def bracket_depth(text):
    depth = deepest = 0
    for char in text:
        depth += {"(": 1, ")": -1}.get(char, 0)
        deepest = max(deepest, depth)
    return deepest


def test_every_move_is_sampled_before_any_move_gets_a_second_sample(monkeypatch):
    state = ADAMAN.initial_state(ADAMAN.deal_from_seed(5))
    moves = len(ADAMAN.legal_moves(state))
    hint, played = timed_hint(monkeypatch, 20_000, 3 * moves, state=state)
    assert sorted(played[:moves]) == sorted(e.text for e in hint.estimates)
    assert all(e.samples >= 1 for e in hint.estimates)
    assert hint.stopped_by_time and hint.samples == len(played) == 3 * moves


def test_a_limit_inside_the_first_sweep_says_which_moves_are_unsampled(monkeypatch):
    hint, played = timed_hint(monkeypatch, 999_999_999, 10)
    assert len(set(played)) == len(played) == hint.samples == 10  # ten moves once each, not one move ten times
    assert hint.unsampled == len(hint.estimates) - 10
    assert hint.estimates[0].samples == 1 and hint.move == hint.estimates[0].move
    assert f"before {hint.unsampled} of the {len(hint.estimates)} moves were sampled" in hint.lines()[0]
    assert hint.estimates[-1].summary(28).endswith("not sampled")


def test_more_samples_asked_or_more_time_never_found_the_advice_on_fewer_samples(monkeypatch):
    def leader_samples(samples, limit):
        return timed_hint(monkeypatch, samples, limit)[0].estimates[0].samples

    by_samples = [leader_samples(samples, 200) for samples in (150, 600, 20_000)]
    by_time = [leader_samples(20_000, limit) for limit in (60, 120, 240)]
    assert by_samples == sorted(by_samples) and by_samples[0] < by_samples[-1]
    assert by_time == sorted(by_time) and by_time[0] < by_time[-1]


def test_a_sweep_the_limit_cuts_short_is_set_aside_so_moves_compare_on_shared_worlds(monkeypatch):
    moves = len(ADAMAN.legal_moves(ADAMAN.initial_state(ADAMAN.deal_from_seed(5))))
    # the first sweep is quick, the rest slower: the plan made at the first sweep's pace overshoots
    hint, played = timed_hint(monkeypatch, 20_000, 4 * moves, costs=[1] * moves + [3])
    assert hint.stopped_by_time and hint.set_aside > 0
    assert hint.samples + hint.set_aside == len(played)
    contenders = [e for e in hint.estimates if e.survived == hint.estimates[0].survived]
    assert len({e.samples for e in contenders}) == 1
    assert f"{hint.set_aside} sample" in hint.lines()[0] and "of an unfinished sweep set aside" in hint.lines()[0]


def test_sample_counts_read_as_they_were_sampled(monkeypatch):
    state = ADAMAN.initial_state(ADAMAN.deal_from_seed(5))
    few = fair_hint_for_state(ADAMAN, state, samples=5, mode="winnable", rng=random.Random(0))
    assert "(28 samples: one for each move, more than the 5 asked)" in few.lines()[0]
    assert few.lines()[1].endswith("(1 sample)")
    timed, _ = timed_hint(monkeypatch, 600, 100)
    assert f"({timed.samples} of 600 samples, stopped by the time limit" in timed.lines()[0]
    assert all(bracket_depth(line) <= 1 for hint in (few, timed) for line in hint.lines())


def test_win_chances_are_shown_among_decided_samples_with_the_undecided_beside_them():
    from solver.fair import MoveEstimate
    from solver.stats import wilson_interval

    mostly_undecided = MoveEstimate("a", "A(C) 10♥ attacks K♣", samples=250, wins=67, unknown=183)
    low, high = wilson_interval(67, 67)
    assert mostly_undecided.decided_win_rate == 1.0 and mostly_undecided.decided_interval == (low, high)
    line = mostly_undecided.summary(28)
    assert f"wins 100.0% of decided [{low:.1%}, {high:.1%}]" in line
    assert line.endswith("(250 samples: 67 won, 183 undecided)")
    some_lost = MoveEstimate("b", "b", samples=10, wins=6, unknown=2)
    assert "wins  75.0% of decided" in some_lost.summary(28)
    all_decided = MoveEstimate("c", "c", samples=4, wins=3)
    assert "wins  75.0% [" in all_decided.summary(28) and all_decided.summary(28).endswith("(4 samples)")


def test_a_round_planned_at_a_slow_pace_leaves_the_rest_to_later_rounds_not_unsolved(monkeypatch):
    moves = len(ADAMAN.legal_moves(ADAMAN.initial_state(ADAMAN.deal_from_seed(5))))
    # the first sweep is slow (3 units a sample), the rest quick: round one is planned small
    hint, played = timed_hint(monkeypatch, 600, 3 * moves + 900, costs=[3] * moves + [0.001])
    first_out = [e for e in hint.estimates if e.survived == 0]
    assert {e.samples for e in first_out} == {(moves + 300) // (5 * moves)}  # 300 afforded after the sweep
    assert not hint.stopped_by_time and 600 - moves < hint.samples == len(played) <= 600
    assert "time limit" not in hint.lines()[0]
