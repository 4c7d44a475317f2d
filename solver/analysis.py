"""Which search answers a one-player game: chosen from its game type, so that the CLI, hints,
benchmarks and catalogues ask one function and never name a search family themselves."""

from __future__ import annotations

from typing import Any

from games.base import EngineError, Game
from solver.search import DEFAULT_SETTINGS, Budget, SearchSettings, SolveResult, solve

#: Engines of the search for repeating positions: "auto" (deep lines first, then the
#: complete search) and "plain" (the best-first baseline).
CYCLE_ENGINES = {"auto": "deep", "pruned": "deep", "plain": "best-first"}


def solve_position(game: Game, state: Any, mode: str = "optimal", engine: str = "auto", budget: Budget = Budget(),
                   settings: SearchSettings = DEFAULT_SETTINGS) -> SolveResult:
    """Decide `state`: a game whose positions repeat goes to solver.cycles, any other to the
    tree search of solver.search (which refuses, in one line, what it cannot handle)."""
    if game.game_type.repeats:
        from solver.cycles import solve_cycles

        if engine not in CYCLE_ENGINES:
            known = ", ".join(CYCLE_ENGINES)
            raise EngineError(f"{game.name} offers the engines {known} (its positions repeat), not {engine!r}")
        return solve_cycles(game, state, mode, budget, strategy=CYCLE_ENGINES[engine])
    return solve(game, state, mode, engine, budget, settings)
