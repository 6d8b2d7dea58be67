"""The beam of :mod:`fifteen.anytime.beam` with each layer held as numpy arrays (native runs only).

The same search, layer for layer: a layer's children are generated and ranked as arrays, sorted by
the same keys (the rank, then the parent and its move in the order of ``LabelTables.succ``), and kept
in that order with the same duplicate detection (a dict of the positions kept, as bytes) and the
same endgame, so it returns the very path of the pure Python beam, several times faster on wide
beams (``bench/anytime.md``, *The beam's layers in numpy*).  Pyodide has no numpy: the page runs
the pure beam.  :func:`fifteen.anytime.beam.beam_search` uses this one when numpy can be imported,
the shape's line table is a table (rows and columns of at most
:data:`~fifteen.bounds.manhattan.LINE_TABLE_MAX`) and the width is at least :data:`MIN_WIDTH`.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from functools import cache
from itertools import repeat
from typing import Any, cast

import numpy as np

from fifteen.anytime.rank import rank_tables, rank_value
from fifteen.anytime.tables import LabelTables, labelled, traced_path
from fifteen.search.slices import Steps, due

#: ``seen``'s answer for a position never kept.
NEVER = -(1 << 62)
#: Narrower beams run the pure Python loop (a layer's arrays cost more than they save).
MIN_WIDTH = 256


#: Longest rows and columns served: a line table of ``8 ** 7`` codes (4 MB a side as int16).
MAX_LINE = 7


def applies(T: LabelTables, width: int) -> bool:
    """True when this beam serves *T*'s shape at *width*."""
    return width >= MIN_WIDTH and max(T.rows, T.cols) <= MAX_LINE


@cache
def line_values(length: int) -> np.ndarray:
    """:func:`fifteen.bounds.manhattan.line_table` as an array, computed for every code at once
    (also past :data:`~fifteen.bounds.manhattan.LINE_TABLE_MAX`): twice the line's own tiles
    less the longest run of them in increasing goal order; 0 for codes that repeat a tile."""
    base = length + 1
    codes = np.arange(base**length, dtype=np.int64)
    digits = [((codes // base**i) % base).astype(np.int8) for i in range(length)]
    del codes
    longest: list[np.ndarray] = []  # longest[i]: the longest increasing run ending at cell i
    best = np.zeros(len(digits[0]), np.int8)
    count = np.zeros(len(digits[0]), np.int8)
    distinct = np.ones(len(digits[0]), bool)
    for i, di in enumerate(digits):
        run = (di > 0).astype(np.int8)
        for j in range(i):
            dj = digits[j]
            run = np.maximum(run, np.where((dj > 0) & (dj < di), longest[j] + 1, 0).astype(np.int8))
            distinct &= (dj == 0) | (dj != di)
        longest.append(run)
        best = np.maximum(best, run)
        count += di > 0
    return np.where(distinct, 2 * (count - best), 0).astype(np.int16)


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
        "d1": np.array(T.d1, np.int64),
        "d2": np.array(T.d2, np.int64),
        "d3": np.array(T.d3, np.int64),
        "lt": np.concatenate([line_values(T.cols), line_values(T.rows)]),  # columns' from T.col_off
        "rmdd": np.array(rank.move, np.int64),
        "wlc": int(rank.lc),
    }


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
    S, M, NEXT, L1, L2, L3, VALID = A["s"], A["m"], A["next"], A["l1"], A["l2"], A["l3"], A["valid"]
    mdd, d1, d2, d3, lt, rmdd, wlc = A["mdd"], A["d1"], A["d2"], A["d3"], A["lt"], A["rmdd"], A["wlc"]
    boards = np.array([board], np.uint8)
    blanks = np.array([blank], np.intp)
    states = np.array([T.start_state(blank)], np.intp)
    hs = np.array([h0], np.int64)
    codes = np.array([codes0], np.int64)
    ranks = np.array([rank_value(T, board, blank, h0, weights)], np.int64)
    seen: dict[bytes, int] = {bytes(board): 0}  # position -> the layer it was kept in
    horizon = dup_layers or sys.maxsize
    parents: list[np.ndarray] = []
    moved: list[np.ndarray] = []
    g = 0
    limit = sys.maxsize if upper is None else upper
    low, low_at = h0, 0  # the smallest MD + LC of a layer so far, and its layer
    if max_depth is None:
        max_depth = upper if upper is not None else 4 * h0 + 4 * n
    void = np.dtype((np.void, n))
    while len(hs) and g < max_depth:
        if check is not None:
            check()
        g += 1
        room = limit - g  # a child's h must stay below this (g + h < upper)
        # the children, parent by parent and move by move (the pure beam's order)
        par, k = np.nonzero(VALID[states])
        st = states[par]
        s = S[st, k]
        mt = M[st, k] + boards[par, s]
        c1 = codes[par, L1[st, k]]
        c2 = codes[par, L2[st, k]]
        dm = mdd[mt]
        h = hs[par] + dm + lt[c1 + d1[mt]] - lt[c1] + lt[c2 + d2[mt]] - lt[c2]
        fit = np.nonzero(h < room)[0]
        par, k, st, s, mt, h, dm = par[fit], k[fit], st[fit], s[fit], mt[fit], h[fit], dm[fit]
        rank = ranks[par] - wlc * hs[par] + rmdd[mt] + wlc * (h - dm)
        order = np.argsort(rank, kind="stable")  # ties: the parent's index, then the move's
        if due():
            yield
        # kept in that order: not a position kept in the last `horizon` layers (nor twice in this
        # one), at most `width`; a chunk of candidates at a time, each looked up in `seen` at once
        picks: list[np.ndarray] = []
        kept_boards: list[np.ndarray] = []
        count = done = 0
        while count < width and done < len(order):
            chunk = order[done : done + width - count + (width >> 2)]
            done += len(chunk)
            cpar, cs = par[chunk], s[chunk]
            children = boards[cpar]
            rows = np.arange(len(chunk))
            children[rows, blanks[cpar]] = children[rows, cs]
            children[rows, cs] = blank_label
            view = children.view(void).ravel()
            positions = cast("list[bytes]", view.tolist())  # (void rows: bytes)
            olds = np.fromiter(map(seen.get, positions, repeat(NEVER)), np.int64, len(chunk))
            first = dict(zip(reversed(positions), range(len(chunk) - 1, -1, -1), strict=True))  # the first of equal children
            fresh = np.zeros(len(chunk), bool)
            fresh[np.fromiter(first.values(), np.intp, len(first))] = True
            fresh &= (olds == NEVER) | (g - olds > horizon)
            accepted = np.nonzero(fresh)[0][: width - count]
            found = np.nonzero(h[chunk[accepted]] == 0)[0]
            if len(found):
                q = accepted[found[0]]
                return traced_path(parents, moved, int(cs[q]), int(cpar[q]))
            seen.update(zip(cast("list[bytes]", view[accepted].tolist()), repeat(g)))
            picks.append(chunk[accepted])
            kept_boards.append(children[accepted])
            count += len(accepted)
        if not count:
            return None
        pick = np.concatenate(picks)
        pp, pk, pst, ps, pmt = par[pick], k[pick], st[pick], s[pick], mt[pick]
        nb = np.concatenate(kept_boards)
        rows = np.arange(len(pick))
        nc = codes[pp]
        nc[rows, L1[pst, pk]] += d1[pmt]
        nc[rows, L2[pst, pk]] += d2[pmt]
        nc[rows, L3[pst, pk]] += d3[pmt]
        nh = h[pick]
        least = int(nh.min())
        if least < low:
            low, low_at = least, g
        elif g - low_at >= stall_layers and least <= endgame_h and dup_layers:
            horizon, dup_layers = sys.maxsize, 0  # stalled near the target: no position kept again
        if dup_layers and g % dup_layers == 0:
            seen = {key: v for key, v in seen.items() if g - v < dup_layers}
        if len(seen) > max_states:
            return None
        boards, blanks, states, hs, codes, ranks = nb, ps, NEXT[pst, pk], nh, nc, rank[pick]
        parents.append(pp.astype(np.int32))  # the path records: 5 bytes a node, as the pure beam's
        moved.append(ps.astype(np.uint8))
        if due():
            yield
    return None


__all__ = ["MAX_LINE", "MIN_WIDTH", "applies", "line_values", "vector_beam_steps"]
