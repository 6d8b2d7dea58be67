"""Any goal: solvability relative to the goal, bounds admissible and IDA* optimal against a BFS
from each goal, the frames that map a goal with its blank in a corner onto the standard one
(Korf's instances on the blank-first goal: the same lengths and nodes with 6-6-3), solutions
in the caller's frame, and the goal through the API, the CLI, batches and the parallel search."""

from __future__ import annotations

import itertools
import json
import random

import pytest

from fifteen import Board, Goal, InputError, Shape, api, bound_values, solve
from fifteen.board import solvability_problem, transpose_tiles
from fifteen.bounds import available_bounds, resolve_bound
from fifteen.frame import frame_for
from fifteen.search.moves import is_own_mirror, move_tables, tables_for
from instances import korf100
from support.bfs import distances
from support.cli import run_cli

# Per shape: the blank-first goal, goals with the blank on an edge or inside, and random ones.
GOALS = {
    "2x2": [(0, 1, 2, 3), (2, 0, 3, 1)],
    "2x3": [(0, 1, 2, 3, 4, 5), (1, 0, 2, 3, 4, 5), (4, 2, 5, 3, 0, 1)],
    "3x3": [(0, 1, 2, 3, 4, 5, 6, 7, 8), (1, 2, 3, 4, 0, 5, 6, 7, 8), (3, 8, 1, 0, 5, 2, 7, 4, 6), (8, 7, 6, 5, 4, 3, 2, 1, 0)],
    "2x4": [(0, 1, 2, 3, 4, 5, 6, 7), (3, 0, 1, 2, 4, 5, 6, 7), (6, 2, 7, 5, 1, 0, 3, 4)],
}
CASES = [(shape, goal) for shape, goals in GOALS.items() for goal in goals]
CHEAP = ("md", "lc", "id", "wd", "wdid")


def case_id(case) -> str:
    return f"{case[0]}-{''.join(map(str, case[1]))}"


@pytest.fixture(scope="module")
def exact():
    """BFS distances from each goal of :data:`GOALS` (and from the standard goals)."""
    cache: dict = {}

    def get(shape: str, goal=None) -> dict[bytes, int]:
        key = (shape, goal)
        if key not in cache:
            cache[key] = distances(Shape.parse(shape), goal)
        return cache[key]

    return get


def sample(dist: dict[bytes, int], count: int, seed: int = 1) -> list[bytes]:
    keys = sorted(dist)
    return keys if len(keys) <= count else random.Random(seed).sample(keys, count)


# ------------------------------------------------------------------ the goal and the board
def test_goal_names_and_parsing():
    shape = Shape(4, 4)
    assert Goal.blank_first(shape).tiles == tuple(range(16)) and Goal.blank_first(shape).name == "blank-first"
    assert Goal.of(None, shape) == Goal.standard(shape) == Goal.parse("standard", shape) == Goal.parse("Blank-Last ", shape)
    assert Goal.of("blank-first", "4x4") == Goal.parse(" ".join(map(str, range(16)))) == Goal.from_tiles(list(range(16)))
    assert str(Goal.standard(shape)) == "standard" and str(Goal.of([2, 1, 0, 3], "2x2")) == "2 1 0 3"
    assert Goal.of([2, 1, 0, 3], "2x2").home == [2, 1, 0, 3] and Goal.of([2, 1, 0, 3], "2x2").blank == 2
    cases = [
        ("1 2 3", "3x3", "the goal: a 3x3 board has 9 squares, got 3 tiles"),
        ("0 1 2 3 4 5 6 7 7", "3x3", "the goal: duplicate: tile 7 given more than once (missing: 8)"),
        ("blank-first", None, "the goal 'blank-first' needs the board's shape"),
        ([0, 1, 2, 9], "2x2", "the goal: square 4: tile 9 is out of range"),
        (5, "2x2", "a goal is a list of tile numbers or text, not 5"),
    ]
    for goal, shape_name, message in cases:
        with pytest.raises(InputError, match="^" + message.replace("(", r"\(").replace(")", r"\)")):
            Goal.of(goal, shape_name) if shape_name else Goal.parse(goal)
    with pytest.raises(InputError, match=r"^the goal is for a 2x2 board, the position is on a 3x3 board$"):
        Board.parse("1 2 3 4 5 6 7 8 0", target=Goal.blank_first("2x2"))


def test_board_moves_keep_the_goal_and_solve_towards_it():
    board = Board.parse("1 2 0 3 4 5 6 7 8", target="blank-first")
    assert board.target == Goal.blank_first("3x3") and not board.is_goal()
    assert board.slide(2).target == board.target and board.apply("LL").is_goal()
    assert board.solves([2, 1]) and board.solves("LL") and not board.solves("L")
    assert board.directions([2, 1]) == "LL" and board.tiles_moved("LL") == [2, 1]
    assert Board.goal("3x3", "blank-first").is_goal() and Board.goal("3x3", "blank-first").tiles == tuple(range(9))
    # 3x3: the blank-first goal is reachable from the standard one; on 4x4 it is not (with_target checks it).
    assert board.with_target(None).target.is_standard
    with pytest.raises(InputError, match="^unsolvable: "):
        Board.goal("4x4", "blank-first").with_target(None)
    assert board == Board((Shape(3, 3)), (1, 2, 0, 3, 4, 5, 6, 7, 8), Goal.blank_first("3x3")) != Board.parse("1 2 3 4 5 6 7 0 8")


def test_transposed_board_keeps_its_distance_to_its_goal(exact):
    goal = GOALS["3x3"][2]
    dist = exact("3x3", goal)
    shape = Shape(3, 3)
    for key in sample(dist, 200):
        board = Board(shape, tuple(key), goal)
        mirrored = board.transposed()
        assert mirrored.target.tiles == tuple(transpose_tiles(shape, goal))
        assert distances_to(mirrored, exact) == dist[key]


def distances_to(board: Board, exact) -> int:
    return exact(str(board.shape), board.target.tiles)[bytes(board.tiles)]


# ------------------------------------------------------------------ solvability
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_solvable_exactly_when_the_bfs_from_the_goal_reaches_it(case, exact):
    shape_name, goal = case
    shape = Shape.parse(shape_name)
    reachable = exact(shape_name, goal)
    perms = (
        itertools.permutations(range(shape.size))
        if shape.size <= 6
        else (random.Random(3).sample(range(shape.size), shape.size) for _ in range(3000))
    )
    for perm in perms:
        assert (solvability_problem(shape, perm, goal) is None) == (bytes(perm) in reachable), perm


def test_unsolvable_for_the_goal_says_why():
    standard = " ".join(map(str, range(1, 16))) + " 0"
    with pytest.raises(InputError) as err:
        Board.parse(standard, target="blank-first")
    assert str(err.value) == (
        "unsolvable for this goal: the position is 15 swaps from the goal (odd, the blank counted) and the blank is 6 moves"
        " from its goal square (even); every move is one swap and one step of the blank, so the two parities must agree"
    )
    with pytest.raises(
        InputError, match=r"^unsolvable for this goal: the position is 1 swaps from the goal \(odd, .* 0 moves from its goal"
    ):
        Board.parse("2 1 0 3", target="1 2 0 3")
    # the standard goal keeps the seed's words
    with pytest.raises(InputError, match="^unsolvable: the tiles read row by row have 1 inversions"):
        Board.parse("2 1 3 4 5 6 7 8 0")


# ------------------------------------------------------------------ bounds and optimal lengths against BFS
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_every_bound_is_admissible_towards_the_goal(case, exact):
    shape_name, goal = case
    shape = Shape.parse(shape_name)
    dist = exact(shape_name, goal)
    for key in sample(dist, 3000):
        values = bound_values(Board(shape, tuple(key), goal))
        assert all(values[name] <= dist[key] for name in CHEAP + ("lb",) if name in values), (key, values, dist[key])
        assert values["lb"] == max(values[name] for name in CHEAP if name in values)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_optimal_lengths_equal_bfs_and_replay_to_the_goal(case, exact):
    shape_name, goal = case
    shape = Shape.parse(shape_name)
    dist = exact(shape_name, goal)
    for key in sample(dist, 12, seed=len(goal)):
        board = Board(shape, tuple(key), goal)
        for bound in ("auto",) + CHEAP:
            sol = solve(board, bound)
            assert sol.length == dist[key], (key, bound)
            assert board.apply(sol.tiles).tiles == goal and board.solves(sol.directions)
            assert board.directions(sol.tiles) == sol.directions and board.tiles_moved(sol.directions) == sol.tiles
            assert board.tiles_moved(board.directions(sol.result.tiles)) == sol.result.tiles  # result in the caller's frame


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_the_frame_keeps_distances(case, exact):
    """A corner goal's frame maps the pair onto the standard goal with equal distances; any other
    goal's frame is the identity (the goal is data)."""
    shape_name, goal = case
    shape = Shape.parse(shape_name)
    frame = frame_for(Goal(shape, goal))
    corner = goal.index(0) in (0, shape.cols - 1, shape.size - shape.cols, shape.size - 1)
    assert frame.standard == corner and frame.identity == (not corner)
    assert frame.position(goal) == frame.goal
    standard = exact(shape_name)
    for key, d in itertools.islice(exact(shape_name, goal).items(), 0, None, 97):
        mapped = frame.position(key)
        assert (standard if corner else exact(shape_name, goal))[bytes(mapped)] == d


def test_blank_first_is_korfs_conversion():
    """The blank-first 4x4 goal: rotated 180 degrees, tile t renumbered 16 - t (data/README.md)."""
    frame = frame_for(Goal.blank_first("4x4"))
    assert frame.squares == tuple(15 - q for q in range(16)) and frame.labels == (0,) + tuple(16 - t for t in range(1, 16))
    assert frame.describe() == "mapped onto the standard goal (rotated 180 degrees, tiles renumbered): every bound applies"
    assert frame_for(Goal.of("15 14 13 12 11 10 9 8 7 6 5 4 3 2 1 0", "4x4")).describe() == (
        "mapped onto the standard goal (tiles renumbered): every bound applies"
    )
    assert frame_for(Goal.of("1 2 3 4 5 0 6 7 8 9 10 11 12 13 14 15", "4x4")).describe() == (
        "the goal as given (its blank is not in a corner): the pattern databases do not apply"
    )
    assert frame_for(Goal.standard("4x4")).describe() is None


def to_blank_first(tiles) -> tuple[int, ...]:
    """A standard-goal 4x4 position as the blank-first goal's (rotate 180 degrees, t -> 16 - t)."""
    return tuple(16 - t if t else 0 for t in reversed(tiles))


@pytest.mark.parametrize("instance", ["55", "79", "12", "42"])
def test_korf_instances_on_the_blank_first_goal(real_pdbs, instance):
    """The same lengths, with the 6-6-3 and 7-7-1 databases, and exactly the same nodes as on the standard goal."""
    inst = next(i for i in korf100() if i.id == instance)
    board = Board(Shape(4, 4), to_blank_first(inst.tiles), "blank-first")
    for bound, picked in (("pdb663", "pdb663"), ("pdb771", "pdb771"), ("auto", "pdb771")):
        sol = solve(board, bound)
        assert sol.bound == picked and sol.length == inst.optimal and board.solves(sol.tiles)
    for bound in ("pdb663", "pdb771"):
        standard = solve(Board(Shape(4, 4), inst.tiles), bound)
        sol = solve(board, bound)
        assert sol.result.nodes == standard.result.nodes and [it.nodes for it in sol.result.iterations] == [
            it.nodes for it in standard.result.iterations
        ]
        assert bound_values(board)[bound] == bound_values(standard.board)[bound]


def test_the_databases_are_offered_for_corner_goals_only(real_pdbs):
    shape = Shape(4, 4)
    middle = Goal.of("1 2 3 4 5 0 6 7 8 9 10 11 12 13 14 15", shape)
    assert "pdb663" in available_bounds(shape, Goal.blank_first(shape))
    assert available_bounds(shape, middle) == ["auto", "wdid", "wd", "id", "lc", "md"]
    assert resolve_bound(shape, "auto", middle).name == "wdid"
    message = r"^bound 'pdb663' is not available for this goal: the pattern databases need its blank in a corner, not on row 2, column 2"
    with pytest.raises(InputError, match=message + r" \(available: auto, wdid"):
        resolve_bound(shape, "pdb663", middle)
    board = Board(shape, (1, 2, 3, 4, 0, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15), middle)
    assert "pdb663" not in bound_values(board) and solve(board).length == 1


def test_own_mirror_goal_halves_the_root_and_stays_optimal(exact):
    """Mirror-closed tables need the goal to be its own mirror image too."""
    shape = Shape(3, 3)
    goal = (1, 2, 3, 4, 0, 6, 7, 8, 5)
    assert is_own_mirror(shape, goal)
    dist = exact("3x3", goal)
    keys = [k for k in dist if is_own_mirror(shape, list(k))]
    assert len(keys) > 50
    assert tables_for(shape, keys[0], goal) is move_tables(shape, True)
    for key in keys:
        sol = solve(Board(shape, tuple(key), goal), "lc")
        assert sol.length == dist[key]
    # an own-mirror position towards a goal that is not: the ordinary tables
    assert tables_for(shape, keys[0], GOALS["3x3"][2]) is move_tables(shape)


# ------------------------------------------------------------------ the API, the CLI, batches, the parallel search
def call(method: str, **params) -> dict:
    reply = json.loads(api.call(method, json.dumps(params)))
    assert reply["ok"], reply
    return reply["result"]


def refusal(method: str, **params) -> str:
    reply = json.loads(api.call(method, json.dumps(params)))
    assert not reply["ok"] and reply["error"]["type"] == "input", reply
    return reply["error"]["message"]


def test_api_takes_the_goal_by_name_text_or_tiles(exact):
    dist = exact("3x3", GOALS["3x3"][1])
    text = "1 2 3 0 4 5 6 7 8"
    for goal in ([1, 2, 3, 4, 0, 5, 6, 7, 8], "1 2 3 4 _ 5 6 7 8"):
        out = call("solve", text=text, goal=goal)
        assert out["goal"] == [1, 2, 3, 4, 0, 5, 6, 7, 8] and out["length"] == dist[bytes([1, 2, 3, 0, 4, 5, 6, 7, 8])] == 1
        assert out["bound"] == "wdid" and out["goal_frame"].startswith("the goal as given")
    out = call("bounds", tiles=[1, 0, 2, 3, 4, 5, 6, 7, 8], goal="blank-first")
    assert out["goal"] == list(range(9)) and out["auto"] == "wdid" and out["bounds"]["lb"] == 1
    assert out["goal_frame"] == "mapped onto the standard goal (rotated 180 degrees, tiles renumbered): every bound applies"
    assert call("parse", text="0 1 2 3", goal="blank-first")["goal"] == [0, 1, 2, 3]
    assert call("solve", text="1 0 2 3", goal="blank-first")["moves"] == [1]
    assert "unsolvable for this goal" in refusal("solve", text="1 2 3 0", goal="blank-first")
    assert refusal("solve", text="1 2 3 0", goal="1 2") == "the goal: a 2x2 board has 4 squares, got 2 tiles"
    assert refusal("solve", text="1 2 3 0", goal={"x": 1}).startswith("goal must be a list of tile numbers")
    assert refusal("explore_position", text="1 2 3 0", goal="blank-first").startswith(
        "explore_position takes text, tiles, shape, not 'goal'"
    )


def test_api_random_draws_positions_solvable_for_the_goal():
    for seed in range(20):
        out = call("random", shape="3x4", seed=seed, goal="blank-first")
        assert out["goal"] == list(range(12))
        assert solvability_problem(Shape(3, 4), out["tiles"], out["goal"]) is None


def test_api_lab_and_hint_with_a_goal(exact):
    goal = [1, 2, 3, 4, 0, 5, 6, 7, 8]
    dist = exact("3x3", tuple(goal))
    tiles = [1, 2, 3, 0, 5, 8, 4, 6, 7]
    d = dist[bytes(tiles)]
    hint = call("hint", tiles=tiles, goal=goal, all=True)
    assert hint["goal"] == goal and hint["distance"] == d and hint["source"] == "solve"  # the explorer's tables are for the standard goal
    board = Board(Shape(3, 3), tuple(tiles), goal)
    assert all(dist[bytes(board.slide(m["tile"]).tiles)] == d - 1 for m in hint["optimal"])
    compared = call("compare", tiles=tiles, goal=goal, bounds="md,wdid")["bounds"]
    assert compared["md"]["length"] == compared["wdid"]["length"] == d
    assert "is not available for this goal" in refusal("compare", tiles=tiles, goal=goal, bounds="pdb663")
    traced = call("trace", tiles=tiles, goal=goal, moves=hint["solution"]["moves"])
    assert traced["remaining"][0] == d and all(traced["values"]["wdid"][i] <= d - i for i in range(d + 1))
    explained = call("explain", tiles=tiles, goal=goal)
    assert explained["frame"] is None and explained["wdid"]["value"] == bound_values(board)["wdid"]


def test_explain_a_corner_goal_in_its_frame():
    board = Board.parse("1 0 2 3 4 5 6 7 8", target="blank-first")
    out = call("explain", tiles=list(board.tiles), goal="blank-first")
    values = bound_values(board)
    assert out["frame"] == {
        "description": "mapped onto the standard goal (rotated 180 degrees, tiles renumbered): every bound applies",
        "tiles": [1, 2, 3, 4, 5, 6, 7, 0, 8],
        "goal": [1, 2, 3, 4, 5, 6, 7, 8, 0],
    }
    assert (out["md"]["value"], out["lc"]["value"], out["id"]["value"], out["wdid"]["value"]) == (1, 1, values["id"], values["wdid"])


def test_cli_goal_option(tmp_path):
    run = run_cli("solve", "1 0 2 3 4 5 6 7 8", "--goal", "blank-first", "--json")
    out = json.loads(run.stdout)
    assert run.returncode == 0 and out["goal"] == list(range(9)) and out["moves"] == [1] and out["goal_frame"].startswith("mapped")
    run = run_cli("solve", "1 2 3 0 4 5 6 7 8", "--goal", "1 2 3 4 0 5 6 7 8", "-q")
    assert run.returncode == 0
    assert "goal: 1 2 3 4 0 5 6 7 8; the goal as given (its blank is not in a corner): the pattern databases do not apply" in run.stdout
    assert "bound used: wdid (available: auto, wdid, wd, id, lc, md)" in run.stdout and "optimal length: 1" in run.stdout
    run = run_cli("bounds", "1 0 2 3 4 5 6 7 8", "--goal", "blank-first", "--json")
    assert json.loads(run.stdout)["auto"] == "wdid"
    run = run_cli("solve", "1 2 3 4 0 5 6 7 8 9 10 11 12 13 14 15", "--goal", "1 2 3 4 5 0 6 7 8 9 10 11 12 13 14 15", "--bound", "pdb663")
    assert run.returncode == 2 and "not available for this goal" in run.stderr and "Traceback" not in run.stderr
    run = run_cli("solve", "1 2 3 0", "--goal", "blank-first")
    assert run.returncode == 2 and run.stderr.startswith("fifteen: error: unsolvable for this goal")
    for command in ("explain", "trace", "compare", "hint"):
        run = run_cli(command, "1 0 2 3 4 5 6 7 8", "--goal", "blank-first")
        assert run.returncode == 0, (command, run.stderr)
    assert (
        "explained mapped onto the standard goal (rotated 180 degrees, tiles renumbered)"
        in run_cli("explain", "1 0 2 3 4 5 6 7 8", "--goal", "blank-first").stdout
    )
    positions = tmp_path / "positions.txt"
    positions.write_text("a\t1 0 2 3 4 5 6 7 8\nb\t2 1 3 4 5 6 7 8 0\n")
    run = run_cli("batch", str(positions), "--goal", "blank-first", "--jobs", "1", "-q")
    records = {r["id"]: r for r in map(json.loads, run.stdout.splitlines())}
    assert records["a"]["length"] == 1 and records["a"]["goal"] == list(range(9)) and "unsolvable for this goal" in records["b"]["error"]
    run = run_cli("batch", str(positions), "--shape", "3x3", "--goal", "1 2")
    assert run.returncode == 2 and "the goal: a 3x3 board has 9 squares, got 2 tiles" in run.stderr


def test_parallel_search_towards_a_goal(exact):
    from fifteen.bounds import start_bound
    from fifteen.parallel.processes import solve_parallel
    from fifteen.parallel.scheduler import ParallelSearch, run_inline

    goal = GOALS["3x3"][2]
    dist = exact("3x3", goal)
    shape = Shape(3, 3)
    for key in sample(dist, 4, seed=5):
        board = Board(shape, tuple(key), goal)
        serial = solve(board, "lc")
        info = resolve_bound(shape, "lc", board.target)
        search = ParallelSearch(
            shape, board.tiles, "lc", info.factory, 3, min_task_nodes=1, start_bound=start_bound(board, "lc"), goal=goal
        )
        inline = run_inline(search)
        assert inline.length == serial.length == dist[key]
        assert [it.nodes for it in inline.iterations[:-1]] == [it.nodes for it in serial.result.iterations[:-1]]
    board = Board.parse("8 7 6 5 4 3 2 0 1", target="blank-first")  # a corner goal: searched in the standard goal's frame
    sol = solve_parallel(board, "wdid", jobs=2)
    assert sol.length == exact("3x3", tuple(range(9)))[bytes(board.tiles)] and board.solves(sol.tiles) and board.solves(sol.directions)
