"""Fifteen: optimal sliding-tile puzzle solving in pure Python.

    >>> from fifteen import Board, solve
    >>> board = Board.parse("1 2 3 4 5 6 0 8 9 10 7 11 13 14 15 12")
    >>> solution = solve(board)            # strongest bound available
    >>> solution.length, solution.tiles, solution.directions
    (3, [7, 11, 12], 'DRD')

Boards (:mod:`fifteen.board`), lower bounds (:mod:`fifteen.manhattan`,
:mod:`fifteen.inversion`, :mod:`fifteen.walking`, :mod:`fifteen.pdb`), IDA*
(:mod:`fifteen.search`), databases (:mod:`fifteen.assets`), the JSON API of
the browser worker (:mod:`fifteen.api`) and the CLI (``python -m fifteen``).
"""

__version__ = "0.1.0"

from .board import Board, Shape  # noqa: E402
from .errors import AssetError, FifteenError, InputError  # noqa: E402
from .search import Cancelled  # noqa: E402
from .solver import available_bounds, bound_values, solve  # noqa: E402

__all__ = [
    "AssetError",
    "Board",
    "Cancelled",
    "FifteenError",
    "InputError",
    "Shape",
    "available_bounds",
    "bound_values",
    "solve",
]
