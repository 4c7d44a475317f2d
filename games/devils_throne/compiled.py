"""The compiled Q1-Q3 values (two to four players) and two-player Q4 values (the extension
`games.devils_throne._core`), behind a small Python face.

The extension is native/devils_throne.c: the rules of games/devils_throne/_core.c under
the simultaneous-move search of solver/_simultaneous_core.h (setup.py builds it).  This is
the one place that says what crosses to C.  Three named structures cross, each built here in
one function and read in C by field name in one function: the deal's tables and question
(`ThroneTables`, `tables`; native/devils_throne.c's `read_tables`), a round start
(`ThronePosition`, `position`; `read_position`) and one call's limits with its window
(`ThroneLimits`, `limits`; `run`).  A new parameter is a field here, its value in the
builder, and its reading in that C function.

The extension is optional: where it is not built, `q4_values` raises CompiledMissing and
the solver says so once and uses the Python engine.
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


class ThroneTables(NamedTuple):
    """A deal as the C search knows it, and the question asked of it (`tables`)."""

    seat: int                                  # P
    effects: tuple[tuple[int, int], ...]       # (power as EFFECT_ORDER's index, owner), in resolution order
    coins: tuple[int, ...]                     # the ten rounds' coins
    reserves: tuple[tuple[int, ...], ...]      # one full stack of 3 ranks a seat, top first: their number is the seats'
    question: int                              # 0 Q4 (two seats only), 1-3 Q1-Q3
    margin: bool                               # Q1-Q3's payoff: the margin, else P's cards
    fixed: int                                 # a bit per seat that plays the greedy bot's policy
    few_replies: bool                          # the other seats keep only the game's few options (a ceiling)


class ThronePosition(NamedTuple):
    """A round start as the C search reads it (`position`)."""

    round: int
    hands: tuple[tuple[int, ...], ...]         # each seat's ranks
    depths: tuple[int, ...]                    # each seat's reserve cards already taken (its next is at that index)
    tricks: tuple[int, ...]                    # each seat's cards won so far (Q1-Q3's payoff; Q4 ignores them)


class ThroneLimits(NamedTuple):
    """What one call may spend (None: no limit) and the window it applies in (`limits`)."""

    seconds: float | None
    max_states: int | None                     # more states than the solver has counted so far
    alpha: float = 0.0                         # Q1-Q3's fail-soft window (Q4 ignores it)
    beta: float = 0.0


def tables(rules: Rules, state: State, seat: int, question: int = 0, margin: bool = True, fixed: int = 0,
           few_replies: bool = False) -> ThroneTables:
    """`state`'s deal for seat `seat` and the question.  The reserves are rebuilt as full
    stacks: the C side counts depths from the deal's top."""
    return ThroneTables(
        seat=seat,
        effects=tuple((EFFECT_ORDER.index(power), owner) for power, owner in rules.effects),
        coins=state.coins,
        reserves=tuple(_full_reserve(reserve) for reserve in state.reserves),
        question=question,
        margin=margin,
        fixed=fixed,
        few_replies=few_replies,
    )


def position(state: State) -> ThronePosition:
    """Round start `state` as the C search reads it."""
    return ThronePosition(
        round=state.round,
        hands=state.hands,
        depths=tuple(RESERVE_SIZE - len(reserve) for reserve in state.reserves),
        tricks=state.tricks,
    )


def limits(seconds: float | None, max_states: int | None, alpha: float = 0.0, beta: float = 0.0) -> ThroneLimits:
    """The limits of one call; a time left of zero still stops at once (C reads 0 as none)."""
    return ThroneLimits(None if seconds is None else max(seconds, 1e-6), max_states, alpha, beta)


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

    def __init__(self, deal: ThroneTables):
        self._solver = _core.new_solver(deal)

    def value(self, state: State, seconds: float | None, max_states: int | None) -> CompiledRun:
        return CompiledRun(*_core.q4_value(self._solver, position(state), limits(seconds, max_states)))


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
        run = _core.paranoid_value(self._solver, position(state), limits(seconds, max_states, alpha, beta))
        return ParanoidRun(*run)


def q4_values(rules: Rules, state: State, seat: int) -> Q4Values | None:
    """The compiled Q4 for `state`'s deal, or None (not built, or not two players)."""
    if rules.players != 2:
        return None
    _require_core()
    return Q4Values(tables(rules, state, seat))


def paranoid_values(rules: Rules, state: State, seat: int, question: str, margin: bool,
                    fixed: tuple[int, ...] = (), few_replies: bool = False) -> ParanoidValues:
    """The compiled Q1-Q3 (`question` "q1".."q3") for `state`'s deal; the seats in `fixed`
    play the greedy bot's policy against the other side (a one-sided search); with
    `few_replies` the other seats keep the game's few options (a ceiling)."""
    _require_core()
    mask = sum(1 << seat for seat in fixed)
    return ParanoidValues(tables(rules, state, seat, int(question[1]), margin, mask, few_replies))


def value_class_key(rules: Rules, state: State) -> tuple[int, int]:
    """The two words of the key that the compiled searches' table gives round start `state`
    (C `value_class_key`): round starts share it exactly where they share `Rules.value_key`."""
    _require_core()
    return _core.value_class_key(_core.new_solver(tables(rules, state, 0, question=1)), position(state))


def _require_core() -> None:
    if _core is None:
        raise CompiledMissing("the compiled Devil's Throne engine is not built; install a C compiler "
                              "and the Python headers, then reinstall usurper")


def _full_reserve(remaining: tuple[int, ...]) -> tuple[int, ...]:
    # The cards already taken never matter again: pad the top with placeholders so that
    # depth = 3 - len(remaining) points at the remaining top.
    return (4,) * (RESERVE_SIZE - len(remaining)) + tuple(remaining)
