#!/usr/bin/env python3
"""Write the browser app's build manifests (run by ``make web``).

* ``static/wheels/manifest.json`` — the fifteen wheel and the archive the worker unpacks
  into site-packages (the wheel's files plus bytecode, ``tools/web_pyc.mjs``; no micropip):
  ``{"fifteen": "fifteen-X.Y.Z-py3-none-any.whl", "archive": "fifteen-X.Y.Z-pyodide.zip",
  "archive_sha256": ...}`` (the worker refuses an archive whose SHA-256 differs: damaged).
* ``static/build-info.json`` — every file the site serves, with its size and
  SHA-256 (and, for a database the page loads only after Ready or when asked, the
  manifest's ``"load"``: the page's precache leaves those to the service worker, which
  keeps them when the solver worker fetches them), plus ``version``: a short hash over that list.  The service worker
  (``sw.js``) is registered as ``sw.js?v=<version>``, so any changed asset
  installs a new service worker with a new, versioned cache; the page also
  uses the sizes to show what the first visit downloads.

Files are rewritten only when their content changes, so the command is
idempotent and cheap.  Standard library only.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

# What the site serves (relative to the repository root).  Source maps, the
# stamp files and anything else are left out.
PATTERNS = [
    "index.html",
    "sw.js",
    "manifest.webmanifest",
    "static/css/*.css",
    "static/js/**/*.js",
    "static/data/*.json",
    "static/img/*",
    "static/vendor/pyodide/*.mjs",
    "static/vendor/pyodide/*.wasm",
    "static/vendor/pyodide/*.zip",
    "static/vendor/pyodide/pyodide-lock.json",
    "static/vendor/xz/*.mjs",
    "examples/*.html",  # the embedding example (docs/embed.md) and its script and style
    "examples/*.js",
    "examples/*.css",
    "static/wheels/fifteen-*-pyodide.zip",  # what the worker installs (not the wheel; no micropip)
    "static/wheels/manifest.json",
    "static/db/manifest.json",
]
# The database files come from static/db/manifest.json (see browser_assets), not a pattern.


def write_if_changed(path: Path, text: str) -> bool:
    if path.exists() and path.read_text() == text:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(text)
    tmp.replace(path)
    return True


def wheel_manifest() -> None:
    wheels = ROOT / "static" / "wheels"
    found = sorted(w.name for w in wheels.glob("fifteen-*.whl"))
    if len(found) != 1:
        sys.exit(f"web_build_info: {'two fifteen wheels' if found else 'no fifteen wheel'} in {wheels}: {found} (run make web)")
    archive = wheels / found[0].replace("-py3-none-any.whl", "-pyodide.zip")
    if not archive.is_file():
        sys.exit(f"web_build_info: no {archive.name} in {wheels} (run make web)")
    manifest = {
        "fifteen": found[0],
        "archive": archive.name,
        "archive_sha256": hashlib.sha256(archive.read_bytes()).hexdigest(),  # the worker checks it
    }
    if write_if_changed(wheels / "manifest.json", json.dumps(manifest, indent=2) + "\n"):
        print("wrote static/wheels/manifest.json")


def deferred_assets() -> dict[str, str]:
    """``static/db/<file>`` -> the manifest's ``"load"`` of the browser databases loaded after
    Ready (``"idle"``) or only when asked (``"asked"``); see :class:`dbbuild.specs.AssetSpec`."""
    try:
        assets = json.loads((ROOT / "static" / "db" / "manifest.json").read_text()).get("assets", [])
    except (OSError, ValueError, AttributeError):
        return {}
    out = {}
    for a in assets if isinstance(assets, list) else []:
        if isinstance(a, dict) and isinstance(a.get("file"), str) and a.get("load") in ("idle", "asked"):
            out[f"static/db/{a['file']}"] = a["load"]
    return out


def browser_assets() -> list[str]:
    """The database files the browser worker loads: the manifest's ``assets`` that exist,
    except those marked ``"browser": false`` (native-only, too big for a page).  Optional
    packs (``"packs"``) are left out too: the page downloads one only when the user asks,
    and keeps it in its own cache.  Driven by the manifest, so a new kind of asset needs no
    change here (and a stale file left in static/db is not listed)."""
    db = ROOT / "static" / "db"
    try:
        assets = json.loads((db / "manifest.json").read_text()).get("assets", [])
    except (OSError, ValueError, AttributeError):
        return []
    out = []
    for a in assets if isinstance(assets, list) else []:
        name = a.get("file") if isinstance(a, dict) else None
        if not isinstance(name, str) or "/" in name or name.startswith(".") or a.get("browser") is False:
            continue
        if (db / name).is_file():
            out.append(f"static/db/{name}")
    return sorted(out)


def build_info() -> None:
    files: dict[str, dict[str, Any]] = {}
    paths = [path for pattern in PATTERNS for path in sorted(ROOT.glob(pattern))]
    paths += [ROOT / rel for rel in browser_assets()]
    deferred = deferred_assets()
    for path in paths:
        if not path.is_file() or path.name.startswith("."):
            continue
        data = path.read_bytes()
        rel = path.relative_to(ROOT).as_posix()
        files[rel] = {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
        if rel in deferred:
            files[rel]["load"] = deferred[rel]
    listing = json.dumps(files, sort_keys=True)
    version = hashlib.sha256(listing.encode()).hexdigest()[:16]
    info = {
        "version": version,
        "total_bytes": sum(f["bytes"] for f in files.values()),
        "files": files,
    }
    if write_if_changed(ROOT / "static" / "build-info.json", json.dumps(info, indent=1, sort_keys=True) + "\n"):
        print(f"wrote static/build-info.json (version {version}, {len(files)} files, {info['total_bytes']:,} bytes)")


if __name__ == "__main__":
    wheel_manifest()
    build_info()
