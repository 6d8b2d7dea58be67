"""Inversion distance (ID), after Ken'ichiro Takahashi, against any goal.

Read the tiles row by row (blank skipped), each tile numbered by the rank of its goal square
in the same reading of the goal.  A horizontal move keeps that order; a vertical move lifts
one tile over the ``cols - 1`` tiles between its square and the blank's, so it changes the
number of inversions by an amount of the same parity as ``cols - 1`` and at most ``cols - 1``
in size.  The goal has no inversions (in its own numbering), so at least
:func:`moves_for_inversions` vertical moves remain — for any goal, wherever its blank is.
Reading column by column, tiles numbered by the column-major rank of their goal squares, gives
the horizontal part the same way (jump ``rows - 1``).  ID = vertical + horizontal.

For the standard goal the vertical numbering is the tile numbers themselves; for 4x4 (jump 3)
this is the seed's ``inv // 3 + inv % 3``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from fifteen.board import Shape, inversions


def moves_for_inversions(inv: int, jump: int) -> int:
    """Fewest moves, each changing the count by at most *jump* with *jump*'s parity, to reach 0."""
    m = -(-inv // jump)
    if jump % 2 and (m - inv) % 2:
        m += 1
    return m


@lru_cache(maxsize=16)
def distance_table(jump: int, max_inversions: int) -> bytes | tuple[int, ...]:
    """``table[inv]`` = :func:`moves_for_inversions` for every possible count (``bytes`` when
    every value fits in a byte, else a tuple: 10x10 needs up to 540 moves)."""
    values = [moves_for_inversions(i, jump) for i in range(max_inversions + 1)]
    return bytes(values) if max(values) < 256 else tuple(values)


def _ranks(order: Sequence[int], goal: Sequence[int]) -> tuple[int, ...]:
    """``labels[t]``: 1 + the rank of tile t among the goal's tiles read in *order* of squares (blank 0)."""
    labels = [0] * len(goal)
    rank = 0
    for sq in order:
        t = goal[sq]
        if t:
            rank += 1
            labels[t] = rank
    return tuple(labels)


@lru_cache(maxsize=16)
def goal_labels(shape: Shape, goal: tuple[int, ...] | None = None) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``(vertical, horizontal)`` numberings of the tiles: ``labels[t]`` is 1 + the rank of tile
    t's goal square in the goal read row by row (vertical) or column by column (horizontal);
    the blank stays 0."""
    rows, cols = shape.rows, shape.cols
    tiles = shape.goal() if goal is None else goal
    row_major = range(shape.size)
    column_major = [r * cols + c for c in range(cols) for r in range(rows)]
    return _ranks(row_major, tiles), _ranks(column_major, tiles)


def vertical_inversions(shape: Shape, tiles: Sequence[int], goal: Sequence[int] | None = None) -> int:
    if goal is None:
        return inversions(tiles)
    labels = goal_labels(shape, tuple(goal))[0]
    return inversions(labels[t] for t in tiles)


def horizontal_inversions(shape: Shape, tiles: Sequence[int], goal: Sequence[int] | None = None) -> int:
    labels = goal_labels(shape, None if goal is None else tuple(goal))[1]
    rows, cols = shape.rows, shape.cols
    return inversions(labels[tiles[r * cols + c]] for c in range(cols) for r in range(rows))


def inversion_distance(shape: Shape, tiles: Sequence[int], goal: Sequence[int] | None = None) -> tuple[int, int]:
    """``(ID_v, ID_h)``: vertical and horizontal inversion distance (to *goal*, default the standard goal)."""
    v = moves_for_inversions(vertical_inversions(shape, tiles, goal), shape.cols - 1)
    h = moves_for_inversions(horizontal_inversions(shape, tiles, goal), shape.rows - 1)
    return v, h
