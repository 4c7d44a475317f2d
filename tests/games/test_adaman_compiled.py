"""The compiled Adaman search (games/adaman/_core.c, engine "compiled") against the
pure-Python engines it must copy (solver/search.py with games/adaman/rules.py and bounds.py).

The compiled engine runs the algorithm of engine "pruned" node for node, so on every
position, in both modes and under every budget, it must give the same verdict, score,
line and line score, stop for the same budget, and even count the same states, table
hits, table entries and depth.  Against engine "plain" (no bounds) the verdicts and
optimal scores must agree.  Every compiled line replays through the rules engine to the
outcome and score it claims.  Positions come from seeded deals played forward at random,
as in tests/solver/test_search.py.

With the Excuse the compiled search bounds the Excuse more closely than bounds.py (one
Capital card given, _core.c's excuse_gift, where bounds.py counts every Capital card as
owned): it is checked against the Python engines by its answers, and, with the bounds of
bounds.py (`compiled_excuse_fold`), node for node.
"""

from __future__ import annotations

import random

import pytest
from adaman_play import playout
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
from games.adaman import Adaman
from games.adaman.rules import EXCUSE_BIT
from games.base import EngineError
from games.decks import DECKTET
from solver.fair import SAMPLE_SETTINGS
from solver.search import LOST, WON, Budget, solve
from solver.verify import check_claim

pytest.importorskip("games.adaman._core", reason="the compiled engine is not built (pip install -e .)")

BASIC = Adaman()
PAWNS = make_game("adaman", ["pawns_courts=all"])
HARDER = make_game("adaman", ["pawns_courts=personalities:Watchman+Consul"])
EXCUSE = make_game("adaman", ["excuse"])
CARD = {card.name: card for card in DECKTET}
#: Seeds whose greedy playout wins (WIN_SEEDS of tests/solver/test_search.py): wins are rare.
WIN_SEEDS = (48, 88, 89, 190, 388, 399, 480, 587, 657, 766, 972, 1011, 1032, 1060, 1321, 1322)


def folded(variants):
    """The game whose compiled search bounds the Excuse as bounds.py does: node for node "pruned"."""
    game = make_game("adaman", variants)
    game.compiled_excuse_fold = True
    return game


EXCUSE_FOLD = folded(["excuse"])
#: Seeds whose greedy playout wins with the Excuse (WIN_SEEDS["excuse"] of tests/solver/test_search.py).
EXCUSE_SEEDS = (234, 323, 879, 1224, 1428, 1553, 1786, 1857, 2102, 2192)


def gift_left(state) -> bool:
    """The Excuse is still to come or in Resources: it may yet give a Capital card."""
    return bool((state.deal.undealt_mask[state.dealt] | state.resources) & EXCUSE_BIT)


def at_excuse_choice(game, state) -> bool:
    moves = game.legal_moves(state)
    return bool(moves) and not moves[0][1]


def positions(game, seeds, every: int = 3):
    """Every `every`-th position of each seeded playout, counted back from its end."""
    found = []
    for seed in seeds:
        path = playout(game, game.initial_state(game.deal_from_seed(seed)), random.Random(seed))
        found.extend(path[::-1][1::every])
    return found


# ----- node for node the pruned engine -----------------------------------------------------
@pytest.mark.parametrize("game,seeds,decided_optimal,wins", [
    (BASIC, range(30), 40, 10),
    (PAWNS, range(100, 112), 8, 10),
    (HARDER, range(200, 210), 8, 0),
    (EXCUSE_FOLD, range(12), 20, 10),
    (folded(["excuse", "pawns_courts=all"]), range(100, 106), 6, 10),
], ids=["basic", "pawns_courts=all", "pawns_courts=personalities", "excuse-fold", "excuse+pawns_courts=all-fold"])
def test_compiled_equals_pruned_on_positions_of_every_depth(game, seeds, decided_optimal, wins):
    """Positions from the last move back to the deal; a state budget keeps the Python side
    short, and where it runs out both engines must stop at the same node with the same line."""
    decided = {mode: 0 for mode in MODES}
    won = 0
    for state in positions(game, seeds):
        for mode in MODES:
            result = compare(game, state, mode, Budget(max_states=800))
            decided[mode] += not result.exhausted
            won += result.verdict == WON and not result.exhausted
    assert decided["optimal"] >= decided_optimal and decided["winnable"] >= 2 * decided_optimal
    assert won >= wins


def test_compiled_equals_pruned_on_whole_deals():
    """Whole deals, winnable mode, searched to the end (these finish in well under a second
    of Python), and the optimal mode on a deal with a short search."""
    for seed in (0, 1, 2, 5, 7, 9):
        state = BASIC.initial_state(BASIC.deal_from_seed(seed))
        assert not compare(BASIC, state, "winnable", Budget()).exhausted
    state = BASIC.initial_state(BASIC.deal_from_seed(3))
    compare(BASIC, state, "optimal", Budget(max_states=20_000))


def test_compiled_equals_pruned_on_a_whole_lost_deal():
    """Seed 20 has no win; its best loss, 61, comes from level probes, node for node."""
    state = BASIC.initial_state(BASIC.deal_from_seed(20))
    result = compare(BASIC, state, "optimal", Budget())
    assert (result.verdict, result.score) == (LOST, 61)


def test_compiled_equals_pruned_with_a_floor_on_the_optimum():
    """A floor (solve's at_least) around the optimum of won and lost positions and whole
    deals: node for node, the optimum where it reaches the floor, else a proven bound."""
    checked, refuted, lost = check_floors_on_positions(BASIC, positions(BASIC, range(12), every=4))
    assert checked >= 20 and refuted >= 30 and lost >= 10, (checked, refuted, lost)
    # whole deals, one floor above the optimum: won 87, lost 61 (no line below 62), lost 56
    for seed, at_least, bound, line_score in ((19, 88, 87, 78), (20, 62, 61, None), (163, 60, 59, 0)):
        state = BASIC.initial_state(BASIC.deal_from_seed(seed))
        result = compare(BASIC, state, "optimal", Budget(), at_least=at_least)
        assert (result.score, result.upper_bound, result.line_score) == (None, bound, line_score)


def test_compiled_equals_pruned_with_the_fair_samples_search_order():
    """The fair hint's samples search with the rounds' whole refutations left out of the
    table (solver.fair.SAMPLE_SETTINGS): node for node too, on positions under the samples'
    budget and on the whole lost deal 20."""
    decided = 0
    for state in positions(BASIC, range(6)):
        for mode in MODES:
            decided += not compare(BASIC, state, mode, Budget(max_states=2000), settings=SAMPLE_SETTINGS).exhausted
    assert decided >= 20, decided
    state = BASIC.initial_state(BASIC.deal_from_seed(20))
    result = compare(BASIC, state, "winnable", Budget(), settings=SAMPLE_SETTINGS)
    assert result.verdict == LOST and not result.exhausted


# ----- the Excuse ---------------------------------------------------------------------------
def same_answers(game, state, python, mode):
    """The compiled search (the Excuse bounded by its gift) answers as `python` did, a
    search that finished: the same verdict and, in optimal mode, optimum; its line replays."""
    compiled = solve(game, state, mode, "compiled", Budget())
    assert compiled.engine == "compiled" and not compiled.exhausted
    assert compiled.verdict == python.verdict, (game.variant, game.describe(state), mode)
    if mode == "optimal":
        assert compiled.score == compiled.line_score == python.score, (game.variant, game.describe(state))
    check_line(game, state, compiled)
    return compiled


def test_compiled_equals_pruned_on_whole_excuse_deals_with_the_fold():
    """Whole Excuse deals, node for node, where bounds.py's bounds are asked for; seed 2
    starts at an Excuse choice."""
    for seed in (13, 21):
        state = EXCUSE_FOLD.initial_state(EXCUSE_FOLD.deal_from_seed(seed))
        assert not compare(EXCUSE_FOLD, state, "optimal", Budget()).exhausted
    for seed in (0, 1, 2, 5):
        state = EXCUSE_FOLD.initial_state(EXCUSE_FOLD.deal_from_seed(seed))
        compare(EXCUSE_FOLD, state, "winnable", Budget(max_states=20_000))


def test_compiled_gives_the_answers_of_the_pruned_engine_on_whole_excuse_deals():
    for seed in (13, 21):
        state = EXCUSE.initial_state(EXCUSE.deal_from_seed(seed))
        python = solve(EXCUSE, state, "optimal", "pruned")
        for mode in MODES:
            same_answers(EXCUSE, state, python, mode)


@pytest.mark.parametrize("words,seeds,min_gifts", [
    (["excuse"], range(20), 8),
    (["excuse", "pawns_courts=all"], range(100, 110), 3),
    (["excuse", "pawns_courts=personalities:Watchman+Consul"], range(200, 210), 3),
], ids=["excuse", "excuse+pawns_courts=all", "excuse+pawns_courts=personalities"])
def test_compiled_gives_the_answers_of_the_pruned_engine_with_the_excuse(words, seeds, min_gifts):
    """Each playout's positions from its end back: against the Python search while it
    finishes within its budget, then against the compiled search with bounds.py's bounds
    (node for node the Python search, above), back to where the gift matters most."""
    game, fold = make_game("adaman", words), folded(words)
    checked = gifts = wins = 0
    for seed in seeds:
        path = playout(game, game.initial_state(game.deal_from_seed(seed)), random.Random(seed))
        engine = "pruned"
        for state in path[-2::-2]:
            if engine == "pruned":
                python = solve(game, state, "optimal", "pruned", Budget(max_states=1500))
                if python.exhausted:
                    engine = "compiled"
            if engine == "compiled":
                python = solve(fold, state, "optimal", "compiled", Budget(max_states=100_000))
                if python.exhausted:
                    break
            for mode in MODES:
                same_answers(game, state, python, mode)
            checked += 1
            gifts += gift_left(state)
            wins += python.verdict == WON
    assert checked >= 20 and gifts >= min_gifts and wins >= 3


def test_compiled_gives_the_answers_of_the_plain_engine_at_excuse_choices():
    found = 0
    for seed in range(200):
        for state in playout(EXCUSE, EXCUSE.initial_state(EXCUSE.deal_from_seed(seed)), random.Random(seed)):
            if at_excuse_choice(EXCUSE, state) and plain_answer_checked(EXCUSE, state, Budget(max_states=3000)):
                found += 1
        if found >= 5:
            break
    assert found >= 5


# ----- the plain baseline in C, node for node the plain engine ------------------------------
@pytest.mark.parametrize("game,seeds,min_decided", [(BASIC, range(12), 10), (PAWNS, range(100, 106), 4),
                                                    (EXCUSE, range(12), 10)],
                         ids=["basic", "pawns_courts=all", "excuse"])
def test_compiled_plain_equals_plain_on_positions_of_every_depth(game, seeds, min_decided):
    """Engine "compiled-plain" is the baseline of the side-by-side runs: it must be
    the plain engine, every legal move in rule order and no bound, state for state; where
    the budget runs out, both stop at the same node with the same line."""
    decided = {mode: 0 for mode in MODES}
    for state in positions(game, seeds, every=2):
        for mode in MODES:
            result = compare(game, state, mode, Budget(max_states=3000), "compiled-plain")
            decided[mode] += not result.exhausted
    assert decided["optimal"] >= min_decided and decided["winnable"] >= min_decided


def test_compiled_plain_agrees_under_every_small_budget():
    check_every_small_budget(BASIC, positions(BASIC, range(48, 60), every=2), engine="compiled-plain")


def test_compiled_plain_decides_a_whole_deal_the_pruned_search_decides():
    """Seed 14's win, found by the plain search from the deal in about 100,000 states (the
    pruned one needs about 100; the optimum is out of the plain search's reach)."""
    state = BASIC.initial_state(BASIC.deal_from_seed(14))
    plain = solve(BASIC, state, "winnable", "compiled-plain", Budget(max_states=1_000_000))
    pruned = solve(BASIC, state, "winnable", "compiled")
    assert plain.verdict == pruned.verdict == WON and not plain.exhausted
    assert plain.stats.states > pruned.stats.states


# ----- the answers of the plain engine ------------------------------------------------------
@pytest.mark.parametrize("game,seeds,min_checked,min_wins", [
    (BASIC, range(40, 60), 20, 0), (BASIC, WIN_SEEDS, 20, 3), (PAWNS, range(120, 140), 20, 3),
    (EXCUSE, EXCUSE_SEEDS, 15, 10),
], ids=["basic", "basic-wins", "pawns_courts=all", "excuse-wins"])
def test_compiled_gives_the_answers_of_the_plain_engine(game, seeds, min_checked, min_wins):
    """Plain DFS with no bound or order: the same verdict and optimal score, on the positions
    of each playout from its end back to where the plain search outgrows its budget."""
    checked = wins = 0
    for seed in seeds:
        path = playout(game, game.initial_state(game.deal_from_seed(seed)), random.Random(seed))
        for state in path[-2::-2]:
            plain = plain_answer_checked(game, state, Budget(max_states=1000))
            if plain is None:
                break
            checked += 1
            wins += plain.verdict == WON
    assert checked >= min_checked and wins >= min_wins


def test_compiled_on_finished_positions():
    """Terminal roots: Example C (utter loss in set-up, 0) and Example D (no move, 0)."""
    def start(top):
        first = [CARD[name] for name in top]
        return BASIC.initial_state(tuple(first + [c for c in BASIC.cards if c not in first]))

    c = start(["Desert", "Origin", "Journey", "Mountain", "Battle", "Author", "Painter", "Ace of Suns",
               "Savage", "Sailor", "Soldier", "Lunatic"])
    d = start(["Huntress", "Bard", "Sea", "End", "Calamity", "Ace of Moons", "Ace of Suns", "Ace of Waves",
               "Ace of Leaves", "Ace of Wyrms"])
    for state in (c, d):
        result = compare(BASIC, state, "optimal", Budget())
        assert (result.verdict, result.score, result.line) == (LOST, 0, [])
        assert compare(BASIC, state, "winnable", Budget()).verdict == LOST


# ----- budgets ------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", (0, 1, 2))
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("budget", [Budget(max_states=50), Budget(max_table=5), Budget(time_limit=0.001)],
                         ids=["max_states", "max_table", "time_limit"])
def test_exhausted_budget_is_undecided_never_lost(seed, mode, budget):
    check_exhausted_budget(BASIC, seed, mode, budget)


def test_budget_messages_match_the_python_engine():
    # seed 3: its optimum takes about 0.2 s, so the time limit of 0.05 s comes first (seed
    # 0's takes less)
    assert check_budget_messages(BASIC, 3).stats.unique == 1000


def test_every_small_budget_agrees_with_the_python_engine():
    """Budgets from nothing to more than enough: the same stop, the same line."""
    check_every_small_budget(BASIC, positions(BASIC, range(48, 60), every=2))
    check_every_small_budget(EXCUSE_FOLD, positions(EXCUSE_FOLD, range(48, 60), every=2))


@pytest.mark.parametrize("seed", (3, 11))
@pytest.mark.parametrize("mode", MODES)
def test_exhausted_budget_with_the_excuse_is_undecided_never_lost(seed, mode):
    check_exhausted_budget(EXCUSE, seed, mode, Budget(max_states=2000))


# ----- every variant, auto included -----------------------------------------------------------
@pytest.mark.parametrize("words", [["excuse"], ["excuse", "pawns_courts=all"],
                                   ["excuse", "pawns_courts=personalities:Consul"]])
def test_engine_auto_is_compiled_with_the_excuse(words):
    game = make_game("adaman", words)
    state = game.initial_state(game.deal_from_seed(21))
    assert solve(game, state, "winnable", "auto").engine == "compiled"
    assert solve(game, state, "winnable", "compiled-plain", Budget(max_states=10)).engine == "compiled-plain"


# ----- what it does not cover ---------------------------------------------------------------
def test_other_games_are_refused():
    royal = make_game("royal-assassin", ["redeal"])  # its own compiled engine does not cover V7
    with pytest.raises(ValueError, match="redeal"):
        solve(royal, royal.initial_state(royal.deal_from_seed(0)), "winnable", "compiled")
    standard = make_game("royal-assassin")
    with pytest.raises(EngineError, match="no compiled plain engine"):
        solve(standard, standard.initial_state(standard.deal_from_seed(0)), "winnable", "compiled-plain")


# ----- the 200 deals -------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("first", range(0, 200, 50))
def test_compiled_gives_the_answers_of_the_python_engine_on_200_excuse_deals(first):
    """Seeds 0-199 of the Excuse, 50 a test: every compiled optimum (60 s a deal) replayed;
    against the Python search where it decides within 5,000 states, and against the
    compiled search with bounds.py's bounds (node for node the Python search) where it
    decides within 20 s.  bench/results/adaman-excuse/ has the timed runs against the Python
    engine."""
    counts = {"compiled": 0, "python": 0, "fold": 0}
    for seed in range(first, first + 50):
        state = EXCUSE.initial_state(EXCUSE.deal_from_seed(seed))
        compiled = solve(EXCUSE, state, "optimal", "compiled", Budget(time_limit=60))
        if compiled.line_score is not None:
            check_claim(EXCUSE, state, compiled.line, compiled.verdict == WON, compiled.line_score)
        if compiled.exhausted:
            continue
        counts["compiled"] += 1
        for name, answer in (("python", solve(EXCUSE, state, "optimal", "pruned", Budget(max_states=5000))),
                             ("fold", solve(EXCUSE_FOLD, state, "optimal", "compiled", Budget(time_limit=20)))):
            if not answer.exhausted:
                assert (compiled.verdict, compiled.score) == (answer.verdict, answer.score), (seed, name)
                counts[name] += 1
    print(f"Excuse seeds {first}-{first + 49}: decided {counts}")
    assert counts["compiled"] >= 45 and counts["fold"] >= 25


def test_a_full_table_that_replaces_entries_keeps_every_answer():
    check_a_full_table_that_replaces_keeps_the_answers(BASIC, (14,))
