"""Policies that play a deal without peeking, and the benchmark that measures them.

- `random`: a uniform legal move (seeded).
- `greedy`: one rule per game, reading only what is face up (docs/play.md states them):
  Adaman: control a personality when one can be paid for, the highest-ranked first, with
  the payment that wastes least (overpays least, then spends the fewest cards); else take
  the Capital card whose payment wastes least (resources after the move: most), the
  highest-ranked on ties.  Royal Assassin: a move that kills a Royal (the one killing most);
  else a reserve attack R(X) or an attack A(X) that leaves the least attack still needed to
  kill that Pretender, when that is at most 5; else a Joker placement; else T, else P, else E.
- `fair`: the fair hint (solver/fair.py) in winnable mode with a small budget per decision.

The benchmark plays each seed with each policy and sets their win rates (Wilson 95 %) beside
the clairvoyant winnable rate of the same seeds: what a player who saw the deck could reach.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from games.base import Game, UsurperError, Verdict
from solver.analysis import analyse
from solver.fair import fair_hint_for_state
from solver.search import Budget
from solver.stats import wilson_interval

Policy = Callable[[Game, Any, random.Random], Any]
POLICIES = ("fair", "greedy", "random")
#: The fair policy's budget per decision: enough samples to separate clear moves, small
#: enough to play a deal in seconds.
FAIR_SAMPLES = 40
FAIR_SAMPLE_BUDGET = Budget(max_states=2000, max_table=1 << 16, max_memory_mb=32)
CLAIRVOYANT_BUDGET = Budget(time_limit=10.0, max_memory_mb=512)


def policy(name: str, samples: int = FAIR_SAMPLES) -> Policy:
    """The named policy as a function (game, state, rng) -> move."""
    if name == "random":
        return lambda game, state, rng: rng.choice(game.legal_moves(state))
    if name == "greedy":
        return greedy_move
    if name == "fair":
        return lambda game, state, rng: fair_move(game, state, rng, samples)
    raise UsurperError(f"unknown policy {name!r} (known: {', '.join(POLICIES)})")


def fair_move(game: Game, state: Any, rng: random.Random, samples: int = FAIR_SAMPLES) -> Any:
    moves = game.legal_moves(state)
    if len(moves) == 1:
        return moves[0]
    hint = fair_hint_for_state(game, state, samples=samples, per_sample_budget=FAIR_SAMPLE_BUDGET, rng=rng,
                               mode="winnable")
    return hint.move


def greedy_move(game: Game, state: Any, rng: random.Random) -> Any:
    """The game's own greedy rule (Game.greedy_move; each game documents it in docs/play.md)."""
    return game.greedy_move(state)


@dataclass
class PlayedDeal:
    seed: int
    won: bool
    score: int
    decisions: int      # positions where the policy chose among two moves or more
    seconds: float      # time spent choosing


def play_deal(game: Game, seed: int, choose: Policy, rng_seed: int = 0) -> PlayedDeal:
    """One deal from its seed to its end, every move chosen by `choose`."""
    rng = random.Random(rng_seed * 1_000_003 + seed)
    state = game.initial_state(game.deal_from_seed(seed))
    decisions, seconds = 0, 0.0
    while game.outcome(state) is None:
        moves = game.legal_moves(state)
        if len(moves) == 1:
            move = moves[0]
        else:
            started = time.perf_counter()
            move = choose(game, state, rng)
            seconds += time.perf_counter() - started
            decisions += 1
        state = game.apply(state, move)
    outcome = game.outcome(state)
    return PlayedDeal(seed, outcome.won, outcome.score, decisions, seconds)


@dataclass
class PolicyReport:
    name: str
    deals: list[PlayedDeal] = field(default_factory=list)

    @property
    def wins(self) -> int:
        return sum(deal.won for deal in self.deals)

    def line(self) -> str:
        count = len(self.deals)
        low, high = wilson_interval(self.wins, count)
        decisions = sum(deal.decisions for deal in self.deals)
        per_decision = sum(deal.seconds for deal in self.deals) / max(decisions, 1)
        mean = sum(deal.score for deal in self.deals) / max(count, 1)
        return (f"{self.name:<12} {self.wins:5d}/{count:<5d} won {self.wins / max(count, 1):7.2%} "
                f"[{low:.2%}, {high:.2%}]  mean score {mean:6.2f}  {per_decision * 1000:8.2f} ms/decision")


def clairvoyant_report(game: Game, seeds: Iterable[int], budget: Budget = CLAIRVOYANT_BUDGET) -> str:
    """The winnable rate of the seeds for a player who sees the deck (the exact solver)."""
    won = undecided = count = 0
    for seed in seeds:
        result = analyse(game, game.initial_state(game.deal_from_seed(seed)), "winnable", budget)
        won += result.verdict == Verdict.WON
        undecided += result.verdict == Verdict.UNDECIDED
        count += 1
    low, high = wilson_interval(won, count)
    extra = f", {undecided} undecided" if undecided else ""
    rate = won / max(count, 1)
    return f"{'clairvoyant':<12} {won:5d}/{count:<5d} winnable {rate:7.2%} [{low:.2%}, {high:.2%}]{extra}"


def bench_policies(game: Game, seeds: list[int], names: Iterable[str], samples: int = FAIR_SAMPLES,
                   clairvoyant: bool = True, each: Callable[[str, PlayedDeal], None] | None = None) -> list[str]:
    """Play every seed with each named policy; one line per policy, then the clairvoyant rate."""
    lines = [f"{game.name} ({game.variant}), {len(seeds)} deals (seeds {seeds[0]}-{seeds[-1]})"]
    for name in names:
        report = PolicyReport(name)
        choose = policy(name, samples)
        for seed in seeds:
            deal = play_deal(game, seed, choose)
            report.deals.append(deal)
            if each is not None:
                each(name, deal)
        lines.append(report.line())
    if clairvoyant:
        lines.append(clairvoyant_report(game, seeds))
    return lines
