"""Window shortening: re-solve stretches of a solution optimally and splice in what is shorter.

A solution path (the blank's squares) found by a beam or by decomposition has local detours.
:class:`Shortener` sweeps over it with windows of ``k`` moves: for the positions ``p_i`` and
``p_{i+k}`` at a window's ends, :func:`optimal_between` (IDA* with MD + LC measured to
``p_{i+k}``: labels are target squares, :mod:`fifteen.anytime.tables`) looks for a path of at
most ``k - 2`` moves within a node limit; a shorter one is spliced in and any position the path
now visits twice cut out (:func:`remove_cycles`).  Sweeps grow ``k`` (12 -> 40 by half after a
sweep without gain), then the node limit (x4), then stop (``Shortener.exhausted``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from fifteen.anytime.tables import LabelTables, labelled
from fifteen.search.ida import Stop
from fifteen.search.template import ensure_recursion

#: Expanded nodes between two ticks of a window search (cancellation, node limit).
TICK_NODES = 1 << 14


class NodeLimit(Stop):
    """A window search reached its node limit."""


def _make_dfs(T: LabelTables, board: list[int], codes: list[int], path: list[int], tick: Callable[[int], int]):
    """``(dfs, counter)``: the depth-first loop bounded by MD + LC, moving tiles on *board*.

    ``dfs(b, state, budget, h)`` returns True when the target (``h == 0``) is reached within
    *budget* moves, with the blank's squares in *path* in reverse order.  ``counter()`` returns
    the expanded nodes (``counter(n)`` resets them and sets the next tick at *n*).  The loop
    follows the package's generated ones (:mod:`fifteen.search.template`): children tested
    in the parent's loop, flat ``move * N + tile`` tables, two stores per move.  On boards
    whose lines are too long for linear conflict tables the line codes stay 0 and it is MD alone.
    """
    nodes = 0
    next_tick = 0

    def counter(reset: int | None = None) -> int:
        nonlocal nodes, next_tick
        if reset is not None:
            nodes, next_tick = 0, reset
        return nodes

    def dfs(
        b, state, budget, hp, board=board, codes=codes, path=path, succ=T.succ, mdd=T.mdd, d1=T.d1, d2=T.d2, d3=T.d3, lt=T.lt, rec=None
    ):
        nonlocal nodes, next_tick
        nodes += 1
        if nodes >= next_tick:
            next_tick = tick(nodes)
        budget -= 1
        for s, m, st, l1, l2, l3 in succ[state]:
            t = board[s]
            mt = m + t
            c1 = codes[l1]
            c2 = codes[l2]
            n1 = c1 + d1[mt]
            n2 = c2 + d2[mt]
            h = hp + mdd[mt] + lt[n1] - lt[c1] + lt[n2] - lt[c2]
            if h > budget:
                continue
            if h == 0:
                path.append(s)
                return True
            board[b] = t
            d = d3[mt]
            codes[l1] = n1
            codes[l2] = n2
            codes[l3] += d
            if rec(s, st, budget, h):
                path.append(s)
                return True
            codes[l1] = c1
            codes[l2] = c2
            codes[l3] -= d
            board[s] = t
        return False

    dfs.__defaults__ = dfs.__defaults__[:-1] + (dfs,)  # type: ignore[index]
    return dfs, counter


class Search:
    """IDA* from a labelled *board* (blank on *blank*) to its target (every label home).

    ``run(bound)`` searches for a path of at most *bound* moves: the blank's squares in order,
    or ``None`` (no path within *bound*).  *tick* is called every *tick_every* expanded nodes
    with the nodes of this run; it may raise :class:`Stop` to abandon the search.
    """

    def __init__(
        self, T: LabelTables, board: Sequence[int], blank: int, tick: Callable[[int], None] | None = None, tick_every: int = TICK_NODES
    ):
        self.T = T
        self.blank = blank
        self.board = list(board)
        self.h0, codes = T.value(self.board, blank)
        self.parity = T.distance(self.board[blank], blank)  # the blank's label is its target square
        self.path: list[int] = []
        self.nodes = 0
        every = self._tick_every = tick_every

        def _tick(nodes: int) -> int:
            if tick is not None:
                tick(nodes)
            return nodes + every

        self._dfs, self._counter = _make_dfs(T, self.board, codes, self.path, _tick)

    def first_bound(self, lower: int = 0) -> int:
        """The first bound: *lower* or the root's value, raised to the solutions' parity."""
        h = max(self.h0, lower)
        return h + ((h - self.parity) & 1)

    def run(self, bound: int) -> list[int] | None:
        if self.h0 == 0:
            return []
        self.path.clear()
        self._counter(self._tick_every)
        ensure_recursion(bound)
        try:
            found = self._dfs(self.blank, self.T.start_state(self.blank), bound, self.h0)
        finally:
            self.nodes += self._counter()
        return self.path[::-1] if found else None


def optimal_between(
    T: LabelTables, start: Sequence[int], target: Sequence[int], max_len: int, node_limit: int, check: Callable[[], None] | None = None
) -> tuple[list[int] | None, int]:
    """A shortest path (blank squares) from *start* to *target* of at most *max_len* moves.

    Returns ``(path, nodes)``; *path* is ``None`` when there is none within *max_len* or the
    search reached *node_limit* first.  *check* is called every tick (it may raise to cancel).
    """
    done = 0

    def tick(nodes: int) -> None:
        if check is not None:
            check()
        if done + nodes > node_limit:
            raise NodeLimit

    search = Search(T, labelled(start, target), list(start).index(0), tick, tick_every=min(TICK_NODES, max(256, node_limit // 8)))
    bound = search.first_bound()
    try:
        while bound <= max_len:
            path = search.run(bound)
            if path is not None:
                return path, search.nodes
            done = search.nodes
            bound += 2
    except NodeLimit:
        pass
    return None, search.nodes


def remove_cycles(tiles: Sequence[int], squares: list[int]) -> list[int]:
    """*squares* (the blank's path from *tiles*) with every loop (a position visited twice) cut out."""
    board = list(tiles)
    b = board.index(0)
    seen = {tuple(board): 0}
    out: list[int] = []
    for s in squares:
        board[b], board[s] = board[s], 0
        b = s
        out.append(s)
        key = tuple(board)
        if key in seen:
            del out[seen[key] :]
            seen = {k: v for k, v in seen.items() if v <= len(out)}  # forget the loop's positions
        else:
            seen[key] = len(out)
    return out


class Shortener:
    """Window shortening of a solution path (blank squares from *tiles*), one window per :meth:`step`.

    A sweep visits windows of ``k`` moves every ``k // 2`` moves (shifted by an offset that
    changes per sweep); each window is re-solved optimally by :func:`optimal_between` within
    ``node_limit`` nodes, and a strictly shorter sub-path is spliced in.  After a sweep without
    gain ``k`` grows by half (up to ``k_max``), then the node limit grows 4x and ``k`` starts
    again; ``exhausted`` is set when the largest windows and limits stop paying.
    """

    def __init__(
        self,
        T: LabelTables,
        tiles: Sequence[int],
        squares: list[int],
        k_min: int = 12,
        k_max: int = 40,
        node_limit: int = 20_000,
        node_limit_max: int = 320_000,
    ):
        self.T = T
        self.tiles = tuple(tiles)
        self.squares = remove_cycles(tiles, list(squares))
        self.k_min, self.k_max = k_min, k_max
        self.k = k_min
        self.node_limit, self.node_limit_max = node_limit, node_limit_max
        self.offset = 0
        self.exhausted = False
        self.nodes = 0
        self._gain_in_sweep = False
        self._start_sweep()

    def carried(self) -> dict[str, int]:
        """What a later shortener of the same path needs to go on where this one is (:meth:`resume`)."""
        return {"k": self.k, "node_limit": self.node_limit, "offset": self.offset}

    def resume(self, carried: dict) -> None:
        """Go on from :meth:`carried` (a whole state, or an ``offset`` alone: where a first sweep starts)."""
        if "k" in carried:
            self.k, self.node_limit = carried["k"], carried["node_limit"]
        self.offset = carried["offset"]
        self._start_sweep()

    def _start_sweep(self) -> None:
        self.i = self.offset % max(1, self.k // 2)
        self.board = list(self.tiles)
        self.blank = self.board.index(0)
        for s in self.squares[: self.i]:
            self.board[self.blank], self.board[s] = self.board[s], 0
            self.blank = s
        self._gain_in_sweep = False

    def step(self, check: Callable[[], None] | None = None) -> bool:
        """Try one window; True when the path got shorter."""
        sq = self.squares
        if self.i + 4 > len(sq):  # the end of the sweep
            self._end_sweep()
            return False
        k = min(self.k, len(sq) - self.i)
        end = list(self.board)
        eb = self.blank
        for s in sq[self.i : self.i + k]:
            end[eb], end[s] = end[s], 0
            eb = s
        path, nodes = optimal_between(self.T, self.board, end, k - 2, self.node_limit, check)
        self.nodes += nodes
        gained = False
        if path is not None and len(path) < k:
            sq[self.i : self.i + k] = path
            self.squares = remove_cycles(self.tiles, sq)
            gained = self._gain_in_sweep = True
            if len(self.squares) != len(sq):
                self._start_sweep()  # a loop was cut: positions moved, start the sweep again
                self._gain_in_sweep = True
                return True
        stride = max(1, self.k // 2)  # on by half a window
        for s in self.squares[self.i : self.i + stride]:
            self.board[self.blank], self.board[s] = self.board[s], 0
            self.blank = s
        self.i += stride
        return gained

    def _end_sweep(self) -> None:
        if not self._gain_in_sweep:
            if self.k < self.k_max:
                self.k = min(self.k_max, self.k + max(2, self.k // 2))
            elif self.node_limit < self.node_limit_max:
                self.node_limit *= 4
                self.k = self.k_min
            else:
                self.exhausted = True
        self.offset += max(1, self.k // 4) + 1
        self._start_sweep()


__all__ = ["NodeLimit", "Search", "Shortener", "optimal_between", "remove_cycles"]
