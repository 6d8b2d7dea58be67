"""The pattern databases' loops: additive PDB, with or without the reflected lookup (tables and
snippets for :mod:`fifteen.search.loops.template`).

Built on the incremental interface of :mod:`fifteen.bounds.pdb`: each successor entry carries the
*row* of its move, ``row[t] = (g, d, r, e)``: the plain group of tile t and the change of that
group's flat index when t makes this move, then the same for the reflected lookup (``(g, d)``
without it).  The group indices live in two small lists (``I`` plain, ``R`` reflected)
updated in place and restored on return; ``hp``/``hr`` are the two sums, updated from the one
group that changes (one lookup each in ``T``, every table in one ``bytes``).  The reflected
lookup is made only for children the plain one did not cut.

With the reflected lookup the loop checks the tick only in nodes with slack
(``f <= bound - 2``: most nodes are tight, and slack nodes come often enough in every
iteration but the first, which is tiny) and has the ordering pass at slack >= 6: children
whose plain value drops go first, which finds the goal sooner in the last iteration (-8 % of
the nodes on Korf's 100; slack >= 6 is where nearly all of that gain is, at little cost).
"""

from __future__ import annotations

from fifteen.bounds.pdb import PatternDatabase
from fifteen.search.loops.template import Children, Loop, LoopProgram, Searcher, Tick
from fifteen.search.moves import MoveTables, tables_for

_PLAIN_VALUE = ("i0 = I[g]", "i1 = i0 + d", "h = hp - T[i0] + T[i1]")

#: The names of the plain lookup (both loops).
_PLAIN_LEGEND = (
    ("hp", "the node's PDB value: the sum of its groups' entries (plain lookup)"),
    ("succ", "succ[state]: the moves the automaton allows in this state, as entries (s, row, st)"),
    ("I", "I[g]: group g's flat index into T for this node (plain lookup); updated in place, restored on return"),
    ("T", "every group's table in one bytes, indexed by flat indices: T[i] is an entry (moves of the group's tiles)"),
    ("g", "the plain group of tile t"),
    ("d", "the change of group g's flat index when tile t makes this move"),
    ("i0", "group g's index at the node; i1 at the child"),
)

#: max(PDB, PDBr).
PDB_REFLECTED_LOOP = Loop(
    name="pdb-reflected",
    args=("hp", "hr"),
    hot=("succ", "I", "R", "T"),
    children=(
        Children(
            table="succ",
            fields=("s", "row", "st"),
            value=("g, d, r, e = row[t]",) + _PLAIN_VALUE,
            second=("j0 = R[r]", "j1 = j0 + e", "h2 = hr - T[j0] + T[j1]"),
            child=("h", "h2"),
            apply=("I[g] = i1", "R[r] = j1"),
            restore=("I[g] = i0", "R[r] = j0"),
        ),
    ),
    tick_slack="hp < budget",
    order="hp < budget - 4 and hr < budget - 4",
    parent_value="hp",
    about="additive pattern database, max with its reflected lookup",
    legend=(
        *_PLAIN_LEGEND,
        ("hr", "the node's reflected PDB value (the lookup of the position mirrored about the diagonal)"),
        ("R", "R[r]: group r's flat index into T for the reflected lookup"),
        ("row", "row[t] = (g, d, r, e): how tile t's move changes the plain and the reflected lookups"),
        ("r", "the reflected group of tile t"),
        ("e", "the change of group r's flat index"),
        ("j0", "group r's index at the node; j1 at the child"),
    ),
)

#: PDB alone (non-square boards, or the reflection switched off).
PDB_PLAIN_LOOP = Loop(
    name="pdb-plain",
    args=("hp",),
    hot=("succ", "I", "T"),
    children=(
        Children(
            table="succ",
            fields=("s", "row", "st"),
            value=("g, d = row[t]",) + _PLAIN_VALUE,
            child=("h",),
            apply=("I[g] = i1",),
            restore=("I[g] = i0",),
        ),
    ),
    about="additive pattern database",
    legend=(*_PLAIN_LEGEND, ("row", "row[t] = (g, d): how tile t's move changes the lookup")),
)


def pdb_loop(reflect: bool) -> Loop:
    return PDB_REFLECTED_LOOP if reflect else PDB_PLAIN_LOOP


def pdb_searcher(db: PatternDatabase, *, reflect: bool = True):
    """A searcher factory (the contract of :func:`fifteen.search.ida.ida_star`) bounded by
    ``max(PDB, PDBr)`` (``PDB`` alone when *reflect* is false or the board is not square)."""
    use_r = reflect and bool(db.rgroups)
    programs: dict[MoveTables, LoopProgram] = {}

    def program(tables: MoveTables) -> LoopProgram:
        """The loop with successor lists carrying each move's row, built once per move tables."""
        if tables not in programs:
            n = tables.n
            rows = [
                tuple(
                    (
                        (
                            db.group_of[t],
                            db.delta[t][mv.blank_to * n + mv.blank_from],
                            db.rgroup_of[t],
                            db.rdelta[t][mv.blank_to * n + mv.blank_from],
                        )
                        if use_r
                        else (db.group_of[t], db.delta[t][mv.blank_to * n + mv.blank_from])
                    )
                    if t
                    else None
                    for t in range(n)
                )
                for mv in tables.moves
            ]
            succ = [tuple((s, rows[m // n], st) for s, m, st in entry) for entry in tables.successors]
            programs[tables] = LoopProgram(pdb_loop(use_r), {"succ": succ, "T": db.data})
        return programs[tables]

    def factory(shape, board, tick: Tick, *, tables: MoveTables | None = None, state: int | None = None) -> Searcher:
        if (shape.rows, shape.cols) != (db.rows, db.cols):
            raise ValueError(f"{db.name} is for {db.rows}x{db.cols}, not {shape}")
        tables = tables or tables_for(shape, board)
        T = db.data  # every table, indexed by flat indices
        I = db.indices(board)  # noqa: E741 - the loop's name for the plain indices
        hp0 = sum(T[i] for i in I)
        if not use_r:
            return program(tables).searcher(board, tick, tables, state, hp0, (hp0,), {"I": I})
        R = db.rindices(board)
        hr0 = sum(T[i] for i in R)
        return program(tables).searcher(board, tick, tables, state, max(hp0, hr0), (hp0, hr0), {"I": I, "R": R})

    return factory


__all__ = ["PDB_PLAIN_LOOP", "PDB_REFLECTED_LOOP", "pdb_loop", "pdb_searcher"]
