"""The command line (``python -m fifteen``): what each command prints, ``--json`` the same objects
as the JSON API's, exit status 2 and one line for bad input, never a traceback."""

import json
from pathlib import Path

import pytest

from fifteen import api
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
