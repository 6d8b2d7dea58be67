"""End-to-end test of the optional pattern-database pack (the web side).

The real 7-8 pack is ~100 MB and takes a quarter of an hour to build, so the
test serves a copy of the site whose manifest lists a *small but valid* pack:
the same builder (``py/dbbuild/pack78.py``) on the 3x3 board with groups
{1..4}, {5..8}, registered under the ``pdb78`` bound exactly like the real one
(as in ``tests/test_pdb78.py``).  The page must offer it for 3x3 only, never
fetch it unasked, report a damaged download clearly (and keep working), load
it on request with a progress bar, use it for ``auto``, and — with the server
stopped — load it again from Cache Storage after a reload.
"""

from __future__ import annotations

import json
import lzma
import shutil
import sys
from pathlib import Path

import pytest

from .conftest import (
    READY_TIMEOUT_MS,
    ROOT,
    WORK_TIMEOUT_MS,
    App,
    SiteServer,
    assert_no_axe_violations,
    copy_site,
    memory_text,
    page_memory,
    save_screenshot,
    worker_memory,
)

PACK_FILE = "pdb-78.f15.xz"
POSITION_3x3 = [8, 6, 7, 2, 5, 4, 3, 0, 1]  # 31 moves, the 3x3 maximum
OPTIMAL_3x3 = 31


def _small_pack() -> bytes:
    pytest.importorskip("numpy")
    sys.path.insert(0, str(ROOT / "py"))
    from dbbuild import pack78
    from fifteen.db import container

    data = pack78.build_pack(3, 3, "44", [[1, 2, 3, 4], [5, 6, 7, 8]])
    asset = container.read_asset(data)
    meta = dict(asset.meta, partition="78")  # registered as the "pdb78" bound
    return container.write_xz(_container(meta, asset.payload))  # the shipped form: xz of a plain container


def _container(meta, payload) -> bytes:
    from fifteen.db import container

    return container.write_asset(meta, payload, compress=False)


def _site_with_pack(tmp: Path, pack: bytes, raw_bytes: int) -> Path:
    """A copy of the site (symlinks) whose manifest lists a 3x3 pack; returns the pack's path."""
    db, manifest = copy_site(tmp)
    manifest["packs"] = [
        {
            "file": PACK_FILE,
            "kind": "pdb78",
            "shapes": ["3x3"],
            "bytes": len(pack),
            "optional": True,
            "bound": "pdb78",
            "label": "Hard-positions pack (test, 3x3)",
            "memory_bytes": 4096,
            "encoding": "nibbles",
            "compression": "xz",
            "raw_bytes": raw_bytes,
        }
    ]
    (db / "manifest.json").write_text(json.dumps(manifest))
    return db / PACK_FILE


def _bound_options(page) -> list[str]:
    return page.eval_on_selector_all("#bound-select option", "os => os.map(o => o.value)")


def test_optional_pack_download_use_and_offline(browser, tmp_path):
    pack = _small_pack()
    from fifteen.db import container

    plain = lzma.decompress(pack)
    pack_path = _site_with_pack(tmp_path, pack, len(plain))
    damaged = bytearray(pack)
    damaged[len(damaged) // 2] ^= 0xFF  # same size: the xz decoder finds it
    pack_path.write_bytes(bytes(damaged))

    server = SiteServer(tmp_path).start()
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    requests: list[str] = []
    ctx.on("request", lambda r: requests.append(r.url))
    try:
        page = ctx.new_page()
        app = App(page, server)
        app.open("#tiles=" + ",".join(map(str, POSITION_3x3)) + "&shape=3x3")

        # Offered (with its size and the memory warning), not fetched, not yet a bound.
        page.wait_for_selector("#pack-panel:not([hidden])", timeout=10_000)
        assert page.get_attribute("#pack-panel", "data-state") == "offered"
        button = page.inner_text("#pack-button")
        assert "Download hard-positions pack" in button and "kB" in button, button  # decimal units (issue 33)
        assert "400 MB" not in page.inner_text("#pack-note")  # the manifest's figures are used
        assert "of memory while loading" in page.inner_text("#pack-note")
        assert "pdb78" not in _bound_options(page)
        assert not any(PACK_FILE in u for u in requests), "the pack was fetched without being asked for"

        # A damaged download: a clear error, a retry button, and the app keeps working.
        page.click("#pack-button")
        page.wait_for_selector("#pack-panel[data-state=error]", timeout=WORK_TIMEOUT_MS, state="attached")
        assert any(PACK_FILE in u for u in requests)
        status = page.inner_text("#pack-status")
        assert "corrupt" in status.lower(), status
        assert "Traceback" not in status and "error code" not in status
        assert page.is_visible("#pack-button") and "Retry" in page.inner_text("#pack-button")
        assert "pdb78" not in _bound_options(page)
        save_screenshot(page, "pack-error")
        assert app.solve("auto")["length"] == OPTIMAL_3x3

        # An intact xz of a damaged container: Python's CRC-32 check refuses it, just as cleanly.
        inner = bytearray(plain)
        inner[len(inner) // 2] ^= 0x01
        pack_path.write_bytes(container.write_xz(bytes(inner)))
        page.click("#pack-button")
        page.wait_for_selector("#pack-panel[data-state=error]", timeout=WORK_TIMEOUT_MS, state="attached")
        status = page.inner_text("#pack-status")
        assert "checksum" in status.lower(), status
        assert "Traceback" not in status and "pdb78" not in _bound_options(page)

        # Retry with the good file: progress bar filled, "loaded", bound offered and used by auto.
        pack_path.write_bytes(pack)
        page.click("#pack-button")
        page.wait_for_selector("#pack-panel[data-state=loaded]", timeout=WORK_TIMEOUT_MS, state="attached")
        assert "Hard-positions pack loaded" in page.inner_text("#pack-status")
        assert not page.is_visible("#pack-button")
        bar = page.eval_on_selector("#pack-progress", "p => [p.value, p.max]")
        assert bar == [len(pack), len(pack)], bar
        assert "pdb78" in _bound_options(page)
        sol = app.solve("auto")
        assert sol["length"] == OPTIMAL_3x3
        assert "7-8" in page.inner_text("#solution-meta"), page.inner_text("#solution-meta")
        assert app.solve("pdb78")["length"] == OPTIMAL_3x3
        save_screenshot(page, "pack-loaded")
        # The Workers card counts the memory the worker reported with the pack loaded (its table
        # lives in that wasm memory), not the manifest's memory_bytes on top of an estimate.
        heap, rest = worker_memory(page)
        assert heap > 0 and heap % 65536 == 0, heap
        note = page.inner_text("#workers-note")
        assert note.startswith(f"about {memory_text(page_memory(page) + heap + rest)} of memory with the pack"), note

        # Other shapes are not offered the pack.
        app.set_position(list(range(1, 16)) + [0], "4x4")
        page.wait_for_selector("#pack-panel[hidden]", timeout=10_000, state="attached")

        # Offline: the service worker has the site, Cache Storage has the pack.
        page.wait_for_selector("html[data-offline=ready]", timeout=120_000, state="attached")
        assert page.evaluate("async () => (await caches.keys()).includes('fifteen-packs')")
        app.set_position(POSITION_3x3, "3x3")
        server.stop()
        page.reload()
        app.wait_ready()
        assert page.evaluate("() => !!navigator.serviceWorker.controller")
        page.wait_for_selector("#pack-panel[data-state=loaded]", timeout=READY_TIMEOUT_MS, state="attached")
        assert "pdb78" in _bound_options(page)
        assert app.solve("auto")["length"] == OPTIMAL_3x3
        assert "7-8" in page.inner_text("#solution-meta")
    finally:
        ctx.close()
        server.stop()
        shutil.rmtree(tmp_path, ignore_errors=True)


# ------------------------------------------------------------------ explorer tables
TABLE_FILE = "explore-2x4.f15.xz"


def _site_with_explorer_table(tmp: Path) -> bytes:
    """A copy of the site whose 2x4 explorer table is an optional pack (as the 3x4 and 2x6 tables
    are on a site that has them: ``make explorer-pack``) instead of a built-in asset; its bytes."""
    sys.path.insert(0, str(ROOT / "py"))
    from dbbuild import explorer as explorer_build

    db, manifest = copy_site(tmp, skip_assets=("explore-2x4.f15",))
    manifest["assets"] = [a for a in manifest["assets"] if a["file"] != "explore-2x4.f15"]
    table = explorer_build.build_asset(2, 4, xz=True)
    (db / TABLE_FILE).write_bytes(table)
    manifest["packs"] = [
        {
            "file": TABLE_FILE,
            "kind": "explore",
            "shapes": ["2x4", "4x2"],
            "bytes": len(table),
            "optional": True,
            "label": "Explorer table 2x4 (exact distances)",
            "memory_bytes": 4096,
            "compression": "xz",
        }
    ]
    (db / "manifest.json").write_text(json.dumps(manifest))
    return table


def test_an_explorer_table_is_offered_downloaded_and_kept_like_the_pack(browser, tmp_path):
    """Issue 24, 6: on a 4x4 board the explorer's menu showed 3x3 while its message said "Choose a
    board above" (and choosing 3x3 did nothing); the optional tables were offered in words but
    could not be fetched from the page."""
    table = _site_with_explorer_table(tmp_path)
    server = SiteServer(tmp_path).start()
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    requests: list[str] = []
    ctx.on("request", lambda r: requests.append(r.url))
    try:
        app = App(ctx.new_page(), server)
        page = app.page
        app.open("#tiles=" + ",".join(map(str, range(1, 16))) + ",0")
        page.click("#lab-explorer > summary")
        page.wait_for_function("() => /Choose a board/.test(document.querySelector('#explorer-status').textContent)")
        assert page.input_value("#explorer-shape") == ""  # no board preselected
        labels = page.eval_on_selector_all("#explorer-shape option", "os => os.map(o => o.textContent)")
        assert "2×4 (optional, 3 kB)" in labels, labels
        page.select_option("#explorer-shape", "3x3")
        page.wait_for_selector("#lab-explorer[data-shape='3x3']", state="attached", timeout=30_000)
        # The optional table: offered with its size, fetched only when asked.
        page.select_option("#explorer-shape", "2x4")
        page.wait_for_selector("#explorer-pack[data-state=offered]", timeout=30_000)
        assert page.get_attribute("#board", "data-shape") == "2x4"
        assert page.inner_text("#explorer-pack-button") == "Download the 2×4 and 4×2 table (3 kB)"
        assert "optional download" in page.inner_text("#explorer-status")
        assert page.is_hidden("#pack-panel")  # not the Solve card's pack
        assert not any(TABLE_FILE in u for u in requests)
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            assert_no_axe_violations(page, f"explorer table offered ({scheme})")
        page.emulate_media(color_scheme="light")
        page.click("#explorer-pack-button")
        page.wait_for_selector("#lab-explorer[data-shape='2x4']", state="attached", timeout=WORK_TIMEOUT_MS)
        assert page.get_attribute("#explorer-pack", "data-state") == "loaded"
        assert "kept for offline use" in page.inner_text("#explorer-pack-status")
        assert page.eval_on_selector("#explorer-pack-progress", "p => [p.value, p.max]") == [len(table), len(table)]
        assert page.locator("#explorer-histogram .bar").count() == 37  # 2x4: distances 0..36
        # Kept: a new visit loads it from Cache Storage, without fetching it again.
        fetched = sum(TABLE_FILE in u for u in requests)
        page.reload()
        app.wait_ready()
        page.click("#lab-explorer > summary")
        page.select_option("#explorer-shape", "4x2")
        page.wait_for_selector("#lab-explorer[data-shape='4x2']", state="attached", timeout=WORK_TIMEOUT_MS)
        assert page.get_attribute("#explorer-pack", "data-state") == "loaded"
        assert sum(TABLE_FILE in u for u in requests) == fetched
    finally:
        ctx.close()
        server.stop()
