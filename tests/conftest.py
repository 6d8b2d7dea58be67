"""Fixtures shared by the unit tests: pattern databases (the built 4x4 ones, and small-board ones
built here by the real builders, as tests/test_pdb.py and tests/test_pdb78.py do)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from fifteen import Shape, assets

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def real_pdbs():
    """The 4x4 PDBs of static/db (``make db``), loaded."""
    assets.ensure_for(Shape(4, 4))
    missing = [name for name in ("pdb663", "pdb555") if name not in assets.pattern_databases]
    assert not missing, f"{missing} not built: run `make db`"
    return assets.pattern_databases


@pytest.fixture(scope="session")
def small_pdbs():
    """PDBs of the 3x3 (reflected lookup) and 2x4 (plain lookup) boards, by build_db.py."""
    import build_db
    from fifteen.pdb import PatternDatabase

    return {
        "3x3": PatternDatabase.from_bytes(build_db.build_pdb_asset(3, 3, "44", [(1, 2, 3, 4), (5, 6, 7, 8)]), name="pdb-44-3x3"),
        "2x4": PatternDatabase.from_bytes(build_db.build_pdb_asset(2, 4, "43", [(1, 2, 3, 4), (5, 6, 7)]), name="pdb-43-2x4"),
    }


@pytest.fixture(scope="session")
def small_packs():
    """7-8-pack-layout databases of the 3x3 (reflected) and 2x4 (plain) boards, by tools/pdb78_build.py."""
    sys.path.insert(0, str(ROOT / "tools"))
    import pdb78_build
    from fifteen.pdb78 import PDB78

    return {
        "3x3": PDB78.from_bytes(pdb78_build.build_pack(3, 3, "44", [[1, 2, 3, 4], [5, 6, 7, 8]]), name="pack-44-3x3"),
        "2x4": PDB78.from_bytes(pdb78_build.build_pack(2, 4, "43", [[1, 2, 3, 4], [5, 6, 7]]), name="pack-43-2x4"),
    }
