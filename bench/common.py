"""What the bench scripts share: `usurper bench GAME`'s options and figures for
bench/adaman.py and bench/royal_assassin.py, through the library (usurper.app.benchmark), not the
command line; and rows of measured figures appended to a CSV file in bench/results/, each
with what makes it a fact: the day, the build (commit), the machine's load as it ran (the
1-minute load average: near 0 on an idle machine) and the command that measured it."""

import argparse
import csv
import datetime
import os
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games import make_game  # noqa: E402
from solver.analysis import ENGINES  # noqa: E402
from usurper.app import benchmark  # noqa: E402


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


def context() -> dict:
    """The columns every row gets: date, commit, load, command."""
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                                text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit = ""
    return {"date": datetime.date.today().isoformat(), "commit": commit,
            "load_1min": round(os.getloadavg()[0], 2),
            "measured_by": "python " + shlex.join([os.path.relpath(sys.argv[0], ROOT), *sys.argv[1:]])}


def append_rows(path: Path, rows: list[dict]) -> None:
    """Append `rows` (each with the `context` columns first) to the CSV file at `path`."""
    extra = context()
    rows = [{**extra, **row} for row in rows]
    new = not path.exists() or path.stat().st_size == 0
    with path.open("a", newline="", encoding="utf-8") as file:
        writer = csv.DictWriter(file, fieldnames=list(rows[0]))
        if new:
            writer.writeheader()
        writer.writerows(rows)
