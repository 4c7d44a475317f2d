"""Independent replay of a line of play through the rules engine.

Every line the solver prints passes through `replay` first: each move must be among the
legal moves of the position it is played in, and the end reached must be the one claimed.
It shares nothing with the search but the game's own verbs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from games.base import Game, MoveError, Outcome, Verdict

if TYPE_CHECKING:
    from solver.search import SolveResult


@dataclass
class Replay:
    ok: bool              # every move was legal
    played: int           # moves played before the first illegal one (all of them when ok)
    error: str            # why the first illegal move was refused
    outcome: Outcome | None  # the end reached, None when the line stops mid-game
    state: Any            # the position reached


def replay(game: Game, state: Any, moves: Sequence[Any]) -> Replay:
    """Play `moves` from `state`, refusing the first that is not legal where it is played."""
    for number, move in enumerate(moves):
        if move not in game.legal_moves(state):
            return Replay(False, number, f"move {number + 1} is not legal here", game.outcome(state), state)
        state = game.apply(state, move)
    return Replay(True, len(moves), "", game.outcome(state), state)


def replay_text(game: Game, state: Any, text: str) -> Replay:
    """Like `replay`, reading the moves one at a time so that an illegal one is named."""
    moves = [part.strip() for part in text.split(";") if part.strip()]
    for number, part in enumerate(moves):
        try:
            move = game.parse_move(state, part)
        except MoveError as exc:
            return Replay(False, number, f"move {number + 1} ({part!r}): {exc}", game.outcome(state), state)
        state = game.apply(state, move)
    return Replay(True, len(moves), "", game.outcome(state), state)


def check_claim(game: Game, state: Any, moves: Sequence[Any], won: bool, score: int) -> Replay:
    """Replay a solver's line and insist it ends where the solver says; a mismatch is a bug."""
    result = replay(game, state, moves)
    if not result.ok or result.outcome is None:
        raise AssertionError(f"solver line does not replay: {result.error or 'the game is not over'}")
    if result.outcome.won != won or result.outcome.score != score:
        raise AssertionError(
            f"solver line ends {result.outcome.result} {result.outcome.score}, claimed won={won} {score}"
        )
    return result


def check_result(game: Game, state: Any, result: SolveResult) -> None:
    """Replay a one-player search's line (a SolveResult's) before anyone is told of it."""
    if result.line_score is not None:
        check_claim(game, state, result.line, result.verdict == Verdict.WON, result.line_score)
