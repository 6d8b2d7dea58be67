"""Never a wrong answer on the board, whatever the files served: a copy of the site whose
pdb-663.f15 has its payload zeroed and its CRC-32 written again (tests/support/tamper.py), which
the container's checksum cannot see.

* The manifest lists the sound file's SHA-256: the worker refuses the file before Python sees it
  (worker/assets.js), the page says which file and offers to go on without it; without it the
  position is solved to its true optimum, 55.
* The manifest lists the zeroed file's own digest (only the answer can tell): a solve with the
  6-6-3 bound, on one worker or two, ends with the damaged database's error, never the 1-move
  "solution" such a file makes the search report (fifteen.optimal.check_answer replays it).
"""

from __future__ import annotations

import pytest

from support.tamper import tampered_copy

from .conftest import App, SiteServer, copy_site

#: 55 moves from the goal (with pdb-663.f15 zeroed, the native search printed "optimal length: 1").
FIFTY_FIVE = (10, 5, 1, 0, 15, 9, 13, 14, 2, 8, 4, 7, 6, 12, 11, 3)
HELPER_TIMEOUT_MS = 240_000


def _serve_tampered(tmp_path, *, listed: bool) -> SiteServer:
    db, _ = copy_site(tmp_path)
    for entry in db.iterdir():  # tampered_copy writes the database directory itself
        entry.unlink()
    tampered_copy(db, "pdb-663.f15", listed=listed)
    return SiteServer(tmp_path).start()


def test_a_database_whose_digest_is_not_the_manifests_is_refused_and_can_be_skipped(browser, tmp_path):
    server = _serve_tampered(tmp_path, listed=False)
    ctx = browser.new_context(service_workers="block")
    try:
        page = ctx.new_page()
        page.goto(server.url + "index.html#tiles=" + ",".join(map(str, FIFTY_FIVE)))
        page.wait_for_selector("#status[data-state=error]", timeout=180_000, state="attached")
        text = page.inner_text("#error-panel")
        assert "A database file is damaged" in text, text
        assert "pdb-663.f15 is damaged: its SHA-256 is not the one static/db/manifest.json lists" in text, text
        assert page.is_visible("#skip-button") and page.is_visible("#retry-button")
        page.click("#skip-button")  # on without it: weaker bounds, the same optimal answers
        app = App(page, server)
        app.wait_ready()
        solution = app.solve("auto")
        assert solution["length"] == 55 and len(solution["moves"]) == 55
    finally:
        ctx.close()
        server.stop()


@pytest.mark.parametrize("workers", [1, 2])
def test_a_zeroed_database_listed_as_sound_gives_an_error_never_a_wrong_solution(browser, tmp_path, workers):
    server = _serve_tampered(tmp_path, listed=True)
    ctx = browser.new_context(service_workers="block")
    try:
        app = App(ctx.new_page(), server)
        app.open("#tiles=" + ",".join(map(str, FIFTY_FIVE)))
        page = app.page
        if workers > 1:
            page.select_option("#workers-select", str(workers))
            page.wait_for_selector(f"#workers-note[data-ready='{workers}']", timeout=HELPER_TIMEOUT_MS, state="attached")
        page.select_option("#bound-select", "pdb663")
        page.click("#solve-button")
        assert app.wait_state("solved", "error", timeout=300_000) == "error", page.inner_text("#status")
        text = page.inner_text("#status") + " " + page.inner_text("#error-panel")
        assert "A database file is damaged" in text and "answer found does not reach the goal" in text, text
        assert "pdb-663.f15 is corrupt: rebuild it" in text, text
        assert page.is_hidden("#solution") and page.get_attribute("#solution", "data-length") is None, "a solution is on the board"
        assert app.solve("pdb771")["length"] == 55  # the sound databases of the same page: the true optimum
    finally:
        ctx.close()
        server.stop()
