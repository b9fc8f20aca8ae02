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

import numpy as np
import pandas as pd

from ..dictionary import MONEY, kind
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


CHUNK = 20_000  # rows a writer holds as text at a time


class Coded:
    """A table's columns, each numbered once for all its writers: ``pandas.factorize`` gives every
    distinct value of a column a number (a missing value, ``None`` or NaN, is -1), a writer turns each
    distinct value into its own form once (:meth:`forms`: text for the CSV, JSON for the JSON...) and
    gathers the forms of a span of rows by those numbers (:meth:`take`, numpy). The CSV, JSON and
    SQLite writers of a table share one, so each column is numbered once rather than once per writer and
    per chunk of rows (issue 11); a writer called alone makes its own. Values equal for Python (1 and
    1.0) share a number, as they shared a result in ``per_value``."""

    def __init__(self, df: pd.DataFrame):
        self.df = df
        self._numbered: dict[str, tuple] = {}

    def _numbers(self, name: str) -> tuple:
        got = self._numbered.get(name)
        if got is None:
            codes, uniques = pd.factorize(self.df[name], use_na_sentinel=True)
            got = self._numbered[name] = (codes, uniques.tolist())  # Python values, as tolist() gives them
        return got

    def forms(self, name: str, fn) -> np.ndarray:
        """``fn`` of each distinct value of column ``name``, then of None (number -1: the last item)."""
        _, uniques = self._numbers(name)
        out = np.empty(len(uniques) + 1, dtype=object)
        for i, value in enumerate(uniques):
            out[i] = fn(value)
        out[-1] = fn(None)
        return out

    def take(self, forms: np.ndarray, name: str, start: int, stop: int) -> list:
        """The forms of the rows ``start:stop`` of column ``name``."""
        return forms[self._numbers(name)[0][start:stop]].tolist()

    def spans(self, size: int = CHUNK):
        """``(start, stop)`` of each chunk of rows a writer handles at a time."""
        return [(start, min(start + size, len(self.df))) for start in range(0, len(self.df), size)]

    def rows(self, forms: list[tuple[str, np.ndarray]], start: int, stop: int):
        """The rows ``start:stop`` as tuples of the forms of ``(column, forms)``."""
        return zip(*(self.take(f, name, start, stop) for name, f in forms))


def write_csv(df: pd.DataFrame, resource: dict, path: Path, coded: Coded | None = None) -> None:
    coded = coded or Coded(df)
    fields = kinds(resource)
    forms = [(n, coded.forms(n, lambda v, t=t: csv_text(v, t))) for n, t in fields]
    with open(path, "w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh, lineterminator="\r\n")  # RFC 4180: CR and LF inside a cell get quoted
        w.writerow([n for n, _ in fields])
        for start, stop in coded.spans():
            w.writerows(coded.rows(forms, start, stop))


def write_json(df: pd.DataFrame, resource: dict, path: Path, coded: Coded | None = None) -> None:
    """A JSON array, one compact record per line: written as it is made, valid JSON, and still readable
    line by line (500,000 infractions no longer become one string of a quarter of a gigabyte). Each
    distinct value is encoded once and each record is filled into a template of its keys."""
    coded = coded or Coded(df)
    encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
    fields = kinds(resource)
    template = "{" + ",".join(encode(n).replace("%", "%%") + ":%s" for n, _ in fields) + "}"
    forms = [(n, coded.forms(n, lambda v, t=t: encode(cell(v, t)))) for n, t in fields]
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        fh.write("[")
        first = True
        for start, stop in coded.spans():
            lines = [template % row for row in coded.rows(forms, start, stop)]
            if lines:
                fh.write(("\n" if first else ",\n") + ",\n".join(lines))
                first = False
        fh.write("\n]\n")


def rejected_frame(report: Report, schema: Schema) -> pd.DataFrame:
    """One row per grave problem with a row number: the rows that lenient mode kept out."""
    columns = [f["name"] for f in schema.published_tables["rejeitados"].fields]
    rows = [[p.as_row()[c] for c in columns] for p in report.errors if p.linha is not None]
    return pd.DataFrame(rows, columns=columns, dtype=object)
