"""The lower bounds by name: the registry of every bound (its searcher factory, where it is
available, its inner loop) and their values at a position (solving with one:
:func:`fifteen.optimal.solve`).

Bound names (``--bound`` in the CLI, ``bound`` in the API):

========  ==================================================================
md        Manhattan distance
lc        Manhattan distance + linear conflict
lclm      MD + linear conflict + the last moves, + the corner tiles up to 6x6 (boards
          without the WD tables: 4x5 and up)
id        inversion distance, vertical + horizontal
wd        walking distance, vertical + horizontal
wdid      the seed's max(WD_v, ID_v) + max(WD_h, ID_h)
pdb771    additive 7-7-1 pattern database, max with its reflected lookup (4x4; the default)
pdb663    additive 6-6-3 pattern database, max with its reflected lookup (4x4)
pdb555    additive 5-5-5 pattern database, max with its reflected lookup (4x4)
pdb78     additive 7-8 pattern database + reflected lookup (4x4; the optional pack)
pdb55554  additive 5-5-5-5-4 pattern database, max with its reflected lookup (5x5; the default)
auto      the strongest available for the board
========  ==================================================================

**Goals.**  A board's values are those of the position in its solving frame
(:mod:`fifteen.frame`): a goal whose blank is in a corner is mapped onto the standard goal, and
every bound applies; any other goal is given to MD, LC, ID and WD as data, and the pattern
databases and the last moves are not offered (:func:`available_bounds` with the goal).
"""

from __future__ import annotations

import functools
import sys
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from fifteen.board import Board, Goal, InputError, Shape, tile_squares, transpose_tiles
from fifteen.bounds import databases, manhattan_loop, pdb78_loop, pdb_loop, walking_loop
from fifteen.bounds.corner_tiles import corner_tiles
from fifteen.bounds.inversion import inversion_distance
from fifteen.bounds.last_moves import last_moves
from fifteen.bounds.manhattan import linear_conflict, manhattan
from fifteen.bounds.pdb import PARTITIONS as PDB_PARTITIONS
from fifteen.bounds.pdb import PatternDatabase
from fifteen.bounds.pdb78 import PARTITIONS as PDB78_PARTITIONS
from fifteen.bounds.pdb78 import PDB78
from fifteen.bounds.walking import axis_counts, walking_available
from fifteen.errors import AssetWarning
from fifteen.frame import frame_for
from fifteen.limits import describe, past_optimal_reach
from fifteen.search.ida import SearcherFactory, first_bound
from fifteen.search.template import Loop, generate


@dataclass(frozen=True)
class BoundInfo:
    """A bound: its searcher factory (the contract of :mod:`fifteen.search.ida`), where it is
    available, and its inner loop (:class:`fifteen.search.template.Loop`) on a shape."""

    name: str
    label: str
    factory: SearcherFactory
    available: Callable[[Shape], bool]
    loop: Callable[[Shape], Loop]
    #: offered only for goals whose blank is in a corner (their solving frame's is the standard goal)
    corner_goal: bool = False

    def loop_source(self, shape: Shape) -> str:
        """The generated source of this bound's inner loop on *shape* (no database needed)."""
        return generate(self.loop(shape))


def _always(shape: Shape) -> bool:
    return True


def _past_walking(shape: Shape) -> bool:
    """Boards without the WD tables (4x5 and up), where MD + LC was the strongest cheap bound."""
    return not walking_available(shape)


def _id_wd_loop(use_wd: bool, use_id: bool) -> Callable[[Shape], Loop]:
    return lambda shape: walking_loop.id_wd_loop((shape.cols - 1, shape.rows - 1), use_wd, use_id)


_CLASSIC = [
    BoundInfo("md", "Manhattan distance", manhattan_loop.manhattan_searcher, _always, lambda shape: manhattan_loop.MD_LOOP),
    BoundInfo("lc", "Manhattan + linear conflict", manhattan_loop.linear_conflict_searcher, _always, lambda shape: manhattan_loop.LC_LOOP),
    BoundInfo(
        "lclm",
        "Manhattan + linear conflict + last moves + corner tiles",
        manhattan_loop.last_moves_searcher,
        _past_walking,
        manhattan_loop.last_moves_loop,
        corner_goal=True,
    ),
    BoundInfo("id", "Inversion distance", walking_loop.inversion_searcher, _always, _id_wd_loop(False, True)),
    BoundInfo("wd", "Walking distance", walking_loop.walking_searcher, walking_available, _id_wd_loop(True, False)),
    BoundInfo(
        "wdid", "max(WD, ID) per axis (the seed's)", walking_loop.walking_inversion_searcher, walking_available, _id_wd_loop(True, True)
    ),
]


_PDB_LABELS = {
    "pdb78": "7-8 pattern database + reflection (optional pack)",
    "pdb771": "7-7-1 pattern database + reflection",
    "pdb663": "6-6-3 pattern database + reflection",
    "pdb555": "5-5-5 pattern database + reflection",
    "pdb55554": "5-5-5-5-4 pattern database + reflection",
}
_PDB_NAMES = ("pdb78", "pdb771", "pdb663", "pdb555", "pdb55554")  # strongest first (per shape)


def _pdb_bound(name: str) -> BoundInfo:
    made: list = [None, None]  # (database, its searcher factory): the factory caches per-shape tables

    def factory(shape, board, tick, *, tables=None, state=None, goal=None):
        db = databases.pattern_database(name, shape)  # read from the database directory at first use
        if made[0] is not db:
            if isinstance(db, PDB78):
                made[:] = [db, pdb78_loop.pdb78_searcher(db)]
            elif isinstance(db, PatternDatabase):
                made[:] = [db, pdb_loop.pdb_searcher(db)]
            else:  # resolve_bound checked availability
                raise InputError(f"bound {name!r} is not available for a {shape} board", code="bound")
        return made[1](shape, board, tick, tables=tables, state=state, goal=goal)

    def available(shape: Shape) -> bool:
        return databases.offers_pattern_database(name, shape)

    def loop(shape: Shape) -> Loop:
        reflect = shape.rows == shape.cols  # the reflected lookup needs a square board
        return (
            pdb78_loop.pdb78_loop(reflect, pdb78_loop.jump_slots(shape.cols))
            if name[3:] in PDB78_PARTITIONS
            else pdb_loop.pdb_loop(reflect)
        )

    return BoundInfo(name, _PDB_LABELS.get(name, name), factory, available, loop, corner_goal=True)


_PDB_BOUNDS = [_pdb_bound(name) for name in _PDB_NAMES]


def bound_infos() -> list[BoundInfo]:
    """Every bound, strongest first."""
    return _PDB_BOUNDS + list(reversed(_CLASSIC))


def bound_info(name: str) -> BoundInfo:
    """The bound named *name*, available or not (raises :class:`InputError` for an unknown name)."""
    for b in bound_infos():
        if isinstance(name, str) and b.name == name.lower():
            return b
    raise InputError(f"unknown bound {describe(name)} (choose from {', '.join(b.name for b in bound_infos())})", code="bound")


def _serves(info: BoundInfo, shape: Shape, goal: Goal | None) -> bool:
    """Whether *info* is available on *shape* for *goal* (the pattern databases and the last moves
    only where the goal maps onto the standard one)."""
    if not info.available(shape):
        return False
    return goal is None or not info.corner_goal or frame_for(goal).standard


def available_bounds(shape: Shape, goal: Goal | None = None) -> list[str]:
    """Names usable on *shape* (towards *goal*, default the standard goal), ``auto`` first
    then strongest first."""
    return ["auto"] + [b.name for b in bound_infos() if _serves(b, shape, goal)]


def asset_bounds(kind: str, file: str) -> list[str]:
    """The bounds a database file serves, from its manifest entry's *kind* and *file*: a pattern
    database its own bound (``pdb-771.f15``: ``pdb771``); the walking-distance tables (kind
    ``wd``) the bounds that read them (built in-process without the file); none for the small-board
    explorer's tables (kind ``explore``)."""
    if kind == "wd":
        return [b.name for b in _CLASSIC if b.available is walking_available]
    return [b.name for b in _PDB_BOUNDS if databases._pattern_file(b.name) == file]


#: How to get the databases natively (the end of the notice below).
GET_DATABASES = "get them with `fifteen db fetch URL` or `fifteen db build` (`fifteen db status` shows where they are looked for)"
_told_without_databases = False


def _tell_without_databases(shape: Shape, goal: Goal | None, bound: BoundInfo) -> None:
    """Once per process, natively: a 4x4 search of the standard frame without its pattern
    databases says how to get them (an :class:`AssetWarning`: one line on stderr in the CLI)."""
    global _told_without_databases
    if _told_without_databases or bound.name.startswith("pdb") or (shape.rows, shape.cols) != (4, 4) or sys.platform == "emscripten":
        return
    if goal is not None and not frame_for(goal).standard:
        return  # the pattern databases would not apply anyway
    _told_without_databases = True
    warnings.warn(
        f"no pattern databases found: 4x4 searches use {bound.name}, with many times more nodes; {GET_DATABASES}",
        AssetWarning,
        stacklevel=3,
    )


def _missing_database(name: str, shape: Shape) -> bool:
    """Whether the pattern-database bound *name* is made for boards of *shape* (its groups' tiles)
    but its database was not found, natively."""
    groups = (PDB78_PARTITIONS.get(name[3:]) or PDB_PARTITIONS.get(name[3:])) if name.startswith("pdb") else None
    return groups is not None and max(map(max, groups)) + 1 == shape.size and sys.platform != "emscripten"


def resolve_bound(shape: Shape, name: str, goal: Goal | None = None) -> BoundInfo:
    """The bound named *name* (``auto``: the strongest available) for boards of *shape* solved
    towards *goal* (default the standard goal); :class:`InputError` when it is not available."""
    name = (name or "auto").lower()
    if name == "auto":
        # The strongest available: a pattern database, else the seed's WD+ID, else MD+LC.
        for b in bound_infos():
            if _serves(b, shape, goal) and b.name not in ("wd", "id"):
                _tell_without_databases(shape, goal, b)
                return b
    for b in bound_infos():
        if b.name == name:
            if not _serves(b, shape, goal):
                why, how = f"a {shape} board", ""
                if b.available(shape) and goal is not None:
                    r, c = divmod(goal.blank, shape.cols)
                    what = "the pattern databases need" if b.name.startswith("pdb") else "the last moves need"
                    why = f"this goal: {what} its blank in a corner, not on row {r + 1}, column {c + 1}"
                elif _missing_database(b.name, shape):
                    how = f"; no pattern databases found: {GET_DATABASES}"
                raise InputError(
                    f"bound {describe(name)} is not available for {why} (available: {', '.join(available_bounds(shape, goal))}){how}",
                    code="bound",
                )
            return b
    raise InputError(f"unknown bound {describe(name)} (choose from {', '.join(available_bounds(shape, goal))})", code="bound")


def check_board(board: object) -> None:
    """Raise :class:`InputError` unless *board* is a :class:`Board` (which checked itself)."""
    if not isinstance(board, Board):
        raise InputError(f"expected a Board (Board.parse(text) or Board.from_tiles(tiles)), not {describe(board)}", code="param")


#: The bounds whose root value costs microseconds and no database beyond the WD tables.
_CHEAP_BOUNDS = ("md", "lc", "lclm", "id", "wd", "wdid")


def walking_distance(shape: Shape, tiles: Sequence[int], goal: Sequence[int] | None = None) -> tuple[int, int]:
    """``(WD_v, WD_h)`` of a position towards *goal* (its tiles; default the standard goal): its
    tables in the vertical and horizontal WD tables of that goal (:func:`fifteen.bounds.databases.walking_pair`)."""
    vertical, horizontal = databases.walking_pair(shape, goal)
    if goal is None:
        return vertical.value(tiles), horizontal.value(transpose_tiles(shape, tiles))
    home = tile_squares(goal)
    v = vertical.values[vertical.index[axis_counts(shape, tiles, home, True)]]
    h = horizontal.values[horizontal.index[axis_counts(shape, tiles, home, False)]]
    return v, h


def _cheap_values(board: Board) -> dict[str, int]:
    """MD, LC, ID and WD (with WD+ID) of *board*: a new dict each time, the values computed once
    per board (``bound_values`` and then ``start_bound`` of the same solve ask for them both)."""
    return dict(_computed_cheap_values(board))


@functools.lru_cache(maxsize=64)  # (forgotten with the databases: databases.reset)
def _computed_cheap_values(board: Board) -> tuple[tuple[str, int], ...]:
    shape = board.shape
    frame = frame_for(board.target)
    tiles, goal = frame.position(board.tiles), frame.search_goal
    md = manhattan(shape, tiles, goal)
    out = {"md": md, "lc": md + linear_conflict(shape, tiles, goal)}
    id_v, id_h = inversion_distance(shape, tiles, goal)
    out.update(id_v=id_v, id_h=id_h, id=id_v + id_h)
    if walking_available(shape):
        wd_v, wd_h = walking_distance(shape, tiles, goal)
        out.update(wd_v=wd_v, wd_h=wd_h, wd=wd_v + wd_h, wdid=max(wd_v, id_v) + max(wd_h, id_h))
    elif frame.standard:
        out["lclm"] = out["lc"] + last_moves(shape, tiles) + corner_tiles(shape, tiles)
    return tuple(out.items())


databases.on_reset(_computed_cheap_values.cache_clear)


def start_bound(board: Board, bound: str = "auto") -> int:
    """Another lower bound for the root of a search with *bound* (0: none beyond its own ``h0``):
    for ``auto`` (the strongest available), the best of MD, LC, ID, WD and WD+ID at the root,
    so a pattern database search of a position where WD+ID is higher (Korf #60: PDB 50, WD+ID
    54) skips the iterations below it; it costs nothing per node."""
    if (bound or "auto").lower() != "auto":
        return 0
    values = _cheap_values(board)
    return max(values[k] for k in _CHEAP_BOUNDS if k in values)


def bound_values(board: Board) -> dict[str, int]:
    """Every lower bound of *board* that its shape (and goal) supports, plus ``lb`` (the
    largest); of the position in its solving frame (:mod:`fifteen.frame`)."""
    check_board(board)
    shape = board.shape
    out = _cheap_values(board)
    frame = frame_for(board.target)
    tiles = frame.position(board.tiles)
    for name in _PDB_NAMES if frame.standard else ():
        db = databases.pattern_database(name, shape)  # read from the database directory at first use
        if db is not None:
            plain = db.value(tiles)
            reflected = db.reflected_value(tiles) if db.rgroups else plain
            out[name] = max(plain, reflected)
            if name == "pdb78":
                out.update(pdb78_plain=plain, pdb78_r=reflected)
            if "pdb" not in out:  # the strongest loaded one is shown as PDB / PDBr
                out.update(pdb=plain, pdb_r=reflected)
    out["lb"] = max(v for k, v in out.items() if k in _CHEAP_BOUNDS + _PDB_NAMES)
    return out


def start_values(board: Board, values: dict[str, int]) -> dict[str, int]:
    """The first cost bound of a search of *board* with each bound available on its shape (the
    bound's value of the position, from *values* = :func:`bound_values`, raised to the
    solutions' parity); ``auto``'s also takes :func:`start_bound` into account."""
    shape = board.shape
    out = {}
    for name in available_bounds(shape, board.target):
        picked = resolve_bound(shape, name, board.target).name
        if picked in values:
            extra = max(values[k] for k in _CHEAP_BOUNDS if k in values) if name == "auto" else 0
            out[name] = first_bound(shape, board.tiles, max(values[picked], extra), board.target.tiles)
    return out


def bounds_json(board: Board, values: dict[str, int] | None = None) -> dict[str, Any]:
    """The JSON of a position's bounds (``bounds --json``, the API's ``bounds``): the position
    (:meth:`fifteen.board.Board.to_json`), ``bounds`` (*values*, default :func:`bound_values`),
    ``summary``, ``start`` (:func:`start_values`: the first cost bound of each bound's search),
    ``auto`` (the bound ``auto`` picks), ``goal_frame`` (how the goal is searched:
    :meth:`fifteen.frame.Frame.describe`, ``null`` for the standard goal) and ``anytime``
    (whether a solve with no bound named gives the anytime answer:
    :func:`fifteen.limits.past_optimal_reach` of the board's size and :func:`start_bound`; the page
    reads it to choose what Solve does)."""
    values = bound_values(board) if values is None else values
    return {
        **board.to_json(),
        "bounds": values,
        "summary": summary(values),
        "start": start_values(board, values),
        "auto": resolve_bound(board.shape, "auto", board.target).name,
        "goal_frame": frame_for(board.target).describe(),
        "anytime": past_optimal_reach(board.shape.size, start_bound(board)),
    }


def summary(values: dict[str, int]) -> str:
    """The seed's style: ``MD=40 WD=20/20 ID=12/12 LB=40`` (with PDB when known)."""
    parts = [f"MD={values['md']}", f"LC={values['lc']}"]
    if "wd_v" in values:
        parts.append(f"WD={values['wd_v']}/{values['wd_h']}")
    parts.append(f"ID={values['id_v']}/{values['id_h']}")
    if "pdb" in values:
        parts.append(f"PDB={values['pdb']} PDBr={values['pdb_r']}")
    parts.append(f"LB={values['lb']}")
    return " ".join(parts)
