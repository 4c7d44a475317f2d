"""Royal Assassin benchmark: the figures of `usurper bench royal-assassin [options]`, with
the same options.

    python bench/royal_assassin.py --quick
    python bench/royal_assassin.py --seeds 0-999 --time-limit 10 --variant joker_dies

The figures are computed by usurper/app/benchmark.py.
"""

from common import main

if __name__ == "__main__":
    main("royal-assassin")
