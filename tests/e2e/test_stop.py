"""Stop without a restart on a first visit (issue 34, item 1), and one request per step of a Solve
(issue 37, item 4).

A fresh browser context is a first visit: no service worker serves the page, so it is not
cross-origin isolated and its workers have no interrupt buffer (no SharedArrayBuffer).  Stop
then works only through the worker's time slices: it hears the CANCEL between two slices of the
running call (static/js/worker/worker.js, fifteen.search.slices).  On one worker and on the pool
of two, for an optimal search (the transposed goal, minutes) and an anytime one (a 5x5 Fast
answer): Stop ends it, the page says so (the anytime answer's best found shown), no Worker is
made (``fifteenPool.workersStarted``) and the next solve (Korf #1, 57 moves) runs on the same
workers.  How long each Stop took is written to ``test-results/stop.json`` (a measurement, never
asserted: bench/slicing.md).
"""

from __future__ import annotations

import json
import random

import pytest

from .conftest import RESULTS, WORK_TIMEOUT_MS, App

TRANSPOSED = [1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15, 4, 8, 12, 0]  # minutes of search here
KORF_1 = [13, 6, 8, 12, 15, 14, 0, 10, 11, 7, 4, 5, 9, 1, 3, 2]  # 57 moves
KORF_12 = [1, 3, 5, 6, 0, 13, 14, 9, 11, 4, 8, 12, 10, 7, 15, 2]  # 45 moves

# Every CALL a page's worker is sent: window.__calls = [{method, params}] (the worker itself unchanged).
RECORD_CALLS = """
(() => {
  const Real = window.Worker;
  window.__calls = [];
  window.Worker = class extends Real {
    postMessage(msg, transfer) {
      if (msg && msg.type === "call") window.__calls.push({ method: msg.method, params: msg.params });
      super.postMessage(msg, transfer);
    }
  };
})();
"""

# Click Cancel and time, in the page, how long the status takes to say the solve stopped.
CANCEL_AND_TIME = """() => new Promise((resolve) => {
  const status = document.getElementById("status");
  const t0 = performance.now();
  const seen = new MutationObserver(() => {
    if (status.dataset.state === "cancelled" && !/^Cancelling/.test(document.getElementById("status-text").textContent)) {
      seen.disconnect();
      resolve(performance.now() - t0);
    }
  });
  seen.observe(document.body, { attributes: true, childList: true, characterData: true, subtree: true });
  document.getElementById("cancel-button").click();
})"""

STOPS: list[dict] = []


@pytest.fixture(scope="module")
def first_visit(browser, site):
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    ctx.add_init_script(RECORD_CALLS)
    app = App(ctx.new_page(), site)
    app.open()
    assert app.page.evaluate("() => crossOriginIsolated") is False
    assert app.page.evaluate("() => fifteenPool.primary.interrupt") is None, "a first visit has no interrupt buffer"
    yield app
    ctx.close()
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "stop.json").write_text(json.dumps(STOPS, indent=1) + "\n")


def workers_started(app: App) -> int:
    return app.page.evaluate("() => fifteenPool.workersStarted")


def set_workers(app: App, n: int) -> None:
    app.page.select_option("#workers-select", str(n))
    app.page.wait_for_selector(f"#workers-note[data-ready='{n}']", timeout=240_000, state="attached")
    app.wait_ready()


def stop(app: App, what: str) -> float:
    """Cancel the running solve: the milliseconds until the page said it stopped (recorded)."""
    app.page.wait_for_timeout(400)  # past the double-click guard (a Cancel right after Solve is its second click)
    ms = app.page.evaluate(CANCEL_AND_TIME)
    text = app.page.inner_text("#status-text")
    STOPS.append({"what": what, "ms": round(ms, 1), "status": text})
    return ms


def next_solve_works(app: App, started: int) -> None:
    """Korf #1 solved at once by the same workers (no Worker made since `started` was read)."""
    app.wait_ready()
    app.set_position(KORF_1)
    sol = app.solve("auto", timeout=120_000)
    assert sol["length"] == 57
    assert workers_started(app) == started, "a worker was restarted"


@pytest.mark.parametrize("workers", [1, 2])
def test_stop_of_an_optimal_search_on_a_first_visit_restarts_nothing(first_visit: App, workers):
    app = first_visit
    page = app.page
    set_workers(app, workers)
    started = workers_started(app)
    app.set_position(TRANSPOSED)
    page.select_option("#bound-select", "auto")
    page.click("#solve-button")
    app.wait_state("solving", timeout=10_000)
    page.wait_for_function("() => document.querySelector('#p-nodes').textContent !== '0'", timeout=WORK_TIMEOUT_MS)
    if workers == 2:
        page.wait_for_selector("#p-workers[data-workers='2']", timeout=WORK_TIMEOUT_MS)
    stop(app, f"optimal search, {workers} worker(s)")
    text = page.inner_text("#status-text")
    assert "no restart needed" in text and "restart" not in text.replace("no restart needed", ""), text
    assert workers_started(app) == started
    next_solve_works(app, started)


@pytest.mark.parametrize("workers", [1, 2])
def test_stop_of_a_5x5_fast_answer_on_a_first_visit_keeps_the_best_and_restarts_nothing(first_visit: App, workers):
    app = first_visit
    page = app.page
    set_workers(app, workers)
    started = workers_started(app)
    rng = random.Random(workers)
    tiles = list(range(25))
    while True:  # a random solvable 5x5 (odd width: an even count of inversions)
        rng.shuffle(tiles)
        seq = [t for t in tiles if t]
        if sum(a > b for i, a in enumerate(seq) for b in seq[i + 1 :]) % 2 == 0:
            break
    app.set_position(tiles, "5x5")
    app.wait_ready()
    page.click("#fast-button")
    page.wait_for_function("() => /moves found/.test(document.querySelector('#p-lower').textContent)", timeout=120_000)
    stop(app, f"5x5 fast answer, {workers} worker(s)")
    assert "the best found is kept" in page.inner_text("#status-text")
    page.wait_for_selector("#solution:not([hidden])")
    assert page.get_attribute("#solution", "data-optimal") == "false"
    assert int(page.get_attribute("#solution", "data-length")) > 0
    assert workers_started(app) == started
    next_solve_works(app, started)


def test_a_typed_position_is_checked_with_its_bounds_then_solved_as_tiles(first_visit: App):
    """Solve right after typing: one request checks the text and computes its bounds ('bounds'),
    one solves its checked tiles ('solve'); no 'parse', no second 'bounds'."""
    app = first_visit
    page = app.page
    set_workers(app, 1)
    page.evaluate("() => { window.__calls.length = 0; }")
    page.fill("#tiles-input", " ".join(map(str, KORF_12)))
    page.click("#solve-button")  # before the check that typing schedules
    # (the status may still say "solved" of the solve before: wait for this one's answer)
    page.wait_for_function("() => document.querySelector('#solution')?.dataset.length === '45'", timeout=120_000)
    assert app.wait_state("solved") == "solved"
    typed = " ".join(map(str, KORF_12))
    calls = [c for c in page.evaluate("() => window.__calls") if c["params"].get("text") == typed or c["params"].get("tiles") == KORF_12]
    assert [c["method"] for c in calls if c["method"] != "trace"] == ["bounds", "solve"], calls  # (trace: the lab's chart of the answer)
    assert "text" in calls[0]["params"] and calls[1]["params"]["tiles"] == KORF_12 and "text" not in calls[1]["params"]
    assert "LB" in page.inner_text("#bounds")  # the bounds line from the check's answer
