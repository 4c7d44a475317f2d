"""Time to the first output of every example in README.md, as a person at a terminal sees it.

Reads the README's examples (each `$ usurper ...` line of its ``` blocks, and the `usurper
solve` that ends the set-up commands), runs each in turn in one scratch directory (so that
`catalogue stats a.jsonl` finds the file the example before it wrote), under a
pseudo-terminal: stdout and stderr are a terminal, as they are for a person, so the status
line a command draws on stderr while it works counts as output.  Prints, for each, the
seconds to its first byte, its longest silence (the first byte, the gaps between bytes and
the wait from the last byte to the end), its total and its exit code; the target is no
silence longer than 2 s on an idle core.

    python bench/first_output.py [--out bench/results/first-output.csv] [--readme README.md]
"""

from __future__ import annotations

import argparse
import fcntl
import os
import pty
import re
import select
import shlex
import struct
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: The longest silence a person should meet, in seconds.
TARGET_SILENCE = 2.0
#: The pseudo-terminal's size: wide enough that no line of the examples wraps.
COLUMNS, ROWS = 160, 50


def readme_commands(text: str) -> list[str]:
    """The usurper commands of the README's examples, in order: each `$ usurper ...` line
    of a ``` block, and the usurper command that ends a set-up line (`... && .venv/bin/usurper
    solve ...`)."""
    commands = []
    for block in re.findall(r"```[a-z]*\n(.*?)```", text, flags=re.S):
        for line in block.splitlines():
            if line.startswith("$ usurper "):
                commands.append(line[2:].strip())
            elif "&&" in line:
                last = line.split("&&")[-1].strip()
                if re.match(r"(\S*/)?usurper ", last):
                    commands.append("usurper " + last.split("usurper ", 1)[1])
    return list(dict.fromkeys(commands))  # the set-up's solve is also the tour's first example


def usurper_argv() -> list[str]:
    """The installed `usurper` beside this Python, else the module run from the source tree."""
    script = Path(sys.executable).with_name("usurper")
    return [str(script)] if script.exists() else [sys.executable, "-c", "import cli; cli.main()"]


def run_in_terminal(argv: list[str], cwd: Path) -> dict:
    """Run `argv` with stdout and stderr on a pseudo-terminal (stdin empty) and time its output."""
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": str(COLUMNS)}
    started = time.perf_counter()
    process = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.DEVNULL, stdout=follower, stderr=follower, env=env)
    os.close(follower)
    arrivals, output = [], b""
    while True:
        ready, _, _ = select.select([leader], [], [], 0.05)
        if ready:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the terminal closed: the command ended
                chunk = b""
            if not chunk:
                break
            arrivals.append(time.perf_counter() - started)
            output += chunk
        elif process.poll() is not None:
            break
    code = process.wait()
    total = time.perf_counter() - started
    os.close(leader)
    marks = [0.0, *arrivals, total]
    return {"first_output_s": arrivals[0] if arrivals else None,
            "longest_silence_s": max(b - a for a, b in zip(marks, marks[1:])),
            "total_s": total, "exit_code": code, "output_bytes": len(output)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--readme", type=Path, default=ROOT / "README.md")
    parser.add_argument("--out", type=Path, help="also append the rows to this CSV file (with day, commit, load)")
    args = parser.parse_args()
    commands = readme_commands(args.readme.read_text(encoding="utf-8"))
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        for command in commands:
            words = shlex.split(command)
            row = {"command": command, **run_in_terminal(usurper_argv() + words[1:], Path(scratch))}
            rows.append(row)
            first = "none" if row["first_output_s"] is None else f"{row['first_output_s']:6.2f}"
            flag = "  SILENT too long" if row["longest_silence_s"] > TARGET_SILENCE else ""
            print(f"first {first} s  longest silence {row['longest_silence_s']:6.2f} s  total "
                  f"{row['total_s']:6.2f} s  exit {row['exit_code']}  {command}{flag}", flush=True)
    silent = sum(row["longest_silence_s"] > TARGET_SILENCE for row in rows)
    print(f"{len(rows)} examples; {silent} silent for more than {TARGET_SILENCE:g} s")
    if args.out:
        from common import append_rows

        append_rows(args.out, [{key: round(value, 3) if isinstance(value, float) else value
                                for key, value in row.items()} for row in rows])


if __name__ == "__main__":
    main()
