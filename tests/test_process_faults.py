"""Nothing left behind when processes die: the parent of ``solve --jobs 2`` or ``batch --jobs 2``
killed (SIGKILL, SIGTERM, its stdout closed) leaves no worker behind and no one holding its stdout;
a worker killed (SIGKILL, SIGTERM) or stopped for good (SIGSTOP) has its work done by another.

Real processes throughout.  Every wait is for an *event* (a process gone, a pipe at its end, a
line written) with a generous deadline, never a duration asserted: how fast the workers go is
measured by bench/orphans.py, not here.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from fifteen import Board, Shape, batch, cli
from fifteen.bounds import databases
from fifteen.parallel import processes
from fifteen.parallel.processes import WorkerPool, solve_parallel
from support.ctrl_c import popen_interruptible
from support.positions import HARD_3X3, KORF, KT1, SET_3X3
from support.procs import DEADLINE, SPINNING_POOL, children, cpu_seconds, gone, state, wait_until

ROOT = Path(__file__).resolve().parents[1]
#: A position that takes minutes with MD (276 M nodes): a run is still busy when it is killed.
SLOW = " ".join(map(str, KORF["1"]))
SLOW_LINES = "".join(f"{i}\t{SLOW}\n" for i in "abcd")


def _env() -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=str(ROOT / "py"))


def workers_of(proc: subprocess.Popen, count: int = 2) -> list[int]:
    """The pids of the *count* worker processes of *proc*, once they are all started."""
    wait_until(f"{count} workers of pid {proc.pid}", lambda: len(children(proc.pid)) >= count or proc.poll() is not None)
    assert proc.poll() is None, proc.stderr.read() if proc.stderr else proc.returncode
    return children(proc.pid)


def reaches_eof(stream) -> bool:
    """Whether *stream* (a pipe) reaches its end within the deadline: no process holds its
    writing end any more (``fifteen batch ... | tee log`` finishes)."""
    done = threading.Event()

    def drain() -> None:
        while stream.read(65536):
            pass
        done.set()

    threading.Thread(target=drain, daemon=True).start()
    return done.wait(DEADLINE)


def start(args: list[str], *, driver: str | None = None, **kw) -> subprocess.Popen:
    """``python -m fifteen ARGS`` (or *driver*, a ``-c`` program that runs the CLI) in its own session."""
    head = [sys.executable, "-c", driver] if driver else [sys.executable, "-m", "fifteen"]
    kw.setdefault("stdout", subprocess.PIPE)
    kw.setdefault("stderr", subprocess.PIPE)
    return popen_interruptible(head + args, env=_env(), **kw)


# ------------------------------------------------------------------ the parent dies


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM], ids=["SIGKILL", "SIGTERM"])
@pytest.mark.parametrize("watch", ["prctl", "poll"])
def test_busy_workers_end_with_their_parent_however_it_dies(watch, sig):
    """The parent of a pool whose workers run calls that never end is killed: the workers end
    too (the kernel's parent-death signal; or the watch that polls the parent's pid)."""
    proc = popen_interruptible([sys.executable, "-c", SPINNING_POOL, watch], env=_env(), stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    pids = [int(p) for p in proc.stdout.readline().split()]
    assert len(pids) == 2, proc.communicate(timeout=DEADLINE)
    wait_until(f"workers {pids} busy", lambda: all(state(p) == "R" for p in pids))
    os.kill(proc.pid, sig)
    proc.wait(DEADLINE)
    wait_until(f"workers {pids} gone after their parent's {sig.name}", lambda: all(gone(p) for p in pids))


@pytest.mark.parametrize("command", ["solve", "batch"])
def test_parent_killed_with_sigkill_leaves_no_worker_and_closes_stdout(tmp_path, command):
    """``kill -9`` of the parent of ``solve --jobs 2`` or ``batch --jobs 2`` (each worker on a
    position for minutes): its workers end, and the pipe of its stdout reaches its end
    (``fifteen batch ... | tee log`` finishes)."""
    if command == "solve":
        args = ["solve", SLOW, "--bound", "md", "--jobs", "2"]
    else:
        (tmp_path / "in.txt").write_text(SLOW_LINES)
        args = ["batch", str(tmp_path / "in.txt"), "--bound", "md", "--jobs", "2"]
    proc = start(args, stderr=subprocess.DEVNULL)
    pids = workers_of(proc)
    wait_until(f"workers {pids} busy", lambda: all(state(p) == "R" for p in pids))
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(DEADLINE)
    wait_until(f"workers {pids} gone after their parent's SIGKILL", lambda: all(gone(p) for p in pids))
    assert proc.stdout is not None and reaches_eof(proc.stdout), "a worker still holds the caller's stdout"


@pytest.mark.parametrize("command", ["solve", "batch"])
def test_sigterm_ends_the_run_like_ctrl_c(tmp_path, command):
    """SIGTERM (``kill PID``) to the parent: one line, status 143, no worker left; a batch's
    finished lines are kept and the run resumes."""
    out = tmp_path / "out.jsonl"
    if command == "solve":
        args = ["solve", SLOW, "--bound", "md", "--jobs", "2"]
    else:
        (tmp_path / "in.txt").write_text(SLOW_LINES)
        args = ["batch", str(tmp_path / "in.txt"), "--bound", "md", "--jobs", "2", "--out", str(out), "--quiet"]
    proc = start(args, text=True)
    pids = workers_of(proc)
    os.kill(proc.pid, signal.SIGTERM)
    _, err = proc.communicate(timeout=DEADLINE)
    assert proc.returncode == 143, err
    wait_until(f"workers {pids} gone", lambda: all(gone(p) for p in pids))
    lines = err.splitlines()
    if command == "solve":
        progress = ("  bound ", "  the whole search", "  the optimal search is out of reach")  # the per-iteration lines and their estimates
        assert lines[-1] == "fifteen: terminated" and all(line.startswith(progress) for line in lines[:-1]), err
    else:
        assert lines == [f"fifteen: terminated; the finished results are in {out}: run again to resume"], err


# ------------------------------------------------------------------ SIGTERM during an anytime run
#: Printed by ``solve --anytime`` when a SIGTERM stops it (the best found follows on stdout).
TERMINATED_ANYTIME = "fifteen: terminated; the best found follows"


def _anytime_answer_started(proc: subprocess.Popen, jobs: int, output: str) -> list[int]:
    """Wait until the anytime run *proc* has a first solution (the pids of its workers): its
    first progress line (text); with ``--json``, which prints none, its workers started (the
    parallel search computes the first solution before) or 1.5 s of its CPU time (the first
    solution of KT1 takes about 0.1)."""
    pids = workers_of(proc, jobs) if jobs > 1 else []
    if output == "text":
        assert proc.stderr is not None
        wait_until("a first answer", lambda: " moves · optimal >= " in proc.stderr.readline())
    elif jobs == 1:
        wait_until("1.5 s of CPU time", lambda: cpu_seconds(proc.pid) >= 1.5 or proc.poll() is not None)
    assert proc.poll() is None, proc.communicate()
    return pids


@pytest.mark.parametrize(
    ("jobs", "output", "target"),
    [(1, "text", "parent"), (2, "text", "parent"), (1, "json", "parent"), (2, "json", "group"), (2, "text", "group")],
    ids=["jobs1-text", "jobs2-text", "jobs1-json", "jobs2-json-group", "jobs2-text-group"],
)
def test_sigterm_stops_an_anytime_solve_and_prints_the_best(jobs, output, target):
    """SIGTERM to ``solve --anytime`` (to the parent, or to its process group, workers included,
    as a service manager does): the search stops as on a first Ctrl-C, the best solution found is
    printed (text or JSON, with its lower bound, not optimal), the status is 143 and no worker is
    left (nor replaced: a notice would say so)."""
    args = ["solve", KT1, "--time-limit", "600", "--jobs", str(jobs)] + (["--json"] if output == "json" else [])
    proc = start(args, text=True)
    pids = _anytime_answer_started(proc, jobs, output)
    if target == "group":
        os.killpg(proc.pid, signal.SIGTERM)
    else:
        os.kill(proc.pid, signal.SIGTERM)
    out, err = proc.communicate(timeout=DEADLINE)
    assert proc.returncode == 143, err
    wait_until(f"workers {pids} gone", lambda: all(gone(p) for p in pids))
    lines = err.splitlines()
    assert lines.count(TERMINATED_ANYTIME) == 1 and all(" moves · optimal >= " in line for line in lines if line != TERMINATED_ANYTIME), err
    board = Board.parse(KT1)
    if output == "json":
        res = json.loads(out)
        assert res["stopped"] == "cancelled" and res["optimal"] is False and res["improvements"], res
        tiles, length, lower_bound = res["moves"], res["length"], res["lower_bound"]
        assert list(res)[-6:] == ["lower_bound", "optimal", "improvements", "stopped", "bounds", "summary"]
    else:
        found = re.search(r"^(\d+) moves found · optimal >= (\d+)$", out, re.M)
        assert found and "\nstopped: stopped by SIGTERM after " in out, out
        length, lower_bound = int(found[1]), int(found[2])
        tiles = [int(t) for t in out.split("tiles moved:")[1].splitlines()[0].split()]
    assert len(tiles) == length and board.solves(tiles) and lower_bound <= 100 <= length


def test_a_second_signal_interrupts_an_anytime_solve():
    """The first Ctrl-C or SIGTERM only stops the search (the best is printed); a second one
    interrupts as usual: KeyboardInterrupt, or Terminated (one line, status 130 or 143)."""
    from fifteen.cli import anytime as anytime_cli
    from fifteen.cli.guard import Terminated

    for first, second, raised, status in (
        (signal.SIGTERM, signal.SIGTERM, Terminated, 143),
        (signal.SIGINT, signal.SIGTERM, Terminated, 0),
        (signal.SIGINT, signal.SIGINT, KeyboardInterrupt, 0),
    ):
        stop = anytime_cli._SignalStop()
        assert not stop()
        stop.handler(first, None)
        assert stop() and stop.status == status
        with pytest.raises(raised) as exc:
            stop.handler(second, None)
        assert type(exc.value) is raised


@pytest.mark.parametrize("signum, raised", [(signal.SIGTERM, "Terminated"), (signal.SIGINT, "KeyboardInterrupt")])
def test_a_signal_inside_a_finalizer_interrupts_the_command_after_it(signum, raised):
    """A Ctrl-C or SIGTERM that lands while a ``__del__`` runs (a multiprocessing connection being
    collected, as in a batch) interrupts the command once the finalizer has returned: raised in
    the finalizer, Python would print the exception, ignore it, and the command would run on."""
    from fifteen.cli import guard

    steps = []

    class Collected:
        def __del__(self):
            signal.raise_signal(signum)  # the handler runs here, inside the finalizer
            steps.extend(range(3))

    previous = signal.signal(signum, guard.interrupt)
    try:
        with pytest.raises(KeyboardInterrupt) as exc:
            Collected()
            deadline = time.monotonic() + DEADLINE
            while time.monotonic() < deadline:
                pass
            pytest.fail("the command ran on")
    finally:
        signal.signal(signum, previous)
    assert type(exc.value).__name__ == raised and steps == [0, 1, 2]


def test_sigterm_during_a_batch_anytime_keeps_the_finished_lines(tmp_path):
    """SIGTERM to ``batch --anytime --jobs 2`` while two positions past optimal reach run (a time
    limit of 10 minutes) after two 3x3 ones were proven optimal: status 143, one line, the two
    finished lines kept, no worker left; the run resumes with the other two."""
    (tmp_path / "in.txt").write_text(f"a\t{HARD_3X3}\nb\t{HARD_3X3}\nc\t{KT1}\nd\t{KT1}\n")
    out = tmp_path / "out.jsonl"
    args = ["batch", str(tmp_path / "in.txt"), "--anytime", "--jobs", "2", "--out", str(out), "--quiet"]
    proc = start([*args, "--time-limit", "600"], text=True)
    pids = workers_of(proc)
    wait_until("the 3x3 lines written", lambda: out.exists() and out.read_text().count("\n") >= 2 or proc.poll() is not None)
    wait_until(f"workers {pids} busy on KT1", lambda: all(state(p) == "R" for p in pids) or proc.poll() is not None)
    os.kill(proc.pid, signal.SIGTERM)
    _, err = proc.communicate(timeout=DEADLINE)
    assert proc.returncode == 143, err
    assert err.splitlines() == [f"fifteen: terminated; the finished results are in {out}: run again to resume"], err
    wait_until(f"workers {pids} gone", lambda: all(gone(p) for p in pids))
    kept = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(r["id"] for r in kept) == ["a", "b"] and all(r["optimal"] and r["length"] == 31 for r in kept)
    resumed = subprocess.run(
        [sys.executable, "-m", "fifteen", *args, "--time-limit", "0.5"], capture_output=True, text=True, env=_env(), timeout=DEADLINE
    )
    assert resumed.returncode == 0, resumed.stderr
    again = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(r["id"] for r in again) == ["a", "b", "c", "d"]
    assert all(Board.parse(KT1).solves(r["moves"]) and r["lower_bound"] <= 100 for r in again[2:])


def test_sigterm_during_a_dask_batch_says_one_line_of_its_own(tmp_path):
    """SIGTERM to ``batch --dask local`` while its LocalCluster's workers search: status 143 and
    one line on stderr, the batch's own (Dask's logging is configured: no heartbeat, shutdown or
    traceback lines of its workers or scheduler), the finished lines kept."""
    (tmp_path / "in.txt").write_text(f"a\t{HARD_3X3}\nc\t{KT1}\nd\t{KT1}\n")
    out = tmp_path / "out.jsonl"
    args = ["batch", str(tmp_path / "in.txt"), "--anytime", "--time-limit", "600", "--dask", "local", "--jobs", "2", "--out", str(out)]
    proc = start([*args, "--quiet"], text=True)
    wait_until("the 3x3 line written", lambda: out.exists() and out.read_text().count("\n") >= 1 or proc.poll() is not None)
    os.kill(proc.pid, signal.SIGTERM)  # (the KT1 lines under way on the workers: a 10-minute limit)
    _, err = proc.communicate(timeout=DEADLINE)
    assert proc.returncode == 143, err
    assert err.splitlines() == [f"fifteen: terminated; the finished results are in {out}: run again to resume"], err
    assert [json.loads(line)["id"] for line in out.read_text().splitlines()] == ["a"]


def test_ctrl_c_during_a_batch_still_one_line(tmp_path):
    """SIGINT to the process group (Ctrl-C) of ``batch --jobs 2``: status 130, one line, no worker left."""
    (tmp_path / "in.txt").write_text(SLOW_LINES)
    proc = start(["batch", str(tmp_path / "in.txt"), "--bound", "md", "--jobs", "2", "--quiet"], text=True)
    pids = workers_of(proc)
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=DEADLINE)
    assert proc.returncode == 130 and err.splitlines() == ["fifteen: interrupted"], err
    wait_until(f"workers {pids} gone", lambda: all(gone(p) for p in pids))


def test_stdout_closed_by_its_reader_ends_the_batch_quietly(tmp_path):
    """``fifteen batch ... | head -1``: once the reader has gone, the batch ends (status 141, as a
    shell reports SIGPIPE) without a traceback or an internal error, and no worker is left."""
    # more lines than a pipe holds: the batch is still writing when its reader goes
    (tmp_path / "in.txt").write_text("".join(f"{' '.join(map(str, t))}\n" for t in SET_3X3 * 400))
    proc = start(["batch", str(tmp_path / "in.txt"), "--jobs", "2", "--bound", "md", "--quiet"])
    assert proc.stdout is not None and proc.stderr is not None
    assert json.loads(proc.stdout.readline())["length"] >= 0
    pids = workers_of(proc) if proc.poll() is None else []
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.wait(DEADLINE)
    assert proc.returncode == 141 and err == "", err
    wait_until("workers gone", lambda: all(gone(p) for p in pids))


# ------------------------------------------------------------------ what a worker holds
def _noop(*, stopped) -> int:
    return os.getpid()


def test_a_worker_holds_no_other_pipe_and_not_the_callers_stdout():
    """The root of the orphans: a forked worker closes the parent's ends of every pipe (its own
    and the other workers'), so it sees the end of its pipe when the parent dies, and it does
    not hold the caller's stdout."""
    with WorkerPool(3) as pool:
        for w in pool.workers:  # a call answered: the worker is past its start-up
            pool.submit(w, w.index, _noop)
        answered = []
        wait_until("three answers", lambda: answered.extend(e for e in pool.wait(0.5) if e.kind == "done") or len(answered) == 3)
        parent_ends = {f"socket:[{os.fstat(w.conn.fileno()).st_ino}]" for w in pool.workers}
        for w in pool.workers:
            fds = {fd: os.readlink(f"/proc/{w.process.pid}/fd/{fd}") for fd in os.listdir(f"/proc/{w.process.pid}/fd")}
            assert not parent_ends & set(fds.values()), (w.index, fds)
            assert fds["1"] == os.devnull


def _signal_mask(pid: int, field: str) -> int:
    line = next(x for x in Path(f"/proc/{pid}/status").read_text().splitlines() if x.startswith(field + ":"))
    return int(line.split()[1], 16)


def test_a_ctrl_c_while_a_worker_starts_is_not_lost():
    """SIGINT while a worker is being started is held, then reaches the parent (it was ignored
    there, so a Ctrl-C at that instant did nothing); the started worker ignores SIGINT, has
    SIGTERM at its default (the CLI's handler is not its own) and blocks neither."""
    # Ctrl-C's handler, as in a program run from a terminal: a suite started in the background
    # (``make test &``) inherits SIGINT ignored, and Python then installs none
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            with processes._signals_held():
                os.kill(os.getpid(), signal.SIGINT)
                time.sleep(0.05)  # held: nothing raised here
            pytest.fail("the held SIGINT was lost")
    finally:
        signal.signal(signal.SIGINT, previous)
    with WorkerPool(1) as pool:
        w = pool.workers[0]
        pool.submit(w, "x", _noop)
        wait_until("an answer", lambda: any(e.kind == "done" for e in pool.wait(0.5)))
        bit = lambda sig: 1 << (sig - 1)  # noqa: E731
        assert _signal_mask(w.process.pid, "SigIgn") & bit(signal.SIGINT)
        assert not _signal_mask(w.process.pid, "SigIgn") & bit(signal.SIGTERM)
        assert not _signal_mask(w.process.pid, "SigBlk") & (bit(signal.SIGINT) | bit(signal.SIGTERM))


# ------------------------------------------------------------------ a worker dies or stops
def _stop_then(sig: int, at: tuple[int, ...], record: list[int]):
    """A WorkerPool.submit that, at the submits numbered *at*, stops the worker first (so it
    cannot finish before the signal lands), hands it the call, then sends *sig* (and SIGCONT)."""
    submit = WorkerPool.submit
    count = [0]

    def patched(self, worker, call_id, fn, *args):
        count[0] += 1
        doomed = count[0] in at
        if doomed:
            os.kill(worker.process.pid, signal.SIGSTOP)
            record.append(worker.process.pid)
        submit(self, worker, call_id, fn, *args)
        if doomed and sig != signal.SIGSTOP:
            os.kill(worker.process.pid, sig)
            os.kill(worker.process.pid, signal.SIGCONT)

    return patched


def test_a_worker_terminated_is_replaced_its_tasks_rerun(monkeypatch, capsys):
    """SIGTERM to a worker of ``solve --jobs 2`` (the CLI has its own SIGTERM handler, which a
    forked worker must not keep): the worker dies, its tasks are run by another, the answer
    is the optimal one."""
    databases.ensure_for(Shape(4, 4))
    stopped: list[int] = []
    monkeypatch.setattr(WorkerPool, "submit", _stop_then(signal.SIGTERM, (8,), stopped))
    assert cli.main(["solve", " ".join(map(str, KORF["1"])), "--bound", "pdb663", "--jobs", "2", "--json"]) == 0
    out, err = capsys.readouterr()
    result = json.loads(out)
    assert result["length"] == 57 and Board(Shape(4, 4), KORF["1"]).solves(result["moves"])
    assert stopped and f"(pid {stopped[0]}) died (killed by SIGTERM); its tasks are re-run by another worker" in err, err


def _continue_later(pids: list[int], seconds: float) -> threading.Timer:
    """Resume the stopped workers after *seconds* anyway, so a broken stall detection fails the
    test instead of hanging it."""

    def resume() -> None:
        for pid in pids:
            try:
                os.kill(pid, signal.SIGCONT)
            except ProcessLookupError:
                pass

    timer = threading.Timer(seconds, resume)
    timer.daemon = True
    timer.start()
    return timer


def test_a_stopped_worker_is_noticed_and_its_tasks_given_to_another(monkeypatch):
    """SIGSTOP to a worker, never resumed: after ``stall_seconds`` without progress the pool says
    so, ends it and hands its tasks to another; the answer is the optimal one, with the serial
    node counts."""
    databases.ensure_for(Shape(4, 4))
    stopped: list[int] = []
    notices: list[str] = []
    monkeypatch.setattr(WorkerPool, "submit", _stop_then(signal.SIGSTOP, (8,), stopped))
    timer = _continue_later(stopped, 240)
    try:
        sol = solve_parallel(Board(Shape(4, 4), KORF["1"]), "pdb663", jobs=2, notice=notices.append, stall_seconds=3)
    finally:
        timer.cancel()
    assert sol.length == 57 and sol.board.solves(sol.tiles)
    assert [it.nodes for it in sol.result.iterations[:-1]] == [29, 241, 1709, 12047, 81346]
    mine = [n for n in notices if f"(pid {stopped[0]})" in n]
    assert mine and "made no progress for" in mine[0] and "(stopped?) and was ended; its tasks are re-run by another worker" in mine[0], (
        notices
    )


def test_a_stopped_batch_worker_is_noticed_and_its_position_rerun(monkeypatch):
    from support.bfs import distances

    bfs = distances(Shape(3, 3))
    stopped: list[int] = []
    notices: list[str] = []
    records: list[dict] = []
    monkeypatch.setattr(WorkerPool, "submit", _stop_then(signal.SIGSTOP, (3,), stopped))
    items = [batch.Item(str(i), " ".join(map(str, t))) for i, t in enumerate(SET_3X3)]
    timer = _continue_later(stopped, 240)
    try:
        batch.run_batch(items, records.append, jobs=2, bound="md", notice=notices.append, stall_seconds=2)
    finally:
        timer.cancel()
    assert sorted(r["id"] for r in records) == sorted(item.id for item in items)
    assert all(r["length"] == bfs[bytes(SET_3X3[int(r["id"])])] for r in records)
    assert any(f"(pid {stopped[0]}) made no progress for" in n and "is re-run by another worker" in n for n in notices), notices


def test_stall_seconds_option():
    """``--stall-seconds``: 0 is never; negative is refused in one line."""
    assert processes.resolve_stall_seconds(0) is None and processes.resolve_stall_seconds(2.5) == 2.5
    res = subprocess.run(
        [sys.executable, "-m", "fifteen", "solve", "1 2 3 0", "--jobs", "2", "--stall-seconds", "-1"],
        capture_output=True,
        text=True,
        env=_env(),
        timeout=DEADLINE,
    )
    assert res.returncode == 2 and res.stderr.splitlines() == [
        "fifteen: error: --stall-seconds must be 0 (never) or a positive number of seconds, not -1.0"
    ]
