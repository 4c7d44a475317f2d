"""Policy benchmark: play seeds with policies that do not peek (fair hint, greedy, random)
and print each one's win rate (Wilson 95 %) and time per decision beside the clairvoyant
winnable rate of the same seeds; the figures of `usurper bench GAME --policy ...`.

    python bench/policies.py adaman --seeds 0-499 --policy greedy --policy random --policy fair
    python bench/policies.py royal-assassin --seeds 0-499 --policy fair --samples 40

The figures measured are quoted in docs/play.md (Figures).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.benchmark import parse_seed_range  # noqa: E402
from app.policies import FAIR_SAMPLES, POLICIES, bench_policies  # noqa: E402
from games import make_game  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--seeds", default="0-99", help="inclusive seed range A-B")
    parser.add_argument("--policy", action="append", choices=POLICIES, help="repeatable [default: all three]")
    parser.add_argument("--samples", type=int, default=FAIR_SAMPLES, help="fair policy: samples per decision")
    parser.add_argument("--no-clairvoyant", action="store_true", help="skip the clairvoyant winnable rate")
    parser.add_argument("--variant", action="append", default=[])
    args = parser.parse_args()
    game = make_game(args.game, args.variant)
    seeds = list(parse_seed_range(args.seeds))
    lines = bench_policies(game, seeds, args.policy or POLICIES, args.samples, not args.no_clairvoyant)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
