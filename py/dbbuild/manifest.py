"""``manifest.json``: the list of assets in a database directory, read by the page and the CLI::

    {"format": 1, "assets": [{"file": "pdb-663.f15", "kind": "pdb",
                              "shapes": ["4x4"], "bytes": N, "crc32": "%08x",
                              "sha256": "..."}, ...],
     "packs": [...]}   # only when an optional pack (build_db.py --pack) is in the directory:
                       # same fields + "optional": true, "bound", "label",
                       # "memory_bytes" (RAM once loaded), "encoding",
                       # "compression": "xz", "raw_bytes" (the container's size
                       # once decompressed: the browser worker allocates it)

``crc32`` is the container's trailer checksum (CRC-32 of all bytes but the last
4 -- the CRC-32 of a whole container file is always 2144df1c); ``sha256`` is of
the whole file.  ``bytes`` is the file's size (a pack's download size); an xz
pack has no ``crc32`` (the container inside carries its own).
"""

from __future__ import annotations

import hashlib
import json
import os
import zlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from fifteen.bounds import exact
from fifteen.db import container

from . import explorer as explorer_build
from .cache import atomic_write
from .specs import AssetSpec

MANIFEST_FORMAT = 1


def digests(path: Path) -> tuple[str | None, str]:
    """(crc32, sha256) of an asset file for the manifest.

    ``crc32`` is the CRC-32 of every byte but the last 4, i.e. the checksum the
    container stores in its trailer.  (The CRC-32 of a whole container file is
    the same constant for every file, 2144df1c, because the file ends with its
    own CRC; so the manifest gives the trailer value, which is also what
    ``int.from_bytes(data[-4:], "little")`` reads.)  ``sha256`` is of the whole file.
    """
    data = path.read_bytes()
    if container.is_xz(data):
        return None, hashlib.sha256(data).hexdigest()
    return f"{zlib.crc32(data[:-4]):08x}", hashlib.sha256(data).hexdigest()


def pack_info(path: Path) -> dict[str, Any]:
    """Manifest fields of an optional pack: "optional", a label, the memory it needs once
    loaded and, for an xz pack, "compression" and "raw_bytes" (the container's size)."""
    with open(path, "rb") as f:
        head = f.read(1 << 16)  # the header and metadata are at the start
    xz = container.is_xz(head)
    if xz:
        head = container.unxz_head(head, name=str(path))
    meta = container.read_meta(head, name=str(path))
    info: dict[str, Any]
    if meta["kind"] == exact.KIND:  # an exact-distance table of the small-board explorer
        info = {"optional": True, **explorer_build.pack_info(meta)}
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
        info["raw_bytes"] = container.container_size(head, name=str(path))
    return info


def write_manifest(out: Path, assets: Sequence[AssetSpec], packs: Sequence[AssetSpec]) -> None:
    """Write ``out/manifest.json`` listing every asset of *assets* and *packs* present in *out*."""
    entries = []
    pack_entries = []
    for spec in [*assets, *packs]:
        p = out / spec.file
        if p.exists():
            crc, sha = digests(p)
            entry: dict[str, Any] = {"file": spec.file, "kind": spec.kind, "shapes": list(spec.shapes), "bytes": p.stat().st_size}
            if crc is not None:
                entry["crc32"] = crc
            entry["sha256"] = sha
            if spec in packs:
                entry.update(pack_info(p))
                pack_entries.append(entry)
            else:
                entries.append(entry)
    doc: dict[str, Any] = {"format": MANIFEST_FORMAT, "assets": entries}
    if pack_entries:  # optional downloads: listed apart so that nothing fetches them unasked
        doc["packs"] = pack_entries
    text = json.dumps(doc, indent=1) + "\n"
    path = out / "manifest.json"
    if path.exists() and path.read_text() == text:
        os.utime(path)  # keep make's time stamp fresh
    else:
        atomic_write(path, text.encode())
