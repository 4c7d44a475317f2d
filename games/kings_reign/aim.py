"""Lines aimed at a perfect score: a guide for a heuristic search phase, never a proof.

A perfect line (§8) ends by discovery [R38] with every card face up, no enemy and no rubble
on the board, 5 farms, 4 forts and all 8 people on the board.  The simplest such lines never
wake an enemy at all: one enters only on a step down between two LAND cells [R13, R14], so
a person who steps from K, a farm or a fort, or from a LAND cell no higher than where it
goes, never brings one.  Without enemies nothing moves but the people, and time costs
nothing (no turn limit [R42]), so such a line is a sequence of *errands*: walk one person
by calm steps to a face-down card and turn it, or to a cell where a queen builds (a fort
only where it opens a face-down card, until the deck is empty).  Training follows one
policy on the way (queens while any wait in the deck, then jacks: a queen can do all a jack
can here, and builds use queens up).

The solver replays every line it reports; the errands only choose which lines to try.
"""

from __future__ import annotations

from functools import lru_cache

from games.kings_reign.rules import (
    BUILD_FARM,
    BUILD_FORT,
    DIRS,
    DOWN,
    FARM,
    FORT,
    K_NEIGHBOURS,
    LAND,
    MAX_FARMS,
    MAX_FORTS,
    NO_CARD,
    OVER,
    PASS,
    QUEEN,
    STEP,
    TRAIN,
    TRAIN_JACK,
    TRAIN_NONE,
    TRAIN_QUEEN,
    K,
    KingsReignState,
    apply,
    board,
    farm_count,
    fort_count,
    is_diamond,
    population,
    rank,
    score,
)

#: Turns an errand may pass while waiting for a trainee to reach K.
WAIT_TURNS = 4
#: A building weighs as much as three cards turned: it makes room for people (a farm) and
#: is a cell from which any card can be turned calmly.
FARM_VALUE, FORT_VALUE = 300, 300


def calm(source: tuple[int, int], target_card: int) -> bool:
    """A step from `source` (kind, card) onto a cell holding `target_card` wakes no enemy
    (judged with the card face up, as after a discovery [R15])."""
    return source[0] != LAND or rank(target_card) >= rank(source[1])


def aimed_successors(state: KingsReignState) -> list[tuple[KingsReignState, tuple]]:
    """Every (state after one errand, its moves) from a start-of-turn state with no enemy:
    per goal (a face-down card to turn, a farm or a fort to build, K to clear for a
    trainee, a trainee to wait for) the person with the shortest calm walk to it."""
    if state.phase != TRAIN or state.enemies:
        return []
    successors = []
    for actions in _errands(state):
        done = _run(state, actions)
        if done is not None:
            successors.append(done)
    return successors


def _errands(state: KingsReignState) -> list[list[tuple]]:
    """The action sequences of the errands worth running (training is added on the way)."""
    grid = board(state.cells)
    occupied = {p >> 4 for p in state.people}
    can_farm = farm_count(state.cells) < MAX_FARMS
    can_fort = fort_count(state) < MAX_FORTS
    best: dict[tuple, list[tuple]] = {}
    coming = bool(state.trainees) or _training(state) != TRAIN_NONE  # someone will want to enter K
    for person in state.people:
        if person & 3:  # building
            continue
        start, kind = person >> 4, person >> 2 & 3
        for cell, path in _calm_walks(grid, occupied, start):
            here = grid[cell]
            goals = []
            for d, step in enumerate(DIRS):
                near = grid.get(cell + step)
                if near is not None and near[0] == DOWN and cell + step not in occupied and calm(here, near[1]):
                    goals.append((("find", cell + step), (STEP, cell, d)))
            if kind == QUEEN and here[0] == LAND:
                if can_farm and is_diamond(here[1]):
                    goals.append((("farm", cell), (BUILD_FARM, cell)))
                if can_fort and cell not in K_NEIGHBOURS and (not state.deck or _opens(grid, cell)):
                    goals.append((("fort", cell), (BUILD_FORT, cell)))
            for goal, action in goals:
                if goal not in best or len(best[goal]) > len(path) + 1:
                    best[goal] = path + [action]
        if start == K and coming:
            for d, step in enumerate(DIRS):
                near = grid.get(K + step)
                if near is not None and near[0] != DOWN and K + step not in occupied:
                    best[("clear", K + step)] = [(STEP, K, d)]
    if coming and K not in occupied:
        best[("wait",)] = [PASS] * WAIT_TURNS
    return list(best.values())


def _opens(grid: dict, cell: int) -> bool:
    """A building on `cell` would let a face-down neighbour be turned calmly, which the card
    on `cell` does not: while cards are still to come, forts go only there (where a fort
    is needed shows late, and a fort built elsewhere cannot move)."""
    return any((near := grid.get(cell + step)) is not None and near[0] == DOWN and not calm(grid[cell], near[1])
               for step in DIRS)


def _calm_walks(grid: dict, occupied: set, start: int):
    """(cell, steps from `start`) for every cell a person reaches by calm steps over cells
    that are not face down and hold no other person, shortest walks first."""
    walks = {start: []}
    order = [start]
    for cell in order:
        here = grid[cell]
        for d, step in enumerate(DIRS):
            near = cell + step
            if near in walks or near in occupied:
                continue
            there = grid.get(near)
            if there is None or there[0] == DOWN:
                continue
            if there[0] == LAND and not calm(here, there[1]):
                continue
            walks[near] = walks[cell] + [(STEP, cell, d)]
            order.append(near)
    for cell in order:
        yield cell, walks[cell]


def _run(state: KingsReignState, actions: list[tuple]) -> tuple[KingsReignState, tuple] | None:
    """Play an errand, one action a turn with the training policy before each; None when an
    action is no longer legal (a trainee took K) or an enemy woke."""
    moves = []
    for action in actions:
        if state.phase != TRAIN:
            return None
        training = _training(state)
        state = apply(state, training)
        if not _still_legal(state, action):
            return None
        state = apply(state, action)
        moves += [training, action]
        if state.phase == OVER:
            return state, tuple(moves)
        if state.enemies:
            return None
        if action == PASS and any(p >> 4 == K for p in state.people):
            break  # the trainee waited for is on K
    return state, tuple(moves)


def _still_legal(state: KingsReignState, action: tuple) -> bool:
    """An errand's actions were legal when it was planned, and while it runs only the walker
    moves, forts complete and trainees enter K: a step onto K may have become illegal."""
    return action[0] != STEP or all(p >> 4 != action[1] + DIRS[action[2]] for p in state.people)


def _training(state: KingsReignState) -> tuple:
    """Queens first, then jacks, whenever there is room [R30]."""
    if population(state) < 2 * farm_count(state.cells):
        if state.queens:
            return TRAIN_QUEEN
        if state.jacks:
            return TRAIN_JACK
    return TRAIN_NONE


def aimed_progress(state: KingsReignState) -> int:
    """How far a position without enemies is along a perfect line (higher is better): the
    buildings (they are also the cells from which any card can be turned calmly) and the
    cards turned, less the face-down cards no calm walk can turn, above all those that no
    building still to come can open up."""
    if state.phase == OVER:
        return 1000 * score(state)
    value = 10 * population(state) + FORT_VALUE * sum(1 for p in state.people if p & 3)  # forts under way
    value += _board_value(state.cells) - _stranded_cost(state)
    if state.enemies:
        value -= 10_000
    return value


@lru_cache(maxsize=1 << 15)
def _board_value(cells: tuple[int, ...]) -> int:
    value = 0
    for c in cells:
        kind, card = c >> 5 & 7, c & 31
        if kind == FARM:
            value += FARM_VALUE
        elif kind == FORT:
            value += FORT_VALUE
        if kind in (LAND, FARM, FORT) and card != NO_CARD:
            value += 100
    return value


def _stranded_cost(state: KingsReignState) -> int:
    """What the face-down cards that cannot be turned calmly cost: some, once a building
    stands next to them or a card comes to lie there; the rest (nothing can help them) a lot."""
    grid = board(state.cells)
    farms_left = MAX_FARMS - farm_count(state.cells)
    forts_left = MAX_FORTS - fort_count(state)
    cost = 0
    stranded = _stranded(state.cells)
    for pos in stranded:
        helped = any(_may_be_built_on(grid, pos + step, farms_left, forts_left) for step in DIRS)
        coming = state.deck and any(pos + step not in grid for step in DIRS)
        cost += 150 if helped or coming else 3000
    if not state.deck:
        cost += 1000 * max(0, len(stranded) - farms_left - forts_left)
    return cost


@lru_cache(maxsize=1 << 15)
def _stranded(cells: tuple[int, ...]) -> tuple[int, ...]:
    """The face-down cards that no calm step reaches, even after others are turned: a card
    is reachable from a face-up neighbour that is calm for it, or from a reachable
    face-down neighbour no higher than it (turned first, it is then a calm source)."""
    grid = board(cells)
    down = {pos: card for pos, (kind, card) in grid.items() if kind == DOWN}
    reached = [pos for pos, card in down.items()
               if any((near := grid.get(pos + step)) is not None and near[0] != DOWN and calm(near, card)
                      for step in DIRS)]
    done = set(reached)
    for pos in reached:
        for step in DIRS:
            near = pos + step
            if near in down and near not in done and rank(down[pos]) <= rank(down[near]):
                done.add(near)
                reached.append(near)
    return tuple(pos for pos in down if pos not in done)


def _may_be_built_on(grid: dict, pos: int, farms_left: int, forts_left: int) -> bool:
    """A building still to come could stand on `pos` (a face-up or face-down card there)."""
    kind, card = grid.get(pos, (0, NO_CARD))
    if kind not in (LAND, DOWN):
        return False
    return (farms_left > 0 and is_diamond(card)) or (forts_left > 0 and pos not in K_NEIGHBOURS)
