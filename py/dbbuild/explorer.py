"""Builder of the explorer tables (build time only: numpy).

Used by :mod:`dbbuild.specs` (``make db`` for 3x3, 2x4 and 2x5; ``make explorer-pack``
for the optional 3x4 and 2x6 packs); the runtime reader is
:mod:`fifteen.bounds.exact` (stdlib only), which documents the index, the encoding
and the asset.

A breadth-first search from the goal over the blank-major ranks of the
solvable positions (``rank = blank * H + sequence rank``), one byte of
distance per position while building (239.5 MB for 3x4).  Each layer is
expanded a slice of ranks at a time, sorted and grouped by blank square:

* a horizontal move leaves the sequence of tiles as it is: the child's rank is
  ``rank +- H``, no unranking at all;
* a vertical move rotates a window of ``cols`` consecutive tiles of the
  sequence: the slice is unranked once (mixed-radix digits, then the digit-th
  unused value through a table indexed by the mask of used values), the window
  rotated by a fixed permutation of rows, and the children ranked (a table of
  "values below v among the used ones").

New children get the next depth in the distance array; the next layer is the
array's positions equal to that depth (``np.flatnonzero``: sorted, no
duplicates).  The histogram, the hardest positions and the lists of the rare
distances come from the finished array; the payload is one bit per position,
``(d // 2) % 2``, packed little-endian (``np.packbits(bitorder="little")``).
"""

from __future__ import annotations

import time

import numpy as np

from fifteen.board import Shape, neighbours
from fifteen.bounds import exact as rt
from fifteen.db.container import write_asset, write_xz

#: Build version of the ``"explore"`` assets: bump it when this builder changes what it writes.
BUILD_VERSION = 1

#: Ranks expanded per numpy call (about 40 bytes of temporaries per rank and move).
CHUNK = 1 << 20
UNREACHED = 255


class _Tables:
    """Lookup tables over masks of used values (value v -> bit v-1) for a sequence of m values."""

    def __init__(self, m: int) -> None:
        size = 1 << m
        sel = np.zeros((size, 16), np.int32)  # the k-th smallest value not in the mask
        below = np.zeros((size, 16), np.int32)  # how many values below v are in the mask
        low = np.zeros(size, np.uint8)  # smallest / largest value not in the mask
        high = np.zeros(size, np.uint8)
        for mask in range(size):
            free = [v for v in range(1, m + 1) if not mask >> (v - 1) & 1]
            for k, v in enumerate(free):
                sel[mask, k] = v
            for v in range(1, m + 1):
                below[mask, v] = (mask & ((1 << (v - 1)) - 1)).bit_count()
            if free:
                low[mask], high[mask] = free[0], free[-1]
        self.m = m
        self.sel = sel.ravel()
        self.below = below.ravel()
        self.low = low
        self.high = high


def unrank_sequences(seq_ranks: np.ndarray, parity: int, tab: _Tables) -> np.ndarray:
    """The sequences (shape (m, k), uint8) of *seq_ranks*, all with the blank on a square of inversion *parity*."""
    m = tab.m
    k = seq_ranks.size
    r = seq_ranks.astype(np.int64)
    digits = np.empty((m - 2, k), np.int32)
    for i in range(m - 3, -1, -1):
        q = r // (m - i)
        digits[i] = r - q * (m - i)
        r = q
    vals = np.empty((m, k), np.uint8)
    used = np.zeros(k, np.int32)
    for i in range(m - 2):
        v = tab.sel[(used << 4) + digits[i]]
        vals[i] = v
        used |= np.left_shift(1, v - 1, dtype=np.int32)
    low, high = tab.low[used], tab.high[used]
    odd = ((digits.sum(axis=0) + parity) & 1).astype(bool)
    vals[m - 2] = np.where(odd, high, low)
    vals[m - 1] = np.where(odd, low, high)
    return vals


def rank_sequences(vals: np.ndarray, tab: _Tables) -> np.ndarray:
    """Sequence ranks (int64) of the sequences *vals* (shape (m, k))."""
    m = tab.m
    k = vals.shape[1]
    r = np.zeros(k, np.int64)
    used = np.zeros(k, np.int32)
    for i in range(m - 2):
        v = vals[i].astype(np.int32)
        r *= m - i
        r += v - 1 - tab.below[(used << 4) + v]
        used |= np.left_shift(1, v - 1, dtype=np.int32)
    return r


def _vertical_moves(shape: Shape, b: int) -> list[tuple[int, np.ndarray]]:
    """For the blank on square b: (square it moves to, row permutation new index -> old index of the sequence)."""
    cols = shape.cols
    m = shape.size - 1
    out = []
    for s in neighbours(shape)[b]:
        if abs(s - b) == 1:
            continue
        perm = list(range(m))
        if s < b:  # blank up: the tile at sequence index s goes to index b - 1, those between shift left
            perm[s : b - 1] = range(s + 1, b)
            perm[b - 1] = s
        else:  # blank down: the tile at index s - 1 goes to index b, those between shift right
            perm[b + 1 : s] = range(b, s - 1)
            perm[b] = s - 1
        assert sorted(perm) == list(range(m)) and abs(s - b) == cols
        out.append((s, np.array(perm, np.intp)))
    return out


def build_distances(rows: int, cols: int, *, log=None, chunk: int = CHUNK) -> np.ndarray:
    """The exact distance (uint8) of every solvable position, indexed by its blank-major rank."""
    shape = Shape(rows, cols)
    rk = rt.Ranking(shape)
    n, m, block = shape.size, rk.m, rk.block
    if n > 12:
        raise ValueError(f"{shape}: too many positions for an explorer table")
    tab = _Tables(m)
    horizontal = [[s for s in neighbours(shape)[b] if abs(s - b) == 1] for b in range(n)]
    vertical = [_vertical_moves(shape, b) for b in range(n)]
    dist = np.full(rk.total, UNREACHED, np.uint8)
    dist[rk.goal_rank] = 0
    frontier = np.array([rk.goal_rank], np.int64)
    depth = 0
    while frontier.size:
        t0 = time.perf_counter()
        nxt = depth + 1
        starts = np.searchsorted(frontier, np.arange(n + 1, dtype=np.int64) * block)
        for b in range(n):
            part = frontier[starts[b] : starts[b + 1]]
            for lo in range(0, part.size, chunk):
                ranks = part[lo : lo + chunk]
                for s in horizontal[b]:
                    child = ranks + (s - b) * block
                    child = child[dist[child] == UNREACHED]
                    dist[child] = nxt
                if vertical[b]:
                    vals = unrank_sequences(ranks - b * block, rk.parity[b], tab)
                    for s, perm in vertical[b]:
                        child = rank_sequences(vals[perm], tab) + s * block
                        child = child[dist[child] == UNREACHED]
                        dist[child] = nxt
        depth = nxt
        frontier = np.flatnonzero(dist == depth)
        if log and frontier.size:
            log(f"    depth {depth}: {frontier.size:,} positions, {time.perf_counter() - t0:.1f} s")
    if (dist == UNREACHED).any():
        raise RuntimeError(f"{shape}: {(dist == UNREACHED).sum()} positions not reached")
    return dist


def encode(rows: int, cols: int, dist: np.ndarray) -> tuple[dict, bytes]:
    """Metadata and payload of the ``"explore"`` asset (see :mod:`fifteen.bounds.exact`)."""
    shape = Shape(rows, cols)
    rk = rt.Ranking(shape)
    histogram = np.bincount(dist, minlength=int(dist.max()) + 1).tolist()
    radius = len(histogram) - 1
    bits = np.packbits(((dist >> 1) & 1).astype(np.uint8), bitorder="little").tobytes()
    hardest = np.flatnonzero(dist == radius)
    lists = []
    blobs = [bits]
    offset = len(bits)
    for d in rt.listed_distances(histogram):
        ranks = np.flatnonzero(dist == d).astype("<u4")
        lists.append({"distance": d, "count": histogram[d], "offset": offset})
        blobs.append(ranks.tobytes())
        offset += 4 * histogram[d]
    meta = {
        "kind": rt.KIND,
        "explore_format": rt.EXPLORE_FORMAT,
        "rows": rows,
        "cols": cols,
        "index": rt.INDEX,
        "encoding": rt.ENCODING,
        "positions": rk.total,
        "radius": radius,
        "histogram": histogram,
        "hardest": [rk.unrank(int(x)) for x in hardest[: rt.HARDEST_LIMIT]],
        "hardest_count": int(hardest.size),
        "bits_bytes": len(bits),
        "lists": lists,
    }
    return meta, b"".join(blobs)


def build_asset(rows: int, cols: int, *, xz: bool = False, log=None) -> bytes:
    """The whole ``"explore"`` asset file: a zlib container, or with *xz* an xz of a plain container.

    The histogram must agree with the published one, when there is one (:data:`PUBLISHED`).
    """
    t0 = time.perf_counter()
    dist = build_distances(rows, cols, log=log)
    meta, payload = encode(rows, cols, dist)
    del dist
    if log:
        seconds = time.perf_counter() - t0
        log(f"  {rows}x{cols}: {meta['positions']:,} positions, radius {meta['radius']} ({meta['hardest_count']} at it), {seconds:.1f} s")
    problem = check_published(rows, cols, meta["histogram"])
    if problem:
        raise RuntimeError(f"{rows}x{cols}: the histogram differs from the published one: {problem}")
    if log and (rows, cols) in PUBLISHED:
        log(f"  {rows}x{cols}: the histogram agrees with the published one")
    if not xz:
        return write_asset(meta, payload, compress=True, level=9)
    return write_xz(write_asset(meta, payload, compress=False), preset=9)


def pack_info(meta: dict) -> dict:
    """Manifest fields of an explorer pack (see build_db.write_manifest)."""
    return {
        "label": f"Explorer table {meta['rows']}x{meta['cols']} (exact distances)",
        "memory_bytes": meta["bits_bytes"] + sum(4 * e["count"] for e in meta.get("lists", ())),
        "encoding": meta.get("encoding"),
    }


#: Published distance histograms (positions at each distance from a goal with the blank in a corner),
#: checked by the pack builds: ``(shape): (the first counts, the radius)``.
#: 3x4: OEIS A090166 (the 4 X 3 puzzle, the same graph transposed), every count.
#: 2x6: OEIS A090167 (the 6 X 2 puzzle), the counts at distances 0..38 and the radius 80
#: (the full list is in its b-file, Herman Jamke 2006).
PUBLISHED: dict[tuple[int, int], tuple[list[int], int]] = {
    (3, 4): (
        [
            1, 2, 4, 9, 20, 37, 63, 122, 232, 431, 781, 1392, 2494, 4442, 7854, 13899, 24215, 41802, 71167, 119888,
            198363, 323206, 515778, 811000, 1248011, 1885279, 2782396, 4009722, 5621354, 7647872, 10065800, 12760413,
            15570786, 18171606, 20299876, 21587248, 21841159, 20906905, 18899357, 16058335, 12772603, 9515217, 6583181,
            4242753, 2503873, 1350268, 643245, 270303, 92311, 27116, 5390, 1115, 86, 18,
        ],
        53,
    ),
    (2, 6): (
        [
            1, 2, 3, 6, 11, 20, 36, 60, 95, 155, 258, 426, 688, 1106, 1723, 2615, 3901, 5885, 8851, 13205, 19508,
            28593, 41179, 58899, 83582, 118109, 165136, 228596, 312542, 423797, 568233, 755727, 994641, 1296097,
            1667002, 2119476, 2660415, 3300586, 4038877,
        ],
        80,
    ),
}  # fmt: skip


def check_published(rows: int, cols: int, histogram: list[int]) -> str | None:
    """``None`` when *histogram* agrees with :data:`PUBLISHED` (or nothing is published), else what differs."""
    known = PUBLISHED.get((rows, cols))
    if known is None:
        return None
    prefix, radius = known
    if len(histogram) - 1 != radius:
        return f"radius {len(histogram) - 1}, published {radius}"
    for d, (mine, theirs) in enumerate(zip(histogram, prefix, strict=False)):
        if mine != theirs:
            return f"{mine:,} positions at distance {d}, published {theirs:,}"
    return None
