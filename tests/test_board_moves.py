"""Moving on a board, pinned exactly: the moves and their refusals, both notations (the tiles that
slide, the blank's directions) and a search's path of squares, replay, rendering, the position's
JSON, transposition and the geometry helpers."""

from __future__ import annotations

import pytest

from fifteen import Board, InputError, Shape
from fifteen.board import blank_steps, inversions, tile_mirrors, tile_squares, tiles_along, transpose_squares, transpose_tiles

KORF1 = "13 6 8 12 15 14 0 10 11 7 4 5 9 1 3 2"
TRANSPOSED = "1 5 9 13 2 6 10 14 3 7 11 15 4 8 12 0"


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


def test_tiles_along_a_path_of_the_blank():
    """A search's path (the blank's squares) as the tiles that slide, and each step checked."""
    shape = Shape(3, 4)
    start = (1, 2, 3, 4, 5, 0, 6, 8, 9, 10, 7, 11)  # blank on square 5
    assert tiles_along(shape, start, [6, 10, 11]) == [6, 7, 11]
    assert Board(shape, start).apply([6, 7, 11]).is_goal()
    assert tiles_along(shape, start, [4, 5, 1]) == [5, 5, 2]  # back and forth: the same tile twice
    assert tiles_along(shape, start, []) == []
    for path, bad in (([7], "from square 5 to 7"), ([6, 11], "from square 6 to 11"), ([6, 5, 1, 2, 3, 7, 8], "from square 7 to 8")):
        with pytest.raises(InputError, match=f"the path steps the blank {bad}, not a neighbour"):
            tiles_along(shape, start, path)
    assert start == (1, 2, 3, 4, 5, 0, 6, 8, 9, 10, 7, 11)  # the position itself is not moved


def test_a_position_as_json():
    board = Board.parse("1 2 3 4 5 6 7 8 9 10 0 11", "3x4")
    assert board.to_json() == {"shape": "3x4", "rows": 3, "cols": 4, "tiles": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0, 11]}
    assert Board.goal("4x2").to_json() == {"shape": "4x2", "rows": 4, "cols": 2, "tiles": [1, 2, 3, 4, 5, 6, 7, 0]}
