#!/usr/bin/env python3
"""Replay recorded IDA* iterations at a given rate and print the estimate at each step against
the true remaining time (fifteen.search.estimate, the rule of the command line and the page).

    PYTHONPATH=py python3 bench/estimate.py                        # H01, H15, the transposed goal
    PYTHONPATH=py python3 bench/estimate.py --ids H01 --rate 400000
    PYTHONPATH=py python3 bench/estimate.py --korf                 # Korf's 100: the last iteration's share

The iterations' node counts are deterministic (``data/hard-pdb771-nodes.tsv``,
``data/korf100-pdb771-nodes.tsv``, written by ``bench/node_counts.py``), so the search can be
replayed at a constant rate without running it: at the start of every iteration and at each
quarter of it, the estimate made from the iterations finished so far (the running iteration's
nodes so far subtracted, as the page does) is printed beside the time the search really has
left.  The rate of an instance is the page's (its nodes over its ``page_seconds`` in
``static/data/examples.json``, measured by ``tools/web_bench.py``) unless ``--rate`` is given.

Columns: the running bound and its share done, the elapsed and the true remaining time, the
running iteration's estimate (if it holds no solution), the whole search's range (given only
near the longest optimum) and how far the truth lies outside it (1.00: inside), and what the
page would say besides: "out of reach", or nothing but a fast answer offered (its running
iteration would take more than 10 minutes if it held no solution).  The summary checks what issue 33 asks: every whole-search range
within 3x of the truth, no bound above the longest optimum named, no "out of reach" for a search
that ends within 10 minutes.  Exit status 1 when one fails.

``--korf`` prints, for Korf's 100, the share of its predicted full size after which the last
iteration (the one that finds the solution) ended: the quantiles behind ``LAST_SHARE``.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "py"))

from fifteen.search.estimate import LAST_SHARE, OUT_OF_REACH_SECONDS, estimate, rough_duration, rough_range  # noqa: E402
from fifteen.search.ida import Iteration  # noqa: E402

LONGEST_4X4 = 80  # fifteen.bounds.exact.PUBLISHED_RADII["4x4"]
#: The examples' ids (static/data/examples.json) of the records' ids (data/hard.tsv).
EXAMPLE_IDS = {"H01": "h01", "H15": "h15", "transposed": "transposed"}


def records(path: Path) -> dict[str, tuple[int, list[tuple[int, int]]]]:
    """id -> (optimal length, [(bound, nodes), ...]) of a node-count record."""
    out = {}
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        ident, length, _nodes, its, *_ = line.split("\t")
        pairs = [pair.split(":") for pair in its.split()]
        out[ident] = (int(length), [(int(b), int(n)) for b, n in pairs])
    return out


@dataclass
class Worst:
    """What a replay found: how far the truth lay outside the whole-search ranges (1.0: inside),
    at how many points a range was shown, the bounds above the longest optimum named, and the
    points (bound, share done) where "out of reach" was said and where a fast answer was offered."""

    ratio: float = 1.0
    soonest: tuple[float, float] = (float("inf"), 0.0)  # the range's soonest end over the truth at iterations' starts: smallest, largest
    shown: int = 0
    above: list[int] = field(default_factory=list)
    reach: list[tuple[int, float]] = field(default_factory=list)
    offered: list[tuple[int, float]] = field(default_factory=list)


def page_rates() -> dict[str, float]:
    """The page's rate of each example measured in it (nodes are filled in by the caller)."""
    data = json.loads((ROOT / "static/data/examples.json").read_text())
    return {ex["id"]: ex["page_seconds"] for ex in data["examples"] if ex.get("page_seconds")}


def replay(ident: str, its: list[tuple[int, int]], rate: float, longest: int, quiet: bool = False) -> Worst:
    """Print the estimate at each quarter of each iteration; return the worst figures."""
    total = sum(n for _, n in its)
    worst = Worst()
    if not quiet:
        print(f"\n{ident}: {len(its)} iterations, {total:,} nodes, at {rate:,.0f} nodes/s = {rough_duration(total / rate)}")
        print(
            f"{'bound':>5} {'done':>5} {'elapsed':>8} {'left':>8} {'running if no solution':>22} {'whole search':>18} {'outside':>7} said"
        )
    done_before = 0
    for k, (bound, nodes) in enumerate(its):
        finished = [Iteration(b, n, 0.0) for b, n in its[:k]]
        e = estimate(finished, longest)
        for q in (0.0, 0.25, 0.5, 0.75):
            done = int(nodes * q)
            left = (total - done_before - done) / rate
            elapsed = (done_before + done) / rate
            running = whole = outside = said = ""
            if e is not None:
                assert e.bound == bound
                running = rough_range(*(e.seconds(n, done, rate) for n in e.running)) if e.bound != e.longest else ""
                if e.out_of_reach(done, rate):
                    worst.reach.append((bound, q))
                    said = "OUT OF REACH"
                elif e.slow(done, rate):
                    worst.offered.append((bound, q))
                    said = "fast answer offered"
                if e.whole is not None and e.longest is not None:
                    low, high = (e.seconds(n, done, rate) for n in e.whole)
                    ratio = low / left if left < low else left / high if left > high else 1.0
                    worst.ratio = max(worst.ratio, ratio)
                    if q == 0.0:  # at each iteration's start
                        worst.soonest = (min(worst.soonest[0], low / left), max(worst.soonest[1], low / left))
                    worst.shown += 1
                    whole, outside = rough_range(low, high), f"{ratio:.2f}"
                    if e.longest > longest:
                        worst.above.append(e.longest)
            if not quiet:
                print(
                    f"{bound:>5} {q:>5.0%} {rough_duration(elapsed):>8} {rough_duration(left):>8} {running:>22} {whole:>18} {outside:>7} "
                    f"{said}"
                )
        done_before += nodes
    return worst


def korf_shares(path: Path) -> None:
    """The last iteration's share of its predicted full size (the smallest growth's), on Korf's 100."""
    shares = []
    for _, (_, its) in records(path).items():
        e = estimate([Iteration(b, n, 0.0) for b, n in its[:-1]])
        if e is not None:
            shares.append(its[-1][1] / e.running[0])
    shares.sort()
    quant = {q: shares[min(len(shares) - 1, int(q * len(shares)))] for q in (0.05, 0.1, 0.25, 0.5, 0.75, 0.9)}
    print(f"{path.name}: {len(shares)} of Korf's 100 with an estimate at their last iteration:")
    print("last iteration's share of its predicted size: " + ", ".join(f"{q:.0%}: {v:.3f}" for q, v in quant.items()))
    print(f"below LAST_SHARE[0] = {LAST_SHARE[0]}: {sum(s < LAST_SHARE[0] for s in shares)}; above 1: {sum(s > 1 for s in shares)}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ids", nargs="*", default=["H01", "H15", "transposed"])
    ap.add_argument("--rate", type=float, help="nodes per second (default: the page's, from static/data/examples.json)")
    ap.add_argument("--korf", action="store_true", help="the last iteration's share on Korf's 100")
    ap.add_argument("--records", default=str(ROOT / "data/hard-pdb771-nodes.tsv"))
    args = ap.parse_args()
    if args.korf:
        korf_shares(ROOT / "data/korf100-pdb771-nodes.tsv")
        korf_shares(ROOT / "data/korf100-pdb663-nodes.tsv")
        return 0
    recs = records(Path(args.records))
    seconds = page_rates()
    failed = False
    for ident in args.ids:
        _, its = recs[ident]
        total = sum(n for _, n in its)
        rate = args.rate or total / seconds[EXAMPLE_IDS[ident]]
        worst = replay(ident, its, rate, LONGEST_4X4)
        within = total / rate <= OUT_OF_REACH_SECONDS  # the whole search ends within 10 minutes
        ok = worst.ratio <= 3 and not worst.above and not (within and worst.reach)
        failed |= not ok
        print(
            f"{ident}: whole-search range shown at {worst.shown} points, the truth at most {worst.ratio:.2f}x outside it"
            + (
                f" (its soonest end {worst.soonest[0]:.2f}-{worst.soonest[1]:.2f}x the truth at the iterations' starts); "
                if worst.shown
                else "; "
            )
            + f"bounds above {LONGEST_4X4} named: {worst.above or 'none'}; 'out of reach' said at "
            f"{worst.reach or 'no point'} of a search of {rough_duration(total / rate)}; a fast answer offered at "
            f"{worst.offered or 'no point'}{'' if ok else '  FAILED'}"
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
