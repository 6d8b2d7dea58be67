"""The input contract (fifteen.limits), fuzzed with hypothesis over Board.parse, api.call and the
CLI's main(argv) in-process: malformed input gives only InputError (exit status 2 with one line on
stderr, an ``input`` error with a documented code from the API), every message is at most 300
characters, every accepted solvable small-board position is solved to its BFS distance, and a
move list is accepted only when it is one (tile numbers or directions, the same rule for every
method).  Every API method is fuzzed, the parallel protocol as whole sessions.  The checks and
strategies are in tests/support/fuzz.py; tools/fuzz_input.py runs them on many more inputs and
counts.

Deterministic: ``derandomize=True`` (the examples depend only on the test), no deadline.
"""

from __future__ import annotations

import json
import time

import pytest
from hypothesis import HealthCheck, given, settings

from fifteen import Board, InputError, Shape, api, solve
from fifteen.limits import describe
from support import fuzz
from support.cli import run_cli

FUZZ = settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@FUZZ
@given(fuzz.position_texts())
def test_board_parse_accepts_only_good_positions_and_solves_them_optimally(case):
    text, shape = case
    fuzz.check_parse(text, shape)


@FUZZ
@given(fuzz.api_calls())
def test_api_call_never_raises_and_refuses_with_input_errors(case):
    method, params_json = case
    fuzz.check_api(method, params_json)


@FUZZ
@given(fuzz.move_calls())
def test_api_move_lists_follow_one_rule_in_every_method(case):
    method, params_json = case
    fuzz.check_api(method, params_json)


@settings(FUZZ, max_examples=60)
@given(fuzz.seed_calls())
def test_api_seeds_are_numbers_or_text(case):
    method, params_json = case
    fuzz.check_api(method, params_json)


@settings(FUZZ, max_examples=80)
@given(fuzz.parallel_sessions())
def test_api_parallel_sessions_with_damaged_records(session):
    fuzz.check_parallel_session(session)


@settings(FUZZ, max_examples=100)
@given(fuzz.cli_argvs())
def test_cli_exits_2_with_one_line_or_solves_optimally(argv):
    fuzz.check_cli(argv)


@FUZZ
@given(fuzz.positions())
def test_every_well_written_small_position_is_refused_as_unsolvable_or_solved_optimally(case):
    shape, tiles, text = case
    outcome = fuzz.check_parse(text, shape)
    assert outcome == ("refused" if fuzz.solvability_problem(Shape.parse(shape), tiles) else "solved")


# ------------------------------------------------------------------ pinned cases from the issue
def _api(method, params):
    return json.loads(api.call(method, params if isinstance(params, str) else json.dumps(params)))


@pytest.mark.parametrize(
    "method, params, message",
    [
        ("solve", {"text": "1 2 3 0", "bound": []}, "bound must be the name of a bound"),
        ("solve", {"text": "1 2 3 0", "bound": 5}, "bound must be the name of a bound"),
        ("parse", '{"tiles": ' + "[" * 60_000 + "]" * 60_000 + "}", "nest more than 8 levels"),  # RecursionError in json
        ("parse", '{"tiles": ' + "[" * 9 + "]" * 9 + "}", "nest more than 8 levels"),
        ("parse", "[" * 100_000 + "]" * 100_000, "the parameters are 200,000 characters long"),
        ("parse", '{"tiles": [1, 2, 3, ' + "9" * 5000 + "]}", "has 5,000 digits; at most 40"),
        ("parse", {"text": "9" * 5000}, "text must be the position as text (at most 4,096"),
        ("parse", {"text": "1 2 3 " + "9" * 4000}, "is too large for a tile number"),
        ("parse", {"text": "1 2 3 4 5 6 7 8 0", "shape": "٣x٣"}, "write its numbers with the digits 0-9"),
        ("parse", {"text": "1 2 3 4 5 6 7 8 0", "shape": "４x４"}, "write its numbers with the digits 0-9"),
        ("parse", {"text": "1 2 ٣ 4 5 6 7 8 0"}, "write tiles with the digits 0-9"),
        ("parse", {"text": "1 2 \udcff0 4 5 6 7 8 0"}, "is not a tile number; write the blank as 0, _ or ."),
        ("parse", {"text": "1 2 ½ 4 5 6 7 8 0"}, "is not a tile number; write the blank as 0, _ or ."),
        ("parse", {"text": "1 2 3 0", "shpae": "2x2"}, "parse takes text, tiles, shape, goal, not 'shpae'"),
        ("random", '{"seed": NaN}', "NaN is not a number JSON allows"),
        ("solve", {"text": "1 2 3 0", "tick_nodes": "many"}, "tick_nodes must be an integer"),
        ("solve", {"tiles": [1, 2, 3, 4, 5, 6, 8, 7, 0]}, "unsolvable"),
        ("parse", "x" * 1_000_000, "the parameters are 1,000,000 characters long"),
        ("parse", {"shape": {"rows": 3}}, "shape must be text of the form RxC"),
        ("nosuch" * 1000, {}, "unknown method 'nosuchnosuch"),
    ],
)
def test_api_refuses_malformed_params_quickly_with_a_short_message(method, params, message):
    start = time.perf_counter()
    out = _api(method, params)
    elapsed = time.perf_counter() - start
    assert out["ok"] is False and out["error"]["type"] == "input", out
    assert message in out["error"]["message"] and len(out["error"]["message"]) <= 300
    assert elapsed < 5  # generous (a shared machine): the point is no quadratic conversion of huge numbers


NEAR_GOAL_4X4 = {"tiles": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0, 15]}  # one move: 15


@pytest.mark.parametrize(
    "method, params, code, message",
    [
        ("random", '{"seed": "\\ud800"}', "param", "seed must be an integer or a short text"),  # was UnicodeEncodeError
        *[
            ("hint", {**NEAR_GOAL_4X4, "solution": {**NEAR_GOAL_4X4, "moves": moves}}, "moves", message)
            for moves, message in [
                (["U"], "move 1: 'U' is not a tile number"),  # was int("U"): internal
                ([None], "move 1: None is not a tile number"),
                ([[1]], "move 1: a list of 1 item is not a tile number"),
                ([15.9], "move 1: 15.9 is not a tile number"),  # was accepted as 15 (int())
                (["15"], "move 1: '15' is not a tile number"),
                ([" 15 "], "move 1: ' 15 ' is not a tile number"),
                ([1.5], "move 1: 1.5 is not a tile number"),  # was "no tile 1"
                ([True], "move 1: True is not a tile number"),
            ]
        ],
        ("trace", {**NEAR_GOAL_4X4, "moves": [15.9]}, "moves", "move 1: 15.9 is not a tile number"),
        ("trace", {**NEAR_GOAL_4X4, "moves": ["15"]}, "moves", "move 1: '15' is not a tile number"),
        ("trace", {**NEAR_GOAL_4X4, "moves": "X"}, "moves", "'X' is not a direction"),
        ("trace", {**NEAR_GOAL_4X4, "moves": [12]}, "moves", "tile 12 is not next to the blank"),
        ("trace", {**NEAR_GOAL_4X4, "moves": []}, "moves", "the moves do not solve the position"),
        ("hint", {**NEAR_GOAL_4X4, "solution": {**NEAR_GOAL_4X4, "moves": []}}, "moves", "the given solution does not reach the goal"),
        ("parse", {"text": "1 2 3 4 5 6 8 7 0"}, "unsolvable", "unsolvable"),
        ("parse", {"text": "1 2 3 4 5 6 7 7 0"}, "duplicate", "duplicate: tile 7"),
        ("parse", {"text": "1 2 3 4 5 6 7 0"}, "shape", "8 tiles"),
        ("parse", {"text": "1 2 3 4 5 6 7 8 0", "shape": "2x2"}, "count", "a 2x2 board has 4 squares, got 9 tiles"),
        ("parse", {"text": "1 2 3 4 5 6 7 99 0"}, "range", "out of range"),
        ("parse", {"text": "1 2 3 x 5 6 7 8 0"}, "token", "'x' (item 4) is not a tile number"),
        ("parse", {"text": "1 2 3 0", "shape": "2*"}, "shape", "is not of the form RxC"),
        ("parse", {"text": "9" * 5000}, "param", "text must be the position as text"),
        ("parse", '{"tiles": [1, 2, 3, ' + "9" * 5000 + "]}", "too_long", "has 5,000 digits"),
        ("solve", {"text": "1 2 3 0", "bound": "nosuch"}, "bound", "unknown bound"),
        ("explore_info", {"shape": "4x4"}, "unavailable", "no table for a 4x4 board"),
        ("nosuch", {}, "method", "unknown method"),
    ],
)
def test_api_errors_carry_their_code(method, params, code, message):
    """The issue's escapes (internal errors, wrong acceptances) and one case of most codes."""
    out = _api(method, params)
    assert out["ok"] is False and out["error"]["type"] == "input", out
    assert out["error"]["code"] == code and message in out["error"]["message"], out


def test_parallel_step_after_a_search_solved_in_the_split_tree():
    """parallel_begin on a position solved inside the split tree, then parallel_step: an input
    error (it was ValueError from the scheduler: internal)."""
    work = _api("parallel_begin", {**NEAR_GOAL_4X4, "workers": 2})["result"]
    assert work["solved_path"] == [15]
    out = _api("parallel_step", {"search": work["search"], "outcomes": []})
    assert out["error"]["type"] == "input" and out["error"]["code"] == "param", out
    assert "is solved already" in out["error"]["message"]
    _api("parallel_drop", {"search": work["search"]})


def test_schema_is_the_one_list_of_methods_and_codes():
    """``python -m fifteen schema``: every method with its parameters (those api.call runs and
    checks), every parameter described, the error types and codes, the limits (as ``info``'s)."""
    from fifteen.errors import ERROR_CODES, ERROR_TYPES
    from fifteen.schema import METHOD_PARAMS, PARAM_RULES

    res = run_cli("schema")
    assert res.returncode == 0, res.stderr
    schema = json.loads(res.stdout)
    assert set(schema) == {"methods", "params", "error_types", "error_codes", "limits"}
    # the limits a program (the page) decides with, the solver's own, as info gives them
    from fifteen.limits import DEFAULT_TIME_LIMIT, OPTIMAL_MAX_LOWER_BOUND, OPTIMAL_MAX_SQUARES, PAGE_TIME_LIMIT
    from fifteen.search.estimate import OUT_OF_REACH_SECONDS

    assert schema["limits"] == json.loads(api.call("info"))["result"]["limits"]
    assert (schema["limits"]["anytime_squares"], schema["limits"]["anytime_lower_bound"]) == (OPTIMAL_MAX_SQUARES, OPTIMAL_MAX_LOWER_BOUND)
    assert (schema["limits"]["time_limit"], schema["limits"]["cli_time_limit"]) == (PAGE_TIME_LIMIT, DEFAULT_TIME_LIMIT)
    assert schema["limits"]["out_of_reach_seconds"] == OUT_OF_REACH_SECONDS
    assert schema["methods"] == {name: list(params) for name, params in METHOD_PARAMS.items()}
    assert set(schema["methods"]) == set(api._METHODS)  # every method listed is the one run
    assert {p for params in schema["methods"].values() for p in params} <= set(schema["params"]) == set(PARAM_RULES)
    assert schema["error_types"] == list(ERROR_TYPES) == ["input", "asset", "cancelled", "internal"]
    assert schema["error_codes"] == ERROR_CODES and all(meaning for meaning in ERROR_CODES.values())
    for kind in ("cancelled", "internal"):
        assert kind in ERROR_CODES  # the code of an error of that type
    with pytest.raises(ValueError, match="unknown error code"):
        InputError("x", code="nosuch")


def test_errors_keep_their_code_through_pickling():
    """A worker process's error reaches the parent pickled: with its code."""
    import pickle

    from fifteen.errors import AssetError

    for exc in (InputError("bad", code="moves"), AssetError("gone", code="asset_missing")):
        back = pickle.loads(pickle.dumps(exc))
        assert type(back) is type(exc) and str(back) == str(exc) and back.code == exc.code


def test_board_constructor_validates():
    with pytest.raises(InputError, match="unsolvable"):
        Board(Shape(3, 3), (1, 2, 3, 4, 5, 6, 8, 7, 0))  # used to make solve() loop for ever
    with pytest.raises(InputError, match="appears twice"):
        Board(Shape(2, 2), (1, 1, 3, 0))
    with pytest.raises(InputError, match="a 2x2 board has 4 squares, got 3 tiles"):
        Board(Shape(2, 2), (1, 2, 0))
    with pytest.raises(InputError, match="a board's shape is a Shape"):
        Board("2x2", (1, 2, 3, 0))  # type: ignore[arg-type]
    with pytest.raises(InputError, match="not a tile number"):
        Board(Shape(2, 2), (1, 2, "3", 0))  # type: ignore[arg-type]
    assert Board(Shape(2, 2), [1, 2, 0, 3]).tiles == (1, 2, 0, 3)  # a list becomes the tuple


def test_solve_refuses_what_it_cannot_use():
    board = Board.parse("1 2 3 0")
    for kwargs, message in [
        ({"board": "1 2 3 0"}, "expected a Board"),
        ({"board": board, "bound": 5}, "bound is a name"),
        ({"board": board, "tick_nodes": 0}, "tick_nodes is a whole number"),
        ({"board": board, "progress": 3}, "progress is a function or None"),
        ({"board": board, "bound": "x" * 10_000}, "unknown bound 'xxxxxxxx"),
    ]:
        with pytest.raises(InputError, match=message) as err:
            solve(**kwargs)
        assert len(str(err.value)) <= 300


@pytest.mark.parametrize(
    "value, expected",
    [
        ("x" * 100, "'" + "x" * 40 + "'... (100 characters)"),
        (10**5000, "a 5,001-digit number"),
        ([1, 2], "a list of 2 items"),
        ({"a": 1}, "an object of 1 key"),
        (None, "None"),
        (b"x", "a bytes"),
    ],
    ids=["long-text", "huge-int", "list", "object", "none", "bytes"],
)
def test_describe_cuts_what_it_quotes(value, expected):
    assert describe(value) == expected


def test_messages_are_cut_to_300_characters():
    assert len(str(InputError("x" * 10_000, code="param"))) == 300


@pytest.mark.parametrize(
    "argv, message",
    [
        (["solve"], "the following arguments are required: tiles"),
        (["solve", "1 2 3 0", "--bound", "y" * 1000], "invalid choice: '" + "y" * 31 + "... (1,002 characters)"),
        (["bounds", "1 2 3 4 5 6 7 8 0", "--shape", "٣x٣"], "write its numbers with the digits 0-9"),
        (["bounds", "9" * 1_000_000], "a position is 1,000,000 characters long"),
        (["nosuch"], "invalid choice: 'nosuch'"),
        (["solve", "1 2 3 4 5 6 8 7 0"], "unsolvable"),
    ],
)
def test_cli_errors_are_one_short_line_exit_2(argv, message, capsys):
    from fifteen import cli

    assert cli.main(argv) == 2
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("fifteen: error: ") and message in lines[0], captured.err
    assert len(lines[0]) <= 320 and captured.out == ""
