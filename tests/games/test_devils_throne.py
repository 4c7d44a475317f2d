"""Devil's Throne rules engine: each test checks one rule of docs/rules/devils-throne.md."""

from __future__ import annotations

import random

import pytest

from games.base import LOST, WON, DealError, MoveError, Termination, VariantError
from games.devils_throne import PASS, Deal, DevilsThrone, State
from games.devils_throne.cards import rank_name
from games.devils_throne.rules import EFFECT, ENVOY, OVER, SELECT

A, Q, K = 1, 12, 13
HIGHS, LOWS = (0,) * 10, (1,) * 10


def position(game: DevilsThrone, hands, reserves, coins=HIGHS, tricks=None, round_=1) -> State:
    """A round start built by hand: hands as rank lists, reserves top first."""
    tricks = tricks or (0,) * game.players
    return State(round_, SELECT, tuple(tuple(sorted(h)) for h in hands), tuple(tuple(r) for r in reserves),
                 tuple(tricks), (), (), 0, 0, 0, tuple(coins))


def total_cards(state: State) -> int:
    return (sum(map(len, state.hands)) + sum(map(len, state.reserves)) + sum(state.tricks) + state.pool
            + state.discarded)


# ----- set-up, deal, variants --------------------------------------------------------------

def test_seeded_deal_draws_coins_first_so_every_player_count_sees_the_same_coins():
    deals = [DevilsThrone(n).deal_from_seed(42) for n in (2, 3, 4)]
    assert deals[0].coins == deals[1].coins == deals[2].coins
    assert deals[0].reserves == deals[2].reserves[:2]
    rng = random.Random(42)
    assert deals[0].coins == tuple(rng.getrandbits(1) for _ in range(10))
    commons = list(range(4, 14))
    rng.shuffle(commons)
    assert deals[0].reserves[0] == tuple(commons[:3])  # item 0 is the top [R2]


def test_initial_hands_hold_ten_cards_the_specials_and_the_commons_left():
    game = DevilsThrone(2)
    state = game.initial_state(game.deal_from_seed(7))
    for hand, reserve in zip(state.hands, state.reserves):
        assert len(hand) == 10 and len(reserve) == 3
        assert sorted(hand + reserve) == list(range(1, 14))


def test_deal_text_reads_back():
    for players in (2, 3, 4):
        game = DevilsThrone(players)
        for seed in range(5):
            deal = game.deal_from_seed(seed)
            assert game.parse_deal(game.format_deal(deal)) == deal
    game = DevilsThrone(2)
    expected = Deal((0, 1) + (0,) * 7 + (1,), ((7, 13, 10), (12, 9, 11)))
    assert game.parse_deal("coins hlhhhhhhhl; ♦ 7,k,T; h q 9 j") == expected


@pytest.mark.parametrize("text", [
    "coins HLHHHHHHHL; D 7 K 4",                  # a seat missing
    "coins HLHHHHHH; D 7 K 4; H Q 9 J",           # too few coins
    "coins HLHHHHHHHL; H 7 K 4; D Q 9 J",         # suits in the wrong seats
    "coins HLHHHHHHHL; D 7 K 3; H Q 9 J",         # a special in a reserve
    "coins HLHHHHHHHL; D 7 7 4; H Q 9 J",         # a card twice
])
def test_bad_deal_texts_raise_deal_error(text):
    with pytest.raises(DealError):
        DevilsThrone(2).parse_deal(text)


def test_variants_name_players_and_suits():
    game = DevilsThrone.from_variants(["players=3"])
    assert game.suits == ("D", "H", "S")  # [R1]
    assert DevilsThrone.from_variants(["suits=C", "S"]).suits == ("C", "S")
    assert DevilsThrone.from_variants(["suits=CS", "players=2"]).suits == ("C", "S")
    assert DevilsThrone.from_variants([]).suits == ("D", "H")


@pytest.mark.parametrize("words", [["players=5"], ["suits=D,D"], ["suits=D,X"], ["players=3", "suits=D,H"],
                                   ["colour=red"]])
def test_bad_variants_raise_one_line_variant_errors(words):
    with pytest.raises(VariantError) as error:
        DevilsThrone.from_variants(words)
    assert "\n" not in str(error.value)


# ----- values ------------------------------------------------------------------------------

def test_a_deuce_main_card_makes_face_cards_worth_ten_for_the_round():
    game = DevilsThrone(3, "DHS")
    state = position(game, [[K, 5], [2, 5], [Q, 5]], [[4], [4], [4]])
    after = game.apply_joint(state, (K, 2, Q))
    # K and Q both count 10: a tie, broken by the reserve draws (4 vs 4: void) [R10]
    assert after.tricks == (0, 0, 0) and after.discarded == 3 + 2


def test_face_cards_keep_their_rank_without_a_deuce():
    game = DevilsThrone(2)
    after = game.apply_joint(position(game, [[K, 5], [Q, 5]], [[], []]), (K, Q))
    assert after.tricks == (2, 0)


def test_a_main_card_ace_is_worth_one_in_both_modes():
    game = DevilsThrone(2)
    low = game.apply_joint(position(game, [[A, 5], [4, 5]], [[], []], LOWS), (A, 4))
    high = game.apply_joint(position(game, [[A, 5], [4, 5]], [[], []], HIGHS), (A, 4))
    assert low.tricks == (2, 0) and high.tricks == (0, 2)  # [R5, R8]


# ----- the three-effects ---------------------------------------------------------------------

def test_martyr_gives_its_owners_reserve_top_to_the_chosen_players_hand():
    game = DevilsThrone(3, "CDH")
    state = position(game, [[3, 9], [5, 6], [5, 7]], [[8, 4], [10], [11]])
    mid = game.apply_joint(state, (3, 5, 5))
    assert mid.phase == EFFECT and game.acting_players(mid) == (0,)
    assert game.legal_actions(mid, 0) == [1, 2]  # another player only [R12]
    after = game.apply_joint(mid, (2,))
    assert after.reserves[0] == (4,) and 8 in after.hands[2]


def test_martyr_with_an_empty_reserve_does_nothing_and_its_three_still_counts_three():
    game = DevilsThrone(2, "CD")
    state = position(game, [[3, 9], [2, 6]], [[], [10]])
    after = game.apply_joint(state, (3, 2))
    assert after.phase == SELECT and after.hands == ((9,), (6,)) and after.tricks == (2, 0)


def test_gravedigger_may_take_its_owners_own_reserve_top_into_its_hand():
    game = DevilsThrone(2, "SD")
    mid = game.apply_joint(position(game, [[3, 9], [5, 6]], [[8], [10]]), (3, 5))
    assert mid.phase == EFFECT and game.legal_actions(mid, 0) == [0, 1]  # [R13]
    after = game.apply_joint(mid, (0,))
    assert after.hands[0] == (8, 9) and after.reserves == ((), (10,))


def test_robbers_card_stays_on_its_trick_pile_even_in_a_void_round():
    game = DevilsThrone(2, "DH")
    state = position(game, [[3, 9], [3, 6]], [[8], []])  # 3 vs 3: tie
    # Robber (D) has one target, seat 1's own reserve; the Lover (H) then has none.
    after = game.apply_joint(state, (3, 3))
    assert after.tricks == (1, 0)  # the tie is void: no reserves left to draw [R13, R17]
    assert after.discarded == 2


def test_lover_adds_the_targets_reserve_top_to_its_total_and_the_card_joins_the_trick():
    game = DevilsThrone(2, "DH")
    # LOW round: 6 vs 3 plus the Lover's 5 from seat 1's reserve, so seat 1's total is 11 [R14]
    after = game.apply_joint(position(game, [[6, 9], [3, 7]], [[5], []], LOWS), (6, 3))
    assert after.tricks == (0, 3) and after.reserves == ((), ())


def test_three_effects_resolve_in_the_order_clubs_spades_diamonds_hearts():
    game = DevilsThrone(4, "HDSC")  # seat 1 Lover, 2 Robber, 3 Gravedigger, 4 Martyr
    state = position(game, [[3, 9]] * 4, [[5, 6], [7, 8], [9, 10], [11, 12]])
    owners = []
    state = game.apply_joint(state, (3, 3, 3, 3))
    while state.phase == EFFECT:
        (owner,) = game.acting_players(state)
        owners.append(owner)
        state = game.apply_joint(state, (game.legal_actions(state, owner)[-1],))
    assert owners == [3, 2, 1, 0]  # [R11]


def test_each_three_sees_the_earlier_effects():
    game = DevilsThrone(2, "SD")
    mid = game.apply_joint(position(game, [[3, 9], [3, 6]], [[8], [4]]), (3, 3))
    # the Gravedigger (seat 1) empties seat 2's reserve, so the Robber (seat 2) must rob seat 1
    after = game.apply_joint(mid, (1,))
    assert after.hands[0] == (4, 9) and after.tricks == (0, 1) and after.reserves == ((), ())


# ----- Envoys ------------------------------------------------------------------------------

def test_envoy_targets_a_player_one_short_of_best_in_high_and_adds_one():
    game = DevilsThrone(3, "DHS")
    state = game.apply_joint(position(game, [[A, 6], [8, 9], [7, 9]], [[], [], []]), (6, 8, 7))
    assert state.phase == ENVOY and game.acting_players(state) == (0,)
    assert game.legal_actions(state, 0) == [PASS, 2]  # never itself, never the leader [R7]
    after = game.apply_joint(state, (2,))
    # 6, 8, 8: a tie with empty reserves is void
    assert after.tricks == (0, 0, 0) and after.discarded == 4


def test_envoy_subtracts_one_in_low():
    game = DevilsThrone(2)
    state = game.apply_joint(position(game, [[5, 9], [A, 4]], [[], [6]], LOWS), (5, 4))
    assert game.legal_actions(state, 1) == [PASS, 0] and game.legal_actions(state, 0) == []
    # 5 - 1 = 4 ties seat 2, whose reserve wins the tie-break: the ace forced it [R5, R25]
    after = game.apply_joint(state, (0,))
    assert after.tricks == (0, 4)


def test_envoy_may_target_a_player_tied_at_best():
    game = DevilsThrone(2)
    state = game.apply_joint(position(game, [[7, 9], [A, 7]], [[], [6]]), (7, 7))
    assert game.legal_actions(state, 1) == [PASS, 0]


def test_no_envoy_node_without_a_legal_target():
    game = DevilsThrone(3, "DHS")
    # 6, 6, 8: nobody is one short of 8 and nobody ties it
    assert game.apply_joint(position(game, [[A, 6], [A, 6], [8, 9]], [[], [], []]), (6, 6, 8)).phase == SELECT
    # LOW 5, 5, 7: the aces' owners tie at best, and an ace cannot help its own owner
    state = game.apply_joint(position(game, [[A, 5], [9, 5], [A, 7]], [[], [], []], LOWS), (5, 5, 7))
    assert game.acting_players(state) == (0, 2) and game.legal_actions(state, 2) == [PASS, 0, 1]
    assert game.legal_actions(state, 0) == [PASS, 1]


def test_the_greedy_bot_plays_no_ace_onto_a_seat_it_plays_against():
    """An ace helps the seat it lands on: LOW 5, 5, 7 (the Envoy node above), seat 3 may
    play its ace onto seat 1 or 2.  Playing against everyone it passes; aimed at seat 1
    alone, it helps seat 2 instead."""
    game = DevilsThrone(3, "DHS")
    state = game.apply_joint(position(game, [[A, 5], [9, 5], [A, 7]], [[], [], []], LOWS), (5, 5, 7))
    assert game.greedy_action(state, 2) == PASS
    assert game.greedy_action_against(state, 2, [0]) == 1
    assert game.greedy_action_against(state, 2, [1]) == 0


def test_two_aces_on_one_target_both_count():
    game = DevilsThrone(3, "DHS")
    # HIGH: 8, 8, 7.  Seat 3 (7) is one short; seats 1 and 2 each hold an ace.
    state = game.apply_joint(position(game, [[A, 8], [A, 8], [7, 9]], [[], [], []]), (8, 8, 7))
    assert state.phase == ENVOY and game.acting_players(state) == (0, 1)
    assert game.legal_actions(state, 0) == [PASS, 1, 2]
    after = game.apply_joint(state, (2, 2))
    assert after.tricks == (0, 0, 5)  # 7 + 2 = 9 wins alone; both aces join the trick [R7, R9]


def test_envoy_window_runs_another_subround_after_an_ace():
    game = DevilsThrone(3, "DHS")
    # HIGH 6, 8, 7: seat 1 lifts seat 3 to a tie at 8; then seat 3 may lift seat 2 to 9
    state = game.apply_joint(position(game, [[A, 6], [8, 9], [A, 7]], [[], [], []]), (6, 8, 7))
    assert game.acting_players(state) == (0,)
    state = game.apply_joint(state, (2,))
    assert state.phase == ENVOY and game.acting_players(state) == (2,)
    assert game.legal_actions(state, 2) == [PASS, 1]
    after = game.apply_joint(state, (1,))  # 9 against 8: seat 2 wins five cards
    assert after.tricks == (0, 5, 0)


def test_a_window_closes_when_no_ace_is_played():
    game = DevilsThrone(2)
    state = game.apply_joint(position(game, [[7, 9], [A, 7]], [[], [6]]), (7, 7))
    after = game.apply_joint(state, (PASS,))
    assert after.phase == SELECT and A in after.hands[1]


# ----- winner, tie-break, void, end ---------------------------------------------------------

def test_tie_break_compares_only_the_new_draws_and_they_join_the_trick():
    game = DevilsThrone(2)
    after = game.apply_joint(position(game, [[7, 9], [7, 9]], [[5, 4], [K, 4]]), (7, 7))
    assert after.tricks == (0, 4)  # [R16]


def test_tie_break_in_low_is_won_by_the_lowest_draw():
    game = DevilsThrone(2)
    after = game.apply_joint(position(game, [[7, 9], [7, 9]], [[5, 4], [K, 4]], LOWS), (7, 7))
    assert after.tricks == (4, 0)  # [R4]


def test_tie_break_draws_again_while_the_draws_tie():
    game = DevilsThrone(2)
    after = game.apply_joint(position(game, [[7, 9], [7, 9]], [[5, 4], [5, 6]]), (7, 7))
    assert after.tricks == (0, 6) and after.reserves == ((), ())


def test_tie_break_of_a_player_with_cards_against_an_empty_reserve():
    game = DevilsThrone(2)
    after = game.apply_joint(position(game, [[7, 9], [7, 9]], [[], [4]]), (7, 7))
    assert after.tricks == (0, 3)  # the lone drawer still draws, and wins [R16]


def test_tie_break_only_involves_the_players_tied_at_best():
    game = DevilsThrone(3, "DHS")
    after = game.apply_joint(position(game, [[7, 9], [7, 9], [4, 9]], [[5], [6], [K]]), (7, 7, 4))
    assert after.tricks == (0, 5, 0) and after.reserves[2] == (K,)


def test_a_void_round_discards_the_pool():
    game = DevilsThrone(2)
    after = game.apply_joint(position(game, [[7, 9], [7, 9]], [[5], [5]]), (7, 7))
    assert after.tricks == (0, 0) and after.discarded == 4  # [R17]


def test_game_ends_when_a_hand_is_empty_at_the_end_of_a_round():
    game = DevilsThrone(2)
    after = game.apply_joint(position(game, [[7], [5, 9]], [[], []]), (7, 5))
    assert after.phase == OVER and game.acting_players(after) == ()
    assert game.outcome(after, 0).result == WON and game.outcome(after, 1).result == LOST
    assert game.outcome(after).reason == Termination.HAND_EMPTIED


def test_a_hand_emptied_and_refilled_in_the_round_does_not_end_the_game():
    game = DevilsThrone(2, "SD")
    mid = game.apply_joint(position(game, [[3], [5, 6]], [[8], [10]]), (3, 5))
    after = game.apply_joint(mid, (1,))  # the Gravedigger refills seat 1's hand [R18]
    assert after.phase == SELECT and after.hands[0] == (10,) and after.round == 2


def test_co_winners_both_win():
    game = DevilsThrone(2)
    after = game.apply_joint(position(game, [[7], [5]], [[], []], tricks=(4, 6)), (7, 5))
    assert after.tricks == (6, 6)
    assert game.outcome(after, 0).result == WON and game.outcome(after, 1).result == WON  # [R19]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_joint_playouts_conserve_cards_and_end_within_ten_rounds(players):
    game = DevilsThrone(players)
    rng = random.Random(players)
    for seed in range(60):
        state = game.initial_state(game.deal_from_seed(seed))
        while not game.is_over(state):
            seats = game.acting_players(state)
            assert seats
            state = game.apply_joint(state, tuple(rng.choice(game.legal_actions(state, s)) for s in seats))
            assert total_cards(state) == 13 * players
            for hand in state.hands:
                assert hand.count(A) <= 1 and hand.count(2) <= 1 and hand.count(3) <= 1
        assert state.round <= 10  # [R24]


# ----- cards that can still be won --------------------------------------------------------

def test_what_longer_hands_hold_beyond_the_shortest_can_never_be_won():
    game = DevilsThrone(3)  # ♦ ♥ ♠: the Gravedigger (3♠) is seat 3's
    reserves = [[8], [9], [10]]
    uneven = position(game, [[5, 6, 7], [5, 6], [5, 6, 7]], reserves)
    assert game.rules.cards_stuck(uneven) == 2  # seats 1 and 3 keep a card each [R18]
    assert game.cards_reachable(uneven) == game.cards_in_play(uneven) - 2 == 9
    # seat 1's ace may leave as an Envoy: only seat 3's extra card must stay
    assert game.rules.cards_stuck(position(game, [[A, 6, 7], [5, 6], [5, 6, 7]], reserves)) == 1
    # the Gravedigger may lengthen seat 2's hand to three [R13]
    assert game.rules.cards_stuck(position(game, [[5, 6, 7], [5, 6], [3, 6, 7]], reserves)) == 0
    assert game.rules.cards_stuck(position(game, [[5, 6], [5, 6], [5, 7]], reserves)) == 0


def test_other_reserves_beyond_what_a_seats_own_reserve_can_draw_are_out_of_its_reach():
    game = DevilsThrone(3)
    hands = [[5, 6], [5, 6], [5, 6]]
    # seat 1 has no reserve left: it can win no tie-break, and no three is in a hand [R16]
    assert game.rules.cards_out_of_reach(position(game, hands, [[], [8, 9, 10], [8, 9]]), 0) == 5
    # each card of its own reserve lets it draw against both others once
    assert game.rules.cards_out_of_reach(position(game, hands, [[4], [8, 9, 10], [8, 9]]), 0) == 3
    # a three still in a hand may pull one more reserve card its way
    assert game.rules.cards_out_of_reach(position(game, [[5, 6], [3, 6], [5, 6]], [[4], [8, 9, 10], [8, 9]]), 0) == 2
    full = position(game, hands, [[4, 7, 11], [8, 9, 10], [8, 9, 12]])
    assert game.rules.cards_out_of_reach(full, 0) == 0
    assert game.cards_reachable_by(position(game, hands, [[], [8, 9, 10], [8, 9]]), 0) == 11 - 5


@pytest.mark.parametrize("players", [2, 3, 4])
def test_no_playout_wins_more_cards_than_can_still_be_won(players):
    """Random play that favours Envoys (so hands go uneven): from every round start, the cards
    all seats win later are at most `cards_reachable`, those each seat wins at most its
    `cards_reachable_by`, and the cards left in hands at the end at least `cards_stuck`."""
    game = DevilsThrone(players)
    rng = random.Random(100 + players)
    uneven = out_of_reach = 0
    for seed in range(80):
        state = game.initial_state(game.deal_from_seed(seed))
        starts = []
        while not game.is_over(state):
            if state.phase == SELECT:
                starts.append((state.tricks, game.cards_reachable(state), game.rules.cards_stuck(state),
                               [game.cards_reachable_by(state, seat) for seat in range(players)]))
            seats = game.acting_players(state)
            joint = []
            for seat in seats:
                actions = game.legal_actions(state, seat)
                aces = [action for action in actions if action != PASS]
                joint.append(rng.choice(aces if state.phase == ENVOY and aces and rng.random() < 0.8 else actions))
            state = game.apply_joint(state, tuple(joint))
        left_in_hands = sum(map(len, state.hands))
        for won_before, reachable, stuck, each in starts:
            assert sum(state.tricks) - sum(won_before) <= reachable
            assert left_in_hands >= stuck
            for seat in range(players):
                assert state.tricks[seat] - won_before[seat] <= each[seat]
            uneven += stuck > 0
            out_of_reach += min(each) < reachable
    assert uneven and out_of_reach  # both bounds were tested where they bite


# ----- texts and keys ---------------------------------------------------------------------

def test_moves_parse_and_format():
    game = DevilsThrone(2)
    state = game.initial_state(game.deal_from_seed(42))
    move = game.parse_move(state, "a, 10")
    assert move == (A, 10) and game.format_move(state, move) == "A,10"
    with pytest.raises(MoveError):
        game.parse_move(state, "A")
    with pytest.raises(MoveError):
        game.parse_move(state, f"{rank_name(state.reserves[0][0])},A")  # a reserve card is not in hand
    line = game.parse_line(state, "A,A; 2,2")
    assert game.format_line(state, line) == "A,A; 2,2"


def test_envoy_moves_are_targets_or_pass():
    game = DevilsThrone(2)
    state = game.apply_joint(position(game, [[7, 9], [A, 7]], [[], [6]]), (7, 7))
    assert game.parse_move(state, "@1") == (0,) and game.parse_move(state, "pass") == (PASS,)
    with pytest.raises(MoveError):
        game.parse_move(state, "@2")


def test_key_leaves_out_tricks_and_coins_but_keeps_the_round():
    game = DevilsThrone(2)
    one = position(game, [[7, 9], [5, 6]], [[4], []], tricks=(3, 1))
    two = position(game, [[9, 7], [6, 5]], [[8], []], coins=LOWS, tricks=(0, 9))
    assert game.key(one) == game.key(two) and game.round_start(one)
    assert game.key(one) != game.key(one._replace(round=2))


def test_describe_is_one_line():
    game = DevilsThrone(3)
    text = game.describe(game.initial_state(game.deal_from_seed(1)))
    assert "\n" not in text and text.startswith("round 1")
