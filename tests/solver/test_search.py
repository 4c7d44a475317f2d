"""The solver against an independent brute-force minimax, its lines against the replay
verifier, and its budgets (solver/search.py, solver/verify.py; Adaman as the test game).

The brute force below knows nothing but the Game contract: it recurses over legal_moves /
apply / outcome with no table, no bound and no move order.  Positions small enough for it
are reached by playing seeded deals forward and walking back from the end.
"""

from __future__ import annotations

import os
import random

import pytest
from adaman_play import playout

from games import make_game
from games.adaman import Adaman
from games.base import GameType, UnsupportedGame
from games.decks import DECKTET
from solver.search import LEAST_SHARE, LOST, UNDECIDED, WON, Budget, SearchSettings, _Search, shared_budgets, solve
from solver.verify import check_claim, replay

BASIC = Adaman()
EXCUSE = make_game("adaman", ["excuse"])
PAWNS = make_game("adaman", ["pawns_courts=all"])
CARD = {card.name: card for card in DECKTET}
ENGINES = ("plain", "pruned")


class TooBig(Exception):
    """The brute force passed its node budget: the position is too large to check."""


def brute_force(game, state, cap: int):
    """(best score, winnable, distinct keys reached), by plain recursion over the tree.

    Raises TooBig once more than `cap` nodes are visited.
    """
    nodes = [0]
    keys = set()

    def walk(state):
        nodes[0] += 1
        if nodes[0] > cap:
            raise TooBig
        keys.add(game.key(state))
        outcome = game.outcome(state)
        if outcome is not None:
            assert game.legal_moves(state) == []
            return outcome.score, outcome.won
        moves = game.legal_moves(state)
        assert moves, "a position with no move must be finished"
        best, win = -1, False
        for move in moves:
            score, won = walk(game.apply(state, move))
            best, win = max(best, score), win or won
        return best, win

    best, win = walk(state)
    return best, win, len(keys), nodes[0]


def small_positions(game, seeds, cap: int):
    """For each seeded deal, the earliest position of a playout whose whole tree fits `cap`
    nodes, with its brute-force answer: (state, best, winnable, distinct keys, nodes)."""
    found, seen = [], set()
    for seed in seeds:
        rng = random.Random(seed)
        path = playout(game, game.initial_state(game.deal_from_seed(seed)), rng, greedy=seed % 3 != 0)
        best = None
        for state in reversed(path):
            try:
                answer = brute_force(game, state, cap)
            except TooBig:
                break
            best = (state, *answer)
        if best is not None and game.key(best[0]) not in seen:
            seen.add(game.key(best[0]))
            found.append(best)
    return found


def start(game, top):
    first = [CARD[name] for name in top]
    return game.initial_state(tuple(first + [c for c in game.cards if c not in first]))


def check_against_brute_force(game, state, best, win, distinct):
    """Both engines, both modes: the verdicts and optimum of the brute force, and lines that
    replay to what the solver claims."""
    for engine in ENGINES:
        result = solve(game, state, mode="optimal", engine=engine)
        assert result.verdict == (WON if win else LOST), engine
        assert result.score == best, engine
        assert result.line_score == best, engine
        assert not result.exhausted
        check_claim(game, state, result.line, win, best)
        stats = result.stats
        assert stats.states > 0 and 0 <= stats.unique <= stats.states
        assert stats.unique <= distinct  # table entries are reachable states, each once
        if engine == "plain":
            # No bound: every reachable state is expanded exactly once and kept in the table.
            assert stats.unique == stats.states
            if best < game.max_score:
                assert stats.unique == distinct

        result = solve(game, state, mode="winnable", engine=engine)
        assert result.verdict == (WON if win else LOST), engine
        assert not result.exhausted
        assert result.stats.states > 0 and result.stats.unique <= result.stats.states
        if win:
            check_claim(game, state, result.line, True, result.line_score)
        elif result.line_score is not None:
            check_claim(game, state, result.line, False, result.line_score)


# ----- the solver equals the brute force ---------------------------------------------------
# Seeds whose greedy playout (`playout`, greedy=True) wins, found once by trying seeds in order:
# random play seldom wins, so these make sure the sample holds winnable positions.
WIN_SEEDS = {
    "basic": (48, 88, 89, 190, 388, 399, 480, 587, 657, 766, 972, 1011, 1032, 1060, 1321, 1322, 1335, 1520,
              1633, 1890, 1903, 1946, 2015, 2093, 2231, 2298, 2327, 2445, 2638, 2738, 2781, 2928, 2950),
    "excuse": (234, 323, 879, 1224, 1428, 1553, 1786, 1857, 2102, 2192),
}


def test_solver_matches_brute_force_on_small_basic_positions():
    positions = small_positions(BASIC, list(range(50)) + list(WIN_SEEDS["basic"][:16]), cap=2500)
    assert len(positions) >= 60
    # the sample must hold wins, plain losses and non-trivial trees
    assert sum(p[2] for p in positions) >= 8
    assert sum(not p[2] and p[1] > 0 for p in positions) >= 8
    assert sum(p[4] >= 500 for p in positions) >= 15
    for state, best, win, distinct, _ in positions:
        check_against_brute_force(BASIC, state, best, win, distinct)


def test_solver_matches_brute_force_on_small_excuse_positions():
    positions = small_positions(EXCUSE, list(range(500, 520)) + list(WIN_SEEDS["excuse"]), cap=2000)
    assert len(positions) >= 20 and sum(p[2] for p in positions) >= 3
    for state, best, win, distinct, _ in positions:
        check_against_brute_force(EXCUSE, state, best, win, distinct)


def test_solver_matches_brute_force_on_small_pawns_courts_positions():
    positions = small_positions(PAWNS, range(30), cap=2000)
    assert len(positions) >= 20 and sum(p[2] for p in positions) >= 5
    for state, best, win, distinct, _ in positions:
        check_against_brute_force(PAWNS, state, best, win, distinct)


def test_solver_matches_brute_force_at_excuse_choices():
    """Positions whose decision is the Excuse choice (§9.1) are solved like any other."""
    found = 0
    for seed in range(400):
        rng = random.Random(seed)
        for state in playout(EXCUSE, EXCUSE.initial_state(EXCUSE.deal_from_seed(seed)), rng, greedy=True):
            moves = EXCUSE.legal_moves(state)
            late = len(state.deal.cards) - state.dealt <= 8
            if late and moves and not moves[0][1]:
                try:
                    best, win, distinct, _ = brute_force(EXCUSE, state, 3000)
                except TooBig:
                    continue
                check_against_brute_force(EXCUSE, state, best, win, distinct)
                found += 1
        if found >= 5:
            break
    assert found >= 5


def test_a_floor_gives_the_brute_force_optimum_where_it_reaches_it_else_a_bound_above_it():
    """solve's at_least against the brute force: the optimum at or below the floor; above
    it a bound from the optimum to just below the floor (or the optimum, where the best
    line meets the bound), with a line that replays."""
    positions = small_positions(BASIC, range(30), cap=2500)
    refuted = 0
    for state, best, win, _, _ in positions:
        for at_least in (best - 1, best, best + 1, best + 3):
            result = solve(BASIC, state, "optimal", "pruned", at_least=max(0, at_least))
            assert result.verdict == (WON if win else LOST) and not result.exhausted
            if result.line_score is not None:
                check_claim(BASIC, state, result.line, result.verdict == WON, result.line_score)
            if at_least <= best or result.score is not None:
                assert (result.score, result.upper_bound) == (best, None), at_least
            else:
                assert best <= result.upper_bound < at_least
                refuted += 1
    assert refuted >= 30, refuted
    with pytest.raises(ValueError):
        solve(BASIC, positions[0][0], "winnable", "pruned", at_least=10)


def test_solver_on_finished_positions():
    """Terminal roots: Example C (utter loss in set-up, 0) and Example D (no move, 0)."""
    c = start(BASIC, ["Desert", "Origin", "Journey", "Mountain", "Battle", "Author", "Painter", "Ace of Suns",
                      "Savage", "Sailor", "Soldier", "Lunatic"])
    d = start(BASIC, ["Huntress", "Bard", "Sea", "End", "Calamity", "Ace of Moons", "Ace of Suns", "Ace of Waves",
                      "Ace of Leaves", "Ace of Wyrms"])
    for state in (c, d):
        for engine in ENGINES:
            result = solve(BASIC, state, mode="optimal", engine=engine)
            assert (result.verdict, result.score, result.line) == (LOST, 0, [])
            assert solve(BASIC, state, mode="winnable", engine=engine).verdict == LOST


@pytest.mark.slow
@pytest.mark.parametrize("game", [BASIC, EXCUSE, PAWNS], ids=["basic", "excuse", "pawns_courts=all"])
def test_solver_matches_brute_force_on_larger_positions(game):
    seeds = list(range(1000, 1300)) + list(WIN_SEEDS.get(game.variant, WIN_SEEDS["basic"] if game is BASIC else ()))
    positions = small_positions(game, seeds, cap=20000)
    for state, best, win, distinct, _ in positions:
        check_against_brute_force(game, state, best, win, distinct)


# ----- budgets ------------------------------------------------------------------------------
HARD_SEEDS = (0, 1, 2)


@pytest.mark.parametrize("seed", HARD_SEEDS)
@pytest.mark.parametrize("mode", ["optimal", "winnable"])
@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("budget", [Budget(max_states=50), Budget(max_table=5), Budget(time_limit=0.01)],
                         ids=["max_states", "max_table", "time_limit"])
def test_exhausted_budget_on_a_hard_deal_is_undecided_never_lost(seed, mode, engine, budget):
    """A search stopped by its budget proves nothing: UNDECIDED, or WON only with a line that
    really wins (Freecell Solver's rule: 'could not decide' is never 'unsolvable')."""
    state = BASIC.initial_state(BASIC.deal_from_seed(seed))
    result = solve(BASIC, state, mode=mode, engine=engine, budget=budget)
    assert result.verdict in (UNDECIDED, WON)  # a full deal is never refuted within such a budget
    assert result.stats.states > 0
    if result.verdict == UNDECIDED:
        assert result.exhausted
    if result.exhausted:
        assert result.score is None
    if result.verdict == WON:
        check_claim(BASIC, state, result.line, True, result.line_score)
    elif result.line_score is not None:
        check_claim(BASIC, state, result.line, False, result.line_score)


def budget_positions(cap: int, count: int):
    positions = small_positions(BASIC, list(range(200, 240)) + list(WIN_SEEDS["basic"][16:]), cap=cap)
    positions = [p for p in positions if p[4] >= 30]
    positions.sort(key=lambda p: (not p[2], -p[4]))
    wins = [p for p in positions if p[2]][: (count + 1) // 2]
    return wins + [p for p in positions if not p[2]][: count - len(wins)]


def check_budget_sweep(state, best, win, limits, field):
    """Every budget, from nothing to more than enough: no exception, never a wrong claim."""
    for engine in ENGINES:
        for mode in ("optimal", "winnable"):
            for limit in limits:
                result = solve(BASIC, state, mode=mode, engine=engine, budget=Budget(**{field: limit}))
                where = f"{engine} {mode} {field}={limit}"
                if result.exhausted:  # a verdict only where proven: a win found, no win anywhere
                    assert result.verdict in (UNDECIDED, WON if win else LOST), where
                    assert result.score is None, where
                else:
                    assert result.verdict == (WON if win else LOST), where
                    if mode == "optimal":
                        assert result.score == best, where
                if result.upper_bound is not None:  # an unproven optimum's bound holds
                    assert result.score is None and mode == "optimal", where
                    assert max(best, result.line_score or 0) <= result.upper_bound, where
                if result.verdict == WON:
                    assert win, where
                    check_claim(BASIC, state, result.line, True, result.line_score)
                elif result.line_score is not None:
                    outcome = replay(BASIC, state, result.line)
                    assert outcome.ok and outcome.outcome is not None, where
                    assert outcome.outcome.score == result.line_score, where


def sweep(full: int, every: bool) -> list[int]:
    """Budgets from 0 to beyond `full`: all of them, or the small ones, the ones around
    `full` (where a search ends and its line is built) and a stride between."""
    if every:
        return list(range(full + 3))
    return sorted(set(range(12)) | set(range(max(0, full - 12), full + 3)) | set(range(0, full, max(1, full // 12))))


@pytest.mark.parametrize("field", ["max_states", "max_table"])
def test_every_budget_gives_a_sound_answer(field):
    """Budgets from 0 up to beyond the full search: UNDECIDED or the true answer, never an
    exception and never a verdict or an optimum the search did not prove."""
    for state, best, win, _, _ in budget_positions(cap=800, count=4):
        full = max(getattr(solve(BASIC, state, mode=mode, engine=e).stats, field.replace("max_table", "unique")
                           .replace("max_states", "states")) for e in ENGINES for mode in ("optimal", "winnable"))
        check_budget_sweep(state, best, win, sweep(full, every=False), field)


@pytest.mark.slow
@pytest.mark.parametrize("field", ["max_states", "max_table"])
def test_every_budget_gives_a_sound_answer_exhaustively(field):
    for state, best, win, _, _ in budget_positions(cap=2500, count=12):
        full = max(getattr(solve(BASIC, state, mode=mode, engine=e).stats, field.replace("max_table", "unique")
                           .replace("max_states", "states")) for e in ENGINES for mode in ("optimal", "winnable"))
        check_budget_sweep(state, best, win, sweep(full, every=True), field)


def test_unlimited_budget_decides_and_fills_the_stats():
    state, best, win, distinct, _ = budget_positions(cap=800, count=2)[0]
    assert BASIC.outcome(state) is None
    for engine in ENGINES:
        for mode in ("optimal", "winnable"):
            result = solve(BASIC, state, mode=mode, engine=engine, budget=Budget(max_table=None))
            assert result.verdict == (WON if win else LOST) and not result.exhausted
            assert (result.mode, result.engine) == (mode, engine)
            stats = result.stats
            assert stats.states > 0 and 0 <= stats.unique <= stats.states
            if mode == "optimal" and engine == "plain":
                assert stats.unique > 0  # (winnable mode keeps only refuted states)
            assert stats.max_depth >= (1 if engine == "plain" else 0)
            assert stats.seconds >= 0 and stats.table_hits >= 0


def test_solve_rejects_unknown_mode_or_engine():
    state = BASIC.initial_state(BASIC.deal_from_seed(0))
    with pytest.raises(ValueError):
        solve(BASIC, state, mode="fastest")
    with pytest.raises(ValueError):
        solve(BASIC, state, engine="magic")


@pytest.mark.parametrize("engine", ["pruned", "compiled"])
def test_a_proved_loss_stays_lost_when_its_optimum_runs_out_of_budget(engine):
    """Seed 163 has no win (4,818 states prove it) but its best loss takes 129,369 (by
    level probes): a budget in between still reports LOST, with the optimum unproven
    (score None)."""
    state = BASIC.initial_state(BASIC.deal_from_seed(163))
    assert solve(BASIC, state, mode="winnable", engine=engine).verdict == LOST
    result = solve(BASIC, state, mode="optimal", engine=engine, budget=Budget(max_states=12_000))
    assert (result.verdict, result.score) == (LOST, None) and result.exhausted
    replayed = replay(BASIC, state, result.line)
    assert replayed.ok and replayed.outcome.score == result.line_score
    assert result.line_score <= result.upper_bound < BASIC.lowest_win_score  # a loss scores below any win


@pytest.mark.parametrize("engine", ["pruned", "compiled"])
def test_an_optimum_not_proven_lies_between_the_best_line_and_the_roots_bound(engine):
    """Seed 19's optimum is 87 (4,024 states) and its root's bound 102: a search stopped
    sooner gives the bound, and neither a proven optimum nor a winnability search does."""
    state = BASIC.initial_state(BASIC.deal_from_seed(19))
    assert BASIC.score_upper_bound(state) == 102
    result = solve(BASIC, state, mode="optimal", engine=engine, budget=Budget(max_states=50))
    assert result.score is None and result.upper_bound == 102
    assert result.line_score is None or result.line_score <= 87
    proven = solve(BASIC, state, mode="optimal", engine=engine)
    assert (proven.score, proven.upper_bound) == (87, None)
    assert solve(BASIC, state, mode="winnable", engine=engine, budget=Budget(max_states=50)).upper_bound is None


def agreeing_optima(other: SearchSettings, seeds, budget: int, engine: str):
    """Positions of playouts of `seeds`, from the end back while the Python engine with the
    `other` settings (at most `budget` states) finishes: the optimum by `engine` with the
    default settings, checked to agree with the other's in verdict and score and to replay;
    yields (ours, theirs)."""
    for seed in seeds:
        path = playout(BASIC, BASIC.initial_state(BASIC.deal_from_seed(seed)), random.Random(seed))
        for state in path[-2::-1]:
            theirs = solve(BASIC, state, "optimal", "pruned", Budget(max_states=budget), other)
            if theirs.exhausted:
                break
            ours = solve(BASIC, state, "optimal", engine)
            assert (ours.verdict, ours.score) == (theirs.verdict, theirs.score), BASIC.describe(state)
            check_claim(BASIC, state, ours.line, ours.verdict == WON, ours.score)
            yield ours, theirs


def test_the_first_pass_leaves_every_optimum_as_it_was():
    """Two methods for a won deal's optimum: with the narrowed first pass
    (the default settings, the compiled engine) and without it (the Python one): the
    same verdict and score; the first pass changes the states searched (so it ran), never
    the answer."""
    without = SearchSettings(first_pass_moves=0)
    pairs = list(agreeing_optima(without, range(10), 5_000, "compiled"))
    compared = sum(ours.verdict == WON for ours, _ in pairs)
    changed = sum(ours.stats.states != theirs.stats.states for ours, theirs in pairs)
    assert compared >= 12 and changed >= 6, (compared, changed)


def test_level_probes_find_the_best_loss_that_value_probes_find():
    """Two methods for a lost deal's optimum (level probes on and off), on lost deals: the
    same verdict and score, each line replaying to it."""
    by_values = SearchSettings(level_probes=False)
    pairs = agreeing_optima(by_values, (6, 20, 24, 25, 70, 102), 20_000, "pruned")
    checked = sum(ours.verdict == LOST for ours, _ in pairs)
    assert checked >= 20, checked


def complete_search_states(monkeypatch, state, settings: SearchSettings) -> tuple[int, int]:
    """A win search of a lost `state` by the Python engine: (states of the whole search,
    states of its complete part, after the rounds of limited discrepancy search)."""
    find_win, started = _Search.find_win, []

    def noting_the_complete_part(search, position, depth, allowed=None):
        if depth == 0 and allowed is None:
            started.append(search.stats.states)
        return find_win(search, position, depth, allowed)

    monkeypatch.setattr(_Search, "find_win", noting_the_complete_part)
    result = solve(BASIC, state, "winnable", "pruned", settings=settings)
    monkeypatch.setattr(_Search, "find_win", find_win)
    assert result.verdict == LOST and len(started) == 1
    return result.stats.states, result.stats.states - started[0]


@pytest.mark.parametrize("seed", [20, 193, 206, 448])
def test_the_complete_win_search_skips_what_the_rounds_searched_whole(monkeypatch, seed):
    """A subtree that a round of limited discrepancy search searched whole (it left out no
    move) is refuted for good and kept in the table, so the complete search after the
    rounds visits only what they left open: on these lost deals fewer states than the
    complete search alone, which it equals when the rounds keep nothing (the fair hint's
    sample order); and the whole search fewer states than with nothing kept."""
    state = BASIC.initial_state(BASIC.deal_from_seed(seed))
    _, alone = complete_search_states(monkeypatch, state, SearchSettings(lds_rounds=0))
    kept, after_rounds = complete_search_states(monkeypatch, state, SearchSettings())
    unkept, after_nothing_kept = complete_search_states(monkeypatch, state,
                                                        SearchSettings(keep_whole_refutations=False))
    assert after_rounds < alone == after_nothing_kept, (after_rounds, alone, after_nothing_kept)
    assert kept < unkept, (kept, unkept)


def test_keeping_the_rounds_refutations_leaves_every_optimum_as_it_was():
    """Two search orders (the rounds' whole refutations kept in the table or not), on won
    and lost deals: the same verdict and score, each line replaying to it; the order
    changes the states searched (so the switch works), never the answer."""
    unkept = SearchSettings(keep_whole_refutations=False)
    pairs = list(agreeing_optima(unkept, (6, 20, 48, 88), 5_000, "compiled"))
    won = sum(ours.verdict == WON for ours, _ in pairs)
    changed = sum(ours.stats.states != theirs.stats.states for ours, theirs in pairs)
    assert won >= 12 and len(pairs) - won >= 6 and changed >= 5, (won, len(pairs), changed)


# ----- game types the search refuses ---------------------------------------------------------

class TwoSeatToy(Adaman):
    """A tiny fake two-player game: Adaman's verbs, declared as a simultaneous game."""

    name = "two-seat-toy"
    game_type = GameType(min_players=2, max_players=2, simultaneous=True, returns=True)


class RepeatingToy(Adaman):
    name = "repeating-toy"
    game_type = GameType(repeats=True)


@pytest.mark.parametrize("engine", ["plain", "pruned", "compiled", "auto"])
def test_the_single_player_search_refuses_a_two_player_game_in_one_line(engine):
    game = TwoSeatToy()
    with pytest.raises(UnsupportedGame) as refused:
        solve(game, game.initial_state(game.deal_from_seed(0)), engine=engine)
    assert str(refused.value) == ("the single-player search cannot analyse two-seat-toy (2 players, simultaneous "
                                  "moves); use the simultaneous-move analysis (solver.simultaneous)")


def test_the_single_player_search_refuses_a_game_whose_positions_repeat():
    game = RepeatingToy()
    with pytest.raises(UnsupportedGame, match=r"repeating-toy \(one player, sequential moves, repeating "
                                              r"positions\); use the search for repeating positions"):
        solve(game, game.initial_state(game.deal_from_seed(0)), mode="winnable")


def test_the_memory_guard_sees_a_later_search_grow_below_an_earlier_peak(monkeypatch):
    """A process that solved a big search before keeps its peak (1,000 MB); a new search that
    starts at 200 MB and grows to 350 MB has grown 150 MB, past a 100 MB cap, though the
    peak has not moved."""
    from solver import search as module

    mb = 2**20
    readings = {"peak": 1000 * mb, "now": 200 * mb}
    monkeypatch.setattr(module.MemoryGuard, "_peak", staticmethod(lambda: readings["peak"]))
    monkeypatch.setattr(module.MemoryGuard, "resident", staticmethod(lambda: readings["now"]))
    guard = module.MemoryGuard(100)
    assert not guard.exceeded(0)
    readings["now"] = 350 * mb
    assert guard.grown() == 150 * mb and guard.exceeded(0)
    readings["now"], readings["peak"] = 250 * mb, 1120 * mb  # a spike between two checks
    assert guard.grown() == 120 * mb and guard.exceeded(0)


def test_the_memory_guard_reads_the_present_size_where_proc_can_say():
    from solver.search import MemoryGuard

    now = MemoryGuard.resident()
    assert (now is not None) == os.path.exists("/proc/self/statm")
    assert now is None or now > 10 * 2**20  # a Python process with the games loaded


class FakeClock:
    """A clock that each part of a shared limit moves on by the seconds it took."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_parts_of_a_shared_time_limit_split_what_is_left_and_end_within_it():
    clock = FakeClock()
    shares = shared_budgets(Budget(time_limit=30, max_states=7), 3, clock)
    first = next(shares)
    assert first.time_limit == 10 and first.max_states == 7 and first.time_of_whole == 30
    clock.now += 2  # the first part answered early: its time goes to the two after it
    second = next(shares)
    assert second.time_limit == 14
    clock.now += 14  # the second used its whole share
    third = next(shares)
    assert third.time_limit == 14 and clock.now + third.time_limit == 100 + 30
    assert next(shares, None) is None
    assert third.time_text() == "time limit share of 14 s of 30 s"


def test_a_part_that_starts_after_a_shared_limit_has_passed_still_gets_a_moment():
    clock = FakeClock()
    shares = shared_budgets(Budget(time_limit=1), 2, clock)
    next(shares)
    clock.now += 5  # the first part overran the whole limit
    assert next(shares).time_limit == LEAST_SHARE


def test_without_a_time_limit_or_with_one_part_each_part_has_the_budget_itself():
    unlimited = Budget(max_states=5)
    assert list(shared_budgets(unlimited, 3)) == [unlimited] * 3
    one = Budget(time_limit=9)
    assert list(shared_budgets(one, 1)) == [one]
    assert one.time_text() == "time limit of 9 s" and unlimited.time_text() == ""
