"""The benchmark of the players that do not peek (solver/players.py).

- `random`: a uniform legal move (seeded).
- `greedy`: one rule per game, reading only what is face up (docs/play.md states them):
  Adaman: control a personality when one can be paid for, the highest-ranked first, with
  the payment that wastes least (overpays least, then spends the fewest cards); else take
  the Capital card whose payment wastes least (resources after the move: most), the
  highest-ranked on ties.  Royal Assassin: a move that kills a Royal (the one killing most);
  else a reserve attack R(X) or an attack A(X) that leaves the least attack still needed to
  kill that Pretender, when that is at most 5; else a Joker placement; else T, else P, else E.
- `fair`: the fair hint (solver/fair.py) with its defaults, so that the policy measured is the
  advice `hint --fair` and play give: solved samples per decision (each asked
  `sample_question`) shared out by successive halving on common worlds, and the exact fair optimum
  (expectimax, solver/expectimax.py) when few cards are unseen, its table kept from one
  decision to the next (visible positions do not depend on the deal they came from).

The benchmark plays each seed with each policy and sets their win rates (Wilson 95 %) beside
the clairvoyant winnable rate of the same seeds: what a player who saw the deck could reach.
`bench_curve` plays the fair policy at several budgets (win rate against CPU time per
decision) and `plot_curves` draws it.  Time is CPU time (time.process_time), since the
machines that run benchmarks are shared.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from games.base import Game, Verdict
from solver.analysis import analyse
from solver.answers import Budget
from solver.catalogue.store import write_atomically
from solver.expectimax import FairExpectimax, SearchStopped, offers_exact
from solver.fair import FAIR_SAMPLES, fair_hint_for_state
from solver.players import MAX_DECISIONS, PlayedDeal, Policy, play_deal, policy
from solver.stats import wilson_interval
from usurper.app.play import first_drop

CLAIRVOYANT_BUDGET = Budget(time_limit=10.0, max_memory_mb=512)


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
        stalled = sum(deal.stalled for deal in self.deals)
        return (f"{self.name:<12} {self.wins:5d}/{count:<5d} won {self.wins / max(count, 1):7.2%} "
                f"[{low:.2%}, {high:.2%}]  mean score {mean:6.2f}  {per_decision * 1000:8.2f} ms CPU/decision"
                + (f"  ({stalled} stalled after {MAX_DECISIONS} decisions)" if stalled else ""))

    def row(self) -> dict:
        """The figures as data: wins, deals, Wilson interval, mean score, CPU per decision."""
        count = len(self.deals)
        low, high = wilson_interval(self.wins, count)
        decisions = sum(deal.decisions for deal in self.deals)
        return {"policy": self.name, "wins": self.wins, "deals": count, "win_rate": self.wins / max(count, 1),
                "low": low, "high": high, "mean_score": sum(deal.score for deal in self.deals) / max(count, 1),
                "decisions": decisions, "stalled": sum(deal.stalled for deal in self.deals),
                "cpu_per_decision": sum(deal.seconds for deal in self.deals) / max(decisions, 1)}


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


def bench_curve(game: Game, seeds: list[int], budgets: Iterable[int],
                each: Callable[[str, PlayedDeal], None] | None = None) -> list[dict]:
    """The fair policy at each budget (solved samples per decision): one row per budget with
    its win rate, Wilson interval, mean score and CPU seconds per decision."""
    rows = []
    for samples in budgets:
        report = PolicyReport(f"fair-{samples}")
        choose = policy("fair", samples)
        for seed in seeds:
            deal = play_deal(game, seed, choose)
            report.deals.append(deal)
            if each is not None:
                each(report.name, deal)
        rows.append({"game": game.name, "samples": samples, **report.row()})
    return rows


def curve_lines(rows: list[dict]) -> list[str]:
    """The rows of bench_curve as CSV (header first)."""
    keys = ("game", "samples", "wins", "deals", "win_rate", "low", "high", "mean_score", "decisions",
            "cpu_per_decision")
    return [",".join(keys)] + [",".join(f"{row[key]:.4f}" if isinstance(row[key], float) else str(row[key])
                                        for key in keys) for row in rows]


def plot_curves(rows: list[dict], path: str, clairvoyant: dict[str, float] | None = None) -> None:
    """Win rate (Wilson 95 % bars) against CPU seconds per decision, one line per game, on a
    log time axis; a dashed line at each game's clairvoyant rate when given."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.ticker

    figure, axes = plt.subplots(figsize=(7, 4.5))
    for name in dict.fromkeys(row["game"] for row in rows):
        mine = sorted((row for row in rows if row["game"] == name), key=lambda row: row["cpu_per_decision"])
        x = [row["cpu_per_decision"] for row in mine]
        y = [100 * row["win_rate"] for row in mine]
        errors = [[100 * (row["win_rate"] - row["low"]) for row in mine],
                  [100 * (row["high"] - row["win_rate"]) for row in mine]]
        line = axes.errorbar(x, y, yerr=errors, marker="o", capsize=3, label=f"{name} fair")
        for row, xi, yi in zip(mine, x, y):
            axes.annotate(str(row["samples"]), (xi, yi), textcoords="offset points", xytext=(4, -10), fontsize=7)
        if clairvoyant and name in clairvoyant:
            axes.axhline(100 * clairvoyant[name], linestyle="--", color=line[0].get_color(), linewidth=1,
                         label=f"{name} clairvoyant")
    axes.set_xscale("log")
    axes.xaxis.set_major_locator(matplotlib.ticker.LogLocator(subs=(1, 2, 5)))
    axes.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda seconds, _: f"{seconds:g}"))
    axes.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())  # 1, 2, 5 times powers of ten only
    axes.set_xlabel("CPU seconds per decision (labels: solved samples)")
    axes.set_ylabel("deals won (%)")
    axes.set_ylim(0, 100)
    axes.grid(True, alpha=0.3)
    axes.legend(fontsize=8)
    figure.tight_layout()
    try:
        write_atomically(Path(path), lambda handle: figure.savefig(handle, format="png", dpi=120))
    finally:
        plt.close(figure)


def exact_gap(game: Game, seeds: Iterable[int], choose: Policy, unseen: int, nodes: int = 2_000_000,
              rng_seed: int = 0) -> list[dict]:
    """The policy against the exact fair optimum where it can be computed: each seed is played
    by the policy to its first decision with at most `unseen` cards face down; there the best
    win chance of any fair player (V) is set beside the chance the policy's move keeps with
    best fair play after it (Q), and the policy plays on to the end (won).  Seeds where the
    deal ends first, or the expectimax exceeds `nodes`, are left out."""
    model = game.visible_positions()
    search = FairExpectimax(game, model)
    rows = []
    for seed in seeds:
        rng = random.Random(rng_seed * 1_000_003 + seed)
        state = game.initial_state(game.deal_from_seed(seed))
        row = None
        while game.outcome(state) is None:
            moves = game.legal_moves(state)
            move = moves[0] if len(moves) == 1 else choose(game, state, rng)
            visible = model.visible_of(game, state)
            if row is None and len(moves) > 1 and len(visible.unknown) <= unseen:
                try:
                    values = dict(search.move_values(visible, node_budget=nodes))
                except SearchStopped:
                    break
                best = max(value[0] for value in values.values())
                row = {"seed": seed, "unseen": len(visible.unknown), "moves": len(moves), "optimum": best,
                       "policy_move": values[move][0]}
            state = game.apply(state, move)
        if row is not None and game.outcome(state) is not None:
            rows.append({**row, "won": game.outcome(state).won})
    return rows


#: Whether a position can still be won, asked along a lost line (where_fair_lost).
WHERE_LOST_BUDGET = Budget(time_limit=30.0, max_memory_mb=2048)
#: where_fair_lost tries the exact fair optimum at a decision with at most this many cards
#: unseen (seven cost seconds; ten exceed two million expectimax nodes).
EXACT_UNSEEN = 7


def where_fair_lost(game: Game, seeds: Iterable[int], choose: Policy, samples: int = 600,
                    budget: Budget = WHERE_LOST_BUDGET, rng_seed: int = 0, exact_nodes: int = 2_000_000) -> list[dict]:
    """Where a policy that does not peek loses deals a clairvoyant player wins: each seed is
    played by `choose`; for a lost deal whose start can be won, the decision after which it
    no longer can (bisection along the line: a deal's future is fixed, so a position that
    cannot be won never leads to one that can) is set out with the score the deal ended
    with, the cards then unseen, the move played and the moves that kept the win, and the
    fair hint's estimates of both (`samples`, fresh worlds): how far apart a player who does
    not see the deck finds them; where the exact fair optimum fits in `exact_nodes`
    expectimax nodes, the exact win chance of each as well.  Deals where a winnability
    search runs out of budget are left out."""
    rows = []
    model = game.visible_positions()
    exact = bool(exact_nodes) and offers_exact(model)
    for seed in seeds:
        moves: list[Any] = []
        deal = play_deal(game, seed, choose, rng_seed, line=moves)
        if deal.won:
            continue
        states = [game.initial_state(game.deal_from_seed(seed))]
        for move in moves:
            states.append(game.apply(states[-1], move))
        index = _where_win_lost(game, states, budget)
        if index is None:
            continue
        state, played = states[index - 1], moves[index - 1]
        keeping = _moves_keeping_the_win(game, state, budget)
        if keeping is None:
            continue
        visible = model.visible_of(game, state)
        words = {move: model.move_words(game, state, move) for move in game.legal_moves(state)}
        hint = fair_hint_for_state(game, state, samples=samples, rng=random.Random(seed), exact_nodes=0)
        estimated = {arm.move: arm.win_rate for arm in hint.estimates}
        exact_chance = _exact_chances(game, model, visible, exact_nodes) if exact else {}
        rows.append({"seed": seed, "score": deal.score, "move": index, "unseen": model.unknown_count(visible),
                     "legal": len(words), "played": words[played],
                     "kept_win": " | ".join(words[move] for move in keeping),
                     **_played_and_best_kept("estimate", estimated, played, keeping),
                     **_played_and_best_kept("exact", exact_chance, played, keeping)})
    return rows


def _where_win_lost(game: Game, states: list[Any], budget: Budget) -> int | None:
    """The move (1-based) after which the line's first state can no longer be won; None if
    it never could or a search ran out of budget."""
    cache: dict[int, int | None] = {}

    def winnable(index: int) -> int | None:
        if index not in cache:
            cache[index] = _can_win(game, states[index], budget)
        return cache[index]

    if winnable(0) != 1 or winnable(len(states) - 1) != 0:
        return None
    return first_drop(len(states) - 1, winnable, 1)


def _can_win(game: Game, state: Any, budget: Budget) -> int | None:
    """1 where the position can be won, 0 where not, None where the budget ran out."""
    outcome = game.outcome(state)
    if outcome is not None:
        return int(outcome.won)
    verdict = analyse(game, state, "winnable", budget).verdict
    return None if verdict == Verdict.UNDECIDED else int(verdict == Verdict.WON)


def _moves_keeping_the_win(game: Game, state: Any, budget: Budget) -> list[Any] | None:
    """The legal moves after which the position can still be won (None: a search ran out)."""
    keeping = []
    for move in game.legal_moves(state):
        can = _can_win(game, game.apply(state, move), budget)
        if can is None:
            return None
        if can:
            keeping.append(move)
    return keeping


def _exact_chances(game: Game, model: Any, visible: Any, nodes: int) -> dict[Any, float]:
    """Each move's exact fair win chance, where at most EXACT_UNSEEN cards are unseen and the
    expectimax fits in `nodes`; else no move's."""
    if model.unknown_count(visible) > EXACT_UNSEEN:
        return {}
    try:
        values = FairExpectimax(game, model).move_values(visible, node_budget=nodes)
    except SearchStopped:
        return {}
    return {move: value[0] for move, value in values}


def _played_and_best_kept(name: str, chance: dict[Any, float], played: Any, keeping: list[Any]) -> dict:
    """The chance of the move played and the best of those that kept the win (None where unknown)."""
    kept = [chance[move] for move in keeping if move in chance]
    return {f"played_{name}": _rounded(chance.get(played)), f"best_kept_{name}": _rounded(max(kept, default=None))}


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 4)
