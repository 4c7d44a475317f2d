"""The compiled two-player Q1-Q4 values (games/devils_throne/_core.c), behind a small Python face.

The C module is optional: where it is not built, `q4_values` raises CompiledMissing and
the solver says so once and uses the Python engine.  Build it with setup.py (an Extension `games.devils_throne._core`
from games/devils_throne/_core.c, like the other games' cores).
"""

from __future__ import annotations

from typing import NamedTuple

from games.base import CompiledMissing
from games.devils_throne.cards import EFFECT_ORDER

try:
    from games.devils_throne import _core
except ImportError:  # not built: the Python engine answers alone
    _core = None

RESERVE_SIZE = 3


class CompiledRun(NamedTuple):
    """A value-to-go (None: stopped by `exhausted`, "states", "time" or "memory") and the
    solver's counters so far (they add up over the calls on one deal)."""

    value: float | None
    exhausted: str
    states: int
    table_hits: int
    matrix_games: int
    saddles: int
    lps: int


class Q4Values:
    """Q4 values-to-go of round starts of one deal for seat P; its table lives with it."""

    def __init__(self, game, seat: int, coins: tuple[int, ...], reserves: tuple[tuple[int, ...], ...],
                 question: int = 0, margin: bool = True):
        effects = [(EFFECT_ORDER.index(power), owner) for power, owner in game.effects]
        self._solver = _core.new_solver(seat, effects, list(coins), [list(r) for r in reserves], question, int(margin))

    def value(self, state, seconds: float | None, max_states: int | None) -> CompiledRun:
        depths = [RESERVE_SIZE - len(reserve) for reserve in state.reserves]
        run = _core.q4_value(self._solver, state.round, state.hands, depths,
                             -1.0 if seconds is None else max(seconds, 1e-6),
                             -1 if max_states is None else max_states)
        return CompiledRun(*run)


class ParanoidRun(NamedTuple):
    """A Q1-Q3 value relative to the round start (None: stopped by `exhausted`), the counters,
    the root's bounds found so far (relative), and P's rank on the best root line (0: none)."""

    value: float | None
    exhausted: str
    states: int
    table_hits: int
    root_floor: float
    root_ceiling: float
    root_action: int


class ParanoidValues(Q4Values):
    """Q1, Q2 or Q3 on the cards or the margin, from round starts of one deal, for seat P."""

    def value(self, state, seconds: float | None, max_states: int | None) -> ParanoidRun:
        depths = [RESERVE_SIZE - len(reserve) for reserve in state.reserves]
        run = _core.paranoid_value(self._solver, state.round, state.hands, depths,
                                   -1.0 if seconds is None else max(seconds, 1e-6),
                                   -1 if max_states is None else max_states)
        return ParanoidRun(*run)


def q4_values(game, state, seat: int) -> Q4Values | None:
    """The compiled Q4 for `state`'s deal, or None (not built, or not two players).  The
    reserves are rebuilt as full stacks: the C side counts depths from the deal's top."""
    if game.players != 2:
        return None
    _require_core()
    reserves = tuple(_full_reserve(reserve) for reserve in state.reserves)
    return Q4Values(game, seat, state.coins, reserves)


def paranoid_values(game, state, seat: int, question: str, margin: bool) -> ParanoidValues | None:
    """The compiled Q1-Q3 (`question` "q1".."q3") for `state`'s deal, or None."""
    if game.players != 2:
        return None
    _require_core()
    reserves = tuple(_full_reserve(reserve) for reserve in state.reserves)
    return ParanoidValues(game, seat, state.coins, reserves, int(question[1]), margin)


def _require_core() -> None:
    if _core is None:
        raise CompiledMissing("the compiled Devil's Throne engine is not built; install a C compiler "
                              "and the Python headers, then reinstall usurper")


def _full_reserve(remaining: tuple[int, ...]) -> tuple[int, ...]:
    # The cards already taken never matter again: pad the top with placeholders so that
    # depth = 3 - len(remaining) points at the remaining top.
    return (4,) * (RESERVE_SIZE - len(remaining)) + tuple(remaining)
