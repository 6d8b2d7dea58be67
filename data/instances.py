"""Readers for the instance tables of this directory (Korf's 100, the hard positions; see its
README).

Shared by the tests and the bench scripts: both put ``data/`` on ``sys.path`` (the tests through
pyproject.toml's pytest ``pythonpath``) and ``from instances import korf100``.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

DATA = Path(__file__).resolve().parent


class Instance(NamedTuple):
    id: str
    tiles: tuple[int, ...]
    optimal: int
    columns: tuple[int, ...]  # any further numeric columns (bounds, for korf100)


def read(name: str) -> list[Instance]:
    """The instances of ``data/<name>`` (tab-separated: id, tiles, optimal, more numbers)."""
    out = []
    for line in (DATA / name).read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        out.append(Instance(fields[0], tuple(map(int, fields[1].split())), int(fields[2]), tuple(map(int, fields[3:]))))
    return out


def korf100() -> list[Instance]:
    return read("korf100.tsv")


def hard() -> list[Instance]:
    return read("hard.tsv")
