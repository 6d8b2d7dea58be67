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
import json
import time

import pytest

from .conftest import ROOT, SOLVE_ENABLED, App, SiteServer, _QuietHandler


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
      // the download's count (not the report that the runtime compiles)
      if (m.type === "loading" && m.stage === "runtime" && m.state === "progress" && !m.compiling) window.__runtimeProgress.push(m);
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
    for path in ("/index.html", "/static/js/control/main.js", "/static/vendor/pyodide/pyodide.asm.wasm", "/static/db/pdb-771.f15"):
        assert path in served, f"{path} was not fetched at all: {sorted(served)}"
    assert "build" in app.page.inner_text("#build-line").lower()

    server.reset_counts()
    app.page.add_init_script(ENABLED_AT)
    app.open()  # a reload: the service worker serves everything from its cache
    runtime = {p: n for p, n in server.bytes_by_path.items() if p.startswith("/static/vendor/")}
    assert runtime == {}, f"the reload downloaded runtime bytes: {runtime}"
    assert set(server.downloads) <= {"/static/build-info.json"}, server.downloads
    steps = app.page.inner_text("#loading-steps")
    assert "Python runtime" in steps, steps
    assert not any(unit in steps for unit in (" kB", " KB", " MB", " GB")), f"a cached start shows a download size: {steps!r}"
    line = app.page.inner_text("#build-line")
    assert "download" not in line, f"build line after a reload: {line!r}"
    phases = app.page.get_attribute("html", "data-phases") or ""
    assert {"page", "runtime", "solver", "databases"} <= {item.split("=")[0] for item in phases.split()}, phases
    # "Ready in" (html[data-ready-seconds], what tools/web_bench.py reads) counts from the page's
    # opening, when Solve is enabled; the phases before READY come one after the other within it
    ready = float(app.page.get_attribute("html", "data-ready-seconds"))
    enabled = app.page.evaluate("window.__solveEnabledAt")
    assert abs(ready - enabled) < 0.05, f"ready after {ready} s, but Solve was enabled {enabled} s after the page opened"
    seconds = {k: float(v) for k, v in (item.split("=") for item in phases.split())}
    before = sum(seconds[k] for k in ("page", "runtime", "solver", "databases"))
    assert before <= ready + 0.01, f"ready after {ready} s, but its phases took {before} s: {phases}"


# Records when (seconds since the page's opening) Solve is first enabled: window.__solveEnabledAt.
ENABLED_AT = f"""new MutationObserver((_, observer) => {{
  if (document.querySelector({json.dumps(SOLVE_ENABLED)})) {{
    window.__solveEnabledAt = performance.now() / 1000;
    observer.disconnect();
  }}
}}).observe(document, {{ subtree: true, childList: true, attributes: true }});"""

SNAPSHOT_KEPT = """async () => {
  const resp = await caches.match(new URL("static/snapshot/fifteen.bin", location.href).href, { cacheName: "fifteen-snapshot" });
  return resp ? JSON.parse(resp.headers.get("x-fifteen-snapshot")) : null;
}"""

# Rewrites the kept snapshot: its header's `field` set to `value`, or its bytes cut to `cut`.
REWRITE_SNAPSHOT = """async ([field, value, cut]) => {
  const key = new URL("static/snapshot/fifteen.bin", location.href).href;
  const cache = await caches.open("fifteen-snapshot");
  const resp = await cache.match(key);
  const meta = JSON.parse(resp.headers.get("x-fifteen-snapshot"));
  let bytes = new Uint8Array(await resp.arrayBuffer());
  if (field) meta[field] = value;
  if (cut) bytes = bytes.subarray(0, cut);
  await cache.put(key, new Response(bytes, { headers: { "x-fifteen-snapshot": JSON.stringify(meta) } }));
}"""

KORF_55 = "5 10 14 4 6 12 11 1 9 0 15 7 13 2 8 3"  # Korf's instance 55 (converted, static/data/examples.json): 41 moves


def _build_of(meta: dict) -> dict:
    """What a snapshot's header says of the build it belongs to: all but its length, which
    follows the wasm memory's size when it was made (a start whose heap grew by one more
    64 KiB page, a few bytes more allocated somewhere, makes a longer one of the same build)."""
    return {k: v for k, v in meta.items() if k != "bytes"}


def _wait_snapshot(app, want=None) -> dict:
    """The kept snapshot's header once there is one (of the build `want` names, when given)."""
    deadline = time.monotonic() + 120
    while (meta := app.page.evaluate(SNAPSHOT_KEPT)) is None or (want is not None and _build_of(meta) != _build_of(want)):
        assert time.monotonic() < deadline, f"no snapshot kept ({meta})"
        time.sleep(0.25)
    return meta


def _loading(app) -> str:
    return app.page.inner_text("#loading-steps")


def test_a_reload_resumes_the_memory_snapshot_of_the_first_start(fresh):
    app, _server = fresh
    app.open()
    assert "resumed" not in _loading(app)
    app.page.wait_for_selector("html[data-offline=ready]", state="attached", timeout=180_000)
    meta = _wait_snapshot(app)
    manifest = {a["file"]: a["crc32"] for a in json.loads((ROOT / "static/db/manifest.json").read_text())["assets"]}
    assert meta["files"] == {f: manifest[f] for f in ("pdb-771.f15", "pdb-663.f15", "pdb-555.f15", "wd-4x4.f15")}, meta
    assert meta["archive"] == json.loads((ROOT / "static/wheels/manifest.json").read_text())["archive_sha256"]
    assert meta["bytes"] > 20_000_000

    app.open()  # a reload: the runtime, the package and the databases resume from the snapshot
    steps = _loading(app)
    assert "resumed from the snapshot" in steps, steps
    assert steps.count("in the snapshot") == 4, steps
    app.set_position(KORF_55.split(), "4x4")
    solution = app.solve("auto")
    assert solution["length"] == 41, solution
    # other shapes load their databases on top of the resumed state
    app.set_position("1 2 3 4 5 6 0 7 8".split(), "3x3")
    assert app.solve("auto")["length"] == 2


@pytest.mark.parametrize(
    ("field", "value", "cut"),
    [("archive", "0" * 64, 0), ("files", {"pdb-663.f15": "00000000"}, 0), ("pyodide", "0.0.1", 0), (None, None, 1_000_000)],
    ids=["another-package", "another-database", "another-runtime", "cut-off"],
)
def test_a_snapshot_of_another_build_or_cut_off_is_not_resumed(fresh, field, value, cut):
    app, _server = fresh
    app.open()
    original = _wait_snapshot(app)
    app.page.evaluate(REWRITE_SNAPSHOT, [field, value, cut])
    app.open()
    steps = _loading(app)
    assert "resumed" not in steps, steps
    assert "Database pdb-663.f15" in steps and "in the snapshot" not in steps, steps
    # this build's snapshot replaces it, and the next start resumes that one
    _wait_snapshot(app, want=original)
    app.open()
    assert "resumed from the snapshot" in _loading(app)
    app.set_position(KORF_55.split(), "4x4")
    assert app.solve("auto")["length"] == 41


def test_a_database_missing_at_the_first_start_is_not_in_its_snapshot(fresh):
    app, _server = fresh
    app.page.context.route("**/static/db/wd-4x4.f15", lambda route: route.fulfill(status=404, body="gone"))
    app.open()
    assert "missing" in _loading(app)
    meta = _wait_snapshot(app)
    # the snapshot holds what Python holds: a later start tries the missing one again
    assert sorted(meta["files"]) == ["pdb-555.f15", "pdb-663.f15", "pdb-771.f15"], meta


# The page's running animations: [{target: "#id.class...", timing: animation-timing-function}].
RUNNING_ANIMATIONS = """() => document.getAnimations().filter((a) => a.playState === "running").map((a) => {
  const el = a.effect.target;
  const target = `${el.tagName.toLowerCase()}#${el.id}.${[...el.classList].join(".")}`;
  return { target, timing: getComputedStyle(el).animationTimingFunction };
})"""


class _SlowTableHandler(_QuietHandler):
    """Answers the 7-7-1 table's request (the first database handed over) 3 s late: its loading
    step stays under way that long on any machine."""

    def do_GET(self):
        if self.path.endswith("/pdb-771.f15"):
            time.sleep(3)
        super().do_GET()


class _SlowTableServer(SiteServer):
    handler = _SlowTableHandler


# Whether the 7-7-1 table's step is under way and shows its whole seconds so far: "1 s".
TABLE_STEP_SHOWS_A_SECOND = """() => [...document.querySelectorAll('#loading-steps li.active')].some(
  (li) => li.textContent.includes('pdb-771') && /(^| · )1 s$/.test(li.querySelector('.size').textContent))"""


def test_nothing_moves_while_loading_or_solving_and_a_step_under_way_shows_its_seconds(browser):
    """No animation runs while the page loads or solves: one has the compositor make a frame 60
    times a second, CPU taken from the runtime's start and from a solve (bench/startup.md).
    A loading step under way shows its seconds so far instead, once a second."""
    server = _SlowTableServer(ROOT).start()
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        app = App(ctx.new_page(), server)
        app.page.goto(server.url + "index.html")
        app.page.wait_for_selector(".steps li.active", state="attached")  # a loading step under way
        assert app.state() == "loading"
        assert app.page.evaluate(RUNNING_ANIMATIONS) == [], "animations while loading"
        # the table's step (held back 3 s by the server) shows "1 s" for a second
        app.page.wait_for_function(TABLE_STEP_SHOWS_A_SECOND, polling="raf", timeout=60_000)
        app.wait_ready()
        assert app.page.evaluate(RUNNING_ANIMATIONS) == [], "animations once ready"
        # solving: the state set by hand (a solve ends too soon to look at)
        app.page.evaluate("() => { document.querySelector('#status').dataset.state = 'solving'; }")
        assert app.page.evaluate(RUNNING_ANIMATIONS) == [], "animations while solving"
    finally:
        ctx.close()
        server.stop()
