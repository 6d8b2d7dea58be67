"""Board geometry for the builders: neighbour squares and the blank's regions (numpy)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

#: The four directions as (row step, column step): up, down, left, right.
DIRECTIONS = ((-1, 0), (1, 0), (0, -1), (0, 1))


def neighbour_tables(rows: int, cols: int) -> list[list[int]]:
    """For each of the 4 :data:`DIRECTIONS`, the target square of each square (-1: off the board)."""
    out = []
    for dr, dc in DIRECTIONS:
        targets = []
        for p in range(rows * cols):
            r, c = divmod(p, cols)
            r2, c2 = r + dr, c + dc
            targets.append(r2 * cols + c2 if 0 <= r2 < rows and 0 <= c2 < cols else -1)
        out.append(targets)
    return out


def region_table(rows: int, cols: int) -> npt.NDArray[np.uint16]:
    """``reg[s, free]`` = the connected region of square s within the square set *free*.

    (a bit mask; 0 when s is not in *free*).  Shape (N, 2**N), uint16.
    """
    n = rows * cols
    full = (1 << n) - 1
    not_first_col = 0
    not_last_col = 0
    for p in range(n):
        if p % cols != 0:
            not_first_col |= 1 << p
        if p % cols != cols - 1:
            not_last_col |= 1 << p
    free = np.arange(1 << n, dtype=np.uint32)
    reg = np.empty((n, 1 << n), dtype=np.uint16)
    for s in range(n):
        r: npt.NDArray[np.integer] = free & np.uint32(1 << s)
        while True:
            grow = ((r << 1) & not_first_col) | ((r >> 1) & not_last_col) | (r << cols) | (r >> cols)
            nr = (r | grow) & free & full
            if np.array_equal(nr, r):
                break
            r = nr
        reg[s] = r
    return reg
