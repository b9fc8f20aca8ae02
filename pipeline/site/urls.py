"""Every record page's URL, declared once, as Pelican declares ``ARTICLE_URL`` and ``PAGE_URL``: the
generators write each page at its kind's pattern, each record carries its ``url`` (set once by
:class:`~pipeline.site.context.SiteData`), the JSON files and the Whoosh index copy that ``url``, and the
templates link to ``record.url``; none of them spells a path. The patterns are the data contract's
URLs (``../shared/spec/data-contract.md``); slugs are validated (pipeline/validate/checks.py, ``slug``).

Whether a kind is in the browser search index (its template marks ``<main data-pagefind-body>``) is
declared here too, with the glob that makes Pagefind read those pages only (pipeline/index/pagefind.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..contract import kinds


@dataclass(frozen=True)
class Kind:
    pattern: str  # the path under the site, from the record's parts: "linhas/{slug}/"
    glob: str | None = None  # the pages' files, for Pagefind, when the kind is searched in the browser


KINDS: dict[str, Kind] = {
    # the record pages, as pipeline/contract/kinds.py declares them
    **{k.name: Kind(k.pattern, glob=k.glob) for k in kinds.RECORD_KINDS},
    # the answer for a pair of places; "para" is the other place's slug with "-" for "/"
    "cidade_para": Kind("cidades/{slug}/para/{para}/"),
    # each UF's page of an index split by UF (a kind's ``index_by`` "uf"): "linhas_uf"
    **{f"{k.index}_uf": Kind(k.uf_pattern) for k in kinds.RECORD_KINDS if k.index_by == "uf"},
    # each published table's dictionary and downloads; the table's name is the slug
    "tabela": Kind("dados/{slug}/"),
}

# the menu of every page after the kinds of record: what the portal is besides its records
PAGES_IN_MENU = (("/achados/", "Achados"), ("/direitos/", "Direitos do passageiro"), ("/decreto/", "Decreto"),
                 ("/dados/", "Dados abertos"), ("/busca/", "Busca"))


def menu() -> list[tuple[str, str]]:
    """The menu of every page, ``(url, label)``: each kind of record's index as declared
    (pipeline/contract/kinds.py ``index``, ``menu``), then :data:`PAGES_IN_MENU`."""
    return [(f"/{k.index}/", k.menu) for k in kinds.RECORD_KINDS] + list(PAGES_IN_MENU)


def current(entries: list[tuple[str, str]], page_url: str | None) -> tuple[str, ...]:
    """The addresses of the menu ``entries`` (:func:`menu`) that are the page at ``page_url``'s own
    (``aria-current``): those it lies under."""
    return tuple(url for url, _ in entries if page_url and page_url.startswith(url))


# what changed since the previous release (pipeline/release/changes.py)
CHANGES = "dados/mudancas/"

# pages of content/ and of the law (decreto, direitos, sobre, metodologia): one level under the root
TOP_LEVEL_GLOB = "*/index.html"


def path(kind: str, **parts: str) -> str:
    """``path("linha", slug="12-0140-00")`` -> ``linhas/12-0140-00/`` (where the page is written)."""
    return KINDS[kind].pattern.format(**parts)


def url(kind: str, **parts: str) -> str:
    """``url("linha", slug="12-0140-00")`` -> ``/linhas/12-0140-00/`` (the link; pipeline/site/links.py
    puts a sub-path in front when the site is served under one)."""
    return "/" + path(kind, **parts)


def pair_path(city: dict, other: dict) -> str:
    """Where the answer from ``city`` to ``other`` is written: ``cidades/sp/sao-paulo/para/rj-rio-de-janeiro/``."""
    return path("cidade_para", slug=city["slug"], para=other["slug"].replace("/", "-"))


def pair(city: dict, other: dict) -> str:
    """The URL of the answer from ``city`` to ``other``."""
    return "/" + pair_path(city, other)


def search_globs() -> list[str]:
    """The files Pagefind reads: the searched kinds' pages and the top-level pages."""
    return [TOP_LEVEL_GLOB] + [k.glob for k in KINDS.values() if k.glob]


def _glob_pattern(glob: str) -> re.Pattern:
    """A Pagefind glob as a regular expression: ``*`` stays within one folder."""
    return re.compile("".join("[^/]*" if part == "*" else re.escape(part) for part in re.split(r"(\*)", glob)))


_SEARCHED = [_glob_pattern(g) for g in search_globs()]


def searched(path: str) -> bool:
    """Whether Pagefind reads the file at ``path`` (``linhas/12-0140-00/index.html``): a searched kind's page
    or a top-level page."""
    return any(p.fullmatch(path) for p in _SEARCHED)
