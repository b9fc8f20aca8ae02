"""Atom feeds of what is new: the latest outorgas, caducidades and promotional fares, and the findings,
under ``feeds/``, written with Pelican's feed machinery (``feedgenerator.Atom1Feed``).

Dates come from the data (the act's date) or from ``--as-of`` (the findings, which have no date of their
own), never from the clock, so the same input gives the same bytes: feedgenerator falls back to "now"
for a feed without entries and for an entry without a date, and neither fallback is ever reached here.
Entries are sorted newest first, then by key; the findings, all dated ``as_of``, by rule then key.

URLs: with ``--site-url`` every id and link is absolute (``<site-url>/outorgas/<slug>/``), as Atom asks.
Without it the feeds are still written, with root-relative links (prefixed by ``base_path`` when the site
is served under one: :func:`pipeline.site.links.rebase` rewrites HTML only) and with ``tag:`` URIs as ids
(RFC 4151; Atom ids must be absolute IRIs), named after the data package (``tag:<name>,2026:/outorgas/x/``)
so that they do not change from one build to the next.

Every text is the data's, hence hostile: feedgenerator escapes XML, and the summaries, which Atom
declares ``type="html"``, are HTML-escaped first, so a ``<script>`` in a description reaches a feed reader
as text. Characters XML 1.0 cannot carry are replaced by U+FFFD.

``FEEDS`` declares the feeds (path, pt-BR title, the SiteData list, the date field) for the templates:
``<link rel="alternate" type="application/atom+xml" href="/{{ f.path }}" title="{{ f.titulo }}">``.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from datetime import date, datetime
from pathlib import Path

from feedgenerator import Atom1Feed

from ..identifiers import slugify
from .filters import data_br, reais

# path: under the site; titulo: pt-BR; registros: the SiteData list ("lines.tarifas_promocionais": each
# line's promotions, there being no list of them); data: the date field (None: dated with as_of);
# pagina: the page the feed stands for (its rel="alternate" link)
FEEDS: list[dict[str, str | None]] = [
    {"path": "feeds/outorgas.atom.xml", "titulo": "Novas outorgas", "registros": "outorgas",
     "data": "inicio", "pagina": "/outorgas/"},
    {"path": "feeds/caducidades.atom.xml", "titulo": "Caducidades declaradas", "registros": "caducidades",
     "data": "data_declaracao", "pagina": "/caducidades/"},
    {"path": "feeds/tarifas-promocionais.atom.xml", "titulo": "Tarifas promocionais comunicadas",
     "registros": "lines.tarifas_promocionais", "data": "comunicado_em", "pagina": "/dados/"},
    {"path": "feeds/achados.atom.xml", "titulo": "Achados", "registros": "findings", "data": None,
     "pagina": "/achados/"},
]

LIMIT = 50
TAG_DATE = "2026"  # the date part of the tag: ids (RFC 4151); fixed forever, or every id would change
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _text(value) -> str:
    """A text as XML 1.0 can carry it."""
    return _NOT_XML.sub("\ufffd", "" if value is None else str(value))


def _line(value) -> str:
    """A title's text: on one line (a carrier's name may hold a carriage return)."""
    return " ".join(_text(value).split())


def _summary(text: str, fictional: bool) -> str:
    """The summary, HTML-escaped (Atom ``type="html"``)."""
    if fictional:
        text = "Dados fictícios, para demonstração. " + text
    return html.escape(_text(text), quote=False)


def _carrier(record: dict) -> str:
    carrier = record.get("transportadora")
    return carrier["razao_social"] if carrier else record.get("transportadora_cnpj", "")


def _day(value) -> date | None:
    if isinstance(value, datetime):
        return value.date()
    return value if isinstance(value, date) else None


def records(data, feed: dict) -> list[dict]:
    """The SiteData records a feed of ``FEEDS`` lists, unsorted."""
    parent, _, child = feed["registros"].partition(".")
    rows = getattr(data, parent)
    return [r for row in rows for r in row.get(child, [])] if child else list(rows)


# Each feed's entry for a record: (title, the page's URL, the entry's unique URL, summary text).
Entry = tuple[str, str, str, str]


def _outorga(o: dict, label: Callable) -> Entry:
    title = (f"Outorga {o['id']} — {label('outorgas', 'instrumento', o['instrumento'])} "
             f"{label('outorgas', 'modalidade', o['modalidade'])}, {_carrier(o)}")
    line = f", linha {o['linha_prefixo']}" if o.get("linha_prefixo") else ""
    summary = f"{o['ato']}. Início em {data_br(o['inicio'])}{line}."
    return title, o["url"], o["url"], summary


def _caducidade(c: dict, label: Callable) -> Entry:
    title = f"Caducidade {c['ato']} — outorga {c['outorga_id']}, {_carrier(c)}"
    summary = (f"Caducidade da outorga {c['outorga_id']} de {_carrier(c)}, declarada em "
               f"{data_br(c['data_declaracao'])}. Fundamento: {label('caducidades', 'fundamento', c['fundamento'])}.")
    return title, c["url"], c["url"], summary


def _promocao(p: dict, label: Callable) -> Entry:
    # no page per promotion: the link is its line's page, which lists it; the id names it on that page
    title = f"Promoção {p['protocolo']} — {p['origem']} → {p['destino']}, {_carrier(p)}"
    summary = (f"Linha {p['linha_prefixo']}, {label('tarifas_promocionais', 'categoria', p['categoria'])}: "
               f"{reais(p['valor'])} de {data_br(p['inicio'])} a {data_br(p['fim'])}, "
               f"comunicada em {data_br(p['comunicado_em'])}.")
    url = p["linha"]["url"]
    return title, url, f"{url}#promocao-{slugify(p['protocolo'])}", summary


def _achado(f: dict, pages: dict[tuple[str, str], str]) -> Entry:
    # linked as /achados/ links it: the outorga's or caducidade's page, else the line's page, which lists it
    url = pages.get((f["tabela"], f["chave"])) or (f["linha"]["url"] if f.get("linha") else None)
    url = url or f"/achados/#regra-{f['regra']}"
    title = f"{f.get('titulo') or f['regra']} — {f['chave']}"
    if f.get("transportadora"):
        title += f", {f['transportadora']['razao_social']}"
    unique = f"/achados/#achado-{slugify(f['regra'])}-{slugify(f['tabela'])}-{slugify(f['chave'])}"
    return title, url, unique, f"{f['descricao']} ({f['artigo']})" if f.get("artigo") else f["descricao"]


def _addresses(site_url: str, base_path: str, package: str) -> tuple[Callable[[str], str], Callable[[str], str]]:
    """``href(url)``, a link (absolute with ``site_url``, else root-relative under ``base_path``), and
    ``unique(url)``, an entry's id (absolute, else a ``tag:`` URI named after the data package)."""
    site_url, base_path = site_url.rstrip("/"), base_path.rstrip("/")
    authority = slugify(package) or "portal"
    return ((lambda url: (site_url or base_path) + url),
            (lambda url: site_url + url if site_url else f"tag:{authority},{TAG_DATE}:{url}"))


class _Feed(Atom1Feed):
    """An Atom feed whose ``updated`` is given, never the clock's."""

    def __init__(self, *args, updated: date, **kwargs):
        super().__init__(*args, **kwargs)
        self._updated = datetime.combine(updated, datetime.min.time())

    def latest_post_date(self):
        return self._updated


def write(out: Path, data, site_url: str, as_of: date, limit: int = LIMIT, *, base_path: str = "") -> list[str]:
    """Write the feeds of ``FEEDS`` under ``out`` (the site's folder), each with the ``limit`` latest
    entries; returns their paths (``feeds/outorgas.atom.xml``...). ``base_path`` prefixes the
    root-relative links when there is no ``site_url`` (which already holds the site's sub-path)."""
    from . import label as schema_label  # here: the package's __init__ may import this module

    if limit < 0:
        raise ValueError(f"limit must be 0 or more, not {limit}")
    href, unique = _addresses(site_url, base_path, data.schema.descriptor.get("name", ""))

    def label(table: str, field: str, value) -> str:
        return schema_label(data.schema, table, field, value)

    pages = {("outorgas", o["id"]): o["url"] for o in data.outorgas}
    pages |= {("caducidades", c["ato"]): c["url"] for c in data.caducidades}
    makers = {
        "outorgas": lambda r: _outorga(r, label),
        "caducidades": lambda r: _caducidade(r, label),
        "lines.tarifas_promocionais": lambda r: _promocao(r, label),
        "findings": lambda r: _achado(r, pages),
    }
    author = data.schema.descriptor.get("title") or "Portal"
    name = data.descriptor.get("title") or author  # the published title says when the data are fictional
    fictional = bool(getattr(data, "fictional", False))
    written = []
    for feed in FEEDS:
        field = feed["data"]
        rows = records(data, feed)
        if field is None:
            dated = sorted(((as_of, r) for r in rows),
                           key=lambda x: (x[1]["regra"], x[1]["chave"], x[1]["tabela"], x[1]["descricao"]))
        else:
            key = {"outorgas": "id", "caducidades": "ato"}.get(feed["registros"], "protocolo")
            dated = [(_day(r[field]), r) for r in rows]
            dated = sorted(((d, r) for d, r in dated if d is not None),  # the schema requires the date
                           key=lambda x: (-x[0].toordinal(), str(x[1][key])))
        dated = dated[:limit]
        order = "por regra" if field is None else "do mais recente ao mais antigo"
        subtitle = f"{len(dated)} de {len(rows)} registro(s), {order}; dados até {data_br(as_of)}."
        atom = _Feed(
            title=f"{feed['titulo']} — {_line(name)}", link=href(feed["pagina"]), description=subtitle,
            language="pt-BR", author_name=_line(author), feed_url=href("/" + feed["path"]),
            feed_guid=unique("/" + feed["path"]),
            updated=max((d for d, _ in dated), default=as_of),
        )
        seen: set[str] = set()
        for day, record in dated:
            title, url, ident, summary = makers[feed["registros"]](record)
            base = ident = unique(ident)
            n = 1
            while ident in seen:  # slugs of distinct keys may meet: ids stay unique, in a fixed order
                n += 1
                ident = f"{base}{'-' if '#' in base else '#'}{n}"
            seen.add(ident)
            when = datetime.combine(day, datetime.min.time())
            atom.add_item(title=_line(title), link=href(url), description=_summary(summary, fictional),
                          unique_id=ident, pubdate=when, updateddate=when,
                          categories=[_line(record["regra"])] if field is None else ())
        target = out / feed["path"]
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes((atom.writeString("utf-8") + "\n").encode("utf-8"))
        written.append(feed["path"])
    return written


CHANGES = {"path": "feeds/mudancas.atom.xml", "titulo": "Mudanças entre versões dos dados abertos",
           "pagina": "/dados/mudancas/"}


def write_changes(out: Path, versions: Path, site_url: str, as_of: date, package: str, *, base_path: str = "",
                  limit: int = 20) -> str:
    """The feed of the releases' changes: an entry per kept release that was compared with the one before
    it (its ``versoes/<data>/mudancas.json``, pipeline/publish/changes.py), newest first, dated by the
    release's date. Written even before any comparison, then without entries."""

    href, unique = _addresses(site_url, base_path, package)
    from ..publish.changes import read_kept
    from ..publish.release import version_name

    kept = sorted((p for p in versions.iterdir() if version_name(p.name) and (p / "mudancas.json").is_file()),
                  reverse=True)
    entries = [(date.fromisoformat(p.name), result) for p in kept
               if (result := read_kept(p / "mudancas.json")) is not None][:limit]
    atom = _Feed(title=CHANGES["titulo"], link=href(CHANGES["pagina"]), language="pt-BR",
                 description="Registros incluídos, removidos e alterados em cada versão publicada, tabela por tabela.",
                 feed_url=href("/" + CHANGES["path"]), feed_guid=unique("/" + CHANGES["path"]),
                 updated=entries[0][0] if entries else as_of)
    for day, result in entries:
        changed = [t for t in result["tabelas"] if t["situacao"] != "sem_mudancas"]
        summary = "; ".join(f"{t['tabela']}: {t['incluidos']} incluído(s), {t['removidos']} removido(s), "
                            f"{t['alterados']} alterado(s)" for t in changed) or "Nenhum registro mudou."
        when = datetime.combine(day, datetime.min.time())
        url = f"/dados/versoes/{day.isoformat()}/"
        atom.add_item(title=f"Versão de {data_br(day)} (comparada com a de {_line(str(result.get('anterior') or '—'))})",
                      link=href(url + "mudancas.json"), description=_summary(summary, False), unique_id=unique(url),
                      pubdate=when, updateddate=when)
    target = out / CHANGES["path"]
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes((atom.writeString("utf-8") + "\n").encode("utf-8"))
    return CHANGES["path"]
