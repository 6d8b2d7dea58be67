"""The beam of :mod:`fifteen.anytime.beam` with each layer held as numpy arrays (native runs only).

The same search, layer for layer: a layer's children are generated and ranked as arrays, sorted by
the same keys (the rank, then the parent and its move in the order of ``LabelTables.succ``), and kept
in that order with the same duplicate detection and the same endgame, so it returns the very path
of the pure Python beam, several times faster on wide beams (``bench/anytime.md``, *The beam's
layers in numpy*).  Where the pure beam keeps a dict of the positions kept (as bytes), this one
keeps their 64-bit Zobrist hashes (:func:`zobrist`), updated per move (:func:`move_hashes`), in
:class:`RecentPositions` (two :class:`SeenTable`), and finds the first of equal children of a
layer by :func:`first_of_equal`: no Python object per position.  Pyodide has no numpy: the page runs the pure beam.
:func:`fifteen.anytime.beam.beam_search` uses this one when numpy can be imported, the shape's line
table is a table (rows and columns of at most :data:`~fifteen.bounds.manhattan.LINE_TABLE_MAX`) and
the width is at least :data:`MIN_WIDTH`.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

import numpy as np

from fifteen.anytime.rank import noisy_moves, rank_tables
from fifteen.anytime.tables import LabelTables, labelled, traced_path
from fifteen.search.slices import Steps, due

#: ``seen``'s answer for a position never kept.
NEVER = -(1 << 62)
#: Narrower beams run the pure Python loop (a layer's arrays cost more than they save).
MIN_WIDTH = 256


#: Longest rows and columns served: a line table of ``8 ** 7`` codes (4 MB a side as int16).
MAX_LINE = 7


def applies(T: LabelTables, width: int, depth: int | None = None) -> bool:
    """True when this beam serves *T*'s shape at *width*, to *depth* layers (its :class:`SeenTable`
    holds layers below :data:`MAX_LAYERS`; ``None``: the default, ``4 * h0 + 4 * N``, is)."""
    return width >= MIN_WIDTH and max(T.rows, T.cols) <= MAX_LINE and (depth is None or depth < MAX_LAYERS)


@cache
def line_values(length: int) -> np.ndarray:
    """:func:`fifteen.bounds.manhattan.line_table` as an array, for every code at once (also past
    :data:`~fifteen.bounds.manhattan.LINE_TABLE_MAX`): twice the line's own tiles less the longest
    run of them in increasing goal order; 0 for codes that repeat a tile.  Only the codes that
    repeat no tile are computed (130,922 of the 2,097,152 of a line of 7), digit by digit."""
    base = length + 1
    lines = np.zeros((1, 0), np.int8)  # the digit sequences that repeat no tile (0: not the line's)
    digit = np.arange(base, dtype=np.int8)
    for _ in range(length):
        longer = np.repeat(lines, base, axis=0)
        added = np.tile(digit, len(lines))
        fresh = (added == 0) | ~(longer == added[:, None]).any(axis=1)
        lines = np.concatenate([longer, added[:, None]], axis=1)[fresh]
    longest: list[np.ndarray] = []  # longest[i]: the longest increasing run ending at cell i
    best = np.zeros(len(lines), np.int8)
    for i in range(length):
        di = lines[:, i]
        run = (di > 0).astype(np.int8)
        for j in range(i):
            dj = lines[:, j]
            run = np.maximum(run, np.where((dj > 0) & (dj < di), longest[j] + 1, 0).astype(np.int8))
        longest.append(run)
        best = np.maximum(best, run)
    codes = lines.astype(np.int64) @ (base ** np.arange(length, dtype=np.int64))  # digit i counts base ** i
    out = np.zeros(base**length, np.int16)
    out[codes] = 2 * ((lines > 0).sum(axis=1) - best)
    return out


@cache
def _arrays(T: LabelTables, weights: tuple[int, int, int, int]) -> dict[str, Any]:
    """*T*'s tables as arrays; ``succ`` as ``(states, 4)`` arrays (``valid`` marks the moves)."""
    states = len(T.succ)
    fields = {name: np.zeros((states, 4), np.intp) for name in ("s", "m", "next", "l1", "l2", "l3")}
    valid = np.zeros((states, 4), bool)
    for st, moves in enumerate(T.succ):
        for k, move in enumerate(moves):
            valid[st, k] = True
            for name, value in zip(fields, move, strict=True):
                fields[name][st, k] = value
    rank = rank_tables(T, weights)
    return {
        **fields,
        "valid": valid,
        "mdd": np.array(T.mdd, np.int64),
        "d1": np.array(T.d1, np.int32),  # (line codes stay below 8 ** 7: int32, half the bytes to copy)
        "d2": np.array(T.d2, np.int32),
        "d3": np.array(T.d3, np.int32),
        "lt": np.concatenate([line_values(T.cols), line_values(T.rows)]),  # columns' from T.col_off
        "rmdd": np.array(rank.move, np.int64),
        "wlc": int(rank.lc),
    }


@cache
def zobrist(n: int) -> np.ndarray:
    """``zobrist[square, label]``: random 64-bit words whose exclusive or over a position's squares
    is its hash (seeded: the same beam, the same hashes)."""
    return np.random.default_rng(n).integers(-(1 << 63), (1 << 63) - 1, size=(n, n), dtype=np.int64)


def move_hashes(T: LabelTables, blank_label: int) -> np.ndarray:
    """``move_hashes[m * N + t]``: what a position's hash changes by when the tile *t* makes move
    *m* (as ``T.mdd``), the blank being named *blank_label*."""
    z = zobrist(T.n)
    b, s = np.array(T.move_squares, np.intp).T  # the blank goes from b to s, the tile from s to b
    return (z[b, blank_label, None] ^ z[s, :] ^ z[b, :] ^ z[s, blank_label, None]).ravel()


#: A :class:`SeenTable` entry: the hash's high bits, and below them the layer + 1 (0: empty).
LAYER_BITS = 16
_LOW = (1 << LAYER_BITS) - 1
_HIGH = ~_LOW
#: A beam of more layers runs the pure loop (its layers do not fit in a :class:`SeenTable` entry).
MAX_LAYERS = _LOW - 1
#: Rounds of :func:`first_of_equal` before it sorts what is left.
FIRST_ROUNDS = 6
#: Children past the width (and a quarter of it) whose duplicates a layer looks up at first.
PREFIX_SLACK = 64
#: A layer's children are sorted as ``rank << _INDEX_BITS | index`` while they are this few.
_INDEX_BITS = 24
_INDEX = (1 << _INDEX_BITS) - 1


class SeenTable:
    """Positions by hash, with the layer each was kept in: an open-addressing table (linear
    probing) of int64 entries, each a hash's top 48 bits and the layer + 1 below them (0: an empty
    slot; layers below 65,535), whose lookups and inserts take a batch of hashes.

    Two positions that agree in those 48 bits and meet in a probe would count as one (a child
    dropped as a duplicate: the path found is still a path); a beam makes a few million probes,
    each wrong with a chance of 2^-48.
    """

    def __init__(self, size: int) -> None:
        """An empty table of at least *size* slots (a power of two; it grows at half full)."""
        self._make(max(1024, size))

    def _make(self, size: int) -> None:
        cap = 1 << (size - 1).bit_length()
        self.mask = cap - 1
        self.entries = np.zeros(cap, np.int64)
        self.count = 0

    def get(self, hashes: np.ndarray) -> np.ndarray:
        """The layer each of *hashes* was kept in (:data:`NEVER`: not kept)."""
        out = np.full(len(hashes), NEVER, np.int64)
        todo = np.arange(len(hashes))
        high = hashes & _HIGH
        slot = (hashes >> LAYER_BITS) & self.mask
        while len(todo):
            entry = self.entries[slot]
            used = entry != 0
            hit = used & ((entry & _HIGH) == high)
            out[todo[hit]] = (entry[hit] & _LOW) - 1
            on = used & ~hit
            todo, high, slot = todo[on], high[on], (slot[on] + 1) & self.mask
        return out

    def put(self, hashes: np.ndarray, layers: np.ndarray) -> None:
        """Record each of *hashes* (distinct, none in the table yet) as kept in the layer beside it."""
        if 2 * (self.count + len(hashes)) > self.mask + 1:  # grown to a power of two at most half used
            entries = self.entries[self.entries != 0]
            self._make(2 * (self.count + len(hashes)) + 1)
            self.put(entries & _HIGH, (entries & _LOW) - 1)
        new = (hashes & _HIGH) | (layers + 1)
        slot = (hashes >> LAYER_BITS) & self.mask
        self.count += len(new)
        while len(new):
            free = np.nonzero(self.entries[slot] == 0)[0]
            self.entries[slot[free]] = new[free]  # (of hashes after one empty slot, the last written holds it)
            lost = np.ones(len(new), bool)
            lost[free[self.entries[slot[free]] == new[free]]] = False
            new, slot = new[lost], (slot[lost] + 1) & self.mask  # (the slot each lost is taken now)


class RecentPositions:
    """The positions a beam kept in its recent layers, by hash, with the layer each was kept in:
    the pure beam's dict of positions (as bytes) that every *span* layers forgets those kept
    *span* layers before or earlier.

    Two :class:`SeenTable` hold them: the newer the positions kept since the last :meth:`forget`,
    the older those of the *span* layers before it.  To forget is to drop the older table (no
    table is rebuilt), which is the dict's forgetting when it comes every *span* layers and a
    position is kept again only more than *span* layers after it was (a lookup asks the newer
    table first).  Each table is made with four slots per position of *span* layers of *width*: it
    seldom grows, and at most a quarter full its probes are short (a beam of 262,144 on 6x6 runs
    1.3 x as fast as with one table rebuilt at each forgetting, in less memory: ``bench/anytime.md``,
    *The beam's layers in numpy*).
    """

    def __init__(self, width: int, span: int) -> None:
        self._size = 4 * width * max(1, span)
        self.older = SeenTable(1024)
        self.newer = SeenTable(self._size)
        self._shadowed = 0  # positions in both tables (kept again after more than `span` layers)

    @property
    def count(self) -> int:
        """How many positions are kept (each once, whichever layers it was kept in)."""
        return self.older.count + self.newer.count - self._shadowed

    def get(self, hashes: np.ndarray) -> np.ndarray:
        """The last layer each of *hashes* was kept in (:data:`NEVER`: not kept)."""
        out = self.newer.get(hashes)
        missed = np.nonzero(out == NEVER)[0]
        if len(missed) and self.older.count:
            out[missed] = self.older.get(hashes[missed])
        return out

    def put(self, hashes: np.ndarray, layers: np.ndarray, again: int = 0) -> None:
        """Record *hashes* (distinct, none in the newer table) as kept in the layers beside them;
        *again* of them are in the older table (kept before)."""
        self.newer.put(hashes, layers)
        self._shadowed += again

    def forget(self) -> None:
        """Drop the positions kept before the last call (or, at the first, before the first put)."""
        self.older, self.newer = self.newer, SeenTable(self._size)
        self._shadowed = 0


def first_of_equal(keys: np.ndarray) -> np.ndarray:
    """The indices (ascending) of the first occurrence of each value of *keys* (int64 hashes):
    each scattered into a scratch table by some of its bits, the smallest index kept per slot; the
    values whose slot another value holds try other bits (about one in eight a round), and after
    :data:`FIRST_ROUNDS` rounds a sort settles what is left."""
    index = np.arange(len(keys))
    firsts: list[np.ndarray] = [index[:0]]
    bits = max(10, (4 * len(keys)).bit_length())
    scratch = np.empty(1 << bits, np.intp)
    for shift in range(0, FIRST_ROUNDS * 6, 6):
        if not len(index):
            break
        slot = (keys[index] >> shift) & ((1 << bits) - 1)
        scratch[slot[::-1]] = index[::-1]  # (the last written holds a slot: the smallest index)
        holder = scratch[slot]
        mine = holder == index
        firsts.append(index[mine])
        index = index[~mine & (keys[holder] != keys[index])]  # not a copy of the holder: again
    else:
        firsts.append(index[np.unique(keys[index], return_index=True)[1]])
    out = np.concatenate(firsts)
    out.sort()
    return out


def vector_beam_steps(
    T: LabelTables,
    start: Sequence[int],
    target: Sequence[int],
    width: int,
    check: Callable[[], None] | None,
    upper: int | None,
    dup_layers: int,
    max_states: int,
    max_depth: int | None,
    weights: tuple[int, int, int, int],
    stall_layers: int,
    endgame_h: int,
    noise: int,
) -> Steps[list[int] | None]:
    """The steps of :func:`fifteen.anytime.beam.beam_search` (its arguments; *weights* the rank's)."""
    board = labelled(start, target)
    n = T.n
    blank = list(start).index(0)
    blank_label = board[blank]
    h0, codes0 = T.value(board, blank)
    if h0 == 0:
        return []
    A = _arrays(T, weights)
    S, M, NEXT, L1, L2, L3 = (A[name].ravel() for name in ("s", "m", "next", "l1", "l2", "l3"))  # [state * 4 + k]
    VALID = A["valid"]
    mdd, d1, d2, d3, lt, rmdd, wlc = A["mdd"], A["d1"], A["d2"], A["d3"], A["lt"], A["rmdd"], A["wlc"]
    if noise:
        rmdd = np.array(noisy_moves(T, weights, noise), np.int64)
    zmove = move_hashes(T, blank_label)  # a position's hash changes by zmove[mt]
    boards = np.array([board], np.uint8)
    blanks = np.array([blank], np.intp)
    states = np.array([T.start_state(blank)], np.intp)
    hs = np.array([h0], np.int64)
    codes = np.array([codes0], np.int32)
    ranks = np.zeros(1, np.int64)  # ranks relative to the start's (one parent in the first layer: no offset orders)
    keys = np.bitwise_xor.reduce(zobrist(n)[np.arange(n), board]).reshape(1)  # the positions' hashes
    seen = RecentPositions(width, dup_layers)  # position (its hash) -> the layer it was kept in
    seen.older.put(keys, np.zeros(1, np.int64))  # (forgotten at the first forget, with layer 0)
    horizon = dup_layers or sys.maxsize
    parents: list[np.ndarray] = []
    moved: list[np.ndarray] = []
    g = 0
    limit = sys.maxsize if upper is None else upper
    low, low_at = h0, 0  # the smallest MD + LC of a layer so far, and its layer
    if max_depth is None:
        max_depth = upper if upper is not None else 4 * h0 + 4 * n
    if max_depth >= MAX_LAYERS:
        raise ValueError(f"a numpy beam runs fewer than {MAX_LAYERS} layers")
    while len(hs) and g < max_depth:
        if check is not None:
            check()
        g += 1
        room = limit - g  # a child's h must stay below this (g + h < upper)
        # the children, parent by parent and move by move (the pure beam's order)
        par, k = np.nonzero(VALID[states])
        mv = states[par] * 4 + k  # the move's row in the flattened successor tables
        s = S[mv]
        mt = M[mv] + boards[par, s]
        c1 = codes[par, L1[mv]]
        c2 = codes[par, L2[mv]]
        dm = mdd[mt]
        h = hs[par] + dm + lt[c1 + d1[mt]] - lt[c1] + lt[c2 + d2[mt]] - lt[c2]
        fit = np.nonzero(h < room)[0]
        fpar, fmt, fh = par[fit], mt[fit], h[fit]
        rank = ranks[fpar] - wlc * hs[fpar] + rmdd[fmt] + wlc * (fh - dm[fit])
        if len(rank) <= _INDEX:  # ties: the parent's index, then the move's (the rank and the index in one word)
            order = np.sort(rank << _INDEX_BITS | np.arange(len(rank))) & _INDEX
        else:
            order = np.argsort(rank, kind="stable")
        if due():
            yield
        # kept in that order: the first of equal children, not a position kept in the last
        # `horizon` layers, at most `width`
        sel = fit[order]
        # (the first of equal children in a prefix are the first of all that lie in it: a prefix
        # of the ranked children is looked up, longer only when it does not fill the width)
        m = min(len(sel), width + (width >> 2) + PREFIX_SLACK)
        while True:
            ck = keys[par[sel[:m]]] ^ zmove[mt[sel[:m]]]
            first = first_of_equal(ck)
            olds = seen.get(ck[first])
            fresh = (olds == NEVER) | (g - olds > horizon)
            first, olds = first[fresh], olds[fresh]
            if len(first) >= width or m == len(sel):
                break
            m = min(len(sel), 4 * m)
        pick = first[:width]
        nkeys = ck[pick]
        kept = sel[pick]  # the kept children (indices into this layer's children)
        found = np.nonzero(h[kept] == 0)[0]
        if len(found):
            q = kept[found[0]]
            return traced_path(parents, moved, int(s[q]), int(par[q]))
        count = len(pick)
        if not count:
            return None
        pp, pmv, ps, pmt = par[kept], mv[kept], s[kept], mt[kept]
        seen.put(nkeys, np.full(count, g, np.int64), int(np.count_nonzero(olds[:width] != NEVER)))
        rows = np.arange(count)
        nb = boards[pp]
        nb[rows, blanks[pp]] = nb[rows, ps]
        nb[rows, ps] = blank_label
        nc = codes[pp]
        nc[rows, L1[pmv]] += d1[pmt]
        nc[rows, L2[pmv]] += d2[pmt]
        nc[rows, L3[pmv]] += d3[pmt]
        nh = h[kept]
        least = int(nh.min())
        if least < low:
            low, low_at = least, g
        elif g - low_at >= stall_layers and least <= endgame_h and dup_layers:
            horizon, dup_layers = sys.maxsize, 0  # stalled near the target: no position kept again
        if dup_layers and g % dup_layers == 0:
            seen.forget()  # (the layers up to g - dup_layers)
        if seen.count > max_states:
            return None
        boards, blanks, states, hs, codes, ranks, keys = nb, ps, NEXT[pmv], nh, nc, rank[order[pick]], nkeys
        parents.append(pp.astype(np.int32))  # the path records: 5 bytes a node, as the pure beam's
        moved.append(ps.astype(np.uint8))
        if due():
            yield
    return None


__all__ = [
    "MAX_LAYERS",
    "MAX_LINE",
    "MIN_WIDTH",
    "RecentPositions",
    "SeenTable",
    "applies",
    "first_of_equal",
    "line_values",
    "move_hashes",
    "vector_beam_steps",
    "zobrist",
]
