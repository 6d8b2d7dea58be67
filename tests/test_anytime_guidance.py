"""The beams' guidance: the ranking estimate (fifteen.anytime.rank: weighted MD + LC, ranking
only, pruning stays MD + LC).  Pinned values and lengths, every path replayed."""

from __future__ import annotations

import math
import random
import subprocess
import sys

import pytest

from fifteen.anytime import rank
from fifteen.anytime.beam import beam_search
from fifteen.anytime.rank import RANK_COSTS, RANK_WEIGHTS, distance_shape, fitted_costs, rank_mdd, rank_tables, rank_value
from fifteen.anytime.reduce import play
from fifteen.anytime.tables import label_tables, labelled
from fifteen.board import Board, Shape
from support import positions
from support.cli import ROOT, package_env
from support.positions import korf_taylor

FIVE, SIX = Shape(5, 5), Shape(6, 6)


def kt(i: int) -> list[int]:
    return next(tiles for ident, tiles, _ in korf_taylor() if ident == i)


def walk(shape: Shape, steps: int, seed: int):
    """(tiles, blank) after each of *steps* random moves from the goal."""
    tiles = list(shape.goal())
    blank = tiles.index(0)
    T = label_tables(shape)
    rng = random.Random(seed)
    for _ in range(steps):
        s = rng.choice(T.nbrs[blank])
        tiles[blank], tiles[s] = tiles[s], 0
        blank = s
        yield list(tiles), blank


# ------------------------------------------------------------------ the ranking estimate


def test_the_class_weights_rank_is_pinned():
    """Boards without a table (5x6 here): interior 16, edge 21, corner 27 sixteenths per square of
    MD, LC 18; equal weights give MD + LC itself."""
    shape = Shape(5, 6)
    T = label_tables(shape)
    tiles = Board.random(shape, 1).tiles
    board, blank = labelled(tiles, shape.goal()), tiles.index(0)
    h, _ = T.value(board, blank)
    assert RANK_WEIGHTS == (16, 21, 27, 18) and fitted_costs(5, 6) is None
    assert (h, rank_value(T, board, blank, h)) == (105, 2078)
    assert rank_value(T, board, blank, h, (16, 16, 16, 16)) == 16 * h
    assert rank_tables(T).lc == RANK_WEIGHTS[3]


def test_the_5x5_rank_is_its_cost_table_fitted_along_shortest_solutions():
    """5x5 ranks by costs per distance shape fitted on the positions along DeepCubeA's shortest
    solutions with at least 40 moves left (bench/fit_rank.py --costs 5): never cheaper farther
    away, pinned values; Korf and Taylor's #1 ranked so."""
    costs, lc = RANK_COSTS[5, 5]
    assert lc == 20 and len(costs) == 45
    for (kind, a, b), cost in costs.items():
        assert all(cost >= costs[k] for k in ((kind, a - 1, b), (kind, a, b - 1)) if k in costs)
    assert [costs[0, 0, d] for d in range(4)] == [0, 10, 18, 44]
    assert (costs[0, 1, 1], costs[1, 1, 1], costs[2, 1, 1], costs[2, 4, 4]) == (19, 19, 37, 197)
    T = label_tables(FIVE)
    board = labelled(kt(1), FIVE.goal())
    blank = kt(1).index(0)
    h, _ = T.value(board, blank)
    assert rank_tables(T).lc == 20 and fitted_costs(5, 5) is RANK_COSTS[5, 5]
    assert (h, rank_value(T, board, blank, h)) == (80, 1331)


@pytest.mark.parametrize("side", [5, 6, 7])
def test_the_shipped_cost_tables_are_the_fits(side):
    """bench/fit_rank.py --costs SIDE refits RANK_COSTS[SIDE, SIDE] from the data in bench/data
    (DeepCubeA's lengths; on 5x5 the positions along its shortest solutions) and says it is the
    table shipped."""
    command = [sys.executable, str(ROOT / "bench" / "fit_rank.py"), "--costs", str(side)]
    fit = subprocess.run(command, capture_output=True, text=True, env=package_env(), timeout=120)
    assert fit.returncode == 0 and fit.stdout.splitlines()[-1] == "shipped: the same", fit.stdout + fit.stderr


def test_the_6x6_rank_is_its_fitted_cost_table():
    """6x6 ranks by a cost per distance shape (bench/fit_rank.py --costs 6): convex in the
    distance, a corner tile dearer than an edge one dearer than an interior one; other boards
    keep the class weights, and ranked=False-like weights never take the table."""
    costs, lc = RANK_COSTS[6, 6]
    assert lc == 14 and len(costs) == 66
    for (kind, a, b), cost in costs.items():  # never cheaper farther away
        assert all(cost >= costs[k] for k in ((kind, a - 1, b), (kind, a, b - 1)) if k in costs)
    assert [costs[0, 0, d] for d in range(5)] == [0, 4, 12, 24, 56]  # an interior tile d squares along a line
    assert (costs[0, 1, 1], costs[1, 1, 1], costs[2, 1, 1]) == (13, 22, 55)
    assert distance_shape(6, 1, 13) == (1, 2, 0)  # target (0, 1) on (2, 1): two rows off its border line
    assert distance_shape(6, 0, 13) == (2, 1, 2) and distance_shape(6, 14, 0) == (0, 2, 2)
    T6 = label_tables(SIX)
    assert rank_tables(T6).lc == 14 and rank_tables(T6, (16, 16, 16, 16)).lc == 16
    six = positions.scramble(SIX, 400, 3).tiles
    board, blank = labelled(six, SIX.goal()), six.index(0)
    h, _ = T6.value(board, blank)
    assert (h, rank_value(T6, board, blank, h)) == (114, 1567)


def test_the_7x7_rank_is_its_fitted_cost_table():
    """7x7 has its own costs per distance shape (bench/fit_rank.py --costs 7, the method of 6x6's,
    fitted on the 6x6's positions too): never cheaper farther away, pinned values; its beams take them."""
    costs, lc = RANK_COSTS[7, 7]
    assert lc == 11 and len(costs) == 91
    for (kind, a, b), cost in costs.items():
        assert all(cost >= costs[k] for k in ((kind, a - 1, b), (kind, a, b - 1)) if k in costs)
    assert [costs[0, 0, d] for d in range(6)] == [0, 4, 9, 26, 54, 70]
    assert (costs[0, 1, 1], costs[1, 1, 1], costs[2, 1, 1], costs[2, 6, 6]) == (13, 16, 47, 360)
    seven = Shape(7, 7)
    T7 = label_tables(seven)
    assert rank_tables(T7).lc == 11
    tiles = positions.scramble(seven, 400, 3).tiles
    board, blank = labelled(tiles, seven.goal()), tiles.index(0)
    h, _ = T7.value(board, blank)
    assert (h, rank_value(T7, board, blank, h)) == (112, 1070)


def test_boards_past_7x7_rank_by_the_7x7_costs_extended():
    """8x8 to 10x10 (and oblong boards with both sides at least 7) rank by the 7x7's table, a
    shape past it the nearest fitted one plus 16 a square; 6x7 to 6x10 by the 6x6's; boards with
    a side of 5 or less keep the class weights (5x5 has its own table).  Ranked so, a beam of 128 finds an 8x8 path where one
    ranked by MD + LC finds none (pinned)."""
    seven = RANK_COSTS[7, 7]
    assert fitted_costs(8, 8) is seven and fitted_costs(10, 10) is seven and fitted_costs(7, 9) is seven
    assert fitted_costs(6, 6) is RANK_COSTS[6, 6] and fitted_costs(6, 7) is RANK_COSTS[6, 6] and fitted_costs(10, 6) is RANK_COSTS[6, 6]
    assert fitted_costs(5, 5) is RANK_COSTS[5, 5] and fitted_costs(5, 6) is None and fitted_costs(5, 10) is None
    assert fitted_costs(4, 6) is None
    T8 = label_tables(Shape(8, 8))
    cost = rank_tables(T8).cost
    assert cost[0 * 64 + 7] == seven[0][2, 0, 6] + 16  # a corner tile seven columns off
    assert cost[(3 * 8 + 3) * 64 + 3 * 8 + 7] == seven[0][0, 0, 4] and rank_tables(T8).lc == seven[1] == 11
    tiles = Board.random(Shape(8, 8), 2).tiles
    goal = Shape(8, 8).goal()
    assert len(beam_search(T8, tiles, goal, 128) or []) == 551
    assert beam_search(T8, tiles, goal, 128, ranked=False) is None


@pytest.mark.parametrize("shape", [FIVE, SIX, Shape(7, 7), Shape(4, 6)])
def test_the_beams_incremental_rank_is_the_rank_value(shape):
    """What a beam adds per move (rank_mdd plus w_lc times the change of LC) is the change of rank_value."""
    T = label_tables(shape)
    goal = shape.goal()
    table = rank_mdd(T)
    lc = rank_tables(T).lc
    prev = None
    for tiles, blank in walk(shape, 300, 5):
        board = labelled(tiles, goal)
        h, _ = T.value(board, blank)
        r = rank_value(T, board, blank, h)
        if prev is not None:
            pr, ph, pblank = prev
            m = next(e[2] for e in T.succ[T.start_state(pblank)] if e[0] == blank)  # the move's id
            mt = m * T.n + board[pblank]  # the tile now on the old blank square moved
            assert r - pr == table[mt] + lc * (h - ph - T.mdd[mt])
        prev = (r, h, blank)


def test_ranked_beams_are_pinned():
    """Ranked by the fitted costs against MD + LC: Korf and Taylor's #1 and #2 (112 and 119 with the
    class weights) and a 6x6 scramble."""
    T5, T6 = label_tables(FIVE), label_tables(SIX)
    six = positions.scramble(SIX, 400, 3).tiles
    found = {}
    for name, T, tiles in (("KT1", T5, kt(1)), ("KT2", T5, kt(2)), ("6x6", T6, six)):
        goal = T.shape.goal()
        for ranked in (True, False):
            path = beam_search(T, tiles, goal, 512, ranked=ranked)
            assert path is not None and play(tiles, path) == list(goal)
            found[name, ranked] = len(path)
    assert found == {
        ("KT1", True): 108,
        ("KT1", False): 122,
        ("KT2", True): 103,
        ("KT2", False): 123,
        ("6x6", True): 166,  # (148 with the class weights; 8 such scrambles: 165.25 against 181.25)
        ("6x6", False): 198,
    }


def test_a_noisy_beams_costs_are_each_tiles_scaled_by_its_own_seeded_factor():
    """noisy_moves(T, weights, k): each label's move costs times e^(NOISE_SIGMA z), z the label's
    normal draw from random.Random(k) in label order, rounded; k = 0 is the rank itself."""
    T = label_tables(Shape(6, 6))
    plain = rank.rank_mdd(T)
    assert rank.noisy_moves(T, rank.RANK_WEIGHTS, 0) is plain and rank.NOISE_SIGMA == 0.1
    noisy = rank.noisy_moves(T, rank.RANK_WEIGHTS, 1)
    rng = random.Random(1)
    factor = [math.exp(0.1 * rng.gauss(0.0, 1.0)) for _ in range(T.n)]
    assert noisy == [round(c * factor[i % T.n]) for i, c in enumerate(plain)]
    assert (sum(map(abs, plain)), sum(map(abs, noisy))) == (90208, 91980)
    assert rank.noisy_moves(T, rank.RANK_WEIGHTS, 2) != noisy
