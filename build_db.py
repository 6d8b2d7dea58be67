#!/usr/bin/env python3
"""Build the database assets into static/db (``make db``; ``make pack`` for the optional 7-8 pack).

A thin entry point: the build code is the package ``py/dbbuild`` (see ``--help``
and :mod:`dbbuild.cli`).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "py"))

from dbbuild.cli import main  # noqa: E402  (after the path set-up above)

if __name__ == "__main__":
    sys.exit(main())
