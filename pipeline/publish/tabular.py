"""Tables as CSV (UTF-8) and JSON, typed by the published schema.

In CSV, text cells that begin with ``=``, ``+``, ``-``, ``@`` (or a tab or carriage return) are
prefixed with ``'`` so that a spreadsheet shows them as text instead of running them as formulas
(data contract, Output). JSON keeps every value as it is. Money (fields marked ``"x-moeda": "BRL"`` in the
schema) prints in CSV with two decimals always (``255.00``, ``137.70``), so a column reads the same in
every row and no tool drops the cents. A date-time has one spelling in every download, ISO 8601 with seconds
and no offset, the source's wall clock (``2026-03-02T14:30:00``: pipeline/contract/clock.py ``moment_text``).
"""

from __future__ import annotations

import csv
import io
import itertools
import json
from datetime import date, datetime
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from ..contract.clock import moment_text
from ..contract.dictionary import MONEY, kind
from ..contract.schema import Schema, primary_key_of
from ..read.writer import csv_cell
from ..validate import Report

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
# the guard, as the descriptor (each resource's ``x-formulas-neutralizadas``) and the catalogues declare it
FORMULA_GUARD = ("no CSV, uma célula de texto que começa com =, +, -, @, tabulação ou retorno de carro leva um "
                 "apóstrofo (') na frente, para que uma planilha a mostre como texto em vez de executá-la como "
                 "fórmula (-Expresso fica '-Expresso); o JSON, o Parquet, o SQLite e o XLSX trazem o valor como está")


def neutralise(text: str) -> str:
    """``=HYPERLINK(...)`` -> ``'=HYPERLINK(...)``: spreadsheets show it as text (CSV injection)."""
    return "'" + text if text.startswith(_FORMULA_START) else text


def kinds(resource: dict) -> list[tuple[str, str]]:
    """``(name, kind)`` of each published field (:func:`pipeline.contract.dictionary.kind`)."""
    return [(f["name"], kind(f)) for f in resource["schema"]["fields"]]


def csv_line(values: list, types: list[str]) -> str:
    """A record's line of the published CSV, exactly as :func:`write_csv` writes it, without its line break."""
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\r\n").writerow([csv_text(v, t) for v, t in zip(values, types)])
    return buf.getvalue()[:-2]


def verification_lines(tables: dict, descriptor: dict) -> dict[str, dict[str, str]]:
    """For each published table whose resource asks for a verification code (``x-codigo-verificacao``: the
    acts of art. 12), each record's line of its CSV, by its key: what /verificar/ and the pages hash."""
    out = {}
    for r in descriptor["resources"]:
        if not r.get("x-codigo-verificacao"):
            continue
        fields = kinds(r)
        [key] = primary_key_of(r)
        df = tables[r["name"]]
        types = [t for _, t in fields]
        out[r["name"]] = {k: csv_line(list(values), types)
                          for k, values in zip(df[key].tolist(), zip(*(df[n].tolist() for n, _ in fields)))}
    return out


def cell(value, field_type: str):
    """A typed value as its JSON form: ISO dates, true/false, numbers, or None."""
    if value is None or value == "" or (isinstance(value, float) and value != value):
        return None
    if isinstance(value, datetime):
        return moment_text(value)
    if isinstance(value, date):
        return value.isoformat()
    if field_type == "integer":
        return int(value)
    if field_type in ("number", MONEY):
        return int(value) if float(value).is_integer() else float(value)
    return value


def straight(field_type: str, slow, text, moment):
    """``slow(·, field_type)``, with the common values taken straight, without asking each what it is
    (the writers convert a great many distinct values of the national infractions): a
    ``str`` of a text column by ``text``, a ``datetime`` of a date-time column or a ``date`` of a date
    column by ``moment``. ``text`` and ``moment`` must give what ``slow`` gives for those values."""
    kind = {"datetime": datetime, "date": date}.get(field_type)
    if field_type == "string":
        return lambda v: text(v) if type(v) is str else slow(v, field_type)
    if kind is not None:
        return lambda v: moment(v) if type(v) is kind else slow(v, field_type)
    return lambda v: slow(v, field_type)


def _iso(value: date) -> str:
    return moment_text(value) if type(value) is datetime else value.isoformat()


def cell_of(field_type: str):
    """``cell(·, field_type)`` through :func:`straight`."""
    return straight(field_type, cell, lambda v: v or None, _iso)


def csv_text_of(field_type: str):
    """``csv_text(·, field_type)`` through :func:`straight`."""
    return straight(field_type, csv_text, neutralise, _iso)


def _encoded(convert, encode):
    return lambda v: encode(convert(v))


MEMO_VALUES = 150_000  # forms a writer keeps per column from one frame to the next


class Memo:
    """``fn``, with the forms it made kept from one frame to the next, up to :data:`MEMO_VALUES`: the writers of
    a table read in batches (pipeline/build/batches.py) meet the same amounts in batch after batch. Values
    equal for Python share a form, as they share a number in :class:`Coded`."""

    def __init__(self, fn):
        self.fn, self.done = fn, {}

    def __call__(self, value):
        try:
            return self.done[value]
        except KeyError:
            form = self.fn(value)
            if len(self.done) < MEMO_VALUES:
                self.done[value] = form
            return form
        except TypeError:  # an unhashable value
            return self.fn(value)

    def many(self, values: list) -> list:
        """``[self(v) for v in values]``, the values met before looked up at once."""
        try:
            got = list(map(self.done.get, values, itertools.repeat(_UNMADE)))
        except TypeError:  # an unhashable value
            return [self(v) for v in values]
        return [self(v) if form is _UNMADE else form for v, form in zip(values, got)]


_UNMADE = object()  # a value whose form :class:`Memo` has not made yet


def _kept(fn, memo: bool):
    return Memo(fn) if memo else fn


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


CHUNK = 20_000  # rows a writer holds as text at a time (and the XLSX hands its compressor)


class Coded:
    """A table's columns, each numbered once for all its writers: ``pandas.factorize`` gives every
    distinct value of a column a number (a missing value, ``None`` or NaN, is -1); a writer asks for its
    forms of a column (:meth:`forms`: text for the CSV, JSON for the JSON...), each distinct value
    converted once, and takes them a span of rows at a time, gathered by those numbers (numpy). The
    CSV, JSON, SQLite and XLSX writers of a table share one (but the largest table's workbook, written
    by another process), so each column is numbered once rather than once per writer and per chunk
    of rows; a writer called alone makes its own. Values equal for
    Python (1 and 1.0) share a number and a form."""

    def __init__(self, df: pd.DataFrame, numbered: dict[str, tuple] | None = None):
        """``numbered``: columns of ``df`` already numbered (``{name: (numbers, values)}``, each row's number
        into ``values``; a value may repeat, ``None`` included): a table read in batches numbers its texts as
        it reads them (pipeline/derive ``derive_columns``)."""
        self.df, self.length = df, len(df)
        self._numbered: dict[str, tuple] = dict(numbered or {})

    @classmethod
    def of_numbers(cls, numbered: dict[str, tuple], length: int) -> Coded:
        """A table's columns already numbered (``{name: (numbers, distinct values)}``, as :meth:`numbers` gives
        them): what a writer in another process receives instead of the frame."""
        coded = cls(pd.DataFrame(), numbered)
        coded.length = length
        return coded

    def numbers(self, name: str) -> tuple:
        """``(numbers, distinct values)`` of column ``name``, numbered on first use."""
        got = self._numbered.get(name)
        if got is None:
            codes, uniques = pd.factorize(self.df[name], use_na_sentinel=True)
            got = self._numbered[name] = (codes.astype(np.int32), uniques)  # int32: half the memory
        return got

    def forms(self, name: str, fn) -> Forms:
        """``fn`` of each value of column ``name``, to be taken a span at a time (:meth:`rows`)."""
        codes, uniques = self.numbers(name)
        return Forms(codes, uniques, fn)

    def spans(self):
        """``(start, stop)`` of each chunk of rows a writer handles at a time (:data:`CHUNK` rows)."""
        return [(start, min(start + CHUNK, self.length)) for start in range(0, self.length, CHUNK)]

    def column(self, name: str, fn) -> list:
        """``[fn(v) for v in df[name]]``, ``fn`` run once per distinct value (None for a missing one)."""
        return self.forms(name, fn).take(0, self.length)

    @staticmethod
    def rows(forms: list[Forms], start: int, stop: int):
        """The rows ``start:stop`` as tuples of the given columns' forms."""
        return zip(*(f.take(start, stop) for f in forms))


_TEXT = pa.large_string()  # a writer's forms as Arrow text (:meth:`Forms.text`), and what joins them in a CSV


class Forms:
    """A writer's forms of one column. A column of few distinct values (up to :data:`CHUNK`, or a quarter
    of its rows: states, codes, dates, amounts) has them converted all at once; a column of many (numbers
    of notices, times) has those of each span converted as it is taken, so that no writer holds a whole
    table as text."""

    def __init__(self, codes: np.ndarray, uniques, fn):
        self.codes, self.uniques, self.fn = codes, uniques, fn
        few = len(uniques) <= max(CHUNK, len(codes) // 4)
        self.whole = self._convert(uniques.tolist()) if few else None
        self._whole_text: pa.Array | None = None  # ``whole`` as Arrow text, made when first asked (:meth:`text`)

    def _convert(self, values: list) -> np.ndarray:
        """``fn`` of each value, then of None (number -1: the last item)."""
        many = getattr(self.fn, "many", None)  # Python values, as ``Series.tolist()`` gives them
        forms = many(values) if many is not None else map(self.fn, values)
        return np.fromiter(itertools.chain(forms, [self.fn(None)]), dtype=object, count=len(values) + 1)

    def take(self, start: int, stop: int) -> list:
        codes = self.codes[start:stop]
        if self.whole is not None:
            return self.whole[codes].tolist()
        present, where = np.unique(codes, return_inverse=True)  # this span's values, sorted; -1 first
        known = present[present >= 0]
        converted = self._convert(self.uniques.take(known).tolist())
        if len(known) < len(present):  # a missing value: numbered -1, first in ``present``
            converted = np.concatenate([converted[-1:], converted[:-1]])
        else:
            converted = converted[:-1]
        return converted[where].tolist()

    def text(self, start: int, stop: int) -> pa.Array:
        """:meth:`take`'s forms (text) as an Arrow array, gathered by Arrow where the column's forms were made
        at once."""
        if self.whole is None:
            return pa.array(self.take(start, stop), type=_TEXT)
        if self._whole_text is None:
            self._whole_text = pa.array(self.whole, type=_TEXT)
        codes = self.codes[start:stop]
        return self._whole_text.take(np.where(codes < 0, len(self.whole) - 1, codes))  # -1: None's form, the last


def joined(parts: list, separator: str = "") -> pa.Array:
    """Each row's text: the Arrow text arrays (or texts, the same in every row) ``parts`` joined element by element with
    ``separator``. A missing form (null) would make its whole row null: none may be."""
    parts = [pa.scalar(p, _TEXT) if isinstance(p, str) else p for p in parts]
    rows = pc.binary_join_element_wise(*parts, pa.scalar(separator, _TEXT))
    if rows.null_count:
        raise ValueError("uma forma ausente (None) numa linha")
    return rows


def text_bytes(texts: pa.Array) -> memoryview:
    """The UTF-8 bytes of an Arrow text array's values, one after another: its data buffer, sliced."""
    offsets = np.frombuffer(texts.buffers()[1], dtype=np.int64)
    return memoryview(texts.buffers()[2])[offsets[texts.offset]:offsets[texts.offset + len(texts)]]


def write_csv(df: pd.DataFrame, resource: dict, path: Path, coded: Coded | None = None, lines: bool = False
              ) -> np.ndarray | None:
    """With ``lines``, returns where each row's line ends in the file (:attr:`CsvFile.ends`)."""
    with CsvFile(resource, path, lines=lines) as out:
        out.add(df, coded)
    return out.line_ends() if lines else None


def write_json(df: pd.DataFrame, resource: dict, path: Path, coded: Coded | None = None) -> None:
    """A JSON array, one compact record per line: written as it is made, valid JSON, and still readable
    line by line (the national infractions no longer become one huge string). Each
    distinct value is encoded once and each record is filled into a template of its keys."""
    with JsonFile(resource, path) as out:
        out.add(df, coded)


class Appended:
    """A file written a frame at a time (``add``) and then closed (``close(complete)``: False when the writing
    failed, and the file is left as it is, to be thrown away); as a context manager, closed complete
    unless an exception ends the block."""

    def close(self, complete: bool = True) -> None:
        raise NotImplementedError

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close(complete=exc[0] is None)


class CsvFile(Appended):
    """A table's CSV, written a frame at a time (:meth:`add`): the whole table at once, or each batch of a
    table read in batches (pipeline/build/batches.py); the same bytes either way."""

    def __init__(self, resource: dict, path: Path, memo: bool = False, lines: bool = False):
        """``lines``: keep where each row's line ends (:meth:`line_ends`), so that a cut of the rows can be copied
        from the file's bytes (pipeline/publish/extracts.py)."""
        self.fields = kinds(resource)
        self.fh = open(path, "w", encoding="utf-8", newline="")
        self.writer = csv.writer(self.fh, lineterminator="\r\n")  # RFC 4180: CR and LF inside a cell get quoted
        self.writer.writerow([n for n, _ in self.fields])
        self.ends: list[np.ndarray] | None = [] if lines else None
        if lines:
            assert len(self.fields) > 1, "a table of one column is written by the csv module, its lines not kept"
            self.fh.flush()
            self.ends.append(np.array([self.fh.buffer.tell()], dtype=np.int64))  # the header's end
        # each distinct value written once as the csv module writes it in a row (``memo``: kept, :class:`Memo`)
        self.converters = [_kept(_encoded(csv_text_of(t), csv_cell), memo) for _, t in self.fields]

    def add(self, df: pd.DataFrame, coded: Coded | None = None) -> None:
        coded = coded or Coded(df)
        if len(self.fields) == 1:  # a row of one empty cell is written "" (and a blank line would be no row)
            forms = [coded.forms(n, csv_text_of(t)) for n, t in self.fields]
            for start, stop in coded.spans():
                self.writer.writerows(coded.rows(forms, start, stop))
            return
        forms = [coded.forms(n, convert) for (n, _), convert in zip(self.fields, self.converters)]
        for start, stop in coded.spans():
            if stop > start:  # each line joined by Arrow from the columns' forms, written as its UTF-8 bytes
                lines = joined([joined([f.text(start, stop) for f in forms], ","), "\r\n"])
                self.fh.flush()  # the header, written as text, goes first
                if self.ends is not None:
                    offsets = np.frombuffer(lines.buffers()[1], dtype=np.int64)[lines.offset:lines.offset + len(lines) + 1]
                    self.ends.append(offsets[1:] - offsets[0] + self.fh.buffer.tell())
                self.fh.buffer.write(text_bytes(lines))

    def line_ends(self) -> np.ndarray:
        """Where the header's line ends, then each row's, in the file's bytes."""
        return np.concatenate(self.ends)

    def close(self, complete: bool = True) -> None:
        self.fh.close()


class JsonFile(Appended):
    """A table's JSON array (:func:`write_json`), written a frame at a time like :class:`CsvFile`; with
    ``max_rows``, a table found to have more rows is not written at all (its file removed: such an array
    does not serve, pipeline/publish/hosting.py)."""

    def __init__(self, resource: dict, path: Path, max_rows: int | None = None, memo: bool = False):
        self.path, self.max_rows, self.rows = path, max_rows, 0
        self.encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
        self.fields = kinds(resource)
        self.converters = [_kept(_encoded(cell_of(t), self.encode), memo) for _, t in self.fields]
        self.template = "{" + ",".join(self.encode(n).replace("%", "%%") + ":%s" for n, _ in self.fields) + "}"
        self.fh = open(path, "w", encoding="utf-8", newline="\n")
        self.fh.write("[")
        self.first = True

    def add(self, df: pd.DataFrame, coded: Coded | None = None) -> None:
        if self.fh.closed:
            return
        self.rows += len(df)
        if self.max_rows is not None and self.rows > self.max_rows:
            self.fh.close()
            self.path.unlink()
            return
        coded = coded or Coded(df)
        forms = [coded.forms(n, convert) for (n, _), convert in zip(self.fields, self.converters)]
        for start, stop in coded.spans():
            lines = [self.template % row for row in coded.rows(forms, start, stop)]
            if lines:
                self.fh.write(("\n" if self.first else ",\n") + ",\n".join(lines))
                self.first = False

    def close(self, complete: bool = True) -> None:
        if self.fh.closed:
            return
        try:
            if complete:
                self.fh.write("\n]\n")
        finally:
            self.fh.close()


def rejected_frame(report: Report, schema: Schema) -> pd.DataFrame:
    """One row per grave problem with a row number: the rows that lenient mode kept out."""
    columns = [f["name"] for f in schema.published_tables["rejeitados"].fields]
    rows = [[p.as_row()[c] for c in columns] for p in report.errors if p.linha is not None]
    return pd.DataFrame(rows, columns=columns, dtype=object)
