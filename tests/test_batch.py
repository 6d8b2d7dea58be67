"""Batches (fifteen.parallel.batch, ``python -m fifteen batch``): ids, comments, one JSON line per
position with optimal lengths (BFS, Korf's table) and replayable moves, errors per line,
resume after an interrupted run, a worker killed mid-batch, and a real Dask LocalCluster.
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

from fifteen import Board, Shape
from fifteen.parallel import batch
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
        (["batch", "{file}", "--jobs", "-2"], "fifteen: error: --jobs must be 0 (every core) or a positive number, not -2"),
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
