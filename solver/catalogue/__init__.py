"""Catalogues: every seed of a range solved, one JSON line per seed, resumable, in parallel.

A catalogue file is JSON Lines.  Line 1 is a header naming the question every row answers
(game, variants in canonical order, mode, engine, budget); each further line is one seed:

    {"seed": 5, "outcome": "WON", "score": 95, "best": 95, "states": 838568, "seconds": 0.7591,
     "first_move": "Painter <- Battle", "engine": "compiled usurper-0.1.0"}

`outcome` is the solver's verdict as it stands (WON / LOST / UNDECIDED) or ERROR, with the
message in `error`; `score` is the proven optimum (null when not proven, and always in mode
winnable), `best` the score of the best line found, which was replayed through the rules
(`solver.verify.check_claim`) before the row was written; `first_move` is that line's first
move; `stopped` (only where the search did not finish) the limit that ended it, e.g. "time
limit of 300 s" or "memory cap of 12000 MB".  Rows are written in the order seeds finish;
a completed run leaves them sorted.

Safe against being killed at any moment: only the parent process writes, each row with one
`os.write` of a whole line on an O_APPEND descriptor followed by fsync, so a kill -9 can
cut at most the last line short, and reopening the file drops such a line before
appending.  Re-running the same command skips the seeds already there; a run with other
parameters is refused, naming the difference.  The catalogue never learns a game's rules
and never reaches for a game registry: the caller hands it a function that builds the game
(`make_job(build, ...)`), and a seed goes through that, `solve` and `check_claim` like any
deal.

Modules: job (the question and one seed's row), store (the file), work (local, pooled and
Dask runs), summary (statistics, text, plot), pick (a deal to play; the shipped files).
"""

from solver.catalogue import job, pick, store, summary, work
from solver.catalogue.job import (
    ENGINE_VERSION,
    ERROR,
    FORMAT,
    FORMAT_VERSION,
    OUTCOMES,
    Catalogue,
    Job,
    error_row,
    make_job,
    solve_seed,
)
from solver.catalogue.pick import SHIPPED_DIR, pick_row, shipped_catalogue, shipped_catalogues, shipped_grades
from solver.catalogue.store import check_matches, read, read_all
from solver.catalogue.summary import (
    Tally,
    format_summary,
    plot,
    seed_list,
    summarise,
    undecided_seeds,
    unproven_seeds,
)
from solver.catalogue.work import Interrupted, RunReport, run

__all__ = [
    "ENGINE_VERSION", "ERROR", "FORMAT", "FORMAT_VERSION", "OUTCOMES", "SHIPPED_DIR", "Catalogue", "Interrupted",
    "Job", "RunReport", "Tally", "check_matches", "error_row", "format_summary", "job", "make_job", "pick",
    "pick_row", "plot", "read", "read_all", "run", "seed_list", "shipped_catalogue", "shipped_catalogues",
    "shipped_grades", "solve_seed", "store", "summarise", "summary", "undecided_seeds", "unproven_seeds", "work",
]
