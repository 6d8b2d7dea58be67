"""The command line as a user runs it: ``python -m fifteen ...`` in a fresh process."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import fifteen

ROOT = Path(__file__).resolve().parents[2]
#: Where the package under test is imported from: the checkout's py/, or a staged copy's (mutmut's src/ layout).
PACKAGE_PATH = Path(fifteen.__file__).resolve().parents[1]


def package_env() -> dict[str, str]:
    """This process's environment with the package under test first on ``PYTHONPATH``: for a
    subprocess that imports it (the command line, a bench script)."""
    return dict(os.environ, PYTHONPATH=str(PACKAGE_PATH))


def run_cli(*args: str, cwd: Path = ROOT, timeout: float | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m fifteen *args`` with the checkout's package; output captured as text.  *timeout*:
    a run that should end by itself (a time limit) fails instead of hanging when it does not."""
    command = [sys.executable, "-m", "fifteen", *args]
    return subprocess.run(command, capture_output=True, text=True, env=package_env(), cwd=cwd, timeout=timeout)
