"""IDA*: exact lengths against BFS on small boards, Korf instances on 4x4, progress and cancel."""

import random

import pytest

from fifteen import Board, Cancelled, Shape, solve
from fifteen.bfs import distances
from fifteen.solver import available_bounds
from support.instances import korf100

CLASSIC = ["md", "lc", "id", "wd", "wdid"]


@pytest.fixture(scope="module")
def exact():
    return {s: distances(Shape.parse(s)) for s in ("3x3", "2x4", "4x2", "2x3")}


@pytest.mark.parametrize("shape", ["3x3", "2x4", "4x2"])
def test_auto_is_optimal_on_random_small_boards(exact, shape):
    rng = random.Random(shape)
    table = exact[shape]
    keys = rng.sample(sorted(table), 150 if shape == "3x3" else 100)
    for key in keys:
        board = Board(Shape.parse(shape), tuple(key))
        sol = solve(board)
        assert sol.length == table[key], key
        assert board.solves(sol.tiles)
        assert board.directions(sol.tiles) == sol.directions


@pytest.mark.parametrize("bound", CLASSIC)
@pytest.mark.parametrize("shape", ["3x3", "2x4"])
def test_each_bound_is_optimal(exact, shape, bound):
    rng = random.Random(bound + shape)
    table = exact[shape]
    for key in rng.sample(sorted(table), 40):
        board = Board(Shape.parse(shape), tuple(key))
        sol = solve(board, bound)
        assert sol.length == table[key], (bound, key)
        assert board.solves(sol.tiles)


def test_hardest_3x3_positions(exact):
    table = exact["3x3"]
    far = [k for k, v in table.items() if v == 31]
    assert len(far) == 2
    for key in far:
        assert solve(Board(Shape(3, 3), tuple(key)), "wdid").length == 31


def test_goal_and_one_move():
    goal = Board.goal("4x4")
    assert solve(goal).length == 0
    one = goal.move_blank("U")
    sol = solve(one, "wdid")
    assert sol.length == 1 and sol.tiles == [12] and sol.directions == "D"


# Korf instances that WD+ID solves in about a second or less natively.
QUICK_KORF = {"55", "42", "79", "71", "85", "97", "12", "61", "86", "19", "2"}


@pytest.mark.parametrize("inst", [k for k in korf100() if k.id in QUICK_KORF], ids=lambda i: i.id)
def test_korf_with_seed_bound(inst):
    board = Board.from_tiles(inst.tiles)
    sol = solve(board, "wdid")
    assert sol.length == inst.optimal
    assert board.solves(sol.tiles)
    assert sol.result.iterations[-1].bound == inst.optimal
    assert sum(it.nodes for it in sol.result.iterations) == sol.result.nodes


def test_larger_boards_solve():
    # 3x4 / 4x3 / 2x6 / 2x5 positions a few dozen moves deep
    rng = random.Random(7)
    for shape in ("3x4", "4x3", "2x6", "2x5", "3x5"):
        board = Board.goal(shape)
        for _ in range(60):
            board = board.slide(rng.choice(board.movable_tiles()))
        sol = solve(board)
        assert board.solves(sol.tiles)
        assert sol.length <= 60
        assert sol.length == solve(board, "md").length


def test_progress_and_cancel():
    board = Board.from_tiles(next(k for k in korf100() if k.id == "1").tiles)
    seen = []

    def progress(p):
        seen.append(p)

    calls = {"n": 0}

    def cancel():
        calls["n"] += 1
        return calls["n"] > 3

    with pytest.raises(Cancelled):
        solve(board, "md", progress=progress, cancel=cancel, tick_nodes=1000)
    assert seen and seen[-1].nodes > 0
    done = [p for p in seen if p.done]
    assert all(p.iterations for p in done)
    # the search is usable again after a cancel
    assert solve(Board.goal("4x4").move_blank("L"), "md").length == 1


def test_available_bounds():
    assert available_bounds(Shape(3, 3))[:2] == ["auto", "wdid"]
    assert "wd" not in available_bounds(Shape(5, 5))
    assert available_bounds(Shape(5, 5))[-1] == "md"
