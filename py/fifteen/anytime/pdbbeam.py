"""Beams towards the goal ranked and pruned by the 5x5 pattern databases (the prover's tables).

The scheme is :mod:`fifteen.anytime.beam`'s (breadth-first, the *width* best children of a
layer kept, duplicates looked for over the last layers, ``g + h >= upper`` pruned), with ``h``
the 5-5-5-5-4 tables' bound (:mod:`fifteen.bounds.pdb78`): ``MD + 2 * max(entries, reflected
entries)``, admissible, so the pruning stays sound, and 6-8 moves above MD + LC on Korf and
Taylor's positions, so it ranks the children better and prunes more (``bench/anytime.md``,
*The pattern databases in the beams*).  The tables are for the standard goal only: beams from
the position towards the goal use them (:func:`pdb_guide`), the others keep MD + LC.

**Per child**, as the prover's loop (:mod:`fifteen.bounds.pdb78_loop`): the moving tile changes
one group's index in each lookup, by a base delta plus, for the lookup in which the move is
vertical, the contributions of the tiles on the four squares it jumps over; one entry is looked
up per lookup.  A kept node carries its indices (times 4, so an entry is
``(T[x >> 3] >> (x & 4)) & 15``) and entries in one tuple: ``I`` (the plain groups'),
``R`` (the reflected ones'), then ``V`` and ``W`` (their entries).  Labels are target squares
(:mod:`fifteen.anytime.tables`): on the standard goal tile ``label + 1``, the blank ``N - 1``.
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Callable, Sequence
from functools import cache

from fifteen.anytime.beam import BEAM_MAX_STATES, CHUNK, DUP_LAYERS
from fifteen.anytime.tables import LabelTables, labelled
from fifteen.board import Shape
from fifteen.bounds import databases
from fifteen.bounds.pdb78 import PDB78
from fifteen.search.slices import Steps, due, resumable

#: The bound whose tables guide the beams, per board side.
GUIDE_BOUNDS = {5: "pdb55554"}


class PDBGuide:
    """The per-move rows of one database on one shape's :class:`LabelTables` (see the module docstring).

    ``vert[state]`` and ``horiz[state]``: the allowed moves after move ``state`` (as
    ``T.succ``), vertical and horizontal on the board, each ``(s, m * N, next state, j1, j2, j3,
    j4)`` with the jumped squares (of the plain lookup for vertical moves, of the reflected one
    for horizontal ones).  ``row[m * N + label]``: ``(g, 4 d, c, r, 4 e, dm)``: the plain group
    *g* and its base delta, the jumped tiles' contributions ``c[label]`` (to the plain index for a
    vertical move, to the reflected one for a horizontal move), the reflected group *r* and its
    base delta, the change of MD.
    """

    def __init__(self, db: PDB78, T: LabelTables):
        if not db.rgroups or (db.rows, db.cols) != (T.rows, T.cols) or db.cols - 1 != 4:
            raise ValueError("PDBGuide: a 5x5 database with its reflection")
        self.db, self.T = db, T
        n = T.n
        zero = tuple([0] * n)
        row: list[tuple] = [None] * (T.moves * n)  # type: ignore[list-item]
        jumps: list[tuple[int, ...]] = []
        vertical: list[bool] = []
        frm, to = [0] * T.moves, [0] * T.moves
        for b in range(n):  # the start state of square b lists every move from it
            for s, _mn, m, _l1, _l2, _l3 in T.succ[T.start_state(b)]:
                frm[m], to[m] = b, s
        for m in range(T.moves):
            b, s = frm[m], to[m]  # the blank goes from b to s: the tile slides from s to b
            vert = abs(s - b) == T.cols
            vertical.append(vert)
            jumped: tuple[int, ...] = ()
            for label in range(n - 1):
                tile = label + 1
                g, d, cp, jp = db.move_row(db.groups, tile, s, b)
                r, e, cr, jr = db.move_row(db.rgroups, tile, s, b)
                if (jr if vert else jp) or len(jp or jr) != 4:
                    raise ValueError("PDBGuide: unexpected jumped squares")
                jumped = jp or jr
                c = cp if vert else cr
                c4 = tuple(4 * c[x + 1] for x in range(n - 1)) + (0,)  # by label; the blank's label (n - 1) contributes 0
                row[m * n + label] = (g, 4 * d, c4, r, 4 * e, T.mdd[m * n + label])
            jumps.append(jumped)
            row[m * n + n - 1] = (0, 0, zero, 0, 0, 0)  # (the blank never slides)
        self.row = row
        self.vert = [tuple((s, mn, st, *jumps[st]) for s, mn, st, _a, _b, _c in entries if vertical[st]) for entries in T.succ]
        self.horiz = [tuple((s, mn, st, *jumps[st]) for s, mn, st, _a, _b, _c in entries if not vertical[st]) for entries in T.succ]

    def state(self, board: Sequence[int], blank: int) -> tuple[int, tuple[int, ...]]:
        """``(h, I + R + V + W)`` of a labelled board (labels of the standard goal)."""
        n = self.T.n
        tiles = [0 if sq == blank else board[sq] + 1 for sq in range(n)]
        db = self.db
        ii = [4 * x for x in db.indices(tiles)]
        rr = [4 * x for x in db.rindices(tiles)]
        vv = [db.nibble(x >> 2) for x in ii]
        ww = [db.nibble(x >> 2) for x in rr]
        md = sum(self.T.md[board[sq] * n + sq] for sq in range(n) if sq != blank)
        return md + 2 * max(sum(vv), sum(ww)), (*ii, *rr, *vv, *ww)


@cache
def _guide(db: PDB78, T: LabelTables) -> PDBGuide:
    return PDBGuide(db, T)


def pdb_guide(T: LabelTables, target: Sequence[int]) -> PDBGuide | None:
    """The pattern databases' guide for beams towards *target* on *T*'s shape: None unless
    *target* is the standard goal of a board with tables (5x5) and they are available (loaded,
    or listed in the database directory)."""
    shape = T.shape
    name = GUIDE_BOUNDS.get(shape.rows) if shape.rows == shape.cols else None
    if name is None or tuple(target) != Shape(shape.rows, shape.cols).goal():
        return None
    if not databases.offers_pattern_database(name, shape):
        return None
    db = databases.pattern_database(name, shape)
    if not isinstance(db, PDB78):
        return None
    return _guide(db, T)


def pdb_beam_search(
    guide: PDBGuide,
    start: Sequence[int],
    width: int,
    check: Callable[[], None] | None = None,
    upper: int | None = None,
    dup_layers: int = DUP_LAYERS,
    max_states: int = BEAM_MAX_STATES,
    max_depth: int | None = None,
) -> list[int] | None:
    """A path (the blank's squares) from *start* to the standard goal found by a beam of *width*
    ranked and pruned by *guide*'s tables, or None; otherwise as :func:`fifteen.anytime.beam.beam_search`."""
    key = ("pdbbeam", guide, tuple(start), width, check, upper, dup_layers, max_states, max_depth)
    return resumable(key, lambda: _pdb_beam_steps(guide, start, width, check, upper, dup_layers, max_states, max_depth))


def _pdb_beam_steps(
    guide: PDBGuide,
    start: Sequence[int],
    width: int,
    check: Callable[[], None] | None,
    upper: int | None,
    dup_layers: int,
    max_states: int,
    max_depth: int | None,
) -> Steps[list[int] | None]:
    T = guide.T
    n = T.n
    board = labelled(start, T.shape.goal())
    blank = list(start).index(0)
    blank_label = board[blank]
    h0, st0 = guide.state(board, blank)
    if h0 == 0:
        return []
    G = len(guide.db.groups)
    oR, oV, oW = G, 2 * G, 3 * G
    vert, horiz, row, data = guide.vert, guide.horiz, guide.row, guide.db.data
    boards = [bytes(board)]
    blanks = [blank]
    states = [T.start_state(blank)]
    md0 = sum(T.md[board[sq] * n + sq] for sq in range(n) if sq != blank)
    hps = [md0 + 2 * sum(st0[oV:oW])]  # the plain lookup's value
    hrs = [md0 + 2 * sum(st0[oW:])]  # the reflected one's
    tabs = [st0]
    seen: dict[bytes, int] = {boards[0]: 0}
    horizon = dup_layers or sys.maxsize
    parents: list[array] = []
    moved: list[bytes] = []
    g = 0
    limit = sys.maxsize if upper is None else upper
    if max_depth is None:
        max_depth = upper if upper is not None else 4 * h0 + 4 * n
    while boards and g < max_depth:
        if check is not None:
            check()
        g += 1
        room = limit - g
        keys: list[int] = []
        add = keys.append
        for lo in range(0, len(boards), CHUNK):
            for i in range(lo, min(lo + CHUNK, len(boards))):
                bd = boards[i]
                tb = tabs[i]
                hp = hps[i]
                hr = hrs[i]
                st = states[i]
                j = i << 2
                for s, m, _st, j1, j2, j3, j4 in vert[st]:
                    gp, d, c, r, e, dm = row[m + bd[s]]
                    x = tb[gp] + d + c[bd[j1]] + c[bd[j2]] + c[bd[j3]] + c[bd[j4]]
                    h = hp + dm + ((((data[x >> 3] >> (x & 4)) & 15) - tb[oV + gp]) << 1)
                    y = tb[oR + r] + e
                    h2 = hr + dm + ((((data[y >> 3] >> (y & 4)) & 15) - tb[oW + r]) << 1)
                    if h2 > h:
                        h = h2
                    if h < room:
                        add(h << 40 | j)
                    j += 1
                for s, m, _st, j1, j2, j3, j4 in horiz[st]:
                    gp, d, c, r, e, dm = row[m + bd[s]]
                    x = tb[gp] + d
                    h = hp + dm + ((((data[x >> 3] >> (x & 4)) & 15) - tb[oV + gp]) << 1)
                    y = tb[oR + r] + e + c[bd[j1]] + c[bd[j2]] + c[bd[j3]] + c[bd[j4]]
                    h2 = hr + dm + ((((data[y >> 3] >> (y & 4)) & 15) - tb[oW + r]) << 1)
                    if h2 > h:
                        h = h2
                    if h < room:
                        add(h << 40 | j)
                    j += 1
            if due():
                yield
        keys.sort()
        nb: list[bytes] = []
        nbl: list[int] = []
        nst: list[int] = []
        nhp: list[int] = []
        nhr: list[int] = []
        ntb: list[tuple[int, ...]] = []
        par = array("i")
        mv = bytearray()
        full = False
        for lo in range(0, len(keys), CHUNK):
            for key in keys[lo : lo + CHUNK]:
                i = (key >> 2) & 0x3FFFFFFFFF
                k = key & 3
                st = states[i]
                nv = len(vert[st])
                bd = boards[i]
                if k < nv:
                    s, m, st2, j1, j2, j3, j4 = vert[st][k]
                    is_vert = True
                else:
                    s, m, st2, j1, j2, j3, j4 = horiz[st][k - nv]
                    is_vert = False
                b = blanks[i]
                child = bytearray(bd)
                t = child[s]
                child[b] = t
                child[s] = blank_label
                ckey = bytes(child)
                old = seen.get(ckey)
                if old is not None and g - old <= horizon:
                    continue
                tb = tabs[i]
                gp, d, c, r, e, dm = row[m + t]
                jc = c[bd[j1]] + c[bd[j2]] + c[bd[j3]] + c[bd[j4]]
                x = tb[gp] + d + (jc if is_vert else 0)
                y = tb[oR + r] + e + (0 if is_vert else jc)
                v = (data[x >> 3] >> (x & 4)) & 15
                w = (data[y >> 3] >> (y & 4)) & 15
                hp1 = hps[i] + dm + ((v - tb[oV + gp]) << 1)
                hr1 = hrs[i] + dm + ((w - tb[oW + r]) << 1)
                h = hp1 if hp1 > hr1 else hr1
                if h == 0:
                    path = [s]
                    jj = i
                    for dd in range(len(parents) - 1, -1, -1):
                        path.append(moved[dd][jj])
                        jj = parents[dd][jj]
                    path.reverse()
                    return path
                seen[ckey] = g
                nt = list(tb)
                nt[gp] = x
                nt[oR + r] = y
                nt[oV + gp] = v
                nt[oW + r] = w
                nhp.append(hp1)
                nhr.append(hr1)
                nb.append(ckey)
                nbl.append(s)
                nst.append(st2)
                ntb.append(tuple(nt))
                par.append(i)
                mv.append(s)
                if len(nb) >= width:
                    full = True
                    break
            if full:
                break
            if due():
                yield
        if dup_layers and g % dup_layers == 0:
            seen = {kk: vv for kk, vv in seen.items() if g - vv < dup_layers}
        if len(seen) > max_states:
            return None
        boards, blanks, states, hps, hrs, tabs = nb, nbl, nst, nhp, nhr, ntb
        parents.append(par)
        moved.append(bytes(mv))
    return None


__all__ = ["GUIDE_BOUNDS", "PDBGuide", "pdb_beam_search", "pdb_guide"]
