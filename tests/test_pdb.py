"""Pattern databases: construction (exact on small boards), lookups, reflection,
incremental indices, asset checks (the build cache: tests/test_dbbuild.py)."""

from __future__ import annotations

import json
import random
import re
import struct
import zlib
from collections import deque
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")

from dbbuild import pattern  # noqa: E402
from fifteen.bounds.pdb import (  # noqa: E402
    PARTITIONS,
    PatternDatabase,
    abstract_cost,
    asset_file,
    board_symmetries,
    load_partition,
    plan_groups,
    reflect_board,
)
from fifteen.db import container  # noqa: E402
from fifteen.db.container import AssetError  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
STATIC_DB = ROOT / "static" / "db"


# ----------------------------------------------------------------- helpers
def neighbours(rows, cols):
    out = []
    for p in range(rows * cols):
        r, c = divmod(p, cols)
        out.append([q for q, ok in ((p - cols, r > 0), (p + cols, r < rows - 1), (p - 1, c > 0), (p + 1, c < cols - 1)) if ok])
    return out


def goal(rows, cols):
    n = rows * cols
    return tuple(range(1, n)) + (0,)


def full_bfs(rows, cols):
    """Exact distance to the goal of every solvable position (small boards only)."""
    from fifteen import Shape
    from support.bfs import distances

    return {tuple(k): d for k, d in distances(Shape(rows, cols)).items()}


def abstract_bfs(rows, cols, tiles):
    """Independent 0-1 BFS over (group tile squares, blank square): blank moves
    through a square without a group tile cost 0, group-tile moves cost 1.
    Returns {placement tuple: min over blank squares of the distance}."""
    best = {}
    for (pl, _b), d in abstract_state_distances(rows, cols, tiles).items():
        if d < best.get(pl, 1 << 30):
            best[pl] = d
    return best


def abstract_state_distances(rows, cols, tiles):
    """{(placement, blank square): its distance to the group's goal placement (any blank)}
    by the 0-1 BFS of :func:`abstract_bfs`, from the goal placement with every blank."""
    n = rows * cols
    nb = neighbours(rows, cols)
    start_pl = tuple(t - 1 for t in tiles)
    dist = {}
    dq = deque()
    for b in range(n):
        if b not in start_pl:
            dist[(start_pl, b)] = 0
            dq.append((0, start_pl, b))
    while dq:
        d, pl, b = dq.popleft()
        if dist[(pl, b)] != d:
            continue
        for p in nb[b]:
            if p in pl:
                i = pl.index(p)
                npl = pl[:i] + (b,) + pl[i + 1 :]
                nd = d + 1
            else:
                npl, nd = pl, d
            key = (npl, p)
            if nd < dist.get(key, 1 << 30):
                dist[key] = nd
                if nd == d:
                    dq.appendleft((nd, npl, p))
                else:
                    dq.append((nd, npl, p))
    return dist


def random_position(rng, rows, cols, moves=400):
    nb = neighbours(rows, cols)
    s = list(goal(rows, cols))
    b = rows * cols - 1
    for _ in range(moves):
        p = rng.choice(nb[b])
        s[b], s[p] = s[p], 0
        b = p
    return s


@pytest.fixture(scope="module")
def dist3():
    d = full_bfs(3, 3)
    assert len(d) == 181440
    return d


@pytest.fixture(scope="module")
def pdb3():
    data = pattern.build_pdb_asset(3, 3, "44", [(1, 2, 3, 4), (5, 6, 7, 8)])
    return data, PatternDatabase.from_bytes(data, name="pdb-44-3x3")


SMALL_4x4_GROUPS = [(1, 2, 5), (3, 4, 8), (6, 9, 10), (7, 11, 12), (13, 14, 15)]


@pytest.fixture(scope="module")
def pdb4small():
    data = pattern.build_pdb_asset(4, 4, "33333", SMALL_4x4_GROUPS)
    return PatternDatabase.from_bytes(data, name="pdb-33333")


def real_assets():
    out = []
    for part in PARTITIONS:
        p = STATIC_DB / asset_file(part)
        if p.exists():
            out.append(pytest.param(part, id=part))
    return out


@pytest.fixture(
    scope="module", params=real_assets() or [pytest.param(None, marks=pytest.mark.skip("static/db has no PDB assets (make db)"))]
)
def pdb_real(request):
    part = request.param
    return PatternDatabase.load(STATIC_DB / asset_file(part), partition=part)


# ----------------------------------------------------------------- construction
@pytest.mark.parametrize(
    "rows,cols,tiles",
    [
        (3, 3, (1, 2, 3, 4)),
        (3, 3, (5, 6, 7, 8)),
        (3, 3, (8, 2, 6)),
        (4, 4, (13, 14, 15)),
        (4, 4, (1, 2, 5)),
        (2, 3, (1, 2, 5)),
        (3, 4, (7, 11, 4)),
    ],
)
def test_table_exact_on_abstraction(rows, cols, tiles):
    table = pattern.build_table(rows, cols, tiles)
    best = abstract_bfs(rows, cols, tiles)
    k = len(tiles)
    assert table.size == 16**k
    seen = np.zeros(table.size, dtype=bool)
    for pl, d in best.items():
        idx = sum(q << (4 * i) for i, q in enumerate(pl))
        assert table[idx] == d, (pl, d, table[idx])
        seen[idx] = True
    assert not table[~seen].any(), "impossible placements must hold 0"


def test_3x3_admissible_everywhere(dist3, pdb3):
    _, db = pdb3
    worse = 0
    for pos, d in dist3.items():
        v = db.value(pos)
        r = db.reflected_value(pos)
        assert v <= d and r <= d, (pos, v, r, d)
        worse += v < d
    assert db.value(goal(3, 3)) == 0
    assert worse > 0  # sanity: not exact everywhere


def test_3x3_each_group_admissible_and_covered(dist3, pdb3):
    """Per group: entry <= distance of every position with that placement, and
    every placement of the group occurs among the solvable positions."""
    _, db = pdb3
    for g in db.groups:
        lowest = {}
        for pos, d in dist3.items():
            p = [0] * 9
            for sq, t in enumerate(pos):
                p[t] = sq
            idx = g.index(p)
            lowest[idx] = min(d, lowest.get(idx, 99))
        assert len(lowest) == 9 * 8 * 7 * 6
        assert all(db.data[i] <= d for i, d in lowest.items())
        assert all(g.table[i - g.offset] == db.data[i] for i in lowest)


# ----------------------------------------------------------------- dual lookups
def _naive_dual_value(db, pos) -> int:
    """The PDB value of the plain inverse permutation (the blank labelled by the last square)."""
    n = len(pos)
    label = [t - 1 if t else n - 1 for t in pos]
    inverse = [0] * n
    for sq, lab in enumerate(label):
        inverse[lab] = sq
    dual = [0 if inverse[q] == n - 1 else inverse[q] + 1 for q in range(n)]
    return db.value(dual)


def test_dual_admissible_on_every_3x3_position(dist3, pdb3):
    """The dual lookups (plain and reflected, corrected for the blank off its goal square) never
    exceed the exact distance; they rise above max(PDB, PDBr) on 14,422 of the 181,440
    positions.  The plain inverse would overestimate 8,911, every one with the blank off its
    goal square (where the dual is exact, it is admissible as is)."""
    _, db = pdb3
    above = naive_over = 0
    for pos, d in dist3.items():
        v = db.dual_value(pos)
        assert v <= d, (pos, v, d)
        above += v > db.bound(pos)
        naive = _naive_dual_value(db, pos)
        naive_over += naive > d
        if pos[-1] == 0:
            assert naive <= d and v >= naive, pos
    assert (above, naive_over) == (14422, 8911)
    assert db.dual_value(goal(3, 3)) == 0


def test_dual_admissible_on_every_2x4_position(small_pdbs):
    """A non-square board: the plain lookup's dual only."""
    from fifteen import Shape
    from support.bfs import distances

    db = small_pdbs["2x4"]
    above = 0
    for pos, d in distances(Shape(2, 4)).items():
        v = db.dual_value(pos)
        assert v <= d, (pos, v, d)
        above += v > db.value(pos)
    assert above == 3072


def test_abstract_cost_is_the_exact_cost_from_a_placement_and_blank(pdb3):
    """``abstract_cost`` against the independent 0-1 BFS, on the 3x3 test database's group
    1-4: every (placement, blank) whose cost exceeds the placement's entry (the blank in a
    worse region than the best one: the search must deepen past the entry), and a sample of
    the others."""
    _, db = pdb3
    g = db.groups[0]
    assert g.tiles == (1, 2, 3, 4)
    dist = abstract_state_distances(3, 3, g.tiles)
    entries = abstract_bfs(3, 3, g.tiles)
    near = neighbours(3, 3)
    deeper = sorted(k for k, d in dist.items() if d > entries[k[0]])
    assert (len(dist), len(deeper)) == (15120, 2009)
    assert max(dist[k] - entries[k[0]] for k in deeper) == 6
    rng = random.Random(4)
    chosen = rng.sample(deeper, 150) + rng.sample(sorted(set(dist) - set(deeper)), 50)
    for placement, blank in chosen:
        assert abstract_cost(db.data, g, near, placement, blank) == dist[placement, blank], (placement, blank)


def test_dual_lookups_of_the_reflection_need_a_square_board(small_pdbs):
    db = small_pdbs["2x4"]
    assert db.dual_tables(False, 0).groups == len(db.groups)
    with pytest.raises(ValueError, match=r"^reflection needs a square board$"):
        db.dual_tables(True, 0)


def test_dual_corrections_of_the_663_database(real_pdbs):
    """``c`` per blank square: the cost, in the abstract space of the group of tile p+1, of
    bringing that tile back from the last square (pinned: they are exact BFS results)."""
    db = real_pdbs["pdb663"]
    assert db.dual_tables(False, 0).correction == (14, 7, 10, 13, 11, 6, 7, 8, 8, 3, 6, 1, 7, 4, 1, 0)
    assert db.dual_tables(True, 0).correction == (14, 11, 8, 7, 7, 6, 3, 4, 10, 7, 6, 1, 13, 8, 1, 0)


def _dual_walk_check(db, rows, cols, steps, seed):
    """The dual slots moved by each move's row (as the loop moves them) equal the slots computed
    from scratch, and their value the reference dual value, along a random walk."""
    from fifteen.bounds.pdb_loop import _dual_row

    n, k = rows * cols, len(db.groups)
    tabs = (db.dual_tables(False, 0), db.dual_tables(True, k + 1))
    near = neighbours(rows, cols)
    rng = random.Random(seed)
    board, b = list(goal(rows, cols)), n - 1
    slots = tabs[0].slots(board) + tabs[1].slots(board)
    assert len(slots) == 2 * k + 2 and slots[k] == slots[-1] == 0  # each lookup's dummy slot: 0, and stays 0
    for _ in range(steps):
        a = rng.choice(near[b])
        t = board[a]
        hb, wb, eb, ha, wa, ea, _, qb, vb, fb, qa, va, fa, _ = _dual_row(db, tabs, t, a, b)
        x = board[n - 1] if b != n - 1 else rng.randrange(n)  # the loop reads a stale square there
        slots[hb] += wb - eb[x]
        slots[ha] += ea[x] - wa
        slots[qb] += vb - fb[x]
        slots[qa] += fa[x] - va
        board[b], board[a], b = t, 0, a
        assert slots == tabs[0].slots(board) + tabs[1].slots(board)
        assert max(tabs[0].value(db.data, slots[: k + 1], b), tabs[1].value(db.data, slots[k + 1 :], b)) == db.dual_value(board)


def test_dual_slots_follow_moves_3x3(pdb3):
    _dual_walk_check(pdb3[1], 3, 3, 3000, 7)


def test_dual_slots_follow_moves_real(pdb_real):
    _dual_walk_check(pdb_real, 4, 4, 3000, 8)


def test_mirror_groups_share_tables():
    # 4x4: (3,4,8) is the left-right mirror of (1,2,5); they must share one table
    # and give exactly the directly built table's values.
    tables, groups = plan_groups(4, 4, [(1, 2, 5), (3, 4, 8)])
    assert len(tables) == 1 and groups[1]["table"] == 0
    direct = pattern.build_table(4, 4, groups[1]["tiles"])
    shared = pattern.build_table(4, 4, tables[0]["tiles"])
    smap = groups[1]["smap"]
    n = 16
    for a in range(n):
        for b in range(n):
            for c in range(n):
                if len({a, b, c}) < 3:
                    continue
                di = a | b << 4 | c << 8
                si = smap[a] | smap[b] << 4 | smap[c] << 8
                assert direct[di] == shared[si]
    tables, groups = plan_groups(4, 4, PARTITIONS["663"])
    assert len(tables) == 2
    tables, groups = plan_groups(4, 4, PARTITIONS["555"])
    assert len(tables) == 2


def test_a_table_is_shared_past_one_of_another_size():
    """A group is matched against every earlier table, not only up to the first of another size;
    its square map is the inverse of the symmetry that maps the table's goals onto its own."""
    tables, groups = plan_groups(3, 3, [(1,), (2, 3), (4, 7)])
    assert tables == [{"tiles": [1]}, {"tiles": [2, 3]}]
    transpose = (0, 3, 6, 1, 4, 7, 2, 5, 8)  # its own inverse
    assert groups[2] == {"tiles": [4, 7], "table": 1, "smap": list(transpose)}
    tables, groups = plan_groups(3, 3, [(2, 3), (6, 9)])
    rotate = (2, 5, 8, 1, 4, 7, 0, 3, 6)  # squares' images turning the board a quarter clockwise
    assert groups[1]["smap"] == sorted(range(9), key=rotate.__getitem__) != list(rotate)
    assert groups[1]["tiles"] == [6, 9]


def test_partitions_not_self_mapped_by_transpose():
    from fifteen.board import tile_mirrors

    tt = tile_mirrors(4)
    for name, groups in PARTITIONS.items():
        mapped = sorted(sorted(tt[x] for x in g) for g in groups)
        assert mapped != sorted(sorted(g) for g in groups), name


def test_symmetries():
    assert len(board_symmetries(4, 4)) == 8
    assert len(board_symmetries(3, 4)) == 4
    for sym in board_symmetries(3, 4):
        assert sorted(sym) == list(range(12))


# ----------------------------------------------------------------- reflection
def test_reflect_board():
    g = list(goal(4, 4))
    assert reflect_board(g, 4) == g
    transposed_goal = [1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15, 4, 8, 12, 0]
    # the transposed goal is its own reflection
    assert reflect_board(transposed_goal, 4) == transposed_goal
    rng = random.Random(1)
    for _ in range(50):
        s = random_position(rng, 4, 4)
        assert reflect_board(reflect_board(s, 4), 4) == s
        # tile t on square (r, c) becomes tile_mirrors[t] on square (c, r)
        from fifteen.board import tile_mirrors

        r = reflect_board(s, 4)
        assert all(r[(p % 4) * 4 + p // 4] == tile_mirrors(4)[t] for p, t in enumerate(s))
    assert tile_mirrors(4) == (0, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15, 4, 8, 12)


def test_reflected_lookup_equals_transposed_lookup_small(pdb4small):
    db = pdb4small
    rng = random.Random(2)
    diff = 0
    for _ in range(300):
        s = random_position(rng, 4, 4)
        r = db.reflect(s)
        assert db.reflected_value(s) == db.value(r)
        assert db.reflected_value(r) == db.value(s)
        assert db.bound(s) == max(db.value(s), db.value(r))
        diff += db.value(s) != db.value(r)
    assert diff > 0


def test_reflected_lookup_equals_transposed_lookup_real(pdb_real):
    db = pdb_real
    rng = random.Random(3)
    for _ in range(300):
        s = random_position(rng, 4, 4)
        assert db.reflected_value(s) == db.value(db.reflect(s))
    assert db.value(goal(4, 4)) == 0 and db.bound(goal(4, 4)) == 0
    tg = [1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15, 4, 8, 12, 0]
    assert db.value(tg) == db.reflected_value(tg) <= 72


def test_real_asset_admissible_on_short_walks(pdb_real):
    """A position k random moves from the goal is at most k moves away."""
    db = pdb_real
    rng = random.Random(4)
    nb = neighbours(4, 4)
    for _ in range(200):
        s = list(goal(4, 4))
        b = 15
        k = rng.randrange(1, 40)
        for _ in range(k):
            p = rng.choice(nb[b])
            s[b], s[p] = s[p], 0
            b = p
        assert db.bound(s) <= k


# ----------------------------------------------------------------- incremental
def _walk_check(db, rows, cols, steps, seed):
    rng = random.Random(seed)
    nb = neighbours(rows, cols)
    n = rows * cols
    s = random_position(rng, rows, cols)
    b = s.index(0)
    idx = db.indices(s)
    ridx = db.rindices(s) if db.rgroups else []
    prev = -1
    for _ in range(steps):
        choices = [p for p in nb[b] if p != prev] or nb[b]
        p = rng.choice(choices)
        t = s[p]
        # tile t moves from square p to square b
        idx[db.group_of[t]] += db.delta[t][p * n + b]
        if db.rgroups:
            ridx[db.rgroup_of[t]] += db.rdelta[t][p * n + b]
        before = (db.value(s), db.reflected_value(s) if db.rgroups else 0)
        s[b], s[p] = t, 0
        prev, b = b, p
        assert (db.value(s) - before[0]) % 2 == 1  # each move changes the sum by an odd amount
        if db.rgroups:
            assert (db.reflected_value(s) - before[1]) % 2 == 1
        assert idx == db.indices(s)
        assert sum(db.data[i] for i in idx) == db.value(s)
        if db.rgroups:
            assert ridx == db.rindices(s)
            assert sum(db.data[i] for i in ridx) == db.reflected_value(s)
        # weights agree with the indices
        for gi, g in enumerate(db.groups):
            assert g.offset + sum(db.weight[t][s.index(t)] for t in g.tiles) == idx[gi]


def test_incremental_3x3(pdb3):
    _walk_check(pdb3[1], 3, 3, 500, 5)


def test_incremental_4x4(pdb4small):
    _walk_check(pdb4small, 4, 4, 500, 6)


def test_incremental_real(pdb_real):
    _walk_check(pdb_real, 4, 4, 300, 7)


def test_a_fresh_load_exposes_its_tables(pdb3):
    """The loaded object as the module docstring describes it (loaded here, in the test, so a
    mutation tool sees which test covers the constructor)."""
    data, _ = pdb3
    asset = container.read_asset(data)
    db = PatternDatabase.from_bytes(data)
    assert db.name == "pdb" and db.meta == asset.meta and db.partition == "44" and (db.rows, db.cols, db.n) == (3, 3, 9)
    payload = bytes(asset.payload)
    assert PatternDatabase(asset.meta, payload).data is payload  # never copied
    from_array = PatternDatabase(asset.meta, bytearray(payload)).data
    assert type(from_array) is bytes and from_array == payload
    assert [bytes(t) for t in db.tables] == [payload[: 16**4], payload[16**4 :]]
    for groups in (db.groups, db.rgroups):
        assert [(g.table_id, g.offset, g.size) for g in groups] == [(0, 0, 16**4), (1, 16**4, 16**4)]
        assert [bytes(g.table) for g in groups] == [bytes(t) for t in db.tables]
    assert [g.tiles for g in db.rgroups] == [(1, 4, 7, 2), (5, 8, 3, 6)]
    # The blank belongs to no group and moves no index.
    assert db.group_of == (-1, 0, 0, 0, 0, 1, 1, 1, 1) and db.rgroup_of == (-1, 0, 0, 1, 0, 1, 1, 0, 1)
    for weight, delta in ((db.weight, db.delta), (db.rweight, db.rdelta)):
        assert weight[0] == (0,) * 9 and delta[0] == (0,) * 81
    assert db.weight[2] == tuple(q << 4 for q in range(9))  # second of its group, on an unmapped square
    _walk_check(db, 3, 3, 50, 3)
    with pytest.raises(AssetError, match=r"^pdb: "):
        PatternDatabase.from_bytes(data[:-1])


def test_group_of(pdb4small):
    db = pdb4small
    assert db.group_of[0] == -1 and db.rgroup_of[0] == -1
    for t in range(1, 16):
        assert t in db.groups[db.group_of[t]].tiles
        assert t in db.rgroups[db.rgroup_of[t]].tiles


# ----------------------------------------------------------------- asset checks
def _rewrite(data: bytes, *, meta_fn=None, payload_fn=None, version=None) -> bytes:
    """Re-serialise an asset with a changed meta/payload/version (valid checksum)."""
    asset = container.read_asset(data)
    meta = json.loads(json.dumps(asset.meta))
    payload = asset.payload
    if meta_fn:
        meta = meta_fn(meta) or meta
    if payload_fn:
        payload = payload_fn(payload)
    out = bytearray(container.write_asset(meta, payload))
    if version is not None:
        struct.pack_into("<H", out, 8, version)
        struct.pack_into("<I", out, len(out) - 4, zlib.crc32(bytes(out[:-4])))
    return bytes(out)


def test_refuses_truncated(pdb3):
    data, _ = pdb3
    for cut in (10, len(data) // 2, len(data) - 1):
        with pytest.raises(AssetError, match="truncated"):
            PatternDatabase.from_bytes(data[:cut], name="x.f15")


def test_refuses_corrupt(pdb3):
    data, _ = pdb3
    bad = bytearray(data)
    bad[len(bad) // 2] ^= 0x40
    with pytest.raises(AssetError, match="checksum"):
        PatternDatabase.from_bytes(bytes(bad))
    with pytest.raises(AssetError, match="magic"):
        PatternDatabase.from_bytes(b"NOTFIFTN" + data[8:])


def test_refuses_wrong_version(pdb3):
    data, _ = pdb3
    with pytest.raises(AssetError, match="version 2"):
        PatternDatabase.from_bytes(_rewrite(data, version=2))

    def newer(m):
        m["pdb_format"] = 99

    with pytest.raises(AssetError, match="PDB layout version 99"):
        PatternDatabase.from_bytes(_rewrite(data, meta_fn=newer))


def test_refuses_wrong_kind_shape_partition(pdb3):
    data, _ = pdb3
    with pytest.raises(AssetError, match="expected '663'"):
        PatternDatabase.from_bytes(data, partition="663")
    with pytest.raises(AssetError, match="expected 4x4"):
        PatternDatabase.from_bytes(data, rows=4, cols=4)
    wd = container.write_asset({"kind": "wd", "rows": 3, "cols": 3}, b"xx")
    with pytest.raises(AssetError, match="expected 'pdb'"):
        PatternDatabase.from_bytes(wd)

    def not_a_partition(m):
        m["groups"][0]["tiles"] = [1, 2, 3, 5]

    with pytest.raises(AssetError, match="not a partition"):
        PatternDatabase.from_bytes(_rewrite(data, meta_fn=not_a_partition))

    def bad_smap(m):
        m["groups"][1]["smap"] = [1, 0] + list(range(2, 9))

    with pytest.raises(AssetError, match="square map"):
        PatternDatabase.from_bytes(_rewrite(data, meta_fn=bad_smap))

    def claims_663(m):
        m.update(rows=4, cols=4, partition="663")

    with pytest.raises(AssetError, match=r"groups \[\[1, 2, 3, 4\], \[5, 6, 7, 8\]\] are not a partition of tiles 1\.\.15"):
        PatternDatabase.from_bytes(_rewrite(data, meta_fn=claims_663))


def test_refuses_bad_tables(pdb3):
    data, _ = pdb3
    with pytest.raises(AssetError, match="payload is"):
        PatternDatabase.from_bytes(_rewrite(data, payload_fn=lambda p: p[:-1]))

    def bad_size(m):
        m["tables"][0]["size"] = 100

    with pytest.raises(AssetError, match="bad size"):
        PatternDatabase.from_bytes(_rewrite(data, meta_fn=bad_size))
    gi = 0 | 1 << 4 | 2 << 8 | 3 << 12  # goal index of table (1, 2, 3, 4)
    with pytest.raises(AssetError, match="goal entry"):
        PatternDatabase.from_bytes(_rewrite(data, payload_fn=lambda p: p[:gi] + b"\x07" + p[gi + 1 :]))


def test_real_asset_partition_mismatch(pdb_real):
    other = {"663": "555", "555": "663"}[pdb_real.partition]
    data = (STATIC_DB / asset_file(pdb_real.partition)).read_bytes()
    with pytest.raises(AssetError, match=f"expected '{other}'"):
        PatternDatabase.from_bytes(data, partition=other)


def test_real_asset_memory(pdb_real):
    if pdb_real.partition == "663":
        assert pdb_real.memory_bytes() <= 17 * 2**20
        assert (STATIC_DB / "pdb-663.f15").stat().st_size <= 4 * 10**6


# ----------------------------------------------------------------- search (fifteen.bounds.pdb_loop)
def _pdb_solve(db, tiles, reflect=True):
    from fifteen import Board, Shape
    from fifteen.bounds.pdb_loop import pdb_searcher
    from fifteen.search.ida import ida_star

    shape = Shape(db.rows, db.cols)
    res = ida_star(shape, tiles, pdb_searcher(db, reflect=reflect))
    assert Board(shape, tuple(tiles)).solves(res.tiles)
    return res


def test_pdb_search_3x3_optimal(dist3, pdb3):
    _, db = pdb3
    rng = random.Random(8)
    positions = rng.sample(sorted(dist3), 60)
    for pos in positions:
        for refl in (True, False):
            res = _pdb_solve(db, pos, reflect=refl)
            assert res.length == dist3[pos]
            assert res.h0 <= dist3[pos]


def test_pdb_search_4x4_real(pdb_real):
    """Optimal lengths on easy Korf instances and random positions; every bound
    along the way is admissible (never above the optimal length found)."""
    db = pdb_real
    from instances import korf100

    cases = [(list(k.tiles), k.optimal) for k in korf100() if k.id in ("2", "9")]
    rng = random.Random(9)
    for _ in range(6):
        s = random_position(rng, 4, 4, moves=rng.randrange(20, 40))
        cases.append((s, None))
    for tiles, opt in cases:
        res = _pdb_solve(db, tiles)
        if opt is not None:
            assert res.length == opt
        assert db.bound(tiles) == res.h0 <= res.length
        # admissible on every position of the optimal path
        s = list(tiles)
        b = s.index(0)
        for k, p in enumerate(res.path):
            s[b], s[p] = s[p], 0
            b = p
            assert db.bound(s) <= res.length - k - 1


def test_load_names_the_file_and_passes_the_checks(tmp_path, pdb3):
    """``load`` names the database after its file unless told otherwise, and forwards the
    expected partition and shape; ``load_partition`` reads ``pdb-<partition>.f15``."""
    data, _ = pdb3
    path = tmp_path / asset_file("44")
    path.write_bytes(data)
    db = PatternDatabase.load(path)
    assert db.name == str(path) and db.value([8, 6, 7, 2, 5, 4, 3, 0, 1]) == pdb3[1].value([8, 6, 7, 2, 5, 4, 3, 0, 1])
    assert PatternDatabase.load(path, name="mine").name == "mine"
    with pytest.raises(AssetError, match=f"^{re.escape(str(path))}: holds partition '44', expected '663'$"):
        PatternDatabase.load(path, partition="663")
    assert load_partition(tmp_path, "44").name == str(path)
    with pytest.raises(AssetError, match=r"pdb-555\.f15: holds partition '44', expected '555'$"):
        (tmp_path / asset_file("555")).write_bytes(data)
        load_partition(tmp_path, "555")


def test_reflection_needs_a_square_board(small_pdbs):
    db = small_pdbs["2x4"]
    with pytest.raises(ValueError, match="^reflection needs a square board$"):
        db.reflect([1, 2, 3, 4, 5, 6, 7, 0])
    with pytest.raises(ValueError, match="^reflection needs a square board$"):
        db.reflected_value([1, 2, 3, 4, 5, 6, 7, 0])
    assert db.bound([1, 2, 3, 4, 5, 6, 0, 7]) == db.value([1, 2, 3, 4, 5, 6, 0, 7]) == 1


def _meta_change(path: str, value):
    """A meta_fn setting (or, with value ..., deleting) the key at *path* ("groups.0.table")."""

    def change(m):
        keys = [int(k) if k.isdigit() else k for k in path.split(".")]
        target = m
        for k in keys[:-1]:
            target = target[k]
        if value is ...:
            del target[keys[-1]]
        else:
            target[keys[-1]] = value

    return change


@pytest.mark.parametrize(
    "path, value, message",
    [
        ("tables", ..., "incomplete PDB metadata (KeyError('tables'))"),
        ("groups", ..., "incomplete PDB metadata (KeyError('groups'))"),
        ("index", "dense5", "unknown index scheme"),
        ("invalid", 1, "unknown index scheme"),
        ("tables", [], "no groups or tables"),
        ("groups", {}, "no groups or tables"),
        ("groups.1.tiles", [5, 6, 7], "groups [[1, 2, 3, 4], [5, 6, 7]] are not a partition of tiles 1..8"),
        ("tables.0.size", 16**4 + 1, "table 0 has a bad size or offset"),
        ("tables.1.offset", 1, "table 1 has a bad size or offset"),
        ("tables.0.tiles", [], "table 0 has a bad size or offset"),
        ("groups.1.table", 2, "group 1 names no table"),
        ("groups.1.table", -1, "group 1 names no table"),
        ("groups.0.table", "0", "group 0 names no table"),
        ("groups.0.smap", [0, 1, 2, 3, 4, 5, 6, 7, 7], "group 0: square map is not a permutation"),
        ("groups.0.smap", [1, 0, 2, 3, 4, 5, 6, 7, 8], "group 0: square map is not a board symmetry"),
        ("groups.0.smap", [2, 1, 0, 5, 4, 3, 8, 7, 6], "group 0: square map does not take its goals onto table 0's"),
        ("groups.1.table", 0, "group 1: square map does not take its goals onto table 0's"),
        ("groups.1.tiles", ..., "groups [[1, 2, 3, 4], None] are not a partition of tiles 1..8"),
        ("groups.0.smap", ..., "group 0: square map is not a permutation"),
        ("partition", "663", None),  # a 4x4 partition's name on a 3x3 asset: its groups are not checked against it
    ],
)
def test_each_metadata_fault_is_refused_with_its_message(pdb3, path, value, message):
    """Every check of PatternDatabase._check, each with its exact message (the file's name first)."""
    data, _ = pdb3
    changed = _rewrite(data, meta_fn=_meta_change(path, value))
    if message is None:
        PatternDatabase.from_bytes(changed, name="pdb-44-3x3")
        return
    with pytest.raises(AssetError) as caught:
        PatternDatabase.from_bytes(changed, name="pdb-44-3x3")
    assert str(caught.value) == f"pdb-44-3x3: {message}"


def test_a_group_and_its_table_must_hold_as_many_tiles(pdb3):
    data, _ = pdb3

    def three_tile_table(meta):
        meta["tables"][1] = {**meta["tables"][1], "tiles": [5, 6, 7], "size": 16**3}

    changed = _rewrite(data, meta_fn=three_tile_table, payload_fn=lambda p: p[: 16**4 + 16**3])
    with pytest.raises(AssetError, match=r"^pdb-44-3x3: group 1 has 4 tiles, its table 3$"):
        PatternDatabase.from_bytes(changed, name="pdb-44-3x3")


def test_a_4x4_partition_name_must_match_its_groups():
    data = pattern.build_pdb_asset(4, 4, "33333", SMALL_4x4_GROUPS)
    renamed = _rewrite(data, meta_fn=_meta_change("partition", "555"))
    with pytest.raises(AssetError) as caught:
        PatternDatabase.from_bytes(renamed, name="small")
    assert str(caught.value) == f"small: groups do not match partition '555' {PARTITIONS['555']}"


@pytest.mark.parametrize("rows, cols, accepted", [(1, 2, True), (2, 1, True), (2, 8, True), (1, 17, False)])
def test_boards_of_2_to_16_squares_are_supported(rows, cols, accepted):
    """The size limits of a PDB's board, at their edges: one row or one column, 2 and 16 squares."""
    n = rows * cols
    threes = [tuple(range(t, t + 3)) for t in range(1, 16, 3)]
    if accepted:
        data = pattern.build_pdb_asset(rows, cols, "1", [tuple(range(1, n))] if n < 3 else threes)
        db = PatternDatabase.from_bytes(data, name="line")
        assert (db.rows, db.cols) == (rows, cols) and db.value(list(range(1, n)) + [0]) == 0
    else:
        data = pattern.build_pdb_asset(2, 8, "1", threes)
        wide = _rewrite(data, meta_fn=lambda m: {**m, "rows": rows, "cols": cols})
        with pytest.raises(AssetError, match=r"^line: unsupported board 1x17$"):
            PatternDatabase.from_bytes(wide, name="line")


@pytest.mark.parametrize(
    "path, value, expect, message",
    [
        ("rows", ..., {}, "incomplete PDB metadata (KeyError('rows'))"),
        ("partition", ..., {}, "incomplete PDB metadata (KeyError('partition'))"),
        ("cols", "x", {}, "incomplete PDB metadata (ValueError(\"invalid literal for int() with base 10: 'x'\"))"),
        ("rows", 3, {"rows": 4}, "is a 3x3 database, expected 4x?"),
        ("rows", 3, {"cols": 4}, "is a 3x3 database, expected ?x4"),
        ("rows", 3, {"rows": 3, "cols": 4}, "is a 3x3 database, expected 3x4"),
        ("rows", 3, {"partition": "333"}, "holds partition '44', expected '333'"),
        ("cols", 17, {}, "unsupported board 3x17"),
        ("rows", 0, {}, "unsupported board 0x3"),
    ],
)
def test_layout_faults_are_refused_with_their_message(pdb3, path, value, expect, message):
    """The shape and partition checks (check_layout_meta, PatternDatabase._check), exact messages."""
    data, _ = pdb3
    with pytest.raises(AssetError) as caught:
        PatternDatabase.from_bytes(_rewrite(data, meta_fn=_meta_change(path, value)), name="pdb-44-3x3", **expect)
    assert str(caught.value) == f"pdb-44-3x3: {message}"


def test_a_one_row_board_of_the_same_squares_is_a_valid_layout(pdb3):
    """1x9 holds the 3x3 tables' tiles and squares as well: the size checks let it through (r = 1 allowed)."""
    data, _ = pdb3
    db = PatternDatabase.from_bytes(_rewrite(data, meta_fn=lambda m: m.update(rows=1, cols=9)), name="pdb-44-1x9")
    assert (db.rows, db.cols, db.n) == (1, 9, 9)
