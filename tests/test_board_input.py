"""Reading a position: parsing text and checking tile lists with precise errors, shapes given
or inferred from the count, solvability (parity) against what a BFS reaches, and nothing but
InputError for any garbage."""

import itertools
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
        (" ".join(map(str, range(36))), None, "36 tiles is more than the largest supported board"),
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


@pytest.mark.parametrize("name", ["2x2", "2x3", "3x2", "2x4"])
def test_parity_against_reachability(name):
    """solvability_problem is None exactly on the positions a BFS from the goal reaches."""
    from support.bfs import distances

    shape = Shape.parse(name)
    reachable = set(distances(shape))
    for perm in itertools.permutations(range(shape.size)):
        assert (solvability_problem(shape, perm) is None) == (bytes(perm) in reachable), perm


def test_parity_messages_name_the_counts():
    odd_wide = solvability_problem(Shape(3, 3), [2, 1, 3, 4, 5, 6, 7, 8, 0])
    assert odd_wide is not None and "1 inversions" in odd_wide and "3 wide" in odd_wide
    even_wide = solvability_problem(Shape(4, 4), [2, 1] + list(range(3, 16)) + [0])
    assert even_wide is not None and "1 inversions" in even_wide and "0 rows above" in even_wide and "(1, odd)" in even_wide
    one_up = solvability_problem(Shape(2, 2), [0, 1, 2, 3])
    assert one_up is not None and "0 inversions" in one_up and "1 row above" in one_up and "(1, odd)" in one_up


@pytest.mark.parametrize(
    "tiles,message",
    [
        ([1, 2, 3, 4, 5, 6, 7, 0], "a 3x3 board has 9 squares, got 8 tiles"),
        ([1, 2, "3", 4, 5, 6, 7, 8, 0], "square 3: '3' is not a tile number"),
        ([1, 2, 3, True, 5, 6, 7, 8, 0], "square 4: True is not a tile number"),
        ([1, 2, 3, 4, 5, 6, 7, 8, 9], "square 9: tile 9 is out of range (0..8 on a 3x3 board, 0 = blank)"),
        ([1, 2, 3, 4, -5, 6, 7, 8, 0], "square 5: tile -5 is out of range (0..8 on a 3x3 board, 0 = blank)"),
        ([1, 2, 3, 4, 5, 6, 7, 2, 0], "tile 2 appears twice (squares 2 and 8)"),
        ([0, 2, 3, 4, 5, 6, 7, 8, 0], "the blank appears twice (squares 1 and 9)"),
    ],
)
def test_tiles_given_as_numbers_are_checked(tiles, message):
    """``Board.from_tiles`` (the API's ``tiles``) checks what parsing text checks before it."""
    with pytest.raises(InputError, match=f"^{re.escape(message)}$"):
        Board.from_tiles(tiles, "3x3")


def test_shapes_inferred_from_the_count():
    assert [str(Shape.infer(n)) for n in (4, 9, 16, 25)] == ["2x2", "3x3", "4x4", "5x5"]
    with pytest.raises(InputError, match=r"^12 tiles could be 2x6 or 3x4 or 4x3 or 6x2: give the shape$"):
        Shape.infer(12)
    with pytest.raises(InputError, match=r"^14 tiles do not make a supported board"):
        Shape.infer(14)  # 2x7 and 7x2 are too long
    with pytest.raises(InputError, match=r"^36 tiles is more than the largest supported board \(25 squares\)$"):
        Shape.infer(36)
