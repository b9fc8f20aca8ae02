"""Tickets sold for a stretch the other publications do not serve are an inconsistency between the regulator's
publications, said on the pair's page and in its JSON (pipeline/site/cities.py ``contradiction``), never shown
beside "0 linhas" without a word; and a build with no fares does not speak of them (issue 35)."""

from __future__ import annotations

import json

from conftest import page_text
from test_ingest import ANTT, site_of

from pipeline.adapters import ingest


def test_tickets_after_the_stretch_was_paralysed_are_said_to_contradict_it(tmp_path):
    sections = tmp_path / "secoes"
    ingest(None, ANTT / "linhas-secoes-sigma.csv", sections)
    site = site_of(tmp_path, sections, "horarios-sigma.csv", "paralisados-sigma.csv", "monitriip-bilhetes.csv")
    pair = site / "cidades" / "go" / "goiania" / "para" / "to-palmas"
    answer = json.loads(pair.with_suffix(".json").read_text(encoding="utf-8"))
    assert answer["linhas"] == [] and answer["paralisadas"][0]["desde_texto"] == "15/08/2026"
    # August's 40 may be for trips before the 15th: only the months wholly after the paralysis count
    assert sum(m["bilhetes"] for m in answer["bilhetes"] if m["mes"] >= "2026-09") == 2_195
    assert answer["contradicao"] == (
        "O regulador publica este trecho como paralisado desde 15/08/2026, mas as transportadoras informaram 2.195 "
        "bilhetes vendidos para viagens de 09/2026 em diante: as publicações do regulador, lidas juntas, se contradizem.")
    text = page_text(pair / "index.html")
    assert "Publicações que se contradizem: " + answer["contradicao"] in text
    assert "ao lado das tarifas máximas" not in text  # no source of this build has fares


def test_each_table_page_says_how_to_open_the_csv_in_a_spreadsheet(sample_site):
    """The CSV is UTF-8 without a BOM: opened by a double click, Excel and LibreOffice garble its accents and
    drop the leading zeros of CNPJs. Each table's page says which file to open and how (issue 35)."""
    page = page_text(sample_site / "dados" / "transportadoras" / "index.html")
    assert "Numa planilha, abra o XLSX" in page and "os dados estão na primeira aba" in page
    assert "Dados > De Texto/CSV" in page and "65001: Unicode (UTF-8)" in page
    assert "perde os acentos e os zeros à esquerda" in page
