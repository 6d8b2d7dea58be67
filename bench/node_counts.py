#!/usr/bin/env python3
"""Node counts per instance and per iteration (a regression record, not a timing).

    PYTHONPATH=py python3 bench/node_counts.py --bound pdb663 > counts.tsv
    PYTHONPATH=py python3 bench/node_counts.py --bound pdb663 --check data/korf100-pdb663-nodes.tsv
    PYTHONPATH=py python3 bench/node_counts.py --bound pdb663 --goal blank-first --check data/korf100-pdb663-nodes.tsv

Prints one line per instance: id, optimal length found, total nodes, nodes per iteration
(``bound:nodes``) and the solution (tiles moved), tab-separated.  With ``--check FILE`` it
compares every line with FILE (same format, ``#`` comments ignored) and exits 1 on any
difference: a change of the inner loops that keeps the search identical passes.

With ``--goal blank-first`` each instance is solved as Korf published it, towards the goal
``0 1 2 ... 15`` (the instance rotated 180 degrees, tile t renumbered 16 - t: the inverse of
the conversion of data/README.md); the solver maps it onto the standard goal, and the
solution it gives back (in the blank-first numbering) is renumbered t -> 16 - t on the line, so
that ``--check`` against the standard goal's record shows whether the two searches are the same.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "data"))  # the instances and their reader
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "py"))

import instances as instance_files  # noqa: E402
from fifteen import Board, Shape, solve  # noqa: E402
from fifteen.bounds import databases  # noqa: E402


def blank_first(tiles) -> tuple[int, ...]:
    """A standard-goal 4x4 position as the blank-first goal's (rotate 180 degrees, t -> 16 - t)."""
    return tuple(16 - t if t else 0 for t in reversed(tiles))


def line(inst, bound: str, goal: str | None = None) -> str:
    if goal is None:
        sol = solve(Board.from_tiles(inst.tiles), bound)
        moved = sol.tiles
    else:
        board = Board.from_tiles(blank_first(inst.tiles), target=goal)
        sol = solve(board, bound)
        assert board.solves(sol.tiles), inst.id
        moved = [16 - t for t in sol.tiles]  # in the standard instance's numbering
    r = sol.result
    iterations = " ".join(f"{it.bound}:{it.nodes}" for it in r.iterations)
    return f"{inst.id}\t{sol.length}\t{r.nodes}\t{iterations}\t{' '.join(map(str, moved))}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bound", default="pdb663")
    ap.add_argument("--set", default="korf100", choices=["korf100", "hard"])
    ap.add_argument("--first", type=int, help="only the first N instances")
    ap.add_argument("--db", help="database directory (default: the checkout's static/db)")
    ap.add_argument("--check", help="compare with this file; exit 1 on a difference")
    ap.add_argument("--goal", choices=["blank-first"], help="solve the 4x4 instances towards this goal (see above)")
    args = ap.parse_args()
    instances = instance_files.read(f"{args.set}.tsv")[: args.first]
    databases.ensure_for(Shape(4, 4), args.db)
    want = {}
    if args.check:
        for text in Path(args.check).read_text().splitlines():
            if text.strip() and not text.startswith("#"):
                want[text.split("\t", 1)[0]] = text
    differ = total = 0
    for inst in instances:
        got = line(inst, args.bound, args.goal)
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
