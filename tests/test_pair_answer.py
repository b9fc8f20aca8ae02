"""The answer from A to B (pipeline/site/cities.py, theme/templates/_rota.html and cidade_para.html, the pair's
JSON that theme/static/js/rotas.js renders), as a passenger reads it: one departure per line and time with its
carrier, class, weekdays and months; placeholder times said and not counted; places filed under a
municipality (TAGUATINGA under Brasília) compared as the place they are; the export's test company never
offered; the answer's sources and what they do not cover; the weekly departures of every pair of the real
export recomputed from its CSV (issue 25).

The fast tests build a small package: the minimal fixture plus a line from TAGUATINGA (DF), a semi-urban
line whose only time is 00:00, a departure that runs in January alone, and the export's test company on a
line of its own and on 12-0140-00. The slow ones read the build of the real 2021 export (conftest)."""

from __future__ import annotations

import csv
import functools
import json
import re
import shutil
from collections import Counter, defaultdict
from datetime import date
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from conftest import MINIMAL, REAL_EXPORT, all_answers, answer_json, page_text

from pipeline.adapters.common import TEST_COMPANY_NOTE
from pipeline.build import build
from pipeline.contract.settings import Settings
from pipeline.places import resolve
from pipeline.site.cities import terminal
from pipeline.site.placeholders import NOTE, NOTE_ONE_DIRECTION, has_placeholder_times, placeholder_notes
from pipeline.site.timetable import mixed, service_class

TEST_CNPJ = "76423366000135"  # EMPRESA TESTE SUPAS, the real export's test company
ALL = ",".join(["true"] * 7)
YEAR = ",".join(["true"] * 12)
JANUARY = ",".join(["true"] + ["false"] * 11)
SATURDAY = ",".join(["false"] * 5 + ["true", "false"])
HORARIOS = [  # linha, cnpj, sentido, horario, categoria, tipo, dias, meses
    ("12-0999-00", "11222333000181", "ida", "09:30", "semileito", "SEMI-LEITO", SATURDAY, JANUARY),
    ("12-0999-00", "11222333000181", "volta", "17:00", "semileito", "SEMI-LEITO", ALL, YEAR),
    ("12-0999-00", "11222333000181", "volta", "21:00", "leito_com_ar", "MISTO - LEITO / SEMI-LEITO", SATURDAY, YEAR),
    ("12-5001-70", "11222333000181", "ida", "00:00", "semiurbano", "SEMI-URBANO", ALL, YEAR),
    ("12-5001-70", "11222333000181", "volta", "00:00", "semiurbano", "SEMI-URBANO", ALL, YEAR),
    ("06-1863-00", TEST_CNPJ, "ida", "13:00", "convencional_com_sanitario", "CONVEN. C/ SANITÁRIO", ALL, YEAR),
    ("12-0140-00", TEST_CNPJ, "ida", "16:00", "convencional_com_sanitario", "CONVEN. C/ SANITÁRIO", ALL, YEAR),
]
LINHAS = [
    "12-0999-00,TAGUATINGA(DF) - CALDAS NOVAS(GO),TAGUATINGA,DF,CALDAS NOVAS,GO,interestadual,,,",
    "12-5001-70,LUZIANIA(GO) - BRASILIA(DF),LUZIANIA,GO,BRASILIA,DF,semiurbano,,,",
    "06-1863-00,PIAU(MG) - AGUA COMPRIDA(MG),PIAU,MG,AGUA COMPRIDA,MG,interestadual,,,",
]


def _package(folder: Path) -> Path:
    """The minimal package with the rows above (the test company flagged as the ingest flags it)."""
    shutil.copytree(MINIMAL, folder)
    with open(folder / "linhas.csv", "a", encoding="utf-8") as fh:
        fh.write("\n".join(LINHAS) + "\n")
    with open(folder / "horarios.csv", "a", encoding="utf-8") as fh:
        for linha, cnpj, sentido, hora, categoria, tipo, dias, meses in HORARIOS:
            fh.write(f"{linha},{cnpj},{sentido},{hora},{categoria},{tipo},,{dias},{meses},\n")
    carriers = (folder / "transportadoras.csv").read_text(encoding="utf-8").splitlines()
    carriers = [carriers[0] + ",observacao"] + [r + "," for r in carriers[1:]]
    carriers.append(f'{TEST_CNPJ},EMPRESA TESTE SUPAS,,PR,CURITIBA,"{TEST_COMPANY_NOTE}"')
    (folder / "transportadoras.csv").write_text("\n".join(carriers) + "\n", encoding="utf-8")
    return folder


@functools.cache
def build_pair_site(root: Path) -> Path:
    """The package above, built once per session (tests/test_pair_answer_browser.py serves it too)."""
    out = root / "site"
    build(Settings(data=(_package(root / "pacote"),), out=out, as_of=date(2026, 6, 30), whoosh_dir=root / "busca",
                   search_index=False))
    return out


@pytest.fixture(scope="session")
def pair_site(tmp_path_factory) -> Path:
    return build_pair_site(tmp_path_factory.getbasetemp() / "pares")


def _page(site: Path, pair: str) -> BeautifulSoup:
    return BeautifulSoup((site / "cidades" / pair / "index.html").read_text(encoding="utf-8"), "html.parser")


def _json(site: Path, pair: str) -> dict:
    frm, _, to = pair.partition("/para/")
    return answer_json(site, frm, to.replace("-", "/", 1))


def _text(node) -> str:
    return " ".join(node.get_text(" ").split())


def _departures(page: BeautifulSoup) -> list[list[str]]:
    """The departures table's rows as a person reads them: time, line, carrier, class, days, months."""
    table = page.find("table", class_="partidas")
    return [[_text(c) for c in tr.find_all(["th", "td"])] for tr in table.tbody.find_all("tr")]


def _lines(page: BeautifulSoup) -> dict[str, list[str]]:
    table = page.find("table", class_="rota-linhas")
    return {_text(tr.th): [_text(c) for c in tr.find_all("td")] for tr in table.tbody.find_all("tr")}


# --- the rule of placeholder times (not a rule of the decree) -------------------------------------------


def test_a_line_whose_every_time_is_midnight_has_placeholder_times():
    assert has_placeholder_times(["00:00", "00:00"])
    assert not has_placeholder_times(["00:00", "07:30"])  # real times of its own direction: taken at its word
    assert not has_placeholder_times([])
    assert not has_placeholder_times(iter(["23:59"]))


def test_a_direction_whose_every_time_is_midnight_beside_real_times_is_said_to_be_inferred():
    assert placeholder_notes({"ida": ["00:00"], "volta": ["00:00", "00:00"]}) == {"ida": NOTE, "volta": NOTE}
    assert placeholder_notes({"ida": ["14:10"], "volta": ["00:00"]}) == {"volta": NOTE_ONE_DIRECTION}
    assert placeholder_notes({"ida": ["14:10", "00:00"], "volta": ["05:00"]}) == {}
    assert "inferido pelo portal" in NOTE_ONE_DIRECTION


@pytest.mark.slow
def test_real_export_midnight_returns_beside_real_outbound_times_are_not_counted(real_only_site):
    """São Bernardo do Campo - Fortaleza: the outbound trips give real times, the returns only 00:00 (line
    08-9427-00: 14:10 out, 00:00 back). The returns are said to have no time and are not counted."""
    back = _real(real_only_site, "ce/fortaleza/para/sp-sao-bernardo-do-campo")
    lines = {x["prefixo"]: x for x in back["linhas"]}
    assert lines["08-9427-00"]["sem_horario"] and lines["08-9427-00"]["partidas_semana"] == 0
    assert lines["08-9427-00"]["nota"] == NOTE_ONE_DIRECTION and lines["08-9427-00"]["partidas_sem_horario"] == 6
    assert lines["08-9433-00"]["partidas_semana"] == 2 and not lines["08-9433-00"]["sem_horario"]  # real times
    assert back["partidas_semana"] == 2 and back["partidas_sem_horario"] == 24
    out = _real(real_only_site, "sp/sao-bernardo-do-campo/para/ce-fortaleza")
    assert out["partidas_semana"] == 26 and out["partidas_sem_horario"] == 0
    page = page_text(real_only_site / "cidades" / "ce" / "fortaleza" / "para" / "sp-sao-bernardo-do-campo" / "index.html")
    assert NOTE_ONE_DIRECTION in page


# --- the fixture package ------------------------------------------------------------------------------


def test_each_departure_is_a_row_with_its_line_carrier_class_days_and_months(pair_site):
    page = _page(pair_site, "df/brasilia/para/go-caldas-novas")
    assert _departures(page) == [
        ["07:00", "12-0140-00", "VIACAO CERRADO LTDA", "Convencional com sanitário", "todos os dias", "o ano todo"],
        ["09:30", "12-0999-00", "VIACAO CERRADO LTDA", "Semileito", "Sáb", "só em janeiro"],
        ["14:00", "12-0140-00", "VIACAO CERRADO LTDA", "Executivo", "Seg, Ter, Qua, Qui, Sex", "o ano todo"],
    ]
    row = page.find("table", class_="partidas").tbody.find_all("tr")[1]
    assert row.find("a", string="VIACAO CERRADO LTDA")["href"] == "/transportadoras/11222333000181/"
    assert (row["data-dias"], row["data-categoria"]) == ("0000010", "Semileito")  # what the filters read
    answer = _json(pair_site, "df/brasilia/para/go-caldas-novas")
    assert answer["partidas"][1] == {
        "horario": "09:30", "sem_horario": False, "linha": "12-0999-00", "url": "/linhas/12-0999-00/",
        "transportadora": {"nome": "VIACAO CERRADO LTDA", "url": "/transportadoras/11222333000181/"},
        "categoria": "Semileito", "dias": [False] * 5 + [True, False], "meses": ["janeiro"]}
    assert answer["partidas_semana"] == 7 + 1 + 5


def test_a_mixed_vehicle_is_read_as_mixed_not_as_its_highest_class(pair_site):
    """MISTO - LEITO / SEMI-LEITO is filed under leito com ar (its fare ceiling), but a passenger may board
    either class: the answer, its JSON and the line's grid say "Misto", in the source's words."""
    pair = "go/caldas-novas/para/df-brasilia"
    rows = {r[0]: r for r in _departures(_page(pair_site, pair))}
    assert rows["21:00"][3] == "Misto: leito / semi-leito" and rows["17:00"][3] == "Semileito"
    departures = {p["horario"]: p for p in _json(pair_site, pair)["partidas"]}
    assert departures["21:00"]["categoria"] == "Misto: leito / semi-leito"
    assert "Leito com ar-condicionado" not in page_text(pair_site / "cidades" / pair / "index.html")
    line = page_text(pair_site / "linhas" / "12-0999-00" / "index.html")
    assert "Misto: leito / semi-leito" in line and "Leito com ar-condicionado" not in line


@pytest.mark.parametrize("name, uf, read", [
    ("UBERLANDIA", "MG", "Uberlândia"),  # the official spelling, accents and case
    ("SAO  PAULO", "SP", "São Paulo"),
    ("TAGUATINGA", "DF", "Taguatinga"),  # a region of Brasília: its own name, as the answer's note says it
    ("ITAPAGE", "CE", "Itapajé"),  # an old spelling: today's
    ("PUERTO SUAREZ", "BOL", "Puerto Suárez"),  # abroad, reviewed (pipeline/places/exterior.csv): its own spelling
    ("CIUDAD DEL ESTE", "PAR", "CIUDAD DEL ESTE"),  # abroad, not reviewed: the source's text, no spelling invented
])
def test_a_terminal_reads_as_a_passenger_reads_it(name, uf, read):
    assert terminal(name, uf) == read


@pytest.mark.parametrize("vehicle, read", [
    ("MISTO - LEITO / SEMI-LEITO", "Misto: leito / semi-leito"),
    ("MISTO - EXECUTIVO / LEITO COM AR", "Misto: executivo / leito com ar"),
    ("misto -  convencional /  semi-leito ", "Misto: convencional / semi-leito"),
    ("SEMI-LEITO", "Semileito"), ("", "Semileito"), (None, "Semileito")])
def test_the_class_a_passenger_reads(vehicle, read):
    assert service_class("semileito", mixed(vehicle), {"semileito": "Semileito"}.get) == read


def test_a_terminal_filed_under_a_municipality_is_that_place_and_the_answer_says_so(pair_site):
    page = _page(pair_site, "df/brasilia/para/go-caldas-novas")
    lines = _lines(page)
    assert lines["12-0999-00"][0] == ("Taguatinga (DF) → Caldas Novas (GO); "
                                      "parte de Taguatinga (DF), região administrativa de Brasília")
    assert lines["12-0999-00"][2] == "1"  # its departure from Taguatinga counted (it was "sem horários")
    assert "por uma seção" not in page_text(pair_site / "cidades/df/brasilia/para/go-caldas-novas/index.html")
    back = _lines(_page(pair_site, "go/caldas-novas/para/df-brasilia"))
    assert back["12-0999-00"][0].endswith("; chega a Taguatinga (DF), região administrativa de Brasília")
    line = next(x for x in _json(pair_site, "df/brasilia/para/go-caldas-novas")["linhas"] if x["prefixo"] == "12-0999-00")
    assert (line["partidas_semana"], line["por_secao"], line["notas"]) == (
        1, False, ["parte de Taguatinga (DF), região administrativa de Brasília"])


def test_only_a_section_row_makes_the_answer_claim_a_section(pair_site):
    # a pair linked by a section alone, with no departure, fare or ticket: answered in the place's row
    assert not (pair_site / "cidades/go/cristalina/para/df-brasilia/index.html").exists()
    city = page_text(pair_site / "cidades/go/cristalina/index.html")
    assert "Brasília (DF) 12-0140-00 (por seção)" in city
    assert "Por seção: uma seção da linha ( art. 3º XXI ) liga Cristalina ao destino." in city
    # the form reads it from Cristalina's file of the answers in its rows, not a file of its own
    assert not (pair_site / "cidades/go/cristalina/para/df-brasilia.json").exists()
    assert "df-brasilia" in json.loads((pair_site / "cidades/go/cristalina/destinos.json").read_text())["respostas"]
    answer = _json(pair_site, "go/cristalina/para/df-brasilia")
    assert answer["linhas"][0]["por_secao"] is True
    assert answer["url"] == "/cidades/go/cristalina/#para-df-brasilia"


def test_placeholder_times_are_said_and_not_counted(pair_site):
    page = _page(pair_site, "go/luziania/para/df-brasilia")
    assert _departures(page) == [[NOTE, "12-5001-70", "VIACAO CERRADO LTDA", "Semiurbano", "todos os dias", "o ano todo"]]
    text = page_text(pair_site / "cidades/go/luziania/para/df-brasilia/index.html")
    assert "00:00 12-5001-70" not in text
    assert ("1 linha; 7 partidas por semana de linhas sem horário informado pela fonte (00:00 na exportação), "
            "não contadas.") in text
    assert _lines(page)["12-5001-70"][2] == f"7, não contadas: {NOTE}"
    answer = _json(pair_site, "go/luziania/para/df-brasilia")
    assert (answer["partidas_semana"], answer["partidas_sem_horario"]) == (0, 7)
    assert answer["partidas"][0]["sem_horario"] is True and answer["partidas"][0]["nota"] == NOTE
    city = page_text(pair_site / "cidades/go/luziania/index.html")
    assert "Brasília (DF) 1 VIACAO CERRADO LTDA — (mais 7 sem horário informado, não contadas)" in city


def test_the_test_company_never_reaches_a_passenger(pair_site):
    text = page_text(pair_site / "cidades/df/brasilia/para/go-caldas-novas/index.html")
    assert "EMPRESA TESTE" not in text and "16:00" not in text
    answer = _json(pair_site, "df/brasilia/para/go-caldas-novas")
    assert "EMPRESA TESTE" not in json.dumps(answer, ensure_ascii=False)
    assert not (pair_site / "cidades" / "mg" / "piau").exists()  # a place only the test company serves
    places = json.loads((pair_site / "cidades" / "index.json").read_text(encoding="utf-8"))
    # listed so that a person who types them is told why, never a destination of any place
    test_only = [k for k, p in enumerate(places) if p["chave"] in ("mg/piau", "mg/agua-comprida")]
    assert [places[k]["destinos"] for k in test_only] == [[], []]
    assert all("só na linha" in places[k]["nota"] and "empresa de teste" in places[k]["nota"] for k in test_only)
    assert not [p for p in places if set(p["destinos"]) & set(test_only)]
    assert "Piau" not in page_text(pair_site / "cidades" / "index.html")
    line = page_text(pair_site / "linhas" / "06-1863-00" / "index.html")  # its line page keeps it, flagged
    assert "EMPRESA TESTE SUPAS" in line


def test_every_answer_states_its_sources_and_what_they_do_not_cover(tmp_path):
    folder = tmp_path / "sem-tarifas"
    shutil.copytree(MINIMAL, folder)
    for name in ("tarifas.csv", "paradas.csv", "bilhetes.csv"):
        (folder / name).unlink()
    out = tmp_path / "site"
    build(Settings(data=(folder,), out=out, as_of=date(2026, 6, 30), whoosh_dir=tmp_path / "busca", search_index=False))
    page = _page(out, "df/brasilia/para/go-caldas-novas")
    sentence = ("Fonte: fonte não declarada (pasta sem-tarifas). Esta resposta não considera esquemas operacionais "
                "(paradas das linhas), tarifas máximas nem bilhetes vendidos (Monitriip): as fontes deste site não os incluem.")
    assert _text(page.find("p", class_="fonte")) == sentence
    # every answer's sources, once for the form (a pair's file does not repeat them)
    assert "fonte" not in _json(out, "df/brasilia/para/go-caldas-novas")
    sources = json.loads((out / "cidades" / "fontes.json").read_text(encoding="utf-8"))
    assert sources == {"fonte": "fonte não declarada (pasta sem-tarifas)",
                       "nao_cobertas": ["esquemas operacionais (paradas das linhas)", "tarifas máximas",
                                        "bilhetes vendidos (Monitriip)"],
                       "frase": sentence}
    # the title and the summary promise no fares: no source covers them
    assert _text(page.title).startswith("De Brasília (DF) para Caldas Novas (GO): linhas e horários — ")
    assert page.find("meta", attrs={"name": "description"})["content"] == (
        "1 linha de ônibus de Brasília (DF) para Caldas Novas (GO), com horários.")


def test_with_fares_the_title_promises_them(pair_site):
    page = _page(pair_site, "df/brasilia/para/go-caldas-novas")
    assert _text(page.title).startswith("De Brasília (DF) para Caldas Novas (GO): linhas, horários e tarifas máximas — ")
    assert _text(page.find("p", class_="fonte")) == "Fonte: fonte não declarada (pasta pacote)."


def test_the_places_index_counts_the_lines_of_each_place(pair_site):
    places = {p["chave"]: p for p in json.loads((pair_site / "cidades" / "index.json").read_text(encoding="utf-8"))}
    assert places["df/brasilia"]["linhas"] == 3  # 12-0140-00, 12-0999-00 from Taguatinga, 12-5001-70
    assert places["go/cristalina"]["linhas"] == 1
    # "km" and "sem_horarios" only where they say something (tests/test_journeys.py)
    assert {"nome", "uf", "chave", "url", "busca", "destinos", "partidas", "linhas"} <= set(places["df/brasilia"]) <= {
        "nome", "uf", "chave", "url", "busca", "destinos", "partidas", "km", "sem_horarios", "linhas"}


# --- the real 2021 export ----------------------------------------------------------------------------


def _real(site: Path, pair: str) -> dict:
    return _json(site, pair)


@pytest.mark.slow
def test_real_export_a_departure_limited_to_some_days_or_months_says_so(real_only_site):
    sp_rj = _departures(_page(real_only_site, "sp/sao-paulo/para/rj-rio-de-janeiro"))
    at_1320 = [r for r in sp_rj if r[0] == "13:20"]
    assert [r[1] for r in at_1320] == ["08-0139-00", "08-0139-31"]  # not "13:20 every day", merged
    assert at_1320[0][2:] == ["VIAÇÃO CAIÇARA LTDA.", "Convencional com sanitário", "Sáb",
                              "só em janeiro, fevereiro, março, abril, maio, junho, julho, setembro, outubro, novembro, dezembro"]
    assert at_1320[1][2:] == ["VIAÇÃO CAIÇARA LTDA.", "Semileito", "Seg, Ter, Qua, Qui, Sex, Dom", "o ano todo"]
    pg = _departures(_page(real_only_site, "pr/ponta-grossa/para/sc-florianopolis"))
    assert pg == [["02:10", "09-0206-00", "BRASIL SUL LINHAS RODOVIÁRIAS LTDA.", "Convencional com sanitário", "Qui",
                   "só em janeiro"]]
    assert _real(real_only_site, "pr/ponta-grossa/para/sc-florianopolis")["partidas"][0]["meses"] == ["janeiro"]


@pytest.mark.slow
def test_real_export_places_filed_under_a_municipality_keep_their_departures(real_only_site):
    # Brasília -> Águas Lindas de Goiás: 104 departures a week in the export (14 was shown), of which two
    # semi-urban lines' 14 are placeholders (00:00): 90 counted, 14 said
    answer = _real(real_only_site, "df/brasilia/para/go-aguas-lindas-de-goias")
    assert (answer["partidas_semana"], answer["partidas_sem_horario"]) == (90, 14)
    line = next(x for x in answer["linhas"] if x["prefixo"] == "12-1973-70")
    assert (line["partidas_semana"], line["notas"]) == (90, ["parte de Brazlândia (DF), região administrativa de Brasília"])
    # Taguatinga -> Trindade: 3 (0 was shown), on the page of Brasília -> Trindade
    trindade = page_text(real_only_site / "cidades/df/brasilia/para/go-trindade/index.html")
    assert "1 linha, 3 partidas por semana a partir de Brasília." in trindade
    assert "Taguatinga (DF) → Trindade (GO); parte de Taguatinga (DF), região administrativa de Brasília" in trindade
    assert "06:00 12-9370-00" in trindade and "por uma seção" not in trindade
    # Sapucaia -> Além Paraíba: 196 (7 was shown), 189 of them from Jamapará, a district of Sapucaia
    sapucaia = _real(real_only_site, "rj/sapucaia/para/mg-alem-paraiba")
    assert sapucaia["partidas_semana"] == 196
    assert [x["notas"] for x in sapucaia["linhas"]] == [[], ["parte de Jamapará (RJ), distrito de Sapucaia"]]
    # the real build has no section: no answer claims one
    assert not any(x["por_secao"] for answer in all_answers(real_only_site) for x in answer["linhas"])


@pytest.mark.slow
def test_real_export_placeholder_lines_and_the_test_company(real_only_site):
    text = page_text(real_only_site / "cidades/df/brasilia/para/go-aguas-lindas-de-goias/index.html")
    assert f"{NOTE} 12-0371-71 TAGUATUR - TAGUATINGA TRANSPORTE E TURISMO LTDA. Semiurbano todos os dias o ano todo" in text
    assert "00:00" not in text.replace("(00:00 na exportação)", "")
    assert not (real_only_site / "cidades" / "mg" / "piau").exists()
    places = json.loads((real_only_site / "cidades" / "index.json").read_text(encoding="utf-8"))
    test_only = {p["chave"]: p for p in places if "nota" in p}  # told why, never a destination
    assert sorted(test_only) == ["mg/agua-comprida", "mg/piau"]
    assert [p["destinos"] for p in test_only.values()] == [[], []]
    assert next(p for p in places if p["chave"] == "sp/sao-paulo")["linhas"] == 835
    answer = json.loads((real_only_site / "cidades" / "fontes.json").read_text(encoding="utf-8"))
    assert answer["fonte"] == "ANTT — Agência Nacional de Transportes Terrestres, Quadro de horários 2021 (dados de 2021)"
    assert answer["nao_cobertas"] == ["seções das linhas", "esquemas operacionais (paradas das linhas)",
                                      "serviços paralisados", "tarifas máximas", "bilhetes vendidos (Monitriip)"]
    page = _page(real_only_site, "df/brasilia/para/go-trindade")
    assert "tarifas" not in _text(page.title) and "tarifas" not in page.find("meta", attrs={"name": "description"})["content"]


def _export_rows() -> list[dict]:
    """The real export's rows as the ingest keeps them: read as ISO-8859-1 with ``;``, a row repeated cell for
    cell (spaces folded) kept once (pipeline/adapters/common.py RowChecker)."""
    with open(REAL_EXPORT, encoding="iso-8859-1", newline="") as fh:
        reader = csv.reader(fh, delimiter=";")
        header = next(reader)
        seen, rows = set(), []
        for raw in reader:
            key = tuple(" ".join(c.split()) for c in raw)
            if key not in seen:
                seen.add(key)
                rows.append(dict(zip(header, raw)))
    return rows


@pytest.mark.slow
def test_real_export_weekly_departures_of_every_pair_equal_the_csv(real_only_site):
    """Every pair's weekly departures, recomputed from the export itself: per row, the weekdays it marks,
    from the origin (ida) or the destination (volta) of the line its description names, each end resolved
    to its place; the test company and the directions whose every time is 00:00 left out (38 whole lines, and
    9 more lines in one direction, beside real times in the other)."""
    rows = _export_rows()
    assert len(rows) == 11_468  # 11,477 read, 9 exact repeats
    days = ["segunda_feira", "terca_feira", "quarta_feira", "quinta_feira", "sexta_feira", "sabado", "domingo"]
    ends = re.compile(r"^(.+?)\s*\(([A-Z]{2,3})\)\s*-\s*(.+?)\s*\(([A-Z]{2,3})\)")
    times, line_times = defaultdict(set), defaultdict(set)
    for r in rows:
        if "EMPRESA TESTE" not in r["razao_social"].upper():
            times[(r["prefixo"].strip(), r["sentido"].strip().lower())].add(r["horario"].strip())
        line_times[r["prefixo"].strip()].add(r["horario"].strip())
    placeholder = {k for k, t in times.items() if t == {"00:00"}}
    assert len({p for p, t in line_times.items() if t == {"00:00"}}) == 38
    assert len({p for p, _ in placeholder} - {p for p, t in line_times.items() if t == {"00:00"}}) == 9
    expected: Counter = Counter()
    for r in rows:
        if "EMPRESA TESTE" in r["razao_social"].upper() or \
                (r["prefixo"].strip(), r["sentido"].strip().lower()) in placeholder:
            continue
        m = ends.match(r["descricao_linha"])
        origin, destination = resolve(m[1], m[2]).chave, resolve(m[3], m[4]).chave
        if r["sentido"].strip().lower() == "volta":
            origin, destination = destination, origin
        if origin != destination:
            expected[(origin, destination)] += sum(r[d].strip() in ("x", "X") for d in days)
    built = {}
    for answer in all_answers(real_only_site):
        built[(answer["de"]["chave"], answer["para"]["chave"])] = answer["partidas_semana"]
    pairs = set(built) | {k for k, v in expected.items() if v}
    assert len(pairs) == len(built) == 3_190  # 3,192 less the test company's pair, both ways
    assert {k: (expected.get(k, 0), built.get(k)) for k in pairs if expected.get(k, 0) != built.get(k)} == {}
    assert expected[("df/brasilia", "go/trindade")] == 3 and expected[("rj/sapucaia", "mg/alem-paraiba")] == 196


@pytest.mark.slow
def test_real_export_a_return_answer_names_the_line_in_the_direction_travelled(real_only_site):
    """Uberlândia → Caldas Novas is the return of lines CALDAS NOVAS (GO) → UBERLANDIA (MG): the answer
    names them in the direction the passenger travels, and says it is the line's return (issue 35)."""
    answer = _real(real_only_site, "mg/uberlandia/para/go-caldas-novas")
    assert {x["ligacao"] for x in answer["linhas"]} == {"Uberlândia (MG) → Caldas Novas (GO) (volta da linha)"}
    page = page_text(real_only_site / "cidades" / "mg" / "uberlandia" / "para" / "go-caldas-novas" / "index.html")
    assert "Uberlândia (MG) → Caldas Novas (GO) (volta da linha)" in page
    assert "Caldas Novas (GO) → Uberlândia (MG)" not in page and "UBERLANDIA (MG) →" not in page
    there = _real(real_only_site, "go/caldas-novas/para/mg-uberlandia")
    assert "Caldas Novas (GO) → Uberlândia (MG)" in {x["ligacao"] for x in there["linhas"]}


def test_a_seasonal_pair_says_in_which_months_its_weekly_departures_run():
    from pipeline.site.cities import season

    def departure(meses):
        return {"meses": meses}

    assert season([departure(["janeiro", "dezembro"]), departure(["janeiro", "dezembro"])]) == "só em janeiro e dezembro"
    assert season([departure(["janeiro"])]) == "só em janeiro"
    assert season([departure(None), departure(["julho"])]) == "algumas só em certos meses"
    assert season([departure(None)]) is None and season([]) is None


@pytest.mark.slow
def test_real_export_a_seasonal_pair_says_so_beside_its_weekly_count(real_only_site):
    """Ponta Grossa → Florianópolis: one departure a week, in January only (issue 35: the headline said the
    weekly count alone)."""
    answer = _real(real_only_site, "pr/ponta-grossa/para/sc-florianopolis")
    assert answer["partidas_semana"] == 1 and answer["epoca"] == "só em janeiro"
    text = page_text(real_only_site / "cidades" / "pr" / "ponta-grossa" / "para" / "sc-florianopolis" / "index.html")
    assert "1 partida por semana a partir de Ponta Grossa (só em janeiro)" in text
    assert "1 por semana (só em janeiro)" in text  # the departures' caption
