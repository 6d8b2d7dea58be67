"""The last moves (fifteen.bounds.last_moves) on top of MD + linear conflict: admissible against
exact distances on every position of the small boards, optimal solves, the loop's nodes pinned
against LC's on a 6x6, and where the bound is offered."""

from __future__ import annotations

import random

import pytest

from fifteen import Board, Shape
from fifteen.board import Goal, InputError
from fifteen.bounds import available_bounds, bound_values, resolve_bound
from fifteen.bounds.last_moves import last_moves, last_moves_table, last_tiles
from fifteen.bounds.manhattan import linear_conflict, manhattan
from fifteen.bounds.manhattan_loop import last_moves_searcher, linear_conflict_searcher
from fifteen.search.ida import ida_star
from support.bfs import distances

#: shape: (positions, those where the last moves add 2, those where MD + LC + them is exact, those where MD + LC is)
SMALL = {(3, 3): (181_440, 62_087, 4_339, 2_914), (2, 4): (20_160, 3_137, 397, 339), (4, 2): (20_160, 3_137, 397, 339)}

#: DeepCubeA's 6x6 test position D6-1 (bench/data/deepcubea-test.tsv): the last moves hold there
D6_1 = "25 6 14 9 5 17 0 21 3 2 4 29 11 1 20 16 18 12 7 31 30 28 13 23 8 32 22 33 10 24 26 27 19 35 15 34"


def _counted(shape: Shape, goal: tuple[int, ...] | None = None) -> tuple[int, int, int, int]:
    """Every position that reaches *goal* checked (the last moves 0 or 2, MD + LC + them at most
    the distance), and SMALL's counts of them."""
    exact = distances(shape, goal)
    adds = tight = tight_lc = 0
    for position, distance in exact.items():
        lc = manhattan(shape, position, goal) + linear_conflict(shape, position, goal)
        lm = last_moves(shape, position, goal)
        assert lm in (0, 2) and lc + lm <= distance, position
        adds += lm == 2
        tight += lc + lm == distance
        tight_lc += lc == distance
    return len(exact), adds, tight, tight_lc


@pytest.mark.parametrize("rows, cols", sorted(SMALL))
def test_md_lc_and_the_last_moves_never_exceed_the_distance(rows, cols):
    assert _counted(Shape(rows, cols)) == SMALL[rows, cols]


def test_towards_another_goal_with_the_blank_last():
    """Towards a goal of other tiles (the 3x3's standard one read backwards, the blank still last)
    the rule reads that goal's tiles and lines: admissible, and the standard goal's counts (the
    labels are only renamed); 0 at that goal."""
    shape = Shape(3, 3)
    goal = (8, 7, 6, 5, 4, 3, 2, 1, 0)
    assert _counted(shape, goal) == SMALL[3, 3]
    assert last_moves(shape, goal, goal) == 0 and last_moves(shape, shape.goal(), goal) == 2


@pytest.mark.parametrize("rows, cols", sorted(SMALL))
def test_the_last_moves_search_finds_the_shortest_solutions(rows, cols):
    shape = Shape(rows, cols)
    exact = distances(shape)
    for position in random.Random(rows * 10 + cols).sample(sorted(exact), 60):
        result = ida_star(shape, list(position), last_moves_searcher)
        assert result.length == exact[position] and Board(shape, tuple(position)).solves(result.tiles)


def test_the_rule_by_the_squares_of_the_two_last_tiles():
    """A (left of the blank's goal) out of the last column and B (above it) out of the last row:
    2, with the line checks flagged where either stands in its goal line."""
    four = Shape(4, 4)
    assert last_tiles(four) == (15, 12)
    table = last_moves_table(four)
    assert (table[0 * 16 + 0], table[3 * 16 + 0], table[0 * 16 + 12]) == (2, 0, 0)  # A or B on the outer line: 0
    assert (table[2 * 16 + 0], table[0 * 16 + 8], table[2 * 16 + 8]) == (3, 6, 7)  # in their goal column / row: checks
    assert last_moves(four, four.goal()) == 0
    # A (15) two columns left, B (12) in the top row: 2; the same with A in a column conflict: 0
    assert last_moves(four, (1, 2, 3, 12, 5, 6, 7, 4, 9, 15, 11, 8, 13, 14, 10, 0)) == 2
    assert last_moves(four, (1, 2, 3, 12, 5, 6, 7, 4, 9, 10, 15, 8, 13, 14, 11, 0)) == 0


def test_the_loop_is_one_iteration_ahead_of_lc_where_the_last_moves_hold():
    """D6-1: the root's 2 more, and each iteration's nodes about those of LC's one iteration lower."""
    six = Shape(6, 6)
    tiles = [int(t) for t in D6_1.split()]
    assert last_moves(six, tiles) == 2

    def first_iterations(factory):
        seen = []
        with pytest.raises(RuntimeError, match="no solution within 99 moves"):
            ida_star(six, tiles, factory, max_bound=99, progress=lambda p: seen.append([(i.bound, i.nodes) for i in p.iterations]))
        return seen[-1]

    assert first_iterations(linear_conflict_searcher) == [(93, 42), (95, 746), (97, 10_627), (99, 139_648)]
    assert first_iterations(last_moves_searcher) == [(95, 19), (97, 337), (99, 3_951)]  # (with the corner tiles: 42, 749, 11,018 without)


def test_offered_past_the_walking_distance_for_goals_with_the_blank_in_a_corner():
    six = Shape(6, 6)
    assert available_bounds(six) == ["auto", "id", "lclm", "lc", "md"] and resolve_bound(six, "auto").name == "lclm"
    assert "lclm" not in available_bounds(Shape(4, 4)) and "lclm" not in available_bounds(Shape(3, 3))
    board = Board(six, tuple(int(t) for t in D6_1.split()))
    values = bound_values(board)
    assert (values["lc"], values["lclm"], values["lb"]) == (93, 95, 95)
    inside = Goal(six, tuple(range(1, 15)) + (0,) + tuple(range(15, 36)))  # the blank on row 3, column 3
    assert "lclm" not in available_bounds(six, inside) and resolve_bound(six, "auto", inside).name == "lc"
    with pytest.raises(InputError, match="the last moves need its blank in a corner, not on row 3, column 3"):
        resolve_bound(six, "lclm", inside)
    assert last_tiles(six, inside.tiles) is None and last_moves(six, board.tiles, inside.tiles) == 0
    corner = Goal(six, (0,) + tuple(range(1, 36)))  # blank-first: its frame is the standard goal
    assert resolve_bound(six, "auto", corner).name == "lclm"
