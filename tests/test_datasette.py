"""Issue 26: the database as Datasette shows it (``datasette portal.sqlite -m metadata.json``). Its search
box finds a CNPJ and a notice number (the full-text index covers the identifiers), every table has row
pages by primary key (``linha_csv`` where a table has no key of its own), the database's page says
"Dados fictícios" when the build is fictional, and a table no source covers says so.

The first tests read what Datasette reads (``metadata.json`` and the database, with sqlite3); the last
run Datasette itself (its test client, ``datasette.app.Datasette``) when it is installed. It is not a
dependency of the project (some 16 packages more): ``pip install datasette`` runs them."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path

import pytest

from pipeline.publish.database import METADATA_TABLE, ROW_KEY
from pipeline.publish.provenance import FICTIONAL_LABEL, NOT_COVERED_SENTENCE

CNPJ = "00862895000173"  # a carrier of the sample, with leading zeros
NOTICE = "01892899"  # an infraction notice of the sample


def metadata(site: Path) -> dict:
    return json.loads((site / "dados" / "metadata.json").read_text(encoding="utf-8"))


def user_tables(db: sqlite3.Connection) -> list[str]:
    """The tables a user browses: not the full-text index's own (``*_fts`` and its shadow tables)."""
    fts = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE sql LIKE 'CREATE VIRTUAL TABLE%'")}
    names = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
    return [n for n in names if n not in fts and not any(n.startswith(f + "_") for f in fts)]


def test_every_table_has_a_primary_key(sample_site):
    with sqlite3.connect(sample_site / "dados" / "portal.sqlite") as db:
        tables = user_tables(db)
        assert {"horarios", "achados", "rejeitados", "inconsistencias", "bilhetes", METADATA_TABLE} <= set(tables)
        for table in tables:
            key = [r[1] for r in db.execute(f'PRAGMA table_info("{table}")') if r[5]]
            assert key, table
        for table in ("horarios", "achados", "rejeitados", "inconsistencias", "bilhetes"):
            info = {r[1]: r for r in db.execute(f'PRAGMA table_info("{table}")')}
            assert info[ROW_KEY][2] == "INTEGER" and info[ROW_KEY][5] == 1, table
            # the key is the record's number in the table's CSV: 1, 2, ... in the CSV's order
            first, last, count = db.execute(f'SELECT min({ROW_KEY}), max({ROW_KEY}), count(*) FROM "{table}"').fetchone()
            assert (first, last) == ((1, count) if count else (None, None)), table
    described = metadata(sample_site)["databases"]["portal"]["tables"]
    assert described["horarios"]["columns"][ROW_KEY].startswith("Número do registro no CSV")


def test_full_text_search_finds_identifiers(sample_site):
    meta = metadata(sample_site)["databases"]["portal"]["tables"]
    with sqlite3.connect(sample_site / "dados" / "portal.sqlite") as db:
        def found(table: str, query: str, key: str) -> list:
            fts = meta[table]["fts_table"]
            return [r[0] for r in db.execute(f'SELECT "{key}" FROM "{table}" WHERE rowid IN '
                                             f'(SELECT rowid FROM "{fts}" WHERE "{fts}" MATCH ?)', [f'"{query}"'])]

        assert found("transportadoras", CNPJ, "cnpj") == [CNPJ]
        assert found("infracoes", NOTICE, "numero_auto") == [NOTICE]
        assert set(found("infracoes", CNPJ, "transportadora_cnpj")) == {CNPJ}
        timetabled = db.execute("SELECT transportadora_cnpj FROM horarios ORDER BY rowid LIMIT 1").fetchone()[0]
        assert set(found("horarios", timetabled, "transportadora_cnpj")) == {timetabled}
        prefix = db.execute("SELECT prefixo FROM linhas ORDER BY prefixo LIMIT 1").fetchone()[0]
        assert found("linhas", prefix, "prefixo") == [prefix]


def test_the_metadata_states_title_licence_and_source_per_table(sample_site):
    meta = metadata(sample_site)
    assert meta["title"].startswith(FICTIONAL_LABEL)
    database = meta["databases"]["portal"]
    assert database["title"].startswith(FICTIONAL_LABEL) and database["description"].startswith(FICTIONAL_LABEL)
    assert database["license"] == "Creative Commons Atribuição 4.0 Internacional"
    for name, table in database["tables"].items():
        assert table["title"] and table["license_url"].startswith("https://creativecommons.org/"), name
        if name != METADATA_TABLE:
            assert table["source"], name


@pytest.mark.slow
def test_an_uncovered_table_says_so_in_datasettes_metadata(real_only_site):
    meta = metadata(real_only_site)
    assert not meta["title"].startswith(FICTIONAL_LABEL)
    tables = meta["databases"]["portal"]["tables"]
    for name in ("outorgas", "tarifas", "infracoes", "caducidades"):
        assert tables[name]["description"].startswith(NOT_COVERED_SENTENCE), name
        assert tables[name]["source"].startswith(NOT_COVERED_SENTENCE), name
    assert "ANTT" in tables["horarios"]["source"]
    assert tables["achados"]["description"].startswith("Nenhuma regra pôde ser verificada")


# --- Datasette itself ------------------------------------------------------------------------------

def _client(site: Path):
    datasette = pytest.importorskip("datasette.app", reason="Datasette is not installed (pip install datasette)")
    ds = datasette.Datasette([str(site / "dados" / "portal.sqlite")], metadata=metadata(site))
    return ds.client


def _get(client, path: str):
    """The page at ``path``, from a thread of its own: the browser tests' Playwright (sync API) keeps an event
    loop running in the main thread, where asyncio.run() refuses to start another."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, client.get(path)).result()


def test_datasette_shows_the_fictional_label_on_the_database_page(sample_site):
    client = _client(sample_site)
    for path in ("/", "/portal"):
        page = _get(client, path)
        assert page.status_code == 200 and FICTIONAL_LABEL in page.text, path


def test_datasettes_search_box_finds_a_cnpj_and_a_notice_number(sample_site):
    client = _client(sample_site)
    carriers = _get(client, f"/portal/transportadoras.json?_search={CNPJ}&_shape=objects").json()["rows"]
    assert [r["cnpj"] for r in carriers] == [CNPJ]
    notices = _get(client, f"/portal/infracoes.json?_search={NOTICE}&_shape=objects").json()["rows"]
    assert [r["numero_auto"] for r in notices] == [NOTICE]
    page = _get(client, "/portal/transportadoras")
    assert 'name="_search"' in page.text


def test_datasettes_row_pages_use_the_primary_key(sample_site):
    client = _client(sample_site)
    for table, key in (("horarios", [ROW_KEY]), ("achados", [ROW_KEY]), ("rejeitados", [ROW_KEY]),
                       ("infracoes", ["numero_auto"]), (METADATA_TABLE, ["escopo", "chave"])):
        assert _get(client, f"/portal/{table}.json").json()["primary_keys"] == key, table
    assert _get(client, "/portal/horarios/1").status_code == 200
    assert _get(client, "/portal/achados/1").status_code == 200
    assert _get(client, f"/portal/infracoes/{NOTICE}").status_code == 200
    assert _get(client, "/portal/_metadados/pacote,ficticio").status_code == 200


@pytest.mark.slow
def test_datasette_says_an_uncovered_table_is_not_in_the_sources(real_only_site):
    client = _client(real_only_site)
    page = _get(client, "/portal/outorgas")
    assert page.status_code == 200 and NOT_COVERED_SENTENCE in page.text
    assert FICTIONAL_LABEL not in _get(client, "/portal").text
