"""Benchmarks: solve a range of seeds and summarise the figures users ask for.

Measured, never asserted: the rows carry each deal's verdict, states and seconds (the
replay check of the line included), and `summary` turns them into decided share,
median / p90 / p99 / max seconds, states, the win rate with its Wilson 95 % interval and,
with a baseline engine run side by side on the same deals, the state ratio per deal.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable

from games.base import Game
from solver.analysis import analyse
from solver.answers import UNDECIDED, WON, Budget
from solver.seeds import SeedRanges, parse_seed_ranges
from solver.stats import median, percentile, wilson_interval
from solver.verify import check_claim


def parse_seed_range(text: str) -> list[int]:
    """The seeds of `text` as a sorted list, once each (solver.seeds.parse_seed_ranges reads
    it, with its maximum); the bench scripts' small ranges.  The CLI keeps the ranges lazy."""
    return list(parse_seed_ranges(text))


def timed_solve(game: Game, state, mode: str, engine: str, time_limit: float) -> dict:
    """One solve with its line replayed, as a row of figures."""
    started = time.perf_counter()
    result = analyse(game, state, mode, Budget(time_limit=time_limit), engine)
    if result.line_score is not None:
        check_claim(game, state, result.line, result.verdict == WON, result.line_score)
    return {
        "verdict": result.verdict, "score": result.score, "states": result.stats.states, "engine": result.engine,
        "decided": result.verdict != UNDECIDED and (mode == "winnable" or result.score is not None),
        "seconds": time.perf_counter() - started,
    }


def run(game: Game, seeds: Iterable[int], mode: str, engine: str, time_limit: float,
        baseline: str | None = None, baseline_limit: float = 10.0,
        each: Callable[[dict], None] = lambda row: None) -> list[dict]:
    rows = []
    for seed in seeds:
        state = game.initial_state(game.deal_from_seed(seed))
        row = {"seed": seed, **timed_solve(game, state, mode, engine, time_limit)}
        if baseline:
            base = timed_solve(game, state, mode, baseline, baseline_limit)
            row["base_states"], row["base_decided"], row["base_seconds"] = (
                base["states"], base["decided"], base["seconds"])
        rows.append(row)
        each(row)
    return rows


def deal_line(row: dict) -> str:
    """One deal's figures, as `--verbose` prints them; with a baseline, its states beside
    the engine's and their ratio (a lower bound, marked >=, where the baseline hit its cap
    before deciding)."""
    line = f"seed {row['seed']}: {row['verdict']} score={row['score']} states={row['states']} {row['seconds']:.3f}s"
    if "base_states" in row:
        ratio = row["base_states"] / max(row["states"], 1)
        capped = not row["base_decided"]
        line += (f"  baseline states={row['base_states']} {row['base_seconds']:.3f}s"
                 f"{' (capped)' if capped else ''}  ratio {'>=' if capped else ''}{ratio:,.1f}x")
    return line


def summary(rows: list[dict], mode: str, engine: str, baseline: str | None = None) -> list[str]:
    count = len(rows)
    decided = sum(row["decided"] for row in rows)
    won = sum(row["verdict"] == WON for row in rows)
    lost = sum(row["verdict"] == "LOST" for row in rows)
    unknown = count - won - lost
    seconds = [row["seconds"] for row in rows]
    states = [row["states"] for row in rows]
    low, _ = wilson_interval(won, count)
    _, high = wilson_interval(won + unknown, count)
    used = "/".join(sorted({row["engine"] for row in rows}))
    seeds = SeedRanges.of(row["seed"] for row in rows).text()  # '3,10-12' as run, not '3-12'
    lines = [
        f"{mode}, engine {engine} ({used}): {count} deal{'' if count == 1 else 's'}, seeds {seeds}",
        f"decided       {decided}/{count} = {100 * decided / count:.1f} %",
        (f"seconds       median {median(seconds):.4f}  p90 {percentile(seconds, 0.9):.4f}  "
        f"p99 {percentile(seconds, 0.99):.4f}  max {max(seconds):.4f}"),
        f"states        median {median(states):,.0f}  max {max(states):,}",
        (f"win rate      {won} won, {lost} lost, {unknown} unknown: {100 * won / count:.1f} %, "
        f"Wilson 95 % [{100 * low:.1f}, {100 * high:.1f}] % (unknown counted lost low, won high)"),
    ]
    compared = [row for row in rows if row["decided"]]
    if baseline and compared:
        # Only deals the engine decided: there its state count is what deciding took.
        ratios = [row["base_states"] / max(row["states"], 1) for row in compared]
        capped = sum(not row["base_decided"] for row in compared)
        base_seconds = [row["base_seconds"] for row in rows]
        base_decided = sum(row["base_decided"] for row in rows)
        lines += [
            (f"baseline      {baseline}: decided {base_decided}/{count}, seconds median "
            f"{median(base_seconds):.4f}  max {max(base_seconds):.4f}"),
            (f"state ratio   {baseline}/{engine} on the {len(compared)} deal{'' if len(compared) == 1 else 's'} "
            f"{engine} decided: median {median(ratios):,.1f}x  min {min(ratios):,.2f}x  max {max(ratios):,.1f}x "
            f"({capped} baseline run{' hit its' if capped == 1 else 's hit their'} cap: for those the ratio is a "
            "lower bound)"),
        ]
    return lines


#: `--quick`: winnability of seeds 0-19 with both Python engines side by side (so that their
#: state counts compare), under a minute.
QUICK = {"seeds": "0-19", "mode": "winnable", "engine": "pruned", "time_limit": 2.0, "baseline": "plain",
         "baseline_limit": 1.0}


def report(game: Game, seeds: Iterable[int], mode: str, engine: str, time_limit: float, baseline: str | None = None,
           baseline_limit: float = 10.0, each: Callable[[dict], None] = lambda row: None) -> list[str]:
    """Solve `seeds` and return the printed figures: a title line, then `summary`."""
    rows = run(game, seeds, mode, engine, time_limit, baseline, baseline_limit, each)
    title = f"{game.name} ({game.variant}), time limit {time_limit:g} s per deal"
    return [title, *summary(rows, mode, engine, baseline)]
