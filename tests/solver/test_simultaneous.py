"""solver.simultaneous: the four open-deal questions, checked against brute force and each other."""

from __future__ import annotations

import itertools
import random
import threading
from types import SimpleNamespace

import pytest
from devils_throne_helpers import contingent_plan_value, late_position, late_uneven_position, needs_core

from games.base import SOLITAIRE, UnsupportedGame
from games.devils_throne import DevilsThrone, State
from games.devils_throne.rules import SELECT
from solver.answers import Budget, SeatStats
from solver.simultaneous import analyse, equilibrium, lp_row_player, matrix_game

HIGHS = (0,) * 10
TOLERANCE = 1e-6


def brute_paranoid(game, state, seat, question, payoff):
    """Q1-Q3 by plain recursion over every joint action: no table, no pruning."""
    if game.is_over(state):
        returns = game.returns(state)
        if payoff == "cards":
            return returns[seat]
        return min(returns[seat] - r for s, r in enumerate(returns) if s != seat)
    acting = game.acting_players(state)
    joints = list(itertools.product(*(game.legal_actions(state, s) for s in acting)))
    value = {joint: brute_paranoid(game, game.apply_joint(state, joint), seat, question, payoff) for joint in joints}
    if question == "q1":
        return max(value.values())
    if seat not in acting:
        return min(value.values())
    mine = acting.index(seat)
    by_mine: dict = {}
    for joint, v in value.items():
        by_mine.setdefault(joint[mine], []).append(v)
    if len(acting) == 1:
        return max(v[0] for v in by_mine.values())
    if question == "q2":
        return max(min(vs) for vs in by_mine.values())
    by_theirs: dict = {}
    for joint, v in value.items():
        by_theirs.setdefault(joint[:mine] + joint[mine + 1:], []).append(v)
    return min(max(vs) for vs in by_theirs.values())


def tiny_positions():
    """Hand-built two-round endings: aces, threes, deuces, ties and reserves in play."""
    game = DevilsThrone(2)
    one = State(9, SELECT, ((1, 5), (4, 9)), ((7,), (6, 8)), (3, 5), (), (), 0, 0, 0, (0,) * 9 + (1,))
    two = State(9, SELECT, ((1, 3), (1, 2)), ((12,), (5,)), (0, 0), (), (), 0, 0, 0, (1,) * 10)
    three = State(9, SELECT, ((2, 3), (1, 11)), ((4, 9), (10,)), (2, 1), (), (), 0, 0, 0, (0, 1) * 5)
    return game, [one, two, three]


# ----- the order of the questions -------------------------------------------------------------

@pytest.mark.parametrize("seed", range(30))
def test_q2_q4_q3_q1_are_ordered_on_two_player_positions(seed):
    game = DevilsThrone(2)
    state = late_position(game, seed, 2 + seed % 3)
    answers = analyse(game, state, seed % 2).answers
    q1, q2, q3, q4 = (answers[q] for q in ("q1", "q2", "q3", "q4"))
    assert q2.margin - TOLERANCE <= q4.margin <= q3.margin + TOLERANCE
    assert q3.margin <= q1.margin and q2.cards <= q3.cards <= q1.cards


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("seed", range(4))
def test_paranoid_answers_equal_plain_recursion(players, seed):
    game = DevilsThrone(players)
    state = late_position(game, seed, 2)
    answers = analyse(game, state, 0, ("q1", "q2", "q3")).answers
    for question, answer in answers.items():
        assert answer.cards == brute_paranoid(game, state, 0, question, "cards")
        assert answer.margin == brute_paranoid(game, state, 0, question, "margin")


def test_four_players_paranoid_answers_equal_plain_recursion():
    game = DevilsThrone(4)
    state = late_position(game, 1, 1)
    answers = analyse(game, state, 2, ("q2", "q3")).answers
    for question, answer in answers.items():
        assert answer.margin == brute_paranoid(game, state, 2, question, "margin")


# ----- Q4 against the whole matrix game -------------------------------------------------------

@pytest.mark.parametrize("index", range(3))
@pytest.mark.parametrize("seat", [0, 1])
def test_q4_equals_the_matrix_game_of_contingent_plans(index, seat):
    game, positions = tiny_positions()
    answer = analyse(game, positions[index], seat, ("q4",)).answers["q4"]
    assert answer.margin == pytest.approx(contingent_plan_value(game, positions[index], seat), abs=TOLERANCE)


@pytest.mark.parametrize("seed", [3, 7, 11, 12, 15, 18])
def test_q4_equals_the_matrix_game_of_contingent_plans_where_play_mixes(seed):
    game = DevilsThrone(2)
    state = late_position(game, seed, 2)  # endings chosen for a node without a pure saddle point
    answer = analyse(game, state, 0, ("q4",)).answers["q4"]
    assert answer.stats.matrix_games > answer.stats.saddles
    assert answer.margin == pytest.approx(contingent_plan_value(game, state, 0), abs=TOLERANCE)


def test_q4_root_mixes_are_probabilities_that_guarantee_the_value():
    game = DevilsThrone(2)
    state = late_position(game, 5, 3)
    answer = equilibrium(game, state, 0)
    assert sum(answer.strategy.values()) == pytest.approx(1)
    assert sum(answer.opponent_strategy.values()) == pytest.approx(1)
    legal = {game.format_action(state, a) for a in game.legal_actions(state, 0)}
    assert set(answer.strategy) <= legal


# ----- matrix games --------------------------------------------------------------------------

def test_a_pure_saddle_point_skips_the_lp_and_agrees_with_it():
    rng = random.Random(3)
    checked = 0
    for _ in range(300):
        matrix = [[rng.randint(-5, 5) for _ in range(rng.randint(1, 4))] for _ in range(rng.randint(1, 4))]
        width = len(matrix[0])
        matrix = [row[:width] + [0] * (width - len(row)) for row in matrix]
        stats = SeatStats()
        value = matrix_game(matrix, stats=stats)[0]
        if stats.saddles:
            checked += 1
            assert value == pytest.approx(lp_row_player(matrix)[0], abs=TOLERANCE)
    assert checked > 50


def test_dominance_and_the_two_by_two_formula_agree_with_the_lp():
    rng = random.Random(4)
    for _ in range(300):
        rows, columns = rng.randint(2, 5), rng.randint(2, 5)
        matrix = [[rng.uniform(-5, 5) for _ in range(columns)] for _ in range(rows)]
        value, x, y = matrix_game(matrix, strategies=True)
        assert value == pytest.approx(lp_row_player(matrix)[0], abs=TOLERANCE)
        assert min(sum(x[r] * matrix[r][c] for r in range(rows)) for c in range(columns)) >= value - TOLERANCE
        assert max(sum(y[c] * matrix[r][c] for c in range(columns)) for r in range(rows)) <= value + TOLERANCE


def test_matching_pennies_mixes_half_and_half():
    value, x, y = matrix_game([[1, -1], [-1, 1]], strategies=True)
    assert value == pytest.approx(0) and x == pytest.approx([0.5, 0.5]) and y == pytest.approx([0.5, 0.5])


# ----- budgets and refusals ------------------------------------------------------------------

def test_an_exhausted_budget_gives_an_interval_that_holds_the_value_never_a_value():
    game = DevilsThrone(2)
    state = late_position(game, 7, 4)
    exact = analyse(game, state, 0).answers
    cut = analyse(game, state, 0, budget=Budget(max_states=5)).answers
    for question in ("q1", "q2", "q3", "q4"):
        answer = cut[question]
        assert answer.margin is None and answer.exhausted
        low, high = answer.margin_bounds
        assert low - TOLERANCE <= exact[question].margin <= high + TOLERANCE
        if question != "q4":
            low, high = answer.cards_bounds
            assert low <= exact[question].cards <= high


def test_sequential_games_are_refused_in_one_line():
    with pytest.raises(UnsupportedGame) as error:
        analyse(SimpleNamespace(name="solitaire", game_type=SOLITAIRE), None)
    assert "\n" not in str(error.value)


def test_q4_is_refused_for_three_players():
    game = DevilsThrone(3)
    with pytest.raises(UnsupportedGame):
        analyse(game, game.initial_state(game.deal_from_seed(0)), 0, ("q4",))


@pytest.mark.slow
def test_a_whole_two_player_deal_keeps_the_order_of_the_questions():
    game = DevilsThrone(2)
    answers = analyse(game, game.initial_state(game.deal_from_seed(0)), 0).answers
    assert answers["q2"].margin - TOLERANCE <= answers["q4"].margin <= answers["q3"].margin + TOLERANCE


# ----- round starts that share a value key ------------------------------------------------------

@pytest.mark.parametrize(("hands", "relabelled"), [
    # no ace left: the order alone counts; seat 1's three cards below its 9 are one option
    (((2, 5, 6, 7), (3, 9)), ((2, 4, 4, 4), (3, 5))),
    # an ace in hand: differences clamped to 2; 5 and 6 meet the 8 alike (3 and 2 apart)
    (((1, 5, 6), (8,)), ((1, 5, 5), (7,))),
    # 6 is one below the 7 and 8 two above the 6: nothing merges, the gaps stay
    (((1, 6, 8), (7, 13)), ((1, 5, 7), (6, 9))),
    # a 4 is one above the other seat's 3: it keeps its rank; J and Q meet the 4 alike
    (((1, 4), (3, 11, 12)), ((1, 4), (3, 6, 6))),
])
def test_relabelled_hands_keep_each_clamped_difference_between_the_hands(hands, relabelled):
    game = DevilsThrone(2)
    state = State(5, SELECT, hands, ((), ()), (0, 0), (), (), 0, 0, 0, HIGHS)
    assert game.rules.relabelled_hands(state) == relabelled
    assert game.value_key(state) == game.key(state._replace(hands=relabelled))


def test_no_relabelling_while_a_gravedigger_may_bring_a_reserve_card_into_a_hand():
    game = DevilsThrone(2, ["S", "H"])
    held = State(5, SELECT, ((3, 5, 9), (1, 7)), ((4,), (6,)), (0, 0), (), (), 0, 0, 0, HIGHS)
    assert game.rules.relabelled_hands(held) is None and game.value_key(held) == game.key(held)
    played = held._replace(hands=((5, 9), (1, 7)))
    assert game.rules.relabelled_hands(played) is not None
    assert game.rules.relabelled_hands(late_position(DevilsThrone(3), 0, 3)) is None


def substituted(state: State, state_seat: int, rank: int, new: int) -> State | None:
    """state with one common `rank` of a seat's hand replaced by `new` (None: not a change)."""
    hand = list(state.hands[state_seat])
    if rank not in hand or new in hand:
        return None
    hand[hand.index(rank)] = new
    return state._replace(hands=tuple(tuple(sorted(hand)) if s == state_seat else h for s, h in enumerate(state.hands)))


def merged_positions(game: DevilsThrone, state: State) -> list[State]:
    """Positions with one or two commons in hand replaced that share state's value key (and
    not its key), in a fixed order."""
    def changes(position):
        for seat, hand in enumerate(position.hands):
            for rank in sorted(set(hand) - {1, 2, 3}):
                for new in range(4, 14):
                    other = substituted(position, seat, rank, new)
                    if other is not None:
                        yield other
    found = {}
    for once in changes(state):
        for other in itertools.chain([once], changes(once)):
            if game.value_key(other) == game.value_key(state) and game.key(other) != game.key(state):
                found.setdefault(game.key(other), other)
    return [found[key] for key in sorted(found)]


def plain_q4(state: State, seat: int) -> float:
    """Q4 by the Python search keyed on the plain key: no two positions merged."""
    plain = DevilsThrone(2)
    plain.value_key = plain.key
    return analyse(plain, state, seat, ("q4",), engine="python").answers["q4"].margin


def plain_paranoid(state: State, seat: int) -> dict[str, tuple[int, int]]:
    """Q1-Q3 (cards, margin) by the Python search keyed on the plain key."""
    plain = DevilsThrone(2)
    plain.value_key = plain.key
    answers = analyse(plain, state, seat, ("q1", "q2", "q3"), engine="python").answers
    return {question: (answer.cards, answer.margin) for question, answer in answers.items()}


def merged_case(seed: int) -> tuple[DevilsThrone, State, list[State], int]:
    """A late round start (hands even or not), the positions that share its value key, P."""
    game = DevilsThrone(2)
    state = (late_position if seed % 2 else late_uneven_position)(game, seed, 2 + seed % 3)
    others = merged_positions(game, state)
    assert others, "no merged position found"
    return game, state, others[::max(1, len(others) // 4)][:4], seed % 2


@pytest.mark.parametrize("seed", range(12))
def test_positions_that_share_a_value_key_have_equal_values_searched_apart(seed):
    """Round starts the relabelling merges, each valued by the plain search, have one value;
    on the smallest, the brute force over contingent plans agrees."""
    game, state, others, seat = merged_case(seed)
    value = plain_q4(state, seat)
    if sum(map(len, state.hands)) <= 5:
        assert contingent_plan_value(game, state, seat) == pytest.approx(value, abs=TOLERANCE)
    for other in others:
        assert plain_q4(other, seat) == pytest.approx(value, abs=TOLERANCE)


@pytest.mark.parametrize("seed", range(12))
def test_positions_that_share_a_value_key_have_equal_paranoid_values(seed):
    """As above for Q1-Q3 (both payoffs), whose tables are keyed the same way; on the
    smallest, the brute force over every joint action agrees."""
    game, state, others, seat = merged_case(seed)
    values = plain_paranoid(state, seat)
    if sum(map(len, state.hands)) <= 6:
        assert values == {question: tuple(brute_paranoid(game, state, seat, question, payoff)
                                          for payoff in ("cards", "margin")) for question in values}
    for other in others:
        assert plain_paranoid(other, seat) == values
        answers = analyse(game, other, seat, ("q1", "q2", "q3"), engine="python").answers
        assert {question: (answer.cards, answer.margin) for question, answer in answers.items()} == values


@needs_core
@pytest.mark.parametrize("seed", range(12))
def test_the_compiled_values_of_merged_positions_are_the_plain_ones(seed):
    game, state, others, seat = merged_case(seed)
    for other in [state, *others]:
        compiled = analyse(game, other, seat, ("q1", "q2", "q3", "q4"), engine="compiled").answers
        assert compiled["q4"].margin == pytest.approx(plain_q4(other, seat), abs=TOLERANCE)
        assert {question: (compiled[question].cards, compiled[question].margin)
                for question in ("q1", "q2", "q3")} == plain_paranoid(other, seat)


# ----- the compiled Q4 against the Python reference --------------------------------------------

@needs_core
@pytest.mark.parametrize("seed", range(16))
def test_compiled_q4_agrees_with_python_value_and_states(seed):
    game = DevilsThrone(2)
    state = late_position(game, seed, 2 + seed % 4)
    seat = seed % 2
    python = analyse(game, state, seat, ("q4",), engine="python").answers["q4"]
    compiled = analyse(game, state, seat, ("q4",), engine="compiled").answers["q4"]
    assert compiled.margin == pytest.approx(python.margin, abs=TOLERANCE)
    assert (compiled.stats.states, compiled.stats.matrix_games) == (python.stats.states, python.stats.matrix_games)
    assert compiled.strategy.keys() == python.strategy.keys()


@needs_core
def test_compiled_q4_runs_in_a_worker_thread_with_a_small_stack():
    """Hints run in worker threads, whose stacks may be small: the search keeps each
    decision's look-ahead sized to its matrix, so eight rounds deep fit in 256 KiB."""
    game = DevilsThrone(2)
    state = late_position(game, 0, 8)
    main = analyse(game, state, 0, ("q4",), engine="compiled").answers["q4"]
    answers = []
    previous = threading.stack_size(256 * 1024)
    try:
        worker = threading.Thread(target=lambda: answers.append(
            analyse(game, state, 0, ("q4",), engine="compiled").answers["q4"]))
        worker.start()
        worker.join()
    finally:
        threading.stack_size(previous)
    assert main.stats.states > 5_000
    assert (answers[0].margin, answers[0].stats.states) == (main.margin, main.stats.states)


@needs_core
def test_compiled_q4_under_a_state_budget_gives_an_interval():
    game = DevilsThrone(2)
    state = late_position(game, 7, 5)
    answer = analyse(game, state, 0, ("q4",), budget=Budget(max_states=10), engine="compiled").answers["q4"]
    exact = analyse(game, state, 0, ("q4",), engine="compiled").answers["q4"]
    assert answer.margin is None and "state budget" in answer.exhausted
    assert answer.margin_bounds[0] <= exact.margin <= answer.margin_bounds[1]


@needs_core
@pytest.mark.parametrize("seed", range(12))
def test_compiled_paranoid_search_is_the_python_search_node_for_node(seed):
    game = DevilsThrone(2)
    state = late_position(game, seed, 2 + seed % 5)
    seat = seed % 2
    python = analyse(game, state, seat, ("q1", "q2", "q3"), engine="python").answers
    compiled = analyse(game, state, seat, ("q1", "q2", "q3"), engine="compiled").answers
    for question, answer in python.items():
        other = compiled[question]
        assert (other.cards, other.margin, other.best_action) == (answer.cards, answer.margin, answer.best_action)
        assert (other.stats.states, other.stats.table_hits) == (answer.stats.states, answer.stats.table_hits)


@needs_core
def test_compiled_paranoid_under_a_state_budget_gives_an_interval():
    game = DevilsThrone(2)
    state = late_position(game, 9, 5)
    cut = analyse(game, state, 0, ("q2",), budget=Budget(max_states=10), engine="compiled").answers["q2"]
    exact = analyse(game, state, 0, ("q2",), engine="compiled").answers["q2"]
    assert cut.margin is None and cut.cards is None
    assert cut.margin_bounds[0] <= exact.margin <= cut.margin_bounds[1]
    assert cut.cards_bounds[0] <= exact.cards <= cut.cards_bounds[1]


@needs_core
@pytest.mark.parametrize("question", ["q1", "q2", "q3"])
def test_the_compiled_core_reads_each_structure_by_field_name(question):
    """Any object with the fields answers as the NamedTuples do (nothing is read by
    position), and the value is the brute-force one; a missing field is refused by name."""
    from games.devils_throne import compiled

    game, states = tiny_positions()
    for state in states:
        tables = compiled.tables(game.rules, state, 0, int(question[1]))
        position, limits = compiled.position(state), compiled.limits(None, None, -100.0, 100.0)
        named = compiled._core.paranoid_value(compiled._core.new_solver(tables), position, limits)
        by_name = compiled._core.paranoid_value(
            compiled._core.new_solver(SimpleNamespace(**dict(reversed(tables._asdict().items())))),
            SimpleNamespace(**position._asdict()), SimpleNamespace(**limits._asdict()))
        assert by_name == named
        assert named[0] == brute_paranoid(game, state, 0, question, "margin")
    without = SimpleNamespace(**{name: value for name, value in tables._asdict().items() if name != "few_replies"})
    with pytest.raises(TypeError, match="few_replies"):
        compiled._core.new_solver(without)


def test_without_the_compiled_core_auto_says_so_once_and_answers_in_python(monkeypatch, capsys):
    from games.base import CompiledMissing
    from games.devils_throne import compiled
    from solver import search

    monkeypatch.setattr(compiled, "_core", None)
    monkeypatch.setattr(search, "_NOTICES", set())
    game = DevilsThrone(2)
    state = late_position(game, 3, 3)
    python = analyse(game, state, 0, ("q2", "q4"), engine="python").answers
    auto = analyse(game, state, 0, ("q2", "q4"), engine="auto").answers
    analyse(game, state, 1, ("q4",), engine="auto")
    assert (auto["q2"].margin, auto["q4"].margin) == (python["q2"].margin, python["q4"].margin)
    notes = capsys.readouterr().err.strip().splitlines()
    assert notes == ["usurper: note: the compiled Devil's Throne engine is not built; install a C compiler and the "
                     "Python headers, then reinstall usurper; using the Python engine (slower)"]
    with pytest.raises(CompiledMissing):
        analyse(game, state, 0, ("q4",), engine="compiled")


@needs_core
def test_engine_compiled_answers_three_players_as_python_does():
    game = DevilsThrone(3)
    state = late_position(game, 2, 2)
    python = analyse(game, state, 0, ("q2",), engine="python").answers["q2"]
    compiled = analyse(game, state, 0, ("q2",), engine="compiled").answers["q2"]
    assert (compiled.cards, compiled.margin) == (python.cards, python.margin)
    assert compiled.stats.states == python.stats.states


@pytest.mark.slow
@needs_core
def test_seed_0_whole_deal_answers():
    game = DevilsThrone(2)
    answers = analyse(game, game.initial_state(game.deal_from_seed(0)), 0, engine="compiled").answers
    assert (answers["q1"].cards, answers["q1"].margin) == (26, 26)
    assert (answers["q2"].cards, answers["q2"].margin) == (5, -12)
    assert (answers["q3"].cards, answers["q3"].margin) == (17, 12)
    assert answers["q4"].margin == pytest.approx(-0.28566, abs=1e-5)
    assert answers["q4"].stats.states == 569226
