"""Start-up cost of the `usurper` command, as a user meets it: whole processes, side by side.

Runs a bare `python -c pass`, `usurper solve adaman --seed 5 --winnable-only` and
`usurper deal adaman --seed 5` in turn, `--runs` times each (interleaved, so that a change
in the machine's load falls on all three alike), and prints each one's median wall time and
CPU time (user + system: less swayed by other work on a busy machine) and their ratios to the
bare interpreter.  The target: both commands within 3x of `python -c pass`.  `--out FILE`
appends the rows to a CSV file, with the day, commit and load (bench/results/startup.csv).

A user meets compiled modules (pip writes the bytecode at install, Python at the first run), so
each command first runs once untimed with bytecode writing allowed: where the environment sets
PYTHONDONTWRITEBYTECODE, every timed run would otherwise compile every module again.

    python bench/startup.py --runs 15 [--out rows.csv]
"""

from __future__ import annotations

import argparse
import os
import resource
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


def warm_up(command: list[str]) -> None:
    """Run `command` once, untimed, writing the bytecode of every module it imports."""
    env = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run(command, cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL)


def timed(command: list[str]) -> tuple[float, float]:
    """One whole run of `command`: (wall seconds, CPU seconds of the process)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(command, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="runs of each command (default 15)")
    parser.add_argument("--out", help="also append the rows to this CSV file")
    args = parser.parse_args()
    runs = max(args.runs, 1)
    for command in COMMANDS.values():
        warm_up(command)
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in COMMANDS}
    for _ in range(runs):
        for name, command in COMMANDS.items():
            times[name].append(timed(command))
    bare_wall = statistics.median(wall for wall, _ in times["python -c pass"])
    bare_cpu = statistics.median(cpu for _, cpu in times["python -c pass"])
    width = max(map(len, COMMANDS))
    print(f"{'command':<{width}}  median wall s  ratio  median CPU s  ratio  ({runs} runs each)")
    rows = []
    for name, pairs in times.items():
        wall, cpu = statistics.median(w for w, _ in pairs), statistics.median(c for _, c in pairs)
        print(f"{name:<{width}}  {wall:12.3f}  {wall / bare_wall:4.2f}x  {cpu:12.3f}  {cpu / bare_cpu:4.2f}x")
        rows.append({"command": name, "runs": runs, "median_wall_s": round(wall, 4),
                     "wall_ratio": round(wall / bare_wall, 2), "median_cpu_s": round(cpu, 4),
                     "cpu_ratio": round(cpu / bare_cpu, 2)})
    if args.out:
        from common import append_rows

        append_rows(Path(args.out), rows)


if __name__ == "__main__":
    main()
