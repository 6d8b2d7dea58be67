#!/usr/bin/env python3
"""Benchmark of the optional 7-8 pack beside the 6-6-3 default (native; not a test).

    PYTHONPATH=py python bench/pdb78_bench.py --db DIR [--set hard|korf|all] [--bounds pdb78 pdb663] [--limit S]

DIR holds a manifest listing pdb-78.f15 (and pdb-663.f15 for the comparison).
Prints the pack's load (decode) time and memory, then one line per solve
(id, bound, length, nodes, CPU seconds) and per-set totals.  The same
instances run in Pyodide with bench/pyodide_runner.mjs (job field "db": DIR,
"bounds": ["pdb78"]).
"""

from __future__ import annotations

import argparse
import sys
import time
import tracemalloc
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "py"), str(HERE.parent / "data")]  # bench, the package, the instances

from fifteen.board import Shape  # noqa: E402
from fifteen.bounds import databases  # noqa: E402
from instances import hard, korf100  # noqa: E402
from measure import solve_timed  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--db", required=True)
    ap.add_argument("--set", default="all", choices=("hard", "korf", "all"))
    ap.add_argument("--bounds", nargs="+", default=["pdb78"])
    ap.add_argument("--limit", type=float, default=600.0, help="CPU seconds per solve")
    ap.add_argument("--ids", nargs="*", help="only these instance ids")
    args = ap.parse_args(argv)

    tracemalloc.start()
    t0, c0 = time.perf_counter(), time.process_time()
    loaded = databases.ensure_for(Shape(4, 4), args.db)
    cur, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(
        f"loaded {loaded} in {time.perf_counter() - t0:.1f} s wall, {time.process_time() - c0:.1f} s CPU; "
        f"traced memory {cur / 2**20:.0f} MiB, peak {peak / 2**20:.0f} MiB",
        flush=True,
    )
    sets = []
    if args.set in ("hard", "all"):
        sets.append(("hard", [(i.id, list(i.tiles)) for i in hard()]))
    if args.set in ("korf", "all"):
        sets.append(("korf100", [(i.id, list(i.tiles)) for i in korf100()]))
    for name, instances in sets:
        if args.ids:
            instances = [i for i in instances if i[0] in args.ids]
        for bound in args.bounds:
            tot_n = tot_s = 0
            fails = 0
            for iid, tiles in instances:
                r = solve_timed(tiles, bound, args.limit)
                tot_n += r["nodes"]
                tot_s += r["seconds"]
                fails += bool(r.get("timeout")) or r.get("valid") is False
                print(
                    f"{name}\t{iid}\t{bound}\tlen={r['length']}\th0={r.get('h0')}\tnodes={r['nodes']:,}\t{r['seconds']:.2f} s"
                    f"{'  TIMEOUT' if r.get('timeout') else ''}",
                    flush=True,
                )
            print(
                f"TOTAL {name} {bound}: {len(instances)} instances, {tot_n:,} nodes, {tot_s:.1f} s CPU, {fails} timeouts/invalid",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
