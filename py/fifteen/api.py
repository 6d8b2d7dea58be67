"""The JSON boundary used by the browser worker (and handy for any host).

Every call takes and returns plain JSON text, so nothing but strings crosses
between JavaScript and Python.  Results are ``{"ok": true, "result": ...}``;
failures are ``{"ok": false, "error": {"type": T, "code": C, "message": M}}`` with *T*
one of ``input`` (bad position, shape, bound or parameter), ``asset`` (missing or
corrupt database), ``cancelled`` or ``internal`` (a bug) — never a traceback, and
:func:`call` never raises.  *C* is a stable code (``unsolvable``, ``duplicate``,
``moves``...: :data:`fifteen.errors.ERROR_CODES`; the type itself for ``cancelled`` and
``internal``) for a program to tell errors apart; *M* is for a person and may be reworded.
The parameters are checked by :mod:`fifteen.schema` before the method runs: at most 128 KiB
of JSON, 8 levels deep, numbers of at most 40 digits (NaN and Infinity refused), only the
keys the method takes (:data:`fifteen.schema.METHOD_PARAMS`, the one list of the methods),
each of its kind (:data:`fifteen.schema.PARAM_RULES`); ``null`` means "not given".  A move
list (``trace``'s ``moves``, ``hint``'s ``solution.moves``) follows one rule,
:meth:`fifteen.board.Board.tile_moves`: tile numbers (integers) or a string of directions.
``python -m fifteen schema`` prints the methods, parameters, error types and codes as JSON.

* :func:`load_asset` ``(name, data)``: register a fetched database (``data`` is
  bytes, or a JS ``Uint8Array`` proxy: converted once with ``to_bytes``, or a
  bytearray from :func:`new_buffer` ``(size)`` that the worker filled with a
  decompressed pack: taken over without a copy).
* :func:`container_size` ``(name, head)``: the whole size of a database
  container from its first :data:`CONTAINER_HEADER_BYTES` bytes (magic and
  version checked), so the worker can decompress a pack straight into a
  :func:`new_buffer` of that size without knowing the container's layout.
* :func:`payload_span` ``(name, head)`` and :func:`load_inflated` ``(name, data, payload)``:
  where a container's payload lies (from its header and metadata), and a zlib container
  registered with its payload decompressed by the worker into a :func:`new_buffer` (the
  browser's ``DecompressionStream``, chunk by chunk, so that the 7-7-1's 58 MB of tables do not
  hold the worker's thread for one ``zlib.decompress``).
* :func:`call` ``(method, params_json, progress=None, cancel=None)`` with
  methods ``info``, ``parse``, ``bounds``, ``solve``, ``random`` and the
  heuristic lab's ``compare``, ``trace``, ``explain``; see the
  ``_method_*`` functions for their parameters and results.  Every method that takes a
  position also takes its ``goal`` (a list of tiles, a text, or a name: ``"standard"``,
  ``"blank-first"``; absent or ``null``: the standard goal): the position must be solvable for
  it, and solutions reach it.  A position in a result is :meth:`fifteen.board.Board.to_json`
  (``shape``, ``rows``, ``cols``, ``tiles``, ``goal``); ``bounds`` is
  :func:`fifteen.bounds.bounds_json` (as ``bounds --json``), ``solve``
  :meth:`fifteen.optimal.Solution.to_json` with the position's ``bounds`` and
  ``summary`` (as ``solve --json``); both say how the goal was searched in ``goal_frame``
  (``null`` for the standard goal; see :mod:`fifteen.frame`).  ``progress`` is
  called with one JSON string (:meth:`fifteen.search.ida.Progress.to_json` plus ``estimate``:
  :meth:`fifteen.search.estimate.Estimate.to_json`, or ``null``) about four times a second
  during a solve and after every finished iteration.
  ``solve`` with ``"anytime": true`` (and by default, when no ``bound`` is named, on boards of
  more than 25 squares but for positions near the goal) runs the anytime search (:mod:`fifteen.anytime`) for ``time_limit``
  seconds (absent: until optimal or cancelled; at most 3600): each improvement (a shorter
  solution or a higher proven lower bound) is a progress message ``{"kind": "anytime",
  "seconds", "length", "lower_bound", "optimal", "moves", "iterations"}`` (*moves*: the best
  solution so far, so a page that ends the worker keeps it; *iterations*: the prover's finished
  ones); the result is
  :meth:`fifteen.anytime.AnytimeResult.to_json` (the keys of an optimal solve, then
  ``lower_bound``, ``optimal``, ``improvements``, ``stopped``: ``optimal``, ``time``,
  ``cancelled`` or ``exhausted``, then ``bounds`` and ``summary``); a cancel ends the search
  with the best found (``"stopped": "cancelled"``), not an error.
  ``parallel_begin``, ``parallel_step``, ``parallel_tasks``, ``parallel_result``
  and ``parallel_drop`` serve the page's pool of workers
  (:mod:`fifteen.parallel.page_pool`); ``anytime_first``, ``anytime_improve``,
  ``anytime_prove`` and ``anytime_result`` its anytime search (:mod:`fifteen.parallel.anytime_page`).

Small-board explorer and hints (:mod:`fifteen.bounds.exact`, :mod:`fifteen.lab.hint`).
A position is given as for ``solve`` (``tiles`` list or text, ``shape``);
moves are ``{"tile": t, "direction": "U"}`` (the tile that slides, the
blank's direction).  A board without a loaded table gets an ``input`` error
naming the boards that have one.

* ``explore_info`` ``{}`` -> ``{"shapes": [...]}`` (boards with a table);
  ``{"shape": "3x3"}`` -> ``{"shape", "table_shape", "transposed",
  "positions", "radius", "histogram": [count at distance 0, 1, ...],
  "hardest": [tiles, ...], "hardest_count"}``.
* ``explore_position`` ``{tiles, shape}`` -> ``{<position>,
  "distance", "moves": [{"tile", "direction", "distance", "optimal"}],
  "optimal": [move, ...]}``: every move with the distance it leads to.
* ``explore_random`` ``{"shape", "distance", "seed"?}`` -> ``{<position>,
  "distance", "seed"}``: uniform among the positions
  at exactly that distance; ``seed`` (an integer) makes it repeatable and is
  returned (drawn when not given).
* ``hint`` ``{tiles, shape, "all"?, "budget"?, "bound"?, "solution"?}`` ->
  ``{<position>, "distance", "next": move or null, "source":
  "table"|"path"|"solve", "nodes"}`` plus, with ``"all": true``,
  ``"optimal": [move, ...]`` and ``"undecided": [move, ...]`` (without a
  table: moves whose search ran out of its ``budget`` of nodes, default
  2,000,000 each), and without a table ``"solution": {"tiles", "moves"}``,
  the optimal solution from this position that the hint follows.  Give it
  back as ``"solution"`` in the next call (stateless use), or leave it out:
  the worker's own :class:`fifteen.lab.hint.Hinter` keeps it.  A given solution
  must be one this API returned (it is replayed to the goal, but its
  optimality is trusted).
"""

from __future__ import annotations

import itertools
import json
import random as _random
import time
import warnings
from collections.abc import Callable, Generator
from typing import Any

from fifteen.board import GOAL_NAMES, Board, Goal, Shape, check_tiles, parse_tiles
from fifteen.bounds import available_bounds, bound_infos, bound_values, bounds_json, databases, start_bound
from fifteen.bounds.walking import supported_shapes
from fifteen.db import container
from fifteen.errors import AssetError, AssetWarning, FifteenError, InputError
from fifteen.limits import MAX_COUNT, MAX_PARAMS_CHARS, describe, internal_message, past_optimal_reach
from fifteen.optimal import solve_steps
from fifteen.schema import LONG_PARAMS, check_params, page_limits, parse_params
from fifteen.search.estimate import estimate
from fifteen.search.ida import Cancelled, Progress
from fifteen.search.slices import Steps, forget, time_slice, value
from fifteen.version import __version__

PROGRESS_SECONDS = 0.25
AUTO_LABEL = "Strongest available"  # the label of ``auto``, which is not a bound of its own
#: How many bytes of a container :func:`container_size` needs (the fixed header).
CONTAINER_HEADER_BYTES: int = container._HEADER.size


def _ok(result: Any) -> str:
    return json.dumps({"ok": True, "result": result})


def _error(kind: str, message: str, code: str | None = None) -> str:
    """A failure: ``{"type": kind, "code": code, "message": message}``; the code of a
    ``cancelled`` or ``internal`` error is its type (:data:`fifteen.errors.ERROR_CODES`)."""
    return json.dumps({"ok": False, "error": {"type": kind, "code": code or kind, "message": message}})


def new_buffer(size: int) -> bytearray:
    """A zeroed bytearray of *size* bytes for the worker to fill (through
    ``PyProxy.getBuffer``) with a decompressed pack, then pass to :func:`load_asset`."""
    return bytearray(int(size))


def load_asset(name: str, data: Any) -> str:
    """Register a database asset from its bytes.

    *data*: bytes, a JS ``Uint8Array`` proxy (copied once by ``to_bytes``), or a
    bytearray from :func:`new_buffer`, which is handed over (used in place:
    the caller must drop it).
    """
    try:
        if not (isinstance(name, str) and len(name) <= 120 and name.isprintable()):
            name = describe(name, 120)
        if hasattr(data, "to_bytes") and not isinstance(data, int):  # a JsProxy of a Uint8Array (Pyodide)
            data = data.to_bytes()
        if not isinstance(data, bytes | bytearray | memoryview):
            raise AssetError(f"{name}: expected the file's bytes, got {describe(data)}", code="asset_corrupt")
        meta = databases.load_asset(data, name, take=isinstance(data, bytearray))
        return _ok(meta)
    except AssetError as exc:
        return _error("asset", str(exc), exc.code)
    except Exception as exc:  # pragma: no cover - defensive: never a traceback to the page
        return _error("internal", f"{describe(name)}: {internal_message(exc)}")


def payload_span(name: str, head: Any) -> str:
    """Where the payload of the container that starts with *head* lies (its header and
    metadata: bytes or a JS ``Uint8Array`` proxy), as a JSON reply ``{"start", "stored", "raw",
    "zlib"}`` (:func:`fifteen.db.container.payload_span`); an ``asset`` error when the header is
    not a Fifteen container's."""
    try:
        if hasattr(head, "to_bytes"):  # a JsProxy of a Uint8Array (Pyodide)
            head = head.to_bytes()
        return _ok(container.payload_span(head, name=name))
    except AssetError as exc:
        return _error("asset", str(exc), exc.code)
    except Exception as exc:  # defensive: never a traceback to the page
        return _error("internal", f"{describe(name)}: {internal_message(exc)}")


def load_inflated(name: str, data: Any, payload: Any) -> str:
    """Register a zlib-compressed database asset (*data*: its bytes as stored, or a JS
    ``Uint8Array`` proxy) whose payload the caller decompressed into *payload*, a bytearray from
    :func:`new_buffer` (taken over: the caller must drop it); checked as :func:`load_asset`
    checks a file (:func:`fifteen.db.container.inflated_asset`)."""
    try:
        if not (isinstance(name, str) and len(name) <= 120 and name.isprintable()):
            name = describe(name, 120)
        if hasattr(data, "to_bytes") and not isinstance(data, int):  # a JsProxy of a Uint8Array (Pyodide)
            data = data.to_bytes()
        if not isinstance(data, bytes | bytearray | memoryview) or not isinstance(payload, bytearray):
            raise AssetError(f"{name}: expected the file's bytes and a bytearray of its payload", code="asset_corrupt")
        meta = databases.load_asset(container.inflated_asset(data, payload, name=name), name)
        return _ok(meta)
    except AssetError as exc:
        return _error("asset", str(exc), exc.code)
    except Exception as exc:  # pragma: no cover - defensive: never a traceback to the page
        return _error("internal", f"{describe(name)}: {internal_message(exc)}")


def manifest(text: Any, name: str = "static/db/manifest.json") -> str:
    """The database list for the page's worker: the manifest's *text* checked by the rules the
    native side uses (:func:`fifteen.bounds.databases.manifest_lists`), as a JSON reply ``{"assets",
    "packs", "warnings"}``: invalid JSON or JSON of the wrong shape is a warning and leaves
    out what cannot be used, never an error."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", AssetWarning)
        try:
            if not isinstance(text, str):
                raise ValueError(f"expected text, got {describe(text)}")
            doc = json.loads(text)
        except (ValueError, RecursionError) as exc:
            found: list = []
            packs: list = []
            warnings.warn(f"{name}: unreadable manifest ({describe(str(exc), 80)}); {databases.NOT_USED}", AssetWarning, stacklevel=1)
        else:
            found, packs = databases.manifest_lists(doc, name)
    return _ok({"assets": found, "packs": packs, "warnings": [str(w.message) for w in caught]})


def container_size(name: str, head: Any) -> str:
    """The size in bytes of the whole container that starts with *head* (its first
    :data:`CONTAINER_HEADER_BYTES` bytes: bytes or a JS ``Uint8Array`` proxy), as a
    JSON reply; an ``asset`` error when the header is not a Fifteen container's."""
    try:
        if hasattr(head, "to_bytes"):  # a JsProxy of a Uint8Array (Pyodide)
            head = head.to_bytes()
        return _ok(container.container_size(head, name=name))
    except AssetError as exc:
        return _error("asset", str(exc), exc.code)
    except Exception as exc:  # defensive: never a traceback to the page
        return _error("internal", f"{describe(name)}: {internal_message(exc)}")


def _board(params: dict) -> Board:
    shape = params.get("shape") or None
    tiles = params.get("tiles")
    if tiles is not None and not isinstance(tiles, str):
        if not isinstance(tiles, list):
            raise InputError("tiles must be a list of numbers or text", code="param")
        shp = Shape.parse(shape) if shape else Shape.infer(len(tiles))
        return Board(shp, check_tiles(shp, tiles, solvable=False), Goal.of(params.get("goal"), shp))
    text = params.get("text", tiles if isinstance(tiles, str) else "")
    shp, parsed = parse_tiles(text, shape, solvable=False)
    return Board(shp, parsed, Goal.of(params.get("goal"), shp))


def _method_info(params: dict, **_: Any) -> dict:
    return {
        "version": __version__,
        "shapes": [str(s) for s in supported_shapes()],
        "bounds": {str(s): available_bounds(s) for s in supported_shapes()},
        "labels": {"auto": AUTO_LABEL, **{b.name: b.label for b in bound_infos()}},
        "goals": list(GOAL_NAMES),
        "limits": page_limits(),
    }


def _method_parse(params: dict, **_: Any) -> dict:
    return _board(params).to_json()


def _method_bounds(params: dict, **_: Any) -> dict:
    board = _board(params)
    return bounds_json(board, _values(board))


_last_values: tuple[Any, dict[str, int]] | None = None


def _values(board: Board) -> dict[str, int]:
    """:func:`fifteen.bounds.bound_values` of *board*, those of the call before when it computed
    them for the same position with the same databases loaded: the page's Solve after the check
    of a typed position (``bounds``) computes them once."""
    global _last_values

    def key() -> tuple:
        return (board, tuple(map(id, databases.pattern_databases.values())))

    if _last_values is not None and _last_values[0] == key():
        return dict(_last_values[1])
    values = bound_values(board)
    _last_values = (key(), dict(values))
    return values


def _method_random(params: dict, **_: Any) -> dict:
    """A position drawn uniformly from those solvable for ``goal`` (``seed`` optional)."""
    return Board.random(params.get("shape") or "4x4", params.get("seed"), params.get("goal")).to_json()


def _anytime_wanted(params: dict, board: Board) -> bool:
    """``solve``'s choice: the anytime search when ``anytime`` is true, or when it is not given,
    no ``bound`` is named and the position is past optimal reach
    (:func:`~fifteen.limits.past_optimal_reach`: a board of more than 25 squares, the position
    not near its goal)."""
    anytime = params.get("anytime")
    if anytime is not None:
        return bool(anytime)
    return not params.get("bound") and past_optimal_reach(board.shape.size, start_bound(board))


def _method_solve(params: dict, progress: Callable[[str], Any] | None = None, cancel=None) -> Steps[dict]:
    board = _board(params)
    if _anytime_wanted(params, board):
        return (yield from _solve_anytime(board, params, progress, cancel))
    bound = params.get("bound") or "auto"
    last = [0.0]
    longest = databases.longest_optimum(board.shape, board.target)
    ahead: list[Any] = [0, None]  # the finished iterations of the last estimate, and its JSON

    def report(p: Progress) -> None:
        assert progress is not None  # report is passed only with a progress callback
        now = time.perf_counter()
        if not p.done and now - last[0] < PROGRESS_SECONDS:
            return
        last[0] = now
        if ahead[0] != len(p.iterations):  # the estimate changes only when an iteration ends
            e = estimate(p.iterations, longest)
            ahead[:] = [len(p.iterations), None if e is None else e.to_json()]
        progress(json.dumps({**p.to_json(), "estimate": ahead[1]}))

    values = _values(board)
    sol = yield from solve_steps(
        board,
        bound,
        progress=report if progress is not None else None,
        cancel=cancel,
        tick_nodes=params.get("tick_nodes") or 1 << 14,
    )
    return sol.to_json(values)


def _solve_anytime(board: Board, params: dict, progress: Callable[[str], Any] | None, cancel) -> Steps[dict]:
    """``solve`` by the anytime search (:func:`fifteen.anytime.anytime_solve`): progress is one
    message per improvement (:meth:`fifteen.anytime.Improvement.progress_json`), the result
    :meth:`fifteen.anytime.AnytimeResult.to_json` with the position's bounds; a cancel keeps
    the best found (``"stopped": "cancelled"``)."""
    from fifteen.anytime import anytime_solve_steps  # at the first anytime solve: not at the worker's start-up

    values = _values(board)
    result = yield from anytime_solve_steps(
        board,
        time_limit=params.get("time_limit"),
        progress=(lambda imp: progress(json.dumps(imp.progress_json()))) if progress is not None else None,
        cancel=cancel,
        bound=params.get("bound") or "auto",
    )
    return result.to_json(values)


# ------------------------------------------------------------------ the browser pool's parallel search
# fifteen.parallel.page_pool: the page's pool of workers drives fifteen.parallel.scheduler's scheduler step by step.


def _page_pool():
    # Imported at the first parallel call, not with this module: the worker imports fifteen.api at
    # start-up, and browser with the scheduler it imports adds 10-15 ms to Pyodide's import of it
    # (bench/pyodide_imports.mjs), for the page's pool of workers only.
    from fifteen.parallel import page_pool

    return page_pool


def _method_parallel_begin(params: dict, **_: Any) -> dict:
    min_task_nodes = params.get("min_task_nodes")
    return _page_pool().begin(
        _board(params),
        params.get("bound") or "auto",
        params.get("workers") or 2,
        min_task_nodes=min_task_nodes,
    )


def _method_parallel_step(params: dict, **_: Any) -> dict:
    return _page_pool().step(params)


def _method_parallel_drop(params: dict, **_: Any) -> dict:
    return _page_pool().drop(params)


def _method_parallel_tasks(params: dict, progress: Callable[[str], Any] | None = None, **_: Any) -> Steps[dict]:
    return _page_pool().run_bundle(params, progress)


def _method_parallel_result(params: dict, **_: Any) -> dict:
    """The ``solve`` result of a solution found by the pool (the path replayed to the goal),
    with ``workers`` and ``worker_nodes``."""
    return _page_pool().result(_board(params), params)


# ------------------------------------------------------------------ the browser pool's anytime search
# fifteen.parallel.anytime_page: with two workers or more, the page proves the lower bound on one while the others improve.


def _anytime_page():
    # Imported at the first call, as the anytime search and the pool's parallel search are.
    from fifteen.parallel import anytime_page

    return anytime_page


def _method_anytime_first(params: dict, **_: Any) -> dict:
    return _anytime_page().first(_board(params), params.get("bound") or "auto")


def _method_anytime_improve(params: dict, **_: Any) -> Steps[dict]:
    return _anytime_page().improve_call(_board(params), params)


def _method_anytime_prove(params: dict, progress: Callable[[str], Any] | None = None, **_: Any) -> Steps[dict]:
    return _anytime_page().prove_call(_board(params), params, progress)


def _method_anytime_result(params: dict, **_: Any) -> dict:
    """The ``solve`` result of the best path the pool found, replayed to the goal, with ``workers`` and ``worker_nodes``."""
    return _anytime_page().result(_board(params), params)


# ------------------------------------------------------------------ the heuristic lab
# compare / trace / explain (fields documented in fifteen.lab.compare and fifteen.lab.explain),
# imported at their first call: with the lab's modules (compare, explain, which imports compare,
# and hint) fifteen.api takes 5-10 ms longer to import at the worker's start-up in Pyodide
# (bench/pyodide_imports.mjs), for what the page uses only when the lab or a hint is asked for.


def _method_compare(params: dict, progress: Callable[[str], Any] | None = None, cancel=None) -> Steps[dict]:
    """Each of ``bounds`` (a list or "md,lc"; default every available one, weakest first) in turn.

    ``budget``: nodes per bound (absent: ``fifteen.lab.compare.DEFAULT_BUDGET``;
    ``null`` or 0: none).  Result ``{"bounds": {name: run}}``.  Progress: the
    running bound's ``run`` so far (its running iteration last, with
    ``"finished": false``), at most four times a second and after every
    iteration.
    """
    # at the first call (see above)
    from fifteen.lab.compare import DEFAULT_BUDGET, BoundRun, check_budget, comparison_json, parse_bound_names, run_bound_steps

    board = _board(params)
    names = parse_bound_names(params.get("bounds"), board.shape, board.target)
    budget = check_budget(params.get("budget", DEFAULT_BUDGET))
    last = [0.0]

    def report(run: BoundRun) -> None:
        now = time.perf_counter()
        if run.iterations and not run.iterations[-1].finished and now - last[0] < PROGRESS_SECONDS:
            return
        last[0] = now
        if progress is not None:
            progress(json.dumps(run.to_json()))

    runs = {}
    for name in names:
        runs[name] = yield from run_bound_steps(board, name, budget=budget, progress=report, cancel=cancel)
    return comparison_json(runs)


def _method_trace(params: dict, **_: Any) -> dict:
    """Every bound at each step of ``moves`` (tile numbers, or the blank's directions as a string), which must solve the position."""
    from fifteen.lab.explain import trace  # at the first call (see the lab's block)

    board = _board(params)
    moves = params.get("moves")
    if not isinstance(moves, list | str):
        raise InputError("moves: give the solution as a list of tile numbers or a string of directions (U, D, L, R)", code="moves")
    return {**board.to_json(), **trace(board, moves)}


def _method_explain(params: dict, **_: Any) -> dict:
    """Each bound of the position taken apart (WD tables, inversions, line conflicts, PDB groups)."""
    from fifteen.lab.explain import explain  # at the first call (see the lab's block)

    board = _board(params)
    return {**board.to_json(), **explain(board)}


# ----------------------------------------------------------------- explorer and hints
def _move_json(m) -> dict:
    """A move (:class:`fifteen.lab.hint.Move`, :class:`fifteen.bounds.exact.MoveInfo`): ``{"tile", "direction"}``."""
    return {"tile": m.tile, "direction": m.direction}


def _method_explore_info(params: dict, **_: Any) -> dict:
    if not params.get("shape"):
        return {"shapes": databases.explorer_shapes()}
    ex = databases.require_explorer(Shape.parse(params["shape"]))
    return {
        "shape": str(ex.shape),
        "table_shape": str(ex.table.shape),
        "transposed": ex.transposed,
        "positions": ex.positions,
        "radius": ex.radius,
        "histogram": list(ex.histogram),
        "hardest": [list(t) for t in ex.hardest()],
        "hardest_count": ex.table.hardest_count,
    }


def _method_explore_position(params: dict, **_: Any) -> dict:
    board = _board(params)
    ex = databases.require_explorer(board.shape)
    d = ex.distance(board)
    moves = ex.moves(board, d)
    return {
        **board.to_json(),
        "distance": d,
        "moves": [{**_move_json(m), "distance": m.distance, "optimal": m.distance < d} for m in moves],
        "optimal": [_move_json(m) for m in moves if m.distance < d],
    }


def _int_param(params: dict, key: str, default=None) -> int | None:
    value = params.get(key, default)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f"{key} must be an integer, not {describe(value)}", code="param")
    return value


def _method_explore_random(params: dict, **_: Any) -> dict:
    shape = Shape.parse(params.get("shape") or "3x3")
    ex = databases.require_explorer(shape)
    distance = _int_param(params, "distance")
    if distance is None:
        raise InputError("give the distance of the position to draw", code="param")
    seed = _int_param(params, "seed")
    if seed is None:
        seed = _random.randrange(1 << 32)
    board = ex.random_at(distance, seed)
    return {**board.to_json(), "distance": distance, "seed": seed}


_hinter = None  # the worker's Hinter (one per page)


def _method_hint(params: dict, cancel=None, **_: Any) -> Steps[dict]:
    from fifteen.lab.hint import DEFAULT_BUDGET, Hinter  # at the first call, as the lab's modules

    global _hinter
    board = _board(params)
    budget = _int_param(params, "budget", DEFAULT_BUDGET)
    if budget is None:
        budget = DEFAULT_BUDGET
    if not 0 <= budget <= MAX_COUNT:
        raise InputError(f"budget must be from 0 to {MAX_COUNT:,} nodes per move, not {describe(budget)}", code="range")
    bound = params.get("bound") or "auto"
    previous = params.get("solution")
    if previous is not None:  # stateless: follow the solution the caller kept
        if previous.get("tiles") is None or previous.get("moves") is None:
            raise InputError('solution must be {"tiles": [...], "moves": [...]}', code="param")
        hinter = Hinter(bound)
        start = _board({"tiles": previous.get("tiles"), "shape": str(board.shape), "goal": list(board.target.tiles)})
        hinter.follow(start, previous["moves"])
    else:
        if _hinter is None or _hinter.bound != bound:
            _hinter = Hinter(bound)
        hinter = _hinter
    h = yield from hinter.hint_steps(board, all_moves=bool(params.get("all")), budget=budget, cancel=cancel)
    out = {
        **board.to_json(),
        "distance": h.distance,
        "next": _move_json(h.next) if h.next else None,
        "source": h.source,
        "nodes": h.nodes,
    }
    if params.get("all"):
        out["optimal"] = [_move_json(m) for m in h.optimal or []]
        out["undecided"] = [_move_json(m) for m in h.undecided]
    if h.remaining is not None:
        out["solution"] = {"tiles": list(board.tiles), "moves": h.remaining}
    return out


#: The methods, by name (the names and parameters are :data:`fifteen.schema.METHOD_PARAMS`, the one list of
#: the API's methods that ``python -m fifteen schema`` prints; a test checks that the two name the same).
_METHODS: dict[str, Callable[..., dict | Steps[dict]]] = {
    "info": _method_info,
    "parse": _method_parse,
    "bounds": _method_bounds,
    "random": _method_random,
    "solve": _method_solve,
    "compare": _method_compare,
    "trace": _method_trace,
    "explain": _method_explain,
    "explore_info": _method_explore_info,
    "explore_position": _method_explore_position,
    "explore_random": _method_explore_random,
    "hint": _method_hint,
    "parallel_begin": _method_parallel_begin,
    "parallel_step": _method_parallel_step,
    "parallel_tasks": _method_parallel_tasks,
    "parallel_result": _method_parallel_result,
    "parallel_drop": _method_parallel_drop,
    "anytime_first": _method_anytime_first,
    "anytime_improve": _method_anytime_improve,
    "anytime_prove": _method_anytime_prove,
    "anytime_result": _method_anytime_result,
}
#: The methods of the page's pool of workers begin so (named together in the message of an unknown method).
_POOL_PREFIXES = ("parallel_", "anytime_")


def _start(method: str, params_json: str, progress: Callable[[str], Any] | None, cancel) -> Any:
    """The method's result, or its steps (a generator) for the methods that search."""
    fn = _METHODS.get(method) if isinstance(method, str) else None
    if fn is None:
        public = ", ".join(m for m in _METHODS if not m.startswith(_POOL_PREFIXES))
        pool = "or the page pool's parallel_* and anytime_*"
        raise InputError(f"unknown method {describe(method)} (one of {public}, {pool})", code="method")
    params = check_params(method, parse_params(params_json, LONG_PARAMS.get(method, MAX_PARAMS_CHARS)))
    return fn(params, progress=progress, cancel=cancel)


def _reply(work: Callable[[], Any]) -> str:
    """``work()``'s result as a reply (:func:`_ok`), or its failure as an error reply (never raises)."""
    try:
        return _ok(work())
    except AssetError as exc:  # before FifteenError, its base class
        return _error("asset", str(exc), exc.code)
    except FifteenError as exc:
        return _error("input", str(exc), exc.code)
    except (Cancelled, KeyboardInterrupt):
        return _error("cancelled", "cancelled")
    except MemoryError:
        return _error("internal", "out of memory")
    except Exception as exc:  # never a traceback in the page; keep the last frame for bug reports
        return _error("internal", internal_message(exc))


def call(method: str, params_json: str = "{}", progress: Callable[[str], Any] | None = None, cancel=None) -> str:
    """Run one API method; see the module docstring.  Never raises: the parameters are
    checked by :mod:`fifteen.schema` (size, nesting, each known parameter's kind, the
    ones the method takes) before the method runs."""
    return _reply(lambda: value(_start(method, params_json, progress, cancel)))


# ------------------------------------------------------------------ sliced calls
# The page's worker runs a call in time slices (fifteen.search.slices), so that it handles its
# messages (a Cancel) between two of them: begin, then step until the reply is not pending.

#: Seconds of one slice of a sliced call: the worker returns to its event loop this often.
SLICE_SECONDS = 0.04
#: A sliced call's reply while it runs: ``{"pending": id}``.
_CALLS: dict[int, Any] = {}
_CALL_IDS = itertools.count(1)


class _Pending(BaseException):
    """The call's slice ended before the call did (not an error: the reply is ``{"pending": id}``)."""

    def __init__(self, call_id: int):
        super().__init__(call_id)
        self.call_id = call_id


def _run_slice(call_id: int, steps: Any, seconds: float) -> Any:
    """One slice of a call's *steps*: their result when they end in it (the call is forgotten)."""
    try:
        with time_slice(seconds):
            next(steps)
    except StopIteration as end:
        _ended(call_id)
        return end.value
    except BaseException:
        _ended(call_id)
        raise
    raise _Pending(call_id)


def _ended(call_id: int) -> None:
    _CALLS.pop(call_id, None)
    forget()  # what the call kept to resume (fifteen.search.slices.resumable)


def _sliced(work: Callable[[], Any]) -> str:
    try:
        return _reply(work)
    except _Pending as pending:
        return json.dumps({"pending": pending.call_id})


def begin(method: str, params_json: str = "{}", progress: Callable[[str], Any] | None = None, slice_seconds: float = SLICE_SECONDS) -> str:
    """Begin *method* as a sliced call and run its first slice of *slice_seconds*: the reply of
    :func:`call` when the method ended in it, else ``{"pending": id}`` (:func:`step` goes on,
    :func:`cancel` stops).  Every method can be called so; those that search (``solve``,
    ``compare``, ``hint``, ``parallel_tasks``, ``anytime_improve``, ``anytime_prove``) pause at
    the end of each slice, exactly where they are (:mod:`fifteen.search.slices`)."""

    def first() -> Any:
        started = _start(method, params_json, progress, None)
        if not isinstance(started, Generator):
            return started
        call_id = next(_CALL_IDS)
        _CALLS[call_id] = started
        return _run_slice(call_id, started, slice_seconds)

    return _sliced(first)


def step(call_id: int, slice_seconds: float = SLICE_SECONDS) -> str:
    """One more slice of the sliced call *call_id* (:func:`begin`): its reply, or ``{"pending": id}``."""

    def more() -> Any:
        steps = _CALLS.get(call_id)
        if steps is None:
            raise InputError(f"no sliced call {describe(call_id)} (ended, cancelled or never begun)", code="param")
        return _run_slice(call_id, steps, slice_seconds)

    return _sliced(more)


def cancel(call_id: int) -> str:
    """Stop the sliced call *call_id* between two slices: the reply of a cancelled call (an
    anytime search's steps may answer with the best found instead: they hear the cancel as
    :class:`fifteen.Cancelled` where they paused)."""

    def stop() -> Any:
        steps = _CALLS.get(call_id)
        if steps is None:
            raise Cancelled()
        _ended(call_id)
        try:
            with time_slice(0):  # steps that go on after the cancel (a bundle's next task) pause at once
                steps.throw(Cancelled())
        except StopIteration as end:
            return end.value
        steps.close()
        raise Cancelled()

    return _reply(stop)
