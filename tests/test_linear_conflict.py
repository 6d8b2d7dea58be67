"""Linear conflict against an independent, obviously correct count (no line codes, no table,
no longest-increasing-subsequence search, no transposition), on many positions of many shapes,
and exact values pinned on fixed positions."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from fifteen import Shape
from fifteen.board import parse_tiles
from fifteen.bounds.manhattan import line_extra, line_table, linear_conflict, manhattan
from instances import korf100


def keeps_order(goals: tuple[int, ...]) -> bool:
    return all(a < b for a, b in zip(goals, goals[1:], strict=False))


def line_conflict_naive(goals: list[int]) -> int:
    """2 x (tiles in the line - the most of them that can stay, i.e. already in goal order),
    by trying every subset from the largest down."""
    for keep in range(len(goals), 0, -1):
        if any(keeps_order(sub) for sub in combinations(goals, keep)):
            return 2 * (len(goals) - keep)
    return 0


def linear_conflict_naive(shape: Shape, tiles) -> int:
    rows, cols = shape.rows, shape.cols
    grid = [list(tiles[r * cols : (r + 1) * cols]) for r in range(rows)]
    extra = 0
    for r in range(rows):  # tiles in their goal row, left to right: their goal columns
        extra += line_conflict_naive([(t - 1) % cols for t in grid[r] if t and (t - 1) // cols == r])
    for c in range(cols):  # tiles in their goal column, top to bottom: their goal rows
        extra += line_conflict_naive([(t - 1) // cols for t in (grid[r][c] for r in range(rows)) if t and (t - 1) % cols == c])
    return extra


def random_tiles(shape: Shape, rng: random.Random) -> list[int]:
    """A uniformly random permutation (solvable or not: LC is defined on both)."""
    tiles = list(range(shape.size))
    rng.shuffle(tiles)
    return tiles


SHAPES = ["3x3", "4x4", "3x4", "4x3", "2x5", "5x2", "5x5", "2x3"]


@pytest.mark.parametrize("name", SHAPES)
def test_linear_conflict_equals_the_naive_count(name):
    shape = Shape.parse(name)
    rng = random.Random(name)
    positive = 0
    for _ in range(600):
        tiles = random_tiles(shape, rng)
        expected = linear_conflict_naive(shape, tiles)
        assert linear_conflict(shape, tiles) == expected, (name, tiles)
        positive += expected > 0
    assert positive > 100  # conflicts are common: the comparison is not between zeros


def test_every_line_of_four():
    """Every arrangement of tiles of one 4-cell line (what 4x4 rows and columns hold), against
    the naive count: all 5^4 codes of the line table (duplicates are impossible and coded 0)."""
    table = line_table(4)
    checked = 0
    for code in range(5**4):
        digits = [(code // 5**i) % 5 for i in range(4)]
        goals = [d - 1 for d in digits if d]
        if len(set(goals)) < len(goals):
            assert table[code] == 0
            continue
        assert table[code] == line_conflict_naive(goals) == line_extra(goals), digits
        checked += 1
    assert checked == 209  # sum over k of C(4, k) * 4!/(4-k)! placements


# Exact values: (position, MD, LC extra).
PINNED = [
    ("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0", 0, 0),
    ("2 1 3 4 5 6 7 8 9 10 11 12 13 14 15 0", 2, 2),  # 1 and 2 swapped in their goal row
    ("4 3 2 1 5 6 7 8 9 10 11 12 13 14 15 0", 8, 6),  # a reversed row: 3 of the 4 step aside
    ("1 5 9 13 2 6 10 14 3 7 11 15 4 8 12 0", 40, 0),  # the transposed goal: no tile in its goal line but 1
    ("0 15 14 13 12 11 10 9 8 7 6 5 4 3 2 1", 58, 0),  # the goal turned: rows reversed, no tile in its goal row
    ("13 6 8 12 15 14 0 10 11 7 4 5 9 1 3 2", 41, 2),  # Korf #1 (README: MD=41 LC=43)
    ("1 3 2 4 5 6 7 8 0", 2, 2),  # 3x3: 2 and 3 swapped in the top row
    ("7 2 3 4 5 6 1 8 0", 4, 4),  # 3x3: the first column reads 7 4 1: 2 of its 3 tiles step aside
    ("3 2 1 6 5 4 0 8 7", 10, 10),  # 3x3: rows reversed (4 + 4), 8 and 7 too (2)
]


@pytest.mark.parametrize("text,md,lc", PINNED)
def test_pinned_values(text, md, lc):
    shape, tiles = parse_tiles(text, solvable=False)  # LC is defined on every arrangement
    assert manhattan(shape, tiles) == md
    assert linear_conflict(shape, tiles) == lc == linear_conflict_naive(shape, tiles)


def test_korf_100_against_the_naive_count():
    shape = Shape(4, 4)
    values = [linear_conflict(shape, inst.tiles) for inst in korf100()]
    assert values == [linear_conflict_naive(shape, inst.tiles) for inst in korf100()]
    assert (sum(values), max(values), sum(v > 0 for v in values)) == (204, 6, 71)
