"""Fifteen: optimal sliding-tile puzzle solving in pure Python.

    >>> from fifteen import Board, solve
    >>> board = Board.parse("1 2 3 4 5 6 0 8 9 10 7 11 13 14 15 12")
    >>> solution = solve(board)            # strongest bound available
    >>> solution.length, solution.tiles, solution.directions
    (3, [7, 11, 12], 'DRD')

The package in layers, each importing only from the layers below it (docs/architecture.md):
boards and goals (:mod:`fifteen.board`, :mod:`fifteen.frame`: a goal other than the standard
one, e.g. ``Board.parse(text, target="blank-first")``, is searched in its frame); the database
container (:mod:`fifteen.db`); IDA* (:mod:`fifteen.search`: move tables, the driver, the loop
template); the lower bounds with their tables and loops (:mod:`fifteen.bounds`); optimal
solving (:mod:`fifteen.optimal`); the heuristic lab (:mod:`fifteen.lab`) and the anytime search
(:mod:`fifteen.anytime`); every core (:mod:`fifteen.parallel`); batches (:mod:`fifteen.batch`);
the JSON API of the browser worker (:mod:`fifteen.api`) and the CLI (:mod:`fifteen.cli`,
``python -m fifteen``).
"""

import os as _os
import signal as _signal
import sys as _sys


def _interrupted_at_start(signum: int, frame: object) -> None:
    """Ctrl-C while the command line is still importing the package (before its guard,
    :func:`fifteen.cli.guard.guard_cli`, is in place): one line and status 130, as later."""
    _os.write(2, b"fifteen: interrupted\n")
    _os._exit(128 + _signal.SIGINT)


def _is_the_program() -> bool:
    """Whether this package is being imported as the program: ``python -m fifteen`` (argv[0] is
    "-m" while the package is imported) or the ``fifteen`` command (not a process that
    multiprocessing started for it, which carries the same argv); never a program that imports it."""
    if _sys.argv[:1] == ["-m"]:
        return True
    command = _os.path.basename(_sys.argv[0]) if _sys.argv else ""
    return command in ("fifteen", "fifteen.exe") and "multiprocessing" not in _sys.modules


if _is_the_program() and _signal.getsignal(_signal.SIGINT) is _signal.default_int_handler:
    _signal.signal(_signal.SIGINT, _interrupted_at_start)

from fifteen.board import Board, Goal, Shape  # noqa: E402 - after the handler above
from fifteen.bounds import available_bounds, bound_values  # noqa: E402
from fifteen.errors import AssetError, FifteenError, InputError  # noqa: E402
from fifteen.optimal import solve  # noqa: E402
from fifteen.search.ida import Cancelled  # noqa: E402
from fifteen.version import __version__  # noqa: E402

__all__ = [
    "AssetError",
    "Board",
    "Cancelled",
    "FifteenError",
    "Goal",
    "InputError",
    "Shape",
    "__version__",
    "available_bounds",
    "bound_values",
    "solve",
]
