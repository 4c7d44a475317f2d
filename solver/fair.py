"""Fair hints: advice from what a player sees, never from the order of the face-down cards.

The position is a game's *visible* position (games/<game>/visible.py: the face-up rows and
the contents of the unknown cards).  Each move is valued by perfect-information Monte Carlo,
as lonelybot does for Klondike: sample an order of the unknown cards, play the move, solve
the result exactly under a small budget, and count a win only where the solver found one (a
sample that hits its budget is *unknown*, never a win).  Every move is valued on the same
sampled worlds (common random numbers: the k-th sample of each move is played in one world),
and the samples go to the moves still in contention by successive halving: each round gives
every surviving move the same number of new worlds, then keeps the better half, so a budget
of a few hundred samples is not spread thinly over thirty moves.

When few cards are unseen (`EXACT_CARDS`) and the game's model gives a state per order, the
hint is instead the exact fair optimum (solver/expectimax.py): an expectimax over which card
comes next, with no sampling error and no strategy fusion; where its node budget or the
time limit stops it, sampling takes over.

The advice maximises the estimated chance of winning, then the mean score; where positions
repeat, the score shares its weight with how soon the sampled wins come, so that a move
which gains nothing never ties with one that does.  With at most one
unknown card every order gives the same state, so the fair hint is the clairvoyant one and
says it is exact.  Given a seed (`random.Random(seed)`) and no time limit the hint is
deterministic: budgets per sample and of the expectimax count states, not seconds.  A time
limit is kept: no sample starts after it, and each sample's own search stops at it.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from games.base import Game, UnsupportedGame, UsurperError, Verdict, VisiblePositions
from solver.analysis import analyse
from solver.expectimax import FairExpectimax, SearchStopped, offers_exact
from solver.hints import clairvoyant_hint
from solver.search import Budget, SearchSettings
from solver.stats import wilson_interval

#: Solved samples a hint shares among the moves (successive halving), each of at most
#: sample_budget(game) states: the fair policy that docs/play.md measures, chosen on its curve;
#: a hint asked at the table keeps its time limit as well.
FAIR_SAMPLES = 600
#: Per-sample search: a few milliseconds with the compiled engines, and a state count, not a
#: time, so that a seeded hint repeats exactly.
SAMPLE_BUDGET = Budget(max_states=2000, max_table=1 << 16, max_memory_mb=32)
#: The same for games whose positions repeat: their search spends far more on a state.
REPEATING_SAMPLE_BUDGET = Budget(max_states=100, max_table=1 << 16, max_memory_mb=32)
#: The per-sample search's order: within a budget of states the order decides what a sample
#: finds, so the samples keep the order with which the fair policy was measured.
SAMPLE_SETTINGS = SearchSettings(keep_whole_refutations=False)
#: At most this many unseen cards: the exact fair optimum is tried before any sampling.
EXACT_CARDS = 4
#: The expectimax's budget per hint, in chance expansions (tens of microseconds each).
EXACT_NODES = 20_000
#: Without a time limit, the exact one-order hint still stops here (seconds).
EXACT_HINT_SECONDS = 30.0
#: A win is worth this much of a sample's reward; the rest is the score's share, so the
#: bandit also separates moves that no sample wins.
WIN_WEIGHT = 0.9
#: Where positions repeat, this much of the score's share goes to how soon a sample's win
#: comes (1 / (1 + moves to it)): there every move may win in every sample, and a move that
#: gains nothing (a pass) would tie with one that gains, so the player went round in circles.
QUICK_WEIGHT = 0.05


def win_then_score(won: float, score: float, max_score: int) -> float:
    """The fair hint's reward in 0..1 of a sample (or the mean of several): mostly the
    win, a little the score."""
    return WIN_WEIGHT * won + (1 - WIN_WEIGHT) * (score / max(max_score, 1))


@dataclass
class MoveEstimate:
    """What the samples of one move found: wins, unknowns (budget ran out), the score total."""

    move: Any
    text: str
    samples: int = 0
    wins: int = 0
    unknown: int = 0
    score_total: int = 0
    scores: list[int] = field(default_factory=list, repr=False)
    quickness_total: float = 0.0           # sum over won samples of 1 / (1 + moves to the win)
    moves_to_win_total: int = 0            # sum over won samples of the moves to the win
    survived: int = 0                      # halving rounds this move came through
    exact_value: tuple[float, float] | None = None  # expectimax: (win chance, mean score)

    @property
    def win_rate(self) -> float:
        if self.exact_value is not None:
            return self.exact_value[0]
        return self.wins / self.samples if self.samples else 0.0

    @property
    def mean_score(self) -> float:
        if self.exact_value is not None:
            return self.exact_value[1]
        return self.score_total / self.samples if self.samples else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """Wilson 95 % interval of the win chance (unknown samples count as not won)."""
        if self.exact_value is not None:
            return self.exact_value[0], self.exact_value[0]
        return wilson_interval(self.wins, self.samples)

    @property
    def mean_moves_to_win(self) -> float | None:
        """How many moves the sampled wins took on average (None: no sample won)."""
        return self.moves_to_win_total / self.wins if self.wins else None

    def reward(self, max_score: int, quick: bool = False) -> float:
        """The mean reward of a sample in 0..1: mostly the win, a little the score, and with
        `quick` (positions repeat) a little how soon the win comes."""
        if not quick:
            return win_then_score(self.win_rate, self.mean_score, max_score)
        score_share = self.mean_score / max(max_score, 1)
        quickness = self.quickness_total / self.samples if self.samples else 0.0
        return (WIN_WEIGHT * self.win_rate + (1 - WIN_WEIGHT - QUICK_WEIGHT) * score_share
                + QUICK_WEIGHT * quickness)

    def rank(self) -> tuple[float, float, int]:
        return self.win_rate, self.mean_score, self.samples


@dataclass(frozen=True)
class FairHint:
    """The advised move and the estimates behind it, best move first.  `exact`: every order
    of the unknown cards gives the same answer, so this is the clairvoyant hint."""

    move: Any
    move_text: str
    position: str
    estimates: tuple[MoveEstimate, ...]
    samples: int
    exact: bool
    stopped_by_time: bool = False
    verdict: Verdict | None = None   # exact hints: the solver's verdict
    secures: int | None = None       # exact hints: the proven optimum
    method: str = "sampled"          # "sampled", "expectimax" (exact fair optimum) or "one order"
    quick: bool = False              # positions repeat: sooner sampled wins rank first at equal chances

    def report(self) -> dict:
        """For --json: the advice and every move's estimate."""
        return {
            "position": self.position, "move": self.move_text, "exact": self.exact, "samples": self.samples,
            "stopped_by_time": self.stopped_by_time, "method": self.method,
            "verdict": str(self.verdict) if self.verdict else None, "secures": self.secures,
            "moves": [{"move": e.text, "samples": e.samples, "wins": e.wins, "unknown": e.unknown,
                       "win_rate": round(e.win_rate, 4), "interval": [round(x, 4) for x in e.interval],
                       "mean_score": round(e.mean_score, 2),
                       "mean_moves_to_win": None if e.mean_moves_to_win is None else round(e.mean_moves_to_win, 1)}
                      for e in self.estimates],
        }

    def lines(self, leading: int = 3) -> list[str]:
        """For people: the advice, then the leading moves with their win chance and interval."""
        if self.exact:
            worth = f"optimal score {self.secures}" if self.secures is not None else "optimum not proven"
            return [f"Fair hint (exact: the unknown cards can lie only one way): {self.move_text}",
                    f"  {str(self.verdict).lower()} with best play, {worth}"]
        if self.method == "expectimax":
            out = [f"Fair hint (exact fair optimum over the orders of the unseen cards): {self.move_text}"]
            for estimate in self.estimates[:leading]:
                out.append(f"  {estimate.text:<28} wins {estimate.win_rate:6.1%} "
                           f"mean score {estimate.mean_score:5.1f}  (exact)")
            return out
        note = " (stopped by the time limit)" if self.stopped_by_time else ""
        if len(self.estimates) == 1:
            note += "; the only legal move, so the clairvoyant hint too"
        out = [f"Fair hint: {self.move_text}  ({self.samples} samples{note})"]
        for estimate in self.estimates[:leading]:
            low, high = estimate.interval
            unknown = f", {estimate.unknown} undecided" if estimate.unknown else ""
            moves = estimate.mean_moves_to_win
            soon = f", won in {moves:.0f} moves on average" if self.quick and moves is not None else ""
            out.append(f"  {estimate.text:<28} wins {estimate.win_rate:6.1%} [{low:.1%}, {high:.1%}] "
                       f"mean score {estimate.mean_score:5.1f}  ({estimate.samples} samples{unknown}{soon})")
        return out


def visible_model(game: Game) -> VisiblePositions:
    """The game's visible-position module; games without one are refused in one line."""
    model = game.visible_positions()
    if model is None:
        raise UnsupportedGame(f"{game.name} has no visible positions yet: fair hints and play need them")
    return model


def move_words(game: Game, state: Any, move: Any, peek: bool = False) -> str:
    """A move naming the cards it acts on; `peek`: it may name a face-down card (clairvoyant)."""
    model = game.visible_positions()
    if model is None:
        return game.format_move(state, move)
    return model.move_words(game, state, move, peek)


def parse_visible(game: Game, text: str) -> Any:
    return visible_model(game).parse_visible(game, text)


def visible_of(game: Game, state: Any) -> Any:
    """What a player sees of a full state (a seeded deal after some moves)."""
    return visible_model(game).visible_of(game, state)


def visible_text(game: Game, state: Any) -> str:
    return visible_model(game).visible_text(game, state)


def sample_question(game: Game) -> str:
    """What each sample is asked: the optimum where wins score differently, since the best
    score then separates the moves that win in nearly every sample; else winnable, the
    cheaper question (every win scores alike, or the positions repeat and an optimum costs
    far more)."""
    if game.game_type.repeats or game.lowest_win_score >= game.max_score:
        return "winnable"
    return "optimal"


def sample_budget(game: Game) -> Budget:
    """A sample's budget: SAMPLE_BUDGET, or REPEATING_SAMPLE_BUDGET where positions repeat."""
    return REPEATING_SAMPLE_BUDGET if game.game_type.repeats else SAMPLE_BUDGET


def fair_hint(game: Game, visible: Any, samples: int = FAIR_SAMPLES, per_sample_budget: Budget | None = None,
              rng: random.Random | None = None, time_limit: float | None = None,
              mode: str | None = None, exact_nodes: int = EXACT_NODES,
              expectimax: FairExpectimax | None = None,
              clock: Callable[[], float] = time.perf_counter) -> FairHint:
    """The move with the best estimated win chance (then mean score) over orders of the
    unknown cards.  `samples` counts solved samples over all moves (each move gets at least
    one, unless the time limit comes first); `mode` "winnable" only asks whether each sample
    wins (faster; scores then count wins only), "optimal" also the best score (None:
    `sample_question`).
    `exact_nodes` (0: never) bounds the exact search tried when at most EXACT_CARDS cards
    are unseen; `expectimax` lends it a table kept between hints; `clock` is the time source
    of the limit.  `per_sample_budget` None: `sample_budget`."""
    model = visible_model(game)
    deadline = None if time_limit is None else clock() + time_limit
    per_sample_budget = per_sample_budget or sample_budget(game)
    mode = mode or sample_question(game)
    rng = rng or random.Random(0)
    first = model.sample_state(game, visible, rng)
    outcome = game.outcome(first)
    if outcome is not None:
        raise UsurperError(f"the game is over ({outcome.text()}); there is no next move")
    position = model.format_visible(game, visible)
    if model.unknown_count(visible) <= 1:
        return _exact_hint(game, first, position, deadline, clock)
    moves = game.legal_moves(first)
    if exact_nodes and len(moves) > 1 and model.unknown_count(visible) <= EXACT_CARDS and offers_exact(model):
        exact = _expectimax_hint(game, model, visible, first, position, exact_nodes, expectimax, deadline, clock)
        if exact is not None:
            return exact
    arms = [MoveEstimate(move, model.move_words(game, first, move)) for move in moves]
    sampler = _Worlds(game, model, visible, rng, first)
    pulls, stopped = _halving(game, arms, sampler, samples, per_sample_budget, mode, deadline, clock)
    quick = game.game_type.repeats
    ranked = tuple(sorted(arms, key=lambda arm: (arm.survived, arm.reward(game.max_score, quick), arm.samples),
                          reverse=True))
    if not ranked[0].samples:  # the time limit came before any sample: the game's own order
        best = game.order_moves(first, moves)[0]
        ranked = tuple(sorted(ranked, key=lambda arm: arm.move != best))
    return FairHint(ranked[0].move, ranked[0].text, position, ranked, pulls, False, stopped, quick=quick)


def fair_hint_for_state(game: Game, state: Any, **options) -> FairHint:
    """The fair hint of a full state, seeing only what a player sees of it."""
    return fair_hint(game, visible_of(game, state), **options)


# ----- helpers ----------------------------------------------------------------------------
def _exact_hint(game: Game, state: Any, position: str, deadline: float | None,
                clock: Callable[[], float]) -> FairHint:
    """One order of the unknown cards: the clairvoyant hint is the fair one."""
    seconds = EXACT_HINT_SECONDS if deadline is None else max(0.001, deadline - clock())
    advice = clairvoyant_hint(game, state, budget=Budget(time_limit=seconds))
    score = advice.secures if advice.secures is not None else advice.best_found or 0
    text = move_words(game, state, advice.move, peek=True)
    estimate = MoveEstimate(advice.move, text, 1, int(advice.verdict == Verdict.WON), 0, score, [score])
    return FairHint(advice.move, text, position, (estimate,), 1, True, False, advice.verdict,
                    advice.secures, method="one order")


def _expectimax_hint(game: Game, model: VisiblePositions, visible: Any, first: Any, position: str, nodes: int,
                     expectimax: FairExpectimax | None, deadline: float | None,
                     clock: Callable[[], float]) -> FairHint | None:
    """The exact fair optimum of every move, or None where the budget or deadline stops it."""
    search = expectimax or FairExpectimax(game, model, clock=clock)
    try:
        values = search.move_values(visible, deadline=deadline, node_budget=nodes)
    except SearchStopped:
        return None
    arms = [MoveEstimate(move, model.move_words(game, first, move), exact_value=value) for move, value in values]
    ranked = tuple(sorted(arms, key=MoveEstimate.rank, reverse=True))
    return FairHint(ranked[0].move, ranked[0].text, position, ranked, 0, False, method="expectimax")


class _Worlds:
    """The sampled worlds, shared by every move: world k is the k-th order drawn."""

    def __init__(self, game: Game, model: VisiblePositions, visible: Any, rng: random.Random, first: Any):
        self.game, self.model, self.visible, self.rng = game, model, visible, rng
        self.worlds = [first]

    def __getitem__(self, index: int) -> Any:
        while len(self.worlds) <= index:
            self.worlds.append(self.model.sample_state(self.game, self.visible, self.rng))
        return self.worlds[index]


def _halving(game: Game, arms: list[MoveEstimate], worlds: _Worlds, samples: int, budget: Budget, mode: str,
             deadline: float | None, clock: Callable[[], float]) -> tuple[int, bool]:
    """Successive halving over the moves on common worlds: each round shares its part of the
    samples equally among the moves alive (at least one each), then keeps the better half
    (ties: the earlier move, as the game lists its moves best first).  Returns the samples
    solved and whether the deadline stopped it."""
    alive = list(arms)
    rounds = max(1, math.ceil(math.log2(len(alive)))) if len(alive) > 1 else 1
    pulls, cap = 0, max(samples, len(arms))
    for done in range(rounds):
        each = max(1, (cap - pulls) // ((rounds - done) * len(alive)))
        target = alive[0].samples + each
        for arm in alive:
            while arm.samples < target and pulls < cap:
                now = None if deadline is None else clock()
                if now is not None and now >= deadline:
                    return pulls, True
                _sample(game, worlds[arm.samples], arm, _until(budget, deadline, now), mode)
                pulls += 1
        if len(alive) == 1 or pulls >= cap:
            break  # one move left, or the samples are spent (maybe mid-round)
        quick = game.game_type.repeats
        alive.sort(key=lambda arm: arm.reward(game.max_score, quick), reverse=True)  # stable: ties keep order
        alive = alive[:math.ceil(len(alive) / 2)]
        for arm in alive:
            arm.survived += 1
    return pulls, False


def _until(budget: Budget, deadline: float | None, now: float | None) -> Budget:
    """`budget` with its time limit cut to what is left at `now` before the deadline."""
    if deadline is None or now is None:
        return budget
    left = max(0.001, deadline - now)
    return replace(budget, time_limit=left if budget.time_limit is None else min(budget.time_limit, left))


def solve_sample(game: Game, state: Any, budget: Budget, mode: str) -> tuple[bool, bool, int, list]:
    """One sampled world from `state` on, solved under the budget and counted as the fair
    hint counts it: (won, unknown: the budget ran out first, score, the line found).  In
    mode "winnable" only a win scores."""
    outcome = game.outcome(state)
    if outcome is not None:
        return outcome.won, False, outcome.score, []
    result = analyse(game, state, mode, budget, settings=SAMPLE_SETTINGS)
    won = result.verdict == Verdict.WON
    unknown = result.verdict == Verdict.UNDECIDED and not won
    score = result.score if result.score is not None else result.line_score or 0
    if mode == "winnable":
        score = result.line_score if won and result.line_score is not None else 0
    return won, unknown, score, result.line


def _sample(game: Game, world: Any, arm: MoveEstimate, budget: Budget, mode: str) -> None:
    """Play the move in one sampled world and solve what follows under the budget."""
    won, unknown, score, line = solve_sample(game, game.apply(world, arm.move), budget, mode)
    moves_to_end = len(line)
    arm.samples += 1
    arm.wins += won
    arm.unknown += unknown
    arm.score_total += score
    arm.scores.append(score)
    if won:
        arm.quickness_total += 1 / (1 + moves_to_end)
        arm.moves_to_win_total += moves_to_end
