"""The figures of this folder from its three runs: `python bench/results/adaman-excuse/compare.py`.

Reads the `usurper bench --verbose` outputs beside it (compiled-excuse.txt, python-excuse.txt,
compiled-standard.txt: one line per deal, the command on the first line) and prints, per
run, the deals decided and the median and p99 seconds over all 200 deals (an undecided deal
counts at its time limit); then, on the deals both engines decided, whether the compiled
and the Python verdicts and optimal scores agree.  `usurper bench` replays every line it
reports through the rules (usurper.app.benchmark.timed_solve), so every verdict here was replayed.
"""

import re
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
LINE = re.compile(r"seed (\d+): (\w+) score=(\S+) states=(\d+) ([\d.]+)s")


def rows(name: str) -> dict[int, dict]:
    found = {}
    for text in (HERE / name).read_text().splitlines():
        match = LINE.fullmatch(text.strip())
        if match:
            seed, verdict, score, states, seconds = match.groups()
            found[int(seed)] = {"verdict": verdict, "score": None if score == "None" else int(score),
                                "states": int(states), "seconds": float(seconds)}
    return found


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]


def main() -> int:
    runs = {name: rows(f"{name}.txt") for name in ("compiled-excuse", "python-excuse", "compiled-standard")}
    for name, found in runs.items():
        seconds = [row["seconds"] for row in found.values()]
        decided = sum(row["score"] is not None for row in found.values())
        print(f"{name:18} {decided:3}/{len(found)} decided  median {statistics.median(seconds):.3f} s  "
              f"p99 {p99(seconds):.3f} s  max {max(seconds):.3f} s  "
              f"median states {statistics.median(row['states'] for row in found.values()):,.0f}")
    compiled, python = runs["compiled-excuse"], runs["python-excuse"]
    both = [seed for seed in compiled if seed in python
            and compiled[seed]["score"] is not None and python[seed]["score"] is not None]
    def answer(row: dict) -> tuple:
        return row["verdict"], row["score"]

    differ = [seed for seed in both if answer(compiled[seed]) != answer(python[seed])]
    # A deal Python left undecided may still carry a proven verdict (a win found, a loss proved).
    verdicts = [seed for seed in compiled if seed in python and python[seed]["verdict"] in ("WON", "LOST")
                and compiled[seed]["score"] is not None and python[seed]["verdict"] != compiled[seed]["verdict"]]
    print(f"compiled vs Python on the {len(both)} deals both decided: "
          f"{'same verdicts and scores' if not differ else f'DIFFER on seeds {differ}'}")
    proved = sum(row["score"] is None and row["verdict"] != "UNDECIDED" for row in python.values())
    print(f"verdicts Python proved without its optimum ({proved} deals): "
          f"{'the same' if not verdicts else f'DIFFER on seeds {verdicts}'}")
    only = [seed for seed in compiled if seed not in both]
    print(f"compiled only: {len(only)} deals, {sum(compiled[s]['score'] is not None for s in only)} decided "
          f"(lines replayed by usurper bench)")
    return 1 if differ or verdicts else 0


if __name__ == "__main__":
    sys.exit(main())
