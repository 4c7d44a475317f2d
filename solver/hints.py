"""Next-move advice.

A clairvoyant hint reads the whole deal, face-down cards included, as a solver of a seeded
deal does: the first move of an optimal line from the position, and the score that move
still secures (proven, or the best line found when the budget ran out first).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.base import Game, UsurperError, Verdict
from solver.analysis import analyse
from solver.search import DEFAULT_SETTINGS, Budget, SearchSettings, SolveResult
from solver.verify import check_claim


@dataclass(frozen=True)
class Hint:
    """The advised move and what it is worth: `secures` is the proven optimum from the
    position (None when the budget ran out first; `best_found` then scores the best line)."""

    move: Any
    move_text: str
    position: str
    verdict: Verdict
    secures: int | None
    best_found: int | None
    exhausted: str
    result: SolveResult

    @property
    def proven(self) -> bool:
        return self.secures is not None


def clairvoyant_hint(game: Game, state: Any, engine: str = "auto", budget: Budget = Budget(),
                     settings: SearchSettings = DEFAULT_SETTINGS) -> Hint:
    """The first move of the best line from `state`, its line replayed before it is given."""
    outcome = game.outcome(state)
    if outcome is not None:
        raise UsurperError(f"the game is over ({outcome.text()}); there is no next move")
    result = analyse(game, state, "optimal", budget, engine, settings)
    if result.line_score is not None:
        check_claim(game, state, result.line, result.verdict == Verdict.WON, result.line_score)
    move = result.line[0] if result.line else game.legal_moves(state)[0]
    return Hint(move, game.format_move(state, move), game.describe(state), result.verdict, result.score,
                result.line_score, result.exhausted, result)
