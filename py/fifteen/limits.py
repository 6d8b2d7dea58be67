"""The input contract: every limit and check that runs before any conversion, in one place.

Whatever a person or a program hands to Fifteen (typed text, share links, JSON
parameters, command-line options) is refused with an :class:`InputError` that
names the offending piece, cut to :data:`TOKEN_CHARS` characters, in a message of at most
:data:`~fifteen.errors.MESSAGE_CHARS` characters.  Sizes are checked before anything is
converted, so a 1 MB string or a 5,000-digit number is refused in microseconds.

* :func:`describe` -- a value as it may appear in a message (cut, never a huge repr);
* :func:`check_text` -- the length of a position's text, before it is split;
* :func:`parse_params` -- the JSON parameters of :func:`fifteen.api.call`
  (length, nesting, number sizes, NaN refused), :func:`check_params` -- each
  known parameter's type and range, and the parameters each method takes;
* :func:`guard_cli` -- the command line's entry point: one line on stderr, exit
  status 2 for bad input, never a traceback.

Digits are ASCII only: ``٣x٣`` and ``４`` are refused with a message saying so,
in shapes and tiles alike.
"""

from __future__ import annotations

import functools
import json
import math
import re
import sys
import traceback
import warnings
from collections.abc import Callable
from typing import Any, NoReturn, ParamSpec

from fifteen.errors import FifteenError, InputError

P = ParamSpec("P")

#: A token (tile, shape, bound...) longer than this is cut in messages.
TOKEN_CHARS = 40
#: The longest text of a position (a 5x5 board needs under 100; room for padding and newlines).
MAX_TEXT_CHARS = 4096
#: The longest token of a position: tile numbers have at most 2 digits (leading zeros allowed).
MAX_TILE_CHARS = 8
#: The longest JSON parameter string :func:`fifteen.api.call` reads (a position and 10,000 moves fit).
MAX_PARAMS_CHARS = 1 << 17
#: How deep JSON parameters may nest (the deepest legitimate one, a hint's solution, is 3).
MAX_DEPTH = 8
#: The most digits of a JSON integer (seeds included).
MAX_INT_DIGITS = 40
#: The longest list of moves (an optimal 5x5 solution is under 300).
MAX_MOVES = 10_000
#: The largest tick_nodes.
MAX_COUNT = 1 << 40
#: The longest JSON parameters of the browser pool's methods (``parallel_*``: an iteration's
#: tasks or outcomes, a few thousand records of about 150 characters).
MAX_POOL_PARAMS_CHARS = 1 << 22
#: The most workers (and records per worker) a parallel search is told about.
MAX_WORKERS = 256
#: The most tasks or outcomes in one ``parallel_*`` call.
MAX_TASKS = 100_000


def describe(value: Any, limit: int = TOKEN_CHARS) -> str:
    """*value* for a message: a string or number as its repr cut to *limit* characters
    (with its full length when cut), anything else by its type."""
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, int):
        if value.bit_length() > 120:  # str() of a huge int is slow (and limited to 4,300 digits)
            return f"a {int(value.bit_length() * 0.30103) + 1:,}-digit number"
        text = str(value)
    elif isinstance(value, float):
        text = repr(value)
    elif isinstance(value, str):
        if len(value) > limit:
            return repr(value[:limit]) + f"... ({len(value):,} characters)"
        text = repr(value)
    elif isinstance(value, list | tuple):
        return f"a list of {len(value):,} item{'' if len(value) == 1 else 's'}"
    elif isinstance(value, dict):
        return f"an object of {len(value):,} key{'' if len(value) == 1 else 's'}"
    else:
        return f"a {type(value).__name__}"
    return text if len(text) <= limit else text[:limit] + "..."


def non_ascii_digit_problem(token: str) -> bool:
    """Whether *token* holds digits that are not ASCII 0-9 (Arabic-Indic, full-width...)."""
    return not token.isascii() and any(ch.isdigit() and not ch.isascii() for ch in token)


def check_text(text: Any, what: str = "a position") -> str:
    """*text* if it is a string of at most :data:`MAX_TEXT_CHARS` characters."""
    if not isinstance(text, str):
        raise InputError(f"{what} is text, not {describe(text)}")
    if len(text) > MAX_TEXT_CHARS:
        raise InputError(f"{what} is {len(text):,} characters long; at most {MAX_TEXT_CHARS:,} are read")
    return text


# ------------------------------------------------------------------ JSON parameters
def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise InputError(f"a number in the parameters has {len(text.lstrip('-')):,} digits; at most {MAX_INT_DIGITS} are read")
    return int(text)


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise InputError(f"the number {describe(text)} in the parameters is too large")
    return value


def _parse_constant(name: str) -> NoReturn:
    raise InputError(f"{name} is not a number JSON allows")


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
        raise InputError(f"the parameters are JSON text, not {describe(params_json)}")
    if len(params_json) > limit:
        raise InputError(f"the parameters are {len(params_json):,} characters long; at most {limit:,} are read")
    try:
        params = json.loads(params_json, parse_int=_parse_int, parse_float=_parse_float, parse_constant=_parse_constant)
    except RecursionError:
        raise InputError(f"the parameters nest more than {MAX_DEPTH} levels deep") from None
    except json.JSONDecodeError as exc:
        raise InputError(f"the parameters are not valid JSON ({exc.msg} at character {exc.pos + 1:,})") from None
    except (ValueError, TypeError) as exc:  # InputError from the hooks above, or a lone surrogate...
        if isinstance(exc, InputError):
            raise
        raise InputError(f"the parameters are not valid JSON ({describe(str(exc), 80)})") from None
    if not isinstance(params, dict):
        raise InputError(f"the parameters must be a JSON object, not {describe(params)}")
    problem = _depth_problem(params)
    if problem:
        raise InputError(problem)
    return params


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _short_text(limit: int) -> Callable[[Any], bool]:
    return lambda v: isinstance(v, str) and len(v) <= limit


def _count(low: int) -> Callable[[Any], bool]:
    return lambda v: _is_int(v) and low <= v <= MAX_COUNT


def _position(v: Any) -> bool:
    return (isinstance(v, str) and len(v) <= MAX_TEXT_CHARS) or (isinstance(v, list) and len(v) <= 64)


def _moves(v: Any) -> bool:
    if isinstance(v, str):
        return len(v) <= MAX_MOVES
    return isinstance(v, list) and len(v) <= MAX_MOVES


def is_number(v: Any) -> bool:
    """A JSON number (not a boolean) from 0 to :data:`MAX_COUNT`."""
    return (_is_int(v) or isinstance(v, float)) and 0 <= v <= MAX_COUNT


def _ints(limit: int) -> Callable[[Any], bool]:
    return lambda v: isinstance(v, list) and len(v) <= limit and all(_is_int(x) and 0 <= x <= MAX_COUNT for x in v)


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
    "bound": (_short_text(TOKEN_CHARS), "the name of a bound (auto, md, lc, id, wd, wdid, pdb663...)"),
    "bounds": (_bound_names, 'a list of bound names or text such as "md,lc"'),
    "seed": (lambda v: _is_int(v) or isinstance(v, float) or _short_text(200)(v), "an integer or a short text"),
    "tick_nodes": (_count(1), f"an integer from 1 to {MAX_COUNT:,}"),
    # "budget" is checked by the methods that take it (fifteen.lab.compare.check_budget, the hint's)
    "distance": (_count(0), "an integer from 0"),
    "moves": (_moves, f"a list of tile numbers or a string of directions (at most {MAX_MOVES:,})"),
    "all": (lambda v: isinstance(v, bool), "true or false"),
    "solution": (lambda v: isinstance(v, dict), 'an object {"tiles": [...], "moves": [...]}'),
    # the browser pool's parallel search (fifteen.parallel.browser): records it made itself, checked again there
    "workers": (lambda v: _is_int(v) and 1 <= v <= MAX_WORKERS, f"an integer from 1 to {MAX_WORKERS}"),
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
}

_POSITION = ("text", "tiles", "shape")
#: The parameters each method takes (others are refused); a method not listed gets its known parameters checked.
METHOD_PARAMS: dict[str, tuple[str, ...]] = {
    "info": (),
    "parse": _POSITION,
    "bounds": _POSITION,
    "random": ("shape", "seed"),
    "solve": (*_POSITION, "bound", "tick_nodes"),
    # the heuristic lab and the explorer (branches lab, explorer)
    "compare": (*_POSITION, "bounds", "budget"),
    "trace": (*_POSITION, "moves"),
    "explain": _POSITION,
    "explore_info": ("shape",),
    "explore_position": _POSITION,
    "explore_random": ("shape", "distance", "seed"),
    "hint": (*_POSITION, "all", "budget", "bound", "solution"),
    # the browser pool (fifteen.parallel.browser)
    "parallel_begin": (*_POSITION, "bound", "workers", "min_task_nodes"),
    "parallel_step": ("search", "outcomes"),
    "parallel_tasks": ("shape", "tasks"),
    "parallel_result": (*_POSITION, "bound", "path", "iterations", "h0", "seconds", "setup_seconds", "workers", "worker_nodes"),
    "parallel_drop": ("search",),
}
#: Methods whose parameters may be longer than :data:`MAX_PARAMS_CHARS`.
LONG_PARAMS: dict[str, int] = {"parallel_step": MAX_POOL_PARAMS_CHARS, "parallel_tasks": MAX_POOL_PARAMS_CHARS}


def check_params(method: str, params: dict[str, Any]) -> dict[str, Any]:
    """*params* if every key is one *method* takes and every known value is of its kind."""
    allowed = METHOD_PARAMS.get(method)
    for key, value in params.items():
        if allowed is not None and key not in allowed:
            takes = ", ".join(allowed) if allowed else "no parameters"
            raise InputError(f"{method} takes {takes}, not {describe(key)}")
        rule = PARAM_RULES.get(key)
        if rule is not None and value is not None and not rule[0](value):
            raise InputError(f"{key} must be {rule[1]}, not {describe(value)}")
    return params


# ------------------------------------------------------------------ the command line
class UsageError(InputError):
    """A command line argparse refused (unknown option, missing argument...)."""


_LONG_RUN = re.compile(r"\S{" + str(TOKEN_CHARS + 1) + ",}")


def clip_tokens(message: str) -> str:
    """*message* with every run of more than :data:`TOKEN_CHARS` non-space characters cut
    (idempotent: a cut run is shorter than the limit)."""
    return _LONG_RUN.sub(lambda m: m.group()[: TOKEN_CHARS - 8] + f"... ({len(m.group()):,} characters)", message)


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def guard_cli(main: Callable[P, int]) -> Callable[P, int]:
    """Wrap the CLI's ``main(argv)``: bad input prints ``fifteen: error: ...`` (one line) and
    returns 2; warnings print one line each; anything unexpected prints one line naming the
    error and where it happened and returns 1 -- never a traceback."""

    @functools.wraps(main)
    def guarded(*args: P.args, **kwargs: P.kwargs) -> int:
        def show(message, category, filename, lineno, file=None, line=None) -> None:
            print(f"fifteen: warning: {_one_line(str(message))}", file=sys.stderr)

        with warnings.catch_warnings():
            warnings.showwarning = show
            try:
                return main(*args, **kwargs)
            except FifteenError as exc:
                print(f"fifteen: error: {_one_line(str(exc))}", file=sys.stderr)
                return 2
            except RecursionError:
                print("fifteen: error: the input nests too deeply", file=sys.stderr)
                return 2
            except MemoryError:
                print("fifteen: error: out of memory", file=sys.stderr)
                return 1
            except KeyboardInterrupt:
                print("fifteen: interrupted", file=sys.stderr)
                return 130
            except Exception as exc:  # a bug: one line with where it happened, for a report
                print(f"fifteen: internal error: {internal_message(exc)}", file=sys.stderr)
                return 1

    return guarded


def internal_message(exc: BaseException) -> str:
    """``Type: message (file:line)`` of an unexpected exception, cut to fit a message."""
    frames = traceback.extract_tb(exc.__traceback__)
    where = f" ({frames[-1].filename.rsplit('/', 1)[-1]}:{frames[-1].lineno})" if frames else ""
    return f"{type(exc).__name__}: {_one_line(clip_tokens(str(exc)))[:200]}{where}"
