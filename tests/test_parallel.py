"""Parallel IDA* (fifteen.parallel.scheduler, fifteen.parallel.processes): the scheduler gives the serial search's
lengths (against BFS on small boards, Korf's table on 4x4), solutions that replay to the goal,
and — in every iteration that finds no solution — exactly the serial node counts, whatever
the split; the process pool runs it with real processes, stops on cancel, and re-runs the
task of a worker killed mid-solve.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from fifteen import Board, Cancelled, Shape, bounds
from fifteen.bounds import databases
from fifteen.parallel.processes import WorkerError, WorkerPool, solve_parallel
from fifteen.parallel.scheduler import TASK_TICK_NODES, ParallelSearch, Task, outcome_from_json, run_inline, run_task, run_task_json
from fifteen.search.ida import ida_star
from fifteen.search.moves import is_own_mirror
from instances import read
from support.bfs import distances
from support.ctrl_c import popen_interruptible
from support.positions import KORF, OWN_MIRROR_3X3, OWN_MIRROR_4X4, SET_2X4, SET_3X3

ROOT = Path(__file__).resolve().parents[1]
CLASSIC = ["md", "lc", "id", "wd", "wdid"]
#: Splits to try: the default, and one that splits every task of more than one node.
SPLITS = [dict(), dict(min_task_nodes=1, split_factor=1000, initial_tasks_per_worker=64)]


@pytest.fixture(scope="module")
def bfs_3x3():
    return distances(Shape(3, 3))


@pytest.fixture(scope="module")
def bfs_2x4():
    return distances(Shape(2, 4))


def replays(shape: Shape, tiles, path) -> bool:
    board = list(tiles)
    for s in path:
        blank = board.index(0)
        assert abs(blank - s) in (1, shape.cols), "not a move"
        board[blank], board[s] = board[s], 0
    return board == list(shape.goal())


def check_against_serial(shape, tiles, bound, factory, workers, **split):
    """The parallel search (in this thread) against the serial one: same length, a solution
    that replays, the same nodes in every iteration but the last; returns the result."""
    serial = ida_star(shape, tiles, factory)
    result = run_inline(ParallelSearch(shape, tiles, bound, factory, workers, **split))
    assert result.length == serial.length, (tiles, bound)
    assert replays(shape, tiles, result.path)
    assert [it.bound for it in result.iterations] == [it.bound for it in serial.iterations]
    assert [it.nodes for it in result.iterations[:-1]] == [it.nodes for it in serial.iterations[:-1]], (tiles, bound, workers)
    return result


@pytest.mark.parametrize("bound", CLASSIC)
def test_small_boards_every_classic_bound(bound):
    factory = bounds.bound_info(bound).factory
    for shape, positions in ((Shape(3, 3), SET_3X3 + OWN_MIRROR_3X3), (Shape(2, 4), SET_2X4)):
        for tiles in positions:
            for workers in (2, 8):
                for split in SPLITS:
                    check_against_serial(shape, tiles, bound, factory, workers, **split)


def test_every_own_mirror_3x3_position(bfs_3x3):
    """All 144 3x3 positions equal to their mirror image: the mirror-closed tables at the root
    (half its moves) in every task, and the BFS distance."""
    shape = Shape(3, 3)
    factory = bounds.bound_info("lc").factory
    mirrors = [tuple(k) for k in bfs_3x3 if is_own_mirror(shape, tuple(k))]
    assert len(mirrors) == 144
    for tiles in mirrors:
        search = ParallelSearch(shape, tiles, "lc", factory, 4, min_task_nodes=1)
        assert search.tables.mirror_closed
        result = run_inline(search)
        assert result.length == bfs_3x3[bytes(tiles)]
        assert replays(shape, tiles, result.path)


def test_random_positions_against_bfs(bfs_3x3, bfs_2x4):
    rng = random.Random(10)
    for shape, dist, bound in ((Shape(3, 3), bfs_3x3, "wdid"), (Shape(2, 4), bfs_2x4, "lc")):
        factory = bounds.bound_info(bound).factory
        keys = sorted(dist)
        for key in rng.sample(keys, 40):
            result = check_against_serial(shape, tuple(key), bound, factory, rng.choice([2, 3, 8]), **rng.choice(SPLITS))
            assert result.length == dist[key]


@pytest.mark.parametrize("reflect", [True, False])
def test_small_pattern_databases(small_pdbs, small_packs, reflect):
    """The PDB loop (with its ordering pass) and the 7-8 loop, through the same contract."""
    from fifteen.bounds.pdb78_loop import pdb78_searcher
    from fifteen.bounds.pdb_loop import pdb_searcher

    for make, dbs in ((pdb_searcher, small_pdbs), (pdb78_searcher, small_packs)):
        for shape, positions in ((Shape(3, 3), SET_3X3 + OWN_MIRROR_3X3), (Shape(2, 4), SET_2X4)):
            factory = make(dbs[str(shape)], reflect=reflect)
            for tiles in positions:
                for split in SPLITS:
                    check_against_serial(shape, tiles, "custom", factory, 8, **split)


def test_korf_and_own_mirror_4x4_inline():
    """4x4 with pdb663: Korf #9 and the own-mirror positions, split finely."""
    databases.ensure_for(Shape(4, 4))
    factory = bounds.resolve_bound(Shape(4, 4), "pdb663").factory
    for tiles in [KORF["9"]] + OWN_MIRROR_4X4:
        result = check_against_serial(Shape(4, 4), tiles, "pdb663", factory, 8, **SPLITS[1])
        assert sum(len(t) for t in result.tasks) > 20


def test_the_split_is_adaptive():
    """A task far above its share is split for the next iteration: more tasks, none too big."""
    databases.ensure_for(Shape(4, 4))
    factory = bounds.resolve_bound(Shape(4, 4), "pdb663").factory
    result = run_inline(ParallelSearch(Shape(4, 4), KORF["1"], "pdb663", factory, 8, min_task_nodes=4096))
    counts = [len(t) for t in result.tasks]
    assert counts[-1] > counts[-2] > 0  # split further as the iterations grow
    last_full = result.tasks[-2]  # the last iteration searched in full
    assert max(t.nodes for t in last_full) < sum(t.nodes for t in last_full) / 4


def test_goal_and_trivial_positions():
    shape = Shape(3, 3)
    factory = bounds.bound_info("md").factory
    goal = run_inline(ParallelSearch(shape, shape.goal(), "md", factory, 4))
    assert goal.length == 0 and goal.nodes == 0
    one = (1, 2, 3, 4, 5, 6, 7, 0, 8)
    assert run_inline(ParallelSearch(shape, one, "md", factory, 4)).path == [8]


def test_task_json_round_trip():
    """What a browser worker receives and returns: plain JSON, searched by the named bound."""
    shape = Shape(3, 3)
    tiles = SET_3X3[5]
    search = ParallelSearch(shape, tiles, "wdid", bounds.bound_info("wdid").factory, 2)
    tasks = search.begin()
    while not tasks:  # the first iterations lie within the split tree
        search.end()
        tasks = search.begin()
    assert tasks == sorted(tasks, key=lambda t: -t.estimate)
    task = tasks[0]
    assert Task.from_json(task.to_json()) == task
    answer = run_task_json(task.to_json())
    assert json.loads(answer) == {"id": task.id, "path": None, "nodes": run_task(task).nodes, "stopped": False}
    assert search.task(task.id) == task
    assert outcome_from_json(answer).nodes == run_task(task).nodes
    big = Task(0, "md", "4x4", False, KORF["1"], KORF["1"].index(0), 57)  # the whole MD search of Korf #1
    stopped = json.loads(run_task_json(big.to_json(), stopped=lambda: True))
    assert stopped["stopped"] and stopped["path"] is None and stopped["nodes"] >= TASK_TICK_NODES


# ---------------------------------------------------------------- the native process pool
def test_pool_korf_instances_pinned_counts():
    """Real processes (2 workers), pdb663: Korf #1 (pinned per-iteration counts of the README
    example) and a few quick instances against Korf's table."""
    databases.ensure_for(Shape(4, 4))
    optimal = {i.id: i.optimal for i in read("korf100.tsv")}
    sol = solve_parallel(Board(Shape(4, 4), KORF["1"]), "pdb663", jobs=2)
    assert sol.length == optimal["1"] == 57
    assert [it.nodes for it in sol.result.iterations[:-1]] == [29, 241, 1709, 12047, 81346]
    assert sol.board.solves(sol.tiles)
    assert len(sol.result.worker_nodes) == 2 and all(n > 0 for n in sol.result.worker_nodes)
    instances = {i.id: i for i in read("korf100.tsv")}
    for ident in ("55", "79", "12", "42"):
        board = Board(Shape(4, 4), instances[ident].tiles)
        sol = solve_parallel(board, "pdb663", jobs=2)
        assert sol.length == instances[ident].optimal, ident
        assert board.solves(sol.tiles)


def test_pool_own_mirror_and_classic_bound(bfs_3x3):
    for tiles in OWN_MIRROR_3X3[:3]:
        sol = solve_parallel(Board(Shape(3, 3), tiles), "wd", jobs=2)
        assert sol.length == bfs_3x3[bytes(tiles)]
        assert sol.board.solves(sol.tiles)


def test_pool_cancel_stops_every_worker():
    databases.ensure_for(Shape(4, 4))
    pools = []
    calls = [0]

    def cancel():
        calls[0] += 1
        return calls[0] > 3

    with pytest.raises(Cancelled):
        solve_parallel(Board(Shape(4, 4), KORF["1"]), "md", jobs=2, cancel=cancel, pool_hook=pools.append)
    assert pools and not any(w.process.is_alive() for w in pools[0].workers)


def test_pool_killed_worker_task_rerun():
    """A worker killed (SIGKILL) right after it got a task: a clear message, its task re-run
    by another worker, and still the optimal answer with the serial counts."""
    databases.ensure_for(Shape(4, 4))
    notices: list[str] = []
    submitted = [0]

    def hook(pool: WorkerPool) -> None:
        submit = pool.submit

        def submit_then_kill(worker, call_id, fn, *args):
            submitted[0] += 1
            doomed = submitted[0] in (8, 16)
            if doomed:  # stopped first, so it cannot finish the task before the kill lands
                os.kill(worker.process.pid, signal.SIGSTOP)
            submit(worker, call_id, fn, *args)
            if doomed:
                os.kill(worker.process.pid, signal.SIGKILL)

        pool.submit = submit_then_kill  # type: ignore[method-assign]

    sol = solve_parallel(Board(Shape(4, 4), KORF["1"]), "pdb663", jobs=2, pool_hook=hook, notice=notices.append)
    assert sol.length == 57 and sol.board.solves(sol.tiles)
    assert [it.nodes for it in sol.result.iterations[:-1]] == [29, 241, 1709, 12047, 81346]
    assert len(notices) == 2
    assert all("died (killed by SIGKILL); its tasks are re-run by another worker" in n for n in notices)


def _fail(*args, stopped):
    raise MemoryError("simulated")


def test_pool_reports_failures_and_deaths():
    with WorkerPool(1) as pool:
        worker = pool.idle()[0]
        pool.submit(worker, "x", _fail)
        events = []
        deadline = time.monotonic() + 30
        while not events and time.monotonic() < deadline:
            events = pool.wait(0.5)
        assert [(e.kind, e.call_id, e.value) for e in events] == [("error", "x", "MemoryError: simulated")]
        os.kill(worker.process.pid, signal.SIGKILL)
        events = []
        while not events and time.monotonic() < deadline:
            events = pool.wait(0.5)
        assert [(e.kind, e.call_id, e.value) for e in events] == [("died", None, -signal.SIGKILL)]
        new = pool.replace(events[0].worker)
        assert new.process.is_alive() and pool.workers == [new]


def test_a_task_that_kills_every_worker_gives_no_answer():
    """Three deaths on one subtree: an error, never an answer."""
    databases.ensure_for(Shape(4, 4))

    def hook(pool: WorkerPool) -> None:
        submit = pool.submit

        def submit_then_kill(worker, call_id, fn, *args):
            bundle = tuple(task.id for task in args[0])
            doomed = bundle == first[0] or first[0] is None
            if doomed:  # stopped first, so it cannot finish the bundle before the kill lands
                first[0] = bundle
                os.kill(worker.process.pid, signal.SIGSTOP)
            submit(worker, call_id, fn, *args)
            if doomed:
                os.kill(worker.process.pid, signal.SIGKILL)

        pool.submit = submit_then_kill  # type: ignore[method-assign]

    first: list = [None]
    with pytest.raises(WorkerError, match="3 workers died on the same subtrees"):
        solve_parallel(Board(Shape(4, 4), KORF["1"]), "pdb663", jobs=2, pool_hook=hook, notice=lambda m: None)


# ---------------------------------------------------------------- the CLI
def _cli(*args, **kw):
    env = dict(os.environ, PYTHONPATH=str(ROOT / "py"))
    return subprocess.run([sys.executable, "-m", "fifteen", *args], capture_output=True, text=True, env=env, timeout=300, **kw)


def test_cli_jobs_json():
    out = _cli("solve", " ".join(map(str, KORF["9"])), "--jobs", "2", "--json", "--bound", "pdb663")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["length"] == 46 and data["workers"] == 2 and len(data["worker_nodes"]) == 2
    assert Board(Shape(4, 4), KORF["9"]).solves(data["moves"])
    assert sum(data["worker_nodes"]) <= data["nodes"]
    serial = json.loads(_cli("solve", " ".join(map(str, KORF["9"])), "--json", "--bound", "pdb663").stdout)
    assert "workers" not in serial and "worker_nodes" not in serial  # --jobs 1 (the default): the serial search
    assert [it["nodes"] for it in data["iterations"][:-1]] == [it["nodes"] for it in serial["iterations"][:-1]]


@pytest.mark.parametrize("jobs", ["-1", "x"])
def test_cli_bad_jobs_one_line(jobs):
    out = _cli("solve", "1 2 3 4 5 6 7 0 8", "--jobs", jobs)
    assert out.returncode == 2 and out.stdout == ""
    last = out.stderr.strip().splitlines()[-1]  # argparse's usage lines come first for "x"
    assert "error" in last and "--jobs" in last and "Traceback" not in out.stderr


def test_cli_ctrl_c_stops_every_worker():
    """SIGINT to the process group (what Ctrl-C does): status 130, one line, no worker left."""
    env = dict(os.environ, PYTHONPATH=str(ROOT / "py"))
    proc = popen_interruptible(
        [sys.executable, "-m", "fifteen", "solve", " ".join(map(str, KORF["1"])), "--bound", "md", "--jobs", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert proc.stderr is not None
    first = proc.stderr.readline()  # the first finished iteration: the workers are running
    assert first.startswith("  bound"), first
    children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text().split()
    assert len(children) == 2
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert "fifteen: interrupted" in err and "Traceback" not in err
    for pid in children:
        assert not Path(f"/proc/{pid}").exists() or "Z" in Path(f"/proc/{pid}/stat").read_text().split()[2]
