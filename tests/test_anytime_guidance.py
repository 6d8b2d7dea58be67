"""The beams' guidance: the ranking estimate (fifteen.anytime.rank: weighted MD + LC, ranking
only, pruning stays MD + LC).  Pinned values and lengths, every path replayed."""

from __future__ import annotations

import random

import pytest

from fifteen.anytime.beam import beam_search
from fifteen.anytime.rank import RANK_WEIGHTS, rank_mdd, rank_value
from fifteen.anytime.reduce import play
from fifteen.anytime.tables import label_tables, labelled
from fifteen.board import Shape
from support import positions
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


def test_rank_value_is_pinned_on_korf_taylor_1():
    """MD + LC 80; weighted: interior 16, edge 21, corner 27 sixteenths per square of MD, LC 18."""
    T = label_tables(FIVE)
    board = labelled(kt(1), FIVE.goal())
    blank = kt(1).index(0)
    h, _ = T.value(board, blank)
    assert RANK_WEIGHTS == (16, 21, 27, 18)
    assert (h, rank_value(T, board, blank, h)) == (80, 1577)
    assert rank_value(T, board, blank, h, (16, 16, 16, 16)) == 16 * h  # equal weights: MD + LC itself


@pytest.mark.parametrize("shape", [FIVE, SIX, Shape(4, 6)])
def test_the_beams_incremental_rank_is_the_rank_value(shape):
    """What a beam adds per move (rank_mdd plus w_lc times the change of LC) is the change of rank_value."""
    T = label_tables(shape)
    goal = shape.goal()
    table = rank_mdd(T)
    prev = None
    for tiles, blank in walk(shape, 300, 5):
        board = labelled(tiles, goal)
        h, _ = T.value(board, blank)
        r = rank_value(T, board, blank, h)
        if prev is not None:
            pr, ph, pblank = prev
            m = next(e[2] for e in T.succ[T.start_state(pblank)] if e[0] == blank)  # the move's id
            mt = m * T.n + board[pblank]  # the tile now on the old blank square moved
            assert r - pr == table[mt] + RANK_WEIGHTS[3] * (h - ph - T.mdd[mt])
        prev = (r, h, blank)


def test_ranked_beams_are_pinned():
    """Ranked by the weighted estimate against MD + LC: Korf and Taylor's #1 and #2 and a 6x6 scramble."""
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
        ("KT1", True): 112,
        ("KT1", False): 122,
        ("KT2", True): 119,
        ("KT2", False): 123,
        ("6x6", True): 148,
        ("6x6", False): 198,
    }
