"""Every card readable where it is shown: Adaman's cards carry their rank and suits, Royal
Assassin and King's Reign show their suits as symbols, an ASCII stream gets letters, and
whatever is printed (a move, a position) reads back, in either form."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import random_play

import usurper.app.reports  # noqa: F401  (registers the letters error handler of an ASCII stream)
from games import make_game
from games.base import DealError, MoveError, VariantError
from games.decks import DECKTET, EXCUSE, decktet_label

ROOT = Path(__file__).resolve().parents[2]
ADAMAN = make_game("adaman")
#: A playing card written with a suit letter (`7D`, `F5D`, `QC`): no screen shows one any more.
LETTER_CARD = re.compile(r"(?<![0-9A-Za-z])[FT#]?(10|[2-9AJQK])[CDHS](?![A-Za-z])")


def as_ascii(text: str) -> str:
    """What an ASCII terminal or pipe receives (usurper.app.reports.plain_letters_where_needed)."""
    return text.encode("ascii", "usurper-letters").decode("ascii")


def card(name: str):
    return next(c for c in DECKTET if c.name == name)


# ----- Adaman's cards -----------------------------------------------------------------------
def test_a_decktet_card_shows_its_rank_and_suits():
    assert decktet_label(card("Journey")) == "Journey 3 ☾≈"
    assert decktet_label(card("Ace of Knots")) == "Ace of Knots 1 ∞"
    assert decktet_label(card("Watchman")) == "Watchman 10 ☾⚕∞"
    assert decktet_label(card("Bard")) == "Bard 10 ☼"
    assert decktet_label(EXCUSE) == "Excuse"  # it has neither rank nor suit
    assert as_ascii(decktet_label(card("Chance Meeting"))) == "Chance Meeting 7 MoLe"
    assert as_ascii("☾☼≈❦⚕∞") == "MoSuWaLeWyKn"


def test_adaman_moves_print_ranks_and_suits_and_read_back_bare_or_decorated():
    state = ADAMAN.initial_state(ADAMAN.deal_from_seed(5))
    move = ADAMAN.parse_move(state, "Painter <- Battle")
    assert ADAMAN.format_move(state, move) == "Painter 3 ☼∞ <- Battle 4 ⚕∞"
    for typed in ("Painter 3 ☼∞ <- Battle 4 ⚕∞", "painter 3 suKN <- Bat 4WyKn", "Pai <- battle 4 ∞⚕"):
        assert ADAMAN.parse_move(state, typed) == move


def test_a_decoration_that_does_not_match_its_card_is_refused_in_one_line():
    state = ADAMAN.initial_state(ADAMAN.deal_from_seed(5))
    with pytest.raises(MoveError, match="Battle is rank 4, Wyrms and Knots"):
        ADAMAN.parse_move(state, "Painter <- Battle 5 ⚕∞")
    with pytest.raises(MoveError, match="Painter is rank 3, Suns and Knots"):
        ADAMAN.parse_move(state, "Painter 3 ☾ <- Battle")
    shown = ADAMAN.describe(state)
    with pytest.raises(DealError, match="Journey is rank 3"):
        ADAMAN.visible_positions().parse_visible(ADAMAN, shown.replace("Journey 3 ☾≈", "Journey 3 ☾"))


def test_a_card_paid_twice_is_no_payment():
    state = ADAMAN.initial_state(ADAMAN.deal_from_seed(5))
    for typed in ("Painter <- Battle + Battle", "Painter <- Battle + bat 4 WyKn"):
        with pytest.raises(MoveError, match="Battle is named twice in the payment"):
            ADAMAN.parse_move(state, typed)


def test_a_pawns_courts_personality_named_twice_is_refused():
    for words in ("pawns_courts=personalities:Watchman+Watchman", "pawns_courts=personalities:Consul+watchman+consul"):
        with pytest.raises(VariantError, match="named twice"):
            make_game("adaman", [words])


# ----- every printed move and position reads back, in Unicode and in ASCII ----------------------
GAMES = [("adaman", ()), ("adaman", ("excuse",)), ("adaman", ("pawns_courts=all",)), ("royal-assassin", ()),
         ("kings-reign", ())]


@pytest.mark.parametrize("name, variants", GAMES, ids=[" ".join((n, *v)) for n, v in GAMES])
def test_printed_moves_and_positions_read_back_as_written(name, variants):
    game = make_game(name, list(variants))
    model = game.visible_positions()
    for state in random_play.random_positions(game, range(4), steps=40):
        visible = model.visible_of(game, state)
        for text in (model.visible_text(game, state), as_ascii(model.visible_text(game, state))):
            assert model.parse_visible(game, text) == visible, text
        for move in game.legal_moves(state):
            printed = game.format_move(state, move)
            assert game.parse_move(state, printed) == move, printed
            assert game.parse_move(state, as_ascii(printed)) == move, printed


@pytest.mark.parametrize("name", ["royal-assassin", "kings-reign"])
def test_playing_cards_are_written_one_way_in_positions_boards_and_move_words(name):
    game = make_game(name)
    model = game.visible_positions()
    symbols = set()
    for state in random_play.random_positions(game, range(6), steps=60):
        shown = [game.describe(state), game.render(state, reveal=True)]
        shown += [model.move_words(game, state, move, peek=True) for move in game.legal_moves(state)]
        for text in shown:
            assert not LETTER_CARD.search(text), text
            symbols |= set(text) & set("♣♦♥♠")
    assert symbols  # the cards were there, with their symbols


def test_kings_reign_help_explains_the_goal_the_phases_and_the_moves():
    legend = make_game("kings-reign").legend()
    for words in ("Goal", "train Q", "train none", "Q 0,1 N", "farm x,y", "fort x,y", "demolish x,y", "pass",
                  "dispose", "enemies", "Score"):
        assert words in legend, words


# ----- one rule for every command on an ASCII stream ---------------------------------------------
def usurper(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", "import cli; cli.main()", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=120, env={**os.environ, "PYTHONIOENCODING": "ascii"})


@pytest.mark.parametrize("args, expected", [
    (("solve", "adaman", "--seed", "5", "--time-limit", "10"), "1. Painter 3 SuKn <- Battle 4 WyKn"),
    (("hint", "adaman", "--seed", "5", "--time-limit", "10"), "Hint: Painter 3 SuKn <- Battle 4 WyKn"),
    (("show", "adaman", "--seed", "5"), "Palace: Painter 3 SuKn, Huntress 10 Mo"),
    (("hint", "royal-assassin", "--seed", "5", "--moves", "T", "--time-limit", "10"), "Hint: A(C) 7H attacks QC"),
    (("show", "royal-assassin", "--seed", "5"), "S: JS QS KS"),
    (("show", "kings-reign", "--seed", "5", "--moves", "train Q;Q 0,0 N"), "5C Q"),
])
def test_every_command_writes_letters_on_an_ascii_stream(args, expected):
    done = usurper(*args)
    assert done.returncode == 0, done.stderr
    assert done.stdout.isascii() and "?" not in done.stdout.replace("(?)", ""), done.stdout
    assert expected in done.stdout


def test_an_ascii_position_and_line_paste_back_into_the_commands():
    shown = usurper("show", "adaman", "--seed", "5", "--moves", "Painter <- Battle").stdout.strip()
    line = "Painter 3 SuKn <- Battle 4 WyKn; Sailor 4 WaLe <- Ace of Waves 1 Wa + Journey 3 MoWa"
    assert usurper("verify", "adaman", "--seed", "5", "--moves", line).returncode == 0
    hinted = usurper("hint", "adaman", "--visible", shown, "--fair", "--samples", "20", "--time-limit", "10")
    assert hinted.returncode == 0 and "Fair hint: " in hinted.stdout, hinted.stderr


def test_verify_reports_a_card_paid_twice_and_the_variant_a_personality_named_twice():
    done = usurper("verify", "adaman", "--seed", "5", "--moves", "Painter <- Battle + Battle")
    assert done.returncode == 1 and done.stdout.startswith("Illegal: move 1 ('Painter <- Battle + Battle'): "
                                                            "Battle is named twice in the payment")
    done = usurper("solve", "adaman", "--seed", "5", "--variant", "pawns_courts=personalities:Watchman+Watchman")
    assert done.returncode == 2 and done.stderr.splitlines() == [
        "usurper: error: pawns_courts personality Watchman is named twice"]


def test_pick_shows_a_catalogue_s_first_move_as_moves_are_shown_now():
    from usurper.app.reports import _as_shown

    assert _as_shown(ADAMAN, 5, "Painter <- Battle") == "Painter 3 ☼∞ <- Battle 4 ⚕∞"
    assert _as_shown(ADAMAN, 5, "not a move") == "not a move"  # as stored: pick never fails on it


def test_a_deal_reads_with_cards_typed_as_shown():
    deal = ADAMAN.deal_from_seed(5)
    shown = ", ".join(decktet_label(card) for card in deal)
    assert ADAMAN.parse_deal(shown) == deal == ADAMAN.parse_deal(as_ascii(shown))
    with pytest.raises(DealError, match="Journey is rank 3"):
        ADAMAN.parse_deal(shown.replace("Journey 3 ☾≈", "Journey 4 ☾≈"))
