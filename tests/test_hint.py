"""Hints (fifteen.lab.hint) and the explorer's API methods and CLI sub-commands.

Hint moves are exactly the moves that reduce the exact distance: against BFS on 3x3 (with
the explorer's table, and without it through the solver), and on Korf instances with the
6-6-3 pattern database, where the hinted move must keep the optimum (the rest is one move
shorter) and every move "all" calls optimal must too.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from fifteen import Board, InputError, Shape, api, solve
from fifteen.bounds import databases
from fifteen.lab.hint import Hinter, solves_within
from instances import korf100
from support.bfs import distances
from support.cli import run_cli

ROOT = Path(__file__).resolve().parents[1]
from dbbuild import explorer as explorer_build  # noqa: E402

QUICK_KORF = ("55", "42", "79", "12")  # solved in a few thousand nodes with the 6-6-3 PDB


@pytest.fixture(scope="module")
def bfs33():
    return {tuple(k): d for k, d in distances(Shape(3, 3)).items()}


@pytest.fixture(scope="module")
def tables():
    saved = dict(databases.explorer_tables)
    for rows, cols in ((3, 3), (2, 4)):
        databases.load_asset(explorer_build.build_asset(rows, cols), f"test-{rows}x{cols}")
    yield
    databases.reset()  # the tables and the record of the files read (a file read here would not be read again)
    databases.explorer_tables.update(saved)


@pytest.fixture(scope="module")
def pdb4x4():
    databases.ensure_for(Shape(4, 4))
    assert "pdb663" in databases.pattern_databases, "make db builds the 6-6-3 PDB"


def optimal_by_bfs(board: Board, bfs: dict) -> set[int]:
    d = bfs[board.tiles]
    return {t for t in board.movable_tiles() if bfs[board.slide(t).tiles] == d - 1}


def call(method: str, **params):
    reply = json.loads(api.call(method, json.dumps(params)))
    assert reply["ok"], reply
    return reply["result"]


def call_error(method: str, **params):
    reply = json.loads(api.call(method, json.dumps(params)))
    assert not reply["ok"]
    return reply["error"]


# ----------------------------------------------------------------- 3x3 against BFS
def test_table_hints_are_exactly_the_moves_that_reduce_the_distance(tables, bfs33):
    hinter = Hinter()
    rng = random.Random(5)
    for tiles in rng.sample(sorted(bfs33), 500):
        board = Board(Shape(3, 3), tiles)
        h = hinter.hint(board)
        assert h.source == "table" and h.distance == bfs33[tiles] and h.nodes == 0
        assert {m.tile for m in h.optimal} == optimal_by_bfs(board, bfs33)
        if h.next is not None:
            assert h.next in h.optimal and board.move_blank(h.next.direction) == board.slide(h.next.tile)
        else:
            assert board.is_goal()


def test_solver_hints_without_a_table_equal_bfs(tables, bfs33, monkeypatch):
    monkeypatch.setattr(databases, "explorer_tables", {})  # as on a board with no table
    rng = random.Random(8)
    for tiles in rng.sample(sorted(bfs33), 25):
        board = Board(Shape(3, 3), tiles)
        h = Hinter().hint(board, all_moves=True)
        assert h.source == "solve" and h.distance == bfs33[tiles]
        assert {m.tile for m in h.optimal} == optimal_by_bfs(board, bfs33) and not h.undecided
        assert board.solves(h.remaining) and len(h.remaining) == h.distance


def test_solves_within_stops_at_the_limit(tables, bfs33, monkeypatch):
    monkeypatch.setattr(databases, "explorer_tables", {})
    board = Board(Shape(3, 3), next(k for k, d in bfs33.items() if d == 24))
    assert solves_within(board, 24)[0] is True and solves_within(board, 22)[0] is False
    far = Board(Shape(3, 3), next(k for k, d in bfs33.items() if d == 31))
    answer, nodes = solves_within(far, 29, bound="md", budget=1000)
    assert answer is None and nodes > 1000  # the budget ran out: undecided, not guessed
    # A search checked many times in its last iteration (tick: every 4096 nodes): a 2x5 position
    # 40 moves away, with Manhattan distance alone.
    board = Board.parse("4 5 8 9 1 3 2 0 7 6", "2x5")
    full = solve(board, "md").result
    assert full.length == 40 and full.iterations[-1].nodes > 10 * 4096
    assert solves_within(board, 40, bound="md") == (True, full.nodes)
    answer, nodes = solves_within(board, 38, bound="md")
    through_38 = sum(it.nodes for it in full.iterations if it.bound <= 38)
    assert answer is False and through_38 <= nodes <= through_38 + 4096  # stopped early in iteration 40


def test_hinter_follows_its_solution_and_solves_again_off_it(tables, monkeypatch, bfs33):
    monkeypatch.setattr(databases, "explorer_tables", {})
    board = Board(Shape(3, 3), next(k for k, d in bfs33.items() if d == 20))
    hinter = Hinter()
    first = hinter.hint(board)
    assert first.source == "solve" and first.nodes > 0
    on_path = board.slide(first.next.tile)
    second = hinter.hint(on_path)
    assert second.source == "path" and second.nodes == 0 and second.distance == 19
    off = board.slide(next(t for t in board.movable_tiles() if t != first.next.tile))
    assert hinter.hint(board).source == "path"  # back at the start: still on the path
    third = hinter.hint(off)
    assert third.source == "solve" and third.distance == bfs33[off.tiles]


# ----------------------------------------------------------------- 4x4: Korf instances
@pytest.mark.parametrize("inst", [k for k in korf100() if k.id in QUICK_KORF], ids=lambda i: i.id)
def test_4x4_hint_keeps_the_optimum(pdb4x4, inst):
    board = Board.from_tiles(inst.tiles)
    h = Hinter().hint(board, all_moves=True)
    assert h.source == "solve" and h.distance == inst.optimal and not h.undecided
    assert solve(board.slide(h.next.tile), "pdb663").length == inst.optimal - 1
    optimal = {m.tile for m in h.optimal}
    for tile in board.movable_tiles():
        rest = solve(board.slide(tile), "pdb663").length
        assert rest == (inst.optimal - 1 if tile in optimal else inst.optimal + 1)


# ----------------------------------------------------------------- API
def test_api_explore_info_and_position(tables, bfs33):
    assert {"3x3", "2x4", "4x2"} <= set(call("explore_info")["shapes"])
    info = call("explore_info", shape="3x3")
    assert info["radius"] == 31 and info["hardest_count"] == 2 and len(info["hardest"]) == 2
    assert info["positions"] == 181_440 == sum(info["histogram"]) and not info["transposed"]
    info = call("explore_info", shape="4x2")
    assert info["table_shape"] == "2x4" and info["transposed"] and info["radius"] == 36
    tiles = info["hardest"][0]
    pos = call("explore_position", tiles=tiles, shape="4x2")
    assert pos["distance"] == 36 and all(m["distance"] == 35 and m["optimal"] for m in pos["moves"])
    far = call("explore_info", shape="3x3")["hardest"][1]
    pos = call("explore_position", text=" ".join(map(str, far)), shape="3x3")
    assert pos["distance"] == 31
    assert {m["tile"] for m in pos["optimal"]} == optimal_by_bfs(Board(Shape(3, 3), tuple(far)), bfs33)


def test_api_explore_random(tables, bfs33):
    r = call("explore_random", shape="3x3", distance=25, seed=7)
    assert bfs33[tuple(r["tiles"])] == 25 and r["seed"] == 7 and (r["rows"], r["cols"]) == (3, 3)
    assert call("explore_random", shape="3x3", distance=25, seed=7)["tiles"] == r["tiles"]
    drawn = call("explore_random", shape="3x3", distance=25)
    assert (
        isinstance(drawn["seed"], int) and call("explore_random", shape="3x3", distance=25, seed=drawn["seed"])["tiles"] == drawn["tiles"]
    )


@pytest.mark.parametrize(
    "method, params, message",
    [
        ("explore_info", {"shape": "4x4"}, "no table for a 4x4 board"),
        ("explore_position", {"tiles": [1, 2, 3, 4, 5, 6, 7, 0], "shape": "3x3"}, "a 3x3 board has 9 squares, got 8 tiles"),
        ("explore_position", {"tiles": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0]}, "no table for a 4x4 board"),
        ("explore_random", {"shape": "3x3", "distance": 40}, "distances go from 0 to 31"),
        ("explore_random", {"shape": "3x3"}, "give the distance"),
        ("explore_random", {"shape": "3x3", "distance": "5"}, "distance must be an integer"),
        ("hint", {"tiles": [1, 2, 3, 4, 5, 6, 8, 7, 0]}, "unsolvable"),
        ("hint", {"tiles": [1, 2, 3, 4, 5, 6, 7, 0, 8], "solution": {"moves": [1]}}, 'solution must be {"tiles"'),
    ],
)
def test_api_errors(tables, method, params, message):
    err = call_error(method, **params)
    assert err["type"] == "input" and message in err["message"], err


def test_api_hint_with_a_table(tables):
    h = call("hint", tiles=[1, 2, 3, 4, 5, 6, 0, 7, 8], all=True)
    assert h == {
        "shape": "3x3",
        "rows": 3,
        "cols": 3,
        "tiles": [1, 2, 3, 4, 5, 6, 0, 7, 8],
        "goal": [1, 2, 3, 4, 5, 6, 7, 8, 0],
        "distance": 2,
        "next": {"tile": 7, "direction": "R"},
        "source": "table",
        "nodes": 0,
        "optimal": [{"tile": 7, "direction": "R"}],
        "undecided": [],
    }
    assert call("hint", tiles=list(range(1, 9)) + [0])["next"] is None


def test_api_hint_stateless_and_stateful(pdb4x4, monkeypatch):
    inst = next(k for k in korf100() if k.id == "55")
    board = Board.from_tiles(inst.tiles)
    first = call("hint", tiles=list(board.tiles))
    assert first["source"] in ("solve", "path") and first["distance"] == 41
    moves = first["solution"]["moves"]
    assert len(moves) == 41 and board.solves(moves) and first["next"]["tile"] == moves[0]
    after = board.slide(moves[0])
    # Stateless: the caller hands the solution back (to a worker that never saw it).
    monkeypatch.setattr(api, "_hinter", None)
    again = call("hint", tiles=list(after.tiles), solution=first["solution"])
    assert again["source"] == "path" and again["nodes"] == 0 and again["next"]["tile"] == moves[1]
    assert again["solution"]["moves"] == moves[1:]
    # Stateful: the worker's own Hinter solves once, then follows.
    assert call("hint", tiles=list(after.tiles))["source"] == "solve"
    assert call("hint", tiles=list(after.slide(moves[1]).tiles))["source"] == "path"
    err = call_error("hint", tiles=list(after.tiles), solution={"tiles": list(board.tiles), "moves": moves[:-1]})
    assert "does not reach the goal" in err["message"]


# ----------------------------------------------------------------- CLI
def test_cli_explore_json():
    r = run_cli("explore", "3x3", "--json", "--hardest", "--random-at", "30", "--seed", "1", "--position", "1 2 3 4 5 6 0 7 8")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["radius"] == 31 and out["hardest_count"] == 2 and len(out["hardest"]) == 2
    assert out["random"]["distance"] == 30 and out["position"]["distance"] == 2


def test_cli_explore_text_and_hint():
    r = run_cli("explore", "4x2")
    assert r.returncode == 0, r.stderr
    assert "4x2: 20,160 positions, radius 36 (1 at it) (the 2x4 table, transposed)" in r.stdout
    r = run_cli("hint", "8 6 7 2 5 4 3 0 1", "--all")
    assert r.returncode == 0, r.stderr
    assert "distance: 31 (explorer table)" in r.stdout and "all optimal moves: 5 (U), 3 (L), 1 (R)" in r.stdout


@pytest.mark.parametrize(
    "args, message",
    [
        (("explore", "4x4"), "no table for a 4x4 board"),
        (("explore", "11x11"), "shape 11x11 is not supported"),
        (("explore", "9x9"), "the explorer has no table for a 9x9 board"),
        (("explore", "3x3", "--position", "1 2 3"), "a 3x3 board has 9 squares, got 3 tiles"),
        (("explore", "3x3", "--random-at", "32"), "distances go from 0 to 31"),
        (("hint", "1 2 3 4 5 6 8 7 0"), "unsolvable"),
    ],
)
def test_cli_explore_and_hint_errors(args, message):
    r = run_cli(*args)
    assert r.returncode == 2 and message in r.stderr and "Traceback" not in r.stderr, r.stderr


def test_input_error_is_a_value_error():
    with pytest.raises(InputError):
        databases.require_explorer(Shape(5, 5))
