"""Start-up: what a first visit and a reload fetch, and what the page says they downloaded.

Each test opens the site, served by its own server (so that the counts are this page's), in a
fresh browser context:

* A first visit fetches every file at most once: the service worker caches nothing on install
  (the page has just downloaded the shell), the solver worker keeps the runtime's wasm it
  downloaded (a private window's HTTP cache does not hold ~10 MB), and the page's precache
  takes that copy and the rest from the browser's HTTP cache (checked against
  build-info.json's SHA-256), so the server sends no file body twice, and is asked for no URL
  twice (but the service worker's script, which the browser may check for an update:
  revalidated, never downloaded again).  The runtime's download is reported as it comes.
* A reload under the service worker downloads no byte of the runtime (nor of anything else
  but build-info.json, network-first), and the page shows no download size: the loading
  steps give times only and the build line names no download.

Speed is measured by ``tools/web_bench.py --startup``, not here.
"""

from __future__ import annotations

import collections

import pytest

from .conftest import ROOT, App, SiteServer


@pytest.fixture()
def fresh(browser):
    server = SiteServer(ROOT).start()
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    yield App(page, server), server
    ctx.close()
    server.stop()


def _twice(paths: list[str]) -> dict[str, int]:
    return {p: n for p, n in collections.Counter(paths).items() if n > 1}


# Records the solver worker's runtime download reports (LOADING, stage runtime, state progress).
RECORD_RUNTIME_PROGRESS = """
window.__runtimeProgress = [];
const NativeWorker = window.Worker;
window.Worker = class extends NativeWorker {
  constructor(...args) {
    super(...args);
    this.addEventListener("message", (e) => {
      const m = e.data || {};
      if (m.type === "loading" && m.stage === "runtime" && m.state === "progress") window.__runtimeProgress.push(m);
    });
  }
};
"""


def test_first_visit_fetches_each_file_once_and_reload_downloads_nothing(fresh):
    app, server = fresh
    app.page.add_init_script(RECORD_RUNTIME_PROGRESS)
    app.open()
    # The runtime's download is counted as it comes (the wasm on the copy kept for offline use).
    reports = app.page.evaluate("() => window.__runtimeProgress")
    assert reports and all(r["files"] == ["pyodide.asm.wasm", "python_stdlib.zip"] for r in reports), reports[:3]
    sizes = sum((ROOT / "static/vendor/pyodide" / f).stat().st_size for f in ("pyodide.asm.wasm", "python_stdlib.zip"))
    assert 0 < max(r["loaded"] for r in reports) <= sizes
    app.page.wait_for_selector("html[data-offline=ready]", state="attached", timeout=180_000)
    assert not _twice(server.downloads), f"downloaded more than once: {_twice(server.downloads)}"
    # (the browser's own update check of the service worker script may ask again: from the HTTP
    # cache or answered 304, it downloads nothing, see above)
    asked = [p for p in server.requests if not p.startswith("/sw.js?")]
    assert not _twice(asked), f"asked for more than once: {_twice(asked)}"
    served = set(server.downloads)
    for path in ("/index.html", "/static/js/main.js", "/static/vendor/pyodide/pyodide.asm.wasm", "/static/db/pdb-663.f15"):
        assert path in served, f"{path} was not fetched at all: {sorted(served)}"
    assert "build" in app.page.inner_text("#build-line").lower()

    server.reset_counts()
    app.open()  # a reload: the service worker serves everything from its cache
    runtime = {p: n for p, n in server.bytes_by_path.items() if p.startswith("/static/vendor/")}
    assert runtime == {}, f"the reload downloaded runtime bytes: {runtime}"
    assert set(server.downloads) <= {"/static/build-info.json"}, server.downloads
    steps = app.page.inner_text("#loading-steps")
    assert "Python runtime" in steps, steps
    assert not any(unit in steps for unit in (" KB", " MB", " GB")), f"a cached start shows a download size: {steps!r}"
    line = app.page.inner_text("#build-line")
    assert "download" not in line, f"build line after a reload: {line!r}"
    phases = app.page.get_attribute("html", "data-phases") or ""
    assert {"page", "runtime", "solver", "databases"} <= {item.split("=")[0] for item in phases.split()}, phases
