"""Tables as CSV (UTF-8) and JSON, typed by the published schema.

In CSV, text cells that begin with ``=``, ``+``, ``-``, ``@`` (or a tab or carriage return) are
prefixed with ``'`` so that a spreadsheet shows them as text instead of running them as formulas
(data contract, Output). JSON keeps every value as it is. Money (fields marked ``"x-moeda": "BRL"`` in the
schema) prints in CSV with two decimals always (``255.00``, ``137.70``), so a column reads the same in
every row and no tool drops the cents.
"""

from __future__ import annotations

import csv
import json
from datetime import date, datetime
from pathlib import Path

import pandas as pd

from ..dictionary import MONEY, kind
from ..read.source import per_value
from ..schema import Schema
from ..validate import Report

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def neutralise(text: str) -> str:
    """``=HYPERLINK(...)`` -> ``'=HYPERLINK(...)``: spreadsheets show it as text (CSV injection)."""
    return "'" + text if text.startswith(_FORMULA_START) else text


def kinds(resource: dict) -> list[tuple[str, str]]:
    """``(name, kind)`` of each published field (:func:`pipeline.dictionary.kind`)."""
    return [(f["name"], kind(f)) for f in resource["schema"]["fields"]]


def cell(value, field_type: str):
    """A typed value as its JSON form: ISO dates, true/false, numbers, or None."""
    if value is None or value == "" or (isinstance(value, float) and value != value):
        return None
    if isinstance(value, datetime):
        return value.isoformat(timespec="minutes") if value.second == 0 else value.isoformat()
    if isinstance(value, date):
        return value.isoformat()
    if field_type == "integer":
        return int(value)
    if field_type in ("number", MONEY):
        return int(value) if float(value).is_integer() else float(value)
    return value


def csv_text(value, field_type: str) -> str:
    v = cell(value, field_type)
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if field_type == "string":
        return neutralise(str(v))
    if field_type == MONEY:
        return f"{v:.2f}"
    return str(v)


def chunks(df: pd.DataFrame, size: int = 20_000):
    for start in range(0, len(df), size):
        yield df.iloc[start:start + size]


def write_csv(df: pd.DataFrame, resource: dict, path: Path) -> None:
    fields = kinds(resource)
    with open(path, "w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh, lineterminator="\r\n")  # RFC 4180: CR and LF inside a cell get quoted
        w.writerow([n for n, _ in fields])
        for part in chunks(df):
            w.writerows(zip(*(per_value(lambda v, t=t: csv_text(v, t), part[n]) for n, t in fields)))


def write_json(df: pd.DataFrame, resource: dict, path: Path) -> None:
    """A JSON array, one compact record per line: written as it is made, valid JSON, and still readable
    line by line (500,000 infractions no longer become one string of a quarter of a gigabyte). Each
    distinct value is encoded once and each record is filled into a template of its keys."""
    encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
    fields = kinds(resource)
    template = "{" + ",".join(encode(n).replace("%", "%%") + ":%s" for n, _ in fields) + "}"
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        fh.write("[")
        first = True
        for part in chunks(df):
            columns = [per_value(lambda v, t=t: encode(cell(v, t)), part[n]) for n, t in fields]
            lines = [template % row for row in zip(*columns)]
            if lines:
                fh.write(("\n" if first else ",\n") + ",\n".join(lines))
                first = False
        fh.write("\n]\n")


def rejected_frame(report: Report, schema: Schema) -> pd.DataFrame:
    """One row per grave problem with a row number: the rows that lenient mode kept out."""
    columns = [f["name"] for f in schema.published_tables["rejeitados"].fields]
    rows = [[p.as_row()[c] for c in columns] for p in report.errors if p.linha is not None]
    return pd.DataFrame(rows, columns=columns, dtype=object)
