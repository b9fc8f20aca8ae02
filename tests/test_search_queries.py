"""Issue 25: the queries people type put the expected record first, on the real 2021 export.

The query set (tests/fixtures/consultas/busca-exportacao-real.csv, written by the project) holds each kind
the issue lists: cities with and without accents, typing errors, nicknames, ``cidade uf``, journeys,
carriers' brand words, CNPJ and line prefixes as typed. The browser's search (/busca/, Pagefind and the
lookups of busca.js) must put the expected record first for at least 95 % of them; the command line
(``python -m pipeline search``), for at least 90 %."""

from __future__ import annotations

import csv
import re
from pathlib import Path
from urllib.parse import quote, quote_plus

import pytest
from browser_support import _open, _serve
from playwright.sync_api import expect

QUERIES = Path(__file__).parent / "fixtures" / "consultas" / "busca-exportacao-real.csv"


def queries() -> list[dict]:
    with open(QUERIES, encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


# every kind of query people type: each must be answered, not only the share of all
KINDS = {"cidade com acento", "cidade sem acento", "erro de digitação", "apelido", "cidade e UF", "par",
         "transportadora", "CNPJ", "prefixo"}


def share(results: dict[str, str]) -> tuple[float, list[str]]:
    """The share of queries whose first result is the expected one, and the misses, each with what came first.
    Every kind of :data:`KINDS` must have an answered query (a kind wholly missed, or gone from the set,
    fails whatever the share)."""
    assert len(queries()) >= 70
    misses = [f"{q['consulta']!r}: esperado {q['primeiro']}, veio {results[q['consulta']]}" for q in queries()
              if results[q["consulta"]] != q["primeiro"]]
    answered = {q["tipo"] for q in queries() if results[q["consulta"]] == q["primeiro"]}
    assert answered == KINDS, f"tipos sem consulta respondida: {sorted(KINDS - answered)}"
    return 1 - len(misses) / len(queries()), misses


@pytest.fixture(scope="module")
def real_search_url(real_only_site):
    yield from _serve(real_only_site)


@pytest.mark.slow
@pytest.mark.browser
def test_the_browser_search_puts_the_expected_record_first_for_95_percent(browser, real_search_url):
    tab = _open(browser, real_search_url)
    page = tab.page
    results = {}
    try:
        page.goto("/busca/")
        box, status = page.locator("#q"), page.locator("#estado-busca")
        for q in queries():  # typed into the page's box, as a person does (one page load for them all)
            box.fill(q["consulta"])
            box.press("Enter")  # the status says "Buscando…" at once, then the new count
            expect(status).to_contain_text("encontrad")
            expect(page).to_have_url(re.compile(r"\?q=" + re.escape(quote_plus(q["consulta"]))))
            first = page.locator("#resultados li h2 a").first
            results[q["consulta"]] = first.get_attribute("href") if first.count() else None
        assert tab.console_errors == []
    finally:
        page.context.close()
    ratio, misses = share(results)
    print(f"navegador: {ratio:.1%} das {len(results)} consultas com o registro esperado em primeiro; falhas: {misses}")
    assert ratio >= 0.95, misses


@pytest.mark.slow
@pytest.mark.browser
def test_the_search_answers_a_journey_a_typo_and_a_notice_number_truthfully(browser, real_search_url):
    tab = _open(browser, real_search_url)
    page = tab.page
    status = page.locator("#estado-busca")
    try:
        # a same-state trip: no line of the sources, and whose service it is
        page.goto("/busca/?q=" + quote("Foz do Iguaçu para Curitiba"))
        expect(status).to_contain_text("encontrad")
        first = page.locator("#resultados li").first
        expect(first).to_contain_text("De Foz do Iguaçu (PR) para Curitiba (PR)")
        expect(first).to_contain_text("Nenhuma linha das fontes liga Foz do Iguaçu (PR) a Curitiba (PR)")
        expect(first).to_contain_text("mesmo estado (Paraná)")
        expect(first).to_contain_text("governo do estado")
        # the journeys with one change are answered by the origin's page (tests/test_journeys.py)
        expect(first).to_contain_text("Com uma baldeação, pelas linhas das fontes: 17 caminhos.")
        expect(first.locator("h2 a")).to_have_attribute(
            "href", "/cidades/pr/foz-do-iguacu/?de=Foz%20do%20Igua%C3%A7u%20(PR)&para=Curitiba%20(PR)")
        # a journey typed with the words that join its places: below the answer, Pagefind's results are that
        # journey's lines (a line page's indexed text holds its places' names, not "para" or "x")
        for typed, places in (("São Paulo para Rio de Janeiro", ("SAO PAULO (SP)", "RIO DE JANEIRO (RJ)")),
                              ("goiania x brasilia", ("GOIANIA (GO)", "BRASILIA (DF)")),
                              ("de Curitiba a São Paulo", ("CURITIBA (PR)", "SAO PAULO (SP)"))):
            page.goto("/busca/?q=" + quote(typed))
            expect(page.locator("#resultados li h2 a").nth(5)).to_be_attached()  # Pagefind's first results shown
            titles = page.locator("#resultados li h2 a").all_text_contents()[1:6]
            assert sum(t.startswith("Linha ") and all(p in t for p in places) for t in titles) >= 2, (typed, titles)
        # a typing error is answered, and said
        page.goto("/busca/?q=curitba")
        expect(status).to_contain_text("Você quis dizer Curitiba (PR)?")
        expect(page.locator("#resultados li h2 a").first).to_have_attribute("href", "/cidades/pr/curitiba/")
        # a region of the DF named as such
        page.goto("/busca/?q=Taguatinga")
        expect(status).to_contain_text("encontrad")
        expect(page.locator("#resultados")).to_contain_text("Taguatinga (DF), região administrativa de Brasília")
        # a nickname or a region matched as typed: no guess at a typing error beside it
        for typed, first_url in (("Floripa", "/cidades/sc/florianopolis/"), ("Brazlândia", "/cidades/df/brasilia/")):
            page.goto("/busca/?q=" + quote(typed))
            expect(status).to_contain_text("encontrad")
            expect(page.locator("#resultados li h2 a").first).to_have_attribute("href", first_url)
            expect(status).not_to_contain_text("Você quis dizer")
            expect(page.locator("#resultados")).not_to_contain_text("Florínea")
            expect(page.locator("#resultados")).not_to_contain_text("Brasilândia")
        # a real town the export names only in its test company's line: said
        page.goto("/busca/?q=Piau")
        expect(page.locator("#resultados li").first).to_contain_text("aparece nas fontes só na linha 06-1863-00 da empresa de teste")
        # a carrier's name before a city with the same word later in its name
        page.goto("/busca/?q=Itapemirim")
        expect(page.locator("#resultados li h2 a").first).to_have_attribute("href", "/transportadoras/27175975000107/")
        expect(page.locator("#resultados li h2 a").nth(1)).to_have_attribute("href", "/cidades/es/cachoeiro-de-itapemirim/")
        # a notice number where no source has notices: said, not a bare "0 páginas"
        page.goto("/busca/?q=123456789")
        expect(status).to_contain_text("nenhuma fonte deste site traz autos de infração")
        page.goto("/busca/?q=" + quote("AI 2021/000456"))  # as a notice is written: letters and a slash
        expect(status).to_contain_text("nenhuma fonte deste site traz autos de infração")
        # a line prefix is digits too: its line, and no word about notices
        page.goto("/busca/?q=12-0140-00")
        expect(status).to_contain_text("encontrad")
        expect(page.locator("#resultados li h2 a").first).to_have_attribute("href", "/linhas/12-0140-00/")
        expect(status).not_to_contain_text("autos de infração")
        assert tab.console_errors == []
    finally:
        page.context.close()


@pytest.mark.slow
@pytest.mark.browser
def test_excerpts_keep_the_spaces_between_words_and_terms(browser, real_search_url):
    tab = _open(browser, real_search_url)
    page = tab.page
    try:
        page.goto("/busca/?q=" + quote("campina grande"))
        excerpts = page.locator("#resultados .trecho")
        expect(page.locator("#resultados .trecho mark").first).to_be_visible()  # Pagefind's excerpts, not only lookups
        text = " ".join(excerpts.all_text_contents())
        assert "CAMPINA GRANDE" in text
        for glued in ("CAMPINAGRANDE", "SAOPAULO", ")Âmbito", ")Descrição"):
            assert glued not in text, glued
    finally:
        page.context.close()


@pytest.mark.slow
def test_the_command_line_puts_the_expected_record_first_for_90_percent(real_only_site):
    """The same queries through ``run_search``, what ``python -m pipeline search`` prints from."""
    from pipeline.index.query import run_search

    index = real_only_site.parent / "busca"
    results = {}
    for q in queries():
        _, hits, _ = run_search(index, q["consulta"], 5)
        results[q["consulta"]] = hits[0].url if hits else None
    ratio, misses = share(results)
    print(f"linha de comando: {ratio:.1%} das {len(results)} consultas com o registro esperado em primeiro; falhas: {misses}")
    assert ratio >= 0.90, misses


@pytest.mark.slow
def test_the_command_line_answers_a_journey_first_and_says_what_it_guessed(real_only_site):
    import subprocess
    import sys

    from pipeline import PROJECT_ROOT

    def search(*query):
        return subprocess.run([sys.executable, "-m", "pipeline", "search", *query, "--index",
                               str(real_only_site.parent / "busca")], capture_output=True, text=True, cwd=PROJECT_ROOT)

    pair = search("sao", "paulo", "rio", "de", "janeiro")
    assert pair.returncode == 0
    assert pair.stdout.splitlines()[0].split()[0] == "ligacao"
    assert "/cidades/sp/sao-paulo/para/rj-rio-de-janeiro/" in pair.stdout.splitlines()[0]
    same_state = search("Foz do Iguaçu - Curitiba")
    assert "Nenhuma linha das fontes liga Foz do Iguaçu (PR) a Curitiba (PR)." in same_state.stderr
    assert "mesmo estado (Paraná)" in same_state.stderr
    typo = search("curitba")
    assert typo.stderr.startswith("Você quis dizer Curitiba (PR)?")
    assert typo.stdout.splitlines()[0].split()[:2] == ["cidade", "pr/curitiba"]
    for nickname in ("Floripa", "Brazlândia"):  # matched as typed: no guess at a typing error beside it
        answer = search(nickname)
        assert "Você quis dizer" not in answer.stderr, answer.stderr
        assert "/cidades/sp/florinea/" not in answer.stdout and "/cidades/ms/brasilandia/" not in answer.stdout
    carrier = search("Itapemirim")  # the carrier's name before a city with the word later in its name
    assert [line.split()[-1] for line in carrier.stdout.splitlines()[:2]] == [
        "/transportadoras/27175975000107/", "/cidades/es/cachoeiro-de-itapemirim/"]
    # a real town the export names only in its test company's line: why it has no answer, not "check the name"
    piau = search("Piau")
    assert "Piau (MG) aparece nas fontes só na linha 06-1863-00 da empresa de teste da exportação da ANTT" in piau.stderr
    assert piau.stdout.splitlines()[0].split()[-1] == "/linhas/06-1863-00/"
    line_page = (real_only_site / "linhas" / "06-1863-00" / "index.html").read_text(encoding="utf-8")
    assert "Linha de teste:" in line_page and "fica fora das respostas de uma cidade a outra" in line_page
    assert "Linha de teste:" not in (real_only_site / "linhas" / "12-0140-00" / "index.html").read_text(encoding="utf-8")
    # a line prefix typed without its last group: the group's first line, naming the others
    group = search("01-0000")
    assert group.stdout.splitlines()[0].split()[-1] == "/linhas/01-0000-00/"
    assert "(também começam por 01-0000: 01-0000-31, 01-0000-41, 01-0000-51 e 01-0000-61)" in group.stdout.splitlines()[0]
    # equal matches: the place with more lines first (São José dos Campos before São José da Boa Vista)
    tie = search("são josé d")
    urls = [line.split()[-1] for line in tie.stdout.splitlines()[:-1]]
    assert urls.index("/cidades/sp/sao-jose-dos-campos/") < urls.index("/cidades/pr/sao-jose-da-boa-vista/")


@pytest.mark.parametrize("typed, shaped", [
    ("AI 2021/000456", True), ("AI-0001", True), ("123456789", True), ("2021/000456", True),
    ("GOTO0113002", False),  # a SIGMA line prefix: four letters
    ("Curitiba", False), ("AI 12", False), ("ABCD1234", False)])
def test_what_a_notice_number_looks_like(typed, shaped, sample_site):
    """One pattern, in Python (pipeline/site/notices.py) and handed to the search page's script by its form."""
    import re

    from bs4 import BeautifulSoup

    from pipeline.site.identifiers import key
    from pipeline.site.notices import NOTICE_SHAPE

    assert bool(re.fullmatch(NOTICE_SHAPE, key(typed))) is shaped
    form = BeautifulSoup((sample_site / "busca" / "index.html").read_text(encoding="utf-8"), "html.parser").find(
        "form", id="form-busca")
    assert form["data-autos-forma"] == NOTICE_SHAPE
