"""The project's wheel and sdist, built as ``make package`` builds them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

#: The time stamp of every file in the packages (the Makefile's SOURCE_DATE_EPOCH: 1980-01-01).
SOURCE_DATE_EPOCH = "315532800"


def build_package(source: Path, out: Path) -> tuple[Path, Path]:
    """(wheel, sdist) of the project in *source*: PyPA build, the wheel from the sdist, the venv's
    hatchling (no download)."""
    env = {**os.environ, "SOURCE_DATE_EPOCH": SOURCE_DATE_EPOCH}
    cmd = [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(source)]
    done = subprocess.run(cmd, capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    (wheel,) = out.glob("fifteen-*-py3-none-any.whl")
    (sdist,) = out.glob("fifteen-*.tar.gz")
    return wheel, sdist
