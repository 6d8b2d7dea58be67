"""Manhattan distance (MD) and linear conflict (LC).

MD counts, for every tile, the rows and columns between it and its goal square.
Linear conflict adds 2 for every tile that must leave its goal row (or goal
column) to let others pass: in each line, the tiles whose goal is in that line
must keep their goal order, so ``count - longest increasing run`` of them must
step aside and back (Hansson, Mayer and Yung's admissible form).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from fifteen.board import Shape, transpose_tiles


def manhattan(shape: Shape, tiles: Sequence[int]) -> int:
    cols = shape.cols
    total = 0
    for sq, t in enumerate(tiles):
        if t:
            r, c = divmod(sq, cols)
            gr, gc = divmod(t - 1, cols)
            total += abs(r - gr) + abs(c - gc)
    return total


@cache
def manhattan_table(shape: Shape) -> tuple[int, ...]:
    """``table[t * N + square]`` = distance of tile *t* on *square* from home (0 for the blank)."""
    n, cols = shape.size, shape.cols
    out = [0] * (n * n)
    for t in range(1, n):
        gr, gc = divmod(t - 1, cols)
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
        digits, x = [], code
        for _ in range(length):
            x, d = divmod(x, base)
            if d:
                digits.append(d - 1)
        if len(set(digits)) == len(digits):
            out[code] = line_extra(digits)
    return bytes(out)


def row_codes(shape: Shape, tiles: Sequence[int]) -> list[int]:
    """Line codes (see :func:`line_table`) of each row."""
    rows, cols = shape.rows, shape.cols
    base = cols + 1
    codes = [0] * rows
    for sq, t in enumerate(tiles):
        if t:
            r, c = divmod(sq, cols)
            gr, gc = divmod(t - 1, cols)
            if gr == r:
                codes[r] += (gc + 1) * base**c
    return codes


def column_codes(shape: Shape, tiles: Sequence[int]) -> list[int]:
    """Line codes of each column: the row codes of the transposed board."""
    return row_codes(shape.transposed(), transpose_tiles(shape, tiles))


def linear_conflict(shape: Shape, tiles: Sequence[int]) -> int:
    """Extra moves from linear conflicts (add to :func:`manhattan` for the MD+LC bound)."""
    rt, ct = line_table(shape.cols), line_table(shape.rows)
    return sum(rt[c] for c in row_codes(shape, tiles)) + sum(ct[c] for c in column_codes(shape, tiles))
