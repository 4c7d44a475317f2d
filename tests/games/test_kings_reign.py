"""King's Reign rules (docs/rules/kings-reign.md): one test per ruling that changes play, named
after it, then conservation of every card group over random playouts."""

from __future__ import annotations

import random

import pytest

from games.base import WON, DealError, MoveError, Termination, VariantError
from games.kings_reign import NUMBER_CARDS, KingsReign, aim, render
from games.kings_reign import rules as r
from games.kings_reign.game import card_index
from games.kings_reign.notation import card_name
from solver.cycles import solve_cycles
from solver.search import Budget

GAME = KingsReign()
BY_NAME = {card.name: card for card in NUMBER_CARDS}


def idx(name: str) -> int:
    return card_index(BY_NAME[name])


def make_state(cells: dict, people: dict | None = None, enemies: list | None = None, trainees: list | None = None,
               deck: str = "", phase: int = r.ACT) -> r.KingsReignState:
    """A position built by hand; counts follow from what is on the board (every group conserved).

    cells: {(x, y): "K" | "##7C" (face down) | "7C" | "F" / "F4D" | "T9S" | "RR"}
    people: {(x, y): "Q" | "J" | "Qb2" (building, timer 2)}; trainees: ["Q2", "J3", ...]"""
    grid = {}
    for (x, y), text in cells.items():
        pos = r.position(x, y)
        if text == "K":
            grid[pos] = (r.KING, r.NO_CARD)
        elif text == "RR":
            grid[pos] = (r.RUBBLE, r.NO_CARD)
        elif text.startswith("##"):
            grid[pos] = (r.DOWN, idx(text[2:]))
        elif text[0] in "FT":
            grid[pos] = (r.FARM if text[0] == "F" else r.FORT, idx(text[1:]) if len(text) > 1 else r.NO_CARD)
        else:
            grid[pos] = (r.LAND, idx(text))
    packed_people = []
    for (x, y), text in (people or {}).items():
        kind = r.QUEEN if text[0] == "Q" else r.JACK
        timer = int(text[2]) if len(text) > 2 else 0
        packed_people.append(r.position(x, y) << 4 | kind << 2 | timer)
    packed_trainees = [(r.QUEEN if t[0] == "Q" else r.JACK) << 2 | int(t[1]) for t in (trainees or [])]
    queens_out = sum(1 for p in packed_people if p >> 2 & 3 == r.QUEEN) + sum(1 for t in packed_trainees if t >> 2 == 0)
    jacks_out = len(packed_people) + len(packed_trainees) - queens_out
    farms = sum(1 for kind, _ in grid.values() if kind == r.FARM)
    forts = sum(1 for kind, _ in grid.values() if kind == r.FORT) + sum(1 for p in packed_people if p & 3)
    enemy_cells = tuple(r.position(x, y) for x, y in (enemies or []))
    return r.KingsReignState(
        cells=r._pack_cells(grid), people=tuple(sorted(packed_people)), enemies=enemy_cells,
        trainees=tuple(packed_trainees), deck=tuple(idx(name) for name in deck.split()),
        queens=4 - queens_out, jacks=4 - jacks_out, pool=2 - len(enemy_cells), farm_deck=6 - farms,
        fort_deck=4 - forts, phase=phase, resume=0, ending=0)


def cell(state: r.KingsReignState, x: int, y: int) -> tuple[int, int] | None:
    return r.board(state.cells).get(r.position(x, y))


def person(state: r.KingsReignState, x: int, y: int) -> str | None:
    for p in state.people:
        if p >> 4 == r.position(x, y):
            return ("Q" if p >> 2 & 3 == r.QUEEN else "J") + (f"b{p & 3}" if p & 3 else "")
    return None


def play(state: r.KingsReignState, *moves: str) -> r.KingsReignState:
    for text in moves:
        state = GAME.apply(state, GAME.parse_move(state, text))
    return state


def enemies_at(state, *cells) -> tuple:
    return tuple(r.position(x, y) for x, y in cells)


# A small kingdom used by many tests: K with the farm at W, land around.
BASE = {(0, 0): "K", (-1, 0): "F", (0, 1): "5C", (1, 0): "6C", (0, -1): "7C"}
# Battle decks: the first three cards decide.
JACK_WINS = "9C 8S 10C 4S"          # no ♦, not all low
ENEMY_WINS_LOW = "AC 2S 3C 9S"      # all three ≤ 3
ENEMY_WINS_DIAMONDS = "9D 10D 8C 7S"  # two ♦


# ----- setup and deals -------------------------------------------------------------------------

def test_setup_R6_R41_farm_west_deal_north_east_south_queen_on_king():
    deal = GAME.parse_deal("4C AD 9D " + " ".join(c.name for c in NUMBER_CARDS if c.name not in ("4C", "AD", "9D")))
    state = GAME.initial_state(deal)
    assert cell(state, -1, 0) == (r.FARM, r.NO_CARD)
    assert cell(state, 0, 1) == (r.DOWN, idx("4C"))
    assert cell(state, 1, 0) == (r.DOWN, idx("AD"))
    assert cell(state, 0, -1) == (r.DOWN, idx("9D"))
    assert person(state, 0, 0) == "Q"
    assert (state.queens, state.jacks, state.pool, state.farm_deck, state.fort_deck) == (3, 4, 2, 5, 4)
    assert len(state.deck) == 27 and state.phase == r.TRAIN
    assert r.score(state) == 2  # the starting farm and the queen


def test_seeded_deal_is_random_shuffle_of_canonical_order():
    import random as stdlib_random
    expected = list(NUMBER_CARDS)
    stdlib_random.Random(7).shuffle(expected)
    assert GAME.deal_from_seed(7) == tuple(expected)
    assert NUMBER_CARDS[0].name == "AC" and NUMBER_CARDS[10].name == "AD" and NUMBER_CARDS[29].name == "10S"


def test_deal_text_round_trips_and_errors_name_the_problem():
    deal = GAME.deal_from_seed(3)
    assert GAME.parse_deal(GAME.format_deal(deal)) == deal
    with pytest.raises(DealError, match="not in the deck"):
        GAME.parse_deal("AH " + " ".join(c.name for c in NUMBER_CARDS[1:]))
    with pytest.raises(DealError, match="duplicate"):
        GAME.parse_deal("AC AC")


def test_no_variants():
    assert isinstance(KingsReign.from_variants([]), KingsReign)
    with pytest.raises(VariantError, match="no variants"):
        KingsReign.from_variants(["two_jokers"])


# ----- training (R30, R36) ---------------------------------------------------------------------

def test_R30_training_needs_room_under_capacity():
    state = make_state(BASE, {(0, 0): "Q"}, phase=r.TRAIN)  # capacity 2, population 1
    assert GAME.legal_moves(state) == [r.TRAIN_NONE, r.TRAIN_QUEEN, r.TRAIN_JACK]
    full = make_state(BASE, {(0, 0): "Q"}, trainees=["J3"], phase=r.TRAIN)
    assert GAME.legal_moves(full) == [r.TRAIN_NONE]


def test_R36_training_timers_queen_two_turns_jack_three():
    cells = {**BASE, **{(-2, 0): "F"}}
    state = make_state(cells, {(0, 1): "Q"}, phase=r.TRAIN)
    state = play(state, "train Q", "pass")               # turn 1: queen timer 2 -> 1
    assert state.trainees == (r.QUEEN << 2 | 1,) and person(state, 0, 0) is None
    state = play(state, "train J", "pass")               # turn 2: queen appears on K
    assert person(state, 0, 0) == "Q" and state.trainees == (r.JACK << 2 | 2,)
    state = play(state, "train none", "pass", "train none", "pass")  # jack ready, but K is taken
    assert state.trainees == (r.JACK << 2 | 0,)          # it waits at 0 and still counts
    state = play(state, "train none", "Q 0,0 E")          # K is free at the end of this turn
    assert person(state, 0, 0) == "J" and state.trainees == ()


def test_R36_earliest_ready_trainee_enters_first_and_only_one_a_turn():
    cells = {**BASE, **{(-2, 0): "F"}}
    state = make_state(cells, {(0, 1): "J"}, trainees=["J1", "Q1"], phase=r.TRAIN)
    state = play(state, "train none", "pass")
    assert person(state, 0, 0) == "J" and state.trainees == (r.QUEEN << 2 | 0,)


# ----- movement (R9 - R12, R37) -------------------------------------------------------------------

def test_R37_pass_is_always_legal_and_R10_no_step_into_empty_space():
    state = make_state(BASE, {(0, 1): "Q"})
    moves = [GAME.format_move(state, m) for m in GAME.legal_moves(state)]
    assert moves[0] == "pass"
    assert "Q 0,1 N" not in moves and "Q 0,1 S" in moves  # (0,2) is EMPTY; K is free


def test_R11_one_person_a_cell_also_on_the_king():
    state = make_state(BASE, {(0, 0): "J", (0, 1): "Q"})
    moves = [GAME.format_move(state, m) for m in GAME.legal_moves(state)]
    assert "Q 0,1 S" not in moves and "J 0,0 N" not in moves


def test_R12_queen_may_not_step_onto_an_enemy_but_a_jack_may():
    cells = {**BASE, **{(1, 1): "9C"}}
    state = make_state(cells, {(0, 1): "Q", (1, 0): "J"}, enemies=[(1, 1)])
    moves = [GAME.format_move(state, m) for m in GAME.legal_moves(state)]
    assert "Q 0,1 E" not in moves and "J 1,0 N" in moves


def test_illegal_move_text_names_the_problem():
    state = make_state(BASE, {(0, 1): "Q"})
    with pytest.raises(MoveError, match="no jack on 0,1"):
        GAME.parse_move(state, "J 0,1 S")
    with pytest.raises(MoveError, match="unreadable"):
        GAME.parse_move(state, "fly away")
    with pytest.raises(MoveError, match="not legal"):
        GAME.parse_move(state, "Q 0,1 N")


# ----- discovery (R8, R15, R38) --------------------------------------------------------------------

def test_R8_discovery_fills_empty_neighbours_north_east_south_west_from_the_top():
    cells = {(0, 0): "K", (-1, 0): "F", (0, 1): "##9C", (1, 0): "5C", (0, -1): "7C"}
    state = make_state(cells, {(0, 0): "Q"}, deck="2C 3C 4C 6S")
    state = play(state, "Q 0,0 N")
    assert cell(state, 0, 1) == (r.LAND, idx("9C"))
    assert cell(state, 0, 2) == (r.DOWN, idx("2C"))   # N
    assert cell(state, 1, 1) == (r.DOWN, idx("3C"))   # E
    assert cell(state, -1, 1) == (r.DOWN, idx("4C"))  # W (S is the king)
    assert state.deck == (idx("6S"),)


def test_R8_discovery_never_places_on_rubble_and_stops_when_the_deck_is_empty():
    cells = {(0, 0): "K", (-1, 0): "F", (0, 1): "##9C", (1, 0): "5C", (0, -1): "7C", (0, 2): "RR",
             (-1, 2): "##4S"}
    state = make_state(cells, {(0, 0): "Q"}, deck="2C")
    state = play(state, "Q 0,0 N")
    assert cell(state, 0, 2) == (r.RUBBLE, r.NO_CARD)
    assert cell(state, 1, 1) == (r.DOWN, idx("2C")) and cell(state, -1, 1) is None


def test_R8_stepping_onto_face_up_land_places_nothing():
    cells = {**BASE, **{(1, 1): "##9C"}}
    state = make_state(cells, {(0, 1): "Q"}, deck="2C 3C")
    after = play(state, "Q 0,1 S")
    assert after.cells == state.cells and after.deck == state.deck


def test_R38_discovery_win_when_no_face_down_card_is_left():
    cells = {(0, 0): "K", (-1, 0): "F", (0, 1): "##9C", (1, 0): "5C", (0, -1): "7C"}
    state = make_state(cells, {(0, 0): "Q"}, deck="")
    end = play(state, "Q 0,0 N")
    outcome = GAME.outcome(end)
    assert outcome.won and outcome.reason == Termination.KINGDOM_DISCOVERED
    assert GAME.legal_moves(end) == []


def test_R15_the_win_check_comes_before_the_attack_check():
    cells = {(0, 0): "K", (-1, 0): "F", (0, 1): "9C", (1, 1): "##2C", (1, 0): "5C", (0, -1): "7C"}
    end = play(make_state(cells, {(0, 1): "Q"}), "Q 0,1 E")  # downhill 9 -> 2, but the game is won first
    assert GAME.outcome(end).reason == Termination.KINGDOM_DISCOVERED and end.enemies == ()


# ----- attack check (R13, R14, R16, R17, R44) ----------------------------------------------------------

def test_R13_R14_stepping_downhill_between_land_cells_brings_an_enemy():
    cells = {**BASE, **{(1, 1): "9C", (2, 1): "##4S"}}
    state = make_state(cells, {(1, 1): "J"}, deck=JACK_WINS)
    after = play(state, "J 1,1 S")  # 9 -> 6: lower; the jack fights it at once [R18]
    assert after.enemies == () and person(after, 1, 0) == "J" and after.pool == 2
    assert after.deck == tuple(idx(c) for c in "4S 9C 8S 10C".split())  # battle cards to the bottom [R24]


def test_R13_equal_rank_is_not_lower_and_king_or_farm_never_attack():
    cells = {**BASE, **{(1, 1): "6S", (0, 2): "##AS"}}
    state = make_state(cells, {(1, 1): "Q", (0, 0): "J"})
    assert play(state, "Q 1,1 S").enemies == ()  # 6 -> 6
    state = make_state(cells, {(0, 0): "Q"})
    assert play(state, "Q 0,0 N").enemies == ()  # from the king: no rank


def test_R14_a_discovery_that_turns_out_lower_brings_an_enemy():
    cells = {**BASE, **{(0, 2): "##AS", (1, 1): "8C", (-1, 1): "8S"}}
    state = make_state(cells, {(0, 1): "J"}, deck="2C 3C 4C 9C 8S 10C 4S")
    after = play(state, "J 0,1 N")  # 5 -> A after the flip (2C 3C 4C placed first)
    assert after.deck == tuple(idx(c) for c in "4S 9C 8S 10C".split())  # a battle was fought, and won
    assert after.enemies == () and person(after, 0, 2) == "J"


def test_R16_enemy_enters_only_while_the_pool_has_one():
    cells = {**BASE, **{(1, 1): "9C", (-1, 1): "8S"}}
    state = make_state(cells, {(1, 1): "Q"}, enemies=[(-1, 1), (-1, 1)], deck=JACK_WINS)
    after = play(state, "Q 1,1 S")
    assert person(after, 1, 0) == "Q" and after.pool == 0  # nothing entered


def test_R17_queen_killed_when_an_enemy_appears_on_her_cell():
    cells = {**BASE, **{(1, 1): "9C"}}
    state = make_state(cells, {(1, 1): "Q", (0, 0): "J"}, deck=JACK_WINS)
    after = play(state, "Q 1,1 S")  # 9 -> 6: the enemy enters on her cell
    assert person(after, 1, 0) is None and after.queens == 4
    # then it marched onto K, where the jack beat it
    assert after.enemies == () and person(after, 0, 0) == "J" and after.deck[0] == idx("4S")


def test_R44_jack_fights_every_enemy_on_the_cell_oldest_first():
    cells = {**BASE, **{(1, 1): "9C"}}
    # an old enemy already on (1,0); the jack steps down 9 -> 6, a new one enters; two battles
    state = make_state(cells, {(1, 1): "J"}, enemies=[(1, 0)], deck="9C 8S 10C 9S 7S 10S 4S")
    after = play(state, "J 1,1 S")
    assert after.enemies == () and person(after, 1, 0) == "J" and after.pool == 2
    assert after.deck[:1] == (idx("4S"),)


def test_R18_jack_that_loses_returns_to_the_people_deck():
    cells = {**BASE, **{(1, 1): "9C"}}
    state = make_state(cells, {(1, 1): "J", (0, 0): "J"}, deck=ENEMY_WINS_LOW)
    after = GAME.apply(state, (r.STEP, r.position(1, 1), 2))
    assert person(after, 1, 0) is None and after.jacks == 3


# ----- battles (R23, R24, R25) ---------------------------------------------------------------------

@pytest.mark.parametrize("deck, enemy_wins", [(JACK_WINS, False), (ENEMY_WINS_LOW, True),
                                               (ENEMY_WINS_DIAMONDS, True), ("3C 4S AD 9S", False)])
def test_R23_battle_outcomes_all_low_or_two_diamonds_beat_the_jack(deck, enemy_wins):
    play_ = r._Play(make_state(BASE, {}, deck=deck))
    assert play_.battle() is enemy_wins
    cards = deck.split()
    assert [card_name(c) for c in play_.deck] == cards[3:] + cards[:3]  # to the bottom in order [R24]


def test_R23_exhaustion_win_when_a_battle_starts_with_fewer_than_three_cards():
    cells = {**BASE, **{(1, 1): "9C"}}
    state = make_state(cells, {(1, 1): "J", (0, 0): "Q"}, deck="2C 3C")
    end = play(state, "J 1,1 S")
    outcome = GAME.outcome(end)
    assert outcome.won and outcome.reason == Termination.DECK_EXHAUSTED
    assert end.enemies == (r.position(1, 0),)  # the fighting enemy is on the board: -15
    assert outcome.score == r.score(end) and "yes (-15)" in outcome.detail


def test_R25_enemy_that_loses_goes_back_to_the_pool():
    cells = {**BASE, **{(1, 1): "9C"}}
    state = make_state(cells, {(1, 0): "J", (0, 0): "Q"}, enemies=[(1, 1)], deck=JACK_WINS)
    after = play(state, "J 1,0 N")
    assert after.enemies == () and after.pool == 2


# ----- enemy steps (R19, R20, R21, R26) ---------------------------------------------------------------

def test_R21_enemy_takes_a_shortest_step_towards_the_king():
    cells = {**BASE, **{(1, 1): "9C", (2, 1): "8C", (2, 0): "4C"}}
    state = make_state(cells, {(0, 0): "J"}, enemies=[(2, 1)], deck=JACK_WINS)
    after = play(state, "pass")
    # (2,1) is 3 from K; both (1,1) [W] and (2,0) [S] are 2 from K: S comes before W
    assert after.enemies == enemies_at(after, (2, 0))


def test_R21_enemy_prefers_a_shortest_route_through_a_farm():
    cells = {**BASE, **{(1, 1): "F9D", (2, 1): "8C", (2, 0): "4C"}}
    state = make_state(cells, {(0, 0): "J"}, enemies=[(2, 1)], deck=JACK_WINS)
    after = play(state, "pass")
    assert after.enemies == enemies_at(after, (1, 1))  # W, through the farm, beats S


def test_R20_enemies_never_cross_face_down_cards_or_forts():
    cells = {**BASE, **{(1, 1): "T9D", (2, 1): "8C", (2, 0): "##4C"}}
    state = make_state(cells, {(0, 0): "J"}, enemies=[(2, 1)], deck=JACK_WINS)
    after = play(state, "pass")
    assert after.enemies == state.enemies  # no path: it stays [R21]


def test_R19_every_enemy_steps_once_oldest_first():
    cells = {**BASE, **{(1, 1): "9C", (2, 1): "8C"}}
    state = make_state(cells, {(0, 0): "J"}, enemies=[(2, 1), (1, 1)], deck=JACK_WINS + " 9S 10S 8S")
    after = play(state, "pass")
    # the older one steps to (1,1); the newer one, from (1,1), has (1,0) S and (0,1) W at
    # distance 1: S comes before W
    assert after.enemies == enemies_at(after, (1, 1), (1, 0))


def test_R26_enemy_reaching_an_unguarded_king_wins():
    state = make_state(BASE, {(1, 0): "Q"}, enemies=[(0, 1)], deck=JACK_WINS)
    end = play(state, "pass")
    assert GAME.outcome(end).reason == Termination.KING_TAKEN and not GAME.outcome(end).won


def test_R26_queen_on_the_king_is_killed_and_the_game_lost():
    state = make_state(BASE, {(0, 0): "Q"}, enemies=[(0, 1)], deck=JACK_WINS)
    end = play(state, "pass")
    assert GAME.outcome(end).reason == Termination.KING_TAKEN and end.people == () and end.queens == 4
    assert GAME.outcome(end).score == r.score(end) and r.score(end) < 0  # the enemy on K: -15


def test_R26_jack_on_the_king_who_wins_sends_the_enemy_back():
    state = make_state(BASE, {(0, 0): "J"}, enemies=[(0, 1)], deck=JACK_WINS)
    after = play(state, "pass")
    assert GAME.outcome(after) is None and after.enemies == () and after.pool == 2
    lost = play(make_state(BASE, {(0, 0): "J"}, enemies=[(0, 1)], deck=ENEMY_WINS_DIAMONDS), "pass")
    assert GAME.outcome(lost).reason == Termination.KING_TAKEN and lost.jacks == 4


def test_R43_enemy_kills_a_building_queen_and_cancels_the_fort():
    cells = {**BASE, **{(1, 1): "9C", (2, 1): "8C"}}
    state = make_state(cells, {(0, 0): "J", (1, 1): "Qb2"}, enemies=[(2, 1)], deck=JACK_WINS)
    after = play(state, "pass")
    assert person(after, 1, 1) is None and after.fort_deck == 4 and after.queens == 4


# ----- trampling and starvation (R27, R28), over-population (R29) ----------------------------------------

def test_R27_enemy_tramples_a_farm_into_rubble_and_its_card_leaves_the_game():
    cells = {**BASE, **{(1, 1): "F9D", (2, 1): "8C"}}
    state = make_state(cells, {(0, 0): "J"}, enemies=[(2, 1)], deck=JACK_WINS)
    after = play(state, "pass")
    assert cell(after, 1, 1) == (r.RUBBLE, r.NO_CARD) and after.farm_deck == 5
    assert idx("9D") not in after.deck


def test_R27_a_jack_who_wins_on_the_farm_saves_it():
    cells = {**BASE, **{(1, 1): "F9D", (2, 1): "8C"}}
    state = make_state(cells, {(0, 0): "Q", (1, 1): "J"}, enemies=[(2, 1)], deck=JACK_WINS)
    after = play(state, "pass")
    assert cell(after, 1, 1) == (r.FARM, idx("9D")) and after.enemies == ()


def test_R28_starvation_when_the_last_farm_is_trampled():
    cells = {(0, 0): "K", (-1, 0): "RR", (0, 1): "5C", (1, 0): "6C", (0, -1): "7C", (1, 1): "F9D", (2, 1): "8C"}
    state = make_state(cells, {(0, 0): "J"}, enemies=[(2, 1)], deck=JACK_WINS)
    end = play(state, "pass")
    assert GAME.outcome(end).reason == Termination.STARVED


def test_R28_starvation_when_the_last_farm_is_demolished():
    state = make_state(BASE, {(-1, 0): "Q"})
    end = play(state, "demolish -1,0")
    assert GAME.outcome(end).reason == Termination.STARVED and cell(end, -1, 0) == (r.RUBBLE, r.NO_CARD)


def test_R29_over_population_disposes_of_exactly_the_excess_by_choice():
    cells = {**BASE, **{(1, 1): "F9D", (2, 1): "8C", (-1, 1): "4S"}}
    # 2 farms, 4 people: the trample leaves capacity 2, so 2 must go
    state = make_state(cells, {(0, 0): "J", (0, 1): "Q", (-1, 1): "J"}, trainees=["Q1"], enemies=[(2, 1)],
                       deck=JACK_WINS)
    pending = play(state, "pass")
    assert pending.phase == r.DISPOSE
    moves = GAME.legal_moves(pending)
    assert len(moves) == 6 and all(len(m[1]) + len(m[2]) == 2 for m in moves)  # C(4, 2)
    after = play(pending, "dispose -1,1 T0")
    assert after.phase == r.TRAIN and r.population(after) == 2 and after.queens == 3 and after.jacks == 3


def test_R29_disposal_in_the_middle_of_phase_three_lets_the_later_enemies_step():
    cells = {**BASE, **{(1, 1): "F9D", (2, 1): "8C", (-1, 1): "4S", (-1, 2): "3S"}}
    state = make_state(cells, {(0, 0): "J", (0, 1): "Q", (-1, 1): "J"}, trainees=["Q1"],
                       enemies=[(2, 1), (-1, 2)], deck=JACK_WINS)
    pending = play(state, "pass")
    assert pending.phase == r.DISPOSE and pending.enemies[1] == r.position(-1, 2)  # not stepped yet
    after = play(pending, "dispose 0,1 T0")
    # the second enemy then stepped onto the jack at (-1,1) and lost to it
    assert after.enemies == enemies_at(after, (1, 1)) and person(after, -1, 1) == "J"
    assert after.deck[0] == idx("4S") and after.phase == r.TRAIN


# ----- building (R4, R31, R32, R33, R34) ---------------------------------------------------------

def test_R31_farm_only_on_a_diamond_land_cell_and_the_queen_goes_home():
    cells = {**BASE, **{(1, 1): "9D", (-1, 1): "9S"}}
    state = make_state(cells, {(1, 1): "Q", (-1, 1): "Q"})
    moves = [GAME.format_move(state, m) for m in GAME.legal_moves(state)]
    assert "farm 1,1" in moves and "farm -1,1" not in moves
    after = play(state, "farm 1,1")
    assert cell(after, 1, 1) == (r.FARM, idx("9D")) and after.queens == 3 and after.farm_deck == 4


def test_R4_at_most_five_farms():
    cells = {**BASE, **{(1, 1): "9D", (2, 1): "F2D", (3, 1): "F3D", (4, 1): "F4D", (5, 1): "F5D"}}
    state = make_state(cells, {(1, 1): "Q"})
    assert "farm 1,1" not in [GAME.format_move(state, m) for m in GAME.legal_moves(state)]


def test_R32_fort_not_next_to_the_king_completes_at_the_end_of_the_next_turn():
    cells = {**BASE, **{(1, 1): "9C"}}
    state = make_state(cells, {(1, 1): "Q", (0, 1): "Q"})
    moves = [GAME.format_move(state, m) for m in GAME.legal_moves(state)]
    assert "fort 1,1" in moves and "fort 0,1" not in moves
    state = play(state, "fort 1,1")                  # turn t
    assert person(state, 1, 1) == "Qb1" and state.fort_deck == 3
    assert not any(m[1] == r.position(1, 1) for m in GAME.legal_moves(play(state, "train none")) if m != r.PASS)
    state = play(state, "train none", "pass")        # end of turn t+1
    assert cell(state, 1, 1) == (r.FORT, idx("9C")) and person(state, 1, 1) is None and state.queens == 3


def test_R32_forts_and_markers_at_most_four():
    cells = {**BASE, **{(1, 1): "9C", (2, 1): "T2C", (3, 1): "T3C", (4, 1): "T4C", (5, 1): "8C"}}
    state = make_state(cells, {(1, 1): "Q", (5, 1): "Qb2"})
    assert "fort 1,1" not in [GAME.format_move(state, m) for m in GAME.legal_moves(state)]


def test_R33_demolition_leaves_rubble_and_the_card_leaves_the_game():
    cells = {**BASE, **{(1, 1): "T9C"}}
    state = make_state(cells, {(1, 1): "Q"})
    after = play(state, "demolish 1,1")
    assert cell(after, 1, 1) == (r.RUBBLE, r.NO_CARD) and after.fort_deck == 4 and after.queens == 4


def test_R34_people_and_enemies_cross_rubble():
    cells = {(0, 0): "K", (-1, 0): "F", (0, 1): "RR", (1, 0): "6C", (0, -1): "7C", (0, 2): "8C"}
    state = make_state(cells, {(0, -1): "Q", (0, 0): "J"}, enemies=[(0, 2)], deck=JACK_WINS)
    after = play(state, "pass")
    assert after.enemies == enemies_at(after, (0, 1))
    state = make_state(cells, {(0, 0): "Q"})
    assert "Q 0,0 N" in [GAME.format_move(state, m) for m in GAME.legal_moves(state)]


# ----- scoring (R35, R39) ----------------------------------------------------------------------------

def test_R39_score_counts_cards_people_buildings_rubble_and_minus_15_once():
    cells = {(0, 0): "K", (-1, 0): "F", (0, 1): "5C", (1, 0): "F6D", (0, -1): "RR", (1, 1): "T9C", (2, 1): "##3S"}
    state = make_state(cells, {(0, 0): "J", (0, 1): "Q", (1, 0): "Qb2"}, trainees=["J1"],
                       enemies=[(1, 1)])
    # cards 5C, 6D (under the farm), 9C (under the fort) [R35]: 6; queens 2, jack 2; farms 2;
    # fort 2; rubble -2; an enemy -15 (once)
    assert r.score(state) == 6 + 2 + 2 + 2 + 2 - 2 - 15


# ----- rendering and notation ------------------------------------------------------------------------

def test_render_shows_rows_of_cells_with_occupants_and_enemies():
    cells = {**BASE, **{(1, 1): "9D", (2, 1): "##4S"}}
    text = render(make_state(cells, {(0, 0): "J", (1, 1): "Qb2"}, enemies=[(0, 1)]))
    lines = text.splitlines()
    assert "K J" in text and "9♦ Qb2" in text and "5♣ E" in text and "##" in text
    assert lines[2].split()[0] == "1"  # north on top


def test_every_legal_move_formats_and_parses_back():
    rng = random.Random(5)
    state = GAME.initial_state(GAME.deal_from_seed(5))
    for _ in range(300):
        moves = GAME.legal_moves(state)
        if not moves:
            break
        for move in moves:
            assert GAME.parse_move(state, GAME.format_move(state, move)) == move
        state = GAME.apply(state, rng.choice(moves))


# ----- conservation over random playouts -----------------------------------------------------------------

def check_invariants(deal_ids: set, state: r.KingsReignState) -> None:
    grid = r.board(state.cells)
    cards = [card for kind, card in grid.values() if card != r.NO_CARD] + list(state.deck)
    assert len(cards) == len(set(cards)) and set(cards) <= deal_ids
    gone = sum(1 for pos, (kind, _) in grid.items() if kind == r.RUBBLE and pos != r.K - r.STRIDE)
    assert len(cards) + gone == len(deal_ids)
    queens_out = sum(1 for p in state.people if p >> 2 & 3 == r.QUEEN) + sum(1 for t in state.trainees if t >> 2 == 0)
    jacks_out = len(state.people) + len(state.trainees) - queens_out
    assert (state.queens + queens_out, state.jacks + jacks_out) == (4, 4)
    assert state.pool + len(state.enemies) == 2
    farms = sum(1 for kind, _ in grid.values() if kind == r.FARM)
    forts = sum(1 for kind, _ in grid.values() if kind == r.FORT)
    markers = sum(1 for p in state.people if p & 3)
    assert state.farm_deck + farms == 6 and state.fort_deck + forts + markers == 4 and farms <= 5
    assert forts + markers <= 4
    positions = [p >> 4 for p in state.people]
    assert len(positions) == len(set(positions)) and all(pos in grid for pos in positions)
    assert all(grid[pos][0] in (r.KING, r.LAND, r.FARM, r.RUBBLE) for pos in state.enemies)
    assert grid[r.K][0] == r.KING
    if state.phase in (r.TRAIN, r.ACT):
        assert r.population(state) <= 2 * farms
        assert all(p >> 4 not in state.enemies for p in state.people)
    assert (GAME.outcome(state) is None) == bool(GAME.legal_moves(state))


def test_conservation_of_every_card_group_over_random_playouts():
    rng = random.Random(26)
    endings = set()
    for _playout in range(2000):
        deal = GAME.deal_from_seed(rng.randrange(10_000))
        ids = {card_index(c) for c in deal}
        state = GAME.initial_state(deal)
        check_invariants(ids, state)
        for _ in range(120):  # the test's own turn cap (decisions)
            moves = GAME.legal_moves(state)
            if not moves:
                break
            # walk more than demolish, so playouts live long enough to meet every rule
            weights = [0.05 if m[0] == r.DEMOLISH else 1.0 for m in moves]
            state = GAME.apply(state, rng.choices(moves, weights)[0])
            check_invariants(ids, state)
            assert GAME.key(state) == GAME.key(r.KingsReignState(*state))
        outcome = GAME.outcome(state)
        if outcome:
            endings.add(outcome.reason)
            assert outcome.score == r.score(state)
    assert {Termination.KING_TAKEN, Termination.STARVED} <= endings


# ----- lines aimed at a perfect score (aim.py) ------------------------------------------------------------

def test_a_calm_step_never_brings_an_enemy():
    """The aimed search avoids enemies by taking calm steps only: check that against the
    rules for every step onto a card, over random playouts."""
    rng = random.Random(11)
    checked = 0
    for _playout in range(150):
        state = GAME.initial_state(GAME.deal_from_seed(rng.randrange(10_000)))
        for _ in range(80):
            moves = GAME.legal_moves(state)
            if not moves:
                break
            if state.phase == r.ACT and not state.enemies:
                grid = r.board(state.cells)
                for move in moves:
                    if move[0] != r.STEP:
                        continue
                    source, (kind, card) = move[1], grid[move[1] + r.DIRS[move[2]]]
                    if kind in (r.LAND, r.DOWN) and aim.calm(grid[source], card):
                        child = GAME.apply(state, move)
                        assert not child.enemies
                        checked += 1
            state = GAME.apply(state, rng.choice(moves))
    assert checked > 1000


def test_aimed_errands_replay_through_the_rules_and_wake_no_enemy():
    rng = random.Random(3)
    state = GAME.initial_state(GAME.deal_from_seed(3))
    for _ in range(20):
        successors = GAME.aimed_successors(state)
        assert successors
        for child, moves in successors:
            here = state
            for move in moves:
                assert move in GAME.legal_moves(here)
                here = GAME.apply(here, move)
            assert here == child and not child.enemies and child.phase in (r.TRAIN, r.OVER)
        state = rng.choice([child for child, _ in successors if child.phase == r.TRAIN])
    assert GAME.aimed_successors(make_state(BASE, {(0, 0): "J"}, enemies=[(1, 0)], phase=r.TRAIN)) == []


def test_a_face_down_card_is_stranded_when_no_calm_step_can_ever_reach_it():
    cells = {(0, 0): "K", (-1, 0): "F", (0, 1): "9C", (0, 2): "##AD", (1, 2): "##2S", (1, 0): "2C", (1, 1): "##3S",
             (0, -1): "5D"}
    state = make_state(cells, {(0, 0): "Q"}, phase=r.TRAIN)
    # 3S is turned calmly from 2C; AD and 2S lie only next to higher cards: stranded
    assert aim._stranded(state.cells) == (r.position(0, 2), r.position(1, 2))
    farmed = make_state({**cells, (0, 1): "F9D"}, {(0, 0): "Q"}, phase=r.TRAIN)  # opens AD, and AD opens 2S
    assert aim._stranded(farmed.cells) == ()
    assert aim.aimed_progress(farmed) > aim.aimed_progress(state)


def assert_a_proven_perfect_line(seed, budget):
    root = GAME.initial_state(GAME.deal_from_seed(seed))
    result = solve_cycles(GAME, root, "optimal", budget)
    assert result.verdict == WON and result.score == result.upper_bound == 85
    state = root
    for move in result.line:
        state = GAME.apply(state, move)
    assert state.ending == r.DISCOVERED and not state.enemies and r.score(state) == 85


@pytest.mark.slow
def test_a_perfect_line_that_only_a_wide_aimed_beam_finds():
    """Seed 4471: beams of width 4-256 miss its 85 and the complete search fills 12 GB before
    it refutes 85; the beam of width 1,024 finds it (a state budget: the same run anywhere)."""
    assert_a_proven_perfect_line(4471, Budget(max_states=2_000_000))


def test_optimal_search_finds_and_proves_a_perfect_line():
    assert_a_proven_perfect_line(0, Budget(time_limit=60))
