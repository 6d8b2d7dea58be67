"""The command line's entry point guard: bad input prints one line and exits with status 2,
never a traceback (:func:`guard_cli`); Ctrl-C and SIGTERM end a run the same way, with one
line and status 130 or 143 (:func:`interruption`).  A Ctrl-C before the guard is in place,
while the package is imported, is the package's own start-up handler's (``fifteen/__init__.py``:
one line, status 130, when the package is the program)."""

from __future__ import annotations

import functools
import os
import signal
import sys
import threading
import warnings
from collections.abc import Callable
from types import FrameType
from typing import ParamSpec

from fifteen.errors import FifteenError, InputError
from fifteen.limits import internal_message, one_line

P = ParamSpec("P")

RESEND_SECONDS = 0.01
"""How long after a signal that landed inside a finalizer :func:`interrupt` sends it again."""


class UsageError(InputError):
    """A command line argparse refused (unknown option, missing argument...)."""

    def __init__(self, message: object = "", *, code: str = "usage") -> None:
        super().__init__(message, code=code)


class Terminated(KeyboardInterrupt):
    """SIGTERM (``kill``, a service manager, a CI time-out) during a command: raised where the
    command is, so that it ends as on Ctrl-C (its worker processes ended, what a batch wrote kept)."""


def _in_finalizer(frame: FrameType | None) -> bool:
    """Whether the interrupted code runs inside a ``__del__`` (a multiprocessing connection or
    pool being collected, say): Python prints an exception raised there and goes on."""
    while frame is not None:
        if frame.f_code.co_name == "__del__":
            return True
        frame = frame.f_back
    return False


def interrupt(signum: int, frame: FrameType | None) -> None:
    """The handler of Ctrl-C and SIGTERM during a command: raise KeyboardInterrupt (SIGINT) or
    :class:`Terminated` where the command is.  Inside a finalizer, where the exception would be
    printed and ignored (and the command would run on), the signal is sent again 10 ms later
    instead, until the finalizer has returned and the exception lands in the command.  (From a
    thread: ``os.kill`` runs the handler of a signal to its own process at once, here again.)"""
    if _in_finalizer(frame):
        resend = threading.Timer(RESEND_SECONDS, os.kill, (os.getpid(), signum))
        resend.daemon = True
        resend.start()
        return
    raise Terminated() if signum == signal.SIGTERM else KeyboardInterrupt


def interruption(exc: KeyboardInterrupt) -> tuple[str, int]:
    """What an interrupted command prints and its exit status: ``interrupted``, 130 (Ctrl-C,
    SIGINT) or ``terminated``, 143 (SIGTERM) -- 128 plus the signal's number, as a shell reports."""
    if isinstance(exc, Terminated):
        return "terminated", 128 + signal.SIGTERM
    return "interrupted", 128 + signal.SIGINT


def quiet_stdout() -> None:
    """Point stdout at /dev/null: after a closed pipe (``| head``) or a failed write, what is
    left in its buffer is dropped at exit instead of failing again with a second message."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # replaced by a test's capture: nothing to do
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    os.close(devnull)


def _forget_caught_interrupt() -> None:
    """Undo a CPython 3.11 slip: a KeyboardInterrupt that passes through code compiled from a
    string by ``exec`` (dataclasses and namedtuples build their methods so, at import) marks the
    interpreter's "unhandled KeyboardInterrupt" flag even when it is caught further up, and
    ``python -m`` then ends the process by SIGINT (status -2) instead of with the status the
    guard returns.  Each ``exec`` of a string clears the flag first: an empty one does only that
    (and nothing, where the slip is fixed)."""
    exec("")


def guard_cli(main: Callable[P, int]) -> Callable[P, int]:
    """Wrap the CLI's ``main(argv)``: bad input prints ``fifteen: error: ...`` (one line) and
    returns 2; warnings print one line each; Ctrl-C and SIGTERM print one line and return 130
    and 143; a closed stdout (``| head``) returns 141 quietly; anything unexpected prints one
    line naming the error and where it happened and returns 1 -- never a traceback."""

    @functools.wraps(main)
    def guarded(*args: P.args, **kwargs: P.kwargs) -> int:
        def show(message, category, filename, lineno, file=None, line=None) -> None:
            print(f"fifteen: warning: {one_line(str(message))}", file=sys.stderr)

        handles_term = threading.current_thread() is threading.main_thread()
        previous = signal.signal(signal.SIGTERM, interrupt) if handles_term else None
        # The program itself (python -m fifteen, the fifteen command: the package set its start-up
        # handler, fifteen/__init__.py): from here a Ctrl-C is caught below, and once the command
        # has ended (its answer printed, or its one line) another one changes nothing.
        # The switch is made inside the try: a Ctrl-C that lands on it is caught below.
        program = handles_term and getattr(signal.getsignal(signal.SIGINT), "__name__", "") == "_interrupted_at_start"
        with warnings.catch_warnings():
            warnings.showwarning = show
            try:
                if program:
                    signal.signal(signal.SIGINT, interrupt)
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
            except KeyboardInterrupt as exc:
                if program:
                    signal.signal(signal.SIGINT, signal.SIG_IGN)
                word, status = interruption(exc)
                print(f"fifteen: {word}", file=sys.stderr)
                return status
            except BrokenPipeError:  # the reader of stdout went away: nothing more to say to it
                quiet_stdout()
                return 128 + signal.SIGPIPE
            except Exception as exc:  # a bug: one line with where it happened, for a report
                print(f"fifteen: internal error: {internal_message(exc)}", file=sys.stderr)
                return 1
            finally:
                if handles_term:
                    signal.signal(signal.SIGTERM, previous if previous is not None else signal.SIG_DFL)
                if program:
                    signal.signal(signal.SIGINT, signal.SIG_IGN)
                    _forget_caught_interrupt()

    return guarded
