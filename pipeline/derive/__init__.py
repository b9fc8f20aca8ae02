"""Derive stage: typed tables plus the derived fields of the data contract, as of a date.

Each derived column comes from one function of :mod:`pipeline.legal`; :mod:`pipeline.derive.findings` then
adds the ``achados`` table. ``as_of`` is the only notion of "today".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

import numpy as np
import pandas as pd

from ..contract.schema import Schema
from ..legal import caducidades as cad
from ..legal import horarios as hor
from ..legal import infracoes as inf
from ..legal import outorgas as out
from ..legal import promocoes as promo
from ..legal.tarifas import FareHistory
from ..read import SourceTable
from ..read.columns import Columns
from ..read.source import once_per_value
from . import findings, inconsistencies, joins
from . import municipios as places
from .completeness import completeness
from .typed import typed_frame


@dataclass
class Derived:
    """The tables to publish: input columns, then derived ones, in the schema's order, then the
    ``fonte`` of each row. ``unchecked`` maps each finding rule that could not run to the input
    tables no source covers."""

    tables: dict[str, pd.DataFrame]
    as_of: date
    unchecked: dict[str, list[str]] = field(default_factory=dict)
    completeness: dict = field(default_factory=dict)
    # each inconsistency rule (derive/inconsistencies.py) that could not run -> the tables no source covers
    unchecked_inconsistencies: dict[str, list[str]] = field(default_factory=dict)
    # the tables read a batch at a time (pipeline/build/batches.py): ``tables`` holds each empty, and this its
    # counts, dates and summaries, each a ``batches.Batched``
    batches: dict = field(default_factory=dict)
    # each inconsistency rule that ran -> the cases it could not judge (inconsistencies.NotChecked)
    not_checked_inconsistencies: dict[str, list] = field(default_factory=dict)

    def rows(self, name: str) -> int:
        """The rows published of a table (``tables`` holds a table read in batches empty)."""
        return self.batches[name].kept if name in self.batches else len(self.tables[name])


def _col(df: pd.DataFrame, values) -> pd.Series:
    return pd.Series(list(values), index=df.index, dtype=object)


def derive_outorgas(df: pd.DataFrame, as_of: date) -> None:
    terms = [
        out.term(*r) for r in zip(df["instrumento"], df["modalidade"], df["inicio"], df["fim"], df["prorrogada"])
    ]
    df["vencimento"] = _col(df, (t.vencimento for t in terms))
    df["vencimento_fundamento"] = _col(df, (t.fundamento for t in terms))
    df["situacao"] = _col(df, (out.situacao(v, e, as_of) for v, e in zip(df["vencimento"], df["extinta_em"])))


def derive_linhas(df: pd.DataFrame, horarios: pd.DataFrame, weekdays: list[str]) -> None:
    freq = hor.weekly_frequency(horarios.to_dict("records"), weekdays)
    has_timetable = set(horarios["linha_prefixo"])
    for sentido in ("ida", "volta"):
        df[f"frequencia_semanal_{sentido}"] = _col(
            df, (freq.get((p, sentido), 0) if p in has_timetable else None for p in df["prefixo"])
        )


def derive_caducidades(df: pd.DataFrame, as_of: date) -> None:
    df["impedimento_ate"] = _col(df, (cad.impedimento_ate(d) for d in df["data_declaracao"]))
    df["impedimento_vigente"] = _col(df, (cad.impedimento_vigente(d, as_of) for d in df["impedimento_ate"]))


def fare_history(tarifas: pd.DataFrame) -> FareHistory:
    return FareHistory(
        zip(
            tarifas["linha_prefixo"],
            tarifas["origem"],
            tarifas["destino"],
            tarifas["categoria"],
            tarifas["vigencia_inicio"],
            tarifas["valor"],
        )
    )


def derive_tarifas(df: pd.DataFrame, history: FareHistory, as_of: date) -> None:
    in_force = set()
    for key in set(zip(df["linha_prefixo"], df["origem"], df["destino"], df["categoria"])):
        row = history.in_force(key, as_of)
        if row is not None:
            in_force.add(row[2])
    df["vigente"] = _col(df, (i in in_force for i in range(len(df))))


def derive_promocoes(df: pd.DataFrame, history: FareHistory, as_of: date) -> None:
    df["antecedencia_dias"] = _col(
        df, (promo.antecedencia_dias(c, i) for c, i in zip(df["comunicado_em"], df["inicio"]))
    )
    df["antecedencia_ok"] = _col(df, (promo.antecedencia_ok(d) for d in df["antecedencia_dias"]))
    maxima = []
    for key, start in zip(zip(df["linha_prefixo"], df["origem"], df["destino"], df["categoria"]), df["inicio"]):
        row = history.in_force(key, start)  # the maximum in force on the promotion's first day
        maxima.append(row[1] if row else None)
    df["tarifa_maxima"] = _col(df, maxima)
    df["situacao"] = _col(df, (promo.situacao(i, f, as_of) for i, f in zip(df["inicio"], df["fim"])))


def derive_infracoes(df: pd.DataFrame, enquadramentos: pd.DataFrame) -> None:
    groups = dict(zip(enquadramentos["codigo"], enquadramentos["grupo"]))
    df["grupo"] = _col(df, (groups.get(c) for c in df["enquadramento"]))
    # once per distinct date: half a million notices fall on a few hundred days
    df["prazo_defesa"] = _col(df, once_per_value(inf.prazo_defesa, df["notificado_em"].tolist()))
    df["prazo_recurso"] = _col(df, once_per_value(inf.prazo_recurso, df["decidido_em"].tolist()))


def derive(
    accepted: dict[str, SourceTable],
    schema: Schema,
    as_of: date,
    *,
    coverage: dict[str, list[str]] | None = None,
    file_sources: dict[str, str] | None = None,
    typed_values: dict[str, dict[str, dict]] | None = None,
    batches: dict | None = None,
) -> Derived:
    """The published tables as of ``as_of``. ``coverage`` (table -> supplying sources; every table
    covered when not given) decides which finding rules can run; ``file_sources`` (file -> source id)
    fills each row's ``fonte``; ``typed_values`` (``Report.typed_values``) what validation already read of
    each text (pipeline/derive/typed.py)."""
    typed_values = typed_values or {}
    t = {name: typed_frame(schema[name], accepted[name], typed_values.get(name)) for name in schema.tables}
    batches = batches or {}
    history = fare_history(t["tarifas"])
    derive_linhas(t["linhas"], t["horarios"], schema.weekdays)
    derive_outorgas(t["outorgas"], as_of)
    derive_caducidades(t["caducidades"], as_of)
    derive_tarifas(t["tarifas"], history, as_of)
    derive_promocoes(t["tarifas_promocionais"], history, as_of)
    derive_infracoes(t["infracoes"], t["enquadramentos"])
    for name, add in PLACE_CODES.items():
        add(t[name])
    for name, table in schema.tables.items():
        joins.add(t[name], table, t, schema)
    for name in schema.tables:
        t[name] = _published(t[name], accepted[name], schema[name], schema, file_sources)
    covered = {n for n in schema.tables if coverage is None or coverage.get(n)}
    achados, unchecked = findings.find(t, schema, covered)
    joins.add(achados, schema.published_tables["achados"], t, schema)
    t["achados"] = achados
    not_checked: dict[str, list] = {}
    incoherent, unchecked_inconsistencies = inconsistencies.find(t, schema, as_of, covered, not_checked)
    joins.add(incoherent, schema.published_tables["inconsistencias"], t, schema)
    t["inconsistencias"] = incoherent
    t["municipios"] = places.municipios(t["linhas"], t["secoes"],
                                        schema.published_tables["municipios"].field_names)
    fonte = schema.provenance_field["name"]
    sources = {name: t[name][fonte].tolist() for name in schema.tables}
    measured = completeness(accepted, sources, schema, covered)
    for batched in batches.values():  # measured batch by batch (pipeline/build/batches.py)
        batched.add_completeness(measured, covered)
    return Derived(t, as_of, unchecked, measured, unchecked_inconsistencies, batches, not_checked)


# The IBGE codes of the places each table names (derive/municipios.py)
PLACE_CODES = {"linhas": places.add_codes, "secoes": places.add_codes, "paralisacoes": places.add_codes,
               "paradas": places.add_code, "bilhetes": places.add_codes}


def _published(df: pd.DataFrame, source: SourceTable, table, schema: Schema, file_sources) -> pd.DataFrame:
    """The table's published columns in order, then each row's ``fonte`` (its file's source id)."""
    fonte = schema.provenance_field["name"]
    files = source.row_sources if source.row_sources is not None else [source.source] * len(source.rows)
    df[fonte] = _col(df, once_per_value(lambda f: (file_sources or {}).get(f, ""), files))
    return df[[*table.published_field_names, fonte]].reset_index(drop=True)


def derive_batch(name: str, accepted: SourceTable, schema: Schema, typed_values: dict | None,
                 file_sources: dict[str, str]) -> pd.DataFrame:
    """One batch of a table read a batch at a time (``x-em-lotes``, pipeline/build/batches.py), derived as
    :func:`derive` derives a whole table: typed, its places coded, its source named. Such a table joins no
    other (asserted): its batches are derived before the other tables are."""
    table = schema[name]
    if joins.joined_fields(table):
        raise ValueError(f"{name}: a table read in batches cannot join another table")
    df = typed_frame(table, accepted, typed_values)
    if name in PLACE_CODES:
        PLACE_CODES[name](df)
    return _published(df, accepted, table, schema, file_sources)


def derive_columns(name: str, batch: Columns, verdicts: list, schema: Schema, file_sources: dict[str, str]
                   ) -> tuple[pd.DataFrame, dict[str, tuple]]:
    """:func:`derive_batch`'s frame of a batch held by column (pipeline/read/columns.py) whose texts are all
    clean (pipeline/validate/distinct.py): each distinct text typed once, from its verdict (the typed value
    validation read), as :func:`~.typed.typed_frame` types it, and spread to the rows by their numbers.
    With it, each published column as ``(numbers, values)``: the source columns typed, the derived ones as made
    (the IBGE codes, the source): the writers' numbering (``tabular.Coded``)."""
    table = schema[name]
    if joins.joined_fields(table):
        raise ValueError(f"{name}: a table read in batches cannot join another table")
    data, numbered = {}, {}
    for f, verdict in zip(table.fields, verdicts):
        codes, texts = batch.column(f["name"])
        kind = f.get("type", "string")
        if kind == "boolean":
            values = np.fromiter((bool(v) for v in verdict), dtype=object, count=len(verdict))
        elif kind == "number":  # a clean text is -?digits[.digits] (cells.parse_number): float(text) is the
            values = _floats(texts)  # float of the Decimal Frictionless read, each exactly rounded
        elif kind in ("date", "datetime", "integer"):
            values = verdict
        else:  # text, and times, stay as read
            values = texts
        data[f["name"]] = values[codes]
        numbered[f["name"]] = (codes.astype(np.int32), values)
    df = pd.DataFrame(data, columns=table.field_names, dtype=object, copy=False)  # a block per column: no copy
    if name in PLACE_CODES:
        PLACE_CODES[name](df, numbered)
    fonte = schema.provenance_field["name"]
    df[fonte] = source = (file_sources or {}).get(batch.source, "")
    numbered[fonte] = (np.zeros(len(df), dtype=np.int32), np.array([source], dtype=object))
    return df[[*table.published_field_names, fonte]].reset_index(drop=True), numbered


def _floats(texts: np.ndarray) -> np.ndarray:
    """Each text as a float (None where empty), converted by pandas in C."""
    series = pd.Series(texts, dtype=object)
    present = (series != "").to_numpy()
    out = np.full(len(texts), None, dtype=object)
    out[present] = series[present].astype(float).to_numpy().astype(object)
    return out
