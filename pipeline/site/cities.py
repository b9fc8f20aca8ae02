"""From city A to city B: the page of each place the lines serve, and the answer for each pair.

A line serves a pair of places when they are its two terminals or the two ends of one of its sections
(art. 3 XXI). The answer for A -> B lists every such line with its carriers; the departures that leave A
toward B, merged across lines by time and weekday (known only where A is a terminal of the line: the
timetable gives the terminals' departures, sentido ``ida`` from the origin, ``volta`` from the
destination); and the maximum fares in force for A-B per service category (``tarifas.vigente``).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache

from ..places import BY_ALIAS, Place, fold, resolve
from . import urls
from .filters import data_br, mes_br
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


def tickets_by_pair(sums) -> dict[tuple[str, str], MonthlyTickets]:
    """Monitriip's tickets per (origin place, destination place), month by month of travel, from their
    sums (derive/tickets.py, made as the ``bilhetes`` table is read): all tickets, the paid ones, and the
    mean amount paid for a paid ticket (weighted by tickets). Each pair's months are made into records only
    when its page is rendered (:class:`MonthlyTickets`): eight years of them, held as records, were a
    tenth of the page stage's memory."""
    out: dict[tuple[str, str], MonthlyTickets] = {}
    if sums is None or not len(sums):
        return out
    columns = {c: sums[c].to_numpy() for c in ("mes", "bilhetes", "pagos", "pago_total", "pago_com_valor")}
    origin, destination = sums["o"].tolist(), sums["d"].tolist()
    start = 0
    for end in range(1, len(origin) + 1):  # the sums are sorted by pair, then month
        if end == len(origin) or (origin[end], destination[end]) != (origin[start], destination[start]):
            out[(origin[start], destination[start])] = MonthlyTickets(columns, start, end)
            start = end
    return out


class MonthlyTickets(Sequence):
    """One pair's months of tickets, each a :class:`Record` (``mes``, ``bilhetes``, ``pagos``, ``gratuitos``,
    ``valor_medio_pago``) made when asked for, from the columns of the sums (shared by every pair)."""

    __slots__ = ("columns", "start", "stop")

    def __init__(self, columns: dict, start: int, stop: int):
        self.columns, self.start, self.stop = columns, start, stop

    def __len__(self) -> int:
        return self.stop - self.start

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        c, at = self.columns, self.start + i
        bilhetes, pagos, com_valor = int(c["bilhetes"][at]), int(c["pagos"][at]), int(c["pago_com_valor"][at])
        return Record(mes=c["mes"][at], bilhetes=bilhetes, pagos=pagos, gratuitos=bilhetes - pagos,
                      # in cents, as every amount the portal publishes
                      valor_medio_pago=round(float(c["pago_total"][at]) / com_valor, 2) if com_valor else None)


def arrange_cities(lines: list[dict], weekdays: list[str], tickets: dict | None = None) -> list[Record]:
    """The places, each with ``destinos``: one answer per other place it is linked to, in pt-BR order, with
    Monitriip's tickets for the pair when ``tickets`` (``tickets_by_pair``) has them."""
    cities: dict[str, Record] = {}

    def city(name: str, uf: str) -> Record:
        place = resolve(name, uf)
        rec = cities.get(place.chave)
        if rec is None:
            rec = cities[place.chave] = _place_record(place)
        rec["grafias"].add(name)
        return rec

    for line in lines:
        # the sections the regulator publishes as paralysed, in the direction published: never offered
        stopped = {(resolve(p["origem_municipio"], p["origem_uf"]).chave, resolve(p["destino_municipio"],
                    p["destino_uf"]).chave): p["data_paralisacao"] for p in line.get("paralisacoes") or ()}
        pairs = [((line["origem_municipio"], line["origem_uf"]), (line["destino_municipio"], line["destino_uf"]))]
        pairs += [((s["origem_municipio"], s["origem_uf"]), (s["destino_municipio"], s["destino_uf"]))
                  for s in line["secoes"]]
        # the stops of its operational scheme, in order: A before B serves A -> B only (issue 23)
        by_stops = set(_stop_pairs(line.get("paradas") or ()))
        served = set(pairs)  # as terminals or a section's ends: both ways (looked up for each pair below)
        for a_src, b_src in dict.fromkeys(pairs + sorted(by_stops - served)):
            a, b = city(*a_src), city(*b_src)
            if a is b:
                continue
            directions = ((a, b, a_src, b_src), (b, a, b_src, a_src))
            if (a_src, b_src) not in served:  # known from the stops alone: the order of the itinerary only
                directions = directions[:1]
            for here, there, here_src, there_src in directions:
                here["linhas"].add(line["prefixo"])
                answer = here["destinos"].setdefault(there["chave"], Record(outra=there, linhas={}, nomes=set(),
                                                                            paralisadas={}))
                answer["nomes"].add((fold(here_src[0]), fold(there_src[0])))
                since = stopped.get((here["chave"], there["chave"]))
                if since is not None:
                    answer["paralisadas"].setdefault(line["prefixo"], (line, since))
                else:
                    answer["linhas"].setdefault(line["prefixo"], line)
                    if (here_src, there_src) in served or (there_src, here_src) in served:
                        answer.setdefault("por_secao_ou_terminal", set()).add(line["prefixo"])
    for rec in cities.values():  # the way back is answered only where some line serves it (stops go one way)
        for answer in rec["destinos"].values():
            answer["volta"] = rec["chave"] in cities[answer["outra"]["chave"]]["destinos"]
    for rec in cities.values():
        rec["destinos"] = sorted((_answer(rec["place"], a, weekdays) for a in rec["destinos"].values()),
                                 key=lambda a: (collation_key(a["outra"]["nome"]), a["outra"]["uf"]))
        for answer in rec["destinos"]:
            answer["bilhetes"] = (tickets or {}).get((rec["chave"], answer["outra"]["chave"]), [])
        rec["linhas"] = len(rec["linhas"])
        rec["grafias"] = sorted(rec["grafias"])
        rec["apelidos"] = [(g, resolve(g, rec["uf"]).motivo) for g in rec["grafias"]
                           if resolve(g, rec["uf"]).resolucao == BY_ALIAS]
    return sorted(cities.values(), key=lambda c: (collation_key(c["nome"]), c["uf"]))


def _stop_pairs(stops) -> list[tuple[tuple[str, str], tuple[str, str]]]:
    """Every (earlier stop's place, later stop's place) of each itinerary (one per vehicle type)."""
    by_kind: dict[str, list] = {}
    for s in stops:
        by_kind.setdefault(s["tipo_veiculo"], []).append(s)
    out = []
    for kind in sorted(by_kind):
        places = [(s["municipio"], s["uf"]) for s in sorted(by_kind[kind], key=lambda s: s["sequencia"])]
        out += [(a, b) for i, a in enumerate(places) for b in places[i + 1:] if a != b]
    return out


def _answer(here: Place, answer: Record, weekdays: list[str]) -> Record:
    stopped = answer["paralisadas"]  # a line paralysed for this pair is not offered, even if it serves it otherwise
    lines = sorted((x for x in answer["linhas"].values() if x["prefixo"] not in stopped), key=lambda x: x["prefixo"])
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
        by_stops = line["prefixo"] not in answer.get("por_secao_ou_terminal", ())
        items.append(Record(linha=line, sentido=sentido, partidas_semana=trips if sentido else None, por_paradas=by_stops,
                            transportadoras=line["transportadoras"],
                            tarifas=sorted(fares, key=lambda f: (f["categoria"], f["origem"]))))
    partidas = [Record(horario=t, dias=v["dias"], linhas=v["linhas"]) for t, v in sorted(grid.items())]
    paralisadas = [Record(linha=line, desde=since) for _, (line, since) in sorted(stopped.items())]
    return Record(outra=answer["outra"], linhas=items, partidas=partidas, paralisadas=paralisadas, volta=answer["volta"],
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
             "por_secao": i["sentido"] is None and not i["por_paradas"], "por_paradas": i["por_paradas"],
             "partidas_semana": i["partidas_semana"],
             "transportadoras": [{"nome": c["razao_social"], "url": c["url"]}
                                 for c in i["transportadoras"]],
             "tarifas": [{"categoria": label(f["categoria"]), "trecho": f"{f['origem']} – {f['destino']}",
                          "valor": f["valor"]} for f in i["tarifas"]]}
            for i in r["linhas"]
        ],
        "partidas": [{"horario": p["horario"], "dias": p["dias"], "linhas": p["linhas"]} for p in r["partidas"]],
        # lines the regulator publishes as paralysed for this pair: said, never offered
        # Monitriip: tickets and the mean amount paid, month by month of travel (numbers, and the month as text)
        "bilhetes": [{"mes": m["mes"], "mes_texto": mes_br(m["mes"]), "bilhetes": m["bilhetes"],
                      "pagos": m["pagos"], "valor_medio_pago": m["valor_medio_pago"]} for m in r["bilhetes"]],
        "paralisadas": [{"prefixo": x["linha"]["prefixo"], "url": x["linha"]["url"], "ligacao": ligacao(x["linha"]),
                         "desde": x["desde"].isoformat(), "desde_texto": data_br(x["desde"])} for x in r["paralisadas"]],
    } for r in rec["destinos"]}
