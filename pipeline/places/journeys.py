"""Journeys with one change of bus, for a pair of places no line links: a place C where a line from A arrives
and a line to B leaves. The rule is read from ``/cidades/index.json`` (pipeline/site/cities.py ``index_json``):
each place's ``destinos`` (positions in that list, in pt-BR order) and ``partidas``, beside them, the weekly
departures of that leg (None where every line serving it is paralysed: such a leg is never offered; 0 for a
leg whose departures no source gives, listed in ``sem_horarios``). The
browser applies the same rule to the same file (theme/static/js/nomes.js ``oneChange``), and one set of
worked examples tests both (tests/fixtures/baldeacoes.json).

Ranked by how often both legs run: the leg that runs less often first (a change is as frequent as its rarer
leg), then both legs' departures together, then the detour where the sources give both legs' lengths (``km``
beside ``destinos``: a line's own between its terminals, or a section's; the shorter journey first, and one
whose length is known before one whose length is not), then the place of the change in the list's order (pt-BR
order of its name). The sources publish no travel time, so whether a bus that arrives in C meets the next one
is not known, and the answer says so (``MESSAGES``)."""

from __future__ import annotations

from bisect import bisect_left

OFFERED = 5  # the journeys an answer shows, best first

# What an answer with changes says (also sent to the browser in /busca/regras.json: matching.rules()).
MESSAGES = {
    "baldeacao": "Com uma baldeação, pelas linhas das fontes: {n}.",
    "baldeacao_ordem": ("Da que mais parte por semana para a que menos; conta o trecho que parte menos (um trecho "
                        "sem horários nas fontes, como nenhuma partida), depois a extensão, onde as fontes a dão."),
    "baldeacao_aviso": "As fontes não publicam a duração das viagens: este site não sabe se um ônibus que chega na "
                       "cidade da baldeação alcança o seguinte. Confira os horários com as transportadoras antes de "
                       "comprar.",
    "trecho_sem_horarios": "sem horários de partida nas fontes",
    "baldeacao_mais": "Há mais {n} cidades onde trocar de ônibus; as {m} com mais partidas estão acima.",
    "trecho_mesmo_estado": "{de} e {para} ficam no mesmo estado ({estado}): as linhas deste trecho, da União, passam pelas "
                           "duas, mas uma viagem só entre elas é serviço intermunicipal do estado; no regime do "
                           "Decreto nº 952/1993, uma seção nova só ligava localidades de estados diferentes, salvo no "
                           "serviço semiurbano (art. 49 § 1º I): confirme com a transportadora se ela vende esse trecho.",
}


def leg(place: dict, to: int) -> tuple[int, float | None, bool] | None:
    """The leg from ``place`` (an ``index.json`` entry) to the place at position ``to``: (weekly departures,
    length in km or None, whether no source gives its departures: then they count as 0); None where no line
    links them or every line that does is paralysed. ``destinos`` is in ascending order: found by bisection."""
    ends = place["destinos"]
    k = bisect_left(ends, to)
    if k == len(ends) or ends[k] != to or place["partidas"][k] is None:
        return None
    km = place.get("km")
    return place["partidas"][k], km[k] if km else None, untimed(place, to)


def untimed(place: dict, to: int) -> bool:
    """Whether no source gives the departures from ``place`` to the place at position ``to`` (:func:`lacks`)."""
    return lacks(place, "horarios", to)


def lacks(place: dict, name: str, to: int) -> bool:
    """Whether ``place``'s destination at position ``to`` is without ``name`` (its departures, ``horarios``; its
    own page, ``pagina``), as ``index.json`` lists them: the fewer of those without (``sem_<name>``) or of the
    others (``com_<name>``), neither when none is without (pipeline/site/cities.py ``_fewer`` writes them;
    theme/static/js/nomes.js ``lacks``, the same rule)."""
    if f"com_{name}" in place:
        return to not in place[f"com_{name}"]
    return to in (place.get(f"sem_{name}") or ())


def _length(journey: dict) -> float:
    """Both legs' length, where the sources give both; else beyond any (ranked after every known length)."""
    first, second = journey["km"]
    return first + second if first is not None and second is not None else float("inf")


def one_change(places: list[dict], de: int, para: int) -> list[dict]:
    """Every journey from ``places[de]`` to ``places[para]`` with one change, best first (see the module's
    rule): ``{"via": position, "partidas": [first leg's, second leg's weekly departures], "km": [their lengths,
    None where not given], "sem_horarios": [whether no source gives each leg's departures]}``. Empty where a line links the two (the direct answer is the answer) or no place
    links them with one change."""
    start = places[de]
    if de == para or para in start["destinos"]:
        return []
    found = []
    for via in start["destinos"]:
        first, second = leg(start, via), leg(places[via], para)
        if first is not None and second is not None and via != para:
            found.append({"via": via, "partidas": [first[0], second[0]], "km": [first[1], second[1]],
                          "sem_horarios": [first[2], second[2]]})
    found.sort(key=lambda j: (-min(j["partidas"]), -sum(j["partidas"]), _length(j), j["via"]))
    return found
