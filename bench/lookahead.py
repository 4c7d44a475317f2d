"""The fair policy looking one reveal further, paired against the plain fair policy: ideas
measured and not adopted (docs/play.md, "one-reveal lookahead" and the two after it).

    python bench/lookahead.py royal-assassin --seeds 0-499 --csv plain.csv
    python bench/lookahead.py royal-assassin --seeds 0-499 --top 3 --worlds 8 --inner-samples 100 --csv ahead.csv
    python bench/lookahead.py royal-assassin --seeds 0-199 --samples 300 --top 3 --joint --worlds 60 --csv joint.csv
    python bench/lookahead.py adaman --seeds 0-199 --samples 300 --top 3 --penalty 8,10 --csv penalty.csv
    python bench/lookahead.py royal-assassin --seeds 0-199 --samples 300 --tie-rollouts 16 --csv ties.csv
    python bench/lookahead.py --compare plain.csv ahead.csv
    python bench/lookahead.py adaman --curve 600:a600.csv 1200:a1200.csv > curve.csv

The plain policy is `usurper bench`'s fair policy (600 samples a decision).  With --top K the
policy first asks that hint, then plays each of its K best moves in --worlds sampled worlds
(the deck as the player would guess it) and values the position each leads to by a fair hint
of --inner-samples samples, so that the next choice is made without seeing the deck (each
sample of the plain hint is solved as if its whole order were known: strategy fusion).  The
move with the best mean is played.  --joint and --penalty re-value the K moves instead
(JointWorlds, FusionPenalty below).  --tie-rollouts M keeps the plain hint's move unless
moves tie at its top, and then plays the tied moves out on M shared orders by a cheap fair
policy (TieRollouts below).  One CSV row a deal (seed, won, score, decisions, CPU
seconds), appended as each deal ends: a run that is stopped resumes where it was, skipping
the seeds already in its file.  --compare prints the deals both files played: wins, the
deals won by one only, a two-sided sign test on those, the mean score and CPU a decision.
"""

from __future__ import annotations

import argparse
import csv
import random
import sys
from collections import Counter, defaultdict
from math import comb
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games import make_game  # noqa: E402
from solver.fair import (  # noqa: E402
    FAIR_SAMPLES,
    fair_hint_for_state,
    sample_budget,
    sample_question,
    solve_sample,
    visible_model,
    win_then_score,
)
from solver.players import FairPolicy, play_deal, play_from  # noqa: E402
from solver.stats import wilson_interval  # noqa: E402
from usurper.app.benchmark import parse_seed_range  # noqa: E402


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
        arms = hint.estimates[:self.top]
        values = self._values(game, arms, worlds, rng)
        return arms[max(range(len(arms)), key=lambda i: (values[i], -i))].move

    def _values(self, game, arms, worlds, rng) -> list[float]:
        """Each of the hint's best moves valued on the shared worlds; the best is played."""
        return [self._mean_after(game, arm.move, worlds, rng) for arm in arms]

    def _mean_after(self, game, move, worlds, rng) -> float:
        total = 0.0
        for world in worlds:
            child = game.apply(world, move)
            outcome = game.outcome(child)
            if outcome is not None:
                total += win_then_score(outcome.won, outcome.score, game.max_score)
            else:
                inner = self._hint(game, child, self.inner_samples, random.Random(rng.random()))
                total += inner.estimates[0].reward(game.max_score)
        return total / len(worlds)

    def _hint(self, game, state, samples, rng):
        return fair_hint_for_state(game, state, samples=samples, rng=rng, exact_nodes=self.exact_nodes,
                                   expectimax=self._table(game))


class JointWorlds(LookAhead):
    """Alpha-mu at depth 2: the fair hint's best `top` moves, each played in the same `worlds`
    sampled worlds; the worlds are grouped by what the player then sees, and each group is
    worth the one next move best over all its worlds (each world solved clairvoyantly), so
    that the next choice is made without seeing the deck where the move reveals nothing."""

    def __init__(self, top: int, worlds: int) -> None:
        super().__init__(top, worlds, 0)

    def _mean_after(self, game, move, worlds, rng) -> float:
        model, mode, budget = visible_model(game), sample_question(game), sample_budget(game)
        total, groups = 0.0, defaultdict(list)
        for world in worlds:
            child = _to_decision(game, game.apply(world, move))
            if game.outcome(child) is not None:
                total += _solved(game, child, mode, budget)[0]
            else:
                groups[model.visible_of(game, child)].append(child)
        for children in groups.values():
            if len(children) == 1:
                total += _solved(game, children[0], mode, budget)[0]
                continue
            total += max(sum(_solved(game, game.apply(child, after), mode, budget)[0] for child in children)
                         for after in game.legal_moves(children[0]))
        return total / len(worlds)


class FusionPenalty(LookAhead):
    """The fair hint's best `top` moves, each estimate less a measured strategy-fusion
    penalty: in each of `reveals` shared worlds the move is played, and `completions` worlds
    that agree with what the player then sees are solved (value and first move); the penalty
    is their mean value less the best of their two commonest first moves played in all."""

    def __init__(self, top: int, reveals: int, completions: int) -> None:
        super().__init__(top, reveals, 0)
        self.completions = completions

    def _values(self, game, arms, worlds, rng) -> list[float]:
        seed = rng.random()  # every move's completions drawn alike
        return [arm.reward(game.max_score) - self._penalty(game, arm.move, worlds, random.Random(seed))
                for arm in arms]

    def _penalty(self, game, move, worlds, rng) -> float:
        model, mode, budget = visible_model(game), sample_question(game), sample_budget(game)
        total = 0.0
        for world in worlds:
            child = _to_decision(game, game.apply(world, move))
            if game.outcome(child) is not None:
                continue
            seen = model.visible_of(game, child)
            if model.unknown_count(seen) <= 1:
                continue
            group = [child] + [model.sample_state(game, seen, rng) for _ in range(self.completions - 1)]
            solves = [_solved(game, each, mode, budget) for each in group]
            firsts = Counter(first for _, first in solves if first is not None).most_common(2)
            if not firsts:
                continue
            clairvoyant = sum(value for value, _ in solves) / len(group)
            joint = max(sum(value if first == after else _solved(game, game.apply(each, after), mode, budget)[0]
                            for each, (value, first) in zip(group, solves)) / len(group) for after, _ in firsts)
            total += max(0.0, clairvoyant - joint)
        return total / len(worlds)


class TieRollouts(FairPolicy):
    """The fair hint; where moves tie at its top (win chances within `epsilon` of the best),
    the tied moves (at most `most`, the hint's order) are each played out on the same
    `rollouts` sampled orders by a cheap fair policy of `rollout_samples` samples, which sees
    only what a player sees of the order it plays in; the move with the most rollout wins
    (then the highest total score) is played.  Sampled hints only: the exact optimum's ties
    are true ties."""

    def __init__(self, rollouts: int, rollout_samples: int, epsilon: float = 0.0, most: int = 3) -> None:
        super().__init__()
        self.rollouts, self.epsilon, self.most = rollouts, epsilon, most
        self.rollout_policy = FairPolicy(samples=rollout_samples)

    def __call__(self, game, state, rng):
        moves = game.legal_moves(state)
        if len(moves) == 1:
            return moves[0]
        hint = fair_hint_for_state(game, state, samples=self.samples, rng=rng, exact_nodes=self.exact_nodes,
                                   expectimax=self._table(game))
        tied = tied_at_top(hint, self.epsilon, self.most)
        if len(tied) < 2:
            return hint.move
        return self.best_by_rollouts(game, state, tied, random.Random(rng.random()))[0]

    def best_by_rollouts(self, game, state, moves, rng) -> tuple[object, list[tuple[int, int]]]:
        """The move of `moves` with the most wins (then score) over the same sampled orders,
        and each move's (wins, total score).  `state` is read only through what the player
        sees of it: the orders are drawn from its visible position."""
        model = visible_model(game)
        visible = model.visible_of(game, state)
        orders = [(model.sample_state(game, visible, rng), rng.random()) for _ in range(self.rollouts)]
        values = [self._played_out(game, move, orders) for move in moves]
        best = max(range(len(moves)), key=lambda i: (values[i], -i))
        return moves[best], values

    def _played_out(self, game, move, orders) -> tuple[int, int]:
        wins = score = 0
        for world, seed in orders:
            deal = play_from(game, game.apply(world, move), self.rollout_policy, random.Random(seed))
            wins += deal.won
            score += deal.score
        return wins, score


def tied_at_top(hint, epsilon: float, most: int) -> list:
    """The moves of a sampled hint whose win chance is within `epsilon` of its best move's,
    at most `most` of them in the hint's order (the best first)."""
    if hint.method != "sampled" or not hint.estimates:
        return [hint.move]
    top = hint.estimates[0].win_rate
    return [arm.move for arm in hint.estimates if arm.samples and arm.win_rate >= top - epsilon][:most]


def _to_decision(game, state):
    """`state` with its forced moves played: the next real decision, or the end."""
    while game.outcome(state) is None:
        moves = game.legal_moves(state)
        if len(moves) != 1:
            break
        state = game.apply(state, moves[0])
    return state


def _solved(game, state, mode, budget) -> tuple[float, object]:
    """A sample's reward as the fair hint counts it (a win, then the score), and the first
    move of the line the solver found (None at the end)."""
    won, _, score, line = solve_sample(game, state, budget, mode)
    return win_then_score(won, score, game.max_score), line[0] if line else None


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
    parser.add_argument("--joint", action="store_true",
                        help="with --top: value the moves by alpha-mu at depth 2 on --worlds shared worlds")
    parser.add_argument("--penalty", metavar="R,W",
                        help="with --top: each estimate less a fusion penalty from R worlds of W completions")
    parser.add_argument("--tie-rollouts", type=int, default=0, metavar="M",
                        help="moves tied at the top of the hint played out on M shared sampled orders (0: never)")
    parser.add_argument("--rollout-samples", type=int, default=10, metavar="S",
                        help="with --tie-rollouts: the samples a decision of the fair policy that plays them out")
    parser.add_argument("--tie-epsilon", type=float, default=0.0, metavar="E",
                        help="with --tie-rollouts: win chances within E of the best's tie with it")
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
    policy = _policy(parser, options)
    policy.samples = options.samples
    play(options.game, parse_seed_range(options.seeds), policy, options.csv)


def _policy(parser: argparse.ArgumentParser, options: argparse.Namespace) -> FairPolicy:
    """The plain policy, or with --top the one-reveal lookahead, --joint or --penalty, or the
    ties re-valued by --tie-rollouts."""
    if (options.joint or options.penalty) and not options.top:
        parser.error("--joint and --penalty re-value the first hint's --top moves: give --top")
    if options.tie_rollouts:
        if options.top or options.tie_rollouts < 0 or options.rollout_samples < 1:
            parser.error("--tie-rollouts takes M >= 1 orders and --rollout-samples S >= 1, without --top")
        if not 0 <= options.tie_epsilon < 1:
            parser.error(f"--tie-epsilon takes a win chance's margin in [0, 1), not {options.tie_epsilon}")
        return TieRollouts(options.tie_rollouts, options.rollout_samples, options.tie_epsilon)
    if not options.top:
        return FairPolicy()
    if options.joint:
        return JointWorlds(options.top, options.worlds)
    if options.penalty:
        reveals, _, completions = options.penalty.partition(",")
        if not (reveals.isdigit() and completions.isdigit() and int(reveals) > 0 and int(completions) > 1):
            parser.error(f"--penalty takes R,W (R >= 1 worlds, W >= 2 completions each), not {options.penalty!r}")
        return FusionPenalty(options.top, int(reveals), int(completions))
    return LookAhead(options.top, options.worlds, options.inner_samples)


if __name__ == "__main__":
    main()
