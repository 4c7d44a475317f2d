"""The compiled Q1-Q3 values (two to four players) and two-player Q4 values (the extension
`games.devils_throne._core`), behind a small Python face.

The extension is native/devils_throne.c: the rules of games/devils_throne/_core.c under
the simultaneous-move search of solver/_simultaneous_core.h (setup.py builds it).  It is
optional: where it is not built, `q4_values` raises CompiledMissing and the solver says so
once and uses the Python engine.
"""

from __future__ import annotations

from typing import NamedTuple

from games.base import CompiledMissing
from games.devils_throne.cards import EFFECT_ORDER
from games.devils_throne.rules import RESERVE_SIZE, Rules, State

try:
    from games.devils_throne import _core
except ImportError:  # not built: the Python engine answers alone
    _core = None


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

    def __init__(self, rules: Rules, seat: int, coins: tuple[int, ...], reserves: tuple[tuple[int, ...], ...],
                 question: int = 0, margin: bool = True, fixed: int = 0, few_replies: bool = False):
        effects = [(EFFECT_ORDER.index(power), owner) for power, owner in rules.effects]
        self._solver = _core.new_solver(seat, effects, list(coins), [list(r) for r in reserves], question,
                                        int(margin), fixed, int(few_replies))

    def value(self, state: State, seconds: float | None, max_states: int | None) -> CompiledRun:
        depths = [RESERVE_SIZE - len(reserve) for reserve in state.reserves]
        run = _core.q4_value(self._solver, state.round, state.hands, depths,
                             -1.0 if seconds is None else max(seconds, 1e-6),
                             -1 if max_states is None else max_states)
        return CompiledRun(*run)


class ParanoidRun(NamedTuple):
    """A fail-soft Q1-Q3 value of the round start within the window (None: stopped by
    `exhausted`), the counters so far, and P's rank on the best root line (0: none)."""

    value: float | None
    exhausted: str
    states: int
    table_hits: int
    root_action: int


class ParanoidValues(Q4Values):
    """Q1, Q2 or Q3 on the cards or the margin, from round starts of one deal, for seat P."""

    def value(self, state: State, alpha: float, beta: float, seconds: float | None,
              max_states: int | None) -> ParanoidRun:
        depths = [RESERVE_SIZE - len(reserve) for reserve in state.reserves]
        run = _core.paranoid_value(self._solver, state.round, state.hands, depths, state.tricks, alpha, beta,
                                   -1.0 if seconds is None else max(seconds, 1e-6),
                                   -1 if max_states is None else max_states)
        return ParanoidRun(*run)


def q4_values(rules: Rules, state: State, seat: int) -> Q4Values | None:
    """The compiled Q4 for `state`'s deal, or None (not built, or not two players).  The
    reserves are rebuilt as full stacks: the C side counts depths from the deal's top."""
    if rules.players != 2:
        return None
    _require_core()
    reserves = tuple(_full_reserve(reserve) for reserve in state.reserves)
    return Q4Values(rules, seat, state.coins, reserves)


def paranoid_values(rules: Rules, state: State, seat: int, question: str, margin: bool,
                    fixed: tuple[int, ...] = (), few_replies: bool = False) -> ParanoidValues:
    """The compiled Q1-Q3 (`question` "q1".."q3") for `state`'s deal; the seats in `fixed`
    play the greedy bot's policy against the other side (a one-sided search); with
    `few_replies` the other seats keep the game's few options (a ceiling)."""
    _require_core()
    reserves = tuple(_full_reserve(reserve) for reserve in state.reserves)
    mask = sum(1 << seat for seat in fixed)
    return ParanoidValues(rules, seat, state.coins, reserves, int(question[1]), margin, mask, few_replies)


def _require_core() -> None:
    if _core is None:
        raise CompiledMissing("the compiled Devil's Throne engine is not built; install a C compiler "
                              "and the Python headers, then reinstall usurper")


def _full_reserve(remaining: tuple[int, ...]) -> tuple[int, ...]:
    # The cards already taken never matter again: pad the top with placeholders so that
    # depth = 3 - len(remaining) points at the remaining top.
    return (4,) * (RESERVE_SIZE - len(remaining)) + tuple(remaining)
