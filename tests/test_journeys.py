"""Issue 34: for a pair of places no line links, the journeys with one change of bus (pipeline/places/journeys.py),
in the form's answer (theme/static/js/rotas.js, the rule's twin in nomes.js), the search page and the command line.

The rule's worked examples (tests/fixtures/baldeacoes.json) test both of its sides, Python and the browser's. On
the real 2021 export every journey offered is recounted from the CSV, for every pair of places no line links."""

from __future__ import annotations

import csv
import json
import re
import subprocess
import sys
from collections import Counter, defaultdict

import pytest
from browser_support import _open, _serve, serious_violations
from conftest import FIXTURES, REAL_EXPORT, answer_json
from playwright.sync_api import expect

from pipeline import PROJECT_ROOT
from pipeline.places import matching, resolve
from pipeline.places.journeys import MESSAGES, OFFERED, one_change, untimed

EXAMPLES = json.loads((FIXTURES / "baldeacoes.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", EXAMPLES["casos"], ids=lambda c: f"{c['de']}-{c['para']}")
def test_the_rule_gives_its_worked_examples(case):
    assert one_change(EXAMPLES["lugares"], case["de"], case["para"]) == case["esperado"], case["por_que"]


@pytest.mark.browser
def test_the_browser_gives_the_same_worked_examples(tab):
    page = tab.page
    page.goto("/")
    page.wait_for_function("() => !!(window.portal && window.portal.nomes && window.portal.nomes.oneChange)")
    got = page.evaluate("([l, c]) => c.map(x => window.portal.nomes.oneChange(l, x.de, x.para))",
                        [EXAMPLES["lugares"], EXAMPLES["casos"]])
    assert got == [c["esperado"] for c in EXAMPLES["casos"]]
    assert tab.console_errors == []


def test_a_pair_whose_every_line_is_paralysed_is_no_leg(sample_site):
    """The sample's paralysed pairs: where the regulator publishes every line of a pair as paralysed, the pair's
    answer offers no line, ``index.json`` gives it no departures (None), and no journey takes it. A pair whose
    lines give no departure from that place is said so (``sem_horarios``, or left out of ``com_horarios``)."""
    places = json.loads((sample_site / "cidades" / "index.json").read_text(encoding="utf-8"))
    stopped, unknowns = [], 0
    for a, place in enumerate(places):
        for b, weekly in zip(place["destinos"], place["partidas"]):
            answer = answer_json(sample_site, place["chave"], places[b]["chave"])
            assert (weekly is None) == (not answer["linhas"])
            # a leg whose departures no source gives (a section's or a stop's place): said so, never "0 partidas"
            unknown = bool(answer["linhas"]) and all(line["partidas_semana"] is None for line in answer["linhas"])
            assert untimed(place, b) == unknown  # listed in sem_horarios, or left out of com_horarios
            unknowns += unknown
            if weekly is None:
                assert answer["paralisadas"]
                stopped.append((a, b))
            else:
                assert weekly == answer["partidas_semana"]
    assert stopped and unknowns  # the sample has such pairs
    for a, b in stopped:
        for para in range(len(places)):
            assert all(j["via"] != b for j in one_change(places, a, para))


def _recount() -> tuple[dict, Counter]:
    """From the export itself: each place's other places, both ways along each line's terminals (the test company's
    lines left out), and each pair's weekly departures (the directions whose every time is 00:00 not counted)."""
    with open(REAL_EXPORT, encoding="iso-8859-1", newline="") as fh:
        reader = csv.reader(fh, delimiter=";")
        header = next(reader)
        rows = [dict(zip(header, r)) for r in dict.fromkeys(tuple(" ".join(c.split()) for c in raw) for raw in reader)]
    ends = re.compile(r"^(.+?)\s*\(([A-Z]{2,3})\)\s*-\s*(.+?)\s*\(([A-Z]{2,3})\)")
    days = ["segunda_feira", "terca_feira", "quarta_feira", "quinta_feira", "sexta_feira", "sabado", "domingo"]
    real = [r for r in rows if "EMPRESA TESTE" not in r["razao_social"].upper()]
    times = defaultdict(set)
    for r in real:
        times[(r["prefixo"], r["sentido"].lower())].add(r["horario"])
    reach, weekly = defaultdict(set), Counter()
    for r in real:
        m = ends.match(r["descricao_linha"])
        origin, destination = resolve(m[1], m[2]).chave, resolve(m[3], m[4]).chave
        if origin == destination:
            continue
        reach[origin].add(destination)
        reach[destination].add(origin)
        if r["sentido"].lower() == "volta":
            origin, destination = destination, origin
        if times[(r["prefixo"], r["sentido"].lower())] != {"00:00"}:
            weekly[(origin, destination)] += sum(r[d] in ("x", "X") for d in days)
    return reach, weekly


@pytest.mark.slow
def test_real_export_every_journey_offered_is_recounted_from_the_csv(real_only_site):
    """For every ordered pair of places no line links, the journeys offered are exactly the places where a line
    from the origin arrives and a line to the destination leaves, recounted from the CSV, with each leg's weekly
    departures, ranked by the rarer leg, then both legs, then the place's order; every pair a change links gets
    one."""
    places = json.loads((real_only_site / "cidades" / "index.json").read_text(encoding="utf-8"))
    at = {p["chave"]: k for k, p in enumerate(places)}
    reach, weekly = _recount()
    assert {p["chave"] for p in places if p["destinos"]} == set(reach)
    answered = 0
    for a in reach:
        for b in at:
            if a == b:
                continue
            got = one_change(places, at[a], at[b])
            if b in reach[a]:
                assert got == []
                continue
            expected = sorted(([c, weekly[(a, c)], weekly[(c, b)]] for c in reach[a] if b in reach[c]),
                              key=lambda j: (-min(j[1:]), -(j[1] + j[2]), at[j[0]]))
            assert [[places[j["via"]]["chave"], *j["partidas"]] for j in got] == expected, (a, b)
            answered += bool(got)
    assert answered == 121_160  # the README's count: pairs no line links that one change does


@pytest.mark.slow
def test_the_command_line_offers_the_journeys_of_manaus_to_sao_paulo(real_only_site):
    reach, weekly = _recount()
    assert "sp/sao-paulo" not in reach["am/manaus"]
    via = sorted(c for c in reach["am/manaus"] if "sp/sao-paulo" in reach[c])
    assert via == ["ro/porto-velho"]
    answer = subprocess.run([sys.executable, "-m", "pipeline", "search", "Manaus para São Paulo", "--index",
                             str(real_only_site.parent / "busca")], capture_output=True, text=True, cwd=PROJECT_ROOT)
    assert answer.returncode == 0
    assert answer.stderr.splitlines()[:2] == [
        "Nenhuma linha das fontes liga Manaus (AM) a São Paulo (SP).",
        "Com uma baldeação, pelas linhas das fontes: 1 caminho."]
    assert "não sabe se um ônibus que chega na cidade da baldeação alcança o seguinte" in answer.stderr
    first, second = answer.stdout.splitlines()[:2]
    assert first.split()[:2] == ["baldeacao", "am/manaus"] and first.endswith("/cidades/am/manaus/para/ro-porto-velho/")
    assert f"de Manaus (AM) para Porto Velho (RO), {weekly[('am/manaus', 'ro/porto-velho')]} partidas por semana" in first
    assert f"{weekly[('ro/porto-velho', 'sp/sao-paulo')]} partidas por semana" in second
    assert second.endswith("/cidades/ro/porto-velho/para/sp-sao-paulo/")
    many = subprocess.run([sys.executable, "-m", "pipeline", "search", "Foz do Iguaçu - Curitiba", "--index",
                           str(real_only_site.parent / "busca")], capture_output=True, text=True, cwd=PROJECT_ROOT)
    legs = [line for line in many.stdout.splitlines() if line.startswith("baldeacao")]
    assert len(legs) == 2 * OFFERED
    assert f"Há mais {sum(1 for c in reach['pr/foz-do-iguacu'] if 'pr/curitiba' in reach[c]) - OFFERED} cidades" in many.stderr


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.parametrize("width", [360, 1280])
def test_the_form_answers_manaus_to_sao_paulo_with_its_change_in_porto_velho(browser, real_url, real_only_site, axe,
                                                                            width):
    tab = _open(browser, real_url, viewport={"width": width, "height": 800}, bypass_csp=True)  # axe: an inline script
    page = tab.page
    answer = page.locator("#resposta")
    try:
        page.goto("/")
        page.locator("#de").fill("manaus")
        page.locator("#para").fill("sao paulo")
        page.locator("#de").press("Enter")
        expect(answer.get_by_role("status")).to_have_text("Nenhuma linha das fontes liga Manaus (AM) a São Paulo (SP).")
        journeys = answer.locator("section.baldeacoes")
        expect(journeys.get_by_role("heading", level=2)).to_have_text("Com uma baldeação")
        expect(journeys).to_contain_text("não sabe se um ônibus que chega na cidade da baldeação alcança o seguinte")
        expect(journeys.locator("ol.baldeacoes > li")).to_have_count(1)
        expect(journeys.get_by_role("heading", level=3)).to_contain_text("Por Porto Velho (RO)")
        for k, (a, b) in enumerate((("am/manaus", "ro/porto-velho"), ("ro/porto-velho", "sp/sao-paulo"))):
            leg = journeys.locator("details.trecho").nth(k)
            leg.locator("summary").click()
            pair = answer_json(real_only_site, a, b)
            rows = leg.locator("table.partidas tbody tr")
            expect(rows).to_have_count(len(pair["partidas"]))
            expect(rows.first).to_contain_text(pair["partidas"][0]["horario"])
            for line in pair["linhas"]:
                expect(leg.locator("ul.trecho-linhas")).to_contain_text(line["prefixo"])
                for carrier in line["transportadoras"]:
                    expect(leg.locator("ul.trecho-linhas")).to_contain_text(carrier["nome"])
        overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0
        assert serious_violations(page, axe) == []  # both legs open, each with its departures' filter
        assert tab.console_errors == []
    finally:
        page.context.close()


@pytest.mark.slow
@pytest.mark.browser
def test_the_search_page_sends_a_journey_no_line_serves_to_the_answer_with_its_changes(browser, real_url):
    tab = _open(browser, real_url)
    page = tab.page
    try:
        page.goto("/busca/?q=" + "Manaus%20para%20S%C3%A3o%20Paulo")
        first = page.locator("#resultados li").first
        expect(first).to_contain_text("Com uma baldeação, pelas linhas das fontes: 1 caminho.")
        expect(first).to_contain_text("o primeiro por Porto Velho (RO)")
        first.get_by_role("link").first.click()
        expect(page.locator("section.baldeacoes h3")).to_contain_text("Por Porto Velho (RO)")
        assert tab.console_errors == []
    finally:
        page.context.close()


def test_a_legs_length_is_the_shortest_its_lines_or_sections_give(sample_site):
    """The sample's lengths, recounted from its CSVs: a pair's ``km`` in ``index.json`` is, among the lines its
    answer offers, the shortest length the sources give of a line's way between the two places: the line's own
    when they are its terminals, else its section's between them; None where no such length is given."""
    data = sample_site / "dados"
    read = lambda name: list(csv.DictReader(open(data / f"{name}.csv", encoding="utf-8")))  # noqa: E731
    place = lambda name, uf: resolve(name, uf).chave  # noqa: E731
    own, by_section = {}, defaultdict(list)
    for line in read("linhas"):
        own[line["prefixo"]] = ({place(line["origem_municipio"], line["origem_uf"]),
                                 place(line["destino_municipio"], line["destino_uf"])}, line["extensao_km"])
    for s in read("secoes"):
        by_section[s["linha_prefixo"]].append(({place(s["origem_municipio"], s["origem_uf"]),
                                                place(s["destino_municipio"], s["destino_uf"])}, s["extensao_km"]))
    places = json.loads((sample_site / "cidades" / "index.json").read_text(encoding="utf-8"))
    known = 0
    for p in places:
        for b, km in zip(p["destinos"], p.get("km") or [None] * len(p["destinos"])):
            ends = {p["chave"], places[b]["chave"]}
            answer = answer_json(sample_site, p["chave"], places[b]["chave"])
            lengths = []
            for line in answer["linhas"]:
                terminals, length = own[line["prefixo"]]
                if terminals != ends:
                    length = next((k for e, k in by_section[line["prefixo"]] if e == ends), "")
                if length:
                    lengths.append(float(length))
            assert km == (min(lengths) if lengths else None), (p["chave"], places[b]["chave"])
            known += km is not None
    assert known  # the sample gives lengths


@pytest.fixture(scope="module")
def sample_url(sample_site):
    yield from _serve(sample_site)


@pytest.mark.browser
def test_a_leg_inside_one_state_says_whose_service_it_is_in_the_words_of_the_python_side(browser, sample_url):
    """The sample's Águas Lindas de Goiás -> Teófilo Otoni: a journey by Montes Claros (MG), whose second leg lies in
    Minas Gerais; the form says so in the words pipeline/places/journeys.py formats for the command line."""
    tab = _open(browser, sample_url)
    page = tab.page
    try:
        page.goto("/?de=" + "%C3%81guas%20Lindas&para=Te%C3%B3filo%20Otoni")
        legs = page.locator("section.baldeacoes ul.trecho-linhas")
        expect(legs).to_have_count(2 * 3)
        said = MESSAGES["trecho_mesmo_estado"].format(de="Montes Claros (MG)", para="Teófilo Otoni (MG)",
                                                      estado=matching.states()["MG"])
        assert said in page.locator("section.baldeacoes p.nota").all_text_contents()
        # the first leg has no page of its own (a section alone, cities.own_page): its link leads to the row
        expect(page.locator("section.baldeacoes a[href='/cidades/go/aguas-lindas-de-goias/#para-mg-montes-claros']")
               ).to_have_text(["A resposta de Águas Lindas de Goiás (GO) para Montes Claros (MG)"])
        assert tab.console_errors == []
    finally:
        page.context.close()


@pytest.mark.browser
def test_a_pair_without_a_page_of_its_own_is_answered_in_its_row_and_linked_there(browser, sample_url, sample_site):
    """The sample's Curitiba -> Joinville: one line links them by a section, with no departure, fare or ticket
    between them, so the pair has no page (cities.own_page): Curitiba's row of destinations lists the line,
    and the form's answer, its link and the search's first result all lead to that row."""
    assert not (sample_site / "cidades/pr/curitiba/para/sc-joinville").exists()
    places = json.loads((sample_site / "cidades/index.json").read_text(encoding="utf-8"))
    curitiba = next(p for p in places if p["chave"] == "pr/curitiba")
    joinville = next(k for k, p in enumerate(places) if p["chave"] == "sc/joinville")
    assert joinville in curitiba["destinos"]
    assert joinville in curitiba["sem_pagina"] if "sem_pagina" in curitiba else joinville not in curitiba["com_pagina"]
    tab = _open(browser, sample_url)
    page = tab.page
    try:
        page.goto("/?de=Curitiba&para=Joinville")  # the form answers from the pair's JSON, as for any pair
        answer = page.locator("#resposta")
        expect(answer.locator("h2")).to_have_text("De Curitiba (PR) para Joinville (SC)")
        served = answer.locator("a[href^='/linhas/']").all_text_contents()
        assert served
        page.goto("/busca/?q=curitiba%20joinville")
        expect(page.locator("#estado-busca")).to_contain_text("encontrad")
        first = page.locator("#resultados li h2 a").first
        expect(first).to_have_text("De Curitiba (PR) para Joinville (SC)")
        expect(first).to_have_attribute("href", "/cidades/pr/curitiba/#para-sc-joinville")
        first.click()
        row = page.locator("#para-sc-joinville")
        expect(row).to_be_in_viewport()
        expect(row.locator("th")).to_have_text("Joinville (SC)")
        assert row.locator("td").first.locator("a").all_text_contents() == served  # the same lines
        # the index lists a place's pairs without a page (Rio de Janeiro's), or those with one (Curitiba's)
        assert "sem_pagina" in next(p for p in places if p["chave"] == "rj/rio-de-janeiro")
        for typed, href in (("rio de janeiro juiz de fora", "/cidades/rj/rio-de-janeiro/#para-mg-juiz-de-fora"),
                            ("curitiba florianopolis", "/cidades/pr/curitiba/para/sc-florianopolis/")):
            page.goto("/busca/?q=" + typed.replace(" ", "%20"))
            expect(page.locator("#estado-busca")).to_contain_text("encontrad")
            expect(page.locator("#resultados li h2 a").first).to_have_attribute("href", href)
        assert tab.console_errors == []
    finally:
        page.context.close()


def test_the_answer_of_every_pair_is_where_the_python_rule_says_and_a_page_or_row_is_there(sample_site):
    """cities.answer_url (the command line's search; nomes.js answerUrl is its twin, tested in Chromium above):
    every pair of the sample's index leads to a page that exists, or to a row of its origin's page."""
    from pipeline.site.cities import answer_url

    places = json.loads((sample_site / "cidades/index.json").read_text(encoding="utf-8"))
    kinds = Counter()
    for de in places:
        for k in de["destinos"]:
            url = answer_url(places, de, places[k])
            if "#" in url:
                page, anchor = url.split("#")
                assert f'id="{anchor}"' in (sample_site / page.strip("/") / "index.html").read_text(encoding="utf-8")
                assert not (sample_site / page.strip("/") / "para" / anchor.removeprefix("para-")).exists()
            else:
                assert (sample_site / url.strip("/") / "index.html").is_file(), url
            kinds["#" in url] += 1
    assert kinds[True] and kinds[False]  # the sample has both
    # and both ways of listing them: the fewer of those without a page and those with one
    assert any("sem_pagina" in p for p in places) and any("com_pagina" in p for p in places)
    curitiba = next(p for p in places if p["chave"] == "pr/curitiba")
    joinville = next(p for p in places if p["chave"] == "sc/joinville")
    assert answer_url(places, curitiba, joinville) == "/cidades/pr/curitiba/#para-sc-joinville"
    # the row says how the line links them, and the page explains only the ways its rows use
    page = (sample_site / "cidades/pr/curitiba/index.html").read_text(encoding="utf-8")
    assert "09-0129-00</a> (pelas paradas)" in page
    assert "Pelas paradas: a linha para em Curitiba e depois no destino" in page and "Por seção:" not in page


@pytest.mark.browser
@pytest.mark.parametrize("width", [360, 1280])
def test_a_places_destinations_pass_axe_and_fit_the_screen(browser, sample_url, axe, width):
    """Curitiba's destinations, two of them answered in their rows: no serious axe violation, nothing wider
    than the screen, each row's lines in view (on a phone each row is a card)."""
    tab = _open(browser, sample_url, bypass_csp=True)  # axe is injected as an inline script
    page = tab.page
    try:
        page.set_viewport_size({"width": width, "height": 800})
        page.goto("/cidades/pr/curitiba/")
        assert serious_violations(page, axe) == []
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        for row in ("#para-sc-joinville", "#para-sc-blumenau"):
            for cell in page.locator(f"{row} td").all():
                box = cell.bounding_box()
                assert box["x"] >= 0 and box["x"] + box["width"] <= width, (row, box)
    finally:
        page.context.close()
