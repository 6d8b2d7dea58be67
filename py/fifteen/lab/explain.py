"""What each lower bound sees in a position (:func:`explain`) and along a path (:func:`trace`).

Both return plain JSON-ready dicts (the API's ``explain`` and ``trace``).
Every figure is computed from the position the way the bound's own function
computes it, so the parts add up to :func:`fifteen.bound_values` exactly:

* **MD**: each tile's rows + columns from home.
* **LC** (MD + linear conflict): per row and column, the tiles *of that line*
  (whose goal is in it) in board order; those outside one longest run in
  goal order must step out of the line and back: 2 moves each.  When several
  longest runs exist, one of them is shown (``kept``), the others' tiles
  ``removed``; the count, hence the bound, is the same whichever is chosen.
* **ID**: the inversions read row by row (vertical) and column by column
  with tiles renumbered in column order (horizontal).  A vertical move lifts a
  tile over ``cols - 1`` tiles (the *jump*: 3 on 4x4, 2 on 3x3), changing the
  count by at most the jump and by an amount of the jump's parity; so at
  least ``ceil(inv / jump)`` moves, plus 1 when the jump is odd and that
  number's parity differs from ``inv``'s.  For jump 3 this is the seed's
  ``inv // 3 + inv % 3``; the horizontal jump is ``rows - 1``.
* **WD**: the seed's table, ``counts[r][g]`` = how many tiles in board row
  ``r`` have their home in row ``g`` (the blank's row holds ``cols - 1``
  tiles), and the exact number of vertical moves that table needs; the same
  with columns for the horizontal part.
* **PDB**: each tile group's entry (the moves of the group's own tiles), for
  the plain lookup and the reflected one (the position mirrored about the
  main diagonal; ``tiles`` lists the real tiles looked up).  The bound is the
  larger sum.

**Goals.**  A board is explained as it is searched, in its solving frame
(:mod:`fifteen.frame`): towards a goal with its blank in a corner, the position mapped onto
the standard goal (``frame`` gives the mapped tiles: the tile numbers of every part are those),
towards any other goal the position itself, each tile's goal square read from the goal
(``frame`` is ``null`` then, as for the standard goal).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fifteen.board import Board, Shape, tile_squares
from fifteen.bounds import bound_values, databases
from fifteen.bounds.inversion import horizontal_inversions, moves_for_inversions, vertical_inversions
from fifteen.bounds.manhattan import goal_squares
from fifteen.bounds.walking import WalkingTable, axis_counts, walking_available
from fifteen.errors import InputError
from fifteen.frame import frame_for
from fifteen.lab.compare import bound_label, lab_bounds


# ------------------------------------------------------------------ MD and LC
def _tile_distances(shape: Shape, tiles: Sequence[int], home: Sequence[int]) -> list[int]:
    out = [0] * shape.size
    for sq, t in enumerate(tiles):
        if t:
            r, c = divmod(sq, shape.cols)
            gr, gc = divmod(home[t], shape.cols)
            out[t] = abs(r - gr) + abs(c - gc)
    return out


def longest_run(keys: Sequence[int]) -> list[int]:
    """Positions (indices into *keys*) of one longest strictly increasing subsequence."""
    tails: list[int] = []  # tails[k]: index of the smallest end of a run of length k + 1
    before = [-1] * len(keys)
    for i, key in enumerate(keys):
        lo, hi = 0, len(tails)
        while lo < hi:
            mid = (lo + hi) // 2
            if keys[tails[mid]] < key:
                lo = mid + 1
            else:
                hi = mid
        before[i] = tails[lo - 1] if lo else -1
        if lo == len(tails):
            tails.append(i)
        else:
            tails[lo] = i
    run: list[int] = []
    i = tails[-1] if tails else -1
    while i >= 0:
        run.append(i)
        i = before[i]
    return run[::-1]


def _line_conflicts(shape: Shape, tiles: Sequence[int], home: Sequence[int]) -> list[dict[str, Any]]:
    rows, cols = shape.rows, shape.cols
    lines = []
    for axis, count, length in (("row", rows, cols), ("column", cols, rows)):
        for line in range(count):
            own: list[int] = []  # tiles of this line, in board order
            goals: list[int] = []  # their goal positions along the line
            for k in range(length):
                sq = line * cols + k if axis == "row" else k * cols + line
                t = tiles[sq]
                if not t:
                    continue
                gr, gc = divmod(home[t], cols)
                if (gr if axis == "row" else gc) == line:
                    own.append(t)
                    goals.append(gc if axis == "row" else gr)
            kept = [own[i] for i in longest_run(goals)]
            removed = [t for t in own if t not in kept]
            lines.append({"axis": axis, "index": line, "tiles": own, "kept": kept, "removed": removed, "extra": 2 * len(removed)})
    return lines


# ------------------------------------------------------------------ ID
def inversion_formula(inv: int, jump: int) -> str:
    """The moves for *inv* inversions with *jump*, written out (the seed's form for jump 3)."""
    moves = moves_for_inversions(inv, jump)
    if jump == 1:
        return f"{inv} = {moves}"
    if jump == 3:
        return f"{inv}//3 + {inv}%3 = {inv // 3} + {inv % 3} = {moves}"
    ceil = -(-inv // jump)
    if moves == ceil:
        return f"ceil({inv}/{jump}) = {moves}"
    return f"ceil({inv}/{jump}) = {ceil}, +1 for the parity of {inv} = {moves}"


def _inversion_axis(inv: int, jump: int) -> dict[str, Any]:
    return {"inversions": inv, "jump": jump, "moves": moves_for_inversions(inv, jump), "formula": inversion_formula(inv, jump)}


# ------------------------------------------------------------------ WD
def _walking_axis(table: WalkingTable, flat: bytes, blank: int) -> dict[str, Any]:
    """The count table *flat* (row-major, of *table*'s lines) and its distance; *blank* is the blank's line."""
    n = table.shape.rows
    counts = [list(flat[r * n : (r + 1) * n]) for r in range(n)]
    return {"counts": counts, "blank": blank, "distance": table.values[table.index[flat]]}


# ------------------------------------------------------------------ PDB
def _pdb_explanation(name: str, db: Any, shape: Shape, tiles: Sequence[int]) -> dict[str, Any]:
    pos = tile_squares(tiles)
    dist = _tile_distances(shape, tiles, goal_squares(shape))
    is_78 = hasattr(db, "nibble")

    def group_value(g: Any) -> int:
        if is_78:  # the 7-8 pack stores (value - group MD) / 2
            return sum(dist[t] for t in g.tiles) + 2 * db.nibble(g.index(pos))
        return int(db.data[g.index(pos)])

    def lookup(groups: Sequence[Any]) -> dict[str, Any]:
        parts = [{"tiles": sorted(g.tiles), "value": group_value(g)} for g in groups]
        return {"value": sum(p["value"] for p in parts), "groups": parts}

    plain = lookup(db.groups)
    reflected = lookup(db.rgroups) if db.rgroups else None
    value = max(plain["value"], reflected["value"]) if reflected else plain["value"]
    return {"label": bound_label(name), "value": value, "plain": plain, "reflected": reflected}


# ------------------------------------------------------------------ explain
def explain(board: Board) -> dict[str, Any]:
    """Every available bound of *board*, taken apart (see the module docstring).

    ``{"md": {"value", "tiles": [distance of tile t at index t]},
    "lc": {"value", "extra", "lines": [{"axis": "row"|"column", "index",
    "tiles", "kept", "removed", "extra"}]},
    "id": {"value", "vertical": {"inversions", "jump", "moves", "formula"}, "horizontal": {...}},
    "wd": {"value", "vertical": {"counts", "blank", "distance"}, "horizontal": {...}},
    "wdid": {"value", "vertical", "horizontal"},
    "pdb": {name: {"label", "value", "plain": {"value", "groups": [{"tiles", "value"}]},
    "reflected": {...} | null}}}, "frame": null | {"description", "tiles", "goal"}}``;
    ``wd``/``wdid`` only where WD is offered, ``pdb`` holds the pattern databases loaded for
    the board's shape (maybe none; none towards a goal they cannot serve), ``frame`` the
    position and goal explained when they are mapped (see the module docstring).
    """
    frame = frame_for(board.target)
    shape, tiles, goal = board.shape, list(frame.position(board.tiles)), frame.search_goal
    home = goal_squares(shape, goal)
    distances = _tile_distances(shape, tiles, home)
    md = sum(distances)
    lines = _line_conflicts(shape, tiles, home)
    extra = sum(line["extra"] for line in lines)
    vertical = _inversion_axis(vertical_inversions(shape, tiles, goal), shape.cols - 1)
    horizontal = _inversion_axis(horizontal_inversions(shape, tiles, goal), shape.rows - 1)
    out: dict[str, Any] = {
        "md": {"value": md, "tiles": distances},
        "lc": {"value": md + extra, "extra": extra, "lines": lines},
        "id": {"value": vertical["moves"] + horizontal["moves"], "vertical": vertical, "horizontal": horizontal},
    }
    if walking_available(shape):
        table_v, table_h = databases.walking_pair(shape, goal)
        blank_row, blank_col = divmod(tiles.index(0), shape.cols)
        wd_v = _walking_axis(table_v, axis_counts(shape, tiles, home, True), blank_row)
        wd_h = _walking_axis(table_h, axis_counts(shape, tiles, home, False), blank_col)
        out["wd"] = {"value": wd_v["distance"] + wd_h["distance"], "vertical": wd_v, "horizontal": wd_h}
        v, h = max(wd_v["distance"], vertical["moves"]), max(wd_h["distance"], horizontal["moves"])
        out["wdid"] = {"value": v + h, "vertical": v, "horizontal": h}
    out["pdb"] = {
        name: _pdb_explanation(name, databases.pattern_databases[name], shape, tiles)
        for name in lab_bounds(shape, board.target)
        if name.startswith("pdb") and name in databases.pattern_databases
    }
    out["frame"] = None if frame.identity else {"description": frame.describe(), "tiles": tiles, "goal": list(frame.goal)}
    return out


# ------------------------------------------------------------------ trace
def trace(board: Board, moves: object) -> dict[str, Any]:
    """Each available bound at every step of a solution of *board* (the staircase).

    *moves*: the tiles that slide (or the blank's directions, ``"DRUL"``; the rule of
    :meth:`fifteen.board.Board.tile_moves`); they must take *board* to the goal.  Returns ``{"length": L, "names":
    [bounds, weakest first], "labels": {name: label}, "moves": [tiles],
    "remaining": [L, L-1, ..., 0], "values": {name: [value at step 0..L]}}``.
    ``remaining`` is the moves left on the given path: the true distance at
    every step when the path is optimal (as ``solve`` gives), and every bound
    stays at or below it in any case.
    """
    tiles_moved = board.tile_moves(moves)
    names = lab_bounds(board.shape, board.target)
    values: dict[str, list[int]] = {name: [] for name in names}
    position = board
    steps = [board]
    for t in tiles_moved:
        position = position.slide(t)
        steps.append(position)
    if not position.is_goal():
        count = f"{len(tiles_moved)} move{'' if len(tiles_moved) == 1 else 's'}"
        raise InputError(f"the moves do not solve the position ({count}, ending on {position.text()})", code="moves")
    for step in steps:
        found = bound_values(step)
        for name in names:
            values[name].append(found[name])
    length = len(tiles_moved)
    return {
        "length": length,
        "names": names,
        "labels": {name: bound_label(name) for name in names},
        "moves": tiles_moved,
        "remaining": list(range(length, -1, -1)),
        "values": values,
    }


__all__ = ["explain", "trace", "inversion_formula", "longest_run"]
