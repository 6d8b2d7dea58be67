#!/usr/bin/env python3
"""Compare partitions of 7-tile pattern databases by IDA* node counts on Korf's 100 (not a test).

    PYTHONPATH=py python3 bench/pdb7_partitions.py 1-7/9-15/8            # the shipped 7-7-1
    PYTHONPATH=py python3 bench/pdb7_partitions.py 1-7/8-14/15 --ids 1,2,3
    PYTHONPATH=py python3 bench/pdb7_partitions.py 2-8/9-15/1 --rotated   # one table, shared by rotation

Each group's table is built by :mod:`dbbuild.pack78` (numba; ~1-2 min per 7-tile group, kept
in ``~/.cache/fifteen-db/raw`` like the shipped tables), packed as 4-bit entries and searched
with the loop of :mod:`fifteen.bounds.pdb78_loop` (plain and reflected lookups).  Prints per
instance the nodes beside the 6-6-3 record (``data/korf100-pdb663-nodes.tsv``) and the total.

``--rotated`` (two 7-tile groups whose goal squares map onto each other by the half turn):
one table serves both, looked up for the second group through the half-turn square map.  The
half turn moves the blank's goal square, so that table must be minimised over every blank
square (not only the goal square's region, as the shipped tables are): half the memory, but
weaker (bench/pdb771.md).  Results: bench/pdb771.md.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "py"), str(ROOT / "data")]  # the packages; the instances and their reader

from dbbuild import pack78  # noqa: E402
from dbbuild.cache import default_cache_dir  # noqa: E402
from dbbuild.regions import region_table  # noqa: E402
from fifteen.board import Shape, tile_mirrors, transpose_squares  # noqa: E402
from fifteen.bounds.pdb78 import PDB78, LookupGroup, table_size  # noqa: E402
from fifteen.bounds.pdb78_loop import pdb78_searcher  # noqa: E402
from fifteen.search.ida import ida_star  # noqa: E402
from instances import korf100  # noqa: E402

N = 16


def parse_groups(text: str) -> list[list[int]]:
    """``1-7/9-15/8`` -> [[1..7], [9..15], [8]] (ranges and comma lists)."""
    groups = []
    for part in text.split("/"):
        tiles: list[int] = []
        for item in part.split(","):
            lo, _, hi = item.partition("-")
            tiles.extend(range(int(lo), int(hi or lo) + 1))
        groups.append(tiles)
    if sorted(t for g in groups for t in g) != list(range(1, N)):
        raise SystemExit(f"{text}: not a partition of tiles 1..15")
    return groups


def entries(tiles: list[int], any_blank: bool) -> np.ndarray:
    """One table's entries, (value - MD) / 2, one byte each."""
    if len(tiles) == 1:
        return np.zeros(N, np.uint8)
    if not any_blank:
        nib, _maxd, _maxn = pack78.cached_nibbles(4, 4, tiles, raw_cache=default_cache_dir() / "raw")
        return nib
    cache = default_cache_dir() / "raw" / f"any-blank-4x4-{'_'.join(map(str, tiles))}.u8"
    if cache.exists():
        return np.fromfile(cache, dtype=np.uint8)
    reg = region_table(4, 4).copy()
    free = (1 << N) - 1 & ~sum(1 << (t - 1) for t in tiles)
    reg[N - 1, free] = free  # the BFS starts from every free square, not the goal square's region
    nib, _maxd, _maxn = pack78.build_nibbles(4, 4, tiles, reg=reg)
    nib.tofile(cache)
    return nib


def database(groups: list[list[int]], rotated: bool) -> PDB78:
    tables = groups[:1] + groups[2:] if rotated else groups
    parts, meta_tables, offsets, off = [], [], {}, 0
    for tiles in tables:
        nib = entries(tiles, any_blank=rotated and len(tiles) > 1)
        assert nib.size == table_size(N, len(tiles))
        meta_tables.append({"tiles": tiles, "offset": off, "size": int(nib.size)})
        offsets[tuple(tiles)] = off
        off += nib.size + (nib.size & 1)
        parts.append(np.concatenate([nib, np.zeros(nib.size & 1, np.uint8)]))
    e = np.concatenate(parts)
    packed = (e[0::2] | (e[1::2] << 4)).astype(np.uint8).tobytes()
    db = PDB78({"rows": 4, "cols": 4, "partition": "x", "tables": meta_tables}, packed, name="partition")
    if rotated:  # group 2 through group 1's table and the half turn q -> 15 - q
        first, second = groups[0], groups[1]
        if sorted(N + 1 - t for t in first) != sorted(second):
            raise SystemExit(f"--rotated: {second} is not the half turn of {first}")
        size = table_size(N, len(first))
        ident, half = list(range(N)), list(range(N - 1, -1, -1))
        plain = [LookupGroup(first, ident, 0, size, N), LookupGroup([N + 1 - t for t in first], half, 0, size, N)]
        plain += [LookupGroup(g, ident, offsets[tuple(g)], table_size(N, len(g)), N) for g in groups[2:]]
        tt, tsq = tile_mirrors(4), transpose_squares(4)
        db.groups = tuple(plain)
        db.rgroups = tuple(LookupGroup([tt[t] for t in g.tiles], [g.smap[tsq[p]] for p in range(N)], g.offset, g.size, N) for g in plain)
    return db


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("groups", help="e.g. 1-7/9-15/8")
    ap.add_argument("--rotated", action="store_true", help="one table for the first two groups (half turn)")
    ap.add_argument("--ids", help="only these Korf instances (comma-separated)")
    args = ap.parse_args()
    groups = parse_groups(args.groups)
    db = database(groups, args.rotated)
    record = {}
    for line in (ROOT / "data" / "korf100-pdb663-nodes.tsv").read_text().splitlines():
        if line and not line.startswith("#"):
            f = line.split("\t")
            record[f[0]] = int(f[2])
    factory = pdb78_searcher(db)
    ids = set(args.ids.split(",")) if args.ids else None
    nodes = base = 0
    cpu = 0.0
    for inst in korf100():
        if ids and inst.id not in ids:
            continue
        c0 = time.process_time()
        res = ida_star(Shape(4, 4), inst.tiles, factory)
        c = time.process_time() - c0
        assert res.length == inst.optimal, (inst.id, res.length, inst.optimal)
        nodes, base, cpu = nodes + res.nodes, base + record[inst.id], cpu + c
        print(inst.id, inst.optimal, res.h0, res.nodes, record[inst.id], f"{c:.2f}", sep="\t", flush=True)
    print(f"{args.groups}{' rotated' if args.rotated else ''}: {nodes:,} nodes ({nodes / base:.3f}x the 6-6-3's {base:,}), {cpu:.1f} s CPU")


if __name__ == "__main__":
    main()
