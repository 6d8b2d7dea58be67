"""The anytime search (fifteen.anytime): every answer replays to the goal, is never shorter than
the optimum, every lower bound is at most the optimum and ``optimal`` is said only when it is —
checked against exact breadth-first distances on small boards, for the standard goal and
others; the first solution on every shape from 2x2 to 10x10; the pieces' results pinned
(deterministic: beam and window searches are not timed).  No timed assertion: the time limits
used here only make runs end, and what is asserted holds whenever they end (bench/anytime.md
has the speeds)."""

from __future__ import annotations

import doctest
import functools
import random
from functools import cache

import pytest

from fifteen import Board, Shape
from fifteen.anytime import AnytimeResult, anytime_solve, beam, check_time_limit, driver
from fifteen.anytime.beam import beam_search
from fifteen.anytime.decompose import decompose, decompose_to
from fifteen.anytime.tables import label_tables, labelled
from fifteen.anytime.windows import Shortener, optimal_between, remove_cycles, reverse_path
from fifteen.board import Goal, tiles_along
from fifteen.errors import InputError
from support.bfs import distances
from support.positions import KT1, SET_2X4, SET_3X3, korf_taylor

#: Goals of the 3x3 runs: the standard one, blank-first, and one with the blank in the middle (no frame maps it).
GOALS_3X3 = [None, "blank-first", (1, 2, 3, 4, 0, 5, 6, 7, 8)]


@cache
def exact(shape: Shape, goal: tuple[int, ...] | None) -> dict[bytes, int]:
    return distances(shape, goal)


def positions(shape: Shape, goal, count: int, seed: int) -> list[Board]:
    """*count* random positions for *goal* and the hardest ones (up to 5)."""
    target = Goal.of(goal, shape)
    dist = exact(shape, target.tiles)
    far = max(dist.values())
    hardest = sorted(k for k, v in dist.items() if v == far)[:5]
    rng = random.Random(seed)
    return [Board.random(shape, rng, target) for _ in range(count)] + [Board(shape, tuple(k), target) for k in hardest]


def check(result: AnytimeResult, optimum: int) -> None:
    """The promises of a result against the exact *optimum* of its position."""
    board = result.board
    assert result.tiles is not None and board.solves(result.tiles)
    assert result.length == len(result.tiles) >= optimum
    assert result.lower_bound <= optimum and result.h0 <= result.lower_bound
    assert result.optimal == (result.length == result.lower_bound)
    if result.optimal:
        assert result.length == optimum and result.stopped == "optimal"
    for imp in result.improvements:
        assert imp.lower_bound <= optimum and imp.length is not None and imp.length >= optimum
        assert imp.moves is not None and board.solves(imp.moves) and len(imp.moves) == imp.length
    lows = [imp.lower_bound for imp in result.improvements]
    lengths = [imp.length for imp in result.improvements]
    assert lows == sorted(lows) and lengths == sorted(lengths, reverse=True)  # reports only improve


# ------------------------------------------------------------------ against breadth-first distances


@pytest.mark.parametrize("goal", GOALS_3X3, ids=["standard", "blank-first", "blank-middle"])
def test_runs_to_the_end_are_optimal_on_3x3(goal):
    """Without a time limit the prover ends every run on 3x3: proven optimal, the BFS distance."""
    shape = Shape(3, 3)
    for board in positions(shape, goal, 40, seed=1):
        result = anytime_solve(board)
        check(result, exact(shape, board.target.tiles)[bytes(board.tiles)])
        assert result.optimal and result.stopped == "optimal"


@pytest.mark.parametrize("shape", [Shape(2, 4), Shape(4, 2), Shape(2, 3)], ids=str)
def test_runs_to_the_end_are_optimal_on_two_row_boards(shape):
    for goal in (None, "blank-first"):
        for board in positions(shape, goal, 25, seed=2):
            result = anytime_solve(board)
            check(result, exact(shape, board.target.tiles)[bytes(board.tiles)])
            assert result.optimal


@pytest.mark.parametrize("mode", ["beam+windows", "beams", "windows"])
@pytest.mark.parametrize("goal", GOALS_3X3, ids=["standard", "blank-first", "blank-middle"])
def test_improvers_alone_never_go_below_the_optimum(mode, goal):
    """No prover (prove_share 0): the improvers run until they have nothing left to try; the
    answers are never shorter than the optimum, the bound (the root's) never above it, and
    ``optimal`` is said only when the length met it."""
    shape = Shape(3, 3)
    for board in positions(shape, goal, 25, seed=3):
        result = anytime_solve(board, prove_share=0, mode=mode)
        check(result, exact(shape, board.target.tiles)[bytes(board.tiles)])
        assert result.stopped in ("optimal", "exhausted") and result.prover_nodes == 0


def test_a_first_solution_by_decomposition_is_improved_to_the_optimum():
    """first_beam 0: decomposition first (long), then the improvers and the prover."""
    shape = Shape(3, 3)
    for tiles in SET_3X3:
        board = Board(shape, tiles)
        result = anytime_solve(board, first_beam=0)
        check(result, exact(shape, None)[bytes(tiles)])
        assert result.optimal


def test_time_limits_too_short_to_prove_keep_the_promises():
    """A tiny time limit stops most runs before the proof (the first solution is never cut
    short): whatever stopped them, the promises hold."""
    shape = Shape(3, 3)
    stops = set()
    for board in positions(shape, None, 30, seed=4):
        result = anytime_solve(board, time_limit=1e-6)
        check(result, exact(shape, None)[bytes(board.tiles)])
        stops.add(result.stopped)
    assert stops <= {"time", "optimal"}


def test_window_searches_are_optimal_between_any_two_positions():
    """optimal_between(start, target) is the BFS distance between them (labels = target squares)."""
    shape = Shape(3, 3)
    T = label_tables(shape)
    rng = random.Random(5)
    targets = [Board.random(shape, rng).tiles for _ in range(3)]
    for i in range(90):
        target = targets[i % 3]
        start = Board.random(shape, rng, target).tiles
        d = exact(shape, target)[bytes(start)]
        path, _ = optimal_between(T, start, target, 40, 10**7)
        assert path is not None and len(path) == d
        assert Board(shape, start, target).solves(tiles_along(shape, start, path))
        assert optimal_between(T, start, target, d - 1, 10**7)[0] is None


# ------------------------------------------------------------------ every shape


@pytest.mark.parametrize("rows", range(2, 11))
def test_decomposition_solves_every_shape(rows):
    """Random positions of every shape rows x 2..10, towards the standard goal, blank-first and a
    random goal: the path replays to the goal."""
    rng = random.Random(rows)
    for cols in range(2, 11):
        shape = Shape(rows, cols)
        T = label_tables(shape)
        for goal in (None, "blank-first", tuple(Board.random(shape, rng).tiles)):
            board = Board.random(shape, rng, goal)
            path = decompose_to(T, board.tiles, board.target.tiles)
            assert board.solves(tiles_along(shape, board.tiles, path)), (shape, board.tiles, goal)


def test_decomposition_solves_every_2x4_position():
    shape = Shape(2, 4)
    T = label_tables(shape)
    goal = shape.goal()
    for key in exact(shape, None):
        path = decompose(T, tuple(key), goal)
        assert Board(shape, tuple(key)).solves(tiles_along(shape, tuple(key), path))


def test_decompose_wants_the_blank_last():
    shape = Shape(3, 3)
    with pytest.raises(ValueError, match="last square"):
        decompose(label_tables(shape), SET_3X3[0], (0, 1, 2, 3, 4, 5, 6, 7, 8))


@pytest.mark.parametrize("size", [6, 8, 10])
def test_big_boards_get_a_solution(size):
    """6x6, 8x8, 10x10: the first solution (decomposition) replays, and the lower bound stays
    at most its length (the optimum is unknown there)."""
    board = Board.random(Shape(size, size), random.Random(size))
    result = anytime_solve(board, time_limit=0.5)
    assert result.tiles is not None and board.solves(result.tiles)
    assert result.lower_bound <= result.length and not result.optimal and result.stopped == "time"
    assert result.bound == "lclm"


# ------------------------------------------------------------------ the pieces, pinned


def test_pinned_first_solutions_of_korf_taylor_1():
    """Deterministic: the beam's and the decomposition's lengths on Korf and Taylor's #1 (optimum 100)."""
    board = Board.parse(KT1)
    T = label_tables(board.shape)
    goal = board.target.tiles
    assert len(beam_search(T, board.tiles, goal, 256)) == 106
    assert len(beam_search(T, board.tiles, goal, 256, ranked=False)) == 116  # ranked by MD + LC
    assert len(beam_search(T, board.tiles, goal, 16)) == 158
    assert len(decompose_to(T, board.tiles, goal)) == 206
    assert len(driver.first_solution(T, board.tiles, goal)) == 106
    # a beam pruned by a length (g + h >= upper) finds only shorter paths: none below the optimum,
    # and 4x wider than the first beam, shorter than its 106 moves
    assert beam_search(T, board.tiles, goal, 256, upper=100) is None
    assert beam_search(T, board.tiles, goal, 256, upper=106) is None
    assert len(beam_search(T, board.tiles, goal, 1024, upper=106) or []) == 104


def test_a_beam_stalled_near_its_target_keeps_no_position_again(monkeypatch):
    """The beams' endgame (fifteen.anytime.beam.STALL_LAYERS): a beam of 64 from an 8x8's goal
    towards a random position gets within a few moves and stalls there, coming back to the
    positions it left 16 layers before, until it reaches its depth limit and finds nothing; once
    it keeps no position again it finds a path (pinned), which replays."""
    shape = Shape(8, 8)
    board = Board.random(shape, 4)
    target = list(shape.goal())
    T = label_tables(shape)
    assert (beam.STALL_LAYERS, beam.ENDGAME_H) == (32, 16)
    back = beam_search(T, target, board.tiles, 64)
    assert back is not None and len(back) == 1144
    assert board.solves(tiles_along(shape, board.tiles, reverse_path(target, back)))
    monkeypatch.setattr(beam, "STALL_LAYERS", 10**9)
    assert beam_search(T, target, board.tiles, 64) is None


def test_pinned_beams_alternate_directions_on_korf_taylor_5():
    """After the first beam (forwards, 256: 121 moves) the improver's beams go backwards at the same
    width, then forwards at twice it (pruned by the best length); every path offered replays to the goal."""
    board = Board(Shape(5, 5), next(tiles for ident, tiles, _ in korf_taylor() if ident == 5))
    T = label_tables(board.shape)
    first = driver.first_solution(T, board.tiles, board.target.tiles)
    offered: list[list[int]] = []
    imp = driver.Improver(T, board.tiles, board.target.tiles, first, offered.append, mode="beams")
    for _ in range(5):
        imp.step()
    assert len(first) == 121 and imp.beams == [(-256, 117), (512, 109), (-512, None), (1024, 107), (-1024, None)]
    assert [len(p) for p in offered] == [117, 109, 107]
    assert imp.carried() == {"width": 1024, "backward": False, "windows_only": False, "noise": 0}
    assert all(board.solves(tiles_along(board.shape, board.tiles, p)) for p in offered)


@pytest.mark.parametrize(
    ("beams_from", "beams"),
    [
        ("position", [(512, 109), (1024, 107), (2048, 105)]),
        ("target", [(-512, 115), (-1024, 109), (-2048, 107)]),
    ],
)
def test_pinned_beams_from_one_end_double_each_time_on_korf_taylor_5(beams_from, beams):
    """An improver whose beams start from one end only (two improvers split the ends): each beam
    there, twice the last; every path offered replays to the goal."""
    board = Board(Shape(5, 5), next(tiles for ident, tiles, _ in korf_taylor() if ident == 5))
    T = label_tables(board.shape)
    first = driver.first_solution(T, board.tiles, board.target.tiles)
    offered: list[list[int]] = []
    imp = driver.Improver(T, board.tiles, board.target.tiles, first, offered.append, mode="beams", beams_from=beams_from)
    for _ in range(3):
        imp.step()
    assert imp.beams == beams
    assert [len(p) for p in offered] == sorted({length for _, length in beams if length is not None}, reverse=True)
    assert all(board.solves(tiles_along(board.shape, board.tiles, p)) for p in offered)


def test_beams_start_from_both_ends_the_position_or_the_target():
    board = Board(Shape(3, 3), (1, 2, 3, 4, 5, 6, 0, 7, 8))
    T = label_tables(board.shape)
    with pytest.raises(InputError, match="beams start from both, position, target, not 'goal'"):
        driver.Improver(T, board.tiles, board.target.tiles, [7, 8], lambda p: None, beams_from="goal")


def test_pinned_noisy_beams_follow_the_widest_beam_on_korf_taylor_5(monkeypatch):
    """Once no wider beam fits, NOISY_BEAMS beams of the last width, each ranked by its own noisy
    costs, from either end in turn (the first finds 107 moves where the plain beams of 512 found
    109), then nothing is left; every path offered replays to the goal."""
    board = Board(Shape(5, 5), next(tiles for ident, tiles, _ in korf_taylor() if ident == 5))
    T = label_tables(board.shape)
    monkeypatch.setattr(driver, "beam_fits", lambda T, width, length: width <= 512)
    first = driver.first_solution(T, board.tiles, board.target.tiles)
    noises: list[int] = []
    real = driver.beam_search
    monkeypatch.setattr(driver, "beam_search", lambda *a, noise=0, **kw: noises.append(noise) or real(*a, noise=noise, **kw))
    offered: list[list[int]] = []
    imp = driver.Improver(T, board.tiles, board.target.tiles, first, offered.append, mode="beams")
    while not imp.done:
        imp.step()
    assert driver.NOISY_BEAMS == 8
    assert imp.beams == [(-256, 117), (512, 109), (-512, None), (512, 107)] + [(-512, None), (512, None)] * 3 + [(-512, None)]
    assert [len(p) for p in offered] == [117, 109, 107] and imp.carried()["noise"] == 8
    assert noises == [0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8]  # (each noisy beam its own costs)
    assert all(board.solves(tiles_along(board.shape, board.tiles, p)) for p in offered)


def test_pinned_noise_family_ranks_every_beam_with_its_own_seeds_on_korf_taylor_5(monkeypatch):
    """An improver of noise family 1 (the improvers past the two that split the ends) runs the
    schedule's beams, each ranked by noisy costs of its own seed (beam_noise), and its noisy
    beams after the widest with seeds of the family too: other paths than the plain improver's
    (pinned: its first beam finds 115 moves where the plain one's finds 117); every path offered
    replays to the goal."""
    board = Board(Shape(5, 5), next(tiles for ident, tiles, _ in korf_taylor() if ident == 5))
    T = label_tables(board.shape)
    monkeypatch.setattr(driver, "beam_fits", lambda T, width, length: width <= 512)
    monkeypatch.setattr(driver, "NOISY_BEAMS", 2)
    first = driver.first_solution(T, board.tiles, board.target.tiles)
    noises: list[int] = []
    real = driver.beam_search
    monkeypatch.setattr(driver, "beam_search", lambda *a, noise=0, **kw: noises.append(noise) or real(*a, noise=noise, **kw))
    offered: list[list[int]] = []
    imp = driver.Improver(T, board.tiles, board.target.tiles, first, offered.append, mode="beams", noise_family=1)
    while not imp.done:
        imp.step()
    assert driver.FAMILY_SEEDS == 128
    assert noises == [128 + 18 + 1, 128 + 20, 128 + 20 + 1, 128 + 64 + 1, 128 + 64 + 2]
    assert imp.beams == [(-256, 115), (512, None), (-512, None), (512, 107), (-512, None)]
    assert [len(p) for p in offered] == [115, 107]
    assert all(board.solves(tiles_along(board.shape, board.tiles, p)) for p in offered)


def test_beam_noise_seeds_differ_between_families_beams_and_ends():
    """Family 0: plain beams (0), then the seeds 1.. after the widest; every other family's seeds
    are its own, one per width and end of the schedule and per noisy beam after the widest."""
    assert [driver.beam_noise(0, 1024, b, 0) for b in (False, True)] == [0, 0]
    assert [driver.beam_noise(0, 65536, True, k) for k in (1, 8)] == [1, 8]
    seeds = [
        driver.beam_noise(family, 1 << bits, backward, 0)
        for family in range(1, driver.MAX_NOISE_FAMILY + 1)
        for bits in range(8, 18)
        for backward in (False, True)
    ]
    seeds += [
        driver.beam_noise(family, 65536, False, k)
        for family in range(1, driver.MAX_NOISE_FAMILY + 1)
        for k in range(1, driver.NOISY_BEAMS + 1)
    ]
    assert len(set(seeds)) == len(seeds) and min(seeds) > driver.NOISY_BEAMS
    assert driver.beam_noise(2, 4096, True, 0) == 2 * 128 + 2 * 13 + 1


@pytest.mark.parametrize("family", [-1, 65, 1.0, True, "1"])
def test_a_noise_family_is_a_whole_number_from_0_to_64(family):
    board = Board(Shape(3, 3), (1, 2, 3, 4, 5, 6, 0, 7, 8))
    T = label_tables(board.shape)
    with pytest.raises(InputError, match="noise_family must be a whole number from 0 to 64"):
        driver.Improver(T, board.tiles, board.target.tiles, [7, 8], lambda p: None, noise_family=family)


def test_pinned_window_shortening_of_korf_taylor_1():
    """400 window searches over the decomposition's path: 247,270 nodes, 206 -> 156 moves."""
    board = Board.parse(KT1)
    T = label_tables(board.shape)
    sh = Shortener(T, board.tiles, decompose_to(T, board.tiles, board.target.tiles))
    for _ in range(400):
        sh.step()
    assert (len(sh.squares), sh.nodes, sh.k, sh.node_limit) == (156, 247_270, 40, 320_000)


def test_a_shortener_resumes_where_another_stopped():
    """carried() then resume() on a new shortener of the same path: its window size, node limit
    and offset, its sweep starting at that offset (what an improver call carries to the next,
    fifteen.parallel.anytime_steps); an offset alone shifts where the first sweep starts."""
    board = Board.parse(KT1)
    T = label_tables(board.shape)
    path = beam_search(T, board.tiles, board.target.tiles, 256)
    first = Shortener(T, board.tiles, path)
    for _ in range(60):  # past the first sweeps: the node limit and the offset have moved
        first.step()
    carried = first.carried()
    second = Shortener(T, board.tiles, first.squares)
    second.resume(carried)
    assert second.carried() == carried == {"k": 12, "node_limit": 80_000, "offset": 38}
    assert second.i == carried["offset"] % (carried["k"] // 2)
    shifted = Shortener(T, board.tiles, path)
    shifted.resume({"offset": 5})
    assert (shifted.i, shifted.k, shifted.offset) == (5, 12, 5)


def test_window_shortening_of_decomposition_paths():
    """Window shortening of the decomposition's paths on 3x3 until exhausted: pinned lengths
    (the last position is 31 moves from the goal: reached), each path replaying to the goal and
    never shorter than the BFS distance."""
    shape = Shape(3, 3)
    T = label_tables(shape)
    out = []
    for tiles in SET_3X3:
        path = decompose_to(T, tiles, shape.goal())
        sh = Shortener(T, tiles, path)
        while not sh.exhausted:
            sh.step()
        assert Board(shape, tiles).solves(tiles_along(shape, tiles, sh.squares))
        assert len(sh.squares) >= exact(shape, None)[bytes(tiles)]
        out.append((len(path), len(sh.squares), sh.nodes))
    assert out[:4] == [(36, 14, 599), (29, 23, 909), (32, 16, 440), (40, 18, 2438)]
    assert out[4:] == [(24, 22, 951), (25, 23, 5974), (53, 25, 2379), (53, 31, 9908)]


def test_loops_are_cut():
    """A path that comes back to a position it visited has the loop removed."""
    shape = Shape(3, 3)
    board = Board(shape, SET_3X3[7])
    best = anytime_solve(board).tiles
    assert best is not None
    squares = [board.apply(best[:i]).blank for i in range(1, len(best) + 1)]
    b = squares[5]
    detour = squares[:6] + [squares[4], b] + [squares[4], b] + squares[6:]  # back and forth twice
    assert remove_cycles(board.tiles, detour) == squares


def test_labels_are_target_squares():
    assert labelled((2, 0, 1), (1, 2, 0)) == [1, 2, 0]
    T = label_tables(Shape(3, 3))
    h, _ = T.value(labelled(SET_3X3[0], Shape(3, 3).goal()), list(SET_3X3[0]).index(0))
    assert h == 14  # MD + LC, as fifteen.bounds has it
    assert Board(Shape(3, 3), SET_3X3[0]).to_json() and h == _lc(SET_3X3[0])


def _lc(tiles) -> int:
    from fifteen.bounds import bound_values

    return bound_values(Board(Shape(3, 3), tiles))["lc"]


# ------------------------------------------------------------------ the result and the calls


def test_result_json_has_the_keys_of_a_solve_then_the_anytime_keys():
    board = Board(Shape(2, 4), SET_2X4[0])
    result = anytime_solve(board)
    out = result.to_json()
    assert list(out) == [
        *("shape", "rows", "cols", "tiles", "goal", "bound", "length", "moves", "directions", "goal_frame", "h0", "nodes"),
        *("setup_seconds", "seconds", "cpu_seconds", "nodes_per_second", "iterations"),
        *("lower_bound", "optimal", "improvements", "stopped"),
    ]
    assert out["optimal"] is True and out["lower_bound"] == out["length"] == exact(Shape(2, 4), None)[bytes(SET_2X4[0])]
    assert out["moves"] == result.tiles and out["directions"] == board.directions(result.tiles)
    assert all(list(imp) == ["seconds", "length", "lower_bound"] for imp in out["improvements"])
    assert out["improvements"][-1]["length"] == out["length"] and out["stopped"] == "optimal"
    assert result.describe() == f"{result.length} moves, proven optimal"


def test_describe_says_the_gap_plainly():
    board = Board.parse(KT1)
    result = anytime_solve(board, time_limit=0.3)
    assert result.describe() == f"{result.length} moves found · optimal >= {result.lower_bound}"
    assert 82 <= result.lower_bound <= 100 <= result.length and result.bound == "pdb55554"  # the 5x5 tables (root 82; MD + LC 80)


def test_the_goal_itself():
    board = Board.goal("3x3", "blank-first")
    result = anytime_solve(board)
    assert (result.tiles, result.lower_bound, result.optimal, result.stopped) == ([], 0, True, "optimal")


def test_cancel_keeps_the_best_found():
    """A cancel after the first improvement: stopped "cancelled", the best found returned and
    it replays; a cancel before the first solution: no solution, said so."""
    board = Board.parse(KT1)
    seen = []
    result = anytime_solve(board, progress=seen.append, cancel=lambda: len(seen) >= 1)
    assert result.stopped == "cancelled" and result.tiles is not None and board.solves(result.tiles)
    assert result.tiles == seen[-1].moves and result.lower_bound <= 100
    none = anytime_solve(board, cancel=lambda: True)
    assert (none.tiles, none.length, none.stopped, none.optimal) == (None, None, "cancelled", False)
    assert none.describe().startswith("no solution found yet")
    assert none.to_json()["moves"] is None


def test_arguments_are_checked():
    board = Board.parse(KT1)
    for kwargs, code in (
        ({"time_limit": 0}, "range"),
        ({"time_limit": -1}, "range"),
        ({"time_limit": 3601}, "range"),
        ({"time_limit": "5"}, "param"),
        ({"time_limit": float("nan")}, "param"),
        ({"progress": 3}, "param"),
        ({"cancel": "no"}, "param"),
        ({"prove_share": 2}, "param"),
        ({"mode": "genetic"}, "param"),
        ({"bound": "pdb663"}, "bound"),
    ):
        with pytest.raises(InputError) as err:
            anytime_solve(board, **kwargs)
        assert err.value.code == code, kwargs
    with pytest.raises(InputError):
        anytime_solve("1 2 3 0")  # type: ignore[arg-type]
    assert check_time_limit(None) is None and check_time_limit(5) == 5.0


def test_the_docstring_examples():
    assert doctest.testmod(driver, optionflags=doctest.ELLIPSIS).failed == 0


def test_the_time_limit_covers_the_provers_set_up(monkeypatch):
    """The move tables the prover needs (a second natively, several in the browser, before any
    node) are built within the time limit: a limit that passes meanwhile stops their build (not
    kept), and the answer is the first solution, stopped by the time."""
    from fifteen.search import moves

    monkeypatch.setattr(moves, "_move_tables", functools.cache(moves._move_tables.__wrapped__))  # none built yet
    board = Board.parse("13 6 8 12 15 14 0 10 11 7 4 5 9 1 3 2")
    checks = []
    real = moves._setup_step

    def counted(step, every=moves.SETUP_CHECK_STEPS):
        checks.append(step)
        real(step, every)

    monkeypatch.setattr(moves, "_setup_step", counted)
    result = anytime_solve(board, time_limit=1e-6)
    assert result.stopped == "time" and result.iterations == [] and result.prover_nodes == 0
    assert board.solves(result.tiles) and result.lower_bound == 51  # the root's best bound (Korf #1: 57 moves)
    assert moves._move_tables.cache_info().currsize == 0 and 0 < len(checks) <= moves.SETUP_CHECK_STEPS
    proved = anytime_solve(board, time_limit=600)  # a limit that does not pass: built, and the search proves
    assert proved.optimal and proved.length == 57 and moves._move_tables.cache_info().currsize == 1
