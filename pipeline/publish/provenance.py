"""The provenance record of a release: one record, written into every download in that format's own place.

What it holds: the sources (publisher, title, address, date of their data, licence, fictional or not),
the date of the calculations (``--as-of``, not the date of the data), the licence of the portal's own
work, whether the build is fictional, the suggested citation, and each table's coverage: covered by
which sources, not covered ("As fontes deste site não incluem esta tabela": its file is empty because
its rows are unknown, not because there are none), or made by the portal (achados, inconsistências,
municípios, rejeitados), with the rules that could not run for want of a covered table.

The published ``datapackage.json`` is where the record lives (``sources``, ``licenses``, ``x-ficticio``,
``x-data-de-referencia``, ``x-citacao`` and each resource's ``x-cobertura``, written by
:func:`pipeline.publish.datapackage.published_descriptor`); :meth:`Provenance.from_descriptor` reads it
back, and every other format takes it from there:

- Parquet: the file's key-value metadata (:meth:`Provenance.items`, plus ``proveniencia``, the whole
  record as JSON; pipeline/publish/columnar.py);
- XLSX: the document properties (core and custom) and a sheet beside the data, ``Leia-me`` (:meth:`Provenance.readme`;
  pipeline/publish/spreadsheet.py);
- SQLite: the table ``_metadados`` (:meth:`Provenance.metadata_rows`; pipeline/publish/database.py);
- Datasette: ``metadata.json``'s title, description, licence and source, per database and per table
  (pipeline/publish/database.py ``metadata``);
- a record page's ``index.json``: :meth:`Provenance.for_record`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..read.provenance import REGIME_KEY, REVOKED, regime_sentence, table_regimes

PORTAL = "Portal do transporte rodoviário interestadual de passageiros"
FICTIONAL_LABEL = "Dados fictícios, para demonstração"
LICENSE = {
    "name": "CC-BY-4.0",
    "path": "https://creativecommons.org/licenses/by/4.0/",
    "title": "Creative Commons Atribuição 4.0 Internacional",
}
AS_OF_MEANING = ("data dos cálculos (situações, prazos, vigências), não a data dos dados: a data de cada fonte "
                 "está em sources")

# each resource's coverage (``x-cobertura`` in the published descriptor, ``situacao``)
COVERED, NOT_COVERED, MADE = "coberta", "não coberta", "calculada pelo portal"
NOT_COVERED_SENTENCE = "As fontes deste site não incluem esta tabela"
NOT_COVERED_TEXT = (f"{NOT_COVERED_SENTENCE}: ela vem vazia porque os registros são desconhecidos, não porque "
                    "não existam.")

def _br(day: str) -> str:
    """A source's date (AAAA, AAAA-MM or AAAA-MM-DD) in pt-BR form: 2021, 06/2021, 30/06/2021."""
    return "/".join(reversed(day.split("-"))) if day else "data não informada"


def source_text(source: dict) -> str:
    """How the record names a source: "ANTT — …, Quadro de horários 2021 (dados de 2021; licença: …;
    https://…)"; a folder that declares none: "fonte não declarada (pasta x)"."""
    title = source.get("title") or source.get("name", "")
    if source.get("declared") is False:
        return title
    parts = [f"dados de {_br(source.get('date', ''))}"]
    if source.get("license"):
        parts.append(f"licença: {source['license']}")
    if source.get("fictional"):
        parts.append("fictícia")
    if source.get("path"):
        parts.append(source["path"])
    return f"{title} ({'; '.join(parts)})"


@dataclass(frozen=True)
class TableCoverage:
    """One table's coverage: ``situacao`` (:data:`COVERED`, :data:`NOT_COVERED`, :data:`MADE`), the ids of
    its sources, and for a table of rule results the rules that ran and those that could not."""

    situacao: str
    fontes: tuple[str, ...] = ()
    verificadas: tuple[str, ...] = ()
    nao_verificadas: tuple[dict, ...] = ()  # {"regra", "titulo", "artigo", "tabelas_ausentes"}

    def as_descriptor(self) -> dict:
        out = {"situacao": self.situacao, "fontes": list(self.fontes)}
        if self.verificadas or self.nao_verificadas:
            out["regras_verificadas"] = list(self.verificadas)
            out["regras_nao_verificadas"] = [dict(r) for r in self.nao_verificadas]
        return out

    @classmethod
    def from_descriptor(cls, entry) -> TableCoverage | None:
        if not isinstance(entry, dict) or entry.get("situacao") not in (COVERED, NOT_COVERED, MADE):
            return None
        return cls(entry["situacao"], tuple(entry.get("fontes") or ()), tuple(entry.get("regras_verificadas") or ()),
                   tuple(dict(r) for r in entry.get("regras_nao_verificadas") or ()))


def rules_sentence(coverage: TableCoverage, titles: dict[str, str]) -> str:
    """What a table of rule results (achados, inconsistências) says of its rules: all ran, or which did
    not and for want of which tables (``titles``: table -> its title); "" for another table."""
    ran, missing = coverage.verificadas, coverage.nao_verificadas
    if not ran and not missing:
        return ""
    if not missing:
        return f"Todas as {len(ran)} regras foram verificadas." if len(ran) != 1 else "A regra foi verificada."
    each = "; ".join(
        f"{r['titulo']}{' (' + r['artigo'] + ')' if r.get('artigo') else ''}, por faltar "
        f"{', '.join(titles.get(t, t) for t in r.get('tabelas_ausentes', []))}" for r in missing)
    if not ran:
        return (f"Nenhuma regra pôde ser verificada: as fontes deste site não incluem as tabelas que elas leem "
                f"({each}). A tabela vem vazia porque os resultados são desconhecidos, não porque não existam.")
    return (f"Regras não verificadas ({len(missing)} de {len(ran) + len(missing)}), porque as fontes deste site não "
            f"incluem as tabelas que elas leem: {each}. Para essas regras, a falta de linhas não quer dizer que "
            "não haja casos.")


@dataclass(frozen=True)
class Provenance:
    """The release's provenance record (see the module's note), read from the published descriptor."""

    title: str  # the package's title (with the fictional label when fictional)
    description: str
    as_of: str  # AAAA-MM-DD: the date of the calculations
    fictional: bool
    licence: dict
    sources: tuple[dict, ...]
    citation: str
    tables: dict[str, dict] = field(default_factory=dict)  # name -> {"title", "description", "coverage"}

    @classmethod
    def from_descriptor(cls, descriptor: dict) -> Provenance:
        tables = {}
        for r in descriptor.get("resources", []):
            tables[r["name"]] = {"title": r.get("title", r["name"]), "description": r.get("description", ""),
                                 "coverage": TableCoverage.from_descriptor(r.get("x-cobertura")),
                                 "regime": r.get(REGIME_KEY, "")}
        licences = descriptor.get("licenses") or [LICENSE]
        return cls(title=descriptor.get("title", ""), description=descriptor.get("description", ""),
                   as_of=str(descriptor.get("x-data-de-referencia") or descriptor.get("version") or ""),
                   fictional=bool(descriptor.get("x-ficticio")), licence=dict(licences[0]),
                   sources=tuple(_public(s) for s in descriptor.get("sources") or []),
                   citation=descriptor.get("x-citacao", ""), tables=tables)

    # --- one table --------------------------------------------------------------------------------------

    def coverage(self, table: str) -> TableCoverage | None:
        """The table's coverage; None when the descriptor does not say (a writer called on its own)."""
        return (self.tables.get(table) or {}).get("coverage")

    def covered(self, table: str) -> bool:
        c = self.coverage(table)
        return c is None or c.situacao != NOT_COVERED

    def sources_of(self, table: str, ids: Iterable[str] | None = None) -> list[dict]:
        """The sources of ``table`` (those of the ids given, a record's ``fonte``, when any are known)."""
        by_id = {s["name"]: s for s in self.sources}
        wanted = [i for i in dict.fromkeys(ids or ()) if i in by_id]
        if not wanted:
            c = self.coverage(table)
            wanted = [i for i in (c.fontes if c is not None else by_id) if i in by_id]
        return [by_id[i] for i in wanted]

    def coverage_text(self, table: str) -> str:
        """The table's coverage in words, as every format states it."""
        c = self.coverage(table)
        if c is None:
            return ""
        if c.situacao == NOT_COVERED:
            return NOT_COVERED_TEXT
        named = " | ".join(source_text(s) for s in self.sources_of(table))
        if c.situacao == MADE:
            return "calculada pelo portal a partir das fontes deste pacote" + (f": {named}" if named else "")
        return f"coberta pelas fontes: {named}" if named else COVERED

    def regime_text(self, table: str | None = None) -> str:
        """Which regime the records belong to (pipeline/read/provenance.py ``regime_sentence``): the table's,
        or (no ``table``) every covered table's; the decree's revocation alone when no source says."""
        covered = {name: list(t["coverage"].fontes) for name, t in self.tables.items()
                   if (table is None or name == table) and t["coverage"] is not None
                   and t["coverage"].situacao == COVERED}
        regimes = table_regimes(covered, {name: t.get("regime", "") for name, t in self.tables.items()},
                                {s.get("name"): s.get(REGIME_KEY, "") for s in self.sources})
        titles = {name: self.tables[name]["title"].removeprefix(f"{FICTIONAL_LABEL} — ") for name in regimes}
        return regime_sentence(regimes, {name: t[:1].lower() + t[1:] for name, t in titles.items()}) or REVOKED

    def unchecked_text(self, table: str) -> str:
        """For achados and inconsistências: which rules did not run, and why ("" for other tables)."""
        c = self.coverage(table)
        if c is None:
            return ""
        titles = {name: t["title"].removeprefix(f"{FICTIONAL_LABEL} — ") for name, t in self.tables.items()}
        return rules_sentence(c, titles)

    def items(self, table: str | None = None) -> list[tuple[str, str]]:
        """The record as ``(key, text)`` pairs, the same keys in Parquet's key-value metadata and SQLite's
        ``_metadados``: the package's, or (``table``) the table's with the package's after them."""
        out = []
        if table is not None:
            t = self.tables.get(table, {})
            out += [("tabela", table), ("titulo", t.get("title", table)), ("descricao", t.get("description", ""))]
            c = self.coverage(table)
            if c is not None:
                out.append(("cobertura", c.situacao))
                out.append(("fontes", self.coverage_text(table) if c.situacao == NOT_COVERED else
                             " | ".join(source_text(s) for s in self.sources_of(table))))
                if c.verificadas or c.nao_verificadas:
                    out.append(("regras_nao_verificadas", "; ".join(
                        f"{r['regra']} ({', '.join(r.get('tabelas_ausentes', []))})" for r in c.nao_verificadas)
                        or "nenhuma"))
            out.append(("pacote", self.title))
        else:
            out += [("titulo", self.title), ("descricao", self.description),
                    ("fontes", " | ".join(source_text(s) for s in self.sources))]
        out += [
            ("data_de_referencia", self.as_of),
            ("data_de_referencia_descricao", AS_OF_MEANING),
            ("ficticio", f"sim: {FICTIONAL_LABEL}" if self.fictional else "não"),
            ("licenca", f"{self.licence.get('title', '')} ({self.licence.get('name', '')})"),
            ("licenca_url", self.licence.get("path", "")),
            ("citacao", self.citation),
            ("portal", PORTAL),
            ("regime", self.regime_text(table)),
        ]
        return out

    def as_dict(self) -> dict:
        """The whole record as JSON-ready data (the ``proveniencia`` of Parquet and ``_metadados``)."""
        return {
            "portal": PORTAL,
            "pacote": self.title,
            "data_de_referencia": self.as_of,
            "data_de_referencia_descricao": AS_OF_MEANING,
            "ficticio": self.fictional,
            "licenca": self.licence,
            "citacao": self.citation,
            "fontes": [dict(s) for s in self.sources],
            "tabelas": {name: t["coverage"].as_descriptor() for name, t in self.tables.items()
                        if t["coverage"] is not None},
        }

    def as_json(self) -> str:
        return json.dumps(self.as_dict(), ensure_ascii=False, sort_keys=True, separators=(",", ":"))

    def readme(self, table: str) -> list[tuple[str, str]]:
        """The ``Leia-me`` sheet of the table's workbook: ``(item, text)`` rows, in pt-BR."""
        t = self.tables.get(table, {})
        rows = [("Tabela", f"{t.get('title', table)} [{table}]")]
        if self.fictional:
            rows.append(("Aviso", f"{FICTIONAL_LABEL}: nada aqui descreve transportadoras, atos ou infrações reais."))
        rows.append(("Descrição", t.get("description", "")))
        c = self.coverage(table)
        if c is not None:
            rows.append(("Cobertura", NOT_COVERED_TEXT if c.situacao == NOT_COVERED else
                         "calculada pelo portal a partir das fontes deste pacote" if c.situacao == MADE else
                         "coberta pelas fontes abaixo"))
            if c.verificadas or c.nao_verificadas:
                rows.append(("Regras", self.unchecked_text(table)))
        sources = self.sources_of(table) if c is None or c.situacao != NOT_COVERED else []
        rows += [("Fonte", source_text(s)) for s in sources]
        rows += [
            ("Data de referência", f"{_br(self.as_of)}: {AS_OF_MEANING}"),
            ("Dados fictícios", f"sim: {FICTIONAL_LABEL}" if self.fictional else "não"),
            ("Licença do portal", f"{self.licence.get('title', '')} ({self.licence.get('name', '')}), "
                                  f"{self.licence.get('path', '')}"),
            ("Como citar", self.citation),
            ("Pacote", self.title),
            ("Regime", self.regime_text(table)),
            ("Abas", f"{table[:31]}: os registros, um por linha; dicionario: as colunas (tipo, descrição, regras, "
                     "códigos)"),
        ]
        return [(k, v) for k, v in rows if v]

    def for_record(self, table: str, source_ids: Iterable[str] = ()) -> dict:
        """What a record page's ``index.json`` says of where its facts come from: the sources of the record
        (its ``fonte``; else those of its table), the date of the calculations, fictional or not, the
        portal's licence and the citation. Build the record once (:meth:`from_descriptor`) and call this per
        page: ``facts["proveniencia"] = record.for_record(kind.table, [item.get("fonte")])``."""
        out = {
            "fontes": [{k: s[k] for k in ("name", "title", "publisher", "date", "license", "path") if s.get(k)}
                       for s in self.sources_of(table, [i for i in source_ids if i])],
            "data_de_referencia": self.as_of,
            "data_de_referencia_descricao": AS_OF_MEANING,
            "ficticio": self.fictional,
            "licenca": {"name": self.licence.get("name", ""), "path": self.licence.get("path", "")},
            "citacao": self.citation,
        }
        if self.fictional:
            out["aviso"] = FICTIONAL_LABEL
        return out


def _public(source: dict) -> dict:
    """A source entry as the record carries it (the ingest report's path is the download page's)."""
    return {k: v for k, v in source.items() if k != "x-relatorio-de-ingestao"}
