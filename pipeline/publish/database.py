"""All tables in one SQLite database, typed by the published schema, with primary keys."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pandas as pd

from ..read.source import once_per_value
from .tabular import cell, chunks

_SQL_TYPES = {"integer": "INTEGER", "number": "REAL", "boolean": "INTEGER"}


def write_sqlite(tables: dict[str, pd.DataFrame], descriptor: dict, path: Path) -> None:
    path.unlink(missing_ok=True)
    con = sqlite3.connect(path)
    try:
        for resource in descriptor["resources"]:
            fields = [(f["name"], f.get("type", "string")) for f in resource["schema"]["fields"]]
            cols = ", ".join(f'"{n}" {_SQL_TYPES.get(t, "TEXT")}' for n, t in fields)
            pk = resource["schema"].get("primaryKey")
            if pk:
                cols += ", PRIMARY KEY (" + ", ".join(f'"{k}"' for k in ([pk] if isinstance(pk, str) else pk)) + ")"
            con.execute(f'CREATE TABLE "{resource["name"]}" ({cols})')
            df = tables[resource["name"]]
            marks = ", ".join("?" for _ in fields)
            for part in chunks(df):
                con.executemany(f'INSERT INTO "{resource["name"]}" VALUES ({marks})',
                                zip(*(once_per_value(lambda v, t=t: cell(v, t), part[n].tolist()) for n, t in fields)))
        con.commit()
    finally:
        con.close()
