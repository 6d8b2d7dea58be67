"""The anytime driver: a first solution at once, better ones as time allows, a proven lower bound.

:func:`anytime_solve` (the method and its measurements: ``bench/anytime.md``):

1. **First solution.**  Boards of up to 25 squares: a beam of width :data:`FIRST_BEAM`
   (:mod:`fifteen.anytime.beam`); larger boards, or when the beam finds nothing: row-and-column
   decomposition (:mod:`fifteen.anytime.decompose`), which always succeeds.  The time limit
   does not cut the first solution short (cancellation does).
2. **Improvement** (:class:`Improver`): beams pruned by the best length (``g + h >= best``),
   from the target towards the position at the last width, then from the position at twice it,
   and so on, alternating with window shortening (:mod:`fifteen.anytime.windows`) of the best
   path for as long as the last beam took.  Past 6x6 beams wander unless they rank by fitted
   costs (:func:`fifteen.anytime.rank.fitted_costs`: every board whose shorter side is 6 or
   more); on the others a stage beam first places the first row and column, and the smaller
   board left is improved as a board of its own (:mod:`fifteen.anytime.reduce`); once no wider
   beam fits in memory (:func:`beam_fits`), :data:`NOISY_BEAMS` more of the last width, each
   ranked with its own seeded noise on the costs, then windows only.
3. **Lower bound.**  The package's IDA* (:func:`fifteen.search.ida.ida_star`) with the board's
   strongest bound (``auto``: the pattern databases on 4x4 and 5x5, MD + LC past 5x5), searching in
   the goal's frame (:mod:`fifteen.frame`), is the *prover*: the root's bound raised to the
   solutions' parity (:func:`fifteen.search.ida.first_bound`), then each refuted threshold + 2
   (an IDA* iteration that ends without a solution proves there is none within its threshold,
   and every solution has the parity of the blank's distance to its goal square).  When an
   iteration finds a solution, that one is optimal.  The answer is ``optimal`` only when the
   lower bound equals the best length.

**One thread.**  The prover is the main loop; every :data:`TICK_NODES` nodes its progress
callback checks cancellation and the time limit and, when the prover has had its share of the
time (*prove_share*), runs the improver for a slice (:data:`IMPROVER_SLICE` seconds of whole
window searches, or one whole beam, which checks per layer).  Cancellation and the time limit
raise out of whatever search runs; the best path is kept outside the searches and returned.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from fifteen.anytime.beam import DUP_LAYERS, beam_max_states, beam_search, numpy_beam, widest_beam
from fifteen.anytime.decompose import decompose_to
from fifteen.anytime.rank import fitted_costs
from fifteen.anytime.reduce import STAGE_WIDTH, blank_walk, lift, play, stage_beam, stage_squares, sub_position, sub_shape
from fifteen.anytime.tables import LabelTables, label_tables
from fifteen.anytime.windows import Shortener, remove_cycles, reverse_path
from fifteen.board import Board, tiles_along
from fifteen.bounds import bound_values, check_board, resolve_bound, start_bound, summary
from fifteen.errors import InputError
from fifteen.frame import frame_for
from fifteen.limits import MAX_TIME_LIMIT, describe, is_int, is_number
from fifteen.optimal import check_answer
from fifteen.search.ida import SECONDS_DIGITS, Cancelled, Iteration, Progress, Stop, first_bound, ida_steps
from fifteen.search.moves import checking_setup
from fifteen.search.slices import Steps, drive, retried

#: Width of the first beam (boards of up to 25 squares).
FIRST_BEAM = 256
#: Boards of more squares than this get a first solution by decomposition.
FIRST_BEAM_MAX_SQUARES = 25
#: Boards of more squares than this get no beams in the improver (a reduction, or window shortening
#: only), unless the beams rank by fitted costs there (a shorter side of 6 or more: bench/anytime.md).
BEAM_MAX_SQUARES = 36
#: A beam is run only while width x (best length) stays below this (its path records, 5 bytes each).
BEAM_MAX_NODES = 20_000_000
#: The same for a beam that runs in numpy (:mod:`fifteen.anytime.vector_beam`, natively): its
#: duplicates take 8 bytes a position where the pure beam's take about 120 (bench/anytime.md,
#: *Memory*), so twice the path records fit in about the same memory.
VECTOR_BEAM_MAX_NODES = 40_000_000
#: Once no wider beam fits, the improver runs this many more beams of the last width, each ranked
#: with the tiles' costs scaled by its own seeded noise (:func:`fifteen.anytime.rank.noisy_moves`:
#: other paths of the same width; bench/anytime.md, *Noisy beams*), then windows only.
NOISY_BEAMS = 8
#: After a beam, window shortening may take this many times the beam's time before the next beam.
POLISH_RATIO = 1.0
#: Window shortening's settings (:class:`fifteen.anytime.windows.Shortener`), MD + LC windows (longer
#: ones, up to 64 moves and 5.12 M nodes, left 6x6 longer at 10 and 30 s: bench/anytime.md).
WINDOW: dict[str, int] = {"k_min": 12, "k_max": 40, "node_limit": 20_000, "node_limit_max": 320_000}
#: Seconds of improver work per hand-over from the prover.
IMPROVER_SLICE = 0.15
#: The prover's nodes between two hand-overs (and checks of cancellation and the time limit).
TICK_NODES = 1 << 14
#: Why a search stopped (an :class:`AnytimeResult`'s ``stopped``).
STOPS = ("optimal", "time", "cancelled", "exhausted")
MODES = ("beam+windows", "beams", "windows")
#: Where an improver's beams start (:class:`Improver`'s *beams_from*): both ends in turn, the
#: position only, the target only (two improvers that split the ends between them reach on 7x7 in
#: half the time what one reaches alternating: bench/anytime.md, *Two beam improvers*).
BEAMS_FROM = ("both", "position", "target")
#: An improver of noise family *k* >= 1 ranks every beam with noisy costs, beam seeds ``k *
#: FAMILY_SEEDS + ...`` (:func:`beam_noise`): the improvers past the two that split the ends, so
#: that they search other paths than those two instead of shortening windows only.
FAMILY_SEEDS = 128
#: At most this many noisy improvers (the others past them shorten windows): each holds a beam's
#: memory (bench/anytime.md, *Memory*).
NOISY_IMPROVERS = 2
#: The largest noise family an improver takes (a page's request is checked against it).
MAX_NOISE_FAMILY = 64


def beam_noise(family: int, width: int, backward: bool, widest: int) -> int:
    """The noise seed of a beam (:func:`fifteen.anytime.rank.noisy_moves`; 0: plain costs) of
    *width* from the target (*backward*) or the position, in an improver of noise *family*, whose
    *widest*-th noisy beam after the widest it is (0: a beam of the schedule).  Family 0: plain
    beams, then the seeds 1 to :data:`NOISY_BEAMS`; family *k*: ``k * FAMILY_SEEDS`` plus 2 x the
    width's bit length + *backward* for the schedule's beams, plus 64 + *widest* after the widest:
    no two beams of the improvers share a seed."""
    if not family:
        return widest
    return family * FAMILY_SEEDS + (64 + widest if widest else 2 * width.bit_length() + backward)


class _Deadline(Stop):
    pass


class _Cancelled(Stop):
    pass


class _Solved(Stop):
    """The best solution met the lower bound."""


def check_time_limit(value: object, name: str = "time_limit") -> float | None:
    """*value* as a time limit in seconds (``None``: none), or :class:`InputError` (code ``range``
    or ``param``): a positive number of at most :data:`MAX_TIME_LIMIT`."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or value != value:  # NaN is not a number of seconds
        raise InputError(f"{name} is a number of seconds, not {describe(value)}", code="param")
    if not 0 < value <= MAX_TIME_LIMIT:
        raise InputError(f"{name} must be more than 0 and at most {MAX_TIME_LIMIT:g} seconds, not {describe(value)}", code="range")
    return float(value)


@dataclass(frozen=True)
class Improvement:
    """One report: the best length (``None`` before the first solution) and the proven lower
    bound, *seconds* after the start; *moves* the best solution then (tiles that slide);
    *iterations* the prover's finished iterations then."""

    seconds: float
    length: int | None
    lower_bound: int
    moves: list[int] | None = field(default=None, compare=False, repr=False)
    iterations: tuple[Iteration, ...] = field(default=(), compare=False, repr=False)

    @property
    def optimal(self) -> bool:
        return self.length is not None and self.length == self.lower_bound

    def to_json(self) -> dict[str, Any]:
        """``{"seconds", "length", "lower_bound"}`` (an entry of ``improvements``)."""
        return {"seconds": round(self.seconds, SECONDS_DIGITS), "length": self.length, "lower_bound": self.lower_bound}

    def progress_json(self) -> dict[str, Any]:
        """The API's progress message: ``{"kind": "anytime", "seconds", "length", "lower_bound",
        "optimal", "moves", "iterations"}`` (*moves*: the best path so far; *iterations*: the
        prover's finished ones, as the page pool's reports give them)."""
        return {
            "kind": "anytime",
            **self.to_json(),
            "optimal": self.optimal,
            "moves": self.moves,
            "iterations": [it.to_json() for it in self.iterations],
        }


@dataclass
class AnytimeResult:
    """What :func:`anytime_solve` returns: the best solution found and the proven lower bound.

    *tiles* are the tiles that slide (``None`` only when cancelled before the first solution);
    *optimal* is true only when ``length == lower_bound``; *stopped* says why the search ended
    (:data:`STOPS`); *bound* is the prover's bound, *iterations* its finished iterations.
    """

    board: Board
    bound: str
    tiles: list[int] | None
    lower_bound: int
    h0: int
    stopped: str
    seconds: float
    cpu_seconds: float
    improvements: list[Improvement] = field(default_factory=list)
    iterations: list[Iteration] = field(default_factory=list)
    prover_nodes: int = 0
    improver_nodes: int = 0

    def __post_init__(self) -> None:
        if self.tiles is not None:  # never an answer that does not replay, or one shorter than the bound proved
            check_answer(self.board, self.tiles, None, lower_bound=self.lower_bound)

    @classmethod
    def of_path(
        cls, board: Board, bound: str, squares: list[int] | None, lower_bound: int, h0: int, stopped: str, **figures: Any
    ) -> AnytimeResult:
        """The result whose best solution is *squares* (the blank's path; ``None``: none yet):
        stopped ``"optimal"`` whenever its length met *lower_bound*, else *stopped*; *figures*:
        the other fields (times, improvements, iterations, nodes)."""
        tiles = None if squares is None else tiles_along(board.shape, board.tiles, squares)
        if tiles is not None and len(tiles) == lower_bound:
            stopped = "optimal"
        return cls(board, bound, tiles, lower_bound, h0, stopped, **figures)

    @property
    def length(self) -> int | None:
        return None if self.tiles is None else len(self.tiles)

    @property
    def optimal(self) -> bool:
        return self.length is not None and self.length == self.lower_bound

    @property
    def directions(self) -> str | None:
        return None if self.tiles is None else self.board.directions(self.tiles)

    def describe(self) -> str:
        """For people: ``82 moves found · optimal >= 78``, or ``62 moves, proven optimal``."""
        if self.length is None:
            return f"no solution found yet · optimal >= {self.lower_bound}"
        if self.optimal:
            return f"{self.length} moves, proven optimal"
        return f"{self.length} moves found · optimal >= {self.lower_bound}"

    def to_json(self, values: dict[str, int] | None = None) -> dict[str, Any]:
        """The keys of an optimal solve (:meth:`fifteen.optimal.Solution.to_json`: the
        position, ``bound`` (the prover's), ``length``, ``moves``, ``directions``, ``goal_frame``,
        ``h0`` (the root's lower bound), ``nodes`` (the prover's and the improvers'), the times,
        ``nodes_per_second``, ``iterations`` (the prover's)), then ``lower_bound``, ``optimal``,
        ``improvements`` (``{seconds, length, lower_bound}`` each) and ``stopped``; with the
        position's bound *values*, ``bounds`` and ``summary`` after them."""
        nodes = self.prover_nodes + self.improver_nodes
        out = {
            **self.board.to_json(),
            "bound": self.bound,
            "length": self.length,
            "moves": self.tiles,
            "directions": self.directions,
            "goal_frame": frame_for(self.board.target).describe(),
            "h0": self.h0,
            "nodes": nodes,
            "setup_seconds": 0.0,
            "seconds": round(self.seconds, SECONDS_DIGITS),
            "cpu_seconds": round(self.cpu_seconds, SECONDS_DIGITS),
            "nodes_per_second": round(nodes / self.seconds) if self.seconds > 0 else 0,
            "iterations": [it.to_json() for it in self.iterations],
            "lower_bound": self.lower_bound,
            "optimal": self.optimal,
            "improvements": [imp.to_json() for imp in self.improvements],
            "stopped": self.stopped,
        }
        if values is not None:
            out.update(bounds=values, summary=summary(values))
        return out


def beam_max_nodes(T: LabelTables, width: int) -> int:
    """The most path records (width x best length) a beam of *width* on *T*'s board may keep:
    :data:`VECTOR_BEAM_MAX_NODES` when it runs in numpy, else :data:`BEAM_MAX_NODES`."""
    return VECTOR_BEAM_MAX_NODES if numpy_beam(T, width) is not None else BEAM_MAX_NODES


def beam_fits(T: LabelTables, width: int, length: int) -> bool:
    """True when the improver runs a beam of *width* on *T*'s board whose best path has *length*
    moves: its path records within :func:`beam_max_nodes`, and the beam no wider than
    :func:`~fifteen.anytime.beam.widest_beam` for its state limit (a wider one gives up there:
    :func:`~fifteen.anytime.beam.beam_max_states`)."""
    return width * max(1, length) <= beam_max_nodes(T, width) and width <= widest_beam(max_states=beam_max_states(T, width))


def first_solution(
    T: LabelTables, tiles: Sequence[int], target: Sequence[int], check: Callable[[], None] | None = None, beam_width: int | None = None
) -> list[int]:
    """A first path (the blank's squares) to *target*: a beam of *beam_width* (default
    :data:`FIRST_BEAM` up to 25 squares, else none), decomposition when it finds nothing."""
    if beam_width is None:
        beam_width = FIRST_BEAM if T.n <= FIRST_BEAM_MAX_SQUARES else 0
    if beam_width:
        path = beam_search(T, tiles, target, beam_width, check)
        if path is not None:
            return path
    return decompose_to(T, tiles, target, check)


class Improver:
    """The upper bound's side: shortens the best path in bounded steps (:meth:`step`).

    *mode* ``"beam+windows"`` (the default): polish the best path by window shortening for at
    most *polish_ratio* times the time of the search that found it, then a beam (pruned by
    ``g + h < best``; backwards, from the target, at the last width, then forwards at twice it,
    and so on), polish what it finds, and so on; past 6x6 (but on boards whose beams rank by
    fitted costs: a shorter side of 6 or more) a reduction first (:meth:`step`); once no wider
    beam fits in memory (:func:`beam_fits`), :data:`NOISY_BEAMS` beams of the last width with
    noisy costs (:func:`fifteen.anytime.rank.noisy_moves`); windows only after them, or on the boards of more than
    :data:`BEAM_MAX_SQUARES` squares that are not reduced and have no fitted costs.
    ``"windows"``: window shortening only; ``"beams"``: beams only.  *beams_from* (:data:`BEAMS_FROM`):
    ``"both"`` alternates as above; ``"position"`` or ``"target"`` starts every beam there, each
    twice as wide as the last (for two improvers that split the ends).  *noise_family* > 0 (at
    most :data:`MAX_NOISE_FAMILY`) ranks every beam with noisy costs, seeds of the family's own
    (:func:`beam_noise`: improvers past those two search other paths).  *offer(squares)* receives
    every shorter path; ``done`` is set when nothing is left to try.
    """

    def __init__(
        self,
        T: LabelTables,
        tiles: Sequence[int],
        target: Sequence[int],
        best: list[int],
        offer: Callable[[list[int]], None],
        mode: str = "beam+windows",
        width: int = FIRST_BEAM,
        polish_ratio: float = POLISH_RATIO,
        clock: Callable[[], float] = time.perf_counter,
        first_seconds: float = 0.05,
        beams_from: str = "both",
        noise_family: int = 0,
    ):
        if mode not in MODES:
            raise InputError(f"unknown improver mode {describe(mode)} (one of {', '.join(MODES)})", code="param")
        if beams_from not in BEAMS_FROM:
            raise InputError(f"beams start from {', '.join(BEAMS_FROM)}, not {describe(beams_from)}", code="param")
        if not (is_int(noise_family) and 0 <= noise_family <= MAX_NOISE_FAMILY):
            raise InputError(
                f"noise_family must be a whole number from 0 to {MAX_NOISE_FAMILY}, not {describe(noise_family)}", code="param"
            )
        self.beams_from = beams_from
        self.noise_family = noise_family
        self.T, self.tiles, self.target, self.offer, self.mode = T, tuple(tiles), tuple(target), offer, mode
        self.best = list(best)
        self.width = width
        self.shortener: Shortener | None = self._shortener(self.best) if mode != "beams" else None
        self.done = False
        self.nodes = 0
        self.beams: list[tuple[int, int | None]] = []  # (width, negative backwards; length found or None)
        self.noise = 0  # the noisy beams run (NOISY_BEAMS)
        #: the next beam searches from the target towards the position, at the last beam's width
        #: (beams alternate: forwards at twice the width, then backwards at the same)
        self.backward = True
        self.polish_ratio = polish_ratio
        self.clock = clock
        self.polish_budget = float("inf") if mode == "windows" else polish_ratio * max(0.05, first_seconds)
        self.polish_used = 0.0
        shape = T.shape
        #: beams wander past 6x6 (bench/anytime.md), unless they rank by fitted costs (a shorter side of 6 or more)
        self.beams_wander = T.n > BEAM_MAX_SQUARES and fitted_costs(shape.rows, shape.cols) is None
        self.windows_only = self.beams_wander
        #: where beams wander: a stage placing the first row and column first (:mod:`fifteen.anytime.reduce`)
        self.reduce_pending = mode == "beam+windows" and self.beams_wander and min(shape.rows, shape.cols) >= 3
        self.sub: Improver | None = None
        self.stage: list[int] | None = None
        # (the stage beam's width by the square of the board's size: 1966 on 5x10, 3073 on 5x8)
        self.stage_width = max(min(256, STAGE_WIDTH), STAGE_WIDTH * 49 * 49 // (T.n * T.n))

    def _shortener(self, path: list[int]) -> Shortener:
        return Shortener(self.T, self.tiles, path, **WINDOW)

    def _improved(self, squares: list[int]) -> None:
        if len(squares) < len(self.best):
            self.best = list(squares)
            self.offer(self.best)

    def _reduce(self, check: Callable[[], None] | None) -> None:
        """The stage beam, then an improver of the smaller board whose paths are lifted back."""
        goal, _ = blank_walk(self.T.shape, self.target)
        c0 = self.clock()
        stage = stage_beam(self.T.shape, self.tiles, goal, self.stage_width, check)
        if stage is not None:  # (else windows on the whole board go on)
            self._start_sub(stage, None, check, max(0.05, self.clock() - c0))

    def _start_sub(self, stage: list[int], best: list[int] | None, check: Callable[[], None] | None, seconds: float = 0.05) -> None:
        """The smaller board's improver after *stage*, from its path *best* (None: its first solution)."""
        shape = self.T.shape
        goal, back = blank_walk(shape, self.target)
        self.stage = list(stage)
        small = sub_shape(shape)[0]
        tiles = sub_position(shape, play(self.tiles, stage), goal)
        target = small.goal()
        T = label_tables(small)
        first = remove_cycles(tiles, first_solution(T, tiles, target, check) if best is None else best)

        def offer(squares: list[int]) -> None:
            self._improved(remove_cycles(self.tiles, stage + lift(shape, squares) + back))

        offer(first)
        self.sub = Improver(
            T,
            tiles,
            target,
            first,
            offer,
            self.mode,
            FIRST_BEAM,
            self.polish_ratio,
            self.clock,
            seconds,
            self.beams_from,
            self.noise_family,
        )

    def carried(self) -> dict[str, Any]:
        """What a later improver of the same position needs to go on where this one is
        (:meth:`restore`; :mod:`fifteen.parallel.anytime_steps` carries it from one call to the next):
        the beam width, whether only windows are left, the window state, and after a reduction
        the stage and the smaller board's improver's own (with its best path)."""
        out: dict[str, Any] = {"width": self.width, "backward": self.backward, "windows_only": self.windows_only, "noise": self.noise}
        if self.shortener is not None:
            out.update(self.shortener.carried())
        if self.stage is not None and self.sub is not None:
            out["stage"] = list(self.stage)
            out["sub"] = {**self.sub.carried(), "best": list(self.sub.best), "done": self.sub.done}
        return out

    def restore(self, carried: dict[str, Any], check: Callable[[], None] | None = None) -> None:
        """Go on from :meth:`carried` (any part of it may be missing: an ``offset`` alone shifts
        where the first window sweep starts)."""
        self.width = carried.get("width", self.width)
        self.backward = carried.get("backward", self.backward)
        self.noise = carried.get("noise", self.noise)
        if self.shortener is not None and "offset" in carried:
            self.shortener.resume(carried)
        self.windows_only = carried.get("windows_only", self.windows_only)
        if "stage" in carried and "sub" in carried and self.reduce_pending:
            stage, sub = list(carried["stage"]), carried["sub"]
            shape = self.T.shape
            goal, _ = blank_walk(shape, self.target)
            tiles_along(shape, self.tiles, stage)  # each step next to the blank, or InputError
            after = play(self.tiles, stage)
            if any(after[q] != goal[q] for q in stage_squares(shape.rows, shape.cols)):
                raise InputError("the carried stage does not place the first row and column", code="param")
            small = sub_shape(shape)[0]
            rest = sub_position(shape, after, goal)
            tiles_along(small, rest, sub["best"])
            if play(rest, sub["best"]) != list(small.goal()):
                raise InputError("the carried path of the smaller board does not reach its goal", code="param")
            self.reduce_pending = False
            self._start_sub(stage, list(sub["best"]), check)
            assert self.sub is not None
            self.sub.restore(sub, check)
            self.sub.done = bool(sub.get("done", False))

    def step(self, check: Callable[[], None] | None = None) -> None:
        """One bounded unit of work: a window search, or a whole beam (or the reduction's stage)."""
        if self.reduce_pending:
            self._reduce(check)  # (a stage beam paused at the end of a time slice is asked again, the same)
            self.reduce_pending = False
            return
        sub = self.sub
        if sub is not None and not sub.done:
            before = sub.nodes
            try:
                sub.step(check)
            finally:
                self.nodes += sub.nodes - before
            if sub.done and self.shortener is not None:
                self.shortener = self._shortener(self.best)  # the whole board's windows, to the end
            return
        sh = self.shortener
        clock = self.clock
        if sh is not None and not sh.exhausted and (self.polish_used < self.polish_budget or self.windows_only):
            before = sh.nodes
            c0 = clock()
            try:
                sh.step(check)
            finally:
                self.nodes += sh.nodes - before
                self.polish_used += clock() - c0
            self._improved(sh.squares)
            return
        if self.mode == "windows" or (self.windows_only and self.mode != "beams"):
            self.done = True
            return
        if self.beams_from == "both":
            backward = self.backward
            width = self.width if backward else self.width * 2
        else:  # one end only: each beam twice the last
            backward = self.beams_from == "target"
            width = self.width * 2
        widest = 0  # the noisy beams after the widest: this one's number
        if not beam_fits(self.T, width, len(self.best)):  # (an empty path, at the goal, is bounded as one of a move)
            if self.noise >= NOISY_BEAMS or not beam_fits(self.T, self.width, len(self.best)):
                self.windows_only = True  # no wider beam: polish to the end
                if sh is None or sh.exhausted:
                    self.done = True
                elif sh.squares != self.best:
                    self.shortener = self._shortener(self.best)
                return
            self.noise += 1  # no wider beam: one of the last width with noisy costs (from either end in turn)
            widest, width = self.noise, self.width
            if self.beams_from == "both":
                backward = self.noise % 2 == 0
        noise = beam_noise(self.noise_family, width, backward, widest)
        c0 = clock()
        if backward:  # from the target towards the position: the same lengths, other paths
            back = beam_search(self.T, self.target, self.tiles, width, check, upper=len(self.best), dup_layers=DUP_LAYERS, noise=noise)
            path = None if back is None else reverse_path(self.target, back)
        else:
            path = beam_search(self.T, self.tiles, self.target, width, check, upper=len(self.best), dup_layers=DUP_LAYERS, noise=noise)
        # (after the beam: a beam paused at the end of a time slice is asked again, the same)
        if not widest:  # (a noisy beam after the widest leaves the schedule where it was)
            self.width, self.backward = width, not backward
        self.beams.append((-width if backward else width, None if path is None else len(path)))
        if path is None and self.beams_wander:
            self.windows_only = True  # a beam that finds nothing there wanders; wider ones cost more
            if self.mode == "beams":
                self.done = True
            return
        if path is not None:
            path = remove_cycles(self.tiles, path)
            self._improved(path)
            if self.mode == "beam+windows":
                self.shortener = self._shortener(path)
        # the polish that follows may take as long as polish_ratio times this beam
        self.polish_budget = self.polish_ratio * (clock() - c0)
        self.polish_used = 0.0

    def work(self, seconds: float, check: Callable[[], None] | None = None) -> None:
        """Run steps for about *seconds* (a step in progress is finished)."""
        end = self.clock() + seconds
        while not self.done and self.clock() < end:
            self.step(check)


def anytime_solve(
    board: Board,
    *,
    time_limit: float | None = None,
    progress: Callable[[Improvement], None] | None = None,
    cancel: Callable[[], bool] | None = None,
    bound: str = "auto",
    prove_share: float = 0.25,
    mode: str = "beam+windows",
    first_beam: int | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> AnytimeResult:
    """A solution of *board* towards its goal at once, then shorter ones and a rising proven
    lower bound, until the two meet (optimal), *time_limit* seconds pass, *cancel* returns true
    or nothing is left to try; the best found is returned whatever stopped the search.

    *progress* receives an :class:`Improvement` each time the best length or the lower bound
    changes (from the first solution on).  *bound* names the prover's bound (``auto``: the
    strongest available); *prove_share* is the prover's share of the time (0: none, the lower
    bound stays the root's; the search then ends when the improver is exhausted); *mode* the
    improver's (:class:`Improver`); *first_beam* the first beam's width (0: decomposition);
    *clock* measures the time limit and the reported seconds (``time.process_time`` for
    benchmarks on a shared machine).  The time limit does not cut the first solution short.

    >>> board = Board.parse("1 2 3 4 5 6 0 7 8")
    >>> result = anytime_solve(board, time_limit=5)
    >>> result.tiles, result.lower_bound, result.optimal, result.stopped
    ([7, 8], 2, True, 'optimal')
    >>> result.describe()
    '2 moves, proven optimal'
    """
    return drive(
        anytime_solve_steps(
            board,
            time_limit=time_limit,
            progress=progress,
            cancel=cancel,
            bound=bound,
            prove_share=prove_share,
            mode=mode,
            first_beam=first_beam,
            clock=clock,
        )
    )


def anytime_solve_steps(
    board: Board,
    *,
    time_limit: float | None = None,
    progress: Callable[[Improvement], None] | None = None,
    cancel: Callable[[], bool] | None = None,
    bound: str = "auto",
    prove_share: float = 0.25,
    mode: str = "beam+windows",
    first_beam: int | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> Steps[AnytimeResult]:
    """:func:`anytime_solve` as steps (:mod:`fifteen.search.slices`): the first solution's beam,
    the improver's window searches and beams and the prover's iterations pause at the end of each
    time slice and go on where they stopped; a :class:`fifteen.Cancelled` thrown in where it paused
    ends it as *cancel* does (``stopped: "cancelled"``, the best found kept)."""
    check_board(board)
    time_limit = check_time_limit(time_limit)
    for name, callback in (("progress", progress), ("cancel", cancel)):
        if callback is not None and not callable(callback):
            raise InputError(f"{name} is a function or None, not {describe(callback)}", code="param")
    if not is_number(prove_share) or not 0 <= prove_share <= 1:
        raise InputError(f"prove_share is a number from 0 to 1, not {describe(prove_share)}", code="param")
    if mode not in MODES:
        raise InputError(f"unknown improver mode {describe(mode)} (one of {', '.join(MODES)})", code="param")
    t0 = clock()
    cpu0 = time.process_time()
    shape, tiles, target = board.shape, board.tiles, board.target.tiles
    info = resolve_bound(shape, bound, board.target)
    frame = frame_for(board.target)
    T = label_tables(shape)
    deadline = None if time_limit is None else t0 + time_limit
    state: dict[str, Any] = {"best": None, "iterations": [], "prover": 0}
    lb = first_bound(shape, tiles, bound_values(board)["lb"], target)  # the root's best bound
    h0 = lb
    log: list[Improvement] = []

    def report() -> None:
        best = state["best"]
        if best is None:
            return
        imp = Improvement(clock() - t0, len(best), lb, tiles_along(shape, tiles, best), tuple(state["iterations"]))
        log.append(imp)
        if progress is not None:
            progress(imp)

    def check() -> None:
        if cancel is not None and cancel():
            raise _Cancelled
        if deadline is not None and clock() > deadline:
            raise _Deadline

    def check_cancel() -> None:
        if cancel is not None and cancel():
            raise _Cancelled

    def offer(squares: list[int]) -> None:
        best = state["best"]
        if best is None or len(squares) < len(best):
            state["best"] = list(squares)
            report()
            if len(squares) <= lb:
                raise _Solved

    def raise_bound(value: int) -> None:
        nonlocal lb
        if value > lb:
            lb = value
            report()
            best = state["best"]
            if best is not None and len(best) <= lb:
                raise _Solved

    def result(stopped: str) -> AnytimeResult:
        return AnytimeResult.of_path(
            board,
            info.name,
            state["best"],
            lb,
            h0,
            stopped,
            seconds=clock() - t0,
            cpu_seconds=time.process_time() - cpu0,
            improvements=log,
            iterations=state["iterations"],
            prover_nodes=state["prover"],
            improver_nodes=improver.nodes if improver is not None else 0,
        )

    improver: Improver | None = None
    if board.is_goal():
        state["best"] = []
        report()
        return result("optimal")
    try:
        first = yield from retried(lambda: first_solution(T, tiles, target, check_cancel, first_beam))
        offer(remove_cycles(tiles, first))
        improver = Improver(T, tiles, target, state["best"], offer, mode, first_beam or FIRST_BEAM, POLISH_RATIO, clock, clock() - t0)
        if prove_share <= 0:
            while not improver.done:
                yield from retried(lambda: improver.step(check))
            return result("exhausted")
        loop_start = clock()
        used = [0.0]  # the improver's seconds

        def on_progress(p: Progress) -> None:
            state["prover"] = p.nodes
            state["iterations"] = p.iterations
            raise_bound(p.bound + 2 if p.done and not p.found else p.bound)
            check()
            assert improver is not None
            if p.done or improver.done:
                return
            now = clock()
            elapsed = now - loop_start
            if elapsed - used[0] >= prove_share * elapsed:  # the prover has had its share
                try:
                    improver.work(IMPROVER_SLICE, check)
                finally:  # (also when a time slice paused it: it goes on at the prover's next tick)
                    used[0] += clock() - now

        with checking_setup(check):  # the prover's set-up (move tables) within the time limit too
            found = yield from ida_steps(
                shape,
                frame.position(tiles),
                info.factory,
                progress=on_progress,
                tick_nodes=TICK_NODES,
                start_bound=start_bound(board, bound),
                goal=frame.search_goal,
            )
        state["prover"], state["iterations"] = found.nodes, found.iterations
        path = frame.back(found, tiles).path
        check_answer(board, tiles_along(shape, tiles, path), info.name, lower_bound=found.h0)  # before it is offered as optimal
        raise_bound(len(path))  # an iteration found it: no shorter one exists
        offer(path)
        return result("optimal")
    except _Solved:
        return result("optimal")
    except (_Cancelled, Cancelled):
        return result("cancelled")
    except _Deadline:
        return result("time")


__all__ = [
    "AnytimeResult",
    "Improvement",
    "Improver",
    "MAX_TIME_LIMIT",
    "STOPS",
    "anytime_solve",
    "anytime_solve_steps",
    "beam_fits",
    "beam_max_nodes",
    "check_time_limit",
    "first_solution",
]
