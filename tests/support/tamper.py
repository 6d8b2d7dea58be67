"""A database damaged the way a checksum cannot see: its payload changed, its CRC-32 written again.

:func:`zeroed` zeroes a container's payload (every pattern database entry 0: the search takes a
position one move from the goal for the goal itself) and recomputes the trailer's CRC-32, so the
container reader (:mod:`fifteen.db.container`) accepts it; only the manifest's SHA-256 or the
replay of the answer can tell.  :func:`tampered_copy` writes such a copy of one file into a
database directory whose other files are links to ``static/db``'s."""

from __future__ import annotations

import hashlib
import json
import struct
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_HEADER = struct.Struct("<8sHHIII")  # fifteen.db.container's header


def zeroed(data: bytes) -> bytes:
    """The container *data* with every payload byte 0 (compressed again when it was) and a fresh CRC-32."""
    magic, version, flags, meta_len, _stored, raw_len = _HEADER.unpack_from(data, 0)
    payload = bytes(raw_len)
    if flags & 1:  # FLAG_ZLIB
        payload = zlib.compress(payload, 9)
    head = _HEADER.pack(magic, version, flags, meta_len, len(payload), raw_len)
    body = head + data[_HEADER.size : _HEADER.size + meta_len] + payload
    return body + struct.pack("<I", zlib.crc32(body))


def tampered_copy(directory: Path, file: str, *, listed: bool, source: Path = ROOT / "static" / "db") -> dict:
    """Fill *directory* with links to *source*'s databases but *file*, written zeroed (:func:`zeroed`),
    and a manifest (returned) without the optional packs.  *listed*: the manifest lists the zeroed
    copy's own size, CRC-32 and SHA-256 (so only the replay can tell), else the sound file's."""
    manifest = json.loads((source / "manifest.json").read_text())
    manifest.pop("packs", None)
    for entry in manifest["assets"]:
        target = directory / entry["file"]
        if entry["file"] != file:
            target.symlink_to(source / entry["file"])
            continue
        data = zeroed((source / file).read_bytes())
        target.write_bytes(data)
        if listed:
            entry.update(bytes=len(data), crc32=f"{zlib.crc32(data[:-4]):08x}", sha256=hashlib.sha256(data).hexdigest())
    (directory / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    return manifest
