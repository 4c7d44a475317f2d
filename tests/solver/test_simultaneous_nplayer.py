"""Q1-Q3 for three and four players: the compiled and Python searches against a plain brute
force over every joint action, on endings of real deals (round starts a round or two before
the end, small enough to enumerate); intervals under tight budgets hold the exact values.
Q5 (P against the coalition, mixed strategies) against the matrix game of contingent plans
on hand-built endings, and between Q2 and Q3."""

from __future__ import annotations

import itertools
import math

import pytest
from devils_throne_helpers import contingent_plan_value, late_position, late_uneven_position, needs_core

from games.devils_throne import DevilsThrone, State
from games.devils_throne.cards import HIGH
from games.devils_throne.game import late_round_start
from games.devils_throne.rules import SELECT
from solver.answers import Budget, Interval, SeatStats
from solver.simultaneous import analyse
from solver.simultaneous.paranoid import HorizonFloor, Paranoid, compiled_paranoid
from solver.simultaneous.reasons import FEW_HIGH, HORIZON_LOW
from solver.simultaneous.schedule import drive


def payoff(game, state, seat, kind):
    cards = game.returns(state)
    if kind == "cards":
        return cards[seat]
    return min(cards[seat] - c for s, c in enumerate(cards) if s != seat)


def brute(game, state, seat, question, kind, fixed=()):
    """The question's value by plain recursion over every joint action (no table, no cut).
    Q1: the best joint action; Q2: P chooses, then the others together choose the worst for
    P; Q3: the others choose first, then P its best.  Seats in `fixed` play the greedy bot,
    P against every other seat, the others against P."""
    if game.is_over(state):
        return payoff(game, state, seat, kind)
    acting = game.acting_players(state)
    everyone = range(len(game.returns(state)))

    def aimed(s):
        return game.greedy_action_against(state, s, [o for o in everyone if o != s] if s == seat else [seat])

    options = [[aimed(s)] if s in fixed else game.legal_actions(state, s) for s in acting]
    values = {joint: brute(game, game.apply_joint(state, joint), seat, question, kind, fixed)
              for joint in itertools.product(*options)}
    if question == "q1":
        return max(values.values())
    if seat not in acting:
        return min(values.values())
    mine = acting.index(seat)
    groups: dict = {}
    for joint, value in values.items():
        group = joint[mine] if question == "q2" else joint[:mine] + joint[mine + 1:]
        groups.setdefault(group, []).append(value)
    if question == "q2":
        return max(min(group) for group in groups.values())
    return min(max(group) for group in groups.values())


CASES = [(3, seed, 2) for seed in range(5)] + [(4, seed, 1) for seed in range(4)]


def assert_both_engines_equal_the_brute_force(game, state, seat):
    """Every question's cards and margin, in the Python and the compiled search, equal the
    brute force; the compiled search is the Python one, node for node."""
    python = analyse(game, state, seat, ("q1", "q2", "q3"), engine="python").answers
    compiled = analyse(game, state, seat, ("q1", "q2", "q3"), engine="compiled").answers
    for question in ("q1", "q2", "q3"):
        exact = (brute(game, state, seat, question, "cards"), brute(game, state, seat, question, "margin"))
        assert (python[question].cards, python[question].margin) == exact
        assert (compiled[question].cards, compiled[question].margin) == exact
        assert compiled[question].stats.states == python[question].stats.states
        assert compiled[question].stats.table_hits == python[question].stats.table_hits
        assert compiled[question].best_action == python[question].best_action


@needs_core
@pytest.mark.parametrize(("players", "seed", "cards_left"), CASES)
def test_every_question_equals_the_brute_force_in_both_engines(players, seed, cards_left):
    game = DevilsThrone(players)
    assert_both_engines_equal_the_brute_force(game, late_position(game, seed, cards_left), seed % players)


@needs_core
@pytest.mark.parametrize(("players", "seed", "cards_left"), [(3, 20, 2), (3, 21, 2), (4, 22, 1), (4, 23, 2)])
def test_hands_left_uneven_bound_the_search_and_every_question_still_equals_the_brute_force(
        players, seed, cards_left):
    game = DevilsThrone(players)
    state = late_uneven_position(game, seed, cards_left)
    assert game.cards_reachable(state) < game.cards_in_play(state)
    assert_both_engines_equal_the_brute_force(game, state, seed % players)


def full_hands(game, seed, cards):
    """A round start with `cards` cards in every hand: each seat has a choice of its replies."""
    return late_round_start(game, seed, cards, accept=lambda state: max(map(len, state.hands)) <= cards)


@needs_core
@pytest.mark.parametrize(("players", "seed", "cards"), [(3, 30, 3), (3, 31, 3), (3, 32, 3), (4, 31, 3), (4, 32, 3)])
def test_the_others_answering_p_in_the_order_of_replies_change_no_value(players, seed, cards):
    """Where the others answer P's card (Q2) they try the game's order of replies, not the
    search order: every question still equals the brute force in both engines, node for
    node."""
    game = DevilsThrone(players)
    state = full_hands(game, seed, cards)
    seat = seed % players
    ordered = {s: game.order_actions(state, s, game.legal_actions(state, s)) for s in range(players) if s != seat}
    assert any(game.order_replies(state, s, seat, actions, answer) != actions
               for s, actions in ordered.items() for answer in game.legal_actions(state, seat))
    assert_both_engines_equal_the_brute_force(game, state, seat)


def test_the_order_of_replies_tries_the_cheapest_card_that_beats_p_first_and_keeps_every_card():
    game = DevilsThrone(3)
    state = game.initial_state(game.deal_from_seed(0))
    high = game.rules.mode(state) == HIGH
    actions = game.order_actions(state, 1, game.legal_actions(state, 1))
    answer = 8
    beating = [rank for rank in actions if (rank > answer if high else rank < answer)]
    replies = game.order_replies(state, 1, 0, actions, answer)
    few = game.few_options(state, 1, 0, actions, answer)
    assert sorted(replies) == sorted(actions) and replies[:len(few)] == few
    assert replies[0] == (min(beating) if high else max(beating))
    assert game.greedy_action_against(state, 1, [0]) in few
    # where P has not chosen, the few keep the search order
    unanswered = game.few_options(state, 1, 0, actions, None)
    assert unanswered == [rank for rank in actions if rank in unanswered]
    assert game.order_replies(state, 1, 0, actions, None) == unanswered + [r for r in actions if r not in unanswered]


class ScriptedSearch:
    """A search whose fail-soft probes report a known value: `slack` past the probe's
    gamma where it fails (as a real fail-soft search may), noting each gamma asked."""

    def __init__(self, value, slack):
        self.value, self.slack, self.asked, self.root_action = value, slack, [], "3"

    def probe(self, state, alpha, beta):
        self.asked.append(beta)
        if self.value >= beta:
            return min(self.value, beta + self.slack)
        return max(self.value, beta - 1 - self.slack)


@pytest.mark.parametrize("slack", [0, 2])
@pytest.mark.parametrize("value", [0, 1, 7, 20])
def test_probes_descending_walk_the_ceiling_down_to_the_value(value, slack):
    search = ScriptedSearch(value, slack)
    bounds = Interval(0, 20, "low", "high")
    drive(search, None, bounds, None, descending=True)
    assert bounds.ends == (value, value)
    ceilings = [20]
    for gamma in search.asked[:-1]:
        assert gamma == ceilings[-1]
        ceilings.append(max(value, gamma - 1 - slack))
    assert search.asked == sorted(search.asked, reverse=True)


@needs_core
@pytest.mark.parametrize(("players", "seed"), [(3, 11), (3, 12), (4, 13)])
def test_the_greedy_bots_values_bound_q2_from_below_and_q3_from_above(players, seed):
    game = DevilsThrone(players)
    state = late_position(game, seed, 2 if players == 3 else 1)
    seat = 1
    others = tuple(s for s in range(players) if s != seat)
    for kind in ("cards", "margin"):
        q2, q3 = brute(game, state, seat, "q2", kind), brute(game, state, seat, "q3", kind)
        assert brute(game, state, seat, "q2", kind, fixed=(seat,)) <= q2 <= q3
        assert q3 <= brute(game, state, seat, "q3", kind, fixed=others)


@needs_core
@pytest.mark.parametrize("engine", ["python", "compiled"])
@pytest.mark.parametrize("max_states", [1, 3, 10, 40])
@pytest.mark.parametrize("players", [3, 4])
def test_intervals_under_a_state_budget_hold_the_exact_value_and_say_why(engine, max_states, players):
    game = DevilsThrone(players)
    state = late_position(game, 20 + max_states, 3 if players == 3 else 2)
    exact = analyse(game, state, 0, ("q1", "q2", "q3"), engine="compiled").answers
    cut = analyse(game, state, 0, ("q1", "q2", "q3"), budget=Budget(max_states=max_states), engine=engine).answers
    for question, answer in cut.items():
        for kind in ("cards", "margin"):
            low, high = getattr(answer, f"{kind}_bounds")
            value = getattr(exact[question], kind)
            assert low <= value <= high
            if low < high:
                assert getattr(answer, f"{kind}_low_reason") and getattr(answer, f"{kind}_high_reason")
                assert getattr(answer, kind) is None and answer.exhausted
            trivial = game.cards_in_play(state)
            assert high - low <= (trivial if kind == "cards" else 2 * trivial)


@needs_core
def test_a_three_player_deal_answers_q1_exactly_and_q2_q3_within_real_bounds():
    game = DevilsThrone(3)
    state = game.initial_state(game.deal_from_seed(0))
    q1 = analyse(game, state, 0, ("q1",), engine="compiled").answers["q1"]
    assert (q1.cards, q1.margin) == (39, 39)
    budget = Budget(max_states=150_000)  # states, not seconds: the same answer on a busy machine
    answers = analyse(game, state, 0, ("q2", "q3"), budget=budget, engine="compiled").answers
    for answer in answers.values():
        low, high = answer.cards_bounds
        assert 0 <= low <= high <= 39 and high - low < 39
        assert answer.cards_low_reason and answer.cards_high_reason
    # the probe of the next round alone: P's Robber, played at once, gains one card whatever the others do
    assert answers["q2"].cards_bounds[0] == 1 and answers["q2"].cards_low_reason == HORIZON_LOW["q2"]


@pytest.mark.parametrize("players, seed", [(3, seed) for seed in range(3)] + [(4, seed) for seed in range(2)])
def test_a_search_of_the_next_rounds_alone_proves_floors_and_with_every_round_the_value(players, seed):
    """Cut after `horizon` rounds (each cut position at its static floor) the search's value
    is at most the game's, whatever the window; given every round left it is the value."""
    game = DevilsThrone(players)
    state = late_position(game, seed, 2 if players == 3 else 1)
    rounds_left = max(len(hand) for hand in state.hands)
    for question, kind in itertools.product(("q2", "q3"), ("cards", "margin")):
        exact = brute(game, state, seed % players, question, kind)
        for horizon in range(1, rounds_left + 1):
            search = HorizonFloor(game, seed % players, question, kind, Budget(), None, SeatStats(), horizon)
            value = search.probe(state, -math.inf, math.inf)
            assert value <= exact, (question, kind, horizon)
            for gamma in range(int(value) + 1, exact + 2):
                assert search.probe(state, gamma - 1, gamma) <= exact
            if horizon == rounds_left:
                assert value == exact, (question, kind)


@needs_core
def test_four_players_seat_one_is_guaranteed_its_robbers_card():
    """Four players, seat 1 (the Robber's): a card whatever the others do, found by the
    search of the next round alone within a budget far too small for the full search."""
    game = DevilsThrone(4)
    state = game.initial_state(game.deal_from_seed(0))
    answers = analyse(game, state, 0, ("q2", "q3"), budget=Budget(max_states=20_000), engine="compiled").answers
    for answer in answers.values():
        assert answer.cards_bounds[0] >= 1 and not answer.decided
    assert answers["q2"].cards_low_reason == HORIZON_LOW["q2"]
    assert answers["q2"].cards_floor_action == "3" and answers["q3"].cards_floor_action is None


def few_replies_search(game, state, seat, question, kind, engine, few_replies=True):
    compiled = compiled_paranoid(game, state, seat, question, kind, engine, few_replies=few_replies)
    return Paranoid(game, seat, question, kind, Budget(), None, SeatStats(), compiled, few_replies=few_replies)


@needs_core
@pytest.mark.parametrize(("players", "seed", "cards_left"), [(3, 0, 5), (3, 2, 5), (4, 0, 4), (4, 2, 4)])
def test_the_others_kept_to_few_replies_hold_p_to_a_ceiling_of_q2_and_q3_in_both_engines(players, seed, cards_left):
    """Fewer replies for the others can only help P: the search with the others kept to the
    game's few options is at least the exact value (the full search, itself checked against
    the brute force above), and the compiled search is the Python one, node for node."""
    game = DevilsThrone(players)
    state = late_position(game, seed, cards_left)
    seat = seed % players
    assert any(len(game.few_options(state, s, seat, game.order_actions(state, s, game.legal_actions(state, s)), None))
               < len(game.legal_actions(state, s)) for s in range(players) if s != seat)
    for question, kind in itertools.product(("q2", "q3"), ("cards", "margin")):
        exact = few_replies_search(game, state, seat, question, kind, "compiled", few_replies=False)
        value = exact.probe(state, -math.inf, math.inf)
        python, compiled = (few_replies_search(game, state, seat, question, kind, engine)
                            for engine in ("python", "compiled"))
        few = python.probe(state, -math.inf, math.inf)
        assert few >= value, (question, kind)
        assert compiled.probe(state, -math.inf, math.inf) == few
        assert (compiled.stats.states, compiled.stats.table_hits) == (python.stats.states, python.stats.table_hits)


class WithoutFewReplies(DevilsThrone):
    """The game without its few replies: the others' one-sided search is their greedy bots'."""

    offers_few_options = False


@needs_core
def test_few_replies_lower_q2s_ceiling_under_a_state_budget_and_the_interval_holds_the_value():
    """Three players, seven cards a hand (Q2's cards are 7): within 40,000 round starts the
    others kept to a few replies hold P to 7, where their greedy bots and the full search
    leave P's ceiling higher."""
    game = DevilsThrone(3)
    state = late_position(game, 6, 7)
    exact = analyse(game, state, 0, ("q2",), engine="compiled").answers["q2"].cards
    budget = Budget(max_states=40_000)
    cut = analyse(game, state, 0, ("q2",), budget=budget, engine="compiled").answers["q2"]
    greedy = analyse(WithoutFewReplies(3), state, 0, ("q2",), budget=budget, engine="compiled").answers["q2"]
    low, high = cut.cards_bounds
    assert low <= exact == high == 7 and cut.cards_high_reason == FEW_HIGH
    assert greedy.cards_bounds[1] > 7 and greedy.cards_bounds[0] <= exact


def test_the_cards_asked_alone_are_the_cards_asked_with_the_margin():
    game = DevilsThrone(3)
    state = late_position(game, 1, 2)
    both = analyse(game, state, 1, ("q1", "q2", "q3")).answers
    alone = analyse(game, state, 1, ("q1", "q2", "q3"), payoffs=("cards",)).answers
    for question, answer in alone.items():
        assert answer.cards == both[question].cards is not None
        assert answer.margin is None and not answer.decided
    with pytest.raises(ValueError, match="payoffs are"):
        analyse(game, state, 1, ("q2",), payoffs=("score",))


# ----- Q5: P against the coalition of the others, in mixed strategies -----------------------

def coalition_positions():
    """Hand-built three-player endings (two or three cards a hand) where mixing matters: Q2 <
    Q3 on both payoffs, so that no pure strategy settles Q5."""
    rows = [  # round, hands, reserves, tricks, coins
        (9, ((4, 10), (7, 12), (4, 8)), ((7,), (9, 5), (10, 11)), (5, 2, 5), (1, 1, 0, 0, 1, 1, 1, 1, 0, 0)),
        (9, ((6, 11), (5, 12), (8, 9)), ((5, 8), (6, 13), (5,)), (5, 0, 2), (1, 1, 1, 0, 0, 1, 0, 0, 1, 1)),
        (8, ((7, 11), (1, 6, 10), (4, 13)), ((8,), (8, 12), (9,)), (2, 3, 1), (1, 1, 0, 1, 1, 1, 0, 0, 0, 1)),
        (9, ((8, 13), (10, 13), (4, 8)), ((4,), (11,), (6,)), (3, 3, 2), (1, 1, 1, 0, 1, 0, 1, 0, 1, 1)),
        (8, ((1, 7, 11), (6, 7), (9, 13)), ((8, 10), (12, 13), (6,)), (1, 4, 1), (0, 0, 1, 0, 1, 1, 1, 0, 0, 1)),
    ]
    return [State(r, SELECT, hands, reserves, tricks, (), (), 0, 0, 0, coins)
            for r, hands, reserves, tricks, coins in rows]


@pytest.mark.parametrize("index", range(5))
def test_q5_equals_the_matrix_game_of_the_coalitions_contingent_plans(index):
    game, state = DevilsThrone(3), coalition_positions()[index]
    answers = analyse(game, state, 0, ("q2", "q3", "q5")).answers
    q2, q3, q5 = answers["q2"], answers["q3"], answers["q5"]
    assert q5.decided and q5.stats.matrix_games > q5.stats.saddles
    assert q5.cards == pytest.approx(contingent_plan_value(game, state, 0, "cards"), abs=1e-6)
    assert q5.margin == pytest.approx(contingent_plan_value(game, state, 0, "margin"), abs=1e-6)
    assert q2.cards < q3.cards and q2.margin < q3.margin  # mixing matters here
    assert sum(q5.strategy.values()) == pytest.approx(1) and sum(q5.opponent_strategy.values()) == pytest.approx(1)


@pytest.mark.parametrize("players, seed", [(3, seed) for seed in range(4)] + [(4, seed) for seed in range(3)])
def test_q5_lies_between_q2_and_q3_on_endings_of_real_deals(players, seed):
    game = DevilsThrone(players)
    state = late_position(game, seed, 2 if players == 3 else 1)
    answers = analyse(game, state, seed % players, ("q2", "q3", "q5")).answers
    q2, q3, q5 = answers["q2"], answers["q3"], answers["q5"]
    assert q2.cards - 1e-9 <= q5.cards <= q3.cards + 1e-9
    assert q2.margin - 1e-9 <= q5.margin <= q3.margin + 1e-9


def test_q5_out_of_budget_is_an_interval_holding_the_value_with_its_reasons():
    game, state = DevilsThrone(3), coalition_positions()[2]
    exact = analyse(game, state, 0, ("q5",)).answers["q5"]
    cut = analyse(game, state, 0, ("q2", "q3", "q5"), budget=Budget(max_states=1)).answers["q5"]
    assert not cut.decided and "state budget" in cut.exhausted
    assert cut.cards_bounds[0] <= exact.cards <= cut.cards_bounds[1]
    assert cut.margin_bounds[0] <= exact.margin <= cut.margin_bounds[1]
    assert cut.cards_low_reason and cut.cards_high_reason and cut.margin_low_reason and cut.margin_high_reason


def test_q5_is_refused_for_two_players_and_q4_for_three():
    from games.base import UnsupportedGame

    two, three = DevilsThrone(2), DevilsThrone(3)
    with pytest.raises(UnsupportedGame, match="with two it is Q4"):
        analyse(two, two.initial_state(two.deal_from_seed(0)), 0, ("q5",))
    with pytest.raises(UnsupportedGame, match="two players, not 3"):
        analyse(three, three.initial_state(three.deal_from_seed(0)), 0, ("q4",))
