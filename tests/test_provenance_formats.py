"""Issue 26: one provenance record in every download, each in that format's own place, read back with the
tools a user has (pyarrow, openpyxl, sqlite3, pandas, DuckDB): the sources with their dates and licences,
the date of the calculations, the portal's licence, fictional or not, and each table's coverage. A table
no source covers says "As fontes deste site não incluem esta tabela" rather than implying zero rows, and
achados says which rules did not run. Identifiers keep their leading zeros with the /dados/ snippets;
a date-time has one spelling, ISO 8601 with Brasília's offset; an XLSX text cell is never a formula."""

from __future__ import annotations

import csv
import json
import math
import re
import sqlite3
import zipfile
from datetime import date, datetime
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from openpyxl import load_workbook

from pipeline.contract.clock import moment_text
from pipeline.derive.findings import RULES
from pipeline.publish.provenance import FICTIONAL_LABEL, NOT_COVERED_SENTENCE, PORTAL, Provenance
from pipeline.publish.snippets import snippets, text_columns

UNCOVERED = ("outorgas", "tarifas", "infracoes", "caducidades", "secoes")  # the real export has none of these


def descriptor(site: Path) -> dict:
    return json.loads((site / "dados" / "datapackage.json").read_text(encoding="utf-8"))


def kv(path: Path) -> dict[str, str]:
    """A Parquet file's key-value metadata, as pyarrow reads it from the file's footer."""
    raw = pq.ParquetFile(path).metadata.metadata
    return {k.decode(): v.decode() for k, v in raw.items() if k != b"ARROW:schema"}


def metadados(site: Path) -> dict[tuple[str, str], str]:
    with sqlite3.connect(site / "dados" / "portal.sqlite") as db:
        return {(e, k): v for e, k, v in db.execute("SELECT escopo, chave, valor FROM _metadados")}


def readme(book) -> dict[str, list[str]]:
    rows = {}
    for item, text in book["Leia-me"].iter_rows(values_only=True):
        rows.setdefault(item, []).append(text)
    return rows


def custom(book) -> dict[str, object]:
    return {p.name: p.value for p in book.custom_doc_props.props}


def csv_rows(site: Path, name: str) -> list[dict]:
    with open(site / "dados" / f"{name}.csv", encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


# --- a table no source covers, in every format ------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("table", UNCOVERED)
def test_an_uncovered_table_says_so_in_every_format(real_only_site, table):
    dados = real_only_site / "dados"
    resource = next(r for r in descriptor(real_only_site)["resources"] if r["name"] == table)
    assert resource["description"].startswith(NOT_COVERED_SENTENCE)
    assert resource["x-cobertura"] == {"situacao": "não coberta", "fontes": []}
    meta = kv(dados / f"{table}.parquet")
    assert meta["description"].startswith(NOT_COVERED_SENTENCE) and meta["cobertura"] == "não coberta"
    assert pq.read_schema(dados / f"{table}.parquet").metadata[b"description"].decode() == meta["description"]
    book = load_workbook(dados / f"{table}.xlsx")
    assert book.sheetnames[1] == "Leia-me" and book.active.title == "Leia-me"  # it opens on why it is empty
    assert readme(book)["Cobertura"][0].startswith(NOT_COVERED_SENTENCE)
    assert book.properties.description.startswith(NOT_COVERED_SENTENCE)
    assert custom(book)["Cobertura"].startswith(NOT_COVERED_SENTENCE)
    rows = metadados(real_only_site)
    assert rows[(table, "cobertura")] == "não coberta" and rows[(table, "descricao")].startswith(NOT_COVERED_SENTENCE)
    datasette = json.loads((dados / "metadata.json").read_text(encoding="utf-8"))["databases"]["portal"]["tables"][table]
    assert datasette["description"].startswith(NOT_COVERED_SENTENCE) and datasette["source"].startswith(NOT_COVERED_SENTENCE)


@pytest.mark.slow
def test_a_covered_table_names_its_source_date_and_licence_in_every_format(real_only_site):
    dados = real_only_site / "dados"
    meta = kv(dados / "transportadoras.parquet")
    assert meta["cobertura"] == "coberta" and meta["data_de_referencia"] == "2026-11-29"
    assert "ANTT" in meta["fontes"] and "dados de 2021" in meta["fontes"] and "licença: " in meta["fontes"]
    assert "CC-BY-4.0" in meta["licenca"] and meta["ficticio"] == "não"
    book = load_workbook(dados / "transportadoras.xlsx")
    # the data first: what pandas, LibreOffice and DuckDB read when no sheet is named; the notes beside it
    assert book.sheetnames == ["transportadoras", "Leia-me", "dicionario"] and book.active.title == "transportadoras"
    first = pd.read_excel(dados / "transportadoras.xlsx", dtype=str)
    assert list(first.columns)[0] == "CNPJ [cnpj]" and len(first) == len(csv_rows(real_only_site, "transportadoras"))
    assert book.properties.creator == PORTAL and book.properties.language == "pt-BR"
    props = custom(book)
    assert "ANTT" in props["Fonte"] and props["Data de referência"] == "2026-11-29"
    assert props["Dados fictícios"] is False and props["Licença"] == "CC-BY-4.0"
    sheet = readme(book)
    assert any("ANTT" in s and "dados de 2021" in s for s in sheet["Fonte"])
    assert sheet["Data de referência"][0].startswith("29/11/2026: data dos cálculos")
    rows = metadados(real_only_site)
    assert rows[("pacote", "data_de_referencia")] == "2026-11-29" and "CC-BY-4.0" in rows[("pacote", "licenca")]
    assert "ANTT" in rows[("transportadoras", "fontes")]
    datasette = json.loads((dados / "metadata.json").read_text(encoding="utf-8"))
    table = datasette["databases"]["portal"]["tables"]["transportadoras"]
    assert "ANTT" in table["source"] and table["source_url"].startswith("https://")
    assert table["license_url"] == "https://creativecommons.org/licenses/by/4.0/"


@pytest.mark.slow
def test_achados_say_which_rules_did_not_run(real_only_site):
    """The real export covers no input of any rule: the empty achados is "not checked", never "none"."""
    dados = real_only_site / "dados"
    resource = next(r for r in descriptor(real_only_site)["resources"] if r["name"] == "achados")
    assert resource["description"].startswith("Nenhuma regra pôde ser verificada")
    assert all(rule.titulo in resource["description"] for rule in RULES)
    assert [r["regra"] for r in resource["x-cobertura"]["regras_nao_verificadas"]] == [r.slug for r in RULES]
    assert kv(dados / "achados.parquet")["regras_nao_verificadas"].count("(") == len(RULES)
    book = load_workbook(dados / "achados.xlsx")
    assert readme(book)["Regras"][0].startswith("Nenhuma regra pôde ser verificada")
    assert custom(book)["Regras não verificadas"] == ", ".join(r.slug for r in RULES)
    assert all(r.slug in metadados(real_only_site)[("achados", "regras_nao_verificadas")] for r in RULES)


def test_achados_say_every_rule_ran_when_all_did(site):
    resource = next(r for r in descriptor(site)["resources"] if r["name"] == "achados")
    assert resource["description"].endswith(f"Todas as {len(RULES)} regras foram verificadas.")
    assert resource["x-cobertura"]["regras_nao_verificadas"] == []


# --- one record ------------------------------------------------------------------------------------

def test_one_record_in_every_format(sample_site):
    """The record of the Parquet files, of SQLite's _metadados and of datapackage.json is the same."""
    dados = sample_site / "dados"
    record = Provenance.from_descriptor(descriptor(sample_site))
    whole = json.loads(record.as_json())
    assert whole["data_de_referencia"] == "2026-11-29" and whole["ficticio"] is True
    assert whole["licenca"]["name"] == "CC-BY-4.0" and whole["fontes"][0]["fictional"] is True
    assert set(whole["tabelas"]) == {r["name"] for r in descriptor(sample_site)["resources"]}
    for r in descriptor(sample_site)["resources"]:  # bilhetes too, written in batches before the record was known
        assert json.loads(kv(dados / f"{r['name']}.parquet")["proveniencia"]) == whole, r["name"]
    assert json.loads(metadados(sample_site)[("pacote", "proveniencia")]) == whole


def test_a_fictional_build_says_so_in_every_format(sample_site):
    dados = sample_site / "dados"
    assert kv(dados / "linhas.parquet")["ficticio"] == f"sim: {FICTIONAL_LABEL}"
    book = load_workbook(dados / "linhas.xlsx")
    assert custom(book)["Dados fictícios"] is True and readme(book)["Aviso"][0].startswith(FICTIONAL_LABEL)
    assert metadados(sample_site)[("pacote", "ficticio")] == f"sim: {FICTIONAL_LABEL}"
    meta = json.loads((dados / "metadata.json").read_text(encoding="utf-8"))
    database = meta["databases"]["portal"]
    for about in (meta, database):  # the index page and the database's own page
        assert about["title"].startswith(FICTIONAL_LABEL) and about["description"].startswith(FICTIONAL_LABEL)


def test_a_record_page_can_state_its_provenance(sample_site):
    """What pipeline/site writes into a record's index.json (Provenance.for_record)."""
    record = Provenance.from_descriptor(descriptor(sample_site))
    facts = record.for_record("linhas", ["amostra-ficticia"])
    assert [s["name"] for s in facts["fontes"]] == ["amostra-ficticia"]
    assert facts["data_de_referencia"] == "2026-11-29" and facts["ficticio"] is True
    assert facts["aviso"] == FICTIONAL_LABEL and facts["licenca"]["name"] == "CC-BY-4.0"
    json.dumps(facts)


# --- date-times: one spelling, the source's wall clock without an offset --------------------------

MOMENT = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d")


def test_a_date_time_has_one_spelling_without_an_invented_offset_in_every_format(sample_site):
    """An infraction's date-time is the source's wall clock: no source says its zone (an infraction in
    Petrolina (PE) in January 2014, when Brasília had summer time and Pernambuco had not), so no format
    adds one, and the descriptor says so."""
    dados = sample_site / "dados"
    rows = csv_rows(sample_site, "infracoes")
    texts = [r["data_hora"] for r in rows]
    assert texts and all(MOMENT.fullmatch(t) for t in texts)
    source = {r["numero_auto"]: r["data_hora"] for r in csv.DictReader(
        open(Path(__file__).parents[1] / "datasets" / "infracoes.csv", encoding="utf-8", newline=""))}
    assert [t[:16] for t in texts] == [source[r["numero_auto"]][:16] for r in rows]  # the source's clock, as it is
    assert any(r["uf"] == "PE" and r["data_hora"].startswith("2014-01") for r in rows)  # the case above: kept as given
    records = json.loads((dados / "infracoes.json").read_text(encoding="utf-8"))
    assert [r["data_hora"] for r in records] == texts
    with sqlite3.connect(dados / "portal.sqlite") as db:
        assert [r[0] for r in db.execute("SELECT data_hora FROM infracoes ORDER BY rowid")] == texts
    table = pq.read_table(dados / "infracoes.parquet")
    assert pa.types.is_timestamp(table.schema.field("data_hora").type) and table.schema.field("data_hora").type.tz is None
    assert [m.isoformat() for m in table.column("data_hora").to_pylist()] == texts
    sheet = load_workbook(dados / "infracoes.xlsx")["infracoes"]
    column = [c.value for c in sheet[1]].index("Data e hora [data_hora]")
    cells = [row[column] for row in sheet.iter_rows(min_row=2)]
    assert [moment_text(c.value) for c in cells] == texts  # a real date-time
    assert all(c.number_format == 'yyyy-mm-dd"T"hh:mm:ss' for c in cells)
    field = next(f for r in descriptor(sample_site)["resources"] if r["name"] == "infracoes"
                 for f in r["schema"]["fields"] if f["name"] == "data_hora")
    assert "ISO 8601 sem fuso horário" in field["description"] and "nenhum deslocamento" in field["description"]
    assert "x-fuso-horario" not in field


def test_moment_text_writes_the_wall_clock_as_it_is():
    assert moment_text(datetime(2026, 3, 2, 14, 30)) == "2026-03-02T14:30:00"
    assert moment_text(datetime(2018, 2, 17, 23, 30)) == "2018-02-17T23:30:00"  # Brasília's repeated hour: no guess


def test_a_feed_date_is_its_day_at_midnight_in_brasilia_with_the_offset_then():
    from pipeline.contract.clock import local_moment

    assert local_moment(datetime(2026, 3, 2)).isoformat() == "2026-03-02T00:00:00-03:00"
    assert local_moment(datetime(2018, 2, 17, 23, 30)).isoformat() == "2018-02-17T23:30:00-02:00"  # the first
    assert local_moment(datetime(2019, 2, 17, 12, 0)).isoformat() == "2019-02-17T12:00:00-03:00"  # summer time ended
    assert local_moment(datetime(1905, 1, 1, 8, 0)).isoformat() == "1905-01-01T08:00:00-03:00"  # before legal time


# --- XLSX text is never a formula; the CSV still neutralises ---------------------------------------

def test_an_xlsx_text_cell_is_text_as_it_is_and_the_csv_still_neutralises(site):
    dados = site / "dados"
    sheet = load_workbook(dados / "transportadoras.xlsx")["transportadoras"]
    evil = next(row for row in sheet.iter_rows(min_row=2) if row[0].value == "44555666000181")
    assert evil[2].data_type == "s" and evil[2].value == '=HYPERLINK("http://evil.example","clique")'
    with zipfile.ZipFile(dados / "transportadoras.xlsx") as z:
        xml = z.read("xl/worksheets/sheet1.xml").decode("utf-8")
    assert "<f>" not in xml and "'=HYPERLINK" not in xml and 't="inlineStr"' in xml
    row = next(r for r in csv_rows(site, "transportadoras") if r["cnpj"] == "44555666000181")
    assert row["nome_fantasia"].startswith("'=HYPERLINK")  # the data contract: neutralised in the CSV


# --- identifiers keep their leading zeros ----------------------------------------------------------

def _text(value) -> str:
    return "" if value is None or (isinstance(value, float) and math.isnan(value)) else value


def test_the_snippets_keep_every_text_column_as_written_in_every_table(sample_site):
    """The pandas and DuckDB snippets of /dados/, run against every published table: every text column
    reads back exactly as the CSV holds it, leading zeros included (a CNPJ, a notice number)."""
    dados = sample_site / "dados"
    leading_zeros = set()
    for resource in descriptor(sample_site)["resources"]:
        name, texts = resource["name"], text_columns(resource)
        code = snippets(name, resource, f"{dados}/")
        want = {c: [r[c] for r in csv_rows(sample_site, name)] for c in texts}
        leading_zeros |= {(name, c) for c, values in want.items() if any(v[:1] == "0" and v.isdigit() for v in values)}
        namespace = {}
        exec(code["pandas"], namespace)
        frame = namespace[name]
        assert {c: [_text(v) for v in frame[c].tolist()] for c in texts} == want, name
        namespace = {}
        exec(code["duckdb"], namespace)
        relation = namespace[name]
        assert [t for c, t in zip(relation.columns, relation.types) if c in texts] == ["VARCHAR"] * len(texts)
        rows = relation.fetchall()
        got = {c: [_text(r[i]) for r in rows] for i, c in enumerate(relation.columns)}
        assert {c: got[c] for c in texts} == want, name
    assert {("transportadoras", "cnpj"), ("infracoes", "numero_auto"), ("infracoes", "transportadora_cnpj")} <= leading_zeros


def test_the_json_and_xlsx_carry_identifiers_as_text_and_their_snippets_keep_them(sample_site):
    dados = sample_site / "dados"
    records = json.loads((dados / "transportadoras.json").read_text(encoding="utf-8"))
    assert "00862895000173" in [r["cnpj"] for r in records]  # a JSON string
    sheet = load_workbook(dados / "transportadoras.xlsx")["transportadoras"]
    cell = next(row[0] for row in sheet.iter_rows(min_row=2) if row[0].value == "00862895000173")
    assert cell.data_type == "s"  # a text cell
    resource = next(r for r in descriptor(sample_site)["resources"] if r["name"] == "transportadoras")
    for kind, column in (("pandas_json", "cnpj"), ("pandas_xlsx", "CNPJ [cnpj]")):
        namespace = {}
        exec(snippets("transportadoras", resource, f"{dados}/")[kind], namespace)
        assert "00862895000173" in namespace["transportadoras"][column].tolist(), kind


@pytest.mark.slow
def test_pandas_with_the_snippet_keeps_a_real_cnpj(real_only_site):
    dados = real_only_site / "dados"
    resource = next(r for r in descriptor(real_only_site)["resources"] if r["name"] == "transportadoras")
    namespace = {}
    exec(snippets("transportadoras", resource, f"{dados}/")["pandas"], namespace)
    assert "00018127000138" in namespace["transportadoras"]["cnpj"].tolist()


def test_the_snippets_name_the_address_they_are_given(schema):
    from pipeline.publish.datapackage import published_descriptor

    resource = next(r for r in published_descriptor(schema, date(2026, 1, 1))["resources"] if r["name"] == "infracoes")
    code = snippets("infracoes", resource, "https://exemplo.github.io/portal/dados/")
    assert '"https://exemplo.github.io/portal/dados/infracoes.csv"' in code["pandas"]
    assert "'https://exemplo.github.io/portal/dados/infracoes.csv'" in code["duckdb"]
    assert '"numero_auto": str' in code["pandas"] and "'numero_auto': 'VARCHAR'" in code["duckdb"]
    assert "numero_auto = col_character()" in code["r"] and '{"numero_auto", type text}' in code["excel"]
    assert 'Web.Contents("https://exemplo.github.io/portal/dados/infracoes.csv")' in code["excel"]
    assert '"valor_multa"' not in code["pandas"]  # a number stays a number


# byte-reproducible: tests/test_site.py builds the fixture package (bilhetes included, whose Parquet is
# re-stamped with the record) twice and compares every file


def _rewritten(path: Path, resource: dict, record: Provenance) -> bytes:
    """What a table read in batches once got: every row group read and written again, under the schema with the
    release's record, by the writer ParquetFile opens."""
    from pipeline.publish.columnar import arrow_schema

    schema = arrow_schema(resource, record)
    out = pa.BufferOutputStream()
    with pq.ParquetFile(path) as source, pq.ParquetWriter(out, schema, compression="zstd") as writer:
        for group in range(source.num_row_groups):
            writer.write_table(pa.Table.from_arrays(source.read_row_group(group).columns, schema=schema))
    return out.getvalue().to_pybytes()


@pytest.mark.parametrize("rows", [0, 1, 7, 250_001])
def test_a_table_read_in_batches_gets_the_record_in_its_parquet_file_as_if_written_again(tmp_path, sample_site, rows,
                                                                                        monkeypatch):
    """``restamp`` makes the footer alone again: the bytes are those of writing every row group again with the
    record, for no row (one empty group), one, and three groups with missing values; the rows read back are the
    ones written."""
    from pipeline.publish import columnar

    published = descriptor(sample_site)
    resource = next(r for r in published["resources"] if r["name"] == "bilhetes")
    record = Provenance.from_descriptor(published)
    names = [f["name"] for f in resource["schema"]["fields"]]
    kinds = {f["name"]: f.get("type", "string") for f in resource["schema"]["fields"]}
    sample = {"string": lambda i: None if i % 5 == 0 else f"Cidade {i % 97} – á", "integer": lambda i: i * 3,
              "number": lambda i: None if i % 7 == 0 else i / 8, "money": lambda i: i / 100}
    frame = pd.DataFrame({n: [sample.get(kinds[n], sample["string"])(i) for i in range(rows)] for n in names},
                         dtype=object)
    path = tmp_path / "bilhetes.parquet"
    monkeypatch.setattr(columnar, "ROW_GROUP", 100_000)
    with columnar.ParquetFile(resource, path) as out:  # as batches.py writes it: no record yet
        out.add(frame)
    expected = _rewritten(path, resource, record)
    columnar.restamp(path, resource, record)
    assert path.read_bytes() == expected
    assert kv(path)["proveniencia"] == record.as_json()
    assert pq.read_table(path).num_rows == rows
    assert pq.read_table(path).column(names[0]).to_pylist() == frame[names[0]].tolist()
    assert not list(tmp_path.glob(".*"))  # the file beside it took its place
