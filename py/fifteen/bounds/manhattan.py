"""Manhattan distance (MD) and linear conflict (LC), against any goal.

MD counts, for every tile, the rows and columns between it and its goal square.
Linear conflict adds 2 for every tile that must leave its goal row (or goal
column) to let others pass: in each line, the tiles whose goal is in that line
must keep their goal order, so ``count - longest increasing run`` of them must
step aside and back (Hansson, Mayer and Yung's admissible form).

**The goal as data.**  Every function takes an optional *goal* (a position, tiles by
square; ``None``: the standard goal ``1 .. N-1, 0``) and reads it as a goal square per tile
(:func:`goal_squares`).  Both bounds hold for any goal: MD because a tile moves one square
per move, LC because the tiles whose goal square is in a line must end in their goal order
along it, whatever the goal.  The search loops take the same *goal* and build their per-move
tables from it once (no cost per node).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache

from fifteen.board import Shape, tile_squares

#: Lines up to this long get a table of every line code (``(L + 1) ** L`` bytes: 117,649 for
#: 6); longer ones (7 to 10 squares) a :class:`LineExtras` filled as codes are met.
LINE_TABLE_MAX = 6


def goal_squares(shape: Shape, goal: Sequence[int] | None = None) -> tuple[int, ...]:
    """``home[t]``: the goal square of tile t (``home[0]``: the blank's) for *goal* (default:
    the standard goal, tile t on square t - 1)."""
    if goal is None:
        return (shape.size - 1,) + tuple(range(shape.size - 1))
    return tuple(tile_squares(goal))


def manhattan(shape: Shape, tiles: Sequence[int], goal: Sequence[int] | None = None) -> int:
    cols = shape.cols
    home = goal_squares(shape, goal)
    total = 0
    for sq, t in enumerate(tiles):
        if t:
            r, c = divmod(sq, cols)
            gr, gc = divmod(home[t], cols)
            total += abs(r - gr) + abs(c - gc)
    return total


@lru_cache(maxsize=8)
def manhattan_table(shape: Shape, goal: tuple[int, ...] | None = None) -> tuple[int, ...]:
    """``table[t * N + square]`` = distance of tile *t* on *square* from its goal square (0 for the blank)."""
    n, cols = shape.size, shape.cols
    home = goal_squares(shape, goal)
    out = [0] * (n * n)
    for t in range(1, n):
        gr, gc = divmod(home[t], cols)
        for sq in range(n):
            r, c = divmod(sq, cols)
            out[t * n + sq] = abs(r - gr) + abs(c - gc)
    return tuple(out)


def _longest_increasing(seq: Sequence[int]) -> int:
    best: list[int] = []
    for x in seq:
        lo, hi = 0, len(best)
        while lo < hi:
            mid = (lo + hi) // 2
            if best[mid] < x:
                lo = mid + 1
            else:
                hi = mid
        if lo == len(best):
            best.append(x)
        else:
            best[lo] = x
    return len(best)


def line_extra(goal_positions: Sequence[int]) -> int:
    """Extra moves forced in one line whose own tiles have these goal positions, in order."""
    return 2 * (len(goal_positions) - _longest_increasing(goal_positions))


def _decode(code: int, base: int) -> list[int]:
    """The goal positions of a line code's tiles, in the line's order (see :func:`line_table`)."""
    digits = []
    while code:
        code, d = divmod(code, base)
        if d:
            digits.append(d - 1)
    return digits


@cache
def line_table(length: int) -> bytes:
    """Extra moves of a line by its code.

    A line of *length* cells is coded in base ``length + 1``: cell ``i``
    contributes ``digit * (length + 1) ** i`` where ``digit`` is 1 + the goal
    position (in the line) of a tile that belongs to the line, 0 otherwise.
    """
    base = length + 1
    out = bytearray(base**length)
    for code in range(base**length):
        digits = _decode(code, base)
        if len(set(digits)) == len(digits):
            out[code] = line_extra(digits)
    return bytes(out)


class LineExtras(dict):
    """Extra moves of a line by its code (as :func:`line_table`), for lines too long for a
    table: each code's value is computed the first time it is looked up and kept, at most
    :attr:`limit` of them (then the cache starts afresh)."""

    limit = 1 << 20

    def __init__(self, length: int) -> None:
        super().__init__()
        self.base = length + 1

    def __missing__(self, code: int) -> int:
        if len(self) >= self.limit:
            self.clear()
        value = self[code] = line_extra(_decode(code, self.base))
        return value


def line_extras(length: int) -> bytes | LineExtras:
    """The extra moves of lines of *length* cells by code: :func:`line_table`, or a
    :class:`LineExtras` for lines longer than :data:`LINE_TABLE_MAX` (a new one per call)."""
    return line_table(length) if length <= LINE_TABLE_MAX else LineExtras(length)


def line_codes(shape: Shape, tiles: Sequence[int], goal: Sequence[int] | None = None) -> list[int]:
    """Line codes (see :func:`line_table`) of every row, then of every column."""
    rows, cols = shape.rows, shape.cols
    home = goal_squares(shape, goal)
    codes = [0] * (rows + cols)
    for sq, t in enumerate(tiles):
        if t:
            r, c = divmod(sq, cols)
            gr, gc = divmod(home[t], cols)
            if gr == r:
                codes[r] += (gc + 1) * (cols + 1) ** c
            if gc == c:
                codes[rows + c] += (gr + 1) * (rows + 1) ** r
    return codes


def linear_conflict(shape: Shape, tiles: Sequence[int], goal: Sequence[int] | None = None) -> int:
    """Extra moves from linear conflicts (add to :func:`manhattan` for the MD+LC bound)."""
    rows = shape.rows
    codes = line_codes(shape, tiles, goal)
    return sum(line_extra(_decode(code, shape.cols + 1)) for code in codes[:rows]) + sum(
        line_extra(_decode(code, rows + 1)) for code in codes[rows:]
    )
