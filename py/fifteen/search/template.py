"""One template for every IDA* inner loop: the generator of the bounds' specialised loops.

Every bound searches with the same depth-first loop; what differs is the state its value is
kept in and how a move updates it.  So the loop is written once, here, as a template (the
*skeleton*), and each family of bounds describes only its part as a :class:`Loop` of source
snippets (:mod:`fifteen.bounds.manhattan_loop`, :mod:`fifteen.bounds.walking_loop`,
:mod:`fifteen.bounds.pdb_loop`, :mod:`fifteen.bounds.pdb78_loop`).  :class:`LoopProgram` generates the
source, compiles it once and makes a :class:`Searcher` per start position, in the contract of
:func:`fifteen.search.ida.ida_star`.  Read a generated loop with
``python -m fifteen loops --bound pdb663 [--shape 4x4]``.

The skeleton (written for CPython's speed; each point was measured, see bench/README.md)::

    def dfs(b, state, budget, <state arguments>, <tables and lists>=..., rec=None):
        nonlocal nodes, next_tick
        nodes += 1                               # one count per expanded node
        (tick every node, or only in nodes with slack)
        budget -= 1
        for <successor fields> in <successor list>[state]:
            t = board[s]                         # the tile that slides from s to b
            <the child's value h>                # from the moving tile alone
            if h > budget: continue
            <a second value h2, only for children h did not cut>
            if h2 > budget: continue
            if <the child is the goal>: path.append(s); return True
            <a third value h3, only for children h and h2 did not cut (it may move state: undone on a cut)>
            if h3 > budget: <undo>; continue
            board[b] = t; <apply>
            if rec(s, st, budget, <the child's state arguments>): path.append(s); return True
            <restore>; board[s] = t
        return False

  With *bpmx* (bidirectional pathmax, for inconsistent values), a child whose value exceeds
  ``budget + 2`` proves the node itself beyond the bound (its distance is at least the child's
  minus one): ``return False`` at once, the remaining children unsearched.

* Recursion, with each child tested inside the parent's loop: a call is made only for
  children within the bound.
* The board is a ``list`` and tables are ``bytes``/``list`` indexed by one addition (see
  :mod:`fifteen.search.moves`); two stores per move: the tile is written to the old blank square
  and put back on return, the blank itself is never written.
* Successors come from the duplicate-pruning automaton's lists (:mod:`fifteen.search.moves`): the
  state indexes the list and each entry carries the child's state.
* Tables, lists and ``dfs`` itself (``rec``) are default arguments, so every name the loop
  reads is a fast local (no closure cell, no global): -3 % instructions per node.
* The progress/cancel *tick* is a call every ``tick_nodes`` nodes, on the node counter; a
  loop may check it only in nodes with slack (where its value is below the budget), which
  come often enough, and save the test in the others.
* An optional *ordering pass*: in nodes with much slack, the children whose value does not
  rise are searched first, the others second (the same tests); it finds the goal sooner in
  the last iteration.

A :class:`Loop` gives the snippets; the skeleton's names are fixed: ``b`` the blank's
square, ``state`` the automaton state, ``budget`` the moves left, ``s``/``st`` the square
the blank moves to and the child's state (fields of every successor entry), ``t`` the tile,
``h``/``h2`` the child's values, ``board`` and ``path`` (:data:`SKELETON_LEGEND`).  A loop
says what its own names hold (:attr:`Loop.legend`: every state argument, table and successor
field), and the generated source opens with that key.  ``docs/architecture.md`` shows a
15-line reference IDA* beside the template.
"""

from __future__ import annotations

import ast
import re
import sys
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from fifteen.search.moves import MoveTables
from fifteen.search.slices import Pause

#: ``tick(nodes) -> nodes at which to call it again`` (see :func:`fifteen.search.ida.ida_star`).
Tick = Callable[[int], int]

#: What the skeleton's own names hold (the key of every generated loop; a :class:`Loop` adds its names').
SKELETON_LEGEND: dict[str, str] = {
    "b": "the blank's square",
    "state": "the duplicate-pruning automaton's state at this node (fifteen.search.moves)",
    "budget": "the moves left within the iteration's cost bound (one less once the node is counted)",
    "board": "the position, tiles by square: a move writes the tile on the blank's square, and back on return",
    "path": "the blank's squares of the solution found, last move first",
    "s": "the square the blank moves to (the sliding tile's)",
    "st": "the child's automaton state",
    "t": "the tile that slides from s into b",
    "h": "the child's value: the bound at the child, compared with the budget left",
    "h2": "the child's second value, computed only for children h did not cut",
    "h3": "the child's third value, computed only for children h and h2 did not cut",
    "rec": "dfs itself, a default argument (a fast local)",
    "tick": "progress and cancel: tick(nodes) returns the node count of its next call",
}


def ensure_recursion(depth: int) -> None:
    """Make room for a recursive search *depth* frames deep."""
    need = depth + 200
    if sys.getrecursionlimit() < need:
        sys.setrecursionlimit(need)


@dataclass(frozen=True)
class Children:
    """One successor list of a loop and the snippets that value, test, apply and restore a child.

    *fields* name the parts of a successor entry (``s`` and ``st`` among them); *value*
    computes the child's value ``h``, *second* (optional) a second value ``h2`` computed only
    for children ``h`` did not cut (both cut when above the budget); *goal* tells whether
    the child (within both) is the goal; *third* (optional) a third value ``h3`` for the
    children within both that are not the goal, which may already move state (*undo* puts it
    back when ``h3`` cuts the child; *restore* must then put it back too); *apply* follows
    ``board[b] = t``, *restore* precedes ``board[s] = t``; *child* are the child's state
    arguments.
    """

    table: str
    fields: tuple[str, ...]
    value: tuple[str, ...]
    child: tuple[str, ...]
    second: tuple[str, ...] = ()
    goal: str = "h == 0"
    third: tuple[str, ...] = ()
    undo: tuple[str, ...] = ()
    apply: tuple[str, ...] = ()
    restore: tuple[str, ...] = ()


@dataclass(frozen=True)
class Loop:
    """A bound's inner loop, as snippets for the skeleton (see the module docstring).

    *args*: the state arguments after ``(b, state, budget)``; *hot*: the tables and lists
    the snippets read, bound as default arguments (``board`` and ``path`` are always);
    *children*: the successor lists, searched in order.  *tick_slack*: when given, the
    tick is checked only in nodes where this condition holds (after ``budget -= 1``);
    *order*: when given (with *tick_slack*), in nodes where it also holds the children
    whose value ``h`` is at most the parent's *parent_value* are searched first, the others
    second.  *bpmx*: a child whose value (``h``, ``h2`` or ``h3``) exceeds ``budget + 2``
    ends the node's search (bidirectional pathmax: the node's distance is at least the child's
    value minus one, beyond the node's budget).  *about*: the bound, in a few words; *legend*: ``(name, what it holds)`` for
    every state argument, table and successor field that is not the skeleton's
    (:data:`SKELETON_LEGEND`), and for any other name of the snippets worth a word: the key
    at the top of the generated source.
    """

    name: str
    args: tuple[str, ...]
    hot: tuple[str, ...]
    children: tuple[Children, ...]
    tick_slack: str | None = None
    order: str | None = None
    parent_value: str = ""
    bpmx: bool = False
    about: str = ""
    legend: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        if self.order is not None and (self.tick_slack is None or not self.parent_value):
            raise ValueError("an ordering pass needs tick_slack and parent_value")
        for ch in self.children:
            if "s" not in ch.fields or "st" not in ch.fields:
                raise ValueError("successor fields must name s and st")
        known = set(SKELETON_LEGEND) | {name for name, _ in self.legend}
        missing = [n for n in self.args + self.hot + self.fields if n not in known]
        if missing:
            raise ValueError(f"{self.name}: say what {', '.join(missing)} hold{'s' * (len(missing) == 1)} (legend)")

    @property
    def fields(self) -> tuple[str, ...]:
        """The fields of the successor entries, every list's, in order of first appearance."""
        return tuple(dict.fromkeys(f for ch in self.children for f in ch.fields))

    def meaning(self, name: str) -> str:
        """What *name* holds (the loop's legend, else the skeleton's)."""
        return dict(self.legend).get(name) or SKELETON_LEGEND[name]

    @property
    def names(self) -> tuple[str, ...]:
        """The names bound as default arguments (the parameters of ``make``, but ``tick``)."""
        return ("board", "path") + tuple(n for n in self.hot if n not in ("board", "path"))


def _cut(inner: str, test: str, value: str, bpmx: bool, undo: tuple[str, ...] = ()) -> list[str]:
    """``if test: continue`` (after *undo*); with *bpmx*, ``return False`` when *value* exceeds
    ``budget + 2`` (every cut form holds then: *test* is only tested first)."""
    lines = [f"{inner}if {test}:"]
    if bpmx:
        lines += [f"{inner}    if {value} > budget + 2:"] + [f"{inner}        {x}" for x in undo] + [f"{inner}        return False"]
    return lines + [f"{inner}    {x}" for x in undo] + [f"{inner}    continue"]


def _children_source(ch: Children, cut: str, indent: int, bpmx: bool, resume: bool = False) -> list[str]:
    """The loop over one successor list; *cut* is the test that skips a child on its value ``h``.
    With *resume* (the node's frame in ``again``): the children before the one the trail names
    (``square``) are skipped (they were searched before the pause), that one is searched by
    ``again``, the next ones by ``rec``."""
    pad = " " * indent
    inner = pad + "    "
    lines = [f"{pad}for {', '.join(ch.fields)} in {ch.table}[state]:"]
    if resume:
        lines += [
            f"{inner}if skip:",
            f"{inner}    if s != square:",
            f"{inner}        continue",
            f"{inner}    skip = False",
            f"{inner}    call = again",
            f"{inner}else:",
            f"{inner}    call = rec",
        ]
    lines.append(f"{inner}t = board[s]")
    lines += [inner + x for x in ch.value]
    lines += _cut(inner, cut, "h", bpmx)
    if ch.second:
        lines += [inner + x for x in ch.second]
        lines += _cut(inner, "h2 > budget", "h2", bpmx)
    lines += [f"{inner}if {ch.goal}:", f"{inner}    path.append(s)", f"{inner}    return True"]
    if ch.third:
        lines += [inner + x for x in ch.third]
        lines += _cut(inner, "h3 > budget", "h3", bpmx, ch.undo)
    lines.append(f"{inner}board[b] = t")
    lines += [inner + x for x in ch.apply]
    lines += [
        f"{inner}if {'call' if resume else 'rec'}(s, st, budget, {', '.join(ch.child)}):",
        f"{inner}    path.append(s)",
        f"{inner}    return True",
    ]
    lines += [inner + x for x in _restore(ch)]
    return lines


def _restore(ch: Children) -> list[str]:
    return [*ch.restore, "board[s] = t"]


def _guarded(loops: list[tuple[Children, int]], cut: str, indent: int, bpmx: bool, ends: bool, resume: bool = False) -> list[str]:
    """The loops over the successor lists of one pass (*loops*: each list with its number in the
    node), in one ``try``: a pause (:class:`fifteen.search.slices.Pause`) out of a child's search
    puts the move back and notes ``(loop number, s)`` on the trail (``note``), the list being the one that
    holds ``s`` (the lists of a pass are disjoint: :class:`LoopProgram` checks it).  *ends*: the
    node's ``return False`` follows, in the ``try``.  A ``try`` costs nothing per node when
    nothing is raised (given the line of its first loop, see :func:`_compiled`, it leaves no
    no-op; with ``return False`` inside, no jump over the handler)."""
    pad = " " * indent
    inner = pad + "    "
    lines = [f"{pad}try:"]
    for ch, _ in loops:
        lines += _children_source(ch, cut, indent + 4, bpmx, resume)
    if ends:
        lines.append(f"{inner}return False")
    lines.append(f"{pad}except Pause:  # a child's search paused: its move undone, this node's place noted")
    for k, (ch, j) in enumerate(loops):
        undo = [*_restore(ch), f"note({j}, s)"]
        if len(loops) == 1:
            lines += [inner + x for x in undo]
            break
        if k < len(loops) - 1:
            field = ch.fields.index("s")
            lines.append(f"{inner}{'if' if k == 0 else 'elif'} holds({ch.table}[state], {field}, s):")
        else:
            lines.append(f"{inner}else:")
        lines += [inner + "    " + x for x in undo]
    lines.append(f"{inner}raise")
    return lines


def _node_source(loop: Loop, resume: bool) -> list[str]:
    """The body of ``dfs`` (after the node's count), or with *resume* of ``again``: the same tests
    and loops without the count and the tick, each loop run only from the one the trail names."""
    lines: list[str] = []
    loops = iter(range(len(loop.children) * (3 if loop.order else 1)))

    def each(cut: str, indent: int, ends: bool) -> list[str]:
        numbered = [(ch, next(loops)) for ch in loop.children]
        if not resume:
            return _guarded(numbered, cut, indent, loop.bpmx, ends)
        out: list[str] = []
        pad = " " * indent
        for ch, j in numbered:
            out += [f"{pad}if where <= {j}:", f"{pad}    skip = where == {j}"]
            out += _guarded([(ch, j)], cut, indent + 4, loop.bpmx, False, resume=True)
        return out

    tick = [] if resume else ["            if nodes >= next_tick:", "                next_tick = tick(nodes)"]
    if loop.tick_slack is None:
        if not resume:
            lines += ["        if nodes >= next_tick:", "            next_tick = tick(nodes)"]
        lines.append("        budget -= 1")
    elif loop.order is None:
        lines.append("        budget -= 1")
        if not resume:
            lines += [f"        if {loop.tick_slack} and nodes >= next_tick:", "            next_tick = tick(nodes)"]
    else:
        parent = loop.parent_value
        lines += ["        budget -= 1", f"        if {loop.tick_slack}:", *tick, f"            if {loop.order}:"]
        lines.append("                # Ordering pass: the children whose value does not rise first, the others second.")
        lines += each(f"h > {parent}", 16, False)
        lines += each(f"h < {parent} or h > budget", 16, True)
        if resume:
            lines.append("                return False")
    lines += each("h > budget", 8, True)
    if resume:
        lines.append("        return False")
    return lines


#: The width of the generated source's key and signature lines.
WIDTH = 100


def _key(loop: Loop, body: list[str]) -> list[str]:
    """The comment that opens a generated loop (whose code is *body*): what it computes and what
    each name holds (the snippets' own names too, those of the loop's legend that *body* uses)."""
    node = ("b", "state", "budget", *loop.args)
    second: tuple[str, ...] = ("h2",) if any(ch.second for ch in loop.children) else ()
    second += ("h3",) if any(ch.third for ch in loop.children) else ()
    shown = {*node, *loop.names, *loop.fields, "t", "h", *second}
    used = set(re.findall(r"[A-Za-z_]\w*", "\n".join(body)))
    extra = tuple(n for n, _ in loop.legend if n not in shown and n in used)
    width = max(len(n) for n in (*node, *loop.names, *loop.fields, *extra))

    def entries(title: str, names) -> list[str]:
        out = [f"# {title}"]
        for n in names:
            text = textwrap.wrap(loop.meaning(n), WIDTH - width - 6)
            out += [f"#   {n:<{width}}  {text[0]}"] + [f"#   {'':<{width}}  {more}" for more in text[1:]]
        return out

    lists = ", ".join(f"{table}[state]" for table in dict.fromkeys(ch.table for ch in loop.children))
    lines = [
        f"# {loop.name}: {loop.about or 'a bound'}",
        "# Generated by fifteen.search.template; the key is the Loop's legend.",
        "#",
    ]
    lines += [
        "# " + line
        for line in textwrap.wrap(
            "make(tables..., tick) -> (dfs, counter, again, trail).  dfs(b, state, budget, ...) searches below one node:"
            " True when the goal is within budget moves (its path is then in path); counter(reset) reads and restarts the"
            " node count; again(...) resumes a search paused by the tick along its trail (fifteen.search.slices).",
            WIDTH - 2,
        )
    ]
    lines += entries("The node (the arguments of dfs):", node)
    lines += entries("Tables and lists (default arguments of dfs: fast locals):", loop.names)
    lines += entries(f"A successor entry (for ... in {lists}):", loop.fields)
    lines += entries("In the loop:", ("t", "h", *second, *extra))
    return lines + ["#"]


def _wrapped(prefix: str, items: tuple[str, ...], indent: str) -> list[str]:
    """``prefix(item, item, ...):`` on one line, or one line per group of items within :data:`WIDTH`."""
    one = f"{indent}{prefix}({', '.join(items)}):"
    if len(one) <= WIDTH:
        return [one]
    body = textwrap.wrap(", ".join(items) + ",", WIDTH - len(indent) - 4, break_long_words=False, break_on_hyphens=False)
    return [f"{indent}{prefix}("] + [f"{indent}    {line}" for line in body] + [f"{indent}):"]


@cache
def generate(loop: Loop) -> str:
    """The source of ``make(<names>, tick) -> (dfs, counter, again, trail)`` for *loop*, opened by its key."""
    names = loop.names
    args = ", ".join(("b", "state", "budget") + loop.args)
    signature = ("b", "state", "budget") + loop.args + tuple(f"{n}={n}" for n in names) + ("rec=None",)
    lines = [
        *_wrapped("def make", (*names, "tick"), ""),
        "    nodes = next_tick = 0",
        "    trail = []  # a paused search's place: (loop, square) per level, the root's last",
        "",
        "    def counter(reset=None, keep=False):",
        "        nonlocal nodes, next_tick",
        "        if reset is not None:",
        "            next_tick = reset",
        "            if not keep:",
        "                nodes = 0",
        "        return nodes",
        "",
        *_wrapped("def dfs", signature, "    "),
        "        nonlocal nodes, next_tick",
        "        nodes += 1",
        *_node_source(loop, resume=False),
        "",
        *_wrapped("def again", signature, "    "),
        "        # dfs resumed along the trail: the nodes on it were counted before the pause.",
        "        nonlocal nodes",
        "        if not trail:  # the node whose tick paused the search: searched afresh, counted once",
        "            nodes -= 1",
        f"            return rec({args})",
        "        where, square = trail.pop()",
        *_node_source(loop, resume=True),
        "",
        "    dfs.__defaults__ = dfs.__defaults__[:-1] + (dfs,)",
        "    again.__defaults__ = again.__defaults__[:-1] + (dfs,)",
        "    return dfs, counter, again, trail",
    ]
    return "\n".join(_key(loop, lines) + lines) + "\n"


@cache
def _compiled(loop: Loop):
    # Each ``try`` is given the line of the loop it guards: the compiler then drops the no-op it
    # would run per node to mark the ``try`` line (CPython 3.11-3.14), so a ``try`` costs nothing.
    tree = ast.parse(generate(loop))
    for node in ast.walk(tree):
        if isinstance(node, ast.Try):
            node.lineno = node.body[0].lineno
    return compile(tree, f"<fifteen.search.template {loop.name}>", "exec")


class Searcher:
    """A search from one position: ``h0`` (the bound's value there), :meth:`run` and :meth:`resume`.

    Made by :meth:`LoopProgram.searcher`; the contract is :func:`fifteen.search.ida.ida_star`'s.
    """

    __slots__ = ("h0", "_dfs", "_counter", "_again", "_trail", "_tick", "_path", "_blank", "_state", "_args", "_at_goal", "_paused")

    def __init__(self, h0: int, loop, tick: Tick, path: list[int], blank: int, state: int, args: tuple, at_goal: bool):
        self.h0 = h0
        self._dfs, self._counter, self._again, self._trail = loop
        self._tick, self._path = tick, path
        self._blank, self._state, self._args, self._at_goal = blank, state, args, at_goal
        self._paused: tuple[int, list[tuple[int, int]]] | None = None  # (budget, trail) of a paused run

    def run(self, budget: int) -> tuple[list[int] | None, int]:
        """Search for a solution of at most *budget* moves: ``(path, nodes)``, *path* the blank's
        squares in reverse order (``None`` when there is none) and *nodes* those expanded.  When
        the tick raises :class:`fifteen.search.slices.Pause` the search is paused: :meth:`resume`
        continues it."""
        counter = self._counter
        counter(self._tick(0))
        self._path.clear()
        self._paused = None
        ensure_recursion(budget)
        if self._at_goal:
            return [], counter()
        return self._search(budget, self._dfs)

    @property
    def nodes(self) -> int:
        """The nodes of the last run so far (also after it raised)."""
        return self._counter()

    @property
    def paused(self) -> bool:
        """True when the last :meth:`run` or :meth:`resume` was paused by the tick."""
        return self._paused is not None

    def resume(self) -> tuple[list[int] | None, int]:
        """Continue the paused run: the same nodes, counted once, and the same result as a run
        that was never paused (it may pause again)."""
        if self._paused is None:
            raise RuntimeError("resume: the search is not paused")
        budget, trail = self._paused
        self._paused = None
        self._trail[:] = trail  # the deepest frame's first: the root's is popped first
        counter = self._counter
        counter(counter() + 1, keep=True)  # the next tick at the next node: a pause comes at once if due
        ensure_recursion(budget)
        return self._search(budget, self._again)

    def _search(self, budget: int, dfs) -> tuple[list[int] | None, int]:
        try:
            found = dfs(self._blank, self._state, budget, *self._args)
        except Pause as paused:
            self._paused = (budget, paused.trail)
            raise
        return (list(self._path) if found else None), self._counter()


def _note(loop: int, square: int) -> None:
    """In a generated loop's ``except Pause``: the node was searching its child *square* in its
    loop number *loop* (a global of the loop, so that ``dfs`` has no local more)."""
    paused = sys.exc_info()[1]
    assert isinstance(paused, Pause)
    paused.trail.append((loop, square))


def _holds(entries: Sequence[tuple], field: int, square: int) -> bool:
    """In a generated loop's ``except Pause``: whether a successor list's *entries* move the blank
    to *square* (their field *field*).  A global of the loop: a comprehension there would make
    ``s`` a cell variable of ``dfs``, slower on every node."""
    return any(e[field] == square for e in entries)


def _check_disjoint(loop: Loop, static: dict[str, Any]) -> None:
    """The successor lists of *loop* never hold the same square in one state (a pause out of a
    child's search is put back by the list that holds its square)."""
    if len(loop.children) < 2:
        return
    lists = [(static[ch.table], ch.fields.index("s")) for ch in loop.children]
    for state in range(len(lists[0][0])):
        squares = [e[k] for table, k in lists for e in table[state]]
        if len(squares) != len(set(squares)):
            raise ValueError(f"{loop.name}: the successor lists share a square in state {state}")


class LoopProgram:
    """A :class:`Loop` compiled with its board-independent tables (*static*, by name)."""

    def __init__(self, loop: Loop, static: dict[str, Any]):
        self.loop = loop
        self.static = static
        _check_disjoint(loop, static)
        namespace: dict[str, Any] = {"Pause": Pause, "note": _note, "holds": _holds}
        exec(_compiled(loop), namespace)
        self._make = namespace["make"]

    @property
    def source(self) -> str:
        return generate(self.loop)

    def searcher(
        self,
        board: Sequence[int],
        tick: Tick,
        tables: MoveTables,
        state: int | None,
        h0: int,
        args: tuple,
        values: dict[str, Any],
        goal: Sequence[int] | None = None,
    ) -> Searcher:
        """A :class:`Searcher` from *board* (the position) towards *goal* (default: the standard
        goal) starting in automaton *state* (default: the start state of the blank's square),
        with the state arguments *args* and the per-position lists *values* (``board`` among
        them when the loop's board is not a plain copy of the position: the loop moves tiles in
        its own list, never in *board*)."""
        blank = list(board).index(0)
        if state is None:
            state = tables.start_states[blank]
        at_goal = tuple(board) == tuple(tables.shape.goal() if goal is None else goal)
        return self.bare(board, tick, blank, state, h0, args, values, at_goal)

    def bare(
        self, board: Sequence[int], tick: Tick, blank: int, state: int, h0: int, args: tuple, values: dict[str, Any], at_goal: bool
    ) -> Searcher:
        """A :class:`Searcher` of *board* (a copy is the loop's own; ``board`` in *values*
        instead, when it is not a plain copy), its blank on *blank*, in automaton *state*, with the
        state arguments *args* and the per-position lists *values*; *at_goal*: *board* is the
        goal (the search then expands nothing).  :meth:`searcher` is this for the package's
        move tables; a search with tables of its own (the anytime windows) calls it directly."""
        path: list[int] = []
        names = dict(self.static, path=path, **values)
        names.setdefault("board", list(board))  # the loop's own copy, moved in and restored
        missing = set(self.loop.names) - set(names)
        if missing:
            raise TypeError(f"{self.loop.name}: no value for {sorted(missing)}")
        loop = self._make(tick=tick, **{n: names[n] for n in self.loop.names})
        return Searcher(h0, loop, tick, path, blank, state, args, at_goal)


__all__ = ["SKELETON_LEGEND", "Children", "Loop", "LoopProgram", "Searcher", "Tick", "ensure_recursion", "generate"]
