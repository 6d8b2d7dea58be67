"""The last moves (Korf and Taylor, "Finding optimal solutions to the twenty-four puzzle", AAAI-96):
2 more moves on top of MD + linear conflict where the last move of every solution must take them.

**The rule** (the goal's blank on the last square, bottom right).  Let *A* be the tile whose goal
is left of the blank's goal square and *B* the one whose goal is above it.  The last move of any
solution brings the blank to its goal: it slides *A* left out of the corner or *B* up out of it.
*A* makes that move only after reaching the last column, past its goal column: if it is not in the
last column now, it makes at least 2 horizontal moves more than its Manhattan distance counts.
Likewise *B* makes 2 vertical moves more if it is not in the last row now.  So when *A* is not in
the last column and *B* not in the last row (and the position is not the goal), every solution
has at least 2 moves beyond MD, whichever of the two moves last.

**With linear conflict.**  LC's extra moves are perpendicular moves of tiles that stand in their
goal line: a row's conflicts are vertical moves of its tiles, a column's horizontal ones.  *A*'s
extra moves are horizontal, so they could be ones LC counts only if *A* stands in its goal column
(the last but one) and that column has conflicts; *B*'s likewise in its goal row.  The rule
leaves those two cases out, and the 2 add to MD + LC: ``MD + LC + last moves`` stays admissible
(checked against exact distances on every 3x3, 2x4 and 4x2 position in the tests).

:func:`last_moves` is the value of a position; :func:`last_moves_table` the table the search loop
reads (:data:`fifteen.bounds.manhattan_loop.LAST_MOVES_LOOP`): per pair of squares of *A* and *B*,
0, 2, or 2 with the checks of the two excluded cases still to make.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from fifteen.board import Shape
from fifteen.bounds.manhattan import line_codes, line_extras

#: :func:`last_moves_table`'s flags above 2: the column of *A*'s goal must have no conflicts, the
#: row of *B*'s goal must have none.
CHECK_COLUMN, CHECK_ROW = 1, 4


def last_tiles(shape: Shape, goal: Sequence[int] | None = None) -> tuple[int, int] | None:
    """``(A, B)``: the tiles whose goal squares are left of and above the blank's, for *goal*
    (default the standard goal) with its blank on the last square; ``None`` for any other goal."""
    n, cols = shape.size, shape.cols
    if goal is None:
        return n - 1, n - cols
    if goal[n - 1] != 0:
        return None
    return goal[n - 2], goal[n - 1 - cols]


@lru_cache(maxsize=16)
def last_moves_table(shape: Shape) -> bytes:
    """``table[a * N + b]`` for *A* on square *a* and *B* on square *b*: 0 (*A* in the last column
    or *B* in the last row), else 2 plus :data:`CHECK_COLUMN` when *A* is in its goal column (the
    last but one) and :data:`CHECK_ROW` when *B* is in its goal row: those add 2 only when that
    line has no linear conflict."""
    n, rows, cols = shape.size, shape.rows, shape.cols
    out = bytearray(n * n)
    for a in range(n):
        for b in range(n):
            if a % cols == cols - 1 or b // cols == rows - 1:
                continue
            out[a * n + b] = 2 + (CHECK_COLUMN if a % cols == cols - 2 else 0) + (CHECK_ROW if b // cols == rows - 2 else 0)
    return bytes(out)


def last_moves(shape: Shape, tiles: Sequence[int], goal: Sequence[int] | None = None) -> int:
    """The last moves of a position (its tiles) towards *goal* (default the standard goal): 2 or 0
    (0 as well at the goal, and for a goal whose blank is not on the last square)."""
    pair = last_tiles(shape, goal)
    if pair is None or list(tiles) == list(shape.goal() if goal is None else goal):
        return 0
    where = {t: sq for sq, t in enumerate(tiles)}
    x = last_moves_table(shape)[where[pair[0]] * shape.size + where[pair[1]]]
    if x > 2:
        codes = line_codes(shape, tiles, goal)
        rows, cols = shape.rows, shape.cols
        if x & CHECK_COLUMN and line_extras(rows)[codes[rows + cols - 2]]:
            return 0
        if x & CHECK_ROW and line_extras(cols)[codes[rows - 2]]:
            return 0
    return min(x, 2)


__all__ = ["CHECK_COLUMN", "CHECK_ROW", "last_moves", "last_moves_table", "last_tiles"]
