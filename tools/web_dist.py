#!/usr/bin/env python3
"""Build the deployable site ``dist/`` (run by ``make dist``, after ``make assets``).

    python tools/web_dist.py [--out dist] [--base /] [--precompress gzip,br]

``dist/`` holds exactly what the site serves, and nothing else:

* every file listed in ``static/build-info.json`` (the page, the service worker,
  styles, scripts, the vendored runtime, the wheels, the database manifest and the
  database files it lists for the browser), checked against the SHA-256 recorded
  there, and ``static/build-info.json`` itself;
* the optional packs that ``static/db/manifest.json`` lists under ``"packs"``
  (e.g. the 7-8 pack ``pdb-78.f15.xz``, present only after ``make pack``), checked
  against the manifest's size and SHA-256: the page downloads them only when asked;
* ``404.html``: a small page for missing addresses (GitHub Pages, Netlify, Cloudflare
  Pages and S3's error document serve it), under the same Content-Security-Policy as
  index.html; ``--base`` is the URL path the site is served under (``/fifteen/`` for
  ``https://user.github.io/fifteen/``), used by its links since it is served at any depth.

With ``--precompress`` it also writes ``NAME.gz`` (gzip -9) and/or ``NAME.br``
(brotli q11, PyPI ``brotli``) beside each file that they make at least 10 % (and
512 bytes) smaller, for servers that send such siblings with ``Content-Encoding``
(nginx ``gzip_static``/``brotli_static``, Caddy ``precompressed``); GitHub Pages,
Netlify and Cloudflare Pages compress on the fly and never use them (docs/hosting.md).

The build goes to a temporary directory next to ``--out`` and replaces it at the
end, so a failed build never leaves a half-written site.  Standard library only
(``brotli`` only for ``--precompress br``).
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import html
import json
import re
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILD_INFO = "static/build-info.json"
DB_MANIFEST = "static/db/manifest.json"
# A sibling is written only when it saves at least this fraction and this many bytes.
MIN_SAVING_FRACTION = 0.10
MIN_SAVING_BYTES = 512
ENCODINGS = ("gzip", "br")


class DistError(Exception):
    """The built site is missing or inconsistent (the message says what to run)."""


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _load_json(root: Path, rel: str) -> dict:
    try:
        doc = json.loads((root / rel).read_text())
    except FileNotFoundError:
        raise DistError(f"{rel} is missing: run `make assets` first") from None
    except ValueError as e:
        raise DistError(f"{rel} is not valid JSON ({e})") from None
    if not isinstance(doc, dict):
        raise DistError(f"{rel}: expected a JSON object")
    return doc


def _safe_rel(rel: object, where: str) -> str:
    if not isinstance(rel, str) or not rel or rel.startswith("/") or "\\" in rel or any(p in ("", ".", "..") for p in rel.split("/")):
        raise DistError(f"{where}: {rel!r} is not a plain relative path")
    return rel


def site_files(root: Path = ROOT) -> dict[str, Path]:
    """Every file the site serves, ``{path in the site: source path}``, checked.

    Raises DistError when ``build-info.json`` is stale (a file changed or is missing:
    ``make web`` rewrites it), when the database manifest lists a browser asset that
    ``build-info.json`` does not, or when it lists a pack that is not there."""
    info = _load_json(root, BUILD_INFO)
    listed = info.get("files")
    if not isinstance(listed, dict) or "index.html" not in listed:
        raise DistError(f"{BUILD_INFO} lists no files: run `make web`")
    out: dict[str, Path] = {}
    for rel, meta in sorted(listed.items()):
        rel = _safe_rel(rel, BUILD_INFO)
        src = root / rel
        if not src.is_file():
            raise DistError(f"{rel} is listed in {BUILD_INFO} but missing: run `make assets`")
        if not isinstance(meta, dict) or sha256(src) != meta.get("sha256"):
            raise DistError(f"{rel} changed since {BUILD_INFO} was written: run `make web` (make dist does)")
        out[rel] = src
    out[BUILD_INFO] = root / BUILD_INFO

    manifest = _load_json(root, DB_MANIFEST) if DB_MANIFEST in out else {"assets": []}
    assets, packs = manifest.get("assets", []), manifest.get("packs", [])
    if not isinstance(assets, list) or not isinstance(packs, list):
        raise DistError(f"{DB_MANIFEST}: 'assets' and 'packs' must be lists")
    for entry in assets:
        if not isinstance(entry, dict):
            raise DistError(f"{DB_MANIFEST}: an asset entry is not an object: {entry!r}")
        if entry.get("browser") is False:
            continue  # native-only: the page never loads it
        rel = "static/db/" + _safe_rel(entry.get("file"), DB_MANIFEST)
        if rel not in out:
            raise DistError(f"{DB_MANIFEST} lists {rel} for the browser, but {BUILD_INFO} does not: run `make assets`")
    for entry in packs:
        if not isinstance(entry, dict):
            raise DistError(f"{DB_MANIFEST}: a pack entry is not an object: {entry!r}")
        rel = "static/db/" + _safe_rel(entry.get("file"), DB_MANIFEST)
        src = root / rel
        if not src.is_file():
            raise DistError(f"{DB_MANIFEST} lists the pack {rel}, which is missing (the page would offer a download that fails)")
        if entry.get("bytes") not in (None, src.stat().st_size) or entry.get("sha256") not in (None, sha256(src)):
            raise DistError(f"{rel} does not match {DB_MANIFEST} (size or SHA-256): run `make db`")
        out[rel] = src
    return out


def content_security_policy(root: Path = ROOT) -> str:
    """The policy of index.html's <meta http-equiv="Content-Security-Policy">."""
    text = (root / "index.html").read_text()
    m = re.search(r'<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]+)"', text)
    if not m:
        raise DistError('index.html has no <meta http-equiv="Content-Security-Policy">')
    return html.unescape(m.group(1))


def not_found_page(base: str, policy: str) -> str:
    """404.html: no script, links through *base* (it is served at any depth)."""
    b = html.escape(base, quote=True)
    csp = html.escape(policy, quote=False).replace('"', "&quot;")
    return f"""<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta http-equiv="Content-Security-Policy" content="{csp}" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="robots" content="noindex" />
    <title>Not found — Fifteen</title>
    <link rel="icon" href="{b}static/img/icon.svg" type="image/svg+xml" />
    <link rel="stylesheet" href="{b}static/css/app.css" />
  </head>
  <body>
    <header class="top">
      <div class="brand">
        <img class="logo" src="{b}static/img/icon.svg" alt="" width="44" height="44" />
        <div>
          <h1>Fifteen</h1>
          <p class="tagline">Shortest solutions for sliding-tile puzzles</p>
        </div>
      </div>
    </header>
    <main class="layout">
      <section class="card" aria-labelledby="nf-heading">
        <h2 id="nf-heading">Nothing here</h2>
        <p>There is no page at this address.</p>
        <p><a id="home-link" class="btn btn-primary" href="{b}">Open the solver</a></p>
      </section>
    </main>
  </body>
</html>
"""


def _compress(data: bytes, encoding: str) -> bytes:
    if encoding == "gzip":
        return gzip.compress(data, compresslevel=9, mtime=0)
    try:
        import brotli
    except ImportError:
        raise DistError("--precompress br needs the PyPI package brotli (in requirements-dev.txt: `make venv`)") from None
    return brotli.compress(data, quality=11)


def precompress(out: Path, rels: list[str], encodings: list[str], log=print) -> dict[str, int]:
    """Write NAME.gz / NAME.br next to each file in *rels* where it saves enough; returns
    the bytes written per encoding."""
    written = dict.fromkeys(encodings, 0)
    for rel in rels:
        data = (out / rel).read_bytes()
        for enc in encodings:
            packed = _compress(data, enc)
            if len(data) - len(packed) >= max(MIN_SAVING_BYTES, MIN_SAVING_FRACTION * len(data)):
                (out / f"{rel}.{'gz' if enc == 'gzip' else 'br'}").write_bytes(packed)
                written[enc] += len(packed)
                log(f"  {rel}.{'gz' if enc == 'gzip' else 'br'}: {len(data):,} -> {len(packed):,} bytes")
    return written


def build(out: Path, base: str = "/", encodings: list[str] | None = None, root: Path = ROOT, log=print) -> dict[str, Path]:
    """Write the site into *out* (replaced whole); returns {site path: source}."""
    if not base.startswith("/") or not base.endswith("/"):
        raise DistError(f"--base must start and end with '/' (got {base!r})")
    files = site_files(root)
    out = out.resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}-", dir=out.parent))
    try:
        for rel, src in files.items():
            dst = tmp / rel
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, dst)
        (tmp / "404.html").write_text(not_found_page(base, content_security_policy(root)))
        total = sum(p.stat().st_size for p in files.values())
        log(f"dist: {len(files)} site files, {total:,} bytes, + 404.html (base {base})")
        if encodings:
            packs = {rel for rel in files if rel.startswith("static/db/") and rel.endswith(".xz")}
            written = precompress(tmp, sorted(set(files) - packs) + ["404.html"], encodings, log)
            log("dist: precompressed " + ", ".join(f"{e} {n:,} bytes" for e, n in written.items()))
        tmp.chmod(0o755)
        if out.exists():
            shutil.rmtree(out)
        tmp.rename(out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return files


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default="dist", help="output directory, replaced whole (default dist)")
    ap.add_argument("--base", default="/", help="URL path the site is served under, for 404.html (default /)")
    ap.add_argument("--precompress", default="", help="comma-separated encodings for sibling files: gzip, br (default none)")
    args = ap.parse_args(argv)
    encodings = [e for e in args.precompress.replace(" ", ",").split(",") if e]
    bad = [e for e in encodings if e not in ENCODINGS]
    if bad:
        ap.error(f"unknown encoding {bad[0]!r} (use gzip, br)")
    try:
        build(Path(args.out), args.base, encodings)
    except DistError as e:
        print(f"web_dist: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
