"""The package's imports: no cycle among its modules, and no import hidden in a function but
those a start-up needs (the browser worker's, the command line's) or that are not always there
(lzma, dask), each saying why.

Read from the sources (ast), not by importing them: an edge is a module-level ``import`` or
``from ... import`` of a module of the package (``from fifteen.db import registry`` is an edge
to ``fifteen.db.registry``; ``from fifteen.bounds import resolve_bound`` one to ``fifteen.bounds``).
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "py" / "fifteen"

#: The imports made inside a function, by (module, imported module): each one's line, or the
#: line above it, says why in a comment.
DEFERRED = {
    # fifteen.api is what the browser's worker imports at start-up: the heuristic lab, the hints
    # and the page's pool of workers are imported at their first call (bench/pyodide_imports.mjs)
    ("fifteen.api", "fifteen.lab.compare"),
    ("fifteen.api", "fifteen.lab.explain"),
    ("fifteen.api", "fifteen.lab.hint"),
    ("fifteen.api", "fifteen.parallel.browser"),
    ("fifteen.api", "fifteen.anytime.browser"),
    # and the anytime search at the first anytime solve
    ("fifteen.api", "fifteen.anytime"),
    # every command of the command line would start ~35 ms later with the native process pool,
    # ~10 ms later with the JSON API (used by explore and hint)
    ("fifteen.cli", "fifteen.api"),
    ("fifteen.cli", "fifteen.parallel.processes"),
    ("fifteen.cli", "fifteen.parallel.batch"),
    # likewise the anytime search (and its process pool), imported by the anytime solves only
    ("fifteen.cli.anytime", "fifteen.anytime"),
    ("fifteen.cli.anytime", "fifteen.anytime.parallel"),
    # Pyodide's standard library has no lzma (the worker decompresses xz itself)
    ("fifteen.db.container", "lzma"),
    # an optional dependency (pip install 'fifteen[cluster]')
    ("fifteen.parallel.batch", "dask.distributed"),
}


def module_files() -> dict[str, Path]:
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


MODULES = module_files()


def _targets(node: ast.Import | ast.ImportFrom) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    assert node.level == 0, "imports inside the package are absolute"
    base = node.module or ""
    return [f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base for alias in node.names]


def imports(path: Path) -> tuple[set[str], list[tuple[str, int]]]:
    """(the package's modules *path* imports at module level, the imports inside functions)."""
    tree = ast.parse(path.read_text(), str(path))
    top: set[str] = set()
    inner: list[tuple[str, int]] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import | ast.ImportFrom):
                for target in _targets(child):
                    if in_function:
                        inner.append((target, child.lineno))
                    elif target in MODULES:
                        top.add(target)
            visit(child, in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda))

    visit(tree, False)
    return top, inner


def test_the_modules_import_each_other_without_a_cycle():
    graph = {name: imports(path)[0] for name, path in MODULES.items()}
    assert graph["fifteen.db.registry"] >= {"fifteen.bounds.walking", "fifteen.lab.explorer"}  # the edges are read
    done: set[str] = set()
    on_path: list[str] = []

    def walk(name: str) -> None:
        if name in on_path:
            cycle = on_path[on_path.index(name) :] + [name]
            raise AssertionError("import cycle: " + " -> ".join(cycle))
        if name in done:
            return
        on_path.append(name)
        for target in sorted(graph[name]):
            walk(target)
        on_path.pop()
        done.add(name)

    for name in sorted(graph):
        walk(name)


def test_no_format_knows_the_registry_of_loaded_databases():
    """The registry imports the formats it loads (its map of kinds to loaders); they never import it."""
    for name in ("fifteen.bounds.walking", "fifteen.bounds.pdb", "fifteen.bounds.pdb78", "fifteen.lab.explorer", "fifteen.db.container"):
        assert "fifteen.db.registry" not in imports(MODULES[name])[0], name


def test_imports_inside_functions_are_the_deferred_ones_and_say_why():
    found = set()
    for name, path in MODULES.items():
        lines = path.read_text().splitlines()
        for target, lineno in imports(path)[1]:
            found.add((name, target))
            assert (name, target) in DEFERRED, f"{path.name}:{lineno}: import of {target} inside a function"
            said = "#" in lines[lineno - 1] + lines[lineno - 2]
            assert said, f"{path.name}:{lineno}: say in a comment why {target} is imported here"
    assert found == DEFERRED
