#!/usr/bin/env python3
"""How fast is this host today?  A fixed, minimal Manhattan-distance IDA* (not the project's code).

    python3 bench/calibrate.py            # ~5 s; prints expanded nodes per CPU second

``docs/reference/performance-notes.md`` (the figures the speed targets of the project
were set from) measured a plain MD search at 6.3 M expanded nodes/s "on this
machine".  The loop below is written the way those notes recommend
(recursion, the child tested in the parent's loop, neighbour lists per square
and previous square, per-tile MD deltas, a list board, two stores per move,
no counter in the timed run), so its rate says how this host compares today:
when it prints ~3.4 M/s, every CPU time measured here is ~1.8x what the same
code would take on the host of the notes.  The node count is deterministic
(a second, counting run), so only the time varies.
"""

from __future__ import annotations

import sys
import time

ROWS = COLS = 4
N = ROWS * COLS
# A fixed position (200 random moves from the goal; MD 36), searched through bound 52.
START = [15, 11, 3, 1, 7, 0, 8, 6, 4, 10, 13, 12, 2, 9, 14, 5]
LAST_BOUND = 52


def _md(t: int, p: int) -> int:
    g = t - 1
    return abs(g // COLS - p // COLS) + abs(g % COLS - p % COLS)


def _neighbours(p: int) -> list[int]:
    r, c = divmod(p, COLS)
    return [q for q, ok in ((p - COLS, r > 0), (p + COLS, r < ROWS - 1), (p - 1, c > 0), (p + 1, c < COLS - 1)) if ok]


# NEXT[b][prev] = ((s, delta_by_tile), ...) for the blank on b coming from prev (N = none)
NEXT = [
    [tuple((s, tuple(_md(t, b) - _md(t, s) if t else 0 for t in range(N))) for s in _neighbours(b) if s != prev) for prev in range(N + 1)]
    for b in range(N)
]


def search(board: list[int], count: bool) -> tuple[int, int]:
    nodes = 0

    def dfs(b, prev, budget, h):
        budget -= 1
        for s, delta in NEXT[b][prev]:
            t = board[s]
            h2 = h + delta[t]
            if h2 > budget:
                continue
            if h2 == 0:
                return True
            board[b] = t
            if dfs(s, b, budget, h2):
                return True
            board[s] = t
        return False

    def counting(b, prev, budget, h):
        nonlocal nodes
        nodes += 1
        budget -= 1
        for s, delta in NEXT[b][prev]:
            t = board[s]
            h2 = h + delta[t]
            if h2 > budget:
                continue
            if h2 == 0:
                return True
            board[b] = t
            if counting(s, b, budget, h2):
                return True
            board[s] = t
        return False

    h0 = sum(_md(t, p) for p, t in enumerate(board) if t)
    f = counting if count else dfs
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 1000))
    blank = board.index(0)
    start = list(board)
    for bound in range(h0, LAST_BOUND + 1, 2):
        board[:] = start  # the loop never writes the blank: reset between iterations
        if f(blank, N, bound, h0):
            break
    return h0, nodes


def main() -> int:
    t0 = time.process_time()
    h0, _ = search(list(START), count=False)
    seconds = time.process_time() - t0
    _, nodes = search(list(START), count=True)
    print(
        f"minimal MD IDA* (h0 {h0}, bounds {h0}..{LAST_BOUND}): {nodes:,} expanded nodes in {seconds:.2f} s CPU = "
        f"{nodes / seconds / 1e6:.2f} M nodes/s (docs/reference/performance-notes.md: 6.3 M/s)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
