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
"""

from __future__ import annotations

from functools import cache

from fifteen.anytime.tables import LabelTables

#: Weights in sixteenths: (interior, edge, corner) target squares' MD, and the linear conflicts.
RANK_WEIGHTS = (16, 21, 27, 18)


def square_weight(T: LabelTables, square: int, weights: tuple[int, int, int, int] = RANK_WEIGHTS) -> int:
    """The MD weight of a tile whose target square is *square* (by its class: interior, edge, corner)."""
    r, c = divmod(square, T.cols)
    return weights[(r in (0, T.rows - 1)) + (c in (0, T.cols - 1))]


@cache
def rank_mdd(T: LabelTables, weights: tuple[int, int, int, int] = RANK_WEIGHTS) -> list[int]:
    """``rank_mdd[m * N + label]``: the change of the weighted MD when the tile *label* makes move
    *m* (as ``T.mdd``, times the weight of the label's square)."""
    n = T.n
    return [square_weight(T, mt % n, weights) * T.mdd[mt] for mt in range(len(T.mdd))]


def rank_value(T: LabelTables, board: list[int] | bytes, blank: int, h: int, weights: tuple[int, int, int, int] = RANK_WEIGHTS) -> int:
    """The rank of a labelled *board* whose MD + LC is *h*."""
    n, md = T.n, T.md
    plain = weighted = 0
    for sq in range(n):
        if sq != blank:
            d = md[board[sq] * n + sq]
            plain += d
            weighted += square_weight(T, board[sq], weights) * d
    return weighted + weights[3] * (h - plain)


__all__ = ["RANK_WEIGHTS", "rank_mdd", "rank_value", "square_weight"]
