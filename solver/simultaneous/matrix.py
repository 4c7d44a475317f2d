"""Zero-sum matrix games: the value, and optimal mixes for both sides, by a pure saddle point,
then iterated dominance, then the 2x2 formula, and only then a linear programme (GLOP)."""

from __future__ import annotations

from collections.abc import Sequence

from solver.answers import EPSILON, SeatStats


def matrix_game(matrix: Sequence[Sequence[float]], strategies: bool = False,
                stats: SeatStats | None = None) -> tuple[float, list[float] | None, list[float] | None]:
    """The value of the zero-sum matrix game (rows maximise), and, with `strategies`, an optimal
    mix for each side.  A pure saddle point skips the LP; so do dominated lines and 2x2 games."""
    stats = stats if stats is not None else SeatStats()
    stats.matrix_games += 1
    rows, columns = len(matrix), len(matrix[0])
    row_floors = [min(row) for row in matrix]
    column_ceilings = [max(matrix[r][c] for r in range(rows)) for c in range(columns)]
    maxmin, minmax = max(row_floors), min(column_ceilings)
    if maxmin >= minmax - EPSILON:
        stats.saddles += 1
        if not strategies:
            return maxmin, None, None
        return maxmin, _pure(rows, row_floors.index(maxmin)), _pure(columns, column_ceilings.index(minmax))
    keep_rows, keep_columns = _undominated(matrix)
    reduced = [[matrix[r][c] for c in keep_columns] for r in keep_rows]
    if len(keep_rows) == 2 and len(keep_columns) == 2 and _mixes_fully(reduced):
        value, x, y = _two_by_two(reduced)
    else:
        stats.lps += 1
        value, x = lp_row_player(reduced)
        y = None
        if strategies:
            transposed = [[-reduced[r][c] for r in range(len(keep_rows))] for c in range(len(keep_columns))]
            y = lp_row_player(transposed)[1]
    if not strategies:
        return value, None, None
    return value, _spread(x, keep_rows, rows), _spread(y, keep_columns, columns)


def _undominated(matrix: Sequence[Sequence[float]]) -> tuple[list[int], list[int]]:
    """Rows and columns left by iterated removal of weakly dominated pure lines: the value
    stays, and optimal mixes of what is left are optimal in the whole game."""
    rows, columns = list(range(len(matrix))), list(range(len(matrix[0])))
    changed = True
    while changed and (len(rows) > 1 or len(columns) > 1):
        changed = False
        for r in list(rows):
            if len(rows) > 1 and any(o != r and all(matrix[o][c] >= matrix[r][c] - EPSILON for c in columns)
                                     for o in rows):
                rows.remove(r)
                changed = True
        for c in list(columns):
            if len(columns) > 1 and any(o != c and all(matrix[r][o] <= matrix[r][c] + EPSILON for r in rows)
                                        for o in columns):
                columns.remove(c)
                changed = True
    return rows, columns


def _two_by_two(m: Sequence[Sequence[float]]) -> tuple[float, list[float], list[float]]:
    """A 2x2 game without a saddle point (dominance removed it otherwise): both sides mix."""
    (a, b), (c, d) = m
    denominator = a - b - c + d
    p = (d - c) / denominator
    q = (d - b) / denominator
    return (a * d - b * c) / denominator, [p, 1 - p], [q, 1 - q]


def _mixes_fully(m: Sequence[Sequence[float]]) -> bool:
    """The 2x2 formula holds when each side's best reply flips with the other's choice."""
    (a, b), (c, d) = m
    return abs(a - b - c + d) > EPSILON and (a - c) * (d - b) > 0 and (a - b) * (d - c) > 0


def lp_row_player(matrix: Sequence[Sequence[float]]) -> tuple[float, list[float]]:
    """max v subject to sum_r x_r M[r][c] >= v for every column c, sum x = 1, x >= 0 (GLOP)."""
    from ortools.linear_solver import pywraplp

    # Entries are rounded (GLOP gives up on coefficients such as 1e-17) and shifted to be at
    # least 1, so that v is positive and bounded.
    shift = 1 - min(min(row) for row in matrix)
    solver = pywraplp.Solver.CreateSolver("GLOP")
    x = [solver.NumVar(0.0, 1.0, f"x{r}") for r in range(len(matrix))]
    v = solver.NumVar(0.0, solver.infinity(), "v")
    for c in range(len(matrix[0])):
        solver.Add(sum(x[r] * round(matrix[r][c] + shift, 10) for r in range(len(matrix))) >= v)
    solver.Add(sum(x) == 1)
    solver.Maximize(v)
    if solver.Solve() != pywraplp.Solver.OPTIMAL:
        raise RuntimeError("GLOP found no optimum for a matrix game (every matrix game has one)")
    weights = [max(0.0, var.solution_value()) for var in x]
    total = sum(weights)
    return v.solution_value() - shift, [w / total for w in weights]


def _pure(size: int, index: int) -> list[float]:
    return [1.0 if i == index else 0.0 for i in range(size)]


def _spread(weights: list[float], kept: list[int], size: int) -> list[float]:
    full = [0.0] * size
    for index, weight in zip(kept, weights):
        full[index] = weight
    return full
