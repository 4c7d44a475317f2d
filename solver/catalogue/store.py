"""The catalogue file: JSON Lines, a header naming the question, then one row per seed.

Safe against being killed at any moment: only the parent process writes, each row with one
`os.write` of a whole line on an O_APPEND descriptor followed by fsync, so a kill -9 can
cut at most the last line short, and reopening the file drops such a line before
appending.  A file asking another question is refused, naming the difference.

A file named `*.gz` is the same JSON Lines, gzip-compressed (a 100,000-seed file is then a
few megabytes).  gzip cannot be appended to row by row, so a run writes its rows to the
plain working file `NAME.gz.part` beside it and compresses that into NAME.gz, atomically,
when every seed asked for is there; an interrupted run leaves the .part, which the next
run resumes.  Readers read a .gz transparently.

Only regular files are read or written: a device or a pipe named as a catalogue is refused
before any work (reading /dev/zero never ends, /dev/null cannot be truncated, a FIFO blocks
until someone writes), and a first line longer than HEADER_LIMIT is not a header.

Every file usurper writes (a catalogue, a plot) goes through `output_file`: a symbolic link is
written through to its target, something other than a regular file there is refused and never
replaced, and a missing folder is an error, not made.
"""

from __future__ import annotations

import contextlib
import errno
import glob
import gzip
import io
import json
import math
import os
import stat
import tempfile
import zlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from games.base import LOST, WON, UsurperError
from solver.catalogue.job import FORMAT, FORMAT_VERSION, OUTCOMES, QUESTION_DEFAULTS, QUESTION_FIELDS, Catalogue, Job


def read(path: str | os.PathLike) -> Catalogue:
    """Read a catalogue file.  A last line cut short (a run killed mid-write) is ignored;
    anything else that is not a catalogue raises UsurperError naming the file and line."""
    path = Path(path)
    try:
        data = _read_file(path)
    except FileNotFoundError as exc:
        raise UsurperError(f"cannot read catalogue {path}: {_reason(exc)}{_unfinished_note(path)}") from None
    except OSError as exc:
        raise UsurperError(f"cannot read catalogue {path}: {_reason(exc)}") from None
    catalogue, _, _ = _parse(path, _unpacked(path, data))
    catalogue.sources = (path,)
    return catalogue


def _unfinished_note(path: Path) -> str:
    """Where a missing .gz's rows are when a run of it was interrupted: in its .part."""
    part = _working_file(path)
    if part == path or not part.exists():
        return ""
    return (f"; the rows of its unfinished run are in {part} (re-run the same `usurper catalogue` command to "
            f"finish it, or read that file)")


def read_header(path: str | os.PathLike) -> dict:
    """The header of a catalogue file (its first line), without reading its rows."""
    path = Path(path)
    try:
        with open(_open_regular(path), "rb") as raw, \
                (gzip.GzipFile(fileobj=raw) if _is_packed(path) else contextlib.nullcontext(raw)) as stream:
            line = stream.readline(HEADER_LIMIT + 1)
    except (OSError, EOFError, zlib.error) as exc:
        raise UsurperError(f"cannot read catalogue {path}: {_reason(exc)}") from None
    _check_header_length(path, line)
    return _parse(path, line if line.endswith(b"\n") else line + b"\n")[0].header


#: The longest first line read as a header: a real one is a few hundred bytes, and a file
#: without a newline in its first megabyte is not a catalogue (and is not read further).
HEADER_LIMIT = 1 << 20


def _check_header_length(path: Path, head: bytes) -> None:
    """Refuse a file whose first HEADER_LIMIT + 1 bytes (`head`, or all there is) hold no newline."""
    if len(head) > HEADER_LIMIT and b"\n" not in head:
        raise UsurperError(f"{path} is not a usurper catalogue (line 1 is longer than {HEADER_LIMIT:,} bytes)")


def _open_regular(path: Path, flags: int = os.O_RDONLY) -> int:
    """A descriptor on `path`, which must be a regular file.  A device or a pipe is refused:
    it may never end (/dev/zero), refuse truncation (/dev/null), or block (a FIFO, which
    O_NONBLOCK keeps from blocking this open).  Checked on the open descriptor, so that
    nothing swapped in after a check gets through."""
    fd = os.open(path, flags | getattr(os, "O_NONBLOCK", 0), 0o644)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise _not_regular(path, mode)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _not_regular(path: Path, mode: int) -> UsurperError:
    return UsurperError(f"{path} is {_kind(mode)}, not a regular file: usurper reads and writes only regular files")


def _kind(mode: int) -> str:
    kinds = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISCHR, "a character device"),
             (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))
    return next((name for test, name in kinds if test(mode)), "a special file")


def _refuse_irregular(path: Path) -> None:
    """Refuse `path` if something other than a regular file is there (nothing there is fine)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return  # nothing there, or unreachable: making or opening it says why
    if not stat.S_ISREG(mode):
        raise _not_regular(path, mode)


def _read_file(path: Path) -> bytes:
    """The bytes of the regular file at `path`; OSError for the caller to word."""
    fd = _open_regular(path)
    try:
        return _read_from(path, fd)
    finally:
        os.close(fd)


def _read_from(path: Path, fd: int) -> bytes:
    """Everything in `fd` from its start, refusing a plain file's over-long first line as soon
    as it is seen, before the rest is read."""
    os.lseek(fd, 0, os.SEEK_SET)
    chunks: list[bytes] = []
    size = 0
    checked = False
    while chunk := os.read(fd, 1 << 20):
        chunks.append(chunk)
        size += len(chunk)
        if not checked and size > HEADER_LIMIT:
            head = b"".join(chunks)
            if not head.startswith(GZIP_MAGIC):  # compressed: _unpacked checks its first line
                _check_header_length(path, head[: HEADER_LIMIT + 1])
            chunks, checked = [head], True
    return b"".join(chunks)


def _is_packed(path: Path) -> bool:
    """A catalogue named *.gz is stored gzip-compressed."""
    return path.suffix == ".gz"


def _working_file(path: Path) -> Path:
    """Where a run appends its rows: the file itself, or the plain .part beside a .gz."""
    return path.with_name(path.name + ".part") if _is_packed(path) else path


def _unpacked(path: Path, data: bytes) -> bytes:
    """The JSON Lines in `data`: gzip-compressed files are recognised by their magic bytes."""
    if not data.startswith(GZIP_MAGIC):
        return data
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as stream:
            head = stream.read(HEADER_LIMIT + 1)  # a gzip bomb of one endless line stops here
            _check_header_length(path, head)
            return head + stream.read()
    except (OSError, EOFError, zlib.error):
        raise UsurperError(f"{path} is not a usurper catalogue (a damaged gzip file)") from None


GZIP_MAGIC = b"\x1f\x8b"


def read_all(paths: Sequence[str | os.PathLike]) -> Catalogue:
    """A game's whole catalogue: the first file, then each later one (a longer search of the
    seeds the earlier left undecided, or a wider range asked only for winnability) answering
    its seeds again.  Of two rows for a seed the one that knows more wins (a proven optimum
    beats a verdict alone, which beats no verdict: UNDECIDED, ERROR); between rows that know
    as much, the one with the better line, then the longer search's (the larger time limit),
    and then the later file's.  A bound on an optimum not proven holds whichever search
    proved it: an unproven seed's row carries the least of its rows' bounds, and where a
    decided seed's best line meets that bound, its optimum is proven (one search found the
    line, another refuted anything above it).  Every file must be of the same game and
    variants."""
    books = [read(path) for path in paths]
    if not books:
        raise UsurperError("no catalogue file given")
    first = books[0]
    rows: dict[int, dict] = {}
    ranks: dict[int, tuple] = {}
    bounds: dict[int, int] = {}
    for book in books:
        if (book.header["game"], book.header["variants"]) != (first.header["game"], first.header["variants"]):
            raise UsurperError(f"{book.path} is a catalogue of {book.title}, not of {first.title} like {first.path}")
        limit = book.header.get("time_limit")
        budget = math.inf if limit is None else limit
        for seed, row in book.rows.items():
            rank = (_knowledge(row), -1 if row.get("best") is None else row["best"], budget)
            if seed not in ranks or rank >= ranks[seed]:
                rows[seed], ranks[seed] = row, rank
            if row.get("bound") is not None:
                bounds[seed] = min(row["bound"], bounds.get(seed, row["bound"]))
    for seed, bound in bounds.items():
        rows[seed] = _bounded_row(rows[seed], bound)
    return Catalogue(first.path, first.header, rows, tuple(book.path for book in books))


def _bounded_row(row: dict, bound: int) -> dict:
    """`row` with the least bound any row of its seed proved: a proven optimum where its
    best line meets the bound, and as it was where its optimum is proven already."""
    if row.get("score") is not None:
        return row
    if row.get("best") == bound and row["outcome"] in DECIDED:
        return {name: value for name, value in row.items() if name != "bound"} | {"score": bound}
    return {**row, "bound": bound}


def _knowledge(row: dict) -> int:
    """How much a row settles: 2 a proven optimum, 1 a verdict, 0 neither."""
    if row.get("score") is not None:
        return 2
    return 1 if row["outcome"] in DECIDED else 0


DECIDED = (WON, LOST)


def check_matches(catalogue: Catalogue, job: Job) -> None:
    """Refuse a catalogue of another game or variant than `job`'s."""
    header = catalogue.header
    if header["game"] != job.game or tuple(header["variants"]) != job.variants:
        raise UsurperError(f"{catalogue.path} is a catalogue of {catalogue.title}, not of {job.title}")


class _Writer:
    """The catalogue file opened for appending, locked against a second run on it."""

    def __init__(self, path: Path, fd: int | None, catalogue: Catalogue, header_line: bytes, order: list[int],
                 packed: Path | None = None, unpacked: bytes = b""):
        self.path, self.fd, self.catalogue = path, fd, catalogue
        self.rows = catalogue.rows
        self.header_line = header_line
        self.order = order
        self.packed = packed
        self.unpacked = unpacked  # a finished .gz's lines, for its .part when a row is added

    @classmethod
    def open(cls, path: Path, job: Job) -> _Writer:
        """Create the file with its header, or reopen it to resume: check the header,
        drop a last line cut short, and read the rows already there.  For a .gz `path` the
        rows go to its plain working file, made from the .gz's rows when there is none."""
        packed = path if _is_packed(path) else None
        path = _working_file(path)
        if packed is not None and not path.exists() and packed.exists():
            return cls._over_finished(packed, path, job)
        try:
            _check_folder(path)
            fd = _open_regular(path, os.O_RDWR | os.O_CREAT | os.O_APPEND)
        except OSError as exc:
            raise UsurperError(f"cannot write {path}: {_reason(exc)}") from None
        try:
            _lock(fd, path)
            for name in {path.name, (packed or path).name}:  # a rewrite cut short by a kill
                for stale in path.parent.glob(f".{glob.escape(name)}.*.tmp"):
                    stale.unlink(missing_ok=True)
            data = _read_from(path, fd)
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
            return cls(path, fd, catalogue, data[: data.index(b"\n") + 1], order, packed)
        except BaseException as exc:
            os.close(fd)
            if isinstance(exc, OSError):  # a full disk or a failing one, as the header is written
                raise UsurperError(f"cannot write {path}: {_reason(exc)}") from None
            raise

    @classmethod
    def _over_finished(cls, packed: Path, path: Path, job: Job) -> _Writer:
        """A finished .gz, its rows read without writing anything: the .part is made only
        when a row is added, so a run with nothing left to do leaves the files alone."""
        try:
            data = _unpacked(packed, _read_file(packed))
        except OSError as exc:
            raise UsurperError(f"cannot read catalogue {packed}: {_reason(exc)}") from None
        catalogue, kept, order = _parse(packed, data)
        _check_header(catalogue, job)
        return cls(path, None, catalogue, data[: data.index(b"\n") + 1], order, packed, data[:kept])

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)

    def append(self, row: dict) -> bool:
        """Write one row durably; a seed already present is never written twice."""
        seed = row["seed"]
        if seed in self.rows:
            return False
        if self.fd is None:
            self.fd = _start_working_file(self.path, self.unpacked)
        size = None
        try:
            size = os.fstat(self.fd).st_size
            _write_line(self.fd, (json.dumps(row) + "\n").encode())
        except OSError as exc:  # a full disk (ENOSPC), a quota, an I/O error
            self._take_back(size)
            safe = len(self.rows)
            raise UsurperError(f"cannot write {self.path}: {_reason(exc)}; the {safe:,} row{'' if safe == 1 else 's'} "
                               "already in it are safe, re-run the same command to resume") from None
        self.rows[seed] = row
        self.order.append(seed)
        return True

    def _take_back(self, size: int | None) -> None:
        """Cut off what a failed write left (a part of a line, or a whole line not known to be
        on disk), so that the file holds exactly the rows reported safe.  Best effort: a line
        cut short is dropped by the next run anyway, and a whole one is kept once."""
        if size is not None:
            with contextlib.suppress(OSError):
                os.ftruncate(self.fd, size)
                os.fsync(self.fd)

    def finish(self) -> None:
        """Every seed asked for is there: leave the rows in seed order (diff-friendly) by an
        atomic rewrite if needed, or, for a .gz, compress them into it and drop the .part."""
        if self.packed is not None:
            if self.fd is None:  # nothing added to a finished .gz
                return
            body = self._sorted_body()
            write_atomically(self.packed, lambda handle: handle.write(gzip.compress(body, 9, mtime=0)))
            self.path.unlink(missing_ok=True)
            return
        if self.order == sorted(self.order) and len(self.order) == len(set(self.order)):
            return
        body = self._sorted_body()
        write_atomically(self.path, lambda handle: handle.write(body))
        self.order = sorted(self.rows)

    def _sorted_body(self) -> bytes:
        return self.header_line + b"".join((json.dumps(self.rows[seed]) + "\n").encode() for seed in sorted(self.rows))


def _start_working_file(path: Path, data: bytes) -> int:
    """The .part of a finished .gz, holding its rows, made whole before it appears (a kill
    leaves no half of it) and only if no other run made one first; opened for appending."""
    try:
        fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise UsurperError(f"cannot write {path}: {_reason(exc)}") from None
    try:
        _write_line(fd, data)
        os.chmod(temporary, 0o644)
        os.link(temporary, path)
    except FileExistsError:
        raise UsurperError(f"{path} is being written by another usurper catalogue run") from None
    except OSError as exc:
        raise UsurperError(f"cannot write {path}: {_reason(exc)}") from None
    finally:
        os.close(fd)
        os.unlink(temporary)
    try:
        fd = _open_regular(path, os.O_RDWR | os.O_APPEND)
    except OSError as exc:
        raise UsurperError(f"cannot write {path}: {_reason(exc)}") from None
    try:
        _lock(fd, path)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _check_existing(path: Path, job: Job) -> Catalogue | None:
    """Refuse, before any work, an output that is not a regular file (nor is its .part) or
    that is a catalogue asking another question.  The catalogue there when it needs no
    writing as it stands (a plain file in seed order, or a finished .gz), else None."""
    for candidate in {path, _working_file(path)}:
        _refuse_irregular(candidate)
    unfinished = _is_packed(path) and _working_file(path).exists()
    if unfinished:
        path = _working_file(path)
    try:
        data = _unpacked(path, _read_file(path))
    except (FileNotFoundError, NotADirectoryError):
        return None  # nothing there yet
    except OSError as exc:
        raise UsurperError(f"cannot read catalogue {path}: {_reason(exc)}") from None
    if _is_new(data):
        return None
    catalogue, _, order = _parse(path, data)
    _check_header(catalogue, job)
    return None if unfinished or order != sorted(order) else catalogue


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
    missing = [name for name in QUESTION_FIELDS if name not in header and name not in QUESTION_DEFAULTS]
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
                 "verdict_limit": (float, None), "replace_when_full": (bool, None), "at_least": (int, None)}
_ROW_TYPES = {"score": (int, None), "best": (int, None), "bound": (int, None), "states": (int, None),
              "seconds": (float, None), "first_move": (str, None), "engine": (str, None), "error": (str, None),
              "stopped": (str, None)}


def _has_type(value: Any, kinds: tuple) -> bool:
    """`value` is one of `kinds`: int excludes bool; float means any finite number >= 0.
    JSON gives exact types (no subclasses but bool), so a type lookup decides."""
    if value is None:
        return None in kinds
    kind = type(value)
    if float in kinds:
        return (kind is int or kind is float) and math.isfinite(value) and value >= 0
    return kind in kinds


def _loads(line: bytes) -> Any:
    """JSON as the standard has it: NaN and Infinity, which Python would read, are refused."""
    return _DECODER.decode(line.decode("utf-8"))


def _refuse_constant(word: str) -> Any:
    raise ValueError(f"{word} is not JSON")


_DECODER = json.JSONDecoder(parse_constant=_refuse_constant)


def _check_header(catalogue: Catalogue, job: Job) -> None:
    """A resumed run must ask exactly the question the file answers."""
    def field(header: dict, name: str) -> Any:
        return header.get(name, QUESTION_DEFAULTS.get(name))

    wanted = job.header()
    differ = [name for name in QUESTION_FIELDS if field(catalogue.header, name) != field(wanted, name)]
    if differ:
        has = ", ".join(f"{name}={_show(field(catalogue.header, name))}" for name in differ)
        asks = ", ".join(f"{name}={_show(field(wanted, name))}" for name in differ)
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


def output_file(path: Path) -> Path:
    """The file that writing `path` replaces, after the checks every output passes: a
    symbolic link is followed to its target (so the link stays a link, and its target gets
    the rows), something other than a regular file there (a FIFO, a device, a folder) is
    refused rather than replaced, and the folder must exist: a mistyped path is an error, not
    a new tree of folders.  Raises UsurperError in one line naming `path`."""
    _refuse_irregular(path)  # through every link: /dev/stdout is a link to a pipe
    target = Path(os.path.realpath(path)) if os.path.islink(path) else path
    try:
        _check_folder(target)
    except OSError as exc:
        raise UsurperError(f"cannot write {path}: {_reason(exc)}") from None
    return target


def _check_folder(path: Path) -> None:
    """The folder `path` goes into exists (and is a folder): none is made."""
    folder = path.parent
    if folder.is_dir():
        return
    if folder.exists() or any(parent.exists() and not parent.is_dir() for parent in folder.parents):
        raise NotADirectoryError(errno.ENOTDIR, f"{_nearest(folder)} is not a folder")
    raise FileNotFoundError(errno.ENOENT, f"no folder {folder} (usurper makes no folders: create it first)")


def _nearest(folder: Path) -> Path:
    """The first of `folder` and its parents that is there (a file in the way)."""
    return next(path for path in (folder, *folder.parents) if path.exists())


def write_atomically(path: Path, write: Callable[[Any], Any]) -> Path:
    """Write a file through a temporary file beside it and os.replace: readers see the old
    file or the whole new one, never a part.  `output_file` checks it first, so a link is
    written through and a FIFO or a device is never replaced.  A path that cannot be written
    raises UsurperError in one line, leaving nothing behind."""
    target = output_file(path)
    temporary = None
    try:
        with tempfile.NamedTemporaryFile(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp",
                                         delete=False) as handle:
            temporary = handle.name
            write(handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, 0o644)
        os.replace(temporary, target)
    except BaseException as exc:
        if temporary is not None:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
        if isinstance(exc, OSError):
            raise UsurperError(f"cannot write {path}: {_reason(exc)}") from None
        raise
    _fsync_dir(target.parent)
    return path


def check_writable(path: Path) -> None:
    """Raise UsurperError in one line now where `path` could not be written at the end of a
    long run (`output_file`'s checks, then a temporary file tried beside it); nothing is left
    behind and an existing file at `path` is not touched."""
    target = output_file(path)
    try:
        tempfile.NamedTemporaryFile(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp").close()  # deletes it
    except OSError as exc:
        raise UsurperError(f"cannot write {path}: {_reason(exc)}") from None


def _reason(exc: BaseException) -> str:
    return getattr(exc, "strerror", None) or str(exc) or type(exc).__name__


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
