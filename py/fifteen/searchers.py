"""The IDA* inner loops of the classic bounds: MD, MD+LC, ID, WD and the seed's WD+ID.

Each factory has the signature ``factory(shape, board, tick) -> (h0, run)``
expected by :func:`fifteen.search.ida_star`: *board* is the start position as
a list (the inner loop moves tiles in it and restores it), ``run(budget)``
returns ``(path, nodes)`` — the blank squares of a solution of at most
*budget* moves, in reverse, or ``None`` — and ``tick(nodes)`` is called every
so often, returning the node count of the next call.

The loops look alike on purpose: each is specialised for the state its bound
carries (see :mod:`fifteen.search` for the common techniques).  A vertical and
a horizontal loop are separate where a bound has one component per axis, so
each move touches only the part it can change.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from .board import Shape, transpose_tiles
from .inversion import column_labels, distance_table, horizontal_inversions, vertical_inversions
from .manhattan import column_codes, line_table, manhattan, manhattan_table, row_codes
from .moves import move_tables, tables_for
from .search import ensure_recursion
from .walking import table_for

Tick = Callable[[int], int]


def _md_deltas(shape: Shape) -> list[int]:
    """``[m * N + t]``: change of MD when tile *t* makes move *m*."""
    md = manhattan_table(shape)
    n = shape.size
    return move_tables(shape).per_tile(lambda mv, t: md[t * n + mv.blank_from] - md[t * n + mv.blank_to])


def manhattan_searcher(shape: Shape, board: list[int], tick: Tick):
    mt = tables_for(shape, board)
    succ = mt.successors
    mdd = _md_deltas(shape)
    path: list[int] = []
    nodes = next_tick = 0

    def dfs(b: int, state: int, budget: int, h: int) -> bool:
        nonlocal nodes, next_tick
        nodes += 1
        if nodes >= next_tick:
            next_tick = tick(nodes)
        budget -= 1
        for s, m, st in succ[state]:
            t = board[s]
            h2 = h + mdd[m + t]
            if h2 <= budget:
                if h2 == 0:
                    path.append(s)
                    return True
                board[b] = t
                if dfs(s, st, budget, h2):
                    path.append(s)
                    return True
                board[s] = t
        return False

    h0 = manhattan(shape, board)
    b0 = board.index(0)

    def run(budget: int):
        nonlocal nodes, next_tick
        nodes, next_tick = 0, tick(0)
        path.clear()
        ensure_recursion(budget)
        found = h0 == 0 or dfs(b0, mt.start_states[b0], budget, h0)
        return (list(path) if found else None), nodes

    return h0, run


def linear_conflict_searcher(shape: Shape, board: list[int], tick: Tick):
    """MD + linear conflict.

    Line codes (:func:`fifteen.manhattan.line_table`) are kept for every row
    (``codes[0..R-1]``) and column (``codes[R..]``).  A vertical move changes
    the conflicts of the two rows involved (the tile leaves one and enters the
    other) and only re-codes its column (the order there is unchanged); a
    horizontal move likewise with columns and its row.
    """
    mt = tables_for(shape, board)
    n = mt.n
    rows, cols = shape.rows, shape.cols
    succ_v, succ_h = mt.successors_vertical, mt.successors_horizontal
    mdd = _md_deltas(shape)
    row_table, col_table = line_table(cols), line_table(rows)
    rb, cb = cols + 1, rows + 1

    def row_digit(sq: int, t: int) -> int:
        r, c = divmod(sq, cols)
        gr, gc = divmod(t - 1, cols)
        return (gc + 1) * rb**c if t and gr == r else 0

    def col_digit(sq: int, t: int) -> int:
        r, c = divmod(sq, cols)
        gr, gc = divmod(t - 1, cols)
        return (gr + 1) * cb**r if t and gc == c else 0

    # For move m (tile t from square s = blank_to to square b = blank_from):
    # lines l1 (left by the tile) and l2 (entered) change conflicts; l3 is re-coded.
    line1 = [0] * len(mt.moves)
    line2 = [0] * len(mt.moves)
    line3 = [0] * len(mt.moves)
    for i, mv in enumerate(mt.moves):
        s, b = mv.blank_to, mv.blank_from
        if mv.vertical:
            line1[i], line2[i], line3[i] = s // cols, b // cols, rows + s % cols
        else:
            line1[i], line2[i], line3[i] = rows + s % cols, rows + b % cols, s // cols
    d1 = mt.per_tile(lambda mv, t: -(row_digit if mv.vertical else col_digit)(mv.blank_to, t))
    d2 = mt.per_tile(lambda mv, t: (row_digit if mv.vertical else col_digit)(mv.blank_from, t))
    d3 = mt.per_tile(
        lambda mv, t: (
            (col_digit if mv.vertical else row_digit)(mv.blank_from, t) - (col_digit if mv.vertical else row_digit)(mv.blank_to, t)
        )
    )

    # successors carry (s, m*N, l1, l2, l3)
    def expand(table):
        return [tuple((s, m, st, line1[m // n], line2[m // n], line3[m // n]) for s, m, st in entry) for entry in table]

    succ_v, succ_h = expand(succ_v), expand(succ_h)
    codes = row_codes(shape, board) + column_codes(shape, board)
    path: list[int] = []
    nodes = next_tick = 0

    def dfs(b: int, state: int, budget: int, h: int) -> bool:
        nonlocal nodes, next_tick
        nodes += 1
        if nodes >= next_tick:
            next_tick = tick(nodes)
        budget -= 1
        for table, lt in ((succ_v[state], row_table), (succ_h[state], col_table)):
            for s, m, st, l1, l2, l3 in table:
                t = board[s]
                mt_ = m + t
                c1, c2 = codes[l1], codes[l2]
                n1c, n2c = c1 + d1[mt_], c2 + d2[mt_]
                h2 = h + mdd[mt_] + lt[n1c] - lt[c1] + lt[n2c] - lt[c2]
                if h2 <= budget:
                    if h2 == 0:
                        path.append(s)
                        return True
                    board[b] = t
                    dd3 = d3[mt_]
                    codes[l1], codes[l2] = n1c, n2c
                    codes[l3] += dd3
                    found = dfs(s, st, budget, h2)
                    codes[l1], codes[l2] = c1, c2
                    codes[l3] -= dd3
                    if found:
                        path.append(s)
                        return True
                    board[s] = t
        return False

    h0 = manhattan(shape, board) + sum(row_table[c] for c in codes[:rows]) + sum(col_table[c] for c in codes[rows:])
    b0 = board.index(0)

    def run(budget: int):
        nonlocal nodes, next_tick
        nodes, next_tick = 0, tick(0)
        path.clear()
        ensure_recursion(budget)
        found = h0 == 0 or dfs(b0, mt.start_states[b0], budget, h0)
        return (list(path) if found else None), nodes

    return h0, run


def _inversion_deltas(shape: Shape):
    """``less[t * N + u]`` = +1 if tile u < t else -1, for the vertical (row-major
    labels) and horizontal (column-major labels) readings; 0 where u is the blank."""
    mt = move_tables(shape)
    n = mt.n
    labels = column_labels(shape)
    less_v = [0] * (n * n)
    less_h = [0] * (n * n)
    for t in range(1, n):
        for u in range(1, n):
            less_v[t * n + u] = 1 if u < t else -1
            less_h[t * n + u] = 1 if labels[u] < labels[t] else -1
    return less_v, less_h


def _id_tables(shape: Shape):
    n = shape.size
    max_inv = (n - 1) * (n - 2) // 2
    return distance_table(shape.cols - 1, max_inv), distance_table(shape.rows - 1, max_inv)


def inversion_searcher(shape: Shape, board: list[int], tick: Tick):
    """ID alone (vertical + horizontal inversion distance)."""
    return _id_wd_searcher(shape, board, tick, use_wd=False, use_id=True)


def walking_searcher(shape: Shape, board: list[int], tick: Tick):
    """WD alone (vertical + horizontal walking distance, linked tables)."""
    return _id_wd_searcher(shape, board, tick, use_wd=True, use_id=False)


def walking_inversion_searcher(shape: Shape, board: list[int], tick: Tick):
    """The seed's bound: max(WD_v, ID_v) + max(WD_h, ID_h)."""
    return _id_wd_searcher(shape, board, tick, use_wd=True, use_id=True)


def _id_wd_searcher(shape: Shape, board: list[int], tick: Tick, *, use_wd: bool, use_id: bool):
    """One loop family for ID, WD and WD+ID, specialised by generated code.

    Per axis the state is a WD key and an inversion count; a vertical move
    changes only the vertical pair, a horizontal one only the horizontal
    pair.  ``hv``/``hh`` are the per-axis values: WD, ID, or their maximum.

    * WD keys are kept pre-multiplied by the links row width, so the next key
      is ``links[key + offset[m + t]]`` (one addition, one lookup) and the
      value is ``values[key]`` in a table spread to the same stride.
    * The inversion change of a move is the sum, over the ``cols - 1``
      (vertical) or ``rows - 1`` (horizontal) tiles the sliding tile passes,
      of +1/-1 from a per-tile table whose sign is chosen per move; the sum
      is unrolled in the generated source (the jump length depends on the
      shape), which is the reason this loop is generated rather than written
      out once per shape.
    """
    mt = tables_for(shape, board)
    code, static, state, tables = _id_wd_program(shape, use_wd, use_id, mt.mirror_closed)
    env = dict(static, board=board, tick=tick)
    start: dict[str, int] = {}
    h0 = 0
    for axis, tshape, ttiles, inversions_of in (
        ("v", shape, board, vertical_inversions),
        ("h", shape.transposed(), transpose_tiles(shape, board), horizontal_inversions),
    ):
        parts = []
        if use_wd:
            table, width = tables[axis]
            start["k" + axis] = table.key_of(ttiles) * width
            parts.append(table.values[start["k" + axis] // width])
        if use_id:
            start["i" + axis] = inversions_of(shape, board)
            parts.append(static["id_" + axis][start["i" + axis]])
        start["h" + axis] = max(parts)
        h0 += start["h" + axis]
    exec(code, env)
    dfs, counter = env["make"]()
    goal = env["goal"]
    b0 = board.index(0)
    at_goal = list(board) == goal
    path = env["path"] = []
    args = [start[name] for name in state]

    def run(budget: int):
        counter(reset=tick(0))
        path.clear()
        ensure_recursion(budget)
        found = at_goal or dfs(b0, mt.start_states[b0], budget, *args)
        return (list(path) if found else None), counter()

    return h0, run


@cache
def _id_wd_program(shape: Shape, use_wd: bool, use_id: bool, mirror_closed: bool = False):
    """The board-independent part of :func:`_id_wd_searcher`, built once per shape, bound and
    move tables: ``(code, tables for the generated code, state argument names, {axis: (WD table, stride)})``."""
    mt = move_tables(shape, mirror_closed)
    n = mt.n
    rows, cols = shape.rows, shape.cols
    env: dict = {"n": n, "goal": list(shape.goal())}
    state: list[str] = []
    wd_tables = {}
    axes = (("v", shape, mt.successors_vertical, cols - 1), ("h", shape.transposed(), mt.successors_horizontal, rows - 1))
    less = _inversion_deltas(shape)
    ids = _id_tables(shape)
    # Per (move, tile): offset into the links row: direction * R + goal row (vertical)
    # or direction * C + goal column (horizontal, on the transposed table).
    # Direction 0 = blank moves up/left (the tile moves down/right).
    env["off"] = mt.per_tile(
        lambda mv, t: ((int(mv.forward) * rows + (t - 1) // cols) if mv.vertical else (int(mv.forward) * cols + (t - 1) % cols)) if t else 0
    )
    for (axis, tshape, succ, jump), less_a, id_a in zip(axes, less, ids):
        # rows_pos[t][u] = +1 if u < t else -1 (in this axis's labels); rows_neg negated
        rows_pos = [less_a[t * n : (t + 1) * n] for t in range(n)]
        rows_neg = [[-x for x in row] for row in rows_pos]
        entries = []
        for entry in succ:
            row = []
            for s, m, st in entry:
                mv = mt.moves[m // n]
                item = (s, m, st)
                if use_id:
                    # The tile moves later in reading order when the blank moves up/left:
                    # passing a smaller tile then removes an inversion.
                    item += ((rows_pos if mv.forward else rows_neg),) + mv.jumped
                row.append(item)
            entries.append(tuple(row))
        env["succ_" + axis] = entries
        if use_wd:
            table = table_for(tshape)
            width = 2 * tshape.rows
            wd_tables[axis] = (table, width)
            spread = bytearray(len(table.values) * width)
            spread[::width] = table.values
            env["wd_" + axis] = bytes(spread)
            if use_id:
                # max(WD, ID) in one lookup: per WD value a row over inversion counts
                by_value = [bytes(max(w, x) for x in id_a) for w in range(max(table.values) + 1)]
                env["wdid_" + axis] = [by_value[w] for w in spread]
            env["link_" + axis] = [x * width for x in table.links]
            state.append("k" + axis)
        if use_id:
            env["id_" + axis] = id_a
            state.append("i" + axis)
        state.append("h" + axis)
    src = _generate_id_wd(state, use_wd, use_id, (axes[0][3], axes[1][3]))
    code = compile(src, f"<fifteen.searchers {shape} {'wd' if use_wd else ''}{'id' if use_id else ''}>", "exec")
    return code, env, state, wd_tables


def _generate_id_wd(state: list[str], use_wd: bool, use_id: bool, jumps: tuple[int, int]) -> str:
    """Source of ``make()`` returning ``(dfs, counter)`` for the ID/WD family."""
    sig = ", ".join(state)
    lines = [
        "def make():",
        "    nodes = next_tick = 0",
        "    def counter(reset=None):",
        "        nonlocal nodes, next_tick",
        "        if reset is not None:",
        "            nodes, next_tick = 0, reset",
        "        return nodes",
        f"    def dfs(b, state, budget, {sig}):",
        "        nonlocal nodes, next_tick",
        "        nodes += 1",
        "        if nodes >= next_tick:",
        "            next_tick = tick(nodes)",
        "        budget -= 1",
    ]
    for axis, other, jump in (("v", "h", jumps[0]), ("h", "v", jumps[1])):
        names = ["s", "m", "st"] + (["lt"] + [f"j{i}" for i in range(jump)] if use_id else [])
        lines.append(f"        for {', '.join(names)} in succ_{axis}[state]:")
        lines.append("            t = board[s]")
        parts = []
        if use_wd:
            lines.append(f"            k{axis}2 = link_{axis}[k{axis} + off[m + t]]")
            parts.append(f"wd_{axis}[k{axis}2]")
        if use_id:
            lines.append("            row = lt[t]")
            terms = " + ".join(f"row[board[j{i}]]" for i in range(jump))
            lines.append(f"            i{axis}2 = i{axis} + {terms}")
            parts.append(f"id_{axis}[i{axis}2]")
        if len(parts) == 2:
            lines.append(f"            h{axis}2 = wdid_{axis}[k{axis}2][i{axis}2]")
        else:
            lines.append(f"            h{axis}2 = {parts[0]}")
        lines.append(f"            h2 = h{axis}2 + h{other}")
        lines.append("            if h2 <= budget:")
        goal_test = "h2 == 0" if use_wd else "h2 == 0 and is_goal(b, s, t)"
        lines.append(f"                if {goal_test}:")
        lines.append("                    path.append(s)")
        lines.append("                    return True")
        lines.append("                board[b] = t")
        call_args = ", ".join(name + "2" if name[1] == axis else name for name in state)
        lines.append(f"                if dfs(s, st, budget, {call_args}):")
        lines.append("                    path.append(s)")
        lines.append("                    return True")
        lines.append("                board[s] = t")
    lines += [
        "        return False",
        "    return dfs, counter",
        "",
        "def is_goal(b, s, t):",
        "    # ID can be 0 away from the goal: check the board after the move.",
        "    if s != n - 1:",
        "        return False",
        "    board[b] = t",
        "    ok = board[:n - 1] == goal[:n - 1]",
        "    board[s] = t",
        "    return ok",
    ]
    return "\n".join(lines) + "\n"
