"""The planted scenarios: the few scripted rows that trigger each finding of the data contract, or
sit just on the legal side of a boundary, on three scripted lines and seven carriers A to G:

- carrier A's permit is declared caduca on 2024-02-29, so A is barred until 2026-03-01 (24 months,
  Código Civil art. 132 § 3); A's fretamento authorisations start on 2025-01-20 and 2026-03-01
  (outorga-durante-impedimento) and on 2026-03-02 (none);
- B holds the line in emergency (art. 41) from 2024-03-01, i.e. through 2024-08-28 (180 days, art. 96):
  B's promotion starting 2024-08-28 and its infraction at 2024-08-28T23:40 are fine, its infraction at
  2024-08-29T06:10 is operacao-apos-vencimento; C wins the line on 2025-02-10;
- D gives up its permit on 2023-05-10 (F wins the line on 2023-08-01): D's promotion starting that very
  day is promocao-sem-outorga, D's infraction of 2023-11-27 is operacao-apos-vencimento;
- E's permit of 1987, renewed, runs to 2023-10-08 under art. 94 (not 1987 + 30 years): E's
  infractions of 2019-06-10 and 2023-10-08T22:05 are fine;
- G registers a promotion on a line where it holds no outorga at all (promocao-sem-outorga);
- promotions with 29 and 12 days' notice (findings) and exactly 30 (none); at the maximum fare and
  15 % above it (findings), one cent below it (none), and one starting on the day a fare adjustment
  comes into force priced at the former maximum (none);
- caducidades without the second notice, or with notices 10 and 15 days apart (findings), and one
  with notices 16 days apart (none: the first notice's 15 days run through its 15th day); those are
  drawn among the random caducidades by :func:`.caducidades.make_caducidades`.
"""

from __future__ import annotations

import random
from datetime import date
from decimal import Decimal

from ..legal.caducidades import barred_on
from ..legal.dates import add_days, add_years
from ..legal.promocoes import NOTICE_DAYS
from .carriers import Carrier
from .helpers import money, rand_date
from .lines import Line, make_line
from .outorgas import Outorga
from .places import PLACES
from .promotions import PROMOTIONS_FROM, Promotion, PromotionDrawer

# How many outorgas plant_outorgas() writes.
PLANTED_OUTORGAS = 10

# Start dates of each planted carrier's scripted outorgas: none may fall in a bar of its own.
ROLES: dict[str, tuple[date, ...]] = {
    "A": (date(2011, 3, 14), date(2025, 1, 20), date(2026, 3, 1), date(2026, 3, 2)),
    "B": (date(2024, 3, 1),),
    "C": (date(2025, 2, 10),),
    "D": (date(2009, 6, 15),),
    "E": (date(1987, 5, 4), date(2023, 10, 9)),
    "F": (date(2023, 8, 1),),
    "G": (),
}

# First notice of the caducidade of A's permit (art. 29 § 3).
FIRST_NOTICE_TO_A = date(2023, 9, 11)


def scripted_lines(rng: random.Random) -> dict[str, Line]:
    """The three lines of the scenarios (their outorgas are written by :func:`plant_outorgas`)."""
    return {
        "caducidade": make_line(rng, PLACES["IMPERATRIZ"], PLACES["PALMAS"], "interestadual"),
        "desistencia": make_line(rng, PLACES["CAMPO GRANDE"], PLACES["CUIABA"], "interestadual"),
        "art94": make_line(rng, PLACES["BELO HORIZONTE"], PLACES["VITORIA"], "interestadual"),
    }


def pick_carriers(rng: random.Random, outorgas: list[Outorga], carriers: list[Carrier]) -> dict[str, Carrier]:
    """A carrier for each role of :data:`ROLES`, none barred by a caducidade on its scripted days."""
    declared: dict[int, list[date]] = {}
    for o in outorgas:
        if o.motivo_extincao == "caducidade":
            declared.setdefault(id(o.carrier), []).append(o.extinta_em)
    chosen: dict[str, Carrier] = {}
    pool = rng.sample(carriers, len(carriers))
    for role, days in ROLES.items():
        for c in pool:
            if c not in chosen.values() and not any(
                    barred_on(s, d) for s in declared.get(id(c), ()) for d in days):
                chosen[role] = c
                break
        else:
            raise ValueError("scale too small: no carrier free for the planted scenarios")
    return chosen


def scripted_starts(roles: dict[str, Carrier]) -> dict[int, tuple[date, ...]]:
    """``id(carrier)`` -> start days of its scripted outorgas, for the planted carriers."""
    return {id(c): ROLES[role] for role, c in roles.items()}


def plant_outorgas(roles: dict[str, Carrier], scenario: dict[str, Line]) -> list[Outorga]:
    """The scripted outorgas of the scenarios (module docstring); sets their lines' ``opened``."""
    sc = scenario
    a, b, c, d, e, f = (roles[r] for r in "ABCDEF")
    # A loses its permit by caducidade on 2024-02-29: barred until 2026-03-01 (CC art. 132 § 3).
    o_a = Outorga("permissao", "regular", a, sc["caducidade"], date(2011, 3, 14),
                  extinta_em=date(2024, 2, 29), motivo_extincao="caducidade", planted=True)
    # B runs the line in emergency (art. 41) from 2024-03-01; its 180 days end on 2024-08-28.
    o_b = Outorga("autorizacao", "emergencial", b, sc["caducidade"], date(2024, 3, 1), planted=True)
    o_c = Outorga("permissao", "regular", c, sc["caducidade"], date(2025, 2, 10), planted=True)
    # D gives the line up on 2023-05-10; F wins it in 2023.
    o_d = Outorga("permissao", "regular", d, sc["desistencia"], date(2009, 6, 15),
                  extinta_em=date(2023, 5, 10), motivo_extincao="desistencia", planted=True)
    o_f = Outorga("permissao", "regular", f, sc["desistencia"], date(2023, 8, 1), planted=True)
    # E's pre-decree permit, extended: art. 94 runs it to 2023-10-08 (not inicio + 30 years).
    o_e1 = Outorga("permissao", "regular", e, sc["art94"], date(1987, 5, 4), prorrogada=True,
                   extinta_em=date(2023, 10, 9), motivo_extincao="advento_termo", planted=True)
    o_e2 = Outorga("permissao", "regular", e, sc["art94"], date(2023, 10, 9), planted=True)
    # A's new authorisations: during the bar, on its last day, and on the day after.
    fret = [Outorga("autorizacao", "fretamento", a, None, start, fim=add_days(add_years(start, 1), -1),
                    planted=True)
            for start in (date(2025, 1, 20), date(2026, 3, 1), date(2026, 3, 2))]
    scripted = [o_a, o_b, o_c, o_d, o_f, o_e1, o_e2, *fret]
    assert len(scripted) == PLANTED_OUTORGAS
    sc["caducidade"].opened = o_a.inicio
    sc["desistencia"].opened = o_d.inicio
    sc["art94"].opened = o_e1.inicio
    return scripted


def planted_promotions(drawer: PromotionDrawer, roles: dict[str, Carrier], scenario: dict[str, Line],
                       outorgas: list[Outorga]) -> list[Promotion]:
    """The scripted promotions (module docstring), drawn before the random ones."""
    rng, as_of, draw, maximum = drawer.rng, drawer.as_of, drawer.draw, drawer.maximum
    p, sc = roles, scenario
    planted = []
    # Art. 6 sole paragraph I: 29 and 12 days' notice (findings), exactly 30 days (none).
    for days in (NOTICE_DAYS - 1, 12, NOTICE_DAYS):
        promo = draw(latest=as_of)
        promo.comunicado_em = add_days(promo.inicio, -days)
        planted.append(promo)
    # Art. 6: promotional fare equal to / above the maximum (findings), one cent below (none).
    for price in (lambda m: m, lambda m: money(m * Decimal("1.15")), lambda m: m - Decimal("0.01")):
        promo = draw()
        promo.valor = price(maximum(promo.key, promo.inicio))
        planted.append(promo)
    # Starting on the day a higher fare comes into force, priced at the former maximum (none).
    while True:
        promo = draw()
        later = [i for i, r in enumerate(promo.key.rows) if i and r[2] == "reajuste"
                 and promo.inicio <= r[0] <= min(promo.fim, add_days(as_of, 30))]
        if later:
            i = later[0]
            promo.inicio = promo.key.rows[i][0]
            promo.comunicado_em = add_days(promo.inicio, -rng.randint(NOTICE_DAYS, 60))
            promo.valor = promo.key.rows[i - 1][1]
            planted.append(promo)
            break
    # No outorga at all of G on the line (finding).
    g = p["G"]
    held = {id(o.linha) for o in outorgas if o.carrier is g and o.linha is not None}
    free_keys = [k for k in drawer.keys if id(k.linha) not in held and k.linha not in sc.values()
                 and k.rows[0][0] <= add_days(as_of, -60)]
    if not free_keys:
        raise ValueError("scale too small: carrier G holds an outorga on every line with fares")
    key = rng.choice(free_keys)
    inicio = rand_date(rng, max(key.rows[0][0], PROMOTIONS_FROM), add_days(as_of, -40))
    planted.append(Promotion(g, key, money(maximum(key, inicio) * Decimal("0.7")), add_days(inicio, -45), inicio,
                             add_days(inicio, 30)))
    # D's promotion starts the day its permit is extinct (finding).
    key = drawer.by_line[id(sc["desistencia"])][0]
    planted.append(Promotion(p["D"], key, money(maximum(key, date(2023, 5, 10)) * Decimal("0.75")),
                             date(2023, 3, 28), date(2023, 5, 10), date(2023, 6, 30)))
    # B's promotion on the 180th day of its emergency authorisation, still in force (none).
    key = drawer.by_line[id(sc["caducidade"])][0]
    planted.append(Promotion(p["B"], key, money(maximum(key, date(2024, 8, 28)) * Decimal("0.8")),
                             date(2024, 7, 15), date(2024, 8, 28), date(2024, 8, 28)))
    return planted


def planted_infractions(roles: dict[str, Carrier], scenario: dict[str, Line]) -> list[tuple[Carrier, Line, date, int]]:
    """(carrier, line, day, minute of day) of the planted infractions, all under 78-VI-a."""
    p, sc = roles, scenario
    return [
        (p["D"], sc["desistencia"], date(2023, 11, 27), 14 * 60 + 25),  # after giving up (finding)
        (p["B"], sc["caducidade"], date(2024, 8, 29), 6 * 60 + 10),  # day 181 (finding)
        (p["B"], sc["caducidade"], date(2024, 8, 28), 23 * 60 + 40),  # day 180 (none)
        (p["E"], sc["art94"], date(2019, 6, 10), 9 * 60 + 15),  # art. 94: in force (none)
        (p["E"], sc["art94"], date(2023, 10, 8), 22 * 60 + 5),  # art. 94 last day (none)
    ]
