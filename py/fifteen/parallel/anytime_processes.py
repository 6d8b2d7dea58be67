"""The anytime search on native worker processes (``solve --anytime --jobs N``, N >= 2).

The work splits as the issue suggests: one worker **proves** (the package's IDA* with the
board's strongest bound, one threshold per call: each refuted threshold raises the lower bound
by 2, a threshold that finds a solution ends the search with it, optimal) while the others
**improve** the upper bound from the best path so far: the first improver runs beams of doubling
width pruned by the best length alternating with window shortening (the serial schedule's
improver); with two improvers or more the first starts its beams from the position only and the
second from the target only (each twice the last: on 7x7 the two reach in half the time what
one reaches alternating, ``bench/anytime.md``); the next
:data:`~fifteen.anytime.driver.NOISY_IMPROVERS` run the same beams with every one ranked by noisy
costs, a noise family each (:func:`~fifteen.anytime.driver.beam_noise`: other paths of each
width), and the others shorten windows only, each sweeping with its own window offset.  This
process keeps the best path and the bound: it computes the first solution itself (so the first
answer does not wait for the pool), hands every improver the global best at each new call (a
call returns after an improvement, or after :data:`~fifteen.parallel.anytime_steps.IMPROVE_SLICE` seconds without one, its
beam width and window state carried to the next call), and reports each improvement.

The pool is :class:`fifteen.parallel.processes.WorkerPool`: workers ignore Ctrl-C, end with
this process however it dies, and a worker that dies is replaced and its call run again.  When
the time limit passes or *cancel* returns true, the running calls are asked to stop
(:meth:`~fifteen.parallel.processes.WorkerPool.stop_running`) and return their best path,
which is kept.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from functools import partial

from fifteen.anytime.driver import (
    NOISY_IMPROVERS,
    AnytimeResult,
    Improvement,
    check_time_limit,
    first_solution,
)
from fifteen.anytime.tables import label_tables
from fifteen.anytime.windows import remove_cycles
from fifteen.board import Board, tiles_along
from fifteen.bounds import bound_values, check_board, databases, resolve_bound
from fifteen.errors import FifteenError
from fifteen.parallel.anytime_steps import improve, prove
from fifteen.parallel.processes import STALL_SECONDS, WorkerError, WorkerPool, describe_death, print_notice, resolve_jobs
from fifteen.search.ida import Iteration, Stop, first_bound

#: How long the running calls have to return their best once asked to stop.
STOP_WAIT_SECONDS = 2.0


def improver_roles(jobs: int) -> list[tuple[str, str, int]]:
    """The improvers of a search on *jobs* workers (one proves), each as ``(mode, beams_from,
    noise_family)`` (:class:`~fifteen.anytime.driver.Improver`'s arguments): one improver alone
    runs beams and windows from both ends in turn; with two or more the first starts its beams
    from the position and the second from the target; the next
    :data:`~fifteen.anytime.driver.NOISY_IMPROVERS` rank every beam with their own noise
    (families 1, 2, ...); the others shorten windows."""
    if jobs < 2:
        return []
    roles = [("beam+windows", "both", 0)] if jobs == 2 else [("beam+windows", "position", 0), ("beam+windows", "target", 0)]
    roles += [("beam+windows", "both", k) for k in range(1, min(NOISY_IMPROVERS, jobs - 3) + 1)]
    roles += [("windows", "both", 0)] * (jobs - 1 - len(roles))
    return roles


def anytime_solve_parallel(
    board: Board,
    *,
    jobs: int = 2,
    time_limit: float | None = None,
    progress: Callable[[Improvement], None] | None = None,
    cancel: Callable[[], bool] | None = None,
    bound: str = "auto",
    notice: Callable[[str], None] = print_notice,
    pool_hook: Callable[[WorkerPool], None] | None = None,
    stall_seconds: float | None = STALL_SECONDS,
) -> AnytimeResult:
    """:func:`fifteen.anytime.anytime_solve` on *jobs* processes (0: every core; at least 2:
    a prover and an improver), as the module docstring says.  *notice* receives the messages
    about dead workers; *pool_hook* is called with the pool once it is started (tests)."""
    check_board(board)
    limit = check_time_limit(time_limit)
    jobs = max(2, resolve_jobs(jobs))
    t0 = time.perf_counter()
    cpu0 = time.process_time()
    deadline = None if limit is None else t0 + limit
    shape, tiles, target = board.shape, board.tiles, board.target.tiles
    info = resolve_bound(shape, bound, board.target)  # loads the databases before the fork
    lb = first_bound(shape, tiles, bound_values(board)["lb"], target)  # the root's best bound
    h0 = lb
    best: list[int] = []
    log: list[Improvement] = []
    iterations: list[Iteration] = []
    nodes = {"prover": 0, "improvers": 0}

    def report() -> None:
        imp = Improvement(time.perf_counter() - t0, len(best), lb, tiles_along(shape, tiles, best))
        log.append(imp)
        if progress is not None:
            progress(imp)

    def result(stopped: str, squares: list[int] | None) -> AnytimeResult:
        return AnytimeResult.of_path(
            board,
            info.name,
            squares,
            lb,
            h0,
            stopped,
            seconds=time.perf_counter() - t0,
            cpu_seconds=time.process_time() - cpu0,
            improvements=log,
            iterations=iterations,
            prover_nodes=nodes["prover"],
            improver_nodes=nodes["improvers"],
        )

    def cancelled() -> bool:
        return cancel is not None and bool(cancel())

    def check_cancel() -> None:
        if cancelled():
            raise Stop

    try:
        best = remove_cycles(tiles, first_solution(label_tables(shape), tiles, target, check_cancel))
    except Stop:
        return result("cancelled", None)
    report()
    if len(best) <= lb:
        return result("optimal", best)
    args = (str(shape), tuple(tiles), tuple(target))
    wall_deadline = float("inf") if deadline is None else time.time() + (deadline - time.perf_counter())
    roles = improver_roles(jobs)
    carried: list[dict] = [{"offset": 3 * i} if i else {} for i in range(len(roles))]
    done = [False] * len(roles)
    handed = [0] * len(roles)  # the length of the path each improver was last given
    threshold = lb
    directory = databases.directory()
    calls = itertools.count()
    stopped = "time"
    with WorkerPool(jobs, None if directory is None else str(directory), stall_seconds=stall_seconds) as pool:
        if pool_hook is not None:
            pool_hook(pool)
        running: dict[int, tuple] = {}  # call id -> ("prove", threshold) or ("improve", improver index)

        def submit_prover(worker) -> None:
            key = next(calls)
            running[key] = ("prove", threshold)
            pool.submit(worker, key, prove, *args, info.name, threshold, wall_deadline)

        def submit_improver(worker, i: int) -> None:
            key = next(calls)
            running[key] = ("improve", i)
            handed[i] = len(best)
            pool.submit(
                worker,
                key,
                partial(improve, beams_from=roles[i][1], noise_family=roles[i][2]),
                *args,
                list(best),
                roles[i][0],
                carried[i],
                wall_deadline,
            )

        def hand_out() -> None:
            for w in pool.idle():
                if w.index == 0:
                    submit_prover(w)
                elif not done[w.index - 1] or handed[w.index - 1] != len(best):
                    submit_improver(w, w.index - 1)

        hand_out()
        finished = False
        while not finished:
            for event in pool.wait(0.1):
                what = running.pop(event.call_id, None) if event.call_id is not None else None
                if event.kind == "error":
                    raise event.value if isinstance(event.value, FifteenError) else WorkerError(f"a worker failed: {event.value}")
                if event.kind == "died":
                    if cancelled():  # killed with this process (SIGTERM to the group): stopping anyway
                        continue
                    notice(f"{describe_death(event)}; it is replaced")
                    pool.replace(event.worker)
                    continue
                if what is None:
                    continue
                if what[0] == "prove":
                    kind, ran, count, seconds = event.value[:4]
                    nodes["prover"] += count
                    if kind == "refuted":
                        iterations.append(Iteration(ran, count, seconds))
                        threshold = ran + 2
                        if threshold > lb:
                            lb = threshold
                            report()
                    elif kind == "found":
                        iterations.append(Iteration(ran, count, seconds))
                        lb = ran
                        if ran < len(best):
                            best = list(event.value[4])
                        report()
                else:
                    i = what[1]
                    path, carried[i], done[i], count = event.value
                    nodes["improvers"] += count
                    if len(path) < len(best):
                        best = path
                        report()
                if len(best) <= lb:
                    finished, stopped = True, "optimal"
            if finished:
                break
            if cancelled():
                stopped = "cancelled"
                break
            if deadline is not None and time.perf_counter() > deadline:
                break
            hand_out()
        # ask the running calls to stop, and keep what they return
        pool.stop_running()
        end = time.monotonic() + STOP_WAIT_SECONDS
        while running and time.monotonic() < end:
            for event in pool.wait(0.1):
                what = running.pop(event.call_id, None) if event.call_id is not None else None
                if event.kind == "done" and what is not None and what[0] == "improve" and len(event.value[0]) < len(best):
                    best = event.value[0]
                    report()
                elif event.kind == "died":
                    running.pop(event.call_id, None)
    return result(stopped, best)


__all__ = ["anytime_solve_parallel", "improver_roles"]
