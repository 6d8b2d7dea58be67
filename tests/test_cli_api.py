"""The CLI and the worker's JSON API: outputs, exit codes, precise errors."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from fifteen import api

ROOT = Path(__file__).resolve().parent.parent
TRANSPOSED = "1 5 9 13 2 6 10 14 3 7 11 15 4 8 12 0"


def run_cli(*args, cwd=ROOT):
    env = dict(os.environ, PYTHONPATH=str(ROOT / "py"))
    return subprocess.run([sys.executable, "-m", "fifteen", *args], capture_output=True, text=True, env=env, cwd=cwd)


def test_cli_bounds_seed_style():
    r = run_cli("bounds", TRANSPOSED)
    assert r.returncode == 0
    assert "MD=40" in r.stdout and "WD=20/20 ID=12/12" in r.stdout


def test_cli_bounds_json():
    r = run_cli("bounds", TRANSPOSED, "--json")
    b = json.loads(r.stdout)["bounds"]
    for key in ("md", "lc", "wd_v", "wd_h", "id_v", "id_h", "lb"):
        assert key in b
    assert (b["wd_v"], b["id_v"]) == (20, 12)


def test_cli_solve_json():
    r = run_cli("solve", "1 2 3 4 5 6 7 8 0 10 11 12 9 13 14 15", "--bound", "wdid", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["length"] == 4 and out["moves"] == [9, 13, 14, 15] and out["directions"] == "DRRR"
    for key in ("nodes", "seconds", "bounds", "iterations"):
        assert key in out
    assert out["setup_seconds"] >= 0 and out["cpu_seconds"] >= 0 and out["seconds"] >= 0


@pytest.mark.parametrize(
    "bound, shape, expect", [("pdb663", "4x4", "Ordering pass"), ("id", "3x4", "row[board[j2]]"), ("pdb78", "4x4", "cp[board[j3]]")]
)
def test_cli_loops_prints_the_generated_loop(bound, shape, expect):
    r = run_cli("loops", "--bound", bound, "--shape", shape)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith(f"# {bound if bound != 'pdb663' else 'pdb-reflected'}") and expect in r.stdout
    compile(r.stdout, "loop", "exec")


def test_cli_solve_text_3x4():
    r = run_cli("solve", "1 2 3 4 5 6 7 8 9 10 0 11", "--shape", "3x4")
    assert r.returncode == 0
    assert "optimal length: 1" in r.stdout and "tiles moved:    11" in r.stdout and "blank moves:    R" in r.stdout


@pytest.mark.parametrize(
    "args, message",
    [
        (("solve", "1 2 3"), "3 tiles do not make a supported board"),
        (("solve", "1 2 3 4 5 6 8 7 0"), "unsolvable"),
        (("bounds", "1 2 3 4 5 6 7 7 0"), "duplicate: tile 7"),
        (("solve", "1 2 3 4 5 6 7 8 0", "--bound", "pdb663"), "bound 'pdb663' is not available for a 3x3 board"),
        (("solve", "1 2 3 4 5 6 7 8 0", "--db", "/nonexistent"), "no manifest"),
    ],
)
def test_cli_errors_exit_2_without_traceback(args, message):
    r = run_cli(*args)
    assert r.returncode == 2
    assert message in r.stderr
    assert "Traceback" not in r.stderr


def test_cli_runs_from_elsewhere_with_db(tmp_path):
    r = run_cli("bounds", TRANSPOSED, "--json", "--db", str(ROOT / "static" / "db"), cwd=tmp_path)
    assert r.returncode == 0


def _call(method, **params):
    return json.loads(api.call(method, json.dumps(params)))


def test_api_parse_and_errors():
    ok = _call("parse", text="1 2 3 4 5 6 7 8 0")
    assert ok == {"ok": True, "result": {"rows": 3, "cols": 3, "tiles": [1, 2, 3, 4, 5, 6, 7, 8, 0]}}
    bad = _call("parse", text="1 2 3 4 5 6 7 8 8")
    assert bad["ok"] is False and bad["error"]["type"] == "input" and "duplicate" in bad["error"]["message"]
    assert _call("nosuch")["error"]["type"] == "input"
    assert json.loads(api.call("parse", "[1,2"))["error"]["type"] == "input"


def test_api_solve_with_progress():
    messages = []
    res = json.loads(api.call("solve", json.dumps({"text": "1 2 3 4 5 6 7 8 0 10 11 12 9 13 14 15", "bound": "wdid"}), messages.append))
    assert res["ok"], res
    r = res["result"]
    assert r["length"] == 4 and r["directions"] == "DRRR" and r["bound"] == "wdid"
    assert messages and json.loads(messages[-1])["done"] is True
    assert r["setup_seconds"] >= 0 and r["seconds"] >= 0 and r["cpu_seconds"] >= 0


def test_api_progress_says_which_iteration_found_the_solution():
    """The report that closes the iteration which found a solution says so (``found``): only an
    iteration that ended without one proves the next bound, bound + 2 (the page's "at least")."""
    messages = []
    res = json.loads(api.call("solve", json.dumps({"text": "8 6 7 2 5 4 3 0 1", "shape": "3x3", "bound": "md"}), messages.append))
    length = res["result"]["length"]
    done = [m for m in map(json.loads, messages) if m["done"]]
    assert length == 31 and len(done) == len(res["result"]["iterations"]) >= 3
    assert [m["found"] for m in done] == [False] * (len(done) - 1) + [True]
    assert done[-1]["bound"] == length and all(m["bound"] + 2 <= length for m in done[:-1])
    assert all(m["found"] is False for m in map(json.loads, messages) if not m["done"])


def test_api_cancel():
    res = json.loads(api.call("solve", json.dumps({"text": TRANSPOSED, "bound": "md", "tick_nodes": 1000}), None, lambda: True))
    assert res == {"ok": False, "error": {"type": "cancelled", "message": "cancelled"}}


def test_api_random_is_solvable_and_seeded():
    a = _call("random", shape="4x4", seed=3)["result"]["tiles"]
    b = _call("random", shape="4x4", seed=3)["result"]["tiles"]
    assert a == b and sorted(a) == list(range(16))
    assert _call("parse", tiles=a)["ok"]
    assert _call("random", shape="3x4", seed=1)["result"]["cols"] == 4


def test_api_info_lists_bounds():
    info = _call("info")["result"]
    assert info["bounds"]["3x3"][0] == "auto" and "wdid" in info["bounds"]["3x3"]


def test_api_bounds_start_values_are_each_bounds_first_threshold():
    """The bounds line's LB for the selected bound is the first threshold of that bound's search."""
    tiles = "13 6 8 12 15 14 0 10 11 7 4 5 9 1 3 2"  # Korf #1
    r = _call("bounds", text=tiles)["result"]
    b, start = r["bounds"], r["start"]
    assert start["md"] == b["md"] == 41 and start["lc"] == b["lc"] == 43
    assert start["wd"] == b["wd"] == b["wd_v"] + b["wd_h"] and start["id"] == b["id"] == b["id_v"] + b["id_h"]
    cheap = max(start[k] for k in ("md", "lc", "id", "wd", "wdid"))
    assert start["auto"] == max(start[r["auto"]], cheap) and set(start) == set(_call("info")["result"]["bounds"]["4x4"])
    eight = "8 6 7 2 5 4 3 0 1"  # a farthest 8-puzzle position (31 moves)
    small = _call("bounds", text=eight)["result"]
    for name in small["start"]:
        first = _call("solve", text=eight, bound=name)["result"]["iterations"][0]["bound"]
        assert first == small["start"][name], name


def test_auto_starts_from_the_best_root_value_at_hand():
    """'Strongest available' starts from the best value the page shows at the root (LC 18 above
    WD+ID 16 on this 3x3 board; WD+ID 54 above the 6-6-3 database's 50 on Korf #60), raised to
    the solutions' parity; the search from there on is the same as the bound's own."""
    tiles = "7 5 0 3 1 8 4 2 6"
    r = _call("bounds", text=tiles)["result"]
    assert r["auto"] == "wdid" and r["bounds"]["wdid"] == 16 and r["bounds"]["lc"] == 18
    assert r["start"]["wdid"] == 16 and r["start"]["auto"] == 18
    auto = _call("solve", text=tiles)["result"]
    own = _call("solve", text=tiles, bound="wdid")["result"]
    assert [it["bound"] for it in own["iterations"]][:2] == [16, 18] and auto["iterations"][0]["bound"] == 18
    assert auto["length"] == own["length"] == 24  # its BFS distance
    assert [(it["bound"], it["nodes"]) for it in auto["iterations"]] == [(it["bound"], it["nodes"]) for it in own["iterations"][1:]]
    # WD+ID of odd parity: its first threshold is one more
    r = _call("bounds", text="7 0 5 4 2 3 1 8 6")["result"]
    assert r["bounds"]["wdid"] == 10 and r["start"]["wdid"] == 11 and r["start"]["auto"] == 13 == r["bounds"]["lc"]
    korf60 = "0 8 10 6 11 7 9 1 12 4 13 14 15 3 2 5"
    r = _call("bounds", text=korf60)["result"]
    assert (r["bounds"]["pdb663"], r["start"]["pdb663"], r["bounds"]["wdid"]) == (50, 50, 54)
    assert r["start"]["auto"] == max(54, r["bounds"][r["auto"]])


def test_api_load_asset_errors():
    res = json.loads(api.load_asset("wd-4x4.f15", b"garbage"))
    assert res["ok"] is False and res["error"]["type"] == "asset"


@pytest.mark.parametrize(
    "data, message",
    [
        (None, "pdb-663.f15: expected the file's bytes, got None"),
        ("text", "pdb-663.f15: expected the file's bytes, got 'text'"),
        (b"", "pdb-663.f15: truncated (0 bytes is shorter than the header)"),
        (b"<!DOCTYPE html><html>404 Not Found</html>", "pdb-663.f15: not a Fifteen database (bad magic"),
    ],
)
def test_api_load_asset_says_which_file_and_why(data, message):
    res = json.loads(api.load_asset("pdb-663.f15", data))
    assert res["ok"] is False and res["error"]["type"] == "asset" and res["error"]["message"].startswith(message), res
