"""Two versions of the solver side by side, deal by deal: `python bench/ab.py OLD NEW [options]`.

A simultaneous-move game (Devil's Throne) is asked every question for seat 1; its "score" is
then the values of every question, compared exactly (Q4 to nine decimals).

OLD and NEW are source trees (a git worktree of an older commit, and this one), each with
its compiled engines built in place (`python setup.py build_ext --inplace`).  For every
seed both trees solve the same deal in turn, each in a fresh process that imports only its
own code and solves it as `usurper bench` does (usurper.app.benchmark.timed_solve: the line is
replayed), so the figures of a change are measured beside its baseline on the same machine
at the same time (rather than against a table measured another day):

    git worktree add /tmp/old <commit> && (cd /tmp/old && python setup.py build_ext --inplace)
    python bench/ab.py /tmp/old . --seeds 0-99 --time-limit 20

Prints one line per deal, then: deals decided by each, whether every verdict and score of
the deals both decided agree, the median / min / max state ratio OLD/NEW, the median
seconds of each, and the median / min / max time ratio NEW/OLD deal by deal.
"""

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from usurper.app.benchmark import parse_seed_range  # noqa: E402

ONE_DEAL = r"""
import json, os, sys, time
from games import make_game
from solver.search import Budget
game = make_game(sys.argv[1], [v for v in sys.argv[5].split(",") if v])
state = game.initial_state(game.deal_from_seed(int(sys.argv[2])))
limit = float(sys.argv[3])
if not game.game_type.simultaneous:
    # the tree's own application, wherever that tree kept it (an installed usurper may be another's)
    if os.path.isdir("usurper/app"):
        from usurper.app.benchmark import timed_solve
    elif os.path.isdir("app"):
        from app.benchmark import timed_solve
    else:
        from solver.benchmark import timed_solve
    print(json.dumps(timed_solve(game, state, sys.argv[4], "auto", limit)))
    sys.exit(0)
started = time.perf_counter()
try:
    from solver.analysis import SeatQuestions, analyse
    analysis = analyse(game, state, SeatQuestions(0), Budget(time_limit=limit))
except ImportError:  # a tree from before the front door
    from solver.simultaneous import QUESTIONS, analyse
    asked = tuple(q for q in QUESTIONS if q != "q4" or len(game.returns(state)) == 2)
    analysis = analyse(game, state, 0, asked, Budget(time_limit=limit))
values = {q: [a.cards, None if a.margin is None else round(a.margin, 9)] for q, a in analysis.answers.items()}
decided = all(a.decided for a in analysis.answers.values())
print(json.dumps({"verdict": "DECIDED" if decided else "UNDECIDED", "score": json.dumps(values), "decided": decided,
                  "states": analysis.stats.states, "seconds": time.perf_counter() - started}))
"""


def solve_in(tree: Path, args, seed: int) -> dict:
    """One deal solved by the code of `tree`, in a process of its own."""
    done = subprocess.run(
        [sys.executable, "-c", ONE_DEAL, args.game, str(seed), str(args.time_limit), args.mode, args.variant],
        cwd=tree, env={"PYTHONPATH": str(tree)}, capture_output=True, text=True,
    )
    if done.returncode != 0:
        sys.exit(f"ab: {tree} failed on seed {seed}: {done.stderr.strip().splitlines()[-1:]}")
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", type=Path)
    parser.add_argument("new", type=Path)
    parser.add_argument("--game", default="adaman")
    parser.add_argument("--seeds", default="0-19")
    parser.add_argument("--mode", choices=("optimal", "winnable"), default="optimal")
    parser.add_argument("--time-limit", type=float, default=20.0)
    parser.add_argument("--variant", default="", help="comma-separated variant switches")
    args = parser.parse_args()
    rows = []
    for seed in parse_seed_range(args.seeds):
        old, new = solve_in(args.old, args, seed), solve_in(args.new, args, seed)
        rows.append((old, new))
        print(f"seed {seed}: old {old['verdict']} {old['score']} {old['states']:,} {old['seconds']:.3f}s | "
              f"new {new['verdict']} {new['score']} {new['states']:,} {new['seconds']:.3f}s", flush=True)
    both = [(old, new) for old, new in rows if old["decided"] and new["decided"]]
    agree = all((old["verdict"], old["score"]) == (new["verdict"], new["score"]) for old, new in both)
    print(f"decided: old {sum(old['decided'] for old, _ in rows)}, new {sum(new['decided'] for _, new in rows)} "
          f"of {len(rows)}; both {len(both)}, verdicts and scores {'all agree' if agree else 'DIFFER'}")
    if both:
        ratios = sorted(old["states"] / max(new["states"], 1) for old, new in both)
        print(f"states old/new on those: median {statistics.median(ratios):.2f}, "
              f"min {ratios[0]:.2f}, max {ratios[-1]:.2f}")
    print(f"median seconds: old {statistics.median(old['seconds'] for old, _ in rows):.3f}, "
          f"new {statistics.median(new['seconds'] for _, new in rows):.3f}")
    if both:
        # deal by deal, the two runs side by side: a ratio survives a machine whose speed drifts
        times = sorted(new["seconds"] / old["seconds"] for old, new in both)
        print(f"time new/old on those: median {statistics.median(times):.2f}, min {times[0]:.2f}, max {times[-1]:.2f}")


if __name__ == "__main__":
    main()
