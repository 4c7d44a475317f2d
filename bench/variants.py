"""How each variant changes a game, from shipped catalogues: `python bench/variants.py GAME`.

For every shipped catalogue of a variant of GAME (data/catalogue/GAME.VARIANT.jsonl with the
files that answered its seeds again) and the standard game's catalogue on the same seeds,
prints one row each: won / lost / undecided, the win rate with its Wilson 95 % interval
(undecided counted lost at the low end, won at the high end), the median proven optimal
score, the median and p99 solve time, and how many seeds change verdict against the
standard game (won there and lost here, lost there and won here), with a few of them.
"""

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games import make_game  # noqa: E402
from games.base import LOST, WON  # noqa: E402
from solver import catalogue  # noqa: E402
from solver.stats import median, percentile, wilson_interval  # noqa: E402

EXAMPLES = 5


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    args = parser.parse_args()
    standard = catalogue.read_all(catalogue.shipped_catalogues(catalogue.make_job(make_game, args.game)))
    variants = sorted({path.name.split(".")[1] for path in catalogue.SHIPPED_DIR.glob(f"{args.game}.*.jsonl")})
    books = {}
    for stem in variants:
        header = catalogue.read(catalogue.SHIPPED_DIR / f"{args.game}.{stem}.jsonl").header
        books[",".join(header["variants"])] = catalogue.read_all(
            catalogue.shipped_catalogues(catalogue.make_job(make_game, args.game, header["variants"])))
    seeds = sorted(set.intersection(*(set(book.rows) for book in books.values()))) if books else []
    print(f"{args.game}: seeds {seeds[0]}-{seeds[-1]} ({len(seeds):,}), shipped catalogues" if seeds
          else f"{args.game}: no variant catalogue shipped")
    print("| variant | won / lost / undecided | win rate (Wilson 95 %) | median optimum | median s | p99 s "
          "| won -> lost | lost -> won |")
    print("|---|---|---|---|---|---|---|---|")
    print(row("standard", standard, seeds, None))
    for name, book in books.items():
        print(row(name, book, seeds, standard))


def row(name: str, book: catalogue.Catalogue, seeds: list[int], standard: catalogue.Catalogue | None) -> str:
    rows = [book.rows[seed] for seed in seeds]
    won, lost = (sum(r["outcome"] == verdict for r in rows) for verdict in (WON, LOST))
    undecided = len(rows) - won - lost
    low = wilson_interval(won, len(rows))[0]
    high = wilson_interval(won + undecided, len(rows))[1]
    scores = [r["score"] for r in rows if r.get("score") is not None]
    seconds = [r["seconds"] for r in rows if r.get("seconds") is not None]
    changes = ["", ""]
    if standard is not None:
        for column, (before, after) in enumerate(((WON, LOST), (LOST, WON))):
            moved = [seed for seed in seeds if standard.rows[seed]["outcome"] == before
                     and book.rows[seed]["outcome"] == after]
            shown = ", ".join(map(str, moved[:EXAMPLES])) + (", ..." if len(moved) > EXAMPLES else "")
            changes[column] = f"{len(moved)}" + (f" ({shown})" if moved else "")
    return (f"| {name} | {won} / {lost} / {undecided} | {won / len(rows):.1%} [{low:.1%}, {high:.1%}] | "
            f"{median(scores) if scores else '-'} | {median(seconds):.3f} | {percentile(seconds, 0.99):.2f} | "
            f"{changes[0]} | {changes[1]} |")


if __name__ == "__main__":
    main()
