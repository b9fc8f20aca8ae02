"""Typed frames: the accepted source rows with the schema's types (dates, numbers, booleans)."""

from __future__ import annotations

from datetime import date, datetime

import pandas as pd

from ..read.source import SourceTable
from ..schema import Table


def _to_date(v: str) -> date | None:
    return date.fromisoformat(v) if v else None


def _to_datetime(v: str) -> datetime | None:
    return datetime.fromisoformat(v) if v else None


def _to_number(v: str) -> float | None:
    return float(v) if v != "" else None


def _to_bool(v: str) -> bool | None:
    return {"true": True, "false": False}.get(v)


_CONVERTERS = {
    "date": _to_date,
    "datetime": _to_datetime,
    "number": _to_number,
    "integer": lambda v: int(v) if v != "" else None,
    "boolean": _to_bool,
}


def typed_frame(table: Table, source: SourceTable) -> pd.DataFrame:
    """Typed values (Python ``date``, ``float``, ``bool``; ``None`` for empty) of rows that passed
    validation, so every conversion here succeeds. Booleans default to ``False`` (e.g. prorrogada)."""
    df = source.frame()
    for f in table.fields:
        conv = _CONVERTERS.get(f.get("type", "string"))
        if conv is not None:
            values = [conv(v) for v in df[f["name"]]]
            if f.get("type") == "boolean":
                values = [bool(v) for v in values]
            df[f["name"]] = pd.Series(values, index=df.index, dtype=object)
    return df
