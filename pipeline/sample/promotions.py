"""Promotional fares (tarifas promocionais, art. 6 sole paragraph), each inside an outorga of its
carrier on its line, below the maximum fare in force on its first day, with 30+ days' notice.

The maximum in force comes from :func:`.fares.maximum_on` (:class:`pipeline.legal.tarifas.FareHistory`)
and the limits from :mod:`pipeline.legal.promocoes`.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from ..legal.dates import add_days
from ..legal.promocoes import NOTICE_DAYS, acima_do_maximo
from ..legal.tarifas import FareHistory
from .carriers import Carrier
from .fares import FareKey, maximum_on
from .helpers import money, nup, rand_date
from .outorgas import Outorga, windows

PROMOTIONS_FROM = date(2019, 1, 1)


@dataclass(eq=False)
class Promotion:
    carrier: Carrier
    key: FareKey
    valor: Decimal
    comunicado_em: date
    inicio: date
    fim: date


class PromotionDrawer:
    """Draws regular promotions: an outorga in force (weighted by its days from 2019 to a month after
    ``as_of``), one of the fares of its line, a first day in both, a price 8 to 45 % below the maximum."""

    def __init__(self, rng: random.Random, outorgas: list[Outorga], keys: list[FareKey], fares: FareHistory,
                 as_of: date):
        self.rng, self.keys, self.fares, self.as_of = rng, keys, fares, as_of
        self.by_line: dict[int, list[FareKey]] = {}
        for k in keys:
            self.by_line.setdefault(id(k.linha), []).append(k)
        self.windows = [w for w in windows(outorgas, PROMOTIONS_FROM, add_days(as_of, 30))
                        if id(w[0].linha) in self.by_line and w[0].modalidade != "fretamento"]
        if not self.windows:
            raise ValueError("scale too small: no line has both fares and an outorga for promotions")
        self.cum = list(itertools.accumulate((w[2] - w[1]).days + 1 for w in self.windows))

    def maximum(self, key: FareKey, day: date) -> Decimal:
        """The maximum fare of ``key`` in force on ``day``."""
        return maximum_on(self.fares, key, day)

    def draw(self, latest: date | None = None) -> Promotion:
        """A promotion starting no later than ``latest`` (by default a month after ``as_of``)."""
        rng = self.rng
        latest = latest or add_days(self.as_of, 30)
        while True:
            o, start, end = rng.choices(self.windows, cum_weights=self.cum)[0]
            key = rng.choice(self.by_line[id(o.linha)])
            start = max(start, key.rows[0][0])
            if start > min(end, latest):
                continue
            inicio = rand_date(rng, start, min(end, latest))
            maximum = self.maximum(key, inicio)
            valor = money(maximum * Decimal(rng.randint(55, 92)) / 100)
            if valor <= 0 or acima_do_maximo(valor, maximum):
                continue
            fim = min(add_days(inicio, rng.randint(6, 90)), max(o.last_day, inicio))
            return Promotion(o.carrier, key, valor, add_days(inicio, -rng.randint(NOTICE_DAYS, 75)), inicio, fim)


def rows_tarifas_promocionais(rng: random.Random, promotions: list[Promotion]) -> list[dict]:
    """The rows, with protocol numbers drawn in order of communication."""
    ordered = sorted(enumerate(promotions), key=lambda t: (t[1].comunicado_em, t[0]))
    seq: dict[int, int] = {}
    rows = []
    for _, pr in ordered:
        year = pr.comunicado_em.year
        if year not in seq:
            seq[year] = rng.randint(1_000, 9_000)
        seq[year] += rng.randint(1, 40)
        rows.append({
            "protocolo": nup(50500, seq[year], year), "transportadora_cnpj": pr.carrier.cnpj,
            "linha_prefixo": pr.key.linha.prefixo, "origem": pr.key.origem, "destino": pr.key.destino,
            "categoria": pr.key.categoria, "valor": pr.valor, "comunicado_em": pr.comunicado_em,
            "inicio": pr.inicio, "fim": pr.fim,
        })
    return rows
