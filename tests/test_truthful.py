"""Truthful on real data: a page never states more than its sources say.

Coverage (a table no source supplies is "not covered", never "none" or 0), provenance (each source
with its publisher and date; each row with its source), fiction labelled and never mixed with real
data, the decree's revocation, legal facts only in ``pipeline/legal/`` and no machine paths in the output.
"""

from __future__ import annotations

import json
import re
import shutil
from datetime import date
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from conftest import MINIMAL, PROJECT_ROOT, cli, page_text, real_excerpt

from pipeline import SAMPLE_DIR
from pipeline.build import build
from pipeline.contract.settings import Settings
from pipeline.legal import outorgas as out
from pipeline.legal.decree import REVOCATION

UNCOVERED_IN_REAL = ["secoes", "outorgas", "tarifas", "tarifas_promocionais", "infracoes", "caducidades"]
# Every way a page could assert the absence of rows of those tables, as earlier versions wrote it and as
# the coverage sentences write it for a covered table.
ABSENCE = re.compile(
    r"Nenhum(a)? (tarifa|outorga|auto de infração|caducidade|promoção|tarifa promocional|seção|achado para)"
    r"|\b0 vigentes de 0\b|\b0 de 0 (estariam vigentes|outorgas)\b|\b0 autos\b|\b0 caducidades\b|\b0 outorgas\b"
)


def html_pages(site: Path) -> list[Path]:
    return sorted(site.rglob("*.html"))


# --- coverage on the real export -----------------------------------------------------------------


@pytest.mark.slow
def test_no_page_of_the_real_export_asserts_the_absence_of_an_uncovered_table(real_only_site):
    pages = html_pages(real_only_site)
    assert len(pages) > 4000  # every line and carrier page, walked one by one
    offending = {p.relative_to(real_only_site).as_posix(): m[0] for p in pages
                 if (m := ABSENCE.search(page_text(p)))}
    assert offending == {}


@pytest.mark.slow
def test_real_line_page_says_which_tables_its_sources_do_not_include(real_only_site):
    text = page_text(real_only_site / "linhas" / "12-0140-00" / "index.html")
    for sentence in ("As fontes deste site não incluem tarifas máximas.",
                     "As fontes deste site não incluem outorgas (permissões e autorizações).",
                     "As fontes deste site não incluem autos de infração.",
                     "As fontes deste site não incluem tarifas promocionais.",
                     "As fontes deste site não incluem seções das linhas."):
        assert sentence in text


@pytest.mark.slow
def test_real_line_page_dates_its_timetable(real_only_site):
    page = BeautifulSoup((real_only_site / "linhas" / "12-0140-00" / "index.html").read_text(encoding="utf-8"),
                         "html.parser")
    section = " ".join(page.find(id="horarios-titulo").parent.get_text(" ").split())
    assert "Fonte: ANTT — Agência Nacional de Transportes Terrestres, Quadro de horários 2021 (dados de 2021)." in section
    assert "não são necessariamente os de hoje" in section
    # the calculation date and the data's date are told apart in the footer
    footer = " ".join(page.find("footer").get_text(" ").split())
    assert "Quadro de horários 2021 (dados de 2021)" in footer
    assert "calculados em 29/11/2026 (data de referência dos cálculos, não a data dos dados)" in footer


@pytest.mark.slow
def test_real_home_page_counts_uncovered_tables_as_not_covered(real_only_site):
    page = BeautifulSoup((real_only_site / "index.html").read_text(encoding="utf-8"), "html.parser")
    numbers = [" ".join(li.get_text(" ").split()) for li in page.select("ul.numeros li")]
    assert "3.896 linhas" in numbers and "208 transportadoras" in numbers
    assert "não coberto As fontes deste site não incluem outorgas (permissões e autorizações)." in numbers
    assert "não coberto As fontes deste site não incluem autos de infração." in numbers
    assert not any(re.match(r"0 ", n) for n in numbers)


@pytest.mark.slow
def test_findings_page_lists_the_rules_it_could_not_check_and_why(real_only_site):
    page = BeautifulSoup((real_only_site / "achados" / "index.html").read_text(encoding="utf-8"), "html.parser")
    rules = {dt["id"].removeprefix("regra-"): " ".join(dt.find_next("dd").get_text(" ").split())
             for dt in page.select("dl.regras dt")}
    assert len(rules) == 6
    assert all("não verificada" in text for text in rules.values())
    assert "caducidades" in rules["caducidade-sem-comunicacoes"]
    assert "infracoes , outorgas" in rules["operacao-apos-vencimento"]
    assert "Nenhuma regra pôde ser verificada" in page_text(real_only_site / "achados" / "index.html")


@pytest.mark.slow
def test_validation_report_says_not_covered_instead_of_zero(real_only_site):
    report = json.loads((real_only_site / "dados" / "validacao.json").read_text(encoding="utf-8"))
    for table in UNCOVERED_IN_REAL:
        assert report["linhas_lidas"][table] == "não coberto"
        assert report["linhas_aceitas"][table] == "não coberto"
        assert report["cobertura"][table] == "não coberto"
    assert report["linhas_lidas"]["horarios"] == 11468
    assert report["cobertura"]["horarios"] == ["antt-quadro-de-horarios-2021"]
    assert set(report["regras_nao_verificadas"]) == {
        "promocao-sem-antecedencia", "promocao-acima-do-maximo", "promocao-sem-outorga",
        "outorga-durante-impedimento", "caducidade-sem-comunicacoes", "operacao-apos-vencimento"}


@pytest.mark.slow
def test_data_page_marks_uncovered_tables(real_only_site):
    page = BeautifulSoup((real_only_site / "dados" / "index.html").read_text(encoding="utf-8"), "html.parser")
    table = page.find("caption", string="Tabelas publicadas").parent
    counts = {" ".join(tr.th.get_text(" ").split()): tr.find_all("td")[1].get_text(strip=True)
              for tr in table.tbody.find_all("tr")}
    assert counts["Tarifas máximas"] == "não coberto"
    assert counts["Quadro de horários"] == "11.468"


# --- a table a source covers, with no rows for this record --------------------------------------


def test_a_covered_table_without_rows_for_the_record_names_its_source(tmp_path):
    folder = tmp_path / "fonte"
    shutil.copytree(MINIMAL, folder)
    (folder / "infracoes.csv").write_text(
        (MINIMAL / "infracoes.csv").read_text(encoding="utf-8").splitlines()[0] + "\n", encoding="utf-8")
    descriptor = json.loads((SAMPLE_DIR / "datapackage.json").read_text(encoding="utf-8"))
    descriptor["sources"] = [{"name": "orgao-x-2024", "title": "Autos de 2024", "publisher": "Órgão X",
                              "date": "2024-12", "license": "CC-BY-4.0", "fictional": False}]
    (folder / "datapackage.json").write_text(json.dumps(descriptor), encoding="utf-8")
    site = tmp_path / "site"
    build(Settings(data=(folder,), out=site, as_of=date(2026, 6, 30), search_index=False))
    text = page_text(site / "linhas" / "12-0140-00" / "index.html")
    assert ("Nenhum auto de infração registrado para esta linha na fonte Órgão X, Autos de 2024 "
            "(dados de 12/2024).") in text


# --- provenance -----------------------------------------------------------------------------------


@pytest.mark.slow
def test_published_package_lists_its_sources_with_dates_and_the_ingest_report(real_only_site, real_package):
    dp = json.loads((real_only_site / "dados" / "datapackage.json").read_text(encoding="utf-8"))
    antt = next(s for s in dp["sources"] if s["name"] == "antt-quadro-de-horarios-2021")
    assert antt["publisher"].startswith("ANTT") and antt["date"] == "2021" and antt["license"]
    assert antt["path"].startswith("https://") and antt["fictional"] is False
    report = real_only_site / "dados" / antt["x-relatorio-de-ingestao"]
    assert report == real_only_site / "dados" / "fontes" / "antt-quadro-de-horarios-2021" / "ingest-report.json"
    published = json.loads(report.read_text(encoding="utf-8"))
    assert published["lidas"] == 11477 and published["duplicadas"] == 9
    assert published == json.loads((real_package / "ingest-report.json").read_text(encoding="utf-8"))
    assert dp["x-ficticio"] is False
    # the sources are shown on /dados/ and /sobre/, with the report linked
    for page in ("dados", "sobre"):
        soup = BeautifulSoup((real_only_site / page / "index.html").read_text(encoding="utf-8"), "html.parser")
        assert soup.find("a", href="/dados/fontes/antt-quadro-de-horarios-2021/ingest-report.json"), page
        assert "Quadro de horários 2021" in soup.get_text()


def test_published_rows_carry_their_source(tmp_path):
    main, extra = tmp_path / "ingerido", tmp_path / "outra-fonte"
    shutil.copytree(MINIMAL, main)
    extra.mkdir()
    shutil.move(main / "tarifas.csv", extra / "tarifas.csv")
    site = tmp_path / "site"
    build(Settings(data=(main, extra), out=site, as_of=date(2026, 6, 30), search_index=False))
    dados = site / "dados"
    fares = json.loads((dados / "tarifas.json").read_text(encoding="utf-8"))
    lines = json.loads((dados / "linhas.json").read_text(encoding="utf-8"))
    assert {r["fonte"] for r in fares} == {"nao-declarada-outra-fonte"}
    assert {r["fonte"] for r in lines} == {"nao-declarada-ingerido"}
    dp = json.loads((dados / "datapackage.json").read_text(encoding="utf-8"))
    fields = next(r for r in dp["resources"] if r["name"] == "tarifas")["schema"]["fields"]
    assert fields[-1]["name"] == "fonte"
    assert {s["name"]: s["declared"] for s in dp["sources"]} == {
        "nao-declarada-ingerido": False, "nao-declarada-outra-fonte": False,
        "decreto-952-1993": True}  # enquadramentos: no folder has them, the project takes them from art. 78
    # a folder without a descriptor reads "fonte não declarada" where its rows are shown
    assert "fonte não declarada (pasta outra-fonte)" in page_text(site / "linhas" / "12-0140-00" / "index.html")


def test_ingest_options_set_the_source_url_and_date(tmp_path):
    target = tmp_path / "pacote"
    proc = cli("ingest", "antt-horarios", str(PROJECT_ROOT / "tests/fixtures/antt/horarios-formato-novo.csv"),
               "--out", str(target), "--fonte-url", "https://exemplo.gov.br/quadro.csv",
               "--data-referencia", "2024-03")
    assert proc.returncode == 0, proc.stderr
    [source] = json.loads((target / "datapackage.json").read_text(encoding="utf-8"))["sources"]
    assert source["path"] == "https://exemplo.gov.br/quadro.csv" and source["date"] == "2024-03"
    assert source["title"] == "Quadro de horários 2024" and source["fictional"] is False
    bad = cli("ingest", "antt-horarios", str(PROJECT_ROOT / "tests/fixtures/antt/horarios-formato-novo.csv"),
              "--out", str(tmp_path / "outro"), "--data-referencia", "03/2024")
    assert bad.returncode == 1 and '--data-referencia "03/2024" não é AAAA, AAAA-MM nem AAAA-MM-DD' in bad.stderr


# --- fiction ---------------------------------------------------------------------------------------


def test_every_page_of_the_sample_build_carries_the_fictional_banner(sample_site):
    pages = html_pages(sample_site)
    assert len(pages) > 100
    missing = [p.relative_to(sample_site).as_posix() for p in pages
               if not BeautifulSoup(p.read_text(encoding="utf-8"), "html.parser").select_one("p.ficticio")]
    assert missing == []
    banner = BeautifulSoup((sample_site / "index.html").read_text(encoding="utf-8"), "html.parser")
    assert banner.select_one("p.ficticio").get_text(" ").startswith("Dados fictícios, para demonstração.")


def test_the_sample_package_and_each_download_say_fictional(sample_site):
    from openpyxl import load_workbook

    dp = json.loads((sample_site / "dados" / "datapackage.json").read_text(encoding="utf-8"))
    assert dp["x-ficticio"] is True and dp["title"].startswith("Dados fictícios, para demonstração")
    assert all(r["title"].startswith("Dados fictícios, para demonstração — ") for r in dp["resources"])
    assert [s["fictional"] for s in dp["sources"]] == [True]
    book = load_workbook(sample_site / "dados" / "linhas.xlsx", read_only=True)
    assert book.properties.title.startswith("Dados fictícios, para demonstração")


@pytest.mark.slow
def test_a_real_build_has_no_fictional_banner(real_only_site):
    assert not BeautifulSoup((real_only_site / "index.html").read_text(encoding="utf-8"),
                             "html.parser").select_one("p.ficticio")


def test_combining_the_sample_with_the_real_ingest_is_refused(real_package, tmp_path):
    proc = cli("build", "--data", str(SAMPLE_DIR), "--data", str(real_package), "--out", str(tmp_path / "s"),
               "--no-search")
    assert proc.returncode == 2
    assert 'a pasta "datasets" é fictícia' in proc.stderr and 'a pasta "antt-horarios" não é' in proc.stderr
    assert not (tmp_path / "s").exists()
    check = cli("validate", str(real_package), str(SAMPLE_DIR))
    assert check.returncode == 2 and "dados fictícios nunca são combinados com dados reais" in check.stderr


@pytest.mark.slow
def test_an_explicit_option_allows_the_mix_and_the_banner_stays(tmp_path):
    """The sample beside a real ingest: the real export's first lines (``conftest.real_excerpt``)."""
    real = real_excerpt(tmp_path)
    site = tmp_path / "s"
    build(Settings(data=(SAMPLE_DIR, real), out=site, as_of=date(2026, 11, 29), search_index=False,
                   allow_mixed_sources=True))
    assert BeautifulSoup((site / "linhas" / "12-0140-00" / "index.html").read_text(encoding="utf-8"),
                         "html.parser").select_one("p.ficticio")


# --- conflicts -----------------------------------------------------------------------------------


def test_conflicting_sources_are_counted_first_and_shown_on_the_record(tmp_path):
    main, extra = tmp_path / "ingerido", tmp_path / "outra-fonte"
    shutil.copytree(MINIMAL, main)
    extra.mkdir()
    (extra / "transportadoras.csv").write_text(
        "cnpj,razao_social,nome_fantasia,uf,municipio\n11222333000181,VIACAO CERRADO S.A.,Cerrado,GO,GOIANIA\n",
        encoding="utf-8")
    site = tmp_path / "site"
    build(Settings(data=(main, extra), out=site, as_of=date(2026, 6, 30), search_index=False))
    quality = BeautifulSoup((site / "dados" / "qualidade" / "index.html").read_text(encoding="utf-8"), "html.parser")
    summary = [" ".join(li.get_text(" ").split()) for li in quality.select("main ul.numeros li")]
    assert summary[0] == "0 erro(s)" and summary[2] == "1 conflito(s) entre fontes"
    assert "Nenhum erro encontrado" not in quality.get_text()
    assert "As fontes divergem em 1 registro(s)" in quality.get_text()
    carrier = BeautifulSoup((site / "transportadoras" / "11222333000181" / "index.html").read_text(encoding="utf-8"),
                            "html.parser")
    warning = carrier.find(id="conflitos-titulo").parent.get_text(" ")
    assert "As fontes divergem sobre este registro" in warning
    assert "outra-fonte/transportadoras.csv, linha 2" in " ".join(warning.split())
    assert "VIACAO CERRADO S.A." in warning
    other = page_text(site / "transportadoras" / "77888999000181" / "index.html")  # no other source names it
    assert "TRANSPORTES FRONTEIRA LTDA" in other and "As fontes divergem" not in other


# --- completeness ------------------------------------------------------------------------------


@pytest.mark.slow
def test_quality_page_shows_filled_shares_and_the_period_of_each_source(real_only_site):
    report = json.loads((real_only_site / "dados" / "validacao.json").read_text(encoding="utf-8"))
    shares = report["completude"]["tabelas"]
    assert shares["transportadoras"]["colunas"]["cnpj"] == 1.0
    assert shares["transportadoras"]["colunas"]["uf"] == 0.0  # the export has no UF for carriers
    assert "tarifas" not in shares  # not covered: nothing to measure, never 0 %
    [period] = report["completude"]["periodos_por_fonte"]["antt-quadro-de-horarios-2021"]
    assert (period["tabela"], period["coluna"]) == ("horarios", "data_autorizacao")
    assert period["inicio"][:4] == "1955" and period["fim"][:4] == "2020"
    text = page_text(real_only_site / "dados" / "qualidade" / "index.html")
    assert "horarios.data_autorizacao 27/04/1955 14/10/2020" in text
    assert "uf 0,0 %" in text


# --- the decree's status ----------------------------------------------------------------------------


@pytest.mark.parametrize("page", ["decreto", "direitos", "sobre"])
def test_pages_state_the_revocation(sample_site, page):
    text = page_text(sample_site / page / "index.html")
    assert "revogado pelo Decreto nº 2.521" in text
    main = BeautifulSoup((sample_site / page / "index.html").read_text(encoding="utf-8"), "html.parser").main
    assert "revogado pelo Decreto nº 2.521" in " ".join(main.get_text(" ").split())


def test_footer_of_every_page_states_the_revocation(sample_site):
    for p in html_pages(sample_site):
        footer = BeautifulSoup(p.read_text(encoding="utf-8"), "html.parser").find("footer")
        assert footer and "revogado pelo Decreto nº 2.521/1998" in footer.get_text(" "), p


@pytest.mark.parametrize("page", ["decreto", "direitos"])
def test_1993_currency_is_transcribed_with_a_note(sample_site, page):
    soup = BeautifulSoup((sample_site / page / "index.html").read_text(encoding="utf-8"), "html.parser")
    art69 = soup.find("section", id="art-69")
    assert "CR$ 5.000,00" in art69.get_text()
    assert "cruzeiros reais (CR$) de 1993" in art69.select_one(".nota-editorial").get_text()
    assert REVOCATION in " ".join(soup.get_text(" ").split())


def test_no_page_calls_the_decree_the_law_in_force(sample_site):
    for p in html_pages(sample_site):
        text = page_text(p)
        assert not re.search(r"(lei|decreto|norma) (atualmente )?em vigor(?! )", text, re.I) or \
            "não o apresenta como" in text or "não é a lei em vigor" in text or \
            "não apresenta o decreto como lei em vigor" in text, p


# --- legal facts only in pipeline/legal -----------------------------------------------------------


def test_a_1990_to_1992_outorga_is_not_an_art_94_case():
    # ended before the decree's publication: art. 94 kept only outorgas current on that day
    term = out.term("autorizacao", "regular", date(1990, 1, 1), date(1992, 12, 31), False)
    assert term.vencimento == date(1992, 12, 31) and term.fundamento.startswith("art. 3º IV")
    permit = out.term("permissao", "regular", date(1990, 1, 1), date(1992, 12, 31), False)
    assert permit.vencimento == date(2005, 1, 1) and permit.fundamento.startswith("art. 10")
    current = out.term("permissao", "regular", date(1990, 1, 1), None, False)
    assert current.vencimento == date(2008, 10, 8) and current.fundamento.startswith("art. 94")


def test_the_1990_to_1992_outorga_page_cites_the_basis_the_rule_used(package, tmp_path):
    package.append("outorgas.csv", "OUT-1990,autorizacao,regular,11222333000181,12-0140-00,1990-01-01,1992-12-31,"
                                   "false,,,Autorização nº 7/1990,")
    site = tmp_path / "site"
    build(Settings(data=(package.path,), out=site, as_of=date(2026, 6, 30), search_index=False))
    page = BeautifulSoup((site / "outorgas" / "out-1990" / "index.html").read_text(encoding="utf-8"), "html.parser")
    fields = {dt.get_text(strip=True): dt.find_next("dd") for dt in page.select("dl.ficha dt")}
    vencimento = " ".join(fields["Vencimento"].get_text(" ").split())
    assert vencimento.startswith("31/12/1992 ( art. 3º IV")
    assert "art. 94" not in vencimento and not fields["Vencimento"].find("a", href="/decreto/#art-94")
    published = json.loads((site / "dados" / "outorgas.json").read_text(encoding="utf-8"))
    row = next(r for r in published if r["id"] == "OUT-1990")
    assert row["vencimento_fundamento"].startswith("art. 3º IV")


LEGAL_NUMBER = re.compile(r"\b\d+\s*(dias?( úteis)?|meses|anos|horas)\b|menos de \d+|\b\d+\s*%")


def test_no_template_holds_a_legal_number():
    found = {}
    for template in sorted((PROJECT_ROOT / "theme" / "templates").glob("*.html")):
        for n, line in enumerate(template.read_text(encoding="utf-8").splitlines(), 1):
            if m := LEGAL_NUMBER.search(line):
                found[f"{template.name}:{n}"] = m[0]
    assert found == {}


def test_the_legal_number_check_catches_what_it_should():
    assert LEGAL_NUMBER.search("(art. 41: 180 dias)") and LEGAL_NUMBER.search("<strong>(menos de 30)</strong>")
    assert LEGAL_NUMBER.search("por 24 meses") and LEGAL_NUMBER.search("15 dias úteis")
    assert not LEGAL_NUMBER.search("{{ lei.impedimento_meses }} meses")


# --- no machine paths -------------------------------------------------------------------------------


def test_no_output_file_holds_a_path_of_the_build_machine(tmp_path):
    folder = tmp_path / "uma-pasta-de-dados"
    shutil.copytree(MINIMAL, folder)
    with open(folder / "linhas.csv", "a", encoding="utf-8") as fh:  # a rejected row: it names its file
        fh.write("99-9999-99,X,,,,interestadual,,\n")
    site = tmp_path / "site"
    build(Settings(data=(folder,), out=site, as_of=date(2026, 6, 30), search_index=False, lenient=True))
    machine = [str(tmp_path), str(PROJECT_ROOT), "/tmp/", "/home/", "/root/"]
    leaks = {}
    for f in site.rglob("*"):
        if f.is_file() and f.suffix not in (".xlsx", ".zip"):  # both are compressed; their content is the CSVs'
            data = f.read_bytes()
            hits = [m for m in machine if m.encode() in data]
            if hits:
                leaks[f.relative_to(site).as_posix()] = hits
    assert leaks == {}
    report = json.loads((site / "dados" / "validacao.json").read_text(encoding="utf-8"))
    assert any(p["arquivo"] == "uma-pasta-de-dados/linhas.csv" for p in report["problemas"])


def test_methodology_states_the_numbers_legal_applies():
    """content/pages/metodologia.md explains the rules in prose; its numbers must be the ones the code
    applies (pipeline/legal/), so that a change of rule cannot leave the explanation behind."""
    from pipeline.legal import numbers

    text = " ".join((PROJECT_ROOT / "content" / "pages" / "metodologia.md").read_text(encoding="utf-8").split())
    n = numbers()
    expected = [f"{n['permissao_anos']} anos", f"{n['emergencial_dias']} dias", f"{n['impedimento_meses']} meses",
                f"{n['defesa_dias_uteis']} dias úteis", f"{n['recurso_dias_uteis']} dias úteis",
                f"{n['antecedencia_promocao_dias']} dias"]
    assert [e for e in expected if e not in text] == []


@pytest.mark.slow
def test_catalogues_never_count_rows_of_an_uncovered_table(real_only_site):
    """The real export covers no fares: the catalogues and the table's page say its rows are unknown,
    never "0 linhas"."""
    catalogue = json.loads((real_only_site / "dados" / "catalogo.jsonld").read_text(encoding="utf-8"))
    text = json.dumps(catalogue, ensure_ascii=False)
    start = text.index("A tabela Tarifas máximas (tarifas)")
    sentence = text[start:text.index("Fontes:", start)]
    assert "linhas" not in sentence.split("colunas")[1]
    described = text[text.rindex("\"", 0, start):start]  # the table's own description, before that sentence
    assert "As fontes deste site não incluem esta tabela" in described + sentence
    page = BeautifulSoup((real_only_site / "dados" / "tarifas" / "index.html").read_text(encoding="utf-8"), "html.parser")
    schema_org = json.loads(page.find("script", type="application/ld+json").string)
    assert "0 linhas" not in schema_org["description"] and "desconhecidos" in schema_org["description"]
    assert "Nenhuma fonte desta versão fornece esta tabela" in page.get_text(" ")
