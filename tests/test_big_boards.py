"""Boards up to 10x10: parsing and round trips, the duplicate-pruning automaton built from the
open board's sequences (pinned sizes, equal to the exact enumeration where that can be run),
the bounds that scale (MD, LC with line values computed as met, ID beyond a byte), optimal
solutions of positions near the goal replayed to it, and the lab, the API and the parallel
search on big boards."""

from __future__ import annotations

import json
import random

import pytest

import fifteen.search.moves as moves
from fifteen import Board, InputError, Shape, api, bound_values, solve
from fifteen.bounds import available_bounds, resolve_bound
from fifteen.bounds.inversion import distance_table
from fifteen.bounds.manhattan import LineExtras, line_extras, line_table, linear_conflict, manhattan
from fifteen.bounds.manhattan_loop import linear_conflict_searcher
from support.positions import scramble

TEN = Shape(10, 10)


def call(method: str, **params) -> dict:
    reply = json.loads(api.call(method, json.dumps(params)))
    assert reply["ok"], reply
    return reply["result"]


# ------------------------------------------------------------------ parsing and round trips
def test_10x10_round_trips_text_tiles_and_directions():
    board = scramble(TEN, 200, 3)
    assert Board.parse(board.text()) == board == Board.parse(str(board)) == Board.from_tiles(list(board.tiles))
    assert str(board).splitlines()[0].split()[0].rjust(2) == str(board)[:2]  # two-character columns
    out = call("parse", tiles=list(board.tiles))
    assert out == {"shape": "10x10", "rows": 10, "cols": 10, "tiles": list(board.tiles), "goal": list(range(1, 100)) + [0]}
    assert call("parse", text=board.text())["tiles"] == list(board.tiles)
    rng = random.Random(4)
    walk, b = [], board
    for _ in range(300):
        d = rng.choice([d for d in "UDLR" if _can_move(b, d)])
        walk.append(d)
        b = b.move_blank(d)
    directions = "".join(walk)
    tiles = board.tiles_moved(directions)
    assert board.directions(tiles) == directions and board.apply(tiles) == board.apply(directions) == b


def _can_move(board: Board, direction: str) -> bool:
    r, c = divmod(board.blank, board.shape.cols)
    dr, dc = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}[direction]
    return 0 <= r + dr < board.shape.rows and 0 <= c + dc < board.shape.cols


def test_every_side_up_to_10_and_the_limits():
    assert Shape(2, 10).size == 20 and Shape(10, 10).size == 100 and str(Shape.parse("7x9")) == "7x9"
    for bad in ("11x2", "1x5", "2x11"):
        with pytest.raises(InputError, match=rf"^shape {bad} is not supported: rows and columns go from 2 to 10$"):
            Shape.parse(bad)
    assert Board.parse(" ".join(map(str, range(1, 36))) + " 0").shape == Shape(6, 6)
    with pytest.raises(InputError, match=r"^14 tiles could be 2x7 or 7x2: give the shape$"):
        Board.parse(" ".join(map(str, range(1, 14))) + " 0")
    assert str(Board.parse(" ".join(map(str, range(1, 14))) + " 0", "7x2").shape) == "7x2"
    long = json.loads(api.call("parse", json.dumps({"tiles": list(range(101))})))
    assert long["error"]["message"].startswith("tiles must be a list of tile numbers or the position as text")


# ------------------------------------------------------------------ the automaton
#: (states, forbidden sequences) of the duplicate-pruning automaton, depth 8, open board's sequences.
AUTOMATON = {
    "2x10": (220, 92),
    "10x2": (220, 92),
    "3x10": (1564, 422),
    "5x6": (2144, 562),
    "6x6": (2812, 732),
    "7x7": (4313, 1112),
    "8x8": (6136, 1572),
    "9x9": (8281, 2112),
    "10x10": (10748, 2732),
}


@pytest.mark.parametrize("name", list(AUTOMATON))
def test_automaton_sizes_of_big_boards(name):
    tables = moves.move_tables(Shape.parse(name))
    assert tables.prune_depth == moves.OPEN_BOARD_DEPTH == 8
    assert (tables.states, tables.forbidden) == AUTOMATON[name]


def test_open_board_sequences_and_their_twins():
    assert [len(moves.open_board_sequences(d)) for d in (2, 4, 6, 8)] == [4, 4, 8, 40]
    words = moves.open_board_sequences(8)
    assert words["LDRULD"] == "DLURDL" and words["UD"] == ""
    order = {d: i for i, d in enumerate("UDLR")}
    for word, twin in words.items():
        # the twin is earlier (shorter, or as long and first in U < D < L < R order) and reaches the same position
        assert (len(twin), [order[d] for d in twin]) < (len(word), [order[d] for d in word])
        assert _open_position(word) == _open_position(twin)
        # the twin holds no forbidden sequence (it was kept)
        assert not any(twin[i:j] in words for i in range(len(twin)) for j in range(i + 2, len(twin) + 1))


def _open_position(word: str) -> tuple:
    """Where each moved tile ends when the blank walks *word* from (0, 0) on an open board."""
    cells: dict = {}
    blank = (0, 0)
    for d in word:
        dr, dc = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}[d]
        nxt = (blank[0] + dr, blank[1] + dc)
        cells[blank] = cells.get(nxt, nxt)
        cells.pop(nxt, None)
        blank = nxt
    return blank, tuple(sorted((k, v) for k, v in cells.items() if k != v))


@pytest.mark.parametrize("name", ["3x3", "2x4", "2x10", "5x6"])
def test_open_board_placement_equals_the_exact_enumeration(name, monkeypatch):
    """Where the exact enumeration can be run, the open board's sequences placed on the board
    are exactly its forbidden sequences (on every shape compared, 4x4 at depth 10 included)."""
    shape = Shape.parse(name)
    exact = moves.MoveTables(shape, 8)
    monkeypatch.setattr(moves, "EXACT_MAX_SQUARES", 0)
    assert moves.MoveTables(shape, 8).forbidden_sequences == exact.forbidden_sequences


def test_big_boards_have_no_mirror_closed_tables():
    own_mirror = Board.goal(Shape(6, 6))
    assert moves.tables_for(own_mirror.shape, own_mirror.tiles) is moves.move_tables(own_mirror.shape)
    with pytest.raises(ValueError, match="no mirror-closed tables for boards of more than 25 squares"):
        moves.MoveTables(Shape(6, 6), mirror_closed=True)
    assert moves._big_move_tables.cache_info().maxsize == 2


# ------------------------------------------------------------------ bounds
def test_bound_values_of_fixed_10x10_positions():
    readme = Board.parse(
        "1 2 3 5 15 6 7 8 9 10 21 11 4 14 16 26 17 18 19 20 12 22 23 13 25 27 28 29 40 39 31 33 34 24 35 36 37 38 30 0"
        " 41 32 43 44 45 46 47 48 49 50 51 42 53 54 55 56 57 58 59 60 62 52 63 64 65 66 67 78 68 70 61 72 73 74 75 86 76 77 69 79"
        " 71 82 93 83 85 96 87 88 89 80 81 91 92 84 94 95 97 98 99 90"
    )
    assert bound_values(readme) == {"md": 48, "lc": 48, "id_v": 24, "id_h": 24, "id": 48, "lclm": 48, "lb": 48}
    reversed_board = Board(TEN, tuple(range(99, 2, -1)) + (1, 2, 0))  # the tiles in reverse order (but 1 and 2)
    assert bound_values(reversed_board) == {"md": 890, "lc": 924, "id_v": 540, "id_h": 448, "id": 988, "lclm": 926, "lb": 988}
    assert available_bounds(TEN) == ["auto", "id", "lclm", "lc", "md"] and resolve_bound(TEN, "auto").name == "lclm"


@pytest.mark.parametrize("name", ["7x7", "10x10", "3x8"])
def test_lc_of_the_loop_equals_lc_of_the_position(name):
    """The loop's line values (LineExtras for lines longer than 6) give the same value as the bound."""
    shape = Shape.parse(name)
    rng = random.Random(9)
    for _ in range(5):
        tiles = list(range(shape.size))
        rng.shuffle(tiles)
        searcher = linear_conflict_searcher(shape, tiles, lambda nodes: 1 << 60)
        assert searcher.h0 == manhattan(shape, tiles) + linear_conflict(shape, tiles)


def test_line_extras_computed_as_met():
    assert isinstance(line_extras(7), LineExtras) and isinstance(line_extras(6), bytes)
    rng = random.Random(2)
    table = line_table(6)
    lazy = LineExtras(6)
    lazy.limit = 100
    for code in rng.sample(range(len(table)), 2000):
        digits = [code // 7**i % 7 for i in range(6)]
        if len({d for d in digits if d}) == sum(1 for d in digits if d):  # a line's code: each goal position once
            assert lazy[code] == table[code]
        assert len(lazy) <= 100  # bounded: starts afresh when full
    ten = LineExtras(10)
    assert ten[sum((9 - i + 1) * 11**i for i in range(10))] == 18  # 10 tiles in reverse order: 9 step out


def test_inversion_distance_beyond_a_byte():
    table = distance_table(9, 99 * 98 // 2)
    assert isinstance(table, tuple) and table[-1] == 539 and distance_table(3, 105) == bytes(distance_table(3, 105))


# ------------------------------------------------------------------ optimal search near the goal
def test_10x10_near_the_goal_solved_optimally_and_replayed():
    board = scramble(TEN, 40, 22)
    by_bound = {bound: solve(board, bound) for bound in ("md", "lc", "id")}
    assert {sol.length for sol in by_bound.values()} == {40}
    for sol in by_bound.values():
        assert board.solves(sol.tiles) and board.solves(sol.directions)
    lc = by_bound["lc"].result
    assert (lc.nodes, [(it.bound, it.nodes) for it in lc.iterations]) == (
        10578,
        [(30, 15), (32, 52), (34, 231), (36, 912), (38, 3690), (40, 5678)],
    )
    assert by_bound["md"].result.nodes == 17240
    # every bound stays at or below the moves left along the optimal path
    steps = [board]
    for t in by_bound["lc"].tiles:
        steps.append(steps[-1].slide(t))
    for left, step in zip(range(40, -1, -1), steps, strict=True):
        assert bound_values(step)["lb"] <= left


def test_10x10_towards_a_goal_with_the_blank_inside():
    goal = list(range(1, 100))
    goal.insert(44, 0)
    board = scramble(TEN, 30, 5, goal)
    md, lc = solve(board, "md"), solve(board, "lc")
    assert md.length == lc.length == 30 and lc.bound == "lc" and lc.goal_frame.startswith("the goal as given")
    assert board.apply(lc.tiles).tiles == tuple(goal) and board.solves(md.directions)


def test_parallel_search_of_a_big_board_equals_the_serial_one():
    from fifteen.parallel.scheduler import ParallelSearch, run_inline

    board = scramble(Shape(7, 7), 30, 8)
    serial = solve(board, "lc")
    search = ParallelSearch(board.shape, board.tiles, "lc", resolve_bound(board.shape, "lc").factory, 3, min_task_nodes=1)
    inline = run_inline(search)
    assert inline.length == serial.length and board.solves(inline.tiles)
    assert [it.nodes for it in inline.iterations[:-1]] == [it.nodes for it in serial.result.iterations[:-1]]


def test_lab_and_api_on_big_boards():
    board = scramble(TEN, 24, 6)
    out = call("random", shape="10x10", seed=1)
    assert sorted(out["tiles"]) == list(range(100)) and Board.from_tiles(out["tiles"]).shape == TEN
    explained = call("explain", tiles=list(board.tiles))
    assert explained["lc"]["value"] == bound_values(board)["lc"] and "wd" not in explained and explained["pdb"] == {}
    compared = call("compare", tiles=list(board.tiles), bounds="md,lc", budget=100_000)["bounds"]
    assert compared["md"]["length"] == compared["lc"]["length"] == solve(board, "lc").length
    traced = call("trace", tiles=list(board.tiles), moves=solve(board).tiles)
    assert traced["names"] == ["md", "lc", "lclm", "id"] and traced["remaining"][0] == traced["length"]
    refused = json.loads(api.call("explore_position", json.dumps({"tiles": list(board.tiles)})))
    assert refused["error"]["message"].startswith("the explorer has no table for a 10x10 board")
    hint = call("hint", tiles=list(board.tiles))
    assert hint["source"] == "solve" and hint["distance"] == traced["length"]
    with pytest.raises(AssertionError):  # an unsolvable 10x10 position is refused
        call("solve", tiles=[2, 1] + list(range(3, 100)) + [0])
