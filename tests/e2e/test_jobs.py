"""End-to-end tests of the page's jobs (static/js/control/jobs.js): every request to the solver is a job,
shown in the status line while it runs, with its seconds, its budget and a Stop; a job the
user starts stops the one that runs first (and says so); a new position stops the jobs of the
old one; nothing waits unseen behind a request the user cannot see.

They share the session's page (fixture ``ready_app``).  The Transposed goal (72 moves) is the
hard position: a hint there needs a whole solve, far longer than a hint's budget.
"""

from __future__ import annotations

from .conftest import WORK_TIMEOUT_MS, App
from .test_app import EXAMPLES

TRANSPOSED = EXAMPLES["transposed"]
KORF12 = EXAMPLES["korf12"]

WATCH_STATUS = """() => {
  window.__statuses = [];
  const el = document.querySelector('#status');
  const log = () => window.__statuses.push(`${el.dataset.state}|${document.querySelector('#status-text').textContent}`);
  window.__statusObs?.disconnect();
  window.__statusObs = new MutationObserver(log);
  window.__statusObs.observe(el, {subtree: true, childList: true, characterData: true, attributes: true});
}"""


def _statuses(app: App) -> list[str]:
    return app.page.evaluate("() => window.__statuses")


def _pending(app: App) -> int:
    """Requests the solver's first worker has been sent and not answered (solver/client.js)."""
    return app.page.evaluate("() => fifteenPool.primary.pending.size")


def _open_hints(app: App) -> None:
    if not app.page.eval_on_selector("#lab-hint", "d => d.open"):
        app.page.click("#lab-hint > summary")


def _start_long_hint(app: App) -> None:
    """A hint on the Transposed goal: shown in the status line with its seconds and budget, and a Stop."""
    page = app.page
    page.select_option("#examples", "transposed")
    page.wait_for_function("t => document.querySelector('#board').dataset.tiles === t", arg=",".join(map(str, TRANSPOSED["tiles"])))
    _open_hints(app)
    page.click("#hint-next")
    page.wait_for_selector("#status[data-state=busy]", state="attached", timeout=10_000)
    assert page.inner_text("#status-text") == "Hint: looking for the next optimal move…"
    page.wait_for_function("() => / of 30 s$/.test(document.querySelector('#status-time').textContent)", timeout=5_000)
    assert page.is_visible("#job-stop") and page.is_visible("#hint-stop")
    assert page.is_disabled("#hint-next")


def test_a_hint_then_shuffle_and_solve_solves_at_once(ready_app: App):
    """Issue 24, 1: the hint's search no longer blocks the solver after the position changed."""
    app = ready_app
    page = app.page
    _start_long_hint(app)
    page.wait_for_timeout(1000)
    assert _pending(app) == 1  # the hint's search runs
    page.click("#shuffle-button")
    shuffled = ",".join(map(str, app.board_tiles()))
    # The hint is stopped (nothing is left in the worker) and the bounds line follows the new board.
    page.wait_for_function(
        "t => fifteenPool.primary.pending.size === 0 && document.querySelector('#bounds').dataset.tiles === t",
        arg=shuffled,
        timeout=WORK_TIMEOUT_MS,
    )
    assert page.inner_text("#hint-result") == "" and page.is_hidden("#hint-stop")
    assert app.state() == "ready"
    # Solve a known position: it starts at once and finds the optimum.
    app.set_position(KORF12["tiles"])
    assert app.solve("auto", timeout=120_000)["length"] == KORF12["optimal"]
    page.click("#lab-hint > summary")


def test_a_new_job_stops_the_running_one_first_and_says_so(ready_app: App):
    app = ready_app
    page = app.page
    _start_long_hint(app)
    page.evaluate(WATCH_STATUS)
    page.click("#solve-button")
    app.wait_state("solving", timeout=30_000)
    page.wait_for_function("() => document.querySelector('#p-nodes').textContent !== '0'", timeout=WORK_TIMEOUT_MS)
    seen = _statuses(app)
    assert "busy|Solving · stopping the hint first…" in seen, seen
    assert page.inner_text("#hint-result") == "Stopped for the solve."
    assert _pending(app) == 1  # only the solve
    # The status line's Stop stops the solve as its Cancel does.
    page.wait_for_timeout(400)
    assert page.is_visible("#job-stop")
    page.click("#job-stop")
    app.wait_state("cancelled", timeout=10_000)
    page.wait_for_function("() => /^Cancelled: /.test(document.querySelector('#status-text').textContent)", timeout=WORK_TIMEOUT_MS)
    app.wait_ready()
    assert page.is_hidden("#job-stop")
    page.click("#lab-hint > summary")


def test_a_hint_has_a_budget_and_a_stop(ready_app: App):
    app = ready_app
    page = app.page
    _start_long_hint(app)
    # Its budget runs out: stopped, and the card says why and what to do instead.
    page.wait_for_function("() => /budget/.test(document.querySelector('#hint-result').textContent)", timeout=WORK_TIMEOUT_MS)
    text = page.inner_text("#hint-result")
    assert text.startswith("No answer within the budget of 30 s.") and "Solve it instead" in text, text
    app.wait_ready()
    assert page.is_hidden("#job-stop") and page.is_hidden("#hint-stop") and page.is_enabled("#hint-next")
    # Stop ends one at once, from the card or from the status line (Escape too).
    for stop in ("#hint-stop", "#job-stop", "Escape"):
        page.click("#hint-next")
        page.wait_for_selector("#status[data-state=busy]", state="attached", timeout=10_000)
        if stop == "Escape":
            page.keyboard.press("Escape")
        else:
            page.click(stop)
        page.wait_for_function("() => document.querySelector('#hint-result').textContent === 'Stopped.'", timeout=30_000)
        app.wait_ready()
        assert _pending(app) == 0
    page.click("#lab-hint > summary")


def test_a_comparison_is_shown_in_the_status_line_and_stopped_by_a_new_position(ready_app: App):
    app = ready_app
    page = app.page
    if not page.eval_on_selector("#lab-compare", "d => d.open"):
        page.click("#lab-compare > summary")
    page.select_option("#lab-preset", "korf1")
    page.wait_for_selector("#lab-bounds input[value=md]")
    for box in page.query_selector_all("#lab-bounds input[type=checkbox]"):
        box.set_checked(box.get_attribute("value") == "md")
    page.fill("#lab-budget", "50M")
    runs = int(page.get_attribute("#lab-compare", "data-runs") or 0)
    page.click("#lab-run")
    page.wait_for_selector("#status[data-state=busy]", state="attached", timeout=10_000)
    assert page.inner_text("#status-text") == "Comparing bounds…" and page.is_visible("#job-stop")
    page.wait_for_function("() => /^[1-9]/.test(document.querySelector('#status-time').textContent)", timeout=10_000)
    # A new position (Back/Forward, a link, a click on Goal) stops it.
    page.click("#reset-button")
    page.wait_for_selector(f"#lab-compare[data-runs='{runs + 1}']", state="attached", timeout=WORK_TIMEOUT_MS)
    assert page.inner_text("#lab-status").startswith("Stopped: the position changed in "), page.inner_text("#lab-status")
    app.wait_ready()
    assert _pending(app) == 0
    for box in page.query_selector_all("#lab-bounds input[type=checkbox]"):
        box.set_checked(True)  # (as the other tests expect the card)
    page.fill("#lab-budget", "1,000,000")
    page.click("#lab-compare > summary")
