#!/usr/bin/env python3
"""Write ``py/fifteen/search/known_sequences.py``: the forbidden sequences of the 4x4 board's
duplicate-pruning automaton, plain and mirror-closed, as :mod:`fifteen.search.moves` computes
them (see that module).  Run it after any change to how they are found or how moves are
numbered; ``tests/test_moves.py`` fails until it is run.

    PYTHONPATH=py python3 tools/known_sequences.py
"""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "py"))

from fifteen.board import Shape  # noqa: E402
from fifteen.search import known_sequences, moves  # noqa: E402

OUT = ROOT / "py" / "fifteen" / "search" / "known_sequences.py"
SHAPES = ("4x4",)  # the boards whose first search should not wait for the enumeration


def main() -> None:
    entries = []
    for name in SHAPES:
        shape = Shape.parse(name)
        for mirror_closed in (False, True):
            tables = moves.MoveTables(shape, mirror_closed=mirror_closed, known=False)
            key = (name, tables.prune_depth, mirror_closed)
            data = known_sequences.encode(tables.forbidden_sequences)
            fingerprint = known_sequences.fingerprint(tables.moves)
            wrapped = "\n".join(f'        "{line}"' for line in textwrap.wrap(data, 96))
            entries.append(f"    {key!r}: (\n        {fingerprint!r},\n{wrapped},\n    ),")
    text = OUT.read_text()
    head = text[: text.index("KNOWN: dict")]
    OUT.write_text(head + "KNOWN: dict[tuple[str, int, bool], tuple[str, str]] = {\n" + "\n".join(entries) + "\n}\n")
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
