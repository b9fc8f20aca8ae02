"""A batch of a table read in batches (``x-em-lotes``, pipeline/build/batches.py), held by column: each
column as its distinct texts and, per row, the number of its text among them (``pandas.factorize``).
Whatever depends on a text alone (a verdict, a typed value, a row's hash, a published form) is computed
once per distinct text and spread to the rows by those numbers (numpy), never row by row in Python."""

from __future__ import annotations

import codecs
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.csv as pacsv

from ..contract.schema import Table
from .source import SourceTable, read_csv_batches


def numbered(values) -> tuple[np.ndarray, np.ndarray]:
    """``pandas.factorize(values, use_na_sentinel=False)``: each value's number among the distinct values, in the
    order they first appear, a missing one (None, NaN) numbered as a value too, and the distinct values (NaN
    for the missing one). Asked with the sentinel, pandas finds the missing values as it hashes; without it,
    an object array took a pass of its own for them, a third of the time. A :class:`Numbered` column is
    numbered from the numbers it keeps: its rows' numbers, then its distinct values, are hashed, not its rows'."""
    if isinstance(values, Numbered) and values.numbers is not None:
        codes, distinct, plain = values.numbers
        used, order = pd.factorize(codes)  # the distinct values the rows hold, as they first appear
        if not plain:  # whether no two distinct values are equal and none is missing: asked once, for every part
            plain.append(not pd.isna(distinct).any() and len(numbered(distinct)[1]) == len(distinct))
        if plain[0]:
            return used, distinct[order]
        same, once = numbered(distinct[order])  # equal ones made one
        return same[used], once
    codes, distinct = pd.factorize(values, use_na_sentinel=True)
    missing = np.flatnonzero(codes < 0)
    if not missing.size:
        return codes, distinct
    first = int(missing[0])
    k = int(codes[:first].max()) + 1 if first else 0  # how many values appeared before the first missing one
    codes = codes + (codes >= k)
    codes[missing] = k
    return codes, np.insert(np.asarray(distinct, dtype=object), k, np.nan)


class Numbered(np.ndarray):
    """An object column made of ``distinct[codes]`` (a value per distinct text, spread to the rows) that keeps
    ``numbers``, ``(codes, distinct, …)``, through indexing, so that :func:`numbered` hashes its distinct values
    and not its rows'. Any other array made from it (a comparison, a copy, a view) keeps none, and writing
    into it forgets them."""

    numbers: tuple[np.ndarray, np.ndarray, list] | None = None  # and what numbered learnt of the distinct values

    def __new__(cls, codes: np.ndarray, distinct: np.ndarray) -> Numbered:
        distinct = np.asarray(distinct, dtype=object)
        out = distinct[codes].view(cls)
        out.numbers = (codes, distinct, [])
        return out

    def __array_finalize__(self, obj) -> None:
        self.numbers = None

    def __getitem__(self, index):
        out = super().__getitem__(index)
        if isinstance(out, Numbered) and self.numbers is not None:
            codes, distinct, plain = self.numbers
            out.numbers = (codes[index], distinct, plain)
        return out

    def __setitem__(self, index, value) -> None:
        self.numbers = None
        super().__setitem__(index, value)


@dataclass
class Columns:
    name: str
    columns: list[str]
    codes: list[np.ndarray]  # per column, each row's number (int64) into its texts
    texts: list[np.ndarray]  # per column, its distinct texts (object array)
    row_numbers: np.ndarray  # each row's line in its file
    source: str  # the file, as shown in messages

    @classmethod
    def of(cls, table: SourceTable) -> Columns:
        """The rows of ``table`` (of one file), by column: those it holds by column (:class:`HeldRows`) as they are."""
        if isinstance(table.rows, HeldRows):
            return table.rows.columns
        return cls.numbered(table.name, table.columns, [table.column(n) for n in table.columns], table.row_numbers,
                            table.source)

    @classmethod
    def numbered(cls, name: str, names: list[str], cells: list, row_numbers, source: str) -> Columns:
        """Columns ``names`` of a table, given as each column's ``cells`` in the rows' order, numbered."""
        codes, texts = [], []
        for column in cells:
            numbers, distinct = pd.factorize(np.array(column, dtype=object))
            codes.append(numbers)
            texts.append(np.asarray(distinct, dtype=object))
        return cls(name, list(names), codes, texts, np.asarray(row_numbers, dtype=np.int64), source)

    def __len__(self) -> int:
        return len(self.row_numbers)

    def take(self, positions: np.ndarray) -> Columns:
        """The rows at ``positions`` (their texts kept as they are numbered)."""
        return Columns(self.name, self.columns, [c[positions] for c in self.codes], self.texts,
                       self.row_numbers[positions], self.source)

    def column(self, name: str) -> tuple[np.ndarray, np.ndarray]:
        """``(codes, texts)`` of column ``name``."""
        i = self.columns.index(name)
        return self.codes[i], self.texts[i]

    def held(self, data_rows: int) -> SourceTable:
        """The rows as a whole table held by column (:class:`HeldRows`), each column's numbers in the smallest
        integer type that holds them; ``data_rows``: the records of its file, those too wide or too narrow to
        read included."""
        compact = Columns(self.name, self.columns, [c.astype(np.min_scalar_type(max(len(t) - 1, 0)))
                                                    for c, t in zip(self.codes, self.texts)],
                          self.texts, self.row_numbers, self.source)
        out = SourceTable(self.name, self.columns, HeldRows(compact), self.row_numbers.tolist(), self.source)
        out.data_rows = data_rows
        return out

    def table(self, positions: np.ndarray) -> SourceTable:
        """The rows at ``positions`` as rows of text, as the reader gave them."""
        cells = [t[c[positions]].tolist() for c, t in zip(self.codes, self.texts)]
        out = SourceTable(self.name, self.columns, [list(r) for r in zip(*cells)],
                          self.row_numbers[positions].tolist(), self.source)
        out.data_rows = len(positions)
        return out


class HeldRows(Sequence):
    """The rows of a whole table held by column (:meth:`Columns.held`): what the stages ask of the table
    (a column, a row by its position, every row in order) is made from the columns when asked, and a
    column is made without making a row. A national table repeats most of its cells, and a row as a list
    of its texts took more memory than the texts themselves."""

    ROWS_AT_ONCE = 1 << 16  # rows made at a time when every row is asked for

    def __init__(self, columns: Columns):
        self.columns = columns

    def __len__(self) -> int:
        return len(self.columns)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        n = len(self)
        if not -n <= i < n:
            raise IndexError(i)
        return [t[c[i]] for c, t in zip(self.columns.codes, self.columns.texts)]

    def __iter__(self):
        held = self.columns
        for start in range(0, len(self), self.ROWS_AT_ONCE):
            cells = [t[c[start:start + self.ROWS_AT_ONCE]].tolist() for c, t in zip(held.codes, held.texts)]
            yield from map(list, zip(*cells))

    def __eq__(self, other) -> bool:
        return isinstance(other, (list, HeldRows)) and len(self) == len(other) and list(self) == list(other)

    __hash__ = None

    def column(self, name: str) -> tuple[str, ...]:
        """The cells of column ``name``, in the rows' order."""
        codes, texts = self.columns.column(name)
        return tuple(texts[codes].tolist())

    def take(self, positions) -> HeldRows:
        """The rows at ``positions``, held by column too."""
        return HeldRows(self.columns.take(np.asarray(positions, dtype=np.int64)))


SCAN_BYTES = 4 << 20  # bytes of a file read at a time before it is read by column (64 MB took twice as long)
PIECE_BYTES = 4 << 20  # bytes of whole lines looked at a time by numpy (plain_lines)
MAX_LINE = 1 << 20  # a longer line is left to the csv module (Arrow reads a block of lines at a time)
BLOCK_BYTES = 4 << 20  # bytes Arrow splits at a time


def plain_csv(path: Path, width: int) -> bool:
    """Whether the file at ``path`` is a CSV that Arrow splits exactly as the csv module does (the portal's
    own reader, :func:`.source.read_csv_batches`), its rows numbered by their lines: UTF-8 without a BOM,
    no quote, no NUL, no carriage return but before a line feed, no empty line, every line of ``width``
    cells and shorter than :data:`MAX_LINE` bytes. A file that is not is read by the csv module, which names
    what is wrong where."""
    with open(path, "rb") as fh:
        head = fh.read(3)
        if head.startswith(b"\xef\xbb\xbf"):
            return False
        fh.seek(0)
        decoder = codecs.getincrementaldecoder("utf-8")()
        rest = b""
        while True:
            data = fh.read(SCAN_BYTES)
            final = not data
            chunk = rest + data
            if not final:  # whole lines only: the rest waits for the next read
                cut = chunk.rfind(b"\n") + 1
                if not cut and len(chunk) > MAX_LINE:
                    return False
                chunk, rest = chunk[:cut], chunk[cut:]
            elif chunk and not chunk.endswith(b"\n"):
                chunk += b"\n"
            if not chunk:
                if final:
                    return True
                continue
            try:
                if not chunk.isascii():  # ASCII is UTF-8 (whole lines: no character is cut between reads)
                    decoder.decode(chunk, final)
            except UnicodeDecodeError:
                return False
            if not plain_lines(chunk, width, b","):
                return False
            if final:
                return True


def plain_lines(data: bytes, width: int, delimiter: bytes, whole_quotes: bool = False) -> bool:
    """Whether ``data`` (whole lines, the last ending in a line feed) holds no quote, no NUL, no carriage
    return but before a line feed, no empty line, no line of :data:`MAX_LINE` bytes or more, and ``width``
    cells on every line, split by ``delimiter``: lines any CSV reader splits at each delimiter alone. With
    ``whole_quotes``, a cell may be wrapped whole in quotes that hold no quote, delimiter or line end
    (:func:`quotes_wrap_cells`): any CSV reader reads such a cell as the text between its quotes. A byte
    that is absent is looked for by ``bytes`` (in C, at memory speed); where it is, by numpy, a piece of
    whole lines of at most :data:`PIECE_BYTES` at a time (the arrays of a piece stay in the processor's cache)."""
    if not data or b"\0" in data or (b'"' in data and not whole_quotes):
        return False
    start = 0
    while start < len(data):
        stop = len(data) if len(data) - start <= PIECE_BYTES else data.rfind(b"\n", start, start + PIECE_BYTES) + 1
        if stop <= start:  # a line longer than a piece is longer than MAX_LINE
            return False
        if not _plain_piece(data[start:stop], width, delimiter):
            return False
        start = stop
    return True


def _plain_piece(data: bytes, width: int, delimiter: bytes) -> bool:
    """:func:`plain_lines` of a piece of whole lines, its bytes known to hold no NUL. Every line has its
    ``width - 1`` delimiters when the piece holds that many per line and the k-th run of ``width - 1`` of
    them, in order, lies inside the k-th line: runs and lines are disjoint and equal in number, so no line
    can hold more than its own run."""
    arr = np.frombuffer(data, dtype=np.uint8)
    if b"\r" in data:
        returns = np.flatnonzero(arr == 13)
        if returns[-1] + 1 >= arr.size or (arr[returns + 1] != 10).any():
            return False
    ends = np.flatnonzero(arr == 10)
    if not ends.size or ends[-1] != arr.size - 1:
        return False
    starts = np.empty_like(ends)
    starts[0], starts[1:] = 0, ends[:-1] + 1
    lengths = ends - starts - (arr[np.maximum(ends - 1, 0)] == 13)
    if (lengths <= 0).any() or lengths.max() >= MAX_LINE:
        return False
    cuts = np.flatnonzero(arr == ord(delimiter))
    if cuts.size != ends.size * (width - 1):
        return False
    if width > 1:
        runs = cuts.reshape(ends.size, width - 1)
        if (runs[:, 0] < starts).any() or (runs[:, -1] > ends).any():
            return False
    return b'"' not in data or quotes_wrap_cells(arr, ord(delimiter))


def quotes_wrap_cells(arr: np.ndarray, delimiter: int) -> bool:
    """Whether every quote of ``arr`` (a file's bytes) opens or closes a cell wrapped whole in quotes: quotes
    go in pairs, the first at a cell's start (the line's, or after a delimiter), the second at the same
    cell's end (before a delimiter, a carriage return or a line feed), with no delimiter or line feed
    between them (among the quotes, delimiters and line feeds, in order, a pair's two quotes are neighbours).
    A doubled quote (``"a""b"``), a quote inside a cell (``a"b``), a cell ``"a"b``, a delimiter or a line
    break inside quotes are not: the csv module reads those files."""
    marks = np.flatnonzero((arr == 34) | (arr == delimiter) | (arr == 10))
    at = np.flatnonzero(arr[marks] == 34)  # the quotes, as places among the marks
    if at.size % 2 or (at[1::2] != at[0::2] + 1).any():
        return False
    opens, closes = marks[at[0::2]], marks[at[1::2]]
    size = arr.size
    before = np.where(opens > 0, arr[np.maximum(opens - 1, 0)], 10)
    after = np.where(closes + 1 < size, arr[np.minimum(closes + 1, size - 1)], 10)
    return bool(((before == 10) | (before == delimiter)).all()
                and ((after == delimiter) | (after == 13) | (after == 10)).all())


def read_columns(table: Table, path: Path, shown: str, size: int):
    """The file's rows ``size`` at a time, by column: yields ``(Columns, problems, data rows)`` as
    :func:`.source.read_csv_batches` yields its batches (the same rows, lines, problems and batches, the
    last one always). A plain file (:func:`split_by_arrow`) is split by Arrow, a block at a time; any other
    by the csv module, its rows then held by column."""
    if splits_by_arrow(table, path):
        yield from split_by_arrow(table, path, shown, size)
        return
    for batch, found in read_csv_batches(table, path, shown, size):
        yield Columns.of(batch), found, batch.data_rows


def splits_by_arrow(table: Table, path: Path) -> bool:
    """Whether :func:`split_by_arrow` reads the file: a plain file (:func:`plain_csv`) whose header is the
    table's columns in order. A file that cannot be opened is not: the csv module's reader says why."""
    names = table.field_names
    try:
        with open(path, "rb") as fh:
            first = fh.readline().rstrip(b"\r\n")
        return first == ",".join(names).encode() and plain_csv(path, len(names))
    except OSError:
        return False


def split_by_arrow(table: Table, path: Path, shown: str, size: int | None):
    """A plain file's rows (:func:`splits_by_arrow`) ``size`` at a time, or all at once with no ``size``, as
    :func:`read_columns` yields them."""
    names = table.field_names
    reader = pacsv.open_csv(
        path,
        read_options=pacsv.ReadOptions(skip_rows=1, column_names=names, block_size=BLOCK_BYTES, use_threads=False),
        parse_options=pacsv.ParseOptions(quote_char=False, newlines_in_values=False, ignore_empty_lines=False),
        convert_options=pacsv.ConvertOptions(column_types={n: pa.string() for n in names}, strings_can_be_null=False,
                                             quoted_strings_can_be_null=False))
    blank: list[dict[str, bool]] = [{} for _ in names]
    line, held, rows = 2, [], 0
    for block in reader:
        numbered = block.append_column("_linha", pa.array(np.arange(line, line + block.num_rows, dtype=np.int64)))
        line += block.num_rows
        empty = blank_rows(block, blank)
        kept = numbered.filter(pa.array(~empty)) if empty.any() else numbered
        held.append(kept)
        rows += kept.num_rows
        while size is not None and rows >= size:  # a batch of ``size`` rows, as the csv module's reader makes them
            whole = pa.Table.from_batches(held)
            yield columns_of(table.name, names, whole.slice(0, size), shown), [], size
            rest = whole.slice(size)
            held, rows = rest.to_batches(), rest.num_rows
    whole = pa.Table.from_batches(held, schema=reader.schema.append(pa.field("_linha", pa.int64())))
    yield columns_of(table.name, names, whole, shown), [], whole.num_rows


def blank_rows(block, known: list[dict[str, bool]] | None = None) -> np.ndarray:
    """Which rows of ``block`` (an Arrow table or batch of text columns) hold blank cells only: such a row is no
    row, for the csv module as for Arrow's split. Column after column, stopping at the first with no blank cell
    (no row is blank then); ``known`` keeps each column's verdicts from one block to the next."""
    empty = np.ones(block.num_rows, dtype=bool)
    for i in range(block.num_columns):
        column = block.column(i)
        encoded = (column.combine_chunks() if isinstance(column, pa.ChunkedArray) else column).dictionary_encode()
        seen = known[i] if known is not None else {}
        verdict = np.fromiter((seen[v] if v in seen else seen.setdefault(v, not v.strip())
                               for v in encoded.dictionary.to_pylist()), dtype=bool, count=len(encoded.dictionary))
        empty &= verdict[encoded.indices.to_numpy(zero_copy_only=False)]
        if not empty.any():
            break
    return empty


def columns_of(name: str, names: list[str], part: pa.Table, shown: str) -> Columns:
    """The rows of ``part`` (text columns ``names``, each row's line in ``_linha``) held by column."""
    codes, texts = [], []
    for n in names:
        encoded = part.column(n).combine_chunks().dictionary_encode()
        codes.append(encoded.indices.to_numpy(zero_copy_only=False).astype(np.int64))
        texts.append(np.asarray(encoded.dictionary.to_pylist(), dtype=object))
    lines = part.column("_linha").to_numpy()
    return Columns(name, list(names), codes, texts, np.asarray(lines, dtype=np.int64), shown)
