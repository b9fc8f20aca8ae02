"""Nothing claims what the sources lack (issue 25): a page's title, its summary (``<meta name="description">``)
and its introduction name only the tables a source covers (pipeline/site/coverage.py ``Coverage.listing``);
a count of findings is a number only over the rules that ran ("não verificados" where none could,
pipeline/site/context.py ``Tally``); /verificar/ says when no act of the build has a code to verify.

Checked on the build of the regulator's real timetable export alone (``real_only_site``: timetable, lines
and carriers, no fares, acts or infractions) against the minimal package, which covers every table (``site``).
"""

from __future__ import annotations

import html
import json
import re
import shutil
from datetime import date
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from conftest import MINIMAL, page_text

from pipeline.build import build
from pipeline.contract.settings import Settings
from pipeline.site.context import Tally
from pipeline.site.coverage import NOUNS, Coverage, join

# the words that name a table's records in a title or a summary
WORDS = {
    "tarifas": ("tarifa",),
    "tarifas_promocionais": ("promoç", "tarifas promocionais"),
    "infracoes": ("infraç",),
    "outorgas": ("outorga",),
    "caducidades": ("caducidade",),
}
# how a title or a summary may still name a table no source covers: saying so
NEGATIONS = ("fora das fontes deste site", "As fontes deste site não incluem")
# the decree's text and the notice of art. 34 name what the regime registered, not what the sources hold
LAW = re.compile(r"^(decreto|direitos)/")
# a data dictionary (/dados/<tabela>/) describes its table's structure: only its own table is its subject
DICTIONARY = re.compile(r"^dados/(\w+)/index\.html$")
# the city and pair pages (cidade.html, cidade_para.html): checked by their own test below
CITY_PAGES = re.compile(r"^cidades/[^/]+/[^/]+/")

_TITLE = re.compile(r"<title>(.*?)</title>", re.S)
_DESCRIPTION = re.compile(r'<meta name="description" content="(.*?)">', re.S)


def summaries(site: Path):
    """``(page, "title" | "description", text)`` of every HTML page of ``site``."""
    for path in sorted(site.rglob("*.html")):
        head = path.read_text(encoding="utf-8").split("</head>", 1)[0]
        page = path.relative_to(site).as_posix()
        for field, pattern in (("title", _TITLE), ("description", _DESCRIPTION)):
            if m := pattern.search(head):
                yield page, field, html.unescape(" ".join(m[1].split()))


def uncovered_claims(site: Path, uncovered: set[str], skip=CITY_PAGES) -> dict[str, str]:
    """Each title or summary that names a table of ``uncovered`` without saying that no source covers it."""
    out = {}
    for page, field, text in summaries(site):
        if LAW.match(page) or (skip is not None and skip.match(page)):
            continue
        dictionary = DICTIONARY.match(page)
        tables = [dictionary[1]] if dictionary else WORDS
        for table in tables:
            if table not in uncovered or table not in WORDS:
                continue
            if any(w in text.lower() for w in WORDS[table]) and not any(n in text for n in NEGATIONS):
                out[f"{page} ({field})"] = text
    return out


def soup(site: Path, page: str) -> BeautifulSoup:
    return BeautifulSoup((site / page).read_text(encoding="utf-8"), "html.parser")


def words(node) -> str:
    return " ".join(node.get_text(" ").split()).replace(" :", ":").replace(" .", ".").replace(" ;", ";")


# --- titles, summaries and introductions ----------------------------------------------------------


@pytest.mark.slow
def test_no_title_or_summary_of_the_real_export_promises_an_uncovered_table(real_only_site):
    assert uncovered_claims(real_only_site, set(WORDS)) == {}
    found = dict(((p, f), t) for p, f, t in summaries(real_only_site))
    # what they say instead
    assert found[("index.html", "description")] == \
        "Linhas, horários e transportadoras: registros do regime que substituiu o Decreto nº 952/1993"
    assert found[("linhas/12-0140-00/index.html", "description")] == \
        "Linha 12-0140-00 de BRASILIA (DF) a CALDAS NOVAS (GO): horários e transportadoras."
    assert found[("transportadoras/30069314000101/index.html", "description")] == \
        "AUTO VIAÇÃO 1001 LTDA., CNPJ 30.069.314/0001-01: linhas."
    assert found[("cidades/index.html", "description")].endswith("de onde partem, para onde vão, com horários.")
    assert found[("outorgas/index.html", "title")].startswith("Outorgas (fora das fontes deste site) — ")
    assert found[("dados/tarifas/index.html", "title")].startswith("Tarifas máximas: dicionário de dados (fora das fontes deste site)")
    assert found[("dados/tarifas/index.html", "description")].startswith("As fontes deste site não incluem tarifas máximas. ")


def test_titles_and_summaries_name_every_table_when_every_one_is_covered(site):
    claims = uncovered_claims(site, set(WORDS), skip=None)
    for table, kinds in WORDS.items():  # each kind is named somewhere, and nowhere as absent
        assert any(any(w in text.lower() for w in kinds) for text in claims.values()), table
    found = dict(((p, f), t) for p, f, t in summaries(site))
    assert not any(n in text for text in found.values() for n in NEGATIONS)
    assert found[("index.html", "description")] == ("Linhas, horários, tarifas máximas, transportadoras, outorgas, "
                                                    "promoções, infrações e caducidades: registros do regime do "
                                                    "Decreto nº 952/1993 (revogado em 1998) e do que o substituiu")
    assert found[("linhas/12-0140-00/index.html", "description")].endswith(
        ": horários, tarifas máximas, transportadoras, outorgas, promoções e infrações.")
    assert found[("transportadoras/11222333000181/index.html", "description")] == \
        "VIACAO CERRADO LTDA, CNPJ 11.222.333/0001-81: outorgas, linhas, promoções, infrações e caducidades."
    assert found[("cidades/index.html", "description")].endswith("com horários e tarifas máximas.")
    assert found[("outorgas/index.html", "title")].startswith("Outorgas — ")


@pytest.mark.slow
def test_real_introductions_name_only_what_the_sources_cover(real_only_site):
    home = soup(real_only_site, "index.html")
    assert words(home.select_one("p.lead")) == ("Linhas, horários e transportadoras: registros do regime que substituiu "
                                               "o Decreto nº 952/1993. Consulte as linhas e os horários de partida, e "
                                               "baixe todos os dados.")
    assert words(home.find(id="de-para-titulo").find_next("p")) == \
        "As linhas que ligam duas cidades, com as partidas por dia da semana."
    assert words(home.find("label", attrs={"for": "q"})) == "Buscar linha, cidade ou transportadora"
    dados = words(soup(real_only_site, "dados/index.html").find("h1").find_next("p"))
    assert dados.startswith("Pacote de dados de origem do portal: linhas, horários e transportadoras. Os registros de "
                            "transportadoras, linhas e horários são do regime que substituiu o Decreto nº 952/1993")
    busca = soup(real_only_site, "busca/index.html")
    assert words(busca.find("label", attrs={"for": "q"})) == "Buscar linha, cidade, transportadora ou CNPJ"
    assert not busca.select('ul.indices a[href="/outorgas/"]') and not busca.select('ul.indices a[href="/caducidades/"]')
    sobre = page_text(real_only_site / "sobre" / "index.html")
    assert "Este portal publica, dos registros do serviço" in sobre and "os que as suas fontes incluem" in sobre
    assert ("As fontes desta versão dos dados incluem transportadoras, linhas, horários e enquadramentos. Não incluem "
            "seções, outorgas, tarifas máximas, promoções, infrações, caducidades,") in sobre
    missing = soup(real_only_site, "404.html")
    assert words(missing.find("h1").find_next("p")).endswith("pelo identificador (prefixo da linha ou CNPJ):")
    assert words(missing.find("label", attrs={"for": "q"})) == "Buscar linha, cidade ou transportadora"


def test_full_introductions_keep_every_table(site):
    home = soup(site, "index.html")
    assert words(home.select_one("p.lead")).endswith(
        "Consulte as linhas e suas tarifas máximas, os horários de partida, quem tem permissão para operá-las, as "
        "promoções registradas, as infrações e as caducidades, e baixe todos os dados.")
    assert words(home.find("label", attrs={"for": "q"})) == "Buscar linha, cidade, transportadora ou ato"
    assert words(soup(site, "busca/index.html").find("label", attrs={"for": "q"})) == \
        "Buscar linha, cidade, transportadora, CNPJ, outorga ou número de auto de infração"
    assert "As fontes desta versão dos dados incluem transportadoras, linhas, seções," in page_text(site / "sobre" / "index.html")


@pytest.mark.slow
def test_city_and_pair_titles_promise_only_covered_tables(real_only_site):
    claims = uncovered_claims(real_only_site, set(WORDS), skip=None)
    assert {page for page in claims if CITY_PAGES.match(page)} == set()


def test_coverage_lists_only_the_covered_tables():
    some = Coverage({}, {"linhas": ["a"], "horarios": ["a"], "transportadoras": ["a"]})
    assert some.listing("horarios", "tarifas", "transportadoras", "infracoes") == "horários e transportadoras"
    assert some.listing("tarifas", "infracoes") == ""
    assert some.subtitle() == "Linhas, horários e transportadoras"  # no source says of which regime: nothing said
    assert some.outside("outorgas") == " (fora das fontes deste site)" and some.outside("linhas") == ""
    assert some.missing("outorgas", "linhas", "caducidades", conjunction="nem") == "outorgas nem caducidades"
    every = Coverage({}, {t: ["a"] for t in NOUNS})
    assert every.listing("tarifas", "tarifas_promocionais", "infracoes") == "tarifas máximas, promoções e infrações"
    assert every.missing() == ""
    assert join(["a"]) == "a" and join([]) == "" and join(["a", None, "b"], "ou") == "a ou b"


# --- counts of findings ---------------------------------------------------------------------------


def test_a_tally_is_a_number_only_over_the_rules_that_ran():
    def tally(found, unchecked):
        return Tally(found, 6, tuple(unchecked), ("achado", "achados"), "Achados não verificados").text

    assert tally(0, "ABCDEF") == "Achados não verificados: nenhuma das 6 regras pôde ser verificada com as fontes deste site"
    assert tally(0, "AB") == "0 achados nas 4 regras verificadas; 2 regras não verificadas: A; B"
    assert tally(1, "ABCDE") == "1 achado na única regra verificada; 5 regras não verificadas: A; B; C; D; E"
    assert tally(6, "") == "6 achados (6 de 6 regras verificadas)"
    assert tally(0, "") == "0 achados (6 de 6 regras verificadas)"


@pytest.mark.slow
def test_real_export_counts_no_finding_where_no_rule_ran(real_only_site):
    unchecked = "Achados não verificados: nenhuma das 6 regras pôde ser verificada com as fontes deste site"
    home = soup(real_only_site, "index.html")
    assert words(home.select_one('ul.numeros a[href="/achados/"]')) == unchecked
    intro = words(soup(real_only_site, "achados/index.html").find("h1").find_next("p"))
    assert f"Em 29/11/2026: {unchecked}." in intro
    dados = soup(real_only_site, "dados/index.html")
    table = dados.find("caption", string="Tabelas publicadas").parent
    counts = {words(tr.th): words(tr.find_all("td")[1]) for tr in table.tbody.find_all("tr")}
    assert counts["Achados"] == unchecked
    assert counts["Inconsistências entre publicações"] == \
        "Inconsistências não verificadas: nenhuma das 4 regras pôde ser verificada com as fontes deste site"
    for page in ("index.html", "achados/index.html", "dados/index.html"):
        assert not re.search(r"\b0 (achados|inconsistências)\b", page_text(real_only_site / page)), page


def test_some_rules_unchecked_and_none_finding_reads_zero_over_the_checked_ones(tmp_path):
    folder = tmp_path / "fonte"
    shutil.copytree(MINIMAL, folder)
    (folder / "caducidades.csv").unlink()  # two rules read it: not checked
    for name in ("tarifas_promocionais.csv", "infracoes.csv"):  # covered, with no rows: their rules find nothing
        (folder / name).write_text((MINIMAL / name).read_text(encoding="utf-8").splitlines()[0] + "\n", encoding="utf-8")
    site = tmp_path / "site"
    build(Settings(data=(folder,), out=site, as_of=date(2026, 6, 30), search_index=False))
    expected = ("0 achados nas 4 regras verificadas; 2 regras não verificadas: Outorga durante impedimento por "
                "caducidade; Caducidade sem as duas comunicações prévias")
    assert words(soup(site, "index.html").select_one('ul.numeros a[href="/achados/"]')) == expected
    assert f"Em 30/06/2026: {expected}." in words(soup(site, "achados/index.html").find("h1").find_next("p"))
    table = soup(site, "dados/index.html").find("caption", string="Tabelas publicadas").parent
    counts = {words(tr.th): words(tr.find_all("td")[1]) for tr in table.tbody.find_all("tr")}
    assert counts["Achados"] == expected
    # the outorgas are covered and carry codes: /verificar/ invites to type one, as before
    assert soup(site, "verificar/index.html").find("form", attrs={"data-sem-codigos": True}) is None


# --- /verificar/ ----------------------------------------------------------------------------------


@pytest.mark.slow
def test_real_export_verification_page_says_no_act_has_a_code(real_only_site):
    page = soup(real_only_site, "verificar/index.html")
    reason = ("Nenhum ato desta versão dos dados tem código de verificação: as fontes deste site não incluem outorgas "
              "nem caducidades, os atos que o trazem. Não há código a verificar aqui.")
    assert words(page.find("h1").find_next("p")) == reason
    assert page.find("form", attrs={"data-verificar": True})["data-sem-codigos"] == reason
    assert "digite-o" not in page_text(real_only_site / "verificar" / "index.html")
    assert "confira a digitação" not in page_text(real_only_site / "verificar" / "index.html")
    # the script answers with the page's reason before looking anything up
    script = (real_only_site / "tema" / "js" / "verificar.js").read_text(encoding="utf-8")
    assert script.index('if (none) { return say(none); }') < script.index("fetch(")
    assert json.loads((real_only_site / "verificar" / "00.json").read_text(encoding="utf-8")) == {}


def test_verification_page_invites_to_type_a_code_where_acts_have_one(site):
    page = soup(site, "verificar/index.html")
    assert words(page.find("h1").find_next("p")).startswith("Cada página de outorga e de caducidade traz um código")
    assert not page.find("form", attrs={"data-verificar": True}).has_attr("data-sem-codigos")


@pytest.mark.slow
def test_real_export_verification_answers_that_no_code_exists(browser, real_only_site):
    from browser_support import _open, _serve

    served = _serve(real_only_site)
    base_url = next(served)
    tab = _open(browser, base_url)
    try:
        from playwright.sync_api import expect

        tab.page.goto("/verificar/?codigo=0000-0000-0000")
        result = tab.page.locator("#resultado-verificacao")
        expect(result).to_contain_text("Nenhum ato desta versão dos dados tem código de verificação")
        assert "confira a digitação" not in result.inner_text()
        assert tab.console_errors == []
    finally:
        tab.page.context.close()
        next(served, None)


# --- the calculators and the poster (issue 25: done before; kept) --------------------------------


@pytest.mark.slow
def test_real_export_calculators_and_posters_still_speak_of_the_rules_of_1993(real_only_site):
    text = re.sub(r"\(\s+", "(", re.sub(r"\s+\)", ")", page_text(real_only_site / "direitos" / "index.html")))
    assert "Calcule pelas regras de 1993" in text
    for legend in ("Excesso de bagagem pelas regras de 1993 (art. 65)", "Desistir ou remarcar pelas regras de 1993 (art. 64)",
                   "Criança pagava? Regras de 1993 (art. 32, inciso XVII)"):
        assert legend in text
    for path in ("direitos/cartaz/index.html", "direitos/cartaz/a3/index.html"):
        poster = page_text(real_only_site / path)
        assert "Decreto nº 952/1993 (revogado)" in poster and "Decreto revogado." in poster
