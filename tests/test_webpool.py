"""The browser pool's JSON protocol (fifteen.webpool through fifteen.api.call), driven here as
static/js/solver-pool.js drives it: parallel_begin, bundles run by parallel_tasks (in any
order, one lost and run again as when a worker dies), parallel_step per iteration, and
parallel_result for the solution.  Lengths equal the serial ones (BFS, Korf #1), solutions
replay, every iteration but the last has exactly the serial node count."""

from __future__ import annotations

import json
import random

import pytest

from fifteen import Board, Shape, api
from fifteen.bfs import distances
from fifteen.ida import ida_star
from fifteen.solver import resolve_bound
from support.positions import KORF, OWN_MIRROR_3X3, SET_3X3


def call(method: str, params: dict, progress=None) -> dict:
    reply = json.loads(api.call(method, json.dumps(params), progress))
    assert reply["ok"], reply
    return reply["result"]


def drive(tiles, shape: str, bound: str, workers: int, *, lose_first_bundle=False, reverse=False, min_task_nodes=None) -> dict:
    """The page's pool in one thread: returns the parallel_result and the progress reports."""
    text = " ".join(map(str, tiles))
    params = {"text": text, "shape": shape, "bound": bound, "workers": workers}
    if min_task_nodes is not None:
        params["min_task_nodes"] = min_task_nodes
    work = call("parallel_begin", params)
    finished: list[dict] = []
    lost = False
    while "solved_path" not in work:
        finished = work["iterations"]
        queue = list(work["bundles"])
        if reverse:
            queue.reverse()
        outcomes, found = [], None
        nodes = work["split_nodes"]
        while queue:
            bundle = queue.pop(0)
            if lose_first_bundle and not lost:
                lost = True  # the worker died: its bundle goes back to the queue
                queue.append(bundle)
                continue
            got = call("parallel_tasks", {"shape": shape, "tasks": bundle})["outcomes"]
            nodes += sum(o["nodes"] for o in got)
            solved = [o for o in got if o["path"] is not None]
            if solved:
                task = next(t for t in bundle if t["id"] == solved[0]["id"])
                found = task["path"] + solved[0]["path"]
                break
            outcomes += got
        if found is not None:
            its = finished + [{"bound": work["bound"], "nodes": nodes, "seconds": 0.0}]
            call("parallel_drop", {"search": work["search"]})
            return call(
                "parallel_result",
                {"text": text, "shape": shape, "bound": bound, "path": found, "iterations": its, "h0": work["h0"], "workers": workers},
            )
        work = call("parallel_step", {"search": work["search"], "outcomes": outcomes})
    its = work["iterations"]
    return call(
        "parallel_result", {"text": text, "shape": shape, "bound": bound, "path": work["solved_path"], "iterations": its, "h0": work["h0"]}
    )


def replays(shape: Shape, tiles, moves) -> bool:
    board = Board(shape, tuple(tiles))
    b = list(board.tiles)
    for t in moves:
        i, z = b.index(t), b.index(0)
        b[i], b[z] = 0, t
    return tuple(b) == tuple(shape.goal())


@pytest.fixture(scope="module")
def bfs_3x3():
    return distances(Shape(3, 3))


@pytest.mark.parametrize("tiles", SET_3X3[:4] + OWN_MIRROR_3X3[:2])
@pytest.mark.parametrize("bound", ["md", "wdid"])
def test_lengths_equal_bfs_and_replay(tiles, bound, bfs_3x3):
    shape = Shape(3, 3)
    r = drive(tiles, "3x3", bound, 3, min_task_nodes=1)
    assert r["length"] == bfs_3x3[bytes(tiles)]
    assert replays(shape, tiles, r["moves"])
    assert r["directions"] == Board(shape, tuple(tiles)).directions(r["moves"])


def test_random_3x3_any_order_and_a_lost_bundle(bfs_3x3):
    rng = random.Random(15)
    shape = Shape(3, 3)
    for _ in range(6):
        tiles = list(range(9))
        rng.shuffle(tiles)
        if bytes(tiles) not in bfs_3x3:
            tiles[1], tiles[2] = tiles[2], tiles[1]
            if tiles[1] == 0 or tiles[2] == 0:
                tiles[3], tiles[4] = tiles[4], tiles[3]
        if bytes(tiles) not in bfs_3x3:
            continue
        r = drive(tiles, "3x3", "md", 2, lose_first_bundle=True, reverse=True, min_task_nodes=1)
        assert r["length"] == bfs_3x3[bytes(tiles)]
        assert replays(shape, tiles, r["moves"])


def test_korf1_iterations_equal_serial():
    shape = Shape(4, 4)
    tiles = KORF["1"]
    info = resolve_bound(shape, "pdb663")
    serial = ida_star(shape, list(tiles), info.factory)
    r = drive(tiles, "4x4", "pdb663", 2)
    assert r["length"] == serial.length == 57
    assert r["bound"] == "pdb663" and r["workers"] == 2
    assert [it["bound"] for it in r["iterations"]] == [it.bound for it in serial.iterations]
    assert [it["nodes"] for it in r["iterations"][:-1]] == [it.nodes for it in serial.iterations[:-1]]
    assert replays(shape, tiles, r["moves"])


def test_goal_and_one_move():
    r = drive([1, 2, 3, 4, 5, 6, 7, 8, 0], "3x3", "md", 2)
    assert r["length"] == 0
    r = drive([1, 2, 3, 4, 5, 6, 7, 0, 8], "3x3", "md", 2)
    assert r["length"] == 1 and r["moves"] == [8]


def test_progress_reports_nodes():
    shape = "4x4"
    work = call("parallel_begin", {"text": " ".join(map(str, KORF["1"])), "shape": shape, "bound": "md", "workers": 2, "min_task_nodes": 1})
    big = max(work["bundles"], key=lambda b: sum(t["estimate"] for t in b))
    reports: list[str] = []
    got = call("parallel_tasks", {"shape": shape, "tasks": big}, reports.append)
    assert sum(o["nodes"] for o in got["outcomes"]) >= 1
    for rep in reports:
        assert json.loads(rep)["nodes"] > 0
    call("parallel_drop", {"search": work["search"]})


def test_errors_are_input_errors():
    bad = json.loads(api.call("parallel_step", json.dumps({"search": 999999, "outcomes": []})))
    assert bad == {"ok": False, "error": {"type": "input", "message": "no such parallel search (finished or dropped)"}}
    wrong = json.loads(api.call("parallel_result", json.dumps({"text": "1 2 3 4 5 6 7 0 8", "shape": "3x3", "path": [6]})))
    assert wrong["ok"] is False and wrong["error"]["type"] == "input"
    assert "does not reach the goal" in wrong["error"]["message"] or "not a neighbour" in wrong["error"]["message"]
