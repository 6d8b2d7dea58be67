"""Dual lookups in the 7-8 pack layout (bench/pdb78_dual.py), checked exactly on 3x3 with a
small pack built by the real builder: the dual is the inverse permutation, has the same
distance when the blank is home, the naive dual lookup is not admissible, the general and
shifted dual values are, and the dual searcher finds optimal solutions with fewer nodes."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

pytest.importorskip("numpy")

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from dbbuild import pack78 as pdb78_build  # noqa: E402
from fifteen.board import Shape  # noqa: E402
from fifteen.pdb78 import PDB78  # noqa: E402
from fifteen.pdb78_search import pdb78_searcher  # noqa: E402
from fifteen.search import ida_star  # noqa: E402
from pdb78_dual import DualLookups, dual_board, dual_positions, pdb78_dual_searcher  # noqa: E402

GOAL3 = (1, 2, 3, 4, 5, 6, 7, 8, 0)


@pytest.fixture(scope="module")
def db3():
    return PDB78.from_bytes(pdb78_build.build_pack(3, 3, "44", [[1, 2, 3, 4], [5, 6, 7, 8]]), name="test-3x3")


@pytest.fixture(scope="module")
def dist3():
    from fifteen.bfs import distances

    return {tuple(k): d for k, d in distances(Shape(3, 3)).items()}


def replay(tiles, path):
    b = list(tiles)
    z = b.index(0)
    for s in path:
        b[z], b[s] = b[s], 0
        z = s
    return tuple(b)


def test_dual_is_the_inverse_permutation():
    rng = random.Random(1)
    lab = lambda t, n: t - 1 if t else n - 1  # noqa: E731
    for _ in range(200):
        s = list(range(16))
        rng.shuffle(s)
        d = dual_board(s)
        # as label permutations: dual = inverse
        assert all(lab(d[lab(s[q], 16)], 16) == q for q in range(16))
        assert dual_board(d) == s
        pos = dual_positions(s)
        assert all(d[pos[t]] == t for t in range(16))
    assert dual_board(list(GOAL3)) == list(GOAL3)


def test_dual_distance_equals_distance_when_the_blank_is_home(dist3):
    home = [s for s in dist3 if s[-1] == 0]
    assert len(home) == 20160
    for s in home:
        assert dist3[tuple(dual_board(s))] == dist3[s]


def test_naive_dual_lookup_is_not_admissible(db3, dist3):
    s = (1, 2, 0, 4, 5, 3, 7, 8, 6)
    assert dist3[s] == 2
    assert db3.value(dual_board(s)) == 9  # every group looked up on the dual: too high


def test_general_and_shifted_dual_values_are_admissible(db3, dist3):
    dl = DualLookups(db3)
    rng = random.Random(3)
    states = rng.sample(sorted(dist3), 30000)
    better = 0
    for s in states:
        d = dist3[s]
        g = dl.general_values(s)
        sh = dl.shifted_value(s)
        assert max(g) <= d and sh <= d, s
        assert all((v - d) % 2 == 0 for v in g)
        assert (sh - d) % 2 == 0
        if s[-1] == 0:  # blank home: the full dual, plain and reflected
            pos = dual_positions(s)
            full = [sum(v) for v in ([db3.nibble(x.index(pos)) for x in look] for look in dl.lookups)]
            assert sh == max(g) == max(db3.value(dual_board(s)), db3.reflected_value(dual_board(s)))
            assert max(g) == max(g[i] for i in range(len(full)))
        better += dl.bound(s) > db3.bound(s)
    assert better > 1000  # the dual adds information (about 7 % of all 3x3 positions)


def test_usable_groups_4x4_rule():
    """4x4: tiles 1-7 on the dual apply iff the blank is off squares 0..6 (plain lookup);
    tiles 8-15 only with the blank home."""
    from fifteen.pdb78 import PARTITIONS, table_size

    meta = {"rows": 4, "cols": 4, "partition": "78", "tables": []}
    off = 0
    for g in PARTITIONS["78"]:
        meta["tables"].append({"tiles": list(g), "offset": off, "size": table_size(16, len(g))})
        off += table_size(16, len(g))
    dl = DualLookups(PDB78(meta, b"", name="fake"))
    (ua, ub), (ra, rb) = dl.usable
    assert [b for b in range(16) if ua[b]] == list(range(7, 16))
    assert [b for b in range(16) if ub[b]] == [15] == [b for b in range(16) if rb[b]]
    assert [b for b in range(16) if ra[b]] == [2, 3, 6, 7, 10, 11, 13, 14, 15]  # off the reflected squares of tiles 1-7


@pytest.mark.parametrize(
    "kw",
    [dict(), dict(general=False), dict(shifted=False), dict(bpmx=None), dict(bpmx="lazy"), dict(max_gap=0), dict(reflect=False)],
)
def test_dual_searcher_is_optimal_and_prunes(db3, dist3, kw):
    rng = random.Random(9)
    states = rng.sample(sorted(dist3), 40) + [tuple(dual_board((8, 7, 6, 5, 4, 3, 2, 1, 0)))]
    states = [s for s in states if s != GOAL3]
    base_total = dual_total = 0
    for s in states:
        base = ida_star(Shape(3, 3), list(s), pdb78_searcher(db3, reflect=kw.get("reflect", True)))
        r = ida_star(Shape(3, 3), list(s), pdb78_dual_searcher(db3, **kw))
        assert r.length == dist3[s], (s, kw)
        assert replay(s, r.path) == GOAL3
        assert r.nodes <= base.nodes  # more pruning, same order: a subset of the tree
        base_total += base.nodes
        dual_total += r.nodes
    assert dual_total < base_total


def test_without_dual_lookups_it_is_the_plain_searcher(db3, dist3):
    rng = random.Random(4)
    for s in rng.sample(sorted(dist3), 20):
        a = ida_star(Shape(3, 3), list(s), pdb78_searcher(db3))
        b = ida_star(Shape(3, 3), list(s), pdb78_dual_searcher(db3, general=False, shifted=False))
        assert (a.nodes, a.path) == (b.nodes, b.path)
        assert [i.nodes for i in a.iterations] == [i.nodes for i in b.iterations]


def test_goal_and_stats(db3):
    stats: dict = {}
    assert ida_star(Shape(3, 3), list(GOAL3), pdb78_dual_searcher(db3, stats=stats)).length == 0
    r = ida_star(Shape(3, 3), [8, 6, 7, 2, 5, 4, 3, 0, 1], pdb78_dual_searcher(db3, stats=stats))
    assert r.length == 31
    assert stats["dual_evals"] > 0 and stats["dual_cuts"] > 0
