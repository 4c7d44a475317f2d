"""King's Reign rules, exactly as docs/rules/kings-reign.md fixes them (rulings cited [Rn]).

A state is one decision point: phase 1 (train), phase 2 (action), an over-population
disposal, or a finished game.  Every forced procedure (discovery, attack check, contact,
enemy steps, battles, end of turn) runs inside `apply`, so the state is a small immutable
value and also the canonical transposition key: cells and people are kept sorted by
position, the enemy and trainee lists in their rule order (age, start).

Packing (all ints, so keys hash fast):
- a position is (x + 64) * 128 + (y + 64); N, E, S, W add 1, 128, -1, -128;
- a cell is position << 8 | kind << 5 | card (card: index 0..29 in the canonical number
  deck ♣A..♣10, ♦A..♦10, ♠A..♠10; NO_CARD when none lies there);
- a person is position << 4 | type << 2 | building timer (0: free);
- a trainee is type << 2 | timer.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations
from typing import NamedTuple

# ----- constants -----------------------------------------------------------------------------

STRIDE, OFFSET = 128, 64
K = OFFSET * STRIDE + OFFSET            # the king's cell (0, 0)
DIRS = (1, STRIDE, -1, -STRIDE)         # N, E, S, W: the one fixed order [R6, R8, R21]
DIR_NAMES = "NESW"
K_NEIGHBOURS = frozenset(K + d for d in DIRS)

KING, DOWN, LAND, FARM, FORT, RUBBLE = 1, 2, 3, 4, 5, 6  # EMPTY cells are simply absent
NO_CARD = 31
QUEEN, JACK = 0, 1
QUEEN_TIMER, JACK_TIMER, FORT_TIMER = 2, 3, 2  # [R36, R32]
MAX_FARMS, MAX_FORTS = 5, 4                    # [R4, R32]
PEOPLE_OF_EACH, ENEMIES, FARM_CARDS, FORT_CARDS = 4, 2, 6, 4

# phases (decision points) and endings
TRAIN, ACT, DISPOSE, OVER = 0, 1, 2, 3
DISCOVERED, EXHAUSTED, KING_TAKEN, STARVED = 1, 2, 3, 4

# moves: small tuples, compared by value
PASS = ("pass",)
TRAIN_NONE, TRAIN_QUEEN, TRAIN_JACK = ("train", -1), ("train", QUEEN), ("train", JACK)
STEP, BUILD_FARM, BUILD_FORT, DEMOLISH, DISPOSE_MOVE = "step", "farm", "fort", "demolish", "dispose"

ENEMY_PASSABLE = (False, True, False, True, True, False, True)  # by kind: KING LAND FARM RUBBLE [R20]


def rank(card: int) -> int:
    return card % 10 + 1


def is_diamond(card: int) -> bool:
    return 10 <= card < 20


def position(x: int, y: int) -> int:
    return (x + OFFSET) * STRIDE + (y + OFFSET)


def coordinates(pos: int) -> tuple[int, int]:
    return pos // STRIDE - OFFSET, pos % STRIDE - OFFSET


class KingsReignState(NamedTuple):
    cells: tuple[int, ...]       # non-EMPTY cells, sorted (by position)
    people: tuple[int, ...]      # persons on the board, sorted (by position)
    enemies: tuple[int, ...]     # enemy positions, oldest first
    trainees: tuple[int, ...]    # in start order
    deck: tuple[int, ...]        # number deck, top first
    queens: int                  # people deck: queens
    jacks: int                   # people deck: jacks
    pool: int                    # enemy pool
    farm_deck: int
    fort_deck: int
    phase: int                   # TRAIN, ACT, DISPOSE or OVER
    resume: int                  # DISPOSE: the enemy index phase 3 resumes at
    ending: int                  # OVER: DISCOVERED, EXHAUSTED, KING_TAKEN or STARVED


# ----- setup (§4) ----------------------------------------------------------------------------

def initial_state(deck: tuple[int, ...]) -> KingsReignState:
    """§4: king at K, farm at W with no card under it, N E S face down, a queen on K [R41]."""
    cells = {K: (KING, NO_CARD), K - STRIDE: (FARM, NO_CARD)}
    deck = list(deck)
    for d in DIRS[:3]:  # N, E, S in the fixed order [R6]
        if deck:
            cells[K + d] = (DOWN, deck.pop(0))
    return KingsReignState(
        cells=_pack_cells(cells), people=(K << 4 | QUEEN << 2,), enemies=(), trainees=(), deck=tuple(deck),
        queens=PEOPLE_OF_EACH - 1, jacks=PEOPLE_OF_EACH, pool=ENEMIES, farm_deck=FARM_CARDS - 1,
        fort_deck=FORT_CARDS, phase=TRAIN, resume=0, ending=0,
    )


# ----- legal moves ---------------------------------------------------------------------------

def legal_moves(state: KingsReignState) -> list[tuple]:
    """Every decision the rules allow here, in rule order; none once the game is over."""
    if state.phase == TRAIN:
        return _training_moves(state)
    if state.phase == ACT:
        return _actions(state)
    if state.phase == DISPOSE:
        return _disposals(state)
    return []


def _training_moves(state: KingsReignState) -> list[tuple]:
    """§6.1: nothing, or one trainee while population < capacity [R30]."""
    moves = [TRAIN_NONE]
    if population(state) < 2 * farm_count(state.cells):
        if state.queens:
            moves.append(TRAIN_QUEEN)
        if state.jacks:
            moves.append(TRAIN_JACK)
    return moves


def _actions(state: KingsReignState) -> list[tuple]:
    """§6.2: PASS [R37], a step by a free person, or a queen's build or demolition."""
    grid = board(state.cells)
    occupied = {p >> 4 for p in state.people}
    enemy_cells = set(state.enemies)
    moves = [PASS]
    farms = forts = None
    for person in state.people:
        if person & 3:  # a building queen is locked [R32]
            continue
        pos, kind = person >> 4, person >> 2 & 3
        for d in range(4):
            target = pos + DIRS[d]
            # not EMPTY [R10], one person a cell [R11], no queen onto an enemy [R12]
            if target in grid and target not in occupied and (kind == JACK or target not in enemy_cells):
                moves.append((STEP, pos, d))
        if kind != QUEEN:
            continue
        cell_kind, card = grid[pos]
        if cell_kind == LAND:
            if farms is None:
                farms, forts = farm_count(state.cells), fort_count(state)
            if is_diamond(card) and farms < MAX_FARMS:  # [R4, R31]
                moves.append((BUILD_FARM, pos))
            if pos not in K_NEIGHBOURS and forts < MAX_FORTS:  # [R32]
                moves.append((BUILD_FORT, pos))
        elif cell_kind in (FARM, FORT):  # [R33]
            moves.append((DEMOLISH, pos))
    return moves


def _disposals(state: KingsReignState) -> list[tuple]:
    """§6.8: every choice of exactly (population - capacity) members [R29]."""
    members = [("p", p >> 4) for p in state.people] + [("t", i) for i in range(len(state.trainees))]
    excess = population(state) - 2 * farm_count(state.cells)
    moves = []
    for chosen in combinations(members, excess):
        people = tuple(pos for what, pos in chosen if what == "p")
        trainees = tuple(i for what, i in chosen if what == "t")
        moves.append((DISPOSE_MOVE, people, trainees))
    return moves


# ----- apply ---------------------------------------------------------------------------------

def apply(state: KingsReignState, move: tuple) -> KingsReignState:
    """Play one decision and every forced procedure after it, up to the next decision."""
    if state.phase == TRAIN:
        return _train(state, move)
    play = _Play(state)
    if state.phase == ACT:
        play.act(move)
        resume = 0
    else:
        play.dispose(move)
        resume = state.resume
    if play.ending == 0 and not play.pending:
        play.enemy_phase(resume)
    if play.ending == 0 and not play.pending:
        play.end_of_turn()
    return play.freeze()


def _train(state: KingsReignState, move: tuple) -> KingsReignState:
    """§6.1: a trainee leaves the people deck with its timer [R36]."""
    kind = move[1]
    if kind == QUEEN:
        return state._replace(trainees=state.trainees + (QUEEN << 2 | QUEEN_TIMER,), queens=state.queens - 1,
                              phase=ACT)
    if kind == JACK:
        return state._replace(trainees=state.trainees + (JACK << 2 | JACK_TIMER,), jacks=state.jacks - 1,
                              phase=ACT)
    return state._replace(phase=ACT)


class _Play:
    """A mutable working copy of a state for the forced procedures of one decision."""

    def __init__(self, state: KingsReignState):
        self.cells = state.cells          # valid while `grid` is unchanged (the routing cache key)
        self.grid = dict(board(state.cells))
        self.people = {p >> 4: (p >> 2 & 3, p & 3) for p in state.people}  # pos -> (type, timer)
        self.enemies = list(state.enemies)
        self.trainees = list(state.trainees)
        self.deck = list(state.deck)
        self.queens, self.jacks, self.pool = state.queens, state.jacks, state.pool
        self.farm_deck, self.fort_deck = state.farm_deck, state.fort_deck
        self.ending = 0
        self.pending = False
        self.resume = 0

    def freeze(self) -> KingsReignState:
        if self.ending:
            phase = OVER
        elif self.pending:
            phase = DISPOSE
        else:
            phase = TRAIN
        return KingsReignState(
            cells=self._cells_now(), people=tuple(sorted(p << 4 | k << 2 | t for p, (k, t) in self.people.items())),
            enemies=tuple(self.enemies), trainees=tuple(self.trainees), deck=tuple(self.deck),
            queens=self.queens, jacks=self.jacks, pool=self.pool, farm_deck=self.farm_deck,
            fort_deck=self.fort_deck, phase=phase, resume=self.resume if self.pending else 0, ending=self.ending,
        )

    def _cells_now(self) -> tuple[int, ...]:
        if self.cells is None:
            self.cells = _pack_cells(self.grid)
        return self.cells

    def _set_cell(self, pos: int, kind: int, card: int) -> None:
        self.grid[pos] = (kind, card)
        self.cells = None

    # --- phase 2 ---
    def act(self, move: tuple) -> None:
        what = move[0]
        if what == STEP:
            self.step(move[1], move[1] + DIRS[move[2]])
        elif what == BUILD_FARM:  # the ♦ card stays under the farm [R31]
            self._set_cell(move[1], FARM, self.grid[move[1]][1])
            self.farm_deck -= 1
            self._return_person(move[1])
        elif what == BUILD_FORT:  # a marker with timer 2; the queen stays, locked [R32]
            self.people[move[1]] = (QUEEN, FORT_TIMER)
            self.fort_deck -= 1
        elif what == DEMOLISH:
            self.demolish(move[1])

    def step(self, source: int, target: int) -> None:
        """§6.3: move, discovery [R8, R15, R38], attack check [R13, R14, R16], contact [R17, R18, R44]."""
        person = self.people.pop(source)
        self.people[target] = person
        kind, card = self.grid[target]
        if kind == DOWN:
            self._set_cell(target, LAND, card)
            for d in DIRS:
                if target + d not in self.grid and self.deck:
                    self._set_cell(target + d, DOWN, self.deck.pop(0))
            if not any(k == DOWN for k, _ in self.grid.values()):
                self.ending = DISCOVERED  # [R38]
                return
            kind = LAND
        source_kind, source_card = self.grid[source]
        if source_kind == LAND and kind == LAND and rank(card) < rank(source_card) and self.pool:
            self.pool -= 1
            self.enemies.append(target)  # on the card just entered, as the newest [R16]
        if target in self.enemies:
            self.contact(target, person[0])

    def contact(self, pos: int, kind: int) -> None:
        """A queen meeting an enemy dies [R17]; a jack fights each enemy, oldest first [R18, R22, R44]."""
        if kind == QUEEN:
            self._return_person(pos)
            return
        index = 0
        while index < len(self.enemies):
            if self.enemies[index] != pos:
                index += 1
                continue
            enemy_won = self.battle()
            if self.ending:
                return
            if enemy_won:
                self._return_person(pos)
                return
            self._remove_enemy(index)

    def demolish(self, pos: int) -> None:
        """[R33]: the cell becomes RUBBLE, its land card leaves the game, the queen is used up."""
        if self.grid[pos][0] == FARM:
            self.farm_deck += 1
        else:
            self.fort_deck += 1
        self._set_cell(pos, RUBBLE, NO_CARD)
        self._return_person(pos)
        self._after_farms_fall()

    # --- phase 3 ---
    def enemy_phase(self, start: int) -> None:
        """§6.4: the enemies of the phase's snapshot step once each, oldest first [R19].

        No enemy joins the board during phase 3 and only the stepping enemy can leave it, so
        the snapshot is "index `start` onwards" and a disposal can resume it by index."""
        index = start
        while index < len(self.enemies):
            removed = self.enemy_step(index)
            if self.ending:
                return
            if not removed:
                index += 1
            if self.pending:
                self.resume = index
                return

    def enemy_step(self, index: int) -> bool:
        """One step by a shortest route, farm routes first, then N E S W [R21]; True when the
        enemy left the board."""
        here = self.enemies[index]
        target = enemy_routes(self._cells_now()).get(here)
        if target is None:
            return False  # no path to K: it stays [R21]
        self.enemies[index] = target
        occupant = self.people.get(target)
        if target == K:  # [R26]
            if occupant is None or occupant[0] == QUEEN:
                if occupant is not None:
                    self._return_person(K)
                self.ending = KING_TAKEN
                return False
            enemy_won = self.battle()
            if self.ending:
                return False
            if enemy_won:
                self._return_person(K)
                self.ending = KING_TAKEN
                return False
            self._remove_enemy(index)
            return True
        if occupant is not None:
            if occupant[0] == QUEEN:  # killed; a construction is cancelled [R17, R43]
                if occupant[1]:
                    self.fort_deck += 1
                self._return_person(target)
            else:
                enemy_won = self.battle()
                if self.ending:
                    return False
                if not enemy_won:
                    self._remove_enemy(index)
                    return True
                self._return_person(target)
        if self.grid[target][0] == FARM:  # contact came first, so a jack's win saves it [R27]
            self._set_cell(target, RUBBLE, NO_CARD)
            self.farm_deck += 1
            self._after_farms_fall()
        return False

    def battle(self) -> bool:
        """§6.5: True when the enemy wins.  Fewer than 3 cards: the game is won [R23]; the
        cards go to the bottom in the order drawn [R24]."""
        if len(self.deck) < 3:
            self.ending = EXHAUSTED
            return False
        drawn = self.deck[:3]
        del self.deck[:3]
        self.deck.extend(drawn)
        low = all(rank(c) <= 3 for c in drawn)
        diamonds = sum(1 for c in drawn if is_diamond(c))
        return low or diamonds >= 2

    # --- phase 5 ---
    def end_of_turn(self) -> None:
        """§6.7: timers drop; forts complete; one ready trainee enters an empty K [R36]."""
        for pos, (kind, timer) in list(self.people.items()):
            if timer:
                if timer == 1:  # the marker reaches 0: a FORT over the land card
                    self._set_cell(pos, FORT, self.grid[pos][1])
                    self._return_person(pos)
                else:
                    self.people[pos] = (kind, timer - 1)
        self.trainees = [t - 1 if t & 3 else t for t in self.trainees]
        if K not in self.people:
            for index, trainee in enumerate(self.trainees):
                if trainee & 3 == 0:
                    self.people[K] = (trainee >> 2, 0)
                    del self.trainees[index]
                    break

    # --- over-population ---
    def _after_farms_fall(self) -> None:
        """Starvation at 0 farms [R28]; otherwise the over-population check (§6.8)."""
        farms = sum(1 for kind, _ in self.grid.values() if kind == FARM)
        if farms == 0:
            self.ending = STARVED
        elif len(self.people) + len(self.trainees) > 2 * farms:
            self.pending = True

    def dispose(self, move: tuple) -> None:
        """[R29]: the chosen people and trainees go back to the people deck."""
        _, people, trainees = move
        for pos in people:
            if self.people[pos][1]:  # a building queen: the construction is cancelled
                self.fort_deck += 1
            self._return_person(pos)
        for index in sorted(trainees, reverse=True):
            kind = self.trainees.pop(index) >> 2
            if kind == QUEEN:
                self.queens += 1
            else:
                self.jacks += 1

    # --- bookkeeping ---
    def _return_person(self, pos: int) -> None:
        kind, _ = self.people.pop(pos)
        if kind == QUEEN:
            self.queens += 1
        else:
            self.jacks += 1

    def _remove_enemy(self, index: int) -> None:
        del self.enemies[index]
        self.pool += 1


# ----- derived quantities (§5) and the board ---------------------------------------------------

def farm_count(cells: tuple[int, ...]) -> int:
    return sum(1 for c in cells if c >> 5 & 7 == FARM)


def fort_count(state: KingsReignState) -> int:
    """FORT cells plus construction markers (what the fort limit counts) [R32]."""
    return sum(1 for c in state.cells if c >> 5 & 7 == FORT) + sum(1 for p in state.people if p & 3)


def population(state: KingsReignState) -> int:
    return len(state.people) + len(state.trainees)


@lru_cache(maxsize=1 << 16)
def board(cells: tuple[int, ...]) -> dict[int, tuple[int, int]]:
    """position -> (kind, card); shared between states, so never mutate the answer."""
    return {c >> 8: (c >> 5 & 7, c & 31) for c in cells}


def _pack_cells(grid: dict[int, tuple[int, int]]) -> tuple[int, ...]:
    return tuple(sorted(pos << 8 | kind << 5 | card for pos, (kind, card) in grid.items()))


@lru_cache(maxsize=1 << 15)
def enemy_routes(cells: tuple[int, ...]) -> dict[int, int]:
    """§6.4 steps 1-4 for every passable cell at once: where an enemy standing there steps.

    The answer depends on the cells alone (persons and enemies do not block), so it is
    computed once per board; a trample makes a new board, which is what "recomputed for
    every step" asks [R19, R21]."""
    grid = board(cells)
    distance = {K: 0}
    order = [K]
    for pos in order:  # BFS from K over KING, LAND, FARM and RUBBLE [R20]
        for d in DIRS:
            near = pos + d
            if near not in distance and near in grid and ENEMY_PASSABLE[grid[near][0]]:
                distance[near] = distance[pos] + 1
                order.append(near)
    via_farm = {K: False}
    for pos in order[1:]:  # increasing distance
        via_farm[pos] = grid[pos][0] == FARM or any(
            distance.get(pos + d) == distance[pos] - 1 and via_farm[pos + d] for d in DIRS)
    routes = {}
    for pos in order[1:]:
        candidates = [pos + d for d in DIRS if distance.get(pos + d) == distance[pos] - 1]
        farm_routes = [c for c in candidates if via_farm[c]]
        routes[pos] = (farm_routes or candidates)[0]  # N E S W order kept by the comprehension
    return routes


# ----- the end (§7, §8) ------------------------------------------------------------------------

def score(state: KingsReignState) -> int:
    """§8 on the board as it stands [R35, R39]."""
    total = 0
    for c in state.cells:
        kind = c >> 5 & 7
        if kind in (LAND, FARM, FORT) and c & 31 != NO_CARD:
            total += 2
        if kind == FARM:
            total += 1
        elif kind == FORT:
            total += 2
        elif kind == RUBBLE:
            total -= 2
    for p in state.people:
        total += 2 if p >> 2 & 3 == JACK else 1
    if state.enemies:
        total -= 15
    return total
