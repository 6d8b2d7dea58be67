"""The anytime search's benchmark (bench/anytime.md): what it reaches in a given time.

    PYTHONPATH=py python3 bench/anytime.py korf24 [--limit 60] [--marks 1,10,60] [--clock cpu|wall] [--ids 1,2] [--jobs N]
    PYTHONPATH=py python3 bench/anytime.py hard4 [--limit 10] [--bound lc]
    PYTHONPATH=py python3 bench/anytime.py big [--limit 5] [--seeds 1,2,3]     (random 6x6, 8x8, 10x10)
    PYTHONPATH=py python3 bench/anytime.py first [--sizes 6,8,10]            (first solutions only)

Sets: ``korf24`` (Korf and Taylor's ten 24-puzzle instances, ``bench/data/korf-taylor-24.tsv``),
``hard4`` (``data/hard.tsv``: the transposed goal and two 80-movers), ``big`` (seeded random
solvable permutations of 6x6, 8x8, 10x10).  Every solution is replayed to the goal, every
reported lower bound (and the final one) checked <= the published optimum and every length >=
it (the run stops with an error otherwise).  The time limit and the marks are in process CPU
seconds by default (``--clock cpu``: comparable on a shared machine; the first solution's wall
time is printed too).  Prints one markdown table with the 1-minute load average at the start
and end of each instance and the run's wall and CPU seconds (every process: ``--jobs N``'s workers
too); ``--out FILE`` appends one JSON line per instance (its improvement log).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from fifteen.anytime import anytime_solve
from fifteen.board import Board, Shape

ROOT = Path(__file__).resolve().parents[1]


def load() -> float:
    return os.getloadavg()[0]


def children_cpu() -> float:
    """CPU seconds of the ended child processes (the workers of ``--jobs N``, once the pool closed)."""
    import resource  # (here: Pyodide has no resource module, and bench/anytime_pyodide.mjs imports this file)

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def read_tsv(path: Path) -> list[tuple[str, str, int]]:
    out = []
    for line in path.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            fields = line.split("\t")
            out.append((fields[0], fields[1], int(fields[2])))
    return out


def random_board(size: int, seed: int) -> Board:
    """A seeded random solvable permutation of the size x size board (:meth:`fifteen.Board.random`)."""
    return Board.random(Shape(size, size), seed)


def instances(args) -> list[tuple[str, Board, int | None]]:
    if args.set == "korf24":
        rows = read_tsv(ROOT / "bench" / "data" / "korf-taylor-24.tsv")
        ids = set(args.ids.split(",")) if args.ids else None
        return [(f"KT{i}", Board.parse(t), o) for i, t, o in rows if ids is None or i in ids]
    if args.set == "hard4":
        return [(i, Board.parse(t), o) for i, t, o in read_tsv(ROOT / "data" / "hard.tsv")[:3]]
    seeds = [int(s) for s in args.seeds.split(",")]
    sizes = [int(s) for s in args.sizes.split(",")]
    return [(f"{n}x{n} seed {s}", random_board(n, s), None) for n in sizes for s in seeds]


def best_at(log, mark: float) -> tuple[int | None, int | None]:
    """(best length, lower bound) reported by *mark* seconds."""
    seen = [imp for imp in log if imp.seconds <= mark]
    return (seen[-1].length, seen[-1].lower_bound) if seen else (None, None)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("set", choices=["korf24", "hard4", "big", "first"])
    p.add_argument("--limit", type=float, default=None, help="seconds per instance (default: 60 korf24, 10 hard4, 5 big)")
    p.add_argument("--marks", default=None, help="the marks of the table, seconds (default: 1,10,60 clipped to the limit)")
    p.add_argument("--clock", choices=["cpu", "wall"], default="cpu")
    p.add_argument("--ids", help="korf24: these ids only (1..10)")
    p.add_argument("--seeds", default="1,2,3")
    p.add_argument("--sizes", default="6,8,10")
    p.add_argument("--bound", default="auto", help="the prover's bound (default auto)")
    p.add_argument("--prove-share", type=float, default=0.25, help="the prover's share of the time (default 0.25)")
    p.add_argument("--jobs", type=int, default=1, help="processes (2+: fifteen.parallel.anytime_processes, wall clock)")
    p.add_argument("--out", help="append one JSON line per instance to this file")
    args = p.parse_args()
    if args.set == "first":
        args.set, args.limit = "big", 1e-6
    limit = args.limit or {"korf24": 60.0, "hard4": 10.0, "big": 5.0}[args.set]
    marks = [float(m) for m in args.marks.split(",")] if args.marks else [m for m in (1.0, 10.0) if m < limit] + [limit]
    clock = time.process_time if args.clock == "cpu" and args.jobs == 1 else time.perf_counter
    print(
        f"# {args.set}, limit {limit:g} s ({'cpu' if clock is time.process_time else 'wall'} clock), bound {args.bound}, jobs {args.jobs}"
    )
    head = ["id", "optimum", "first (length; wall / cpu s)", *(f"{m:g} s" for m in marks), "final lower bound", "stopped"]
    head += ["run (wall / cpu s, every process)", "load"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    ratios: dict[float, list[float]] = {m: [] for m in marks}
    firsts: list[float] = []
    for ident, board, optimum in instances(args):
        load0 = load()
        wall0, cpu0, kids0 = time.perf_counter(), time.process_time(), children_cpu()
        first: list[tuple[float, float]] = []

        def seen(imp, first=first, wall0=wall0, cpu0=cpu0):
            if not first:
                first.append((time.perf_counter() - wall0, time.process_time() - cpu0))

        if args.jobs > 1:
            from fifteen.parallel.anytime_processes import anytime_solve_parallel  # --jobs only

            res = anytime_solve_parallel(board, jobs=args.jobs, time_limit=limit, progress=seen, bound=args.bound)
        else:
            res = anytime_solve(board, time_limit=limit, progress=seen, bound=args.bound, clock=clock, prove_share=args.prove_share)
        assert res.tiles is not None and board.solves(res.tiles), ident
        for imp in res.improvements:
            assert imp.moves is not None and board.solves(imp.moves), ident
            if optimum is not None:
                assert imp.length is not None and imp.lower_bound <= optimum <= imp.length, (ident, imp)
        if optimum is not None:
            assert res.length is not None and res.lower_bound <= optimum <= res.length, ident
        at = [best_at(res.improvements, m) for m in marks]
        for m, (length, _) in zip(marks, at, strict=True):
            if length is not None:
                ratios[m].append(length / (optimum or res.lower_bound))
        first_length = res.improvements[0].length
        assert first_length is not None
        firsts.append(first_length / (optimum or res.lower_bound))
        fw, fc = first[0] if first else (0.0, 0.0)
        cells = [ident, str(optimum or "-"), f"{first_length}; {fw:.2f} / {fc:.2f}"]
        cells += [f"{length} (>= {low})" if length else "-" for length, low in at]
        run = f"{time.perf_counter() - wall0:.1f} / {time.process_time() - cpu0 + children_cpu() - kids0:.1f}"
        cells += [str(res.lower_bound), res.stopped, run, f"{load0:.1f}-{load():.1f}"]
        print("| " + " | ".join(cells) + " |", flush=True)
        if args.out:
            with open(args.out, "a") as f:
                f.write(
                    json.dumps({"set": args.set, "id": ident, "optimum": optimum, "first_wall": fw, "first_cpu": fc, **res.to_json()})
                    + "\n"
                )
    what = "optimum" if args.set != "big" else "lower bound"
    print(
        f"\nmean length / {what}: first {sum(firsts) / len(firsts):.3f}; "
        + "; ".join(f"at {m:g} s {sum(r) / len(r):.3f}" for m, r in ratios.items() if r)
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
