"""The 5-5-5-5-4 pattern database (``pdb55554``, the default bound on 5x5): the builder's
flood-fill path against its region-table path, and the real tables of static/db (``make db``)
checked against BFS near the goal, Korf and Taylor's optima, and optimal solves."""

from __future__ import annotations

import json
import random

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
from fifteen.bounds.manhattan import manhattan  # noqa: E402
from fifteen.bounds.pdb import reflect_board  # noqa: E402
from fifteen.bounds.pdb78 import PDB78, AssetError  # noqa: E402
from fifteen.db import container  # noqa: E402
from fifteen.optimal import solve  # noqa: E402
from support import positions  # noqa: E402
from support.positions import korf_taylor  # noqa: E402

FIVE = Shape(5, 5)


def scramble(steps: int, seed: int) -> Board:
    """The 5x5 goal after *steps* random moves (never undoing the last one)."""
    return positions.scramble(FIVE, steps, seed)


@pytest.fixture(scope="module")
def real55554():
    db = databases.pattern_database("pdb55554", FIVE)
    assert db is not None, "pdb-55554.f15 not built: run `make db`"
    return db


# ----------------------------------------------------------------- the builder's two paths
@pytest.mark.parametrize(
    "rows, cols, tiles, maximum",
    [
        (3, 3, (1, 2, 3), 11),
        (3, 3, (4, 5, 6, 7, 8), 19),
        (3, 4, (5, 6, 9, 10), 16),
        (4, 4, (1, 2, 3, 4), 20),
        (4, 4, (9, 10, 13), 13),
        (4, 4, (12, 15), 11),
    ],
)
def test_flood_fill_gives_the_region_tables_entries(rows, cols, tiles, maximum):
    """Boards of more than 16 squares flood-fill the blank's regions (32-bit masks); forced on
    small boards, that path gives exactly the region table's entries."""
    table = pack78.build_depths(rows, cols, tiles)
    flood = pack78.build_depths(rows, cols, tiles, flood=True)
    assert table.dtype == flood.dtype == np.uint8 and np.array_equal(table, flood)
    assert int(table.max()) == maximum


def test_region_is_the_region_tables_mask():
    from dbbuild.regions import region_table

    reg = region_table(3, 4)
    first, last = pack78._column_masks(3, 4)
    assert (first, last) == (0b000100010001, 0b100010001000)
    rng = random.Random(5)
    for free in rng.sample(range(1 << 12), 300):
        for s in range(12):
            assert pack78._region(s, free, first, last, 4) == reg[s, free], (s, free)


def test_the_builder_refuses_boards_it_cannot_mask():
    with pytest.raises(ValueError, match=r"^a 5x7 board is too big for the builder"):
        pack78.build_depths(5, 7, (1,))
    with pytest.raises(ValueError, match=r"^a 5x5 board is too big for the builder"):
        pack78.build_depths(5, 5, (1,), flood=False)


def test_a_vertical_move_on_5x5_jumps_four_squares(real55554):
    assert pdb78_loop.jump_slots(4) == pdb78_loop.jump_slots(3) == 3 and pdb78_loop.jump_slots(5) == 4
    loop = pdb78_loop.pdb78_loop(True, 4)
    assert loop.name == "pdb78-reflected-j4" and loop.fields == ("s", "row", "st", "j1", "j2", "j3", "j4")
    assert pdb78_loop.pdb78_loop(True) is pdb78_loop.PDB78_REFLECTED_LOOP


# ----------------------------------------------------------------- the real tables
def test_the_real_tables(real55554):
    assert real55554.partition == "55554" and (real55554.rows, real55554.cols) == (5, 5)
    assert [g.tiles for g in real55554.groups] == [tuple(g) for g in pdb78.PARTITIONS["55554"]]
    assert real55554.memory_bytes == 12_903_000  # four 5-tile tables and a 4-tile one, 4 bits each
    assert [t["size"] for t in real55554.meta["tables"]] == [6_375_600] * 4 + [303_600]
    assert [t["max_value"] for t in real55554.meta["tables"]] == MAX_VALUES
    assert [t["max"] for t in real55554.meta["tables"]] == MAX_ENTRIES
    assert pdb78.asset_file("55554") == "pdb-55554.f15"
    (spec,) = [s for s in specs.ASSETS if s.file == "pdb-55554.f15"]
    assert spec.shapes == ("5x5",) and spec.params["xz"] is False and spec.params["rows"] == 5


def test_admissible_near_the_goal(real55554):
    """Every position within 13 moves of the goal (95,458, BFS): both lookups at most the exact
    distance, of its parity; exact on EXACT_NEAR of them."""
    from support.bfs import distances

    exact = 0
    near = distances(FIVE, max_depth=13)
    assert len(near) == 95_458
    for s, d in near.items():
        v, r = real55554.value(s), real55554.reflected_value(s)
        assert v <= d and r <= d and (d - v) % 2 == 0 and (d - r) % 2 == 0, tuple(s)
        exact += max(v, r) == d
    assert exact == EXACT_NEAR


def test_reflected_lookup_is_the_plain_one_on_the_mirror_image(real55554):
    rng = random.Random(7)
    for seed in range(40):
        tiles = list(scramble(rng.randrange(20, 200), seed).tiles)
        assert real55554.reflected_value(tiles) == real55554.value(reflect_board(tiles, 5))


def test_korf_taylor_bounds_at_most_the_optimum(real55554):
    """Both lookups at most the published optimum of each of the ten instances, of its parity
    (MD's); the values are pinned (MD + LC's in the comment)."""
    found = []
    for _, tiles, optimal in korf_taylor():
        v, r = real55554.value(tiles), real55554.reflected_value(tiles)
        md = manhattan(FIVE, tiles)
        assert v <= optimal and r <= optimal and (v - md) % 2 == 0 and (r - md) % 2 == 0
        found.append(max(v, r))
    assert found == KT_BOUNDS  # MD + LC: 80 77 86 74 81 72 80 67 91 86


#: (seed, optimal length, nodes with the tables, their root value) of 60-move scrambles.
SOLVES = [(1, 52, 45677, 44), (3, 44, 3001, 38), (5, 52, 89637, 44), (7, 50, 12205, 40)]


@pytest.mark.parametrize("seed, length, nodes, h0", SOLVES)
def test_optimal_solves_of_scrambles(real55554, seed, length, nodes, h0):
    """60-move scrambles solved with the tables: the optimal length (MD + LC's search finds the
    same; its nodes: 344,914, 171,865, 225,517 and 141,822), the solution replayed, the nodes pinned."""
    board = scramble(60, seed)
    sol = solve(board, "pdb55554")
    assert (sol.length, sol.result.nodes, sol.result.h0) == (length, nodes, h0)
    assert board.solves(sol.result.tiles)


def test_lc_finds_the_same_lengths_on_the_cheap_scrambles():
    for seed, length, _, _ in SOLVES[1::2]:
        assert solve(scramble(60, seed), "lc").length == length


def test_auto_picks_the_tables_on_5x5(databases_without_pack, fresh_assets):
    databases.use_directory(databases_without_pack)
    board = Board(FIVE, tuple(korf_taylor()[0][1]))
    assert resolve_bound(FIVE, "auto").name == "pdb55554"
    assert available_bounds(FIVE) == ["auto", "pdb55554", "id", "lclm", "lc", "md"]
    assert "pdb55554" not in available_bounds(Shape(4, 4))
    values = bound_values(board)
    assert (values["pdb55554"], values["pdb"], values["pdb_r"], values["lc"], values["lb"]) == (82, 82, 82, 80, 82)
    out = bounds_json(board, values)
    assert out["auto"] == "pdb55554" and out["start"]["pdb55554"] == 82 and out["start"]["lc"] == 80


def test_without_the_file_5x5_falls_back_to_lclm(databases_without_pack, fresh_assets, tmp_path):
    manifest = json.loads((databases_without_pack / "manifest.json").read_text())
    manifest["assets"] = [e for e in manifest["assets"] if e["file"] != "pdb-55554.f15"]
    for entry in manifest["assets"]:
        (tmp_path / entry["file"]).symlink_to(databases_without_pack / entry["file"])
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    databases.use_directory(tmp_path)
    assert resolve_bound(FIVE, "auto").name == "lclm"
    assert available_bounds(FIVE) == ["auto", "id", "lclm", "lc", "md"]
    assert resolve_bound(Shape(4, 4), "auto").name == "pdb771"


def test_a_damaged_asset_is_refused(real55554):
    meta = dict(real55554.meta)
    tables = [dict(t) for t in meta["tables"]]
    swapped = dict(meta, tables=[dict(tables[0], tiles=tables[1]["tiles"]), dict(tables[1], tiles=tables[0]["tiles"]), *tables[2:]])
    data = container.write_asset(swapped, bytes(real55554.data), compress=False)
    with pytest.raises(AssetError) as caught:
        PDB78.from_bytes(data, name="swapped")
    assert str(caught.value) == f"swapped: groups do not match partition '55554' {pdb78.PARTITIONS['55554']}"
    short = container.write_asset(meta, bytes(real55554.data[:-1]), compress=False)
    with pytest.raises(AssetError, match=r"^short: 12902999 bytes of entries, the tables need 12903000$"):
        PDB78.from_bytes(short, name="short")


MAX_VALUES = [30, 29, 26, 32, 26]
MAX_ENTRIES = [4, 4, 3, 4, 3]
EXACT_NEAR = 82_014
KT_BOUNDS = [82, 81, 88, 78, 83, 74, 82, 75, 91, 88]
