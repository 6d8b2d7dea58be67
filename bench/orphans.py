#!/usr/bin/env python3
"""How long the worker processes outlive their parent: from the parent's death (or the signal
that ends it) to every worker gone, over several runs.

    PYTHONPATH=py python3 bench/orphans.py --runs 10

Cases: a pool whose two workers run calls that never end, its parent killed with SIGKILL, with
the Linux parent-death signal (``prctl``) and with the portable watch (``poll``); and the CLI's
``solve --jobs 2`` and ``batch --jobs 2`` (both busy on a position that takes minutes) ended with
SIGKILL or SIGTERM.  A worker is gone when it is no longer in /proc or is a zombie (ended, not
yet reaped by the process that adopted it).  The time is measured from the ``kill`` call, polling
/proc every millisecond; for SIGTERM it includes the parent's own shut-down of its pool.  Results:
``parallel.md`` ("Workers never outlive the run").
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests")]

from support.positions import KORF  # noqa: E402
from support.procs import SPINNING_POOL, children, gone, state  # noqa: E402

SLOW = " ".join(map(str, KORF["1"]))  # minutes with MD


def wait_for(condition, deadline: float = 120.0) -> None:
    end = time.monotonic() + deadline
    while not condition():
        if time.monotonic() > end:
            raise SystemExit("gave up waiting")
        time.sleep(0.005)


def one_run(case: str, sig: signal.Signals, batch_file: str) -> float:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "py"))
    if case in ("prctl", "poll"):
        args = [sys.executable, "-c", SPINNING_POOL, case]
    elif case == "solve":
        args = [sys.executable, "-m", "fifteen", "solve", SLOW, "--bound", "md", "--jobs", "2", "--quiet"]
    else:
        args = [sys.executable, "-m", "fifteen", "batch", batch_file, "--bound", "md", "--jobs", "2", "--quiet"]
    proc = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    wait_for(lambda: len(children(proc.pid)) == 2)
    pids = children(proc.pid)
    wait_for(lambda: all(state(p) == "R" for p in pids))  # busy
    start = time.perf_counter()
    os.kill(proc.pid, sig)
    while not all(gone(p) for p in pids):
        time.sleep(0.001)
    seconds = time.perf_counter() - start
    proc.wait(60)
    return seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    print(f"load: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f} (1, 5, 15 min)")
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("".join(f"{i}\t{SLOW}\n" for i in "abcd"))
    cases = [("prctl", signal.SIGKILL), ("poll", signal.SIGKILL), ("solve", signal.SIGKILL), ("batch", signal.SIGKILL)]
    cases += [("solve", signal.SIGTERM), ("batch", signal.SIGTERM)]
    print(f"{'case':22} {'runs':>4} {'min ms':>8} {'median ms':>10} {'max ms':>8}")
    for case, sig in cases:
        times = [one_run(case, sig, f.name) * 1000 for _ in range(args.runs)]
        name = f"{case} {sig.name}" if case in ("solve", "batch") else f"pool ({case}) {sig.name}"
        print(f"{name:22} {len(times):4} {min(times):8.1f} {statistics.median(times):10.1f} {max(times):8.1f}")
    os.unlink(f.name)
    print(f"load: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f} (1, 5, 15 min)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
