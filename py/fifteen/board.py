"""Boards: shapes, parsing with precise errors, moves in both notations, replay.

Conventions (the seed's):

* Squares are numbered row-major from 0; a board of *rows* x *cols* has
  ``rows * cols`` squares.  A position is a tuple of tiles by square, ``0`` the
  blank.
* The *standard goal* holds tiles ``1 .. N-1`` row-major with the blank last
  (bottom-right).  A board may be solved towards any other :class:`Goal` (its
  ``target``): the *blank-first* goal ``0 1 2 ... N-1`` of many puzzle apps, or
  any arrangement; a position is solvable for a goal when the parity of the
  permutation between them equals the parity of the blank's distance from its
  goal square (:func:`solvability_problem`).
* A solution is written two ways: the **tile numbers that slide** into the
  blank, one per move (the seed's notation, e.g. ``15 14 13 9``), or the
  **directions the blank moves**, ``U D L R`` (so ``U`` slides the tile above
  the blank down).
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from fifteen.errors import FifteenError as FifteenError  # re-exported: the base of InputError
from fifteen.errors import InputError
from fifteen.limits import MAX_MOVES, MAX_TILE_CHARS, TOKEN_CHARS, check_text, describe, non_ascii_digit_problem

MIN_SIDE = 2
MAX_SIDE = 10
MAX_SQUARES = MAX_SIDE * MAX_SIDE

DIRECTIONS = "UDLR"
DELTAS = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}
_BLANK_TOKENS = {"0", "_", "."}
_SEPARATORS = re.compile(r"[\s,;]+")


@dataclass(frozen=True)
class Shape:
    """A board shape: *rows* x *cols* squares."""

    rows: int
    cols: int

    def __post_init__(self) -> None:
        r, c = self.rows, self.cols
        for side in (r, c):
            if not isinstance(side, int) or isinstance(side, bool):
                raise InputError(f"a shape's rows and columns are whole numbers, not {describe(side)}", code="shape")
        if not (MIN_SIDE <= r <= MAX_SIDE and MIN_SIDE <= c <= MAX_SIDE):
            name = f"{r}x{c}" if max(r, c) < 10**6 else f"of {describe(r)} by {describe(c)}"
            raise InputError(f"shape {name} is not supported: rows and columns go from {MIN_SIDE} to {MAX_SIDE}", code="shape")

    @property
    def size(self) -> int:
        return self.rows * self.cols

    def __str__(self) -> str:
        return f"{self.rows}x{self.cols}"

    def transposed(self) -> Shape:
        return Shape(self.cols, self.rows)

    def goal(self) -> tuple[int, ...]:
        """The standard goal: tiles ``1 .. N-1`` row-major, the blank last."""
        return tuple(range(1, self.size)) + (0,)

    @classmethod
    def parse(cls, text: str | Shape) -> Shape:
        """Parse ``"4x4"`` (also ``4X4``, ``4*4``, ``4,4``)."""
        if isinstance(text, Shape):
            return text
        if not isinstance(text, str):
            raise InputError(f"a shape is text of the form RxC, e.g. 4x4 or 3x4, not {describe(text)}", code="shape")
        if len(text) > TOKEN_CHARS:
            raise InputError(f"shape {describe(text)} is not of the form RxC, e.g. 4x4 or 3x4", code="shape")
        if non_ascii_digit_problem(text):
            raise InputError(f"shape {describe(text)}: write its numbers with the digits 0-9", code="shape")
        m = re.fullmatch(r"\s*([0-9]{1,6})\s*[xX*, ]\s*([0-9]{1,6})\s*", text)
        if not m:
            raise InputError(f"shape {describe(text)} is not of the form RxC, e.g. 4x4 or 3x4", code="shape")
        return cls(int(m.group(1)), int(m.group(2)))

    @classmethod
    def infer(cls, count: int) -> Shape:
        """The shape for *count* tiles: square counts only (4, 9, 16, ..., 100)."""
        if count > MAX_SQUARES:
            raise InputError(
                f"{count} tiles is more than the largest supported board ({MAX_SQUARES} squares, {MAX_SIDE}x{MAX_SIDE})", code="shape"
            )
        side = math.isqrt(count)
        if side * side == count and MIN_SIDE <= side:
            return cls(side, side)
        options = [f"{r}x{count // r}" for r in range(MIN_SIDE, MAX_SIDE + 1) if count % r == 0 and MIN_SIDE <= count // r <= MAX_SIDE]
        if options:
            raise InputError(f"{count} tiles could be {' or '.join(options)}: give the shape", code="shape")
        squares = ", ".join(str(k * k) for k in range(MIN_SIDE, MAX_SIDE + 1))
        raise InputError(
            f"{count} tiles do not make a supported board ({squares} for a square one; give the shape for others)", code="shape"
        )


@cache
def neighbours(shape: Shape) -> tuple[tuple[int, ...], ...]:
    """For each square, the squares next to it (up, down, left, right order)."""
    rows, cols = shape.rows, shape.cols
    out = []
    for sq in range(shape.size):
        r, c = divmod(sq, cols)
        out.append(tuple((r + dr) * cols + (c + dc) for dr, dc in DELTAS.values() if 0 <= r + dr < rows and 0 <= c + dc < cols))
    return tuple(out)


def square_distance(shape: Shape, a: int, b: int) -> int:
    """The rows plus columns between squares *a* and *b*."""
    ra, ca = divmod(a, shape.cols)
    rb, cb = divmod(b, shape.cols)
    return abs(ra - rb) + abs(ca - cb)


def blank_steps(shape: Shape, blank: int, goal_blank: int | None = None) -> int:
    """Manhattan distance of the blank at *blank* from its goal square (*goal_blank*, default
    the standard goal's: the last square)."""
    return square_distance(shape, blank, shape.size - 1 if goal_blank is None else goal_blank)


def tiles_along(shape: Shape, tiles: Sequence[int], path: Iterable[int]) -> list[int]:
    """The tile numbers that slide as the blank visits the squares *path* in order (a search's
    solution, from the position *tiles*); :class:`InputError` when a step is not to a square
    next to the blank."""
    near = neighbours(shape)
    board = list(tiles)
    blank = board.index(0)
    moved = []
    for s in path:
        if s not in near[blank]:
            raise InputError(f"the path steps the blank from square {blank} to {s}, not a neighbour", code="moves")
        moved.append(board[s])
        board[blank], board[s] = board[s], 0
        blank = s
    return moved


def inversions(seq: Iterable[int]) -> int:
    """Number of pairs out of order in *seq* (zeros skipped)."""
    items = [t for t in seq if t]
    return sum(1 for i, a in enumerate(items) for b in items[i + 1 :] if a > b)


def transpose_squares(n_side: int) -> tuple[int, ...]:
    """Tsq: square (r, c) -> (c, r) on a square board of side n_side."""
    return tuple((p % n_side) * n_side + p // n_side for p in range(n_side * n_side))


def tile_mirrors(n_side: int) -> tuple[int, ...]:
    """``mirror[t]``: the tile whose goal square is the mirror image, about the main diagonal,
    of tile t's goal square, on a square board of side *n_side* (``mirror[0] = 0``: the blank's
    goal is on the diagonal).  A tile *number* map, unlike :func:`transpose_squares` (squares)
    and :func:`transpose_tiles` (a whole position): the transposed position holds tile
    ``mirror[t]`` where the position holds t, on the mirrored square."""
    tsq = transpose_squares(n_side)
    return (0,) + tuple(tsq[t - 1] + 1 for t in range(1, n_side * n_side))


def tile_squares(tiles: Sequence[int]) -> list[int]:
    """``squares[t]``: the square of tile t (the blank's at index 0) — the inverse of *tiles*."""
    squares = [0] * len(tiles)
    for p, t in enumerate(tiles):
        squares[t] = p
    return squares


def transpose_tiles(shape: Shape, tiles: Sequence[int]) -> list[int]:
    """The position seen on the transposed board, tiles relabelled (for the horizontal reading)."""
    rows, cols = shape.rows, shape.cols
    out = [0] * len(tiles)
    for sq, t in enumerate(tiles):
        r, c = divmod(sq, cols)
        if t:
            gr, gc = divmod(t - 1, cols)
            t = gc * rows + gr + 1
        out[c * rows + r] = t
    return out


def _swaps(tiles: Sequence[int], goal: Sequence[int]) -> int:
    """The fewest swaps of two squares' contents (the blank counted) taking *tiles* to *goal*:
    the squares less the cycles of the permutation between them."""
    home = tile_squares(goal)
    seen = [False] * len(tiles)
    cycles = 0
    for start in range(len(tiles)):
        if not seen[start]:
            cycles += 1
            q = start
            while not seen[q]:
                seen[q] = True
                q = home[tiles[q]]
    return len(tiles) - cycles


def solvability_problem(shape: Shape, tiles: Sequence[int], goal: Sequence[int] | None = None) -> str | None:
    """``None`` if *tiles* can reach *goal* (default: the standard goal), else the reason it cannot.

    Every move swaps the blank with a tile and moves the blank one square, so it changes both
    the parity of the permutation between the position and the goal and the parity of the
    blank's distance from its goal square: they must agree (and then the goal is reachable).
    For the standard goal the same rule is told in the seed's words (inversions, rows)."""
    if goal is not None and tuple(goal) != shape.goal():
        swaps = _swaps(tiles, goal)
        steps = square_distance(shape, list(tiles).index(0), list(goal).index(0))
        if (swaps - steps) % 2:
            odd = ("even", "odd")
            return (
                f"unsolvable for this goal: the position is {swaps} swaps from the goal ({odd[swaps % 2]}, the blank counted)"
                f" and the blank is {steps} move{'s' if steps != 1 else ''} from its goal square ({odd[steps % 2]});"
                " every move is one swap and one step of the blank, so the two parities must agree"
            )
        return None
    inv = inversions(tiles)
    if shape.cols % 2:
        if inv % 2:
            return (
                f"unsolvable: the tiles read row by row have {inv} inversions, an odd number;"
                f" on a board {shape.cols} wide every move keeps that parity and the goal has 0"
            )
        return None
    rows_up = shape.rows - 1 - list(tiles).index(0) // shape.cols
    if (inv + rows_up) % 2:
        return (
            f"unsolvable: the tiles read row by row have {inv} inversions and the blank is {rows_up}"
            f" row{'s' if rows_up != 1 else ''} above the bottom; on a board {shape.cols} wide every move"
            f" keeps the parity of their sum ({inv + rows_up}, odd) and the goal's is even"
        )
    return None


def check_tiles(shape: Shape, tiles: Sequence[int], *, solvable: bool = True, goal: Sequence[int] | None = None) -> tuple[int, ...]:
    """Validate a position (solvable for *goal*, default the standard goal, unless *solvable*
    is false); return it as a tuple or raise :class:`InputError`."""
    n = shape.size
    if not isinstance(tiles, list | tuple):
        raise InputError(f"a position is a list of tile numbers, not {describe(tiles)}", code="param")
    if len(tiles) != n:
        raise InputError(f"a {shape} board has {n} squares, got {len(tiles)} tiles", code="count")
    seen: dict[int, int] = {}
    for i, t in enumerate(tiles):
        if not isinstance(t, int) or isinstance(t, bool):
            raise InputError(f"square {i + 1}: {describe(t)} is not a tile number", code="token")
        if not 0 <= t < n:
            raise InputError(f"square {i + 1}: tile {describe(t)} is out of range (0..{n - 1} on a {shape} board, 0 = blank)", code="range")
        if t in seen:
            what = "the blank" if t == 0 else f"tile {t}"
            raise InputError(f"{what} appears twice (squares {seen[t] + 1} and {i + 1})", code="duplicate")
        seen[t] = i
    # len(tiles) == n, all in range and distinct: nothing can be missing.
    if solvable:
        problem = solvability_problem(shape, tiles, goal)
        if problem:
            raise InputError(problem, code="unsolvable")
    return tuple(tiles)


def tokenize(text: str) -> list[str]:
    return [tok for tok in _SEPARATORS.split(text.strip()) if tok]


def parse_tiles(text: str, shape: Shape | str | None = None, *, solvable: bool = True) -> tuple[Shape, tuple[int, ...]]:
    """Parse a position a person typed or pasted.

    Numbers are separated by spaces, commas, semicolons or newlines; the blank
    may be written ``0``, ``_`` or ``.``.  Without *shape* the count must be
    square (4, 9, 16, ..., 100).
    """
    check_text(text)
    tokens = tokenize(text)
    if not tokens:
        raise InputError("no tiles given", code="count")
    tiles: list[int] = []
    for i, tok in enumerate(tokens):
        if tok in _BLANK_TOKENS:
            tiles.append(0)
        elif tok.isascii() and tok.isdigit() and len(tok) <= MAX_TILE_CHARS:
            tiles.append(int(tok))
        elif tok.isascii() and tok.isdigit():
            raise InputError(f"{describe(tok)} (item {i + 1}) is too large for a tile number", code="range")
        elif non_ascii_digit_problem(tok):
            raise InputError(f"{describe(tok)} (item {i + 1}) is not a tile number: write tiles with the digits 0-9", code="token")
        else:
            raise InputError(f"{describe(tok)} (item {i + 1}) is not a tile number; write the blank as 0, _ or .", code="token")
    shp = Shape.parse(shape) if shape is not None else Shape.infer(len(tiles))
    if len(tiles) != shp.size:
        raise InputError(f"a {shp} board has {shp.size} squares, got {len(tiles)} tiles", code="count")
    n = shp.size
    counts = [0] * n
    for i, t in enumerate(tiles):
        if t >= n:
            raise InputError(f"tile {t} (item {i + 1}) is out of range: a {shp} board has tiles 1..{n - 1} and the blank", code="range")
        counts[t] += 1
    dup = [t for t in range(n) if counts[t] > 1]
    if dup:
        names = ", ".join("the blank" if t == 0 else f"tile {t}" for t in dup)
        missing = [t for t in range(n) if counts[t] == 0]
        miss = ", ".join("the blank" if t == 0 else str(t) for t in missing)
        raise InputError(f"duplicate: {names} given more than once (missing: {miss})", code="duplicate")
    return shp, check_tiles(shp, tiles, solvable=solvable)


#: The goals known by name: ``standard`` (also ``blank-last``) and ``blank-first``.
GOAL_NAMES = ("standard", "blank-first")
_GOAL_ALIASES = {"standard": "standard", "blank-last": "standard", "blank-first": "blank-first"}


def is_goal_name(text: str) -> bool:
    """Whether *text* names a goal (``standard``, ``blank-first``...) rather than giving its tiles."""
    return text.strip().lower() in _GOAL_ALIASES


@dataclass(frozen=True)
class Goal:
    """A goal: the arrangement a board is solved towards, tiles by square like a position.

    ``Goal.standard(shape)`` is ``1 2 ... N-1 0`` (the blank last), ``Goal.blank_first(shape)``
    is ``0 1 2 ... N-1``; any permutation of ``0 .. N-1`` is a goal (:meth:`parse`,
    :meth:`from_tiles`, :meth:`of`).  A goal is immutable and hashable.
    """

    shape: Shape
    tiles: tuple[int, ...]

    def __post_init__(self) -> None:
        if not isinstance(self.shape, Shape):
            raise InputError(f"a goal's shape is a Shape (Shape.parse('4x4')), not {describe(self.shape)}", code="param")
        try:
            tiles = check_tiles(self.shape, self.tiles, solvable=False)
        except InputError as exc:
            raise InputError(f"the goal: {exc}", code=exc.code) from None
        object.__setattr__(self, "tiles", tiles)

    @classmethod
    def _unchecked(cls, shape: Shape, tiles: tuple[int, ...]) -> Goal:
        goal = object.__new__(cls)
        object.__setattr__(goal, "shape", shape)
        object.__setattr__(goal, "tiles", tiles)
        return goal

    @classmethod
    def standard(cls, shape: Shape | str) -> Goal:
        """Tiles ``1 .. N-1`` row by row, the blank last (bottom-right)."""
        shp = Shape.parse(shape)
        return cls._unchecked(shp, shp.goal())

    @classmethod
    def blank_first(cls, shape: Shape | str) -> Goal:
        """The blank first (top-left), then tiles ``1 .. N-1`` row by row: ``0 1 2 ... N-1``."""
        shp = Shape.parse(shape)
        return cls._unchecked(shp, tuple(range(shp.size)))

    @classmethod
    def parse(cls, text: str, shape: Shape | str | None = None) -> Goal:
        """A goal by name (``standard``, ``blank-first``; *shape* needed) or as tiles (the
        notation of :meth:`Board.parse`; the shape inferred as there when not given)."""
        check_text(text, "a goal")
        name = _GOAL_ALIASES.get(text.strip().lower())
        if name is not None:
            if shape is None:
                raise InputError(f"the goal {name!r} needs the board's shape", code="shape")
            return cls.standard(shape) if name == "standard" else cls.blank_first(shape)
        try:
            shp, tiles = parse_tiles(text, shape, solvable=False)
        except InputError as exc:
            raise InputError(f"the goal: {exc}", code=exc.code) from None
        return cls._unchecked(shp, tiles)

    @classmethod
    def from_tiles(cls, tiles: Sequence[int], shape: Shape | str | None = None) -> Goal:
        if not isinstance(tiles, list | tuple):
            raise InputError(f"a goal is a list of tile numbers or text, not {describe(tiles)}", code="param")
        shp = Shape.parse(shape) if shape is not None else Shape.infer(len(tiles))
        return cls(shp, tuple(tiles))

    @classmethod
    def of(cls, goal: Goal | str | Sequence[int] | None, shape: Shape | str) -> Goal:
        """*goal* as a :class:`Goal` of *shape*: ``None`` is the standard goal; a name or text
        is parsed, a list of tiles checked; a :class:`Goal` must be of *shape*."""
        shp = Shape.parse(shape)
        if goal is None:
            return cls.standard(shp)
        if isinstance(goal, Goal):
            if goal.shape != shp:
                raise InputError(f"the goal is for a {goal.shape} board, the position is on a {shp} board", code="shape")
            return goal
        if isinstance(goal, str):
            return cls.parse(goal, shp)
        return cls.from_tiles(goal, shp)

    @property
    def blank(self) -> int:
        """The blank's square in the goal."""
        return self.tiles.index(0)

    @property
    def home(self) -> list[int]:
        """``home[t]``: the square of tile t in the goal (``home[0]``: the blank's)."""
        return tile_squares(self.tiles)

    @property
    def is_standard(self) -> bool:
        return self.tiles == self.shape.goal()

    @property
    def name(self) -> str | None:
        """``"standard"``, ``"blank-first"``, or ``None`` for any other goal."""
        if self.is_standard:
            return "standard"
        if self.tiles == tuple(range(self.shape.size)):
            return "blank-first"
        return None

    def text(self) -> str:
        """One line, tiles separated by spaces, blank as 0 (parseable)."""
        return " ".join(map(str, self.tiles))

    def __str__(self) -> str:
        return self.name or self.text()


@dataclass(frozen=True)
class Board:
    """A position on a board of some :class:`Shape`, solvable towards its *target* (immutable).

    ``Board(shape, tiles, target=None)`` checks its arguments like :meth:`parse` does (a
    permutation of ``0 .. N-1`` that can reach the target) and raises :class:`InputError`
    otherwise; *tiles* may be any list or tuple.  *target* is a :class:`Goal`, a goal's
    name or tiles (:meth:`Goal.of`), or ``None``: the standard goal.  Moves keep the target;
    :meth:`is_goal` and :meth:`solves` are about it.
    """

    shape: Shape
    tiles: tuple[int, ...]
    target: Goal = None  # type: ignore[assignment]  # None: the standard goal (set by __post_init__)

    def __post_init__(self) -> None:
        if not isinstance(self.shape, Shape):
            raise InputError(f"a board's shape is a Shape (Shape.parse('4x4')), not {describe(self.shape)}", code="param")
        target = Goal.of(self.target, self.shape)
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "tiles", check_tiles(self.shape, self.tiles, goal=target.tiles))

    @classmethod
    def _unchecked(cls, shape: Shape, tiles: tuple[int, ...], target: Goal) -> Board:
        """A board from a position known to be good (parsed, or one move from a good one)."""
        board = object.__new__(cls)
        object.__setattr__(board, "shape", shape)
        object.__setattr__(board, "tiles", tiles)
        object.__setattr__(board, "target", target)
        return board

    @classmethod
    def parse(cls, text: str, shape: Shape | str | None = None, target: Goal | str | Sequence[int] | None = None) -> Board:
        """A position a person typed (:func:`parse_tiles`), solvable towards *target* (default
        the standard goal; a name such as ``"blank-first"``, tiles, or a :class:`Goal`)."""
        shp, tiles = parse_tiles(text, shape, solvable=False)
        goal = Goal.of(target, shp)
        problem = solvability_problem(shp, tiles, goal.tiles)
        if problem:
            raise InputError(problem, code="unsolvable")
        return cls._unchecked(shp, tiles, goal)

    @classmethod
    def from_tiles(cls, tiles: Sequence[int], shape: Shape | str | None = None, target: Goal | str | Sequence[int] | None = None) -> Board:
        if not isinstance(tiles, list | tuple):
            raise InputError(f"a position is a list of tile numbers, not {describe(tiles)}", code="param")
        shp = Shape.parse(shape) if shape is not None else Shape.infer(len(tiles))
        return cls(shp, tuple(tiles), Goal.of(target, shp))

    @classmethod
    def goal(cls, shape: Shape | str, target: Goal | str | Sequence[int] | None = None) -> Board:
        """The board at its goal (*target*, default the standard goal)."""
        shp = Shape.parse(shape)
        goal = Goal.of(target, shp)
        return cls._unchecked(shp, goal.tiles, goal)

    @classmethod
    def random(cls, shape: Shape | str, seed: int | random.Random | None = None, target: Goal | str | Sequence[int] | None = None) -> Board:
        """A position drawn uniformly from those of *shape* solvable for *target*: a shuffle (of
        ``random.Random(seed)``, or of *seed* itself when it is one), two tiles (not the blank)
        swapped when it is not solvable (that flips the parity: a bijection between unsolvable
        and solvable positions, so the draw stays uniform)."""
        shp = Shape.parse(shape)
        goal = Goal.of(target, shp)
        rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        tiles = list(range(shp.size))
        rng.shuffle(tiles)
        if solvability_problem(shp, tiles, goal.tiles):
            i, j = [k for k, t in enumerate(tiles) if t][:2]
            tiles[i], tiles[j] = tiles[j], tiles[i]
        return cls(shp, tuple(tiles), goal)

    def with_target(self, target: Goal | str | Sequence[int] | None) -> Board:
        """The same position solved towards another goal (checked: it must be solvable for it)."""
        return Board(self.shape, self.tiles, Goal.of(target, self.shape))

    @property
    def blank(self) -> int:
        return self.tiles.index(0)

    def is_goal(self) -> bool:
        """Whether the board is at its target."""
        return self.tiles == self.target.tiles

    def __str__(self) -> str:
        width = len(str(self.shape.size - 1))
        cols = self.shape.cols
        cells = [str(t).rjust(width) if t else "_".rjust(width) for t in self.tiles]
        return "\n".join(" ".join(cells[r * cols : (r + 1) * cols]) for r in range(self.shape.rows))

    def text(self) -> str:
        """One line, tiles separated by spaces, blank as 0 (parseable)."""
        return " ".join(map(str, self.tiles))

    def to_json(self) -> dict[str, Any]:
        """``{"shape", "rows", "cols", "tiles", "goal"}``: the position in every JSON output (CLI,
        API, batches), with the tiles of the goal it is solved towards."""
        return {
            "shape": str(self.shape),
            "rows": self.shape.rows,
            "cols": self.shape.cols,
            "tiles": list(self.tiles),
            "goal": list(self.target.tiles),
        }

    def movable_tiles(self) -> list[int]:
        return [self.tiles[s] for s in neighbours(self.shape)[self.blank]]

    def slide(self, tile: int) -> Board:
        """The board after *tile* slides into the blank."""
        b = self.blank
        try:
            s = self.tiles.index(tile)
        except ValueError:
            raise InputError(f"there is no tile {describe(tile)} on a {self.shape} board", code="moves") from None
        if tile == 0 or s not in neighbours(self.shape)[b]:
            raise InputError(f"tile {describe(tile)} is not next to the blank", code="moves")
        t = list(self.tiles)
        t[b], t[s] = tile, 0
        return Board._unchecked(self.shape, tuple(t), self.target)  # a move keeps a position solvable

    def move_blank(self, direction: str) -> Board:
        """The board after the blank moves one square in *direction* (U/D/L/R)."""
        d = direction.upper() if isinstance(direction, str) else direction
        if d not in DELTAS:
            raise InputError(f"{describe(direction)} is not a direction (U, D, L or R)", code="moves")
        dr, dc = DELTAS[d]
        r, c = divmod(self.blank, self.shape.cols)
        r2, c2 = r + dr, c + dc
        if not (0 <= r2 < self.shape.rows and 0 <= c2 < self.shape.cols):
            raise InputError(f"the blank cannot move {d} from row {r + 1}, column {c + 1}", code="moves")
        return self.slide(self.tiles[r2 * self.shape.cols + c2])

    def tile_moves(self, moves: object) -> list[int]:
        """*moves* as the tiles that slide, each checked from this board: the one rule for a move
        list wherever one is given (:meth:`apply`, the API's ``trace`` and ``hint``, the CLI).

        A move list is a list (or tuple) of tile numbers -- integers, not booleans, floats or
        text -- or a string of the blank's directions (``U``, ``D``, ``L``, ``R``; spaces
        ignored); at most :data:`~fifteen.limits.MAX_MOVES` moves.  Anything else is an
        :class:`InputError` (code ``moves``), never a guess: ``8.9``, ``"8"`` and ``True`` are
        refused, not read as tiles 8 and 1."""
        return self._replay(moves)[0]

    def apply(self, moves: Sequence[int] | str) -> Board:
        """Apply tile numbers (ints) or a direction string (:meth:`tile_moves`); return the end board."""
        return self._replay(moves)[1]

    def _replay(self, moves: object) -> tuple[list[int], Board]:
        if not isinstance(moves, str | list | tuple):
            raise InputError(f"moves are tile numbers or a string of directions (U, D, L, R), not {describe(moves)}", code="moves")
        if len(moves) > MAX_MOVES:
            raise InputError(f"{len(moves):,} moves are more than the {MAX_MOVES:,} read", code="too_long")
        if isinstance(moves, str):
            tiles = self.tiles_moved(moves)
        else:
            tiles = list(moves)
            for i, t in enumerate(tiles):
                if not isinstance(t, int) or isinstance(t, bool):
                    raise InputError(f"move {i + 1}: {describe(t)} is not a tile number (moves: tile numbers or U, D, L, R)", code="moves")
        board = self
        for t in tiles:
            board = board.slide(t)
        return tiles, board

    def directions(self, tiles_moved: Iterable[int]) -> str:
        """Convert tile numbers that slide into blank directions."""
        out = []
        board = self
        cols = self.shape.cols
        for t in tiles_moved:
            b = board.blank
            nxt = board.slide(t)
            s = nxt.blank
            out.append({-cols: "U", cols: "D", -1: "L", 1: "R"}[s - b])
            board = nxt
        return "".join(out)

    def tiles_moved(self, directions: str) -> list[int]:
        """Convert blank directions into the tile numbers that slide."""
        out = []
        board = self
        for d in directions.replace(" ", ""):
            nxt = board.move_blank(d)
            out.append(board.tiles[nxt.blank])
            board = nxt
        return out

    def solves(self, moves: Sequence[int] | str) -> bool:
        """True when *moves* (either notation) take this board to its target."""
        try:
            return self.apply(moves).is_goal()
        except InputError:
            return False

    def transposed(self) -> Board:
        """The position reflected about the main diagonal (square boards).

        Tile ``t`` whose standard goal square is (r, c) becomes the tile whose standard goal
        square is (c, r), placed on the mirrored square; the target is reflected the same way
        (the standard goal maps to itself), so the distance to it is unchanged.
        """
        if self.shape.rows != self.shape.cols:
            raise InputError("only square boards can be reflected about the diagonal", code="shape")
        goal = self.target
        if not goal.is_standard:
            goal = Goal._unchecked(self.shape, tuple(transpose_tiles(self.shape, goal.tiles)))
        return Board._unchecked(self.shape, tuple(transpose_tiles(self.shape, self.tiles)), goal)  # mirrors a solution
