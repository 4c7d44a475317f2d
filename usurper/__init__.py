"""Usurper as a library: a verdict, a hint or a grade of a deal in one call (docs/api.md).

    >>> import usurper
    >>> usurper.solve("adaman", seed=5).score
    95

Each function takes a game (its name, as `usurper` takes it, or a game from `make_game`), the
deal (a `seed` or a `deal` text, top of the deck first), `variants` (the command line's
words) and the moves already played, and returns the solver's own typed answer.  A bad
argument raises `usurper.UsurperError` (games.base's) with the one line the command prints.

The solver and the games are imported by the first call, not by `import usurper`: the
application under it (`usurper.app`) and the command line start no slower for it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from games.base import Game
    from solver.answers import Analysis, Budget, SolveResult
    from solver.fair import FairHint
    from solver.grade import GradeReport
    from solver.hints import Hint

__all__ = ["make_game", "deal_cards", "position", "solve", "hint", "fair_hint", "grade", "UsurperError"]

#: The command line's defaults: a search's minute, and a fair hint's two seconds at the table.
SECONDS = 60.0
FAIR_SECONDS = 2.0


def make_game(name: str, variants: Iterable[str] = ()) -> Game:
    """The game called `name` (any case; `royal_assassin` reads as `royal-assassin`) with the
    variant words `variants`, e.g. `make_game("devils-throne", ["players=3"])`."""
    from games import make_game as registered

    return registered(name, list(variants))


def deal_cards(game: Game, seed: int | None = None, deal: str | None = None) -> tuple:
    """The cards of a deal, top of the deck first: the deal of `seed`, or `deal` read in the
    game's card notation.  Exactly one of the two is given."""
    from games.base import UsurperError

    if (seed is None) == (deal is None):
        raise UsurperError("give exactly one of a seed or a deal")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise UsurperError(f"a seed is a whole number from 0, not {seed!r}")
    return game.deal_from_seed(seed) if deal is None else game.parse_deal(deal)


def position(game: str | Game, seed: int | None = None, deal: str | None = None, variants: Iterable[str] = (),
             moves: str = "") -> tuple[Game, Any]:
    """The game and the position after `moves` (separated by ';') from the deal's start."""
    rules = _game(game, variants)
    start = rules.initial_state(deal_cards(rules, seed, deal))
    return rules, (rules.apply_line(start, rules.parse_line(start, moves)) if moves.strip() else start)


def solve(game: str | Game, seed: int | None = None, deal: str | None = None, variants: Iterable[str] = (),
          moves: str = "", time_limit: float | None = SECONDS, max_states: int | None = None,
          winnable_only: bool = False, seat: int = 1, questions: Iterable[str] = (),
          engine: str = "auto") -> SolveResult | Analysis:
    """What `usurper solve` answers.  A one-player game: a SolveResult (verdict, `score` the
    proven optimum or None, the line reaching `line_score`, replayed through the rules before
    it is returned); `winnable_only` stops at the first win.  Devil's Throne: the Analysis of
    `seat` (1-based) over `questions` (q1-q5; none: the default ones)."""
    from solver.analysis import SeatQuestions, analyse
    from solver.verify import check_result

    rules, state = position(game, seed, deal, variants, moves)
    budget = _budget(time_limit, max_states)
    if rules.game_type.simultaneous:
        return analyse(rules, state, SeatQuestions(seat - 1, tuple(questions)), budget, engine)
    _no_seat_questions(rules, seat, questions)
    result = analyse(rules, state, "winnable" if winnable_only else "optimal", budget, engine)
    check_result(rules, state, result)
    return result


def hint(game: str | Game, seed: int | None = None, deal: str | None = None, variants: Iterable[str] = (),
         moves: str = "", time_limit: float | None = SECONDS, max_states: int | None = None,
         engine: str = "auto") -> Hint:
    """The clairvoyant hint (it reads the whole deal): the first move of the best line from
    the position after `moves`, and the score it still secures (one-player games)."""
    from games.base import UsurperError
    from solver.hints import clairvoyant_hint

    rules, state = position(game, seed, deal, variants, moves)
    if rules.game_type.simultaneous:
        raise UsurperError(f"{rules.name}'s advice is a seat's answers: ask usurper.solve(..., seat=N)")
    return clairvoyant_hint(rules, state, engine, _budget(time_limit, max_states))


def fair_hint(game: str | Game, seed: int | None = None, deal: str | None = None, variants: Iterable[str] = (),
              moves: str = "", visible: str | None = None, samples: int | None = None, random_seed: int = 0,
              time_limit: float | None = FAIR_SECONDS) -> FairHint:
    """The fair hint: the move with the best estimated chances over orders of the cards a
    player cannot see, from what a player sees of the position after `moves`, or of
    `visible` (the position in the text `usurper show` prints; then no seed, deal or moves).
    `samples` None: the fair policy's number of solved samples."""
    import random

    from games.base import UsurperError
    from solver import fair

    options = {"samples": samples or fair.FAIR_SAMPLES, "rng": random.Random(random_seed),
               "time_limit": _seconds(time_limit)}
    if visible is None:
        return fair.fair_hint_for_state(*position(game, seed, deal, variants, moves), **options)
    if seed is not None or deal is not None or moves.strip():
        raise UsurperError("a visible position is the whole position: give no seed, deal or moves with it")
    rules = _game(game, variants)
    return fair.fair_hint(rules, fair.parse_visible(rules, visible), **options)


def grade(game: str | Game, seed: int | None = None, deal: str | None = None,
          variants: Iterable[str] = ()) -> GradeReport:
    """The deal's difficulty grade (solver/grade.py): the weakest player that wins it without
    peeking, every play of the ladder, and how narrow the way to a win is.  Budgets count
    states, so a grade is the same on any machine."""
    from solver.grade import grade_deal

    rules, state = position(game, seed, deal, variants)
    return grade_deal(rules, state, seed or 0)


def __getattr__(name: str) -> Any:
    """`usurper.UsurperError`, what every refusal raises, imported when it is first named."""
    if name == "UsurperError":
        from games.base import UsurperError

        return UsurperError
    raise AttributeError(f"module 'usurper' has no attribute {name!r}")


# ----- helpers ------------------------------------------------------------------------------
def _game(game: str | Game, variants: Iterable[str]) -> Game:
    from games.base import Game, UsurperError

    if not isinstance(game, Game):
        return make_game(str(game), variants)
    if list(variants):
        raise UsurperError(f"variants are given with a game's name; {game.name} ({game.variant}) already has its own")
    return game


def _seconds(time_limit: float | None) -> float | None:
    """A time limit: seconds, finite and above 0, or None for none at all."""
    from games.base import UsurperError

    if time_limit is None:
        return None
    if isinstance(time_limit, bool) or not isinstance(time_limit, int | float) or not math.isfinite(time_limit) \
            or time_limit <= 0:
        raise UsurperError(f"{time_limit!r} is not a time limit: give seconds above 0, or None")
    return float(time_limit)


def _budget(time_limit: float | None, max_states: int | None) -> Budget:
    from games.base import UsurperError
    from solver.answers import Budget

    if max_states is not None and (isinstance(max_states, bool) or not isinstance(max_states, int) or max_states < 1):
        raise UsurperError(f"{max_states!r} is not a number of states: give 1 or more, or None")
    return Budget(time_limit=_seconds(time_limit), max_states=max_states)


def _no_seat_questions(game: Game, seat: int, questions: Iterable[str]) -> None:
    from games.base import UsurperError

    if seat != 1 or tuple(questions):
        raise UsurperError(f"a seat and questions are asked of Devil's Throne, not of {game.name}")
