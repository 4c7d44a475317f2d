"""Adaman benchmark: the figures of `usurper bench adaman [options]`, with the same options.

    python bench/adaman.py --quick                      # under a minute
    python bench/adaman.py --seeds 0-999 --mode optimal --time-limit 60 --baseline plain
    python bench/adaman.py --seeds 0-99 --mode winnable --time-limit 10

The figures are computed by usurper/app/benchmark.py.
"""

from common import main

if __name__ == "__main__":
    main("adaman")
