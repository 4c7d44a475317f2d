"""Round starts of equal value sharing a table key with three and four seats (spec §10 item
21): the relabelled key against the plain key and the brute force over every joint action,
the Python rules' classes against the compiled engine's, and hand-built positions that must
share a key or must not (an Envoy's reach, a deuce to come, the Lover)."""

from __future__ import annotations

import random

import pytest
from devils_throne_helpers import needs_core
from test_simultaneous import brute_paranoid, merged_positions, substituted

from games.devils_throne import DevilsThrone, State
from games.devils_throne.game import late_round_start
from games.devils_throne.rules import SELECT
from solver.simultaneous import analyse

HIGHS = (0,) * 10
QUESTIONS = ("q1", "q2", "q3")


def values(game: DevilsThrone, state: State, seat: int, engine: str = "python") -> dict[str, tuple[int, int]]:
    """Q1-Q3 (cards, margin) of `state` for `seat`."""
    answers = analyse(game, state, seat, QUESTIONS, engine=engine).answers
    return {question: (answer.cards, answer.margin) for question, answer in answers.items()}


def plain_values(state: State, seat: int) -> dict[str, tuple[int, int]]:
    """Q1-Q3 by the Python search keyed on the plain key: no two round starts merged."""
    plain = DevilsThrone(len(state.hands))
    plain.value_key = plain.key
    return values(plain, state, seat)


def brute_values(game: DevilsThrone, state: State, seat: int) -> dict[str, tuple[int, int]]:
    return {question: tuple(brute_paranoid(game, state, seat, question, payoff) for payoff in ("cards", "margin"))
            for question in QUESTIONS}


def relabelled(game: DevilsThrone, state: State) -> bool:
    """Whether the relabelling applies to `state` and changes some hand."""
    relabelling = game.rules.relabelling(state)
    return relabelling is not None and relabelling[0] != state.hands


def some_merged(game: DevilsThrone, state: State, most: int) -> list[State]:
    """Up to `most` of `merged_positions` (one or two commons replaced, sharing `state`'s
    value key and not its key), spread over all found."""
    found = merged_positions(game, state)
    return found[::max(1, len(found) // most)][:most]


def hand_built(hands: tuple[tuple[int, ...], ...], reserves: tuple[tuple[int, ...], ...]) -> State:
    """A three-seat round start in a HIGH round, five cards won by each seat."""
    return State(9, SELECT, hands, reserves, (5,) * len(hands), (), (), 0, 0, 0, HIGHS)


# ----- the relabelled key against the plain key and the brute force --------------------------

LATE = ([(3, seed, cards) for seed in range(3) for cards in (3, 4)] + [(3, 0, 5), (4, 0, 3), (4, 1, 3), (4, 1, 4)]
        + [pytest.param(*case, marks=pytest.mark.slow) for case in ((3, 1, 5), (3, 2, 5), (4, 0, 4))])


@needs_core
@pytest.mark.parametrize(("players", "seed", "cards"), LATE)
def test_late_round_starts_relabelled_have_the_values_of_the_plain_key(players, seed, cards):
    """Endings of real deals (3-5 cards in the smallest hand) whose hands the relabelling
    changes: both engines keyed on the relabelled key give every question's value that the
    search keyed on the plain key gives."""
    game = DevilsThrone(players)
    state = late_round_start(game, seed, cards, accept=lambda start: relabelled(game, start))
    seat = seed % players
    plain = plain_values(state, seat)
    assert values(game, state, seat, "python") == plain
    assert values(game, state, seat, "compiled") == plain


@pytest.mark.parametrize(("players", "seed"), [(3, seed) for seed in range(4)] + [(4, seed) for seed in range(3)])
def test_round_starts_that_share_a_value_key_have_the_brute_force_values(players, seed):
    """Small endings (two cards in the smallest hand) and the round starts that share their
    value key with one or two commons replaced: each has the values of the brute force over
    every joint action, one and the same for all."""
    game = DevilsThrone(players)
    state = late_round_start(game, 100 + seed, 2, accept=lambda start: relabelled(game, start)
                             and max(map(len, start.hands)) <= 3)
    others = some_merged(game, state, 3)
    assert others, "no round start shares the value key"
    seat = seed % players
    exact = brute_values(game, state, seat)
    assert values(game, state, seat) == exact
    for other in others:
        assert brute_values(game, other, seat) == exact
        assert values(game, other, seat) == exact


@pytest.mark.parametrize(("players", "seed"), [(3, seed) for seed in range(4)] + [(4, seed) for seed in range(3)])
def test_round_starts_that_share_a_value_key_have_equal_values_searched_apart(players, seed):
    """Larger endings (three cards in the smallest hand): the round starts that share the
    value key each have, by the search keyed on the plain key, the same values."""
    game = DevilsThrone(players)
    state = late_round_start(game, 200 + seed, 3, accept=lambda start: relabelled(game, start)
                             and bool(merged_positions(game, start)))
    others = some_merged(game, state, 3)
    assert others, "no round start shares the value key"
    seat = seed % players
    exact = plain_values(state, seat)
    for other in others:
        assert plain_values(other, seat) == exact


# ----- the compiled engine's classes are the Python rules' ------------------------------------

def random_round_starts(game: DevilsThrone, seed: int, count: int) -> list[State]:
    """Round starts of one deal with hands drawn at random (a few commons each, a rank up to
    three times as the Martyr and the Gravedigger allow, and some of each seat's own A, 2 and
    3), each followed by a few with one common replaced, so that many share a class."""
    rng = random.Random(seed)
    start = late_round_start(game, seed, 3)
    states = []
    while len(states) < count:
        hands = []
        for _seat in start.hands:
            specials = [rank for rank, odds in ((1, 0.5), (2, 0.5), (3, 0.2)) if rng.random() < odds]
            commons = [rng.randrange(4, 14) for _ in range(rng.randrange(1, 4))]
            hands.append(tuple(sorted(specials + commons)))
        state = start._replace(hands=tuple(hands))
        states.append(state)
        for _ in range(8):
            seat = rng.randrange(len(hands))
            commons = [rank for rank in hands[seat] if rank > 3]
            other = substituted(state, seat, rng.choice(commons), rng.randrange(4, 14))
            if other is not None:
                states.append(other)
    return states


@needs_core
@pytest.mark.parametrize(("players", "seed"), [(2, 0), (2, 1), (3, 0), (3, 1), (3, 2), (4, 0), (4, 1), (4, 2)])
def test_the_compiled_key_and_the_python_value_key_make_the_same_classes(players, seed):
    from games.devils_throne.compiled import value_class_key

    game = DevilsThrone(players)
    states = random_round_starts(game, seed, 2000)
    python_of_c: dict = {}
    c_of_python: dict = {}
    for state in states:
        python, compiled = game.value_key(state), value_class_key(game.rules, state)
        assert python_of_c.setdefault(compiled, python) == python
        assert c_of_python.setdefault(python, compiled) == compiled
    plain = {game.key(state) for state in states}
    assert len(c_of_python) < len(plain)  # some round starts merged


# ----- hand-built: what must share a key and what must not -----------------------------------

def test_with_an_ace_held_a_gap_of_two_or_three_is_one_class_and_a_gap_of_one_is_not():
    """Seat 1's ace may lift seat 2's 7 to a tie with an 8 (and the tie-break gives it the
    trick), never with a 9 or a 10: 9 and 10 share a key, 8 does not."""
    game = DevilsThrone(3)
    reserves = ((), (12,), (6,))
    eight, nine, ten = (hand_built(((1, 5), (7,), (rank,)), reserves) for rank in (8, 9, 10))
    assert game.value_key(nine) == game.value_key(ten) != game.value_key(eight)
    assert brute_values(game, nine, 1) == brute_values(game, ten, 1)
    assert brute_values(game, eight, 1)["q1"][0] == 5 + 6 > brute_values(game, nine, 1)["q1"][0] == 5
    for state in (eight, nine, ten):
        assert values(game, state, 1) == brute_values(game, state, 1)


def test_without_an_ace_only_the_order_counts():
    game = DevilsThrone(3)
    reserves = ((), (12,), (6,))
    eight, nine = (hand_built(((4, 5), (7,), (rank,)), reserves) for rank in (8, 9))
    assert game.value_key(eight) == game.value_key(nine)
    assert brute_values(game, eight, 1) == brute_values(game, nine, 1)


@needs_core
def test_a_deuce_to_come_keeps_the_ranks_from_10_up_apart_from_those_below():
    """With seat 1's 2 in hand, seat 2's 10 ties seat 3's J in a deuce round [R10] (and wins
    the tie-break), a 9 does not: no common key, whereas a Q for the J changes nothing.
    Without the 2 the order alone counts and all three share one key."""
    game = DevilsThrone(3)
    reserves = ((), (12,), (6,))
    ten_jack, nine_jack, ten_queen = (hand_built(((2, 5), (low,), (high,)), reserves)
                                      for low, high in ((10, 11), (9, 11), (10, 12)))
    assert game.value_key(ten_jack) == game.value_key(ten_queen) != game.value_key(nine_jack)
    assert brute_values(game, ten_jack, 1) == brute_values(game, ten_queen, 1)
    assert brute_values(game, ten_jack, 1)["q1"][0] == 5 + 5 > brute_values(game, nine_jack, 1)["q1"][0] == 5
    from games.devils_throne.compiled import value_class_key

    keys = [value_class_key(game.rules, state) for state in (ten_jack, nine_jack, ten_queen)]
    assert keys[0] == keys[2] != keys[1]
    no_deuce = [state._replace(hands=((4, 5),) + state.hands[1:]) for state in (ten_jack, nine_jack, ten_queen)]
    assert len({game.value_key(state) for state in no_deuce}) == 1


def test_the_lover_in_hand_keeps_three_seats_hands_as_they_are():
    """Seat 2's Lover lifts seat 1's 4 by its reserve's 5 to 9: a tie with seat 3's 9 (void,
    no reserve left to draw), where a K wins the trick; the order alone cannot tell them
    apart, so no relabelling while the Lover is in hand."""
    game = DevilsThrone(3)
    reserves = ((5,), (), ())
    nine, king = (hand_built(((4,), (3,), (rank,)), reserves) for rank in (9, 13))
    for state in (nine, king):
        assert game.rules.relabelling(state) is None and game.value_key(state) == game.key(state)
    assert brute_values(game, nine, 2)["q1"][0] == 5 < brute_values(game, king, 2)["q1"][0] == 5 + 4
    played = hand_built(((4, 6), (2,), (9, 10)), ((5,), (), ()))
    assert game.rules.relabelling(played) is not None
