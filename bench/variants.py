"""How each variant changes a game, from shipped catalogues: `python bench/variants.py GAME`.

For every shipped catalogue of a variant of GAME (data/catalogue/GAME.VARIANT.jsonl with the
files that answered its seeds again) and the standard game's catalogue on the same seeds,
prints one row each: the question its catalogue asked (the optimum, or only whether a deal
can be won: its solve times then measure that), won / lost / undecided, the win rate with its
Wilson 95 % interval (undecided counted lost at the low end, won at the high end), the median
proven optimal score, the median and p99 solve time, and how many seeds change verdict
against the standard game (won there and lost here, lost there and won here), with a few.

`--why N` explains the first N seeds that change verdict each way, for each variant: the
winning line of the side that wins (found by the solver and replayed through its rules) is
replayed through the other side's rules, which say where it fails: the first move they do
not allow, or the end it reaches instead.  The other side's loss itself is the catalogue's
proof (a complete search).
"""

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games import make_game  # noqa: E402
from games.base import LOST, WON, Game, Verdict  # noqa: E402
from solver import catalogue  # noqa: E402
from solver.analysis import analyse  # noqa: E402
from solver.answers import Budget  # noqa: E402
from solver.stats import median, percentile, wilson_interval  # noqa: E402
from solver.verify import check_claim, replay_text  # noqa: E402

EXAMPLES = 5


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--why", type=int, default=0, metavar="N",
                        help="explain the first N seeds that change verdict each way, for each variant")
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
    print("| variant | question | won / lost / undecided | win rate (Wilson 95 %) | median optimum | median s "
          "| p99 s | won -> lost | lost -> won |")
    print("|---|---|---|---|---|---|---|---|---|")
    print(row("standard", standard, seeds, None))
    for name, book in books.items():
        print(row(name, book, seeds, standard))
    for name, book in books.items() if args.why else ():
        for before, after in ((WON, LOST), (LOST, WON)):
            moved = [seed for seed in seeds if standard.rows[seed]["outcome"] == before
                     and book.rows[seed]["outcome"] == after]
            for seed in moved[:args.why]:
                print()
                print("\n".join(why(args.game, name.split(","), seed, won_in_variant=after == WON)))


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
    question = "optimum" if book.header["mode"] == "optimal" else "can it be won"
    return (f"| {name} | {question} | {won} / {lost} / {undecided} | {won / len(rows):.1%} [{low:.1%}, {high:.1%}] | "
            f"{median(scores) if scores else '-'} | {median(seconds):.3f} | {percentile(seconds, 0.99):.2f} | "
            f"{changes[0]} | {changes[1]} |")


def why(name: str, variants: list[str], seed: int, won_in_variant: bool) -> list[str]:
    """The winning side's line for `seed`, replayed through the other side's rules."""
    sides = [(make_game(name), "the standard game"), (make_game(name, variants), ",".join(variants))]
    (winner, winner_name), (other, other_name) = sides[::-1] if won_in_variant else sides
    title = f"seed {seed}: won in {winner_name}, lost in {other_name}"
    deal = winner.deal_from_seed(seed)
    if winner.format_deal(deal) != other.format_deal(other.deal_from_seed(seed)):
        return [title, "  the two deal this seed differently: no line is common to both"]
    start = winner.initial_state(deal)
    result = analyse(winner, start, "winnable", Budget(time_limit=60.0))
    if result.verdict != Verdict.WON:
        return [title, f"  no winning line found again within 60 s ({result.verdict.name})"]
    check_claim(winner, start, result.line, True, result.line_score)
    text = winner.format_line(start, result.line)
    return [title, f"  winning line ({len(result.line)} moves, replayed): {text}",
            f"  in {other_name}: {replayed_elsewhere(other, other.initial_state(deal), text)}"]


def replayed_elsewhere(game: Game, state, text: str) -> str:
    """Where a line written under other rules stops under `game`'s."""
    replay = replay_text(game, state, text)
    if not replay.ok:
        return f"{replay.error}, at: {game.describe(replay.state)}"
    return f"the line replays but ends {replay.outcome.text() if replay.outcome else 'unfinished'}"


if __name__ == "__main__":
    main()
