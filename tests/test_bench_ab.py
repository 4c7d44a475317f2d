"""bench/ab.py, the side-by-side benchmark of two source trees: the same tree against itself
must agree on every verdict and score and count exactly the same states."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_a_tree_against_itself_agrees_state_for_state():
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "ab.py"), str(ROOT), str(ROOT), "--seeds", "7,14", "--mode", "winnable",
         "--time-limit", "20"],
        capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "decided: old 2, new 2 of 2; both 2, verdicts and scores all agree" in lines
    assert "states old/new on those: median 1.00, min 1.00, max 1.00" in lines
