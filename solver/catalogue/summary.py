"""What a catalogue says: outcomes, win rate with its Wilson interval, scores, solve times;
the same as text and as a plot (matplotlib, imported only when a plot is asked for)."""

from __future__ import annotations

import math
import os
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from games.base import LOST, UNDECIDED, WON, UsurperError
from solver.answers import Limit
from solver.catalogue.job import ERROR, OUTCOMES, Catalogue
from solver.catalogue.store import write_atomically
from solver.grade import GRADES, UNWINNABLE
from solver.grade import UNDECIDED as UNDECIDED_GRADE
from solver.stats import median, percentile, wilson_interval


def undecided_seeds(catalogue: Catalogue) -> list[int]:
    """The seeds with no verdict (UNDECIDED or ERROR): what a longer search should retry."""
    return sorted(seed for seed, row in catalogue.rows.items() if row["outcome"] in (UNDECIDED, ERROR))


def unproven_seeds(catalogue: Catalogue) -> list[int]:
    """The seeds without a proven optimal score, decided or not: what a longer optimal
    search should retry."""
    return sorted(seed for seed, row in catalogue.rows.items() if row.get("score") is None)


def seed_list(seeds: Iterable[int]) -> str:
    """Seeds as the --seeds text that names exactly them: runs written A-B, joined by commas."""
    parts: list[str] = []
    run: list[int] = []
    for seed in sorted(seeds):
        if run and seed == run[-1] + 1:
            run.append(seed)
            continue
        if run:
            parts.append(f"{run[0]}-{run[-1]}" if len(run) > 1 else str(run[0]))
        run = [seed]
    if run:
        parts.append(f"{run[0]}-{run[-1]}" if len(run) > 1 else str(run[0]))
    return ",".join(parts)


def _optimum_interval(row: dict) -> tuple[float, float]:
    """Where an unproven seed's optimum lies: from its best line's score (below every score
    without a line) to its proven bound (above every score without one)."""
    return (row["best"] if row.get("best") is not None else -math.inf,
            row["bound"] if row.get("bound") is not None else math.inf)


def optimum_median_range(rows: list[dict]) -> list[float | None] | None:
    """Where the median of every seed's optimum lies while some optima are not proven: the
    median with each unproven seed at the low end of its interval (`_optimum_interval`)
    and the median with each at the high end (None: that end is unknown).  None where
    there is nothing to bracket: every optimum is proven, or none."""
    proven = [row["score"] for row in rows if row.get("score") is not None]
    if not proven or len(proven) == len(rows):
        return None
    intervals = [_optimum_interval(row) for row in rows if row.get("score") is None]
    ends = (median(proven + [low for low, _ in intervals]), median(proven + [high for _, high in intervals]))
    return [end if math.isfinite(end) else None for end in ends]


def median_deciders(rows: list[dict], ends: list[float | None] | None) -> list[int]:
    """The unproven seeds that can still move the median's bracket (`optimum_median_range`):
    those whose interval starts below its high end and ends above its low end.  Any other
    seed counts on the same side of both ends whatever its optimum, so settling enough of
    these (an optimum, or a bound from --at-least) is what closes the bracket."""
    if not ends or ends[0] == ends[1]:
        return []
    low = -math.inf if ends[0] is None else ends[0]
    high = math.inf if ends[1] is None else ends[1]
    unproven = ((row["seed"], *_optimum_interval(row)) for row in rows if row.get("score") is None)
    return sorted(seed for seed, start, end in unproven if start < high and end > low)


def summarise(catalogue: Catalogue) -> dict:
    """The figures of a catalogue: outcomes, win rate with its Wilson 95 % interval, the
    distribution of proven scores, solve-time percentiles and states.

    The interval is honest about the seeds not decided: its low end is the Wilson low end
    of won / all seeds, as if every UNDECIDED (and ERROR) seed were lost; its high end is
    the Wilson high end of (won + undecided + errors) / all seeds, as if each were won.
    """
    rows = list(catalogue.rows.values())
    if not rows:
        raise UsurperError(f"{catalogue.path} holds no seeds yet")
    count = len(rows)
    outcomes = Counter({outcome: 0 for outcome in OUTCOMES})
    outcomes.update(row["outcome"] for row in rows)
    won, lost = outcomes[WON], outcomes[LOST]
    unknown = count - won - lost
    low, _ = wilson_interval(won, count)
    _, high = wilson_interval(won + unknown, count)
    scores = Counter(row["score"] for row in rows if row.get("score") is not None)
    seconds = [row["seconds"] for row in rows if row.get("seconds") is not None]
    states = [row["states"] for row in rows if row.get("states") is not None]
    header = catalogue.header
    median_range = optimum_median_range(rows) if header["mode"] == "optimal" else None
    return {
        "file": str(catalogue.path), "files": [str(path) for path in catalogue.sources or (catalogue.path,)],
        "game": header["game"], "variants": header["variants"],
        "mode": header["mode"], "engine": header["engine"], "time_limit": header["time_limit"],
        "max_states": header["max_states"], "verdict_limit": header.get("verdict_limit"),
        "at_least": header.get("at_least"),
        "seeds": count, "first_seed": min(catalogue.rows), "last_seed": max(catalogue.rows),
        "outcomes": dict(outcomes),
        "win_rate": won / count, "win_rate_of_decided": won / (won + lost) if won + lost else None,
        "wilson_95": [low, high],
        "proven_scores": sum(scores.values()),
        "scores": {str(score): scores[score] for score in sorted(scores)},
        "score_median": median(list(scores.elements())) if scores else None,
        "score_mode": max(sorted(scores), key=lambda score: scores[score]) if scores else None,
        "optimum_median": median_range,
        "optimum_median_deciders": median_deciders(rows, median_range),
        "seconds": _spread(seconds), "states": _spread(states), "seconds_total": sum(seconds),
        "engines": sorted({row["engine"] for row in rows if row.get("engine")}),
        "stopped": dict(Counter(_limit_name(row["stopped"]) for row in rows if row.get("stopped"))),
        **({"grades": grade_distribution(rows)} if header["mode"] == "grade" else {}),
    }


def grade_distribution(rows: list[dict]) -> dict:
    """How many seeds got each grade, with its share of all seeds and of the winnable ones
    (those graded below `unwinnable`), each with its Wilson 95 % interval."""
    counts = Counter(row["grade"] for row in rows if row.get("grade"))
    graded = sum(counts.values())
    winnable = graded - counts[UNWINNABLE] - counts[UNDECIDED_GRADE]
    distribution = {}
    for grade in (*GRADES, UNDECIDED_GRADE):
        if grade == UNDECIDED_GRADE and not counts[grade]:
            continue
        share = {"count": counts[grade], "of_all": _share(counts[grade], graded)}
        if grade not in (UNWINNABLE, UNDECIDED_GRADE):
            share["of_winnable"] = _share(counts[grade], winnable)
        distribution[grade] = share
    return distribution


def _share(count: int, total: int) -> list[float] | None:
    """[share, Wilson low, Wilson high], or None of nothing."""
    if not total:
        return None
    low, high = wilson_interval(count, total)
    return [count / total, low, high]


def format_summary(summary: dict) -> list[str]:
    """The summary as the text `usurper catalogue stats` prints."""
    variant = ",".join(summary["variants"]) or "standard"
    budget = f"time limit {summary['time_limit']:g} s" if summary["time_limit"] is not None else "no time limit"
    if summary["max_states"] is not None:
        budget += f", at most {summary['max_states']:,} states"
    if summary.get("verdict_limit") is not None:
        budget += f", then winnability for {summary['verdict_limit']:g} s where undecided"
    if summary.get("at_least"):
        budget += f", each optimum only where it reaches {summary['at_least']} (else a bound below it)"
    outcomes = summary["outcomes"]
    low, high = summary["wilson_95"]
    decided = outcomes[WON] + outcomes[LOST]
    of_decided = (f" ({100 * summary['win_rate_of_decided']:.1f} % of the {decided:,} decided)"
                  if decided else "")
    files = summary.get("files") or [summary["file"]]
    lines = [
        f"{summary['file']}: {summary['game']} ({variant}), {summary['mode']}, engine {summary['engine']}, {budget}",
        *([f"read          {' + '.join(files)} (for each seed, the row that knows most: "
           "a proven optimum, a verdict, the longer search)"]
          if len(files) > 1 else []),
        f"seeds         {summary['seeds']:,} (seeds {summary['first_seed']}-{summary['last_seed']})",
        "outcomes      " + ", ".join(f"{outcomes[name]:,} {name}" for name in OUTCOMES),
        (f"win rate      {100 * summary['win_rate']:.1f} % of all seeds{of_decided}; Wilson 95 % "
         f"[{100 * low:.1f}, {100 * high:.1f}] % (undecided counted lost for the low end, won for the high)"),
    ]
    for name, unit in (("seconds", ".3f"), ("states", ",.0f")):
        spread = summary[name]
        if spread:
            total = f"  total {summary['seconds_total']:,.0f} s of one core" if name == "seconds" else ""
            lines.append(f"{name:<14}median {spread['median']:{unit}}  p90 {spread['p90']:{unit}}  "
                         f"p99 {spread['p99']:{unit}}  max {spread['max']:{unit}}{total}")
    if summary.get("stopped"):
        kinds = {"time": "the time limit", "states": "the state budget", "table": "the table's memory",
                 "other": "another limit"}
        lines.append("stopped       " + ", ".join(f"{count:,} by {kinds[kind]}" for kind, count in
                                                   sorted(summary["stopped"].items(), key=lambda item: -item[1]))
                     + " (the searches left unfinished whose rows say why)")
    if summary["scores"]:
        lines.append(f"scores        {summary['proven_scores']:,} proven: median {summary['score_median']:g}, "
                     f"mode {summary['score_mode']}")
        if summary.get("optimum_median"):
            lines.append(_optimum_median_line(summary))
        if summary.get("optimum_median_deciders"):
            lines.append(_median_deciders_line(summary["optimum_median_deciders"]))
    else:
        lines.append(f"scores        {summary['proven_scores']:,} proven (none: mode winnable, or no search finished)")
    if summary.get("grades"):
        lines.extend(_grade_lines(summary["grades"]))
    widest = max(summary["scores"].values(), default=1)
    for score, count in summary["scores"].items():
        bar = "#" * max(1, round(40 * count / widest))
        lines.append(f"  {score:>5} {count:>8,}  {bar}")
    return lines


def _grade_lines(grades: dict) -> list[str]:
    """The grade distribution: counts, shares of all seeds and of the winnable, Wilson 95 %."""
    lines = ["grades        (docs/grades.md)  seeds   of all seeds              of the winnable"]
    for grade, share in grades.items():
        winnable = share.get("of_winnable")
        lines.append(f"  {grade:<18} {share['count']:>7,}   {_percent(share['of_all'])}  "
                     f"{_percent(winnable) if winnable else ''}".rstrip())
    return lines


def _percent(share: list[float] | None) -> str:
    if share is None:
        return "-"
    value, low, high = share
    return f"{100 * value:5.1f} % [{100 * low:4.1f}, {100 * high:5.1f}]"


def _optimum_median_line(summary: dict) -> str:
    """The bracket of the median optimum over every seed, in words ("is N" once it has closed)."""
    low, high = summary["optimum_median"]
    unproven = summary["seeds"] - summary["proven_scores"]
    if low is not None and low == high:
        where = (f"is {low:g}, whatever the {unproven:,} unproven prove (each between its best line and its "
                 "proven bound, or unbounded)")
    else:
        within = (f"within [{low:g}, {high:g}]" if low is not None and high is not None
                  else f"at least {low:g}" if low is not None else f"at most {high:g}" if high is not None
                  else "unknown")
        where = (f"{within} (the {unproven:,} unproven at their best line for the low end, at their proven "
                 "bound, or unbounded, for the high)")
    return f"              median optimum of all {summary['seeds']:,} seeds {where}"


def _median_deciders_line(seeds: list[int], shown: int = 20) -> str:
    listed = ", ".join(str(seed) for seed in seeds[:shown])
    more = f" and {len(seeds) - shown:,} more" if len(seeds) > shown else ""
    return f"              the unproven seeds that can still move it ({len(seeds):,}): {listed}{more}"


def plot(catalogue: Catalogue, out: str | os.PathLike) -> Path:
    """A PNG with three panels, written atomically to `out`: the proven scores' histogram
    (won and lost stacked; a graded catalogue: the grades' counts with Wilson bars), the
    distribution of solve times (log scale), and the running win rate in seed order with its
    Wilson 95 % interval (how the figure settles as seeds are added)."""
    try:
        from matplotlib.figure import Figure  # lazily: only --plot needs matplotlib
    except ImportError:
        raise UsurperError("--plot needs matplotlib: pip install 'usurper[plot]'") from None

    rows = list(catalogue.rows.values())
    if not rows:
        raise UsurperError(f"{catalogue.path} holds no seeds yet")
    figure = Figure(figsize=(16, 4.5), layout="constrained")
    scores_axes, times_axes, rate_axes = figure.subplots(1, 3)
    if catalogue.header["mode"] == "grade":
        _plot_grades(scores_axes, rows)
    else:
        _plot_scores(scores_axes, rows)
    seconds = [max(row["seconds"], 1e-4) for row in rows if row.get("seconds") is not None]
    if seconds:
        low, high = min(seconds), max(seconds)
        high = max(high, low * 1.01)
        steps = 40
        bins = [low * (high / low) ** (step / steps) for step in range(steps + 1)]
        times_axes.hist(seconds, bins=bins, color="tab:blue")
        times_axes.set_xscale("log")
    limit = catalogue.header.get("time_limit")
    if limit:
        times_axes.axvline(limit, color="black", linestyle="--", label=f"time limit {limit:g} s")
        times_axes.legend()
    times_axes.set(title="Solve time (replay included)", xlabel="seconds (log scale)", ylabel="seeds")
    _plot_running_win_rate(rate_axes, catalogue)
    figure.suptitle(f"{catalogue.title}: {len(rows):,} seeds, {catalogue.header['mode']}")
    return write_atomically(Path(out), lambda handle: figure.savefig(handle, format="png", dpi=100))


def _plot_scores(axes, rows: list[dict]) -> None:
    """The proven scores' histogram, won and lost stacked."""
    proven = [row for row in rows if row.get("score") is not None]
    if proven:
        low = min(row["score"] for row in proven)
        high = max(row["score"] for row in proven)
        bins = [value - 0.5 for value in range(low, high + 2)]
        stacks = [[row["score"] for row in proven if row["outcome"] == outcome] for outcome in (WON, LOST)]
        axes.hist(stacks, bins=bins, stacked=True, label=["won", "lost"], color=["tab:green", "tab:red"])
        axes.set_xlim(*_score_axis_limits(low, high))
        axes.xaxis.get_major_locator().set_params(integer=True)
        axes.legend()
    else:
        axes.text(0.5, 0.5, "no proven scores", ha="center", va="center", transform=axes.transAxes)
    axes.set(title=f"Optimal score, {len(proven):,} of {len(rows):,} seeds proven", xlabel="score", ylabel="seeds")


def _plot_grades(axes, rows: list[dict]) -> None:
    """How many seeds got each grade, easiest first, with Wilson 95 % bars."""
    distribution = grade_distribution(rows)
    names = list(distribution)
    counts = [distribution[name]["count"] for name in names]
    total = sum(counts)
    errors = [[count - total * distribution[name]["of_all"][1] for name, count in zip(names, counts)],
              [total * distribution[name]["of_all"][2] - count for name, count in zip(names, counts)]]
    axes.bar(range(len(names)), counts, yerr=errors, capsize=3, color="tab:purple")
    axes.set_xticks(range(len(names)), names, rotation=30, ha="right")
    axes.set(title=f"Grades of {total:,} seeds (Wilson 95 %)", ylabel="seeds")


def running_win_rate(catalogue: Catalogue, points: int = 400) -> list[tuple[int, float, float, float]]:
    """(seeds so far, win rate, Wilson low, Wilson high) at about `points` counts spread
    evenly on a log scale, taking the seeds in seed order; as in `summarise`, the interval
    counts undecided seeds as lost for its low end and won for its high end."""
    outcomes = [row["outcome"] for _, row in sorted(catalogue.rows.items())]
    count = len(outcomes)
    marks = sorted({max(1, round(count ** (step / points))) for step in range(points + 1)} | {count})
    curve = []
    won = unknown = done = 0
    for mark in marks:
        for outcome in outcomes[done:mark]:
            won += outcome == WON
            unknown += outcome not in (WON, LOST)
        done = mark
        curve.append((mark, won / mark, wilson_interval(won, mark)[0], wilson_interval(won + unknown, mark)[1]))
    return curve


#: The score axis spans at least this many points, so that a catalogue whose proven scores
#: are all one value (King's Reign's perfect 85) shows a bar, not a filled panel.
SCORE_AXIS_SPAN = 10


def _score_axis_limits(low: int, high: int) -> tuple[float, float]:
    """Widened evenly to SCORE_AXIS_SPAN, but never below a score of 0 when none is."""
    spare = max(0, SCORE_AXIS_SPAN - (high - low)) / 2
    below = min(spare, low) if low >= 0 else spare
    return low - 0.5 - below, high + 0.5 + 2 * spare - below


def _plot_running_win_rate(axes, catalogue: Catalogue) -> None:
    curve = running_win_rate(catalogue)
    counts = [point[0] for point in curve]
    axes.fill_between(counts, [100 * point[2] for point in curve], [100 * point[3] for point in curve],
                      color="tab:blue", alpha=0.25, label="Wilson 95 %")
    axes.plot(counts, [100 * point[1] for point in curve], color="tab:blue", label="win rate")
    axes.set_xscale("log")
    axes.legend()
    axes.set(title=f"Running win rate: {100 * curve[-1][1]:.2f} % of {counts[-1]:,} seeds",
             xlabel="seeds, in seed order (log scale)", ylabel="won, % of seeds so far")


def reachable_score(row: dict) -> int | None:
    """A score known reachable from the deal: the proven optimum, else the best line's."""
    return row["score"] if row.get("score") is not None else row.get("best")


class Tally:
    """Running counts for a progress bar: the win rate over the seeds decided so far."""

    def __init__(self, rows: Iterable[dict] = ()):
        self.outcomes: Counter = Counter()
        for row in rows:
            self.add(row)

    def add(self, row: dict) -> None:
        self.outcomes[row["outcome"]] += 1

    def text(self) -> str:
        won, decided = self.outcomes[WON], self.outcomes[WON] + self.outcomes[LOST]
        rate = f"{100 * won / decided:.1f} %" if decided else "-"
        extra = "".join(f", {self.outcomes[name]} {name.lower()}" for name in (UNDECIDED, ERROR)
                        if self.outcomes[name])
        return f"won {won}/{decided} decided = {rate}{extra}"


def _spread(values: list) -> dict:
    if not values:
        return {}
    return {"median": median(values), "p90": percentile(values, 0.9), "p99": percentile(values, 0.99),
            "max": max(values)}


def _limit_name(words: str) -> str:
    """Which limit a row's `stopped` words name ("other" for words no limit opens with)."""
    limit = Limit.of_words(words)
    return limit.value if limit is not None else "other"
