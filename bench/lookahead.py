"""The fair policy looking one reveal further, paired against the plain fair policy: an idea
measured and not adopted (docs/play.md, "one-reveal lookahead").

    python bench/lookahead.py royal-assassin --seeds 0-499 --csv plain.csv
    python bench/lookahead.py royal-assassin --seeds 0-499 --top 3 --worlds 8 --inner-samples 100 --csv ahead.csv
    python bench/lookahead.py --compare plain.csv ahead.csv
    python bench/lookahead.py adaman --curve 600:a600.csv 1200:a1200.csv > curve.csv

The plain policy is `usurper bench`'s fair policy (600 samples a decision).  With --top K the
policy first asks that hint, then plays each of its K best moves in --worlds sampled worlds
(the deck as the player would guess it) and values the position each leads to by a fair hint
of --inner-samples samples, so that the next choice is made without seeing the deck (each
sample of the plain hint is solved as if its whole order were known: strategy fusion).  The
move with the best mean is played.  One CSV row a deal (seed, won, score, decisions, CPU
seconds), appended as each deal ends: a run that is stopped resumes where it was, skipping
the seeds already in its file.  --compare prints the deals both files played: wins, the
deals won by one only, a two-sided sign test on those, the mean score and CPU a decision.
"""

from __future__ import annotations

import argparse
import csv
import random
import sys
from math import comb
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.benchmark import parse_seed_range  # noqa: E402
from app.policies import FairPolicy, play_deal  # noqa: E402
from games import make_game  # noqa: E402
from solver.fair import FAIR_SAMPLES, fair_hint_for_state, visible_model  # noqa: E402
from solver.stats import wilson_interval  # noqa: E402

WIN_WEIGHT = 0.9  # the fair hint's reward: a win, then the score


class LookAhead(FairPolicy):
    """The fair hint's best `top` moves, each valued by fair hints one reveal further."""

    def __init__(self, top: int, worlds: int, inner_samples: int) -> None:
        super().__init__()
        self.top, self.worlds, self.inner_samples = top, worlds, inner_samples

    def __call__(self, game, state, rng):
        if len(game.legal_moves(state)) == 1:
            return game.legal_moves(state)[0]
        hint = self._hint(game, state, self.samples, rng)
        if hint.method != "sampled" or len(hint.estimates) < 2:
            return hint.move
        model = visible_model(game)
        visible = model.visible_of(game, state)
        worlds = [model.sample_state(game, visible, rng) for _ in range(self.worlds)]
        candidates = [estimate.move for estimate in hint.estimates[:self.top]]
        values = [self._mean_after(game, move, worlds, rng) for move in candidates]
        return candidates[max(range(len(candidates)), key=lambda i: (values[i], -i))]

    def _mean_after(self, game, move, worlds, rng) -> float:
        total = 0.0
        for world in worlds:
            child = game.apply(world, move)
            outcome = game.outcome(child)
            if outcome is not None:
                total += WIN_WEIGHT * outcome.won + (1 - WIN_WEIGHT) * outcome.score / game.max_score
            else:
                inner = self._hint(game, child, self.inner_samples, random.Random(rng.random()))
                total += inner.estimates[0].reward(game.max_score)
        return total / len(worlds)

    def _hint(self, game, state, samples, rng):
        return fair_hint_for_state(game, state, samples=samples, rng=rng, exact_nodes=self.exact_nodes,
                                   expectimax=self._table(game))


def play(game_name: str, seeds: list[int], policy, out: Path) -> None:
    game = make_game(game_name)
    done = set(_rows(out)) if out.exists() else set()
    for seed in seeds:
        if seed in done:
            continue
        deal = play_deal(game, seed, policy)
        with out.open("a", newline="") as handle:
            csv.writer(handle).writerow((seed, int(deal.won), deal.score, deal.decisions, round(deal.seconds, 2)))
        print(seed, "won" if deal.won else "lost", deal.score, f"{deal.seconds:.1f} s", flush=True)


def compare(first: Path, second: Path) -> None:
    a, b = _rows(first), _rows(second)
    common = sorted(set(a) & set(b))
    if not common:
        raise SystemExit("usurper: the two files have no deal in common")
    only_a = sum(1 for s in common if a[s][0] and not b[s][0])
    only_b = sum(1 for s in common if b[s][0] and not a[s][0])
    print(f"{len(common)} deals: {first.name} won {sum(a[s][0] for s in common)}, "
          f"{second.name} won {sum(b[s][0] for s in common)}")
    print(f"won by one only: {only_a} and {only_b}; two-sided sign test p = {_sign_test(only_a, only_b):.3f}")
    for name, rows in ((first.name, a), (second.name, b)):
        score = sum(rows[s][1] for s in common) / len(common)
        per_decision = sum(rows[s][3] for s in common) / max(1, sum(rows[s][2] for s in common))
        print(f"{name}: mean score {score:.1f}, {per_decision:.3f} s of CPU a decision")


def print_curve(game: str, runs: list[str]) -> None:
    """One curve row per run (SAMPLES:FILE.csv): wins, Wilson interval, mean score, CPU a
    decision; nothing printed unless every run can be read."""
    lines = ["game,samples,wins,deals,win_rate,low,high,mean_score,decisions,cpu_per_decision"]
    for run in runs:
        samples, _, path = run.partition(":")
        if not samples.isdigit() or not Path(path).is_file():
            raise SystemExit(f"usurper: --curve takes SAMPLES:FILE.csv with a file of rows, not {run!r}")
        rows = _rows(Path(path)).values()
        if not rows:
            raise SystemExit(f"usurper: {path} holds no deal")
        deals, wins = len(rows), sum(row[0] for row in rows)
        decisions, seconds = sum(row[2] for row in rows), sum(row[3] for row in rows)
        low, high = wilson_interval(wins, deals)
        lines.append(f"{game},{int(samples)},{wins},{deals},{wins / deals:.4f},{low:.4f},{high:.4f},"
                     f"{sum(row[1] for row in rows) / deals:.4f},{decisions},{seconds / decisions:.4f}")
    print("\n".join(lines))


def _rows(path: Path) -> dict[int, tuple[int, int, int, float]]:
    with path.open(newline="") as handle:
        return {int(r[0]): (int(r[1]), int(r[2]), int(r[3]), float(r[4])) for r in csv.reader(handle) if r}


def _sign_test(wins: int, losses: int) -> float:
    n, k = wins + losses, max(wins, losses)
    if n == 0:
        return 1.0
    return min(1.0, 2 * sum(comb(n, i) for i in range(k, n + 1)) / 2 ** n)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", nargs="?", choices=("adaman", "royal-assassin"))
    parser.add_argument("--seeds", default="0-99")
    parser.add_argument("--samples", type=int, default=FAIR_SAMPLES,
                        help="the plain policy's samples a decision (with --top: the first hint's)")
    parser.add_argument("--top", type=int, default=0, help="moves looked at further (0: the plain policy)")
    parser.add_argument("--worlds", type=int, default=8)
    parser.add_argument("--inner-samples", type=int, default=100)
    parser.add_argument("--csv", type=Path, help="the deals' rows, appended (and resumed from)")
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("A.csv", "B.csv"))
    parser.add_argument("--curve", nargs="+", metavar="SAMPLES:FILE.csv",
                        help="the plain policy's runs at several budgets as curve rows (bench/policies.py's "
                             "--csv form, which its --plot-from draws); the game is the positional argument")
    options = parser.parse_args(argv)
    if options.compare:
        compare(*options.compare)
        return
    if options.curve:
        if not options.game:
            parser.error("--curve needs the game")
        print_curve(options.game, options.curve)
        return
    if not options.game or not options.csv:
        parser.error("a game and --csv are needed to play (or --compare A.csv B.csv)")
    policy = LookAhead(options.top, options.worlds, options.inner_samples) if options.top else FairPolicy()
    policy.samples = options.samples
    play(options.game, parse_seed_range(options.seeds), policy, options.csv)


if __name__ == "__main__":
    main()
