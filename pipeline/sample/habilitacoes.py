"""Fictional licensed carriers (habilitacoes): a Termo de Autorização (TAR) per carrier, of the regime
that replaced Decreto nº 952/1993, with a validity that has passed for some of them."""

from __future__ import annotations

import random
from datetime import date, timedelta

from .carriers import Carrier

REGULAR_SHARE = 0.9  # carriers licensed for the regular service; a few only for the semi-urban one


def rows_habilitacoes(rng: random.Random, carriers: list[Carrier], as_of: date) -> list[dict]:
    """One habilitação per carrier (regular, with a TAR number; or semi-urban, without one, as the
    regulator's semi-urban file has none); about one in ten has a validity before ``as_of``."""
    rows = []
    for n, c in enumerate(sorted(carriers, key=lambda c: c.cnpj), 1):
        regular = rng.random() < REGULAR_SHARE
        year = rng.randint(2019, as_of.year)
        vigencia = as_of + timedelta(days=rng.randint(-365, 5 * 365) if rng.random() < 0.1 else rng.randint(30, 5 * 365))
        rows.append({"transportadora_cnpj": c.cnpj, "mercado": "regular" if regular else "semiurbano",
                     "numero_tar": f"{n:03d}/{year}" if regular else None, "vigencia": vigencia.isoformat(),
                     "situacao": None if regular else "Habilitada", "regime": None, "modalidade": None})
    return rows
