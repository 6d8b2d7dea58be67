"""Write ``bench/data/deepcubea-test.tsv``: DeepCubeA's test positions of the 24-, 35- and
48-puzzle with DeepCubeA's solution length for each, and the optimal length for the 24-puzzle;
and ``bench/data/deepcubea-24-solutions.tsv``: those shortest 24-puzzle solutions themselves.

``python3 bench/data/make_deepcubea.py DIR [--check]`` where DIR is a checkout of
https://github.com/forestagostinelli/DeepCubeA (MIT licence; read at commit
919489f14ecbbc80dc1bf1539ac0a462ffaca7c5).  Needs numpy (the test files are pickles of numpy
arrays; a bench-only dependency).  Read from DIR:

* ``data/puzzleP/test/data_0.pkl``: the test positions (``states``, each a ``tiles`` array,
  row-major, 0 = blank, goal ``1 .. N-1`` then the blank: the package's standard goal).  The
  24-puzzle's file also holds ``solutions``: shortest solutions found by an optimal solver, as
  letters naming the direction a tile slides; each is replayed here to the goal and its length
  recorded as the optimum.
* ``results/puzzleP/output.txt``: DeepCubeA's result per position (``State: i, SolnCost: c``);
  their means are the paper's, 89.42, 124.65 and 255.67.

DeepCubeA's positions are not uniformly random: they were made by random moves away from the
goal, and they are closer to it than uniform ones (the mean Manhattan distance is printed; see
``bench/anytime.md``).
"""

from __future__ import annotations

import pickle
import re
import sys
import types
from pathlib import Path

OUT = Path(__file__).with_name("deepcubea-test.tsv")
SOLUTIONS = Path(__file__).with_name("deepcubea-24-solutions.tsv")
PUZZLES = ((24, 5), (35, 6), (48, 7))
#: The letters of the optimal solutions: the direction the tile slides (row, column change of the blank).
SLIDE = {"U": (1, 0), "D": (-1, 0), "L": (0, 1), "R": (0, -1)}
HEADER = """\
# DeepCubeA's test positions (Agostinelli, McAleer, Shmakov and Baldi, "Solving the Rubik's cube with deep reinforcement
# learning and search", Nature Machine Intelligence 1, 356-363, 2019; github.com/forestagostinelli/DeepCubeA, MIT licence,
# data/puzzleP/test/data_0.pkl and results/puzzleP/output.txt) by bench/data/make_deepcubea.py.
# id\tboard\ttiles (row-major, 0 = blank; goal 1 .. N-1 then the blank)\tDeepCubeA's length\toptimal length (24-puzzle only)
"""
SOLUTIONS_HEADER = """\
# Shortest solutions of DeepCubeA's 24-puzzle test positions (the positions: deepcubea-test.tsv, D5-i), from its
# data/puzzle24/test/data_0.pkl (github.com/forestagostinelli/DeepCubeA, MIT licence) by bench/data/make_deepcubea.py.
# id\tthe solution: a letter per move, the direction the tile slides (U up, D down, L left, R right)
"""


class _State:
    """Stands for DeepCubeA's state class while unpickling (only its ``tiles`` are read)."""

    def __setstate__(self, state):
        slots = state[1] if isinstance(state, tuple) else state
        for key, value in slots.items():
            setattr(self, key, value)


def _load(path: Path) -> dict:
    env = types.ModuleType("environments")
    mod = types.ModuleType("environments.n_puzzle")
    mod.NPuzzleState = _State  # type: ignore[attr-defined]
    sys.modules.setdefault("environments", env)
    sys.modules["environments.n_puzzle"] = mod
    with open(path, "rb") as f:
        return pickle.load(f)


def _replay(tiles: list[int], moves: list[str], side: int) -> bool:
    board = list(tiles)
    b = board.index(0)
    for m in moves:
        dr, dc = SLIDE[m]
        r, c = divmod(b, side)
        r, c = r + dr, c + dc
        if not (0 <= r < side and 0 <= c < side):
            return False
        s = r * side + c
        board[b], board[s] = board[s], 0
        b = s
    return board == list(range(1, side * side)) + [0]


def tables(root: Path) -> tuple[str, str]:
    """The two files' texts: the positions and the 24-puzzle's solutions."""
    lines, solutions = [HEADER], [SOLUTIONS_HEADER]
    for p, side in PUZZLES:
        data = _load(root / "data" / f"puzzle{p}" / "test" / "data_0.pkl")
        text = (root / "results" / f"puzzle{p}" / "output.txt").read_text()
        costs = {int(i): round(float(c)) for i, c in re.findall(r"State: (\d+), SolnCost: ([\d.]+)", text)}
        optima = data.get("solutions")
        md = 0
        for i, state in enumerate(data["states"]):
            tiles = [int(x) for x in state.tiles]
            for sq, t in enumerate(tiles):
                if t:
                    md += abs(sq // side - (t - 1) // side) + abs(sq % side - (t - 1) % side)
            opt = "-"
            if optima is not None:
                if not _replay(tiles, optima[i], side):
                    raise SystemExit(f"puzzle{p} state {i}: the optimal solution does not replay to the goal")
                opt = str(len(optima[i]))
                solutions.append(f"D{side}-{i}\t{''.join(optima[i])}\n")
            lines.append(f"D{side}-{i}\t{side}x{side}\t{' '.join(map(str, tiles))}\t{costs[i]}\t{opt}\n")
        n = len(data["states"])
        print(f"puzzle{p}: {n} positions, DeepCubeA's mean {sum(costs.values()) / len(costs):.2f}, mean Manhattan distance {md / n:.1f}")
    return "".join(lines), "".join(solutions)


def main() -> int:
    args = [a for a in sys.argv[1:] if a != "--check"]
    if len(args) != 1:
        raise SystemExit(__doc__)
    files = dict(zip((OUT, SOLUTIONS), tables(Path(args[0])), strict=True))
    if "--check" in sys.argv[1:]:
        same = True
        for path, text in files.items():
            matches = path.exists() and path.read_text() == text
            same &= matches
            print(f"{path.name}: {'matches' if matches else 'DIFFERS'}")
        return 0 if same else 1
    for path, text in files.items():
        path.write_text(text)
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
