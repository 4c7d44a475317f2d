"""King's Reign benchmark: first wins and optimum intervals over many seeds.

    .venv/bin/python bench/kings_reign.py --seeds 0-999 --time-limit 60
    .venv/bin/python bench/kings_reign.py --seeds 0-99 --time-limit 5 --baseline

Prints, for the cycle-aware search (solver/cycles.py, strategy "deep") and with `--baseline`
beside it the plain best-first search on the same deals: the share of deals won with a
replayed witness (and proven lost), the median and p99 time to the first win, the share
whose optimum is proven exact within the time limit, and the median gap between the best
win found and the sound upper bound on the rest.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games import make_game  # noqa: E402
from solver.analysis import analyse  # noqa: E402
from solver.answers import Budget  # noqa: E402

#: The front door's engine for each strategy of the search for repeating positions.
ENGINE_OF = {"deep": "pruned", "best-first": "plain"}


def parse_seeds(text: str) -> list[int]:
    seeds: list[int] = []
    for part in text.split(","):
        low, _, high = part.partition("-")
        seeds.extend(range(int(low), int(high or low) + 1))
    return seeds


def run(strategy: str, seeds: list[int], time_limit: float, optimal: bool, verbose: bool) -> dict:
    game = make_game("kings-reign")
    engine = ENGINE_OF[strategy]
    rows = []
    for seed in seeds:
        root = game.initial_state(game.deal_from_seed(seed))
        started = time.perf_counter()
        first = analyse(game, root, "winnable", Budget(time_limit=time_limit), engine)
        first_time = time.perf_counter() - started
        row = {"seed": seed, "first": str(first.verdict), "first_time": first_time, "first_score": first.line_score}
        if optimal:
            best = analyse(game, root, "optimal", Budget(time_limit=time_limit), engine)
            row.update(best=best.line_score, bound=best.upper_bound, exact=best.score is not None,
                       verdict=str(best.verdict), moves=len(best.line))
        rows.append(row)
        if verbose:
            print(strategy, row, flush=True)
    return summarise(rows, optimal)


def summarise(rows: list[dict], optimal: bool) -> dict:
    times = sorted(row["first_time"] for row in rows)
    figures = {
        "deals": len(rows),
        "won": sum(row["first"] == "WON" for row in rows) / len(rows),
        "lost": sum(row["first"] == "LOST" for row in rows) / len(rows),
        "median_first_ms": 1000 * statistics.median(times),
        "p99_first_ms": 1000 * times[min(len(times) - 1, int(0.99 * len(times)))],
    }
    if optimal:
        open_rows = [row for row in rows if not row["exact"] and row["best"] is not None and row["bound"] is not None]
        figures.update(
            exact=sum(row["exact"] for row in rows) / len(rows),
            median_gap=statistics.median(row["bound"] - row["best"] for row in open_rows) if open_rows else 0,
            median_best=statistics.median(row["best"] for row in rows if row["best"] is not None),
            perfect=sum(row["best"] == 85 for row in rows),
        )
    return figures


def report(name: str, figures: dict) -> str:
    text = (f"{name:>11}: {figures['deals']} deals, won with witness {100 * figures['won']:.1f} %, "
            f"proven lost {100 * figures['lost']:.1f} %, first win median {figures['median_first_ms']:.1f} ms, "
            f"p99 {figures['p99_first_ms']:.1f} ms")
    if "exact" in figures:
        text += (f"; optimum exact {100 * figures['exact']:.1f} % (perfect 85: {figures['perfect']}), "
                 f"median best {figures['median_best']}, median gap best-to-bound on the rest {figures['median_gap']}")
    return text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="0-99")
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds per search")
    parser.add_argument("--baseline", action="store_true", help="also run the plain best-first search")
    parser.add_argument("--no-optimal", action="store_true", help="first wins only")
    parser.add_argument("-v", "--verbose", action="store_true", help="one line per deal")
    args = parser.parse_args()
    seeds = parse_seeds(args.seeds)
    lines = [report("deep", run("deep", seeds, args.time_limit, not args.no_optimal, args.verbose))]
    if args.baseline:
        lines.append(report("best-first", run("best-first", seeds, args.time_limit, not args.no_optimal,
                                               args.verbose)))
    print(f"King's Reign, seeds {args.seeds}, time limit {args.time_limit:g} s per search")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
