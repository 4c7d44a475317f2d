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
from solver.fair import fair_hint_for_state
from solver.search import Budget, solve
from solver.stats import wilson_interval

Policy = Callable[[Game, Any, random.Random], Any]
POLICIES = ("fair", "greedy", "random")
#: The fair policy's budget per decision: enough samples to separate clear moves, small
#: enough to play a deal in seconds.
FAIR_SAMPLES = 40
FAIR_SAMPLE_BUDGET = Budget(max_states=2000, max_table=1 << 16, max_memory_mb=32)
CLAIRVOYANT_BUDGET = Budget(time_limit=10.0, max_memory_mb=512)
#: Greedy Royal Assassin attacks a Pretender that survives only when at most this much
#: attack is then still needed to kill it.
CLOSE_TO_DEATH = 5


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
    if game.name == "adaman":
        return _greedy_adaman(game, state)
    if game.name == "royal-assassin":
        return _greedy_royal_assassin(game, state)
    raise UsurperError(f"no greedy policy for {game.name}")


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
        result = solve(game, game.initial_state(game.deal_from_seed(seed)), "winnable", "auto", budget)
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


# ----- greedy rules -----------------------------------------------------------------------
def _greedy_adaman(game: Game, state: Any) -> Any:
    from games.adaman.rules import PERSONALITY_BITS, RANK, rank_sum

    moves = game.legal_moves(state)
    if not moves[0][1]:
        return moves[0]  # an Excuse choice: the first card offered

    def preference(move: tuple[int, int]) -> tuple:
        target, payment = move
        person = bool(PERSONALITY_BITS >> target & 1)
        waste = rank_sum(payment) - RANK[target]  # a non-personality taken comes back as a resource
        return person, RANK[target] if person else 0, -waste, -payment.bit_count(), RANK[target]

    return max(moves, key=preference)


def _greedy_royal_assassin(game: Game, state: Any) -> Any:
    from games.royal_assassin.rules import VALUE, royal_attack, royal_defence

    moves = game.legal_moves(state)

    def on_table(position: Any) -> int:
        return sum(len(column) for column in position.columns)

    def still_needed(position: Any, column: int) -> int:
        code = position.columns[column][-1]
        return VALUE[code & 63] + royal_defence(code) - royal_attack(code)

    kills, closes, jokers = [], [], []
    for move in moves:
        if "(" not in move or move[0] not in "ARJ":
            continue
        child = game.apply(state, move)  # attacks and Jokers turn no stock card: no peeking
        killed = on_table(state) - on_table(child)
        if killed > 0:
            kills.append((killed, move))
        elif move[0] == "J":
            jokers.append(move)
        else:
            column = "CDHS".index(move[-2])
            if child.columns[column] and still_needed(child, column) <= CLOSE_TO_DEATH:
                closes.append((still_needed(child, column), move))
    if kills:
        return max(kills)[1]
    if closes:
        return min(closes)[1]
    if jokers:
        return jokers[0]
    for fallback in ("T", "P", "E"):
        if fallback in moves:
            return fallback
    return moves[0]
