#!/usr/bin/env python3
"""Measure the browser app: page-ready time (cold and warm) and in-browser solve times.

    .venv/bin/python tools/web_bench.py [korf55 korf79 korf12 korf1 ...]

Serves the repository root on a free port, drives headless Chromium through the
same hooks as the e2e tests, and prints a small table.  Needs `make web` first.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.e2e.conftest import App, SiteServer, launch_chromium  # noqa: E402


def main(ids: list[str]) -> None:
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


if __name__ == "__main__":
    main(sys.argv[1:])
