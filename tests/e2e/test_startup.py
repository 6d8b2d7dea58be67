"""Start-up: what a first visit and a reload fetch and when, and what the page says they downloaded.

Each test opens the site, served by its own server (so that the counts are this page's), in a
fresh browser context:

* A first visit downloads before Ready only the runtime, the solver package and the databases a
  first solve needs (the WD tables and the 5-5-5: at most 20 MB, counted by the server); the
  7-7-1 comes after Ready and is swapped in when it has arrived, the 6-6-3 only when a request
  names it.  A solve asked for at once is answered before the worker's background work (the
  7-7-1 handed over, the memory snapshot).  A reload right after Ready works offline.  A share
  link to an unsolvable position is refused at once, while the solver still loads.

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
import re
import threading
import time

import pytest

from .conftest import ROOT, SOLVE_ENABLED, WORK_TIMEOUT_MS, App, LoggingHandler, LoggingServer, SiteServer, _QuietHandler


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
    _wait_snapshot(app)  # the worker's background work: the 7-7-1 fetched after Ready
    assert not _twice(server.downloads), f"downloaded more than once: {_twice(server.downloads)}"
    # (the browser's own update check of the service worker script may ask again: from the HTTP
    # cache or answered 304, it downloads nothing, see above)
    asked = [p for p in server.requests if not p.startswith("/sw.js?")]
    assert not _twice(asked), f"asked for more than once: {_twice(asked)}"
    served = set(server.downloads)
    for path in ("/index.html", "/static/js/control/main.js", "/static/vendor/pyodide/pyodide.asm.wasm", "/static/db/pdb-771.f15"):
        assert path in served, f"{path} was not fetched at all: {sorted(served)}"
    assert "/static/db/pdb-663.f15" not in served, "the 6-6-3 is fetched only when asked for"
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
EXAMPLES = {e["id"]: e for e in json.loads((ROOT / "static/data/examples.json").read_text())["examples"]}


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
    # made once the 7-7-1 came (after Ready): the 6-6-3, never asked for, is not in it
    assert meta["files"] == {f: manifest[f] for f in ("pdb-771.f15", "pdb-555.f15", "wd-4x4.f15")}, meta
    assert meta["archive"] == json.loads((ROOT / "static/wheels/manifest.json").read_text())["archive_sha256"]
    assert meta["bytes"] > 20_000_000

    app.open()  # a reload: the runtime, the package and the databases resume from the snapshot
    steps = _loading(app)
    assert "resumed from the snapshot" in steps, steps
    assert steps.count("in the snapshot") == 3, steps
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
    assert "Database pdb-555.f15" in steps and "in the snapshot" not in steps, steps
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
    assert sorted(meta["files"]) == ["pdb-555.f15", "pdb-771.f15"], meta


# The page's running animations: [{target: "#id.class...", timing: animation-timing-function}].
RUNNING_ANIMATIONS = """() => document.getAnimations().filter((a) => a.playState === "running").map((a) => {
  const el = a.effect.target;
  const target = `${el.tagName.toLowerCase()}#${el.id}.${[...el.classList].join(".")}`;
  return { target, timing: getComputedStyle(el).animationTimingFunction };
})"""


class _SlowTableHandler(_QuietHandler):
    """Answers the 5-5-5 table's request (the first database handed over) 3 s late: its loading
    step stays under way that long on any machine."""

    def do_GET(self):
        if self.path.endswith("/pdb-555.f15"):
            time.sleep(3)
        super().do_GET()


class _SlowTableServer(SiteServer):
    handler = _SlowTableHandler


# Whether the 5-5-5 table's step is under way and shows its whole seconds so far: "1 s".
TABLE_STEP_SHOWS_A_SECOND = """() => [...document.querySelectorAll('#loading-steps li.active')].some(
  (li) => li.textContent.includes('pdb-555') && /(^| · )1 s$/.test(li.querySelector('.size').textContent))"""


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
        app.page.wait_for_function(TABLE_STEP_SHOWS_A_SECOND, polling="raf", timeout=WORK_TIMEOUT_MS)
        app.wait_ready()
        assert app.page.evaluate(RUNNING_ANIMATIONS) == [], "animations once ready"
        # solving: the state set by hand (a solve ends too soon to look at)
        app.page.evaluate("() => { document.querySelector('#status').dataset.state = 'solving'; }")
        assert app.page.evaluate(RUNNING_ANIMATIONS) == [], "animations while solving"
    finally:
        ctx.close()
        server.stop()


# ------------------------------------------------------------------ the first minute
class _GatedHandler(LoggingHandler):
    """A :class:`LoggingHandler` that holds the answer to a path ending with one of `server.gates`
    until the test sets that gate (at most 120 s)."""

    def send_head(self):
        for suffix, gate in self.server.gates.items():
            if self.path.split("?")[0].endswith(suffix):
                gate.wait(120)
        return super().send_head()


class _GatedServer(LoggingServer):
    handler = _GatedHandler

    def __init__(self, root, gates=()):
        super().__init__(root)
        self.gate_names = gates

    def start(self):
        super().start()
        self.httpd.gates = {name: threading.Event() for name in self.gate_names}
        return self

    def release(self, name: str) -> None:
        self.httpd.gates[name].set()


@pytest.fixture()
def gated(browser, request):
    """A fresh context on a server that holds back the files the test names (indirect parameter)."""
    server = _GatedServer(ROOT, request.param).start()
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    yield App(ctx.new_page(), server), server
    for name in server.gate_names:
        server.release(name)
    ctx.close()
    server.stop()


def _ready_epoch(app) -> float:
    """When the page said Ready (html[data-ready-seconds] from its opening), on the server's clock."""
    return app.page.evaluate("() => performance.timeOrigin / 1000 + Number(document.documentElement.dataset.readySeconds)")


def _menu(app) -> list[str]:
    return app.page.eval_on_selector_all("#bound-select option", "os => os.map((o) => `${o.value}: ${o.textContent}`)")


# The worker's messages as the page gets them (no progress reports): [type, stage, state, label, later].
RECORD_MESSAGES = """
window.__messages = [];
const NativeWorker = window.Worker;
window.Worker = class extends NativeWorker {
  constructor(...args) {
    super(...args);
    this.addEventListener("message", (e) => {
      const m = e.data || {};
      if (m.type === "progress" || (m.type === "loading" && m.state === "progress")) return;
      window.__messages.push([m.type, m.stage || null, m.state || null, m.label || null, !!m.later]);
    });
  }
};
"""

MB = 1_000_000


@pytest.mark.parametrize("gated", [("/pdb-771.f15",)], ids=["7-7-1 held"], indirect=True)
def test_a_first_visit_downloads_what_the_first_solve_needs_before_ready_and_the_rest_after(gated):
    """Before Ready: the runtime, the solver package, the WD tables and the 5-5-5 (the 7-7-1 is
    held back by the server: Ready does not wait for it).  A Solve at once is answered with the
    5-5-5, before the worker's background work; the 7-7-1, once it arrives, is swapped in (the
    bound menu says it is on its way, then offers it), and only then is the memory snapshot made.
    The 6-6-3 is fetched only when chosen."""
    app, server = gated
    app.page.add_init_script(RECORD_MESSAGES)
    app.open()
    ready = _ready_epoch(app)
    before = {path: n for t, path, n in server.log if t < ready}
    assert sum(before.values()) <= 20 * MB, f"{sum(before.values()) / MB:.1f} MB before Ready: {before}"
    assert {"/static/vendor/pyodide/pyodide.asm.wasm", "/static/db/pdb-555.f15", "/static/db/wd-4x4.f15"} <= set(before), sorted(before)
    assert not {"/static/db/pdb-771.f15", "/static/db/pdb-663.f15"} & set(before), sorted(before)
    menu = _menu(app)
    assert menu[0].startswith("auto: Strongest available (the 7-7-1 pattern database + reflection once it has arrived"), menu
    assert "pdb663: 6-6-3 pattern database + reflection (downloads 2.4 MB when chosen)" in menu, menu

    # a solve right away: the 5-5-5 answers it (the 7-7-1 is still held), nothing waits for it
    app.set_position(KORF_55.split(), "4x4")
    solution = app.solve("auto")
    assert solution["length"] == 41
    assert "5-5-5" in app.page.inner_text("#solution-meta")
    messages = app.page.evaluate("() => window.__messages")
    assert ["loading", "background", "done", "memory snapshot kept", True] not in messages, "the snapshot before the 7-7-1"

    server.release("/pdb-771.f15")
    _wait_snapshot(app)
    app.page.wait_for_function("() => window.__messages.some((m) => m[1] === 'background' && m[2] === 'done')", timeout=WORK_TIMEOUT_MS)
    messages = app.page.evaluate("() => window.__messages")
    order = [m[3] for m in messages if m[4] and m[2] == "done"]
    assert order == ["pdb-771.f15", "memory snapshot kept"], messages
    app.page.wait_for_function("() => !document.querySelector('#bound-select').textContent.includes('arriv')")
    menu = _menu(app)
    assert menu[:2] == ["auto: Strongest available", "pdb771: 7-7-1 pattern database + reflection"], menu
    korf12 = EXAMPLES["korf12"]
    app.set_position(korf12["tiles"], "4x4")
    assert app.solve("auto")["length"] == korf12["optimal"]
    assert "7-7-1" in app.page.inner_text("#solution-meta")

    # the 6-6-3 only when chosen, once
    assert "/static/db/pdb-663.f15" not in [p for _, p, _ in server.log]
    app.set_position(KORF_55.split(), "4x4")
    assert app.solve("pdb663")["length"] == 41
    assert "6-6-3" in app.page.inner_text("#solution-meta")
    asked = [p for _, p, _ in server.log]
    assert asked.count("/static/db/pdb-663.f15") == 1 and asked.count("/static/db/pdb-771.f15") == 1, asked


@pytest.mark.parametrize("gated", [("/pdb-771.f15", "/explore-2x4.f15")], ids=["precache held"], indirect=True)
def test_a_reload_right_after_ready_works_offline(gated):
    """The service worker serves the page from the moment it is Ready, before its precache has
    cached the page's files (held back here on the first file it must download, another board's
    table, which comes before them in build-info's order) and before the 7-7-1 came (held back
    too): the copies the solver worker kept and the browser's HTTP cache serve them."""
    app, server = gated
    app.open()
    server.stop()
    try:
        app.open()  # the server is gone: only the service worker answers
        assert app.page.evaluate("() => !!navigator.serviceWorker.controller")
        app.set_position(KORF_55.split(), "4x4")
        assert app.solve("auto")["length"] == 41
        app.set_position("1 2 3 4 5 6 0 7 8".split(), "3x3")
        assert app.solve("auto")["length"] == 2
    finally:
        server.start()


UNSOLVABLE_KORF_55 = "5 10 14 4 6 12 11 1 9 0 15 7 13 2 8 3".replace("13 2", "2 13")  # two tiles swapped


# The status line while loading: the download so far in MB (or KB) and %.
DOWNLOAD_STATUS = r"Loading the [a-zA-Z ]+… [\d.]+ (B|kB|MB) of [\d.]+ MB \(\d+ %\)"


@pytest.mark.parametrize("gated", [("/pyodide.asm.wasm",)], ids=["runtime held"], indirect=True)
def test_an_unsolvable_share_link_is_refused_at_once(gated):
    """A link to an unsolvable 4x4 position is refused by the page's own parity rule while the
    runtime is still held back by the server: the notice and the tiles field say why at once.
    Meanwhile the status line says how far the download has come."""
    app, _server = gated
    app.page.goto(app.site.url + "index.html#tiles=" + UNSOLVABLE_KORF_55.replace(" ", ","))
    app.page.wait_for_function("() => document.querySelector('#position-notice')?.textContent.includes('refused')", timeout=30_000)
    assert app.state() == "loading"
    status = "re => new RegExp(re).test(document.querySelector('#status').textContent)"
    app.page.wait_for_function(status, arg=DOWNLOAD_STATUS, timeout=30_000)
    assert "can't be solved" in app.page.inner_text("#tiles-error"), app.page.inner_text("#tiles-error")
    assert app.page.input_value("#tiles-input").split() == UNSOLVABLE_KORF_55.split()
    assert app.board_tiles() != [int(t) for t in UNSOLVABLE_KORF_55.split()], "the board keeps a solvable position"


# Every text the status line shows, in window.__statuses, and when the page last got a message
# of the solver's load (progress too), in window.__lastLoading (performance.now()).
RECORD_STATUSES = """
window.__statuses = [];
new MutationObserver(() => {
  const t = document.querySelector('#status')?.textContent.trim();
  if (t !== undefined && t !== window.__statuses.at(-1)) window.__statuses.push(t);
}).observe(document, { childList: true, subtree: true, characterData: true });
window.__lastLoading = 0;
const NativeWorker = window.Worker;
window.Worker = class extends NativeWorker {
  constructor(...args) {
    super(...args);
    this.addEventListener("message", (e) => {
      if (e.data?.type === "loading") window.__lastLoading = performance.now();
    });
  }
};
"""


@pytest.mark.parametrize("gated", [("/pyodide.asm.wasm", "/static/build-info.json")], ids=["runtime and sizes held"], indirect=True)
def test_the_download_figure_comes_when_the_sizes_come_after_the_runtime_began(gated):
    """The files' sizes (build-info.json) may come after the load's first steps (a slow answer
    under load): the status line says what came so far, then its share of the whole as soon as
    the sizes come, not at the runtime's next message (none comes while its file is held).
    No share ever passes 100 %."""
    app, server = gated
    app.page.add_init_script(RECORD_STATUSES)
    app.page.goto(app.site.url + "index.html")
    status = "re => new RegExp(re).test(document.querySelector('#status').textContent.trim())"
    app.page.wait_for_function(status, arg=r"^Loading the [a-zA-Z ]+… [\d.]+ (B|kB|MB)$", timeout=30_000)
    # the sizes come once the load is quiet (the runtime's file held): no message of the load
    # comes after them to give the status line its figure
    quiet = "() => window.__lastLoading > 0 && performance.now() - window.__lastLoading > 2000"
    app.page.wait_for_function(quiet, timeout=30_000)
    assert re.fullmatch(r"Loading the [a-zA-Z ]+… [\d.]+ (B|kB|MB)", app.page.evaluate("() => window.__statuses.at(-1)"))
    server.release("/static/build-info.json")
    app.page.wait_for_function(status, arg=DOWNLOAD_STATUS, timeout=30_000)
    assert app.state() == "loading"
    statuses = app.page.evaluate("() => window.__statuses")
    shares = [int(m) for t in statuses for m in re.findall(r"\((\d+) %\)", t)]
    assert shares and max(shares) <= 100, statuses


def test_a_page_opened_on_another_size_gets_the_7_7_1_when_it_turns_to_4x4(fresh):
    """The background work is per shape: a page opened on a 3x3 fetches no 7-7-1 (its precache
    takes the other shapes' first databases, for offline use) until it shows a 4x4, then the
    4x4's first databases are handed over and, after them, the 7-7-1."""
    app, server = fresh
    app.open("#tiles=1,2,3,4,5,6,0,7,8")
    assert app.solve("auto")["length"] == 2
    app.page.wait_for_selector("html[data-offline=ready]", state="attached", timeout=180_000)
    assert "/static/db/pdb-771.f15" not in server.requests, server.requests
    app.set_position(KORF_55.split(), "4x4")
    arrived = "() => { const o = document.querySelector('#bound-select option[value=pdb771]'); return !!o && !/\\(/.test(o.textContent); }"
    app.page.wait_for_function(arrived, timeout=120_000)
    assert app.solve("auto")["length"] == 41
    assert "7-7-1" in app.page.inner_text("#solution-meta")
