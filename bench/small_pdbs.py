"""Small additive pattern databases past 5x5: what they add to the bound and to the beams' rank.

    PYTHONPATH=py python3 bench/small_pdbs.py [--boards 6,7] [--folds 10]

Issue 38 proposed additive pattern databases small enough to build in seconds (groups of 3-4
tiles) to guide the improvers on 6x6 and 7x7.  For each board this builds such tables for three
partitions of the tiles (blocks of 2x2, thirds of rows of 1x3, thirds of columns of 3x1; a block
cut by the board's edge or by the blank's goal square keeps the tiles it has) and, on DeepCubeA's
test positions of that board (``bench/data/deepcubea-test.tsv``), prints:

* the mean of each partition's sum, beside the Manhattan distance (MD) and MD + the linear
  conflicts (LC): whether the tables bound higher than MD + LC;
* the root-mean-square error of a cross-validated fit of DeepCubeA's lengths (*folds*-fold, every
  position; ridge 10 with a free constant, as :data:`fit_rank.LAMBDA`) on the rank's features
  (:mod:`fifteen.anytime.rank`: a count of tiles per distance shape, LC and a constant), then the
  same with each partition's excess over MD as one more feature: whether the tables tell the
  rank something it does not know.

A table counts the moves of its group's tiles only and ignores the blank (a tile may move to any
neighbouring square that no tile of its group holds): admissible, and additive over disjoint
groups.  Built by breadth-first search over the placements (``side**k`` entries, numpy).  numpy
is a bench dependency only.  The figures are in ``bench/anytime.md``, *What does not close the gap*.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import numpy.typing as npt

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))

import fit_rank  # noqa: E402  (the bench directory is on the path above)
from fifteen.anytime.rank import distance_shape  # noqa: E402

#: The partitions measured: (name, block height, block width).
PARTITIONS = (("2x2 blocks", 2, 2), ("1x3 row thirds", 1, 3), ("3x1 column thirds", 3, 1))
#: The ridge penalty of the fits (the constant free), as fit_rank's.
RIDGE = fit_rank.LAMBDA


def groups(side: int, height: int, width: int) -> list[list[int]]:
    """The tiles (labels 1 .. side*side - 1) of each block of *height* x *width* squares."""
    n = side * side
    out = []
    for top in range(0, side, height):
        for left in range(0, side, width):
            tiles = [r * side + c + 1 for r in range(top, min(top + height, side)) for c in range(left, min(left + width, side))]
            tiles = [t for t in tiles if t < n]
            if tiles:
                out.append(tiles)
    return out


def build(side: int, tiles: list[int]) -> npt.NDArray[np.uint8]:
    """The table of one group: entry ``sum(square_i * n**i)`` holds the fewest moves of the group's
    tiles (blank ignored) from those squares to their goal squares (255: not a placement)."""
    n = side * side
    k = len(tiles)
    power = [n**i for i in range(k)]
    steps = np.full((4, n), -1, np.int64)
    for s in range(n):
        r, c = divmod(s, side)
        for way, (dr, dc) in enumerate(((-1, 0), (1, 0), (0, -1), (0, 1))):
            if 0 <= r + dr < side and 0 <= c + dc < side:
                steps[way, s] = s + dr * side + dc
    depth = np.full(n**k, 255, np.uint8)
    goal = sum((t - 1) * power[i] for i, t in enumerate(tiles))
    depth[goal] = 0
    front = np.array([goal], np.int64)
    d = 0
    while front.size:
        squares = [(front // power[i]) % n for i in range(k)]
        found = []
        for i in range(k):
            for way in range(4):
                to = steps[way, squares[i]]
                free = to >= 0
                for j in range(k):
                    if j != i:
                        free &= to != squares[j]
                nxt = front[free] + (to[free] - squares[i][free]) * power[i]
                found.append(nxt[depth[nxt] == 255])
        d += 1
        front = np.unique(np.concatenate(found))
        depth[front] = d
    return depth


def table_sum(side: int, tables: list[tuple[list[int], npt.NDArray[np.uint8]]], tiles: list[int]) -> int:
    """A position's value: the sum of its groups' entries."""
    n = side * side
    where = [0] * n
    for sq, t in enumerate(tiles):
        where[t] = sq
    return sum(int(table[sum(where[t] * n**i for i, t in enumerate(group))]) for group, table in tables)


def cross_validated(X: npt.NDArray[np.float64], y: npt.NDArray[np.float64], folds: int) -> float:
    """Root-mean-square error of the ridge fit of *y* on *X* (last column the constant) over *folds* folds."""
    order = np.random.default_rng(0).permutation(len(y))
    errors = []
    for f in range(folds):
        test = order[f::folds]
        train = np.setdiff1d(order, test)
        ridge = RIDGE * np.eye(X.shape[1])
        ridge[-1, -1] = 0.0
        coef = np.linalg.solve(X[train].T @ X[train] + ridge, X[train].T @ y[train])
        errors.append((X[test] @ coef - y[test]) ** 2)
    return float(np.sqrt(np.concatenate(errors).mean()))


def measure(side: int, rows: list[list[str]], folds: int) -> None:
    boards, lengths = fit_rank.positions(rows, side, 0)
    y = np.array(lengths)
    keys = sorted({distance_shape(side, label, sq) for label in range(side * side) for sq in range(side * side)})
    index = {k: i for i, k in enumerate(keys)}
    shapes = np.zeros((len(boards), len(keys)))
    for j, tiles in enumerate(boards):
        for sq, t in enumerate(tiles):
            if t:
                shapes[j, index[distance_shape(side, t - 1, sq)]] += 1
    classes = np.array([fit_rank.features(side, tiles) for tiles in boards])
    md = classes[:, :3].sum(1)
    lc = classes[:, 3]
    ones = np.ones((len(y), 1))
    print(f"{side}x{side}: {len(y)} positions, DeepCubeA's mean length {y.mean():.2f}; MD {md.mean():.2f}, MD + LC {(md + lc).mean():.2f}")
    base = np.hstack([shapes, lc[:, None], ones])
    print(f"  fit on the rank's features (shapes, LC): {cross_validated(base, y, folds):.3f} moves")
    for name, height, width in PARTITIONS:
        start = time.process_time()
        tables = [(g, build(side, g)) for g in groups(side, height, width)]
        built = time.process_time() - start
        pdb = np.array([table_sum(side, tables, tiles) for tiles in boards], float)
        with_pdb = np.hstack([shapes, lc[:, None], (pdb - md)[:, None], ones])
        print(
            f"  {name}: {len(tables)} tables in {built:.1f} s CPU; mean sum {pdb.mean():.2f} "
            f"(above MD + LC on {(pdb > md + lc).sum()} of {len(y)}); "
            f"fit with its excess over MD: {cross_validated(with_pdb, y, folds):.3f} moves"
        )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--boards", default="6,7")
    p.add_argument("--folds", type=int, default=10)
    args = p.parse_args()
    text = (ROOT / "data" / "deepcubea-test.tsv").read_text().splitlines()
    rows = [line.split("\t") for line in text if line and not line.startswith("#")]
    for side in (int(s) for s in args.boards.split(",")):
        measure(side, rows, args.folds)


if __name__ == "__main__":
    main()
