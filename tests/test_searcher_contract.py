"""The searcher contract (fifteen.search.ida): a subtree searched on its own, from the board after a
path, the root's move tables, the automaton state reached along the path and the budget left,
expands exactly the nodes the serial search expands there — for every bound and every loop
(plain, reflected with the ordering pass, 7-8), on ordinary and own-mirror roots.

Exact statement checked: in an IDA* iteration that finds no solution, the serial search's
node count equals 1 + the counts of the children's subtrees (each searched through the
contract, split again recursively), over the root's successor list with its automaton
states and the same pruning (a child is searched when its ``h0`` is at most ``bound - 1``).
The order of the children (the PDB loop's ordering pass) does not matter then.  In the last
iteration the order does matter: there, when no ordering pass applies at the root (every loop
but the reflected PDB one; for that one, slack ``bound - h0 < 6``), the serial count equals
1 + the counts of the children taken in the successor list's order up to the one whose
subtree holds the solution, and the solution is that child's move followed by its subtree's
path.
"""

from __future__ import annotations

import sys

import pytest

from fifteen import Shape, bounds
from fifteen.board import blank_steps
from fifteen.bounds import databases
from fifteen.search.ida import ida_star
from fifteen.search.moves import tables_for
from support.positions import KORF, OWN_MIRROR_3X3, OWN_MIRROR_4X4, SET_2X4, SET_3X3


def never(nodes: int) -> int:
    return sys.maxsize


def children(shape, board, tables, state):
    """The root's successors: (square, child board, child state), in the loop's order."""
    blank = board.index(0)
    for s, _, st in tables.successors[state]:
        child = list(board)
        child[blank], child[s] = child[s], 0
        yield s, child, st


def split_nodes(factory, shape, board, tables, state, budget, depth):
    """Nodes of the subtree at *board* within *budget*, searched by splitting *depth* levels
    into subtrees through the contract; ``None`` if a solution lies within the budget."""
    if depth == 0:
        path, nodes = factory(shape, board, never, tables=tables, state=state).run(budget)
        return None if path is not None else nodes
    total = 1
    for _, child, st in children(shape, board, tables, state):
        if factory(shape, child, never, tables=tables, state=st).h0 > budget - 1:
            continue  # cut by f > bound, as the serial loop does
        nodes = split_nodes(factory, shape, child, tables, st, budget - 1, depth - 1)
        if nodes is None:
            return None
        total += nodes
    return total


def check_contract(factory, shape, tiles, depths=(1, 2), ordering=False):
    """Every iteration of the serial search against the split counts; returns the iterations checked."""
    board = list(tiles)
    serial = ida_star(shape, board, factory)
    tables = tables_for(shape, board)
    root = tables.start_states[board.index(0)]
    h0 = factory(shape, board, never).h0
    assert h0 == serial.h0
    assert serial.iterations[0].bound == h0 + ((h0 - blank_steps(shape, board.index(0))) & 1)
    for it in serial.iterations[:-1]:
        for depth in depths:
            assert split_nodes(factory, shape, board, tables, root, it.bound, depth) == it.nodes, (tiles, it.bound, depth)
    last = serial.iterations[-1]
    if serial.length and not (ordering and last.bound - h0 >= 6):  # no ordering pass at the root: successor order
        total = 1
        for s, child, st in children(shape, board, tables, root):
            sub = factory(shape, child, never, tables=tables, state=st)
            if sub.h0 > last.bound - 1:
                continue
            path, nodes = sub.run(last.bound - 1)
            total += nodes
            if path is not None:
                assert [s] + path[::-1] == serial.path
                break
        assert total == last.nodes, tiles
    return len(serial.iterations)


CLASSIC = ["md", "lc", "lclm", "id", "wd", "wdid"]


@pytest.mark.parametrize("bound", CLASSIC)
def test_contract_small_boards(bound):
    factory = bounds.bound_info(bound).factory
    checked = 0
    for shape, positions in ((Shape(3, 3), SET_3X3 + OWN_MIRROR_3X3), (Shape(2, 4), SET_2X4)):
        for tiles in positions:
            checked += check_contract(factory, shape, tiles)
    assert checked > 40


@pytest.mark.parametrize("reflect", [True, False])
def test_contract_small_pdb(small_pdbs, small_packs, reflect):
    from fifteen.bounds.pdb78_loop import pdb78_searcher
    from fifteen.bounds.pdb_loop import pdb_searcher

    for make, dbs in ((pdb_searcher, small_pdbs), (pdb78_searcher, small_packs)):
        for shape, positions in ((Shape(3, 3), SET_3X3 + OWN_MIRROR_3X3), (Shape(2, 4), SET_2X4)):
            factory = make(dbs[str(shape)], reflect=reflect)
            ordering = make is pdb_searcher and reflect and shape.rows == shape.cols
            for tiles in positions:
                check_contract(factory, shape, tiles, ordering=ordering)


def test_contract_dual_lookups(small_pdbs, real_pdbs):
    """The loop with the dual lookups keeps the contract (its ``h0`` takes the dual too); the
    loop with BPMX does not (a node's count depends on its children's order), so it stays out of
    the parallel search."""
    from fifteen.bounds.pdb_loop import pdb_searcher

    factory = pdb_searcher(small_pdbs["3x3"], dual=True)
    for tiles in SET_3X3 + OWN_MIRROR_3X3:
        check_contract(factory, Shape(3, 3), tiles, ordering=True)
    assert check_contract(pdb_searcher(real_pdbs["pdb663"], dual=True), Shape(4, 4), KORF["9"], ordering=True) >= 5


@pytest.mark.parametrize("bound", CLASSIC + ["pdb555", "pdb663"])
def test_contract_korf9(bound):
    """Korf #9 on 4x4, every bound, split one and two levels deep (the PDB loop's ordering pass
    applies at the root from the third iteration)."""
    databases.ensure_for(Shape(4, 4))
    factory = bounds.bound_info(bound).factory  # (lclm is offered past 4x4 only, its loop runs on any board)
    assert check_contract(factory, Shape(4, 4), KORF["9"], ordering=bound.startswith("pdb")) >= 5


def test_contract_own_mirror_4x4():
    """Own-mirror roots: the mirror-closed tables with half the root's moves; the children are
    ordinary positions, searched with the root's tables (their own default would differ)."""
    databases.ensure_for(Shape(4, 4))
    factory = bounds.resolve_bound(Shape(4, 4), "pdb663").factory
    tiles = list(OWN_MIRROR_4X4[2])
    tables = tables_for(Shape(4, 4), tiles)
    assert tables.mirror_closed
    check_contract(factory, Shape(4, 4), tiles, depths=(1,), ordering=True)


def test_default_state_and_tables():
    """Without *tables*/*state* a searcher starts where ida_star starts: the same nodes."""
    shape = Shape(3, 3)
    for tiles in SET_3X3[:3] + OWN_MIRROR_3X3[:3]:
        tables = tables_for(shape, tiles)
        for bound in CLASSIC:
            factory = bounds.bound_info(bound).factory
            plain = factory(shape, list(tiles), never)
            explicit = factory(shape, list(tiles), never, tables=tables, state=tables.start_states[tiles.index(0)])
            budget = plain.h0 + 4
            assert plain.run(budget) == explicit.run(budget)


@pytest.mark.parametrize("bound", CLASSIC)
def test_searcher_keeps_the_board_and_runs_again(bound):
    """A searcher works on its own copy of the board, runs again with the same result, and
    returns the blank's squares of a solution in reverse order."""
    board = list(SET_3X3[5])  # 23 moves
    searcher = bounds.bound_info(bound).factory(Shape(3, 3), board, never)
    first = searcher.run(21)
    assert first[0] is None and first[1] > 0
    assert searcher.run(21) == first
    assert board == list(SET_3X3[5])
    path, _ = searcher.run(23)
    assert path is not None and len(path) == 23
    replay = list(board)
    for s in reversed(path):
        blank = replay.index(0)
        replay[blank], replay[s] = replay[s], 0
    assert replay == list(Shape(3, 3).goal())
