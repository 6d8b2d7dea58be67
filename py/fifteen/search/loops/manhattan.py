"""The Manhattan family's loops: MD and MD + linear conflict (tables and snippets for :mod:`fifteen.search.loops.template`).

Both factories follow the searcher contract of :func:`fifteen.search.ida.ida_star`:
``factory(shape, board, tick, *, tables=None, state=None) -> Searcher``.
"""

from __future__ import annotations

from functools import cache

from fifteen.board import Shape
from fifteen.bounds.manhattan import column_codes, line_table, manhattan, manhattan_table, row_codes
from fifteen.search.loops.template import Children, Loop, LoopProgram, Searcher, Tick
from fifteen.search.moves import MoveTables, tables_for

#: The names both loops share.
_LEGEND = (
    ("m", "the move's id times N (the squares): m + t indexes the per-move, per-tile tables"),
    ("mdd", "mdd[m + t]: the change of the Manhattan distance when tile t makes move m"),
)

#: MD: the child's value is the parent's plus the change of the moving tile's distance.
MD_LOOP = Loop(
    name="md",
    args=("hp",),
    hot=("succ", "mdd"),
    children=(Children(table="succ", fields=("s", "m", "st"), value=("h = hp + mdd[m + t]",), child=("h",)),),
    about="Manhattan distance",
    legend=(
        ("hp", "the node's Manhattan distance"),
        ("succ", "succ[state]: the moves the automaton allows in this state, as entries (s, m, st)"),
        *_LEGEND,
    ),
)


def _lc_children(axis: str, lines_table: str) -> Children:
    # A move changes the conflicts of the two lines across it (l1 left by the tile, l2
    # entered: rows for a vertical move, columns for a horizontal one) and re-codes the
    # line along it (l3), whose order is unchanged.
    return Children(
        table="succ_" + axis,
        fields=("s", "m", "st", "l1", "l2", "l3"),
        value=(
            "mt = m + t",
            "c1 = codes[l1]",
            "c2 = codes[l2]",
            "n1 = c1 + d1[mt]",
            "n2 = c2 + d2[mt]",
            f"h = hp + mdd[mt] + {lines_table}[n1] - {lines_table}[c1] + {lines_table}[n2] - {lines_table}[c2]",
        ),
        child=("h",),
        apply=("d = d3[mt]", "codes[l1] = n1", "codes[l2] = n2", "codes[l3] += d"),
        restore=("codes[l1] = c1", "codes[l2] = c2", "codes[l3] -= d"),
    )


#: MD + LC: line codes (:func:`fifteen.bounds.manhattan.line_table`) for every row (``codes[0..R-1]``)
#: and column (``codes[R..]``), vertical and horizontal moves in separate lists.
LC_LOOP = Loop(
    name="lc",
    args=("hp",),
    hot=("succ_v", "succ_h", "codes", "mdd", "d1", "d2", "d3", "row_lc", "col_lc"),
    children=(_lc_children("v", "row_lc"), _lc_children("h", "col_lc")),
    about="Manhattan distance + linear conflict",
    legend=(
        ("hp", "the node's MD + linear conflict"),
        ("succ_v", "succ_v[state]: the vertical moves the automaton allows, as entries (s, m, st, l1, l2, l3)"),
        ("succ_h", "succ_h[state]: the horizontal ones"),
        (
            "codes",
            "the line code of every row (codes[0..R-1]) and column (codes[R..]): a digit per cell for a tile of"
            " that line, 1 + its goal place in the line (fifteen.bounds.manhattan.line_table)",
        ),
        *_LEGEND,
        ("d1", "d1[m + t]: the change of the code of the line tile t leaves (l1) when it makes move m"),
        ("d2", "d2[m + t]: the change of the code of the line it enters (l2)"),
        ("d3", "d3[m + t]: the change of the code of the line it moves along (l3)"),
        ("row_lc", "row_lc[code]: the linear-conflict moves of a row of that code"),
        ("col_lc", "col_lc[code]: those of a column"),
        ("l1", "the line (an index into codes) the tile leaves: a row for a vertical move, a column for a horizontal one"),
        ("l2", "the line it enters"),
        ("l3", "the line it moves along (its code changes, its conflicts do not)"),
    ),
)


def md_deltas(tables: MoveTables) -> list[int]:
    """``[m * N + t]``: change of MD when tile *t* makes move *m*."""
    md = manhattan_table(tables.shape)
    n = tables.n
    return tables.per_tile(lambda mv, t: md[t * n + mv.blank_from] - md[t * n + mv.blank_to])


@cache
def _md_program(tables: MoveTables) -> LoopProgram:
    return LoopProgram(MD_LOOP, {"succ": tables.successors, "mdd": md_deltas(tables)})


def manhattan_searcher(
    shape: Shape, board: list[int], tick: Tick, *, tables: MoveTables | None = None, state: int | None = None
) -> Searcher:
    """IDA* bounded by the Manhattan distance."""
    tables = tables or tables_for(shape, board)
    h0 = manhattan(shape, board)
    return _md_program(tables).searcher(board, tick, tables, state, h0, (h0,), {})


@cache
def _lc_program(tables: MoveTables) -> LoopProgram:
    shape = tables.shape
    n = tables.n
    rows, cols = shape.rows, shape.cols
    rb, cb = cols + 1, rows + 1

    def row_digit(sq: int, t: int) -> int:
        r, c = divmod(sq, cols)
        gr, gc = divmod(t - 1, cols)
        return (gc + 1) * rb**c if t and gr == r else 0

    def col_digit(sq: int, t: int) -> int:
        r, c = divmod(sq, cols)
        gr, gc = divmod(t - 1, cols)
        return (gr + 1) * cb**r if t and gc == c else 0

    # For move m (tile t from square s = blank_to to square b = blank_from): lines l1 (left
    # by the tile) and l2 (entered) change conflicts; l3 is re-coded.
    line1 = [0] * len(tables.moves)
    line2 = [0] * len(tables.moves)
    line3 = [0] * len(tables.moves)
    for i, mv in enumerate(tables.moves):
        s, b = mv.blank_to, mv.blank_from
        if mv.vertical:
            line1[i], line2[i], line3[i] = s // cols, b // cols, rows + s % cols
        else:
            line1[i], line2[i], line3[i] = rows + s % cols, rows + b % cols, s // cols
    d1 = tables.per_tile(lambda mv, t: -(row_digit if mv.vertical else col_digit)(mv.blank_to, t))
    d2 = tables.per_tile(lambda mv, t: (row_digit if mv.vertical else col_digit)(mv.blank_from, t))
    d3 = tables.per_tile(
        lambda mv, t: (
            (col_digit if mv.vertical else row_digit)(mv.blank_from, t) - (col_digit if mv.vertical else row_digit)(mv.blank_to, t)
        )
    )

    def expand(table):  # successors carry (s, m*N, next state, l1, l2, l3)
        return [tuple((s, m, st, line1[m // n], line2[m // n], line3[m // n]) for s, m, st in entry) for entry in table]

    static = {
        "succ_v": expand(tables.successors_vertical),
        "succ_h": expand(tables.successors_horizontal),
        "mdd": md_deltas(tables),
        "d1": d1,
        "d2": d2,
        "d3": d3,
        "row_lc": line_table(cols),
        "col_lc": line_table(rows),
    }
    return LoopProgram(LC_LOOP, static)


def linear_conflict_searcher(
    shape: Shape, board: list[int], tick: Tick, *, tables: MoveTables | None = None, state: int | None = None
) -> Searcher:
    """IDA* bounded by MD + linear conflict."""
    tables = tables or tables_for(shape, board)
    program = _lc_program(tables)
    codes = row_codes(shape, board) + column_codes(shape, board)
    row_lc, col_lc = program.static["row_lc"], program.static["col_lc"]
    rows = shape.rows
    h0 = manhattan(shape, board) + sum(row_lc[c] for c in codes[:rows]) + sum(col_lc[c] for c in codes[rows:])
    return program.searcher(board, tick, tables, state, h0, (h0,), {"codes": codes})


__all__ = ["LC_LOOP", "MD_LOOP", "linear_conflict_searcher", "manhattan_searcher", "md_deltas"]
