"""Each table as Apache Parquet (``pyarrow``), typed by the published schema: text as UTF-8 strings,
integers as int64, numbers (money included) as float64, booleans, dates as ``date32``, date-times as
``timestamp[s]`` without zone (the records' local time, as in the CSV), the timetable's ``HH:MM`` as
``time32[s]`` (stored by Parquet in milliseconds). Each column carries its schema title and description as field metadata, the file the
table's title. Empty cells are nulls. Rows go in row groups of 100,000, converted one group at a time. The writer stamps no clock: the same table gives the same bytes.
"""

from __future__ import annotations

from datetime import time
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

_TYPES = {
    "integer": pa.int64(),
    "number": pa.float64(),
    "boolean": pa.bool_(),
    "date": pa.date32(),
    "datetime": pa.timestamp("s"),
    "time": pa.time32("s"),
}


def _value(value, ftype: str):
    if value is None or value == "" or (isinstance(value, float) and value != value):
        return None
    if ftype == "time" and isinstance(value, str):
        hours, minutes = value.split(":")[:2]
        return time(int(hours), int(minutes))
    if ftype == "integer":
        return int(value)
    if ftype == "number":
        return float(value)
    return value


ROW_GROUP = 100_000  # rows converted and written at a time: one row group each, memory bounded


def arrow_schema(resource: dict) -> pa.Schema:
    fields = []
    for f in resource["schema"]["fields"]:
        meta = {k: f[k] for k in ("title", "description") if f.get(k)}
        fields.append(pa.field(f["name"], _TYPES.get(f.get("type", "string"), pa.string()), metadata=meta or None))
    return pa.schema(fields, metadata={"title": resource.get("title", resource["name"])})


def arrow_table(df: pd.DataFrame, resource: dict, schema: pa.Schema | None = None) -> pa.Table:
    schema = schema or arrow_schema(resource)
    arrays = []
    for f, target in zip(resource["schema"]["fields"], schema):
        ftype = f.get("type", "string")
        values = df[f["name"]].tolist() if f["name"] in df.columns else [None] * len(df)
        arrays.append(_array(values, ftype, target.type))
    return pa.Table.from_arrays(arrays, schema=schema)


def _array(values: list, ftype: str, kind: pa.DataType) -> pa.Array:
    """The column as Arrow: straight from the typed values where they are already what Arrow takes (text,
    with empty text made null; dates, numbers, booleans with None for empty), else value by value."""
    if ftype != "time":
        try:
            array = pa.array(values, type=kind, from_pandas=True)
        except (pa.ArrowInvalid, pa.ArrowTypeError, TypeError, ValueError):
            pass
        else:
            return pc.if_else(pc.equal(array, ""), pa.scalar(None, kind), array) if kind == pa.string() else array
    return pa.array([_value(v, ftype) for v in values], type=kind)


def write_parquet(df: pd.DataFrame, resource: dict, path: Path) -> None:
    schema = arrow_schema(resource)
    with pq.ParquetWriter(path, schema, compression="zstd") as writer:
        for start in range(0, max(len(df), 1), ROW_GROUP):
            writer.write_table(arrow_table(df.iloc[start:start + ROW_GROUP], resource, schema))
