"""One contract test over the registry (after OpenSpiel's games_sim_test): every registered
game, in each of its variants (and 2-4 seats), through seeded random playouts by the verbs of
games/base.py alone.  Along each playout: the moves offered are legal and replay to the same
positions, the notations of deals, moves and visible positions read back what they wrote,
and every sound bound a game states holds against the score the playout then reached.  On a
few late positions the compiled engine answers exactly as the Python search does, states
counted alike."""

from __future__ import annotations

import random

import pytest

from games import GAMES, make_game
from games.base import Game, SimultaneousGame, UsurperError
from solver.search import Budget, solve
from solver.simultaneous import analyse

#: Each registered game's variants, as the `--variant` words that build them.
VARIANTS = {
    "adaman": [(), ("excuse",), ("pawns_courts=all",), ("excuse", "pawns_courts=personalities:watchman+consul")],
    "royal-assassin": [(), ("two_jokers",), ("fixed_royals=4",), ("ace_first_play",), ("discard_on_equal_only",),
                       ("royal_beneath",), ("joker_dies",), ("redeal",), ("two_jokers", "joker_dies", "royal_beneath")],
    "kings-reign": [()],
    "devils-throne": [("players=2",), ("players=3",), ("players=4",), ("players=3", "suits=S,C,H")],
}
CASES = [(name, words) for name in VARIANTS for words in VARIANTS[name]]
SEEDS = (0, 1)
#: A playout stops after this many moves (King's Reign may walk in circles).
MOST_MOVES = 400


def playout(game: Game, seed: int) -> tuple[list, list]:
    """The states and moves of a random playout of seed `seed`'s deal (the moves drawn by a
    generator of the same seed)."""
    rng = random.Random(seed)
    state = game.initial_state(game.deal_from_seed(seed))
    states, moves = [state], []
    while game.outcome(state) is None and len(moves) < MOST_MOVES:
        move = rng.choice(game.legal_moves(state))
        state = game.apply(state, move)
        states.append(state)
        moves.append(move)
    return states, moves


def test_the_table_covers_every_registered_game():
    assert set(VARIANTS) == set(GAMES)


@pytest.mark.parametrize("name,words", CASES)
def test_a_variant_builds_the_game_its_words_name(name, words):
    game = make_game(name, words)
    again = make_game(name, game.variant.split(",") if game.variant != "standard" else ())
    assert (again.name, again.variant, again.cards) == (game.name, game.variant, game.cards)


@pytest.mark.parametrize("name,words", CASES)
def test_playouts_offer_legal_moves_exactly_until_the_end(name, words):
    game = make_game(name, words)
    for seed in SEEDS:
        states, moves = playout(game, seed)
        for state, move in zip(states, moves):
            assert game.outcome(state) is None and move in game.legal_moves(state)
            assert set(game.search_moves(state)) <= set(game.legal_moves(state))
            assert sorted(map(repr, game.order_moves(state, game.legal_moves(state)))) == \
                sorted(map(repr, game.legal_moves(state)))
        if game.outcome(states[-1]) is not None:
            assert game.legal_moves(states[-1]) == []
        if isinstance(game, SimultaneousGame):
            for state in states:
                assert (game.acting_players(state) == ()) == game.is_over(state)


@pytest.mark.parametrize("name,words", CASES)
def test_a_playout_replays_identically_from_its_notation(name, words):
    game = make_game(name, words)
    for seed in SEEDS:
        deal = game.deal_from_seed(seed)
        assert game.parse_deal(game.format_deal(deal)) == deal
        states, moves = playout(game, seed)
        start = game.initial_state(game.parse_deal(game.format_deal(deal)))
        assert game.key(start) == game.key(states[0])
        line = game.format_line(states[0], moves)
        replayed = game.parse_line(start, line)
        assert replayed == moves
        assert game.key(game.apply_line(start, replayed)) == game.key(states[-1])
        for state, move in zip(states, moves):
            assert game.parse_move(state, game.format_move(state, move)) == move


#: Royal Assassin's redeal variant (V7) has no visible positions: a redealt stock's order is seen.
SEEN_IN_FULL = [("royal-assassin", ("redeal",))]


def test_the_solitaires_offer_a_visible_position_model_and_the_open_deal_game_none():
    offered = {name for name in GAMES if make_game(name).visible_positions() is not None}
    assert offered == {"adaman", "royal-assassin", "kings-reign"}  # Devil's Throne is analysed open


@pytest.mark.parametrize("name,words", [case for case in CASES if case not in SEEN_IN_FULL
                                        and case[0] != "devils-throne"])
def test_visible_positions_read_back_what_they_write(name, words):
    game = make_game(name, words)
    model = game.visible_positions()
    for seed in SEEDS:
        states, _ = playout(game, seed)
        for state in states[:: max(1, len(states) // 12)]:
            visible = model.visible_of(game, state)
            text = model.format_visible(game, visible)
            assert text == model.visible_text(game, state)
            assert model.format_visible(game, model.parse_visible(game, text)) == text


@pytest.mark.parametrize("name,words", SEEN_IN_FULL)
def test_a_variant_seen_in_full_refuses_visible_positions_in_one_error(name, words):
    game = make_game(name, words)
    state = game.initial_state(game.deal_from_seed(0))
    with pytest.raises(UsurperError, match="visible positions do not cover"):
        game.visible_positions().visible_of(game, state)


@pytest.mark.parametrize("name,words", [case for case in CASES if not case[0] == "devils-throne"])
def test_one_player_bounds_hold_against_the_score_a_playout_reached(name, words):
    game = make_game(name, words)
    for seed in SEEDS:
        states, moves = playout(game, seed)
        outcome = game.outcome(states[-1])
        if outcome is None:
            continue  # a playout cut short reached no score
        final = outcome.score
        for state, move in zip(states, moves):
            assert game.score_upper_bound(state) >= final
            assert game.guaranteed_score(state) <= final
            assert not outcome.won or game.can_still_win(state)
            assert outcome.won or game.loss_can_reach(state, final)
            assert game.may_exceed(state, final - 1, game.score_upper_bound(state))
            moves_here = game.legal_moves(state)
            bound = game.move_bounds(state, moves_here, final - 1)[moves_here.index(move)]
            assert bound >= final


@pytest.mark.parametrize("words", VARIANTS["devils-throne"])
def test_seat_bounds_hold_against_the_cards_a_playout_won(words):
    game = make_game("devils-throne", words)
    for seed in SEEDS:
        states, _ = playout(game, seed)
        final = game.returns(states[-1])
        assert game.is_over(states[-1]) and sum(final) <= game.max_score
        for state in states:
            now = game.returns(state)
            for seat in range(game.players):
                assert game.cards_reachable_by(state, seat) >= final[seat] - now[seat]
                assert game.outcome(state, seat) is None or game.is_over(state)


def late_positions(game: Game, moves_left: int) -> list:
    """Positions `moves_left` moves before the end of the playouts of SEEDS (or their start)."""
    return [states[max(0, len(states) - 1 - moves_left)] for states, _ in map(lambda s: playout(game, s), SEEDS)]


def late_round_starts(game: SimultaneousGame, rounds_left: int) -> list:
    """The round starts `rounds_left` rounds before the end of the playouts of SEEDS."""
    found = []
    for seed in SEEDS:
        starts = [state for state in playout(game, seed)[0] if game.round_start(state)]
        found.append(starts[max(0, len(starts) - rounds_left)])
    return found


@pytest.mark.parametrize("name,words", [case for case in CASES if make_game(*case).compiled
                                        and not make_game(*case).game_type.simultaneous and "redeal" not in case[1]])
def test_the_compiled_engine_answers_as_the_python_search(name, words):
    game = make_game(name, words)
    if name == "adaman":
        game.compiled_excuse_fold = True  # the Excuse bounded as bounds.py does: node for node "pruned"
    budget = Budget(max_states=5_000)  # node for node: a few thousand states compare as well as many
    for state in late_positions(game, 8):
        for mode in ("optimal", "winnable"):
            python = solve(game, state, mode, "pruned", budget)
            compiled = solve(game, state, mode, "compiled", budget)
            assert (compiled.verdict, compiled.score, compiled.line_score) == \
                (python.verdict, python.score, python.line_score)
            assert (compiled.stats.states, compiled.stats.table_hits) == \
                (python.stats.states, python.stats.table_hits)


@pytest.mark.parametrize("words", [("players=2",), ("players=3",)])
def test_the_compiled_seat_search_answers_as_the_python_one(words):
    game = make_game("devils-throne", words)
    questions = ("q1", "q2", "q3")
    for state in late_round_starts(game, 3):
        python = analyse(game, state, 0, questions, engine="python").answers
        compiled = analyse(game, state, 0, questions, engine="compiled").answers
        for question in questions:
            assert (compiled[question].cards, compiled[question].margin) == \
                (python[question].cards, python[question].margin), question
