"""Fair hints: advice from what a player sees, never from the order of the face-down cards.

The position is a game's *visible* position (games/<game>/visible.py: the face-up rows and
the contents of the unknown cards).  Each move is valued by perfect-information Monte Carlo,
as lonelybot does for Klondike: sample an order of the unknown cards, play the move, solve
the result exactly under a small budget, and count a win only where the solver found one (a
sample that hits its budget is *unknown*, never a win).  The samples are shared out by a
bandit (UCB1) so that they go to the moves still in contention; the k-th sample of every
move is played in the same sampled world, so the moves are compared on equal terms.

The advice maximises the estimated chance of winning, then the mean score.  With at most one
unknown card every order gives the same state, so the fair hint is the clairvoyant one and
says it is exact.  Given a seed (`random.Random(seed)`) and no time limit the hint is
deterministic: budgets per sample count states, not seconds.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from typing import Any

from games.base import Game, UnsupportedGame, UsurperError, Verdict, VisiblePositions
from solver.analysis import analyse
from solver.hints import clairvoyant_hint
from solver.search import Budget
from solver.stats import wilson_interval

#: The module of each game that reads and samples visible positions.
#: Per-sample search: a few milliseconds with the compiled engines, and a state count, not a
#: time, so that a seeded hint repeats exactly.
SAMPLE_BUDGET = Budget(max_states=5000, max_table=1 << 17, max_memory_mb=64)
#: The exploration weight of UCB1 (sqrt 2 is the textbook value for rewards in 0..1).
EXPLORATION = math.sqrt(2)
#: A win is worth this much of a sample's reward; the rest is the score's share, so the
#: bandit also separates moves that no sample wins.
WIN_WEIGHT = 0.9


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

    @property
    def win_rate(self) -> float:
        return self.wins / self.samples if self.samples else 0.0

    @property
    def mean_score(self) -> float:
        return self.score_total / self.samples if self.samples else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """Wilson 95 % interval of the win chance (unknown samples count as not won)."""
        return wilson_interval(self.wins, self.samples)

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

    def report(self) -> dict:
        """For --json: the advice and every move's estimate."""
        return {
            "position": self.position, "move": self.move_text, "exact": self.exact, "samples": self.samples,
            "stopped_by_time": self.stopped_by_time,
            "verdict": str(self.verdict) if self.verdict else None, "secures": self.secures,
            "moves": [{"move": e.text, "samples": e.samples, "wins": e.wins, "unknown": e.unknown,
                       "win_rate": round(e.win_rate, 4), "interval": [round(x, 4) for x in e.interval],
                       "mean_score": round(e.mean_score, 2)} for e in self.estimates],
        }

    def lines(self, leading: int = 3) -> list[str]:
        """For people: the advice, then the leading moves with their win chance and interval."""
        if self.exact:
            worth = f"optimal score {self.secures}" if self.secures is not None else "optimum not proven"
            return [f"Fair hint (exact: the unknown cards can lie only one way): {self.move_text}",
                    f"  {str(self.verdict).lower()} with best play, {worth}"]
        note = " (stopped by the time limit)" if self.stopped_by_time else ""
        if len(self.estimates) == 1:
            note += "; the only legal move, so the clairvoyant hint too"
        out = [f"Fair hint: {self.move_text}  ({self.samples} samples{note})"]
        for estimate in self.estimates[:leading]:
            low, high = estimate.interval
            unknown = f", {estimate.unknown} undecided" if estimate.unknown else ""
            out.append(f"  {estimate.text:<28} wins {estimate.win_rate:6.1%} [{low:.1%}, {high:.1%}] "
                       f"mean score {estimate.mean_score:5.1f}  ({estimate.samples} samples{unknown})")
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


def fair_hint(game: Game, visible: Any, samples: int = 200, per_sample_budget: Budget = SAMPLE_BUDGET,
              rng: random.Random | None = None, time_limit: float | None = None,
              mode: str = "optimal") -> FairHint:
    """The move with the best estimated win chance (then mean score) over orders of the
    unknown cards.  `samples` counts solved samples over all moves (each move gets at least
    one); `mode` "winnable" only asks whether each sample wins (faster; scores then count
    wins only), "optimal" also the best score."""
    model = visible_model(game)
    rng = rng or random.Random(0)
    first = model.sample_state(game, visible, rng)
    outcome = game.outcome(first)
    if outcome is not None:
        raise UsurperError(f"the game is over ({outcome.text()}); there is no next move")
    position = model.format_visible(game, visible)
    if model.unknown_count(visible) <= 1:
        return _exact_hint(game, first, position)
    moves = game.legal_moves(first)
    arms = [MoveEstimate(move, model.move_words(game, first, move)) for move in moves]
    worlds = [first]
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    pulls, stopped = 0, False
    while pulls < max(samples, len(arms)):
        if deadline is not None and pulls >= len(arms) and time.perf_counter() > deadline:
            stopped = True
            break
        arm = _choose_arm(arms, pulls, game.max_score)
        while len(worlds) <= arm.samples:
            worlds.append(model.sample_state(game, visible, rng))
        _sample(game, worlds[arm.samples], arm, per_sample_budget, mode)
        pulls += 1
    ranked = tuple(sorted(arms, key=MoveEstimate.rank, reverse=True))
    return FairHint(ranked[0].move, ranked[0].text, position, ranked, pulls, False, stopped)


def fair_hint_for_state(game: Game, state: Any, **options) -> FairHint:
    """The fair hint of a full state, seeing only what a player sees of it."""
    return fair_hint(game, visible_of(game, state), **options)


# ----- helpers ----------------------------------------------------------------------------
def _exact_hint(game: Game, state: Any, position: str) -> FairHint:
    """One order of the unknown cards: the clairvoyant hint is the fair one."""
    advice = clairvoyant_hint(game, state, budget=Budget(time_limit=30.0))
    score = advice.secures if advice.secures is not None else advice.best_found or 0
    text = move_words(game, state, advice.move, peek=True)
    estimate = MoveEstimate(advice.move, text, 1, int(advice.verdict == Verdict.WON), 0, score, [score])
    return FairHint(advice.move, text, position, (estimate,), 1, True, False, advice.verdict,
                    advice.secures)


def _choose_arm(arms: list[MoveEstimate], pulls: int, max_score: int) -> MoveEstimate:
    """UCB1: every move once, then the best optimistic estimate (ties: the earlier move, as
    the game lists its moves best first)."""
    for arm in arms:
        if not arm.samples:
            return arm
    log_pulls = math.log(max(pulls, 1))

    def upper(arm: MoveEstimate) -> float:
        mean = WIN_WEIGHT * arm.win_rate + (1 - WIN_WEIGHT) * arm.mean_score / max(max_score, 1)
        return mean + EXPLORATION * math.sqrt(log_pulls / arm.samples)

    return max(arms, key=upper)


def _sample(game: Game, world: Any, arm: MoveEstimate, budget: Budget, mode: str) -> None:
    """Play the move in one sampled world and solve what follows under the budget."""
    child = game.apply(world, arm.move)
    outcome = game.outcome(child)
    if outcome is not None:
        won, unknown, score = outcome.won, False, outcome.score
    else:
        result = analyse(game, child, mode, budget)
        won = result.verdict == Verdict.WON
        unknown = result.verdict == Verdict.UNDECIDED and not won
        score = result.score if result.score is not None else result.line_score or 0
        if mode == "winnable":
            score = result.line_score if won and result.line_score is not None else 0
    arm.samples += 1
    arm.wins += won
    arm.unknown += unknown
    arm.score_total += score
    arm.scores.append(score)
