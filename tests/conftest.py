"""Fixtures shared by the unit tests: a fresh asset databases, the databases of static/db,
small-board pattern databases built here by the real builders (as tests/test_pdb.py and
tests/test_pdb78.py do), and the project's wheel and sdist (as ``make package`` builds them)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from fifteen import Shape, bounds
from fifteen.bounds import databases
from support.package import build_package

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _fresh_caches_under_mutation():
    """Under mutation testing (``make mutants``: mutmut sets MUTANT_UNDER_TEST, to ``stats`` while
    it maps each function to the tests that call it), every functools cache of the package is
    emptied before each test.  A table cached by an earlier test, or while the tests were
    collected (mutmut forks each mutant's run from that process), would answer instead of the
    mutated function: the function would be missing from the map of the tests that need it, and
    its mutants would survive although a test fails with them applied by hand."""
    if os.environ.get("MUTANT_UNDER_TEST"):
        for name, module in list(sys.modules.items()):
            if name == "fifteen" or name.startswith("fifteen."):
                for value in list(vars(module).values()):
                    clear = getattr(value, "cache_clear", None)
                    if callable(clear):
                        clear()
    yield


@pytest.fixture(autouse=True, scope="session")
def _told_without_databases():
    """The note a process gives once, at its first 4x4 search without pattern databases, is given
    where a test asks for it (``tests/test_db_command.py`` sets ``_told_without_databases`` back to
    False and checks it), not by whichever test of a worker happens to search first: as if told."""
    bounds._told_without_databases = True
    yield


@pytest.fixture
def fresh_assets():
    """An empty asset registry (the automatic database directory) for the test, and again after it:
    whatever the test loads or points at does not leak into the other tests."""
    databases.reset()
    yield databases
    databases.reset()


@pytest.fixture(scope="session")
def databases_without_pack(tmp_path_factory):
    """The databases of static/db (``make db``) without any optional pack: what a checkout has
    after ``make assets``, whether or not ``make pack`` was run in this one."""
    source = ROOT / "static" / "db"
    manifest = json.loads((source / "manifest.json").read_text())
    manifest.pop("packs", None)
    target = tmp_path_factory.mktemp("db-without-pack")
    for entry in manifest["assets"]:
        (target / entry["file"]).symlink_to(source / entry["file"])
    (target / "manifest.json").write_text(json.dumps(manifest))
    return target


@pytest.fixture(scope="session")
def real_pdbs():
    """The 4x4 PDBs of static/db (``make db``), loaded."""
    shape = Shape(4, 4)
    found = {name: databases.pattern_database(name, shape) for name in ("pdb771", "pdb663", "pdb555")}
    missing = [name for name, db in found.items() if db is None]
    assert not missing, f"{missing} not built: run `make db`"
    return found


@pytest.fixture(scope="session")
def small_pdbs():
    """PDBs of the 3x3 (reflected lookup) and 2x4 (plain lookup) boards, by dbbuild.pattern."""
    from dbbuild import pattern
    from fifteen.bounds.pdb import PatternDatabase

    return {
        "3x3": PatternDatabase.from_bytes(pattern.build_pdb_asset(3, 3, "44", [(1, 2, 3, 4), (5, 6, 7, 8)]), name="pdb-44-3x3"),
        "2x4": PatternDatabase.from_bytes(pattern.build_pdb_asset(2, 4, "43", [(1, 2, 3, 4), (5, 6, 7)]), name="pdb-43-2x4"),
    }


@pytest.fixture(scope="session")
def small_packs():
    """7-8-pack-layout databases of the 3x3 (reflected) and 2x4 (plain) boards, by dbbuild.pack78."""
    from dbbuild import pack78
    from fifteen.bounds.pdb78 import PDB78

    return {
        "3x3": PDB78.from_bytes(pack78.build_pack(3, 3, "44", [[1, 2, 3, 4], [5, 6, 7, 8]]), name="pack-44-3x3"),
        "2x4": PDB78.from_bytes(pack78.build_pack(2, 4, "43", [[1, 2, 3, 4], [5, 6, 7]]), name="pack-43-2x4"),
    }


@pytest.fixture(scope="session")
def built_package(tmp_path_factory) -> tuple[Path, Path]:
    """The wheel and the sdist of the checkout, built once per session (as ``make package``)."""
    return build_package(ROOT, tmp_path_factory.mktemp("packages"))
