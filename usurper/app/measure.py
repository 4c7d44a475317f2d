"""What `usurper bench` runs, with a progress bar: the seeds solved (decided share, times,
states), played by policies that do not peek, or the fair policy's win rate at several
budgets (a curve, drawn with --plot).  Each returns the report (the --json form) and the
lines printed."""

from __future__ import annotations

from pathlib import Path

from tqdm import tqdm

from games.base import Game, UsurperError
from solver.catalogue.store import check_writable
from solver.seeds import parse_seed_ranges
from usurper.app import benchmark


def run_bench(game: Game, seeds: str, mode: str, engine: str, time_limit: float, baseline: str | None,
              baseline_limit: float, quick: bool, verbose: bool, policies: tuple[str, ...], samples: int,
              budgets: str | None, plot_path: str | None, ceiling_value: str | None = None,
              order_nodes: int | None = None, fair_rows: str | None = None) -> tuple[dict, list[str]]:
    if ceiling_value is not None:
        return fair_ceiling(game, seeds, ceiling_value, order_nodes, time_limit, verbose, fair_rows)
    if plot_path and budgets is None:
        raise UsurperError("--plot draws the fair policy's curve: give --budgets with it")
    if budgets is not None:
        return fair_curve(game, seeds, budgets, plot_path)
    if policies:
        return played(game, seeds, policies, samples, verbose)
    if quick:
        seeds, mode, engine, time_limit, baseline, baseline_limit = (
            benchmark.QUICK[name] for name in ("seeds", "mode", "engine", "time_limit", "baseline", "baseline_limit"))
    return solved(game, seeds, mode, engine, time_limit, baseline, baseline_limit, verbose)


def fair_ceiling(game: Game, seeds: str, value: str, order_nodes: int | None, time_limit: float,
                 verbose: bool, fair_rows: str | None = None) -> tuple[dict, list[str]]:
    """The fair ceiling over the seeds (solver/ceiling.py), beside the clairvoyant rate and,
    from `fair_rows` (bench/lookahead.py's CSV), the fair policy's on the same seeds."""
    from solver.ceiling import ORDER_NODES, bench_ceiling
    from solver.stats import wilson_interval

    seed_list = list(parse_seed_ranges(seeds))
    fair = fair_wins(Path(fair_rows), seed_list) if fair_rows else None  # before the long run, not after
    with tqdm(total=len(seed_list), unit="deal", disable=None, leave=False) as bar:
        def each(row):
            bar.update(1)
            if verbose:
                verdict = "won" if row.clairvoyant_won else "lost"
                bar.write(f"seed {row.seed}: bound {row.bound:.4f}, clairvoyant {verdict}")
        report = bench_ceiling(game, seed_list, value, order_nodes or ORDER_NODES, time_limit, each)
    if fair is not None:
        low, high = wilson_interval(fair, len(seed_list))
        report["fair"] = {"won": fair, "deals": len(seed_list), "low": low, "high": high, "rows": fair_rows}
        report["summary"][-1] = (f"fair policy ({fair_rows}), the same deals: {fair}/{len(seed_list)} = "
                                 f"{fair / len(seed_list):.1%} [{low:.1%}, {high:.1%}]")
    return {**report, "seeds": seeds}, report["summary"]


def fair_wins(path: Path, seeds: list[int]) -> int:
    """The deals of `seeds` the fair policy won, read from rows `seed,won,...` (one a deal, as
    bench/lookahead.py writes them); UsurperError where the file cannot be read, a row is
    malformed or a seed has no row."""
    try:
        lines = path.read_text().splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise UsurperError(f"cannot read --fair-rows {path}: {error}") from None
    won: dict[int, bool] = {}
    for number, line in enumerate(lines, 1):
        fields = line.split(",")
        if len(fields) < 2 or not fields[0].strip().isdigit() or fields[1].strip() not in ("0", "1"):
            raise UsurperError(f"--fair-rows {path}, line {number}: expected seed,won(0 or 1),..., not {line!r}")
        won[int(fields[0])] = fields[1].strip() == "1"
    missing = [seed for seed in seeds if seed not in won]
    if missing:
        raise UsurperError(f"--fair-rows {path} has no row for seed {missing[0]} ({len(missing)} seeds missing)")
    return sum(won[seed] for seed in seeds)


def fair_curve(game: Game, seeds: str, budgets: str, plot_path: str | None) -> tuple[dict, list[str]]:
    """The fair policy at each budget (samples a decision): win rate against CPU a decision."""
    from usurper.app.policies import bench_curve, curve_lines, plot_curves

    seed_list = list(parse_seed_ranges(seeds))
    counts = parse_budgets(budgets)
    if plot_path:
        check_writable(Path(plot_path))  # before the hours of play, not after
    with tqdm(total=len(seed_list) * len(counts), unit="deal", disable=None, leave=False) as bar:
        curve = bench_curve(game, seed_list, counts, each=lambda name, deal: bar.update(1))
    if plot_path:
        plot_curves(curve, plot_path)
    return {"game": game.name, "variant": game.variant, "curve": curve}, curve_lines(curve)


def parse_budgets(text: str) -> list[int]:
    """--budgets: samples a decision, whole numbers of at least 1, comma-separated."""
    words = [word.strip() for word in text.split(",")]
    if not all(word.isdigit() and int(word) >= 1 for word in words):
        raise UsurperError(f"bad --budgets {text!r}: expected samples a decision, whole numbers of at "
                           "least 1, comma-separated (e.g. 50,150,600)")
    return [int(word) for word in words]


def played(game: Game, seeds: str, policies: tuple[str, ...], samples: int,
           verbose: bool) -> tuple[dict, list[str]]:
    """Every seed played by each policy, beside the clairvoyant winnable rate."""
    from usurper.app.policies import bench_policies

    rows: list[dict] = []
    seed_list = list(parse_seed_ranges(seeds))
    with tqdm(total=len(seed_list) * len(policies), unit="deal", disable=None, leave=False) as bar:
        def each_played(name, deal):
            rows.append({"policy": name, **vars(deal)})
            bar.update(1)
            if verbose:
                bar.write(f"{name} seed {deal.seed}: {'won' if deal.won else 'lost'}, score {deal.score}")
        lines = bench_policies(game, seed_list, policies, samples, each=each_played)
    return {"game": game.name, "variant": game.variant, "rows": rows, "summary": lines}, lines


def solved(game: Game, seeds: str, mode: str, engine: str, time_limit: float, baseline: str | None,
           baseline_limit: float, verbose: bool) -> tuple[dict, list[str]]:
    """Every seed solved (and by the baseline engine beside it, where asked)."""
    rows: list[dict] = []
    seed_range = parse_seed_ranges(seeds)
    with tqdm(total=len(seed_range), unit="deal", disable=None, leave=False) as bar:
        def each(row):
            rows.append(row)
            bar.update(1)
            if verbose:
                bar.write(benchmark.deal_line(row))
        lines = benchmark.report(game, seed_range, mode, engine, time_limit, baseline, baseline_limit, each)
    return {"game": game.name, "variant": game.variant, "mode": mode, "engine": engine, "time_limit": time_limit,
            "rows": rows, "summary": lines}, lines
