"""The page's pool of solver workers in headless Chromium: 1 vs N workers on one position,
the memory each worker takes, and the time from the page's ready to all workers up.

    .venv/bin/python bench/pool_page_bench.py [--workers 2] [--tiles "..."] [--bound pdb663]
        [--db /work/main/static/db --pack]   # the 7-8 pack (loaded in every worker)

Memory is the unique set size (USS, psutil) of the Chromium process tree this script
launches (the workers live in the page's renderer process): sampled with 1 worker, then
with N (the difference over N - 1 is the cost of one worker).  Timings are wall clock on a
shared machine: read them side by side from one run, never as absolute figures.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import psutil  # type: ignore[import-untyped]

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

_e2e = importlib.import_module("e2e.conftest")  # the e2e tests' server and page helpers
CHROMIUM_ARGS, App, SiteServer, _chromium_path, copy_site = (
    _e2e.CHROMIUM_ARGS,
    _e2e.App,
    _e2e.SiteServer,
    _e2e._chromium_path,
    _e2e.copy_site,
)

KORF_88 = "12 10 6 0 9 8 13 15 11 7 3 2 5 4 14 1"  # 65 moves, 1.8 M nodes serially with pdb663


def tree_uss(pid: int) -> int:
    procs = [psutil.Process(pid)] + psutil.Process(pid).children(recursive=True)
    total = 0
    for p in procs:
        try:
            total += p.memory_full_info().uss
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            pass
    return total


def browser_pid(marker: str) -> int:
    for p in psutil.process_iter(["pid", "cmdline"]):
        cmd = p.info["cmdline"] or []
        if marker in cmd and not any(a.startswith("--type=") for a in cmd):
            return p.info["pid"]
    raise RuntimeError("the browser process was not found")


def site_with_db(db: Path | None) -> tuple[Path, Any]:
    if db is None:
        return ROOT, None
    tmp = tempfile.TemporaryDirectory()
    site = Path(tmp.name)
    dbdir, manifest = copy_site(site)
    src = json.loads((db / "manifest.json").read_text())
    for entry in src.get("packs", []):
        os.symlink(db / entry["file"], dbdir / entry["file"])
    manifest["packs"] = src.get("packs", [])
    (dbdir / "manifest.json").write_text(json.dumps(manifest))
    return site, tmp


def solve(app: Any, tiles: str, bound: str) -> dict:
    page = app.page
    app.page.fill("#tiles-input", tiles)
    page.keyboard.press("Tab")
    page.wait_for_function("t => document.querySelector('#board').dataset.tiles === t", arg=tiles.replace(" ", ","), timeout=30_000)
    page.select_option("#bound-select", bound)
    t0 = time.monotonic()
    page.click("#solve-button")
    app.wait_state("solving", timeout=30_000)
    state = app.wait_state("solved", "error", timeout=3_600_000)
    wall = time.monotonic() - t0
    assert state == "solved", page.inner_text("#status")
    sol = page.locator("#solution")
    return {
        "length": int(sol.get_attribute("data-length")),
        "seconds": round(wall, 2),
        "meta": page.inner_text("#solution-meta"),
        "workers": sol.get_attribute("data-workers"),
    }


def wait_workers(app: Any, n: int) -> float:
    t0 = time.monotonic()
    app.page.wait_for_selector(f"#workers-note[data-ready='{n}']", timeout=900_000, state="attached")
    return time.monotonic() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--tiles", default=KORF_88)
    ap.add_argument("--bound", default="pdb663")
    ap.add_argument("--db", type=Path, help="a static/db directory with the pack (its file is linked, never rebuilt)")
    ap.add_argument("--pack", action="store_true", help="download the pack first (every worker loads it)")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    site, tmp = site_with_db(args.db)
    server = SiteServer(site).start()
    marker = f"--fifteen-bench={os.getpid()}"
    out: dict = {"tiles": args.tiles, "bound": args.bound, "workers": args.workers}
    try:
        with sync_playwright() as p:
            kw: dict[str, Any] = {"args": CHROMIUM_ARGS + [marker], "headless": True}
            if _chromium_path():
                kw["executable_path"] = _chromium_path()
            browser = p.chromium.launch(**kw)
            pid = browser_pid(marker)
            page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
            app = App(page, server)
            page.goto(server.url + "index.html")
            page.evaluate("() => localStorage.setItem('fifteen.workers', '1')")
            out["page_ready_seconds"] = round(app.open(), 2)
            if args.pack:
                t0 = time.monotonic()
                page.click("#pack-button")
                page.wait_for_selector("#pack-panel[data-state=loaded]", timeout=900_000, state="attached")
                out["pack_seconds_worker1"] = round(time.monotonic() - t0, 1)
            time.sleep(2)
            out["uss_1_worker_mb"] = round(tree_uss(pid) / 2**20)
            out["serial"] = solve(app, args.tiles, args.bound)
            page.select_option("#workers-select", str(args.workers))
            out["ready_to_all_up_seconds"] = round(wait_workers(app, args.workers), 1)
            time.sleep(5 if not args.pack else 20)  # the helpers' warm-up (and pack) settle
            out["uss_n_workers_mb"] = round(tree_uss(pid) / 2**20)
            out["uss_per_extra_worker_mb"] = round((out["uss_n_workers_mb"] - out["uss_1_worker_mb"]) / (args.workers - 1))
            out["parallel"] = solve(app, args.tiles, args.bound)
            out["speedup"] = round(out["serial"]["seconds"] / out["parallel"]["seconds"], 2)
            browser.close()
    finally:
        server.stop()
        if tmp is not None:
            tmp.cleanup()
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
