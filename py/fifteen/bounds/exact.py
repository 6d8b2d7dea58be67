"""The small-board explorer: exact distances of every position of a small board.

Pure Python, standard library only (natively and in Pyodide).  The tables are
built by ``build_db.py`` (numpy, ``py/dbbuild/explorer.py``) and travel as
``"explore"`` assets in the container of :mod:`fifteen.db.container`: 3x3, 2x4 and
2x5 with the default databases (``explore-3x3.f15``, ...), 3x4 and 2x6 as
optional packs (``explore-3x4.f15.xz``, ``make explorer-pack``).  A table
built for ``R x C`` also serves ``C x R`` through the transposition (tile
``t`` whose goal is (r, c) becomes the tile whose goal is (c, r), on the
mirrored square: distances are preserved, a blank move ``U`` becomes ``L``).

Queries: the exact distance of a position, every move with the distance it
leads to (the optimal moves are those that lead to ``d - 1``), the histogram
of distances, the hardest positions, a uniformly random position at an exact
distance (:class:`Explorer`).  The loaded tables live in :mod:`fifteen.bounds.databases`
(:func:`~fifteen.bounds.databases.explorer` gives the explorer of a shape).

Index (blank-major rank)
------------------------
A board has ``N = rows * cols`` squares; of the ``N!`` arrangements exactly
half are solvable.  A solvable position is ranked as::

    rank = blank_square * H + sequence_rank,    H = (N - 1)! / 2

where the *sequence* is the ``M = N - 1`` tiles read row by row, blank
skipped, and ``sequence_rank`` its Lehmer code with the last two digits
dropped: ``L_i = #{j > i : seq_j < seq_i}`` (radix ``M - i``), digit 0 most
significant, ``sequence_rank = sum(L_i * (M-1-i)! / 2 for i < M - 2)``.  The
last digit is always 0 and the one before it is fixed by the parity of the
sequence's inversions, which solvability fixes for each blank square (even
on odd-width boards; the parity of the blank's row counted from the bottom
on even-width ones).  So the ranks fill ``0 .. N * H - 1`` exactly, and a
horizontal move, which does not change the sequence, changes the rank by
``+-H``.

Encoding (one bit per position)
-------------------------------
Bit ``x`` of the payload (``payload[x >> 3] >> (x & 7) & 1``) holds
``(d // 2) % 2`` where ``d`` is the exact distance of the position of rank
``x``.  The parity of ``d`` is known without the table (every move changes the
blank's Manhattan distance to its goal square by one, so ``d`` has the parity
of that distance), so the bit gives ``d mod 4``; the neighbours of a position
at ``d`` are at ``d - 1`` or ``d + 1``, which differ mod 4.  The optimal
moves are therefore the moves to neighbours at ``(d - 1) mod 4``, and the
exact distance is the length of the walk that takes such a move until the
goal.  (Two bits of ``d mod 3`` work the same way; one bit is half the size
raw and smaller once compressed: see ``bench/explorer.md``.)

After the ``ceil(N * H / 8)`` bytes of bits come the *lists*: for each entry
of ``meta["lists"]`` (``{"distance": d, "count": c, "offset": o}``, ``o`` in
bytes from the start of the payload), the ranks of every position at
distance ``d``, ``c`` little-endian uint32 in increasing order.  They are
stored for the distances too rare to find by rejection sampling (see
:meth:`ExplorerTable.random_rank`).

Metadata::

    {"kind": "explore", "explore_format": 1, "rows": 3, "cols": 3,
     "index": "blank-major", "encoding": "half-distance-bit",
     "positions": 181440, "radius": 31, "histogram": [1, 2, 4, ...],
     "hardest": [[tiles...], ...], "hardest_count": 2,
     "bits_bytes": 22680, "lists": [...]}

``histogram[d]`` counts the positions at distance ``d``; ``hardest`` lists the
positions at distance ``radius`` (all of them when at most
:data:`HARDEST_LIMIT`, else the first by rank; ``hardest_count`` says how
many there are).

Files: the default assets are plain containers (zlib); a pack is an xz of a
container whose payload is stored uncompressed, as the 7-8 pack
(:mod:`fifteen.bounds.pdb78`); both are read by :func:`fifteen.db.container.read_asset`.
"""

from __future__ import annotations

import random
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from math import factorial

from fifteen.board import Board, InputError, Shape, blank_steps, neighbours, transpose_tiles
from fifteen.bounds.manhattan import manhattan
from fifteen.db.container import AssetError, read_asset

KIND = "explore"
EXPLORE_FORMAT = 1
INDEX = "blank-major"
ENCODING = "half-distance-bit"
#: At most this many hardest positions are listed in the metadata.
HARDEST_LIMIT = 64
#: A distance's positions are listed in the asset when rejection sampling would need more than
#: this many draws per position found (``positions / count``): up to the most populated distance,
#: where a Manhattan-distance filter rejects most draws before any walk, and beyond it, where every
#: draw of the right residue is walked (measured on 3x4: at most ~30 ms per position natively).
LIST_RATIO_BELOW = 4096
LIST_RATIO_ABOVE = 1024


def listed_distances(histogram: Sequence[int]) -> list[int]:
    """The distances whose positions an asset lists (see :data:`LIST_RATIO_BELOW`)."""
    total = sum(histogram)
    mode = max(range(len(histogram)), key=histogram.__getitem__)
    return [d for d, c in enumerate(histogram) if c * (LIST_RATIO_BELOW if d <= mode else LIST_RATIO_ABOVE) <= total]


#: Shapes the builder makes tables for (rows <= cols; the transposed shape is served too).
DEFAULT_SHAPES = ("3x3", "2x4", "2x5")
PACK_SHAPES = ("3x4", "2x6")
#: Longest optima known without a table (the radius from the standard goal): no 15-puzzle
#: position needs more than 80 moves (Brüngger, Marzetta, Fukuda and Nievergelt, 1999).
PUBLISHED_RADII = {"4x4": 80}

_UINT32 = struct.Struct("<I")


def asset_file(shape: Shape | str) -> str:
    """``explore-3x3.f15`` (default assets) or ``explore-3x4.f15.xz`` (packs)."""
    name = str(shape)
    return f"explore-{name}.f15.xz" if name in PACK_SHAPES else f"explore-{name}.f15"


# ----------------------------------------------------------------- ranking
class Ranking:
    """The blank-major rank of the solvable positions of one shape (see the module docstring)."""

    def __init__(self, shape: Shape) -> None:
        self.shape = shape
        self.squares = n = shape.size
        self.m = n - 1
        self.block = factorial(n - 1) // 2
        self.total = n * self.block
        rows, cols = shape.rows, shape.cols
        #: required parity of the sequence's inversions, per blank square
        self.parity = tuple(0 if cols % 2 else (rows - 1 - b // cols) & 1 for b in range(n))
        #: parity of the distance to the goal, per blank square
        self.distance_parity = tuple(blank_steps(shape, b) & 1 for b in range(n))
        self.goal_rank = self.rank(shape.goal())

    def rank(self, tiles: Sequence[int]) -> int:
        last = self.m - 2
        r = 0
        seen = 0
        i = 0
        blank = 0
        for sq, t in enumerate(tiles):
            if not t:
                blank = sq
            elif i < last:
                r = r * (self.m - i) + t - 1 - (seen & ((1 << t) - 1)).bit_count()
                seen |= 1 << t
                i += 1
        return blank * self.block + r

    def unrank(self, index: int) -> list[int]:
        if not 0 <= index < self.total:
            raise ValueError(f"rank {index} is out of range for {self.shape}")
        blank, s = divmod(index, self.block)
        m = self.m
        digits = [0] * (m - 2)
        for i in range(m - 3, -1, -1):
            s, digits[i] = divmod(s, m - i)
        free = list(range(1, m + 1))
        seq = [free.pop(d) for d in digits]
        low, high = free
        if (sum(digits) + self.parity[blank]) & 1:
            seq += (high, low)  # one more inversion gives the parity solvability needs
        else:
            seq += (low, high)
        seq.insert(blank, 0)
        return seq


# ----------------------------------------------------------------- the table
@dataclass(frozen=True)
class MoveInfo:
    """A move from a position: the tile that slides, the blank's direction, the distance it leads to."""

    tile: int
    direction: str
    distance: int


class ExplorerTable:
    """A loaded explorer table of one shape (the shape it was built for)."""

    def __init__(self, meta: dict, payload, *, name: str = "explore") -> None:
        self.name = name
        self.meta = meta
        self.shape = Shape(int(meta["rows"]), int(meta["cols"]))
        self.ranking = rk = Ranking(self.shape)
        self.data = payload
        self.histogram: tuple[int, ...] = tuple(meta["histogram"])
        self.radius = len(self.histogram) - 1
        self.hardest: tuple[tuple[int, ...], ...] = tuple(tuple(t) for t in meta.get("hardest", ()))
        self.hardest_count = int(meta.get("hardest_count", len(self.hardest)))
        self.lists: dict[int, tuple[int, int]] = {int(e["distance"]): (int(e["offset"]), int(e["count"])) for e in meta.get("lists", ())}
        n = self.shape.size
        # Per blank square: (square the blank moves to, True for a horizontal move), horizontal first.
        nbrs = neighbours(self.shape)
        self._steps = tuple(tuple(sorted(((s, abs(s - b) == 1) for s in nbrs[b]), key=lambda x: not x[1])) for b in range(n))
        self._block = rk.block
        self._dparity = rk.distance_parity

    # ------------------------------------------------------------ loading
    @classmethod
    def from_bytes(cls, data, *, name: str = "explore", take: bool = False) -> ExplorerTable:
        asset = read_asset(data, name=name, kind=KIND, take=take)
        meta = asset.meta
        cls._check(meta, len(asset.payload), name)
        table = cls(meta, asset.payload, name=name)
        if table.residue(table.ranking.goal_rank) != 0:
            raise AssetError(f"{name}: the goal's entry is not 0", code="asset_corrupt")
        for tiles in table.hardest:
            if table.residue(table.ranking.rank(tiles)) != table.radius & 3:
                raise AssetError(f"{name}: a hardest position's entry does not match the radius", code="asset_corrupt")
        return table

    @staticmethod
    def _check(meta: dict, payload_len: int, name: str) -> None:
        def bad(msg: str):
            raise AssetError(f"{name}: {msg}", code="asset_corrupt")

        if meta.get("explore_format") != EXPLORE_FORMAT:
            version = meta.get("explore_format")
            bad(f"explorer layout version {version!r} is not supported (expected {EXPLORE_FORMAT}); rebuild it with build_db.py")
        if meta.get("index") != INDEX or meta.get("encoding") != ENCODING:
            bad(f"unknown explorer index or encoding {meta.get('index')!r}/{meta.get('encoding')!r}")
        try:
            shape = Shape(int(meta["rows"]), int(meta["cols"]))
            histogram = [int(c) for c in meta["histogram"]]
            positions = int(meta["positions"])
            bits_bytes = int(meta["bits_bytes"])
            lists = [(int(e["distance"]), int(e["offset"]), int(e["count"])) for e in meta.get("lists", ())]
        except (KeyError, TypeError, ValueError, InputError) as exc:
            bad(f"incomplete explorer metadata ({exc!r})")
        if shape.size > 12:
            bad(f"a {shape} board is too large for an explorer table")
        total = Ranking(shape).total
        if positions != total or sum(histogram) != total or not histogram or histogram[0] != 1 or min(histogram) < 1:
            bad(f"the histogram does not count the {total:,} positions of a {shape} board")
        if bits_bytes != (total + 7) // 8:
            bad("bad size of the distance bits")
        end = bits_bytes
        for d, offset, count in lists:
            if offset != end or not 0 <= d < len(histogram) or count != histogram[d]:
                bad(f"bad list of the positions at distance {d}")
            end += 4 * count
        if payload_len != end:
            bad(f"payload is {payload_len} bytes, the layout needs {end}")

    # ------------------------------------------------------------ lookups
    def residue(self, index: int) -> int:
        """``d mod 4`` of the position of rank *index*."""
        return ((self.data[index >> 3] >> (index & 7)) & 1) << 1 | self._dparity[index // self._block]

    def _walk(self, tiles: Sequence[int], limit: int | None = None) -> int | None:
        """Exact distance, by walking down to the goal; ``None`` once more than *limit* steps are needed."""
        rk = self.ranking
        rank = rk.rank
        t = list(tiles)
        b = t.index(0)
        r = rank(t)
        res = self.residue(r)
        goal = rk.goal_rank
        block = self._block
        steps = 0
        while r != goal:
            if limit is not None and steps >= limit:
                return None
            want = (res - 1) & 3
            for s, horizontal in self._steps[b]:
                if horizontal:
                    r2 = r + (s - b) * block
                    if self.residue(r2) == want:
                        break
                else:
                    t[b] = t[s]
                    t[s] = 0
                    r2 = rank(t)
                    if self.residue(r2) == want:
                        break
                    t[s] = t[b]
                    t[b] = 0
            else:
                raise AssetError(f"{self.name}: inconsistent table (no move down from rank {r})", code="asset_corrupt")
            if horizontal:
                t[b] = t[s]
                t[s] = 0
            b, r, res = s, r2, want
            steps += 1
        return steps

    def distance(self, tiles: Sequence[int]) -> int:
        return self._walk(tiles)  # type: ignore[return-value]

    def random_rank(self, distance: int, rng: random.Random) -> int:
        """The rank of a uniformly random position at exactly *distance*.

        Listed distances: a uniform index into the list.  Others: rejection
        sampling — a uniform rank, kept when its residue is ``distance mod 4``,
        its Manhattan distance at most *distance* and its walk exactly
        *distance* long.  Every position at that distance is kept with
        probability 1 when drawn, so the result is uniform; the listed
        distances (:func:`listed_distances`) are those where the expected
        number of draws, ``positions / count``, would be too large.
        """
        if not 0 <= distance <= self.radius:
            raise InputError(
                f"no {self.shape} position is {distance} moves from the goal (distances go from 0 to {self.radius})", code="range"
            )
        listed = self.lists.get(distance)
        if listed is not None:
            offset, count = listed
            return _UINT32.unpack_from(self.data, offset + 4 * rng.randrange(count))[0]
        rk = self.ranking
        want = distance & 3
        tries = 50 * (rk.total // self.histogram[distance] + 1) + 10_000
        for _ in range(tries):
            r = rng.randrange(rk.total)
            if self.residue(r) != want:
                continue
            tiles = rk.unrank(r)
            if manhattan(self.shape, tiles) <= distance and self._walk(tiles, distance) == distance:
                return r
        raise AssetError(
            f"{self.name}: found no position at distance {distance} (the table is inconsistent)", code="asset_corrupt"
        )  # pragma: no cover

    @property
    def memory_bytes(self) -> int:
        return len(self.data)


# ----------------------------------------------------------------- per shape
class Explorer:
    """The explorer's queries for one board shape: its own table or the transposed shape's."""

    def __init__(self, table: ExplorerTable, shape: Shape) -> None:
        self.table = table
        self.shape = shape
        self.transposed = shape != table.shape
        if self.transposed and shape.transposed() != table.shape:
            raise ValueError(f"a {table.shape} table cannot serve {shape}")

    def _check(self, board: Board) -> tuple[int, ...]:
        if board.shape != self.shape:
            raise InputError(f"this is a {board.shape} position; the {self.shape} explorer cannot read it", code="shape")
        return board.tiles

    def _to_table(self, tiles: Sequence[int]) -> Sequence[int]:
        return transpose_tiles(self.shape, tiles) if self.transposed else tiles

    def _from_table(self, tiles: Sequence[int]) -> tuple[int, ...]:
        return tuple(transpose_tiles(self.table.shape, tiles) if self.transposed else tiles)

    @property
    def histogram(self) -> tuple[int, ...]:
        return self.table.histogram

    @property
    def radius(self) -> int:
        return self.table.radius

    @property
    def positions(self) -> int:
        return self.table.ranking.total

    def hardest(self) -> list[tuple[int, ...]]:
        """The positions farthest from the goal (all of them when there are at most :data:`HARDEST_LIMIT`)."""
        return [self._from_table(t) for t in self.table.hardest]

    def distance(self, board: Board) -> int:
        """The exact number of moves of a shortest solution of *board*."""
        return self.table.distance(self._to_table(self._check(board)))

    def moves(self, board: Board, distance: int | None = None) -> list[MoveInfo]:
        """Every move from *board* with the exact distance it leads to (``distance - 1``: optimal)."""
        tiles = self._check(board)
        d = self.distance(board) if distance is None else distance
        table = self.table
        rank = table.ranking.rank
        b = board.blank
        cols = self.shape.cols
        names = {-cols: "U", cols: "D", -1: "L", 1: "R"}
        out = []
        for s in neighbours(self.shape)[b]:
            child = list(tiles)
            child[b], child[s] = child[s], 0
            res = table.residue(rank(self._to_table(child)))
            out.append(MoveInfo(tiles[s], names[s - b], d - 1 if res == (d - 1) & 3 else d + 1))
        return out

    def optimal_moves(self, board: Board) -> list[MoveInfo]:
        d = self.distance(board)
        return [m for m in self.moves(board, d) if m.distance < d]

    def random_at(self, distance: int, seed=None) -> Board:
        """A uniformly random position at exactly *distance* moves from the goal."""
        rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        tiles = self.table.ranking.unrank(self.table.random_rank(distance, rng))
        return Board(self.shape, self._from_table(tiles))


# ----------------------------------------------------------------- when no table is loaded
def _with_transposes(shapes: Sequence[str]) -> list[str]:
    out = []
    for name in shapes:
        shape = Shape.parse(name)
        out += [name] if shape.rows == shape.cols else [name, str(shape.transposed())]
    return out


def missing_table(shape: Shape) -> str:
    """Why the explorer has no table for *shape* (the loaded ones are in :mod:`fifteen.bounds.databases`)."""
    name = str(shape)
    base = str(shape) if shape.rows <= shape.cols else str(shape.transposed())
    if base in PACK_SHAPES:
        why = f"the {name} table is an optional pack ({asset_file(base)}, made by make explorer-pack) and is not loaded"
    elif base in DEFAULT_SHAPES:
        why = f"its table ({asset_file(base)}, made by make db) is not loaded"
    else:
        why = (
            f"tables exist for {', '.join(_with_transposes(DEFAULT_SHAPES))}"
            f" and, as optional packs, {', '.join(_with_transposes(PACK_SHAPES))}"
        )
    return f"the explorer has no table for a {name} board: {why}"


__all__ = [
    "EXPLORE_FORMAT",
    "PUBLISHED_RADII",
    "Explorer",
    "ExplorerTable",
    "MoveInfo",
    "Ranking",
    "asset_file",
    "listed_distances",
    "missing_table",
]
