"""Names beside codes: the fields a schema declares as copied from another table (``"x-juncao"``), so that
a journalist reading ``infracoes.csv`` sees the carrier's name beside its CNPJ without a join of their own.

A field ``{"x-juncao": {"campo": "transportadora_cnpj", "tabela": "transportadoras", "coluna": "razao_social"}}``
takes, for each row, ``coluna`` of the row of ``tabela`` whose primary key equals the row's ``campo``; empty
when there is none (an uncovered or missing carrier: the name is unknown, never invented).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..contract.schema import Schema, Table
from ..read.columns import numbered


def joined_fields(table: Table) -> list[dict]:
    return [f for f in table.fields + table.derived_fields if "x-juncao" in f]


def add(df: pd.DataFrame, table: Table, tables: dict[str, pd.DataFrame], schema: Schema) -> None:
    """Fill ``df``'s joined fields in place from ``tables`` (the typed frames by name)."""
    for f in joined_fields(table):
        join = f["x-juncao"]
        parent = tables.get(join["tabela"])
        key = schema[join["tabela"]].primary_key
        if parent is None or len(key) != 1 or parent.empty:
            lookup = {}
        else:
            lookup = dict(zip(parent[key[0]], parent[join["coluna"]]))
        # looked up once per distinct key and spread by position: the rows share the parent's text (pandas'
        # ``Series.map`` makes a new object per row: a copy of a carrier's name for each of its notices)
        codes, keys = numbered(df[join["campo"]].to_numpy(dtype=object))
        found = np.empty(len(keys), dtype=object)
        found[:] = [lookup.get(k, np.nan) for k in keys]
        df[f["name"]] = pd.Series(found[codes], index=df.index, dtype=object)
