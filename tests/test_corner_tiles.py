"""The corner tiles (fifteen.bounds.corner_tiles) on top of MD + LC + the last moves: admissible
against exact distances (every position of the small boards, the balls around the goal of bigger
ones), the rule's cases one by one, the search loop's mask and its nodes pinned on a 6x6."""

from __future__ import annotations

from itertools import permutations

import pytest

from fifteen import Board, Shape
from fifteen.bounds import bound_values
from fifteen.bounds.corner_tiles import MAX_SIDE, corner_line_table, corner_lines, corner_pairs, corner_tiles, line_corner_extra
from fifteen.bounds.last_moves import last_moves
from fifteen.bounds.manhattan import line_codes, line_table, linear_conflict, manhattan
from fifteen.bounds.manhattan_loop import (
    CORNER_TILES_LOOP,
    LAST_MOVES_LOOP,
    last_moves_loop,
    last_moves_searcher,
    linear_conflict_searcher,
)
from fifteen.search.ida import ida_star
from support.bfs import distances
from support.positions import scramble

#: (rows, cols, BFS depth or None for every position): (positions, those where the corner tiles
#: add, those where MD + LC + the last moves + them is exact, those where it is without them)
EXACT = {
    (2, 3, None): (360, 90, 73, 73),
    (2, 4, None): (20_160, 5_196, 425, 397),
    (4, 2, None): (20_160, 5_196, 425, 397),
    (3, 4, 18): (168_967, 20_384, 45_016, 38_390),
    (4, 4, 14): (61_865, 3_954, 38_447, 36_123),
    (6, 6, 11): (28_158, 60, 24_726, 24_678),
}

#: DeepCubeA's 6x6 test position D6-7 (bench/data/deepcubea-test.tsv): a corner's neighbour home
D6_7 = "10 2 15 14 3 6 1 7 8 22 23 11 24 13 4 21 5 26 31 9 18 35 12 29 25 33 16 0 30 20 27 28 32 19 34 17"


def _counted(shape: Shape, depth: int | None = None, goal: tuple[int, ...] | None = None) -> tuple[int, int, int, int]:
    """Every position within *depth* moves of *goal* checked (the corner tiles even, MD + LC + the
    last moves + them at most the distance), and EXACT's counts of them."""
    exact = distances(shape, goal, max_depth=depth)
    adds = tight = tight_before = 0
    for position, distance in exact.items():
        before = manhattan(shape, position, goal) + linear_conflict(shape, position, goal) + last_moves(shape, position, goal)
        corners = corner_tiles(shape, position, goal)
        assert corners % 2 == 0 and before + corners <= distance, position
        adds += corners > 0
        tight += before + corners == distance
        tight_before += before == distance
    return len(exact), adds, tight, tight_before


@pytest.mark.parametrize("rows, cols, depth", sorted(EXACT, key=str))
def test_the_corner_tiles_never_exceed_the_distance(rows, cols, depth):
    assert _counted(Shape(rows, cols), depth) == EXACT[rows, cols, depth]


def test_towards_another_goal_with_the_blank_last():
    """Towards a goal of other tiles (the 2x4's standard one read backwards, the blank still last)
    the pairs and the lines are that goal's: admissible, with the standard goal's counts (the
    labels are only renamed)."""
    assert _counted(Shape(2, 4), goal=(7, 6, 5, 4, 3, 2, 1, 0)) == EXACT[2, 4, None]


def test_the_pairs_of_a_board():
    """Each corner but the blank's with its two neighbours; none on 3x3 (every neighbour there is
    next to two corners or is the goal of A or B) and on 2x2; on a side of 2 none along the line
    whose conflicts the last moves read (B's goal row, A's goal column)."""
    pairs = [(p.corner, p.square, p.other) for p in corner_pairs(Shape(4, 4))]
    assert pairs == [(0, 1, 4), (0, 4, 1), (3, 2, 7), (3, 7, 2), (12, 13, 8), (12, 8, 13)]
    assert corner_pairs(Shape(3, 3)) == () and corner_pairs(Shape(2, 2)) == ()
    assert [(p.corner, p.square) for p in corner_pairs(Shape(2, 3))] == [(0, 3), (3, 0)]
    assert [(p.corner, p.square, p.line, p.places) for p in corner_pairs(Shape(2, 4))] == [
        (0, 4, 2, (0, 1)),
        (4, 5, 1, (0, 1)),
        (4, 0, 2, (1, 0)),
    ]
    top_left = corner_pairs(Shape(4, 4))[0]
    assert (top_left.tile, top_left.corner_tile) == (2, 1)
    assert (top_left.line, top_left.places) == (0, (0, 1))  # the top row, C and X its places 0 and 1: squares 2 and 3 beyond
    # tiles 3 and 4 (their goals beyond X) on the corner, or 1 beyond X: no 2 for tile 2 (the top row's code)
    assert [line_corner_extra(4, ((0, 1),), z * 1 + 2 * 5) for z in (0, 3, 4)] == [2, 0, 0]
    assert [line_corner_extra(4, ((0, 1),), 2 * 5 + 1 * 5**q) for q in (2, 3)] == [0, 0]
    goal = tuple(range(15, 0, -1)) + (0,)  # another goal, its blank on the last square
    assert [p.tile for p in corner_pairs(Shape(4, 4), goal)] == [14, 11, 13, 8, 2, 7]
    assert corner_pairs(Shape(4, 4), (0,) + tuple(range(1, 16))) == ()  # the blank elsewhere: none
    # past MAX_SIDE none: 7x7 and bigger keep the last moves' loop (bench/anytime.md, The corner tiles)
    assert MAX_SIDE == 6 and corner_pairs(Shape(7, 7)) == () and corner_pairs(Shape(6, 7)) == ()
    assert last_moves_loop(Shape(7, 7)) is LAST_MOVES_LOOP and last_moves_loop(Shape(6, 6)) is CORNER_TILES_LOOP


FOUR = Shape(4, 4)


def _swap(tiles: list[int], a: int, b: int) -> tuple[int, ...]:
    tiles = list(tiles)
    tiles[a], tiles[b] = tiles[b], tiles[a]
    return tuple(tiles)


def test_the_rule_case_by_case():
    goal = list(FOUR.goal())
    assert corner_tiles(FOUR, goal) == 0
    # 1 (top left) on square 10, 11 on the corner, 2 and 5 home: both must step aside
    away = _swap(goal, 0, 10)
    assert corner_tiles(FOUR, away) == 4
    # towards the standard goal named (any sequence), the same; towards another goal, none
    assert corner_tiles(FOUR, away, goal) == 4
    assert corner_tiles(FOUR, away, Board.goal(FOUR, "blank-first").tiles) == 0
    assert corner_tiles(FOUR, _swap(away, 4, 9)) == 2  # 5 away too: 2 alone
    # the blank on the corner and 1 on square 4 (next to it): 1 slides in, 2 need not move
    assert corner_tiles(FOUR, (0, 2, 3, 4, 1, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 5)) == 0
    # the same with 1 on square 1: 5 need not move (2 is not home)
    assert corner_tiles(FOUR, (0, 1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 2)) == 0
    # 3 on the corner and 1 on 3's square: 2 is in a conflict along the top row (LC counts it);
    # 5, down the first column, must still step aside
    assert corner_tiles(FOUR, _swap(goal, 0, 2)) == 2
    # 4 on the corner and 1 on 4's: the same for 2, and at the top right 3 (in a conflict with 1
    # on the corner 4 belongs to) but not 8
    assert corner_tiles(FOUR, _swap(goal, 0, 3)) == 4
    # the blank's own corner is the last moves' (A = 15 and B = 12 are never a pair's tiles)
    assert corner_tiles(FOUR, _swap(goal, 14, 10)) == 0


def test_the_lines_tables_count_them_but_the_blanks_exception():
    """The search loop's tables (MD + each line's table at its offset code) give MD + LC + the corner
    tiles on every 2x4 position, but where the blank is on a pair's corner, x on X and c on Y: 2
    more there per such pair (the loop takes them off); on a square board the rows and the columns
    read one table."""
    shape = Shape(2, 4)
    rows_table, cols_table, offsets = corner_lines(shape)
    assert offsets == (0, 625, 9, 0, 0, 0)  # the bottom row and the first column have pairs
    pairs = corner_pairs(shape)
    excepted = 0
    for position in distances(shape):
        codes = [code + offset for code, offset in zip(line_codes(shape, position), offsets, strict=True)]
        tables = manhattan(shape, position) + sum(rows_table[c] for c in codes[:2]) + sum(cols_table[c] for c in codes[2:])
        blank = position.index(0)
        exception = sum(2 for p in pairs if blank == p.corner and position[p.square] == p.tile and position[p.other] == p.corner_tile)
        assert tables - exception == manhattan(shape, position) + linear_conflict(shape, position) + corner_tiles(shape, position)
        excepted += exception > 0
    assert excepted == 180
    rows_table, cols_table, offsets = corner_lines(Shape(6, 6))
    assert rows_table is cols_table and len(rows_table) == 3 * 7**6
    assert offsets == (7**6, 0, 0, 0, 0, 2 * 7**6, 7**6, 0, 0, 0, 0, 2 * 7**6)
    assert line_corner_extra(6, ((0, 1), (5, 4)), 2 * 7) == 2  # x (digit 2) home on place 1, nothing else
    assert line_corner_extra(6, ((0, 1), (5, 4)), 2 * 7 + 1 * 7**3) == 0  # c (digit 1) beyond it
    # the other end's pair still counts: its x (digit 5) home, its corner empty
    assert line_corner_extra(6, ((0, 1), (5, 4)), 2 * 7 + 1 * 7**3 + 5 * 7**4) == 2


@pytest.mark.parametrize("places, changed", [(((0, 1), (5, 4)), 411), (((0, 1),), 209)])
def test_a_corner_line_table_adds_on_real_lines_only(places, changed):
    """A 6x6 border line's segment differs from the plain line table exactly on the codes of real
    lines (each of the line's tiles at most once: 13,327 of 7**6) where the rule adds; the codes
    that repeat a tile, which no position has, keep the plain value."""
    plain, table = line_table(6), corner_line_table(6, places)
    real = {
        sum(d * 7**s for d, s in zip(digits, spots, strict=True))
        for k in range(7)
        for spots in permutations(range(6), k)
        for digits in permutations(range(1, 7), k)
    }
    assert len(real) == 13_327
    differ = {code for code in range(7**6) if table[code] != plain[code]}
    assert differ == {code for code in real if line_corner_extra(6, places, code) > 0}
    assert len(differ) == changed


def test_bound_values_and_the_loop_on_a_6x6():
    """D6-7: 2 more at the root from the corner tiles (and 2 from the last moves), each iteration's
    nodes pinned: two iterations ahead of LC's, in fewer nodes."""
    six = Shape(6, 6)
    tiles = [int(t) for t in D6_7.split()]
    values = bound_values(Board(six, tuple(tiles)))
    assert (values["lc"], last_moves(six, tiles), corner_tiles(six, tiles), values["lclm"], values["lb"]) == (89, 2, 2, 93, 93)

    def first_iterations(factory):
        seen = []
        with pytest.raises(RuntimeError, match="no solution within 95 moves"):
            ida_star(six, tiles, factory, max_bound=95, progress=lambda p: seen.append([(i.bound, i.nodes) for i in p.iterations]))
        return seen[-1]

    assert first_iterations(last_moves_searcher) == [(93, 146), (95, 2_590)]
    assert first_iterations(linear_conflict_searcher) == [(89, 50), (91, 1_056), (93, 14_375), (95, 156_455)]


def test_the_search_finds_the_shortest_solutions_on_3x4():
    """Optimal lengths with the corner tiles, equal to MD + LC's, in fewer nodes, on positions the
    rule applies to at the root (random walks from the goal; 3x4 is too big for the whole BFS)."""
    shape = Shape(3, 4)
    checked = 0
    for seed in range(200):
        board = scramble(shape, 60, seed)
        tiles = list(board.tiles)
        if not corner_tiles(shape, tiles):
            continue
        ours = ida_star(shape, tiles, last_moves_searcher)
        theirs = ida_star(shape, tiles, linear_conflict_searcher)
        assert ours.length == theirs.length and board.solves(ours.tiles)
        assert ours.nodes < theirs.nodes
        checked += 1
        if checked == 8:
            break
    assert checked == 8
