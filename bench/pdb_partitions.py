#!/usr/bin/env python3
"""Compare 5-5-5 partitions by IDA* node counts (PDB + reflected lookup).

    python bench/pdb_partitions.py P1 1,2,4,5,6,7,8,9,10

Builds the partition's tables in memory (numpy, ~2 s) and solves the given
Korf instances with :mod:`fifteen.bounds.pdb_loop`.  Results: bench/pdb_build.md.
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "py"), str(ROOT / "data")]  # the packages; the instances and their reader

from dbbuild.pattern import build_pdb_asset  # noqa: E402
from fifteen import Shape  # noqa: E402
from fifteen.bounds.pdb import PatternDatabase  # noqa: E402
from fifteen.bounds.pdb_loop import pdb_searcher  # noqa: E402
from fifteen.search.ida import ida_star  # noqa: E402
from instances import korf100  # noqa: E402

CANDIDATES = {
    "P1": [(1, 2, 5, 6, 9), (3, 4, 7, 8, 12), (10, 11, 13, 14, 15)],  # chosen ("555")
    "P2": [(1, 2, 3, 5, 6), (9, 10, 13, 14, 15), (4, 7, 8, 11, 12)],  # transpose of P1
    "P6": [(1, 2, 5, 6, 9), (3, 4, 7, 8, 11), (10, 12, 13, 14, 15)],
    "P7": [(1, 2, 3, 4, 8), (5, 6, 9, 10, 13), (7, 11, 12, 14, 15)],
}


def main() -> None:
    name, ids = sys.argv[1], sys.argv[2].split(",")
    db = PatternDatabase.from_bytes(build_pdb_asset(4, 4, name, CANDIDATES[name]))
    total = 0
    for inst in korf100():
        if inst.id not in ids:
            continue
        res = ida_star(Shape(4, 4), inst.tiles, pdb_searcher(db))
        assert res.length == inst.optimal
        total += res.nodes
        pdb, pdbr = db.value(inst.tiles), db.reflected_value(inst.tiles)
        print(name, inst.id, inst.optimal, res.h0, pdb, pdbr, res.nodes, f"{res.seconds:.1f}s", flush=True)
    print(name, "tables", len(db.tables), "total nodes", total)


if __name__ == "__main__":
    main()
