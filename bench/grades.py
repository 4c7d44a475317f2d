"""Do the difficulty grades predict?  `python bench/grades.py GAME --seeds A-B`

Grades the seeds (a graded catalogue, resumable: `--catalogue`), then lets a player outside
the ladder play each of them (the fair player at `--samples` solved samples a decision, with
random seeds `--random-seeds`, none of the ladder's; resumable: `--plays`), and prints its win
rate in each grade with its Wilson 95 % interval.  The grades predict where that rate falls
strictly from `easy` to `clairvoyant-only`.  Pick seeds the ladder was not chosen on (it was
chosen on seeds 0-39).

    python bench/grades.py royal-assassin --seeds 1000-1199 \\
        --catalogue bench/results/grades/royal-assassin-1000-1199.jsonl.gz \\
        --plays bench/results/grades/royal-assassin-1000-1199-outside.jsonl

`--scores 10,30,100` instead measures what a ladder could be made of: greedy and the fair
player at each budget play every seed (random seeds `--random-seeds`), and the scores they
reach and the CPU seconds of a play are printed by player (resumable: `--plays`).  King's
Reign's ladder and target score were chosen so (docs/grades.md).
"""

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from tqdm import tqdm

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games import make_game  # noqa: E402
from solver import catalogue as catalogues  # noqa: E402
from solver.grade import CLAIRVOYANT_ONLY, GRADES, UNWINNABLE, grade_deal  # noqa: E402
from solver.players import FairPolicy, greedy_move, play_deal  # noqa: E402
from solver.seeds import parse_seed_ranges  # noqa: E402
from solver.stats import wilson_interval  # noqa: E402

#: The grades a player can win, easiest first: where the outside player's rate must fall.
WINNABLE_GRADES = GRADES[:GRADES.index(CLAIRVOYANT_ONLY) + 1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--variant", action="append", default=[], help="variant switch, repeatable")
    parser.add_argument("--seeds", default="1000-1199")
    parser.add_argument("--catalogue", type=Path, help="the graded catalogue (made or resumed)")
    parser.add_argument("--plays", type=Path, help="the outside player's plays, JSON Lines")
    parser.add_argument("--samples", type=int, default=60, help="the outside player's samples a decision")
    parser.add_argument("--random-seeds", default="7,8", help="the outside player's random seeds")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--scores", help="instead: the scores greedy and fair at these budgets reach (e.g. 10,30,100)")
    parser.add_argument("--targets", default="14,16,18", help="with --scores: count the wins scoring these or more")
    parser.add_argument("--time-split", action="store_true",
                        help="instead: grade the seeds in this process and print where the CPU time goes, by stage")
    args = parser.parse_args()
    seeds = parse_seed_ranges(args.seeds)
    if args.time_split:
        print("\n".join(time_split(make_game(args.game, args.variant), seeds)))
        return
    if args.scores:
        if args.plays is None:
            parser.error("--scores needs --plays (the plays, JSON Lines)")
        budgets = [int(word) for word in args.scores.split(",")]
        random_seeds = [int(word) for word in args.random_seeds.split(",")]
        rows = survey_scores(make_game(args.game, args.variant), seeds, budgets, random_seeds, args.plays)
        print("\n".join(score_table(rows, seeds, [int(word) for word in args.targets.split(",")])))
        return
    if args.catalogue is None or args.plays is None:
        parser.error("--catalogue and --plays are needed (or --time-split)")
    random_seeds = [int(word) for word in args.random_seeds.split(",")]
    job = catalogues.make_job(make_game, args.game, args.variant, mode="grade", time_limit=None)
    with tqdm(total=len(seeds), unit="seed", desc="grading", disable=None) as bar:
        catalogues.run(args.catalogue, job, seeds, args.workers, None, lambda todo, rows: bar.update(len(seeds) - todo),
                       lambda row: bar.update(1))
    grades = {seed: row["grade"] for seed, row in catalogues.read(args.catalogue).rows.items() if seed in set(seeds)}
    plays = play_outside(make_game(args.game, args.variant), seeds, random_seeds, args.samples, args.plays)
    print(f"{job.title}, seeds {args.seeds}: the fair player at {args.samples} samples, random seeds "
          f"{args.random_seeds}, by grade (Wilson 95 %)")
    print("\n".join(table(grades, plays)))


def time_split(game, seeds: list[int]) -> list[str]:
    """CPU seconds of each stage of grading (the exact search, each rung, the narrowness),
    summed over the seeds, and the median seconds a deal."""
    stages: dict[str, float] = {}
    per_deal = []
    for seed in tqdm(seeds, unit="seed", desc="grading", disable=None):
        marks: list[tuple[str, float]] = []
        started = time.process_time()
        grade_deal(game, game.initial_state(game.deal_from_seed(seed)), seed,
                   told=lambda stage, marks=marks: marks.append((stage, time.process_time())))
        marks.append(("end", time.process_time()))
        per_deal.append(marks[-1][1] - started)
        for (stage, at), (_, until) in zip(marks, marks[1:]):
            stages[stage] = stages.get(stage, 0.0) + until - at
    total = sum(stages.values())
    lines = [f"{game.name} ({game.variant}), {len(seeds)} seeds: CPU seconds a deal, median "
             f"{statistics.median(per_deal):.2f}, max {max(per_deal):.2f}; by stage (all seeds):"]
    lines += [f"  {stage:<14} {seconds:8.1f} s  {100 * seconds / total:5.1f} %" for stage, seconds in stages.items()]
    return lines


def survey_scores(game, seeds: list[int], budgets: list[int], random_seeds: list[int], path: Path) -> list[dict]:
    """Every seed played by greedy (random seed 0) and by the fair player at each budget with
    each random seed: one row a play, appended to `path`, those already there kept."""
    rows = [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []
    done = {(row["seed"], row["player"], row["random_seed"]) for row in rows}
    players = [("greedy", greedy_move, [0])] + [(f"fair-{samples}", FairPolicy(samples), random_seeds)
                                               for samples in budgets]
    todo = [(seed, name, chooser, r) for name, chooser, rs in players for seed in seeds for r in rs
            if (seed, name, r) not in done]
    with path.open("a") as handle, tqdm(todo, unit="play", desc="plays", disable=None) as bar:
        for seed, name, chooser, random_seed in bar:
            started = time.process_time()
            played = play_deal(game, seed, chooser, rng_seed=random_seed)
            row = {"seed": seed, "player": name, "random_seed": random_seed, "won": played.won,
                   "score": played.score, "decisions": played.decisions, "stalled": played.stalled,
                   "cpu": round(time.process_time() - started, 3)}
            handle.write(json.dumps(row) + "\n")
            handle.flush()
            rows.append(row)
    return rows


def score_table(rows: list[dict], seeds: list[int], targets: list[int]) -> list[str]:
    """By player, weakest first: its plays, wins, the scores of its wins (quartiles), how many
    plays won scoring each of `targets` or more, and CPU seconds a play."""
    wanted = set(seeds)
    players = sorted({row["player"] for row in rows}, key=lambda name: int(name.partition("-")[2] or 0))
    lines = [f"{'player':<9} {'plays':>5} {'won':>4}   won play's score: min q1 median q3 max   "
             + "".join(f"won >= {target:<3}  " for target in targets) + "CPU s a play: median  max"]
    for player in players:
        mine = [row for row in rows if row["player"] == player and row["seed"] in wanted]
        won = sorted(row["score"] for row in mine if row["won"])
        cpu = [row["cpu"] for row in mine]
        quartiles = (f"{won[0]:>3} {won[len(won) // 4]:>3} {statistics.median(won):>5g} {won[3 * len(won) // 4]:>3} "
                     f"{won[-1]:>3}" if won else f"{'-':>3}{'':<17}")
        reached = "".join(f"{sum(score >= target for score in won):>9}  " for target in targets)
        lines.append(f"{player:<9} {len(mine):>5} {len(won):>4}   {'':<14}{quartiles}   {reached}{'':<13}"
                     f"{statistics.median(cpu):>6.2f} {max(cpu):>4.1f}")
    return lines


def play_outside(game, seeds: list[int], random_seeds: list[int], samples: int, path: Path) -> dict:
    """{(seed, random seed): won}, played where the file does not have them yet."""
    done = {}
    if path.exists():
        for line in path.read_text().splitlines():
            row = json.loads(line)
            done[(row["seed"], row["random_seed"])] = row["won"]
    todo = [(seed, r) for seed in seeds for r in random_seeds if (seed, r) not in done]
    player = FairPolicy(samples)
    with path.open("a") as handle, tqdm(todo, unit="play", desc="outside player", disable=None) as bar:
        for seed, random_seed in bar:
            won = play_deal(game, seed, player, rng_seed=random_seed).won
            handle.write(json.dumps({"seed": seed, "random_seed": random_seed, "samples": samples, "won": won}) + "\n")
            handle.flush()
            done[(seed, random_seed)] = won
    return done


def table(grades: dict[int, str], plays: dict) -> list[str]:
    lines = [f"{'grade':<18} {'deals':>6} {'plays':>6} {'won':>5}   rate [Wilson 95 %]"]
    rates = []
    for grade in (*WINNABLE_GRADES, UNWINNABLE):
        won = [outcome for (seed, _), outcome in plays.items() if grades.get(seed) == grade]
        deals = sum(1 for value in grades.values() if value == grade)
        if not won:
            lines.append(f"{grade:<18} {deals:>6} {0:>6} {0:>5}   -")
            continue
        low, high = wilson_interval(sum(won), len(won))
        rate = sum(won) / len(won)
        if grade in WINNABLE_GRADES:
            rates.append(rate)
        lines.append(f"{grade:<18} {deals:>6} {len(won):>6} {sum(won):>5}   {100 * rate:5.1f} % "
                     f"[{100 * low:4.1f}, {100 * high:5.1f}]")
    falls = all(earlier > later for earlier, later in zip(rates, rates[1:])) and len(rates) == len(WINNABLE_GRADES)
    lines.append(f"falls strictly from easy to clairvoyant-only: {'yes' if falls else 'no'}")
    return lines


if __name__ == "__main__":
    main()
