"""How long the rest of an optimal search takes, estimated from the iterations seen so far: the one
rule of the command line, the API's progress reports and the page (which only divides by its rate).

IDA* runs one iteration per cost bound (b, b + 2, b + 4 ...), each about the same factor *g*
larger than the one before.  The growth is read from the last ratios (up to three) of finished
iterations of at least :data:`MIN_NODES` nodes (smaller ones say little), and used only when they
agree within :data:`MAX_GROWTH_SPREAD`.  With *N* the last such iteration's nodes and *g_low*,
*g_high* the smallest and largest of those ratios, the estimate says two things, in nodes counted
from the start of the running iteration (the caller subtracts what the running iteration has
searched so far and divides by its rate: :meth:`Estimate.seconds`):

* **the running iteration**, if it holds no solution: ``N * g_low`` to ``N * g_high`` nodes;
* **the whole search**, only when the board's longest optimum *M* is known (80 on 4x4, the
  explorer's radius on a small board: :func:`fifteen.bounds.databases.longest_optimum`; one less
  when the bounds have the other parity, since every solution has their parity): if the
  shortest solution has *M* moves, every iteration up to *M - 2* in full and the one at *M*, the
  last, in part, since it ends when it finds a solution: after :data:`LAST_SHARE` of its full
  size at the soonest, all of it at the latest.  A shorter optimum ends sooner.  It is given
  only once *M* is at most :data:`WHOLE_ITERATIONS` iterations away: nothing bounds a search
  without a known longest optimum, and a far one says too little, so these get no whole-search
  figure (silent rather than wrong); no bound above *M* is ever named.

Two thresholds of :data:`OUT_OF_REACH_SECONDS`, at the rate seen (:meth:`Estimate.slow`,
:meth:`Estimate.out_of_reach`):

* the running iteration, if it holds no solution, needs more: an anytime answer is the better
  offer (the page highlights Fast answer, the command line names ``--anytime``), and nothing more
  is claimed, since the running iteration may hold the solution and end early (the transposed
  goal's last iteration would take 24 minutes in full; it ends after 2.5 % of it);
* even its soonest end (the solution in it, found after :data:`LAST_SHARE` of what is left of it
  at the soonest) is farther: the optimal search is **out of reach** here, said in those words.

``bench/estimate.py`` replays the iterations of the hardest positions at a given rate and prints
the estimate against the true remaining time at every step (bench/estimate.md).

>>> from fifteen.search.ida import Iteration
>>> its = [Iteration(70, 1_000, 0.1), Iteration(72, 10_000, 1.0), Iteration(74, 100_000, 10.0)]
>>> e = estimate(its, longest=80)
>>> e.bound, e.growth, e.running
(76, (10.0, 10.0), (1000000.0, 1000000.0))
>>> [round(n) for n in e.whole]  # 76 and 78 in full, then 80 from its soonest share to all of it
[12000000, 111000000]
>>> round(e.seconds(e.running[0], done=400_000, rate=10_000))  # the running iteration's rest
60
>>> e.slow(done=0, rate=1_000), e.out_of_reach(done=0, rate=1_000)  # 1,000 s for bound 76 alone; its soonest end in 10 s
(True, False)
>>> estimate(its[:2], longest=80) is None  # two iterations: one ratio
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from fifteen.search.ida import Iteration

#: Iterations of fewer nodes than this are left out of the growth (their ratios are noise).
MIN_NODES = 1_000
#: Growth ratios spreading more than this factor (max / min) give no estimate.
MAX_GROWTH_SPREAD = 3.0
#: The share of its full size after which the last iteration (the one that finds the shortest
#: solution) ends, at the soonest and at the latest: on Korf's 100, 10 % of the last iterations
#: end before 1 % of the size their growth predicts, half before 10-17 % (bench/estimate.md).
LAST_SHARE = (0.01, 1.0)
#: The whole search is estimated only when at most this many iterations are left up to the
#: longest optimum, the running one included: farther away, "if the shortest solution has the
#: most moves any position needs" says too little (days for a search that may end in seconds).
WHOLE_ITERATIONS = 3
#: A running iteration that needs more than this (seconds) at the rate seen makes an anytime
#: answer the better offer; one whose soonest end is farther puts the optimal search out of reach here.
OUT_OF_REACH_SECONDS = 600.0


@dataclass(frozen=True)
class Estimate:
    """What the iterations so far say (the module docstring): *bound* the running iteration's;
    *growth* the smallest and largest recent growth; *running* its full nodes if it holds no
    solution; *longest* the longest optimum of the board at the bounds' parity (``None``:
    unknown); *whole* the nodes from
    the running iteration's start to the end of the search if the shortest solution has *longest*
    moves (``None`` without *longest*).  Pairs are (soonest, latest)."""

    bound: int
    growth: tuple[float, float]
    running: tuple[float, float]
    longest: int | None = None
    whole: tuple[float, float] | None = None

    @staticmethod
    def seconds(nodes: float, done: float, rate: float) -> float:
        """The seconds left of *nodes* counted from the running iteration's start, when it has
        searched *done* nodes, at *rate* nodes per second (never below zero)."""
        return max(0.0, nodes - done) / rate if rate > 0 else float("inf")

    @property
    def last(self) -> bool:
        """The running iteration is the last the longest optimum allows: it holds the solution."""
        return self.longest is not None and self.bound >= self.longest

    def slow(self, done: float, rate: float) -> bool:
        """The running iteration, if it holds no solution, needs more than
        :data:`OUT_OF_REACH_SECONDS` at *rate*, having searched *done* nodes (the last possible
        one: from its soonest end): an anytime answer is the better offer."""
        return self.out_of_reach(done, rate) or (not self.last and self.seconds(self.running[0], done, rate) > OUT_OF_REACH_SECONDS)

    def out_of_reach(self, done: float, rate: float) -> bool:
        """Even the soonest end of the running iteration (the solution in it, found after
        :data:`LAST_SHARE` of what is left of it at the soonest) is more than
        :data:`OUT_OF_REACH_SECONDS` away."""
        return LAST_SHARE[0] * self.seconds(self.running[0], done, rate) > OUT_OF_REACH_SECONDS

    def to_json(self) -> dict[str, Any]:
        """``{"bound", "growth", "running", "longest", "whole", "soonest_share"}``: the API's
        progress reports carry it as ``estimate`` (pairs as two-item lists, node counts rounded;
        *soonest_share* is :data:`LAST_SHARE`'s first, for :meth:`out_of_reach` at the caller's rate)."""
        return {
            "bound": self.bound,
            "growth": [round(g, 3) for g in self.growth],
            "running": [round(n) for n in self.running],
            "longest": self.longest,
            "whole": None if self.whole is None else [round(n) for n in self.whole],
            "soonest_share": LAST_SHARE[0],
        }


def growth(iterations: Sequence[Iteration]) -> tuple[float, float] | None:
    """The smallest and largest of the last (up to three) growth ratios between finished
    iterations of at least :data:`MIN_NODES` nodes; ``None`` with fewer than two ratios."""
    its = [it for it in iterations if it.nodes >= MIN_NODES]
    if len(its) < 3:
        return None
    ratios = [its[i].nodes / its[i - 1].nodes for i in range(max(1, len(its) - 3), len(its))]
    return min(ratios), max(ratios)


def regular(spread: tuple[float, float] | None) -> bool:
    """Growth above 1 that agrees within :data:`MAX_GROWTH_SPREAD`: an estimate can be made."""
    return spread is not None and spread[0] > 1 and spread[1] / spread[0] <= MAX_GROWTH_SPREAD


def estimate(iterations: Sequence[Iteration], longest: int | None = None) -> Estimate | None:
    """The estimate after the finished *iterations* (the running one is the next bound), on a
    board whose longest optimum is *longest* (``None``: unknown); ``None`` without a regular
    growth (:func:`regular`)."""
    spread = growth(iterations)
    if not regular(spread):
        return None
    assert spread is not None
    low, high = spread
    last = [it for it in iterations if it.nodes >= MIN_NODES][-1].nodes
    bound = iterations[-1].bound + 2
    running = (last * low, last * high)
    whole = None
    if longest is not None:
        longest -= (longest - bound) % 2  # every solution has the parity of the bounds
        if bound <= longest <= bound + 2 * (WHOLE_ITERATIONS - 1):
            whole = (_through(last, low, bound, longest, LAST_SHARE[0]), _through(last, high, bound, longest, LAST_SHARE[1]))
        else:
            longest = None
    return Estimate(bound, spread, running, longest, whole)


def _through(last: float, g: float, bound: float, longest: int, share: float) -> float:
    """Nodes from iteration *bound* through *longest* (the last counted at *share*) at growth *g*
    after an iteration of *last* nodes."""
    nodes, size = 0.0, float(last)
    for b in range(int(bound), longest + 1, 2):
        size *= g
        nodes += size * (share if b == longest else 1.0)
    return nodes


def rough_duration(seconds: float) -> str:
    """A duration rounded to one unit (s, min, h, days): estimates are not precise.

    >>> rough_duration(42.4), rough_duration(1800), rough_duration(7200), rough_duration(864000)
    ('42 s', '30 min', '2 h', '10 days')
    """
    if seconds < 60:
        return f"{max(1, round(seconds))} s"
    if seconds < 3600:
        return f"{round(seconds / 60)} min"
    if seconds < 86400 * 2:
        return f"{round(seconds / 3600)} h"
    return f"{round(seconds / 86400)} days"


def rough_range(low: float, high: float) -> str:
    """``"30 s - 3 min"``: a range of durations, each rounded (``"about 5 min"`` when both round alike).

    >>> rough_range(40, 200), rough_range(290, 310)
    ('40 s - 3 min', 'about 5 min')
    """
    a, b = rough_duration(low), rough_duration(high)
    return f"about {a}" if a == b else f"{a} - {b}"
