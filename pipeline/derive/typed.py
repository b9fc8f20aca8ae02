"""Typed frames: the accepted source rows with the schema's types (dates, numbers, booleans)."""

from __future__ import annotations

import pandas as pd

from ..read.source import SourceTable, once_per_value
from ..schema import Table
from ..validate.cells import PARSERS

# The same parsers validation accepted the cells with (one grammar: pipeline/validate/cells.py). Times
# stay as their validated "HH:MM" text, which is how pages and downloads show them.
_CONVERTERS = {kind: PARSERS[kind] for kind in ("date", "datetime", "number", "integer", "boolean")}


def typed_frame(table: Table, source: SourceTable) -> pd.DataFrame:
    """Typed values (Python ``date``, ``float``, ``bool``; ``None`` for empty) of rows that passed
    validation, so every conversion here succeeds. Booleans default to ``False`` (e.g. prorrogada)."""
    df = source.frame()
    for f in table.fields:
        conv = _CONVERTERS.get(f.get("type", "string"))
        if conv is not None:
            values = once_per_value(lambda v, conv=conv: conv(v) if v != "" else None, source.column(f["name"]))
            if f.get("type") == "boolean":
                values = [bool(v) for v in values]
            df[f["name"]] = pd.Series(values, index=df.index, dtype=object)
    return df
