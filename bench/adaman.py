"""Benchmark the Adaman solver over a seed range and print the figures issue 3 asks for.

    python bench/adaman.py --seeds 0-99 --mode winnable --time-limit 10
    python bench/adaman.py --quick            # a smoke run in well under a minute
    python bench/adaman.py --seeds 0-19 --baseline plain --baseline-limit 10

Times include the replay check of the printed line.  With --baseline the plain engine
(DFS + transposition table, no bounds) runs on the same deals in the same process, and
the state ratio plain/pruned is reported per deal; a baseline that ran out of budget
gives a lower bound on the ratio (shown with '>=').
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games import make_game  # noqa: E402
from solver.search import UNDECIDED, WON, Budget, solve  # noqa: E402
from solver.stats import median, percentile, wilson_interval  # noqa: E402
from solver.verify import check_claim  # noqa: E402


def main() -> None:
    args = parse_args()
    game = make_game("adaman", args.variant)
    seeds = range(args.first, args.last + 1)
    rows = [run_seed(game, seed, args) for seed in seeds]
    report(rows, args)


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", default="0-99", help="inclusive range A-B")
    parser.add_argument("--mode", choices=("optimal", "winnable"), default="optimal")
    parser.add_argument("--engine", choices=("pruned", "plain"), default="pruned")
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds per deal")
    parser.add_argument("--baseline", choices=("plain",), help="also run the plain engine on each deal")
    parser.add_argument("--baseline-limit", type=float, default=10.0, help="seconds per deal for the baseline")
    parser.add_argument("--variant", action="append", default=[])
    parser.add_argument("--quick", action="store_true", help="seeds 0-19, winnable, 2 s each, plain baseline 1 s")
    parser.add_argument("--verbose", action="store_true", help="one line per deal")
    args = parser.parse_args()
    if args.quick:
        args.seeds, args.mode, args.time_limit = "0-19", "winnable", 2.0
        args.baseline, args.baseline_limit = "plain", 1.0
    try:
        first, _, last = args.seeds.partition("-")
        args.first, args.last = int(first), int(last or first)
        if args.first < 0 or args.last < args.first:
            raise ValueError
    except ValueError:
        parser.error(f"bad seed range {args.seeds!r}: expected A-B with 0 <= A <= B")
    return args


def run_seed(game, seed: int, args) -> dict:
    state = game.initial_state(game.deal_from_seed(seed))
    row = {"seed": seed, **timed_solve(game, state, args.mode, args.engine, args.time_limit)}
    if args.baseline:
        base = timed_solve(game, state, args.mode, args.baseline, args.baseline_limit)
        row["base_states"], row["base_decided"] = base["states"], base["decided"]
    if args.verbose:
        print(f"seed {seed}: {row['verdict']} score={row['score']} states={row['states']} "
              f"{row['seconds']:.3f}s", flush=True)
    return row


def timed_solve(game, state, mode: str, engine: str, limit: float) -> dict:
    started = time.perf_counter()
    result = solve(game, state, mode, engine, Budget(time_limit=limit))
    if result.line_score is not None:
        check_claim(game, state, result.line, result.verdict == WON, result.line_score)
    decided = result.verdict != UNDECIDED and (mode == "winnable" or result.score is not None)
    return {
        "verdict": result.verdict, "score": result.score, "decided": decided,
        "states": result.stats.states, "seconds": time.perf_counter() - started,
    }


def report(rows: list[dict], args) -> None:
    count = len(rows)
    decided = [row for row in rows if row["decided"]]
    won = sum(row["verdict"] == WON for row in rows)
    undecided_win = sum(row["verdict"] == UNDECIDED for row in rows)
    seconds = [row["seconds"] for row in rows]
    print(f"Adaman {args.mode}, engine {args.engine}, seeds {args.first}-{args.last} ({count} deals), "
          f"limit {args.time_limit:g} s")
    print(f"decided: {len(decided)}/{count} = {100 * len(decided) / count:.1f} %")
    print(f"seconds per deal: median {median(seconds):.3f}  p90 {percentile(seconds, 0.9):.3f}  "
          f"p99 {percentile(seconds, 0.99):.3f}  max {max(seconds):.3f}")
    print(f"states per deal: median {median([r['states'] for r in rows]):,.0f}  max {max(r['states'] for r in rows):,}")
    low, _ = wilson_interval(won, count)
    _, high = wilson_interval(won + undecided_win, count)
    print(f"winnable: {won} won, {sum(r['verdict'] == 'LOST' for r in rows)} lost, {undecided_win} unknown; "
          f"win rate {100 * won / count:.1f} %, Wilson 95 % [{100 * low:.1f}, {100 * high:.1f}] % "
          f"(unknown counted lost for the low end, won for the high end)")
    if args.baseline:
        ratios = [r["base_states"] / max(r["states"], 1) for r in rows]
        capped = sum(not r["base_decided"] for r in rows)
        print(f"states ratio {args.baseline}/{args.engine}: median {median(ratios):,.1f}x  "
              f"min {min(ratios):,.2f}x  max {max(ratios):,.1f}x  ({capped} baseline runs hit their "
              f"{args.baseline_limit:g} s cap: for them the ratio is a lower bound)")


if __name__ == "__main__":
    main()
