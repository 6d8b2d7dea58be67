"""IDA* inner loop bounded by the 7-8 pack (pure Python), in the searcher contract of
:func:`fifteen.search.ida_star` (see :mod:`fifteen.searchers`).

Built on the incremental interface of :class:`fifteen.pdb78.PDB78` (``move_row``:
the change of a group's mixed-radix rank when a tile moves), as
:mod:`fifteen.pdb_search` is on :mod:`fifteen.pdb`; the reader stays apart
in :mod:`fifteen.pdb78`.
"""

from __future__ import annotations

from .pdb78 import PDB78, manhattan
from .search import ensure_recursion


def move_rows(db: PDB78, mt, use_r: bool) -> list:
    """Per move id of *mt*: ``(row, jumped)`` where ``row[t]`` says how tile t's move changes
    the lookups — ``(g, 4*d, contrib, r, 4*e, dm)`` for a move vertical on the board (the
    plain index adds the contributions of the tiles on the jumped squares), ``(g, 4*d, r,
    4*e, contrib, dm)`` otherwise (the reflected one does); ``dm`` is the change of MD and
    ``jumped`` the (up to 3) jumped squares, padded with the sentinel square n."""
    n = mt.n
    cols = db.cols
    zero = tuple([0] * (n + 1))
    vrows = []
    for mv in mt.moves:
        a, b = mv.blank_to, mv.blank_from  # the tile slides from a to b
        row = [None] * n
        jumped = ()
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
        if len(jumped) > 3:
            raise ValueError("boards wider than 4 are not supported")
        vrows.append((tuple(row), tuple(jumped) + (n,) * (3 - len(jumped))))
    return vrows


def pdb78_searcher(db: PDB78, *, reflect: bool = True):
    """Searcher factory (protocol of :func:`fifteen.search.ida_star`) bounded by
    ``MD + 2*max(entries, reflected entries)``.

    Per move: the moving tile's group index in each lookup changes by a base
    delta plus, for the lookup in which the move is "vertical", the
    contributions of the tiles on the (up to 3) jumped squares (padded with a
    sentinel square n holding tile 0, contribution 0).  Successors come in two
    lists per automaton state: moves vertical for the plain lookup (plain
    index uses the jumped squares, reflected one is +-w) and the others.  The
    reflected lookup is only made for children the plain one did not cut.
    """
    from .moves import tables_for

    use_r = reflect and bool(db.rgroups)
    cache: dict = {}

    def successors(mt):
        """Per automaton state, the moves vertical on the board (whose plain index uses the
        jumped squares) and the others, each ``(s, row, next state, j1, j2, j3)``; once per
        move tables."""
        if mt not in cache:
            n = mt.n
            vrows = move_rows(db, mt, use_r)
            sv = []
            sh = []
            for entry in mt.successors:
                v, h = [], []
                for s, mn, st in entry:
                    m = mn // n
                    row, (j1, j2, j3) = vrows[m]
                    (v if mt.moves[m].vertical else h).append((s, row, st, j1, j2, j3))
                sv.append(tuple(v))
                sh.append(tuple(h))
            cache[mt] = sv, sh
        return cache[mt]

    def factory(shape, board, tick):
        if (shape.rows, shape.cols) != (db.rows, db.cols):
            raise ValueError(f"{db.name} is for {db.rows}x{db.cols}, not {shape}")
        mt = tables_for(shape, board)
        cols = db.cols
        T = db.data
        bd = list(board) + [0]  # square n: sentinel holding "tile 0"
        # Indices are kept times 4 (X = 4 * entry index): the entry is then
        # (T[X >> 3] >> (X & 4)) & 15, one operation fewer than with the plain index.
        I = [4 * x for x in db.indices(board)]
        R = [4 * x for x in db.rindices(board)] if use_r else [0, 0]
        sv, sh = successors(mt)
        md0 = manhattan(board, cols)
        hp0 = md0 + 2 * sum(db.nibble(x >> 2) for x in I)
        hr0 = md0 + 2 * sum(db.nibble(x >> 2) for x in R) if use_r else 0
        path: list[int] = []
        nodes = next_tick = 0

        # Current entries (nibbles) of the plain and reflected groups, kept beside the
        # indices so that only the new entry is looked up per child.
        V = [db.nibble(x >> 2) for x in I]
        W = [db.nibble(x >> 2) for x in R] if use_r else [0, 0]

        # Hot loop: tables and lists as default arguments (fast locals, not closure
        # cells), ``rec`` is dfs itself (set below); the tick is checked only in
        # nodes with slack (f <= bound - 2), which come often enough.
        def dfs(b, state, budget, hp, hr, I=I, R=R, V=V, W=W, T=T, bd=bd, sv=sv, sh=sh, path=path, rec=None):
            nonlocal nodes, next_tick
            nodes += 1
            budget -= 1
            if hp < budget and nodes >= next_tick:
                next_tick = tick(nodes)
            for s, row, st, j1, j2, j3 in sv[state]:
                t = bd[s]
                g, d, cp, r, e, dm = row[t]
                x1 = I[g] + d + cp[bd[j1]] + cp[bd[j2]] + cp[bd[j3]]
                v1 = (T[x1 >> 3] >> (x1 & 4)) & 15
                v0 = V[g]
                h = hp + dm + ((v1 - v0) << 1)
                if h > budget:
                    continue
                y1 = R[r] + e
                w1 = (T[y1 >> 3] >> (y1 & 4)) & 15
                w0 = W[r]
                h2 = hr + dm + ((w1 - w0) << 1)
                if h2 > budget:
                    continue
                if h == 0:
                    path.append(s)
                    return True
                bd[b] = t
                x0 = I[g]
                y0 = R[r]
                I[g] = x1
                R[r] = y1
                V[g] = v1
                W[r] = w1
                if rec(s, st, budget, h, h2):
                    path.append(s)
                    return True
                I[g] = x0
                R[r] = y0
                V[g] = v0
                W[r] = w0
                bd[s] = t
            for s, row, st, j1, j2, j3 in sh[state]:
                t = bd[s]
                g, d, r, e, cr, dm = row[t]
                x1 = I[g] + d
                v1 = (T[x1 >> 3] >> (x1 & 4)) & 15
                v0 = V[g]
                h = hp + dm + ((v1 - v0) << 1)
                if h > budget:
                    continue
                y1 = R[r] + e + cr[bd[j1]] + cr[bd[j2]] + cr[bd[j3]]
                w1 = (T[y1 >> 3] >> (y1 & 4)) & 15
                w0 = W[r]
                h2 = hr + dm + ((w1 - w0) << 1)
                if h2 > budget:
                    continue
                if h == 0:
                    path.append(s)
                    return True
                bd[b] = t
                x0 = I[g]
                y0 = R[r]
                I[g] = x1
                R[r] = y1
                V[g] = v1
                W[r] = w1
                if rec(s, st, budget, h, h2):
                    path.append(s)
                    return True
                I[g] = x0
                R[r] = y0
                V[g] = v0
                W[r] = w0
                bd[s] = t
            return False

        dfs.__defaults__ = dfs.__defaults__[:-1] + (dfs,)
        h0 = max(hp0, hr0)
        b0 = board.index(0)

        def run(budget: int):
            nonlocal nodes, next_tick
            nodes, next_tick = 0, tick(0)
            path.clear()
            ensure_recursion(budget)
            found = hp0 == 0 or dfs(b0, mt.start_states[b0], budget, hp0, hr0 if use_r else -(1 << 20))
            return (list(path) if found else None), nodes

        return h0, run

    return factory


__all__ = ["move_rows", "pdb78_searcher"]
