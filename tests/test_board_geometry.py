"""Board rendering, notation both ways, geometry and parity, pinned exactly (the mutation run of
``make mutants`` found these untested or only loosely tested)."""

from __future__ import annotations

import itertools
import re

import pytest

from fifteen import Board, InputError, Shape
from fifteen.board import blank_steps, inversions, solvability_problem, tile_mirrors, tile_squares, transpose_squares, transpose_tiles

KORF1 = "13 6 8 12 15 14 0 10 11 7 4 5 9 1 3 2"


def test_rendering_and_text():
    board = Board.parse(KORF1)
    assert str(board) == "13  6  8 12\n15 14  _ 10\n11  7  4  5\n 9  1  3  2"
    assert board.text() == KORF1
    assert str(Board.goal("3x3")) == "1 2 3\n4 5 6\n7 8 _"
    assert str(Board.goal("2x5")) == "1 2 3 4 5\n6 7 8 9 _"
    assert str(Board.goal("5x5")).splitlines()[-1] == "21 22 23 24  _"
    assert Board.goal("3x4").text() == "1 2 3 4 5 6 7 8 9 10 11 0"


def test_movable_tiles_and_moves():
    board = Board.parse(KORF1)  # blank on square 6 (row 2, column 3)
    assert board.blank == 6
    assert board.movable_tiles() == [8, 4, 14, 10]  # up, down, left, right
    assert Board.goal("3x3").movable_tiles() == [6, 8]
    assert board.move_blank("U").tiles[2] == 0 and board.move_blank("U").tiles[6] == 8
    assert board.move_blank("d") == board.move_blank("D") == board.slide(4)
    assert board.move_blank("L") == board.slide(14) and board.move_blank("R") == board.slide(10)
    with pytest.raises(InputError, match=r"^the blank cannot move D from row 3, column 3$"):
        Board.goal("3x3").move_blank("D")
    with pytest.raises(InputError, match=r"^the blank cannot move R from row 3, column 3$"):
        Board.goal("3x3").move_blank("R")
    corner = Board.goal("3x3").apply("UULL")
    with pytest.raises(InputError, match=r"^the blank cannot move U from row 1, column 1$"):
        corner.move_blank("U")
    with pytest.raises(InputError, match=r"^the blank cannot move L from row 1, column 1$"):
        corner.move_blank("L")
    with pytest.raises(InputError, match=r"^'x' is not a direction \(U, D, L or R\)$"):
        board.move_blank("x")
    with pytest.raises(InputError, match=r"^there is no tile 16 on a 4x4 board$"):
        board.slide(16)
    with pytest.raises(InputError, match=r"^tile 13 is not next to the blank$"):
        board.slide(13)
    with pytest.raises(InputError, match=r"^tile 0 is not next to the blank$"):
        board.slide(0)


def test_notations_both_ways():
    board = Board.parse(KORF1)
    directions = "DRUULDDDRUUULDDLLURURDDLDRRULULDDLUUURDDDLUUURDRDDLLURRRD"  # the README's solution
    tiles = board.tiles_moved(directions)
    assert tiles[:8] == [4, 5, 10, 12, 8, 4, 5, 3]
    assert board.directions(tiles) == directions
    assert board.tiles_moved("D R U") == [4, 5, 10]
    assert board.apply("D R U") == board.apply([4, 5, 10])
    assert board.solves(tiles) and board.solves(directions) and board.apply(tiles).is_goal()
    assert not board.solves(tiles[:-1]) and not board.solves("UUUU")  # short, and off the board
    # every direction, on a 3x3 position with the blank in the middle
    middle = Board.from_tiles([1, 2, 3, 4, 0, 5, 7, 8, 6])
    for d, tile in zip("UDLR", (2, 8, 4, 5), strict=True):
        assert middle.tiles_moved(d) == [tile] and middle.directions([tile]) == d


def test_transposition():
    board = Board.parse(KORF1)
    assert transpose_squares(3) == (0, 3, 6, 1, 4, 7, 2, 5, 8)
    assert tile_mirrors(3) == (0, 1, 4, 7, 2, 5, 8, 3, 6)
    assert board.transposed().text() == "4 12 11 3 6 8 10 1 14 0 13 9 15 7 2 5"
    assert board.transposed().transposed() == board
    assert transpose_tiles(Shape(2, 3), [1, 2, 3, 4, 5, 0]) == [1, 2, 3, 4, 5, 0]
    assert transpose_tiles(Shape(2, 3), [4, 1, 2, 5, 0, 3]) == [2, 4, 1, 0, 3, 5]
    with pytest.raises(InputError, match="^only square boards can be reflected about the diagonal$"):
        Board.goal("2x3").transposed()


def test_small_helpers():
    assert inversions([3, 0, 1, 2]) == 2 and inversions([0, 1, 2]) == 0 and inversions([4, 3, 2, 1]) == 6
    assert tile_squares([3, 0, 1, 2]) == [1, 2, 3, 0]
    assert [blank_steps(Shape(3, 4), b) for b in (0, 3, 5, 11)] == [5, 2, 3, 0]
    assert Board.from_tiles((1, 2, 3, 4, 5, 6, 7, 0, 8)).tiles == (1, 2, 3, 4, 5, 6, 7, 0, 8)
    assert Board.from_tiles([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0, 11], "3x4").shape == Shape(3, 4)
    assert Shape.infer(25) == Shape(5, 5) and Shape.infer(4) == Shape(2, 2)
    assert Shape.parse(" 3 X 4 ") == Shape.parse("3*4") == Shape.parse("3,4") == Shape(3, 4)


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
    assert [str(Shape.infer(n)) for n in (4, 9, 16, 25, 36, 49, 64, 81, 100)] == [f"{k}x{k}" for k in range(2, 11)]
    with pytest.raises(InputError, match=r"^12 tiles could be 2x6 or 3x4 or 4x3 or 6x2: give the shape$"):
        Shape.infer(12)
    with pytest.raises(InputError, match=r"^14 tiles could be 2x7 or 7x2: give the shape$"):
        Shape.infer(14)
    with pytest.raises(InputError, match=r"^11 tiles do not make a supported board \(4, 9, 16, 25, 36, 49, 64, 81, 100 for a square one"):
        Shape.infer(11)  # a prime: 1x11 only
    with pytest.raises(InputError, match=r"^22 tiles do not make a supported board"):
        Shape.infer(22)  # 2x11 and 11x2 are too long
    with pytest.raises(InputError, match=r"^101 tiles is more than the largest supported board \(100 squares, 10x10\)$"):
        Shape.infer(101)
