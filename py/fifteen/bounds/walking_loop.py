"""Takahashi's family's loops: inversion distance (ID), walking distance (WD) and the seed's
max(WD_v, ID_v) + max(WD_h, ID_h) (tables and snippets for :mod:`fifteen.search.template`).

Per axis the state is a WD key and an inversion count; a vertical move changes only the
vertical pair, a horizontal one only the horizontal pair, so vertical and horizontal moves
are separate successor lists.  ``hv``/``hh`` are the per-axis values: WD, ID, or their
maximum.

* WD keys are kept pre-multiplied by the links row width, so the next key is
  ``link[key + off[m + t]]`` (one addition, one lookup) and the value is ``wd[key]`` in a
  table spread to the same stride.
* The inversion change of a move is the sum, over the ``cols - 1`` (vertical) or
  ``rows - 1`` (horizontal) tiles the sliding tile passes, of +1/-1 from a per-tile row
  whose sign is chosen per move; the sum is unrolled in the generated source (the jump
  length depends on the shape).
* ID can be 0 away from the goal: its goal test checks the board.

The factories follow the searcher contract of :func:`fifteen.search.ida.ida_star`.  The goal
is data, as for MD: tiles are numbered by their goal squares' ranks (ID) and counted by their
goal rows and columns, in the tables of the goal's blank row and column (WD;
:func:`fifteen.bounds.databases.walking_pair`), once per (move tables, goal).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache, partial
from typing import Any

from fifteen.board import Shape
from fifteen.bounds.databases import walking_pair
from fifteen.bounds.inversion import distance_table, goal_labels, horizontal_inversions, vertical_inversions
from fifteen.bounds.manhattan import goal_squares
from fifteen.bounds.walking import axis_counts
from fifteen.search.moves import MoveTables, normal_goal, tables_for
from fifteen.search.template import Children, Loop, LoopProgram, Searcher, Tick


def _state_names(use_wd: bool, use_id: bool) -> tuple[str, ...]:
    names: list[str] = []
    for axis in "vh":
        names += (["k" + axis] if use_wd else []) + (["i" + axis] if use_id else []) + ["h" + axis]
    return tuple(names)


@cache
def id_wd_loop(jumps: tuple[int, int], use_wd: bool, use_id: bool) -> Loop:
    """The loop of ID, WD or WD+ID for tiles jumping ``jumps = (cols - 1, rows - 1)`` squares."""
    state = _state_names(use_wd, use_id)
    children = []
    for axis, other, jump in (("v", "h", jumps[0]), ("h", "v", jumps[1])):
        fields = ("s", "m", "st") + (("lt",) + tuple(f"j{i}" for i in range(jump)) if use_id else ())
        value = []
        if use_wd:
            value.append(f"k{axis}2 = link_{axis}[k{axis} + off[m + t]]")
        if use_id:
            value.append("row = lt[t]")
            value.append(f"i{axis}2 = i{axis} + " + " + ".join(f"row[board[j{i}]]" for i in range(jump)))
        if use_wd and use_id:
            value.append(f"h{axis}2 = wdid_{axis}[k{axis}2][i{axis}2]")
        elif use_wd:
            value.append(f"h{axis}2 = wd_{axis}[k{axis}2]")
        else:
            value.append(f"h{axis}2 = id_{axis}[i{axis}2]")
        value.append(f"h = h{axis}2 + h{other}")
        children.append(
            Children(
                table="succ_" + axis,
                fields=fields,
                value=tuple(value),
                child=tuple(name + "2" if name[1] == axis else name for name in state),
                goal="h == 0" if use_wd else "h == 0 and is_goal(board, b, s, t)",
            )
        )
    hot = ["succ_v", "succ_h"]
    if use_wd:
        hot += ["off", "link_v", "link_h"] + (["wdid_v", "wdid_h"] if use_id else ["wd_v", "wd_h"])
    if use_id and not use_wd:
        hot += ["id_v", "id_h", "is_goal"]
    name = {(True, False): "wd", (False, True): "id", (True, True): "wdid"}[use_wd, use_id]
    about = {"wd": "walking distance", "id": "inversion distance", "wdid": "the seed's max(WD_v, ID_v) + max(WD_h, ID_h)"}[name]
    return Loop(name=name, args=state, hot=tuple(hot), children=tuple(children), about=about, legend=_legend(jumps))


def _legend(jumps: tuple[int, int]) -> tuple[tuple[str, str], ...]:
    """What the names of the ID/WD loops hold (a loop uses those of its bound)."""
    legend = []
    for axis, other, moves in (("v", "h", "vertical"), ("h", "v", "horizontal")):
        reading = "vertical" if axis == "v" else "horizontal"
        tables = "its shape's WD tables" if axis == "v" else "the transposed shape's WD tables"
        legend += [
            (f"k{axis}", f"the node's {reading} WD key: its index in {tables}, times the links' row width"),
            (f"i{axis}", f"the node's {reading} inversion count"),
            (f"h{axis}", f"the node's {reading} value (WD, ID or their maximum); h = h{axis} + h{other}"),
            (f"succ_{axis}", f"succ_{axis}[state]: the {moves} moves the automaton allows (they change only the {axis} pair)"),
            (f"link_{axis}", f"link_{axis}[k{axis} + off[m + t]]: the key of the {reading} table a move leads to"),
            (f"wd_{axis}", f"wd_{axis}[key]: the {reading} WD of a key"),
            (f"wdid_{axis}", f"wdid_{axis}[key][inversions]: max(WD, ID) of the {reading} pair in one lookup"),
            (f"id_{axis}", f"id_{axis}[inversions]: the {reading} inversion distance of a count"),
        ]
    return (
        *legend,
        ("m", "the move's id times N (the squares): m + t indexes the per-move, per-tile tables"),
        ("off", "off[m + t]: the offset in a links row of tile t's move m (direction and the tile's goal row or column)"),
        ("is_goal", "is_goal(board, b, s, t): whether the child is the goal (ID can be 0 away from it)"),
        ("lt", "lt[t][u]: +1 or -1, the change of the inversions when tile t passes tile u this way"),
        ("j0", "the squares the tile jumps over (cols - 1 of them for a vertical move, rows - 1 for a horizontal one)"),
        *((f"j{i}", "(as j0)") for i in range(1, max(jumps))),
        ("row", "lt[t], the sliding tile's row"),
    )


def _inversion_deltas(shape: Shape, n: int, goal: tuple[int, ...] | None):
    """``less[t * N + u]`` = +1 if tile u comes before tile t in the goal's reading else -1, for
    the vertical (row by row) and horizontal (column by column) readings; 0 where u is the blank."""
    vertical, horizontal = goal_labels(shape, goal)
    less_v = [0] * (n * n)
    less_h = [0] * (n * n)
    for t in range(1, n):
        for u in range(1, n):
            less_v[t * n + u] = 1 if vertical[u] < vertical[t] else -1
            less_h[t * n + u] = 1 if horizontal[u] < horizontal[t] else -1
    return less_v, less_h


def _id_tables(shape: Shape):
    n = shape.size
    max_inv = (n - 1) * (n - 2) // 2
    return distance_table(shape.cols - 1, max_inv), distance_table(shape.rows - 1, max_inv)


def _goal_test(goal: list[int]):
    blank = goal.index(0)

    def is_goal(board: list[int], b: int, s: int, t: int) -> bool:
        """The board after tile t slides from s to b is the goal."""
        if s != blank:
            return False
        board[b] = t
        ok = board[:s] == goal[:s] and board[s + 1 :] == goal[s + 1 :]
        board[s] = t
        return ok

    return is_goal


@lru_cache(maxsize=8)
def _id_wd_program(tables: MoveTables, use_wd: bool, use_id: bool, goal: tuple[int, ...] | None):
    """The board-independent part, once per move tables, bound and goal:
    ``(program, {axis: (WD table, stride)}, {axis: ID table})``."""
    shape = tables.shape
    n = tables.n
    rows, cols = shape.rows, shape.cols
    home = goal_squares(shape, goal)
    static: dict[str, Any] = {}
    wd_tables = {}
    axes = (("v", tables.successors_vertical), ("h", tables.successors_horizontal))
    less = _inversion_deltas(shape, n, goal)
    ids = _id_tables(shape)
    # Per (move, tile): offset into the links row: direction * R + goal row (vertical) or
    # direction * C + goal column (horizontal, on the transposed table).  Direction 0 = the
    # blank moves up/left (the tile moves down/right).
    static["off"] = tables.per_tile(
        lambda mv, t: ((int(mv.forward) * rows + home[t] // cols) if mv.vertical else (int(mv.forward) * cols + home[t] % cols)) if t else 0
    )
    for (axis, succ), less_a, id_a, table in zip(axes, less, ids, walking_pair(shape, goal) if use_wd else (None, None), strict=True):
        # rows_pos[t][u] = +1 if u < t else -1 (in this axis's labels); rows_neg negated
        rows_pos = [less_a[t * n : (t + 1) * n] for t in range(n)]
        rows_neg = [[-x for x in row] for row in rows_pos]
        entries = []
        for entry in succ:
            row = []
            for s, m, st in entry:
                mv = tables.moves[m // n]
                item: tuple = (s, m, st)
                if use_id:
                    # The tile moves later in reading order when the blank moves up/left:
                    # passing a smaller tile then removes an inversion.
                    item += ((rows_pos if mv.forward else rows_neg),) + mv.jumped
                row.append(item)
            entries.append(tuple(row))
        static["succ_" + axis] = entries
        if table is not None:
            width = 2 * table.shape.rows
            wd_tables[axis] = (table, width)
            spread = bytearray(len(table.values) * width)
            spread[::width] = table.values
            static["wd_" + axis] = bytes(spread)
            if use_id:
                # max(WD, ID) in one lookup: per WD value a row over inversion counts
                by_value = [bytes(max(w, x) for x in id_a) for w in range(max(table.values) + 1)]
                static["wdid_" + axis] = [by_value[w] for w in spread]
            static["link_" + axis] = [x * width for x in table.links]
        static["id_" + axis] = id_a
    static["is_goal"] = _goal_test(list(shape.goal() if goal is None else goal))
    loop = id_wd_loop((cols - 1, rows - 1), use_wd, use_id)
    return LoopProgram(loop, {k: v for k, v in static.items() if k in loop.hot}), wd_tables, {"v": ids[0], "h": ids[1]}


def _id_wd_searcher(
    shape: Shape,
    board: list[int],
    tick: Tick,
    *,
    tables: MoveTables | None = None,
    state: int | None = None,
    goal: Sequence[int] | None = None,
    use_wd: bool,
    use_id: bool,
) -> Searcher:
    """A searcher (the contract of :func:`fifteen.search.ida.ida_star`) of the ID/WD family; the
    three bounds below differ only in the tables it looks up (*use_wd*, *use_id*)."""
    goal = normal_goal(shape, goal)
    tables = tables or tables_for(shape, board, goal)
    program, wd_tables, id_tables = _id_wd_program(tables, use_wd, use_id, goal)
    home = goal_squares(shape, goal)
    start: dict[str, int] = {}
    h0 = 0
    for axis, inversions_of in (("v", vertical_inversions), ("h", horizontal_inversions)):
        parts = []
        if use_wd:
            table, width = wd_tables[axis]
            start["k" + axis] = table.index[axis_counts(shape, board, home, axis == "v")] * width
            parts.append(table.values[start["k" + axis] // width])
        if use_id:
            start["i" + axis] = inversions_of(shape, board, goal)
            parts.append(id_tables[axis][start["i" + axis]])
        start["h" + axis] = max(parts)
        h0 += start["h" + axis]
    args = tuple(start[name] for name in program.loop.args)
    return program.searcher(board, tick, tables, state, h0, args, {}, goal)


def _id_wd_factory(use_wd: bool, use_id: bool, about: str) -> partial:
    factory = partial(_id_wd_searcher, use_wd=use_wd, use_id=use_id)
    factory.__doc__ = about
    return factory


inversion_searcher = _id_wd_factory(False, True, "IDA* bounded by ID alone (vertical + horizontal inversion distance).")
walking_searcher = _id_wd_factory(True, False, "IDA* bounded by WD alone (vertical + horizontal walking distance, linked tables).")
walking_inversion_searcher = _id_wd_factory(True, True, "IDA* bounded by the seed's max(WD_v, ID_v) + max(WD_h, ID_h).")


__all__ = ["id_wd_loop", "inversion_searcher", "walking_inversion_searcher", "walking_searcher"]
