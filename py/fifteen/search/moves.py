"""Move tables shared by the search inner loops, with duplicate-path pruning.

A *move* is the blank stepping from square ``b`` to a neighbouring square
``s`` (the tile on ``s`` slides to ``b``).  Each ordered pair gets a move id
``m``; per-move, per-tile tables are flat and indexed ``m * N + tile``, so one
addition finds an entry in the inner loop.

**Duplicate pruning (Taylor and Korf's finite-state machine).**  Undoing the
previous move is the shortest way for two move sequences to reach the same
position, but not the only one: circling a 2x2 block one and a half times
one way equals doing it the other way (6 moves each), and longer coincidences
follow.  A breadth-first enumeration of blank paths of up to
:data:`PRUNE_DEPTH` moves from every square finds each path that reaches a
position an earlier (shorter, or equally long and earlier) path already
reached; such a path is never needed in a shortest solution, nor in a search
that finds one, as the earlier path stays available.  These *forbidden*
sequences (of move ids, which carry the squares) feed an Aho-Corasick
automaton; its states (each tied to the blank's square) index the successor
lists, so the search follows the automaton at no cost per node and never
generates a move that completes a forbidden sequence.  On 4x4 this removes
about a third of the nodes of IDA* with pattern databases (Korf's 100 with
6-6-3: 37.2 M nodes, against 56.4 M with only the undo-move pruning).

``successors[state]`` lists ``(s, m * N, next_state)`` for the moves allowed
in *state*; a search starts in ``start_states[blank square]``.  Vertical and
horizontal moves are also listed apart (``successors_vertical`` /
``successors_horizontal``) for bounds with one component per axis.

**Positions that are their own mirror image** (square boards; the goal is
symmetric about the main diagonal, so a position equal to its reflection —
the transposed goal is the famous one — has the blank on the diagonal and
its two mirror-image moves lead to mirror-image subtrees).  Searching one
move of each mirror pair at the root is enough *if the pruning is symmetric
too*: a shortest solution starting with the dropped move mirrors into one
starting with the kept move, and that one must not be pruned.  So
``move_tables(shape, mirror_closed=True)`` (what :func:`tables_for` returns
for such a position) enumerates equally long rival paths in an order that
commutes with the mirror (by ``min(path, mirror(path))``), keeps only the
forbidden sequences whose mirror image is forbidden too (934 of 962 on
4x4: a path and its own mirror image cannot both be dropped), and adds start
states for the diagonal squares that list half the moves.  About half the
nodes on such positions; the ordinary tables stay as they are (the
mirror-closed ones prune ~2 % fewer nodes elsewhere).

**Big boards (more than 25 squares): the open board's sequences.**  Enumerating the paths
from every square of a 10x10 board to depth 8 takes ~4.5 s and ~350 MB natively, too much
for a page.  Duplicates are local, so they are found once, on an *open* board (a board large
enough that no path from its centre meets an edge): :func:`open_board_sequences` lists, as
blank directions, each path from the centre that reaches a position an earlier path (in
shortlex order: shorter first, then U < D < L < R) already reached, with that earlier path,
its *twin*.  On the real board a sequence is forbidden from a square when both it and its
twin fit on the board from there.  That is safe: the twins hold no forbidden sequence (they
were kept on the open board, and the real board forbids fewer), and replacing a forbidden
sequence of a path by its twin gives a path to the same position, never longer and earlier
in shortlex order, so repeating it ends on a path the search does not prune.  Near the
edges it could forbid less than the exact enumeration; on every shape where both were run
(3x3 to 6x6, 2x10, 3x10, 4x4 at depth 10 too) it forbids exactly the same sequences
(tests/test_big_boards.py).  The mirror-closed tables are not made for these boards
(:func:`tables_for` gives the ordinary ones).  Sizes and build times per shape:
``bench/big_boards.md``.

**Goals.**  The pruning is about positions reached twice, whatever the goal; the mirror-image
halving also needs the goal to be its own mirror image (:func:`tables_for`).

**Set-up within a time limit.**  Building the 4x4 tables takes about a second natively (several in
the browser), before any node is searched.  Inside :func:`checking_setup` the build calls its
*check* every :data:`SETUP_CHECK_STEPS` steps, which may raise to stop it (a time limit or a
cancel that covers the set-up: the anytime prover's); tables stopped half-way are not kept.
"""

from __future__ import annotations

from array import array
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache, lru_cache

from fifteen.board import DELTAS, Shape, neighbours, transpose_squares, transpose_tiles
from fifteen.errors import InputError
from fifteen.search.slices import Steps, drive, due, resumable

#: Length of the longest forbidden sequence looked for (3,716 automaton states on 4x4).
PRUNE_DEPTH = 10
#: The same, on boards of 17 to 25 squares.
PRUNE_DEPTH_MEDIUM = 8
#: Boards of more squares use the open board's sequences (see the module docstring) ...
EXACT_MAX_SQUARES = 25
#: ... up to this length.
OPEN_BOARD_DEPTH = 8


#: Steps of a table build between two calls of the set-up check (:func:`checking_setup`).
SETUP_CHECK_STEPS = 1 << 10
_setup_check: Callable[[], None] | None = None


@contextmanager
def checking_setup(check: Callable[[], None] | None) -> Iterator[None]:
    """Within it, the tables built call *check* every :data:`SETUP_CHECK_STEPS` steps (see the
    module docstring); *check* raises to stop the build."""
    global _setup_check
    previous, _setup_check = _setup_check, check
    try:
        yield
    finally:
        _setup_check = previous


def _setup_step(step: int, every: int = SETUP_CHECK_STEPS) -> None:
    """Call the set-up check (if any) at every *every*-th *step*."""
    if _setup_check is not None and not step % every:
        _setup_check()


@dataclass(frozen=True)
class Move:
    blank_from: int
    blank_to: int
    vertical: bool
    forward: bool  # blank moves down (vertical) or right (horizontal)
    jumped: tuple[int, ...]  # squares the sliding tile passes in the reading order of its axis


def _forbidden_sequences(
    n: int, exits: Sequence[Sequence[tuple]], depth: int, mirror=None, starts: Sequence[int] | None = None
) -> dict[tuple, tuple]:
    """:func:`_forbidden_steps` run to the end."""
    return drive(_forbidden_steps(n, exits, depth, mirror, starts))


def _forbidden_steps(
    n: int, exits: Sequence[Sequence[tuple]], depth: int, mirror=None, starts: Sequence[int] | None = None
) -> Steps[dict[tuple, tuple]]:
    """Blank paths that reach a position an earlier path from the same square reached, each
    with that earlier path (its *twin*); from every square (or those of *starts*) of a board of
    *n* squares whose square b has the moves ``exits[b] = [(key, square the blank goes to)]``.
    A path is the tuple of its moves' keys (move ids, or directions on the open board: a path
    with a forbidden suffix is never extended, so keys must say the same move wherever they
    are forbidden).

    Paths are taken layer by layer (shorter first); within a layer in generation
    order, or — given *mirror* (move id -> mirrored move id) — ordered by
    ``(min(path, mirror(path)), path > mirror(path))``, an order the mirror
    preserves except between a path and its own mirror image.  Steps
    (:mod:`fifteen.search.slices`): the enumeration (a second or two on 4x4 and 5x5 in the
    browser) pauses at the end of each time slice.
    """
    forbidden: dict[tuple, tuple] = {}
    seen: dict[tuple[int, bytes], tuple] = {}
    layer: list[tuple[tuple, int, bytes, int]] = []
    for x in range(n) if starts is None else starts:
        start = array("H", range(n))
        start[x] = BLANK_MARK
        seen[(x, start.tobytes())] = ()
        layer.append(((), x, start.tobytes(), x))
    steps = 0
    for k in range(1, depth + 1):
        cands = []
        for i, (path, x, pos, b) in enumerate(layer):
            steps += 1
            _setup_step(steps)
            if not i & 1023 and due():
                yield
            for m, s in exits[b]:
                longer = path + (m,)
                if any(longer[i:] in forbidden for i in range(1, k - 1)):
                    continue
                moved = array("H")
                moved.frombytes(pos)
                moved[b], moved[s] = moved[s], BLANK_MARK
                cands.append((longer, x, moved.tobytes(), s))
        if mirror is not None:

            def key(c):
                p = c[0]
                q = tuple(mirror[m] for m in p)
                return (min(p, q), p > q)

            cands.sort(key=key)
        nxt = []
        for i, (longer, x, after, s) in enumerate(cands):
            steps += 1
            _setup_step(steps)
            if not i & 4095 and due():
                yield
            key2 = (x, after)
            twin = seen.get(key2)
            if twin is not None:
                forbidden[longer] = twin
            else:
                seen[key2] = longer
                nxt.append((longer, x, after, s))
        layer = nxt
    return forbidden


#: The blank's mark in the enumeration's positions (squares hold their starting square's number).
BLANK_MARK = 0xFFFF


@cache
def open_board_sequences(depth: int) -> dict[str, str]:
    """Forbidden blank paths of up to *depth* moves on an open board, as direction letters
    (``"UDLR"``), each with its twin: the earliest path (shortlex, U < D < L < R) that reaches
    the same position (see the module docstring).  8 paths for depth 6, 40 for 8, 340 for 10."""
    side = 2 * depth + 1  # no path of *depth* moves from the centre meets an edge
    exits: list[list[tuple[str, int]]] = []
    for b in range(side * side):
        r, c = divmod(b, side)
        exits.append([(d, b + dr * side + dc) for d, (dr, dc) in DELTAS.items() if 0 <= r + dr < side and 0 <= c + dc < side])
    found = _forbidden_sequences(side * side, exits, depth, starts=[depth * side + depth])
    return {"".join(seq): "".join(twin) for seq, twin in found.items()}


def _walk(shape: Shape, start: int, letters: str) -> list[int] | None:
    """The squares the blank visits from *start* along *letters* (start included), or None when it leaves the board."""
    r, c = divmod(start, shape.cols)
    squares = [start]
    for letter in letters:
        dr, dc = DELTAS[letter]
        r, c = r + dr, c + dc
        if not (0 <= r < shape.rows and 0 <= c < shape.cols):
            return None
        squares.append(r * shape.cols + c)
    return squares


def _open_board_forbidden(shape: Shape, moves: list[Move], depth: int) -> set[tuple[int, ...]]:
    """The open board's forbidden sequences placed on *shape*: from each square, those that fit
    on the board with their twins, as move ids."""
    ids = {(mv.blank_from, mv.blank_to): m for m, mv in enumerate(moves)}
    forbidden = set()
    for step, (word, twin) in enumerate(open_board_sequences(depth).items(), 1):
        _setup_step(step, 16)  # (a pass over the board per word)
        for x in range(shape.size):
            squares = _walk(shape, x, word)
            if squares is not None and _walk(shape, x, twin) is not None:
                forbidden.add(tuple(ids[pair] for pair in zip(squares, squares[1:], strict=False)))
    return forbidden


def _mirror_moves(shape: Shape, moves: list[Move]) -> list[int]:
    """``mirror[m]``: the move id of move m reflected about the main diagonal (square boards)."""
    if shape.rows != shape.cols:
        raise ValueError("mirror images need a square board")
    tsq = transpose_squares(shape.cols)
    ids = {(mv.blank_from, mv.blank_to): m for m, mv in enumerate(moves)}
    return [ids[(tsq[mv.blank_from], tsq[mv.blank_to])] for mv in moves]


def _pruning_automaton(moves: list[Move], from_square: list[list[int]], n: int, forbidden: set[tuple[int, ...]]):
    """Aho-Corasick over move ids; returns per combined state ``(square, node)`` the allowed moves."""
    goto: list[dict[int, int]] = [{}]
    final = [False]
    for seq in sorted(forbidden):
        u = 0
        for m in seq:
            if m not in goto[u]:
                goto[u][m] = len(goto)
                goto.append({})
                final.append(False)
            u = goto[u][m]
        final[u] = True
    fail = [0] * len(goto)  # the depth-1 nodes fail to the root
    queue = deque(goto[0].values())
    while queue:
        u = queue.popleft()  # never the root: the queue holds depth >= 1 nodes
        for m, v in goto[u].items():
            f = fail[u]
            while f and m not in goto[f]:
                f = fail[f]
            fail[v] = goto[f].get(m, 0)
            final[v] = final[v] or final[fail[v]]
            queue.append(v)

    def step(u: int, m: int) -> int:
        while u and m not in goto[u]:
            u = fail[u]
        return goto[u].get(m, 0)

    # Combined states: (square, automaton node); the first n are (square, root).
    ids = {(x, 0): x for x in range(n)}
    order = [(x, 0) for x in range(n)]
    table = []
    i = 0
    while i < len(order):
        b, u = order[i]
        i += 1
        _setup_step(i)
        row = []
        for m in from_square[b]:
            v = step(u, m)
            if final[v]:
                continue
            key = (moves[m].blank_to, v)
            if key not in ids:
                ids[key] = len(order)
                order.append(key)
            row.append((moves[m].blank_to, m, ids[key]))
        table.append(row)
    return table


class MoveTables:
    """Moves, successor lists and start states of one shape (see the module docstring).

    With *mirror_closed* (square boards) the forbidden sequences are chosen so
    that the mirror image of a forbidden sequence is forbidden too, and the
    blank's squares on the main diagonal get extra start states that keep only
    one move of each mirror pair: the tables for a position that is its own
    mirror image (:func:`tables_for`).
    """

    def __init__(self, shape: Shape, prune_depth: int | None = None, mirror_closed: bool = False):
        self.shape = shape
        self.mirror_closed = mirror_closed
        n = self.n = shape.size
        cols = shape.cols
        self.prune_depth = depth = prune_depth_for(shape) if prune_depth is None else prune_depth
        self.moves: list[Move] = []
        from_square: list[list[int]] = [[] for _ in range(n)]
        for b in range(n):
            for s in neighbours(shape)[b]:
                vertical = abs(s - b) == cols
                lo, hi = min(s, b), max(s, b)
                if vertical:
                    jumped = tuple(range(lo + 1, hi))
                else:
                    # column-major order between the two squares
                    r, c = divmod(lo, cols)
                    jumped = tuple(rr * cols + c for rr in range(r + 1, shape.rows)) + tuple(rr * cols + c + 1 for rr in range(0, r))
                from_square[b].append(len(self.moves))
                self.moves.append(Move(b, s, vertical, s > b, jumped))
        mirror = _mirror_moves(shape, self.moves) if mirror_closed else None
        if n > EXACT_MAX_SQUARES:
            if mirror_closed:
                raise ValueError(f"no mirror-closed tables for boards of more than {EXACT_MAX_SQUARES} squares")
            forbidden = _open_board_forbidden(shape, self.moves, depth)
        else:
            exits = [[(m, self.moves[m].blank_to) for m in ms] for ms in from_square]
            # (paused at the end of a time slice, the enumeration goes on when these tables are asked again)
            key = ("forbidden sequences", shape, depth, mirror_closed)
            forbidden = set(resumable(key, lambda: _forbidden_steps(n, exits, depth, mirror)))
        if mirror is not None:
            forbidden = {f for f in forbidden if tuple(mirror[m] for m in f) in forbidden}
        table = _pruning_automaton(self.moves, from_square, n, forbidden)
        #: the forbidden move sequences the automaton was built from
        self.forbidden_sequences = frozenset(forbidden)
        #: ``start_states[b]``: the automaton state a search starts in with the blank on b
        self.start_states = list(range(n))
        if mirror is not None:
            for b in range(0, n, shape.cols + 1):  # the main diagonal
                kept: list = []
                for entry in table[b]:
                    if mirror[entry[1]] not in [k[1] for k in kept]:
                        kept.append(entry)
                self.start_states[b] = len(table)
                table.append(kept)
        #: entries are (square the blank moves to, move id * N, next state)
        self.successors = [tuple((s, m * n, st) for s, m, st in row) for row in table]
        self.successors_vertical = [tuple((s, m * n, st) for s, m, st in row if self.moves[m].vertical) for row in table]
        self.successors_horizontal = [tuple((s, m * n, st) for s, m, st in row if not self.moves[m].vertical) for row in table]

    @property
    def forbidden(self) -> int:
        return len(self.forbidden_sequences)

    @property
    def states(self) -> int:
        return len(self.successors)

    def per_tile(self, fn) -> list[int]:
        """Flat table ``[m * N + t] = fn(move, t)`` over every move and tile."""
        return [fn(mv, t) for mv in self.moves for t in range(self.n)]


def prune_depth_for(shape: Shape) -> int:
    """The length of the longest forbidden sequence of *shape*'s tables."""
    if shape.size > EXACT_MAX_SQUARES:
        return OPEN_BOARD_DEPTH
    return PRUNE_DEPTH if shape.size <= 16 else PRUNE_DEPTH_MEDIUM


def move_tables(shape: Shape, mirror_closed: bool = False) -> MoveTables:
    """The (cached) move tables of *shape*; see :class:`MoveTables`.  Those of boards of up to
    25 squares are kept (a few MB at most); of bigger boards, the last two."""
    if shape.size > EXACT_MAX_SQUARES:
        return _big_move_tables(shape, bool(mirror_closed))
    return _move_tables(shape, bool(mirror_closed))


@cache
def _move_tables(shape: Shape, mirror_closed: bool) -> MoveTables:
    return MoveTables(shape, mirror_closed=mirror_closed)


@lru_cache(maxsize=2)
def _big_move_tables(shape: Shape, mirror_closed: bool) -> MoveTables:
    return MoveTables(shape, mirror_closed=mirror_closed)


def normal_goal(shape: Shape, goal: Sequence[int] | None) -> tuple[int, ...] | None:
    """*goal* as the searches take it and their caches key it: ``None`` for the standard
    goal (or none given), else a tuple."""
    if goal is None:
        return None
    goal = tuple(goal)
    return None if goal == shape.goal() else goal


def require_standard_goal(shape: Shape, goal: Sequence[int] | None, what: str) -> None:
    """Raise :class:`InputError` unless *goal* is the standard goal (or none): for the pattern
    databases, made for it (:mod:`fifteen.frame` maps the goals they can serve onto it)."""
    if normal_goal(shape, goal) is not None:
        raise InputError(f"{what} is made for the standard goal; this goal's blank is not in a corner", code="bound")


def is_own_mirror(shape: Shape, tiles) -> bool:
    """True when the position equals its reflection about the main diagonal (square boards)."""
    return shape.rows == shape.cols and list(transpose_tiles(shape, tiles)) == list(tiles)


def tables_for(shape: Shape, tiles, goal: Sequence[int] | None = None) -> MoveTables:
    """The move tables to search *tiles* towards *goal* (default the standard goal) with: the
    mirror-closed ones (half the root's moves) when the position and the goal are both their
    own mirror image (boards of up to 25 squares), else the ordinary ones."""
    mirrored = shape.size <= EXACT_MAX_SQUARES and is_own_mirror(shape, tiles) and (goal is None or is_own_mirror(shape, goal))
    return move_tables(shape, mirrored)
