"""Inversion distance (ID), after Ken'ichiro Takahashi.

Read the tiles row by row (blank skipped).  A horizontal move keeps that order;
a vertical move lifts one tile over the ``cols - 1`` tiles between its square
and the blank's, so it changes the number of inversions by an amount of the
same parity as ``cols - 1`` and at most ``cols - 1`` in size.  The goal has no
inversions, so at least :func:`moves_for_inversions` vertical moves remain.
Reading column by column, with tiles renumbered in column order, gives the
horizontal part the same way (jump ``rows - 1``).  ID = vertical + horizontal.

For 4x4 (jump 3) this is the seed's ``inv // 3 + inv % 3``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from fifteen.board import Shape, inversions


def moves_for_inversions(inv: int, jump: int) -> int:
    """Fewest moves, each changing the count by at most *jump* with *jump*'s parity, to reach 0."""
    m = -(-inv // jump)
    if jump % 2 and (m - inv) % 2:
        m += 1
    return m


@cache
def distance_table(jump: int, max_inversions: int) -> bytes:
    """``table[inv]`` = :func:`moves_for_inversions` for every possible count."""
    return bytes(moves_for_inversions(i, jump) for i in range(max_inversions + 1))


@cache
def column_labels(shape: Shape) -> tuple[int, ...]:
    """``labels[t]``: tile *t* renumbered by its goal square's column-major rank (blank stays 0)."""
    rows, cols = shape.rows, shape.cols
    labels = [0] * shape.size
    for t in range(1, shape.size):
        r, c = divmod(t - 1, cols)
        labels[t] = c * rows + r + 1
    return tuple(labels)


def vertical_inversions(shape: Shape, tiles: Sequence[int]) -> int:
    return inversions(tiles)


def horizontal_inversions(shape: Shape, tiles: Sequence[int]) -> int:
    labels = column_labels(shape)
    rows, cols = shape.rows, shape.cols
    return inversions(labels[tiles[r * cols + c]] for c in range(cols) for r in range(rows))


def inversion_distance(shape: Shape, tiles: Sequence[int]) -> tuple[int, int]:
    """``(ID_v, ID_h)``: vertical and horizontal inversion distance."""
    v = moves_for_inversions(vertical_inversions(shape, tiles), shape.cols - 1)
    h = moves_for_inversions(horizontal_inversions(shape, tiles), shape.rows - 1)
    return v, h
