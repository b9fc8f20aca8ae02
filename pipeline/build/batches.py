"""Tables read a batch at a time (``x-em-lotes`` in the schema): eight years of Monitriip's tickets are
some 12 million rows, which as rows of text would take several gigabytes. Such a table goes through
the same stages as any other, one batch of :data:`BATCH_ROWS` rows at a time, held by column
(``read.columns.Columns``: each column's distinct texts, and each row's number among them), and is never
whole in memory:

- read: ``read.columns.read_columns``: a plain file split by Arrow, any other by the csv module's reader
  (``read.read_csv_batches``, the same as a whole file's), with the same rows, lines and problems;
- a row repeated whole is kept once (the rule of a table without a key, ``read.repeats``, as any table
  without a key, and ``read.merge``): inside one file with a ``linha-repetida`` warning naming both lines,
  across files silently, counted as ``duplicadas``;
- validation: each distinct text judged once (``validate.distinct``: Frictionless's cell reader, the
  portal's grammar, a CPF); the rows holding a text that is not clean are validated by
  ``validate.validate``, as a package holding them alone (such a table has no key and no foreign key, so
  no rule needs another row), lenient or not as the build;
- derivation: ``derive.derive_columns``, the table's own derived fields, each distinct text typed once
  (the rows validation kept as it left them, a CPF masked: ``derive.derive_batch``);
- publication, when the build gives a folder: the batch is added to the table's CSV, JSON and Parquet
  (``publish.tabular.CsvFile``...) and to its table in a database file of its own, which then becomes the
  portal's (``publish.database.SideTable``), each column numbered once for all of them
  (``publish.tabular.Coded``); its workbook (when it fits a sheet) is made from the Parquet;
- what the later stages need of the whole table is gathered as the batches go: the counts, each
  column's filled share and each source's period (``derive.completeness``), the first and last date
  (the catalogues' temporal coverage) and the table's summary for the pages (``SUMMARIES``: tickets per
  pair of places and month).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path

import numpy as np
import pandas as pd

from ..contract.problems import Problem
from ..contract.schema import Schema
from ..read import SourcePackage, SourceTable
from ..read.columns import Columns, read_columns
from ..read.repeats import Seen, without_repeats

HEAD_ROWS = 1_000  # the first rows kept whole, for the examples of the data dictionary
BATCH_ROWS = 200_000  # a batch: larger costs less per row (fewer numpy and pandas calls) and more memory (bench/scale.py)


def _tickets_summary(df: pd.DataFrame, numbered: dict | None = None) -> pd.DataFrame:
    from ..derive.tickets import summary

    return summary(df, numbered)


# What the pages need of a whole table read in batches: ``summary(batch frame, its columns as the reader
# numbered them) -> frame`` whose last columns are sums; summed again over the batches by the columns
# before them (its keys).
SUMMARIES = {"bilhetes": (_tickets_summary, 3)}


@dataclass
class Batched:
    """What a table read in batches gave: its accounting, the rows published, its completeness and dates,
    and its summary for the pages (``SUMMARIES``)."""

    name: str
    # the accounting of its rows, published as lidas = mantidas + duplicadas + rejeitadas (``accounting``)
    data_rows: int = 0  # lidas: every data row of its files
    kept: int = 0  # mantidas
    repeated: int = 0  # duplicadas: a row repeated whole, kept once
    rejected: int = 0  # rejeitadas
    well_formed: int = 0  # rows of the right width read (``Report.rows_read``)
    filled: dict[str, int] = field(default_factory=dict)  # column -> rows with a value
    periods: dict[tuple[str, str], list] = field(default_factory=dict)  # (source id, column) -> [first, last, n]
    first_day: date | None = None
    last_day: date | None = None
    summary: pd.DataFrame | None = None
    head: pd.DataFrame | None = None  # its first rows published (up to HEAD_ROWS): the dictionary's examples
    written: bool = False  # its CSV, JSON and Parquet are in the output folder
    failed: bool = False  # a problem stopped its publication: its counts stop there
    seconds: float = 0.0  # how long reading, validating, deriving and writing it took (bench/scale.py)
    changes: dict | None = None  # its entry in mudancas.json, against the previous release (--anterior)
    changes_error: str = ""  # why that release could not be compared

    def accounting(self) -> dict[str, int]:
        return {"lidas": self.data_rows, "mantidas": self.kept, "duplicadas": self.repeated,
                "rejeitadas": self.rejected}

    def add_completeness(self, measured: dict, covered: set[str]) -> None:
        """Put this table's figures into ``derive.completeness``'s (measured there as an empty table)."""
        if self.name in covered:
            n = self.kept
            measured["tabelas"][self.name] = {
                "linhas": n, "colunas": {c: round(k / n, 4) if n else None for c, k in self.filled.items()}}
        for (source_id, column), (first, last, count) in sorted(self.periods.items()):
            measured["periodos_por_fonte"].setdefault(source_id, []).append({
                "tabela": self.name, "coluna": column, "inicio": first, "fim": last, "preenchidos": count})


def run(source: SourcePackage, schema: Schema, *, lenient: bool, as_of: date, out: Path | None = None,
        fictional: bool = False, previous: str | None = None, listed: int | None = None, assets: str = "",
        sides: dict | None = None) -> tuple[dict[str, Batched], list[Problem]]:
    """Read, validate, derive and (with ``out``) publish each table read in batches. Returns what each gave
    and the problems found, in the order of the files and lines. A grave problem of a whole file (its
    header, its encoding), or any grave problem when not ``lenient``, stops the table's publication (the
    build then fails); the rest of its files is still read, so that every problem is reported. With
    ``previous`` (``--anterior``), each table published is compared with that release's
    (``changes.compare_streamed``, at most ``listed`` rows per list). ``sides``: each table's SQLite table made
    by the process that waits for it (``start``); by default made and waited for here."""
    from ..derive import derive_batch, derive_columns
    from ..publish import columnar, database, datapackage, hosting, side_database, tabular
    from ..validate import STRUCTURAL, distinct, validate

    results: dict[str, Batched] = {}
    problems: list[Problem] = []
    resources = {r["name"]: r for r in datapackage.published_descriptor(schema, as_of, fictional=fictional)["resources"]}
    for name, files in source.batched.items():
        started = time.perf_counter()
        table, result, resource = schema[name], Batched(name), resources[name]
        results[name] = result
        result.filled = {f["name"]: 0 for f in table.fields}
        seen, summarise, pending, found_here = Seen(), SUMMARIES.get(name), [], []
        verdicts = distinct.Verdicts(name, schema)
        writers = [] if out is None else [
            tabular.CsvFile(resource, out / resource["path"], memo=True),
            tabular.JsonFile(resource, out / f"{name}.json", hosting.JSON_MAX_ROWS, memo=True),
            columnar.ParquetFile(resource, out / f"{name}.parquet"),
            (sides or {}).get(name) or database.SideTable(resource, out / side_database(name))]
        failed = False
        try:
            for number, (path, shown) in enumerate(files):
                for read, found, data_rows in read_columns(table, path, shown, BATCH_ROWS):
                    found_here += found
                    failed |= any(p.grave and (p.linha in (None, 1) or p.regra in STRUCTURAL) for p in found)
                    result.data_rows += data_rows
                    result.well_formed += len(read)
                    batch, repeats = without_repeats(read, seen, number)
                    result.repeated += len(read) - len(batch)
                    found_here += repeats
                    flagged, verdicts_of = verdicts.split(batch)
                    if len(flagged):  # the rows holding a text that is not clean: validated as any table is
                        checked = validate(_package_of(source, schema, name, batch.table(flagged)), schema,
                                           lenient=lenient)
                        found_here += [p for p in checked.problems if p.tabela == name]
                        failed |= not checked.accepted
                    if failed:
                        continue
                    clean = batch.take(np.setdiff1d(np.arange(len(batch)), flagged, assume_unique=True)) \
                        if len(flagged) else batch
                    df, numbered = derive_columns(name, clean, verdicts_of, schema, source.file_sources)
                    if len(flagged):  # the verdicts hold the flagged rows' texts too, which no writer may meet
                        numbered = {}
                    accepted = None
                    if len(flagged) and checked.accepted[name].rows:  # kept as validation left them
                        accepted = checked.accepted[name]
                        lines = np.concatenate([clean.row_numbers, accepted.row_numbers])
                        df = pd.concat([df, derive_batch(name, accepted, schema, checked.typed_values.get(name),
                                                         source.file_sources)], ignore_index=True)
                        df = df.iloc[np.argsort(lines, kind="stable")].reset_index(drop=True)
                    result.kept += len(df)
                    _measure(result, table, df, source.file_sources.get(shown, ""), clean, accepted)
                    # each column numbered once for every writer: as the reader numbered its texts, where it did
                    coded = tabular.Coded(df, numbered)
                    for writer in writers:
                        writer.add(df, coded)
                    if result.head is None or len(result.head) < HEAD_ROWS:
                        result.head = pd.concat([h for h in (result.head, df.head(HEAD_ROWS)) if h is not None],
                                                ignore_index=True).head(HEAD_ROWS)
                    if summarise is not None and len(df):
                        pending.append(summarise[0](df, numbered))
                        if len(pending) >= 8:
                            pending = [_sum(pending, summarise[1])]
        finally:
            for writer in writers:
                writer.close(complete=not failed)
        seen = None  # the hashes of the rows kept: not needed for the comparison below
        problems += found_here
        result.rejected = len({(p.arquivo, p.linha) for p in found_here if p.grave and p.linha is not None})
        result.written, result.failed = bool(writers) and not failed, failed
        if result.written and previous:
            from ..release import changes

            try:
                release = changes.load_previous(previous, streamed=changes.Everything(), assets=assets)
                fields = resource["schema"]["fields"]
                result.changes = changes.compare_streamed(name, release, out / resource["path"],
                                                          [f["name"] for f in fields], listed,
                                                          derived=[f["name"] for f in fields if f.get("derived")])
            except changes.ChangesError as exc:
                result.changes_error = str(exc)
        result.seconds = time.perf_counter() - started
        if summarise is not None:
            empty = pd.DataFrame({c: pd.Series([], dtype=object) for c in table.published_field_names})
            result.summary = _sum(pending, summarise[1]) if pending else summarise[0](empty)
    return results, problems


SIDE_NICENESS = 10  # the SQLite inserts yield the cores to the build's reading and the batches' (see ``start``)


@dataclass
class Pending:
    """What :func:`start` started: the batches' reading (``call``: its ``result()`` is what :func:`run` returns)
    and each table's SQLite table (``database.SideTable``), whose rows the publication waits for."""

    call: object
    sides: dict = field(default_factory=dict)

    def result(self):
        return self.call.result()

    def cancel(self) -> None:
        """Stop the reading if it still runs (the SQLite tables are stopped by whoever holds them)."""
        self.call.cancel()


def start(folders: list[Path], schema: Schema, *, lenient: bool, as_of: date, allow_mixed: bool = False,
          out: Path | None = None, previous: str | None = None, listed: int | None = None, assets: str = ""
          ) -> Pending | None:
    """Start :func:`run` over the tables read in batches in a child process, forked before the other
    tables are read: it runs beside their reading and validation, and its memory (which the rows of a batch
    fragment) is the child's, never the build's. Files under :data:`IN_PROCESS_BYTES` are read in this
    process when their result is asked (:func:`_small`). Returns a :class:`Pending`, or None when the schema
    has no such table or no folder supplies one. Whether the package is fictional is read from the folders
    as the build reads it.

    With ``out``, each table's SQLite inserts run in a process this one makes first (``database.SideTable``) at
    ``nice`` +:data:`SIDE_NICENESS`, which the child reading the batches feeds: the build's reading and
    the batches' own each keep a core, the inserts take what they leave (and the core the derive stage leaves),
    and the build waits for them only before the publication (``Pending.sides``)."""
    from ..publish import database, datapackage, side_database
    from ..read import read_source
    from ..tools import parallel

    names = {n for n, t in schema.tables.items() if t.batched}
    if not names:
        return None
    found = read_source(folders, schema, allow_mixed=allow_mixed, only=names)  # finds the files, reads no row
    if not found.batched:
        return None
    fictional = any(s.ficticia for s in found.sources)
    forked = not _small(found) and hasattr(os, "fork")
    sides = {}
    if out is not None and forked:
        resources = {r["name"]: r for r in
                     datapackage.published_descriptor(schema, as_of, fictional=fictional)["resources"]}
        sides = {name: database.SideTable(resources[name], out / side_database(name), SIDE_NICENESS)
                 for name in found.batched}

    def work():
        return run(found, schema, lenient=lenient, as_of=as_of, out=out, fictional=fictional, previous=previous,
                   listed=listed, assets=assets, sides=sides)

    pending = Pending(parallel.call(work, parallel=forked), sides)
    for side in sides.values():  # the child sends the batches: this process's copy of their pipe is ended
        side.end()
    return pending


IN_PROCESS_BYTES = 4 << 20  # files this small are read in the build's process, after the other tables


def _small(found: SourcePackage) -> bool:
    """Whether the files read in batches are too small for a child of their own: a fork and the child's cold
    start (its caches and lazy imports made again) cost more than reading them here. A file that cannot be
    measured counts for nothing: reading it says why."""
    size = 0
    for files in found.batched.values():
        for path, _ in files:
            try:
                size += os.stat(path).st_size
            except OSError:
                pass
    return size < IN_PROCESS_BYTES


def attach(report, pending, *, lenient: bool) -> None:
    """Put what :func:`run` found (``pending``, from :func:`start`) into the other tables' ``validate.Report``:
    its problems, its counts, ``report.batches``; the report accepts nothing when a table read in batches
    cannot be published (as ``validate`` decides for the others)."""
    from ..validate import header_errors

    results, problems = pending.result()
    report.problems += problems
    report.batches = results
    for name, result in results.items():
        report.rows_read[name] = result.well_formed
        report.accepted_counts[name] = result.kept
        if report.accepted and not result.failed:
            report.accounting[name] = result.accounting()
            if result.data_rows != result.kept + result.repeated + result.rejected:
                raise AssertionError(f"contagem inconsistente em {name}: {result.accounting()}")
    if report.accepted and not (report.valid or (lenient and not header_errors(report.problems))):
        report.accepted = {}


def _package_of(source: SourcePackage, schema: Schema, name: str, batch: SourceTable) -> SourcePackage:
    """A package holding the batch alone (the other tables empty), to validate it as a whole package is."""
    tables = {name: batch}
    return SourcePackage(tables, [], [], [], {name: source.coverage.get(name, [])}, dict(source.file_sources), {})


def _sum(parts: list[pd.DataFrame], keys: int) -> pd.DataFrame:
    whole = pd.concat(parts, ignore_index=True)
    return whole.groupby(list(whole.columns[:keys]), sort=True, as_index=False).sum()


def _measure(result: Batched, table, df: pd.DataFrame, source_id: str, clean: Columns, accepted: SourceTable | None
             ) -> None:
    """Add the batch's filled cells (of its ``clean`` rows, counted by distinct text, and of the rows validation
    ``accepted``), its source's period per date column and its first and last day."""
    for f in table.fields:
        if f.get("type") == "boolean":
            result.filled[f["name"]] += len(df)
            continue
        codes, texts = clean.column(f["name"])
        empty = np.flatnonzero(texts == "")
        result.filled[f["name"]] += len(codes) - int(np.isin(codes, empty).sum()) if len(empty) else len(codes)
        if accepted is not None:
            result.filled[f["name"]] += len(accepted.rows) - accepted.column(f["name"]).count("")
    for column in table.fields_of_type("date", "datetime"):
        values = [v for v in pd.unique(df[column]) if isinstance(v, date)]
        if not values:
            continue
        days = [v.isoformat()[:10] for v in values]
        filled = int(df[column].notna().sum())
        got = result.periods.setdefault((source_id, column), [min(days), max(days), 0])
        got[0], got[1], got[2] = min(got[0], min(days)), max(got[1], max(days)), got[2] + filled
        values = [v.date() if isinstance(v, datetime) else v for v in values]
        result.first_day = min(filter(None, (result.first_day, min(values))))
        result.last_day = max(filter(None, (result.last_day, max(values))))
