"""The generated loops: the branches the searches of the other tests do not reach, and the key
each loop opens with (what its arguments, tables and successor fields hold).

* The ordering pass (reflected PDB loop, nodes with slack >= 6) and its goal test: a search
  never has that much slack next to the goal within IDA* (the bound rises by 2 from the
  solution's parity), so a searcher is run directly with a large budget.
* The plain PDB loop's tick and cancel (tests/test_search.py drives every other loop: md, lc,
  id, wd, wdid, the reflected PDB loop with 5-5-5 and 6-6-3, and both 7-8 loops).
"""

from __future__ import annotations

import re
import sys
import textwrap

import pytest

from fifteen import Shape
from fifteen.bounds import bound_info
from fifteen.bounds.manhattan_loop import MD_LOOP
from fifteen.bounds.pdb_loop import pdb_loop, pdb_searcher
from fifteen.search.ida import Cancelled, ida_star
from fifteen.search.moves import tables_for
from fifteen.search.template import Loop, generate
from support.cancel import CancelInTheLoop


def never(nodes: int) -> int:
    return sys.maxsize


ONE_MOVE_3X3 = [1, 2, 3, 4, 5, 0, 7, 8, 6]  # tile 6 slid up: the blank goes down to the goal


def test_the_ordering_pass_finds_the_goal_child(small_pdbs):
    """With slack >= 6 at the root, the ordering pass takes the children whose value does not
    rise first: the goal child (value 0) is found there at once, although another child comes
    before it in the successor list (searched first, in the successor list's order)."""
    shape = Shape(3, 3)
    tables = tables_for(shape, ONE_MOVE_3X3)
    order = [s for s, _, _ in tables.successors[tables.start_states[ONE_MOVE_3X3.index(0)]]]
    assert sorted(order) == [2, 4, 8] and order[0] != 8  # the goal's move (to 8) is not the first listed
    searcher = pdb_searcher(small_pdbs["3x3"], reflect=True)(shape, ONE_MOVE_3X3, never)
    assert searcher.h0 == 1
    assert searcher.run(11) == ([8], 1)  # the root only: the goal child found in the ordering pass
    assert searcher.run(7) == ([8], 1)  # slack 6 (budget 6 after the root, value 1 < 6 - 4)
    assert searcher.run(5) == ([8], 3)  # no ordering pass: the children before the goal's are searched
    # The plain loop (no ordering pass) with the same budget searches the first child's subtree first.
    plain = pdb_searcher(small_pdbs["3x3"], reflect=False)(shape, ONE_MOVE_3X3, never)
    assert plain.run(11) == ([8], 17)


@pytest.mark.parametrize("shape_name", ["3x3", "2x4"])
def test_tick_and_cancel_in_the_plain_pdb_loop(small_pdbs, shape_name):
    shape = Shape.parse(shape_name)
    tiles = {"3x3": [8, 6, 7, 2, 5, 4, 3, 0, 1], "2x4": [4, 3, 7, 1, 2, 6, 5, 0]}[shape_name]
    factory = pdb_searcher(small_pdbs[shape_name], reflect=False)
    ticks = []
    result = ida_star(shape, tiles, factory, progress=ticks.append, tick_nodes=4)
    inner = [p for p in ticks if not p.done]
    assert len(inner) > 5 and all(p.iteration_nodes > 0 for p in inner)
    assert [p.iterations[-1].bound for p in ticks if p.done] == [it.bound for it in result.iterations]
    stop = CancelInTheLoop()
    with pytest.raises(Cancelled) as info:
        ida_star(shape, tiles, factory, progress=stop.progress, cancel=stop.cancel, tick_nodes=4)
    assert any(entry.name == "dfs" for entry in info.traceback)  # raised inside the generated loop
    assert stop.checks == stop.iterations + 2


def check_key(loop: Loop, source: str) -> None:
    """*source* (the generated loop of *loop*) opens with its key: what it computes and what every
    argument, table and successor field holds, in lines of at most 100 characters."""
    key = source[: source.index("def make")].splitlines()
    assert key[0] == f"# {loop.name}: {loop.about}" and loop.about and all(len(line) <= 100 for line in key)
    described = {m.group(1): m.group(2) for m in (re.match(r"#   (\w+) +(\S.*)", line) for line in key) if m}
    for name in ("b", "state", "budget", "t", "h", *loop.args, *loop.names, *loop.fields):
        assert described.get(name) == textwrap.wrap(loop.meaning(name), 100)[0][: len(described.get(name, ""))], name
    body = source[source.index("def make") :]
    assert all(line.startswith("#") for line in key) and "def dfs(" in body and len(body.splitlines()[0]) <= 100
    compile(source, loop.name, "exec")


@pytest.mark.parametrize("shape", ["4x4", "3x4", "2x6"])
@pytest.mark.parametrize("bound", ["md", "lc", "id", "wd", "wdid", "pdb663", "pdb78"])
def test_a_generated_loop_opens_with_its_key(bound, shape):
    """``fifteen loops`` starts with what the loop computes and what every argument, table and
    successor field holds (its Loop's legend), in lines of at most 100 characters."""
    info = bound_info(bound)
    check_key(info.loop(Shape.parse(shape)), info.loop_source(Shape.parse(shape)))


@pytest.mark.parametrize("dual,bpmx", [(3, False), (3, True), (2, True), (0, True)])
def test_the_loops_with_more_lookups_open_with_their_key(dual, bpmx):
    """The PDB loops with the dual lookups and/or BPMX (bench/lookups.md): the key, and h3 and
    the BPMX cut where they belong."""
    loop = pdb_loop(True, dual, bpmx)
    source = generate(loop)
    check_key(loop, source)
    assert ("h3 = " in source) == bool(dual) and ("> budget + 2:" in source) == bpmx
    if dual:
        assert f"D[{dual + 1}]" in source and f"D[{2 * dual}]" in source and f"D[{2 * dual + 1}]" not in source


def test_a_loop_says_what_each_of_its_names_holds():
    with pytest.raises(ValueError, match="md-bare: say what hp, succ, mdd, m hold"):
        Loop(name="md-bare", args=("hp",), hot=("succ", "mdd"), children=MD_LOOP.children)
    with pytest.raises(ValueError, match="say what mdd holds"):
        Loop(
            name="md-bare",
            args=("hp",),
            hot=("succ", "mdd"),
            children=MD_LOOP.children,
            legend=tuple(e for e in MD_LOOP.legend if e[0] != "mdd"),
        )
    assert Loop(name="md-again", args=("hp",), hot=("succ", "mdd"), children=MD_LOOP.children, legend=MD_LOOP.legend).fields == (
        "s",
        "m",
        "st",
    )
    assert (
        MD_LOOP.meaning("mdd").startswith("mdd[m + t]: the change of the Manhattan distance")
        and MD_LOOP.meaning("b") == "the blank's square"
    )
