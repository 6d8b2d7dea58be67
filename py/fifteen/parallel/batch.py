"""Batches: many positions solved by a pool of processes, or on a Dask cluster.

``python -m fifteen batch FILE [--jobs N] [--out results.jsonl] [--bound B] [--shape RxC]
[--goal GOAL] [--dask tcp://host:8786|local]``.

**Input**: one position per line (as ``solve`` reads them); blank lines and lines starting
with ``#`` are skipped; an optional id comes first, separated from the tiles by a tab (without
one, the line number is the id).

**Output**: one JSON object per line, written (and flushed) as each position finishes, in the
order they finish: ``id``, ``tiles``, ``shape``, ``bound``, ``length``, ``moves`` (the tile
numbers, as ``solve``), ``directions``, ``nodes``, ``seconds``, ``setup_seconds`` (and ``goal``,
``goal_frame`` with ``--goal``: every line solved towards that goal) — or ``id``
and ``error`` (a bad line, a worker that died twice on it).  With ``--out`` an interrupted run
resumes: ids already in the file are skipped (a last line cut short is dropped).  A progress
bar goes to stderr.

**Where it runs**: a local :class:`fifteen.parallel.processes.WorkerPool` (``--jobs``, default every core;
one job runs in this process), or, with ``--dask``, the same function (:func:`solve_item`) on
a Dask distributed cluster (``local``: a ``LocalCluster`` of ``--jobs`` single-threaded worker
processes).  Dask is optional (``pip install 'fifteen[cluster]'``), imported only then.  Each
worker process reads the databases once, at its first position (the assets registry).
"""

from __future__ import annotations

import itertools
import json
import sys
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from fifteen.board import Board
from fifteen.db import registry
from fifteen.errors import FifteenError, InputError


@dataclass(frozen=True)
class Item:
    """One position of a batch: its id and its text."""

    id: str
    text: str


def read_items(path: str | Path) -> list[Item]:
    """The positions of a batch file (see the module docstring)."""
    try:
        lines = Path(path).read_text().splitlines()
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror})") from None
    except UnicodeDecodeError:
        raise InputError(f"{path}: not a text file") from None
    items = []
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if "\t" in line:
            ident, text = line.split("\t", 1)
            ident = ident.strip() or str(number)
        else:
            ident, text = str(number), line
        items.append(Item(ident, text.strip()))
    return items


def finished_ids(out: str | Path) -> set[str]:
    """Ids already in the output file *out* (none when it does not exist); a last line cut short
    (an interrupted write) is removed from the file."""
    path = Path(out)
    if not path.exists():
        return set()
    data = path.read_bytes()
    if data and not data.endswith(b"\n"):
        cut = data.rfind(b"\n") + 1
        with path.open("r+b") as f:
            f.truncate(cut)
        data = data[:cut]
    ids = set()
    for line in data.decode("utf-8", "replace").splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if isinstance(record, dict) and "id" in record:
            ids.add(str(record["id"]))
    return ids


def _use_directory(directory: str | None) -> None:
    if directory is not None and Path(directory).is_dir() and str(registry.directory()) != directory:
        registry.use_directory(directory)


def solve_item(
    ident: str,
    text: str,
    shape: str | None = None,
    bound: str = "auto",
    directory: str | None = None,
    goal: str | None = None,
    *,
    stopped: Callable[[], bool] | None = None,
) -> dict[str, Any]:
    """Solve one position of a batch (in a worker): its JSON record, or ``{"id", "error"}``.

    *directory* is the database directory (used when it exists on this machine; else the
    worker's own default, e.g. ``$FIFTEEN_DB``).  *stopped* is accepted for the pool's calls.
    """
    from fifteen.search.optimal import solve

    try:
        _use_directory(directory)
        board = Board.parse(text, shape, goal)
        sol = solve(board, bound)
    except FifteenError as exc:
        return {"id": ident, "error": str(exc)}
    r = sol.result
    with_goal = {} if goal is None else {"goal": list(board.target.tiles), "goal_frame": sol.goal_frame}
    return {
        "id": ident,
        "tiles": list(board.tiles),
        "shape": str(board.shape),
        "bound": sol.bound,
        "length": sol.length,
        "moves": sol.tiles,
        "directions": sol.directions,
        "nodes": r.nodes,
        "seconds": round(r.seconds, 4),
        "setup_seconds": round(r.setup_seconds, 4),
        **with_goal,
    }


class ProgressBar:
    """``batch: [#####     ] 12/100  1 error  34 s`` on stderr: redrawn in place on a terminal,
    else a line every 5 %."""

    def __init__(self, total: int, stream: IO[str] | None = None, skipped: int = 0):
        self.total, self.done, self.errors = total, 0, 0
        self.stream = stream if stream is not None else sys.stderr
        self.tty = self.stream.isatty()
        self.start = time.perf_counter()
        self._step = max(1, total // 20)
        if skipped:
            print(f"batch: {skipped} positions already in the output, skipped", file=self.stream)

    def update(self, record: dict) -> None:
        self.done += 1
        self.errors += "error" in record
        if self.tty or self.done % self._step == 0 or self.done == self.total:
            width = 30
            filled = width * self.done // max(1, self.total)
            errors = f"  {self.errors} error{'s' * (self.errors != 1)}" if self.errors else ""
            seconds = time.perf_counter() - self.start
            line = f"batch: [{'#' * filled}{' ' * (width - filled)}] {self.done}/{self.total}{errors}  {seconds:.0f} s"
            print(("\r" + line) if self.tty else line, end="" if self.tty else "\n", file=self.stream, flush=True)

    def close(self) -> None:
        if self.tty and self.done:
            print(file=self.stream)


def _run_inline(items, shape, bound, directory, goal) -> Iterable[dict]:
    for item in items:
        yield solve_item(item.id, item.text, shape, bound, directory, goal)


def _preload(items: list[Item], shape: str | None, bound: str) -> None:
    """Read the databases of the batch's shapes here, before the workers are forked: they share
    them copy-on-write (a spawned worker reads its own at its first position)."""
    from fifteen.bounds import resolve_bound

    shapes = set()
    for item in items:
        try:
            shapes.add(Board.parse(item.text, shape).shape)
        except FifteenError:
            continue
    for shp in shapes:
        try:
            resolve_bound(shp, bound).factory(shp, list(shp.goal()), lambda nodes: sys.maxsize)
        except FifteenError:
            continue  # reported per position by its worker


def _run_pool(items, shape, bound, directory, goal, jobs: int, notice: Callable[[str], None]) -> Iterable[dict]:
    from fifteen.parallel.processes import WorkerPool, describe_death

    _preload(items, shape, bound)
    queue = deque(items)
    deaths: dict[str, int] = {}
    calls = itertools.count()
    with WorkerPool(min(jobs, len(items)), directory) as pool:
        running: dict[int, Item] = {}
        while queue or running:
            for w in pool.idle():
                if not queue:
                    break
                item = queue.popleft()
                key = next(calls)
                running[key] = item
                pool.submit(w, key, solve_item, item.id, item.text, shape, bound, directory, goal)
            for event in pool.wait(1.0):
                item = running.pop(event.call_id, None) if event.call_id is not None else None
                if event.kind == "done":
                    yield event.value
                elif event.kind == "error" and item is not None:
                    yield {"id": item.id, "error": f"internal: {event.value}"}
                elif event.kind == "died":
                    if item is not None:
                        deaths[item.id] = deaths.get(item.id, 0) + 1
                        if deaths[item.id] >= 2:
                            notice(f"{describe_death(event.worker, event.value)} on position {item.id} again: recorded as an error")
                            yield {"id": item.id, "error": "a worker process died twice on this position (out of memory?)"}
                        else:
                            notice(f"{describe_death(event.worker, event.value)}; position {item.id} is re-run by another worker")
                            queue.appendleft(item)
                    pool.replace(event.worker)


def dask_client(address: str, jobs: int):
    """A Dask client: of a new ``LocalCluster`` (*address* ``local``, *jobs* single-threaded
    worker processes) or of the scheduler at *address*."""
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise InputError("--dask needs Dask: pip install 'fifteen[cluster]' (dask[distributed])") from None
    if address == "local":
        cluster = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True, dashboard_address=None)
        return Client(cluster)
    try:
        return Client(address, timeout="5s")
    except (OSError, TimeoutError) as exc:
        raise InputError(f"cannot reach the Dask scheduler at {address}: {exc}") from None


def _run_dask(items, shape, bound, directory, goal, client) -> Iterable[dict]:
    from dask.distributed import as_completed

    futures = {}
    for item in items:
        future = client.submit(
            solve_item, item.id, item.text, shape, bound, directory, goal, pure=False, key=f"fifteen-{id(item)}-{item.id}"
        )
        futures[future] = item
    for future in as_completed(futures):
        item = futures[future]
        try:
            yield future.result()
        except Exception as exc:  # a worker died too often (KilledWorker), or Dask failed
            yield {"id": item.id, "error": f"{type(exc).__name__}: {exc}"}


def run_batch(
    items: list[Item],
    write: Callable[[dict], None],
    *,
    jobs: int = 1,
    shape: str | None = None,
    bound: str = "auto",
    client: Any = None,
    progress: ProgressBar | None = None,
    notice: Callable[[str], None] | None = None,
    goal: str | None = None,
) -> tuple[int, int]:
    """Solve *items*, passing each record to *write* as it finishes; returns (solved, errors).

    *client*: a Dask client (else a local pool of *jobs* processes; one job runs here);
    *goal*: every position's goal (a name or tiles; default the standard goal)."""
    from fifteen.parallel.processes import _stderr

    directory = registry.directory()
    dirname = None if directory is None else str(directory)
    if client is not None:
        records = _run_dask(items, shape, bound, dirname, goal, client)
    elif jobs <= 1 or len(items) <= 1:
        records = _run_inline(items, shape, bound, dirname, goal)
    else:
        records = _run_pool(items, shape, bound, dirname, goal, jobs, notice or _stderr)
    solved = errors = 0
    for record in records:
        write(record)
        if "error" in record:
            errors += 1
        else:
            solved += 1
        if progress is not None:
            progress.update(record)
    return solved, errors


__all__ = ["Item", "ProgressBar", "dask_client", "finished_ids", "read_items", "run_batch", "solve_item"]
