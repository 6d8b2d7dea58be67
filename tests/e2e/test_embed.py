"""The embeddable solver (static/js/fifteen.js) as another page uses it: examples/embed.html of a
fresh dist, under /fifteen/ on a GitHub-Pages-like host, under the app's strict policy.

* ``createSolver().solve(Korf #1)`` resolves to the JSON of ``fifteen solve --json``: 57 moves,
  9,707 nodes with pdb771; ``bounds`` to that of ``bounds --json``; an abort rejects with the
  signal's reason and leaves the solver usable;
* ``<fifteen-puzzle>`` is defined by the one script tag, slides tiles, solves with Solve
  (``fifteen-solution``, then the playback reaches the goal: ``fifteen-goal``) and stops with Stop;
* the example page's own form solves through the module;
* no CSP violation anywhere (page, workers, host reports);
* once the app has cached its build for offline use, the example opens and solves offline.
"""

from __future__ import annotations

from .conftest import WORK_TIMEOUT_MS, App
from .hosting import PagesHost, built_dist
from .test_app import EXAMPLES
from .test_csp import POLICY, Collector

PREFIX = "/fifteen/"
KORF_1 = "13 6 8 12 15 14 0 10 11 7 4 5 9 1 3 2"
#: The keys of `fifteen solve --json`, in order (tests/test_cli.py SOLVE_KEYS, then the position's bounds).
SOLVE_KEYS = ["shape", "rows", "cols", "tiles", "goal", "bound", "length", "moves", "directions", "goal_frame", "h0", "nodes"]
SOLVE_KEYS += ["setup_seconds", "seconds", "cpu_seconds", "nodes_per_second", "iterations", "bounds", "summary"]

#: Whether the element's status line says *arg*.
STATUS_IS = "text => document.querySelector('fifteen-puzzle').shadowRoot.querySelector('.status').textContent === text"

MODULE_SOLVE = """async (tiles) => {
  const { createSolver, VERSION } = await import("../static/js/fifteen.js");
  const solver = createSolver();
  try {
    const result = await solver.solve(tiles);
    const bounds = await solver.bounds(tiles);
    const stop = new AbortController();
    const aborted = solver.solve("1 5 9 13 2 6 10 14 3 7 11 15 4 8 12 0", { signal: stop.signal, bound: "md" });
    setTimeout(() => stop.abort(), 300);
    const abort = await aborted.then(() => "resolved", (e) => e.name);
    const after = await solver.solve("1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15");
    const version = (await solver.ready()).version;
    return { VERSION, version, result, bounds, abort, after: after.length };
  } finally {
    solver.close();
  }
}"""


def _host():
    return PagesHost(
        built_dist(PREFIX, "gzip"),
        PREFIX,
        extra_headers={"Content-Security-Policy-Report-Only": f"{POLICY}; report-uri /csp-report"},
    ).start()


def test_the_example_page_solves_through_the_module_and_the_element(browser):
    host = _host()
    ctx = browser.new_context()
    errors: list[str] = []
    try:
        seen = Collector(ctx)
        page = ctx.new_page()
        seen.watch(page)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(host.url + "examples/embed.html")
        assert page.evaluate("() => customElements.get('fifteen-puzzle') !== undefined")

        got = page.evaluate(MODULE_SOLVE, KORF_1)
        result = got["result"]
        assert (result["length"], result["nodes"], result["bound"]) == (57, 9707, "pdb771")
        assert list(result) == SOLVE_KEYS and result["summary"] == "MD=41 LC=43 WD=26/17 ID=28/19 PDB=51 PDBr=49 LB=51"
        assert got["bounds"]["bounds"]["pdb771"] == 51 and got["bounds"]["auto"] == "pdb771"
        assert got["abort"] == "AbortError" and got["after"] == 1  # stopped, and usable again
        assert got["VERSION"] == "1.0.0" and got["version"] == "0.1.0"

        # The element: a tile slid by a click, then Solve (its own playback back to Korf #1's goal).
        puzzle = page.locator("fifteen-puzzle")
        page.evaluate("""() => {
          window.seen = [];
          for (const type of ["fifteen-move", "fifteen-solution", "fifteen-goal"])
            document.addEventListener(type, (e) => window.seen.push([type, e.detail]));
        }""")
        puzzle.locator("button.tile[data-tile='10']").click()  # right of the gap: slides left
        moved = [13, 6, 8, 12, 15, 14, 10, 0, 11, 7, 4, 5, 9, 1, 3, 2]
        assert page.evaluate("() => window.seen") == [["fifteen-move", {"tile": 10, "direction": "R", "tiles": moved}]]
        assert page.evaluate("() => document.querySelector('fifteen-puzzle').tiles") == moved
        page.evaluate("() => document.querySelector('fifteen-puzzle').setAttribute('speed', '0.5')")  # Stop comes mid-playback
        puzzle.locator("button.solve").click()
        page.wait_for_function("() => window.seen.some(([type]) => type === 'fifteen-solution')", timeout=180_000)
        solution = page.evaluate("() => window.seen.find(([type]) => type === 'fifteen-solution')[1].result")
        assert solution["length"] == 58 and solution["bound"] == "pdb771"  # one move more than Korf #1 (the CLI's too)
        assert puzzle.locator("button.stop").is_enabled()
        puzzle.locator("button.stop").click()  # stops the playback where it is
        page.wait_for_function(
            "() => document.querySelector('fifteen-puzzle').shadowRoot.querySelector('.status').textContent === 'Stopped.'"
        )
        assert not page.evaluate("() => document.querySelector('fifteen-puzzle').busy")
        page.evaluate("() => document.querySelector('fifteen-puzzle').setAttribute('speed', '60')")
        puzzle.locator("button.solve").click()  # from where it stopped: the rest, played to the goal
        page.wait_for_function("() => window.seen.some(([type]) => type === 'fifteen-goal')", timeout=180_000)
        assert page.evaluate("() => document.querySelector('fifteen-puzzle').tiles") == [*range(1, 16), 0]
        assert "Solved in" in puzzle.locator("[part=status]").text_content()

        # The page's own form (examples/embed.js).
        page.click("#solve")
        page.wait_for_function("() => document.getElementById('module-status').textContent.startsWith('57 moves')", timeout=WORK_TIMEOUT_MS)
        assert page.text_content("#module-status").startswith("57 moves (pdb771, 9,707 nodes): ")

        seen.harvest()
        assert not seen.events and not seen.console and not host.reports, (seen.events, seen.console, host.reports)
        assert not errors, errors
    finally:
        ctx.close()
        host.stop()


def test_the_example_works_offline_once_the_app_cached_its_build(browser):
    host = _host()
    ctx = browser.new_context()
    try:
        page = ctx.new_page()
        app = App(page, host)
        app.open("#tiles=" + ",".join(map(str, EXAMPLES["korf55"]["tiles"])))
        app.solve("auto")
        page.wait_for_selector("html[data-offline=ready]", timeout=120_000, state="attached")
        host.stop()
        page.goto(host.url + "examples/embed.html")
        page.wait_for_function("() => document.getElementById('module-status').textContent.startsWith('Ready')", timeout=120_000)
        page.click("#solve")
        page.wait_for_function("() => document.getElementById('module-status').textContent.startsWith('57 moves')", timeout=WORK_TIMEOUT_MS)
        assert page.evaluate("() => customElements.get('fifteen-puzzle') !== undefined")
    finally:
        ctx.close()
        host.stop()
