#!/usr/bin/env python3
"""Dual lookups + BPMX against the plain 7-8 searcher (native; not a test).

    PYTHONPATH=py python bench/pdb78_dual_bench.py --pack FILE [--set hard|korf] [--ids ...]
        [--variants base both gen shift both-nobpmx ...] [--max-bound B] [--rounds R] [--json OUT]

Variants (``base`` is fifteen.pdb78_search.pdb78_searcher; the others are
pdb78_dual.pdb78_dual_searcher): ``both`` (general + shifted dual,
eager BPMX), ``gen``, ``shift``, ``both-nobpmx``, ``both-lazy``, ``gen-gap0``
(general dual only when the regular value equals the child's budget),
``both-gap0``, ``none`` (the dual searcher's loop without dual lookups: its
own overhead).  For each instance the variants run one after the other
(A/B alternation; with ``--rounds R`` the whole alternation is repeated),
printing nodes, CPU seconds (time.process_time) and the per-iteration node
counts.  ``--max-bound B`` stops after the iteration of bound B (per-iteration
comparison on instances too long to finish).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "py"), str(HERE.parent / "tests")]  # bench, the package, tests/support

from fifteen.board import Shape  # noqa: E402
from fifteen.pdb78 import PDB78  # noqa: E402
from fifteen.pdb78_search import pdb78_searcher  # noqa: E402
from fifteen.search import ida_star  # noqa: E402
from pdb78_dual import pdb78_dual_searcher  # noqa: E402
from support.instances import hard, korf100  # noqa: E402

VARIANTS = {
    "base": None,
    "none": dict(general=False, shifted=False),
    "both": {},
    "gen": dict(shifted=False),
    "shift": dict(general=False),
    "both-nobpmx": dict(bpmx=None),
    "both-lazy": dict(bpmx="lazy"),
    "gen-gap0": dict(shifted=False, max_gap=0),
    "both-gap0": dict(max_gap=0),
    "gen-nobpmx": dict(shifted=False, bpmx=None),
}


def run_one(db, tiles, variant, max_bound):
    kw = VARIANTS[variant]
    stats: dict = {}
    f = pdb78_searcher(db) if kw is None else pdb78_dual_searcher(db, stats=stats, **kw)
    iters = []

    def progress(p):
        if p.done:
            iters.append((p.bound, p.iterations[-1].nodes))

    c0 = time.process_time()
    try:
        r = ida_star(Shape(4, 4), tiles, f, progress=progress, tick_nodes=1 << 30, max_bound=max_bound)
        length, nodes = r.length, r.nodes
        b = list(tiles)
        z = b.index(0)
        for s in r.path:
            b[z], b[s] = b[s], 0
            z = s
        valid = b == list(range(1, 16)) + [0]
    except RuntimeError:  # max_bound reached
        length, nodes, valid = None, sum(n for _, n in iters), None
    return {
        "variant": variant,
        "length": length,
        "nodes": nodes,
        "seconds": time.process_time() - c0,
        "iterations": iters,
        "valid": valid,
        **stats,
    }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pack", required=True, help="the 7-8 pack file (pdb-78.f15 or .f15.xz)")
    ap.add_argument("--set", default="korf", choices=("hard", "korf"))
    ap.add_argument("--ids", nargs="*")
    ap.add_argument("--first", type=int)
    ap.add_argument("--variants", nargs="+", default=["base", "both"])
    ap.add_argument("--max-bound", type=int)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--json")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    db = PDB78.load(args.pack)
    print(f"loaded {args.pack} in {time.perf_counter() - t0:.1f} s", flush=True)
    inst = [(i.id, list(i.tiles)) for i in (hard() if args.set == "hard" else korf100())]
    if args.ids:
        inst = [i for i in inst if i[0] in args.ids]
    if args.first:
        inst = inst[: args.first]
    results = []
    totals: dict = {}
    for rnd in range(args.rounds):
        for iid, tiles in inst:
            for v in args.variants:
                r = run_one(db, tiles, v, args.max_bound)
                r["id"] = iid
                r["round"] = rnd
                results.append(r)
                t = totals.setdefault((rnd, v), [0, 0.0])
                t[0] += r["nodes"]
                t[1] += r["seconds"]
                extra = (
                    ""
                    if v == "base"
                    else f" evals={r.get('dual_evals', 0):,} cuts={r.get('dual_cuts', 0):,} bpmx={r.get('bpmx_cuts', 0):,}"
                )
                print(
                    f"{iid}\t{v}\tlen={r['length']}\tnodes={r['nodes']:,}\t{r['seconds']:.2f} s{extra}"
                    f"\titers={' '.join(f'{b}:{n}' for b, n in r['iterations'])}",
                    flush=True,
                )
    for (rnd, v), (nn, ss) in totals.items():
        print(f"TOTAL round {rnd} {v}: {nn:,} nodes, {ss:.1f} s CPU", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
