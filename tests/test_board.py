"""Boards: parsing with precise errors, notation both ways, replay."""

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fifteen import Board, FifteenError, InputError, Shape
from fifteen.board import solvability_problem

TRANSPOSED = "1 5 9 13 2 6 10 14 3 7 11 15 4 8 12 0"


@pytest.mark.parametrize(
    "text, shape",
    [
        ("1 2 3 4 5 6 7 8 0", "3x3"),
        ("1,2,3\n4,5,6\n7,8,_", "3x3"),
        ("1 2 3 4 5 6 7 8 .", "3x3"),
        ("1;2;3;4;5;6;7;8;9;10;11;0", None),
        (TRANSPOSED, "4x4"),
    ],
)
def test_parse_ok(text, shape):
    given_shape = shape if shape else "3x4"
    board = Board.parse(text, given_shape)
    assert str(board.shape) == given_shape
    assert sorted(board.tiles) == list(range(board.shape.size))


def test_shape_inferred_for_square_counts():
    assert Board.parse("1 2 3 0").shape == Shape(2, 2)
    assert Board.parse("1 2 3 4 5 6 7 8 0").shape == Shape(3, 3)
    assert Board.parse(TRANSPOSED).shape == Shape(4, 4)
    assert Board.parse(" ".join(map(str, range(1, 25))) + " 0").shape == Shape(5, 5)


@pytest.mark.parametrize(
    "text, shape, message",
    [
        ("", None, "no tiles given"),
        ("1 2 3 4 5 6 7 8 9 10 11 0", None, "12 tiles could be 2x6 or 3x4 or 4x3 or 6x2: give the shape"),
        ("1 2 3 4 5 6 7 0", "3x3", "a 3x3 board has 9 squares, got 8 tiles"),
        ("1 2 3 4 5 6 7 8 9 0", "3x3", "a 3x3 board has 9 squares, got 10 tiles"),
        ("1 2 3 4 5 6 7 x 0", "3x3", "'x' (item 8) is not a tile number"),
        ("1 2 3 4 5 6 7 -8 0", "3x3", "'-8' (item 8) is not a tile number"),
        ("1 2 3 4 5 6 7 9 0", "3x3", "tile 9 (item 8) is out of range: a 3x3 board has tiles 1..8"),
        ("1 2 3 4 5 6 7 7 0", "3x3", "duplicate: tile 7 given more than once (missing: 8)"),
        ("1 2 3 4 5 6 7 0 0", "3x3", "duplicate: the blank given more than once (missing: 8)"),
        ("2 1 3 4 5 6 7 8 0", "3x3", "unsolvable: the tiles read row by row have 1 inversions, an odd number"),
        (
            "2 1 3 4 5 6 7 8 9 10 11 12 13 14 15 0",
            "4x4",
            "unsolvable: the tiles read row by row have 1 inversions and the blank is 0 rows above the bottom",
        ),
        ("1 2 3 4 5 6 7 8 0", "3x", "shape '3x' is not of the form RxC"),
        ("1 0", "1x2", "shape 1x2 is not supported"),
        (" ".join(map(str, range(101))), None, "101 tiles is more than the largest supported board (100 squares, 10x10)"),
        ("1 2 3 4 5 6 7 8 9 10 11 12 13 14 0", None, "15 tiles could be 3x5 or 5x3"),
        ("1 2 3 4 5 6 7 8 9 10 0", None, "11 tiles do not make a supported board"),
    ],
)
def test_parse_errors(text, shape, message):
    with pytest.raises(InputError, match=re.escape(message)):
        Board.parse(text, shape)


@settings(max_examples=400, deadline=None)
@given(st.text(max_size=80), st.sampled_from([None, "3x3", "4x4", "2x4", "0x0", "9x9", "abc"]))
def test_random_garbage_raises_only_input_error(text, shape):
    try:
        Board.parse(text, shape)
    except FifteenError:
        pass


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(min_value=-3, max_value=20), max_size=20))
def test_random_tile_lists_raise_only_input_error(tiles):
    try:
        Board.from_tiles(tiles, "4x4")
    except FifteenError:
        pass


def test_solvability_is_exactly_half_on_2x3():
    from itertools import permutations

    shape = Shape(2, 3)
    perms = list(permutations(range(6)))
    solvable = [p for p in perms if solvability_problem(shape, p) is None]
    assert len(solvable) == len(perms) // 2


def test_notation_round_trip_and_replay():
    board = Board.parse("1 2 3 4 5 6 0 8 9 10 7 11 13 14 15 12")
    assert board.directions([7, 11, 12]) == "DRD"
    assert board.tiles_moved("DRD") == [7, 11, 12]
    assert board.solves([7, 11, 12]) and board.solves("DRD")
    assert not board.solves([7, 11])
    assert board.apply("DRD").is_goal()
    with pytest.raises(InputError, match="tile 1 is not next to the blank"):
        board.slide(1)
    with pytest.raises(InputError, match="cannot move"):
        Board.goal("4x4").move_blank("D")
    with pytest.raises(InputError, match="not a direction"):
        board.move_blank("X")


def test_seed_solution_of_transposed_goal_replays():
    seed = (
        "15 14 13 9 10 13 14 11 13 14 11 15 12 13 7 8 13 7 14 6 8 3 4 13 7 14 6 8 5 10 8 6 3 4 2 "
        "5 6 3 4 2 5 6 3 4 15 11 9 8 4 9 8 4 10 3 2 7 14 15 9 10 3 2 7 9 10 7 6 5 9 10 11 12"
    )
    moves = list(map(int, seed.split()))
    assert len(moves) == 72
    assert Board.parse(TRANSPOSED).solves(moves)


def test_transpose_is_involution_and_fixes_goal():
    b = Board.parse("13 6 8 12 15 14 0 10 11 7 4 5 9 1 3 2")
    assert b.transposed().transposed() == b
    assert Board.goal("4x4").transposed().is_goal()
    assert Board.parse(TRANSPOSED).transposed() == Board.parse(TRANSPOSED)
