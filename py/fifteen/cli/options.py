"""The command line's numbers: what ``--jobs``, ``--budget``, ``--time-limit``... accept.

argparse's ``type=int`` and ``type=float`` read any Unicode digit (``--jobs ٢``), any number of
them (a 5,000-digit ``--budget`` is an ``internal error`` once it reaches Python's limit) and
``nan``, ``inf``, ``-5`` as seconds.  Here a number is written with the ASCII digits 0-9 only,
as tiles and shapes are (:mod:`fifteen.limits`), with at most
:data:`~fifteen.limits.MAX_INT_DIGITS` digits: anything else is refused by argparse in one line
(status 2).  Each option's range is checked where its value is used (:func:`fifteen.parallel.processes.resolve_jobs`,
:func:`fifteen.parallel.processes.resolve_stall_seconds`, :func:`fifteen.anytime.check_time_limit`,
:func:`check_count`), so that the JSON API and the command line refuse the same values.
"""

from __future__ import annotations

import argparse
import math
import re

from fifteen.errors import InputError
from fifteen.limits import MAX_COUNT, MAX_INT_DIGITS, describe

_WHOLE = re.compile(r"[+-]?[0-9]+")
_DECIMAL = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]{1,3})?")


def whole(text: str) -> int:
    """An argparse ``type``: a whole number written with the digits 0-9 (a sign allowed), of at
    most :data:`~fifteen.limits.MAX_INT_DIGITS` digits."""
    if not (text.isascii() and _WHOLE.fullmatch(text)):
        raise argparse.ArgumentTypeError(f"a whole number written with the digits 0-9, not {describe(text)}")
    digits = len(text.lstrip("+-"))
    if digits > MAX_INT_DIGITS:
        raise argparse.ArgumentTypeError(f"a number of {digits:,} digits; at most {MAX_INT_DIGITS} are read")
    return int(text)


def seconds(text: str) -> float:
    """An argparse ``type``: a finite number of seconds written with the digits 0-9 (``2``,
    ``0.5``, ``1e3``; a sign allowed, refused later where it is out of range): not ``nan``,
    ``inf`` or another script's digits."""
    if not (text.isascii() and len(text) <= MAX_INT_DIGITS and _DECIMAL.fullmatch(text)):
        raise argparse.ArgumentTypeError(f"a number of seconds written with the digits 0-9 (such as 2 or 0.5), not {describe(text)}")
    value = float(text)
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"a finite number of seconds, not {describe(text)}")
    return value


def check_count(value: int | None, option: str, high: int = MAX_COUNT) -> int | None:
    """*value* (``None``: not given) if it is from 0 to *high*, else an :class:`InputError`
    (code ``range``) naming *option*."""
    if value is not None and not 0 <= value <= high:
        raise InputError(f"{option} must be from 0 to {high:,}, not {describe(value)}", code="range")
    return value


__all__ = ["check_count", "seconds", "whole"]
