"""Window searches bounded by a pattern database towards any target (fifteen.anytime.pdbwindows):
the bound is admissible against exact breadth-first distances to targets with the blank anywhere
(3x3 tables built by the real builder, with a group that walls the goal's blank square off, so
that the corrections count), the searches are optimal and replay to their target, and on the
5x5 tables the windows of Korf and Taylor's #1 are pinned (node counts, the corrections)."""

from __future__ import annotations

import random
from functools import cache

import pytest

np = pytest.importorskip("numpy")

from dbbuild import pack78  # noqa: E402
from fifteen.anytime.pdbwindows import (  # noqa: E402
    PdbSearch,
    PdbWindowTables,
    correction,
    optimal_between_pdb,
    pdb_window_tables,
    relabel_for,
    window_database,
)
from fifteen.anytime.reduce import play  # noqa: E402
from fifteen.anytime.tables import label_tables  # noqa: E402
from fifteen.anytime.windows import optimal_between  # noqa: E402
from fifteen.board import Board, Shape  # noqa: E402
from fifteen.bounds.pdb78 import PDB78  # noqa: E402
from support.bfs import distances  # noqa: E402
from support.positions import KT1  # noqa: E402

SHAPE = Shape(3, 3)
#: Tiles 6 and 8 at home wall the blank's goal square (8) off: their corrections are not 0.
GROUPS = [[1, 2, 3, 4], [5, 7], [6, 8]]


@pytest.fixture(scope="module")
def tables() -> PdbWindowTables:
    return PdbWindowTables(PDB78.from_bytes(pack78.build_pack(3, 3, "test", GROUPS), name="test-3x3"))


#: Targets: the goal, then the blank on square 0 (every group but tile 1's corrected: the L-like
#: group {6, 8} walls the last square off), on the centre and next to the last square.
TARGETS = [(1, 2, 3, 4, 5, 6, 7, 8, 0), (0, 4, 5, 2, 7, 6, 1, 3, 8), (7, 2, 3, 6, 0, 4, 8, 1, 5), (6, 8, 2, 5, 1, 7, 4, 0, 3)]


@cache
def exact(target: tuple[int, ...]) -> dict[bytes, int]:
    return distances(SHAPE, target)


def test_relabelling_makes_the_target_the_goal_with_two_squares_exchanged():
    target = [4, 1, 2, 3, 0, 5, 6, 7, 8]  # blank on square 4: A'_4 has tile 5 on the last square
    assert relabel_for(target, target) == [1, 2, 3, 4, 0, 6, 7, 8, 5]
    assert relabel_for(SHAPE.goal(), SHAPE.goal()) == list(SHAPE.goal())


def test_corrections_are_the_exact_abstract_costs(tables):
    """0 where the blank's square is in the goal's region; for the group {6, 8} (home on 5 and 7,
    around the last square) the cost of bringing the blank back in, pinned (squares 5 and 7 are
    the group's own: a target with its blank there makes it the special group, never corrected);
    on the 5x5 tables, the L around the last square costs 6 for every other target blank."""
    db = tables.db
    walled = [correction(db, (6, 8), db.groups[2].offset, e) for e in range(9)]
    assert walled == [4, 4, 4, 4, 4, 0, 4, 0, 0]
    assert [correction(db, (1, 2, 3, 4), db.groups[0].offset, e) for e in range(4, 9)] == [0] * 5
    big = window_database(Shape(5, 5))
    assert big is not None
    for g, cost in zip(big.groups, (0, 0, 0, 0, 6), strict=True):
        assert {correction(big, g.tiles, g.offset, e) for e in range(24) if e + 1 not in g.tiles} == {cost}


def test_the_bound_is_admissible_towards_any_target(tables):
    """Positions against their exact distance to each target: never above it (samples: 40,000
    towards the blank on square 0, 6,000 towards the others); towards the goal it is the tables'
    own bound."""
    rng = random.Random(5)
    over = 0
    exact_hits = 0
    checked = 0
    for target in TARGETS:
        dist = exact(target)
        sample = rng.sample(list(dist), 40_000 if target[0] == 0 else 6000)
        for pos in sample:
            h = PdbSearch(tables, list(pos), target).h0
            over += h > dist[pos]
            exact_hits += h == dist[pos]
            checked += 1
        if target == SHAPE.goal():
            assert all(PdbSearch(tables, list(p), target).h0 == tables.db.bound(list(p)) for p in sample[:2000])
    assert (checked, over) == (40_000 + 3 * 6000, 0)
    assert exact_hits > checked // 100  # not a trivial bound


def test_the_corrections_are_needed(tables, monkeypatch):
    """Without them the bound overestimates (the test above would fail)."""
    import fifteen.anytime.pdbwindows as pw

    monkeypatch.setattr(pw, "correction", lambda *args: 0)
    bare = PdbWindowTables(tables.db)
    target = TARGETS[1]  # blank on square 0
    assert any(PdbSearch(bare, list(p), target).h0 > d for p, d in exact(target).items())


def test_window_searches_are_optimal_both_ways(tables):
    """Random pairs: the path found has the exact length and replays to the target, whichever end
    the search starts from (the larger bound)."""
    rng = random.Random(11)
    positions = list(exact(TARGETS[0]))
    ways = set()
    for k in range(40):
        target = list(TARGETS[k % len(TARGETS)])
        start = list(rng.choice(positions))
        d = exact(tuple(target))[bytes(start)]
        path, _nodes = optimal_between_pdb(tables, start, target, 40, 10**7)
        assert path is not None and len(path) == d and play(start, path) == target
        ways.add(PdbSearch(tables, target, start).h0 > PdbSearch(tables, start, target).h0)
        short, _ = optimal_between_pdb(tables, start, target, d - 1, 10**7)
        assert short is None
    assert ways == {False, True}


def test_5x5_windows_pinned_against_md_lc():
    """Korf and Taylor's #1 along the width-256 beam's 116 moves: windows of 40 to 60 moves (the
    last one shorter), nodes and root bounds with the 5x5 tables against MD + LC, pinned; the
    shorter one replays to the window's end."""
    shape = Shape(5, 5)
    db = window_database(shape)
    assert db is not None and db.partition == "55554"
    W = pdb_window_tables(db)
    T = label_tables(shape)
    board = Board.parse(KT1)
    from fifteen.anytime.beam import beam_search

    path = beam_search(T, board.tiles, board.target.tiles, 256)
    pos = [list(board.tiles)]
    for s in path:
        pos.append(play(pos[-1], [s]))
    out = []
    for i, k in ((0, 40), (50, 40), (0, 60), (70, 46)):
        a, b = pos[i], pos[i + k]
        pdb, pdb_nodes = optimal_between_pdb(W, a, b, k - 2, 10**7)
        lc, lc_nodes = optimal_between(T, a, b, k - 2, 10**7)
        assert pdb == lc or (pdb is not None and lc is not None and len(pdb) == len(lc))
        if pdb is not None:
            assert play(a, pdb) == b
        h = max(PdbSearch(W, a, b).h0, PdbSearch(W, b, a).h0)
        out.append((None if pdb is None else len(pdb), h, pdb_nodes, lc_nodes))
    assert out == [(None, 38, 184, 260), (None, 40, 0, 344), (None, 54, 5865, 8368), (44, 34, 15_247, 260_034)]
