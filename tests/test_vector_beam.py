"""The beam with its layers as numpy arrays (fifteen.anytime.vector_beam) is the pure Python beam:
the same paths (pinned lengths, replayed), the same endgame and limits; and the line table it
computes for every code at once is the package's."""

from __future__ import annotations

import random

import numpy as np
import pytest

from fifteen.anytime import beam, vector_beam
from fifteen.anytime.rank import RANK_WEIGHTS
from fifteen.anytime.tables import label_tables, labelled
from fifteen.anytime.windows import reverse_path
from fifteen.board import Board, Shape, tiles_along
from fifteen.bounds.manhattan import LineExtras, line_table
from fifteen.search.slices import drive


def pure(T, start, target, width, **kw):
    """The pure Python beam, whatever the width."""
    saved, beam.VECTOR = beam.VECTOR, None
    try:
        return beam.beam_search(T, start, target, width, **kw)
    finally:
        beam.VECTOR = saved


def vector(
    T,
    start,
    target,
    width,
    upper=None,
    dup_layers=beam.DUP_LAYERS,
    max_states=beam.BEAM_MAX_STATES,
    ranked=True,
    stall=beam.STALL_LAYERS,
    noise=0,
):
    """The numpy beam, whatever the width."""
    weights = RANK_WEIGHTS if ranked else beam.PLAIN_WEIGHTS
    args = (upper, dup_layers, max_states, None, weights, stall, beam.ENDGAME_H, noise)
    return drive(vector_beam.vector_beam_steps(T, start, target, width, None, *args))


@pytest.mark.parametrize("length", [2, 3, 4, 5, 6])
def test_line_values_are_the_line_table(length):
    assert (vector_beam.line_values(length) == np.frombuffer(line_table(length), np.uint8)).all()


def test_line_values_of_7_squares_are_the_long_lines():
    """Past the package's tables (rows of 7), on 20,000 codes of distinct tiles drawn at random."""
    values, extras, rng = vector_beam.line_values(7), LineExtras(7), random.Random(7)
    assert values.shape == (8**7,)
    checked = 0
    while checked < 20_000:
        code = rng.randrange(8**7)
        digits = [code // 8**i % 8 for i in range(7)]
        tiles = [d for d in digits if d]
        if len(set(tiles)) == len(tiles):
            assert values[code] == extras[code], code
            checked += 1
    assert values.max() == 12  # seven tiles of a row in reverse order: 2 x (7 - 1)


CASES = [
    # shape, seed, width, keywords, the length found (None: no path)
    (Shape(4, 4), 1, 256, {}, 60),
    (Shape(5, 5), 1, 256, {}, 146),
    (Shape(5, 5), 2, 1024, {"ranked": False}, 138),
    (Shape(6, 6), 3, 512, {}, 176),
    (Shape(6, 6), 3, 512, {"noise": 1}, 176),
    (Shape(6, 6), 3, 512, {"noise": 2}, 196),
    (Shape(6, 6), 4, 1024, {"upper": 200}, None),
    (Shape(6, 6), 4, 1024, {"upper": 236}, 235),
    (Shape(7, 7), 5, 256, {}, 348),
    (Shape(5, 7), 2, 256, {}, 226),
    # narrow beams come back to positions kept `dup_layers` layers before (kept again only past that)
    (Shape(5, 5), 1, 16, {"dup_layers": 12}, 228),
    # no position forgotten: the newer table of the recent positions grown from 1,024 slots to hold the whole beam
    (Shape(5, 5), 1, 256, {"dup_layers": 0}, 146),
    (Shape(6, 6), 4, 64, {}, 555),
]


@pytest.mark.parametrize(("shape", "seed", "width", "kw", "length"), CASES, ids=[f"{c[0]}-{c[1]}-{c[2]}-{c[3]}" for c in CASES])
def test_the_numpy_beam_finds_the_pure_beams_path(shape, seed, width, kw, length):
    board = Board.random(shape, seed)
    T = label_tables(shape)
    target = list(shape.goal())
    path = pure(T, board.tiles, target, width, **kw)
    assert vector(T, board.tiles, target, width, **kw) == path
    assert (None if path is None else len(path)) == length
    if path is not None:
        assert board.solves(tiles_along(shape, board.tiles, path))


def test_wide_beams_on_boards_of_up_to_7_squares_a_side_run_in_numpy(monkeypatch):
    """beam_search hands a beam of MIN_WIDTH or more on a board whose rows and columns are at most
    MAX_LINE long to the numpy beam; narrower beams and longer lines run the pure loop."""
    assert beam.VECTOR is vector_beam
    assert (vector_beam.MIN_WIDTH, vector_beam.MAX_LINE) == (256, 7)
    calls = []
    real = vector_beam.vector_beam_steps
    monkeypatch.setattr(vector_beam, "vector_beam_steps", lambda *a: calls.append(a[3]) or real(*a))
    beams = [(Shape(7, 7), 256, 2), (Shape(7, 7), 255, 2), (Shape(8, 8), 256, 2), (Shape(4, 7), 512, 2), (Shape(4, 7), 1024, 65534)]
    for shape, width, depth in beams:
        board = Board.random(shape, 1)
        beam.beam_search(label_tables(shape), board.tiles, list(shape.goal()), width, max_depth=depth)
    assert calls == [256, 512]  # (not the beam of 65,534 layers: its table holds fewer)
    assert vector_beam.MAX_LAYERS == 65534


def test_the_numpy_beams_endgame_is_the_pure_beams():
    """A beam of 16 from a 7x7's goal towards a random position stalls near it and finds a path only
    once it keeps no position again (beam.STALL_LAYERS), as the pure beam does."""
    shape = Shape(7, 7)
    board = Board.random(shape, 3)
    target = list(shape.goal())
    T = label_tables(shape)
    back = vector(T, target, board.tiles, 16)
    assert back == pure(T, target, board.tiles, 16)
    assert back is not None and len(back) == 535
    assert board.solves(tiles_along(shape, board.tiles, reverse_path(target, back)))
    assert vector(T, target, board.tiles, 16, stall=10**9) is None


def test_a_beam_from_the_target_or_one_move_away():
    """No move from the target itself; the one move from a position next to it (both beams)."""
    shape = Shape(7, 7)
    T, goal = label_tables(shape), list(shape.goal())
    one = goal.copy()
    one[-1], one[-2] = one[-2], one[-1]  # the blank one square left of its goal square
    for beam_of in (pure, vector):
        assert beam_of(T, goal, goal, 256) == []
        assert beam_of(T, one, goal, 256) == [len(goal) - 1]  # the blank to its goal square


def test_a_beam_with_a_known_length_keeps_only_children_that_can_beat_it():
    """With *upper*, a child whose g + MD + LC reaches it is dropped: on this 5x5 the beam of 512
    then finds another path of the same 128 moves, and none shorter than 128."""
    shape = Shape(5, 5)
    board, T, goal = Board.random(shape, 1), label_tables(shape), list(shape.goal())
    unpruned = pure(T, board.tiles, goal, 512)
    pruned = pure(T, board.tiles, goal, 512, upper=129)
    assert len(unpruned) == len(pruned) == 128 and pruned != unpruned
    assert vector(T, board.tiles, goal, 512, upper=129) == pruned
    assert pure(T, board.tiles, goal, 512, upper=128) is None
    assert vector(T, board.tiles, goal, 512, upper=128) is None


def test_a_wandering_beam_stops_after_4_h0_plus_4_n_layers(monkeypatch):
    """The endgame's beam with no endgame (it never stops forgetting) runs ``4 * h0 + 4 * N``
    layers, one call of *check* each, then gives up; the numpy beam refuses 65,534 layers."""
    shape = Shape(7, 7)
    board, T, goal = Board.random(shape, 3), label_tables(shape), list(shape.goal())
    assert T.value(labelled(goal, board.tiles), goal.index(0))[0] == 219  # 4 x 219 + 4 x 49 = 1072
    layers = []
    args = (None, beam.DUP_LAYERS, beam.BEAM_MAX_STATES, None, RANK_WEIGHTS, 10**9, beam.ENDGAME_H, 0)
    assert drive(vector_beam.vector_beam_steps(T, goal, board.tiles, 16, lambda: layers.append(0), *args)) is None
    assert len(layers) == 1072
    monkeypatch.setattr(beam, "STALL_LAYERS", 10**9)
    layers.clear()
    assert pure(T, goal, board.tiles, 16, check=lambda: layers.append(0)) is None
    assert len(layers) == 1072
    deep = (None, beam.DUP_LAYERS, beam.BEAM_MAX_STATES, vector_beam.MAX_LAYERS, RANK_WEIGHTS, 32, beam.ENDGAME_H, 0)
    with pytest.raises(ValueError, match="fewer than 65534 layers"):
        drive(vector_beam.vector_beam_steps(T, goal, board.tiles, 16, None, *deep))


@pytest.mark.parametrize(("width", "length", "peak"), [(100, 198, 3100), (512, 176, 15872)])
def test_the_pure_beam_in_chunks_of_a_layer_is_the_same_beam(monkeypatch, width, length, peak):
    """The pure beam ranks and keeps a layer's children in chunks (between them a time slice may
    end): in chunks of 64 it finds the path it finds in one chunk, the numpy beam's, and keeps as
    many positions at once (no layer past the width)."""
    shape = Shape(6, 6)
    board, T, goal = Board.random(shape, 3), label_tables(shape), list(shape.goal())
    whole = vector(T, board.tiles, goal, width)
    assert pure(T, board.tiles, goal, width) == whole and len(whole) == length
    monkeypatch.setattr(beam, "CHUNK", 64)
    assert pure(T, board.tiles, goal, width, max_states=peak) == whole
    assert pure(T, board.tiles, goal, width, max_states=peak - 1) is None


def test_the_numpy_beam_gives_up_past_max_states_as_the_pure_beam():
    shape = Shape(6, 6)
    board = Board.random(shape, 3)
    T = label_tables(shape)
    target = list(shape.goal())
    assert len(vector(T, board.tiles, target, 512, max_states=20_000) or []) == 176
    assert pure(T, board.tiles, target, 512, max_states=8_000) is None
    assert vector(T, board.tiles, target, 512, max_states=8_000) is None


@pytest.mark.parametrize(
    ("shape", "seed", "width", "kw", "peak"),
    [(Shape(5, 5), 1, 16, {"dup_layers": 12}, 1136), (Shape(5, 5), 1, 256, {}, 7936), (Shape(6, 6), 3, 512, {}, 15872)],
)
def test_both_beams_keep_as_many_positions(shape, seed, width, kw, peak):
    """The most positions a beam keeps at once (each counted once, those kept again too) is the
    same in both beams: each finds its path with *max_states* at that peak and gives up one below."""
    board, T, goal = Board.random(shape, seed), label_tables(shape), list(shape.goal())
    for beam_of in (pure, vector):
        assert beam_of(T, board.tiles, goal, width, max_states=peak, **kw) is not None
        assert beam_of(T, board.tiles, goal, width, max_states=peak - 1, **kw) is None


def test_the_seen_table_answers_as_a_dict_of_the_layers():
    """Batches of hashes new to it put with their layers and looked up: the table answers as a dict
    would, through its growth, and with 64 hashes sharing a slot."""
    rng = np.random.default_rng(5)
    pool = rng.integers(-(1 << 63), (1 << 63) - 1, size=6000, dtype=np.int64)
    pool[:64] = pool[:64] & ~((1 << 40) - 1) | 0x1234 << 16  # (one slot for the 64: probes past it)
    table, truth, grown = vector_beam.SeenTable(256), {}, {}
    for layer in range(1, 41):
        batch = np.unique(rng.choice(pool, 300))
        batch = batch[table.get(batch) == vector_beam.NEVER]
        table.put(batch, np.full(len(batch), layer, np.int64))
        grown.setdefault(table.mask + 1, layer)
        truth.update(dict.fromkeys((int(x) & vector_beam._HIGH for x in batch), layer))
        looked = table.get(pool)
        assert looked.tolist() == [truth.get(int(x) & vector_beam._HIGH, vector_beam.NEVER) for x in pool]
        assert table.count == len(truth)
    # grown from 1024 slots, doubled as soon as a batch would fill more than half (the layer it grew at)
    assert grown == {1024: 1, 2048: 2, 4096: 4, 8192: 9, 16384: 24}


def test_the_recent_positions_are_a_dict_that_forgets_old_layers():
    """The beam's use: every `span` layers the positions kept `span` layers before or earlier are
    forgotten, and a position is kept again only more than `span` layers after it was; the two
    tables answer as the pure beam's dict does, and count as it."""
    span, rng = 5, np.random.default_rng(6)
    pool = rng.integers(-(1 << 63), (1 << 63) - 1, size=3000, dtype=np.int64)
    recent, truth = vector_beam.RecentPositions(64, span), {0: 0}
    assert (recent.older.mask + 1, recent.newer.mask + 1) == (1024, 2048)  # 4 slots a position of `span` layers
    recent.older.put(np.zeros(1, np.int64), np.zeros(1, np.int64))  # (layer 0, as the beam's start)
    again_total = 0
    for layer in range(1, 41):
        looked = recent.get(pool)
        assert looked.tolist() == [truth.get(int(x) & vector_beam._HIGH, vector_beam.NEVER) for x in pool]
        fresh = pool[(looked == vector_beam.NEVER) | (layer - looked > span)]
        batch = np.unique(rng.choice(fresh, 120))
        again = int(np.count_nonzero(recent.get(batch) != vector_beam.NEVER))
        again_total += again
        recent.put(batch, np.full(len(batch), layer, np.int64), again)
        truth.update(dict.fromkeys((int(x) & vector_beam._HIGH for x in batch), layer))
        if layer % span == 0:
            recent.forget()
            truth = {k: v for k, v in truth.items() if layer - v < span}
        assert recent.count == len(truth)
    assert again_total > 50  # (positions were kept again)


@pytest.mark.parametrize("spread", [3, 40, 5000])
def test_first_of_equal_finds_each_values_first_index(spread):
    rng = np.random.default_rng(spread)
    values = rng.integers(-(1 << 63), (1 << 63) - 1, size=spread, dtype=np.int64)
    keys = values[rng.integers(0, spread, size=20000)]
    keys[:50] = (keys[:50] & ((1 << 58) - 1)) | (np.arange(50, dtype=np.int64) << 58)  # only the top bits differ: sorted
    expected = np.sort(np.unique(keys, return_index=True)[1])
    assert vector_beam.first_of_equal(keys).tolist() == expected.tolist()
    assert vector_beam.first_of_equal(keys[:0]).tolist() == []
    # copies in one slot in the first round, which settles them without the sort
    assert vector_beam.first_of_equal(np.array([5, 5, 7, 5, 7], np.int64)).tolist() == [0, 2]


def test_beams_in_numpy_may_keep_twice_the_path_records_and_four_times_the_positions(monkeypatch):
    """The improver runs a beam while width x best length stays within beam_max_nodes: 40 M path
    records for a beam in numpy (its duplicates cost 8 bytes a position), 20 M for the pure loop;
    and while 31 layers of it stay within its state limit (beam_max_states): 12 M positions in
    numpy, 3 M in the pure loop."""
    from fifteen.anytime import driver

    seven, eight = label_tables(Shape(7, 7)), label_tables(Shape(8, 8))
    assert driver.beam_max_nodes(seven, 65536) == 40_000_000  # (7x7's 65,536 x 306 runs)
    assert driver.beam_max_nodes(seven, 128) == driver.beam_max_nodes(eight, 65536) == 20_000_000
    assert driver.beam_fits(seven, 65536, 610) and not driver.beam_fits(seven, 65536, 611)
    monkeypatch.setattr(beam, "free_memory", lambda: 262144 * beam.VECTOR_BEAM_BYTES)
    assert beam.beam_max_states(seven, 65536) == beam.beam_max_states(seven, 128) == 3_000_000  # (they fit in it)
    assert beam.beam_max_states(seven, 131072) == beam.beam_max_states(seven, 262144) == 12_000_000
    assert driver.beam_fits(seven, 262144, 152) and not driver.beam_fits(seven, 262144, 153)  # (path records)
    assert not driver.beam_fits(seven, 524288, 10)  # (31 layers of it pass numpy's 12 M positions)
    monkeypatch.setattr(beam, "free_memory", lambda: 262144 * beam.VECTOR_BEAM_BYTES - 1)  # (not for 262,144)
    assert beam.beam_max_states(seven, 262144) == 3_000_000 and not driver.beam_fits(seven, 262144, 100)
    assert beam.beam_max_states(seven, 131072) == 12_000_000 and driver.beam_fits(seven, 131072, 100)
    monkeypatch.setattr(beam, "free_memory", lambda: None)  # (the machine cannot tell: as if it could)
    assert beam.beam_max_states(seven, 262144) == 12_000_000
    monkeypatch.setattr(beam, "VECTOR", None)
    assert driver.beam_max_nodes(seven, 65536) == 20_000_000 and beam.beam_max_states(seven, 131072) == 3_000_000
    assert driver.beam_fits(seven, 65536, 305) and not driver.beam_fits(seven, 65536, 306)
    assert not driver.beam_fits(seven, 131072, 100)  # (31 layers of it pass the pure beam's 3 M positions)


@pytest.mark.parametrize(("seed", "width", "length"), [(4, 64, 555), (3, 512, 176)])
def test_a_layer_looks_up_more_of_its_children_when_a_prefix_does_not_fill_the_width(monkeypatch, seed, width, length):
    """A layer looks duplicates up among its best ranked children first (the width, a quarter of it
    and PREFIX_SLACK more), then among four times as many while they do not fill the width: from a
    prefix of one child, the pure beam's path still."""
    shape = Shape(6, 6)
    board, T = Board.random(shape, seed), label_tables(shape)
    target = list(shape.goal())
    monkeypatch.setattr(vector_beam, "PREFIX_SLACK", 1 - width - width // 4)
    path = vector(T, board.tiles, target, width)
    assert path == pure(T, board.tiles, target, width)
    assert len(path) == length


def test_a_layer_of_more_children_than_the_packed_sort_holds_sorts_stably(monkeypatch):
    """Past 2^24 children a layer is sorted by a stable argsort instead of rank and index packed
    in one word: the same path (forced here by a 4-bit index)."""
    shape, width = Shape(6, 6), 512
    board, T = Board.random(shape, 3), label_tables(shape)
    packed = vector(T, board.tiles, list(shape.goal()), width)
    monkeypatch.setattr(vector_beam, "_INDEX_BITS", 4)
    monkeypatch.setattr(vector_beam, "_INDEX", 15)
    assert vector(T, board.tiles, list(shape.goal()), width) == packed
    assert len(packed) == 176


def test_a_moves_hash_change_is_the_hash_of_the_position_it_makes():
    """A position's hash (the exclusive or of zobrist[square, label]) changes by
    move_hashes[m * N + t] when the tile t makes move m: checked along a random walk on 5x7."""
    shape = Shape(5, 7)
    T, rng = label_tables(shape), random.Random(3)
    board = labelled(Board.random(shape, 2).tiles, list(shape.goal()))
    blank_label = board[list(Board.random(shape, 2).tiles).index(0)]
    z, changes = vector_beam.zobrist(T.n), vector_beam.move_hashes(T, blank_label)
    assert changes.shape == (len(T.move_squares) * T.n,)

    def hashed(b):
        return int(np.bitwise_xor.reduce(z[np.arange(T.n), b]))

    for _ in range(200):
        m, (frm, to) = rng.choice([(m, ms) for m, ms in enumerate(T.move_squares) if board[ms[0]] == blank_label])
        before, t = hashed(board), board[to]
        board[frm], board[to] = t, blank_label
        assert hashed(board) == before ^ int(changes[m * T.n + t])


def test_the_free_memory_is_read_once_so_a_paused_beam_keeps_its_limit(monkeypatch):
    """A wide beam paused at the end of a time slice is asked again with the same arguments: its
    state limit must not change as its own arrays take from the free memory."""
    readings = iter([262144 * beam.VECTOR_BEAM_BYTES, 0])
    monkeypatch.setattr(beam, "available_memory", lambda: next(readings))
    beam.free_memory.cache_clear()
    seven = label_tables(Shape(7, 7))
    try:
        assert [beam.beam_max_states(seven, 262144) for _ in range(3)] == [12_000_000] * 3
    finally:
        beam.free_memory.cache_clear()
