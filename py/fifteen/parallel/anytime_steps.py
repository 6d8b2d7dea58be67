"""One step of the prover or of an improver: the units of work the parallel anytime searches hand
out, to native worker processes (:mod:`fifteen.parallel.anytime_processes`) and to the page's pool of
workers (:mod:`fifteen.parallel.anytime_page`).

* :func:`prove`: one IDA* iteration with the board's strongest bound (each refuted threshold
  raises the proven lower bound by 2; a threshold that finds a solution ends the search with it,
  optimal);
* :func:`improve`: an :class:`~fifteen.anytime.driver.Improver` on the best path for a slice of
  time (:data:`IMPROVE_SLICE` seconds without an improvement), its state carried from one call to
  the next as a small dict.

Both take plain values (the shape as text, tuples of tiles) so that they cross a process
boundary or the page's JSON one, and stop when *stopped()* returns true or past a wall-clock
*deadline*: the best found is kept in every case.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from fifteen.anytime.driver import FIRST_BEAM, POLISH_RATIO, Improver
from fifteen.anytime.tables import label_tables
from fifteen.board import Board, Goal, Shape, tiles_along
from fifteen.bounds import resolve_bound
from fifteen.frame import frame_for
from fifteen.optimal import check_answer
from fifteen.search.ida import Stop, first_bound
from fifteen.search.moves import checking_setup
from fifteen.search.slices import Steps, drive, retried, search_steps, ticks

#: An improver call returns after this many seconds without an improvement (whole steps).
IMPROVE_SLICE = 1.0
#: The prover's nodes between two checks of its stop flag and the deadline.
PROVE_TICK = 1 << 14


def board_of(shape: str, tiles: tuple[int, ...], goal: tuple[int, ...]) -> Board:
    shp = Shape.parse(shape)
    return Board(shp, tiles, Goal.of(goal, shp))


def prove(
    shape: str,
    tiles: tuple[int, ...],
    goal: tuple[int, ...],
    bound: str,
    threshold: int,
    deadline: float,
    *,
    stopped: Callable[[], bool],
    ticked: Callable[[int], None] | None = None,
) -> tuple:
    """One IDA* iteration of the prover with *threshold* (raised to the root's own first
    bound).  ``("refuted", threshold, nodes, seconds)``, ``("found", threshold, nodes, seconds,
    squares)`` (the blank's squares in the caller's frame, an optimal solution), or
    ``("stopped", threshold, 0, seconds)`` when asked to stop or past *deadline* (wall clock).
    *ticked(nodes)*, when given, hears the iteration's node count every :data:`PROVE_TICK` nodes.
    :func:`prove_steps` is the same as steps (:mod:`fifteen.search.slices`)."""
    return drive(prove_steps(shape, tiles, goal, bound, threshold, deadline, stopped=stopped, ticked=ticked))


def prove_steps(
    shape: str,
    tiles: tuple[int, ...],
    goal: tuple[int, ...],
    bound: str,
    threshold: int,
    deadline: float,
    *,
    stopped: Callable[[], bool],
    ticked: Callable[[int], None] | None = None,
) -> Steps[tuple]:
    """:func:`prove` as steps: the iteration pauses at the end of each time slice."""
    board = board_of(shape, tiles, goal)
    info = resolve_bound(board.shape, bound, board.target)
    frame = frame_for(board.target)

    def check() -> None:
        if stopped() or time.time() > deadline:
            raise Stop

    def on_tick(nodes: int) -> None:
        if ticked is not None:
            ticked(nodes)
        check()

    tick = ticks(PROVE_TICK, on_tick)

    start = time.perf_counter()
    position = list(frame.position(tiles))
    kwargs: dict[str, Any] = {} if frame.search_goal is None else {"goal": frame.search_goal}
    try:
        with checking_setup(check):  # the set-up (move tables: seconds in the browser) within the deadline too
            searcher = yield from retried(lambda: info.factory(board.shape, position, tick, **kwargs))
    except Stop:
        return ("stopped", threshold, 0, time.perf_counter() - start)
    threshold = max(threshold, first_bound(board.shape, position, searcher.h0, frame.search_goal))
    try:
        if stopped() or time.time() > deadline:
            raise Stop
        path, nodes = yield from search_steps(searcher, threshold)
    except Stop:
        return ("stopped", threshold, 0, time.perf_counter() - start)
    if path is None:
        return ("refuted", threshold, nodes, time.perf_counter() - start)
    path.reverse()
    squares = frame.squares_back(path)
    check_answer(board, tiles_along(board.shape, tiles, squares), info.name, lower_bound=searcher.h0)  # never offered unless it replays
    return ("found", threshold, nodes, time.perf_counter() - start, squares)


def improve(
    shape: str,
    tiles: tuple[int, ...],
    goal: tuple[int, ...],
    squares: list[int],
    mode: str,
    carried: dict,
    deadline: float,
    *,
    stopped,
    beams_from: str = "both",
    noise_family: int = 0,
) -> tuple:
    """Improve *squares* (a path from *tiles* to *goal*) with an :class:`Improver`
    of *mode* whose beams start from *beams_from* (:data:`~fifteen.anytime.driver.BEAMS_FROM`) and
    rank with the noise of *noise_family* (0: plain costs until the widest beam),
    its state *carried* from the last call (beam width, window size, node limit and
    offset); returns ``(best squares, carried, done, nodes)`` after an improvement, after
    :data:`IMPROVE_SLICE` seconds without one, when there is nothing left to try, or when asked
    to stop or past *deadline* (wall clock) — the best found kept in every case.
    :func:`improve_steps` is the same as steps (:mod:`fifteen.search.slices`)."""
    return drive(
        improve_steps(
            shape, tiles, goal, squares, mode, carried, deadline, stopped=stopped, beams_from=beams_from, noise_family=noise_family
        )
    )


def improve_steps(
    shape: str,
    tiles: tuple[int, ...],
    goal: tuple[int, ...],
    squares: list[int],
    mode: str,
    carried: dict,
    deadline: float,
    *,
    stopped,
    beams_from: str = "both",
    noise_family: int = 0,
) -> Steps[tuple]:
    """:func:`improve` as steps: a window search or a beam paused at the end of a time slice goes
    on where it stopped at the next step."""
    board = board_of(shape, tiles, goal)
    best = [list(squares)]

    def offer(path: list[int]) -> None:
        best[0] = list(path)

    def check() -> None:
        if stopped() or time.time() > deadline:
            raise Stop

    improver = Improver(
        label_tables(board.shape),
        tiles,
        goal,
        best[0],
        offer,
        mode,
        FIRST_BEAM,
        POLISH_RATIO,
        beams_from=beams_from,
        noise_family=noise_family,
    )
    start = last = time.monotonic()
    try:
        improver.restore(carried, check)  # (a first call may carry an offset alone)
        while not improver.done and time.monotonic() - last < IMPROVE_SLICE:
            before = len(best[0])
            yield from retried(lambda: improver.step(check))
            if len(best[0]) < before and time.monotonic() - start > 0.05:
                break  # an improvement: back to the coordinator
    except Stop:
        pass
    return (best[0], improver.carried(), improver.done, improver.nodes)


__all__ = ["IMPROVE_SLICE", "PROVE_TICK", "board_of", "improve", "improve_steps", "prove", "prove_steps"]
