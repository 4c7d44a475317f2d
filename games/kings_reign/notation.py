"""King's Reign notation (spec §9): moves, deals, a one-line description and a board rendering.

Moves: `train none`, `train Q`, `train J`; `pass`; `Q x,y D` / `J x,y D` (the person on (x,y)
steps N, E, S or W); `farm x,y`, `fort x,y`, `demolish x,y`; `dispose x,y ... T1 ...` (people
by cell, trainees by 0-based start index).  Input is case-insensitive and may put spaces
after the comma of a cell.  Deal text: the number cards, top first, rank then suit (`AC 7D 10S`).
The description and the board show every card with its suit symbol (`7♦`, farm `F5♦`, fort
`T9♠`; letters on an ASCII stream), and the visible position reads either.
"""

from __future__ import annotations

import re

from games.base import MoveError
from games.decks import shown
from games.kings_reign.rules import (
    ACT,
    BUILD_FARM,
    BUILD_FORT,
    DEMOLISH,
    DIR_NAMES,
    DISCOVERED,
    DISPOSE,
    DISPOSE_MOVE,
    DOWN,
    EXHAUSTED,
    FARM,
    FORT,
    JACK,
    KING,
    KING_TAKEN,
    LAND,
    NO_CARD,
    OVER,
    PASS,
    QUEEN,
    RUBBLE,
    STARVED,
    STEP,
    TRAIN,
    TRAIN_JACK,
    TRAIN_NONE,
    TRAIN_QUEEN,
    K,
    KingsReignState,
    board,
    coordinates,
    farm_count,
    fort_count,
    legal_moves,
    population,
    position,
    rank,
    score,
)

PERSON_LETTER = {QUEEN: "Q", JACK: "J"}
SUIT_OF = ("C", "D", "S")
PHASE_NAMES = {TRAIN: "phase 1 (train)", ACT: "phase 2 (action)", DISPOSE: "over-population disposal",
               OVER: "game over"}
_CELL = r"(-?\d+)\s*,\s*(-?\d+)"
ENDING_NAMES = {DISCOVERED: "kingdom discovered", EXHAUSTED: "deck exhausted", KING_TAKEN: "king taken",
                STARVED: "starved"}


def card_name(card: int) -> str:
    """`AC`, `10D`: the number card of canonical index `card`."""
    value = rank(card)
    return ("A" if value == 1 else str(value)) + SUIT_OF[card // 10]


def cell_text(pos: int) -> str:
    x, y = coordinates(pos)
    return f"{x},{y}"


# ----- moves ---------------------------------------------------------------------------------

def format_move(state: KingsReignState, move: tuple) -> str:
    what = move[0]
    if what == "train":
        return {TRAIN_NONE: "train none", TRAIN_QUEEN: "train Q", TRAIN_JACK: "train J"}[move]
    if move == PASS:
        return "pass"
    if what == STEP:
        kind = _person_at(state, move[1])
        return f"{PERSON_LETTER.get(kind, '?')} {cell_text(move[1])} {DIR_NAMES[move[2]]}"
    if what in (BUILD_FARM, BUILD_FORT, DEMOLISH):
        return f"{what} {cell_text(move[1])}"
    if what == DISPOSE_MOVE:
        words = [cell_text(p) for p in move[1]] + [f"T{i}" for i in move[2]]
        return "dispose " + " ".join(words)
    raise ValueError(f"not a King's Reign move: {move!r}")


def parse_move(state: KingsReignState, text: str) -> tuple:
    """Read one move of the module notation; only a move legal in `state` is accepted."""
    legal = legal_moves(state)
    if not legal:
        raise MoveError("the game is over; no move can be played")
    move = _read(state, " ".join(text.strip().lower().split()))
    if move in legal:
        return move
    raise MoveError(_why_illegal(state, move, text.strip(), legal))


def _read(state: KingsReignState, text: str) -> tuple:
    if text in ("train none", "train q", "train j"):
        return {"train none": TRAIN_NONE, "train q": TRAIN_QUEEN, "train j": TRAIN_JACK}[text]
    if text == "pass":
        return PASS
    match = re.fullmatch(r"([qj])\s+" + _CELL + r"\s+([nesw])", text)
    if match:
        pos = position(int(match.group(2)), int(match.group(3)))
        if _person_at(state, pos) != {"q": QUEEN, "j": JACK}[match.group(1)]:
            raise MoveError(f"no {'queen' if match.group(1) == 'q' else 'jack'} on {cell_text(pos)}")
        return (STEP, pos, DIR_NAMES.index(match.group(4).upper()))
    match = re.fullmatch(r"(farm|fort|demolish)\s+" + _CELL, text)
    if match:
        return (match.group(1), position(int(match.group(2)), int(match.group(3))))
    if text.startswith("dispose"):
        return _read_disposal(text[len("dispose"):])
    raise MoveError(f"unreadable move {text!r} (expected e.g. 'train J', 'pass', 'Q 0,1 N', 'farm 1,2', "
                    "'dispose 0,0 T1')")


def _read_disposal(text: str) -> tuple:
    people, trainees = [], []
    for word in re.sub(r"\s*,\s*", ",", text).split():
        cell = re.fullmatch(r"(-?\d+),(-?\d+)", word)
        trainee = re.fullmatch(r"t(\d+)", word)
        if cell:
            people.append(position(int(cell.group(1)), int(cell.group(2))))
        elif trainee:
            trainees.append(int(trainee.group(1)))
        else:
            raise MoveError(f"dispose: {word!r} is neither a cell x,y nor a trainee T<index>")
    if not people and not trainees:
        raise MoveError("dispose: name the people (x,y) and trainees (T<index>) to dispose of")
    return (DISPOSE_MOVE, tuple(sorted(people)), tuple(sorted(trainees)))


def _why_illegal(state: KingsReignState, move: tuple, text: str, legal: list) -> str:
    phase = PHASE_NAMES[state.phase]
    if state.phase == DISPOSE:
        excess = population(state) - 2 * farm_count(state.cells)
        return (f"{text!r} is not legal now: dispose of exactly {excess} member(s) present "
                "(people by cell, trainees T<i>)")
    if move[0] == "train" and state.phase != TRAIN or move[0] != "train" and state.phase == TRAIN:
        return f"{text!r} is not legal in {phase}"
    if move[0] == "train":
        return f"{text!r} is not legal: the people deck has none, or population is at capacity [R30]"
    if move[0] == STEP:
        return (f"{text!r} is not legal: the target is empty, holds a person, or an enemy (queens), "
                "or the queen is building")
    if move[0] in (BUILD_FARM, BUILD_FORT, DEMOLISH):
        return f"{text!r} is not legal: no free queen there, or the cell or the limit does not allow it"
    return f"{text!r} is not legal in {phase}"


def _person_at(state: KingsReignState, pos: int) -> int | None:
    for p in state.people:
        if p >> 4 == pos:
            return p >> 2 & 3
    return None


# ----- describe and render -------------------------------------------------------------------

def describe(state: KingsReignState) -> str:
    """One line: phase (with a disposal's resume index or the ending), counts, trainees,
    people, enemies and every cell (what lies face down, the deck's top card included, is not
    shown: the line is read by players too, and games.kings_reign.visible reads it back)."""
    parts = [phase_text(state.phase, state.resume, state.ending), f"deck {len(state.deck)}"]
    parts.append(f"people deck Q{state.queens} J{state.jacks}; pool {state.pool}; farm deck {state.farm_deck}; "
                 f"fort deck {state.fort_deck}")
    parts.append("trainees " + (" ".join(_trainee_text(t) for t in state.trainees) or "-"))
    parts.append("people " + (" ".join(_person_text(p) for p in state.people) or "-"))
    parts.append("enemies " + (" ".join(cell_text(e) for e in state.enemies) or "-"))
    grid = board(state.cells)
    parts.append("cells " + " ".join(f"{cell_text(pos)}={_kind_text(kind, card, reveal=False)}"
                                     for pos, (kind, card) in sorted(grid.items())))
    parts.append(f"score now {score(state)}")
    return "; ".join(parts)


def phase_text(phase: int, resume: int, ending: int) -> str:
    """The phase; a disposal adds the enemy index phase 3 resumes at, a finished game its ending
    (so that describe holds everything of a state but the face-down cards)."""
    if phase == DISPOSE:
        return f"{PHASE_NAMES[phase]} (resume at enemy {resume})"
    if phase == OVER:
        return f"{PHASE_NAMES[phase]} ({ENDING_NAMES[ending]})"
    return PHASE_NAMES[phase]


def render(state: KingsReignState, reveal: bool = False) -> str:
    """The board as rows of cells (y grows upward, so north is on top), with a header of counts.

    A cell reads kind and card, then its occupant and enemies: `7♦` land, `##` face down
    (`#7♦` with `reveal`), `K` king, `F5♦` farm over its card, `T9♠` fort, `RR` rubble;
    `Q`/`J` a person, `Qb2` a queen building (timer 2), `E`/`E2` enemies."""
    grid = board(state.cells)
    xs = [coordinates(p)[0] for p in grid]
    ys = [coordinates(p)[1] for p in grid]
    people = {p >> 4: p for p in state.people}
    width = 10
    lines = [_header(state, reveal)]
    lines.append("      " + "".join(f"{x:^{width}}" for x in range(min(xs), max(xs) + 1)))
    for y in range(max(ys), min(ys) - 1, -1):
        row = [f"{y:>4}  "]
        for x in range(min(xs), max(xs) + 1):
            pos = position(x, y)
            if pos not in grid:
                row.append(f"{'.':^{width}}")
                continue
            text = _kind_text(*grid[pos], reveal=reveal)
            if pos in people:
                text += " " + _person_text(people[pos], with_cell=False)
            enemies = state.enemies.count(pos)
            if enemies:
                text += " E" + (str(enemies) if enemies > 1 else "")
            row.append(f"{text:^{width}}")
        lines.append("".join(row).rstrip())
    lines.append(BOARD_LEGEND)
    return "\n".join(lines)


def _header(state: KingsReignState, reveal: bool) -> str:
    top = f", top {shown(card_name(state.deck[0]))}" if state.deck and reveal else ""  # the deck is face down
    trainees = " ".join(_trainee_text(t) for t in state.trainees) or "-"
    return (f"{PHASE_NAMES[state.phase]}; deck {len(state.deck)}{top}; people deck Q{state.queens} J{state.jacks}; "
            f"enemy pool {state.pool}; farm deck {state.farm_deck}; fort deck {state.fort_deck}; "
            f"farms {farm_count(state.cells)} (capacity {2 * farm_count(state.cells)}); forts+markers "
            f"{fort_count(state)}; trainees {trainees}; score now {score(state)}")


#: The board's last line: what its cells read.
BOARD_LEGEND = ("Legend: K king, ## face down, 7♦ land, F5♦ farm (F: the starting farm), T9♠ fort, RR rubble; "
                "Q/J person (Qb2: building, timer 2), E enemy")


def _kind_text(kind: int, card: int, reveal: bool) -> str:
    name = shown(card_name(card)) if card != NO_CARD else ""
    if kind == KING:
        return "K"
    if kind == DOWN:
        return "#" + name if reveal else "##"
    if kind == LAND:
        return name
    if kind == FARM:
        return "F" + name
    if kind == FORT:
        return "T" + name
    if kind == RUBBLE:
        return "RR"
    return "?"


def _person_text(person: int, with_cell: bool = True) -> str:
    text = PERSON_LETTER[person >> 2 & 3] + (f"b{person & 3}" if person & 3 else "")
    return f"{text}@{cell_text(person >> 4)}" if with_cell else text


def _trainee_text(trainee: int) -> str:
    return f"{PERSON_LETTER[trainee >> 2]}{trainee & 3}"


__all__ = ["card_name", "describe", "format_move", "parse_move", "render", "K"]
