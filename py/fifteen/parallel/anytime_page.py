"""The page's pool of workers on the anytime search: :mod:`fifteen.parallel.anytime_steps` driven call by call.

With two workers or more, the page (``static/js/solver/anytime-solve.js``) splits an anytime answer
as ``solve --anytime --jobs N`` does natively (:mod:`fifteen.parallel.anytime_processes`): one worker
**proves** the lower bound (one IDA* iteration per ``anytime_prove`` call) while the others
**improve** the best path (``anytime_improve`` calls of about a second each); the page keeps
the best path and the bound, hands each improver the global best at every call, and ends when
the two meet.  Every call is stateless (what an improver carries from one call to the next
travels with the calls), so any worker serves any call and a worker that dies loses nothing
but its running call.

Through :func:`fifteen.api.call` (a position is ``text|tiles, shape, goal``):

* ``anytime_first`` ``{position, bound}`` -> ``{"path", "moves", "lower_bound", "bound"}``: a
  first solution (:func:`fifteen.anytime.driver.first_solution`, cycles removed; ``path`` the
  blank's squares, ``moves`` the tiles that slide), the root's proven lower bound (its best
  bound raised to the solutions' parity) and the name of the prover's bound.
* ``anytime_improve`` ``{position, path, mode, beams_from, noise_family, carried, time_limit}`` ->
  ``{"path", "moves", "carried", "done", "nodes"}``: :func:`fifteen.parallel.anytime_steps.improve`
  (``mode``: ``beam+windows`` or ``windows``; ``beams_from``: ``both`` (the default), ``position``
  or ``target``, where its beams start; ``noise_family``: 0 (the default), or *k* for an improver
  whose every beam ranks with noisy costs of its own (:func:`fifteen.anytime.driver.beam_noise`);
  ``carried``: the last call's, ``{}`` at first;
  ``time_limit``: the seconds left to the whole search).
* ``anytime_prove`` ``{position, bound, threshold, time_limit}`` (progress ``{"nodes"}``) ->
  ``{"outcome": "refuted"|"found"|"stopped", "threshold", "nodes", "seconds"}`` plus ``path``
  and ``moves`` when found: :func:`fifteen.parallel.anytime_steps.prove`.
* ``anytime_result`` ``{position, bound, path, lower_bound, h0, stopped, seconds,
  improvements, iterations, workers, worker_nodes}`` -> the ``solve`` result of an anytime
  search (:meth:`fifteen.anytime.AnytimeResult.to_json` with the position's bounds, plus
  ``workers`` and ``worker_nodes``), the path replayed to the goal.
"""

from __future__ import annotations

import time
from typing import Any

from fifteen.anytime.driver import MODES, STOPS, AnytimeResult, Improvement, check_time_limit, first_solution
from fifteen.anytime.tables import label_tables
from fifteen.anytime.windows import remove_cycles
from fifteen.board import MAX_SQUARES, Board, tiles_along
from fifteen.bounds import bound_values, resolve_bound
from fifteen.errors import InputError
from fifteen.limits import MAX_COUNT, MAX_MOVES, describe, is_number
from fifteen.parallel.anytime_steps import improve_steps, prove_steps
from fifteen.parallel.page_pool import field, iterations_from, node_reports, squares_from
from fifteen.search.ida import first_bound
from fifteen.search.slices import Steps

#: What an improver carries from one call to the next (:func:`fifteen.parallel.anytime_steps.improve`): each an integer, or a flag.
CARRIED_INTS = ("width", "k", "node_limit", "offset", "noise")
CARRIED_FLAGS = ("windows_only", "backward")
#: The modes a page's improver runs (:class:`fifteen.anytime.driver.Improver`).
PAGE_MODES = ("beam+windows", "windows")


def _path(board: Board, params: dict) -> tuple[list[int], list[int]]:
    """``params["path"]`` (the blank's squares from the board) checked to reach the goal: (path, tiles that slide)."""
    path = list(squares_from(params.get("path"), board.shape.size, "path"))
    moved = tiles_along(board.shape, board.tiles, path)  # each step next to the blank
    if not board.solves(moved):
        raise InputError("the path does not reach the goal", code="moves")
    return path, moved


def _deadline(params: dict) -> float:
    """The wall-clock deadline of a call from its ``time_limit`` (none: no deadline)."""
    limit = check_time_limit(params.get("time_limit"))
    return float("inf") if limit is None else time.time() + limit


def _args(board: Board) -> tuple[str, tuple[int, ...], tuple[int, ...]]:
    return str(board.shape), tuple(board.tiles), tuple(board.target.tiles)


def first(board: Board, bound: str) -> dict:
    """``anytime_first`` (see the module docstring)."""
    info = resolve_bound(board.shape, bound, board.target)
    tiles, target = board.tiles, board.target.tiles
    path = [] if board.is_goal() else remove_cycles(tiles, first_solution(label_tables(board.shape), tiles, target))
    lower = first_bound(board.shape, tiles, bound_values(board)["lb"], target)
    return {"path": path, "moves": tiles_along(board.shape, tiles, path), "lower_bound": lower, "bound": info.name}


def carried_from(d: object, n: int = MAX_SQUARES, sub: bool = False) -> dict:
    """An improver's carried state as the page sends it back, checked (*n*: the board's squares;
    after a reduction it carries the stage and the smaller board's state, :meth:`fifteen.anytime.driver.Improver.carried`)."""
    if d is None:
        return {}
    if not isinstance(d, dict):
        raise InputError(f"carried must be an object, not {describe(d)}", code="param")
    out: dict[str, Any] = {}
    for key, value in d.items():
        if key in CARRIED_INTS:
            out[key] = field(d, key, 0, MAX_COUNT, "carried")
        elif key in CARRIED_FLAGS or (sub and key == "done"):
            if not isinstance(value, bool):
                raise InputError(f"carried's {key} must be true or false, not {describe(value)}", code="param")
            out[key] = value
        elif key == "stage" and not sub:
            out[key] = list(squares_from(value, n, "carried stage"))
        elif key == "sub" and not sub:
            out[key] = carried_from(value, n, sub=True)
        elif key == "best" and sub:
            out[key] = list(squares_from(value, n, "carried path"))
        else:
            raise InputError(f"carried has no field {describe(key)}", code="param")
    if ("stage" in out) != ("sub" in out) or ("sub" in out and "best" not in out["sub"]):
        raise InputError("carried's stage comes with sub, and sub with best", code="param")
    if "k" in out and not {"node_limit", "offset"} <= set(out):
        raise InputError("carried's k comes with node_limit and offset", code="param")
    return out


def improve_call(board: Board, params: dict) -> Steps[dict]:
    """``anytime_improve`` (see the module docstring); steps (:mod:`fifteen.search.slices`)."""
    path, _ = _path(board, params)
    mode = params.get("mode") or "beam+windows"
    if mode not in PAGE_MODES:
        raise InputError(f"mode must be one of {', '.join(PAGE_MODES)}, not {describe(mode)}", code="param")
    assert mode in MODES
    best, carried, done, nodes = yield from improve_steps(
        *_args(board),
        path,
        mode,
        carried_from(params.get("carried"), board.shape.size),
        _deadline(params),
        stopped=lambda: False,
        beams_from=params.get("beams_from") or "both",  # (the Improver checks these two)
        noise_family=params.get("noise_family") or 0,
    )
    return {"path": best, "moves": tiles_along(board.shape, board.tiles, best), "carried": carried, "done": done, "nodes": nodes}


def prove_call(board: Board, params: dict, progress=None) -> Steps[dict]:
    """``anytime_prove`` (see the module docstring); *progress* hears ``{"nodes"}`` about four times a
    second; steps (:mod:`fifteen.search.slices`): the iteration pauses at the end of each time slice."""
    bound = resolve_bound(board.shape, params.get("bound") or "auto", board.target).name
    threshold = field(params, "threshold", 0, MAX_MOVES, "anytime_prove") if params.get("threshold") is not None else 0
    deadline = _deadline(params)
    outcome = yield from prove_steps(*_args(board), bound, threshold, deadline, stopped=lambda: False, ticked=node_reports(progress))
    kind, ran, nodes, seconds = outcome[:4]
    out: dict[str, Any] = {"outcome": kind, "threshold": ran, "nodes": nodes, "seconds": round(seconds, 3)}
    if kind == "found":
        out["path"] = list(outcome[4])
        out["moves"] = tiles_along(board.shape, board.tiles, out["path"])
    return out


def _improvements(records: object) -> list[Improvement]:
    if not isinstance(records, list) or len(records) > MAX_COUNT:
        raise InputError(f"improvements must be a list of {{seconds, length, lower_bound}} objects, not {describe(records)}", code="param")
    out = []
    for d in records:
        if not isinstance(d, dict) or not is_number(d.get("seconds", 0.0)):
            raise InputError(f"an improvement must be a {{seconds, length, lower_bound}} object, not {describe(d)}", code="param")
        length = field(d, "length", 0, MAX_MOVES, "an improvement")
        out.append(Improvement(float(d.get("seconds", 0.0)), length, field(d, "lower_bound", 0, MAX_MOVES, "an improvement")))
    return out


def result(board: Board, params: dict) -> dict:
    """``anytime_result`` (see the module docstring): the lower bound is the page's, checked
    against the path (never above its length); ``stopped`` is one of :data:`fifteen.anytime.STOPS`."""
    path, _ = _path(board, params)
    lower = field(params, "lower_bound", 0, len(path), "anytime_result")
    stopped = params.get("stopped")
    if stopped not in STOPS:
        raise InputError(f"stopped must be one of {', '.join(STOPS)}, not {describe(stopped)}", code="param")
    seconds = params.get("seconds") or 0.0
    if not is_number(seconds):
        raise InputError(f"seconds must be a number, not {describe(seconds)}", code="param")
    its = iterations_from(params.get("iterations") or [])
    worker_nodes = list(params.get("worker_nodes") or [])
    prover_nodes = sum(it.nodes for it in its)
    bound = resolve_bound(board.shape, params.get("bound") or "auto", board.target).name
    h0 = lower if params.get("h0") is None else field(params, "h0", 0, MAX_MOVES, "anytime_result")
    found = AnytimeResult.of_path(
        board,
        bound,
        path,
        lower,
        h0,
        stopped,
        seconds=float(seconds),
        cpu_seconds=0.0,
        improvements=_improvements(params.get("improvements") or []),
        iterations=its,
        prover_nodes=prover_nodes,
        improver_nodes=max(0, sum(worker_nodes) - prover_nodes),
    )
    out = found.to_json(bound_values(board))
    out.update(workers=params.get("workers") or 1, worker_nodes=worker_nodes)
    return out


__all__ = ["first", "improve_call", "prove_call", "result"]
