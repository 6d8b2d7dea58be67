#!/usr/bin/env python3
"""More lookups per node: the dual lookups and BPMX beside the regular + reflected PDB (native; not a test).

    PYTHONPATH=py python3 bench/lookups.py [--bound pdb663] [--variants base dual ...] [--first N | --ids 1 2 ...]

Solves each instance with every variant back to back (the same instance, one variant after the
other, so that the machine's load weighs alike on each; with ``--rounds 2`` the whole set once
more with the variants in the reverse order, the figures summed) and prints one line per instance
(id, optimal length, then nodes and CPU seconds per variant) and the totals: nodes, CPU, CPU
per node (microseconds) and the ratios to the first variant.  Every solution is checked against
the published length and replayed.  Variants (keyword arguments of
:func:`fifteen.bounds.pdb_loop.pdb_searcher`):

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
from fifteen.bounds import databases  # noqa: E402
from fifteen.bounds.pdb import PatternDatabase  # noqa: E402
from fifteen.bounds.pdb_loop import pdb_searcher  # noqa: E402
from fifteen.search.ida import ida_star  # noqa: E402
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
    ap.add_argument("--rounds", type=int, default=1, help="rounds over the set, every other one in reverse variant order")
    args = ap.parse_args(argv)
    shape = Shape(4, 4)
    databases.ensure_for(shape, args.db)
    db = databases.pattern_database(args.bound, shape)
    if not isinstance(db, PatternDatabase):
        raise SystemExit(f"{args.bound} is not built (make db)")
    factories = {v: pdb_searcher(db, **VARIANTS[v]) for v in args.variants}
    for v in args.variants:  # build each loop's tables and program before the clock runs (Korf #9: 46 moves)
        ida_star(shape, list(korf100()[8].tiles), factories[v])
    instances = korf100()[: args.first]
    if args.ids:
        instances = [i for i in instances if i.id in args.ids]
    print(f"# {args.bound}, {len(instances)} instances; load average at start {os.getloadavg()[0]:.2f}", flush=True)
    print("id\tlength\t" + "\t".join(f"{v} nodes\t{v} s" for v in args.variants), flush=True)
    nodes = dict.fromkeys(args.variants, 0)
    cpu = dict.fromkeys(args.variants, 0.0)
    for rnd in range(args.rounds):
        order = args.variants if rnd % 2 == 0 else args.variants[::-1]
        if run_round(shape, instances, order, args.variants, factories, nodes, cpu):
            return 1
    first = args.variants[0]
    print(f"# load average at end {os.getloadavg()[0]:.2f}")
    print("variant\tnodes\tCPU s\tus/node\tnodes ratio\tCPU ratio")
    for v in args.variants:
        print(
            f"{v}\t{nodes[v]:,}\t{cpu[v]:.1f}\t{1e6 * cpu[v] / max(nodes[v], 1):.3f}"
            f"\t{nodes[v] / max(nodes[first], 1):.3f}\t{cpu[v] / max(cpu[first], 1e-9):.3f}"
        )
    return 0


def run_round(shape, instances, order, variants, factories, nodes, cpu) -> bool:
    """One pass over *instances*, the variants in *order* (printed in *variants*' order); true
    when a solution is wrong."""
    for inst in instances:
        got = {}
        for v in order:
            c0 = time.process_time()
            result = ida_star(shape, list(inst.tiles), factories[v])
            spent = time.process_time() - c0
            if result.length != inst.optimal or not Board(shape, tuple(inst.tiles)).solves(result.tiles):
                print(f"WRONG {inst.id} {v}: length {result.length}, published {inst.optimal}", flush=True)
                return True
            nodes[v] += result.nodes
            cpu[v] += spent
            got[v] = f"{result.nodes}\t{spent:.2f}"
        print("\t".join([inst.id, str(inst.optimal)] + [got[v] for v in variants]), flush=True)
    return False


if __name__ == "__main__":
    raise SystemExit(main())
