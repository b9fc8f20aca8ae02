"""A local stand-in for the regulator's CKAN catalogue (``dados.antt.gov.br``), on 127.0.0.1.

Written by the project for its tests: every page, file and robots.txt it serves is made up here (no real
ANTT file is served or copied). The dataset pages follow the markup of CKAN's own templates
(``package/read.html``, ``package/snippets/resources_list.html`` and ``resource_item.html``, CKAN 2.10 and
2.11, rendered by hand here with pt-BR labels), so the page reader is tested against the shape the real
catalogue renders; downloads live where CKAN puts uploads,
``/dataset/<dataset id>/resource/<resource id>/download/<file name>``.

Use it as a context manager (a fixture can ``yield`` it)::

    with Standin({"gerenciamento-de-autorizacoes": [("Horários", "09-2026_horarios_sigma.csv", b"...")]}) as site:
        site.page_url("gerenciamento-de-autorizacoes")       # http://127.0.0.1:<port>/dataset/gerenciamento-...
        site.download_url("gerenciamento-de-autorizacoes", "09-2026_horarios_sigma.csv")
        site.behave("/dataset/.../download/x.csv", status=503, times=2)   # then normal answers
        site.requests                                         # what it received: path, headers, time

Per-path behaviours (:class:`Behaviour`): a status code (for the first ``times`` requests or always), a
``Content-Length`` that lies (``"half"`` of the body, ``"abc"``, or left out), a body cut short, a
redirect, a delay before answering, extra headers. Files answer with ``ETag`` and ``Last-Modified`` and
honour ``If-None-Match``/``If-Modified-Since`` with 304. Every request is recorded (:attr:`requests`).
"""

from __future__ import annotations

import hashlib
import html
import sys
import threading
import time
import uuid
from dataclasses import dataclass, field
from email.utils import formatdate, parsedate_to_datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import quote, urlsplit

DEFAULT_ROBOTS = "User-agent: *\nDisallow: /api/\nCrawl-delay: 10\n"
LAST_MODIFIED = formatdate(1_788_000_000, usegmt=True)  # a fixed date in September 2026
_NAMESPACE = uuid.UUID("6f1c6f64-4f1b-4a0e-9d55-3a6f0d2b7c11")  # the stand-in's ids are uuid5 in here


@dataclass
class Behaviour:
    """How the stand-in answers one path instead of (or on top of) its normal answer."""

    status: int | None = None  # answered with a short body (302 when only ``location`` is given)
    times: int | None = None  # only the first ``times`` requests get this behaviour; None: all
    content_length: str | None = None  # sent as is ("abc"), "half" (half the body's size), "" (left out)
    truncate: int | None = None  # only the first bytes of the body are sent (the header keeps the full size)
    location: str = ""  # a redirect to this (absolute, or a path on the stand-in)
    delay: float = 0.0  # seconds before answering
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes | None = None  # replaces the body


@dataclass(frozen=True)
class Received:
    """A request the stand-in received."""

    method: str
    path: str
    headers: dict[str, str]
    time: float  # time.monotonic() on arrival


class Standin:
    """The stand-in server: ``datasets`` maps a dataset slug to its resources (name, file name, bytes);
    ``robots`` is the robots.txt served (None: 404); ``pages`` maps other paths to HTML served as is."""

    def __init__(self, datasets: dict[str, list[tuple[str, str, bytes]]] | None = None, *,
                 robots: str | None = DEFAULT_ROBOTS, pages: dict[str, str] | None = None) -> None:
        self.datasets = dict(datasets or {})
        self.robots = robots
        self.pages = dict(pages or {})
        self.behaviours: dict[str, Behaviour] = {}
        self.requests: list[Received] = []
        self._answered: dict[str, int] = {}
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None

    # --- lifecycle -----------------------------------------------------------------------------------

    def __enter__(self) -> Standin:
        standin = self

        class Handler(_Handler):
            site = standin

        self._server = _Server(("127.0.0.1", 0), Handler)
        threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True).start()
        return self

    def __exit__(self, *exc) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    # --- addresses -----------------------------------------------------------------------------------

    @property
    def base(self) -> str:
        assert self._server is not None, "the stand-in is not running (use it in a with block)"
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    @property
    def host(self) -> str:
        return self.base.split("://", 1)[1]

    def url(self, path: str) -> str:
        return self.base + path

    def page_url(self, slug: str) -> str:
        return f"{self.base}/dataset/{slug}"

    @staticmethod
    def dataset_id(slug: str) -> str:
        return str(uuid.uuid5(_NAMESPACE, slug))

    @staticmethod
    def resource_id(slug: str, file: str) -> str:
        return str(uuid.uuid5(_NAMESPACE, f"{slug}/{file}"))

    @staticmethod
    def download_path(slug: str, file: str) -> str:
        return f"/dataset/{Standin.dataset_id(slug)}/resource/{Standin.resource_id(slug, file)}/download/{quote(file)}"

    def download_url(self, slug: str, file: str) -> str:
        return self.base + self.download_path(slug, file)

    @staticmethod
    def etag(body: bytes) -> str:
        return '"' + hashlib.sha256(body).hexdigest()[:16] + '"'

    # --- behaviours and what was received ------------------------------------------------------------

    def behave(self, path_or_url: str, **kwargs) -> Behaviour:
        """Set how ``path_or_url`` is answered (the fields of :class:`Behaviour`)."""
        path = urlsplit(path_or_url).path if "://" in path_or_url else path_or_url
        behaviour = self.behaviours[path] = Behaviour(**kwargs)
        return behaviour

    def paths(self) -> list[str]:
        """The paths requested, in order."""
        return [r.path for r in self.requests]

    def _record(self, handler: BaseHTTPRequestHandler) -> int:
        with self._lock:
            self.requests.append(Received(handler.command, handler.path, dict(handler.headers.items()),
                                          time.monotonic()))
            path = urlsplit(handler.path).path
            self._answered[path] = self._answered.get(path, 0) + 1
            return self._answered[path]

    def _file(self, path: str) -> bytes | None:
        for slug, items in self.datasets.items():
            for _, file, body in items:
                if self.download_path(slug, file) == path:
                    return body
        return None

    def render(self, slug: str) -> str:
        """The dataset page in CKAN's markup (package/read.html with its resource list)."""
        items = []
        for name, file, _ in self.datasets[slug]:
            rid = self.resource_id(slug, file)
            fmt = file.rsplit(".", 1)[-1].upper() if "." in file else ""
            page = f"/dataset/{slug}/resource/{rid}"
            shown = name if len(name) <= 50 else name[:47] + "..."
            items.append(f"""
          <li class="resource-item" data-id="{rid}">
            <a class="heading" href="{page}" title="{html.escape(name)}" aria-label="Navegar para o recurso: {html.escape(name)}">
              {html.escape(shown)}<span class="format-label" property="dc:format" data-format="{fmt.lower() or 'data'}">{fmt}</span>
            </a>
            <p class="description">
              Arquivo fictício gerado pelos testes do portal.
            </p>
            <div class="dropdown btn-group">
              <a href="#" class="btn btn-primary dropdown-toggle" type="button" id="dropdownExplorer" data-bs-toggle="dropdown" aria-expanded="false">
                <i class="fa fa-share"></i>
                Explorar
                <span class="caret"></span>
              </a>
              <ul class="dropdown-menu" aria-labelledby="dropdownExplorer">
                <li>
                  <a class="dropdown-item" href="{page}">
                    <i class="fa fa-info-circle"></i>
                    Mais informações
                  </a>
                </li>
                <li>
                  <a class="dropdown-item resource-url-analytics" href="{self.download_url(slug, file)}" target="_blank" rel="noreferrer">
                    <i class="fa fa-arrow-circle-down"></i>
                    Baixar
                  </a>
                </li>
              </ul>
            </div>
          </li>""")
        listing = (f'<ul class="resource-list">{"".join(items)}\n        </ul>' if items
                   else '<p class="empty">Este conjunto de dados não possui dados</p>')
        return f"""<!DOCTYPE html>
<html lang="pt-BR">
  <head><meta charset="utf-8"><title>{slug} - Conjunto de dados - Dados Abertos (stand-in de teste)</title></head>
  <body>
    <header class="masthead"><a class="logo" href="/">Dados Abertos (stand-in de teste, escrito pelo projeto)</a>
      <nav><ul><li><a href="/dataset/">Conjuntos de dados</a></li><li><a href="/api/3/action/package_list">API</a></li></ul></nav>
    </header>
    <div role="main">
      <article class="module">
        <div class="module-content">
          <h1>{slug}</h1>
          <div class="notes embedded-content"><p>Conjunto fictício servido pelos testes.</p></div>
          <section id="dataset-resources" class="resources">
            <h2>Dados e Recursos</h2>
        {listing}
          </section>
        </div>
      </article>
    </div>
  </body>
</html>
"""


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address) -> None:
        """A client that hangs up (as the client under test does when it refuses an answer) is not news."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as the catalogue's web server does
    site: Standin

    def log_message(self, format, *args):  # noqa: A002 - the stdlib's name
        pass

    def do_GET(self):  # noqa: N802 - the stdlib's name
        nth = self.site._record(self)
        path = urlsplit(self.path).path
        behaviour = self.site.behaviours.get(path)
        if behaviour and behaviour.times is not None and nth > behaviour.times:
            behaviour = None
        behaviour = behaviour or Behaviour()
        if behaviour.delay:
            time.sleep(behaviour.delay)
        if behaviour.location:
            target = behaviour.location
            self._answer(behaviour.status or 302, b"", {"Location": target, **behaviour.headers}, behaviour)
            return
        if behaviour.status is not None and behaviour.status != 200:
            body = f"HTTP {behaviour.status} (stand-in)\n".encode() if behaviour.status != 304 else b""
            self._answer(behaviour.status, body, behaviour.headers, behaviour)
            return
        content_type, body, headers = self._normal(path)
        if body is None:
            self._answer(404, b"<html><body><h1>404 N\xc3\xa3o encontrado</h1></body></html>",
                         {"Content-Type": "text/html; charset=utf-8", **behaviour.headers}, behaviour)
            return
        if behaviour.body is not None:
            body = behaviour.body
            headers["ETag"] = Standin.etag(body)
        if "ETag" in headers and self._unchanged(headers):
            self._answer(304, b"", {"ETag": headers["ETag"], "Last-Modified": headers["Last-Modified"]}, Behaviour())
            return
        self._answer(200, body, {"Content-Type": content_type, **headers, **behaviour.headers}, behaviour)

    def _normal(self, path: str) -> tuple[str, bytes | None, dict[str, str]]:
        site = self.site
        if path == "/robots.txt":
            return ("text/plain; charset=utf-8", None if site.robots is None else site.robots.encode(), {})
        if path in site.pages:
            return "text/html; charset=utf-8", site.pages[path].encode(), {}
        if path.startswith("/dataset/"):
            slug = path[len("/dataset/"):].strip("/")
            by_id = {Standin.dataset_id(s): s for s in site.datasets}
            slug = by_id.get(slug, slug)
            if slug in site.datasets:
                return "text/html; charset=utf-8", site.render(slug).encode(), {}
            body = site._file(path)
            if body is not None:
                return ("text/csv" if path.endswith(".csv") else "application/octet-stream", body,
                        {"ETag": Standin.etag(body), "Last-Modified": LAST_MODIFIED})
        return "text/html", None, {}

    def _unchanged(self, headers: dict[str, str]) -> bool:
        match = self.headers.get("If-None-Match")
        if match is not None:
            return headers["ETag"] in [m.strip() for m in match.split(",")] or match.strip() == "*"
        since = self.headers.get("If-Modified-Since")
        if since:
            try:
                return parsedate_to_datetime(headers["Last-Modified"]) <= parsedate_to_datetime(since)
            except (TypeError, ValueError):
                return False
        return False

    def _answer(self, status: int, body: bytes, headers: dict[str, str], behaviour: Behaviour) -> None:
        self.send_response(status)
        length = behaviour.content_length
        lying = length is not None or behaviour.truncate is not None
        if length is None:
            length = str(len(body))
        elif length == "half":
            length = str(len(body) // 2)
        if length != "" and status != 304:
            self.send_header("Content-Length", length)
        for key, value in headers.items():
            self.send_header(key, value)
        if lying or length == "":
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        if status == 304:
            return
        if behaviour.truncate is not None:
            body = body[:behaviour.truncate]
        try:
            self.wfile.write(body)
            self.wfile.flush()
        except OSError:  # the client went away (it refused the answer): nothing to do
            self.close_connection = True
