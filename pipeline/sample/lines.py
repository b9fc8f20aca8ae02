"""Lines (art. 3 XVIII): ends, itineraries, lengths, prefixes in the regulator's two forms, and
the sections (seções, art. 3 XXI) that fares may be set for."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING

from .places import (
    ALPHA2,
    FOREIGN_ROADS,
    INTERNACIONAIS,
    MUNICIPIOS,
    PLACES,
    RODOVIAS,
    SEMIURBANOS,
    Place,
    connected,
    haversine_km,
    road_km,
)

if TYPE_CHECKING:
    from .fares import FareKey

# First two digits of old-form prefixes: the DNER district of the origin UF.
_DNER = {
    "AM": 1, "RR": 1, "PA": 2, "AP": 2, "CE": 3, "PE": 4, "BA": 5, "MG": 6, "RJ": 7, "SP": 8, "PR": 9,
    "RS": 10, "MT": 11, "GO": 12, "DF": 12, "PB": 13, "RN": 14, "MA": 15, "SC": 16, "ES": 17, "PI": 18,
    "MS": 19, "AL": 20, "SE": 21, "RO": 22, "AC": 22, "TO": 23,
}
_VARIANTS = ("00", "61", "41", "31", "60", "51", "20", "70", "30", "91") + tuple(f"{n:02d}" for n in range(1, 20))


@dataclass(eq=False)
class Line:
    origem: Place
    destino: Place
    ambito: str
    itinerario: str
    extensao_km: float
    prefixo: str = ""
    opened: date | None = None
    sections: list[tuple[Place, Place]] | None = None  # computed lazily by sections()

    @property
    def brazilian_ends(self) -> list[Place]:
        return [p for p in (self.origem, self.destino) if not p.abroad]


def make_line(rng: random.Random, a: Place, b: Place, ambito: str) -> Line:
    """A line from ``a`` to ``b`` along federal highways (plus the foreign road abroad)."""
    shared = [r for r in RODOVIAS.get(a.uf, ()) if r in RODOVIAS.get(b.uf, ())]
    if shared and rng.random() < 0.75:  # a highway that runs through both UFs
        roads = [rng.choice(shared)]
        if ambito == "interestadual" and rng.random() < 0.4:
            extra = rng.choice(RODOVIAS[rng.choice((a.uf, b.uf))])
            if extra not in roads:
                roads.append(extra)
    else:
        roads = []
        for uf in (a.uf, b.uf):
            if len(uf) == 2:
                road = rng.choice(RODOVIAS[uf])
                if road not in roads:
                    roads.append(road)
    if ambito == "semiurbano":
        roads = roads[:1]
    if ambito == "internacional":
        roads.append(FOREIGN_ROADS[(a if a.abroad else b).uf])
    return Line(a, b, ambito, ", ".join(roads), round(road_km(a, b), 1))


def make_lines(rng: random.Random, n: int) -> list[Line]:
    """``n`` random lines: mostly interstate between big cities, some semiurbano and international."""
    lines: list[Line] = []
    n_semi = max(1, round(n * 0.08))
    n_intl = max(1, round(n * 0.03))
    n_inter = n - n_semi - n_intl

    brazil = [p for p in MUNICIPIOS if p.uf != "AP"]
    pairs, weights = [], []
    semi = {tuple(sorted(p)) for p in SEMIURBANOS}
    for i, a in enumerate(brazil):
        for b in brazil[i + 1:]:
            if a.uf == b.uf or not connected(a.uf, b.uf) or tuple(sorted((a.name, b.name))) in semi:
                continue
            dist = haversine_km(a, b)
            if 75 <= dist <= 2_600:  # gravity: big cities, mostly within a day's ride
                pairs.append((a, b))
                weights.append(a.weight * b.weight / (1 + (dist / 450) ** 3))
    cum = list(itertools.accumulate(weights))
    for _ in range(n_inter):
        a, b = rng.choices(pairs, cum_weights=cum)[0]
        if rng.random() < 0.5:
            a, b = b, a
        lines.append(make_line(rng, a, b, "interestadual"))
    neighbours = [pair for pair in SEMIURBANOS if haversine_km(PLACES[pair[0]], PLACES[pair[1]]) <= 70]
    for _ in range(n_semi):
        a, b = (PLACES[x] for x in rng.choice(neighbours))
        if rng.random() < 0.5:
            a, b = b, a
        lines.append(make_line(rng, a, b, "semiurbano"))
    for _ in range(n_intl):
        a, b = (PLACES[x] for x in rng.choice(INTERNACIONAIS))
        lines.append(make_line(rng, a, b, "internacional"))
    return lines


def assign_prefixes(rng: random.Random, lines: list[Line]) -> None:
    """Old form ``NN-NNNN-NN`` for lines opened before 2015, new form ``UFUF`` + 7 digits after."""
    ordered = sorted(lines, key=lambda ln: ln.opened)
    new_form = {id(ln) for ln in lines if ln.opened >= date(2015, 1, 1)}
    if not new_form:
        new_form.add(id(ordered[-1]))
    if len(new_form) == len(lines):
        new_form.discard(id(ordered[0]))
    next_middle = {code: rng.randint(10, 300) for code in sorted(set(_DNER.values()))}
    old_pairs: dict[tuple, list] = {}
    new_groups: dict[tuple[str, str], int] = {}
    for line in lines:
        o, d = line.origem, line.destino
        if id(line) in new_form:
            a = o.uf if not o.abroad else ALPHA2[o.uf]
            b = d.uf if not d.abroad else ALPHA2[d.uf]
            group = new_groups[(a, b)] = new_groups.get((a, b), 0) + 1
            line.prefixo = f"{a}{b}{group:03d}{rng.randint(1, 9999):04d}"
        else:
            code = _DNER[(d if o.abroad else o).uf]
            key = (code,) + tuple(sorted((o.name, d.name)))
            slot = old_pairs.get(key)
            if slot is None or slot[1] >= len(_VARIANTS):
                slot = old_pairs[key] = [next_middle[code], 0]
                next_middle[code] += rng.randint(1, 9)
            line.prefixo = f"{code:02d}-{slot[0]:04d}-{_VARIANTS[slot[1]]}"
            slot[1] += 1


def sections(line: Line) -> list[tuple[Place, Place]]:
    """The line's sections from or to a municipality on the way (none on semiurbano lines);
    computed once and kept in ``line.sections``."""
    if line.sections is None:
        line.sections = []
        if line.ambito != "semiurbano":
            o, d = line.origem, line.destino
            total = haversine_km(o, d)
            for m in MUNICIPIOS:
                if m.name in (o.name, d.name) or m.uf == "AP":
                    continue
                a, b = haversine_km(o, m), haversine_km(m, d)
                if a + b <= total * 1.1 and min(a, b) >= total * 0.2:
                    if not o.abroad:
                        line.sections.append((o, m))
                    if not d.abroad:
                        line.sections.append((m, d))
    return line.sections


def rows_linhas(lines: list[Line]) -> list[dict]:
    return [
        {"prefixo": ln.prefixo,
         "descricao": f"{ln.origem.name}({ln.origem.uf}) - {ln.destino.name}({ln.destino.uf})",
         "origem_municipio": ln.origem.name, "origem_uf": ln.origem.uf,
         "destino_municipio": ln.destino.name, "destino_uf": ln.destino.uf,
         "ambito": ln.ambito, "itinerario": ln.itinerario, "extensao_km": f"{ln.extensao_km:.1f}"}
        for ln in sorted(lines, key=lambda ln: ln.prefixo)
    ]


def rows_secoes(keys: list[FareKey]) -> Iterator[dict]:
    """The sections of the fares (art. 3 XXI), each with its road distance."""
    seen = set()
    for k in sorted(keys, key=lambda k: (k.linha.prefixo, k.origem, k.destino)):
        if (k.linha.prefixo, k.origem, k.destino) in seen:
            continue
        seen.add((k.linha.prefixo, k.origem, k.destino))
        places = {p.name: p for p in (k.linha.origem, k.linha.destino, *sum(k.linha.sections or [], ()))}
        a, b = places[k.origem], places[k.destino]
        yield {"linha_prefixo": k.linha.prefixo, "origem_municipio": a.name, "origem_uf": a.uf,
               "destino_municipio": b.name, "destino_uf": b.uf, "extensao_km": f"{road_km(a, b):.1f}",
               "tipo_servico": None}
