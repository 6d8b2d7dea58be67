"""The package users install (``make package``): what the wheel and the sdist hold, their metadata,
the same bytes from the same sources, and the page's archive left with what the browser runs.
Installing the wheel and using it: tests/e2e/test_install.py."""

from __future__ import annotations

import email
import shutil
import tarfile
import zipfile
from pathlib import Path

from fifteen import __version__
from support.package import SOURCE_DATE_EPOCH, build_package

ROOT = Path(__file__).resolve().parents[1]

#: What the sdist is made of (pyproject.toml, [tool.hatch.build.targets.sdist]).
SDIST_SOURCES = ("py/fifteen", "py/dbbuild", "README.md", "CHANGELOG.md", "pyproject.toml")


def _modules(package: str) -> set[str]:
    return {p.relative_to(ROOT / "py").as_posix() for p in (ROOT / "py" / package).rglob("*.py")}


def test_the_wheel_holds_the_runtime_and_the_builder(built_package):
    wheel, _ = built_package
    assert wheel.name == f"fifteen-{__version__}-py3-none-any.whl"
    names = zipfile.ZipFile(wheel).namelist()
    dist_info = f"fifteen-{__version__}.dist-info/"
    assert {n for n in names if not n.startswith(dist_info)} == _modules("fifteen") | _modules("dbbuild")
    assert {n.removeprefix(dist_info) for n in names if n.startswith(dist_info)} == {"METADATA", "WHEEL", "RECORD", "entry_points.txt"}
    assert zipfile.ZipFile(wheel).read(dist_info + "entry_points.txt").decode().split() == [
        "[console_scripts]",
        "fifteen",
        "=",
        "fifteen.cli:main",
    ]


def test_the_metadata_is_complete(built_package):
    wheel, _ = built_package
    meta = email.message_from_string(zipfile.ZipFile(wheel).read(f"fifteen-{__version__}.dist-info/METADATA").decode())
    assert meta["Name"] == "fifteen" and meta["Version"] == __version__ and meta["Requires-Python"] == ">=3.11"
    assert meta["License-Expression"] == "MIT" and meta["Description-Content-Type"] == "text/markdown"
    assert meta.get_payload() == (ROOT / "README.md").read_text()  # the README is the long description
    classifiers = meta.get_all("Classifier")
    assert "Programming Language :: Python :: 3.11" in classifiers and "Topic :: Games/Entertainment :: Puzzle Games" in classifiers
    assert meta.get_all("Provides-Extra") == ["build", "cluster", "fast"]
    assert meta.get_all("Requires-Dist") == [
        "numba>=0.60; extra == 'build'",
        "numpy>=1.26; extra == 'build'",
        "dask[distributed]>=2024.1; extra == 'cluster'",
        "numpy>=1.26; extra == 'fast'",
    ]


def test_the_sdist_holds_the_sources(built_package):
    _, sdist = built_package
    top = f"fifteen-{__version__}/"
    with tarfile.open(sdist) as tar:
        names = {m.name.removeprefix(top) for m in tar.getmembers()}
        assert {m.mtime for m in tar.getmembers()} == {int(SOURCE_DATE_EPOCH)} and {(m.uid, m.gid) for m in tar.getmembers()} == {(0, 0)}
    assert {n for n in names if n.endswith(".py")} == {"py/" + m for m in _modules("fifteen") | _modules("dbbuild")}
    assert {n for n in names if not n.endswith(".py")} == {"README.md", "CHANGELOG.md", "pyproject.toml", "PKG-INFO", ".gitignore"}


def test_the_same_sources_make_the_same_bytes(built_package, tmp_path):
    """Built again from a copy made now (other paths, other file times): byte for byte the same."""
    copy = tmp_path / "copy"
    for rel in SDIST_SOURCES + (".gitignore",):
        source = ROOT / rel
        if source.is_dir():
            shutil.copytree(source, copy / rel, ignore=shutil.ignore_patterns("__pycache__"), copy_function=shutil.copy)
        else:
            (copy / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(source, copy / rel)
    wheel, sdist = build_package(copy, tmp_path / "out")
    assert wheel.read_bytes() == built_package[0].read_bytes()
    assert sdist.read_bytes() == built_package[1].read_bytes()


def test_the_page_archive_holds_what_the_browser_runs():
    """static/wheels/fifteen-*-pyodide.zip (make web): fifteen/ but its command line, with bytecode;
    not the builder, not the wheel's metadata."""
    (archive,) = (ROOT / "static" / "wheels").glob("fifteen-*-pyodide.zip")
    names = zipfile.ZipFile(archive).namelist()
    sources = {n for n in names if n.endswith(".py")}
    browser = {m for m in _modules("fifteen") if not m.startswith("fifteen/cli/") and m != "fifteen/__main__.py"}
    assert sources == browser
    assert all(n.startswith("fifteen/") and (n.endswith(".py") or "/__pycache__/" in n) for n in names)
    assert len(names) == 2 * len(sources)  # each module's bytecode beside it
