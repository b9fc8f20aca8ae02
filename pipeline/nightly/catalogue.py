"""Reading a dataset page of the regulator's CKAN catalogue (``https://dados.antt.gov.br/dataset/<slug>``).

The catalogue's API lives under ``/api/``, which its ``robots.txt`` closes to crawlers; the dataset pages
are open, and list each resource with its name and its download link. A monthly resource gets a new
resource id and a new file name every month (``09-2026_horarios_sigma.csv``), so a URL kept in the
configuration would stay on one month: the nightly job reads the page, finds the resources whose file
names follow a pattern, and takes the newest period.

The page is parsed with the standard library's ``html.parser`` in the markup of CKAN's own templates
(``package/snippets/resource_item.html``): each resource is an ``<li class="resource-item">`` holding a
title link (``<a class="heading">``, whose ``title`` carries the full name in CKAN 2.9 and 2.10, and whose
text is cut to 50 characters and followed by the format label ``<span class="format-label">``) and, in
its "Explorar" menu, the download link (``<a class="resource-url-analytics">``). Any other link whose path
has a ``/download/`` segment is kept too, named by its text, so a changed theme still yields the files.

Patterns are regular expressions matched whole against the file name at the end of the download URL
(percent-decoded), with the named groups ``ano`` and ``mes`` (or ``ano`` alone, or none for a fixed
name). Those of the files the portal reads are below.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html.parser import HTMLParser
from urllib.parse import unquote, urljoin, urlsplit, urlunsplit

# Dataset "gerenciamento-de-autorizacoes" (SIGMA): one file per month and per table, MM-AAAA_<nome>_sigma.csv
SIGMA_SECOES = r"(?P<mes>\d{2})-(?P<ano>\d{4})_empresas_linhas_secoes_sigma\.csv"
SIGMA_HORARIOS = r"(?P<mes>\d{2})-(?P<ano>\d{4})_horarios_sigma\.csv"
SIGMA_PONTOS = r"(?P<mes>\d{2})-(?P<ano>\d{4})_pontos_do_esquema_operacional_sigma\.csv"
SIGMA_PARALISADOS = r"(?P<mes>\d{2})-(?P<ano>\d{4})_servicos_paralisados_sigma\.csv"
SIGMA_HISTORICO = r"(?P<mes>\d{2})-(?P<ano>\d{4})_linhas_historico_sigma\.csv"
# Dataset "empresas-habilitadas"; the file is also published without a date (a fixed name, period "")
EMPRESAS_HABILITADAS = r"empresas_habilitadas_regular_(?P<mes>\d{2})_(?P<ano>\d{4})\.csv"
EMPRESAS_HABILITADAS_SEM_DATA = r"empresas_habilitadas_regular\.csv"
EMPRESAS_SEMIURBANO = r"empresas_semiurbano_(?P<mes>\d{2})_(?P<ano>\d{4})\.csv"
# Dataset "monitriip-bilhetes-de-passagem": tickets sold, one file per month
VENDA_PASSAGEM = r"venda_passagem_(?P<mes>\d{2})_(?P<ano>\d{4})\.csv"

_SHOWN = 10  # file names listed when none matches
_NAME_LIMIT = 300  # characters kept of a name (a title link left open must not swallow the page)


class CatalogueError(Exception):
    """The page does not give one file for the pattern; the message (pt-BR) names the page and why."""


@dataclass(frozen=True)
class Resource:
    """A resource listed on a dataset page: its name as shown and its absolute download URL."""

    name: str
    url: str


def file_name(url: str) -> str:
    """The file name at the end of ``url``'s path, percent-decoded."""
    return unquote(urlsplit(url).path.rsplit("/", 1)[-1])


def resources(html: str, page_url: str) -> list[Resource]:
    """The resources listed on the dataset page ``html`` (fetched from ``page_url``, against which links
    are resolved), in page order and each URL once: the CKAN resource items first, then any other
    ``/download/`` link. Only http(s) URLs are kept, on any host (a CKAN resource may link elsewhere);
    a ``<base>`` element is not followed: links resolve against ``page_url``."""
    parser = _Page()
    try:
        parser.feed(html)
        parser.close()
    except Exception as exc:  # html.parser is lenient; a failure inside it must not become a traceback
        raise CatalogueError(f"a página {page_url} não pôde ser lida como HTML ({type(exc).__name__})") from None
    found: dict[str, Resource] = {}
    for name, href in parser.items:
        url = _absolute(href, page_url)
        if url and url not in found:
            found[url] = Resource(name or file_name(url), url)
    for text, href in parser.links:
        url = _absolute(href, page_url)
        if url and url not in found and "download" in urlsplit(url).path.split("/"):
            found[url] = Resource(text or file_name(url), url)
    return list(found.values())


def newest(found: list[Resource], pattern: str, page_url: str) -> tuple[Resource, str]:
    """The resource whose file name matches ``pattern`` (whole) for the newest period, and that period as
    ``AAAA-MM`` (groups ``ano`` and ``mes``), ``AAAA`` (``ano`` alone) or ``""`` (no group: a fixed
    name). Refused, naming what was seen: no file matches; two files share the newest period; a matched
    month or year that is not one.

    >>> page = "https://dados.antt.gov.br/dataset/gerenciamento-de-autorizacoes"
    >>> files = [Resource("Horários", f"{page}/resource/1/download/08-2026_horarios_sigma.csv"),
    ...          Resource("Horários", f"{page}/resource/2/download/09-2026_horarios_sigma.csv")]
    >>> newest(files, SIGMA_HORARIOS, page)[1]
    '2026-09'
    """
    try:
        rx = re.compile(pattern)
    except re.error as exc:
        raise CatalogueError(f"o padrão {pattern!r} não é uma expressão regular válida ({exc})") from None
    if "mes" in rx.groupindex and "ano" not in rx.groupindex:
        raise CatalogueError(f"o padrão {pattern!r} tem o grupo mes mas não o grupo ano")
    by_period: dict[str, list[Resource]] = {}
    seen: dict[str, None] = {}
    for resource in {r.url: r for r in found}.values():
        name = file_name(resource.url)
        seen[name] = None
        match = rx.fullmatch(name)
        if match:
            by_period.setdefault(_period(match, name, page_url), []).append(resource)
    if not by_period:
        names = list(seen)
        shown = ", ".join(names[:_SHOWN]) + (f" e mais {len(names) - _SHOWN}" if len(names) > _SHOWN else "")
        raise CatalogueError(
            f"nenhum arquivo de {page_url} tem nome no padrão {pattern}; arquivos na página: {shown}" if names
            else f"a página {page_url} não lista nenhum arquivo para baixar (procurado o padrão {pattern})")
    period = max(by_period)
    chosen = by_period[period]
    if len(chosen) > 1:
        both = " e ".join(f'"{r.name}" ({r.url})' for r in chosen[:2])
        which = f"o período {period}" if period else "o mesmo nome"
        raise CatalogueError(f"{page_url} lista {len(chosen)} arquivos para {which}: {both}; o portal não "
                             "escolhe entre eles")
    return chosen[0], period


def _period(match: re.Match, name: str, page_url: str) -> str:
    groups = match.groupdict()
    if "ano" not in groups:
        return ""
    year = groups["ano"] or ""
    if not re.fullmatch(r"[0-9]{4}", year):
        raise CatalogueError(f"o arquivo {name} de {page_url} casa com o padrão, mas o ano {year!r} não tem quatro "
                             "algarismos")
    if "mes" not in groups:
        return year
    month = groups["mes"] or ""
    if not re.fullmatch(r"[0-9]{1,2}", month) or not 1 <= int(month) <= 12:
        raise CatalogueError(f"o arquivo {name} de {page_url} casa com o padrão, mas o mês {month!r} não existe")
    return f"{year}-{int(month):02d}"


def _absolute(href: str, page_url: str) -> str:
    """``href`` resolved against the page, without its fragment; "" unless http(s) with a host."""
    try:
        parts = urlsplit(urljoin(page_url, href.strip()))
    except ValueError:
        return ""
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        return ""
    return urlunsplit((parts.scheme, parts.netloc, parts.path, parts.query, ""))


def _clean(text: str) -> str:
    return " ".join(text.split())[:_NAME_LIMIT]


class _Page(HTMLParser):
    """Collects ``items`` (name, download href) from CKAN resource items and ``links`` (text, href) of every
    link. Tolerant: tags left open end at the next item (or link), and text in scripts is not read."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.items: list[tuple[str, str]] = []
        self.links: list[tuple[str, str]] = []
        self._item: dict | None = None  # the resource item being read
        self._li_depth = 0  # <li> open inside it (the menu's items), itself included
        self._anchor: dict | None = None  # the link being read
        self._span_depth = 0  # spans open inside the link (the format label is not part of the name)
        self._raw = 0  # inside <script> or <style>

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values: dict[str, str] = {}
        for key, value in attrs:
            values.setdefault(key, value or "")
        classes = values.get("class", "").split()
        if tag in ("script", "style"):
            self._raw += 1
        elif tag == "li":
            if "resource-item" in classes:
                self._end_item()
                self._item = {"title": "", "text": None, "href": "", "heading": False}
                self._li_depth = 1
            elif self._item is not None:
                self._li_depth += 1
        elif tag == "a":
            self._end_anchor()
            self._anchor = {"href": values.get("href", ""), "text": [], "heading": False}
            self._span_depth = 0
            if self._item is not None:
                if "heading" in classes and self._item["text"] is None:
                    self._anchor["heading"] = True
                    self._item["title"] = _clean(values.get("title", ""))
                if "resource-url-analytics" in classes and not self._item["href"]:
                    self._item["href"] = values.get("href", "")
        elif tag == "span" and self._anchor is not None:
            self._span_depth += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._raw = max(0, self._raw - 1)
        elif tag == "a":
            self._end_anchor()
        elif tag == "span" and self._anchor is not None:
            self._span_depth = max(0, self._span_depth - 1)
        elif tag == "li" and self._item is not None:
            self._li_depth -= 1
            if self._li_depth <= 0:
                self._end_item()

    def handle_data(self, data: str) -> None:
        if self._anchor is not None and not self._raw and not self._span_depth:
            if sum(map(len, self._anchor["text"])) < _NAME_LIMIT * 4:
                self._anchor["text"].append(data)

    def close(self) -> None:
        super().close()
        self._end_item()

    def _end_anchor(self) -> None:
        anchor, self._anchor = self._anchor, None
        if anchor is None:
            return
        text = _clean("".join(anchor["text"]))
        if anchor["href"]:
            self.links.append((text, anchor["href"]))
        if anchor["heading"] and self._item is not None:
            self._item["text"] = text

    def _end_item(self) -> None:
        self._end_anchor()
        item, self._item = self._item, None
        self._li_depth = 0
        if item is not None and item["href"]:
            self.items.append((item["title"] or item["text"] or "", item["href"]))
