"""Writing a source-package CSV: the one writer of the format :mod:`pipeline.read.source` reads, used by
the adapters and the sample generator, so that what they write is exactly what the read stage takes."""

from __future__ import annotations

import csv
from pathlib import Path


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


