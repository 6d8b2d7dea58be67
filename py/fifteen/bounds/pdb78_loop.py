"""The 7-8 pack's loop (tables and snippets for :mod:`fifteen.search.template`).

Built on the incremental interface of :class:`fifteen.bounds.pdb78.PDB78` (``move_row``: the change
of a group's mixed-radix rank when a tile moves), as :mod:`fifteen.bounds.pdb_loop` is on
:mod:`fifteen.bounds.pdb`.  Bound: ``MD + 2 * max(entries, reflected entries)``.

Per move, the moving tile's group index in each lookup changes by a base delta plus, for the
lookup in which the move is "vertical", the contributions of the tiles on the jumped squares
(``cols - 1`` of them, at least 3 slots ``j1, j2, ...``: padded with a sentinel square n
holding tile 0, contribution 0; 3 on 4x4 and smaller boards, 4 on 5x5).  Successors
come in two lists per automaton state: moves vertical on the board (the plain index uses the
jumped squares, the reflected one is +-w) and the others.  Indices are kept times 4
(``x = 4 * entry index``): the entry is then ``(T[x >> 3] >> (x & 4)) & 15``, one operation
fewer than with the plain index.  The current entries (``V`` plain, ``W`` reflected) are kept
beside the indices, so only the new entry is looked up per child; the reflected lookup is
made only for children the plain one did not cut, and the tick is checked only in nodes
with slack.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from fifteen.board import Shape
from fifteen.bounds.manhattan import manhattan
from fifteen.bounds.pdb78 import PDB78
from fifteen.search.moves import MoveTables, require_standard_goal, tables_for
from fifteen.search.template import Children, Loop, LoopProgram, Searcher, Tick


def _entry(index: str, entry: str) -> str:
    return f"{entry} = (T[{index} >> 3] >> ({index} & 4)) & 15"


def jump_slots(cols: int) -> int:
    """The jumped-square slots of a loop for boards *cols* wide: ``cols - 1``, at least 3 (one
    loop for every board up to 4x4)."""
    return max(3, cols - 1)


def _jump_names(jumps: int) -> tuple[str, ...]:
    return tuple(f"j{k}" for k in range(1, jumps + 1))


def _children(table: str, vertical: bool, reflect: bool, jumps: int) -> Children:
    jumped = "".join(f" + cp[board[{j}]]" for j in _jump_names(jumps))
    entry = ("s", "row", "st", *_jump_names(jumps))
    if vertical:  # the plain index uses the jumped squares
        fields, plain, reflected = "g, d, cp, r, e, dm = row[t]", f"x1 = I[g] + d{jumped}", "y1 = R[r] + e"
    else:  # the reflected one does
        fields, plain, reflected = "g, d, r, e, cr, dm = row[t]", "x1 = I[g] + d", "y1 = R[r] + e" + jumped.replace("cp", "cr")
    value = (fields, plain, _entry("x1", "v1"), "v0 = V[g]", "h = hp + dm + ((v1 - v0) << 1)")
    if not reflect:
        return Children(
            table=table,
            fields=entry,
            value=value,
            child=("h",),
            apply=("x0 = I[g]", "I[g] = x1", "V[g] = v1"),
            restore=("I[g] = x0", "V[g] = v0"),
        )
    return Children(
        table=table,
        fields=entry,
        value=value,
        second=(reflected, _entry("y1", "w1"), "w0 = W[r]", "h2 = hr + dm + ((w1 - w0) << 1)"),
        child=("h", "h2"),
        apply=("x0 = I[g]", "y0 = R[r]", "I[g] = x1", "R[r] = y1", "V[g] = v1", "W[r] = w1"),
        restore=("I[g] = x0", "R[r] = y0", "V[g] = v0", "W[r] = w0"),
    )


def _plain_legend(jumps: int) -> tuple[tuple[str, str], ...]:
    """The names of the plain lookup (both loops), with *jumps* jumped-square slots."""
    names = _jump_names(jumps)
    return (
        ("hp", "the node's value: MD + 2 * the sum of its groups' entries (plain lookup)"),
        ("sv", f"sv[state]: the allowed moves vertical on the board, as entries (s, row, st, {', '.join(names)})"),
        ("sh", "sh[state]: the others"),
        ("I", "I[g]: 4 * group g's entry index for this node (plain lookup); updated in place, restored on return"),
        ("V", "V[g]: group g's entry for this node (kept beside I: only the child's entry is looked up)"),
        ("T", "the entries, 4 bits each: entry x / 4 is (T[x >> 3] >> (x & 4)) & 15"),
        ("row", "row[t]: how tile t's move changes the lookups (g, 4d, cp, r, 4e, dm vertical; g, 4d, r, 4e, cr, dm not)"),
        ("j1", "the squares the tile jumps over, padded with the sentinel square n (tile 0, contribution 0)"),
        *((j, "(as j1)") for j in names[1:]),
        ("g", "the plain group of tile t"),
        ("cp", "cp[tile]: 4 * the contribution to the plain index of a tile on a jumped square"),
        ("dm", "the change of the Manhattan distance"),
        ("x1", "the child's plain index; v1 its entry, v0 the node's"),
    )


@cache
def pdb78_loop(reflect: bool, jumps: int = 3) -> Loop:
    """The loop with (*reflect*) or without the reflected lookup, for vertical moves that jump
    *jumps* squares at most (:func:`jump_slots`).  The 3-slot loops are the 4x4 ones (their names
    carry no slot count); wider boards get ``-j<jumps>`` loops."""
    suffix = "" if jumps == 3 else f"-j{jumps}"
    what = "the 7-8 pack" if jumps == 3 else f"mixed-radix tables on boards {jumps + 1} wide"
    if not reflect:  # non-square boards, or the reflection switched off
        return Loop(
            name="pdb78-plain" + suffix,
            args=("hp",),
            hot=("sv", "sh", "I", "V", "T"),
            children=(_children("sv", True, False, jumps), _children("sh", False, False, jumps)),
            tick_slack="hp < budget",
            about=f"{what} without its reflection: MD + 2 * entries",
            legend=_plain_legend(jumps),
        )
    return Loop(
        name="pdb78-reflected" + suffix,
        args=("hp", "hr"),
        hot=("sv", "sh", "I", "R", "V", "W", "T"),
        children=(_children("sv", True, True, jumps), _children("sh", False, True, jumps)),
        tick_slack="hp < budget",
        about=f"{what}: MD + 2 * max(entries, reflected entries)",
        legend=(
            *_plain_legend(jumps),
            ("hr", "the node's reflected value: MD + 2 * the sum of the reflected lookup's entries"),
            ("R", "R[r]: 4 * group r's entry index for the reflected lookup"),
            ("W", "W[r]: group r's reflected entry for this node"),
            ("r", "the reflected group of tile t"),
            ("cr", "cr[tile]: 4 * the contribution to the reflected index of a tile on a jumped square"),
            ("y1", "the child's reflected index; w1 its entry, w0 the node's"),
        ),
    )


#: MD + 2 * max(entries, reflected entries) (boards up to 4x4).
PDB78_REFLECTED_LOOP = pdb78_loop(True)
#: MD + 2 * entries (non-square boards, or the reflection switched off; boards up to 4 wide).
PDB78_PLAIN_LOOP = pdb78_loop(False)


def move_rows(db: PDB78, mt: MoveTables, use_r: bool) -> list:
    """Per move id of *mt*: ``(row, jumped)`` where ``row[t]`` says how tile t's move changes
    the lookups — ``(g, 4*d, contrib, r, 4*e, dm)`` for a move vertical on the board (the
    plain index adds the contributions of the tiles on the jumped squares), ``(g, 4*d, r,
    4*e, contrib, dm)`` otherwise (the reflected one does); ``dm`` is the change of MD and
    ``jumped`` the jumped squares, padded with the sentinel square n to :func:`jump_slots`."""
    n = mt.n
    cols = db.cols
    slots = jump_slots(cols)
    zero = tuple([0] * (n + 1))
    vrows = []
    for mv in mt.moves:
        a, b = mv.blank_to, mv.blank_from  # the tile slides from a to b
        row: list = [None] * n
        jumped: tuple = ()
        for t in range(1, n):
            g, d, cp, jp = db.move_row(db.groups, t, a, b)
            if use_r:
                r, e, cr, jr = db.move_row(db.rgroups, t, a, b)
            else:
                r, e, cr, jr = 0, 0, None, ()
            if jr if mv.vertical else jp:
                raise ValueError("unexpected jumped squares (the board must be square or have no reflection)")
            jumped = jp or jr
            g1, a1 = divmod(t - 1, cols)
            dm = (abs(b // cols - g1) + abs(b % cols - a1)) - (abs(a // cols - g1) + abs(a % cols - a1))
            cp = tuple(4 * c for c in cp) + (0,) if cp else zero
            cr = tuple(4 * c for c in cr) + (0,) if cr else zero
            if mv.vertical:  # the plain index uses the jumped squares
                row[t] = (g, 4 * d, cp, r, 4 * e, dm)
            else:  # the reflected one does
                row[t] = (g, 4 * d, r, 4 * e, cr, dm)
        if len(jumped) > slots:
            raise ValueError(f"{len(jumped)} jumped squares, the loop has {slots} slots")
        vrows.append((tuple(row), tuple(jumped) + (n,) * (slots - len(jumped))))
    return vrows


def pdb78_searcher(db: PDB78, *, reflect: bool = True):
    """A searcher factory (the contract of :func:`fifteen.search.ida.ida_star`) bounded by
    ``MD + 2 * max(entries, reflected entries)`` (the plain entries alone when *reflect* is
    false or the board is not square)."""
    use_r = reflect and bool(db.rgroups)
    programs: dict[MoveTables, LoopProgram] = {}

    def program(tables: MoveTables) -> LoopProgram:
        """Per automaton state, the moves vertical on the board and the others, each
        ``(s, row, next state, j1, j2, ...)``; once per move tables."""
        if tables not in programs:
            n = tables.n
            vrows = move_rows(db, tables, use_r)
            sv, sh = [], []
            for entry in tables.successors:
                v: list[tuple] = []
                h: list[tuple] = []
                for s, mn, st in entry:
                    m = mn // n
                    row, jumped = vrows[m]
                    (v if tables.moves[m].vertical else h).append((s, row, st, *jumped))
                sv.append(tuple(v))
                sh.append(tuple(h))
            programs[tables] = LoopProgram(pdb78_loop(use_r, jump_slots(db.cols)), {"sv": sv, "sh": sh, "T": db.data})
        return programs[tables]

    def factory(
        shape: Shape, board, tick: Tick, *, tables: MoveTables | None = None, state: int | None = None, goal: Sequence[int] | None = None
    ) -> Searcher:
        if (shape.rows, shape.cols) != (db.rows, db.cols):
            raise ValueError(f"{db.name} is for {db.rows}x{db.cols}, not {shape}")
        require_standard_goal(shape, goal, db.name)
        tables = tables or tables_for(shape, board)
        loop_board = list(board) + [0]  # square n: sentinel holding "tile 0"
        md0 = manhattan(shape, board)
        I = [4 * x for x in db.indices(board)]  # noqa: E741 - the loop's name for the plain indices
        V = [db.nibble(x >> 2) for x in I]
        hp0 = md0 + 2 * sum(V)
        if not use_r:
            return program(tables).searcher(board, tick, tables, state, hp0, (hp0,), {"board": loop_board, "I": I, "V": V})
        R = [4 * x for x in db.rindices(board)]
        W = [db.nibble(x >> 2) for x in R]
        hr0 = md0 + 2 * sum(W)
        values = {"board": loop_board, "I": I, "R": R, "V": V, "W": W}
        return program(tables).searcher(board, tick, tables, state, max(hp0, hr0), (hp0, hr0), values)

    return factory


__all__ = ["PDB78_PLAIN_LOOP", "PDB78_REFLECTED_LOOP", "jump_slots", "move_rows", "pdb78_loop", "pdb78_searcher"]
