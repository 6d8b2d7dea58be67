"""The package as a user gets it: the wheel (built from the sdist as ``make package`` builds it,
tests/conftest.py) installed into a fresh venv outside the checkout, nothing of the checkout on
the path; the databases fetched from a copy of the site (``make dist``, served by
``python -m http.server``); then Korf #1 with the 7-7-1 pattern database in 57 moves and 9,707
nodes, from the command line and the API.  No browser: this file needs only the built assets."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from .hosting import built_dist

KORF_1 = "13 6 8 12 15 14 0 10 11 7 4 5 9 1 3 2"
NEAR_GOAL = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15"
#: The interpreter itself, not the test's venv: the new venv and the server start from it.
REAL_PYTHON = os.path.realpath(getattr(sys, "_base_executable", sys.executable))


@pytest.fixture(scope="module")
def user(tmp_path_factory, built_package):
    """A fresh venv with the wheel installed, and the environment of its user: a home and a cache
    of their own, no PYTHONPATH, no FIFTEEN_DB, the working directory outside the checkout."""
    home = tmp_path_factory.mktemp("user")
    venv = home / "venv"
    subprocess.run([REAL_PYTHON, "-m", "venv", "--without-pip", str(venv)], check=True, capture_output=True)
    env = {
        "PATH": f"{venv / 'bin'}:/usr/bin:/bin",
        "HOME": str(home),
        "XDG_CACHE_HOME": str(home / "cache"),
        "LANG": "C.UTF-8",
        "PIP_CONFIG_FILE": os.devnull,
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
    }
    wheel, _ = built_package
    # pip install into the new venv (the test's pip, run by the venv's Python: no pip bootstrapped there)
    installed = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install", "-q", "--no-index", "--no-deps", str(wheel)],
        capture_output=True,
        text=True,
        env=env,
        cwd=home,
    )
    assert installed.returncode == 0, installed.stderr
    return {"home": home, "venv": venv, "env": env, "cache": home / "cache" / "fifteen" / "db"}


def run(user, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(args), capture_output=True, text=True, env=user["env"], cwd=user["home"], timeout=300)


@pytest.fixture(scope="module")
def site():
    """``make dist``'s site served by the real Python's ``http.server`` (its own process)."""
    dist = built_dist("/", "")
    server = subprocess.Popen(
        [REAL_PYTHON, "-u", "-m", "http.server", "--bind", "127.0.0.1", "--directory", str(dist), "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        line = server.stdout.readline()
        port = re.search(r"port (\d+)", line)
        assert port, f"http.server said {line!r}"
        yield {"url": f"http://127.0.0.1:{port.group(1)}/", "dist": dist}
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_installed_outside_the_checkout(user):
    code = "import dbbuild, fifteen, sys; print(fifteen.__file__); print(dbbuild.__file__); print(sys.path)"
    r = run(user, "python", "-c", code)
    here, builder, path = r.stdout.splitlines()
    site_packages = str(user["venv"] / "lib")
    assert here.startswith(site_packages) and builder.startswith(site_packages), r.stdout
    checkout = str(Path(__file__).resolve().parents[2])
    assert checkout not in path


def test_without_databases_it_says_how_to_get_them(user):
    r = run(user, "fifteen", "db", "path")
    assert r.returncode == 1 and r.stdout == "" and str(user["cache"]) in r.stderr
    r = run(user, "fifteen", "solve", NEAR_GOAL, "--quiet")
    assert r.returncode == 0 and "bound used: wdid" in r.stdout
    assert r.stderr.count("\n") == 1 and "get them with `fifteen db fetch URL` or `fifteen db build`" in r.stderr
    r = run(user, "fifteen", "db", "build")  # the build extra is not installed
    assert r.returncode == 2
    assert (
        r.stderr
        == "fifteen: error: fifteen db build needs numpy and numba: pip install 'fifteen[build]' (pipx: pipx inject fifteen numpy numba), "
        "or fetch the databases: fifteen db fetch URL\n"
    )


def test_fetch_then_korf_1_with_pdb771(user, site):
    r = run(user, "fifteen", "db", "fetch", site["url"])
    assert r.returncode == 0, r.stderr
    manifest = json.loads((site["dist"] / "static" / "db" / "manifest.json").read_text())
    assert f"{len(manifest['assets'])} files" in r.stdout and "bounds they serve: pdb555, pdb55554, pdb663, pdb771, wd, wdid" in r.stdout
    for entry in manifest["assets"]:
        assert (user["cache"] / entry["file"]).read_bytes() == (site["dist"] / "static" / "db" / entry["file"]).read_bytes()

    r = run(user, "fifteen", "db", "path")
    assert (r.returncode, r.stdout) == (0, f"{user['cache']}\n")
    r = run(user, "fifteen", "solve", KORF_1, "--bound", "pdb771", "--json")
    assert r.returncode == 0 and r.stderr == ""
    solved = json.loads(r.stdout)
    assert (solved["bound"], solved["length"], solved["nodes"]) == ("pdb771", 57, 9707)
    code = (
        "import json; from fifteen import Board, bound_values, solve; board = Board.parse(" + repr(KORF_1) + "); "
        "sol = solve(board); print(json.dumps([bound_values(board), sol.bound, sol.length, sol.result.nodes]))"
    )
    r = run(user, "python", "-c", code)
    values, bound, length, nodes = json.loads(r.stdout)
    assert r.stderr == "" and (values["pdb771"], values["lb"]) == (51, 51) and {"pdb663", "pdb555"} <= set(values)
    assert (bound, length, nodes) == ("pdb771", 57, 9707)  # the strongest bound found by itself
    r = run(user, "fifteen", "db", "status", "--json")
    status = json.loads(r.stdout)
    assert status["directory"] == str(user["cache"]) and {f["state"] for f in status["files"]} == {"ok"}
