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

from fifteen.board import Board, Goal, Shape
from fifteen.bounds import available_bounds, bound_values
from fifteen.errors import AssetError, FifteenError, InputError
from fifteen.optimal import solve
from fifteen.search.ida import Cancelled
from fifteen.version import __version__

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
