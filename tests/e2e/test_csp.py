"""The Content-Security-Policy: the app runs under it with no violation, and it blocks what it must.

The policy is index.html's ``<meta http-equiv="Content-Security-Policy">``; the service worker
(sw.js) sends the same policy as a header on the pages it serves (plus ``frame-ancestors
'none'``) and on the solver worker's script (a worker takes its policy from its own response,
never from the page).  The site is a fresh dist under ``/fifteen/`` (tests/e2e/hosting.py),
whose host also sends the page's policy as ``Content-Security-Policy-Report-Only`` with a
``report-uri``: whatever would violate it, in the page or in a worker, from the very first
request on, is reported to the host.  Violations are collected three ways: a
``securitypolicyviolation`` listener in every page (an init script) and in every worker
(attached when it starts), the console, and those reports.

* A normal session (first visit, solve, playback, copy and open a share link, reload under
  the service worker, solve, offline reload, solve) has ZERO violations.
* A probe page (test-only, served by the test host, never shipped) with the same policy proves
  the policy is enforced: its inline script and inline style are blocked (and seen by the
  same collectors); its module worker may compile WebAssembly, and under the service worker
  may not ``eval``; under the service worker a page of the site cannot be framed.
"""

from __future__ import annotations

import sys

import pytest

from .conftest import ROOT, App
from .hosting import PagesHost, built_dist
from .test_app import EXAMPLES, apply_tile_moves, goal, optimal_length, scramble

sys.path.insert(0, str(ROOT / "tools"))
import web_dist  # noqa: E402

PREFIX = "/fifteen/"
POLICY = web_dist.content_security_policy()

PROBE_HTML = f"""<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta http-equiv="Content-Security-Policy" content="{POLICY}" />
    <title>CSP probe</title>
    <script src="csp-probe.js"></script>
  </head>
  <body>
    <p id="styled" style="color: rgb(255, 0, 0)">An inline style attribute (must be ignored).</p>
    <script>window.inlineRan = true;</script>
  </body>
</html>
""".encode()

PROBE_JS = b"""// The probe page's own script (allowed: 'self'): a module worker, and optionally a frame.
window.probe = { externalRan: true };
const worker = new Worker("csp-probe-worker.js", { type: "module" });
worker.onmessage = (e) => { window.probe.worker = e.data; };
worker.onerror = (e) => { window.probe.worker = { error: String(e.message || e) }; };
if (new URLSearchParams(location.search).has("frame")) {
  addEventListener("DOMContentLoaded", () => {
    const frame = document.createElement("iframe");
    frame.id = "frame";
    frame.src = "index.html";
    frame.onload = () => {
      let doc = null;
      try { doc = frame.contentDocument; } catch (e) { doc = null; }
      window.probe.frame = doc && doc.querySelector("#solve-button") ? "loaded" : "blocked";
    };
    document.body.append(frame);
  });
}
"""

PROBE_WORKER_JS = b"""// The probe's module worker: may it eval? may it compile WebAssembly?
const out = { violations: [] };
self.addEventListener("securitypolicyviolation", (e) => out.violations.push(e.violatedDirective));
try { out.eval = String(eval("1 + 1")); } catch (e) { out.eval = e.name; }
try {
  await WebAssembly.compile(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]));
  out.wasm = "ok";
} catch (e) { out.wasm = e.name; }
setTimeout(() => postMessage(out), 200); // violation events are dispatched asynchronously
"""

PROBE_FILES = {
    PREFIX + "csp-probe.html": ("text/html; charset=utf-8", PROBE_HTML),
    PREFIX + "csp-probe.js": ("text/javascript", PROBE_JS),
    PREFIX + "csp-probe-worker.js": ("text/javascript", PROBE_WORKER_JS),
}

LISTENER = """
document.addEventListener("securitypolicyviolation", (e) =>
  window.reportCspViolation({page: location.pathname, directive: e.violatedDirective,
    blocked: e.blockedURI, source: e.sourceFile, line: e.lineNumber, disposition: e.disposition}));
"""
WORKER_LISTENER = """() => {
  self.cspViolations = [];
  self.addEventListener("securitypolicyviolation", (e) =>
    self.cspViolations.push({worker: self.location.pathname, directive: e.violatedDirective, blocked: e.blockedURI}));
}"""


class Collector:
    """Every CSP violation a context shows: page events, worker events, console lines."""

    def __init__(self, ctx):
        self.events: list[dict] = []
        self.console: list[str] = []
        self.workers = []
        ctx.expose_binding("reportCspViolation", lambda source, v: self.events.append(v))
        ctx.add_init_script(LISTENER)

    def watch(self, page) -> None:
        page.on("console", lambda m: self.console.append(m.text) if "Content Security Policy" in m.text else None)
        page.on("worker", self._attach)

    def _attach(self, worker) -> None:
        try:
            worker.evaluate(WORKER_LISTENER)
            self.workers.append(worker)
        except Exception:  # noqa: BLE001 - a worker that already ended has nothing to report
            pass

    def harvest(self) -> None:
        """Read the live workers' listeners (call before a reload ends them)."""
        for w in self.workers:
            try:
                self.events.extend(w.evaluate("() => self.cspViolations"))
            except Exception:  # noqa: BLE001
                pass
        self.workers.clear()


@pytest.fixture()
def host():
    h = PagesHost(
        built_dist(PREFIX, "gzip"),
        PREFIX,
        extra_files=PROBE_FILES,
        extra_headers={"Content-Security-Policy-Report-Only": f"{POLICY}; report-uri /csp-report"},
    ).start()
    yield h
    h.stop()


def _probe(page, host: PagesHost, query: str = "") -> dict:
    page.goto(host.url + "csp-probe.html" + query)
    page.wait_for_function("() => window.probe && window.probe.worker" + (" && window.probe.frame" if query else ""), timeout=30_000)
    return page.evaluate(
        "() => ({...window.probe, inlineRan: window.inlineRan === true, color: getComputedStyle(document.getElementById('styled')).color})"
    )


def test_probe_page_inline_script_is_blocked(browser, host):
    """Plain static host (no service worker yet): the meta policy blocks inline script and style;
    the module worker has no policy of its own (the host sends none), so WebAssembly compiles."""
    ctx = browser.new_context()
    try:
        seen = Collector(ctx)
        page = ctx.new_page()
        seen.watch(page)
        probe = _probe(page, host)
        assert probe["externalRan"], "the page's own script ('self') must run"
        assert not probe["inlineRan"], "an inline script ran under the policy"
        assert probe["color"] != "rgb(255, 0, 0)", "an inline style attribute applied"
        directives = {(e["directive"], e["disposition"]) for e in seen.events}
        assert ("script-src-elem", "enforce") in directives, seen.events
        assert ("style-src-attr", "enforce") in directives, seen.events
        assert probe["worker"]["wasm"] == "ok", probe
        # From a plain host the worker's response carries no policy: the page's meta does not reach it.
        assert probe["worker"]["eval"] == "2", probe
        page.wait_for_timeout(500)
        assert any("csp-probe.html" in str(r) for r in host.reports), "the host got no report of the inline script"
    finally:
        ctx.close()


def test_app_runs_under_its_policy_with_zero_violations(browser, host):
    ctx = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    try:
        seen = Collector(ctx)
        page = ctx.new_page()
        seen.watch(page)
        app = App(page, host)

        # First visit: the meta policy on the page; a plain host's worker.
        ex = EXAMPLES["korf55"]
        app.open("#tiles=" + ",".join(map(str, ex["tiles"])))
        sol = app.solve("auto")
        assert sol["length"] == ex["optimal"]
        page.click("#play-step")
        page.click("#play-end")
        assert app.board_tiles() == goal(4, 4)
        page.click("#play-start")
        page.fill("#play-speed", "5")
        page.click("#play-toggle")
        page.wait_for_function("n => document.querySelector('#play-counter').textContent === `${n} / ${n}`", arg=ex["optimal"])
        # Copy a share link, then open it.
        t34 = scramble(3, 4, "ULLU")
        app.set_position(t34, "3x4")
        page.click("#share-button")
        link = page.wait_for_function("() => navigator.clipboard.readText().then(t => t.includes('#tiles=') && t)").json_value()
        app.set_position(goal(3, 4), "3x4")
        page.goto(link)
        page.wait_for_function("want => document.querySelector('#board').dataset.tiles === want", arg=",".join(map(str, t34)))
        assert app.solve()["length"] == optimal_length(t34, 3, 4)
        page.wait_for_selector("html[data-offline=ready]", timeout=120_000, state="attached")
        seen.harvest()

        # Reload: now served by the service worker, with the policy as a header.
        resp = page.reload()
        app.wait_ready()
        csp = resp.headers.get("content-security-policy", "")
        assert POLICY in csp and "frame-ancestors 'none'" in csp, resp.headers
        assert page.evaluate("() => self.crossOriginIsolated")
        ex = EXAMPLES["korf12"]
        app.set_position(ex["tiles"])
        sol = app.solve("auto")
        assert sol["length"] == ex["optimal"]
        assert apply_tile_moves(ex["tiles"], 4, sol["moves"]) == goal(4, 4)
        seen.harvest()

        # Offline reload (the host stopped).
        host.stop()
        try:
            page.reload()
            app.wait_ready()
            tiles = scramble(3, 3, "ULULDRDL")
            app.set_position(tiles, "3x3")
            assert app.solve()["length"] == optimal_length(tiles, 3, 3)
            seen.harvest()
        finally:
            host.start()

        assert not seen.events, f"CSP violations during a normal session: {seen.events}"
        assert not seen.console, seen.console
        assert not host.reports, f"CSP reports during a normal session: {host.reports}"

        # The probe, now under the service worker: the same blocks, and the worker's policy.
        probe = _probe(page, host, "?frame=1")
        assert not probe["inlineRan"] and probe["color"] != "rgb(255, 0, 0)", probe
        assert probe["worker"]["wasm"] == "ok", probe  # 'wasm-unsafe-eval': what Pyodide needs
        assert probe["worker"]["eval"] == "EvalError", probe  # no 'unsafe-eval' in a worker it serves
        assert "script-src" in probe["worker"]["violations"], probe
        assert probe["frame"] == "blocked", "frame-ancestors 'none' did not stop framing"
        assert {e["directive"] for e in seen.events} >= {"script-src-elem", "style-src-attr"}, seen.events
        page.wait_for_timeout(500)
        assert any("csp-probe-worker.js" in str(r) for r in host.reports), host.reports
    finally:
        ctx.close()
