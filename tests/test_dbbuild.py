"""The database build (py/dbbuild, behind build_db.py): the cache, its keys, the pinned contents.

The cache key of an asset is its kind, build/layout versions and parameters
(``dbbuild.cache``): it must not change when code moves or is reformatted, and
must change with the version or the parameters.  The pinned contents of the
assets cheap enough to build here catch a builder change made without bumping
its kind's build version (which would otherwise keep serving the old bytes).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")

from dbbuild import cache as dbcache  # noqa: E402
from dbbuild import cli, pack78, pattern, specs  # noqa: E402
from dbbuild import explorer as explorer_build  # noqa: E402
from fifteen.db import container  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
GROUPS_3x3 = [[1, 2, 3, 4], [5, 6, 7, 8]]


def contents_digest(data: bytes) -> str:
    """What an asset holds (metadata and decompressed payload), whatever zlib or xz made of it."""
    asset = container.read_asset(data)
    return hashlib.sha256(json.dumps(asset.meta, sort_keys=True).encode() + bytes(asset.payload)).hexdigest()[:32]


# ----------------------------------------------------------------- the cache
def test_build_cache(tmp_path, monkeypatch, capsys):
    calls = []

    def build(params, log, cache):
        calls.append(dict(params))
        assert cache == tmp_path / "cache"
        return pattern.build_pdb_asset(3, 3, "44", params["groups"])

    spec = specs.AssetSpec("pdb-44.f15", "pdb", ("3x3",), build, {"build": 1}, {"groups": GROUPS_3x3})
    monkeypatch.setattr(specs, "ASSETS", [spec])
    out, cache = tmp_path / "out", tmp_path / "cache"
    args = ["--out", str(out), "--cache", str(cache), "-q"]
    assert cli.main(args) == 0
    assert len(calls) == 1
    man = json.loads((out / "manifest.json").read_text())
    data = (out / "pdb-44.f15").read_bytes()
    (entry,) = man["assets"]
    assert entry["file"] == "pdb-44.f15" and entry["kind"] == "pdb" and entry["shapes"] == ["3x3"]
    assert entry["bytes"] == len(data)
    assert entry["crc32"] == f"{int.from_bytes(data[-4:], 'little'):08x}"
    assert entry["sha256"] == hashlib.sha256(data).hexdigest()
    assert (cache / f"pdb-44-{dbcache.cache_key(spec)}.f15").read_bytes() == data
    # second run: nothing rebuilt, nothing rewritten
    mtime = (out / "pdb-44.f15").stat().st_mtime_ns
    assert cli.main(args) == 0
    assert len(calls) == 1
    assert (out / "pdb-44.f15").stat().st_mtime_ns == mtime
    # a fresh output directory is filled from the cache
    out2 = tmp_path / "out2"
    assert cli.main(["--out", str(out2), "--cache", str(cache), "-q"]) == 0
    assert len(calls) == 1 and (out2 / "pdb-44.f15").read_bytes() == data
    # --force rebuilds; changed parameters rebuild (and drop the old cache entry)
    assert cli.main(args + ["--force"]) == 0
    assert len(calls) == 2
    spec2 = dataclasses.replace(spec, params={"groups": [[1, 2, 4, 5], [3, 6, 7, 8]]})
    monkeypatch.setattr(specs, "ASSETS", [spec2])
    assert cli.main(args) == 0
    assert len(calls) == 3
    assert (out / "pdb-44.f15").read_bytes() != data
    assert [p.name for p in cache.glob("pdb-44-*")] == [f"pdb-44-{dbcache.cache_key(spec2)}.f15"]
    # a bumped build version rebuilds
    monkeypatch.setattr(specs, "ASSETS", [dataclasses.replace(spec2, version={"build": 2})])
    assert cli.main(args) == 0
    assert len(calls) == 4
    # --only with an unknown name is an error
    with pytest.raises(SystemExit) as exit_info:
        cli.main(args + ["--only", "nope"])
    assert exit_info.value.code == 2
    assert "unknown asset(s) ['nope']" in capsys.readouterr().err


def test_registry_names():
    files = [s.file for s in specs.ASSETS]
    assert "pdb-663.f15" in files and "pdb-555.f15" in files
    assert len(set(files)) == len(files)
    assert any(s.matches("pdb663") for s in specs.ASSETS)
    assert sorted(f for f in files if f.startswith("wd-")) == sorted(
        f"wd-{r}x{c}.f15" for r, c in [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (2, 5), (5, 2), (3, 3), (3, 4), (4, 3), (4, 4)]
    )


# ----------------------------------------------------------------- cache keys
#: The keys of today's assets.  They change only when an asset's version or parameters do
#: (then update this table in the same commit, knowing that the asset is rebuilt once).
PINNED_KEYS = {
    "pdb-771.f15": "016710fa5cc6765c162776bb",
    "pdb-55554.f15": "4f67cfe3c8fe213412eaec04",
    "pdb-663.f15": "f1124134bf3ea85be9246c01",
    "pdb-555.f15": "acf236d05d15085c55276b42",
    "wd-2x2.f15": "86cb081a449d3f86f5855828",
    "wd-2x3.f15": "6a7b2d7baec6694375086de8",
    "wd-3x2.f15": "a650aa125887d13be5a74f40",
    "wd-2x4.f15": "1a1b11541762833b4ab7534f",
    "wd-4x2.f15": "d202cfadf512249a25f4a5c6",
    "wd-2x5.f15": "04dbd5d7f8e9fd1a1352897e",
    "wd-5x2.f15": "1353cbee1ba9ea98be0c74a9",
    "wd-3x3.f15": "19b7f57db62fd60e43fb707c",
    "wd-3x4.f15": "95aa2d21ef51de45add90ca5",
    "wd-4x3.f15": "f7d964db312bb35634593c49",
    "wd-4x4.f15": "43760649e3c706af062b2a07",
    "pdb-78.f15.xz": "f775b25e3139a646ed1d9969",
    "explore-3x3.f15": "379f9cc289f274f256cc0858",
    "explore-2x4.f15": "a352f0e66abde21400c72101",
    "explore-2x5.f15": "01fefd54fa977c1c5222ceba",
    "explore-3x4.f15.xz": "e796c7680af4efe529c9c172",
    "explore-2x6.f15.xz": "80374345dc1c5ed16b12b344",
}


def current_keys() -> dict[str, str]:
    return {s.file: dbcache.cache_key(s) for s in specs.ASSETS + specs.PACKS}


def test_cache_keys_are_pinned():
    assert current_keys() == PINNED_KEYS


def test_cache_key_changes_with_version_and_params():
    spec = specs.PACKS[0]
    key = dbcache.cache_key(spec)
    bumped = dataclasses.replace(spec, version={**spec.version, "build": spec.version["build"] + 1})
    assert dbcache.cache_key(bumped) != key
    assert dbcache.cache_key(dataclasses.replace(spec, params={**spec.params, "encoding": "other"})) != key
    assert dbcache.cache_key(dataclasses.replace(spec, params={**spec.params, "rows": 3, "cols": 3})) != key
    # what does not define the bytes does not count: the builder function, the shapes served
    assert dbcache.cache_key(dataclasses.replace(spec, build=lambda p, log, c: b"", shapes=("3x3",))) == key


def test_cache_key_stable_when_code_moves_or_is_reformatted(tmp_path):
    """A copy of py/ elsewhere, every module reformatted (comments, blank lines): same keys."""
    moved = tmp_path / "elsewhere" / "src"
    shutil.copytree(ROOT / "py", moved, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    for f in moved.rglob("*.py"):
        f.write_text("# moved and reformatted\n\n" + f.read_text().replace("\n\n\n", "\n\n\n\n") + "\n\n# the end\n")
    script = (
        "import json; from dbbuild import cache, specs; print(json.dumps({s.file: cache.cache_key(s) for s in specs.ASSETS + specs.PACKS}))"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=tmp_path, env={"PYTHONPATH": str(moved)})
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == current_keys()


# ----------------------------------------------------------------- pinned contents
#: Contents (metadata + decompressed payload) written by each kind's builder at its build
#: version.  A failure here means a builder's output changed: bump that kind's BUILD_VERSION
#: (so that every cache rebuilds the asset), then pin the new contents under the new version.
PINNED_CONTENTS = {
    ("wd", 1): {
        "wd-2x2.f15": "a95c91b697b20c6a4ea05efdfa7e8185",
        "wd-2x3.f15": "fd4d4db84113ac9d1e8fdc6a107ae416",
        "wd-3x2.f15": "e5113eab3429bbae964e0fd20c7539f0",
        "wd-2x4.f15": "7e5253bd4b88016922fa5f0ef355dda0",
        "wd-4x2.f15": "683c4fd2e894f858e1d4e22f08e40c4a",
        "wd-2x5.f15": "9242488f16dcdf1b1f8f628299620e00",
        "wd-5x2.f15": "56a7a3b097de626134be1e5214b2bcb7",
        "wd-3x3.f15": "c97175e0d46e080d57116ad7b7971261",
        "wd-3x4.f15": "870fce500667170fd41b173e69e7fb17",
        "wd-4x3.f15": "506c2ac4deea7bd21fd855edd7c43960",
        "wd-4x4.f15": "74180b6ea0358c9b67a034d403196e65",
    },
    # The real partitions take minutes to build: the same builder on 3x3 stands in for them.
    ("pdb", 1): {"pdb-44 on 3x3": "3dc96f1c1f45caff3fce77bbf7a5e048"},
    ("pdb78", 1): {"pdb-78 layout, groups 1-4 and 5-8 on 3x3": "296cafeab947e717f9c2e9132ffc0198"},
    ("explore", 1): {
        "explore-3x3.f15": "d6574da56e86ff908d8ff7fc64b8dc5c",
        "explore-2x4.f15": "edd7d15228c6b70f75256a8db1cb2e1b",
        "explore-2x5.f15": "d8e0a9ddd0dcd93f50bab2f2a150c1b5",
    },
}


def test_wd_contents_are_pinned(tmp_path):
    wd = [s for s in specs.ASSETS if s.kind == "wd"]
    pinned = PINNED_CONTENTS.get(("wd", specs.WD_BUILD_VERSION))
    assert pinned is not None, "WD_BUILD_VERSION was bumped: pin the new contents"
    assert {s.file: contents_digest(s.build(s.params, lambda msg: None, tmp_path)) for s in wd} == pinned


def test_pdb_contents_are_pinned():
    pinned = PINNED_CONTENTS.get(("pdb", pattern.BUILD_VERSION))
    assert pinned is not None, "dbbuild.pattern.BUILD_VERSION was bumped: pin the new contents"
    assert contents_digest(pattern.build_pdb_asset(3, 3, "44", GROUPS_3x3)) == pinned["pdb-44 on 3x3"]


def test_pack_contents_are_pinned():
    pinned = PINNED_CONTENTS.get(("pdb78", pack78.BUILD_VERSION))
    assert pinned is not None, "dbbuild.pack78.BUILD_VERSION was bumped: pin the new contents"
    assert contents_digest(pack78.build_pack(3, 3, "44", GROUPS_3x3)) == pinned["pdb-78 layout, groups 1-4 and 5-8 on 3x3"]


def test_explorer_contents_are_pinned(tmp_path):
    tables = [s for s in specs.ASSETS if s.kind == "explore"]
    pinned = PINNED_CONTENTS.get(("explore", explorer_build.BUILD_VERSION))
    assert pinned is not None, "dbbuild.explorer.BUILD_VERSION was bumped: pin the new contents"
    assert {s.file: contents_digest(s.build(s.params, lambda msg: None, tmp_path)) for s in tables} == pinned


def test_the_builders_match_the_built_assets():
    """What static/db holds (make db) is what the builders write today."""
    db = ROOT / "static" / "db"
    for spec in specs.ASSETS:
        if spec.kind == "wd":
            assert contents_digest((db / spec.file).read_bytes()) == PINNED_CONTENTS[("wd", specs.WD_BUILD_VERSION)][spec.file]
        if spec.kind == "explore":
            assert contents_digest((db / spec.file).read_bytes()) == PINNED_CONTENTS[("explore", explorer_build.BUILD_VERSION)][spec.file]


# ----------------------------------------------------------------- the 7-8 pack's raw cache
def test_pack_raw_cache(tmp_path, monkeypatch):
    """The BFS entries are kept under raw/, named after the group and RAW_VERSION only, and
    reused; entries named the old way (a hash of the kernels' source) are adopted once."""
    raw = tmp_path / "raw"
    first = pack78.build_pack(3, 3, "44", GROUPS_3x3, raw_cache=raw)
    names = sorted(p.name for p in raw.iterdir())
    assert names == [f"pdb78-raw-v{pack78.RAW_VERSION}-3x3-{g}{ext}" for g in ("1_2_3_4", "5_6_7_8") for ext in (".json", ".u8")]

    def no_bfs(*args, **kwargs):
        raise AssertionError("the BFS ran again")

    monkeypatch.setattr(pack78, "build_nibbles", no_bfs)
    assert pack78.build_pack(3, 3, "44", GROUPS_3x3, raw_cache=raw) == first
    # Legacy names: rename the entries the old way, declare their keys, and they are adopted.
    monkeypatch.setitem(pack78._LEGACY_RAW_KEYS, (3, 3, (1, 2, 3, 4)), ("0123456789abcdef",))
    monkeypatch.setitem(pack78._LEGACY_RAW_KEYS, (3, 3, (5, 6, 7, 8)), ("fedcba9876543210",))
    for group, key in (("1_2_3_4", "0123456789abcdef"), ("5_6_7_8", "fedcba9876543210")):
        for ext in (".json", ".u8"):
            (raw / f"pdb78-raw-v{pack78.RAW_VERSION}-3x3-{group}{ext}").rename(raw / f"pdb78-raw-3x3-{group}-{key}{ext}")
    assert pack78.build_pack(3, 3, "44", GROUPS_3x3, raw_cache=raw) == first
    assert (raw / f"pdb78-raw-v{pack78.RAW_VERSION}-3x3-1_2_3_4.u8").exists()


def test_a_legacy_cache_entry_is_adopted(tmp_path, monkeypatch):
    """A file the previous key scheme cached (spec.legacy_keys) is checked and adopted, not rebuilt."""
    calls = []

    def build(params, log, cache):
        calls.append(1)
        return pattern.build_pdb_asset(3, 3, "44", GROUPS_3x3)

    spec = specs.AssetSpec("pdb-44.f15", "pdb", ("3x3",), build, {"build": 1}, {}, legacy_keys=("0123456789abcdef0123",))
    monkeypatch.setattr(specs, "ASSETS", [spec])
    cache, out = tmp_path / "cache", tmp_path / "out"
    cache.mkdir()
    data = pattern.build_pdb_asset(3, 3, "44", GROUPS_3x3)
    (cache / "pdb-44-0123456789abcdef0123.f15").write_bytes(data)
    assert cli.main(["--out", str(out), "--cache", str(cache), "-q"]) == 0
    assert calls == [] and (out / "pdb-44.f15").read_bytes() == data == dbcache.cached_path(spec, cache).read_bytes()
    # a damaged legacy file is not adopted: the asset is built
    dbcache.cached_path(spec, cache).unlink()
    (cache / "pdb-44-0123456789abcdef0123.f15").write_bytes(data[:-1] + bytes([data[-1] ^ 1]))
    assert cli.main(["--out", str(out), "--cache", str(cache), "-q"]) == 0
    assert calls == [1] and dbcache.cached_path(spec, cache).read_bytes() == data
