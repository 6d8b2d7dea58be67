"""Additive disjoint pattern databases (PDB) with the reflected lookup.

Pure Python, standard library only (runs natively and in Pyodide).  The tables
are built by ``build_db.py`` (numpy, native only) and travel as ``"pdb"``
assets in the container of :mod:`fifteen.db.container` (``static/db/pdb-663.f15``,
``static/db/pdb-555.f15``).

What an entry means
-------------------
Board ``rows x cols`` (N = rows*cols <= 16 squares, numbered row-major), goal
= tiles 1..N-1 row-major with the blank (0) on the last square.  A *group* is
a set of tiles; a *placement* gives the square of each group tile.  The entry
of a placement is the exact minimum number of moves **of the group's tiles**
needed to bring every group tile home, when the other tiles are
indistinguishable and free to move at no cost, minimised over every blank
square (the blank need not end on its goal square).  Entries of disjoint
groups add up to an admissible bound; so does the same sum on the position
reflected about the main diagonal (the goal is symmetric under it), hence
``bound = max(value, reflected_value)``.

Index of a placement (dense, 4 bits per square): for the group's tiles in
table order ``t_0 .. t_{k-1}`` on squares ``q_0 .. q_{k-1}``::

    index = sum(q_i << (4 * i))            # 16**k entries, one byte each

Entries of impossible placements (two tiles on one square) hold 0 (never
looked up; 0 keeps even a bogus lookup admissible).

Sharing tables between symmetric groups
---------------------------------------
If a board symmetry ``sigma`` (a permutation of the squares preserving
adjacency) maps the goal squares of group G onto those of group H, then H's
value equals G's table looked up with H's tiles taken in the order
``u_i = tile whose goal is sigma(goal(t_i))`` and every square ``q`` replaced
by ``sigma^-1(q)`` before indexing.  Hence each *lookup group* below is
``(table, tile order, square map)``: the index is
``sum(smap[square of tiles[i]] << 4*i)`` and the value ``table[index]``.
The reflected lookup is also a list of lookup groups over the same tables:
reflected group of (table, tiles, smap) = (table, [T(t) for t in tiles],
[smap[Tsq(p)] for p]), where ``Tsq(r, c) = (c, r)`` and ``T(t) = Tsq(t-1)+1``.

Asset layout (kind ``"pdb"``)
-----------------------------
Metadata (JSON, see :func:`fifteen.db.container.read_asset`)::

    {"kind": "pdb", "pdb_format": 1, "rows": 4, "cols": 4,
     "partition": "663",                 # key of PARTITIONS
     "index": "dense4",                  # index = sum(q_i << 4*i)
     "invalid": 0,                       # value stored for impossible placements
     "tables": [{"tiles": [1, 2, 5, 6, 9, 10],   # tile order of the table
                 "offset": 0,                    # byte offset in the payload
                 "size": 16777216,               # = 16**len(tiles)
                 "max": 27}, ...],               # largest entry
     "groups": [{"tiles": [1, 2, 5, 6, 9, 10],   # the group's tiles in index order
                 "table": 0,                     # which table
                 "smap": [0, 1, ..., 15]},       # square map, applied before indexing
                ...]}

Payload: the distinct tables concatenated in the order of ``"tables"``
(``offset`` of table j = sum of the sizes of tables 0..j-1), one unsigned byte
per entry.  The payload is zlib-compressed by the container.

Incremental interface (for the IDA* inner loop)
-----------------------------------------------
Let ``db = PatternDatabase.from_bytes(data)``.  Every table lives in one
``bytes`` object, ``db.data`` (the payload as loaded, never copied), and
every index handed out below is a *flat* index into it (the table's offset
plus the placement index), so a lookup is ``db.data[i]`` whatever the group.
Plain lookup groups are ``db.groups``, reflected ones ``db.rgroups`` (empty
unless the board is square); each is a :class:`LookupGroup` with ``offset``,
``tiles`` and ``smap``.  For the plain lookup:

* ``db.group_of[t]``  – the plain group index of tile t (-1 for the blank);
* ``db.weight[t][q]`` – contribution of tile t on square q to its group's
  index: ``smap[q] << 4*i`` (i = position of t in the group's tile order); a
  group's flat index is its ``offset`` plus the sum of its tiles' weights;
* ``db.delta[t][a * N + b]`` – ``weight[t][b] - weight[t][a]``: add it to
  the group's index when tile t moves from square a to square b;
* ``db.indices(board)`` – the list of initial flat plain indices (one per
  group, in ``db.groups`` order).

The reflected lookup has the same names with an ``r`` prefix: ``rgroup_of``,
``rweight``, ``rdelta``, ``rindices(board)``.  Then
``sum(db.data[i] for i in db.indices(board))`` is :meth:`value` and the same
with ``rindices`` is :meth:`reflected_value` — no reflected board is ever
built.  (One flat ``bytes`` instead of a table per group saves a subscript
per lookup: ~10-20 % faster search.)

A move changes exactly one plain and one reflected group index.  That
group's entry changes by an odd amount (an entry has the parity of its
group's Manhattan distance), usually +-1 but +-3 or +-5 on ~1 % of moves
(the entry is a minimum over blank squares, and the real blank may sit in a
worse region), so ``value`` and ``reflected_value`` keep the parity of
``g + h`` but are not 1-Lipschitz: "no cut within k moves while
g + h + 2k <= bound" does not hold for PDB values.
:func:`fifteen.bounds.pdb_loop.pdb_searcher` is an IDA* inner loop written
against this interface.

Dual lookups
------------
Label every tile by its goal square and the blank by the last square (n - 1): a position is
then a permutation of the squares, and its *dual* is the inverse permutation (Felner, Zahavi,
Schaeffer and Holte 2005; Zahavi et al. 2008).  When the blank is on its goal square the dual
is reached from the goal by the same blank path as the position, so it is at the same
distance and the PDB's value of the dual is admissible.  With the blank elsewhere, on square
p, that is not so (on 3x3 the plain inverse overestimates 8,911 positions, by up to 7 moves);
what holds: the position is as far from the goal as the position X' is from A', where A' is
the goal with the blank and tile p+1 exchanged and X' holds tile l+1 on the goal square of
the position's tile on square l (the tile on square n-1 for l = p).  Every group without tile
p+1 has its goal squares in A' as in the goal, so its entry of X' counts its moves; for the
group with tile p+1 the entry of X' less ``c`` (the exact cost, in the group's abstract space,
from A''s placement with the blank on p to the goal placement: the triangle inequality) or
the Manhattan distance of its tiles in X' towards A', whichever is larger.  Hence
:meth:`PatternDatabase.dual_value` (the max of that sum and the same with the reflected
lookup groups: the dual of the reflected position).  ``tests/test_pdb.py`` checks it
admissible on every 3x3 and 2x4 position against exact BFS distances.

The dual's incremental interface (:meth:`PatternDatabase.dual_tables`, for the inner loop):
the dual index of a group is the sum, over the group's goal squares l, of a weight of the
tile on square l (``weight[l][x]``: the dual square of tile l+1, goal(x), mapped and shifted
as in the plain index), so a move changes the dual indices of at most two groups (those of
the two squares' tiles).  The blank's square takes the weight of the tile on square n-1
(``extra[p][x]``).  Each weight also carries the tile's Manhattan distance (towards A')
above bit 32, so a group's slot holds ``index + (md << 32)``.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NoReturn

from fifteen.board import Shape, neighbours, tile_mirrors, tile_squares, transpose_squares, transpose_tiles
from fifteen.db.container import AssetError, read_asset

PDB_FORMAT = 1

#: Partitions of the 4x4 tiles: name -> groups (tile order = index order).
#: ``663``: the two 6-tile groups are left-right mirror images (one table).
#: ``555``: groups 1 and 2 are left-right mirror images (one table), group 3
#: has its own; the transpose maps no group onto a group.  With the reflected
#: lookup it expanded the fewest nodes of the 5-5-5 partitions measured on
#: Korf 1-20 (``bench/pdb_build.md``): 21.5 M against 29.2 M and 35.3 M.
PARTITIONS: dict[str, tuple[tuple[int, ...], ...]] = {
    "663": ((1, 2, 5, 6, 9, 10), (3, 4, 7, 8, 11, 12), (13, 14, 15)),
    "555": ((1, 2, 5, 6, 9), (3, 4, 7, 8, 12), (10, 11, 13, 14, 15)),
}
DEFAULT_PARTITION = "663"


def asset_file(partition: str) -> str:
    """File name of a partition's asset (``pdb-663.f15``)."""
    return f"pdb-{partition}.f15"


# ----------------------------------------------------------------- geometry
def board_symmetries(rows: int, cols: int) -> list[tuple[int, ...]]:
    """Every adjacency-preserving permutation of the squares (as tuples sq -> image).

    8 for a square board, 4 otherwise (2 for a single row/column); identity first.
    """
    maps = []
    for transpose in (False, True) if rows == cols else (False,):
        for flip_r in (False, True):
            for flip_c in (False, True):
                perm = []
                for p in range(rows * cols):
                    r, c = divmod(p, cols)
                    if transpose:
                        r, c = c, r
                    if flip_r:
                        r = rows - 1 - r
                    if flip_c:
                        c = cols - 1 - c
                    perm.append(r * cols + c)
                t = tuple(perm)
                if t not in maps:
                    maps.append(t)
    return maps


def reflect_board(tiles: Sequence[int], n_side: int) -> list[int]:
    """The position reflected about the main diagonal: tile T(t) on square Tsq(p)
    (:func:`fifteen.board.transpose_tiles` on a square board; T is :func:`fifteen.board.tile_mirrors`)."""
    return transpose_tiles(Shape(n_side, n_side), tiles)


def plan_groups(rows: int, cols: int, groups: Sequence[Sequence[int]]) -> tuple[list[dict], list[dict]]:
    """Decide which groups share tables.

    Returns ``(tables, lookup_groups)`` in the meta format of the module
    docstring, without offsets/sizes/max (the builder adds them): a group
    whose goal squares are the image of an earlier table's goal squares under
    a board symmetry reuses that table.
    """
    syms = board_symmetries(rows, cols)
    tables: list[dict] = []
    out: list[dict] = []
    n = rows * cols
    for grp in groups:
        grp = [int(t) for t in grp]
        goals = {t - 1 for t in grp}
        found = None
        for ti, tab in enumerate(tables):
            if len(tab["tiles"]) != len(grp):
                continue
            for sigma in syms:
                if {sigma[t - 1] for t in tab["tiles"]} == goals:
                    found = (ti, sigma)
                    break
            if found:
                break
        if found is None:
            tables.append({"tiles": list(grp)})
            out.append({"tiles": list(grp), "table": len(tables) - 1, "smap": list(range(n))})
        else:
            ti, sigma = found
            inv = sorted(range(n), key=sigma.__getitem__)  # the inverse permutation
            order = [sigma[t - 1] + 1 for t in tables[ti]["tiles"]]
            out.append({"tiles": order, "table": ti, "smap": inv})
    return tables, out


# ----------------------------------------------------------------- lookups
@dataclass(frozen=True)
class LookupGroup:
    """One term of the additive sum: ``data[offset + sum(smap[pos(tiles[i])] << 4*i)]``."""

    data: bytes = field(repr=False)
    table_id: int
    offset: int
    size: int
    tiles: tuple[int, ...]
    smap: tuple[int, ...]

    def index(self, pos: Sequence[int]) -> int:
        """Flat index (into ``data``) for *pos* = square of each tile (pos[t] = square of tile t)."""
        sm = self.smap
        idx = self.offset
        for i, t in enumerate(self.tiles):
            idx += sm[pos[t]] << (4 * i)
        return idx

    @property
    def table(self) -> memoryview:
        """The group's table (a zero-copy view, indexed by the placement index)."""
        return memoryview(self.data)[self.offset : self.offset + self.size]


def check_layout_meta(meta: dict, name: str, format_key: str, version: int, what: str, partition, rows, cols):
    """Checks shared by the PDB assets: layout version, shape and partition against what the
    caller expects (``None`` = anything); returns ``(rows, cols, partition)`` or raises AssetError."""
    if meta.get(format_key) != version:
        raise AssetError(
            f"{name}: {what} layout version {meta.get(format_key)!r} is not supported (expected {version}); rebuild it with build_db.py",
            code="asset_corrupt",
        )
    try:
        r, c = int(meta["rows"]), int(meta["cols"])
        part = meta["partition"]
    except (KeyError, TypeError, ValueError) as exc:
        raise AssetError(f"{name}: incomplete {what} metadata ({exc!r})", code="asset_corrupt") from None
    if (rows is not None and rows != r) or (cols is not None and cols != c):
        want = f"{'?' if rows is None else rows}x{'?' if cols is None else cols}"
        raise AssetError(f"{name}: is a {r}x{c} database, expected {want}", code="asset_corrupt")
    if partition is not None and part != partition:
        raise AssetError(f"{name}: holds partition {part!r}, expected {partition!r}", code="asset_corrupt")
    return r, c, part


# ----------------------------------------------------------------- dual lookups
#: The mask of a dual slot's index (the Manhattan distance is above it).
DUAL_MASK = (1 << 32) - 1


def _placement_entry(data: bytes, g: LookupGroup, placement: Sequence[int]) -> int:
    """The entry of *g* for its tiles on the squares *placement* (in ``g.tiles`` order)."""
    return data[g.offset + sum(g.smap[q] << (4 * i) for i, q in enumerate(placement))]


def abstract_cost(data: bytes, g: LookupGroup, near: Sequence[Sequence[int]], placement: tuple[int, ...], blank: int) -> int:
    """The exact cost, in group *g*'s abstract space (its tiles, the blank; other tiles free),
    from *placement* with the blank on *blank* to the goal placement (any blank): a 0-1 BFS
    pruned by the group's own entries (exact minima over the blank, so never above the cost)."""
    home = tuple(t - 1 for t in g.tiles)
    bound = _placement_entry(data, g, placement)
    while True:
        best = {(placement, blank): 0}
        queue = deque([(0, placement, blank)])
        while queue:
            cost, pl, b = queue.popleft()
            if best[pl, b] != cost:
                continue
            if pl == home:
                return cost
            for q in near[b]:
                if q in pl:  # a group tile slides from q onto the blank's square: one move
                    i = pl.index(q)
                    nxt, step = pl[:i] + (b,) + pl[i + 1 :], 1
                else:  # another tile: free
                    nxt, step = pl, 0
                c = cost + step
                if c + _placement_entry(data, g, nxt) > bound or best.get((nxt, q), c + 1) <= c:
                    continue
                best[nxt, q] = c
                (queue.appendleft if step == 0 else queue.append)((c, nxt, q))
        bound += 1


@dataclass(frozen=True)
class DualTables:
    """The incremental dual lookup of one list of lookup groups (see the module docstring).

    Slots ``base .. base + k - 1`` hold the groups' dual ``index + (md << 32)``, slot
    ``base + k`` is a dummy (always 0) for the square n - 1, which is no tile's goal.
    ``home[l]``: the slot of the group of tile l+1; ``weight[l][x]``: what tile x on square l
    adds to it; ``extra[l][x]``: what the blank on square l adds, x the tile on square n - 1;
    ``correction[l]``: ``c`` for the blank on square l (0 on n - 1).
    """

    base: int
    groups: int
    home: tuple[int, ...]
    weight: tuple[tuple[int, ...], ...]
    extra: tuple[tuple[int, ...], ...]
    correction: tuple[int, ...]
    offsets: tuple[int, ...]

    def slots(self, tiles: Sequence[int]) -> list[int]:
        """The slots' values for a position (the dummy last)."""
        n = len(tiles)
        out = list(self.offsets) + [0]
        p = list(tiles).index(0)
        for sq in range(n - 1):
            add = self.extra[sq][tiles[n - 1]] if sq == p else self.weight[sq][tiles[sq]]
            out[self.home[sq] - self.base] += add
        return out

    def value(self, data: bytes, slots: Sequence[int], blank: int) -> int:
        """The dual value from the slots (as the loop computes it) with the blank on square
        *blank*: every group's entry, the blank's group's corrected."""
        special = self.home[blank] - self.base
        total = 0
        for i in range(self.groups):
            v = data[slots[i] & DUAL_MASK]
            total += max(v - self.correction[blank], slots[i] >> 32) if i == special else v
        return total


def _manhattan(a: int, b: int, cols: int) -> int:
    return abs(a // cols - b // cols) + abs(a % cols - b % cols)


class PatternDatabase:
    """A loaded additive PDB (plain and reflected lookups).  See the module docstring."""

    def __init__(self, meta: dict, payload: bytes | bytearray, *, name: str = "pdb") -> None:
        self.name = name
        self.meta = meta
        self.rows = int(meta["rows"])
        self.cols = int(meta["cols"])
        self.n = n = self.rows * self.cols
        self.partition = meta["partition"]
        self.data: bytes = payload if isinstance(payload, bytes) else bytes(payload)
        tabs = meta["tables"]
        #: zero-copy views of the distinct tables
        self.tables: tuple[memoryview, ...] = tuple(memoryview(self.data)[t["offset"] : t["offset"] + t["size"]] for t in tabs)
        self.groups: tuple[LookupGroup, ...] = tuple(
            LookupGroup(self.data, g["table"], tabs[g["table"]]["offset"], tabs[g["table"]]["size"], tuple(g["tiles"]), tuple(g["smap"]))
            for g in meta["groups"]
        )
        if self.rows == self.cols:
            tt = tile_mirrors(self.rows)
            tsq = transpose_squares(self.rows)
            self.rgroups: tuple[LookupGroup, ...] = tuple(
                LookupGroup(self.data, g.table_id, g.offset, g.size, tuple(tt[t] for t in g.tiles), tuple(g.smap[tsq[p]] for p in range(n)))
                for g in self.groups
            )
        else:
            self.rgroups = ()
        self._dual: dict[tuple[bool, int], DualTables] = {}
        self.group_of, self.weight, self.delta = self._incremental(self.groups)
        self.rgroup_of, self.rweight, self.rdelta = self._incremental(self.rgroups)

    def _incremental(self, groups):
        n = self.n
        group_of = [-1] * n
        weight = [[0] * n for _ in range(n)]
        delta = [[0] * (n * n) for _ in range(n)]
        for gi, g in enumerate(groups):
            for i, t in enumerate(g.tiles):
                group_of[t] = gi
                weight[t] = [g.smap[q] << (4 * i) for q in range(n)]
                w = weight[t]
                delta[t] = [w[b] - w[a] for a in range(n) for b in range(n)]
        return (
            tuple(group_of),
            tuple(tuple(w) for w in weight),
            tuple(tuple(d) for d in delta),
        )

    # ------------------------------------------------------------ loading
    @classmethod
    def from_bytes(
        cls,
        data: bytes | bytearray | memoryview,
        *,
        name: str = "pdb",
        partition: str | None = None,
        rows: int | None = None,
        cols: int | None = None,
    ) -> PatternDatabase:
        """Check and load an asset; raise :class:`AssetError` saying what is wrong.

        *partition*, *rows*, *cols*, when given, are what the caller expects.
        """
        asset = read_asset(data, name=name, kind="pdb")
        meta, payload = asset.meta, asset.payload
        cls._check(meta, payload, name, partition, rows, cols)
        return cls(meta, payload, name=name)

    @classmethod
    def load(cls, path, **kw) -> PatternDatabase:
        """Read an asset file (native convenience)."""
        with open(path, "rb") as f:
            data = f.read()
        kw.setdefault("name", str(path))
        return cls.from_bytes(data, **kw)

    @staticmethod
    def _check(meta, payload, name, partition, rows, cols) -> None:
        def bad(msg: str) -> NoReturn:
            raise AssetError(f"{name}: {msg}", code="asset_corrupt")

        r, c, part = check_layout_meta(meta, name, "pdb_format", PDB_FORMAT, "PDB", partition, rows, cols)
        try:
            tables = meta["tables"]
            groups = meta["groups"]
        except KeyError as exc:
            bad(f"incomplete PDB metadata ({exc!r})")
        n = r * c
        if not 2 <= n <= 16 or r < 1 or c < 1:
            bad(f"unsupported board {r}x{c}")
        if meta.get("index") != "dense4" or meta.get("invalid") != 0:
            bad("unknown index scheme")
        if not isinstance(groups, list) or not isinstance(tables, list) or not tables:
            bad("no groups or tables")
        # The groups must be a partition of the tiles 1..n-1.
        seen: list[int] = []
        for g in groups:
            seen.extend(g.get("tiles", []))
        if sorted(seen) != list(range(1, n)):
            bad(f"groups {[g.get('tiles') for g in groups]} are not a partition of tiles 1..{n - 1}")
        if part in PARTITIONS and (r, c) == (4, 4):
            want = sorted(sorted(g) for g in PARTITIONS[part])
            if sorted(sorted(g["tiles"]) for g in groups) != want:
                bad(f"groups do not match partition {part!r} {PARTITIONS[part]}")
        # Tables: contiguous, sized 16**k, covering the payload exactly.
        offset = 0
        for j, t in enumerate(tables):
            k = len(t.get("tiles", []))
            if not 1 <= k <= 7 or t.get("size") != 16**k or t.get("offset") != offset:
                bad(f"table {j} has a bad size or offset")
            offset += t["size"]
        if offset != len(payload):
            bad(f"payload is {len(payload)} bytes, the tables need {offset}")
        # Each group: a known table, a board symmetry mapping its goals onto the table's.
        syms = set(board_symmetries(r, c))
        for gi, g in enumerate(groups):
            ti = g.get("table")
            if not isinstance(ti, int) or not 0 <= ti < len(tables):
                bad(f"group {gi} names no table")
            smap = tuple(g.get("smap", ()))
            tt = tables[ti]["tiles"]
            if len(g["tiles"]) != len(tt):
                bad(f"group {gi} has {len(g['tiles'])} tiles, its table {len(tt)}")
            if sorted(smap) != list(range(n)):
                bad(f"group {gi}: square map is not a permutation")
            if smap not in syms:  # (the symmetries are a group: its inverse is one too)
                bad(f"group {gi}: square map is not a board symmetry")
            if any(smap[u - 1] != t - 1 for u, t in zip(g["tiles"], tt, strict=True)):
                bad(f"group {gi}: square map does not take its goals onto table {ti}'s")
        # Cheap sanity: each table's goal entry is 0.
        for j, t in enumerate(tables):
            goal_index = sum((tile - 1) << (4 * i) for i, tile in enumerate(t["tiles"]))
            if payload[t["offset"] + goal_index] != 0:
                bad(f"table {j}: goal entry is not 0")

    # ------------------------------------------------------------ evaluators
    def value(self, tiles: Sequence[int]) -> int:
        """Sum over the groups for a position (tiles row-major, 0 = blank)."""
        pos = tile_squares(tiles)
        data = self.data
        return sum(data[g.index(pos)] for g in self.groups)

    def reflect(self, tiles: Sequence[int]) -> list[int]:
        """The position reflected about the main diagonal (square boards only)."""
        if self.rows != self.cols:
            raise ValueError("reflection needs a square board")
        return reflect_board(tiles, self.rows)

    def reflected_value(self, tiles: Sequence[int]) -> int:
        """``value(reflect(tiles))`` (computed with the reflected lookup groups)."""
        if not self.rgroups:
            raise ValueError("reflection needs a square board")
        pos = tile_squares(tiles)
        data = self.data
        return sum(data[g.index(pos)] for g in self.rgroups)

    def bound(self, tiles: Sequence[int]) -> int:
        """``max(value, reflected_value)`` (just ``value`` on non-square boards)."""
        v = self.value(tiles)
        if self.rgroups:
            return max(v, self.reflected_value(tiles))
        return v

    # ------------------------------------------------------------ dual lookups
    def corrections(self, groups: Sequence[LookupGroup]) -> list[int]:
        """Per blank square p: ``c`` of the group of tile p+1 in *groups* (0 for p = n - 1);
        see the module docstring."""
        n, near = self.n, neighbours(Shape(self.rows, self.cols))
        out = [0] * n
        for g in groups:
            for tile in g.tiles:  # the blank on square p = tile - 1 puts that tile on the last square
                placement = tuple(n - 1 if t == tile else t - 1 for t in g.tiles)
                out[tile - 1] = abstract_cost(self.data, g, near, placement, tile - 1)
        return out

    def dual_tables(self, reflected: bool, base: int) -> DualTables:
        """The incremental dual lookup (the reflected lookup groups with *reflected*), its
        slots numbered from *base*; computed once per database (a few hundredths of a second)."""
        key = (reflected, base)
        if key not in self._dual:
            groups = self.rgroups if reflected else self.groups
            if not groups:
                raise ValueError("reflection needs a square board")
            n, cols = self.n, self.cols
            home = [base + len(groups)] * n
            weight = [[0] * n for _ in range(n)]
            extra = [[0] * n for _ in range(n)]
            for gi, g in enumerate(groups):
                for i, t in enumerate(g.tiles):
                    sq = t - 1  # the goal square of tile t: in the dual, t sits where the tile on sq belongs
                    home[sq] = base + gi
                    for x in range(1, n):
                        dual_square = x - 1
                        weight[sq][x] = (g.smap[dual_square] << (4 * i)) + (_manhattan(dual_square, sq, cols) << 32)
                        extra[sq][x] = (g.smap[dual_square] << (4 * i)) + (_manhattan(dual_square, n - 1, cols) << 32)
            self._dual[key] = DualTables(
                base,
                len(groups),
                tuple(home),
                tuple(map(tuple, weight)),
                tuple(map(tuple, extra)),
                tuple(self.corrections(groups)),
                tuple(g.offset for g in groups),
            )
        return self._dual[key]

    def dual_value(self, tiles: Sequence[int]) -> int:
        """The dual lookup of a position: the max over the plain and reflected lookup groups
        of the dual sum (module docstring), computed from scratch (a reference for the loop)."""
        n, cols = self.n, self.cols
        p = list(tiles).index(0)
        pos = [0] * n  # the squares of X's tiles (pos[0], X's blank's, is no group's)
        for sq in range(n - 1):
            x = tiles[n - 1] if sq == p else tiles[sq]
            pos[sq + 1] = x - 1
        best = 0
        for groups in (self.groups, self.rgroups) if self.rgroups else (self.groups,):
            fix = self.dual_tables(groups is self.rgroups, 0).correction
            total = 0
            for g in groups:
                v = self.data[g.index(pos)]
                if p + 1 in g.tiles:  # the group of tile p + 1 (none with the blank home)
                    md = sum(_manhattan(pos[t], n - 1 if t == p + 1 else t - 1, cols) for t in g.tiles)
                    v = max(v - fix[p], md)
                total += v
            best = max(best, total)
        return best

    # ------------------------------------------------------------ incremental
    def indices(self, tiles: Sequence[int]) -> list[int]:
        """Initial flat plain indices (one per group in ``groups`` order)."""
        pos = tile_squares(tiles)
        return [g.index(pos) for g in self.groups]

    def rindices(self, tiles: Sequence[int]) -> list[int]:
        """Initial flat reflected indices (one per group in ``rgroups`` order)."""
        pos = tile_squares(tiles)
        return [g.index(pos) for g in self.rgroups]

    def memory_bytes(self) -> int:
        """Bytes held by the tables."""
        return len(self.data)


def load_partition(directory, partition: str = DEFAULT_PARTITION) -> PatternDatabase:
    """Load ``<directory>/pdb-<partition>.f15`` and check it is that partition."""
    return PatternDatabase.load(os.path.join(directory, asset_file(partition)), partition=partition)


__all__ = [
    "PARTITIONS",
    "DEFAULT_PARTITION",
    "PatternDatabase",
    "LookupGroup",
    "DualTables",
    "DUAL_MASK",
    "abstract_cost",
    "AssetError",
    "asset_file",
    "board_symmetries",
    "plan_groups",
    "reflect_board",
    "load_partition",
]
