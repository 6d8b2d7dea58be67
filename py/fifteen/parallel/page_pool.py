"""The browser pool's side of the parallel search: :mod:`fifteen.parallel.scheduler` driven step by step.

The page's pool of solver workers (``static/js/solver/pool.js``) keeps the scheduler
(:class:`fifteen.parallel.scheduler.ParallelSearch`) in its *first* worker, which also searches tasks:
a coordinating worker of its own would cost one more Python runtime and one more copy of the
databases (the 7-8 pack is ~290 MB) for calls that take milliseconds, and the first worker
already holds the databases the split tree needs for its ``h0``.  Its calls run between two
tasks of that worker (an iteration's outcomes are sent together, when every task is done), so
the scheduler never waits behind a search.  The page hands the tasks (in bundles, largest
first) to whichever worker is free, stops the others when one finds a solution, and re-queues
the bundle of a worker that dies.

Through :func:`fifteen.api.call`:

* ``parallel_begin`` ``{text|tiles, shape, bound, workers}`` -> a new search and its first
  iteration's *work*: ``{"search", "bound", "h0", "split_nodes", "iterations", "bundles":
  [[task, ...], ...], "estimate"}`` (tasks as :class:`fifteen.parallel.scheduler.Task` objects;
  *estimate* the running iteration's and the whole search's, :meth:`fifteen.search.estimate.Estimate.to_json`,
  or ``null``), or ``{"result": ...}`` when the position is solved without any task (the goal, or
  a goal in the split tree).
* ``parallel_step`` ``{search, outcomes: [{id, path, nodes}, ...]}``: every task of the current
  iteration ran without a solution -> the next iteration's work (as above).
* ``parallel_tasks`` ``{shape, tasks}`` (any worker, with progress ``{"nodes"}``): search a
  bundle in order, stopping after a solution -> ``{"outcomes": [{id, path, nodes, stopped}]}``.
* ``parallel_result`` ``{text|tiles, shape, bound, path, iterations, seconds, workers,
  worker_nodes}`` (any worker, stateless): the ``solve`` result of the solution a task found
  (``path`` = the blank's squares from the start).  Stateless because, on a page that is not
  cross-origin isolated, stopping the first worker's own task means restarting that worker.
* ``parallel_drop`` ``{search}``: forget a search (cancelled, or finished).

Only tasks that finished count: a solution is reported only from a task that ran to its end
at the current bound after every smaller bound was searched in full (never from a dead or
stopped worker), so it is optimal, and its length is the serial one.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from dataclasses import asdict
from functools import lru_cache
from typing import Any

from fifteen.board import Board, Goal, Shape, check_tiles, tiles_along
from fifteen.bounds import bound_values, databases, resolve_bound, start_bound
from fifteen.errors import InputError
from fifteen.frame import frame_for
from fifteen.limits import MAX_COUNT, MAX_MOVES, describe, is_int, is_number
from fifteen.optimal import Solution, check_answer
from fifteen.parallel.scheduler import ParallelResult, ParallelSearch, Task, TaskOutcome, bundles, task_steps
from fifteen.search.estimate import estimate
from fifteen.search.ida import SECONDS_DIGITS, Iteration
from fifteen.search.moves import move_tables
from fifteen.search.slices import Steps

_SEARCHES: dict[int, ParallelSearch] = {}
#: The longest optimum of each search's board (fifteen.bounds.databases.longest_optimum), for its estimate.
_LONGEST: dict[int, int | None] = {}
_IDS = itertools.count(1)
#: Searches kept at most (a page that never sent ``parallel_drop``).
_KEEP = 4
#: The largest cost bound of a search (and budget of a task): the longest move list read.
MAX_BOUND = MAX_MOVES


# ------------------------------------------------------------------ the records the page sends back
# They are the ones this module made, but arrive through fifteen.api.call like any input:
# each field is checked here, so a malformed record is an InputError, never a crash.
def field(d: dict, key: str, low: int = 0, high: int = MAX_COUNT, what: str = "a record") -> int:
    """``d[key]``, an integer in [low, high]."""
    v = d.get(key)
    if not isinstance(v, int) or isinstance(v, bool) or not low <= v <= high:
        raise InputError(f"{what}'s {key} must be an integer from {low:,} to {high:,}, not {describe(v)}", code="param")
    return v


def iterations_from(records: list) -> list[Iteration]:
    """``[{"bound", "nodes", "seconds"}, ...]`` as :class:`~fifteen.search.ida.Iteration` objects."""
    out = []
    for d in records:
        seconds = d.get("seconds", 0.0)
        if not is_number(seconds):
            raise InputError(f"an iteration's seconds must be a number, not {describe(seconds)}", code="param")
        out.append(Iteration(field(d, "bound", 0, MAX_BOUND, "an iteration"), field(d, "nodes", what="an iteration"), float(seconds)))
    return out


def squares_from(v: object, n: int, what: str) -> tuple[int, ...]:
    """*v* checked to be a list of at most MAX_MOVES square numbers of a board of *n* squares."""
    if not isinstance(v, list | tuple) or len(v) > MAX_MOVES or not all(is_int(s) and 0 <= s < n for s in v):
        raise InputError(f"a {what} must be a list of square numbers 0..{n - 1}, not {describe(v)}", code="param")
    return tuple(v)


_TASK_KEYS = frozenset(f for f in Task.__dataclass_fields__)


def task_from(d: dict) -> Task:
    """A :class:`~fifteen.parallel.scheduler.Task` as :func:`begin` and :func:`step` give them, checked:
    a position of its shape, a known bound, a budget of at most :data:`MAX_BOUND`, and an
    automaton state that has the task's blank square."""
    extra = set(d) - _TASK_KEYS
    if extra:
        raise InputError(f"a task has no field {describe(sorted(extra)[0])}", code="param")
    if not isinstance(d.get("shape"), str) or not isinstance(d.get("bound"), str):
        raise InputError("a task names its shape and bound as text", code="param")
    shape = Shape.parse(d["shape"])
    board = check_tiles(shape, d.get("board") or (), solvable=False)
    bound = resolve_bound(shape, d["bound"]).name
    mirror_closed = d.get("mirror_closed", False)
    if not isinstance(mirror_closed, bool):
        raise InputError(f"a task's mirror_closed must be true or false, not {describe(mirror_closed)}", code="param")
    goal = d.get("goal")
    if goal is not None:
        goal = check_tiles(shape, goal, solvable=False)
    tables = move_tables(shape, mirror_closed)
    state = field(d, "state", 0, tables.states - 1, "a task")
    if _state_square(shape, mirror_closed)[state] not in (-1, board.index(0)):
        raise InputError(f"a task's state {state} does not have the blank on square {board.index(0)}", code="param")
    return Task(
        id=field(d, "id", what="a task"),
        bound=bound,
        shape=str(shape),
        mirror_closed=mirror_closed,
        board=board,
        state=state,
        budget=field(d, "budget", 0, MAX_BOUND, "a task"),
        path=squares_from(d.get("path", []), shape.size, "task's path"),
        estimate=field(d, "estimate", what="a task") if "estimate" in d else 0,
        goal=goal,
    )


@lru_cache(maxsize=4)
def _state_square(shape: Shape, mirror_closed: bool) -> list[int]:
    """The blank's square in each state of the duplicate-pruning automaton (-1: not known)."""
    tables = move_tables(shape, mirror_closed)
    square = [-1] * tables.states
    for b, st in enumerate(tables.start_states):
        square[st] = b
    for row in tables.successors:
        for to, _move, st in row:
            square[st] = to
    return square


def _work(search_id: int, search: ParallelSearch) -> dict:
    """Begin iterations until one has tasks (or the split tree holds the goal)."""
    while True:
        tasks = search.begin()
        if search.solved:
            return {
                "search": search_id,
                "solved_path": list(search.solution or []),
                "h0": search.h0,
                "iterations": [it.to_json() for it in search.iterations],
            }
        if tasks:
            groups = bundles(tasks, search.min_task_nodes, search.workers)
            ahead = estimate(search.iterations, _LONGEST.get(search_id))
            return {
                "search": search_id,
                "bound": search.bound,
                "h0": search.h0,
                "split_nodes": search.iteration_nodes,
                "iterations": [it.to_json() for it in search.iterations],
                "bundles": [[asdict(t) for t in group] for group in groups],
                "estimate": None if ahead is None else ahead.to_json(),
            }
        search.end()  # every subtree cut at this bound: on to the next


def begin(board: Board, bound: str, workers: int, *, min_task_nodes: int | None = None) -> dict:
    """``parallel_begin`` (see the module docstring).  The search runs in the goal's frame
    (:mod:`fifteen.frame`), so do its tasks' boards and paths; :func:`check_solution` maps a
    solution back."""
    info = resolve_bound(board.shape, bound, board.target)
    frame = frame_for(board.target)
    kw: dict[str, Any] = {"max_bound": MAX_BOUND, "start_bound": start_bound(board, bound), "goal": frame.search_goal}
    if min_task_nodes is not None:
        kw["min_task_nodes"] = min_task_nodes
    search = ParallelSearch(board.shape, frame.position(board.tiles), info.name, info.factory, max(2, workers), **kw)
    search_id = next(_IDS)
    _SEARCHES[search_id] = search
    _LONGEST[search_id] = databases.longest_optimum(board.shape, board.target)
    while len(_SEARCHES) > _KEEP:
        _LONGEST.pop(min(_SEARCHES), None)
        del _SEARCHES[min(_SEARCHES)]
    work = _work(search_id, search)
    work["bound_name"] = info.name
    work["setup_seconds"] = round(search.setup_seconds, SECONDS_DIGITS)
    return work


def _search(params: dict) -> ParallelSearch:
    search = _SEARCHES.get(params.get("search") or 0)
    if search is None:
        raise InputError("no such parallel search (finished or dropped)", code="param")
    return search


def step(params: dict) -> dict:
    """``parallel_step``: the outcomes of every task of the iteration (none found a solution)."""
    search_id = params.get("search") or 0
    search = _search(params)
    if search.solved:  # solved in the split tree: parallel_begin or the last step gave its path
        raise InputError(f"parallel search {search_id} is solved already (its solved_path was given): nothing to step", code="param")
    for d in params.get("outcomes") or []:
        if d.get("path") is not None:
            raise InputError("parallel_step takes iterations without a solution (use parallel_result)", code="param")
        task_id = field(d, "id", what="an outcome")
        if not search.is_pending(task_id):
            raise InputError(f"task {task_id} is not pending in this iteration (given twice, or another search's)", code="duplicate")
        search.record(search.task(task_id), TaskOutcome(None, field(d, "nodes", what="an outcome"), False))
    if search.pending:
        raise InputError(f"parallel_step needs the outcome of every task of the iteration ({search.pending:,} missing)", code="param")
    search.end()
    return _work(search_id, search)


def drop(params: dict) -> dict:
    """``parallel_drop``."""
    _SEARCHES.pop(params.get("search") or 0, None)
    _LONGEST.pop(params.get("search") or 0, None)
    return {}


#: Seconds between two ``{"nodes"}`` progress reports of a pool's call.
NODE_REPORT_SECONDS = 0.25


def node_reports(progress, base: Callable[[], int] = lambda: 0) -> Callable[[int], None]:
    """A search's *ticked(nodes)* that sends *progress* ``{"nodes": base() + nodes}`` at most every
    :data:`NODE_REPORT_SECONDS` (nothing without *progress*): the page's live node counts."""
    last = [0.0]

    def ticked(nodes: int) -> None:
        now = time.perf_counter()
        if progress is not None and now - last[0] >= NODE_REPORT_SECONDS:
            last[0] = now
            progress(f'{{"nodes": {base() + nodes}}}')

    return ticked


def run_bundle(params: dict, progress=None) -> Steps[dict]:
    """``parallel_tasks``: search the bundle's tasks in order; after one with a solution, stop (steps:
    :mod:`fifteen.search.slices`)."""
    done = [0]
    ticked = node_reports(progress, lambda: done[0])
    outcomes = []
    for task in [task_from(d) for d in params.get("tasks") or []]:  # all checked before any runs
        outcome = yield from task_steps(task, ticked=ticked)
        done[0] += outcome.nodes
        if outcome.path is not None:  # a solution below the task's board: replayed before the page hears of it
            shape = Shape.parse(task.shape)
            board = Board(shape, task.board, Goal.of(task.goal, shape))
            check_answer(board, tiles_along(shape, task.board, outcome.path), task.bound)
        outcomes.append({"id": task.id, "path": outcome.path, "nodes": outcome.nodes, "stopped": outcome.stopped})
        if outcome.path is not None:
            break
    return {"outcomes": outcomes}


def result(board: Board, params: dict) -> dict:
    """``parallel_result``: the one JSON of a solve (:meth:`fifteen.optimal.Solution.to_json`,
    with ``workers``, ``worker_nodes`` and the position's bounds) of the solution a task found."""
    path, moved = check_solution(board, list(params.get("path") or []))
    its = iterations_from(params.get("iterations") or [])
    h0 = field(params, "h0", 0, len(path), "parallel_result") if params.get("h0") is not None else None
    if h0 is None:
        h0 = min(its[0].bound, len(path)) if its else len(path)
    found = ParallelResult(
        path,
        moved,
        h0,
        sum(it.nodes for it in its),
        float(params.get("seconds") or 0.0),
        its,
        setup_seconds=float(params.get("setup_seconds") or 0.0),
        workers=params.get("workers") or 1,
        worker_nodes=list(params.get("worker_nodes") or []),
    )
    bound = resolve_bound(board.shape, params.get("bound") or "auto", board.target).name
    return Solution(board, bound, found).to_json(bound_values(board))


def check_solution(board: Board, path: list[int]) -> tuple[list[int], list[int]]:
    """A solution the pool found: *path* (the blank's squares in the search's frame, as the
    tasks give them) checked to take the board to its goal, as ``(path, tiles that slide)``
    in the board's own frame."""
    frame = frame_for(board.target)
    tiles_along(board.shape, frame.position(board.tiles), path)  # each step next to the blank
    back = frame.squares_back(path)
    moved = tiles_along(board.shape, board.tiles, back)
    if not board.solves(moved):
        raise InputError("the path does not reach the goal", code="moves")
    return back, moved
