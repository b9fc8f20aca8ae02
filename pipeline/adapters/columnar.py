"""The adapters' column engine: an export held by column, every rule judged once per distinct text.

An adapter on this engine (:class:`ColumnAdapter`) declares, as the row loop's adapters do, its layouts
and its checks in order, but each check is a :class:`Rule`: the columns it reads and a function of their
texts that gives what it parsed and the reason to reject the row (or None). The engine

1. reads the export once (:func:`read_frame`): a plain file (no quote, every line as wide as the header)
   is split by Arrow; any other goes through ``read_export``'s csv reader, which names what is wrong where;
2. drops the exact repeats of an earlier row (cells compared with their spaces folded), reports a row of
   the wrong width;
3. runs each rule once per distinct combination of its columns' texts and gives every row the first
   reason of the rules in their order: the message each rule words for the row engine, the same;
4. hands the rows that passed to the adapter's ``keep``, which makes the tables by column: the first row of
   a key is kept, a later one is merged and each of its fields that says otherwise is a conflict, reported
   row after row, in the order the adapter compares its fields (:class:`Conflicts`).

Every row is accounted (``lidas = mantidas + mescladas + duplicadas + rejeitadas``), and the package and
the report are those the per-row loop of :class:`.base.Adapter` (now Monitriip's alone, for the rows its
bulk path rejects) wrote for the same file: the engine replaced it with both compared on the regulator's
2021 export, the fixtures and hostile files (tests/test_ingest_columns.py keeps Arrow against the csv
module).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv

from ..contract.schema import Schema, load_schema
from ..read.columns import Columns, Numbered, numbered, plain_lines
from ..read.source import SourceTable
from ..read.writer import write_columns, write_table
from .base import Layout
from .common import (
    _DAMAGED,
    TEST_COMPANY_MARK,
    TEST_COMPANY_NOTE,
    IngestReport,
    SourceOptions,
    fold_code,
    month_first_only,
    read_export,
    source_entry,
    unresolved_places,
    write_descriptor,
)


def objects(values: Sequence) -> np.ndarray:
    """``values`` as a one-dimensional object array (tuples and records stay whole)."""
    return np.fromiter(values, dtype=object, count=len(values))


def per_text(values: np.ndarray, fn: Callable[[Any], Any]) -> Numbered:
    """``fn`` of each value of ``values``, called once per distinct value (None given as None)."""
    codes, distinct = numbered(values)
    return Numbered(codes, objects([fn(None if v is None or v != v else v) for v in distinct]))


def combined(codes: Sequence[np.ndarray]) -> np.ndarray:
    """One number per row for the combination of its numbers in ``codes`` (numbered in order of first
    appearance). The numbers are put together as the digits of one number, numbered again only when the next
    digit would not fit in 62 bits, and once at the end."""
    key = np.asarray(codes[0], dtype=np.int64)
    bound = int(key.max(initial=0)) + 1  # key < bound
    for more in codes[1:]:
        more = np.asarray(more, dtype=np.int64)
        base = int(more.max(initial=0)) + 1
        if bound * base >= 1 << 62:
            key = pd.factorize(key)[0].astype(np.int64)
            bound = int(key.max(initial=0)) + 1
        key, bound = key * base + more, bound * base
    return pd.factorize(key)[0].astype(np.int64)


def firsts(key: np.ndarray) -> np.ndarray:
    """Per row, the position of the first row with its ``key``."""
    if not len(key):
        return np.zeros(0, dtype=np.int64)
    codes = pd.factorize(key)[0]  # in order of first appearance: a row starts its key when its code is new
    top = np.maximum.accumulate(codes)
    return np.flatnonzero(np.concatenate(([True], top[1:] > top[:-1])))[codes]


# --- reading ----------------------------------------------------------------------------------


@dataclass
class Frame:
    """An export read: its rows of the header's width, by column (every one, repeats included), and the
    rows of another width (only a file the csv module read can have them), each with its line."""

    export: Any  # common.Export
    layout: Layout  # the header's layout
    rows: Columns
    odd: list[tuple[int, list[str]]]

    def raw(self, position: int) -> list[str]:
        """The cells of the row at ``position`` of ``rows``, as read."""
        return [t[c[position]] for c, t in zip(self.rows.codes, self.rows.texts)]


def read_frame(path: Path, layouts: Sequence[Layout]) -> Frame:
    """The export at ``path`` (checked and decoded by ``read_export``), its columns under the names of the
    layout its header is."""
    export = read_export(path, [list(layout.columns) for layout in layouts])
    layout = layouts[export.layout]
    names = layout.names
    split = _split(export, names, str(path))
    if split is not None:
        return Frame(export, layout, split, [])
    whole, odd = [], []
    for n, raw in export.rows:  # read_export refuses the file here, naming the line, if it must
        (whole if len(raw) == len(names) else odd).append((n, raw))
    read = SourceTable("", list(names), [raw for _, raw in whole], [n for n, _ in whole], str(path))
    return Frame(export, layout, Columns.of(read), odd)


def _split(export, names: list[str], shown: str) -> Columns | None:
    """The rows of a plain export split by Arrow (lines numbered from 2, blank rows left out, as the csv
    reader leaves them); None when the file is not plain or holds damaged text (``common._DAMAGED``), for
    the csv reader, which refuses a damaged file at the row, naming line and column. A file whose cells are
    wrapped whole in quotes, as some of the regulator's are (``"…";"…"``), is plain too (``plain_lines``'s
    ``whole_quotes``): both readers give the text between the quotes.

    Arrow splits the file's own bytes (the text encoded again in its encoding: for Latin-1, a copy) into
    cells of bytes; each column's distinct cells are decoded, and looked at for damage, once."""
    encoding = export.encoding
    data = export.text.encode(encoding)
    if not plain_lines(data, len(names), b";", whole_quotes=True):
        return None
    table = pacsv.read_csv(
        pa.py_buffer(data),
        read_options=pacsv.ReadOptions(skip_rows=1, column_names=names),
        parse_options=pacsv.ParseOptions(delimiter=";", quote_char='"' if b'"' in data else False,
                                         double_quote=False, newlines_in_values=False,
                                         ignore_empty_lines=False),
        convert_options=pacsv.ConvertOptions(column_types={n: _CELLS for n in names}, strings_can_be_null=False,
                                             quoted_strings_can_be_null=False))
    table = table.append_column("_linha", pa.array(np.arange(2, 2 + table.num_rows, dtype=np.int64)))
    rows = _decoded(table, names, encoding, shown)
    if rows is None:
        return None
    empty = np.ones(len(rows), dtype=bool)  # a row of blank cells is no row, as for the csv reader
    for codes, texts in zip(rows.codes, rows.texts):
        empty &= np.fromiter((not t.strip() for t in texts), dtype=bool, count=len(texts))[codes]
        if not empty.any():
            return rows
    kept = table.filter(pa.array(~empty))  # numbered again: the blank rows' texts left out
    return _decoded(kept.cast(pa.schema([pa.field(n, pa.binary()) for n in names]).append(kept.schema.field("_linha"))),
                    names, encoding, shown)


def decoded(cells: pa.Array, encoding: str) -> list[str]:
    """The texts of ``cells`` (an Arrow array of bytes in ``encoding``, Latin-1 or UTF-8, the whole file's
    bytes known to decode: a cell, cut at ASCII marks, is whole UTF-8 then). Latin-1 is made UTF-8 in numpy,
    each byte from 0x80 becoming the two bytes of its code point, and Arrow then makes the texts, without a
    Python object per cell on the way."""
    if encoding == "utf-8":
        return cells.cast(pa.string()).to_pylist()
    if encoding != "latin-1":
        return [v.decode(encoding) for v in cells.to_pylist()]
    offsets = np.frombuffer(cells.buffers()[1], np.int32, len(cells) + 1, cells.offset * 4)
    data = np.frombuffer(cells.buffers()[2], np.uint8)[offsets[0]:offsets[-1]] if len(cells) else \
        np.zeros(0, np.uint8)
    offsets = offsets - offsets[0]
    high = data >= 0x80
    if high.any():
        at = np.cumsum(1 + high) - (1 + high)  # where each byte's first byte goes
        out = np.empty(len(data) + int(high.sum()), np.uint8)
        out[at] = np.where(high, 0xC0 | (data >> 6), data)
        out[at[high] + 1] = 0x80 | (data[high] & 0x3F)
        offsets = offsets + np.concatenate(([0], np.cumsum(high)))[offsets]
        data = out
    return pa.StringArray.from_buffers(len(cells), pa.py_buffer(offsets.astype(np.int32)),
                                       pa.py_buffer(data)).to_pylist()


_CELLS = pa.dictionary(pa.int32(), pa.binary())  # each column's distinct cells, numbered as Arrow splits the file


def _decoded(table: pa.Table, names: list[str], encoding: str, shown: str) -> Columns | None:
    """The columns ``names`` of ``table`` (cells of bytes in ``encoding``, each row's line in ``_linha``) held
    by column, each distinct cell decoded once; None when one of them holds damaged text."""
    codes, texts = [], []
    for n in names:
        encoded = table.column(n).combine_chunks()  # one dictionary for the blocks' dictionaries
        if not pa.types.is_dictionary(encoded.type):
            encoded = encoded.dictionary_encode()
        distinct = decoded(encoded.dictionary, encoding)
        together = "\n".join(distinct)  # a line feed is in no damaged pair, nor in a plain cell
        if not together.isascii() and _DAMAGED.search(together):
            return None
        codes.append(encoded.indices.to_numpy(zero_copy_only=False).astype(np.int64))
        texts.append(np.asarray(distinct, dtype=object))
    return Columns("", list(names), codes, texts, table.column("_linha").to_numpy().astype(np.int64), shown)


# --- rules ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rule:
    """A check of a row that reads ``columns`` alone: ``judge(*texts)`` gives ``(values, reason)``, the
    values (one per name of ``gives``, None where the row is rejected) and the reason to reject the row,
    or None. A rule of one column that is ``folded`` is given its texts with their runs of spaces made one
    and no space at either end (``" ".join(text.split())``), as the engine folds them for the repeats."""

    name: str
    columns: tuple[str, ...]
    gives: tuple[str, ...]
    judge: Callable[..., tuple[tuple, str | None]]
    folded: bool = False


@dataclass
class Judged:
    """The rows of a frame with the rules' verdicts: ``values`` by name, per row, and each row's first
    reason (None for a row that passed every rule)."""

    rows: Columns
    values: dict[str, np.ndarray]
    why: np.ndarray


def judge(rows: Columns, rules: Sequence[Rule], folds: Sequence[list[str]]) -> Judged:
    """The rules' verdicts on ``rows``, each rule judging each distinct text (or combination of texts) of
    its columns once; ``folds``: each column's distinct texts folded (a list per column, in the order of its
    texts: :func:`fold_all`), for the ``folded`` rules."""
    n = len(rows)
    values: dict[str, np.ndarray] = {}
    why = np.full(n, None, dtype=object)
    done = np.zeros(n, dtype=bool)
    for rule in rules:
        parts = [rows.column(c) for c in rule.columns]
        if len(parts) == 1:
            inverse, texts = parts[0]
            if rule.folded:
                texts = folds[rows.columns.index(rule.columns[0])]
            verdicts = [*map(rule.judge, texts)]
        else:
            inverse = combined([codes for codes, _ in parts])
            _, first = np.unique(inverse, return_index=True)
            verdicts = [rule.judge(*(texts[codes[i]] for codes, texts in parts)) for i in first]
        given, reasons = zip(*verdicts) if verdicts else ((), ())
        reasons = objects(reasons)
        bad = np.not_equal(reasons, None).astype(bool)[inverse]
        take = bad & ~done
        why[take] = reasons[inverse[take]]
        done |= bad
        for k, name in enumerate(rule.gives):
            values[name] = Numbered(inverse, objects([v[k] if v is not None else None for v in given]))
    return Judged(rows, values, why)


def folded(column: str) -> Rule:
    """A column kept as written, its runs of spaces made one; never a reason to reject the row."""
    return Rule(column, (column,), (column,), lambda text: ((text,), None), folded=True)


# --- keeping ----------------------------------------------------------------------------------


class Conflicts:
    """The conflicts of the kept rows, gathered by table and sorted as the row loop meets them: by row, then
    in the order the adapter compares (carrier, line, then its own table)."""

    def __init__(self) -> None:
        self.found: list[tuple] = []

    def compare(self, order: int, first: np.ndarray, values: np.ndarray, lines: np.ndarray, chave: str,
                label: Callable[[int], str], campo: str, shown: Callable[[Any], str]) -> None:
        """Each row whose ``values`` differ from those of the first row of its key (``first``: :func:`firsts`)."""
        differ = np.flatnonzero((first != np.arange(len(first))) & np.not_equal(values, values[first]).astype(bool))
        for p in differ.tolist():
            f = int(first[p])
            self.found.append((p, order, chave, label(f), campo, shown(values[f]), shown(values[p]), int(lines[p]),
                               int(lines[f])))

    def report(self, report: IngestReport) -> None:
        for _, _, *conflict in sorted(self.found, key=lambda c: (c[0], c[1])):
            report.conflict(*conflict)


def carriers(report: IngestReport, conflicts: Conflicts, cnpj: np.ndarray, razao: np.ndarray,
             lines: np.ndarray) -> list[dict]:
    """The transportadoras rows of the kept rows: first spelling kept, the test company flagged (``observacao``
    and the report's ``sinalizadas``), another name under the same CNPJ a conflict."""
    first = firsts(numbered(cnpj)[0])
    conflicts.compare(0, first, razao, lines, "cnpj", lambda f: cnpj[f], "razao_social", str)
    out = {}
    for f in np.flatnonzero(first == np.arange(len(first))).tolist():
        row = {"cnpj": cnpj[f], "razao_social": razao[f]}
        if TEST_COMPANY_MARK in fold_code(razao[f]):
            row["observacao"] = TEST_COMPANY_NOTE
            report.sinalizadas.append({"tabela": "transportadoras", "cnpj": cnpj[f], "razao_social": razao[f],
                                       "linha": int(lines[f]), "motivo": TEST_COMPANY_NOTE})
        out[cnpj[f]] = row
    return [out[c] for c in sorted(out)]


def line_tables(report: IngestReport, conflicts: Conflicts, judged: Judged, ambito: np.ndarray,
                compared: Sequence[tuple[str, np.ndarray]]) -> tuple[dict[str, list[dict]], dict[str, dict], dict]:
    """The transportadoras (:func:`carriers`) and linhas of the kept rows: each line as its first row names it
    (``ambito``: per row), a later row of the line that says otherwise of a ``compared`` field (name, values) a
    conflict. Returns the tables, the lines by prefix and their ends by prefix."""
    v, lines = judged.values, judged.rows.row_numbers
    transportadoras = carriers(report, conflicts, v["cnpj"], v["razao_social"], lines)
    first = firsts(numbered(v["prefixo"])[0])
    for order, (campo, values) in enumerate(compared, start=1):
        conflicts.compare(order, first, values, lines, "prefixo", lambda f: v["prefixo"][f], campo, str)
    rows, ends_of = {}, {}
    at = np.flatnonzero(first == np.arange(len(first)))  # each line's first row
    for ends, prefixo, descricao, scope in zip(*(a[at].tolist() for a in (v["ends"], v["prefixo"],
                                                                         v["descricao_linha"], ambito))):
        rows[prefixo] = {"prefixo": prefixo, "descricao": descricao,
                         "origem_municipio": ends.origem_municipio, "origem_uf": ends.origem_uf,
                         "destino_municipio": ends.destino_municipio, "destino_uf": ends.destino_uf,
                         "ambito": scope, "via": ends.via}
        ends_of[prefixo] = ends
    return {"transportadoras": transportadoras, "linhas": [rows[p] for p in sorted(rows)]}, rows, ends_of


def keep_once(report: IngestReport, conflicts: Conflicts, lines: np.ndarray, keys: Sequence[np.ndarray],
              compared: Sequence[tuple[str, np.ndarray]], chave: str, why: str, shown: Callable[[Any], str],
              first_order: int = 4) -> np.ndarray:
    """The first row of each key is kept; a later row of the same key is merged into it (``why`` says so in
    the report) and each of its ``compared`` fields (name, values) that says otherwise is a conflict of table
    ``chave``, the first row's value kept. Returns the kept rows' positions, in the file's order."""
    first = firsts(combined([numbered(k)[0] for k in keys]))
    label = lambda f: " | ".join(str(k[f]) for k in keys)  # noqa: E731
    for k, (campo, values) in enumerate(compared):
        conflicts.compare(first_order + k, first, values, lines, chave, label, campo, shown)
    is_first = first == np.arange(len(first))
    for p in np.flatnonzero(~is_first).tolist():
        report.merge(int(lines[p]), int(lines[first[p]]), why)
    kept = np.flatnonzero(is_first)
    report.keep(len(kept))
    return kept


_ASCII_SPACES = "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f"  # what str.split() splits at in ASCII, but the space


def fold_all(texts: list[str]) -> list[str]:
    """``" ".join(text.split())`` of each text: the list itself when the texts together show that folding changes
    none (ASCII, no space at either end of one, no two in a row, no other space), looked for in them joined
    by NUL, which no cell holds (a file with one is refused), a mark at a time."""
    together = "\0".join(texts)
    if (together.isascii() and not any(mark in together for mark in _ASCII_SPACES)
            and not any(mark in together for mark in ("  ", " \0", "\0 "))
            and not together.startswith(" ") and not together.endswith(" ")):
        return texts
    return [" ".join(t.split()) for t in texts]


def _folded(codes: np.ndarray, texts: list[str], folded: list[str]) -> np.ndarray:
    """Each row's number among its column's distinct texts with their spaces folded (``codes``: among the
    distinct ``texts``; ``folded``: those texts folded, which folding most often leaves as they are)."""
    if folded is texts or folded == texts:
        return codes
    return numbered(objects(folded))[0][codes]


def ranked(values: np.ndarray) -> np.ndarray:
    """Each value's rank in the sorted order of the distinct values (Python's order of strings)."""
    codes, distinct = numbered(values)
    try:  # texts alone: Arrow sorts their UTF-8 bytes, whose order is their code points', as Python's
        texts = pa.array(distinct, pa.string())  # refuses a number, a date or NaN; takes None as null
        if texts.null_count:
            raise TypeError
        order = pc.sort_indices(texts).to_numpy()
    except (TypeError, pa.ArrowException, UnicodeError):
        order = sorted(range(len(distinct)), key=lambda i: distinct[i])
    rank = np.empty(len(distinct), dtype=np.int64)
    rank[order] = np.arange(len(distinct))
    return rank[codes]


def key_order(columns: Sequence[np.ndarray]) -> np.ndarray:
    """The positions of the rows sorted by the tuple of their ``columns`` (as ``sorted`` sorts tuples)."""
    return np.lexsort([ranked(c) for c in reversed(columns)])


# --- the run ----------------------------------------------------------------------------------


class ColumnAdapter:
    """An adapter run by columns. A subclass declares ``NAME``, ``TITLE``, ``PRINCIPAL``, ``LAYOUTS``,
    ``MIXED_DATES`` (as :class:`.base.Adapter` does), ``rules()`` (its checks, in order) and
    ``keep(judged, report)``, which returns the package's tables: each a list of records, or a
    ``(columns, count)`` pair for a table written by column."""

    NAME: ClassVar[str]
    TITLE: ClassVar[str]
    PRINCIPAL: ClassVar[str]
    LAYOUTS: ClassVar[tuple[Layout, ...]]
    MIXED_DATES: ClassVar[tuple[str, ...]] = ()

    def __init__(self, schema: Schema, layout: Layout, mixed: dict[str, bool]):
        self.schema, self.layout, self.mixed = schema, layout, mixed

    def rules(self) -> list[Rule]:
        raise NotImplementedError

    def keep(self, judged: Judged, report: IngestReport) -> dict:
        raise NotImplementedError

    @classmethod
    def run(cls, path: Path, out: Path, schema: Schema | None = None,
            options: SourceOptions | None = None) -> IngestReport:
        """Convert the export at ``path`` into a source package in ``out``."""
        schema = schema or load_schema()
        frame = read_frame(path, cls.LAYOUTS)
        layout = frame.layout
        report = IngestReport(fonte=Path(path).name, adaptador=cls.NAME, codificacao=frame.export.encoding,
                              principal=cls.PRINCIPAL)
        source = source_entry(cls.TITLE, path, options or SourceOptions(), report)
        rows = frame.rows
        mixed = {}
        for column in cls.MIXED_DATES:  # which of the date columns mix two orders: every row, as read
            i = layout.names.index(column)
            mixed[column] = (any(month_first_only(t) for t in rows.texts[i])
                             or any(len(raw) > i and month_first_only(raw[i]) for _, raw in frame.odd))
        adapter = cls(schema, layout, mixed)

        # exact repeats (spaces folded), then rows of another width
        listed = [texts.tolist() for texts in rows.texts]
        folds = [fold_all(texts) for texts in listed]  # for the repeats and the rules
        key = combined([_folded(*column) for column in zip(rows.codes, listed, folds)]) \
            if len(rows) else np.zeros(0, dtype=np.int64)
        first = firsts(key)
        repeated = first != np.arange(len(rows))
        repeats = [(int(rows.row_numbers[p]), int(rows.row_numbers[first[p]]))  # (line, the line it repeats)
                   for p in np.flatnonzero(repeated).tolist()]
        rejected: list[tuple[int, str, list[str]]] = []
        seen: dict[tuple, int] = {}
        for n, raw in frame.odd:
            k = tuple(" ".join(c.split()) for c in raw)
            if k in seen:
                repeats.append((n, seen[k]))
                continue
            seen[k] = n
            rejected.append((n, f"número de colunas: a linha tem {len(raw)} colunas; o cabeçalho tem "
                                f"{len(layout.names)}", raw))
        for n, first_line in sorted(repeats):  # in the file's order
            report.duplicate(n, first_line)

        once = np.flatnonzero(~repeated)
        judged = judge(rows.take(once) if len(once) < len(rows) else rows, adapter.rules(), folds)
        failed = np.flatnonzero(judged.why != None)  # noqa: E711 (elementwise)
        for p in failed.tolist():
            rejected.append((int(judged.rows.row_numbers[p]), judged.why[p], frame.raw(int(once[p]))))
        for n, why, raw in sorted(rejected, key=lambda r: r[0]):
            report.reject(n, why, raw)
        passed = np.flatnonzero(judged.why == None)  # noqa: E711
        kept = judged if not len(failed) else Judged(
            judged.rows.take(passed), {k: v[passed] for k, v in judged.values.items()}, judged.why[passed])
        tables = adapter.keep(kept, report)

        target = Path(out)
        target.mkdir(parents=True, exist_ok=True)
        counts = {}
        for name, table in tables.items():
            fields = schema[name].field_names
            if isinstance(table, tuple):
                counts[name] = write_columns(target / schema[name].filename, fields, *table)
            else:
                counts[name] = write_table(target / schema[name].filename, fields, table)
        write_descriptor(target, schema, source)
        report.tabelas = counts
        report.municipios_nao_resolvidos = unresolved_places(target, schema, tables)
        report.check()
        return report


# --- the checks every export row of a carrier's line passes first (common.RowChecker) -----------


def line_rules(schema: Schema, lines: bool = True) -> list[Rule]:
    """The CNPJ, the razão social, the prefix (the schema's pattern) and the description, in that order, as
    ``common.RowChecker`` reads them (``lines`` False: the carrier's two alone)."""
    from .common import parse_cnpj, parse_description

    prefix = re.compile(schema["linhas"].field("prefixo")["constraints"]["pattern"])

    def razao(text: str):
        folded = " ".join(text.split())
        return (folded,), None if folded else 'razão social ausente: coluna "razao_social" vazia'

    def prefixo(text: str):
        code = text.strip()
        if prefix.fullmatch(code):
            return (code,), None
        return None, f'prefixo ilegível: coluna "prefixo" = "{text}" não é NN-NNNN-NN nem AAAA0000000'

    def description(text: str):
        ends, why = parse_description(text)
        return (ends, " ".join(text.split())), why

    def cnpj(text: str):
        digits, why = parse_cnpj(text)
        return (digits,), why

    carrier = [Rule("cnpj", ("cnpj",), ("cnpj",), cnpj), Rule("razao_social", ("razao_social",), ("razao_social",), razao)]
    if not lines:
        return carrier
    return [*carrier,
            Rule("prefixo", ("prefixo",), ("prefixo",), prefixo),
            Rule("descricao_linha", ("descricao_linha",), ("ends", "descricao_linha"), description)]
