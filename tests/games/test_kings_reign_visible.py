"""King's Reign visible positions: describe's line reads back, samples show the same position
with the same legal moves, malformed lines are refused in one line, and fair hints work."""

import random

import pytest
import random_play

from games import make_game
from games.base import DealError
from games.kings_reign import visible
from games.kings_reign.game import NUMBER_CARDS, KingsReign
from games.kings_reign.rules import DOWN, OVER
from solver.fair import fair_hint_for_state

GAME = make_game("kings-reign")


def random_positions(game, seeds):
    return random_play.random_positions(game, seeds, steps=200)


@pytest.mark.parametrize("game", [GAME, KingsReign(NUMBER_CARDS[5:20])], ids=["full", "short-deck"])
def test_describe_reads_back_and_samples_show_the_same_position(game):
    phases = set()
    for number, state in enumerate(random_positions(game, range(15))):
        text = game.describe(state)
        seen = visible.parse_visible(game, text)
        assert visible.format_visible(game, seen) == text
        assert seen == visible.visible_of(game, state)
        assert visible.visible_text(game, state) == text
        sample = visible.sample_state(game, seen, random.Random(number))
        assert game.describe(sample) == text
        assert game.legal_moves(sample) == game.legal_moves(state)
        assert game.outcome(sample) == game.outcome(state)
        phases.add(state.phase)
    assert OVER in phases


def test_samples_deal_the_unseen_cards_and_hide_them_from_the_line():
    state = GAME.initial_state(GAME.deal_from_seed(3))
    seen = visible.visible_of(GAME, state)
    assert visible.unknown_count(seen) == 30  # no number card is face up yet: 3 DOWN cells, 27 in the deck
    samples = [visible.sample_state(GAME, seen, random.Random(seed)) for seed in range(3)]
    assert len({sample.deck for sample in samples}) == 3
    for sample in samples:
        downs = [c & 31 for c in sample.cells if c >> 5 & 7 == DOWN]
        assert sorted(downs + list(sample.deck)) == sorted(seen.unknown)


def test_the_line_names_the_disposal_resume_and_the_ending():
    texts = {GAME.describe(s).split(";")[0] for s in random_positions(GAME, range(15))}
    assert any(t.startswith("over-population disposal (resume at enemy ") for t in texts)
    assert any(t.startswith("game over (") for t in texts)


START = ("phase 1 (train); deck 27; people deck Q3 J4; pool 2; farm deck 5; fort deck 4; trainees -; "
         "people Q@0,0; enemies -; cells -1,0=F 0,-1=## 0,0=K 0,1=## 1,0=##; score now 2")


@pytest.mark.parametrize("text, problem", [
    (START.replace("phase 1 (train)", "phase 9"), "cannot read the phase"),
    (START.replace("pool 2", "pool two"), "cannot read pool"),
    (START.replace("1,0=##", "1,0=7D 1,1=7D"), "7♦ is face up twice"),
    (START.replace("1,0=##", "1,0=QD"), "cannot read the cell"),
    (START.replace("people Q@0,0", "people Q@5,5"), "not on the board"),
    (START.replace("deck 27", "deck 28"), "31 cards lie face down"),
    (START.replace("score now 2", "score now 9"), "the score now is"),
    (START.replace("; enemies -", ""), "does not give enemies"),
    ("", "empty position"),
])
def test_malformed_lines_are_refused_in_one_line(text, problem):
    with pytest.raises(DealError) as refused:
        visible.parse_visible(GAME, text)
    assert problem in str(refused.value)
    assert "\n" not in str(refused.value)


def test_start_line_is_the_seeded_start():
    state = GAME.initial_state(GAME.deal_from_seed(1))
    assert GAME.describe(state) == START
    seen = visible.parse_visible(GAME, START)
    assert seen == visible.visible_of(GAME, state)
    assert seen.deck_count == 27 and seen.hidden == 30


def test_greedy_moves_are_legal_and_games_end():
    for seed in range(5):
        state = GAME.initial_state(GAME.deal_from_seed(seed))
        for _ in range(2000):
            if GAME.outcome(state) is not None:
                break
            move = GAME.greedy_move(state)
            assert move in GAME.legal_moves(state)
            state = GAME.apply(state, move)
        assert GAME.outcome(state) is not None


def test_a_fair_hint_on_a_kings_reign_position():
    state = GAME.initial_state(GAME.deal_from_seed(1))
    rng = random.Random(2)
    for _ in range(6):
        state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
    assert GAME.visible_positions() is visible
    hint = fair_hint_for_state(GAME, state, samples=20, rng=random.Random(1))
    assert hint.move in GAME.legal_moves(state)
    assert hint.position == GAME.describe(state)
    assert not hint.exact
