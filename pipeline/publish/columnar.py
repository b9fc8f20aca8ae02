"""Each table as Apache Parquet (``pyarrow``), typed by the published schema: text as UTF-8 strings,
integers as int64, numbers (money included) as float64, booleans, dates as ``date32``, date-times as
``timestamp[s]`` without a zone (the source's wall clock, as the CSV writes it: no source says its
zone, pipeline/contract/clock.py), the timetable's ``HH:MM`` as ``time32[s]`` (stored by Parquet in milliseconds).
Each column carries its schema title and description as field metadata. The file's key-value metadata
holds the table's title and description (which says when no source covers the table) and the release's
provenance record (pipeline/publish/provenance.py): the same keys as SQLite's ``_metadados``
(``cobertura``, ``fontes``, ``data_de_referencia``, ``ficticio``, ``licenca``, ``citacao``...) and
``proveniencia``, the whole record as JSON. Empty cells are nulls. Rows go in row groups of 100,000,
converted one group at a time. The writer stamps no clock: the same table gives the same bytes.
"""

from __future__ import annotations

import os
import shutil
from datetime import time
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from .provenance import Provenance
from .tabular import Appended

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


def file_metadata(resource: dict, record: Provenance | None = None) -> dict[str, str]:
    """The file's key-value metadata: the table's title and description, and with ``record`` the release's
    provenance (:meth:`Provenance.items` for the table, and ``proveniencia``, the whole record as JSON)."""
    meta = {"title": resource.get("title", resource["name"])}
    if resource.get("description"):
        meta["description"] = resource["description"]
    if record is not None:
        for key, value in record.items(resource["name"]):
            meta.setdefault(key, value)
        meta["proveniencia"] = record.as_json()
    return meta


def arrow_schema(resource: dict, record: Provenance | None = None) -> pa.Schema:
    fields = []
    for f in resource["schema"]["fields"]:
        meta = {k: f[k] for k in ("title", "description") if f.get(k)}
        fields.append(pa.field(f["name"], _TYPES.get(f.get("type", "string"), pa.string()), metadata=meta or None))
    return pa.schema(fields, metadata=file_metadata(resource, record))


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


def _distinct(coded, field: dict, kind: pa.DataType) -> tuple[np.ndarray, pa.Array]:
    """A numbered column's numbers (-1, a missing value, made the last) and its distinct values converted as
    :func:`_array` converts a column, then None."""
    codes, values = coded.numbers(field["name"])
    values = list(values.tolist() if hasattr(values, "tolist") else values) + [None]
    return np.where(codes < 0, len(values) - 1, codes), _array(values, field.get("type", "string"), kind)


def write_parquet(df: pd.DataFrame, resource: dict, path: Path, record: Provenance | None = None) -> None:
    with ParquetFile(resource, path, record) as out:
        out.add(df)


class ParquetFile(Appended):
    """A table's Parquet file, written a frame at a time (one row group per :data:`ROW_GROUP` rows of each):
    the whole table at once, or each batch of a table read in batches (pipeline/build/batches.py). A table with
    no row still has one, empty, row group. ``record``: the release's provenance, for the file's metadata."""

    def __init__(self, resource: dict, path: Path, record: Provenance | None = None):
        self.resource, self.schema = resource, arrow_schema(resource, record)
        self.writer = pq.ParquetWriter(path, self.schema, compression="zstd")
        self.rows = 0

    def add(self, df: pd.DataFrame, coded=None) -> None:
        """``coded``: the frame's columns numbered for every writer (``tabular.Coded``): each column is then
        converted once per distinct value and gathered by the numbers, in Arrow."""
        columns = None if coded is None else [_distinct(coded, f, target.type) for f, target in
                                              zip(self.resource["schema"]["fields"], self.schema)]
        for start in range(0, len(df), ROW_GROUP):
            stop = min(start + ROW_GROUP, len(df))
            if columns is None:
                part = arrow_table(df.iloc[start:stop], self.resource, self.schema)
            else:  # each column's distinct values taken by the rows' numbers
                part = pa.Table.from_arrays([values.take(pa.array(codes[start:stop], type=pa.int32()))
                                             for codes, values in columns], schema=self.schema)
            self.writer.write_table(part)
        self.rows += len(df)

    def close(self, complete: bool = True) -> None:
        try:
            if complete and not self.rows:
                self.writer.write_table(arrow_table(pd.DataFrame(), self.resource, self.schema))
        finally:
            self.writer.close()


def restamp(path: Path, resource: dict, record: Provenance) -> None:
    """A table written in batches (pipeline/build/batches.py) has its Parquet file written before the release's
    provenance record is known. The record lives in the file's footer alone (Parquet's key-value metadata and
    the Arrow schema stored there); the row groups before it do not change. So the footer is made again: that of
    a file of no row with the record (``ParquetWriter``, as :class:`ParquetFile` opens it), given the file's own
    row groups (their places in the file included), then written after the file's bytes up to its old footer,
    into a file beside it that then takes its place (a reader holding the old file, the workbook's process,
    still reads it whole). The bytes are those of writing every row group again with the record
    (tests/test_provenance_formats.py compares them), without reading or compressing a row."""
    schema = arrow_schema(resource, record)
    with pq.ParquetFile(path) as source:
        if source.schema_arrow.metadata == schema.metadata:
            return
        groups = source.metadata
    empty = pa.BufferOutputStream()
    pq.ParquetWriter(empty, schema, compression="zstd").close()
    footer = pq.read_metadata(pa.BufferReader(empty.getvalue()))
    footer.append_row_groups(groups)
    made = pa.BufferOutputStream()
    footer.write_metadata_file(made)  # "PAR1", the footer, its length, "PAR1"
    temp = path.with_name(f".{path.name}.proveniencia")
    shutil.copyfile(path, temp)
    with open(temp, "r+b") as fh:
        fh.seek(-8, os.SEEK_END)
        fh.truncate(fh.tell() - int.from_bytes(fh.read(4), "little"))  # the old footer, its length and "PAR1" go
        fh.seek(0, os.SEEK_END)
        fh.write(memoryview(made.getvalue())[4:])
    os.replace(temp, path)


def read_frames(path: Path, rows: int = ROW_GROUP):
    """The table a Parquet file holds, ``rows`` at a time, as frames of the Python values the derive stage
    makes (``date``, ``float``, ``int``, ``str``; None where empty): how the publish stage reads back a table
    written in batches (pipeline/build/batches.py) for its SQLite table and its workbook."""
    for batch in pq.ParquetFile(path).iter_batches(batch_size=rows):
        yield pd.DataFrame({k: pd.Series(v, dtype=object) for k, v in batch.to_pydict().items()})
