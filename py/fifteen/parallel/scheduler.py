"""Parallel IDA*: one position searched by many workers, through the searcher contract.

The search tree is split near its root into *tasks* (subtrees); each task is searched by a
worker with the very loop the serial search uses (:mod:`fifteen.search.ida`'s contract: the board
after the task's path, the root's move tables, the automaton state reached along the path,
the budget left), so duplicate pruning, the mirror-image halving of an own-mirror root and
the node counts stay exactly those of the serial search.

:class:`ParallelSearch` is the scheduler, written without any I/O so that every host drives it
the same way: the native process pool (:func:`fifteen.parallel.processes.solve_parallel`), a
single thread (:func:`run_inline`, also the simulator's recorder), or a pool of browser
workers (each running :func:`run_task_json`).  Per IDA* iteration:

1. :meth:`ParallelSearch.begin` walks the *split tree* (the nodes above the tasks, searched
   by the scheduler itself: one node each, cut by ``h0 > budget`` exactly as the serial loop
   cuts a child) and returns the iteration's tasks, **largest first** by an estimate (the
   task's nodes in the previous iteration times the growth between the last two).  A driver
   hands them to workers as they become free (dynamic, not a static split).
2. :meth:`ParallelSearch.record` takes each task's outcome.  A task that finds a solution
   ends the search: the bound is the current one, every smaller one was searched in full, so
   the solution is optimal; the driver stops the other workers (their partial counts may be
   recorded with ``stopped=True``).
3. :meth:`ParallelSearch.end` closes an iteration without a solution: its node count is the
   split tree's nodes plus the sum of the tasks' (equal to the serial count, which the tests
   pin), then any task expected to be too big for good load balance next time is split into
   its children (adaptive: ``split_factor`` tasks per worker of the expected total, never
   smaller than ``min_task_nodes``).

The first split expands the root breadth-first (within the first bound) until there are
``initial_tasks_per_worker`` tasks per worker.  With one worker the root itself is the only
task: the serial search.  A task is plain data (:class:`Task`, JSON with
:meth:`Task.to_json`), run by :func:`run_task` given the bound's name, so workers need only the
databases of that bound.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, TypeVar

from fifteen.board import Shape, tiles_along
from fifteen.bounds import resolve_bound
from fifteen.search.ida import Iteration, Progress, SearcherFactory, SearchResult, Stop, first_bound
from fifteen.search.moves import move_tables, normal_goal, tables_for
from fifteen.search.slices import Steps, drive, retried, search_steps, ticks

T = TypeVar("T")

#: Nodes between two checks of a task's *stopped* callback.
TASK_TICK_NODES = 1 << 14


@dataclass(frozen=True)
class Task:
    """One subtree to search in one iteration: what a worker receives.

    *board* is the position after the task's *path* (the blank's squares from the root),
    *state* the duplicate-pruning automaton's state there (of the tables given by
    *mirror_closed*), *budget* the moves left (the iteration's bound minus the path's length),
    *estimate* the nodes expected (the dispatch order), *goal* the position to reach (``None``:
    the standard goal).
    """

    id: int
    bound: str
    shape: str
    mirror_closed: bool
    board: tuple[int, ...]
    state: int
    budget: int
    path: tuple[int, ...] = ()
    estimate: int = 0
    goal: tuple[int, ...] | None = None

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str) -> Task:
        d = json.loads(text)
        d["board"], d["path"] = tuple(d["board"]), tuple(d["path"])
        if d.get("goal") is not None:
            d["goal"] = tuple(d["goal"])
        return cls(**d)


@dataclass(frozen=True)
class TaskOutcome:
    """A task's result: the solution's blank squares below the task's board (in order; None
    when none within the budget), the nodes expanded, whether it was stopped before the end,
    and the worker's CPU seconds."""

    path: list[int] | None
    nodes: int
    stopped: bool = False
    cpu_seconds: float = 0.0


def _never_stopped() -> bool:
    return False


def run_task(
    task: Task,
    factory: SearcherFactory | None = None,
    *,
    stopped: Callable[[], bool] = _never_stopped,
    ticked: Callable[[int], None] | None = None,
) -> TaskOutcome:
    """Search one task (in a worker).  *factory* defaults to the bound named by the task
    (its databases read at first use, once per process); *stopped* is polled every
    :data:`TASK_TICK_NODES` nodes and ends the task early (``stopped=True``) when true;
    *ticked* (optional) receives the task's nodes so far at the same points (live progress).
    :func:`task_steps` is the same search as steps (paused at the end of each time slice)."""
    return drive(task_steps(task, factory, stopped=stopped, ticked=ticked))


def task_steps(
    task: Task,
    factory: SearcherFactory | None = None,
    *,
    stopped: Callable[[], bool] = _never_stopped,
    ticked: Callable[[int], None] | None = None,
) -> Steps[TaskOutcome]:
    """:func:`run_task` as steps (:mod:`fifteen.search.slices`)."""
    shape = Shape.parse(task.shape)
    if factory is None:
        factory = resolve_bound(shape, task.bound).factory
    last = [0]

    def on_tick(nodes: int) -> None:
        last[0] = nodes
        if ticked is not None:
            ticked(nodes)
        if stopped():
            raise Stop

    tick = ticks(TASK_TICK_NODES, on_tick)

    cpu = time.process_time()
    goal = {} if task.goal is None else {"goal": task.goal}
    made = factory

    def searcher_of_task():
        return made(shape, list(task.board), tick, tables=move_tables(shape, task.mirror_closed), state=task.state, **goal)

    searcher = yield from retried(searcher_of_task)  # (the shape's first tables: paused at slices' ends)
    try:
        path, nodes = yield from search_steps(searcher, task.budget)
    except Stop:
        return TaskOutcome(None, last[0], True, time.process_time() - cpu)
    return TaskOutcome(None if path is None else path[::-1], nodes, False, time.process_time() - cpu)


def run_tasks(
    tasks: Sequence[Task], factory: SearcherFactory | None = None, *, stopped: Callable[[], bool] = _never_stopped
) -> list[TaskOutcome]:
    """Search a bundle of tasks in order (:func:`bundles`); ends after the first that finds a
    solution or is stopped: one outcome per task searched."""
    outcomes = []
    for task in tasks:
        outcome = run_task(task, factory, stopped=stopped)
        outcomes.append(outcome)
        if outcome.path is not None or outcome.stopped:
            break
    return outcomes


def bundles(tasks: Sequence[T], min_nodes: int, workers: int) -> list[list[T]]:
    """Group consecutive small tasks (in dispatch order, by their ``estimate``) until a group
    expects *min_nodes*, at most ``len(tasks) / (4 * workers)`` tasks each: one hand-over to a
    worker per group (each costs about a millisecond natively), at least 4 groups per worker."""
    cap = max(1, len(tasks) // (4 * max(1, workers)))
    out: list[list[T]] = []
    group: list[T] = []
    expected = 0
    for task in tasks:
        group.append(task)
        expected += task.estimate  # type: ignore[attr-defined]
        if expected >= min_nodes or len(group) >= cap:
            out.append(group)
            group, expected = [], 0
    if group:
        out.append(group)
    return out


def run_task_json(task_json: str, stopped: Callable[[], bool] | None = None) -> str:
    """:func:`run_task` with JSON in and out (for a browser worker, whose databases are loaded
    through :func:`fifteen.api.load_asset`): ``{"id", "path", "nodes", "stopped"}``."""
    task = Task.from_json(task_json)
    outcome = run_task(task, stopped=stopped or _never_stopped)
    return json.dumps({"id": task.id, "path": outcome.path, "nodes": outcome.nodes, "stopped": outcome.stopped})


def outcome_from_json(text: str) -> TaskOutcome:
    """The :class:`TaskOutcome` of :func:`run_task_json`'s answer (for the coordinator's :meth:`ParallelSearch.record`)."""
    d = json.loads(text)
    return TaskOutcome(d["path"], int(d["nodes"]), bool(d.get("stopped", False)))


@dataclass
class _Node:
    """A node of the split tree: a task while it has no children."""

    board: tuple[int, ...]
    state: int
    path: tuple[int, ...]
    h0: int
    goal: bool
    children: list[_Node] | None = None
    nodes: int = -1  # as a task: its nodes in the last iteration it ran (-1: never ran)
    ran_at: int = -1  # the bound of that iteration
    guess: int = 0  # split from a task: its share of the parent's expected nodes


@dataclass
class TaskRecord:
    """A task as it ran (for the simulator): estimate, nodes, worker seconds, found a solution."""

    estimate: int
    nodes: int
    seconds: float
    solved: bool = False
    stopped: bool = False


@dataclass
class ParallelResult(SearchResult):
    """A :class:`fifteen.search.ida.SearchResult` with the parallel search's own figures."""

    workers: int = 1
    worker_nodes: list[int] = field(default_factory=list)  # nodes searched by each worker
    tasks: list[list[TaskRecord]] = field(default_factory=list)  # per iteration, in dispatch order
    split_nodes: list[int] = field(default_factory=list)  # per iteration, nodes searched by the scheduler

    def to_json(self) -> dict[str, Any]:
        """:meth:`fifteen.search.ida.SearchResult.to_json` plus ``workers`` and ``worker_nodes``."""
        return {**super().to_json(), "workers": self.workers, "worker_nodes": list(self.worker_nodes)}


class ParallelSearch:
    """The scheduler of a parallel IDA* search (see the module docstring).

    *bound* is the bound's name (workers resolve it), *factory* its searcher factory (for the
    ``h0`` of the split tree's nodes, and for :func:`run_inline`); *start_bound*, another lower
    bound of the root (0: none), can raise the first iteration's bound as in :func:`fifteen.search.ida.ida_star`;
    *goal* is the position to reach (default the standard goal), handed to every task.
    """

    def __init__(
        self,
        shape: Shape,
        tiles: Sequence[int],
        bound: str,
        factory: SearcherFactory,
        workers: int,
        *,
        initial_tasks_per_worker: int = 16,
        split_factor: int = 24,
        min_task_nodes: int = 50_000,
        max_bound: int | None = None,
        start_bound: int = 0,
        goal: Sequence[int] | None = None,
    ):
        setup_start = time.perf_counter()
        self.shape, self.bound_name, self.factory = shape, bound, factory
        self.workers = max(1, workers)
        self.split_factor, self.min_task_nodes, self.max_bound = split_factor, min_task_nodes, max_bound
        self.tiles = tuple(tiles)
        self.goal = normal_goal(shape, goal)
        self.tables = tables_for(shape, self.tiles, self.goal)
        self._goal = self.goal or shape.goal()
        self._goal_arg = {} if self.goal is None else {"goal": self.goal}
        blank = self.tiles.index(0)
        self.root = self._node(self.tiles, self.tables.start_states[blank], ())
        self.h0 = self.root.h0
        self.bound = first_bound(shape, self.tiles, max(self.h0, start_bound), self.goal)
        self.iterations: list[Iteration] = []
        self.task_log: list[list[TaskRecord]] = []
        self.split_log: list[int] = []
        self.solution: list[int] | None = [] if self.root.goal else None
        self._growth = 6.0
        self._tasks: dict[int, tuple[Task, _Node]] = {}
        self._records: dict[int, TaskRecord] = {}
        self._next_id = 0
        self._iteration_nodes = 0
        self._iteration_start = 0.0
        if self.workers > 1 and not self.root.goal:
            self._initial_split(initial_tasks_per_worker * self.workers)
        self.setup_seconds = time.perf_counter() - setup_start

    # ------------------------------------------------------------ the split tree
    def _node(self, board: tuple[int, ...], state: int, path: tuple[int, ...]) -> _Node:
        searcher = self.factory(self.shape, list(board), _no_tick, tables=self.tables, state=state, **self._goal_arg)
        return _Node(board, state, path, searcher.h0, board == self._goal)

    def _expand(self, node: _Node) -> list[_Node]:
        if node.children is None:
            blank = node.board.index(0)
            kids = []
            for s, _, st in self.tables.successors[node.state]:
                child = list(node.board)
                child[blank], child[s] = child[s], 0
                kids.append(self._node(tuple(child), st, node.path + (s,)))
            node.children = kids
        return node.children

    def _initial_split(self, target: int) -> None:
        """Expand the root breadth-first, within the first bound, until *target* tasks."""
        level = [self.root]
        for depth in range(self.bound):
            runnable = [n for n in level if not n.goal and n.h0 <= self.bound - depth]
            if not runnable:
                return
            nxt = []
            for n in runnable:
                nxt += [c for c in self._expand(n) if c.h0 <= self.bound - depth - 1]
            level = nxt
            if len(nxt) >= target:
                return

    def _leaves_within(self, node: _Node, budget: int, out: list[tuple[_Node, int]], counter: list[int]) -> None:
        """The tasks under *node* (within *budget*, as the serial loop cuts); counts the split
        tree's nodes in *counter*; a goal found on the way sets the solution."""
        if node.goal:
            if self.solution is None:
                self.solution = list(node.path)
            return
        if node.children is None:
            out.append((node, budget))
            return
        counter[0] += 1
        for child in node.children:
            if child.h0 <= budget - 1:
                self._leaves_within(child, budget - 1, out, counter)

    # ------------------------------------------------------------ an iteration
    @property
    def solved(self) -> bool:
        return self.solution is not None

    def begin(self) -> list[Task]:
        """Start the current iteration: its tasks, largest first.  When the root or a node of
        the split tree is the goal, the search is solved (:attr:`solved`) and there are none."""
        self._iteration_start = time.perf_counter()
        self._tasks.clear()
        self._records.clear()
        if self.solution is not None:  # the root is the goal
            self.iterations = [Iteration(0, 0, 0.0)]
            return []
        leaves: list[tuple[_Node, int]] = []
        counter = [0]
        self._leaves_within(self.root, self.bound, leaves, counter)
        self.split_log.append(counter[0])
        self._iteration_nodes = counter[0]
        if self.solution is not None:
            self._close_iteration(order=[])
            return []
        tasks = []
        for node, budget in leaves:
            estimate = self._estimate(node, budget)
            task = Task(
                self._next_id,
                self.bound_name,
                str(self.shape),
                self.tables.mirror_closed,
                node.board,
                node.state,
                budget,
                node.path,
                estimate,
                self.goal,
            )
            self._next_id += 1
            self._tasks[task.id] = (task, node)
            tasks.append(task)
        tasks.sort(key=lambda t: -t.estimate)  # stable: ties keep the serial (depth-first) order
        return tasks

    def _estimate(self, node: _Node, budget: int) -> int:
        if node.nodes >= 0 and node.ran_at == self.bound - 2:
            return max(1, int(node.nodes * self._growth))
        return max(1, node.guess)  # 0 for a node cut last time: its slack is at most 1 now

    def task(self, task_id: int) -> Task:
        """The current iteration's task *task_id* (a coordinator that keeps only ids)."""
        return self._tasks[task_id][0]

    def record(self, task: Task, outcome: TaskOutcome, seconds: float = 0.0) -> bool:
        """Take a task's outcome; True when it holds the first solution (the search is over:
        the driver stops the other tasks, whose partial counts may still be recorded)."""
        entry = self._tasks.get(task.id)
        if entry is None or task.id in self._records:
            raise ValueError(f"task {task.id} is not pending in this iteration")
        node = entry[1]
        solved = outcome.path is not None and not outcome.stopped
        self._records[task.id] = TaskRecord(task.estimate, outcome.nodes, seconds, solved, outcome.stopped)
        self._iteration_nodes += outcome.nodes
        if not outcome.stopped:
            node.nodes, node.ran_at = outcome.nodes, self.bound
        if solved and self.solution is None:
            assert outcome.path is not None
            self.solution = list(task.path) + list(outcome.path)
            return True
        return False

    @property
    def pending(self) -> int:
        return len(self._tasks) - len(self._records)

    def is_pending(self, task_id: int) -> bool:
        """Whether *task_id* is a task of the current iteration without an outcome yet."""
        return task_id in self._tasks and task_id not in self._records

    @property
    def iteration_nodes(self) -> int:
        """Nodes of the current iteration so far."""
        return self._iteration_nodes

    def _close_iteration(self, order: list[int]) -> None:
        now = time.perf_counter()
        self.iterations.append(Iteration(self.bound, self._iteration_nodes, now - self._iteration_start))
        self.task_log.append([self._records[i] for i in order if i in self._records])

    def end(self) -> Iteration:
        """Close an iteration whose tasks all ran without a solution; split what is too big."""
        if self.pending or self.solution is not None:
            raise ValueError("the iteration is not over, or the search is solved")
        order = sorted(self._tasks, key=lambda i: -self._tasks[i][0].estimate)
        self._close_iteration(order)
        total = self._iteration_nodes
        if len(self.iterations) >= 2 and self.iterations[-2].nodes > 0:
            self._growth = min(20.0, max(1.5, total / self.iterations[-2].nodes))
        if self.workers > 1:
            threshold = max(self.min_task_nodes, total * self._growth / (self.workers * self.split_factor))
            for task, node in self._tasks.values():
                if node.nodes >= 0:
                    self._split(node, node.nodes * self._growth, threshold, task.budget + 2, 0)
        self.bound += 2
        if self.max_bound is not None and self.bound > self.max_bound:
            raise RuntimeError(f"no solution within {self.max_bound} moves (is the position solvable?)")
        return self.iterations[-1]

    def _split(self, node: _Node, expected: float, threshold: float, budget: int, depth: int) -> None:
        """Split *node* (a task expected to expand *expected* nodes with *budget* next time)
        until its parts are expected below *threshold*."""
        if node.goal or expected <= threshold or depth > 8:
            return
        kids = [c for c in self._expand(node) if c.h0 <= budget - 1]
        if not kids:
            return
        share = expected / len(kids)
        for c in kids:
            c.guess = max(1, int(share))
            self._split(c, share, threshold, budget - 1, depth + 1)

    def result(self, seconds: float, *, setup_seconds: float = 0.0, cpu_seconds: float = 0.0) -> SearchResult:
        """The :class:`fifteen.search.ida.SearchResult` of a solved search."""
        if self.solution is None:
            raise ValueError("not solved")
        if not self.iterations or self.iterations[-1].bound != self.bound:  # solved by a task
            order = sorted(self._tasks, key=lambda i: -self._tasks[i][0].estimate)
            self._close_iteration(order)
        return ParallelResult(
            list(self.solution),
            tiles_along(self.shape, self.tiles, self.solution),
            self.h0,
            sum(it.nodes for it in self.iterations),
            seconds,
            list(self.iterations),
            setup_seconds=setup_seconds,
            cpu_seconds=cpu_seconds,
            workers=self.workers,
            tasks=self.task_log,
            split_nodes=self.split_log,
        )

    def progress(self, seconds: float, done: bool) -> Progress:
        """A :class:`fifteen.search.ida.Progress`: after :meth:`end` (*done*), or during an iteration."""
        finished = sum(it.nodes for it in self.iterations)
        if done:
            last = self.iterations[-1]
            return Progress(last.bound, finished, last.nodes, seconds, list(self.iterations), True)
        return Progress(self.bound, finished + self._iteration_nodes, self._iteration_nodes, seconds, list(self.iterations), False)


def _no_tick(nodes: int) -> int:
    return sys.maxsize


def run_inline(
    search: ParallelSearch,
    *,
    progress: Callable[[Progress], None] | None = None,
    complete_last: bool = False,
) -> SearchResult:
    """Run every task of *search* in this thread, in dispatch order (tests, the simulator's
    recorder, a host without workers).  With *complete_last*, the tasks of the last iteration
    after the one that found the solution run too and are logged (not counted in ``nodes``;
    ``stopped`` set, ``solved`` when they hold a solution too) for the simulator:
    ``result.tasks[-1]`` then holds every task of that iteration, in dispatch order."""
    start = time.perf_counter()
    cpu = time.process_time()
    solved_at = None
    while True:
        tasks = search.begin()
        if search.solved:
            break
        solved_at = None
        for i, task in enumerate(tasks):
            t0 = time.perf_counter()
            outcome = run_task(task, search.factory)
            if search.record(task, outcome, time.perf_counter() - t0):
                solved_at = i
                break
        if solved_at is not None:
            break
        search.end()
        if progress is not None:
            progress(search.progress(time.perf_counter() - start, True))
    result = search.result(time.perf_counter() - start, setup_seconds=search.setup_seconds, cpu_seconds=time.process_time() - cpu)
    if complete_last and solved_at is not None:
        log = search.task_log[-1]
        for task in tasks[solved_at + 1 :]:
            t0 = time.perf_counter()
            outcome = run_task(task, search.factory)
            log.append(TaskRecord(task.estimate, outcome.nodes, time.perf_counter() - t0, outcome.path is not None, True))
    return result


__all__ = [
    "ParallelResult",
    "ParallelSearch",
    "Task",
    "TaskOutcome",
    "TaskRecord",
    "bundles",
    "outcome_from_json",
    "run_inline",
    "run_task",
    "run_tasks",
    "run_task_json",
]
