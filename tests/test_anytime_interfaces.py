"""The anytime search through its doors: ``solve --anytime`` and ``batch --anytime`` on the
command line, the API's ``solve`` with ``anytime`` (progress messages, the result's keys, cancel
keeping the best, parameters checked), and ``--jobs N`` on native processes (a prover and
improvers; a Ctrl-C keeps the best and leaves no worker; a killed parent leaves none).

No timed assertion: time limits only make the runs end; what is asserted holds whenever they end."""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from fifteen import Board, Shape, api, batch
from fifteen.cli import anytime as anytime_cli
from fifteen.parallel import anytime_processes
from fifteen.parallel.anytime_processes import anytime_solve_parallel
from support.bfs import distances
from support.cli import run_cli
from support.ctrl_c import popen_interruptible
from support.positions import HARD_3X3, KORF, KT1, SET_3X3
from support.procs import DEADLINE, children, gone, wait_until

ROOT = Path(__file__).resolve().parents[1]
#: A 6x6 position (a random permutation, solvable).
SIX = " ".join(
    map(
        str,
        [
            7,
            20,
            3,
            33,
            14,
            27,
            1,
            30,
            15,
            24,
            9,
            21,
            32,
            11,
            26,
            6,
            31,
            2,
            19,
            17,
            35,
            8,
            0,
            12,
            25,
            5,
            23,
            13,
            29,
            10,
            16,
            22,
            34,
            4,
            28,
            18,
        ],
    )
)
SOLVE_KEYS = ["shape", "rows", "cols", "tiles", "goal", "bound", "length", "moves", "directions", "goal_frame", "h0", "nodes"]
SOLVE_KEYS += ["setup_seconds", "seconds", "cpu_seconds", "nodes_per_second", "iterations"]
ANYTIME_KEYS = ["lower_bound", "optimal", "improvements", "stopped"]


def _call(method: str, progress=None, cancel=None, **params):
    return json.loads(api.call(method, json.dumps(params), progress, cancel))


# ------------------------------------------------------------------ the command line


def test_cli_says_proven_optimal_when_it_is():
    r = run_cli("solve", HARD_3X3, "--anytime")
    assert r.returncode == 0, r.stderr
    assert "31 moves, proven optimal" in r.stdout.splitlines()
    assert "stopped: the lower bound met the length" in r.stdout
    assert re.search(r"^\s+\d+\.\d\d s: 31 moves · proven optimal$", r.stderr, re.M), r.stderr


def test_cli_says_the_gap_plainly():
    r = run_cli("solve", KT1, "--time-limit", "0.5")
    assert r.returncode == 0, r.stderr
    m = re.search(r"^(\d+) moves found · optimal >= (\d+)$", r.stdout, re.M)
    assert m and int(m.group(2)) <= 100 <= int(m.group(1)), r.stdout
    tiles = r.stdout.split("tiles moved:")[1].splitlines()[0].split()
    assert Board.parse(KT1).solves([int(t) for t in tiles])
    assert all(re.fullmatch(r"\s+\d+\.\d\d s: \d+ moves · optimal >= \d+", line) for line in r.stderr.splitlines()), r.stderr
    quiet = run_cli("solve", KT1, "--time-limit", "0.2", "--quiet")
    assert quiet.returncode == 0 and quiet.stderr == ""


def test_cli_json_has_the_solve_keys_then_the_anytime_ones():
    r = run_cli("solve", HARD_3X3, "--anytime", "--json", "--goal", "blank-first")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert list(out) == SOLVE_KEYS + ANYTIME_KEYS + ["bounds", "summary"]
    board = Board.parse(HARD_3X3, target="blank-first")
    assert out["goal"] == list(board.target.tiles) and board.solves(out["moves"])
    assert out["optimal"] is True and out["length"] == out["lower_bound"] == distances(Shape(3, 3), board.target.tiles)[bytes(board.tiles)]


def test_cli_optimal_stays_the_default_up_to_25_squares():
    """4x4 (and every board of up to 25 squares) is solved optimally unless asked otherwise: no anytime keys."""
    r = run_cli("solve", "1 2 3 4 5 6 7 8 0 10 11 12 9 13 14 15", "--json")
    assert list(json.loads(r.stdout)) == SOLVE_KEYS + ["bounds", "summary"]


def _args(*argv: str) -> argparse.Namespace:
    p = argparse.ArgumentParser()
    p.add_argument("--bound", default=None)
    anytime_cli.add_options(p)
    return p.parse_args(list(argv))


def test_anytime_is_the_default_past_optimal_reach_unless_a_bound_is_named():
    """Boards of more than 25 squares, but for positions near the goal (lower bound <= 50)."""
    assert anytime_cli.wanted(_args(), 36, 51) and anytime_cli.wanted(_args(), 100, 600)
    assert not anytime_cli.wanted(_args(), 100, 50) and not anytime_cli.wanted(_args(), 25, 200) and not anytime_cli.wanted(_args(), 16, 60)
    assert not anytime_cli.wanted(_args("--bound", "lc"), 36, 200)
    assert anytime_cli.wanted(_args("--anytime"), 9, 20) and anytime_cli.wanted(_args("--time-limit", "2"), 16, 30)
    assert anytime_cli.wanted(_args("--anytime", "--bound", "lc"), 16, 40)
    assert anytime_cli.time_limit(_args()) == 10.0


def test_cli_near_goal_big_board_stays_optimal():
    near = " ".join(
        map(
            str,
            [
                1,
                2,
                3,
                4,
                5,
                6,
                7,
                8,
                9,
                10,
                11,
                12,
                13,
                14,
                15,
                16,
                17,
                18,
                19,
                20,
                21,
                22,
                23,
                24,
                25,
                26,
                27,
                28,
                29,
                30,
                31,
                32,
                33,
                34,
                0,
                35,
            ],
        )
    )
    out = json.loads(run_cli("solve", near, "--json").stdout)
    assert "stopped" not in out and out["length"] == 1


def test_cli_big_board_gets_an_answer():
    r = run_cli("solve", SIX, "--time-limit", "0.5", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["shape"] == "6x6" and out["bound"] == "lclm" and out["stopped"] == "time"
    assert Board.parse(SIX).solves(out["moves"]) and out["lower_bound"] <= out["length"]


@pytest.mark.parametrize("value", ["0", "-1", "4000", "nan"])
def test_cli_time_limit_is_checked(value):
    r = run_cli("solve", KT1, f"--time-limit={value}")
    assert r.returncode == 2 and r.stderr.startswith(("fifteen: error: --time-limit", "fifteen: error: argument --time-limit")), r.stderr


#: The time limit of batches whose 3x3 line must be proven optimal: a 3x3 takes a tenth of a second,
#: but the limit covers each worker's set-up (the move tables), which a loaded machine stretches.
PROVING_LIMIT = "5"


def test_batch_anytime_one_line_per_position(tmp_path):
    (tmp_path / "in.txt").write_text(f"kt1\t{KT1}\nhard\t{HARD_3X3}\nbad\t1 2 3\n")
    r = run_cli("batch", str(tmp_path / "in.txt"), "--anytime", "--time-limit", PROVING_LIMIT, "--jobs", "2", "--quiet")
    assert r.returncode == 1, r.stderr  # the bad line
    lines = {rec["id"]: rec for rec in map(json.loads, r.stdout.splitlines())}
    assert set(lines) == {"kt1", "hard", "bad"} and "error" in lines["bad"]
    for ident, text in (("kt1", KT1), ("hard", HARD_3X3)):
        assert list(lines[ident]) == ["id", *SOLVE_KEYS, *ANYTIME_KEYS]
        assert Board.parse(text).solves(lines[ident]["moves"])
    assert lines["hard"]["optimal"] is True and lines["kt1"]["lower_bound"] <= 100


def test_batch_anytime_on_a_dask_local_cluster_answers_as_the_local_pool(tmp_path):
    """``batch --anytime --time-limit S --dask local --jobs 2`` (a LocalCluster of two worker
    processes): every line's solution replays to the goal, its lower bound is at most its length
    (and the published optimum), the 3x3 one is proven optimal, and each line has the keys of
    the local pool's line for that position."""
    korf1 = " ".join(map(str, KORF["1"]))
    (tmp_path / "in.txt").write_text(f"kt1\t{KT1}\nhard\t{HARD_3X3}\nkorf1\t{korf1}\nbad\t1 2 3\n")
    runs = {}
    for where in (["--jobs", "2"], ["--dask", "local", "--jobs", "2"]):
        r = run_cli("batch", str(tmp_path / "in.txt"), "--anytime", "--time-limit", PROVING_LIMIT, "--quiet", *where, timeout=DEADLINE)
        assert r.returncode == 1 and r.stderr == "", r.stderr  # status 1: the bad line, reported in its own line
        runs[where[0]] = {rec["id"]: rec for rec in map(json.loads, r.stdout.splitlines())}
    pool, dask = runs["--jobs"], runs["--dask"]
    assert set(dask) == set(pool) == {"kt1", "hard", "korf1", "bad"} and "error" in dask["bad"]
    for ident, text, optimum in (("kt1", KT1, 100), ("hard", HARD_3X3, 31), ("korf1", korf1, 57)):
        rec = dask[ident]
        assert list(rec) == list(pool[ident]) == ["id", *SOLVE_KEYS, *ANYTIME_KEYS], ident
        assert Board.parse(text).solves(rec["moves"]) and len(rec["moves"]) == rec["length"], ident
        assert rec["lower_bound"] <= optimum <= rec["length"] and rec["improvements"], ident
    assert dask["hard"]["optimal"] is True and dask["hard"]["stopped"] == "optimal"


def test_batch_item_past_25_squares_is_anytime_by_default(monkeypatch):
    monkeypatch.setattr(batch, "DEFAULT_TIME_LIMIT", 0.3)
    record = batch.solve_item("six", SIX, None, None)
    assert record["stopped"] == "time" and Board.parse(SIX).solves(record["moves"])
    optimal = batch.solve_item("small", HARD_3X3, None, None)
    assert "stopped" not in optimal and optimal["length"] == 31


# ------------------------------------------------------------------ the API


def test_api_progress_messages_and_result():
    messages: list[str] = []
    reply = _call("solve", messages.append, tiles=HARD_3X3, anytime=True, time_limit=60)
    assert reply["ok"], reply
    result = reply["result"]
    assert list(result) == SOLVE_KEYS + ANYTIME_KEYS + ["bounds", "summary"]
    assert result["optimal"] and result["length"] == 31 and result["stopped"] == "optimal"
    board = Board.parse(HARD_3X3)
    progress = [json.loads(m) for m in messages]
    assert progress and all(list(p) == ["kind", "seconds", "length", "lower_bound", "optimal", "moves", "iterations"] for p in progress)
    assert all(p["kind"] == "anytime" and board.solves(p["moves"]) and len(p["moves"]) == p["length"] for p in progress)
    assert progress[-1]["optimal"] is True and [p["optimal"] for p in progress[:-1]] == [False] * (len(progress) - 1)
    assert [{k: p[k] for k in ("seconds", "length", "lower_bound")} for p in progress] == result["improvements"]
    # each message carries the prover's finished iterations (what the page shows with one worker):
    # each bound it rose to is the last iteration's plus 2, and the last message's are the result's
    finished = [[(it["bound"], it["nodes"]) for it in p["iterations"]] for p in progress]
    assert [p["lower_bound"] for p in progress] == [25, 27, 29, 31]
    assert finished == [[], [(25, 31)], [(25, 31), (27, 295)], [(25, 31), (27, 295), (29, 1533)]]
    assert progress[-1]["iterations"] == result["iterations"]


def test_api_cancel_keeps_the_best():
    messages: list[str] = []
    reply = _call("solve", messages.append, lambda: len(messages) >= 2, tiles=KT1, anytime=True)
    assert reply["ok"], reply
    result = reply["result"]
    assert result["stopped"] == "cancelled" and result["moves"] == json.loads(messages[-1])["moves"]
    assert Board.parse(KT1).solves(result["moves"]) and result["lower_bound"] <= 100 and not result["optimal"]


def test_api_default_past_25_squares_and_anytime_false():
    six = _call("solve", tiles=SIX, time_limit=0.3)["result"]
    assert six["stopped"] == "time" and Board.parse(SIX).solves(six["moves"])
    plain = _call("solve", tiles=HARD_3X3, anytime=False, time_limit=0.3)["result"]
    assert "stopped" not in plain and plain["length"] == 31


@pytest.mark.parametrize(
    "params",
    [
        {"anytime": "yes"},
        {"anytime": True, "time_limit": 0},
        {"anytime": True, "time_limit": -2},
        {"anytime": True, "time_limit": 3601},
        {"anytime": True, "time_limit": "5"},
        {"anytime": True, "time_limit": True},
    ],
)
def test_api_parameters_are_checked(params):
    reply = _call("solve", tiles=HARD_3X3, **params)
    assert not reply["ok"] and reply["error"]["type"] == "input" and reply["error"]["code"] == "param", reply


def test_api_bound_not_available_is_an_input_error():
    reply = _call("solve", tiles=KT1, anytime=True, time_limit=1, bound="pdb663")
    assert reply["error"]["code"] == "bound"


# ------------------------------------------------------------------ --jobs N: processes


def test_parallel_proves_3x3_optimal():
    board = Board.parse(HARD_3X3)
    result = anytime_solve_parallel(board, jobs=3, time_limit=120)
    assert result.optimal and result.length == 31 and board.solves(result.tiles) and result.stopped == "optimal"


def test_parallel_keeps_the_promises_on_korf_taylor_1():
    board = Board.parse(KT1)
    seen = []
    result = anytime_solve_parallel(board, jobs=2, time_limit=2.0, progress=seen.append)
    assert result.stopped == "time" and board.solves(result.tiles) and result.lower_bound <= 100 <= result.length
    assert seen and all(board.solves(imp.moves) and imp.lower_bound <= 100 for imp in seen)
    assert result.iterations and all(it.bound < result.lower_bound for it in result.iterations)
    assert list(result.to_json()) == SOLVE_KEYS + ANYTIME_KEYS


@pytest.mark.parametrize(
    ("jobs", "roles"),
    [
        (2, {("beam+windows", "both", 0)}),
        (4, {("beam+windows", "position", 0), ("beam+windows", "target", 0), ("beam+windows", "both", 1)}),
        (
            6,
            {
                ("beam+windows", "position", 0),
                ("beam+windows", "target", 0),
                ("beam+windows", "both", 1),
                ("beam+windows", "both", 2),
                ("windows", "both", 0),
            },
        ),
    ],
)
def test_parallel_improvers_split_the_beams_ends_between_the_first_two(monkeypatch, jobs, roles):
    """One improver alone runs beams from both ends in turn; with two or more the first starts its
    beams from the position, the second from the target, the next two rank every beam with noise
    families 1 and 2, and the others shorten windows."""
    from fifteen.parallel import processes

    calls = []
    real = processes.WorkerPool.submit

    def recorded(self, worker, call_id, fn, *args):
        if getattr(fn, "func", None) is anytime_processes.improve:
            calls.append((args[4], fn.keywords["beams_from"], fn.keywords["noise_family"]))
        real(self, worker, call_id, fn, *args)

    monkeypatch.setattr(processes.WorkerPool, "submit", recorded)
    board = Board.parse(KT1)
    result = anytime_solve_parallel(board, jobs=jobs, time_limit=1.5)
    assert board.solves(result.tiles) and set(calls) == roles


def test_improver_roles_in_order_for_each_pool_size():
    """The roles the search and bench/improvers.py share: one per worker but the prover, in order."""
    both, position, target = ("beam+windows", "both", 0), ("beam+windows", "position", 0), ("beam+windows", "target", 0)
    noisy = [("beam+windows", "both", 1), ("beam+windows", "both", 2)]
    windows = ("windows", "both", 0)
    assert anytime_processes.improver_roles(1) == []
    assert anytime_processes.improver_roles(2) == [both]
    assert anytime_processes.improver_roles(3) == [position, target]
    assert anytime_processes.improver_roles(4) == [position, target, noisy[0]]
    assert anytime_processes.improver_roles(5) == [position, target, *noisy]
    assert anytime_processes.improver_roles(7) == [position, target, *noisy, windows, windows]


def test_the_improvers_bench_runs_each_role_and_the_pool_takes_the_shortest(tmp_path):
    """bench/improvers.py (bench/anytime.md's improver tables): a row per role of the pool of 3,
    then the pool's, the shortest of theirs at each mark (every offered path replayed there)."""
    out = tmp_path / "improvers.tsv"
    command = [sys.executable, str(ROOT / "bench" / "improvers.py"), "--boards", "5", "--count", "1", "--jobs", "3"]
    command += ["--limit", "1", "--marks", "0.5,1", "--out", str(out)]
    done = subprocess.run(command, env=dict(os.environ, PYTHONPATH=str(ROOT / "py")), capture_output=True, text=True, timeout=DEADLINE)
    assert done.returncode == 0, done.stderr
    rows = [line.split("\t") for line in out.read_text().splitlines()[1:]]
    assert [(r[1], r[4], r[5]) for r in rows] == [("D5-0", "3", "position"), ("D5-0", "3", "target"), ("D5-0", "3", "pool")]
    lengths = [[int(x) for x in r[8].split(",")] for r in rows]
    assert lengths[2] == [min(a, b) for a, b in zip(lengths[0], lengths[1], strict=True)]
    assert all(100 <= n for n in lengths[2])  # D5-0's optimum is 100


def test_parallel_cancel_keeps_the_best():
    board = Board(Shape(3, 3), SET_3X3[7])
    seen = []
    result = anytime_solve_parallel(board, jobs=2, progress=seen.append, cancel=lambda: bool(seen))
    assert result.tiles is not None and board.solves(result.tiles)
    assert result.stopped in ("cancelled", "optimal")


def _start(args: list[str]) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "py"))
    return popen_interruptible([sys.executable, "-m", "fifteen", *args], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _workers(proc: subprocess.Popen, count: int = 2) -> list[int]:
    wait_until(f"{count} workers of {proc.pid}", lambda: len(children(proc.pid)) >= count or proc.poll() is not None)
    assert proc.poll() is None, proc.communicate()
    return children(proc.pid)


def test_ctrl_c_stops_the_parallel_search_prints_the_best_and_leaves_no_worker():
    proc = _start(["solve", KT1, "--time-limit", "600", "--jobs", "2"])
    pids = _workers(proc)
    wait_until("a first answer", lambda: proc.stderr is not None and "moves" in proc.stderr.readline())
    os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C: to the process group, workers included
    out, err = proc.communicate(timeout=DEADLINE)
    assert proc.returncode == 0, err
    assert "stopped: stopped by Ctrl-C" in out and re.search(r"^\d+ moves found · optimal >= \d+$", out, re.M), out
    tiles = [int(t) for t in out.split("tiles moved:")[1].splitlines()[0].split()]
    assert Board.parse(KT1).solves(tiles)
    wait_until(f"workers {pids} gone", lambda: all(gone(p) for p in pids))


def test_a_killed_parent_leaves_no_worker():
    proc = _start(["solve", KT1, "--time-limit", "600", "--jobs", "3"])
    pids = _workers(proc, 3)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(DEADLINE)
    wait_until(f"workers {pids} gone after their parent's SIGKILL", lambda: all(gone(p) for p in pids))


def test_stall_seconds_reach_the_anytime_search_on_processes(monkeypatch, capsys):
    """``solve --anytime --jobs 2 --stall-seconds 7``: the pool of the anytime search ends a worker
    silent for 7 s (the setting once stopped at the command line: a stopped worker waited 60 s)."""
    from fifteen import cli
    from fifteen.parallel import processes

    made = []
    real = processes.WorkerPool.__init__

    def recorded(self, size, directory=None, *, stall_seconds=processes.STALL_SECONDS):
        made.append((size, stall_seconds))
        real(self, size, directory, stall_seconds=stall_seconds)

    monkeypatch.setattr(processes.WorkerPool, "__init__", recorded)
    assert cli.main(["solve", KT1, "--anytime", "--jobs", "2", "--stall-seconds", "7", "--time-limit", "0.5", "--json"]) == 0
    assert made == [(2, 7.0)] and json.loads(capsys.readouterr().out)["stopped"] in ("time", "optimal")
    assert cli.main(["solve", KT1, "--anytime", "--jobs", "2", "--stall-seconds", "0", "--time-limit", "0.5", "--json"]) == 0
    assert made[1] == (2, None)  # 0: never
