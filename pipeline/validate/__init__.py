"""Validation stage: Frictionless (types, constraints, keys, foreign keys) plus the portal's checks.

Returns a :class:`Report`; it never prints. In lenient mode the rows with a grave problem are
rejected and the rest validated again, until no foreign key points at a rejected row: rejected rows
are reported and kept, never silently dropped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import partial

from ..contract.problems import TYPE_NAMES, Problem
from ..contract.schema import Schema
from ..read import SourcePackage, SourceTable
from ..read.provenance import Source
from ..tools import parallel
from . import screen
from .checks import mask_personal_data, run_checks

# Problems of a whole file, not of one row: even lenient mode cannot publish around them, since rows
# may be lost or misread (an unclosed quote swallows every row after it into one cell).
STRUCTURAL = frozenset({
    "codificacao", "coluna-ausente", "coluna-repetida", "arquivo-vazio", "arquivo-ilegivel", "separador",
    "aspas-sem-fechamento", "csv-ilegivel", "descritor-invalido", "caminho-inseguro", "colunas-demais",
})
# The cell grammar's rules (pipeline/validate/cells.py), dropped where Frictionless flagged the same cell.
CELL_RULES = frozenset({
    "obrigatorio", "data-invalida", "data-fora-do-intervalo", "data-hora-formato", "horario-formato",
    "numero-formato", "inteiro-formato", "numero-grande", "booleano-formato", "caractere-de-controle",
    "texto-longo", "espacos-nas-pontas",
})

NOT_COVERED = "não coberto"  # what counts of a table no source supplies read as (never 0)


@dataclass
class Report:
    problems: list[Problem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    rows_read: dict[str, int] = field(default_factory=dict)
    accepted: dict[str, SourceTable] = field(default_factory=dict)
    sources: list[Source] = field(default_factory=list)
    coverage: dict[str, list[str]] = field(default_factory=dict)  # table -> ids of the sources supplying it
    file_sources: dict[str, str] = field(default_factory=dict)  # file as shown -> source id
    # per table, once accepted: lidas = mantidas + duplicadas + rejeitadas (asserted)
    accounting: dict[str, dict[str, int]] = field(default_factory=dict)
    # table -> field -> {text: typed value}, as validation read them (screen.KEPT_TYPES): the derive stage
    # takes them instead of parsing every date again; the build lets them go once it has derived
    typed_values: dict[str, dict[str, dict]] = field(default_factory=dict, repr=False, compare=False)
    # rows accepted per table, kept when the rows themselves are let go (let_rows_go)
    accepted_counts: dict[str, int] = field(default_factory=dict)
    # the tables read a batch at a time (pipeline/build/batches.py): table -> batches.Batched
    batches: dict = field(default_factory=dict, repr=False, compare=False)

    def let_rows_go(self) -> None:
        """Once derived, the rows as read are not needed again: their counts stay, the rows are freed (a
        national package's rows as lists of text were a large part of the page stage's memory)."""
        for name, t in self.accepted.items():
            self.accepted_counts.setdefault(name, len(t.rows))
            t.let_go()

    def account(self, counts: dict[str, dict[str, int]]) -> None:
        """Every row read is kept, a later source's repeat of a kept key, or refused with a reason."""
        refused: dict[str, set] = {}
        for p in self.errors:
            if p.linha is not None:
                refused.setdefault(p.tabela, set()).add((p.arquivo, p.linha))
        for name, c in counts.items():
            row = {"lidas": c["lidas"], "mantidas": len(self.accepted[name].rows), "duplicadas": c["duplicadas"],
                   "rejeitadas": len(refused.get(name, ()))}
            if row["lidas"] != row["mantidas"] + row["duplicadas"] + row["rejeitadas"]:
                raise AssertionError(f"contagem inconsistente em {name}: {row}")
            self.accounting[name] = row

    def covered(self, table: str) -> bool:
        return bool(self.coverage.get(table))

    @property
    def fictional(self) -> bool:
        """A source of the build is fictional: every page and download says so."""
        return any(s.ficticia for s in self.sources)

    def count(self, counts: dict[str, int], table: str) -> int | str:
        """A table's count, or "não coberto" when no source supplies the table."""
        return counts.get(table, 0) if self.covered(table) else NOT_COVERED

    @property
    def conflicts(self) -> list[Problem]:
        return [p for p in self.problems if p.regra == "conflito-entre-fontes"]

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.grave]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if not p.grave]

    @property
    def valid(self) -> bool:
        return not self.errors

    def to_dict(self) -> dict:
        return {
            "valido": self.valid,
            "erros": len(self.errors),
            "avisos": len(self.warnings),
            "conflitos_entre_fontes": len(self.conflicts),
            "fontes": [s.as_descriptor() for s in self.sources],
            "cobertura": {n: self.coverage.get(n, []) or NOT_COVERED for n in self.rows_read},
            "linhas_lidas": {n: self.count(self.rows_read, n) for n in self.rows_read},
            "linhas_aceitas": {n: self.count({n: self.accepted_counts.get(n, len(t.rows))}, n)
                               for n, t in self.accepted.items()},
            "contagem": {n: (c if self.covered(n) else NOT_COVERED) for n, c in self.accounting.items()},
            "observacoes": self.notes,
            "problemas": [p.as_row() for p in self.problems],
        }


def _constraint(note: str) -> tuple[str, str]:
    m = re.match(r'constraint "(\w+)" is "(.*)"$', note or "", re.S)
    return (m[1], m[2]) if m else ("", note or "")


def _from_frictionless(error, table: SourceTable, schema: Schema) -> Problem:
    """Translate one Frictionless error into a pt-BR :class:`Problem`."""
    kind = error.type
    line = getattr(error, "row_number", None)
    cells = list(getattr(error, "cells", []) or [])
    col = getattr(error, "field_name", None)
    value = getattr(error, "cell", None)

    def p(slug, **ctx):
        return Problem.of(slug, table.name, table.source, line, col, value, registro=cells, **ctx)

    if kind == "type-error":
        ftype = schema[table.name].field(col).get("type", "string")
        return p("tipo", tipo=TYPE_NAMES.get(ftype, ftype))
    if kind == "constraint-error":
        name, limit = _constraint(error.note)
        if name == "required":
            return p("obrigatorio")
        if name == "pattern":
            return p("padrao", padrao=limit)
        if name == "enum":
            return p("lista", permitidos=", ".join(schema[table.name].field(col)["constraints"]["enum"]))
        if name == "minimum":
            return p("minimo", limite=limit)
        if name == "exclusiveMinimum":
            return p("maior-que", limite=limit)
        if name in ("minLength", "maxLength"):
            return p("comprimento", detalhe=f"{name} {limit}")
        return p("estrutura", detalhe=f"o valor não atende à restrição {name or 'do esquema'}")
    if kind == "unique-error":
        return p("unico")
    if kind == "primary-key":
        key = schema[table.name].primary_key
        col = ", ".join(key)
        value = " | ".join(cells[table.columns.index(k)] for k in key) if cells else None
        return p("chave-primaria")
    if kind == "foreign-key":
        col = ", ".join(error.field_names)
        value = " | ".join(error.field_cells)
        ref = f"{error.reference_name}.{', '.join(error.reference_field_names)}"
        return p("chave-estrangeira", referencia=ref)
    if kind == "blank-row":
        return p("estrutura", detalhe="a linha não tem valor em nenhuma coluna do esquema")
    if kind == "missing-cell":
        return p("estrutura", detalhe="falta uma célula nesta linha")
    if kind == "extra-cell":
        return p("estrutura", detalhe="a linha tem uma célula a mais")
    return p("estrutura", detalhe=f"a validação estrutural (Frictionless, erro {kind}) recusou esta linha")


def frictionless_problems(tables: dict[str, SourceTable], schema: Schema, *, fast: bool = True,
                          keep: dict | None = None) -> list[Problem]:
    """Frictionless's verdict on the tables, in pt-BR. ``fast`` (the default) asks Frictionless only
    about the rows a screen flags and checks the keys over its typed values (:mod:`.screen`, which
    leaves them in ``keep`` when given); ``fast=False`` runs it over every row: both give the same
    problems (tests/test_differential.py)."""
    problems = []
    found = screen.fast(tables, schema, keep) if fast else screen.full(tables, schema)
    # a row's cell errors in the order of its columns, then its key errors as they came: Frictionless
    # gives a table's foreign-key fields first when it is told of the keys, which the fast path does not
    # tell it (the rows it asks about are checked for keys apart); ordered here, both paths agree
    tables_order = {r["name"]: i for i, r in enumerate(schema.source_descriptor()["resources"])}

    def in_row_order(located):
        name, pos, _, error = located
        number = getattr(error, "field_number", None)
        return tables_order.get(name, len(tables_order)), pos, number is None, number or 0

    found = sorted(found, key=in_row_order)
    for name, pos, _, error in found:
        t = tables[name]
        problem = _from_frictionless(error, t, schema)
        if 0 <= pos < len(t.rows):
            file, line = t.origin(pos)
            problem = replace(problem, arquivo=file, linha=line)
        problems.append(problem)
    return problems


def header_errors(problems: list[Problem]) -> bool:
    """A grave problem of a whole file (its header, its structure): even lenient mode publishes nothing."""
    return any(p.grave and (p.linha in (None, 1) or p.regra in STRUCTURAL) for p in problems)


PARALLEL_ROWS = 100_000  # below this many rows a second process costs more than it saves


def _big(tables: dict[str, SourceTable]) -> bool:
    return sum(len(t.rows) for t in tables.values()) >= PARALLEL_ROWS


def validate(source: SourcePackage, schema: Schema, *, lenient: bool = False) -> Report:
    """Validate a read package. ``report.accepted`` holds the tables to build from: everything when
    valid; in lenient mode the rows without grave problems; otherwise nothing."""
    report = Report(
        problems=list(source.problems),
        notes=list(source.notes),
        rows_read={n: len(t.rows) for n, t in source.tables.items()},
        sources=list(source.sources),
        coverage=dict(source.coverage),
        file_sources=dict(source.file_sources),
    )
    for s in report.sources:  # a CPF in a source's own metadata: refused, or masked in lenient mode (LGPD)
        report.problems += [Problem.of("dado-pessoal-metadados" if not lenient else "dado-pessoal-mascarado",
                                       "datapackage", f"{s.pasta}/datapackage.json", None, key, None,
                                       grave=not lenient) for key in s.mascarados]
    tables = dict(source.tables)
    if lenient:  # a CPF in free text is masked and the row kept (LGPD); elsewhere it is refused below
        tables, masked = mask_personal_data(tables, schema)
        report.problems += masked
    seen: set[tuple] = set()
    while True:
        # the portal's checks in a second process, beside Frictionless's verdict (both read the same rows)
        checks = parallel.call(partial(run_checks, tables, schema), parallel=_big(tables))
        by_frictionless = frictionless_problems(tables, schema, keep=report.typed_values)
        flagged = {(p.arquivo, p.linha, p.coluna) for p in by_frictionless}
        own = [p for p in checks.result()  # one bad cell is reported once
               if not (p.regra in CELL_RULES and (p.arquivo, p.linha, p.coluna) in flagged)]
        found = [
            p
            for p in by_frictionless + own
            if (p.regra, p.tabela, p.arquivo, p.linha, p.coluna) not in seen
        ]
        seen.update((p.regra, p.tabela, p.arquivo, p.linha, p.coluna) for p in found)
        report.problems += found
        bad: dict[str, set[tuple[str, int]]] = {}
        for p in found:
            if p.grave and p.linha is not None:
                bad.setdefault(p.tabela, set()).add((p.arquivo, p.linha))
        if not lenient or not bad:
            break
        # Drop the rejected rows and validate again: a foreign key may now point at a dropped row.
        for name, origins in bad.items():
            tables[name] = tables[name].without(origins)
    for t in [*source.tables.values(), *tables.values()]:  # the columns judged: the later stages read the rows'
        t.let_columns_go()                                   # numbers (a table held by column) or make them again
    if report.valid or (lenient and not header_errors(report.problems)):
        report.accepted = tables
        report.account(source.counts)
    return report
