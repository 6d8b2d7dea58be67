"""The deployable site builder (tools/web_dist.py), the build manifest's database list
(tools/web_build_info.py) and the Content-Security-Policy kept in index.html and sw.js.

The builders run on small fake site trees (no browser, no built assets needed); the browser
side is tested in tests/e2e/test_dist.py and tests/e2e/test_csp.py."""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import re
import sys
from pathlib import Path

import brotli
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import web_build_info  # noqa: E402
import web_dist  # noqa: E402

POLICY = web_dist.content_security_policy(ROOT)


# ------------------------------------------------------------------ the policy
def _sw_const(name: str) -> str:
    """A string constant of sw.js (adjacent literals joined with +, `${CSP}` expanded)."""
    text = (ROOT / "sw.js").read_text()
    m = re.search(rf"const {name} =\s*((?:\"[^\"]*\"|`[^`]*`)(?:\s*\+\s*(?:\"[^\"]*\"|`[^`]*`))*);", text)
    assert m, f"sw.js has no string constant {name}"
    parts = re.findall(r"\"([^\"]*)\"|`([^`]*)`", m.group(1))
    return "".join(a or b for a, b in parts).replace("${CSP}", POLICY)


def _meta_policy(html: str) -> str:
    m = re.search(r'<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]+)"', html)
    assert m, "no <meta http-equiv=Content-Security-Policy>"
    return m.group(1)


def _directives(policy: str) -> dict[str, list[str]]:
    out = {}
    for part in policy.split(";"):
        words = part.split()
        if words:
            out[words[0]] = words[1:]
    return out


def test_meta_policy_is_the_service_worker_policy():
    assert _sw_const("CSP") == POLICY
    assert _sw_const("CSP_PAGE") == POLICY + "; frame-ancestors 'none'"


def test_policy_is_strict():
    d = _directives(POLICY)
    assert d["default-src"] == ["'self'"]
    assert d["script-src"] == ["'self'", "'wasm-unsafe-eval'"]
    assert d["style-src"] == ["'self'"]
    assert d["object-src"] == ["'none'"] and d["base-uri"] == ["'none'"] and d["form-action"] == ["'none'"]
    assert d["connect-src"] == ["'self'"] and d["worker-src"] == ["'self'"]
    assert not any(w in ("'unsafe-inline'", "'unsafe-eval'", "data:", "blob:", "*") for ws in d.values() for w in ws)
    assert "frame-ancestors" not in d, "a meta tag cannot carry frame-ancestors (sw.js sends it)"


@pytest.mark.parametrize("page", ["index.html", "examples/embed.html"])
def test_page_has_no_inline_script_or_style(page):
    html = (ROOT / page).read_text()
    assert _meta_policy(html) == POLICY  # the page's policy (the embedding example keeps the app's)
    assert not re.search(r"\sstyle=", html), "inline style attribute"
    assert not re.search(r"<style[\s>]", html), "inline <style>"
    assert not re.search(r"\son[a-z]+=", html), "inline event handler"
    for m in re.finditer(r"<script\b([^>]*)>(.*?)</script>", html, re.S):
        assert "src=" in m.group(1) and not m.group(2).strip(), "inline <script>"
    # The meta tag comes before anything it must govern.
    assert html.index("Content-Security-Policy") < min(html.index("<link"), html.index("<script"))


def test_stylesheet_blocks_close_where_they_open():
    """Every rule and @media block of app.css is closed: an unclosed @media swallows the rules
    after it (a merge once left the whole lab's styles inside `@media (pointer: coarse)`)."""
    css = re.sub(r"/\*.*?\*/", "", (ROOT / "static/css/app.css").read_text(), flags=re.S)
    css = re.sub(r'"[^"]*"', '""', css)
    depth, at_media = 0, None
    for n, line in enumerate(css.splitlines(), 1):
        for ch in line:
            depth += {"{": 1, "}": -1}.get(ch, 0)
            assert depth >= 0, f"app.css:{n}: a '}}' closes nothing"
        if line.startswith("@media"):
            assert depth == 1 and at_media is None, f"app.css:{n}: @media inside an open block (opened at line {at_media})"
            at_media = n
        if depth == 0:
            at_media = None
        assert depth <= 2, f"app.css:{n}: blocks nested deeper than @media {{ rule {{ }} }}"
    assert depth == 0, f"app.css: {depth} block(s) left open (the last @media opened at line {at_media})"


# ------------------------------------------------------------------ fake site trees
def _write(root: Path, rel: str, data: bytes) -> Path:
    p = root / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_bytes(data)
    return p


def _site(root: Path, assets=None, packs=None) -> dict[str, bytes]:
    """A minimal built site: pages, a big text file, a random binary, a db manifest."""
    files = {
        "index.html": (ROOT / "index.html").read_bytes(),
        "sw.js": b"// sw\n",
        "static/js/control/main.js": b"export const x = 1;\n" * 800,  # compresses well
        "static/vendor/pyodide/pyodide.asm.wasm": os.urandom(4000),  # does not
        "static/db/wd-3x3.f15": os.urandom(900),
    }
    manifest = {"format": 1, "assets": assets if assets is not None else [{"file": "wd-3x3.f15", "shapes": ["3x3"]}]}
    if packs is not None:
        manifest["packs"] = packs
    files["static/db/manifest.json"] = json.dumps(manifest).encode()
    for rel, data in files.items():
        _write(root, rel, data)
    info = {"version": "x", "files": {rel: {"bytes": len(d), "sha256": hashlib.sha256(d).hexdigest()} for rel, d in files.items()}}
    _write(root, "static/build-info.json", json.dumps(info).encode())
    return files


def _tree(root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()}


def test_dist_holds_exactly_the_served_files(tmp_path):
    src, out = tmp_path / "src", tmp_path / "dist"
    files = _site(src)
    _write(src, "static/js/.stamp", b"")  # never served
    _write(src, "static/db/old.f15", b"stale")  # not in build-info
    _write(out, "leftover.txt", b"from an earlier build")  # dist is replaced whole
    web_dist.build(out, "/fifteen/", root=src, log=lambda *_: None)
    assert _tree(out) == set(files) | {"static/build-info.json", "404.html"}
    for rel, data in files.items():
        assert (out / rel).read_bytes() == data, rel
    page = (out / "404.html").read_text()
    assert 'href="/fifteen/"' in page and 'href="/fifteen/static/css/app.css"' in page
    assert f'content="{POLICY}"' in page
    assert "<script" not in page and "style=" not in page
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".dist-")], "temporary directory left behind"


def test_stale_or_inconsistent_sites_are_refused(tmp_path):
    files = _site(tmp_path)
    (tmp_path / "sw.js").write_bytes(b"// edited after make web\n")
    with pytest.raises(web_dist.DistError, match="sw.js changed"):
        web_dist.site_files(tmp_path)
    (tmp_path / "sw.js").write_bytes(files["sw.js"])
    (tmp_path / "static/db/wd-3x3.f15").unlink()
    with pytest.raises(web_dist.DistError, match="wd-3x3.f15 is listed .* but missing"):
        web_dist.site_files(tmp_path)
    out = tmp_path / "dist"
    with pytest.raises(web_dist.DistError):
        web_dist.build(out, "/", root=tmp_path, log=lambda *_: None)
    assert not out.exists(), "a failed build must not leave a dist"


def test_dist_follows_the_database_manifest(tmp_path):
    # A browser asset the manifest lists but build-info does not: refused (it would never be cached).
    _site(tmp_path, assets=[{"file": "wd-3x3.f15", "shapes": ["3x3"]}, {"file": "new-4x4.bin", "shapes": ["4x4"]}])
    with pytest.raises(web_dist.DistError, match="new-4x4.bin"):
        web_dist.site_files(tmp_path)
    # A native-only asset is not served.
    _site(tmp_path, assets=[{"file": "wd-3x3.f15", "shapes": ["3x3"]}, {"file": "huge.f15", "browser": False}])
    assert "static/db/huge.f15" not in web_dist.site_files(tmp_path)
    # A listed pack must be there (else the page offers a download that fails), and match.
    pack = os.urandom(3000)
    entry = {"file": "pdb-78.f15.xz", "bytes": len(pack), "sha256": hashlib.sha256(pack).hexdigest()}
    _site(tmp_path, packs=[entry])
    with pytest.raises(web_dist.DistError, match="pdb-78.f15.xz, which is missing"):
        web_dist.site_files(tmp_path)
    _write(tmp_path, "static/db/pdb-78.f15.xz", pack)
    assert web_dist.site_files(tmp_path)["static/db/pdb-78.f15.xz"] == tmp_path / "static/db/pdb-78.f15.xz"
    _write(tmp_path, "static/db/pdb-78.f15.xz", pack[:-1])
    with pytest.raises(web_dist.DistError, match="does not match"):
        web_dist.site_files(tmp_path)
    _site(tmp_path, packs=[{"file": "../../etc/passwd"}])
    with pytest.raises(web_dist.DistError, match="not a plain relative path"):
        web_dist.site_files(tmp_path)


def test_precompressed_siblings_only_where_they_help(tmp_path):
    src, out = tmp_path / "src", tmp_path / "dist"
    files = _site(src)
    web_dist.build(out, "/", ["gzip", "br"], root=src, log=lambda *_: None)
    siblings = {p for p in _tree(out) if p.endswith((".gz", ".br"))}
    # main.js (16 kB of text) and the page shrink; random bytes and tiny files do not.
    assert {"static/js/control/main.js.gz", "static/js/control/main.js.br", "index.html.gz", "index.html.br"} <= siblings
    assert not [p for p in siblings if "wasm" in p or "f15" in p or p.startswith("sw.js")], siblings
    assert gzip.decompress((out / "static/js/control/main.js.gz").read_bytes()) == files["static/js/control/main.js"]
    assert brotli.decompress((out / "index.html.br").read_bytes()) == files["index.html"]
    for s in siblings:
        assert (out / s).stat().st_size <= 0.9 * (out / s[:-3]).stat().st_size, s


def test_base_path_is_checked(tmp_path):
    _site(tmp_path)
    with pytest.raises(web_dist.DistError, match="--base"):
        web_dist.build(tmp_path / "dist", "/fifteen", root=tmp_path, log=lambda *_: None)
    assert web_dist.main(["--out", str(tmp_path / "d"), "--base", "fifteen/"]) == 1


# ------------------------------------------------------------------ build-info's database list
def test_build_info_lists_the_browser_assets_of_the_manifest(tmp_path, monkeypatch):
    monkeypatch.setattr(web_build_info, "ROOT", tmp_path)
    db = tmp_path / "static/db"
    for name in ("a.f15", "native.f15", "stale.f15", "new-kind.bin", "pdb-78.f15.xz"):
        _write(db, name, b"x")
    manifest = {
        "format": 1,
        "assets": [
            {"file": "a.f15"},
            {"file": "native.f15", "browser": False},
            {"file": "new-kind.bin"},
            {"file": "not-built.f15"},
            {"file": "../escape.f15"},
        ],
        "packs": [{"file": "pdb-78.f15.xz"}],
    }
    _write(db, "manifest.json", json.dumps(manifest).encode())
    assert web_build_info.browser_assets() == ["static/db/a.f15", "static/db/new-kind.bin"]
    _write(db, "manifest.json", b'{"assets": "x"}')
    assert web_build_info.browser_assets() == []


# ------------------------------------------------------------------ the web app manifest
def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()[:24]
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", path
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def test_web_app_manifest_makes_an_installable_offline_app():
    """manifest.webmanifest: names, relative start_url and scope, standalone, the page's theme
    colour, PNG icons of the stated sizes (maskable ones too); linked from index.html, listed by
    web_build_info (so precached by the service worker and copied by make dist), allowed by the
    CSP (manifest-src falls back to default-src 'self')."""
    manifest = json.loads((ROOT / "manifest.webmanifest").read_text())
    assert manifest["name"].startswith("Fifteen") and manifest["short_name"] == "Fifteen"
    assert manifest["display"] == "standalone"
    for key in ("start_url", "scope", "id"):
        assert manifest[key].startswith("./"), (key, manifest[key])  # relative: any host, any sub-path
    html = (ROOT / "index.html").read_text()
    theme = re.search(r'<meta name="theme-color" content="([^"]+)"', html).group(1)
    assert manifest["theme_color"] == theme and re.fullmatch(r"#[0-9a-f]{6}", manifest["background_color"])
    assert '<link rel="manifest" href="manifest.webmanifest" />' in html
    purposes = set()
    for icon in manifest["icons"]:
        path = ROOT / icon["src"]
        assert path.is_file(), icon
        if icon["type"] == "image/png":
            w, h = map(int, icon["sizes"].split("x"))
            assert _png_size(path) == (w, h), icon
            purposes.add((icon["purpose"], w))
    assert {("any", 192), ("any", 512), ("maskable", 192), ("maskable", 512)} <= purposes
    served = set(web_build_info.PATTERNS)
    assert "manifest.webmanifest" in served and "static/img/*" in served
    directives = _directives(POLICY)
    assert "manifest-src" not in directives and "img-src" not in directives and directives["default-src"] == ["'self'"]
