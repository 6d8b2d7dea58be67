#!/usr/bin/env python3
"""Build every database asset of Fifteen into one directory (native only; numpy).

    python build_db.py --out static/db [--only NAME ...] [--force] [--cache DIR] [--list]

Writes each asset of :data:`ASSETS` (container format of :mod:`fifteen.dbfile`)
plus ``manifest.json``::

    {"format": 1, "assets": [{"file": "pdb-663.f15", "kind": "pdb",
                              "shapes": ["4x4"], "bytes": N, "crc32": "%08x",
                              "sha256": "..."}, ...],
     "packs": [...]}   # only when an optional pack (build_db.py --pack) is in --out:
                       # same fields + "optional": true, "bound", "label",
                       # "memory_bytes" (RAM once loaded), "encoding",
                       # "compression": "xz", "raw_bytes" (the container's size
                       # once decompressed: the browser worker allocates it)

``crc32`` is the container's trailer checksum (CRC-32 of all bytes but the last
4 — the CRC-32 of a whole container file is always 2144df1c); ``sha256`` is of
the whole file.  ``bytes`` is the file's size (a pack's download size); an xz
pack has no ``crc32`` (the container inside carries its own).

Caching: every built file is kept in a cache directory (``--cache``, else
``$FIFTEEN_DB_CACHE``, else ``~/.cache/fifteen-db``) under a key that hashes
the builder's inputs — the source of this file, the source of the runtime
modules the asset's builder imports (``AssetSpec.modules``) and the asset's
parameters.  An asset is rebuilt only when that key changes (or ``--force``);
otherwise the cached file is hard-linked (or copied) into ``--out``.  Files in
``--out`` already identical to the cached ones are left alone, so a second run
does nothing but refresh the manifest's time stamp (for make).

Adding an asset: append an :class:`AssetSpec` to :data:`ASSETS` (see the
marked place for the walking-distance tables).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import os
import shutil
import sys
import tempfile
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT / "py"))

from fifteen import dbfile  # noqa: E402  (stdlib-only runtime module)
from fifteen import pdb as pdbmod  # noqa: E402

MANIFEST_FORMAT = 1


# ===================================================================== PDB construction
def _neighbour_tables(rows: int, cols: int):
    """For each of the 4 directions, the target square of each square (-1: off board)."""
    n = rows * cols
    out = []
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        t = []
        for p in range(n):
            r, c = divmod(p, cols)
            r2, c2 = r + dr, c + dc
            t.append(r2 * cols + c2 if 0 <= r2 < rows and 0 <= c2 < cols else -1)
        out.append(t)
    return out


def region_table(rows: int, cols: int):
    """``reg[s, free]`` = the connected region of square s within the square set *free*.

    (a bit mask; 0 when s is not in *free*).  Shape (N, 2**N), uint16.
    """
    import numpy as np

    n = rows * cols
    full = (1 << n) - 1
    not_first_col = 0
    not_last_col = 0
    for p in range(n):
        if p % cols != 0:
            not_first_col |= 1 << p
        if p % cols != cols - 1:
            not_last_col |= 1 << p
    free = np.arange(1 << n, dtype=np.uint32)
    reg = np.empty((n, 1 << n), dtype=np.uint16)
    for s in range(n):
        r = free & np.uint32(1 << s)
        while True:
            grow = ((r << 1) & not_first_col) | ((r >> 1) & not_last_col) | (r << cols) | (r >> cols)
            nr = (r | grow) & free & full
            if np.array_equal(nr, r):
                break
            r = nr
        reg[s] = r
    return reg


def build_table(rows: int, cols: int, tiles, *, reg=None, log=None):
    """The PDB table of one tile group (numpy uint8 array of 16**k entries).

    Layered BFS from the goal placement over (placement, blank region):
    ``front[idx]`` is a mask of the blank squares (whole regions) first
    reached at the current depth for placement idx; moving a group tile into
    the blank's region costs 1 and yields the region of the square it left.
    A placement's entry is the depth at which it is first reached (= minimum
    over blank squares).  Impossible placements hold 0.
    """
    import numpy as np

    n = rows * cols
    k = len(tiles)
    if not (1 <= k <= 7 and n <= 16 and all(1 <= t < n for t in tiles) and len(set(tiles)) == k):
        raise ValueError(f"bad group {tiles} for {rows}x{cols}")
    full = (1 << n) - 1
    if reg is None:
        reg = region_table(rows, cols)
    size = 16**k
    nbr = _neighbour_tables(rows, cols)
    # Per direction: target square (padded to 16 entries, -1 -> 0) and the target's bit (0: none).
    tgt = [np.array([max(x, 0) for x in t] + [0] * (16 - n), dtype=np.int64) for t in nbr]
    tbit = [np.array([(1 << x) if x >= 0 else 0 for x in t] + [0] * (16 - n), dtype=np.uint16) for t in nbr]

    depth = np.full(size, 255, dtype=np.uint8)
    visited = np.zeros(size, dtype=np.uint16)
    goal_idx = sum((t - 1) << (4 * i) for i, t in enumerate(tiles))
    goal_occ = sum(1 << (t - 1) for t in tiles)
    depth[goal_idx] = 0
    visited[goal_idx] = full & ~goal_occ
    f_idx = np.array([goal_idx], dtype=np.int64)
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


def build_pdb_asset(rows: int, cols: int, partition: str, groups, log=None) -> bytes:
    """Build the tables of a partition and serialise the ``"pdb"`` asset."""
    import numpy as np

    tables, lookup = pdbmod.plan_groups(rows, cols, groups)
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
        "pdb_format": pdbmod.PDB_FORMAT,
        "rows": rows,
        "cols": cols,
        "partition": partition,
        "index": "dense4",
        "invalid": 0,
        "tables": tables,
        "groups": lookup,
    }
    return dbfile.write_asset(meta, b"".join(blobs))


def _build_pdb(params: dict, log) -> bytes:
    return build_pdb_asset(params["rows"], params["cols"], params["partition"], params["groups"], log=log)


# ===================================================================== asset registry
@dataclass(frozen=True)
class AssetSpec:
    """One asset: its file name in --out, kind, board shapes it serves, and its builder.

    ``build(params, log) -> bytes`` returns the whole file (use
    :func:`fifteen.dbfile.write_asset`).  ``modules`` are the runtime modules
    whose source feeds the cache key (those the builder imports).
    """

    file: str
    kind: str
    shapes: tuple[str, ...]
    build: Callable[[dict, Callable[[str], None]], bytes]
    params: dict[str, Any] = field(default_factory=dict)
    modules: tuple[str, ...] = ("fifteen.dbfile",)

    @property
    def name(self) -> str:
        return self.file.split(".", 1)[0]

    def matches(self, sel: str) -> bool:
        """--only accepts the file name, its stem (pdb-663) or the stem without dashes (pdb663)."""
        return sel in (self.file, self.name, self.name.replace("-", ""))


def _pdb_spec(partition: str) -> AssetSpec:
    return AssetSpec(
        file=pdbmod.asset_file(partition),
        kind="pdb",
        shapes=("4x4",),
        build=_build_pdb,
        params={"rows": 4, "cols": 4, "partition": partition, "groups": [list(g) for g in pdbmod.PARTITIONS[partition]]},
        modules=("fifteen.dbfile", "fifteen.pdb"),
    )


def _build_wd(params: dict, log) -> bytes:
    from fifteen.board import Shape
    from fifteen.walking import WalkingTable

    table = WalkingTable.build(Shape(params["rows"], params["cols"]))
    log(f"  {len(table):,} WD tables, max {table.maximum}")
    return table.to_bytes()


def _wd_specs() -> list[AssetSpec]:
    """One walking-distance asset per table shape some supported board reads."""
    from fifteen import walking

    return [
        AssetSpec(
            file=walking.asset_file(table),
            kind="wd",
            shapes=tuple(str(b) for b in boards),
            build=_build_wd,
            params={"rows": table.rows, "cols": table.cols},
            modules=("fifteen.dbfile", "fifteen.board", "fifteen.walking"),
        )
        for table, boards in walking.table_users().items()
    ]


def _explorer_builder():
    """tools/explorer_build.py, the explorer's builder (numpy)."""
    if str(ROOT / "tools") not in sys.path:
        sys.path.append(str(ROOT / "tools"))
    import explorer_build

    return explorer_build


def _build_explorer(params: dict, log) -> bytes:
    return _explorer_builder().build_asset(params["rows"], params["cols"], xz=params["xz"], log=log)


def _explorer_spec(shape: str, *, pack: bool = False) -> AssetSpec:
    """An exact-distance table of the small-board explorer (fifteen.explorer); serves the transposed shape too."""
    from fifteen import explorer

    rows, cols = (int(x) for x in shape.split("x"))
    shapes = (shape,) if rows == cols else (shape, f"{cols}x{rows}")
    return AssetSpec(
        file=explorer.asset_file(shape),
        kind="explore",
        shapes=shapes,
        build=_build_explorer,
        params={"rows": rows, "cols": cols, "xz": pack},
        modules=("fifteen.dbfile", "fifteen.board", "fifteen.explorer", "explorer_build"),
    )


ASSETS: list[AssetSpec] = [
    _pdb_spec("663"),
    _pdb_spec("555"),
    *_wd_specs(),
    *(_explorer_spec(s) for s in ("3x3", "2x4", "2x5")),
]


# ===================================================================== optional packs
# Not built by default (make db / CI): only with --pack or --only NAME (make pack).
# When present in --out, listed in the manifest under "packs" (not "assets"), with
# "optional": true, so that nothing that loads "assets" fetches them unasked.
def _build_pdb78(params: dict, log) -> bytes:
    sys.path.insert(0, str(ROOT / "tools"))
    import pdb78_build

    if not pdb78_build.HAVE_NUMBA:
        log("  warning: numba is not installed; the interpreted builder is far too slow for 4x4 (make pack installs it)")
    return pdb78_build.build_pack(
        params["rows"],
        params["cols"],
        params["partition"],
        params["groups"],
        encoding=params["encoding"],
        log=log,
        raw_cache=default_cache_dir() / "raw",
    )


def _pdb78_spec() -> AssetSpec:
    from fifteen import pdb78

    return AssetSpec(
        file=pdb78.asset_file("78"),
        kind="pdb78",
        shapes=("4x4",),
        build=_build_pdb78,
        params={
            "rows": 4,
            "cols": 4,
            "partition": "78",
            "groups": [list(g) for g in pdb78.PARTITIONS["78"]],
            "encoding": pdb78.DEFAULT_ENCODING,
        },
        modules=("fifteen.dbfile", "fifteen.pdb78", "pdb78_build"),
    )


PACKS: list[AssetSpec] = [_pdb78_spec(), *(_explorer_spec(s, pack=True) for s in ("3x4", "2x6"))]


# ===================================================================== cache + output
def _module_source(modname: str) -> bytes:
    if str(ROOT / "tools") not in sys.path:
        sys.path.append(str(ROOT / "tools"))
    spec = importlib.util.find_spec(modname)
    if spec is None or spec.origin is None:
        raise SystemExit(f"build_db: module {modname} not found (needed to build an asset)")
    return Path(spec.origin).read_bytes()


def cache_key(spec: AssetSpec) -> str:
    h = hashlib.sha256()
    h.update(Path(__file__).read_bytes())
    for m in sorted(spec.modules):
        h.update(m.encode() + b"\0" + _module_source(m) + b"\0")
    h.update(json.dumps([spec.file, spec.kind, list(spec.shapes), spec.params], sort_keys=True).encode())
    return h.hexdigest()[:20]


def default_cache_dir() -> Path:
    env = os.environ.get("FIFTEEN_DB_CACHE")
    if env:
        return Path(env).expanduser()
    return Path.home() / ".cache" / "fifteen-db"


def _atomic_write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix="." + path.name + ".")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _same_file(a: Path, b: Path) -> bool:
    try:
        sa, sb = a.stat(), b.stat()
    except OSError:
        return False
    if (sa.st_dev, sa.st_ino) == (sb.st_dev, sb.st_ino):
        return True
    return sa.st_size == sb.st_size and a.read_bytes() == b.read_bytes()


def _install(src: Path, dst: Path) -> bool:
    """Put *src* at *dst* (hard link, else copy); False when already identical."""
    if _same_file(src, dst):
        return False
    dst.parent.mkdir(parents=True, exist_ok=True)
    tmp = dst.with_name("." + dst.name + ".tmp")
    try:
        tmp.unlink()
    except FileNotFoundError:
        pass
    try:
        os.link(src, tmp)
    except OSError:
        shutil.copyfile(src, tmp)
    os.replace(tmp, dst)
    return True


def ensure_asset(spec: AssetSpec, out: Path, cache: Path, force: bool, log) -> str:
    """Build (or take from the cache) one asset and install it in *out*; return what happened."""
    key = cache_key(spec)
    cached = cache / f"{spec.name}-{key}{Path(spec.file).suffix}"
    how = "cached"
    if force or not cached.exists():
        t0 = time.perf_counter()
        log(f"building {spec.file} ...")
        data = spec.build(spec.params, log)
        dbfile.read_asset(data, name=spec.file, kind=spec.kind)  # self-check
        _atomic_write(cached, data)
        how = f"built in {time.perf_counter() - t0:.1f} s"
        # Drop older cache entries of the same asset.
        for old in cache.glob(f"{spec.name}-*{Path(spec.file).suffix}"):
            if old != cached and len(old.stem) == len(cached.stem):
                try:
                    old.unlink()
                except OSError:
                    pass
    changed = _install(cached, out / spec.file)
    return how + ("" if changed else ", unchanged in output")


def _digests(path: Path) -> tuple[str | None, str]:
    """(crc32, sha256) of an asset file for the manifest.

    ``crc32`` is the CRC-32 of every byte but the last 4, i.e. the checksum the
    container stores in its trailer.  (The CRC-32 of a whole container file is
    the same constant for every file, 2144df1c, because the file ends with its
    own CRC; so the manifest gives the trailer value, which is also what
    ``int.from_bytes(data[-4:], "little")`` reads.)  ``sha256`` is of the whole file.
    """
    data = path.read_bytes()
    if dbfile.is_xz(data):
        return None, hashlib.sha256(data).hexdigest()
    return f"{zlib.crc32(data[:-4]):08x}", hashlib.sha256(data).hexdigest()


def write_manifest(out: Path) -> None:
    entries = []
    packs = []
    for spec in ASSETS + PACKS:
        p = out / spec.file
        if p.exists():
            crc, sha = _digests(p)
            entry = {
                "file": spec.file,
                "kind": spec.kind,
                "shapes": list(spec.shapes),
                "bytes": p.stat().st_size,
                "crc32": crc,
                "sha256": sha,
            }
            if crc is None:
                del entry["crc32"]
            if spec in PACKS:
                entry.update(_pack_info(p))
                packs.append(entry)
            else:
                entries.append(entry)
    doc = {"format": MANIFEST_FORMAT, "assets": entries}
    if packs:  # optional downloads: listed apart so that nothing fetches them unasked
        doc["packs"] = packs
    text = json.dumps(doc, indent=1) + "\n"
    path = out / "manifest.json"
    if path.exists() and path.read_text() == text:
        os.utime(path)  # keep make's time stamp fresh
    else:
        _atomic_write(path, text.encode())


def _pack_info(path: Path) -> dict:
    """Manifest fields of an optional pack: "optional", a label, the memory it needs once
    loaded and, for an xz pack, "compression" and "raw_bytes" (the container's size)."""
    with open(path, "rb") as f:
        head = f.read(1 << 16)  # the header and metadata are at the start
    xz = dbfile.is_xz(head)
    if xz:
        head = dbfile.unxz_head(head, name=str(path))
    meta = dbfile.read_meta(head, name=str(path))
    if meta["kind"] == "explore":  # an explorer table (tools/explorer_build.py)
        info = {"optional": True, **_explorer_builder().pack_info(meta)}
    else:
        total = meta["tables"][-1]["offset"] + meta["tables"][-1]["size"]
        info = {
            "optional": True,
            "bound": meta["kind"],
            "label": "Hard-positions pack (7-8 pattern database)",
            "memory_bytes": (total + 1) // 2,
            "encoding": meta.get("encoding"),
        }
    if xz:
        info["compression"] = "xz"
        info["raw_bytes"] = dbfile.container_size(head, name=str(path))
    return info


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default="static/db", help="output directory (default static/db)")
    ap.add_argument("--only", nargs="+", metavar="NAME", help="build only these assets (file name, pdb-663 or pdb663)")
    ap.add_argument("--force", action="store_true", help="rebuild even when cached")
    ap.add_argument("--cache", help="cache directory (default $FIFTEEN_DB_CACHE or ~/.cache/fifteen-db)")
    ap.add_argument("--list", action="store_true", help="list the assets and exit")
    ap.add_argument(
        "--pack",
        action="store_true",
        help="build every optional pack (the 7-8 PDB: numba, ~4 GB RAM; the explorer tables of 3x4 and 2x6) instead of the default assets",
    )
    ap.add_argument("-q", "--quiet", action="store_true")
    ap.add_argument("-v", "--verbose", action="store_true", help="log every BFS layer")
    args = ap.parse_args(argv)

    def log(msg: str) -> None:
        if not args.quiet:
            print(msg, flush=True)

    def vlog(msg: str) -> None:
        if args.verbose or not msg.startswith("    "):
            log(msg)

    if args.list:
        for s in ASSETS + PACKS:
            print(f"{s.file:20} {s.kind:5} {','.join(s.shapes):8} {'(optional, --pack) ' if s in PACKS else ''}{s.params}")
        return 0
    selected = PACKS if args.pack else ASSETS
    if args.only:
        known = ASSETS + PACKS
        unknown = [o for o in args.only if not any(s.matches(o) for s in known)]
        if unknown:
            ap.error(f"unknown asset(s) {unknown}; known: {[s.file for s in known]}")
        selected = [s for s in known if any(s.matches(o) for o in args.only)]
    out = Path(args.out)
    cache = Path(args.cache).expanduser() if args.cache else default_cache_dir()
    out.mkdir(parents=True, exist_ok=True)
    cache.mkdir(parents=True, exist_ok=True)
    for spec in selected:
        how = ensure_asset(spec, out, cache, args.force, vlog)
        log(f"{spec.file}: {how}")
    write_manifest(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
