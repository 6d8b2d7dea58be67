"""Labelled positions and the tables the anytime searches share (one set per shape).

**Labels are target squares.**  The anytime searches look for paths to many targets: the goal,
and the end position of every window of a path being shortened.  So a tile is named by the
square it must reach (:func:`labelled`), and one set of tables per shape (:class:`LabelTables`)
gives Manhattan distance and linear conflict *to any target*: a new target costs one relabelling
of the start (O(N)), not new tables (the package's loops build theirs per goal, ~2 ms on 5x5,
as long as a typical window search).  The prover, which searches towards one goal only, uses the
package's own loops (:mod:`fifteen.search.ida`).

The line codes are those of :mod:`fifteen.bounds.manhattan` (base ``L + 1``, one digit per cell,
its :func:`~fifteen.bounds.manhattan.line_table`), rows' codes first and columns' offset by
``col_off`` in one table, so a single successor list serves both axes.  When a line is longer
than :data:`~fifteen.bounds.manhattan.LINE_TABLE_MAX` (7 to 10 squares) the table is a
:class:`LongLines` (a dict filled as codes are met, as the package's loops do for such lines).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from fifteen.board import Shape, neighbours
from fifteen.bounds.manhattan import LINE_TABLE_MAX, LineExtras, line_table


def labelled(tiles: Sequence[int], target: Sequence[int]) -> list[int]:
    """*tiles* with each tile (and the blank) named by its square in *target*."""
    where = [0] * len(target)
    for sq, t in enumerate(target):
        where[t] = sq
    return [where[t] for t in tiles]


class LongLines(dict):
    """The searches' line-conflict table (``lt``) of a shape whose rows or columns are longer than
    :data:`~fifteen.bounds.manhattan.LINE_TABLE_MAX`: rows' codes below *col_off*, columns' from
    it, each value computed when its code is first met (:class:`~fifteen.bounds.manhattan.LineExtras`)."""

    def __init__(self, rows: int, cols: int, col_off: int) -> None:
        super().__init__()
        self.col_off = col_off
        self.row_lines, self.col_lines = LineExtras(cols), LineExtras(rows)

    def __missing__(self, code: int) -> int:
        if len(self) >= LineExtras.limit:
            self.clear()
        value = self[code] = self.row_lines[code] if code < self.col_off else self.col_lines[code - self.col_off]
        return value


class LabelTables:
    """Move and bound tables of one shape, for labelled positions (see the module docstring).

    ``succ[state]`` lists the moves allowed after the move ``state`` (the undo move removed;
    states ``moves + b`` start a search with the blank on ``b``) as ``(s, m * N, next_state, l1,
    l2, l3)``: the blank goes to ``s`` (the tile there slides to the blank's square), ``l1``/``l2``
    are the lines the tile leaves and enters across the move, ``l3`` the line along it.
    ``mdd[m * N + t]``: change of MD when tile *t* makes move *m*; ``d1``/``d2``/``d3`` the
    line-code changes; ``lt`` the line-conflict table (columns' codes offset by ``col_off``).
    """

    def __init__(self, shape: Shape):
        self.shape = shape
        rows, cols = self.rows, self.cols = shape.rows, shape.cols
        n = self.n = shape.size
        self.nbrs = neighbours(shape)
        frm: list[int] = []
        to: list[int] = []
        from_sq: list[list[int]] = [[] for _ in range(n)]
        for b in range(n):
            for s in self.nbrs[b]:
                from_sq[b].append(len(frm))
                frm.append(b)
                to.append(s)
        nmoves = self.moves = len(frm)
        self.move_squares = list(zip(frm, to, strict=True))  # move m: the blank goes from frm[m] to to[m]
        ids = {(frm[m], to[m]): m for m in range(nmoves)}
        rev = [ids[(to[m], frm[m])] for m in range(nmoves)]
        md = [0] * (n * n)
        for t in range(n):
            tr, tc = divmod(t, cols)
            for sq in range(n):
                r, c = divmod(sq, cols)
                md[t * n + sq] = abs(r - tr) + abs(c - tc)
        self.md = md
        rb, cb = cols + 1, rows + 1

        def row_digit(sq: int, t: int) -> int:
            r, c = divmod(sq, cols)
            tr, tc = divmod(t, cols)
            return (tc + 1) * rb**c if tr == r else 0

        def col_digit(sq: int, t: int) -> int:
            r, c = divmod(sq, cols)
            tr, tc = divmod(t, cols)
            return (tr + 1) * cb**r if tc == c else 0

        self.row_digit, self.col_digit = row_digit, col_digit
        self.lt: bytes | LongLines
        if max(rows, cols) <= LINE_TABLE_MAX:
            rt, ct = line_table(cols), line_table(rows)
            self.col_off = len(rt)
            self.lt = rt + ct
        else:
            self.col_off = rb**cols
            self.lt = LongLines(rows, cols, self.col_off)
        mdd = [0] * (nmoves * n)
        d1 = [0] * (nmoves * n)
        d2 = [0] * (nmoves * n)
        d3 = [0] * (nmoves * n)
        entries = []
        for m in range(nmoves):
            b, s = frm[m], to[m]
            vertical = abs(s - b) == cols
            across, along = (row_digit, col_digit) if vertical else (col_digit, row_digit)
            for t in range(n):
                i = m * n + t
                mdd[i] = md[t * n + b] - md[t * n + s]
                d1[i] = -across(s, t)
                d2[i] = across(b, t)
                d3[i] = along(b, t) - along(s, t)
            if vertical:
                l1, l2, l3 = s // cols, b // cols, rows + s % cols
            else:
                l1, l2, l3 = rows + s % cols, rows + b % cols, s // cols
            entries.append((s, m * n, m, l1, l2, l3))
        self.mdd, self.d1, self.d2, self.d3 = mdd, d1, d2, d3
        self.succ: list[tuple[tuple[int, int, int, int, int, int], ...]] = [
            tuple(entries[m2] for m2 in from_sq[to[m]] if m2 != rev[m]) for m in range(nmoves)
        ] + [tuple(entries[m2] for m2 in from_sq[b]) for b in range(n)]

    def start_state(self, blank: int) -> int:
        return self.moves + blank

    def codes(self, board: Sequence[int], blank: int) -> list[int]:
        """Line codes of a labelled board: rows ``0..R-1``, then columns (offset by ``col_off``)."""
        rows, cols = self.rows, self.cols
        codes = [0] * rows + [self.col_off] * cols
        for sq in range(self.n):
            if sq != blank:
                t = board[sq]
                codes[sq // cols] += self.row_digit(sq, t)
                codes[rows + sq % cols] += self.col_digit(sq, t)
        return codes

    def value(self, board: Sequence[int], blank: int) -> tuple[int, list[int]]:
        """``(MD + LC, line codes)`` of a labelled board (the searches' incremental bound)."""
        n, md = self.n, self.md
        h = sum(md[board[sq] * n + sq] for sq in range(n) if sq != blank)
        codes = self.codes(board, blank)
        lt = self.lt
        return h + sum(lt[c] for c in codes), codes

    def distance(self, a: int, b: int) -> int:
        """Rows plus columns between squares *a* and *b*."""
        return self.md[a * self.n + b]


def traced_path(parents: Sequence[Any], moved: Sequence[Any], square: int, parent: int) -> list[int]:
    """The blank's squares from a beam's start to a position found from its last layer's *parent*
    (an index) by the blank going to *square*.  A beam records, for each layer, each kept
    position's parent (its index in the layer before: *parents*) and the blank's square
    (*moved*)."""
    path = [square]
    for d in range(len(parents) - 1, -1, -1):
        path.append(int(moved[d][parent]))
        parent = int(parents[d][parent])
    path.reverse()
    return path


@cache
def label_tables(shape: Shape) -> LabelTables:
    """The (cached) :class:`LabelTables` of *shape*."""
    return LabelTables(shape)


__all__ = ["LabelTables", "label_tables", "labelled", "traced_path"]
