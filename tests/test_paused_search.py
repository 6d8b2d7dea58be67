"""A search paused at the end of a time slice and resumed (fifteen.search.slices) is the search that never
paused: the same nodes per iteration and the same solution, for every loop (the classic bounds,
the PDB loops with and without the reflected lookup, the ordering pass, the dual lookups and
BPMX, the 7-8 layout's loop), on ordinary and own-mirror roots; paused at random ticks, and by
real time slices through ida_steps, the API's sliced calls and the parallel tasks.
"""

from __future__ import annotations

import json
import random
import sys

import pytest

from fifteen import Board, Shape, api, bounds
from fifteen.board import tiles_along
from fifteen.bounds import databases
from fifteen.search import slices
from fifteen.search.ida import ida_star, ida_steps
from fifteen.search.slices import Pause, drive, time_slice
from support.positions import KORF, OWN_MIRROR_3X3, OWN_MIRROR_4X4, SET_2X4, SET_3X3


def never(nodes: int) -> int:
    return sys.maxsize


class RandomPauses:
    """A tick that pauses the search at random ticks, each ``1..every`` nodes after the last."""

    def __init__(self, seed: int, every: int):
        self.rng = random.Random(seed)
        self.every = every
        self.pauses = 0

    def __call__(self, nodes: int) -> int:
        if nodes and self.rng.random() < 0.5:
            self.pauses += 1
            raise Pause()
        return nodes + self.rng.randint(1, self.every)


def run_to_end(searcher, budget: int):
    """``searcher.run(budget)`` resumed after every pause until it ends."""
    try:
        return searcher.run(budget)
    except Pause:
        assert searcher.paused
    while True:
        try:
            return searcher.resume()
        except Pause:
            assert searcher.paused


def check_paused(factory, shape, tiles, seed: int = 1, every: int = 40) -> int:
    """Every iteration of the serial search, run again by one searcher paused at random ticks:
    the same nodes and, in the last, the same solution.  Returns the pauses made."""
    serial = ida_star(shape, list(tiles), factory)
    ticks = RandomPauses(seed, every)
    searcher = factory(shape, list(tiles), ticks)
    for it in serial.iterations:
        path, nodes = run_to_end(searcher, it.bound)
        assert nodes == it.nodes, (tiles, it.bound)
        assert (path is None) == (it is not serial.iterations[-1]), (tiles, it.bound)
    assert path is not None and path[::-1] == serial.path, tiles
    return ticks.pauses


CLASSIC = ["md", "lc", "lclm", "id", "wd", "wdid"]
SMALL = ((Shape(3, 3), SET_3X3 + OWN_MIRROR_3X3), (Shape(2, 4), SET_2X4))


@pytest.mark.parametrize("bound", CLASSIC)
def test_paused_classic_bounds_on_small_boards(bound):
    factory = bounds.bound_info(bound).factory
    pauses = 0
    for shape, positions in SMALL:
        for k, tiles in enumerate(positions):
            pauses += check_paused(factory, shape, tiles, seed=k, every=5)
    assert pauses > 200


@pytest.mark.parametrize("more", [{}, {"reflect": False}, {"bpmx": True}, {"dual": True}, {"dual": True, "bpmx": True}])
def test_paused_pdb_loops_on_small_boards(small_pdbs, more):
    from fifteen.bounds.pdb_loop import pdb_searcher

    for shape, positions in SMALL:
        if (more.get("dual") or more.get("reflect", True)) and shape.rows != shape.cols and more != {}:
            continue  # the dual lookups need a square board
        factory = pdb_searcher(small_pdbs[str(shape)], **more)
        for k, tiles in enumerate(positions):
            check_paused(factory, shape, tiles, seed=k, every=3)


@pytest.mark.parametrize("reflect", [True, False])
def test_paused_pdb78_loop_on_small_boards(small_packs, reflect):
    from fifteen.bounds.pdb78_loop import pdb78_searcher

    for shape, positions in SMALL:
        factory = pdb78_searcher(small_packs[str(shape)], reflect=reflect)
        for k, tiles in enumerate(positions):
            check_paused(factory, shape, tiles, seed=k, every=3)


@pytest.mark.parametrize(
    "bound,instance,every",
    [("md", "9", 5000), ("lc", "9", 300), ("id", "9", 5000), ("wd", "9", 2000), ("wdid", "9", 1000)]
    + [("pdb555", "9", 100), ("pdb663", "1", 2000), ("pdb771", "1", 100), ("pdb771", "9", 20)],
)
def test_paused_korf_instances(real_pdbs, bound, instance, every):
    """Korf #1 and #9: the pattern databases with the ordering pass (at the root from the third
    iteration) and the 7-7-1's loop, paused a few hundred times each."""
    factory = bounds.resolve_bound(Shape(4, 4), bound).factory
    assert check_paused(factory, Shape(4, 4), KORF[instance], every=every) > 20


def test_paused_own_mirror_4x4(real_pdbs):
    """Own-mirror roots (half the root's moves, the mirror-closed tables)."""
    factory = bounds.resolve_bound(Shape(4, 4), "pdb663").factory
    for k, tiles in enumerate(OWN_MIRROR_4X4):
        check_paused(factory, Shape(4, 4), tiles, seed=k, every=500)


def test_a_pause_at_the_root_and_resume_without_a_pause():
    """A pause by the root's own tick (the first node), and a resume whose slice is not over: the
    search ends in one resume."""
    calls = []

    def tick(nodes: int) -> int:
        calls.append(nodes)
        if nodes == 1 and len(calls) == 2:
            raise Pause()
        return nodes + 1

    shape, tiles = Shape(3, 3), SET_3X3[5]
    factory = bounds.bound_info("md").factory
    expected = factory(shape, list(tiles), never).run(23)
    searcher = factory(shape, list(tiles), tick)
    with pytest.raises(Pause) as paused:
        searcher.run(23)
    assert paused.value.trail == [] and searcher.paused
    assert searcher.resume() == expected and not searcher.paused
    with pytest.raises(RuntimeError, match="not paused"):
        searcher.resume()


def test_ida_steps_in_time_slices_is_ida_star():
    """ida_steps in slices of no time (a pause at every tick): one yield per pause, the result
    of ida_star; outside a slice it never yields."""
    databases.ensure_for(Shape(4, 4))
    factory = bounds.resolve_bound(Shape(4, 4), "pdb663").factory
    serial = ida_star(Shape(4, 4), KORF["9"], factory)
    steps = ida_steps(Shape(4, 4), KORF["9"], factory, tick_nodes=50)
    yields = 0
    while True:
        try:
            with time_slice(0):
                next(steps)
            yields += 1
        except StopIteration as end:
            result = end.value
            break
    assert yields > 50
    counts = [(it.bound, it.nodes) for it in serial.iterations]
    assert (result.path, [(it.bound, it.nodes) for it in result.iterations]) == (serial.path, counts)
    assert drive(ida_steps(Shape(4, 4), KORF["9"], factory, tick_nodes=50)).nodes == serial.nodes


def test_the_api_solve_in_slices_answers_as_the_whole_call():
    """fifteen.api's sliced call (begin, then step until it ends) gives the reply of the whole call,
    nodes per iteration included; each step runs one slice."""
    params = json.dumps({"text": " ".join(map(str, KORF["9"])), "bound": "pdb663", "tick_nodes": 64})
    whole = json.loads(api.call("solve", params))
    reply = json.loads(api.begin("solve", params, slice_seconds=0))
    steps = 0
    while "pending" in reply:
        reply = json.loads(api.step(reply["pending"], slice_seconds=0))
        steps += 1
    assert steps > 20
    keys = ("length", "moves", "nodes", "iterations")
    assert [reply["result"][k] if k != "iterations" else [it["nodes"] for it in reply["result"][k]] for k in keys] == [
        whole["result"][k] if k != "iterations" else [it["nodes"] for it in whole["result"][k]] for k in keys
    ]


def test_a_sliced_call_cancelled_between_two_slices():
    """A cancel between two slices ends the call with the cancelled error; the call is forgotten."""
    params = json.dumps({"text": " ".join(map(str, KORF["1"])), "bound": "md"})
    reply = json.loads(api.begin("solve", params, slice_seconds=0))
    call_id = reply["pending"]
    assert json.loads(api.cancel(call_id)) == {"ok": False, "error": {"type": "cancelled", "code": "cancelled", "message": "cancelled"}}
    assert json.loads(api.step(call_id))["error"]["code"] == "param"


def test_parallel_tasks_in_slices_count_as_a_whole_call(real_pdbs, monkeypatch):
    """The pool's bundle of tasks, run in slices (a tick every 16 nodes in a slice): the outcomes of
    the whole call."""
    monkeypatch.setattr(slices, "SLICE_TICK_NODES", 16)
    begun = json.loads(api.call("parallel_begin", json.dumps({"text": " ".join(map(str, KORF["1"])), "bound": "pdb663", "workers": 2})))
    work = begun["result"]
    tasks = [t for bundle in work["bundles"] for t in bundle]
    params = json.dumps({"shape": "4x4", "tasks": tasks})
    whole = json.loads(api.call("parallel_tasks", params))["result"]
    reply = json.loads(api.begin("parallel_tasks", params, slice_seconds=0))
    steps = 0
    while "pending" in reply:
        reply = json.loads(api.step(reply["pending"], slice_seconds=0))
        steps += 1
    assert steps > 10 and reply["result"] == whole
    api.call("parallel_drop", json.dumps({"search": work["search"]}))


def test_board_solved_in_slices_replays():
    board = Board.parse("8 6 7 2 5 4 3 0 1")
    reply = json.loads(api.begin("solve", json.dumps({"text": board.text(), "bound": "md", "tick_nodes": 16}), slice_seconds=0))
    while "pending" in reply:
        reply = json.loads(api.step(reply["pending"], slice_seconds=0))
    assert reply["result"]["length"] == 31 and board.solves(reply["result"]["moves"])


def sliced_reply(method: str, params: dict) -> tuple[dict, int]:
    """The reply of *method* run as a sliced call in slices of no time, and its steps."""
    reply = json.loads(api.begin(method, json.dumps(params), slice_seconds=0))
    steps = 0
    while "pending" in reply:
        reply = json.loads(api.step(reply["pending"], slice_seconds=0))
        steps += 1
    return reply, steps


def without_times(value):
    """*value* with every ``seconds``-like figure dropped (they differ from run to run)."""
    if isinstance(value, dict):
        return {k: without_times(v) for k, v in value.items() if "second" not in k and k not in ("nodes_per_second", "ebf_time")}
    if isinstance(value, list):
        return [without_times(v) for v in value]
    return value


def test_the_lab_compare_in_slices_stops_at_the_budget_where_the_whole_call_does(monkeypatch):
    """The lab's comparison in slices (a tick every 64 nodes in a slice): the node counts of the
    whole call, the budget-stopped bound's partial count included."""
    monkeypatch.setattr(slices, "SLICE_TICK_NODES", 64)
    params = {"text": " ".join(map(str, KORF["9"])), "bounds": ["md", "lc"], "budget": 100_000}
    whole = json.loads(api.call("compare", json.dumps(params)))
    reply, steps = sliced_reply("compare", params)
    assert steps > 50
    runs = reply["result"]["bounds"]
    assert [runs["md"]["finished"], runs["lc"]["finished"]] == [False, True]
    assert without_times(reply) == without_times(whole)


def test_a_hint_in_slices_answers_as_the_whole_call(real_pdbs, monkeypatch):
    monkeypatch.setattr(slices, "SLICE_TICK_NODES", 64)
    params = {"text": " ".join(map(str, KORF["9"])), "bound": "pdb663", "all": True}
    monkeypatch.setattr(api, "_hinter", None)  # no solution kept from an earlier hint
    whole = json.loads(api.call("hint", json.dumps(params)))
    monkeypatch.setattr(api, "_hinter", None)
    reply, steps = sliced_reply("hint", params)
    assert steps > 10
    assert reply == whole and reply["result"]["distance"] == 46


# ----------------------------------------------------------------- the anytime search's parts
def in_zero_slices(steps):
    """Drive *steps* one slice of no time at a time: (result, slices)."""
    count = 0
    while True:
        try:
            with time_slice(0):
                next(steps)
            count += 1
        except StopIteration as end:
            return end.value, count


def test_resumable_keeps_one_computation_and_goes_on_with_the_same_key():
    def counting(n, log):
        for k in range(n):
            log.append(k)
            yield
        return n

    log: list[int] = []
    assert slices.resumable("a", lambda: counting(3, log)) == 3  # outside a slice: at once
    log.clear()
    with time_slice(0), pytest.raises(Pause):
        slices.resumable("a", lambda: counting(3, log))
    with time_slice(0), pytest.raises(Pause):
        slices.resumable("a", lambda: counting(3, log))  # the same key: goes on
    assert log == [0, 1]
    with time_slice(0), pytest.raises(Pause):
        slices.resumable("b", lambda: counting(2, log))  # another key: a new computation, "a" dropped
    assert log == [0, 1, 0]
    result, pauses = in_zero_slices(slices.retried(lambda: slices.resumable("b", lambda: counting(2, log))))
    assert (result, pauses, log) == (2, 1, [0, 1, 0, 1])


def test_a_window_search_and_a_beam_in_slices_find_what_they_find_whole(monkeypatch):
    """The anytime improver's window search (the template's loop) and beam, paused at every look at
    the clock and resumed by retrying the same call: the same path and nodes as in one go."""
    from fifteen.anytime.beam import beam_search
    from fifteen.anytime.tables import label_tables
    from fifteen.anytime.windows import optimal_between
    from support.positions import KT1

    monkeypatch.setattr(slices, "SLICE_TICK_NODES", 32)
    monkeypatch.setattr("fifteen.anytime.beam.CHUNK", 64)
    board = Board.parse(KT1)
    T = label_tables(board.shape)
    tiles, target = list(board.tiles), list(board.target.tiles)
    whole = beam_search(T, tiles, target, 512)
    beam, pauses = in_zero_slices(slices.retried(lambda: beam_search(T, tiles, target, 512)))
    assert beam == whole and pauses > 20 and board.solves(tiles_along(board.shape, board.tiles, beam))
    # a window: 40 random moves from the position (never undoing the last), searched for a shorter way
    rng = random.Random(5)
    start, end, back = list(tiles), list(tiles), -1
    for _ in range(40):
        b = end.index(0)
        s = rng.choice([x for x in T.nbrs[b] if x != back])
        end[b], end[s], back = end[s], 0, b
    whole = optimal_between(T, start, end, 38, 200_000)
    window, pauses = in_zero_slices(slices.retried(lambda: optimal_between(T, start, end, 38, 200_000)))
    assert window == whole and whole[1] > 1000 and pauses > 20


def test_a_stage_beam_in_slices_finds_what_it_finds_whole():
    """The reduction's stage beam on a 7x7 (fifteen.anytime.reduce), paused between two layers at
    every slice and resumed by retrying the same call: the same path as in one go."""
    from fifteen.anytime.reduce import blank_walk, stage_beam

    shape = Shape(7, 7)
    tiles = list(range(shape.size))
    random.Random(7).shuffle(tiles)
    goal, _ = blank_walk(shape, shape.goal())
    whole = stage_beam(shape, tiles, goal, 64)
    stage, pauses = in_zero_slices(slices.retried(lambda: stage_beam(shape, tiles, goal, 64)))
    assert stage == whole and stage is not None and pauses > 20


def test_an_anytime_solve_in_slices_answers_with_a_replayed_path(monkeypatch):
    """The anytime search (first solution, improver, prover) run as a sliced call: an answer
    replayed to the goal, with its proven bound; a cancel between two slices keeps the best found."""
    from support.positions import KT1

    monkeypatch.setattr(slices, "SLICE_TICK_NODES", 256)
    params = {"text": KT1, "anytime": True, "time_limit": 1.5}
    reply, steps = sliced_reply("solve", params)
    result = reply["result"]
    assert steps > 20 and result["stopped"] == "time"
    assert Board.parse(KT1).solves(result["moves"]) and result["lower_bound"] <= result["length"]
    begun = json.loads(api.begin("solve", json.dumps(params), slice_seconds=0.01))
    for _ in range(30):
        begun = json.loads(api.step(begun["pending"], slice_seconds=0.01))
    stopped = json.loads(api.cancel(begun["pending"]))["result"]
    assert stopped["stopped"] == "cancelled" and Board.parse(KT1).solves(stopped["moves"])


def test_an_improver_call_in_slices_improves_and_replays(monkeypatch):
    from support.positions import KT1

    monkeypatch.setattr(slices, "SLICE_TICK_NODES", 256)
    first = json.loads(api.call("anytime_first", json.dumps({"text": KT1, "bound": "auto"})))["result"]
    params = {"text": KT1, "path": first["path"], "mode": "beam+windows", "carried": {}, "time_limit": 20}
    reply, steps = sliced_reply("anytime_improve", params)
    result = reply["result"]
    assert steps > 5 and len(result["path"]) <= len(first["path"])
    assert Board.parse(KT1).solves(result["moves"])


def test_a_solve_after_the_bounds_of_its_position_reuses_them(monkeypatch):
    """The page checks a typed position with ``bounds`` and then solves its tiles: the bounds are
    computed once (fifteen.api keeps the last position's)."""
    calls = []
    real = api.bound_values
    monkeypatch.setattr(api, "bound_values", lambda board: calls.append(board) or real(board))
    text = " ".join(map(str, KORF["9"]))
    checked = json.loads(api.call("bounds", json.dumps({"text": text})))["result"]
    solved = json.loads(api.call("solve", json.dumps({"tiles": checked["tiles"], "shape": "4x4", "bound": "pdb663"})))["result"]
    assert len(calls) == 1 and solved["bounds"] == checked["bounds"] and solved["length"] == 46
    json.loads(api.call("solve", json.dumps({"tiles": KORF["1"], "shape": "4x4", "bound": "pdb771"})))
    assert len(calls) == 2  # another position: computed


def test_pausing_costs_the_loops_nothing_per_node():
    """The pause handlers leave the hot bytecode as it was without them: no no-op for a ``try``
    line, no cell variable (a comprehension in a handler would make ``s`` one, slower on every
    node), no local more than the loop's own names, in every generated loop."""
    import dis

    from fifteen.anytime.windows import WINDOW_LOOP
    from fifteen.bounds import manhattan_loop, pdb78_loop, pdb_loop
    from fifteen.search import template

    loops = [
        manhattan_loop.MD_LOOP,
        manhattan_loop.LC_LOOP,
        pdb_loop.PDB_REFLECTED_LOOP,
        pdb_loop.PDB_PLAIN_LOOP,
        pdb_loop.pdb_dual_loop(3, True),
        pdb78_loop.pdb78_loop(True, 3),
        WINDOW_LOOP,
    ]
    for loop in loops:
        namespace = {"Pause": Pause, "note": None, "holds": None}
        exec(template._compiled(loop), namespace)
        dfs = namespace["make"](**{name: [] for name in loop.names}, tick=None)[0]
        code = dfs.__code__
        assert code.co_cellvars == (), loop.name
        assert "paused" not in code.co_varnames, loop.name
        assert not any(i.opname == "NOP" for i in dis.get_instructions(dfs)), loop.name


def test_move_tables_built_in_slices_are_the_whole_build_s():
    """The duplicate-pruning automaton's enumeration (the first search of a shape: a second or
    two in the browser) paused at every look at the clock and asked again: the same tables."""
    from fifteen.search.moves import MoveTables

    for mirror_closed in (False, True):
        whole = MoveTables(Shape(3, 3), mirror_closed=mirror_closed)
        sliced_tables, pauses = in_zero_slices(slices.retried(lambda: MoveTables(Shape(3, 3), mirror_closed=mirror_closed)))  # noqa: B023
        assert pauses > 5
        assert (sliced_tables.successors, sliced_tables.start_states, sliced_tables.forbidden_sequences) == (
            whole.successors,
            whole.start_states,
            whole.forbidden_sequences,
        )
