"""Completeness of the published tables: the share of filled values per column, and per source the
period its dates cover. Only tables a source covers are measured: a table no source supplies has no
completeness to speak of (it reads "não coberto", never 0 %)."""

from __future__ import annotations

import numpy as np

from ..contract.schema import Schema
from ..read import SourceTable


def column_shares(texts: dict[str, SourceTable], schema: Schema, covered: set[str]) -> dict[str, dict]:
    """``{table: {"linhas": n, "colunas": {column: filled share 0..1, None when the table is empty}}}``
    for each covered source table, over its input columns (derived fields are the portal's own). A
    value is filled when its text is not empty; a boolean always is (an empty one reads as false)."""
    out = {}
    for name, table in schema.tables.items():
        if name not in covered:
            continue
        t = texts[name]
        n = len(t.rows)
        shares = {}
        for f in table.fields:
            filled = n if f.get("type") == "boolean" else n - t.empty_cells(f["name"])
            shares[f["name"]] = round(filled / n, 4) if n else None
        out[name] = {"linhas": n, "colunas": shares}
    return out


def source_periods(texts: dict[str, SourceTable], sources: dict[str, list[str]], schema: Schema
                   ) -> dict[str, list[dict]]:
    """``{source id: [{"tabela", "coluna", "inicio", "fim", "preenchidos"}, ...]}``: for each source, the
    first and last date of each input date column among the rows that came from it (``sources``: each
    table's source id per row). Dates and date-times are validated ISO text, whose first ten characters
    are the day and sort as the days do."""
    out: dict[str, list[dict]] = {}
    for name, table in schema.tables.items():
        t = texts[name]
        if not t.rows:
            continue
        ids = sources[name]
        one_source = len(set(ids)) == 1
        for column in table.fields_of_type("date", "datetime"):
            if one_source and t.held is not None:  # each distinct text once, with how many rows hold it
                codes, distinct = t.held.column(column)
                rows = np.bincount(codes, minlength=len(distinct)).tolist()
                filled = [(v[:10], k) for v, k in zip(distinct.tolist(), rows) if v and k]
                if filled:
                    days = [d for d, _ in filled]
                    out.setdefault(ids[0], []).append({
                        "tabela": name, "coluna": column, "inicio": min(days), "fim": max(days),
                        "preenchidos": sum(k for _, k in filled),
                    })
                continue
            values = t.column(column)
            if one_source:
                groups = {ids[0]: values}
            else:
                groups = {}
                for source_id, value in zip(ids, values):
                    groups.setdefault(source_id, []).append(value)
            for source_id in sorted(groups):
                days = [v[:10] for v in groups[source_id] if v]
                if days:
                    out.setdefault(source_id, []).append({
                        "tabela": name, "coluna": column, "inicio": min(days), "fim": max(days),
                        "preenchidos": len(days),
                    })
    return out


def completeness(texts: dict[str, SourceTable], sources: dict[str, list[str]], schema: Schema,
                 covered: set[str]) -> dict:
    return {
        "tabelas": column_shares(texts, schema, covered),
        "periodos_por_fonte": source_periods(texts, sources, schema),
    }
