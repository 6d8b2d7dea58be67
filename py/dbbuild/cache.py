"""The build cache: every built file is kept under a key made of what defines its bytes.

Directory: ``--cache``, else ``$FIFTEEN_DB_CACHE``, else ``~/.cache/fifteen-db``
(shared by every checkout of the machine).  A built asset is stored there as
``<asset name>-<key>.<suffix>`` and hard-linked (or copied) into the output
directory; it is rebuilt only when its key changes (or with ``--force``).

**The key** (:func:`cache_key`) is a SHA-256 over the asset's kind, its
``version`` (its kind's build version, e.g. :data:`dbbuild.pattern.BUILD_VERSION`,
and the layout versions it writes: container, PDB format...) and its
``params`` (board, partition, groups, encoding).  Nothing else: not the source
of any file, so moving, renaming or reformatting code never rebuilds anything
(the 7-8 pack costs ~25 min of CPU).  The other side of the bargain: **whoever
changes what a builder writes bumps its kind's build version** (the pinned
contents in ``tests/test_dbbuild.py`` catch a forgotten bump for the assets
cheap enough to build in a test).

The 7-8 pack's builder also keeps each group's raw BFS entries under
``raw/`` (:func:`dbbuild.pack78.cached_nibbles`, keyed by
:data:`dbbuild.pack78.RAW_VERSION` and the group), so that re-encoding the pack
does not redo the BFS.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import time
from pathlib import Path

from fifteen.db import container

from .specs import AssetSpec, Log

#: Hex digits of a key in cache file names (24: the file names of the keys before
#: this scheme had 20, so that neither scheme's clean-up removes the other's files).
KEY_LENGTH = 24


def cache_key(spec: AssetSpec) -> str:
    """The cache key of *spec*: its kind, version and parameters (see the module docstring)."""
    identity = {"kind": spec.kind, "version": spec.version, "params": spec.params}
    text = json.dumps(identity, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:KEY_LENGTH]


def default_cache_dir() -> Path:
    env = os.environ.get("FIFTEEN_DB_CACHE")
    if env:
        return Path(env).expanduser()
    return Path.home() / ".cache" / "fifteen-db"


def atomic_write(path: Path, data: bytes) -> None:
    """Write *data* to *path* through a temporary file (never a half-written file)."""
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


def cached_path(spec: AssetSpec, cache: Path) -> Path:
    """Where the cache keeps *spec*'s file."""
    return cache / f"{spec.name}-{cache_key(spec)}{Path(spec.file).suffix}"


def _adopt_legacy(spec: AssetSpec, cache: Path, cached: Path, log: Log) -> bool:
    """Hard-link (or copy) a file the previous key scheme cached for *spec* (``spec.legacy_keys``)
    under its key, after the same check as a fresh build; True if one was adopted."""
    for key in spec.legacy_keys:
        legacy = cache / f"{spec.name}-{key}{Path(spec.file).suffix}"
        if legacy.exists():
            try:
                container.read_asset(legacy.read_bytes(), name=str(legacy), kind=spec.kind)
            except container.AssetError as exc:
                log(f"not adopting {legacy.name}: {exc}")
                continue
            _install(legacy, cached)
            log(f"adopted {legacy.name} (built by the previous cache scheme) as {cached.name}")
            return True
    return False


def ensure_asset(spec: AssetSpec, out: Path, cache: Path, force: bool, log: Log) -> str:
    """Build (or take from the cache) one asset and install it in *out*; return what happened."""
    cached = cached_path(spec, cache)
    how = "cached"
    if not force and not cached.exists() and _adopt_legacy(spec, cache, cached, log):
        how = "adopted"
    elif force or not cached.exists():
        t0 = time.perf_counter()
        log(f"building {spec.file} ...")
        data = spec.build(spec.params, log, cache)
        container.read_asset(data, name=spec.file, kind=spec.kind)  # self-check
        atomic_write(cached, data)
        how = f"built in {time.perf_counter() - t0:.1f} s"
        # Drop older cache entries of the same asset (same naming scheme).
        for old in cache.glob(f"{spec.name}-*{Path(spec.file).suffix}"):
            if old != cached and len(old.stem) == len(cached.stem):
                try:
                    old.unlink()
                except OSError:
                    pass
    changed = _install(cached, out / spec.file)
    return how + ("" if changed else ", unchanged in output")
