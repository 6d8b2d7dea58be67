#!/usr/bin/env python3
"""Node counts per instance and per iteration (a regression record, not a timing).

    PYTHONPATH=py python3 bench/node_counts.py --bound pdb663 > counts.tsv
    PYTHONPATH=py python3 bench/node_counts.py --bound pdb663 --check data/korf100-pdb663-nodes.tsv

Prints one line per instance: id, optimal length found, total nodes, nodes per iteration
(``bound:nodes``) and the solution (tiles moved), tab-separated.  With ``--check FILE`` it
compares every line with FILE (same format, ``#`` comments ignored) and exits 1 on any
difference: a change of the inner loops that keeps the search identical passes.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "data"))  # the instances and their reader
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "py"))

import instances as instance_files  # noqa: E402
from fifteen import Board, Shape, solve  # noqa: E402
from fifteen.db import registry  # noqa: E402


def line(inst, bound: str) -> str:
    sol = solve(Board.from_tiles(inst.tiles), bound)
    r = sol.result
    iterations = " ".join(f"{it.bound}:{it.nodes}" for it in r.iterations)
    return f"{inst.id}\t{sol.length}\t{r.nodes}\t{iterations}\t{' '.join(map(str, sol.tiles))}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bound", default="pdb663")
    ap.add_argument("--set", default="korf100", choices=["korf100", "hard"])
    ap.add_argument("--first", type=int, help="only the first N instances")
    ap.add_argument("--db", help="database directory (default: the checkout's static/db)")
    ap.add_argument("--check", help="compare with this file; exit 1 on a difference")
    args = ap.parse_args()
    instances = instance_files.read(f"{args.set}.tsv")[: args.first]
    registry.ensure_for(Shape(4, 4), args.db)
    want = {}
    if args.check:
        for text in Path(args.check).read_text().splitlines():
            if text.strip() and not text.startswith("#"):
                want[text.split("\t", 1)[0]] = text
    differ = total = 0
    for inst in instances:
        got = line(inst, args.bound)
        total += int(got.split("\t")[2])
        if args.check:
            if want.get(inst.id) != got:
                differ += 1
                print(f"DIFFERS {inst.id}\n  want {want.get(inst.id)}\n  got  {got}", flush=True)
        else:
            print(got, flush=True)
    if args.check:
        print(f"{len(instances) - differ} of {len(instances)} identical; {total:,} nodes in all")
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
