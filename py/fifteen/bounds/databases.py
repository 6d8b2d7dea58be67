"""The database assets the solver uses: one registry, filled on demand.

Every loaded asset lives here: the pattern databases by bound name
(:data:`pattern_databases`), the walking-distance tables by table shape
(:data:`walking_tables`) and the small-board explorer's exact-distance tables by
the shape they were built for (:data:`explorer_tables`).  :func:`reset` forgets
them all (for tests).

**Kinds of file.**  Each asset is a container (:mod:`fifteen.db.container`) whose
metadata names its *kind*; :data:`LOADERS` maps each kind to the loader that reads
it (the format's own ``from_bytes``) and registers it:

========  ==========================  =============================================
kind      files                       read by
========  ==========================  =============================================
wd        ``wd-RxC.f15``              :meth:`fifteen.bounds.walking.WalkingTable.from_bytes`
pdb       ``pdb-663.f15``, ...        :meth:`fifteen.bounds.pdb.PatternDatabase.from_bytes`
pdb78     ``pdb-771.f15``,            :meth:`fifteen.bounds.pdb78.PDB78.from_bytes`
          ``pdb-55554.f15`` (5x5),
          ``pdb-78.f15.xz`` (pack)
explore   ``explore-3x3.f15``, ...    :meth:`fifteen.bounds.exact.ExplorerTable.from_bytes`
========  ==========================  =============================================

The formats know nothing of this registry; it imports them.  The bounds ask it for
what they need: :func:`pattern_database`, :func:`walking_table` (built in-process
when no asset has it), :func:`explorer`.

**Where they come from.**

* *Natively*, from a database directory holding the ``manifest.json`` that
  ``build_db.py`` writes: the one given to :func:`use_directory` (the CLI's
  ``--db DIR``), else ``$FIFTEEN_DB``, else the checkout's ``static/db`` (next
  to the ``py/`` directory this package sits in; ``make db`` builds it), else
  the user's cache (:func:`user_directory`, which ``fifteen db fetch`` and
  ``fifteen db build`` fill); the first two are taken as given, the last two
  only when they hold a manifest.  Without any, do without (see below).  Assets are read *lazily*,
  the first time a bound needs them (:func:`pattern_database`,
  :func:`walking_table`), and once: a plain ``fifteen.solve(board)`` uses the
  strongest bound the directory offers.
* *In the browser* (Pyodide) there is no directory: the worker fetches each
  asset and hands its bytes to :func:`load_asset` (through
  :func:`fifteen.api.load_asset`); nothing is ever read from the file system.

Lazy loading only fills what is missing: an asset already registered (by
:func:`load_asset` or an earlier read) is never read again.  Without a WD
asset the tables are built in-process (fast for every shape that offers WD);
without a PDB asset the PDB bounds are simply not offered.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from fifteen.board import Goal, Shape
from fifteen.bounds import exact as explore
from fifteen.bounds import pdb, pdb78, walking
from fifteen.bounds.exact import Explorer, ExplorerTable
from fifteen.bounds.walking import WalkingTable
from fifteen.db.container import read_meta
from fifteen.errors import AssetError, AssetWarning, InputError
from fifteen.frame import frame_for
from fifteen.limits import describe

#: A loaded pattern database: additive (6-6-3, 5-5-5) or the 7-8 pack.
PatternDatabase = pdb.PatternDatabase | pdb78.PDB78

#: Loaded pattern databases by bound name ("pdb663", "pdb78", ...).
pattern_databases: dict[str, PatternDatabase] = {}
#: Loaded walking-distance tables by table shape.
walking_tables: dict[Shape, WalkingTable] = {}
#: Walking-distance tables built in-process, for shapes no asset serves (kept across :func:`reset`:
#: they do not depend on any file).
_built_walking_tables: dict[tuple[Shape, int], WalkingTable] = {}
#: Loaded exact-distance tables of the small-board explorer by the shape they were built for.
explorer_tables: dict[Shape, ExplorerTable] = {}
#: File names (``pdb-663.f15``, ``wd-4x4.f15``...) of what is registered: never read again.
_registered_files: set[str] = set()
#: Where each registered file came from, for messages: its path, or the name the browser's worker gave.
_sources: dict[str, str] = {}
#: The database directory given to :func:`use_directory` (None: :func:`default_directory`).
_chosen_directory: Path | None = None
#: The manifest's entries by file name, once read (None: not read yet).
_entries: dict[str, dict[str, Any]] | None = None


#: What else forgets on :func:`reset`: values computed from the loaded tables (:func:`on_reset`).
_reset_hooks: list[Callable[[], object]] = []


def on_reset(hook: Callable[[], object]) -> None:
    """Call *hook* at every :func:`reset` (a cache of values read from the loaded tables)."""
    _reset_hooks.append(hook)


def reset() -> None:
    """Forget every loaded asset and the database directory (back to the automatic one)."""
    global _chosen_directory, _entries
    for hook in _reset_hooks:
        hook()
    pattern_databases.clear()
    walking_tables.clear()
    explorer_tables.clear()
    _registered_files.clear()
    _sources.clear()
    _chosen_directory = None
    _entries = None


# ----------------------------------------------------------------- registering bytes
Data = bytes | bytearray | memoryview
#: A loader: reads an asset's bytes (*name* for messages; *take*: see :func:`load_asset`),
#: registers what it holds and returns the file name it is known by.
Loader = Callable[[Data, str, bool], str]


def _load_walking(data: Data, name: str, take: bool) -> str:
    table = WalkingTable.from_bytes(data, name)
    walking_tables[table.shape] = table
    return walking.asset_file(table.shape)


def _load_pattern(data: Data, name: str, take: bool) -> str:
    db = pdb.PatternDatabase.from_bytes(data, name=name)
    pattern_databases["pdb" + db.partition] = db
    return pdb.asset_file(db.partition)


def _load_pack78(data: Data, name: str, take: bool) -> str:
    db = pdb78.PDB78.from_bytes(data, name=name, take=take)
    pattern_databases[pdb78.bound_name(db.partition)] = db
    return pdb78.asset_file(db.partition)


def _load_explorer(data: Data, name: str, take: bool) -> str:
    table = ExplorerTable.from_bytes(data, name=name, take=take)
    explorer_tables[table.shape] = table
    return explore.asset_file(table.shape)


#: Each kind of asset and its loader (the table of the module docstring).
LOADERS: dict[str, Loader] = {"wd": _load_walking, "pdb": _load_pattern, pdb78.KIND: _load_pack78, explore.KIND: _load_explorer}


def load_asset(data: Data, name: str = "asset", *, take: bool = False) -> dict[str, Any]:
    """Check and register one asset (by the loader of its kind, :data:`LOADERS`); return its
    metadata (raises :class:`AssetError`).

    *data* is a container or an xz of one (the 7-8 pack, the explorer's packs).  With *take*, a
    ``bytearray`` is handed over: a pack's table is then that very buffer,
    trimmed in place (the browser worker's path: no copy of 288 MB).
    """
    meta = read_meta(data, name=name)
    kind = meta.get("kind")
    loader = LOADERS.get(kind) if isinstance(kind, str) else None
    if loader is None:
        raise AssetError(f"{name}: unknown database kind {kind!r}", code="asset_corrupt")
    file = loader(data, name, take)
    _registered_files.add(file)
    _sources[file] = name
    return meta


# ----------------------------------------------------------------- the database directory
def default_directory() -> Path | None:
    """Where the databases are read from without :func:`use_directory`: ``$FIFTEEN_DB``, else the
    first of :func:`checkout_directory` and :func:`user_directory` that holds a manifest; None in
    the browser or when neither does."""
    env = os.environ.get("FIFTEEN_DB")
    if env:
        return Path(env)
    if sys.platform == "emscripten":  # Pyodide: the worker hands the assets over
        return None
    for candidate in (checkout_directory(), user_directory()):
        if candidate is not None and _is_file(candidate / "manifest.json"):
            return candidate
    return None


def checkout_directory() -> Path | None:
    """``static/db`` of the checkout this package runs from (``py/fifteen`` in a clone, which
    ``make db`` fills); None for an installed package."""
    root = Path(__file__).resolve().parents[3]
    return root / "static" / "db" if (root / "py" / "fifteen").is_dir() else None


def user_directory() -> Path | None:
    """The user's database directory, which ``fifteen db fetch`` and ``fifteen db build`` fill:
    ``$XDG_CACHE_HOME/fifteen/db``, else the platform's cache directory (``~/.cache`` on Linux,
    ``~/Library/Caches`` on macOS, ``%LOCALAPPDATA%`` on Windows) + ``fifteen/db``; None when
    there is no home directory."""
    env = os.environ.get("XDG_CACHE_HOME")
    if env and os.path.isabs(env):
        return Path(env) / "fifteen" / "db"
    try:
        home = Path.home()
    except RuntimeError:  # no $HOME and no password entry
        return None
    if sys.platform == "win32":
        local = os.environ.get("LOCALAPPDATA")
        return (Path(local) if local else home / "AppData" / "Local") / "fifteen" / "Cache" / "db"
    if sys.platform == "darwin":
        return home / "Library" / "Caches" / "fifteen" / "db"
    return home / ".cache" / "fifteen" / "db"


def use_directory(directory: str | Path | None) -> None:
    """Read assets from *directory* from now on (None: the automatic :func:`default_directory`).

    A directory given explicitly must hold a manifest (:class:`AssetError` otherwise); one
    that cannot be used (not JSON, or JSON of the wrong shape) is an :class:`AssetWarning`.
    """
    global _chosen_directory, _entries
    _chosen_directory = None if directory is None else Path(directory)
    _entries = None
    if directory is not None:
        _manifest_entries()


def directory() -> Path | None:
    """The database directory in use, or None."""
    return _chosen_directory if _chosen_directory is not None else default_directory()


def _manifest_entries() -> dict[str, dict[str, Any]]:
    """The manifest's entries (assets and optional packs) by file name; {} without a directory."""
    global _entries
    if _entries is not None:
        return _entries
    root = directory()
    entries: dict[str, dict[str, Any]] = {}
    if root is not None:
        path = root / "manifest.json"
        if _is_file(path):
            try:
                manifest = json.loads(path.read_text())
            except (OSError, ValueError, RecursionError) as exc:
                _warn(f"{path}: unreadable manifest ({describe(str(exc), 80)}); {NOT_USED}")
            else:
                entries = manifest_entries(manifest, str(path))
        elif _chosen_directory is not None or os.environ.get("FIFTEEN_DB"):  # asked for, not guessed
            raise AssetError(
                f"{_shown(path)}: no manifest (build the databases with build_db.py --out {_shown(root)})", code="asset_missing"
            )
    _entries = entries
    return entries


def _shown(path: Path) -> str:
    """*path* for a message: as it is, or cut (quoted) when longer than 120 characters or odd."""
    text = str(path)
    return text if len(text) <= 120 and text.isprintable() else describe(text, 120)


def _is_file(path: Path) -> bool:
    """``path.is_file()``, with a path the system refuses (too long, a NUL) an :class:`AssetError`."""
    try:
        return path.is_file()
    except (OSError, ValueError) as exc:
        raise AssetError(
            f"database directory {_shown(path.parent)}: {getattr(exc, 'strerror', None) or exc}", code="asset_missing"
        ) from None


def _warn(message: str) -> None:
    warnings.warn(message, AssetWarning, stacklevel=4)


#: The end of a warning about a manifest that cannot be used.
NOT_USED = "no database of it is used (weaker bounds, same answers)"


def _entry_problem(entry: Any) -> str | None:
    """Why one manifest entry cannot be used, or None."""
    if not isinstance(entry, dict):
        return f"an entry is {describe(entry)}, not an object"
    file = entry.get("file")
    if not isinstance(file, str) or not file or "/" in file or "\\" in file or file.startswith("."):
        return f"an entry's file is {describe(file)}, not a file name"
    shapes = entry.get("shapes", [])
    if not isinstance(shapes, list) or not all(isinstance(s, str) for s in shapes):
        return f"{describe(file)}: shapes is {describe(shapes)}, not a list of shapes"
    for key in _COUNTS:
        value = entry.get(key, 0)
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            return f"{describe(file)}: {key} is {describe(value)}, not a number of bytes"
    digest = entry.get("sha256")
    if digest is not None and not (isinstance(digest, str) and len(digest) == 64 and all(c in "0123456789abcdef" for c in digest)):
        return f"{describe(file)}: sha256 is {describe(digest)}, not a SHA-256 in hex"
    return None


#: An entry's byte counts (optional; the page's worker checks downloads and memory with them).
_COUNTS = ("bytes", "raw_bytes", "memory_bytes")


def manifest_lists(manifest: Any, name: str = "manifest.json") -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The usable entries of a parsed manifest: (assets, optional packs).

    JSON of the wrong shape is treated like invalid JSON: an :class:`AssetWarning`, and the
    entries that cannot be used are left out (all of them when the top level is wrong)."""
    if not isinstance(manifest, dict):
        _warn(f"{name}: not a database list (the JSON is {describe(manifest)}, not an object); {NOT_USED}")
        return [], []
    lists: dict[str, list[Any]] = {}
    for key, required in (("assets", True), ("packs", False)):
        value = manifest.get(key)
        if value is None and not required:
            value = []
        if not isinstance(value, list):
            what = "missing" if key not in manifest else describe(value)
            _warn(f"{name}: {key!r} is {what}, not a list of databases; {NOT_USED}")
            return [], []
        lists[key] = value
    listed = lists["assets"] + lists["packs"]
    problems = [p for p in map(_entry_problem, listed) if p]
    if problems:
        rest = "the others are used" if len(problems) < len(listed) else NOT_USED
        _warn(f"{name}: {len(problems)} of {len(listed)} entries left out ({problems[0]}); {rest}")
    usable = {key: [e for e in value if _entry_problem(e) is None] for key, value in lists.items()}
    return usable["assets"], usable["packs"]


def manifest_entries(manifest: Any, name: str = "manifest.json") -> dict[str, dict[str, Any]]:
    """The usable entries of a parsed manifest (assets and optional packs: natively, a pack
    loads when present) by file name; see :func:`manifest_lists`."""
    found, packs = manifest_lists(manifest, name)
    return {e["file"]: e for e in found + packs}


def _listed(file: str, shape: Shape | None = None) -> bool:
    """Whether the manifest lists *file* (for *shape*, when given) and it is not registered yet."""
    entry = _manifest_entries().get(file)
    return entry is not None and file not in _registered_files and (shape is None or str(shape) in entry.get("shapes", ()))


def _read(file: str) -> None:
    """Read *file* of the database directory, check it against the manifest's SHA-256
    (:func:`check_digest`) and register it."""
    root = directory()
    assert root is not None  # only called for files the manifest lists
    path = root / file
    try:
        with open(path, "rb") as f:
            stamp = _stamp(os.fstat(f.fileno()))  # of the very file read
            data = f.read()
    except (OSError, ValueError) as exc:
        raise AssetError(f"{_shown(path)}: cannot read ({getattr(exc, 'strerror', None) or exc})", code="asset_missing") from None
    check_digest(path, data, _manifest_entries()[file].get("sha256"), stamp)
    load_asset(data, str(path))
    _registered_files.add(file)


# ----------------------------------------------------------------- each file as the manifest lists it
# The container's CRC-32 catches a damaged download or disk; it cannot catch a file whose bytes
# were changed and its CRC written again (a zeroed payload makes the search take a position one
# move away for the goal).  The manifest build_db.py writes lists each file's SHA-256: a file
# read from a directory must have it.  Hashing costs about 10 ms per 16 MB, so a file found sound
# is remembered by its stamp (size, modification and change times, inode; a change time moves
# with any write, even one that sets the modification time back) in the user's cache
# directory, and hashed again only when the stamp or the listed digest changes.

#: How to get a sound copy of a database (the end of :func:`blame`'s message and of a damaged file's).
REBUILD = "rebuild it (make db, or python build_db.py --out DIR) or fetch it again"
#: The verdicts' file: ``$XDG_CACHE_HOME/fifteen`` (default ``~/.cache/fifteen``), one JSON object
#: {path: [size, mtime_ns, ctime_ns, inode, sha256]} of the files found sound.
VERDICTS_FILE = "verified-databases.json"
#: The most files remembered (the others forgotten when it is written).
MAX_VERDICTS = 256
_verdicts: dict[str, list] | None = None


def _stamp(st: os.stat_result) -> list[int]:
    return [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]


def verdicts_path() -> Path:
    """Where the verdicts of sound files are kept (see above)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "fifteen" / VERDICTS_FILE


def _known_verdicts() -> dict[str, list]:
    global _verdicts
    if _verdicts is None:
        try:
            found = json.loads(verdicts_path().read_text())
        except (OSError, ValueError, RecursionError):
            found = None
        _verdicts = found if isinstance(found, dict) else {}
    return _verdicts


def _remember(key: str, verdict: list) -> None:
    """Keep *verdict* for *key* (best effort: a cache that cannot be written only costs a hash later)."""
    verdicts = _known_verdicts()
    verdicts[key] = verdict
    for old in list(verdicts)[: max(0, len(verdicts) - MAX_VERDICTS)]:
        del verdicts[old]
    path = verdicts_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f".{path.name}.{os.getpid()}")
        temporary.write_text(json.dumps(verdicts))
        os.replace(temporary, path)
    except OSError:
        pass


def check_digest(path: Path, data: Data, want: str | None, stamp: list[int]) -> None:
    """Refuse *data* (the file *path*, of *stamp*) unless its SHA-256 is *want* (the manifest's;
    None: not listed, nothing to check): an :class:`AssetError` (``asset_corrupt``) saying how
    to replace it.  A file found sound before with the same stamp is not hashed again."""
    if want is None:
        return
    key = os.path.abspath(path)
    verdict = [*stamp, want]
    if _known_verdicts().get(key) == verdict:
        return
    if hashlib.sha256(data).hexdigest() != want:
        raise AssetError(
            f"{_shown(path)}: damaged: its SHA-256 is not the one its manifest lists ({len(data):,} bytes): {REBUILD}",
            code="asset_corrupt",
        )
    _remember(key, verdict)


# ----------------------------------------------------------------- when an answer contradicts them


def files_of(bound: str | None, shape: Shape) -> list[str]:
    """The loaded database files a search of *shape* with *bound* read its values from (every
    loaded one that serves *shape* when *bound* is None: a position's best bound takes them all)."""
    loaded = [_pattern_file(name) for name, db in pattern_databases.items() if _serves(db, shape) and (bound in (None, name))]
    if bound is None or bound in ("wd", "wdid"):
        loaded += [walking.asset_file(s) for s in (shape, shape.transposed()) if s in walking_tables]
    return [f for f in dict.fromkeys(loaded) if f is not None and f in _registered_files]


def blame(bound: str | None, shape: Shape) -> str | None:
    """For an answer that contradicts itself (a path that does not reach the goal, a length below
    a proven lower bound): the databases it came from and how to replace them, or None when no
    database file was used (then it is a bug)."""
    files = files_of(bound, shape)
    if not files:
        return None
    named = ", ".join(_sources.get(f, f) for f in files)
    if len(files) == 1:
        return f"the database {named} is corrupt: {REBUILD}"
    return f"one of the databases {named} is corrupt: {REBUILD.replace(' it ', ' them ').replace(' it again', ' them again')}"


# ----------------------------------------------------------------- what the solver asks for
def _pattern_file(name: str) -> str | None:
    """The asset file of the pattern-database bound *name* (``pdb663`` -> ``pdb-663.f15``)."""
    if name.startswith("pdb") and name[3:] in pdb78.PARTITIONS:
        return pdb78.asset_file(name[3:])
    if name.startswith("pdb") and name[3:] in pdb.PARTITIONS:
        return pdb.asset_file(name[3:])
    return None


def _serves(db: PatternDatabase | None, shape: Shape) -> bool:
    return db is not None and (db.rows, db.cols) == (shape.rows, shape.cols)


def offers_pattern_database(name: str, shape: Shape) -> bool:
    """Whether the pattern-database bound *name* is available on *shape*: loaded, or listed
    in the database directory's manifest (then read at first use; nothing is read here)."""
    if _serves(pattern_databases.get(name), shape):
        return True
    file = _pattern_file(name)
    return file is not None and _listed(file, shape)


def pattern_database(name: str, shape: Shape) -> PatternDatabase | None:
    """The pattern database of bound *name* for *shape*, read from the directory at first use; None if not offered."""
    db = pattern_databases.get(name)
    if _serves(db, shape):
        return db
    file = _pattern_file(name)
    if file is None or not _listed(file, shape):
        return None
    _read(file)
    db = pattern_databases.get(name)
    if not _serves(db, shape):
        raise AssetError(
            f"{file}: the manifest lists it for {shape} boards, but it holds no {name} database for them", code="asset_corrupt"
        )
    return db


def walking_table(shape: Shape, blank_row: int | None = None) -> WalkingTable:
    """The WD table of *shape* (the table's own shape) whose goal has the blank in row
    *blank_row* (default the last: the standard goal's).  The standard goal's is the registered
    one, else read from the database directory at first use; the others, and the standard one
    without an asset, are built in-process, once per (shape, row)."""
    if blank_row is None:
        blank_row = shape.rows - 1
    table = walking_tables.get(shape) if blank_row == shape.rows - 1 else None
    if table is None and blank_row == shape.rows - 1:
        file = walking.asset_file(shape)
        if _listed(file):
            _read(file)
            table = walking_tables.get(shape)
    if table is None:
        table = _built_walking_tables.get((shape, blank_row))
        if table is None:
            table = _built_walking_tables[shape, blank_row] = WalkingTable.build(shape, blank_row)
    return table


def walking_pair(shape: Shape, goal: Sequence[int] | None = None) -> tuple[WalkingTable, WalkingTable]:
    """The vertical and horizontal WD tables of boards of *shape* solved towards *goal* (its
    tiles; default the standard goal): the blank's goal row and column pick them."""
    if goal is None:
        return walking_table(shape), walking_table(shape.transposed())
    blank_row, blank_col = divmod(list(goal).index(0), shape.cols)
    return walking_table(shape, blank_row), walking_table(shape.transposed(), blank_col)


def explorer(shape: Shape) -> Explorer | None:
    """The small-board explorer of *shape* when a loaded table serves it (its own or the
    transposed shape's; natively, :func:`ensure_for` with *explorer* reads them)."""
    table = explorer_tables.get(shape) or explorer_tables.get(shape.transposed())
    return Explorer(table, shape) if table is not None else None


def longest_optimum(shape: Shape, goal: Goal | None = None) -> int | None:
    """The most moves any position of *shape* needs towards *goal* (default the standard one):
    the radius of a loaded explorer table, else a published one (:data:`fifteen.bounds.exact.PUBLISHED_RADII`:
    80 on 4x4); ``None`` when it is not known, or when the goal's blank is not in a corner (only
    those goals are the standard one in another frame, :mod:`fifteen.frame`, at the same distances)."""
    if goal is not None and not frame_for(goal).standard:
        return None
    found = explorer(shape)
    if found is not None:
        return found.radius
    return explore.PUBLISHED_RADII.get(str(shape), explore.PUBLISHED_RADII.get(str(shape.transposed())))


def require_explorer(shape: Shape) -> Explorer:
    """The explorer of *shape*, or an :class:`InputError` saying why there is none."""
    found = explorer(shape)
    if found is None:
        raise InputError(explore.missing_table(shape), code="unavailable")
    return found


def explorer_shapes() -> list[str]:
    """Every shape some loaded explorer table serves."""
    out: set[Shape] = set()
    for shape in explorer_tables:
        out.update((shape, shape.transposed()))
    return [str(s) for s in sorted(out, key=lambda s: (s.size, s.rows))]


def ensure_for(shape: Shape, directory: str | Path | None = None, *, explorer: bool = False) -> list[str]:
    """Load now every asset of the database directory that serves *shape* (not yet loaded);
    return the files read.  With *directory*, use it from now on (:func:`use_directory`).
    The explorer's tables (kind ``"explore"``) are read only with *explorer*."""
    if directory is not None:
        use_directory(directory)
    loaded = []
    for file, entry in _manifest_entries().items():
        if str(shape) not in entry.get("shapes", ()) or file in _registered_files:
            continue
        if entry.get("kind") == "explore" and not explorer:
            continue
        _read(file)
        loaded.append(file)
    return loaded
