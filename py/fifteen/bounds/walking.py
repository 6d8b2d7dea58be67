"""Walking distance (WD), after Ken'ichiro Takahashi, with the seed's linked table.

Vertical WD forgets columns: a position is reduced to a *table* ``count[r][g]``
= how many tiles in board row ``r`` have their goal in row ``g`` (the blank's
row is the one holding ``cols - 1`` tiles).  A vertical move takes one tile
from a row next to the blank's row into it.  A breadth-first search from the
goal's table over these moves gives the exact number of vertical moves every
table needs: a lower bound on the vertical moves of any position reduced to
it.  Horizontal WD is the same on the transposed board (columns and goal
columns), i.e. the table of the transposed shape.  WD = vertical + horizontal.
On 4x4 there are 24,964 tables, the largest distance 35.  The tables the bounds use
come from :func:`fifteen.bounds.databases.walking_table` (an asset, else built here, once);
:func:`fifteen.bounds.walking_distance` gives a position's ``(WD_v, WD_h)`` (:func:`axis_counts`
reduces it to its tables).

**Any goal.**  The tables depend on the goal only through the blank's goal row (the row that
holds ``cols - 1`` tiles in the goal's table) and the goal row of each tile.  The assets are
for the standard goal (blank in the last row); for a goal with its blank in another row,
:func:`fifteen.bounds.databases.walking_table` builds that row's tables in-process, once, at first use (a breadth-first
search from that goal's table: as exact, so as admissible).  Horizontal WD reads columns and
goal columns the same way (the table of the transposed shape, the blank's goal column).

**Linked table.**  Next to each table's distance, ``links`` stores the index
of the table reached by each possible move, so the search updates its key
with one lookup per vertical (or horizontal) move::

    next = links[key * 2 * R + direction * R + g]

where ``R`` is the number of rows of the table's shape, ``direction`` is 0
when the blank moves up (a tile whose goal row is ``g`` comes down into the
blank's row) and 1 when the blank moves down; ``NO_LINK`` marks impossible
moves.

Asset payload (kind ``"wd"``; meta: ``rows``, ``cols``, ``states`` = n,
``max``, ``link_bytes`` = 2 or 4), tables in breadth-first order (index 0 is
the goal):

    n * R * R  bytes   the tables, row-major ``count[r][g]`` each
    n          bytes   distances
    n * 2 * R  links   little-endian unsigned of ``link_bytes`` each
"""

from __future__ import annotations

import struct
import sys
from array import array
from collections.abc import Sequence

from fifteen.board import MAX_SIDE, MAX_SQUARES, MIN_SIDE, Shape
from fifteen.db.container import read_asset, write_asset
from fifteen.errors import AssetError

NO_LINK = -1


class WalkingTable:
    """The WD tables of one shape (vertical walking distance of that shape)."""

    def __init__(self, shape: Shape, keys: list[bytes], values: bytes, links: list[int], blank_row: int | None = None):
        self.shape = shape
        #: the row of the blank in the goal's table (the last row for the standard goal)
        self.blank_row = shape.rows - 1 if blank_row is None else blank_row
        self.keys = keys
        self.values = values
        self.links = links
        self.index = {k: i for i, k in enumerate(keys)}

    def __len__(self) -> int:
        return len(self.keys)

    @property
    def maximum(self) -> int:
        return max(self.values)

    # ------------------------------------------------------------ building
    @classmethod
    def build(cls, shape: Shape, blank_row: int | None = None) -> WalkingTable:
        """Breadth-first search over the tables of *shape*, from the goal's (the blank's goal
        row *blank_row*, default the last)."""
        rows, cols = shape.rows, shape.cols
        blank_row = rows - 1 if blank_row is None else blank_row
        goal = [0] * (rows * rows)
        for r in range(rows):
            goal[r * rows + r] = cols if r != blank_row else cols - 1
        keys = [bytes(goal)]
        index = {keys[0]: 0}
        values = bytearray([0])
        links: list[int] = []
        width = 2 * rows
        head = 0
        while head < len(keys):
            key = keys[head]
            blank_row = next(r for r in range(rows) if sum(key[r * rows : (r + 1) * rows]) == cols - 1)
            row_links = [NO_LINK] * width
            for direction, src in enumerate((blank_row - 1, blank_row + 1)):
                if not 0 <= src < rows:
                    continue
                for g in range(rows):
                    if key[src * rows + g] == 0:
                        continue
                    nxt = bytearray(key)
                    nxt[src * rows + g] -= 1
                    nxt[blank_row * rows + g] += 1
                    nk = bytes(nxt)
                    j = index.get(nk)
                    if j is None:
                        j = index[nk] = len(keys)
                        keys.append(nk)
                        values.append(values[head] + 1)
                    row_links[direction * rows + g] = j
            links.extend(row_links)
            head += 1
        return cls(shape, keys, bytes(values), links, blank_row)

    # ------------------------------------------------------------ lookups
    def key_of(self, tiles: Sequence[int]) -> int:
        """Index of the table of a position of this shape (vertical reading, standard goal)."""
        rows, cols = self.shape.rows, self.shape.cols
        counts = bytearray(rows * rows)
        for sq, t in enumerate(tiles):
            if t:
                counts[(sq // cols) * rows + (t - 1) // cols] += 1
        return self.index[bytes(counts)]

    def value(self, tiles: Sequence[int]) -> int:
        return self.values[self.key_of(tiles)]

    # ------------------------------------------------------------ assets
    def to_bytes(self) -> bytes:
        n = len(self.keys)
        link_bytes = 2 if n < 0xFFFF else 4
        links = array("H" if link_bytes == 2 else "I", [(x if x >= 0 else (1 << (8 * link_bytes)) - 1) for x in self.links])
        if sys.byteorder == "big":
            links.byteswap()
        payload = b"".join(self.keys) + self.values + links.tobytes()
        meta = {
            "kind": "wd",
            "rows": self.shape.rows,
            "cols": self.shape.cols,
            "states": n,
            "max": self.maximum,
            "link_bytes": link_bytes,
        }
        return write_asset(meta, payload)

    @classmethod
    def from_bytes(cls, data: bytes | bytearray | memoryview, name: str = "WD asset", shape: Shape | None = None) -> WalkingTable:
        asset = read_asset(data, name=name, kind="wd")
        meta = asset.meta
        try:
            shp = Shape(int(meta["rows"]), int(meta["cols"]))
            n, link_bytes = int(meta["states"]), int(meta["link_bytes"])
        except (KeyError, TypeError, ValueError) as exc:
            raise AssetError(f"{name}: bad WD metadata ({exc})", code="asset_corrupt") from None
        if shape is not None and shp != shape:
            raise AssetError(f"{name}: holds WD tables for {shp}, expected {shape}", code="asset_corrupt")
        if link_bytes not in (2, 4):
            raise AssetError(f"{name}: link size {link_bytes} is not 2 or 4", code="asset_corrupt")
        rows = shp.rows
        kb = rows * rows
        expected = n * kb + n + n * 2 * rows * link_bytes
        payload = bytes(asset.payload) if isinstance(asset.payload, bytearray) else asset.payload  # a zlib payload is bytes
        if len(payload) != expected:
            raise AssetError(f"{name}: payload is {len(payload)} bytes, {n} tables need {expected}", code="asset_corrupt")
        keys = [key for (key,) in struct.iter_unpack(f"{kb}s", payload[: n * kb])]
        values = payload[n * kb : n * kb + n]
        # read as signed where every index fits, so that the all-ones "no link" is NO_LINK (-1) as read
        signed = link_bytes == 4 or n <= 0x7FFF
        links_arr = array({2: "h", 4: "i"}[link_bytes] if signed else "H")
        links_arr.frombytes(payload[n * kb + n :])
        if sys.byteorder == "big":
            links_arr.byteswap()
        links = links_arr.tolist()
        if not signed:
            links = [x if x != 0xFFFF else NO_LINK for x in links]
        table = cls(shp, keys, values, links)
        if len(table.index) != n or values[0] != 0 or max(links) >= n or min(links) < NO_LINK:
            raise AssetError(f"{name}: inconsistent WD tables", code="asset_corrupt")
        return table


def axis_counts(shape: Shape, tiles: Sequence[int], home: Sequence[int], vertical: bool) -> bytes:
    """A position's WD table for the goal squares *home* (``home[t]``: tile t's goal square):
    ``count[row][goal row]`` (*vertical*) or ``count[column][goal column]``, row-major."""
    cols = shape.cols
    k = shape.rows if vertical else cols
    counts = bytearray(k * k)
    for sq, t in enumerate(tiles):
        if t:
            if vertical:
                counts[(sq // cols) * k + home[t] // cols] += 1
            else:
                counts[(sq % cols) * k + home[t] % cols] += 1
    return bytes(counts)


def _table_feasible(rows: int, cols: int) -> bool:
    # At most 24,964 tables (4x4) -- the next sizes up are 107,712 (4x5),
    # 352,560 (5x3), 367,560 (6x2) and 5,977,015 (5x4): megabytes to ship for
    # boards that MD + linear conflict already solves.
    return (rows <= 3 and cols <= 5) or (rows == 4 and cols <= 4) or (rows == 5 and cols == 2)


def walking_available(shape: Shape) -> bool:
    """Whether WD is offered on boards of *shape* (both its tables are small enough)."""
    return _table_feasible(shape.rows, shape.cols) and _table_feasible(shape.cols, shape.rows)


def supported_shapes() -> list[Shape]:
    """Every board shape the package accepts, in order."""
    return [Shape(r, c) for r in range(MIN_SIDE, MAX_SIDE + 1) for c in range(MIN_SIDE, MAX_SIDE + 1) if r * c <= MAX_SQUARES]


def table_users() -> dict[Shape, list[Shape]]:
    """WD table shape -> the board shapes that read it (vertically or horizontally)."""
    users: dict[Shape, list[Shape]] = {}
    for board in supported_shapes():
        if walking_available(board):
            for table in dict.fromkeys((board, board.transposed())):
                users.setdefault(table, []).append(board)
    return users


def asset_file(shape: Shape) -> str:
    return f"wd-{shape}.f15"
