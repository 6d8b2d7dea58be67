"""Move tables: the duplicate-pruning automaton and the mirror-closed tables for positions
that are their own mirror image (the transposed goal is one)."""

import pytest

import fifteen.search.moves as moves
from fifteen import Board, Shape, solve
from fifteen.search import known_sequences
from fifteen.search.moves import is_own_mirror, move_tables, tables_for
from support.bfs import distances

TRANSPOSED_GOAL = [1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15, 4, 8, 12, 0]


@pytest.mark.parametrize("side", [3, 4])
def test_mirror_closed_tables(side):
    shape = Shape(side, side)
    plain, closed = move_tables(shape), move_tables(shape, True)
    mirror = moves._mirror_moves(shape, closed.moves)
    seqs = closed.forbidden_sequences
    assert seqs and all(tuple(mirror[m] for m in f) in seqs for f in seqs)
    # Only the sequences whose mirror image is the other path of their pair are lost.
    assert 0.85 * len(plain.forbidden_sequences) < len(seqs) <= len(plain.forbidden_sequences) + 20
    assert plain.start_states == list(range(side * side))
    for b in range(side * side):
        start = closed.start_states[b]
        if b % (side + 1):  # off the diagonal: the ordinary start state
            assert start == b
        else:  # on it: one move of each mirror pair (a diagonal square has no diagonal neighbour)
            full = {m // shape.size for _, m, _ in closed.successors[b]}
            kept = {m // shape.size for _, m, _ in closed.successors[start]}
            assert len(kept) * 2 == len(full) and {mirror[m] for m in kept} | kept == full


def test_own_mirror():
    shape = Shape(4, 4)
    assert is_own_mirror(shape, TRANSPOSED_GOAL) and is_own_mirror(shape, list(shape.goal()))
    assert not is_own_mirror(shape, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0, 15])
    assert not is_own_mirror(Shape(2, 3), list(Shape(2, 3).goal()))
    assert tables_for(shape, TRANSPOSED_GOAL) is move_tables(shape, True)
    assert tables_for(shape, list(range(1, 16)) + [0]) is move_tables(shape, True)
    assert tables_for(shape, [2, 1] + list(range(3, 16)) + [0]) is move_tables(shape)


@pytest.fixture(scope="module")
def exact3():
    return distances(Shape(3, 3))


@pytest.mark.parametrize("bound", ["md", "lc", "wdid"])
def test_every_own_mirror_3x3_position_is_solved_optimally(exact3, bound):
    """Every 3x3 position that is its own mirror image: the search from half the root's
    moves (mirror-closed tables) finds a shortest solution, checked against BFS."""
    shape = Shape(3, 3)
    keys = [k for k in exact3 if is_own_mirror(shape, list(k))]
    assert len(keys) > 50
    for key in keys:
        board = Board(shape, tuple(key))
        sol = solve(board, bound)
        assert sol.length == exact3[key], (bound, key)
        assert board.solves(sol.tiles)


# 4x4 positions equal to their mirror image, 38-52 moves (found by sampling such
# positions at random and keeping those 6-6-3 solves in well under a second).
OWN_MIRROR_4X4 = [
    [1, 3, 13, 7, 9, 11, 8, 12, 4, 14, 6, 2, 10, 15, 5, 0],
    [1, 3, 2, 4, 9, 0, 12, 8, 5, 15, 11, 10, 13, 14, 7, 6],
    [0, 9, 15, 4, 3, 6, 14, 5, 12, 8, 1, 7, 13, 2, 10, 11],
    [1, 15, 2, 4, 12, 11, 14, 9, 5, 8, 0, 10, 13, 3, 7, 6],
    [6, 7, 5, 9, 10, 0, 8, 4, 2, 14, 1, 15, 3, 13, 12, 11],
]


def test_own_mirror_4x4_positions_same_length_as_the_ordinary_tables(monkeypatch):
    """Half the root's moves, same optimal length as the ordinary tables, fewer nodes."""
    from fifteen.bounds import databases

    shape = Shape(4, 4)
    databases.ensure_for(shape)
    if "pdb663" not in databases.pattern_databases:
        pytest.skip("pdb-663 not built")
    for tiles in OWN_MIRROR_4X4:
        assert is_own_mirror(shape, tiles)
        board = Board(shape, tuple(tiles))
        halved = solve(board, "pdb663")
        with monkeypatch.context() as m:
            m.setattr(moves, "is_own_mirror", lambda shape, tiles: False)
            full = solve(board, "pdb663")
        assert halved.length == full.length and board.solves(halved.tiles), tiles
        assert halved.result.nodes < full.result.nodes


def test_mirror_closed_tables_need_a_square_board():
    with pytest.raises(ValueError, match="^mirror images need a square board$"):
        move_tables(Shape(2, 3), True)


@pytest.mark.parametrize(
    "shape,mirror_closed", [("2x2", False), ("2x3", False), ("3x3", False), ("3x3", True), ("2x4", False), ("4x4", True)]
)
def test_every_move_begins_a_forbidden_sequence(shape, mirror_closed):
    """Every move is the first of some forbidden sequence (a circle round a 2x2 block), so the
    automaton's root has a transition for every move and never fails to it: its ``get(m, 0)``
    defaults and the root's ``final`` flag are never read (equivalent mutants of make mutants)."""
    tables = move_tables(Shape.parse(shape), mirror_closed)
    assert {f[0] for f in tables.forbidden_sequences} == set(range(len(tables.moves)))


@pytest.mark.parametrize("name", ["3x4", "4x3", "4x4", "2x5"])
def test_moves_carry_their_axis_direction_and_jumped_squares(name):
    """Every move's fields against an independent reading: vertical when the blank changes row,
    forward when it goes down or right, and the squares the sliding tile jumps over in the
    reading order of its axis (row-major for vertical moves, column-major for horizontal ones)."""
    shape = Shape.parse(name)
    rows, cols = shape.rows, shape.cols
    tables = moves.MoveTables(shape, prune_depth=2)  # built here, not the cached tables
    assert tables.shape == shape and tables.mirror_closed is False and tables.n == shape.size
    column_major = sorted(range(shape.size), key=lambda q: (q % cols, q // cols))
    pairs = set()
    for mv in tables.moves:
        b, s = mv.blank_from, mv.blank_to
        pairs.add((b, s))
        assert mv.vertical == (b % cols == s % cols) and mv.forward == (s > b)
        if mv.vertical:
            expected = tuple(range(min(b, s) + 1, max(b, s)))
            assert len(expected) == cols - 1
        else:
            i, j = sorted((column_major.index(b), column_major.index(s)))
            expected = tuple(column_major[i + 1 : j])
            assert len(expected) == rows - 1
        assert mv.jumped == expected, (name, b, s)
    horizontal = {(q, q + d) for q in range(shape.size) for d in (-1, 1) if 0 <= q % cols + d < cols}
    vertical = {(q, q + d) for q in range(shape.size) for d in (-cols, cols) if 0 <= q + d < shape.size}
    assert pairs == horizontal | vertical and len(tables.moves) == len(pairs)
    # the successor lists by axis: each state's list split, entries unchanged (move id * N)
    n = tables.n
    for row, v, h in zip(tables.successors, tables.successors_vertical, tables.successors_horizontal, strict=True):
        assert v == tuple(e for e in row if tables.moves[e[1] // n].vertical)
        assert h == tuple(e for e in row if not tables.moves[e[1] // n].vertical)
        assert all(isinstance(e[1], int) and e[1] % n == 0 for e in row)


@pytest.mark.parametrize("key", sorted(known_sequences.KNOWN))
def test_the_kept_sequences_are_the_enumerations(key):
    """The 4x4's forbidden sequences kept in fifteen.search.known_sequences equal a fresh
    enumeration's (else run tools/known_sequences.py), and the tables use them."""
    name, depth, mirror_closed = key
    fresh = moves.MoveTables(Shape.parse(name), mirror_closed=mirror_closed, known=False)
    assert fresh.prune_depth == depth
    assert known_sequences.KNOWN[key][0] == known_sequences.fingerprint(fresh.moves), "moves numbered otherwise: run the tool"
    assert known_sequences.decode(known_sequences.KNOWN[key][1]) == fresh.forbidden_sequences, "run tools/known_sequences.py"
    kept = moves.MoveTables(Shape.parse(name), mirror_closed=mirror_closed)
    assert kept.successors == fresh.successors and kept.start_states == fresh.start_states


@pytest.mark.parametrize("key", sorted(known_sequences.KNOWN))
def test_a_shape_with_kept_sequences_enumerates_nothing(monkeypatch, key):
    """The 4x4's tables come from the kept sequences alone (no enumeration before the first
    search: about a second in the browser), and are the enumeration's."""
    name, depth, mirror_closed = key

    def enumerate_(*args, **kwargs):
        raise AssertionError("enumerated although the sequences are kept")

    monkeypatch.setattr(moves, "_forbidden_steps", enumerate_)
    kept = moves.MoveTables(Shape.parse(name), mirror_closed=mirror_closed)
    assert kept.prune_depth == depth
    assert sorted(kept.forbidden_sequences) == sorted(known_sequences.decode(known_sequences.KNOWN[key][1]))


def test_kept_sequences_of_other_moves_are_not_used(monkeypatch):
    """A table whose moves are numbered otherwise than the kept sequences' is enumerated afresh."""
    key = ("4x4", moves.PRUNE_DEPTH, False)
    monkeypatch.setitem(known_sequences.KNOWN, key, ("00000000", known_sequences.encode([(0, 1)])))
    assert known_sequences.known(*key, moves.MoveTables(Shape(2, 2)).moves) is None
    tables = moves.MoveTables(Shape(4, 4))
    assert (tables.states, tables.forbidden) == (3716, 948)
