"""What bench/adaman.py and bench/royal_assassin.py share: `usurper bench GAME`'s options and
figures, through the library (app.benchmark), not the command line."""

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app import benchmark  # noqa: E402
from games import make_game  # noqa: E402
from solver.analysis import ENGINES  # noqa: E402


def main(game_name: str, argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=f"Solve a range of {game_name} seeds and print the figures.")
    parser.add_argument("--seeds", default="0-99", help="seed range A-B or a comma list (default 0-99)")
    parser.add_argument("--mode", choices=("optimal", "winnable"), default="optimal")
    parser.add_argument("--engine", choices=ENGINES, default="auto")
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds per deal")
    parser.add_argument("--baseline", choices=ENGINES, help="also run this engine on each deal, side by side")
    parser.add_argument("--baseline-limit", type=float, default=10.0)
    parser.add_argument("--variant", action="append", default=[], help="variant switch, repeatable")
    parser.add_argument("--quick", action="store_true", help="seeds 0-19, winnable, pruned beside plain")
    parser.add_argument("--verbose", action="store_true", help="one line per deal")
    args = parser.parse_args(argv)
    settings = vars(args) | (benchmark.QUICK if args.quick else {})
    game = make_game(game_name, args.variant)
    each = (lambda row: print(benchmark.deal_line(row), flush=True)) if args.verbose else (lambda row: None)
    print("\n".join(benchmark.report(
        game, benchmark.parse_seed_range(settings["seeds"]), settings["mode"], settings["engine"],
        settings["time_limit"], settings["baseline"], settings["baseline_limit"], each)))
