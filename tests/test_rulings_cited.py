"""Every ruling the code cites is defined in the repository's own rules, docs/rules/<game>.md,
and nothing in the repository points at the rules or source texts outside it.

Citations are read from every .py, .c and .h file under games/, solver/, tests/ and cli.py.
Their forms are the ones the code uses: a ruling `R9`, `[R24]`, `R3/R4`, `[R8, R9, R10]`,
a range `R13–R15` or `[R13-R15]`; the variant rulings `E1`–`E6` and `P1`–`P3` (Adaman) and
the variants `V1`–`V7` (Royal Assassin); a section `§9.1`, `§10`, or a range `§1.2–1.3`.

The game a citation belongs to is, in order: the game named on the same line before it
(`Adaman R9`, `make_game("royal-assassin", ...)  # ... V7`); the game in the file's path
(`adaman`, `royal_assassin`, `kings_reign`, `devils_throne`, so `games/adaman.py` and
`games/adaman/rules.py` both count); for a file of no game, the game named on the same line
after it or on the two lines above; and failing all of these, any game: the citation must
then be defined in at least one docs/rules file.

A docs file defines a ruling `Rn` by item n of its numbered list under the heading
"N. Rulings", any id (`E1`, `P2`, `V3`, `R5`) by a bold label (`**E1.`, `**V1 ...**`), a
heading or a table row's first cell starting with it, and a section by a heading starting
with its number (`## 9.`, `### 9.1`).
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "docs" / "rules"
THIS_FILE = Path(__file__).resolve()

SCANNED_DIRS = ("games", "solver", "tests")
SCANNED_FILES = ("cli.py",)
SCANNED_SUFFIXES = (".py", ".c", ".h")
SKIPPED_DIRS = {".venv", "build", "__pycache__"}

#: The docs file of each game, and how the game is recognised in a path and in text.
GAMES = {
    "adaman": (("adaman",), r"adaman"),
    "royal-assassin": (("royal_assassin", "royal-assassin"), r"royal[ _-]?assassin"),
    "kings-reign": (("kings_reign", "kings-reign"), r"king'?s[ _-]?reign"),
    "devils-throne": (("devils_throne", "devils-throne"), r"devil'?s[ _-]?throne"),
}
GAME_NAME = re.compile("|".join(f"(?P<{key.replace('-', '_')}>{pattern})" for key, (_, pattern) in GAMES.items()), re.I)

ID = r"[REPV]\d+"
ID_RANGE = re.compile(r"\b([REPV])(\d+)\s*[–-]\s*\1?(\d+)\b")
NOQA = re.compile(r"noqa:[\sA-Z0-9,]*")
ID_SINGLE = re.compile(r"\b([REPV]\d+)\b")
SECTION = r"\d+(?:\.\d+)*"
SECTION_CITE = re.compile(rf"§\s*({SECTION})(?:\s*[–-]\s*({SECTION}))?")

HEADING = re.compile(r"^(#{1,6})\s+(.*)$")
HEADING_SECTION = re.compile(rf"^({SECTION})\.?(?:\s|$)")
HEADING_ID = re.compile(rf"^({ID})\b")
RULINGS_HEADING = re.compile(r"^\d+\.\s+Rulings\b")
NUMBERED_ITEM = re.compile(r"^(\d+)\.\s")
BOLD_ID = re.compile(rf"\*\*({ID})\b")
TABLE_ID = re.compile(rf"^\|\s*\**\s*({ID})\b")

#: Strings that point at the rules and source texts outside the repository (built so that
#: this file does not contain them itself).
OUTSIDE = ("..", "shared"), ("shared", "rules"), ("shared", "seeds")
OUTSIDE_STRINGS = tuple("/".join(parts) for parts in OUTSIDE)
TEXT_SUFFIXES = (".py", ".md", ".c", ".h", ".toml", ".txt", ".cfg", ".json")


# ----- the docs -------------------------------------------------------------------------
def defined_in(path: Path) -> set[str]:
    """The ids (`R5`, `E1`, `V3`) and sections (`§9.1`) a docs/rules file defines."""
    defined: set[str] = set()
    rulings_level = None  # heading level of the "N. Rulings" section while inside it
    for line in path.read_text(encoding="utf-8").splitlines():
        heading = HEADING.match(line)
        if heading:
            level, text = len(heading.group(1)), heading.group(2).strip()
            if rulings_level is not None and level <= rulings_level:
                rulings_level = None
            if RULINGS_HEADING.match(text):
                rulings_level = level
            section = HEADING_SECTION.match(text)
            if section:
                defined.add("§" + section.group(1))
            label = HEADING_ID.match(text)
            if label:
                defined.add(label.group(1))
            continue
        if rulings_level is not None:
            item = NUMBERED_ITEM.match(line)
            if item:
                defined.add(f"R{int(item.group(1))}")
        defined.update(BOLD_ID.findall(line))
        row = TABLE_ID.match(line)
        if row:
            defined.add(row.group(1))
    return defined


def docs_definitions() -> dict[str, set[str]]:
    return {path.stem: defined_in(path) for path in sorted(RULES.glob("*.md"))}


# ----- the code -------------------------------------------------------------------------
def scanned_files() -> list[Path]:
    files = [ROOT / name for name in SCANNED_FILES if (ROOT / name).is_file()]
    for top in SCANNED_DIRS:
        for folder, dirs, names in os.walk(ROOT / top):
            dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS)
            for name in sorted(names):
                path = Path(folder) / name
                if path.suffix in SCANNED_SUFFIXES and path.resolve() != THIS_FILE:
                    files.append(path)
    return files


def path_game(relative: str) -> str | None:
    lowered = relative.lower()
    for game, (keys, _) in GAMES.items():
        if any(key in lowered for key in keys):
            return game
    return None


def game_named(text: str, last: bool) -> str | None:
    """The game named in `text`: the last mention if `last`, else the first."""
    found = [match.lastgroup.replace("_", "-") for match in GAME_NAME.finditer(text)]
    if not found:
        return None
    return found[-1] if last else found[0]


def citations(line: str) -> list[tuple[int, str]]:
    """(column, id) of every citation on the line; ranges are expanded.  A linter's code
    (`noqa: E402`) is not a ruling."""
    line = NOQA.sub(lambda match: " " * len(match.group()), line)
    cited = []
    for match in ID_RANGE.finditer(line):
        letter, low, high = match.group(1), int(match.group(2)), int(match.group(3))
        cited += [(match.start(), f"{letter}{n}") for n in range(low, high + 1)]
    cited += [(match.start(), match.group(1)) for match in ID_SINGLE.finditer(line)]
    for match in SECTION_CITE.finditer(line):
        cited += [(match.start(), "§" + end) for end in match.groups() if end]
    return sorted(set(cited))


def series(cited: str) -> str:
    """The letter of a ruling's series (R, E, P, V), or "§" for a section."""
    return cited[0]


def cited_rulings() -> list[tuple[str, int, str, str | None]]:
    """(file, line number, citation, game or None for any game) for every citation."""
    found = []
    for path in scanned_files():
        relative = path.relative_to(ROOT).as_posix()
        own_game = path_game(relative)
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        for number, line in enumerate(lines, 1):
            for column, cited in citations(line):
                game = game_named(line[:column], last=True)
                if game is None and own_game is None:
                    game = game_named(line[column:], last=False)
                    for above in reversed(lines[max(0, number - 3) : number - 1]):
                        game = game or game_named(above, last=True)
                found.append((relative, number, cited, game or own_game))
    return found


# ----- the tests ------------------------------------------------------------------------
def test_the_rules_files_define_their_rulings_and_sections():
    """The matcher reads the docs as written: it is not vacuous."""
    docs = docs_definitions()
    assert {"adaman", "royal-assassin"} <= set(docs)
    adaman, royal = docs["adaman"], docs["royal-assassin"]
    assert {f"R{n}" for n in range(1, 19)} <= adaman and "R19" not in adaman
    assert {f"E{n}" for n in range(1, 7)} | {f"P{n}" for n in range(1, 4)} <= adaman
    assert {f"R{n}" for n in range(1, 31)} <= royal and "R31" not in royal
    assert {f"V{n}" for n in range(1, 8)} <= royal
    assert {"§1", "§1.2", "§5.1", "§9.1", "§10"} <= adaman
    assert {"§4.3", "§9", "§11"} <= royal and "§9.1" not in royal


def test_the_scan_finds_the_citations_in_the_code():
    found = cited_rulings()
    assert len(found) > 100
    assert {game for _, _, _, game in found} >= {"adaman", "royal-assassin"}


def test_every_cited_ruling_is_defined_in_the_repository_rules():
    docs = docs_definitions()
    problems = []
    for relative, number, cited, game in cited_rulings():
        if game is None:
            if not any(cited in defined for defined in docs.values()):
                problems.append(f"{relative}:{number}: {cited} is defined in no docs/rules file")
        elif game not in docs:
            problems.append(f"{relative}:{number}: {cited} cites {game}, but docs/rules/{game}.md does not exist")
        elif not any(series(defined) == series(cited) for defined in docs[game]):
            continue  # a game without that series (King's Reign has no E-rulings): a name, not a citation
        elif cited not in docs[game]:
            problems.append(f"{relative}:{number}: {cited} is not defined in docs/rules/{game}.md")
    assert not problems, "cited rulings missing from the rules:\n" + "\n".join(problems)


def text_files() -> list[str]:
    try:
        listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout.decode(
            "utf-8"
        )
    except (OSError, subprocess.CalledProcessError) as error:
        pytest.skip(f"git ls-files is not available: {error}")
    names = {name for name in listed.split("\0") if name}
    names |= {path.relative_to(ROOT).as_posix() for path in RULES.glob("*.md")}
    return sorted(
        name
        for name in names
        if name.endswith(TEXT_SUFFIXES) and not (name.startswith("data/") and name.endswith(".jsonl"))
    )


def test_nothing_in_the_repository_points_outside_it():
    problems = []
    for name in text_files():
        path = ROOT / name
        if not path.is_file():  # listed in the index but moved or deleted in the work tree
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            for outside in OUTSIDE_STRINGS:
                if outside in line:
                    problems.append(f"{name}:{number}: {outside!r}: {line.strip()}")
    assert not problems, "references outside the repository:\n" + "\n".join(problems)
