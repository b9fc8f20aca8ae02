"""Timetables (horários, art. 3 XX): the departures of the lines operated on the reference date.

The weekday and month columns are the schema's (``Schema.weekdays``, ``Schema.months``).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import date

from ..contract.schema import Schema
from ..legal.outorgas import in_force_on
from .fares import FareKey
from .lines import Line
from .outorgas import Outorga


def rows_horarios(rng: random.Random, lines: list[Line], outorgas: list[Outorga], keys: list[FareKey],
                  as_of: date, schema: Schema) -> Iterator[dict]:
    """Departures of every line operated on ``as_of``, by the carriers in force there: one to four a
    day each way, in the line's whole-line fare categories, most of them every day."""
    weekdays, months = schema.weekdays, schema.months
    friday = weekdays[4]  # the day a departure runs on when the draw gave it none
    summer = (months[11], months[0], months[1])  # December to February: summer-only departures
    operators: dict[int, list[Outorga]] = {}
    for o in outorgas:
        if o.linha is not None and in_force_on(o.inicio, o.vencimento, o.extinta_em, as_of):
            operators.setdefault(id(o.linha), []).append(o)
    categories: dict[int, list[str]] = {}
    for k in keys:
        if (k.origem, k.destino) == (k.linha.origem.name, k.linha.destino.name):
            categories.setdefault(id(k.linha), []).append(k.categoria)
    for line in sorted(lines, key=lambda ln: ln.prefixo):
        cats = sorted(set(categories.get(id(line), []))) or ["convencional_com_sanitario"]
        for o in sorted(operators.get(id(line), []), key=lambda o: o.id):
            for sentido in ("ida", "volta"):
                times = sorted(rng.sample(range(5 * 60, 23 * 60 + 1, 30), rng.randint(1, 4)))
                for minute in times:
                    every_day = rng.random() < 0.7
                    days = {d: every_day or rng.random() < 0.5 for d in weekdays}
                    if not any(days.values()):
                        days[friday] = True
                    season = rng.random() < 0.1  # a summer-only departure
                    row = {"linha_prefixo": line.prefixo, "transportadora_cnpj": o.carrier.cnpj,
                           "sentido": sentido, "horario": f"{minute // 60:02d}:{minute % 60:02d}",
                           "categoria": rng.choice(cats), "tipo_veiculo": None, "data_autorizacao": o.inicio}
                    row.update(days)
                    row.update({m: (not season) or m in summer for m in months})
                    yield row
