"""The container format of every database asset (``static/db/*.f15``).

All databases the solver reads — walking-distance tables, pattern databases —
travel in one container, so that one reader checks magic, version, length and
checksum before any table code sees a byte.  The browser fetches the file and
hands the bytes to :func:`read_asset`; natively it is read from disk.

Layout (all integers little-endian)::

    offset  size  field
    0       8     magic            b"FIFTEEN\\x1a"
    8       2     format version   FORMAT_VERSION (1)
    10      2     flags            bit 0: payload is zlib-compressed
    12      4     meta length M    bytes of JSON metadata
    16      4     stored length P  bytes of payload as stored
    20      4     raw length R     bytes of payload after decompression
    24      M     metadata         UTF-8 JSON object; always has "kind"
                                   (e.g. "wd", "pdb") and "rows", "cols"
    24+M    P     payload          layout defined by the kind's module
    24+M+P  4     CRC-32           zlib.crc32 of every byte before it

The payload layout of each kind is documented next to the code that reads it:
:mod:`fifteen.walking` for ``"wd"``, :mod:`fifteen.pdb` for ``"pdb"``.
"""

from __future__ import annotations

import json
import struct
import zlib
from dataclasses import dataclass
from typing import Any

MAGIC = b"FIFTEEN\x1a"
FORMAT_VERSION = 1
FLAG_ZLIB = 1
_HEADER = struct.Struct("<8sHHIII")
_CRC = struct.Struct("<I")


class AssetError(ValueError):
    """A database asset is missing, corrupt, truncated or of the wrong kind."""


@dataclass(frozen=True)
class Asset:
    """A checked asset: its metadata and its (decompressed) payload."""

    meta: dict[str, Any]
    payload: bytes

    @property
    def kind(self) -> str:
        return self.meta["kind"]


def write_asset(meta: dict[str, Any], payload: bytes, *, compress: bool = True, level: int = 9) -> bytes:
    """Serialise *meta* and *payload* into the container format."""
    if "kind" not in meta:
        raise ValueError("asset metadata needs a 'kind'")
    meta_bytes = json.dumps(meta, sort_keys=True, separators=(",", ":")).encode()
    raw_len = len(payload)
    flags = 0
    if compress:
        payload = zlib.compress(payload, level)
        flags |= FLAG_ZLIB
    head = _HEADER.pack(MAGIC, FORMAT_VERSION, flags, len(meta_bytes), len(payload), raw_len)
    body = head + meta_bytes + payload
    return body + _CRC.pack(zlib.crc32(body))


def _header(data: memoryview, name: str) -> tuple[int, int, int, int]:
    """Check magic and version; return (flags, meta length, stored length, raw length)."""
    if len(data) < _HEADER.size:
        raise AssetError(f"{name}: truncated ({len(data)} bytes is shorter than the header)")
    magic, version, flags, meta_len, stored_len, raw_len = _HEADER.unpack_from(data, 0)
    if magic != MAGIC:
        raise AssetError(f"{name}: not a Fifteen database (bad magic {bytes(magic)!r})")
    if version != FORMAT_VERSION:
        raise AssetError(
            f"{name}: format version {version} is not supported (this solver reads version {FORMAT_VERSION}); rebuild it with build_db.py"
        )
    return flags, meta_len, stored_len, raw_len


def _meta(data: memoryview, meta_len: int, name: str) -> dict[str, Any]:
    try:
        meta = json.loads(bytes(data[_HEADER.size : _HEADER.size + meta_len]).decode())
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise AssetError(f"{name}: unreadable metadata ({exc})") from None
    if not isinstance(meta, dict) or "kind" not in meta:
        raise AssetError(f"{name}: metadata has no 'kind'")
    return meta


def read_meta(data: bytes | bytearray | memoryview, *, name: str = "asset") -> dict[str, Any]:
    """The metadata of an asset, from its header alone (no checksum or payload check).

    For dispatching on ``kind``; :func:`read_asset` then checks everything.
    """
    data = memoryview(data)
    _flags, meta_len, _stored, _raw = _header(data, name)
    return _meta(data, meta_len, name)


def read_asset(data: bytes | bytearray | memoryview, *, name: str = "asset", kind: str | None = None) -> Asset:
    """Check and unpack an asset; raise :class:`AssetError` saying what is wrong.

    *name* is used in messages (a file name or URL); *kind*, when given, is the
    kind the caller expects.
    """
    data = memoryview(data)
    flags, meta_len, stored_len, raw_len = _header(data, name)
    expected = _HEADER.size + meta_len + stored_len + _CRC.size
    if len(data) < expected:
        raise AssetError(f"{name}: truncated ({len(data)} of {expected} bytes)")
    if len(data) > expected:
        raise AssetError(f"{name}: {len(data) - expected} unexpected bytes after the checksum")
    body_end = expected - _CRC.size
    (crc,) = _CRC.unpack_from(data, body_end)
    if zlib.crc32(data[:body_end]) != crc:
        raise AssetError(f"{name}: checksum mismatch (the file is corrupt)")
    meta = _meta(data, meta_len, name)
    if kind is not None and meta["kind"] != kind:
        raise AssetError(f"{name}: holds a {meta['kind']!r} database, expected {kind!r}")
    meta_start = _HEADER.size
    payload = data[meta_start + meta_len : body_end]
    if flags & FLAG_ZLIB:
        try:
            # bufsize = the expected size: one allocation instead of repeated growth
            # (a 16 MiB table otherwise peaks near 45 MiB while decompressing).
            payload = zlib.decompress(payload, bufsize=max(raw_len, 1))
        except zlib.error as exc:
            raise AssetError(f"{name}: payload does not decompress ({exc})") from None
    else:
        payload = bytes(payload)
    if len(payload) != raw_len:
        raise AssetError(f"{name}: payload is {len(payload)} bytes, header says {raw_len}")
    return Asset(meta, payload)
