"""Maximum fares (tarifas, arts. 6, 24 and 95): the register's first fares, yearly adjustments,
revisions and new bids, per line, section and category.

Which fare is in force on a day is asked of :class:`pipeline.legal.tarifas.FareHistory`
(:func:`fare_history`); the categories and their order come from the schema.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from ..contract.schema import load_schema
from ..legal.tarifas import FareHistory
from .helpers import money, rand_date
from .lines import Line, sections
from .outorgas import Outorga
from .places import Place, road_km

# Price multiplier of each category over convencional_com_sanitario (data; the names and their
# order, lowest class first, are the schema's).
_MULTIPLIERS: dict[str, Decimal] = {
    "semiurbano": Decimal("0.85"),
    "convencional_sem_sanitario": Decimal("0.92"),
    "convencional_com_sanitario": Decimal("1.00"),
    "executivo": Decimal("1.30"),
    "semileito": Decimal("1.50"),
    "leito_sem_ar": Decimal("1.75"),
    "leito_com_ar": Decimal("2.00"),
    "cama": Decimal("2.40"),
}
_SCHEMA_CATEGORIES = load_schema().categories
assert sorted(_MULTIPLIERS) == sorted(_SCHEMA_CATEGORIES), "fare multipliers do not match the schema's categories"
# Categories in the schema's order (increasing class, hence increasing fare) with their multiplier.
CATEGORIAS: dict[str, Decimal] = {c: _MULTIPLIERS[c] for c in _SCHEMA_CATEGORIES}
assert list(CATEGORIAS.values()) == sorted(CATEGORIAS.values()), "fares must grow with the category's class"
ROAD_CATEGORIES = tuple(c for c in CATEGORIAS if c != "semiurbano")

# The fare register starts with the fares in force on this date (art. 95 for older services).
REGISTER_START = date(2018, 7, 1)
# National yearly adjustments (art. 24 § 1): date, percentage, act.
REAJUSTES: tuple[tuple[date, Decimal, str], ...] = (
    (date(2019, 7, 1), Decimal("4.27"), "Resolução nº 5.851/2019"),
    (date(2020, 7, 1), Decimal("2.13"), "Resolução nº 5.892/2020"),
    (date(2021, 7, 1), Decimal("8.35"), "Resolução nº 5.947/2021"),
    (date(2022, 7, 1), Decimal("11.73"), "Resolução nº 5.989/2022"),
    (date(2023, 7, 1), Decimal("3.16"), "Resolução nº 6.017/2023"),
    (date(2024, 7, 1), Decimal("3.93"), "Resolução nº 6.041/2024"),
    (date(2025, 7, 1), Decimal("5.32"), "Resolução nº 6.063/2025"),
    (date(2026, 7, 1), Decimal("4.68"), "Resolução nº 6.082/2026"),
)
# A revision already published but not yet in force on the reference date (art. 24 § 2).
FUTURE_REVISION = (date(2027, 1, 10), Decimal("6.50"), "Resolução nº 6.094/2026")


@dataclass(eq=False)
class FareKey:
    """The fare history of one line, section and category."""

    linha: Line
    origem: str
    destino: str
    categoria: str
    rows: list[tuple[date, Decimal, str, str]]  # (vigencia_inicio, valor, motivo, ato)

    @property
    def ident(self) -> tuple[Line, str, str, str]:
        """Its key in :func:`fare_history`."""
        return (self.linha, self.origem, self.destino, self.categoria)


def fare_history(keys: list[FareKey]) -> FareHistory:
    """The legal view of the fares: which row of a key is in force on a day."""
    return FareHistory((*k.ident, day, valor) for k in keys for day, valor, _, _ in k.rows)


def maximum_on(history: FareHistory, key: FareKey, day: date) -> Decimal:
    """The maximum fare of ``key`` in force on ``day`` (``day`` must not precede its first row)."""
    return history.in_force(key.ident, day)[1]


def resolution_number(day: date) -> int:
    """A plausible number for a resolution of ``day``: about 45 a year around the adjustments' ones."""
    for adjusted, _, ato in REAJUSTES:
        if adjusted.year == day.year:
            number = int(ato.split("nº ")[1].split("/")[0].replace(".", ""))
            return number + (day - adjusted).days * 45 // 365 + (1 if day >= adjusted else -1)
    raise ValueError(f"no adjustment in {day.year}")


def schedule(rng: random.Random, line: Line, permits: list[Outorga],
             future: bool) -> list[tuple[date, str, Decimal, str]]:
    """The line's fare events: (date, motivo, factor, ato); the first one sets the base fare."""
    events: dict[date, tuple[str, Decimal, str]] = {}
    if line.opened < REGISTER_START:
        events[REGISTER_START] = ("anterior", Decimal(1), "")
    for day, pct, ato in REAJUSTES:
        if day > line.opened:
            events[day] = ("reajuste", 1 + pct / 100, ato)
    for o in permits:  # a new bid sets a new maximum (art. 6), often lower
        if o.inicio >= REGISTER_START:
            events[o.inicio] = ("licitacao", 1 - Decimal(rng.randint(0, 12)) / 100, o.ato)
    if rng.random() < 0.12:
        day = rand_date(rng, date(2020, 1, 1), date(2025, 12, 31))
        if day > line.opened and day not in events:
            pct = Decimal(rng.randint(-30, 70)) / 10
            number = resolution_number(day)
            events[day] = ("revisao", 1 + pct / 100, f"Resolução nº {number:,}/{day.year}")
    if future:
        day, pct, ato = FUTURE_REVISION
        events[day] = ("revisao", 1 + pct / 100, ato)
    sched = sorted((d, m, f, a) for d, (m, f, a) in events.items())
    while sched and sched[0][1] in ("reajuste", "revisao"):  # start at the base fare
        sched.pop(0)
    return [(d, m, f, a.replace(",", ".")) for d, m, f, a in sched]


def make_fares(rng: random.Random, lines: list[Line], outorgas: list[Outorga], n: int) -> list[FareKey]:
    """About ``n`` fare rows: the whole line in one category for every line (``lines`` in order,
    the scripted ones first, while the budget lasts), then sections and other categories."""
    permits: dict[int, list[Outorga]] = {id(ln): [] for ln in lines}
    for o in outorgas:
        if o.linha is not None and o.instrumento == "permissao":
            permits[id(o.linha)].append(o)
    future = {id(ln) for ln in lines if rng.random() < 0.05}
    future.add(id(lines[0]))  # at least one fare not yet in force
    schedules = {id(ln): schedule(rng, ln, permits[id(ln)], id(ln) in future) for ln in lines}
    noise = {id(ln): Decimal(rng.randint(90, 112)) / 100 for ln in lines}
    keys: list[FareKey] = []
    used: set[tuple] = set()
    budget = n

    def add(line: Line, a: Place, b: Place, cat: str) -> None:
        nonlocal budget
        used.add((id(line), a.name, b.name, cat))
        sched = schedules[id(line)][:budget]
        base = (Decimal("0.125") * Decimal(str(round(road_km(a, b), 1))) + Decimal("4.00"))
        value = money(base * CATEGORIAS[cat] * noise[id(line)])
        rows = []
        for i, (day, motivo, factor, ato) in enumerate(sched):
            if i == 0 and motivo == "licitacao":  # priced at that date's level
                for rday, pct, _ in REAJUSTES:
                    if rday <= day:
                        value = money(value * (1 + pct / 100))
            elif i > 0:
                value = money(value * factor)
            rows.append((day, value, motivo, ato))
        keys.append(FareKey(line, a.name, b.name, cat, rows))
        budget -= len(rows)

    for line in lines:
        if budget <= 0:
            break
        if line.ambito == "semiurbano":
            cat = "semiurbano"
        else:
            cat = rng.choices(("convencional_com_sanitario", "executivo", "convencional_sem_sanitario",
                               "semileito"), (70, 12, 10, 8))[0]
        add(line, line.origem, line.destino, cat)
    candidates = [ln for ln in lines if ln.ambito != "semiurbano"]
    attempts = 0
    while budget > 0 and candidates and attempts < 50 * n:
        attempts += 1
        line = rng.choice(candidates)
        a, b = line.origem, line.destino
        if rng.random() < 0.4 and sections(line):
            a, b = rng.choice(line.sections)
        cat = rng.choice(ROAD_CATEGORIES)
        if (id(line), a.name, b.name, cat) not in used:
            add(line, a, b, cat)
    return keys


def rows_tarifas(keys: list[FareKey]) -> Iterator[dict]:
    for k in sorted(keys, key=lambda k: (k.linha.prefixo, k.origem, k.destino, k.categoria)):
        for day, valor, motivo, ato in k.rows:
            yield {"linha_prefixo": k.linha.prefixo, "origem": k.origem, "destino": k.destino,
                   "categoria": k.categoria, "valor": valor, "vigencia_inicio": day, "motivo": motivo,
                   "ato": ato or None}
