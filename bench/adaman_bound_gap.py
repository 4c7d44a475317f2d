"""How far Adaman's fast bound is from the truth where it costs: `python bench/adaman_bound_gap.py`.

The optimal-score search spends its states proving that no line beats the optimum, on the
positions whose bound is above it.  This script collects those positions from the search
of a few deals (the Python "pruned" engine, with the bound hook recording), samples some,
solves each exactly (the compiled engine) and prints, by cards left in the deck:

- the median gap of the fast bound (`score_upper_bound`) over the position's true optimum;
- the same for the exact static covering problem CP-SAT answers (`refined_upper_bound`:
  integral payments, Capital cards bought before use, at most 4 kept);
- how many positions each bound would cut (bound <= the deal's optimum);
- how many of them cannot be won at all (their optimum is a loss): there the bound's
  relaxation still finds a win keeping more than the deal's optimum keeps.

It measures what a stronger bound could save, not the search's speed:

    python bench/adaman_bound_gap.py --seeds 14,8 --sample 60
"""

import argparse
import random
import statistics
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games import make_game  # noqa: E402
from solver.analysis import analyse  # noqa: E402
from solver.answers import Budget  # noqa: E402
from solver.cpsat import refined_upper_bound  # noqa: E402
from usurper.app.benchmark import parse_seed_range  # noqa: E402


def expanded_positions(game, state, optimum: int, time_limit: float) -> list:
    """The positions the pruned search bounds above `optimum` (those it must expand)."""
    found = []
    fast = game.score_upper_bound

    def recording(position):
        bound = fast(position)
        if bound > optimum:
            found.append(position)
        return bound

    game.score_upper_bound = recording
    try:
        analyse(game, state, "optimal", Budget(time_limit=time_limit), "pruned")
    finally:
        del game.score_upper_bound
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="14,8")
    parser.add_argument("--sample", type=int, default=60, help="positions per deal")
    parser.add_argument("--search-limit", type=float, default=60.0, help="seconds of pruned search per deal")
    parser.add_argument("--exact-limit", type=float, default=5.0, help="seconds to solve a position exactly")
    args = parser.parse_args()
    game = make_game("adaman")
    rows = defaultdict(list)
    for seed in parse_seed_range(args.seeds):
        state = game.initial_state(game.deal_from_seed(seed))
        optimum = analyse(game, state, "optimal", Budget(time_limit=args.search_limit), "compiled").score
        if optimum is None:
            print(f"seed {seed}: optimum not found in {args.search_limit:g} s; skipped")
            continue
        positions = expanded_positions(game, state, optimum, args.search_limit)
        sample = random.Random(seed).sample(positions, min(args.sample, len(positions)))
        for position in sample:
            truth = analyse(game, position, "optimal", Budget(time_limit=args.exact_limit), "compiled").score
            if truth is None:
                continue
            fast, exact = game.score_upper_bound(position), refined_upper_bound(game, position)
            assert exact >= truth and fast >= truth, game.describe(position)
            left = len(position.deal.cards) - position.dealt
            rows[left].append((fast - truth, exact - truth, fast <= optimum, exact <= optimum,
                               truth < game.lowest_win_score))
        print(f"seed {seed}: optimum {optimum}, {len(positions)} positions bounded above it, "
              f"{len(sample)} sampled", flush=True)
    print("cards left | positions | median gap: fast, exact cover | cut by: fast, exact cover | no win")
    for left in sorted(rows):
        group = rows[left]
        print(f"{left:10} | {len(group):9} | {statistics.median(g[0] for g in group):10} "
              f"{statistics.median(g[1] for g in group):6} | {sum(g[2] for g in group):11} "
              f"{sum(g[3] for g in group):5} | {sum(g[4] for g in group):6}")
    every = [g for group in rows.values() for g in group]
    if every:
        print(f"all: {len(every)} positions, the exact cover would cut {sum(g[3] for g in every)}, "
              f"the fast bound {sum(g[2] for g in every)}; {sum(g[4] for g in every)} cannot be won")


if __name__ == "__main__":
    main()
