"""The input contract, as checks and hypothesis strategies shared by tests/test_input_contract.py and
tools/fuzz_input.py (the larger counted run).

Each ``check_*`` function feeds one input to one entry point (``Board.parse``, ``api.call``, the
CLI's ``main(argv)`` in-process) and returns an outcome: ``"accepted"``, ``"solved"`` (accepted
and solved to its BFS distance), ``"refused"`` (an :class:`InputError`, exit status 2, an
``input`` error), ``"cancelled"`` (a solve stopped by the time guard) -- or raises
:class:`Escape` when the contract is broken (another exception, a traceback, a message longer
than 300 characters, an error without one of the documented codes, a wrong or unchecked
answer, a malformed move list accepted).

Every API method (:data:`fifteen.schema.METHOD_PARAMS`, the one list) is fuzzed with odd values of
every parameter (:func:`api_calls`), with move lists that are almost a solution (:func:`move_calls`:
one move written ``8.9``, ``"8"``, ``" 8 "``, ``null``, ``[8]``...), seeds (lone surrogates) and whole
sessions of the page's parallel protocol (:func:`parallel_sessions`: ``parallel_begin``, then
``parallel_step``, ``parallel_tasks``, ``parallel_result``, ``parallel_drop`` with real and damaged
records, also on positions solved inside the split tree).
"""

from __future__ import annotations

import contextlib
import io
import json
import time
from functools import cache

from hypothesis import strategies as st

from fifteen import Board, InputError, api, cli, solve
from fifteen.board import Shape, solvability_problem
from fifteen.bounds import databases
from fifteen.errors import ERROR_CODES
from fifteen.schema import METHOD_PARAMS, PARAM_RULES
from support import bfs

MESSAGE_CHARS = 300  # the contract (fifteen.errors.MESSAGE_CHARS)
LONGEST_RUN = 130  # what a message quotes is cut to 40 characters (a file path to 120)

#: Boards small enough to solve and check against BFS (at most 9 squares).
SMALL_SHAPES = ("2x2", "2x3", "3x2", "2x4", "4x2", "3x3")
SOLVE_SECONDS = 5.0  # a guard only: every accepted input here solves in well under a second


class Escape(AssertionError):
    """The contract is broken for this input."""


@cache
def exact(shape: str) -> dict[bytes, int]:
    return bfs.distances(Shape.parse(shape))


def check_message(message: str, where: str) -> None:
    if not isinstance(message, str) or not message:
        raise Escape(f"{where}: empty message {message!r}")
    if len(message) > MESSAGE_CHARS:
        raise Escape(f"{where}: a message of {len(message)} characters: {message[:120]!r}...")
    if "Traceback" in message or "\n" in message:
        raise Escape(f"{where}: a multi-line message {message[:200]!r}")
    longest = max(message.split(), key=len, default="")
    if len(longest) > LONGEST_RUN:
        raise Escape(f"{where}: a message quotes {len(longest)} characters in a row: {message[:200]!r}")


def check_solution(board: Board, length: int, tiles: list[int], where: str) -> str:
    """*length* is the BFS distance of a small *board* and *tiles* replay it to the goal."""
    if not board.solves(tiles) or len(tiles) != length:
        raise Escape(f"{where}: {tiles} does not solve {board.text()} in {length} moves")
    if str(board.shape) in SMALL_SHAPES and exact(str(board.shape))[bytes(board.tiles)] != length:
        raise Escape(f"{where}: {board.text()} solved in {length}, BFS says {exact(str(board.shape))[bytes(board.tiles)]}")
    return "solved"


# ------------------------------------------------------------------ Board.parse
def check_parse(text: object, shape: object) -> str:
    try:
        board = Board.parse(text, shape)  # type: ignore[arg-type]
    except InputError as exc:
        check_message(str(exc), "Board.parse")
        return "refused"
    except Exception as exc:
        raise Escape(f"Board.parse({text!r:.80}, {shape!r:.40}) raised {type(exc).__name__}: {exc!s:.200}") from exc
    if sorted(board.tiles) != list(range(board.shape.size)) or solvability_problem(board.shape, board.tiles):
        raise Escape(f"Board.parse accepted a bad position {board.tiles}")
    if str(board.shape) in SMALL_SHAPES:
        sol = solve(board)
        return check_solution(board, sol.length, sol.tiles, "solve")
    return "accepted"


# ------------------------------------------------------------------ api.call
def check_api(method: object, params_json: object) -> str:
    return call_api(method, params_json)[0]


def call_api(method: object, params_json: object) -> tuple[str, object]:
    """:func:`check_api`'s outcome and the call's result (None unless accepted)."""
    start = time.monotonic()
    try:
        reply = api.call(method, params_json, None, lambda: time.monotonic() - start > SOLVE_SECONDS)  # type: ignore[arg-type]
    except BaseException as exc:
        raise Escape(f"api.call({method!r:.40}, {params_json!r:.80}) raised {type(exc).__name__}: {exc!s:.200}") from exc
    out = json.loads(reply)
    if not out["ok"]:
        error = out["error"]
        check_message(error["message"], f"api.call({method!r:.40})")
        if error.get("code") not in ERROR_CODES or set(error) != {"type", "code", "message"}:
            raise Escape(f"api.call({method!r:.40}, {params_json!r:.120}): an error without a documented code: {error}")
        if error["type"] == "cancelled":
            return "cancelled", None
        if error["type"] != "input":
            raise Escape(f"api.call({method!r:.40}, {params_json!r:.120}): {error}")
        return "refused", None
    check_accepted_moves(method, params_json)
    result = out["result"]
    if method == "solve":
        board = Board(Shape(result["rows"], result["cols"]), tuple(result["tiles"]))
        return check_solution(board, result["length"], result["moves"], "api solve"), result
    return "accepted", result


def _move_lists(method: object, params_json: object) -> list:
    """The move lists of an API call: ``moves`` (trace) and ``solution.moves`` (hint)."""
    try:
        params = json.loads(params_json) if isinstance(params_json, str) and params_json else {}
    except ValueError:
        return []
    if not isinstance(params, dict):
        return []
    found = [params.get("moves")] if method == "trace" else []
    solution = params.get("solution")
    if method == "hint" and isinstance(solution, dict):
        found.append(solution.get("moves"))
    return [moves for moves in found if moves is not None]


def check_accepted_moves(method: object, params_json: object) -> None:
    """An accepted move list holds only tile numbers (integers, not booleans) or is a string of
    directions: the one rule of every method (Board.tile_moves), never ``int()`` of a float or text."""
    for moves in _move_lists(method, params_json):
        if isinstance(moves, str):
            continue
        bad = [m for m in moves if not isinstance(m, int) or isinstance(m, bool)] if isinstance(moves, list) else [moves]
        if bad:
            raise Escape(f"api.call({method!r:.40}, {params_json!r:.160}) accepted the moves {bad[:3]!r:.80}")


def check_parallel_session(session: tuple[dict, list[tuple[str, object]]]) -> str:
    """A session of the page's parallel protocol: ``parallel_begin`` with *begin*, then each call
    of *steps* with ``"$search"`` replaced by the search's id and ``"$tasks"``/``"$outcomes"`` by
    the tasks of its first bundle (or outcomes for every task of the iteration, without a
    solution).  Every answer must keep the contract (:func:`check_api`)."""
    begin, steps = session
    outcome, work = call_api("parallel_begin", json.dumps(begin))
    if not isinstance(work, dict):
        return outcome
    tasks = [task for bundle in work.get("bundles", []) for task in bundle]
    outcomes = [{"id": t["id"], "path": None, "nodes": 1} for t in tasks]

    def fill(value: object) -> object:
        if value == "$search":
            return work["search"]
        if value == "$tasks":
            return tasks[:3]
        if value == "$outcomes":
            return outcomes
        if isinstance(value, dict):
            return {k: fill(v) for k, v in value.items()}
        if isinstance(value, list):
            return [fill(v) for v in value]
        return value

    for method, params in steps:
        check_api(method, json.dumps(fill(params)))
    api.call("parallel_drop", json.dumps({"search": work["search"]}))
    return "accepted"


# ------------------------------------------------------------------ the command line
def check_cli(argv: list[str]) -> str:
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = cli.main(argv)
    except SystemExit as exc:  # only --help may exit (status 0)
        if exc.code not in (0, None):
            raise Escape(f"main({argv!r:.200}) exited with {exc.code}: {err.getvalue()[:200]!r}") from exc
        return "accepted"
    except BaseException as exc:
        raise Escape(f"main({argv!r:.200}) raised {type(exc).__name__}: {exc!s:.200}") from exc
    finally:
        if "--db" in argv:
            databases.reset()  # back to the checkout's databases for the next input
    stderr = err.getvalue()
    if code == 2:
        lines = stderr.splitlines()
        if len(lines) != 1 or not lines[0].startswith("fifteen: error: "):
            raise Escape(f"main({argv!r:.200}): exit 2 with stderr {stderr[:300]!r}")
        check_message(lines[0].removeprefix("fifteen: error: "), "cli")
        return "refused"
    if code != 0:
        raise Escape(f"main({argv!r:.200}) returned {code}: {stderr[:300]!r}")
    if "Traceback" in stderr:
        raise Escape(f"main({argv!r:.200}): a traceback on stderr")
    if argv and argv[0] == "solve" and "--json" in argv:
        result = json.loads(out.getvalue())
        board = Board(Shape.parse(result["shape"]), tuple(result["tiles"]))
        return check_solution(board, result["length"], result["moves"], "cli solve")
    return "accepted"


# ------------------------------------------------------------------ strategies
WEIRD_DIGITS = ["٣", "４", "९", "²", "߃", "𝟑", "Ⅻ", "½", "3\u0663", "1e3", "0x1", "+1", "-1", "1.0", "1_0", "３x３"]
_HUGE = st.integers(min_value=5, max_value=6000).map(lambda n: "9" * n)
SEPARATORS = [" ", ",", ";", "\n", "  ", ", ", "\t", "\u3000", "\u00a0", "\r\n"]


@st.composite
def positions(draw, shapes=SMALL_SHAPES) -> tuple[str, list[int], str]:
    """(shape, tiles, text): a permutation of some shape, solvable or not, written as a person would."""
    shape = draw(st.sampled_from(shapes))
    size = Shape.parse(shape).size
    tiles = draw(st.permutations(list(range(size))))
    blank = draw(st.sampled_from(["0", "_", ".", "00"]))
    seps = draw(st.lists(st.sampled_from(SEPARATORS), min_size=size, max_size=size))
    text = "".join((blank if t == 0 else str(t)) + sep for t, sep in zip(tiles, seps, strict=True))
    return shape, tiles, text


def _mutate(text: str, junk: str, at: int) -> str:
    at %= len(text) + 1
    return text[:at] + junk + text[at:]


TOKENS = st.one_of(
    st.sampled_from(WEIRD_DIGITS),
    _HUGE,
    st.integers(min_value=41, max_value=4000).map(lambda n: "x" * n),
    st.text(max_size=12),
    st.integers(min_value=-50, max_value=99).map(str),
    st.sampled_from(["_", ".", "0", "", "x", "NaN", "\x00", "\ud800", "🙂"]),
)


@st.composite
def position_texts(draw) -> tuple[str, str | None]:
    """(text, shape) for Board.parse: good positions, mutated ones, and garbage."""
    kind = draw(st.sampled_from(["good", "good-any", "mutated", "tokens", "garbage", "huge"]))
    if kind in ("good", "good-any", "mutated"):
        shape, _, text = draw(positions(SMALL_SHAPES if kind != "good-any" else SMALL_SHAPES + ("4x4", "3x4", "2x5")))
        if kind == "mutated":
            text = _mutate(text, draw(TOKENS) + draw(st.sampled_from(SEPARATORS)), draw(st.integers(0, 200)))
        given = draw(st.one_of(st.none(), st.just(shape), SHAPES))
        return text, given
    if kind == "tokens":
        tokens = draw(st.lists(TOKENS, max_size=30))
        return " ".join(tokens), draw(st.one_of(st.none(), SHAPES))
    if kind == "huge":
        return draw(st.sampled_from(["9", "x", "1 ", "٣ "])) * draw(st.integers(4000, 1_100_000)), draw(st.one_of(st.none(), SHAPES))
    return draw(st.text(max_size=120)), draw(st.one_of(st.none(), SHAPES))


SHAPES = st.one_of(
    st.sampled_from(
        ["3x3", "4x4", "3x4", "2x2", "1x2", "0x0", "7x7", "6x6", "5x5", "2x13", "٣x٣", "４x４", "3X3", "3*3", "3,3", " 3 x 3 "]
    ),
    st.tuples(st.integers(-5, 10**6), st.integers(-5, 30)).map(lambda rc: f"{rc[0]}x{rc[1]}"),
    _HUGE.map(lambda h: f"3x{h}"),
    st.text(max_size=10),
)

JSON_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**45), max_value=10**45),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=20),
    _HUGE,
)
JSON_VALUES = st.recursive(
    JSON_SCALARS, lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5), max_leaves=12
)
#: Every method of the API (the one list, fifteen.schema.METHOD_PARAMS) and a few that are not.
API_METHODS = [*METHOD_PARAMS, "nosuch", "", "PARSE"]
#: Every parameter the API knows, and one it does not.
PARAM_KEYS = [*PARAM_RULES, "x"]
#: What a move, a seed or a record's field can be instead of what it should: the shapes that
#: once escaped (``int()`` of ``8.9`` or ``" 8 "``, a lone surrogate, a nested list).
ODD_ITEMS = ["U", None, [1], 8.9, "8", " 8 ", 1.5, True, False, -1, 0, 99, 10**30, "\ud800", {"tile": 1}, "", 8.0]
#: Text JSON can carry but UTF-8 cannot encode (a ``\\ud800`` escape).
LONE_SURROGATES = (
    st.lists(st.sampled_from(["\ud800", "\udfff", "\udc80", "a", "1", " "]), min_size=1, max_size=4)
    .map("".join)
    .filter(lambda t: not t.isascii())
)
BOUND_NAMES = ["auto", "md", "lc", "id", "wd", "wdid", "pdb663", "pdb555", "pdb78", "", "MD", "nosuch"]


@st.composite
def walks(draw, shapes=SMALL_SHAPES) -> tuple[str, list[int], list[int]]:
    """(shape, tiles, moves): a position a few random moves from the goal and the moves (tile
    numbers) that take it back there -- a solution, not always a shortest one."""
    shape = Shape.parse(draw(st.sampled_from(shapes)))
    board = Board.goal(shape)
    back: list[int] = []
    for _ in range(draw(st.integers(0, 10))):
        tile = draw(st.sampled_from(board.movable_tiles()))
        board = board.slide(tile)
        back.insert(0, tile)
    return str(shape), list(board.tiles), back


@st.composite
def move_calls(draw) -> tuple[str, str]:
    """(method, params_json): ``trace`` and ``hint`` given a solution of the position, whole or with
    one move damaged (written as a float, as text, null, a list...), or a string of directions."""
    method = draw(st.sampled_from(["trace", "hint"]))
    shape, tiles, moves = draw(walks())
    moves_value: object = list(moves)
    how = draw(st.sampled_from(["whole", "damaged", "damaged", "directions", "odd"]))
    if how == "damaged" and moves:
        i = draw(st.integers(0, len(moves) - 1))
        t = moves[i]
        moves_value = (
            moves[:i] + [draw(st.sampled_from([float(t), t + 0.9, str(t), f" {t} ", None, [t], True, {"tile": t}]))] + moves[i + 1 :]
        )
    elif how == "directions":
        moves_value = Board(Shape.parse(shape), tuple(tiles)).directions(moves)
    elif how == "odd":
        moves_value = draw(st.one_of(st.lists(st.sampled_from(ODD_ITEMS), max_size=4), st.sampled_from(ODD_ITEMS), st.text(max_size=8)))
    params: dict = {"tiles": tiles, "shape": shape}
    if method == "trace":
        params["moves"] = moves_value
    else:
        params["solution"] = {"tiles": tiles, "moves": moves_value}
        if draw(st.booleans()):
            params["all"] = True
    return method, json.dumps(params)


@st.composite
def seed_calls(draw) -> tuple[str, str]:
    """(method, params_json): ``random`` and ``explore_random`` with odd seeds (a lone surrogate...)."""
    method = draw(st.sampled_from(["random", "explore_random"]))
    params: dict = {
        "shape": draw(st.sampled_from(["3x3", "2x3", "4x4"])),
        "seed": draw(st.one_of(LONE_SURROGATES, st.sampled_from(ODD_ITEMS), JSON_SCALARS)),
    }
    if method == "explore_random":
        params["distance"] = draw(st.integers(0, 5))
    return method, json.dumps(params)


@st.composite
def parallel_sessions(draw) -> tuple[dict, list[tuple[str, object]]]:
    """(begin, steps) for :func:`check_parallel_session`: a position a few moves from the goal (so
    the split tree may hold the goal) and calls with the search's real records, empty ones or
    damaged ones."""
    shape, tiles, _ = draw(walks(("2x3", "3x3", "2x4")))
    begin = {"tiles": tiles, "shape": shape, "workers": draw(st.integers(2, 8))}
    odd = st.sampled_from(ODD_ITEMS)
    record = st.one_of(
        st.fixed_dictionaries({"id": st.one_of(st.integers(0, 50), odd), "nodes": st.one_of(st.integers(0, 9), odd)}),
        st.fixed_dictionaries(
            {"id": st.integers(0, 50), "nodes": st.integers(0, 9), "path": st.one_of(st.none(), st.lists(st.integers(0, 8)), odd)}
        ),
    )
    search = st.one_of(st.just("$search"), st.just("$search"), odd, st.integers(0, 99))
    step = st.one_of(
        st.tuples(
            st.just("parallel_step"),
            st.fixed_dictionaries(
                {"search": search, "outcomes": st.one_of(st.just([]), st.just("$outcomes"), st.lists(record, max_size=3))}
            ),
        ),
        st.tuples(
            st.just("parallel_tasks"),
            st.fixed_dictionaries({"shape": st.just(shape), "tasks": st.one_of(st.just("$tasks"), st.lists(record, max_size=2))}),
        ),
        st.tuples(
            st.just("parallel_result"),
            st.fixed_dictionaries(
                {"tiles": st.just(tiles), "shape": st.just(shape), "path": st.one_of(st.lists(st.integers(0, 8), max_size=12), odd)}
            ),
        ),
        st.tuples(st.just("parallel_drop"), st.fixed_dictionaries({"search": search})),
    )
    return begin, draw(st.lists(step, min_size=1, max_size=4))


@st.composite
def api_calls(draw) -> tuple[str, str]:
    """(method, params_json): well-formed calls on small boards, odd values, raw text, deep
    nesting, move lists (:func:`move_calls`) and seeds (:func:`seed_calls`)."""
    kind = draw(st.sampled_from(["position", "position", "values", "raw", "deep", "numbers", "moves", "seed"]))
    if kind == "moves":
        return draw(move_calls())
    if kind == "seed":
        return draw(seed_calls())
    method = draw(st.sampled_from(API_METHODS))
    if kind == "position":
        shape, tiles, text = draw(positions())
        params: dict = {"tiles": tiles} if draw(st.booleans()) else {"text": text}
        if draw(st.booleans()):
            params["shape"] = draw(st.one_of(st.just(shape), SHAPES))
        if draw(st.booleans()):
            params["bound"] = draw(st.one_of(st.sampled_from(BOUND_NAMES), JSON_VALUES))
        if draw(st.booleans()):
            params[draw(st.sampled_from(PARAM_KEYS))] = draw(JSON_VALUES)
        return method, json.dumps(params)
    if kind == "values":
        values = st.one_of(JSON_VALUES, st.sampled_from(ODD_ITEMS), st.lists(st.sampled_from(ODD_ITEMS), max_size=3))
        params = draw(st.dictionaries(st.sampled_from(PARAM_KEYS), values, max_size=4))
        return method, json.dumps(params)
    if kind == "deep":
        depth = draw(st.integers(5, 100_000))
        opening, closing = draw(st.sampled_from([("[", "]"), ('{"a":', "}")]))
        return method, '{"tiles": ' + opening * depth + "1" + closing * depth + "}"
    if kind == "numbers":
        key = draw(st.sampled_from(PARAM_KEYS))
        number = draw(st.sampled_from(["NaN", "Infinity", "-Infinity", "1e400", "-0", "1" * 5000, "1" * 4301, "0.5", "1e-400"]))
        return method, f'{{"{key}": {number}}}'
    return method, draw(st.one_of(st.text(max_size=60), st.sampled_from(["", "{}", "[]", "null", "1", '"x"', "{", '{"text": "1 2 3 0"'])))


CLI_OPTIONS = st.one_of(
    st.sampled_from(["--json", "--quiet", "-q", "--bogus", "-x", "--", "--help", "--histogram", "--hardest", "--all"]),
    st.tuples(
        st.sampled_from(
            ["--shape", "--bound", "--db", "--bounds", "--moves", "--budget", "--random-at", "--seed", "--position", "--format"]
        ),
        st.one_of(SHAPES, st.sampled_from(BOUND_NAMES), st.text(max_size=20), _HUGE, st.integers(-5, 40).map(str)),
    ).map(list),
)
CLI_COMMANDS = ["solve", "bounds", "loops", "solve", "nosuch", "", "compare", "explain", "trace", "explore", "hint"]


@st.composite
def cli_argvs(draw) -> list[str]:
    """argv for ``main``: a command, a position (good on small boards, or garbage), options."""
    command = draw(st.sampled_from(CLI_COMMANDS))
    kind = draw(st.sampled_from(["good", "garbage", "none"]))
    argv = [command] if command else []
    if command == "explore":
        argv.append(draw(st.one_of(st.sampled_from(SMALL_SHAPES), SHAPES)))
    elif kind == "good":
        shape, _, text = draw(positions())
        argv += [text, "--shape", shape] if draw(st.booleans()) else [text]
        if command == "solve":
            argv.append("--json")
    elif kind == "garbage":
        argv.append(draw(position_texts())[0])
    for option in draw(st.lists(CLI_OPTIONS, max_size=3)):
        argv += option if isinstance(option, list) else [option]
    return [a for a in argv if a != "--help"]
