"""The 7-8 pattern-database pack code path, checked exactly on boards small enough for CI:
ranking, the builder against a brute-force BFS, incremental index updates along random
walks (4x4 and 3x3), reflection, admissibility, the 4-bit decode, the pack's refusals,
the IDA* inner loop and the solver/CLI wiring.  No real pack is needed."""

from __future__ import annotations

import itertools
import json
import lzma
import random
import struct
from collections import deque

import pytest

np = pytest.importorskip("numpy")

from dbbuild import pack78, pattern  # noqa: E402
from fifteen.board import Board, Shape, tile_squares  # noqa: E402
from fifteen.bounds import (  # noqa: E402
    databases,
    pdb78,
    pdb78_loop,  # noqa: E402
)
from fifteen.bounds.pdb import reflect_board  # noqa: E402
from fifteen.bounds.pdb78 import PDB78, rank, table_size, unrank  # noqa: E402
from fifteen.db import container  # noqa: E402
from fifteen.db.container import AssetError  # noqa: E402
from fifteen.optimal import solve  # noqa: E402
from fifteen.search.ida import ida_star  # noqa: E402

GROUPS_3x3 = [[1, 2, 3, 4], [5, 6, 7, 8]]


# ----------------------------------------------------------------- helpers
def neighbours(rows, cols):
    out = []
    for p in range(rows * cols):
        r, c = divmod(p, cols)
        out.append([q for q, ok in ((p - cols, r > 0), (p + cols, r < rows - 1), (p - 1, c > 0), (p + 1, c < cols - 1)) if ok])
    return out


def goal(rows, cols):
    return list(range(1, rows * cols)) + [0]


def full_bfs(rows, cols):
    """Exact distance to the goal of every solvable position (small boards only)."""
    from fifteen import Shape
    from support.bfs import distances

    return {tuple(k): d for k, d in distances(Shape(rows, cols)).items()}


def brute_entries(rows, cols, tiles):
    """0-1 BFS from the goal over (placement, blank square): group moves cost 1, others 0;
    an entry is the minimum over the blank squares."""
    n = rows * cols
    nb = neighbours(rows, cols)
    k = len(tiles)
    goal_pl = tuple(t - 1 for t in tiles)
    dist = {(goal_pl, n - 1): 0}  # the real goal: blank on square n-1 (its 0-cost region follows)
    dq = deque([(goal_pl, n - 1)])
    while dq:
        pl, b = dq.popleft()
        d = dist[(pl, b)]
        for p in nb[b]:
            if p in pl:
                i = pl.index(p)
                npl = pl[:i] + (b,) + pl[i + 1 :]
                key, nd = (npl, p), d + 1
                if key not in dist or dist[key] > nd:
                    dist[key] = nd
                    dq.append(key)
            else:
                key = (pl, p)
                if key not in dist or dist[key] > d:
                    dist[key] = d
                    dq.appendleft(key)
    best = {}
    for (pl, _b), d in dist.items():
        if pl not in best or d < best[pl]:
            best[pl] = d
    assert len(best) == table_size(n, k)
    return best


@pytest.fixture(scope="module")
def pack3():
    """A 3x3 pack (groups {1..4}, {5..8}) built by the real builder."""
    return pack78.build_pack(3, 3, "44", GROUPS_3x3)


@pytest.fixture(scope="module")
def db3(pack3):
    return PDB78.from_bytes(pack3, name="test-3x3")


@pytest.fixture(scope="module")
def dist3():
    return full_bfs(3, 3)


def fake_4x4():
    """A 4x4 PDB78 without table data: enough for the index arithmetic."""
    meta = {"rows": 4, "cols": 4, "partition": "78", "tables": []}
    off = 0
    for g in pdb78.PARTITIONS["78"]:
        size = table_size(16, len(g))
        meta["tables"].append({"tiles": list(g), "offset": off, "size": size})
        off += size
    return PDB78(meta, b"", name="fake")


# ----------------------------------------------------------------- ranking
def test_rank_is_a_bijection_small():
    n, k = 6, 3
    seen = set()
    for sq in itertools.permutations(range(n), k):
        r = rank(sq, n)
        assert 0 <= r < table_size(n, k)
        assert unrank(r, n, k) == list(sq)
        seen.add(r)
    assert len(seen) == table_size(n, k)


def test_rank_4x4_sizes_and_round_trip():
    assert table_size(16, 7) == 57_657_600 and table_size(16, 8) == 518_918_400
    assert pdb78.radix_weights(16, 3) == [15 * 14, 14, 1]
    rng = random.Random(7)
    for _ in range(500):
        sq = rng.sample(range(16), 8)
        assert unrank(rank(sq, 16), 16, 8) == sq
    assert rank(list(range(16 - 8, 16))[::-1], 16) <= table_size(16, 8) - 1
    assert rank([15, 14, 13, 12, 11, 10, 9, 8], 16) == table_size(16, 8) - 1
    assert rank([0, 1, 2, 3, 4, 5, 6, 7], 16) == 0


# ----------------------------------------------------------------- builder
@pytest.mark.parametrize(
    "rows,cols,tiles",
    [
        (3, 3, [1, 2, 3, 4]),
        (3, 3, [5, 6, 7, 8]),
        (3, 3, [2, 4, 8]),
        (4, 4, [13, 14, 15]),
        (2, 4, [1, 5, 6]),
        (3, 3, [5, 7, 8]),
        (2, 3, [4, 5]),
        (3, 3, [6, 8]),
    ],
)
def test_builder_matches_brute_force(rows, cols, tiles):
    n = rows * cols
    depth = pack78.build_depths(rows, cols, tiles)
    best = brute_entries(rows, cols, tiles)
    for pl, d in best.items():
        assert depth[rank(pl, n)] == d, pl


def test_builder_matches_dense_builder():
    tiles = [1, 2, 5]
    dense = pattern.build_table(4, 4, tiles)
    mine = pack78.build_depths(4, 4, tiles)
    for pl in itertools.permutations(range(16), 3):
        assert mine[rank(pl, 16)] == dense[sum(q << (4 * i) for i, q in enumerate(pl))]


@pytest.mark.parametrize(
    "tiles,changes,steep",
    [([1, 2, 3, 4], [8, 142, 3318, 13224, 3318, 142, 8], 209), ([5, 6, 7, 8], [17, 202, 4177, 11368, 4177, 202, 17], 330)],
)
def test_entry_changes_along_moves(tiles, changes, steep):
    """Along a move of a group tile an entry changes by up to 3 (the blank is minimised over, so
    the table is not consistent): an encoding of the entry mod 3 alone would be wrong
    (bench/pdb78.md, "A compact pack").  The kernel's counts, and the same counted from scratch."""
    entries, _, _ = pack78.build_nibbles(3, 3, tiles)
    hist, marks = pack78.entry_changes(3, 3, tiles, entries)
    assert hist == changes and int(marks.sum()) == steep
    brute = [0] * 7
    steep_brute = set()
    for pl in itertools.permutations(range(9), len(tiles)):
        e = int(entries[rank(pl, 9)])
        for i, a in enumerate(pl):
            for b in (a - 3, a + 3, a - 1 if a % 3 else -1, a + 1 if a % 3 < 2 else -1):
                if 0 <= b < 9 and b not in pl:
                    c = int(entries[rank(pl[:i] + (b,) + pl[i + 1 :], 9)]) - e
                    brute[max(-3, min(3, c)) + 3] += 1
                    if abs(c) > 1:
                        steep_brute.add(rank(pl, 9))
    assert brute == changes and sorted(steep_brute) == np.flatnonzero(marks).tolist()


def test_entries_are_md_plus_twice_nibble(db3):
    for gi, tiles in enumerate(GROUPS_3x3):
        depth = pack78.build_depths(3, 3, tiles)
        off = db3.groups[gi].offset
        for x in range(depth.size):
            pl = unrank(x, 9, 4)
            md = sum(abs(q // 3 - (t - 1) // 3) + abs(q % 3 - (t - 1) % 3) for t, q in zip(tiles, pl, strict=True))
            assert depth[x] == md + 2 * db3.nibble(off + x)


# ----------------------------------------------------------------- values
def test_values_admissible_and_reflection(db3, dist3):
    rng = random.Random(5)
    states = rng.sample(sorted(dist3), 6000)
    exact_hits = 0
    for s in states:
        v, r = db3.value(s), db3.reflected_value(s)
        assert v <= dist3[s] and r <= dist3[s]
        assert (v - dist3[s]) % 2 == 0
        assert r == db3.value(reflect_board(s, 3))
        exact_hits += db3.bound(s) == dist3[s]
    assert exact_hits > 0
    assert db3.value(goal(3, 3)) == 0 == db3.reflected_value(goal(3, 3))


# ----------------------------------------------------------------- incremental indices
@pytest.mark.parametrize("rows", [3, 4])
def test_incremental_indices_equal_from_scratch(rows, db3):
    db = db3 if rows == 3 else fake_4x4()
    n = rows * rows
    nb = neighbours(rows, rows)
    rng = random.Random(11 + rows)
    tiles = goal(rows, rows)
    b = n - 1
    plain, reflected = db.indices(tiles), db.rindices(tiles)
    for _ in range(3000):
        s = rng.choice(nb[b])
        t = tiles[s]
        for lookup, idx in ((db.groups, plain), (db.rgroups, reflected)):
            g, d, contrib, jumped = db.move_row(lookup, t, s, b)
            if contrib is not None:
                d += sum(contrib[tiles[p]] for p in jumped)
            idx[g] += d
        tiles[b], tiles[s] = t, 0
        b = s
        assert plain == db.indices(tiles)
        assert reflected == db.rindices(tiles)


# ----------------------------------------------------------------- 4-bit form and encodings
@pytest.mark.parametrize("encoding", pdb78.ENCODINGS)
def test_encodings_round_trip(encoding):
    rng = random.Random(2)
    for nbytes in (1, 2, 7, 1000):
        packed = bytes(rng.randrange(256) for _ in range(nbytes))
        meta = {"kind": "pdb78", "x": 1}
        data = pdb78.encode_asset(meta, packed, encoding=encoding)
        asset = container.read_asset(data, kind="pdb78")
        assert asset.meta["encoding"] == encoding
        assert pdb78._decode(asset.meta, asset.payload, "t") == packed


def test_nibble_decode(db3):
    x = 5
    byte = db3.data[x >> 1]
    assert db3.nibble(x) == byte >> 4 and db3.nibble(x - 1) == byte & 15


# ----------------------------------------------------------------- refusals
def _rewrite(data: bytes, meta_update=None, drop=None) -> bytes:
    asset = container.read_asset(data)
    meta = dict(asset.meta)
    if meta_update:
        meta.update(meta_update)
    for k in drop or ():
        meta.pop(k, None)
    return container.write_asset(meta, asset.payload)


def test_refusals(pack3):
    pack3 = _rewrite(pack3)  # the container itself (the shipped file is an xz of it: see below)
    with pytest.raises(AssetError, match="truncated"):
        PDB78.from_bytes(pack3[: len(pack3) // 2])
    bad = bytearray(pack3)
    bad[len(bad) // 2] ^= 0x40
    with pytest.raises(AssetError, match="checksum"):
        PDB78.from_bytes(bytes(bad))
    v2 = bytearray(pack3)
    struct.pack_into("<H", v2, 8, 99)
    with pytest.raises(AssetError, match="version 99"):
        PDB78.from_bytes(bytes(v2))
    with pytest.raises(AssetError, match="layout version"):
        PDB78.from_bytes(_rewrite(pack3, {"pdb78_format": 2}))
    with pytest.raises(AssetError, match="partition"):
        PDB78.from_bytes(pack3, partition="78")
    with pytest.raises(AssetError, match="3x3"):
        PDB78.from_bytes(pack3, rows=4, cols=4)
    with pytest.raises(AssetError, match="encoding"):
        PDB78.from_bytes(_rewrite(pack3, {"encoding": "xz"}))
    with pytest.raises(AssetError, match="index"):
        PDB78.from_bytes(_rewrite(pack3, {"index": "dense4"}))
    meta = container.read_asset(pack3).meta
    tabs = [dict(t) for t in meta["tables"]]
    tabs[1]["size"] += 1
    with pytest.raises(AssetError, match="size or offset"):
        PDB78.from_bytes(_rewrite(pack3, {"tables": tabs}))
    tabs = [dict(t) for t in meta["tables"]]
    tabs[1]["tiles"] = [5, 6, 7]
    with pytest.raises(AssetError, match="table 1 has a bad size or offset"):
        PDB78.from_bytes(_rewrite(pack3, {"tables": tabs}))
    with pytest.raises(AssetError, match="'pdb'"):
        PDB78.from_bytes(_rewrite(pack3, {"kind": "pdb"}))
    # a wrong payload length
    asset = container.read_asset(pack3)
    with pytest.raises(AssetError, match="need"):
        PDB78.from_bytes(container.write_asset(asset.meta, asset.payload[:-1]))
    # the 4x4 partition must be the 7-8 one
    fake = {
        "kind": "pdb78",
        "pdb78_format": 1,
        "rows": 4,
        "cols": 4,
        "partition": "78",
        "index": "mixed-radix",
        "encoding": "nibbles",
        "tables": [
            {"tiles": list(range(1, 9)), "offset": 0, "size": table_size(16, 8), "max": 9},
            {"tiles": list(range(9, 16)), "offset": table_size(16, 8), "size": table_size(16, 7), "max": 7},
        ],
    }
    with pytest.raises(AssetError, match="do not match partition"):
        PDB78._check(fake, "x", None, None, None)


# ----------------------------------------------------------------- the shipped .xz form
def test_pack_is_xz_of_a_plain_container(pack3):
    assert pdb78.asset_file() == "pdb-78.f15.xz"
    assert pack3[:6] == container.XZ_MAGIC and container.is_xz(pack3)
    plain = lzma.decompress(pack3)
    assert plain[:8] == container.MAGIC
    flags = struct.unpack_from("<H", plain, 10)[0]
    assert flags & container.FLAG_ZLIB == 0  # xz does the compressing
    assert container.read_meta(pack3) == container.read_meta(plain)
    assert container.container_size(plain) == len(plain)
    asset = container.read_asset(pack3, kind="pdb78")
    assert isinstance(asset.payload, bytearray) and bytes(asset.payload) == container.read_asset(plain).payload
    assert container.unxz(pack3, chunk=333) == plain  # any input/output chunking


def test_take_uses_the_bytearray_in_place(pack3):
    buf = bytearray(lzma.decompress(pack3))
    db = PDB78.from_bytes(buf, take=True)
    assert db.data is buf and len(buf) == db.memory_bytes
    # without take the caller's bytearray is left alone
    buf2 = bytearray(lzma.decompress(pack3))
    db2 = PDB78.from_bytes(buf2)
    assert db2.data is not buf2 and len(buf2) > db2.memory_bytes and buf2[:8] == container.MAGIC
    assert bytes(db.data) == bytes(db2.data)


def test_xz_refusals(pack3):
    with pytest.raises(AssetError, match="truncated"):
        PDB78.from_bytes(pack3[: len(pack3) // 2])
    with pytest.raises(AssetError, match="truncated"):
        PDB78.from_bytes(pack3[:-1])  # only the xz footer is missing
    with pytest.raises(AssetError, match="truncated"):
        PDB78.from_bytes(pack3[:40])
    with pytest.raises(AssetError, match="unexpected bytes"):
        PDB78.from_bytes(pack3 + b"\0\0\0\0")
    bad = bytearray(pack3)
    bad[len(bad) // 2] ^= 0x40
    with pytest.raises(AssetError, match="corrupt|checksum"):
        PDB78.from_bytes(bytes(bad))
    with pytest.raises(AssetError, match="not a valid xz|corrupt"):
        container.read_meta(bytes(pack3[:6]) + b"garbage" * 10)
    # a damaged container inside an intact xz stream: the container's CRC-32 catches it
    inner = bytearray(lzma.decompress(pack3))
    inner[len(inner) // 2] ^= 0x01
    with pytest.raises(AssetError, match="checksum"):
        PDB78.from_bytes(container.write_xz(bytes(inner)))
    # more data than the container's header announces
    with pytest.raises(AssetError, match="more than"):
        PDB78.from_bytes(container.write_xz(bytes(lzma.decompress(pack3)) + b"extra"))
    with pytest.raises(AssetError, match="xz.*Fifteen|bad magic"):
        PDB78.from_bytes(container.write_xz(b"not a container at all, but long enough"))


def test_load_reads_the_xz_file(tmp_path, pack3):
    path = tmp_path / "pdb-78.f15.xz"
    path.write_bytes(pack3)
    db = PDB78.load(path)
    assert db.name == str(path) and db.nibble(0) == PDB78.from_bytes(pack3).nibble(0)
    path.write_bytes(pack3[:-100])
    with pytest.raises(AssetError, match=r"pdb-78\.f15\.xz: truncated"):
        PDB78.load(path)


# ----------------------------------------------------------------- search
def test_searcher_is_optimal_on_3x3(db3, dist3):
    rng = random.Random(9)
    states = rng.sample(sorted(dist3), 40) + [tuple(reflect_board(goal(3, 3), 3))]
    for s in states:
        for reflect in (True, False):
            r = ida_star(Shape(3, 3), list(s), pdb78_loop.pdb78_searcher(db3, reflect=reflect))
            assert r.length == dist3[s], (s, reflect)
            b = list(s)
            blank = b.index(0)
            for p in r.path:
                b[blank], b[p] = b[p], 0
                blank = p
            assert b == goal(3, 3)


def test_reflection_prunes(db3, dist3):
    rng = random.Random(4)
    states = rng.sample(sorted(dist3), 30)
    with_r = sum(ida_star(Shape(3, 3), list(s), pdb78_loop.pdb78_searcher(db3)).nodes for s in states)
    without = sum(ida_star(Shape(3, 3), list(s), pdb78_loop.pdb78_searcher(db3, reflect=False)).nodes for s in states)
    assert with_r < without


# ----------------------------------------------------------------- wiring (assets, solver, CLI)
@pytest.fixture
def registered_3x3_pack(pack3, fresh_assets):
    """The 3x3 pack registered under the name pdb78 (partition renamed), removed afterwards."""
    data = _rewrite(pack3, {"partition": "78"})
    meta = databases.load_asset(data, "pdb-78-3x3.f15")
    assert meta["kind"] == "pdb78"
    return data


def test_solver_uses_the_pack(registered_3x3_pack, dist3):
    from fifteen import bounds

    board = Board.parse("8 6 7 2 5 4 3 0 1")
    assert bounds.resolve_bound(board.shape, "auto").name == "pdb78"
    assert "pdb78" in bounds.available_bounds(board.shape)
    values = bounds.bound_values(board)
    assert values["pdb78"] == max(values["pdb78_plain"], values["pdb78_r"]) <= values["lb"]
    sol = solve(board, "pdb78")
    assert sol.length == dist3[tuple(board.tiles)] == 31


def test_without_the_pack_nothing_changes(fresh_assets, databases_without_pack):
    from fifteen import bounds

    databases.use_directory(databases_without_pack)
    shape = Shape(4, 4)
    assert bounds.available_bounds(shape) == ["auto", "pdb771", "pdb663", "pdb555", "wdid", "wd", "id", "lc", "md"]
    assert bounds.resolve_bound(shape, "auto").name == "pdb771"


def test_cli_accepts_pdb78(tmp_path, pack3, capsys, fresh_assets):
    from fifteen import cli

    data = container.write_xz(_rewrite(pack3, {"partition": "78"}))  # the shipped .xz form
    (tmp_path / "pdb-78.f15.xz").write_bytes(data)
    (tmp_path / "manifest.json").write_text(
        json.dumps(
            {
                "format": 1,
                "assets": [],
                "packs": [{"file": "pdb-78.f15.xz", "kind": "pdb78", "shapes": ["3x3"], "bytes": len(data), "optional": True}],
            }
        )
    )
    rc = cli.main(["solve", "1 2 3 4 5 6 0 7 8", "--db", str(tmp_path), "--bound", "pdb78", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert rc == 0 and out["bound"] == "pdb78" and out["length"] == 2 and "pdb78" in out["bounds"]
    assert databases.pattern_databases["pdb78"].rows == 3  # read lazily from --db


def test_build_db_lists_the_pack_as_optional(tmp_path, pack3):
    from dbbuild import manifest as dbmanifest
    from dbbuild import specs

    assert [s.file for s in specs.ASSETS if s.kind == "pdb78"] == ["pdb-771.f15", "pdb-55554.f15"]  # the defaults, not the pack
    spec = specs.PACKS[0]
    assert spec.kind == "pdb78" and spec.file == "pdb-78.f15.xz" and spec.name == "pdb-78" and spec.matches("pdb78")
    (tmp_path / spec.file).write_bytes(pack3)
    dbmanifest.write_manifest(tmp_path, specs.ASSETS, specs.PACKS)
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert all(e["file"] != spec.file for e in manifest["assets"])  # the default page never fetches it
    (entry,) = [e for e in manifest["packs"] if e["file"] == spec.file]
    assert entry["optional"] is True and entry["bytes"] == len(pack3) and entry["memory_bytes"] == len(container.read_asset(pack3).payload)
    assert entry["compression"] == "xz" and entry["raw_bytes"] == len(lzma.decompress(pack3))
    assert "crc32" not in entry and len(entry["sha256"]) == 64


# ----------------------------------------------------------------- every refusal, word for word
#: A 3x3 database whose first table has an odd size (9 entries of tile 4: the next starts at 10).
ODD_FIRST = [[4], [1, 2, 3], [5, 6, 7, 8]]
#: The same groups with the odd table last: 3,537 entries in all, 1,769 bytes.
ODD_LAST = [[1, 2, 3], [5, 6, 7, 8], [4]]


@pytest.fixture(scope="module")
def odd_packs():
    return {name: pack78.build_pack(3, 3, name, groups, xz=False) for name, groups in (("first", ODD_FIRST), ("last", ODD_LAST))}


def test_odd_sized_tables_load(odd_packs, dist3):
    for name, groups in (("first", ODD_FIRST), ("last", ODD_LAST)):
        db = PDB78.from_bytes(odd_packs[name])
        assert db.name == "pdb78" and [list(g.tiles) for g in db.groups] == groups
        assert [g.offset for g in db.groups] == ([0, 10, 514] if name == "first" else [0, 504, 3528])
        assert len(db.data) == (3538 if name == "first" else 3537 + 1) // 2
        for s in random.Random(1).sample(sorted(dist3), 200):
            assert db.bound(s) == max(db.value(s), db.reflected_value(s)) <= dist3[s]
    asset = container.read_asset(odd_packs["last"])
    with pytest.raises(AssetError) as e:
        PDB78.from_bytes(container.write_asset(asset.meta, asset.payload[:-1]), name="t")
    assert str(e.value) == "t: 1768 bytes of entries, the tables need 1769"


def test_bound_is_the_plain_value_without_reflection():
    db = PDB78.from_bytes(pack78.build_pack(2, 3, "23", [[1, 2], [3, 4, 5]], xz=False))
    assert db.rgroups == ()
    tiles = [4, 1, 2, 5, 3, 0]
    assert db.bound(tiles) == db.value(tiles) > 0
    with pytest.raises(ValueError, match="^reflection needs a square board$"):
        db.reflected_value(tiles)


def test_bound_takes_the_larger_lookup(db3, dist3):
    above = [s for s in sorted(dist3) if db3.reflected_value(s) > db3.value(s)]
    assert above and all(db3.bound(s) == db3.reflected_value(s) for s in above[:50])


def _tables(data):
    return [dict(t) for t in container.read_asset(data).meta["tables"]]


@pytest.mark.parametrize(
    "update, message",
    [
        ({"pdb78_format": 2}, "pattern database layout version 2 is not supported (expected 1); rebuild it with build_db.py"),
        ({"rows": 6, "cols": 2}, "unsupported board 6x2"),
        ({"rows": 2, "cols": 6}, "unsupported board 2x6"),
        ({"rows": 6, "cols": 3}, "unsupported board 6x3"),
        ({"rows": 1, "cols": 3}, "unsupported board 1x3"),
        ({"index": "dense4"}, "unknown index scheme 'dense4'"),
        ({"encoding": "xz"}, "unknown pattern database encoding 'xz'"),
        ({"tables": []}, "no tables"),
        ({"tables": "abc"}, "no tables"),
        ({"tables": [5]}, "table 0 has no tiles"),
        ({"tables": [{"tiles": [], "offset": 0, "size": 1, "max": 0}]}, "table 0 has no tiles"),
        ("max 16", "table 1 has a bad maximum"),
        ("max text", "table 1 has a bad maximum"),
        ("not a partition", "groups [[4], [1, 2, 3], [5, 6, 7]] are not a partition of tiles 1..8"),
    ],
)
def test_refusals_say_exactly_what_is_wrong(odd_packs, update, message):
    data = odd_packs["first"]
    if isinstance(update, str):
        tables = _tables(data)
        if update == "max 16":
            tables[1]["max"] = 16
        elif update == "max text":
            tables[1]["max"] = "7"
        else:
            tables[2]["tiles"] = [5, 6, 7]
            tables[2]["size"] = table_size(9, 3)
        update = {"tables": tables}
    with pytest.raises(AssetError) as e:
        PDB78.from_bytes(_rewrite(data, update), name="db")
    assert str(e.value) == f"db: {message}"


def test_the_largest_maximum_and_the_smallest_boards_load(odd_packs):
    tables = _tables(odd_packs["first"])
    tables[1]["max"] = 15
    assert PDB78.from_bytes(_rewrite(odd_packs["first"], {"tables": tables})).meta["tables"][1]["max"] == 15
    for rows, cols in ((4, 2), (2, 4)):
        n = rows * cols
        db = PDB78.from_bytes(pack78.build_pack(rows, cols, "x", [list(range(1, n // 2)), list(range(n // 2, n))], xz=False))
        assert (db.rows, db.cols) == (rows, cols)


def test_refusals_of_the_expected_layout(odd_packs):
    data = odd_packs["first"]
    with pytest.raises(AssetError) as e:
        PDB78.from_bytes(data, name="db", rows=4)
    assert str(e.value) == "db: is a 3x3 database, expected 4x?"
    with pytest.raises(AssetError) as e:
        PDB78.from_bytes(data, name="db", cols=4)
    assert str(e.value) == "db: is a 3x3 database, expected ?x4"
    with pytest.raises(AssetError) as e:
        PDB78.from_bytes(data, name="db", partition="78")
    assert str(e.value) == "db: holds partition 'first', expected '78'"
    with pytest.raises(AssetError) as e:
        PDB78.from_bytes(_rewrite(data, drop=["tables"]), name="db")
    assert str(e.value) == "db: incomplete pattern database metadata (KeyError('tables'))"


def test_unrank_refuses_an_index_out_of_range():
    with pytest.raises(ValueError, match="^index out of range$"):
        unrank(table_size(9, 3), 9, 3)


def test_encode_asset_forms():
    packed = bytes(random.Random(3).randrange(256) for _ in range(20000))
    meta = {"kind": "pdb78"}
    plain = container.write_asset(dict(meta, encoding="nibbles"), packed, compress=False)
    assert pdb78.encode_asset(meta, packed) == container.write_xz(plain, preset=pdb78.XZ_PRESET)
    assert pdb78.encode_asset(meta, packed, preset=0) == container.write_xz(plain, preset=0) != pdb78.encode_asset(meta, packed)
    for level in (1, 9):
        zlibbed = pdb78.encode_asset(meta, packed, xz=False, level=level)
        assert zlibbed == container.write_asset(dict(meta, encoding="nibbles"), packed, compress=True, level=level)
    assert pdb78.encode_asset(meta, packed, xz=False, level=1) != pdb78.encode_asset(meta, packed, xz=False, level=9)
    with pytest.raises(ValueError, match="^unknown encoding 'planes'$"):
        pdb78.encode_asset(meta, packed, encoding="planes")


def test_move_row_refuses_a_tile_in_no_group(db3):
    with pytest.raises(ValueError, match="^tile 9 is in no group$"):
        db3.move_row(db3.groups, 9, 0, 1)
    assert PDB78(container.read_asset(_rewrite(pack78.build_pack(3, 3, "44", GROUPS_3x3))).meta, b"").name == "pdb78"


def test_a_goal_entry_other_than_0_is_refused(odd_packs):
    asset = container.read_asset(odd_packs["last"])
    db = PDB78.from_bytes(odd_packs["last"])
    x = db.groups[1].index(tile_squares(goal(3, 3)))
    payload = bytearray(asset.payload)
    payload[x >> 1] |= 1 << (4 * (x & 1))
    with pytest.raises(AssetError) as e:
        PDB78.from_bytes(container.write_asset(asset.meta, bytes(payload)), name="db")
    assert str(e.value) == "db: the goal entry of group [5, 6, 7, 8] is not 0" and e.value.code == "asset_corrupt"
