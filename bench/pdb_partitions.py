#!/usr/bin/env python3
"""Compare 5-5-5 partitions by IDA* node counts (PDB + reflected lookup).

    python bench/pdb_partitions.py P1 1,2,4,5,6,7,8,9,10

Builds the partition's tables in memory (numpy, ~2 s) and solves the given
Korf instances with :mod:`fifteen.pdb_search`.  Results: bench/pdb_build.md.
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "py"), str(ROOT)]

import build_db  # noqa: E402
from fifteen.pdb import PatternDatabase  # noqa: E402
from fifteen.pdb_search import solve  # noqa: E402

CANDIDATES = {
    "P1": [(1, 2, 5, 6, 9), (3, 4, 7, 8, 12), (10, 11, 13, 14, 15)],  # chosen ("555")
    "P2": [(1, 2, 3, 5, 6), (9, 10, 13, 14, 15), (4, 7, 8, 11, 12)],  # transpose of P1
    "P6": [(1, 2, 5, 6, 9), (3, 4, 7, 8, 11), (10, 12, 13, 14, 15)],
    "P7": [(1, 2, 3, 4, 8), (5, 6, 9, 10, 13), (7, 11, 12, 14, 15)],
}
KORF = Path("/work/shared/benchmarks/korf100.tsv")
if not KORF.exists():
    KORF = ROOT.parent / "shared" / "benchmarks" / "korf100.tsv"


def main() -> None:
    name, ids = sys.argv[1], sys.argv[2].split(",")
    db = PatternDatabase.from_bytes(build_db.build_pdb_asset(4, 4, name, CANDIDATES[name]))
    rows = [line.split("\t") for line in KORF.read_text().splitlines() if line and not line.startswith("#")]
    total = 0
    for r in rows:
        if r[0] not in ids:
            continue
        res = solve(db, [int(x) for x in r[1].split()])
        assert res.length == int(r[2])
        total += res.nodes
        print(name, r[0], r[2], res.h0, res.pdb, res.pdbr, res.nodes, f"{res.seconds:.1f}s", flush=True)
    print(name, "tables", len(db.tables), "total nodes", total)


if __name__ == "__main__":
    main()
