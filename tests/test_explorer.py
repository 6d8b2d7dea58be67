"""The small-board explorer: its rank, its builder against BFS, its asset and its queries.

Ground truth: support.bfs (exact distances of every position, boards up to 3x3) and the
published distance counts (OEIS A090036 for 2x5; A090166 for 3x4, checked by the pack build
and by the pack test below when a pack was built).
"""

from __future__ import annotations

import functools
import json
import random
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]

from dbbuild import explorer as explorer_build  # noqa: E402
from fifteen import Board, InputError, Shape, solve  # noqa: E402
from fifteen.board import transpose_tiles  # noqa: E402
from fifteen.bounds import databases, exact  # noqa: E402
from fifteen.bounds.exact import Ranking  # noqa: E402
from fifteen.db import container  # noqa: E402
from fifteen.db.container import AssetError  # noqa: E402
from support.bfs import antipodes, distances  # noqa: E402

# OEIS A090036: the 5 X 2 puzzle (the 2x5 graph transposed), positions at each distance.
A090036 = [
    1, 2, 3, 6, 11, 19, 30, 44, 68, 112, 176, 271, 411, 602, 851, 1232, 1783, 2530, 3567, 4996, 6838, 9279, 12463,
    16597, 21848, 28227, 35682, 44464, 54597, 65966, 78433, 91725, 104896, 116966, 126335, 131998, 133107, 128720,
    119332, 106335, 91545, 75742, 60119, 45840, 33422, 23223, 15140, 9094, 5073, 2605, 1224, 528, 225, 75, 20, 2,
]  # fmt: skip


@functools.cache
def bfs(shape: str) -> dict[bytes, int]:
    return distances(Shape.parse(shape))


@pytest.fixture(scope="module")
def bfs33():
    return {tuple(k): d for k, d in bfs("3x3").items()}


@pytest.fixture(scope="module")
def tables():
    """The default explorer tables, built by the real builder and loaded through the databases."""
    out = {}
    for shape in exact.DEFAULT_SHAPES:
        rows, cols = (int(x) for x in shape.split("x"))
        meta = databases.load_asset(explorer_build.build_asset(rows, cols), f"test-{shape}")
        assert meta["kind"] == "explore"
        out[shape] = databases.explorer_tables[Shape(rows, cols)]
    yield out
    databases.reset()  # the tables and the record of the files read: the next module loads what it needs afresh


def ex(shape: str) -> exact.Explorer:
    return databases.require_explorer(Shape.parse(shape))


# ----------------------------------------------------------------- rank
@pytest.mark.parametrize("shape", ["2x3", "3x2", "2x4", "4x2", "3x3"])
def test_rank_is_a_bijection_onto_the_solvable_positions(shape):
    shp = Shape.parse(shape)
    rk = Ranking(shp)
    ranks = set()
    for i, tiles in enumerate(bfs(shape)):
        r = rk.rank(tiles)
        if i % 5 == 0:
            assert rk.unrank(r) == list(tiles)
        ranks.add(r)
    assert ranks == set(range(rk.total))
    assert rk.total == len(bfs(shape))


@pytest.mark.parametrize("shape", ["3x4", "2x6", "2x5", "3x3"])
def test_builder_rank_and_unrank_agree_with_the_runtime(shape):
    shp = Shape.parse(shape)
    rk = Ranking(shp)
    tab = explorer_build._Tables(rk.m)
    ranks = np.random.default_rng(5).integers(0, rk.total, 3000)
    for b in range(shp.size):  # one blank square at a time, as the builder does
        sel = ranks[ranks // rk.block == b]
        vals = explorer_build.unrank_sequences(sel - b * rk.block, rk.parity[b], tab)
        for x, seq in zip(sel, vals.T, strict=True):
            tiles = rk.unrank(int(x))
            assert [t for t in tiles if t] == seq.tolist()
        assert (explorer_build.rank_sequences(vals, tab) + b * rk.block == sel).all()


# ----------------------------------------------------------------- builder
@pytest.mark.parametrize("shape", ["2x3", "3x2", "2x4", "4x2", "3x3"])
def test_builder_distances_equal_bfs(shape):
    shp = Shape.parse(shape)
    dist = explorer_build.build_distances(shp.rows, shp.cols)
    rk = Ranking(shp)
    truth = bfs(shape)
    assert dist.size == len(truth)
    assert all(dist[rk.rank(k)] == d for k, d in truth.items())


def test_builder_2x5_and_5x2_histograms_equal_the_published_ones():
    for rows, cols in ((2, 5), (5, 2)):
        dist = explorer_build.build_distances(rows, cols)
        assert np.bincount(dist).tolist() == A090036


def test_published_3x4_totals_are_consistent():
    counts, radius = explorer_build.PUBLISHED[(3, 4)]
    assert sum(counts) == Ranking(Shape(3, 4)).total == 239_500_800
    assert len(counts) - 1 == radius == 53 and counts[-1] == 18
    assert explorer_build.check_published(3, 4, counts) is None
    wrong = list(counts)
    wrong[40] += 1
    assert "distance 40" in explorer_build.check_published(3, 4, wrong)
    assert "radius 52" in explorer_build.check_published(3, 4, counts[:-1])
    prefix, radius = explorer_build.PUBLISHED[(2, 6)]
    assert radius == 80 and prefix[:3] == [1, 2, 3]


def test_pack_build_refuses_a_histogram_that_differs_from_the_published_one(monkeypatch):
    monkeypatch.setitem(
        explorer_build.PUBLISHED, (2, 3), ([1, 2, 3, 5, 6, 7, 10, 12, 12, 16, 23, 25, 28, 39, 44, 40, 29, 21, 18, 12, 6, 1], 21)
    )
    explorer_build.build_asset(2, 3)  # A090034 (3 X 2): agrees
    monkeypatch.setitem(explorer_build.PUBLISHED, (2, 3), ([1, 2, 4], 21))
    with pytest.raises(RuntimeError, match="differs from the published one"):
        explorer_build.build_asset(2, 3)


# ----------------------------------------------------------------- the 3x3 table
def test_3x3_histogram_radius_and_antipodes_equal_bfs(tables, bfs33):
    e = ex("3x3")
    assert list(e.histogram) == [c for _, c in sorted(Counter(bfs33.values()).items())]
    assert e.radius == 31 and e.histogram[31] == 2 and e.positions == 181_440
    far, positions = antipodes(Shape(3, 3))
    assert far == 31 and sorted(e.hardest()) == positions


def test_3x3_every_entry_gives_the_distance_mod_4(tables, bfs33):
    table = tables["3x3"]
    rk = table.ranking
    assert all(table.residue(rk.rank(k)) == d % 4 for k, d in bfs33.items())


def test_3x3_distances_and_moves_of_a_sample_equal_bfs(tables, bfs33):
    e = ex("3x3")
    rng = random.Random(3)
    sample = rng.sample(sorted(bfs33), 600) + [k for k, d in bfs33.items() if d in (0, 1, 30, 31)]
    for tiles in sample:
        board = Board(Shape(3, 3), tiles)
        d = bfs33[tiles]
        assert e.distance(board) == d
        moves = e.moves(board)
        assert {m.tile for m in moves} == set(board.movable_tiles())
        for m in moves:
            child = board.slide(m.tile)
            assert m.distance == bfs33[child.tiles]
            assert board.move_blank(m.direction) == child
        assert {m.tile for m in e.optimal_moves(board)} == {m.tile for m in moves if bfs33[board.slide(m.tile).tiles] == d - 1}


# ----------------------------------------------------------------- other boards, transposition
@pytest.mark.parametrize("shape", ["2x4", "4x2"])
def test_2x4_and_4x2_every_distance_equals_bfs(tables, shape):
    shp = Shape.parse(shape)
    e = ex(shape)
    assert e.transposed == (shape == "4x2") and e.radius == 36 and e.histogram[36] == 1
    truth = bfs(shape)
    assert list(e.histogram) == [c for _, c in sorted(Counter(truth.values()).items())]
    for tiles, d in truth.items():
        assert e.distance(Board(shp, tuple(tiles))) == d
    (far,) = e.hardest()
    assert truth[bytes(far)] == 36
    board = Board(shp, tuple(far))
    for m in e.moves(board):
        assert m.distance == truth[bytes(board.move_blank(m.direction).tiles)] == 35


@pytest.mark.parametrize("shape", ["2x5", "5x2"])
def test_2x5_and_5x2_histogram_and_sample_against_ida(tables, shape):
    e = ex(shape)
    assert list(e.histogram) == A090036 and e.radius == 55 and len(e.hardest()) == 2
    rng = random.Random(11)
    for _ in range(6):
        board = e.random_at(rng.randrange(20, 40), rng)
        sol = solve(board, "wdid")
        assert e.distance(board) == sol.length
        assert sol.tiles[0] in {m.tile for m in e.optimal_moves(board)}


# ----------------------------------------------------------------- random positions
def test_random_at_every_3x3_distance_has_that_distance(tables, bfs33):
    e = ex("3x3")
    rng = random.Random(1)
    for d in range(32):
        for _ in range(3):
            board = e.random_at(d, rng)
            assert bfs33[board.tiles] == d
    assert e.random_at(12, 99) == e.random_at(12, 99)  # a seed repeats the draw


def test_random_at_is_uniform(tables):
    # 2x3 (360 positions, none listed): every draw by rejection sampling; 3x3 at 31 moves: the 2
    # antipodes, read from the asset's list.
    small = exact.Explorer(exact.ExplorerTable.from_bytes(explorer_build.build_asset(2, 3)), Shape(2, 3))
    assert not small.table.lists and 31 in ex("3x3").table.lists
    rng = random.Random(4)
    truth = distances(Shape(2, 3))
    for d, count in ((20, 6), (13, 39)):
        assert small.histogram[d] == count
        seen = Counter(small.random_at(d, rng).tiles for _ in range(60 * count))
        assert len(seen) == count and min(seen.values()) >= 30, seen  # expected 60 each
        assert all(truth[bytes(t)] == d for t in seen)
    seen = Counter(ex("3x3").random_at(31, rng).tiles for _ in range(200))
    assert len(seen) == 2 and min(seen.values()) >= 80


def test_random_at_refuses_distances_beyond_the_radius(tables):
    with pytest.raises(InputError, match="distances go from 0 to 31"):
        ex("3x3").random_at(32)


# ----------------------------------------------------------------- shapes kept apart
def test_a_position_never_reaches_another_boards_table(tables):
    with pytest.raises(InputError, match="this is a 2x4 position; the 4x2 explorer"):
        ex("4x2").distance(Board.goal("2x4"))
    with pytest.raises(InputError, match="this is a 3x3 position"):
        ex("2x4").moves(Board.goal("3x3"))
    with pytest.raises(InputError, match="no table for a 4x4 board: tables exist for 3x3, 2x4, 4x2"):
        databases.require_explorer(Shape(4, 4))


def test_boards_without_a_loaded_table_say_why(tables, monkeypatch):
    monkeypatch.setattr(databases, "explorer_tables", {})
    with pytest.raises(InputError, match=r"4x3 table is an optional pack \(explore-3x4.f15.xz"):
        databases.require_explorer(Shape(4, 3))
    with pytest.raises(InputError, match=r"its table \(explore-2x5.f15, made by make db\) is not loaded"):
        databases.require_explorer(Shape(5, 2))
    assert databases.explorer(Shape(3, 3)) is None and databases.explorer_shapes() == []


# ----------------------------------------------------------------- the asset
def _rewrite(data: bytes, **changes) -> bytes:
    a = container.read_asset(data)
    meta = dict(a.meta, **changes)
    return container.write_asset(meta, a.payload)


def test_asset_refusals(tables):
    data = explorer_build.build_asset(2, 3)
    exact.ExplorerTable.from_bytes(data)
    bad = bytearray(data)
    bad[len(bad) // 2] ^= 1
    with pytest.raises(AssetError, match="checksum"):
        exact.ExplorerTable.from_bytes(bytes(bad))
    with pytest.raises(AssetError, match="layout version 2"):
        exact.ExplorerTable.from_bytes(_rewrite(data, explore_format=2))
    with pytest.raises(AssetError, match="histogram does not count"):
        exact.ExplorerTable.from_bytes(_rewrite(data, histogram=[1, 2, 3]))
    with pytest.raises(AssetError, match="unknown explorer index or encoding"):
        exact.ExplorerTable.from_bytes(_rewrite(data, encoding="mod3"))
    a = container.read_asset(data)
    with pytest.raises(AssetError, match="payload is"):
        exact.ExplorerTable.from_bytes(container.write_asset(a.meta, a.payload + b"\0"))
    flipped = bytearray(a.payload)
    goal = Ranking(Shape(2, 3)).goal_rank
    flipped[goal >> 3] ^= 1 << (goal & 7)
    with pytest.raises(AssetError, match="goal's entry"):
        exact.ExplorerTable.from_bytes(container.write_asset(a.meta, bytes(flipped)))
    with pytest.raises(AssetError, match="holds a 'explore' database, expected 'pdb'"):
        container.read_asset(data, kind="pdb")


def test_xz_pack_form_loads_through_the_registry(tables, tmp_path):
    data = explorer_build.build_asset(3, 2, xz=True)
    assert container.is_xz(data)
    meta = databases.load_asset(data, "test-3x2.f15.xz")
    assert meta["kind"] == "explore" and ex("2x3").radius == 21
    assert explorer_build.pack_info(meta)["memory_bytes"] == meta["bits_bytes"] + 4 * sum(e["count"] for e in meta["lists"])
    del databases.explorer_tables[Shape(3, 2)]


def test_make_db_lists_the_explorer_tables_for_their_shapes():
    manifest = json.loads((ROOT / "static/db/manifest.json").read_text())
    entries = {e["file"]: e for e in manifest["assets"]}
    assert entries["explore-3x3.f15"]["shapes"] == ["3x3"]
    assert entries["explore-2x4.f15"]["shapes"] == ["2x4", "4x2"]
    assert entries["explore-2x5.f15"]["shapes"] == ["2x5", "5x2"]
    assert all(e["kind"] == "explore" for f, e in entries.items() if f.startswith("explore-"))
    assert not any(f.endswith(".xz") for f in entries)  # packs are never among the assets the page loads


def test_explorer_packs_in_static_db_have_the_published_histograms():
    """Every explorer pack built here (make explorer-pack) agrees with the published counts.

    In CI no pack is built and nothing is checked here: the 3x4 builder is checked on the
    smaller boards above, and ``make explorer-pack`` checks the full table."""
    for path in sorted((ROOT / "static/db").glob("explore-*.f15.xz")):
        table = exact.ExplorerTable.from_bytes(path.read_bytes(), name=path.name)
        shape = table.shape
        assert explorer_build.check_published(shape.rows, shape.cols, list(table.histogram)) is None
        if (shape.rows, shape.cols) == (3, 4):
            assert table.radius == 53 and table.hardest_count == 18 and len(table.hardest) == 18
            board = Board(shape, table.hardest[0])
            assert table.distance(board.tiles) == 53
            transposed = Board(Shape(4, 3), tuple(transpose_tiles(shape, board.tiles)))
            assert exact.Explorer(table, Shape(4, 3)).distance(transposed) == 53
