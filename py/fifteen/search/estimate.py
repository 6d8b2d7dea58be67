"""How long the whole optimal search takes, estimated from the iterations seen so far.

IDA* runs one iteration per cost bound (b, b + 2, b + 4 ...), each about the same factor *g*
larger than the one before.  *g* is the geometric mean of the last growth ratios (up to three),
used only when they agree within :data:`MAX_GROWTH_SPREAD`.  Nothing says where the optimum
lies, so the estimate assumes a plausible one: :data:`WHOLE_STEPS` iterations after the next one.
With *N* the last finished iteration's nodes and *d* the running one's nodes so far, the search
left is ``N * (g + g**2 + ... + g**(WHOLE_STEPS + 1)) - d`` nodes.  The page's
``static/js/model/format.js`` (``wholeSearch``) uses the same model.

>>> from fifteen.search.ida import Iteration
>>> its = [Iteration(40, 100, 0.1), Iteration(42, 1_000, 1.0), Iteration(44, 10_000, 10.0)]
>>> w = whole_search(its, running_nodes=0, rate=1_000)
>>> round(w.growth, 3), w.bound, round(w.seconds)
(10.0, 50, 11100)
>>> w.out_of_reach
True
>>> whole_search(its[:2], running_nodes=0, rate=1_000) is None  # too few iterations
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from fifteen.search.ida import Iteration

#: Growth ratios spreading more than this factor (max / min) give no estimate.
MAX_GROWTH_SPREAD = 3.0
#: Iterations assumed after the next one before the optimum is reached.
WHOLE_STEPS = 2
#: A whole search longer than this (seconds) at its rate is out of reach here.
OUT_OF_REACH_SECONDS = 600.0


@dataclass(frozen=True)
class WholeSearch:
    """The estimate: *seconds* left at the rate seen, up to cost *bound*, at *growth* per iteration."""

    seconds: float
    bound: int
    growth: float

    @property
    def out_of_reach(self) -> bool:
        """More than :data:`OUT_OF_REACH_SECONDS` left: an anytime answer is the better offer."""
        return self.seconds > OUT_OF_REACH_SECONDS


def whole_search(iterations: Sequence[Iteration], running_nodes: int, rate: float) -> WholeSearch | None:
    """The estimate from the finished *iterations*, the running iteration's nodes so far and the
    *rate* (nodes per second); ``None`` with fewer than three finished iterations, no rate, or
    growth that is irregular or not above 1."""
    its = [it for it in iterations if it.nodes > 0]
    if len(its) < 3 or rate <= 0:
        return None
    ratios = [its[i].nodes / its[i - 1].nodes for i in range(max(1, len(its) - 3), len(its))]
    low, high = min(ratios), max(ratios)
    if low <= 1 or high / low > MAX_GROWTH_SPREAD:
        return None
    growth = math.exp(sum(map(math.log, ratios)) / len(ratios))
    nodes, step = 0.0, float(its[-1].nodes)
    for _ in range(WHOLE_STEPS + 1):
        step *= growth
        nodes += step
    return WholeSearch(max(0.0, nodes - running_nodes) / rate, its[-1].bound + 2 * (WHOLE_STEPS + 1), growth)


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
