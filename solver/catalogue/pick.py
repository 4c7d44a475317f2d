"""Picking a deal to play from a catalogue, and where the shipped catalogues live."""

from __future__ import annotations

import math
import random
from importlib.resources import files
from pathlib import Path

from games.base import WON, UsurperError
from solver.catalogue.job import ERROR, Catalogue, Job
from solver.catalogue.store import read_header
from solver.catalogue.summary import reachable_score

#: Where the shipped catalogues live: the repository's data/catalogue/, installed as the
#: package usurper.data (so a non-editable install finds them too).
SHIPPED_DIR = Path(str(files("usurper.data") / "catalogue"))


def shipped_catalogue(job: Job) -> Path:
    """The catalogue shipped in data/catalogue/ for this game and variant (may not exist)."""
    return SHIPPED_DIR / f"{_stem(job)}.jsonl"


def shipped_catalogues(job: Job) -> list[Path]:
    """The whole shipped catalogue of this game and variant: the main file, then the others
    (`GAME-hard-60s.jsonl` answering its undecided seeds again, `GAME-0-99999.jsonl.gz` a
    wider range asked only for winnability, ...), shortest time limit first, so that
    `read_all` lets the longer answer win where two know as much.  Empty when nothing is
    shipped."""
    main = shipped_catalogue(job)
    if not main.exists():
        return []
    others = [path for pattern in ("jsonl", "jsonl.gz") for path in SHIPPED_DIR.glob(f"{_stem(job)}-*.{pattern}")]
    return [main, *sorted(others, key=lambda path: (_time_limit(path), path.name))]


def shipped_grades(job: Job) -> Path:
    """The graded catalogue shipped in data/catalogue/grades/ for this game and variant (may not exist)."""
    return SHIPPED_DIR / "grades" / f"{_stem(job)}.jsonl.gz"


def _stem(job: Job) -> str:
    # a file name without spaces or shell characters: "personalities:Light Keeper" -> "personalities-Light_Keeper"
    words = "+".join(job.variants).replace(":", "-").replace("=", "-").replace(" ", "_")
    suffix = "" if not job.variants else "." + words
    return f"{job.game}{suffix}"


def _time_limit(path: Path) -> float:
    """A catalogue file's time limit, from its header line (no limit: last)."""
    limit = read_header(path).get("time_limit")
    return math.inf if limit is None else float(limit)


def pick_row(catalogue: Catalogue, winnable: bool = False, min_score: int | None = None,
             rng: random.Random | None = None, grades: tuple[str, ...] = ()) -> tuple[dict, int]:
    """A row chosen uniformly among those that match, and how many matched: won (with
    `winnable`), a score of at least `min_score` known reachable (the proven optimum, or else
    the score of the verified best line), and one of `grades` (a graded catalogue; none: any).
    ERROR rows are never picked."""
    candidates = [row for _, row in sorted(catalogue.rows.items())
                  if row["outcome"] != ERROR and (not winnable or row["outcome"] == WON)
                  and (min_score is None or (reachable_score(row) or -1) >= min_score)
                  and (not grades or row.get("grade") in grades)]
    if not candidates:
        wanted = " and ".join(filter(None, ["won" if winnable else "",
                                            f"score >= {min_score}" if min_score is not None else "",
                                            f"grade {' or '.join(grades)}" if grades else ""])) or "any"
        raise UsurperError(f"no seed in {_files(catalogue)} matches ({wanted}) among its {len(catalogue.rows):,} seeds")
    return (rng or random.Random()).choice(candidates), len(candidates)


def _files(catalogue: Catalogue) -> str:
    return " + ".join(str(path) for path in catalogue.sources or (catalogue.path,))
