"""Time slices: a long search paused at the end of a slice and resumed exactly where it stopped.

A host with one thread and an event loop (the page's worker: Pyodide, where a message such as
Cancel is handled only between two calls into Python) runs a long call in slices of a few tens
of milliseconds.  The pieces:

* :func:`time_slice` opens a slice; :func:`due` tells whether it is over (never outside a
  slice, so a native search never pauses).
* A search's *tick* raises :class:`Pause` when the slice is over
  (:func:`fifteen.search.ida.ida_star`'s, the parallel tasks', the prover's).  The generated loops
  (:mod:`fifteen.search.template`) catch it in every frame, put their move back, note which
  child they were searching (the *trail*) and pass it on, so the searcher is left as it was at
  the root and :meth:`fifteen.search.template.Searcher.resume` continues the same search: the
  same nodes, in the same order, the same solution.
* The layers above a searcher are *steps*: generator functions that yield where their search
  paused (:func:`search_steps`) and return their result.  :func:`drive` runs steps to their
  end in one go (the native path, and any caller outside a slice); the page's API runs them one
  slice at a time (:func:`fifteen.api.begin`, :func:`fifteen.api.step`).

``bench/slicing.md`` measures the cost (none per node that can be measured) and the page's Stop.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Generator, Hashable, Iterator
from contextlib import contextmanager
from typing import Any, Protocol, TypeVar

T = TypeVar("T")

#: A step function's generator: it yields where it paused and returns its result.
Steps = Generator[None, None, T]

#: Nodes between two ticks of a search that runs in slices (about 5-15 ms in Pyodide).
SLICE_TICK_NODES = 1 << 12

_deadline = math.inf


class Pause(BaseException):
    """The time slice is over: raised by a search's tick to pause it (resumable).

    A :class:`BaseException`, as :class:`KeyboardInterrupt` is, so that no ``except Exception``
    on its way takes it for an error.  *trail* collects, from the deepest frame up, the
    ``(loop, square)`` each frame of a generated loop was searching."""

    def __init__(self) -> None:
        super().__init__()
        self.trail: list[tuple[int, int]] = []


def due() -> bool:
    """True when the current time slice is over (never outside a slice)."""
    return time.perf_counter() >= _deadline


def sliced() -> bool:
    """True inside a time slice (a search then ticks often enough to pause on time)."""
    return _deadline != math.inf


def ticks(every: int, on_tick: Callable[[int], None]) -> Callable[[int], int]:
    """A search's tick (see :func:`fifteen.search.ida.ida_star`) that calls *on_tick(nodes)* every
    *every* nodes, at the very node counts a search outside any slice calls it (so a budget or a
    progress report falls where it would); made inside a slice, it also looks at the clock every
    :data:`SLICE_TICK_NODES` nodes and raises :class:`Pause` once the slice is over."""
    if not sliced():

        def tick(nodes: int) -> int:
            if nodes:
                on_tick(nodes)
            return nodes + every

        return tick
    fine = min(every, SLICE_TICK_NODES)
    next_call = every

    def sliced_tick(nodes: int) -> int:
        nonlocal next_call
        if not nodes:  # a run's start
            next_call = every
        elif nodes >= next_call:
            on_tick(nodes)
            next_call = nodes + every
        if nodes and due():
            raise Pause()
        return min(nodes + fine, next_call)

    return sliced_tick


@contextmanager
def time_slice(seconds: float) -> Iterator[None]:
    """Run the block as one slice of *seconds*: a search in it pauses once they have passed."""
    global _deadline
    outer = _deadline
    _deadline = min(outer, time.perf_counter() + seconds)
    try:
        yield
    finally:
        _deadline = outer


class Resumable(Protocol):
    """A searcher whose ``run`` may raise :class:`Pause`, continued by ``resume``."""

    def run(self, budget: int) -> tuple[list[int] | None, int]: ...

    def resume(self) -> tuple[list[int] | None, int]: ...


def search_steps(searcher: Resumable, budget: int) -> Steps[tuple[list[int] | None, int]]:
    """``searcher.run(budget)`` as steps: a yield at every pause, the run's ``(path, nodes)`` at the end."""
    try:
        return searcher.run(budget)
    except Pause:
        pass
    while True:
        yield
        try:
            return searcher.resume()
        except Pause:
            pass


_kept: tuple[Hashable, Any] | None = None


def resumable(key: Hashable, begin: Callable[[], Steps[T]]) -> T:
    """The result of *begin()*'s steps, run to their end.  Inside a time slice that ends first,
    the steps are kept and :class:`Pause` is raised: the caller's layers unwind (they need not be
    steps themselves), and the next call with an equal *key* (the same computation asked again
    when the caller retries it, e.g. through :func:`retried`) goes on where they stopped.  One
    computation is kept at a time; *key* names it whole (its arguments, the callbacks it calls)."""
    global _kept
    if not sliced():
        return drive(begin())
    kept, _kept = _kept, None
    steps = kept[1] if kept is not None and kept[0] == key else begin()
    try:
        next(steps)
    except StopIteration as end:
        return end.value
    _kept = (key, steps)
    raise Pause()


def forget() -> None:
    """Drop the computation :func:`resumable` keeps (its call has ended)."""
    global _kept
    _kept = None


def retried(call: Callable[[], T]) -> Steps[T]:
    """*call()* as steps: called again after each :class:`Pause` out of it (its searches and
    :func:`resumable` parts go on where they stopped; it must be safe to call again then)."""
    while True:
        try:
            return call()
        except Pause:
            yield


def drive(steps: Steps[T]) -> T:
    """Run *steps* to their end without returning to any event loop: their result."""
    while True:
        try:
            next(steps)
        except StopIteration as end:
            return end.value


def value(steps: Any) -> Any:
    """*steps* driven to their end when it is a generator; any other value as it is."""
    return drive(steps) if isinstance(steps, Generator) else steps


__all__ = [
    "Pause",
    "SLICE_TICK_NODES",
    "Steps",
    "drive",
    "due",
    "forget",
    "resumable",
    "retried",
    "search_steps",
    "sliced",
    "ticks",
    "time_slice",
    "value",
]
