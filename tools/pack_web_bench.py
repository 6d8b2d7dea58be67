#!/usr/bin/env python3
"""Measure the real hard-positions pack in the browser (not a test; not run by CI).

    .venv/bin/python tools/pack_web_bench.py [--solve H01] [--no-reload] [--pack FILE]

Needs ``make web`` and the real pack in static/db (``make pack``), or ``--pack
FILE`` (a pdb-78.f15.xz elsewhere: served from a temporary copy of the site whose
manifest lists it).  Serves the repository root on a free port, opens the page on a 4x4 position in headless
Chromium (as the e2e tests do), clicks "Download hard-positions pack" and times
download -> xz decode in the worker -> Python load; then reloads the page (the
pack now comes from Cache Storage at init) and times that; then optionally solves
an 80-move position with the pack.  Memory: VmRSS / VmHWM (peak) from /proc of
every Chromium process started by this script (the worker runs in the page's
renderer process), read right after each step.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "py")]

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.e2e.conftest import App, SiteServer, copy_site, launch_chromium  # noqa: E402

HARD = {  # data/hard.tsv
    "H01": ("0 12 9 13 15 11 10 14 3 7 2 5 4 8 6 1", 80),
    "H15": ("0 12 9 13 15 11 10 14 3 7 5 6 4 8 2 1", 80),
    "transposed": ("1 5 9 13 2 6 10 14 3 7 11 15 4 8 12 0", 72),
}


def _descendants(pid: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            stat = Path(f"/proc/{d}/stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(ppid, []).append(int(d))
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        for c in children.get(p, []):
            out.append(c)
            todo.append(c)
    return out


def memory() -> dict:
    """{'renderer': (rss MiB, peak MiB) of the biggest renderer, 'all': (sum rss, sum peak)} over our Chromium processes."""
    best = (0.0, 0.0)
    tot_rss = tot_hwm = 0.0
    for p in _descendants(os.getpid()):
        try:
            cmd = Path(f"/proc/{p}/cmdline").read_bytes().replace(b"\0", b" ")
            status = Path(f"/proc/{p}/status").read_text()
        except OSError:
            continue
        if b"chrom" not in cmd:
            continue
        f = {ln.split(":")[0]: ln.split(":")[1].strip() for ln in status.splitlines() if ":" in ln}
        rss = int(f.get("VmRSS", "0 kB").split()[0]) / 1024
        hwm = int(f.get("VmHWM", "0 kB").split()[0]) / 1024
        tot_rss += rss
        tot_hwm += hwm
        if b"--type=renderer" in cmd and hwm > best[1]:
            best = (rss, hwm)
    return {"renderer_rss_mib": round(best[0]), "renderer_peak_mib": round(best[1]), "all_rss_mib": round(tot_rss)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--solve", default="H01", help="hard position to solve with the pack (H01, H15, transposed; 'none' to skip)")
    ap.add_argument("--no-reload", action="store_true", help="skip the reload (pack from Cache Storage) step")
    ap.add_argument("--pack", help="a pdb-78.f15.xz to serve instead of static/db's")
    args = ap.parse_args()
    site = ROOT
    tmp = None
    if args.pack:
        from dbbuild.manifest import pack_info

        tmp = Path(tempfile.mkdtemp(prefix="pack-bench-"))
        db, manifest = copy_site(tmp)
        dst = db / "pdb-78.f15.xz"
        os.symlink(Path(args.pack).resolve(), dst)
        entry = {"file": dst.name, "kind": "pdb78", "shapes": ["4x4"], "bytes": dst.stat().st_size}
        entry.update(pack_info(dst))
        manifest["packs"] = [entry]
        (db / "manifest.json").write_text(json.dumps(manifest))
        site = tmp
    manifest = json.loads((site / "static/db/manifest.json").read_text())
    packs = manifest.get("packs") or []
    if not packs:
        sys.exit("no pack in static/db/manifest.json: run make pack")
    pack = packs[0]
    print(f"pack {pack['file']}: {pack['bytes']:,} bytes download, raw {pack.get('raw_bytes')}, table {pack['memory_bytes']:,} bytes")
    tiles = [int(t) for t in HARD["H01"][0].split()]
    server = SiteServer(site).start()
    try:
        with sync_playwright() as p:
            browser = launch_chromium(p)
            ctx = browser.new_context(viewport={"width": 1280, "height": 900})
            page = ctx.new_page()
            app = App(page, server)
            ready = app.open("#tiles=" + ",".join(map(str, tiles)) + "&shape=4x4")
            print(f"page ready {ready:.1f} s; memory {memory()}")
            page.wait_for_selector("#pack-panel[data-state=offered]", state="attached", timeout=30_000)
            print("button:", page.inner_text("#pack-button"))
            t0 = time.monotonic()
            page.click("#pack-button")
            page.wait_for_function(
                "() => /unpacking/.test(document.querySelector('#pack-status').textContent)"
                " || document.querySelector('#pack-panel').dataset.state !== 'downloading'",
                timeout=600_000,
                polling=50,
            )
            t1 = time.monotonic()
            page.wait_for_selector("#pack-panel:not([data-state=downloading])", state="attached", timeout=600_000)
            t2 = time.monotonic()
            st = page.get_attribute("#pack-panel", "data-state")
            print(
                f"pack {st}: download {t1 - t0:.1f} s, decode + load {t2 - t1:.1f} s, total {t2 - t0:.1f} s; "
                f"status {page.inner_text('#pack-status')!r}; memory {memory()}"
            )
            if st != "loaded":
                sys.exit("the pack did not load")
            if not args.no_reload:
                page.wait_for_selector("html[data-offline=ready]", state="attached", timeout=300_000)
                t0 = time.monotonic()
                page.reload()
                app.wait_ready()
                page.wait_for_selector("#pack-panel[data-state=loaded]", state="attached", timeout=600_000)
                print(f"reload, pack from Cache Storage: ready in {time.monotonic() - t0:.1f} s; memory {memory()}")
            if args.solve != "none":
                text, optimal = HARD[args.solve]
                app.set_position([int(t) for t in text.split()], "4x4")
                t0 = time.monotonic()
                sol = app.solve("auto", timeout=3_600_000)
                wall = time.monotonic() - t0
                print(
                    f"{args.solve}: {sol['length']} moves (optimal {optimal}) in {wall:.1f} s wall; "
                    f"{page.inner_text('#solution-meta')}; memory {memory()}"
                )
            browser.close()
    finally:
        server.stop()
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
