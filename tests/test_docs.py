"""The documentation cannot go stale: every example of the README and of ``docs/*.md`` runs as
shown, every relative link of the README, ``docs/*.md`` and ``bench/*.md`` resolves (its file,
and its ``#anchor`` to a heading); the package's docstring examples run, their cross-references
resolve, nothing points outside the repository, and no document reads as a diary.

Blocks: ```python blocks are doctests (in ``docs/*.md`` a block without ``>>>`` is executed, in
the document's one namespace); ```console blocks are ``$ command`` lines, each followed by its
exact output (stdout and stderr, as a terminal shows them); ```sh blocks are set-up, long and
benchmark commands, not run here: their make targets and scripts must exist (and the scripts
answer ``--help``).  Outputs are compared exactly, except for times and rates (a number before
`` s`` or ``nodes/s``, and the ``"seconds"`` / ``"nodes_per_second"`` fields) and an explicit
``...``.  The examples describe a checkout after ``make assets``: they run against its databases
without any optional pack (``FIFTEEN_DB``).
"""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import inspect
import os
import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import pytest

import fifteen
from fifteen import Board, solve
from fifteen.bounds import databases
from instances import korf100

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.M | re.S)
#: The documents of docs/ (by topic; docs/reference/ holds the cited sources, not ours).
DOCS = sorted((ROOT / "docs").glob("*.md"))
#: The measurements and their methods.
BENCH_DOCS = sorted((ROOT / "bench").glob("*.md"))
#: Every document of the project's own: what the link and diary checks read.
OWN_DOCS = [ROOT / "README.md", ROOT / "CHANGELOG.md", *DOCS, *BENCH_DOCS]

# Numbers that are times or rates: compared loosely (any number in their place).
_NUMBER = r"[0-9][0-9,]*(?:\.[0-9]+)?"
_TIME_KEYS = ("seconds", "setup_seconds", "cpu_seconds", "nodes_per_second")
_TIMING = re.compile(rf"{_NUMBER}(?= s\b)|{_NUMBER}(?= nodes/s)|" + "|".join(rf"(?<=\"{key}\": ){_NUMBER}" for key in _TIME_KEYS))


def blocks(lang: str, text: str = README) -> list[str]:
    return [body for kind, body in FENCE.findall(text) if kind == lang]


def matches(want: str, got: str) -> bool:
    """*got* is *want*, but for times/rates (any number) and ``...`` (anything)."""
    pattern = []
    pos = 0
    for m in re.finditer(rf"\.\.\.|{_TIMING.pattern}", want):
        pattern.append(re.escape(want[pos : m.start()]))
        pattern.append(".*?" if m.group() == "..." else _NUMBER)
        pos = m.end()
    pattern.append(re.escape(want[pos:]))
    return re.fullmatch("".join(pattern), got, re.S) is not None


def test_matching_is_tolerant_only_for_times_and_rates():
    assert matches("time: 0.36 s  (1,355,160 nodes/s)", "time: 2.030 s  (82,907 nodes/s)")
    assert matches('"seconds": 0.539, "nodes": 1', '"seconds": 12, "nodes": 1')
    assert not matches("total nodes: 481,479  time: 0.36 s", "total nodes: 168,325  time: 0.36 s")
    assert not matches("LB=48", "LB=40")
    assert matches("a ... z", "a b c z") and not matches("a z", "a b z")


@pytest.fixture
def readme_databases(fresh_assets, databases_without_pack, monkeypatch):
    monkeypatch.setenv("FIFTEEN_DB", str(databases_without_pack))
    return databases_without_pack


# ----------------------------------------------------------------- ```python: doctests
class _TolerantChecker(doctest.OutputChecker):
    def check_output(self, want: str, got: str, optionflags: int) -> bool:
        return super().check_output(want, got, optionflags) or matches(want, got)


def run_doctests(text: str, name: str, globs: dict | None = None) -> doctest.TestResults:
    test = doctest.DocTestParser().get_doctest(text, globs or {}, name, str(ROOT / "README.md"), 0)
    runner = doctest.DocTestRunner(checker=_TolerantChecker(), optionflags=doctest.ELLIPSIS)
    runner.run(test)
    return runner.summarize(verbose=False)


def test_readme_python_examples(readme_databases):
    python = blocks("python")
    assert python, "the README has no ```python example"
    for i, body in enumerate(python):
        assert ">>> " in body, f"```python block {i} is not a doctest"
        result = run_doctests(body, f"README python block {i}")
        assert result.failed == 0 and result.attempted > 0


def test_package_docstring_examples(readme_databases):
    """Every example in the package's docstrings runs as shown (the package's own, on its first page, included)."""
    runner = doctest.DocTestRunner(checker=_TolerantChecker(), optionflags=doctest.ELLIPSIS)
    ran = set()
    for module in package_modules("fifteen"):
        for test in doctest.DocTestFinder().find(module):
            if test.examples:
                ran.add(test.name)
            runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0 and result.attempted > 0
    assert {"fifteen", "fifteen.search.estimate", "fifteen.anytime.driver.anytime_solve"} <= ran, ran


#: Constants the documents quote, each with its value in the code: (document, the words quoting it, value).
QUOTED_CONSTANTS = [
    ("docs/web-app.md", "A link of more than {} characters is refused", "static/js/model/share.js:MAX_LINK_CHARS"),
    (
        "docs/web-app.md",
        "a link of more than {} characters\nof position (or {} moves)",
        "static/js/model/share.js:MAX_LINK_CHARS,MAX_LINK_MOVES",
    ),
    ("docs/cli.md", "the next {} run the same beams with\nevery one ranked by noisy costs", "py:fifteen.anytime.driver.NOISY_IMPROVERS"),
    ("docs/web-app.md", "the next {}\n(workers 4 and 5) run beams", "py:fifteen.anytime.driver.NOISY_IMPROVERS"),
    ("docs/web-app.md", "the next {}\n(workers 4 and 5) run beams", "static/js/solver/anytime-solve.js:NOISY_IMPROVERS"),
    ("docs/api.md", "JSON parameters\nat most {} KiB (4 MiB", "py:fifteen.limits.MAX_PARAMS_CHARS/1024"),
    ("docs/api.md", "({} MiB for the page pool's", "py:fifteen.limits.MAX_POOL_PARAMS_CHARS/1048576"),
    ("docs/api.md", "a position's text at most {} characters, a tile at most {} digits", "py:fifteen.limits.MAX_TEXT_CHARS,MAX_TILE_CHARS"),
]


def _code_value(where: str) -> list[str]:
    if where.startswith("py:"):
        out = []
        module, _, names = where[3:].rpartition(".")
        first, *rest = names.split(",")
        for name in [first, *rest]:
            name, _, div = name.partition("/")
            value = getattr(importlib.import_module(module), name)
            out.append(f"{value // int(div) if div else value:,}")
        return out
    path, _, names = where.partition(":")
    text = (ROOT / path).read_text()
    values = []
    for name in names.split(","):
        m = re.search(rf"export const {name} = ([\d_]+);", text)
        assert m, f"{path}: no {name}"
        values.append(f"{int(m.group(1).replace('_', '')):,}")
    return values


@pytest.mark.parametrize("doc, words, where", QUOTED_CONSTANTS, ids=[w for _, _, w in QUOTED_CONSTANTS])
def test_the_constants_the_documents_quote_are_those_of_the_code(doc, words, where):
    text = re.sub(r"[ \t]+", " ", (ROOT / doc).read_text())
    expected = words.format(*_code_value(where))
    assert expected in text, f"{doc} should say: {expected!r}"


# ----------------------------------------------------------------- ```console: commands and outputs
def console_examples(text: str = README) -> list[tuple[str, str]]:
    out = []
    for body in blocks("console", text):
        for chunk in re.split(r"^\$ ", body, flags=re.M)[1:]:
            command, _, output = chunk.partition("\n")
            out.append((command, output.rstrip("\n")))
    return out


@pytest.mark.parametrize("command, output", console_examples(), ids=[c[:60] for c, _ in console_examples()])
def test_readme_console_examples(command, output, readme_databases):
    # python3 is this interpreter (the venv's); merged output in the order a terminal shows it
    env = dict(os.environ, PYTHONUNBUFFERED="1", PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    run = subprocess.run(["bash", "-c", command], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert run.returncode == 0, run.stdout
    assert matches(output, run.stdout.rstrip("\n")), f"$ {command}\n--- README\n{output}\n--- got\n{run.stdout}"


def test_readme_has_console_examples():
    assert len(console_examples()) >= 3


# ----------------------------------------------------------------- ```sh: targets and scripts exist
def test_sh_commands_exist():
    """The ```sh blocks of the README and of docs/*.md name make targets that exist and scripts
    that answer ``--help`` (each script run once)."""
    targets = set(re.findall(r"^([\w-]+):", (ROOT / "Makefile").read_text(), re.M))
    seen_targets, scripts = set(), set()
    for doc in [ROOT / "README.md", *DOCS]:
        for body in blocks("sh", doc.read_text()):
            for line in body.splitlines():
                command = line.split("#")[0].strip()
                for target in re.findall(r"^make ([\w-]+)", command):
                    assert target in targets, f"{doc.name}: {line}"
                    seen_targets.add(target)
                for script in re.findall(r"python3? (\S+\.py)", command):
                    assert (ROOT / script).is_file(), f"{doc.name}: {line}"
                    scripts.add(script)
    for script in sorted(scripts):
        env = dict(os.environ, PYTHONPATH=str(ROOT / "py"))
        run = subprocess.run([sys.executable, script, "--help"], cwd=ROOT, env=env, capture_output=True, text=True)
        assert run.returncode == 0, (script, run.stderr)
    assert {"serve", "test", "dist", "unit", "e2e", "mutants"} <= seen_targets


def check_links_paths_and_names(text: str, folder: Path) -> int:
    """Relative links (from *folder*), the repository paths and the Python names (``fifteen.x.y``)
    *text* names in backquotes exist; returns how many names were checked."""
    for link in re.findall(r"\]\(((?!https?:)[^)#]+)\)", text):
        assert (folder / link).exists(), link
    for path in re.findall(r"`((?:py|bench|tests|tools|docs|static/js|static/css|static/data)/[\w./-]*)`", text):
        assert (ROOT / path).exists(), path
    names = re.findall(r"`(fifteen(?:\.\w+)+)", text)
    for name in names:
        assert _resolves(name, fifteen), name
    return len(names)


def test_readme_links_paths_and_names_exist():
    """The README's paths and names exist (those of docs/*.md: with their examples, below)."""
    assert check_links_paths_and_names(README, ROOT) >= 2
    assert sum(check_links_paths_and_names(doc.read_text(), doc.parent) for doc in DOCS) >= 40


# ----------------------------------------------------------------- links and anchors
_CODE = re.compile(r"^```.*?^```$|`[^`\n]*`", re.M | re.S)
_LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: its text without markup, lower case, punctuation dropped,
    spaces as hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link: its text
    text = re.sub(r"[`*]|\\", "", text).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """The anchors of a Markdown file's headings (a repeated one gets -1, -2, ... as on GitHub)."""
    seen: dict[str, int] = {}
    out = set()
    text = re.sub(r"^```.*?^```$", "", path.read_text(), flags=re.M | re.S)
    for heading in re.findall(r"^#{1,6} +(.+?) *#*$", text, re.M):
        base = slug(heading)
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.add(base if n == 0 else f"{base}-{n}")
    return out


def relative_links(path: Path) -> list[tuple[Path, str]]:
    """The (target file, anchor) of every relative link of a Markdown file, code left out."""
    out = []
    for link in _LINK.findall(_CODE.sub("", path.read_text())):
        if re.match(r"[a-z]+:", link):  # https:, mailto:
            continue
        target, _, fragment = link.partition("#")
        out.append(((path.parent / target).resolve() if target else path, fragment))
    return out


def test_slugs_are_githubs():
    assert slug("Hosting it (`make dist`)") == "hosting-it-make-dist"
    assert slug("Parallel IDA\\* and batches: 1 vs 2") == "parallel-ida-and-batches-1-vs-2"
    assert slug("The lab on the page") == "the-lab-on-the-page"
    assert slug("[docs](docs/x.md) by topic") == "docs-by-topic"


@pytest.mark.parametrize("doc", OWN_DOCS, ids=[str(d.relative_to(ROOT)) for d in OWN_DOCS])
def test_links_and_anchors_resolve(doc):
    """Every relative link names a file of the repository, and its #anchor a heading there."""
    links = relative_links(doc)
    for target, fragment in links:
        assert target.exists(), f"{doc.relative_to(ROOT)}: no {target}"
        assert ROOT in target.parents or target == ROOT, f"{doc.relative_to(ROOT)}: {target} is outside the repository"
        if fragment:
            assert target.suffix == ".md", f"{doc.relative_to(ROOT)}: #{fragment} in {target.name}"
            assert fragment in anchors(target), f"{doc.relative_to(ROOT)}: no heading #{fragment} in {target.name}"
    assert doc != ROOT / "README.md" or len(links) >= 10


def test_readme_links_every_document():
    linked = {target for target, _ in relative_links(ROOT / "README.md")}
    for doc in [ROOT / "CHANGELOG.md", *DOCS, ROOT / "bench" / "README.md", ROOT / "bench" / "startup.md"]:
        assert doc in linked, f"the README does not link {doc.relative_to(ROOT)}"


def test_bad_links_are_caught(tmp_path):
    (tmp_path / "a.md").write_text("# A title\n\n[ok](#a-title) [bad](#nowhere) [gone](b.md) `[not](c.md)`\n")
    links = relative_links(tmp_path / "a.md")
    assert [(t.name, f) for t, f in links] == [("a.md", "a-title"), ("a.md", "nowhere"), ("b.md", "")]
    assert anchors(tmp_path / "a.md") == {"a-title"}


# ----------------------------------------------------------------- not a diary
#: Words of a diary, not of a document about the project (whoever worked on it, whenever).
DIARY = re.compile(r"\bsessions?\b|\btoday\b|\bthis build\b(?!'s)|\btried (?:in|this)\b|\bnext time\b|\bwe tried\b", re.I)


@pytest.mark.parametrize("doc", OWN_DOCS, ids=[str(d.relative_to(ROOT)) for d in OWN_DOCS])
def test_no_diary_words(doc):
    """The documents speak of the project as it is, never of sessions or of when it was written."""
    for n, line in enumerate(doc.read_text().splitlines(), 1):
        m = DIARY.search(line)
        assert m is None, f"{doc.relative_to(ROOT)}:{n}: {m.group()!r}: {line.strip()}"


def test_diary_words_are_caught():
    for line in ("Later sessions: faster", "Tried in this session", "measured today", "This build adds", "we tried"):
        assert DIARY.search(line), line
    for line in ("this build's copy", "a whole run of the protocol", "30 s later"):
        assert not DIARY.search(line), line


# ----------------------------------------------------------------- docs/*.md
@pytest.mark.parametrize("doc", DOCS, ids=[d.name for d in DOCS])
def test_docs_examples_run_and_links_resolve(doc, readme_databases):
    """A document's ```python blocks run in order in one namespace (a block with ``>>>`` is a
    doctest, any other is executed), its ```console examples print what they show, and its
    links, paths and names exist."""
    text = doc.read_text()
    namespace: dict = {}
    for i, body in enumerate(blocks("python", text)):
        if ">>> " in body:
            result = run_doctests(body, f"{doc.name} python block {i}", dict(namespace))
            assert result.failed == 0 and result.attempted > 0
        else:
            exec(compile(body, f"{doc.name} python block {i}", "exec"), namespace)
    for command, output in console_examples(text):
        test_readme_console_examples(command, output, readme_databases)
    check_links_paths_and_names(text, doc.parent)


def test_the_testing_page_lists_every_test_file():
    """docs/testing.md's tables name every test file (Python, browser and JavaScript), and only those."""
    text = (ROOT / "docs" / "testing.md").read_text()
    listed = set(re.findall(r"^\| `(tests/[\w/.-]+)` \|", text, flags=re.M))
    files = {
        str(p.relative_to(ROOT))
        for pattern in ("tests/test_*.py", "tests/e2e/test_*.py", "tests/js/*.test.mjs")
        for p in ROOT.glob(pattern)
    }
    assert listed == files


def test_docs_has_the_architecture():
    assert (ROOT / "docs" / "architecture.md") in DOCS


# ----------------------------------------------------------------- docstrings
def package_modules(package: str) -> list:
    """*package* and every module in it, subpackages' too (not ``__main__``)."""
    pkg = importlib.import_module(package)
    names = [package] + [m.name for m in pkgutil.walk_packages(pkg.__path__, f"{package}.") if not m.name.endswith(".__main__")]
    return [importlib.import_module(n) for n in names]


_ROLE = re.compile(r":(?:func|class|mod|data|meth|attr|exc):`~?([\w.]+)`")


def _resolves(target: str, module) -> bool:
    for candidate in (f"{module.__name__}.{target}", target, f"fifteen.{target}", f"dbbuild.{target}", f"builtins.{target}"):
        parts = candidate.split(".")
        if parts[-1] == "__main__":  # a program: found, not run
            try:
                if importlib.util.find_spec(candidate) is not None:
                    return True
            except ImportError:
                pass
            continue
        for i in range(len(parts), 0, -1):
            try:
                obj = importlib.import_module(".".join(parts[:i]))
            except ImportError:
                continue
            for attr in parts[i:]:
                obj = getattr(obj, attr, None)
                if obj is None:
                    break
            else:
                return True
            break
    # a method or attribute of a class of the module (``:meth:`value``` in PatternDatabase's
    # docstring), or an instance attribute (``PDB78.data``)
    owner, _, attr = target.rpartition(".")
    classes = [getattr(module, owner, None)] if owner else list(vars(module).values())
    return any(
        inspect.isclass(c) and c.__module__ == module.__name__ and (hasattr(c, attr) or f"self.{attr} =" in inspect.getsource(c))
        for c in classes
    )


@pytest.mark.parametrize("package", ["fifteen", "dbbuild"])
def test_docstring_references_resolve(package):
    """Every :func:/:class:/:mod:... reference in the source names something that exists."""
    names = [m.__name__ for m in package_modules(package)]
    assert package != "fifteen" or {"fifteen.bounds.walking", "fifteen.search.template", "fifteen.cli.guard"} <= set(names)
    seen = 0
    for module in package_modules(package):
        for target in _ROLE.findall(inspect.getsource(module)):
            assert _resolves(target, module), f"{module.__name__}: {target} does not exist"
            seen += 1
    assert seen > 10


def test_nothing_points_outside_the_repository():
    """The project stands alone: what it cites is in the repository (docs/reference/, data/)."""
    outside = re.compile(r"\.\./shared|(?<![\w/])reference/[\w-]+\.md|(?<![\w/])(?:performance-notes|strong-bounds|seed-summary)\.md")
    files = [ROOT / "README.md", ROOT / "Makefile", ROOT / "build_db.py"]
    for folder in ("py", "bench", "tools", "tests", "docs", "static/js"):
        files += [f for f in (ROOT / folder).rglob("*") if f.suffix in (".py", ".md", ".js", ".mjs")]
    for f in files:
        for n, line in enumerate(f.read_text(errors="replace").splitlines(), 1):
            for m in outside.finditer(line):
                start = m.start()
                if line[max(0, start - 15) : start].endswith("docs/reference/") or f.parent.name == "reference":
                    continue
                pytest.fail(f"{f.relative_to(ROOT)}:{n}: points outside the repository: {line.strip()}")


def test_the_readme_is_a_users():
    """A user's README: at most ~300 lines, its reference by topic in docs/, its measurements in
    bench/, its history in CHANGELOG.md."""
    assert len(README.splitlines()) <= 300
    assert len(blocks("console")) <= 4 and len(re.findall(r"^## ", README, re.M)) <= 14


def test_the_seed_is_defined_once():
    assert README.count("**The seed.**") == 1
    assert "http://www.ic-net.or.jp/home/takaken/nt/slide/solve15.html" in README
    assert fifteen.__doc__ and databases.__doc__


def test_readme_node_counts_of_the_browser_table(readme_databases):
    """The solve-time table's node counts (7-7-1 PDB + reflection) are today's."""
    rows = re.findall(r"^\| Korf #(\d+) \((\d+)\) \| ([\d,]+) \|", README, re.M)
    assert len(rows) >= 5
    korf = {k.id: k for k in korf100()}
    for ident, optimal, nodes in rows:
        sol = solve(Board.from_tiles(korf[ident].tiles), "pdb771")
        assert (sol.length, sol.result.nodes) == (int(optimal), int(nodes.replace(",", ""))), f"Korf #{ident}"
