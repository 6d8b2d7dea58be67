#!/usr/bin/env python3
"""More lookups per node: the dual lookups and BPMX beside the regular + reflected PDB (native; not a test).

    PYTHONPATH=py python3 bench/lookups.py [--bound pdb663] [--variants base dual ...] [--first N | --ids 1 2 ...]

Solves each instance with every variant back to back (the same instance, one variant after the
other, so that the machine's load weighs alike on each) and prints one line per instance
(id, optimal length, then nodes and CPU seconds per variant) and the totals: nodes, CPU, CPU
per node (microseconds) and the ratios to the first variant.  Every solution is checked against
the published length and replayed.  Variants (keyword arguments of
:func:`fifteen.search.loops.pdb.pdb_searcher`):

    base        max(PDB, PDBr): the default
    bpmx        base + BPMX (a child's value above the budget + 2 cuts its parent)
    dual        base + max(dual, reflected dual), taken only for children base does not cut
    dual+bpmx   both

``bench/lookups.md`` holds the method, the figures and the decision.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent / "py"), str(HERE.parent / "data")]

from fifteen import Board, Shape  # noqa: E402
from fifteen.bounds.pdb import PatternDatabase  # noqa: E402
from fifteen.db import registry  # noqa: E402
from fifteen.search.ida import ida_star  # noqa: E402
from fifteen.search.loops.pdb import pdb_searcher  # noqa: E402
from instances import korf100  # noqa: E402

VARIANTS = {
    "base": {},
    "bpmx": {"bpmx": True},
    "dual": {"dual": True},
    "dual+bpmx": {"dual": True, "bpmx": True},
}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bound", default="pdb663", choices=("pdb663", "pdb555"))
    ap.add_argument("--variants", nargs="+", default=list(VARIANTS), choices=list(VARIANTS))
    ap.add_argument("--first", type=int, help="only the first N instances")
    ap.add_argument("--ids", nargs="*", help="only these instance ids")
    ap.add_argument("--db", help="database directory (default: the checkout's static/db)")
    args = ap.parse_args(argv)
    shape = Shape(4, 4)
    registry.ensure_for(shape, args.db)
    db = registry.pattern_database(args.bound, shape)
    if not isinstance(db, PatternDatabase):
        raise SystemExit(f"{args.bound} is not built (make db)")
    factories = {v: pdb_searcher(db, **VARIANTS[v]) for v in args.variants}
    instances = korf100()[: args.first]
    if args.ids:
        instances = [i for i in instances if i.id in args.ids]
    print(f"# {args.bound}, {len(instances)} instances; load average at start {os.getloadavg()[0]:.2f}", flush=True)
    print("id\tlength\t" + "\t".join(f"{v} nodes\t{v} s" for v in args.variants), flush=True)
    nodes = dict.fromkeys(args.variants, 0)
    cpu = dict.fromkeys(args.variants, 0.0)
    for inst in instances:
        row = [inst.id, str(inst.optimal)]
        for v in args.variants:
            c0 = time.process_time()
            result = ida_star(shape, list(inst.tiles), factories[v])
            spent = time.process_time() - c0
            if result.length != inst.optimal or not Board(shape, tuple(inst.tiles)).solves(result.tiles):
                print(f"WRONG {inst.id} {v}: length {result.length}, published {inst.optimal}", flush=True)
                return 1
            nodes[v] += result.nodes
            cpu[v] += spent
            row += [str(result.nodes), f"{spent:.2f}"]
        print("\t".join(row), flush=True)
    first = args.variants[0]
    print(f"# load average at end {os.getloadavg()[0]:.2f}")
    print("variant\tnodes\tCPU s\tus/node\tnodes ratio\tCPU ratio")
    for v in args.variants:
        print(
            f"{v}\t{nodes[v]:,}\t{cpu[v]:.1f}\t{1e6 * cpu[v] / max(nodes[v], 1):.3f}"
            f"\t{nodes[v] / max(nodes[first], 1):.3f}\t{cpu[v] / max(cpu[first], 1e-9):.3f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
