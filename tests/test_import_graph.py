"""The package's imports: layers (each package imports only from its own layer and the layers
below, drawn once in docs/architecture.md), no cycle among its packages or its modules, and no
import hidden in a function but those a start-up needs (the browser worker's, the command line's) or that are not always there
(lzma, dask), each saying why.

Read from the sources (ast), not by importing them: an edge is a module-level ``import`` or
``from ... import`` of a module of the package (``from fifteen.bounds import databases`` is an edge
to ``fifteen.bounds.databases``; ``from fifteen.bounds import resolve_bound`` one to ``fifteen.bounds``).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = Path(__file__).resolve().parents[1] / "py" / "fifteen"

#: The imports made inside a function, by (module, imported module): each one's line, or the
#: line above it, says why in a comment.
DEFERRED = {
    # fifteen.api is what the browser's worker imports at start-up: the heuristic lab, the hints
    # and the page's pool of workers are imported at their first call (bench/pyodide_imports.mjs)
    ("fifteen.api", "fifteen.lab.compare"),
    ("fifteen.api", "fifteen.lab.explain"),
    ("fifteen.api", "fifteen.lab.hint"),
    ("fifteen.api", "fifteen.parallel.page_pool"),
    ("fifteen.api", "fifteen.parallel.anytime_page"),
    # and the anytime search at the first anytime solve
    ("fifteen.api", "fifteen.anytime"),
    # every command of the command line would start ~35 ms later with the native process pool,
    # ~10 ms later with the JSON API (used by explore and hint)
    ("fifteen.cli", "fifteen.api"),
    ("fifteen.cli", "fifteen.parallel.processes"),
    ("fifteen.cli", "fifteen.batch"),
    # likewise the anytime search (and its process pool), imported by the anytime solves only
    ("fifteen.cli.anytime", "fifteen.anytime"),
    ("fifteen.cli.anytime", "fifteen.parallel.anytime_processes"),
    # `fifteen db`: the downloader (urllib) for fetch and status only, the database builder (numpy
    # and numba, the `build` extra) for build only
    ("fifteen.cli.assets", "fifteen.cli.download"),
    ("fifteen.cli.assets", "dbbuild"),
    ("fifteen.cli.assets", "dbbuild.cli"),
    # Pyodide's standard library has no lzma (the worker decompresses xz itself)
    ("fifteen.db.container", "lzma"),
    # an optional dependency (pip install 'fifteen[cluster]')
    ("fifteen.batch", "dask.distributed"),
}


def module_files() -> dict[str, Path]:
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


MODULES = module_files()

#: The package's layers, bottom first: a module imports (at module level) only modules of its own
#: layer or of the layers below.  A "package" is a subpackage of ``fifteen`` or one of its
#: top-level modules; ``fifteen`` itself is the package's ``__init__`` (its public names).
LAYERS: list[tuple[str, list[str]]] = [
    ("core", ["fifteen.errors", "fifteen.limits", "fifteen.board", "fifteen.frame", "fifteen.machine", "fifteen.version"]),
    ("formats", ["fifteen.db"]),
    ("search", ["fifteen.search"]),
    ("bounds", ["fifteen.bounds"]),
    ("solving", ["fifteen.optimal"]),
    ("answers", ["fifteen.lab", "fifteen.anytime"]),
    ("cores", ["fifteen.parallel"]),
    ("batches", ["fifteen.batch"]),
    ("doors", ["fifteen", "fifteen.schema", "fifteen.api", "fifteen.cli", "fifteen.__main__"]),
]


def package_of(module: str) -> str:
    """``fifteen.bounds.pdb`` -> ``fifteen.bounds``; ``fifteen.board`` -> itself; ``fifteen`` -> itself."""
    return ".".join(module.split(".")[:2])


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


def _walk_for_cycles(graph: dict[str, set[str]]) -> None:
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


def package_graph() -> dict[str, set[str]]:
    """Every package's imports of the other packages (module level)."""
    graph: dict[str, set[str]] = {}
    for name, path in MODULES.items():
        edges = graph.setdefault(package_of(name), set())
        edges.update(package_of(t) for t in imports(path)[0] if package_of(t) != package_of(name))
    return graph


def test_every_package_has_a_layer_and_imports_only_from_its_own_or_lower_ones():
    layer = {pkg: i for i, (_, pkgs) in enumerate(LAYERS) for pkg in pkgs}
    graph = package_graph()
    assert set(graph) == set(layer), "every package in exactly one layer (LAYERS), every layer's package exists"
    assert "fifteen.search" in graph["fifteen.bounds"] and "fifteen.bounds" in graph["fifteen.optimal"]  # the edges are read
    upward = [f"{a} -> {b}" for a, targets in graph.items() for b in targets if layer[b] > layer[a]]
    assert not upward, f"imports of a higher layer: {upward}"


def test_the_packages_import_each_other_without_a_cycle():
    _walk_for_cycles(package_graph())


def test_the_architecture_page_draws_the_layers_and_each_package_once():
    """docs/architecture.md's table of the package: one row per layer, bottom first, naming its
    packages (once each, in backquotes) and every module of each."""
    text = (ROOT / "docs/architecture.md").read_text()
    table = text[text.index("| layer | package |") :].split("\n\n")[0].splitlines()[2:]
    rows = [[cell.strip() for cell in row.strip("|").split("|")] for row in table]
    assert [row[0] for row in rows] == [name for name, _ in LAYERS]
    for row, (name, pkgs) in zip(rows, LAYERS, strict=True):
        assert re.findall(r"`([\w.]+)`", row[1]) == pkgs, name
        listed = set(re.findall(r"`([\w]+\.py)`", row[2]))
        files = {p.name for m, p in MODULES.items() if package_of(m) in pkgs}
        assert files - {"__init__.py"} <= listed <= files, f"{name}: the modules listed are not the layer's"


def test_module_names_say_what_they_hold_once():
    """No two modules of the package share a base name (``__init__.py`` aside)."""
    names = [p.name for p in MODULES.values() if p.name != "__init__.py"]
    assert sorted(n for n in set(names) if names.count(n) > 1) == []


def test_the_modules_import_each_other_without_a_cycle():
    graph = {name: imports(path)[0] for name, path in MODULES.items()}
    assert graph["fifteen.bounds.databases"] >= {"fifteen.bounds.walking", "fifteen.bounds.exact"}  # the edges are read
    _walk_for_cycles(graph)


def test_no_format_knows_the_registry_of_loaded_databases():
    """The registry imports the formats it loads (its map of kinds to loaders); they never import it."""
    for name in ("fifteen.bounds.walking", "fifteen.bounds.pdb", "fifteen.bounds.pdb78", "fifteen.bounds.exact", "fifteen.db.container"):
        assert "fifteen.bounds.databases" not in imports(MODULES[name])[0], name


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


# ----------------------------------------------------------------- the page's modules (static/js)
JS = ROOT / "static" / "js"
#: The page's folders, bottom first: a module imports only from its own folder or a lower one
#: (docs/architecture.md, "The page"); the worker shares only the protocol and the model with the page.
#: "." is static/js itself: the public modules other pages import.
JS_LAYERS = ["model", "solver", "view", "worker", "input", ".", "control"]
#: What the worker may import from outside worker/ (it runs in another global scope).
WORKER_SHARES = {"solver/protocol.js", "model/digest.js", "model/board.js"}


def js_folder(name: str) -> str:
    """The folder of a page module (its path under static/js): ``model``, ..., or ``.``."""
    return name.split("/")[0] if "/" in name else "."


def js_imports() -> dict[str, set[str]]:
    """Every page module (path under static/js) and the page modules it imports (static imports)."""
    spec = re.compile(r"""(?:^|\n)\s*(?:import|export)[^;]*?from\s*["'](\.{1,2}/[^"']+)["']""")
    out: dict[str, set[str]] = {}
    for path in sorted(JS.rglob("*.js")):
        name = str(path.relative_to(JS))
        targets = {str((path.parent / t).resolve().relative_to(JS.resolve())) for t in spec.findall(path.read_text())}
        out[name] = {t for t in targets if not t.startswith("..")}
    return out


def test_the_page_modules_import_only_from_their_folder_or_lower_ones():
    graph = js_imports()
    assert "model/board.js" in graph["solver/protocol.js"]  # the edges are read
    rank = {folder: i for i, folder in enumerate(JS_LAYERS)}
    assert {js_folder(name) for name in graph} <= set(JS_LAYERS), "every module in a folder of JS_LAYERS"
    upward = [f"{a} -> {b}" for a, targets in graph.items() for b in targets if rank[js_folder(b)] > rank[js_folder(a)]]
    assert not upward, upward
    worker = {b for a, targets in graph.items() if a.startswith("worker/") for b in targets if not b.startswith("worker/")}
    assert worker <= WORKER_SHARES, worker
    assert not [a for a, targets in graph.items() if not a.startswith("worker/") for b in targets if b.startswith("worker/")]


def test_the_page_modules_import_each_other_without_a_cycle():
    _walk_for_cycles(js_imports())


def test_page_module_names_say_what_they_hold_once():
    names = [p.name for p in JS.rglob("*.js")]
    assert sorted(n for n in set(names) if names.count(n) > 1) == []
