"""The browser pool's JSON protocol (fifteen.parallel.page_pool through fifteen.api.call), driven here as
static/js/solver/pool.js drives it: parallel_begin, bundles run by parallel_tasks (in any
order, one lost and run again as when a worker dies), parallel_step per iteration, and
parallel_result for the solution.  Lengths equal the serial ones (BFS, Korf #1), solutions
replay, every iteration but the last has exactly the serial node count."""

from __future__ import annotations

import json
import random

import pytest

from fifteen import Board, Shape, api
from fifteen.bounds import resolve_bound
from fifteen.search.ida import ida_star
from support.bfs import distances
from support.positions import KORF, OWN_MIRROR_3X3, SET_3X3


def call(method: str, params: dict, progress=None) -> dict:
    reply = json.loads(api.call(method, json.dumps(params), progress))
    assert reply["ok"], reply
    return reply["result"]


def drive(tiles, shape: str, bound: str, workers: int, *, lose_first_bundle=False, reverse=False, min_task_nodes=None, goal=None) -> dict:
    """The page's pool in one thread: returns the parallel_result and the progress reports."""
    text = " ".join(map(str, tiles))
    params = {"text": text, "shape": shape, "bound": bound, "workers": workers, "goal": goal}
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
                {
                    "text": text,
                    "shape": shape,
                    "goal": goal,
                    "bound": bound,
                    "path": found,
                    "iterations": its,
                    "h0": work["h0"],
                    "workers": workers,
                },
            )
        work = call("parallel_step", {"search": work["search"], "outcomes": outcomes})
    its = work["iterations"]
    return call(
        "parallel_result",
        {"text": text, "shape": shape, "goal": goal, "bound": bound, "path": work["solved_path"], "iterations": its, "h0": work["h0"]},
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
    assert r["bound"] == "pdb663" and r["workers"] == 2 and r["worker_nodes"] == []  # this driver sends none
    # the one JSON of a solve (Solution.to_json), with the parallel search's keys before the position's bounds
    assert list(r)[-4:] == ["workers", "worker_nodes", "bounds", "summary"] and list(r)[:4] == ["shape", "rows", "cols", "tiles"]
    assert r["h0"] == serial.h0 and r["nodes"] == sum(it["nodes"] for it in r["iterations"])
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
    assert bad == {"ok": False, "error": {"type": "input", "code": "param", "message": "no such parallel search (finished or dropped)"}}
    wrong = json.loads(api.call("parallel_result", json.dumps({"text": "1 2 3 4 5 6 7 0 8", "shape": "3x3", "path": [6]})))
    assert wrong["ok"] is False and wrong["error"]["type"] == "input"
    assert "does not reach the goal" in wrong["error"]["message"] or "not a neighbour" in wrong["error"]["message"]


def _refusal(method: str, params: dict) -> str:
    reply = json.loads(api.call(method, json.dumps(params)))
    assert reply["ok"] is False and reply["error"]["type"] == "input", reply
    return reply["error"]["message"]


def test_malformed_records_are_refused_with_what_is_wrong():
    """The records come back from the page through api.call like any input: each field is checked."""
    work = call("parallel_begin", {"text": "8 6 7 2 5 4 3 0 1", "shape": "3x3", "bound": "md", "workers": 2, "min_task_nodes": 1})
    task = work["bundles"][0][0]
    cases = [
        ("parallel_tasks", {"tasks": [{**task, "board": [1, 2, 3]}]}, "a 3x3 board has 9 squares, got 3 tiles"),
        ("parallel_tasks", {"tasks": [{**task, "budget": 10**6}]}, "a task's budget must be an integer from 0 to 10,000, not 1000000"),
        ("parallel_tasks", {"tasks": [{**task, "state": -1}]}, "a task's state must be an integer from 0 to"),
        ("parallel_tasks", {"tasks": [{**task, "bound": "nosuch"}]}, "nosuch"),
        ("parallel_tasks", {"tasks": [{**task, "path": ["a"]}]}, "a task's path must be a list of square numbers 0..8"),
        ("parallel_tasks", {"tasks": [{**task, "evil": 1}]}, "a task has no field 'evil'"),
        ("parallel_tasks", {"tasks": [{"id": 1}]}, "tasks must be a list of the tasks parallel_begin or parallel_step gave"),
        ("parallel_tasks", {"tasks": "x"}, "tasks must be a list of the tasks"),
        ("parallel_step", {"search": work["search"], "outcomes": [{"id": task["id"], "nodes": "x"}]}, "an outcome's nodes must be"),
        ("parallel_step", {"search": work["search"], "outcomes": [{"id": 10**9, "nodes": 1}]}, "task 1000000000 is not pending"),
        ("parallel_step", {"search": work["search"], "outcomes": []}, "parallel_step needs the outcome of every task of the iteration"),
        ("parallel_step", {"search": "x"}, "search must be the number of a parallel search"),
        ("parallel_begin", {"text": "1 2 3 0", "workers": 0}, "workers must be an integer from 1 to 256"),
        ("parallel_begin", {"text": "1 2 3 0", "workers": 2, "min_task_nodes": 0}, "min_task_nodes must be an integer from 1"),
        ("parallel_result", {"text": "1 2 3 0", "path": [], "iterations": [{"bound": "x", "nodes": 1}]}, "an iteration's bound must be"),
        ("parallel_result", {"text": "1 2 3 0", "path": [], "seconds": -1}, "seconds must be a number of seconds"),
        ("parallel_drop", {"search": 1, "x": 2}, "parallel_drop takes search, not 'x'"),
    ]
    for method, params, message in cases:
        assert message in _refusal(method, params), (method, params)
    # A state whose blank is elsewhere: its successor moves would not be legal on this board.
    other = next(t for b in work["bundles"] for t in b if t["board"].index(0) != task["board"].index(0))
    assert "does not have the blank on square" in _refusal("parallel_tasks", {"tasks": [{**task, "state": other["state"]}]})
    call("parallel_drop", {"search": work["search"]})


def test_pool_calls_may_be_longer_than_other_calls():
    """An iteration's outcomes can pass the 128 KiB every other method reads (thousands of tasks)."""
    long_step = json.dumps({"search": 123456789, "outcomes": [{"id": i, "nodes": 123456} for i in range(8000)]})
    assert len(long_step) > 1 << 17
    assert json.loads(api.call("parallel_step", long_step))["error"]["message"] == "no such parallel search (finished or dropped)"
    assert "at most 131,072 are read" in json.loads(api.call("parse", long_step))["error"]["message"]


def test_auto_starts_where_the_serial_search_does():
    """The pool's first iteration is the serial one's (LC 18 above WD+ID 16 here: see tests/test_api.py)."""
    text = "7 5 0 3 1 8 4 2 6"
    work = call("parallel_begin", {"text": text, "shape": "3x3", "bound": "auto", "workers": 2})
    own = call("parallel_begin", {"text": text, "shape": "3x3", "bound": "wdid", "workers": 2})
    firsts = [(w["iterations"] or [{"bound": w["bound"]}])[0]["bound"] for w in (work, own)]
    assert work["h0"] == own["h0"] == 16 and firsts == [18, 16]
    for w in (work, own):
        call("parallel_drop", {"search": w["search"]})


@pytest.mark.parametrize("goal", ["blank-first", "1 2 3 4 0 5 6 7 8", "3 8 1 0 5 2 7 4 6"])
def test_goals_through_the_pool(goal):
    """A goal's position searched by the pool in the goal's frame (tasks carry a goal that is not
    the standard one), the solution given back in the caller's frame: BFS lengths, replayed to the goal."""
    from fifteen import Goal

    target = Goal.of(goal, "3x3")
    dist = distances(Shape(3, 3), target.tiles)
    for key in sorted(dist)[:: len(dist) // 5][:5]:
        board = Board(Shape(3, 3), tuple(key), target)
        out = drive(list(key), "3x3", "lc", 3, min_task_nodes=1, goal=goal)
        assert out["length"] == dist[key] and out["goal"] == list(target.tiles)
        assert board.solves(out["moves"]) and board.solves(out["directions"])
