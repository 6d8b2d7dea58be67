#!/usr/bin/env python3
"""Parallel IDA* and batches, natively (not a test; results in bench/parallel.md).

    PYTHONPATH=py python bench/parallel_bench.py native   [--db DIR] [--set korf|hard] [--ids ...] [--bound B] [--jobs 1 2]
    PYTHONPATH=py python bench/parallel_bench.py simulate [--db DIR] [--set korf|hard] [--ids ...] [--bound B] [--split-workers 8]
                                                          [--workers 2 4 8 16] [--startup-ms 1.0]
    PYTHONPATH=py python bench/parallel_bench.py batch    [--ids ...] [--bound B] [--jobs 1 2] [--dask]

* ``native``: per instance, the serial search (``--jobs 1``) and the process pool
  (:func:`fifteen.parallel.processes.solve_parallel`) side by side in one run: wall seconds, nodes, speed-up.
  The databases are read once, before the pool forks (shared copy-on-write).
* ``simulate``: records every task of a real parallel search (run in this thread with the split
  made for ``--split-workers`` workers, in the scheduler's order; in the last iteration up to
  the task that finds the solution: the tasks after it in that order cannot delay it) and
  replays the schedule for each worker count: per iteration, the tasks in the scheduler's order
  (largest first by its estimate), bundled as the native driver bundles them
  (:func:`fifteen.parallel.scheduler.bundles`), go to the first free worker; a bundle costs its nodes
  times the serial search's seconds per node plus ``--startup-ms``; the scheduler's own
  split-tree nodes run before the tasks; the last iteration ends when the task holding the
  solution ends.  Efficiency = serial seconds / (workers x simulated seconds).
* ``batch``: ``python -m fifteen batch`` on the instances with each ``--jobs`` (and
  ``--dask local``): wall seconds, the sum of the positions' own seconds, overhead per position.
"""

from __future__ import annotations

import argparse
import heapq
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent / "py"), str(HERE.parent / "data")]

from fifteen import Board, Shape, bounds, solve  # noqa: E402
from fifteen.bounds import databases  # noqa: E402
from fifteen.parallel.processes import solve_parallel  # noqa: E402
from fifteen.parallel.scheduler import ParallelSearch, TaskRecord, bundles, run_inline  # noqa: E402
from instances import hard, korf100  # noqa: E402


def instances(which: str, ids: list[str] | None):
    chosen = korf100() if which == "korf" else hard()
    return [i for i in chosen if not ids or i.id in ids]


def native(args) -> None:
    cols = " ".join(f"{'j' + str(j) + ' s':>9} {'j' + str(j) + ' cpu':>9} {'j' + str(j) + ' nodes':>12}" for j in args.jobs)
    print(f"{'id':>10} {'len':>4} {cols}  speed-up  (cpu: the search's CPU seconds, workers included)")
    totals = {j: [0.0, 0.0] for j in args.jobs}
    for inst in instances(args.set, args.ids):
        board = Board(Shape(4, 4), inst.tiles)
        row = []
        for j in args.jobs:
            t0 = time.perf_counter()
            sol = solve(board, args.bound) if j == 1 else solve_parallel(board, args.bound, jobs=j)
            wall = time.perf_counter() - t0
            assert sol.length == inst.optimal and board.solves(sol.tiles), inst.id
            totals[j][0] += wall
            totals[j][1] += sol.result.cpu_seconds
            row.append((wall, sol.result.cpu_seconds, sol.result.nodes))
        speed = row[0][0] / row[-1][0] if row[-1][0] else 0.0
        cells = " ".join(f"{w:9.2f} {c:9.2f} {n:12,}" for w, c, n in row)
        print(f"{inst.id:>10} {inst.optimal:>4} {cells}  {speed:7.2f}", flush=True)
    first, last = args.jobs[0], args.jobs[-1]
    print(
        "total "
        + " ".join(f"jobs {j}: {w:.1f} s wall, {c:.1f} s CPU;" for j, (w, c) in totals.items())
        + f" speed-up {totals[first][0] / totals[last][0]:.2f}"
    )


def makespan(
    iterations: list[list[TaskRecord]], split_nodes: list[int], workers: int, per_node: float, startup: float, min_nodes: int
) -> list[float]:
    """Simulated seconds of each iteration of a search whose tasks ran as *iterations*, handed
    over in bundles as the native driver does (see the module docstring)."""
    times = []
    for k, tasks in enumerate(iterations):
        last = k == len(iterations) - 1
        clock = split_nodes[k] * per_node if k < len(split_nodes) else 0.0
        free = [(clock, w) for w in range(workers)]
        heapq.heapify(free)
        end = clock
        solved_at = None
        for group in bundles(tasks, min_nodes, workers):
            start, w = heapq.heappop(free)
            if solved_at is not None and start >= solved_at:
                break
            finish = start + startup
            for t in group:
                finish += t.nodes * per_node
                if last and t.solved:
                    solved_at = finish if solved_at is None else min(solved_at, finish)
                    break
            heapq.heappush(free, (finish, w))
            end = max(end, finish)
        times.append(solved_at if (last and solved_at is not None) else end)
    return times


def simulate(args) -> None:
    print(f"per-task start-up {args.startup_ms} ms; split made for {args.split_workers} workers")
    print("efficiency per worker count: of the iterations searched in full (load balance) / of the whole search;")
    print("last it: nodes of the last iteration in the scheduler's order up to the solution, over the serial search's")
    head = " ".join(f"{'eff' + str(w):>13}" for w in args.workers)
    print(f"{'id':>10} {'len':>4} {'serial s':>9} {'nodes':>12} {'last it':>9} {'tasks/it':>9} {head}")
    sums = {w: [0.0, 0.0, 0.0, 0.0] for w in args.workers}  # serial full, parallel full, serial all, parallel all
    for inst in instances(args.set, args.ids):
        info = bounds.resolve_bound(Shape(4, 4), args.bound)
        serial = solve(Board(Shape(4, 4), inst.tiles), args.bound)
        serial_cpu = serial.result.cpu_seconds  # the search alone (tables and databases are ready)
        per_node = serial_cpu / max(1, serial.result.nodes)
        search = ParallelSearch(Shape(4, 4), inst.tiles, info.name, info.factory, args.split_workers)
        rec = run_inline(search)  # the last iteration's log ends with the task that found the solution
        assert rec.length == serial.length == inst.optimal
        tasks = rec.tasks  # type: ignore[attr-defined]
        split = rec.split_nodes  # type: ignore[attr-defined]
        serial_its = [it.nodes * per_node for it in serial.result.iterations]
        cells = []
        for w in args.workers:
            par = makespan(tasks, split, w, per_node, args.startup_ms / 1000, search.min_task_nodes)
            full_s, full_p = sum(serial_its[:-1]), w * sum(par[:-1])
            all_s, all_p = sum(serial_its), w * sum(par)
            for i, v in enumerate((full_s, full_p, all_s, all_p)):
                sums[w][i] += v
            cells.append(f"{full_s / full_p if full_p else 1:6.1%}/{all_s / all_p:6.1%}")
        mean_tasks = sum(len(t) for t in tasks[-2:]) / 2
        last_parallel = sum(t.nodes for t in tasks[-1]) + (split[-1] if len(split) == len(tasks) else 0)
        print(
            f"{inst.id:>10} {inst.optimal:>4} {serial_cpu:9.2f} {serial.result.nodes:12,} "
            f"{last_parallel / max(1, serial.result.iterations[-1].nodes):8.2f}x {mean_tasks:9.0f} " + " ".join(cells),
            flush=True,
        )
    print(
        "overall (sums over the instances): "
        + ", ".join(f"{w} workers {a / b if b else 1:.1%} / {c / d:.1%}" for w, (a, b, c, d) in sums.items())
    )


def batch(args) -> None:
    chosen = instances("korf", args.ids)
    env = dict(os.environ, PYTHONPATH=str(HERE.parent / "py"))
    with tempfile.TemporaryDirectory() as tmp:
        f = Path(tmp) / "positions.txt"
        f.write_text("".join(f"{i.id}\t{' '.join(map(str, i.tiles))}\n" for i in chosen))
        runs = [(f"--jobs {j}", ["--jobs", str(j)], j) for j in args.jobs]
        if args.dask:
            runs += [(f"--dask local --jobs {j}", ["--dask", "local", "--jobs", str(j)], j) for j in args.jobs]
        print(f"{len(chosen)} positions, bound {args.bound}")
        for label, extra, jobs in runs:
            out = Path(tmp) / f"out{label.replace(' ', '_')}.jsonl"
            t0 = time.perf_counter()
            subprocess.run(
                [sys.executable, "-m", "fifteen", "batch", str(f), "--out", str(out), "--bound", args.bound, "--quiet", *extra],
                check=True,
                env=env,
            )
            wall = time.perf_counter() - t0
            records = [json.loads(line) for line in out.read_text().splitlines()]
            assert len(records) == len(chosen) and all(
                r["length"] == i.optimal
                for r, i in zip(sorted(records, key=lambda r: int(r["id"])), sorted(chosen, key=lambda i: int(i.id)), strict=True)
            )
            busy = sum(r["seconds"] for r in records)
            setup = sum(r["setup_seconds"] for r in records)
            overhead = (wall * jobs - busy) / len(records)
            print(
                f"{label:>24}: wall {wall:7.2f} s, search {busy:7.2f} s, set-up in workers {setup:5.2f} s, "
                f"overhead {overhead * 1000:6.1f} ms/position",
                flush=True,
            )


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("mode", choices=("native", "simulate", "batch"))
    ap.add_argument("--db", help="database directory (e.g. /work/main/static/db with the 7-8 pack)")
    ap.add_argument("--set", default="korf", choices=("korf", "hard"))
    ap.add_argument("--ids", nargs="*")
    ap.add_argument("--bound", default="pdb663")
    ap.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--workers", type=int, nargs="+", default=[2, 4, 8, 16])
    ap.add_argument("--split-workers", type=int, default=8)
    ap.add_argument("--startup-ms", type=float, default=1.0)
    ap.add_argument("--dask", action="store_true", help="batch: also with --dask local")
    args = ap.parse_args(argv)
    if args.db:
        os.environ["FIFTEEN_DB"] = args.db  # for the batch subprocesses too
        databases.use_directory(args.db)
    if args.mode != "batch":
        t0 = time.perf_counter()
        loaded = databases.ensure_for(Shape(4, 4))
        print(f"databases {loaded} read in {time.perf_counter() - t0:.1f} s", flush=True)
    {"native": native, "simulate": simulate, "batch": batch}[args.mode](args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
