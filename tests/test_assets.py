"""The asset registry: the databases are read lazily, once, from the right directory; the
browser's path (bytes handed over, no directory) reads nothing; errors have one hierarchy."""

from __future__ import annotations

import json
import shutil

import pytest

from fifteen import AssetError, Board, FifteenError, InputError, api, assets, bound_values, solve, walking
from fifteen.board import Shape
from fifteen.solver import available_bounds, resolve_bound
from support.instances import korf100

TRANSPOSED = "1 5 9 13 2 6 10 14 3 7 11 15 4 8 12 0"
KORF_1 = Board.from_tiles(next(k for k in korf100() if k.id == "1").tiles)


@pytest.fixture
def no_databases(fresh_assets, monkeypatch):
    """No database directory at all (an installed package without FIFTEEN_DB)."""
    monkeypatch.delenv("FIFTEEN_DB", raising=False)
    monkeypatch.setattr(assets, "default_directory", lambda: None)
    return fresh_assets


@pytest.fixture
def reads(monkeypatch):
    """The files the registry reads, in order."""
    seen: list[str] = []
    real = assets._read

    def spy(file: str) -> None:
        seen.append(file)
        real(file)

    monkeypatch.setattr(assets, "_read", spy)
    return seen


def test_the_python_api_loads_what_it_needs(fresh_assets, databases_without_pack, reads):
    """The README's example: no set-up call, the databases are read at first use, and only those needed."""
    assets.use_directory(databases_without_pack)
    board = Board.parse(TRANSPOSED)
    sol = solve(KORF_1, "pdb663")
    assert sol.length == 57 and KORF_1.solves(sol.tiles)
    assert reads == ["pdb-663.f15"]
    assert set(assets.pattern_databases) == {"pdb663"}
    values = bound_values(board)
    assert (values["md"], values["wd_v"], values["id_v"], values["pdb663"], values["pdb555"], values["lb"]) == (40, 20, 12, 48, 46, 48)
    assert reads == ["pdb-663.f15", "wd-4x4.f15", "pdb-555.f15"]
    bound_values(board)
    solve(KORF_1, "pdb555")
    assert reads == ["pdb-663.f15", "wd-4x4.f15", "pdb-555.f15"]  # once each


def test_a_plain_solve_uses_the_strongest_bound_available(fresh_assets, databases_without_pack):
    assets.use_directory(databases_without_pack)
    assert resolve_bound(Shape(4, 4), "auto").name == "pdb663"
    sol = solve(Board.goal("4x4").apply("ULDR" * 3 + "UULL"))
    assert sol.bound == "pdb663" and sol.length == 4


def test_the_checkout_databases_are_the_default(fresh_assets, monkeypatch):
    monkeypatch.delenv("FIFTEEN_DB", raising=False)
    assert assets.directory() == assets.default_directory()
    assert assets.default_directory().resolve() == (assets.Path(__file__).resolve().parents[1] / "static" / "db")
    assert "pdb663" in available_bounds(Shape(4, 4))


def test_fifteen_db_is_the_default_when_set(fresh_assets, monkeypatch, databases_without_pack, tmp_path):
    monkeypatch.setenv("FIFTEEN_DB", str(databases_without_pack))
    assert assets.directory() == databases_without_pack
    assert bound_values(Board.parse(TRANSPOSED))["lb"] == 48
    assets.reset()
    monkeypatch.setenv("FIFTEEN_DB", str(tmp_path))  # asked for, but empty: say so
    with pytest.raises(AssetError, match=r"manifest.json: no manifest \(build the databases with build_db.py"):
        bound_values(Board.parse(TRANSPOSED))


def test_without_databases_wd_is_built_and_pdbs_are_not_offered(no_databases, reads):
    assert available_bounds(Shape(4, 4)) == ["auto", "wdid", "wd", "id", "lc", "md"]
    values = bound_values(Board.parse(TRANSPOSED))
    assert "pdb663" not in values and values["lb"] == 40 and values["wdid"] == 40
    assert solve(Board.goal("4x4").move_blank("U")).bound == "wdid"
    with pytest.raises(InputError, match=r"bound 'pdb663' is not available for a 4x4 board \(available: auto, wdid,"):
        solve(KORF_1, "pdb663")
    assert reads == [] and not assets.walking_tables
    assert walking.table_for(Shape(4, 4)) is walking.table_for(Shape(4, 4))  # built once


def test_the_browser_path_reads_no_file(fresh_assets, monkeypatch, reads):
    """Pyodide: no directory; the worker hands bytes over, and only those are used."""
    monkeypatch.delenv("FIFTEEN_DB", raising=False)
    monkeypatch.setattr(assets.sys, "platform", "emscripten")
    assert assets.default_directory() is None
    assert "pdb663" not in available_bounds(Shape(4, 4))
    db = assets.Path(__file__).resolve().parents[1] / "static" / "db"
    for file in ("pdb-663.f15", "wd-4x4.f15"):
        assert json.loads(api.load_asset(file, (db / file).read_bytes()))["ok"]
    assert available_bounds(Shape(4, 4)) == ["auto", "pdb663", "wdid", "wd", "id", "lc", "md"]
    assert bound_values(Board.parse(TRANSPOSED))["lb"] == 48
    assert reads == []


def test_registered_assets_are_never_read_again(fresh_assets, databases_without_pack, reads):
    for file in ("pdb-663.f15", "wd-4x4.f15"):
        assets.load_asset((databases_without_pack / file).read_bytes(), f"handed over: {file}")
    given = assets.pattern_databases["pdb663"]
    assets.use_directory(databases_without_pack)
    bound_values(Board.parse(TRANSPOSED))
    assert reads == ["pdb-555.f15"]  # only what was missing
    assert assets.pattern_database("pdb663", Shape(4, 4)) is given
    assert assets.ensure_for(Shape(4, 4)) == []


def test_ensure_for_loads_everything_for_a_shape_now(fresh_assets, databases_without_pack):
    assert sorted(assets.ensure_for(Shape(4, 4), databases_without_pack)) == ["pdb-555.f15", "pdb-663.f15", "wd-4x4.f15"]
    assert set(assets.pattern_databases) == {"pdb663", "pdb555"} and set(assets.walking_tables) == {Shape(4, 4)}
    assert assets.ensure_for(Shape(4, 4)) == []
    assert sorted(assets.ensure_for(Shape(3, 4))) == ["wd-3x4.f15", "wd-4x3.f15"]


def test_reset_forgets_everything(fresh_assets, databases_without_pack):
    assets.use_directory(databases_without_pack)
    bound_values(Board.parse(TRANSPOSED))
    assert assets.pattern_databases and assets.walking_tables
    assets.reset()
    assert not assets.pattern_databases and not assets.walking_tables and not assets._registered_files
    assert assets.directory() == assets.default_directory()


def test_an_explicit_directory_needs_a_manifest(fresh_assets, tmp_path):
    with pytest.raises(AssetError, match=r"no manifest \(build the databases with build_db.py --out "):
        assets.use_directory(tmp_path)
    (tmp_path / "manifest.json").write_text("{not json")
    with pytest.raises(AssetError, match=r"manifest.json: unreadable manifest"):
        assets.use_directory(tmp_path)


@pytest.fixture
def damaged_databases(tmp_path, databases_without_pack):
    for f in databases_without_pack.iterdir():
        shutil.copy(f, tmp_path / f.name)
    data = bytearray((tmp_path / "pdb-663.f15").read_bytes())
    data[1000] ^= 0xFF
    (tmp_path / "pdb-663.f15").write_bytes(bytes(data))
    return tmp_path


def test_a_damaged_database_is_an_asset_error_everywhere(fresh_assets, damaged_databases, capsys):
    from fifteen import cli

    assets.use_directory(damaged_databases)
    with pytest.raises(AssetError, match=r"pdb-663.f15: checksum mismatch \(the file is corrupt\)"):
        bound_values(Board.parse(TRANSPOSED))
    # the API reports it as an asset error (not "input", though AssetError is a FifteenError)
    res = json.loads(api.call("solve", json.dumps({"text": TRANSPOSED})))
    assert res["ok"] is False and res["error"]["type"] == "asset" and "checksum mismatch" in res["error"]["message"]
    assets.reset()
    assert cli.main(["bounds", TRANSPOSED, "--db", str(damaged_databases)]) == 2
    assert "fifteen: error: " in capsys.readouterr().err


def test_one_error_hierarchy():
    assert issubclass(InputError, FifteenError) and issubclass(AssetError, FifteenError)
    assert issubclass(FifteenError, ValueError)  # as the README says
    assert not issubclass(AssetError, InputError) and not issubclass(InputError, AssetError)
    res = json.loads(api.call("parse", json.dumps({"tiles": {"not": "a list"}})))
    assert res["error"] == {"type": "input", "message": "tiles must be a list of numbers or text"}
