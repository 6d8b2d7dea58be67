"""Big boards against DeepCubeA (bench/anytime.md): the anytime search's lengths on 5x5, 6x6 and
7x7 positions at CPU-time marks, beside DeepCubeA's published lengths on the same positions.

    PYTHONPATH=py python3 bench/bigboards.py [--set deepcubea|random] [--boards 5,6,7] [--count 10]
                                             [--limit 60] [--marks 1,10,60] [--out FILE]
    PYTHONPATH=py python3 bench/bigboards.py --speed      (fixed workloads: nodes per CPU second)

Sets: ``deepcubea`` (default): the first *count* test positions of each board from
``bench/data/deepcubea-test.tsv`` — DeepCubeA's own test positions (Agostinelli, McAleer,
Shmakov and Baldi, "Solving the Rubik's cube with deep reinforcement learning and search",
Nature Machine Intelligence 1, 356-363, 2019), each with DeepCubeA's solution length, and for
the 24-puzzle the optimal length; ``random``: the first *count* uniformly random positions of
each board from ``bench/data/random-boards.tsv`` (``bench/data/make_random_boards.py``; no
published length exists for them: the ratio is to the proven lower bound).

One process, one position after the other, time limits and marks in process CPU seconds (the
machine is shared); every answer and every reported improvement is replayed to the goal, every
lower bound checked <= the length (and <= the optimum where known).  Prints one row per position
(lengths at the marks, the final lower bound, nodes per CPU second of the prover and of the
improvers, the 1-minute load average at the start and end), then per board: the mean length at
each mark beside DeepCubeA's mean on the same positions (and its published mean over all of
them: 89.42 / 124.65 / 255.67), the mean lower bound, and for 5x5 the ratio to the optimum.
``--out FILE`` appends one TSV row per position (the columns of ``bench/data/bigboards-*.tsv``).

``--speed``: fixed workloads on each board's first DeepCubeA position, the same natively and in
Pyodide (``node bench/bigboards_pyodide.mjs``, which calls :func:`speed`): the prover's IDA*
(the board's strongest bound, ``auto``) for :data:`SPEED_NODES` nodes; window searches of 50
moves every 10 moves (MD + LC) along the width-256 beam's path (the
decomposition's on 7x7), at most a million nodes each; a beam of width 1024 (on 7x7 the stage
beam, width 512), its CPU seconds.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

from fifteen.anytime import anytime_solve
from fifteen.board import Board, Shape

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "bench" / "data"
#: DeepCubeA's published mean lengths over all its test positions (its results files; the paper's).
DEEPCUBEA_MEANS = {5: 89.42, 6: 124.65, 7: 255.67}
COLUMNS = [
    "set",
    "id",
    "board",
    "deepcubea",
    "optimal",
    "limit",
    "marks",
    "lengths",
    "lower_bound",
    "prover_nodes",
    "improver_nodes",
    "cpu_seconds",
    "load",
]


def append_row(path: str, columns: list[str], row: list[str]) -> None:
    """Append *row* to the TSV file *path*, its header line (*columns*) first when the file is new."""
    new = not Path(path).exists()
    with open(path, "a") as f:
        if new:
            f.write("# " + "\t".join(columns) + "\n")
        f.write("\t".join(row) + "\n")


def read(path: Path) -> list[list[str]]:
    return [line.rstrip("\n").split("\t") for line in path.read_text().splitlines() if line.strip() and not line.startswith("#")]


def positions(which: str, sides: list[int], count: int) -> list[tuple[str, Board, int | None, int | None]]:
    """``(id, board, DeepCubeA's length or None, optimum or None)``: the first *count* of each side."""
    out: list[tuple[str, Board, int | None, int | None]] = []
    rows: list[tuple[str, str, str, int | None, int | None]]
    if which == "deepcubea":
        rows = [(r[0], r[1], r[2], int(r[3]), None if r[4] == "-" else int(r[4])) for r in read(DATA / "deepcubea-test.tsv")]
    else:
        rows = [(r[0], r[1], r[2], None, None) for r in read(DATA / "random-boards.tsv")]
    for side in sides:
        mine = [r for r in rows if r[1] == f"{side}x{side}"][:count]
        for ident, _, tiles, dca, opt in mine:
            out.append((ident, Board(Shape(side, side), tuple(int(t) for t in tiles.split())), dca, opt))
    return out


#: The prover's nodes in the speed workload.
SPEED_NODES = 2_000_000


class _Enough(Exception):
    pass


def speed(side: int, clock=time.process_time) -> dict[str, Any]:
    """The speed workloads of the *side* x *side* board (see the module docstring)."""
    from fifteen.anytime.beam import beam_search
    from fifteen.anytime.decompose import decompose_to
    from fifteen.anytime.reduce import stage_beam
    from fifteen.anytime.tables import label_tables
    from fifteen.anytime.windows import optimal_between
    from fifteen.bounds import resolve_bound
    from fifteen.search.ida import ida_star

    ident, board, _, _ = positions("deepcubea", [side], 1)[0]
    shape, tiles, goal = board.shape, list(board.tiles), list(board.target.tiles)
    out: dict[str, Any] = {"board": side, "position": ident}
    info = resolve_bound(shape, "auto")
    out["bound"] = info.name
    nodes = [0]

    def progress(p) -> None:
        nodes[0] = p.nodes
        if p.nodes >= SPEED_NODES:
            raise _Enough

    c0 = clock()
    try:
        ida_star(shape, tiles, info.factory, progress=progress, tick_nodes=1 << 14)
    except _Enough:
        pass
    out["prover_nodes"], out["prover_cpu"] = nodes[0], round(clock() - c0, 3)
    T = label_tables(shape)
    c0 = clock()
    if side <= 6:
        path = beam_search(T, tiles, goal, 1024)
        out["beam"] = "width 1024"
        out["beam_length"] = len(path) if path else -1
    else:
        path = stage_beam(shape, tiles, goal, 512)
        out["beam"] = "stage, width 512"
        out["beam_length"] = len(path) if path else -1
    out["beam_cpu"] = round(clock() - c0, 3)
    base = beam_search(T, tiles, goal, 256) if side <= 6 else decompose_to(T, tiles, goal)
    assert base is not None
    pos = [tiles]
    for s_ in base:
        b = pos[-1].index(0)
        nxt = list(pos[-1])
        nxt[b], nxt[s_] = nxt[s_], 0
        pos.append(nxt)
    total = 0
    c0 = clock()
    for i in range(0, len(base) - 50, 10):
        _, n = optimal_between(T, pos[i], pos[i + 50], 48, 1_000_000)
        total += n
    out["windows"] = f"k = 50 every 10 moves of the {'width-256 beam' if side <= 6 else 'decomposition'}'s path, MD + LC"
    out["window_nodes"], out["window_cpu"] = total, round(clock() - c0, 3)
    return out


def at(log, mark: float) -> tuple[int | None, int | None]:
    seen = [imp for imp in log if imp.seconds <= mark]
    return (seen[-1].length, seen[-1].lower_bound) if seen else (None, None)


def run_one(ident: str, board: Board, optimum: int | None, limit: float, marks: list[float], clock=time.process_time):
    """One position's anytime run of *limit* CPU seconds: (the result, the CPU seconds it took,
    the best length at each mark); every answer and improvement replayed to the goal, every lower
    bound checked against the length and the optimum where known."""
    cpu0 = clock()
    res = anytime_solve(board, time_limit=limit, clock=clock)
    cpu = clock() - cpu0
    assert res.tiles is not None and board.solves(res.tiles), ident
    for imp in res.improvements:
        assert imp.moves is not None and board.solves(imp.moves) and imp.lower_bound <= (imp.length or 0), (ident, imp)
        if optimum is not None:
            assert imp.lower_bound <= optimum <= (imp.length or 0), (ident, imp)
    return res, cpu, [at(res.improvements, m)[0] for m in marks]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--set", choices=["deepcubea", "random"], default="deepcubea")
    p.add_argument("--boards", default="5,6,7", help="board sides (default 5,6,7)")
    p.add_argument("--count", type=int, default=10, help="positions per board (default 10)")
    p.add_argument("--limit", type=float, default=60.0, help="CPU seconds per position (default 60)")
    p.add_argument("--marks", default="1,10,60", help="the marks, CPU seconds (default 1,10,60, clipped to the limit)")
    p.add_argument("--out", help="append one TSV row per position to this file")
    p.add_argument("--speed", action="store_true", help="the fixed speed workloads instead")
    p.add_argument(
        "--stage-rest-weight",
        type=int,
        help="the other tiles' weight in the stage beam's ranking, in eighths (default: reduce.REST_WEIGHT; 0: the stage's tiles alone)",
    )
    args = p.parse_args()
    if args.stage_rest_weight is not None:
        from fifteen.anytime import reduce

        reduce.REST_WEIGHT = args.stage_rest_weight
    if args.speed:
        for side in (int(s) for s in args.boards.split(",")):
            r = speed(side)
            print(
                f"{side}x{side} ({r['position']}): prover ({r['bound']}) {r['prover_nodes'] / r['prover_cpu']:,.0f} nodes/s; "
                f"{r['beam']}: {r['beam_cpu']} s; windows ({r['windows']}): {r['window_nodes']:,} nodes, "
                f"{r['window_nodes'] / max(r['window_cpu'], 1e-9):,.0f} nodes/s"
            )
        return 0
    sides = [int(s) for s in args.boards.split(",")]
    marks = [m for m in (float(x) for x in args.marks.split(",")) if m <= args.limit]
    print(f"# {args.set}, {args.count} per board, limit {args.limit:g} CPU s, marks {', '.join(f'{m:g}' for m in marks)} s")
    head = ["id", "DeepCubeA", "optimum", *(f"{m:g} s" for m in marks), "lower bound", "nodes/s (prover; improvers)", "load"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    per_board: dict[int, list[tuple]] = {}
    for ident, board, dca, opt in positions(args.set, sides, args.count):
        load0 = os.getloadavg()[0]
        res, cpu, lengths = run_one(ident, board, opt, args.limit, marks)
        rates = f"{res.prover_nodes / cpu:,.0f}; {res.improver_nodes / cpu:,.0f}" if cpu > 0 else "-"
        load = f"{load0:.1f}-{os.getloadavg()[0]:.1f}"
        cells = [
            ident,
            str(dca or "-"),
            str(opt or "-"),
            *(str(x) if x is not None else "-" for x in lengths),
            str(res.lower_bound),
            rates,
            load,
        ]
        print("| " + " | ".join(cells) + " |", flush=True)
        side = board.shape.rows
        per_board.setdefault(side, []).append((dca, opt, lengths, res.lower_bound, res.prover_nodes, res.improver_nodes, cpu))
        if args.out:
            row = [
                args.set,
                ident,
                str(board.shape),
                str(dca or "-"),
                str(opt or "-"),
                f"{args.limit:g}",
                ",".join(f"{m:g}" for m in marks),
            ]
            row += [
                ",".join(str(x) for x in lengths),
                str(res.lower_bound),
                str(res.prover_nodes),
                str(res.improver_nodes),
                f"{cpu:.1f}",
                load,
            ]
            append_row(args.out, COLUMNS, row)
    print()
    for side, rows in per_board.items():
        n = len(rows)
        means = [sum(r[2][i] for r in rows) / n for i in range(len(marks))]
        line = f"{side}x{side}, {n} positions: mean length " + ", ".join(f"{m:.2f} at {mk:g} s" for m, mk in zip(means, marks, strict=True))
        line += f"; mean lower bound {sum(r[3] for r in rows) / n:.2f}"
        if all(r[0] is not None for r in rows):
            dca = sum(r[0] for r in rows) / n
            line += f"; DeepCubeA {dca:.2f} on them ({DEEPCUBEA_MEANS[side]} over all its test positions)"
            line += "; ratio " + ", ".join(f"{m / dca:.3f}" for m in means)
        if all(r[1] is not None for r in rows):
            opt = sum(r[1] for r in rows) / n
            line += f"; optimum {opt:.2f}, ratio " + ", ".join(f"{m / opt:.4f}" for m in means)
        cpu = sum(r[6] for r in rows)
        line += f"; nodes per CPU second: prover {sum(r[4] for r in rows) / cpu:,.0f}, improvers {sum(r[5] for r in rows) / cpu:,.0f}"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
