"""Typed frames: the accepted source rows with the schema's types (dates, numbers, booleans)."""

from __future__ import annotations

from decimal import Decimal

import numpy as np
import pandas as pd

from ..contract.schema import Table
from ..read.source import SourceTable, once_per_value
from ..validate.cells import PARSERS

# The same parsers validation accepted the cells with (one grammar: pipeline/validate/cells.py). Times
# stay as their validated "HH:MM" text, which is how pages and downloads show them.
_CONVERTERS = {kind: PARSERS[kind] for kind in ("date", "datetime", "number", "integer", "boolean")}


def typed_frame(table: Table, source: SourceTable, known: dict[str, dict] | None = None) -> pd.DataFrame:
    """Typed values (Python ``date``, ``float``, ``bool``; ``None`` for empty) of rows that passed
    validation, so every conversion here succeeds. Booleans default to ``False`` (e.g. prorrogada).

    ``known`` (field -> {text: typed value}) holds what validation already read of each text
    (:data:`pipeline.validate.screen.KEPT_TYPES`): a value found there is taken (a number as ``float``)
    instead of parsed again, the largest part of this stage at national scale. A text of an
    accepted row passed both Frictionless and the portal's grammar, so both read the same value;
    tests/test_differential.py compares the frames made either way."""
    if source.held is not None:
        return _typed_by_column(table, source, known)
    df = source.frame()
    for f in table.fields:
        kind = f.get("type", "string")
        conv = _CONVERTERS.get(kind)
        if conv is None:
            continue
        column = source.column(f["name"])
        seen = (known or {}).get(f["name"])
        if seen is not None and kind in ("date", "datetime", "integer"):
            values = list(map(seen.__getitem__, column))
        elif seen is not None:  # a Decimal as float (both exact roundings of the text); a boolean as is
            values = once_per_value(lambda v, seen=seen: _plain(seen[v]), column)
        else:
            values = once_per_value(lambda v, conv=conv: conv(v) if v != "" else None, column)
        if kind == "boolean":
            values = [bool(v) for v in values]
        df[f["name"]] = pd.Series(values, index=df.index, dtype=object)
    return df


def _plain(value):
    return float(value) if isinstance(value, Decimal) else value


def _typed_by_column(table: Table, source: SourceTable, known: dict[str, dict] | None) -> pd.DataFrame:
    """:func:`typed_frame` of a table held by column (``read.columns.HeldRows``): each distinct text of a row
    typed once, as :func:`typed_frame` types it, and spread to the rows by their numbers."""
    held, data = source.held, {}
    for f in table.fields:
        codes, texts = held.column(f["name"])
        kind = f.get("type", "string")
        conv = _CONVERTERS.get(kind)
        if conv is None:
            data[f["name"]] = texts[codes]
            continue
        used = np.zeros(len(texts), dtype=bool)  # a table less some rows keeps the texts of those too
        used[codes] = True
        seen = (known or {}).get(f["name"])
        if seen is not None and kind in ("date", "datetime", "integer"):
            typed = (seen[v] for v in texts[used])
        elif seen is not None:
            typed = (_plain(seen[v]) for v in texts[used])
        else:
            typed = (conv(v) if v != "" else None for v in texts[used])
        values = np.full(len(texts), None, dtype=object)
        values[used] = list(map(bool, typed) if kind == "boolean" else typed)
        data[f["name"]] = values[codes]
    return pd.DataFrame(data, columns=source.columns, dtype=object)
