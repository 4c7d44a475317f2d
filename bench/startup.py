"""Start-up cost of the `usurper` command, as a user meets it: whole processes, side by side.

Runs a bare `python -c pass`, `usurper solve adaman --seed 5 --winnable-only` and
`usurper deal adaman --seed 5` in turn, `--runs` times each (interleaved, so that a change
in the machine's load falls on all three alike), and prints each one's median wall time and
its ratio to the bare interpreter.  The target: both commands within 3x of `python -c pass`.

    python bench/startup.py --runs 15
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
USURPER = [sys.executable, "-c", "import cli; cli.main()"]
COMMANDS = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "usurper solve adaman --seed 5 --winnable-only": [*USURPER, "solve", "adaman", "--seed", "5", "--winnable-only"],
    "usurper deal adaman --seed 5": [*USURPER, "deal", "adaman", "--seed", "5"],
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="runs of each command (default 15)")
    runs = parser.parse_args().runs
    times: dict[str, list[float]] = {name: [] for name in COMMANDS}
    for _ in range(max(runs, 1)):
        for name, command in COMMANDS.items():
            started = time.perf_counter()
            subprocess.run(command, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
            times[name].append(time.perf_counter() - started)
    bare = statistics.median(times["python -c pass"])
    width = max(map(len, COMMANDS))
    print(f"{'command':<{width}}  median s  ratio to python -c pass  ({runs} runs each)")
    for name, seconds in times.items():
        median = statistics.median(seconds)
        print(f"{name:<{width}}  {median:8.3f}  {median / bare:5.2f}x")


if __name__ == "__main__":
    main()
