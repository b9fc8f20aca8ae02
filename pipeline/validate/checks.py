"""The portal's own named checks: rules of the contract that a Table Schema cannot express.

Each check is a function ``(tables, schema) -> list[Problem]`` registered in :data:`CHECKS` with its
rule slug; the message templates live in :mod:`pipeline.contract.problems`. They look only at cells that
passed their Frictionless type and pattern, so one bad cell is reported once.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date

from ..contract.identifiers import MAX_SLUG, cnpj_is_valid, has_any_cpf, has_cpf, mask_cpf, slugify
from ..contract.kinds import RECORD_KINDS
from ..contract.problems import Problem
from ..contract.schema import Schema
from ..read import SourceTable
from .cells import CellError, blank, parse

Tables = dict[str, SourceTable]
CHECKS: dict[str, Callable[[Tables, Schema], list[Problem]]] = {}

# Text columns whose values become URL slugs (data contract, "Stable URLs").
# the key of each source table whose records have a page: it becomes the page's address (pipeline/contract/kinds.py)
SLUG_KEYS = {k.table: k.key for k in RECORD_KINDS if k.table != "municipios"}
_DECIMAL2 = re.compile(r"-?[0-9]+(\.[0-9]{1,2})?\Z")


def check(slug: str):
    def register(fn):
        CHECKS[slug] = fn
        return fn

    return register


def _records(t: SourceTable):
    """``(position, {column: cell}, cells)`` for each row."""
    for pos, cells in enumerate(t.rows):
        yield pos, dict(zip(t.columns, cells)), cells


def _problem(slug: str, t: SourceTable, pos: int, col: str | None, value, cells, **ctx) -> Problem:
    file, line = t.origin(pos)
    return Problem.of(slug, t.name, file, line, col, value, registro=cells, **ctx)  # a CPF in it is masked


def _iso(v: str) -> date | None:
    try:
        return date.fromisoformat(v)
    except ValueError:
        return None


@check("cnpj-digitos")
def cnpj_digits(tables: Tables, schema: Schema) -> list[Problem]:
    """A carrier's CNPJ must carry valid check digits (data contract, transportadoras)."""
    t = tables["transportadoras"]
    return [
        _problem("cnpj-digitos", t, line, "cnpj", r["cnpj"], cells)
        for line, r, cells in _records(t)
        if re.fullmatch(r"[0-9]{14}", r["cnpj"]) and not cnpj_is_valid(r["cnpj"])
    ]


@check("motivo-extincao")
def extinction_reason(tables: Tables, schema: Schema) -> list[Problem]:
    """motivo_extincao is required exactly when extinta_em is set (art. 28 I-VI)."""
    t = tables["outorgas"]
    out = []
    for line, r, cells in _records(t):
        if r["extinta_em"] and not r["motivo_extincao"]:
            out.append(_problem("motivo-extincao-obrigatorio", t, line, "motivo_extincao", "", cells))
        elif r["motivo_extincao"] and not r["extinta_em"]:
            out.append(_problem("motivo-sem-extincao", t, line, "extinta_em", r["motivo_extincao"], cells))
    return out


@check("linha-obrigatoria")
def line_required(tables: Tables, schema: Schema) -> list[Problem]:
    """Every outorga names its line, except chartered service (fretamento), which has none."""
    t = tables["outorgas"]
    return [
        _problem("linha-obrigatoria", t, line, "linha_prefixo", "", cells, modalidade=r["modalidade"])
        for line, r, cells in _records(t)
        if not r["linha_prefixo"] and r["modalidade"] and r["modalidade"] != "fretamento"
    ]


def _grammar_refusal(value: str, f: dict) -> CellError | None:
    """Why the portal's grammar refuses a cell of field ``f`` (None when it does not)."""
    if value == "":
        return None
    if blank(value) and f.get("constraints", {}).get("required"):
        return CellError("obrigatorio")
    try:
        parse(value, f)
    except CellError as refusal:
        return refusal
    return None


@check("celulas")
def cell_grammar(tables: Tables, schema: Schema) -> list[Problem]:
    """Every non-empty cell follows the portal's grammar of its type (:mod:`.cells`: ASCII digits, one
    shape per type, dates in range, no control characters), and a required value is not only spaces.
    The verdict depends on the text alone, so each distinct text of a column is parsed once."""
    out = []
    for name, table in schema.tables.items():
        t = tables[name]
        found = []  # (row position, field number, problem): reported row by row, fields in schema order
        for number, f in enumerate(table.fields):
            i = t.columns.index(f["name"])
            verdicts = {v: _grammar_refusal(v, f) for v in set(t.column(f["name"]))}
            for pos in t.positions(f["name"], lambda v, vs=verdicts: vs[v] is not None):
                value = t.rows[pos][i]
                refusal = verdicts[value]
                found.append((pos, number, _problem(refusal.regra, t, pos, f["name"], value, t.rows[pos],
                                                    **refusal.context)))
        out += [p for _, _, p in sorted(found, key=lambda x: x[:2])]
    return out


@check("duas-casas-decimais")
def two_decimals(tables: Tables, schema: Schema) -> list[Problem]:
    """Amounts in reais have at most two decimals: fares (data contract, tarifas) and fines."""
    out = []
    for name, col in (("tarifas", "valor"), ("tarifas_promocionais", "valor"), ("infracoes", "valor_multa")):
        t = tables[name]
        i = t.columns.index(col)
        out += [
            _problem("duas-casas-decimais", t, pos, col, t.rows[pos][i], t.rows[pos])
            for pos in t.positions(col, lambda v: bool(re.fullmatch(r"-?[0-9]+\.[0-9]{3,}", v, re.A))
                                   and not _DECIMAL2.match(v))
        ]
    return out


@check("fim-antes-do-inicio")
def end_before_start(tables: Tables, schema: Schema) -> list[Problem]:
    """A period cannot end before it starts (promotions: fim >= inicio; outorgas with a set end)."""
    out = []
    for name in ("tarifas_promocionais", "outorgas"):
        t = tables[name]
        for line, r, cells in _records(t):
            start, end = _iso(r["inicio"]), _iso(r["fim"])
            if start and end and end < start:
                out.append(_problem("fim-antes-do-inicio", t, line, "fim", r["fim"], cells, inicio=r["inicio"]))
    return out


@check("caducidade-outra-transportadora")
def caducidade_carrier(tables: Tables, schema: Schema) -> list[Problem]:
    """A caducidade's carrier must be the holder of the outorga it declares lapsed (art. 29)."""
    holders = {r["id"]: r["transportadora_cnpj"] for _, r, _ in _records(tables["outorgas"])}
    t = tables["caducidades"]
    return [
        _problem(
            "caducidade-outra-transportadora",
            t,
            line,
            "transportadora_cnpj",
            r["transportadora_cnpj"],
            cells,
            outorga=r["outorga_id"],
            titular=holders[r["outorga_id"]],
        )
        for line, r, cells in _records(t)
        if r["outorga_id"] in holders and r["transportadora_cnpj"] != holders[r["outorga_id"]]
    ]


@check("slug")
def slugs(tables: Tables, schema: Schema) -> list[Problem]:
    """Keys that become URLs must give a non-empty lower-case ASCII slug, distinct per table."""
    out = []
    for name, col in SLUG_KEYS.items():
        t = tables[name]
        seen: dict[str, str] = {}
        for line, r, cells in _records(t):
            key = r[col]
            if not key:
                continue
            slug = slugify(key)
            if not slug:
                out.append(_problem("chave-sem-slug", t, line, col, key, cells))
            elif len(slug) > MAX_SLUG:
                out.append(_problem("chave-longa", t, line, col, key, cells, limite=MAX_SLUG))
            elif slug in seen and seen[slug] != key:
                out.append(_problem("slug-repetido", t, line, col, key, cells, endereco=slug, outra=seen[slug]))
            else:
                seen.setdefault(slug, key)
    return out


_OTHER_DIGITS = re.compile(r"[^\x00-\x7f]")


def _other_script_digits(text: str) -> bool:
    """Whether ``text`` holds a decimal digit of another script than ASCII (full-width, Arabic-Indic...)."""
    return bool(_OTHER_DIGITS.search(text)) and any(ch.isdecimal() and not ch.isascii() for ch in text)


@check("algarismos-nao-ascii")
def ascii_identifiers(tables: Tables, schema: Schema) -> list[Problem]:
    """Identifiers (a table's key, a reference to another table) are written in ASCII digits: ``１２`` and
    ``12`` would be two records with one address (their slug is the same), and a search for one would
    not find the other. Identifiers with a pattern are held to it already; this covers the others."""
    out = []
    for name, table in schema.tables.items():
        t = tables[name]
        for c in sorted(table.key_fields):
            if table.field(c).get("constraints", {}).get("pattern"):
                continue
            out += [_problem("algarismos-nao-ascii", t, pos, c, t.rows[pos][t.columns.index(c)], t.rows[pos])
                    for pos in t.positions(c, _other_script_digits)]
    return out


@check("url-insegura")
def safe_urls(tables: Tables, schema: Schema) -> list[Problem]:
    """Links to acts' full texts (art. 12) are published only as http(s) addresses."""
    out = []
    for name in ("outorgas", "caducidades"):
        t = tables[name]
        out += [
            _problem("url-insegura", t, line, "documento_url", r["documento_url"], cells)
            for line, r, cells in _records(t)
            if r["documento_url"] and not re.fullmatch(r"https?://[^\s]+", r["documento_url"], re.I | re.A)
        ]
    return out


def _cpf_hits(t: SourceTable, table) -> dict[int, list[tuple[str, str]]]:
    """Where a table holds a CPF: {row position: [(column, rule)]}. Every text column, keys and coded
    columns included, is searched for the printed shape (000.000.000-00) and for any other shape with a
    CPF's check digits (bare, spaced, slashed, invisible characters, another script's digits): a protocol
    number that is a person's CPF is personal data as much as a name that holds one."""
    cols = table.fields_of_type("string")
    hits: dict[int, list[tuple[str, str]]] = {}
    for c in cols:
        for pos in t.positions(c, has_cpf):
            hits.setdefault(pos, []).append((c, "dado-pessoal"))
    for c in cols:
        for pos in t.positions(c, lambda v: not has_cpf(v) and has_any_cpf(v)):
            hits.setdefault(pos, []).append((c, "cpf-sem-pontuacao"))
    return {pos: sorted(found, key=lambda h: (h[1] != "dado-pessoal", cols.index(h[0]))) for pos, found in hits.items()}


@check("dado-pessoal")
def personal_data(tables: Tables, schema: Schema) -> list[Problem]:
    """No natural person's CPF is published (LGPD): refused wherever ``_cpf_hits`` finds one (in lenient
    mode the free text is masked first, ``mask_personal_data``, and only what is left is refused)."""
    out = []
    for name, table in schema.tables.items():
        t = tables[name]
        for pos, found in sorted(_cpf_hits(t, table).items()):  # the CPF itself is masked in the report
            row = dict(zip(t.columns, t.rows[pos]))
            out += [_problem(slug, t, pos, c, row[c], t.rows[pos]) for c, slug in found]
    return out


def mask_personal_data(tables: Tables, schema: Schema) -> tuple[Tables, list[Problem]]:
    """Lenient mode: a CPF in free text (a company name that holds its owner's CPF, as a MEI's does) is
    masked in the published row, with a warning naming the cell; the row is kept. A CPF in a key or a
    coded column is not masked (the key would change): ``personal_data`` refuses that row."""
    out, problems = dict(tables), []
    for name, table in schema.tables.items():
        if name not in tables:
            continue
        t = tables[name]
        hits = {pos: [c for c, _ in found if c not in table.key_fields
                      and not table.field(c).get("constraints", {}).get("pattern")]
                for pos, found in _cpf_hits(t, table).items()}
        hits = {pos: cols for pos, cols in hits.items() if cols}
        if not hits:
            continue
        rows = list(t.rows)
        for pos, cols in sorted(hits.items()):
            cells = list(rows[pos])
            for c in cols:
                i = t.columns.index(c)
                cells[i] = mask_cpf(cells[i])
                problems.append(_problem("cpf-mascarado", t, pos, c, cells[i], cells, grave=False))
            rows[pos] = cells
        masked = SourceTable(t.name, t.columns, rows, t.row_numbers, t.source, t.row_sources)
        masked.data_rows = t.data_rows
        out[name] = masked
    return out, problems


def run_checks(tables: Tables, schema: Schema) -> list[Problem]:
    """Every check over ``tables``; a table not given is empty (a batch of a table read in batches is
    validated alone, pipeline/build/batches.py)."""
    tables = _Complete(tables, schema)
    problems: list[Problem] = []
    for fn in CHECKS.values():
        problems += fn(tables, schema)
    return problems


class _Complete(dict):
    """The tables given, and any other of the schema, empty, when a check asks for it."""

    def __init__(self, tables: Tables, schema: Schema):
        super().__init__(tables)
        self.schema = schema

    def __missing__(self, name: str) -> SourceTable:
        return SourceTable(name, self.schema[name].field_names, source=self.schema[name].filename)
