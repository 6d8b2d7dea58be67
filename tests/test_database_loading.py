"""The asset registry: the databases are read lazily, once, from the right directory; the
browser's path (bytes handed over, no directory) reads nothing; errors have one hierarchy."""

from __future__ import annotations

import json
import shutil

import pytest

from fifteen import AssetError, Board, FifteenError, InputError, api, bound_values, solve
from fifteen.board import Shape
from fifteen.bounds import available_bounds, databases, resolve_bound
from fifteen.errors import AssetWarning
from instances import korf100

TRANSPOSED = "1 5 9 13 2 6 10 14 3 7 11 15 4 8 12 0"
KORF_1 = Board.from_tiles(next(k for k in korf100() if k.id == "1").tiles)


@pytest.fixture
def no_databases(fresh_assets, monkeypatch):
    """No database directory at all (an installed package without FIFTEEN_DB)."""
    monkeypatch.delenv("FIFTEEN_DB", raising=False)
    monkeypatch.setattr(databases, "default_directory", lambda: None)
    return fresh_assets


@pytest.fixture
def reads(monkeypatch):
    """The files the registry reads, in order."""
    seen: list[str] = []
    real = databases._read

    def spy(file: str) -> None:
        seen.append(file)
        real(file)

    monkeypatch.setattr(databases, "_read", spy)
    return seen


def test_the_python_api_loads_what_it_needs(fresh_assets, databases_without_pack, reads):
    """The README's example: no set-up call, the databases are read at first use, and only those needed."""
    databases.use_directory(databases_without_pack)
    board = Board.parse(TRANSPOSED)
    sol = solve(KORF_1, "pdb663")
    assert sol.length == 57 and KORF_1.solves(sol.tiles)
    assert reads == ["pdb-663.f15"]
    assert set(databases.pattern_databases) == {"pdb663"}
    values = bound_values(board)
    values = (values["md"], values["wd_v"], values["id_v"], values["pdb771"], values["pdb663"], values["pdb555"], values["lb"])
    assert values == (40, 20, 12, 52, 48, 46, 52)
    assert reads == ["pdb-663.f15", "wd-4x4.f15", "pdb-771.f15", "pdb-555.f15"]
    bound_values(board)
    solve(KORF_1, "pdb555")
    assert reads == ["pdb-663.f15", "wd-4x4.f15", "pdb-771.f15", "pdb-555.f15"]  # once each


def test_a_plain_solve_uses_the_strongest_bound_available(fresh_assets, databases_without_pack):
    databases.use_directory(databases_without_pack)
    assert resolve_bound(Shape(4, 4), "auto").name == "pdb771"
    sol = solve(Board.goal("4x4").apply("ULDR" * 3 + "UULL"))
    assert sol.bound == "pdb771" and sol.length == 4


def test_the_checkout_databases_are_the_default(fresh_assets, monkeypatch):
    monkeypatch.delenv("FIFTEEN_DB", raising=False)
    assert databases.directory() == databases.default_directory()
    assert databases.default_directory().resolve() == (databases.Path(__file__).resolve().parents[1] / "static" / "db")
    assert "pdb663" in available_bounds(Shape(4, 4))


def test_fifteen_db_is_the_default_when_set(fresh_assets, monkeypatch, databases_without_pack, tmp_path):
    monkeypatch.setenv("FIFTEEN_DB", str(databases_without_pack))
    assert databases.directory() == databases_without_pack
    assert bound_values(Board.parse(TRANSPOSED))["lb"] == 52
    databases.reset()
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
    assert reads == [] and not databases.walking_tables
    built = databases.walking_table(Shape(4, 4))
    assert built is databases.walking_table(Shape(4, 4)) and len(built) == 24_964  # built once
    assert not databases.walking_tables  # built, not registered: an asset read later is still used


def test_the_browser_path_reads_no_file(fresh_assets, monkeypatch, reads):
    """Pyodide: no directory; the worker hands bytes over, and only those are used."""
    monkeypatch.delenv("FIFTEEN_DB", raising=False)
    monkeypatch.setattr(databases.sys, "platform", "emscripten")
    assert databases.default_directory() is None
    assert "pdb663" not in available_bounds(Shape(4, 4))
    db = databases.Path(__file__).resolve().parents[1] / "static" / "db"
    for file in ("pdb-663.f15", "wd-4x4.f15"):
        assert json.loads(api.load_asset(file, (db / file).read_bytes()))["ok"]
    assert available_bounds(Shape(4, 4)) == ["auto", "pdb663", "wdid", "wd", "id", "lc", "md"]
    assert bound_values(Board.parse(TRANSPOSED))["lb"] == 48
    assert reads == []


def test_registered_assets_are_never_read_again(fresh_assets, databases_without_pack, reads):
    for file in ("pdb-663.f15", "wd-4x4.f15"):
        databases.load_asset((databases_without_pack / file).read_bytes(), f"handed over: {file}")
    given = databases.pattern_databases["pdb663"]
    databases.use_directory(databases_without_pack)
    bound_values(Board.parse(TRANSPOSED))
    assert reads == ["pdb-771.f15", "pdb-555.f15"]  # only what was missing
    assert databases.pattern_database("pdb663", Shape(4, 4)) is given
    assert databases.ensure_for(Shape(4, 4)) == []


def test_ensure_for_loads_everything_for_a_shape_now(fresh_assets, databases_without_pack):
    assert sorted(databases.ensure_for(Shape(4, 4), databases_without_pack)) == ["pdb-555.f15", "pdb-663.f15", "pdb-771.f15", "wd-4x4.f15"]
    assert set(databases.pattern_databases) == {"pdb771", "pdb663", "pdb555"} and set(databases.walking_tables) == {Shape(4, 4)}
    assert databases.ensure_for(Shape(4, 4)) == []
    assert sorted(databases.ensure_for(Shape(3, 4))) == ["wd-3x4.f15", "wd-4x3.f15"]
    assert databases.ensure_for(Shape(5, 5)) == ["pdb-55554.f15"] and "pdb55554" in databases.pattern_databases


def test_reset_forgets_everything(fresh_assets, databases_without_pack):
    databases.use_directory(databases_without_pack)
    bound_values(Board.parse(TRANSPOSED))
    databases.ensure_for(Shape(3, 3), explorer=True)
    assert databases.pattern_databases and databases.walking_tables and databases.explorer(Shape(3, 3)) is not None
    databases.reset()
    assert not databases.pattern_databases and not databases.walking_tables and not databases._registered_files
    assert not databases.explorer_tables and databases.explorer(Shape(3, 3)) is None
    assert databases.directory() == databases.default_directory()


def test_one_registry_maps_each_kind_of_file_to_its_loader(fresh_assets, databases_without_pack):
    """Every kind of the manifest has its loader, and each file read lands in the registry's tables."""
    assert set(databases.LOADERS) == {"wd", "pdb", "pdb78", "explore"}
    manifest = json.loads((databases_without_pack / "manifest.json").read_text())
    assert {entry["kind"] for entry in manifest["assets"]} == {"wd", "pdb", "pdb78", "explore"}
    for entry in manifest["assets"]:
        meta = databases.load_asset((databases_without_pack / entry["file"]).read_bytes(), entry["file"])
        assert meta["kind"] == entry["kind"] and entry["file"] in databases._registered_files
    assert set(databases.pattern_databases) == {"pdb771", "pdb55554", "pdb663", "pdb555"}
    assert set(databases.explorer_tables) == {Shape(3, 3), Shape(2, 4), Shape(2, 5)}
    assert len(databases.walking_tables) == len([e for e in manifest["assets"] if e["kind"] == "wd"])
    assert databases.explorer_shapes() == ["2x4", "4x2", "3x3", "2x5", "5x2"]
    assert databases.require_explorer(Shape(4, 2)).transposed and databases.explorer(Shape(4, 4)) is None


def test_an_explicit_directory_needs_a_manifest(fresh_assets, tmp_path):
    with pytest.raises(AssetError, match=r"no manifest \(build the databases with build_db.py --out "):
        databases.use_directory(tmp_path)


@pytest.mark.parametrize(
    "manifest, warning",
    [
        ("{not json", r"manifest.json: unreadable manifest \('Expecting property name"),
        ('{"assets": "x"}', r"manifest.json: 'assets' is 'x', not a list of databases; no database of it is used"),
        ("[null]", r"manifest.json: not a database list \(the JSON is a list of 1 item, not an object\)"),
        ("{}", r"manifest.json: 'assets' is missing, not a list of databases"),
        ('{"assets": [], "packs": {}}', r"'packs' is an object of 0 keys, not a list of databases"),
        ('{"assets": [null, {"file": "../x.f15"}]}', r"2 of 2 entries left out \(an entry is None, not an object\); no database"),
        ('{"assets": [{"file": "pdb-663.f15", "shapes": 5}]}', r"'pdb-663.f15': shapes is 5, not a list of shapes"),
        (
            '{"assets": [{"file": "pdb-663.f15", "shapes": ["4x4"]}, 7]}',
            r"1 of 2 entries left out \(an entry is 7, not an object\); the others",
        ),
        ('{"assets": [{"file": "pdb-663.f15", "bytes": "big"}]}', r"'pdb-663.f15': bytes is 'big', not a number of bytes"),
    ],
)
def test_an_unusable_manifest_is_a_warning_and_the_solver_goes_on(fresh_assets, tmp_path, manifest, warning):
    (tmp_path / "manifest.json").write_text(manifest)
    with pytest.warns(AssetWarning, match=warning):
        databases.use_directory(tmp_path)
    # the good entry stays listed (then read, and refused, as missing); the rest is left out
    listed = list(databases._manifest_entries())
    assert listed == (["pdb-663.f15"] if "the others" in warning else [])
    board = Board.parse("1 2 3 4 5 6 7 8 0 10 11 12 9 13 14 15")
    if not listed:  # no database: weaker bounds, the same optimal answer
        assert available_bounds(board.shape) == ["auto", "wdid", "wd", "id", "lc", "md"]
        assert solve(board).length == 4


def test_the_cli_prints_a_manifest_warning_on_one_line(fresh_assets, tmp_path, capsys):
    from fifteen import cli

    (tmp_path / "manifest.json").write_text('{"assets": "x"}')
    assert cli.main(["solve", "1 2 3 4 5 6 7 8 0 10 11 12 9 13 14 15", "--db", str(tmp_path), "--quiet"]) == 0
    err = capsys.readouterr().err.splitlines()
    expected = f"{tmp_path}/manifest.json: 'assets' is 'x', not a list of databases; no database of it is used"
    assert err == [f"fifteen: warning: {expected} (weaker bounds, same answers)"]


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

    databases.use_directory(damaged_databases)
    with pytest.raises(AssetError, match=r"pdb-663.f15: checksum mismatch \(the file is corrupt\)"):
        bound_values(Board.parse(TRANSPOSED))
    # the API reports it as an asset error (not "input", though AssetError is a FifteenError)
    res = json.loads(api.call("solve", json.dumps({"text": TRANSPOSED})))
    assert res["ok"] is False and res["error"]["type"] == "asset" and "checksum mismatch" in res["error"]["message"]
    databases.reset()
    assert cli.main(["bounds", TRANSPOSED, "--db", str(damaged_databases)]) == 2
    assert "fifteen: error: " in capsys.readouterr().err


def test_one_error_hierarchy():
    assert issubclass(InputError, FifteenError) and issubclass(AssetError, FifteenError)
    assert issubclass(FifteenError, ValueError)  # as the README says
    assert not issubclass(AssetError, InputError) and not issubclass(InputError, AssetError)
    res = json.loads(api.call("parse", json.dumps({"tiles": {"not": "a list"}})))
    assert res["error"] == {
        "type": "input",
        "code": "param",
        "message": "tiles must be a list of tile numbers or the position as text, not an object of 1 key",
    }


@pytest.mark.parametrize(
    "text, assets_, packs, warning",
    [
        ('{"format": 1, "assets": [{"file": "wd-3x3.f15", "shapes": ["3x3"]}], "packs": [{"file": "p.xz"}]}', 1, 1, None),
        ('{"assets": "x"}', 0, 0, "static/db/manifest.json: 'assets' is 'x', not a list of databases; no database of it is used"),
        ("[null]", 0, 0, "not a database list (the JSON is a list of 1 item, not an object)"),
        ("{not json", 0, 0, "static/db/manifest.json: unreadable manifest ('Expecting property name"),
        ('{"assets": [], "packs": [{"file": "p.xz", "memory_bytes": -1}]}', 0, 0, "'p.xz': memory_bytes is -1, not a number of bytes"),
        ('{"assets": [{"file": "a.f15"}, null]}', 1, 0, "1 of 2 entries left out (an entry is None, not an object); the others are used"),
    ],
)
def test_the_pages_worker_reads_the_manifest_by_the_same_rules(text, assets_, packs, warning):
    """api.manifest: the worker's database list, checked in Python; a wrong shape is a warning, never an error."""
    reply = json.loads(api.manifest(text))
    assert reply["ok"] is True
    got = reply["result"]
    assert (len(got["assets"]), len(got["packs"])) == (assets_, packs)
    if warning is None:
        assert got["warnings"] == []
    else:
        assert len(got["warnings"]) == 1 and warning in got["warnings"][0], got["warnings"]
