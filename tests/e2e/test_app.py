"""End-to-end tests of the browser app in headless Chromium.

Most tests share ONE page (fixture ``app``), so Pyodide loads once for them;
positions are changed through the share-link fragment or the text field.  The
corrupt-asset test needs its own server (a copy of the site with a damaged
database) and therefore loads Pyodide a second time.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from .conftest import ROOT, WORK_TIMEOUT_MS, App, SiteServer, assert_no_axe_violations, copy_site, save_screenshot

EXAMPLES = {e["id"]: e for e in json.loads((ROOT / "static/data/examples.json").read_text())["examples"]}
HARD_80 = EXAMPLES["h01"]["tiles"]


# ------------------------------------------------------------------ helpers
def goal(rows: int, cols: int) -> list[int]:
    return list(range(1, rows * cols)) + [0]


def apply_tile_moves(tiles: list[int], cols: int, moves: list[int]) -> list[int]:
    """Slide the given tiles one by one; fail on an illegal move."""
    t = list(tiles)
    for m in moves:
        b, i = t.index(0), t.index(m)
        assert abs(b - i) == cols or (abs(b - i) == 1 and b // cols == i // cols), f"illegal move {m}"
        t[b], t[i] = m, 0
    return t


def optimal_length(tiles: list[int], rows: int, cols: int) -> int:
    """IDA* with Manhattan distance — for the short test positions only."""
    t = list(tiles)
    n = rows * cols

    def md() -> int:
        return sum(abs(i // cols - (v - 1) // cols) + abs(i % cols - (v - 1) % cols) for i, v in enumerate(t) if v)

    def nbrs(b):
        r, c = divmod(b, cols)
        if r > 0:
            yield b - cols
        if r < rows - 1:
            yield b + cols
        if c > 0:
            yield b - 1
        if c < cols - 1:
            yield b + 1

    g_goal = goal(rows, cols)

    def dfs(b, g, bound, prev):
        h = md()
        if g + h > bound:
            return False
        if t == g_goal:
            return True
        for nb in nbrs(b):
            if nb == prev:
                continue
            t[b], t[nb] = t[nb], 0
            found = dfs(nb, g + 1, bound, b)
            t[nb], t[b] = t[b], 0
            if found:
                return True
        return False

    bound = md()
    while not dfs(t.index(0), 0, bound, -1):
        bound += 2
        assert bound <= n * 6, "position too hard for the test helper"
    return bound


def scramble(rows: int, cols: int, directions: str) -> list[int]:
    t = goal(rows, cols)
    step = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}
    for d in directions:
        b = t.index(0)
        r, c = b // cols + step[d][0], b % cols + step[d][1]
        assert 0 <= r < rows and 0 <= c < cols, f"scramble {directions!r} leaves the board"
        t[b], t[r * cols + c] = t[r * cols + c], 0
    return t


SMALL_4x4 = scramble(4, 4, "UULLDRURULLDDRULDDRR"[:18])


# ------------------------------------------------------------------ tests
def test_page_loads_and_reports_ready(app: App):
    app.wait_ready()
    assert app.state() in ("ready", "solved", "cancelled")
    options = app.page.eval_on_selector_all("#bound-select option", "os => os.map(o => o.value)")
    assert "auto" in options and len(options) >= 2, options
    assert app.page.inner_text("#bounds").strip(), "the bounds line stays empty"
    assert not [c for c in app.console if c.startswith("pageerror")], app.console
    print(f"\npage ready after {app.ready_seconds:.1f} s (cold, first load in this browser)")


def test_solve_known_position_and_play_back(ready_app: App):
    app = ready_app
    ex = EXAMPLES["korf55"]
    app.set_position(ex["tiles"])
    assert app.page.input_value("#tiles-input").split() == [str(t) for t in ex["tiles"]]
    sol = app.solve("auto")
    assert sol["length"] == ex["optimal"]
    assert len(sol["moves"]) == ex["optimal"]
    assert apply_tile_moves(ex["tiles"], 4, sol["moves"]) == goal(4, 4)
    assert len(sol["directions"]) == ex["optimal"] and set(sol["directions"]) <= set("UDLR")
    # Playback: step, back, then to the end — the board must show the goal.
    page = app.page
    page.click("#play-step")
    assert page.inner_text("#play-counter").startswith("1 /")
    assert app.board_tiles() == apply_tile_moves(ex["tiles"], 4, sol["moves"][:1])
    page.click("#play-back")
    assert app.board_tiles() == ex["tiles"]
    page.click("#play-end")
    assert app.board_tiles() == goal(4, 4)
    assert page.inner_text("#play-counter") == f"{ex['optimal']} / {ex['optimal']}"
    # And real playback (timer) from the start at top speed ends on the goal too.
    page.click("#play-start")
    page.fill("#play-speed", "5")
    page.click("#play-toggle")
    page.wait_for_function("n => document.querySelector('#play-counter').textContent === `${n} / ${n}`", arg=ex["optimal"], timeout=20_000)
    assert app.board_tiles() == goal(4, 4)


def test_keyboard_and_clicks_move_tiles(ready_app: App):
    app = ready_app
    page = app.page
    app.set_position(goal(4, 4))
    page.focus("#board")
    page.keyboard.press("ArrowDown")  # the tile above the gap (12) slides down
    assert app.board_tiles() == scramble(4, 4, "U")
    page.keyboard.press("ArrowRight")  # the tile left of the gap (11) slides right
    assert app.board_tiles() == scramble(4, 4, "UL")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowUp")
    assert app.board_tiles() == goal(4, 4)
    # A click on a tile in the gap's row slides the whole line.
    page.click("#board .tile[data-tile='13']")
    assert app.board_tiles() == scramble(4, 4, "LLL")
    assert page.input_value("#tiles-input").split() == [str(t) for t in scramble(4, 4, "LLL")]
    page.wait_for_function("() => document.querySelector('#bounds').textContent.includes('MD 3')", timeout=WORK_TIMEOUT_MS)


def test_every_bound_in_the_menu_solves_a_small_position(ready_app: App):
    app = ready_app
    app.set_position(SMALL_4x4)
    want = optimal_length(SMALL_4x4, 4, 4)
    bounds = app.page.eval_on_selector_all("#bound-select option", "os => os.map(o => o.value)")
    assert len(bounds) >= 2
    for bound in bounds:
        sol = app.solve(bound, timeout=120_000)
        assert sol["length"] == want, f"bound {bound}: {sol['length']} != {want}"
        assert apply_tile_moves(SMALL_4x4, 4, sol["moves"]) == goal(4, 4), bound
    app.page.select_option("#bound-select", "auto")


@pytest.mark.parametrize(
    "text, words",
    [
        ("1 2 3 4 5", ["5"]),  # wrong count
        ("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 15", ["15"]),  # duplicate / missing
        ("1 2 3 4 5 6 7 8 9 10 11 12 13 15 14 0", ["solv"]),  # parity
        ("1 2 3 4 5 6 7 8 9 10 11 x 13 14 15 0", ["x"]),  # not a number
        ("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 99", ["99"]),  # out of range
    ],
)
def test_bad_input_shows_its_error(ready_app: App, text, words):
    app = ready_app
    page = app.page
    before = app.board_tiles()
    page.fill("#tiles-input", text)
    page.locator("#tiles-input").blur()  # checked on blur (or Enter, or once the count fits the size)
    page.wait_for_function("() => document.querySelector('#tiles-error').textContent.trim() !== ''", timeout=15_000)
    message = page.inner_text("#tiles-error")
    assert "Traceback" not in message and "Error:" not in message, message
    assert all(w.lower() in message.lower() for w in words), message
    assert page.get_attribute("#tiles-input", "aria-invalid") == "true"
    # Solving refuses the bad text and keeps the board.
    page.click("#solve-button")
    page.wait_for_timeout(300)
    assert app.state() != "solving"
    assert app.board_tiles() == before
    page.fill("#tiles-input", " ".join(map(str, before)))
    page.wait_for_function("() => document.querySelector('#tiles-error').textContent.trim() === ''")


def test_typed_position_is_solved(ready_app: App):
    app = ready_app
    ex = EXAMPLES["korf79"]
    app.page.fill("#tiles-input", " ".join(map(str, ex["tiles"])))
    sol = app.solve("auto")  # the click must use the typed text even before the debounce fires
    assert sol["length"] == ex["optimal"]
    assert apply_tile_moves(ex["tiles"], 4, sol["moves"]) == goal(4, 4)


def test_cancel_stops_a_long_solve_and_the_next_solve_works(ready_app: App):
    app = ready_app
    page = app.page
    app.set_position(HARD_80)
    page.select_option("#bound-select", "auto")
    page.click("#solve-button")
    app.wait_state("solving", timeout=10_000)
    page.wait_for_function("() => document.querySelector('#p-nodes').textContent !== '0'", timeout=WORK_TIMEOUT_MS)
    page.wait_for_timeout(400)  # a Cancel right after Solve counts as a double click (model/page-model.js CLICK_GUARD_MS)
    page.click("#cancel-button")
    assert app.wait_state("cancelled", timeout=5_000) == "cancelled"
    assert page.is_visible("#solve-button") and not page.is_visible("#cancel-button")
    # The status says how the solve stopped, once it has (here, without isolation, by a restart).
    page.wait_for_function(
        "() => /^Cancelled: (stopped in|the solver had to restart)/.test(document.querySelector('#status-text').textContent)",
        timeout=120_000,
    )
    assert page.get_attribute("#solution", "data-length") is None
    # The next solve works (the worker was restarted).
    ex = EXAMPLES["8p31a"]
    app.set_position(ex["tiles"], "3x3")
    sol = app.solve()
    assert sol["length"] == 31
    assert apply_tile_moves(ex["tiles"], 3, sol["moves"]) == goal(3, 3)


def test_3x3_solves(ready_app: App):
    app = ready_app
    ex = EXAMPLES["8p31b"]
    app.set_position(ex["tiles"])  # 9 tiles: 3x3 inferred
    assert app.page.input_value("#shape-select") == "3x3"
    sol = app.solve("auto")
    assert sol["length"] == 31
    assert apply_tile_moves(ex["tiles"], 3, sol["moves"]) == goal(3, 3)


def test_other_shapes_solve(ready_app: App):
    app = ready_app
    for shape, dirs in [("3x4", "ULULDLURDR"), ("4x3", "UULLDRUL"), ("2x4", "LLURDLLUR")]:
        rows, cols = map(int, shape.split("x"))
        tiles = scramble(rows, cols, dirs)
        app.set_position(tiles, shape)
        assert app.page.input_value("#shape-select") == shape
        sol = app.solve("auto")
        assert sol["length"] == optimal_length(tiles, rows, cols), shape
        assert apply_tile_moves(tiles, cols, sol["moves"]) == goal(rows, cols), shape


def test_share_link_restores_its_position(app: App, app_context):
    transposed = EXAMPLES["transposed"]["tiles"]
    page = app_context.new_page()
    try:
        page.goto(app.site.url + "index.html#tiles=" + ",".join(map(str, transposed)))
        page.wait_for_selector("#board[data-tiles]")
        assert page.get_attribute("#board", "data-tiles") == ",".join(map(str, transposed))
        assert page.input_value("#shape-select") == "4x4"
        # 12 tiles are ambiguous: the link names the shape.
        t34 = scramble(3, 4, "ULLU")
        page.goto(app.site.url + "index.html#tiles=" + ",".join(map(str, t34)) + "&shape=3x4")
        page.wait_for_function("want => document.querySelector('#board').dataset.tiles === want", arg=",".join(map(str, t34)))
        assert page.input_value("#shape-select") == "3x4"
        assert page.get_attribute("#board", "data-shape") == "3x4"
        # Any supported shape opens (the size menu lists them all).
        t32 = scramble(3, 2, "ULUR")
        page.goto(app.site.url + "index.html#tiles=" + ",".join(map(str, t32)) + "&shape=3x2")
        page.wait_for_function("want => document.querySelector('#board').dataset.tiles === want", arg=",".join(map(str, t32)))
        assert page.input_value("#shape-select") == "3x2"
    finally:
        page.close()
    # The page writes the current position back into the address bar.
    app.set_position(SMALL_4x4)
    assert app.page.url.endswith("#tiles=" + ",".join(map(str, SMALL_4x4)))


def test_screenshots_desktop_and_phone(ready_app: App, browser, site):
    app = ready_app
    ex = EXAMPLES["korf12"]
    app.set_position(ex["tiles"])
    sol = app.solve("auto")
    assert sol["length"] == ex["optimal"]
    app.page.click("#play-step")
    app.screenshot("desktop-solved", full_page=True)
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True, has_touch=True)
    try:
        phone = App(ctx.new_page(), site)
        phone.open("#tiles=" + ",".join(map(str, ex["tiles"])))
        assert phone.page.evaluate("() => document.documentElement.scrollWidth") <= 390
        phone.screenshot("phone-ready", full_page=True)
        phone.solve("auto")
        # The answer is brought into view (and has the focus) when the solve ends.
        box = phone.page.locator("#solution").bounding_box()
        assert box["y"] < 844 and box["y"] + box["height"] > 0, box
        assert phone.page.evaluate("() => document.activeElement.id") == "solution"
        phone.screenshot("phone-solved", full_page=True)
        # Nothing is wider than the phone (else the browser zooms the page out), and the board fits.
        assert phone.page.evaluate("() => document.documentElement.scrollWidth") <= 390
        box = phone.page.locator(".board-frame").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390 + 1
    finally:
        ctx.close()


def test_offline_reload_works(ready_app: App):
    """After the first visit the service worker has everything: stop the server and reload."""
    app = ready_app
    page = app.page
    page.wait_for_selector("html[data-offline=ready]", timeout=120_000, state="attached")
    app.site.stop()
    try:
        page.reload()
        app.wait_ready()
        assert page.evaluate("() => !!navigator.serviceWorker.controller")
        tiles = scramble(3, 3, "ULULDR")
        app.set_position(tiles, "3x3")
        assert app.solve()["length"] == optimal_length(tiles, 3, 3)
    finally:
        app.site.start()


def test_cancel_uses_the_interrupt_buffer_once_isolated(ready_app: App):
    """From the second load on, the service worker adds COOP/COEP: the page is
    cross-origin isolated and Cancel interrupts Python instead of restarting it."""
    app = ready_app
    page = app.page
    page.wait_for_selector("html[data-offline=ready]", timeout=120_000, state="attached")
    if not page.evaluate("() => !!navigator.serviceWorker.controller && self.crossOriginIsolated"):
        app.open()
    assert page.evaluate("() => self.crossOriginIsolated"), "the service worker did not isolate the page"
    app.set_position(HARD_80)
    page.select_option("#bound-select", "auto")
    page.click("#solve-button")
    app.wait_state("solving", timeout=10_000)
    page.wait_for_function("() => document.querySelector('#p-nodes').textContent !== '0'", timeout=WORK_TIMEOUT_MS)
    page.wait_for_timeout(400)  # a Cancel right after Solve counts as a double click (model/page-model.js CLICK_GUARD_MS)
    page.click("#cancel-button")
    app.wait_state("cancelled", timeout=5_000)
    page.wait_for_function("() => document.querySelector('#status-text').textContent.includes('no restart')", timeout=5_000)
    tiles = scramble(3, 3, "ULULDRDR")
    app.set_position(tiles, "3x3")
    assert app.solve()["length"] == optimal_length(tiles, 3, 3)


# ------------------------------------------------------------------ corrupt database
def _corrupt_site(tmp: Path) -> str:
    """A copy of the site (symlinks) whose 4x4 database is damaged (one loaded before Ready: the
    manifest's "load" first); returns the damaged file's name."""
    manifest_path = ROOT / "static/db/manifest.json"
    assets = json.loads(manifest_path.read_text())["assets"] if manifest_path.exists() else []
    victim = next((a for a in assets if "4x4" in a.get("shapes", []) and a.get("load", "first") == "first"), None)
    db, manifest = copy_site(tmp, skip_assets={victim["file"]} if victim else ())
    if victim is None or not (ROOT / "static/db" / victim["file"]).exists():
        # No real database yet: a well-formed container, then damaged the same way.
        from fifteen.db.container import write_asset

        data = bytearray(write_asset({"kind": "wd", "rows": 4, "cols": 4}, bytes(range(256)) * 64))
        victim = {"file": "wd-4x4.f15", "kind": "wd", "shapes": ["4x4"], "bytes": len(data)}
        manifest["assets"] = [a for a in manifest["assets"] if a["file"] != victim["file"]] + [victim]
    else:
        data = bytearray((ROOT / "static/db" / victim["file"]).read_bytes())
    data[len(data) // 2] ^= 0xFF  # one flipped byte in the payload: only the checksum can tell
    (db / victim["file"]).write_bytes(bytes(data))
    (db / "manifest.json").write_text(json.dumps(manifest))
    return victim["file"]


@pytest.mark.parametrize(
    "text, warning",
    [
        ('{"assets": "x", "packs": 5}', "static/db/manifest.json: 'assets' is 'x', not a list of databases"),
        ("[null]", "not a database list (the JSON is a list of 1 item, not an object)"),
    ],
)
def test_a_manifest_of_the_wrong_shape_is_a_warning_and_solving_works(browser, tmp_path, text, warning):
    """Valid JSON of the wrong shape is read like invalid JSON (fifteen.api.manifest, the native
    rules): a warning in the Loading card, no database, the same optimal answers."""
    db, _ = copy_site(tmp_path)
    (db / "manifest.json").write_text(text)
    server = SiteServer(tmp_path).start()
    ctx = browser.new_context(service_workers="block")
    try:
        app = App(ctx.new_page(), server)
        app.open()
        assert warning in app.page.inner_text("#loading-summary")
        assert app.state() == "ready" and "filter is not a function" not in app.page.content()
        tiles = scramble(3, 3, "ULULDRDRUL")
        app.set_position(tiles, "3x3")
        assert app.solve()["length"] == optimal_length(tiles, 3, 3)
    finally:
        ctx.close()
        server.stop()


def test_corrupt_database_asset_shows_an_error(browser, tmp_path):
    name = _corrupt_site(tmp_path)
    server = SiteServer(tmp_path).start()
    ctx = browser.new_context(service_workers="block")
    try:
        page = ctx.new_page()
        page.goto(server.url + "index.html#tiles=" + ",".join(map(str, SMALL_4x4)))
        page.wait_for_selector("#status[data-state=error]", timeout=180_000, state="attached")
        text = page.inner_text("#status") + " " + page.inner_text("#error-panel")
        assert name in text, text
        assert "damaged: its SHA-256 is not the one static/db/manifest.json lists" in text, text  # worker/assets.js
        assert page.is_visible("#error-panel") and page.is_visible("#retry-button")
        assert "Traceback" not in text
        save_screenshot(page, "corrupt-asset")
        for scheme in ("light", "dark"):  # the error state passes axe-core too
            page.emulate_media(color_scheme=scheme)
            assert_no_axe_violations(page, f"error ({scheme})")
        page.emulate_media(color_scheme="light")
        page.set_viewport_size({"width": 390, "height": 844})  # and on a phone's screen (issue 33)
        assert_no_axe_violations(page, "error at 390 px")
        page.set_viewport_size({"width": 1280, "height": 720})
        # The user may go on without the damaged file (weaker bounds, same optimal answers).
        page.click("#skip-button")
        app = App(page, server)
        app.wait_ready()
        assert name in page.inner_text("#loading-summary")
        assert app.solve()["length"] == optimal_length(SMALL_4x4, 4, 4)
    finally:
        ctx.close()
        server.stop()
        shutil.rmtree(tmp_path, ignore_errors=True)
