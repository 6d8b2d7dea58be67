"""IDA* inner loop bounded by an additive PDB with the reflected lookup (pure Python).

:func:`pdb_searcher` is a searcher factory in the contract of
:func:`fifteen.search.ida_star` (see :mod:`fifteen.searchers`).  Built on the
incremental interface of :mod:`fifteen.pdb`: per move, the moving tile's
plain group index (and, only when the plain bound did not cut, its reflected
group index) is updated by one precomputed delta, and the group's term of the
sum is replaced by one table lookup.  Inner-loop choices follow
``docs/reference/performance-notes.md`` and :mod:`fifteen.search`.

"""

from __future__ import annotations

from .pdb import PatternDatabase
from .search import ensure_recursion


# ---------------------------------------------------------------------------
# The inner loop, in the searcher contract of fifteen.search / fifteen.searchers:
# ``factory(shape, board, tick) -> (h0, run)`` with ``run(budget) -> (path, nodes)``.
def pdb_searcher(db: PatternDatabase, *, reflect: bool = True):
    """A searcher factory for :func:`fifteen.search.ida_star` bounded by ``max(PDB, PDBr)``
    (``PDB`` alone when *reflect* is false or the board is not square).

    Data layout for the inner loop: each successor entry carries the *row* of
    its move, ``row[t] = (g, d, r, e)``: the plain group of tile t and the
    change of that group's flat index when t makes this move, then the same
    for the reflected lookup.  The group indices live in two small lists
    (``I`` plain, ``R`` reflected) updated in place and restored on return;
    ``hp``/``hr`` are the two sums, updated from the one group that changes.
    The reflected lookup is made only for children the plain one did not cut.
    """
    from .moves import tables_for

    use_r = reflect and bool(db.rgroups)

    cache: dict = {}

    def successors(mt):
        """Successor lists carrying each move's row of (group, delta) pairs, built once per move tables."""
        if mt not in cache:
            n = mt.n
            rgroup_of = db.rgroup_of if use_r else [0] * n
            rows = [
                tuple(
                    (
                        db.group_of[t],
                        db.delta[t][mv.blank_to * n + mv.blank_from],
                        rgroup_of[t],
                        db.rdelta[t][mv.blank_to * n + mv.blank_from] if use_r else 0,
                    )
                    if t
                    else None
                    for t in range(n)
                )
                for mv in mt.moves
            ]
            cache[mt] = [tuple((s, rows[m // n], st) for s, m, st in entry) for entry in mt.successors]
        return cache[mt]

    def factory(shape, board, tick):
        if (shape.rows, shape.cols) != (db.rows, db.cols):
            raise ValueError(f"{db.name} is for {db.rows}x{db.cols}, not {shape}")
        mt = tables_for(shape, board)
        succ = successors(mt)
        T = db.data  # every table, indexed by flat indices
        I = db.indices(board)
        R = db.rindices(board) if use_r else [0]
        hp0 = sum(T[i] for i in I)
        hr0 = sum(T[i] for i in R) if use_r else 0
        path: list[int] = []
        nodes = next_tick = 0

        if use_r:
            # Hot loop.  The tables and lists are default arguments (fast locals,
            # not closure cells: -3 % instructions); ``rec`` is dfs itself, set
            # below.  The tick (progress/cancel) is checked only in nodes with
            # slack (f <= bound - 2): most nodes are tight, and slack nodes come
            # often enough (every iteration but the first, which is tiny).
            def dfs(b, state, budget, hp, hr, I=I, R=R, T=T, board=board, succ=succ, path=path, rec=None):
                nonlocal nodes, next_tick
                nodes += 1
                budget -= 1
                if hp < budget:
                    if nodes >= next_tick:
                        next_tick = tick(nodes)
                    if hp < budget - 4 and hr < budget - 4:
                        # Slack >= 6: children whose plain bound drops go first, the
                        # others second (same tests as below).  Fewer nodes in the last
                        # iteration (-8 % in all on Korf's 100); slack >= 6 is where
                        # nearly all of that gain is, at little cost.
                        for s, row, st in succ[state]:
                            t = board[s]
                            g, d, r, e = row[t]
                            i0 = I[g]
                            i1 = i0 + d
                            h = hp - T[i0] + T[i1]
                            if h > hp:
                                continue
                            if h == 0:
                                path.append(s)
                                return True
                            j0 = R[r]
                            j1 = j0 + e
                            h2 = hr - T[j0] + T[j1]
                            if h2 > budget:
                                continue
                            board[b] = t
                            I[g] = i1
                            R[r] = j1
                            if rec(s, st, budget, h, h2):
                                path.append(s)
                                return True
                            I[g] = i0
                            R[r] = j0
                            board[s] = t
                        for s, row, st in succ[state]:
                            t = board[s]
                            g, d, r, e = row[t]
                            i0 = I[g]
                            i1 = i0 + d
                            h = hp - T[i0] + T[i1]
                            if h < hp or h > budget:
                                continue
                            j0 = R[r]
                            j1 = j0 + e
                            h2 = hr - T[j0] + T[j1]
                            if h2 > budget:
                                continue
                            board[b] = t
                            I[g] = i1
                            R[r] = j1
                            if rec(s, st, budget, h, h2):
                                path.append(s)
                                return True
                            I[g] = i0
                            R[r] = j0
                            board[s] = t
                        return False
                for s, row, st in succ[state]:
                    t = board[s]
                    g, d, r, e = row[t]
                    i0 = I[g]
                    i1 = i0 + d
                    h = hp - T[i0] + T[i1]
                    if h > budget:
                        continue
                    j0 = R[r]
                    j1 = j0 + e
                    h2 = hr - T[j0] + T[j1]
                    if h2 > budget:
                        continue
                    if h == 0:
                        path.append(s)
                        return True
                    board[b] = t
                    I[g] = i1
                    R[r] = j1
                    if rec(s, st, budget, h, h2):
                        path.append(s)
                        return True
                    I[g] = i0
                    R[r] = j0
                    board[s] = t
                return False

            dfs.__defaults__ = dfs.__defaults__[:-1] + (dfs,)

        else:

            def dfs(b: int, state: int, budget: int, hp: int, hr: int) -> bool:
                nonlocal nodes, next_tick
                nodes += 1
                if nodes >= next_tick:
                    next_tick = tick(nodes)
                budget -= 1
                for s, row, st in succ[state]:
                    t = board[s]
                    g, d, _, _ = row[t]
                    i0 = I[g]
                    i1 = i0 + d
                    h = hp - T[i0] + T[i1]
                    if h > budget:
                        continue
                    if h == 0:
                        path.append(s)
                        return True
                    board[b] = t
                    I[g] = i1
                    if dfs(s, st, budget, h, 0):
                        path.append(s)
                        return True
                    I[g] = i0
                    board[s] = t
                return False

        h0 = max(hp0, hr0)
        b0 = board.index(0)

        def run(budget: int):
            nonlocal nodes, next_tick
            nodes, next_tick = 0, tick(0)
            path.clear()
            ensure_recursion(budget)
            found = hp0 == 0 or dfs(b0, mt.start_states[b0], budget, hp0, hr0)
            return (list(path) if found else None), nodes

        return h0, run

    return factory
