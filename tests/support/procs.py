"""Processes seen from outside, through /proc (Linux): shared by tests/test_process_faults.py and
bench/orphans.py."""

from __future__ import annotations

import os
import time
from pathlib import Path

#: Generous: an event on a loaded 2-core machine.
DEADLINE = 60.0


def wait_until(what: str, condition, deadline: float = DEADLINE) -> None:
    """Wait for *condition* (polled), failing with *what* after *deadline* seconds."""
    end = time.monotonic() + deadline
    while not condition():
        if time.monotonic() > end:
            raise AssertionError(f"not within {deadline:.0f} s: {what}")
        time.sleep(0.02)


#: A program (``python -c SPINNING_POOL WATCH``) whose pool of two workers runs calls that never
#: end (only the parent's death can end them); it prints the workers' pids, then sleeps.
#: WATCH is ``processes.PARENT_WATCH``: ``prctl`` (Linux's parent-death signal) or ``poll``.
SPINNING_POOL = """
import sys, time
from fifteen.parallel import processes
processes.PARENT_WATCH = sys.argv[1]

def spin(*, stopped):
    while True:
        pass

pool = processes.WorkerPool(2)
for w in pool.workers:
    pool.submit(w, w.index, spin)
print(*(w.process.pid for w in pool.workers), flush=True)
time.sleep(600)
"""


def state(pid: int) -> str:
    """The process's state letter (R running, S sleeping, T stopped, Z zombie), "" when gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return ""
    return stat.rsplit(")", 1)[1].split()[0]


def gone(pid: int) -> bool:
    """The process has ended: no longer in /proc, or a zombie (ended, not yet reaped by the
    process that adopted it; it holds no file and runs nothing)."""
    return state(pid) in ("", "Z")


def children(pid: int) -> list[int]:
    """The pids of the process's children."""
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except FileNotFoundError:
        return []


def cpu_seconds(pid: int) -> float:
    """The CPU time the process has used (user + system), 0 when gone: an event to wait for
    when a process prints nothing while it works (a measure of work done, not of time passed)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except FileNotFoundError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime: fields 14 and 15 of stat
