"""Optimal solving: :func:`solve`, IDA* with a bound of :mod:`fifteen.bounds` by name, and
the :class:`Solution` it returns; :func:`check_answer`, the rule every answer passes before it
is given.

A board is searched in its solving frame (:mod:`fifteen.frame`: a goal with its blank in a
corner mapped onto the standard goal, any other given to the bounds as data); the solution
comes back in the caller's frame (the board's own tile numbers and squares), replayed to
the board's goal.

**Every answer is replayed.**  A search trusts its bound: a database whose payload was changed
(and its CRC-32 written again) can make the loop take a position for the goal, and the search
then reports a "solution" of one move.  So no answer is given before :func:`check_answer`
replays it: a :class:`Solution` checks itself when it is made (the serial search, ``--jobs N``,
the page's pool), and so do the anytime search's results and the solutions its prover finds
(:class:`fifteen.anytime.AnytimeResult`, :func:`fifteen.parallel.anytime_steps.prove`), and a
page pool's task that finds one (:func:`fifteen.parallel.page_pool.run_bundle`).  A
contradiction is an :class:`~fifteen.errors.AssetError` (``asset_corrupt``) naming the
database the search read and how to rebuild it: never an answer."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from fifteen.board import Board, blank_steps, neighbours
from fifteen.bounds import check_board, databases, resolve_bound, start_bound, summary
from fifteen.bounds.manhattan import manhattan
from fifteen.errors import AssetError, InputError
from fifteen.frame import frame_for
from fifteen.limits import describe
from fifteen.search.ida import Cancelled, Progress, SearchResult, ida_steps
from fifteen.search.moves import checking_setup
from fifteen.search.slices import Steps, drive


def answer_problem(board: Board, moves: Sequence[int], lower_bound: int = 0) -> str | None:
    """What is wrong with *moves* (the tiles that slide) as an answer for *board*, or None: they
    must take it to its goal, in a number of moves that no lower bound of the position
    contradicts (its Manhattan distance, *lower_bound*) and of the parity of the blank's distance
    to its goal square (every move changes it by one).  Replayed here on a plain list: no limit
    on the length (an anytime answer on 10x10 may pass the 10,000 moves a caller may give)."""
    shape, n = board.shape, board.shape.size
    tiles = list(board.tiles)
    where = [0] * n
    for square, tile in enumerate(tiles):
        where[tile] = square
    near = neighbours(shape)
    count = 0
    for t in moves:
        count += 1
        if not isinstance(t, int) or isinstance(t, bool) or not 0 < t < n or where[t] not in near[where[0]]:
            return f"the answer's move {count} ({describe(t)}) is not a tile next to the blank"
        s, b = where[t], where[0]
        tiles[b], tiles[s] = t, 0
        where[t], where[0] = b, s
    if tuple(tiles) != board.target.tiles:
        return f"the {count}-move answer found does not reach the goal"
    frame = frame_for(board.target)
    least = max(lower_bound, manhattan(shape, frame.position(board.tiles), frame.search_goal))
    if count < least:
        return f"the {count}-move answer found is shorter than a lower bound of the position ({least})"
    if (count - blank_steps(shape, board.blank, board.target.blank)) % 2:
        return f"the {count}-move answer found has the wrong parity for this position"
    return None


def check_answer(board: Board, moves: Sequence[int], bound: str | None, *, lower_bound: int = 0) -> None:
    """Raise unless *moves* are an answer for *board* (:func:`answer_problem`; *lower_bound*: the
    search's own value of the root, or the bound an anytime search proved): an
    :class:`~fifteen.errors.AssetError` (``asset_corrupt``) naming the database files the
    search with *bound* read (``None``: every one loaded for the board's shape, as a position's
    best bound reads them all) and how to rebuild them; a ``RuntimeError`` (a bug) when it read none."""
    problem = answer_problem(board, moves, lower_bound)
    if problem is None:
        return
    culprit = databases.blame(bound, board.shape)
    if culprit is None:
        raise RuntimeError(f"{problem} (no database file was read: a bug)")
    raise AssetError(f"{problem}: {culprit}", code="asset_corrupt")


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

    def __post_init__(self) -> None:
        check_answer(self.board, self.result.tiles, self.bound, lower_bound=self.result.h0)  # never an answer that does not replay

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

    def check_cancel() -> None:
        if cancel is not None and cancel():
            raise Cancelled()

    with checking_setup(check_cancel if cancel is not None else None):  # a cancel stops the set-up (move tables) too
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
