"""What this machine can give a search now: its free memory.

Read where a choice depends on it: how many worker processes ``--jobs`` may start
(:func:`fifteen.parallel.processes.resolve_jobs`) and whether a beam in numpy wider than the pure
beam's widest is started (:func:`fifteen.anytime.beam.beam_max_states`).
"""

from __future__ import annotations

import os


def available_memory() -> int | None:
    """The bytes of memory this machine can give new processes now (Linux's MemAvailable, else
    the free pages), or None when it cannot tell."""
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, OSError, ValueError):  # pragma: no cover - not POSIX
        return None


__all__ = ["available_memory"]
