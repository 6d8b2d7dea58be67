"""The page in each of the three browser engines (issue 34): Chromium (Playwright), Firefox
(firefox-esr over WebDriver BiDi) and WebKit (WebKitGTK's MiniBrowser through WebKitWebDriver),
each in a fresh profile (a first visit), driven the same way (``tests/e2e/engines.py``).

A smoke run per engine, in order on one page: the first visit gets ready with no error;
Korf #1 is solved in its optimum, 57, replayed to the goal; Cancel during a long solve (the
transposed goal) answers and the next solve works; a 5x5 optimal search stopped, then *Fast
answer* shows an answer; the server stopped, a reload works offline from the service worker and
solves Korf #1 again.  The figures (ready on the first visit and on the offline reload, Stop's
seconds, whether Stop restarted the solver worker, the fast answer's seconds after Stop) are
written to ``test-results/engines.json`` (``bench/engines.py`` measures them for bench/startup.md).

``test_stop_on_a_first_visit_needs_no_restart`` asks for Stop without restarting the worker on a
first visit (not cross-origin isolated), in every engine: what a search that yields to the
worker's messages between slices gives (issue 34, item 1).
"""

from __future__ import annotations

import json
import random

import pytest

from .conftest import RESULTS, ROOT, SiteServer, _check_built, no_browser
from .engines import ENGINES, EngineApp, EngineUnavailable, launch
from .test_app import EXAMPLES, apply_tile_moves, goal

KORF1 = EXAMPLES["korf1"]["tiles"]
TRANSPOSED = EXAMPLES["transposed"]["tiles"]  # 72 moves: minutes in the page
GOAL_5 = list(range(1, 25)) + [0]

FIGURES: dict[str, dict] = {}


def _random_5(seed: int) -> list[int]:
    """A random solvable 5x5 (odd width: solvable when the inversions are even)."""
    rng = random.Random(seed)
    while True:
        tiles = list(range(25))
        rng.shuffle(tiles)
        t = [x for x in tiles if x]
        if sum(a > b for i, a in enumerate(t) for b in t[i + 1 :]) % 2 == 0:
            return tiles


def _replay(tiles: list[int], cols: int, directions: str) -> list[int]:
    t = list(tiles)
    step = {"U": -cols, "D": cols, "L": -1, "R": 1}
    for d in directions:
        b = t.index(0)
        t[b], t[b + step[d]] = t[b + step[d]], 0
    return t


@pytest.fixture(scope="module", params=ENGINES)
def engine_app(request):
    _check_built()
    site = SiteServer(ROOT).start()
    try:
        # Chromium through the session's Playwright (one sync Playwright per thread)
        page = launch(request.param, request.getfixturevalue("playwright_session") if request.param == "chromium" else None)
    except EngineUnavailable as exc:
        site.stop()
        no_browser(str(exc))
    app = EngineApp(page, site.url)
    app.site = site
    app.figures = FIGURES.setdefault(request.param, {"version": page.version})
    try:
        yield app
    finally:
        page.close()
        site.stop()
        RESULTS.mkdir(parents=True, exist_ok=True)
        (RESULTS / "engines.json").write_text(json.dumps(FIGURES, indent=2) + "\n")


def _no_errors(app: EngineApp, when: str) -> None:
    panel = app.page.errors()
    assert not panel, f"{app.page.engine} {when}: the page shows an error: {panel}"
    errors = [m for m in app.page.console() if m.startswith(("error:", "pageerror:"))]
    assert not errors, f"{app.page.engine} {when}: console errors: {errors}"


def test_first_visit_gets_ready(engine_app: EngineApp):
    app = engine_app
    figures = app.open()
    app.figures["first_visit"] = figures
    # a first visit: not cross-origin isolated (the service worker, which may already control the
    # page, adds the headers that isolate it from the next load on)
    assert figures["ready"] > 0 and not figures["isolated"], figures
    assert figures["starts"] == 1, figures
    _no_errors(app, "on the first visit")


def test_korf1_is_solved_in_57(engine_app: EngineApp):
    app = engine_app
    app.set_position(KORF1)
    sol = app.solve()
    assert sol["length"] == 57, sol
    assert _replay(KORF1, 4, sol["directions"]) == goal(4, 4)
    _no_errors(app, "after Korf #1")


def test_stop_during_a_long_solve_then_solve_again(engine_app: EngineApp):
    app = engine_app
    app.start_long_solve(TRANSPOSED)
    stop = app.stop()
    stop.pop("t0")
    app.figures["stop_first_visit"] = stop  # "restarted": the data test_stop_on_a_first_visit_needs_no_restart asserts
    assert app.page.attr("#solution", "data-length") is None
    ex = EXAMPLES["8p31a"]
    app.set_position(ex["tiles"], "3x3")
    sol = app.solve()
    assert sol["length"] == 31
    assert _replay(ex["tiles"], 3, sol["directions"]) == goal(3, 3)
    _no_errors(app, "after Stop")


def test_fast_answer_on_5x5_after_stop(engine_app: EngineApp):
    app = engine_app
    tiles = _random_5(34)
    app.start_long_solve(tiles, "5x5")  # the optimal search: hours
    stop = app.stop_then(app.fast_answer)
    app.figures["fast_answer_after_stop"] = stop
    app.cancel_if_running()
    app.wait_state("cancelled", "solved", timeout=30)
    app.page.wait("() => !!document.querySelector('#solution:not([hidden])')?.dataset.length", timeout=60, what="the best found shown")
    sol = app.solution()
    assert sol["lower_bound"] is not None and sol["lower_bound"] <= sol["length"], sol
    assert _replay(tiles, 5, sol["directions"]) == GOAL_5
    _no_errors(app, "after a fast answer")


def test_offline_reload_works(engine_app: EngineApp):
    app = engine_app
    app.wait_offline_ready()
    app.site.stop()
    try:
        figures = app.reload()
        app.figures["offline_reload"] = figures
        assert figures["controlled"], figures
        app.set_position(KORF1)
        sol = app.solve()
        assert sol["length"] == 57
        assert apply_tile_moves(KORF1, 4, [int(m) for m in app.page.attr("#solution", "data-moves").split()]) == goal(4, 4)
        _no_errors(app, "offline")
    finally:
        app.site.start()


def test_stop_on_a_first_visit_needs_no_restart(engine_app: EngineApp):
    """Stop on a first visit (no cross-origin isolation, so no interrupt buffer) keeps the
    solver worker: html[data-solver-starts] did not change (issue 34, item 1)."""
    stop = engine_app.figures.get("stop_first_visit")
    assert stop is not None, "test_stop_during_a_long_solve_then_solve_again did not run"
    assert not stop["restarted"], f"{engine_app.page.engine}: Stop restarted the solver worker: {stop}"
