"""The site's one writer (Pelican's ``get_writer`` signal): every page, whichever generator renders it
(the portal's or Pelican's own for ``content/``), is written by :meth:`PortalWriter.write_page`, once:

- its block elements' ends spaced from the next one's start (:func:`spaced`);
- every root-relative address (``href``, ``src``, ``action``) put under the path the site is served from,
  the path of ``SITEURL`` (``https://<owner>.github.io/portal`` -> ``/portal/linhas/``); nothing is
  rewritten after it is written;
- counted (``Rendered.pages``);
- for a searched page (pipeline/site/urls.py ``searched``), what Pagefind reads of it (:func:`pagefind_text`)
  written into the build's folder for Pagefind (``PORTAL_SEARCH_PAGES``), addresses and all.

Pages rendered in worker processes are written by the child's copy of the writer; the parent counts them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

from pelican.writers import Writer

from . import urls

_BLOCK = r"(?:dd|dt|li|td|th|p|h[1-6]|tr|div|section|caption|dl|ul|ol|table|figure)"
_GLUED = re.compile(f"(</{_BLOCK}>)(<{_BLOCK}\\b)")
_ROOTED = re.compile(r'(\s(?:href|src|action)=")/(?!/)')


def spaced(html: str) -> str:
    """A newline between a block element's end and the next one's start where the templates' whitespace
    control left none (``</dd><dt>``): the browser shows them apart, but Pagefind reads the text as written,
    and its excerpts glued ``SAO PAULO(SP)`` to the next term (``(SP)Âmbito``)."""
    return _GLUED.sub("\\1\n\\2", html)


def under(html: str, base: str) -> str:
    """Every root-relative address of ``html`` under ``base`` (``/portal``); ``html`` as it is without one."""
    return _ROOTED.sub(lambda m: f"{m[1]}{base}/", html) if base else html


_MAIN = re.compile(r"<main\b[^>]*\bdata-pagefind-body\b")
# the elements left out whole when ignored: sections (a line page's lists and counts), tables (long lists),
# a table's caption, head and cells (its labels and dates), headings, lists and paragraphs ("Fonte: ..."),
# figures (charts)
_IGNORED = re.compile(r"<(section|table|caption|thead|th|td|h2|h3|ul|p|figure)\b[^>]*\bdata-pagefind-ignore\b[^>]*>")
_COUNTED = re.compile(r"data-pagefind-(?!ignore\b)")  # a Pagefind attribute that adds to the index: body, filter, meta...
_HTML = re.compile(r"<html\b[^>]*>")


def pagefind_text(html: str) -> str | None:
    """What Pagefind reads of a searched page: the ``<html>`` tag (its ``lang`` picks the language) and
    the ``<main data-pagefind-body>`` element, less the elements marked
    ``data-pagefind-ignore`` that hold no other Pagefind attribute (a filter or meta inside an ignored
    element still counts, so those stay). Pagefind indexes nothing outside the body element once a page
    has one, nor inside an ignored element; the long lists of a line's or a carrier's page were much of
    its time at national scale. A page without that body element: None, nothing to read. Pagefind
    leaves such a page out of its index once any page of the site has a body element, as the content pages
    (``page.html``: the decree, the passengers' rights) always have."""
    found = _MAIN.search(html)
    end = html.rfind("</main>")
    opening = _HTML.search(html)
    if found is None or end < found.start() or opening is None:
        return None
    main = html[found.start():end + len("</main>")]
    parts, at = [], 0
    for element in _IGNORED.finditer(main):
        if element.start() < at:  # inside an element already left out
            continue
        tag = element.group(1)
        close = main.find(f"</{tag}>", element.end())
        if close < 0:
            continue
        inner = main[element.end():close]
        if f"<{tag}" in inner or _COUNTED.search(inner):  # nested, or holding a filter or meta: keep
            continue
        parts.append(main[at:element.start()])
        at = close + len(f"</{tag}>")
    parts.append(main[at:])
    return f"<!DOCTYPE html>\n{opening.group(0)}<head></head><body>{''.join(parts)}</body></html>\n"


class SearchStarted(RuntimeError):
    """A searched page written after Pagefind was started over the searched pages (a programming error)."""


@dataclass
class Rendered:
    """What the render stage tells the build: the pages written, and the renderers of the pages that state the
    release's facts, called once with them when its files exist (pipeline/site ``DataGenerator``)."""

    pages: int = 0
    late: list = field(default_factory=list)
    search_started: bool = False  # Pagefind reads the searched pages already: none may be added (write_page)


class PortalWriter(Writer):
    """Pelican's writer, for the portal's pages; ``rendered`` is set on the class the build hands Pelican
    (:func:`writer_for`)."""

    rendered: Rendered

    def __init__(self, output_path, settings=None):
        super().__init__(output_path, settings=settings)
        self.base = urlparse(self.settings.get("SITEURL") or "").path.rstrip("/")
        search = self.settings.get("PORTAL_SEARCH_PAGES")
        self.search_pages = Path(search) if search else None

    def write_page(self, path: str, html: str, count: bool = True) -> None:
        """Write ``html`` at ``path`` (``linhas/12-0140-00/index.html``) under the output folder."""
        html = under(spaced(html), self.base)
        target = Path(self.output_path) / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(html, encoding="utf-8")
        read = pagefind_text(html) if self.search_pages is not None and urls.searched(path) else None
        if read is not None:
            if self.rendered.search_started:
                raise SearchStarted(f"{path}: página da busca gravada depois que o Pagefind começou a ler as "
                                    "páginas; só as páginas sem data-pagefind-body podem ser renderizadas depois")
            copy = self.search_pages / path
            copy.parent.mkdir(parents=True, exist_ok=True)
            copy.write_text(read, encoding="utf-8")
        if count:
            self.rendered.pages += 1

    def counted(self, pages: int) -> None:
        """Add the pages written by worker processes, whose own counts die with them."""
        self.rendered.pages += pages

    def write_file(self, name, template, context, relative_urls=False, paginated=None, template_name=None,
                   override_output=False, url=None, **kwargs):
        """Pelican's own pages (``content/``): rendered as Pelican would (no pagination is configured) and
        written by :meth:`write_page`."""
        if not name:
            return
        local = dict(context, localsiteurl=context.get("localsiteurl"), output_file=name, **kwargs)
        self.write_page(name, template.render(local))


def writer_for(rendered: Rendered) -> type[PortalWriter]:
    """The writer class Pelican instantiates for one render, reporting into ``rendered``."""
    return type("PortalWriter", (PortalWriter,), {"rendered": rendered})
