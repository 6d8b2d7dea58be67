"""Fixed positions shared by the tests of the search (pinned node counts, the searcher contract),
seeded scrambles and Korf and Taylor's 24-puzzles (seeded uniformly random positions:
``fifteen.Board.random``)."""

from __future__ import annotations

import random
from pathlib import Path

from fifteen.board import Board, Goal, Shape

#: Korf and Taylor's ten 24-puzzle instances with their published optima (converted to the standard goal).
KORF_TAYLOR_TSV = Path(__file__).resolve().parents[2] / "bench" / "data" / "korf-taylor-24.tsv"

KORF = {
    "1": (13, 6, 8, 12, 15, 14, 0, 10, 11, 7, 4, 5, 9, 1, 3, 2),
    "9": (0, 1, 15, 6, 9, 10, 4, 3, 14, 8, 12, 11, 5, 7, 2, 13),
}
#: Korf and Taylor's first 24-puzzle instance (optimum 100), converted to the standard goal
#: (bench/data/korf-taylor-24.tsv): past optimal reach.
KT1 = "14 21 19 17 15 18 13 12 7 2 1 22 0 4 10 20 11 6 3 23 9 16 5 24 8"
#: 31 moves, the most on 3x3: the anytime search proves it optimal in a moment.
HARD_3X3 = "8 6 7 2 5 4 3 0 1"
#: 4x4 positions equal to their mirror image (from tests/test_moves.py): the mirror-closed tables.
OWN_MIRROR_4X4 = [
    (1, 3, 13, 7, 9, 11, 8, 12, 4, 14, 6, 2, 10, 15, 5, 0),
    (1, 3, 2, 4, 9, 0, 12, 8, 5, 15, 11, 10, 13, 14, 7, 6),
    (0, 9, 15, 4, 3, 6, 14, 5, 12, 8, 1, 7, 13, 2, 10, 11),
]

# Fixed small-board positions (random walks, then kept; the last 3x3 one is 31 moves away).
SET_3X3 = [
    (3, 7, 6, 2, 0, 5, 1, 4, 8),
    (4, 1, 3, 8, 6, 7, 2, 0, 5),
    (7, 4, 0, 1, 5, 2, 8, 6, 3),
    (2, 3, 0, 7, 4, 1, 6, 5, 8),
    (3, 7, 0, 2, 5, 4, 1, 8, 6),
    (1, 4, 8, 5, 3, 0, 7, 2, 6),
    (2, 0, 7, 5, 6, 8, 1, 4, 3),
    (8, 6, 7, 2, 5, 4, 3, 0, 1),
]
SET_2X4 = [
    (1, 3, 6, 7, 5, 0, 4, 2),
    (2, 5, 3, 6, 1, 7, 4, 0),
    (4, 5, 2, 7, 1, 3, 6, 0),
    (6, 3, 0, 4, 5, 1, 2, 7),
    (4, 1, 7, 3, 0, 2, 5, 6),
    (4, 3, 7, 1, 2, 6, 5, 0),
]
# 3x3 positions equal to their mirror image.
OWN_MIRROR_3X3 = [
    (0, 2, 3, 4, 1, 6, 7, 8, 5),
    (0, 4, 6, 2, 1, 7, 8, 3, 5),
    (1, 7, 6, 3, 0, 2, 8, 4, 5),
    (0, 3, 8, 7, 5, 2, 6, 4, 1),
    (1, 3, 2, 7, 0, 8, 4, 6, 5),
    (5, 4, 6, 2, 1, 3, 8, 7, 0),
    (5, 6, 4, 8, 1, 3, 2, 7, 0),
]


def scramble(shape: Shape, count: int, seed: int, target: Goal | None = None) -> Board:
    """The goal after *count* random moves (never undoing the last one)."""
    board = Board.goal(shape, target)
    rng = random.Random(seed)
    last = None
    for _ in range(count):
        last = rng.choice([t for t in board.movable_tiles() if t != last])
        board = board.slide(last)
    return board


def korf_taylor() -> list[tuple[int, list[int], int]]:
    """Korf and Taylor's ten 24-puzzle instances: (id, tiles, published optimum)."""
    out = []
    for line in KORF_TAYLOR_TSV.read_text().splitlines():
        if line and not line.startswith("#"):
            ident, tiles, optimal = line.split("\t")[:3]
            out.append((int(ident), [int(t) for t in tiles.split()], int(optimal)))
    return out
