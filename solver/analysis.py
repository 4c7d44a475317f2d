"""The one front door to the solver: `analyse(game, state, question, budget, engine)` picks the
search family from the game's type and owns the one set of engine names, so that the CLI,
hints, play, benchmarks and catalogues never name a search family themselves.

    one player, positions never repeat  -> solver.search (depth-first, transposition table)
    one player, positions repeat        -> solver.cycles (visited set over checkpoints)
    several seats choosing at once      -> solver.simultaneous (the §8 questions of a seat)

A one-player game is asked a mode ("optimal" or "winnable") and answers with a SolveResult;
a simultaneous-move game is asked `SeatQuestions` and answers with an Analysis.  Both, and
the Budget they are asked within, are solver.answers' types: what lies outside solver/
imports them from there and this module, never a search family's module.  Each family
still checks the game's type itself and refuses, in one line, what it cannot handle.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from games.base import EngineError, Game, UsurperError
from solver.answers import QUESTIONS, Analysis, Answer, Budget, SolveResult
from solver.search import DEFAULT_SETTINGS, ENGINES, SearchSettings, solve

#: Every engine name a user can type is one of the tree search's ENGINES: "auto" the best each
#: family has, "plain" its baseline, "pruned" its full Python search, "compiled" the game's own.
MODES = ("optimal", "winnable")
TREE, CYCLES, SIMULTANEOUS = "tree search", "search for repeating positions", "simultaneous-move analysis"

#: What each engine name means to each family; a name a family does not list it does not offer.
FAMILY_ENGINES: dict[str, dict[str, str]] = {
    TREE: {name: name for name in ENGINES},
    CYCLES: {"auto": "deep", "pruned": "deep", "plain": "best-first"},
    SIMULTANEOUS: {"auto": "auto", "pruned": "python", "plain": "python", "compiled": "compiled"},
}


@dataclass(frozen=True)
class SeatQuestions:
    """What a simultaneous-move game is asked: the open-deal questions (q1-q5 of Devil's
    Throne's §8) for one seat, 0-based; no questions: every one that applies at this table.
    `payoffs`: Q1-Q3's payoffs asked, the seat's cards and its margin (the cards alone get the
    whole time).  `shared_time`: the time limit is for all the questions together, each
    given its share as it starts (else each has the whole limit)."""

    seat: int = 0
    questions: tuple[str, ...] = ()
    payoffs: tuple[str, ...] = ("cards", "margin")
    shared_time: bool = False


Question = str | SeatQuestions  # a mode, or a seat's questions


def search_family(game: Game) -> str:
    """The search that answers `game`, from its declared type alone."""
    game_type = game.game_type
    if game_type.simultaneous:
        return SIMULTANEOUS
    return CYCLES if game_type.repeats else TREE


def engines_of(game: Game) -> tuple[str, ...]:
    """The engine names `game` can be asked with."""
    return tuple(FAMILY_ENGINES[search_family(game)])


def analyse(game: Game, state: Any, question: Question = "optimal", budget: Budget = Budget(),
            engine: str = "auto", settings: SearchSettings = DEFAULT_SETTINGS, at_least: int = 0,
            on_answer: Callable[[str, Answer], None] | None = None) -> SolveResult | Analysis:
    """Answer `question` about `state` within `budget`: a SolveResult for a one-player game
    (mode "optimal" or "winnable"; with `at_least`, the optimum only where it reaches that,
    solver.search.solve's floor), an Analysis of the asked seat for a simultaneous one
    (`on_answer(question, answer)` hears each question's answer as soon as it is known)."""
    family = search_family(game)
    chosen = _engine(game, family, engine)
    check_replacing(game, budget.replace_when_full)
    check_floor(game, question, at_least)
    if family == SIMULTANEOUS:
        return _analyse_seat(game, state, question, budget, chosen, on_answer)
    if isinstance(question, SeatQuestions) or question not in MODES:
        raise UsurperError(f"{game.name} is asked for its optimal score or whether it can be won"
                           f" (modes {', '.join(MODES)}), not {question!r}")
    if family == CYCLES:
        from solver.cycles import solve_cycles

        return solve_cycles(game, state, question, budget, strategy=chosen)
    return solve(game, state, question, chosen, budget, settings, at_least)


def check_floor(game: Game, question: Question, at_least: int) -> None:
    """A floor on the optimum is a question for the tree search's optimal mode alone, and one
    above the game's highest score asks nothing."""
    if not at_least:
        return
    if search_family(game) != TREE:
        raise UsurperError(f"--at-least is for the tree search; {game.name}'s {search_family(game)} "
                           "answers the whole question")
    if question != "optimal":
        raise UsurperError("--at-least asks about the optimal score, not with --winnable-only or --mode winnable")
    if at_least > game.max_score:
        raise UsurperError(f"--at-least {at_least} is above {game.name}'s highest score, {game.max_score}")


def check_replacing(game: Game, replace_when_full: bool) -> None:
    """A table that replaces entries when full is the tree search's alone: the others keep
    every position they have seen (the repeating positions' search relies on it)."""
    family = search_family(game)
    if replace_when_full and family != TREE:
        raise UsurperError(f"--replace-when-full is for the tree search; {game.name}'s {family} keeps every "
                           "position it has seen")


def _engine(game: Game, family: str, engine: str) -> str:
    offered = FAMILY_ENGINES[family]
    if engine not in offered:
        raise EngineError(f"{game.name} offers the engines {', '.join(offered)} ({family}), not {engine!r}")
    return offered[engine]


def check_seat_questions(game: Game, state: Any, question: Question) -> None:
    """Refuse, in one line and before any search, a seat or question this table does not have."""
    if not isinstance(question, SeatQuestions):
        raise UsurperError(f"{game.name} is asked its open-deal questions for a seat, not {question!r}")
    players = len(game.returns(state))
    if not 0 <= question.seat < players:
        raise UsurperError(f"seat {question.seat + 1} is not in a {players}-player game (seats 1-{players})")
    unknown = [name for name in question.questions if name not in QUESTIONS]
    if unknown:
        raise UsurperError(f"unknown question {unknown[0]!r} (known: {', '.join(QUESTIONS)})")


def _analyse_seat(game: Game, state: Any, question: Question, budget: Budget, engine: str,
                  on_answer: Callable[[str, Answer], None] | None) -> Analysis:
    from solver.simultaneous import analyse as analyse_simultaneous

    check_seat_questions(game, state, question)
    return analyse_simultaneous(game, state, question.seat, question.questions or None, budget, engine,
                                payoffs=question.payoffs, shared_time=question.shared_time, on_answer=on_answer)


def default_questions(players: int) -> tuple[str, ...]:
    """The questions a simultaneous-move game's seat is asked when none is named, at a table
    of `players`."""
    from solver.simultaneous import default_questions as questions_of

    return questions_of(players)
