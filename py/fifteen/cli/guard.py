"""The command line's entry point guard: bad input prints one line and exits with status 2,
never a traceback (:func:`guard_cli`)."""

from __future__ import annotations

import functools
import sys
import warnings
from collections.abc import Callable
from typing import ParamSpec

from fifteen.errors import FifteenError, InputError
from fifteen.limits import internal_message, one_line

P = ParamSpec("P")


class UsageError(InputError):
    """A command line argparse refused (unknown option, missing argument...)."""

    def __init__(self, message: object = "", *, code: str = "usage") -> None:
        super().__init__(message, code=code)


def guard_cli(main: Callable[P, int]) -> Callable[P, int]:
    """Wrap the CLI's ``main(argv)``: bad input prints ``fifteen: error: ...`` (one line) and
    returns 2; warnings print one line each; anything unexpected prints one line naming the
    error and where it happened and returns 1 -- never a traceback."""

    @functools.wraps(main)
    def guarded(*args: P.args, **kwargs: P.kwargs) -> int:
        def show(message, category, filename, lineno, file=None, line=None) -> None:
            print(f"fifteen: warning: {one_line(str(message))}", file=sys.stderr)

        with warnings.catch_warnings():
            warnings.showwarning = show
            try:
                return main(*args, **kwargs)
            except FifteenError as exc:
                print(f"fifteen: error: {one_line(str(exc))}", file=sys.stderr)
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
