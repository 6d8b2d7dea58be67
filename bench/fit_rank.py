"""Fit the beams' ranking estimate (fifteen.anytime.rank) on DeepCubeA's positions.

    PYTHONPATH=py python3 bench/fit_rank.py [--boards 5,6,7] [--skip 10]
    PYTHONPATH=py python3 bench/fit_rank.py --costs 5|6|7 [--skip 52]


For each board, least squares of the known lengths (the optimum on 5x5, DeepCubeA's length on
6x6 and 7x7: ``bench/data/deepcubea-test.tsv``) on the Manhattan distance of the tiles whose
target square is interior, on an edge or in a corner, the linear conflicts and a constant,
over the positions but the first *skip* of each board (the benchmark's: ``bench/bigboards.py``
runs the first ones).  Prints the coefficients, the root-mean-square error beside the same fit on
MD and LC alone, and the weights in sixteenths of the interior's (what
:data:`fifteen.anytime.rank.RANK_WEIGHTS` holds: the 6x6 fit's, rounded, between the three).
``--costs SIDE`` fits the finer model of :data:`fifteen.anytime.rank.RANK_COSTS` instead: a cost
per tile for each distance shape (:func:`fifteen.anytime.rank.distance_shape`: the class of its
target square and its rows and columns from it), the linear conflicts and a constant: the class
fit's prediction, plus a ridge regression (:data:`LAMBDA`, the constant free) of what it leaves,
over the positions but the first 52 (0-51 are the benchmarks' and the beam comparisons'); in
sixteenths of the class fit's interior weight, each relative to the tile at home, and made never
cheaper farther away (rare shapes are noisy); prints the table as the package holds it.  On
5x5 (``--costs 5``) the fit is over the positions *along* the shortest solutions of those
positions (``bench/data/deepcubea-24-solutions.tsv``) with at least :data:`PATH_MIN_LEFT` moves
left, each at its known distance, instead of over the positions themselves.  On 7x7 (``--costs
7``) the 6x6's positions are fitted too, each counted twice (:data:`POOLED`; each board its own
constant): the 7x7's 448 alone ranked worse.
numpy is a bench dependency only.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from fifteen.anytime.rank import RANK_COSTS, RANK_WEIGHTS, distance_shape
from fifteen.anytime.tables import label_tables, labelled
from fifteen.board import Board, Shape

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


def positions(rows: list[list[str]], side: int, skip: int) -> tuple[list[list[int]], list[float]]:
    """The side x side positions but the first *skip*, and their known lengths."""
    boards, lengths = [], []
    for r in rows:
        if r[1] == f"{side}x{side}" and int(r[0].split("-")[1]) >= skip:
            boards.append([int(t) for t in r[2].split()])
            lengths.append(float(r[4] if side == 5 else r[3]))
    return boards, lengths


#: DeepCubeA's letters name the direction the tile slides; the package's (Board.tiles_moved), the blank's.
BLANK_WAY = str.maketrans("UDLR", "DURL")
#: On 5x5 the finer model is fitted on the positions along the shortest solutions with at least
#: this many moves left (their distance known exactly); the positions nearer the goal fitted
#: too made beams longer (bench/anytime.md, *5x5: costs fitted along shortest solutions*).
PATH_MIN_LEFT = 40


def path_positions(rows: list[list[str]], skip: int) -> tuple[list[list[int]], list[float]]:
    """The 5x5 positions along the shortest solutions of DeepCubeA's positions but the first
    *skip* (``bench/data/deepcubea-24-solutions.tsv``), with at least :data:`PATH_MIN_LEFT` moves
    left, and those distances."""
    five = Shape(5, 5)
    start = {r[0]: Board(five, tuple(int(t) for t in r[2].split())) for r in rows if r[1] == "5x5"}
    boards, lengths = [], []
    for line in (ROOT / "bench" / "data" / "deepcubea-24-solutions.tsv").read_text().splitlines():
        if line.startswith("#") or int(line.split("\t")[0].split("-")[1]) < skip:
            continue
        name, moves = line.split("\t")
        board = start[name]
        for done, tile in enumerate(board.tiles_moved(moves.translate(BLANK_WAY))):
            if len(moves) - done >= PATH_MIN_LEFT:
                boards.append(list(board.tiles))
                lengths.append(float(len(moves) - done))
            board = board.slide(tile)
        assert board.is_goal(), name
    return boards, lengths


#: The ridge penalty of the finer model (towards the class fit).
LAMBDA = 10.0
#: Other boards' positions the finer model of a board is fitted on too, and the weight of each of
#: their rows: the 7x7's on its own 448 positions ranked worse than on them with the 6x6's
#: counted twice (beams of 1024 on DeepCubeA's 7x7 positions 10-51: 319.36 moves against 292.45;
#: ``bench/anytime.md``, *7x7: the 6x6's positions in its fit*).  Each board keeps its constant.
POOLED: dict[int, tuple[tuple[int, float], ...]] = {7: ((6, 2.0),)}

#: Positions of one board for :func:`fit_costs`: its side, the positions, their lengths, the rows' weight.
Group = tuple[int, list[list[int]], list[float], float]


def fit_costs(side: int, groups: list[Group]) -> tuple[dict[tuple[int, int, int], int], int]:
    """RANK_COSTS' table for *side* and its LC weight, in sixteenths of the class fit's interior
    weight (moves per square), fitted on the positions of *groups* (boards up to *side*)."""
    keys = sorted({distance_shape(side, label, sq) for label in range(side * side) for sq in range(side * side)})
    index = {k: i for i, k in enumerate(keys)}
    boards_n = len(groups)
    X_parts, C_parts, y_parts, w_parts = [], [], [], []
    for g, (s, boards, lengths, weight) in enumerate(groups):
        C = np.array([features(s, tiles) for tiles in boards])
        X = np.zeros((len(boards), len(keys) + 1 + boards_n))
        for j, tiles in enumerate(boards):
            for sq, t in enumerate(tiles):
                if t:
                    X[j, index[distance_shape(s, t - 1, sq)]] += 1
        X[:, len(keys)] = C[:, 3]  # LC
        X[:, len(keys) + 1 + g] = 1.0  # the board's constant
        classes = np.zeros((len(boards), 4 + boards_n))
        classes[:, :4] = C[:, :4]
        classes[:, 4 + g] = 1.0
        X_parts.append(X)
        C_parts.append(classes)
        y_parts.append(np.array(lengths))
        w_parts.append(np.full(len(boards), np.sqrt(weight)))
    X, C, y, w = (np.concatenate(parts) for parts in (X_parts, C_parts, y_parts, w_parts))
    # the class fit's prediction first; the finer model fits what it leaves, pulled towards zero
    base, *_ = np.linalg.lstsq(C * w[:, None], y * w, rcond=None)
    linear = np.array([base[k[0]] * (k[1] + k[2]) for k in keys] + [base[3], *base[4:]])
    ridge = LAMBDA * np.eye(X.shape[1])
    for g in range(boards_n):
        ridge[len(keys) + 1 + g, len(keys) + 1 + g] = 0.0  # the constants are free
    Xw = X * w[:, None]
    coef = linear + np.linalg.solve(Xw.T @ Xw + ridge, Xw.T @ ((y - X @ linear) * w))
    scale = 16 / base[0]
    raw = {k: scale * (coef[index[k]] - coef[index[(k[0], 0, 0)]]) for k in keys}
    costs: dict[tuple[int, int, int], int] = {}
    for k in keys:  # never cheaper farther away (a beam would stall in the dip)
        costs[k] = round(max([raw[k]] + [costs[j] for j in ((k[0], k[1] - 1, k[2]), (k[0], k[1], k[2] - 1)) if j in costs]))
    return costs, round(scale * coef[len(keys)])


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--boards", default="5,6,7")
    p.add_argument("--skip", type=int, default=None, help="leave out the first SKIP positions of each board (default 10; 52 with --costs)")
    p.add_argument("--costs", type=int, metavar="SIDE", help="fit the cost table of fifteen.anytime.rank.RANK_COSTS for SIDE x SIDE")
    args = p.parse_args()
    rows = [line.rstrip("\n").split("\t") for line in (ROOT / "bench" / "data" / "deepcubea-test.tsv").read_text().splitlines(True)]
    rows = [r for r in rows if r and not r[0].startswith("#")]
    if args.costs:
        side = args.costs
        skip = 52 if args.skip is None else args.skip
        boards, lengths = path_positions(rows, skip) if side == 5 else positions(rows, side, skip)
        groups: list[Group] = [(side, boards, lengths, 1.0)]
        groups += [(other, *positions(rows, other, skip), weight) for other, weight in POOLED.get(side, ())]
        costs, lc = fit_costs(side, groups)
        fitted_on = ", ".join(f"{len(g[1])} {g[0]}x{g[0]} positions (weight {g[3]:g})" for g in groups)
        print(f"{side}x{side}: {fitted_on}; LC {lc}; costs:")
        print("{" + ", ".join(f"{k}: {v}" for k, v in costs.items()) + "}")
        shipped = RANK_COSTS.get((side, side))
        print("shipped:", "the same" if shipped == (costs, lc) else shipped)
        return
    args.skip = 10 if args.skip is None else args.skip
    for side in (int(s) for s in args.boards.split(",")):
        boards, lengths = positions(rows, side, args.skip)
        A, b = np.array([features(side, tiles) for tiles in boards]), np.array(lengths)
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
