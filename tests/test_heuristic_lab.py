"""The heuristic lab: compare (equal to the individual solves, budgets), the presets' figures,
the bound trace along a solution and the explanation of each bound (against the bound
functions and an independent brute-force count of linear conflicts)."""

from __future__ import annotations

import itertools
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from fifteen import Board, Cancelled, Shape, api, solve
from fifteen.bounds import bound_values, databases
from fifteen.bounds.inversion import moves_for_inversions
from fifteen.bounds.manhattan import linear_conflict, manhattan
from fifteen.lab.compare import (
    BoundRun,
    compare_bounds,
    comparison_json,
    effective_branching_factor,
    find_preset,
    iteration_rows,
    lab_bounds,
    load_presets,
    run_bound,
)
from fifteen.lab.explain import explain, inversion_formula, longest_run, trace
from instances import hard, korf100

ROOT = Path(__file__).resolve().parent.parent
KORF1 = "13 6 8 12 15 14 0 10 11 7 4 5 9 1 3 2"
TRANSPOSED = "1 5 9 13 2 6 10 14 3 7 11 15 4 8 12 0"
ANTIPODE_3x3 = "8 6 7 2 5 4 3 0 1"
CLASSIC = ["md", "lc", "id", "wd", "wdid"]


@pytest.fixture(scope="module", autouse=True)
def loaded_databases():
    databases.ensure_for(Shape(4, 4))
    assert {"pdb663", "pdb555"} <= set(databases.pattern_databases), "run make db first"


def walk(shape: Shape, steps: int, seed: int) -> Board:
    rng = random.Random(seed)
    board = Board.goal(shape)
    for _ in range(steps):
        board = board.slide(rng.choice(board.movable_tiles()))
    return board


def uniform(shape: Shape, seed: int) -> Board:
    result = json.loads(api.call("random", json.dumps({"shape": str(shape), "seed": seed})))["result"]
    return Board.from_tiles(result["tiles"], shape)


def iterations_of(run: BoundRun) -> list[tuple[int, int]]:
    return [(it.bound, it.nodes) for it in run.iterations]


# ------------------------------------------------------------------ compare
@pytest.mark.parametrize(
    "text, names",
    [
        (ANTIPODE_3x3, CLASSIC),
        (walk(Shape(4, 4), 60, 1).text(), [*CLASSIC, "pdb555", "pdb663"]),
        (walk(Shape(3, 4), 80, 2).text(), CLASSIC),
        (" ".join(map(str, next(k for k in korf100() if k.id == "55").tiles)), [*CLASSIC, "pdb555", "pdb663"]),
        (KORF1, ["pdb663"]),
    ],
)
def test_compare_equals_individual_solves(text, names):
    board = Board.parse(text, "3x4" if len(text.split()) == 12 else None)
    names = [n for n in names if n in lab_bounds(board.shape)]
    runs = compare_bounds(board, names, budget=None)
    assert list(runs) == names
    for name, run in runs.items():
        sol = solve(board, name)
        assert run.finished and run.length == sol.length
        assert iterations_of(run) == [(it.bound, it.nodes) for it in sol.result.iterations]
        assert run.nodes == sol.result.nodes == sum(it.nodes for it in run.iterations)
        assert run.h0 == sol.result.h0 == bound_values(board)[name]
        assert all(it.finished for it in run.iterations)


def test_compare_pinned_on_the_8_puzzle_antipode():
    runs = compare_bounds(Board.parse(ANTIPODE_3x3), budget=None)
    assert list(runs) == CLASSIC  # weakest first
    assert {n: r.nodes for n, r in runs.items()} == {"md": 9710, "lc": 5340, "id": 9630, "wd": 2522, "wdid": 2082}
    assert iterations_of(runs["wdid"]) == [(25, 31), (27, 295), (29, 1533), (31, 223)]
    assert {r.length for r in runs.values()} == {31}
    assert runs["wdid"].growth == pytest.approx(1533 / 295)
    b = runs["wdid"].ebf
    assert sum(b**i for i in range(1, 32)) == pytest.approx(2082)


@pytest.mark.parametrize("tick", [64, 1024])
def test_budget_stops_with_finished_iterations_and_the_partial_one(tick):
    board = Board.parse(ANTIPODE_3x3)
    full = solve(board, "md").result.iterations  # 21:3 23:42 25:242 27:1653 29:7147 31:623
    run = run_bound(board, "md", budget=3000, tick_nodes=tick)
    assert not run.finished and run.length is None and run.ebf is None and run.budget == 3000
    *done, partial = run.iterations
    assert [(it.bound, it.nodes) for it in done] == [(it.bound, it.nodes) for it in full[:4]]
    assert all(it.finished for it in done) and not partial.finished
    assert partial.bound == 29 and 0 < partial.nodes < 7147
    assert run.nodes == sum(it.nodes for it in run.iterations)
    assert 3000 <= run.nodes < 3000 + 2 * tick  # the documented overshoot
    assert run.growth == pytest.approx(1653 / 242)
    header, rows = iteration_rows({"md": run})
    assert rows[-2] == ["29", f"{partial.nodes}+"] and rows[-1] == ["total", f"{run.nodes}+"]


def test_budget_stop_on_4x4_keeps_the_solve_prefix():
    board = walk(Shape(4, 4), 80, 7)
    full = solve(board, "lc").result
    budget = full.nodes // 3
    run = run_bound(board, "lc", budget=budget, tick_nodes=256)
    *done, partial = run.iterations
    assert [(it.bound, it.nodes) for it in done] == [(it.bound, it.nodes) for it in full.iterations[: len(done)]]
    assert partial.nodes <= full.iterations[len(done)].nodes and not partial.finished
    assert budget <= run.nodes < budget + 512


def test_a_run_finishing_past_its_budget_is_finished():
    board = Board.parse(ANTIPODE_3x3)
    run = run_bound(board, "wdid", budget=2000, tick_nodes=4096)  # 2,082 nodes, a tick never comes
    assert run.finished and run.length == 31 and run.nodes == 2082


def test_user_cancel_is_not_a_budget_stop():
    with pytest.raises(Cancelled):
        run_bound(Board.parse(KORF1), "md", budget=10**9, cancel=lambda: True)


def test_progress_snapshots_grow():
    seen: list[BoundRun] = []
    run = run_bound(Board.parse(ANTIPODE_3x3), "md", budget=None, progress=seen.append, tick_nodes=256)
    assert seen and all(not s.finished for s in seen)
    assert [s.nodes for s in seen] == sorted(s.nodes for s in seen)
    assert any(not s.iterations[-1].finished for s in seen) and any(s.iterations[-1].finished for s in seen)
    assert iterations_of(seen[-1]) == iterations_of(run)[: len(seen[-1].iterations)]


def test_effective_branching_factor():
    assert effective_branching_factor(14, 3) == pytest.approx(2)
    assert effective_branching_factor(3, 3) == pytest.approx(1)
    assert effective_branching_factor(5, 1) == pytest.approx(5)
    assert effective_branching_factor(2, 4) < 1
    with pytest.raises(ValueError):
        effective_branching_factor(0, 3)


def test_comparison_json_shape():
    runs = compare_bounds(Board.parse(ANTIPODE_3x3), ["md", "wdid"], budget=3000)
    out = json.loads(json.dumps(comparison_json(runs)))
    assert list(out) == ["bounds"] and list(out["bounds"]) == ["md", "wdid"]
    md = out["bounds"]["md"]
    required = {"h0", "iterations", "nodes", "seconds", "finished", "length"}
    extra = {"name", "label", "nodes_per_second", "ebf", "growth", "budget"}
    assert set(md) == required | extra
    assert md["finished"] is False and md["length"] is None and md["h0"] == 21
    assert set(md["iterations"][0]) == {"bound", "nodes", "seconds", "finished"}
    assert out["bounds"]["wdid"]["finished"] is True and out["bounds"]["wdid"]["length"] == 31


# ------------------------------------------------------------------ presets
def test_presets_parse_and_their_figures_hold():
    presets = load_presets()
    assert [p["id"] for p in presets] == ["8p31", "korf1", "transposed", "h80"]  # the quickest first (issue 33)
    known = {k.tiles: k.optimal for k in [*korf100(), *hard()]}
    for p in presets:
        board = Board.from_tiles(p["tiles"], p["shape"])
        assert p["text"].endswith(".") and p["name"] and p["budget"] > 0
        values = bound_values(board)
        for key, want in p["figures"].items():
            if key == "pdb78" and key not in values:
                continue  # the optional pack is not loaded here
            assert values[key] == want, (p["id"], key)
        assert {"md", "lc", "id", "wd", "wdid"} <= set(p["figures"])
        if board.shape == Shape(4, 4):
            assert {"pdb555", "pdb663"} <= set(p["figures"])
            assert known[tuple(p["tiles"])] == p["optimal"]
    # the seed's nemesis: WD 20/20, ID 12/12, lower bound 40 against 72 moves
    t = find_preset("transposed")
    assert t["tiles"] == [int(x) for x in TRANSPOSED.split()] and t["optimal"] == 72
    assert {k: t["figures"][k] for k in ("wd_v", "wd_h", "id_v", "id_h", "wdid")} == {
        "wd_v": 20,
        "wd_h": 20,
        "id_v": 12,
        "id_h": 12,
        "wdid": 40,
    }


def test_preset_sentences_hold_where_cheap():
    korf1 = Board.from_tiles(find_preset("korf1")["tiles"])
    run = run_bound(korf1, "pdb663", budget=find_preset("korf1")["budget"])
    assert run.finished and run.length == 57 and run.nodes < 200_000  # "under 200 thousand"
    small = compare_bounds(Board.from_tiles(find_preset("8p31")["tiles"]), ["md", "wdid"], budget=None)
    assert small["md"].length == small["wdid"].length == find_preset("8p31")["optimal"] == 31
    assert round(small["md"].nodes, -4) == 10_000 and round(small["wdid"].nodes, -3) == 2_000


# ------------------------------------------------------------------ trace
def test_trace_along_korf1():
    board = Board.parse(KORF1)
    sol = solve(board, "pdb663")
    out = trace(board, sol.tiles)
    assert out["length"] == 57 and out["remaining"] == list(range(57, -1, -1)) and out["moves"] == sol.tiles
    assert out["names"] == ["md", "lc", "id", "wd", "wdid", "pdb555", "pdb663", "pdb771"] or "pdb78" in out["names"]
    position = board
    for step in range(58):
        values = bound_values(position)
        for name in out["names"]:
            assert out["values"][name][step] == values[name]
            assert values[name] <= 57 - step  # admissible on an optimal path
        if step < 57:
            position = position.slide(sol.tiles[step])
    assert all(v[-1] == 0 for v in out["values"].values())
    assert [out["values"][n][0] for n in ("md", "lc", "id", "wd", "wdid", "pdb555", "pdb663")] == [41, 43, 47, 43, 47, 45, 47]
    assert out["values"]["pdb663"][:4] == [47, 46, 45, 46]


def test_trace_accepts_directions_and_refuses_non_solutions():
    board = Board.parse("1 2 3 4 5 6 7 8 0 10 11 12 9 13 14 15")
    assert trace(board, "DRRR")["moves"] == [9, 13, 14, 15]
    assert trace(board, "DRRR")["values"]["md"] == [4, 3, 2, 1, 0]
    from fifteen import InputError

    with pytest.raises(InputError, match="do not solve"):
        trace(board, [9, 13])
    with pytest.raises(InputError, match="not next to the blank"):
        trace(board, [15])


# ------------------------------------------------------------------ explain
def brute_force_line_removals(goals: list[int]) -> int:
    """Fewest tiles to take out of a line so that the rest are in goal order (all subsets)."""
    for keep in range(len(goals), -1, -1):
        for subset in itertools.combinations(range(len(goals)), keep):
            if all(goals[a] < goals[b] for a, b in itertools.pairwise(subset)):
                return len(goals) - keep
    raise AssertionError


def check_explanation(board: Board) -> None:
    shape, tiles = board.shape, board.tiles
    values = bound_values(board)
    out = explain(board)
    assert out["md"]["value"] == sum(out["md"]["tiles"]) == manhattan(shape, tiles) == values["md"]
    lc = out["lc"]
    assert lc["value"] == values["lc"] and lc["extra"] == linear_conflict(shape, tiles) == sum(x["extra"] for x in lc["lines"])
    assert len(lc["lines"]) == shape.rows + shape.cols
    for line in lc["lines"]:
        row = line["axis"] == "row"
        squares = (
            [line["index"] * shape.cols + k for k in range(shape.cols)]
            if row
            else [k * shape.cols + line["index"] for k in range(shape.rows)]
        )
        own = [t for t in (tiles[s] for s in squares) if t and ((t - 1) // shape.cols if row else (t - 1) % shape.cols) == line["index"]]
        goal = {t: (t - 1) % shape.cols if row else (t - 1) // shape.cols for t in own}
        assert line["tiles"] == own
        assert sorted(line["kept"] + line["removed"]) == sorted(own)
        assert all(goal[a] < goal[b] for a, b in itertools.pairwise(line["kept"]))
        assert len(line["removed"]) == brute_force_line_removals([goal[t] for t in own])
        assert line["extra"] == 2 * len(line["removed"])
    iv = out["id"]
    assert (iv["vertical"]["moves"], iv["horizontal"]["moves"]) == (values["id_v"], values["id_h"])
    assert iv["value"] == values["id"]
    for axis, jump in (("vertical", shape.cols - 1), ("horizontal", shape.rows - 1)):
        part = iv[axis]
        assert part["jump"] == jump and part["moves"] == moves_for_inversions(part["inversions"], jump)
        assert part["formula"].endswith(f"= {part['moves']}")
        if jump == 3:
            assert part["moves"] == part["inversions"] // 3 + part["inversions"] % 3
    if "wd_v" in values:
        wd = out["wd"]
        assert (wd["vertical"]["distance"], wd["horizontal"]["distance"], wd["value"]) == (values["wd_v"], values["wd_h"], values["wd"])
        for axis, lines, home in (("vertical", shape.rows, shape.cols), ("horizontal", shape.cols, shape.rows)):
            counts = wd[axis]["counts"]
            assert len(counts) == lines and all(len(r) == lines for r in counts)
            blank = wd[axis]["blank"]
            assert [sum(r) for r in counts] == [home - (r == blank) for r in range(lines)]
        assert out["wdid"]["value"] == values["wdid"]
    else:
        assert "wd" not in out and "wdid" not in out
    for name, p in out["pdb"].items():
        db = databases.pattern_databases[name]
        assert p["plain"]["value"] == sum(g["value"] for g in p["plain"]["groups"]) == db.value(tiles)
        assert p["reflected"]["value"] == sum(g["value"] for g in p["reflected"]["groups"]) == db.reflected_value(tiles)
        assert p["value"] == values[name]
        for lookup in ("plain", "reflected"):
            assert sorted(t for g in p[lookup]["groups"] for t in g["tiles"]) == list(range(1, shape.size))
    assert set(out["pdb"]) == {n for n in lab_bounds(shape) if n.startswith("pdb")}


@pytest.mark.parametrize("shape", ["4x4", "3x3", "3x4", "4x3", "2x5", "5x2", "5x5", "4x5", "2x2"])
def test_explanations_add_up(shape):
    shp = Shape.parse(shape)
    for seed in range(12 if shape == "4x4" else 6):
        check_explanation(uniform(shp, seed))
        check_explanation(walk(shp, 30, seed))
    check_explanation(Board.goal(shp))


def test_explain_the_transposed_goal():
    out = explain(Board.parse(TRANSPOSED))
    ones = [[1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 0]]
    assert out["wd"]["vertical"] == {"counts": ones, "blank": 3, "distance": 20}
    assert out["wd"]["horizontal"] == {"counts": ones, "blank": 3, "distance": 20}
    v = out["id"]["vertical"]
    assert v == {"inversions": 36, "jump": 3, "moves": 12, "formula": "36//3 + 36%3 = 12 + 0 = 12"}
    assert out["id"]["horizontal"]["moves"] == 12 and out["wdid"] == {"value": 40, "vertical": 20, "horizontal": 20}
    assert out["lc"]["extra"] == 0
    p = out["pdb"]["pdb663"]
    assert p["value"] == 48
    assert [(g["tiles"], g["value"]) for g in p["plain"]["groups"]] == [
        ([1, 2, 5, 6, 9, 10], 14),
        ([3, 4, 7, 8, 11, 12], 22),
        ([13, 14, 15], 12),
    ]
    assert [g["tiles"] for g in p["reflected"]["groups"]] == [[1, 2, 3, 5, 6, 7], [9, 10, 11, 13, 14, 15], [4, 8, 12]]


def test_explain_korf1_line_conflict():
    lines = [x for x in explain(Board.parse(KORF1))["lc"]["lines"] if x["extra"]]
    assert lines == [{"axis": "column", "index": 0, "tiles": [13, 9], "kept": [9], "removed": [13], "extra": 2}]


def test_inversion_formulas():
    assert inversion_formula(80, 3) == "80//3 + 80%3 = 26 + 2 = 28"
    assert inversion_formula(7, 1) == "7 = 7"
    assert inversion_formula(6, 4) == "ceil(6/4) = 2"  # jump 4 (5 columns): not 6//4 + 6%4
    assert inversion_formula(9, 5) == "ceil(9/5) = 2, +1 for the parity of 9 = 3"
    assert longest_run([3, 1, 2, 0]) == [1, 2] and longest_run([]) == []


# ------------------------------------------------------------------ the optional 7-8 pack (a 3x3 one)
@pytest.fixture
def pack_3x3():
    from dbbuild import pack78
    from fifteen.db import container

    data = pack78.build_pack(3, 3, "44", [[1, 2, 3, 4], [5, 6, 7, 8]])
    asset = container.read_asset(data, name="t", kind="pdb78")
    renamed = container.write_asset(dict(asset.meta, partition="78"), bytes(asset.payload), compress=True)
    saved = dict(databases.pattern_databases)
    databases.load_asset(renamed, "pdb-78-3x3.f15")
    try:
        yield
    finally:
        databases.pattern_databases.clear()
        databases.pattern_databases.update(saved)


def test_pdb78_in_explain_trace_and_compare(pack_3x3):
    board = Board.parse(ANTIPODE_3x3)
    assert lab_bounds(board.shape)[-1] == "pdb78"
    values = bound_values(board)
    p = explain(board)["pdb"]["pdb78"]
    assert (p["plain"]["value"], p["reflected"]["value"], p["value"]) == (values["pdb78_plain"], values["pdb78_r"], values["pdb78"])
    assert [g["tiles"] for g in p["plain"]["groups"]] == [[1, 2, 3, 4], [5, 6, 7, 8]]
    for seed in range(20):
        check_explanation(uniform(Shape(3, 3), seed))
    sol = solve(board, "pdb78")
    out = trace(board, sol.tiles)
    assert out["values"]["pdb78"][0] == values["pdb78"] and out["values"]["pdb78"][-1] == 0
    run = run_bound(board, "pdb78", budget=None)
    assert run.length == 31 and iterations_of(run) == [(it.bound, it.nodes) for it in sol.result.iterations]


# ------------------------------------------------------------------ API and CLI
def call(method, progress=None, **params):
    return json.loads(api.call(method, json.dumps(params), progress))


def test_api_compare_streams_and_stops_at_the_budget():
    messages: list[dict] = []
    out = call("compare", lambda m: messages.append(json.loads(m)), text=ANTIPODE_3x3, bounds=["md"], budget=3000)
    assert out["ok"]
    md = out["result"]["bounds"]["md"]
    assert md["finished"] is False and md["budget"] == 3000 and md["iterations"][-1]["finished"] is False
    assert messages and all(m["name"] == "md" and m["finished"] is False for m in messages)
    assert [it["nodes"] for it in messages[-1]["iterations"] if it["finished"]] == [3, 42, 242, 1653]
    full = call("compare", text=ANTIPODE_3x3, bounds="md,wdid", budget=None)["result"]["bounds"]
    assert full["md"]["nodes"] == 9710 and full["wdid"]["length"] == 31


@pytest.mark.parametrize(
    "method, params, message",
    [
        ("compare", {"text": ANTIPODE_3x3, "bounds": ["pdb663"]}, "not available for a 3x3 board"),
        ("compare", {"text": ANTIPODE_3x3, "bounds": "md,xx"}, "bound 'xx' is unknown"),
        ("compare", {"text": ANTIPODE_3x3, "budget": "lots"}, "budget must be a whole number"),
        ("compare", {"text": ANTIPODE_3x3, "budget": -5}, "budget must be from 0 (none) to 1,099,511,627,776 nodes, got -"),
        ("trace", {"text": ANTIPODE_3x3}, "moves: give the solution"),
        ("trace", {"text": ANTIPODE_3x3, "moves": [8]}, "not next to the blank"),
        ("trace", {"text": ANTIPODE_3x3, "moves": [1]}, "do not solve the position"),
        ("trace", {"text": ANTIPODE_3x3, "moves": "DD"}, "cannot move D"),
        ("explain", {"text": "1 2 3 4 5 6 8 7 0"}, "unsolvable"),
    ],
)
def test_api_lab_errors_are_input_errors(method, params, message):
    out = call(method, **params)
    assert out["ok"] is False and out["error"]["type"] == "input" and message in out["error"]["message"]


def test_api_cancel_explain_and_trace():
    ticks: list[int] = []

    def cancel() -> bool:
        ticks.append(1)
        return len(ticks) > 3

    out = json.loads(api.call("compare", json.dumps({"text": KORF1, "bounds": ["md"], "budget": None}), None, cancel))
    assert out == {"ok": False, "error": {"type": "cancelled", "code": "cancelled", "message": "cancelled"}}
    explained = call("explain", text=TRANSPOSED)["result"]
    assert explained["tiles"] == [int(t) for t in TRANSPOSED.split()] and explained["wdid"]["value"] == 40
    traced = call("trace", text="1 2 3 4 5 6 7 8 0 10 11 12 9 13 14 15", moves=[9, 13, 14, 15])["result"]
    assert traced["rows"] == 4 and traced["remaining"] == [4, 3, 2, 1, 0] and traced["values"]["pdb663"] == [4, 3, 2, 1, 0]


def run_cli(*args):
    env = dict(os.environ, PYTHONPATH=str(ROOT / "py"))
    return subprocess.run([sys.executable, "-m", "fifteen", *args], capture_output=True, text=True, env=env, cwd=ROOT)


def test_cli_compare_json_and_tables():
    r = run_cli("compare", ANTIPODE_3x3, "--bounds", "md,wdid", "--budget", "0", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert list(out) == ["bounds"] and out["bounds"]["md"]["nodes"] == 9710 and out["bounds"]["wdid"]["length"] == 31
    r = run_cli("compare", ANTIPODE_3x3, "--bounds", "wdid", "--budget", "0", "--format", "tsv")
    assert "threshold\twdid\n25\t31\n27\t295\n29\t1533\n31\t223\ntotal\t2082" in r.stdout
    r = run_cli("compare", "--preset", "8p31", "--bounds", "md", "--budget", "3000", "--format", "markdown")
    assert r.stdout.startswith("| threshold | md |\n|---|---:|\n| 21 | 3 |\n") and "\n| 29 | " in r.stdout and "+ |" in r.stdout
    r = run_cli("compare", "--preset", "8p31", "--bounds", "md,wd", "--budget", "3000")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("8 6 7\n2 5 4\n3 _ 1\nbudget: 3,000 nodes per bound\n")
    assert "no (budget)" in r.stdout and "  wd: 2,522 nodes" in r.stderr


def test_cli_explain_and_trace(databases_without_pack):
    r = run_cli("explain", TRANSPOSED)
    assert r.returncode == 0, r.stderr
    assert "ID 24 = vertical 12 + horizontal 12\n  vertical: 36 inversions, jump 3: 36//3 + 36%3 = 12 + 0 = 12\n" in r.stdout
    assert "WD 40 = vertical 20 + horizontal 20" in r.stdout
    assert (
        "pdb663 48 = max(plain 48, reflected 48)\n  plain: 14 [1, 2, 5, 6, 9, 10] + 22 [3, 4, 7, 8, 11, 12] + 12 [13, 14, 15]\n" in r.stdout
    )
    r = run_cli("trace", "1 2 3 4 5 6 7 8 0 10 11 12 9 13 14 15", "--moves", "DRRR", "--format", "tsv", "--db", str(databases_without_pack))
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[:2] == [
        "step\ttile\tleft\tmd\tlc\tid\twd\twdid\tpdb555\tpdb663\tpdb771",
        "0\t\t4\t4\t4\t4\t4\t4\t4\t4\t4",
    ]


@pytest.mark.parametrize(
    "args, message",
    [
        (("compare", "--preset", "nope"), "unknown preset 'nope'"),
        (("compare",), "no position given"),
        (("compare", KORF1, "--preset", "korf1"), "either a position or --preset"),
        (("compare", ANTIPODE_3x3, "--bounds", "pdb663"), "not available for a 3x3 board"),
        (("compare", ANTIPODE_3x3, "--budget", "-1"), "budget must be from 0 (none) to 1,099,511,627,776 nodes, got -"),
        (("trace", ANTIPODE_3x3, "--moves", "1 2 x"), "--moves: give tile numbers or blank directions"),
        (("trace", ANTIPODE_3x3, "--moves", "8"), "not next to the blank"),
    ],
)
def test_cli_lab_errors(args, message):
    r = run_cli(*args)
    assert r.returncode == 2 and message in r.stderr and "Traceback" not in r.stderr
