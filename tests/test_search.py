"""IDA*: exact lengths against BFS on small boards, Korf instances on 4x4, progress and cancel."""

import random

import pytest

from fifteen import Board, Cancelled, Shape, solve
from fifteen.bounds import available_bounds
from instances import korf100
from support.bfs import distances
from support.cancel import CancelInTheLoop

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


# Korf #9 (46 moves): every bound solves it in well under a second.
KORF9 = (0, 1, 15, 6, 9, 10, 4, 3, 14, 8, 12, 11, 5, 7, 2, 13)


@pytest.mark.parametrize("bound", ["md", "lc", "id", "wd", "wdid", "pdb555", "pdb663"])
def test_tick_and_cancel_in_every_loop(real_pdbs, bound):
    """Progress reaches the caller from inside each loop (the PDB loops tick only in nodes with
    slack), and cancel stops it there, mid-iteration."""
    board = Board(Shape(4, 4), KORF9)
    ticks = []
    sol = solve(board, bound, progress=lambda p: ticks.append(p), tick_nodes=64)
    inner = [p for p in ticks if not p.done]
    assert len(inner) > 10 and all(p.iteration_nodes > 0 for p in inner)
    assert [p.iterations[-1].bound for p in ticks if p.done] == [it.bound for it in sol.result.iterations]
    stop = CancelInTheLoop()
    with pytest.raises(Cancelled) as info:
        solve(board, bound, progress=stop.progress, cancel=stop.cancel, tick_nodes=64)
    assert any(entry.name == "dfs" for entry in info.traceback)  # raised inside the generated loop
    assert stop.checks == stop.iterations + 2 and stop.iterations < len(sol.result.iterations)


@pytest.mark.parametrize("reflect", [True, False])
def test_tick_and_cancel_in_the_pdb78_loop(small_packs, reflect):
    from fifteen.bounds.pdb78_loop import pdb78_searcher
    from fifteen.search.ida import ida_star

    factory = pdb78_searcher(small_packs["3x3"], reflect=reflect)
    tiles = [8, 6, 7, 2, 5, 4, 3, 0, 1]  # 31 moves
    ticks = []
    ida_star(Shape(3, 3), tiles, factory, progress=ticks.append, tick_nodes=4)
    assert len([p for p in ticks if not p.done]) > 5
    stop = CancelInTheLoop()
    with pytest.raises(Cancelled) as info:
        ida_star(Shape(3, 3), tiles, factory, progress=stop.progress, cancel=stop.cancel, tick_nodes=4)
    assert any(entry.name == "dfs" for entry in info.traceback)
    assert stop.checks == stop.iterations + 2


def test_setup_is_not_search_time():
    """Set-up (tables, automaton) is reported apart; the iterations add up to the search time."""
    from fifteen.bounds.manhattan_loop import linear_conflict_searcher
    from fifteen.search.ida import ida_star

    result = ida_star(Shape(4, 4), KORF9, linear_conflict_searcher)
    assert result.setup_seconds > 0 and result.cpu_seconds > 0
    assert sum(it.seconds for it in result.iterations) == pytest.approx(result.seconds, abs=1e-9)
