"""Reduction: a big board becomes a smaller one by placing its first row and column together.

Past 6x6 the improvers' beams wander (MD plateaus) unless they rank by fitted costs per
distance shape (:func:`fifteen.anytime.rank.fitted_costs`: 7x7's own, and on every board whose
shorter side is 6 or more the 6x6's or the 7x7's extended), and window shortening of the
decomposition's paths stays about twice DeepCubeA's lengths (bench/anytime.md).  On the other
boards past 36 squares (a side of 5 or less: 5x8 to 5x10, 4x10) reduction does better: a *stage beam* places the
tiles of the top row and the left column of the remaining board together (the longer side only,
on a board that is not square), then what is left is a board one row and one column smaller,
solved by the improvers of its own size (:class:`fifteen.anytime.driver.Improver`, which reduces
again while beams wander on it: more than ``driver.BEAM_MAX_SQUARES`` squares, no fitted costs).

**The stage beam** is a breadth-first beam (:mod:`fifteen.anytime.beam`'s scheme) whose
duplicates are positions *projected* on the stage's tiles: every other tile is the same "other"
tile, so positions that differ only there are one (looked for over every layer; the best ranked
of them is kept).  A child is ranked by the Manhattan distance of the stage's tiles (towards
their target squares) plus the blank's distance to the nearest stage tile not yet home, less one
(the blank has to get there before that tile can move), times :data:`BLANK_WEIGHT`, plus
:data:`REST_WEIGHT` / :data:`RANK_SCALE` times the other tiles' cost (the board the stage leaves
is then closer to its goal: on DeepCubeA's 7x7 positions its Manhattan distance falls by 24-48
for 18-40 more stage moves; bench/anytime.md): their Manhattan distance, or where the board left
after the stage has fitted costs (7x7 leaves a 6x6, 8x8 a 7x7) what that board ranks them by
(:func:`rest_costs`: its costs per distance shape in :data:`fifteen.anytime.rank.RANK_COSTS`).
It reaches its goal when every stage tile is home.  This is not a lower bound; it only ranks.

**Any target.**  The stage needs the target's blank outside the stage's squares; as in
:func:`fifteen.anytime.decompose.decompose_to`, the search goes to the target with its blank
walked to the last square, then walks it back.  After the stage, the rest of the board is a
position of the smaller board towards its standard goal (labels are target squares, and the
target's blank is on the last square).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Sequence
from functools import cache

from fifteen.anytime.decompose import blank_walk
from fifteen.anytime.rank import fitted_costs, shape_between, shape_cost
from fifteen.anytime.tables import labelled, traced_path
from fifteen.board import Shape, neighbours
from fifteen.search.slices import Steps, due, resumable

#: Width of the stage beam on 7x7 (the improver narrows it on bigger boards as the square of their size).
STAGE_WIDTH = 2048
#: Weight of the blank's distance to the nearest stage tile not home, in the stage beam's ranking.
BLANK_WEIGHT = 1
#: The other tiles' cost (rest_costs) counts REST_WEIGHT / RANK_SCALE in the stage beam's ranking.
REST_WEIGHT = 2
#: The stage's own terms count RANK_SCALE each in the stage beam's ranking.
RANK_SCALE = 8
#: Cap on the projected positions a stage beam keeps for duplicate detection.
STAGE_MAX_STATES = 4_000_000


def stage_squares(rows: int, cols: int) -> list[int]:
    """The squares a stage places: the top row and the left column on a square board, the
    longer side's first line otherwise (the top row of a tall board, the left column of a wide one)."""
    out: set[int] = set()
    if rows >= cols:
        out.update(range(cols))
    if cols >= rows:
        out.update(range(0, rows * cols, cols))
    return sorted(out)


def sub_shape(shape: Shape) -> tuple[Shape, int, int]:
    """``(shape left after a stage, rows stripped, columns stripped)``."""
    dr = 1 if shape.rows >= shape.cols else 0
    dc = 1 if shape.cols >= shape.rows else 0
    return Shape(shape.rows - dr, shape.cols - dc), dr, dc


def stage_beam(
    shape: Shape,
    tiles: Sequence[int],
    target: Sequence[int],
    width: int = STAGE_WIDTH,
    check: Callable[[], None] | None = None,
    blank_weight: int = BLANK_WEIGHT,
    max_states: int = STAGE_MAX_STATES,
    rest_weight: int | None = None,
) -> list[int] | None:
    """The blank's squares of a path from *tiles* that brings every tile whose target square is
    a stage square (:func:`stage_squares`) home; *target*'s blank must not be on one.  ``None``
    when the beam dies out or keeps more than *max_states* positions.  *check* is called once
    per layer (it may raise to stop the search).  In a time slice that ends first, the beam is
    kept between two layers and the same call goes on where it stopped
    (:func:`fifteen.search.slices.resumable`).  *rest_weight*: the other tiles' weight in the
    ranking (default :data:`REST_WEIGHT`; 0 ranks by the stage's tiles alone)."""
    if rest_weight is None:
        rest_weight = REST_WEIGHT
    key = ("stage", shape, tuple(tiles), tuple(target), width, check, blank_weight, max_states, rest_weight)
    return resumable(key, lambda: _stage_steps(shape, tiles, target, width, check, blank_weight, max_states, rest_weight))


def _stage_steps(
    shape: Shape,
    tiles: Sequence[int],
    target: Sequence[int],
    width: int,
    check: Callable[[], None] | None,
    blank_weight: int,
    max_states: int,
    rest_weight: int,
) -> Steps[list[int] | None]:
    rows, cols, n = shape.rows, shape.cols, shape.size
    stage = stage_squares(rows, cols)
    board = labelled(tiles, target)
    blank = list(tiles).index(0)
    if list(target).index(0) in stage:
        raise ValueError("stage_beam: the target's blank must not be on a stage square")
    other, blank_code = n, n + 1  # the codes of the other tiles and of the blank in a projected position
    index = {q: i for i, q in enumerate(stage)}
    # a position: each square's label (its tile's target square), blank_code for the blank;
    # projected (bytes.translate) every label off the stage becomes `other`
    project = bytes(c if c in index or c == blank_code else other for c in range(256))
    start = bytes(blank_code if sq == blank else board[sq] for sq in range(n))
    dist = [abs(a // cols - b // cols) + abs(a % cols - b % cols) for a in range(n) for b in range(n)]
    # cost[code * n + square], in sixteenths: RANK_SCALE x a stage tile's distance to its square,
    # rest_weight x another tile's cost (rest_cost), 0 for the blank; the stage's own sum is kept
    # apart (its goal test)
    rest_cost = rest_costs(shape)
    unit = 16 * RANK_SCALE  # a square of the stage's own terms, in sixteenths
    md = [0] * ((n + 2) * n)
    cost = [0] * ((n + 2) * n)
    for q in range(n):
        for sq in range(n):
            md[q * n + sq] = dist[q * n + sq] if q in index else 0
            cost[q * n + sq] = unit * dist[q * n + sq] if q in index else rest_weight * rest_cost[q * n + sq]
    nbrs = neighbours(shape)
    homes = tuple(stage)
    pos0 = [0] * len(stage)
    for sq in range(n):
        if start[sq] in index:
            pos0[index[start[sq]]] = sq

    def value(mdsum: int, pos: Sequence[int], b: int) -> int:
        if mdsum == 0:
            return 0
        near = min(dist[b * n + p] for p, hm in zip(pos, homes, strict=True) if p != hm)
        return unit * blank_weight * (near - 1)

    md0 = sum(md[start[sq] * n + sq] for sq in range(n))
    if md0 == 0:
        return []
    boards = [start]
    blanks = [blank]
    mds = [md0]
    costs = [sum(cost[start[sq] * n + sq] for sq in range(n))]
    poss = [tuple(pos0)]
    seen = {start.translate(project)}
    parents: list[array] = []
    moved: list[bytes] = []
    while boards:
        if due():
            yield
        if check is not None:
            check()
        keys: list[int] = []
        add = keys.append
        for i in range(len(boards)):
            bd = boards[i]
            b = blanks[i]
            m0 = mds[i]
            c0 = costs[i]
            pos = poss[i]
            j = i << 2
            for s in nbrs[b]:
                code = bd[s]
                m = m0 - md[code * n + s] + md[code * n + b]
                c = c0 - cost[code * n + s] + cost[code * n + b]
                if code in index:
                    pos2 = list(pos)
                    pos2[index[code]] = b
                    h = c + value(m, pos2, s)
                else:
                    h = c + value(m, pos, s)
                add(h << 40 | j)
                j += 1
        keys.sort()
        nb: list[bytes] = []
        nbl: list[int] = []
        nmd: list[int] = []
        ncost: list[int] = []
        npos: list[tuple[int, ...]] = []
        par = array("i")
        mv = bytearray()
        for key in keys:
            i = (key >> 2) & 0x3FFFFFFFFF
            b = blanks[i]
            s = nbrs[b][key & 3]
            child = bytearray(boards[i])
            code = child[s]
            child[b] = code
            child[s] = blank_code
            ckey = bytes(child)
            pkey = ckey.translate(project)
            if pkey in seen:
                continue
            m = mds[i] - md[code * n + s] + md[code * n + b]
            if m == 0:
                return traced_path(parents, moved, s, i)
            seen.add(pkey)
            pos = poss[i]
            if code in index:
                p2 = list(pos)
                p2[index[code]] = b
                pos = tuple(p2)
            nb.append(ckey)
            nbl.append(s)
            nmd.append(m)
            ncost.append(costs[i] - cost[code * n + s] + cost[code * n + b])
            npos.append(pos)
            par.append(i)
            mv.append(s)
            if len(nb) >= width:
                break
        if len(seen) > max_states:
            return None
        boards, blanks, mds, costs, poss = nb, nbl, nmd, ncost, npos
        parents.append(par)
        moved.append(bytes(mv))
    return None


@cache
def rest_costs(shape: Shape) -> list[int]:
    """``cost[label * N + square]`` in sixteenths of a square of Manhattan distance: what a tile off
    the stage (*label* its target square) costs in the stage beam's ranking on *square*.  Where the
    board a stage leaves has a fitted rank (:data:`fifteen.anytime.rank.RANK_COSTS`: 7x7's stage
    leaves a 6x6, 8x8's a 7x7), its cost by the tile's distance shape on that board (a tile on a stage
    square stands outside it: :func:`fifteen.anytime.rank.shape_cost`); else 16 a square."""
    cols, n = shape.cols, shape.size
    sub, dr, dc = sub_shape(shape)
    fitted = fitted_costs(sub.rows, sub.cols)
    cost = [0] * (n * n)
    for q in range(n):
        tr, tc = divmod(q, cols)
        for sq in range(n):
            r, c = divmod(sq, cols)
            if fitted is None:
                cost[q * n + sq] = 16 * (abs(tr - r) + abs(tc - c))
            else:
                cost[q * n + sq] = shape_cost(fitted[0], shape_between(sub.rows, sub.cols, tr - dr, tc - dc, r - dr, c - dc))
    return cost


def sub_position(shape: Shape, tiles: Sequence[int], target: Sequence[int]) -> list[int]:
    """The position left on the smaller board (:func:`sub_shape`) once a stage is done: tiles
    numbered for the smaller board's standard goal (*target*'s blank must be on the last square)."""
    small, dr, dc = sub_shape(shape)
    cols, scols = shape.cols, small.cols
    board = labelled(tiles, target)
    blank_label = list(target).index(0)
    out = []
    for r in range(dr, shape.rows):
        for c in range(dc, cols):
            q = board[r * cols + c]
            if q == blank_label:
                out.append(0)
                continue
            qr, qc = divmod(q, cols)
            if qr < dr or qc < dc:
                raise ValueError("sub_position: a stage tile is not home")
            out.append((qr - dr) * scols + (qc - dc) + 1)
    return out


def lift(shape: Shape, squares: Sequence[int]) -> list[int]:
    """The blank's squares of a path of the smaller board (:func:`sub_shape`) on *shape*."""
    small, dr, dc = sub_shape(shape)
    cols, scols = shape.cols, small.cols
    return [(s // scols + dr) * cols + s % scols + dc for s in squares]


def play(tiles: Sequence[int], squares: Sequence[int]) -> list[int]:
    """*tiles* after the blank's path *squares*."""
    board = list(tiles)
    b = board.index(0)
    for s in squares:
        board[b], board[s] = board[s], 0
        b = s
    return board


__all__ = [
    "BLANK_WEIGHT",
    "RANK_SCALE",
    "REST_WEIGHT",
    "STAGE_WIDTH",
    "blank_walk",
    "lift",
    "play",
    "rest_costs",
    "stage_beam",
    "stage_squares",
    "sub_position",
    "sub_shape",
]
