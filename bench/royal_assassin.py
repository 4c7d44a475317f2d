"""Benchmark: solve Royal Assassin seeds (optimal mode, pruned engine) and print the figures.

    python bench/royal_assassin.py --seeds 0-999 [--variant two_jokers --variant fixed_royals=4] [--time-limit 5]

Prints the share of deals decided within the budget, median / p99 / max seconds per deal,
and the win rate among decided deals with its Wilson 95 % interval.  Every solver line is
replayed through solver.verify before it is counted.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games import make_game  # noqa: E402
from solver.search import Budget, BudgetExceeded, solve  # noqa: E402
from solver.stats import median, percentile, wilson_interval  # noqa: E402
from solver.verify import check_claim  # noqa: E402


def seed_range(text: str) -> range:
    """'0-999' -> range(0, 1000); '7' -> range(7, 8)."""
    first, _, last = text.partition("-")
    try:
        low, high = int(first), int(last or first)
    except ValueError:
        raise argparse.ArgumentTypeError(f"seeds must look like 0-999, not {text!r}") from None
    if high < low:
        raise argparse.ArgumentTypeError(f"empty seed range {text!r}")
    return range(low, high + 1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=seed_range, default=seed_range("0-199"))
    parser.add_argument("--variant", action="append", default=[], help="variant word (repeatable, or comma separated)")
    parser.add_argument("--time-limit", type=float, default=5.0, help="seconds per deal (default 5)")
    parser.add_argument("--quiet", action="store_true", help="no per-seed lines for slow or undecided deals")
    args = parser.parse_args(argv)

    game = make_game("royal-assassin", args.variant)
    times, wins, decided, undecided = [], 0, 0, []
    started = time.perf_counter()
    for seed in args.seeds:
        state = game.initial_state(game.deal_from_seed(seed))
        clock = time.perf_counter()
        try:
            result = solve(game, state, "optimal", "pruned", Budget(time_limit=args.time_limit))
        except BudgetExceeded as exc:  # the budget ran out while the solver walked its line
            result = None
            why = str(exc)
        times.append(time.perf_counter() - clock)
        if result is None or result.score is None:
            why = why if result is None else result.exhausted
            undecided.append(seed)
            if not args.quiet:
                print(f"seed {seed}: undecided ({why})", flush=True)
            continue
        check_claim(game, state, result.line, result.verdict == "WON", result.score)
        decided += 1
        wins += result.verdict == "WON"

    total = len(times)
    low, high = wilson_interval(wins, decided)
    print(f"royal-assassin [{game.variant}] seeds {args.seeds.start}-{args.seeds.stop - 1}, "
          f"time limit {args.time_limit:g} s, {time.perf_counter() - started:.1f} s in all")
    print(f"decided   {decided}/{total} = {100 * decided / total:.1f} %")
    print(f"seconds   median {median(times):.4f}  p99 {percentile(times, 0.99):.3f}  max {max(times):.3f}")
    print(f"win rate  {wins}/{decided} = {100 * wins / max(decided, 1):.1f} %  "
          f"(Wilson 95 %: {100 * low:.1f}–{100 * high:.1f} %)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
