"""The nightly job's HTTP client: pages and files from the regulator's catalogue, fetched politely.

ANTT's catalogue (``https://dados.antt.gov.br``, a CKAN site) publishes a ``robots.txt`` that keeps
crawlers out of ``/api/`` and asks for a pause between requests (``Crawl-Delay``). A job that ignores it
risks being blocked, and the portal would stop updating without anyone noticing why. So the client reads
each host's ``robots.txt`` before its first request there, never asks for a path it forbids, waits the
crawl delay between two requests to the same host (retries and redirects included), and names itself and
a contact in its User-Agent.

The transport is urllib3: a ``PoolManager`` and a ``Retry`` decide what is retried (connection failures,
timeouts, HTTP 408, 429 and 5xx) and how long to wait (the back-off, or the server's ``Retry-After``). Two
things are done here, on top of it:

- redirects are followed one hop at a time, so that every hop is checked against its host's
  ``robots.txt`` and its scheme (only http and https: a redirect to ``ftp://`` or ``file://`` is refused);
- a body that breaks after the headers arrived (a reset, a timeout, fewer bytes than the
  ``Content-Length``) is retried with the same ``Retry`` object, so the same budget and back-off apply:
  urllib3 retries only until the headers arrive.

Every failure is a :class:`DownloadError` whose message (pt-BR) names the URL and the cause, and says
whether it is permanent. A file is streamed into the path the caller gives (a temporary one, to be moved
into place once checked); after any failure that path does not exist.

The client is meant for one job at a time: it is not shared between threads.
"""

from __future__ import annotations

import codecs
import contextlib
import errno
import hashlib
import os
import re
import time
import urllib.robotparser
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from email.message import Message
from itertools import takewhile
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import urllib3
from urllib3.exceptions import (
    ConnectTimeoutError,
    HTTPError,
    LocationValueError,
    MaxRetryError,
    NameResolutionError,
    NewConnectionError,
    ProtocolError,
    ReadTimeoutError,
    SSLError,
)
from urllib3.util import Retry

from ..contract.problems import shown
from ..contract.spelling import number

MiB = 1024 * 1024

# Where a site's operator can find who runs the job. A placeholder: the deployment gives its own page or
# e-mail address (``user_agent("mailto:...")``), as robots.txt etiquette asks.
CONTACT = "https://github.com/"


def user_agent(contact: str = CONTACT) -> str:
    """The User-Agent naming the portal and its nightly job, with ``contact`` (a URL or ``mailto:``)."""
    return f"portal-transporte-rodoviario/nightly (nightly job of the Brazilian bus-transport open-data portal; +{contact})"


USER_AGENT = user_agent()

REDIRECTS = 5  # hops followed from the URL asked for
ROBOTS_LIMIT = 512 * 1024  # robots.txt is read up to here; the rest is ignored (RFC 9309 asks for at least 500 KiB)
MAX_CRAWL_DELAY = 300.0  # a host asking for longer pauses is not crawled: the job would stall for hours
RETRY_AFTER_MAX = 300  # seconds; a longer Retry-After is shortened to this
_CHUNK = 64 * 1024
_REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
_RETRY_STATUSES = frozenset({408, 429, *range(500, 600)})
_DIGITS = re.compile(r"[0-9]+")


class DownloadError(Exception):
    """A page or file could not be fetched. ``permanent``: asking again will fail the same way until someone
    acts (the address is wrong, the site forbids it, the file is too large, the disk is full); otherwise
    the failure may pass on a later run (the server was down, slow or cut the transfer), and the client has
    already retried it."""

    def __init__(self, url: str, cause: str, *, permanent: bool) -> None:
        super().__init__(f"não foi possível baixar {url}: {cause}")
        self.url = url
        self.cause = cause
        self.permanent = permanent


@dataclass(frozen=True)
class Downloaded:
    """A file written whole to ``path``; ``url`` is where it came from after redirects."""

    path: Path
    sha256: str
    bytes: int
    etag: str
    last_modified: str
    url: str


@dataclass(frozen=True)
class NotModified:
    """The server answered 304 to a conditional request: the copy the caller has is current."""

    url: str
    etag: str
    last_modified: str


class _BodyBroken(Exception):
    """The body stopped short after the headers; ``error`` is the urllib3 error counted by the Retry."""

    def __init__(self, cause: str, error: HTTPError) -> None:
        super().__init__(cause)
        self.cause = cause
        self.error = error


class Client:
    """Fetches pages (:meth:`get_text`) and files (:meth:`download`) over HTTP(S).

    ``timeout``: seconds to connect and between two reads; ``retries``: attempts after the first one for a
    transient failure, ``backoff`` seconds before the first retry, doubled each time (never less than the
    host's crawl delay); ``max_bytes``: the largest file accepted; ``max_seconds``: the longest a file may
    take, checked while it streams. ``sleep`` and ``clock`` are injected so that tests can see the waits
    without waiting.
    """

    def __init__(
        self,
        timeout: float = 60.0,
        retries: int = 3,
        backoff: float = 2.0,
        max_bytes: int = 512 * MiB,
        max_seconds: float = 900.0,
        user_agent: str = USER_AGENT,
        sleep: Callable[[float], object] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
        hosts: Iterable[str] | None = None,
    ) -> None:
        if not user_agent.isascii() or not user_agent.isprintable() or not user_agent.strip():
            raise ValueError(f"User-Agent inválido (use só caracteres ASCII visíveis, numa linha): {user_agent!r}")
        self.timeout = timeout
        self.retries = retries
        self.backoff = backoff
        self.max_bytes = max_bytes
        self.max_seconds = max_seconds
        self.user_agent = user_agent
        # the only hosts a request, a redirect or a link may reach (None: any); a redirect elsewhere (to
        # localhost, to another machine of the network) is refused before anything is asked of that host
        self.hosts = None if hosts is None else frozenset(h.lower().rstrip(".") for h in hosts)
        self._sleep = sleep
        self._clock = clock
        self._pool = urllib3.PoolManager(num_pools=4)
        self._robots: dict[str, urllib.robotparser.RobotFileParser | DownloadError] = {}
        self._delay: dict[str, float] = {}  # origin -> seconds between two requests
        self._last: dict[str, float] = {}  # origin -> clock() at the end of the last request
        self._current = ""  # origin of the request under way (the Retry's pauses wait for its host)
        client = self

        class _Retry(Retry):
            """urllib3's Retry whose pauses go through the client (its sleep, its host's crawl delay), and
            whose back-off is ``backoff`` seconds before the first retry, doubled each time."""

            def get_backoff_time(self) -> float:
                failures = len(list(takewhile(lambda h: h.redirect_location is None, reversed(self.history))))
                return 0.0 if failures == 0 else min(self.backoff_max, self.backoff_factor * 2 ** (failures - 1))

            def sleep(self, response=None) -> None:
                wait = self.get_backoff_time()
                if self.respect_retry_after_header and response is not None:
                    wait = self.get_retry_after(response) or wait
                client._pause(wait)

        self._retry_class = _Retry

    # --- public --------------------------------------------------------------------------------------

    def get_text(self, url: str, limit: int = 2 * MiB) -> str:
        """The page at ``url`` as text, decoded by the charset its server declares (UTF-8 when none);
        a page larger than ``limit`` bytes is refused."""

        def read(response, final: str) -> str:
            self._expect_ok(response, url, conditional=False)
            self._declared_length(response, url)
            body = self._read_all(response, url, limit, what="a página")
            return body.decode(_charset(response.headers.get("Content-Type", "")), errors="replace")

        return self._fetch(url, {}, read)

    def download(self, url: str, target: Path, *, etag: str = "", last_modified: str = "") -> Downloaded | NotModified:
        """Stream ``url`` into ``target`` (a temporary path: it is overwritten), computing its SHA-256.

        With ``etag`` or ``last_modified`` (kept from the last download) the request is conditional and a
        304 answer returns :class:`NotModified` without touching ``target``. After any failure ``target``
        does not exist."""
        target = Path(target)
        # a value that cannot be sent as a header (kept state gone bad) makes the request unconditional
        etag, last_modified = (v if _header_safe(v) else "" for v in (etag, last_modified))
        headers = {"Accept-Encoding": "identity"}
        if etag:
            headers["If-None-Match"] = etag
        if last_modified:
            headers["If-Modified-Since"] = last_modified
        conditional = bool(etag or last_modified)
        started: list[float] = []  # when the first answer arrived: the file's time runs from there, retries included

        def save(response, final: str) -> Downloaded | NotModified:
            if self._expect_ok(response, url, conditional) == 304:
                return NotModified(final, response.headers.get("ETag", etag),
                                   response.headers.get("Last-Modified", last_modified))
            started[:] = started or [self._clock()]
            return self._save(response, url, final, target, started[0])

        try:
            return self._fetch(url, headers, save)
        except BaseException:
            with contextlib.suppress(OSError):
                target.unlink(missing_ok=True)
            raise

    # --- one request, its redirects and its retries --------------------------------------------------

    def _fetch(self, url: str, headers: dict[str, str], consume: Callable, *, robots: bool = True):
        """``consume(response, final_url)`` on the answer to ``url``; a body that breaks midway is asked
        for again (the Retry's budget and back-off), from the first URL."""
        retry, backoff = self._new_retry(), 0.0
        while True:
            response, final, retry = self._open(url, headers, retry, robots=robots, backoff=backoff)
            try:
                return consume(response, final)
            except _BodyBroken as exc:
                try:
                    retry = retry.increment("GET", final, error=exc.error)
                except MaxRetryError:
                    raise DownloadError(url, f"{exc.cause} ({_attempts(self.retries + 1)})", permanent=False) from None
                backoff = retry.get_backoff_time()
            finally:
                _close(response)
                self._last[_origin(final)] = self._clock()

    def _open(self, url: str, headers: dict[str, str], retry: Retry, *, robots: bool, backoff: float = 0.0):
        """The first answer to ``url`` that is not a redirect: (response, its URL, the Retry's state); the
        first request waits at least ``backoff`` seconds (a retry)."""
        current = url
        for hop in range(REDIRECTS + 1):
            parts = _split(current)
            if parts is None:
                if hop:
                    raise DownloadError(url, f"o servidor redirecionou para {shown(current)}, que não é um endereço http(s)",
                                        permanent=True)
                raise DownloadError(url, "o endereço deve começar com http:// ou https://", permanent=True)
            host = (parts.hostname or "").lower().rstrip(".")
            if self.hosts is not None and host not in self.hosts:
                said = "o servidor redirecionou para" if hop else "o endereço é de"
                raise DownloadError(url, f"{said} outro servidor, {shown(host)}, que a configuração não autoriza "
                                         f"(servidores autorizados: {', '.join(sorted(self.hosts))})", permanent=True)
            origin = _origin(current)
            if robots:
                self._check_robots(url, current)
            self._wait_turn(origin, 0.0 if hop else backoff)
            self._current = origin
            try:
                response = self._pool.urlopen(
                    "GET", current, headers={"User-Agent": self.user_agent, **headers}, retries=retry, redirect=False, preload_content=False,
                    timeout=urllib3.Timeout(connect=self.timeout, read=self.timeout))
            except MaxRetryError as exc:
                raise DownloadError(url, f"{_network_cause(exc.reason, self.timeout)} ({_attempts(self.retries + 1)})",
                                    permanent=False) from None
            except LocationValueError:
                raise DownloadError(url, f"endereço inválido: {shown(current)}", permanent=True) from None
            except HTTPError as exc:
                raise DownloadError(url, _network_cause(exc, self.timeout), permanent=False) from None
            finally:
                self._last[origin] = self._clock()
            retry = response.retries or retry
            if response.status not in _REDIRECT_STATUSES:
                return response, current, retry
            location = response.headers.get("Location", "")
            _close(response)
            if not location.strip():
                raise DownloadError(url, f"o servidor respondeu HTTP {response.status} (redirecionamento) sem dizer "
                                         "para onde", permanent=True)
            current = urljoin(current, location.strip())
        raise DownloadError(url, f"mais de {REDIRECTS} redirecionamentos (o último para {shown(current)})", permanent=True)

    def _new_retry(self) -> Retry:
        return self._retry_class(
            total=self.retries, connect=self.retries, read=self.retries, status=self.retries,
            status_forcelist=_RETRY_STATUSES, backoff_factor=self.backoff, raise_on_status=False,
            raise_on_redirect=False, retry_after_max=RETRY_AFTER_MAX)

    # --- politeness ----------------------------------------------------------------------------------

    def _check_robots(self, url: str, current: str) -> None:
        """Refuse ``current`` (asked for as ``url``) when its host's robots.txt forbids it; the first
        request to a host reads its robots.txt."""
        origin = _origin(current)
        rules = self._robots.get(origin)
        if rules is None:
            rules = self._robots[origin] = self._read_robots(url, origin)
        if isinstance(rules, DownloadError):
            raise DownloadError(url, rules.cause, permanent=rules.permanent)
        if not rules.can_fetch(self.user_agent, current):
            parts = urlsplit(current)
            path = parts.path or "/"
            if parts.query:
                path += "?" + parts.query
            raise DownloadError(url, f"o robots.txt de {parts.netloc} não permite {path}", permanent=True)

    def _read_robots(self, url: str, origin: str) -> urllib.robotparser.RobotFileParser | DownloadError:
        """The parsed robots.txt of ``origin``, or the error that refuses the host (kept for the next
        requests): unreachable (5xx, network), the host is not crawled; absent (4xx), everything is
        allowed, as RFC 9309 says."""
        host = urlsplit(origin).netloc
        parser = urllib.robotparser.RobotFileParser(origin + "/robots.txt")

        def read(response, final: str) -> list[str]:
            if 400 <= response.status < 500 and response.status not in (408, 429):
                return []
            self._expect_ok(response, url, conditional=False)
            return self._read_all(response, url, ROBOTS_LIMIT, what="", truncate=True).decode(
                "utf-8", errors="replace").splitlines()

        try:
            lines = self._fetch(origin + "/robots.txt", {}, read, robots=False)
        except DownloadError as exc:
            return DownloadError(url, f"o robots.txt de {host} não pôde ser lido: {exc.cause}; sem ele o portal não "
                                      "baixa nada desse servidor", permanent=False)
        parser.parse(lines)
        delay = float(parser.crawl_delay(self.user_agent) or 0)
        rate = parser.request_rate(self.user_agent)
        if rate and rate.requests > 0:
            delay = max(delay, rate.seconds / rate.requests)
        if delay > MAX_CRAWL_DELAY:
            return DownloadError(url, f"o robots.txt de {host} pede {delay:g} s entre pedidos, acima dos "
                                      f"{MAX_CRAWL_DELAY:g} s que o job aceita esperar", permanent=True)
        self._delay[origin] = delay
        return parser

    def _wait_turn(self, origin: str, at_least: float = 0.0) -> None:
        """Sleep until the crawl delay has passed since the last request to ``origin`` (and ``at_least``)."""
        last = self._last.get(origin)
        wait = at_least if last is None else max(at_least, last + self._delay.get(origin, 0.0) - self._clock())
        if wait > 0:
            self._sleep(wait)

    def _pause(self, seconds: float) -> None:
        """The pause before a retry: the back-off (or Retry-After), at least the host's crawl delay."""
        wait = max(seconds, self._delay.get(self._current, 0.0))
        if wait > 0:
            self._sleep(wait)

    # --- answers and bodies --------------------------------------------------------------------------

    def _expect_ok(self, response, url: str, conditional: bool) -> int:
        """The status when usable (200, or 304 to a conditional request); otherwise the error."""
        status = response.status
        if status == 200 or (status == 304 and conditional):
            return status
        if status == 304:
            raise DownloadError(url, "o servidor respondeu HTTP 304 (não modificado) a um pedido que não era "
                                     "condicional", permanent=True)
        if status in _RETRY_STATUSES:
            tries = len(response.retries.history) + 1 if response.retries else 1
            raise DownloadError(url, f"o servidor respondeu HTTP {status} ({_attempts(tries)})", permanent=False)
        meaning = {401: "acesso não autorizado", 403: "acesso proibido", 404: "o endereço não existe no servidor",
                   410: "o endereço foi retirado do servidor"}.get(status, "resposta inesperada")
        raise DownloadError(url, f"{meaning} (HTTP {status})", permanent=True)

    def _declared_length(self, response, url: str) -> int | None:
        """The ``Content-Length`` as a number (None when absent or with chunked transfer); a value that is
        not a non-negative integer is refused."""
        value = response.headers.get("Content-Length")
        if value is None or "chunked" in response.headers.get("Transfer-Encoding", "").lower():
            return None
        values = {v.strip() for v in value.split(",")}
        if len(values) != 1 or not _DIGITS.fullmatch(next(iter(values))):
            raise DownloadError(url, f"o servidor declarou um tamanho inválido (Content-Length {shown(value)})",
                                permanent=True)
        return int(values.pop())

    def _read_all(self, response, url: str, limit: int, *, what: str, truncate: bool = False) -> bytes:
        """The whole body, up to ``limit`` bytes (beyond it: cut when ``truncate``, else refused)."""
        parts, size = [], 0
        while chunk := self._read1(response):
            parts.append(chunk)
            size += len(chunk)
            if size > limit:
                if truncate:
                    break
                raise DownloadError(url, f"{what} passa do limite de {_size(limit)}", permanent=True)
        return b"".join(parts)[:limit]

    def _read1(self, response, declared: int | None = None) -> bytes:
        """The next piece of the body as soon as some arrives (so the clock is checked on a slow server);
        a broken body raises :class:`_BodyBroken`."""
        try:
            return response.read1(_CHUNK)
        except ReadTimeoutError as exc:
            raise _BodyBroken(f"sem resposta dentro do tempo limite ({self.timeout:g} s) no meio da transferência, "
                              f"com {number(response.tell())} bytes recebidos", exc) from None
        except (ProtocolError, HTTPError, OSError) as exc:
            if declared is None:
                declared = _length_or_none(response)
            error = exc if isinstance(exc, ProtocolError) else ProtocolError(str(exc))
            if declared is not None:
                raise _BodyBroken(f"download truncado: {number(response.tell())} de {number(declared)} bytes",
                                  error) from None
            raise _BodyBroken(f"conexão interrompida no meio da transferência, com {number(response.tell())} "
                              "bytes recebidos", error) from None

    def _save(self, response, url: str, final: str, target: Path, started: float) -> Downloaded:
        declared = self._declared_length(response, url)
        if declared is not None and declared > self.max_bytes:
            raise DownloadError(url, f"o arquivo tem {number(declared)} bytes, acima do limite de "
                                     f"{_size(self.max_bytes)}", permanent=True)
        digest, size = hashlib.sha256(), 0
        try:
            with open(target, "wb") as fh:
                while chunk := self._read1(response, declared):
                    size += len(chunk)
                    if size > self.max_bytes:
                        raise DownloadError(url, f"o arquivo passa do limite de {_size(self.max_bytes)}",
                                            permanent=True)
                    if self._clock() - started > self.max_seconds:
                        raise DownloadError(url, f"o download passou de {self.max_seconds:g} s, o limite por "
                                                 f"arquivo ({number(size)} bytes recebidos); não foi repetido",
                                            permanent=False)
                    digest.update(chunk)
                    fh.write(chunk)
                fh.flush()
                os.fsync(fh.fileno())
        except OSError as exc:
            raise DownloadError(url, _disk_cause(exc, target), permanent=True) from None
        received = response.tell()
        if declared is not None and received != declared:  # urllib3 raises first; kept as the last word
            raise _BodyBroken(f"download truncado: {number(received)} de {number(declared)} bytes",
                              ProtocolError("short body"))
        return Downloaded(target, digest.hexdigest(), size, response.headers.get("ETag", ""),
                          response.headers.get("Last-Modified", ""), final)


# --- helpers ---------------------------------------------------------------------------------------------


def _split(url: str):
    """``urlsplit(url)`` when it is an http(s) URL with a host, else None."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError on a bad port
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        return None
    return parts


def _close(response) -> None:
    """Done with ``response``: its connection is closed, not kept (with a crawl delay between requests a
    kept connection would idle out anyway, and one with a body left unread must not be reused)."""
    with contextlib.suppress(Exception):
        response.close()
    with contextlib.suppress(Exception):
        response.release_conn()


def _header_safe(value: str) -> bool:
    return value.isascii() and value.isprintable()


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}"


def _charset(content_type: str) -> str:
    message = Message()
    message["Content-Type"] = content_type or "text/html"
    charset = message.get_content_charset() or "utf-8"
    try:
        codecs.lookup(charset)
    except LookupError:
        return "utf-8"
    return charset


def _length_or_none(response) -> int | None:
    value = (response.headers.get("Content-Length") or "").strip()
    return int(value) if _DIGITS.fullmatch(value) else None


def _attempts(n: int) -> str:
    return "1 tentativa" if n == 1 else f"{n} tentativas"


def _size(n: int) -> str:
    return f"{n // MiB} MiB" if n % MiB == 0 else f"{number(n)} bytes"


def _network_cause(exc: BaseException | None, timeout: float) -> str:
    """A urllib3 failure in pt-BR words."""
    if isinstance(exc, NameResolutionError):
        return "o nome do servidor não foi encontrado (DNS)"
    if isinstance(exc, NewConnectionError):
        if isinstance(exc.__cause__, ConnectionRefusedError) or "refused" in str(exc).lower():
            return "servidor fora do ar (conexão recusada)"
        return "não foi possível conectar ao servidor"
    if isinstance(exc, ConnectTimeoutError):
        return f"sem resposta ao conectar dentro do tempo limite ({timeout:g} s)"
    if isinstance(exc, ReadTimeoutError):
        return f"sem resposta dentro do tempo limite ({timeout:g} s)"
    if isinstance(exc, SSLError):
        return "falha na conexão segura (TLS/certificado)"
    if isinstance(exc, ProtocolError):
        return "conexão interrompida pelo servidor"
    return f"falha de rede ({type(exc).__name__})"


def _disk_cause(exc: OSError, target: Path) -> str:
    reason = {
        errno.ENOSPC: "disco cheio",
        errno.EDQUOT: "cota de disco esgotada",
        errno.EACCES: "sem permissão de escrita",
        errno.EPERM: "sem permissão de escrita",
        errno.EROFS: "o sistema de arquivos é somente leitura",
        errno.ENOENT: "a pasta não existe",
        errno.EISDIR: "o caminho é uma pasta",
    }.get(exc.errno, f"erro de E/S nº {exc.errno}" if exc.errno else "erro de E/S")
    return f"não foi possível gravar {target}: {reason}"
