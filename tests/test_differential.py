"""The fast validation path (pipeline/validate/screen.py) against Frictionless over every row: the same
problems, row by row and column by column (rule, table, file, line, column, value and the row's cells),
in the same order, on every fixture of the suite (the minimal package, the bundled sample, the hostile
corpus, the real export ingested) and on Hypothesis-generated tables."""

from __future__ import annotations

import copy
import json
import shutil
from datetime import datetime

import pytest
from conftest import MINIMAL
from dateutil import parser as dateutil_parser
from frictionless import Package
from hostile.cases import CASES, params
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline import PROJECT_ROOT
from pipeline.contract.schema import load_schema
from pipeline.read import read_source
from pipeline.validate import frictionless_problems, screen
from pipeline.validate.cells import FIRST_DAY, LAST_DAY, parse_datetime

SCHEMA = load_schema()


def verdicts(tables) -> tuple[list[dict], list[dict]]:
    fast = [p.as_row() for p in frictionless_problems(tables, SCHEMA)]
    full = [p.as_row() for p in frictionless_problems(tables, SCHEMA, fast=False)]
    return fast, full


_ASKED: dict[str, list] = {}


def full_by_resource(tables, schema) -> list:
    """``screen.full`` (Frictionless over every row), asked one resource at a time and remembered.

    ``Package.validate`` validates its resources one after another (``Package.validate(name=...)`` is one
    of them); a resource's errors depend on its own rows and on the rows of the resources its foreign
    keys name (Frictionless's lookup), nothing else. So each resource is asked within a package of itself
    and the resources it refers to, and a resource whose rows and referred rows were asked before (most of
    a hostile case's package: the minimal package less one changed table) is not asked again.
    ``test_asking_by_resource_gives_the_whole_packages_verdict`` compares it with ``screen.full``."""
    descriptor = screen._descriptor(schema, tables, {n: list(t.rows) for n, t in tables.items()}, keys=True)
    resources = {r["name"]: r for r in descriptor["resources"]}
    out = []
    for name, resource in resources.items():
        named = {fk["reference"]["resource"] for fk in resource["schema"].get("foreignKeys", [])}
        referred = [resources[n] for n in sorted(named - {name, ""}) if n in resources]
        key = json.dumps([resource, *referred], sort_keys=True, ensure_ascii=False)
        if key not in _ASKED:
            report = Package(dict(descriptor, resources=[resource, *referred])).validate(name=name, limit_errors=10**9)
            _ASKED[key] = [e for task in report.tasks if task.name == name for e in task.errors]
        for order, error in enumerate(_ASKED[key]):  # read, never changed, by the full path
            line = getattr(error, "row_number", None)
            out.append((name, line - 2 if line is not None else -1, order, error))
    return out


def verdicts_by_resource(tables) -> tuple[list[dict], list[dict]]:
    """:func:`verdicts`, Frictionless's whole verdict asked by :func:`full_by_resource`."""
    with pytest.MonkeyPatch.context() as m:
        m.setattr(screen, "full", full_by_resource)
        return verdicts(tables)


def test_both_paths_agree_on_the_minimal_package_and_the_sample():
    for folder in (MINIMAL, PROJECT_ROOT / "datasets"):
        fast, full = verdicts(read_source([folder], SCHEMA).tables)
        assert fast == full


TABLE_CASES = [c for c in CASES if c.tabela != "datapackage"]


def _mutated(case, tmp_path):
    folder = tmp_path / "pacote"
    shutil.copytree(MINIMAL, folder)
    case.mutate(folder)
    return read_source([folder], SCHEMA).tables


@pytest.mark.parametrize("case", params(TABLE_CASES, [c.id for c in TABLE_CASES]))
def test_both_paths_agree_on_every_hostile_case(case, tmp_path):
    fast, full = verdicts_by_resource(_mutated(case, tmp_path))
    assert fast == full


# a key repeated in a table every other refers to, in one the lines' tables refer to, in one that refers to
# three tables and none refers to; a table that could not be read
WHOLE = ["chave-repetida-na-mesma-fonte[transportadoras]", "chave-repetida-na-mesma-fonte[linhas]",
         "chave-repetida-na-mesma-fonte[infracoes]", "pasta-no-lugar-do-arquivo[paralisacoes]"]


@pytest.mark.parametrize("case_id", WHOLE)
def test_asking_by_resource_gives_the_whole_packages_verdict(case_id, tmp_path):
    """The hostile cases' reference, asked a resource at a time, is Frictionless's verdict on the whole
    package: the same errors, in the same order, as one ``Package.validate`` over every row."""
    [case] = [c for c in TABLE_CASES if c.id == case_id]
    tables = _mutated(case, tmp_path)
    whole = [(n, pos, order, error.to_descriptor()) for n, pos, order, error in screen.full(tables, SCHEMA)]
    by_resource = [(n, pos, order, error.to_descriptor()) for n, pos, order, error in full_by_resource(tables, SCHEMA)]
    assert by_resource == whole
    if case.classe == "chave-repetida-na-mesma-fonte":  # not a vacuous agreement: the repeat is found
        assert {(n, e["type"]) for n, _, _, e in whole} >= {(case.tabela, "primary-key")}
    else:
        assert not tables[case.tabela].rows


# --- Hypothesis: the minimal package with cells changed to values that break each kind of rule -------

BASE = read_source([MINIMAL], SCHEMA).tables
HOSTILE_VALUES = [
    "", " ", "  ", "abc", "0", "-1", "1", "1.5", "1.005", "1e309", "inf", "NaN", "-0", "1_000", " 12.5",
    "٣", "１２", "99999999999999999999", "2020-1-5", "2020-02-30", "2024-02-29", "9999-12-31", "0001-01-01",
    "2021-01-01T10:00", "2021-01-01T10:00:59", "2021-01-01T25:00", "2021-01-01 10:00", "2021-13-01T10:00",
    "01/02/2021", "true", "false", "TRUE", "sim", "12:60", "06:00", "6:0", "GO", "XX", "go", "12345678000195",
    "abc\n", "AB-1234-56", "interestadual", "vigente", "http://x", "javascript:alert(1)", "=1+1",
]


def _column_values(name: str, column: str) -> list[str]:
    t = BASE[name]
    i = t.columns.index(column)
    return sorted({r[i] for r in t.rows})


@st.composite
def broken_tables(draw):
    tables = {n: copy.copy(t) for n, t in BASE.items()}
    for t in tables.values():
        t.rows = [list(r) for r in t.rows]
        t.row_numbers = list(t.row_numbers)
    names = sorted(n for n, t in tables.items() if t.rows)
    for _ in range(draw(st.integers(1, 6))):
        name = draw(st.sampled_from(names))
        t = tables[name]
        kind = draw(st.sampled_from(["cell", "cell", "cell", "duplicate", "blank", "drop"]))
        if not t.rows:
            continue
        pos = draw(st.integers(0, len(t.rows) - 1))
        if kind == "cell":
            column = draw(st.sampled_from(t.columns))
            value = draw(st.one_of(st.sampled_from(HOSTILE_VALUES), st.sampled_from(_column_values(name, column)),
                                   st.text(max_size=6)))
            t.rows[pos][t.columns.index(column)] = value
        elif kind == "duplicate":  # a repeated key (or, for a table without one, a repeated row)
            t.rows.append(list(t.rows[pos]))
            t.row_numbers.append(max(t.row_numbers) + 1)
        elif kind == "blank":
            t.rows[pos] = [""] * len(t.columns)
        else:  # a row others may refer to disappears: their foreign keys dangle
            del t.rows[pos]
            del t.row_numbers[pos]
    return tables


def test_both_paths_give_a_rows_errors_in_the_order_of_its_columns():
    """Found by the generated tables below: told of the keys, Frictionless lists a row's errors in its
    foreign-key fields first; the fast path asks it without keys. Both now give them by column."""
    tables = {n: copy.copy(t) for n, t in BASE.items()}
    infracoes = tables["infracoes"]
    infracoes.rows = [list(r) for r in infracoes.rows]
    infracoes.rows[0] = [" "] + [""] * (len(infracoes.columns) - 1)
    fast, full = verdicts(tables)
    assert fast == full
    required = [r["coluna"] for r in fast if r["regra"] == "obrigatorio" and r["tabela"] == "infracoes"]
    assert required == ["transportadora_cnpj", "data_hora", "enquadramento", "penalidade", "situacao"]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(broken_tables())
@pytest.mark.slow
def test_both_paths_agree_on_generated_tables(tables):
    fast, full = verdicts_by_resource(tables)
    assert fast == full


@given(st.datetimes(min_value=datetime.combine(FIRST_DAY, datetime.min.time()),
                    max_value=datetime.combine(LAST_DAY, datetime.min.time())), st.booleans())
def test_an_iso_datetime_reads_as_dateutil_reads_it(moment, seconds):
    """The one shortcut of the screen: a value in the portal's ISO shape skips dateutil (see
    screen._iso_datetime) because dateutil reads it to the same moment."""
    text = moment.strftime("%Y-%m-%dT%H:%M:%S" if seconds else "%Y-%m-%dT%H:%M")
    assert parse_datetime(text) == dateutil_parser.parse(text)


def test_the_shortcut_is_taken_only_for_iso_text():
    assert parse_datetime("2021-03-04T05:06") == datetime(2021, 3, 4, 5, 6)
    for text in ("2021-3-4T05:06", "04/03/2021 05:06", "2021-03-04 05:06", "2021-03-04T5:06"):
        with pytest.raises(ValueError):
            parse_datetime(text)


def _typed_both_ways(folder, lenient=False):
    """Each table's typed frame made from validation's typed values and made by parsing the text again:
    (table, field, both value lists with their types)."""
    from pipeline.derive.typed import typed_frame
    from pipeline.validate import validate

    report = validate(read_source([folder], SCHEMA), SCHEMA, lenient=lenient)
    assert report.accepted and report.typed_values
    out = []
    for name, source in report.accepted.items():
        reused = typed_frame(SCHEMA[name], source, report.typed_values.get(name))
        parsed = typed_frame(SCHEMA[name], source)
        assert list(reused.columns) == list(parsed.columns)
        for column in parsed.columns:
            out.append((name, column, [(type(v), v) for v in reused[column]], [(type(v), v) for v in parsed[column]]))
    return out


def test_the_derive_stage_reads_the_same_values_validation_typed_as_it_would_parse():
    """pipeline/derive/typed.py takes validation's typed values instead of parsing again: the same values
    of the same types, on the minimal package and the sample (the real export, with its rejected rows
    kept out in lenient mode, below)."""
    for folder in (MINIMAL, PROJECT_ROOT / "datasets"):
        for name, column, reused, parsed in _typed_both_ways(folder):
            assert reused == parsed, (folder.name, name, column)
    typed = {(n, c) for n, c, r, p in _typed_both_ways(MINIMAL) if any(t is not str for t, _ in p)}
    assert {("infracoes", "data_hora"), ("tarifas", "valor"), ("outorgas", "prorrogada")} <= typed


def test_the_derive_stage_reads_the_same_values_on_the_real_export(real_package):
    for name, column, reused, parsed in _typed_both_ways(real_package, lenient=True):
        assert reused == parsed, (name, column)
