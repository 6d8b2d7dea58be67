"""Pattern-database bounds, when their assets are loaded (filled in by fifteen.pdb)."""

from __future__ import annotations


def bound_infos() -> list:
    return []


def bound_values(board) -> dict[str, int]:
    return {}
