"""Reduction (fifteen.anytime.reduce): the stage beam brings the first row and column home, the
rest is a position of the smaller board towards its standard goal, and the stage, the smaller
board's path lifted back and the blank's walk back replay to the goal, whatever the goal and
shape; the improver of a board past 36 squares without fitted costs (a side of 5 or less) starts
with it.  Lengths pinned (the beams are deterministic)."""

from __future__ import annotations

import pytest

from fifteen import Board, Shape
from fifteen.anytime import driver, reduce
from fifteen.anytime.decompose import decompose_to
from fifteen.anytime.rank import RANK_COSTS, shape_cost
from fifteen.anytime.reduce import blank_walk, lift, play, rest_costs, stage_beam, stage_squares, sub_position, sub_shape
from fifteen.anytime.tables import label_tables
from fifteen.board import Goal, tiles_along


def test_stage_squares_and_the_smaller_board():
    assert stage_squares(3, 3) == [0, 1, 2, 3, 6]
    assert stage_squares(4, 3) == [0, 1, 2]  # a tall board loses its top row
    assert stage_squares(3, 4) == [0, 4, 8]  # a wide one its left column
    assert sub_shape(Shape(7, 7)) == (Shape(6, 6), 1, 1)
    assert sub_shape(Shape(7, 5)) == (Shape(6, 5), 1, 0)
    assert lift(Shape(4, 4), [0, 4, 8]) == [5, 10, 15]


@pytest.mark.parametrize(
    ("rows", "cols", "goal", "widths"),
    [
        (7, 7, None, (64, 265, 231)),
        (7, 7, "blank-first", (64, 244, 245)),
        (8, 6, None, (128, 107, 103)),
        (5, 9, (1, 2, 3, 0), (64, 59, 67)),
    ],
)
def test_a_stage_then_the_smaller_board_solve_the_board(rows, cols, goal, widths):
    """The stage (pinned length; without the other tiles' distance in its ranking, the length
    the beam ranked by the stage alone found) brings every stage tile home; the rest, solved on
    the smaller board towards its standard goal and lifted back, then the walk back reach the goal."""
    shape = Shape(rows, cols)
    target = Goal.of(goal, shape) if not isinstance(goal, tuple) else Goal.of(goal + tuple(range(4, shape.size)), shape)
    board = Board.random(shape, rows * cols, target)
    to, back = blank_walk(shape, target.tiles)
    assert to.index(0) == shape.size - 1 and play(to, back) == list(target.tiles)
    width, length, alone = widths
    stage = stage_beam(shape, board.tiles, to, width)
    assert stage is not None and len(stage) == length
    assert len(stage_beam(shape, board.tiles, to, width, rest_weight=0) or []) == alone
    after = play(board.tiles, stage)
    assert all(after[q] == to[q] for q in stage_squares(rows, cols))
    small = sub_shape(shape)[0]
    rest = sub_position(shape, after, to)
    sub = Board(small, tuple(rest))  # towards the smaller board's standard goal: solvable
    path = decompose_to(label_tables(small), sub.tiles, small.goal())
    assert play(board.tiles, stage + lift(shape, path) + back) == list(target.tiles)


def _manhattan(shape: Shape, tiles) -> int:
    """Manhattan distance of *tiles* from *shape*'s standard goal."""
    c = shape.cols
    return sum(abs((t - 1) // c - q // c) + abs((t - 1) % c - q % c) for q, t in enumerate(tiles) if t)


def test_the_stage_ranks_the_other_tiles_too():
    """The other tiles' Manhattan distance in the stage beam's ranking (REST_WEIGHT) leaves the
    smaller board closer to its goal (pinned: a 7x7, width 256, where the stage is shorter too)."""
    shape = Shape(7, 7)
    board = Board.random(shape, 11)
    to, _ = blank_walk(shape, board.target.tiles)
    small = sub_shape(shape)[0]
    found = []
    for weight in (0, reduce.REST_WEIGHT):
        stage = stage_beam(shape, board.tiles, to, 256, rest_weight=weight)
        assert stage is not None
        found.append((len(stage), _manhattan(small, sub_position(shape, play(board.tiles, stage), to))))
    assert reduce.REST_WEIGHT == 2 and reduce.RANK_SCALE == 8
    assert found == [(171, 127), (167, 113)]  # (stage moves, the smaller board's Manhattan distance)


def test_the_stage_ranks_the_other_tiles_by_the_smaller_boards_costs():
    """On 7x7 a tile off the stage costs what the 6x6's fitted rank says of it on the 6x6 left
    (fifteen.anytime.rank.RANK_COSTS), one on a stage square past the fitted shapes 16 a square
    more; on 8x8 the 7x7's costs; on boards whose smaller board has no fitted rank (5x9, whose
    stage leaves a 5x8), 16 a square of Manhattan distance."""
    costs6 = RANK_COSTS[6, 6][0]
    seven = rest_costs(Shape(7, 7))
    n = 49

    def at(r: int, c: int) -> int:
        return r * 7 + c

    assert seven[at(3, 3) * n + at(3, 3)] == 0
    assert seven[at(3, 3) * n + at(3, 5)] == costs6[0, 0, 2] == 12  # an interior tile two columns off
    assert seven[at(1, 3) * n + at(3, 3)] == costs6[1, 2, 0]  # an edge tile of the 6x6, two rows off its line
    assert seven[at(6, 6) * n + at(0, 0)] == costs6[2, 5, 5] + 16 * 2  # a corner tile on the stage's corner: (6, 6) past the table
    assert shape_cost(costs6, (2, 6, 6)) == costs6[2, 5, 5] + 32 and shape_cost(costs6, (1, 0, 7)) == costs6[1, 0, 4] + 48
    costs7 = RANK_COSTS[7, 7][0]
    eight = rest_costs(Shape(8, 8))
    assert eight[(3 * 8 + 3) * 64 + 3 * 8 + 6] == costs7[0, 0, 3]  # an interior tile three columns off
    assert eight[(7 * 8 + 7) * 64 + 0] == costs7[2, 6, 6] + 16 * 2  # the 7x7's corner tile on the stage's corner
    oblong = rest_costs(Shape(5, 9))
    assert all(oblong[q * 45 + sq] == 16 * (abs(q // 9 - sq // 9) + abs(q % 9 - sq % 9)) for q in range(45) for sq in range(45))


def test_the_improver_reduces_boards_past_6x6_without_fitted_costs():
    """A 5x8 (40 squares, no fitted costs): the improver's first step is the stage (its left
    column); the path it offers then (the stage, the 5x7 rest's first solution lifted) is shorter
    than the decomposition's, and replays; the 5x7's improver is not reduced again."""
    board = Board.random(Shape(5, 8), 7)
    T = label_tables(board.shape)
    first = driver.first_solution(T, board.tiles, board.target.tiles)
    offered = []
    imp = driver.Improver(T, board.tiles, board.target.tiles, first, offered.append)
    assert imp.reduce_pending and imp.windows_only and imp.sub is None
    imp.stage_width = 128  # (the default beam is wider: a test needs no more)
    imp.step()
    assert imp.sub is not None and imp.sub.T.shape == Shape(5, 7) and imp.stage is not None
    assert not imp.sub.reduce_pending and not imp.sub.windows_only
    assert (len(first), len(imp.stage), [len(p) for p in offered]) == (519, 87, [503])
    assert board.solves(tiles_along(board.shape, board.tiles, offered[-1]))


def test_the_7x7_improver_runs_beams_ranked_by_its_costs():
    """A 7x7 is improved as it is (fifteen.anytime.rank.RANK_COSTS has its costs; 8x8 and bigger
    square boards rank by them too, and 6x7 to 6x10 by the 6x6's): no stage, and beams that find
    nothing do not turn it to windows only."""
    board = Board.random(Shape(7, 7), 1)
    T = label_tables(board.shape)
    first = driver.first_solution(T, board.tiles, board.target.tiles)
    offered = []
    imp = driver.Improver(T, board.tiles, board.target.tiles, first, offered.append, polish_ratio=0.0)
    assert not imp.reduce_pending and not imp.windows_only and (7, 7) in RANK_COSTS
    for shape in (Shape(8, 8), Shape(6, 8)):
        other = driver.Improver(label_tables(shape), *[shape.goal()] * 2, [], offered.append)
        assert not other.reduce_pending and not other.windows_only
    imp.step()
    imp.step()
    assert imp.stage is None and imp.beams == [(-256, 347), (512, None)] and not imp.windows_only
    assert (len(first), [len(p) for p in offered]) == (691, [347])
    assert board.solves(tiles_along(board.shape, board.tiles, offered[-1]))


def test_improver_calls_carry_the_reduction(monkeypatch):
    """fifteen.parallel.anytime_steps.improve on a 5x8, call after call (the processes' and the page's
    pool): the first call's carried state holds the stage and the smaller board's improver; it
    crosses JSON and the page's check (fifteen.anytime.anytime_page.carried_from), and the next call
    goes on from it without running the stage again; every path replays; a carried stage or
    path that does not do what it says is an input error."""
    import json
    import time

    from fifteen.errors import InputError
    from fifteen.parallel import anytime_page, anytime_steps

    monkeypatch.setattr(driver, "STAGE_WIDTH", 128)
    board = Board.random(Shape(5, 8), 7)
    args = (str(board.shape), tuple(board.tiles), tuple(board.target.tiles))
    first = driver.first_solution(label_tables(board.shape), board.tiles, board.target.tiles)
    path, carried, done, _ = anytime_steps.improve(*args, first, "beam+windows", {}, time.time() + 600, stopped=lambda: False)
    assert not done and len(path) < len(first) and board.solves(tiles_along(board.shape, board.tiles, path))
    assert len(carried["stage"]) == 87 and set(carried["sub"]) >= {"best", "width", "done"}
    again = anytime_page.carried_from(json.loads(json.dumps(carried)), board.shape.size)
    assert again == carried

    def no_stage(*args, **kwargs):
        raise AssertionError("the stage ran again")

    monkeypatch.setattr(driver, "stage_beam", no_stage)
    path2, carried2, _, _ = anytime_steps.improve(*args, path, "beam+windows", again, time.time() + 600, stopped=lambda: False)
    assert len(path2) <= len(path) and board.solves(tiles_along(board.shape, board.tiles, path2))
    assert carried2["stage"] == carried["stage"]
    for bad in ({**carried, "stage": carried["stage"][:-1]}, {**carried, "sub": {**carried["sub"], "best": []}}):
        with pytest.raises(InputError):
            anytime_steps.improve(*args, path, "beam+windows", bad, time.time() + 600, stopped=lambda: False)
    with pytest.raises(InputError):
        anytime_page.carried_from({"stage": [1, 2]}, 40)


def test_the_stage_beam_checks_once_per_layer():
    """*check* is called before each layer (it may raise to stop the search): as many times as
    the stage has moves, and an exception from it ends the beam."""
    shape = Shape(7, 7)
    board = Board.random(shape, 11)
    to, _ = blank_walk(shape, board.target.tiles)
    calls = []
    stage = stage_beam(shape, board.tiles, to, 32, lambda: calls.append(1))
    assert stage is not None and len(calls) == len(stage)

    class Stop(Exception):
        pass

    def stop() -> None:
        if len(calls) > 3:
            raise Stop
        calls.append(1)

    calls.clear()
    with pytest.raises(Stop):
        stage_beam(shape, board.tiles, to, 33, stop)
