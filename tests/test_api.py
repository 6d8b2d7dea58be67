"""The JSON API (fifteen.api, what the browser's worker imports): each method's result and
errors, progress and cancel, the databases handed over as bytes, and what the page takes from
it instead of repeating it in JS (the bound labels, the container header's size); importing it
leaves out the command line, the lab and the pool's side."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from fifteen import api, bounds
from fifteen.bounds import databases
from fifteen.db import container

TRANSPOSED = "1 5 9 13 2 6 10 14 3 7 11 15 4 8 12 0"


def _call(method, **params):
    return json.loads(api.call(method, json.dumps(params)))


def test_the_method_table_serves_every_method_of_the_schema_and_no_other():
    from fifteen.schema import METHOD_PARAMS

    assert list(api._METHODS) == list(METHOD_PARAMS)
    assert all(fn.__name__ == f"_method_{name}" for name, fn in api._METHODS.items())


def test_api_parse_and_errors():
    ok = _call("parse", text="1 2 3 4 5 6 7 8 0")
    goal = [1, 2, 3, 4, 5, 6, 7, 8, 0]
    assert ok == {"ok": True, "result": {"shape": "3x3", "rows": 3, "cols": 3, "tiles": [1, 2, 3, 4, 5, 6, 7, 8, 0], "goal": goal}}
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
    assert res == {"ok": False, "error": {"type": "cancelled", "code": "cancelled", "message": "cancelled"}}


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


# ----------------------------------------------------------------- what the page takes from the API
def _info() -> dict:
    reply = json.loads(api.call("info"))
    assert reply["ok"], reply
    return reply["result"]


def test_info_labels_every_bound_it_offers():
    info = _info()
    labels = info["labels"]
    assert labels["auto"] == "Strongest available"
    assert {b.name: b.label for b in bounds.bound_infos()}.items() <= labels.items()
    offered = {name for names in info["bounds"].values() for name in names}
    assert offered <= labels.keys(), offered - labels.keys()
    assert "7-8" in labels["pdb78"]  # the page's solution line names the pack's bound by this label


def test_container_size_from_the_header():
    data = container.write_asset({"kind": "wd", "rows": 2, "cols": 2}, bytes(range(200)), compress=False)
    head = data[: api.CONTAINER_HEADER_BYTES]
    assert json.loads(api.container_size("t.f15", head)) == {"ok": True, "result": len(data)}


@pytest.mark.parametrize(
    "head, match",
    [
        (b"FIFTEEN\x1a", "shorter than the header"),
        (b"NOTFIFTN" + bytes(16), "bad magic"),
        (b"FIFTEEN\x1a\x09\x00" + bytes(14), "format version 9"),
    ],
)
def test_container_size_refuses_what_is_not_a_container(head, match):
    reply = json.loads(api.container_size("t.f15", head))
    assert reply["ok"] is False and reply["error"]["type"] == "asset"
    assert reply["error"]["message"].startswith("t.f15: ") and match in reply["error"]["message"]


#: What the worker's start-up import of fifteen.api leaves for later: the command line (argparse
#: alone took ~0.1 s of the ~0.16 s import in Pyodide), the native process pool, the lab's
#: modules and the page pool's side (5-15 ms each: bench/pyodide_imports.mjs).
LEFT_OUT = ("argparse", "multiprocessing", "fifteen.cli", "fifteen.cli.lab", "fifteen.parallel.processes", "fifteen.batch")
LEFT_OUT += ("fifteen.lab.compare", "fifteen.lab.explain", "fifteen.lab.hint", "fifteen.parallel.page_pool", "fifteen.parallel.scheduler")


def test_the_worker_import_leaves_out_the_command_line():
    """The page's worker imports fifteen.api at every fresh start: what it needs later is not imported then."""
    code = f"import sys, fifteen.api; print(sorted(m for m in {LEFT_OUT!r} if m in sys.modules))"
    src = str(Path(api.__file__).resolve().parent.parent)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env={**os.environ, "PYTHONPATH": src})
    assert out.stdout.strip() == "[]", out.stdout


def _bounds(**params) -> dict:
    reply = json.loads(api.call("bounds", json.dumps(params)))
    assert reply["ok"], reply
    return reply["result"]


def test_api_bounds(fresh_assets, databases_without_pack):
    """``bounds``: the position and every bound's value, with the CLI's summary line."""
    databases.use_directory(databases_without_pack)
    transposed = [1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15, 4, 8, 12, 0]
    got = _bounds(text=" ".join(map(str, transposed)))
    assert (got["rows"], got["cols"], got["tiles"]) == (4, 4, transposed)
    assert got["bounds"] == {
        "md": 40,
        "lc": 40,
        "id_v": 12,
        "id_h": 12,
        "id": 24,
        "wd_v": 20,
        "wd_h": 20,
        "wd": 40,
        "wdid": 40,
        "pdb771": 52,
        "pdb663": 48,
        "pdb": 52,
        "pdb_r": 52,
        "pdb555": 46,
        "lb": 52,
    }
    assert got["summary"] == "MD=40 LC=40 WD=20/20 ID=12/12 PDB=52 PDBr=52 LB=52"
    # 3x3, 31 moves from the goal (no PDB on this shape)
    got = _bounds(tiles=[8, 6, 7, 2, 5, 4, 3, 0, 1])
    assert got["bounds"] == {"md": 21, "lc": 23, "id_v": 12, "id_h": 11, "id": 23, "wd_v": 12, "wd_h": 13, "wd": 25, "wdid": 25, "lb": 25}
    assert got["summary"] == "MD=21 LC=23 WD=12/13 ID=12/11 LB=25"
    got = _bounds(text="1 2 3 4 5 6 7 8 9 10 0 11", shape="3x4")
    assert (got["rows"], got["cols"], got["bounds"]["lb"], got["summary"]) == (3, 4, 1, "MD=1 LC=1 WD=0/1 ID=0/1 LB=1")
