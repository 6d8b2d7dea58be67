"""The three browser engines the page is tested in, behind one small interface.

* **Chromium**: Playwright (as the rest of tests/e2e), Debian's ``chromium``.
* **Firefox**: Debian's ``firefox-esr`` over WebDriver BiDi, without geckodriver: the Node
  script ``tests/e2e/firefox_driver.mjs`` (npm ``puppeteer-core``, which downloads no browser)
  drives it and this module talks to that script, one JSON line per command.
* **WebKit** (Safari's engine): WebKitGTK's ``MiniBrowser`` (shipped by the libwebkit2gtk
  package) with ``--automation``, under ``Xvfb``, driven by ``WebKitWebDriver`` (Debian's
  ``webkit2gtk-driver``) through Selenium's Remote.  Classic WebDriver has no console capture:
  the page's own error panel is read instead (``EnginePage.errors``); the driver's and
  MiniBrowser's own output is kept as a log for a failure's message.

Every engine starts with a fresh profile (a first visit).  A page is driven only through the
page's stable hooks (docs/web-app.md, "Hooks for automation") with JavaScript: ``run(source,
*args)`` calls the function expression ``source`` with ``args`` in the page and returns its
(JSON) result, awaited; clicks are the elements' own ``click()``.  Used by
``tests/e2e/test_engines.py`` and ``bench/engines.py``.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENGINES = ("chromium", "firefox", "webkit")
VIEWPORT = (1280, 900)

#: WebKitGTK's MiniBrowser, shipped by the libwebkit2gtk package (not on PATH).
MINIBROWSER_GLOBS = ("/usr/lib/*/webkit2gtk-4.*/MiniBrowser", "/usr/libexec/webkit2gtk-4.*/MiniBrowser")

INSTALL_HINT = {
    "chromium": "`make browser` installs Debian's chromium",
    "firefox": "`make browser` installs Debian's firefox-esr and `npm ci` puppeteer-core",
    "webkit": "`make browser` installs Debian's webkit2gtk-driver (with MiniBrowser) and xvfb, `make venv` selenium",
}


class EngineUnavailable(RuntimeError):
    """The engine cannot be launched on this machine (the message says what is missing)."""


def minibrowser_path() -> str | None:
    env = os.environ.get("FIFTEEN_MINIBROWSER")
    if env:
        return env
    import glob

    for pattern in MINIBROWSER_GLOBS:
        found = sorted(glob.glob(pattern))
        if found:
            return found[-1]
    return None


def firefox_path() -> str | None:
    return os.environ.get("FIFTEEN_FIREFOX") or shutil.which("firefox-esr") or shutil.which("firefox")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class EnginePage:
    """One page of one engine.  Subclasses implement goto, reload, run, console and close."""

    engine = ""
    version = ""

    def goto(self, url: str) -> None:
        raise NotImplementedError

    def reload(self) -> None:
        raise NotImplementedError

    def run(self, source: str, *args):
        """The JSON result of the JavaScript function expression `source` called with `args` (awaited)."""
        raise NotImplementedError

    def console(self) -> list[str]:
        """Console messages and page errors since the last call (WebKit: none, see errors())."""
        return []

    def close(self) -> None:
        raise NotImplementedError

    # ------------------------------------------------------------ shared helpers
    def wait(self, source: str, *args, timeout: float = 60.0, interval: float = 0.1, what: str = ""):
        """Poll `source(*args)` until it returns a truthy value, which is returned."""
        deadline = time.monotonic() + timeout
        while True:
            value = self.run(source, *args)
            if value:
                return value
            if time.monotonic() > deadline:
                raise TimeoutError(f"{self.engine}: {what or source} not true within {timeout:.0f} s; {self.describe()}")
            time.sleep(interval)

    def click(self, selector: str) -> None:
        ok = self.run("s => { const e = document.querySelector(s); if (!e) return false; e.click(); return true; }", selector)
        assert ok, f"{self.engine}: no element {selector}"

    def attr(self, selector: str, name: str):
        return self.run("(s, n) => document.querySelector(s)?.getAttribute(n) ?? null", selector, name)

    def text(self, selector: str) -> str:
        return self.run("s => document.querySelector(s)?.textContent ?? ''", selector)

    def errors(self) -> str:
        """The page's error panel (#error-panel) when shown, else ''."""
        return self.run("() => { const p = document.querySelector('#error-panel'); return p && !p.hidden ? p.innerText.trim() : ''; }")

    def describe(self) -> str:
        try:
            state = self.run(
                "() => ({state: document.querySelector('#status')?.dataset.state,"
                " text: document.querySelector('#status-text')?.textContent,"
                " error: (p => p && !p.hidden ? p.innerText : '')(document.querySelector('#error-panel'))})"
            )
        except Exception as exc:  # noqa: BLE001 - a description for a failure's message
            state = f"(page unreadable: {exc})"
        extra = self.diagnostics()
        return f"page: {state}" + (f"\n{self.engine}'s log:\n{extra}" if extra else "")

    def diagnostics(self) -> str:
        """What the engine logged, for a failure's message ('' when nothing is kept)."""
        return ""


class ChromiumPage(EnginePage):
    engine = "chromium"

    def __init__(self, playwright=None):
        """*playwright*: a running Playwright (the e2e session's: a thread runs one sync
        Playwright at a time), else one of its own, stopped with the page."""
        try:
            from playwright.sync_api import sync_playwright
        except ImportError as exc:
            raise EngineUnavailable(f"Playwright is not installed ({exc})") from None
        from .conftest import chromium_options

        self._own = playwright is None
        self._pw = sync_playwright().start() if playwright is None else playwright
        try:
            self._browser = self._pw.chromium.launch(**chromium_options())
        except Exception as exc:  # noqa: BLE001 - any launch failure means "no browser here"
            if self._own:
                self._pw.stop()
            raise EngineUnavailable(f"Chromium cannot be launched here ({str(exc).strip().splitlines()[0]})") from None
        self.version = self._browser.version
        self._context = self._browser.new_context(viewport={"width": VIEWPORT[0], "height": VIEWPORT[1]})
        self.page = self._context.new_page()
        self._messages: list[str] = []
        self.page.on("console", lambda m: self._messages.append(f"{m.type}: {m.text}"))
        self.page.on("pageerror", lambda e: self._messages.append(f"pageerror: {e}"))

    def goto(self, url):
        self.page.goto(url)

    def reload(self):
        self.page.reload()

    def run(self, source, *args):
        return self.page.evaluate(f"args => ({source})(...args)", list(args))

    def console(self):
        out, self._messages[:] = list(self._messages), []
        return out

    def close(self):
        with contextlib.suppress(Exception):
            self._context.close()
            self._browser.close()
        if self._own:
            self._pw.stop()


class FirefoxPage(EnginePage):
    engine = "firefox"

    def __init__(self):
        binary = firefox_path()
        if not binary:
            raise EngineUnavailable("no firefox-esr (or firefox) on PATH")
        if not (ROOT / "node_modules/puppeteer-core").exists():
            raise EngineUnavailable("npm puppeteer-core is not installed (node_modules/puppeteer-core)")
        self._proc = subprocess.Popen(
            ["node", str(ROOT / "tests/e2e/firefox_driver.mjs"), binary, *map(str, VIEWPORT)],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self._next = 1
        first = self._reply(0)
        if not first.get("ok"):
            self._proc.kill()
            raise EngineUnavailable(first.get("error", "Firefox did not start"))
        self.version = first["value"]["version"]

    def _reply(self, want: int) -> dict:
        while True:
            line = self._proc.stdout.readline()
            if not line:
                err = self._proc.stderr.read() if self._proc.poll() is not None else ""
                raise EngineUnavailable(f"the Firefox driver stopped: {err.strip()[-2000:]}")
            msg = json.loads(line)
            if msg.get("id") == want:
                return msg

    def _call(self, op: str, **params):
        cmd_id = self._next
        self._next += 1
        self._proc.stdin.write(json.dumps({"id": cmd_id, "op": op, **params}) + "\n")
        self._proc.stdin.flush()
        msg = self._reply(cmd_id)
        if not msg["ok"]:
            raise RuntimeError(f"firefox {op}: {msg['error']}")
        return msg["value"]

    def goto(self, url):
        self._call("goto", url=url)

    def reload(self):
        self._call("reload")

    def run(self, source, *args):
        return self._call("eval", source=source, args=list(args))

    def console(self):
        return self._call("console")

    def close(self):
        with contextlib.suppress(Exception):
            self._call("close")
        try:
            self._proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()


class WebKitPage(EnginePage):
    engine = "webkit"

    def __init__(self):
        binary = minibrowser_path()
        missing = [
            name
            for name, found in (
                ("MiniBrowser (libwebkit2gtk)", binary),
                ("WebKitWebDriver", shutil.which("WebKitWebDriver")),
                ("Xvfb", shutil.which("Xvfb")),
            )
            if not found
        ]
        if missing:
            raise EngineUnavailable(f"missing: {', '.join(missing)}")
        try:
            from selenium import webdriver
            from selenium.webdriver.common.options import ArgOptions
            from selenium.webdriver.remote.client_config import ClientConfig
            from selenium.webdriver.remote.remote_connection import RemoteConnection
        except ImportError as exc:
            raise EngineUnavailable(f"selenium is not installed ({exc})") from None
        self._procs: list[subprocess.Popen] = []
        self._log = tempfile.NamedTemporaryFile(prefix="fifteen-webkit-", suffix=".log", delete=False)  # noqa: SIM115 - kept open for the driver
        try:
            display = self._start_xvfb()
            port = _free_port()
            env = {**os.environ, "DISPLAY": display}
            self._procs.append(subprocess.Popen(["WebKitWebDriver", f"--port={port}"], env=env, stdout=self._log, stderr=subprocess.STDOUT))
            self._wait_driver(port)
            options = ArgOptions()
            options.set_capability("browserName", "MiniBrowser")
            args = ["--automation", f"--geometry={VIEWPORT[0]}x{VIEWPORT[1]}"]
            options.set_capability("webkitgtk:browserOptions", {"binary": binary, "args": args})
            # (a connection of its own: selenium's, made from an address, warns that it sets the address the old way)
            connection = RemoteConnection(client_config=ClientConfig(remote_server_addr=f"http://127.0.0.1:{port}"))
            self.driver = webdriver.Remote(command_executor=connection, options=options)
        except EngineUnavailable:
            self.close()
            raise
        except Exception as exc:  # noqa: BLE001 - any launch failure means "no browser here"
            self.close()
            raise EngineUnavailable(f"WebKit cannot be launched here ({str(exc).strip().splitlines()[0]})") from None
        self.driver.set_script_timeout(600)
        self.version = self.driver.capabilities.get("browserVersion", "")

    def _start_xvfb(self) -> str:
        """An X server on a free display (Xvfb -displayfd picks it); returns ":N"."""
        read, write = os.pipe()
        proc = subprocess.Popen(
            ["Xvfb", "-displayfd", str(write), "-screen", "0", f"{VIEWPORT[0]}x{VIEWPORT[1] + 100}x24", "-nolisten", "tcp"],
            pass_fds=(write,),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self._procs.append(proc)
        os.close(write)
        with os.fdopen(read) as f:
            number = f.readline().strip()
        if not number:
            raise EngineUnavailable("Xvfb did not start")
        return f":{number}"

    @staticmethod
    def _wait_driver(port: int) -> None:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/status", timeout=2):
                    return
            except OSError:
                time.sleep(0.1)
        raise EngineUnavailable("WebKitWebDriver did not answer")

    def goto(self, url):
        self.driver.get(url)

    def reload(self):
        self.driver.refresh()

    def run(self, source, *args):
        return self.driver.execute_script(f"return ({source})(...arguments);", *args)

    def log(self) -> str:
        """MiniBrowser's console (and the driver's messages) so far."""
        try:
            return Path(self._log.name).read_text(errors="replace")
        except OSError:
            return ""

    def diagnostics(self) -> str:
        """The last lines of the driver's and MiniBrowser's output."""
        lines = [line for line in self.log().splitlines() if line.strip() and "[py]" not in line]
        return "\n".join(lines[-30:])

    def close(self):
        driver = getattr(self, "driver", None)
        if driver is not None:
            with contextlib.suppress(Exception):
                driver.quit()
        for proc in reversed(self._procs):
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
        self._procs = []
        self._log.close()
        keep = os.environ.get("FIFTEEN_WEBKIT_LOG")  # a path to keep MiniBrowser's console at
        with contextlib.suppress(OSError):
            if keep:
                shutil.copy(self._log.name, keep)
            os.unlink(self._log.name)


def launch(engine: str, playwright=None) -> EnginePage:
    """A page of `engine` (one of ENGINES) in a fresh profile; EngineUnavailable when it cannot be.
    *playwright*: Chromium's, a running sync Playwright to use (ChromiumPage)."""
    kinds = {"chromium": ChromiumPage, "firefox": FirefoxPage, "webkit": WebKitPage}
    try:
        if engine == "chromium":
            return ChromiumPage(playwright)
        return kinds[engine]()
    except EngineUnavailable as exc:
        raise EngineUnavailable(f"{engine}: {exc}. {INSTALL_HINT[engine]}.") from None


# ---------------------------------------------------------------- the app in any engine
SETTLED = ("ready", "error", "solved", "cancelled")
SOLVE_ENABLED = "#solve-button:not([disabled]):not([aria-disabled=true])"
READY_TIMEOUT = 240.0  # seconds: WebKit's first start takes a minute on a loaded 2-core machine
CLICK_GUARD = 0.4  # seconds after Solve before Cancel (model/page-model.js CLICK_GUARD_MS: a double click)
#: Cancel's status once the solver is usable again (stopped by the interrupt buffer, or restarted)
STOPPED_TEXT = r"^Cancelled: (stopped in|the solver had to restart)"


class EngineApp:
    """The page in one engine, driven through its stable hooks."""

    def __init__(self, page: EnginePage, base_url: str):
        self.page = page
        self.base_url = base_url

    def open(self, fragment: str = "") -> dict:
        """Open index.html; the ready figures the page gives (html[data-ready-seconds], data-phases)."""
        self.page.goto(self.base_url + "index.html" + fragment)
        self.wait_ready()
        return self.ready_figures()

    def reload(self) -> dict:
        self.page.reload()
        self.wait_ready()
        return self.ready_figures()

    def ready_figures(self) -> dict:
        return self.page.run(
            "() => ({ready: Number(document.documentElement.dataset.readySeconds), phases: document.documentElement.dataset.phases || '',"
            " isolated: self.crossOriginIsolated, controlled: !!navigator.serviceWorker?.controller,"
            " cores: navigator.hardwareConcurrency || null, starts: Number(document.documentElement.dataset.solverStarts || 0)})"
        )

    def state(self) -> str:
        return self.page.attr("#status", "data-state")

    def wait_state(self, *states: str, timeout: float = READY_TIMEOUT) -> str:
        return self.page.wait(
            "states => { const s = document.querySelector('#status')?.dataset.state; return states.includes(s) && s; }",
            list(states),
            timeout=timeout,
            what=f"status in {states}",
        )

    def wait_ready(self, timeout: float = READY_TIMEOUT) -> None:
        # data-ready-seconds: the page's first READY (a reload's too; the status may be "loading" before)
        self.page.wait("() => !!document.documentElement.dataset.readySeconds", timeout=timeout, what="html[data-ready-seconds]")
        state = self.wait_state(*SETTLED, timeout=timeout)
        assert state != "error", f"{self.page.engine}: the page reported an error: {self.page.describe()}"
        self.page.wait("s => !!document.querySelector(s)", SOLVE_ENABLED, timeout=timeout, what="Solve enabled")

    def solver_starts(self) -> int:
        """Worker 1's starts so far, restarts included (html[data-solver-starts])."""
        return int(self.page.attr("html", "data-solver-starts") or 0)

    def set_position(self, tiles, shape: str | None = None) -> None:
        frag = "tiles=" + ",".join(map(str, tiles)) + (f"&shape={shape}" if shape else "")
        self.page.run("f => { location.hash = f; }", frag)
        want = ",".join(map(str, tiles))
        self.page.wait("w => document.querySelector('#board')?.dataset.tiles === w", want, timeout=20, what="the position shown")

    def solve(self, timeout: float = 600) -> dict:
        """Solve the board (after the solver is usable); the shown solution."""
        self.page.wait("s => !!document.querySelector(s)", SOLVE_ENABLED, timeout=READY_TIMEOUT, what="Solve enabled")
        self.page.click("#solve-button")
        state = self.wait_state("solved", "error", timeout=timeout)
        assert state == "solved", f"{self.page.engine}: the solve ended in {state}: {self.page.describe()}"
        return self.solution()

    def solution(self) -> dict:
        return self.page.run(
            "() => { const s = document.querySelector('#solution');"
            " return {length: Number(s.dataset.length), directions: s.dataset.directions || '', optimal: s.dataset.optimal ?? null,"
            " lower_bound: s.dataset.lowerBound === undefined ? null : Number(s.dataset.lowerBound)}; }"
        )

    def start_long_solve(self, tiles, shape: str | None = None) -> None:
        """Solve `tiles` and wait until the search has reported nodes (and the double-click guard passed)."""
        self.set_position(tiles, shape)
        self.page.wait("s => !!document.querySelector(s)", SOLVE_ENABLED, timeout=READY_TIMEOUT, what="Solve enabled")
        self.page.click("#solve-button")
        self.wait_state("solving", timeout=30)
        self.page.wait(
            "() => !['', '0'].includes(document.querySelector('#p-nodes')?.textContent.trim())", timeout=120, what="nodes reported"
        )
        time.sleep(CLICK_GUARD)

    def stop(self) -> dict:
        """Cancel the running solve: the seconds until the page says cancelled and until the solver
        is usable again, and whether worker 1 was restarted for it (html[data-solver-starts])."""
        before = self.solver_starts()
        t0 = time.monotonic()
        self.page.click("#cancel-button")
        self.wait_state("cancelled", "solved", timeout=30)
        answered = time.monotonic() - t0
        self.page.wait(
            "re => new RegExp(re).test(document.querySelector('#status-text').textContent)",
            STOPPED_TEXT,
            timeout=READY_TIMEOUT,
            what="the solver usable again",
        )
        usable = time.monotonic() - t0
        return {
            "answered_seconds": round(answered, 3),
            "usable_seconds": round(usable, 3),
            "restarted": self.solver_starts() > before,
            "status": self.page.text("#status-text"),
            "t0": t0,
        }

    def stop_then(self, action) -> dict:
        """Cancel the running solve and at once call `action()`: the seconds from the Cancel until
        the page says cancelled and until `action` returned, and whether worker 1 was restarted."""
        before = self.solver_starts()
        t0 = time.monotonic()
        self.page.click("#cancel-button")
        self.wait_state("cancelled", "solved", timeout=30)
        answered = time.monotonic() - t0
        result = action()
        return {
            "answered_seconds": round(answered, 3),
            "action_seconds": round(time.monotonic() - t0, 3),
            "restarted": self.solver_starts() > before,
            "result": result,
        }

    def fast_answer(self, timeout: float = 180) -> str:
        """Ask for a fast (anytime) answer; returns the first answer's line once shown."""
        self.page.wait(
            "() => { const b = document.querySelector('#fast-button'); return b && !b.disabled; }",
            timeout=READY_TIMEOUT,
            what="Fast answer enabled",
        )
        self.page.click("#fast-button")
        return self.page.wait(
            "() => { const t = document.querySelector('#p-lower')?.textContent || ''; return /moves found|proven optimal/.test(t) && t; }",
            timeout=timeout,
            what="a fast answer shown",
        )

    def cancel_if_running(self) -> None:
        """Cancel the solve if one runs (past the double-click guard: a Cancel right after a solve
        started, as after a quick first answer, is its second click)."""
        if self.page.run("() => !document.querySelector('#cancel-button').hidden"):
            time.sleep(CLICK_GUARD)
            self.page.click("#cancel-button")
            self.wait_state("cancelled", "solved", timeout=30)

    def wait_offline_ready(self, timeout: float = 300) -> None:
        """The service worker has cached the whole build (html[data-offline=ready])."""
        self.page.wait("() => document.documentElement.dataset.offline === 'ready'", timeout=timeout, what="html[data-offline=ready]")
