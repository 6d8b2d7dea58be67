"""Batches (fifteen.batch, ``python -m fifteen batch``): ids, comments, one JSON line per
position with optimal lengths (BFS, Korf's table) and replayable moves, errors per line,
resume after an interrupted run, a worker killed mid-batch, and a real Dask LocalCluster;
nothing lost: duplicate ids refused, lines that end at newlines only, a byte order mark
ignored, outputs that cannot be written (a directory, another file, a full disk) reported in
one line with what was kept.  Processes killed: tests/test_process_faults.py.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from fifteen import Board, InputError, Shape, batch
from instances import read
from support.bfs import distances
from support.ctrl_c import popen_interruptible
from support.positions import OWN_MIRROR_3X3, SET_3X3

ROOT = Path(__file__).resolve().parents[1]
KORF = {i.id: i for i in read("korf100.tsv")}
QUICK_KORF = ("55", "79", "12", "42")  # the fewest nodes with pdb663 (data/korf100-pdb663-nodes.tsv)


def _cli(*args, timeout=300):
    env = dict(os.environ, PYTHONPATH=str(ROOT / "py"))
    return subprocess.run([sys.executable, "-m", "fifteen", *args], capture_output=True, text=True, env=env, timeout=timeout)


def _text(tiles) -> str:
    return " ".join(map(str, tiles))


@pytest.fixture(scope="module")
def bfs_3x3():
    return distances(Shape(3, 3))


def _records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def _check(records, expected: dict[str, int]) -> None:
    """Each id once, its optimal length, moves and directions that solve the position."""
    ids = [r["id"] for r in records]
    assert sorted(ids) == sorted(expected)
    for r in records:
        assert r["length"] == expected[r["id"]], r["id"]
        board = Board.from_tiles(r["tiles"], r["shape"])
        assert board.solves(r["moves"]) and board.apply(r["directions"]).is_goal()
        assert len(r["moves"]) == r["length"] and r["nodes"] >= 0 and r["seconds"] >= 0


def test_read_items(tmp_path):
    f = tmp_path / "in.txt"
    f.write_text("# a comment\n\n1 2 3 4 5 6 7 0 8\nfirst\t1 2 3 4 5 6 0 7 8\n   # indented comment\n\t1 2 3 4 5 6 7 8 0\n")
    assert batch.read_items(f) == [
        batch.Item("3", "1 2 3 4 5 6 7 0 8"),
        batch.Item("first", "1 2 3 4 5 6 0 7 8"),
        batch.Item("6", "1 2 3 4 5 6 7 8 0"),
    ]


def test_batch_pool_lengths_and_errors(tmp_path, bfs_3x3):
    positions = list(SET_3X3) + list(OWN_MIRROR_3X3)
    lines = ["# 3x3 positions and two bad lines"] + [f"p{i}\t{_text(t)}" for i, t in enumerate(positions)]
    lines += ["bad\t1 2 3 4 5 6 7 8 8", "1 2 3 4 5 6 8 7 0"]
    f = tmp_path / "in.txt"
    f.write_text("\n".join(lines) + "\n")
    out = tmp_path / "out.jsonl"
    res = _cli("batch", str(f), "--jobs", "2", "--out", str(out), "--bound", "wdid")
    assert res.returncode == 1, res.stderr  # some lines are errors
    assert res.stdout == ""
    records = _records(out)
    errors = {r["id"]: r["error"] for r in records if "error" in r}
    assert set(errors) == {"bad", str(len(lines))}
    assert "duplicate" in errors["bad"] and "unsolvable" in errors[str(len(lines))]
    _check([r for r in records if "error" not in r], {f"p{i}": bfs_3x3[bytes(t)] for i, t in enumerate(positions)})
    assert f"batch: {len(positions)} solved, 2 errors, 0 skipped" in res.stderr
    assert "batch: [" in res.stderr  # the progress bar


def test_batch_stdout_korf_one_job(tmp_path):
    f = tmp_path / "in.txt"
    f.write_text("".join(f"{i}\t{_text(KORF[i].tiles)}\n" for i in QUICK_KORF))
    res = _cli("batch", str(f), "--jobs", "1", "--bound", "pdb663", "--quiet")
    assert res.returncode == 0 and res.stderr == ""
    records = [json.loads(line) for line in res.stdout.splitlines()]
    assert [r["id"] for r in records] == list(QUICK_KORF)  # one job: in order
    _check(records, {i: KORF[i].optimal for i in QUICK_KORF})
    assert {r["bound"] for r in records} == {"pdb663"}


def test_batch_resume(tmp_path, bfs_3x3):
    """Ids already in the output are skipped; a last line cut short by the interruption is dropped."""
    f = tmp_path / "in.txt"
    f.write_text("".join(f"{_text(t)}\n" for t in SET_3X3))
    out = tmp_path / "out.jsonl"
    first = batch.solve_item("1", _text(SET_3X3[0]), None, "lc")
    out.write_text(json.dumps(first) + "\n" + '{"id": "2", "tiles": [4, 1')
    res = _cli("batch", str(f), "--jobs", "2", "--out", str(out))
    assert res.returncode == 0, res.stderr
    assert "batch: 1 positions already in the output, skipped" in res.stderr
    records = _records(out)
    assert records[0] == first
    _check(records, {str(i + 1): bfs_3x3[bytes(t)] for i, t in enumerate(SET_3X3)})
    again = _cli("batch", str(f), "--out", str(out))
    assert again.returncode == 0 and _records(out) == records
    assert f"batch: 0 solved, 0 errors, {len(SET_3X3)} skipped" in again.stderr


def test_batch_interrupted_then_resumed(tmp_path):
    """Ctrl-C in the middle of a run: the finished results are on disk, the rerun adds the rest."""
    ids = ("55", "79", "12", "42", "47", "30", "19", "71", "9", "46")
    f = tmp_path / "in.txt"
    f.write_text("".join(f"{i}\t{_text(KORF[i].tiles)}\n" for i in ids))
    out = tmp_path / "out.jsonl"
    env = dict(os.environ, PYTHONPATH=str(ROOT / "py"))
    proc = popen_interruptible(
        [sys.executable, "-m", "fifteen", "batch", str(f), "--jobs", "1", "--out", str(out), "--bound", "md"],
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not (out.exists() and out.read_text().count("\n") >= 1):
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and "run again to resume" in err and "Traceback" not in err
    kept = _records(out)
    assert 1 <= len(kept) < len(ids)
    res = _cli("batch", str(f), "--jobs", "2", "--out", str(out), "--bound", "pdb663", "--quiet")
    assert res.returncode == 0, res.stderr
    _check(_records(out), {i: KORF[i].optimal for i in ids})


def test_batch_worker_killed(tmp_path, bfs_3x3):
    """A pool process killed mid-batch: its position is re-run by another one, every result kept."""
    from fifteen.parallel import processes

    killed: list[int] = []
    submit = processes.WorkerPool.submit

    def submit_then_kill(self, worker, call_id, fn, *args):
        submit(self, worker, call_id, fn, *args)
        if call_id == 3 and not killed:
            killed.append(worker.process.pid)
            os.kill(worker.process.pid, signal.SIGKILL)

    notices: list[str] = []
    items = [batch.Item(str(i), _text(t)) for i, t in enumerate(SET_3X3)]
    records: list[dict] = []
    processes.WorkerPool.submit = submit_then_kill  # type: ignore[method-assign]
    try:
        batch.run_batch(items, records.append, jobs=2, bound="lc", notice=notices.append)
    finally:
        processes.WorkerPool.submit = submit  # type: ignore[method-assign]
    assert killed and len(notices) == 1 and "re-run by another worker" in notices[0]
    _check(records, {str(i): bfs_3x3[bytes(t)] for i, t in enumerate(SET_3X3)})


def test_batch_dask_local_cluster():
    """A real Dask LocalCluster (in-process workers, to keep the test quick) runs solve_item."""
    from dask.distributed import Client, LocalCluster

    items = [batch.Item(i, _text(KORF[i].tiles)) for i in QUICK_KORF]
    records: list[dict] = []
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as cluster, Client(cluster) as client:
        solved, errors = batch.run_batch(items + [batch.Item("bad", "1 2 3")], records.append, client=client, bound="pdb663")
    assert (solved, errors) == (len(QUICK_KORF), 1)
    _check([r for r in records if "error" not in r], {i: KORF[i].optimal for i in QUICK_KORF})


def test_cli_dask_local(tmp_path, bfs_3x3):
    """``--dask local``: a LocalCluster of worker processes, from the command line."""
    f = tmp_path / "in.txt"
    f.write_text("".join(f"{_text(t)}\n" for t in SET_3X3[:4]))
    out = tmp_path / "out.jsonl"
    res = _cli("batch", str(f), "--dask", "local", "--jobs", "1", "--out", str(out), "--bound", "wdid")
    assert res.returncode == 0, res.stderr
    _check(_records(out), {str(i + 1): bfs_3x3[bytes(t)] for i, t in enumerate(SET_3X3[:4])})


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["batch", "/nonexistent/positions.txt"], "fifteen: error: /nonexistent/positions.txt: cannot read (No such file or directory)"),
        (
            ["batch", "{file}", "--jobs", "-2"],
            "fifteen: error: --jobs must be 0 (every core) or a number of worker processes from 1 to 256, not -2",
        ),
        (["batch", "{file}", "--shape", "3x"], "fifteen: error:"),
        (["batch", "{file}", "--dask", "tcp://127.0.0.1:9"], "fifteen: error: cannot reach the Dask scheduler at tcp://127.0.0.1:9"),
    ],
)
def test_cli_batch_errors_one_line(tmp_path, args, message):
    f = tmp_path / "in.txt"
    f.write_text("1 2 3 4 5 6 7 0 8\n")
    res = _cli(*[a.replace("{file}", str(f)) for a in args], timeout=120)
    assert res.returncode == 2, res.stderr
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(message), res.stderr


# ------------------------------------------------------------------ lines and ids (nothing lost on resume)
def test_duplicate_ids_are_refused_before_any_work(tmp_path):
    """An explicit id equal to another line's number (``4<TAB>...`` on line 1, plain text on line
    4), or two lines with one id: refused, naming both lines, before anything is solved -- else a
    run killed after the first would skip the second on resume ("2 skipped", never solved)."""
    good = _text(SET_3X3[0])
    for lines, message in [
        ([f"4\t{good}", good, good, good], "lines 1 and 4 have the same id '4'"),
        ([f"x\t{good}", f"y\t{good}", f" x \t{good}"], "lines 1 and 3 have the same id 'x'"),
    ]:
        f = tmp_path / "in.txt"
        f.write_text("\n".join(lines) + "\n")
        with pytest.raises(InputError, match=message) as err:
            batch.read_items(f)
        assert err.value.code == "duplicate"
        out = tmp_path / "out.jsonl"
        res = _cli("batch", str(f), "--out", str(out), "--jobs", "1")
        assert res.returncode == 2 and res.stderr.splitlines() == [f"fifteen: error: {err.value}"]
        assert not out.exists()  # nothing was started


def test_lines_end_at_newlines_only_and_a_bom_is_ignored(tmp_path):
    """Ids are the file's line numbers (``wc -l``): form feed, ``\\x85``, ``\\u2028`` and a lone
    ``\\r`` do not end a line (str.splitlines would split there); ``\\r\\n`` does; a UTF-8 byte
    order mark at the start is not part of line 1 (nor of its id)."""
    a, b, c = (_text(t) for t in SET_3X3[:3])
    f = tmp_path / "in.txt"
    f.write_bytes(("\ufeff" + f"{a}\r\n{b}\x0c\r\n# note\x85more\n{c}\u2028\nlast\t{a}\n").encode())
    assert batch.read_items(f) == [batch.Item("1", a), batch.Item("2", b), batch.Item("4", c), batch.Item("last", a)]
    f.write_bytes(("\ufeff" + f"first\t{a}\n").encode())
    assert batch.read_items(f) == [batch.Item("first", a)]
    assert batch.lines_of("a\rb\nc\r\nd") == ["a\rb", "c", "d"]
    f.write_bytes(b"\xff\xfe1 2 3 0\n")
    with pytest.raises(InputError, match="not a text file"):
        batch.read_items(f)


def test_every_line_is_solved_once_across_a_resume(tmp_path, bfs_3x3):
    """The issue's case, made unique: ids that look like line numbers, a run cut after its first
    results, then resumed: every input line has exactly one result, none skipped unreported."""
    lines = [f"{i + 10}\t{_text(t)}" for i, t in enumerate(SET_3X3[:3])] + [_text(t) for t in SET_3X3[3:6]]
    f = tmp_path / "in.txt"
    f.write_text("\n".join(lines) + "\n")
    items = batch.read_items(f)
    out = tmp_path / "out.jsonl"
    out.write_text(
        json.dumps(batch.solve_item(items[0].id, items[0].text)) + "\n" + json.dumps(batch.solve_item(items[4].id, items[4].text)) + "\n"
    )
    res = _cli("batch", str(f), "--out", str(out), "--jobs", "2")
    assert res.returncode == 0, res.stderr
    assert "batch: 4 solved, 0 errors, 2 skipped" in res.stderr
    _check(_records(out), {item.id: bfs_3x3[bytes(Board.parse(item.text).tiles)] for item in items})


# ------------------------------------------------------------------ where the results go
@pytest.mark.parametrize(
    ("target", "message"),
    [
        ("{dir}", "fifteen: error: {dir}: cannot be the output (Is a directory)"),
        ("/proc/version", "fifteen: error: /proc/version: line 1 is not a result of fifteen batch: give another --out"),
        (
            "{dir}/none/out.jsonl",
            "fifteen: error: {dir}/none/out.jsonl: cannot write the results (No such file or directory); none was written",
        ),
        ("/dev/full", "fifteen: error: /dev/full: cannot write the results (No space left on device); none was written"),
    ],
    ids=["directory", "proc-version", "missing-directory", "dev-full"],
)
def test_an_output_that_cannot_be_written_is_one_line_status_2(tmp_path, target, message):
    """``--out`` a directory, a file that is not a batch's results, a path in no directory, a
    full disk from the first line: one line, status 2 (an input/OS error, not an internal one)."""
    f = tmp_path / "in.txt"
    f.write_text("".join(f"{_text(t)}\n" for t in SET_3X3[:3]))
    res = _cli("batch", str(f), "--out", target.format(dir=tmp_path), "--jobs", "1", "--quiet")
    assert res.returncode == 2 and res.stderr.splitlines() == [message.format(dir=tmp_path)], res.stderr


def test_stdout_on_a_full_disk_is_one_line_status_2(tmp_path):
    f = tmp_path / "in.txt"
    f.write_text("".join(f"{_text(t)}\n" for t in SET_3X3[:3]))
    env = dict(os.environ, PYTHONPATH=str(ROOT / "py"))
    with open("/dev/full", "w") as full:
        res = subprocess.run(
            [sys.executable, "-m", "fifteen", "batch", str(f), "--jobs", "2", "--quiet"],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            timeout=120,
        )
    assert res.returncode == 2
    assert res.stderr.splitlines() == ["fifteen: error: stdout: cannot write the results (No space left on device); none was written"]


def _small_files(limit: int):
    """In the child: files of at most *limit* bytes (RLIMIT_FSIZE: a write past it fails with
    EFBIG, as on a disk that fills up; Python ignores SIGXFSZ)."""
    import resource

    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return apply


def test_a_disk_full_after_some_lines_keeps_them_and_resumes(tmp_path, bfs_3x3):
    """The output fills up after some lines: status 1, one line saying how many were written; the
    file ends with whole lines (or one cut short, dropped on resume); the resumed run adds the rest."""
    f = tmp_path / "in.txt"
    f.write_text("".join(f"{_text(t)}\n" for t in SET_3X3))
    out = tmp_path / "out.jsonl"
    env = dict(os.environ, PYTHONPATH=str(ROOT / "py"))
    # one job: a pool's shared memory is a file too, which the limit would refuse
    res = subprocess.run(
        [sys.executable, "-m", "fifteen", "batch", str(f), "--out", str(out), "--jobs", "1", "--quiet"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        preexec_fn=_small_files(700),
    )
    assert res.returncode == 1, res.stderr
    [line] = res.stderr.splitlines()
    kept = [json.loads(x) for x in out.read_text().splitlines(keepends=True) if x.endswith("\n")]
    assert 1 <= len(kept) < len(SET_3X3)
    word = "line" if len(kept) == 1 else "lines"
    expected = f"fifteen: error: {out}: cannot write the results (File too large) after {len(kept)} {word}, which are kept"
    assert line == expected + ": run again with the same --out to resume"
    again = _cli("batch", str(f), "--out", str(out), "--jobs", "2")
    assert again.returncode == 0 and f"{len(kept)} skipped" in again.stderr, again.stderr
    _check(_records(out), {str(i + 1): bfs_3x3[bytes(t)] for i, t in enumerate(SET_3X3)})


def test_a_file_that_is_not_a_batchs_output_is_left_as_it_is(tmp_path):
    """``--out`` naming another file (no newline at its end): refused, not cut at its last newline."""
    f = tmp_path / "in.txt"
    f.write_text(f"{_text(SET_3X3[0])}\n")
    notes = tmp_path / "notes.txt"
    for text in ["my notes\nthe last line, unfinished", "only a line, unfinished", json.dumps({"id": "1"}) + "\nnot json"]:
        notes.write_text(text)
        res = _cli("batch", str(f), "--out", str(notes), "--jobs", "1")
        assert res.returncode == 2 and "is not a result of fifteen batch: give another --out" in res.stderr, res.stderr
        assert notes.read_text() == text


# ------------------------------------------------------------------ a resume runs again what failed; one run per output
def test_a_resume_runs_again_what_failed_for_no_fault_of_its_input(tmp_path, bfs_3x3):
    """A worker killed on position 2 every time it runs it: its line says so (code ``worker``);
    the next run with the same --out solves it, says so, and keeps the input error of line 4 and
    the result of line 1; older lines without a code (``internal:``, a Dask error) are run again."""
    from fifteen.parallel import processes

    lines = [_text(t) for t in SET_3X3[:3]] + ["1 2 3 4 5 6 8 7 0"]
    f = tmp_path / "in.txt"
    f.write_text("\n".join(lines) + "\n")
    items = batch.read_items(f)
    out = tmp_path / "out.jsonl"
    submit = processes.WorkerPool.submit

    def submit_then_kill(self, worker, call_id, fn, *args):
        if args[0] == "2":  # solve_item's id: the worker dies as it takes it
            os.kill(worker.process.pid, signal.SIGKILL)
            worker.process.join()
        submit(self, worker, call_id, fn, *args)

    output = batch.Output(str(out))
    processes.WorkerPool.submit = submit_then_kill  # type: ignore[method-assign]
    try:
        batch.run_batch(items[:2] + items[3:], output.write, jobs=2, bound="md", notice=lambda m: None)
    finally:
        processes.WorkerPool.submit = submit  # type: ignore[method-assign]
        output.close()
    with out.open("a") as o:  # position 3 as older runs wrote an internal error (no code)
        o.write(json.dumps({"id": "3", "error": "internal: ValueError: something (x.py:1)"}) + "\n")
    first = {r["id"]: r for r in _records(out)}
    assert first["2"] == {"id": "2", "error": "a worker process died twice on this position (out of memory?)", "code": "worker"}
    assert first["4"]["code"] == "unsolvable" and "length" in first["1"]
    res = _cli("batch", str(f), "--jobs", "1", "--out", str(out), "--bound", "md")
    assert res.returncode == 0, res.stderr
    assert res.stderr.splitlines()[0] == (
        "batch: 2 positions whose line was an error not of its input (a worker that died, a damaged database,"
        " an internal error) are run again: 2, 3"
    )
    assert "batch: 2 solved, 0 errors, 2 skipped" in res.stderr
    records = _records(out)
    assert sorted(r["id"] for r in records) == ["1", "2", "3", "4"]  # each id once: the failed lines removed
    assert sorted(records[:2], key=lambda r: r["id"]) == [first["1"], first["4"]]  # kept as they were (in the order two workers wrote them)
    _check([r for r in records if r["id"] != "4"], {str(i + 1): bfs_3x3[bytes(t)] for i, t in enumerate(SET_3X3[:3])})
    again = _cli("batch", str(f), "--jobs", "1", "--out", str(out), "--quiet")
    assert again.returncode == 0 and again.stderr == "" and _records(out) == records  # an input error stays


def test_resume_from_keeps_the_file_whole_and_its_permissions(tmp_path):
    out = tmp_path / "out.jsonl"
    ok = {"id": "a", "length": 3}
    out.write_text(json.dumps(ok) + "\n" + json.dumps(batch.error_record("b", "x", "asset_corrupt")) + "\n" + '{"id": "c", "le')
    out.chmod(0o640)
    resume = batch.resume_from(out)
    assert resume == batch.Resume({"a"}, ["b"])
    assert out.read_text() == json.dumps(ok) + "\n" and out.stat().st_mode & 0o777 == 0o640
    assert list(tmp_path.iterdir()) == [out]
    assert batch.retried({"id": "x", "error": "m", "code": "worker"}) and batch.retried({"id": "x", "error": "KilledWorker: ..."})
    assert not batch.retried({"id": "x", "error": "m", "code": "duplicate"}) and not batch.retried(ok)


def test_two_runs_on_one_output_one_refuses_and_no_id_is_written_twice(tmp_path):
    """Started together: one holds ``OUT.lock`` for its whole run, the other stops at once (status
    2, one line); every id is in the output once.  A lock file left by a killed run (the kernel
    released its lock) does not block the next run."""
    from support.positions import korf_taylor

    f = tmp_path / "in.txt"
    f.write_text("".join(f"kt{number}\t{_text(tiles)}\n" for number, tiles, _ in korf_taylor()[:2]))
    out = tmp_path / "out.jsonl"
    env = dict(os.environ, PYTHONPATH=str(ROOT / "py"))
    args = [sys.executable, "-m", "fifteen", "batch", str(f), "--out", str(out), "--jobs", "1", "--time-limit", "2", "--quiet"]
    runs = [subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env) for _ in range(2)]
    ended = [(run.wait(timeout=120), run.stderr.read()) for run in runs]
    for run in runs:
        run.stdout.close()
        run.stderr.close()
    refused = [err for status, err in ended if status == 2]
    assert sorted(status for status, _ in ended) == [0, 2], ended
    assert refused[0] == (
        f"fifteen: error: {out}: another fifteen batch is writing it (it holds {out}.lock); wait for it to end, or give another --out\n"
    )
    assert sorted(r["id"] for r in _records(out)) == ["kt1", "kt2"]
    assert not Path(f"{out}.lock").exists()  # removed by the run that held it
    Path(f"{out}.lock").write_text("")  # left by a run killed with kill -9: nobody holds it
    out.write_text(out.read_text().splitlines(keepends=True)[0])
    res = _cli("batch", str(f), "--out", str(out), "--jobs", "1", "--time-limit", "2", "--quiet")
    assert res.returncode == 0, res.stderr
    assert sorted(r["id"] for r in _records(out)) == ["kt1", "kt2"]
