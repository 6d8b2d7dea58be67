#!/usr/bin/env python3
"""Side-by-side benchmark (not a test): this solver natively, the same code under Pyodide, and Python peers.

    PYTHONPATH=py python3 bench/side_by_side.py                      # first 10 Korf instances
    PYTHONPATH=py python3 bench/side_by_side.py --ids 1,2,3 --json out.json
    PYTHONPATH=py python3 bench/side_by_side.py --all --bounds pdb663 --peers none
    PYTHONPATH=py python3 bench/side_by_side.py --set hard --limit 120 --peers none

On the same instances, in one run:

* **native**: ``fifteen.solve`` per bound (``--bounds``, default pdb663,pdb555,wdid),
  CPU seconds (time.process_time) with a per-instance limit (``--limit``);
* **pyodide**: the same package under Pyodide in Node.js (bench/pyodide_runner.mjs,
  ``node_modules/pyodide`` from ``npm ci``), seconds of time.perf_counter inside
  Python, the limit enforced through the solver's cancel callable
  (``--pyodide-bounds``, default the native ones; ``--no-pyodide`` to skip);
* **peers** from PyPI, installed in ``.venv-bench`` from bench/requirements-peers.txt:
  ``slidingpuzzle`` A* and IDA* with its default heuristic (linear conflict).  Each
  peer solve runs in its own process with a wall-clock limit (``--peer-limit``),
  killed when over it, and an address-space cap (``--peer-mem``); its time is the
  CPU seconds of the search in that process.  Its moves are converted to tile
  numbers, replayed on our board and the length compared with the known optimum.

Both measuring sides call bench/measure.py's ``solve_timed``.  The table shows per
instance and solver: seconds, nodes (ours: expanded nodes, the solver's counter;
slidingpuzzle: its ``expanded``), length and ok / SUBOPT / INVALID / timeout; then
totals and the ratios Pyodide/native and peer/ours on the instances both finish.
``--json FILE`` writes every raw result.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [str(HERE), str(ROOT / "py"), str(ROOT / "data")]  # bench, the package, the instances and their reader

PEERS = {
    # name: (package, algorithm argument of slidingpuzzle.search)
    "slidingpuzzle-a*": ("slidingpuzzle", "a*"),
    "slidingpuzzle-ida*": ("slidingpuzzle", "ida*"),
}
DEFAULT_PEERS = "slidingpuzzle-a*,slidingpuzzle-ida*"


# ----------------------------------------------------------------- peer worker
# Runs inside .venv-bench's Python, one process per solve: reads {"alg", "tiles",
# "limit", "mem_gb"} on stdin, prints one JSON object.  Imports nothing of ours.


def peer_worker() -> int:
    import resource
    import signal

    job = json.loads(sys.stdin.read())
    mem = int(job.get("mem_gb", 6) * (1 << 30))
    resource.setrlimit(resource.RLIMIT_AS, (mem, mem))

    class OverLimit(Exception):
        pass

    def alarm(signum, frame):
        raise OverLimit()

    t_import = time.perf_counter()
    import numpy as np
    import slidingpuzzle

    t_import = time.perf_counter() - t_import
    n = int(round(len(job["tiles"]) ** 0.5))
    board = slidingpuzzle.from_iter(n, n, job["tiles"])  # goal 1..15 then blank, as ours
    out = {"import_seconds": t_import, "version": getattr(slidingpuzzle, "__version__", None), "numpy": np.__version__}
    signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, float(job["limit"]))
    w0, c0 = time.perf_counter(), time.process_time()
    try:
        res = slidingpuzzle.search(board, job["alg"])
        signal.setitimer(signal.ITIMER_REAL, 0)
        sol = res.solution
        out.update(
            status="done",
            solution=[[int(y), int(x)] for y, x in sol] if sol is not None else None,
            expanded=int(res.expanded),
            generated=int(res.generated),
        )
    except OverLimit:
        out.update(status="timeout")
    except MemoryError:
        signal.setitimer(signal.ITIMER_REAL, 0)
        out.update(status="memory")
    out.update(wall=time.perf_counter() - w0, cpu=time.process_time() - c0)
    sys.stdout.write(json.dumps(out) + "\n")
    return 0


# ------------------------------------------------------------------ our solver


def select(args) -> list:
    from instances import read as read_instances

    instances = read_instances(f"{args.set}.tsv")
    if args.ids:
        wanted = args.ids.split(",")
        by_id = {i.id: i for i in instances}
        missing = [w for w in wanted if w not in by_id]
        if missing:
            raise SystemExit(f"unknown instance ids in {args.set}: {', '.join(missing)}")
        instances = [by_id[w] for w in wanted]
    if args.max_optimal:
        instances = [i for i in instances if i.optimal <= args.max_optimal]
    if not args.all and not args.ids:
        instances = instances[: args.first if args.first else (10 if args.set == "korf100" else len(instances))]
    elif args.first:
        instances = instances[: args.first]
    if args.tail:
        instances = tails(instances, [int(d) for d in args.tail.split(",")])
    return instances


def tails(instances, depths: list[int]) -> list:
    """Positions *d* moves from the goal on an optimal path of each instance: their optimum is exactly *d*.

    The path is our pdb663 solution, accepted only when it replays to the goal
    and its length is the instance's published optimum; any suffix of a shortest
    path is a shortest path, so the optimum of the tail position is known
    independently of our solver.  Gives the peers instances they can finish.
    """
    from fifteen import Board, solve
    from instances import Instance

    out = []
    for inst in instances:
        board = Board.from_tiles(list(inst.tiles))
        sol = solve(board, "pdb663")
        if sol.length != inst.optimal or not board.solves(sol.tiles):
            raise SystemExit(f"instance {inst.id}: our solution ({sol.length}) does not match the optimum {inst.optimal}")
        for d in depths:
            if d > inst.optimal:
                continue
            tail = board.apply(sol.tiles[: inst.optimal - d])
            out.append(Instance(f"{inst.id}@{d}", tuple(tail.tiles), d, ()))
    log(f"tails at depths {depths} of {len(instances)} instances (optimum = depth, from their published optima)")
    return out


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def run_native(instances, bounds, limit, warmup: float) -> list[dict]:
    from measure import solve_timed, warm_up

    out = []
    for bound in bounds:
        if warmup > 0:
            warm_up(bound, warmup)
        for inst in instances:
            r = solve_timed(inst.tiles, bound, limit, clock=time.process_time)
            r.update(solver=f"native:{bound}", id=inst.id)
            out.append(r)
            log(f"  native  {bound:7} {inst.id:>10}: {_status_text(r, inst.optimal):8} {r['seconds']:8.2f} s {r['nodes']:>13,} nodes")
    return out


def run_pyodide(instances, bounds, limit, db, clock: str, warmup: float) -> tuple[list[dict], dict]:
    job = {
        "instances": [{"id": i.id, "tiles": list(i.tiles)} for i in instances],
        "bounds": bounds,
        "limit": limit,
        "clock": clock,
        "warmup": warmup,
    }
    if db:
        job["db"] = str(Path(db).resolve())
    opt = {i.id: i.optimal for i in instances}
    overall = 120 + len(instances) * len(bounds) * (limit + 10)
    proc = subprocess.Popen(
        ["node", str(HERE / "pyodide_runner.mjs")],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    assert proc.stdin is not None and proc.stdout is not None  # both are pipes
    proc.stdin.write(json.dumps(job))
    proc.stdin.close()
    results, ready = [], {}
    deadline = time.monotonic() + overall
    try:
        for line in proc.stdout:
            msg = json.loads(line)
            if msg["type"] == "ready":
                ready = msg
                log(f"  pyodide {msg['pyodide']} (Python {msg['python']}, Node {msg['node']}) loaded in {msg['load_seconds']:.1f} s")
            elif msg["type"] == "result":
                msg.pop("type")
                msg["solver"] = f"pyodide:{msg['bound']}"
                results.append(msg)
                if "error" in msg:
                    log(f"  pyodide {msg['bound']:7} {msg['id']:>10}: error {msg['error']}")
                else:
                    log(
                        f"  pyodide {msg['bound']:7} {msg['id']:>10}: {_status_text(msg, opt[msg['id']]):8} "
                        f"{msg['seconds']:8.2f} s {msg['nodes']:>13,} nodes"
                    )
            elif msg["type"] == "done":
                ready["total_seconds"] = msg["total_seconds"]
            if time.monotonic() > deadline:
                log("  pyodide: over the overall time limit, stopping it")
                proc.kill()
                break
    finally:
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    if proc.returncode not in (0, None) and not results:
        log(f"  pyodide runner failed (exit {proc.returncode}); is node_modules/pyodide installed (npm ci)?")
    return results, ready


# ------------------------------------------------------------------------ peers


def venv_python(venv: Path) -> Path:
    return venv / "bin" / "python"


def run_peers(instances, peers, limit, venv: Path, mem_gb: float) -> list[dict]:
    from fifteen import Board

    py = venv_python(venv)
    if not py.exists():
        log(f"  peers skipped: no {py} (python3 -m venv {venv} && {venv}/bin/pip install -r bench/requirements-peers.txt)")
        return []
    out = []
    for peer in peers:
        _package, alg = PEERS[peer]
        for inst in instances:
            job = {"alg": alg, "tiles": list(inst.tiles), "limit": limit, "mem_gb": mem_gb}
            r = {"solver": peer, "id": inst.id, "bound": alg}
            w0 = time.perf_counter()
            try:
                cp = subprocess.run(
                    [str(py), str(Path(__file__).resolve()), "--peer-worker"],
                    input=json.dumps(job),
                    capture_output=True,
                    text=True,
                    timeout=limit + 30,  # the worker stops itself at limit; this catches a hung one
                )
                lines = cp.stdout.strip().splitlines()
                if not lines:
                    raise RuntimeError(f"peer exited {cp.returncode}: {cp.stderr.strip()[-300:]}")
                w = json.loads(lines[-1])
            except subprocess.TimeoutExpired:
                w = {"status": "killed", "wall": time.perf_counter() - w0}
            except Exception as exc:  # report and go on
                w = {"status": "error", "error": str(exc), "wall": time.perf_counter() - w0}
            status = w.get("status")
            # CPU seconds of the solve (as ours, robust on a loaded machine); the limit is wall-clock.
            r["seconds"] = w.get("cpu") if status == "done" else w.get("wall")
            r["cpu"] = w.get("cpu")
            r["wall"] = w.get("wall")
            r["nodes"] = w.get("expanded")
            r["generated"] = w.get("generated")
            r["peer_version"] = w.get("version")
            r["timeout"] = status in ("timeout", "killed")
            if status in ("memory", "error", "killed"):
                r["error"] = w.get("error", status)
            if status == "done" and w.get("solution") is not None:
                board = Board.from_tiles(list(inst.tiles))
                tiles = _peer_moves_to_tiles(inst.tiles, w["solution"])
                r["moves"] = tiles
                r["length"] = len(w["solution"])
                r["valid"] = tiles is not None and board.solves(tiles)
            elif status == "done":
                r["length"], r["valid"], r["error"] = None, False, "no solution returned"
            else:
                r["length"], r["valid"] = None, None
            out.append(r)
            secs = r["seconds"] if r["seconds"] is not None else float("nan")
            nodes = f"{r['nodes']:>13,}" if r["nodes"] is not None else f"{'-':>13}"
            log(f"  {peer:18} {inst.id:>6}: {_status_text(r, inst.optimal):8} {secs:8.2f} s {nodes} nodes")
    return out


def _peer_moves_to_tiles(tiles, solution) -> list[int] | None:
    """slidingpuzzle's moves are the (row, col) squares the blank moves to: the tiles that slide."""
    n = int(round(len(tiles) ** 0.5))
    b = list(tiles)
    blank = b.index(0)
    moved = []
    for y, x in solution:
        s = y * n + x
        if not (0 <= y < n and 0 <= x < n) or abs(s // n - blank // n) + abs(s % n - blank % n) != 1:
            return None
        moved.append(b[s])
        b[blank], b[s] = b[s], 0
        blank = s
    return moved


# ----------------------------------------------------------------------- report


def _status_text(r: dict, optimal: int) -> str:
    if r.get("error") and not r.get("timeout"):
        return "error" if r["error"] != "memory" else "memory"
    if r.get("timeout"):
        return "timeout"
    if not r.get("valid"):
        return "INVALID"
    return "ok" if r["length"] == optimal else "SUBOPT"


def _solved(r: dict | None, optimal: int) -> bool:
    return r is not None and _status_text(r, optimal) in ("ok", "SUBOPT")


def _fmt_s(x: float) -> str:
    return f"{x:.4f}" if x < 0.1 else f"{x:.2f}"


def _fmt_nodes(n) -> str:
    if n is None:
        return "-"
    if n >= 10_000_000:
        return f"{n / 1e6:.0f}M"
    if n >= 10_000:
        return f"{n / 1e3:.0f}k"
    return str(n)


def report(instances, solvers, results) -> dict:
    by = {(r["id"], r["solver"]): r for r in results}
    opt = {i.id: i.optimal for i in instances}

    # 1. long table: one line per instance and solver
    print()
    print(f"{'instance':>10} {'opt':>3}  {'solver':20} {'seconds':>9} {'nodes':>14} {'len':>4}  status")
    for inst in instances:
        for s in solvers:
            r = by.get((inst.id, s))
            if r is None:
                continue
            secs_text = _fmt_s(r["seconds"]) if r.get("seconds") is not None else "-"
            if r.get("timeout"):
                secs_text = ">" + secs_text
            nodes_text = f"{r['nodes']:,}" if r.get("nodes") is not None else "-"
            length = str(r["length"]) if r.get("length") is not None else "-"
            print(f"{inst.id:>10} {inst.optimal:3d}  {s:20} {secs_text:>9} {nodes_text:>14} {length:>4}  {_status_text(r, inst.optimal)}")

    # 2. compact matrix: seconds (and a mark) per instance x solver
    print()
    short = [s.replace("native:", "nat:").replace("pyodide:", "pyo:").replace("slidingpuzzle-", "sp-") for s in solvers]
    width = max(11, *(len(x) for x in short))
    print(f"{'instance':>10} {'opt':>3}  " + " ".join(f"{x:>{width}}" for x in short))
    for inst in instances:
        cells = []
        for s in solvers:
            r = by.get((inst.id, s))
            if r is None:
                cells.append("")
                continue
            st = _status_text(r, inst.optimal)
            secs = r.get("seconds")
            if st == "ok":
                cell = _fmt_s(secs)
            elif st == "timeout":
                cell = f">{secs:.0f}"
            elif st == "SUBOPT":
                cell = f"{_fmt_s(secs)} +{r['length'] - inst.optimal}"
            else:
                cell = st
            cells.append(cell)
        print(f"{inst.id:>10} {inst.optimal:3d}  " + " ".join(f"{c:>{width}}" for c in cells))

    # 3. totals per solver
    summary: dict = {"solvers": {}, "ratios": []}
    print()
    print(
        f"{'solver':20} {'ok':>4} {'subopt':>6} {'invalid':>7} {'timeout':>7} {'error':>5} "
        f"{'seconds(finished)':>18} {'nodes(finished)':>16}"
    )
    for s in solvers:
        rs = [by[(i.id, s)] for i in instances if (i.id, s) in by]
        counts = {k: 0 for k in ("ok", "SUBOPT", "INVALID", "timeout", "error", "memory")}
        secs = nodes = 0.0
        for r in rs:
            st = _status_text(r, opt[r["id"]])
            counts[st] += 1
            if st in ("ok", "SUBOPT"):
                secs += r["seconds"] or 0
                nodes += r.get("nodes") or 0
        summary["solvers"][s] = {**counts, "seconds": secs, "nodes": nodes, "instances": len(rs)}
        print(
            f"{s:20} {counts['ok']:>4} {counts['SUBOPT']:>6} {counts['INVALID']:>7} {counts['timeout']:>7} "
            f"{counts['error'] + counts['memory']:>5} {secs:>18.2f} {int(nodes):>16,}"
        )

    # 4. ratios on the instances both finish
    def ratio(a: str, b: str, label: str) -> None:
        common = [i for i in instances if _solved(by.get((i.id, a)), i.optimal) and _solved(by.get((i.id, b)), i.optimal)]
        if not common:
            return
        ta = sum(by[(i.id, a)]["seconds"] for i in common)
        tb = sum(by[(i.id, b)]["seconds"] for i in common)
        per = [by[(i.id, a)]["seconds"] / by[(i.id, b)]["seconds"] for i in common if by[(i.id, b)]["seconds"] > 0]
        extra = ""
        wall = None
        if a.startswith("pyodide:"):
            same = all(by[(i.id, a)]["nodes"] == by[(i.id, b)]["nodes"] for i in common)
            wa = sum(by[(i.id, a)].get("wall") or 0 for i in common)
            wb = sum(by[(i.id, b)].get("wall") or 0 for i in common)
            wall = wa / wb if wb else None
            extra = f"; wall-clock ratio {wall:.2f}x; node counts {'identical' if same else 'DIFFER'}"
        print(
            f"  {label:44} {len(common):3d} inst: {ta:9.2f} s / {tb:8.2f} s = {ta / tb if tb else float('inf'):8.2f}x"
            f"  (per instance min {min(per):.2f} median {statistics.median(per):.2f} max {max(per):.2f}){extra}"
        )
        summary["ratios"].append(
            {
                "a": a,
                "b": b,
                "instances": len(common),
                "seconds_a": ta,
                "seconds_b": tb,
                "ratio": ta / tb if tb else None,
                "per_instance": {"min": min(per), "median": statistics.median(per), "max": max(per)},
                "wall_ratio": wall,
            }
        )

    print()
    print("ratios (time of first / time of second, on the instances both finish):")
    native = [s for s in solvers if s.startswith("native:")]
    for s in solvers:
        if s.startswith("pyodide:") and "native:" + s.split(":", 1)[1] in solvers:
            ratio(s, "native:" + s.split(":", 1)[1], f"{s} / native")
    peers = [s for s in solvers if not s.startswith(("native:", "pyodide:"))]
    for p in peers:
        for s in native:
            ratio(p, s, f"{p} / {s}")
    if len(native) > 1:
        for s in native[1:]:
            ratio(s, native[0], f"{s} / {native[0]}")
    return summary


def report_iterations(instances, solvers, results) -> None:
    """For the hard set: start value and nodes per iteration, the last one running on a timeout."""
    by = {(r["id"], r["solver"]): r for r in results}
    print()
    print("iterations (bound: nodes) per instance and solver:")
    for inst in instances:
        for s in solvers:
            r = by.get((inst.id, s))
            if r is None or s.startswith("slidingpuzzle"):
                continue
            its = r.get("iterations") or []
            done = ", ".join(f"{it['bound']}: {it['nodes']:,}" for it in its)
            tail = ""
            if r.get("timeout"):
                tail = f"; stopped in {r.get('last_bound')} after {r.get('last_bound_nodes', 0):,} nodes"
            print(f"  {inst.id:>10} opt {inst.optimal} {s:16} h0={r.get('h0')}  {done}{tail}  ({r['seconds']:.1f} s)")


def source_hash() -> str:
    """Hash of py/fifteen/*.py: the code measured (others may edit the tree during a long run)."""
    import hashlib

    h = hashlib.sha256()
    for f in sorted((ROOT / "py" / "fifteen").glob("*.py")):
        h.update(f.name.encode() + b"\0" + f.read_bytes())
    return h.hexdigest()[:16]


def git_state() -> dict:
    def git(*a):
        try:
            return subprocess.run(["git", *a], cwd=ROOT, capture_output=True, text=True, timeout=10).stdout.strip()
        except Exception:
            return None

    return {"commit": git("rev-parse", "HEAD"), "dirty": bool(git("status", "--porcelain", "--", "py"))}


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--peer-worker":
        return peer_worker()
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--set", default="korf100", choices=["korf100", "hard"], help="instance set (default korf100)")
    ap.add_argument("--first", type=int, help="the first N instances (default 10 of korf100; all of hard)")
    ap.add_argument("--ids", help="comma-separated instance ids")
    ap.add_argument("--all", action="store_true", help="every instance of the set")
    ap.add_argument("--max-optimal", type=int, help="only instances with optimal length <= this")
    ap.add_argument(
        "--tail",
        help="comma-separated depths D: instead of each instance, the position D moves from the goal on its "
        "optimal path (optimum exactly D; short enough for the peers)",
    )
    ap.add_argument("--bounds", default="pdb663,pdb555,wdid", help="our bounds, native (default pdb663,pdb555,wdid)")
    ap.add_argument("--pyodide-bounds", help="our bounds under Pyodide (default: --bounds)")
    ap.add_argument("--no-native", action="store_true", help="skip the native runs")
    ap.add_argument("--no-pyodide", action="store_true", help="skip the Pyodide runs")
    ap.add_argument("--limit", type=float, default=60.0, help="our seconds per instance and bound (default 60)")
    ap.add_argument(
        "--pyodide-clock",
        default="cpu",
        choices=["cpu", "wall"],
        help="Pyodide's seconds and limit: the Node process's CPU time (default) or time.perf_counter in Python",
    )
    ap.add_argument("--warmup", type=float, default=1.0, help="untimed seconds of search per bound before measuring (default 1)")
    ap.add_argument("--peers", default=DEFAULT_PEERS, help=f"comma-separated peers or 'none' (default {DEFAULT_PEERS})")
    ap.add_argument("--peer-limit", type=float, default=60.0, help="wall seconds per peer solve (default 60)")
    ap.add_argument("--peer-mem", type=float, default=6.0, help="address-space cap per peer process, GB (default 6)")
    ap.add_argument("--venv", default=str(ROOT / ".venv-bench"), help="the peers' virtualenv (default .venv-bench)")
    ap.add_argument("--db", help="database directory (default: the checkout's static/db)")
    ap.add_argument("--json", help="write the raw results to this file")
    args = ap.parse_args()

    from fifteen import Shape
    from fifteen.bounds import databases

    databases.ensure_for(Shape(4, 4), args.db)
    instances = select(args)
    bounds = [b for b in args.bounds.split(",") if b] if not args.no_native else []
    pbounds = [] if args.no_pyodide else [b for b in (args.pyodide_bounds or args.bounds).split(",") if b]
    peers = [] if args.peers in ("", "none") else args.peers.split(",")
    for p in peers:
        if p not in PEERS:
            raise SystemExit(f"unknown peer {p!r} (choose from {', '.join(PEERS)})")

    log(f"{len(instances)} instances of {args.set}: {', '.join(i.id for i in instances)}")
    results: list[dict] = []
    meta: dict = {
        "args": vars(args),
        "git": git_state(),
        "machine": {"python": platform.python_version(), "platform": platform.platform(), "cpus": os.cpu_count()},
        "started": time.strftime("%Y-%m-%dT%H:%M:%S"),
    }
    meta["source"] = {}
    if bounds:
        meta["source"]["native"] = source_hash()
        log(f"native (CPU seconds, limit {args.limit:g} s): {', '.join(bounds)}")
        results += run_native(instances, bounds, args.limit, args.warmup)
    if pbounds:
        meta["source"]["pyodide"] = source_hash()
        if bounds and meta["source"]["pyodide"] != meta["source"]["native"]:
            log("  WARNING: py/fifteen changed since the native runs: native and Pyodide measure different code")
        clock = "Node process CPU" if args.pyodide_clock == "cpu" else "time.perf_counter"
        log(f"pyodide ({clock} seconds, limit {args.limit:g} s): {', '.join(pbounds)}")
        res, ready = run_pyodide(instances, pbounds, args.limit, args.db, args.pyodide_clock, args.warmup)
        results += res
        meta["pyodide"] = ready
    if peers:
        log(f"peers (wall seconds, limit {args.peer_limit:g} s, {args.peer_mem:g} GB cap): {', '.join(peers)}")
        results += run_peers(instances, peers, args.peer_limit, Path(args.venv), args.peer_mem)

    solvers = [f"native:{b}" for b in bounds] + [f"pyodide:{b}" for b in pbounds] + peers
    summary = report(instances, solvers, results)
    if args.set == "hard" or any(r.get("timeout") for r in results if not r["solver"].startswith("slidingpuzzle")):
        report_iterations(instances, solvers, results)
    if args.json:
        doc = {
            "meta": meta,
            "instances": [{"id": i.id, "tiles": list(i.tiles), "optimal": i.optimal} for i in instances],
            "results": results,
            "summary": summary,
        }
        Path(args.json).write_text(json.dumps(doc, indent=1) + "\n")
        log(f"raw results written to {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
