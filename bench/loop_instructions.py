#!/usr/bin/env python3
"""Instructions per node of each bound's inner loop, counted by valgrind (not a timing).

    PYTHONPATH=py python3 bench/loop_instructions.py                       # every bound
    PYTHONPATH=py python3 bench/loop_instructions.py --bounds pdb663,md
    PYTHONPATH=py python3 bench/loop_instructions.py --pack /tmp/pack555.f15.xz   # adds pdb78

Instruction counts (``valgrind --tool=cachegrind --cache-sim=no``) do not depend on the load
of a shared machine, unlike times.  Each bound's workload (one position, below) is solved
once and twice in two processes run under valgrind; the difference of their instruction
counts, divided by the nodes of one solve, is the cost per node of the search (start-up,
imports and one-time tables cancel out; the per-solve set-up of the searcher is included,
negligible next to 10^4-10^6 nodes).  ``PYTHONHASHSEED=0`` keeps the runs deterministic.
Beside the bounds: the 6-6-3 loop without its reflected lookup, and with BPMX and/or the dual
lookups (``pdb663-bpmx``, ``pdb663-dual``, ``pdb663-dual-bpmx``; ``bench/lookups.md``).

*pdb78* needs a pack in the 7-8 layout for 4x4; the real one (288 MB) is slow to load under
valgrind, so any 4x4 pack built by ``tools/pdb78_build.py`` serves (the loop is the same), e.g.
``build_pack(4, 4, "555", [[1, 2, 3, 4, 5], [6, 7, 8, 9, 10], [11, 12, 13, 14, 15]])``
(three minutes without numba), written to a file and given with ``--pack``.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "data"))  # the instances and their reader
sys.path.insert(0, str(HERE.parent / "py"))

#: bound -> Korf instance solved (10^4 to 10^6 nodes each)
WORKLOADS = {
    "md": "9",
    "lc": "2",
    "id": "9",
    "wd": "9",
    "wdid": "9",
    "pdb555": "2",
    "pdb663": "1",
    "pdb663-plain": "4",  # the loop without the reflected lookup (non-square boards)
    "pdb663-bpmx": "1",  # the loops with more lookups (bench/lookups.md)
    "pdb663-dual": "1",
    "pdb663-dual-bpmx": "1",
    "pdb78": "1",
    "pdb771": "1",  # the 7-8 loop with the default 7-7-1 tables
}
#: the 6-6-3 loops that are not a bound's: pdb_searcher's options
PDB663_LOOPS = {
    "pdb663-plain": {"reflect": False},
    "pdb663-bpmx": {"bpmx": True},
    "pdb663-dual": {"dual": True},
    "pdb663-dual-bpmx": {"dual": True, "bpmx": True},
}


def worker(bound: str, reps: int, pack: str | None) -> None:
    import instances
    from fifteen import Board, Shape, solve
    from fifteen.bounds import databases
    from fifteen.search.ida import ida_star

    databases.ensure_for(Shape(4, 4))
    if pack:
        from fifteen.bounds.pdb78 import PDB78

        databases.pattern_databases["pdb78"] = PDB78.from_bytes(Path(pack).read_bytes(), name=pack)
    tiles = next(k.tiles for k in instances.korf100() if k.id == WORKLOADS[bound])
    if bound in PDB663_LOOPS:
        from fifteen.bounds.pdb import PatternDatabase
        from fifteen.bounds.pdb_loop import pdb_searcher

        db = databases.pattern_database("pdb663", Shape(4, 4))
        assert isinstance(db, PatternDatabase), "pdb663 not built: run make db"
        variant = pdb_searcher(db, **PDB663_LOOPS[bound])
    for _ in range(reps):
        if bound in PDB663_LOOPS:
            nodes = ida_star(Shape(4, 4), tiles, variant).nodes
        else:
            nodes = solve(Board.from_tiles(tiles), bound).result.nodes
    print(nodes)


def instructions(bound: str, reps: int, pack: str | None) -> tuple[int, int]:
    cmd = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null", sys.executable, __file__]
    cmd += ["--worker", bound, str(reps)] + (["--pack", pack] if pack else [])
    env = dict(os.environ, PYTHONHASHSEED="0")
    run = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True)
    refs = re.search(r"I\s+refs:\s+([\d,]+)", run.stderr)
    if refs is None:
        raise SystemExit(f"no instruction count in valgrind's output:\n{run.stderr}")
    return int(refs.group(1).replace(",", "")), int(run.stdout.split()[-1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bounds", default=",".join(b for b in WORKLOADS if b != "pdb78"))
    ap.add_argument("--pack", help="a 4x4 pack in the 7-8 layout (adds pdb78 to the default bounds)")
    ap.add_argument("--worker", nargs=2, metavar=("BOUND", "REPS"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(args.worker[0], int(args.worker[1]), args.pack)
        return 0
    bounds = args.bounds.split(",") + (["pdb78"] if args.pack and "pdb78" not in args.bounds else [])
    print(f"{'bound':16} {'instance':>8} {'nodes':>9} {'instructions/node':>18}", flush=True)
    for bound in bounds:
        one, nodes = instructions(bound, 1, args.pack)
        two, _ = instructions(bound, 2, args.pack)
        print(f"{bound:16} {'#' + WORKLOADS[bound]:>8} {nodes:9,d} {(two - one) / nodes:18,.1f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
