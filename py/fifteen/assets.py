"""The databases the solver has loaded, and where it finds them.

In the browser the worker fetches each asset and hands its bytes to
:func:`load_asset`.  Natively, :func:`ensure_for` loads what a board shape
needs from a directory (``--db DIR``, else ``$FIFTEEN_DB``, else the
checkout's ``static/db`` next to the ``py/`` package), guided by the
``manifest.json`` that ``build_db.py`` writes there.  Without a WD asset the
tables are built in-process (fast for every shape that offers WD); without a
PDB asset the PDB bounds are simply not offered.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from . import walking
from .board import Shape
from .dbfile import AssetError, read_meta

#: Loaded pattern databases by bound name ("pdb663", ...).
pattern_databases: dict[str, Any] = {}
_loaded_files: set[str] = set()


def load_asset(data: bytes | bytearray | memoryview, name: str = "asset", *, take: bool = False) -> dict[str, Any]:
    """Check and register one asset; return its metadata (raises :class:`AssetError`).

    *data* is a container or an xz of one (the 7-8 pack).  With *take*, a
    ``bytearray`` is handed over: a pack's table is then that very buffer,
    trimmed in place (the browser worker's path: no copy of 288 MB).
    """
    meta = read_meta(data, name=name)
    kind = meta.get("kind")
    if kind == "wd":
        walking.load_asset(data, name)
    elif kind == "pdb":
        from .pdb import PatternDatabase

        db = PatternDatabase.from_bytes(data, name=name)
        pattern_databases["pdb" + db.partition] = db
    elif kind == "pdb78":  # the optional 7-8 pack (fifteen.pdb78)
        from .pdb78 import PDB78

        db78 = PDB78.from_bytes(data, name=name, take=take)
        pattern_databases["pdb" + db78.partition] = db78
    elif kind == "explore":  # an exact-distance table of the small-board explorer (fifteen.explorer)
        from . import explorer

        explorer.load_asset(data, name, take=take)
    else:
        raise AssetError(f"{name}: unknown database kind {kind!r}")
    return meta


def default_directory() -> Path | None:
    env = os.environ.get("FIFTEEN_DB")
    if env:
        return Path(env)
    here = Path(__file__).resolve().parent.parent.parent / "static" / "db"
    return here if here.is_dir() else None


def ensure_for(shape: Shape, directory: str | Path | None = None, *, explorer: bool = False) -> list[str]:
    """Load (once) every asset of *directory*'s manifest that serves *shape*; return the files loaded now.

    The explorer's tables (kind ``"explore"``) are loaded only with *explorer*.
    """
    root = Path(directory) if directory is not None else default_directory()
    if root is None:
        return []
    manifest_path = root / "manifest.json"
    if not manifest_path.is_file():
        if directory is not None:
            raise AssetError(f"{manifest_path}: no manifest (build the databases with build_db.py --out {root})")
        return []
    try:
        manifest = json.loads(manifest_path.read_text())
        entries = manifest["assets"] + manifest.get("packs", [])  # natively, optional packs load when present
    except (ValueError, KeyError, TypeError) as exc:
        raise AssetError(f"{manifest_path}: unreadable manifest ({exc})") from None
    loaded = []
    for entry in entries:
        if str(shape) not in entry.get("shapes", ()) or (entry.get("kind") == "explore" and not explorer):
            continue
        path = root / entry["file"]
        key = str(path.resolve())
        if key in _loaded_files:
            continue
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise AssetError(f"{path}: cannot read ({exc.strerror})") from None
        load_asset(data, str(path))
        _loaded_files.add(key)
        loaded.append(entry["file"])
    return loaded
