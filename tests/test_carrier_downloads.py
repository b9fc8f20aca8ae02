"""One carrier's lines and timetable as downloads (issue 35): the carrier's page links them with their counts,
each file holds exactly the whole table's rows of that carrier with the same header and cells, and /dados/
says how to open a CSV in a spreadsheet without losing accents or leading zeros."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

EXPORT = Path(__file__).resolve().parents[2] / "shared" / "data" / "antt" / "quadro-de-horarios-2021.csv"


def _csv(path: Path) -> list[list[str]]:
    with open(path, encoding="utf-8", newline="") as fh:
        return list(csv.reader(fh))


def _offers(site: Path, cnpj: str) -> dict[str, str]:
    """The carrier page's download links: their text by their address."""
    page = BeautifulSoup((site / "transportadoras" / cnpj / "index.html").read_text(encoding="utf-8"), "html.parser")
    return {a["href"]: " ".join(a.get_text().split()) for a in page.select("a[href^='/dados/por-transportadora/']")}


def _cut(site: Path, table: str, keep) -> list[list[str]]:
    whole = _csv(site / "dados" / f"{table}.csv")
    return [whole[0]] + [r for r in whole[1:] if keep(dict(zip(whole[0], r)))]


@pytest.mark.slow
def test_a_carriers_lines_and_timetable_are_the_whole_tables_rows_of_it_recounted_from_the_export(real_only_site):
    cnpj = "16624611000140"  # EMPRESA GONTIJO DE TRANSPORTES LTDA.
    with open(EXPORT, encoding="latin-1", newline="") as fh:
        rows = [r for r in list(csv.reader(fh, delimiter=";"))[1:] if re.sub(r"\D", "", r[0]) == cnpj]
    departures, prefixes = len({tuple(r) for r in rows}), {r[3] for r in rows}
    assert _offers(real_only_site, cnpj) == {
        f"/dados/por-transportadora/{cnpj}/linhas.csv": f"Linhas desta transportadora (CSV, {len(prefixes)} registros)",
        f"/dados/por-transportadora/{cnpj}/horarios.csv":
            f"Quadro de horários desta transportadora (CSV, {departures} registros)"}
    folder = real_only_site / "dados" / "por-transportadora" / cnpj
    assert _csv(folder / "horarios.csv") == _cut(real_only_site, "horarios", lambda r: r["transportadora_cnpj"] == cnpj)
    assert _csv(folder / "linhas.csv") == _cut(real_only_site, "linhas", lambda r: r["prefixo"] in prefixes)
    # every carrier of the export has its files, and no file names anything but a carrier
    carriers = {r[0] for r in _csv(real_only_site / "dados" / "transportadoras.csv")[1:]}
    written = {p.name for p in (real_only_site / "dados" / "por-transportadora").iterdir()}
    assert written == carriers and len(written) == 208


def test_the_sample_offers_them_and_dados_says_how_to_open_a_csv(sample_site):
    carriers = _csv(sample_site / "dados" / "transportadoras.csv")
    offered = {c[0]: _offers(sample_site, c[0]) for c in carriers[1:]}
    assert any(offered.values())
    for links in offered.values():
        for href in links:
            assert (sample_site / href.lstrip("/")).is_file(), href
            cut = _csv(sample_site / href.lstrip("/"))
            table = Path(href).stem
            assert cut[0] == _csv(sample_site / "dados" / f"{table}.csv")[0]  # the same columns
            assert f"(CSV, {len(cut) - 1} registro" in links[href]
    dados = BeautifulSoup((sample_site / "dados" / "index.html").read_text(encoding="utf-8"), "html.parser")
    how = dados.find(id="abrir-csv").find_next("p").get_text(" ", strip=True)
    assert "sem marca de ordem de bytes (BOM)" in how and "Prefira o XLSX" in how and "65001: Unicode (UTF-8)" in how
    assert "Nos arquivos CSV e XLSX" not in dados.get_text()  # the XLSX holds text as text, with no apostrophe


def test_a_carriers_file_cut_from_the_whole_files_bytes_is_the_file_written_from_its_rows(tmp_path, monkeypatch):
    """A carrier's file is copied from the whole table's CSV, line by line (its header, then its rows' lines):
    the same bytes as its rows written alone, hostile cells (a formula, a line break, quotes) included, across
    the writer's chunks of rows."""
    import pandas as pd

    from pipeline.publish import extracts, tabular

    monkeypatch.setattr(tabular, "CHUNK", 3)
    a, b = "12345678000190", "98765432000110"
    texts = ["=HYPERLINK(\"x\")", "linha\r\ncom quebra", 'aspas "duplas", e vírgula', "São Paulo", "", "-Expresso"]
    tables = {
        "transportadoras": pd.DataFrame({"cnpj": [a, b, "não é CNPJ"]}),
        "linhas": pd.DataFrame({"prefixo": [f"12-{n:04d}-00" for n in range(12)],
                                "descricao": [texts[n % len(texts)] for n in range(12)],
                                "extensao_km": [n * 10.5 if n % 4 else None for n in range(12)]}),
        "horarios": pd.DataFrame({"transportadora_cnpj": [a if n % 3 else b for n in range(20)],
                                  "linha_prefixo": [f"12-{n % 12:04d}-00" for n in range(20)],
                                  "observacao": [texts[n % len(texts)] for n in range(20)]}),
        "outorgas": pd.DataFrame({"transportadora_cnpj": [b], "linha_prefixo": ["12-0011-00"]}),
    }
    fields = {"linhas": [("prefixo", "string"), ("descricao", "string"), ("extensao_km", "number")],
              "horarios": [("transportadora_cnpj", "string"), ("linha_prefixo", "string"), ("observacao", "string")]}
    resources = [{"name": n, "schema": {"fields": [{"name": f, "type": t} for f, t in fs]}} for n, fs in fields.items()]
    written = {}
    for r in resources:
        path = tmp_path / f"{r['name']}.csv"
        written[r["name"]] = (path, tabular.write_csv(tables[r["name"]], r, path, lines=True))
    assert extracts.write(tables, tmp_path / "cortados", written) == 4
    by_name = {r["name"]: r for r in resources}
    cut = sorted(p.relative_to(tmp_path / "cortados") for p in (tmp_path / "cortados").rglob("*.csv"))
    assert cut == sorted(Path(extracts.path(c, t)) for c, mine in extracts.rows(tables).items() for t in mine)
    for cnpj, mine in extracts.rows(tables).items():
        for table, positions in mine.items():  # the same rows written alone
            alone = tmp_path / "sozinhos" / extracts.path(cnpj, table)
            alone.parent.mkdir(parents=True, exist_ok=True)
            tabular.write_csv(tables[table].iloc[positions], by_name[table], alone)
            assert (tmp_path / "cortados" / extracts.path(cnpj, table)).read_bytes() == alone.read_bytes(), alone
    assert b"linha\r\ncom quebra" in (tmp_path / "cortados" / extracts.path(a, "horarios")).read_bytes()
