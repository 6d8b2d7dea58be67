"""The Manhattan family's loops: MD and MD + linear conflict (tables and snippets for :mod:`fifteen.search.template`).

Both factories follow the searcher contract of :func:`fifteen.search.ida.ida_star`:
``factory(shape, board, tick, *, tables=None, state=None, goal=None) -> Searcher``.  The goal
is data: the per-move, per-tile tables are built from its goal squares once per (move tables,
goal) and kept (a few at a time), so the loop is the same for every goal and costs nothing
more per node.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache, partial

from fifteen.board import Shape
from fifteen.bounds.corner_tiles import corner_lines, corner_pairs, corner_tiles
from fifteen.bounds.last_moves import last_moves, last_moves_table, last_tiles
from fifteen.bounds.manhattan import goal_squares, line_codes, line_extras, linear_conflict, manhattan, manhattan_table
from fifteen.search.moves import MoveTables, normal_goal, tables_for
from fifteen.search.template import Children, Loop, LoopProgram, Searcher, Tick

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


def _last_moves_lines(axis: str) -> tuple[str, ...]:
    # Only where the 2 would cut (h + 2 > budget): the squares of A and B after the move, the
    # table's entry, and the conflicts of A's goal column and B's goal row after the move (a
    # vertical move changes rows' conflicts only, a horizontal one columns').
    column = "n1 if l1 == col_a else n2 if l2 == col_a else codes[col_a]" if axis == "h" else "codes[col_a]"
    row = "n1 if l1 == row_b else n2 if l2 == row_b else codes[row_b]" if axis == "v" else "codes[row_b]"
    return (
        "h2 = h",
        "if h >= budget - 1 and h:",
        "    x = lmt[(b if t == lma else square_of[lma]) * nn + (b if t == lmb else square_of[lmb])]",
        "    if x > 2:",
        f"        if x & 1 and col_lc[{column}]:",
        "            x = 0",
        f"        elif x & 4 and row_lc[{row}]:",
        "            x = 0",
        "        else:",
        "            x = 2",
        "    h2 = h + x",
    )


def _corner_lines(along: str) -> tuple[str, ...]:
    # Only for the moves the successor entry flags (k, fifteen.bounds.corner_tiles): the move
    # runs along a line with corner pairs, to or from a pair's C or X (1: the line's corner tiles
    # may change, its conflicts not; elsewhere along it they do not change); the
    # blank reaches a pair's corner (2: the pair's exception, x on X and c on Y, takes 2 off what
    # the lines' tables count) or leaves one (4: the parent's exception no longer holds).
    return (
        "if k:",
        "    if k & 1:",
        "        c3 = codes[l3]",
        f"        h += {along}[c3 + d3[mt]] - {along}[c3]",
        "    if k & 2:",
        "        for cx, cxt, cy, cct in pairs_at[s]:",
        "            if (t if b == cx else board[cx]) == cxt and (t if b == cy else board[cy]) == cct:",
        "                h -= 2",
        "    if k & 4:",
        "        for cx, cxt, cy, cct in pairs_at[b]:",
        "            if board[cx] == cxt and board[cy] == cct:",
        "                h += 2",
    )


def _lc_children(axis: str, lines_table: str, last_moves: bool = False, corners: bool = False) -> Children:
    # A move changes the conflicts of the two lines across it (l1 left by the tile, l2
    # entered: rows for a vertical move, columns for a horizontal one) and re-codes the
    # line along it (l3), whose order is unchanged.  With the corner tiles the lines' tables
    # hold them too, and a few moves change more (_corner_lines).
    return Children(
        table="succ_" + axis,
        fields=("s", "m", "st", "l1", "l2", "l3") + (("k",) if corners else ()),
        value=(
            "mt = m + t",
            "c1 = codes[l1]",
            "c2 = codes[l2]",
            "n1 = c1 + d1[mt]",
            "n2 = c2 + d2[mt]",
            f"h = hp + mdd[mt] + {lines_table}[n1] - {lines_table}[c1] + {lines_table}[n2] - {lines_table}[c2]",
        )
        + (_corner_lines("col_lc" if lines_table == "row_lc" else "row_lc") if corners else ()),
        child=("h",),
        second=_last_moves_lines(axis) if last_moves else (),
        apply=("d = d3[mt]", "codes[l1] = n1", "codes[l2] = n2", "codes[l3] += d") + (("square_of[t] = b",) if last_moves else ()),
        restore=("codes[l1] = c1", "codes[l2] = c2", "codes[l3] -= d") + (("square_of[t] = s",) if last_moves else ()),
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


def _last_moves_loop(corners: bool) -> Loop:
    """LC's loop with the last moves, and with *corners* the corner tiles too."""
    legend = {name: meaning for name, meaning in LC_LOOP.legend}
    legend.update(
        square_of="square_of[t]: the square of tile t",
        lmt="lmt[a * N + b]: the last moves with A on a and B on b (fifteen.bounds.last_moves.last_moves_table)",
        lma="A, the tile whose goal is left of the blank's goal square (the last square)",
        lmb="B, the tile whose goal is above it",
        nn="N, the number of squares",
        col_a="the index in codes of A's goal column (the last but one)",
        row_b="the index in codes of B's goal row (the last but one)",
        x="the child's last moves: 0 or 2 (above 2: lmt's entry, its line checks still to make)",
    )
    if corners:
        legend.update(
            hp="the node's MD + linear conflict + corner tiles (fifteen.bounds.corner_tiles)",
            k="the move's corner flags: 1 it runs along a line with corner pairs, to or from a pair's C or X; 2 the"
            " blank reaches a pair's corner; 4 it leaves one",
            pairs_at="pairs_at[sq]: the pairs of the corner sq as (X, x, Y, c) (fifteen.bounds.corner_tiles.corner_pairs)",
            c3="the code of the line along the move, before it",
        )
    return Loop(
        name="lclm",
        args=("hp",),
        hot=LC_LOOP.hot + ("square_of", "lmt", "lma", "lmb", "nn", "col_a", "row_b") + (("pairs_at",) if corners else ()),
        children=(
            _lc_children("v", "row_lc", last_moves=True, corners=corners),
            _lc_children("h", "col_lc", last_moves=True, corners=corners),
        ),
        about="Manhattan distance + linear conflict + last moves" + (" + corner tiles" if corners else ""),
        legend=tuple(legend.items()),
    )


#: MD + LC + the last moves (:mod:`fifteen.bounds.last_moves`): LC's loop, and for the children
#: that 2 more would cut a second value ``h2`` (the squares of the two last tiles kept in ``square_of``).
LAST_MOVES_LOOP = _last_moves_loop(corners=False)
#: The same with the corner tiles (:mod:`fifteen.bounds.corner_tiles`, boards that have corner pairs):
#: the lines' tables hold them, and the successor entries flag the few moves that change more.
CORNER_TILES_LOOP = _last_moves_loop(corners=True)


def last_moves_loop(shape: Shape) -> Loop:
    """The bound ``lclm``'s loop on *shape*: with the corner tiles where it has corner pairs."""
    return CORNER_TILES_LOOP if corner_pairs(shape) else LAST_MOVES_LOOP


def md_deltas(tables: MoveTables, goal: tuple[int, ...] | None = None) -> list[int]:
    """``[m * N + t]``: change of MD when tile *t* makes move *m* (towards *goal*, default the standard goal)."""
    md = manhattan_table(tables.shape, goal)
    n = tables.n
    return tables.per_tile(lambda mv, t: md[t * n + mv.blank_from] - md[t * n + mv.blank_to])


@lru_cache(maxsize=8)
def _md_program(tables: MoveTables, goal: tuple[int, ...] | None) -> LoopProgram:
    return LoopProgram(MD_LOOP, {"succ": tables.successors, "mdd": md_deltas(tables, goal)})


def manhattan_searcher(
    shape: Shape,
    board: list[int],
    tick: Tick,
    *,
    tables: MoveTables | None = None,
    state: int | None = None,
    goal: Sequence[int] | None = None,
) -> Searcher:
    """IDA* bounded by the Manhattan distance."""
    goal = normal_goal(shape, goal)
    tables = tables or tables_for(shape, board, goal)
    h0 = manhattan(shape, board, goal)
    return _md_program(tables, goal).searcher(board, tick, tables, state, h0, (h0,), {}, goal)


@lru_cache(maxsize=4)
def _lc_successors(tables: MoveTables) -> tuple[list, list]:
    """The vertical and horizontal successor lists, each entry with the lines the move changes:
    ``(s, m * N, next state, l1, l2, l3)`` (the same for every goal)."""
    shape = tables.shape
    n = tables.n
    rows, cols = shape.rows, shape.cols
    # For move m (tile t from square s = blank_to to square b = blank_from): lines l1 (left
    # by the tile) and l2 (entered) change conflicts; l3 is re-coded.
    lines = []
    for mv in tables.moves:
        s, b = mv.blank_to, mv.blank_from
        if mv.vertical:
            lines.append((s // cols, b // cols, rows + s % cols))
        else:
            lines.append((rows + s % cols, rows + b % cols, s // cols))

    def expand(table):
        return [tuple((s, m, st) + lines[m // n] for s, m, st in entry) for entry in table]

    return expand(tables.successors_vertical), expand(tables.successors_horizontal)


@lru_cache(maxsize=8)
def _lc_program(tables: MoveTables, goal: tuple[int, ...] | None) -> LoopProgram:
    shape = tables.shape
    rows, cols = shape.rows, shape.cols
    rb, cb = cols + 1, rows + 1
    home = goal_squares(shape, goal)

    def row_digit(sq: int, t: int) -> int:
        r, c = divmod(sq, cols)
        gr, gc = divmod(home[t], cols)
        return (gc + 1) * rb**c if t and gr == r else 0

    def col_digit(sq: int, t: int) -> int:
        r, c = divmod(sq, cols)
        gr, gc = divmod(home[t], cols)
        return (gr + 1) * cb**r if t and gc == c else 0

    d1 = tables.per_tile(lambda mv, t: -(row_digit if mv.vertical else col_digit)(mv.blank_to, t))
    d2 = tables.per_tile(lambda mv, t: (row_digit if mv.vertical else col_digit)(mv.blank_from, t))
    d3 = tables.per_tile(
        lambda mv, t: (
            (col_digit if mv.vertical else row_digit)(mv.blank_from, t) - (col_digit if mv.vertical else row_digit)(mv.blank_to, t)
        )
    )
    succ_v, succ_h = _lc_successors(tables)
    static = {
        "succ_v": succ_v,
        "succ_h": succ_h,
        "mdd": md_deltas(tables, goal),
        "d1": d1,
        "d2": d2,
        "d3": d3,
        "row_lc": line_extras(cols),
        "col_lc": line_extras(rows),
    }
    return LoopProgram(LC_LOOP, static)


@lru_cache(maxsize=8)
def _lm_program(tables: MoveTables, goal: tuple[int, ...] | None) -> LoopProgram:
    shape = tables.shape
    pair = last_tiles(shape, goal)
    if pair is None:
        raise ValueError("the last moves need the goal's blank on the last square")
    static = dict(_lc_program(tables, goal).static)
    static.update(
        lmt=last_moves_table(shape),
        lma=pair[0],
        lmb=pair[1],
        nn=shape.size,
        col_a=shape.rows + shape.cols - 2,
        row_b=shape.rows - 2,
    )
    pairs = corner_pairs(shape, goal)
    if not pairs:
        return LoopProgram(LAST_MOVES_LOOP, static)
    row_lc, col_lc, offsets = corner_lines(shape, goal)
    pairs_at: list[tuple[tuple[int, int, int, int], ...]] = [()] * shape.size
    for p in pairs:
        pairs_at[p.corner] += ((p.square, p.tile, p.other, p.corner_tile),)
    n = shape.size
    ends = {(p.line, sq) for p in pairs for sq in (p.corner, p.square)}

    def flagged(table: list) -> list:  # each entry (s, m * N, st, l1, l2, l3) + its corner flags k
        def k(s: int, m: int, l3: int) -> int:
            # along a line with pairs, only a move to or from a pair's C or X changes its corner tiles
            b = tables.moves[m // n].blank_from
            along = (l3, s) in ends or (l3, b) in ends
            return (1 if along else 0) | (2 if pairs_at[s] else 0) | (4 if pairs_at[b] else 0)

        return [tuple(entry + (k(entry[0], entry[1], entry[5]),) for entry in moves) for moves in table]

    static.update(
        succ_v=flagged(static["succ_v"]),
        succ_h=flagged(static["succ_h"]),
        row_lc=row_lc,
        col_lc=col_lc,
        pairs_at=pairs_at,
    )
    return LoopProgram(CORNER_TILES_LOOP, static)


def _lc_searcher(
    shape: Shape,
    board: list[int],
    tick: Tick,
    *,
    tables: MoveTables | None = None,
    state: int | None = None,
    goal: Sequence[int] | None = None,
    with_last_moves: bool,
) -> Searcher:
    """A searcher (the contract of :func:`fifteen.search.ida.ida_star`) bounded by MD + LC, with
    the last moves and the corner tiles on top when *with_last_moves* (the goal's blank then on
    the last square)."""
    goal = normal_goal(shape, goal)
    tables = tables or tables_for(shape, board, goal)
    program = _lm_program(tables, goal) if with_last_moves else _lc_program(tables, goal)
    codes = line_codes(shape, board, goal)
    h = manhattan(shape, board, goal) + linear_conflict(shape, board, goal)
    if not with_last_moves:
        return program.searcher(board, tick, tables, state, h, (h,), {"codes": codes}, goal)
    # each border line with corner pairs reads its own segment of the tables (corner_lines)
    codes = [code + offset for code, offset in zip(codes, corner_lines(shape, goal)[2], strict=True)]
    square_of = [0] * shape.size
    for sq, t in enumerate(board):
        square_of[t] = sq
    h += corner_tiles(shape, board, goal)
    h0 = h + last_moves(shape, board, goal)
    return program.searcher(board, tick, tables, state, h0, (h,), {"codes": codes, "square_of": square_of}, goal)


def _lc_factory(with_last_moves: bool, about: str) -> partial:
    factory = partial(_lc_searcher, with_last_moves=with_last_moves)
    factory.__doc__ = about
    return factory


linear_conflict_searcher = _lc_factory(False, "IDA* bounded by MD + linear conflict.")
last_moves_searcher = _lc_factory(
    True, "IDA* bounded by MD + linear conflict + the last moves + the corner tiles (a goal with its blank on the last square)."
)


__all__ = [
    "CORNER_TILES_LOOP",
    "LAST_MOVES_LOOP",
    "LC_LOOP",
    "MD_LOOP",
    "last_moves_loop",
    "last_moves_searcher",
    "linear_conflict_searcher",
    "manhattan_searcher",
    "md_deltas",
]
