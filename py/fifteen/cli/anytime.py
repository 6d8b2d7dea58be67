"""``solve --anytime [--time-limit S]`` and ``batch --anytime``: answers past optimal reach
(:mod:`fifteen.anytime`).

Anytime is the default for boards of more than :data:`~fifteen.limits.OPTIMAL_MAX_SQUARES`
squares (5x6 and up: the optimal search is out of reach there) unless ``--bound`` is given or
the position is near its goal (a lower bound of at most
:data:`~fifteen.limits.OPTIMAL_MAX_LOWER_BOUND`: :func:`~fifteen.limits.past_optimal_reach`);
``--time-limit`` alone asks for it too.  The text output says how good the answer is in plain
words (*82 moves found · optimal >= 78*, or *proven optimal*); each improvement is a line on
stderr (unless ``--quiet``); ``--json`` prints :meth:`fifteen.anytime.AnytimeResult.to_json`.
A first Ctrl-C or SIGTERM stops the search and prints the best found (the text, or the JSON
with its lower bound); after a SIGTERM the status is 143, as a shell reports, else 0.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import TYPE_CHECKING

from fifteen.board import Board
from fifteen.cli.goals import print_position
from fifteen.cli.guard import interrupt
from fifteen.cli.options import seconds
from fifteen.limits import DEFAULT_TIME_LIMIT, OPTIMAL_MAX_SQUARES, past_optimal_reach

if TYPE_CHECKING:
    from fifteen.anytime import AnytimeResult, Improvement

_STOPPED = {
    "optimal": "the lower bound met the length",
    "time": "time limit",
    "cancelled": "stopped by Ctrl-C",
    "exhausted": "nothing left to try",
}


def add_options(sp: argparse.ArgumentParser) -> None:
    """``--anytime`` and ``--time-limit`` (``solve`` and ``batch``)."""
    sp.add_argument(
        "--anytime",
        action="store_true",
        help=f"answer at once and improve it with a proven lower bound (default for boards of more than {OPTIMAL_MAX_SQUARES} squares"
        " unless --bound is given)",
    )
    sp.add_argument(
        "--time-limit",
        type=seconds,
        default=None,
        metavar="S",
        help=f"seconds the anytime search may take (default {DEFAULT_TIME_LIMIT:g}; implies --anytime)",
    )


def wanted(args: argparse.Namespace, squares: int, lower_bound: int) -> bool:
    """Whether the command asks for the anytime search (see the module docstring) for a board of
    *squares* squares and a position of that *lower_bound*."""
    if args.anytime or args.time_limit is not None:
        return True
    return args.bound is None and past_optimal_reach(squares, lower_bound)


def time_limit(args: argparse.Namespace) -> float:
    """``--time-limit``, checked (a positive number of seconds, at most an hour)."""
    from fifteen.anytime import check_time_limit  # solve and batch only, as the search itself

    limit = check_time_limit(DEFAULT_TIME_LIMIT if args.time_limit is None else args.time_limit, "--time-limit")
    assert limit is not None
    return limit


class _SignalStop:
    """The search's *cancel*: true once a first Ctrl-C (SIGINT) or SIGTERM has come.  The first
    one stops the search and the best found is printed; a second one interrupts as usual
    (:func:`fifteen.cli.guard.guard_cli`: one line, status 130 or 143)."""

    def __init__(self) -> None:
        self.signum: int | None = None

    def __call__(self) -> bool:
        return self.signum is not None

    def handler(self, signum: int, frame: FrameType | None) -> None:
        if self.signum is not None:
            interrupt(signum, frame)
            return
        self.signum = signum
        if signum == signal.SIGTERM:
            print("fifteen: terminated; the best found follows", file=sys.stderr, flush=True)
        else:
            print("fifteen: stopping; the best found follows (Ctrl-C again to interrupt)", file=sys.stderr, flush=True)

    @property
    def status(self) -> int:
        """The command's exit status: 143 (128 + SIGTERM, as a shell reports) once a SIGTERM
        came, the answer printed all the same; else 0."""
        return 128 + signal.SIGTERM if self.signum == signal.SIGTERM else 0

    @property
    def why(self) -> str:
        """What the text output says stopped a cancelled search."""
        return "stopped by SIGTERM" if self.signum == signal.SIGTERM else _STOPPED["cancelled"]


@contextmanager
def _signals_stop() -> Iterator[_SignalStop]:
    """While the anytime search runs and its answer is printed, a first Ctrl-C or SIGTERM stops
    the search (:class:`_SignalStop`); outside the main thread (no signal handlers there), nothing
    does."""
    stop = _SignalStop()
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return
    previous = {sig: signal.signal(sig, stop.handler) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield stop
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def solve(board: Board, args: argparse.Namespace, values: dict[str, int], jobs: int, stall_seconds: float | None = None) -> int:
    """``solve`` with the anytime search: the text or JSON output (module docstring); with *jobs*
    of 2 or more, a worker process without progress for *stall_seconds* (``--stall-seconds``;
    None: never) is ended and its call given to another."""
    from fifteen.anytime import anytime_solve  # the anytime solves only: not every command's start-up

    limit = time_limit(args)

    def show(imp: Improvement) -> None:
        state = "proven optimal" if imp.optimal else f"optimal >= {imp.lower_bound}"
        print(f"  {imp.seconds:7.2f} s: {imp.length} moves · {state}", file=sys.stderr, flush=True)

    show_progress = not args.json and not args.quiet
    bound = args.bound or "auto"
    with _signals_stop() as stop:  # a first signal while the answer is printed does not cut it short
        if not args.json:
            print_position(board, values)
        if jobs > 1:
            from fifteen.parallel.anytime_processes import anytime_solve_parallel  # --jobs only: the process pool

            res = anytime_solve_parallel(
                board,
                jobs=jobs,
                time_limit=limit,
                progress=show if show_progress else None,
                cancel=stop,
                bound=bound,
                stall_seconds=stall_seconds,
            )
        else:
            res = anytime_solve(board, time_limit=limit, progress=show if show_progress else None, cancel=stop, bound=bound)
        if args.json:
            print(json.dumps(res.to_json(values)))
        else:
            _print_result(res, stop.why)
    return stop.status


def _print_result(res: AnytimeResult, why_cancelled: str) -> None:
    print(res.describe())
    why = why_cancelled if res.stopped == "cancelled" else _STOPPED[res.stopped]
    print(f"stopped: {why} after {res.seconds:.2f} s")
    if res.tiles is not None:
        print(f"tiles moved:    {' '.join(map(str, res.tiles))}")
        print(f"blank moves:    {res.directions}")
    print(f"lower bound by: {res.bound} (IDA*, {res.prover_nodes:,} nodes); improvers: {res.improver_nodes:,} nodes")


__all__ = ["add_options", "solve", "time_limit", "wanted"]
