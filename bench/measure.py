"""One timed solve with a time limit: the measuring code shared by the native run and the Pyodide run.

bench/side_by_side.py imports it natively; bench/pyodide_runner.mjs copies it
into Pyodide's file system next to the ``fifteen`` package and calls the same
:func:`solve_timed`, so both columns of the benchmark measure exactly alike.
Stdlib only (it runs under Pyodide).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from fifteen import Board, Cancelled, solve

#: ``pdb663+dual`` and the like: a PDB loop with options of pdb_searcher (bench/lookups.md), by name.
_VARIANTS: dict[str, Callable] = {}


def search(board: Board, bound: str, **kw):
    """``(length, tiles moved, SearchResult)`` of a solve of *board* with *bound*: a bound's
    name, or a PDB bound's name followed by ``+dual`` and/or ``+bpmx`` (options of
    :func:`fifteen.bounds.pdb_loop.pdb_searcher`, not bounds of the solver)."""
    name, *options = bound.split("+")
    if not options:
        sol = solve(board, bound, **kw)
        return sol.length, sol.tiles, sol.result
    if bound not in _VARIANTS:
        from fifteen.bounds import databases
        from fifteen.bounds.pdb import PatternDatabase
        from fifteen.bounds.pdb_loop import pdb_searcher

        db = databases.pattern_database(name, board.shape)
        if not isinstance(db, PatternDatabase):
            raise ValueError(f"{name} is not a loaded 6-6-3 or 5-5-5 database")
        _VARIANTS[bound] = pdb_searcher(db, **dict.fromkeys(options, True))
    from fifteen.search.ida import ida_star

    result = ida_star(board.shape, list(board.tiles), _VARIANTS[bound], **kw)
    return result.length, result.tiles, result


def solve_timed(
    tiles: Sequence[int],
    bound: str,
    limit: float,
    *,
    clock: Callable[[], float] = time.process_time,
    tick_nodes: int = 1 << 14,
) -> dict:
    """Solve *tiles* with *bound*, stopping after *limit* seconds of *clock*.

    Returns a JSON-ready dict: ``length``, ``moves`` (tile numbers), ``nodes``,
    ``seconds`` (by *clock*), ``wall`` (time.perf_counter), ``cpu``
    (time.process_time), ``h0``, ``iterations`` (completed ones: bound, nodes,
    seconds), ``timeout`` and, on a timeout, ``last_bound`` (the iteration that
    was running) with its nodes so far.  ``valid`` tells whether the moves
    replay to the goal.
    """
    board = Board.from_tiles(list(tiles))
    last: dict = {"nodes": 0, "bound": None, "iteration_nodes": 0, "iterations": []}

    def progress(p) -> None:
        last["nodes"] = p.nodes
        last["bound"] = p.bound
        last["iteration_nodes"] = p.iteration_nodes
        last["iterations"] = p.iterations

    c0, w0, p0 = clock(), time.perf_counter(), time.process_time()

    def cancel() -> bool:
        return clock() - c0 > limit

    out: dict = {"bound": bound}
    try:
        length, moves, r = search(board, bound, progress=progress, cancel=cancel, tick_nodes=tick_nodes)
    except Cancelled:
        out.update(
            seconds=clock() - c0,
            wall=time.perf_counter() - w0,
            cpu=time.process_time() - p0,
            timeout=True,
            length=None,
            moves=None,
            valid=None,
            nodes=last["nodes"],
            last_bound=last["bound"],
            last_bound_nodes=last["iteration_nodes"],
            h0=h0_of(tiles, bound),
            iterations=[it.to_json() for it in last["iterations"]],
        )
        return out
    out.update(
        seconds=clock() - c0,
        wall=time.perf_counter() - w0,
        cpu=time.process_time() - p0,
        timeout=False,
        length=length,
        moves=list(moves),
        valid=board.solves(moves),
        nodes=r.nodes,
        h0=r.h0,
        iterations=[it.to_json() for it in r.iterations],
    )
    return out


def h0_of(tiles: Sequence[int], bound: str) -> int | None:
    """The start value of *bound* (as the solver's bound table reports it)."""
    from fifteen import bound_values

    return bound_values(Board.from_tiles(list(tiles))).get(bound)


#: A random 55-move position (api "random", seed 7): the warm-up's work.
WARM_UP_TILES = (3, 14, 7, 9, 13, 11, 4, 5, 12, 8, 1, 0, 15, 6, 2, 10)


def warm_up(bound: str, seconds: float = 1.0, *, clock: Callable[[], float] = time.process_time) -> None:
    """Search for *seconds* with *bound* before measuring: first-use set-up and (in Pyodide) JIT tier-up."""
    solve_timed(WARM_UP_TILES, bound, seconds, clock=clock)
