"""Issue 26: the citation credits the public body behind the data and cites the release at its own address;
a record's index.json says where its facts come from; each table's page gives code that reads it with its
identifiers intact (run here, as a journalist would paste it)."""

from __future__ import annotations

import csv
import json
import os
import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from conftest import AS_OF, MINIMAL

from pipeline.build import build
from pipeline.contract.settings import Settings

SITE_URL = "https://portal.exemplo.gov.br"


@pytest.mark.slow  # a real-export build
def test_the_citation_credits_the_sources_publishers_and_names_the_release(real_only_site):
    page = BeautifulSoup((real_only_site / "dados" / "index.html").read_text(encoding="utf-8"), "html.parser")
    citation = page.select_one("p.citacao").get_text(" ", strip=True)
    assert "Dados de: ANTT — Agência Nacional de Transportes Terrestres" in citation
    version = re.search(r"Versão (\d{4}-\d{2}-\d{2}-[0-9a-f]{12})\.", citation)[1]
    assert (real_only_site / "dados" / "versoes" / version / "datapackage.json").is_file()


def test_with_an_address_the_citation_gives_the_releases_own_folder_and_the_access_date(tmp_path):
    out = tmp_path / "site"
    build(Settings(data=(MINIMAL,), out=out, as_of=AS_OF, site_url=SITE_URL, search_index=False,
                   whoosh_dir=tmp_path / "busca"))
    citation = BeautifulSoup((out / "dados" / "index.html").read_text(encoding="utf-8"), "html.parser") \
        .select_one("p.citacao").get_text(" ", strip=True)
    where = re.search(r"Disponível em: <([^>]+)>\. Acesso em: \[data do seu acesso\]\.", citation)[1]
    assert where.startswith(f"{SITE_URL}/dados/versoes/") and (out / where[len(SITE_URL) + 1:] / "SHA256SUMS").is_file()


@pytest.mark.slow  # a real-export build
def test_a_record_index_json_says_where_its_facts_come_from(real_only_site):
    line = next((real_only_site / "linhas").glob("*/index.json"))
    facts = json.loads(line.read_text(encoding="utf-8"))["proveniencia"]
    assert [s["publisher"] for s in facts["fontes"]] == ["ANTT — Agência Nacional de Transportes Terrestres"]
    assert facts["data_de_referencia"] == "2026-11-29" and facts["ficticio"] is False
    assert "CC-BY-4.0" in json.dumps(facts["licenca"])


def _snippet(page: Path, label: str) -> str:
    soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
    for box in soup.select("details.trecho-codigo"):
        if box.summary.get_text(strip=True) == label:
            return box.pre.get_text()
    raise AssertionError(f"{page}: sem o código “{label}”")


@pytest.mark.parametrize("table, column", [("transportadoras", "cnpj"), ("linhas", "prefixo"),
                                           ("infracoes", "numero_auto"), ("outorgas", "transportadora_cnpj")])
def test_the_pages_pandas_and_duckdb_code_keeps_identifiers_as_typed(sample_site, table, column, monkeypatch):
    dados = sample_site / "dados"
    with open(dados / f"{table}.csv", encoding="utf-8", newline="") as fh:
        expected = [row[column] for row in csv.DictReader(fh)]
    assert any(v.startswith("0") for v in expected) or table == "linhas"  # a leading zero to lose, where ids have one
    page = dados / table / "index.html"
    monkeypatch.chdir(dados)  # the page says: download the file and run the code in its folder
    for label in ("Python (pandas), do CSV", "DuckDB"):
        scope: dict = {}
        exec(_snippet(page, label), scope)  # noqa: S102 - the page's own code, run as a journalist would
        frame = scope[table]
        got = frame[column].tolist() if label.startswith("Python") else [r[0] for r in frame.project(column).fetchall()]
        assert [v if v == v and v is not None else "" for v in got] == expected, label
    assert os.getcwd() == str(dados)
