"""The input limits: every size limit, and how a refused value appears in a message.

Whatever a person or a program hands to Fifteen (typed text, share links, JSON
parameters, command-line options) is refused with an :class:`InputError` that
names the offending piece, cut to :data:`TOKEN_CHARS` characters, in a message of at most
:data:`~fifteen.errors.MESSAGE_CHARS` characters.  Sizes are checked before anything is
converted, so a 1 MB string or a 5,000-digit number is refused in microseconds.

* :func:`describe` -- a value as it may appear in a message (cut, never a huge repr);
* :func:`check_text` -- the length of a position's text, before it is split;
* :func:`clip_tokens`, :func:`one_line`, :func:`internal_message` -- messages cut to fit one line.

The API's parameters are checked against these limits by :mod:`fifteen.schema`; the command
line's entry point is guarded by :mod:`fifteen.cli.guard`.

Digits are ASCII only: ``٣x٣`` and ``４`` are refused with a message saying so,
in shapes and tiles alike.
"""

from __future__ import annotations

import re
import traceback
from typing import Any

from fifteen.errors import InputError

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
#: Boards of more squares than this get the anytime search (:mod:`fifteen.anytime`) by default
#: when no bound is named (the CLI's ``solve``, batches, the API's ``solve``): optimal search is
#: out of reach there (:func:`past_optimal_reach`)...
OPTIMAL_MAX_SQUARES = 25
#: ...but for positions whose lower bound is at most this (near the goal: a few dozen moves).
OPTIMAL_MAX_LOWER_BOUND = 50
#: The longest time limit of an anytime search, in seconds (an hour).
MAX_TIME_LIMIT = 3600.0
#: The time limit of an anytime search of the command line (``solve``, ``batch``) when none is given:
#: short, since a batch spends it on every position and a script waits for it.
DEFAULT_TIME_LIMIT = 10.0
#: The time limit of the page's anytime answers (Fast answer, Solve past 5x5): longer, since the
#: page shows every better answer as it comes and Cancel keeps the best found (the page reads it
#: from the API's ``info``: :func:`fifteen.schema.page_limits`).
PAGE_TIME_LIMIT = 60.0


def past_optimal_reach(squares: int, lower_bound: int) -> bool:
    """Whether a position of a board of *squares* squares whose lower bound is *lower_bound* gets
    the anytime search by default: boards of more than :data:`OPTIMAL_MAX_SQUARES` squares,
    unless the position is near its goal (:data:`OPTIMAL_MAX_LOWER_BOUND`)."""
    return squares > OPTIMAL_MAX_SQUARES and lower_bound > OPTIMAL_MAX_LOWER_BOUND


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


def check_text(text: Any, what: str = "a position", limit: int = MAX_TEXT_CHARS) -> str:
    """*text* if it is a string of at most *limit* characters (default :data:`MAX_TEXT_CHARS`)."""
    if not isinstance(text, str):
        raise InputError(f"{what} is text, not {describe(text)}", code="param")
    if len(text) > limit:
        raise InputError(f"{what} is {len(text):,} characters long; at most {limit:,} are read", code="too_long")
    return text


def is_int(v: Any) -> bool:
    """An integer that is not a boolean."""
    return isinstance(v, int) and not isinstance(v, bool)


def is_number(v: Any) -> bool:
    """A JSON number (not a boolean) from 0 to :data:`MAX_COUNT`."""
    return (is_int(v) or isinstance(v, float)) and 0 <= v <= MAX_COUNT


# ------------------------------------------------------------------ messages
_LONG_RUN = re.compile(r"\S{" + str(TOKEN_CHARS + 1) + ",}")


def clip_tokens(message: str) -> str:
    """*message* with every run of more than :data:`TOKEN_CHARS` non-space characters cut
    (idempotent: a cut run is shorter than the limit)."""
    return _LONG_RUN.sub(lambda m: m.group()[: TOKEN_CHARS - 8] + f"... ({len(m.group()):,} characters)", message)


def one_line(text: str) -> str:
    """*text* on one line: every run of white space (newlines included) one space."""
    return " ".join(str(text).split())


def internal_message(exc: BaseException) -> str:
    """``Type: message (file:line)`` of an unexpected exception, cut to fit a message."""
    frames = traceback.extract_tb(exc.__traceback__)
    where = f" ({frames[-1].filename.rsplit('/', 1)[-1]}:{frames[-1].lineno})" if frames else ""
    return f"{type(exc).__name__}: {one_line(clip_tokens(str(exc)))[:200]}{where}"
