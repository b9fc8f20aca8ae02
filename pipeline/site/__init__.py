"""The Pelican plugin: one generator per page kind, rendering the build's :class:`SiteData`.

``pelican.conf.py`` lists this module in ``PLUGINS``; the build passes the data in the setting
``PORTAL_DATA`` and hands Pelican the site's one writer (pipeline/site/writer.py) by the ``get_writer``
signal (see :func:`pipeline.build.render`). URLs follow the data contract.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import orjson
from pelican import signals
from pelican.generators import Generator

from ..contract import dictionary, kinds
from ..contract.identifiers import slugify
from ..contract.kinds import RecordKind
from ..contract.limits import MAX_QUERY
from ..contract.schema import foreign_keys_of
from ..legal import numbers as legal_numbers
from ..legal.decree import EDITORIAL_NOTES, REVOCATION, RIGHTS_NOTICE_ARTICLES, load_decree
from ..legal.passageiros import BROWSER as CALCULATORS
from ..legal.passageiros import SUMMARIES
from ..publish import extracts, formats, formats_note, hosting, spreadsheet
from ..publish.provenance import Provenance
from ..publish.snippets import snippets
from ..tools import parallel
from . import charts, cities, datafiles, feeds, identifiers, names, notices, timetable, urls, verification
from .cities import OPEN_LINES, ligacao
from .context import SiteData
from .filters import FILTERS, label
from .indexes import LINE_FIELDS, kind_index
from .record import addressed, as_json, attribute_lookup
from .templating import PortalTemplate

# The machine-readable forms of each section's index pages: its table's downloads and, where there is
# one, its Atom feed (pipeline/site/feeds.py); the home page links every feed. Record pages link their
# own JSON instead (``alternate_json``), /dados/ its package and catalogue.
_SECTION_TABLES = {**{k.section: k.table for k in kinds.RECORD_KINDS if k.section}, "achados": "achados"}


def alternates(page_url: str) -> list[tuple[str, str, str]]:
    """``(media type, href, title)`` of the ``<link rel="alternate">`` of a page that is not a record's."""
    if page_url == "/":
        return [("application/atom+xml", "/" + f["path"], f["titulo"]) for f in feeds.FEEDS]
    section = page_url.strip("/").split("/")[0]
    table = _SECTION_TABLES.get(section)
    if table is None:
        return []
    out = [("text/csv", f"/dados/{table}.csv", f"{table} (CSV)"), ("application/json", f"/dados/{table}.json", f"{table} (JSON)")]
    out += [("application/atom+xml", "/" + f["path"], f["titulo"]) for f in feeds.FEEDS if f["pagina"] == f"/{section}/"]
    return out


def template_globals(data: SiteData) -> dict:
    """What every template of the theme may call, besides the filters (``pipeline/site/filters.py``).
    The line page's grid and chart are made when the page renders, in the worker processes."""
    weekdays, months = data.schema.weekdays, data.schema.months

    def category(value):
        return label(data.schema, "tarifas", "categoria", value)

    @cache
    def extract_counts():
        return extracts.counts(data.tables)

    return {
        "grade_horarios": lambda line: timetable.grid(line["horarios"], weekdays, months, category),
        "grafico_tarifas": lambda line: charts.fare_history_svg(line["tarifas"], data.as_of, category),
        "grafico_bilhetes": charts.tickets_svg,
        "rotulo": lambda table, field, value: label(data.schema, table, field, value),
        # the class a passenger reads for a departure of a pair's answer: "Misto: leito / semi-leito" for a
        # mixed vehicle (pipeline/site/timetable.py), the category's label otherwise
        "classe_da_partida": lambda p: timetable.service_class(
            p["categoria"], p["misto"], lambda v: label(data.schema, "horarios", "categoria", v)),
        # a line of the export's test company alone (pipeline/site/cities.py): on no passenger's answer
        "so_empresa_de_teste": cities.test_line,
        # one carrier's lines and timetable as downloads (pipeline/publish/extracts.py): {table: rows}, or None
        "recortes": lambda cnpj: extract_counts().get(cnpj),
        "url_recorte": lambda cnpj, table: "/dados/" + extracts.path(cnpj, table),
        "titulo_tabela": lambda table: data.schema[table].title,
        "lei": legal_numbers(),
        "calculadoras": CALCULATORS,  # the calculators' messages and number grammar (legal/passageiros.py)
        "cobertura": data.coverage,
        "revogacao": REVOCATION,
        "MAX_CONSULTA": MAX_QUERY,  # also in pelican.conf.py JINJA_GLOBALS, for the hand-written pages
        "notas_editoriais": EDITORIAL_NOTES,
        "dias_da_semana": data.schema["horarios"].fields_in_group("dia_da_semana"),
        # the months' names as a departure's ``meses`` gives them (context.py), for partidas.js
        "meses_do_ano": [f["title"].lower() for f in data.schema["horarios"].fields_in_group("mes")],
        # a pair's lines shown at once; more open on demand (_rota.html, rotas.js: the form's data-linhas-abertas)
        "LINHAS_ABERTAS": OPEN_LINES,
        # links to records the template has only by key, and to the answer for a pair of places
        "url_de": lambda kind, key: urls.url(kind, slug=slugify(key)),
        # the page of a table's record, when the table's records have pages (pipeline/contract/kinds.py); else None
        "url_do_registro": lambda table, key: urls.url(kinds.KIND_OF_TABLE[table], slug=slugify(key))
        if table in kinds.KIND_OF_TABLE else None,
        # a line's terminals in the direction travelled (pipeline/site/cities.py), as the pair's JSON says them
        "ligacao": ligacao,
        "url_tabela": lambda name: urls.url("tabela", slug=name),  # table names are already safe slugs
        "alternativos": alternates,
        # each table's download formats (pipeline/publish): no workbook for a table longer than a sheet
        "formatos_de": lambda name: formats(data.rows(name) if name in data.tables else 0),
        # why a table lacks a format (pipeline/publish/hosting.py), "" when it has them all
        "formatos_nota": lambda name: formats_note(data.rows(name) if name in data.tables else 0),
        "limite_no_site": hosting.ON_PAGES_MAX_BYTES,  # shown with the filter tamanho
        "linhas_de_planilha": spreadsheet.MAX_ROWS,
        # the data dictionary in words (pipeline/contract/dictionary.py)
        "tipo_em_palavras": dictionary.type_in_words,
        "regras_em_palavras": dictionary.rules_in_words,
        "rotulos_do_campo": dictionary.labels,
        "linhas_campos": LINE_FIELDS,  # the cells of the lines' filter rows, by name (pipeline/site/indexes.py)
        "chaves_estrangeiras": foreign_keys_of,  # a table's foreign keys, normalised (pipeline/contract/schema.py)
    }


class PortalGenerator(Generator):
    """Base: the shared data, the filters, and a helper that writes ``<url>index.html`` by the site's
    writer (:meth:`page`). Each generator writes its pages in :meth:`write_pages`."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.env.filters.update(FILTERS)
        self.env.globals.update(template_globals(self.data))
        self.env.getattr = attribute_lookup(self.env)  # the same lookups, faster (pipeline/site/record.py)
        self.env.make_globals = self._fixed_globals
        self.env.template_class = PortalTemplate  # a quicker escape, the same output (pipeline/site/templating.py)

    def _fixed_globals(self, own: dict | None) -> dict:
        """A template's globals as one dict, the environment's as they are when it is loaded, then its own.
        Jinja2 3 gives each template a ``ChainMap`` over the environment's, so that a global added later
        reaches templates already loaded; then each ``{% from "_partial.html" import … %}`` of every page
        compares the page's globals with the partial's one name at a time through the chain (and each new
        context copies them the same way), a tenth of the page stage. Every global of the portal is set in
        ``__init__``, before any template is loaded."""
        return {**self.env.globals, **(own or {})}

    @property
    def data(self) -> SiteData:
        data = self.settings.get("PORTAL_DATA")
        if data is None:
            raise RuntimeError(
                "PORTAL_DATA is not set: build the site with `python -m pipeline build`, "
                "which validates and derives the data before calling Pelican"
            )
        return data

    def label(self, table: str, field: str, value) -> str:
        return label(self.data.schema, table, field, value)

    def page(self, url: str, template: str, count: bool = True, **kwargs) -> None:
        """Write ``url`` (like ``linhas/12-0140-00/``) with ``template``.html. Pages written in worker
        processes are counted by the caller (``count=False``), since a child's count dies with it.

        The page is rendered here and handed to the writer's ``write_page`` rather than to Pelican's
        ``Writer.write_file``, which per page copies the whole context again, logs, sends a signal and
        checks for overwritten files: at national scale that was one of the costliest parts of the page
        stage. URLs are the contract's, from validated slugs (pipeline/validate/checks.py, rule ``slug``)."""
        context = dict(self.context, data=self.data, as_of=self.data.as_of, page_url="/" + url,
                       alternate_json=any(k.name == template for k in kinds.RECORD_KINDS),
                       feed_da_pagina=self.data.record_feeds.get("/" + url), **kwargs)
        self.writer.write_page(url + "index.html", self.get_template(template).render(context), count=count)

    def generate_output(self, writer) -> None:
        self.writer = writer
        self.write_pages()

    def write_pages(self) -> None:  # pragma: no cover - overridden
        raise NotImplementedError


class HomeGenerator(PortalGenerator):
    def write_pages(self):
        self.page("", "index")


def kind_pages(kind: RecordKind, records: list[dict], by_uf: dict | None = None,
               index_template: str | None = None) -> list[tuple[str, str, dict]]:
    """A kind's pages from its declaration alone: its index (pipeline/site/indexes.py ``kind_index``) and
    each record's page at the kind's pattern, rendered by the template of the kind's name."""
    pages = kind_index(kind, records, by_uf, index_template)
    return pages + [(kind.pattern.format(slug=item["slug"]), kind.name, {kind.name: item}) for item in records]


def section_pages(data: SiteData, has_template=lambda name: True) -> list[tuple[str, str, dict]]:
    """Every page of the record sections as ``(path, template, context)``: each declared kind's index and
    records' pages (:func:`kind_pages`; an index without a template of its own has the generic ``indice``),
    then the answer for each pair of places."""
    work = []
    for kind in kinds.RECORD_KINDS:
        template = kind.index if has_template(kind.index) else "indice"
        work += kind_pages(kind, data.records[kind.name], data.lines_by_uf if kind.index_by == "uf" else None,
                           template)
    # the answer for each pair of places that says more than the place's row (cities.own_page), without
    # JavaScript (the form reads the same from JSON)
    work += [(urls.pair_path(c, r["outra"]), "cidade_para", {"cidade": c, "rota": r})
             for c in data.records["cidade"] for r in c["destinos"] if r["pagina"]]
    return work


class SectionsGenerator(PortalGenerator):
    """The record sections' pages, split once over the worker processes (``--processos``): one fork for
    them all, since each fork's child copies the memory pages it touches. The indexes go in the same
    split, so that no core waits while another renders them."""

    def write_pages(self):
        templates = set(self.env.list_templates())
        pages = section_pages(self.data, lambda name: f"{name}.html" in templates)
        items, alone = datafiles.work(pages, self.data, self.label)
        root = Path(self.output_path)
        # where a record page's facts come from, for its index.json (pipeline/publish/provenance.py)
        record = Provenance.from_descriptor(self.data.descriptor)
        declared = {k.name: k for k in kinds.RECORD_KINDS}  # read now: a test may declare one more

        def render(items):
            for url, template, context in items:
                if template is None:  # a job of JSON files (pipeline/site/datafiles.py)
                    for path, value in context().items():
                        (root / path).parent.mkdir(parents=True, exist_ok=True)
                        (root / path).write_bytes(_json(datafiles.on_site(path, value, self.writer.base)))
                else:
                    self.page(url, template, count=False, **context)
                    if template in declared:  # the page's facts, for machines (rel="alternate"), whose
                        # links are full addresses (or carry the sub-path): read where the site is deployed
                        shown = context[template]
                        elsewhere = declared[template].shown_elsewhere  # rows of another record's page (kinds.py)
                        if elsewhere:
                            shown = {k: v for k, v in shown.items() if k not in elsewhere}
                        facts = as_json(shown, 1, context[template])
                        facts["proveniencia"] = record.for_record(declared[template].table,
                                                                  [context[template].get("fonte")])
                        facts = addressed(facts, self.settings.get("SITEURL") or "")
                        (root / url / "index.json").write_bytes(_json(facts))

        parallel.split(items, render, self.settings.get("PORTAL_WORKERS", 1),
                       niceness=parallel.RENDER_NICENESS, alone=alone)
        self.writer.counted(len(pages))


class FindingsGenerator(PortalGenerator):
    def write_pages(self):
        from ..derive.findings import RULES
        from ..derive.inconsistencies import RULES as INCONSISTENCY_RULES

        self.page("achados/", "achados", regras=RULES, nao_verificadas=self.data.unchecked,
                  regras_inconsistencia=INCONSISTENCY_RULES,
                  inconsistencias_nao_verificadas=self.data.unchecked_inconsistencies)


class LawGenerator(PortalGenerator):
    """The decree (``/decreto/``) and the passenger-rights notice of art. 34 (``/direitos/``)."""

    def write_pages(self):
        decree = load_decree()
        self.page("decreto/", "decreto", decreto=decree)
        articles = [decree.article(n) for n in RIGHTS_NOTICE_ARTICLES]
        self.page("direitos/", "direitos", decreto=decree, artigos=articles, resumos=SUMMARIES)
        # the notice as carriers had to post it (art. 34), on its own URL per paper size
        self.page("direitos/cartaz/", "cartaz", artigos=articles, formato="A4")
        self.page("direitos/cartaz/a3/", "cartaz", artigos=articles, formato="A3")


def _json(value) -> bytes:
    """The JSON files beside the pages, compact UTF-8: the bytes ``json.dumps(value, ensure_ascii=False,
    separators=(",", ":"))`` gives (but for numbers under 0.0001, written ``1e-7`` for ``1e-07``), from
    orjson in a fraction of the time; tests/test_open_data.py compares the two."""
    return orjson.dumps(value) + b"\n"


class VerificationGenerator(PortalGenerator):
    """``/verificar/`` (art. 12): a code printed on a copy of an act leads back to its record. The codes
    are looked up in ``/verificar/<first two hex digits>.json`` (about 40 codes a file at national scale),
    written with the pages (pipeline/site/datafiles.py)."""

    def write_pages(self):
        self.page("verificar/", "verificar", digitos=verification.CODE_DIGITS, mensagens=verification.MESSAGES)


class NotFoundGenerator(PortalGenerator):
    """``/404.html``, which offers the search and the lookup of identifiers as typed
    (``/busca/ids/<xx>.json``, written with the pages: pipeline/site/datafiles.py)."""

    def write_pages(self):
        context = dict(self.context, data=self.data, as_of=self.data.as_of, page_url="/404.html")
        self.writer.write_page("404.html", self.get_template("404").render(context))


CHANGES_SHOWN = 50  # changed rows shown per table on /dados/mudancas/; mudancas.json lists more
CHANGES_LISTED = 1000  # rows listed per table and kind of change in mudancas.json (the counts are exact)


def _examples(head, resource: dict) -> dict[str, str]:
    return {f["name"]: dictionary.example(f, head[f["name"]].tolist()) if head is not None and f["name"] in head else ""
            for f in resource["schema"]["fields"]}


class DataGenerator(PortalGenerator):
    """``/dados/`` (the downloads), ``/dados/<tabela>/`` (each table's dictionary and files),
    ``/dados/mudancas/``, ``/dados/qualidade/`` and ``/busca/``.

    The download pages state each file's size and SHA-256, which are known only when the files are
    written, beside the pages, by other processes (pipeline/publish), and the release's name and addresses.
    They are rendered once, when the release is complete: the build calls the function this generator
    leaves in the writer's ``rendered.late`` with the release's facts (pipeline/build/__init__.py,
    ``_release``), before the sitemap is made. None of them is searched (their templates have no
    ``data-pagefind-body``): Pagefind reads the searched pages meanwhile (pipeline/site/writer.py)."""

    def write_pages(self):
        self.writer.rendered.late.append(self.data_pages)
        self.page("dados/qualidade/", "qualidade", relatorio=self.data.report)
        self.page("busca/", "busca", autos_digitos=self.data.notice_digits, autos_campos=notices.FIELDS,
                  autos_forma=notices.NOTICE_SHAPE,
                  chaves_nomes=names.shard_keys(self.data),
                  chaves_ids=sorted(identifiers.shards(self.data)))

    def data_pages(self, release: dict) -> list[str]:
        """Render the download pages with the release's facts (see the class)."""
        pacote = release["descriptor"]
        written = ["dados/"]
        self.page("dados/", "dados", pacote=pacote, release=release)
        for r in pacote["resources"]:
            path = urls.path("tabela", slug=r["name"])
            # ready code that reads the table with its identifiers as text (pipeline/publish/snippets.py), from
            # the site's address when it has one (--site-url), else from a file downloaded beside the code
            address = self.settings.get("SITEURL") or ""
            base = f"{address}/dados/" if address.startswith("http") else ""
            self.page(path, "tabela", pacote=pacote, recurso=r, release=release,
                      exemplos=_examples(self.data.head(r["name"]), r), trechos=snippets(r["name"], r, base, release["enderecos"]),
                      trechos_locais=not base)
            written.append(path)
        self.page(urls.CHANGES, "mudancas", pacote=pacote, release=release,
                  mostrados=CHANGES_SHOWN, listados=CHANGES_LISTED)
        return written + [urls.CHANGES]


GENERATORS = [
    HomeGenerator,
    SectionsGenerator,
    VerificationGenerator,
    NotFoundGenerator,
    FindingsGenerator,
    LawGenerator,
    DataGenerator,
]


def get_generators(pelican_object):
    return GENERATORS


def register():
    signals.get_generators.connect(get_generators)
