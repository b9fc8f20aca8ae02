"""The kinds of record with a page of their own, each declared once: its table and key, its URL, its
template, the order of its records, its index and its place in the menu, whether the browser search indexes
its pages, how the search and the identifier lookup name it. Every consumer reads these declarations: the
pages' records (pipeline/site/context.py ``SiteData.records``, by kind), the URLs (pipeline/site/urls.py),
the record and index pages, the menu and the sections' alternate links (pipeline/site), the slug check
(pipeline/validate/checks.py), the Whoosh documents (pipeline/index/whoosh.py) and the identifier lookup
(pipeline/site/identifiers.py). A new kind of record page is one declaration here plus its template
``theme/templates/<nome>.html`` (its index, paged, has a template for any kind: ``indice.html``).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RecordKind:
    name: str  # the kind: its template's name, and the record's name inside the template ("linha")
    table: str  # the published table its records are rows of
    key: str  # the field that names a record: its page's slug, and its identifier as people type it
    pattern: str  # where its page is written, from the record's slug: "linhas/{slug}/"
    index: str  # its index page, and the index's template when the theme has one: "linhas" (/linhas/)
    menu: str  # its label in the menu of every page: "Linhas"
    # the fields its records are listed by; () keeps the order they are made in (a place's, pipeline/site/cities.py)
    order: tuple[str, ...] = ()
    collated: tuple[str, ...] = ()  # those of them compared in pt-BR order (accents and case ignored first)
    index_by: str = "pagina"  # its index: "pagina" (paged lists), "uf" (a page per UF, then paged), "unica"
    browser_search: bool = True  # its pages are in the browser search index (Pagefind)
    section: str | None = None  # its index section ("/linhas/"): the table's downloads as alternate links
    lookup_label: str | None = None  # how the identifier lookup labels a record, from its fields; None: not looked up
    lookup_type: str = ""  # how the search names the kind ("Linha")
    # related tables its page does not show, whose rows belong to another record's page (a carrier's
    # timetables, stops, paralysed stretches and history are its lines'): its JSON names those records
    # (``linhas``, each with its url) instead of repeating their rows
    shown_elsewhere: tuple[str, ...] = ()

    @property
    def uf_pattern(self) -> str:
        """Where its index by UF puts each UF's page (``index_by`` "uf"), from the UF's slug: "linhas/uf/{slug}/"."""
        return f"{self.index}/uf/{{slug}}/"

    @property
    def glob(self) -> str | None:
        """The files of its pages, for Pagefind, when the browser search indexes them."""
        if not self.browser_search:
            return None
        return self.pattern.replace("{slug}", "*/*" if self.name == "cidade" else "*") + "index.html"


# in the menu's order: the places first, where a passenger starts
RECORD_KINDS: tuple[RecordKind, ...] = (
    # a place the lines serve; slug "<uf>/<municipio>" (pipeline/places); its table is published, not a source's
    RecordKind("cidade", "municipios", "chave", "cidades/{slug}/", "cidades", "Cidades", index_by="unica"),
    RecordKind("linha", "linhas", "prefixo", "linhas/{slug}/", "linhas", "Linhas", order=("prefixo",),
               index_by="uf", section="linhas", lookup_label="Linha {prefixo}", lookup_type="Linha"),
    RecordKind("transportadora", "transportadoras", "cnpj", "transportadoras/{slug}/", "transportadoras",
               "Transportadoras", order=("razao_social", "cnpj"), collated=("razao_social",), section="transportadoras",
               lookup_label="{razao_social}", lookup_type="Transportadora",
               shown_elsewhere=("horarios", "paradas", "paralisacoes", "historico_linhas", "secoes")),
    # not searched as pages: found by number through /busca/ids/ and listed on the line's page
    RecordKind("outorga", "outorgas", "id", "outorgas/{slug}/", "outorgas", "Outorgas", order=("id",),
               browser_search=False, section="outorgas", lookup_label="Outorga {id}", lookup_type="Outorga"),
    RecordKind("caducidade", "caducidades", "ato", "caducidades/{slug}/", "caducidades", "Caducidades",
               order=("data_declaracao", "ato"), index_by="unica", section="caducidades",
               lookup_label="Caducidade: {ato}", lookup_type="Caducidade"),
)

BY_NAME = {k.name: k for k in RECORD_KINDS}
KIND_OF_TABLE = {k.table: k.name for k in RECORD_KINDS}  # the kind whose pages show a table's records
