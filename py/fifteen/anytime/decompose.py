"""Row-and-column decomposition: a first solution of any solvable position of any shape.

The top row or the left column of the remaining region (the longer side first) is placed tile
by tile, each tile moved by a breadth-first search over (tile square, blank square) with the
placed tiles as walls; the last two tiles of a line by the classic trick (the last tile parked
on the second-to-last square, the other beside it, the blank into the corner, two moves), and
when that traps a tile in the corner, by a breadth-first search over (a, b, blank); the final
2x2 by a breadth-first search over its at most 12 arrangements.  No search can blow up (at most
``free squares ** 2`` states per tile, ``** 3`` for a trapped pair): 10x10 takes ~0.1-0.2 s
natively (``bench/anytime.md``).  The solutions are long (about twice the optimum on the
24-puzzle): the improvers of :mod:`fifteen.anytime` start from here on big boards.

:func:`decompose` reaches a target whose blank is on the last square; :func:`decompose_to` any
target (through the target with its blank walked to the last square, then back).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence

from fifteen.anytime.tables import LabelTables, labelled
from fifteen.board import Shape


class _Trapped(Exception):
    """A tile (or the blank) cannot reach its square with the walls as they are."""


def decompose(T: LabelTables, tiles: Sequence[int], target: Sequence[int], check: Callable[[], None] | None = None) -> list[int]:
    """A path (the blank's squares) from *tiles* to *target*, whose blank must be on the last
    square, by placing the top row / left column of the remaining region (module docstring).
    Always succeeds on a position that can reach *target*; *check* is called per tile."""
    rows, cols, n = T.rows, T.cols, T.n
    nbrs = T.nbrs
    board = labelled(tiles, target)  # label q belongs on square q; the blank's is n - 1
    if list(target).index(0) != n - 1:
        raise ValueError("decompose: the target's blank must be on the last square")
    blank = board.index(n - 1)
    fixed = bytearray(n)
    out: list[int] = []

    def go(squares: list[int]) -> None:
        nonlocal blank
        for s in squares:
            board[blank] = board[s]
            board[s] = n - 1
            blank = s
        out.extend(squares)

    def walk_blank(goal: int) -> list[int]:
        """A shortest walk of the blank to *goal* around the fixed squares."""
        if blank == goal:
            return []
        prev = {blank: -1}
        q = deque([blank])
        while q:
            x = q.popleft()
            for y in nbrs[x]:
                if not fixed[y] and y not in prev:
                    prev[y] = x
                    if y == goal:
                        path = [y]
                        while prev[path[-1]] != blank:
                            path.append(prev[path[-1]])
                        return path[::-1]
                    q.append(y)
        raise _Trapped

    def trace(prev: dict[int, int], key: int, start: int, base: int) -> list[int]:
        path = []
        while key != start:
            path.append(key % base)
            key = prev[key]
        return path[::-1]

    def place(label: int, goal: int) -> None:
        """Move tile *label* to *goal*: a breadth-first search over (tile square, blank square)."""
        if check is not None:
            check()
        tp = board.index(label)
        if tp == goal:
            return
        start = tp * n + blank
        prev = {start: -1}
        q = deque([start])
        while q:
            x = q.popleft()
            t, b = divmod(x, n)
            for y in nbrs[b]:
                if fixed[y]:
                    continue
                nt = b if y == t else t
                key = nt * n + y
                if key in prev:
                    continue
                prev[key] = x
                if nt == goal:
                    go(trace(prev, key, start, n))
                    return
                q.append(key)
        raise _Trapped

    def place_pair(la: int, pa: int, lb: int, pb: int) -> None:
        """Move tiles *la* to *pa* and *lb* to *pb* together: a breadth-first search over (a, b,
        blank) squares (when the single-tile trick traps a tile in the line's last corner)."""
        start = (board.index(la) * n + board.index(lb)) * n + blank
        prev = {start: -1}
        q = deque([start])
        while q:
            x = q.popleft()
            ab, bl = divmod(x, n)
            ta, tb = divmod(ab, n)
            for y in nbrs[bl]:
                if fixed[y]:
                    continue
                na = bl if y == ta else ta
                nb = bl if y == tb else tb
                key = (na * n + nb) * n + y
                if key in prev:
                    continue
                prev[key] = x
                if na == pa and nb == pb:
                    go(trace(prev, key, start, n))
                    return
                q.append(key)
        raise RuntimeError("decompose: the last two tiles of a line cannot be placed")

    def finish_line(p: int, q: int, beside: int) -> None:
        """Place labels p and q (a line's last two squares): tile q parked on p, tile p on
        *beside* (next to p across the line), the blank to q, then two moves."""
        if board[p] == p and board[q] == q:
            return
        try:
            place(q, p)
            fixed[p] = 1
            place(p, beside)
            fixed[beside] = 1
            go(walk_blank(q))
            go([p, beside])
        except _Trapped:
            fixed[p] = fixed[beside] = 0
            place_pair(p, p, q, q)
        fixed[beside] = 0

    r0 = c0 = 0
    while rows - r0 > 2 or cols - c0 > 2:
        if rows - r0 > 2 and (rows - r0 >= cols - c0 or cols - c0 == 2):
            for c in range(c0, cols - 2):
                sq = r0 * cols + c
                place(sq, sq)
                fixed[sq] = 1
            p, q = r0 * cols + cols - 2, r0 * cols + cols - 1
            finish_line(p, q, p + cols)
            fixed[p] = fixed[q] = 1
            r0 += 1
        else:
            for r in range(r0, rows - 2):
                sq = r * cols + c0
                place(sq, sq)
                fixed[sq] = 1
            p, q = (rows - 2) * cols + c0, (rows - 1) * cols + c0
            finish_line(p, q, p + 1)
            fixed[p] = fixed[q] = 1
            c0 += 1
    # The last 2x2: turn the blank around (a breadth-first search over its arrangements).
    corner = (rows - 2) * cols + cols - 2
    cells = (corner, corner + 1, corner + cols, corner + cols + 1)
    startk = (tuple(board[c] for c in cells), blank)
    prevk: dict = {startk: None}
    qk = deque([startk])
    while qk:
        key = qk.popleft()
        arr, b = key
        if arr == cells and b == n - 1:
            path = []
            while prevk[key] is not None:
                path.append(key[1])
                key = prevk[key]
            go(path[::-1])
            return out
        for y in nbrs[b]:
            if y in cells:
                a = list(arr)
                a[cells.index(b)], a[cells.index(y)] = a[cells.index(y)], n - 1
                k2 = (tuple(a), y)
                if k2 not in prevk:
                    prevk[k2] = key
                    qk.append(k2)
    raise RuntimeError("decompose: the last 2x2 cannot be solved (is the position solvable?)")


def blank_walk(shape: Shape, target: Sequence[int]) -> tuple[list[int], list[int]]:
    """``(target with its blank on the last square, the walk back)``: the blank walked along its
    row to the last column, then down (the walk back: the blank's squares from there to the
    target's blank square)."""
    cols, n = shape.cols, shape.size
    goal = list(target)
    e = goal.index(0)
    walk = []
    b = e
    while b % cols != cols - 1:
        b += 1
        walk.append(b)
    while b != n - 1:
        b += cols
        walk.append(b)
    for s in walk:
        goal[e], goal[s] = goal[s], 0
        e = s
    back = walk[-2::-1] + [list(target).index(0)] if walk else []
    return goal, back


def decompose_to(T: LabelTables, tiles: Sequence[int], target: Sequence[int], check: Callable[[], None] | None = None) -> list[int]:
    """A path (the blank's squares) from *tiles* to any *target*: :func:`decompose` to the
    target with its blank walked to the last square (along its row, then down its column), then
    the walk back."""
    goal, back = blank_walk(Shape(T.n // T.cols, T.cols), target)
    return decompose(T, tiles, goal, check) + back


__all__ = ["blank_walk", "decompose", "decompose_to"]
