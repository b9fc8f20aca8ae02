"""Completeness of the published tables: the share of filled values per column, and per source the
period its dates cover. Only tables a source covers are measured: a table no source supplies has no
completeness to speak of (it reads "não coberto", never 0 %)."""

from __future__ import annotations

from collections import Counter
from datetime import date, datetime

import pandas as pd

from ..schema import Schema


def _filled(series: pd.Series) -> int:
    """Values that are neither missing (None, NaN) nor empty text, each distinct value judged once."""
    try:
        counts = Counter(series.tolist())
    except TypeError:  # an unhashable value
        return sum(1 for v in series if v is not None and v == v and v != "")
    return sum(n for v, n in counts.items() if v is not None and v == v and v != "")


def column_shares(tables: dict[str, pd.DataFrame], schema: Schema, covered: set[str]) -> dict[str, dict]:
    """``{table: {"linhas": n, "colunas": {column: filled share 0..1, None when the table is empty}}}``
    for each covered source table, over its input columns (derived fields are the portal's own)."""
    out = {}
    for name, table in schema.tables.items():
        if name not in covered:
            continue
        df = tables[name]
        n = len(df)
        out[name] = {
            "linhas": n,
            "colunas": {c: (round(_filled(df[c]) / n, 4) if n else None) for c in table.field_names},
        }
    return out


def _day(v) -> date | None:
    if isinstance(v, datetime):
        return v.date()
    return v if isinstance(v, date) else None


def source_periods(tables: dict[str, pd.DataFrame], schema: Schema, fonte: str) -> dict[str, list[dict]]:
    """``{source id: [{"tabela", "coluna", "inicio", "fim", "preenchidos"}, ...]}``: for each source, the
    first and last date of each input date column among the rows that came from it."""
    out: dict[str, list[dict]] = {}
    for name, table in schema.tables.items():
        df = tables[name]
        if df.empty:
            continue
        for column in table.fields_of_type("date", "datetime"):
            seen = {v: _day(v) for v in set(df[column])}  # once per distinct value
            days = pd.DataFrame({"fonte": df[fonte], "dia": df[column].map(seen.__getitem__)}).dropna()
            for source_id, group in days.groupby("fonte", sort=True):
                out.setdefault(source_id, []).append({
                    "tabela": name,
                    "coluna": column,
                    "inicio": min(group["dia"]).isoformat(),
                    "fim": max(group["dia"]).isoformat(),
                    "preenchidos": len(group),
                })
    return out


def completeness(tables: dict[str, pd.DataFrame], schema: Schema, covered: set[str]) -> dict:
    return {
        "tabelas": column_shares(tables, schema, covered),
        "periodos_por_fonte": source_periods(tables, schema, schema.provenance_field["name"]),
    }
