"""The corner tiles (Korf and Taylor, "Finding optimal solutions to the twenty-four puzzle",
AAAI-96): 2 more moves on top of MD + linear conflict + the last moves for each tile next to a
corner that must step aside to let the corner's own tile in.

**The rule.**  Let *C* be a corner square whose goal holds a tile *c*, *X* a square next to it
and *x* the tile whose goal is *X*.  A corner has two neighbours, *X* and another, *Y*.  If *x*
never leaves *X*, the blank enters and leaves *C* through *Y* only, so each time it leaves, the
tile that came out of *C* goes back in: the tile on *C* never changes, but for the very first
move when the blank starts on *C* (the tile on *Y* then slides in).  So when *x* stands on *X*
and *c* is not on *C* (and not: the blank on *C* and *c* on *Y*), *x* must leave *X* and come
back: 2 moves its Manhattan distance (0) does not count.  Both neighbours of a corner may each
add 2.

**With the other terms.**  The 2 are moves of *x*, and *x* stands at home:
* MD counts none of *x*'s moves;
* linear conflict counts the moves of tiles in conflict in their goal line.  *X* lies on the
  border, at an end of its line across the border, so *x* has no conflict there; along the
  border it conflicts only with a tile on *C* whose goal lies beyond *X* in that line, or with
  *c* standing beyond *X* in it.  The rule leaves those cases out, so LC never counts *x*;
* the last moves (:mod:`fifteen.bounds.last_moves`) count moves of *A* and *B*, the tiles whose
  goals are next to the blank's: a neighbour square that is *A*'s or *B*'s goal is left out;
* a square next to two corners (a side of 3) is left out, as is a neighbour that is the
  blank's goal, and a pair along a line whose conflicts the last moves read (B's goal row, A's
  goal column: on a board with a side of 2 they are border lines).
So ``MD + LC + last moves + corner tiles`` stays admissible (checked against exact distances on
every 2x3, 2x4 and 4x2 position and on the positions near the goal of 3x4, 4x4 and 6x6, in the
tests).

**In the search loop** the rule costs almost nothing: all it reads but the blank lies in one
border line's code (*x* home, *c* home or beyond *X*, the goal of the tile on *C*), so each border
line with pairs reads a table of its own, the line-conflict table plus the rule
(:func:`corner_lines`: its code offset into a segment of the loop's table).  The blank's
exception is taken off only when a move brings the blank onto a pair's corner or takes it off
one (:data:`fifteen.bounds.manhattan_loop.CORNER_TILES_LOOP`).

:func:`corner_pairs` lists the (corner, neighbour) pairs of a goal; :func:`corner_tiles` is the
value of a position.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import NamedTuple

from fifteen.board import Shape
from fifteen.bounds.last_moves import last_tiles
from fifteen.bounds.manhattan import LINE_TABLE_MAX, LineExtras, goal_squares, line_codes, line_extras, line_table

#: The rule is used on boards up to this many squares a side, where the line tables are ``bytes``
#: (:data:`~fifteen.bounds.manhattan.LINE_TABLE_MAX`).  Past it they are dicts filled as codes are
#: met, and with the rule's segments the searches on DeepCubeA's 7x7 positions took 1.1 times as
#: long to a given bound, where on 6x6 they took 0.46 times (bench/anytime.md, *The corner tiles*).
MAX_SIDE = LINE_TABLE_MAX


class CornerPair(NamedTuple):
    """A corner *corner* and its neighbour *square*, as the search loop reads them."""

    square: int  #: X, next to the corner
    tile: int  #: x, the tile whose goal is X
    corner: int  #: C
    corner_tile: int  #: c, the tile whose goal is C
    other: int  #: Y, the corner's other neighbour
    line: int  #: that line as an index of the line codes (rows first, then columns)
    places: tuple[int, int]  #: the places of C and X in that line


@lru_cache(maxsize=16)
def corner_pairs(shape: Shape, goal: tuple[int, ...] | None = None) -> tuple[CornerPair, ...]:
    """The (corner, neighbour) pairs the rule applies to for *goal* (default the standard goal),
    whose blank must be on the last square (else: no pair; none past :data:`MAX_SIDE` either)."""
    pair = last_tiles(shape, goal)
    if pair is None or max(shape.rows, shape.cols) > MAX_SIDE:
        return ()
    n, rows, cols = shape.size, shape.rows, shape.cols
    home = goal_squares(shape, goal)
    tile_on = [0] * n
    for t, sq in enumerate(home):
        tile_on[sq] = t
    corners = [0, cols - 1, (rows - 1) * cols]
    steps = {0: (1, cols), cols - 1: (-1, cols), (rows - 1) * cols: (1, -cols)}
    found = []
    for c in corners:
        along_row, along_col = steps[c]
        ends = (c + along_row, c + along_col)
        for k, step in enumerate((along_row, along_col)):
            x = c + step  # the neighbour along the row (k 0) or the column (k 1)
            if k == 0:
                code_line, places = c // cols, (c % cols, x % cols)
            else:
                code_line, places = rows + c % cols, (c // cols, x // cols)
            found.append((c, x, ends[1 - k], code_line, places))
    # Left out: a square next to two corners, the blank's goal, A's or B's goal, and the lines
    # whose conflicts the last moves read (B's goal row, A's goal column: the border on a side of 2).
    uses = Counter(found_pair[1] for found_pair in found)
    left_out = {home[0], home[pair[0]], home[pair[1]]}
    read_by_last_moves = {rows - 2, rows + cols - 2}
    out = []
    for c, x, y, code_line, places in found:
        if uses[x] > 1 or x in left_out or code_line in read_by_last_moves:
            continue
        out.append(CornerPair(x, tile_on[x], c, tile_on[c], y, code_line, places))
    return tuple(out)


def corner_tiles(shape: Shape, tiles: Sequence[int], goal: Sequence[int] | None = None) -> int:
    """The corner tiles' extra moves of a position (its tiles) towards *goal* (default the
    standard goal, whose blank is on the last square; 0 for any other goal): each border line's
    :func:`line_corner_extra` from its code, less the blank's exception."""
    goal = None if goal is None else tuple(goal)
    pairs = corner_pairs(shape, goal)
    if not pairs:
        return 0
    codes = line_codes(shape, tiles, goal)
    extra = sum(line_corner_extra(_length(shape, line), places, codes[line]) for line, places in _places_by_line(pairs).items())
    return extra - blank_exception(pairs, tiles)


def blank_exception(pairs: Sequence[CornerPair], tiles: Sequence[int]) -> int:
    """What :func:`line_corner_extra` counts too many for a position: 2 per pair whose corner holds
    the blank, with *x* on *X* and *c* on *Y* (the search loop's form: ``_corner_lines`` in
    :mod:`fifteen.bounds.manhattan_loop`)."""
    blank = list(tiles).index(0)
    return sum(2 for p in pairs if blank == p.corner and tiles[p.square] == p.tile and tiles[p.other] == p.corner_tile)


def _length(shape: Shape, line: int) -> int:
    """The number of cells of a line of the codes (rows first, then columns)."""
    return shape.cols if line < shape.rows else shape.rows


def _places_by_line(pairs: Sequence[CornerPair]) -> dict[int, tuple[tuple[int, int], ...]]:
    by_line: dict[int, list[tuple[int, int]]] = {}
    for p in pairs:
        by_line.setdefault(p.line, []).append(p.places)
    return {line: tuple(sorted(places)) for line, places in by_line.items()}


def line_corner_extra(length: int, places: Sequence[tuple[int, int]], code: int) -> int:
    """The corner tiles of one border line from its line code (:func:`fifteen.bounds.manhattan.line_table`'s:
    a digit per place, 1 + the goal place of a tile of that line, else 0), for its pairs' *places*
    ``(place of C, place of X)``; the blank's exception (on *C*, with *c* on *Y*) is not seen
    (the search loop takes it off: :data:`fifteen.bounds.manhattan_loop.CORNER_TILES_LOOP`)."""
    base = length + 1
    digits = []
    for _ in range(length):
        code, digit = divmod(code, base)
        digits.append(digit)
    extra = 0
    for pc, px in places:
        if digits[px] != px + 1 or digits[pc] == pc + 1:
            continue
        beyond = range(px + 1, length) if px > pc else range(px - 1, -1, -1)
        z = digits[pc]
        if (z and z - 1 in beyond) or any(digits[q] == pc + 1 for q in beyond):
            continue
        extra += 2
    return extra


def _codes_with(length: int, place: int, digit: int) -> Iterator[int]:
    """The line codes (base ``length + 1``) with *digit* on *place*, each other digit at most once."""
    base = length + 1
    free = [q for q in range(length) if q != place]

    def fill(i: int, code: int, used: int) -> Iterator[int]:
        if i == len(free):
            yield code
            return
        yield from fill(i + 1, code, used)
        for d in range(1, base):
            if not used >> d & 1:
                yield from fill(i + 1, code + d * base ** free[i], used | 1 << d)

    return fill(0, digit * base**place, 1 << digit)


@lru_cache(maxsize=16)
def corner_line_table(length: int, places: tuple[tuple[int, int], ...]) -> bytes:
    """:func:`fifteen.bounds.manhattan.line_table` with :func:`line_corner_extra` added (right on
    the codes of real lines: each tile once)."""
    plain = line_table(length)
    if not places:
        return plain
    out = bytearray(plain)
    for _, px in places:  # the codes with x home (every other tile of a real line once, or none)
        for code in _codes_with(length, px, px + 1):
            out[code] = plain[code] + line_corner_extra(length, places, code)
    return bytes(out)


@lru_cache(maxsize=16)
def corner_lines(shape: Shape, goal: tuple[int, ...] | None = None) -> tuple[bytes | LineExtras, bytes | LineExtras, tuple[int, ...]]:
    """``(row table, column table, offsets)``: the search loop's line tables with the corner
    tiles in them, and the offset to add to each line's code (rows first, then columns; 0 for a
    line without pairs, whose segment is the plain table).  Each border line with pairs reads
    a segment of its own: the row table is the plain rows' table, then one segment per border
    row with pairs; the same for columns.  A board without pairs gets the plain tables
    (:func:`fifteen.bounds.manhattan.line_extras`) and no offsets."""
    rows, cols = shape.rows, shape.cols
    by_line = _places_by_line(corner_pairs(shape, goal))
    if not by_line:
        return line_extras(cols), line_extras(rows), (0,) * (rows + cols)
    offsets = [0] * (rows + cols)
    tables = []
    for lines, length in ((range(rows), cols), (range(rows, rows + cols), rows)):
        segments: list[tuple[tuple[int, int], ...]] = [()]
        for line in lines:
            if line in by_line:
                offsets[line] = len(segments) * (length + 1) ** length
                segments.append(by_line[line])
        tables.append(_segmented(length, tuple(segments)))
    return tables[0], tables[1], tuple(offsets)


@lru_cache(maxsize=8)
def _segmented(length: int, segments: tuple[tuple[tuple[int, int], ...], ...]) -> bytes:
    # (one object for the rows and the columns of a square board: half the memory, warmer caches)
    return b"".join(corner_line_table(length, places) for places in segments)


__all__ = [
    "MAX_SIDE",
    "CornerPair",
    "blank_exception",
    "corner_line_table",
    "corner_lines",
    "corner_pairs",
    "corner_tiles",
    "line_corner_extra",
]
