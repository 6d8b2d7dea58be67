"""The command line (``python -m fifteen``): what each command prints, ``--json`` the same objects
as the JSON API's, exit status 2 and one line for bad input, never a traceback."""

import json
from pathlib import Path

import pytest

from fifteen import api
from fifteen.bounds import databases
from support.cli import run_cli

ROOT = Path(__file__).resolve().parent.parent
TRANSPOSED = "1 5 9 13 2 6 10 14 3 7 11 15 4 8 12 0"


def _call(method, **params):
    return json.loads(api.call(method, json.dumps(params)))


def test_cli_bounds_seed_style():
    r = run_cli("bounds", TRANSPOSED)
    assert r.returncode == 0
    assert "MD=40" in r.stdout and "WD=20/20 ID=12/12" in r.stdout


def test_cli_bounds_json():
    r = run_cli("bounds", TRANSPOSED, "--json")
    b = json.loads(r.stdout)["bounds"]
    for key in ("md", "lc", "wd_v", "wd_h", "id_v", "id_h", "lb"):
        assert key in b
    assert (b["wd_v"], b["id_v"]) == (20, 12)


def test_cli_solve_json():
    r = run_cli("solve", "1 2 3 4 5 6 7 8 0 10 11 12 9 13 14 15", "--bound", "wdid", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["length"] == 4 and out["moves"] == [9, 13, 14, 15] and out["directions"] == "DRRR"
    for key in ("nodes", "seconds", "bounds", "iterations"):
        assert key in out
    assert out["setup_seconds"] >= 0 and out["cpu_seconds"] >= 0 and out["seconds"] >= 0


#: The keys of a solve's JSON, in order (Solution.to_json): the same in the CLI, the API and batches.
SOLVE_KEYS = ["shape", "rows", "cols", "tiles", "goal", "bound", "length", "moves", "directions", "goal_frame", "h0", "nodes"]
SOLVE_KEYS += ["setup_seconds", "seconds", "cpu_seconds", "nodes_per_second", "iterations"]
TIME_KEYS = ("setup_seconds", "seconds", "cpu_seconds", "nodes_per_second")


def _timeless(record: dict) -> dict:
    """*record* without its times (and its iterations' times)."""
    out = {k: v for k, v in record.items() if k not in TIME_KEYS}
    out["iterations"] = [{k: v for k, v in it.items() if k != "seconds"} for it in record["iterations"]]
    return out


def test_a_solve_has_one_json_in_the_cli_the_api_and_batches(tmp_path):
    """``solve --json``, the API's ``solve`` and a batch's line: the same keys in the same order
    and the same values but times (the CLI and the API add the position's bounds and summary, a
    batch its id first); every time in seconds rounded to 0.1 ms."""
    text = "1 2 3 4 5 6 7 8 0 10 11 12 9 13 14 15"
    cli = json.loads(run_cli("solve", text, "--bound", "wdid", "--json").stdout)
    api_result = _call("solve", text=text, bound="wdid")["result"]
    batch_file = tmp_path / "one.txt"
    batch_file.write_text(f"first\t{text}\n")
    line = json.loads(run_cli("batch", str(batch_file), "--bound", "wdid", "--jobs", "1", "--quiet").stdout)
    assert list(cli) == list(api_result) == SOLVE_KEYS + ["bounds", "summary"]
    assert list(line) == ["id", *SOLVE_KEYS] and line["id"] == "first"
    assert _timeless(cli) == _timeless(api_result)
    assert _timeless(line) == {"id": "first", **{k: v for k, v in _timeless(cli).items() if k not in ("bounds", "summary")}}
    assert (cli["shape"], cli["rows"], cli["cols"], cli["h0"], cli["moves"]) == ("4x4", 4, 4, 4, [9, 13, 14, 15])
    assert cli["iterations"] == [{"bound": 4, "nodes": cli["nodes"], "seconds": cli["iterations"][0]["seconds"]}]
    assert cli["summary"] == "MD=4 LC=4 WD=1/3 ID=1/3 PDB=4 PDBr=4 LB=4"
    for record in (cli, api_result, line):
        times = [record[k] for k in TIME_KEYS[:3]] + [it["seconds"] for it in record["iterations"]]
        assert all(t == round(t, 4) for t in times) and isinstance(record["nodes_per_second"], int)


def test_cli_bounds_json_is_the_api_bounds_result():
    cli = json.loads(run_cli("bounds", TRANSPOSED, "--json").stdout)
    assert cli == _call("bounds", text=TRANSPOSED)["result"]
    assert list(cli) == ["shape", "rows", "cols", "tiles", "goal", "bounds", "summary", "start", "auto", "goal_frame", "anytime"]


@pytest.mark.parametrize(
    "bound, shape, expect", [("pdb663", "4x4", "Ordering pass"), ("id", "3x4", "row[board[j2]]"), ("pdb78", "4x4", "cp[board[j3]]")]
)
def test_cli_loops_prints_the_generated_loop(bound, shape, expect):
    r = run_cli("loops", "--bound", bound, "--shape", shape)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith(f"# {bound if bound != 'pdb663' else 'pdb-reflected'}") and expect in r.stdout
    compile(r.stdout, "loop", "exec")


def test_cli_solve_text_3x4():
    r = run_cli("solve", "1 2 3 4 5 6 7 8 9 10 0 11", "--shape", "3x4")
    assert r.returncode == 0
    assert "optimal length: 1" in r.stdout and "tiles moved:    11" in r.stdout and "blank moves:    R" in r.stdout


@pytest.mark.parametrize(
    "args, message",
    [
        (("solve", "1 2 3"), "3 tiles do not make a supported board"),
        (("solve", "1 2 3 4 5 6 8 7 0"), "unsolvable"),
        (("bounds", "1 2 3 4 5 6 7 7 0"), "duplicate: tile 7"),
        (("solve", "1 2 3 4 5 6 7 8 0", "--bound", "pdb663"), "bound 'pdb663' is not available for a 3x3 board"),
        (("solve", "1 2 3 4 5 6 7 8 0", "--db", "/nonexistent"), "no manifest"),
    ],
)
def test_cli_errors_exit_2_without_traceback(args, message):
    r = run_cli(*args)
    assert r.returncode == 2
    assert message in r.stderr
    assert "Traceback" not in r.stderr


def test_cli_runs_from_elsewhere_with_db(tmp_path):
    r = run_cli("bounds", TRANSPOSED, "--json", "--db", str(ROOT / "static" / "db"), cwd=tmp_path)
    assert r.returncode == 0


# ------------------------------------------------------------------ every number has a range
KORF1 = "13 6 8 12 15 14 0 10 11 7 4 5 9 1 3 2"
NEAR_3X3 = "1 2 3 4 5 6 7 0 8"


@pytest.mark.parametrize(
    "argv, message",
    [
        (
            ["solve", KORF1, "--jobs", "100000000000"],
            "--jobs must be 0 (every core) or a number of worker processes from 1 to 256, not 100000000000",
        ),
        (["solve", KORF1, "--jobs", "9223372036854775807"], "from 1 to 256, not 9223372036854775807"),
        (["solve", KORF1, "--jobs", "257"], "from 1 to 256, not 257"),
        (["batch", "/dev/null", "--jobs", "100000000000"], "from 1 to 256, not 100000000000"),
        (["solve", NEAR_3X3, "--jobs", "٢"], "argument --jobs/-j: a whole number written with the digits 0-9, not '٢'"),
        (["solve", NEAR_3X3, "--time-limit", "١"], "argument --time-limit: a number of seconds written with the digits 0-9"),
        (["solve", NEAR_3X3, "--time-limit", "nan"], "argument --time-limit: a number of seconds written with the digits 0-9"),
        (["solve", NEAR_3X3, "--time-limit", "1e999"], "argument --time-limit: a finite number of seconds, not '1e999'"),
        (["solve", NEAR_3X3, "--time-limit", "-5"], "--time-limit must be more than 0 and at most 3600 seconds, not -5.0"),
        (["solve", NEAR_3X3, "--anytime", "--stall-seconds", "nan"], "argument --stall-seconds: a number of seconds written with"),
        (
            ["solve", NEAR_3X3, "--anytime", "--stall-seconds", "-5"],
            "--stall-seconds must be 0 (never) or a positive number of seconds, not -5.0",
        ),
        (["batch", "/dev/null", "--stall-seconds", "inf"], "argument --stall-seconds: a number of seconds written with"),
        (["hint", NEAR_3X3, "--budget", "1" * 50], "argument --budget: a number of 50 digits; at most 40 are read"),
        (["hint", NEAR_3X3, "--budget", "-5"], "--budget must be from 0 to 1,099,511,627,776, not -5"),
        (["compare", NEAR_3X3, "--budget", "٣"], "argument --budget: a whole number written with the digits 0-9"),
        (["explore", "3x3", "--random-at", "9" * 41], "argument --random-at: a number of 41 digits; at most 40 are read"),
        (["trace", NEAR_3X3, "--moves", "8" * 4400], "--moves: a tile of 4,400 digits; at most 10,000 tile numbers of at most 8 digits"),
        (["trace", NEAR_3X3, "--moves", "8 " * 10_001], "--moves: 10,001 moves; at most 10,000 tile numbers"),
        (["trace", NEAR_3X3, "--moves", "8 " * 50_000], "--moves is 100,000 characters long; at most 90,000 are read"),
        (["batch", "/dev/null", "--goal", "1 1 1"], "the goal: 3 tiles do not make a supported board"),
    ],
)
def test_every_number_has_a_range(argv, message, capsys, monkeypatch, fresh_assets):
    """The issue's inputs: each refused in one line with status 2 (an input error), never an
    ``internal error``; the numbers of solve, batch and hint before any database is read or any
    process is started (so at once: ``--jobs 100000000000`` once tried to reserve 781 GB)."""
    from fifteen import cli
    from fifteen.parallel import processes

    def no_pool(*args, **kwargs):
        raise AssertionError("a worker pool was started")

    def no_read(file):
        raise AssertionError(f"{file} was read")

    monkeypatch.setattr(processes, "WorkerPool", no_pool)
    if argv[0] in ("solve", "batch", "hint"):
        monkeypatch.setattr(databases, "_read", no_read)
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.splitlines() == [err.strip()] and err.startswith("fifteen: error: ") and message in err, err
    assert "internal" not in err


def test_a_batch_of_nothing_with_a_good_goal_is_fine(capsys):
    from fifteen import cli

    assert cli.main(["batch", "/dev/null", "--goal", "blank-first", "--quiet"]) == 0
    assert cli.main(["batch", "/dev/null", "--goal", "0 1 2 3 4 5 6 7 8", "--quiet"]) == 0
    assert capsys.readouterr().err == ""


def test_jobs_beyond_what_memory_holds_are_refused(monkeypatch):
    """``--jobs N`` within 256 but more than the free memory holds (``WORKER_BYTES`` each) is
    refused; ``--jobs 0`` (every core) takes what memory allows."""
    from fifteen import InputError
    from fifteen.parallel import processes

    monkeypatch.setattr(processes, "available_memory", lambda: 3 * processes.WORKER_BYTES + 5)
    monkeypatch.setattr(processes, "default_jobs", lambda: 8)
    assert processes.resolve_jobs(3) == 3 and processes.resolve_jobs(0) == 3
    with pytest.raises(InputError, match=r"--jobs 4: this machine's free memory \(0.1 GB\) holds about 3 worker processes") as err:
        processes.resolve_jobs(4)
    assert err.value.code == "range"
    monkeypatch.setattr(processes, "available_memory", lambda: None)
    assert processes.resolve_jobs(256) == 256 and processes.resolve_jobs(0) == 8


def test_a_ctrl_c_caught_inside_code_built_by_exec_still_ends_python_m_with_status_130(tmp_path):
    """CPython 3.11 marks a KeyboardInterrupt "unhandled" when it passes through code that
    ``exec`` compiled from a string (a dataclass or namedtuple being built while a module is
    imported), even when the guard catches it, and ``python -m`` then ends by SIGINT (-2): seen
    under load, a Ctrl-C landing on such an import.  The guard clears the mark."""
    import os
    import subprocess
    import sys

    from support.cli import PACKAGE_PATH

    program = tmp_path / "demo"
    program.mkdir()
    (program / "__main__.py").write_text(
        "import signal\n"
        "from fifteen.cli.guard import guard_cli\n"
        "def _interrupted_at_start(signum, frame): pass\n"  # as fifteen/__init__.py names it: the program
        "signal.signal(signal.SIGINT, _interrupted_at_start)\n"
        "@guard_cli\n"
        "def main():\n"
        "    exec('raise KeyboardInterrupt')\n"
        "raise SystemExit(main())\n"
    )
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(PACKAGE_PATH), str(tmp_path)]))
    done = subprocess.run([sys.executable, "-m", "demo"], capture_output=True, text=True, env=env, timeout=60)
    assert (done.returncode, done.stderr) == (130, "fifteen: interrupted\n")


@pytest.mark.parametrize("after", ["fifteen.errors", "fifteen.bounds.databases", "fifteen.optimal", "fifteen.cli.options", "fifteen.cli"])
def test_ctrl_c_while_the_package_is_imported_is_one_line_and_status_130(after):
    """Ctrl-C before the command line's guard is in place (the first tenths of a second: the
    package's imports) ends as it does later: ``fifteen: interrupted``, status 130, no traceback.
    The moment is found with ``-X importtime``, which writes a line as each module is imported."""
    import os
    import signal
    import subprocess
    import sys

    from support.cli import PACKAGE_PATH
    from support.ctrl_c import popen_interruptible

    args = [sys.executable, "-X", "importtime", "-m", "fifteen", "solve", KORF1, "--bound", "md", "--quiet"]
    env = dict(os.environ, PYTHONPATH=str(PACKAGE_PATH))
    proc = popen_interruptible(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    lines = []
    for line in proc.stderr:
        lines.append(line)
        if line.split("|")[-1].strip() == after:  # "import time: self | cumulative | <indent>module"
            os.killpg(proc.pid, signal.SIGINT)
            break
    rest = proc.stderr.read()
    assert proc.wait(timeout=60) == 130, lines[-3:] + [rest]
    ours = [line for line in rest.splitlines() if not line.startswith("import time:")]
    assert ours == ["fifteen: interrupted"], rest
