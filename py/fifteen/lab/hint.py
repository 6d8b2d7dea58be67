"""Hints: the next optimal move, or every optimal move, from any position.

Where the explorer has a table for the board (:mod:`fifteen.bounds.exact`: 3x3,
2x4, 2x5 and their transposes; 3x4, 4x3, 2x6, 6x2 with a pack) and the board's goal is the
standard one (the tables hold distances to it), a hint is a
lookup: the optimal moves are exactly those that lead one move closer.

Elsewhere (4x4, ...) a :class:`Hinter` solves once with the strongest bound
(:func:`fifteen.solve`, ``auto``) and keeps that optimal solution; while the
player follows it, every next hint is read from it, and it solves again only
when the position leaves the path.  The stateless form (the JSON API's
``hint``) takes the previous solution back from the caller instead.

*All* optimal moves without a table cost one search per other move: a move
is optimal exactly when the position it leads to has a solution of
``distance - 1`` moves (never ``distance``: every move changes the parity),
so each candidate is searched with IDA* only up to that bound (its lower
bound above it rejects it at once) and stopped as soon as the search goes
past it.  Each candidate gets a node *budget* (:data:`DEFAULT_BUDGET`); a
candidate the budget cannot settle is reported as undecided, never guessed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from fifteen.board import Board, InputError
from fifteen.bounds import bound_values, databases
from fifteen.bounds.exact import Explorer
from fifteen.optimal import solve_steps
from fifteen.search.ida import Cancelled
from fifteen.search.slices import Steps, drive

#: Search nodes per candidate move for "all optimal moves" without a table (about 1-3 s natively
#: with the 6-6-3 PDB, twice that in Pyodide).
DEFAULT_BUDGET = 2_000_000
_TICK_NODES = 4096


@dataclass(frozen=True)
class Move:
    """A move: the tile that slides and the direction the blank goes (U/D/L/R)."""

    tile: int
    direction: str


@dataclass
class Hint:
    """What a hint tells about a position."""

    board: Board
    distance: int  # moves of an optimal solution from here
    next: Move | None  # an optimal move (None at the goal)
    optimal: list[Move] | None = None  # every optimal move, when asked (without a table: those proven)
    undecided: list[Move] = field(default_factory=list)  # moves the budget could not settle
    source: str = "table"  # "table" (explorer), "path" (the kept solution), "solve" (solved now)
    nodes: int = 0  # search nodes spent on this hint
    remaining: list[int] | None = None  # the kept optimal solution from here (tile numbers), without a table


def _move(board: Board, tile: int) -> Move:
    return Move(tile, board.directions([tile]))


def solves_within(
    board: Board,
    limit: int,
    *,
    bound: str = "auto",
    budget: int = DEFAULT_BUDGET,
    cancel: Callable[[], bool] | None = None,
) -> tuple[bool | None, int]:
    """``(answer, nodes)``: does *board* have a solution of at most *limit* moves?

    ``None`` when the node *budget* ran out first.  The IDA* search is
    stopped as soon as it starts an iteration beyond *limit*.
    """
    return drive(solves_within_steps(board, limit, bound=bound, budget=budget, cancel=cancel))


def solves_within_steps(
    board: Board,
    limit: int,
    *,
    bound: str = "auto",
    budget: int = DEFAULT_BUDGET,
    cancel: Callable[[], bool] | None = None,
) -> Steps[tuple[bool | None, int]]:
    """:func:`solves_within` as steps (:mod:`fifteen.search.slices`)."""
    if bound_values(board)["lb"] > limit:
        return False, 0
    state = {"past": False, "nodes": 0, "budget": False, "user": False}

    def progress(p) -> None:
        state["nodes"] = p.nodes
        if p.bound > limit:  # an iteration beyond the limit has started: none within it succeeded
            state["past"] = True

    def stop() -> bool:
        state["user"] = cancel is not None and bool(cancel())
        state["budget"] = state["nodes"] > budget
        return bool(state["user"] or state["past"] or state["budget"])

    try:
        sol = yield from solve_steps(board, bound, progress=progress, cancel=stop, tick_nodes=_TICK_NODES)
    except Cancelled:
        if state["user"]:
            raise
        if state["past"]:
            return False, state["nodes"]
        return None, state["nodes"]
    return sol.length <= limit, sol.result.nodes


class Hinter:
    """Hints for one player (the browser worker keeps one per page).

    Keeps the last optimal solution it found (or was given) and the positions
    along it, so that following the hints costs one search in all.
    """

    def __init__(self, bound: str = "auto") -> None:
        self.bound = bound
        self._positions: dict[Board, int] = {}
        self._moves: list[int] = []

    def follow(self, board: Board, moves: Sequence[int] | str) -> None:
        """Keep *moves*, an optimal solution of *board* (tile numbers or directions:
        :meth:`fifteen.board.Board.tile_moves`), to read the next hints from."""
        moves = board.tile_moves(moves)
        positions = {}
        b = board
        for i, t in enumerate(moves):
            positions[b] = i
            b = b.slide(t)
        if not b.is_goal():
            raise InputError("the given solution does not reach the goal", code="moves")
        positions[b] = len(moves)
        self._positions, self._moves = positions, moves

    def remaining(self, board: Board) -> list[int] | None:
        """The kept solution's moves from *board*, when *board* lies on it."""
        i = self._positions.get(board)
        return None if i is None else self._moves[i:]

    def hint(
        self,
        board: Board,
        *,
        all_moves: bool = False,
        budget: int = DEFAULT_BUDGET,
        cancel: Callable[[], bool] | None = None,
    ) -> Hint:
        """The next optimal move from *board* (and, with *all_moves*, every optimal move);
        :meth:`hint_steps` is the same as steps (:mod:`fifteen.search.slices`)."""
        return drive(self.hint_steps(board, all_moves=all_moves, budget=budget, cancel=cancel))

    def hint_steps(
        self,
        board: Board,
        *,
        all_moves: bool = False,
        budget: int = DEFAULT_BUDGET,
        cancel: Callable[[], bool] | None = None,
    ) -> Steps[Hint]:
        """:meth:`hint` as steps: its searches pause at the end of each time slice."""
        ex = databases.explorer(board.shape) if board.target.is_standard else None
        if ex is not None:
            return self._from_table(ex, board)
        rest = self.remaining(board)
        source, nodes = "path", 0
        if rest is None:
            sol = yield from solve_steps(board, self.bound, cancel=cancel)
            self.follow(board, sol.tiles)
            rest, source, nodes = list(sol.tiles), "solve", sol.result.nodes
        distance = len(rest)
        hint = Hint(board, distance, _move(board, rest[0]) if rest else None, source=source, nodes=nodes, remaining=rest)
        if all_moves:
            yield from self._all_moves(hint, budget, cancel)
        return hint

    @staticmethod
    def _from_table(ex: Explorer, board: Board) -> Hint:
        d = ex.distance(board)
        optimal = [Move(m.tile, m.direction) for m in ex.moves(board, d) if m.distance < d]
        return Hint(board, d, optimal[0] if optimal else None, optimal=optimal, source="table")

    def _all_moves(self, hint: Hint, budget: int, cancel) -> Steps[None]:
        board = hint.board
        hint.optimal = [hint.next] if hint.next else []
        for tile in board.movable_tiles():
            if hint.next is not None and tile == hint.next.tile:
                continue
            child = board.slide(tile)
            answer: bool | None
            if (rest := self.remaining(child)) is not None:  # the kept path passes there
                answer, nodes = len(rest) == hint.distance - 1, 0
            else:
                answer, nodes = yield from solves_within_steps(child, hint.distance - 1, bound=self.bound, budget=budget, cancel=cancel)
            hint.nodes += nodes
            if answer:
                hint.optimal.append(_move(board, tile))
            elif answer is None:
                hint.undecided.append(_move(board, tile))


__all__ = ["DEFAULT_BUDGET", "Hint", "Hinter", "Move", "solves_within"]
