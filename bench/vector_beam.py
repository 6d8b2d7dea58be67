"""The beam in numpy against the pure Python beam (bench/anytime.md, *The beam's layers in numpy*).

    PYTHONPATH=py python3 bench/vector_beam.py [--boards 5,6,7] [--widths 1024,4096,16384]
    PYTHONPATH=py python3 bench/vector_beam.py --numpy-only --boards 6,7 --widths 65536,262144

On the first DeepCubeA position of each board (``bench/data/deepcubea-test.tsv``), one beam of
each width towards the goal, unbounded and ranked as the anytime search ranks, run by
:mod:`fifteen.anytime.vector_beam` and by the pure loop of :mod:`fifteen.anytime.beam`: CPU
seconds of each (the tables built before), the length found, and a check that both found the very
same path. Prints a Markdown table. With ``--numpy-only`` the numpy beam alone (wide beams, where
the pure loop takes minutes), with a digest of its path: two versions of the module that print the
same digests found the very same paths.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bigboards import positions  # noqa: E402
from fifteen.anytime import beam  # noqa: E402
from fifteen.anytime.tables import label_tables  # noqa: E402


def timed(T, tiles, goal, width: int, vector: bool) -> tuple[list[int] | None, float]:
    saved = beam.VECTOR
    beam.VECTOR = saved if vector else None
    try:
        c0 = time.process_time()
        path = beam.beam_search(T, tiles, goal, width)
        return path, time.process_time() - c0
    finally:
        beam.VECTOR = saved


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--boards", default="5,6,7")
    ap.add_argument("--widths", default="1024,4096,16384")
    ap.add_argument("--numpy-only", action="store_true", help="time the numpy beam alone, with a digest of each path")
    args = ap.parse_args(argv)
    if beam.VECTOR is None:
        sys.exit("numpy is not importable here: the numpy beam does not run")
    print(f"# load {os.getloadavg()[0]:.1f}")
    if args.numpy_only:
        print("| board | position | width | length | numpy, CPU s | path digest |")
        print("|---|---|---|---|---|---|")
    else:
        print("| board | position | width | length | pure, CPU s | numpy, CPU s | speed-up |")
        print("|---|---|---|---|---|---|---|")
    for side in [int(b) for b in args.boards.split(",")]:
        ident, board, _, _ = positions("deepcubea", [side], 1)[0]
        T = label_tables(board.shape)
        tiles, goal = list(board.tiles), list(board.target.tiles)
        timed(T, tiles, goal, 256, vector=True)  # the tables of both, built once
        for width in [int(w) for w in args.widths.split(",")]:
            if args.numpy_only:
                fast, fast_s = timed(T, tiles, goal, width, vector=True)
                length = "none" if fast is None else len(fast)
                digest = hashlib.sha256(str(fast).encode()).hexdigest()[:12]
                print(f"| {side}x{side} | {ident} | {width} | {length} | {fast_s:.2f} | {digest} |", flush=True)
                continue
            pure, pure_s = timed(T, tiles, goal, width, vector=False)
            fast, fast_s = timed(T, tiles, goal, width, vector=True)
            assert fast == pure, f"{ident} width {width}: the numpy beam's path is not the pure beam's"
            length = "none" if pure is None else len(pure)
            print(f"| {side}x{side} | {ident} | {width} | {length} | {pure_s:.2f} | {fast_s:.2f} | {pure_s / fast_s:.1f} |", flush=True)
    print(f"# load {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
