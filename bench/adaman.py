"""Adaman benchmark: `python bench/adaman.py [options]` is `usurper bench adaman [options]`.

    python bench/adaman.py --quick                      # under a minute
    python bench/adaman.py --seeds 0-999 --mode optimal --time-limit 60 --baseline plain
    python bench/adaman.py --seeds 0-99 --mode winnable --time-limit 10

See `usurper bench --help`; the figures are computed by solver/benchmark.py.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import cli  # noqa: E402

if __name__ == "__main__":
    sys.argv[1:1] = ["bench", "adaman"]
    cli.main()
