"""Fit the beams' ranking estimate (fifteen.anytime.rank) on DeepCubeA's positions.

    PYTHONPATH=py python3 bench/fit_rank.py [--boards 5,6,7] [--skip 10]

For each board, least squares of the known lengths (the optimum on 5x5, DeepCubeA's length on
6x6 and 7x7: ``bench/data/deepcubea-test.tsv``) on the Manhattan distance of the tiles whose
target square is interior, on an edge or in a corner, the linear conflicts and a constant,
over the positions but the first *skip* of each board (the benchmark's: ``bench/bigboards.py``
runs the first ones).  Prints the coefficients, the root-mean-square error beside the same fit on
MD and LC alone, and the weights in sixteenths of the interior's (what
:data:`fifteen.anytime.rank.RANK_WEIGHTS` holds: the 6x6 fit's, rounded, between the three).
numpy is a bench dependency only.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from fifteen.anytime.rank import RANK_WEIGHTS
from fifteen.anytime.tables import label_tables, labelled
from fifteen.board import Shape

ROOT = Path(__file__).resolve().parents[1]


def features(side: int, tiles: list[int]) -> list[float]:
    """``[MD interior, MD edge, MD corner, LC, 1]`` of a position of the side x side board."""
    shape = Shape(side, side)
    T = label_tables(shape)
    goal = shape.goal()
    board = labelled(tiles, goal)
    blank = tiles.index(0)
    h, _ = T.value(board, blank)
    md = [0.0, 0.0, 0.0]
    for sq in range(T.n):
        if sq != blank:
            r, c = divmod(board[sq], side)
            md[(r in (0, side - 1)) + (c in (0, side - 1))] += T.md[board[sq] * T.n + sq]
    return [*md, h - sum(md), 1.0]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--boards", default="5,6,7")
    p.add_argument("--skip", type=int, default=10, help="leave out the first SKIP positions of each board (default 10)")
    args = p.parse_args()
    rows = [line.rstrip("\n").split("\t") for line in (ROOT / "bench" / "data" / "deepcubea-test.tsv").read_text().splitlines(True)]
    rows = [r for r in rows if r and not r[0].startswith("#")]
    for side in (int(s) for s in args.boards.split(",")):
        X, y = [], []
        for r in rows:
            if r[1] != f"{side}x{side}" or int(r[0].split("-")[1]) < args.skip:
                continue
            X.append(features(side, [int(t) for t in r[2].split()]))
            y.append(float(r[4] if side == 5 else r[3]))
        A, b = np.array(X), np.array(y)
        coef, *_ = np.linalg.lstsq(A, b, rcond=None)
        rmse = float(np.sqrt(((A @ coef - b) ** 2).mean()))
        plain = np.stack([A[:, :3].sum(1), A[:, 3], A[:, 4]], 1)
        pcoef, *_ = np.linalg.lstsq(plain, b, rcond=None)
        prmse = float(np.sqrt(((plain @ pcoef - b) ** 2).mean()))
        sixteenths = [round(16 * c / coef[0]) for c in coef[:4]]
        print(
            f"{side}x{side}: {len(b)} positions; interior {coef[0]:.3f}, edge {coef[1]:.3f}, corner {coef[2]:.3f}, "
            f"LC {coef[3]:.3f}, constant {coef[4]:.1f}; rms error {rmse:.2f} (MD and LC alone: {prmse:.2f}); "
            f"in sixteenths {sixteenths}"
        )
    print(f"shipped (fifteen.anytime.rank.RANK_WEIGHTS): {list(RANK_WEIGHTS)}")


if __name__ == "__main__":
    main()
