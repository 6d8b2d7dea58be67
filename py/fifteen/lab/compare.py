"""The heuristic lab: the same position searched with each lower bound in turn.

:func:`run_bound` runs IDA* (the public :func:`fifteen.solve`) with one bound
and an optional node *budget*; :func:`compare_bounds` does it for several
bounds one after the other (weakest first by default: md, lc, id, wd, wdid,
pdb555, pdb663, pdb771, pdb78, those available for the board).  The node counts are
exactly those of ``solve`` with the same bound: the lab only watches the search
through its progress and cancel callbacks.

Budget
    The total number of nodes (all iterations) a bound may expand.  The search
    is watched every *tick_nodes* nodes (default :data:`TICK_NODES`); once a
    progress report shows ``nodes >= budget`` the next cancel check stops it.
    The driver checks cancel just before it reports a tick, so a search stops
    at most ``2 * tick_nodes`` nodes past the budget (and at the start of the
    next iteration when the budget runs out at the end of one).  A stopped run
    keeps its finished iterations and the partial one (``finished: false``),
    counted at the last progress report: the search itself may have expanded
    up to ``tick_nodes`` nodes more.  A search that ends while the stop is
    pending is finished, even past its budget.

Effective branching factor (``ebf``)
    The classic b* (Nilsson; Russell & Norvig): the branching factor of a
    uniform tree of the solution's depth *d* holding the search's nodes,
    ``N = b + b**2 + ... + b**d``, with *N* the nodes expanded over all
    iterations (as counted by ``solve``) and *d* the optimal length.  Smaller
    is better; 1 means the bound is exact.  ``None`` for unfinished runs.

Growth per iteration (``growth``)
    Nodes of the last complete iteration (one that searched its whole bound:
    not the one that found the solution, not a partial one) divided by the
    nodes of the iteration before it: the tree's growth per +2 of the bound.
    Korf, Reid and Edelkamp (2001) showed that it tends to the growth of the
    brute-force tree whatever the (consistent) bound: a better bound mostly
    starts lower on a similar slope.  ``None`` with fewer than two complete
    iterations.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from fifteen.board import Board, Goal, Shape
from fifteen.bounds import available_bounds, bound_infos, bound_values
from fifteen.errors import InputError
from fifteen.limits import MAX_COUNT, describe
from fifteen.optimal import solve_steps
from fifteen.search.ida import SECONDS_DIGITS, Cancelled, Iteration
from fifteen.search.slices import Steps, drive

#: Nodes between two looks at a running search (progress and budget checks).
TICK_NODES = 1 << 10
#: The budget of the CLI and the API when none is given (nodes per bound).
DEFAULT_BUDGET = 5_000_000


class _Progress(Protocol):
    """What the solver's progress callback receives (:class:`fifteen.search.ida.Progress`)."""

    bound: int
    nodes: int
    iteration_nodes: int
    seconds: float
    done: bool

    @property
    def iterations(self) -> Sequence[Any]: ...


@dataclass(frozen=True)
class IterationStat(Iteration):
    """An IDA* :class:`~fifteen.search.ida.Iteration` and whether it ran to its end."""

    finished: bool = True

    def to_json(self) -> dict[str, Any]:
        """``{"bound", "nodes", "seconds", "finished"}``."""
        return {**super().to_json(), "finished": self.finished}


@dataclass
class BoundRun:
    """The search of one position with one bound (finished, or stopped by its budget)."""

    name: str
    label: str
    h0: int
    iterations: list[IterationStat] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0
    finished: bool = False
    length: int | None = None  # the optimum, when finished
    budget: int | None = None

    @property
    def nodes_per_second(self) -> float | None:
        return self.nodes / self.seconds if self.seconds > 0 else None

    @property
    def ebf(self) -> float | None:
        """b* of ``nodes = b + ... + b**length`` (finished runs only; see the module docstring)."""
        if not self.finished or not self.length:
            return None
        return effective_branching_factor(self.nodes, self.length)

    @property
    def growth(self) -> float | None:
        """Nodes of the last complete iteration over the one before (see the module docstring)."""
        complete = self.iterations[:-1] if self.finished else [it for it in self.iterations if it.finished]
        if len(complete) < 2 or complete[-2].nodes == 0:
            return None
        return complete[-1].nodes / complete[-2].nodes

    def to_json(self) -> dict[str, Any]:
        """The JSON object of one bound (``compare`` in the CLI and the API)."""
        rate, ebf, growth = self.nodes_per_second, self.ebf, self.growth
        return {
            "name": self.name,
            "label": self.label,
            "h0": self.h0,
            "iterations": [it.to_json() for it in self.iterations],
            "nodes": self.nodes,
            "seconds": round(self.seconds, SECONDS_DIGITS),
            "nodes_per_second": None if rate is None else round(rate),
            "ebf": None if ebf is None else round(ebf, 4),
            "growth": None if growth is None else round(growth, 3),
            "finished": self.finished,
            "length": self.length,
            "budget": self.budget,
        }


def effective_branching_factor(nodes: int, depth: int) -> float:
    """The b > 0 with ``b + b**2 + ... + b**depth == nodes`` (bisection; *nodes*, *depth* >= 1)."""
    if nodes < 1 or depth < 1:
        raise ValueError("effective branching factor needs nodes >= 1 and depth >= 1")

    def tree(b: float) -> float:
        total, power = 0.0, 1.0
        for _ in range(depth):
            power *= b
            total += power
        return total

    lo, hi = 0.0, nodes ** (1.0 / depth) + 1.0  # tree(hi) > hi**depth > nodes
    for _ in range(100):
        mid = (lo + hi) / 2
        if tree(mid) < nodes:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


# ------------------------------------------------------------------ which bounds
def lab_bounds(shape: Shape, goal: Goal | None = None) -> list[str]:
    """The bounds available on *shape* (towards *goal*, default the standard goal), weakest
    first (the order of the story)."""
    return [name for name in reversed(available_bounds(shape, goal)) if name != "auto"]


def bound_label(name: str) -> str:
    for info in bound_infos():
        if info.name == name:
            return info.label
    return name


def parse_bound_names(names: str | Sequence[str] | None, shape: Shape, goal: Goal | None = None) -> list[str]:
    """Bound names from ``"md,lc"`` or a list (``None``, ``""`` or ``"all"``: every available one)."""
    offered = lab_bounds(shape, goal)
    if names is None or (isinstance(names, str) and names.strip().lower() in ("", "all")):
        return offered
    items = names.split(",") if isinstance(names, str) else list(names)
    out: list[str] = []
    for item in items:
        if not isinstance(item, str):
            raise InputError(f"bounds must be names, got {describe(item)}", code="bound")
        name = item.strip().lower()
        if not name:
            continue
        if name not in offered:
            known = any(info.name == name for info in bound_infos())
            where = (
                "this goal"
                if goal is not None and not goal.is_standard and any(b.name == name for b in bound_infos())
                else f"a {shape} board"
            )
            why = f"is not available for {where}" if known else "is unknown"
            raise InputError(f"bound {describe(name)} {why} (choose from {', '.join(offered)})", code="bound")
        if name not in out:
            out.append(name)
    if not out:
        raise InputError(f"no bound given (choose from {', '.join(offered)})", code="bound")
    return out


def check_budget(budget: Any) -> int | None:
    """A budget as given by a user: a positive node count, or ``None``/0 for none."""
    if budget is None:
        return None
    if isinstance(budget, bool) or not isinstance(budget, int):
        raise InputError(f"budget must be a whole number of nodes, got {describe(budget)}", code="param")
    if not 0 <= budget <= MAX_COUNT:
        raise InputError(f"budget must be from 0 (none) to {MAX_COUNT:,} nodes, got {describe(budget)}", code="range")
    return budget or None


# ------------------------------------------------------------------ running
def run_bound(
    board: Board,
    name: str,
    *,
    budget: int | None = None,
    progress: Callable[[BoundRun], None] | None = None,
    cancel: Callable[[], bool] | None = None,
    tick_nodes: int = TICK_NODES,
) -> BoundRun:
    """Search *board* with the bound *name*, stopping after about *budget* nodes.

    *progress* receives a snapshot :class:`BoundRun` (the running iteration
    last, ``finished: false``) every *tick_nodes* nodes and after each
    iteration.  *cancel* returning true stops the search with
    :class:`fifteen.Cancelled` (a user's cancel: not a budget stop).
    :func:`run_bound_steps` is the same as steps (:mod:`fifteen.search.slices`).
    """
    return drive(run_bound_steps(board, name, budget=budget, progress=progress, cancel=cancel, tick_nodes=tick_nodes))


def run_bound_steps(
    board: Board,
    name: str,
    *,
    budget: int | None = None,
    progress: Callable[[BoundRun], None] | None = None,
    cancel: Callable[[], bool] | None = None,
    tick_nodes: int = TICK_NODES,
) -> Steps[BoundRun]:
    """:func:`run_bound` as steps: the search pauses at the end of each time slice (the budget
    stops it at the same node counts)."""
    (name,) = parse_bound_names([name], board.shape, board.target)
    label = bound_label(name)
    h0 = bound_values(board)[name]
    last: list[BoundRun] = []
    over_budget = [False]

    def snapshot(p: _Progress) -> BoundRun:
        done = [IterationStat(it.bound, it.nodes, it.seconds) for it in p.iterations]
        if not p.done:
            spent = sum(it.seconds for it in done)
            done.append(IterationStat(p.bound, p.iteration_nodes, max(0.0, p.seconds - spent), finished=False))
        return BoundRun(name, label, h0, done, p.nodes, p.seconds, False, None, budget)

    def on_progress(p: _Progress) -> None:
        run = snapshot(p)
        last[:] = [run]
        if budget is not None and p.nodes >= budget:
            over_budget[0] = True
        if progress is not None:
            progress(run)

    def stop() -> bool:
        return over_budget[0] or (cancel is not None and bool(cancel()))

    try:
        sol = yield from solve_steps(board, name, progress=on_progress, cancel=stop, tick_nodes=tick_nodes)
    except Cancelled:
        if not over_budget[0]:
            raise
        return last[0]
    r = sol.result
    iterations = [IterationStat(it.bound, it.nodes, it.seconds) for it in r.iterations]
    return BoundRun(name, label, r.h0, iterations, r.nodes, r.seconds, True, sol.length, budget)


def compare_bounds(
    board: Board,
    names: str | Sequence[str] | None = None,
    *,
    budget: int | None = DEFAULT_BUDGET,
    progress: Callable[[BoundRun], None] | None = None,
    cancel: Callable[[], bool] | None = None,
    tick_nodes: int = TICK_NODES,
) -> dict[str, BoundRun]:
    """:func:`run_bound` for each bound of *names* in turn (default: every available one, weakest first)."""
    runs: dict[str, BoundRun] = {}
    for name in parse_bound_names(names, board.shape, board.target):
        runs[name] = run_bound(board, name, budget=budget, progress=progress, cancel=cancel, tick_nodes=tick_nodes)
    return runs


def comparison_json(runs: dict[str, BoundRun]) -> dict[str, Any]:
    """``{"bounds": {name: run}}``, the JSON of ``compare``."""
    return {"bounds": {name: run.to_json() for name, run in runs.items()}}


# ------------------------------------------------------------------ tables
SUMMARY_COLUMNS = ("bound", "h0", "iterations", "nodes", "time (s)", "nodes/s", "EBF", "growth", "finished", "length")


def summary_rows(runs: dict[str, BoundRun]) -> list[list[str]]:
    """One row per bound, cells as text (see :data:`SUMMARY_COLUMNS`)."""
    rows = []
    for name, run in runs.items():
        rate, ebf, growth = run.nodes_per_second, run.ebf, run.growth
        rows.append(
            [
                name,
                str(run.h0),
                str(len(run.iterations)),
                f"{run.nodes:,}",
                f"{run.seconds:.2f}",
                "-" if rate is None else f"{rate:,.0f}",
                "-" if ebf is None else f"{ebf:.3f}",
                "-" if growth is None else f"{growth:.2f}",
                "yes" if run.finished else "no (budget)",
                "-" if run.length is None else str(run.length),
            ]
        )
    return rows


def iteration_rows(runs: dict[str, BoundRun]) -> tuple[list[str], list[list[str]]]:
    """Nodes per iteration: one row per cost bound (``threshold``), one column per lower bound.

    A partial iteration's count ends with ``+`` (the search was stopped by its
    budget); an empty cell: that bound never ran that iteration.
    """
    header = ["threshold", *runs]
    cells: dict[int, dict[str, str]] = {}
    for name, run in runs.items():
        for it in run.iterations:
            cells.setdefault(it.bound, {})[name] = f"{it.nodes}{'' if it.finished else '+'}"
    rows = [[str(b), *(cells[b].get(name, "") for name in runs)] for b in sorted(cells)]
    rows.append(["total", *(f"{run.nodes}{'' if run.finished else '+'}" for run in runs.values())])
    return header, rows


def format_table(header: Sequence[str], rows: Sequence[Sequence[str]], fmt: str = "text") -> str:
    """*fmt*: ``text`` (aligned columns), ``tsv`` or ``markdown``."""
    if fmt == "tsv":
        return "\n".join("\t".join(row) for row in [list(header), *rows])
    if fmt == "markdown":
        lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" if i == 0 else "---:" for i in range(len(header))) + "|"]
        lines += ["| " + " | ".join(row) + " |" for row in rows]
        return "\n".join(lines)
    if fmt != "text":
        raise InputError(f"unknown table format {describe(fmt)} (text, tsv or markdown)", code="param")
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    return "\n".join(
        "  ".join(cell.ljust(w) if i == 0 else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths, strict=True))).rstrip()
        for row in [list(header), *rows]
    )


# ------------------------------------------------------------------ presets
PRESETS_FILE = Path(__file__).resolve().parents[3] / "static" / "data" / "lab-presets.json"


def load_presets(path: str | Path | None = None) -> list[dict[str, Any]]:
    """The lab's preset positions (``static/data/lab-presets.json`` of the checkout)."""
    file = Path(path) if path is not None else PRESETS_FILE
    try:
        presets = json.loads(file.read_text(encoding="utf-8"))["presets"]
    except OSError as exc:
        raise InputError(f"{file}: cannot read the lab presets ({exc.strerror})", code="file") from None
    except (ValueError, KeyError, TypeError) as exc:
        raise InputError(f"{file}: unreadable lab presets ({exc})", code="file") from None
    if not isinstance(presets, list):
        raise InputError(f"{file}: presets must be a list", code="file")
    return presets


def find_preset(preset_id: str, path: str | Path | None = None) -> dict[str, Any]:
    presets = load_presets(path)
    for preset in presets:
        if preset.get("id") == preset_id:
            return preset
    raise InputError(f"unknown preset {describe(preset_id)} (one of {', '.join(str(p.get('id')) for p in presets)})", code="param")
