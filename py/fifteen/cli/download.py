"""The databases of a deployed copy of the site, downloaded by its manifest (``fifteen db fetch``).

The site (``make dist``, served by any static host) lists its databases in
``static/db/manifest.json`` (:mod:`dbbuild.manifest`: each file's ``bytes`` and ``sha256``).
:func:`fetch_databases` finds that manifest under the address given (the site's root, its
``static/db/`` directory or the manifest itself), then downloads every file it lists into a
directory:

* **checked**: each file's size and SHA-256 against the manifest's; a damaged copy is removed
  and nothing is installed;
* **atomic**: each file goes to ``.NAME.part`` beside its place and is renamed into it once
  every file of the run is checked, and the manifest, written last the same way, lists only
  what is there: a stopped or failed run leaves the previous databases as they were;
* **resumable**: a ``.part`` left by a stopped run is continued with an HTTP ``Range`` request
  (a server that ignores it sends the whole file, which is taken from the start);
* files already there with the manifest's SHA-256 are not downloaded again.

Only the standard library (:mod:`urllib.request`): ``http``, ``https`` and ``file`` addresses.
"""

from __future__ import annotations

import hashlib
import http.client
import json
import os
import re
import tempfile
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fifteen.bounds import databases
from fifteen.errors import AssetError, InputError
from fifteen.limits import describe
from fifteen.version import __version__

#: Seconds without an answer (connection, or a read) before a download fails.
TIMEOUT_SECONDS = 30
#: The largest manifest read (the real one is about 4 kB).
MANIFEST_BYTES = 1 << 20
#: Bytes read at a time.
CHUNK_BYTES = 1 << 16
#: Where a site keeps its manifest, relative to the address given (the site's root first).
MANIFEST_PLACES = ("static/db/manifest.json", "manifest.json")
SCHEMES = ("http", "https", "file")

#: ``progress(file, received, size)``: bytes of *file* received so far (a resumed part counted).
Progress = Callable[[str, int, int], None]
#: ``planned(total)``: the bytes of the files a fetch downloads (those not already there).
Planned = Callable[[int], None]


@dataclass
class Fetched:
    """What :func:`fetch_databases` did: the manifest's address, the files downloaded (with the
    bytes that came over the network), those already there, those left out and why."""

    manifest_url: str
    directory: Path
    downloaded: dict[str, int] = field(default_factory=dict)
    present: list[str] = field(default_factory=list)
    skipped: dict[str, str] = field(default_factory=dict)
    entries: list[dict[str, Any]] = field(default_factory=list)


def sha256_of(path: Path) -> str:
    h = hashlib.sha256()
    _hash_file(path, h)
    return h.hexdigest()


def _open(url: str, headers: dict[str, str] | None = None, *, missing_ok: bool = False):
    """The response to a GET of *url*; None when it is not there (404, no such file) and
    *missing_ok*; an :class:`AssetError` for any other failure."""
    request = urllib.request.Request(url, headers={"User-Agent": f"fifteen/{__version__}", **(headers or {})})
    try:
        return urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS)
    except urllib.error.HTTPError as exc:
        exc.close()
        if missing_ok and exc.code in (404, 410):
            return None
        raise AssetError(f"{url}: the server answered {exc.code} {exc.reason}".rstrip(), code="asset_missing") from None
    except urllib.error.URLError as exc:
        if missing_ok and isinstance(exc.reason, FileNotFoundError | NotADirectoryError):  # a file: URL
            return None
        raise AssetError(f"{url}: cannot connect ({exc.reason})", code="asset_missing") from None
    except TimeoutError:
        raise AssetError(f"{url}: no answer in {TIMEOUT_SECONDS} s", code="asset_missing") from None
    except (OSError, ValueError) as exc:  # a malformed address
        raise AssetError(f"{url}: cannot open ({getattr(exc, 'strerror', None) or exc})", code="asset_missing") from None


def manifest_candidates(address: str) -> list[str]:
    """The manifest URLs to try for *address* (checked: an http, https or file URL)."""
    parts = urllib.parse.urlsplit(address)
    if parts.scheme not in SCHEMES or (parts.scheme != "file" and not parts.netloc):
        raise InputError(f"{describe(address, 120)} is not the address of a site (an http://, https:// or file:// URL)", code="param")
    if parts.path.endswith(".json"):
        return [address]
    base = urllib.parse.urlunsplit(parts._replace(path=parts.path.rstrip("/") + "/", query="", fragment=""))
    return [urllib.parse.urljoin(base, place) for place in MANIFEST_PLACES]


def read_manifest(address: str) -> tuple[str, dict[str, Any]]:
    """The site's manifest: (its URL, its JSON), from the first of :func:`manifest_candidates` that
    the server has."""
    tried = []
    for url in manifest_candidates(address):
        resp = _open(url, missing_ok=True)
        if resp is None:
            tried.append(url)
            continue
        with resp:
            text = resp.read(MANIFEST_BYTES + 1)
        if len(text) > MANIFEST_BYTES:
            raise AssetError(f"{url}: over {MANIFEST_BYTES:,} bytes, not a database manifest", code="asset_corrupt")
        try:
            doc = json.loads(text)
        except ValueError:
            raise AssetError(f"{url}: not JSON, not a database manifest", code="asset_corrupt") from None
        if not isinstance(doc, dict) or not isinstance(doc.get("assets"), list):
            raise AssetError(f"{url}: not a database manifest (no list of assets)", code="asset_corrupt")
        return url, doc
    raise AssetError(
        f"no database manifest at {' or '.join(tried)}: give the address of a copy of the site (make dist)", code="asset_missing"
    )


def _checked_entry(entry: dict[str, Any], manifest_url: str) -> tuple[int, str]:
    size, digest = entry.get("bytes"), entry.get("sha256")
    if not isinstance(size, int) or not isinstance(digest, str) or not re.fullmatch(r"[0-9a-f]{64}", digest):
        raise AssetError(f"{manifest_url}: {entry['file']} has no size or sha256: it cannot be checked", code="asset_corrupt")
    return size, digest


def download(url: str, part: Path, size: int, digest: str, progress: Progress | None = None) -> int:
    """Download *url* into *part* (continued from what *part* holds, when the server takes a
    ``Range``), and check it: *size* bytes whose SHA-256 is *digest*.  Returns the bytes that came
    over the network; raises :class:`AssetError` for a short or damaged copy (a damaged one is
    removed, a short one kept for the next run)."""
    name = part.name.removeprefix(".").removesuffix(".part")
    have = part.stat().st_size if part.exists() else 0
    if have > size:
        part.unlink()
        have = 0
    h = hashlib.sha256()
    received = 0
    if have < size:
        with _open(url, {"Range": f"bytes={have}-"} if have else None) as resp:
            if not (have and resp.status == 206 and _range_start(resp.headers.get("Content-Range")) == have):
                have = 0  # the whole file (a first download, or a server that ignores Range)
            with open(part, "ab" if have else "wb") as f:
                if have:
                    _hash_file(part, h)
                if progress:
                    progress(name, have, size)
                received = _receive(resp, f, h, have, size, lambda got: progress(name, got, size) if progress else None, url)
                have += received
                f.flush()
                os.fsync(f.fileno())
    else:
        _hash_file(part, h)
    if have < size:
        raise AssetError(f"{url}: the download ended at {have:,} of {size:,} bytes; run again to resume", code="asset_missing")
    if have > size or h.hexdigest() != digest:
        part.unlink()
        raise AssetError(f"{url}: the file differs from the manifest (size or sha256): a damaged copy, removed", code="asset_corrupt")
    return received


def _hash_file(path: Path, h) -> None:
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)


def _receive(resp, f, h, have: int, size: int, report: Callable[[int], object], url: str) -> int:
    """Copy the body of *resp* into *f* (hashed into *h*) until its end or past *size* bytes in
    all; returns the bytes received."""
    received = 0
    while have + received <= size:
        try:
            chunk = resp.read(CHUNK_BYTES)
        except TimeoutError:
            raise AssetError(
                f"{url}: the download stalled ({TIMEOUT_SECONDS} s without data); run again to resume", code="asset_missing"
            ) from None
        except (OSError, http.client.HTTPException) as exc:  # the connection was cut
            raise AssetError(f"{url}: the download broke off ({exc!r}); run again to resume", code="asset_missing") from None
        if not chunk:
            break
        f.write(chunk)
        h.update(chunk)
        received += len(chunk)
        report(have + received)
    return received


def _range_start(content_range: str | None) -> int | None:
    """The first byte of a ``Content-Range: bytes START-END/TOTAL`` answer."""
    m = re.fullmatch(r"bytes (\d+)-\d+/(\d+|\*)", (content_range or "").strip())
    return int(m.group(1)) if m else None


def _write_manifest(directory: Path, doc: dict[str, Any]) -> None:
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=".manifest.json.")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(json.dumps(doc, indent=1) + "\n")
        os.chmod(tmp, 0o644)
        os.replace(tmp, directory / "manifest.json")
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def fetch_databases(
    address: str, directory: Path, *, packs: bool = False, progress: Progress | None = None, planned: Planned | None = None
) -> Fetched:
    """Download the databases the site at *address* lists into *directory* (see the module
    docstring); with *packs*, its optional packs too.  *planned* is told the bytes to download
    before the first, *progress* each file's as they come."""
    manifest_url, doc = read_manifest(address)
    assets, optional = databases.manifest_lists(doc, manifest_url)
    report = Fetched(manifest_url, directory)
    wanted: list[dict[str, Any]] = []
    for entry in assets + (optional if packs else []):
        if entry.get("browser") is False:  # native-only: the site does not serve it
            report.skipped[entry["file"]] = "not served by the site (native only): fifteen db build --only " + entry["file"]
            continue
        _checked_entry(entry, manifest_url)
        wanted.append(entry)
    for entry in optional if not packs else ():
        report.skipped[entry["file"]] = "optional pack: fifteen db fetch --packs"
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"{directory}: cannot create the directory ({exc.strerror or exc})", code="file") from None
    parts: dict[str, Path] = {}
    try:
        missing = []
        for entry in wanted:
            size, digest = _checked_entry(entry, manifest_url)
            target = directory / entry["file"]
            if target.is_file() and target.stat().st_size == size and sha256_of(target) == digest:
                report.present.append(entry["file"])
            else:
                missing.append((entry["file"], size, digest))
        if planned:
            planned(sum(size for _, size, _ in missing))
        for file, size, digest in missing:
            part = directory / f".{file}.part"
            report.downloaded[file] = download(urllib.parse.urljoin(manifest_url, file), part, size, digest, progress)
            parts[file] = part
        for file, part in parts.items():
            os.replace(part, directory / file)
        report.entries = wanted
        listed = {"format": doc.get("format", 1), "assets": [e for e in wanted if e in assets]}
        if any(e in optional for e in wanted):
            listed["packs"] = [e for e in wanted if e in optional]
        _write_manifest(directory, listed)
    except OSError as exc:  # a full disk, no permission
        raise InputError(f"{directory}: cannot write ({exc.strerror or exc})", code="file") from None
    return report
