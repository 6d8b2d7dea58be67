"""Lower bounds: the seed's published values, Korf's table, admissibility against exact BFS."""

import random

import pytest

from fifteen import Board, Shape
from fifteen.bounds import bound_values, summary, walking_distance
from fifteen.bounds.inversion import inversion_distance, moves_for_inversions
from fifteen.bounds.manhattan import linear_conflict, manhattan
from fifteen.bounds.walking import WalkingTable
from instances import korf100
from support.bfs import distances

TRANSPOSED = "1 5 9 13 2 6 10 14 3 7 11 15 4 8 12 0"
TURNED = "0 15 14 13 12 11 10 9 8 7 6 5 4 3 2 1"


def test_wd_tables_4x4_match_the_seed():
    table = WalkingTable.build(Shape(4, 4))
    assert len(table) == 24964
    assert table.maximum == 35


@pytest.mark.parametrize("inst", korf100(), ids=lambda i: i.id)
def test_korf_columns(inst):
    shape = Shape(4, 4)
    md, wd_v, wd_h, id_v, id_h = inst.columns
    assert manhattan(shape, inst.tiles) == md
    assert walking_distance(shape, inst.tiles) == (wd_v, wd_h)
    assert inversion_distance(shape, inst.tiles) == (id_v, id_h)


def test_seed_examples():
    t = bound_values(Board.parse(TRANSPOSED))
    assert (t["md"], t["wd_v"], t["wd_h"], t["id_v"], t["id_h"], t["wdid"]) == (40, 20, 20, 12, 12, 40)
    assert "WD=20/20 ID=12/12" in summary(t)
    r = bound_values(Board.parse(TURNED))
    assert (r["md"], r["wd_v"], r["wd_h"], r["id_v"], r["id_h"]) == (58, 35, 35, 35, 35)


def test_seed_inversion_formula_for_4x4():
    for inv in range(106):
        assert moves_for_inversions(inv, 3) == inv // 3 + inv % 3


@pytest.fixture(scope="module")
def exact_3x3():
    return distances(Shape(3, 3))


def test_bfs_3x3_counts(exact_3x3):
    assert len(exact_3x3) == 181440
    assert max(exact_3x3.values()) == 31


def test_every_bound_admissible_on_all_3x3(exact_3x3):
    shape = Shape(3, 3)
    wd_v_table = WalkingTable.build(shape)
    names = ("md", "lc", "wd", "id", "wdid")
    sums = dict.fromkeys(names, 0)
    exact = dict.fromkeys(names, 0)  # positions where the bound equals the distance
    for key, d in exact_3x3.items():
        tiles = tuple(key)
        md = manhattan(shape, tiles)
        lc = md + linear_conflict(shape, tiles)
        wv, wh = walking_distance(shape, tiles)
        iv, ih = inversion_distance(shape, tiles)
        values = {"md": md, "lc": lc, "wd": wv + wh, "id": iv + ih, "wdid": max(wv, iv) + max(wh, ih)}
        for name, v in values.items():
            assert v <= d, (name, tiles, v, d)
            sums[name] += v
            exact[name] += v == d
        assert wv == wd_v_table.value(tiles)
    # Pinned over the 181,440 positions (distances sum to 3,986,672): each bound's total and the
    # positions where it is exact; a weaker bound (LC zeroed, a table off by one) changes them.
    assert sums == {"md": 2540160, "lc": 2743200, "wd": 2845584, "id": 2540160, "wdid": 2905926}
    assert exact == {"md": 2351, "lc": 2914, "wd": 5786, "id": 564, "wdid": 5786}


def test_bounds_admissible_on_2x4_and_3x2():
    for shape in (Shape(2, 4), Shape(3, 2), Shape(2, 3)):
        for key, d in distances(shape).items():
            values = bound_values(Board(shape, tuple(key)))
            assert values["lb"] <= d, (shape, key, values, d)


def test_wd_dominates_md_on_random_4x4():
    rng = random.Random(5)
    from fifteen.api import _method_random

    for _ in range(200):
        tiles = _method_random({"shape": "4x4", "seed": rng.random()})["tiles"]
        v = bound_values(Board.from_tiles(tiles))
        assert v["wd"] >= v["md"]
        assert v["lc"] >= v["md"]
        assert v["lb"] >= v["wdid"] >= v["wd"]
