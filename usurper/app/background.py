"""Work that must not freeze a game screen: a hint or a verdict computed in a child process,
which the screen polls and can stop at once.

A search in a thread would hold the interpreter (and a compiled search cannot be told to
stop), so a person pressing `q` would wait for it; a child process is stopped by a signal.
On Linux the child is forked, so it starts at once with the game already in memory; where
fork is not offered the work runs in a thread and cancelling only stops waiting for it.
"""

from __future__ import annotations

import multiprocessing
import threading
import time
from collections.abc import Callable
from typing import Any


class Job:
    """`work()` under way; `poll()` returns its result once, `cancel()` stops it."""

    def __init__(self, label: str, work: Callable[[], Any], expected_seconds: float | None = None):
        self.label = label
        self.expected_seconds = expected_seconds
        self.started = time.monotonic()
        self._result: Any = None
        self._error: str | None = None
        self._done = False
        if "fork" in multiprocessing.get_all_start_methods():
            context = multiprocessing.get_context("fork")
            self._receiver, sender = context.Pipe(duplex=False)
            self._process = context.Process(target=_run_and_send, args=(work, sender), daemon=True)
            self._process.start()
            sender.close()
            self._thread = None
        else:
            self._process = None
            self._thread = threading.Thread(target=self._run_here, args=(work,), daemon=True)
            self._thread.start()

    @property
    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def status(self) -> str:
        """"thinking: fair hint, 1.4 s of about 2 s (Esc cancels)"."""
        about = f" of about {self.expected_seconds:g} s" if self.expected_seconds else ""
        return f"thinking: {self.label}, {self.elapsed:.1f} s{about} (Esc cancels, q quits)"

    def finished(self) -> bool:
        """Whether the result (or an error) has arrived; never blocks."""
        if self._done:
            return True
        if self._process is not None and self._receiver.poll():
            try:
                outcome, value = self._receiver.recv()
            except EOFError:
                outcome, value = "error", "the work stopped without an answer"
            self._store(outcome, value)
        elif self._process is not None and not self._process.is_alive() and not self._receiver.poll():
            self._store("error", f"the work stopped without an answer (exit code {self._process.exitcode})")
        return self._done

    def result(self) -> Any:
        """The work's value; raises RuntimeError with its message where it failed."""
        if self._error is not None:
            raise RuntimeError(self._error)
        return self._result

    def cancel(self) -> None:
        """Stop the work now; a later poll reports nothing."""
        if self._process is not None and self._process.is_alive():
            self._process.kill()
            self._process.join(timeout=1)
        self._done = True
        self._error = "cancelled"

    def _store(self, outcome: str, value: Any) -> None:
        self._done = True
        if outcome == "ok":
            self._result = value
        else:
            self._error = value
        if self._process is not None:
            self._process.join(timeout=1)

    def _run_here(self, work: Callable[[], Any]) -> None:
        try:
            value = work()
        except Exception as exc:  # the screen shows it; the game goes on
            if not self._done:
                self._store("error", str(exc) or type(exc).__name__)
            return
        if not self._done:
            self._store("ok", value)


def _run_and_send(work: Callable[[], Any], sender: Any) -> None:
    try:
        sender.send(("ok", work()))
    except Exception as exc:  # the screen shows it; the game goes on
        sender.send(("error", str(exc) or type(exc).__name__))
    finally:
        sender.close()
