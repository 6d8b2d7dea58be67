"""Optimal solving: :func:`solve`, IDA* with a bound of :mod:`fifteen.bounds` by name, and
the :class:`Solution` it returns.

A board is searched in its solving frame (:mod:`fifteen.frame`: a goal with its blank in a
corner mapped onto the standard goal, any other given to the bounds as data); the solution
comes back in the caller's frame (the board's own tile numbers and squares), replayed to
the board's goal."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from fifteen.board import Board
from fifteen.bounds import check_board, resolve_bound, start_bound
from fifteen.errors import InputError
from fifteen.frame import frame_for
from fifteen.limits import describe
from fifteen.search.ida import Progress, SearchResult, ida_star


def check_solve_arguments(board: object, bound: object, progress: object, cancel: object, tick_nodes: object) -> None:
    """Raise :class:`InputError` for arguments :func:`solve` cannot use."""
    check_board(board)
    if bound is not None and not isinstance(bound, str):
        raise InputError(f"bound is a name such as 'auto' or 'md', not {describe(bound)}")
    for name, callback in (("progress", progress), ("cancel", cancel)):
        if callback is not None and not callable(callback):
            raise InputError(f"{name} is a function or None, not {describe(callback)}")
    if not isinstance(tick_nodes, int) or isinstance(tick_nodes, bool) or tick_nodes < 1:
        raise InputError(f"tick_nodes is a whole number of at least 1, not {describe(tick_nodes)}")


@dataclass
class Solution:
    """A shortest solution of :attr:`board` towards its goal (``board.target``), found with the
    bound :attr:`bound`; :attr:`result` holds the search's figures (its ``path`` and ``tiles``
    in the board's own frame), :attr:`goal_frame` says how the goal was searched."""

    board: Board
    bound: str
    result: SearchResult

    @property
    def goal_frame(self) -> str | None:
        """How the goal was searched, for people (:meth:`fifteen.frame.Frame.describe`):
        ``None`` for the standard goal."""
        return frame_for(self.board.target).describe()

    @property
    def length(self) -> int:
        return self.result.length

    @property
    def tiles(self) -> list[int]:
        return self.result.tiles

    @property
    def directions(self) -> str:
        return self.board.directions(self.result.tiles)


def solve(
    board: Board,
    bound: str = "auto",
    *,
    progress: Callable[[Progress], None] | None = None,
    cancel: Callable[[], bool] | None = None,
    tick_nodes: int = 1 << 16,
) -> Solution:
    """A shortest solution of *board* towards its goal (``board.target``) by IDA* with the named
    bound (see the module docstring for goals other than the standard one)."""
    check_solve_arguments(board, bound, progress, cancel, tick_nodes)
    info = resolve_bound(board.shape, bound, board.target)
    frame = frame_for(board.target)
    result = ida_star(
        board.shape,
        frame.position(board.tiles),
        info.factory,
        progress=progress,
        cancel=cancel,
        tick_nodes=tick_nodes,
        start_bound=start_bound(board, bound),
        goal=frame.search_goal,
    )
    return Solution(board, info.name, frame.back(result, board.tiles))
