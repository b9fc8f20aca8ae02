"""Properties that hold for any input (Hypothesis): the source CSV format round-trips any text, slugs are
always safe, the date rules keep their arithmetic, and any table the validator accepts publishes to CSV,
JSON, XLSX and SQLite that read back equal."""

from __future__ import annotations

import csv
import json
import re
import sqlite3
import tempfile
from datetime import date, timedelta
from pathlib import Path

import pandas as pd
from conftest import xlsx_text
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from pipeline.contract.identifiers import MAX_SLUG, slugify
from pipeline.contract.schema import load_schema
from pipeline.legal.dates import add_business_days, add_days, add_months, add_years, is_business_day
from pipeline.publish import database, spreadsheet, tabular
from pipeline.read.source import read_csv_table
from pipeline.read.writer import write_table
from pipeline.validate.cells import FIRST_DAY, LAST_DAY, CellError, parse

SCHEMA = load_schema()
CARRIERS = SCHEMA["transportadoras"]
FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

any_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)  # any encodable text


def _not_a_record_inside(cells: list[str], width: int) -> bool:
    """A cell with a line that is itself a whole record reads as an unclosed quote (and is refused as
    such): that is the one shape of text the reader declines to guess about."""
    return not any(line.count(",") >= width - 1 for c in cells if "\n" in c or "\r" in c
                   for line in re.split(r"\r\n|\r|\n", c)[1:])


@FAST
@given(st.lists(st.lists(any_text, min_size=len(CARRIERS.field_names), max_size=len(CARRIERS.field_names)),
                min_size=1, max_size=6))
def test_any_text_round_trips_through_the_source_csv_writer_and_reader(rows):
    width = len(CARRIERS.field_names)
    rows = [r for r in rows if any(c.strip() for c in r) and _not_a_record_inside(r, width)]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "transportadoras.csv"
        write_table(path, CARRIERS.field_names, [dict(zip(CARRIERS.field_names, r)) for r in rows])
        table, problems = read_csv_table(CARRIERS, path, "p/transportadoras.csv")
    assert [p for p in problems if p.grave] == []
    assert table.rows == rows


@given(any_text)
def test_slugs_are_always_safe_url_segments(text):
    slug = slugify(text)
    assert re.fullmatch(r"([a-z0-9]+(-[a-z0-9]+)*)?", slug)
    assert slugify(slug) == slug  # stable
    assert ".." not in slug and "/" not in slug


@given(st.text(alphabet=st.sampled_from("abc-/.º "), min_size=MAX_SLUG + 1, max_size=MAX_SLUG * 3))
def test_long_keys_are_refused_before_they_reach_the_file_system(text):
    from pipeline.read import SourceTable
    from pipeline.validate.checks import slugs

    t = SourceTable("outorgas", SCHEMA["outorgas"].field_names, [[text] + [""] * 11], [2], "p/outorgas.csv")
    tables = {name: SourceTable(name, SCHEMA[name].field_names) for name in ("linhas", "caducidades",
                                                                             "transportadoras")}
    found = slugs({**tables, "outorgas": t}, SCHEMA)
    if len(slugify(text)) > MAX_SLUG:
        assert [p.regra for p in found] == ["chave-longa"]
    else:
        assert "chave-longa" not in [p.regra for p in found]


days = st.dates(min_value=FIRST_DAY, max_value=LAST_DAY)


@given(days, st.integers(min_value=0, max_value=400))
def test_a_period_in_days_ends_that_many_days_later(start, n):
    assert add_days(start, n) - start == timedelta(days=n)


@given(days, st.integers(min_value=0, max_value=360))
def test_a_period_in_months_ends_on_the_same_day_number_or_the_day_after(start, n):
    end = add_months(start, n)
    months = (end.year - start.year) * 12 + end.month - start.month
    if end.day == start.day:
        assert months == n
    else:  # the final month has no such day: the following day (Código Civil art. 132 § 3)
        assert end.day == 1 and months == n + 1
    assert add_years(start, n // 12) == add_months(start, 12 * (n // 12))


@given(days.filter(lambda d: d.year < 2190), st.integers(min_value=1, max_value=30))
def test_business_days_land_on_a_business_day_after_the_start(start, n):
    end = add_business_days(start, n)
    assert end > start and is_business_day(end)
    between = [start + timedelta(days=i) for i in range(1, (end - start).days + 1)]
    assert sum(is_business_day(d) for d in between) == n


# --- writers: whatever the grammar accepts publishes and reads back equal ----------------------------

TEXT = st.text(st.characters(blacklist_categories=("Cs", "Cc")) | st.sampled_from("\t\n\r"), max_size=30)
AMOUNT = st.decimals(min_value=0, max_value=10**9, places=2, allow_nan=False).map(lambda d: f"{d:.2f}")
DAY = days.map(date.isoformat)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(TEXT, TEXT, AMOUNT, DAY), min_size=1, max_size=5))
@example([("", "", "0.00", "1900-01-01"), ("", "", "0.00", "1900-02-28"), ("", "", "0.00", "1900-03-01")])
def test_any_accepted_table_publishes_to_every_format_and_reads_back_equal(rows):
    fields = [{"name": "texto", "type": "string"}, {"name": "outro", "type": "string"},
              {"name": "valor", "type": "number"}, {"name": "dia", "type": "date"}]
    typed = []
    for row in rows:
        try:
            typed.append([parse(v, f) if v != "" else None for v, f in zip(row, fields)])
        except CellError:
            continue  # refused by validation: never reaches a writer
    resource = {"name": "t", "title": "t", "schema": {"fields": fields}}
    df = pd.DataFrame(typed, columns=[f["name"] for f in fields], dtype=object)
    expected = [{f["name"]: tabular.cell(v, f["type"]) for v, f in zip(r, fields)} for r in typed]
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        tabular.write_csv(df, resource, out / "t.csv")
        tabular.write_json(df, resource, out / "t.json")
        spreadsheet.write_xlsx(df, resource, out / "t.xlsx", date(2026, 1, 1))
        database.write_sqlite({"t": df}, {"resources": [resource]}, out / "t.sqlite")

        with open(out / "t.csv", encoding="utf-8", newline="") as fh:
            from_csv = list(csv.DictReader(fh))
        assert len(from_csv) == len(expected)
        for got, want in zip(from_csv, expected):
            for name in ("texto", "outro"):
                text = want[name] or ""
                assert got[name] == (tabular.neutralise(text) if text else "")
            assert (float(got["valor"]) if got["valor"] else None) == want["valor"]
            assert (got["dia"] or None) == want["dia"]

        assert json.loads((out / "t.json").read_text(encoding="utf-8")) == expected

        from openpyxl import load_workbook

        sheet = list(load_workbook(out / "t.xlsx", read_only=True).active.iter_rows(values_only=True))[1:]
        for got, want in zip(sheet, expected):
            for i, name in enumerate(("texto", "outro")):  # a text cell, never evaluated: as it is (issue 26)
                assert (xlsx_text(got[i]) or "") == (want[name] or "")  # CR kept, as _x000D_
            assert got[2] == want["valor"]
            assert (got[3].date().isoformat() if got[3] else None) == want["dia"]

        with sqlite3.connect(out / "t.sqlite") as db:
            stored = db.execute("select texto, outro, valor, dia from t").fetchall()
        assert [list(r) for r in stored] == [[w["texto"], w["outro"], w["valor"], w["dia"]] for w in expected]
