"""Writing a source-package CSV: the one writer of the format :mod:`pipeline.read.source` reads, used by
the adapters and the sample generator, so that what they write is exactly what the read stage takes."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from .columns import numbered


def source_cell(value) -> str:
    """A value as the source package writes it: empty for None, ``true``/``false``, else ``str``."""
    if value is None:
        return ""
    if value is True:
        return "true"
    if value is False:
        return "false"
    return str(value)


def write_table(path: Path, fields: list[str], rows) -> int:
    """Write rows (dicts, possibly a stream) as a source-package CSV with the columns ``fields``;
    a key outside ``fields`` is a programming error. Returns the number of rows."""
    allowed = set(fields)
    n = 0
    with open(path, "w", encoding="utf-8", newline="") as fh:
        writer = csv.writer(fh, lineterminator="\n")
        # with "\n" lines, the csv module leaves a bare CR unquoted, and a reader would split the record
        # there: a row holding one is written with every cell quoted
        quoted = csv.writer(fh, lineterminator="\n", quoting=csv.QUOTE_ALL)
        writer.writerow(fields)
        for row in rows:
            unknown = row.keys() - allowed
            if unknown:
                raise KeyError(f"{Path(path).name}: columns not in the schema: {sorted(unknown)}")
            cells = [source_cell(row.get(f)) for f in fields]
            (quoted if any("\r" in c for c in cells) else writer).writerow(cells)
            n += 1
    return n


_CSV_MARKS = ',"\r\n'  # what the csv module quotes a cell for (QUOTE_MINIMAL)
_CSV_SPECIAL = re.compile(f"[{re.escape(_CSV_MARKS)}]")


def csv_cell(text: str) -> str:
    """``text`` as the csv module writes it among other cells of a row (quoted when it holds a comma, a quote
    or a line break, its quotes doubled): asked of the csv module itself."""
    if not text or not _CSV_SPECIAL.search(text):
        return text
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\r\n").writerow([text, ""])
    return buf.getvalue()[:-3]


def write_columns(path: Path, fields: list[str], columns: dict[str, np.ndarray], count: int) -> int:
    """Write ``count`` rows given by column (``columns``: a field's values, one per row; a field left out is
    empty) exactly as :func:`write_table` writes the same rows; each distinct value is formed once, and the
    rows are joined by Arrow, with no Python string per row."""
    unknown = columns.keys() - set(fields)
    if unknown:
        raise KeyError(f"{Path(path).name}: columns not in the schema: {sorted(unknown)}")
    text = pa.large_string()
    parts, returns = [], np.zeros(count, dtype=bool)
    for name in fields:
        if name not in columns:
            parts.append(pa.scalar("", text))
            continue
        codes, distinct = numbered(columns[name])
        texts = [v if type(v) is str else source_cell(None if v is None or v != v else v) for v in distinct]
        together = "".join(texts)  # what one text holds, the texts together hold: looked for once, a mark at a time
        if "\r" in together:
            returns |= np.fromiter(("\r" in t for t in texts), dtype=bool, count=len(texts))[codes]
        if any(mark in together for mark in _CSV_MARKS):
            texts = [csv_cell(t) for t in texts]
        parts.append(pa.array(texts, type=text).take(pa.array(codes)))
    with open(path, "w", encoding="utf-8", newline="") as fh:
        csv.writer(fh, lineterminator="\n").writerow(fields)
    if not count:
        return count
    if not any(isinstance(part, pa.Array) for part in parts):  # no column given: rows of empty cells
        parts[0] = pa.array([""], type=text).take(pa.array(np.zeros(count, dtype=np.int64)))
    lines = pc.binary_join_element_wise(*parts, pa.scalar(",", text))
    lines = pc.binary_join_element_wise(lines, pa.scalar("", text), pa.scalar("\n", text))
    if returns.any():  # a row holding a bare CR: every cell quoted, as write_table does
        rows = lines.to_pylist()
        for p in np.flatnonzero(returns).tolist():
            buf = io.StringIO()
            csv.writer(buf, lineterminator="\n", quoting=csv.QUOTE_ALL).writerow(
                [source_cell(columns[n][p]) if n in columns else "" for n in fields])
            rows[p] = buf.getvalue()
        lines = pa.array(rows, type=text)
    offsets = np.frombuffer(lines.buffers()[1], dtype=np.int64)[lines.offset:lines.offset + len(lines) + 1]
    with open(path, "ab") as fh:
        fh.write(memoryview(lines.buffers()[2])[int(offsets[0]):int(offsets[-1])])
    return count
