#!/usr/bin/env python3
"""Count a large fuzz run of the input contract (the checks of tests/support/fuzz.py).

    PYTHONPATH=py .venv/bin/python tools/fuzz_input.py --examples 5000 --seed 1

Feeds ``--examples`` generated inputs to each entry point (Board.parse, api.call: any method,
move lists, seeds, sessions of the parallel protocol; the CLI's main(argv) in-process,
well-written small positions) and prints, per entry point, how many were
refused (InputError / exit 2 / an ``input`` error), accepted, solved to their BFS distance, or
*escaped* the contract (another exception, a traceback, a message over 300 characters, a wrong
answer); the first escapes are printed.  Exit status 1 when anything escaped.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "py"), str(ROOT / "tests")]

from hypothesis import HealthCheck, Phase, given, seed, settings  # noqa: E402

from support import fuzz  # noqa: E402

TARGETS = {
    "Board.parse": (fuzz.position_texts(), lambda case: fuzz.check_parse(*case)),
    "api.call": (fuzz.api_calls(), lambda case: fuzz.check_api(*case)),
    "api move lists": (fuzz.move_calls(), lambda case: fuzz.check_api(*case)),
    "api seeds": (fuzz.seed_calls(), lambda case: fuzz.check_api(*case)),
    "api parallel": (fuzz.parallel_sessions(), fuzz.check_parallel_session),
    "cli main(argv)": (fuzz.cli_argvs(), fuzz.check_cli),
    "small positions": (fuzz.positions(), lambda case: fuzz.check_parse(case[2], case[0])),
}


def run(name: str, examples: int, seed_value: int, counts: Counter, escapes: list[str]) -> None:
    strategy, check = TARGETS[name]

    @seed(seed_value)
    @settings(max_examples=examples, deadline=None, database=None, phases=[Phase.generate], suppress_health_check=list(HealthCheck))
    @given(strategy)
    def feed(case) -> None:
        try:
            outcome = check(case)
        except fuzz.Escape as exc:
            outcome = "escaped"
            escapes.append(f"{name}: {exc}")
        counts[outcome] += 1

    feed()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=5000, help="inputs per entry point (default 5000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", choices=sorted(TARGETS), help="one entry point")
    args = parser.parse_args()
    total: Counter = Counter()
    escapes: list[str] = []
    for name in [args.only] if args.only else TARGETS:
        counts: Counter = Counter()
        start = time.perf_counter()
        run(name, args.examples, args.seed, counts, escapes)
        total += counts
        detail = ", ".join(f"{k} {v:,}" for k, v in sorted(counts.items()))
        print(f"{name:16} {sum(counts.values()):7,} inputs: {detail}  ({time.perf_counter() - start:.0f} s)")
    print(f"{'total':16} {sum(total.values()):7,} inputs: {total['escaped']:,} escaped")
    for line in escapes[:20]:
        print("  " + line[:400])
    return 1 if escapes else 0


if __name__ == "__main__":
    sys.exit(main())
