"""What `usurper` loads to answer: start-up is part of every answer (bench/startup.py measures
it), so a solve or a deal of Adaman leaves unloaded what it does not use (networkx, the fair
sampler, the other games, Adaman's visible-position model) and, on the compiled engine, the
Python engine's rank tables unbuilt; built later, at their first use, those tables answer
as a sum over the cards does."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: Modules no Adaman solve or deal needs, each of which once loaded at every start-up.
UNNEEDED = ("networkx", "solver.fair", "solver.winning_graph", "games.adaman.visible", "games.royal_assassin",
            "games.kings_reign", "games.devils_throne", "tqdm")
MARK = "loaded:"
PROBE = f"""
import sys
import cli

cli.main()
from games.adaman import bounds
from games.adaman.rules import RANK

loaded = [name for name in {UNNEEDED!r} if name in sys.modules]
tables_built = bool(bounds.CHUNK_RANKS)
every_card = (1 << len(RANK)) - 1
print({MARK!r}, loaded, tables_built, bounds.total_rank(every_card) == sum(RANK), file=sys.stderr)
"""


def probe(*args: str) -> str:
    """The probe's line after `usurper ARGS` ran in a fresh process."""
    done = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    return next(line for line in done.stderr.splitlines() if line.startswith(MARK))


@pytest.mark.parametrize("args", [("solve", "adaman", "--seed", "5", "--winnable-only"),
                                  ("deal", "adaman", "--seed", "5")])
def test_an_adaman_command_loads_nothing_it_does_not_use(args):
    assert probe(*args) == f"{MARK} [] False True"


def test_the_python_engine_builds_its_rank_tables_at_first_use():
    assert probe("solve", "adaman", "--seed", "5", "--winnable-only", "--engine", "pruned") == f"{MARK} [] True True"
