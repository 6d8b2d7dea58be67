"""The beam with its layers as numpy arrays (fifteen.anytime.vector_beam) is the pure Python beam:
the same paths (pinned lengths, replayed), the same endgame and limits; and the line table it
computes for every code at once is the package's."""

from __future__ import annotations

import random

import numpy as np
import pytest

from fifteen.anytime import beam, vector_beam
from fifteen.anytime.rank import RANK_WEIGHTS
from fifteen.anytime.tables import label_tables
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
    T, start, target, width, upper=None, dup_layers=beam.DUP_LAYERS, max_states=beam.BEAM_MAX_STATES, ranked=True, stall=beam.STALL_LAYERS
):
    """The numpy beam, whatever the width."""
    weights = RANK_WEIGHTS if ranked else beam.PLAIN_WEIGHTS
    args = (upper, dup_layers, max_states, None, weights, stall, beam.ENDGAME_H)
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
    (Shape(6, 6), 4, 1024, {"upper": 200}, None),
    (Shape(6, 6), 4, 1024, {"upper": 236}, 235),
    (Shape(7, 7), 5, 256, {}, 378),
    (Shape(5, 7), 2, 256, {}, 226),
    # narrow beams come back to positions kept `dup_layers` layers before (kept again only past that)
    (Shape(5, 5), 1, 16, {"dup_layers": 12}, 228),
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
    for shape, width in [(Shape(7, 7), 256), (Shape(7, 7), 255), (Shape(8, 8), 256), (Shape(4, 7), 512)]:
        board = Board.random(shape, 1)
        beam.beam_search(label_tables(shape), board.tiles, list(shape.goal()), width, max_depth=2)
    assert calls == [256, 512]


def test_the_numpy_beams_endgame_is_the_pure_beams():
    """A beam of 16 from a 7x7's goal towards a random position stalls near it and finds a path only
    once it keeps no position again (beam.STALL_LAYERS), as the pure beam does."""
    shape = Shape(7, 7)
    board = Board.random(shape, 3)
    target = list(shape.goal())
    T = label_tables(shape)
    back = vector(T, target, board.tiles, 16)
    assert back == pure(T, target, board.tiles, 16)
    assert back is not None and len(back) == 475
    assert board.solves(tiles_along(shape, board.tiles, reverse_path(target, back)))
    assert vector(T, target, board.tiles, 16, stall=10**9) is None


def test_the_numpy_beam_gives_up_past_max_states_as_the_pure_beam():
    shape = Shape(6, 6)
    board = Board.random(shape, 3)
    T = label_tables(shape)
    target = list(shape.goal())
    assert len(vector(T, board.tiles, target, 512, max_states=20_000) or []) == 176
    assert pure(T, board.tiles, target, 512, max_states=8_000) is None
    assert vector(T, board.tiles, target, 512, max_states=8_000) is None
