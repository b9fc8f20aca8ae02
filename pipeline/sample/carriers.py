"""Fictional carriers (transportadoras): names, valid CNPJs, seats and fleets."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date

from ..contract.identifiers import cnpj_check_digits
from .helpers import rand_date
from .places import MUNICIPIOS

_CARRIER_KINDS = (
    ("VIACAO", "LTDA"), ("EXPRESSO", "LTDA"), ("TRANSPORTES", "S.A."), ("EMPRESA DE ONIBUS", "LTDA"),
    ("AUTO VIACAO", "LTDA"), ("RAPIDO", "LTDA"), ("EMPRESA DE TRANSPORTES", "S.A."), ("TURISMO", "LTDA"),
)
_CARRIER_NAMES = (
    "SERRA AZUL", "CAMINHO DAS ARARAS", "VALE DO URUCUIA", "ESTRELA DO CERRADO", "RIO DAS GARCAS",
    "MATA VERDE", "VENTOS DO SUL", "SOL DO SERTAO", "TRILHA NOVA", "LUA CHEIA", "PONTE ALTA", "CANDEIA",
    "IPE AMARELO", "BURITI", "JATOBA", "GAIVOTA AZUL", "TUCANO", "ARARAUNA", "SERIEMA", "CARCARA",
    "ROTA DAS AGUAS", "BOA ESPERANCA", "PEDRA LISA", "CHAPADA VERDE", "AREIA BRANCA", "CORREDEIRA",
    "QUATRO VENTOS", "SETE LAGOAS DO NORTE", "CAMPOS GERAIS DO SUL", "FAROL DO NORTE", "BEIJA-FLOR",
    "PEQUI", "MANGABEIRA", "VEREDAS", "RIACHO FUNDO", "TRES FRONTEIRAS", "PLANICIE", "ALTO URUGUAI",
    "SERRA DO MAR", "LITORAL NORTE", "CACHOEIRA DOURADA", "PANTANEIRA", "CAATINGA", "AGRESTE",
    "BARRA FUNDA", "NOVA ROTA", "ESTRADA REAL", "MARE ALTA", "CRUZEIRO DO PLANALTO", "FLOR DO IPE",
)


@dataclass(eq=False)
class Carrier:
    cnpj: str
    razao_social: str
    nome_fantasia: str
    uf: str
    municipio: str
    fleet: list[tuple[str, int]] = field(default_factory=list)  # (old plate, Mercosul conversion ordinal)


def make_carriers(rng: random.Random, n: int) -> list[Carrier]:
    """``n`` carriers, seated in UFs in proportion to their size, each with a fleet of plates."""
    names = [(k, s, nm) for (k, s) in _CARRIER_KINDS for nm in _CARRIER_NAMES]
    if n > len(names):
        names += [(k, s, f"{nm} {i}") for i in range(2, 2 + n // len(names)) for (k, s, nm) in names]
    picked = rng.sample(names, n)
    ufs = sorted({p.uf for p in MUNICIPIOS})
    uf_weight = [sum(p.weight for p in MUNICIPIOS if p.uf == uf) for uf in ufs]
    roots: set[str] = set()
    carriers = []
    for kind, suffix, name in picked:
        root = f"{rng.randint(1, 99_999_999):08d}"
        while root in roots or len(set(root)) == 1:
            root = f"{rng.randint(1, 99_999_999):08d}"
        roots.add(root)
        base = root + "0001"
        uf = rng.choices(ufs, uf_weight)[0]
        seat = rng.choice([p for p in MUNICIPIOS if p.uf == uf])
        fleet = []
        for _ in range(rng.randint(8, 90)):
            plate = "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") for _ in range(3))
            plate += f"{rng.randint(0, 9999):04d}"
            conv = rand_date(rng, date(2019, 1, 1), date(2026, 6, 30)).toordinal() if rng.random() < 0.6 else 0
            fleet.append((plate, conv))
        carriers.append(Carrier(
            cnpj=base + cnpj_check_digits(base),
            razao_social=f"{kind} {name} {suffix}",
            nome_fantasia=name if rng.random() < 0.6 else "",
            uf=uf,
            municipio=seat.name,
            fleet=fleet,
        ))
    return carriers


def rows_transportadoras(carriers: list[Carrier]) -> list[dict]:
    return [
        {"cnpj": c.cnpj, "razao_social": c.razao_social, "nome_fantasia": c.nome_fantasia,
         "uf": c.uf, "municipio": c.municipio, "observacao": None}
        for c in sorted(carriers, key=lambda c: c.cnpj)
    ]
