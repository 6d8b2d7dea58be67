"""Boards: shapes, parsing with precise errors, moves in both notations, replay.

Conventions (the seed's):

* Squares are numbered row-major from 0; a board of *rows* x *cols* has
  ``rows * cols`` squares.  A position is a tuple of tiles by square, ``0`` the
  blank.
* The goal holds tiles ``1 .. N-1`` row-major with the blank last
  (bottom-right).
* A solution is written two ways: the **tile numbers that slide** into the
  blank, one per move (the seed's notation, e.g. ``15 14 13 9``), or the
  **directions the blank moves**, ``U D L R`` (so ``U`` slides the tile above
  the blank down).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from fifteen.errors import FifteenError as FifteenError  # re-exported: the base of InputError
from fifteen.errors import InputError
from fifteen.limits import MAX_MOVES, MAX_TILE_CHARS, TOKEN_CHARS, check_text, describe, non_ascii_digit_problem

MIN_SIDE = 2
MAX_SIDE = 6
MAX_SQUARES = 25

DIRECTIONS = "UDLR"
_DELTAS = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}
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
        if not (MIN_SIDE <= r <= MAX_SIDE and MIN_SIDE <= c <= MAX_SIDE) or r * c > MAX_SQUARES:
            name = f"{r}x{c}" if max(r, c) < 10**6 else f"of {describe(r)} by {describe(c)}"
            raise InputError(
                f"shape {name} is not supported: rows and columns go from {MIN_SIDE} to {MAX_SIDE} with at most {MAX_SQUARES} squares",
                code="shape",
            )

    @property
    def size(self) -> int:
        return self.rows * self.cols

    def __str__(self) -> str:
        return f"{self.rows}x{self.cols}"

    def transposed(self) -> Shape:
        return Shape(self.cols, self.rows)

    def goal(self) -> tuple[int, ...]:
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
        """The shape for *count* tiles: square counts only (4, 9, 16, 25)."""
        side = round(count**0.5)
        if side * side == count and MIN_SIDE <= side:
            if count > MAX_SQUARES:
                raise InputError(f"{count} tiles is more than the largest supported board ({MAX_SQUARES} squares)", code="shape")
            return cls(side, side)
        options = [
            f"{r}x{count // r}"
            for r in range(MIN_SIDE, MAX_SIDE + 1)
            if count % r == 0 and MIN_SIDE <= count // r <= MAX_SIDE and count <= MAX_SQUARES
        ]
        if options:
            raise InputError(f"{count} tiles could be {' or '.join(options)}: give the shape", code="shape")
        raise InputError(
            f"{count} tiles do not make a supported board (4, 9, 16 or 25 for a square one; give the shape for others)", code="shape"
        )


@cache
def neighbours(shape: Shape) -> tuple[tuple[int, ...], ...]:
    """For each square, the squares next to it (up, down, left, right order)."""
    rows, cols = shape.rows, shape.cols
    out = []
    for sq in range(shape.size):
        r, c = divmod(sq, cols)
        out.append(tuple((r + dr) * cols + (c + dc) for dr, dc in _DELTAS.values() if 0 <= r + dr < rows and 0 <= c + dc < cols))
    return tuple(out)


def blank_steps(shape: Shape, blank: int) -> int:
    """Manhattan distance of the blank at *blank* from its goal square."""
    r, c = divmod(blank, shape.cols)
    return (shape.rows - 1 - r) + (shape.cols - 1 - c)


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


def solvability_problem(shape: Shape, tiles: Sequence[int]) -> str | None:
    """``None`` if *tiles* can reach the goal, else the reason it cannot."""
    inv = inversions(tiles)
    if shape.cols % 2:
        if inv % 2:
            return (
                f"unsolvable: the tiles read row by row have {inv} inversions, an odd number;"
                f" on a board {shape.cols} wide every move keeps that parity and the goal has 0"
            )
        return None
    rows_up = shape.rows - 1 - tiles.index(0) // shape.cols
    if (inv + rows_up) % 2:
        return (
            f"unsolvable: the tiles read row by row have {inv} inversions and the blank is {rows_up}"
            f" row{'s' if rows_up != 1 else ''} above the bottom; on a board {shape.cols} wide every move"
            f" keeps the parity of their sum ({inv + rows_up}, odd) and the goal's is even"
        )
    return None


def check_tiles(shape: Shape, tiles: Sequence[int], *, solvable: bool = True) -> tuple[int, ...]:
    """Validate a position; return it as a tuple or raise :class:`InputError`."""
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
        problem = solvability_problem(shape, tiles)
        if problem:
            raise InputError(problem, code="unsolvable")
    return tuple(tiles)


def tokenize(text: str) -> list[str]:
    return [tok for tok in _SEPARATORS.split(text.strip()) if tok]


def parse_tiles(text: str, shape: Shape | str | None = None, *, solvable: bool = True) -> tuple[Shape, tuple[int, ...]]:
    """Parse a position a person typed or pasted.

    Numbers are separated by spaces, commas, semicolons or newlines; the blank
    may be written ``0``, ``_`` or ``.``.  Without *shape* the count must be
    square (4, 9, 16, 25).
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


@dataclass(frozen=True)
class Board:
    """A solvable position on a board of some :class:`Shape` (immutable).

    ``Board(shape, tiles)`` checks its arguments like :meth:`parse` does (a
    permutation of ``0 .. N-1`` that can reach the goal) and raises
    :class:`InputError` otherwise; *tiles* may be any list or tuple.
    """

    shape: Shape
    tiles: tuple[int, ...]

    def __post_init__(self) -> None:
        if not isinstance(self.shape, Shape):
            raise InputError(f"a board's shape is a Shape (Shape.parse('4x4')), not {describe(self.shape)}", code="param")
        object.__setattr__(self, "tiles", check_tiles(self.shape, self.tiles))

    @classmethod
    def _unchecked(cls, shape: Shape, tiles: tuple[int, ...]) -> Board:
        """A board from a position known to be good (parsed, or one move from a good one)."""
        board = object.__new__(cls)
        object.__setattr__(board, "shape", shape)
        object.__setattr__(board, "tiles", tiles)
        return board

    @classmethod
    def parse(cls, text: str, shape: Shape | str | None = None) -> Board:
        shp, tiles = parse_tiles(text, shape)
        return cls._unchecked(shp, tiles)  # parse_tiles checked it

    @classmethod
    def from_tiles(cls, tiles: Sequence[int], shape: Shape | str | None = None) -> Board:
        if not isinstance(tiles, list | tuple):
            raise InputError(f"a position is a list of tile numbers, not {describe(tiles)}", code="param")
        shp = Shape.parse(shape) if shape is not None else Shape.infer(len(tiles))
        return cls(shp, tuple(tiles))

    @classmethod
    def goal(cls, shape: Shape | str) -> Board:
        shp = Shape.parse(shape)
        return cls._unchecked(shp, shp.goal())

    @property
    def blank(self) -> int:
        return self.tiles.index(0)

    def is_goal(self) -> bool:
        return self.tiles == self.shape.goal()

    def __str__(self) -> str:
        width = len(str(self.shape.size - 1))
        cols = self.shape.cols
        cells = [str(t).rjust(width) if t else "_".rjust(width) for t in self.tiles]
        return "\n".join(" ".join(cells[r * cols : (r + 1) * cols]) for r in range(self.shape.rows))

    def text(self) -> str:
        """One line, tiles separated by spaces, blank as 0 (parseable)."""
        return " ".join(map(str, self.tiles))

    def to_json(self) -> dict[str, Any]:
        """``{"shape", "rows", "cols", "tiles"}``: the position in every JSON output (CLI, API, batches)."""
        return {"shape": str(self.shape), "rows": self.shape.rows, "cols": self.shape.cols, "tiles": list(self.tiles)}

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
        return Board._unchecked(self.shape, tuple(t))  # a move keeps a position solvable

    def move_blank(self, direction: str) -> Board:
        """The board after the blank moves one square in *direction* (U/D/L/R)."""
        d = direction.upper() if isinstance(direction, str) else direction
        if d not in _DELTAS:
            raise InputError(f"{describe(direction)} is not a direction (U, D, L or R)", code="moves")
        dr, dc = _DELTAS[d]
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
        """True when *moves* (either notation) take this board to the goal."""
        try:
            return self.apply(moves).is_goal()
        except InputError:
            return False

    def transposed(self) -> Board:
        """The position reflected about the main diagonal (square boards).

        Tile ``t`` whose goal is (r, c) becomes the tile whose goal is (c, r),
        placed on the mirrored square; the goal maps to itself.
        """
        if self.shape.rows != self.shape.cols:
            raise InputError("only square boards can be reflected about the diagonal", code="shape")
        return Board._unchecked(self.shape, tuple(transpose_tiles(self.shape, self.tiles)))  # mirrors a solution
