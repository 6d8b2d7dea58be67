"""The optional 7-8 pattern-database pack: reader, lookups and IDA* inner loop.

Pure Python, standard library only (natively and in Pyodide).  The pack is
built by ``build_db.py --pack`` (``make pack``; numpy + numba, native only,
see ``tools/pdb78_build.py``) and travels as a ``"pdb78"`` asset in the
container of :mod:`fifteen.dbfile`, xz-compressed (``static/db/pdb-78.f15.xz``,
see "File" below).  It is *not* part of the default databases.

Groups (4x4): A = tiles 1..7, B = tiles 8..15.  An entry is the exact number
of moves of the group's tiles needed to bring them home, other tiles
indistinguishable and free, minimised over the blank square (as in
:mod:`fifteen.pdb`).  The two entries add up to an admissible bound; so does
the same sum on the position reflected about the main diagonal (tile T(t) on
square T(p), T(r, c) = (c, r), T(t) = T(t-1)+1).  The partition is not its
own mirror image, so the reflected lookup acts as a second partition
(reflected A = tiles 1, 5, 9, 13, 2, 6, 10).  Bound = max of the two.

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
``cols - 1`` squares the sliding tile jumps over.  In the reflected lookup
the roles swap (a real horizontal move is vertical after reflection).

Entries and payload
-------------------
Stored entry = ``(value - group Manhattan distance) / 2`` in 4 bits (always an
integer: a value has its group MD's parity; max 9 on 4x4).  The tables are
concatenated (``tables[j].offset`` in entries, each even), then packed two per
byte: entry x is ``(data[x >> 1] >> 4 * (x & 1)) & 15``.  The bound of a
position is ``MD + 2 * (entry_A + entry_B)``.

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
``pdb-78.f15.xz`` is an xz stream (``lzma.FORMAT_XZ``, CRC-32 check, preset
:data:`XZ_PRESET`) of one container whose payload is stored *uncompressed*
(flags bit 0 clear; its CRC-32 still covers every byte): 288,288,506 bytes
decompressed, about 52 MB as shipped, against 99.6 MB for the container's own
zlib -9 (bench/pdb78.md).  Natively :func:`fifteen.dbfile.read_asset`
decompresses it with :mod:`lzma` straight into one bytearray that becomes
:attr:`PDB78.data`.  In the browser (Pyodide has no ``lzma``) the worker
decodes the xz with a small vendored decoder (xz-embedded in WebAssembly,
``static/vendor/xz/``) into a bytearray that Python allocated with the size
the manifest gives as ``raw_bytes``, and hands that over (no copy).  Any
container form (zlib or plain, with or without xz) is accepted.
"""

from __future__ import annotations

import sys
from typing import Sequence

from .pdb import check_layout_meta, transpose_squares, transpose_tiles
from .dbfile import AssetError, read_asset, write_asset, write_xz

PDB78_FORMAT = 1
KIND = "pdb78"
PARTITIONS: dict[str, tuple[tuple[int, ...], ...]] = {
    "78": ((1, 2, 3, 4, 5, 6, 7), (8, 9, 10, 11, 12, 13, 14, 15)),
}
BOUND_NAME = "pdb78"
ENCODINGS = ("nibbles",)
DEFAULT_ENCODING = "nibbles"
#: xz preset of the shipped pack (see :func:`encode_asset`).
XZ_PRESET = 9


def asset_file(partition: str = "78") -> str:
    return f"pdb-{partition}.f15.xz"


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


# ----------------------------------------------------------------- geometry
# transpose_squares, transpose_tiles and reflect_board come from fifteen.pdb (same geometry).


def manhattan(tiles: Sequence[int], cols: int) -> int:
    md = 0
    for p, t in enumerate(tiles):
        if t:
            g = t - 1
            md += abs(p // cols - g // cols) + abs(p % cols - g % cols)
    return md


# ----------------------------------------------------------------- encoding
def encode_asset(meta: dict, packed: bytes, *, encoding: str = DEFAULT_ENCODING, level: int = 9, xz: bool = True, preset: int | None = None) -> bytes:
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


def _decode(meta: dict, payload: bytes, name: str, half: int) -> bytes:
    """The packed nibbles (*half* bytes) from the payload of *meta*'s encoding."""
    enc = meta.get("encoding")
    if enc == "nibbles":
        return payload
    raise AssetError(f"{name}: unknown 7-8 pack encoding {enc!r}")


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
    """A loaded 7-8 pack (or the same layout on a smaller board, for tests)."""

    def __init__(self, meta: dict, data: bytes, *, name: str = "pdb78") -> None:
        self.name = name
        self.meta = meta
        self.rows = int(meta["rows"])
        self.cols = int(meta["cols"])
        self.n = n = self.rows * self.cols
        self.partition = meta["partition"]
        self.data = data
        self.groups = tuple(LookupGroup(t["tiles"], range(n), t["offset"], t["size"], n) for t in meta["tables"])
        if self.rows == self.cols:
            tt = transpose_tiles(self.rows)
            tsq = transpose_squares(self.rows)
            self.rgroups = tuple(LookupGroup([tt[t] for t in g.tiles], tsq, g.offset, g.size, n) for g in self.groups)
        else:
            self.rgroups = ()

    # ------------------------------------------------------------ loading
    @classmethod
    def from_bytes(cls, data, *, name: str = "pdb78", partition: str | None = None, rows: int | None = None, cols: int | None = None, take: bool = False) -> "PDB78":
        """Check and load a pack: a container or an xz of one (see "File" above).

        With *take*, a ``bytearray`` container is taken over: trimmed in place
        to become :attr:`data` (no 288 MB copy); the caller must not reuse it.
        """
        asset = read_asset(data, name=name, kind=KIND, take=take)
        meta = asset.meta
        cls._check(meta, name, partition, rows, cols)
        total = meta["tables"][-1]["offset"] + meta["tables"][-1]["size"]
        packed = _decode(meta, asset.payload, name, (total + 1) // 2)
        if len(packed) != (total + 1) // 2:
            raise AssetError(f"{name}: {len(packed)} bytes of entries, the tables need {(total + 1) // 2}")
        db = cls(meta, packed, name=name)
        for g in db.groups:  # cheap sanity: the goal entry is 0
            goal = list(range(1, db.n)) + [0]
            if db.nibble(g.index(_positions(goal))) != 0:
                raise AssetError(f"{name}: the goal entry of group {list(g.tiles)} is not 0")
        return db

    @classmethod
    def load(cls, path, **kw) -> "PDB78":
        with open(path, "rb") as f:
            data = f.read()
        kw.setdefault("name", str(path))
        return cls.from_bytes(data, **kw)

    @staticmethod
    def _check(meta, name, partition, rows, cols) -> None:
        def bad(msg):
            raise AssetError(f"{name}: {msg}")

        r, c, part = check_layout_meta(meta, name, "pdb78_format", PDB78_FORMAT, "7-8 pack", partition, rows, cols)
        try:
            tables = meta["tables"]
        except KeyError as exc:
            bad(f"incomplete 7-8 pack metadata ({exc!r})")
        n = r * c
        if not (2 <= r <= 4 and 2 <= c <= 4):
            bad(f"unsupported board {r}x{c}")
        if meta.get("index") != "mixed-radix":
            bad(f"unknown index scheme {meta.get('index')!r}")
        if meta.get("encoding") not in ENCODINGS:
            bad(f"unknown 7-8 pack encoding {meta.get('encoding')!r}")
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
        if part in PARTITIONS and (r, c) == (4, 4):
            if [list(g) for g in PARTITIONS[part]] != [t["tiles"] for t in tables]:
                bad(f"groups do not match partition {part!r} {PARTITIONS[part]}")

    # ------------------------------------------------------------ evaluators
    def nibble(self, x: int) -> int:
        return (self.data[x >> 1] >> ((x & 1) << 2)) & 15

    def value(self, tiles: Sequence[int]) -> int:
        """MD + 2 * sum of the plain groups' entries."""
        pos = _positions(tiles)
        return manhattan(tiles, self.cols) + 2 * sum(self.nibble(g.index(pos)) for g in self.groups)

    def reflected_value(self, tiles: Sequence[int]) -> int:
        if not self.rgroups:
            raise ValueError("reflection needs a square board")
        pos = _positions(tiles)
        return manhattan(tiles, self.cols) + 2 * sum(self.nibble(g.index(pos)) for g in self.rgroups)

    def bound(self, tiles: Sequence[int]) -> int:
        v = self.value(tiles)
        return max(v, self.reflected_value(tiles)) if self.rgroups else v

    def indices(self, tiles: Sequence[int]) -> list[int]:
        pos = _positions(tiles)
        return [g.index(pos) for g in self.groups]

    def rindices(self, tiles: Sequence[int]) -> list[int]:
        pos = _positions(tiles)
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
        for gi, g in enumerate(groups):
            if tile in g.tiles:
                break
        else:
            raise ValueError(f"tile {tile} is in no group")
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


def _positions(tiles: Sequence[int]) -> list[int]:
    pos = [0] * len(tiles)
    for p, t in enumerate(tiles):
        pos[t] = p
    return pos


# ----------------------------------------------------------------- IDA* inner loop
def pdb78_searcher(db: PDB78, *, reflect: bool = True):
    """Searcher factory (protocol of :func:`fifteen.search.ida_star`) bounded by
    ``MD + 2*max(entries, reflected entries)``.

    Per move: the moving tile's group index in each lookup changes by a base
    delta plus, for the lookup in which the move is "vertical", the
    contributions of the tiles on the (up to 3) jumped squares (padded with a
    sentinel square n holding tile 0, contribution 0).  Successors come in two
    lists per automaton state: moves vertical for the plain lookup (plain
    index uses the jumped squares, reflected one is +-w) and the others.  The
    reflected lookup is only made for children the plain one did not cut.
    """
    from .moves import move_tables

    use_r = reflect and bool(db.rgroups)

    def factory(shape, board, tick):
        if (shape.rows, shape.cols) != (db.rows, db.cols):
            raise ValueError(f"{db.name} is for {db.rows}x{db.cols}, not {shape}")
        mt = move_tables(shape)
        n = mt.n
        cols = db.cols
        T = db.data
        zero = tuple([0] * (n + 1))
        bd = list(board) + [0]  # square n: sentinel holding "tile 0"
        # Indices are kept times 4 (X = 4 * entry index): the entry is then
        # (T[X >> 3] >> (X & 4)) & 15, one operation fewer than with the plain index.
        I = [4 * x for x in db.indices(board)]
        R = [4 * x for x in db.rindices(board)] if use_r else [0, 0]
        vrows = []  # per move: row[t] and the jumped squares used by the lookup that has them
        for mv in mt.moves:
            a, b = mv.blank_to, mv.blank_from  # the tile slides from a to b
            row = [None] * n
            jumped = ()
            for t in range(1, n):
                g, d, cp, jp = db.move_row(db.groups, t, a, b)
                if use_r:
                    r, e, cr, jr = db.move_row(db.rgroups, t, a, b)
                else:
                    r, e, cr, jr = 0, 0, None, ()
                if (jr if mv.vertical else jp):
                    raise ValueError("unexpected jumped squares (the board must be square or have no reflection)")
                jumped = jp or jr
                g1, a1 = divmod(t - 1, cols)
                dm = (abs(b // cols - g1) + abs(b % cols - a1)) - (abs(a // cols - g1) + abs(a % cols - a1))
                cp = tuple(4 * c for c in cp) + (0,) if cp else zero
                cr = tuple(4 * c for c in cr) + (0,) if cr else zero
                if mv.vertical:  # the plain index uses the jumped squares
                    row[t] = (g, 4 * d, cp, r, 4 * e, dm)
                else:  # the reflected one does
                    row[t] = (g, 4 * d, r, 4 * e, cr, dm)
            if len(jumped) > 3:
                raise ValueError("boards wider than 4 are not supported")
            jumped = tuple(jumped) + (n,) * (3 - len(jumped))
            vrows.append((tuple(row), jumped))
        # plain-vertical moves: the plain index uses the jumped squares
        sv = []
        sh = []
        for entry in mt.successors:
            v, h = [], []
            for s, mn, st in entry:
                m = mn // n
                row, (j1, j2, j3) = vrows[m]
                (v if mt.moves[m].vertical else h).append((s, row, st, j1, j2, j3))
            sv.append(tuple(v))
            sh.append(tuple(h))
        md0 = manhattan(board, cols)
        hp0 = md0 + 2 * sum(db.nibble(x >> 2) for x in I)
        hr0 = md0 + 2 * sum(db.nibble(x >> 2) for x in R) if use_r else 0
        path: list[int] = []
        nodes = next_tick = 0

        # Current entries (nibbles) of the plain and reflected groups, kept beside the
        # indices so that only the new entry is looked up per child.
        V = [db.nibble(x >> 2) for x in I]
        W = [db.nibble(x >> 2) for x in R] if use_r else [0, 0]

        # Hot loop: tables and lists as default arguments (fast locals, not closure
        # cells), ``rec`` is dfs itself (set below); the tick is checked only in
        # nodes with slack (f <= bound - 2), which come often enough.
        def dfs(b, state, budget, hp, hr, I=I, R=R, V=V, W=W, T=T, bd=bd, sv=sv, sh=sh, path=path, rec=None):
            nonlocal nodes, next_tick
            nodes += 1
            budget -= 1
            if hp < budget and nodes >= next_tick:
                next_tick = tick(nodes)
            for s, row, st, j1, j2, j3 in sv[state]:
                t = bd[s]
                g, d, cp, r, e, dm = row[t]
                x1 = I[g] + d + cp[bd[j1]] + cp[bd[j2]] + cp[bd[j3]]
                v1 = (T[x1 >> 3] >> (x1 & 4)) & 15
                v0 = V[g]
                h = hp + dm + ((v1 - v0) << 1)
                if h > budget:
                    continue
                y1 = R[r] + e
                w1 = (T[y1 >> 3] >> (y1 & 4)) & 15
                w0 = W[r]
                h2 = hr + dm + ((w1 - w0) << 1)
                if h2 > budget:
                    continue
                if h == 0:
                    path.append(s)
                    return True
                bd[b] = t
                x0 = I[g]
                y0 = R[r]
                I[g] = x1
                R[r] = y1
                V[g] = v1
                W[r] = w1
                if rec(s, st, budget, h, h2):
                    path.append(s)
                    return True
                I[g] = x0
                R[r] = y0
                V[g] = v0
                W[r] = w0
                bd[s] = t
            for s, row, st, j1, j2, j3 in sh[state]:
                t = bd[s]
                g, d, r, e, cr, dm = row[t]
                x1 = I[g] + d
                v1 = (T[x1 >> 3] >> (x1 & 4)) & 15
                v0 = V[g]
                h = hp + dm + ((v1 - v0) << 1)
                if h > budget:
                    continue
                y1 = R[r] + e + cr[bd[j1]] + cr[bd[j2]] + cr[bd[j3]]
                w1 = (T[y1 >> 3] >> (y1 & 4)) & 15
                w0 = W[r]
                h2 = hr + dm + ((w1 - w0) << 1)
                if h2 > budget:
                    continue
                if h == 0:
                    path.append(s)
                    return True
                bd[b] = t
                x0 = I[g]
                y0 = R[r]
                I[g] = x1
                R[r] = y1
                V[g] = v1
                W[r] = w1
                if rec(s, st, budget, h, h2):
                    path.append(s)
                    return True
                I[g] = x0
                R[r] = y0
                V[g] = v0
                W[r] = w0
                bd[s] = t
            return False

        dfs.__defaults__ = dfs.__defaults__[:-1] + (dfs,)
        h0 = max(hp0, hr0)
        b0 = board.index(0)

        def run(budget: int):
            nonlocal nodes, next_tick
            nodes, next_tick = 0, tick(0)
            path.clear()
            need = budget + 200
            if sys.getrecursionlimit() < need:
                sys.setrecursionlimit(need)
            found = hp0 == 0 or dfs(b0, b0, budget, hp0, hr0 if use_r else -(1 << 20))
            return (list(path) if found else None), nodes

        return h0, run

    return factory


__all__ = [
    "PDB78",
    "PDB78_FORMAT",
    "PARTITIONS",
    "AssetError",
    "asset_file",
    "encode_asset",
    "pdb78_searcher",
    "rank",
    "unrank",
    "radix_weights",
    "table_size",
]
