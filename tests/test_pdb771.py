"""The 7-7-1 pattern database (``pdb771``, the default bound on 4x4): its 3x3 analogue checked
exactly against BFS on every position, and the real tables of static/db (``make db``) on
Korf's 100 (bounds at most the optimum, node counts of the record, the solver's choice)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")

from dbbuild import pack78, specs  # noqa: E402
from fifteen.board import Board, Shape  # noqa: E402
from fifteen.bounds import (  # noqa: E402
    available_bounds,
    bound_values,
    bounds_json,
    databases,  # noqa: E402
    pdb78,
    pdb78_loop,  # noqa: E402
    resolve_bound,
)
from fifteen.bounds.pdb import reflect_board  # noqa: E402
from fifteen.bounds.pdb78 import PDB78  # noqa: E402
from fifteen.optimal import solve  # noqa: E402
from fifteen.search.ida import ida_star  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "data"))
from instances import korf100  # noqa: E402

#: The 3x3 analogue of the 7-7-1: the top row, the two bottom rows' tiles (which, at home, cut
#: the blank's goal square off, as tiles 9-15 do on 4x4) and tile 4 alone.
GROUPS_3x3 = [[1, 2, 3], [5, 6, 7, 8], [4]]
#: Positions of the 3x3 where the bound (max with the reflected lookup) equals the distance.
EXACT_3x3 = 22951


def goal(rows, cols):
    return list(range(1, rows * cols)) + [0]


@pytest.fixture(scope="module")
def db331():
    return PDB78.from_bytes(pack78.build_pack(3, 3, "331", GROUPS_3x3, xz=False), name="test-331")


@pytest.fixture(scope="module")
def dist3():
    from support.bfs import distances

    return {tuple(k): d for k, d in distances(Shape(3, 3)).items()}


@pytest.fixture(scope="module")
def real771():
    db = databases.pattern_database("pdb771", Shape(4, 4))
    assert db is not None, "pdb-771.f15 not built: run `make db`"
    return db


# ----------------------------------------------------------------- the 3x3 analogue
def test_one_tile_group_is_its_manhattan_distance(db331):
    single = db331.groups[2]
    assert (single.tiles, single.size) == ((4,), 9)
    assert [db331.nibble(single.offset + x) for x in range(9)] == [0] * 9


def test_admissible_on_every_3x3_position(db331, dist3):
    """Both lookups at most the exact distance, of its parity, on all 181,440 positions; the
    blank-region goal makes the bound exact on EXACT_3x3 of them."""
    exact = 0
    for s, d in dist3.items():
        v, r = db331.value(s), db331.reflected_value(s)
        assert v <= d and r <= d and (d - v) % 2 == 0 and (d - r) % 2 == 0, s
        exact += max(v, r) == d
    assert exact == EXACT_3x3


def test_reflected_lookup_is_the_plain_one_on_the_mirror_image(db331, dist3):
    for s in random.Random(3).sample(sorted(dist3), 500):
        assert db331.reflected_value(s) == db331.value(reflect_board(s, 3))


def test_searcher_is_optimal_on_3x3(db331, dist3):
    rng = random.Random(11)
    for s in rng.sample(sorted(dist3), 60):
        r = ida_star(Shape(3, 3), list(s), pdb78_loop.pdb78_searcher(db331))
        assert r.length == dist3[s], s
        assert Board(Shape(3, 3), s).solves(r.tiles)


# ----------------------------------------------------------------- the real tables
def test_the_real_tables(real771):
    assert real771.partition == "771"
    assert [g.tiles for g in real771.groups] == [tuple(g) for g in pdb78.PARTITIONS["771"]]
    assert real771.memory_bytes == 57_657_608  # two 7-tile tables and a 16-entry one, 4 bits each
    assert [t["max_value"] for t in real771.meta["tables"]] == [32, 33, 5]
    assert pdb78.asset_file("771") == "pdb-771.f15"
    assert specs.ASSETS[0].file == "pdb-771.f15" and specs.ASSETS[0].params.get("xz") is False


def test_korf100_bounds_at_most_the_optimum(real771):
    """Every Korf instance: both lookups at most the published optimum, of its parity; their
    sum over the 100 is pinned (the 6-6-3's is 4,223)."""
    total = 0
    for inst in korf100():
        v, r = real771.value(inst.tiles), real771.reflected_value(inst.tiles)
        assert v <= inst.optimal and r <= inst.optimal and (inst.optimal - v) % 2 == 0
        total += max(v, r)
    assert total == H0_TOTAL


def test_auto_picks_the_771_on_4x4_without_the_pack(databases_without_pack, fresh_assets):
    databases.use_directory(databases_without_pack)
    board = Board(Shape(4, 4), korf100()[8].tiles)
    assert resolve_bound(Shape(4, 4), "auto", board.target).name == "pdb771"
    assert "pdb771" in available_bounds(Shape(4, 4), board.target)
    values = bound_values(board)
    assert (values["pdb771"], values["pdb"], values["pdb_r"], values["pdb663"]) == (40, 38, 40, 38)
    sol = solve(board)
    assert (sol.length, sol.result.nodes) == (46, 1374)


def test_bounds_json_names_the_771(databases_without_pack, fresh_assets):
    databases.use_directory(databases_without_pack)
    out = bounds_json(Board(Shape(4, 4), korf100()[0].tiles))
    assert out["auto"] == "pdb771" and out["bounds"]["pdb771"] == 51
    assert out["start"]["pdb771"] == 51 and out["start"]["pdb663"] == 47


H0_TOTAL = 4459
