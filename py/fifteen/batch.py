"""Batches: many positions solved by a pool of processes, or on a Dask cluster.

``python -m fifteen batch FILE [--jobs N] [--out results.jsonl] [--bound B] [--shape RxC]
[--goal GOAL] [--dask tcp://host:8786|local] [--stall-seconds S] [--anytime] [--time-limit S]``.

**Input**: UTF-8 text (a byte order mark at the start is ignored), one position per line (as
``solve`` reads them; a line ends at ``\n`` or ``\r\n``, nowhere else, so line numbers are
those of ``wc -l``); blank lines and lines starting with ``#`` are skipped; an optional id
comes first, separated from the tiles by a tab (without one, the line number is the id).  Two
lines with the same id (``4<TAB>...`` on line 1 and a plain line 4, say) are refused before
anything runs, naming both lines: results are matched to lines by id.

**Output**: one JSON object per line, written (and flushed) as each position finishes, in the
order they finish: ``id``, then the keys of ``solve --json`` but the position's ``bounds`` and
``summary`` (:meth:`fifteen.optimal.Solution.to_json`, with ``goal`` and ``goal_frame``:
with ``--goal`` every line is solved towards that goal) — or ``id``, ``error`` and ``code`` (a
bad line, a damaged database, a worker that died twice on it; ``code`` is one of
:data:`fifteen.errors.ERROR_CODES`).  With ``--anytime`` (or ``--time-limit S``, and by
default on boards of more than 25 squares when no ``--bound`` is named) each position gets the
anytime search (:mod:`fifteen.anytime`) for S seconds (10 by default; by default past optimal
reach only for positions not near the goal): its record adds ``lower_bound``,
``optimal``, ``improvements`` and ``stopped``.  With ``--out`` an interrupted run
resumes (:func:`resume_from`): ids already in the file are skipped (a last line cut short is
dropped), but for lines whose error is no fault of their input (a worker that died twice, a
damaged database, a Dask error, an ``internal`` one: :data:`fifteen.errors.NOT_INPUT_CODES`),
which are removed and run again; a file that is not a batch's output is refused, never cut.
One run at a time writes an output (:class:`OutputLock`: a second one stops at once).  An output that cannot be written (a directory, a
full disk) ends the run with one line saying how many lines were written (:class:`Output`).  A
progress bar goes to stderr.

**Where it runs**: a local :class:`fifteen.parallel.processes.WorkerPool` (``--jobs``, default every core;
one job runs in this process), or, with ``--dask``, the same function (:func:`solve_item`) on
a Dask distributed cluster (``local``: a ``LocalCluster`` of ``--jobs`` single-threaded worker
processes).  Dask is optional (``pip install 'fifteen[cluster]'``), imported only then.  Each
worker process reads the databases once, at its first position (the assets databases).  A local
worker that shows no progress for ``--stall-seconds`` (default 60) is ended and its position
run by another; a worker never outlives the run (:class:`fifteen.parallel.processes.WorkerPool`).
"""

from __future__ import annotations

import itertools
import json
import logging
import os
import shutil
import sys
import time
from collections import deque
from collections.abc import Callable, Generator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from fifteen.anytime import anytime_solve
from fifteen.board import Board
from fifteen.bounds import databases, resolve_bound, start_bound
from fifteen.errors import ERROR_CODES, NOT_INPUT_CODES, FifteenError, InputError
from fifteen.limits import DEFAULT_TIME_LIMIT, describe, internal_message, past_optimal_reach
from fifteen.optimal import solve
from fifteen.parallel.processes import STALL_SECONDS, WorkerPool, describe_death, print_notice

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no lock (OutputLock)
    fcntl = None  # type: ignore[assignment]


@dataclass(frozen=True)
class Item:
    """One position of a batch: its id and its text."""

    id: str
    text: str


def lines_of(text: str) -> list[str]:
    """*text*'s lines: each ends at ``\\n`` or ``\\r\\n`` only, so line numbers are those of
    ``wc -l`` and editors (``str.splitlines`` also splits at form feeds, ``\\x85``,
    ``\\u2028``...)."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # after the last newline
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def read_items(path: str | Path) -> list[Item]:
    """The positions of a batch file (see the module docstring): UTF-8 (a byte order mark at
    the start is ignored), lines ending at ``\\n`` or ``\\r\\n`` (:func:`lines_of`).  Two lines
    with one id (an explicit one, or a line's number) are refused, naming both lines: results
    are matched to lines by id, and a resumed run would skip the second."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror or exc})", code="file") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputError(f"{path}: not a text file (not UTF-8)", code="file") from None
    items = []
    lines_by_id: dict[str, int] = {}
    for number, line in enumerate(lines_of(text), 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if "\t" in line:
            ident, text = line.split("\t", 1)
            ident = ident.strip() or str(number)
        else:
            ident, text = str(number), line
        if ident in lines_by_id:
            raise InputError(
                f"{path}: lines {lines_by_id[ident]:,} and {number:,} have the same id {describe(ident)}"
                " (an id before a tab, else the line's number): give each line its own",
                code="duplicate",
            )
        lines_by_id[ident] = number
        items.append(Item(ident, text.strip()))
    return items


#: How a line of a batch's output starts (:func:`solve_item`'s records, ``id`` first).
RECORD_START = b'{"id": '


def retried(record: dict) -> bool:
    """Whether a resume runs this record's line again: an error that is no fault of its input
    (:data:`~fifteen.errors.NOT_INPUT_CODES`; an error line without a code, as older runs wrote, too)."""
    return "error" in record and record.get("code") not in _INPUT_CODES


_INPUT_CODES = frozenset(ERROR_CODES) - frozenset(NOT_INPUT_CODES)


@dataclass
class Resume:
    """What an output file holds for a resume: *done*, the ids it has a result for (or an error of
    their input): skipped; *retried*, the ids whose lines were other errors, removed from the
    file: run again."""

    done: set[str]
    retried: list[str]


def resume_from(out: str | Path) -> Resume:
    """Read the output file *out* for a resume (nothing when it does not exist, or is not a
    regular file: ``/dev/stdout``, a pipe): a last line cut short (an interrupted write, a full
    disk) is removed, and so are the error lines to run again (:func:`retried`; the file is
    rewritten whole, then put in place of the old one, so that nothing is lost however the run
    stops).  A file that is not a batch's output (a line that is not one of its records) is
    refused and left as it is."""
    path = Path(out)
    try:
        if not path.exists() or not (path.is_file() or path.is_dir()):
            return Resume(set(), [])
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(f"{out}: cannot be the output ({exc.strerror or exc})", code="file") from None
    cut = data.rfind(b"\n") + 1
    done: set[str] = set()
    failed: dict[str, None] = {}  # ids of lines to run again, in order
    kept: list[bytes] = []
    for number, line in enumerate(data[:cut].split(b"\n")[:-1], 1):
        try:
            record = json.loads(line.decode("utf-8", "replace"))
        except ValueError:
            record = None
        if not (isinstance(record, dict) and "id" in record):
            raise InputError(f"{out}: line {number:,} is not a result of fifteen batch: give another --out", code="file")
        if retried(record):
            failed[str(record["id"])] = None
        else:
            done.add(str(record["id"]))
            kept.append(line + b"\n")
    if cut < len(data) and not data[cut:].startswith(RECORD_START[: len(data) - cut]):
        raise InputError(f"{out}: its last line is not a result of fifteen batch: give another --out", code="file")
    try:
        if failed:
            _replace(path, b"".join(kept))
        elif cut < len(data):
            with path.open("r+b") as f:
                f.truncate(cut)
    except OSError as exc:
        raise InputError(f"{out}: cannot be the output ({exc.strerror or exc})", code="file") from None
    return Resume(done, [ident for ident in failed if ident not in done])


def _replace(path: Path, data: bytes) -> None:
    """Put a file holding *data* in place of *path* (its permissions kept): written beside it,
    then renamed over it, so a run stopped meanwhile leaves the old file whole."""
    target = Path(os.path.realpath(path))
    temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        temporary.write_bytes(data)
        shutil.copymode(target, temporary)
        os.replace(temporary, target)
    finally:
        temporary.unlink(missing_ok=True)


class OutputLock:
    """One run per output file: an exclusive ``flock`` on the sidecar ``OUT.lock``, taken before
    the output is read and held until the run ends (the file is removed then).  A second run on
    the same output stops at once (an :class:`InputError`, status 2); a run that was killed
    holds nothing (the kernel releases its lock), so its leftover file never blocks.  Without
    ``fcntl`` (Windows), for an output that is not a regular file (``/dev/stdout``) and where the
    lock file cannot be made (a directory that is not writable), no lock."""

    def __init__(self, out: str | Path):
        self.path = Path(f"{out}.lock")
        self.fd: int | None = None
        target = Path(out)
        if fcntl is None or (target.exists() and not target.is_file()):
            return
        while self.fd is None:
            try:
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            except OSError:  # no room for it (a directory that is missing or not writable): the output itself says why it cannot be
                return
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(fd)
                raise InputError(
                    f"{out}: another fifteen batch is writing it (it holds {self.path}); wait for it to end, or give another --out",
                    code="file",
                ) from None
            try:
                same = os.stat(self.path).st_ino == os.fstat(fd).st_ino
            except OSError:
                same = False
            if same:  # else the run before removed it meanwhile: lock the new one
                self.fd = fd
            else:
                os.close(fd)

    def release(self) -> None:
        if self.fd is not None:
            try:
                self.path.unlink()
            except OSError:
                pass
            os.close(self.fd)
            self.fd = None

    def __enter__(self) -> OutputLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


class OutputError(InputError):
    """The batch's output cannot be written (a directory, no permission, a full disk);
    :attr:`written` results were written before (status 2 when none, else 1)."""

    def __init__(self, message: object, written: int) -> None:
        super().__init__(message, code="file")
        self.written = written

    def __reduce__(self):
        return OutputError, (str(self), self.written)


class Output:
    """Where a batch's JSON lines go: appended to the file *path* (``--out``) or written to
    *stream* (stdout), each line flushed as it is written.  Any :class:`OSError` (a directory,
    no permission, a full disk) becomes an :class:`OutputError` saying how many lines were
    written; a closed pipe (``| head``) is a :class:`BrokenPipeError`, for the caller to end quietly."""

    def __init__(self, path: str | None, stream: IO[str] | None = None):
        self.name = path if path is not None else "stdout"
        self.written = 0
        self._owned = path is not None
        if path is None:
            self.stream = stream if stream is not None else sys.stdout
            return
        try:
            self.stream = open(path, "a", encoding="utf-8")  # noqa: SIM115 - closed by close()
        except OSError as exc:
            raise self._error(exc) from None

    def _error(self, exc: OSError) -> OutputError:
        why = exc.strerror or str(exc)
        if not self.written:
            return OutputError(f"{self.name}: cannot write the results ({why}); none was written", 0)
        again = ": run again with the same --out to resume" if self._owned else ""
        written = f"{self.written:,} line{'s' * (self.written != 1)}"
        return OutputError(f"{self.name}: cannot write the results ({why}) after {written}, which are kept{again}", self.written)

    def write(self, record: dict) -> None:
        try:
            self.stream.write(json.dumps(record) + "\n")
            self.stream.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise self._error(exc) from None
        self.written += 1

    def close(self) -> None:
        if self._owned:
            try:
                self.stream.close()
            except OSError:
                pass  # the unwritten rest of a failed write: already reported by write()


def _use_directory(directory: str | None) -> None:
    if directory is not None and Path(directory).is_dir() and str(databases.directory()) != directory:
        databases.use_directory(directory)


def solve_item(
    ident: str,
    text: str,
    shape: str | None = None,
    bound: str | None = "auto",
    directory: str | None = None,
    goal: str | None = None,
    time_limit: float | None = None,
    *,
    stopped: Callable[[], bool] | None = None,
) -> dict[str, Any]:
    """Solve one position of a batch (in a worker): its JSON record, or ``{"id", "error", "code"}`` (:func:`error_record`).

    *directory* is the database directory (used when it exists on this machine; else the
    worker's own default, e.g. ``$FIFTEEN_DB``).  *stopped*: the pool's (polled by the search, it
    tells the pool the worker makes progress; true when the pool asks it to stop).  The anytime
    search (:mod:`fifteen.anytime`) answers with a *time_limit*, and without one for positions
    past optimal reach (:func:`~fifteen.limits.past_optimal_reach`) when *bound* is ``None``
    (not named: ``auto`` otherwise), in :data:`~fifteen.limits.DEFAULT_TIME_LIMIT` seconds.
    """
    try:
        _use_directory(directory)
        board = Board.parse(text, shape, goal)
        if time_limit is not None or (bound is None and past_optimal_reach(board.shape.size, start_bound(board))):
            limit = DEFAULT_TIME_LIMIT if time_limit is None else time_limit
            return {"id": ident, **anytime_solve(board, time_limit=limit, cancel=stopped, bound=bound or "auto").to_json()}
        sol = solve(board, bound or "auto", cancel=stopped)  # polled as the search goes: the pool sees progress
    except FifteenError as exc:
        return error_record(ident, str(exc), exc.code)
    except Exception as exc:  # a bug: this line's error, the other lines go on
        return error_record(ident, f"internal: {internal_message(exc)}", "internal")
    return {"id": ident, **sol.to_json()}


def error_record(ident: str, message: str, code: str) -> dict[str, Any]:
    """The output line of a position that got no answer: ``{"id", "error", "code"}``."""
    return {"id": ident, "error": message, "code": code}


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
        self.done = 0  # closed once


def _run_inline(items, shape, bound, directory, goal, time_limit) -> Generator[dict, None, None]:
    for item in items:
        yield solve_item(item.id, item.text, shape, bound, directory, goal, time_limit)


def _preload(items: list[Item], shape: str | None, bound: str | None) -> None:
    """Read the databases of the batch's shapes here, before the workers are forked: they share
    them copy-on-write (a spawned worker reads its own at its first position)."""
    shapes = set()
    for item in items:
        try:
            shapes.add(Board.parse(item.text, shape).shape)
        except FifteenError:
            continue
    for shp in shapes:
        try:
            resolve_bound(shp, bound or "auto").factory(shp, list(shp.goal()), lambda nodes: sys.maxsize)
        except FifteenError:
            continue  # reported per position by its worker


def _run_pool(
    items, shape, bound, directory, goal, time_limit, jobs: int, notice: Callable[[str], None], stall_seconds
) -> Generator[dict, None, None]:
    _preload(items, shape, bound)
    queue = deque(items)
    deaths: dict[str, int] = {}
    calls = itertools.count()
    with WorkerPool(min(jobs, len(items)), directory, stall_seconds=stall_seconds) as pool:
        running: dict[int, Item] = {}
        while queue or running:
            for w in pool.idle():
                if not queue:
                    break
                item = queue.popleft()
                key = next(calls)
                running[key] = item
                pool.submit(w, key, solve_item, item.id, item.text, shape, bound, directory, goal, time_limit)
            for event in pool.wait(1.0):
                item = running.pop(event.call_id, None) if event.call_id is not None else None
                if event.kind == "done":
                    yield event.value
                elif event.kind == "error" and item is not None:
                    yield error_record(item.id, f"internal: {event.value}", "internal")
                elif event.kind == "died":
                    if item is not None:
                        deaths[item.id] = deaths.get(item.id, 0) + 1
                        if deaths[item.id] >= 2:
                            notice(f"{describe_death(event)} on position {item.id} again: recorded as an error")
                            yield error_record(item.id, "a worker process died twice on this position (out of memory?)", "worker")
                        else:
                            notice(f"{describe_death(event)}; position {item.id} is re-run by another worker")
                            queue.appendleft(item)
                    pool.replace(event.worker)


#: Dask's own log lines that reach stderr: none but the critical.  A batch says what matters in its
#: own lines (a position whose worker died: its error line), so its stderr holds only its own
#: lines, with Dask's heartbeats, reconnections and shutdown notices (and their tracebacks when
#: a loaded machine makes a worker miss the scheduler's close) left out.
DASK_LOG_LEVEL = "critical"


def quiet_dask_logging() -> None:
    """Set Dask's loggers to :data:`DASK_LOG_LEVEL`, here and in the worker processes a
    ``LocalCluster`` starts: through Dask's configuration (``logging`` in ``dask.config``, which
    each process reads when it imports ``distributed``; the environment carries it to the
    workers), before ``distributed`` is imported, and on the loggers of this process."""
    for name in ("DASK_LOGGING__DISTRIBUTED", "DASK_LOGGING__TORNADO"):
        os.environ[name] = DASK_LOG_LEVEL
    for name in ("distributed", "tornado", "asyncio"):
        logging.getLogger(name).setLevel(DASK_LOG_LEVEL.upper())


def dask_client(address: str, jobs: int):
    """A Dask client: of a new ``LocalCluster`` (*address* ``local``, *jobs* single-threaded
    worker processes) or of the scheduler at *address*.  Dask's logging is quietened first
    (:func:`quiet_dask_logging`)."""
    quiet_dask_logging()
    try:  # an optional dependency (fifteen[cluster]): imported only when asked for
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise InputError("--dask needs Dask: pip install 'fifteen[cluster]' (dask[distributed])", code="unavailable") from None
    quiet_dask_logging()  # (importing distributed set its own levels)
    if address == "local":
        level = getattr(logging, DASK_LOG_LEVEL.upper())
        # No dashboard; the scheduler's own HTTP server (health checks) on a free port, not on
        # 8787, which another cluster of the machine may hold (Dask then warns).
        no_dashboard = {"dashboard": False, "dashboard_address": ":0"}
        cluster = LocalCluster(
            n_workers=jobs, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=level, scheduler_kwargs=no_dashboard
        )
        return Client(cluster)
    try:
        return Client(address, timeout="5s")
    except (OSError, TimeoutError) as exc:
        raise InputError(f"cannot reach the Dask scheduler at {address}: {exc}", code="unavailable") from None


def _run_dask(items, shape, bound, directory, goal, time_limit, client) -> Generator[dict, None, None]:
    from dask.distributed import as_completed  # optional (fifteen[cluster]); dask_client made the client

    futures = {}
    for item in items:
        future = client.submit(
            solve_item, item.id, item.text, shape, bound, directory, goal, time_limit, pure=False, key=f"fifteen-{id(item)}-{item.id}"
        )
        futures[future] = item
    for future in as_completed(futures):
        item = futures[future]
        try:
            yield future.result()
        except Exception as exc:  # a worker died too often (KilledWorker), or Dask failed
            yield error_record(item.id, f"{type(exc).__name__}: {exc}", "worker")


def run_batch(
    items: list[Item],
    write: Callable[[dict], None],
    *,
    jobs: int = 1,
    shape: str | None = None,
    bound: str | None = "auto",
    client: Any = None,
    progress: ProgressBar | None = None,
    notice: Callable[[str], None] | None = None,
    stall_seconds: float | None = STALL_SECONDS,
    goal: str | None = None,
    time_limit: float | None = None,
) -> tuple[int, int]:
    """Solve *items*, passing each record to *write* as it finishes; returns (solved, errors).

    *client*: a Dask client (else a local pool of *jobs* processes; one job runs here), whose
    workers are ended and their positions re-run after *stall_seconds* without progress
    (``None``: never); *goal*: every position's goal (a name or tiles; default the standard goal);
    *bound* ``None``: not named (``auto``, or the anytime search on boards past optimal reach);
    *time_limit*: every position's by the anytime search (:func:`solve_item`)."""
    directory = databases.directory()
    dirname = None if directory is None else str(directory)
    if client is not None:
        records = _run_dask(items, shape, bound, dirname, goal, time_limit, client)
    elif jobs <= 1 or len(items) <= 1:
        records = _run_inline(items, shape, bound, dirname, goal, time_limit)
    else:
        records = _run_pool(items, shape, bound, dirname, goal, time_limit, jobs, notice or print_notice, stall_seconds)
    solved = errors = 0
    try:
        for record in records:
            write(record)
            if "error" in record:
                errors += 1
            else:
                solved += 1
            if progress is not None:
                progress.update(record)
    finally:
        records.close()  # a failed write or an interruption: the pool's workers end now
    return solved, errors


__all__ = [
    "Item",
    "OutputLock",
    "ProgressBar",
    "Resume",
    "dask_client",
    "error_record",
    "read_items",
    "resume_from",
    "retried",
    "run_batch",
    "solve_item",
]
