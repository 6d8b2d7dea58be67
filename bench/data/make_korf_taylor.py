"""Write ``bench/data/korf-taylor-24.tsv``: Korf and Taylor's ten 24-puzzle instances converted
from their goal (the blank first, ``0 1 2 ... 24``) to the standard goal ``1 2 ... 24 0``.

``PYTHONPATH=py python3 bench/data/make_korf_taylor.py [--check]`` (``--check``: compare with
the file instead of writing it).  The conversion is the package's solving frame of the
blank-first goal (:mod:`fifteen.frame`: a rotation by 180 degrees, square p -> 24 - p, and tile t
renumbered 25 - t), which preserves every distance; checked here: each converted position's
Manhattan distance to the standard goal equals the source's to the blank-first goal, and the
frame maps the blank-first goal onto the standard one.  Sources: ``bench/data/README.md``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from fifteen.board import Board, Goal, Shape
from fifteen.bounds.manhattan import manhattan
from fifteen.frame import frame_for

#: (the position for the blank-first goal, as published, and its published optimal length)
SOURCE = [
    ("17 1 20 9 16 2 22 19 14 5 15 21 0 3 24 23 18 13 12 7 10 8 6 4 11", 100),
    ("14 5 9 2 18 8 23 19 12 17 15 0 10 20 4 6 11 21 1 7 24 3 16 22 13", 95),
    ("7 13 11 22 12 20 1 18 21 5 0 8 14 24 19 9 4 17 16 10 23 15 3 2 6", 108),
    ("18 14 0 9 8 3 7 19 2 15 5 12 1 13 24 23 4 21 10 20 16 22 11 6 17", 98),
    ("2 0 10 19 1 4 16 3 15 20 22 9 6 18 5 13 12 21 8 17 23 11 24 7 14", 101),
    ("16 5 1 12 6 24 17 9 2 22 4 10 13 18 19 20 0 23 7 21 15 11 8 3 14", 96),
    ("21 22 15 9 24 12 16 23 2 8 5 18 17 7 10 14 13 4 0 6 20 11 3 1 19", 104),
    ("6 0 24 14 8 5 21 19 9 17 16 20 10 13 2 15 11 22 1 3 7 23 4 18 12", 97),
    ("3 2 17 0 14 18 22 19 15 20 9 7 10 21 16 6 24 23 8 5 1 4 11 12 13", 113),
    ("23 14 0 24 17 9 20 21 2 18 10 13 22 1 3 11 4 16 6 5 7 12 8 15 19", 114),
]
OUT = Path(__file__).with_name("korf-taylor-24.tsv")
HEADER = """\
# Korf & Taylor's ten random 24-puzzle instances ('Finding optimal solutions to the twenty-four puzzle', AAAI-96) with
# their optimal lengths (instance 10's 114 from Korf & Felner, 'Disjoint pattern database heuristics', AIJ 2002).
# Converted from the blank-first goal (0 1 ... 24, the source column) to 1 2 ... 24 0 by bench/data/make_korf_taylor.py.
# id\ttiles (row-major, 0 = blank)\toptimal\tsource tiles (blank-first goal)
"""


def table() -> str:
    shape = Shape(5, 5)
    blank_first = Goal.blank_first(shape)
    frame = frame_for(blank_first)
    assert frame.position(blank_first.tiles) == shape.goal()
    lines = [HEADER]
    for i, (text, optimum) in enumerate(SOURCE, 1):
        source = Board.parse(text, shape, blank_first)
        tiles = frame.position(source.tiles)
        assert manhattan(shape, tiles) == manhattan(shape, source.tiles, blank_first.tiles)
        Board(shape, tiles)  # solvable for the standard goal
        lines.append(f"{i}\t{' '.join(map(str, tiles))}\t{optimum}\t{text}\n")
    return "".join(lines)


def main() -> int:
    text = table()
    if "--check" in sys.argv[1:]:
        same = OUT.read_text() == text
        print(f"{OUT.name}: {'as made' if same else 'DIFFERS from what this script makes'}")
        return 0 if same else 1
    OUT.write_text(text)
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
