"""Start-up watchdogs: a damaged Python runtime (pyodide.asm.wasm truncated) reaches the page
as a fatal error with Retry, quickly (the wasm compile error is caught; Pyodide's loader
alone never rejects), and the message names the file."""

from __future__ import annotations

import os
import time
from pathlib import Path

from .conftest import ROOT, SiteServer, copy_site

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


def test_truncated_runtime_wasm_is_a_fatal_error_with_retry(browser, tmp_path):
    site_with_truncated_wasm(tmp_path)
    server = SiteServer(tmp_path).start()
    ctx = browser.new_context()
    try:
        page = ctx.new_page()
        t0 = time.monotonic()
        page.goto(server.url + "index.html")
        page.wait_for_selector("#status[data-state=error]", timeout=30_000, state="attached")
        seconds = time.monotonic() - t0
        assert seconds < 30
        message = page.inner_text("#error-message")
        assert "The Python runtime file is damaged or missing (pyodide.asm.wasm)" in message, message
        assert page.is_visible("#retry-button")
        assert page.is_disabled("#solve-button")
    finally:
        ctx.close()
        server.stop()
