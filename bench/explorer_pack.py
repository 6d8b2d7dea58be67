#!/usr/bin/env python3
"""Check and time the explorer's tables through the runtime reader (run by ``make explorer-pack``).

    PYTHONPATH=py python3 bench/explorer_pack.py [--db static/db] [--shapes 3x4,2x6] [--sample 20]

For each table present in ``--db`` (default: every explorer asset and pack of the manifest):
the histogram against the published one (``dbbuild.explorer.PUBLISHED``; exit status 1 on
a difference), the hardest positions walked to the goal in exactly ``radius`` moves (and through
the transposed shape), random positions drawn at a distance whose distance and optimal first
move are checked against IDA* (``solve``, the strongest bound), and timings: load, exact distance per position, a uniformly
random position per distance (worst distances).  Timings are wall-clock on a shared machine:
indicative only, see bench/explorer.md.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "py"))

from dbbuild import explorer as explorer_build  # noqa: E402
from fifteen import Board, Shape, solve  # noqa: E402
from fifteen.board import transpose_tiles  # noqa: E402
from fifteen.bounds import databases  # noqa: E402


def check(path: Path, sample: int, seed: int) -> bool:
    t0 = time.perf_counter()
    data = path.read_bytes()
    meta = databases.load_asset(data, path.name)
    load = time.perf_counter() - t0
    shape = Shape(meta["rows"], meta["cols"])
    table = databases.explorer_tables[shape]
    ok = True
    print(f"## {path.name}: {shape}, {table.ranking.total:,} positions, radius {table.radius} ({table.hardest_count} at it)")
    print(f"file {len(data):,} bytes, table in memory {table.memory_bytes:,} bytes, loaded in {load:.2f} s")
    problem = explorer_build.check_published(shape.rows, shape.cols, list(table.histogram))
    known = (shape.rows, shape.cols) in explorer_build.PUBLISHED
    print(f"histogram {'agrees with the published one' if known and not problem else problem or '(nothing published to compare)'}")
    ok &= problem is None
    print("histogram: " + json.dumps(list(table.histogram)))
    ex = databases.require_explorer(shape)
    flipped = databases.require_explorer(shape.transposed())
    for tiles in table.hardest:
        board = Board(shape, tuple(tiles))
        mirror = Board(shape.transposed(), tuple(transpose_tiles(shape, tiles)))
        if ex.distance(board) != table.radius or flipped.distance(mirror) != table.radius:
            print(f"hardest position {tiles} is not at distance {table.radius}")
            ok = False
    print(f"hardest positions ({len(table.hardest)} listed): " + "; ".join(" ".join(map(str, t)) for t in table.hardest[:18]))
    rng = random.Random(seed)
    boards = [Board(shape, tuple(table.ranking.unrank(rng.randrange(table.ranking.total)))) for _ in range(200)]
    t0 = time.perf_counter()
    dists = [ex.distance(b) for b in boards]
    per = (time.perf_counter() - t0) / len(boards)
    print(f"exact distance: {per * 1e3:.2f} ms per position (mean distance {sum(dists) / len(dists):.1f}, 200 random positions)")
    t0 = time.perf_counter()
    for _ in range(sample):  # random positions up to 45 moves (longer ones take minutes with MD+LC on 2x6)
        d = rng.randrange(table.radius // 4, min(45, table.radius * 3 // 4) + 1)
        b = ex.random_at(d, rng)
        sol = solve(b)
        optimal = {m.tile for m in ex.optimal_moves(b)}
        if sol.length != d or ex.distance(b) != d or sol.tiles[0] not in optimal:
            print(f"{b.text()}: table says {d}, IDA* {sol.length} (first move {sol.tiles[0]}, table's optimal {sorted(optimal)})")
            ok = False
    seconds = time.perf_counter() - t0
    print(f"{sample} random positions at 1/4 to 3/4 of the radius: distance and optimal first move equal IDA*, {seconds:.1f} s")
    timings = []
    for d in range(table.radius + 1):
        t0 = time.perf_counter()
        n = 5
        for _ in range(n):
            b = ex.random_at(d, rng)
            if d in (0, table.radius // 2, table.radius) and ex.distance(b) != d:
                ok = False
        timings.append(((time.perf_counter() - t0) / n, d))
    worst = sorted(timings, reverse=True)[:4]
    print("random position at a distance: worst " + ", ".join(f"d={d} {t * 1e3:.1f} ms" for t, d in worst))
    print(f"result: {'OK' if ok else 'FAILED'}\n")
    return ok


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--db", default=str(ROOT / "static/db"))
    ap.add_argument("--shapes", help="only these tables, e.g. 3x4,2x6 (default: every explorer table in --db)")
    ap.add_argument("--sample", type=int, default=10, help="random positions checked against IDA*")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    db = Path(args.db)
    manifest = json.loads((db / "manifest.json").read_text())
    entries = [e for e in manifest.get("assets", []) + manifest.get("packs", []) if e.get("kind") == "explore"]
    if args.shapes:
        wanted = set(args.shapes.split(","))
        entries = [e for e in entries if wanted & set(e["shapes"])]
    if not entries:
        print(f"no explorer table in {db}/manifest.json")
        return 1
    ok = True
    for entry in entries:
        ok &= check(db / entry["file"], args.sample, args.seed)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
