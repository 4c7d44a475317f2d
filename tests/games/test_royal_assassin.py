"""Royal Assassin: the spec's worked examples, rulings, variants, card conservation, and the
solver against a plain exhaustive minimax (docs/rules/royal-assassin.md)."""

from __future__ import annotations

import random

import pytest

from games import make_game
from games.base import LOST, DealError, MoveError, VariantError
from games.decks import STANDARD_DECK
from games.royal_assassin import RoyalAssassin
from games.royal_assassin.rules import (
    FINISHED_LOST,
    IS_RED,
    JOKER,
    NO_CARD,
    NO_LOCK,
    SUIT,
    royal,
    royal_attack,
    royal_card,
    royal_defence,
)
from solver.search import Budget, solve
from solver.verify import check_claim, replay, replay_text

CANONICAL = [card.name for card in STANDARD_DECK]
ID = {name: index for index, name in enumerate(CANONICAL)}
VARIANTS = {
    "base": [],
    "V1": ["two_jokers"],
    "V2": ["fixed_royals=4"],
    "V3": ["ace_first_play"],
    "V4": ["discard_on_equal_only"],
    "V5": ["royal_beneath"],
    "V6": ["joker_dies"],
    "V7": ["redeal"],
    "V1+V6": ["two_jokers", "joker_dies"],
    "all": ["two_jokers", "fixed_royals=3", "ace_first_play", "discard_on_equal_only", "royal_beneath",
            "joker_dies", "redeal"],
}


def deal_text(prefix: str, game: RoyalAssassin | None = None) -> str:
    """The listed cards, then the rest in canonical order (spec §11)."""
    first = prefix.replace("|", " ").split()
    rest = [name for name in CANONICAL if name not in first]
    if game is not None and game.two_jokers:
        rest += ["JK"] * (2 - first.count("JK"))
    return " ".join(first + rest)


def start(prefix: str, variants=()) -> tuple[RoyalAssassin, object]:
    game = RoyalAssassin.from_variants(list(variants))
    return game, game.initial_state(game.parse_deal(deal_text(prefix, game)))


def column(state, suit: str) -> list[str]:
    return [CANONICAL[royal_card(code)] for code in state.columns["CDHS".index(suit)]]


def pretender(state, suit: str) -> tuple[str, int, int]:
    code = state.columns["CDHS".index(suit)][-1]
    return CANONICAL[royal_card(code)], royal_attack(code), royal_defence(code)


def reserve(state) -> list[str]:
    return [CANONICAL[c] if c != JOKER else "JK" for c in state.reserve]


def play(game, state, *moves):
    for move in moves:
        assert move in game.legal_moves(state), (move, game.legal_moves(state), game.describe(state))
        state = game.apply(state, move)
    return state


def killed(game, state) -> int:
    return 12 - sum(map(len, state.columns)) - sum(1 for c in state.stock[state.pos:] if c < 52 and c % 13 >= 10)


# ----- worked example 1 ------------------------------------------------------------------

EXAMPLE_1 = "5C QH AS KC 9D 2S JH 3D | 6S 4H 5S 4S 8C"


def test_example_1_setup_stops_on_3d_and_skips_the_disarmed_2s():
    game, state = start(EXAMPLE_1)
    assert column(state, "H") == ["QH", "JH"]
    assert column(state, "C") == ["KC"]
    assert column(state, "D") == [] and column(state, "S") == []
    assert reserve(state) == ["5C", "AS", "9D", "2S", "3D"]
    assert state.available == 1 and state.turned == NO_CARD
    assert game.legal_moves(state) == ["T"]


def test_example_1_play_joker_sweep():
    game, state = start(EXAMPLE_1)
    state = play(game, state, "T")
    assert state.turned == ID["6S"]
    assert set(game.legal_moves(state)) == {"A(H)", "P"}
    state = play(game, state, "A(H)")
    assert pretender(state, "H") == ("JH", 6, 0)
    assert reserve(state)[-1] == "3D"
    assert set(game.legal_moves(state)) == {"J(H)", "T"}
    state = play(game, state, "J(H)", "T")
    assert set(game.legal_moves(state)) == {"A(C)", "P"}
    state = play(game, state, "P")  # JH pulls 4H: D = 4, strength 9, no discard (4 < 6)
    assert pretender(state, "H") == ("JH", 6, 4)
    assert reserve(state)[-1] == "3D"
    assert game.legal_moves(state) == ["T"]
    state = play(game, state, "T")
    assert set(game.legal_moves(state)) == {"A(H)", "P"}
    state = play(game, state, "A(H)")
    assert pretender(state, "H") == ("JH", 11, 4)  # 11 < 11 + 4: survives at strength 4
    state = play(game, state, "T", "A(H)")  # 15 >= 15: JH killed, the Joker takes QH too
    assert column(state, "H") == []
    assert killed(game, state) == 2
    assert state.available == 1 and state.jokers_on == 0
    assert sorted(CANONICAL[c] for c in state.discard) == sorted(["JH", "QH", "6S", "5S", "4S", "4H"])
    assert column(state, "C") == ["KC"] and game.outcome(state) is None
    state = play(game, state, "T")
    assert state.turned == ID["8C"]
    assert game.legal_moves(state) == ["P"]


def test_example_1_without_the_joker_only_jh_dies():
    game, state = start(EXAMPLE_1)
    state = play(game, state, "T", "A(H)", "T", "P", "T", "A(H)", "T", "A(H)")
    assert column(state, "H") == ["QH"]
    assert pretender(state, "H") == ("QH", 0, 0)
    assert killed(game, state) == 1


# ----- worked example 2 ------------------------------------------------------------------

EXAMPLE_2 = "KS 7H QD 4D JS AC 3C | 5D 2S 4S 6H 2C 8H"


def test_example_2_setup():
    game, state = start(EXAMPLE_2)
    assert column(state, "S") == ["KS", "JS"]
    assert column(state, "D") == ["QD"]
    assert reserve(state) == ["7H", "4D", "AC", "3C"]


def test_example_2_pulls_discard_lock_release_and_reserve_chain():
    game, state = start(EXAMPLE_2)
    state = play(game, state, "T")
    assert set(game.legal_moves(state)) == {"A(S)", "P"}
    state = play(game, state, "A(S)")
    assert pretender(state, "S") == ("JS", 5, 0)
    assert set(game.legal_moves(state)) == {"J(S)", "T"}
    state = play(game, state, "T")
    assert set(game.legal_moves(state)) == {"A(D)", "P", "J(S)"}
    state = play(game, state, "P")  # JS pulls 2S
    assert pretender(state, "S") == ("JS", 5, 2)
    state = play(game, state, "T")
    assert set(game.legal_moves(state)) == {"A(D)", "P", "J(S)"}
    state = play(game, state, "P")  # JS pulls 4S: D 6 >= A 5, everything on JS is discarded
    assert pretender(state, "S") == ("JS", 0, 0)
    assert sorted(CANONICAL[c] for c in state.discard) == ["2S", "4S", "5D"]
    assert state.locks["CDHS".index("S")] == NO_LOCK
    assert game.legal_moves(state) == ["T"]
    state = play(game, state, "T")
    assert set(game.legal_moves(state)) == {"A(S)", "P"}  # hearts may attack spades now
    state = play(game, state, "A(S)")
    assert pretender(state, "S") == ("JS", 6, 0)
    state = play(game, state, "T")
    assert set(game.legal_moves(state)) == {"A(D)", "P", "J(S)"}
    state = play(game, state, "A(D)")
    assert pretender(state, "D") == ("QD", 2, 0)
    assert reserve(state)[-1] == "3C"
    assert set(game.legal_moves(state)) == {"R(D)", "J(S)", "T"}
    state = play(game, state, "R(D)")
    assert pretender(state, "D") == ("QD", 5, 0)
    assert reserve(state)[-1] == "AC"
    assert set(game.legal_moves(state)) == {"R(D)", "J(S)", "T"}
    state = play(game, state, "R(D)")  # the Ace (11): A = 16 >= 12
    assert column(state, "D") == []
    assert killed(game, state) == 1
    assert reserve(state)[-1] == "4D"
    assert set(game.legal_moves(state)) == {"J(S)", "T"}


# ----- worked example 3: the ruler ---------------------------------------------------------

def finished_with(columns: dict[str, list[tuple[str, int, int]]]):
    game, state = start(EXAMPLE_1)
    packed = tuple(
        tuple(royal(ID[name], attack, defence) for name, attack, defence in columns.get(suit, ()))
        for suit in "CDHS"
    )
    piles = tuple(((),) * len(col) for col in packed)
    return game, state._replace(columns=packed, piles=piles, status=FINISHED_LOST)


@pytest.mark.parametrize("columns, ruler", [
    ({"H": [("QH", 0, 0)], "S": [("KS", 10, 0)], "D": [("JD", 0, 0)]}, "KS"),           # rank
    ({"D": [("QD", 0, 0)], "C": [("QC", 3, 0)]}, "QD"),                                  # strength
    ({"D": [("KD", 0, 0), ("QD", 5, 0)], "C": [("JC", 0, 0), ("QC", 5, 0)]}, "QD"),     # entourage value
    ({"D": [("QD", 0, 0)], "C": [("QC", 0, 0)]}, "Joker"),                               # tie
])
def test_example_3_ruler_after_a_loss(columns, ruler):
    game, state = finished_with(columns)
    outcome = game.outcome(state)
    assert outcome.result == LOST
    assert outcome.detail == f"ruler: {ruler}"
    assert outcome.score == 12 - sum(len(v) for v in columns.values())


def test_ruler_entourage_counts_royals_before_their_value():
    game, state = finished_with({"D": [("JD", 0, 0), ("KD", 0, 0), ("QD", 0, 0)], "C": [("KC", 0, 0), ("QC", 0, 0)]})
    assert game.outcome(state).detail == "ruler: QD"


# ----- setup rulings -------------------------------------------------------------------------

def test_setup_running_out_of_stock_starts_play_with_only_e():  # [R6]
    numbers = [n for n in CANONICAL if n[:-1] not in ("J", "Q", "K", "A")]
    royals = [f"{r}{s}" for s in "CDHS" for r in "JQK"]
    game = RoyalAssassin()
    state = game.initial_state(game.parse_deal(" ".join(numbers + royals + ["AC", "AD", "AH", "AS"])))
    assert sum(map(len, state.columns)) == 12
    assert state.pos == len(state.stock)
    assert game.legal_moves(state) == ["E"]
    outcome = game.outcome(game.apply(state, "E"))
    assert (outcome.result, outcome.score, outcome.detail) == (LOST, 0, "ruler: Joker")


def test_fixed_royals_stops_at_the_nth_royal_without_comparing():  # V2
    game, state = start("KS 7H QD 2D JS 3C", ["fixed_royals=2"])
    assert column(state, "S") == ["KS"] and column(state, "D") == ["QD"]
    assert reserve(state) == ["7H"]
    assert state.pos == 3


def test_a_joker_turned_in_setup_goes_to_the_reserve_and_keeps_the_comparison_armed():  # V1
    game, state = start("KS JK 7H QD JK 2D", ["two_jokers"])
    # KS armed, JK skipped, 7H > 1 disarms; QD arms, JK skipped, 2D <= 2 ends setup.
    assert reserve(state) == ["JK", "7H", "JK", "2D"]
    assert state.available == 0


# ----- decisions -----------------------------------------------------------------------------

def test_suit_lock_blocks_a_second_suit_on_a_column_and_a_second_column_for_a_suit():  # [R10]
    # Hearts = [QH], Diamonds = [KD]; attack QH with 3S, then 5C cannot attack Hearts.
    game, state = start("QH 9C KD 2C | 3S 5C 4S")
    state = play(game, state, "T", "A(H)", "T")
    assert set(game.legal_moves(state)) == {"A(D)", "P"}
    state = play(game, state, "P", "T")
    assert set(game.legal_moves(state)) == {"A(H)", "P"}  # 4S may not open Diamonds


def test_e_only_with_an_empty_stock_and_the_loss_scores_kills():
    game, state = start(EXAMPLE_1)
    assert "E" not in game.legal_moves(state)
    rng = random.Random(1)
    while game.outcome(state) is None:
        moves = game.legal_moves(state)
        if "E" in moves:
            assert state.pos == len(state.stock)
        state = game.apply(state, "E" if "E" in moves else rng.choice(moves))
    outcome = game.outcome(state)
    assert outcome.won or outcome.score == killed(game, state)


def test_parse_move_is_strict():
    game, state = start(EXAMPLE_1)
    with pytest.raises(MoveError, match="A\\(H\\) is not legal"):
        game.parse_move(state, "A(H)")
    with pytest.raises(MoveError, match="cannot read"):
        game.parse_move(state, "attack hearts")
    state = play(game, state, "T")
    assert game.parse_move(state, " a ( h ) ") == "A(H)"
    assert game.parse_move(state, "p") == "P"
    with pytest.raises(MoveError, match="only legal once the stock is empty"):
        game.parse_move(state, "E")
    with pytest.raises(MoveError):
        game.parse_move(state, "J(H)")
    with pytest.raises(MoveError, match="game is over"):
        game.parse_move(state._replace(status=FINISHED_LOST), "T")


def test_replay_text_reads_a_typed_line():
    game, state = start(EXAMPLE_1)
    result = replay_text(game, state, "T; A(H); J(H); T; P; T; A(H); T; A(H)")
    assert result.ok and killed(game, result.state) == 2
    result = replay_text(game, state, "T; A(C)")
    assert not result.ok and result.played == 1


# ----- deal text -----------------------------------------------------------------------------

def test_deal_text_accepts_ten_as_t_lowercase_and_commas():
    game = RoyalAssassin()
    text = deal_text("")
    variant = text.replace("10C", "tc").replace("KS", "ks").replace(" ", ", ", 5)
    assert game.parse_deal(variant) == game.parse_deal(text)
    assert game.format_deal(game.parse_deal(variant)) == text


@pytest.mark.parametrize("text, message", [
    (deal_text("").replace("5H", "5X"), "unknown card '5X'"),
    (deal_text("").replace("5H", "5C"), "duplicate card '5C'"),
    (" ".join(deal_text("").split()[:-1]), "1 card\\(s\\) missing: KS"),
    (deal_text("") + " 2C", "duplicate card '2C' .*53 cards"),
    (deal_text("") + " JK", "'JK' at position 53 is not in the deck"),
    ("", "empty"),
])
def test_deal_text_errors_name_the_problem(text, message):
    with pytest.raises(DealError, match=message):
        RoyalAssassin().parse_deal(text)


def test_two_jokers_deal_needs_both_jokers():
    game = RoyalAssassin(two_jokers=True)
    assert len(game.parse_deal(deal_text("", game))) == 54
    with pytest.raises(DealError, match="missing: JK"):
        game.parse_deal(deal_text(""))
    with pytest.raises(DealError, match="duplicate card 'JK'"):
        game.parse_deal(deal_text("", game) + " JK")


def test_seeded_deals_shuffle_the_canonical_deck():
    game = RoyalAssassin()
    deal = game.deal_from_seed(7)
    assert deal == game.deal_from_seed(7) != game.deal_from_seed(8)
    assert sorted(card.id for card in deal) == list(range(52))
    assert game.parse_deal(game.format_deal(deal)) == deal
    assert [c.name for c in RoyalAssassin(two_jokers=True).deal_from_seed(7)].count("JK") == 2


# ----- variants --------------------------------------------------------------------------------

def test_variant_words_and_registry():
    game = make_game("royal-assassin", ["two_jokers,fixed_royals=4", "redeal"])
    assert (game.two_jokers, game.fixed_royals, game.redeal) == (True, 4, True)
    assert game.variant == "two_jokers,fixed_royals=4,redeal"
    assert make_game("royal_assassin").variant == "standard"


@pytest.mark.parametrize("words, message", [
    (["fixed_royals=13"], "fixed_royals needs a whole number from 1 to 12"),
    (["fixed_royals=0"], "fixed_royals"),
    (["fixed_royals"], "fixed_royals"),
    (["jokers"], "unknown royal-assassin variant 'jokers'"),
    (["redeal=yes"], "unknown royal-assassin variant"),
])
def test_bad_variants_raise_one_line_errors(words, message):
    with pytest.raises(VariantError, match=message):
        RoyalAssassin.from_variants(words)


def test_ace_first_play_counts_eleven_only_on_landing():  # V3
    game, state = start("QH 9C JH 2C | AS 3S", ["ace_first_play"])
    state = play(game, state, "T", "A(H)")
    assert column(state, "H") == ["QH"]  # 11 >= 11 kills JH
    state = play(game, state, "T", "A(H)")  # 3S on QH: A = 3
    assert pretender(state, "H") == ("QH", 3, 0)
    game, state = start("QH 9C KH 2C | AS 3S", ["ace_first_play"])
    state = play(game, state, "T", "A(H)")  # KH: 11 < 13, then the Ace rests at 1
    assert pretender(state, "H") == ("KH", 1, 0)


def test_discard_on_equal_only_keeps_a_surplus_defence():  # V4
    # JS attacked by 5D; 4S and 2S pulled: D 6 > A 5 keeps the cards under V4.
    prefix = "KS 7H QD 4D JS AC 3C | 5D 2S 4S"
    game, state = start(prefix, ["discard_on_equal_only"])
    state = play(game, state, "T", "A(S)", "T", "P", "T", "P")
    assert pretender(state, "S") == ("JS", 5, 6)
    game, state = start(prefix)
    state = play(game, state, "T", "A(S)", "T", "P", "T", "P")
    assert pretender(state, "S") == ("JS", 0, 0)


def test_royal_beneath_can_arrive_already_dead():  # V5
    game, state = start("QH 9C JC 2C | 7S 5S JH", ["royal_beneath"])
    state = play(game, state, "T", "A(H)", "T", "A(H)")  # QH: A = 12 kills her
    game, state = start("KH 9C JC 2C | 7S 5S JH", ["royal_beneath"])
    state = play(game, state, "T", "A(H)", "T", "A(H)")
    assert pretender(state, "H") == ("KH", 12, 0)
    state = play(game, state, "T")  # JH arrives under the 12 attack points: dead at once
    assert column(state, "H") == ["KH"] and pretender(state, "H") == ("KH", 0, 0)
    assert killed(game, state) == 1


def test_joker_dies_with_its_column():  # V6
    game, state = start(EXAMPLE_1, ["joker_dies"])
    state = play(game, state, "T", "A(H)", "J(H)", "T", "P", "T", "A(H)", "T", "A(H)")
    assert column(state, "H") == [] and state.available == 0
    assert JOKER in state.discard


def test_two_jokers_turned_joker_and_reserve_joker_moves():  # V1
    game, state = start("QH 9C JH 2C | 6S JK 5S", ["two_jokers"])
    state = play(game, state, "T", "A(H)", "T")
    assert state.turned == JOKER
    assert set(game.legal_moves(state)) == {"JT(H)", "P"}
    state = play(game, state, "P")
    assert reserve(state)[-1] == "JK"
    assert set(game.legal_moves(state)) == {"JR(H)", "T"}
    state = play(game, state, "JR(H)", "T", "A(H)")  # 11 >= 11: JH dies, the Joker takes QH
    outcome = game.outcome(state)
    assert outcome is not None and outcome.won and outcome.score == 12


def test_redeal_turns_the_reserve_over_and_needs_a_play_before_the_next():  # V7
    numbers = [n for n in CANONICAL if n[:-1] not in ("J", "Q", "K", "A")]
    royals = [f"{r}{s}" for s in "CDHS" for r in "JQK"]
    game = RoyalAssassin(redeal=True)
    state = game.initial_state(game.parse_deal(" ".join(numbers + royals + ["AC", "AD", "AH", "AS"])))
    assert set(game.legal_moves(state)) == {"REDEAL", "E"}
    before = state.reserve
    state = play(game, state, "REDEAL")
    assert state.stock == before and state.pos == 0 and state.reserve == ()
    while state.pos < len(state.stock):
        state = play(game, state, "T", "P")
    assert state.reserve == before
    assert game.legal_moves(state) == ["E"]  # a pass with no play rebuilt the same position


# ----- card conservation over random playouts ----------------------------------------------------

def every_card(state) -> list[int]:
    cards = list(state.stock[state.pos:]) + list(state.reserve) + list(state.discard)
    if state.turned != NO_CARD:
        cards.append(state.turned)
    for codes, piles in zip(state.columns, state.piles):
        assert len(codes) == len(piles)
        for code, pile in zip(codes, piles):
            cards.append(royal_card(code))
            cards.extend(pile)
    cards += [JOKER] * (state.available + bin(state.jokers_on).count("1"))
    return sorted(cards)


def check_invariants(game: RoyalAssassin, state, full: list[int]) -> None:
    assert every_card(state) == full
    locks = [lock for lock in state.locks if lock != NO_LOCK]
    assert len(locks) == len(set(locks))  # a suit attacks at most one column
    for x, (codes, piles) in enumerate(zip(state.columns, state.piles)):
        attack_suits = set()
        for code, pile in zip(codes, piles):
            assert SUIT[royal_card(code)] == x
            attack = [c for c in pile if SUIT[c] != x]
            defence = [c for c in pile if SUIT[c] == x]
            assert all(IS_RED[SUIT[c]] != IS_RED[x] for c in attack)
            assert royal_attack(code) == sum(game.resting_value[c] for c in attack)
            assert royal_defence(code) == sum(game.resting_value[c] for c in defence)
            assert attack or not defence
            attack_suits |= {SUIT[c] for c in attack}
        assert len(attack_suits) <= 1
        assert state.locks[x] == (attack_suits.pop() if attack_suits else NO_LOCK)
        if game.royal_beneath:
            assert all(not pile for pile in piles[:-1])
        if state.jokers_on >> x & 1:
            assert len(codes) >= 2
    if state.reserve and state.reserve[-1] != JOKER and game.outcome(state) is None:
        top = state.reserve[-1]
        codes = state.columns[SUIT[top]]
        if codes:  # SETTLE has run: the reserve top is no card its Pretender can take [R13]
            assert not royal_attack(codes[-1]) or royal_defence(codes[-1]) > royal_attack(codes[-1])


@pytest.mark.parametrize("name", list(VARIANTS))
def test_cards_are_conserved_and_playouts_end(name):
    random_playouts(name, range(300))


@pytest.mark.slow
@pytest.mark.parametrize("name", list(VARIANTS))
def test_cards_are_conserved_over_thousands_of_playouts(name):
    random_playouts(name, range(300, 3300))


def random_playouts(name, seeds):
    """Every card (53, or 54 with two Jokers) in exactly one place at every step; every playout ends."""
    game = RoyalAssassin.from_variants(VARIANTS[name])
    full = sorted([card.id for card in game.cards] + ([] if game.two_jokers else [JOKER]))
    rng = random.Random(name)
    for seed in seeds:
        state = game.initial_state(game.deal_from_seed(seed))
        for _ in range(3000):
            check_invariants(game, state, full)
            moves = game.legal_moves(state)
            if not moves:
                break
            assert game.outcome(state) is None
            state = game.apply(state, rng.choice(moves))
        else:
            pytest.fail(f"seed {seed}: the playout did not end")
        outcome = game.outcome(state)
        assert outcome.score == (12 if outcome.won else killed(game, state))


# ----- the solver against a plain exhaustive minimax ---------------------------------------------

def minimax(game, state) -> int:
    """The best score by brute force: no table, no bound, no pruning."""
    outcome = game.outcome(state)
    if outcome is not None:
        return outcome.score
    return max(minimax(game, game.apply(state, move)) for move in game.legal_moves(state))


def near_the_end(game, seed: int, left: int):
    """Random play from a seeded deal until at most `left` stock cards remain (at D1), or None."""
    rng = random.Random(seed)
    state = game.initial_state(game.deal_from_seed(seed))
    while game.outcome(state) is None:
        if state.turned == NO_CARD and len(state.stock) - state.pos <= left:
            return state
        moves = game.legal_moves(state)
        state = game.apply(state, rng.choice([m for m in moves if m != "E"] or moves))
    return None


@pytest.mark.parametrize("name", [n for n in VARIANTS if "redeal" not in VARIANTS[n] and n != "all"])
def test_solver_matches_minimax_near_the_end_of_the_stock(name):
    game = RoyalAssassin.from_variants(VARIANTS[name])
    checked = 0
    for seed in range(40):
        state = near_the_end(game, seed, 3)
        if state is None:
            continue
        expected = minimax(game, state)
        for engine in ("plain", "pruned"):
            result = solve(game, state, "optimal", engine)
            assert result.score == expected, (seed, engine)
            check_claim(game, state, result.line, result.verdict == "WON", result.score)
        result = solve(game, state, "winnable", "pruned")
        assert (result.verdict == "WON") == (expected == 12)
        if result.verdict == "WON":
            assert replay(game, state, result.line).outcome.won
        assert game.score_upper_bound(state) >= expected
        checked += 1
    assert checked >= 20


@pytest.mark.parametrize("name", ["V7", "all"])
def test_solver_matches_minimax_with_redeal_on_small_positions(name):
    game = RoyalAssassin.from_variants(VARIANTS[name])
    checked = 0
    for seed in range(300):
        state = near_the_end(game, seed, 0)
        if state is None or len(state.reserve) > 4:
            continue
        expected = minimax(game, state)
        result = solve(game, state, "optimal", "pruned")
        assert result.score == expected, seed
        check_claim(game, state, result.line, result.verdict == "WON", result.score)
        checked += 1
    assert checked >= 5


def test_search_moves_keep_the_value():
    """The pruned move lists (no Joker placement while holding a card, E only when alone)."""
    game = RoyalAssassin()

    def pruned_minimax(state):
        outcome = game.outcome(state)
        if outcome is not None:
            return outcome.score
        return max(pruned_minimax(game.apply(state, move)) for move in game.search_moves(state))

    for seed in range(25):
        state = near_the_end(game, seed, 4)
        if state is not None:
            assert pruned_minimax(state) == minimax(game, state), seed


# ----- hand-built deals with known answers ----------------------------------------------------------

def test_deal_won_by_the_obvious_line():
    # JC, JD on the table (2H <= 2 ends setup); AH kills JC, AS kills JD.
    game, state = start("JC JD 2H | AH AS")
    result = solve(game, state, "optimal", "pruned")
    assert (result.verdict, result.score) == ("WON", 12)
    assert result.line == ["T", "A(C)", "T", "A(D)"]
    check_claim(game, state, result.line, True, 12)


def joker_deal() -> str:
    # Setup: every unused number card, then QH 9D JH 2C (2 <= 2 ends setup); the stock is
    # 6S 5S and then the ten other Royals.
    royals = ["KC", "QC", "JC", "KD", "QD", "JD", "KS", "QS", "JS", "KH"]
    used = {"QH", "9D", "JH", "2C", "6S", "5S", *royals}
    fillers = [n for n in CANONICAL if n not in used]
    return " ".join(fillers + ["QH", "9D", "JH", "2C", "6S", "5S"] + royals)


def test_deal_won_only_with_the_joker():
    game = RoyalAssassin()
    state = game.initial_state(game.parse_deal(joker_deal()))
    assert column(state, "H") == ["QH", "JH"] and len(state.stock) - state.pos == 12
    result = solve(game, state, "optimal", "pruned")
    assert (result.verdict, result.score) == ("WON", 12)
    assert any(move.startswith("J(") for move in result.line)
    check_claim(game, state, result.line, True, 12)

    class NoJoker(RoyalAssassin):
        def legal_moves(self, state):
            return [m for m in super().legal_moves(state) if not m.startswith("J")]

    assert minimax(NoJoker(), state) == 1  # only JH can die without the Joker
    assert minimax(game, state) == 12


def test_deal_lost_whatever_is_done():
    # Every other number card, then the Royals J, Q, K of each suit (12 on the table, Kings on
    # top), 2C ends setup; the stock is 3S 2S: they can hurt a red King but never kill it, and
    # the reserve top 2C neither continues a spade attack nor defends an unattacked KC.
    royals = [f"{r}{s}" for s in "CDHS" for r in "JQK"]
    fillers = [n for n in CANONICAL if n not in royals and n not in ("2C", "3S", "2S")]
    game = RoyalAssassin()
    state = game.initial_state(game.parse_deal(" ".join(fillers + royals + ["2C", "3S", "2S"])))
    assert sum(map(len, state.columns)) == 12 and len(state.stock) - state.pos == 2
    result = solve(game, state, "optimal", "pruned")
    assert (result.verdict, result.score) == ("LOST", 0)
    assert minimax(game, state) == 0
    end = check_claim(game, state, result.line, False, 0)
    assert end.outcome.detail.startswith("ruler: K") or end.outcome.detail == "ruler: Joker"


# ----- solver on whole seeded deals ----------------------------------------------------------------

def test_solver_lines_on_seeded_deals_replay():
    game = RoyalAssassin()
    for seed in (1, 2, 4, 5):
        state = game.initial_state(game.deal_from_seed(seed))
        result = solve(game, state, "optimal", "pruned", Budget(time_limit=5))
        if result.score is not None:
            check_claim(game, state, result.line, result.verdict == "WON", result.score)


def solved_positions_near_the_end(game, seeds):
    """(seed, position, optimum) along random playouts once at most 8 stock cards are left,
    where the plain search (no bound) finds the optimum within 4,000 states."""
    for seed in seeds:
        rng = random.Random(seed)
        state = game.initial_state(game.deal_from_seed(seed))
        while game.outcome(state) is None:
            moves = game.legal_moves(state)
            state = game.apply(state, rng.choice([m for m in moves if m != "E"] or moves))
            if len(state.stock) - state.pos > 8 or game.outcome(state) is not None:
                continue
            best = solve(game, state, "optimal", "plain", Budget(max_states=4000))
            if not best.exhausted:
                yield seed, state, best.score


@pytest.mark.parametrize("name", ["V6", "V1+V6"])
def test_one_sweep_per_joker_bound_is_sound_and_bites(name):
    """V6 (a Joker sweeps once): the bound that charges every column but the swept ones with
    all its Royals never falls below the true optimum, and it proves some positions lost
    that the cheapest-kill-per-column bound alone leaves open."""
    game = RoyalAssassin.from_variants(VARIANTS[name])
    checked = bites = 0
    for seed, state, optimum in solved_positions_near_the_end(game, range(60)):
        assert game.score_upper_bound(state) >= optimum, (seed, game.describe(state))
        assert game.can_still_win(state) or optimum < 12
        game.rules.joker_dies = False  # the same position judged as if Jokers came back
        unlimited = game.can_still_win(state)
        game.rules.joker_dies = True
        bites += unlimited and not game.can_still_win(state)
        checked += 1
    assert checked >= 100 and bites > 0, (checked, bites)


@pytest.mark.parametrize("name", ["base", "V6", "V1"])
def test_loss_bound_from_the_kills_still_affordable_is_sound_and_bites(name):
    """When no WIN is possible the score is bounded by the Royals killed so far plus what
    the attack supply can still kill (`_most_kills`), and reserve cards of a suit that can
    no longer attack are not counted (`_attacking_suits`).  The bound never falls below
    the plain search's optimum; the first rule must lower it somewhere, the second must
    leave some reserve card out."""
    game = RoyalAssassin.from_variants(VARIANTS[name])
    checked = kills_bite = suits_left_out = 0
    for seed, state, optimum in solved_positions_near_the_end(game, range(40)):
        bound = game.score_upper_bound(state)
        assert bound >= optimum, (seed, game.describe(state))
        no_win, stays = game.bounds._doomed(state)
        kills_bite += no_win and bound < 12 - max(1, stays)
        attacking = game.bounds._attacking_suits(state, game.bounds._stock_suffix(state.stock)[state.pos][3])
        suits_left_out += any(card != JOKER and not attacking >> SUIT[card] & 1 for card in state.reserve)
        checked += 1
    assert checked >= 100 and kills_bite > 0 and suits_left_out > 0, (checked, kills_bite, suits_left_out)
