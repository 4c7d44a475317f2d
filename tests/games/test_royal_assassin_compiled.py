"""The compiled Royal Assassin search (games/royal_assassin/_core.c, engine "compiled")
against the pure-Python engines it must copy (solver/search.py with games/royal_assassin/rules.py
and bounds.py).

The compiled engine runs the algorithm of engine "pruned" node for node, so on every
position, in both modes and under every budget, it must give the same verdict, score,
line and line score, stop for the same budget, and even count the same states, table
hits, table entries and depth.  Against engine "plain" (no bounds, every legal move) the
verdicts and optimal scores must agree.  Every compiled line replays through the rules
engine to the outcome and score it claims.  Every variant the compiled engine covers
(all but V7 `redeal`) is checked the same way; positions come from seeded deals played
forward at random.
"""

from __future__ import annotations

import random

import pytest
from compiled_checks import (
    MODES,
    check_a_full_table_that_replaces_keeps_the_answers,
    check_budget_messages,
    check_every_small_budget,
    check_exhausted_budget,
    check_floors_on_positions,
    check_line,
    compare,
    plain_answer_checked,
)

from games import make_game
from games.base import EngineError
from games.royal_assassin import JOKER, NO_CARD, RoyalAssassin, compiled
from solver.fair import SAMPLE_SETTINGS
from solver.search import LOST, WON, Budget, solve

core = pytest.importorskip("games.royal_assassin._core",
                           reason="the compiled engine is not built (pip install -e .)")

BASE = RoyalAssassin()
#: Every variant the compiled engine covers, alone, and all of them together.
COVERED = {
    "V1": ["two_jokers"],
    "V2": ["fixed_royals=4"],
    "V3": ["ace_first_play"],
    "V4": ["discard_on_equal_only"],
    "V5": ["royal_beneath"],
    "V6": ["joker_dies"],
    "V1+V6": ["two_jokers", "joker_dies"],
    "V1-V6": ["two_jokers", "fixed_royals=3", "ace_first_play", "discard_on_equal_only", "royal_beneath",
              "joker_dies"],
}


def playout(game, seed: int) -> list:
    """The positions of one random line of a seeded deal, from the deal to the end."""
    rng = random.Random(seed)
    state = game.initial_state(game.deal_from_seed(seed))
    path = [state]
    while game.outcome(state) is None:
        state = game.apply(state, rng.choice(game.legal_moves(state)))
        path.append(state)
    return path


def positions(game, seeds, every: int = 3) -> list:
    """Every `every`-th position of each seeded playout, counted back from its end."""
    found = []
    for seed in seeds:
        found.extend(playout(game, seed)[::-1][::every])
    return found


def c_key(game, state, reserve_mask=None):
    """The key the compiled search packs for `state` (reserve as a mask over stock indices)."""
    position = compiled.position(state)
    if reserve_mask is not None:
        position = position._replace(reserve=reserve_mask)
    return core.key(position, compiled.tables(game.rules))


# ----- node for node the pruned engine -----------------------------------------------------
@pytest.mark.parametrize("seeds,decided,wins,losses", [(range(12), 60, 40, 10)])
def test_compiled_equals_pruned_on_positions_of_every_depth(seeds, decided, wins, losses):
    """Positions from the last move back to the deal, both modes; where the state budget
    runs out both engines must stop at the same node with the same line."""
    counts = {"decided": 0, "won": 0, "lost": 0}
    for state in positions(BASE, seeds):
        for mode in MODES:
            for budget in (Budget(max_states=1500), Budget(max_states=97)):
                result = compare(BASE, state, mode, budget)
                counts["decided"] += not result.exhausted
                counts["won"] += result.verdict == WON and not result.exhausted
                counts["lost"] += result.verdict == LOST and not result.exhausted
    assert counts["decided"] >= decided and counts["won"] >= wins and counts["lost"] >= losses


def test_compiled_equals_pruned_with_a_floor_on_the_optimum():
    """A floor (solve's at_least) around the optimum of won and lost positions: node for
    node, the optimum where it reaches the floor, else a proven bound."""
    checked, refuted, lost = check_floors_on_positions(BASE, positions(BASE, range(6), every=4))
    assert checked >= 20 and refuted >= 20 and lost >= 5, (checked, refuted, lost)


def test_compiled_equals_pruned_with_the_fair_samples_search_order():
    """The fair hint's samples search with the rounds' whole refutations left out of the
    table (solver.fair.SAMPLE_SETTINGS): node for node too, under the samples' budget."""
    decided = 0
    for state in positions(BASE, range(4)):
        for mode in MODES:
            decided += not compare(BASE, state, mode, Budget(max_states=2000), settings=SAMPLE_SETTINGS).exhausted
    assert decided >= 20, decided


@pytest.mark.parametrize("name", list(COVERED))
def test_compiled_equals_pruned_in_every_covered_variant(name):
    game = make_game("royal-assassin", COVERED[name])
    decided = 0
    for state in positions(game, range(100, 104)):
        for mode in MODES:
            decided += not compare(game, state, mode, Budget(max_states=800)).exhausted
    assert decided >= 20


def test_compiled_equals_pruned_on_whole_deals():
    """Whole deals searched to the end, both modes, base game and variants."""
    for seed in (0, 1, 6, 13, 20, 27):
        state = BASE.initial_state(BASE.deal_from_seed(seed))
        for mode in MODES:
            result = compare(BASE, state, mode, Budget())
            assert not result.exhausted and result.verdict == WON
    for words, seed in ((["two_jokers"], 11), (["royal_beneath"], 15), (["joker_dies"], 5),
                        (["discard_on_equal_only"], 27), (["ace_first_play"], 20), (["fixed_royals=4"], 11)):
        game = make_game("royal-assassin", words)
        state = game.initial_state(game.deal_from_seed(seed))
        for mode in MODES:
            assert not compare(game, state, mode, Budget()).exhausted


def test_compiled_equals_pruned_on_a_lost_deal_under_a_budget():
    """Seed 8 of two_jokers is lost (10 Royals at best); 20,000 states of it, both modes."""
    game = make_game("royal-assassin", ["two_jokers"])
    state = game.initial_state(game.deal_from_seed(8))
    for mode in MODES:
        compare(game, state, mode, Budget(max_states=20_000))


@pytest.mark.slow
@pytest.mark.parametrize("name", ["base"] + list(COVERED))
def test_compiled_equals_pruned_on_many_positions(name):
    game = make_game("royal-assassin", COVERED.get(name, []))
    for state in positions(game, range(200, 215), every=4):
        for mode in MODES:
            for budget in (Budget(max_states=4000), Budget(max_states=333), Budget(max_table=200)):
                compare(game, state, mode, budget)


# ----- the answers of the plain engine ------------------------------------------------------
@pytest.mark.parametrize("words", [[], ["two_jokers"], ["royal_beneath"], ["joker_dies", "ace_first_play"],
                                   ["discard_on_equal_only"]], ids=["base", "V1", "V5", "V3+V6", "V4"])
def test_compiled_gives_the_answers_of_the_plain_engine(words):
    """Plain DFS over every legal move, no bound: the same verdict and optimal score, on the
    positions of each playout from its end back to where the plain search outgrows its budget.

    D2 positions included: `search_moves` drops J(X) / JR(X) at D2 because the D1 position
    before the turn offers them, which holds for every D2 position a search reaches but not
    for a D2 root, so the root keeps every legal move (V4, seed 311, holding 10H with the
    Joker set aside: only J(C) first wins, and the pruned engines once said LOST 11)."""
    game = make_game("royal-assassin", words)
    checked = 0
    seen = set()
    for seed in range(300, 312):
        path = playout(game, seed)
        for state in path[-2::-1]:
            plain = plain_answer_checked(game, state, Budget(max_states=3000))
            if plain is None:
                break
            checked += 1
            seen.add((plain.verdict, plain.score))
    assert checked >= 20 and len(seen) >= 2


def test_compiled_on_finished_positions():
    """Terminal roots: a lost game after E and a won game."""
    path = playout(BASE, 3)
    end = path[-1]
    for state in (end,):
        outcome = BASE.outcome(state)
        result = compare(BASE, state, "optimal", Budget())
        assert (result.score, result.line) == (outcome.score, [])
        compare(BASE, state, "winnable", Budget())
    state = BASE.initial_state(BASE.deal_from_seed(2))
    won = BASE.apply_line(state, solve(BASE, state, "winnable", "compiled").line)
    assert BASE.outcome(won).won
    result = compare(BASE, won, "optimal", Budget())
    assert (result.verdict, result.score, result.line) == (WON, 12, [])


# ----- the key ------------------------------------------------------------------------------
def neighbourhood(game, state, depth: int) -> list:
    """Every position within `depth` legal moves of `state` (transpositions included)."""
    found, frontier = [state], [state]
    for _ in range(depth):
        frontier = [game.apply(s, m) for s in frontier for m in game.legal_moves(s)]
        found.extend(frontier)
    return found


@pytest.mark.parametrize("words", [[], ["two_jokers"], ["royal_beneath", "joker_dies"]],
                         ids=["base", "V1", "V5+V6"])
def test_compiled_keys_are_equal_exactly_when_python_keys_are(words):
    game = make_game("royal-assassin", words)
    states = []
    for seed in range(10):
        path = playout(game, seed)
        for start in path[::7]:
            states.extend(neighbourhood(game, start, 3))
    by_python, by_c = {}, {}
    for state in states:
        python_key, compiled_key = game.key(state), c_key(game, state)
        assert by_python.setdefault(python_key, compiled_key) == compiled_key
        assert by_c.setdefault(compiled_key, python_key) == python_key
    assert len(by_python) < len(states)  # some transpositions were met


def test_a_lone_joker_in_the_reserve_packs_the_same_from_either_stock_place():
    """V1: the reserve is a card sequence; the two Jokers are alike, so a Joker at either of
    their stock indices is the same reserve when no reserve card lies between them."""
    game = make_game("royal-assassin", ["two_jokers"])
    state = game.initial_state(game.deal_from_seed(0))
    stock = [card for card in state.stock if card != JOKER]
    stock[10:10] = [JOKER]
    stock[12:12] = [JOKER]  # Jokers at 10 and 12, a number card or Royal at 11
    state = state._replace(stock=tuple(stock), pos=13, reserve=(), turned=NO_CARD)
    assert stock[10] == stock[12] == JOKER and stock[11] != JOKER and stock[3] != JOKER
    key = lambda *bits: c_key(game, state, sum(1 << b for b in bits))
    assert key(3, 12) == key(3, 10) != key(3, 11, 10)
    assert key(3, 11, 12) != key(3, 10, 11)  # [c3, c11, JK] and [c3, JK, c11]
    assert key(3, 10, 12) != key(3, 10)


# ----- budgets ------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", (3, 8))
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("budget", [Budget(max_states=50), Budget(max_table=5), Budget(time_limit=0.001)],
                         ids=["max_states", "max_table", "time_limit"])
def test_exhausted_budget_is_undecided_never_lost(seed, mode, budget):
    check_exhausted_budget(BASE, seed, mode, budget)


def test_budget_messages_match_the_python_engine():
    check_budget_messages(BASE, 406)


def test_every_small_budget_agrees_with_the_python_engine():
    """Budgets from nothing to more than enough: the same stop, the same line."""
    check_every_small_budget(BASE, positions(BASE, range(48, 70), every=2))


# ----- what it does not cover ---------------------------------------------------------------
def test_redeal_and_a_class_declaring_no_compiled_engine_are_refused_and_auto_falls_back():
    redeal = make_game("royal-assassin", ["redeal"])
    state = redeal.initial_state(redeal.deal_from_seed(0))
    with pytest.raises(EngineError, match="redeal"):
        solve(redeal, state, "optimal", "compiled")
    assert solve(redeal, state, "winnable", "auto").engine == "pruned"

    class NoJoker(RoyalAssassin):
        compiled = False  # its rules are not those the compiled engine copies

        def legal_moves(self, state):
            return [m for m in super().legal_moves(state) if not m.startswith("J")]

    game = NoJoker()
    with pytest.raises(EngineError, match="no compiled engine"):
        solve(game, game.initial_state(game.deal_from_seed(0)), "winnable", "compiled")
    assert solve(BASE, BASE.initial_state(BASE.deal_from_seed(0)), "winnable", "auto").engine == "compiled"


def test_a_turned_card_at_the_root_still_lets_the_joker_be_placed_first():
    """V4, seed 311, move 78 of the playout: holding 10H with the Joker set aside, only J(C)
    before playing the card wins.  Inside a search J at D2 is dropped (the position before
    the turn offered it); at the root it must not be, in either engine."""
    game = make_game("royal-assassin", ["discard_on_equal_only"])
    state = playout(game, 311)[78]
    assert state.turned != NO_CARD and "J(C)" in game.legal_moves(state)
    plain = solve(game, state, "optimal", "plain", Budget(max_states=3000))
    assert (plain.verdict, plain.score) == (WON, 12) and not plain.exhausted
    for engine in ("pruned", "compiled"):
        result = solve(game, state, "optimal", engine)
        assert (result.verdict, result.score, result.line[0]) == (WON, 12, "J(C)")
        check_line(game, state, result)


def test_a_full_table_that_replaces_entries_keeps_every_answer():
    check_a_full_table_that_replaces_keeps_the_answers(BASE, (131, 80))  # lost, won


def test_a_table_full_at_its_memory_cap_replaces_entries_and_keeps_every_answer():
    """At 1 MB the table's last growth stops short of double (14,377 slots of 40 bytes, not a
    power of two) and it fills at about 10,000 entries; replacing from there, seed 149 (a lost
    deal whose whole search keeps 144,680) gets the uncapped answers in both modes, searching
    again what it forgot."""
    state = BASE.initial_state(BASE.deal_from_seed(149))
    for mode in MODES:
        full = solve(BASE, state, mode, "compiled")
        capped = solve(BASE, state, mode, "compiled", Budget(max_memory_mb=1, replace_when_full=True))
        assert (capped.verdict, capped.score, capped.exhausted) == (full.verdict, full.score, "")
        assert capped.stats.unique < 15_000 < full.stats.unique and capped.stats.states > full.stats.states
        check_line(BASE, state, capped)
