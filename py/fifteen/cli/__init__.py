"""Command line: ``python -m fifteen solve|bounds|hint|compare|explain|trace "<tiles>" [--goal GOAL] [options]``,
``python -m fifteen explore SHAPE``, ``python -m fifteen loops --bound B``, ``python -m fifteen schema``,
``python -m fifteen db status|fetch|build|path`` (the databases: :mod:`fifteen.cli.assets`)
(the JSON API's methods, parameters and error codes, :func:`fifteen.schema.schema`),
``python -m fifteen batch FILE [options]`` (:mod:`fifteen.batch`); ``solve --jobs N`` searches
with N processes (:mod:`fifteen.parallel.processes`).

Bad input prints the precise error on one line and exits with status 2, never a traceback
(:func:`fifteen.cli.guard.guard_cli`; argparse's own errors too, through :class:`ArgumentParser`).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import NoReturn

from fifteen.board import Board, Goal, Shape, is_goal_name
from fifteen.bounds import available_bounds, bound_info, bound_infos, bound_values, bounds_json, databases
from fifteen.cli import anytime as anytime_cli
from fifteen.cli import assets, lab
from fifteen.cli.goals import GOAL_HELP, add_goal_option, goal_lines, print_position
from fifteen.cli.guard import UsageError, guard_cli, interruption, quiet_stdout
from fifteen.cli.options import check_count, seconds, whole
from fifteen.errors import FifteenError
from fifteen.limits import clip_tokens
from fifteen.optimal import solve
from fifteen.schema import schema
from fifteen.search.estimate import Estimate, estimate, rough_range
from fifteen.search.ida import Progress

#: ``--db``: the search order of the database directory (:func:`fifteen.bounds.databases.default_directory`).
DB_HELP = "directory of the databases (default: $FIFTEEN_DB, else the checkout's static/db, else the user cache: fifteen db status)"

#: ``--bound``: ``auto`` and every bound of the registry (:func:`fifteen.bounds.bound_infos`), strongest first.
BOUND_CHOICES = ["auto"] + [b.name for b in bound_infos()]


class ArgumentParser(argparse.ArgumentParser):
    """argparse whose errors raise :class:`~fifteen.cli.guard.UsageError` (one line, exit status 2, by
    :func:`~fifteen.cli.guard.guard_cli`).  Here, not in :mod:`fifteen.limits`, which the browser's
    worker imports: argparse alone takes ~0.1 s to import in Pyodide, a third of the solver's
    install (tools/web_bench.py --startup)."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{clip_tokens(message)} (see {self.prog} --help)")


def _parser() -> argparse.ArgumentParser:
    p = ArgumentParser(prog="fifteen", description="Optimal sliding-tile puzzle solver (IDA*).")
    sub = p.add_subparsers(dest="command", required=True)
    for name, helptext in (("solve", "find a shortest solution"), ("bounds", "show the lower bounds of a position")):
        sp = sub.add_parser(name, help=helptext)
        sp.add_argument("tiles", help='the position row by row, e.g. "1 5 9 13 2 6 10 14 3 7 11 15 4 8 12 0" (blank: 0, _ or .)')
        sp.add_argument("--shape", help="RxC, e.g. 3x4 (inferred for 9, 16, 25, ... 100 tiles)")
        add_goal_option(sp)
        sp.add_argument("--db", help=DB_HELP)
        sp.add_argument("--json", action="store_true", help="print one JSON object")
        if name == "solve":
            sp.add_argument(
                "--bound",
                default=None,
                choices=BOUND_CHOICES,
                help="lower bound of an optimal search (default: auto, the strongest)",
            )
            sp.add_argument("--quiet", "-q", action="store_true", help="no per-iteration lines while searching")
            sp.add_argument("--jobs", "-j", type=whole, default=1, help="worker processes (default 1; 0: every core)")
            _add_stall_option(sp)
            anytime_cli.add_options(sp)
    _add_batch_parser(sub)
    sp = sub.add_parser("loops", help="print the generated source of a bound's IDA* inner loop")
    sp.add_argument("--bound", required=True, choices=BOUND_CHOICES[1:])
    sp.add_argument("--shape", default="4x4", help="RxC (default 4x4)")
    lab.add_parsers(sub)  # compare, explain, trace (the heuristic lab)
    _explorer_parsers(sub)
    sub.add_parser("schema", help="print the JSON API's methods, parameters, error types and error codes as JSON")
    assets.add_parsers(sub)  # fifteen db status|fetch|build|path
    return p


# ----------------------------------------------------------------- explorer and hints
def _explorer_parsers(sub) -> None:
    sp = sub.add_parser("explore", help="exact distances on a small board (3x3, 2x4, 2x5, ...; 3x4, 2x6 with their packs)")
    sp.add_argument("shape", help="RxC, e.g. 3x3")
    sp.add_argument("--histogram", action="store_true", help="the number of positions at each distance")
    sp.add_argument("--hardest", action="store_true", help="the positions farthest from the goal")
    sp.add_argument("--random-at", type=whole, metavar="D", help="a uniformly random position exactly D moves from the goal")
    sp.add_argument("--seed", type=whole, help="seed of --random-at")
    sp.add_argument("--position", metavar="TILES", help="the exact distance and every move of this position")
    sp.add_argument("--db", help=DB_HELP)
    sp.add_argument("--json", action="store_true", help="print one JSON object")
    sp = sub.add_parser("hint", help="the next optimal move (from the explorer's table, else one solve)")
    sp.add_argument("tiles", help="the position row by row (blank: 0, _ or .)")
    sp.add_argument("--shape", help="RxC, e.g. 3x4 (inferred for 9, 16, 25, ... 100 tiles)")
    add_goal_option(sp)
    sp.add_argument("--all", action="store_true", help="every optimal move (without a table: one bounded search per other move)")
    sp.add_argument("--budget", type=whole, default=None, help="search nodes per other move with --all (default 2,000,000)")
    sp.add_argument("--bound", default="auto", choices=BOUND_CHOICES, help="lower bound of the searches (default: auto)")
    sp.add_argument("--db", help=DB_HELP)
    sp.add_argument("--json", action="store_true", help="print one JSON object")


def _call(method: str, params: dict) -> dict:
    """A call of the JSON API (the explore and hint commands, which answer as the page does)."""
    from fifteen import api  # these commands only: ~10 ms of every command's start-up (see _jobs)

    reply = json.loads(api.call(method, json.dumps(params)))
    if not reply["ok"]:
        raise FifteenError(reply["error"]["message"], code=reply["error"]["code"])
    return reply["result"]


def _moves_text(moves: list[dict]) -> str:
    return ", ".join(f"{m['tile']} ({m['direction']})" for m in moves) or "none (the goal)"


def _explore(args) -> int:
    shape = Shape.parse(args.shape)
    databases.ensure_for(shape, args.db, explorer=True)
    info = _call("explore_info", {"shape": str(shape)})
    out: dict = {"shape": info["shape"], "positions": info["positions"], "radius": info["radius"], "hardest_count": info["hardest_count"]}
    show_all = not (args.histogram or args.hardest or args.random_at is not None or args.position)
    if args.histogram or show_all:
        out["histogram"] = info["histogram"]
    if args.hardest:
        out["hardest"] = info["hardest"]
    if args.random_at is not None:
        params = {"shape": str(shape), "distance": args.random_at}
        if args.seed is not None:
            params["seed"] = args.seed
        out["random"] = _call("explore_random", params)
    if args.position:
        out["position"] = _call("explore_position", {"text": args.position, "shape": str(shape)})
    if args.json:
        print(json.dumps(out))
        return 0
    via = f" (the {info['table_shape']} table, transposed)" if info["transposed"] else ""
    print(f"{shape}: {info['positions']:,} positions, radius {info['radius']} ({info['hardest_count']} at it){via}")
    if "histogram" in out:
        width = len(f"{max(info['histogram']):,}")
        for d, count in enumerate(info["histogram"]):
            print(f"{d:4} {count:>{width},}")
    for tiles in out.get("hardest", []):
        print(Board(shape, tuple(tiles)).text())
    if "random" in out:
        r = out["random"]
        print(f"random position at distance {r['distance']} (seed {r['seed']}): {' '.join(map(str, r['tiles']))}")
    if "position" in out:
        pos = out["position"]
        print(Board(shape, tuple(pos["tiles"])))
        print(f"distance: {pos['distance']}")
        print(f"optimal moves: {_moves_text(pos['optimal'])}")
        print("every move: " + ", ".join(f"{m['tile']} ({m['direction']}) -> {m['distance']}" for m in pos["moves"]))
    return 0


def _hint(board: Board, args) -> int:
    check_count(args.budget, "--budget")
    databases.ensure_for(board.shape, args.db, explorer=True)
    params: dict = {
        "tiles": list(board.tiles),
        "shape": str(board.shape),
        "goal": list(board.target.tiles),
        "all": args.all,
        "bound": args.bound,
    }
    if args.budget is not None:
        params["budget"] = args.budget
    h = _call("hint", params)
    if args.json:
        print(json.dumps(h))
        return 0
    print(board)
    for line in goal_lines(board):
        print(line)
    nxt = h["next"]
    print(f"distance: {h['distance']} ({'explorer table' if h['source'] == 'table' else 'solved'})")
    print(f"next optimal move: {_moves_text([nxt] if nxt else [])}")
    if args.all:
        print(f"all optimal moves: {_moves_text(h['optimal'])}")
        if h["undecided"]:
            print(f"undecided (budget exhausted): {_moves_text(h['undecided'])}")
    return 0


def _fmt_nodes(n: int) -> str:
    return f"{n:,}"


@guard_cli
def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.command in lab.COMMANDS:
            return lab.run(args)
        if args.command == "loops":
            print(bound_info(args.bound).loop_source(Shape.parse(args.shape)), end="")
            return 0
        if args.command == "schema":
            print(json.dumps(schema(), indent=1))
            return 0
        if args.command == "db":
            return assets.run(args)
        if args.command in ("solve", "batch"):
            _check_numbers(args)  # before any database is read: a bad --jobs is refused at once
        if args.db:
            databases.use_directory(args.db)  # else $FIFTEEN_DB or the checkout's static/db
        if args.command == "explore":
            return _explore(args)
        if args.command == "batch":
            return _batch(args)
        board = Board.parse(args.tiles, args.shape, args.goal)
        if args.command == "hint":
            return _hint(board, args)
        values = bound_values(board)
        if args.command == "bounds":
            if args.json:
                print(json.dumps(bounds_json(board, values)))
            else:
                print_position(board, values)
            return 0
        return _solve(board, args, values)
    except FifteenError as exc:  # InputError, AssetError: a message for a person
        print(f"fifteen: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM (fifteen.cli.guard.Terminated)
        word, status = interruption(exc)
        print(f"fifteen: {word}", file=sys.stderr)
        return status


def estimate_lines(e: Estimate | None, rate: float) -> list[str]:
    """What the command line says after a finished iteration (``fifteen.search.estimate``): the
    next iteration's time (with ``--anytime`` offered when it is long), or that the optimal
    search is out of reach here; the whole search's near the board's longest optimum, when that
    is known."""
    if e is None or rate <= 0:
        return []
    low, high = (e.seconds(n, 0, rate) for n in e.running)
    anytime = "--anytime answers in seconds with a proven lower bound"
    if e.out_of_reach(0, rate):
        return [f"the optimal search is out of reach here: bound {e.bound} alone needs {rough_range(low, high)} at this rate; {anytime}"]
    lines = []
    if not e.last:
        offer = f"; {anytime}" if e.slow(0, rate) else ""
        lines.append(f"bound {e.bound}, if it holds no solution: {rough_range(low, high)} at this rate{offer}")
    if e.whole is not None:
        soon, late = (e.seconds(n, 0, rate) for n in e.whole)
        lines.append(
            f"the whole search, if the shortest solution has {e.longest} moves (the most this position can need): "
            f"{rough_range(soon, late)} more at this rate; sooner if it has fewer"
        )
    return lines


def _solve(board: Board, args, values: dict) -> int:
    if anytime_cli.wanted(args, board.shape.size, values["lb"]):
        return anytime_cli.solve(board, args, values, args.workers, args.stall)

    longest = databases.longest_optimum(board.shape, board.target)

    def progress(p: Progress) -> None:
        if p.done:
            it = p.iterations[-1]
            rate = it.nodes / it.seconds if it.seconds > 0 else 0
            print(f"  bound {it.bound}: {_fmt_nodes(it.nodes)} nodes, {it.seconds:.2f} s ({rate:,.0f} nodes/s)", file=sys.stderr)
            if not p.found:
                for line in estimate_lines(estimate(p.iterations, longest), rate):
                    print(f"  {line}", file=sys.stderr)

    if not args.json:
        print_position(board, values)
    show = not args.json and not args.quiet
    sol = _solve_jobs(board, args.bound or "auto", args.workers, progress if show else None, args.stall)
    r = sol.result
    if args.json:
        print(json.dumps(sol.to_json(values)))
        return 0
    print(f"bound used: {sol.bound} (available: {', '.join(available_bounds(board.shape, board.target))})")
    print(f"optimal length: {sol.length}")
    print(f"tiles moved:    {' '.join(map(str, sol.tiles))}")
    print(f"blank moves:    {sol.directions}")
    print("nodes per iteration: " + ", ".join(f"{it.bound}:{_fmt_nodes(it.nodes)}" for it in r.iterations))
    print(f"total nodes: {_fmt_nodes(r.nodes)}  time: {r.seconds:.3f} s  ({r.nodes_per_second:,} nodes/s)  set-up: {r.setup_seconds:.3f} s")
    figures = r.to_json()
    if "workers" in figures:  # a parallel search's (solve --jobs N)
        print(f"workers: {figures['workers']}, nodes per worker: " + ", ".join(_fmt_nodes(n) for n in figures["worker_nodes"]))
    return 0


# ---------------------------------------------------------------- parallel solve and batches
# The native process pool (fifteen.parallel.processes, multiprocessing) and batches are imported by
# the commands that use them, solve and batch (the JSON API by explore and hint): with them every
# command would take ~35 ms (~10 ms) longer to start (python -X importtime, best of 11).
def _jobs(jobs: int) -> int:
    """``--jobs``: 0 is every core; negative is an input error."""
    from fifteen.parallel.processes import resolve_jobs  # solve and batch only (see above)

    return resolve_jobs(jobs)


def _solve_jobs(board: Board, bound: str, jobs: int, progress, stall_seconds: float | None):
    """``solve --jobs N``: the serial search for 1, else a pool of N processes."""
    if jobs == 1:
        return solve(board, bound, progress=progress)
    from fifteen.parallel.processes import solve_parallel  # solve --jobs only (see above)

    return solve_parallel(board, bound, jobs=jobs, progress=progress, stall_seconds=stall_seconds)


def _check_numbers(args) -> None:
    """``solve`` and ``batch``: ``--jobs``, ``--stall-seconds`` and ``--time-limit`` checked
    against their ranges (before anything is read or started); the pool's size and stall
    seconds kept as ``args.workers`` and ``args.stall``."""
    args.workers = _jobs(args.jobs)
    args.stall = _stall_seconds(args)
    if args.time_limit is not None:
        anytime_cli.time_limit(args)


def _add_stall_option(sp) -> None:
    sp.add_argument(
        "--stall-seconds",
        type=seconds,
        default=None,
        metavar="S",
        help="end a worker process that shows no progress for S seconds and give its work to another (default 60; 0: never)",
    )


def _stall_seconds(args) -> float | None:
    """``--stall-seconds``: the pool's *stall_seconds* (None: never)."""
    from fifteen.parallel.processes import STALL_SECONDS, resolve_stall_seconds  # solve and batch only (see above)

    return resolve_stall_seconds(STALL_SECONDS if args.stall_seconds is None else args.stall_seconds)


def _add_batch_parser(sub) -> None:
    sp = sub.add_parser("batch", help="solve many positions (one per line), one JSON line each as it finishes")
    sp.add_argument("file", help="positions, one per line; # comments; an optional id first, then a tab")
    sp.add_argument("--jobs", "-j", type=whole, default=0, help="worker processes (default 0: every core)")
    sp.add_argument("--out", "-o", help="append the JSON lines to this file and skip the ids already in it (resume)")
    sp.add_argument("--bound", default=None, choices=BOUND_CHOICES, help="lower bound (default: auto); an optimal search")
    sp.add_argument("--shape", help="RxC, for positions whose shape cannot be inferred")
    sp.add_argument("--goal", help=GOAL_HELP + "; every position's")
    sp.add_argument("--db", help=DB_HELP)
    sp.add_argument("--dask", metavar="ADDRESS", help="run on a Dask cluster: tcp://host:8786, or local (a LocalCluster)")
    sp.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    _add_stall_option(sp)
    anytime_cli.add_options(sp)


def _batch(args) -> int:
    from fifteen import batch  # the batch command only (see above)

    if args.shape:
        shape = Shape.parse(args.shape)  # a bad shape (or goal) is an error of the command, not of every line
        if args.goal:
            Board.goal(shape, args.goal)
    elif args.goal and not is_goal_name(args.goal):
        Goal.parse(args.goal)  # tiles: checked as a goal of the shape their count gives (an empty batch too)
    items = batch.read_items(args.file)
    if not args.out:
        return _run_batch(args, items, 0)
    with batch.OutputLock(args.out):  # one run per output: a second one stops here (status 2)
        resume = batch.resume_from(args.out)
        skipped = sum(item.id in resume.done for item in items)
        if resume.retried and not args.quiet:
            shown = ", ".join(resume.retried[:5]) + (", ..." if len(resume.retried) > 5 else "")
            count = len(resume.retried)
            print(
                f"batch: {count} position{'s' * (count != 1)} whose line was an error not of its input (a worker that died,"
                f" a damaged database, an internal error) {'are' if count != 1 else 'is'} run again: {shown}",
                file=sys.stderr,
            )
        return _run_batch(args, [item for item in items if item.id not in resume.done], skipped)


def _run_batch(args, items: list, skipped: int) -> int:
    from fifteen import batch  # the batch command only (see above)

    jobs, stall_seconds = args.workers, args.stall
    output = batch.Output(args.out)  # cannot be opened: an OutputError, status 2
    bar = None if args.quiet else batch.ProgressBar(len(items), skipped=skipped)
    client = None
    try:
        client = batch.dask_client(args.dask, jobs) if args.dask else None
        solved, errors = batch.run_batch(
            items,
            output.write,
            jobs=jobs,
            shape=args.shape,
            bound=args.bound,
            client=client,
            progress=bar,
            stall_seconds=stall_seconds,
            goal=args.goal,
            time_limit=anytime_cli.time_limit(args) if args.anytime or args.time_limit is not None else None,
        )
    except KeyboardInterrupt as exc:  # Ctrl-C or SIGTERM: the workers are ended, the lines written kept
        if bar is not None:
            bar.close()
        word, status = interruption(exc)
        kept = f"; the finished results are in {args.out}: run again to resume" if args.out else ""
        print(f"fifteen: {word}{kept}", file=sys.stderr)
        return status
    except batch.OutputError as exc:  # a full disk, a closed file...: the lines written are kept
        if bar is not None:
            bar.close()
        if not args.out:
            quiet_stdout()
        print(f"fifteen: error: {exc}", file=sys.stderr)
        return 1 if exc.written else 2
    finally:
        output.close()
        if client is not None:
            _close_dask(client)
    if bar is not None:
        bar.close()
    if not args.quiet:
        print(f"batch: {solved} solved, {errors} error{'s' * (errors != 1)}, {skipped} skipped", file=sys.stderr)
    return 0 if not errors else 1


def _close_dask(client) -> None:
    cluster = getattr(client, "cluster", None)
    client.close()
    if cluster is not None:
        cluster.close()
