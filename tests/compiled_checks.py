"""What every compiled engine's tests check against the Python engine it mirrors ("pruned"
for "compiled", "plain" for "compiled-plain"): the same verdict, score, line and
statistics, node for node, under any budget."""

from __future__ import annotations

from solver.search import DEFAULT_SETTINGS, LOST, UNDECIDED, WON, Budget, solve
from solver.verify import check_claim

MODES = ("optimal", "winnable")


def summary(result):
    stats = result.stats
    return (result.verdict, result.score, result.line, result.line_score, result.upper_bound, result.mode,
            bool(result.exhausted), result.exhausted, stats.states, stats.table_hits, stats.unique, stats.max_depth)


def check_line(game, state, result):
    """The compiled line replays to what it claims."""
    if result.verdict == WON:
        check_claim(game, state, result.line, True, result.line_score)
    elif result.line_score is not None:
        check_claim(game, state, result.line, False, result.line_score)


PYTHON_TWIN = {"compiled": "pruned", "compiled-plain": "plain"}


def compare(game, state, mode, budget, engine="compiled", settings=DEFAULT_SETTINGS, at_least=0):
    """A compiled engine and its Python twin agree on everything, stats included, both with
    the search `settings` (and the floor `at_least`); returns the compiled result."""
    compiled = solve(game, state, mode, engine, budget, settings, at_least)
    python = solve(game, state, mode, PYTHON_TWIN[engine], budget, settings, at_least)
    assert summary(compiled) == summary(python), (game.variant, game.describe(state), mode, budget, engine, at_least)
    assert compiled.engine == engine
    check_line(game, state, compiled)
    if compiled.exhausted:
        assert compiled.verdict in (UNDECIDED, WON, LOST) and compiled.score is None
        if compiled.verdict == LOST:  # only from the complete win search of the optimal mode
            assert mode == "optimal" and solve(game, state, "winnable", "compiled").verdict == LOST
    return compiled


def check_floors(game, state, optimum: int):
    """Floors around `optimum` (the state's, proven): at or below it the same optimum; above
    it a proven bound from the optimum to just below the floor, or the optimum where the
    best line already meets the bound; node for node with the Python twin.  Returns how
    many floors were refuted."""
    refuted = 0
    for at_least in (0, optimum - 1, optimum, optimum + 1, optimum + 7):
        result = compare(game, state, "optimal", Budget(), at_least=max(0, at_least))
        assert not result.exhausted
        if at_least <= optimum or result.score is not None:
            assert (result.score, result.upper_bound) == (optimum, None), at_least
        else:
            assert optimum <= result.upper_bound < at_least, at_least
            assert result.line_score is None or result.line_score <= optimum
            refuted += 1
    return refuted


def check_floors_on_positions(game, states) -> tuple[int, int, int]:
    """`check_floors` on each of `states` whose optimum 3,000 states prove: (positions
    checked, floors refuted, lost positions among them)."""
    checked = refuted = lost = 0
    for state in states:
        proven = solve(game, state, "optimal", "compiled", Budget(max_states=3000))
        if not proven.exhausted:
            refuted += check_floors(game, state, proven.score)
            checked += 1
            lost += proven.verdict == LOST
    return checked, refuted, lost


def check_every_small_budget(game, states, wanted: int = 3, engine: str = "compiled") -> None:
    """Budgets from nothing to more than enough, on `wanted` positions whose full search
    takes 30-300 states: the same stop, the same line."""
    checked = 0
    for state in states:
        full = max(solve(game, state, mode, PYTHON_TWIN[engine], Budget(max_states=300)).stats.states
                   for mode in MODES)
        if not 30 <= full <= 300:
            continue
        limits = set(range(8)) | set(range(full - 3, full + 3)) | set(range(0, full, full // 8))
        for limit in sorted(limits):
            for mode in MODES:
                compare(game, state, mode, Budget(max_states=limit), engine)
                compare(game, state, mode, Budget(max_table=limit), engine)
        checked += 1
        if checked == wanted:
            break
    assert checked == wanted


def check_exhausted_budget(game, seed: int, mode: str, budget) -> None:
    """A budget that runs out: UNDECIDED (or a win already found), never a made-up LOST."""
    state = game.initial_state(game.deal_from_seed(seed))
    result = solve(game, state, mode, "compiled", budget)
    assert result.verdict in (UNDECIDED, WON)
    assert result.stats.states > 0
    if result.verdict == UNDECIDED:
        assert result.exhausted
    if result.exhausted:
        assert result.score is None
    check_line(game, state, result)


def check_budget_messages(game, seed: int):
    """Each budget names itself as the Python engine does (a table cap reached in a quick-win
    round, then a state budget, then a time limit); returns the table-capped result."""
    state = game.initial_state(game.deal_from_seed(seed))
    result = compare(game, state, "optimal", Budget(max_table=1000))
    assert result.verdict in (UNDECIDED, WON) and result.score is None
    assert result.exhausted == "transposition table cap of 1000 entries"
    capped = result
    result = solve(game, state, "optimal", "compiled", Budget(max_states=10_000))
    assert result.exhausted == "state budget of 10000 states" and result.stats.states == 10_001
    result = solve(game, state, "optimal", "compiled", Budget(time_limit=0.05))
    assert result.exhausted == "time limit of 0.05 s" and result.score is None
    return capped


def plain_answer_checked(game, state, plain_budget):
    """The plain engine's answer (no bound, no order, every legal move), and the compiled
    engine's in both modes checked against it: the same verdict and optimal score, a line
    that replays.  None when the plain search outgrows `plain_budget`."""
    plain = solve(game, state, "optimal", "plain", plain_budget)
    if plain.exhausted:
        return None
    for mode in MODES:
        compiled = solve(game, state, mode, "compiled", Budget())
        assert compiled.verdict == plain.verdict and not compiled.exhausted
        if mode == "optimal":
            assert compiled.score == compiled.line_score == plain.score
        check_line(game, state, compiled)
    return plain


def check_a_full_table_that_replaces_keeps_the_answers(game, seeds, caps=(20, 400), python_caps=(20,)):
    """With replace_when_full a table at its cap forgets entries instead of ending the
    search: in both modes the answers are the uncapped ones (verdict, optimal score, a line
    that replays), from the compiled engine and from its Python twin, which forget different
    entries; and forgetting cost states somewhere (the replacing path ran)."""
    searched_again = False
    for seed in seeds:
        state = game.initial_state(game.deal_from_seed(seed))
        for mode in MODES:
            full = solve(game, state, mode, "compiled")
            assert not full.exhausted
            for engine, engine_caps in (("compiled", caps), ("pruned", python_caps)):
                for cap in engine_caps:
                    result = solve(game, state, mode, engine, Budget(max_table=cap, replace_when_full=True))
                    assert (result.verdict, result.score, result.exhausted) == (full.verdict, full.score, ""), \
                        (seed, mode, engine, cap)
                    check_line(game, state, result)
                    searched_again |= result.stats.states > full.stats.states
    assert searched_again
