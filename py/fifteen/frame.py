"""Solving frames: how a position and its goal are handed to the bounds and the searches.

The pattern databases, the WD assets and the duplicate pruning's mirror halving are made for
the standard goal (``1 2 ... N-1 0``).  A goal whose blank is in a corner is mapped onto it
exactly: a symmetry of the board (a flip top to bottom, left to right, or both: a rotation by
180 degrees) takes the goal's blank to the bottom-right corner, and the tiles are renumbered so
that each gets the number the standard goal has on its mapped home square.  Applied to the
position too, the map changes no distance (a move maps to a move), so every bound applies to
the mapped position, the databases included, and a solution maps back square by square.  The
blank-first goal ``0 1 2 ... N-1`` is the standard goal rotated by 180 degrees with tile t
renumbered N - t: Korf's 100 instances, published for that goal, are converted that way.

Any other goal (its blank on an edge or inside) is left as it is and given to the bounds as
data, a goal square per tile (:func:`fifteen.bounds.manhattan.goal_squares`): MD, LC, ID and WD
are computed against it (see their modules), the pattern databases are not offered.

:func:`frame_for` gives a goal's :class:`Frame`; :meth:`Frame.position` maps a position in,
:meth:`Frame.back` maps a search's result out (the blank's squares, the tiles that slide).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TypeVar

from fifteen.board import Goal, Shape, tiles_along

R = TypeVar("R")


@dataclass(frozen=True)
class Frame:
    """A distance-preserving map of positions onto the frame the solver searches in.

    *squares*: ``squares[q]`` is square q's image; *labels*: ``labels[t]`` is tile t's number
    in the frame (``labels[0] == 0``); *goal*: the goal in the frame (the standard goal when
    :attr:`standard`); *flips*: (top to bottom, left to right).
    """

    shape: Shape
    squares: tuple[int, ...]
    labels: tuple[int, ...]
    goal: tuple[int, ...]
    flips: tuple[bool, bool] = (False, False)

    @property
    def standard(self) -> bool:
        """Whether the goal in the frame is the standard goal (every bound applies)."""
        return self.goal == self.shape.goal()

    @property
    def identity(self) -> bool:
        """Whether positions are searched as given (no flip, no renumbering)."""
        return self.squares == tuple(range(self.shape.size)) and self.labels == tuple(range(self.shape.size))

    @property
    def search_goal(self) -> tuple[int, ...] | None:
        """The goal as the searches and bounds take it: ``None`` for the standard goal."""
        return None if self.standard else self.goal

    def position(self, tiles: Sequence[int]) -> tuple[int, ...]:
        """*tiles* (a position of the caller's) in the frame."""
        if self.identity:
            return tuple(tiles)
        out = [0] * len(tiles)
        labels = self.labels
        for q, t in zip(self.squares, tiles, strict=True):
            out[q] = labels[t]
        return tuple(out)

    def squares_back(self, path: Sequence[int]) -> list[int]:
        """Squares of the frame (e.g. the blank's path) as the caller's squares."""
        if self.identity:
            return list(path)
        inverse = [0] * len(self.squares)
        for q, image in enumerate(self.squares):
            inverse[image] = q
        return [inverse[s] for s in path]

    def back(self, result: R, tiles: Sequence[int]) -> R:
        """A search result (a :class:`fifteen.search.ida.SearchResult`, found in the frame from
        the position *tiles* of the caller's) in the caller's frame: its ``path`` (the blank's
        squares) mapped back and its ``tiles`` (those that slide) read off the caller's position."""
        if self.identity:
            return result
        path = self.squares_back(result.path)  # type: ignore[attr-defined]
        return dataclasses.replace(result, path=path, tiles=tiles_along(self.shape, tiles, path))  # type: ignore[type-var]

    def describe(self) -> str | None:
        """How the goal is searched, for people: ``None`` for the standard goal itself."""
        if self.identity and self.standard:
            return None
        if not self.standard:
            return "the goal as given (its blank is not in a corner): the pattern databases do not apply"
        how = {(True, True): "rotated 180 degrees", (True, False): "flipped top to bottom", (False, True): "flipped left to right"}
        parts = [how[self.flips]] if any(self.flips) else []
        if any(label != t for t, label in enumerate(self.labels)):
            parts.append("tiles renumbered")
        return f"mapped onto the standard goal ({', '.join(parts)}): every bound applies"


@lru_cache(maxsize=64)
def frame_for(goal: Goal) -> Frame:
    """The frame a board with this goal is searched in (see the module docstring)."""
    shape = goal.shape
    n, rows, cols = shape.size, shape.rows, shape.cols
    blank_row, blank_col = divmod(goal.blank, cols)
    if blank_row not in (0, rows - 1) or blank_col not in (0, cols - 1):
        identity = tuple(range(n))
        return Frame(shape, identity, identity, goal.tiles)
    flips = (blank_row == 0, blank_col == 0)
    squares = []
    for q in range(n):
        r, c = divmod(q, cols)
        squares.append((rows - 1 - r if flips[0] else r) * cols + (cols - 1 - c if flips[1] else c))
    labels = [0] * n
    for q, t in enumerate(goal.tiles):
        if t:
            labels[t] = squares[q] + 1  # the standard goal holds tile k on square k - 1
    return Frame(shape, tuple(squares), tuple(labels), shape.goal(), flips)


__all__ = ["Frame", "frame_for"]
