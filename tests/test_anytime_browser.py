"""The page pool's anytime protocol (fifteen.parallel.anytime_page through fifteen.api.call), driven here as
static/js/solver/anytime-solve.js drives it: anytime_first, then improvers' anytime_improve calls
and the prover's anytime_prove iterations until the lower bound meets the best length, then
anytime_result.  Lengths equal BFS's on 3x3, the prover's iterations have exactly the serial
IDA*'s node counts, every record the page sends back is checked."""

from __future__ import annotations

import json

import pytest

from fifteen import Board, Shape, api, solve
from fifteen.anytime import beam
from fifteen.anytime.tables import label_tables
from support.bfs import distances
from support.positions import SET_3X3

#: A 4x4 position 42 moves from the goal; Manhattan distance's IDA* iterations (bound, nodes).
FOUR = "0 1 3 13 14 9 2 4 6 5 15 7 12 11 10 8"
FOUR_MD_ITERATIONS = [(32, 2), (34, 132), (36, 690), (38, 4301), (40, 22759), (42, 91585)]


def call(method: str, params: dict, progress=None) -> dict:
    reply = json.loads(api.call(method, json.dumps(params), progress))
    assert reply["ok"], reply
    return reply["result"]


def error(method: str, params: dict) -> dict:
    reply = json.loads(api.call(method, json.dumps(params)))
    assert not reply["ok"], reply
    return reply["error"]


def drive(position: dict, bound: str, *, improvers: int = 1) -> tuple[dict, list[dict]]:
    """The page's anytime job in one thread: (anytime_result's result, the prover's outcomes)."""
    first = call("anytime_first", {**position, "bound": bound})
    best, lower, outcomes = first["path"], first["lower_bound"], []
    carried: list[dict] = [{} for _ in range(improvers)]
    threshold = 0
    while len(best) > lower:
        for i in range(improvers):
            mode = "beam+windows" if i == 0 else "windows"
            r = call("anytime_improve", {**position, "path": best, "mode": mode, "carried": carried[i], "time_limit": 60})
            carried[i] = r["carried"]
            if len(r["path"]) < len(best):
                best = r["path"]
        r = call("anytime_prove", {**position, "bound": bound, "threshold": threshold, "time_limit": 60})
        outcomes.append(r)
        if r["outcome"] == "refuted":
            threshold = r["threshold"] + 2
            lower = max(lower, threshold)
        elif r["outcome"] == "found":
            lower = r["threshold"]
            best = min(best, r["path"], key=len)
    result = call(
        "anytime_result",
        {**position, "bound": first["bound"], "path": best, "lower_bound": lower, "h0": first["lower_bound"], "stopped": "optimal",
         "seconds": 1.5, "improvements": [{"seconds": 0.1, "length": len(best), "lower_bound": lower}],
         "iterations": [{"bound": o["threshold"], "nodes": o["nodes"], "seconds": o["seconds"]} for o in outcomes],
         "workers": 1 + improvers, "worker_nodes": [5, sum(o["nodes"] for o in outcomes)]},
    )  # fmt: skip
    return result, outcomes


@pytest.mark.parametrize("tiles", SET_3X3)
def test_the_pool_proves_3x3_optimal(tiles):
    dist = distances(Shape(3, 3))
    text = " ".join(map(str, tiles))
    result, _ = drive({"text": text}, "md", improvers=2)
    assert result["length"] == dist[bytes(tiles)]
    assert result["optimal"] is True and result["stopped"] == "optimal" and result["lower_bound"] == result["length"]
    assert Board.parse(text).solves(result["moves"])
    assert result["workers"] == 3 and result["bounds"]["md"] <= result["length"]


def test_the_prover_runs_the_serial_iterations_and_reports_its_nodes():
    seen: list[str] = []
    result, outcomes = drive({"text": FOUR}, "md")
    # the improver finds 42 moves; refuting 40 proves them optimal, before the prover's last iteration
    assert [(o["threshold"], o["nodes"]) for o in outcomes] == FOUR_MD_ITERATIONS[:-1]
    assert [o["outcome"] for o in outcomes] == ["refuted"] * 5
    assert [(it.bound, it.nodes) for it in solve(Board.parse(FOUR), "md").result.iterations] == FOUR_MD_ITERATIONS
    assert result["length"] == 42 and result["optimal"] is True and result["lower_bound"] == 42
    proved = sum(n for _, n in FOUR_MD_ITERATIONS[:-1])
    assert result["nodes"] == 5 + proved and result["worker_nodes"] == [5, proved]
    assert result["iterations"][0] == {"bound": 32, "nodes": 2, "seconds": result["iterations"][0]["seconds"]}
    # the last iteration finds an optimal solution, its live node count heard on the way
    r = call("anytime_prove", {"text": FOUR, "bound": "md", "threshold": 42, "time_limit": 60}, lambda s: seen.append(s) or None)
    assert (r["outcome"], r["threshold"], r["nodes"]) == ("found", 42, 91585)
    assert len(r["moves"]) == 42 and Board.parse(FOUR).solves(r["moves"])
    assert seen and all(set(json.loads(s)) == {"nodes"} for s in seen)


def test_first_gives_the_root_bound_and_a_path_to_the_goal():
    r = call("anytime_first", {"text": FOUR, "bound": "md"})
    assert r["lower_bound"] == 38 and r["bound"] == "md"  # the best of the bounds line, not MD's 32
    assert len(r["path"]) == len(r["moves"]) >= 42
    assert Board.parse(FOUR).solves(r["moves"])
    goal = call("anytime_first", {"text": "1 2 3 4 5 6 7 8 0"})
    assert goal == {"path": [], "moves": [], "lower_bound": 0, "bound": goal["bound"]}


def test_a_stopped_prover_past_its_time():
    r = call("anytime_prove", {"text": FOUR, "bound": "md", "threshold": 42, "time_limit": 1e-9})
    assert r["outcome"] == "stopped" and r["threshold"] == 42 and r["nodes"] == 0


def test_an_improver_carries_its_state_and_keeps_the_best():
    first = call("anytime_first", {"text": FOUR, "bound": "md"})
    r = call("anytime_improve", {"text": FOUR, "path": first["path"], "mode": "beam+windows", "carried": {}, "time_limit": 60})
    assert len(r["path"]) <= len(first["path"]) and Board.parse(FOUR).solves(r["moves"])
    assert set(r["carried"]) >= {"width", "windows_only"} and isinstance(r["done"], bool) and r["nodes"] > 0
    again = call("anytime_improve", {"text": FOUR, "path": r["path"], "mode": "windows", "carried": r["carried"], "time_limit": 60})
    assert len(again["path"]) <= len(r["path"])
    # a helper's first call: window shortening from its own offset
    other = call("anytime_improve", {"text": FOUR, "path": first["path"], "mode": "windows", "carried": {"offset": 6}, "time_limit": 60})
    assert Board.parse(FOUR).solves(other["moves"]) and set(other["carried"]) >= {"k", "node_limit", "offset"}
    # the beam helper's: beams from the target only
    helper = {"text": FOUR, "path": first["path"], "mode": "beam+windows", "beams_from": "target", "carried": {}, "time_limit": 60}
    back = call("anytime_improve", helper)
    assert len(back["path"]) <= len(first["path"]) and Board.parse(FOUR).solves(back["moves"]) and back["carried"]["width"] >= 512


def test_a_noisy_improvers_beams_rank_with_its_familys_noise(monkeypatch):
    from fifteen.anytime import driver

    noises: list[int] = []
    real = driver.beam_search
    monkeypatch.setattr(driver, "beam_search", lambda *a, noise=0, **kw: noises.append(noise) or real(*a, noise=noise, **kw))
    first = call("anytime_first", {"text": FOUR, "bound": "md"})
    noises.clear()
    noisy = call(
        "anytime_improve", {"text": FOUR, "path": first["path"], "mode": "beam+windows", "noise_family": 2, "carried": {}, "time_limit": 60}
    )
    assert len(noisy["path"]) <= len(first["path"]) and Board.parse(FOUR).solves(noisy["moves"])
    # its first beam: from the target at 256, seed 2 * 128 + 2 * 9 + 1; the next ones seeds of the family
    assert noises[0] == driver.beam_noise(2, 256, True, 0) == 275
    assert all(2 * driver.FAMILY_SEEDS < n < 3 * driver.FAMILY_SEEDS for n in noises)


@pytest.mark.parametrize(
    ("method", "params", "code"),
    [
        ("anytime_improve", {"path": [0], "mode": "windows"}, "moves"),  # not a solution
        ("anytime_improve", {"path": "x"}, "param"),
        ("anytime_improve", {"path": None, "mode": "windows"}, "param"),
        ("anytime_improve", {"mode": "beams"}, "param"),
        ("anytime_improve", {"beams_from": "goal"}, "param"),
        ("anytime_improve", {"beams_from": 1}, "param"),
        ("anytime_improve", {"noise_family": -1}, "param"),
        ("anytime_improve", {"noise_family": 65}, "param"),
        ("anytime_improve", {"noise_family": "1"}, "param"),
        ("anytime_improve", {"carried": {"width": -1}}, "param"),
        ("anytime_improve", {"carried": {"width": True}}, "param"),
        ("anytime_improve", {"carried": {"noise": -1}}, "param"),
        ("anytime_improve", {"carried": {"windows_only": 1}}, "param"),
        ("anytime_improve", {"carried": {"depth": 3}}, "param"),
        ("anytime_improve", {"carried": {"k": 12}}, "param"),  # without node_limit and offset
        ("anytime_improve", {"time_limit": 0}, "param"),
        ("anytime_prove", {"threshold": -2}, "param"),
        ("anytime_prove", {"bound": "nope"}, None),
        ("anytime_result", {"lower_bound": 9}, "param"),  # above the path's length
        ("anytime_result", {"stopped": "bored"}, "param"),
        ("anytime_result", {"h0": -1}, "param"),
        ("anytime_result", {"improvements": [{"length": 1}]}, "param"),
        ("anytime_result", {"improvements": [{"length": 1, "lower_bound": "a"}]}, "param"),
        ("anytime_result", {"iterations": [{"bound": 1, "nodes": -5}]}, "param"),
        ("anytime_first", {"threshold": 2}, "param"),  # not one of its parameters
    ],
)
def test_records_sent_back_are_checked(method, params, code):
    base = {"text": "1 2 3 4 5 6 7 0 8", "path": [8], "mode": "windows", "lower_bound": 1, "stopped": "optimal", "threshold": 0}
    allowed = {
        "anytime_first": {"text"},
        "anytime_improve": {"text", "path", "mode"},
        "anytime_prove": {"text", "threshold"},
        "anytime_result": {"text", "path", "lower_bound", "stopped"},
    }[method]
    e = error(method, {**{k: v for k, v in base.items() if k in allowed}, **params})
    assert e["type"] == "input", e
    if code is not None:
        assert e["code"] == code, e


def test_result_replays_and_says_how_good():
    near = {"text": "1 2 3 4 5 6 7 0 8", "path": [8], "lower_bound": 1}
    r = call("anytime_result", {**near, "stopped": "time", "workers": 2, "worker_nodes": [3, 4]})
    assert (r["length"], r["moves"], r["optimal"], r["stopped"], r["workers"], r["worker_nodes"]) == (1, [8], True, "optimal", 2, [3, 4])
    r = call("anytime_result", {"text": "1 2 3 4 5 6 0 7 8", "path": [7, 6, 7, 8], "lower_bound": 2, "stopped": "time"})
    assert (r["length"], r["optimal"], r["stopped"], r["lower_bound"]) == (4, False, "time", 2)


@pytest.mark.parametrize("tiles", [[1, 2, 3, 0], [1, 2, 3, 4, 5, 6, 7, 8, 0]])
@pytest.mark.parametrize("numpy", [True, False])
def test_an_improver_at_the_goal_is_done_with_a_bounded_width(tiles, numpy, monkeypatch):
    """An empty path (the position is the goal): the improver's beam width stops doubling at the
    memory cap (it once doubled until the JSON encoder refused a 4,300-digit number; then at 2^24,
    the path records' cap for a path of one move), and the next call takes what it carried.  The
    last width is the one before the beam whose 31 layers pass its state limit: 2^16 for the pure
    beam (the page's: 3 M positions), 2^18 for numpy's (12 M)."""
    monkeypatch.setattr(beam, "free_memory", lambda: 1 << 40)  # (whatever this machine has free)
    if not numpy:
        monkeypatch.setattr(beam, "VECTOR", None)
    assert beam.numpy_beam(label_tables(Shape(3, 3)), 1 << 10) is (beam.VECTOR if numpy else None)
    last = 1 << 18 if numpy else 1 << 16
    r = call("anytime_improve", {"tiles": tiles, "path": []})
    assert r["path"] == [] and r["done"] and r["carried"]["windows_only"]
    assert r["carried"]["width"] == last
    again = call("anytime_improve", {"tiles": tiles, "path": [], "carried": r["carried"]})
    assert again["done"] and again["carried"]["width"] == last


def test_a_provers_time_limit_covers_its_set_up(monkeypatch):
    """The first ``anytime_prove`` of a worker builds the move tables (seconds in the browser):
    within its ``time_limit``, which stops the build when it passes ("stopped", nothing kept)."""
    import functools

    from fifteen.search import moves

    monkeypatch.setattr(moves, "_move_tables", functools.cache(moves._move_tables.__wrapped__))  # none built yet
    korf1 = "13 6 8 12 15 14 0 10 11 7 4 5 9 1 3 2"
    r = call("anytime_prove", {"text": korf1, "threshold": 0, "time_limit": 1e-6})
    assert (r["outcome"], r["threshold"], r["nodes"]) == ("stopped", 0, 0)
    assert moves._move_tables.cache_info().currsize == 0
    r = call("anytime_prove", {"text": korf1, "threshold": 0, "time_limit": 600})
    assert (r["outcome"], r["threshold"], r["nodes"]) == ("refuted", 51, 32)  # Korf #1's first pdb771 iteration
    assert moves._move_tables.cache_info().currsize == 1
