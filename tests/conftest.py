"""Fixtures shared by the unit tests."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fifteen import assets


@pytest.fixture
def fresh_assets():
    """An empty asset registry (the automatic database directory) for the test, and again after it:
    whatever the test loads or points at does not leak into the other tests."""
    assets.reset()
    yield assets
    assets.reset()


@pytest.fixture(scope="session")
def databases_without_pack(tmp_path_factory):
    """The databases of static/db (``make db``) without any optional pack: what a checkout has
    after ``make assets``, whether or not ``make pack`` was run in this one."""
    source = Path(__file__).resolve().parents[1] / "static" / "db"
    manifest = json.loads((source / "manifest.json").read_text())
    manifest.pop("packs", None)
    target = tmp_path_factory.mktemp("db-without-pack")
    for entry in manifest["assets"]:
        (target / entry["file"]).symlink_to(source / entry["file"])
    (target / "manifest.json").write_text(json.dumps(manifest))
    return target
