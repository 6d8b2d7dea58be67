"""The beams' guidance: the ranking estimate (fifteen.anytime.rank: weighted MD + LC, ranking
only) and the 5x5 pattern databases' beams towards the goal (fifteen.anytime.pdbbeam: rank and
prune).  Pinned lengths, values checked against the tables' own lookup, every path replayed."""

from __future__ import annotations

import random

import pytest

from fifteen.anytime import driver
from fifteen.anytime.beam import beam_search
from fifteen.anytime.pdbbeam import pdb_beam_search, pdb_guide
from fifteen.anytime.rank import RANK_WEIGHTS, rank_mdd, rank_value
from fifteen.anytime.reduce import play
from fifteen.anytime.tables import label_tables, labelled
from fifteen.board import Board, Shape
from fifteen.bounds import databases
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


# ------------------------------------------------------------------ the pattern databases' beams


@pytest.fixture(scope="module")
def guide():
    g = pdb_guide(label_tables(FIVE), FIVE.goal())
    assert g is not None, "pdb-55554.f15 not built: run `make db`"
    return g


def test_the_guides_rows_give_the_tables_bound_of_every_child(guide):
    """Each child's value from the guide's rows (one group per lookup changed, as the beam computes
    it) is the tables' own bound of the child (PDB78.bound: MD + 2 * max(entries, reflected))."""
    T, db = guide.T, guide.db
    goal = FIVE.goal()
    data = db.data
    checked = 0
    for tiles, blank in walk(FIVE, 400, 11):
        board = labelled(tiles, goal)
        h, tb = guide.state(board, blank)
        assert h == db.bound(tiles)
        md = sum(T.md[board[q] * 25 + q] for q in range(25) if q != blank)
        hp, hr = md + 2 * sum(tb[10:15]), md + 2 * sum(tb[15:])
        st = T.start_state(blank)
        for moves, vertical in ((guide.vert[st], True), (guide.horiz[st], False)):
            for s, m, _st, j1, j2, j3, j4 in moves:
                g, d, c, r, e, dm = guide.row[m + board[s]]
                jc = c[board[j1]] + c[board[j2]] + c[board[j3]] + c[board[j4]]
                x = tb[g] + d + (jc if vertical else 0)
                y = tb[5 + r] + e + (0 if vertical else jc)
                h1 = hp + dm + ((((data[x >> 3] >> (x & 4)) & 15) - tb[10 + g]) << 1)
                h2 = hr + dm + ((((data[y >> 3] >> (y & 4)) & 15) - tb[15 + r]) << 1)
                child = list(tiles)
                child[blank], child[s] = child[s], 0
                assert max(h1, h2) == db.bound(child)
                checked += 1
    assert checked > 1000


def test_pdb_beams_are_pinned_and_pruned(guide):
    """Korf and Taylor's #1 (optimum 100): the tables' beam of 1024 finds 108 moves (MD + LC ranked
    by the weighted estimate: 110, by MD + LC: 114); pruned by a length it finds only shorter paths
    (104 at 2048 below 108), none below the optimum."""
    tiles = kt(1)
    goal = list(FIVE.goal())
    path = pdb_beam_search(guide, tiles, 1024)
    assert path is not None and play(tiles, path) == goal and len(path) == 108
    assert len(pdb_beam_search(guide, tiles, 256) or []) == 126
    assert pdb_beam_search(guide, tiles, 1024, upper=100) is None
    shorter = pdb_beam_search(guide, tiles, 2048, upper=108)
    assert shorter is not None and play(tiles, shorter) == goal and len(shorter) == 104


def test_the_guide_only_for_the_standard_goal_of_5x5_with_its_tables(tmp_path, fresh_assets):
    """No guide towards another target, on another board, or without the tables: the improver's
    beams then keep MD + LC (and still find paths)."""
    T5 = label_tables(FIVE)
    assert pdb_guide(T5, FIVE.goal()) is not None
    other = list(FIVE.goal())
    other[0], other[1] = other[1], other[0]
    assert pdb_guide(T5, other) is None
    assert pdb_guide(label_tables(SIX), SIX.goal()) is None
    (tmp_path / "manifest.json").write_text('{"assets": []}')
    databases.reset()
    databases.use_directory(tmp_path)
    assert pdb_guide(T5, FIVE.goal()) is None
    board = Board(FIVE, tuple(kt(1)))
    first = driver.first_solution(T5, board.tiles, board.target.tiles)
    offered: list[list[int]] = []
    imp = driver.Improver(T5, board.tiles, board.target.tiles, first, offered.append, mode="beams")
    assert imp.guide is None
    for _ in range(2):
        imp.step()
    assert imp.beams == [(-256, 116), (512, 112)]  # (with the tables: 104 at 512)
    assert all(play(board.tiles, p) == list(FIVE.goal()) for p in offered)
