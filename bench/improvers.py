"""The parallel search's improvers at equal CPU (bench/anytime.md, *Two beam improvers* and *Noisy
improvers*): what a pool of N workers gains from its improvers, measured one process at a time.

    PYTHONPATH=py python3 bench/improvers.py [--set deepcubea|random] [--boards 6,7] [--count 9]
                                             [--jobs 5] [--limit 60] [--marks 10,30,60] [--out FILE]

A pool of *jobs* workers (``solve --anytime --jobs N``, the page's pool of N) has one prover and
the improvers of :func:`fifteen.parallel.anytime_processes.improver_roles` (with 5: beams from the
position only, beams from the target only, and two noise families).  On a machine with fewer cores
than workers the pool's own run is not the measure (its processes share the cores), so each
improver role runs here **alone**, one after the other: an
:class:`fifteen.anytime.driver.Improver` from the first solution, no prover, for *limit* seconds of
process CPU; its best length at each mark.  The pool's length at a mark is the shortest of its
improvers' (the improvers of a pool share the best path, so the pool is at least that short).
Every path an improver offers is replayed to the goal.

Positions: the first *count* of each board of ``bench/data/deepcubea-test.tsv`` (DeepCubeA's, with
its lengths; ``--set random``: ``bench/data/random-boards.tsv``), as ``bench/bigboards.py`` takes
them.  Prints one row per position (each role's lengths at the marks, then the pool's), then per
board the mean of each role and of the pool at each mark beside DeepCubeA's mean on the same
positions.  ``--out FILE`` appends one TSV row per position and role (:data:`COLUMNS`; the pool's
rows have the role ``pool``).
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from bigboards import append_row, positions
from fifteen.anytime.driver import Improver, first_solution
from fifteen.anytime.tables import label_tables
from fifteen.anytime.windows import remove_cycles
from fifteen.board import Board, tiles_along
from fifteen.parallel.anytime_processes import improver_roles

COLUMNS = ["set", "id", "board", "deepcubea", "jobs", "role", "limit", "marks", "lengths", "cpu_seconds", "load"]


def role_name(role: tuple[str, str, int]) -> str:
    """``position``, ``target``, ``both``, ``noisy1``, ``windows``...: a role as the tables name it."""
    mode, beams_from, family = role
    if mode == "windows":
        return "windows"
    return f"noisy{family}" if family else beams_from


def replay(board: Board, squares: list[int]) -> bool:
    """Whether the blank's *squares* take *board* to its goal."""
    return board.solves(tiles_along(board.shape, board.tiles, squares))


def run_role(
    board: Board, role: tuple[str, str, int], limit: float, marks: list[float], clock=time.process_time
) -> tuple[list[int], float]:
    """One improver of *role* alone on *board* for *limit* CPU seconds from the first solution: its
    best length at each mark, and the CPU seconds it took; every offered path replayed."""
    T = label_tables(board.shape)
    tiles, target = list(board.tiles), list(board.target.tiles)
    c0 = clock()
    first = remove_cycles(tiles, first_solution(T, tiles, target))
    assert replay(board, first)
    log = [(clock() - c0, len(first))]

    def offer(squares: list[int]) -> None:
        assert replay(board, squares)
        log.append((clock() - c0, len(squares)))

    mode, beams_from, family = role
    seconds = clock() - c0
    imp = Improver(T, tiles, target, first, offer, mode, clock=clock, first_seconds=seconds, beams_from=beams_from, noise_family=family)
    while not imp.done and clock() - c0 < limit:
        imp.step()
    return [min(n for t, n in log if t <= m) for m in marks], clock() - c0


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--set", choices=["deepcubea", "random"], default="deepcubea")
    p.add_argument("--boards", default="6,7", help="board sides (default 6,7)")
    p.add_argument("--count", type=int, default=9, help="positions per board (default 9)")
    p.add_argument("--jobs", type=int, default=5, help="the pool's workers, the prover included (default 5)")
    p.add_argument("--limit", type=float, default=60.0, help="CPU seconds per improver (default 60)")
    p.add_argument("--marks", default="10,30,60", help="the marks, CPU seconds (default 10,30,60, clipped to the limit)")
    p.add_argument("--out", help="append one TSV row per position and role to this file")
    args = p.parse_args()
    roles = improver_roles(args.jobs)
    if not roles:
        p.error("--jobs must be at least 2 (one prover and an improver)")
    names = [role_name(r) for r in roles]
    marks = [m for m in (float(x) for x in args.marks.split(",")) if m <= args.limit]
    sides = [int(s) for s in args.boards.split(",")]
    print(f"# {args.set}, {args.count} per board, a pool of {args.jobs}: {', '.join(names)}; {args.limit:g} CPU s each")
    head = ["id", "DeepCubeA", *names, "pool"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    means: dict[int, list[tuple[int | None, list[list[int]]]]] = {}
    for ident, board, dca, _opt in positions(args.set, sides, args.count):
        per_role = []
        for role, name in zip(roles, names, strict=True):
            load0 = os.getloadavg()[0]
            lengths, cpu = run_role(board, role, args.limit, marks)
            per_role.append(lengths)
            if args.out:
                write(args, [ident, str(board.shape), str(dca or "-"), name, lengths, cpu, f"{load0:.1f}-{os.getloadavg()[0]:.1f}"], marks)
        pool = [min(r[i] for r in per_role) for i in range(len(marks))]
        if args.out:
            write(args, [ident, str(board.shape), str(dca or "-"), "pool", pool, None, "-"], marks)
        cells = [ident, str(dca or "-"), *(" / ".join(map(str, r)) for r in [*per_role, pool])]
        print("| " + " | ".join(cells) + " |", flush=True)
        means.setdefault(board.shape.rows, []).append((dca, [*per_role, pool]))
    print()
    for side, rows in means.items():
        n = len(rows)
        print(f"{side}x{side}, {n} positions, mean length at {' / '.join(f'{m:g}' for m in marks)} s:")
        for k, name in enumerate([*names, "pool"]):
            line = " / ".join(f"{sum(r[1][k][i] for r in rows) / n:.2f}" for i in range(len(marks)))
            print(f"  {name}: {line}")
        known = [r[0] for r in rows if r[0] is not None]
        if len(known) == n:
            dca_mean = sum(known) / n
            pool_last = sum(r[1][-1][-1] for r in rows) / n
            print(f"  DeepCubeA {dca_mean:.2f} on them; the pool at {marks[-1]:g} s {pool_last / dca_mean:.3f} x")
    return 0


def write(args: argparse.Namespace, cells: list, marks: list[float]) -> None:
    ident, board, dca, name, lengths, cpu, load = cells
    row = [args.set, ident, board, dca, str(args.jobs), name, f"{args.limit:g}", ",".join(f"{m:g}" for m in marks)]
    row += [",".join(map(str, lengths)), "-" if cpu is None else f"{cpu:.1f}", load]
    append_row(args.out, COLUMNS, row)


if __name__ == "__main__":
    sys.exit(main())
