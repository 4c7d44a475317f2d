"""Running `usurper` as a user would, for the tests that check what it prints and exits with."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import cli

ROOT = Path(__file__).resolve().parent.parent


def usurper(*args: str, stdin: str = "", timeout: float = 120) -> subprocess.CompletedProcess:
    """`usurper ARGS` in a fresh process, from the repository's root."""
    return subprocess.run([sys.executable, "-c", "import cli; cli.main()", *args], input=stdin, capture_output=True,
                          text=True, cwd=ROOT, timeout=timeout)


def one_line_error(done: subprocess.CompletedProcess, *words: str) -> str:
    """Exit 2 and exactly one line `usurper: error: ...` on stderr, holding every one of `words`."""
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("usurper: error: "), done.stderr
    assert "Traceback" not in done.stderr
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


def run_main(monkeypatch, capsys, *args: str) -> subprocess.CompletedProcess:
    """`usurper ARGS` through cli.main in this process (where monkeypatch reaches)."""
    monkeypatch.setattr(sys, "argv", ["usurper", *args])
    code = 0
    try:
        cli.main()
    except SystemExit as exc:
        code = exc.code or 0
    captured = capsys.readouterr()
    return subprocess.CompletedProcess(args, code, captured.out, captured.err)
