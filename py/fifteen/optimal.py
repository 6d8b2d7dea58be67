"""Optimal solving: :func:`solve`, IDA* with a bound of :mod:`fifteen.bounds` by name, and
the :class:`Solution` it returns.

A board is searched in its solving frame (:mod:`fifteen.frame`: a goal with its blank in a
corner mapped onto the standard goal, any other given to the bounds as data); the solution
comes back in the caller's frame (the board's own tile numbers and squares), replayed to
the board's goal."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fifteen.board import Board
from fifteen.bounds import check_board, resolve_bound, start_bound, summary
from fifteen.errors import InputError
from fifteen.frame import frame_for
from fifteen.limits import describe
from fifteen.search.ida import Progress, SearchResult, ida_steps
from fifteen.search.slices import Steps, drive


def check_solve_arguments(board: object, bound: object, progress: object, cancel: object, tick_nodes: object) -> None:
    """Raise :class:`InputError` for arguments :func:`solve` cannot use."""
    check_board(board)
    if bound is not None and not isinstance(bound, str):
        raise InputError(f"bound is a name such as 'auto' or 'md', not {describe(bound)}", code="param")
    for name, callback in (("progress", progress), ("cancel", cancel)):
        if callback is not None and not callable(callback):
            raise InputError(f"{name} is a function or None, not {describe(callback)}", code="param")
    if not isinstance(tick_nodes, int) or isinstance(tick_nodes, bool) or tick_nodes < 1:
        raise InputError(f"tick_nodes is a whole number of at least 1, not {describe(tick_nodes)}", code="param")


@dataclass
class Solution:
    """A shortest solution of *board* towards its goal (``board.target``), found with the
    bound named *bound*; *result* holds the search's figures (its ``path`` and ``tiles``
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

    def to_json(self, values: dict[str, int] | None = None) -> dict[str, Any]:
        """The one JSON object of a solve: ``solve --json``, the API's ``solve`` and
        ``parallel_result``, each line of a batch.

        The position (``shape``, ``rows``, ``cols``, ``tiles``, ``goal``), ``bound`` (the one used:
        ``auto`` resolved), ``length``, ``moves`` (the tiles that slide), ``directions`` (the
        blank's), ``goal_frame`` (how the goal was searched; ``null`` for the standard goal),
        then the search's figures (:meth:`fifteen.search.ida.SearchResult.to_json`:
        ``h0``, ``nodes``, the times in seconds rounded to 0.1 ms, ``nodes_per_second``,
        ``iterations``; a parallel search adds ``workers`` and ``worker_nodes``).  With the
        position's bound *values* (:func:`fifteen.bounds.bound_values`), ``bounds`` and
        ``summary`` follow (the CLI and the API give them; a batch does not, which would read
        every database in every worker).
        """
        out = {
            **self.board.to_json(),
            "bound": self.bound,
            "length": self.length,
            "moves": list(self.tiles),
            "directions": self.directions,
            "goal_frame": self.goal_frame,
            **self.result.to_json(),
        }
        if values is not None:
            out.update(bounds=values, summary=summary(values))
        return out


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
    return drive(solve_steps(board, bound, progress=progress, cancel=cancel, tick_nodes=tick_nodes))


def solve_steps(
    board: Board,
    bound: str = "auto",
    *,
    progress: Callable[[Progress], None] | None = None,
    cancel: Callable[[], bool] | None = None,
    tick_nodes: int = 1 << 16,
) -> Steps[Solution]:
    """:func:`solve` as steps (:mod:`fifteen.search.slices`): paused at the end of each time slice."""
    check_solve_arguments(board, bound, progress, cancel, tick_nodes)
    info = resolve_bound(board.shape, bound, board.target)
    frame = frame_for(board.target)
    result = yield from ida_steps(
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
