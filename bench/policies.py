"""Policy benchmark: play seeds with policies that do not peek (fair hint, greedy, random)
and print each one's win rate (Wilson 95 %) and CPU time per decision beside the clairvoyant
winnable rate of the same seeds; the figures of `usurper bench GAME --policy ...`.

    python bench/policies.py adaman --seeds 0-499 --policy greedy --policy random --policy fair
    python bench/policies.py royal-assassin --seeds 0-499 --policy fair --samples 300
    python bench/policies.py adaman --seeds 0-99 --budgets 50,200,800 --csv a.csv --plot a.png
    python bench/policies.py adaman --seeds 0-99 --exact-gap 4
    python bench/policies.py royal-assassin --seeds 0-99 --where-lost --samples 300

--budgets plays the fair policy at each budget (solved samples per decision) and writes the
curve (win rate against CPU time per decision) as CSV and, with --plot, as a PNG (several
CSV files of curves can be drawn together with --plot-from).  --exact-gap N sets the exact
fair optimum beside the fair policy's move at its first decision with N cards unseen or
fewer.  --where-lost finds, in each deal the fair policy loses though it could be won, the
decision after which the win was gone, and sets the fair estimates of the move played and of
the moves that kept the win side by side (exact too where at most 7 cards are unseen).  The
figures measured are in bench/results/policies/ and quoted in docs/play.md.
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games import make_game  # noqa: E402
from solver.fair import FAIR_SAMPLES, sample_budget  # noqa: E402
from solver.players import POLICIES, policy  # noqa: E402
from usurper.app.benchmark import parse_seed_range  # noqa: E402
from usurper.app.policies import (  # noqa: E402
    bench_curve,
    bench_policies,
    curve_lines,
    exact_gap,
    plot_curves,
    where_fair_lost,
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", default="adaman")
    parser.add_argument("--seeds", default="0-99", help="inclusive seed range A-B")
    parser.add_argument("--policy", action="append", choices=POLICIES, help="repeatable [default: all three]")
    parser.add_argument("--samples", type=int, default=FAIR_SAMPLES, help="fair policy: samples per decision")
    parser.add_argument("--no-clairvoyant", action="store_true", help="skip the clairvoyant winnable rate")
    parser.add_argument("--variant", action="append", default=[])
    parser.add_argument("--budgets", help="fair policy curve: comma-separated samples per decision")
    parser.add_argument("--csv", help="--budgets: write the curve's rows here")
    parser.add_argument("--plot", help="--budgets or --plot-from: draw the curve(s) to this PNG")
    parser.add_argument("--plot-from", action="append", default=[], help="a curve CSV to draw (repeatable)")
    parser.add_argument("--exact-gap", type=int, help="exact fair optimum against the policy at N unseen cards")
    parser.add_argument("--exact-nodes", type=int, default=None, help="--exact-gap: the policy's own expectimax "
                        "budget (0: sampling only)")
    parser.add_argument("--where-lost", action="store_true", help="where the fair policy lost deals that "
                        "could be won, and how its estimates saw the moves there")
    args = parser.parse_args()
    started = time.process_time()
    command = "python bench/policies.py " + " ".join(sys.argv[1:])
    if args.plot_from:
        rows = []
        for path in args.plot_from:
            with open(path) as handle:
                rows += [_typed(row) for row in csv.DictReader(line for line in handle if not line.startswith("#"))]
        plot_curves(rows, args.plot)
        return
    game = make_game(args.game, args.variant)
    seeds = list(parse_seed_range(args.seeds))
    if args.budgets:
        rows = []
        for budget in (int(b) for b in args.budgets.split(",")):  # a row a budget, written as it comes
            rows += bench_curve(game, seeds, [budget])
            states = sample_budget(game).max_states
            lines = [f"# {command}", f"# {game.name}, seeds {args.seeds}, per-sample budget {states} states, "
                     f"CPU {time.process_time() - started:.0f} s", *curve_lines(rows)]
            print(lines[-1], flush=True)
            if args.csv:
                Path(args.csv).write_text("\n".join(lines) + "\n")
        if args.plot:
            plot_curves(rows, args.plot)
        return
    if args.exact_gap is not None:
        options = {} if args.exact_nodes is None else {"exact_nodes": args.exact_nodes}
        rows = exact_gap(game, seeds, policy("fair", args.samples, **options), args.exact_gap)
        print(f"# {command}\n# CPU {time.process_time() - started:.0f} s")
        print("seed,unseen,moves,optimum,policy_move,won")
        for row in rows:
            print(f"{row['seed']},{row['unseen']},{row['moves']},{row['optimum']:.4f},{row['policy_move']:.4f},"
                  f"{int(row['won'])}")
        count = max(len(rows), 1)
        print(f"# {len(rows)} deals: mean optimum {sum(r['optimum'] for r in rows) / count:.4f}, "
              f"mean kept by the policy's move {sum(r['policy_move'] for r in rows) / count:.4f}, "
              f"won by the policy {sum(r['won'] for r in rows)}/{len(rows)}")
        return
    if args.where_lost:
        _print_where_lost(where_fair_lost(game, seeds, policy("fair", args.samples)), command, started)
        return
    lines = bench_policies(game, seeds, args.policy or POLICIES, args.samples, not args.no_clairvoyant)
    print("\n".join([f"# {command}", *lines, f"# CPU {time.process_time() - started:.0f} s"]))


def _print_where_lost(rows: list[dict], command: str, started: float) -> None:
    print(f"# {command}\n# CPU {time.process_time() - started:.0f} s")
    writer = csv.DictWriter(sys.stdout, fieldnames=list(rows[0]) if rows else ["seed"], lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    gaps = [row["played_estimate"] - row["best_kept_estimate"] for row in rows
            if row["played_estimate"] is not None and row["best_kept_estimate"] is not None]
    unseen = sorted(row["unseen"] for row in rows)
    scores = sorted(row["score"] for row in rows)
    if rows:
        print(f"# {len(rows)} deals lost that could be won: unseen cards at the losing decision median "
              f"{unseen[len(unseen) // 2]} (from {unseen[0]} to {unseen[-1]}); the move played estimated "
              f"{sum(gaps) / max(len(gaps), 1):+.3f} against the best move that kept the win on average, "
              f"within 0.05 of it on {sum(abs(gap) <= 0.05 for gap in gaps)} of {len(gaps)}; the scores "
              f"they ended with median {scores[len(scores) // 2]} (from {scores[0]} to {scores[-1]})")


def _typed(row: dict) -> dict:
    out = {}
    for key, value in row.items():
        try:
            out[key] = int(value)
        except ValueError:
            try:
                out[key] = float(value)
            except ValueError:
                out[key] = value
    return out


if __name__ == "__main__":
    main()
