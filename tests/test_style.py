"""The code style the project keeps: ruff (configured in pyproject.toml) finds nothing."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_code_is_ruff_clean():
    checked = subprocess.run([sys.executable, "-m", "ruff", "check", "--quiet", str(ROOT)],
                             capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert checked.returncode == 0, checked.stdout + checked.stderr
