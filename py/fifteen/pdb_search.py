"""A first IDA* driven by an additive PDB with the reflected lookup (pure Python).

Built on the incremental interface of :mod:`fifteen.pdb`: per move, the moving
tile's plain group index (and, only when the plain bound did not prune, its
reflected group index) is updated by one precomputed delta, and the group's
term of the sum is replaced by one table lookup.  Inner-loop choices follow
``reference/performance-notes.md``: recursion, children tested inside the
parent's loop, neighbour lists per (blank square, previous blank square),
board as a ``list`` written once per move (the blank square is never
written), tables as ``bytes``, one node-count increment per call.

:func:`solve` returns the path of blank squares (excluding the start square)
and per-iteration statistics.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from typing import Sequence

from .pdb import PatternDatabase


@dataclass
class SearchResult:
    path: list[int] | None  # blank squares visited after the start, None when not found
    h0: int  # initial bound max(PDB, PDBr)
    pdb: int  # plain value of the start
    pdbr: int  # reflected value of the start
    nodes: int = 0  # expanded nodes (dfs calls), all iterations
    iterations: list[tuple[int, int]] = field(default_factory=list)  # (bound, expanded nodes)
    seconds: float = 0.0

    @property
    def length(self) -> int | None:
        return None if self.path is None else len(self.path)


def _neighbour_lists(rows: int, cols: int):
    """nbl[blank][prev]: squares the blank may move to, without going back to prev (prev = n: none)."""
    n = rows * cols
    nb = []
    for p in range(n):
        r, c = divmod(p, cols)
        lst = []
        if r > 0:
            lst.append(p - cols)
        if c > 0:
            lst.append(p - 1)
        if c < cols - 1:
            lst.append(p + 1)
        if r < rows - 1:
            lst.append(p + cols)
        nb.append(lst)
    return [[tuple(q for q in nb[p] if q != prev) for prev in range(n + 1)] for p in range(n)]


def _parity_ok(rows: int, cols: int, tiles: Sequence[int], length: int) -> bool:
    """Every solution's length has the parity of the blank's Manhattan distance to its goal square."""
    n = rows * cols
    b = list(tiles).index(0)
    d = abs(b // cols - (rows - 1)) + abs(b % cols - (cols - 1))
    return (length - d) % 2 == 0 and n > 0


def solve(db: PatternDatabase, tiles: Sequence[int], *, reflect: bool = True, max_length: int = 200, log=None) -> SearchResult:
    """Optimal solution of *tiles* by IDA* with ``max(PDB, PDBr)`` (or PDB alone)."""
    rows, cols, n = db.rows, db.cols, db.n
    if sorted(tiles) != list(range(n)):
        raise ValueError("not a permutation of the board's tiles")
    board = list(tiles)
    blank = board.index(0)
    use_r = reflect and bool(db.rgroups)
    I = db.indices(board)
    TP = db.tables_by_group
    GP = db.group_of
    DP = db.step
    hp0 = sum(t[i] for t, i in zip(TP, I))
    if use_r:
        R = db.rindices(board)
        TR = db.rtables_by_group
        GR = db.rgroup_of
        DR = db.rstep
        hr0 = sum(t[i] for t, i in zip(TR, R))
    else:
        hr0 = 0
    NB = _neighbour_lists(rows, cols)
    path: list[int] = []
    count = [0]
    res = SearchResult(None, max(hp0, hr0), hp0, hr0 if use_r else -1)
    t_start = time.perf_counter()
    if hp0 == 0:
        res.path = []
        return res

    # The tile on nb moves to blank: its group index changes by step[t][blank - nb].
    if use_r:

        def dfs(blank, prev, rem, hp, hr, B=board, I=I, R=R, TP=TP, TR=TR, GP=GP, GR=GR, DP=DP, DR=DR, NB=NB, C=count, n=n):
            C[0] += 1
            rem -= 1
            for nb in NB[blank][prev]:
                t = B[nb]
                key = blank - nb
                g = GP[t]
                i0 = I[g]
                i1 = i0 + DP[t][key]
                tab = TP[g]
                h = hp - tab[i0] + tab[i1]
                if h > rem:
                    continue
                r = GR[t]
                j0 = R[r]
                j1 = j0 + DR[t][key]
                tab = TR[r]
                h2 = hr - tab[j0] + tab[j1]
                if h2 > rem:
                    continue
                if h == 0:
                    path.append(nb)
                    return True
                B[blank] = t
                I[g] = i1
                R[r] = j1
                if dfs(nb, blank, rem, h, h2):
                    path.append(nb)
                    return True
                I[g] = i0
                R[r] = j0
                B[nb] = t
            return False

    else:

        def dfs(blank, prev, rem, hp, hr, B=board, I=I, TP=TP, GP=GP, DP=DP, NB=NB, C=count, n=n):
            C[0] += 1
            rem -= 1
            for nb in NB[blank][prev]:
                t = B[nb]
                g = GP[t]
                i0 = I[g]
                i1 = i0 + DP[t][blank - nb]
                tab = TP[g]
                h = hp - tab[i0] + tab[i1]
                if h > rem:
                    continue
                if h == 0:
                    path.append(nb)
                    return True
                B[blank] = t
                I[g] = i1
                if dfs(nb, blank, rem, h, 0):
                    path.append(nb)
                    return True
                I[g] = i0
                B[nb] = t
            return False

    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old_limit, max_length + 100))
    try:
        bound = res.h0
        if not _parity_ok(rows, cols, tiles, bound):
            bound += 1
        while bound <= max_length:
            before = count[0]
            found = dfs(blank, n, bound, hp0, hr0)
            res.iterations.append((bound, count[0] - before))
            if log:
                log(f"bound {bound}: {count[0] - before} nodes, {time.perf_counter() - t_start:.1f} s")
            if found:
                path.reverse()
                res.path = path
                break
            bound += 2
    finally:
        sys.setrecursionlimit(old_limit)
    res.nodes = count[0]
    res.seconds = time.perf_counter() - t_start
    return res


def replay(tiles: Sequence[int], path: Sequence[int], cols: int) -> list[int]:
    """Apply a path of blank squares (each adjacent to the previous) to *tiles*."""
    board = list(tiles)
    b = board.index(0)
    for p in path:
        if abs(p - b) not in (1, cols) or (abs(p - b) == 1 and p // cols != b // cols):
            raise ValueError(f"blank cannot move from {b} to {p}")
        board[b], board[p] = board[p], 0
        b = p
    return board
