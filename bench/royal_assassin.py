"""Royal Assassin benchmark: `python bench/royal_assassin.py [options]` is
`usurper bench royal-assassin [options]`.

    python bench/royal_assassin.py --seeds 0-999 --time-limit 5
    python bench/royal_assassin.py --seeds 0-999 --variant two_jokers --variant fixed_royals=4

See `usurper bench --help`; the figures are computed by solver/benchmark.py.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import cli  # noqa: E402

if __name__ == "__main__":
    sys.argv[1:1] = ["bench", "royal-assassin"]
    cli.main()
