"""Command line: ``python -m fifteen solve|bounds|compare|explain|trace "<tiles>" [options]``, ``python -m fifteen loops --bound B``.

Bad input prints the precise error and exits with status 2 (never a traceback).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from . import assets, lab_cli
from .board import Board, Shape
from .errors import FifteenError
from .ida import Progress
from .solver import available_bounds, bound_info, bound_values, solve, summary

BOUND_CHOICES = ["auto", "pdb78", "pdb663", "pdb555", "wdid", "wd", "id", "lc", "md"]


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="fifteen", description="Optimal sliding-tile puzzle solver (IDA*).")
    sub = p.add_subparsers(dest="command", required=True)
    for name, helptext in (("solve", "find a shortest solution"), ("bounds", "show the lower bounds of a position")):
        sp = sub.add_parser(name, help=helptext)
        sp.add_argument("tiles", help='the position row by row, e.g. "1 5 9 13 2 6 10 14 3 7 11 15 4 8 12 0" (blank: 0, _ or .)')
        sp.add_argument("--shape", help="RxC, e.g. 3x4 (inferred for 9, 16 or 25 tiles)")
        sp.add_argument("--db", help="directory of the database assets (default: $FIFTEEN_DB, else the checkout's static/db)")
        sp.add_argument("--json", action="store_true", help="print one JSON object")
        if name == "solve":
            sp.add_argument("--bound", default="auto", choices=BOUND_CHOICES, help="lower bound (default: auto, the strongest available)")
            sp.add_argument("--quiet", "-q", action="store_true", help="no per-iteration lines while searching")
    sp = sub.add_parser("loops", help="print the generated source of a bound's IDA* inner loop")
    sp.add_argument("--bound", required=True, choices=BOUND_CHOICES[1:])
    sp.add_argument("--shape", default="4x4", help="RxC (default 4x4)")
    lab_cli.add_parsers(sub)  # compare, explain, trace (the heuristic lab)
    return p


def _fmt_nodes(n: int) -> str:
    return f"{n:,}"


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.command in lab_cli.COMMANDS:
            return lab_cli.run(args)
        if args.command == "loops":
            print(bound_info(args.bound).loop_source(Shape.parse(args.shape)), end="")
            return 0
        if args.db:
            assets.use_directory(args.db)  # else $FIFTEEN_DB or the checkout's static/db
        board = Board.parse(args.tiles, args.shape)
        values = bound_values(board)
        if args.command == "bounds":
            if args.json:
                print(json.dumps({"shape": str(board.shape), "tiles": list(board.tiles), "bounds": values, "summary": summary(values)}))
            else:
                print(board)
                print(summary(values))
            return 0
        return _solve(board, args, values)
    except FifteenError as exc:  # InputError, AssetError: a message for a person
        print(f"fifteen: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("fifteen: interrupted", file=sys.stderr)
        return 130


def _solve(board: Board, args, values: dict) -> int:
    def progress(p: Progress) -> None:
        if p.done:
            it = p.iterations[-1]
            rate = it.nodes / it.seconds if it.seconds > 0 else 0
            print(f"  bound {it.bound}: {_fmt_nodes(it.nodes)} nodes, {it.seconds:.2f} s ({rate:,.0f} nodes/s)", file=sys.stderr)

    if not args.json:
        print(board)
        print(summary(values))
    show = not args.json and not args.quiet
    sol = solve(board, args.bound, progress=progress if show else None)
    r = sol.result
    rate = r.nodes / r.seconds if r.seconds > 0 else 0.0
    if args.json:
        print(
            json.dumps(
                {
                    "shape": str(board.shape),
                    "tiles": list(board.tiles),
                    "bound": sol.bound,
                    "length": sol.length,
                    "moves": sol.tiles,
                    "directions": sol.directions,
                    "nodes": r.nodes,
                    "setup_seconds": round(r.setup_seconds, 4),
                    "seconds": round(r.seconds, 4),
                    "cpu_seconds": round(r.cpu_seconds, 4),
                    "nodes_per_second": round(rate),
                    "iterations": [{"bound": it.bound, "nodes": it.nodes, "seconds": round(it.seconds, 4)} for it in r.iterations],
                    "bounds": values,
                }
            )
        )
        return 0
    print(f"bound used: {sol.bound} (available: {', '.join(available_bounds(board.shape))})")
    print(f"optimal length: {sol.length}")
    print(f"tiles moved:    {' '.join(map(str, sol.tiles))}")
    print(f"blank moves:    {sol.directions}")
    print("nodes per iteration: " + ", ".join(f"{it.bound}:{_fmt_nodes(it.nodes)}" for it in r.iterations))
    print(f"total nodes: {_fmt_nodes(r.nodes)}  time: {r.seconds:.3f} s  ({rate:,.0f} nodes/s)  set-up: {r.setup_seconds:.3f} s")
    return 0
