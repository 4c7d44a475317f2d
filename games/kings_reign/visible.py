"""King's Reign as a player at the table sees it: everything but the face-down number cards.

The face-down cards are the cards of the DOWN cells and the number deck (its order and so its
top card).  Everything else is face up or counted: the phase (a disposal's resume index, a
finished game's ending), the deck's size, the people deck, the enemy pool, the farm and fort
decks, the trainees, the people (with building timers), the enemies (oldest first) and every
cell with its card (LAND, FARM and FORT cells keep theirs).

Notation: `describe`'s line (games/kings_reign/notation.py), read back exactly:

    phase 1 (train); deck 27; people deck Q3 J4; pool 2; farm deck 5; fort deck 4; trainees -;
    people Q@0,0; enemies -; cells -1,0=F 0,-1=## 0,0=K 0,1=## 1,0=##; score now 4

Cells read `K` king, `##` face down, `7♦` land, `F7♦`/`F` farm (with or without its card),
`T9♠` fort, `RR` rubble (suits as symbols or letters: `7D`, `F7D`, `T9S`); people `Q@x,y`,
`Jb2@x,y` (building timer 2); trainees `Q2` (type, timer).  `score now N` is optional and
checked when given.  A position no game shows (a card twice, a cell twice, a person off the
board, more face-down places than unseen cards, ...) is refused with one line
(games.base.DealError).

The unseen cards are the deck's cards (game.cards) less every card face up on the board.  A
card that left the game (under a demolished or trampled building: §6.3, R27, R33) was seen
by the player, but the state keeps no record of it, so the model cannot tell it from a
face-down card: a sample draws the face-down cards from all the cards not face up.  Until a
land card leaves the game this is exact; afterwards the model knows a little less than the
player (it never knows more).

A sampled state: the unseen cards shuffled by the rng, dealt to the DOWN cells in position
order and then to the deck, top first (any cards left over are the ones that left the game).

Greedy rule (`greedy_move`): phase 1 trains a queen when allowed, else a jack, else nothing;
phase 2 steps a person (queens first) onto a face-down cell when one can, else builds a farm
on ♦ land, else a fort, else steps a person (queens first) one cell closer to the nearest
face-down cell, else passes; a disposal takes the first choice offered (trainees and
people in rule order).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from games.base import SYMBOL_LETTERS, DealError, UnsupportedGame
from games.decks import shown
from games.kings_reign import notation
from games.kings_reign.rules import (
    ACT,
    BUILD_FARM,
    BUILD_FORT,
    DIRS,
    DISPOSE,
    DOWN,
    FARM,
    FORT,
    JACK,
    KING,
    LAND,
    NO_CARD,
    OVER,
    PASS,
    QUEEN,
    RUBBLE,
    STEP,
    TRAIN,
    TRAIN_JACK,
    TRAIN_NONE,
    TRAIN_QUEEN,
    K,
    KingsReignState,
    board,
    position,
    score,
)

PHASES = {TRAIN: "phase 1 (train)", ACT: "phase 2 (action)", DISPOSE: "over-population disposal",
          OVER: "game over"}
ENDINGS = {name: ending for ending, name in notation.ENDING_NAMES.items()}
_POS = r"(-?\d+),(-?\d+)"
_CARD = re.compile(r"(A|[2-9]|10)([CDS♣♦♠])", re.IGNORECASE)


@dataclass(frozen=True)
class KingsReignVisible:
    """A state with its face-down cards taken away: DOWN cells carry NO_CARD and the deck is a
    count; `unknown` is every card of the game's deck not face up, sorted."""

    cells: tuple[int, ...]
    people: tuple[int, ...]
    enemies: tuple[int, ...]
    trainees: tuple[int, ...]
    deck_count: int
    queens: int
    jacks: int
    pool: int
    farm_deck: int
    fort_deck: int
    phase: int
    resume: int
    ending: int
    unknown: tuple[int, ...]

    @property
    def hidden(self) -> int:
        """How many cards lie face down: the DOWN cells and the deck."""
        return self.deck_count + sum(1 for c in self.cells if c >> 5 & 7 == DOWN)


def _card_indices(game) -> tuple[int, ...]:
    return tuple(sorted("CDS".index(card.suit) * 10 + card.rank - 1 for card in game.cards))


def visible_of(game, state: KingsReignState) -> KingsReignVisible:
    """What a player sees of a full state."""
    cells = tuple(c | NO_CARD if c >> 5 & 7 == DOWN else c for c in state.cells)
    return _visible(game, cells, state.people, state.enemies, state.trainees, len(state.deck), state.queens,
                    state.jacks, state.pool, state.farm_deck, state.fort_deck, state.phase, state.resume,
                    state.ending)


def _visible(game, cells, people, enemies, trainees, deck_count, queens, jacks, pool, farm_deck, fort_deck,
             phase, resume, ending) -> KingsReignVisible:
    seen = {c & 31 for c in cells if c >> 5 & 7 in (LAND, FARM, FORT) and c & 31 != NO_CARD}
    unknown = tuple(card for card in _card_indices(game) if card not in seen)
    return KingsReignVisible(cells, people, enemies, trainees, deck_count, queens, jacks, pool, farm_deck,
                             fort_deck, phase, resume, ending, unknown)


def format_visible(game, visible: KingsReignVisible) -> str:
    """`describe`'s line (it never shows a face-down card)."""
    return notation.describe(_state(visible, (), (NO_CARD,) * visible.deck_count))


def visible_text(game, state: KingsReignState) -> str:
    return format_visible(game, visible_of(game, state))


def sample_state(game, visible: KingsReignVisible, rng: random.Random) -> KingsReignState:
    """One full state consistent with `visible`: the unseen cards shuffled, dealt to the DOWN
    cells in position order, then to the deck."""
    unknown = list(visible.unknown)
    rng.shuffle(unknown)
    downs = sum(1 for c in visible.cells if c >> 5 & 7 == DOWN)
    return _state(visible, unknown[:downs], unknown[downs:downs + visible.deck_count])


#: The unseen pool can hold cards that have left the game, so an order of it is not one
#: state (VisiblePositions.exact_orders).
exact_orders = False


def state_with_order(game, visible: KingsReignVisible, order) -> KingsReignState:
    raise UnsupportedGame("King's Reign's unseen cards are not exactly the cards to come: no exact fair search")


def unknown_count(visible: KingsReignVisible) -> int:
    """The cards a face-down place may hold: 0 when nothing lies face down (one order only)."""
    return len(visible.unknown) if visible.hidden else 0


def _state(visible: KingsReignVisible, down_cards, deck) -> KingsReignState:
    cards = iter(down_cards)
    cells = tuple(c & ~31 | next(cards, NO_CARD) if c >> 5 & 7 == DOWN else c for c in visible.cells)
    return KingsReignState(cells, visible.people, visible.enemies, visible.trainees, tuple(deck), visible.queens,
                           visible.jacks, visible.pool, visible.farm_deck, visible.fort_deck, visible.phase,
                           visible.resume, visible.ending)


# ----- reading the line --------------------------------------------------------------------
def parse_visible(game, text: str) -> KingsReignVisible:
    """Read describe's line; DealError names the first thing no game of King's Reign shows."""
    sections = [part.strip() for part in text.strip().split(";")]
    if not sections or not sections[0]:
        raise DealError("empty position: expected describe's line ('phase 1 (train); deck 27; ...')")
    phase, resume, ending = _phase(sections[0])
    fields: dict[str, str] = {}
    names = ("people deck", "farm deck", "fort deck", "deck", "pool", "trainees", "people", "enemies", "cells",
             "score now")
    for part in sections[1:]:
        name = next((n for n in names if part == n or part.startswith(n + " ")), None)
        if name is None:
            raise DealError(f"cannot read {part!r} (expected one of: {', '.join(names)})")
        if name in fields:
            raise DealError(f"{name!r} is given twice")
        fields[name] = part[len(name):].strip()
    missing = [n for n in names[:-1] if n not in fields]
    if missing:
        raise DealError(f"the position does not give {', '.join(missing)}")
    deck_count = _count(fields["deck"], "deck")
    people_deck = re.fullmatch(r"Q(\d+)\s+J(\d+)", fields["people deck"], re.IGNORECASE)
    if not people_deck:
        raise DealError(f"cannot read the people deck {fields['people deck']!r}: expected 'Q3 J4'")
    queens, jacks = int(people_deck.group(1)), int(people_deck.group(2))
    pool = _count(fields["pool"], "pool")
    farm_deck, fort_deck = _count(fields["farm deck"], "farm deck"), _count(fields["fort deck"], "fort deck")
    trainees = tuple(_trainee(word) for word in _words(fields["trainees"]))
    people = tuple(sorted(_person(word) for word in _words(fields["people"])))
    enemies = tuple(_position(word, "enemy") for word in _words(fields["enemies"]))
    grid = _cells(game, fields["cells"])
    cells = tuple(sorted(pos << 8 | kind << 5 | card for pos, (kind, card) in grid.items()))
    visible = _visible(game, cells, people, enemies, trainees, deck_count, queens, jacks, pool, farm_deck,
                       fort_deck, phase, resume, ending)
    _check(visible, grid)
    if "score now" in fields:
        given, computed = _count(fields["score now"], "score now"), score(_state(visible, (), ()))
        if given != computed:
            raise DealError(f"the score now is {computed}, not {given}")
    return visible


def _phase(text: str) -> tuple[int, int, int]:
    for phase, name in PHASES.items():
        if text == name and phase in (TRAIN, ACT):
            return phase, 0, 0
        if text.startswith(name + " (") and text.endswith(")"):
            detail = text[len(name) + 2:-1]
            if phase == DISPOSE:
                match = re.fullmatch(r"resume at enemy (\d+)", detail)
                if match:
                    return phase, int(match.group(1)), 0
            if phase == OVER and detail in ENDINGS:
                return phase, 0, ENDINGS[detail]
    raise DealError(f"cannot read the phase {text!r} (expected e.g. 'phase 1 (train)', "
                    "'over-population disposal (resume at enemy 0)', 'game over (starved)')")


def _count(text: str, what: str) -> int:
    if text.lstrip("-").isdigit():
        return int(text)
    raise DealError(f"cannot read {what} {text!r}: expected a number")


def _words(text: str) -> list[str]:
    return [] if text == "-" else text.split()


def _position(word: str, what: str) -> int:
    match = re.fullmatch(_POS, word)
    if not match:
        raise DealError(f"cannot read the {what} cell {word!r}: expected x,y")
    return position(int(match.group(1)), int(match.group(2)))


def _trainee(word: str) -> int:
    match = re.fullmatch(r"([QJ])([0-3])", word, re.IGNORECASE)
    if not match:
        raise DealError(f"cannot read the trainee {word!r}: expected Q2 or J3 (type and timer)")
    return (QUEEN if match.group(1).upper() == "Q" else JACK) << 2 | int(match.group(2))


def _person(word: str) -> int:
    match = re.fullmatch(r"([QJ])(?:b([1-3]))?@" + _POS, word, re.IGNORECASE)
    if not match:
        raise DealError(f"cannot read the person {word!r}: expected Q@x,y, Qb2@x,y or J@x,y")
    kind = QUEEN if match.group(1).upper() == "Q" else JACK
    if match.group(2) and kind == JACK:
        raise DealError(f"{word!r}: only a queen builds")
    pos = position(int(match.group(3)), int(match.group(4)))
    return pos << 4 | kind << 2 | int(match.group(2) or 0)


def _cells(game, text: str) -> dict[int, tuple[int, int]]:
    grid: dict[int, tuple[int, int]] = {}
    cards = set(_card_indices(game))
    for word in _words(text):
        where, equals, what = word.partition("=")
        if not equals:
            raise DealError(f"cannot read the cell {word!r}: expected x,y=K, ##, 7D, F7D, T7D or RR")
        pos = _position(where, "board")
        if pos in grid:
            raise DealError(f"the cell {where} is given twice")
        grid[pos] = _cell(what, cards, word)
    return grid


def _cell(what: str, cards: set[int], word: str) -> tuple[int, int]:
    upper = what.upper()
    fixed = {"K": (KING, NO_CARD), "##": (DOWN, NO_CARD), "RR": (RUBBLE, NO_CARD), "F": (FARM, NO_CARD),
             "T": (FORT, NO_CARD)}
    if upper in fixed:
        return fixed[upper]
    kind, name = LAND, upper
    if upper[0] in "FT":
        kind, name = (FARM if upper[0] == "F" else FORT), upper[1:]
    match = _CARD.fullmatch(name)
    if not match:
        raise DealError(f"cannot read the cell {word!r}: expected x,y=K, ##, 7D, F7D, T7D or RR")
    value = 1 if match.group(1) == "A" else int(match.group(1))
    card = "CDS".index(SYMBOL_LETTERS.get(match.group(2), match.group(2))) * 10 + value - 1
    if card not in cards:
        raise DealError(f"{name} is not a card of this game's number deck")
    return kind, card


def _check(visible: KingsReignVisible, grid: dict[int, tuple[int, int]]) -> None:
    """What every position of a game shows (§4-§6)."""
    seen = [card for kind, card in grid.values() if kind in (LAND, FARM, FORT) and card != NO_CARD]
    twice = {card for card in seen if seen.count(card) > 1}
    if twice:
        raise DealError(f"{shown(notation.card_name(min(twice)))} is face up twice")
    if grid.get(K, (None,))[0] != KING or sum(1 for kind, _ in grid.values() if kind == KING) != 1:
        raise DealError("the king stands on 0,0 and nowhere else (0,0=K)")
    for person in visible.people:
        if person >> 4 not in grid:
            raise DealError(f"a person stands on {notation.cell_text(person >> 4)}, which is not on the board")
    if len({p >> 4 for p in visible.people}) != len(visible.people):
        raise DealError("two people stand on one cell")
    for enemy in visible.enemies:
        if enemy not in grid:
            raise DealError(f"an enemy stands on {notation.cell_text(enemy)}, which is not on the board")
    if visible.hidden > len(visible.unknown):
        raise DealError(f"{visible.hidden} cards lie face down (DOWN cells and deck) but only "
                        f"{len(visible.unknown)} number cards are not face up")


# ----- moves and the greedy rule -------------------------------------------------------------
def move_words(game, state: KingsReignState, move: tuple, peek: bool = False) -> str:
    """The module notation: no move names a face-down card."""
    return notation.format_move(state, move)


def greedy_move(game, state: KingsReignState) -> tuple:
    """The rule of the module docstring."""
    moves = game.legal_moves(state)
    if state.phase == TRAIN:
        return next((m for m in (TRAIN_QUEEN, TRAIN_JACK) if m in moves), TRAIN_NONE)
    if state.phase != ACT:
        return moves[0]
    grid = board(state.cells)
    kinds = {p >> 4: p >> 2 & 3 for p in state.people}
    steps = [m for m in moves if m[0] == STEP]
    onto_down = [m for m in steps if grid[m[1] + DIRS[m[2]]][0] == DOWN]
    if onto_down:
        return min(onto_down, key=lambda m: kinds[m[1]] != QUEEN)
    for what in (BUILD_FARM, BUILD_FORT):
        for move in moves:
            if move[0] == what:
                return move
    distance = _distance_to_down(grid)
    closer = [m for m in steps if distance.get(m[1] + DIRS[m[2]], 1 << 30) < distance.get(m[1], 1 << 30)]
    if closer:
        return min(closer, key=lambda m: (kinds[m[1]] != QUEEN, distance[m[1] + DIRS[m[2]]]))
    return PASS


def _distance_to_down(grid: dict[int, tuple[int, int]]) -> dict[int, int]:
    """Steps from each cell to the nearest face-down cell, over the cells of the board."""
    order = [pos for pos, (kind, _) in grid.items() if kind == DOWN]
    distance = dict.fromkeys(order, 0)
    for pos in order:
        for d in DIRS:
            near = pos + d
            if near in grid and near not in distance:
                distance[near] = distance[pos] + 1
                order.append(near)
    return distance
