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
:mod:`fifteen.bounds.walking` for ``"wd"``, :mod:`fifteen.bounds.pdb` for ``"pdb"``,
:mod:`fifteen.bounds.pdb78` for ``"pdb78"``.

An xz-compressed container (``*.f15.xz``: the optional 7-8 pack) is read the
same way: :func:`read_meta` and :func:`read_asset` recognise the xz magic
(``FD 37 7A 58 5A 00``) and decompress with the standard library's
:mod:`lzma` into one ``bytearray`` of the container's size (taken from its
header), which is then checked as above.  Such a container stores its payload
uncompressed (flags bit 0 clear; xz does the compressing, far better than
zlib).  Pyodide has no :mod:`lzma`: the web worker decompresses the xz itself
and hands the plain container to :func:`read_asset` as a ``bytearray``
(``take=True``: checked and trimmed in place, never copied).
"""

from __future__ import annotations

import json
import struct
import zlib
from dataclasses import dataclass
from typing import Any

from fifteen.errors import AssetError

MAGIC = b"FIFTEEN\x1a"
XZ_MAGIC = b"\xfd7zXZ\x00"
FORMAT_VERSION = 1
FLAG_ZLIB = 1
_HEADER = struct.Struct("<8sHHIII")
_CRC = struct.Struct("<I")


@dataclass(frozen=True)
class Asset:
    """A checked asset: its metadata and its (decompressed) payload."""

    meta: dict[str, Any]
    payload: bytes | bytearray  # a bytearray when taken over in place (``take``)

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


def container_size(data: bytes | bytearray | memoryview, *, name: str = "asset") -> int:
    """The size of a whole container, from its first 24 bytes (header)."""
    _flags, meta_len, stored_len, _raw = _header(memoryview(data), name)
    return _HEADER.size + meta_len + stored_len + _CRC.size


def is_xz(data: bytes | bytearray | memoryview) -> bool:
    return bytes(data[: len(XZ_MAGIC)]) == XZ_MAGIC


def write_xz(container: bytes, *, preset: int = 9) -> bytes:
    """An xz stream (CRC-32 check, which every xz decoder supports) of a container."""
    import lzma  # here, not at the top: Pyodide's standard library has none (see _lzma); the builders run natively

    return lzma.compress(container, format=lzma.FORMAT_XZ, check=lzma.CHECK_CRC32, preset=preset)


def _lzma(name: str):
    """The lzma module, imported here and not at the top: Pyodide's standard library has none
    (the browser's worker decompresses xz itself), and every other reader of containers works
    without it."""
    try:
        import lzma  # not at the top: Pyodide has none
    except ImportError:  # Pyodide: the worker decompresses xz itself
        raise AssetError(f"{name}: is xz-compressed and this Python has no lzma module", code="unavailable") from None
    return lzma


def unxz_head(data: bytes | bytearray | memoryview, *, name: str = "asset", size: int = 1 << 16) -> bytes:
    """Up to *size* bytes from the start of an xz-compressed container (a prefix of the file is enough)."""
    lzma = _lzma(name)
    try:
        return lzma.LZMADecompressor(lzma.FORMAT_XZ).decompress(bytes(data[: 1 << 20]), max_length=size)
    except lzma.LZMAError as exc:
        raise AssetError(f"{name}: not a valid xz file ({exc})", code="asset_corrupt") from None


def unxz(data: bytes | bytearray | memoryview, *, name: str = "asset", chunk: int = 1 << 22) -> bytearray:
    """Decompress an xz-compressed container into one bytearray of its exact size.

    The size comes from the container's header (the first decompressed bytes),
    so the output is allocated once: no growing buffer, no final copy; the
    input is fed in *chunk*-sized pieces (the decompressor keeps a copy of what
    it was given but has not used).
    """
    lzma = _lzma(name)
    dec = lzma.LZMADecompressor(lzma.FORMAT_XZ)
    src = memoryview(data)
    fed = 0
    out: bytearray | None = None
    view: memoryview | None = None
    pos = total = 0
    head = b""
    try:
        while not dec.eof:
            if dec.needs_input:
                if fed >= len(src):
                    what = f"after {pos} of {total} bytes" if out is not None else "within the header"
                    raise AssetError(f"{name}: truncated (the xz stream stops short, {what})", code="asset_corrupt")
                piece = dec.decompress(src[fed : fed + chunk], max_length=chunk)
                fed += chunk
            else:
                piece = dec.decompress(b"", max_length=chunk)
            if out is None:
                head += piece
                if len(head) < _HEADER.size:
                    continue
                total = container_size(head, name=name)
                out = bytearray(total)
                view = memoryview(out)
                piece, head = head, b""
            assert view is not None
            if pos + len(piece) > total:
                raise AssetError(f"{name}: the xz stream holds more than the {total} bytes its header announces", code="asset_corrupt")
            view[pos : pos + len(piece)] = piece
            pos += len(piece)
    except lzma.LZMAError as exc:
        raise AssetError(f"{name}: the xz data is corrupt ({exc})", code="asset_corrupt") from None
    finally:
        if view is not None:
            view.release()
    if out is None:
        raise AssetError(f"{name}: truncated (the xz stream holds less than a header)", code="asset_corrupt")
    extra = len(dec.unused_data) + max(0, len(src) - fed)
    if extra:
        raise AssetError(f"{name}: {extra} unexpected bytes after the xz stream", code="asset_corrupt")
    if pos != total:
        raise AssetError(f"{name}: truncated ({pos} of {total} bytes after decompression)", code="asset_corrupt")
    return out


def _header(data: memoryview, name: str) -> tuple[int, int, int, int]:
    """Check magic and version; return (flags, meta length, stored length, raw length)."""
    if len(data) < _HEADER.size:
        raise AssetError(f"{name}: truncated ({len(data)} bytes is shorter than the header)", code="asset_corrupt")
    magic, version, flags, meta_len, stored_len, raw_len = _HEADER.unpack_from(data, 0)
    if magic != MAGIC:
        raise AssetError(f"{name}: not a Fifteen database (bad magic {bytes(magic)!r})", code="asset_corrupt")
    if version != FORMAT_VERSION:
        raise AssetError(
            f"{name}: format version {version} is not supported (this solver reads version {FORMAT_VERSION}); rebuild it with build_db.py",
            code="asset_corrupt",
        )
    return flags, meta_len, stored_len, raw_len


def _meta(data: memoryview, meta_len: int, name: str) -> dict[str, Any]:
    try:
        meta = json.loads(bytes(data[_HEADER.size : _HEADER.size + meta_len]).decode())
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise AssetError(f"{name}: unreadable metadata ({exc})", code="asset_corrupt") from None
    if not isinstance(meta, dict) or "kind" not in meta:
        raise AssetError(f"{name}: metadata has no 'kind'", code="asset_corrupt")
    return meta


def read_meta(data: bytes | bytearray | memoryview | Asset, *, name: str = "asset") -> dict[str, Any]:
    """The metadata of an asset, from its header alone (no checksum or payload check).

    For dispatching on ``kind``; :func:`read_asset` then checks everything.  An :class:`Asset`
    (checked already: :func:`inflated_asset`) gives its own.
    """
    if isinstance(data, Asset):
        return data.meta
    if is_xz(data):
        data = unxz_head(data, name=name)
    data = memoryview(data)
    _flags, meta_len, _stored, _raw = _header(data, name)
    return _meta(data, meta_len, name)


def _checked(data: memoryview, name: str, kind: str | None) -> tuple[int, dict[str, Any], int, int, int]:
    """Check a container's header, length, checksum and kind; return (flags, meta, meta length,
    raw length, end of the body)."""
    flags, meta_len, stored_len, raw_len = _header(data, name)
    expected = _HEADER.size + meta_len + stored_len + _CRC.size
    if len(data) < expected:
        raise AssetError(f"{name}: truncated ({len(data)} of {expected} bytes)", code="asset_corrupt")
    if len(data) > expected:
        raise AssetError(f"{name}: {len(data) - expected} unexpected bytes after the checksum", code="asset_corrupt")
    body_end = expected - _CRC.size
    (crc,) = _CRC.unpack_from(data, body_end)
    if zlib.crc32(data[:body_end]) != crc:
        raise AssetError(f"{name}: checksum mismatch (the file is corrupt)", code="asset_corrupt")
    meta = _meta(data, meta_len, name)
    _check_kind(meta, kind, name)
    return flags, meta, meta_len, raw_len, body_end


def _check_kind(meta: dict[str, Any], kind: str | None, name: str) -> None:
    if kind is not None and meta["kind"] != kind:
        raise AssetError(f"{name}: holds a {meta['kind']!r} database, expected {kind!r}", code="asset_corrupt")


def payload_span(head: bytes | bytearray | memoryview, *, name: str = "asset") -> dict[str, Any]:
    """Where a container's payload lies, from its first bytes (the header and the metadata):
    ``{"start", "stored", "raw", "zlib"}`` (its offset, its length as stored and once
    decompressed, whether it is zlib-compressed), so that a host can decompress it itself
    (:func:`inflated_asset`) without knowing the layout."""
    data = memoryview(head)
    flags, meta_len, stored_len, raw_len = _header(data, name)
    return {"start": _HEADER.size + meta_len, "stored": stored_len, "raw": raw_len, "zlib": bool(flags & FLAG_ZLIB)}


def inflated_asset(data: bytes | bytearray | memoryview, payload: bytearray, *, name: str = "asset") -> Asset:
    """A zlib-compressed container (*data*, as stored) whose payload was decompressed elsewhere
    into *payload* (a bytearray, taken over): the container is checked as :func:`read_asset`
    checks it (header, length, CRC-32 of what is stored), the payload's length against its header.
    The decompressor vouches for the payload's bytes with zlib's own Adler-32 (the browser's
    ``DecompressionStream("deflate")`` checks it: the page's worker decompresses a large table
    so, chunk by chunk, instead of holding its thread for a whole ``zlib.decompress``)."""
    view = memoryview(data)
    flags, meta, _meta_len, raw_len, _body_end = _checked(view, name, None)
    if not flags & FLAG_ZLIB:
        raise AssetError(f"{name}: its payload is not zlib-compressed", code="asset_corrupt")
    if len(payload) != raw_len:
        raise AssetError(f"{name}: payload is {len(payload)} bytes, header says {raw_len}", code="asset_corrupt")
    return Asset(meta, payload)


def read_asset(data: bytes | bytearray | memoryview | Asset, *, name: str = "asset", kind: str | None = None, take: bool = False) -> Asset:
    """Check and unpack an asset; raise :class:`AssetError` saying what is wrong.

    *name* is used in messages (a file name or URL); *kind*, when given, is the
    kind the caller expects.  An xz-compressed container is decompressed first.
    With *take* and a ``bytearray`` holding an uncompressed payload, the
    bytearray itself becomes the payload (header and checksum cut off in place:
    no copy of a large table); the caller must not use it afterwards.  An :class:`Asset`
    checked already (:func:`inflated_asset`) is returned as it is, its kind checked.
    """
    if isinstance(data, Asset):
        _check_kind(data.meta, kind, name)
        return data
    if is_xz(data):
        data = unxz(data, name=name)
        take = True
    buf = data if take and isinstance(data, bytearray) else None
    data = memoryview(data)
    flags, meta, meta_len, raw_len, body_end = _checked(data, name, kind)
    meta_start = _HEADER.size
    stored = data[meta_start + meta_len : body_end]
    payload: bytes | bytearray
    if flags & FLAG_ZLIB:
        try:
            # bufsize = the expected size: one allocation instead of repeated growth
            # (a 16 MiB table otherwise peaks near 45 MiB while decompressing).
            payload = zlib.decompress(stored, bufsize=max(raw_len, 1))
        except zlib.error as exc:
            raise AssetError(f"{name}: payload does not decompress ({exc})", code="asset_corrupt") from None
    elif buf is not None:
        start = meta_start + meta_len
        stored.release()
        data.release()
        del buf[body_end:]  # the checksum
        del buf[:start]  # header and metadata (cheap: bytearray moves its start)
        payload = buf
    else:
        payload = bytes(stored)
    if len(payload) != raw_len:
        raise AssetError(f"{name}: payload is {len(payload)} bytes, header says {raw_len}", code="asset_corrupt")
    return Asset(meta, payload)
