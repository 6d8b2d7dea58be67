#!/usr/bin/env python3
"""Benchmark (not a test): solve Korf's instances with each bound and print nodes, time, nodes/s.

    PYTHONPATH=py python3 bench/bench_bounds.py                    # auto bound, all 100
    PYTHONPATH=py python3 bench/bench_bounds.py --bounds wdid,pdb663 --max-optimal 50
    PYTHONPATH=py python3 bench/bench_bounds.py --first 10 --limit 60 --bounds md,lc,wd,wdid
    PYTHONPATH=py python3 bench/bench_bounds.py --set hard --bounds pdb663 --limit 600

Each instance runs with a per-instance time limit (--limit seconds, CPU): an
instance over the limit is reported as such and its nodes so far are counted.
Times are CPU seconds of this process (time.process_time).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "py"), str(ROOT / "data")]  # the package; the instances and their reader

from fifteen import Board, Cancelled, solve  # noqa: E402
from fifteen.bounds import databases  # noqa: E402
from instances import read as read_instances  # noqa: E402


def run(bound: str, instances, limit: float, verbose: bool) -> dict:
    total_nodes = total_time = 0.0
    solved = timed_out = 0
    for inst in instances:
        board = Board.from_tiles(inst.tiles)
        last = {"nodes": 0}
        start = time.process_time()

        def progress(p, last=last):
            last["nodes"] = p.nodes

        def over_limit(start=start) -> bool:
            return time.process_time() - start > limit

        try:
            sol = solve(board, bound, progress=progress, cancel=over_limit, tick_nodes=1 << 16)
            el = time.process_time() - start
            nodes = sol.result.nodes
            ok = sol.length == inst.optimal and board.solves(sol.tiles)
            status = "ok" if ok else f"WRONG ({sol.length})"
            solved += ok
        except Cancelled:
            el = time.process_time() - start
            nodes = last["nodes"]
            status = f"> {limit:g} s"
            timed_out += 1
        total_nodes += nodes
        total_time += el
        if verbose:
            rate = nodes / el if el > 0 else 0
            print(f"{bound:7} {inst.id:>10} {inst.optimal:3d} {nodes:14,d} {el:9.2f} {rate:12,.0f}  {status}", flush=True)
    rate = total_nodes / total_time if total_time else 0
    print(
        f"{bound:7} TOTAL {len(instances)} instances: solved {solved}, over limit {timed_out}; "
        f"nodes {int(total_nodes):,}; {total_time:.2f} s; {rate:,.0f} nodes/s",
        flush=True,
    )
    return {"bound": bound, "nodes": total_nodes, "seconds": total_time, "solved": solved, "timeouts": timed_out}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bounds", default="auto", help="comma-separated bound names (default auto)")
    ap.add_argument("--set", default="korf100", choices=["korf100", "hard"], help="instance set")
    ap.add_argument("--first", type=int, help="only the first N instances")
    ap.add_argument("--ids", help="comma-separated instance ids")
    ap.add_argument("--max-optimal", type=int, help="only instances with optimal length <= this")
    ap.add_argument("--limit", type=float, default=120.0, help="CPU seconds per instance (default 120)")
    ap.add_argument("--db", help="database directory (default: the checkout's static/db)")
    ap.add_argument("-q", "--quiet", action="store_true", help="totals only")
    args = ap.parse_args()
    instances = read_instances(f"{args.set}.tsv")
    if args.ids:
        wanted = set(args.ids.split(","))
        instances = [i for i in instances if i.id in wanted]
    if args.max_optimal:
        instances = [i for i in instances if i.optimal <= args.max_optimal]
    if args.first:
        instances = instances[: args.first]
    from fifteen import Shape

    databases.ensure_for(Shape(4, 4), args.db)
    print(f"{'bound':7} {'instance':>10} {'opt':>3} {'nodes':>14} {'seconds':>9} {'nodes/s':>12}  status")
    for bound in args.bounds.split(","):
        run(bound, instances, args.limit, not args.quiet)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
