"""From city A to city B: the page of each place the lines serve, and the answer for each pair.

A line serves a pair of places when they are its two terminals or the two ends of one of its sections
(art. 3 XXI), or two stops of its itinerary in that order. Places are compared as resolved
(pipeline/places): a line from TAGUATINGA (DF) leaves Brasília, and the answer says so. The answer for
A -> B lists every such line with its carriers; the departures that leave A toward B, one row per line and
time with its carrier, service class, weekdays and months (known only where A is a terminal of the line:
the timetable gives the terminals' departures, sentido ``ida`` from the origin, ``volta`` from the
destination); and the maximum fares in force for A-B per service category (``tarifas.vigente``).

The export's test company (flagged by the ingest, pipeline/adapters/common.py) is no passenger's
answer: its lines, departures and places are left out here (its line page keeps it, flagged). Times the
export gives as a placeholder (pipeline/site/placeholders.py) are shown as such and not counted.
"""

from __future__ import annotations

from functools import cache, lru_cache

from ..adapters.common import TEST_COMPANY_NOTE
from ..legal.dates import add_months
from ..places import BY_ALIAS, Place, aliases, fold_name, resolve
from ..places.journeys import lacks
from . import urls
from .coverage import PHRASES, Coverage, join
from .filters import data_br, mes_br, numero
from .placeholders import placeholder_notes
from .record import MadeOnDemand, Record
from .timetable import mixed, service_class

# How a line serves a pair, the first that applies: its two terminals, the ends of one of its sections
# (art. 3 XXI), two stops of its itinerary in that order. A page claims a section only for "secao".
HOW = ("terminais", "secao", "paradas")

# The tables an answer reads (the lines, how they serve the pair, their departures, what is paralysed, the
# fares, the tickets): the answer names their sources, and those no source covers, which it cannot consider.
ANSWER_TABLES = ("linhas", "secoes", "paradas", "horarios", "paralisacoes", "tarifas", "bilhetes")

# An answer's lines shown at once; a longer list opens on demand (the departures already name each line):
# São Paulo - Rio de Janeiro has 37, some 6,600 px of cards on a phone.
OPEN_LINES = 5


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


@lru_cache(maxsize=65_536)
def terminal(name: str, uf: str) -> str:
    """A line's terminal as a passenger reads it: the official spelling of the municipality the source names
    (``UBERLANDIA`` -> ``Uberlândia``, an old spelling -> today's), the part's own name for a region or
    district the source names apart (``TAGUATINGA`` -> ``Taguatinga``), a reviewed town abroad's own
    spelling (``PUERTO SUAREZ`` -> ``Puerto Suárez``), else the source's text (a place not identified: no
    official spelling at hand, none is invented)."""
    place = resolve(name, uf)
    if place.resolucao == BY_ALIAS:
        part = _part(name, uf)
        return part.split(" (", 1)[0] if part else place.nome
    return " ".join(place.nome.split())


def _part(name: str, uf: str) -> str:
    """The part of a municipality the source names apart and the portal files under it, as a passenger is told
    it (``Taguatinga (DF), região administrativa de Brasília``: the alias table's ``parte``,
    pipeline/places/apelidos.csv); "" for any other place, an old spelling of the same municipality too."""
    if resolve(name, uf).resolucao != BY_ALIAS:
        return ""
    return getattr(aliases().get((fold_name(name), (uf or "").upper())), "parte", "")


def ligacao(line: dict, sentido: str | None = None) -> str:
    """``São Paulo (SP) → Rio de Janeiro (RJ)``: a line's terminals (:func:`terminal`), as the JSON files give
    them; in the direction the passenger travels when it is the line's return (``sentido`` "volta"), said so."""
    there = f"{terminal(line['origem_municipio'], line['origem_uf'])} ({line['origem_uf']})"
    back = f"{terminal(line['destino_municipio'], line['destino_uf'])} ({line['destino_uf']})"
    return f"{back} → {there} (volta da linha)" if sentido == "volta" else f"{there} → {back}"


def _place_record(place: Place) -> Record:
    return Record(place=place, chave=place.chave, slug=place.chave, url=urls.url("cidade", slug=place.chave),
                  nome=place.nome, uf=place.uf,
                  codigo_ibge=place.codigo_ibge, resolucao=place.resolucao, motivo=place.motivo,
                  grafias=set(), linhas=set(), destinos={}, busca=fold_name(place.nome))


def _departures_from(line: dict, place: Place) -> str | None:
    """The timetable direction that leaves ``place``: ``ida`` from the line's origin, ``volta`` from
    its destination; None when ``place`` is not a terminal (the source has no times for it). Compared by
    ``chave``, not as whole places: TAGUATINGA (DF) resolves to Brasília by an alias, with its own reason,
    and is still Brasília (8 pairs of the real export had their departures lost by that)."""
    if resolve(line["origem_municipio"], line["origem_uf"]).chave == place.chave:
        return "ida"
    if resolve(line["destino_municipio"], line["destino_uf"]).chave == place.chave:
        return "volta"
    return None


def is_test_carrier(carrier) -> bool:
    """The export's test company (``EMPRESA TESTE SUPAS``), as the ingest flags it in ``observacao``."""
    return bool(carrier) and carrier.get("observacao") == TEST_COMPANY_NOTE


def test_line(line: dict) -> bool:
    """Whether every carrier of ``line`` is the export's test company (a line with no carrier named is not:
    nothing says it is a test)."""
    return bool(line["transportadoras"]) and all(map(is_test_carrier, line["transportadoras"]))


def passenger_lines(lines: list[dict]) -> list[dict]:
    """The lines a passenger may be offered: all but the test company's (:func:`test_line`)."""
    return [x for x in lines if not test_line(x)]


def _passenger_departures(line: dict) -> list[dict]:
    """The line's timetable rows but the test company's."""
    return [h for h in line["horarios"] if not is_test_carrier(h.get("transportadora"))]


def answer_sources(coverage: Coverage | None) -> Record | None:
    """What every answer says of where it comes from: ``fonte``, the sources of the tables it reads that
    some source covers (each with the date of its data), and ``nao_cobertas``, what the tables no source
    covers hold, in pt-BR (``seções das linhas``): the answer cannot consider them, and says so; ``frase``
    the sentence of both (:func:`sources_sentence`). None without ``coverage``."""
    if coverage is None:
        return None
    covered = [t for t in ANSWER_TABLES if coverage.covered(t)]
    ids = {i for t in covered for i in coverage.tables[t]}
    fonte = coverage.label_ids([i for i in coverage.sources if i in ids])  # in the build's order
    out = Record(fonte=fonte, nao_cobertas=[PHRASES[t][1] for t in ANSWER_TABLES if t not in covered])
    out["frase"] = sources_sentence(out)
    return out


def sources_sentence(sources: Record) -> str:
    """The sentence the pair's page and the form (theme/static/js/rotas.js, the same words) show."""
    text = f"Fonte: {sources['fonte']}." if sources["fonte"] else "Fonte: nenhuma fonte cobre estas tabelas."
    if sources["nao_cobertas"]:
        # "as" when every one is feminine (tarifas máximas, seções das linhas: "Nenhuma …" in PHRASES), else "os"
        feminine = all(none.startswith("Nenhuma ") for none, plural in PHRASES.values() if plural in sources["nao_cobertas"])
        text += (f" Esta resposta não considera {join(sources['nao_cobertas'], 'nem')}: as fontes deste site não "
                 f"{'as' if feminine else 'os'} incluem.")
    return text


def tickets_by_pair(sums) -> dict[tuple[str, str], MonthlyTickets]:
    """Monitriip's tickets per (origin place, destination place), month by month of travel, from their
    sums (derive/tickets.py, made as the ``bilhetes`` table is read): all tickets, the paid ones, and the
    mean amount paid for a paid ticket (weighted by tickets). Each pair's months are made into records only
    when its page is rendered (:class:`MonthlyTickets`): eight years of them, held as records, were a
    large share of the page stage's memory."""
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


class MonthlyTickets(MadeOnDemand):
    """One pair's months of tickets, each a :class:`Record` (``mes``, ``bilhetes``, ``pagos``, ``gratuitos``,
    ``valor_medio_pago``) made when asked for, from the columns of the sums (shared by every pair)."""

    __slots__ = ("columns", "start", "stop")

    def __init__(self, columns: dict, start: int, stop: int):
        self.columns, self.start, self.stop = columns, start, stop

    def __len__(self) -> int:
        return self.stop - self.start

    def make(self, i: int) -> Record:
        c, at = self.columns, self.start + i
        bilhetes, pagos, com_valor = int(c["bilhetes"][at]), int(c["pagos"][at]), int(c["pago_com_valor"][at])
        return Record(mes=c["mes"][at], bilhetes=bilhetes, pagos=pagos, gratuitos=bilhetes - pagos,
                      # in cents, as every amount the portal publishes
                      valor_medio_pago=round(float(c["pago_total"][at]) / com_valor, 2) if com_valor else None)


def arrange_cities(lines: list[dict], weekdays: list[str], tickets: dict | None = None,
                   coverage: Coverage | None = None) -> list[Record]:
    """The places, each with ``destinos``: one answer per other place it is linked to, in pt-BR order, with
    Monitriip's tickets for the pair when ``tickets`` (``tickets_by_pair``) has them, and ``fontes``
    (:func:`answer_sources`, from ``coverage``). The test company's lines are left out
    (:func:`passenger_lines`): a place only they serve has no page."""
    cities: dict[str, Record] = {}
    sources = answer_sources(coverage)

    def city(name: str, uf: str) -> Record:
        place = resolve(name, uf)
        rec = cities.get(place.chave)
        if rec is None:
            rec = cities[place.chave] = _place_record(place)
        rec["grafias"].add(name)
        return rec

    for line in passenger_lines(lines):
        # the sections the regulator publishes as paralysed, in the direction published: never offered
        stopped = {(resolve(p["origem_municipio"], p["origem_uf"]).chave, resolve(p["destino_municipio"],
                    p["destino_uf"]).chave): p["data_paralisacao"] for p in line.get("paralisacoes") or ()}
        pairs = [((line["origem_municipio"], line["origem_uf"]), (line["destino_municipio"], line["destino_uf"]))]
        pairs += [((s["origem_municipio"], s["origem_uf"]), (s["destino_municipio"], s["destino_uf"]))
                  for s in line["secoes"]]
        # the stops of its operational scheme, in order: A before B serves A -> B only
        by_stops = set(_stop_pairs(line.get("paradas") or ()))
        served = set(pairs)  # as terminals or a section's ends: both ways (looked up for each pair below)
        given = _lengths(line)
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
                                                                            paralisadas={}, como={}))
                answer["nomes"].add((fold_name(here_src[0]), fold_name(there_src[0])))
                since = stopped.get((here["chave"], there["chave"]))
                if since is not None:
                    answer["paralisadas"].setdefault(line["prefixo"], (line, since))
                    continue
                answer["linhas"].setdefault(line["prefixo"], line)
                way = _how(here_src, there_src, pairs[0], served)
                how = (way, here_src, there_src, given.get((way, here_src, there_src)))
                best = answer["como"].get(line["prefixo"])
                if best is None or HOW.index(how[0]) < HOW.index(best[0]):
                    answer["como"][line["prefixo"]] = how
    for rec in cities.values():  # the way back is answered only where some line serves it (stops go one way)
        for answer in rec["destinos"].values():
            answer["volta"] = rec["chave"] in cities[answer["outra"]["chave"]]["destinos"]
    timetables = _Timetables()
    for rec in cities.values():
        rec["destinos"] = sorted((_answer(rec["place"], a, weekdays, timetables) for a in rec["destinos"].values()),
                                 key=lambda a: (collation_key(a["outra"]["nome"]), a["outra"]["uf"]))
        for answer in rec["destinos"]:
            answer["bilhetes"] = (tickets or {}).get((rec["chave"], answer["outra"]["chave"]), [])
            answer["contradicao"] = contradiction(answer, timetabled=coverage is None or coverage.covered("horarios"))
            answer["pagina"] = own_page(answer)
            answer["url"] = urls.pair(rec, answer["outra"]) if answer["pagina"] else row_url(rec, answer["outra"])
        rec["fontes"] = sources
        rec["linhas"] = len(rec["linhas"])
        rec["grafias"] = sorted(rec["grafias"])
        rec["apelidos"] = [(g, resolve(g, rec["uf"]).motivo) for g in rec["grafias"]
                           if resolve(g, rec["uf"]).resolucao == BY_ALIAS]
    # the way back's address, now that every answer has its own
    address = {(rec["chave"], a["outra"]["chave"]): a["url"] for rec in cities.values() for a in rec["destinos"]}
    for rec in cities.values():
        for answer in rec["destinos"]:
            if answer["volta"]:
                answer["volta_url"] = address[(answer["outra"]["chave"], rec["chave"])]
    return sorted(cities.values(), key=lambda c: (collation_key(c["nome"]), c["uf"]))


def own_page(answer: Record) -> bool:
    """Whether the answer from a place to another has a page of its own: only when it says more than the
    place's row of destinations shows (each line that serves the pair and its carriers): departures (a
    placeholder's included), fares, tickets, lines paralysed, a contradiction, or a note on a line (a
    terminal the source names apart). A national sections file links most pairs by a section alone: a page
    for each would not fit the host (GitHub Pages' 1 GB; the README's bench section has the figures)."""
    return bool(answer["partidas"] or answer["paralisadas"] or answer["bilhetes"] or answer.get("contradicao")
                or any(i["tarifas"] or i["notas"] or i["nota"] for i in answer["linhas"]))


def row_url(city: dict, other: dict) -> str:
    """The address of ``other``'s row in ``city``'s destinations: the answer of a pair without a page."""
    return f"{city['url']}#para-{other['chave'].replace('/', '-')}"


def answer_url(places: list[dict], de: dict, para: dict) -> str:
    """Where the answer from ``de`` to ``para`` is read, from the places of :func:`index_json` (``sem_pagina`` or
    ``com_pagina``): the pair's page or ``de``'s row (theme/static/js/nomes.js ``answerUrl``, the same rule)."""
    if lacks(de, "pagina", places.index(para)):
        return row_url(de, para)
    return urls.pair({"slug": de["chave"]}, {"slug": para["chave"]})


def season(departures: list[Record]) -> str | None:
    """What the weekly count of a pair's departures leaves unsaid when they do not all run all year: "só em
    janeiro e dezembro" when every departure runs in the same months only; "algumas só em certos meses"
    when some do; None when every one runs all year (or there is none)."""
    months = {None if d["meses"] is None else tuple(d["meses"]) for d in departures}
    if not departures or months == {None}:
        return None
    if len(months) == 1:
        [only] = months
        return "só em " + join(only)
    return "algumas só em certos meses"


def contradiction(answer: Record, timetabled: bool = True) -> str | None:
    """What a pair's answer says when the tickets sold contradict the other publications (the regulator's
    publications read together, not a rule of the decree): tickets for travel in months after the stretch was
    published as paralysed in every line that serves it, or tickets where no line is offered (``timetabled``: a
    source covers the timetables); None when nothing contradicts. A line that serves the stretch by a section or
    its stops, with no time there, is no contradiction: its buses pass through."""
    tickets = answer.get("bilhetes") or []
    if not tickets or answer["partidas"]:
        return None
    stopped = answer["paralisadas"]
    if stopped and not answer["linhas"]:
        since = max(x["desde"] for x in stopped)
        # the months wholly after it: a ticket of the paralysis's own month may be for a trip before that day
        first = since if since.day == 1 else add_months(since.replace(day=1), 1)
        after = [m for m in tickets if m["mes"] >= first.isoformat()[:7]]
        if not after:
            return None
        sold = sum(m["bilhetes"] for m in after)
        return (f"O regulador publica este trecho como paralisado desde {data_br(since)}, mas as transportadoras "
                f"informaram {numero(sold)} {'bilhete vendido' if sold == 1 else 'bilhetes vendidos'} para viagens de "
                f"{mes_br(after[0]['mes'])} em diante: as publicações do regulador, lidas juntas, se contradizem.")
    if answer["linhas"] or not timetabled:  # a line that serves it by a section or its stops lists no time there
        return None
    sold = sum(m["bilhetes"] for m in tickets)
    return (f"Nenhuma linha das fontes é oferecida para este trecho, mas as transportadoras informaram "
            f"{numero(sold)} {'bilhete vendido' if sold == 1 else 'bilhetes vendidos'} para ele: as publicações do "
            "regulador, lidas juntas, se contradizem.")


def _lengths(line: dict) -> dict[tuple, float]:
    """The lengths the sources give of ``line``'s ways between two spellings of places, by (how, one, the
    other): the line's own between its terminals (``terminais``), a section's between its ends (``secao``, the
    first section that names them, either way); a way between two stops has none."""
    out = {}
    ends = ((line["origem_municipio"], line["origem_uf"]), (line["destino_municipio"], line["destino_uf"]))
    for here, there in (ends, ends[::-1]):
        out[("terminais", here, there)] = _km(line.get("extensao_km"))
    for s in line["secoes"]:
        a, b = (s["origem_municipio"], s["origem_uf"]), (s["destino_municipio"], s["destino_uf"])
        for here, there in ((a, b), (b, a)):
            out.setdefault(("secao", here, there), _km(s.get("extensao_km")))
    return {k: v for k, v in out.items() if v is not None}


def _km(value) -> float | None:
    try:
        km = float(value)
    except (TypeError, ValueError):
        return None
    return km if km == km and km > 0 else None


def _how(here_src: tuple, there_src: tuple, terminals: tuple, served: set) -> str:
    """How a line links two spellings of places (:data:`HOW`): its terminals, a section, or its stops."""
    if (here_src, there_src) in (terminals, terminals[::-1]):
        return "terminais"
    if (here_src, there_src) in served or (there_src, here_src) in served:
        return "secao"
    return "paradas"


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


class _Timetables(dict):
    """Each line's passenger timetable (its rows but the test company's) by direction, and the directions whose
    times are placeholders with what the page says of them (pipeline/site/placeholders.py): worked out once per
    line, not once per pair it serves (a line with 20 stops serves 190)."""

    def of(self, line: dict) -> tuple[dict[str, list[dict]], dict[str, str]]:
        found = self.get(line["prefixo"])
        if found is None:
            by_direction: dict[str, list[dict]] = {}
            for h in _passenger_departures(line):
                by_direction.setdefault(h["sentido"], []).append(h)
            notes = placeholder_notes({d: [h["horario"] for h in rows] for d, rows in by_direction.items()})
            found = self[line["prefixo"]] = (by_direction, notes)
        return found


def _answer(here: Place, answer: Record, weekdays: list[str], timetables: _Timetables) -> Record:
    """The answer from ``here`` to ``answer["outra"]``: each line that serves it (how, with the terminals filed
    under a municipality said), its carriers, its weekly departures from ``here`` (a placeholder line's
    apart) and fares; the departures, one row per line and time; the lines paralysed for the pair."""
    stopped = answer["paralisadas"]  # a line paralysed for this pair is not offered, even if it serves it otherwise
    lines = sorted((x for x in answer["linhas"].values() if x["prefixo"] not in stopped), key=lambda x: x["prefixo"])
    names = answer["nomes"]
    items, departures = [], []
    for line in lines:
        how, here_src, there_src, km = answer["como"][line["prefixo"]]
        sentido = _departures_from(line, here)
        by_direction, notes = timetables.of(line)
        note = notes.get(sentido) if sentido else None
        placeholder = note is not None
        rows = _departure_rows(line, by_direction.get(sentido, []), weekdays, note) if sentido else []
        departures += rows
        trips = sum(sum(r["dias"]) for r in rows)
        fares = [f for f in line["tarifas"] if f["vigente"] and (
            (fold_name(f["origem"]), fold_name(f["destino"])) in names or (fold_name(f["destino"]), fold_name(f["origem"])) in names)]
        items.append(Record(linha=line, sentido=sentido, como=how, extensao_km=km,
                            por_paradas=how == "paradas", por_secao=how == "secao" and sentido is None,
                            # placeholder times are no departure a passenger can take: not counted
                            partidas_semana=(0 if placeholder else trips) if sentido else None,
                            sem_horario=placeholder and bool(rows), partidas_sem_horario=trips if placeholder else 0,
                            nota=note if rows else None,
                            notas=_alias_notes(here_src, there_src),
                            transportadoras=[c for c in line["transportadoras"] if not is_test_carrier(c)],
                            tarifas=sorted(fares, key=lambda f: (f["categoria"], f["origem"]))))
    paralisadas = [Record(linha=line, desde=since) for _, (line, since) in sorted(stopped.items())]
    return Record(outra=answer["outra"], linhas=items, partidas=sorted(departures, key=_departure_order),
                  epoca=season(departures),
                  paralisadas=paralisadas, volta=answer["volta"],
                  partidas_semana=sum(i["partidas_semana"] or 0 for i in items),
                  # the shortest length the sources give of a line's way between the two (journeys.py: detours)
                  extensao_km=min((i["extensao_km"] for i in items if i["extensao_km"] is not None), default=None),
                  partidas_sem_horario=sum(i["partidas_sem_horario"] for i in items),
                  transportadoras=sorted({c["cnpj"]: c for i in items for c in i["transportadoras"]}.values(),
                                         key=lambda c: collation_key(c["razao_social"])))


def _departure_rows(line: dict, rows: list[dict], weekdays: list[str], note: str | None) -> list[Record]:
    """The departures of ``line`` from its ``rows`` of the timetable (one direction): one per time,
    carrier, service class and months, with the weekdays it runs on. Rows that differ in nothing a
    passenger sees (the vehicle's text, the authorisation date) and run on other days are one departure;
    two that share a day stay two (two buses at that time), so that the rows' weekdays add up to the
    weekly departures. ``meses`` is None when the departure runs all year; ``note``, what the page says of
    times the export did not give (None when they are real)."""
    out: list[Record] = []
    by_key: dict[tuple, list[Record]] = {}
    for h in rows:
        days = [bool(h[d]) for d in weekdays]
        months = None if len(h["meses"]) == h["todos_os_meses"] else list(h["meses"])
        misto = mixed(h.get("tipo_veiculo"))  # a mixed vehicle is its own class for the passenger
        key = (h["horario"], h["transportadora_cnpj"], h["categoria"], misto, None if months is None else tuple(months))
        for row in by_key.setdefault(key, []):
            if not any(a and b for a, b in zip(row["dias"], days)):
                row["dias"] = [a or b for a, b in zip(row["dias"], days)]
                break
        else:
            row = Record(horario=h["horario"], sem_horario=note is not None, nota=note,
                         linha=line, transportadora=h.get("transportadora"), categoria=h["categoria"], misto=misto,
                         dias=days, meses=months)
            by_key[key].append(row)
            out.append(row)
    return out


def _departure_order(row: Record) -> tuple:
    """By time (the placeholder rows last: 00:00 is not the first departure of the day), then line,
    carrier, class, months and weekdays: the same order on every build."""
    carrier = row["transportadora"] or {}
    return (row["sem_horario"], row["horario"], row["linha"]["prefixo"],
            collation_key(carrier.get("razao_social") or ""), carrier.get("cnpj") or "", row["categoria"] or "",
            row["meses"] is not None, tuple(row["meses"] or ()), tuple(not d for d in row["dias"]))


def _alias_notes(here_src: tuple[str, str], there_src: tuple[str, str]) -> list[str]:
    """What the answer says of an end of the line's link to the pair that the source names apart and the
    portal files under a municipality (an administrative region of the DF, a district): ``parte de
    Taguatinga (DF), região administrativa de Brasília``, ``chega a Jamapará (RJ), distrito de Sapucaia``,
    from the alias table's ``parte`` (pipeline/places/apelidos.csv). An old spelling of the same
    municipality (MOJI-MIRIM) is no other place, and says nothing."""
    return [f"{verb} {part}" for verb, (name, uf) in (("parte de", here_src), ("chega a", there_src))
            if (part := _part(name, uf))]


def _place_json(rec: Record) -> dict:
    return {"nome": rec["nome"], "uf": rec["uf"], "chave": rec["chave"], "url": rec["url"]}


TEST_ONLY = ("{lugar} aparece nas fontes só {linhas} da empresa de teste da exportação da ANTT ({empresa}), que o "
             "portal mantém e sinaliza mas não oferece como serviço a passageiros: nenhuma outra linha das fontes serve {nome}.")


def test_only_places(lines: list[dict], cities: list[Record]) -> list[Record]:
    """The places the sources name only in the test company's lines (``PIAU (MG)``): a real town a person may
    type, which has no page; its record says why (``nota``: :data:`TEST_ONLY`) and links its first such line."""
    served = {c["chave"] for c in cities}
    found: dict[str, Record] = {}
    for line in filter(test_line, lines):
        ends = [(line["origem_municipio"], line["origem_uf"]), (line["destino_municipio"], line["destino_uf"])]
        ends += [(s["origem_municipio"], s["origem_uf"]) for s in line["secoes"]]
        ends += [(s["destino_municipio"], s["destino_uf"]) for s in line["secoes"]]
        for name, uf in ends:
            place = resolve(name, uf)
            if place.chave in served:
                continue
            rec = found.get(place.chave)
            if rec is None:
                rec = found[place.chave] = _place_record(place)
                rec.update(url=line["url"], prefixos=[], empresa=line["transportadoras"][0]["razao_social"], linhas=0)
            rec["grafias"].add(name)
            if line["prefixo"] not in rec["prefixos"]:
                rec["prefixos"].append(line["prefixo"])
    for rec in found.values():
        many = len(rec["prefixos"]) > 1
        rec["nota"] = TEST_ONLY.format(lugar=f"{rec['nome']} ({rec['uf']})", nome=rec["nome"], empresa=rec["empresa"],
                                       linhas=("nas linhas " if many else "na linha ") + join(rec["prefixos"]))
    return list(found.values())


def index_json(cities: list[Record], lines: list[dict] = ()) -> list[dict]:
    """``/cidades/index.json``: every place with its folded spellings, for the form to match what a
    person types (``sao paulo``, ``SÃO PAULO``) without loading any city's answers, the positions
    in this list of the places it has an answer for (so no answer file is asked for in vain), and
    ``partidas`` beside them, each destination's weekly departures (None where every line serving it is
    paralysed: the one-change rule, pipeline/places/journeys.py, reads them), ``km`` the shortest length the
    sources give of a line's way there (None where none is given; no ``km`` where none is), ``sem_horarios`` (or
    ``com_horarios``, the others, when fewer: :func:`_fewer`; neither where there is none) the destinations whose
    departures from here no source gives (a section's or a stop's place, which no timetable names, or no
    timetable covered: their ``partidas`` are 0, which the answers do not state as a count), and
    ``linhas``, how many lines serve it (the test company's not counted): a measure of its service;
    which destinations are answered in this place's row alone (:func:`own_page`), where some are: ``sem_pagina``,
    or ``com_pagina``, the others, when fewer (:func:`_fewer`).
    A place named only in the test company's lines (:func:`test_only_places`) is listed too, with no
    destination, its first such line's address and ``nota``, what to tell the person who types it."""
    places = sorted([*cities, *test_only_places(lines, cities)], key=lambda c: (collation_key(c["nome"]), c["uf"]))
    position = {c["chave"]: k for k, c in enumerate(places)}
    out = []
    for c in places:
        legs = sorted((position[r["outra"]["chave"]], r["partidas_semana"] if r["linhas"] else None,
                       r["extensao_km"]) for r in c["destinos"])
        timetabled = "horarios" not in _uncovered(c)
        unknown = sorted(position[r["outra"]["chave"]] for r in c["destinos"] if r["linhas"] and not (
            timetabled and any(i["partidas_semana"] is not None for i in r["linhas"])))
        ends = [p for p, _, _ in legs]
        pages = _fewer("pagina", sorted(position[r["outra"]["chave"]] for r in c["destinos"] if not r["pagina"]), ends)
        out.append(dict(_place_json(c), busca=sorted({c["busca"], *(fold_name(g) for g in c["grafias"])}),
                        destinos=ends, partidas=[w for _, w, _ in legs], **pages,
                        # left out where they say nothing (no length given, every leg timetabled): the form's bytes
                        **({"km": [k for _, _, k in legs]} if any(k is not None for _, _, k in legs) else {}),
                        **_fewer("horarios", unknown, ends),
                        linhas=c["linhas"], **({"nota": c["nota"]} if "nota" in c else {})))
    return out


def _fewer(name: str, without: list[int], every: list[int]) -> dict[str, list[int]]:
    """``{"sem_<name>": without}``, or ``{"com_<name>": the others of every}`` when they are fewer; nothing when
    ``without`` is empty (a national sections file's places have tens of destinations with no page and no
    timetable for one with; the 2021 export's, the other way round). Read by ``journeys.lacks``."""
    if not without:
        return {}
    others = sorted(set(every) - set(without))
    return {f"com_{name}": others} if len(others) < len(without) else {f"sem_{name}": without}


def _uncovered(place: Record) -> set[str]:
    """The answer tables (:data:`ANSWER_TABLES`) no source covers, as the place's answers say (``fontes``)."""
    said = set((place.get("fontes") or {}).get("nao_cobertas") or ())
    return {t for t in ANSWER_TABLES if PHRASES[t][1] in said}


def answer_file(frm: Record, to: Record) -> str:
    """Where the answer for ``frm`` -> ``to`` is: ``cidades/<uf>/<municipio>/para/<uf>-<municipio>.json``."""
    return urls.pair_path(frm, to).rstrip("/") + ".json"


def _carrier_json(carrier) -> dict | None:
    return {"nome": carrier["razao_social"], "url": carrier["url"]} if carrier else None


def _departure_json(row: Record, label) -> dict:
    """A departure as the form shows it: ``dias`` a flag per weekday (Monday first), ``meses`` the months'
    names or None all year; a placeholder time keeps its ``horario`` and says so (``sem_horario``, ``nota``)."""
    out = {"horario": row["horario"], "sem_horario": row["sem_horario"], "linha": row["linha"]["prefixo"],
           "url": row["linha"]["url"], "transportadora": _carrier_json(row["transportadora"]),
           "categoria": service_class(row["categoria"], row["misto"], label),
           "dias": row["dias"], "meses": row["meses"]}
    if row["sem_horario"]:
        out["nota"] = row["nota"]
    return out


def answers_json(rec: Record, label) -> dict[str, dict]:
    """The answers from ``rec`` as the form reads them (path -> content), each the same as its page or row but
    its sources (:func:`sources_json`): one small file per destination with a page of its own (:func:`own_page`),
    and one file (:func:`rows_file`) for the destinations answered in ``rec``'s row, keyed as their rows are
    (``sc-joinville``), each answer without ``de``, said once: a file each, most of its bytes in the Pages
    artifact would be a tar header and its padding.
    ``label`` gives a category's pt-BR label."""
    answers = {r["outra"]["chave"]: _answer_json(rec, r, label) for r in rec["destinos"]}
    out = {answer_file(rec, r["outra"]): answers[r["outra"]["chave"]] for r in rec["destinos"] if r["pagina"]}
    rows = {r["outra"]["chave"].replace("/", "-"): {k: v for k, v in answers[r["outra"]["chave"]].items() if k != "de"}
            for r in rec["destinos"] if not r["pagina"]}
    if rows:
        out[rows_file(rec)] = {"de": _place_json(rec), "respostas": rows}
    return out


def rows_file(rec: dict) -> str:
    """Where the answers of ``rec``'s destinations without a page are: ``cidades/<uf>/<municipio>/destinos.json``."""
    return urls.path("cidade", slug=rec["chave"]) + "destinos.json"


def _answer_json(rec: Record, r: Record, label) -> dict:
    return {
        "de": _place_json(rec),
        "para": _place_json(r["outra"]),
        "url": r["url"],  # the answer's page, or the origin's row of destinations when the pair has none (own_page)
        "partidas_semana": r["partidas_semana"],
        "epoca": r["epoca"],  # the months the weekly departures run in, when not all year (season)
        # weekly departures of lines whose times are the export's placeholder (pipeline/site/placeholders.py)
        "partidas_sem_horario": r["partidas_sem_horario"],
        "linhas": [
            {"prefixo": i["linha"]["prefixo"], "url": i["linha"]["url"],
             "ligacao": ligacao(i["linha"], i["sentido"]),
             "por_secao": i["por_secao"], "por_paradas": i["por_paradas"],
             "notas": i["notas"],  # a terminal the source names apart, filed under a municipality
             "partidas_semana": i["partidas_semana"],
             "sem_horario": i["sem_horario"], "partidas_sem_horario": i["partidas_sem_horario"], "nota": i["nota"],
             "transportadoras": [_carrier_json(c) for c in i["transportadoras"]],
             "tarifas": [{"categoria": label(f["categoria"]), "trecho": f"{f['origem']} – {f['destino']}",
                          "valor": f["valor"]} for f in i["tarifas"]]}
            for i in r["linhas"]
        ],
        "partidas": [_departure_json(p, label) for p in r["partidas"]],
        # Monitriip: tickets and the mean amount paid, month by month of travel (numbers, and the month as text)
        "bilhetes": [{"mes": m["mes"], "mes_texto": mes_br(m["mes"]), "bilhetes": m["bilhetes"],
                      "pagos": m["pagos"], "valor_medio_pago": m["valor_medio_pago"]} for m in r["bilhetes"]],
        # the tickets against the other publications (contradiction): said, as the page says it
        "contradicao": r.get("contradicao"),
        # lines the regulator publishes as paralysed for this pair: said, never offered
        "paralisadas": [{"prefixo": x["linha"]["prefixo"], "url": x["linha"]["url"], "ligacao": ligacao(x["linha"]),
                         "desde": x["desde"].isoformat(), "desde_texto": data_br(x["desde"])} for x in r["paralisadas"]],
        # where the answer comes from is every answer's: /cidades/fontes.json (sources_json), fetched once
    }


def sources_json(coverage: Coverage | None) -> dict:
    """``/cidades/fontes.json``: what every answer says of where it comes from (:func:`answer_sources`), the
    same for every pair: ``fonte``, ``nao_cobertas`` and ``frase``, the sentence the pair's page shows. The
    form reads it beside a pair's file, which does not repeat it."""
    sources = answer_sources(coverage) or Record(fonte=None, nao_cobertas=[])
    return {"fonte": sources["fonte"], "nao_cobertas": sources["nao_cobertas"],
            "frase": sources.get("frase") or sources_sentence(sources)}
