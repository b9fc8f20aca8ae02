"""Issue 8: the downloads as a journalist, a catalogue harvester and Datasette use them. Every format
reads back to the CSV's rows; the SQLite has keys, foreign keys and full-text search; the XLSX is made
for a pt-BR Excel; sizes and hashes are stated and true; the catalogues parse as linked data; record
pages have their JSON; a second release lists exactly what changed."""

from __future__ import annotations

import csv
import hashlib
import json
import math
import re
import shutil
import sqlite3
from datetime import date, datetime, time, timedelta
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest
from bs4 import BeautifulSoup
from conftest import AS_OF, MINIMAL, xlsx_text
from openpyxl import load_workbook

from pipeline.build import build
from pipeline.contract.clock import moment_text
from pipeline.contract.settings import Settings

FORMULA = re.compile(r"^[=+\-@\t\r]")


def descriptor(site: Path) -> dict:
    return json.loads((site / "dados" / "datapackage.json").read_text(encoding="utf-8"))


def csv_rows(site: Path, name: str) -> list[dict]:
    with open(site / "dados" / f"{name}.csv", encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def as_csv_text(value, field: dict, neutralised: bool) -> str:
    """A value read from another format, as the CSV writes it (the CSV is the reference)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    kind = field.get("type", "string")
    if field.get("x-moeda"):
        return f"{float(value):.2f}"
    if kind == "boolean":
        return "true" if value in (True, 1) else "false"
    if kind == "datetime":  # one spelling, the wall clock without an offset (clock.py); the XLSX holds it too
        return moment_text(value if isinstance(value, datetime) else datetime.fromisoformat(str(value)))
    if kind == "date":
        return (value.date() if isinstance(value, datetime) else value).isoformat() if not isinstance(value, str) else value
    if kind == "time":
        return value.strftime("%H:%M") if isinstance(value, time) else str(value)
    if kind in ("number", "integer"):
        number = float(value)
        return str(int(number)) if number.is_integer() else repr(number)
    text = xlsx_text(str(value))
    return "'" + text if neutralised and FORMULA.match(text) and not text.startswith("'") else text


@pytest.mark.parametrize("fmt", ["json", "parquet", "sqlite", "xlsx"])
def test_every_format_reads_back_to_the_csv_rows(site, fmt):
    """Row for row and column for column, each download holds what the CSV holds (formulas aside: the
    CSV neutralises them, the others keep the original text: an XLSX text cell is never evaluated)."""
    db = sqlite3.connect(site / "dados" / "portal.sqlite") if fmt == "sqlite" else None
    for resource in descriptor(site)["resources"]:
        name, fields = resource["name"], resource["schema"]["fields"]
        names = [f["name"] for f in fields]
        want = [[row[n] for n in names] for row in csv_rows(site, name)]
        if fmt == "json":
            got = [[r[n] for n in names] for r in json.loads((site / "dados" / f"{name}.json").read_text(encoding="utf-8"))]
        elif fmt == "parquet":
            table = pq.read_table(site / "dados" / f"{name}.parquet")
            assert table.column_names == names
            got = [list(r.values()) for r in table.to_pylist()]
        elif fmt == "sqlite":
            got = db.execute(f'SELECT {", ".join(chr(34) + n + chr(34) for n in names)} FROM "{name}" ORDER BY rowid').fetchall()
        else:
            sheet = load_workbook(site / "dados" / f"{name}.xlsx", read_only=True)[name[:31]]
            rows = list(sheet.iter_rows(values_only=True))
            headers = list(rows[0])
            columns = [headers.index(f"{f.get('title') or f['name']} [{f['name']}]") for f in fields]
            got = [[r[i] for i in columns] for r in rows[1:]]
        neutralised = False  # only the CSV neutralises formulas (issue 26)
        assert len(got) == len(want), (fmt, name)
        for g, w in zip(got, want):
            text = [as_csv_text(v, f, neutralised) for v, f in zip(g, fields)]
            if not neutralised:  # the CSV neutralised formulas; this format keeps them
                w = [x[1:] if x.startswith("'") and FORMULA.match(x[1:]) else x for x in w]
            assert text == w, (fmt, name)


def test_csv_money_always_has_two_decimals(site):
    money = [(r["name"], f["name"]) for r in descriptor(site)["resources"] for f in r["schema"]["fields"] if f.get("x-moeda")]
    assert ("tarifas", "valor") in money and ("infracoes", "valor_multa") in money
    seen = 0
    for table, column in money:
        for row in csv_rows(site, table):
            if row[column]:
                assert re.fullmatch(r"\d+\.\d\d", row[column]), (table, column, row[column])
                seen += 1
    assert seen > 10


def test_sqlite_has_keys_foreign_keys_indexes_and_full_text_search(site):
    db = sqlite3.connect(site / "dados" / "portal.sqlite")
    assert db.execute("PRAGMA foreign_key_check").fetchall() == []
    columns = {row[1]: row for row in db.execute("PRAGMA table_info(infracoes)")}
    assert columns["numero_auto"][5] == 1 and columns["numero_auto"][3] == 1  # primary key, NOT NULL
    refs = {(row[3], row[2], row[4]) for row in db.execute("PRAGMA foreign_key_list(infracoes)")}
    assert {("transportadora_cnpj", "transportadoras", "cnpj"), ("enquadramento", "enquadramentos", "codigo")} <= refs
    indexed = {db.execute(f"PRAGMA index_info('{row[1]}')").fetchone()[2] for row in db.execute("PRAGMA index_list(infracoes)")}
    assert {"transportadora_cnpj", "linha_prefixo", "enquadramento"} <= indexed
    razao, cnpj = db.execute("SELECT razao_social, cnpj FROM transportadoras ORDER BY cnpj LIMIT 1").fetchone()
    word = max(re.findall(r"\w+", razao), key=len)
    found = db.execute("SELECT cnpj FROM transportadoras WHERE rowid IN "
                       "(SELECT rowid FROM transportadoras_fts WHERE transportadoras_fts MATCH ?)", [word]).fetchall()
    assert (cnpj,) in found


def test_each_full_text_index_holds_each_row_once(site, tmp_path):
    """A search of the database (Datasette's, or anyone's FTS5 query) ranks the rows as an index made from the
    table once would: the index was once filled twice (sqlite-utils' enable_fts fills it, and it was filled
    again), so it counted every table twice as long as it is, and bm25 ranked by that."""
    import shutil

    copy = shutil.copy(site / "dados" / "portal.sqlite", tmp_path / "portal.sqlite")
    db = sqlite3.connect(copy)
    tables = [name[: -len("_fts")] for (name,) in db.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE '%\\_fts' ESCAPE '\\'")]
    assert "transportadoras" in tables and "infracoes" in tables

    def ranks(table, term):
        return db.execute(f'SELECT rowid, round(bm25("{table}_fts"), 9) FROM "{table}_fts" WHERE "{table}_fts" MATCH ? '
                          "ORDER BY rowid", [f'"{term}"']).fetchall()

    for table in tables:
        db.execute(f'CREATE VIRTUAL TABLE temp."vocab_{table}" USING fts5vocab(main, "{table}_fts", row)')
        term = db.execute(f'SELECT term FROM temp."vocab_{table}" ORDER BY doc DESC, term LIMIT 1').fetchone()[0]
        published = ranks(table, term)
        db.execute(f'INSERT INTO "{table}_fts"("{table}_fts") VALUES (\'rebuild\')')  # made again from the table
        assert published and ranks(table, term) == published, table


def test_datasette_metadata_describes_tables_columns_labels_and_search(site):
    meta = json.loads((site / "dados" / "metadata.json").read_text(encoding="utf-8"))
    assert meta["license"] and meta["license_url"].startswith("https://creativecommons.org/")
    tables = meta["databases"]["portal"]["tables"]
    assert tables["transportadoras"]["label_column"] == "razao_social"
    assert tables["transportadoras"]["fts_table"] == "transportadoras_fts"
    assert "CNPJ" in tables["infracoes"]["columns"]["transportadora_cnpj"]
    db = sqlite3.connect(site / "dados" / "portal.sqlite")
    names = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {t["fts_table"] for t in tables.values() if "fts_table" in t} <= names


def test_xlsx_is_made_for_a_pt_br_excel_user(site):
    wb = load_workbook(site / "dados" / "tarifas_promocionais.xlsx")
    ws = wb["tarifas_promocionais"]
    headers = [c.value for c in ws[1]]
    assert headers[0] == "Protocolo [protocolo]" and ws["A1"].font.bold
    assert ws.freeze_panes == "A2" and ws.auto_filter.ref == f"A1:{ws.cell(1, len(headers)).column_letter}{ws.max_row}"
    valor = headers.index("Valor (R$) [valor]") + 1
    assert isinstance(ws.cell(2, valor).value, (int, float)) and "R$" in ws.cell(2, valor).number_format
    inicio = headers.index("Início [inicio]") + 1
    assert isinstance(ws.cell(2, inicio).value, datetime) and ws.cell(2, inicio).number_format == "dd/mm/yyyy"
    situacao = headers.index("Situação [situacao]") + 1
    assert headers[situacao] == "Situação (rótulo)"
    assert ws.cell(2, situacao + 1).value == {"futura": "Futura", "vigente": "Vigente", "encerrada": "Encerrada"}[ws.cell(2, situacao).value]
    assert all(ws.column_dimensions[ws.cell(1, i).column_letter].width >= 8 for i in range(1, len(headers) + 1))
    dictionary = [[c.value for c in row] for row in wb["dicionario"].iter_rows()]
    assert dictionary[0][0] == "Coluna [nome]"
    rows = {r[0]: r for r in dictionary[1:]}
    assert "vigente = Vigente" in rows["situacao"][5] and rows["valor"][2] == "valor em reais (R$)"


def test_xlsx_times_are_times_and_formulas_stay_text(site):
    ws = load_workbook(site / "dados" / "horarios.xlsx")["horarios"]
    headers = [c.value for c in ws[1]]
    cell = ws.cell(2, headers.index("Horário de partida [horario]") + 1)
    assert isinstance(cell.value, time) and cell.number_format == "hh:mm"
    ws = load_workbook(site / "dados" / "transportadoras.xlsx")["transportadoras"]
    evil = next(row for row in ws.iter_rows() if row[0].value == "44555666000181")
    assert evil[2].data_type == "s" and evil[2].value == '=HYPERLINK("http://evil.example","clique")'


def test_sizes_and_hashes_are_stated_and_true(site):
    dados = site / "dados"
    for resource in descriptor(site)["resources"]:
        data = (dados / resource["path"]).read_bytes()
        assert resource["bytes"] == len(data) and resource["hash"] == "sha256:" + hashlib.sha256(data).hexdigest()
    sums = (dados / "SHA256SUMS").read_text(encoding="utf-8").splitlines()
    listed = dict(reversed(line.split("  ", 1)) for line in sums)
    assert {"infracoes.parquet", "infracoes.xlsx", "portal.sqlite", "pacote-completo.zip"} <= listed.keys()
    for path, digest in listed.items():
        assert hashlib.sha256((dados / path).read_bytes()).hexdigest() == digest, path
    page = BeautifulSoup((dados / "infracoes" / "index.html").read_text(encoding="utf-8"), "html.parser")
    row = next(tr for tr in page.select("table.arquivos tbody tr") if tr.th.get_text(strip=True) == "infracoes.xlsx")
    assert row.select("td")[2].get_text(strip=True) == listed["infracoes.xlsx"]
    # the files carry the release's date, not the build's clock (Last-Modified)
    assert date.fromtimestamp((dados / "infracoes.csv").stat().st_mtime) in (AS_OF, date(2026, 6, 29))


def test_catalogue_parses_as_dcat_with_every_distribution(site):
    from rdflib import Graph, Namespace, URIRef
    from rdflib.namespace import DCAT, DCTERMS, RDF

    spdx = Namespace("http://spdx.org/rdf/terms#")
    graph = Graph().parse(data=(site / "dados" / "catalogo.jsonld").read_text(encoding="utf-8"), format="json-ld",
                          publicID="https://portal.example/dados/catalogo.jsonld")
    assert len(list(graph.subjects(RDF.type, DCAT.Catalog))) == 1
    datasets = list(graph.subjects(RDF.type, DCAT.Dataset))
    assert len(datasets) >= len(descriptor(site)["resources"])
    sums = dict(reversed(line.split("  ", 1)) for line in (site / "dados" / "SHA256SUMS").read_text().splitlines())
    url = URIRef("https://portal.example/dados/infracoes.csv")
    dist = next(graph.subjects(DCAT.downloadURL, url))
    assert int(graph.value(dist, DCAT.byteSize)) == (site / "dados" / "infracoes.csv").stat().st_size
    checksum = graph.value(dist, spdx.checksum)
    assert str(graph.value(checksum, spdx.checksumValue)) == sums["infracoes.csv"]
    assert str(graph.value(dist, DCTERMS.license)) == "https://creativecommons.org/licenses/by/4.0/"


def test_schema_org_dataset_on_data_pages(site):
    from rdflib import Graph, URIRef

    schema = "https://schema.org/"
    for page in (site / "dados" / "index.html", site / "dados" / "infracoes" / "index.html"):
        soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
        data = json.loads(soup.find("script", type="application/ld+json").string)
        assert data["@type"] == "Dataset" and 50 <= len(data["description"]) <= 5000
        assert data["license"] and data["creator"]["name"] and data["dateModified"] == AS_OF.isoformat()
        assert data["spatialCoverage"] and data["temporalCoverage"]
        assert all(d["contentUrl"] and d["encodingFormat"] for d in data["distribution"])
        data["@context"] = {"@vocab": schema}  # schema.org's remote context, offline
        graph = Graph().parse(data=json.dumps(data), format="json-ld", publicID="https://portal.example/dados/")
        assert any(graph.subjects(URIRef(schema + "distribution"), None))


def test_project_open_data_json(site):
    data = json.loads((site / "data.json").read_text(encoding="utf-8"))
    assert data["conformsTo"] == "https://project-open-data.cio.gov/v1.1/schema"
    # one dataset per table and one for the whole package, each with its downloads
    assert len(data["dataset"]) == len(descriptor(site)["resources"]) + 1
    for ds in data["dataset"]:
        assert {"title", "description", "keyword", "modified", "publisher", "contactPoint", "identifier",
                "accessLevel"} <= ds.keys()
        assert ds["distribution"] and all(d["downloadURL"] and d["mediaType"] for d in ds["distribution"])


def test_dictionary_page_shows_labels_rules_in_words_examples_and_links(site):
    soup = BeautifulSoup((site / "dados" / "outorgas" / "index.html").read_text(encoding="utf-8"), "html.parser")
    rows = {tr["id"]: tr for tr in soup.select("tbody tr[id]")}
    situacao = rows["campo-situacao"].get_text(" ", strip=True)
    assert "vigente Vigente" in situacao and "vencida Vencida" in situacao
    cnpj = rows["campo-transportadora_cnpj"]
    assert "14 algarismos" in cnpj.get_text() and "[0-9]" not in cnpj.get_text()
    link = cnpj.find("a")
    assert link["href"] == "/dados/transportadoras/#campo-cnpj"
    target = BeautifulSoup((site / "dados" / "transportadoras" / "index.html").read_text(encoding="utf-8"), "html.parser")
    assert target.find(id="campo-cnpj") is not None
    first = csv_rows(site, "outorgas")[0]
    assert rows["campo-id"].find_all("td")[-1].get_text(strip=True) == first["id"]


def test_names_and_labels_beside_codes(site):
    carriers = {r["cnpj"]: r["razao_social"] for r in csv_rows(site, "transportadoras")}
    for table in ("outorgas", "infracoes", "caducidades", "tarifas_promocionais", "horarios"):
        for row in csv_rows(site, table):
            assert row["transportadora_nome"] == carriers.get(row["transportadora_cnpj"], ""), table
    findings = csv_rows(site, "achados")
    from pipeline.derive.findings import RULES

    titles = {r.slug: (r.titulo, r.artigo) for r in RULES}
    assert findings
    for f in findings:
        assert (f["regra_titulo"], f["artigo"]) == titles[f["regra"]]
        if f["tabela"] in ("outorgas", "infracoes", "caducidades", "tarifas_promocionais"):
            assert f["transportadora_cnpj"] in carriers and f["transportadora_nome"] == carriers[f["transportadora_cnpj"]]


def test_record_pages_have_their_json(site):
    page = site / "linhas" / "12-0140-00" / "index.html"
    soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
    alternate = soup.find("link", rel="alternate", type="application/json")
    assert alternate["href"] == "/linhas/12-0140-00/index.json"
    data = json.loads((site / "linhas" / "12-0140-00" / "index.json").read_text(encoding="utf-8"))
    line = next(r for r in csv_rows(site, "linhas") if r["prefixo"] == "12-0140-00")
    assert data["prefixo"] == "12-0140-00" and data["origem_municipio"] == line["origem_municipio"]
    assert sorted(h["horario"] for h in data["horarios"]) == sorted(
        r["horario"] for r in csv_rows(site, "horarios") if r["linha_prefixo"] == "12-0140-00")
    assert {o["id"] for o in data["outorgas"]} == {r["id"] for r in csv_rows(site, "outorgas") if r["linha_prefixo"] == "12-0140-00"}
    # a related record's own related records by their url; the line itself not repeated in each
    assert {h["transportadora"]["url"] for h in data["horarios"]} <= {t["url"] for t in data["transportadoras"]}
    assert all(set(h["transportadora"]) == {"url"} and "linha" not in h for h in data["horarios"])
    carrier = json.loads((site / "transportadoras" / "44555666000181" / "index.json").read_text(encoding="utf-8"))
    assert carrier["cnpj"] == "44555666000181" and carrier["url"] == "/transportadoras/44555666000181/"


def test_a_second_release_lists_exactly_the_rows_that_changed(site, tmp_path):
    """The minimal package changed on purpose: an infraction paid, one removed, one added; the build given
    the first release publishes exactly those, as JSON, on a page and in a feed; both releases are kept."""
    data = tmp_path / MINIMAL.name  # the same folder name: the same source id in the column fonte
    shutil.copytree(MINIMAL, data)
    df = pd.read_csv(data / "infracoes.csv", dtype=str, keep_default_na=False)
    changed, removed = df["numero_auto"].iloc[0], df["numero_auto"].iloc[1]
    df.loc[df["numero_auto"] == changed, "situacao"] = "pago"
    assert df.loc[df["numero_auto"] == changed, "situacao"].iloc[0] != pd.read_csv(
        MINIMAL / "infracoes.csv", dtype=str).set_index("numero_auto").loc[changed, "situacao"]
    added = df.iloc[[2]].copy()
    added["numero_auto"] = "AI-NOVO-1"
    df = pd.concat([df[df["numero_auto"] != removed], added])
    df.to_csv(data / "infracoes.csv", index=False)
    out = tmp_path / "site"
    later = AS_OF + timedelta(days=1)  # the next release (a kept version is never replaced: see test_batches.py)
    build(Settings(data=(data,), out=out, as_of=later, previous=str(site), search_index=False))
    result = json.loads((out / "dados" / "mudancas.json").read_text(encoding="utf-8"))
    tables = {t["tabela"]: t for t in result["tabelas"]}
    infracoes = tables["infracoes"]
    assert [r["chave"]["numero_auto"] for r in infracoes["linhas"]["incluidos"]] == ["AI-NOVO-1"]
    assert [r["chave"]["numero_auto"] for r in infracoes["linhas"]["removidos"]] == [removed]
    assert [(r["chave"]["numero_auto"], list(r["campos"])) for r in infracoes["linhas"]["alterados"]] == [(changed, ["situacao"])]
    assert infracoes["linhas"]["alterados"][0]["campos"]["situacao"]["depois"] == "pago"
    others = {n: t for n, t in tables.items() if n not in ("infracoes", "achados")}
    assert all(t["situacao"] == "sem_mudancas" for t in others.values()), others
    text = " ".join((out / "dados" / "mudancas" / "index.html").read_text(encoding="utf-8").split())
    assert changed in text and "pago" in text
    feed = (out / "feeds" / "mudancas.atom.xml").read_text(encoding="utf-8")
    assert "infracoes: 1 incluído(s), 1 removido(s), 1 alterado(s)" in feed
    versions = sorted(p.name for p in (out / "dados" / "versoes").iterdir())  # <data>-<código> (issue 26)
    assert [v[:10] for v in versions] == [AS_OF.isoformat(), later.isoformat()]
    assert (out / "dados" / "versoes" / versions[1] / "infracoes.csv").read_bytes() == (out / "dados" / "infracoes.csv").read_bytes()
    assert (out / "dados" / "versoes" / versions[0] / "infracoes.csv").read_bytes() == (site / "dados" / "infracoes.csv").read_bytes()


def test_earlier_releases_are_kept_under_their_date(site, tmp_path):
    out = tmp_path / "site"
    build(Settings(data=(MINIMAL,), out=out, as_of=date(2026, 7, 31), previous=str(site / "dados"), search_index=False))
    versions = sorted(p.name for p in (out / "dados" / "versoes").iterdir())  # <data>-<código> (issue 26)
    assert [v[:10] for v in versions] == ["2026-06-30", "2026-07-31"]
    old = out / "dados" / "versoes" / versions[0] / "datapackage.json"
    assert json.loads(old.read_text(encoding="utf-8"))["version"] == "2026-06-30"
    page = " ".join((out / "dados" / "index.html").read_text(encoding="utf-8").split())
    assert "30/06/2026" in page
    assert f"31/07/2026 {versions[1][11:]} (esta versão)" in BeautifulSoup(page, "html.parser").get_text(" ", strip=True)


def test_a_previous_release_that_cannot_be_read_fails_the_build_and_names_it(tmp_path):
    from pipeline.build import BuildError

    with pytest.raises(BuildError, match=str(tmp_path / "nada")):
        build(Settings(data=(MINIMAL,), out=tmp_path / "s", as_of=AS_OF, previous=str(tmp_path / "nada"),
                       search_index=False))
    assert not (tmp_path / "s").exists()


def test_citation_is_suggested(site):
    cite = descriptor(site)["x-citacao"]
    assert "Versão 2026-06-30" in cite and "CC-BY-4.0" in cite
    # the page cites the release by its version's name (the descriptor cannot: the name is its own hash)
    page = " ".join((site / "dados" / "index.html").read_text(encoding="utf-8").split())
    assert re.search(r"Versão 2026-06-30-[0-9a-f]{12}\. .*CC-BY-4\.0", page)


def test_the_json_beside_the_pages_is_what_json_dumps_gives(sample_site):
    """The page stage writes its JSON files with orjson; their bytes are the standard library's
    ``json.dumps(..., ensure_ascii=False, separators=(",", ":"))``, hostile text and odd numbers included
    (numbers under 0.0001 are written in another notation of the same value; the portal has none)."""
    from pipeline.site import _json

    def standard(value) -> bytes:
        return (json.dumps(value, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")

    hostile = {"texto": 'Goiânia "<script>" \\ \n\r\t\x00\x01\x1f\x7f \u2028\u2029 ☃ 𝄞 =HYPERLINK("x")',
               "numeros": [0, -1, 2**53, 10**18, 0.1, 1.5, -0.0, 1e16, 1e22, 0.0001, 9840.0, 123456789.25],
               "outros": [None, True, False, ("tupla", 1), {"aninhado": []}]}
    assert _json(hostile) == standard(hostile)
    tiny = [1e-5, 1e-7, 5e-324]  # below 0.0001 orjson writes 1e-7 where json.dumps writes 1e-07: the same number
    assert json.loads(_json(tiny)) == tiny
    files = [p for p in sample_site.rglob("*.json") if p.parent != sample_site  # data.json: the catalogue
             and not p.is_relative_to(sample_site / "dados") and not p.is_relative_to(sample_site / "pagefind")]
    assert len(files) > 100 and any(p.name == "index.json" and p.parent.parent.name == "linhas" for p in files)
    for path in files:
        assert path.read_bytes() == standard(json.loads(path.read_bytes())), path


def test_the_downloads_are_the_same_bytes_however_the_rows_are_chunked(tmp_path, monkeypatch):
    """Each writer converts a column's values all at once when they are few and a chunk at a time when
    they are many (publish/tabular.py, ``Forms``); with chunks of 7 rows every sample column takes the
    second way, over many chunks, missing values included: the files must not change."""
    from pipeline import SAMPLE_DIR
    from pipeline.build import check
    from pipeline.contract.schema import load_schema
    from pipeline.derive import derive
    from pipeline.publish import publish, tabular

    schema = load_schema()
    report = check(Settings(data=(SAMPLE_DIR,), out=tmp_path / "x", as_of=AS_OF), schema)
    derived = derive(report.accepted, schema, AS_OF, coverage=report.coverage, file_sources=report.file_sources)
    publish(derived, report, schema, tmp_path / "whole")
    monkeypatch.setattr(tabular, "CHUNK", 7)
    publish(derived, report, schema, tmp_path / "chunked")
    names = sorted(p.name for p in (tmp_path / "whole").iterdir() if p.is_file())
    assert {"infracoes.csv", "infracoes.json", "infracoes.xlsx", "portal.sqlite"} <= set(names)
    assert max(len(df) for df in derived.tables.values()) > 7 * 10
    for name in names:
        assert (tmp_path / "whole" / name).read_bytes() == (tmp_path / "chunked" / name).read_bytes(), name
