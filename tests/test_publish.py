"""The published package under /dados/: it validates, carries the derived fields, and is safe to open."""

from __future__ import annotations

import csv
import json

from frictionless import Package


def test_published_package_validates_with_frictionless(site):
    report = Package(str(site / "dados" / "datapackage.json")).validate()
    assert report.valid, report.flatten(["rowNumber", "fieldName", "type", "note"])


def test_derived_fields_are_described_and_marked(site):
    dp = json.loads((site / "dados" / "datapackage.json").read_text(encoding="utf-8"))
    resources = {r["name"]: r for r in dp["resources"]}
    outorgas = {f["name"]: f for f in resources["outorgas"]["schema"]["fields"]}
    assert outorgas["vencimento"]["derived"] is True and "art. 94" in outorgas["vencimento"]["description"]
    assert "derived" not in outorgas["inicio"]
    infracoes = {f["name"]: f for f in resources["infracoes"]["schema"]["fields"]}
    assert "art. 84" in infracoes["prazo_defesa"]["description"]
    assert {"achados", "rejeitados"} <= resources.keys()
    assert dp["version"] == "2026-06-30"


def test_derived_values_in_csv_and_json(site):
    with open(site / "dados" / "infracoes.csv", encoding="utf-8") as fh:
        by_auto = {r["numero_auto"]: r for r in csv.DictReader(fh)}
    # Notified Friday 06/03/2026: 15 business days end Friday 27/03/2026 (art. 84; art. 96).
    assert by_auto["AI-0001"]["prazo_defesa"] == "2026-03-27"
    assert by_auto["AI-0001"]["grupo"] == "IV"
    promos = json.loads((site / "dados" / "tarifas_promocionais.json").read_text(encoding="utf-8"))
    promo2 = next(p for p in promos if p["protocolo"] == "PROMO-2")
    assert promo2["antecedencia_dias"] == 29 and promo2["antecedencia_ok"] is False
    assert promo2["tarifa_maxima"] == 88.5


def test_achados_table_lists_each_finding(site):
    with open(site / "dados" / "achados.csv", encoding="utf-8") as fh:
        found = [(r["regra"], r["tabela"], r["chave"]) for r in csv.DictReader(fh)]
    assert found == [
        ("promocao-sem-antecedencia", "tarifas_promocionais", "PROMO-2"),
        ("promocao-acima-do-maximo", "tarifas_promocionais", "PROMO-2"),
        ("promocao-sem-outorga", "tarifas_promocionais", "PROMO-3"),
        ("outorga-durante-impedimento", "outorgas", "OUT-6"),
        ("caducidade-sem-comunicacoes", "caducidades", "Portaria DTR nº 45/2020"),
        ("operacao-apos-vencimento", "infracoes", "AI-0002"),
    ]


def test_formula_cells_are_neutralised_in_csv_but_not_in_json(site):
    with open(site / "dados" / "transportadoras.csv", encoding="utf-8") as fh:
        row = next(r for r in csv.DictReader(fh) if r["cnpj"] == "44555666000181")
    assert row["nome_fantasia"] == '\'=HYPERLINK("http://evil.example","clique")'
    records = json.loads((site / "dados" / "transportadoras.json").read_text(encoding="utf-8"))
    assert next(r for r in records if r["cnpj"] == "44555666000181")["nome_fantasia"].startswith("=HYPERLINK")


def test_the_descriptor_and_the_catalogue_say_what_the_csv_changes_in_a_formula_cell(site):
    """A user reading ``'=HYPERLINK(...)`` in the CSV learns from the package why, and that the other formats
    keep the value (issue 35): each resource declares the guard, naming every character the CSV guards."""
    from pipeline.publish.tabular import neutralise

    package = json.loads((site / "dados" / "datapackage.json").read_text(encoding="utf-8"))
    guards = {r["name"]: r.get("x-formulas-neutralizadas", "") for r in package["resources"]}
    assert set(guards) >= {"transportadoras", "linhas", "bilhetes"} and len(set(guards.values())) == 1
    said = guards["transportadoras"]
    names = {"=": "=", "+": "+", "-": "-", "@": "@", "\t": "tabulação", "\r": "retorno de carro"}
    for start, name in names.items():
        assert neutralise(start + "x") == "'" + start + "x" and name in said, start
    assert neutralise("x=1") == "x=1" and "'-Expresso" in said and "XLSX trazem o valor como está" in said
    catalogue = (site / "dados" / "catalogo.jsonld").read_text(encoding="utf-8")
    assert "tabulação ou retorno de carro leva um apóstrofo" in catalogue


def test_validation_report_is_published(site):
    report = json.loads((site / "dados" / "validacao.json").read_text(encoding="utf-8"))
    assert report["valido"] is True and report["erros"] == 0
    assert report["linhas_lidas"]["outorgas"] == 6


def test_xlsx_keeps_formula_text_as_text(site):
    from openpyxl import load_workbook

    ws = load_workbook(site / "dados" / "transportadoras.xlsx", read_only=True).active
    values = [list(r) for r in ws.iter_rows(values_only=True)]
    assert values[0][:2] == ["CNPJ [cnpj]", "Razão social [razao_social]"]
    evil = next(r for r in values if r[0] == "44555666000181")
    # a text cell is never evaluated: the text as it is, no apostrophe (issue 26; the CSV neutralises it)
    assert evil[2] == '=HYPERLINK("http://evil.example","clique")'
    row = next(r for r in ws.iter_rows() if r[0].value == "44555666000181")
    assert row[2].data_type == "s"


def test_sqlite_has_every_table_with_derived_columns(site):
    import sqlite3

    con = sqlite3.connect(site / "dados" / "portal.sqlite")
    assert con.execute("select vencimento, situacao from outorgas where id = 'OUT-1'").fetchone() == (
        "2027-03-01",
        "vigente",
    )
    assert con.execute("select count(*) from enquadramentos").fetchone() == (43,)
    assert con.execute("select count(*) from achados").fetchone() == (6,)


def test_zip_holds_the_package(site):
    import zipfile

    with zipfile.ZipFile(site / "dados" / "pacote-completo.zip") as zf:
        names = zf.namelist()
        assert names[0] == "datapackage.json" and "outorgas.csv" in names
        assert zf.read("outorgas.csv") == (site / "dados" / "outorgas.csv").read_bytes()


def test_every_derived_field_cites_its_article(site):
    import re

    dp = json.loads((site / "dados" / "datapackage.json").read_text(encoding="utf-8"))
    derived = [(r["name"], f) for r in dp["resources"] for f in r["schema"]["fields"]
               if f.get("derived") and "x-juncao" not in f]  # a name copied beside its code applies no rule
    # linhas 2 + 2 IBGE codes, secoes 2 IBGE codes, outorgas 3, tarifas 1, tarifas_promocionais 4, infracoes 3,
    # caducidades 2; the later regime's: paralisacoes 2 IBGE codes, paradas 1, bilhetes 2
    assert len(derived) == 24
    for table, f in derived:
        assert f["title"] and f["type"], (table, f["name"])
        if f["name"].endswith("codigo_ibge"):  # not a rule of the decree: names its source instead
            assert "lista de municípios do IBGE" in f["description"], (table, f["name"])
        else:
            assert re.search(r"arts?\. \d", f["description"]), (table, f["name"])


def test_weekly_frequency_is_published_per_line(site):
    with open(site / "dados" / "linhas.csv", encoding="utf-8") as fh:
        by_prefix = {r["prefixo"]: r for r in csv.DictReader(fh)}
    assert (by_prefix["12-0140-00"]["frequencia_semanal_ida"], by_prefix["12-0140-00"]["frequencia_semanal_volta"]) == ("12", "7")
    assert by_prefix["SPRJ0030026"]["frequencia_semanal_ida"] == ""  # no timetable: unknown, not zero


def test_xlsx_writer_keeps_types_and_any_valid_text(tmp_path):
    """The workbook is written by the portal (pipeline/publish/spreadsheet.py): what a reader gets back is
    the typed value, and text comes back as written, OOXML escapes decoded once as Excel does."""
    from datetime import date, datetime

    import pandas as pd
    from conftest import xlsx_text
    from openpyxl import load_workbook

    from pipeline.publish import spreadsheet

    fields = [{"name": "texto", "type": "string"}, {"name": "quando", "type": "datetime"},
              {"name": "dia", "type": "date"}, {"name": "ok", "type": "boolean"}, {"name": "valor", "type": "number"}]
    texts = ["_x0041_ literal", "linha\r\nnova", " espaço nas pontas ", "<b>&amp;</b>", "fim\uffff", "=1+1", ""]
    rows = [[t, datetime(2021, 2, 1, 8, 30), date(2024, 2, 29), i % 2 == 0, 1500.25 if i else 7]
            for i, t in enumerate(texts)]
    df = pd.DataFrame(rows, columns=[f["name"] for f in fields], dtype=object)
    path = tmp_path / "t.xlsx"
    spreadsheet.write_xlsx(df, {"name": "t", "title": "Tabela <t>", "schema": {"fields": fields}}, path,
                           date(2026, 1, 2))
    book = load_workbook(path)
    assert book.properties.title == "Tabela <t>" and book.properties.created == datetime(2026, 1, 2)
    sheet = list(book.active.iter_rows(values_only=True))
    assert sheet[0] == ("texto [texto]", "quando [quando]", "dia [dia]", "ok [ok]", "valor [valor]")  # no titles
    assert [xlsx_text(r[0]) or "" for r in sheet[1:]] == [
        "_x0041_ literal", "linha\r\nnova", " espaço nas pontas ", "<b>&amp;</b>", "fim\uffff", "=1+1", ""]
    assert sheet[1][1:] == (datetime(2021, 2, 1, 8, 30), datetime(2024, 2, 29), True, 7)
    assert sheet[2][3:] == (False, 1500.25)
    # a date-time shows the downloads' one spelling, ISO 8601 without an offset (the source states no zone)
    assert book.active["B2"].number_format == 'yyyy-mm-dd"T"hh:mm:ss'
    assert book.active["C2"].number_format == "dd/mm/yyyy"
    # byte-reproducible: the same table and date give the same file
    again = tmp_path / "u.xlsx"
    spreadsheet.write_xlsx(df, {"name": "t", "title": "Tabela <t>", "schema": {"fields": fields}}, again,
                           date(2026, 1, 2))
    assert again.read_bytes() == path.read_bytes()


def test_each_table_page_states_the_licence_and_how_to_cite_the_table(site):
    """A journalist on a table's page finds the licence and a citation naming this release and this table
    (issue 35), and a link to each source's own licence."""
    from conftest import page_text

    package = json.loads((site / "dados" / "datapackage.json").read_text(encoding="utf-8"))
    version = package["x-versao"]
    for name in ("linhas", "infracoes", "achados"):
        text = page_text(site / "dados" / name / "index.html")
        title = next(r["title"] for r in package["resources"] if r["name"] == name)
        assert ("Licença do que o portal publica: Creative Commons Atribuição 4.0 Internacional (CC-BY-4.0); "
                "a de cada fonte está em Fontes") in text, name
        assert f"Versão {version}." in text and f"Tabela “{title}” ({name})." in text, name
    html = (site / "dados" / "linhas" / "index.html").read_text(encoding="utf-8")
    assert 'href="/dados/#fontes"' in html
    assert 'id="fontes"' in (site / "dados" / "index.html").read_text(encoding="utf-8")
