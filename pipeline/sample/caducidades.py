"""Caducidades (art. 29): the acts declaring permits lapsed, their notices, and the bar they start.

The bar and the notice rule come from :mod:`pipeline.legal.caducidades`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date

from ..legal.caducidades import NOTICE_DAYS, barred_on, notices_ok
from ..legal.dates import add_days
from .carriers import Carrier
from .helpers import ActNumbers, nup
from .outorgas import Outorga

_FUNDAMENTOS = [f"29-1-{r}" for r in ("I", "II", "III", "IV", "V", "VI", "VII")]


@dataclass(eq=False)
class Caducidade:
    outorga: Outorga
    data_declaracao: date
    fundamento: str
    comunicacao_1_em: date | None
    comunicacao_2_em: date | None
    ato: str = ""
    processo: str = ""


def make_caducidades(rng: random.Random, outorgas: list[Outorga], scripted_notice: date) -> list[Caducidade]:
    """One caducidade per outorga extinct by caducidade, declared that day; the planted one's first
    notice is ``scripted_notice``. Four random ones get flawed notices (art. 29 § 3)."""
    cads = []
    for o in outorgas:
        if o.motivo_extincao != "caducidade":
            continue
        c1 = add_days(o.extinta_em, -rng.randint(150, 420))
        if o.planted:
            c1 = scripted_notice
        cads.append(Caducidade(o, o.extinta_em, rng.choices(_FUNDAMENTOS, (3, 4, 3, 2, 3, 2, 1))[0],
                               c1, add_days(c1, rng.randint(20, 60))))
    # Art. 29 § 3 on its edges: no second notice, 10 and 15 days apart (findings), 16 days (none):
    # the first notice's 15 days run through c1 + 15 (art. 96), so the second is due from c1 + 16.
    flawed = rng.sample([c for c in cads if not c.outorga.planted], 4)
    flawed[0].comunicacao_2_em = None
    for cad, gap in zip(flawed[1:], (10, 15, 16)):
        cad.comunicacao_2_em = add_days(cad.comunicacao_1_em, gap)
    assert [notices_ok(c.comunicacao_1_em, c.comunicacao_2_em) for c in flawed] == [False, False, False, True]
    return cads


def clear_impediments(rng: random.Random, outorgas: list[Outorga], caducidades: list[Caducidade],
                      carriers: list[Carrier], scripted: Mapping[int, tuple[date, ...]]) -> None:
    """No random outorga starts while its carrier is barred (art. 29 § 6): such outorgas move to
    another carrier. ``scripted`` maps ``id(carrier)`` of the planted carriers to the start days of
    their scripted outorgas, which no caducidade may bar."""

    def may_take(carrier: Carrier, o: Outorga) -> bool:
        """A caducidade may not bar a planted carrier on a day its scripted outorgas start."""
        if o.motivo_extincao != "caducidade":
            return True
        return not any(barred_on(o.extinta_em, d) for d in scripted.get(id(carrier), ()))

    for _ in range(100):
        bars: dict[int, list[date]] = {}
        for cad in caducidades:
            bars.setdefault(id(cad.outorga.carrier), []).append(cad.data_declaracao)

        def barred(carrier: Carrier, day: date, bars=bars) -> bool:
            return any(barred_on(declared, day) for declared in bars.get(id(carrier), ()))

        moved = False
        for o in outorgas:
            if not o.planted and barred(o.carrier, o.inicio):
                candidates = [c for c in carriers if not barred(c, o.inicio) and may_take(c, o)]
                if not candidates:
                    raise ValueError("scale too small: every carrier is barred (art. 29 § 6)")
                o.carrier = rng.choice(candidates)
                moved = True
        if not moved:
            return
    raise RuntimeError("could not clear the impediments of art. 29 § 6")


def number_caducidades(rng: random.Random, caducidades: list[Caducidade], acts: ActNumbers) -> None:
    """Acts and process numbers, in order of declaration (after :func:`.outorgas.number_outorgas`)."""
    seqs: set[int] = set()
    for cad in sorted(caducidades, key=lambda c: (c.data_declaracao, c.outorga.id)):
        year = cad.data_declaracao.year
        kind = "Portaria DTR" if year <= 2001 else "Deliberação ANTT"
        cad.ato = f"{kind} nº {acts.next(kind, year)}/{year}"
        # The process is opened once the last notice's period has run (art. 29 § 3), before the act.
        opened = add_days(cad.comunicacao_2_em or cad.comunicacao_1_em, NOTICE_DAYS + 1)
        opened = min(opened, add_days(cad.data_declaracao, -10))
        seq = rng.randint(1, 99_999)
        while seq in seqs:
            seq = rng.randint(1, 99_999)
        seqs.add(seq)
        cad.processo = nup(50000 if opened.year <= 2001 else 50500, seq, opened.year)


def rows_caducidades(caducidades: list[Caducidade]) -> list[dict]:
    return [
        {"ato": c.ato, "outorga_id": c.outorga.id, "transportadora_cnpj": c.outorga.carrier.cnpj,
         "data_declaracao": c.data_declaracao, "fundamento": c.fundamento, "processo": c.processo,
         "comunicacao_1_em": c.comunicacao_1_em, "comunicacao_2_em": c.comunicacao_2_em,
         "documento_url": None}
        for c in sorted(caducidades, key=lambda c: (c.data_declaracao, c.ato))
    ]
