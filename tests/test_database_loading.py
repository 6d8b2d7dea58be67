"""The asset registry: the databases are read lazily, once, from the right directory; the
browser's path (bytes handed over, no directory) reads nothing; errors have one hierarchy."""

from __future__ import annotations

import hashlib
import json
import re
import shutil

import pytest

from fifteen import AssetError, Board, FifteenError, InputError, api, batch, bound_values, solve
from fifteen.board import Shape
from fifteen.bounds import available_bounds, databases, resolve_bound
from fifteen.errors import AssetWarning
from instances import korf100
from support.tamper import tampered_copy

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
    """pdb-663.f15 with a byte flipped, its manifest entry listing the damaged file's SHA-256: what
    the container's CRC-32 catches (a SHA-256 that differs is refused before: see below)."""
    for f in databases_without_pack.iterdir():
        shutil.copy(f, tmp_path / f.name)
    data = bytearray((tmp_path / "pdb-663.f15").read_bytes())
    data[1000] ^= 0xFF
    (tmp_path / "pdb-663.f15").write_bytes(bytes(data))
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    next(e for e in manifest["assets"] if e["file"] == "pdb-663.f15")["sha256"] = hashlib.sha256(data).hexdigest()
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
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


# ------------------------------------------------------------------ a file checked end to end; every answer replayed
#: 55 moves from the goal (the issue's position): with pdb-663.f15 zeroed, the search once took a
#: position one move away for the goal and printed "optimal length: 1".
FIFTY_FIVE = Board.parse("10 5 1 0 15 9 13 14 2 8 4 7 6 12 11 3")


@pytest.fixture
def verdicts(tmp_path, monkeypatch):
    """The verdicts of sound files kept in a directory of the test's (not the user's cache)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(databases, "_verdicts", None)
    return tmp_path / "cache" / "fifteen" / databases.VERDICTS_FILE


@pytest.mark.parametrize("file", ["pdb-663.f15", "pdb-555.f15"])
def test_a_file_that_is_not_the_one_its_manifest_lists_is_refused(fresh_assets, verdicts, tmp_path, file, capsys):
    """The payload zeroed and its CRC-32 written again: the container reads it, its SHA-256 is not
    the manifest's: refused (``asset_corrupt``), saying how to replace it, by every door."""
    from fifteen import cli

    directory = tmp_path / "db"
    directory.mkdir()
    tampered_copy(directory, file, listed=False)
    databases.use_directory(directory)
    expected = f"{directory / file}: damaged: its SHA-256 is not the one its manifest lists ("
    bound = "pdb" + file[4:7]
    with pytest.raises(AssetError, match=re.escape(expected)) as err:
        solve(FIFTY_FIVE, bound)
    assert err.value.code == "asset_corrupt" and str(err.value).endswith(": " + databases.REBUILD)
    reply = json.loads(api.call("solve", json.dumps({"text": FIFTY_FIVE.text(), "bound": bound})))
    assert reply["error"]["type"] == "asset" and reply["error"]["code"] == "asset_corrupt"
    databases.reset()
    assert cli.main(["solve", FIFTY_FIVE.text(), "--bound", bound, "--db", str(directory)]) == 2
    err_lines = capsys.readouterr().err.splitlines()
    assert len(err_lines) == 1 and err_lines[0].startswith(f"fifteen: error: {expected}")
    # the sound file next to it is read and kept as sound; the damaged one never is
    assert str(directory / file) not in json.loads(verdicts.read_text())


def test_a_sound_file_is_hashed_once_while_it_stays_the_same(fresh_assets, verdicts, tmp_path, monkeypatch):
    directory = tmp_path / "db"
    directory.mkdir()
    tampered_copy(directory, "pdb-555.f15", listed=True)  # a file of its own (the others are links)
    hashed: list[int] = []
    real = databases.hashlib.sha256

    def counted(data):
        hashed.append(len(data))
        return real(data)

    monkeypatch.setattr(databases.hashlib, "sha256", counted)

    def read_again() -> list[int]:
        hashed.clear()
        databases.reset()
        monkeypatch.setattr(databases, "_verdicts", None)  # as a new process: from the file
        databases.use_directory(directory)
        databases.pattern_database("pdb555", Shape(4, 4))
        return list(hashed)

    size = (directory / "pdb-555.f15").stat().st_size
    assert read_again() == [size]
    assert json.loads(verdicts.read_text())[str(directory / "pdb-555.f15")][0] == size
    assert read_again() == []  # the same file: its verdict stands
    (directory / "pdb-555.f15").write_bytes((directory / "pdb-555.f15").read_bytes())  # written again: hashed again
    assert read_again() == [size]
    verdicts.write_text("{not json")  # a damaged cache is only a cache
    assert read_again() == [size]


def test_a_manifest_with_a_malformed_digest_leaves_the_entry_out(fresh_assets, tmp_path):
    (tmp_path / "manifest.json").write_text('{"assets": [{"file": "pdb-663.f15", "shapes": ["4x4"], "sha256": "abc"}]}')
    with pytest.warns(AssetWarning, match=r"'pdb-663.f15': sha256 is 'abc', not a SHA-256 in hex"):
        databases.use_directory(tmp_path)


@pytest.mark.parametrize("file", ["pdb-663.f15", "pdb-555.f15"])
def test_a_zeroed_database_never_gives_an_answer(fresh_assets, verdicts, tmp_path, file):
    """The manifest lists the zeroed file's own digest (only the answer can tell): every search
    that reads it, serial, on processes, anytime, in a batch, through the API or the page's pool,
    ends with an ``asset_corrupt`` error naming the file, never a 1-move "optimal" answer."""
    from fifteen.anytime import anytime_solve
    from fifteen.parallel.anytime_processes import anytime_solve_parallel
    from fifteen.parallel.processes import solve_parallel

    directory = tmp_path / "db"
    directory.mkdir()
    tampered_copy(directory, file, listed=True)
    databases.use_directory(directory)
    bound = "pdb" + file[4:7]
    named = f"the database {directory / file} is corrupt: {databases.REBUILD}"

    def refused(run) -> str:
        with pytest.raises(AssetError) as err:
            run()
        assert err.value.code == "asset_corrupt" and str(err.value).endswith(named), err.value
        return str(err.value)

    assert refused(lambda: solve(FIFTY_FIVE, bound)).startswith("the 1-move answer found does not reach the goal")
    refused(lambda: solve_parallel(FIFTY_FIVE, bound, jobs=2, notice=lambda m: None))
    refused(lambda: anytime_solve(FIFTY_FIVE, bound=bound, time_limit=60))
    refused(lambda: anytime_solve_parallel(FIFTY_FIVE, jobs=2, bound=bound, time_limit=60, notice=lambda m: None))
    record = batch.solve_item("a", FIFTY_FIVE.text(), bound=bound)
    assert set(record) == {"id", "error", "code"} and record["code"] == "asset_corrupt" and record["error"].endswith(named)
    for method in ("solve", "anytime_prove"):
        reply = json.loads(api.call(method, json.dumps({"text": FIFTY_FIVE.text(), "bound": bound})))
        assert reply["error"]["code"] == "asset_corrupt" and reply["error"]["message"].endswith(named), reply
    # the page's pool: a task whose search "finds" the goal is refused by the worker that ran it
    work = json.loads(api.call("parallel_begin", json.dumps({"text": FIFTY_FIVE.text(), "bound": bound, "workers": 2})))["result"]
    for _ in range(10):
        replies = [json.loads(api.call("parallel_tasks", json.dumps({"shape": "4x4", "tasks": b}))) for b in work["bundles"]]
        refusals = [r["error"] for r in replies if not r["ok"]]
        if refusals:
            assert refusals[0]["code"] == "asset_corrupt" and refusals[0]["message"].endswith(named)
            break
        outcomes = [o for r in replies for o in r["result"]["outcomes"]]
        work = json.loads(api.call("parallel_step", json.dumps({"search": work["search"], "outcomes": outcomes})))["result"]
    else:
        raise AssertionError("the pool's tasks never refused the zeroed database")
    # the sound databases of the same directory still answer, and with the true optimum
    assert solve(FIFTY_FIVE, "pdb771").length == 55
