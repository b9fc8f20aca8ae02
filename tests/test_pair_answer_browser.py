"""The answer from A to B in a browser (issue 25): the departures filtered by weekday and class (with
JavaScript; without it the whole list), each departure a card on a 360 px screen with nothing cut and
nothing to scroll sideways, every control reached by keyboard, no serious axe-core finding; and the answer
the "De ... Para ..." form renders from the pair's JSON (theme/static/js/rotas.js) the same as the pair's
page. On the package of tests/test_pair_answer.py and, marked slow, on the real 2021 export."""

from __future__ import annotations

import pytest
from browser_support import _open, _serve, expect, serious_violations
from test_pair_answer import build_pair_site

pytestmark = pytest.mark.browser

PAIR = "/cidades/df/brasilia/para/go-caldas-novas/"
CAPTION = "Partidas de Brasília para Caldas Novas"


@pytest.fixture(scope="session")
def pair_url(tmp_path_factory) -> str:
    """The package of tests/test_pair_answer.py (the same build), served on 127.0.0.1."""
    yield from _serve(build_pair_site(tmp_path_factory.getbasetemp() / "pares"))


def _rows(table) -> list[str]:
    """The visible rows of a table's body, each as its text."""
    return [" ".join(t.split()) for t in table.locator("tbody tr:visible").all_inner_texts()]


def test_the_departures_filter_by_weekday_and_class_from_the_keyboard(browser, pair_url):
    tab = _open(browser, pair_url)
    page = tab.page
    try:
        page.goto(PAIR)
        table = page.locator("table.partidas")
        expect(table.locator("caption")).to_contain_text(CAPTION)
        assert len(_rows(table)) == 3
        day, kind = page.get_by_label("Dia da semana"), page.get_by_label("Classe")
        status = page.locator(".filtro-partidas [role=status]")
        expect(status).to_have_text("3 partidas na tabela.")
        # by keyboard alone: Tab from the last link before the filters reaches both controls in order
        page.locator(".filtro-partidas").evaluate(
            "box => [...document.querySelectorAll('main a')]"
            ".filter((a) => a.compareDocumentPosition(box) & Node.DOCUMENT_POSITION_FOLLOWING).pop().focus()")
        page.keyboard.press("Tab")
        expect(day).to_be_focused()
        page.keyboard.press("Tab")
        expect(kind).to_be_focused()
        day.select_option(label="Sábado")
        assert [r.split()[0] for r in _rows(table)] == ["07:00", "09:30"]
        expect(status).to_have_text("Mostrando 2 partidas de 3.")
        kind.focus()
        kind.select_option(label="Semileito")
        assert _rows(table) == ["09:30 12-0999-00 VIACAO CERRADO LTDA Semileito Sáb só em janeiro"]
        day.select_option(label="Segunda-feira")
        assert _rows(table) == []
        expect(status).to_have_text("Nenhuma partida com esse dia e essa classe (de 3 partidas).")
        day.select_option(label="Qualquer dia")
        kind.select_option(label="Todas as classes")
        assert len(_rows(table)) == 3
        assert tab.console_errors == []
    finally:
        page.context.close()


def test_without_javascript_there_is_no_filter_and_every_departure_shows(browser, pair_url):
    tab = _open(browser, pair_url, java_script_enabled=False)
    page = tab.page
    try:
        page.goto(PAIR)
        expect(page.locator(".filtro-partidas")).to_have_count(0)
        assert len(_rows(page.locator("table.partidas"))) == 3
    finally:
        page.context.close()


@pytest.mark.slow
def test_on_a_phone_each_departure_is_a_card_and_nothing_scrolls_sideways(browser, pair_url):
    tab = _open(browser, pair_url, viewport={"width": 360, "height": 740})
    page = tab.page
    try:
        page.goto(PAIR)
        expect(page.get_by_label("Dia da semana")).to_be_visible()
        found = page.evaluate("""() => {
            const t = document.querySelector('table.partidas');
            const cells = [...document.querySelectorAll('table.cartoes th, table.cartoes td, .filtro-partidas select')];
            return {page: document.documentElement.scrollWidth,
                    overflow: [...document.querySelectorAll('table.cartoes')].map(x => x.scrollWidth - x.clientWidth),
                    right: Math.max(...cells.filter(c => c.offsetParent).map(c => c.getBoundingClientRect().right)),
                    display: getComputedStyle(t.tBodies[0].rows[0]).display,
                    label: getComputedStyle(t.tBodies[0].rows[1].cells[4], '::before').content};
        }""")
        assert found["page"] <= 360 and max(found["overflow"]) <= 0 and found["right"] <= 360, found
        assert found["display"] == "block" and found["label"] == '"Dias: "'
        expect(page.locator("table.partidas tbody tr").nth(1)).to_contain_text("só em janeiro")
        assert tab.console_errors == []
    finally:
        page.context.close()


@pytest.mark.parametrize("width", [1280, pytest.param(360, marks=pytest.mark.slow)])
def test_axe_finds_no_serious_violation_on_the_answer_with_its_filters(browser, pair_url, axe, width):
    tab = _open(browser, pair_url, bypass_csp=True)  # axe is injected as an inline script
    page = tab.page
    try:
        page.set_viewport_size({"width": width, "height": 800})
        page.goto(PAIR)
        expect(page.get_by_label("Dia da semana")).to_be_visible()  # the filters are part of what axe sees
        assert serious_violations(page, axe) == []
    finally:
        page.context.close()


def _answer_by_form(page, de: str, para: str):
    page.goto("/")
    page.get_by_label("De", exact=True).fill(de)
    page.get_by_label("Para", exact=True).fill(para)
    page.get_by_role("button", name="Ver linhas e horários").click()
    answer = page.locator("#resposta")
    expect(answer.locator("table.partidas")).to_have_count(1)
    return answer


def _what_it_says(scope) -> dict:
    """What a person reads of an answer once all of it is open: its source sentence, its lines and its
    departures ("Ver todas", the list of lines)."""
    more = scope.locator("button.mais-partidas")
    if more.count() and more.is_visible() and more.inner_text().startswith("Ver todas"):
        more.click()
    lines = scope.locator("details.rota-linhas")
    if lines.count() and not lines.evaluate("d => d.open"):
        lines.locator("summary").click()
    return {"fonte": " ".join(scope.locator("p.fonte").first.inner_text().split()),
            "linhas": _rows(scope.locator("table.rota-linhas")),
            "caption": scope.locator("table.partidas caption").inner_text(),
            "partidas": _rows(scope.locator("table.partidas"))}


def test_the_form_renders_the_same_answer_as_the_pair_page(browser, pair_url):
    tab = _open(browser, pair_url)
    page = tab.page
    try:
        answer = _answer_by_form(page, "Brasília", "Caldas Novas")
        by_form = _what_it_says(answer)
        answer.get_by_label("Dia da semana").select_option(label="Sábado")  # the filters work there too
        assert len(_rows(answer.locator("table.partidas"))) == 2
        page.goto(PAIR)
        assert by_form == _what_it_says(page.locator("main"))
        assert "parte de Taguatinga (DF), região administrativa de Brasília" in " ".join(by_form["linhas"])
        answer = _answer_by_form(page, "Luziânia", "Brasília")
        by_form = _what_it_says(answer)
        expect(answer).to_contain_text("1 linha; 7 partidas por semana de linhas sem horário informado pela fonte")
        page.goto("/cidades/go/luziania/para/df-brasilia/")
        assert by_form == _what_it_says(page.locator("main"))
        assert tab.console_errors == []
    finally:
        page.context.close()


@pytest.mark.slow
def test_real_export_the_form_and_the_page_agree_on_brasilia_to_aguas_lindas(browser, real_url):
    tab = _open(browser, real_url)
    page = tab.page
    try:
        answer = _answer_by_form(page, "Brasília", "Águas Lindas de Goiás")
        by_form = _what_it_says(answer)
        expect(answer).to_contain_text("5 linhas, 90 partidas por semana a partir de Brasília; 14 partidas por semana "
                                       "de linhas sem horário informado pela fonte (00:00 na exportação), não contadas.")
        page.goto("/cidades/df/brasilia/para/go-aguas-lindas-de-goias/")
        assert by_form == _what_it_says(page.locator("main"))
        assert by_form["fonte"].startswith("Fonte: ANTT — Agência Nacional de Transportes Terrestres, Quadro de horários "
                                           "2021 (dados de 2021). Esta resposta não considera seções das linhas")
        assert len(by_form["partidas"]) == 23 and by_form["partidas"][-1].startswith("horário não informado pela fonte")
        assert tab.console_errors == []
    finally:
        page.context.close()


def _next_departures(departures: list[dict], now) -> list[dict]:
    """The departures by how soon each leaves after ``now`` (its weekday and month flags; a placeholder time
    or none marked last), as a passenger reckons it, the answer's order among equals."""
    from datetime import timedelta

    months = [None, "janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro",
              "outubro", "novembro", "dezembro"]

    def until(p):
        if p["sem_horario"]:
            return float("inf")
        hour, minute = map(int, p["horario"].split(":"))
        for k in range(8):
            day = now + timedelta(days=k)
            at = day.replace(hour=hour, minute=minute, second=0, microsecond=0)
            if p["dias"][day.weekday()] and at >= now.replace(second=0, microsecond=0) and (
                    p["meses"] is None or months[day.month] in p["meses"]):
                return (at - now.replace(second=0, microsecond=0)).total_seconds()
        return float("inf")

    return sorted(departures, key=until)


@pytest.mark.slow
@pytest.mark.parametrize("moment", ["2026-12-02T17:41:00-03:00", "2026-12-06T23:50:00-03:00"])
def test_on_a_phone_a_long_answer_shows_the_next_departures_first_and_the_rest_on_demand(browser, real_url,
                                                                                         real_only_site, moment):
    import json
    from datetime import datetime

    context = browser.new_context(base_url=real_url, viewport={"width": 360, "height": 740},
                                  timezone_id="America/Sao_Paulo")
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.clock.set_fixed_time(moment)
        page.goto("/cidades/sp/sao-paulo/para/rj-rio-de-janeiro/")
        table = page.locator("table.partidas")
        expect(page.locator(".filtro-partidas [role=status]")).to_have_text(
            f"As 8 próximas partidas a partir de agora ({moment[11:16]}), de 86 partidas.")
        answer = json.loads((real_only_site / "cidades/sp/sao-paulo/para/rj-rio-de-janeiro.json").read_text(encoding="utf-8"))
        now = datetime.fromisoformat(moment).replace(tzinfo=None)
        expected = [f"{p['horario']} {p['linha']}" for p in _next_departures(answer["partidas"], now)[:8]]
        assert [" ".join(r.split()[:2]) for r in _rows(table)] == expected  # the time and the line of each
        height = page.evaluate("document.documentElement.scrollHeight")
        assert height < 5000, height  # 26,191 px when every departure and line showed at once
        lines = page.locator("details.rota-linhas")
        expect(lines.locator("summary")).to_have_text(
            "37 linhas de São Paulo para Rio de Janeiro: ligação, transportadoras e partidas por semana de cada uma")
        expect(lines.locator("table")).to_be_hidden()
        page.get_by_role("button", name="Ver todas as 86 partidas, por horário").click()
        times = [r.split()[0] for r in _rows(table)]
        assert len(times) == 86 and times == sorted(times)  # the page's own order, by time
        page.get_by_role("button", name="Ver só as próximas partidas").click()
        assert len(_rows(table)) == 8
        lines.locator("summary").click()
        assert len(_rows(lines.locator("table"))) == 37
        assert errors == []
    finally:
        context.close()


def test_the_tickets_keep_the_mean_price_paid_beside_the_month(sample_site):
    from bs4 import BeautifulSoup

    pages = [p for p in (sample_site / "cidades").glob("*/*/para/*/index.html")
             if "rota-bilhetes" in p.read_text(encoding="utf-8")]
    assert pages
    table = BeautifulSoup(pages[0].read_text(encoding="utf-8"), "html.parser").find("table", class_="rota-bilhetes")
    assert [th.get_text() for th in table.thead.find_all("th")][:2] == ["Mês da viagem", "Valor médio pago"]
    first = table.tbody.find("tr")
    assert first.find_all("td")[0].get_text().startswith("R$") or first.find_all("td")[0].get_text() == "—"
