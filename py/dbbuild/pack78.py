"""Builder of the 7-8 pattern-database pack (build time only: numpy, numba when installed).

Used by ``build_db.py --pack`` (``make pack``); the runtime reader is
:mod:`fifteen.bounds.pdb78` (stdlib only), which documents the index and the asset.

One table per tile group, indexed by the **mixed-radix rank** of the group's
squares in tile order (:func:`fifteen.bounds.pdb78.rank`): digit_i = square_i - number
of squares of earlier tiles below square_i, radices N, N-1, ..., digit 0 most
significant; ``N!/(N-k)!`` entries (518,918,400 for 8 tiles on 4x4).

Layered BFS from the goal (group home, blank in the region of its goal
square n-1) over group placements with the blank tracked exactly: per
placement a 16-bit mask of blank squares (whole regions of connected
non-group squares, crossed at cost 0, set at once through ``reg[square,
free-mask]``); moving a group tile into the blank's region costs 1.  An
entry is the layer at which its placement is first reached (= minimum over
blank squares).  Moving tile i from a to b changes the rank by
``w_i*(b-a) + sign(b-a) * sum(-w_i if j < i else w_j)`` over the group
tiles j on squares strictly between a and b (none for a horizontal move).

The kernels are plain Python over numpy arrays; with numba installed they are
compiled (the real 8-tile table needs it: ~3.6 GB of arrays), otherwise they
run interpreted, which is fine for the small tables of the tests.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from fifteen.bounds import pdb78 as runtime

from .regions import DIRECTIONS, region_table

#: Build version of the ``"pdb78"`` pack: part of its cache key (:mod:`dbbuild.cache`).
#: Bump it whenever a change here or in :mod:`fifteen.bounds.pdb78` changes the bytes written.
BUILD_VERSION = 1
#: Version of the raw BFS entries kept in the raw cache (:func:`cached_nibbles`): bump it
#: when the kernels below (:func:`build_depths`, :func:`build_nibbles`) change what they compute.
RAW_VERSION = 1

Log = Callable[[str], None]


def _interpreted(*args: Any, **kwargs: Any) -> Any:
    """Stands for numba's ``njit`` without numba: the kernels run as plain Python."""
    if args and callable(args[0]):
        return args[0]
    return lambda f: f


try:  # pragma: no cover - depends on the environment
    from numba import njit

    HAVE_NUMBA = True
except ImportError:  # interpreted fallback (small tables only)
    HAVE_NUMBA = False
    njit = _interpreted


@njit(cache=True)
def _unrank(x, k, n, dig, sq):
    """Squares of the group's tiles (into *sq*) for mixed-radix rank *x*; returns their bit mask."""
    r = x
    for i in range(k - 1, -1, -1):
        rad = n - i
        dig[i] = r % rad
        r //= rad
    used = 0
    for i in range(k):
        d = dig[i]
        s = 0
        while True:
            if (used >> s) & 1 == 0:
                if d == 0:
                    break
                d -= 1
            s += 1
        sq[i] = s
        used |= 1 << s
    return used


@njit(cache=True)
def _rank_change(i, a, b, sq, k, radix_w):
    """The change of the rank when tile i (of the squares *sq*) moves from square a to b: the
    module docstring's ``w_i*(b-a) + sign(b-a) * sum(...)`` over the group tiles jumped over."""
    delta = radix_w[i] * (b - a)
    if b - a > 1 or a - b > 1:
        lo = min(a, b)
        hi = max(a, b)
        acc = 0
        for j in range(k):
            if j != i and lo < sq[j] < hi:
                if j < i:
                    acc -= radix_w[i]
                else:
                    acc += radix_w[j]
        delta += acc if b > a else -acc
    return delta


@njit(cache=True)
def _region(s, free, first_col, last_col, cols):
    """The connected region of square s within the square set *free* (bit masks; 0 when s is
    not in *free*): a flood fill, the bit-mask twin of ``reg[s, free]``.  *first_col* and
    *last_col* are the masks of the board's first and last columns (no step left off the first
    column, none right off the last)."""
    r = free & (np.int64(1) << s)
    while True:
        grow = ((r & ~last_col) << 1) | ((r & ~first_col) >> 1) | (r << cols) | (r >> cols)
        nr = (r | grow) & free
        if nr == r:
            return r
        r = nr


@njit(cache=True)
def _expand(front_idx, cur, nxt, k, n, radix_w, nbr, reg, full, flood, first_col, last_col, cols):
    """One BFS layer: OR into ``nxt`` the blank regions reached by one group move.  The regions
    come from the region table *reg*, or with *flood* from :func:`_region` (boards of more than
    16 squares, whose table would hold 2^N masks a square)."""
    sq = np.zeros(k, np.int64)
    dig = np.zeros(k, np.int64)
    for f in range(front_idx.shape[0]):
        idx = front_idx[f]
        m = np.int64(cur[idx])
        used = _unrank(idx, k, n, dig, sq)
        free = full & ~used
        for i in range(k):
            a = sq[i]
            for dr in range(4):
                b = nbr[a, dr]
                if b < 0 or (m >> b) & 1 == 0:
                    continue
                delta = _rank_change(i, a, b, sq, k, radix_w)
                nfree = free ^ (np.int64(1) << b) ^ (np.int64(1) << a)
                nidx = idx + delta
                if flood:
                    nxt[nidx] = nxt[nidx] | _region(a, nfree, first_col, last_col, cols)
                else:
                    nxt[nidx] = nxt[nidx] | reg[a, nfree]


@njit(cache=True)
def _finish(nxt, visited, depth, d):
    """nxt &= ~visited; visited |= nxt; first reached placements get depth d; returns (states, new)."""
    states = 0
    new = 0
    for x in range(nxt.shape[0]):
        v = nxt[x]
        if v:
            v = v & ~visited[x]
            nxt[x] = v
            if v:
                states += 1
                visited[x] = visited[x] | v
                if depth[x] == 255:
                    depth[x] = d
                    new += 1
    return states, new


@njit(cache=True)
def _nibbles(depth, k, n, cols, goal_sq, out):
    """out[x] = (depth[x] - group MD) // 2; returns -1 if some entry is odd/negative/unreached, else the max."""
    dig = np.zeros(k, np.int64)
    sq = np.zeros(k, np.int64)
    mx = np.int64(0)
    for x in range(depth.shape[0]):
        _unrank(x, k, n, dig, sq)
        md = 0
        for i in range(k):
            s = sq[i]
            g = goal_sq[i]
            md += abs(s // cols - g // cols) + abs(s % cols - g % cols)
        v = np.int64(depth[x]) - md
        if depth[x] == 255 or v < 0 or v & 1:
            return -1
        v >>= 1
        out[x] = v
        if v > mx:
            mx = v
    return mx


def _neighbour_table(rows: int, cols: int) -> npt.NDArray[np.int64]:
    """nbr[square, direction]: the neighbouring square, or -1 off the board."""
    return np.array(
        [
            [
                (p // cols + dr) * cols + p % cols + dc if 0 <= p // cols + dr < rows and 0 <= p % cols + dc < cols else -1
                for dr, dc in DIRECTIONS
            ]
            for p in range(rows * cols)
        ],
        dtype=np.int64,
    )


@njit(cache=True)
def _edge_changes(ent, k, n, radix_w, nbr, hist, marks):
    """Over every placement and every move of a group tile into a square free of group tiles:
    hist[c + 3] counts the changes c of the entry (clipped to -3..3); marks[x] = 1 where some
    move changes placement x's entry by 2 or more.  Returns the number of marked placements."""
    sq = np.zeros(k, np.int64)
    dig = np.zeros(k, np.int64)
    marked = 0
    for idx in range(ent.shape[0]):
        used = _unrank(idx, k, n, dig, sq)
        e = np.int64(ent[idx])
        steep = False
        for i in range(k):
            a = sq[i]
            for dr in range(4):
                b = nbr[a, dr]
                if b < 0 or (used >> b) & 1:
                    continue
                delta = _rank_change(i, a, b, sq, k, radix_w)
                c = np.int64(ent[idx + delta]) - e
                if c > 1 or c < -1:
                    steep = True
                hist[6 if c >= 3 else 0 if c <= -3 else c + 3] += 1
        if steep:
            marks[idx] = 1
            marked += 1
    return marked


def entry_changes(rows: int, cols: int, tiles: Sequence[int], entries: npt.NDArray[np.uint8]) -> tuple[list[int], npt.NDArray[np.uint8]]:
    """How a group's entries ((value - MD) / 2, in rank order) change along the moves of its
    tiles: ``(counts of the changes -3..3, clipped; a mark per placement with a change of 2 or
    more)``.  An encoding that keeps only the entry mod 3 (recovering the child's entry from
    the parent's) needs every change in -1..1; bench/pack_compact.py measures the real pack."""
    n = rows * cols
    k = len(tiles)
    if entries.size != runtime.table_size(n, k):
        raise ValueError(f"{entries.size} entries, a {k}-tile table on {n} squares has {runtime.table_size(n, k)}")
    w = np.array(runtime.radix_weights(n, k), dtype=np.int64)
    nbr = _neighbour_table(rows, cols)
    hist = np.zeros(7, dtype=np.int64)
    marks = np.zeros(entries.size, dtype=np.uint8)
    _edge_changes(entries, k, n, w, nbr, hist, marks)
    return [int(c) for c in hist], marks


def _column_masks(rows: int, cols: int) -> tuple[int, int]:
    """The bit masks of the board's first and last columns (for :func:`_region`)."""
    first = sum(1 << (r * cols) for r in range(rows))
    return first, first << (cols - 1)


def build_depths(
    rows: int,
    cols: int,
    tiles: Sequence[int],
    *,
    reg: npt.NDArray[np.uint16] | None = None,
    flood: bool | None = None,
    log: Log | None = None,
) -> npt.NDArray[np.uint8]:
    """Entries (BFS depths) of one group, in mixed-radix rank order (uint8).

    The blank's regions come from the region table *reg* (:func:`dbbuild.regions.region_table`,
    16-bit masks) on boards of up to 16 squares, else (or with *flood*) from a flood fill over
    32-bit masks (:func:`_region`): the same entries, without the table's 2^N masks a square."""
    n = rows * cols
    k = len(tiles)
    if flood is None:
        flood = n > 16
    if n > 32 or (n > 16 and not flood):
        raise ValueError(f"a {rows}x{cols} board is too big for the builder (at most 32 squares, more than 16 by flood fill)")
    size = runtime.table_size(n, k)
    w = np.array(runtime.radix_weights(n, k), dtype=np.int64)
    full = (1 << n) - 1
    first_col, last_col = _column_masks(rows, cols)
    nbr = _neighbour_table(rows, cols)
    goal = [t - 1 for t in tiles]
    goal_idx = runtime.rank(goal, n)
    goal_occ = sum(1 << q for q in goal)
    mask = np.uint32 if flood else np.uint16
    depth = np.full(size, 255, dtype=np.uint8)
    visited = np.zeros(size, dtype=mask)
    cur = np.zeros(size, dtype=mask)
    nxt = np.zeros(size, dtype=mask)
    # The goal: the group home and the blank on its own goal square (n-1), i.e.
    # anywhere in that square's region (for tiles 8-15 the blank's goal square
    # is cut off by tiles 12 and 15: starting from every free square instead
    # would be admissible but weaker, max 37 instead of 38).
    if flood:
        reg = np.zeros((1, 1), dtype=np.uint16)  # unused: the kernel flood-fills
        cur[goal_idx] = _region(n - 1, full & ~goal_occ, first_col, last_col, cols)
    else:
        if reg is None:
            reg = region_table(rows, cols)
        cur[goal_idx] = reg[n - 1, full & ~goal_occ]
    visited[goal_idx] = cur[goal_idx]
    depth[goal_idx] = 0
    reached = 1
    d = 0
    front = np.array([goal_idx], dtype=np.int64)
    while front.size:
        t0 = time.perf_counter()
        _expand(front, cur, nxt, k, n, w, nbr, reg, full, flood, first_col, last_col, cols)
        d += 1
        states, new = _finish(nxt, visited, depth, d)
        reached += int(new)
        cur, nxt = nxt, cur
        nxt[:] = 0
        front = np.flatnonzero(cur)
        if log:
            log(f"    depth {d}: {int(states):,} placements in the front, {int(new):,} new ({time.perf_counter() - t0:.1f} s)")
    del visited, cur, nxt
    if reached != size:
        raise RuntimeError(f"group {tiles}: reached {reached} placements of {size}")
    return depth


def build_nibbles(
    rows: int, cols: int, tiles: Sequence[int], *, reg: npt.NDArray[np.uint16] | None = None, log: Log | None = None
) -> tuple[npt.NDArray[np.uint8], int, int]:
    """(entries as (depth - MD)/2, one uint8 each; max depth; max nibble) of one group
    (the regions: see :func:`build_depths`)."""
    depth = build_depths(rows, cols, tiles, reg=reg, log=log)
    n = rows * cols
    out = np.zeros(depth.size, dtype=np.uint8)
    goal = np.array([t - 1 for t in tiles], dtype=np.int64)
    mx = int(_nibbles(depth, len(tiles), n, cols, goal, out))
    if mx < 0 or mx > 15:
        raise RuntimeError(f"group {tiles}: an entry is not MD + 2*(0..15)")
    return out, int(depth.max()), mx


# The raw cache before RAW_VERSION existed named its files after a hash of the kernels'
# source text (so reformatting the file invalidated 25 minutes of BFS).  Those entries hold
# exactly what RAW_VERSION 1 computes; they are adopted (hard-linked under the new name)
# instead of being recomputed.  Keys of the two real groups, before and after `ruff format`.
_LEGACY_RAW_KEYS: dict[tuple[int, int, tuple[int, ...]], tuple[str, ...]] = {
    (4, 4, (1, 2, 3, 4, 5, 6, 7)): ("6c0f980e523dca19", "a199ba172e2b1140"),
    (4, 4, (8, 9, 10, 11, 12, 13, 14, 15)): ("d018f920498328f6", "af5abb6607900062"),
}


def raw_cache_base(raw_cache: Path, rows: int, cols: int, tiles: Sequence[int]) -> Path:
    """Where :func:`cached_nibbles` keeps one group's entries (``.u8``) and maxima (``.json``):
    named after the board, the group and :data:`RAW_VERSION`, nothing else."""
    return Path(raw_cache) / f"pdb78-raw-v{RAW_VERSION}-{rows}x{cols}-{'_'.join(map(str, tiles))}"


def _adopt_legacy_raw(base: Path, rows: int, cols: int, tiles: Sequence[int], log: Log | None) -> None:
    if RAW_VERSION != 1:  # the legacy entries hold version 1: drop _LEGACY_RAW_KEYS with the bump
        return
    for key in _LEGACY_RAW_KEYS.get((rows, cols, tuple(tiles)), ()):
        old = base.parent / f"pdb78-raw-{rows}x{cols}-{'_'.join(map(str, tiles))}-{key}"
        if old.with_suffix(".u8").exists() and old.with_suffix(".json").exists():
            for suffix in (".json", ".u8"):  # the .u8 last: it is what marks the entry complete
                try:
                    os.link(old.with_suffix(suffix), base.with_suffix(suffix))
                except FileExistsError:
                    pass
                except OSError:  # no hard links here: copy
                    shutil.copyfile(old.with_suffix(suffix), base.with_suffix(suffix))
            if log:
                log(f"  group {list(tiles)}: adopted the raw entries of {old.name}")
            return


def cached_nibbles(
    rows: int,
    cols: int,
    tiles: Sequence[int],
    *,
    reg: npt.NDArray[np.uint16] | None = None,
    log: Log | None = None,
    raw_cache: Path | None = None,
) -> tuple[npt.NDArray[np.uint8], int, int]:
    """:func:`build_nibbles`, kept in *raw_cache* (one byte per entry + JSON) so that
    re-encoding the pack (or editing the runtime modules) does not redo the BFS."""
    if raw_cache is None:
        return build_nibbles(rows, cols, tiles, reg=reg, log=log)
    base = raw_cache_base(raw_cache, rows, cols, tiles)
    binf, jsf = base.with_suffix(".u8"), base.with_suffix(".json")
    base.parent.mkdir(parents=True, exist_ok=True)
    if not binf.exists():
        _adopt_legacy_raw(base, rows, cols, tiles, log)
    if binf.exists() and jsf.exists():
        info = json.loads(jsf.read_text())
        nib = np.fromfile(binf, dtype=np.uint8)
        if nib.size == runtime.table_size(rows * cols, len(tiles)):
            if log:
                log(f"  group {list(tiles)}: raw entries from {binf}")
            return nib, info["max_value"], info["max"]
    nib, maxd, maxn = build_nibbles(rows, cols, tiles, reg=reg, log=log)
    tmp = binf.with_suffix(".tmp")
    nib.tofile(tmp)
    jsf.write_text(json.dumps({"max_value": maxd, "max": maxn}))
    tmp.replace(binf)
    return nib, maxd, maxn


def build_pack(
    rows: int,
    cols: int,
    partition: str,
    groups: Sequence[Sequence[int]],
    *,
    encoding: str = runtime.DEFAULT_ENCODING,
    log: Log | None = None,
    raw_cache: Path | None = None,
    xz: bool = True,
) -> bytes:
    """Build every group's table and serialise the ``"pdb78"`` asset (an xz of a plain container
    with *xz*, the pack's form; else the container alone, zlib -9: the 7-7-1's)."""
    reg = region_table(rows, cols) if rows * cols <= 16 else None  # larger boards flood-fill
    parts = []
    tables = []
    offset = 0
    for tiles in groups:
        t0 = time.perf_counter()
        nib, maxd, maxn = cached_nibbles(rows, cols, list(tiles), reg=reg, log=log, raw_cache=raw_cache)
        hist = np.bincount(nib, minlength=16).tolist()
        if log:
            log(f"  group {list(tiles)}: {nib.size:,} entries, max depth {maxd}, max nibble {maxn}, {time.perf_counter() - t0:.1f} s")
        tables.append({"tiles": list(tiles), "offset": offset, "size": int(nib.size), "max": maxn, "max_value": maxd, "histogram": hist})
        offset += nib.size + (nib.size & 1)  # every table starts on a byte
        if nib.size & 1:
            nib = np.concatenate([nib, np.zeros(1, np.uint8)])
        parts.append(nib)
    entries = np.concatenate(parts) if len(parts) > 1 else parts[0]
    packed = (entries[0::2] | (entries[1::2] << 4)).astype(np.uint8).tobytes()
    del entries, parts
    meta = {
        "kind": "pdb78",
        "pdb78_format": runtime.PDB78_FORMAT,
        "rows": rows,
        "cols": cols,
        "partition": partition,
        "index": "mixed-radix",
        "tables": tables,
    }
    t0 = time.perf_counter()
    data = runtime.encode_asset(meta, packed, encoding=encoding, xz=xz)
    if log:
        log(f"  encoded ({encoding}): {len(packed):,} B of nibbles -> {len(data):,} B in {time.perf_counter() - t0:.1f} s")
    return data
