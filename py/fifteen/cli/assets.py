"""``fifteen db``: where the databases are, and getting them (docs/cli.md, "fifteen db").

    fifteen db status [--db DIR] [--json]      each place looked in; the files, checked, and the bounds they serve
    fifteen db fetch [URL] [--db DIR] [--packs]   download them from a copy of the site (fifteen.cli.download)
    fifteen db build [--db DIR] [--only NAME ...] [--pack] [--force]   build them (the build extra: numpy, numba)
    fifteen db path                            the directory in use

The search order (:func:`fifteen.bounds.databases.default_directory`): ``--db DIR``, then
``$FIFTEEN_DB``, then the checkout's ``static/db``, then the user's cache
(:func:`~fifteen.bounds.databases.user_directory`).  ``fetch`` and ``build`` write into ``--db``,
else ``$FIFTEEN_DB``, else the user's cache.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
import time
from pathlib import Path
from typing import IO, Any

from fifteen.bounds import asset_bounds, databases
from fifteen.errors import InputError

#: The site ``fifteen db fetch`` downloads from without an address: the project's published
#: site, once it has one (none yet: the address is then required).  ``$FIFTEEN_DB_URL`` overrides it.
DEFAULT_SITE: str | None = None

#: What ``fifteen db fetch`` without an address says when there is no default site.
NO_SITE = (
    "fifteen db fetch needs the address of a copy of the site, e.g. http://127.0.0.1:8000/ for `make dist` "
    "served by `python3 -m http.server -d dist` (the project publishes no site yet; $FIFTEEN_DB_URL sets a default), "
    "or build the databases: fifteen db build"
)


def add_parsers(sub) -> None:
    db = sub.add_parser("db", help="the databases: where they are (status, path), getting them (fetch, build)")
    commands = db.add_subparsers(dest="db_command", required=True)
    sp = commands.add_parser("status", help="each place looked in, the files (sizes, checksums checked) and the bounds they serve")
    sp.add_argument("--db", help="show this directory (default: the one in use)")
    sp.add_argument("--json", action="store_true", help="print one JSON object")
    sp = commands.add_parser("fetch", help="download the databases from a copy of the site (its static/db/manifest.json)")
    sp.add_argument("url", nargs="?", help="the site's address, e.g. http://127.0.0.1:8000/ (default: $FIFTEEN_DB_URL)")
    sp.add_argument("--db", help="directory to fill (default: $FIFTEEN_DB, else the user cache)")
    sp.add_argument("--packs", action="store_true", help="also the optional packs the site offers (the 7-8 pack: 52 MB)")
    sp.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    sp = commands.add_parser("build", help="build the databases here (pip install 'fifteen[build]': numpy and numba; minutes)")
    sp.add_argument("--db", help="directory to fill (default: $FIFTEEN_DB, else the user cache)")
    sp.add_argument("--only", nargs="+", metavar="NAME", help="only these (file name, pdb-771 or pdb771)")
    sp.add_argument("--pack", action="store_true", help="the optional packs instead (the 7-8 pack: ~4 GB of RAM, 15+ minutes)")
    sp.add_argument("--force", action="store_true", help="build again what the build cache holds")
    commands.add_parser("path", help="print the directory of the databases in use")


def run(args) -> int:
    return {"status": _status, "fetch": _fetch, "build": _build, "path": _path}[args.db_command](args)


# ----------------------------------------------------------------- where
def target_directory(db: str | None) -> Path:
    """Where ``fetch`` and ``build`` write: *db*, else ``$FIFTEEN_DB``, else the user's cache."""
    chosen = db or os.environ.get("FIFTEEN_DB") or databases.user_directory()
    if chosen is None:
        raise InputError("no home directory for the user cache: give a directory with --db or $FIFTEEN_DB", code="file")
    return Path(chosen).expanduser()


def places(db: str | None) -> list[dict[str, Any]]:
    """The search order: each place (``where``), its directory (None: not set) and whether it holds
    a manifest."""
    env = os.environ.get("FIFTEEN_DB")
    found = [
        ("--db", Path(db) if db else None),
        ("$FIFTEEN_DB", Path(env) if env else None),
        ("checkout", databases.checkout_directory()),
        ("user cache", databases.user_directory()),
    ]
    return [
        {"where": where, "directory": path, "manifest": path is not None and (path / "manifest.json").is_file()} for where, path in found
    ]


def in_use(db: str | None) -> Path | None:
    """The directory the solver reads (with ``--db`` *db*): the search order's first."""
    return Path(db) if db else databases.default_directory()


def _path(args) -> int:
    found = in_use(None)
    if found is None or not (found / "manifest.json").is_file():
        print(
            f"fifteen: no databases found; `fifteen db fetch URL` or `fifteen db build` puts them in {target_directory(None)}",
            file=sys.stderr,
        )
        return 1
    print(found)
    return 0


# ----------------------------------------------------------------- status
def file_states(directory: Path) -> list[dict[str, Any]]:
    """Each file the manifest of *directory* lists: its entry's ``file``, ``kind``, ``shapes``,
    ``bytes`` and ``sha256``, whether it is ``optional`` (a pack), the ``bounds`` it serves, and its
    ``state``: ``ok`` (size and SHA-256 as listed), ``missing`` or ``damaged``."""
    try:
        manifest = json.loads((directory / "manifest.json").read_text())
    except (OSError, ValueError):
        return []
    assets, packs = databases.manifest_lists(manifest, str(directory / "manifest.json"))
    from fifteen.cli.download import sha256_of  # `fifteen db` only: urllib is not every command's import

    out = []
    for entry in assets + packs:
        path = directory / entry["file"]
        if not path.is_file():
            state = "missing"
        elif path.stat().st_size != entry.get("bytes", path.stat().st_size) or sha256_of(path) != entry.get("sha256", sha256_of(path)):
            state = "damaged"
        else:
            state = "ok"
        out.append(
            {
                "file": entry["file"],
                "kind": entry.get("kind"),
                "shapes": entry.get("shapes", []),
                "bytes": entry.get("bytes"),
                "sha256": entry.get("sha256"),
                "optional": entry in packs,
                "bounds": asset_bounds(str(entry.get("kind")), entry["file"]),
                "state": state,
            }
        )
    return out


def _serves(record: dict[str, Any]) -> str:
    if record["bounds"]:
        return ", ".join(record["bounds"])
    return "the explorer (explore, hint)" if record["kind"] == "explore" else "-"


def _status(args) -> int:
    directory = in_use(args.db)
    files = file_states(directory) if directory is not None else []
    looked = places(args.db)
    if args.json:
        doc = {
            "directory": None if directory is None else str(directory),
            "places": [{**p, "directory": None if p["directory"] is None else str(p["directory"])} for p in looked],
            "target": str(target_directory(args.db)),
            "files": files,
        }
        print(json.dumps(doc))
        return 0
    print(f"databases in use: {directory if directory is not None and files else 'none'}")
    print("looked for in this order (the first that is set and holds a manifest.json):")
    for p in looked:
        unset = {"--db": "not given", "$FIFTEEN_DB": "not set", "checkout": "not a checkout"}.get(p["where"], "none")
        shown = unset if p["directory"] is None else f"{p['directory']}{'' if p['manifest'] else ' (no manifest.json)'}"
        print(f"  {p['where']:12} {shown}")
    print(f"fifteen db fetch and build write into {target_directory(args.db)}")
    if not files:
        print("no databases: 4x4 searches use WD+ID; get them with `fifteen db fetch URL` or `fifteen db build`")
        return 0
    width = max(len(f["file"]) for f in files)
    print(f"{'file':{width}}  {'kind':7} {'shapes':11} {'bytes':>11}  {'sha256':12}  {'state':7} serves")
    for f in files:
        shapes = ",".join(f["shapes"])
        size = "" if f["bytes"] is None else f"{f['bytes']:,}"
        digest = (f["sha256"] or "")[:12]
        extra = " (optional pack)" if f["optional"] else ""
        print(f"{f['file']:{width}}  {f['kind'] or '':7} {shapes:11} {size:>11}  {digest:12}  {f['state']:7} {_serves(f)}{extra}")
    total = sum(f["bytes"] or 0 for f in files)
    bad = [f["file"] for f in files if f["state"] != "ok"]
    print(f"{len(files)} files, {total / 1e6:.1f} MB" + (f"; not usable: {', '.join(bad)}" if bad else ", all as listed"))
    return 0


# ----------------------------------------------------------------- fetch
class TransferBar:
    """``db: [#####     ] 9.8/19.8 MB  pdb-771.f15  12 MB/s`` redrawn in place on a terminal (nothing
    elsewhere: the command prints a line per file)."""

    def __init__(self, stream: IO[str] | None = None):
        self.stream = stream if stream is not None else sys.stderr
        self.tty = self.stream.isatty()
        self.total = 0
        self.done: dict[str, int] = {}
        self.resumed = 0  # bytes already there when a file's transfer began (a resumed part)
        self.start = time.monotonic()
        self.last = 0.0
        self.shown = False

    def plan(self, total: int) -> None:
        self.total = total
        self.start = time.monotonic()

    def __call__(self, file: str, received: int, size: int) -> None:
        if file not in self.done:
            self.resumed += received
        self.done[file] = received
        now = time.monotonic()
        if not self.tty or (now - self.last < 0.1 and received < size):
            return
        self.last = now
        got = sum(self.done.values())
        width = 30
        filled = width * got // max(1, self.total)
        rate = (got - self.resumed) / max(1e-3, now - self.start)
        line = f"db: [{'#' * filled}{' ' * (width - filled)}] {got / 1e6:.1f}/{self.total / 1e6:.1f} MB  {file}  {rate / 1e6:.1f} MB/s"
        print("\r" + line + "\x1b[K", end="", file=self.stream, flush=True)
        self.shown = True

    def close(self) -> None:
        if self.shown:
            print(file=self.stream)
            self.shown = False


def _fetch(args) -> int:
    from fifteen.cli.download import fetch_databases  # `fifteen db fetch` only: urllib is not every command's import

    address = args.url or os.environ.get("FIFTEEN_DB_URL") or DEFAULT_SITE
    if not address:
        raise InputError(NO_SITE, code="usage")
    directory = target_directory(args.db)
    print(f"fetching the databases of {address} into {directory}")
    bar = None if args.quiet else TransferBar()
    try:
        fetched = fetch_databases(address, directory, packs=args.packs, progress=bar, planned=bar.plan if bar else None)
    except KeyboardInterrupt:
        if bar:
            bar.close()
        print("fifteen db fetch: stopped; what was downloaded is kept: run the same command again to resume", file=sys.stderr)
        raise
    finally:
        if bar:
            bar.close()
    for file, received in fetched.downloaded.items():
        print(f"  {file}: {received:,} bytes downloaded, sha256 checked")
    if fetched.present:
        print(f"  already there (sha256 checked): {len(fetched.present)} file{'s' * (len(fetched.present) != 1)}")
    for file, why in fetched.skipped.items():
        print(f"  left out: {file} ({why})")
    served = sorted({b for e in fetched.entries for b in asset_bounds(str(e.get("kind")), e["file"])})
    size = sum(e["bytes"] for e in fetched.entries)
    print(f"{len(fetched.entries)} files, {size / 1e6:.1f} MB from {fetched.manifest_url}")
    print(f"bounds they serve: {', '.join(served) or 'none'}")
    _say_if_unused(directory)
    return 0


def _say_if_unused(directory: Path) -> None:
    """A note when the solver would read another directory than the one just filled."""
    used = in_use(None)
    if used is not None and used.resolve() != directory.resolve():
        print(f"note: the solver reads {used}, first in the search order (fifteen db status); --db {directory} reads these")


# ----------------------------------------------------------------- build
def _build(args) -> int:
    missing = [m for m in ("numpy", "numba") if importlib.util.find_spec(m) is None]
    if missing:
        raise InputError(
            f"fifteen db build needs {' and '.join(missing)}: pip install 'fifteen[build]' (pipx: pipx inject fifteen numpy numba), "
            "or fetch the databases: fifteen db fetch URL",
            code="unavailable",
        )
    from dbbuild import specs  # the build extra (numpy, numba): `fifteen db build` only
    from dbbuild.cli import main as build_main  # (idem)

    known = specs.ASSETS + specs.PACKS
    unknown = [name for name in args.only or () if not any(s.matches(name) for s in known)]
    if unknown:
        raise InputError(f"unknown database {unknown[0]!r} (known: {', '.join(s.file for s in known)})", code="param")
    directory = target_directory(args.db)
    argv = ["--out", str(directory)] + (["--only", *args.only] if args.only else []) + ["--pack"] * args.pack + ["--force"] * args.force
    status = build_main(argv, prog="fifteen db build")
    if status == 0:
        print(f"built into {directory}")
        _say_if_unused(directory)
    return status
