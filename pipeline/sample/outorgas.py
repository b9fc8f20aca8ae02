"""Outorgas (permissões and autorizações): chains of permits per line, renewals and extinctions,
seasonal and chartered authorisations, and their ids and acts.

Terms come from :mod:`pipeline.legal.outorgas` (arts. 10, 41, 94), so random rows stay clear of
every finding.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date

from ..legal.dates import add_days, add_years
from ..legal.outorgas import predates_decree, vencimento
from .carriers import Carrier
from .helpers import ActNumbers, rand_date
from .lines import Line

# Early extinctions follow art. 28, so none before the decree had been in force for a while.
EXTINCTIONS_FROM = date(1994, 7, 1)


@dataclass(eq=False)
class Outorga:
    instrumento: str
    modalidade: str
    carrier: Carrier
    linha: Line | None
    inicio: date
    fim: date | None = None
    prorrogada: bool = False
    extinta_em: date | None = None
    motivo_extincao: str | None = None
    planted: bool = False
    id: str = ""
    ato: str = ""

    @property
    def vencimento(self) -> date | None:
        """The contract's derived ``vencimento`` (arts. 10, 94, 41)."""
        return vencimento(self.instrumento, self.modalidade, self.inicio, self.fim, self.prorrogada)

    @property
    def first_term_end(self) -> date | None:
        """The ``vencimento`` it would have without a renewal (arts. 10 and 94)."""
        return vencimento(self.instrumento, self.modalidade, self.inicio, self.fim, False)

    def extinguish(self, day: date, motivo: str) -> None:
        """Extinct on ``day`` (art. 28); a permit extinct within its first term was never renewed."""
        self.extinta_em, self.motivo_extincao = day, motivo
        if self.prorrogada and motivo != "advento_termo":
            self.prorrogada = day > self.first_term_end

    @property
    def last_day(self) -> date:
        """Last day the outorga is in force."""
        ends = [d for d in (self.vencimento, self.extinta_em and add_days(self.extinta_em, -1)) if d]
        return min(ends) if ends else date.max


def carrier_for(rng: random.Random, carriers: list[Carrier], line: Line, exclude: Carrier | None = None) -> Carrier:
    """A carrier for ``line``, most often one seated in a UF of its ends; never ``exclude``."""
    local = [c for c in carriers if c.uf in (line.origem.uf, line.destino.uf) and c is not exclude]
    if local and rng.random() < 0.65:
        return rng.choice(local)
    while True:
        c = rng.choice(carriers)
        if c is not exclude:
            return c


def chain(rng: random.Random, carriers: list[Carrier], line: Line, k: int, as_of: date) -> list[Outorga]:
    """``k`` successive outorgas on ``line`` (fewer when time runs out before ``as_of``)."""
    mod = "semiurbano" if line.ambito == "semiurbano" else "regular"
    if k == 1:
        cursor = rand_date(rng, date(1978, 1, 1), date(2025, 6, 30))
    elif k == 2:
        cursor = rand_date(rng, date(1976, 1, 1), date(2006, 12, 31))
    else:
        cursor = rand_date(rng, date(1975, 1, 1), date(1992, 12, 31))
    out: list[Outorga] = []
    carrier = carrier_for(rng, carriers, line)
    for j in range(k):
        last = j == k - 1
        if cursor > add_days(as_of, -60):
            break
        prev = out[-1] if out else None
        if prev is not None:
            if prev.motivo_extincao not in (None, "advento_termo") or rng.random() < 0.4:
                carrier = carrier_for(rng, carriers, line, exclude=prev.carrier)
        emergency = (
            prev is not None and prev.modalidade != "emergencial"
            and prev.motivo_extincao in ("caducidade", "anulacao", "falencia") and rng.random() < 0.6
        )
        if emergency:  # art. 41: 180 days, another permit holder, no bidding
            o = Outorga("autorizacao", "emergencial", carrier, line, cursor)
            o.fim = o.vencimento if rng.random() < 0.7 else None
            out.append(o)
            cursor = add_days(o.vencimento, 1 + (0 if rng.random() < 0.5 else rng.randint(1, 90)))
            continue
        o = Outorga("permissao", mod, carrier, line, cursor)
        o.prorrogada = o.first_term_end <= add_days(as_of, 365) and rng.random() < 0.45
        out.append(o)
        venc = o.vencimento
        room = add_days(as_of, -400 * (k - 1 - j)) if not last else as_of
        can_end = add_days(venc, 1) <= room
        earliest_break = max(add_days(cursor, 366), EXTINCTIONS_FROM)
        can_break = earliest_break < min(venc, room)
        if not last:
            if can_end and (rng.random() < 0.5 or not can_break):
                o.extinta_em, o.motivo_extincao = add_days(venc, 1), "advento_termo"
            elif can_break:
                o.extinguish(rand_date(rng, earliest_break, min(venc, room)), rng.choices(
                    ("caducidade", "rescisao", "desistencia", "anulacao", "falencia"), (30, 20, 25, 10, 15))[0])
            else:
                break
            gap = 0 if o.motivo_extincao == "advento_termo" and rng.random() < 0.8 else rng.randint(0, 60)
            cursor = add_days(o.extinta_em, gap)
        elif venc < as_of:
            if rng.random() < 0.5:
                o.extinta_em, o.motivo_extincao = add_days(venc, 1), "advento_termo"
        elif earliest_break < add_days(as_of, -30) and rng.random() < 0.06:
            o.extinguish(rand_date(rng, earliest_break, add_days(as_of, -30)),
                         rng.choice(("desistencia", "rescisao", "falencia")))
    return out


def make_outorgas(rng: random.Random, lines: list[Line], carriers: list[Carrier], n: int, n_planted: int,
                  as_of: date) -> list[Outorga]:
    """The random outorgas of a package of ``n`` (``n_planted`` of them left for the planted
    scenarios): chains of permits on every line of ``lines`` (which sets their ``opened``), a few
    seasonal international authorisations, and chartered ones to make up the count."""
    intl = [ln for ln in lines if ln.ambito == "internacional"]
    n_temp = max(1, n // 100) if intl else 0
    n_fret = max(1, n // 10)
    extra = n - n_planted - n_temp - n_fret - len(lines)
    chains: list[list[int]] = [[1] for _ in lines]
    for _ in range(extra):
        i = rng.randrange(len(chains))
        if len(chains[i]) < 2 and rng.random() < 0.25:
            chains[i].append(1)
        else:
            j = rng.randrange(len(chains[i]))
            if chains[i][j] < 4:
                chains[i][j] += 1
            else:
                chains[i].append(1)
    outorgas: list[Outorga] = []
    for line, ks in zip(lines, chains):
        for k in ks:
            links = chain(rng, carriers, line, k, as_of)
            outorgas.extend(links)
            line.opened = min(links[0].inicio, line.opened or date.max)
    for _ in range(n_temp):  # art. 40: seasonal international service, permit holders only
        line = rng.choice(intl)
        year = rng.randint(2014, 2025)
        o = Outorga("autorizacao", "temporada_turistica", rng.choice(carriers), line,
                    date(year, 12, rng.choice((1, 10, 15))))
        o.fim = date(year + 1, rng.choice((2, 3)), rng.choice((15, 28)))
        outorgas.append(o)
    n_fret = n - n_planted - len(outorgas)
    for _ in range(n_fret):  # art. 8 II c/d: chartered service, no line
        o = Outorga("autorizacao", "fretamento", rng.choice(carriers), None,
                    rand_date(rng, date(2012, 1, 1), add_days(as_of, -20)))
        o.fim = add_days(add_years(o.inicio, rng.choice((1, 2, 3))), -1)
        if rng.random() < 0.06:
            o.extinta_em = rand_date(rng, add_days(o.inicio, 30), min(o.fim, add_days(as_of, -1)))
            o.motivo_extincao = rng.choice(("desistencia", "anulacao"))
        outorgas.append(o)
    return outorgas


def adjust_extinctions(rng: random.Random, outorgas: list[Outorga], n_cad: int, as_of: date) -> None:
    """Exactly ``n_cad`` random permits end by caducidade; every motive of art. 28 appears."""
    early = [o for o in outorgas if o.instrumento == "permissao" and o.motivo_extincao
             not in (None, "advento_termo")]
    cad = [o for o in early if o.motivo_extincao == "caducidade"]
    if len(cad) > n_cad:
        for o in rng.sample(cad, len(cad) - n_cad):
            o.motivo_extincao = rng.choice(("anulacao", "falencia"))
    elif len(cad) < n_cad:
        others = [o for o in early if o.motivo_extincao != "caducidade"]
        for o in rng.sample(others, min(len(others), n_cad - len(cad))):
            o.motivo_extincao = "caducidade"
        missing = n_cad - len(cad) - min(len(others), n_cad - len(cad))
        open_ = [o for o in outorgas if o.instrumento == "permissao" and o.extinta_em is None
                 and o.inicio < add_days(as_of, -800) and o.vencimento > add_days(as_of, -400)]
        if missing > len(open_):
            raise ValueError("scale too small: not enough permits to declare caducidades")
        for o in rng.sample(open_, missing):
            first = max(add_days(o.inicio, 400), EXTINCTIONS_FROM)
            o.extinguish(rand_date(rng, first, min(o.vencimento, add_days(as_of, -30))), "caducidade")
    for motivo in ("rescisao", "anulacao", "falencia"):
        tally = {m: sum(o.motivo_extincao == m for o in early) for m in ("rescisao", "desistencia",
                                                                          "anulacao", "falencia")}
        if tally[motivo]:
            continue
        donors = [o for o in early if o.motivo_extincao in tally and tally[o.motivo_extincao] > 1]
        if donors:
            rng.choice(donors).motivo_extincao = motivo


def number_outorgas(outorgas: list[Outorga], acts: ActNumbers) -> list[Outorga]:
    """Chronological ids (``OUT-000123``) and acts; returns the outorgas in that order."""
    ordered = sorted(enumerate(outorgas), key=lambda t: (t[1].inicio, t[0]))
    for i, (_, o) in enumerate(ordered, start=1):
        o.id = f"OUT-{i:06d}"
        if o.instrumento == "permissao":
            # Pre-decree permits were adapted by contract in 1994 (art. 94 sole paragraph).
            year = 1994 if predates_decree(o.inicio) else o.inicio.year
            o.ato = f"Contrato de adesão nº {acts.next('contrato', year)}/{year}"
        else:  # art. 9 sole paragraph
            o.ato = f"Termo de obrigações nº {acts.next('termo', o.inicio.year)}/{o.inicio.year}"
    return [o for _, o in ordered]


def windows(outorgas: list[Outorga], first: date, last: date,
            lines_only: bool = True) -> list[tuple[Outorga, date, date]]:
    """(outorga, start, end) for every outorga in force some day of [first, last], clipped."""
    out = []
    for o in outorgas:
        if lines_only and o.linha is None:
            continue
        start, end = max(o.inicio, first), min(o.last_day, last)
        if start <= end:
            out.append((o, start, end))
    return out


def rows_outorgas(outorgas: list[Outorga]) -> list[dict]:
    return [
        {"id": o.id, "instrumento": o.instrumento, "modalidade": o.modalidade,
         "transportadora_cnpj": o.carrier.cnpj, "linha_prefixo": o.linha.prefixo if o.linha else None,
         "inicio": o.inicio, "fim": o.fim, "prorrogada": o.prorrogada, "extinta_em": o.extinta_em,
         "motivo_extincao": o.motivo_extincao, "ato": o.ato, "documento_url": None}
        for o in outorgas
    ]
