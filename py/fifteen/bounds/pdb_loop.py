"""The pattern databases' loops: additive PDB, with or without the reflected lookup (tables and
snippets for :mod:`fifteen.search.template`).

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

With the dual lookups (:func:`pdb_dual_loop`, square boards; the dual's definition and
admissibility are in :mod:`fifteen.bounds.pdb`), the children within both values that are
not the goal get a third, ``max(dual, reflected dual)``, taken lazily (the reflected dual only
when the dual does not cut): the list ``D`` holds every group's dual slot (plain groups
first, then a dummy, then the reflected groups and their dummy), moved by the two squares
of the move (``du``: which slots, by how much) and put back on return.  Optionally with BPMX
(:class:`fifteen.search.template.Loop`'s *bpmx*).  ``bench/lookups.md`` measures them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import cache

from fifteen.bounds.pdb import DUAL_MASK, DualTables, PatternDatabase
from fifteen.search.moves import MoveTables, require_standard_goal, tables_for
from fifteen.search.template import Children, Loop, LoopProgram, Searcher, Tick

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


def _dual_sum(first: int, groups: int) -> str:
    return " + ".join(f"T[D[{i}] & {DUAL_MASK}]" for i in range(first, first + groups))


def _dual_value(special: str, correction: str, slots: str) -> tuple[str, ...]:
    """``h3`` from the slots: every group's entry, the entry of the blank's group (slot
    *special*) replaced by max(entry - correction, its Manhattan distance)."""
    return (
        f"k = D[{special}]",
        f"v = T[k & {DUAL_MASK}]",
        f"c = v - {correction}",
        "m = k >> 32",
        f"h3 = {slots} - v + (c if c > m else m)",
    )


_DUAL_UNDO = ("D[qa] = op", "D[qb] = oq", "D[ha] = oa", "D[hb] = ob")


@cache
def pdb_dual_loop(groups: int, bpmx: bool = False) -> Loop:
    """max(PDB, PDBr), then max(dual, reflected dual) lazily, for *groups* lookup groups;
    with *bpmx*, bidirectional pathmax."""
    third = (
        "hb, wb, eb, ha, wa, ea, ca, qb, vb, fb, qa, va, fa, cq = du",
        "x = board[-1]",
        "ob = D[hb]",
        "D[hb] = ob + wb - eb[x]",
        "oa = D[ha]",
        "D[ha] = oa + ea[x] - wa",
        "oq = D[qb]",
        "D[qb] = oq + vb - fb[x]",
        "op = D[qa]",
        "D[qa] = op + fa[x] - va",
        *_dual_value("ha", "ca", _dual_sum(0, groups)),
        "if h3 <= budget:",
        *("    " + x for x in _dual_value("qa", "cq", _dual_sum(groups + 1, groups))),
    )
    base = PDB_REFLECTED_LOOP
    ch = base.children[0]
    return Loop(
        name=f"pdb-dual{groups}{'-bpmx' if bpmx else ''}",
        args=base.args,
        hot=(*base.hot, "D"),
        children=(
            Children(
                table=ch.table,
                fields=ch.fields,
                value=("g, d, r, e, du = row[t]",) + _PLAIN_VALUE,
                second=ch.second,
                child=ch.child,
                third=third,
                undo=_DUAL_UNDO,
                apply=ch.apply,
                restore=ch.restore + _DUAL_UNDO,
            ),
        ),
        tick_slack=base.tick_slack,
        order=base.order,
        parent_value=base.parent_value,
        bpmx=bpmx,
        about=f"additive pattern database: max(PDB, PDBr), then max(dual, reflected dual){', BPMX' if bpmx else ''}",
        legend=(
            *(x for x in base.legend if x[0] != "row"),
            ("row", "row[t] = (g, d, r, e, du): how tile t's move changes the plain, the reflected and the dual lookups"),
            ("D", "D[i]: the dual slots (index + Manhattan distance << 32): plain groups, a dummy, reflected groups, a dummy"),
            (
                "du",
                "(hb, wb, eb, ha, wa, ea, ca, qb, vb, fb, qa, va, fa, cq): the dual slots of the move's two squares,"
                " what moves them, the correction",
            ),
            ("x", "the tile on the last square (the blank's square takes its weight in the dual)"),
            ("k", "the slot of the child's blank's group; v its entry, c less the correction, m its Manhattan distance"),
        ),
    )


def pdb_loop(reflect: bool, dual: int = 0, bpmx: bool = False) -> Loop:
    """The loop of the PDB bound: with the reflected lookup or not; with *dual* (the number of
    lookup groups, square boards only) the dual lookups too."""
    if dual:
        return pdb_dual_loop(dual, bpmx)
    if bpmx:
        return _with_bpmx(PDB_REFLECTED_LOOP if reflect else PDB_PLAIN_LOOP)
    return PDB_REFLECTED_LOOP if reflect else PDB_PLAIN_LOOP


@cache
def _with_bpmx(loop: Loop) -> Loop:
    return replace(loop, name=f"{loop.name}-bpmx", bpmx=True, about=f"{loop.about} with BPMX")


def _dual_row(db: PatternDatabase, tabs: Sequence[DualTables], t: int, a: int, b: int) -> tuple:
    """How tile t's slide from square a to b (the blank from b to a) moves the dual slots."""
    n = db.n
    out: list = []
    for tab in tabs:  # the plain lookup's dual, then the reflected's
        eb = tab.extra[b]
        # The blank leaves b: the weight of the tile on the last square is read at run time, but
        # with the blank on the last square that square holds no tile: t will be there.
        ea = tab.extra[a] if b != n - 1 else (tab.extra[a][t],) * n
        out += [tab.home[b], tab.weight[b][t], eb, tab.home[a], tab.weight[a][t], ea, tab.correction[a]]
    return tuple(out)


def pdb_searcher(db: PatternDatabase, *, reflect: bool = True, dual: bool = False, bpmx: bool = False):
    """A searcher factory (the contract of :func:`fifteen.search.ida.ida_star`) bounded by
    ``max(PDB, PDBr)`` (``PDB`` alone when *reflect* is false or the board is not square); with
    *dual* (square boards, with *reflect*) also by the dual lookups, taken lazily; with *bpmx*,
    bidirectional pathmax (a node is cut when a child's value less one exceeds the node's own
    budget; its count then depends on its children's order, so the split tree of a parallel
    search, which does not do that, would not add up to it)."""
    use_r = reflect and bool(db.rgroups)
    use_d = dual and use_r
    if dual and not use_d:
        raise ValueError("the dual lookups need the reflected lookup (a square board)")
    k = len(db.groups)
    tabs: tuple[DualTables, ...] = (db.dual_tables(False, 0), db.dual_tables(True, k + 1)) if use_d else ()
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
                        + ((_dual_row(db, tabs, t, mv.blank_to, mv.blank_from),) if use_d else ())
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
            programs[tables] = LoopProgram(pdb_loop(use_r, k if use_d else 0, bpmx), {"succ": succ, "T": db.data})
        return programs[tables]

    def factory(
        shape, board, tick: Tick, *, tables: MoveTables | None = None, state: int | None = None, goal: Sequence[int] | None = None
    ) -> Searcher:
        if (shape.rows, shape.cols) != (db.rows, db.cols):
            raise ValueError(f"{db.name} is for {db.rows}x{db.cols}, not {shape}")
        require_standard_goal(shape, goal, db.name)
        tables = tables or tables_for(shape, board)
        T = db.data  # every table, indexed by flat indices
        I = db.indices(board)  # noqa: E741 - the loop's name for the plain indices
        hp0 = sum(T[i] for i in I)
        if not use_r:
            return program(tables).searcher(board, tick, tables, state, hp0, (hp0,), {"I": I})
        R = db.rindices(board)
        hr0 = sum(T[i] for i in R)
        if not use_d:
            return program(tables).searcher(board, tick, tables, state, max(hp0, hr0), (hp0, hr0), {"I": I, "R": R})
        D = tabs[0].slots(board) + tabs[1].slots(board)
        h0 = max(hp0, hr0, db.dual_value(board))
        return program(tables).searcher(board, tick, tables, state, h0, (hp0, hr0), {"I": I, "R": R, "D": D})

    return factory


__all__ = ["PDB_PLAIN_LOOP", "PDB_REFLECTED_LOOP", "pdb_dual_loop", "pdb_loop", "pdb_searcher"]
