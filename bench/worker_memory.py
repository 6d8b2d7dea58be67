"""The memory one solver worker takes in the page: Chromium's processes with 1, 2 and 4 workers,
against the wasm memory the workers report.  Results in `memory.md`.

    .venv/bin/python bench/worker_memory.py [--workers 1 2 4] [--settle 5]
    .venv/bin/python bench/worker_memory.py --device 8:4

``--device CORES:GB`` instead opens the page as a device with that navigator.hardwareConcurrency
and navigator.deviceMemory (set before the page's scripts run) and its default pool (no choice
remembered), and reads the same memory with that many workers, against the Workers card's
figure.

For each pool size a fresh headless Chromium (Debian's, as the e2e tests launch it) opens the
page with that many workers chosen (the Workers menu's remembered choice, set before the page
starts; past the menu's choices, which end at the machine's cores, through the page's pool),
waits until every worker is ready (the Workers card's data-ready) and the browser's processes
are idle again (each helper's warm-up search and the snapshot the first worker
keeps), then reads the resident (RSS), proportional (PSS) and unique (USS) set sizes of the
browser's process tree and of its renderer alone (the page's workers are threads of the
renderer process), and the largest wasm memory a worker reported (data-heap-bytes); and the
same sizes again after a full garbage collection in the page and in every worker (Chromium
runs with --expose-gc; Playwright evaluates gc() in each).  Then the
page is reloaded (the service worker now serves it and the workers resume the memory snapshot
of the first start) and the same is read again.  A worker's cost is the slope of memory over
the pool size (least squares over the sizes measured).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import re
import sys
import time
from pathlib import Path
from typing import Any

import psutil  # type: ignore[import-untyped]

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))

_e2e = importlib.import_module("e2e.conftest")  # the e2e tests' server and page helpers
_pool = importlib.import_module("pool_page_bench")  # the browser's process tree
CHROMIUM_ARGS, App, SiteServer, _chromium_path = _e2e.CHROMIUM_ARGS, _e2e.App, _e2e.SiteServer, _e2e._chromium_path
MB = 2**20


def tree_memory(pid: int) -> dict[str, int]:
    """RSS, PSS and USS (bytes) of the process tree under `pid`, and of its renderer processes."""
    out = {"rss": 0, "pss": 0, "uss": 0, "renderer_rss": 0, "renderer_uss": 0}
    for p in [psutil.Process(pid), *psutil.Process(pid).children(recursive=True)]:
        try:
            info = p.memory_full_info()
            renderer = "--type=renderer" in p.cmdline()
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
        out["rss"] += info.rss
        out["pss"] += info.pss
        out["uss"] += info.uss
        if renderer:
            out["renderer_rss"] += info.rss
            out["renderer_uss"] += info.uss
    return out


def settle(pid: int, seconds: float, limit: float = 120.0) -> None:
    """Wait until the tree used under 10 % of a core over `seconds` (at most `limit` s)."""
    t_end = time.monotonic() + limit

    def cpu() -> float:
        total = 0.0
        for p in [psutil.Process(pid), *psutil.Process(pid).children(recursive=True)]:
            try:
                t = p.cpu_times()
                total += t.user + t.system
            except psutil.NoSuchProcess:
                pass
        return total

    while time.monotonic() < t_end:
        c0 = cpu()
        time.sleep(seconds)
        if cpu() - c0 < 0.1 * seconds:
            return


# The device the page sees (--device): navigator.hardwareConcurrency and deviceMemory.
DEVICE = """([cores, gb]) => {
  Object.defineProperty(Navigator.prototype, "hardwareConcurrency", { get: () => cores });
  Object.defineProperty(Navigator.prototype, "deviceMemory", { get: () => gb });
}"""


def card_bytes(note: str) -> float:
    """The Workers card's total ("about 620 MB of memory", "about 1.2 GB of memory": decimal units,
    as every size the page says) in MiB, the unit of the figures measured here."""
    m = re.search(r"about ([\d.]+) (MB|GB) of memory", note)
    return float(m.group(1)) * (1e9 if m.group(2) == "GB" else 1e6) / MB if m else float("nan")


def measure(page: Any, app: Any, pid: int, n: int, settle_s: float) -> dict:
    # the menu offers as many workers as cores (at least 2): more through the pool itself
    if n != int(page.input_value("#workers-select") or 0):
        page.evaluate("n => globalThis.fifteenPool.setSize(n)", n)
    page.wait_for_selector(f"#workers-note[data-ready='{n}']", timeout=900_000, state="attached")
    app.wait_ready()
    settle(pid, settle_s)
    mem = tree_memory(pid)
    heap = int(page.get_attribute("#workers-note", "data-heap-bytes") or 0)
    out = {**{k: round(v / MB, 1) for k, v in mem.items()}, "heap": round(heap / MB, 1), "note": page.inner_text("#workers-note")}
    # then after a full garbage collection in the page and every worker (--js-flags=--expose-gc)
    for realm in [page, *page.workers]:
        realm.evaluate("() => globalThis.gc?.()")
    time.sleep(2)
    out["after_gc"] = {k: round(v / MB, 1) for k, v in tree_memory(pid).items()}
    return out


def run(server: Any, n: int, settle_s: float, device: tuple[int, int] | None = None) -> dict:
    """Memory with `n` workers, on a first visit and a reload; with `device` (cores, GB) the
    page's default pool for that device instead (n = 0)."""
    from playwright.sync_api import sync_playwright

    marker = f"--fifteen-bench={os.getpid()}-{n}"
    with sync_playwright() as p:
        kw: dict[str, Any] = {"args": CHROMIUM_ARGS + [marker, "--js-flags=--expose-gc"], "headless": True}
        if _chromium_path():
            kw["executable_path"] = _chromium_path()
        browser = p.chromium.launch(**kw)
        pid = _pool.browser_pid(marker)
        page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        app = App(page, server)
        if device:
            page.add_init_script(f"({DEVICE})({json.dumps(list(device))})")
            app.open()
            n = int(page.input_value("#workers-select"))  # the default for that device
        else:
            page.goto(server.url + "build-info.json")  # the site's origin, before the page starts
            page.evaluate("n => localStorage.setItem('fifteen.workers', JSON.stringify(n))", n)
            app.open()
        first = measure(page, app, pid, n, settle_s)
        page.wait_for_selector("html[data-offline=ready]", state="attached", timeout=300_000)
        settle(pid, settle_s)  # the snapshot written to Cache Storage
        app.open()
        reload = measure(page, app, pid, n, settle_s)
        browser.close()
    return {"first": first, "reload": reload}


def slope(xs: list[int], ys: list[float]) -> float:
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum((x - mx) ** 2 for x in xs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4])
    ap.add_argument("--settle", type=float, default=5.0, help="idle seconds before memory is read")
    ap.add_argument("--device", help="CORES:GB: the page's default pool as such a device has it, against the Workers card")
    args = ap.parse_args()
    server = SiteServer(ROOT).start()
    if args.device:
        cores, gb = (int(x) for x in args.device.split(":"))
        try:
            r = run(server, 0, args.settle, (cores, gb))
        finally:
            server.stop()
        for visit in ("first", "reload"):
            m = r[visit]
            card = card_bytes(m["note"])
            print(
                f"{visit}: {m['note']!r}; renderer USS {m['renderer_uss']} MiB = {m['renderer_uss'] * MB / 1e6:.0f} MB "
                f"(card {card / m['renderer_uss']:.2f} of it), tree USS {m['uss']} MiB; after GC renderer "
                f"{m['after_gc']['renderer_uss']} MiB; load {os.getloadavg()}"
            )
        return
    results: dict[int, dict] = {}
    try:
        for n in args.workers:
            results[n] = run(server, n, args.settle)
            print(n, json.dumps(results[n]), flush=True)
    finally:
        server.stop()
    ns = sorted(results)
    summary: dict[str, Any] = {"load": os.getloadavg()}
    keys = ("rss", "pss", "uss", "renderer_rss", "renderer_uss")
    if len(ns) > 1:
        for visit in ("first", "reload"):
            summary[visit] = {key: round(slope(ns, [results[n][visit][key] for n in ns]), 1) for key in keys}
            summary[visit]["after_gc"] = {key: round(slope(ns, [results[n][visit]["after_gc"][key] for n in ns]), 1) for key in keys}
            summary[visit]["heap"] = max(results[n][visit]["heap"] for n in ns)
    print(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()
