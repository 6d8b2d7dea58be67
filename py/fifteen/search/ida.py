"""IDA* (iterative-deepening A*): the driver, and the contract of the searchers it drives.

:func:`ida_star` starts at the position's lower bound rounded to the solution's parity (fixed
by the blank's colour on a chessboard) and raises the bound by 2 until a depth-first search
within the bound finds the goal.  The depth-first search is a bound's *searcher*; its inner
loop is generated from one template (:mod:`fifteen.search.template`).

The searcher contract
---------------------
A *searcher factory* has the form::

    factory(shape, board, tick, *, tables=None, state=None, goal=None) -> searcher

and the searcher it returns has

* ``searcher.h0`` — the bound's value at *board*;
* ``searcher.run(budget) -> (path, nodes)`` — a depth-first search from *board* for a
  solution of at most *budget* moves: *path* is the blank's squares of the first solution
  found, **in reverse order** (``None`` when there is none within *budget*), *nodes* the
  nodes expanded (one per call of the loop: the start when it is not the goal, and every
  child within the budget that is not the goal).  A child is within the budget when its
  value is at most the budget left after the move (``f <= bound``); the goal is recognised
  when generated, not expanded.  ``run`` may be called again with another budget (the next
  iteration); after it returns a path or raises (but to pause), the searcher is spent;
* ``searcher.resume() -> (path, nodes)`` — after ``run`` (or ``resume``) raised
  :class:`fifteen.search.slices.Pause` out of *tick*, the same run continued where it stopped:
  the nodes are counted once, in the order of a run that never paused, and the result is that
  run's.  This is how a host with one thread and an event loop (the page's worker) searches
  in time slices and handles a Cancel between two of them (:mod:`fifteen.search.slices`).

*board* is the position (a list; the searcher works on its own copy); *tick* is called as
``tick(nodes)`` at the start of every ``run`` (with 0) and every so often during it (with
the nodes so far), and returns the node count of its next call (``sys.maxsize`` for never):
it reports progress, may raise to cancel (the searcher is then spent) or raise
:class:`~fifteen.search.slices.Pause` to pause.  *tables* are the move tables
(:class:`fifteen.search.moves.MoveTables`) whose duplicate-pruning automaton the search follows
(default ``tables_for(shape, board, goal)``: the mirror-closed tables, with half the root's
moves, for a position that is its own mirror image, as the goal); *state* is the automaton
state to start in (default ``tables.start_states[blank square]``); *goal* is the position to
reach, tiles by square (default ``None``: the standard goal).  The goal is data: a factory
builds its tables from it once, and the loop is the same for every goal.  A factory that
serves the standard goal only (the pattern databases) raises :class:`fifteen.InputError` for
another; callers pass ``goal`` only when it is not the standard goal, so a factory written
before goals existed still serves the standard one.

**Subtrees.**  With these two, any node of a search can be searched on its own exactly as the
serial search searches it: for a node reached from the root by a path of g moves, give the
board after the path, the ROOT's *tables* and the automaton state reached along the path
(from ``tables.successors[state]``: each entry is ``(square, move id * N, next state)``),
and ``budget = bound - g``.  The node counts add up: in an iteration that finds no solution,
the root's nodes are ``1 +`` the nodes of its children's subtrees, over the children whose
``h0`` is at most ``bound - 1`` (tests/test_searcher_contract.py checks it for every bound,
on several levels).  The order in which a searcher takes the children (the PDB loop's
ordering pass, in nodes with slack >= 6) changes only which solution is found first and the
nodes of the last iteration, not the tree.  This is what a parallel search builds on: split
the root into subtrees, search each with the same loops, sum the nodes.

Timing: :class:`SearchResult` separates the set-up (``setup_seconds``: the factory, i.e.
tables built or looked up, databases loaded, the automaton) from the search (``seconds``
wall time, ``cpu_seconds`` the process's CPU time); iteration times are search time only.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from fifteen.board import Shape, blank_steps, tiles_along
from fifteen.search.moves import MoveTables
from fifteen.search.slices import Steps, drive, retried, search_steps, sliced, ticks

TICK_NODES = 1 << 16
#: Times in every JSON output are rounded to this many digits after the point (0.1 ms).
SECONDS_DIGITS = 4


class Stop(Exception):
    """Raised out of a search (by its tick, its progress or its cancel callback) to end it before its
    end: the one exception every search of the package stops with.  What stopped it is the
    subclass (:class:`Cancelled`; the anytime search's node limit, deadline, solved...) or nothing
    more (a step or a task asked to stop)."""


class Cancelled(Stop):
    """The search was stopped by its cancel callback."""


class Searcher(Protocol):
    """A search from one position (see the module docstring)."""

    h0: int

    def run(self, budget: int) -> tuple[list[int] | None, int]: ...

    def resume(self) -> tuple[list[int] | None, int]: ...


class SearcherFactory(Protocol):
    """``factory(shape, board, tick, *, tables=None, state=None, goal=None) -> Searcher`` (see the module docstring)."""

    def __call__(
        self,
        shape: Shape,
        board: list[int],
        tick: Callable[[int], int],
        *,
        tables: MoveTables | None = None,
        state: int | None = None,
        goal: Sequence[int] | None = None,
    ) -> Searcher: ...


@dataclass(frozen=True)
class Iteration:
    """One IDA* iteration: its cost *bound*, the nodes it expanded and its seconds."""

    bound: int
    nodes: int
    seconds: float

    def to_json(self) -> dict[str, Any]:
        """``{"bound", "nodes", "seconds"}``: an iteration in every JSON output."""
        return {"bound": self.bound, "nodes": self.nodes, "seconds": round(self.seconds, SECONDS_DIGITS)}


@dataclass
class SearchResult:
    """The outcome of :func:`ida_star`: blank squares visited and statistics."""

    path: list[int]  # squares the blank moves to, in order
    tiles: list[int]  # the tile numbers that slide, in order
    h0: int
    nodes: int
    seconds: float  # wall time of the search (after the set-up)
    iterations: list[Iteration] = field(default_factory=list)
    setup_seconds: float = 0.0  # wall time of the searcher's set-up (tables, databases)
    cpu_seconds: float = 0.0  # process CPU time of the search

    @property
    def length(self) -> int:
        return len(self.path)

    @property
    def nodes_per_second(self) -> int:
        """Nodes per second of the search, rounded (0 when it took no measurable time)."""
        return round(self.nodes / self.seconds) if self.seconds > 0 else 0

    def to_json(self) -> dict[str, Any]:
        """The search's figures in every JSON output of a solve: ``h0``, ``nodes``,
        ``setup_seconds``, ``seconds``, ``cpu_seconds``, ``nodes_per_second``, ``iterations``."""
        return {
            "h0": self.h0,
            "nodes": self.nodes,
            "setup_seconds": round(self.setup_seconds, SECONDS_DIGITS),
            "seconds": round(self.seconds, SECONDS_DIGITS),
            "cpu_seconds": round(self.cpu_seconds, SECONDS_DIGITS),
            "nodes_per_second": self.nodes_per_second,
            "iterations": [it.to_json() for it in self.iterations],
        }


@dataclass
class Progress:
    """What a progress callback receives."""

    bound: int
    nodes: int  # all iterations so far
    iteration_nodes: int
    seconds: float  # search time so far (set-up excluded)
    iterations: list[Iteration]
    done: bool = False  # True when called at the end of an iteration
    found: bool = False  # True when that iteration found a solution (the search ends: no bound + 2 follows)

    def to_json(self) -> dict[str, Any]:
        """``{"bound", "nodes", "iteration_nodes", "seconds", "done", "found", "iterations"}`` (the API's progress messages)."""
        return {
            "bound": self.bound,
            "nodes": self.nodes,
            "iteration_nodes": self.iteration_nodes,
            "seconds": round(self.seconds, SECONDS_DIGITS),
            "done": self.done,
            "found": self.found,
            "iterations": [it.to_json() for it in self.iterations],
        }


def never(nodes: int) -> int:
    """The tick of a search nobody watches: never called again."""
    return sys.maxsize


def first_bound(shape: Shape, tiles: Sequence[int], lower: int, goal: Sequence[int] | None = None) -> int:
    """The first cost bound of a search whose root has the lower bound *lower*: *lower*, or
    one more when that has the wrong parity (every solution of a position has the parity of
    the blank's distance from its goal square, so this is still a lower bound); towards *goal*
    (default the standard goal)."""
    goal_blank = None if goal is None else list(goal).index(0)
    return lower + ((lower - blank_steps(shape, list(tiles).index(0), goal_blank)) & 1)


def ida_star(
    shape: Shape,
    tiles: Sequence[int],
    searcher: SearcherFactory,
    *,
    progress: Callable[[Progress], None] | None = None,
    cancel: Callable[[], bool] | None = None,
    tick_nodes: int = TICK_NODES,
    max_bound: int | None = None,
    start_bound: int = 0,
    goal: Sequence[int] | None = None,
) -> SearchResult:
    """Find a shortest solution of *tiles* towards *goal* (default the standard goal) with the
    searcher factory *searcher*.

    *progress* is called after each iteration and every *tick_nodes* nodes;
    *cancel* is checked at the same moments and stops the search with
    :class:`Cancelled` when it returns true.  The first iteration's bound is
    :func:`first_bound` of the searcher's ``h0`` and *start_bound* (another lower
    bound of the position, known to the caller; 0: none).  :func:`ida_steps` is the same
    search as steps (:mod:`fifteen.search.slices`): paused at the end of each time slice.
    """
    steps = ida_steps(
        shape,
        tiles,
        searcher,
        progress=progress,
        cancel=cancel,
        tick_nodes=tick_nodes,
        max_bound=max_bound,
        start_bound=start_bound,
        goal=goal,
    )
    return drive(steps)


def ida_steps(
    shape: Shape,
    tiles: Sequence[int],
    searcher: SearcherFactory,
    *,
    progress: Callable[[Progress], None] | None = None,
    cancel: Callable[[], bool] | None = None,
    tick_nodes: int = TICK_NODES,
    max_bound: int | None = None,
    start_bound: int = 0,
    goal: Sequence[int] | None = None,
) -> Steps[SearchResult]:
    """:func:`ida_star` as steps: inside a time slice (:func:`fifteen.search.slices.time_slice`)
    the search pauses when the slice is over (a yield) and goes on at the next step, exactly."""
    board = list(tiles)
    iterations: list[Iteration] = []
    done_nodes = 0  # nodes of finished iterations
    bound = 0
    start = 0.0

    def report(iteration_nodes: int, done: bool, found: bool = False) -> None:
        if progress is not None:
            progress(
                Progress(
                    bound,
                    done_nodes + iteration_nodes,
                    iteration_nodes,
                    time.perf_counter() - start,
                    list(iterations),
                    done,
                    found,
                )
            )

    def ticked(nodes: int) -> None:
        if cancel is not None and cancel():
            raise Cancelled()
        report(nodes, False)

    tick = ticks(tick_nodes, ticked) if progress is not None or cancel is not None or sliced() else never

    setup_start = time.perf_counter()
    # (the first search of a shape builds its move tables: a second or two, paused at slices' ends)
    search = yield from retried(lambda: searcher(shape, board, tick) if goal is None else searcher(shape, board, tick, goal=goal))
    start = iter_start = time.perf_counter()
    cpu_start = time.process_time()
    setup_seconds = start - setup_start
    h0 = search.h0
    bound = first_bound(shape, board, max(h0, start_bound), goal)
    while True:
        if cancel is not None and cancel():
            raise Cancelled()
        path, nodes = yield from search_steps(search, bound)
        now = time.perf_counter()
        iterations.append(Iteration(bound, nodes, now - iter_start))
        done_nodes += nodes
        report(0, True, path is not None)
        if path is not None:
            path.reverse()
            return SearchResult(
                path,
                tiles_along(shape, tiles, path),
                h0,
                done_nodes,
                now - start,
                iterations,
                setup_seconds=setup_seconds,
                cpu_seconds=time.process_time() - cpu_start,
            )
        iter_start = now
        bound += 2
        if max_bound is not None and bound > max_bound:
            raise RuntimeError(f"no solution within {max_bound} moves (is the position solvable?)")


__all__ = [
    "Cancelled",
    "Iteration",
    "Progress",
    "SECONDS_DIGITS",
    "SearchResult",
    "Searcher",
    "SearcherFactory",
    "Stop",
    "TICK_NODES",
    "ida_star",
    "ida_steps",
]
