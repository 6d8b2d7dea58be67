"""Exhaustive breadth-first search: the exact distance of every position.

Practical in pure Python up to about 200,000 positions (3x3: 181,440;
2x4: 20,160).  This is the seed's other method, and the tests' ground truth
for checking lower bounds admissible and IDA* optimal.
"""

from __future__ import annotations

from collections.abc import Sequence

from fifteen.board import Shape, neighbours

MAX_POSITIONS = 250_000


def _reachable(shape: Shape) -> int:
    count = 1
    for k in range(2, shape.size + 1):
        count *= k
    return count // 2


def distances(shape: Shape, goal: Sequence[int] | None = None, *, max_depth: int | None = None) -> dict[bytes, int]:
    """``{position as bytes: optimal solution length}`` for every position that can reach
    *goal* (tiles by square; default the standard goal); with *max_depth*, only those within
    that many moves of it (the ball around the goal, for boards too big for the whole BFS)."""
    total = _reachable(shape)
    if total > MAX_POSITIONS and max_depth is None:
        raise ValueError(f"{shape} has {total:,} positions: too many for the pure-Python BFS")
    nbrs = neighbours(shape)
    start = bytes(shape.goal() if goal is None else goal)
    dist = {start: 0}
    frontier = [(start, start.index(0))]
    depth = 0
    while frontier and depth != max_depth:
        depth += 1
        nxt = []
        for pos, b in frontier:
            for s in nbrs[b]:
                child = bytearray(pos)
                child[b], child[s] = child[s], 0
                key = bytes(child)
                if key not in dist:
                    dist[key] = depth
                    nxt.append((key, s))
        frontier = nxt
    return dist


def antipodes(shape: Shape) -> tuple[int, list[tuple[int, ...]]]:
    """The longest optimal solution length and the positions that need it."""
    dist = distances(shape)
    far = max(dist.values())
    return far, sorted(tuple(k) for k, v in dist.items() if v == far)
