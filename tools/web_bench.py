#!/usr/bin/env python3
"""Measure the browser app: start-up (cold and warm, against a bare Pyodide page), a first visit on a
slow link, and solve times.

    .venv/bin/python tools/web_bench.py --startup [--reps 3] [--settle 2] [--incognito]
    .venv/bin/python tools/web_bench.py --first-visit [--reps 3] [--link 20:40]
    .venv/bin/python tools/web_bench.py [korf55 korf79 korf12 korf1 ...]

Serves the repository root on a free port and drives headless Chromium through the same hooks
as the e2e tests.  Needs `make web` first.

``--startup`` measures side by side, in one run, each repetition in a fresh browser profile:

* bare: a tiny page (written to a temporary directory, never part of the site) whose module
  worker only calls ``loadPyodide()`` from the same vendored files; cold (a fresh profile)
  and warm (a reload in the same profile);
* app: ``index.html`` until Solve is enabled (as ``App.wait_ready`` checks it), cold and
  warm, with each phase as the page reports it (``html[data-phases]``: runtime, solver
  install, databases, warm-up);
* the requests of the app's first visit, counted per URL by the server (any URL asked for more
  than once is listed), and the bytes the server sent during the warm reload.

It prints every repetition and the medians, and the ratio app/bare cold and warm, twice: as the
harness sees it (from ``goto`` until a MutationObserver in the page sees it ready) and by the
page's own clock (``html[data-ready-seconds]``: from the navigation's start to ready, when
Solve is enabled, or the bare worker's message arrives).  A profile is a user-data directory
on disk (Chromium keeps compiled WebAssembly only there); with ``--incognito`` each
repetition is a new in-memory context of one browser instead.
``--isolated-host`` serves every response with COOP/COEP, as a host configured for
cross-origin isolation does: the first visit is then isolated like the reloads under the
service worker (whose headers make the page isolated from the second visit on).

``--first-visit`` measures, each repetition in a fresh profile on a link emulated with the
DevTools protocol (``Network.emulateNetworkConditions``, default ``--link 20:40``: 20 Mbit/s down,
40 ms of latency; the page's dedicated workers share its throttling), the bare page until
Pyodide is ready and the app opened with a share link to Korf's instance #1 (57 moves) until
it is Ready and until Solve, clicked the moment it is enabled, has shown the solution; with the
bytes the server sent for requests that arrived before Ready, and the load average.

The bare page is ``bench/fixtures/bare-pyodide/`` (served at ``bench-bare/``, never part of the
site).
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.e2e.conftest import (  # noqa: E402
    SETTLED_STATES,
    SOLVE_ENABLED,
    App,
    LoggingServer,
    SiteServer,
    _QuietHandler,
    chromium_options,
    launch_chromium,
)

TIMEOUT_MS = 300_000
KINDS = ("cold", "warm", "warm2")  # a first visit, a reload, a second reload (the page then isolated both times)
SETTLE_S = 2.0  # idle time before a warm reload (the browser writes its caches): --settle

BARE_PAGE = ROOT / "bench" / "fixtures" / "bare-pyodide"  # index.html, boot.js, worker.mjs
KORF_1 = "13 6 8 12 15 14 0 10 11 7 4 5 9 1 3 2"  # Korf's instance #1: 57 moves


class _IsolatingHandler(_QuietHandler):
    """Sends COOP/COEP on every response, as a host configured for cross-origin isolation does."""

    def end_headers(self):
        self.send_header("Cross-Origin-Opener-Policy", "same-origin")
        self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        super().end_headers()


class IsolatingServer(SiteServer):
    handler = _IsolatingHandler


def bare_site(tmp: Path) -> Path:
    """A site root: the repository's files (symlinked) plus bench-bare/, a bare Pyodide page."""
    root = tmp / "site"
    root.mkdir()
    for entry in ROOT.iterdir():
        if entry.name in ("index.html", "sw.js", "static"):
            (root / entry.name).symlink_to(entry)
    (root / "bench-bare").symlink_to(BARE_PAGE)
    return root


class Profiles:
    """Fresh browser profiles: persistent user-data directories (default) or incognito contexts."""

    def __init__(self, p, tmp: Path, incognito: bool):
        self.p, self.tmp, self.incognito, self.n = p, tmp, incognito, 0
        self.browser = launch_chromium(p) if incognito else None

    @contextlib.contextmanager
    def fresh(self):
        self.n += 1
        if self.browser is not None:
            ctx = self.browser.new_context(viewport={"width": 1280, "height": 900})
        else:
            profile = str(self.tmp / f"profile-{self.n}")
            ctx = self.p.chromium.launch_persistent_context(profile, viewport={"width": 1280, "height": 900}, **chromium_options())
        try:
            yield ctx
        finally:
            ctx.close()

    def close(self):
        if self.browser:
            self.browser.close()


def run_bare(profiles: Profiles, server: SiteServer, settle_s: float = SETTLE_S) -> dict:
    out = {}
    with profiles.fresh() as ctx:
        page = ctx.pages[0] if ctx.pages else ctx.new_page()
        for kind in KINDS:
            out[kind] = open_until(page, server.url + "bench-bare/index.html", BARE_READY)
            out[f"{kind}_load"] = float(page.get_attribute("html", "data-ready"))
            out[f"{kind}_wasm"] = float(page.get_attribute("html", "data-wasm"))
            out[f"{kind}_clock"] = page_clock(page)
            time.sleep(settle_s)
    return out


# When each page is ready, as the harness sees it: a MutationObserver in the page resolves the
# moment the predicate holds.  (wait_for_selector polls after 0, 20, 50, 100, 100 ms and then
# every 500 ms, so the time it saw depended on where ready fell between its polls, up to half a
# second late; polling on every animation frame instead has the page render ~60 frames a second,
# CPU taken from the start being measured.)
BARE_READY = "() => document.documentElement.hasAttribute('data-ready')"
# the app: what App.wait_ready waits for (a settled status, and Solve enabled unless an error)
APP_READY = f"""() => {{
  const state = document.querySelector('#status')?.dataset.state;
  return state === 'error' || ({json.dumps(SETTLED_STATES)}.includes(state) && !!document.querySelector({json.dumps(SOLVE_ENABLED)}));
}}"""
WAIT_UNTIL = """() => new Promise((resolve, reject) => {
  const ready = %s;
  const check = () => {
    if (!ready()) return false;
    observer.disconnect();
    resolve(true);
    return true;
  };
  const observer = new MutationObserver(check);
  if (!check()) observer.observe(document, { attributes: true, childList: true, subtree: true, characterData: true });
  setTimeout(() => reject(new Error("not ready after %d ms")), %d);
})"""


def open_until(page, url: str, ready: str) -> float:
    """Seconds from asking for `url` until the predicate `ready` (JavaScript) holds."""
    t0 = time.monotonic()
    page.goto(url)
    page.evaluate(WAIT_UNTIL % (ready, TIMEOUT_MS, TIMEOUT_MS))
    return time.monotonic() - t0


def open_app(page, server: SiteServer) -> float:
    seconds = open_until(page, server.url + "index.html", APP_READY)
    state = page.get_attribute("#status", "data-state")
    assert state != "error", f"page reported an error: {page.inner_text('#status')}"
    return seconds


def page_clock(page) -> float:
    """Seconds from the page's opening (its navigation start) to ready, by the page's own clock
    (html[data-ready-seconds]: the bare page's READY, the app's first READY, when Solve is enabled)."""
    return float(page.get_attribute("html", "data-ready-seconds"))


def phases(page) -> dict:
    attr = page.get_attribute("html", "data-phases") or ""
    return {k: float(v) for k, v in (item.split("=") for item in attr.split())}


def wait_warmup(page) -> None:
    with contextlib.suppress(Exception):
        page.wait_for_function("() => /warmup=/.test(document.documentElement.dataset.phases || '')", timeout=60_000)


def run_app(profiles: Profiles, server: SiteServer, settle_s: float = SETTLE_S) -> dict:
    out: dict = {}
    with profiles.fresh() as ctx:
        page = ctx.pages[0] if ctx.pages else ctx.new_page()
        server.reset_counts()
        out["cold"] = open_app(page, server)
        out["cold_clock"] = page_clock(page)
        wait_warmup(page)
        out["cold_phases"] = phases(page)
        page.wait_for_selector("html[data-offline=ready]", state="attached", timeout=TIMEOUT_MS)
        time.sleep(settle_s)
        out["first_requests"] = server.requests
        out["first_downloads"] = server.downloads
        out["first_bytes"] = server.bytes_sent
        server.reset_counts()
        out["warm"] = open_app(page, server)
        out["warm_clock"] = page_clock(page)
        wait_warmup(page)
        out["warm_phases"] = phases(page)
        out["warm_requests"] = server.requests
        out["warm_bytes"] = server.bytes_sent
        out["warm_bytes_by_path"] = server.bytes_by_path
        out["warm_build_line"] = page.inner_text("#build-line")
        out["warm_loading"] = page.inner_text("#loading-steps")
        time.sleep(settle_s)
        out["warm2"] = open_app(page, server)
        out["warm2_clock"] = page_clock(page)
        wait_warmup(page)
        out["warm2_phases"] = phases(page)
    return out


def med(values) -> float:
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else float("nan")


def startup(reps: int, incognito: bool, isolated_host: bool = False, settle_s: float = SETTLE_S) -> None:
    with tempfile.TemporaryDirectory(prefix="fifteen-bench-") as tmpname:
        tmp = Path(tmpname)
        server = (IsolatingServer if isolated_host else SiteServer)(bare_site(tmp)).start()
        bare_runs, app_runs = [], []
        try:
            with sync_playwright() as p:
                profiles = Profiles(p, tmp, incognito)
                for i in range(reps):
                    # alternate the order, so that a drift of the machine's load hits both alike
                    if i % 2 == 0:
                        bare_runs.append(run_bare(profiles, server, settle_s))
                        app_runs.append(run_app(profiles, server, settle_s))
                    else:
                        app_runs.append(run_app(profiles, server, settle_s))
                        bare_runs.append(run_bare(profiles, server, settle_s))
                    b, a = bare_runs[-1], app_runs[-1]
                    print(
                        f"rep {i + 1}: bare cold {b['cold']:.2f} s (loadPyodide {b['cold_load']:.2f}, wasm {b['cold_wasm']:.2f}) "
                        f"warm {b['warm']:.2f} s (loadPyodide {b['warm_load']:.2f}, wasm {b['warm_wasm']:.2f}) | "
                        f"app cold {a['cold']:.2f} s {a['cold_phases']} "
                        f"warm {a['warm']:.2f} s {a['warm_phases']} warm2 {a['warm2']:.2f} s {a['warm2_phases']}; "
                        f"bare warm2 {b['warm2']:.2f} s; by the page's clock: "
                        + ", ".join(f"{k} bare {b[k + '_clock']:.2f} app {a[k + '_clock']:.2f}" for k in KINDS),
                        flush=True,
                    )
                profiles.close()
        finally:
            server.stop()
    where = "incognito contexts" if incognito else "fresh on-disk profiles"
    print(f"\nmedians of {reps} ({where}{', a host sending COOP/COEP' if isolated_host else ''}, {settle_s:g} s idle before a reload):")
    for kind in KINDS:
        bare, app = med(r[kind] for r in bare_runs), med(r[kind] for r in app_runs)
        ph = {k: med(r[f"{kind}_phases"].get(k) for r in app_runs) for k in ("page", "runtime", "solver", "databases", "warmup")}
        print(
            f"  {kind}: bare {bare:.2f} s (loadPyodide {med(r[f'{kind}_load'] for r in bare_runs):.2f} s, "
            f"its instantiateStreaming {med(r[f'{kind}_wasm'] for r in bare_runs):.2f} s), "
            f"app {app:.2f} s, app/bare {app / bare:.2f}; app phases: " + ", ".join(f"{k} {v:.2f} s" for k, v in ph.items())
        )
        bare_clock, app_clock = med(r[f"{kind}_clock"] for r in bare_runs), med(r[f"{kind}_clock"] for r in app_runs)
        print(
            f"    by the page's clock (opening to ready): bare {bare_clock:.2f} s, app {app_clock:.2f} s, "
            f"app/bare {app_clock / bare_clock:.2f}"
        )
    last = app_runs[-1]
    asked = {u: n for u, n in collections.Counter(last["first_requests"]).items() if n > 1}
    sent = {u: n for u, n in collections.Counter(last["first_downloads"]).items() if n > 1}
    print(
        f"  first visit: {len(last['first_requests'])} requests, {med(r['first_bytes'] for r in app_runs) / 1e6:.1f} MB; "
        f"URLs downloaded more than once: {sent or 'none'}; asked for more than once: {asked or 'none'}"
    )
    print(
        f"  warm reload: {med(r['warm_bytes'] for r in app_runs) / 1e3:.0f} kB from the server "
        f"({len(last['warm_requests'])} requests: {sorted(set(last['warm_requests']))}); "
        f"build line: {last['warm_build_line']!r}; loading card: {last['warm_loading']!r}"
    )


# The app's first visit: Solve clicked by the page itself the moment it is enabled (no harness
# latency), and the moment the solution is shown (window.__solvedAt, seconds since the opening).
CLICK_WHEN_READY = f"""
new MutationObserver((_, observer) => {{
  const solve = document.querySelector({json.dumps(SOLVE_ENABLED)});
  if (!solve || window.__clicked) return;
  window.__clicked = performance.now() / 1000;
  solve.click();
  new MutationObserver((_, seen) => {{
    if (document.querySelector("#status")?.dataset.state !== "solved") return;
    window.__solvedAt = performance.now() / 1000;
    seen.disconnect();
  }}).observe(document, {{ subtree: true, attributes: true, attributeFilter: ["data-state"] }});
  observer.disconnect();
}}).observe(document, {{ subtree: true, childList: true, attributes: true }});
"""


def throttle(ctx, page, mbps: float, latency_ms: float) -> None:
    """Emulate a link of `mbps` Mbit/s down (and up) with `latency_ms` of latency for `page` (and its workers)."""
    cdp = ctx.new_cdp_session(page)
    cdp.send("Network.enable")
    rate = mbps * 1e6 / 8
    conditions = {"offline": False, "latency": latency_ms, "downloadThroughput": rate, "uploadThroughput": rate}
    cdp.send("Network.emulateNetworkConditions", conditions)


def first_visit_bare(profiles: Profiles, server: SiteServer, link: tuple[float, float]) -> dict:
    with profiles.fresh() as ctx:
        page = ctx.pages[0] if ctx.pages else ctx.new_page()
        throttle(ctx, page, *link)
        seconds = open_until(page, server.url + "bench-bare/index.html", BARE_READY)
        return {"harness": seconds, "ready": page_clock(page), "load": float(page.get_attribute("html", "data-ready"))}


def first_visit_app(profiles: Profiles, server: LoggingServer, link: tuple[float, float]) -> dict:
    with profiles.fresh() as ctx:
        page = ctx.pages[0] if ctx.pages else ctx.new_page()
        throttle(ctx, page, *link)
        page.add_init_script(CLICK_WHEN_READY)
        server.clear_log()
        page.goto(server.url + "index.html#tiles=" + KORF_1.replace(" ", ","))
        page.wait_for_function("() => window.__solvedAt", timeout=TIMEOUT_MS)
        ready = page_clock(page)
        epoch = page.evaluate("() => performance.timeOrigin / 1000") + ready
        length = int(page.get_attribute("#solution", "data-length"))
        assert length == 57, f"Korf #1 solved in {length} moves"
        return {
            "ready": ready,
            "solved": page.evaluate("() => window.__solvedAt"),
            "bytes_before_ready": server.bytes_before(epoch),
            "phases": phases(page),
            "meta": page.inner_text("#solution-meta"),
        }


def first_visit(reps: int, link: tuple[float, float]) -> None:
    with tempfile.TemporaryDirectory(prefix="fifteen-bench-") as tmpname:
        tmp = Path(tmpname)
        server = LoggingServer(bare_site(tmp)).start()
        bare_runs: list[dict] = []
        app_runs: list[dict] = []
        try:
            with sync_playwright() as p:
                profiles = Profiles(p, tmp, False)
                for i in range(reps):
                    first, second = (first_visit_bare, first_visit_app) if i % 2 == 0 else (first_visit_app, first_visit_bare)
                    for run in (first, second):
                        (bare_runs if run is first_visit_bare else app_runs).append(run(profiles, server, link))
                    b, a = bare_runs[-1], app_runs[-1]
                    print(
                        f"rep {i + 1}: bare ready {b['ready']:.2f} s (loadPyodide {b['load']:.2f}) | app ready {a['ready']:.2f} s, "
                        f"Korf #1 solved {a['solved']:.2f} s ({a['solved'] / b['ready']:.2f}x bare), "
                        f"{a['bytes_before_ready'] / 1e6:.1f} MB before Ready, phases {a['phases']}; {a['meta']}; load {os.getloadavg()}",
                        flush=True,
                    )
        finally:
            server.stop()
    bare, ready, solved = med(r["ready"] for r in bare_runs), med(r["ready"] for r in app_runs), med(r["solved"] for r in app_runs)
    print(
        f"\nmedians of {reps} first visits (fresh on-disk profiles, {link[0]:g} Mbit/s, {link[1]:g} ms): "
        f"bare Pyodide ready {bare:.2f} s; app Ready {ready:.2f} s ({ready / bare:.2f}x), "
        f"Korf #1 solved {solved:.2f} s ({solved / bare:.2f}x); "
        f"bytes before Ready {med(r['bytes_before_ready'] for r in app_runs) / 1e6:.1f} MB; load average {os.getloadavg()}"
    )


def solves(ids: list[str]) -> None:
    examples = {e["id"]: e for e in json.loads((ROOT / "static/data/examples.json").read_text())["examples"]}
    ids = ids or ["korf55", "korf79", "korf12", "korf1"]
    server = SiteServer(ROOT).start()
    try:
        with sync_playwright() as p:
            browser = launch_chromium(p)
            ctx = browser.new_context(viewport={"width": 1280, "height": 900})
            page = ctx.new_page()

            app = App(page, server)
            cold = app.open()
            page.wait_for_selector("html[data-offline=ready]", state="attached", timeout=120_000)
            first_visit = server.bytes_sent
            before = server.bytes_sent
            warm = app.open()  # reload: HTTP cache + service worker
            warm_bytes = server.bytes_sent - before
            print(
                f"page ready: cold {cold:.1f} s, warm {warm:.1f} s; first visit downloaded {first_visit / 1e6:.1f} MB, "
                f"reload {warm_bytes / 1e3:.0f} kB"
            )
            for ex_id in ids:
                ex = examples[ex_id]
                app.set_position(ex["tiles"], ex["shape"])
                t0 = time.monotonic()
                sol = app.solve("auto", timeout=3_600_000)
                wall = time.monotonic() - t0
                meta = page.inner_text("#solution-meta")
                ok = "ok" if sol["length"] == ex["optimal"] else f"WRONG (want {ex['optimal']})"
                print(f"{ex['name']:<24} {sol['length']:>3} moves {ok:<4} {wall:7.1f} s wall   {meta}")
            browser.close()
    finally:
        server.stop()


def main(argv: list[str]) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("ids", nargs="*", help="examples to solve (static/data/examples.json ids)")
    ap.add_argument("--startup", action="store_true", help="measure start-up: bare Pyodide page vs the app, cold and warm")
    ap.add_argument("--reps", type=int, default=3, help="repetitions of --startup (default 3; medians are printed)")
    ap.add_argument(
        "--settle",
        type=float,
        default=SETTLE_S,
        help=f"idle seconds before each reload, for the bare page and the app alike (default {SETTLE_S}): Chromium writes "
        "a wasm's compiled code to its cache in the background once the code is optimised, which a busy page delays",
    )
    ap.add_argument("--incognito", action="store_true", help="--startup in incognito contexts instead of on-disk profiles")
    ap.add_argument(
        "--isolated-host",
        action="store_true",
        help="--startup with a server that sends COOP/COEP (the first visit is cross-origin isolated too)",
    )
    ap.add_argument(
        "--first-visit",
        action="store_true",
        help="a first visit on an emulated link: bare Pyodide ready vs the app's Ready and Korf #1 solved",
    )
    ap.add_argument("--link", default="20:40", help="--first-visit's link: MBIT_PER_S:LATENCY_MS (default 20:40)")
    args = ap.parse_args(argv)
    if args.first_visit:
        mbps, latency = (float(x) for x in args.link.split(":"))
        first_visit(args.reps, (mbps, latency))
    elif args.startup:
        startup(args.reps, args.incognito, args.isolated_host, args.settle)
    else:
        solves(args.ids)


if __name__ == "__main__":
    main(sys.argv[1:])
