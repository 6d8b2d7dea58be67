"""Build every database asset of Fifteen into one directory (native only; numpy).

    python build_db.py --out static/db [--only NAME ...] [--force] [--cache DIR] [--list] [--pack]

Writes each asset of :data:`dbbuild.specs.ASSETS` (container format of
:mod:`fifteen.db.container`) plus ``manifest.json`` (:mod:`dbbuild.manifest`); with
``--pack``, the optional packs (:data:`dbbuild.specs.PACKS`) instead.  Every
built file is kept in a cache (:mod:`dbbuild.cache`: ``--cache``, else
``$FIFTEEN_DB_CACHE``, else ``~/.cache/fifteen-db``) under a key made of the
asset's kind, build/layout versions and parameters; files in ``--out`` already
identical to the cached ones are left alone, so a second run does nothing but
refresh the manifest's time stamp (for make).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from . import specs
from .cache import default_cache_dir, ensure_asset
from .manifest import write_manifest


def main(argv: Sequence[str] | None = None, prog: str = "build_db.py") -> int:
    """Build the assets (*argv*: the options above); *prog* names the command in messages
    (``fifteen db build`` runs this too)."""
    ap = argparse.ArgumentParser(
        prog=prog, description=(__doc__ or "").split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--out", default="static/db", help="output directory (default static/db)")
    ap.add_argument("--only", nargs="+", metavar="NAME", help="build only these assets (file name, pdb-663 or pdb663)")
    ap.add_argument("--force", action="store_true", help="rebuild even when cached")
    ap.add_argument("--cache", help="cache directory (default $FIFTEEN_DB_CACHE or ~/.cache/fifteen-db)")
    ap.add_argument("--list", action="store_true", help="list the assets and exit")
    ap.add_argument(
        "--pack", action="store_true", help="build the optional packs (the 7-8 PDB: numba, ~4 GB RAM) instead of the default assets"
    )
    ap.add_argument("-q", "--quiet", action="store_true")
    ap.add_argument("-v", "--verbose", action="store_true", help="log every BFS layer")
    args = ap.parse_args(argv)
    assets, packs = specs.ASSETS, specs.PACKS

    def log(msg: str) -> None:
        if not args.quiet:
            print(msg, flush=True)

    def vlog(msg: str) -> None:
        if args.verbose or not msg.startswith("    "):
            log(msg)

    if args.list:
        for s in assets + packs:
            print(f"{s.file:20} {s.kind:5} {','.join(s.shapes):8} {'(optional, --pack) ' if s in packs else ''}{s.params}")
        return 0
    selected = packs if args.pack else assets
    if args.only:
        known = assets + packs
        unknown = [o for o in args.only if not any(s.matches(o) for s in known)]
        if unknown:
            ap.error(f"unknown asset(s) {unknown}; known: {[s.file for s in known]}")
        selected = [s for s in known if any(s.matches(o) for o in args.only)]
    out = Path(args.out)
    cache = Path(args.cache).expanduser() if args.cache else default_cache_dir()
    out.mkdir(parents=True, exist_ok=True)
    cache.mkdir(parents=True, exist_ok=True)
    for spec in selected:
        how = ensure_asset(spec, out, cache, args.force, vlog)
        log(f"{spec.file}: {how}")
    write_manifest(out, assets, packs)
    return 0
