"""IDA* (iterative-deepening A*) with one specialised inner loop per lower bound.

The driver (:func:`ida_star`) is shared; each bound supplies a *searcher*
factory that, given the start position, returns its start value ``h0`` and a
depth-first function ``run(budget)`` that looks for a solution of at most
``budget`` moves.  The inner loops are written for CPython's speed:

* recursion, with each child tested inside the parent's loop (a call is made
  only for children within the bound);
* the board is a ``list`` and tables are ``bytes``/``list`` indexed by one
  addition (see :mod:`fifteen.moves`);
* two stores per move: the tile is written to the old blank square and put
  back on return; the blank itself is never written;
* the bound is updated incrementally from the moving tile alone;
* the move that undoes the previous one is never generated;
* the iteration bound starts at ``h0`` rounded to the solution's parity (fixed
  by the blank's colour on a chessboard) and rises by 2.

Nodes are counted per expanded node (one increment per call); the same
counter triggers the progress/cancel *tick* every ``tick_nodes`` nodes.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .board import Shape, blank_steps

TICK_NODES = 1 << 16


def ensure_recursion(depth: int) -> None:
    """Make room for a recursive search *depth* frames deep."""
    need = depth + 200
    if sys.getrecursionlimit() < need:
        sys.setrecursionlimit(need)


class Cancelled(Exception):
    """The search was stopped by its cancel callback."""


@dataclass
class Iteration:
    bound: int
    nodes: int
    seconds: float


@dataclass
class SearchResult:
    """The outcome of :func:`ida_star`: blank squares visited and statistics."""

    path: list[int]  # squares the blank moves to, in order
    tiles: list[int]  # the tile numbers that slide, in order
    h0: int
    nodes: int
    seconds: float
    iterations: list[Iteration] = field(default_factory=list)

    @property
    def length(self) -> int:
        return len(self.path)


@dataclass
class Progress:
    """What a progress callback receives."""

    bound: int
    nodes: int  # all iterations so far
    iteration_nodes: int
    seconds: float
    iterations: list[Iteration]
    done: bool = False  # True when called at the end of an iteration


#: ``factory(shape, board, tick) -> (h0, run)``; see :mod:`fifteen.searchers`.
Searcher = Callable[[Shape, list, Callable[[int], int]], "tuple[int, Callable[[int], tuple[list[int] | None, int]]]"]


def ida_star(
    shape: Shape,
    tiles: Sequence[int],
    searcher: Searcher,
    *,
    progress: Callable[[Progress], None] | None = None,
    cancel: Callable[[], bool] | None = None,
    tick_nodes: int = TICK_NODES,
    max_bound: int | None = None,
) -> SearchResult:
    """Find a shortest solution of *tiles* with the inner loop *searcher*.

    *progress* is called after each iteration and every *tick_nodes* nodes;
    *cancel* is checked at the same moments and stops the search with
    :class:`Cancelled` when it returns true.
    """
    start = time.perf_counter()
    board = list(tiles)
    iterations: list[Iteration] = []
    done_nodes = 0  # nodes of finished iterations
    bound = 0
    iter_start = start

    def report(iteration_nodes: int, done: bool) -> None:
        if progress is not None:
            progress(
                Progress(
                    bound,
                    done_nodes + iteration_nodes,
                    iteration_nodes,
                    time.perf_counter() - start,
                    list(iterations),
                    done,
                )
            )

    if progress is None and cancel is None:

        def tick(nodes: int) -> int:
            return sys.maxsize

    else:

        def tick(nodes: int) -> int:
            if nodes:
                if cancel is not None and cancel():
                    raise Cancelled()
                report(nodes, False)
            return nodes + tick_nodes

    h0, run = searcher(shape, board, tick)
    bound = h0 + ((h0 - blank_steps(shape, board.index(0))) & 1)
    while True:
        if cancel is not None and cancel():
            raise Cancelled()
        path, nodes = run(bound)
        now = time.perf_counter()
        iterations.append(Iteration(bound, nodes, now - iter_start))
        done_nodes += nodes
        report(0, True)
        if path is not None:
            path.reverse()
            tiles_moved = []
            b = list(tiles)
            blank = b.index(0)
            for s in path:
                tiles_moved.append(b[s])
                b[blank], b[s] = b[s], 0
                blank = s
            return SearchResult(path, tiles_moved, h0, done_nodes, now - start, iterations)
        iter_start = now
        bound += 2
        if max_bound is not None and bound > max_bound:
            raise RuntimeError(f"no solution within {max_bound} moves (is the position solvable?)")
