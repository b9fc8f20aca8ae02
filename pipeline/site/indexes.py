"""The section indexes, kept usable at national scale: split by UF (lines) or paged (carriers,
outorgas), each page well under 200 KB, names in pt-BR order (UCA collation, accents ignored first).

``kind_index(kind, records)`` gives each index page of a kind as its declaration says, as ``(url, template,
context)``; the lines' filters
(UF, âmbito, category, carrier) read ``linhas/uf/<uf>/linhas.json`` (:func:`lines_json`) in the browser.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..contract.identifiers import slugify
from .cities import collation_key, ligacao

PAGE_ROWS = 200  # rows of an index page: about 60 KB of HTML for the widest table


@dataclass
class ListPage:
    """One page of a paged list: its rows, its number and the URLs of every page of the list."""

    items: list
    number: int
    urls: list[str] = field(default_factory=list)
    total: int = 0

    @property
    def paged(self) -> bool:
        """The list has more than one page."""
        return len(self.urls) > 1

    @property
    def first(self) -> int:
        return (self.number - 1) * PAGE_ROWS + 1

    @property
    def last(self) -> int:
        return self.first + len(self.items) - 1


def paged(base: str, items: list) -> list[tuple[str, ListPage]]:
    """``base`` (``outorgas/``) for the first page, ``base + "pagina/<n>/"`` for the others."""
    chunks = [items[k:k + PAGE_ROWS] for k in range(0, len(items), PAGE_ROWS)] or [[]]
    urls = [base if n == 1 else f"{base}pagina/{n}/" for n in range(1, len(chunks) + 1)]
    return [(urls[n - 1], ListPage(chunk, n, urls, len(items))) for n, chunk in enumerate(chunks, 1)]


def line_order(line: dict):
    return (collation_key(line["origem_municipio"]), line["origem_uf"], collation_key(line["destino_municipio"]),
            line["destino_uf"], line["prefixo"])


def lines_by_uf(lines: list[dict]) -> dict[str, list[dict]]:
    """Each UF (or foreign country code) with the lines that start or end there, in pt-BR order."""
    out: dict[str, list[dict]] = {}
    for line in sorted(lines, key=line_order):
        for uf in dict.fromkeys((line["origem_uf"], line["destino_uf"])):
            out.setdefault(uf, []).append(line)
    return dict(sorted(out.items()))


def line_categories(line: dict) -> list[str]:
    """The service categories a line's timetable or fares name."""
    return sorted({h["categoria"] for h in line["horarios"] if h.get("categoria")}
                  | {f["categoria"] for f in line["tarifas"] if f.get("categoria")})


# the names of a row's cells in the lines' filter files, in order: the form hands them to filtros.js
# (``data-linhas-campos``), which reads each cell by its name; categorias are positions in the form's list
LINE_FIELDS = ["prefixo", "url", "ligacao", "ambito", "categorias", "transportadoras"]


def lines_json(lines: list[dict], categories: list[str]) -> list[list]:
    """The rows the lines' filters read (one file per UF), compact: a list per line, its cells in the order
    of :data:`LINE_FIELDS` (the positions of its categories in ``categories``, its carriers' CNPJs); the
    labels are the form's."""
    position = {c: k for k, c in enumerate(categories)}
    cells = {"prefixo": lambda x: x["prefixo"], "url": lambda x: x["url"], "ligacao": ligacao,
             "ambito": lambda x: x["ambito"],
             "categorias": lambda x: [position[c] for c in line_categories(x) if c in position],
             "transportadoras": lambda x: [c["cnpj"] for c in x["transportadoras"]]}
    return [[cells[name](x) for name in LINE_FIELDS] for x in lines]


def kind_index(kind, records: list[dict], by_uf: dict[str, list[dict]] | None = None,
               template: str | None = None) -> list[tuple[str, str, dict]]:
    """The index pages of a kind of record, as its declaration says (pipeline/contract/kinds.py ``index``,
    ``index_by``): ``(url, template, context)``. ``template`` is the index's (the kind's ``index`` by default:
    the generic ``indice`` when the theme has none of that name); ``by_uf`` the records per UF when split so."""
    base, template = f"{kind.index}/", template or kind.index
    if kind.index_by == "unica":
        return [(base, template, {"tipo": kind})]
    if kind.index_by == "uf":
        places = {uf: kind.uf_pattern.format(slug=slugify(uf)) for uf in (by_uf or {})}
        pages = [(base, template, {"tipo": kind, "ufs": [(uf, len(items), "/" + places[uf])
                                                         for uf, items in (by_uf or {}).items()]})]
        for uf, items in (by_uf or {}).items():
            pages += [(url, f"{kind.index}_uf", {"tipo": kind, "uf": uf, "pagina": page})
                      for url, page in paged(places[uf], items)]
        return pages
    return [(url, template, {"tipo": kind, "pagina": page}) for url, page in paged(base, records)]
