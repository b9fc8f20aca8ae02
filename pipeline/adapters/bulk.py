"""Ingesting exports of millions of rows: DuckDB reads and checks the rows in bulk, under the adapter's own
rules, and the package and the report are the ones the per-row loop writes, byte for byte.

:meth:`Adapter.run <.base.Adapter.run>` handles one row at a time in Python; Monitriip's ticket files hold 12
million rows in 94 monthly files, which :func:`run` ingests together into one package, a file at a time:
nothing holds every row (DuckDB works within :data:`MEMORY` and spills to a temporary folder beyond it).
Each rule stays where the loop has it:

- a file is decoded, and refused whole, by :mod:`.common` (``_decode``: not a CSV, UTF-16, null bytes, two
  encodings mixed), its header checked as ``read_export`` checks it;
- DuckDB splits the rows (``read_csv``, every column as text; a Latin-1 file with bytes 0x80-0x9F, which its
  decoder refuses, from a UTF-8 copy). The line of a row is the physical line the csv module counts,
  computed from the file's line breaks: an empty line is no row, and the lines DuckDB sets aside for their
  number of columns (``store_rejects``) are read by the csv module, as is every line that has a quote or
  whose cells do not add up to its length;
- a column of few distinct values (months, places, service types) is read by the adapter's Python functions
  once per distinct value (``Adapter.lookup``) and the result joined back; the other columns (amounts) are
  checked and converted in SQL with the adapter's own regular expressions (``Adapter.bulk_query``), where
  :data:`WHITESPACE` is the whitespace Python's ``str.strip`` and ``str.split`` remove;
- the SQL decides which rows are rejected; the reason given for each is the one the loop's own code gives
  on that row (:class:`Verdict`: the shared checks, then the adapter's steps). Rows of the wrong width are
  judged there too;
- exact duplicates (cells compared with their spaces folded, as :class:`~.common.RowChecker` compares
  them) are found in SQL, across the files too, each pointing to the first line that has the row;
- the kept rows are written by DuckDB's ``COPY``, in the csv module's format
  (:func:`~pipeline.read.writer.write_table`; tests/test_ingest_bulk.py compares them).

A file DuckDB might not split exactly as the loop does is read by the csv module instead, through
``read_export`` (which refuses what the loop refuses, with the loop's message); the checks that follow are
the same SQL. It falls back so for a header spanning lines, a quoted field spanning lines, a carriage return
alone (a line break to the csv module), a line DuckDB refuses for anything but its number of columns (a line
longer than it takes, a malformed quote, LF and CRLF mixed), rows DuckDB read that are not the
file's lines, and text damaged by a wrong encoding (which read_export refuses whole, naming line and column).
"""

from __future__ import annotations

import csv
import logging
import os
import re
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import duckdb
import numpy as np
import pyarrow as pa

from ..contract.schema import Schema, load_schema
from ..read.writer import write_table
from .base import Adapter, Row
from .common import (
    _DAMAGED,
    IngestError,
    IngestReport,
    RowChecker,
    SourceOptions,
    _decode,
    _first_row,
    _reader,
    _text_of,
    read_export,
    source_entry,
    write_package,
)

log = logging.getLogger(__name__)

# Python's whitespace: the characters str.strip() and str.split() remove (c.isspace()), as a class Python's
# re and DuckDB's RE2 read alike. RE2's \s is ASCII only: it misses NBSP (U+00A0), which spreadsheets write.
WHITESPACE = "[\t-\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]"
MEMORY = "256MB"  # DuckDB's memory, whatever the number of rows: beyond it, it spills to a temporary folder
BATCH = 65_536  # rows read by the csv module handed to DuckDB at a time
_WIDTH_ERRORS = {"MISSING COLUMNS", "TOO MANY COLUMNS"}  # DuckDB's rejects that the loop reports itself
_PERIOD_IN_NAME = re.compile(r"(?<!\d)(0[1-9]|1[0-2])_((?:19|20)\d{2})(?!\d)")  # venda_passagem_09_2026.csv


# --- SQL with Python's rules ------------------------------------------------------------------------


def literal(text: str) -> str:
    """``text`` as an SQL string literal."""
    return "'" + text.replace("'", "''") + "'"


def fullmatch(expr: str, pattern: str) -> str:
    """SQL: whether ``expr`` matches ``pattern`` whole (RE2; Python's ``re.fullmatch``)."""
    return f"regexp_full_match({expr}, {literal(pattern)})"


def strip(expr: str) -> str:
    """SQL: ``expr.strip()``."""
    return f"regexp_replace({expr}, {literal(f'^{WHITESPACE}+|{WHITESPACE}+$')}, '', 'g')"


def squeeze_spaces(expr: str) -> str:
    """SQL: ``" ".join(expr.split())``, a cell's runs of spaces made one, as RowChecker does."""
    return f"trim(regexp_replace({expr}, {literal(WHITESPACE + '+')}, ' ', 'g'), ' ')"


def blank(cells: list[str]) -> bool:
    """``read_export``'s blank row, which is no row: no cell with anything but spaces."""
    return not any(c.strip() for c in cells)


# --- the loop's verdict on one row -------------------------------------------------------------------


class Verdict:
    """The loop's own code on one row: the shared checks (:class:`~.common.RowChecker`), then the adapter's
    steps. ``reason`` is what the loop reports for a row the SQL rejects; ``odd`` judges a row of the wrong
    width, remembering those of every file (the rows of the header's width are compared in SQL)."""

    def __init__(self, cls: type[Adapter], schema: Schema):
        self.scratch = IngestReport("", "")  # what the checkers report, taken back at once
        layout = cls.LAYOUTS[0]
        adapter = cls(schema, self.scratch, layout)
        adapter.mixed = {}
        self.steps = [getattr(adapter, name) for name in cls.STEPS]
        self.checker, self.odd_checker = (
            RowChecker(self.scratch, layout.names, schema, lines=cls.LINES and cls.CARRIER, carrier=cls.CARRIER)
            for _ in range(2))

    def reason(self, n: int, raw: list[str]) -> str | None:
        """Why the loop rejects the row (not a duplicate) at line ``n``; None when it keeps it."""
        self.checker.seen.clear()
        start = self.checker.start(n, raw)
        if start is None:  # its width
            return self.scratch.rejeitadas_detalhe.pop()["motivo"]
        row = Row(n, raw, start.row, start.cnpj, start.prefixo, start.ends)
        why = start.why
        for step in self.steps:
            if why is not None:
                break
            why = step(row)
        return why

    def same(self, first: list[str], then: list[str]) -> bool:
        """Whether the loop takes the row ``then`` for a repeat of the row ``first``."""
        self.checker.seen.clear()
        self.checker.start(1, first)
        duplicates = len(self.scratch.duplicadas_detalhe)
        self.checker.start(2, then)
        return len(self.scratch.duplicadas_detalhe) > duplicates

    def odd(self, file: int, n: int, raw: list[str]) -> tuple[int, int] | str:
        """A row of the wrong width: the (file, line) it repeats, or why it is rejected."""
        duplicates = len(self.scratch.duplicadas_detalhe)
        self.odd_checker.start(file << 32 | n, raw)
        if len(self.scratch.duplicadas_detalhe) > duplicates:
            first = self.scratch.duplicadas_detalhe.pop()["igual_a_linha"]
            return first >> 32, first & 0xFFFF_FFFF
        return self.scratch.rejeitadas_detalhe.pop()["motivo"]


# --- reading a file -----------------------------------------------------------------------------------


class Unreproducible(Exception):
    """DuckDB might not split this file as the csv module does: the csv module reads it."""


@dataclass
class Opened:
    """A file decoded and its header read. ``why``: what sends it to the csv module from the start."""

    path: Path
    data: bytes
    encoding: str
    why: str = ""


def open_export(path: Path, layouts: list[list[str]]) -> Opened:
    """Decode the file, refused whole as ``read_export`` refuses it, and read its header from its first line;
    a header that is not one of ``layouts`` (or spans lines) is left to ``read_export``, which says why."""
    path = Path(path)
    if not path.is_file():
        _text_of(path)  # raises: a folder, or no such file
    try:
        data = path.read_bytes()
    except OSError:
        _text_of(path)  # raises, naming the file and the system's reason
        raise
    text, encoding = _decode(data, path)
    end = text.find("\n")
    reader = _reader(text[: end + 1] if end >= 0 else text)
    try:
        header = [h.strip().lower() for h in _first_row(reader, path)]
    except IngestError:
        header = []
    if header in layouts and reader.line_num == 1:
        return Opened(path, data, encoding)
    read_export(path, layouts)  # raises read_export's message, unless the header spans lines
    return Opened(path, data, encoding, "um cabeçalho de mais de uma linha")


def cells_table(rows: list[tuple[int, list[str]]], width: int) -> pa.Table:
    """Rows (line, cells) as a table ``line``, ``c0``..."""
    columns = list(zip(*(cells for _, cells in rows))) or [()] * width
    return pa.table({"line": pa.array([n for n, _ in rows], pa.int32()),
                     **{f"c{i}": pa.array(columns[i], pa.string()) for i in range(width)}})


def read_duckdb(db, f: Opened, width: int, tmp: Path) -> list[tuple[int, list[str]]]:
    """Fill table ``cur`` (``line``, ``c0``...) with the rows of ``width`` cells of ``f``, split by DuckDB;
    return the other rows (line, cells) that are not blank. Raises :class:`Unreproducible`."""
    data, source, encoding = f.data, f.path, f.encoding
    arr = np.frombuffer(data, np.uint8)
    if encoding == "latin-1" and ((arr >= 0x80) & (arr < 0xA0)).any():
        # DuckDB's Latin-1 refuses the bytes 0x80-0x9F (what Windows-1252 makes of "–" and curly quotes): it
        # reads a UTF-8 copy, of the same lines
        data, source, encoding = data.decode("latin-1").encode("utf-8"), tmp / "utf-8.csv", "utf-8"
        source.write_bytes(data)
        arr = np.frombuffer(data, np.uint8)
    breaks, returns = np.flatnonzero(arr == 10), np.flatnonzero(arr == 13)
    if returns.size and (returns[-1] + 1 == len(data) or (arr[returns + 1] != 10).any()):
        raise Unreproducible("um retorno de carro (CR) sozinho")  # a line break for the csv module
    starts, ends = np.concatenate(([0], breaks + 1)), np.concatenate((breaks, [len(data)]))
    if starts[-1] == len(data):  # nothing after the last line break
        starts, ends = starts[:-1], ends[:-1]
    ends = ends - ((ends > starts) & (arr[ends - 1] == 13))  # a CRLF's CR
    lengths = ends - starts
    quoted = np.zeros(len(starts), bool)
    quoted[np.searchsorted(starts, np.flatnonzero(arr == 34), side="right") - 1] = True
    number = np.arange(1, len(starts) + 1)
    rows = (number >= 2) & (lengths > 0)  # the lines DuckDB reads as rows, or sets aside
    lines, sizes, quotes = number[rows], lengths[rows], quoted[rows]
    db.register("lines", pa.table({"line": lines, "len": sizes, "quoted": quotes}))
    columns = "{" + ", ".join(f"'c{i}': 'VARCHAR'" for i in range(width)) + "}"
    try:
        db.execute("DROP TABLE IF EXISTS rej; DROP TABLE IF EXISTS rej_scans")
        db.execute(
            "CREATE OR REPLACE TEMP TABLE cur AS SELECT l.*, r.* FROM (SELECT true AS present, * FROM read_csv("
            f"?, delim=';', quote='\"', escape='\"', header=true, auto_detect=false, columns={columns}, "
            "ignore_errors=true, store_rejects=true, rejects_table='rej', rejects_scan='rej_scans', encoding=?)) r "
            "POSITIONAL JOIN lines l", [str(source), encoding])
        rejects = db.execute("SELECT line, list(DISTINCT error_type), any_value(csv_line) FROM rej GROUP BY line "
                             "ORDER BY line").fetchall()
        present, numbered, total = db.execute("SELECT count(present), count(line), count(*) FROM cur").fetchall()[0]
    except duckdb.Error as exc:
        raise Unreproducible(f"DuckDB: {str(exc).splitlines()[0]}") from None
    errors = {e for _, types, _ in rejects for e in types} - _WIDTH_ERRORS
    if errors:
        raise Unreproducible(f"DuckDB: {', '.join(sorted(errors))}")
    set_aside = [n for n, _, _ in rejects]
    for n, _, shown in rejects:  # the line DuckDB names is the physical line: its text says so
        if n not in lines or data[starts[n - 1]:ends[n - 1]].decode(encoding) != (shown or "").strip("\r\n"):
            raise Unreproducible(f"linha {n}: DuckDB e o módulo csv não contam as linhas igual")
    aside = np.isin(lines, set_aside)
    if present != len(lines) - aside.sum() or numbered != total:
        raise Unreproducible("as linhas lidas pelo DuckDB não são as do arquivo")
    if set_aside:  # the k-th row DuckDB read is the k-th line it did not set aside
        kept = ~aside
        db.register("moved", pa.table({"read_as": lines[: present], "line": lines[kept], "len": sizes[kept],
                                       "quoted": quotes[kept]}))
        db.execute("CREATE OR REPLACE TEMP TABLE cur AS SELECT m.line, m.len, m.quoted, c.* EXCLUDE (line, len, quoted) "
                   "FROM cur c JOIN moved m ON c.line = m.read_as WHERE c.present")
    size = "strlen" if encoding == "utf-8" else "length"  # the line's bytes: UTF-8's, or Latin-1's characters
    together = " + ".join(f"{size}(coalesce(c{i}, ''))" for i in range(width))
    redo = sorted({n for (n,) in db.execute(f"SELECT line FROM cur WHERE quoted OR len <> {together} + {width - 1}")
                   .fetchall()} | set(set_aside))
    if not redo:
        return []
    # the csv module reads those lines, one record each (a record spanning lines: the whole file is its)
    reader = _reader("\n".join(data[starts[n - 1]:ends[n - 1]].decode(encoding) for n in redo))
    read = []
    try:
        for n, cells in zip(redo, reader, strict=False):
            if reader.line_num != len(read) + 1:
                raise Unreproducible(f"linha {n}: aspas abertas que atravessam linhas")
            read.append((n, cells))
    except csv.Error as exc:
        raise Unreproducible(f"módulo csv: {exc}") from None
    if len(read) != len(redo):
        raise Unreproducible("aspas abertas que atravessam linhas")
    db.register("redo", pa.table({"line": redo}))
    db.execute("DELETE FROM cur WHERE line IN (SELECT line FROM redo)")
    whole = [(n, cells) for n, cells in read if len(cells) == width and not blank(cells)]
    db.register("batch", cells_table(whole, width))
    db.execute("INSERT INTO cur BY NAME SELECT * FROM batch")
    return [(n, cells) for n, cells in read if len(cells) != width and not blank(cells)]


def read_csv_module(db, path: Path, layouts: list[list[str]], width: int) -> tuple[str, list[tuple[int, list[str]]]]:
    """``read_duckdb``'s result, the rows read by the loop's own reader (``read_export``, which raises what the
    loop raises); and the file's encoding."""
    export = read_export(path, layouts)
    db.execute(f"CREATE OR REPLACE TEMP TABLE cur (line INTEGER, {', '.join(f'c{i} VARCHAR' for i in range(width))})")
    batch, odd = [], []
    for n, raw in export.rows:
        (batch if len(raw) == width else odd).append((n, raw))
        if len(batch) == BATCH:
            db.register("batch", cells_table(batch, width))
            db.execute("INSERT INTO cur SELECT * FROM batch")
            batch = []
    db.register("batch", cells_table(batch, width))
    db.execute("INSERT INTO cur SELECT * FROM batch")
    return export.encoding, odd


# --- the checks -------------------------------------------------------------------------------------


class Lookups:
    """The values of the adapter's looked-up columns, each read in Python once, for every file: value ->
    ``fid`` (a number for its text with the spaces folded, the cell's part of the row's key), its folded
    text, whether it is blank, whether it is damaged, then the fields of ``cls.lookup(value)``."""

    def __init__(self, cls: type[Adapter]):
        self.cls, self.rows, self.folds = cls, {}, {}
        self.add("")  # never an empty table

    def add(self, value: str) -> None:
        if value not in self.rows:
            folded = " ".join(value.split())
            self.rows[value] = (self.folds.setdefault(folded, len(self.folds)), folded, not value.strip(),
                                bool(_DAMAGED.search(value)), *self.cls.lookup(value))

    def table(self) -> pa.Table:
        names = ("v", "fid", "folded", "blank", "damaged", *self.cls.LOOKUP_FIELDS)
        types = (pa.string(), pa.int32(), pa.string(), pa.bool_(), pa.bool_(), *[pa.string()] * len(self.cls.LOOKUP_FIELDS))
        columns = zip(*((v, *rest) for v, rest in self.rows.items()))
        return pa.table({n: pa.array(c, t) for n, t, c in zip(names, types, columns)})


def check(db, cls: type[Adapter], lookups: Lookups) -> None:
    """Table ``t``: the rows of ``cur`` that are not blank, checked by the adapter's SQL (``bulk_query``), with
    ``h``, a hash of the row's key (its cells with their spaces folded). The values of the looked-up columns
    are read in Python (``lookups``) and given as table ``lookup``."""
    union = " UNION ".join(f"SELECT DISTINCT coalesce(c{i}, '') FROM cur" for i in range(cls.LOOKED_UP))
    for (value,) in db.execute(union).fetchall():
        lookups.add(value)
    db.register("lookup", lookups.table())
    keys = ", ".join(f"k{i}" for i in range(len(cls.LAYOUTS[0].columns)))
    db.execute(f"CREATE OR REPLACE TEMP TABLE t AS SELECT hash({keys}) AS h, * FROM ({cls.bulk_query()}) "
               "WHERE NOT blank")


def copy_to(db, select: str, target: Path) -> int:
    """Write the rows of ``select`` to ``target`` as :func:`~pipeline.read.writer.write_table` writes them (the
    csv module's format: ``,``, ``\n``, quotes when needed), without the header; NULL and ``''`` are both an
    empty cell. A cell must not hold a carriage return (write_table quotes its whole row). Returns the rows."""
    columns = db.execute(f"DESCRIBE {select}").fetchall()
    cells = ", ".join(f"nullif(CAST(\"{c}\" AS VARCHAR), '')" for c, *_ in columns)
    return db.execute(f"COPY (SELECT {cells} FROM ({select})) TO {literal(str(target))} (FORMAT csv, HEADER false)"
                      ).fetchall()[0][0]


def cells_of(db, width: int, where: str) -> list[tuple[int, list[str]]]:
    """The cells (as the csv module reads them) of the rows of ``t`` that ``where``, by line."""
    cells = ", ".join(f"coalesce(cur.c{i}, '')" for i in range(width))
    return [(n, list(raw)) for n, *raw in db.execute(
        f"SELECT t.line, {cells} FROM t JOIN cur USING (line) WHERE {where} ORDER BY t.line").fetchall()]


# --- the files, together ------------------------------------------------------------------------------


def source_date(paths: list[Path], options: SourceOptions) -> tuple[str, str]:
    """The date of several files: ``--data-referencia``, else the latest ``MM_AAAA`` period of their names
    when each name has one (as ``AAAA-MM``), else none. With where it came from."""
    if options.data.strip():
        return options.data.strip(), "informada com --data-referencia"
    periods = [_PERIOD_IN_NAME.findall(p.name) for p in paths]
    if all(len(found) == 1 for found in periods):
        return (max(f"{y}-{m}" for ((m, y),) in periods),
                "o mês mais recente nos nomes dos arquivos (venda_passagem_MM_AAAA)")
    return "", "não informada"


def rows_at(path: Path, lines: set[int], layouts: list[list[str]]) -> dict[int, list[str]]:
    """The records that start at ``lines`` of the file at ``path``, read again by the csv module: each from its
    line alone; the whole file by ``read_export`` when one of them spans lines."""
    text, _ = _decode(path.read_bytes(), path)
    starts = [0, *(m.end() for m in re.finditer("\r\n|\r|\n", text))]  # the csv module's lines
    found = {}
    for n in lines:
        try:
            found[n] = next(_reader(text[starts[n - 1]:starts[n] if n < len(starts) else None]))
        except csv.Error:  # quotes still open at the end of the line
            return {n: raw for n, raw in read_export(path, layouts).rows if n in lines}
    return found


def _repeats(db, verdict: Verdict, paths: list[Path], layouts: list[list[str]], width: int) -> list[tuple]:
    """The rows of ``t`` that repeat a row of an earlier file (``disk.seen``: the hash, first cell, file and line
    of the first row of each key): (line, file, its line). A row whose hash is an earlier row's is compared with
    that row, read again, by RowChecker's rule. The first cell is Monitriip's month of issue, one a file: DuckDB
    skips the earlier files' rows of other months, and a file is not compared with every row before it."""
    candidates = db.execute("SELECT t.line, s.file, s.line FROM t JOIN disk.seen s ON s.h = t.h AND s.k0 = t.k0"
                            ).fetchall()
    if not candidates:
        return []
    db.register("candidates", pa.table({"line": [n for n, _, _ in candidates]}))
    current = dict(cells_of(db, width, "t.line IN (SELECT line FROM candidates)"))
    earlier = {}
    for file in {file for _, file, _ in candidates}:
        lines = {at for _, f, at in candidates if f == file}
        earlier |= {(file, n): raw for n, raw in rows_at(paths[file], lines, layouts).items()}
    return sorted((n, file, at) for n, file, at in candidates if verdict.same(earlier[file, at], current[n]))


def run(cls: type[Adapter], paths: Path | Sequence[Path], out: Path, schema: Schema | None = None,
        options: SourceOptions | None = None, duckdb_reader: bool = True) -> IngestReport:
    """Convert the exports at ``paths`` (one, or several in this order) into one source package in ``out``:
    what :meth:`Adapter.run <.base.Adapter.run>` writes for one file. ``duckdb_reader`` False: every file is
    read by the csv module (the fallback), for tests."""
    paths = [Path(paths)] if isinstance(paths, (str, os.PathLike)) else [Path(p) for p in paths]
    several = len(paths) > 1
    assert len(cls.LAYOUTS) == 1 and not cls.MIXED_DATES, "bulk.run reads adapters of one layout, no mixed dates"
    schema, options = schema or load_schema(), options or SourceOptions()
    layout = cls.LAYOUTS[0]
    layouts, width = [list(layout.columns)], len(layout.columns)
    names = [p.name for p in paths]
    report = IngestReport(fonte=", ".join(names), adaptador=cls.NAME, principal=cls.PRINCIPAL)
    first = open_export(paths[0], layouts)  # as the loop: the file's refusals before the options'
    if several:
        date, how = source_date(paths, options)
        source = source_entry(cls.TITLE, Path(), replace(options, data=date), report)
        report.data_da_fonte["origem"] = how
        source["x-arquivo"] = names
    else:
        source = source_entry(cls.TITLE, paths[0], options, report)
    table = schema[cls.PRINCIPAL]
    Path(out).mkdir(parents=True, exist_ok=True)
    target = Path(out) / table.filename
    write_table(target, table.field_names, [])  # the header; each file's rows are appended
    verdict, lookups, encodings = Verdict(cls, schema), Lookups(cls), []
    keys, fields = ", ".join(f"k{i}" for i in range(width)), ", ".join(table.field_names)
    with tempfile.TemporaryDirectory(prefix="ingest-") as tmp, duckdb.connect() as db:
        db.execute(f"SET memory_limit = '{MEMORY}'; SET threads = {min(4, os.cpu_count() or 1)}; "
                   f"SET temp_directory = {literal(tmp)}; SET enable_progress_bar = false")
        if several:  # each key's first row: on disk, 12 million do not fit in MEMORY
            db.execute(f"ATTACH {literal(str(Path(tmp) / 'seen.duckdb'))} AS disk")
        for index, path in enumerate(paths):
            f, first = first or open_export(path, layouts), None
            try:
                if f.why or not duckdb_reader:
                    raise Unreproducible(f.why or "pedido")
                odd, encoding = read_duckdb(db, f, width, Path(tmp)), f.encoding
                check(db, cls, lookups)
                damaged = [n for n, raw in cells_of(db, width, "t.look") + odd if _DAMAGED.search(";".join(raw))]
                if damaged:
                    raise Unreproducible(f"linha {damaged[0]}: texto danificado por uma codificação errada")
            except Unreproducible as why:
                log.info("%s: lido pelo módulo csv (%s)", path, why)
                encoding, odd = read_csv_module(db, path, layouts, width)  # raises what the loop raises
                check(db, cls, lookups)
            f = None  # the file's bytes, let go
            encodings += [encoding] if encoding not in encodings else []
            # a row repeats an earlier row of its file, or (which wins) of an earlier file
            db.execute(f"CREATE OR REPLACE TEMP TABLE dup AS SELECT line, {index} AS file, first FROM ("
                       f"SELECT line, min(line) OVER (PARTITION BY {keys}) AS first FROM t "
                       "WHERE h IN (SELECT h FROM t GROUP BY h HAVING count(*) > 1)) WHERE line > first")
            repeats = _repeats(db, verdict, paths, layouts, width) if index else []
            if repeats:
                db.register("earlier", pa.table(dict(zip(("line", "file", "first"), map(list, zip(*repeats))))))
                db.execute("DELETE FROM dup WHERE line IN (SELECT line FROM earlier); INSERT INTO dup SELECT * FROM earlier")
            repeated = db.execute("SELECT line, file, first FROM dup").fetchall()
            duplicates = list(repeated)
            rejected = [(n, verdict.reason(n, raw), raw)
                        for n, raw in cells_of(db, width, "t.bad AND t.line NOT IN (SELECT line FROM dup)")]
            if any(why is None for _, why, _ in rejected):
                raise AssertionError(f"{path}: the SQL rejects a row the adapter's steps keep")
            for n, raw in odd:
                judged = verdict.odd(index, n, raw)
                rejected += [(n, judged, raw)] if isinstance(judged, str) else []
                duplicates += [] if isinstance(judged, str) else [(n, *judged)]
            # kept in the order of the lines: t's own (a table's scan keeps the order rows went in), when it is
            part, lines = Path(tmp) / "part.csv", db.execute("SELECT line FROM t").fetchnumpy()["line"]
            ordered = not repeated and bool((np.diff(lines) > 0).all())
            kept = copy_to(db, f"SELECT {fields} FROM t WHERE NOT bad" if ordered else
                           f"SELECT {fields} FROM t WHERE NOT bad AND line NOT IN (SELECT line FROM dup) ORDER BY line",
                           part)
            with open(part, "rb") as src, open(target, "ab") as dst:
                shutil.copyfileobj(src, dst, 1 << 20)
            if several and index + 1 < len(paths):
                db.execute(f"{'INSERT INTO disk.seen' if index else 'CREATE TABLE disk.seen AS'} SELECT h, k0, "
                           f"{index} AS file, line FROM t WHERE line NOT IN (SELECT line FROM dup)")
            report.lidas, report.mantidas = report.lidas + kept, report.mantidas + kept
            report.tabelas[cls.PRINCIPAL] = report.tabelas.get(cls.PRINCIPAL, 0) + kept
            for n, why, raw in sorted(rejected, key=lambda r: r[0]):
                report.reject(n, why, raw)
                if several:
                    report.rejeitadas_detalhe[-1] = {"arquivo": names[index], **report.rejeitadas_detalhe[-1]}
            for n, file, at in sorted(duplicates):
                report.duplicate(n, at)
                if several:
                    report.duplicadas_detalhe[-1] = {"arquivo": names[index], "linha": n,
                                                     "igual_a_arquivo": names[file], "igual_a_linha": at}
    report.codificacao = ", ".join(encodings)
    write_package(out, {}, schema, source)
    report.check()
    return report
