"""The deployable site (``make dist``) served alone, under a sub-path, by a GitHub-Pages-like host.

A fresh ``dist`` (tools/web_dist.py, base ``/fifteen/``, with gzip siblings that the host
sends as ``Content-Encoding: gzip``, as GitHub Pages compresses on the fly) is served from a
temporary directory under ``/fifteen/``; everything else on the origin is a 404.  The page
must load, solve a position to its known optimum, cache the whole build for offline use,
and never ask for anything outside ``/fifteen/`` or missing from dist (no request leaves
the origin, none answers 404); a missing address gets ``404.html``, whose links work.
"""

from __future__ import annotations

import json

from .conftest import App
from .hosting import PagesHost, built_dist
from .test_app import EXAMPLES, apply_tile_moves, goal

PREFIX = "/fifteen/"


def test_dist_alone_under_a_sub_path(browser):
    dist = built_dist(PREFIX, "gzip")
    host = PagesHost(dist, PREFIX).start()
    ctx = browser.new_context()
    requests: list[str] = []
    failed: list[str] = []
    answers: list[tuple[int, str]] = []
    ctx.on("request", lambda r: requests.append(r.url))
    ctx.on("requestfailed", lambda r: failed.append(f"{r.url} {r.failure}"))
    ctx.on("response", lambda r: answers.append((r.status, r.url)))
    missing = host.url + "no/such/page.html"
    try:
        page = ctx.new_page()
        app = App(page, host)
        ex = EXAMPLES["korf55"]
        app.open("#tiles=" + ",".join(map(str, ex["tiles"])))
        assert page.url.startswith(host.url)
        sol = app.solve("auto")
        assert sol["length"] == ex["optimal"]
        assert apply_tile_moves(ex["tiles"], 4, sol["moves"]) == goal(4, 4)
        # The page then caches every file of build-info.json: all of them are in dist.
        page.wait_for_selector("html[data-offline=ready]", timeout=120_000, state="attached")

        # A missing address: 404.html, whose stylesheet and link work from any depth.
        resp = page.goto(missing)
        assert resp.status == 404
        assert page.get_attribute("#home-link", "href") == PREFIX
        assert page.evaluate("() => getComputedStyle(document.body).marginTop") == "0px", "app.css did not load"
        page.click("#home-link")
        app.wait_ready()
        assert page.url.split("#")[0] == host.url
        assert page.evaluate("() => !!navigator.serviceWorker.controller")
    finally:
        ctx.close()
        host.stop()

    origin = host.origin + "/"
    outside = [u for u in requests if not u.startswith(host.url)]
    assert not outside, f"requests outside {host.url}: {outside}"
    assert not failed, failed
    bad = [(s, u) for s, u in answers if s >= 400 and u != missing]
    assert not bad, f"error answers: {bad}"
    # The host's own log (it also sees what the service worker fetches).
    assert all(h.path.startswith(PREFIX) for h in host.log), [h.path for h in host.log if not h.path.startswith(PREFIX)]
    bad = [(h.status, h.path) for h in host.log if h.status >= 400 and origin + h.path.lstrip("/") != missing]
    assert not bad, f"the host answered errors: {bad}"
    assert not any(h.path.endswith((".gz", ".br")) for h in host.log), "a compressed sibling was asked for by name"
    # The big runtime file travelled compressed, as from GitHub Pages.
    wasm = [h for h in host.log if h.path.endswith("/pyodide.asm.wasm") and h.status == 200]
    assert wasm and all(h.encoding == "gzip" for h in wasm), wasm
    # Everything the page precached was served from dist (but a database fetched only when a
    # request names its bound: build-info's "load": "asked", the 6-6-3).
    info = json.loads((dist / "static/build-info.json").read_text())
    served = {h.path[len(PREFIX) :].split("?")[0] for h in host.log if h.status == 200}  # (sw.js?v=<version>)
    wanted = {path for path, f in info["files"].items() if f.get("load") != "asked"} - {"index.html"}
    assert wanted <= served, wanted - served
    assert "static/db/pdb-663.f15" not in served
