"""The heuristic lab's sub-commands of ``python -m fifteen``: ``compare``, ``explain``, ``trace``.

::

    python -m fifteen compare "<tiles>" [--shape RxC] [--goal GOAL] [--bounds md,lc,...] [--budget NODES]
                              [--json | --format text|tsv|markdown] [--preset ID] [--db DIR]
    python -m fifteen explain "<tiles>" [--shape RxC] [--goal GOAL] [--json] [--db DIR]
    python -m fifteen trace "<tiles>" [--goal GOAL] [--moves "4 5 10 ..." | --moves DRUL...] [--bound NAME]
                            [--json | --format text|tsv|markdown] [--db DIR]

:func:`add_parsers` adds them to the CLI's sub-parsers, :func:`run` runs one
(errors are raised as :class:`fifteen.InputError` for the CLI to print).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from fifteen.board import Board
from fifteen.bounds import databases
from fifteen.cli.goals import add_goal_option, goal_lines
from fifteen.cli.options import whole
from fifteen.errors import InputError
from fifteen.lab.compare import (
    DEFAULT_BUDGET,
    SUMMARY_COLUMNS,
    BoundRun,
    check_budget,
    comparison_json,
    find_preset,
    format_table,
    iteration_rows,
    parse_bound_names,
    run_bound,
    summary_rows,
)
from fifteen.lab.explain import explain, trace
from fifteen.limits import MAX_MOVES, MAX_TILE_CHARS, check_text, describe
from fifteen.optimal import solve

COMMANDS = ("compare", "explain", "trace")
#: The longest ``--moves`` text read: the most moves, each a tile number and a separator.
MAX_MOVES_TEXT = MAX_MOVES * (MAX_TILE_CHARS + 1)
FORMATS = ("text", "tsv", "markdown")


def add_parsers(sub: Any) -> None:
    """Add the lab's sub-commands to an ``argparse`` sub-parsers object."""
    tiles_help = 'the position row by row, e.g. "13 6 8 12 15 14 0 10 11 7 4 5 9 1 3 2" (blank: 0, _ or .)'
    cp = sub.add_parser("compare", help="search one position with each lower bound in turn (the heuristic lab)")
    cp.add_argument("tiles", nargs="?", help=tiles_help + "; or give --preset")
    cp.add_argument("--preset", help="a position of static/data/lab-presets.json by id (korf1, transposed, h80, ...)")
    cp.add_argument("--bounds", help="comma-separated bound names (default: every available one, weakest first)")
    cp.add_argument(
        "--budget", type=whole, help=f"nodes per bound before it is stopped (default {DEFAULT_BUDGET:,}, or the preset's; 0 = no limit)"
    )
    cp.add_argument(
        "--format", choices=FORMATS, default="text", help="text: both tables; tsv, markdown: the nodes per iteration only, to copy"
    )
    ep = sub.add_parser("explain", help="take each lower bound of a position apart (WD tables, inversions, conflicts, PDB groups)")
    ep.add_argument("tiles", help=tiles_help)
    tp = sub.add_parser("trace", help="every bound at each step of a shortest solution against the moves left")
    tp.add_argument("tiles", help=tiles_help)
    tp.add_argument("--moves", help="the solution: tile numbers or blank directions (default: solve with --bound)")
    tp.add_argument("--bound", default="auto", help="bound used to find the solution when --moves is not given")
    tp.add_argument("--format", choices=FORMATS, default="text", help="table as aligned text, TSV or Markdown")
    for p in (cp, ep, tp):
        p.add_argument("--shape", help="RxC, e.g. 3x4 (inferred for 9, 16, 25, ... 100 tiles)")
        add_goal_option(p)
        p.add_argument("--db", help="directory of the database assets (default: the checkout's static/db)")
        p.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    """Run the lab sub-command *args.command*."""
    budget = getattr(args, "budget", None)
    if args.command == "compare" and args.preset:
        preset = find_preset(args.preset)
        if args.tiles:
            raise InputError("give either a position or --preset, not both", code="usage")
        board = Board.from_tiles(preset["tiles"], args.shape or preset.get("shape"), args.goal)
        if budget is None:
            budget = preset.get("budget", DEFAULT_BUDGET)
    elif not args.tiles:
        raise InputError("no position given (or use --preset)", code="usage")
    else:
        board = Board.parse(args.tiles, args.shape, args.goal)
    databases.ensure_for(board.shape, args.db)
    if args.command == "compare":
        return _compare(board, args, DEFAULT_BUDGET if budget is None else check_budget(budget))
    if args.command == "explain":
        return _explain(board, args)
    return _trace(board, args)


def _compare(board: Board, args: argparse.Namespace, budget: int | None) -> int:
    def done(run: BoundRun) -> None:
        # one line on stderr as each bound ends, so a long comparison shows it is moving
        state = f"optimal {run.length}" if run.finished else "stopped by the budget"
        print(f"  {run.name}: {run.nodes:,} nodes, {run.seconds:.2f} s, {state}", file=sys.stderr)

    text = not args.json and args.format == "text"
    runs = {}
    for name in parse_bound_names(args.bounds, board.shape, board.target):
        runs[name] = run_bound(board, name, budget=budget)
        if text:
            done(runs[name])
    if args.json:
        print(json.dumps(comparison_json(runs)))
    elif not text:  # only the per-iteration table (no timings: the same every run), to paste elsewhere
        print(format_table(*iteration_rows(runs), args.format))
    else:
        print(board)
        for line in goal_lines(board):
            print(line)
        print(f"budget: {'none' if budget is None else f'{budget:,} nodes per bound'}")
        print()
        print(format_table(SUMMARY_COLUMNS, summary_rows(runs)))
        print()
        print("nodes per iteration (threshold: the iteration's cost bound; +: stopped by the budget)")
        print(format_table(*iteration_rows(runs)))
    return 0


def _explain(board: Board, args: argparse.Namespace) -> int:
    out = explain(board)
    if args.json:
        print(json.dumps(out))
        return 0
    print(board)
    if out["frame"]:
        print(f"explained {out['frame']['description'].split(':')[0]}, with the tile numbers of that frame:")
        print(Board(board.shape, tuple(out["frame"]["tiles"])))
    md = out["md"]
    print(f"MD {md['value']}: " + " ".join(f"{t}:{d}" for t, d in enumerate(md["tiles"]) if t))
    lc = out["lc"]
    conflicts = [
        f"{line['axis']} {line['index'] + 1} {line['tiles']} keeps {line['kept']}, out {line['removed']} +{line['extra']}"
        for line in lc["lines"]
        if line["extra"]
    ]
    print(f"LC {lc['value']} = MD {md['value']} + {lc['extra']}" + (": " + "; ".join(conflicts) if conflicts else " (no conflicts)"))
    iv = out["id"]
    print(f"ID {iv['value']} = vertical {iv['vertical']['moves']} + horizontal {iv['horizontal']['moves']}")
    for axis in ("vertical", "horizontal"):
        part = iv[axis]
        print(f"  {axis}: {part['inversions']} inversions, jump {part['jump']}: {part['formula']}")
    if "wd" in out:
        wd = out["wd"]
        print(f"WD {wd['value']} = vertical {wd['vertical']['distance']} + horizontal {wd['horizontal']['distance']}")
        for axis, line, letter in (("vertical", "row", "r"), ("horizontal", "column", "c")):
            part = wd[axis]
            print(
                f"  {axis}: {line} {letter} holds k tiles whose home {line} is g"
                f" (blank in {line} {part['blank'] + 1}); {part['distance']} move{'' if part['distance'] == 1 else 's'}"
            )
            rows = [[f"{line} {r + 1}", *map(str, counts)] for r, counts in enumerate(part["counts"])]
            header = ["", *(f"g={g + 1}" for g in range(len(part["counts"])))]
            print("    " + format_table(header, rows).replace("\n", "\n    "))
        w = out["wdid"]
        print(f"WD+ID {w['value']} = max(WD, ID) vertical {w['vertical']} + horizontal {w['horizontal']}")
    for name, p in out["pdb"].items():
        reflected = p["reflected"]
        print(f"{name} {p['value']}" + (f" = max(plain {p['plain']['value']}, reflected {reflected['value']})" if reflected else ""))
        for lookup, part in (("plain", p["plain"]), ("reflected", reflected)):
            if part:
                print(f"  {lookup}: " + " + ".join(f"{g['value']} {g['tiles']}" for g in part["groups"]))
    return 0


def _trace(board: Board, args: argparse.Namespace) -> int:
    if args.moves:
        tokens = check_text(args.moves, "--moves", MAX_MOVES_TEXT).replace(",", " ").split()
        moves: list[int] | str
        if all(t.isascii() and t.isdigit() for t in tokens):
            if len(tokens) > MAX_MOVES or max(map(len, tokens), default=0) > MAX_TILE_CHARS:
                what = f"{len(tokens):,} moves" if len(tokens) > MAX_MOVES else f"a tile of {max(map(len, tokens)):,} digits"
                raise InputError(
                    f"--moves: {what}; at most {MAX_MOVES:,} tile numbers of at most {MAX_TILE_CHARS} digits are read", code="too_long"
                )
            moves = [int(t) for t in tokens]
        elif all(t.isalpha() for t in tokens):
            moves = "".join(tokens)
        else:
            raise InputError(f"--moves: give tile numbers or blank directions (U, D, L, R), not {describe(args.moves)}", code="moves")
    else:
        moves = solve(board, args.bound).tiles
    out = trace(board, moves)
    if args.json:
        print(json.dumps(out))
        return 0
    names = out["names"]
    header = ["step", "tile", "left", *names]
    rows = [
        [str(i), str(out["moves"][i - 1]) if i else "", str(out["remaining"][i]), *(str(out["values"][n][i]) for n in names)]
        for i in range(out["length"] + 1)
    ]
    if args.format == "text":
        print(board)
        for line in goal_lines(board):
            print(line)
    print(format_table(header, rows, args.format))
    return 0
