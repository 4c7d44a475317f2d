"""Visible positions: what a player sees reads back, samples agree with it, and positions no
game reaches are refused with one line naming the problem."""

import random

import pytest
import random_play

from games import make_game
from games.adaman import visible as adaman_visible
from games.base import DealError
from games.royal_assassin import visible as ra_visible

ADAMAN = make_game("adaman")
RA = make_game("royal-assassin")
#: Seed 5 of Adaman as dealt (usurper deal adaman --seed 5).
ADAMAN_START = ("Deck: 24 left; Capital: Origin, Sailor, Penitent, Betrayal, Windfall; "
                "Resources: Journey, Battle, Chance Meeting, Pact, Darkness; Palace: Painter, Huntress; "
                "Controlled: -; Spent: -")


def random_positions(game, seeds):
    return random_play.random_positions(game, seeds, steps=80)


@pytest.mark.parametrize("game, module", [(ADAMAN, adaman_visible), (RA, ra_visible)], ids=["adaman", "ra"])
def test_visible_text_reads_back_and_samples_show_the_same_position(game, module):
    for number, state in enumerate(random_positions(game, range(12))):
        text = module.visible_text(game, state)
        visible = module.parse_visible(game, text)
        assert visible == module.visible_of(game, state)
        sample = module.sample_state(game, visible, random.Random(number))
        assert module.visible_text(game, sample) == text
        assert game.legal_moves(sample) == game.legal_moves(state)
        assert game.outcome(sample) == game.outcome(state)


def test_adaman_sample_keeps_the_rows_and_shuffles_only_the_deck():
    state = ADAMAN.initial_state(ADAMAN.deal_from_seed(5))
    visible = adaman_visible.parse_visible(ADAMAN, ADAMAN_START)
    samples = [adaman_visible.sample_state(ADAMAN, visible, random.Random(seed)) for seed in range(3)]
    assert all(ADAMAN.key(sample) == ADAMAN.key(state) for sample in samples)
    assert len({sample.deal.cards for sample in samples}) == 3


def test_adaman_describe_reads_back_with_its_spent_cards():
    state = ADAMAN.initial_state(ADAMAN.deal_from_seed(5))
    visible = adaman_visible.parse_visible(ADAMAN, ADAMAN.describe(state))
    assert visible == adaman_visible.visible_of(ADAMAN, state)


@pytest.mark.parametrize("text, problem", [
    (ADAMAN_START.replace("Windfall;", "Windfall, Pact;"), "Pact is given twice"),
    (ADAMAN_START.replace("Windfall;", "Windfall, Desert;"), "Capital holds 6 cards; a row holds at most 5"),
    (ADAMAN_START.replace("Darkness;", "Darkness, Author;").replace("Journey, ", ""),
     "Author is a personality and never goes to Resources"),
    (ADAMAN_START.replace("Palace: Painter", "Palace: Desert, Painter"),
     "Desert is not a personality and cannot be in Palace"),
    (ADAMAN_START.replace("Controlled: -", "Controlled: Mill"), "Mill is not a personality"),
    (ADAMAN_START.replace("Deck: 24", "Deck: 23"), "the deck holds 23 cards by its count but 24 cards are not seen"),
    (ADAMAN_START.replace("Windfall;", ";").replace("Deck: 24", "Deck: 25"),
     "Capital holds 4 cards while 25 are left in the deck"),
    (ADAMAN_START.replace("; Spent: -", ""), "name the spent cards"),
    (ADAMAN_START.replace("Pact", "Pactt"), "unknown card 'Pactt'"),
    (ADAMAN_START.replace("Windfall;", "Windfall, Watchman;"), "Watchman is not in the deck of this variant"),
    (ADAMAN_START + "; Hand: Pact", "unknown section 'Hand'"),
])
def test_adaman_refuses_impossible_positions(text, problem):
    with pytest.raises(DealError, match=problem):
        adaman_visible.parse_visible(ADAMAN, text)


RA_POSITION = ("Stock: 42 left; Reserve: 2C 5H; C: QC[A7:7D D3:3C] KC +JK (D attacks); D: -; H: JH; S: -; "
               "Jokers available: 0; Turned: 9D; Discard: 4H JS")


#: RA_POSITION as every screen shows it: the suits as symbols (typed either way).
RA_SHOWN = ("Stock: 42 left; Reserve: 2♣ 5♥; C: Q♣[A7:7♦ D3:3♣] K♣ +JK (D attacks); D: -; H: J♥; S: -; "
            "Jokers available: 0; Turned: 9♦; Discard: 4♥ J♠")


def test_royal_assassin_position_reads_as_written():
    visible = ra_visible.parse_visible(RA, RA_POSITION)
    assert ra_visible.format_visible(RA, visible) == RA_SHOWN
    assert ra_visible.parse_visible(RA, RA_SHOWN) == visible
    state = ra_visible.sample_state(RA, visible, random.Random(1))
    assert RA.legal_moves(state) == ["A(C)", "P"]  # 9D attacks the black column D already attacks
    assert len(visible.unknown) == 42 and 53 not in visible.unknown


@pytest.mark.parametrize("text, problem", [
    (RA_POSITION.replace("5H", "5H 9D"), "9D is given twice"),
    (RA_POSITION.replace("H: JH", "H: JH QD"), "QD cannot be on column H"),
    (RA_POSITION.replace("Reserve: 2C", "Reserve: 2C KD"), "KD is a Royal and never goes to the reserve"),
    (RA_POSITION.replace("A7:7D", "A7:7H"), "column C says D attacks"),
    (RA_POSITION.replace("A7:7D", "A7:7S").replace(" (D attacks)", ""), "7S cannot attack QC"),
    (RA_POSITION.replace("D3:3C", "D3:3S"), "3S cannot defend QC"),
    (RA_POSITION.replace("A7:7D D3:3C", "A0:- D3:3C").replace(" (D attacks)", ""),
     "QC has defence cards but no attack card"),
    (RA_POSITION.replace("A7:7D", "A16:7D 9D").replace("Turned: 9D", "Turned: 8D"), "it would be dead"),
    (RA_POSITION.replace("D3:3C", "D7:7C"), "the discard test would have cleared it"),
    (RA_POSITION.replace("A7:", "A8:"), "QC's attack total is written 8 but its cards add up to 7"),
    (RA_POSITION.replace("Stock: 42", "Stock: 41"), "the stock holds 41 cards by its count but 42 are not seen"),
    (RA_POSITION.replace("Discard: 4H JS", "Discard: 2"), "name the discarded cards"),
    (RA_POSITION.replace("KC +JK", "KC").replace("H: JH", "H: JH +JK"), "a Joker is on column H, which holds fewer"),
    (RA_POSITION.replace("Jokers available: 0", "Jokers available: 1"), "2 Jokers are seen but the game has 1"),
    (RA_POSITION.replace("Turned: 9D", "Turned: QD"), "QD is a Royal"),
    (RA_POSITION + "; LOST", "a game ends \\(E\\) only with the stock empty"),
])
def test_royal_assassin_refuses_impossible_positions(text, problem):
    with pytest.raises(DealError, match=problem):
        ra_visible.parse_visible(RA, text)


def test_royal_assassin_move_words_name_the_cards():
    state = RA.initial_state(RA.deal_from_seed(5))
    top = ra_visible.card_words(state.stock[state.pos])
    assert ra_visible.move_words(RA, state, "T", peek=True) == f"T {top} (turned)"
    assert ra_visible.move_words(RA, state, "T") == "T (turn the top stock card)"
    visible = ra_visible.parse_visible(RA, RA_POSITION)
    held = ra_visible.sample_state(RA, visible, random.Random(0))
    assert ra_visible.move_words(RA, held, "A(C)") == "A(C) 9♦ attacks K♣"
    assert ra_visible.move_words(RA, held, "P") == "P 9♦ to the reserve"


@pytest.mark.parametrize("name, variants", [
    ("adaman", []), ("adaman", ["excuse"]), ("royal-assassin", []), ("royal-assassin", ["two_jokers"]),
    ("royal-assassin", ["ace_first_play", "discard_on_equal_only", "royal_beneath", "fixed_royals=4"]),
])
def test_describe_is_what_a_player_sees_and_reads_back(name, variants):
    """`describe` (the Position line of hints and play) is the visible-position text: it reads
    back through parse_visible unchanged, at every position of random games."""
    from games import make_game

    game, rng = make_game(name, variants), random.Random(7)
    model = game.visible_positions()
    for seed in range(12):
        state = game.initial_state(game.deal_from_seed(seed))
        while True:
            text = game.describe(state)
            assert model.format_visible(game, model.parse_visible(game, text)) == text
            if game.outcome(state) is not None:
                break
            state = game.apply(state, rng.choice(game.legal_moves(state)))
