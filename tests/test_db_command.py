"""``fifteen db``: the databases' search order, ``status``, ``path``, ``build``, and ``fetch`` from a
copy of the site (checked, atomic, resumable), against a local server that honours ``Range``
(or not), cuts a transfer short or serves a damaged file; and the one line a 4x4 solve without
its databases says."""

from __future__ import annotations

import functools
import hashlib
import http.server
import json
import shutil
import subprocess
import sys
import threading
import urllib.parse
import warnings
from pathlib import Path

import pytest

from fifteen import Board, solve
from fifteen.board import Shape
from fifteen.bounds import asset_bounds, available_bounds, databases
from fifteen.cli import assets, download, main
from fifteen.errors import AssetWarning, InputError
from support.cli import PACKAGE_PATH

ROOT = Path(__file__).resolve().parents[1]
STATIC_DB = ROOT / "static" / "db"
#: The files of the small site served here (a part of static/db: its entries as make db wrote them).
SITE_FILES = ("pdb-555.f15", "wd-4x4.f15", "wd-3x3.f15", "explore-3x3.f15")
NEAR_GOAL = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15"  # one move from the goal


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# ----------------------------------------------------------------- a static host for the tests
class _Handler(http.server.BaseHTTPRequestHandler):
    """GET of the site's files, with ``Range: bytes=N-`` answered 206 unless the site ignores
    ranges; a file may be cut short (its Content-Length announced whole, the connection closed
    after *cut* bytes)."""

    def __init__(self, *args, site: Site, **kw):
        self.site = site
        super().__init__(*args, **kw)

    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass

    def do_GET(self):  # noqa: N802 - http.server's name
        rel = urllib.parse.unquote(urllib.parse.urlsplit(self.path).path).lstrip("/")
        path = self.site.root / rel
        asked = self.headers.get("Range")
        self.site.log.append((rel, asked))
        if not path.is_file():
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        data = path.read_bytes()
        start = int(asked.removeprefix("bytes=").rstrip("-")) if asked and not self.site.ignore_range else 0
        body = data[start:]
        self.send_response(206 if start else 200)
        if start:
            self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        cut = self.site.cut.pop(rel, None)
        self.wfile.write(body if cut is None else body[:cut])
        if cut is not None:
            self.close_connection = True


class Site:
    """A copy of the site's databases (``static/db/``: the manifest and SITE_FILES) on a local server."""

    def __init__(self, root: Path):
        self.root = root
        self.log: list[tuple[str, str | None]] = []
        self.ignore_range = False
        self.cut: dict[str, int] = {}  # file -> bytes sent before the connection is closed (once)
        db = root / "static" / "db"
        db.mkdir(parents=True)
        manifest = json.loads((STATIC_DB / "manifest.json").read_text())
        manifest["assets"] = [e for e in manifest["assets"] if e["file"] in SITE_FILES]
        manifest.pop("packs", None)
        for entry in manifest["assets"]:
            shutil.copyfile(STATIC_DB / entry["file"], db / entry["file"])
        (db / "manifest.json").write_text(json.dumps(manifest))
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Handler, site=self))
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/"

    def requests(self, file: str) -> list[str | None]:
        """The Range header of each request of *file* (None: the whole file)."""
        return [asked for rel, asked in self.log if rel == f"static/db/{file}"]


@pytest.fixture
def site(tmp_path):
    served = Site(tmp_path / "site")
    yield served
    served.httpd.shutdown()
    served.httpd.server_close()


@pytest.fixture
def user_cache(tmp_path, monkeypatch, fresh_assets):
    """An installed package's view: no $FIFTEEN_DB, no checkout, the user cache under tmp_path."""
    monkeypatch.delenv("FIFTEEN_DB", raising=False)
    monkeypatch.delenv("FIFTEEN_DB_URL", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(databases, "checkout_directory", lambda: None)
    return tmp_path / "cache" / "fifteen" / "db"


def run(capsys, *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


# ----------------------------------------------------------------- where
def test_the_search_order(tmp_path, monkeypatch, fresh_assets):
    """$FIFTEEN_DB as given; else the checkout's static/db, else the user cache, each only with a manifest."""
    monkeypatch.delenv("FIFTEEN_DB", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    user = tmp_path / "cache" / "fifteen" / "db"
    assert databases.user_directory() == user
    assert databases.checkout_directory() == STATIC_DB and databases.default_directory() == STATIC_DB
    user.mkdir(parents=True)
    (user / "manifest.json").write_text('{"format": 1, "assets": []}')
    assert databases.default_directory() == STATIC_DB  # the checkout first
    checkout = tmp_path / "checkout-db"  # a checkout whose databases are not built
    monkeypatch.setattr(databases, "checkout_directory", lambda: checkout)
    assert databases.default_directory() == user
    (user / "manifest.json").unlink()
    assert databases.default_directory() is None
    monkeypatch.setenv("FIFTEEN_DB", str(tmp_path / "elsewhere"))
    assert databases.default_directory() == tmp_path / "elsewhere"  # as given: a missing manifest is then an error


def test_the_user_cache_per_platform(monkeypatch, tmp_path):
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setattr(databases.Path, "home", lambda: tmp_path)
    monkeypatch.setattr(databases.sys, "platform", "linux")
    assert databases.user_directory() == tmp_path / ".cache" / "fifteen" / "db"
    monkeypatch.setattr(databases.sys, "platform", "darwin")
    assert databases.user_directory() == tmp_path / "Library" / "Caches" / "fifteen" / "db"
    monkeypatch.setattr(databases.sys, "platform", "win32")
    monkeypatch.setenv("LOCALAPPDATA", str(tmp_path / "Local"))
    assert databases.user_directory() == tmp_path / "Local" / "fifteen" / "Cache" / "db"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))  # set: wins everywhere
    assert databases.user_directory() == tmp_path / "xdg" / "fifteen" / "db"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/path")  # not absolute: ignored (the XDG rule)
    assert databases.user_directory() == tmp_path / "Local" / "fifteen" / "Cache" / "db"


def test_which_bounds_each_file_serves():
    """From the manifest's kind and file name, through the bound registry."""
    manifest = json.loads((STATIC_DB / "manifest.json").read_text())
    served = {e["file"]: asset_bounds(e["kind"], e["file"]) for e in manifest["assets"]}
    assert served["pdb-771.f15"] == ["pdb771"] and served["pdb-663.f15"] == ["pdb663"] and served["pdb-555.f15"] == ["pdb555"]
    assert served["pdb-55554.f15"] == ["pdb55554"] and served["wd-4x4.f15"] == ["wd", "wdid"] and served["explore-3x3.f15"] == []
    assert asset_bounds("pdb78", "pdb-78.f15.xz") == ["pdb78"]


def test_status_and_path_of_the_checkout(capsys, monkeypatch, fresh_assets):
    monkeypatch.delenv("FIFTEEN_DB", raising=False)
    status, out, _ = run(capsys, "db", "status", "--json")
    doc = json.loads(out)
    assert status == 0 and doc["directory"] == str(STATIC_DB)
    assert [p["where"] for p in doc["places"]] == ["--db", "$FIFTEEN_DB", "checkout", "user cache"]
    files = {f["file"]: f for f in doc["files"]}
    assert files["pdb-771.f15"]["bounds"] == ["pdb771"] and files["pdb-771.f15"]["state"] == "ok"
    assert all(f["state"] == "ok" for f in files.values()) and files["pdb-771.f15"]["bytes"] == (STATIC_DB / "pdb-771.f15").stat().st_size
    assert run(capsys, "db", "path") == (0, f"{STATIC_DB}\n", "")
    status, out, _ = run(capsys, "db", "status")
    assert f"databases in use: {STATIC_DB}" in out and "pdb-771.f15" in out and "ok      pdb771" in out


def test_path_and_status_without_databases(capsys, user_cache):
    status, out, err = run(capsys, "db", "path")
    assert (status, out) == (
        1,
        "",
    ) and err == f"fifteen: no databases found; `fifteen db fetch URL` or `fifteen db build` puts them in {user_cache}\n"
    status, out, _ = run(capsys, "db", "status")
    assert status == 0 and "databases in use: none" in out and "checkout     not a checkout" in out


# ----------------------------------------------------------------- fetch
def test_fetch_installs_checked_files_that_the_solver_then_finds(capsys, site, user_cache):
    status, out, err = run(capsys, "db", "fetch", site.url, "--quiet")
    assert status == 0, err
    for file in SITE_FILES:
        assert sha256(user_cache / file) == sha256(STATIC_DB / file), file
        assert site.requests(file) == [None]
    assert f"4 files, {sum((STATIC_DB / f).stat().st_size for f in SITE_FILES) / 1e6:.1f} MB from {site.url}static/db/manifest.json" in out
    assert "bounds they serve: pdb555, wd, wdid" in out
    assert not list(user_cache.glob(".*"))  # no part or temporary file left
    databases.reset()
    assert databases.default_directory() == user_cache
    assert available_bounds(Shape(4, 4)) == ["auto", "pdb555", "wdid", "wd", "id", "lc", "md"]
    assert solve(Board.parse(NEAR_GOAL)).bound == "pdb555"
    _, out, _ = run(capsys, "db", "status", "--json")
    assert {f["file"]: f["state"] for f in json.loads(out)["files"]} == dict.fromkeys(SITE_FILES, "ok")
    # Again: nothing is downloaded; a file damaged since is downloaded again.
    with open(user_cache / "wd-3x3.f15", "r+b") as f:
        f.write(b"X")
    _, out, _ = run(capsys, "db", "status")
    assert "damaged" in out and "not usable: wd-3x3.f15" in out
    status, out, _ = run(capsys, "db", "fetch", site.url, "--quiet")
    assert status == 0 and "already there (sha256 checked): 3 files" in out and "wd-3x3.f15: 919 bytes downloaded" in out
    assert site.requests("pdb-555.f15") == [None] and site.requests("wd-3x3.f15") == [None, None]


def test_a_stopped_download_resumes_where_it_stopped(capsys, site, user_cache):
    size = (STATIC_DB / "wd-4x4.f15").stat().st_size
    site.cut["static/db/wd-4x4.f15"] = 100_000
    status, out, err = run(capsys, "db", "fetch", site.url, "--quiet")
    assert status == 2 and err.count("\n") == 1
    assert f"wd-4x4.f15: the download ended at 100,000 of {size:,} bytes; run again to resume" in err
    assert (user_cache / ".wd-4x4.f15.part").stat().st_size == 100_000
    assert not (user_cache / "manifest.json").exists() and not (user_cache / "pdb-555.f15").exists()  # nothing installed
    status, out, err = run(capsys, "db", "fetch", site.url, "--quiet")
    assert status == 0, err
    assert site.requests("wd-4x4.f15") == [None, "bytes=100000-"]
    assert f"wd-4x4.f15: {size - 100_000:,} bytes downloaded" in out
    assert sha256(user_cache / "wd-4x4.f15") == sha256(STATIC_DB / "wd-4x4.f15")
    assert site.requests("pdb-555.f15") == [None]  # checked in its part, not downloaded again


def test_a_server_without_ranges_sends_the_whole_file_again(capsys, site, user_cache):
    user_cache.mkdir(parents=True)
    (user_cache / ".wd-4x4.f15.part").write_bytes((STATIC_DB / "wd-4x4.f15").read_bytes()[:5000])
    site.ignore_range = True
    status, out, _ = run(capsys, "db", "fetch", site.url, "--quiet")
    assert status == 0 and site.requests("wd-4x4.f15") == ["bytes=5000-"]
    assert f"wd-4x4.f15: {(STATIC_DB / 'wd-4x4.f15').stat().st_size:,} bytes downloaded" in out
    assert sha256(user_cache / "wd-4x4.f15") == sha256(STATIC_DB / "wd-4x4.f15")


def test_a_damaged_download_installs_nothing(capsys, site, user_cache):
    """A file whose bytes differ from the manifest's sha256: removed; the databases installed
    before stay as they were, their manifest too."""
    assert run(capsys, "db", "fetch", site.url, "--quiet")[0] == 0
    before = {p.name: p.read_bytes() for p in user_cache.iterdir()}
    served = site.root / "static" / "db"
    manifest = json.loads((served / "manifest.json").read_text())
    for entry in manifest["assets"]:  # a new build of both files, the second one damaged on the way
        if entry["file"] in ("wd-3x3.f15", "wd-4x4.f15"):
            data = bytearray((served / entry["file"]).read_bytes())
            data[len(data) // 2] ^= 1
            entry["sha256"] = hashlib.sha256(data).hexdigest()
            if entry["file"] == "wd-4x4.f15":
                data[10] ^= 1
            (served / entry["file"]).write_bytes(bytes(data))
    (served / "manifest.json").write_text(json.dumps(manifest))
    status, _, err = run(capsys, "db", "fetch", site.url, "--quiet")
    assert status == 2 and err == (
        f"fifteen: error: {site.url}static/db/wd-4x4.f15: the file differs from the manifest (size or sha256): a damaged copy, removed\n"
    )
    assert {p.name: p.read_bytes() for p in user_cache.iterdir() if p.name != ".wd-3x3.f15.part"} == before
    assert not (user_cache / ".wd-4x4.f15.part").exists()


@pytest.mark.parametrize(
    ("address", "message"),
    [
        (None, "fifteen db fetch needs the address of a copy of the site, e.g. http://127.0.0.1:8000/ for `make dist` served by"),
        ("ftp://example.org/", "'ftp://example.org/' is not the address of a site (an http://, https:// or file:// URL)"),
        ("nothing-here/", "no database manifest at {url}nothing-here/static/db/manifest.json or {url}nothing-here/manifest.json"),
    ],
)
def test_fetch_refuses_what_is_not_a_site_in_one_line(capsys, site, user_cache, address, message):
    if address and "://" not in address:
        address = site.url + address
    status, out, err = run(capsys, "db", "fetch", *([address] if address else []))
    assert status == 2 and err.count("\n") == 1 and err.startswith("fifteen: error: " + message.format(url=site.url)), err
    assert not user_cache.exists()


def test_fetch_takes_the_site_of_fifteen_db_url_and_a_file_url(capsys, site, user_cache, monkeypatch):
    monkeypatch.setenv("FIFTEEN_DB_URL", (site.root / "static" / "db").as_uri() + "/")
    status, out, _ = run(capsys, "db", "fetch", "--quiet")
    assert status == 0 and "4 files" in out
    assert sha256(user_cache / "pdb-555.f15") == sha256(STATIC_DB / "pdb-555.f15")


def test_the_progress_bar_on_a_terminal(site, tmp_path):
    class Terminal(list):
        def write(self, text):
            self.append(text)

        def flush(self):
            pass

        def isatty(self):
            return True

    screen = Terminal()
    bar = assets.TransferBar(screen)
    download.fetch_databases(site.url, tmp_path / "db", progress=bar, planned=bar.plan)
    bar.close()
    total = sum((STATIC_DB / f).stat().st_size for f in SITE_FILES)
    drawn = "".join(screen).split("\r")
    assert drawn[-1].startswith(f"db: [{'#' * 30}] {total / 1e6:.1f}/{total / 1e6:.1f} MB  ") and drawn[-1].endswith("\n")


# ----------------------------------------------------------------- build
def test_build_writes_the_bytes_of_make_db(capsys, tmp_path, monkeypatch):
    """The same builder as ``make db`` (py/dbbuild), from an empty build cache: the same bytes."""
    monkeypatch.setenv("FIFTEEN_DB_CACHE", str(tmp_path / "build-cache"))
    target = tmp_path / "db"
    status, out, _ = run(capsys, "db", "build", "--db", str(target), "--only", "wd-3x3", "explore-3x3")
    assert status == 0 and f"built into {target}" in out and "explore-3x3.f15: built in" in out
    listed = {e["file"]: e for e in json.loads((STATIC_DB / "manifest.json").read_text())["assets"]}
    built = json.loads((target / "manifest.json").read_text())["assets"]
    assert [e["file"] for e in built] == ["wd-3x3.f15", "explore-3x3.f15"]
    for entry in built:
        assert entry == listed[entry["file"]] and sha256(target / entry["file"]) == entry["sha256"]


def test_build_says_what_it_needs_in_one_line(capsys, tmp_path, monkeypatch):
    status, _, err = run(capsys, "db", "build", "--db", str(tmp_path), "--only", "pdb-999")
    assert status == 2 and err.startswith("fifteen: error: unknown database 'pdb-999' (known: pdb-771.f15, ") and err.count("\n") == 1
    monkeypatch.setattr(assets.importlib.util, "find_spec", lambda name: None if name == "numba" else object())
    status, _, err = run(capsys, "db", "build", "--db", str(tmp_path))
    assert (status, err) == (
        2,
        "fifteen: error: fifteen db build needs numba: pip install 'fifteen[build]' (pipx: pipx inject fifteen numpy numba), "
        "or fetch the databases: fifteen db fetch URL\n",
    )


# ----------------------------------------------------------------- without databases
def test_a_4x4_solve_without_databases_says_once_how_to_get_them(tmp_path, monkeypatch, fresh_assets):
    empty = tmp_path / "db"
    empty.mkdir()
    (empty / "manifest.json").write_text('{"format": 1, "assets": []}')
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(PACKAGE_PATH), "FIFTEEN_DB": str(empty)}
    r = subprocess.run([sys.executable, "-m", "fifteen", "solve", NEAR_GOAL, "--quiet"], capture_output=True, text=True, env=env)
    assert r.returncode == 0 and "optimal length: 1" in r.stdout
    assert r.stderr == (
        "fifteen: warning: no pattern databases found: 4x4 searches use wdid, with many times more nodes; get them with "
        "`fifteen db fetch URL` or `fifteen db build` (`fifteen db status` shows where they are looked for)\n"
    )
    r = subprocess.run([sys.executable, "-m", "fifteen", "solve", "1 2 3 4 5 6 7 0 8", "--quiet"], capture_output=True, text=True, env=env)
    assert r.returncode == 0 and r.stderr == ""  # 3x3: no pattern database to miss
    # In a process: said once, by the first 4x4 search that misses them.
    monkeypatch.setenv("FIFTEEN_DB", str(empty))
    monkeypatch.setattr("fifteen.bounds._told_without_databases", False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert solve(Board.parse(NEAR_GOAL)).bound == "wdid" and solve(Board.parse(NEAR_GOAL)).bound == "wdid"
    assert [str(w.message)[:44] for w in caught if w.category is AssetWarning] == ["no pattern databases found: 4x4 searches use"]
    # A pattern database asked for by name: the error says how to get it (on its board only).
    with pytest.raises(InputError) as missing:
        solve(Board.parse(NEAR_GOAL), "pdb771")
    assert str(missing.value) == (
        "bound 'pdb771' is not available for a 4x4 board (available: auto, wdid, wd, id, lc, md); no pattern databases found: "
        "get them with `fifteen db fetch URL` or `fifteen db build` (`fifteen db status` shows where they are looked for)"
    )
    with pytest.raises(InputError, match=r"^bound 'pdb771' is not available for a 3x3 board \(available: auto, wdid, wd, id, lc, md\)$"):
        solve(Board.parse("1 2 3 4 5 6 7 0 8"), "pdb771")
