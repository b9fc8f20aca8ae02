"""A table read in batches is read by column (pipeline/read/columns.py): a plain file split by Arrow, any
other by the csv module. Both give the batches the csv module's reader gives (its rows, their lines, its
problems, its count of data rows), so a user sees the same tickets and the same messages either way."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.contract.schema import load_schema
from pipeline.read import columns as columns_module
from pipeline.read import source as source_module
from pipeline.read.columns import plain_csv, read_columns
from pipeline.read.source import read_csv_batches, read_csv_table

SCHEMA = load_schema()
TABLE = SCHEMA["bilhetes"]
HEADER = ",".join(TABLE.field_names)
WIDTH = len(TABLE.field_names)
ROW = "2025-10,2025-10,Goiânia,GO,Belo Horizonte,MG,Básica,Idoso,1,50.0,5.0"


def _by_csv_module(path: Path, size: int) -> list:
    return [([list(r) for r in batch.rows], list(batch.row_numbers), [p.as_row() for p in found], batch.data_rows)
            for batch, found in read_csv_batches(TABLE, path, "bilhetes.csv", size)]


def _by_column(path: Path, size: int) -> list:
    out = []
    for batch, found, data_rows in read_columns(TABLE, path, "bilhetes.csv", size):
        rows = batch.table(range(len(batch))) if len(batch) else None
        out.append(([list(r) for r in rows.rows] if rows else [], batch.row_numbers.tolist(),
                    [p.as_row() for p in found], data_rows))
    return out


def _write(path: Path, text: str, encoding: str = "utf-8") -> Path:
    path.write_bytes(text.encode(encoding))
    return path


def _arrow_only(monkeypatch):
    """Fail if the csv module is asked to read: the file must be split by Arrow."""
    def refuse(*args, **kwargs):
        raise AssertionError("lido pelo módulo csv")
    monkeypatch.setattr(columns_module, "read_csv_batches", refuse)
    monkeypatch.setattr(source_module, "read_csv_batches", refuse)  # a file read whole (read_csv_table)


def test_a_plain_file_is_split_by_arrow_into_the_csv_modules_batches_lines_and_counts(tmp_path, monkeypatch):
    rows = [ROW.replace("1,50.0", f"{n},50.0") for n in range(1, 12)]
    rows[3] = ",,,,,,,,,,"  # a row of empty cells is no row (line 5)
    rows[6] = " , ,\t, , , , , , , , "  # nor one of spaces (line 8)
    rows[8] = ROW.replace("Idoso", " Idoso ")  # spaces inside a cell are the cell's
    path = _write(tmp_path / "bilhetes.csv", HEADER + "\r\n" + "\r\n".join(rows))  # CRLF, no last line break
    expected = _by_csv_module(path, 4)
    monkeypatch.setattr(columns_module, "BLOCK_BYTES", 300)  # Arrow's blocks cut across the batches
    _arrow_only(monkeypatch)
    got = _by_column(path, 4)
    assert got == expected
    assert [len(rows) for rows, *_ in got] == [4, 4, 1]
    assert got[0][1] == [2, 3, 4, 6]  # line 5 was blank
    assert got[1][0][2][7] == " Idoso "  # line 10


def test_a_file_ending_on_a_full_batch_ends_with_an_empty_batch_as_the_csv_module_s(tmp_path, monkeypatch):
    path = _write(tmp_path / "bilhetes.csv", HEADER + "\n" + "\n".join([ROW] * 6) + "\n")
    expected = _by_csv_module(path, 3)
    _arrow_only(monkeypatch)
    assert _by_column(path, 3) == expected
    assert [len(rows) for rows, *_ in expected] == [3, 3, 0]


@pytest.mark.parametrize("why, text", [
    ("uma aspa", HEADER + "\n" + ROW.replace("Idoso", '"Idoso, 60+"') + "\n"),
    ("uma célula a mais", HEADER + "\n" + ROW + ",x\n"),
    ("uma célula a menos", HEADER + "\n" + ROW.rsplit(",", 1)[0] + "\n"),
    ("uma linha vazia", HEADER + "\n" + ROW + "\n\n" + ROW + "\n"),
    ("um CR sozinho", HEADER + "\n" + ROW.replace("Idoso", "Id\roso") + "\n"),
    ("um NUL", HEADER + "\n" + ROW.replace("Idoso", "Id\x00oso") + "\n"),
    ("um BOM", "\ufeff" + HEADER + "\n" + ROW + "\n"),
])
def test_what_arrow_might_not_split_as_the_csv_module_is_read_by_the_csv_module(tmp_path, why, text):
    path = _write(tmp_path / "bilhetes.csv", text)
    assert not plain_csv(path, WIDTH), why
    assert _by_column(path, 2) == _by_csv_module(path, 2)


def test_a_byte_that_is_not_utf8_leaves_the_file_to_the_csv_module_which_names_its_line(tmp_path):
    path = tmp_path / "bilhetes.csv"
    path.write_bytes((HEADER + "\n" + ROW + "\n").encode() + ROW.replace("Goiânia", "Goi\xe2nia").encode("latin-1") + b"\n")
    assert not plain_csv(path, WIDTH)
    got = _by_column(path, 10)
    assert got == _by_csv_module(path, 10)
    [problem] = [p for _, _, found, _ in got for p in found]
    assert problem["regra"] == "codificacao" and problem["linha"] == 3


def test_a_header_in_another_order_is_read_by_the_csv_module_with_its_rows_in_the_schema_s_order(tmp_path):
    names = TABLE.field_names
    swapped = [names[1], names[0], *names[2:]]
    cells = ROW.split(",")
    path = _write(tmp_path / "bilhetes.csv", ",".join(swapped) + "\n" + ",".join([cells[1], cells[0], *cells[2:]]) + "\n")
    got = _by_column(path, 10)
    assert got == _by_csv_module(path, 10)
    assert got[0][0] == [ROW.split(",")]


_CELL = st.text(alphabet=st.sampled_from(list("ab 1.-é\t")), max_size=4)
_LINE = st.one_of(st.lists(_CELL, min_size=WIDTH, max_size=WIDTH).map(",".join),
                  st.sampled_from(["", " ", ",,,,,,,,,,", "a,b", ROW + ",x", '"a,b",' + ",".join(["c"] * (WIDTH - 2))]))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(_LINE, max_size=12), newline=st.sampled_from(["\n", "\r\n"]), last=st.booleans(),
       size=st.integers(1, 5))
def test_any_file_gives_the_csv_module_s_batches(tmp_path, lines, newline, last, size):
    path = _write(tmp_path / "bilhetes.csv", HEADER + newline + newline.join(lines) + (newline if last else ""))
    assert _by_column(path, size) == _by_csv_module(path, size)


def _plain_by_line(data: bytes, width: int, delimiter: bytes) -> bool:
    """What ``plain_lines`` promises, line by line in Python: the rule the numpy code must keep."""
    if not data.endswith(b"\n") or b"\0" in data:
        return False
    for line in data[:-1].split(b"\n"):
        body = line[:-1] if line.endswith(b"\r") else line
        if not body or b"\r" in body or len(body) >= columns_module.MAX_LINE or body.count(delimiter) != width - 1:
            return False
        for cell in body.split(delimiter):
            if b'"' in cell and not (len(cell) >= 2 and cell[0:1] == cell[-1:] == b'"' and b'"' not in cell[1:-1]):
                return False
    return True


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(st.lists(st.sampled_from([b"", b"ab", b"a b", b'"x"', b'""', b'"a', b'a"b', b'"x"y', b"\r"]),
                               min_size=1, max_size=4).map(b";".join), max_size=8),
       newline=st.sampled_from([b"\n", b"\r\n"]), width=st.integers(1, 4), piece=st.integers(12, 40))
def test_plain_lines_looks_at_a_piece_of_lines_at_a_time_and_keeps_its_rule(monkeypatch, lines, newline, width, piece):
    """A file is looked at a few megabytes of lines at a time (``PIECE_BYTES``, here a few bytes, with lines as
    long as a tenth of one): a line that breaks the rule is found in whichever piece it falls."""
    from pipeline.read.columns import plain_lines

    monkeypatch.setattr(columns_module, "MAX_LINE", piece - 2)
    monkeypatch.setattr(columns_module, "PIECE_BYTES", piece)
    data = b"".join(line + newline for line in lines)
    assert plain_lines(data, width, b";", whole_quotes=True) == _plain_by_line(data, width, b";")


def test_a_bad_line_far_into_a_file_is_found_in_its_piece(monkeypatch):
    from pipeline.read.columns import plain_lines

    monkeypatch.setattr(columns_module, "PIECE_BYTES", 200)  # some three lines a piece
    good = [ROW] * 40
    assert plain_lines(("\n".join(good) + "\n").encode(), WIDTH, b",")
    for bad in (ROW + ",x", ROW.replace("Idoso", '"Idoso"'), ""):
        lines = good[:]
        lines[33] = bad
        assert not plain_lines(("\n".join(lines) + "\n").encode(), WIDTH, b","), bad
    quoted = [",".join(f'"{c}"' for c in ROW.split(","))] * 40
    assert plain_lines(("\n".join(quoted) + "\n").encode(), WIDTH, b",", whole_quotes=True)


# A table read whole (every table but the tickets) goes through the same reader: its rows, lines, problems and
# count of data rows are the csv module's, and a column's equal texts are one object, however the file is split
# (a national table repeats most of its cells: each is kept once).

def _whole(table) -> tuple:
    return ([list(r) for r in table.rows], list(table.row_numbers), table.data_rows)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(_LINE, max_size=12), newline=st.sampled_from(["\n", "\r\n"]), last=st.booleans())
def test_a_file_read_whole_gives_the_csv_module_s_rows_lines_and_problems(tmp_path, lines, newline, last):
    path = _write(tmp_path / "bilhetes.csv", HEADER + newline + newline.join(lines) + (newline if last else ""))
    ((by_csv, csv_found),) = read_csv_batches(TABLE, path, "bilhetes.csv")
    table, found = read_csv_table(TABLE, path, "bilhetes.csv")
    assert _whole(table) == _whole(by_csv)
    assert [p.as_row() for p in found] == [p.as_row() for p in csv_found]


@pytest.mark.parametrize("plain", [True, False])
def test_a_file_read_whole_keeps_a_column_s_equal_texts_as_one_object(tmp_path, monkeypatch, plain):
    rows = [ROW.replace("1,50.0", f"{n},50.0") for n in range(1, 7)]
    if not plain:  # a quoted cell: the csv module reads the file
        rows[2] = rows[2].replace("Idoso", '"Idoso"')
    path = _write(tmp_path / "bilhetes.csv", HEADER + "\n" + "\n".join(rows) + "\n")
    if plain:
        _arrow_only(monkeypatch)
    table, found = read_csv_table(TABLE, path, "bilhetes.csv")
    assert not found and len(table.rows) == 6
    place = TABLE.field_names.index("origem_municipio")
    first, last = table.rows[0][place], table.rows[5][place]
    assert first == last == "Goiânia" and first is last
    assert [r[8] for r in table.rows] == [str(n) for n in range(1, 7)]


@pytest.mark.parametrize("plain", [True, False])
def test_a_file_read_whole_is_held_by_column_and_gives_the_same_rows_columns_and_repeats(tmp_path, monkeypatch, plain):
    """A whole table is held by column (read.columns.HeldRows), never as a list per row, whichever reader split
    it: a row by its position, a slice, a column, the rows without some, and its repeated rows are the csv
    module's rows'."""
    from pipeline.read.columns import HeldRows
    from pipeline.read.source import without_repeats

    rows = [ROW.replace("1,50.0", f"{n % 4},50.0") for n in range(1, 301)]  # rows 5, 9... repeat rows 1, 2...
    if not plain:
        rows[2] = rows[2].replace("Idoso", '"Idoso"')
    path = _write(tmp_path / "bilhetes.csv", HEADER + "\n" + "\n".join(rows) + "\n")
    ((by_csv, _),) = read_csv_batches(TABLE, path, "bilhetes.csv")
    if plain:
        _arrow_only(monkeypatch)
    table, _ = read_csv_table(TABLE, path, "bilhetes.csv")
    assert isinstance(table.rows, HeldRows) and table.rows.columns.codes[0].dtype.itemsize == 1
    assert table.rows == by_csv.rows and table.rows[-1] == by_csv.rows[-1] and table.rows[3:7] == by_csv.rows[3:7]
    with pytest.raises(IndexError):
        table.rows[300]
    assert all(table.column(c) == by_csv.column(c) for c in TABLE.field_names)
    gone = {("bilhetes.csv", line) for line in range(2, 302, 3)}
    less = table.without(gone)
    assert isinstance(less.rows, HeldRows) and _whole(less)[:2] == _whole(by_csv.without(gone))[:2]
    kept, repeats = without_repeats(table)
    kept_csv, repeats_csv = without_repeats(by_csv)
    assert len(kept.rows) == 4 and _whole(kept)[:2] == _whole(kept_csv)[:2]
    assert [p.as_row() for p in repeats] == [p.as_row() for p in repeats_csv] and len(repeats) == 296


@settings(max_examples=200, deadline=None)
@given(values=st.lists(st.sampled_from(["a", "b", "", None, float("nan"), 1, 2.0]), max_size=12))
def test_numbered_numbers_values_as_pandas_factorize_without_a_sentinel(values):
    """``read.columns.numbered``: each value's number, a missing one (None or NaN) numbered as a value where it
    first appears, as ``pandas.factorize(..., use_na_sentinel=False)`` numbers them."""
    import numpy as np
    import pandas as pd

    from pipeline.read.columns import numbered

    array = np.empty(len(values), dtype=object)
    array[:] = values
    codes, distinct = numbered(array)
    expected_codes, expected = pd.factorize(array, use_na_sentinel=False)
    assert codes.tolist() == expected_codes.tolist()
    assert [None if v != v else v for v in distinct] == [None if v != v else v for v in expected]


@settings(max_examples=200, deadline=None)
@given(distinct=st.lists(st.sampled_from(["a", "b", "", None, 1, 1.0, True, 2.5]), min_size=1, max_size=6),
       data=st.data())
def test_a_numbered_column_is_numbered_as_the_same_values_are(distinct, data):
    """``read.columns.Numbered`` (values spread from their distinct ones, as the column engine's rules make
    them): ``numbered`` of it, of its subsets and of its parts gives what it gives for a plain array of the same
    values, even where two of the distinct values are equal (1, 1.0 and True), in the order the rows hold them;
    a copy or a comparison made from it keeps no numbers, and writing into it forgets them."""
    import numpy as np

    from pipeline.read.columns import Numbered, numbered

    codes = np.array(data.draw(st.lists(st.integers(0, len(distinct) - 1), max_size=12)), dtype=np.int64)
    values = np.empty(len(distinct), dtype=object)
    values[:] = distinct
    column = Numbered(codes, values)
    keep = np.array(data.draw(st.lists(st.booleans(), min_size=len(codes), max_size=len(codes))), dtype=bool)
    for part in (column, column[keep], column[::-1], column[np.flatnonzero(keep)]):
        assert part.numbers is not None
        plain = np.asarray(part, dtype=object).copy()
        assert plain.tolist() == [distinct[c] for c in part.numbers[0]]
        got, want = numbered(part), numbered(plain)
        assert got[0].tolist() == want[0].tolist()
        assert [(type(v), v) for v in got[1]] == [(type(v), v) for v in want[1]]
    assert (column == column).numbers is None and column.copy().numbers is None
    if len(column):
        column[0] = "z"
        assert column.numbers is None and numbered(column)[1][0] == "z"
