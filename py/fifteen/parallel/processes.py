"""Native worker processes: a small pool that survives the death of a worker, and the parallel
solve (:func:`solve_parallel`) and batch runs built on it.

:class:`WorkerPool` starts *size* processes (the ``fork`` start method where the OS has it, so
the databases the parent loaded are shared copy-on-write; else ``spawn``, and each worker reads
them once, at first use), each with its own pipe.  The parent hands a call to an idle worker
and waits for events: a result, an error, or a death (the process's sentinel): a killed worker
(out of memory, ``kill -9``) is reported with the call it was running, so the caller can run it
again elsewhere, and :meth:`WorkerPool.replace` starts a new process in its slot.  A worker
that shows no progress for ``stall_seconds`` (:data:`STALL_SECONDS`; stopped with SIGSTOP,
hung) is ended and reported as a death too.  Workers ignore SIGINT: Ctrl-C (and SIGTERM, which
the CLI turns into the same interruption) reaches the parent, which terminates them
(:meth:`WorkerPool.close`); and they never outlive the parent, however it dies: each one ends
within a fraction of a second of the parent's death (``kill -9`` included), closes the
parent's ends of the pipes it inherits and does not hold the caller's stdout, so
``fifteen batch ... | tee log`` ends with it.

A running call can be asked to stop (:meth:`WorkerPool.stop_running`): each call gets a
``stopped()`` callable that turns true then (a shared counter, read every few thousand nodes).
"""

from __future__ import annotations

import ctypes
import itertools
import math
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass
from multiprocessing.connection import wait as wait_for
from typing import Any

from fifteen.board import Board
from fifteen.bounds import databases, resolve_bound, start_bound
from fifteen.errors import FifteenError, InputError
from fifteen.frame import frame_for
from fifteen.limits import MAX_WORKERS, describe
from fifteen.machine import available_memory
from fifteen.optimal import Solution
from fifteen.parallel.scheduler import ParallelResult, ParallelSearch, Task, TaskOutcome, bundles, run_tasks
from fifteen.search.ida import Cancelled, Progress


class WorkerError(FifteenError):
    """Workers kept dying, or a worker failed: no answer can be trusted."""

    def __init__(self, message: object = "", *, code: str = "worker") -> None:
        super().__init__(message, code=code)


def default_jobs() -> int:
    """Every core this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def resolve_stall_seconds(seconds: float) -> float | None:
    """``--stall-seconds``: ``0`` means never; negative, infinite or NaN is an input error."""
    if isinstance(seconds, bool) or not isinstance(seconds, int | float) or not 0 <= seconds < math.inf:
        raise InputError(f"--stall-seconds must be 0 (never) or a positive number of seconds, not {describe(seconds)}", code="range")
    return seconds or None


#: What a worker process needs of its own besides what it shares with its parent (copy on write:
#: the databases, the tables): the interpreter's own pages, its search's lists; a generous guess
#: (a forked worker of a 4x4 search holds about 10 MB), used to refuse a --jobs no memory could hold.
WORKER_BYTES = 32 << 20


def resolve_jobs(jobs: int) -> int:
    """``--jobs``: ``0`` means every core (as many as memory allows); else from 1 to
    :data:`~fifteen.limits.MAX_WORKERS`, and no more than this machine's free memory can hold
    (:data:`WORKER_BYTES` each): anything else is an input error, before any process starts."""
    if isinstance(jobs, bool) or not isinstance(jobs, int) or not 0 <= jobs <= MAX_WORKERS:
        raise InputError(
            f"--jobs must be 0 (every core) or a number of worker processes from 1 to {MAX_WORKERS}, not {describe(jobs)}", code="range"
        )
    free = available_memory()
    room = MAX_WORKERS if free is None else max(1, free // WORKER_BYTES)
    if jobs == 0:
        return min(default_jobs(), room)
    if free is not None and jobs > room:
        raise InputError(
            f"--jobs {jobs}: this machine's free memory ({free / (1 << 30):.1f} GB) holds about {room} worker processes; give fewer",
            code="range",
        )
    return jobs


def _context():
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


#: How a worker notices its parent's death: ``"prctl"`` (Linux: the kernel sends it SIGKILL the
#: moment the parent dies, ``PR_SET_PDEATHSIG``; elsewhere it falls back to polling) or ``"poll"``
#: (a thread compares the parent's pid every :data:`PARENT_POLL_SECONDS`).
PARENT_WATCH = "prctl"
PARENT_POLL_SECONDS = 0.2
#: A busy worker with no sign of progress for this long is ended and its call handed to another
#: (``--stall-seconds``; :class:`WorkerPool`'s *stall_seconds*, ``None``: never).
STALL_SECONDS = 60.0


def _use_databases(directory: str | None) -> None:
    """In a worker: read databases from *directory* (a spawned worker; a forked one has them)."""
    if directory is not None and str(databases.directory()) != directory:
        databases.use_directory(directory)


def _set_parent_death_signal() -> bool:
    """Linux: have the kernel SIGKILL this process when its parent dies (True when set)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        return ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0) == 0  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # pragma: no cover - no libc prctl
        return False


def _poll_parent(parent_pid: int) -> None:
    while os.getppid() == parent_pid:
        time.sleep(PARENT_POLL_SECONDS)
    os._exit(1)


def _watch_parent(parent_pid: int) -> None:
    """End this worker as soon as its parent dies, however it dies (``kill -9`` included), so
    that no worker outlives the run (see :data:`PARENT_WATCH`).  The kernel's signal comes when
    the parent *thread* that started the worker ends: a pool is used by the thread that made it."""
    if PARENT_WATCH == "prctl" and _set_parent_death_signal():
        if os.getppid() != parent_pid:  # died before the signal was set
            os._exit(1)
        return
    threading.Thread(target=_poll_parent, args=(parent_pid,), daemon=True, name="fifteen-parent-watch").start()


#: The signals a starting worker holds (:func:`_signals_held`) until its own handlers are set.
_HELD = {signal.SIGINT, signal.SIGTERM}


@contextmanager
def _signals_held():
    """Hold SIGINT and SIGTERM while a worker starts: the worker inherits them blocked until it
    has set its own handlers (a Ctrl-C in its first instants is not its to handle, and the CLI's
    SIGTERM handler, which fork copies, is not its own), and one that comes meanwhile reaches
    this process when they are released: a Ctrl-C is never lost.  Without signal masks
    (Windows): SIGINT ignored meanwhile, as before."""
    if hasattr(signal, "pthread_sigmask"):
        previous = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
        try:
            yield
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, previous)
        return
    main = threading.current_thread() is threading.main_thread()
    handler = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
    try:
        yield
    finally:
        if main:
            signal.signal(signal.SIGINT, handler)


def _worker_main(conn, stop, beats, index: int, directory: str | None, parent_pid: int, inherited: tuple = ()) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the CLI's handler (fork copies it): terminate() ends a worker
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)  # held while it started (_signals_held)
    _watch_parent(parent_pid)
    for other in inherited:  # the parent's ends of every pipe (fork copies them): else no EOF when the parent dies
        other.close()
    devnull = os.open(os.devnull, os.O_WRONLY)  # results go through the pipe; the caller's stdout is not ours to hold
    os.dup2(devnull, 1)
    os.close(devnull)
    _use_databases(directory)

    def beat() -> None:
        beats[index] += 1  # progress, read by the parent (WorkerPool.wait: stalled workers)

    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        call_id, generation, fn, args = message
        cpu = time.process_time()
        beat()

        def stopped(generation=generation) -> bool:
            beat()
            return stop.value != generation

        try:
            value = fn(*args, stopped=stopped)
            reply = ("done", call_id, value, time.process_time() - cpu)
        except BaseException as exc:  # noqa: B036 - reported to the parent, never a traceback on the terminal
            # the package's own errors as they are (an AssetError stays one), any other as its name and message
            error = exc if isinstance(exc, FifteenError) else f"{type(exc).__name__}: {exc}"
            reply = ("error", call_id, error, time.process_time() - cpu)
        try:
            conn.send(reply)
        except (OSError, ValueError):
            return


@dataclass
class Worker:
    index: int
    process: Any
    conn: Any
    busy: Any = None  # the id of the call it runs, or None
    nodes: int = 0  # for the caller's bookkeeping
    beat: int = 0  # its progress count when last seen changing (WorkerPool.wait)
    beat_at: float = 0.0  # and when (time.monotonic)


@dataclass
class Event:
    kind: str  # "done", "error" or "died"
    worker: Worker
    call_id: Any
    value: Any = None  # the result, the error (the package's own error as it is, else its name and message), or the exit code
    cpu_seconds: float = 0.0
    stalled: float | None = None  # "died": ended by the pool after this many seconds without progress


class WorkerPool:
    """*size* worker processes (see the module docstring).

    A worker never outlives the pool's process: it ends within a fraction of a second of the
    parent's death, however the parent dies (:func:`_watch_parent`), and holds neither the other
    workers' pipes nor the caller's stdout.  A busy worker that shows no progress for
    *stall_seconds* (stopped with SIGSTOP, swapped out, hung) is ended and reported as a death
    (:attr:`Event.stalled`), so its call is run again elsewhere; ``None``: never."""

    def __init__(self, size: int, directory: str | None = None, *, stall_seconds: float | None = STALL_SECONDS):
        self._ctx = _context()
        self._stop = self._ctx.RawValue("i", 0)
        self._beats = self._ctx.RawArray("Q", max(1, size))
        self._directory = directory
        self.stall_seconds = stall_seconds
        self._last_wait = time.monotonic()
        self.workers: list[Worker] = []
        for i in range(size):
            self.workers.append(self._start(i))

    def _start(self, index: int) -> Worker:
        parent, child = self._ctx.Pipe()
        # A forked worker inherits the parent's end of every pipe: it closes them first thing.
        inherited = (parent, *(w.conn for w in self.workers)) if self._ctx.get_start_method() == "fork" else ()
        args = (child, self._stop, self._beats, index, self._directory, os.getpid(), inherited)
        process = self._ctx.Process(target=_worker_main, args=args, daemon=True, name=f"fifteen-{index}")
        with _signals_held():
            process.start()
        child.close()
        return Worker(index, process, parent)

    def idle(self) -> list[Worker]:
        return [w for w in self.workers if w.busy is None]

    def submit(self, worker: Worker, call_id: Any, fn: Callable, *args: Any) -> None:
        """Run ``fn(*args, stopped=...)`` on *worker* (idle); its event carries *call_id*."""
        worker.busy = call_id
        worker.beat, worker.beat_at = self._beats[worker.index], time.monotonic()
        try:
            worker.conn.send((call_id, self._stop.value, fn, args))
        except (OSError, ValueError):
            pass  # dead already: its sentinel reports it

    def stop_running(self) -> None:
        """Ask every running call to stop (their ``stopped()`` turns true)."""
        self._stop.value += 1

    def wait(self, timeout: float | None) -> list[Event]:
        """Events of the workers (results, errors, deaths, stalled workers ended), waiting up to
        *timeout* seconds."""
        busy = [w for w in self.workers if w.busy is not None]
        ready = set(wait_for([w.conn for w in busy] + [w.process.sentinel for w in self.workers], timeout))
        events = []
        for w in list(self.workers):
            if w.conn in ready or (w.busy is not None and w.process.sentinel in ready and w.conn.poll()):
                try:
                    kind, call_id, value, cpu = w.conn.recv()
                except (EOFError, OSError):
                    kind = ""
                else:
                    w.busy = None
                    events.append(Event(kind, w, call_id, value, cpu))
            if w.process.sentinel in ready:
                w.process.join(0.1)
                events.append(Event("died", w, w.busy, w.process.exitcode))
                w.busy = None
        events += self._end_stalled(timeout or 0.0)
        return events

    def _end_stalled(self, waited: float) -> list[Event]:
        """End the busy workers without progress for :attr:`stall_seconds`: their "died" events.
        *waited*: the longest this call may have waited for events."""
        now = time.monotonic()
        paused, self._last_wait = now - self._last_wait - waited, now
        events: list[Event] = []
        if self.stall_seconds is None:
            return events
        for w in self.workers:
            if w.busy is None:
                continue
            beat = self._beats[w.index]
            # progress seen, or this process itself did not run for a while (stopped with its
            # workers by Ctrl-Z, starved): the worker's silence is measured from now
            if beat != w.beat or paused > min(5.0, self.stall_seconds / 2):
                w.beat, w.beat_at = beat, now
            elif now - w.beat_at >= self.stall_seconds:
                w.process.kill()  # SIGKILL: ends a stopped process too
                w.process.join(5.0)
                events.append(Event("died", w, w.busy, w.process.exitcode, stalled=now - w.beat_at))
                w.busy = None
        return events

    def replace(self, worker: Worker) -> Worker:
        """A new process in the slot of a dead *worker*."""
        worker.conn.close()
        new = self._start(worker.index)
        new.nodes = worker.nodes
        self.workers[worker.index] = new
        return new

    def close(self) -> None:
        """End every worker: politely when idle, else terminate."""
        for w in self.workers:
            if w.busy is None and w.process.is_alive():
                try:
                    w.conn.send(None)
                except (OSError, ValueError):
                    pass
            else:
                w.process.terminate()
        deadline = time.monotonic() + 2.0
        for w in self.workers:
            w.process.join(max(0.0, deadline - time.monotonic()))
            if w.process.is_alive():
                w.process.kill()
                w.process.join(1.0)
            w.conn.close()

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def describe_death(event: Event) -> str:
    """``worker 2 (pid 123) died (killed by SIGKILL)``, or ``... made no progress for 61 s
    (stopped?) and was ended`` for a stalled worker the pool ended."""
    worker = event.worker
    if event.stalled is not None:
        return f"worker {worker.index + 1} (pid {worker.process.pid}) made no progress for {event.stalled:.0f} s (stopped?) and was ended"
    exitcode = event.value
    if exitcode is not None and exitcode < 0:
        try:
            how = f"killed by {signal.Signals(-exitcode).name}"
        except ValueError:
            how = f"killed by signal {-exitcode}"
    else:
        how = f"exit status {exitcode}"
    return f"worker {worker.index + 1} (pid {worker.process.pid}) died ({how})"


#: How long the other workers have to return their partial counts once a solution is found.
STOP_WAIT_SECONDS = 5.0


def print_notice(message: str) -> None:
    """A notice of the pools (a worker replaced, a retry) on stderr, one line: ``fifteen: <message>``."""
    print(f"fifteen: {message}", file=sys.stderr, flush=True)


@dataclass
class _Run:
    """A bundle of tasks handed to one worker (:func:`fifteen.parallel.scheduler.bundles`)."""

    tasks: list[Task]
    started: float = 0.0
    deaths: int = 0


def run_search(
    search: ParallelSearch,
    pool: WorkerPool,
    *,
    progress: Callable[[Progress], None] | None = None,
    cancel: Callable[[], bool] | None = None,
    notice: Callable[[str], None] = print_notice,
    max_deaths: int = 3,
    progress_seconds: float = 0.25,
) -> ParallelResult:
    """Drive *search* on *pool* to its solution (see :mod:`fifteen.parallel.scheduler`)."""
    start = time.perf_counter()
    cpu = time.process_time()
    worker_cpu = 0.0
    last_report = start
    deaths_total = 0
    calls = itertools.count()
    while True:
        tasks = search.begin()
        if search.solved:
            break
        queue = deque(_Run(group) for group in bundles(tasks, search.min_task_nodes, len(pool.workers)))
        running: dict[int, _Run] = {}
        solved, solved_at = False, 0.0
        while queue or running:
            if not solved:
                for w in pool.idle():
                    if not queue:
                        break
                    nxt = queue.popleft()
                    nxt.started = time.perf_counter()
                    call = next(calls)
                    running[call] = nxt
                    pool.submit(w, call, run_tasks, nxt.tasks)
            for event in pool.wait(0.1):
                run = running.pop(event.call_id, None) if event.call_id is not None else None
                if event.kind == "done" and run is not None:
                    outcomes: list[TaskOutcome] = event.value
                    worker_cpu += event.cpu_seconds
                    for task, outcome in zip(run.tasks, outcomes, strict=False):
                        event.worker.nodes += outcome.nodes
                        if search.record(task, outcome, outcome.cpu_seconds) and not solved:
                            solved, solved_at = True, time.perf_counter()
                            queue.clear()
                            pool.stop_running()  # the others return their partial counts
                elif event.kind == "error":
                    raise event.value if isinstance(event.value, FifteenError) else WorkerError(f"a worker failed: {event.value}")
                elif event.kind == "died":
                    deaths_total += 1
                    if run is not None and not solved:
                        run.deaths += 1
                        notice(f"{describe_death(event)}; its tasks are re-run by another worker")
                        if run.deaths >= max_deaths:
                            raise WorkerError(f"{run.deaths} workers died on the same subtrees (out of memory?): no answer")
                        queue.appendleft(run)
                    elif not solved:
                        notice(f"{describe_death(event)}; it is replaced")
                    if deaths_total > max_deaths * len(pool.workers):
                        raise WorkerError(f"{deaths_total} workers died (out of memory?): no answer")
                    pool.replace(event.worker)
            if cancel is not None and cancel():
                raise Cancelled()
            now = time.perf_counter()
            if solved and now - solved_at > STOP_WAIT_SECONDS:
                break  # the pool's close terminates the late ones
            if progress is not None and not solved and now - last_report >= progress_seconds:
                last_report = now
                progress(search.progress(now - start, False))
        if solved:
            break
        search.end()
        if progress is not None:
            progress(search.progress(time.perf_counter() - start, True))
    result = search.result(
        time.perf_counter() - start,
        setup_seconds=search.setup_seconds,
        cpu_seconds=time.process_time() - cpu + worker_cpu,
    )
    assert isinstance(result, ParallelResult)
    result.worker_nodes = [w.nodes for w in pool.workers]
    return result


def solve_parallel(
    board: Board,
    bound: str = "auto",
    *,
    jobs: int = 0,
    progress: Callable[[Progress], None] | None = None,
    cancel: Callable[[], bool] | None = None,
    notice: Callable[[str], None] = print_notice,
    pool_hook: Callable[[WorkerPool], None] | None = None,
    stall_seconds: float | None = STALL_SECONDS,
):
    """A shortest solution of *board* searched by *jobs* worker processes (0: every core).

    Returns a :class:`fifteen.optimal.Solution` whose ``result`` is a
    :class:`fifteen.parallel.scheduler.ParallelResult` (``workers``, ``worker_nodes``).  *notice* receives
    the messages about dead and stalled workers; *pool_hook* is called with the pool once it is
    started (tests use it to kill a worker); a worker without progress for *stall_seconds* is
    ended and its tasks re-run (:class:`WorkerPool`).
    """
    jobs = resolve_jobs(jobs)
    info = resolve_bound(board.shape, bound, board.target)
    frame = frame_for(board.target)  # searched in the goal's frame, as solve() does
    # (loads the databases before the fork)
    search = ParallelSearch(
        board.shape,
        frame.position(board.tiles),
        info.name,
        info.factory,
        jobs,
        start_bound=start_bound(board, bound),
        goal=frame.search_goal,
    )
    directory = databases.directory()
    with WorkerPool(jobs, None if directory is None else str(directory), stall_seconds=stall_seconds) as pool:
        if pool_hook is not None:
            pool_hook(pool)
        result = run_search(search, pool, progress=progress, cancel=cancel, notice=notice)
    return Solution(board, info.name, frame.back(result, board.tiles))


__all__ = [
    "Event",
    "STALL_SECONDS",
    "Worker",
    "WorkerError",
    "WorkerPool",
    "default_jobs",
    "describe_death",
    "resolve_jobs",
    "resolve_stall_seconds",
    "run_search",
    "solve_parallel",
]
