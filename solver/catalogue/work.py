"""Running a catalogue: the seeds not yet in the file, solved in this process, in a local
process pool, or on a Dask cluster, each row appended as soon as it is answered; Ctrl-C
stops cleanly and a re-run resumes."""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path

from games.base import UsurperError
from solver import search
from solver.catalogue.job import ERROR, Job, error_row, probe_engine, solve_seed
from solver.catalogue.store import _check_existing, _Writer, output_file
from solver.seeds import SeedRanges

#: Seeds in flight per Dask worker thread: enough to keep every worker busy, few enough
#: that an interrupted run loses little and a range of 100,000 seeds is never submitted at once.
WINDOW_PER_WORKER = 4


#: The most memory (MB) a worker may keep from its earlier seeds before it is replaced
#: (`_kept_limit`).
KEPT_MB = 256


#: Seconds between looks at a deferred Ctrl-C while the pool's seeds run.
CTRL_C_POLL = 0.1


#: Seconds to wait for a stopped pool's manager thread: it ends as soon as it sees its
#: workers gone; the bound only keeps a wedged pool from hanging the run's end.
STOP_TIMEOUT = 10.0


#: Seconds to wait for a Dask scheduler before giving up with one line.
SCHEDULER_TIMEOUT = 10.0


@dataclass
class RunReport:
    """What one run did: the seeds asked for, those already there, those added, the
    outcomes over the whole range, and (where every row of the range is an ERROR) the
    lowest seed's error message."""

    path: Path
    seeds: int
    already: int
    added: int
    outcomes: Counter
    error: str | None = None

    @property
    def failed(self) -> bool:
        """Every seed of the range is an ERROR row: the run answered nothing."""
        return self.seeds > 0 and self.outcomes[ERROR] == self.seeds


class Interrupted(Exception):
    """The user stopped a run (Ctrl-C); every row written so far stays in the file."""

    def __init__(self, path: Path, done: int, total: int):
        super().__init__(f"interrupted; {done:,} of {total:,} seed{'' if total == 1 else 's'} done, "
                         "re-run the same command to resume")
        self.path, self.done, self.total = path, done, total


def run(path: str | os.PathLike, job: Job, seeds: Iterable[int], workers: int | None = None,
        scheduler: str | None = None,
        on_start: Callable[[int, Iterable[dict]], None] = lambda todo, rows: None,
        on_row: Callable[[dict], None] = lambda row: None,
        solve_one: Callable[[Job, int], dict] = solve_seed) -> RunReport:
    """Solve every seed of `seeds` not yet in the catalogue at `path`, appending one row each.

    `workers`: processes of a local pool (default: every core; 1 without a memory cap, or
    for a single seed, solves in this process).
    `scheduler`: the address of a running Dask scheduler instead; the same rows come back.
    `on_start(todo, rows already in the file)` is called once before solving, and
    `on_row(row)` after each row is safely on disk.  `solve_one` is the per-seed function
    (a top-level function, so that it can be pickled).  Ctrl-C raises Interrupted.
    Everything is checked before the file is created, so a refused run leaves no file; a
    file holding every seed asked for already is not opened for writing at all.  `path` may
    be a symbolic link: its target gets the rows (`output_file`).
    Worker processes start by forkserver (spawn where there is none), so a script that
    calls this must guard its own top level with `if __name__ == "__main__":`.
    """
    path = Path(path)
    # Ranges, not a list: a long range is walked seed by seed, never held in memory.
    seeds = SeedRanges.of(seeds)
    if workers is not None and workers < 1:
        raise UsurperError(f"--workers must be 1 or more, not {workers}")
    if scheduler is not None and workers is not None:
        raise UsurperError("give --workers (a local pool) or --scheduler (a Dask cluster), not both")
    workers = workers or os.cpu_count() or 1
    path = output_file(path)  # a link's target: the rows go there, the link stays
    # a foreign or mismatched file is refused before anyone is contacted
    existing = _check_existing(path, job)
    if existing is not None and _has_every(existing.rows, seeds):
        # Nothing left to write: the file is not opened for writing (it may be read-only).
        on_start(0, existing.rows.values())
        return _report(path, existing.rows, seeds, len(seeds), 0)
    client = _connect(scheduler) if scheduler else None
    try:
        with contextlib.closing(_Writer.open(path, job)) as book:
            already = sum(seed in seeds for seed in book.rows)
            count = len(seeds) - already
            todo = (seed for seed in seeds if seed not in book.rows)
            added = 0
            try:  # from here on a Ctrl-C, however early, ends with the rows written so far
                # A memory cap is kept over several seeds only by processes that can be replaced
                # (`_kept_limit`): this one cannot.
                pooled = client is None and count > 1 and (workers > 1 or job.max_memory_mb is not None)
                if pooled:  # a note every worker would print (no compiled engine) is printed here, once
                    probe_engine(job)
                on_start(count, book.rows.values())
                if client is not None:
                    rows = _rows_from_dask(client, job, todo, solve_one)
                elif not pooled:
                    rows = _rows_in_process(job, todo, solve_one)
                else:
                    rows = _rows_from_pool(job, todo, min(workers, count), solve_one)
                with contextlib.closing(rows):
                    for row in rows:
                        if book.append(row):
                            added += 1
                            on_row(row)
            except KeyboardInterrupt:
                raise Interrupted(path, sum(seed in seeds for seed in book.rows), len(seeds)) from None
            book.finish()
    finally:
        if client is not None:
            client.close()
    return _report(path, book.rows, seeds, already, added)


def _report(path: Path, rows: dict[int, dict], seeds: SeedRanges, already: int, added: int) -> RunReport:
    outcomes = Counter(row["outcome"] for seed, row in rows.items() if seed in seeds)
    report = RunReport(path, len(seeds), already, added, outcomes)
    if report.failed:
        report.error = rows[min(seed for seed in rows if seed in seeds)].get("error")
    return report


def _has_every(rows: dict[int, dict], seeds: SeedRanges) -> bool:
    """Every seed of `seeds` has a row (counted, so that a long range is never listed)."""
    return len(rows) >= len(seeds) and sum(seed in seeds for seed in rows) == len(seeds)


def _rows_in_process(job: Job, seeds: Iterable[int], solve_one: Callable) -> Iterator[dict]:
    for seed in seeds:
        started = time.perf_counter()
        try:
            row = solve_one(job, seed)
        except Exception as exc:  # noqa: BLE001 - solve_seed catches its own; a custom solve_one may not
            row = error_row(job, seed, exc, started)
        yield row


def _kept_limit(job: Job) -> int | None:
    """Bytes a process may keep between two seeds before the next seed needs a fresh one.
    A search's memory cap counts the process's growth, but memory the allocator kept from
    an earlier search (Python's arenas pinned by a few live objects) is reused unseen: a
    process solving several big searches would hold the largest of them plus the cap.
    Bounded thus, a worker holds at most the cap plus this.  None: no memory cap, no limit."""
    if job.max_memory_mb is None:
        return None
    return min(KEPT_MB, job.max_memory_mb // 4) * 2**20


def _keeps_too_much(start: int | None, now: int | None, limit: int | None) -> bool:
    return limit is not None and start is not None and now is not None and now - start > limit


def _rows_from_pool(job: Job, seeds: Iterator[int], workers: int, solve_one: Callable) -> Iterator[dict]:
    """Rows from `workers` worker processes, as they finish, each worker solving one seed
    at a time so that one that keeps too much memory after a seed is replaced before its
    next (`_kept_limit`).  A worker that dies (killed, out of memory, a crash in compiled
    code) has its seed retried in a pool of its own, so that only a seed that kills its
    worker twice becomes an ERROR row."""
    ctrl_c = _DeferredCtrlC()  # first: a Ctrl-C while workers start is acted on like any other
    try:
        context = _mp_context()
        _start_fork_server(context)
        notes = search.noticed()  # printed here already (see probe_engine): the workers keep quiet
        ctrl_c.raise_if_pressed()
        limit = _kept_limit(job)
        idle = [_Worker(context, notes) for _ in range(workers)]
        running: dict = {}
        try:
            while True:
                while idle and (seed := next(seeds, None)) is not None:
                    worker = idle.pop()
                    running[worker.submit(solve_one, job, seed)] = (worker, seed)
                if not running:
                    return
                done, _ = wait(running, timeout=CTRL_C_POLL, return_when=FIRST_COMPLETED)
                ctrl_c.raise_if_pressed()
                for future in done:
                    worker, seed = running.pop(future)
                    idle.append(worker)
                    problem = future.exception()
                    if isinstance(problem, BrokenProcessPool):
                        worker.stop()
                        yield _solve_alone(job, seed, solve_one, context, notes, ctrl_c)
                    elif problem is None:
                        row, start, now = future.result()
                        if _keeps_too_much(start, now, limit):
                            worker.retire()
                        yield row
                    elif isinstance(problem, Exception):
                        yield error_row(job, seed, problem)
                    else:
                        raise problem
        finally:  # before the handler is restored: a second Ctrl-C cannot cut this short
            for worker, _ in running.values():
                worker.stop()
            for worker in idle:
                worker.retire()
    finally:
        ctrl_c.restore()


class _Worker:
    """One worker process, in a pool of its own so that it can be replaced between two
    seeds; started at its first seed."""

    def __init__(self, context, notes: frozenset[str]):
        self.context, self.notes, self.pool = context, notes, None

    def submit(self, solve_one: Callable, job: Job, seed: int):
        if self.pool is None:
            self.pool = _new_pool(1, self.context, self.notes)
        return self.pool.submit(_solve_measured, solve_one, job, seed)

    def retire(self) -> None:
        """Let the (idle) process end; the next seed starts a fresh one."""
        if self.pool is not None:
            self.pool.shutdown(wait=True)
            self.pool = None

    def stop(self) -> None:
        """End the process now, busy or dead."""
        if self.pool is not None:
            _stop_pool(self.pool)
            self.pool = None


#: A worker process's resident memory when it began its first seed (its modules loaded).
_worker_start: int | None = None


def _solve_measured(solve_one: Callable, job: Job, seed: int) -> tuple[dict, int | None, int | None]:
    """In a worker: the seed's row, and the worker's resident memory before its first seed and now."""
    global _worker_start
    if _worker_start is None:
        _worker_start = search.MemoryGuard.resident()
    return solve_one(job, seed), _worker_start, search.MemoryGuard.resident()


class _DeferredCtrlC:
    """Ctrl-C while a pool runs only sets a flag, acted on between waits: a KeyboardInterrupt
    raised at an arbitrary point inside the pool's own bookkeeping can leave it locked, so
    that the run then neither stops nor ends.  SIGTERM (`kill PID`, which reaches this process
    alone) is taken the same way, so that the workers are stopped with it instead of going on
    without a parent.  Outside the main thread (where no signal handler can be set) both keep
    their usual effect."""

    def __init__(self) -> None:
        self.pressed = False
        self.previous = {}
        if threading.current_thread() is not threading.main_thread():
            return
        for signum in (signal.SIGINT, signal.SIGTERM):
            # SIG_IGN: left alone (a run started in the background by a shell, where Ctrl-C is not its own)
            if signal.getsignal(signum) != signal.SIG_IGN:
                self.previous[signum] = signal.signal(signum, self._press)

    def _press(self, signum, frame) -> None:
        self.pressed = True

    def raise_if_pressed(self) -> None:
        if self.pressed:
            raise KeyboardInterrupt

    def restore(self) -> None:
        for signum, previous in self.previous.items():
            signal.signal(signum, previous)
        self.previous = {}


def _solve_alone(job: Job, seed: int, solve_one: Callable, context, notes: frozenset[str],
                 ctrl_c: _DeferredCtrlC) -> dict:
    """A seed in a pool of its own, after a worker died: if this worker dies too, the seed
    is what kills it (ERROR row); if no worker can even start, the run stops."""
    pool = _new_pool(1, context, notes)
    try:
        try:
            _result(pool.submit(_alive), ctrl_c)
        except BrokenProcessPool:
            raise UsurperError("worker processes die as they start; the rows written are kept") from None
        started = time.perf_counter()
        try:
            return _result(pool.submit(solve_one, job, seed), ctrl_c)
        except BrokenProcessPool:
            return error_row(job, seed, "the worker process died solving this seed (killed, out of memory, or a "
                                        "crash in compiled code)", started)
        except Exception as exc:  # noqa: BLE001 - a custom solve_one that raised
            return error_row(job, seed, exc, started)
    finally:
        _stop_pool(pool)


def _result(future, ctrl_c: _DeferredCtrlC):
    """The future's result, looking at a deferred Ctrl-C while it runs."""
    while not wait([future], timeout=CTRL_C_POLL).done:
        ctrl_c.raise_if_pressed()
    return future.result()


def _alive() -> bool:
    return True


def _mp_context():
    """forkserver where there is one: workers start clean, whatever threads the parent runs."""
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


def _new_pool(workers: int, context, notes: frozenset[str] = frozenset()) -> ProcessPoolExecutor:
    return ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_start_worker,
                               initargs=(notes, os.getpid()))


def _start_worker(notes: frozenset[str], run_pid: int) -> None:
    """Ctrl-C reaches the whole process group; only the parent acts on it (and then stops
    the workers), so that no worker prints a traceback or returns a half-made row.  A worker
    is born with SIGINT blocked (`_start_fork_server`); ignored now, it is unblocked, which
    also drops a Ctrl-C that came meanwhile.  `notes`: those the parent printed already.
    `run_pid`: the run's process, which the worker must not outlive (`_end_with_the_run`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    search.mark_noticed(notes)
    _end_with_the_run(run_pid)


def _end_with_the_run(run_pid: int) -> None:
    """In a worker: end when the run's process ends, even by kill -9, which gives it no
    chance to stop anyone.  Left alone, a worker waits for its next seed for good (it holds
    both ends of its own task pipe, so never sees the run close it), the fork server waits
    for the workers (each holds a copy of the pipe whose end tells it the run is gone), and
    the resource tracker for both.  So the worker drops its copy of the fork server's
    pipe, and the fork server then ends with the run; the kernel kills the worker when its
    parent (the fork server, or the run itself without one) ends (Linux's parent-death
    signal; elsewhere a thread watches for a new parent, at the latest once a seed is done).
    With them gone, the resource tracker reads the end of its pipe and ends too."""
    from multiprocessing import forkserver

    lifeline = getattr(getattr(forkserver, "_forkserver", None), "_forkserver_alive_fd", None)  # no public handle
    if lifeline is not None:
        with contextlib.suppress(OSError):
            os.close(lifeline)
        forkserver._forkserver._forkserver_alive_fd = None
    parent = os.getppid()
    if not _die_with_parent():
        threading.Thread(target=_exit_when_orphaned, args=(parent,), daemon=True).start()
    if os.getppid() != parent or not _running(run_pid):  # it ended before the signal was set
        os._exit(1)


#: Linux's prctl option that names the signal a process gets when its parent ends.
PR_SET_PDEATHSIG = 1


def _die_with_parent() -> bool:
    """Ask the kernel to kill this process when its parent ends (Linux); False elsewhere."""
    import ctypes
    import sys

    if not sys.platform.startswith("linux"):
        return False
    try:
        return ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL) == 0
    except (OSError, AttributeError):
        return False


#: Seconds between a worker's looks at its parent where the kernel cannot watch it.
ORPHAN_POLL = 2.0


def _exit_when_orphaned(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(ORPHAN_POLL)
    os._exit(1)


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # there, but not ours to signal
        return True
    return True


def _start_fork_server(context) -> None:
    """Start the fork server (which forks every worker) with SIGINT blocked, so that it and
    every worker are born deaf to Ctrl-C: one during their start-up would otherwise kill the
    fork server with a traceback (and the run with it), or a worker before `_start_worker`
    runs.  Blocked, not ignored: this process's Ctrl-C stays pending and reaches the
    deferred handler as the mask is restored, where SIG_IGN would lose it.  A fork server
    already running (started before, by other code) is used as it is."""
    if context.get_start_method() != "forkserver" or not hasattr(signal, "pthread_sigmask"):
        return
    from multiprocessing import forkserver, resource_tracker

    # First, on its own: starting it blocks then unblocks SIGINT, which would undo the mask.
    resource_tracker.ensure_running()
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        forkserver.ensure_running()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _stop_pool(pool: ProcessPoolExecutor) -> None:
    """Stop a pool now: pending seeds cancelled, running workers terminated, and the pool's
    manager thread finished.  Left running, that thread closes the pool's wake-up pipe while
    the interpreter's exit hook may be writing to it (no lock guards that before Python
    3.12): an exit right after an interrupt then printed `OSError: [Errno 9] Bad file
    descriptor`."""
    manager = getattr(pool, "_executor_manager_thread", None)  # no public handle on it
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14+
    if terminate is not None:
        with contextlib.suppress(Exception):
            terminate()
    else:
        processes = list((getattr(pool, "_processes", None) or {}).values())  # no public way before 3.14
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            with contextlib.suppress(Exception):
                process.terminate()
        for process in processes:
            with contextlib.suppress(Exception):
                process.join(timeout=5)
    if manager is not None:
        manager.join(timeout=STOP_TIMEOUT)



def _connect(address: str):
    """A client of the Dask scheduler at `address`; one line when it cannot be reached."""
    try:
        from distributed import Client
    except ImportError:
        raise UsurperError("--scheduler needs Dask: pip install 'usurper[cluster]'") from None

    class QuietClient(Client):
        def __del__(self):
            # A client whose connect failed is half made: Client.__del__ would close it by
            # waiting 20 s for a loop that never ran, then print a TimeoutError.  Stopping
            # its loop thread is all the cleaning it needs.
            if getattr(self, "status", None) == "running":
                super().__del__()
            else:
                with contextlib.suppress(Exception):
                    self._loop_runner.stop()

    try:
        return QuietClient(address, timeout=SCHEDULER_TIMEOUT, set_as_default=False)
    except Exception as exc:  # noqa: BLE001 - OSError, TimeoutError, ValueError for a bad address...
        detail = " ".join(str(exc).split()) or type(exc).__name__
        raise UsurperError(f"cannot reach the Dask scheduler at {address}: {detail}") from None


def _rows_from_dask(client, job: Job, seeds: Iterable[int], solve_one: Callable) -> Iterator[dict]:
    """Rows from a Dask cluster, as they finish, with a bounded window of seeds in flight.
    A task that failed (it raised, or killed its workers: KilledWorker) is an ERROR row;
    losing the scheduler stops the run, keeping every row written."""
    from distributed import as_completed

    window = max(4, WINDOW_PER_WORKER * sum(client.nthreads().values()))
    queue = iter(seeds)
    in_flight: dict = {}

    def submit(seed: int):
        future = client.submit(solve_one, job, seed, pure=False)
        in_flight[future.key] = (future, seed)
        return future

    futures = as_completed([submit(seed) for seed in _take(queue, window)], loop=client.loop)
    try:
        for future in futures:
            _, seed = in_flight.pop(future.key)
            if future.status == "finished":
                yield future.result()
            elif future.status == "error":
                yield error_row(job, seed, future.exception())
            else:
                raise UsurperError(f"the Dask cluster lost seed {seed} ({future.status}); the rows written are "
                                   "kept, re-run the same command to resume")
            following = next(queue, None)
            if following is not None:
                futures.add(submit(following))
    finally:
        if in_flight:
            with contextlib.suppress(Exception):
                client.cancel([future for future, _ in in_flight.values()])


def _take(queue: Iterator[int], count: int) -> list[int]:
    return [seed for _, seed in zip(range(count), queue)]
