"""Pattern databases with mixed-radix indices and 4-bit entries: the default 7-7-1 tables (4x4),
the default 5-5-5-5-4 tables (5x5) and the optional 7-8 pack; reader, lookups and incremental
interface (their IDA* loop: :mod:`fifteen.bounds.pdb78_loop`).

Pure Python, standard library only (natively and in Pyodide).  Both are built by
``build_db.py`` (numpy + numba, native only, see :mod:`dbbuild.pack78`) and travel as
``"pdb78"`` assets in the container of :mod:`fifteen.db.container`:

* ``pdb-771.f15`` (partition ``"771"``, bound ``pdb771``): one of the default databases
  (``make db``), zlib-compressed by the container, ~15 MB, 57.7 MB in memory.
* ``pdb-55554.f15`` (partition ``"55554"``, bound ``pdb55554``): the default database of 5x5,
  zlib-compressed by the container, 0.45 MB, 12.9 MB in memory.
* ``pdb-78.f15.xz`` (partition ``"78"``, bound ``pdb78``): the optional pack (``make pack``),
  xz-compressed (see "File" below), ~52 MB, 288 MB in memory.

Groups.  4x4, 7-8: A = tiles 1..7, B = tiles 8..15.  7-7-1: A = tiles 1..7, B = tiles 9..15
(the two bottom rows) and tile 8 alone (a one-tile group: its entries are 0, its value its
Manhattan distance).  5x5, 5-5-5-5-4: tiles 1 2 3 6 7, 4 5 9 10 14, 8 12 13 17 18, 11 16 21
22 23 and 15 19 20 24 (an L around the blank's goal square, closed when tiles 20 and 24 are
home; the partition chosen in bench/pdb5x5.md).  An entry is the exact number of moves of the group's tiles needed to
bring them home, other tiles indistinguishable and free, with the blank ending in the region
of its goal square (the squares it can reach without moving a group tile: for tiles 9..15
at home, the goal square alone, which is what makes the 7-7-1 strong; bench/pdb771.md).  The
entries of a partition add up to an admissible bound; so does the same sum on the position
reflected about the main diagonal (tile T(t) on square T(p), T(r, c) = (c, r), T(t) =
T(t-1)+1).  Neither partition is its own mirror image, so the reflected lookup acts as a
second partition (reflected A = tiles 1, 5, 9, 13, 2, 6, 10).  Bound = max of the two.

Index (mixed-radix rank)
------------------------
For the group's tiles in table order on squares ``q_0 .. q_{k-1}`` (after the
lookup's square map): ``digit_i = q_i - #{j < i : q_j < q_i}`` with radix
``N - i``; digit 0 is the most significant::

    rank = (...((digit_0 * (N-1) + digit_1) * (N-2) + digit_2) ...)

so ``rank = sum(digit_i * w_i)`` with ``w_i = (N-i-1) * ... * (N-k+1)``.
``N!/(N-k)!`` entries: 57,657,600 for 7 tiles, 518,918,400 for 8.

Moving tile i from square a to square b (adjacent, b empty) changes digit i
by ``(b - a) - sign(b-a) * #{j < i between}`` and every later digit j whose
square lies strictly between a and b by ``sign(b-a)``; so::

    rank' = rank + w_i*(b-a) + sign(b-a) * sum(-w_i if j < i else w_j
                                              over group tiles j strictly between a and b)

Nothing lies between for a horizontal move; for a vertical one, the
``cols - 1`` squares the sliding tile jumps over (3 on 4x4, 4 on 5x5).  In the reflected lookup
the roles swap (a real horizontal move is vertical after reflection).

Entries and payload
-------------------
Stored entry = ``(value - group Manhattan distance) / 2`` in 4 bits (always an
integer: a value has its group MD's parity; max 9 on 4x4, 4 in the 5x5 tables).  The tables are
concatenated (``tables[j].offset`` in entries, each even), then packed two per
byte: entry x is ``(data[x >> 1] >> 4 * (x & 1)) & 15``.  The bound of a
position is ``MD + 2 * (entry_A + entry_B)`` (plus the one-tile group's entry, 0, for the
7-7-1: the loop treats every group alike).  The 7-7-1's one-tile table holds 16 entries.

Metadata::

    {"kind": "pdb78", "pdb78_format": 1, "rows": 4, "cols": 4, "partition": "78",
     "index": "mixed-radix", "encoding": "nibbles",
     "tables": [{"tiles": [1, ..., 7], "offset": 0, "size": 57657600,
                 "max": 7, "max_value": 32, "histogram": [...]}, ...]}

``encoding`` says how the payload (the container's, after its own zlib)
becomes the packed nibbles — see :func:`encode_asset`; ``"nibbles"``: it is
them.  ``histogram`` counts the entries by value; ``max_value`` is the
largest entry before the MD subtraction.

File
----
``pdb-771.f15`` is a container with its payload zlib-compressed (level 9): 57,657,608
bytes of nibbles, about 15 MB as shipped; Pyodide reads it as any default database.
``pdb-78.f15.xz`` is an xz stream (``lzma.FORMAT_XZ``, CRC-32 check, preset
:data:`XZ_PRESET`) of one container whose payload is stored *uncompressed*
(flags bit 0 clear; its CRC-32 still covers every byte): 288,288,506 bytes
decompressed, about 52 MB as shipped, against 99.6 MB for the container's own
zlib -9 (bench/pdb78.md).  Natively :func:`fifteen.db.container.read_asset`
decompresses it with :mod:`lzma` straight into one bytearray that becomes
:attr:`PDB78.data`.  In the browser (Pyodide has no ``lzma``) the worker
decodes the xz with a small vendored decoder (xz-embedded in WebAssembly,
``static/vendor/xz/``) into a bytearray that Python allocated with the size
the manifest gives as ``raw_bytes``, and hands that over (no copy).  Any
container form (zlib or plain, with or without xz) is accepted.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NoReturn

from fifteen.board import Shape, tile_mirrors, tile_squares, transpose_squares
from fifteen.bounds.manhattan import manhattan
from fifteen.bounds.pdb import check_layout_meta
from fifteen.db.container import AssetError, read_asset, write_asset, write_xz

PDB78_FORMAT = 1
KIND = "pdb78"
PARTITIONS: dict[str, tuple[tuple[int, ...], ...]] = {
    "78": ((1, 2, 3, 4, 5, 6, 7), (8, 9, 10, 11, 12, 13, 14, 15)),
    "771": ((1, 2, 3, 4, 5, 6, 7), (9, 10, 11, 12, 13, 14, 15), (8,)),
    "55554": ((1, 2, 3, 6, 7), (4, 5, 9, 10, 14), (8, 12, 13, 17, 18), (11, 16, 21, 22, 23), (15, 19, 20, 24)),
}
#: The board (rows, cols) of each partition.
PARTITION_SHAPES = {"78": (4, 4), "771": (4, 4), "55554": (5, 5)}
#: The largest board side the reader (and the loop: a vertical move jumps ``cols - 1`` squares) supports.
MAX_SIDE = 5
#: The file of each partition: the 7-8 pack as xz (see "File"), the 7-7-1 tables as a plain
#: container (zlib-compressed by it: Pyodide reads it without the xz decoder).
ASSET_FILES = {"78": "pdb-78.f15.xz", "771": "pdb-771.f15", "55554": "pdb-55554.f15"}
ENCODINGS = ("nibbles",)
DEFAULT_ENCODING = "nibbles"
#: xz preset of the shipped pack (see :func:`encode_asset`).
XZ_PRESET = 9


def asset_file(partition: str = "78") -> str:
    """The file of *partition*'s tables (``"771"`` -> ``pdb-771.f15``)."""
    return ASSET_FILES[partition]


def bound_name(partition: str) -> str:
    """The bound that looks up *partition*'s tables (``"771"`` -> ``pdb771``)."""
    return "pdb" + partition


# ----------------------------------------------------------------- ranking
def table_size(n: int, k: int) -> int:
    """N! / (N-k)!: entries of a k-tile table on N squares."""
    size = 1
    for i in range(k):
        size *= n - i
    return size


def radix_weights(n: int, k: int) -> list[int]:
    """``w_i`` with ``rank = sum(digit_i * w_i)`` (digit 0 most significant)."""
    w = [1] * k
    for i in range(k - 2, -1, -1):
        w[i] = w[i + 1] * (n - i - 1)
    return w


def rank(squares: Sequence[int], n: int) -> int:
    """Mixed-radix rank of distinct squares (in tile order) on a board of n squares."""
    r = 0
    for i, q in enumerate(squares):
        d = q
        for j in range(i):
            if squares[j] < q:
                d -= 1
        r = r * (n - i) + d
    return r


def unrank(index: int, n: int, k: int) -> list[int]:
    """Inverse of :func:`rank`."""
    digits = [0] * k
    for i in range(k - 1, -1, -1):
        index, digits[i] = divmod(index, n - i)
    if index:
        raise ValueError("index out of range")
    used: list[int] = []
    out = []
    for d in digits:
        free = [q for q in range(n) if q not in used]
        out.append(free[d])
        used.append(free[d])
    return out


# ----------------------------------------------------------------- encoding
def encode_asset(
    meta: dict, packed: bytes, *, encoding: str = DEFAULT_ENCODING, level: int = 9, xz: bool = True, preset: int | None = None
) -> bytes:
    """The file bytes for *packed* nibbles in *encoding*.

    With *xz* (the shipped form, ``pdb-78.f15.xz``): an xz stream (*preset*,
    default :data:`XZ_PRESET`) of a container with the payload uncompressed.
    Without: the container alone, its payload zlib-compressed (*level*).

    ``"nibbles"`` (the only encoding so far): the payload is the packed nibbles.
    Layouts tried and dropped (7-tile table, zlib -9/-6): nibble planes
    (even/odd entries apart) +11 %; one byte per entry +14 %; moving any
    digit to the fastest-varying position -4 % to +19 %; a block delta mod 16
    along digit 0 -7 % (decodable with big-int arithmetic, not worth it yet).
    See bench/pdb78.md.
    """
    if encoding not in ENCODINGS:
        raise ValueError(f"unknown encoding {encoding!r}")
    if not xz:
        return write_asset(dict(meta, encoding=encoding), packed, compress=True, level=level)
    container = write_asset(dict(meta, encoding=encoding), packed, compress=False)
    return write_xz(container, preset=XZ_PRESET if preset is None else preset)


def _decode(meta: dict, payload: bytes | bytearray, name: str) -> bytes | bytearray:
    """The packed nibbles from the payload of *meta*'s encoding."""
    enc = meta.get("encoding")
    if enc == "nibbles":
        return payload
    raise AssetError(f"{name}: unknown pattern database encoding {enc!r}", code="asset_corrupt")


# ----------------------------------------------------------------- the pack
class LookupGroup:
    """One term: entry at ``offset + rank([smap[pos[t]] for t in tiles])``."""

    __slots__ = ("tiles", "smap", "offset", "size", "weights", "n")

    def __init__(self, tiles, smap, offset, size, n):
        self.tiles = tuple(tiles)
        self.smap = tuple(smap)
        self.offset = offset
        self.size = size
        self.n = n
        self.weights = tuple(radix_weights(n, len(self.tiles)))

    def index(self, pos: Sequence[int]) -> int:
        sm = self.smap
        return self.offset + rank([sm[pos[t]] for t in self.tiles], self.n)


class PDB78:
    """A loaded mixed-radix database: the 7-7-1 tables, the 7-8 pack (or the same layout on a
    smaller board, for tests)."""

    def __init__(self, meta: dict, data: bytes | bytearray, *, name: str = "pdb78") -> None:
        self.name = name
        self.meta = meta
        self.rows = int(meta["rows"])
        self.cols = int(meta["cols"])
        self.n = n = self.rows * self.cols
        self.shape = Shape(self.rows, self.cols)
        self.partition = meta["partition"]
        self.data = data
        self.groups = tuple(LookupGroup(t["tiles"], range(n), t["offset"], t["size"], n) for t in meta["tables"])
        if self.rows == self.cols:
            tt = tile_mirrors(self.rows)
            tsq = transpose_squares(self.rows)
            self.rgroups = tuple(LookupGroup([tt[t] for t in g.tiles], tsq, g.offset, g.size, n) for g in self.groups)
        else:
            self.rgroups = ()

    # ------------------------------------------------------------ loading
    @classmethod
    def from_bytes(
        cls,
        data,
        *,
        name: str = "pdb78",
        partition: str | None = None,
        rows: int | None = None,
        cols: int | None = None,
        take: bool = False,
    ) -> PDB78:
        """Check and load the tables: a container or an xz of one (see "File" above).

        With *take*, a ``bytearray`` container is taken over: trimmed in place
        to become :attr:`data` (no 288 MB copy); the caller must not reuse it.
        """
        asset = read_asset(data, name=name, kind=KIND, take=take)
        meta = asset.meta
        cls._check(meta, name, partition, rows, cols)
        total = meta["tables"][-1]["offset"] + meta["tables"][-1]["size"]
        packed = _decode(meta, asset.payload, name)
        need = (total + 1) // 2  # two entries a byte
        if len(packed) != need:
            raise AssetError(f"{name}: {len(packed)} bytes of entries, the tables need {need}", code="asset_corrupt")
        db = cls(meta, packed, name=name)
        for g in db.groups:  # cheap sanity: the goal entry is 0
            goal = list(range(1, db.n)) + [0]
            if db.nibble(g.index(tile_squares(goal))) != 0:
                raise AssetError(f"{name}: the goal entry of group {list(g.tiles)} is not 0", code="asset_corrupt")
        return db

    @classmethod
    def load(cls, path, **kw) -> PDB78:
        with open(path, "rb") as f:
            data = f.read()
        kw.setdefault("name", str(path))
        return cls.from_bytes(data, **kw)

    @staticmethod
    def _check(meta, name, partition, rows, cols) -> None:
        def bad(msg: str) -> NoReturn:
            raise AssetError(f"{name}: {msg}", code="asset_corrupt")

        r, c, part = check_layout_meta(meta, name, "pdb78_format", PDB78_FORMAT, "pattern database", partition, rows, cols)
        try:
            tables = meta["tables"]
        except KeyError as exc:
            bad(f"incomplete pattern database metadata ({exc!r})")
        n = r * c
        if not (2 <= r <= MAX_SIDE and 2 <= c <= MAX_SIDE):
            bad(f"unsupported board {r}x{c}")
        if meta.get("index") != "mixed-radix":
            bad(f"unknown index scheme {meta.get('index')!r}")
        if meta.get("encoding") not in ENCODINGS:
            bad(f"unknown pattern database encoding {meta.get('encoding')!r}")
        if not isinstance(tables, list) or not tables:
            bad("no tables")
        seen: list[int] = []
        offset = 0
        for j, t in enumerate(tables):
            tiles = t.get("tiles") if isinstance(t, dict) else None
            if not isinstance(tiles, list) or not tiles:
                bad(f"table {j} has no tiles")
            seen.extend(tiles)
            if t.get("size") != table_size(n, len(tiles)) or t.get("offset") != offset:
                bad(f"table {j} has a bad size or offset")
            if not isinstance(t.get("max"), int) or not 0 <= t["max"] <= 15:
                bad(f"table {j} has a bad maximum")
            offset += t["size"] + (t["size"] & 1)
        if sorted(seen) != list(range(1, n)):
            bad(f"groups {[t.get('tiles') for t in tables]} are not a partition of tiles 1..{n - 1}")
        if part in PARTITIONS and (r, c) == PARTITION_SHAPES[part]:
            if [list(g) for g in PARTITIONS[part]] != [t["tiles"] for t in tables]:
                bad(f"groups do not match partition {part!r} {PARTITIONS[part]}")

    # ------------------------------------------------------------ evaluators
    def nibble(self, x: int) -> int:
        return (self.data[x >> 1] >> ((x & 1) << 2)) & 15

    def value(self, tiles: Sequence[int]) -> int:
        """MD + 2 * sum of the plain groups' entries."""
        pos = tile_squares(tiles)
        return manhattan(self.shape, tiles) + 2 * sum(self.nibble(g.index(pos)) for g in self.groups)

    def reflected_value(self, tiles: Sequence[int]) -> int:
        if not self.rgroups:
            raise ValueError("reflection needs a square board")
        pos = tile_squares(tiles)
        return manhattan(self.shape, tiles) + 2 * sum(self.nibble(g.index(pos)) for g in self.rgroups)

    def bound(self, tiles: Sequence[int]) -> int:
        v = self.value(tiles)
        return max(v, self.reflected_value(tiles)) if self.rgroups else v

    def indices(self, tiles: Sequence[int]) -> list[int]:
        pos = tile_squares(tiles)
        return [g.index(pos) for g in self.groups]

    def rindices(self, tiles: Sequence[int]) -> list[int]:
        pos = tile_squares(tiles)
        return [g.index(pos) for g in self.rgroups]

    @property
    def memory_bytes(self) -> int:
        return len(self.data)

    # ------------------------------------------------------------ incremental
    def move_row(self, groups, tile: int, a: int, b: int):
        """For tile *tile* moving from square a to b under lookup *groups*:
        ``(group index, base delta, contribution tuple or None, jumped squares)``.

        The index changes by ``base + sum(contrib[board[p]] for p in jumped)``.
        """
        n = self.n
        gi = next((k for k, group in enumerate(groups) if tile in group.tiles), None)
        if gi is None:
            raise ValueError(f"tile {tile} is in no group")
        g = groups[gi]
        i = g.tiles.index(tile)
        w = g.weights
        sm = g.smap
        inv = [0] * n
        for p, q in enumerate(sm):
            inv[q] = p
        a2, b2 = sm[a], sm[b]
        base = w[i] * (b2 - a2)
        lo, hi = min(a2, b2), max(a2, b2)
        jumped = tuple(inv[x] for x in range(lo + 1, hi))
        if not jumped:
            return gi, base, None, ()
        sign = 1 if b2 > a2 else -1
        contrib = [0] * n
        for j, u in enumerate(g.tiles):
            if j < i:
                contrib[u] = -sign * w[i]
            elif j > i:
                contrib[u] = sign * w[j]
        return gi, base, tuple(contrib), jumped


__all__ = [
    "PDB78",
    "PDB78_FORMAT",
    "PARTITIONS",
    "AssetError",
    "ASSET_FILES",
    "asset_file",
    "bound_name",
    "encode_asset",
    "rank",
    "unrank",
    "radix_weights",
    "table_size",
]
