"""The fair ceiling of a seed range run in parts: `python bench/ceiling_parts.py PART.json ...`.

Each part is the output of `usurper bench GAME --ceiling --seeds A-B --value V --json`.  A
deal's bound depends on that deal alone, so the parts of one game, value and node budget
make one run: this prints its summary as the command would have (the mean and normal 95 %
interval of the deals' bounds, solver.ceiling.summarise; the clairvoyant's wins with their
Wilson interval), and with `--fair-rows FILE` the fair policy's wins on the same seeds.
Parts that disagree on the game, value or budget, or that repeat a seed, are refused.
"""

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.base import UsurperError  # noqa: E402
from solver.ceiling import OrderBound, summarise  # noqa: E402
from solver.stats import wilson_interval  # noqa: E402
from usurper.app.measure import fair_wins  # noqa: E402

SAME_RUN = ("game", "variant", "value", "order_nodes")


def read_part(path: Path) -> dict:
    try:
        part = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise UsurperError(f"cannot read part {path}: {error}") from None
    if not isinstance(part, dict) or not all(key in part for key in (*SAME_RUN, "rows", "seconds")):
        raise UsurperError(f"{path} is not the --json output of `usurper bench --ceiling`")
    return part


def combine(parts: list[dict], names: list[Path]) -> tuple[list[dict], float]:
    """Every part's rows, seed by seed, and the seconds they took in all."""
    first = {key: parts[0][key] for key in SAME_RUN}
    rows: dict[int, dict] = {}
    for part, name in zip(parts, names):
        other = {key: part[key] for key in SAME_RUN}
        if other != first:
            raise UsurperError(f"{name} is another run ({other}) than {names[0]} ({first})")
        for row in part["rows"]:
            if row["seed"] in rows:
                raise UsurperError(f"seed {row['seed']} is in two parts ({name})")
            rows[row["seed"]] = row
    return [rows[seed] for seed in sorted(rows)], sum(part["seconds"] for part in parts)


def summary_lines(first: dict, rows: list[dict], seconds: float, fair: int | None) -> list[str]:
    estimate = summarise([OrderBound(row["bound"], row["nodes"], row["cut"]) for row in rows])
    won = sum(row["clairvoyant_won"] for row in rows)
    low, high = wilson_interval(won, len(rows))
    seeds = [row["seed"] for row in rows]
    span = f"seeds {seeds[0]}-{seeds[-1]}" if seeds[-1] - seeds[0] + 1 == len(seeds) else "seeds of the parts"
    lines = [f"{first['game']} ({first['variant']}), {len(rows)} deals ({span}): fair ceiling {estimate.mean:.2%} "
             f"[{estimate.low:.2%}, {estimate.high:.2%}] with V = {first['value']}, {first['order_nodes']} positions "
             f"a deal; {estimate.cut} deals' searches cut; {seconds:.0f} s in the parts",
             f"clairvoyant (sees the deck), the same deals: {won}/{len(rows)} = {won / len(rows):.1%} "
             f"[{low:.1%}, {high:.1%}]"]
    if fair is not None:
        lines.append(f"fair policy, the same deals: {fair}/{len(rows)} = {fair / len(rows):.1%}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("parts", nargs="+", type=Path)
    parser.add_argument("--fair-rows", type=Path, help="bench/lookahead.py's rows for the same seeds")
    args = parser.parse_args()
    try:
        parts = [read_part(path) for path in args.parts]
        rows, seconds = combine(parts, args.parts)
        fair = fair_wins(args.fair_rows, [row["seed"] for row in rows]) if args.fair_rows else None
    except UsurperError as error:
        print(f"ceiling_parts: error: {error}", file=sys.stderr)
        sys.exit(2)
    print("\n".join(summary_lines(parts[0], rows, seconds, fair)))


if __name__ == "__main__":
    main()
