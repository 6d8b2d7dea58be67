"""Without a browser the e2e tests fail (with the way to install one); they skip only on request."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from .conftest import ROOT

PROBE = "tests/e2e/test_app.py::test_page_loads_and_reports_ready"


def _run_without_browser(**env: str) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items() if k not in ("CI", "FIFTEEN_SKIP_E2E")}
    environ.update(FIFTEEN_CHROMIUM="/nonexistent/chromium", **env)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", PROBE],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_no_browser_fails_with_the_install_hint():
    r = _run_without_browser()
    assert r.returncode == 1, r.stdout + r.stderr
    assert "1 error" in r.stdout and "skipped" not in r.stdout, r.stdout
    assert "Chromium cannot be launched here" in r.stdout and "make browser" in r.stdout, r.stdout


@pytest.mark.parametrize("ci, outcome", [("", "1 skipped"), ("true", "1 error")])
def test_the_opt_out_skips_except_under_ci(ci, outcome):
    env = {"FIFTEEN_SKIP_E2E": "1"}
    if ci:
        env["CI"] = ci
    r = _run_without_browser(**env)
    assert outcome in r.stdout, r.stdout + r.stderr


@pytest.mark.parametrize(
    "engine, variable, words",
    [
        ("firefox", "FIFTEEN_FIREFOX", "Firefox cannot be launched here"),
        ("webkit", "FIFTEEN_MINIBROWSER", "WebKit cannot be launched here"),
    ],
)
def test_a_missing_engine_fails_with_the_install_hint(engine, variable, words):
    """tests/e2e/test_engines.py: Firefox or WebKit missing fails the engine's tests, naming it."""
    environ = {k: v for k, v in os.environ.items() if k not in ("CI", "FIFTEEN_SKIP_E2E")}
    environ[variable] = f"/nonexistent/{engine}"
    probe = f"tests/e2e/test_engines.py::test_first_visit_gets_ready[{engine}]"
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", probe]
    r = subprocess.run(command, cwd=ROOT, env=environ, capture_output=True, text=True, timeout=300)
    assert r.returncode == 1 and "1 error" in r.stdout and "skipped" not in r.stdout, r.stdout + r.stderr
    assert words in r.stdout and "make browser" in r.stdout, r.stdout
