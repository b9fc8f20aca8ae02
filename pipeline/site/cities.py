"""From city A to city B: the page of each place the lines serve, and the answer for each pair.

A line serves a pair of places when they are its two terminals or the two ends of one of its sections
(art. 3 XXI). The answer for A -> B lists every such line with its carriers; the departures that leave A
toward B, merged across lines by time and weekday (known only where A is a terminal of the line: the
timetable gives the terminals' departures, sentido ``ida`` from the origin, ``volta`` from the
destination); and the maximum fares in force for A-B per service category (``tarifas.vigente``).
"""

from __future__ import annotations

from functools import cache, lru_cache

from ..places import BY_ALIAS, Place, fold, resolve
from . import urls
from .record import Record


@cache
def _collator():
    from pyuca import Collator  # Unicode Collation Algorithm: accents ignored at the first level

    return Collator()


@lru_cache(maxsize=65_536)
def collation_key(text: str):
    """Sort key of a pt-BR name: ``Águia`` between ``Agua`` and ``Aguia Branca``, not after ``Z``. The
    same few hundred names are sorted again and again (each pair of places sorts its carriers: 40,000
    keys for 432 names at national scale), and pyuca works in Python, 20 µs a name here."""
    return _collator().sort_key(text or "")


def ligacao(line: dict) -> str:
    """``SAO PAULO (SP) → RIO DE JANEIRO (RJ)``: a line's terminals, as the JSON files give them."""
    return f"{line['origem_municipio']} ({line['origem_uf']}) → {line['destino_municipio']} ({line['destino_uf']})"


def _place_record(place: Place) -> Record:
    return Record(place=place, chave=place.chave, slug=place.chave, url=urls.url("cidade", slug=place.chave),
                  nome=place.nome, uf=place.uf,
                  codigo_ibge=place.codigo_ibge, resolucao=place.resolucao, motivo=place.motivo,
                  grafias=set(), linhas=set(), destinos={}, busca=fold(place.nome))


def _departures_from(line: dict, place: Place) -> str | None:
    """The timetable direction that leaves ``place``: ``ida`` from the line's origin, ``volta`` from
    its destination; None when ``place`` is not a terminal (the source has no times for it)."""
    if resolve(line["origem_municipio"], line["origem_uf"]) == place:
        return "ida"
    if resolve(line["destino_municipio"], line["destino_uf"]) == place:
        return "volta"
    return None


def arrange_cities(lines: list[dict], weekdays: list[str]) -> list[Record]:
    """The places, each with ``destinos``: one answer per other place it is linked to, in pt-BR order."""
    cities: dict[str, Record] = {}

    def city(name: str, uf: str) -> Record:
        place = resolve(name, uf)
        rec = cities.get(place.chave)
        if rec is None:
            rec = cities[place.chave] = _place_record(place)
        rec["grafias"].add(name)
        return rec

    for line in lines:
        pairs = [((line["origem_municipio"], line["origem_uf"]), (line["destino_municipio"], line["destino_uf"]))]
        pairs += [((s["origem_municipio"], s["origem_uf"]), (s["destino_municipio"], s["destino_uf"]))
                  for s in line["secoes"]]
        for a_src, b_src in pairs:
            a, b = city(*a_src), city(*b_src)
            if a is b:
                continue
            for here, there, here_src, there_src in ((a, b, a_src, b_src), (b, a, b_src, a_src)):
                here["linhas"].add(line["prefixo"])
                answer = here["destinos"].setdefault(there["chave"], Record(outra=there, linhas={}, nomes=set()))
                answer["nomes"].add((fold(here_src[0]), fold(there_src[0])))
                answer["linhas"].setdefault(line["prefixo"], line)
    for rec in cities.values():
        rec["destinos"] = sorted((_answer(rec["place"], a, weekdays) for a in rec["destinos"].values()),
                                 key=lambda a: (collation_key(a["outra"]["nome"]), a["outra"]["uf"]))
        rec["linhas"] = len(rec["linhas"])
        rec["grafias"] = sorted(rec["grafias"])
        rec["apelidos"] = [(g, resolve(g, rec["uf"]).motivo) for g in rec["grafias"]
                           if resolve(g, rec["uf"]).resolucao == BY_ALIAS]
    return sorted(cities.values(), key=lambda c: (collation_key(c["nome"]), c["uf"]))


def _answer(here: Place, answer: Record, weekdays: list[str]) -> Record:
    lines = sorted(answer["linhas"].values(), key=lambda x: x["prefixo"])
    names = answer["nomes"]
    grid: dict[str, dict] = {}
    items = []
    for line in lines:
        sentido = _departures_from(line, here)
        trips = 0
        if sentido is not None:
            for h in line["horarios"]:
                if h["sentido"] != sentido:
                    continue
                slot = grid.setdefault(h["horario"], {"dias": [False] * len(weekdays), "linhas": []})
                for k, day in enumerate(weekdays):
                    if h[day]:
                        slot["dias"][k] = True
                        trips += 1
                if line["prefixo"] not in slot["linhas"]:
                    slot["linhas"].append(line["prefixo"])
        fares = [f for f in line["tarifas"] if f["vigente"] and (
            (fold(f["origem"]), fold(f["destino"])) in names or (fold(f["destino"]), fold(f["origem"])) in names)]
        items.append(Record(linha=line, sentido=sentido, partidas_semana=trips if sentido else None,
                            transportadoras=line["transportadoras"],
                            tarifas=sorted(fares, key=lambda f: (f["categoria"], f["origem"]))))
    partidas = [Record(horario=t, dias=v["dias"], linhas=v["linhas"]) for t, v in sorted(grid.items())]
    return Record(outra=answer["outra"], linhas=items, partidas=partidas,
                  partidas_semana=sum(i["partidas_semana"] or 0 for i in items),
                  transportadoras=sorted({c["cnpj"]: c for i in items for c in i["transportadoras"]}.values(),
                                         key=lambda c: collation_key(c["razao_social"])))


def _place_json(rec: Record) -> dict:
    return {"nome": rec["nome"], "uf": rec["uf"], "chave": rec["chave"], "url": rec["url"]}


def index_json(cities: list[Record]) -> list[dict]:
    """``/cidades/index.json``: every place with its folded spellings, for the form to match what a
    person types (``sao paulo``, ``SÃO PAULO``) without loading any city's answers, and the positions
    in this list of the places it has an answer for (so no answer file is asked for in vain)."""
    position = {c["chave"]: k for k, c in enumerate(cities)}
    return [dict(_place_json(c), busca=sorted({c["busca"], *(fold(g) for g in c["grafias"])}),
                 destinos=sorted(position[r["outra"]["chave"]] for r in c["destinos"])) for c in cities]


def answer_file(frm: Record, to: Record) -> str:
    """Where the answer for ``frm`` -> ``to`` is: ``cidades/<uf>/<municipio>/para/<uf>-<municipio>.json``."""
    return urls.pair_path(frm, to).rstrip("/") + ".json"


def answers_json(rec: Record, label) -> dict[str, dict]:
    """One small JSON file per destination of ``rec`` (path -> content), with the same answer as the
    city's page: the form fetches only the pair it was asked. ``label`` gives a category's pt-BR label."""
    return {answer_file(rec, r["outra"]): {
        "de": _place_json(rec),
        "para": _place_json(r["outra"]),
        "partidas_semana": r["partidas_semana"],
        "linhas": [
            {"prefixo": i["linha"]["prefixo"], "url": i["linha"]["url"],
             "ligacao": ligacao(i["linha"]),
             "por_secao": i["sentido"] is None, "partidas_semana": i["partidas_semana"],
             "transportadoras": [{"nome": c["razao_social"], "url": c["url"]}
                                 for c in i["transportadoras"]],
             "tarifas": [{"categoria": label(f["categoria"]), "trecho": f"{f['origem']} – {f['destino']}",
                          "valor": f["valor"]} for f in i["tarifas"]]}
            for i in r["linhas"]
        ],
        "partidas": [{"horario": p["horario"], "dias": p["dias"], "linhas": p["linhas"]} for p in r["partidas"]],
    } for r in rec["destinos"]}
