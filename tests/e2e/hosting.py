"""A static host for the e2e tests of the deployable site (``make dist``).

``PagesHost`` serves one directory under a URL prefix the way GitHub Pages serves a
project site (``https://user.github.io/fifteen/``): ``/fifteen`` redirects to
``/fifteen/``, a directory answers with its ``index.html`` (never a listing), a missing
file inside the site answers 404 with the site's ``404.html``, and anything outside the
prefix is a plain 404.  Like GitHub Pages it sends compressed bodies: a ``NAME.gz``
sibling (``tools/web_dist.py --precompress gzip``) is sent with ``Content-Encoding: gzip``
when the browser accepts it.  Every request is logged (method, path, status, encoding).

Test-only pages can be added with ``extra_files`` (site path -> (content type, bytes));
``extra_headers`` go on every response, and ``POST /csp-report`` collects the JSON
reports of a ``report-uri /csp-report`` directive.
"""

from __future__ import annotations

import atexit
import functools
import http.server
import json
import mimetypes
import shutil
import sys
import tempfile
import threading
import urllib.parse
from dataclasses import dataclass
from pathlib import Path

from .conftest import ROOT, bind_http_server

TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript",
    ".mjs": "text/javascript",
    ".json": "application/json",
    ".css": "text/css",
    ".svg": "image/svg+xml",
    ".wasm": "application/wasm",
    ".webmanifest": "application/manifest+json",
    ".zip": "application/zip",
    ".whl": "application/octet-stream",
    ".f15": "application/octet-stream",
    ".xz": "application/octet-stream",
}


@dataclass
class Hit:
    method: str
    path: str
    status: int
    encoding: str = ""


class _Handler(http.server.BaseHTTPRequestHandler):
    def __init__(self, *args, host: PagesHost, **kw):
        self.host = host
        super().__init__(*args, **kw)

    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass

    def handle(self):
        try:
            super().handle()
        except (ConnectionResetError, BrokenPipeError):
            pass

    def _send(self, status: int, body: bytes, ctype: str, headers: dict[str, str] | None = None, head: bool = False) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for k, v in {**self.host.extra_headers, **(headers or {})}.items():
            self.send_header(k, v)
        self.end_headers()
        if not head:
            self.wfile.write(body)
        self.host.log.append(Hit(self.command, self.path, status, (headers or {}).get("Content-Encoding", "")))

    def do_POST(self):  # noqa: N802 - http.server's name
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if urllib.parse.urlsplit(self.path).path == "/csp-report":
            try:
                self.host.reports.append(json.loads(body or b"null"))
            except ValueError:
                self.host.reports.append({"unparsed": body.decode(errors="replace")})
            self._send(204, b"", "text/plain")
        else:
            self._send(405, b"", "text/plain")

    def do_HEAD(self):  # noqa: N802
        self.do_GET(head=True)

    def do_GET(self, head: bool = False):  # noqa: N802
        prefix = self.host.prefix
        path = urllib.parse.unquote(urllib.parse.urlsplit(self.path).path)
        if path in self.host.extra_files:
            ctype, body = self.host.extra_files[path]
            return self._send(200, body, ctype, head=head)
        if path == prefix.rstrip("/"):
            return self._send(301, b"", "text/plain", {"Location": prefix}, head)
        if not path.startswith(prefix) or "/../" in path + "/" or "\\" in path:
            return self._send(404, b"not found\n", "text/plain", head=head)
        rel = path[len(prefix) :]
        target = self.host.root / rel
        if target.is_dir():
            if rel and not rel.endswith("/"):
                return self._send(301, b"", "text/plain", {"Location": path + "/"}, head)
            target = target / "index.html"
        if not target.is_file():
            page = self.host.root / "404.html"
            body = page.read_bytes() if page.is_file() else b"not found\n"
            return self._send(404, body, TYPES[".html"], head=head)
        ctype = TYPES.get(target.suffix) or mimetypes.guess_type(target.name)[0] or "application/octet-stream"
        headers = {"Vary": "Accept-Encoding"}
        accepted = {e.split(";")[0].strip() for e in self.headers.get("Accept-Encoding", "").split(",")}
        sibling = target.with_name(target.name + ".gz")
        if "gzip" in accepted and sibling.is_file():
            target = sibling
            headers["Content-Encoding"] = "gzip"
        self._send(200, target.read_bytes(), ctype, headers, head)


class PagesHost:
    """Serves *root* under *prefix* on 127.0.0.1 (restartable on the same port)."""

    def __init__(self, root: Path, prefix: str = "/fifteen/", extra_files=None, extra_headers=None):
        assert prefix.startswith("/") and prefix.endswith("/")
        self.root = Path(root)
        self.prefix = prefix
        self.extra_files: dict[str, tuple[str, bytes]] = dict(extra_files or {})
        self.extra_headers: dict[str, str] = dict(extra_headers or {})
        self.log: list[Hit] = []
        self.reports: list[object] = []
        self.port = 0
        self.httpd: http.server.ThreadingHTTPServer | None = None

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def url(self) -> str:
        """The site's address (what ``App`` opens ``index.html`` under)."""
        return self.origin + self.prefix

    def start(self) -> PagesHost:
        self.httpd = bind_http_server(self.port, functools.partial(_Handler, host=self))
        self.port = self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self.httpd:
            self.httpd.shutdown()
            self.httpd.server_close()
            self.httpd = None


@functools.cache
def built_dist(base: str = "/fifteen/", precompress: str = "gzip") -> Path:
    """A fresh ``dist`` built by tools/web_dist.py from the current assets (into a temporary
    directory removed at exit), so the tests never depend on an earlier ``make dist``."""
    sys.path.insert(0, str(ROOT / "tools"))
    import web_dist

    tmp = Path(tempfile.mkdtemp(prefix="fifteen-dist-"))
    atexit.register(shutil.rmtree, tmp, ignore_errors=True)
    out = tmp / "dist"
    web_dist.build(out, base, [e for e in precompress.split(",") if e], log=lambda *_: None)
    return out
