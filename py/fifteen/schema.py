"""The JSON API's methods and parameters: how the parameters are read (:func:`parse_params`:
length, nesting, number sizes, NaN refused), the methods and what each takes
(:data:`METHOD_PARAMS`, the one list of the API's methods) with the kind of each parameter
(:data:`PARAM_RULES`, checked by :func:`check_params`), within the limits of :mod:`fifteen.limits`;
the limits a program needs to decide as the solver does (:func:`page_limits`, the ``limits`` of ``info``).

:func:`schema` gathers them with the error types and codes (:mod:`fifteen.errors`) as the JSON
``python -m fifteen schema`` prints: what the page's tests and ``static/js/solver/protocol.js``'s
enumerations are checked against, so no program has to read this source or match a message."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any, NoReturn

from fifteen.board import MAX_SQUARES
from fifteen.errors import ERROR_CODES, ERROR_TYPES, InputError
from fifteen.limits import (
    DEFAULT_TIME_LIMIT,
    MAX_COUNT,
    MAX_DEPTH,
    MAX_INT_DIGITS,
    MAX_MOVES,
    MAX_PARAMS_CHARS,
    MAX_POOL_PARAMS_CHARS,
    MAX_TASKS,
    MAX_TEXT_CHARS,
    MAX_TIME_LIMIT,
    MAX_WORKERS,
    OPTIMAL_MAX_LOWER_BOUND,
    OPTIMAL_MAX_SQUARES,
    PAGE_TIME_LIMIT,
    TOKEN_CHARS,
    describe,
    is_int,
    is_number,
)
from fifteen.search.estimate import OUT_OF_REACH_SECONDS


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise InputError(
            f"a number in the parameters has {len(text.lstrip('-')):,} digits; at most {MAX_INT_DIGITS} are read", code="too_long"
        )
    return int(text)


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise InputError(f"the number {describe(text)} in the parameters is too large", code="range")
    return value


def _parse_constant(name: str) -> NoReturn:
    raise InputError(f"{name} is not a number JSON allows", code="param")


def _depth_problem(value: Any) -> str | None:
    """Why *value* nests too deeply or holds too much (checked without recursion), or None."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth > MAX_DEPTH:
                return f"the parameters nest more than {MAX_DEPTH} levels deep"
            stack.extend((v, depth + 1) for v in (item.values() if isinstance(item, dict) else item))
    return None


def parse_params(params_json: Any, limit: int = MAX_PARAMS_CHARS) -> dict[str, Any]:
    """The JSON object of an API call's parameters, size (at most *limit* characters) and
    nesting checked first."""
    if params_json is None or params_json == "":
        return {}
    if not isinstance(params_json, str):
        raise InputError(f"the parameters are JSON text, not {describe(params_json)}", code="param")
    if len(params_json) > limit:
        raise InputError(f"the parameters are {len(params_json):,} characters long; at most {limit:,} are read", code="too_long")
    try:
        params = json.loads(params_json, parse_int=_parse_int, parse_float=_parse_float, parse_constant=_parse_constant)
    except RecursionError:
        raise InputError(f"the parameters nest more than {MAX_DEPTH} levels deep", code="too_long") from None
    except json.JSONDecodeError as exc:
        raise InputError(f"the parameters are not valid JSON ({exc.msg} at character {exc.pos + 1:,})", code="param") from None
    except (ValueError, TypeError) as exc:  # InputError from the hooks above, or a lone surrogate...
        if isinstance(exc, InputError):
            raise
        raise InputError(f"the parameters are not valid JSON ({describe(str(exc), 80)})", code="param") from None
    if not isinstance(params, dict):
        raise InputError(f"the parameters must be a JSON object, not {describe(params)}", code="param")
    problem = _depth_problem(params)
    if problem:
        raise InputError(problem, code="too_long")
    return params


def _short_text(limit: int) -> Callable[[Any], bool]:
    return lambda v: isinstance(v, str) and len(v) <= limit


def _unicode_text(limit: int) -> Callable[[Any], bool]:
    """Text of at most *limit* characters that UTF-8 can encode (no lone surrogate, which
    JSON's ``\\ud800`` escape can give)."""

    def check(v: Any) -> bool:
        if not _short_text(limit)(v):
            return False
        try:
            v.encode()
        except UnicodeEncodeError:
            return False
        return True

    return check


def _count(low: int) -> Callable[[Any], bool]:
    return lambda v: is_int(v) and low <= v <= MAX_COUNT


def _position(v: Any) -> bool:
    return (isinstance(v, str) and len(v) <= MAX_TEXT_CHARS) or (isinstance(v, list) and len(v) <= MAX_SQUARES)


def _moves(v: Any) -> bool:
    if isinstance(v, str):
        return len(v) <= MAX_MOVES
    return isinstance(v, list) and len(v) <= MAX_MOVES


def _ints(limit: int) -> Callable[[Any], bool]:
    return lambda v: isinstance(v, list) and len(v) <= limit and all(is_int(x) and 0 <= x <= MAX_COUNT for x in v)


def _records(required: tuple[str, ...], limit: int) -> Callable[[Any], bool]:
    """A list of at most *limit* objects, each with the *required* keys (checked further by their reader)."""
    return lambda v: isinstance(v, list) and len(v) <= limit and all(isinstance(d, dict) and all(k in d for k in required) for d in v)


def _bound_names(v: Any) -> bool:
    if isinstance(v, str):
        return len(v) <= 200
    return isinstance(v, list) and len(v) <= 20 and all(isinstance(x, str) and len(x) <= TOKEN_CHARS for x in v)


#: Each known parameter: (a check of its value, what it must be). ``null`` always means "not given".
PARAM_RULES: dict[str, tuple[Callable[[Any], bool], str]] = {
    "text": (lambda v: isinstance(v, str) and len(v) <= MAX_TEXT_CHARS, f"the position as text (at most {MAX_TEXT_CHARS:,} characters)"),
    "tiles": (_position, "a list of tile numbers or the position as text"),
    "shape": (_short_text(TOKEN_CHARS), "text of the form RxC, e.g. 3x4"),
    "goal": (_position, "a list of tile numbers, the goal as text, or a name (standard, blank-first)"),
    "bound": (_short_text(TOKEN_CHARS), "the name of a bound (auto, md, lc, id, wd, wdid, pdb663...)"),
    "bounds": (_bound_names, 'a list of bound names or text such as "md,lc"'),
    "seed": (lambda v: is_int(v) or isinstance(v, float) or _unicode_text(200)(v), "an integer or a short text"),
    "tick_nodes": (_count(1), f"an integer from 1 to {MAX_COUNT:,}"),
    "anytime": (lambda v: isinstance(v, bool), "true or false"),
    "time_limit": (
        lambda v: (is_int(v) or isinstance(v, float)) and 0 < v <= MAX_TIME_LIMIT,
        f"a number of seconds, more than 0 and at most {MAX_TIME_LIMIT:g}",
    ),
    # its range is checked by the methods that take it (fifteen.lab.compare.check_budget, the hint's)
    "budget": (is_int, "a whole number of nodes (compare: per bound, 0 for no limit; hint: per other move)"),
    "distance": (_count(0), "an integer from 0"),
    "moves": (_moves, f"a list of tile numbers or a string of directions (at most {MAX_MOVES:,})"),
    "all": (lambda v: isinstance(v, bool), "true or false"),
    "solution": (lambda v: isinstance(v, dict), 'an object {"tiles": [...], "moves": [...]}'),
    # the browser pool's parallel search (fifteen.parallel.page_pool): records it made itself, checked again there
    "workers": (lambda v: is_int(v) and 1 <= v <= MAX_WORKERS, f"an integer from 1 to {MAX_WORKERS}"),
    "min_task_nodes": (_count(1), f"an integer from 1 to {MAX_COUNT:,}"),
    "search": (_count(0), "the number of a parallel search"),
    "tasks": (_records(("id", "board", "budget"), MAX_TASKS), "a list of the tasks parallel_begin or parallel_step gave"),
    "outcomes": (_records(("id", "nodes"), MAX_TASKS), 'a list of {"id", "nodes"} objects'),
    "path": (_ints(MAX_MOVES), "a list of square numbers"),
    "iterations": (_records(("bound", "nodes"), 1000), 'a list of {"bound", "nodes"} objects'),
    "h0": (_count(0), "an integer from 0"),
    "seconds": (is_number, "a number of seconds"),
    "setup_seconds": (is_number, "a number of seconds"),
    "worker_nodes": (_ints(MAX_WORKERS), "a list of node counts"),
    # the browser pool's anytime search (fifteen.parallel.anytime_page), checked again there
    "mode": (_short_text(TOKEN_CHARS), "an improver's mode (beam+windows, windows)"),
    "beams_from": (_short_text(TOKEN_CHARS), "where an improver's beams start (both, position, target)"),
    "noise_family": (_count(0), "an integer from 0 (an improver's noise family; the Improver checks its range)"),
    "carried": (lambda v: isinstance(v, dict) and len(v) <= 10, "the carried object the last anytime_improve gave"),
    "threshold": (_count(0), "an integer from 0"),
    "lower_bound": (_count(0), "an integer from 0"),
    "stopped": (_short_text(TOKEN_CHARS), "why the search stopped (optimal, time, cancelled, exhausted)"),
    "improvements": (_records(("length", "lower_bound"), 2 * MAX_MOVES), 'a list of {"seconds", "length", "lower_bound"} objects'),
}

_POSITION = ("text", "tiles", "shape")
#: A position and the goal it is solved towards.
_TOWARDS = (*_POSITION, "goal")
#: The API's methods (:func:`fifteen.api.call` runs ``fifteen.api._method_<name>``) and the parameters each takes (others are refused).
METHOD_PARAMS: dict[str, tuple[str, ...]] = {
    "info": (),
    "parse": _TOWARDS,
    "bounds": _TOWARDS,
    "random": ("shape", "seed", "goal"),
    "solve": (*_TOWARDS, "bound", "tick_nodes", "anytime", "time_limit"),
    # the heuristic lab and the explorer (branches lab, explorer)
    "compare": (*_TOWARDS, "bounds", "budget"),
    "trace": (*_TOWARDS, "moves"),
    "explain": _TOWARDS,
    "explore_info": ("shape",),
    "explore_position": _POSITION,
    "explore_random": ("shape", "distance", "seed"),
    "hint": (*_TOWARDS, "all", "budget", "bound", "solution"),
    # the browser pool (fifteen.parallel.page_pool)
    "parallel_begin": (*_TOWARDS, "bound", "workers", "min_task_nodes"),
    "parallel_step": ("search", "outcomes"),
    "parallel_tasks": ("shape", "tasks"),
    "parallel_result": (*_TOWARDS, "bound", "path", "iterations", "h0", "seconds", "setup_seconds", "workers", "worker_nodes"),
    "parallel_drop": ("search",),
    # the browser pool's anytime search (fifteen.parallel.anytime_page)
    "anytime_first": (*_TOWARDS, "bound"),
    "anytime_improve": (*_TOWARDS, "path", "mode", "beams_from", "noise_family", "carried", "time_limit"),
    "anytime_prove": (*_TOWARDS, "bound", "threshold", "time_limit"),
    "anytime_result": (
        *_TOWARDS,
        "bound",
        "path",
        "lower_bound",
        "h0",
        "stopped",
        "seconds",
        "improvements",
        "iterations",
        "workers",
        "worker_nodes",
    ),
}
#: Methods whose parameters may be longer than :data:`MAX_PARAMS_CHARS`.
LONG_PARAMS: dict[str, int] = {"parallel_step": MAX_POOL_PARAMS_CHARS, "parallel_tasks": MAX_POOL_PARAMS_CHARS}


def check_params(method: str, params: dict[str, Any]) -> dict[str, Any]:
    """*params* if every key is one *method* takes and every known value is of its kind."""
    allowed = METHOD_PARAMS.get(method)
    for key, value in params.items():
        if allowed is not None and key not in allowed:
            takes = ", ".join(allowed) if allowed else "no parameters"
            raise InputError(f"{method} takes {takes}, not {describe(key)}", code="param")
        rule = PARAM_RULES.get(key)
        if rule is not None and value is not None and not rule[0](value):
            raise InputError(f"{key} must be {rule[1]}, not {describe(value)}", code="param")
    return params


def page_limits() -> dict[str, Any]:
    """The limits a program driving the API needs to decide as the solver does (the ``limits`` of
    ``info``; the page reads them there instead of copying them):

    * ``anytime_squares``, ``anytime_lower_bound``: a ``solve`` with no bound named gives the
      anytime answer on boards of more squares, unless the position's lower bound is at most the
      second (:func:`fifteen.limits.past_optimal_reach`; ``bounds`` says it per position: ``anytime``);
    * ``time_limit``: the page's anytime answers' seconds; ``cli_time_limit``: the command line's
      and batches' (:data:`fifteen.limits.PAGE_TIME_LIMIT` and :data:`~fifteen.limits.DEFAULT_TIME_LIMIT`
      say why they differ); ``max_time_limit``: the most ``time_limit`` takes;
    * ``out_of_reach_seconds``: an optimal search whose running iteration needs more than this at
      its rate, if it holds no solution, gets the offer of an anytime answer; one whose soonest end
      is farther is out of reach here (:meth:`fifteen.search.estimate.Estimate.slow`,
      :meth:`~fifteen.search.estimate.Estimate.out_of_reach`; the progress reports carry the
      estimate in nodes, the page divides by its own rate).
    """
    return {
        "anytime_squares": OPTIMAL_MAX_SQUARES,
        "anytime_lower_bound": OPTIMAL_MAX_LOWER_BOUND,
        "time_limit": PAGE_TIME_LIMIT,
        "cli_time_limit": DEFAULT_TIME_LIMIT,
        "max_time_limit": MAX_TIME_LIMIT,
        "out_of_reach_seconds": OUT_OF_REACH_SECONDS,
    }


def schema() -> dict[str, Any]:
    """The API's methods with their parameters, each parameter's description, the error types
    and the error codes with their meanings, and the limits of :func:`page_limits` (``python -m
    fifteen schema``)."""
    return {
        "methods": {name: list(params) for name, params in METHOD_PARAMS.items()},
        "params": {name: rule[1] for name, rule in PARAM_RULES.items()},
        "error_types": list(ERROR_TYPES),
        "error_codes": dict(ERROR_CODES),
        "limits": page_limits(),
    }
