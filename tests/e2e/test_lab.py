"""End-to-end tests of the lab (static/js/control/lab.js): Compare bounds, the bound trace,
Explain, the small-board explorer and hints, on the shared page (fixture
``ready_app``: no extra Pyodide start).

The full lab on Korf #1 would search about 76 million nodes with Manhattan
distance alone (minutes in Pyodide), so the comparison runs every bound on the
8-puzzle preset and, on Korf #1, only the two pattern databases (about 830
thousand nodes): each finished line must give the optimum, with the node counts
of ``python -m fifteen compare`` (docs/web-app.md, "The lab").
"""

from __future__ import annotations

import json

from .conftest import ROOT, save_screenshot

PRESETS = {p["id"]: p for p in json.loads((ROOT / "static/data/lab-presets.json").read_text())["presets"]}
EXAMPLES = {e["id"]: e for e in json.loads((ROOT / "static/data/examples.json").read_text())["examples"]}

# Total nodes per bound, as `python -m fifteen compare --preset 8p31` and `solve --bound NAME` report them.
NODES_8P31 = {"md": 9710, "lc": 5340, "id": 9630, "wd": 2522, "wdid": 2082}
NODES_KORF1 = {"pdb555": 658810, "pdb663": 168325}


def open_card(page, card: str) -> None:
    if not page.eval_on_selector(f"#{card}", "d => d.open"):
        page.click(f"#{card} > summary")


def summary_rows(page) -> dict[str, dict]:
    return page.eval_on_selector_all(
        "#lab-summary tbody tr",
        "rows => Object.fromEntries(rows.map(r => [r.dataset.bound, "
        "{finished: r.dataset.finished, length: r.dataset.length, nodes: Number(r.dataset.nodes)}]))",
    )


def run_comparison(app, preset: str, bounds: list[str] | None = None, budget: str | None = None) -> dict[str, dict]:
    page = app.page
    page.select_option("#lab-preset", preset)
    want = ",".join(map(str, PRESETS[preset]["tiles"]))
    page.wait_for_function("w => document.querySelector('#board').dataset.tiles === w", arg=want)
    page.wait_for_selector("#lab-bounds input[type=checkbox]")
    if bounds is not None:
        for box in page.query_selector_all("#lab-bounds input[type=checkbox]"):
            box.set_checked(box.get_attribute("value") in bounds)
    if budget is not None:
        page.fill("#lab-budget", budget)
    runs = int(page.get_attribute("#lab-compare", "data-runs") or 0)
    page.click("#lab-run")
    page.wait_for_selector(f"#lab-compare[data-runs='{runs + 1}']", state="attached", timeout=600_000)
    return summary_rows(page)


def test_compare_bounds_8puzzle_and_korf1(ready_app):
    app = ready_app
    page = app.page
    open_card(page, "lab-compare")

    rows = run_comparison(app, "8p31")
    assert list(rows) == ["md", "lc", "id", "wd", "wdid"]  # every bound of 3x3, weakest first
    for name, row in rows.items():
        assert row == {"finished": "true", "length": "31", "nodes": NODES_8P31[name]}, name
    # one line per bound in the chart, the optimum marked
    assert page.locator("#lab-chart .series").count() == 5
    assert page.locator("#lab-chart .optimum").count() == 1
    assert page.text_content("#lab-chart .optimum-label") == "optimum 31"
    # the per-iteration table ends with the totals
    total = page.eval_on_selector("#lab-iterations tbody tr:last-child", "r => [...r.cells].map(c => c.textContent)")
    assert total == ["total", *(str(NODES_8P31[n]) for n in rows)]
    assert page.is_enabled("#lab-copy-md") and page.is_enabled("#lab-share")

    # the comparison's link: another position, then the link brings back the position and runs its bounds
    link = page.get_attribute("#lab-share-link", "href")
    assert link.endswith("#tiles=8,6,7,2,5,4,3,0,1&lab=md,lc,id,wd,wdid&budget=1000000")
    app.set_position(EXAMPLES["korf55"]["tiles"])
    runs = int(page.get_attribute("#lab-compare", "data-runs"))
    page.evaluate("f => { location.hash = f; }", link.split("#", 1)[1])
    page.wait_for_selector(f"#lab-compare[data-runs='{runs + 1}']", state="attached", timeout=120_000)
    assert app.board_tiles() == PRESETS["8p31"]["tiles"]
    assert {n: r["nodes"] for n, r in summary_rows(page).items()} == NODES_8P31

    rows = run_comparison(app, "korf1", bounds=list(NODES_KORF1))
    assert list(rows) == ["pdb555", "pdb663"]
    for name, row in rows.items():
        assert row == {"finished": "true", "length": str(PRESETS["korf1"]["optimal"]), "nodes": NODES_KORF1[name]}, name
    assert PRESETS["korf1"]["optimal"] == 57
    assert "Korf" in page.inner_text("#lab-preset-text")
    page.locator("#lab-compare").scroll_into_view_if_needed()
    save_screenshot(page, "lab-compare", full_page=True)


def test_compare_budget_leaves_an_unfinished_line(ready_app):
    page = ready_app.page
    open_card(page, "lab-compare")
    rows = run_comparison(ready_app, "8p31", bounds=["md", "wdid"], budget="2k")
    assert rows["md"]["finished"] == "false" and rows["md"]["length"] == ""
    assert 2000 <= rows["md"]["nodes"] <= 2000 + 2048  # the budget is watched every 1,024 nodes
    assert rows["wdid"] == {"finished": "true", "length": "31", "nodes": NODES_8P31["wdid"]}
    assert page.locator("#lab-chart .series.unfinished").count() == 1
    assert "+" in page.inner_text("#lab-iterations tbody tr:last-child")


def test_explain_and_trace_on_korf1(ready_app):
    app = ready_app
    page = app.page
    app.set_position(EXAMPLES["korf1"]["tiles"])
    open_card(page, "lab-explain")
    page.wait_for_selector("#explain-body .wd-table")
    text = page.inner_text("#explain-body")
    assert "Walking distance 43 = 26 + 17" in text
    assert "Inversion distance 47 = 28 + 19" in text
    assert "80//3 + 80%3 = 26 + 2 = 28" in text
    assert "Linear conflict 43 = MD 41 + 2" in text
    # linear conflicts on the board: column 1 holds 13 and 9, 13 is taken out
    page.check("#explain-colour input[value=lc]")
    assert page.eval_on_selector_all("#board .tile.lc-out", "ts => ts.map(t => t.dataset.tile)") == ["13"]
    # the 6-6-3 database's groups: every tile coloured, three groups
    page.check("#explain-colour input[value=pdb663]")
    groups = page.eval_on_selector_all("#board .tile", "ts => ts.map(t => [...t.classList].find(c => c.startsWith('group-')) || '')")
    assert sorted(set(groups)) == ["group-0", "group-1", "group-2"] and len(groups) == 15

    # the bound trace along the solution, following playback
    result = app.solve("auto")
    assert result["length"] == 57
    page.wait_for_selector("#trace-panel:not([hidden])")
    save_screenshot(page, "lab-trace-explain", full_page=True)
    page.check("#explain-colour input[value='']")
    assert page.locator("#board .tile.group-0").count() == 0
    assert page.locator("#trace-chart .series").count() >= 6  # the staircase + every bound of 4x4
    assert page.get_attribute("#trace-panel", "data-step") == "0"
    assert page.inner_text("#trace-note").startswith("Step 0: 57 moves left")
    page.click("#play-end")
    page.wait_for_selector("#trace-panel[data-step='57']", state="attached")
    assert page.inner_text("#trace-note").startswith("Step 57: 0 moves left")
    page.click("#play-start")
    open_card(page, "lab-explain")
    page.click("#lab-explain > summary")  # close: the board loses its colours


def test_explorer_31_moves_and_hint_on_korf(ready_app):
    app = ready_app
    page = app.page
    # a board without a table: a clear message
    app.set_position(EXAMPLES["korf55"]["tiles"])
    open_card(page, "lab-explorer")
    page.wait_for_function("() => /no table for a 4x4 board/.test(document.querySelector('#explorer-status').textContent)")
    assert page.is_hidden("#explorer-info")

    # 3x3: the histogram (radius 31), a click on the last bar loads a 31-move position
    page.select_option("#explorer-shape", "3x3")
    page.wait_for_selector("#lab-explorer[data-shape='3x3']", state="attached")
    assert page.locator("#explorer-histogram .bar").count() == 32
    assert "181,440 positions, radius 31 (2 at it)" in page.inner_text("#explorer-summary")
    assert page.locator("#explorer-hardest button").count() == 2
    page.click("#explorer-histogram .bar[data-distance='31']")
    page.wait_for_selector("#explorer-position[data-distance='31']", state="attached", timeout=30_000)
    tiles = app.board_tiles()
    assert tiles in ([8, 6, 7, 2, 5, 4, 3, 0, 1], [6, 4, 7, 8, 5, 0, 3, 2, 1])
    save_screenshot(page, "lab-explorer", full_page=True)
    assert app.solve("auto")["length"] == 31
    # one optimal move from the explorer's list: distance 30
    page.click("#explorer-position button.btn-primary")
    page.wait_for_selector("#explorer-position[data-distance='30']", state="attached")
    page.click("#lab-explorer > summary")

    # hint on Korf #55 (41 moves): the next optimal move keeps the optimum
    app.set_position(EXAMPLES["korf55"]["tiles"])
    open_card(page, "lab-hint")
    page.click("#hint-next")
    page.wait_for_selector("#hint-result[data-tile]:not([data-tile=''])", state="attached", timeout=120_000)
    assert page.get_attribute("#hint-result", "data-distance") == "41"
    hinted = page.get_attribute("#hint-result", "data-tile")
    assert page.eval_on_selector_all("#board .tile.hinted", "ts => ts.map(t => t.dataset.tile)") == [hinted]
    page.click("#hint-apply")
    page.wait_for_function("t => document.querySelector('#board').dataset.tiles !== t", arg=",".join(map(str, EXAMPLES["korf55"]["tiles"])))
    assert app.solve("auto")["length"] == 40
    page.click("#hint-all")
    page.wait_for_selector("#hint-result[data-distance='40']", state="attached", timeout=120_000)
    assert "All optimal moves" in page.inner_text("#hint-result")
    page.click("#lab-hint > summary")


def test_compare_skip_keeps_the_partial_line(ready_app):
    """Skip stops the running bound (its line stays, unfinished) and goes on with the next one."""
    page = ready_app.page
    open_card(page, "lab-compare")
    runs = int(page.get_attribute("#lab-compare", "data-runs") or 0)
    page.select_option("#lab-preset", "korf1")
    page.wait_for_selector("#lab-bounds input[value=md]")
    for box in page.query_selector_all("#lab-bounds input[type=checkbox]"):
        box.set_checked(box.get_attribute("value") in ("md", "pdb663"))
    page.fill("#lab-budget", "50M")
    page.click("#lab-run")
    # md's line grows live: wait for its first reports, then skip it
    page.wait_for_function(
        "() => Number(document.querySelector('#lab-summary tbody tr[data-bound=md]')?.dataset.nodes) > 100000", timeout=120_000
    )
    assert page.locator("#lab-chart .series.s-md circle").count() >= 3
    page.click("#lab-skip")
    page.wait_for_selector(f"#lab-compare[data-runs='{runs + 1}']", state="attached", timeout=300_000)
    rows = summary_rows(page)
    assert rows["md"]["finished"] == "false" and rows["md"]["nodes"] > 100000
    assert rows["pdb663"] == {"finished": "true", "length": "57", "nodes": NODES_KORF1["pdb663"]}
    assert "no (stopped)" in page.inner_text("#lab-summary tbody tr[data-bound=md]")
    assert page.locator("#lab-chart .series.s-md.unfinished").count() == 1
    ready_app.wait_ready()
