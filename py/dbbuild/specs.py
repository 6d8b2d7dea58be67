"""Every database asset Fifteen ships: what it is, who builds it, what defines its bytes.

An :class:`AssetSpec` names the file (in ``static/db``), its kind, the board
shapes it serves, its builder, and what defines its bytes: ``version`` (the
build version of its kind plus the layout versions it writes) and ``params``.
Those two, and nothing else, make its cache key (:func:`dbbuild.cache.cache_key`),
so moving or reformatting code never rebuilds an asset; changing what a builder
writes without bumping its version would keep serving the old bytes, which
``tests/test_dbbuild.py`` guards against for the assets cheap enough to build in a test
(their pinned contents).

Adding an asset: write its builder ``build(params, log, cache) -> bytes`` (the
whole file, e.g. through :func:`fifteen.db.container.write_asset`), give its kind a
``BUILD_VERSION`` constant, and append an :class:`AssetSpec` to :data:`ASSETS`
(loaded by the page and the CLI for its shapes) or :data:`PACKS` (optional
downloads, built only on request).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fifteen.board import Shape
from fifteen.bounds import exact, pdb, pdb78, walking
from fifteen.db import container

from . import explorer as explorer_build
from . import pack78, pattern

Log = Callable[[str], None]
#: ``build(params, log, cache)``: the whole file; *cache* is the build cache directory
#: (a builder may keep intermediate results under it, as the 7-8 pack does in ``raw/``).
Builder = Callable[[dict[str, Any], Log, Path], bytes]

#: Build version of the ``"wd"`` assets, whose bytes come from :meth:`fifteen.bounds.walking.WalkingTable.build`
#: and :meth:`~fifteen.bounds.walking.WalkingTable.to_bytes`: bump it when they change what they write.
WD_BUILD_VERSION = 1


@dataclass(frozen=True)
class AssetSpec:
    """One asset: its file name in --out, kind, board shapes it serves, its builder,
    and what defines its bytes (``version``: build and layout versions; ``params``)."""

    file: str
    kind: str
    shapes: tuple[str, ...]
    build: Builder
    version: dict[str, int]
    params: dict[str, Any] = field(default_factory=dict)
    #: Cache keys of the scheme before build versions (a hash of source files) under which
    #: these very bytes may already sit in the cache: adopted once instead of rebuilt.
    legacy_keys: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        return self.file.split(".", 1)[0]

    def matches(self, sel: str) -> bool:
        """--only accepts the file name, its stem (pdb-663) or the stem without dashes (pdb663)."""
        return sel in (self.file, self.name, self.name.replace("-", ""))


# ---------------------------------------------------------------- pattern databases
def _build_pdb(params: dict[str, Any], log: Log, cache: Path) -> bytes:
    return pattern.build_pdb_asset(params["rows"], params["cols"], params["partition"], params["groups"], log=log)


def _pdb_spec(partition: str) -> AssetSpec:
    return AssetSpec(
        file=pdb.asset_file(partition),
        kind="pdb",
        shapes=("4x4",),
        build=_build_pdb,
        version={"build": pattern.BUILD_VERSION, "container": container.FORMAT_VERSION, "pdb_format": pdb.PDB_FORMAT},
        params={"rows": 4, "cols": 4, "partition": partition, "groups": [list(g) for g in pdb.PARTITIONS[partition]]},
    )


# ---------------------------------------------------------------- walking distance
def _build_wd(params: dict[str, Any], log: Log, cache: Path) -> bytes:
    table = walking.WalkingTable.build(Shape(params["rows"], params["cols"]))
    log(f"  {len(table):,} WD tables, max {table.maximum}")
    return table.to_bytes()


def _wd_specs() -> list[AssetSpec]:
    """One walking-distance asset per table shape some supported board reads."""
    return [
        AssetSpec(
            file=walking.asset_file(table),
            kind="wd",
            shapes=tuple(str(b) for b in boards),
            build=_build_wd,
            version={"build": WD_BUILD_VERSION, "container": container.FORMAT_VERSION},
            params={"rows": table.rows, "cols": table.cols},
        )
        for table, boards in walking.table_users().items()
    ]


# ---------------------------------------------------------------- the small-board explorer
def _build_explorer(params: dict[str, Any], log: Log, cache: Path) -> bytes:
    return explorer_build.build_asset(params["rows"], params["cols"], xz=params["xz"], log=log)


def _explorer_spec(shape: str, *, pack: bool = False) -> AssetSpec:
    """An exact-distance table of the small-board explorer (fifteen.bounds.exact); serves the transposed shape too."""
    rows, cols = (int(x) for x in shape.split("x"))
    return AssetSpec(
        file=exact.asset_file(shape),
        kind=exact.KIND,
        shapes=(shape,) if rows == cols else (shape, f"{cols}x{rows}"),
        build=_build_explorer,
        version={"build": explorer_build.BUILD_VERSION, "container": container.FORMAT_VERSION, "explore_format": exact.EXPLORE_FORMAT},
        params={"rows": rows, "cols": cols, "xz": pack},
    )


# ---------------------------------------------------------------- mixed-radix pattern databases (7-7-1, 5-5-5-5-4, 7-8)
def _build_pdb78(params: dict[str, Any], log: Log, cache: Path) -> bytes:
    if not pack78.HAVE_NUMBA:
        log("  warning: numba is not installed; the interpreted builder is far too slow for 4x4 (requirements-dev.txt has it)")
    return pack78.build_pack(
        params["rows"],
        params["cols"],
        params["partition"],
        params["groups"],
        encoding=params["encoding"],
        log=log,
        raw_cache=cache / "raw",
        xz=params.get("xz", True),
    )


def _pdb78_spec(partition: str) -> AssetSpec:
    """A mixed-radix pattern database: the 7-8 pack (xz) or the default 7-7-1 (4x4) and
    5-5-5-5-4 (5x5) tables (zlib)."""
    xz = partition == "78"
    rows, cols = pdb78.PARTITION_SHAPES[partition]
    return AssetSpec(
        file=pdb78.asset_file(partition),
        kind="pdb78",
        shapes=(f"{rows}x{cols}",),
        build=_build_pdb78,
        version={
            "build": pack78.BUILD_VERSION,
            "container": container.FORMAT_VERSION,
            "pdb78_format": pdb78.PDB78_FORMAT,
            **({"xz_preset": pdb78.XZ_PRESET} if xz else {"zlib_level": 9}),
        },
        params={
            "rows": rows,
            "cols": cols,
            "partition": partition,
            "groups": [list(g) for g in pdb78.PARTITIONS[partition]],
            "encoding": pdb78.DEFAULT_ENCODING,
            **({} if xz else {"xz": False}),
        },
        # The pack as built by the code of commits 912480d and 4129afe (same builder, same
        # parameters): its xz -9 alone costs ~16 min of CPU.  Drop with the next BUILD_VERSION.
        legacy_keys=("b059d668292592f08c50", "198461247eb518827d83") if xz and pack78.BUILD_VERSION == 1 else (),
    )


#: The default assets (``make db``; CI): the page loads those listed for its board's shape
#: (the explorer's tables only when asked: ``assets.ensure_for(..., explorer=True)``).
ASSETS: list[AssetSpec] = [
    _pdb78_spec("771"),
    _pdb78_spec("55554"),
    _pdb_spec("663"),
    _pdb_spec("555"),
    *_wd_specs(),
    *(_explorer_spec(s) for s in exact.DEFAULT_SHAPES),
]


# ---------------------------------------------------------------- optional packs
# Not built by default (make db / CI): only with --pack or --only NAME (make pack).
# When present in --out, listed in the manifest under "packs" (not "assets"), with
# "optional": true, so that nothing that loads "assets" fetches them unasked.
#: Optional downloads (``make pack``): listed under ``"packs"`` in the manifest.
PACKS: list[AssetSpec] = [_pdb78_spec("78"), *(_explorer_spec(s, pack=True) for s in exact.PACK_SHAPES)]
