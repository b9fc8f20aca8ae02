"""Journeys with one change of bus, for a pair of places no line links: a place C where a line from A arrives
and a line to B leaves. The rule is read from ``/cidades/index.json`` (pipeline/site/cities.py ``index_json``):
each place's ``destinos`` (positions in that list, in pt-BR order) and ``partidas``, beside them, the weekly
departures of that leg (None where every line serving it is paralysed: such a leg is never offered). The
browser applies the same rule to the same file (theme/static/js/nomes.js ``oneChange``), and one set of
worked examples tests both (tests/fixtures/baldeacoes.json).

Ranked by how often both legs run: the leg that runs less often first (a change is as frequent as its rarer
leg), then both legs' departures together, then the place of the change in the list's order (pt-BR order of
its name). The sources publish no travel time, so whether a bus that arrives in C meets the next one is not
known, and the answer says so (``MESSAGES``). Leg lengths are not used: only the sections of the current
layouts give a length, and only for some lines, so a detour cannot be measured for most journeys."""

from __future__ import annotations

OFFERED = 5  # the journeys an answer shows, best first

# What an answer with changes says (also sent to the browser in /busca/regras.json: matching.rules()).
MESSAGES = {
    "baldeacao": "Com uma baldeação, pelas linhas das fontes: {n}.",
    "baldeacao_ordem": "Da que mais parte por semana para a que menos; conta o trecho que parte menos.",
    "baldeacao_aviso": "As fontes não publicam a duração das viagens: este site não sabe se um ônibus que chega na "
                       "cidade da baldeação alcança o seguinte. Confira os horários com as transportadoras antes de "
                       "comprar.",
    "baldeacao_mais": "Há mais {n} cidades onde trocar de ônibus; as {m} com mais partidas estão acima.",
    "trecho_mesmo_estado": "{de} e {para} ficam no mesmo estado ({estado}): as linhas acima, da União, passam pelas "
                           "duas, mas uma viagem só entre elas é serviço intermunicipal do estado; no regime do "
                           "Decreto nº 952/1993, uma seção nova só ligava localidades de estados diferentes, salvo no "
                           "serviço semiurbano (art. 49 § 1º I): confirme com a transportadora se ela vende esse trecho.",
}


def legs(place: dict) -> dict[int, int]:
    """The legs a journey may take from ``place`` (an ``index.json`` entry): destination position -> weekly
    departures, those whose every line is paralysed left out."""
    return {d: w for d, w in zip(place["destinos"], place.get("partidas") or ()) if w is not None}


def one_change(places: list[dict], de: int, para: int) -> list[dict]:
    """Every journey from ``places[de]`` to ``places[para]`` with one change, best first (see the module's
    rule): ``{"via": position, "partidas": [first leg's, second leg's weekly departures]}``. Empty where a
    line links the two (the direct answer is the answer) or no place links them with one change."""
    start = places[de]
    if de == para or para in start["destinos"]:
        return []
    found = []
    for via, first in legs(start).items():
        second = legs(places[via]).get(para)
        if second is not None and via != para:
            found.append({"via": via, "partidas": [first, second]})
    found.sort(key=lambda j: (-min(j["partidas"]), -sum(j["partidas"]), j["via"]))
    return found
