"""Move tables shared by the search inner loops.

A *move* is the blank stepping from square ``b`` to a neighbouring square
``s`` (the tile on ``s`` slides to ``b``).  Each ordered pair gets a move id
``m``; per-move, per-tile tables are flat and indexed ``m * N + tile``, so one
addition finds an entry in the inner loop.

``successors[b * (N + 1) + p]`` lists the moves available with the blank on
``b`` when it came from ``p`` (``p = N`` at the root), without the move back
to ``p`` (undoing the previous move never helps).  Vertical and horizontal
moves are listed separately because most bounds update one axis per move.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .board import Shape, neighbours


@dataclass(frozen=True)
class Move:
    blank_from: int
    blank_to: int
    vertical: bool
    forward: bool  # blank moves down (vertical) or right (horizontal)
    jumped: tuple[int, ...]  # squares the sliding tile passes in the reading order of its axis


class MoveTables:
    def __init__(self, shape: Shape):
        self.shape = shape
        n = self.n = shape.size
        cols = shape.cols
        self.moves: list[Move] = []
        ids: dict[tuple[int, int], int] = {}
        for b in range(n):
            for s in neighbours(shape)[b]:
                vertical = abs(s - b) == cols
                lo, hi = min(s, b), max(s, b)
                if vertical:
                    jumped = tuple(range(lo + 1, hi))
                else:
                    # column-major order between the two squares
                    r, c = divmod(lo, cols)
                    jumped = tuple(rr * cols + c for rr in range(r + 1, shape.rows)) + tuple(
                        rr * cols + c + 1 for rr in range(0, r)
                    )
                ids[(b, s)] = len(self.moves)
                self.moves.append(Move(b, s, vertical, s > b, jumped))
        self.ids = ids
        succ_v: list[tuple[tuple[int, int], ...]] = []
        succ_h: list[tuple[tuple[int, int], ...]] = []
        succ_all: list[tuple[tuple[int, int], ...]] = []
        for b in range(n):
            for p in range(n + 1):
                opts = [(s, ids[(b, s)]) for s in neighbours(shape)[b] if s != p]
                succ_v.append(tuple((s, m * n) for s, m in opts if self.moves[m].vertical))
                succ_h.append(tuple((s, m * n) for s, m in opts if not self.moves[m].vertical))
                succ_all.append(tuple((s, m * n) for s, m in opts))
        #: entries are (square the blank moves to, move id * N)
        self.successors_vertical = succ_v
        self.successors_horizontal = succ_h
        self.successors = succ_all

    def per_tile(self, fn) -> list[int]:
        """Flat table ``[m * N + t] = fn(move, t)`` over every move and tile."""
        return [fn(mv, t) for mv in self.moves for t in range(self.n)]


@lru_cache(maxsize=None)
def move_tables(shape: Shape) -> MoveTables:
    return MoveTables(shape)
