"""Fifteen: optimal sliding-tile puzzle solving in pure Python.

    >>> from fifteen import Board, solve
    >>> board = Board.parse("1 2 3 4 5 6 0 8 9 10 7 11 13 14 15 12")
    >>> solution = solve(board)            # strongest bound available
    >>> solution.length, solution.tiles, solution.directions
    (3, [7, 11, 12], 'DRD')

Boards and goals (:mod:`fifteen.board`; a goal other than the standard one, e.g.
``Board.parse(text, target="blank-first")``, is searched in its frame, :mod:`fifteen.frame`),
lower bounds (:mod:`fifteen.bounds`: manhattan, inversion,
walking, pdb, pdb78), IDA* (:mod:`fifteen.search`: moves, ida, loops generated from one
template), databases (:mod:`fifteen.db`: the container format and the registry of loaded ones),
every core (:mod:`fifteen.parallel`), the heuristic lab (:mod:`fifteen.lab`), the JSON API of
the browser worker (:mod:`fifteen.api`) and the CLI (:mod:`fifteen.cli`, ``python -m fifteen``).
"""

__version__ = "0.1.0"

from fifteen.board import Board, Goal, Shape  # noqa: E402
from fifteen.bounds import available_bounds, bound_values  # noqa: E402
from fifteen.errors import AssetError, FifteenError, InputError  # noqa: E402
from fifteen.search.ida import Cancelled  # noqa: E402
from fifteen.search.optimal import solve  # noqa: E402

__all__ = [
    "AssetError",
    "Board",
    "Cancelled",
    "FifteenError",
    "Goal",
    "InputError",
    "Shape",
    "available_bounds",
    "bound_values",
    "solve",
]
