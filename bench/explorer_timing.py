"""Timings of the explorer's queries and of hints, natively or under Pyodide (bench/explorer_pyodide.mjs).

    PYTHONPATH=py python3 bench/explorer_timing.py static/db/explore-3x3.f15 static/db/explore-2x5.f15 ...

Each file is an explorer table (a container; an xz one natively only); the 4x4 hint uses the
6-6-3 PDB when ``static/db/pdb-663.f15`` is among the files.  Prints one JSON object: per table
the load time, the exact distance per position (200 random positions) and the random position
at a distance (mean and worst over all distances, 3 draws each); the hint per 3x3 position; a
4x4 hint (Korf #55, 41 moves: one solve, then following the path) with "all" optimal moves.
Wall-clock on a shared machine: indicative only (bench/explorer.md).
"""

from __future__ import annotations

import json
import random
import sys
import time


def run(files: list[str], read=lambda p: open(p, "rb").read()) -> dict:
    from fifteen import Board, Shape
    from fifteen.bounds import databases
    from fifteen.lab.hint import Hinter

    out: dict = {"python": sys.version.split()[0], "tables": {}}
    for path in files:
        data = read(path)
        if hasattr(data, "to_bytes"):  # a JS Uint8Array (Pyodide), as the worker hands it over
            data = data.to_bytes()
        t0 = time.perf_counter()
        meta = databases.load_asset(data, path.rsplit("/", 1)[-1])
        load = time.perf_counter() - t0
        if meta["kind"] != "explore":
            continue
        shape = Shape(meta["rows"], meta["cols"])
        ex = databases.require_explorer(shape)
        rng = random.Random(1)
        boards = [Board(shape, tuple(ex.table.ranking.unrank(rng.randrange(ex.positions)))) for _ in range(200)]
        t0 = time.perf_counter()
        for b in boards:
            ex.distance(b)
            ex.moves(b)
        per_position = (time.perf_counter() - t0) / len(boards)
        times = []
        for d in range(ex.radius + 1):
            t0 = time.perf_counter()
            for _ in range(3):
                ex.random_at(d, rng)
            times.append(((time.perf_counter() - t0) / 3, d))
        worst = max(times)
        out["tables"][str(shape)] = {
            "load_s": round(load, 3),
            "distance_and_moves_ms": round(per_position * 1e3, 3),
            "random_mean_ms": round(sum(t for t, _ in times) / len(times) * 1e3, 2),
            "random_worst_ms": round(worst[0] * 1e3, 2),
            "random_worst_distance": worst[1],
        }
    if databases.explorer(Shape(3, 3)):
        hinter = Hinter()
        rng = random.Random(2)
        ex = databases.require_explorer(Shape(3, 3))
        boards = [Board(Shape(3, 3), tuple(ex.table.ranking.unrank(rng.randrange(ex.positions)))) for _ in range(200)]
        t0 = time.perf_counter()
        for b in boards:
            hinter.hint(b, all_moves=True)
        out["hint_3x3_ms"] = round((time.perf_counter() - t0) / len(boards) * 1e3, 3)
    if "pdb663" in databases.pattern_databases:
        korf55 = Board.from_tiles([int(x) for x in "5 10 14 4 6 12 11 1 9 0 15 7 13 2 8 3".split()])
        hinter = Hinter()
        t0 = time.perf_counter()
        first = hinter.hint(korf55, all_moves=True)
        t1 = time.perf_counter()
        assert first.next is not None
        nxt = hinter.hint(korf55.slide(first.next.tile))
        t2 = time.perf_counter()
        out["hint_4x4_korf55"] = {
            "distance": first.distance,
            "first_all_s": round(t1 - t0, 3),
            "nodes": first.nodes,
            "following_ms": round((t2 - t1) * 1e3, 3),
            "source_then": nxt.source,
        }
    return out


def run_json(files, read) -> str:
    return json.dumps(run(list(files), read), indent=1)


if __name__ == "__main__":
    print(json.dumps(run(sys.argv[1:]), indent=1))
