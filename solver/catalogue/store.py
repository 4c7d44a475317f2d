"""The catalogue file: JSON Lines, a header naming the question, then one row per seed.

Safe against being killed at any moment: only the parent process writes, each row with one
`os.write` of a whole line on an O_APPEND descriptor followed by fsync, so a kill -9 can
cut at most the last line short, and reopening the file drops such a line before
appending.  A file asking another question is refused, naming the difference.
"""

from __future__ import annotations

import contextlib
import errno
import glob
import json
import math
import os
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from games.base import UsurperError
from solver.catalogue.job import FORMAT, FORMAT_VERSION, OUTCOMES, QUESTION_FIELDS, Catalogue, Job


def read(path: str | os.PathLike) -> Catalogue:
    """Read a catalogue file.  A last line cut short (a run killed mid-write) is ignored;
    anything else that is not a catalogue raises UsurperError naming the file and line."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise UsurperError(f"cannot read catalogue {path}: {_reason(exc)}") from None
    catalogue, _, _ = _parse(path, data)
    catalogue.sources = (path,)
    return catalogue


def read_all(paths: Sequence[str | os.PathLike]) -> Catalogue:
    """A game's whole catalogue: the first file, then each later one (a longer search of the
    seeds the earlier left undecided) answering its seeds again.  A later row replaces an
    earlier one unless the earlier proved an optimum that the later did not.  Every file
    must be of the same game, variants and mode of question (optimal rows may be answered
    again by winnability rows: they only settle the verdict)."""
    books = [read(path) for path in paths]
    if not books:
        raise UsurperError("no catalogue file given")
    first = books[0]
    rows = dict(first.rows)
    for book in books[1:]:
        if (book.header["game"], book.header["variants"]) != (first.header["game"], first.header["variants"]):
            raise UsurperError(f"{book.path} is a catalogue of {book.title}, not of {first.title} like {first.path}")
        for seed, row in book.rows.items():
            earlier = rows.get(seed)
            if earlier is None or earlier.get("score") is None or row.get("score") is not None:
                rows[seed] = row
    return Catalogue(first.path, first.header, rows, tuple(book.path for book in books))


def check_matches(catalogue: Catalogue, job: Job) -> None:
    """Refuse a catalogue of another game or variant than `job`'s."""
    header = catalogue.header
    if header["game"] != job.game or tuple(header["variants"]) != job.variants:
        raise UsurperError(f"{catalogue.path} is a catalogue of {catalogue.title}, not of {job.title}")


class _Writer:
    """The catalogue file opened for appending, locked against a second run on it."""

    def __init__(self, path: Path, fd: int, catalogue: Catalogue, header_line: bytes, order: list[int]):
        self.path, self.fd, self.catalogue = path, fd, catalogue
        self.rows = catalogue.rows
        self.header_line = header_line
        self.order = order

    @classmethod
    def open(cls, path: Path, job: Job) -> _Writer:
        """Create the file with its header, or reopen it to resume: check the header,
        drop a last line cut short, and read the rows already there."""
        try:
            _make_parent(path)
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o644)
        except OSError as exc:
            raise UsurperError(f"cannot write {path}: {_reason(exc)}") from None
        try:
            _lock(fd, path)
            for stale in path.parent.glob(f".{glob.escape(path.name)}.*.tmp"):  # a sort cut short by a kill
                stale.unlink(missing_ok=True)
            data = _read_all(fd)
            if _is_new(data):
                os.ftruncate(fd, 0)
                header_line = (json.dumps(job.header()) + "\n").encode()
                _write_line(fd, header_line)
                _fsync_dir(path.parent)
                data = header_line
            catalogue, kept, order = _parse(path, data)
            _check_header(catalogue, job)
            if kept < len(data):  # a row cut short by a kill mid-write
                os.ftruncate(fd, kept)
                os.fsync(fd)
            return cls(path, fd, catalogue, data[: data.index(b"\n") + 1], order)
        except BaseException:
            os.close(fd)
            raise

    def close(self) -> None:
        os.close(self.fd)

    def append(self, row: dict) -> bool:
        """Write one row durably; a seed already present is never written twice."""
        seed = row["seed"]
        if seed in self.rows:
            return False
        _write_line(self.fd, (json.dumps(row) + "\n").encode())
        self.rows[seed] = row
        self.order.append(seed)
        return True

    def sort(self) -> None:
        """Leave the rows in seed order (diff-friendly), by an atomic rewrite, if needed."""
        if self.order == sorted(self.order) and len(self.order) == len(set(self.order)):
            return
        body = b"".join((json.dumps(self.rows[seed]) + "\n").encode() for seed in sorted(self.rows))
        _write_atomically(self.path, lambda handle: handle.write(self.header_line + body))
        self.order = sorted(self.rows)


def _check_existing(path: Path, job: Job) -> None:
    try:
        data = path.read_bytes()
    except (FileNotFoundError, NotADirectoryError):
        return  # nothing there yet (a parent that is a file is refused when the file is made)
    except OSError as exc:
        raise UsurperError(f"cannot read catalogue {path}: {_reason(exc)}") from None
    if not _is_new(data):
        _check_header(_parse(path, data)[0], job)


def _is_new(data: bytes) -> bool:
    """An empty file, or one whose header was cut short: nothing in it to keep."""
    marker = b'{"format": "' + FORMAT.encode() + b'"'
    return not data.strip() or (b"\n" not in data and (data.startswith(marker) or marker.startswith(data)))


def _parse(path: Path, data: bytes) -> tuple[Catalogue, int, list[int]]:
    """The catalogue in `data`, how many bytes of it are whole lines, and the seeds in file
    order.  A last line without its newline is a write cut short: ignored, never an error."""
    kept = data.rfind(b"\n") + 1
    lines = data[:kept].split(b"\n")[:-1]
    if not lines:
        raise UsurperError(f"{path} is not a usurper catalogue (no header line)")
    try:
        header = _loads(lines[0])
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise UsurperError(f"{path} is not a usurper catalogue (line 1 is not JSON)") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise UsurperError(f"{path} is not a usurper catalogue (line 1 is not its header)")
    if header.get("version") != FORMAT_VERSION:
        raise UsurperError(f"{path}: catalogue format version {header.get('version')!r} is not "
                           f"{FORMAT_VERSION}, the one this usurper reads")
    missing = [name for name in QUESTION_FIELDS if name not in header]
    if missing:
        raise UsurperError(f"{path}: the catalogue header lacks {', '.join(missing)}")
    wrong = [name for name, kinds in _HEADER_TYPES.items() if not _has_type(header.get(name), kinds)]
    if wrong or not all(isinstance(word, str) for word in header["variants"]):
        raise UsurperError(f"{path}: the catalogue header has a bad {', '.join(wrong) or 'variants'}")
    rows: dict[int, dict] = {}
    lines_of: dict[int, int] = {}
    order = []
    for number, line in enumerate(lines[1:], 2):
        if not line.strip():
            continue
        try:
            row = _loads(line)
        except (ValueError, UnicodeDecodeError, RecursionError):
            raise UsurperError(f"{path}: line {number} is not JSON") from None
        if (not isinstance(row, dict) or not _has_type(row.get("seed"), (int,))
                or row["seed"] < 0 or row.get("outcome") not in OUTCOMES):
            raise UsurperError(f"{path}: line {number} is not a catalogue row (seed and outcome)")
        wrong = [name for name, kinds in _ROW_TYPES.items() if not _has_type(row.get(name), kinds)]
        if wrong:
            raise UsurperError(f"{path}: line {number} has a bad {', '.join(wrong)}")
        seed = row["seed"]
        if seed in rows:  # this usurper never writes a seed twice: the file was edited or joined
            raise UsurperError(f"{path}: line {number} repeats seed {seed} of line {lines_of[seed]}; "
                               "keep one of the two rows")
        rows[seed], lines_of[seed] = row, number
        order.append(seed)
    return Catalogue(path, header, rows), kept, order


#: What the fields of a header and of a row may hold (None where the field may be absent
#: or null), so that a hand-edited file is refused here rather than failing later.
_HEADER_TYPES = {"game": (str,), "variants": (list,), "mode": (str,), "engine": (str,),
                 "time_limit": (float, None), "max_states": (int, None), "max_memory_mb": (int, None),
                 "verdict_limit": (float, None)}
_ROW_TYPES = {"score": (int, None), "best": (int, None), "bound": (int, None), "states": (int, None),
              "seconds": (float, None), "first_move": (str, None), "engine": (str, None), "error": (str, None)}


def _has_type(value: Any, kinds: tuple) -> bool:
    """`value` is one of `kinds`: int excludes bool; float means any finite number >= 0."""
    if value is None:
        return None in kinds
    if isinstance(value, bool):
        return False
    if float in kinds and isinstance(value, (int, float)):
        return math.isfinite(value) and value >= 0
    return any(kind is not None and isinstance(value, kind) for kind in kinds)


def _loads(line: bytes) -> Any:
    """JSON as the standard has it: NaN and Infinity, which Python would read, are refused."""
    return json.loads(line, parse_constant=_refuse_constant)


def _refuse_constant(word: str) -> Any:
    raise ValueError(f"{word} is not JSON")


def _check_header(catalogue: Catalogue, job: Job) -> None:
    """A resumed run must ask exactly the question the file answers."""
    wanted = job.header()
    differ = [name for name in QUESTION_FIELDS if catalogue.header.get(name) != wanted[name]]
    if differ:
        has = ", ".join(f"{name}={_show(catalogue.header.get(name))}" for name in differ)
        asks = ", ".join(f"{name}={_show(wanted[name])}" for name in differ)
        raise UsurperError(f"{catalogue.path} holds {has}, but this run asks {asks}: "
                           "re-run with the file's options, or write to another --out")


def _show(value: Any) -> str:
    if isinstance(value, list):
        return ",".join(value) or "standard"
    return "none" if value is None else f"{value:g}" if isinstance(value, float) else str(value)


def _write_line(fd: int, line: bytes) -> None:
    """One whole line on an O_APPEND descriptor, then fsync: on disk before anyone is told."""
    view = memoryview(line)
    while view:
        written = os.write(fd, view)
        view = view[written:]
    os.fsync(fd)


def _read_all(fd: int) -> bytes:
    os.lseek(fd, 0, os.SEEK_SET)
    chunks = []
    while chunk := os.read(fd, 1 << 20):
        chunks.append(chunk)
    return b"".join(chunks)


def _write_atomically(path: Path, write: Callable[[Any], Any]) -> Path:
    """Write a file through a temporary file beside it and os.replace: readers see the old
    file or the whole new one, never a part.  A path that cannot be written raises
    UsurperError in one line, leaving nothing behind."""
    temporary = None
    try:
        _make_parent(path)
        with tempfile.NamedTemporaryFile(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp",
                                         delete=False) as handle:
            temporary = handle.name
            write(handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException as exc:
        if temporary is not None:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
        if isinstance(exc, OSError):
            raise UsurperError(f"cannot write {path}: {_reason(exc)}") from None
        raise
    _fsync_dir(path.parent)
    return path


def _make_parent(path: Path) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except FileExistsError:  # the parent is a file: mkdir's "File exists" would not say why
        raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(path.parent)) from None


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc) or type(exc).__name__


def _fsync_dir(directory: Path) -> None:
    with contextlib.suppress(OSError):  # not every platform can fsync a directory
        fd = os.open(directory or ".", os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _lock(fd: int, path: Path) -> None:
    """One run per file: a second one (which could write a seed twice) is refused."""
    try:
        import fcntl
    except ImportError:  # no advisory locks here (Windows): one run at a time is on the user
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        raise UsurperError(f"{path} is being written by another usurper catalogue run") from None
    try:
        same = os.fstat(fd).st_ino == os.stat(path).st_ino
    except OSError:
        same = False
    if not same:  # the file was replaced (a run that just finished sorted it): refuse, re-run
        raise UsurperError(f"{path} changed while it was being opened; run the command again")
