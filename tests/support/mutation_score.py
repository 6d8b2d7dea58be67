"""The mutation score per module after ``make mutants``: reads ``mutmut results --all true``.

    .venv/bin/mutmut results --all true | python tests/support/mutation_score.py

A mutant counts as killed when a test failed or timed out with it; survivors and mutants no
selected test reaches count against the score; mutants not run yet are listed apart.
"""

from __future__ import annotations

import re
import sys
from collections import Counter, defaultdict

#: ``fifteen.bounds.walking.x_walking_available__mutmut_1: killed`` (a function) or
#: ``fifteen.board.xǁBoardǁslide__mutmut_3: survived`` (a method): the module is what comes before ``.x``.
LINE = re.compile(r"^\s*fifteen\.([\w.]+?)\.x[_ǁ]\S*__mutmut_\d+: (.+?)\s*$")
KILLED = {"killed", "timeout"}


def scores(lines) -> dict[str, Counter]:
    by_module: dict[str, Counter] = defaultdict(Counter)
    for line in lines:
        m = LINE.match(line)
        if m:
            by_module[m.group(1)][m.group(2)] += 1
    return by_module


def main() -> int:
    by_module = scores(sys.stdin)
    if not by_module:
        print("no mutants found in the input (run `make mutants` first)")
        return 1
    total = Counter()
    print(f"{'module':<16}{'mutants':>8}{'killed':>8}{'survived':>10}{'no tests':>10}{'not run':>9}{'score':>8}")
    for module in sorted(by_module):
        c = by_module[module]
        total.update(c)
        _row(module, c)
    _row("all", total)
    return 0


def _row(name: str, c: Counter) -> None:
    killed = sum(c[s] for s in KILLED)
    not_run = c["not checked"]
    run = sum(c.values()) - not_run
    score = f"{100 * killed / run:.1f} %" if run else "-"
    print(f"{name:<16}{sum(c.values()):>8}{killed:>8}{c['survived']:>10}{c['no tests']:>10}{not_run:>9}{score:>8}")


if __name__ == "__main__":
    sys.exit(main())
