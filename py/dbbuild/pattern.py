"""Builder of the additive pattern databases (``"pdb"`` assets: 6-6-3, 5-5-5; numpy).

The runtime reader is :mod:`fifteen.bounds.pdb` (stdlib only), which documents what an
entry means, the dense index ``sum(q_i << 4*i)`` and the asset layout.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from fifteen.bounds import pdb as runtime
from fifteen.db import container

from .regions import neighbour_tables, region_table

#: Build version of the ``"pdb"`` assets: part of their cache key (:mod:`dbbuild.cache`).
#: Bump it whenever a change here or in :mod:`fifteen.bounds.pdb` changes the bytes written.
BUILD_VERSION = 1

Log = Callable[[str], None]


def build_table(
    rows: int, cols: int, tiles: Sequence[int], *, reg: npt.NDArray[np.uint16] | None = None, log: Log | None = None
) -> npt.NDArray[np.uint8]:
    """The PDB table of one tile group (numpy uint8 array of 16**k entries).

    Layered BFS from the goal placement over (placement, blank region):
    ``front[idx]`` is a mask of the blank squares (whole regions) first
    reached at the current depth for placement idx; moving a group tile into
    the blank's region costs 1 and yields the region of the square it left.
    A placement's entry is the depth at which it is first reached (= minimum
    over blank squares).  Impossible placements hold 0.
    """
    n = rows * cols
    k = len(tiles)
    if not (1 <= k <= 7 and n <= 16 and all(1 <= t < n for t in tiles) and len(set(tiles)) == k):
        raise ValueError(f"bad group {tiles} for {rows}x{cols}")
    full = (1 << n) - 1
    if reg is None:
        reg = region_table(rows, cols)
    size = 16**k
    nbr = neighbour_tables(rows, cols)
    # Per direction: target square (padded to 16 entries, -1 -> 0) and the target's bit (0: none).
    tgt = [np.array([max(x, 0) for x in t] + [0] * (16 - n), dtype=np.int64) for t in nbr]
    tbit = [np.array([(1 << x) if x >= 0 else 0 for x in t] + [0] * (16 - n), dtype=np.uint16) for t in nbr]

    depth = np.full(size, 255, dtype=np.uint8)
    visited = np.zeros(size, dtype=np.uint16)
    goal_idx = sum((t - 1) << (4 * i) for i, t in enumerate(tiles))
    goal_occ = sum(1 << (t - 1) for t in tiles)
    depth[goal_idx] = 0
    visited[goal_idx] = full & ~goal_occ
    f_idx: npt.NDArray[np.intp] = np.array([goal_idx], dtype=np.intp)
    f_mask = np.array([full & ~goal_occ], dtype=np.uint16)
    d = 0
    reached = 1
    while f_idx.size:
        nxt = np.zeros(size, dtype=np.uint16)
        sq = [((f_idx >> (4 * i)) & 15) for i in range(k)]
        occ = np.zeros(f_idx.size, dtype=np.uint16)
        for s in sq:
            occ |= np.uint16(1) << s.astype(np.uint16)
        free = np.uint16(full) & ~occ
        for i in range(k):
            s = sq[i]
            for dr in range(4):
                sel = np.flatnonzero(f_mask & tbit[dr][s])
                if not sel.size:
                    continue
                ss = s[sel]
                ff = tgt[dr][ss]
                nidx = f_idx[sel] + ((ff - ss) << (4 * i))
                nfree = free[sel] ^ tbit[dr][ss] ^ (np.uint16(1) << ss.astype(np.uint16))
                nreg = reg[ss, nfree]
                nxt[nidx] |= nreg
        nxt &= ~visited
        f_idx = np.flatnonzero(nxt)
        f_mask = nxt[f_idx]
        del nxt
        visited[f_idx] |= f_mask
        d += 1
        first = f_idx[depth[f_idx] == 255]
        depth[first] = d
        reached += first.size
        if log:
            log(f"    depth {d}: {f_idx.size} states, {first.size} new placements")
    expected = 1
    for j in range(k):
        expected *= n - j
    if reached != expected:
        raise RuntimeError(f"group {tiles}: reached {reached} placements of {expected}")
    depth[depth == 255] = 0
    return depth


def build_pdb_asset(rows: int, cols: int, partition: str, groups: Sequence[Sequence[int]], log: Log | None = None) -> bytes:
    """Build the tables of a partition and serialise the ``"pdb"`` asset."""
    tables, lookup = runtime.plan_groups(rows, cols, groups)
    reg = region_table(rows, cols)
    blobs = []
    offset = 0
    for t in tables:
        t0 = time.perf_counter()
        arr = build_table(rows, cols, t["tiles"], reg=reg, log=log)
        if log:
            log(f"  table {t['tiles']}: {arr.size} entries, max {int(arr.max())}, {time.perf_counter() - t0:.1f} s")
        t.update(offset=offset, size=int(arr.size), max=int(arr.max()))
        offset += arr.size
        blobs.append(np.ascontiguousarray(arr).tobytes())
    meta = {
        "kind": "pdb",
        "pdb_format": runtime.PDB_FORMAT,
        "rows": rows,
        "cols": cols,
        "partition": partition,
        "index": "dense4",
        "invalid": 0,
        "tables": tables,
        "groups": lookup,
    }
    return container.write_asset(meta, b"".join(blobs))
