"""Beam search: breadth-first, keeping the *width* most promising children of each layer.

Children of a layer are ranked by the weighted estimate of :mod:`fifteen.anytime.rank` (MD weighted
by where each tile belongs, plus LC; ``ranked=False``: by MD + LC) to the target (ties: children of
better-ranked parents first, as packed integers sorted once); positions kept in the last :data:`DUP_LAYERS` layers are
not kept again.  Memory is ``width x DUP_LAYERS`` positions as bytes plus 5 bytes per kept node
for the path (a parent index and the blank's square per layer).  With *upper* (the length of a
known solution) a child with ``g + h >= upper`` is dropped, *h* being MD + LC whatever ranks: it
is admissible, so the child cannot lead to a shorter solution; doubling the width with *upper* the best length so far is the
anytime scheme of :mod:`fifteen.anytime` (BULB's backtracking is not needed: on the 24-puzzle
every beam of width 16-4096 found a solution, ``bench/anytime.md``).
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Callable, Sequence
from functools import cache
from types import ModuleType

from fifteen.anytime.rank import RANK_WEIGHTS, noisy_moves, rank_tables
from fifteen.anytime.tables import LabelTables, labelled, traced_path
from fifteen.machine import available_memory
from fifteen.search.slices import Steps, due, resumable

try:  # the same beam with its layers as numpy arrays, natively (Pyodide has no numpy)
    from fifteen.anytime import vector_beam as _vector_beam
except ImportError:
    _vector_beam = None  # type: ignore[assignment]
#: The module that runs wide beams when numpy is there (:mod:`fifteen.anytime.vector_beam`: the
#: same paths, faster), else None; the pure loop below runs the others.
VECTOR: ModuleType | None = _vector_beam

#: The rank's weights that make it MD + LC itself (``ranked=False``).
PLAIN_WEIGHTS = (1, 1, 1, 1)
#: A beam's duplicate detection looks this many layers back.
DUP_LAYERS = 16
#: Cap on the positions a beam keeps for duplicate detection (then it gives up).
BEAM_MAX_STATES = 3_000_000
#: The same for a beam that runs in numpy (:mod:`fifteen.anytime.vector_beam`) wider than the pure
#: beam's widest, when the free memory holds it (:data:`VECTOR_BEAM_BYTES` a position of its
#: width): a position kept takes four 8-byte slots of its hash tables (at most a quarter full)
#: where the pure beam's dict takes about 120 bytes, so beams of 131,072 and 262,144 fit
#: (bench/anytime.md, *Wider numpy beams*).
VECTOR_BEAM_MAX_STATES = 12_000_000
#: What a beam in numpy takes at most per position of its width, its path records and hash table
#: included (measured on 6x6: the process running a beam of 262,144 peaks at 740 MB, 2.8 KB a
#: position of the width; 1.2 GB with one table at most half full, rebuilt every 16 layers).
VECTOR_BEAM_BYTES = 8192
#: The endgame: when the layers' smallest MD + LC has not fallen for STALL_LAYERS layers and is at
#: most ENDGAME_H, the beam is stuck near its target (the last tiles need moves the rank cannot
#: see, and it comes back to the positions it left DUP_LAYERS ago); from then on it keeps no
#: position it kept before, whenever (bench/anytime.md, *The beams' endgame*).
STALL_LAYERS = 32
ENDGAME_H = 16


def beam_search(
    T: LabelTables,
    start: Sequence[int],
    target: Sequence[int],
    width: int,
    check: Callable[[], None] | None = None,
    upper: int | None = None,
    dup_layers: int = DUP_LAYERS,
    max_states: int | None = None,
    max_depth: int | None = None,
    ranked: bool = True,
    noise: int = 0,
) -> list[int] | None:
    """A path (the blank's squares) from *start* to *target* found by a beam of *width*, or None.

    ``None`` when the beam dies out (every child pruned or a duplicate), keeps more than
    *max_states* positions (default :func:`beam_max_states`), or reaches *max_depth* layers (default: *upper*, else
    ``4 * h0 + 4 * N``: a beam that forgets old layers can otherwise wander; near its target,
    once it stalls there, it forgets none: :data:`STALL_LAYERS`).  *check* is
    called once per layer (it may raise to stop the search).  In a time slice that ends first
    the beam is kept and :class:`~fifteen.search.slices.Pause` raised: the same call goes on where
    it stopped (:func:`fifteen.search.slices.resumable`; a layer's sort is not cut).  *noise* > 0
    ranks by the fitted costs with each tile's scaled by its own seeded factor
    (:func:`fifteen.anytime.rank.noisy_moves`): another beam of the same width, other paths.
    """
    depth = max_depth if max_depth is not None else upper
    vector = numpy_beam(T, width, depth)
    if max_states is None:
        max_states = beam_max_states(T, width, depth)
    key = ("beam", T, tuple(start), tuple(target), width, check, upper, dup_layers, max_states, max_depth, ranked, noise)
    if vector is not None:
        weights = RANK_WEIGHTS if ranked else PLAIN_WEIGHTS
        args = (T, start, target, width, check, upper, dup_layers, max_states, max_depth, weights, STALL_LAYERS, ENDGAME_H, noise)
        return resumable(key, lambda: vector.vector_beam_steps(*args))
    return resumable(key, lambda: _beam_steps(T, start, target, width, check, upper, dup_layers, max_states, max_depth, ranked, noise))


def numpy_beam(T: LabelTables, width: int, depth: int | None = None) -> ModuleType | None:
    """:data:`VECTOR` when a beam of *width* on *T*'s board (to *depth* layers) runs in numpy,
    None when it runs in the pure loop."""
    return VECTOR if VECTOR is not None and VECTOR.applies(T, width, depth) else None


def beam_max_states(T: LabelTables, width: int, depth: int | None = None) -> int:
    """The positions a beam of *width* on *T*'s board keeps at most: :data:`VECTOR_BEAM_MAX_STATES`
    when it runs in numpy, is wider than the pure beam's widest and this machine's free memory
    holds :data:`VECTOR_BEAM_BYTES` per position of its width; else :data:`BEAM_MAX_STATES`."""
    if width <= widest_beam() or numpy_beam(T, width, depth) is None:
        return BEAM_MAX_STATES
    free = free_memory()
    return VECTOR_BEAM_MAX_STATES if free is None or free >= width * VECTOR_BEAM_BYTES else BEAM_MAX_STATES


@cache
def free_memory() -> int | None:
    """This machine's free memory when the process's first beam wider than the pure beam's widest
    asked (:func:`fifteen.machine.available_memory`), read once: a beam paused at the end of a time
    slice is asked again, and its own arrays take from the free memory, so a fresh reading could
    give it another limit (another beam) half-way."""
    return available_memory()


def widest_beam(dup_layers: int = DUP_LAYERS, max_states: int = BEAM_MAX_STATES) -> int:
    """The widest beam that keeps within *max_states* positions: between two prunings (every
    *dup_layers* layers) a beam looks duplicates up among up to ``2 x dup_layers - 1`` layers of
    kept positions, and a wider one gives up there (the pure beam's 3 M: 96,774, so 131,072 gives
    up after about 23 layers; numpy's 12 M: 387,096)."""
    return max_states // (2 * dup_layers - 1)


#: Parents (or sorted children) between two looks at the time slice's clock.
CHUNK = 2048


def _beam_steps(
    T: LabelTables,
    start: Sequence[int],
    target: Sequence[int],
    width: int,
    check: Callable[[], None] | None,
    upper: int | None,
    dup_layers: int,
    max_states: int,
    max_depth: int | None,
    ranked: bool,
    noise: int,
) -> Steps[list[int] | None]:
    board = labelled(start, target)
    blank = list(start).index(0)
    blank_label = board[blank]
    h0, codes0 = T.value(board, blank)
    if h0 == 0:
        return []
    succ, mdd, d1, d2, d3, lt = T.succ, T.mdd, T.d1, T.d2, T.d3, T.lt
    weights = RANK_WEIGHTS if ranked else PLAIN_WEIGHTS
    rank = rank_tables(T, weights)
    rmdd, wlc = noisy_moves(T, weights, noise), rank.lc
    # the ranks (fifteen.anytime.rank; MD + LC itself unranked) less the start's, an offset that orders nothing
    # (one parent in the first layer); a key's rank may be negative, its low 40 bits still the parent, move and h
    ranks = [0]
    nrk: list[int] = []
    boards = [bytes(board)]
    blanks = [blank]
    states = [T.start_state(blank)]
    hs = [h0]
    codes = [list(codes0)]
    seen: dict[bytes, int] = {boards[0]: 0}  # position -> the layer it was kept in
    horizon = dup_layers or sys.maxsize
    # a key's bits below the rank's 40: the parent's index, the move's (2 bits), the child's MD + LC
    # (`hb` bits, room for any: each tile at most rows + cols - 2 squares away, and 4 for LC)
    hb = (T.n * (T.rows + T.cols + 2)).bit_length()
    jb, jm, hm = hb + 2, 1 << hb, (1 << hb) - 1
    im = (1 << (40 - jb)) - 1
    parents: list[array] = []
    moved: list[bytes] = []
    g = 0
    limit = sys.maxsize if upper is None else upper
    low, low_at = h0, 0  # the smallest MD + LC of a layer so far, and its layer
    if max_depth is None:
        max_depth = upper if upper is not None else 4 * h0 + 4 * T.n
    while boards and g < max_depth:
        if check is not None:
            check()
        g += 1
        room = limit - g  # a child's h must stay below this (g + h < upper)
        # a child's key: its rank, then its parent's index and the move's (the order it is taken
        # in), then its MD + LC in the low `hb` bits
        keys: list[int] = []
        add = keys.append
        for lo in range(0, len(boards), CHUNK):
            for i in range(lo, min(lo + CHUNK, len(boards))):
                bd = boards[i]
                hp = hs[i]
                cd = codes[i]
                j = i << jb
                rp = ranks[i] - wlc * hp  # the rank's change is the weighted MD's plus w_lc times LC's
                for s, m, _st, l1, l2, _l3 in succ[states[i]]:
                    mt = m + bd[s]
                    c1 = cd[l1]
                    c2 = cd[l2]
                    n1 = c1 + d1[mt]
                    n2 = c2 + d2[mt]
                    dm = mdd[mt]
                    h = hp + dm + lt[n1] - lt[c1] + lt[n2] - lt[c2]
                    if h < room:
                        add((rp + rmdd[mt] + wlc * (h - dm)) << 40 | j | h)
                    j += jm
            if due():
                yield
        keys.sort()
        nb: list[bytes] = []
        nbl: list[int] = []
        nst: list[int] = []
        nh: list[int] = []
        ncd: list[list[int]] = []
        par = array("i")
        mv = bytearray()
        full = False
        for lo in range(0, len(keys), CHUNK):
            for key in keys[lo : lo + CHUNK]:
                i = (key >> jb) & im
                s, m, st, l1, l2, l3 = succ[states[i]][(key >> hb) & 3]
                b = blanks[i]
                child = bytearray(boards[i])
                t = child[s]
                child[b] = t
                child[s] = blank_label
                ckey = bytes(child)
                old = seen.get(ckey)
                if old is not None and g - old <= horizon:
                    continue
                h = key & hm
                if h == 0:
                    return traced_path(parents, moved, s, i)
                seen[ckey] = g
                mt = m + t
                nc = codes[i].copy()
                nc[l1] += d1[mt]
                nc[l2] += d2[mt]
                nc[l3] += d3[mt]
                nb.append(ckey)
                nbl.append(s)
                nst.append(st)
                nh.append(h)
                nrk.append(key >> 40)  # (its rank)
                ncd.append(nc)
                par.append(i)
                mv.append(s)
                if len(nb) >= width:
                    full = True
                    break
            if full:
                break
            if due():
                yield
        if nh:
            least = min(nh)
            if least < low:
                low, low_at = least, g
            elif g - low_at >= STALL_LAYERS and least <= ENDGAME_H and dup_layers:
                horizon, dup_layers = sys.maxsize, 0  # stalled near the target: no position kept again
        if dup_layers and g % dup_layers == 0:
            seen = {k: v for k, v in seen.items() if g - v < dup_layers}
        if len(seen) > max_states:
            return None
        boards, blanks, states, hs, codes = nb, nbl, nst, nh, ncd
        ranks, nrk = nrk, []
        parents.append(par)
        moved.append(bytes(mv))
    return None


__all__ = [
    "BEAM_MAX_STATES",
    "DUP_LAYERS",
    "ENDGAME_H",
    "STALL_LAYERS",
    "VECTOR_BEAM_BYTES",
    "VECTOR_BEAM_MAX_STATES",
    "beam_max_states",
    "beam_search",
    "free_memory",
    "numpy_beam",
    "widest_beam",
]
