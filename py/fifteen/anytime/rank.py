"""The beams' ranking estimate: Manhattan distance weighted by where each tile belongs, plus the
linear conflicts weighted, fitted on DeepCubeA's 6x6 positions.  It only *ranks* the children of
a beam's layer; pruning (``g + h >= best``) and every lower bound keep the admissible MD + LC.

**The model.**  ``rank = sum over tiles of w(tile's target square) * MD(tile) + w_lc * LC``, the
weight of a target square by its class: ``interior``, ``edge`` (on one border line) or
``corner`` (on two).  A tile that belongs on the border costs more moves per square of distance
than an interior one (the blank cannot go round it on the outer side), which MD + LC does not
see.  :data:`RANK_WEIGHTS` are in sixteenths (integers: the ranks stay exact and sort as
integers).

**The fit** (``bench/fit_rank.py``): least squares of DeepCubeA's solution lengths (near
optimal; ``bench/data/deepcubea-test.tsv``) on the four features and a constant, over its 6x6
positions but the first ten (the benchmark's), scaled so that the interior weight is 16: on 6x6
interior 0.826, edge 1.087, corner 1.316, LC 0.896 (per move), hence 16 / 21 / 25 / 17; the 5x5
(optimal lengths) and 7x7 fits give the same order (edge 1.27-1.37, corner 1.59-1.81 times the
interior's).  The weights shipped, 16 / 21 / 27 / 18, sit between the three fits.  Beams of
width 1024 ranked by it found paths 2.7 % shorter on DeepCubeA's 6x6 positions 28-51 and 3.4 %
shorter on its 5x5 positions 10-33 than beams ranked by MD + LC, at the same CPU time
(``bench/anytime.md``, *Guidance of the beams*).

**6x6: a cost per distance shape** (:data:`RANK_COSTS`).  On 6x6 a tile's share is not its
weight times its MD but a cost fitted for each *distance shape* (:func:`distance_shape`: the
class of its target square, and its rows and columns away from it, told apart along and across
an edge), plus the linear conflicts (``bench/fit_rank.py --costs 6``).  The fitted costs grow
faster than the distance (an interior tile 1, 2, 3, 4 squares along a line: 4, 12, 24, 56
sixteenths): a beam ranked by them brings far tiles in first.  Beams of width 1024 found paths
7.3 % shorter on DeepCubeA's 6x6 positions 28-51 and 7.4 % shorter on uniformly random 6x6
positions than with the class weights, in less CPU time.

**5x5: costs fitted along shortest solutions.**  On 5x5 the same fit on DeepCubeA's positions
ranked worse than the class weights (102.17 against 101.42 on positions 10-33); fitted instead on
the positions *along* its positions' shortest solutions (their distances known exactly; 22,318
positions with at least 40 moves left, ``bench/data/deepcubea-24-solutions.tsv``), it ranks
better: beams of 1024 found paths 1.072 x the optimum on Korf and Taylor's ten against 1.120, and
95.67 moves against 100.42 on DeepCubeA's positions 10-33 (optimum 90.33), in the same CPU time
(``bench/anytime.md``, *5x5: costs fitted along shortest solutions*).  Boards with a side of 5
and no table keep the class weights.

**7x7 has its own costs** (``bench/fit_rank.py --costs 7``, the same method, fitted on the 6x6's
positions too: the 7x7's 448 alone are too few).  Ranked by them, beams on the whole 7x7 no longer
wander: a beam of 1024 finds paths on each of DeepCubeA's 7x7 positions 10-51 (292.45 moves on
average; 319.36 fitted on the 7x7's positions alone), so 7x7 is improved as it is rather than
reduced to a 6x6 (:mod:`fifteen.anytime.reduce`; ``bench/anytime.md``, *7x7: its own costs* and
*7x7: the 6x6's positions in its fit*).  Bigger boards (both sides at least 7) rank by the
7x7's table extended, 6x7 to 6x10 by the 6x6's (:func:`fitted_costs`): beams of 1024 ranked so
find random 8x8 paths (483-577 moves on ``Board.random`` seeds 1-3; 559-631 with the table fitted
on the 7x7's positions alone), where the class weights' beams find none, so those boards are
improved as they are too (the anytime search's random 8x8 answers at 30 s were 10 % shorter than
the reduction's).
"""

from __future__ import annotations

import math
import random
from functools import cache, lru_cache
from typing import NamedTuple

from fifteen.anytime.tables import LabelTables

#: Weights in sixteenths: (interior, edge, corner) target squares' MD, and the linear conflicts.
RANK_WEIGHTS = (16, 21, 27, 18)

#: The finer model where it was fitted and pays, per board ``(rows, cols)``: ``(costs, w_lc)``,
#: ``costs[distance_shape(...)]`` the cost of a tile in sixteenths (of the class fit's interior
#: weight per square), relative to the tile at home (``bench/fit_rank.py --costs 5``, ``6`` and ``7``).
RANK_COSTS: dict[tuple[int, int], tuple[dict[tuple[int, int, int], int], int]] = {
    (5, 5): (
        {
            (0, 0, 0): 0,
            (0, 0, 1): 10,
            (0, 0, 2): 18,
            (0, 0, 3): 44,
            (0, 1, 1): 19,
            (0, 1, 2): 38,
            (0, 1, 3): 70,
            (0, 2, 2): 58,
            (0, 2, 3): 83,
            (0, 3, 3): 118,
            (1, 0, 0): 0,
            (1, 0, 1): 4,
            (1, 0, 2): 27,
            (1, 0, 3): 56,
            (1, 1, 0): 11,
            (1, 1, 1): 19,
            (1, 1, 2): 39,
            (1, 1, 3): 74,
            (1, 2, 0): 18,
            (1, 2, 1): 34,
            (1, 2, 2): 59,
            (1, 2, 3): 92,
            (1, 3, 0): 39,
            (1, 3, 1): 61,
            (1, 3, 2): 85,
            (1, 3, 3): 105,
            (1, 4, 0): 66,
            (1, 4, 1): 107,
            (1, 4, 2): 125,
            (1, 4, 3): 162,
            (2, 0, 0): 0,
            (2, 0, 1): 21,
            (2, 0, 2): 40,
            (2, 0, 3): 75,
            (2, 0, 4): 115,
            (2, 1, 1): 37,
            (2, 1, 2): 61,
            (2, 1, 3): 100,
            (2, 1, 4): 140,
            (2, 2, 2): 80,
            (2, 2, 3): 110,
            (2, 2, 4): 156,
            (2, 3, 3): 150,
            (2, 3, 4): 177,
            (2, 4, 4): 197,
        },
        20,
    ),
    (6, 6): (
        {
            (0, 0, 0): 0,
            (0, 0, 1): 4,
            (0, 0, 2): 12,
            (0, 0, 3): 24,
            (0, 0, 4): 56,
            (0, 1, 1): 13,
            (0, 1, 2): 22,
            (0, 1, 3): 51,
            (0, 1, 4): 76,
            (0, 2, 2): 35,
            (0, 2, 3): 66,
            (0, 2, 4): 99,
            (0, 3, 3): 105,
            (0, 3, 4): 125,
            (0, 4, 4): 140,
            (1, 0, 0): 0,
            (1, 0, 1): 2,
            (1, 0, 2): 20,
            (1, 0, 3): 49,
            (1, 0, 4): 94,
            (1, 1, 0): 11,
            (1, 1, 1): 22,
            (1, 1, 2): 38,
            (1, 1, 3): 64,
            (1, 1, 4): 110,
            (1, 2, 0): 26,
            (1, 2, 1): 40,
            (1, 2, 2): 55,
            (1, 2, 3): 91,
            (1, 2, 4): 127,
            (1, 3, 0): 50,
            (1, 3, 1): 58,
            (1, 3, 2): 75,
            (1, 3, 3): 114,
            (1, 3, 4): 154,
            (1, 4, 0): 71,
            (1, 4, 1): 96,
            (1, 4, 2): 110,
            (1, 4, 3): 146,
            (1, 4, 4): 155,
            (1, 5, 0): 119,
            (1, 5, 1): 141,
            (1, 5, 2): 175,
            (1, 5, 3): 180,
            (1, 5, 4): 205,
            (2, 0, 0): 0,
            (2, 0, 1): 23,
            (2, 0, 2): 56,
            (2, 0, 3): 85,
            (2, 0, 4): 121,
            (2, 0, 5): 152,
            (2, 1, 1): 55,
            (2, 1, 2): 73,
            (2, 1, 3): 95,
            (2, 1, 4): 135,
            (2, 1, 5): 165,
            (2, 2, 2): 74,
            (2, 2, 3): 110,
            (2, 2, 4): 147,
            (2, 2, 5): 189,
            (2, 3, 3): 137,
            (2, 3, 4): 189,
            (2, 3, 5): 196,
            (2, 4, 4): 195,
            (2, 4, 5): 248,
            (2, 5, 5): 264,
        },
        14,
    ),
    (7, 7): (
        {
            (0, 0, 0): 0,
            (0, 0, 1): 4,
            (0, 0, 2): 9,
            (0, 0, 3): 26,
            (0, 0, 4): 54,
            (0, 0, 5): 70,
            (0, 1, 1): 13,
            (0, 1, 2): 21,
            (0, 1, 3): 42,
            (0, 1, 4): 64,
            (0, 1, 5): 100,
            (0, 2, 2): 33,
            (0, 2, 3): 53,
            (0, 2, 4): 70,
            (0, 2, 5): 100,
            (0, 3, 3): 72,
            (0, 3, 4): 104,
            (0, 3, 5): 138,
            (0, 4, 4): 125,
            (0, 4, 5): 139,
            (0, 5, 5): 188,
            (1, 0, 0): 0,
            (1, 0, 1): 0,
            (1, 0, 2): 18,
            (1, 0, 3): 44,
            (1, 0, 4): 93,
            (1, 0, 5): 113,
            (1, 1, 0): 9,
            (1, 1, 1): 16,
            (1, 1, 2): 32,
            (1, 1, 3): 53,
            (1, 1, 4): 93,
            (1, 1, 5): 122,
            (1, 2, 0): 22,
            (1, 2, 1): 32,
            (1, 2, 2): 44,
            (1, 2, 3): 66,
            (1, 2, 4): 100,
            (1, 2, 5): 126,
            (1, 3, 0): 37,
            (1, 3, 1): 50,
            (1, 3, 2): 61,
            (1, 3, 3): 89,
            (1, 3, 4): 121,
            (1, 3, 5): 144,
            (1, 4, 0): 61,
            (1, 4, 1): 81,
            (1, 4, 2): 89,
            (1, 4, 3): 122,
            (1, 4, 4): 127,
            (1, 4, 5): 190,
            (1, 5, 0): 104,
            (1, 5, 1): 115,
            (1, 5, 2): 131,
            (1, 5, 3): 141,
            (1, 5, 4): 182,
            (1, 5, 5): 214,
            (1, 6, 0): 123,
            (1, 6, 1): 147,
            (1, 6, 2): 152,
            (1, 6, 3): 189,
            (1, 6, 4): 207,
            (1, 6, 5): 268,
            (2, 0, 0): 0,
            (2, 0, 1): 21,
            (2, 0, 2): 55,
            (2, 0, 3): 79,
            (2, 0, 4): 110,
            (2, 0, 5): 142,
            (2, 0, 6): 209,
            (2, 1, 1): 47,
            (2, 1, 2): 65,
            (2, 1, 3): 84,
            (2, 1, 4): 121,
            (2, 1, 5): 149,
            (2, 1, 6): 209,
            (2, 2, 2): 74,
            (2, 2, 3): 99,
            (2, 2, 4): 121,
            (2, 2, 5): 169,
            (2, 2, 6): 219,
            (2, 3, 3): 122,
            (2, 3, 4): 157,
            (2, 3, 5): 169,
            (2, 3, 6): 227,
            (2, 4, 4): 185,
            (2, 4, 5): 247,
            (2, 4, 6): 282,
            (2, 5, 5): 270,
            (2, 5, 6): 286,
            (2, 6, 6): 360,
        },
        11,
    ),
}


#: The largest board with a fitted table: a board with no table of its own ranks by the table of
#: the square board of its shorter side, up to this one, extended (:func:`shape_cost`).  A beam of
#: 1024 ranked so finds paths on 8x8 and 10x10, where one ranked by the class weights finds none
#: (``bench/anytime.md``, *Past 7x7*); 6x7 to 6x10 take the 6x6's (*Oblong boards*).
LARGEST_FITTED = 7
#: The smallest square board whose table is extended to boards without one: the 5x5's is fitted
#: on positions of 5x5 only (along shortest solutions), and boards with a side of 5 keep the class
#: weights (5x8 to 5x10 are reduced: :mod:`fifteen.anytime.reduce`).
SMALLEST_EXTENDED = 6


def fitted_costs(rows: int, cols: int) -> tuple[dict[tuple[int, int, int], int], int] | None:
    """The costs per distance shape and the LC weight a *rows* x *cols* board's beams rank by:
    its own (:data:`RANK_COSTS`), else those of the square board of its shorter side (from
    :data:`SMALLEST_EXTENDED` to :data:`LARGEST_FITTED`) when it has them; ``None``: the class
    weights (:data:`RANK_WEIGHTS`)."""
    own = RANK_COSTS.get((rows, cols))
    side = min(rows, cols, LARGEST_FITTED)
    if own is None and side >= SMALLEST_EXTENDED:
        own = RANK_COSTS.get((side, side))
    return own


def distance_shape(side: int, label: int, square: int) -> tuple[int, int, int]:
    """How a tile whose target square is *label* stands on *square* of a *side* x *side* board:
    ``(class, a, b)``, the class of its target square (0 interior, 1 edge, 2 corner); for an edge
    square *a* rows or columns away from its border line and *b* along it; else the smaller and
    the larger of its row and column distances."""
    return shape_between(side, side, *divmod(label, side), *divmod(square, side))


def shape_between(rows: int, cols: int, tr: int, tc: int, r: int, c: int) -> tuple[int, int, int]:
    """:func:`distance_shape` of a tile whose target square is (*tr*, *tc*) of a *rows* x *cols*
    board standing on (*r*, *c*), which may lie outside it (a stage square around a reduced board)."""
    dr, dc = abs(tr - r), abs(tc - c)
    on_row, on_col = tr in (0, rows - 1), tc in (0, cols - 1)
    kind = on_row + on_col
    if kind == 1:
        return (1, dr, dc) if on_row else (1, dc, dr)
    return (kind, min(dr, dc), max(dr, dc))


def shape_cost(costs: dict[tuple[int, int, int], int], key: tuple[int, int, int]) -> int:
    """``costs[key]``; past the fitted shapes (a tile farther than the board allows), the nearest
    fitted one's cost plus 16 a square (the interior weight of the class model)."""
    kind, a, b = key
    extra = 0
    while (kind, a, b) not in costs:
        if b >= a:
            b -= 1
        else:
            a -= 1
        extra += 16
    return costs[kind, a, b] + extra


def square_weight(T: LabelTables, square: int, weights: tuple[int, int, int, int] = RANK_WEIGHTS) -> int:
    """The MD weight of a tile whose target square is *square* (by its class: interior, edge, corner)."""
    r, c = divmod(square, T.cols)
    return weights[(r in (0, T.rows - 1)) + (c in (0, T.cols - 1))]


class RankTables(NamedTuple):
    """A rank's tables: ``cost[label * N + square]`` (a tile's share of the rank), ``move[m * N +
    label]`` (its change when the tile *label* makes move *m*, as ``T.mdd``), ``lc`` (the linear
    conflicts' weight)."""

    cost: list[int]
    move: list[int]
    lc: int


@cache
def rank_tables(T: LabelTables, weights: tuple[int, int, int, int] = RANK_WEIGHTS) -> RankTables:
    """The rank of :func:`fitted_costs` for *T*'s board when it has one and *weights* are the
    shipped ones; else the class weights times each tile's MD."""
    n, rows, cols = T.n, T.rows, T.cols
    fitted = fitted_costs(rows, cols) if weights == RANK_WEIGHTS else None
    if fitted is not None:
        costs, lc = fitted
        cost = [
            shape_cost(costs, shape_between(rows, cols, *divmod(label, cols), *divmod(sq, cols))) for label in range(n) for sq in range(n)
        ]
    else:
        lc = weights[3]
        cost = [square_weight(T, label, weights) * T.md[label * n + sq] for label in range(n) for sq in range(n)]
    move = [0] * len(T.mdd)
    for m, (b, s) in enumerate(T.move_squares):
        for t in range(n):
            move[m * n + t] = cost[t * n + b] - cost[t * n + s]  # (the tile slides from s to b)
    return RankTables(cost, move, lc)


def rank_mdd(T: LabelTables, weights: tuple[int, int, int, int] = RANK_WEIGHTS) -> list[int]:
    """``rank_mdd[m * N + label]``: the change of the rank's tile costs when the tile *label* makes
    move *m* (with the class weights, ``T.mdd`` times the weight of the label's square)."""
    return rank_tables(T, weights).move


#: A noisy beam's spread: each tile's costs times e^(NOISE_SIGMA z), z a normal draw per tile
#: (:func:`noisy_moves`; the improver's beams once no wider one fits: bench/anytime.md).
NOISE_SIGMA = 0.1


@lru_cache(maxsize=8)  # (a table per beam, about 300 KB on 7x7: only the last few are kept)
def noisy_moves(T: LabelTables, weights: tuple[int, int, int, int], noise: int) -> list[int]:
    """:func:`rank_mdd` with the costs of each tile (label) times its own factor e^(NOISE_SIGMA z),
    z drawn for the labels in order by ``random.Random(noise)`` (the same on every platform);
    *noise* 0: :func:`rank_mdd` itself."""
    move = rank_tables(T, weights).move
    if not noise:
        return move
    rng = random.Random(noise)
    factor = [math.exp(NOISE_SIGMA * rng.gauss(0.0, 1.0)) for _ in range(T.n)]
    n = T.n
    return [round(c * factor[i % n]) for i, c in enumerate(move)]


def rank_value(T: LabelTables, board: list[int] | bytes, blank: int, h: int, weights: tuple[int, int, int, int] = RANK_WEIGHTS) -> int:
    """The rank of a labelled *board* whose MD + LC is *h*."""
    n, md = T.n, T.md
    cost, _, lc = rank_tables(T, weights)
    plain = weighted = 0
    for sq in range(n):
        if sq != blank:
            plain += md[board[sq] * n + sq]
            weighted += cost[board[sq] * n + sq]
    return weighted + lc * (h - plain)


__all__ = [
    "LARGEST_FITTED",
    "NOISE_SIGMA",
    "RANK_COSTS",
    "RANK_WEIGHTS",
    "SMALLEST_EXTENDED",
    "RankTables",
    "distance_shape",
    "fitted_costs",
    "noisy_moves",
    "rank_mdd",
    "rank_tables",
    "rank_value",
    "shape_between",
    "shape_cost",
    "square_weight",
]
