"""Per-seed functions for the catalogue tests: top-level, so worker processes can import them
(tests/ is on sys.path, see conftest.py, and worker processes inherit it)."""

from __future__ import annotations

import os
import signal
import time

from solver.catalogue import Job, solve_seed


def die_on_seed_3(job: Job, seed: int) -> dict:
    """Seed 3 kills the worker process that solves it, like a crash in compiled code."""
    if seed == 3:
        os._exit(7)
    return solve_seed(job, seed)


def raise_on_seed_3(job: Job, seed: int) -> dict:
    if seed == 3:
        raise RuntimeError("the test's seed 3 fails")
    return solve_seed(job, seed)


def nap(seconds: float) -> float:
    """A task that takes `seconds` and does nothing else."""
    time.sleep(seconds)
    return seconds


def ctrl_c_as_in_a_terminal() -> None:
    """In a child process, before it runs: Ctrl-C with its default meaning, as in a terminal's
    foreground job.  A test runner started in the background of a shell ignores SIGINT, and
    its children would inherit that (the catalogue then rightly leaves SIGINT alone)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
