"""Issue 25: the "De ... Para ..." form as passengers type into it, on the real 2021 export in Chromium.

Places are found by the rule of pipeline/places/matching.py (nomes.js): nicknames, typing errors said as "Você quis
dizer", DF regions named as such, a journey typed in "De" alone; a choice of place keeps the other end; Enter
on the origin alone stays in the form; a same-state trip says whose service it is; on a phone the form is on
the first screen and the departures come before the list of lines."""

from __future__ import annotations

import re

import pytest
from browser_support import _open
from playwright.sync_api import expect

pytestmark = [pytest.mark.slow, pytest.mark.browser]


def ask(page, de: str, para: str = "") -> None:
    page.locator("#de").fill(de)
    page.locator("#para").fill(para)
    page.locator("#de").press("Enter")


def test_places_are_found_however_typed_and_a_choice_keeps_the_other_end(browser, real_url):
    tab = _open(browser, real_url)
    page = tab.page
    answer = page.locator("#resposta")
    try:
        page.goto("/")
        ask(page, "BH", "Rio")
        expect(answer.locator("h2")).to_have_text("De Belo Horizonte (MG) para Rio de Janeiro (RJ)")
        ask(page, "curitba", "sao paulo")
        expect(answer).to_contain_text("Você quis dizer Curitiba (PR)?")
        expect(answer.locator("h2")).to_have_text("De Curitiba (PR) para São Paulo (SP)")
        ask(page, "taguatinga df", "Trindade")
        expect(answer).to_contain_text("Taguatinga (DF), região administrativa de Brasília")
        expect(answer.locator("h2")).to_have_text("De Brasília (DF) para Trindade (GO)")
        ask(page, "sao paulo rio de janeiro")  # a journey typed in "De" alone
        expect(answer.locator("h2")).to_have_text("De São Paulo (SP) para Rio de Janeiro (RJ)")
        # Valença is in BA and in RJ: choosing keeps the destination typed
        ask(page, "Valença", "São Paulo")
        expect(answer).to_contain_text("Mais de uma cidade corresponde a “Valença”")
        answer.get_by_role("link", name="Valença (RJ)").click()
        expect(page.locator("#para")).to_have_value("São Paulo")
        expect(answer.locator("h2")).to_have_text("De Valença (RJ) para São Paulo (SP)")
        expect(page).to_have_url(re.compile(r"de=Valen.*para=S"))
        assert tab.console_errors == []
    finally:
        page.context.close()


def test_enter_on_the_origin_alone_stays_and_a_same_state_trip_says_whose_service_it_is(browser, real_url):
    tab = _open(browser, real_url)
    page = tab.page
    answer = page.locator("#resposta")
    try:
        page.goto("/")
        ask(page, "Goiânia")
        expect(answer).to_contain_text("De Goiânia (GO) para onde?")
        expect(page).to_have_url(real_url + "/")  # still the form's page
        expect(page.locator("#para")).to_be_focused()
        ask(page, "Foz do Iguaçu", "Curitiba")
        expect(answer).to_contain_text("Nenhuma linha das fontes liga Foz do Iguaçu (PR) a Curitiba (PR).")
        expect(answer).to_contain_text("mesmo estado (Paraná)")
        expect(answer.get_by_role("link", name="Destinos a partir de Foz do Iguaçu (PR)")).to_be_visible()
        assert tab.console_errors == []
    finally:
        page.context.close()


def test_on_a_phone_the_form_is_on_the_first_screen_and_departures_come_first(browser, real_url):
    tab = _open(browser, real_url, viewport={"width": 360, "height": 740})
    page = tab.page
    try:
        page.goto("/")
        box = page.locator("#de").bounding_box()
        assert box["y"] + box["height"] < 740, box  # was 1,012 px down
        page.goto("/cidades/sp/sao-paulo/para/rj-rio-de-janeiro/")
        heading = page.locator("main h1").bounding_box()
        departures = page.locator("table.partidas").bounding_box()
        lines = page.locator("table.rota-linhas").bounding_box()
        assert departures["y"] < lines["y"]
        assert departures["y"] - heading["y"] < 900, (heading, departures)  # was 5,970 px
        page.goto("/")
        ask(page, "São Paulo", "Rio de Janeiro")  # the same answer from the form
        first = page.locator("#resposta table").first
        expect(first).to_have_class("partidas cartoes")
        assert tab.console_errors == []
    finally:
        page.context.close()


def test_the_places_load_when_the_form_is_used_and_a_town_of_the_test_company_alone_says_why(browser, real_url):
    tab = _open(browser, real_url)
    page = tab.page
    answer = page.locator("#resposta")
    asked = []
    page.on("request", lambda request: asked.append(request.url))
    try:
        page.goto("/")
        page.wait_for_load_state("networkidle")
        assert not [u for u in asked if "cidades/index.json" in u], "the places were fetched before anyone typed"
        ask(page, "Piau", "São Paulo")
        expect(answer).to_contain_text("Piau (MG) aparece nas fontes só na linha 06-1863-00 da empresa de teste")
        expect(answer).not_to_contain_text("Confira o nome")
        expect(answer.get_by_role("link", name="Página da linha")).to_have_attribute("href", "/linhas/06-1863-00/")
        assert [u for u in asked if "cidades/index.json" in u]
        options = page.locator("#lista-cidades option")
        expect(options.first).to_be_attached()
        values = options.evaluate_all("(os) => os.map((o) => o.value)")
        assert "Goiânia (GO)" in values and "Piau (MG)" not in values
        assert tab.console_errors == []
    finally:
        page.context.close()
