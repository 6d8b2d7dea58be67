"""Dual lookups in the 7-8 pattern database, with BPMX (experimental; issue 5, item 4).

Not wired into the solver: :func:`pdb78_dual_searcher` is a searcher factory
for :func:`fifteen.search.ida_star`, measured in bench/pdb78.md ("Dual lookups
and BPMX").

The dual, worked out for this project's convention
---------------------------------------------------
Label the tiles ``L(t) = t - 1`` and the blank ``L(0) = n - 1``; a position is
the permutation ``pi: square -> label`` and the goal is the identity.  A move
of the blank from square ``b`` to ``c`` is ``pi -> pi o (b c)``.  If the blank
walks ``b0, b1, ..., bk = n-1`` to solve ``pi``, then ``pi^-1 = (b0 b1)(b1
b2)...(b(k-1) bk)``: the **dual** position ``D = pi^-1`` (dual tile ``g`` on
the square given by the label of the tile on square ``g``; in the tiles'
terms, the dual position of tile ``t`` is the goal square of the tile now on
square ``t - 1``) is reached from the goal by the same k square exchanges, in
which the label ``b0`` plays the blank (it walks ``b0 -> ... -> n-1``) and the
real blank is an ordinary tile.  Hence:

* ``b0 = n - 1`` (blank home): ``D`` is a legal position, ``d(D) = d(pi)``, and
  every lookup of ``D`` (plain and reflected) is admissible (checked exactly
  on 3x3 in tests/test_pdb78_dual.py).
* otherwise ``D`` is a position of a puzzle whose blank is the label ``b0``
  and whose goal has that "pseudo-blank" on ``b0``, not on ``n - 1``.  A group
  table (minimum over the blank's *start*, but with the blank *finishing* in
  the region of square ``n - 1`` around the group's home) then only applies
  to a group that does not contain the label ``b0`` and whose goal region of
  ``n - 1`` contains ``b0``.  On 4x4: tiles 1-7 (free goal region: squares
  7..15) apply iff the blank is not on squares 0..6; tiles 8-15 (square 15
  is walled in by tiles 12 and 15 at the goal) never.  The other groups get
  their Manhattan distance: the dual's Manhattan distance over all labels but
  ``b0`` equals the position's own MD, so this **general dual** bound is
  ``MD + 2 * (entries of the applicable groups of D)`` (its 4th lookup, the
  dual of the reflected position, is the reflected lookup of ``D``: reflection
  commutes with inversion).  Using every group regardless (the plain "dual
  lookup") is *not* admissible here: ``1 2 0 / 4 5 3 / 7 8 6`` (2 moves) gets
  9 on the 3x3 test pack.
* **shifted dual**: move the blank home along a fixed path of ``m`` moves
  (right, then down) to ``s'``; ``d(s) >= d(s') - m = d(dual(s')) - m``, so
  ``max(plain, reflected)(dual(s')) - m`` is admissible too.

Both are inconsistent (a child's value can exceed the parent's by more than
1), which is what BPMX exploits.  In IDA* with unit costs and the parity step
of 2, bidirectional pathmax reduces to one rule: when a child's value exceeds
the parent's remaining budget by more than 1 (``h(c) - 1 > bound - g(parent)``),
the parent is cut at once; the downward half (``h(c) >= h(parent) - 1``) never
cuts anything the rule does not (see bench/pdb78.md).

The dual values are computed from scratch (ranks of the dual placements) and
only for children that the regular and reflected values (incremental, as in
:func:`fifteen.pdb78_search.pdb78_searcher`) did not cut.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from fifteen.board import neighbours
from fifteen.pdb78 import PDB78, manhattan, radix_weights
from fifteen.pdb78_search import move_rows

__all__ = ["DualLookups", "dual_board", "dual_positions", "pdb78_dual_searcher"]


def dual_positions(tiles: Sequence[int]) -> list[int]:
    """``pos[t]``: the square of tile t in the dual position (tile 0 = the blank)."""
    n = len(tiles)
    return [(tiles[(t - 1) % n] or n) - 1 for t in range(n)]


def dual_board(tiles: Sequence[int]) -> list[int]:
    """The dual position (the inverse permutation) as a board; its blank is on the
    square numbered like the tile on the last square (its goal square, blank home)."""
    n = len(tiles)
    out = [0] * n
    for t, p in enumerate(dual_positions(tiles)):
        out[p] = t
    return out


def _region(nb, blocked, start) -> set[int]:
    seen = {start}
    stack = [start]
    while stack:
        p = stack.pop()
        for q in nb[p]:
            if q not in blocked and q not in seen:
                seen.add(q)
                stack.append(q)
    return seen


class DualLookups:
    """Admissible dual values of a :class:`~fifteen.pdb78.PDB78` (any board it covers)."""

    def __init__(self, db: PDB78, *, path_order: str = "rd") -> None:
        from fifteen.board import Shape

        self.db = db
        n = self.n = db.n
        cols = self.cols = db.cols
        nb = neighbours(Shape(db.rows, db.cols))
        self.lookups = (db.groups,) + ((db.rgroups,) if db.rgroups else ())
        #: usable[lookup][group][b0]: the group's table applies to the dual when the blank is on b0
        self.usable = []
        for look in self.lookups:
            rows = []
            for gi, g in enumerate(look):
                home = _region(nb, {t - 1 for t in db.groups[gi].tiles}, n - 1)
                rows.append(tuple((b0 == n - 1 or b0 + 1 not in g.tiles) and g.smap[b0] in home for b0 in range(n)))
            self.usable.append(tuple(rows))
        #: blank path home from each square (squares visited after the start)
        self.paths = []
        for b in range(n):
            p, x = [], b
            for step in path_order:
                if step == "r":
                    while x % cols != cols - 1:
                        x += 1
                        p.append(x)
                else:
                    while x < n - cols:
                        x += cols
                        p.append(x)
            assert x == n - 1
            self.paths.append(tuple(p))

    def general_values(self, tiles: Sequence[int]) -> list[int]:
        """Per lookup (plain, reflected): ``MD + 2 * entries of the applicable groups of the dual``."""
        db = self.db
        b0 = list(tiles).index(0)
        pos = dual_positions(tiles)
        md = manhattan(tiles, self.cols)
        out = []
        for look, usable in zip(self.lookups, self.usable):
            e = sum(db.nibble(g.index(pos)) for g, u in zip(look, usable) if u[b0])
            out.append(md + 2 * e)
        return out

    def shifted_value(self, tiles: Sequence[int]) -> int:
        """``max over lookups of value(dual(s')) - m``, s' = the blank moved home along the fixed path."""
        db = self.db
        s2 = list(tiles)
        x = s2.index(0)
        path = self.paths[x]
        for y in path:
            s2[x], s2[y] = s2[y], 0
            x = y
        pos = dual_positions(s2)
        md = manhattan(s2, self.cols)
        return md + 2 * max(sum(db.nibble(g.index(pos)) for g in look) for look in self.lookups) - len(path)

    def bound(self, tiles: Sequence[int], *, general: bool = True, shifted: bool = True) -> int:
        """The best admissible dual value (-1 with neither)."""
        v = -1
        if general:
            v = max(self.general_values(tiles))
        if shifted:
            v = max(v, self.shifted_value(tiles))
        return v


def pdb78_dual_searcher(
    db: PDB78,
    *,
    reflect: bool = True,
    general: bool = True,
    shifted: bool = True,
    bpmx: str | None = "eager",
    max_gap: int | None = None,
    stats: dict | None = None,
):
    """Searcher factory (protocol of :func:`fifteen.search.ida_star`): the bound of
    :func:`fifteen.pdb78_search.pdb78_searcher` (MD + 2*max(entries, reflected entries),
    incremental) plus, for children it does not cut, the admissible dual values
    (*general* and/or *shifted*, see the module docstring).

    *bpmx*: ``"eager"`` evaluates every child of a node before searching any
    of them and cuts the node when one child's value exceeds its budget by
    more than 1 (BPMX); ``"lazy"`` searches children in order and cuts the
    remaining siblings at such a child; ``None``: dual values only prune the
    child itself.  *max_gap*: evaluate the dual only when the regular value is
    within this many moves of the child's budget (None: always).
    *stats* (a dict) receives counters: ``dual_evals``, ``dual_cuts``,
    ``bpmx_cuts``.
    """
    from fifteen.moves import move_tables

    use_r = reflect and bool(db.rgroups)
    if bpmx not in ("eager", "lazy", None):
        raise ValueError(f"bpmx must be 'eager', 'lazy' or None, not {bpmx!r}")
    use_dual = general or shifted

    def factory(shape, board, tick):
        if (shape.rows, shape.cols) != (db.rows, db.cols):
            raise ValueError(f"{db.name} is for {db.rows}x{db.cols}, not {shape}")
        mt = move_tables(shape)
        n = mt.n
        cols = db.cols
        T = db.data
        dl = DualLookups(db)
        looks = dl.lookups if use_r else dl.lookups[:1]
        usable = dl.usable if use_r else dl.usable[:1]
        # Per lookup and group: (offset, per-square label -> table square map, label list, weights)
        # The dual square of tile t is LAB[content of square t-1] (LAB[0] = n-1): a group's dual
        # index is the rank of [smap[LAB[bd[t-1]]] for t in its tiles].
        LAB = [n - 1] + list(range(n - 1))
        gdesc = []  # [(lookup index, group index, offset, squares read, map content -> table square, weights)]
        for li, look in enumerate(looks):
            for gi, g in enumerate(look):
                mp = tuple(g.smap[LAB[c]] for c in range(n))
                gdesc.append((li, gi, g.offset, tuple((t - 1) % n for t in g.tiles), mp, tuple(radix_weights(n, len(g.tiles)))))
        pop = bytes(bin(m).count("1") for m in range(1 << n))
        below = tuple((1 << q) - 1 for q in range(n))
        bit = tuple(1 << q for q in range(n))
        nib = db.nibble

        def dual_index(bd, off, sqs, mp, w):
            x = off
            used = 0
            for q, wi in zip(sqs, w):
                p = mp[bd[q]]
                x += wi * (p - pop[used & below[p]])
                used |= bit[p]
            return x

        # general dual: per blank square, the groups that apply, per lookup
        gen_by_b0 = []
        for b0 in range(n):
            per_look = [[] for _ in looks]
            for li, gi, off, sqs, mp, w in gdesc:
                if usable[li][gi][b0]:
                    per_look[li].append((off, sqs, mp, w))
            gen_by_b0.append(tuple(tuple(x) for x in per_look if x))
        all_groups = [[] for _ in looks]
        for li, gi, off, sqs, mp, w in gdesc:
            all_groups[li].append((off, sqs, mp, w))
        all_groups = tuple(tuple(x) for x in all_groups)
        # shifted dual: per blank square, the path's (from, to) steps and MD changes per tile
        md_of = [[abs(p // cols - (t - 1) // cols) + abs(p % cols - (t - 1) % cols) if t else 0 for t in range(n)] for p in range(n)]
        shift_steps = []
        for b0 in range(n):
            steps, x = [], b0
            for y in dl.paths[b0]:
                steps.append((x, y))
                x = y
            shift_steps.append(tuple(steps))
        s2 = [0] * (n + 1)

        def dual_value(bd, b0, md):
            """Best admissible dual value of the position bd (blank on b0, Manhattan distance md)."""
            v = -1
            if general:
                for gl in gen_by_b0[b0]:
                    e = 0
                    for off, sqs, mp, w in gl:
                        x = dual_index(bd, off, sqs, mp, w)
                        e += (T[x >> 1] >> ((x & 1) << 2)) & 15
                    if md + 2 * e > v:
                        v = md + 2 * e
            if shifted:
                steps = shift_steps[b0]
                if steps:
                    s2[:] = bd
                    m2 = md
                    for x, y in steps:
                        t = s2[y]
                        m2 += md_of[x][t] - md_of[y][t]
                        s2[x] = t
                        s2[y] = 0
                    src = s2
                    m2 -= len(steps)  # the m moves are subtracted
                else:
                    src = bd
                    m2 = md
                best = 0
                for gl in all_groups:
                    e = 0
                    for off, sqs, mp, w in gl:
                        x = dual_index(src, off, sqs, mp, w)
                        e += (T[x >> 1] >> ((x & 1) << 2)) & 15
                    if e > best:
                        best = e
                if m2 + 2 * best > v:
                    v = m2 + 2 * best
            return v

        st = stats if stats is not None else {}
        for key in ("dual_evals", "dual_cuts", "bpmx_cuts"):
            st.setdefault(key, 0)
        evals = cuts = bcuts = 0
        gap_limit = (1 << 30) if max_gap is None else max_gap

        # ---- regular + reflected part: the tables of fifteen.pdb78_search.pdb78_searcher
        bd = list(board) + [0]  # square n: sentinel holding "tile 0"; the blank's square holds 0 too
        I = [4 * x for x in db.indices(board)]
        R = [4 * x for x in db.rindices(board)] if use_r else [0, 0]
        vrows = move_rows(db, mt, use_r)
        succ = []
        for entry in mt.successors:
            lst = []
            for s, mn, stn in entry:
                m = mn // n
                row, (j1, j2, j3) = vrows[m]
                lst.append((s, row, stn, j1, j2, j3, mt.moves[m].vertical))
            succ.append(tuple(lst))
        md0 = manhattan(board, cols)
        V = [nib(x >> 2) for x in I]
        W = [nib(x >> 2) for x in R] if use_r else [0, 0]
        hp0 = md0 + 2 * sum(V)
        hr0 = md0 + 2 * sum(W) if use_r else -(1 << 20)
        path: list[int] = []
        nodes = next_tick = 0

        def child(row, vert, t, j1, j2, j3, budget, hp, hr):
            """(h, h2, x1, v1, y1, w1, g, r) of the child, or None when the regular values cut it."""
            if vert:
                g, d, cp, r, e, dm = row[t]
                x1 = I[g] + d + cp[bd[j1]] + cp[bd[j2]] + cp[bd[j3]]
                y1 = R[r] + e
            else:
                g, d, r, e, cr, dm = row[t]
                x1 = I[g] + d
                y1 = R[r] + e + cr[bd[j1]] + cr[bd[j2]] + cr[bd[j3]]
            v1 = (T[x1 >> 3] >> (x1 & 4)) & 15
            h = hp + dm + ((v1 - V[g]) << 1)
            if h > budget:
                return None
            w1 = (T[y1 >> 3] >> (y1 & 4)) & 15
            h2 = hr + dm + ((w1 - W[r]) << 1)
            if h2 > budget:
                return None
            return h, h2, x1, v1, y1, w1, g, r, dm

        def dfs(b: int, state: int, budget: int, hp: int, hr: int, md: int) -> bool:
            nonlocal nodes, next_tick, evals, cuts, bcuts
            nodes += 1
            if nodes >= next_tick:
                next_tick = tick(nodes)
            budget -= 1
            kids = []
            for s, row, stn, j1, j2, j3, vert in succ[state]:
                t = bd[s]
                c = child(row, vert, t, j1, j2, j3, budget, hp, hr)
                if c is None:
                    continue
                h, h2 = c[0], c[1]
                if h == 0:
                    path.append(s)
                    return True
                if use_dual and budget - (h if h > h2 else h2) <= gap_limit:
                    bd[b] = t
                    bd[s] = 0
                    evals += 1
                    hd = dual_value(bd, s, md + c[8])
                    bd[s] = t
                    bd[b] = 0
                    if hd > budget:
                        cuts += 1
                        if bpmx is not None and hd > budget + 2:
                            bcuts += 1
                            return False
                        continue
                if bpmx == "eager":
                    kids.append((s, stn, t, c))
                    continue
                if descend(b, s, stn, t, c, budget, md):
                    return True
            for s, stn, t, c in kids:
                if descend(b, s, stn, t, c, budget, md):
                    return True
            return False

        def descend(b, s, stn, t, c, budget, md):
            h, h2, x1, v1, y1, w1, g, r, dm = c
            bd[b] = t
            bd[s] = 0
            x0 = I[g]
            y0 = R[r]
            v0 = V[g]
            w0 = W[r]
            I[g] = x1
            R[r] = y1
            V[g] = v1
            W[r] = w1
            if dfs(s, stn, budget, h, h2, md + dm):
                path.append(s)
                return True
            I[g] = x0
            R[r] = y0
            V[g] = v0
            W[r] = w0
            bd[s] = t
            bd[b] = 0
            return False

        h0 = max(hp0, hr0)
        b0 = board.index(0)

        def run(budget: int):
            nonlocal nodes, next_tick, evals, cuts, bcuts
            nodes, next_tick = 0, tick(0)
            evals = cuts = bcuts = 0
            path.clear()
            need = budget + 200
            if sys.getrecursionlimit() < need:
                sys.setrecursionlimit(need)
            try:
                found = hp0 == 0 or dfs(b0, b0, budget, hp0, hr0, md0)
            finally:
                st["dual_evals"] += evals
                st["dual_cuts"] += cuts
                st["bpmx_cuts"] += bcuts
            return (list(path) if found else None), nodes

        return h0, run

    return factory
