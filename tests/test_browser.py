"""What a person sees: the fixture site served on 127.0.0.1, driven by Debian's /usr/bin/chromium.

The driver is Playwright's Python package (its wheel carries its own Node driver; no browser is ever
downloaded, the launch names ``executable_path`` explicitly and nothing runs ``playwright install``).
axe-core comes from the ``axe-playwright-python`` wheel, which ships ``axe.min.js`` (MPL-2.0, licence
header intact); only that file is used, injected into the page, so no CDN and no node_modules.

Outside CI these tests skip when Chromium or Playwright is missing; with CI set (non-empty) they fail.
Playwright gives every launch a fresh temporary profile (its own --user-data-dir), removed on close.
"""

from __future__ import annotations

import re
from importlib.resources import files

import pytest
from browser_support import (  # noqa: F401 - the browser's fixtures are registered in conftest.py
    CHROMIUM,
    CHROMIUM_ARGS,
    IN_CI,
    TIMEOUT_MS,
    Page,
    PlaywrightError,
    Tab,
    _open,
    _QuietHandler,
    _serve,
    _unavailable,
    expect,
    sync_playwright,
)

from pipeline.site import verification

pytestmark = pytest.mark.browser

SKIP_LINK = "Pular para o conteúdo"
HOSTILE = "<script>alert('x')</script>"


def _result_link(page: Page, href: str):
    """A search result's link (theme/static/js/busca.js)."""
    return page.locator(f'#resultados h2 a[href="{href}"]').first


def _first_result(page: Page):
    """The first result's link, once the search has answered."""
    expect(page.locator("#estado-busca")).to_contain_text("encontrad")
    return page.locator("#resultados li h2 a").first


# --- search ---------------------------------------------------------------------------------------


def test_search_page_reads_the_query_and_finds_the_line(tab):
    page = tab.page
    page.goto("/busca/?q=caldas")
    expect(page.locator("#q")).to_have_value("caldas")
    expect(_result_link(page, "/linhas/12-0140-00/")).to_be_visible()


@pytest.mark.slow
def test_home_search_form_lands_on_results(tab):
    page = tab.page
    page.goto("/")
    page.get_by_label("Buscar linha, cidade, transportadora ou ato").fill("FRONTEIRA")
    page.locator("main").get_by_role("button", name="Buscar").click()
    expect(page).to_have_url(re.compile(r"/busca/\?q=FRONTEIRA$"))
    expect(_result_link(page, "/transportadoras/77888999000181/")).to_be_visible()


@pytest.mark.slow
def test_the_exact_name_comes_first_and_a_filter_narrows_and_survives_a_reload(tab):
    page = tab.page
    page.goto("/busca/?q=bras%C3%ADlia")
    expect(_first_result(page)).to_have_attribute("href", "/cidades/df/brasilia/")  # not a page that mentions it
    page.get_by_text("Filtrar resultados").click()  # the filters load when asked for
    page.get_by_label("Tipo de registro").select_option("Linha")
    expect(page).to_have_url(re.compile(r"/busca/\?q=bras%C3%ADlia&tipo=Linha$"))
    expect(page.locator("#estado-busca")).to_contain_text("encontrad")
    kinds = page.locator("#resultados .tipo-registro")
    expect(kinds.first).to_have_text("Linha")
    assert set(kinds.all_text_contents()) == {"Linha"}
    shown = page.locator("#resultados li").count()
    page.reload()
    expect(page.get_by_label("Tipo de registro")).to_have_value("Linha")
    expect(page.locator("#q")).to_have_value("brasília")
    expect(page.locator("#resultados li")).to_have_count(shown)
    assert tab.console_errors == []


@pytest.mark.parametrize("typed", ["11.222.333/0001-81", "11222333000181"])
@pytest.mark.slow
def test_a_cnpj_formatted_or_not_gives_the_carrier_first(tab, typed):
    tab.page.goto("/busca/?q=" + typed.replace("/", "%2F"))
    expect(_first_result(tab.page)).to_have_attribute("href", "/transportadoras/11222333000181/")


@pytest.mark.slow
def test_a_notice_number_shows_its_record(tab):
    page = tab.page
    page.goto("/busca/?q=ai-0001")
    box = page.locator("#auto-encontrado")
    expect(box.locator("h2")).to_have_text("Auto de infração nº AI-0001")
    expect(box.get_by_role("link", name="VIACAO CERRADO LTDA")).to_have_attribute("href", "/transportadoras/11222333000181/")
    expect(box.get_by_role("link", name="12-0140-00")).to_have_attribute("href", "/linhas/12-0140-00/")
    expect(box.get_by_role("link", name="78-IV-b")).to_have_attribute("href", "/decreto/#art-78-inc-iv-al-b")
    for text in ("02/03/2026 14:30", "BR-040, km 12 — CALDAS NOVAS/GO", "R$ 1.500,00", "Prazo de defesa"):
        expect(box).to_contain_text(text)
    assert tab.console_errors == []


def test_every_page_has_a_search_box(site):
    """Every HTML page the build writes carries the labelled search form of the header."""
    pages = sorted(site.rglob("*.html"))
    without = [str(p.relative_to(site)) for p in pages
               if 'for="busca-topo-q" class="oculto">Buscar no portal</label>' not in p.read_text(encoding="utf-8")]
    assert len(pages) > 50 and without == []


@pytest.mark.slow
def test_the_header_search_box_searches(tab):
    page = tab.page
    page.goto("/linhas/12-0140-00/")
    page.get_by_label("Buscar no portal").fill("caldas")
    page.get_by_label("Buscar no portal").press("Enter")
    expect(page).to_have_url(re.compile(r"/busca/\?q=caldas$"))
    expect(_result_link(page, "/linhas/12-0140-00/")).to_be_visible()


@pytest.mark.slow
def test_the_obvious_record_comes_first_on_the_real_export(browser, real_url):
    tab = _open(browser, real_url)
    page = tab.page
    try:
        for typed, href in [("1001", "/transportadoras/30069314000101/"), ("Brasília", "/cidades/df/brasilia/"),
                            ("Goiânia", "/cidades/go/goiania/"), ("30.069.314/0001-01", "/transportadoras/30069314000101/"),
                            ("30069314000101", "/transportadoras/30069314000101/")]:
            page.goto("/busca/")
            page.locator("#q").fill(typed)
            page.locator("#q").press("Enter")
            expect(_first_result(page)).to_have_attribute("href", href)
        # more than a hard five: "Mais resultados" adds the next ones
        page.goto("/busca/?q=brasilia")
        results = page.locator("#resultados li")
        more = page.get_by_role("button", name="Mais resultados")
        expect(more).to_be_visible()  # the first ten pages are shown
        before = results.count()
        more.click()
        expect(results).not_to_have_count(before)
        assert results.count() >= before + 9  # the next ten, less a page already listed by its exact name
        assert tab.console_errors == []
    finally:
        page.context.close()


def _pages_found(status: str) -> int:
    """The count of pages the search status states ("1.234 páginas encontradas na busca por texto")."""
    return int(re.search(r"([0-9.]+) páginas? encontradas? na busca por texto", status)[1].replace(".", ""))


def _uf_filter_narrows_and_survives_a_reload(page: Page, query: str, uf: str) -> None:
    """``query``'s count changes when the UF filter is set, the filter is in the address, and a reload
    gives the same filter and the same count."""
    page.goto("/busca/?q=" + query)
    status = page.locator("#estado-busca")
    expect(status).to_contain_text("encontrad")
    everything = status.text_content()
    page.get_by_text("Filtrar resultados").click()  # the filters load when asked for
    page.get_by_label("UF").select_option(uf)
    expect(page).to_have_url(re.compile(f"uf={uf}"))
    # the interim "Buscando…" differs from any count: wait for the new count, then compare the numbers
    expect(status).not_to_have_text(everything)
    expect(status).to_contain_text("na busca por texto")
    narrowed = status.text_content()
    assert _pages_found(narrowed) < _pages_found(everything), (everything, narrowed)
    page.reload()
    expect(page.get_by_label("UF")).to_have_value(uf)
    expect(status).to_have_text(narrowed)


@pytest.fixture(scope="module")
def sample_url(sample_site):
    """The build of the bundled (fictional) sample (conftest), served on 127.0.0.1."""
    yield from _serve(sample_site)


@pytest.mark.slow
def test_the_obvious_record_comes_first_on_the_bundled_sample(browser, sample_url):
    """The sample has no Goiânia line and no carrier named 1001 (fictional carriers, a random draw of
    places): the same questions with its own names."""
    tab = _open(browser, sample_url)
    page = tab.page
    try:
        for typed, href in [("Brasília", "/cidades/df/brasilia/"), ("seriema", "/transportadoras/65061699000145/"),
                            ("00.862.895/0001-73", "/transportadoras/00862895000173/"),
                            ("00862895000173", "/transportadoras/00862895000173/")]:
            page.goto("/busca/?q=" + typed.replace("/", "%2F"))
            expect(_first_result(page)).to_have_attribute("href", href)
        page.goto("/busca/?q=01892901")
        box = page.locator("#auto-encontrado")
        expect(box.locator("h2")).to_have_text("Auto de infração nº 01892901")
        expect(box.get_by_role("link", name="VIACAO SERIEMA LTDA")).to_have_attribute("href", "/transportadoras/65061699000145/")
        _uf_filter_narrows_and_survives_a_reload(page, "brasilia", "GO")
        assert tab.console_errors == []
    finally:
        page.context.close()


@pytest.mark.slow
def test_a_filter_narrows_the_real_export_and_survives_a_reload(browser, real_url):
    tab = _open(browser, real_url)
    page = tab.page
    try:
        _uf_filter_narrows_and_survives_a_reload(page, "sao+paulo", "RJ")
    finally:
        page.context.close()


# --- hostile text ---------------------------------------------------------------------------------


def test_hostile_carrier_name_is_shown_as_text(tab):
    page = tab.page
    page.goto("/transportadoras/44555666000181/", wait_until="load")
    assert tab.dialogs == []  # an executed alert() is recorded (and dismissed) by the tab's dialog handler
    h1 = page.locator("main h1")
    expect(h1).to_contain_text(HOSTILE)
    assert h1.locator("script").count() == 0
    # The same name reaches the carriers' index and Pagefind's excerpts.
    page.goto("/transportadoras/", wait_until="load")
    expect(page.locator("main")).to_contain_text(HOSTILE)
    page.goto("/busca/?q=expresso")
    expect(_result_link(page, "/transportadoras/44555666000181/")).to_be_visible()
    assert page.locator("#resultados script").count() == 0
    assert tab.dialogs == []


# --- without JavaScript ---------------------------------------------------------------------------


def test_without_javascript_search_offers_the_indexes_and_home_works(browser, base_url):
    tab = _open(browser, base_url, java_script_enabled=False)
    page = tab.page
    try:
        page.goto("/")
        expect(page.locator("main h1")).to_be_visible()
        expect(page.get_by_role("link", name="Dados abertos").first).to_be_visible()
        page.get_by_label("Buscar linha, cidade, transportadora ou ato").fill("caldas")
        page.locator("main").get_by_role("button", name="Buscar").click()  # a plain GET form, no script needed
        expect(page).to_have_url(re.compile(r"/busca/\?q=caldas$"))
        notice = page.locator("main noscript p")  # Playwright's text matchers skip <noscript>; visibility doesn't
        expect(notice).to_be_visible()
        expect(notice).to_contain_text("A busca no navegador precisa de JavaScript")
        main = page.locator("main")
        for href in ("/linhas/", "/transportadoras/", "/outorgas/", "/caducidades/", "/decreto/"):
            expect(main.locator(f'a[href="{href}"]')).to_be_visible()
        main.locator('a[href="/linhas/"]').click()
        expect(page).to_have_url(re.compile(r"/linhas/$"))
        page.locator('main a[href="/linhas/uf/df/"]').click()  # the lines by UF, no script needed
        expect(page.locator('main a[href="/linhas/12-0140-00/"]').first).to_be_visible()
    finally:
        page.context.close()


# --- console --------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/", "/linhas/12-0140-00/", "/busca/?q=caldas", "/decreto/"])
def test_no_console_errors(tab, path):
    page = tab.page
    page.goto(path)
    if path.startswith("/busca/"):
        expect(_result_link(page, "/linhas/12-0140-00/")).to_be_visible()
    page.wait_for_load_state("networkidle")  # late fetches (Pagefind fragments) report their errors too
    assert tab.console_errors == []


# --- keyboard -------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/", "/linhas/12-0140-00/", "/decreto/"])
def test_first_tab_reaches_skip_link_and_it_moves_focus_to_main(tab, path):
    page = tab.page
    page.goto(path)
    page.keyboard.press("Tab")
    focused = page.locator(":focus")
    expect(focused).to_have_text(SKIP_LINK)
    expect(focused).to_be_in_viewport()  # off-screen until focused
    page.keyboard.press("Enter")
    expect(page.locator("main#conteudo")).to_be_focused()


# --- accessibility (axe-core) ---------------------------------------------------------------------


@pytest.fixture(scope="session")
def axe_script() -> str:
    try:
        return (files("axe_playwright_python") / "axe.min.js").read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError):
        _unavailable("axe-playwright-python (which ships axe.min.js) is not installed")


AXE_PATHS = ["/", "/linhas/12-0140-00/", "/dados/", "/decreto/", "/dados/qualidade/", "/direitos/", "/achados/",
             "/cidades/", "/cidades/df/brasilia/", "/verificar/", "/cidades/df/brasilia/para/go-caldas-novas/",
             "/direitos/cartaz/", "/outorgas/out-1/", "/linhas/uf/df/", "/dados/outorgas/", "/dados/mudancas/"]


# at 390 px wide tables scroll, and must be reachable by keyboard; `make test-fast` checks "/" at 1280 px only
@pytest.mark.parametrize("width", [1280, pytest.param(390, marks=pytest.mark.slow)])
@pytest.mark.parametrize("path", [p if p == "/" else pytest.param(p, marks=pytest.mark.slow) for p in AXE_PATHS])
def test_axe_finds_no_serious_wcag_a_aa_violations(browser, base_url, axe_script, path, width):
    tab = _open(browser, base_url, bypass_csp=True)  # axe is injected as an inline script, which the CSP refuses
    page = tab.page
    page.set_viewport_size({"width": width, "height": 844})
    page.goto(path)
    page.add_script_tag(content=axe_script)
    try:
        results = page.evaluate(
            "() => axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa']}, resultTypes: ['violations']})"
        )
    except PlaywrightError as exc:  # pragma: no cover - axe itself failing is a test error, not a pass
        pytest.fail(f"axe-core did not run on {path}: {exc}")
    serious = [v for v in results["violations"] if v["impact"] in ("serious", "critical")]
    report = [
        f"{v['id']} ({v['impact']}): {v['help']} -> {[n['target'] for n in v['nodes']]} {v['helpUrl']}" for v in serious
    ]
    engine = results["testEngine"]["version"]
    page.context.close()
    assert not report, f"axe-core {engine} on {path} at {width} px:\n" + "\n".join(report)


# --- content security policy ------------------------------------------------------------------------


def test_csp_refuses_inline_script_and_search_still_works(tab):
    page = tab.page
    page.goto("/busca/?q=caldas")
    expect(_result_link(page, "/linhas/12-0140-00/")).to_be_visible()  # Pagefind (WebAssembly) runs under the CSP
    csp = page.locator('meta[http-equiv="Content-Security-Policy"]').get_attribute("content")
    assert "script-src 'self' 'wasm-unsafe-eval'" in csp and "unsafe-inline" not in csp.split("style-src")[0]
    page.evaluate("""() => { const s = document.createElement('script');
                             s.textContent = 'window.__injected = true'; document.body.appendChild(s); }""")
    assert page.evaluate("() => window.__injected === undefined")
    assert any("Content Security Policy" in e for e in tab.console_errors)


# --- served from a sub-path ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def subpath_root(tmp_path_factory):
    from datetime import date

    from conftest import MINIMAL

    from pipeline.build import build
    from pipeline.contract.settings import Settings

    root = tmp_path_factory.mktemp("pages")
    build(Settings(data=(MINIMAL,), out=root / "portal", as_of=date(2026, 6, 30), base_path="/portal",
                   whoosh_dir=root / "busca"))
    return root


@pytest.fixture(scope="module")
def subpath_url(subpath_root):
    yield from _serve(subpath_root)


@pytest.mark.slow
def test_the_data_files_addresses_carry_the_sub_path_and_lead_to_pages(subpath_root):
    """A reader of /portal/cidades/index.json (or of any file the pages' scripts read) follows its
    addresses as they are: each carries /portal and leads to a page of the site."""
    import json

    site = subpath_root / "portal"
    files = [site / "cidades" / "index.json", *site.glob("cidades/*/*/para/*.json"), *site.glob("busca/nomes/*.json"),
             *site.glob("busca/ids/*.json"), *site.glob("verificar/*.json"), *site.glob("linhas/*/linhas.json"),
             *site.glob("busca/autos/*.json")]
    addresses = []

    def walk(value, name=""):
        if isinstance(value, dict):
            for k, v in value.items():
                walk(v, k)
        elif isinstance(value, list):
            for v in value:
                walk(v, name)
        elif isinstance(value, str) and value.startswith("/"):
            addresses.append(value)

    for path in files:
        walk(json.loads(path.read_text(encoding="utf-8")))
    kinds = {a.split("/")[2] for a in addresses if a.startswith("/portal/")}
    assert {"cidades", "linhas", "transportadoras"} <= kinds, kinds
    assert [a for a in addresses if not a.startswith("/portal/")] == []
    missing = [a for a in addresses if not (site / a.split("#")[0][len("/portal/"):] / "index.html").is_file()
               and not (site / a.split("#")[0][len("/portal/"):]).is_file()]
    assert missing == []


@pytest.mark.slow
def test_search_works_under_a_sub_path(browser, subpath_url):
    tab = _open(browser, subpath_url)
    page = tab.page
    page.goto("/portal/")
    page.fill("#q", "caldas")
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"/portal/busca/\?q=caldas"))
    result = _result_link(page, "/portal/linhas/12-0140-00/")
    expect(result).to_be_visible()
    result.click()
    expect(page).to_have_url(re.compile(r"/portal/linhas/12-0140-00/$"))
    page.wait_for_load_state("networkidle")
    # an identifier and a place as typed: their records' addresses under the sub-path
    page.goto("/portal/busca/?q=12014000")
    expect(_first_result(page)).to_have_attribute("href", "/portal/linhas/12-0140-00/")
    page.goto("/portal/busca/?q=caldas%20novas")
    expect(_first_result(page)).to_have_attribute("href", "/portal/cidades/go/caldas-novas/")
    assert tab.console_errors == []
    page.context.close()


# --- from city A to city B ------------------------------------------------------------------------


@pytest.mark.slow
def test_de_para_answers_sao_paulo_to_rio_from_the_real_export_and_survives_a_reload(browser, real_url, real_package):
    import csv

    with open(real_package / "linhas.csv", encoding="utf-8", newline="") as fh:
        expected = sorted(r["prefixo"] for r in csv.DictReader(fh)
                          if {r["origem_municipio"], r["destino_municipio"]} == {"SAO PAULO", "RIO DE JANEIRO"})
    tab = _open(browser, real_url)
    page = tab.page
    try:
        page.goto("/")
        page.get_by_label("De", exact=True).fill("sao paulo")  # no accents, any case
        page.get_by_label("Para", exact=True).fill("RIO DE JANEIRO")
        page.get_by_role("button", name="Ver linhas e horários").click()
        answer = page.locator("#resposta")
        expect(answer.locator("h2")).to_have_text("De São Paulo (SP) para Rio de Janeiro (RJ)")
        rows = answer.locator("table.rota-linhas tbody tr th")
        expect(rows).to_have_count(len(expected))
        assert sorted(rows.all_text_contents()) == expected
        # the departures first, then the lines
        expect(answer.locator("table").first.locator("caption")).to_contain_text("Partidas de São Paulo para Rio de Janeiro")
        expect(page).to_have_url(re.compile(r"de=sao\+paulo&para=RIO\+DE\+JANEIRO"))
        page.reload()
        expect(answer.locator("table.rota-linhas tbody tr th")).to_have_count(len(expected))
        answer.locator("details.rota-linhas summary").click()  # 37 lines: the list opens on demand
        answer.locator("table.rota-linhas").get_by_role("link", name=expected[0]).click()
        expect(page).to_have_url(re.compile(rf"/linhas/{expected[0]}/$"))
        assert tab.console_errors == [] and tab.dialogs == []
    finally:
        page.context.close()


def test_de_para_says_when_no_line_links_two_places_or_a_name_is_unknown(tab):
    page = tab.page
    page.goto("/cidades/")
    page.get_by_label("De", exact=True).fill("Cristalina")
    page.get_by_label("Para", exact=True).fill("Corumbá")
    page.get_by_role("button", name="Ver linhas e horários").click()
    status = page.locator("#resposta [role=status]")
    expect(status).to_have_text("Nenhuma linha das fontes liga Cristalina (GO) a Corumbá (MS).")
    expect(page.get_by_role("link", name="Destinos a partir de Cristalina (GO)")).to_be_visible()  # a way onward
    page.get_by_label("Para", exact=True).fill("Atlântida")
    page.get_by_role("button", name="Ver linhas e horários").click()
    expect(status).to_have_text("Nenhuma cidade encontrada para “Atlântida”. Confira o nome ou escolha na lista de cidades.")
    assert tab.console_errors == []


@pytest.mark.slow
def test_without_javascript_the_city_page_carries_the_answer(browser, base_url):
    tab = _open(browser, base_url, java_script_enabled=False)
    page = tab.page
    try:
        page.goto("/cidades/")
        page.get_by_role("link", name="Brasília").click()
        expect(page).to_have_url(re.compile(r"/cidades/df/brasilia/$"))
        page.get_by_role("link", name="Caldas Novas (GO)").click()  # the pair's own page
        expect(page).to_have_url(re.compile(r"/cidades/df/brasilia/para/go-caldas-novas/$"))
        answer = page.locator("main")
        expect(answer.get_by_role("link", name="12-0140-00").first).to_be_visible()
        expect(answer).to_contain_text("88,50")
    finally:
        page.context.close()


@pytest.mark.slow
def test_lines_filter_narrows_and_survives_a_reload(browser, real_url, real_package):
    import csv

    with open(real_package / "linhas.csv", encoding="utf-8", newline="") as fh:
        df = [r for r in csv.DictReader(fh) if "DF" in (r["origem_uf"], r["destino_uf"])]
    semiurbano = sorted(r["prefixo"] for r in df if r["ambito"] == "semiurbano")
    assert 0 < len(semiurbano) < len(df)
    tab = _open(browser, real_url)
    page = tab.page
    try:
        page.goto("/linhas/")
        page.get_by_label("UF (origem ou destino)").select_option("DF")
        page.get_by_role("button", name="Filtrar").click()
        rows = page.locator("#resultado-filtros tbody th")
        expect(rows).to_have_count(min(len(df), 500))
        page.get_by_label("Âmbito").select_option("semiurbano")
        page.get_by_role("button", name="Filtrar").click()
        expect(rows).to_have_count(len(semiurbano))
        assert sorted(rows.all_inner_texts()) == semiurbano
        expect(page).to_have_url(re.compile(r"/linhas/\?uf=DF&ambito=semiurbano$"))
        page.reload()
        expect(page.get_by_label("Âmbito")).to_have_value("semiurbano")
        expect(rows).to_have_count(len(semiurbano))
        assert tab.console_errors == []
    finally:
        page.context.close()


# --- art. 34 and art. 12 --------------------------------------------------------------------------


def test_calculators_compute_the_decrees_worked_examples(tab):
    from decimal import Decimal

    from pipeline.legal.passageiros import WORKED_EXAMPLES, excess_baggage

    page = tab.page
    page.goto("/direitos/")

    def submit(form_id: str, button: str, fields: dict[str, str]):  # fills fields by their labels, submits
        form = page.locator(form_id)
        for label, value in fields.items():
            form.get_by_label(label).fill(value)
        form.get_by_role("button", name=button).click()
        return form.locator("output")

    expected = excess_baggage("100.00", 38, 5)
    assert expected["maximo"] == Decimal("4.00")
    fare = "Preço da passagem convencional (R$)"
    out = submit("#calc-bagagem", "Calcular", {fare: "100,00", "Peso no bagageiro (kg)": "38",
                                                "Peso no porta-embrulhos (kg)": "5"})
    expect(out).to_have_text(WORKED_EXAMPLES["calc-bagagem"][1]["resposta"])  # the 1993 rules, the arithmetic shown
    expect(submit("#calc-bagagem", "Calcular", {fare: "abc"})).to_contain_text("Informe o preço da passagem convencional")
    out = submit("#calc-desistencia", "Verificar", {"Partida": "2026-12-24T22:00", "Quando você avisa": "2026-12-24T16:00"})
    expect(out).to_contain_text("No prazo")
    out = submit("#calc-desistencia", "Verificar", {"Quando você avisa": "2026-12-24T16:01"})
    expect(out).to_contain_text("Fora do prazo: o aviso devia ser feito até 24/12/2026 16:00")
    out = submit("#calc-crianca", "Verificar", {"Idade (anos completos)": "5"})
    expect(out).to_have_text("Pelas regras de 1993 (art. 32, inciso XVII), a criança viajaria sem pagar, desde que não "
                             "ocupasse poltrona.")
    out = submit("#calc-crianca", "Verificar", {"Idade (anos completos)": "-2"})
    expect(out).to_contain_text("Informe a idade em anos completos")
    assert "NaN" not in page.locator("main").inner_text() and tab.console_errors == []


def _pdf_pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?![s\w])", pdf))


@pytest.mark.slow
def test_an_act_prints_on_one_a4_page_and_its_code_is_found(tab):
    page = tab.page
    page.goto("/outorgas/")
    href = page.locator("main table a[href^='/outorgas/']").first.get_attribute("href")
    page.goto(href)
    shown = page.locator(".copia .codigo").inner_text()
    pdf = page.pdf(format="A4")
    assert _pdf_pages(pdf) == 1
    page.goto("/verificar/")
    page.get_by_label("Código de verificação").fill(shown.lower().replace("-", " "))
    page.get_by_role("button", name="Verificar").click()
    result = page.locator("#resultado-verificacao")
    expect(result).to_contain_text(verification.MESSAGES["valido"])
    result.get_by_role("link").click()
    expect(page).to_have_url(re.compile(re.escape(href) + "$"))
    page.goto("/verificar/?codigo=0000-0000-0000")
    expect(result).to_have_text(verification.MESSAGES["nao_encontrado"])
    # the length and the message come from pipeline/site/verification.py: one digit short is refused with them
    page.goto("/verificar/?codigo=" + "0" * (verification.CODE_DIGITS - 1))
    expect(result).to_have_text(verification.MESSAGES["tamanho"])
    assert tab.console_errors == []


# @page in the theme's CSS: A4 with 12 mm margins leaves 186 mm, at CSS's 96 px to the inch
A4_CONTENT_PX = round((210 - 2 * 12) / 25.4 * 96)


def _cut_when_printed(page: Page) -> list[str]:
    """The tables of ``main`` that would not fit the A4 page as printed (print stylesheet, A4 width):
    wider than the page, or wider than their own box (a scrolling wrapper prints only what it shows)."""
    page.set_viewport_size({"width": A4_CONTENT_PX, "height": 1100})
    page.emulate_media(media="print")
    return page.evaluate("""(width) => {
      const cut = [...document.querySelectorAll('main table')].filter(t => t.offsetParent !== null).filter(t => {
        const box = t.getBoundingClientRect();
        let clipped = false;
        for (let p = t.parentElement; p; p = p.parentElement) {
          const s = getComputedStyle(p);
          if (s.overflowX !== 'visible' && p.getBoundingClientRect().right < box.right - 1) clipped = true;
        }
        // a table that scrolls sideways on screen (display: block) prints only the part it shows
        return box.right > width + 1 || t.scrollWidth > t.clientWidth + 1 || clipped;
      });
      const wide = document.documentElement.scrollWidth > width + 1 ? ['(a página)'] : [];
      return wide.concat(cut.map(t => (t.caption ? t.caption.textContent : t.className || 'tabela').trim()));
    }""", A4_CONTENT_PX)


@pytest.mark.parametrize("path", ["/linhas/12-0140-00/", "/outorgas/out-1/", "/caducidades/portaria-dtr-no-45-2020/",
                                  "/transportadoras/11222333000181/"])
@pytest.mark.slow
def test_printing_a_line_or_act_page_cuts_no_column(tab, path):
    tab.page.goto(path)
    assert _cut_when_printed(tab.page) == []


@pytest.mark.slow
def test_printing_the_busiest_real_line_cuts_no_column(browser, real_url):
    """Teresina -> Timon, the real export's busiest pair: its first line's page, grid and all."""
    tab = _open(browser, real_url)
    page = tab.page
    try:
        page.goto("/cidades/pi/teresina/para/ma-timon/")
        page.locator("main table a[href^='/linhas/']").first.click()
        expect(page.locator("table.grade-horarios").first).to_be_visible()
        assert _cut_when_printed(page) == []
    finally:
        page.context.close()


PAGE_TYPES = ["/", "/cidades/", "/cidades/df/brasilia/", "/cidades/df/brasilia/para/go-caldas-novas/", "/linhas/", "/linhas/uf/df/", "/linhas/12-0140-00/",
              "/transportadoras/", "/transportadoras/11222333000181/", "/outorgas/", "/outorgas/out-1/",
              "/caducidades/", "/caducidades/portaria-dtr-no-45-2020/", "/achados/", "/direitos/", "/direitos/cartaz/", "/decreto/", "/dados/",
              "/dados/qualidade/", "/verificar/", "/busca/", "/404.html", "/linhas/uf/df/", "/dados/outorgas/",
              "/dados/mudancas/"]


@pytest.mark.slow
def test_no_page_type_is_wider_than_a_360_px_screen(browser, base_url):
    tab = _open(browser, base_url, viewport={"width": 360, "height": 740})
    page = tab.page
    wide = {}
    try:
        for path in PAGE_TYPES:
            page.goto(path)
            width = page.evaluate("() => document.documentElement.scrollWidth")
            if width > 360:
                wide[path] = width
    finally:
        page.context.close()
    assert wide == {}


@pytest.mark.parametrize("typed, href", [("12014000", "/linhas/12-0140-00/"), ("12-0140-00", "/linhas/12-0140-00/"),
                                         ("11.222.333/0001-81", "/transportadoras/11222333000181/"),
                                         ("out-1", "/outorgas/out-1/")])
@pytest.mark.slow
def test_identifiers_as_typed_lead_to_the_record(tab, typed, href):
    page = tab.page
    page.goto("/busca/?q=" + typed.replace("/", "%2F"))
    link = _first_result(page)
    expect(link).to_have_attribute("href", href)
    link.click()
    expect(page).to_have_url(re.compile(re.escape(href) + "$"))


@pytest.mark.slow
def test_the_404_page_offers_search(tab):
    page = tab.page
    page.goto("/404.html")
    expect(page.locator("main h1")).to_have_text("Página não encontrada")
    page.get_by_label("Buscar linha, cidade, transportadora ou ato").fill("12014000")
    page.locator("main").get_by_role("button", name="Buscar").click()
    expect(_first_result(page)).to_have_attribute("href", "/linhas/12-0140-00/")


@pytest.mark.slow
def test_de_para_and_filters_work_under_a_sub_path(browser, subpath_url):
    tab = _open(browser, subpath_url)
    page = tab.page
    try:
        page.goto("/portal/")
        page.get_by_label("De", exact=True).fill("brasilia")
        page.get_by_label("Para", exact=True).fill("Caldas Novas")
        page.get_by_role("button", name="Ver linhas e horários").click()
        answer = page.locator("#resposta")
        expect(answer.locator("h2")).to_have_text("De Brasília (DF) para Caldas Novas (GO)")
        expect(answer.get_by_role("link", name="12-0140-00").first).to_have_attribute("href", "/portal/linhas/12-0140-00/")
        page.goto("/portal/linhas/?uf=DF")
        expect(page.locator("#resultado-filtros tbody a").first).to_have_attribute("href", "/portal/linhas/12-0140-00/")
        assert tab.console_errors == []
    finally:
        page.context.close()
