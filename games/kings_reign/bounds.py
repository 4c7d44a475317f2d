"""Search facts about King's Reign positions: a sound score bound, a move order, a progress
estimate.  None of them changes what is reachable; only the bound is used to cut.

The bound (§8 item by item, each an upper bound over every terminal reachable, win or loss):
- discovered cards: every number card still in play (board or deck) can end face up, but a
  card under rubble has left the game for good [R33, R34];
- RUBBLE cells never go away: -2 each, certain;
- farms need a ♦ card in LAND (or still to come) [R31], at most 5 [R4]; forts need a card on
  a cell not next to K [R32], at most 4; a card carries one building, so the two share
  the ♦ cards away from K: the best split is tried;
- people on the board at the end fit the capacity 2 × farms (training needs room [R30]; a
  fall of farms forces disposal down to it [R29]), jacks (2 points) first;
- -15 is certain once an enemy is on the board with fewer than 3 cards in the deck: an enemy
  leaves only by losing a battle, and such a battle ends the game first [R23, R25].
"""

from __future__ import annotations

from functools import lru_cache

from games.kings_reign.rules import (
    ACT,
    BUILD_FARM,
    BUILD_FORT,
    DEMOLISH,
    DIRS,
    DOWN,
    FARM,
    FORT,
    JACK,
    K_NEIGHBOURS,
    LAND,
    MAX_FARMS,
    MAX_FORTS,
    NO_CARD,
    OVER,
    PEOPLE_OF_EACH,
    RUBBLE,
    STEP,
    TRAIN,
    TRAIN_JACK,
    TRAIN_NONE,
    TRAIN_QUEEN,
    K,
    KingsReignState,
    board,
    is_diamond,
    rank,
    score,
)


def score_upper_bound(state: KingsReignState) -> int:
    """No terminal reachable from `state` scores more (see the module docstring)."""
    if state.phase == OVER:
        return score(state)
    cards, rubble, farms, forts, farm_only, fort_only, either = _board_facts(state.cells)
    for card in state.deck:  # cards still to come land away from K (its N, E, S are dealt at setup)
        if is_diamond(card):
            either += 1
        else:
            fort_only += 1
    cards += len(state.deck)
    total = 2 * cards - 2 * rubble + _best_buildings(farms, forts, farm_only, fort_only, either)
    if state.enemies and len(state.deck) < 3:
        total -= 15
    return total


def can_still_win(state: KingsReignState) -> bool:
    """False only when no win is reachable: a finished game that was not won."""
    return state.phase != OVER or state.ending in (1, 2)


@lru_cache(maxsize=1 << 15)
def _board_facts(cells: tuple[int, ...]) -> tuple[int, int, int, int, int, int, int]:
    """(cards on the board, rubble, farms, forts, ♦ cards that can only be farms (next to K),
    cards that can only be forts (not ♦), ♦ cards that can be either)."""
    cards = rubble = farms = forts = farm_only = fort_only = either = 0
    for c in cells:
        kind, card = c >> 5 & 7, c & 31
        if card != NO_CARD:
            cards += 1
        if kind == RUBBLE:
            rubble += 1
        elif kind == FARM:
            farms += 1
        elif kind == FORT:
            forts += 1
        elif kind in (LAND, DOWN):
            near_king = c >> 8 in K_NEIGHBOURS
            if is_diamond(card):
                if near_king:
                    farm_only += 1
                else:
                    either += 1
            elif not near_king:
                fort_only += 1
    return cards, rubble, farms, forts, farm_only, fort_only, either


@lru_cache(maxsize=4096)
def _best_buildings(farms: int, forts: int, farm_only: int, fort_only: int, either: int) -> int:
    """The most that farms, forts and the people the farms feed can add, over every split of
    the available cards into new farms and new forts."""
    best = 0
    for new_farms in range(MAX_FARMS - min(farms, MAX_FARMS) + 1):
        shared_for_farms = max(0, new_farms - farm_only)
        if shared_for_farms > either:
            break
        new_forts = min(MAX_FORTS - forts, fort_only + either - shared_for_farms)
        final_farms = farms + new_farms
        people = min(2 * PEOPLE_OF_EACH, 2 * final_farms)
        people_points = 2 * min(people, PEOPLE_OF_EACH) + max(0, people - PEOPLE_OF_EACH)  # jacks first
        value = final_farms + 2 * (forts + new_forts) + people_points
        best = max(best, value)
    return best


# ----- move order and progress ---------------------------------------------------------------

def order_moves(state: KingsReignState, moves: list) -> list:
    """Moves most likely to lead to a win first: train a jack, then a queen; discoveries that
    wake no enemy, builds of farms, jacks attacking enemies they beat, steps towards the
    nearest face-down card; passing and wandering last."""
    if state.phase == TRAIN:
        preference = {TRAIN_JACK: 0, TRAIN_QUEEN: 1, TRAIN_NONE: 2}
        return sorted(moves, key=preference.__getitem__)
    if state.phase != ACT:
        return moves
    grid = board(state.cells)
    distance = distance_to_unknown(state.cells)
    ranked = [(_action_rank(state, grid, distance, move), index, move) for index, move in enumerate(moves)]
    ranked.sort()
    return [move for _, _, move in ranked]


def _action_rank(state: KingsReignState, grid: dict, distance: dict, move: tuple) -> int:
    what = move[0]
    if what == BUILD_FARM:
        return 1
    if what == STEP:
        source, target = move[1], move[1] + DIRS[move[2]]
        kind, card = grid[target]
        if kind == DOWN:
            source_kind, source_card = grid[source]
            wakes = source_kind == LAND and rank(card) < rank(source_card) and state.pool
            return 2 if wakes else 0
        if target in state.enemies:
            return 1 if not _enemy_wins(state.deck) else 6
        if source == K and state.enemies:
            return 5  # leaving the king unguarded while enemies march
        if distance.get(target, 99) < distance.get(source, 99):
            return 3
        return 7
    if what == BUILD_FORT:
        return 4
    if what == DEMOLISH:
        return 9
    return 8  # pass


def _enemy_wins(deck: tuple[int, ...]) -> bool:
    drawn = deck[:3]
    return len(drawn) == 3 and (all(rank(c) <= 3 for c in drawn) or sum(1 for c in drawn if is_diamond(c)) >= 2)


@lru_cache(maxsize=1 << 15)
def distance_to_unknown(cells: tuple[int, ...]) -> dict[int, int]:
    """Steps a person needs from each cell to a face-down card (people cross every cell)."""
    grid = board(cells)
    frontier = [pos for pos, (kind, _) in grid.items() if kind == DOWN]
    distance = dict.fromkeys(frontier, 0)
    for pos in frontier:
        for d in DIRS:
            near = pos + d
            if near in grid and near not in distance:
                distance[near] = distance[pos] + 1
                frontier.append(near)
    return distance


def progress(state: KingsReignState) -> int:
    """How promising a position looks (higher is better): first what can still be scored
    (the bound), then what is already built (farms and forts before cards, as building needs
    time and queens while discovering is what ends the game), people on the board and in
    training, and people close to the face-down frontier; enemies on the board, above all
    an unguarded king, weigh against it.  Only a guide for choosing which lines to follow."""
    if state.phase == OVER:
        return 10 * score(state) + (10_000 if state.ending in (1, 2) else -10_000)
    value = 100 * score_upper_bound(state)
    for c in state.cells:
        kind, card = c >> 5 & 7, c & 31
        if kind in (LAND, FARM, FORT) and card != NO_CARD:
            value += 20
        if kind == FARM:
            value += 40
        elif kind == FORT:
            value += 30
    for p in state.people:
        value += 15 if p >> 2 & 3 == JACK else 10
    value += 6 * len(state.trainees)
    if state.enemies:
        value -= 80 * len(state.enemies)
        if not any(p >> 4 == K for p in state.people):
            value -= 60
    distance = distance_to_unknown(state.cells)
    nearest = min((distance.get(p >> 4, 50) for p in state.people if not p & 3), default=50)
    return value - 3 * nearest
