"""The status line of a command at work: one line on stderr, redrawn every half second, that
says what is being searched, for how long so far, and the time limit with where it came from
("12 s of 60 s (the default --time-limit)").

The compiled searches run without a pause to call back into Python, so the line is drawn by
a thread of its own from the clock alone: the search never waits for it.  It is drawn only
where stderr is a terminal; piped or redirected, a command writes its answer and nothing
else, so that scripts and --json read what they always read.
"""

from __future__ import annotations

import io
import os
import sys
import threading
import time
from collections.abc import Callable
from typing import TextIO

#: Seconds between redraws, and before the first: a command that answers sooner shows none.
REFRESH_SECONDS = 0.5
#: Erases the line the cursor is on (ANSI), so that a shorter text leaves nothing behind.
ERASE = "\r\x1b[K"


def is_terminal(stream: TextIO) -> bool:
    """Whether `stream` is a terminal a person reads (a closed or odd stream is not)."""
    try:
        return stream.isatty()
    except (AttributeError, ValueError, OSError):
        return False


def limit_words(seconds: float | None, defaulted: bool, default_is: str = "the default --time-limit") -> str:
    """The time limit and where it came from: '60 s (the default --time-limit)', '10 s
    (--time-limit)', 'none' without one."""
    if seconds is None:
        return "none"
    return f"{seconds:g} s ({default_is if defaulted else '--time-limit'})"


class StatusLine:
    """`with StatusLine("solving adaman seed 5", "60 s (the default --time-limit)"):` draws
    "usurper: solving adaman seed 5... 3 s of 60 s (the default --time-limit)" on stderr
    while the block runs, and erases it at the end.  `doing` changes what it says (the
    question being searched), `echo` prints a line of the answer above it as soon as it is
    known.  Silent where stderr is not a terminal; `echo` prints all the same."""

    def __init__(self, doing: str, limit: str = "", stream: TextIO | None = None, out: TextIO | None = None,
                 refresh: float = REFRESH_SECONDS, clock: Callable[[], float] = time.monotonic):
        self.stream = sys.stderr if stream is None else stream
        self.out = out
        self.shown = is_terminal(self.stream)
        self.what, self.limit = doing, limit
        self.refresh, self.clock = refresh, clock
        self.started = clock()
        self.drawn = False
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def __enter__(self) -> StatusLine:
        self.started = self.clock()
        if self.shown:
            self._thread = threading.Thread(target=self._tick, name="usurper-status", daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *_exc) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        with self._lock:
            self._erase()

    def doing(self, what: str) -> None:
        """Say `what` is being done from now on (shown at the next redraw)."""
        with self._lock:
            self.what = what

    def echo(self, text: str) -> None:
        """Print `text` on stdout now, above the status line, which is drawn again after it."""
        out = sys.stdout if self.out is None else self.out
        with self._lock:
            self._erase()
            out.write(text + "\n")
            out.flush()
            if self._thread is not None and not self._stop.is_set():
                self._draw()

    def text(self) -> str:
        """The line as drawn now: what, elapsed, and the limit."""
        elapsed = self.clock() - self.started
        limit = f" of {self.limit}" if self.limit else ""
        return f"usurper: {self.what}... {elapsed:.0f} s{limit}"

    def _tick(self) -> None:
        while not self._stop.wait(self.refresh):
            with self._lock:
                self._draw()

    def _draw(self) -> None:
        width = self._columns() - 1  # a wrapped line could not be redrawn in place
        self.stream.write(ERASE + self.text()[:width])
        self.stream.flush()
        self.drawn = True

    def _columns(self) -> int:
        """The width of the terminal the line is drawn on (80 where it cannot be asked or
        is not set, as on a fresh pseudo-terminal)."""
        try:
            return os.get_terminal_size(self.stream.fileno()).columns or 80
        except (AttributeError, ValueError, OSError, io.UnsupportedOperation):
            return 80

    def _erase(self) -> None:
        if self.drawn:
            self.stream.write(ERASE)
            self.stream.flush()
            self.drawn = False
