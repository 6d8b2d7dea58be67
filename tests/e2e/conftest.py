"""Fixtures for the browser end-to-end tests (Playwright, sync API, headless Chromium).

* ``site`` — the repository root served over HTTP on a free port by a
  restartable in-process server (the offline test stops and restarts it).
* ``browser`` — Chromium: ``$FIFTEEN_CHROMIUM``, else Debian's ``/usr/bin/chromium``,
  else Playwright's own.  When no Chromium can be launched every browser test
  FAILS, saying how to install one (``make browser``): a suite that skips is not
  green.  A developer without a browser may set ``FIFTEEN_SKIP_E2E=1`` to skip
  them instead; never the default, and ignored under CI (``CI`` set).
* ``app`` — ONE page shared by the whole session, loaded once: Pyodide starts
  once, and the tests change positions through the share-link hash and the
  text field, which never reloads the page.

Screenshots go to ``test-results/`` (git-ignored).
"""

from __future__ import annotations

import functools
import http.server
import json
import math
import os
import shutil
import socket
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RESULTS = Path(os.environ.get("FIFTEEN_RESULTS") or ROOT / "test-results")  # screenshots
READY_TIMEOUT_MS = 180_000
#: How long a test waits for a state that comes from the worker's work (a board's tables loaded,
#: its bounds shown, a first answer): seconds on a quiet machine, a minute or more on a loaded
#: 2-core one. A safety net, not a measurement: a broken feature never reaches the state.
WORK_TIMEOUT_MS = 180_000

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".webmanifest": "application/manifest+json",
        ".mjs": "text/javascript",
        ".js": "text/javascript",
        ".whl": "application/octet-stream",
        ".f15": "application/octet-stream",
    }

    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass

    def send_head(self):
        # every request for a file, counted by path (query kept): tests and tools/web_bench.py
        # check that no file is fetched twice
        with self.server.lock:
            self.server.requests.append(self.path)
        return super().send_head()

    def copyfile(self, source, outputfile):
        before = source.tell()
        super().copyfile(source, outputfile)
        sent = source.tell() - before
        with self.server.lock:
            self.server.downloads.append(self.path)
            self.server.bytes_sent += sent
            path = self.path.split("?")[0]
            self.server.bytes_by_path[path] = self.server.bytes_by_path.get(path, 0) + sent

    def handle(self):
        try:
            super().handle()
        except (ConnectionResetError, BrokenPipeError):
            pass


def bind_http_server(port: int, handler) -> http.server.ThreadingHTTPServer:
    """A threading HTTP server on 127.0.0.1:*port* (0: any free port), retried for 5 s while the
    port is still held by a server a previous test stopped."""
    for _ in range(50):
        try:
            httpd = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
            break
        except OSError:
            time.sleep(0.1)
    else:
        raise RuntimeError(f"port {port} stays busy")
    httpd.daemon_threads = True
    return httpd


class SiteServer:
    """A static file server that can be stopped and started again on the same port."""

    handler: type[http.server.SimpleHTTPRequestHandler] = _QuietHandler

    def __init__(self, root: Path, port: int | None = None):
        self.root = Path(root)
        self.port = port or _free_port()
        self.httpd: http.server.ThreadingHTTPServer | None = None
        self.thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def start(self) -> SiteServer:
        self.httpd = bind_http_server(self.port, functools.partial(self.handler, directory=str(self.root)))
        self.httpd.bytes_sent = 0
        self.httpd.bytes_by_path = {}
        self.httpd.requests = []
        self.httpd.downloads = []
        self.httpd.lock = threading.Lock()
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()
        return self

    @property
    def bytes_sent(self) -> int:
        """Bytes of file bodies served since the last start()."""
        return self.httpd.bytes_sent if self.httpd else 0

    @property
    def requests(self) -> list[str]:
        """The paths (with their queries) of every GET or HEAD since the last start(), in order."""
        return list(self.httpd.requests) if self.httpd else []

    @property
    def downloads(self) -> list[str]:
        """The paths (with their queries) of every file body sent since the last start() (a request
        answered 304 Not Modified, or HEAD, sends none)."""
        return list(self.httpd.downloads) if self.httpd else []

    @property
    def bytes_by_path(self) -> dict[str, int]:
        """Bytes of file bodies served since the last start(), per path (no query)."""
        return dict(self.httpd.bytes_by_path) if self.httpd else {}

    def reset_counts(self) -> None:
        """Forget the requests and bytes counted so far."""
        if self.httpd:
            with self.httpd.lock:
                self.httpd.requests.clear()
                self.httpd.downloads.clear()
                self.httpd.bytes_by_path.clear()
                self.httpd.bytes_sent = 0

    def stop(self) -> None:
        if self.httpd:
            self.httpd.shutdown()
            self.httpd.server_close()
            self.httpd = None


class LoggingHandler(_QuietHandler):
    """Logs each request's arrival (wall clock, as the page's performance.timeOrigin) and the bytes sent for it."""

    def send_head(self):
        self.arrived = time.time()
        return super().send_head()

    def copyfile(self, source, outputfile):
        before = source.tell()
        super().copyfile(source, outputfile)
        with self.server.lock:
            self.server.log.append((self.arrived, self.path.split("?")[0], source.tell() - before))


class LoggingServer(SiteServer):
    """A :class:`SiteServer` that keeps, for each request, when it arrived, its path and the bytes sent (``log``)."""

    handler: type[http.server.SimpleHTTPRequestHandler] = LoggingHandler

    def start(self):
        super().start()
        self.httpd.log = []
        return self

    @property
    def log(self) -> list[tuple[float, str, int]]:
        with self.httpd.lock:
            return list(self.httpd.log)

    def bytes_before(self, epoch: float) -> int:
        """Bytes sent for the requests that arrived before `epoch` (time.time())."""
        with self.httpd.lock:
            return sum(n for t, _, n in self.httpd.log if t < epoch)

    def clear_log(self) -> None:
        with self.httpd.lock:
            self.httpd.log.clear()


def copy_site(tmp: Path, skip_assets=()) -> tuple[Path, dict]:
    """A copy of the site in *tmp* (symlinks, except ``static/db``; every top-level entry the build lists:
    ``index.html``, ``sw.js``, ``examples/``...) for tests that serve a changed database directory.
    Links every built asset but those named in *skip_assets*; returns the new
    ``static/db`` directory and the manifest (not yet written: the caller edits and writes it)."""
    info = json.loads((ROOT / "static/build-info.json").read_text())
    for name in sorted({path.split("/")[0] for path in info["files"]} - {"static"}):  # index.html, sw.js, examples...
        os.symlink(ROOT / name, tmp / name)
    static = tmp / "static"
    static.mkdir()
    for entry in (ROOT / "static").iterdir():
        if entry.name != "db":
            os.symlink(entry, static / entry.name)
    db = static / "db"
    db.mkdir()
    manifest_path = ROOT / "static/db/manifest.json"
    manifest = json.loads(manifest_path.read_text()) if manifest_path.exists() else {"format": 1, "assets": []}
    for a in manifest["assets"]:
        src = ROOT / "static/db" / a["file"]
        if src.exists() and a["file"] not in skip_assets:
            os.symlink(src, db / a["file"])
    return db, manifest


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _check_built() -> None:
    needed = [
        "index.html",
        "static/vendor/pyodide/pyodide.mjs",
        "static/vendor/pyodide/pyodide.asm.wasm",
        "static/wheels/manifest.json",
        "static/build-info.json",
    ]
    missing = [p for p in needed if not (ROOT / p).exists()]
    if missing:
        pytest.fail(f"the site is not built (missing {', '.join(missing)}): run `make web` (or `make test`)")


_SCREENSHOTS: dict[str, bytes] = {}


def save_screenshot(page, name: str, **kw) -> Path:
    """Write a screenshot to RESULTS now, and again when the session ends."""
    data = page.screenshot(**kw)
    _SCREENSHOTS[name] = data
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / f"{name}.png"
    path.write_bytes(data)
    return path


@pytest.fixture(scope="session", autouse=True)
def delete_output_dir():
    """Overrides pytest-playwright's fixture of that name, which empties
    test-results/ when it first runs — in a whole-suite run that may be after
    these tests (on the first unit test); so the screenshots are written again
    when the session ends."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    yield
    for name, data in _SCREENSHOTS.items():
        RESULTS.mkdir(parents=True, exist_ok=True)
        (RESULTS / f"{name}.png").write_bytes(data)


@pytest.fixture(scope="session")
def site():
    _check_built()
    server = SiteServer(ROOT).start()
    yield server
    server.stop()


def _chromium_path() -> str | None:
    env = os.environ.get("FIFTEEN_CHROMIUM")
    if env:
        return env
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def chromium_options() -> dict:
    """Playwright's launch options for Chromium with the test flags (the system's binary when
    there is one), for launch() and launch_persistent_context() alike; also used by tools/."""
    kwargs = {"args": CHROMIUM_ARGS, "headless": True}
    exe = _chromium_path()
    if exe:
        kwargs["executable_path"] = exe
    return kwargs


def launch_chromium(playwright):
    """Chromium with the test flags (chromium_options); also used by tools/."""
    return playwright.chromium.launch(**chromium_options())


SKIP_E2E = "FIFTEEN_SKIP_E2E"
INSTALL_HINT = (
    "The e2e tests need headless Chromium and Playwright: `make browser` installs Debian's chromium "
    "(`make test` does it), `make venv` installs Playwright; or point FIFTEEN_CHROMIUM at a Chrome/Chromium binary. "
    f"Without a browser, {SKIP_E2E}=1 skips these tests on purpose (ignored under CI)."
)


def no_browser(reason: str):
    """Fail (the default) or, on a developer's explicit request, skip the browser tests."""
    if os.environ.get(SKIP_E2E) == "1" and not os.environ.get("CI"):
        pytest.skip(f"{SKIP_E2E}=1: browser tests skipped on request ({reason})")
    pytest.fail(f"{reason}\n{INSTALL_HINT}", pytrace=False)


@pytest.fixture(scope="session")
def playwright_session():
    try:
        from playwright import sync_api
    except ImportError as exc:
        sync_api, problem = None, f"Playwright is not installed ({exc})"
    if sync_api is None:
        no_browser(problem)
    with sync_api.sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(playwright_session):
    try:
        b = launch_chromium(playwright_session)
    except Exception as exc:  # noqa: BLE001 - any launch failure means "no browser here"
        b, problem = None, f"Chromium cannot be launched here ({str(exc).strip().splitlines()[0]})"
    if b is None:
        no_browser(problem)  # outside the except block: the message alone, no chained traceback
    yield b
    b.close()


# The page is ready (App.wait_ready; tools/web_bench.py waits for the same): its status settled
# in one of these states, and Solve enabled (not while a solve or cancel still runs: Solve is
# aria-disabled then).
SETTLED_STATES = ("ready", "error", "solved", "cancelled")
SOLVE_ENABLED = "#solve-button:not([disabled]):not([aria-disabled=true])"


class App:
    """The shared page plus helpers that drive it through the stable hooks."""

    def __init__(self, page, site: SiteServer):
        self.page = page
        self.site = site
        self.console: list[str] = []
        page.on("console", lambda m: self.console.append(f"{m.type}: {m.text}"))
        page.on("pageerror", lambda e: self.console.append(f"pageerror: {e}"))

    def open(self, fragment: str = "") -> float:
        t0 = time.monotonic()
        self.page.goto(self.site.url + "index.html" + fragment)
        self.wait_ready()
        return time.monotonic() - t0

    def state(self) -> str:
        return self.page.get_attribute("#status", "data-state")

    def wait_state(self, *states: str, timeout: float = READY_TIMEOUT_MS) -> str:
        """The first of *states* the status takes, as it was when seen (a job that follows at once,
        such as the bound trace after a solve, may change it before a second read)."""
        seen = self.page.wait_for_function(
            "states => { const s = document.querySelector('#status')?.dataset.state; return states.includes(s) && s; }",
            arg=list(states),
            timeout=timeout,
        )
        return seen.json_value()

    def wait_ready(self) -> None:
        state = self.wait_state(*SETTLED_STATES)
        assert state != "error", f"page reported an error: {self.page.inner_text('#status')}"
        self.page.wait_for_selector(SOLVE_ENABLED, timeout=READY_TIMEOUT_MS)

    def board_tiles(self) -> list[int]:
        return [int(t) for t in self.page.get_attribute("#board", "data-tiles").split(",")]

    def set_position(self, tiles, shape: str | None = None) -> None:
        """Open a position through the share-link fragment (no reload)."""
        frag = "tiles=" + ",".join(map(str, tiles)) + (f"&shape={shape}" if shape else "")
        self.page.evaluate("f => { location.hash = f; }", frag)
        want = ",".join(map(str, tiles))
        self.page.wait_for_function("want => document.querySelector('#board').dataset.tiles === want", arg=want, timeout=10_000)

    def solve(self, bound: str | None = None, timeout: float = 600_000) -> dict:
        if bound:
            self.page.select_option("#bound-select", bound)
        self.page.click("#solve-button")
        state = self.wait_state("solved", "error", timeout=timeout)
        assert state == "solved", f"solve ended in {state}: {self.page.inner_text('#status')}"
        sol = self.page.locator("#solution")
        return {
            "length": int(sol.get_attribute("data-length")),
            "moves": [int(m) for m in (sol.get_attribute("data-moves") or "").split()],
            "directions": sol.get_attribute("data-directions") or "",
        }

    def screenshot(self, name: str, **kw) -> Path:
        return save_screenshot(self.page, name, **kw)


@pytest.fixture(scope="session")
def app_context(browser):
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    yield ctx
    ctx.close()


@pytest.fixture(scope="session")
def app(app_context, site):
    page = app_context.new_page()
    a = App(page, site)
    a.ready_seconds = a.open()
    yield a
    page.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A failed test on the shared page reports what the page showed and said: its status, the
    board and bounds line it drew, and the last of its (and its workers') console messages."""
    outcome = yield
    report = outcome.get_result()
    app = item.funcargs.get("app") if report.failed and report.when == "call" else None
    if not isinstance(app, App):
        return
    try:
        shown = app.page.evaluate(
            """() => ({
                status: document.querySelector('#status')?.dataset.state + ': ' + document.querySelector('#status-text')?.textContent,
                jobs: document.querySelector('#status')?.dataset.jobs,
                solver_starts: document.documentElement.dataset.solverStarts,
                pending_requests: [window.fifteenPool?.primary, ...(window.fifteenPool?.helpers || []).map((h) => h.client)]
                  .map((c) => c ? [...c.pending.keys()].join(' ') || '-' : '?').join(' | '),
                hash: location.hash.slice(0, 200),
                board: (document.querySelector('#board')?.dataset.tiles || '').slice(0, 200),
                bounds: (document.querySelector('#bounds')?.dataset.tiles || '').slice(0, 200),
                bounds_line: document.querySelector('#bounds')?.textContent.slice(0, 200),
            })"""
        )
    except Exception as e:  # (the page itself may be gone)
        shown = {"page": repr(e)}
    lines = [f"{k}: {v}" for k, v in shown.items()] + ["console (last 60):", *app.console[-60:]]
    report.sections.append(("the shared page", "\n".join(lines)))


@pytest.fixture()
def ready_app(app):
    """The shared page, ready for a new action (after whatever the last test left: a solve is
    cancelled, any other job stopped)."""
    if app.page.is_visible("#cancel-button"):
        app.page.click("#cancel-button")
    elif app.page.is_visible("#job-stop"):
        app.page.click("#job-stop")
    app.wait_ready()
    return app


def memory_text(nbytes: int) -> str:
    """view/pool-view.js memoryText: decimal units (1 MB = 10^6 bytes), rounded up to 10 MB, to 100 MB from 1 GB on."""
    mb = nbytes / 1e6
    return f"{math.ceil(mb / 100) / 10:.1f} GB" if mb >= 1000 else f"{math.ceil(mb / 10) * 10} MB"


def worker_memory(page) -> tuple[int, int]:
    """The Workers card's inputs: the largest wasm memory a worker reported (data-heap-bytes) and
    solver/memory.js WORKER_REST_BYTES, the rest of a worker."""
    heap = int(page.get_attribute("#workers-note", "data-heap-bytes"))
    rest = page.evaluate("async () => (await import('./static/js/solver/memory.js')).WORKER_REST_BYTES")
    return heap, rest


def page_memory(page) -> int:
    """solver/memory.js PAGE_BYTES: what the page takes besides its workers (the card's total adds it)."""
    return page.evaluate("async () => (await import('./static/js/solver/memory.js')).PAGE_BYTES")


AXE = ROOT / "node_modules/axe-core/axe.min.js"  # a devDependency, for the tests only


def assert_no_axe_violations(page, label: str) -> None:
    """Zero axe-core violations (WCAG 2.x A/AA and best practices) on the page as it is now."""
    if not page.evaluate("() => !!window.axe"):
        page.evaluate(AXE.read_text())  # through the debugger protocol: the page's CSP does not apply
    result = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    problems = [f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:4]} {v['help']}" for v in result["violations"]]
    assert not problems, f"{label}: " + "\n".join(problems)
