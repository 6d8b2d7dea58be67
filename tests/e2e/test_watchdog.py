"""Start-up watchdogs: a damaged Python runtime (pyodide.asm.wasm truncated, or its download cut
mid-body) reaches the page as a fatal error with Retry, quickly (the wasm compile error and the
failed body read are caught; Pyodide's loader alone never rejects), and the message names the file."""

from __future__ import annotations

import os
import socket
import time
from pathlib import Path

import pytest

from .conftest import ROOT, WORK_TIMEOUT_MS, SiteServer, _QuietHandler, copy_site

WASM = "pyodide.asm.wasm"


def site_with_truncated_wasm(tmp: Path) -> None:
    db, manifest = copy_site(tmp)
    import json

    (db / "manifest.json").write_text(json.dumps(manifest))
    vendor = tmp / "static" / "vendor"
    os.unlink(vendor)
    vendor.mkdir()
    for entry in (ROOT / "static" / "vendor").iterdir():
        if entry.name != "pyodide":
            os.symlink(entry, vendor / entry.name)
    pyo = vendor / "pyodide"
    pyo.mkdir()
    for entry in (ROOT / "static" / "vendor" / "pyodide").iterdir():
        if entry.name == WASM:
            data = entry.read_bytes()
            (pyo / WASM).write_bytes(data[: len(data) // 2])
        else:
            os.symlink(entry, pyo / entry.name)


def fatal_start(browser, server: SiteServer, seconds: float) -> tuple[float, str]:
    """Open the site of *server*: it must end in the error state, with Retry and Solve disabled,
    within *seconds*; returns the seconds it took and the error's message."""
    ctx = browser.new_context()
    try:
        page = ctx.new_page()
        t0 = time.monotonic()
        page.goto(server.url + "index.html")
        page.wait_for_selector("#status[data-state=error]", timeout=seconds * 1000, state="attached")
        took = time.monotonic() - t0
        assert page.is_visible("#retry-button") and page.is_disabled("#solve-button")
        return took, page.inner_text("#error-message")
    finally:
        ctx.close()
        server.stop()


def test_truncated_runtime_wasm_is_a_fatal_error_with_retry(browser, tmp_path):
    site_with_truncated_wasm(tmp_path)
    _, message = fatal_start(browser, SiteServer(tmp_path).start(), 30)
    assert "The Python runtime file is damaged or missing (pyodide.asm.wasm)" in message, message


class _CutWasmHandler(_QuietHandler):
    """Serves the site, but closes the runtime's wasm after a third of its body (its full length
    announced): a connection that drops mid-download."""

    def copyfile(self, source, outputfile):
        if not self.path.split("?")[0].endswith("/" + WASM):
            return super().copyfile(source, outputfile)
        size = os.fstat(source.fileno()).st_size
        outputfile.write(source.read(size // 3))
        outputfile.flush()
        self.close_connection = True
        self.connection.shutdown(socket.SHUT_RDWR)


class CutWasmServer(SiteServer):
    handler = _CutWasmHandler


def test_a_runtime_download_cut_mid_body_is_a_fatal_error_at_once_with_retry(browser):
    """Issue 24, 11: the server closed pyodide.asm.wasm after a third of its length and the page
    said "Loading the Python runtime..." for 296 s, until the watchdog."""
    seconds, message = fatal_start(browser, CutWasmServer(ROOT).start(), 35)
    print(f"\ncut wasm body: error state after {seconds:.1f} s: {message}")
    assert WASM in message and "download" in message, message


def site_with_solver_archive(tmp: Path, change: str) -> str:
    """A copy of the site whose solver archive is damaged (one byte flipped) or missing; its name."""
    import json

    db, manifest = copy_site(tmp)
    (db / "manifest.json").write_text(json.dumps(manifest))
    wheels = tmp / "static" / "wheels"
    os.unlink(wheels)
    wheels.mkdir()
    name = json.loads((ROOT / "static/wheels/manifest.json").read_text())["archive"]
    for entry in (ROOT / "static" / "wheels").iterdir():
        if entry.name != name:
            os.symlink(entry, wheels / entry.name)
    if change == "damaged":
        data = bytearray((ROOT / "static/wheels" / name).read_bytes())
        data[len(data) // 2] ^= 0xFF
        (wheels / name).write_bytes(bytes(data))
    return name


@pytest.mark.parametrize(
    "change, says",
    [
        ("damaged", "is damaged: {size} bytes whose SHA-256 is not the listed one"),
        ("missing", "the server answered 404"),
    ],
)
def test_a_damaged_or_missing_solver_archive_is_named_with_why(browser, tmp_path, change, says):
    name = site_with_solver_archive(tmp_path, change)
    size = f"{(ROOT / 'static/wheels' / name).stat().st_size:,}"
    server = SiteServer(tmp_path).start()
    ctx = browser.new_context(service_workers="block")
    try:
        page = ctx.new_page()
        page.goto(server.url + "index.html")
        page.wait_for_selector("#status[data-state=error]", timeout=WORK_TIMEOUT_MS, state="attached")
        message = page.inner_text("#error-message")
        assert f"Solver package (static/wheels/{name})" in message and says.format(size=size) in message, message
        assert page.is_visible("#retry-button")
    finally:
        ctx.close()
        server.stop()
