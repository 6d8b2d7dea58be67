#!/usr/bin/env python3
"""5x5 pattern databases (not a test): partitions compared, the shipped one against MD + LC.

    PYTHONPATH=py python3 bench/pdb5x5.py                      # every partition below
    PYTHONPATH=py python3 bench/pdb5x5.py --partitions cross --positions 1000 --solves 8

Per partition: the tables built by :mod:`dbbuild.pack78` (the flood-fill path, kept in
``~/.cache/fifteen-db/raw`` like the shipped tables) and their build time; the mean root value
(max of the plain and reflected lookups) over seeded random solvable 5x5 positions
(``bench/anytime.py``'s ``random_board``, seeds 1..N) beside MD + LC's; the nodes of optimal
searches of seeded 60-move scrambles (MD + LC's with ``--lc``); and on Korf and Taylor's ten
24-puzzle instances the nodes of the IDA* iteration whose threshold is the last one the MD + LC
prover refuted in 60 s (bench/anytime.md: its lower bound - 2), i.e. the prover's work to reach
that bound.  Results: bench/pdb5x5.md.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "py"), str(ROOT / "tests")]  # the package; the tests' positions

from anytime import random_board  # noqa: E402  (bench/anytime.py)
from dbbuild import pack78  # noqa: E402
from dbbuild.cache import default_cache_dir  # noqa: E402
from fifteen.board import Shape  # noqa: E402
from fifteen.bounds.manhattan import linear_conflict, manhattan  # noqa: E402
from fifteen.bounds.manhattan_loop import linear_conflict_searcher  # noqa: E402
from fifteen.bounds.pdb78 import PARTITIONS, PDB78  # noqa: E402
from fifteen.bounds.pdb78_loop import pdb78_searcher  # noqa: E402
from fifteen.search.ida import ida_star  # noqa: E402
from support.positions import korf_taylor, scramble  # noqa: E402

FIVE = Shape(5, 5)
CANDIDATES = {
    # the shipped one (PARTITIONS["55554"]): 2x3 and L-shaped blocks, the last an L around the
    # blank's goal square (tiles 20 and 24 at home wall it off)
    "cross": PARTITIONS["55554"],
    # the first proposal: four 2x3-ish corner blocks and 20, 22, 23, 24 (again walling square 24 off)
    "corners": ((1, 2, 3, 6, 7), (4, 5, 8, 9, 10), (11, 12, 16, 17, 21), (13, 14, 15, 18, 19), (20, 22, 23, 24)),
    # blocks with the 2x2 around the blank's goal square last
    "blocks": ((1, 2, 3, 6, 7), (4, 5, 9, 10, 15), (8, 12, 13, 14, 18), (11, 16, 17, 21, 22), (19, 20, 23, 24)),
    # the rows
    "rows": ((1, 2, 3, 4, 5), (6, 7, 8, 9, 10), (11, 12, 13, 14, 15), (16, 17, 18, 19, 20), (21, 22, 23, 24)),
}


#: The MD + LC prover's lower bound on KT1..KT10 after 60 s CPU (bench/anytime.md, before pdb55554).
LC_PROVER_60S = [92, 87, 98, 86, 91, 84, 90, 83, 103, 100]


def build(name: str, groups) -> tuple[PDB78, float]:
    t0 = time.perf_counter()
    data = pack78.build_pack(5, 5, name, groups, raw_cache=default_cache_dir() / "raw", xz=False)
    return PDB78.from_bytes(data, name=name), time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--partitions", default=",".join(CANDIDATES), help=f"comma list of {', '.join(CANDIDATES)}")
    ap.add_argument("--positions", type=int, default=1000, help="random positions for the mean root value")
    ap.add_argument("--solves", type=int, default=8, help="60-move scrambles (seeds 1..N) searched optimally")
    ap.add_argument("--lc", action="store_true", help="search the scrambles with MD + LC too")
    args = ap.parse_args()
    positions = [list(random_board(5, seed).tiles) for seed in range(1, args.positions + 1)]
    boards = [scramble(FIVE, 60, seed) for seed in range(1, args.solves + 1)]
    md = sum(manhattan(FIVE, p) for p in positions) / len(positions)
    lc = sum(manhattan(FIVE, p) + linear_conflict(FIVE, p) for p in positions) / len(positions)
    print(f"{len(positions)} random positions: mean MD {md:.2f}, MD + LC {lc:.2f}")
    if args.lc:
        total = 0
        for seed, board in enumerate(boards, 1):
            r = ida_star(FIVE, list(board.tiles), linear_conflict_searcher)
            total += r.nodes
            print(f"  lc seed {seed}: length {r.length}, {r.nodes:,} nodes, {r.cpu_seconds:.2f} s CPU")
        print(f"lc: {total:,} nodes")
    for name in args.partitions.split(","):
        db, seconds = build(name, CANDIDATES[name])
        mean = sum(db.bound(p) for p in positions) / len(positions)
        plain = sum(db.value(p) for p in positions) / len(positions)
        total, cpu = 0, 0.0
        factory = pdb78_searcher(db)
        for seed, board in enumerate(boards, 1):
            r = ida_star(FIVE, list(board.tiles), factory)
            total += r.nodes
            cpu += r.cpu_seconds
            print(f"  {name} seed {seed}: length {r.length}, {r.nodes:,} nodes, {r.cpu_seconds:.2f} s CPU")
        print(f"{name}: built in {seconds:.1f} s; mean root {mean:.2f} (plain lookup {plain:.2f}); {total:,} nodes, {cpu:.1f} s CPU")
        kt, t0 = [], time.process_time()
        for (_, tiles, _), lb in zip(korf_taylor(), LC_PROVER_60S, strict=True):
            search = factory(FIVE, tiles, lambda nodes: sys.maxsize)
            path, nodes = search.run(lb - 2)
            assert path is None, "a threshold below the optimum found a solution"
            kt.append(nodes)
        roots = [db.bound(tiles) for _, tiles, _ in korf_taylor()]
        print(f"{name}: Korf-Taylor roots {roots}; threshold LB-2 refuted in {sum(kt):,} nodes {kt}, {time.process_time() - t0:.1f} s CPU")


if __name__ == "__main__":
    main()
