"""Write ``bench/data/random-boards.tsv``: uniformly random solvable positions of 5x5, 6x6 and 7x7.

``PYTHONPATH=py python3 bench/data/make_random_boards.py [--check] [--count 50] [--seed 38]``
(``--check``: compare with the file instead of writing it).  One :class:`random.Random` seeded
with *seed* draws, for each board in turn, *count* permutations of the squares (a shuffle);
a draw that cannot reach the goal gets its first two tiles exchanged, which makes it solvable
and keeps the distribution uniform over the solvable positions (the exchange is a bijection
between the two halves of the permutations).  Goal: tiles ``1 .. N-1`` row-major, the blank
last.  Used by ``bench/bigboards.py``.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from fifteen.board import Board, Shape

OUT = Path(__file__).with_name("random-boards.tsv")
SIZES = (5, 6, 7)
HEADER = """\
# Uniformly random solvable positions of 5x5, 6x6 and 7x7 (bench/data/make_random_boards.py --seed {seed} --count {count}).
# id\tboard\ttiles (row-major, 0 = blank; goal 1 .. N-1 then the blank)
"""


def boards(seed: int, count: int) -> list[tuple[str, Board]]:
    rng = random.Random(seed)
    out = []
    for size in SIZES:
        shape = Shape(size, size)
        for k in range(1, count + 1):
            out.append((f"R{size}-{k}", Board.random(shape, rng)))
    return out


def table(seed: int, count: int) -> str:
    lines = [HEADER.format(seed=seed, count=count)]
    for ident, board in boards(seed, count):
        lines.append(f"{ident}\t{board.shape}\t{' '.join(map(str, board.tiles))}\n")
    return "".join(lines)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--check", action="store_true", help="compare with the file instead of writing it")
    p.add_argument("--count", type=int, default=50, help="positions per board (default 50)")
    p.add_argument("--seed", type=int, default=38, help="the generator's seed (default 38)")
    args = p.parse_args()
    text = table(args.seed, args.count)
    if args.check:
        same = OUT.read_text() == text
        print(f"{OUT.name}: {'matches' if same else 'DIFFERS'}")
        return 0 if same else 1
    OUT.write_text(text)
    print(f"wrote {OUT} ({len(SIZES) * args.count} positions)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
