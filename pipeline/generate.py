"""Deterministic generator of a source data package: the bundled sample and benchmark data.

``generate(scale, seed, out)`` writes one CSV per resource of ``datasets/datapackage.json`` (columns
in the schema's order, source fields only) plus a byte-for-byte copy of that descriptor. Same scale
and seed give byte-identical files: every random draw comes from one ``random.Random(seed)``, dates
are computed relative to :data:`REFERENCE_DATE` (never the clock), and nothing iterates a set.

The data is fictional but shaped like the regulator's: real municipalities, old (``12-0140-00``)
and new (``RJSP0030026``) prefixes, fictional carriers with valid CNPJs, chains of permits per line
(pre-decree permits under art. 94, renewals, early extinctions with emergency authorisations under
art. 41), yearly fare adjustments, promotions, infraction notices and caducidade acts.

Random rows never trigger a finding of the data contract: promotions and infractions fall inside an
outorga of their carrier on their line, no outorga starts while its carrier is barred, and caducidade
notices are 20+ days apart. Each finding is then triggered by a few *planted* rows, and a few planted
rows sit just on the legal side of a boundary; :data:`PLANTED_FINDINGS` says how many rows each rule
must report. The planted scenarios, on three scripted lines and seven carriers A to G:

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
  with notices 16 days apart (none: the first notice's 15 days run through its 15th day).
"""

from __future__ import annotations

import bisect
import itertools
import math
import random
import shutil
from array import array
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

from . import SCHEMA_PATH
from .identifiers import cnpj_check_digits
from .legal import DECREE_PUBLICATION
from .legal.caducidades import impedimento_ate
from .legal.dates import add_months
from .legal.enquadramentos import rows as enquadramento_rows
from .legal.outorgas import vencimento
from .read.writer import write_table
from .schema import load_schema

DEFAULT_SEED = 952

# The sample's "today": data is laid out around it (the portal's sample build uses it as --as-of).
REFERENCE_DATE = date(2026, 11, 29)

SCALES: dict[str, dict[str, int]] = {
    "small": {
        "transportadoras": 12,
        "linhas": 40,
        "outorgas": 80,
        "tarifas": 600,
        "tarifas_promocionais": 60,
        "infracoes": 400,
        "caducidades": 6,
    },
    "national": {
        "transportadoras": 300,
        "linhas": 5_000,
        "outorgas": 10_000,
        "tarifas": 50_000,
        "tarifas_promocionais": 20_000,
        "infracoes": 500_000,
        "caducidades": 500,
    },
}

# How many rows each finding must report in any generated package (all of them planted).
PLANTED_FINDINGS: dict[str, int] = {
    "promocao-sem-antecedencia": 2,
    "promocao-acima-do-maximo": 2,
    "promocao-sem-outorga": 2,
    "outorga-durante-impedimento": 2,
    "caducidade-sem-comunicacoes": 3,
    "operacao-apos-vencimento": 2,
}

# The smallest counts that still hold every planted scenario.
MINIMUM_SCALE: dict[str, int] = {
    "transportadoras": 8,
    "linhas": 8,
    "outorgas": 30,
    "tarifas": 80,
    "tarifas_promocionais": 12,
    "infracoes": 6,
    "caducidades": 5,
}

# --------------------------------------------------------------------------------------------------
# Reference data
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Place:
    name: str  # upper case, no accents, as the regulator writes it
    uf: str  # a UF, or an ISO 3166-1 alpha-3 country code abroad
    lat: float
    lon: float
    weight: int = 1  # rough size: how many lines it attracts

    @property
    def abroad(self) -> bool:
        return len(self.uf) == 3


# Real municipalities (approximate coordinates), all 27 UFs. The DF entries below BRASILIA are
# administrative regions, which the regulator writes as municipalities.
MUNICIPIOS: tuple[Place, ...] = tuple(
    Place(*row)
    for row in (
        ("RIO BRANCO", "AC", -9.975, -67.810, 3),
        ("CRUZEIRO DO SUL", "AC", -7.631, -72.670, 1),
        ("MACEIO", "AL", -9.666, -35.735, 4),
        ("ARAPIRACA", "AL", -9.752, -36.661, 2),
        ("MANAUS", "AM", -3.119, -60.022, 5),
        ("HUMAITA", "AM", -7.506, -63.021, 1),
        ("MACAPA", "AP", 0.035, -51.070, 2),
        ("SANTANA", "AP", -0.058, -51.172, 1),
        ("SALVADOR", "BA", -12.971, -38.501, 6),
        ("FEIRA DE SANTANA", "BA", -12.266, -38.967, 3),
        ("VITORIA DA CONQUISTA", "BA", -14.866, -40.839, 3),
        ("JUAZEIRO", "BA", -9.416, -40.503, 2),
        ("BARREIRAS", "BA", -12.153, -44.990, 2),
        ("ILHEUS", "BA", -14.789, -39.049, 2),
        ("TEIXEIRA DE FREITAS", "BA", -17.535, -39.742, 2),
        ("FORTALEZA", "CE", -3.717, -38.543, 6),
        ("JUAZEIRO DO NORTE", "CE", -7.213, -39.315, 3),
        ("SOBRAL", "CE", -3.689, -40.349, 2),
        ("BRASILIA", "DF", -15.794, -47.882, 7),
        ("TAGUATINGA", "DF", -15.833, -48.056, 2),
        ("CEILANDIA", "DF", -15.817, -48.108, 2),
        ("GAMA", "DF", -16.019, -48.061, 1),
        ("SOBRADINHO", "DF", -15.652, -47.787, 1),
        ("VITORIA", "ES", -20.315, -40.312, 4),
        ("CACHOEIRO DE ITAPEMIRIM", "ES", -20.849, -41.113, 2),
        ("COLATINA", "ES", -19.539, -40.630, 1),
        ("BOM JESUS DO NORTE", "ES", -21.117, -41.679, 1),
        ("GOIANIA", "GO", -16.686, -49.264, 6),
        ("ANAPOLIS", "GO", -16.328, -48.953, 3),
        ("CALDAS NOVAS", "GO", -17.744, -48.625, 2),
        ("RIO VERDE", "GO", -17.798, -50.928, 2),
        ("AGUAS LINDAS DE GOIAS", "GO", -15.760, -48.282, 2),
        ("VALPARAISO DE GOIAS", "GO", -16.065, -47.976, 2),
        ("LUZIANIA", "GO", -16.253, -47.950, 2),
        ("FORMOSA", "GO", -15.537, -47.334, 1),
        ("NOVO GAMA", "GO", -16.059, -48.042, 1),
        ("SANTO ANTONIO DO DESCOBERTO", "GO", -15.941, -48.256, 1),
        ("CIDADE OCIDENTAL", "GO", -16.076, -47.925, 1),
        ("PLANALTINA", "GO", -15.452, -47.614, 1),
        ("ARAGARCAS", "GO", -15.897, -52.251, 1),
        ("SAO LUIS", "MA", -2.530, -44.303, 4),
        ("IMPERATRIZ", "MA", -5.526, -47.491, 3),
        ("TIMON", "MA", -5.094, -42.837, 2),
        ("BALSAS", "MA", -7.532, -46.036, 1),
        ("BELO HORIZONTE", "MG", -19.917, -43.935, 7),
        ("UBERLANDIA", "MG", -18.919, -48.277, 4),
        ("JUIZ DE FORA", "MG", -21.762, -43.350, 3),
        ("MONTES CLAROS", "MG", -16.735, -43.862, 3),
        ("UBERABA", "MG", -19.747, -47.932, 2),
        ("GOVERNADOR VALADARES", "MG", -18.851, -41.949, 2),
        ("ARAGUARI", "MG", -18.647, -48.187, 1),
        ("PARACATU", "MG", -17.222, -46.875, 1),
        ("TEOFILO OTONI", "MG", -17.859, -41.508, 1),
        ("POCOS DE CALDAS", "MG", -21.787, -46.561, 1),
        ("CAMPO GRANDE", "MS", -20.469, -54.620, 4),
        ("DOURADOS", "MS", -22.221, -54.806, 2),
        ("CORUMBA", "MS", -19.009, -57.651, 1),
        ("TRES LAGOAS", "MS", -20.751, -51.678, 2),
        ("PONTA PORA", "MS", -22.536, -55.726, 1),
        ("CUIABA", "MT", -15.601, -56.097, 4),
        ("RONDONOPOLIS", "MT", -16.470, -54.636, 2),
        ("SINOP", "MT", -11.864, -55.502, 2),
        ("BARRA DO GARCAS", "MT", -15.890, -52.257, 1),
        ("ALTA FLORESTA", "MT", -9.876, -56.086, 1),
        ("BELEM", "PA", -1.456, -48.490, 5),
        ("MARABA", "PA", -5.369, -49.117, 2),
        ("SANTAREM", "PA", -2.443, -54.708, 2),
        ("REDENCAO", "PA", -8.026, -50.031, 1),
        ("JOAO PESSOA", "PB", -7.115, -34.863, 4),
        ("CAMPINA GRANDE", "PB", -7.231, -35.881, 3),
        ("PATOS", "PB", -7.017, -37.275, 1),
        ("RECIFE", "PE", -8.047, -34.877, 6),
        ("CARUARU", "PE", -8.284, -35.970, 3),
        ("PETROLINA", "PE", -9.389, -40.503, 2),
        ("GARANHUNS", "PE", -8.890, -36.493, 1),
        ("TERESINA", "PI", -5.089, -42.802, 4),
        ("PARNAIBA", "PI", -2.905, -41.777, 2),
        ("PICOS", "PI", -7.077, -41.467, 1),
        ("FLORIANO", "PI", -6.767, -43.022, 1),
        ("CURITIBA", "PR", -25.429, -49.271, 6),
        ("LONDRINA", "PR", -23.310, -51.162, 3),
        ("MARINGA", "PR", -23.420, -51.933, 3),
        ("FOZ DO IGUACU", "PR", -25.547, -54.588, 2),
        ("CASCAVEL", "PR", -24.956, -53.455, 2),
        ("PONTA GROSSA", "PR", -25.095, -50.162, 2),
        ("UNIAO DA VITORIA", "PR", -26.228, -51.087, 1),
        ("RIO DE JANEIRO", "RJ", -22.907, -43.173, 8),
        ("NITEROI", "RJ", -22.883, -43.104, 3),
        ("CAMPOS DOS GOYTACAZES", "RJ", -21.752, -41.330, 2),
        ("VOLTA REDONDA", "RJ", -22.523, -44.104, 2),
        ("RESENDE", "RJ", -22.469, -44.447, 1),
        ("ANGRA DOS REIS", "RJ", -23.007, -44.318, 1),
        ("BOM JESUS DO ITABAPOANA", "RJ", -21.134, -41.680, 1),
        ("NATAL", "RN", -5.795, -35.209, 4),
        ("MOSSORO", "RN", -5.188, -37.344, 2),
        ("PORTO VELHO", "RO", -8.762, -63.904, 3),
        ("JI-PARANA", "RO", -10.878, -61.938, 2),
        ("VILHENA", "RO", -12.740, -60.146, 1),
        ("BOA VISTA", "RR", 2.820, -60.672, 2),
        ("CARACARAI", "RR", 1.816, -61.128, 1),
        ("PORTO ALEGRE", "RS", -30.035, -51.218, 6),
        ("CAXIAS DO SUL", "RS", -29.168, -51.179, 3),
        ("PELOTAS", "RS", -31.772, -52.343, 2),
        ("SANTA MARIA", "RS", -29.684, -53.807, 2),
        ("PASSO FUNDO", "RS", -28.262, -52.407, 2),
        ("URUGUAIANA", "RS", -29.755, -57.088, 1),
        ("SANTANA DO LIVRAMENTO", "RS", -30.891, -55.532, 1),
        ("FLORIANOPOLIS", "SC", -27.595, -48.548, 5),
        ("JOINVILLE", "SC", -26.304, -48.846, 3),
        ("BLUMENAU", "SC", -26.919, -49.066, 2),
        ("CHAPECO", "SC", -27.101, -52.615, 2),
        ("LAGES", "SC", -27.816, -50.326, 1),
        ("PORTO UNIAO", "SC", -26.238, -51.078, 1),
        ("ARACAJU", "SE", -10.947, -37.073, 4),
        ("ITABAIANA", "SE", -10.685, -37.425, 1),
        ("SAO PAULO", "SP", -23.550, -46.633, 10),
        ("CAMPINAS", "SP", -22.906, -47.061, 5),
        ("RIBEIRAO PRETO", "SP", -21.178, -47.810, 3),
        ("SAO JOSE DO RIO PRETO", "SP", -20.820, -49.379, 3),
        ("SANTOS", "SP", -23.961, -46.333, 3),
        ("SOROCABA", "SP", -23.502, -47.458, 2),
        ("SAO JOSE DOS CAMPOS", "SP", -23.179, -45.887, 2),
        ("PRESIDENTE PRUDENTE", "SP", -22.126, -51.389, 2),
        ("FRANCA", "SP", -20.539, -47.401, 1),
        ("ANDRADINA", "SP", -20.896, -51.379, 1),
        ("PALMAS", "TO", -10.184, -48.334, 3),
        ("ARAGUAINA", "TO", -7.191, -48.207, 2),
        ("GURUPI", "TO", -11.729, -49.068, 1),
    )
)

# Foreign ends of international lines (uf = ISO 3166-1 alpha-3 country code).
ESTRANGEIROS: tuple[Place, ...] = tuple(
    Place(*row)
    for row in (
        ("CIUDAD DEL ESTE", "PRY", -25.509, -54.611),
        ("ASUNCION", "PRY", -25.264, -57.576),
        ("PEDRO JUAN CABALLERO", "PRY", -22.547, -55.733),
        ("SANTA CRUZ DE LA SIERRA", "BOL", -17.784, -63.182),
        ("BUENOS AIRES", "ARG", -34.604, -58.382),
        ("PASO DE LOS LIBRES", "ARG", -29.713, -57.087),
        ("MONTEVIDEO", "URY", -34.901, -56.165),
        ("RIVERA", "URY", -30.905, -55.551),
        ("SANTIAGO", "CHL", -33.449, -70.669),
        ("SANTA ELENA DE UAIREN", "VEN", 4.601, -61.110),
    )
)
# ISO 3166-1 alpha-2, used in new-form prefixes of international lines (``PRPY0010001``).
_ALPHA2 = {"PRY": "PY", "BOL": "BO", "ARG": "AR", "URY": "UY", "CHL": "CL", "VEN": "VE"}
_FOREIGN_ROADS = {
    "PRY": "RUTA PY02", "BOL": "RUTA 4", "ARG": "RUTA 14", "URY": "RUTA 5", "CHL": "RUTA 7",
    "VEN": "TRONCAL 10",
}

INTERNACIONAIS: tuple[tuple[str, str], ...] = (
    ("FOZ DO IGUACU", "CIUDAD DEL ESTE"),
    ("CORUMBA", "SANTA CRUZ DE LA SIERRA"),
    ("URUGUAIANA", "PASO DE LOS LIBRES"),
    ("SANTANA DO LIVRAMENTO", "RIVERA"),
    ("PONTA PORA", "PEDRO JUAN CABALLERO"),
    ("PORTO ALEGRE", "MONTEVIDEO"),
    ("PORTO ALEGRE", "BUENOS AIRES"),
    ("SAO PAULO", "ASUNCION"),
    ("SAO PAULO", "BUENOS AIRES"),
    ("SAO PAULO", "SANTIAGO"),
    ("CURITIBA", "ASUNCION"),
    ("CAMPO GRANDE", "ASUNCION"),
    ("FLORIANOPOLIS", "BUENOS AIRES"),
    ("RIO DE JANEIRO", "BUENOS AIRES"),
    ("BOA VISTA", "SANTA ELENA DE UAIREN"),
)

# Neighbouring cities across a UF border (art. 3 XI): the semiurbano lines.
_ENTORNO_DF = (
    "AGUAS LINDAS DE GOIAS", "VALPARAISO DE GOIAS", "LUZIANIA", "FORMOSA", "NOVO GAMA",
    "SANTO ANTONIO DO DESCOBERTO", "CIDADE OCIDENTAL", "PLANALTINA",
)
SEMIURBANOS: tuple[tuple[str, str], ...] = tuple(
    (df, go) for df in ("BRASILIA", "TAGUATINGA", "CEILANDIA", "GAMA", "SOBRADINHO") for go in _ENTORNO_DF
) + (
    ("PETROLINA", "JUAZEIRO"),
    ("TERESINA", "TIMON"),
    ("UNIAO DA VITORIA", "PORTO UNIAO"),
    ("BARRA DO GARCAS", "ARAGARCAS"),
    ("BOM JESUS DO ITABAPOANA", "BOM JESUS DO NORTE"),
    ("ANDRADINA", "TRES LAGOAS"),
)

# Main federal highways crossing each UF, for itineraries (art. 3 XVIII) and infraction places.
RODOVIAS: dict[str, tuple[str, ...]] = {
    "AC": ("BR-364", "BR-317"), "AL": ("BR-101", "BR-316", "BR-104"), "AM": ("BR-174", "BR-319"),
    "AP": ("BR-156",), "BA": ("BR-116", "BR-101", "BR-242", "BR-324", "BR-407", "BR-020"),
    "CE": ("BR-116", "BR-222", "BR-020", "BR-304"),
    "DF": ("BR-040", "BR-060", "BR-020", "BR-070", "BR-251", "BR-450"),
    "ES": ("BR-101", "BR-262", "BR-259"),
    "GO": ("BR-060", "BR-153", "BR-050", "BR-040", "BR-364", "BR-070", "BR-020", "BR-414"),
    "MA": ("BR-135", "BR-010", "BR-222", "BR-316", "BR-230"),
    "MG": ("BR-040", "BR-381", "BR-116", "BR-262", "BR-050", "BR-365", "BR-251", "BR-135"),
    "MS": ("BR-163", "BR-262", "BR-060", "BR-267", "BR-463"), "MT": ("BR-163", "BR-364", "BR-070", "BR-158"),
    "PA": ("BR-316", "BR-010", "BR-230", "BR-155", "BR-163"), "PB": ("BR-230", "BR-101", "BR-104"),
    "PE": ("BR-232", "BR-101", "BR-116", "BR-428", "BR-407"), "PI": ("BR-316", "BR-343", "BR-230", "BR-135"),
    "PR": ("BR-116", "BR-277", "BR-376", "BR-369", "BR-153", "BR-476"),
    "RJ": ("BR-116", "BR-101", "BR-040", "BR-393", "BR-356"), "RN": ("BR-101", "BR-304", "BR-226"),
    "RO": ("BR-364", "BR-319", "BR-425"), "RR": ("BR-174", "BR-401"),
    "RS": ("BR-116", "BR-101", "BR-290", "BR-386", "BR-285", "BR-158", "BR-392"),
    "SC": ("BR-101", "BR-282", "BR-470", "BR-153", "BR-116"), "SE": ("BR-101", "BR-235"),
    "SP": ("BR-116", "BR-381", "BR-050", "BR-153", "BR-374", "BR-101"),
    "TO": ("BR-153", "BR-010", "BR-226", "BR-242"),
}

# First two digits of old-form prefixes: the DNER district of the origin UF.
_DNER = {
    "AM": 1, "RR": 1, "PA": 2, "AP": 2, "CE": 3, "PE": 4, "BA": 5, "MG": 6, "RJ": 7, "SP": 8, "PR": 9,
    "RS": 10, "MT": 11, "GO": 12, "DF": 12, "PB": 13, "RN": 14, "MA": 15, "SC": 16, "ES": 17, "PI": 18,
    "MS": 19, "AL": 20, "SE": 21, "RO": 22, "AC": 22, "TO": 23,
}
_VARIANTS = ("00", "61", "41", "31", "60", "51", "20", "70", "30", "91") + tuple(f"{n:02d}" for n in range(1, 20))

# Categories in increasing order of fare, with their multiplier over convencional_com_sanitario.
CATEGORIAS: dict[str, Decimal] = {
    "semiurbano": Decimal("0.85"),
    "convencional_sem_sanitario": Decimal("0.92"),
    "convencional_com_sanitario": Decimal("1.00"),
    "executivo": Decimal("1.30"),
    "semileito": Decimal("1.50"),
    "leito_sem_ar": Decimal("1.75"),
    "leito_com_ar": Decimal("2.00"),
    "cama": Decimal("2.40"),
}
_ROAD_CATEGORIES = tuple(c for c in CATEGORIAS if c != "semiurbano")

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
# A revision already published but not yet in force on REFERENCE_DATE (art. 24 § 2).
FUTURE_REVISION = (date(2027, 1, 10), Decimal("6.50"), "Resolução nº 6.094/2026")

# Fine per art. 78 group (R$): before and after the 2019-07-01 update (art. 79).
_MULTAS = {
    "I": ("1250.00", "1640.00"), "II": ("2500.00", "3280.00"), "III": ("3750.00", "4920.00"),
    "IV": ("5000.00", "6560.00"), "V": ("6250.00", "8200.00"), "VI": ("7500.00", "9840.00"),
}
_GROUP_WEIGHT = {"I": 1.0, "II": 0.8, "III": 0.6, "IV": 1.6, "V": 1.0, "VI": 1.2}
_PLANTED_OUTORGAS = 10
_PENALIDADES = ("multa", "retencao", "apreensao", "inidoneidade")  # art. 74
_INFRACTIONS_FROM = date(2014, 1, 1)
_EXTINCTIONS_FROM = date(1994, 7, 1)
_PROMOTIONS_FROM = date(2019, 1, 1)

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

# --------------------------------------------------------------------------------------------------
# Helpers (the legal date rules come from pipeline.legal, so random rows stay clear of every finding)
# --------------------------------------------------------------------------------------------------


def _days(d: date, n: int) -> date:
    return d + timedelta(days=n)


def _rand_date(rng: random.Random, first: date, last: date) -> date:
    return date.fromordinal(rng.randint(first.toordinal(), last.toordinal()))


def _money(value: Decimal) -> Decimal:
    return value.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def _haversine_km(a: Place, b: Place) -> float:
    p1, p2 = math.radians(a.lat), math.radians(b.lat)
    dp, dl = p2 - p1, math.radians(b.lon - a.lon)
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * 6371.0 * math.asin(math.sqrt(h))


def _road_km(a: Place, b: Place) -> float:
    return _haversine_km(a, b) * 1.25


def _resolution_number(day: date) -> int:
    """A plausible number for a resolution of ``day``: about 45 a year around the adjustments' ones."""
    for adjusted, _, ato in REAJUSTES:
        if adjusted.year == day.year:
            number = int(ato.split("nº ")[1].split("/")[0].replace(".", ""))
            return number + (day - adjusted).days * 45 // 365 + (1 if day >= adjusted else -1)
    raise ValueError(f"no adjustment in {day.year}")


def _nup(unit: int, seq: int, year: int) -> str:
    """A process number in the federal NUP layout (``50500.012345/2019-11``) with its check digits."""
    digits = f"{unit:05d}{seq:06d}{year:04d}"
    for _ in range(2):
        total = sum(int(c) * w for c, w in zip(reversed(digits), itertools.count(2)))
        digits += str((11 - total % 11) % 10)
    return f"{unit:05d}.{seq:06d}/{year}-{digits[-2:]}"


# --------------------------------------------------------------------------------------------------
# Entities
# --------------------------------------------------------------------------------------------------


@dataclass(eq=False)
class Carrier:
    cnpj: str
    razao_social: str
    nome_fantasia: str
    uf: str
    municipio: str
    fleet: list[tuple[str, int]] = field(default_factory=list)  # (old plate, Mercosul conversion ordinal)


@dataclass(eq=False)
class Line:
    origem: Place
    destino: Place
    ambito: str
    itinerario: str
    extensao_km: float
    prefixo: str = ""
    opened: date | None = None
    sections: list[tuple[Place, Place]] | None = None  # computed lazily

    @property
    def brazilian_ends(self) -> list[Place]:
        return [p for p in (self.origem, self.destino) if not p.abroad]


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

    def extinguish(self, day: date, motivo: str) -> None:
        """Extinct on ``day`` (art. 28); a permit extinct within its first term was never renewed."""
        self.extinta_em, self.motivo_extincao = day, motivo
        if self.prorrogada and motivo != "advento_termo":
            base = max(self.inicio, DECREE_PUBLICATION)
            self.prorrogada = day > add_months(base, 180)

    @property
    def last_day(self) -> date:
        """Last day the outorga is in force."""
        ends = [d for d in (self.vencimento, self.extinta_em and _days(self.extinta_em, -1)) if d]
        return min(ends) if ends else date.max


@dataclass(eq=False)
class Caducidade:
    outorga: Outorga
    data_declaracao: date
    fundamento: str
    comunicacao_1_em: date | None
    comunicacao_2_em: date | None
    ato: str = ""
    processo: str = ""

    @property
    def impedimento_ate(self) -> date:
        return impedimento_ate(self.data_declaracao)


@dataclass(eq=False)
class FareKey:
    linha: Line
    origem: str
    destino: str
    categoria: str
    rows: list[tuple[date, Decimal, str, str]]  # (vigencia_inicio, valor, motivo, ato)

    def in_force(self, day: date) -> int | None:
        """Index of the row in force on ``day``, or None before the first one."""
        i = bisect.bisect_right([r[0] for r in self.rows], day) - 1
        return i if i >= 0 else None


@dataclass(eq=False)
class Promotion:
    carrier: Carrier
    key: FareKey
    valor: Decimal
    comunicado_em: date
    inicio: date
    fim: date


# --------------------------------------------------------------------------------------------------
# The generator
# --------------------------------------------------------------------------------------------------


def generate(scale: str | Mapping[str, int], seed: int, out: Path) -> dict[str, int]:
    """Write a source data package for ``scale`` (a name of :data:`SCALES` or a dict of counts).

    Returns the number of rows written per table. Same ``scale`` and ``seed`` give identical bytes.
    """
    counts = _resolve_scale(scale)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    schema = load_schema()
    gen = _Generator(random.Random(seed), counts)
    tables: dict[str, Iterable[dict]] = {
        "transportadoras": gen.rows_transportadoras(),
        "linhas": gen.rows_linhas(),
        "outorgas": gen.rows_outorgas(),
        "tarifas": gen.rows_tarifas(),
        "tarifas_promocionais": gen.rows_tarifas_promocionais(),
        "caducidades": gen.rows_caducidades(),
        "infracoes": gen.rows_infracoes(),
        "enquadramentos": enquadramento_rows(),
        # Its own random stream, so that adding the timetable left every other table as it was.
        "horarios": gen.rows_horarios(random.Random(seed * 1_000_003 + 20)),
        "secoes": gen.rows_secoes(),
    }
    missing = [name for name in schema.tables if name not in tables]
    if missing:
        raise KeyError(f"the generator does not know the tables {missing}")
    # Written in this module's order (some tables draw numbers as they are written), so that the
    # output does not depend on the order of resources in the descriptor.
    written = {}
    for name, rows in tables.items():
        table = schema[name]
        written[name] = write_table(out / table.filename, table.field_names, rows)
    target = out / "datapackage.json"
    if not (target.exists() and target.samefile(SCHEMA_PATH)):
        shutil.copyfile(SCHEMA_PATH, target)
    return written


def _resolve_scale(scale: str | Mapping[str, int]) -> dict[str, int]:
    counts = dict(SCALES[scale]) if isinstance(scale, str) else dict(scale)
    missing = [k for k in MINIMUM_SCALE if k not in counts]
    if missing:
        raise ValueError(f"scale lacks counts for {', '.join(missing)}")
    small = [f"{k} >= {v}" for k, v in MINIMUM_SCALE.items() if counts[k] < v]
    if small:
        raise ValueError(f"scale too small for the planted scenarios: needs {', '.join(small)}")
    if counts["outorgas"] < counts["linhas"] + 20:
        raise ValueError("scale needs at least linhas + 20 outorgas (every line has one)")
    return counts


class _Generator:
    """Builds every table in memory except infracoes, which is streamed."""

    def __init__(self, rng: random.Random, counts: Mapping[str, int]):
        self.rng = rng
        self.counts = counts
        self.as_of = REFERENCE_DATE
        self.places = {p.name: p for p in MUNICIPIOS + ESTRANGEIROS}
        self.carriers = self._make_carriers(counts["transportadoras"])
        self.lines, self.scenario = self._make_lines(counts["linhas"])
        self.outorgas: list[Outorga] = []
        self.caducidades: list[Caducidade] = []
        self._make_outorgas(counts["outorgas"], counts["caducidades"])
        self._assign_prefixes()
        self._number_outorgas()
        self.keys = self._make_fares(counts["tarifas"])
        self.promotions = self._make_promotions(counts["tarifas_promocionais"])

    # ---- carriers ---------------------------------------------------------------------------------

    def _make_carriers(self, n: int) -> list[Carrier]:
        rng = self.rng
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
                conv = _rand_date(rng, date(2019, 1, 1), date(2026, 6, 30)).toordinal() if rng.random() < 0.6 else 0
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

    # ---- lines ------------------------------------------------------------------------------------

    def _line(self, a: Place, b: Place, ambito: str) -> Line:
        rng = self.rng
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
            roads.append(_FOREIGN_ROADS[(a if a.abroad else b).uf])
        return Line(a, b, ambito, ", ".join(roads), round(_road_km(a, b), 1))

    def _make_lines(self, n: int) -> tuple[list[Line], dict[str, Line]]:
        rng, places = self.rng, self.places
        # Scripted lines of the planted scenarios (their outorgas are written by hand below).
        scenario = {
            "caducidade": self._line(places["IMPERATRIZ"], places["PALMAS"], "interestadual"),
            "desistencia": self._line(places["CAMPO GRANDE"], places["CUIABA"], "interestadual"),
            "art94": self._line(places["BELO HORIZONTE"], places["VITORIA"], "interestadual"),
        }
        lines = list(scenario.values())
        n_random = n - len(lines)
        n_semi = max(1, round(n_random * 0.08))
        n_intl = max(1, round(n_random * 0.03))
        n_inter = n_random - n_semi - n_intl

        brazil = [p for p in MUNICIPIOS if p.uf != "AP"]
        pairs, weights = [], []
        semi = {tuple(sorted(p)) for p in SEMIURBANOS}
        for i, a in enumerate(brazil):
            for b in brazil[i + 1:]:
                if a.uf == b.uf or not _connected(a.uf, b.uf) or tuple(sorted((a.name, b.name))) in semi:
                    continue
                dist = _haversine_km(a, b)
                if 75 <= dist <= 2_600:  # gravity: big cities, mostly within a day's ride
                    pairs.append((a, b))
                    weights.append(a.weight * b.weight / (1 + (dist / 450) ** 3))
        cum = list(itertools.accumulate(weights))
        for _ in range(n_inter):
            a, b = rng.choices(pairs, cum_weights=cum)[0]
            if rng.random() < 0.5:
                a, b = b, a
            lines.append(self._line(a, b, "interestadual"))
        neighbours = [pair for pair in SEMIURBANOS if _haversine_km(places[pair[0]], places[pair[1]]) <= 70]
        for _ in range(n_semi):
            a, b = (places[x] for x in rng.choice(neighbours))
            if rng.random() < 0.5:
                a, b = b, a
            lines.append(self._line(a, b, "semiurbano"))
        for _ in range(n_intl):
            a, b = (places[x] for x in rng.choice(INTERNACIONAIS))
            lines.append(self._line(a, b, "internacional"))
        return lines, scenario

    def _assign_prefixes(self) -> None:
        """Old form ``NN-NNNN-NN`` for lines opened before 2015, new form ``UFUF`` + 7 digits after."""
        rng = self.rng
        ordered = sorted(self.lines, key=lambda ln: ln.opened)
        new_form = {id(ln) for ln in self.lines if ln.opened >= date(2015, 1, 1)}
        if not new_form:
            new_form.add(id(ordered[-1]))
        if len(new_form) == len(self.lines):
            new_form.discard(id(ordered[0]))
        next_middle = {code: rng.randint(10, 300) for code in sorted(set(_DNER.values()))}
        old_pairs: dict[tuple, list] = {}
        new_groups: dict[tuple[str, str], int] = {}
        for line in self.lines:
            o, d = line.origem, line.destino
            if id(line) in new_form:
                a = o.uf if not o.abroad else _ALPHA2[o.uf]
                b = d.uf if not d.abroad else _ALPHA2[d.uf]
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

    # ---- outorgas ---------------------------------------------------------------------------------

    def _carrier_for(self, line: Line, exclude: Carrier | None = None) -> Carrier:
        rng = self.rng
        local = [c for c in self.carriers if c.uf in (line.origem.uf, line.destino.uf) and c is not exclude]
        if local and rng.random() < 0.65:
            return rng.choice(local)
        while True:
            c = rng.choice(self.carriers)
            if c is not exclude:
                return c

    def _chain(self, line: Line, k: int) -> list[Outorga]:
        """``k`` successive outorgas on ``line`` (fewer when time runs out before the reference date)."""
        rng, as_of = self.rng, self.as_of
        mod = "semiurbano" if line.ambito == "semiurbano" else "regular"
        if k == 1:
            cursor = _rand_date(rng, date(1978, 1, 1), date(2025, 6, 30))
        elif k == 2:
            cursor = _rand_date(rng, date(1976, 1, 1), date(2006, 12, 31))
        else:
            cursor = _rand_date(rng, date(1975, 1, 1), date(1992, 12, 31))
        chain: list[Outorga] = []
        carrier = self._carrier_for(line)
        for j in range(k):
            last = j == k - 1
            if cursor > _days(as_of, -60):
                break
            prev = chain[-1] if chain else None
            if prev is not None:
                if prev.motivo_extincao not in (None, "advento_termo") or rng.random() < 0.4:
                    carrier = self._carrier_for(line, exclude=prev.carrier)
            emergency = (
                prev is not None and prev.modalidade != "emergencial"
                and prev.motivo_extincao in ("caducidade", "anulacao", "falencia") and rng.random() < 0.6
            )
            if emergency:  # art. 41: 180 days, another permit holder, no bidding
                o = Outorga("autorizacao", "emergencial", carrier, line, cursor)
                o.fim = o.vencimento if rng.random() < 0.7 else None
                chain.append(o)
                cursor = _days(o.vencimento, 1 + (0 if rng.random() < 0.5 else rng.randint(1, 90)))
                continue
            o = Outorga("permissao", mod, carrier, line, cursor)
            base = max(cursor, DECREE_PUBLICATION)
            o.prorrogada = add_months(base, 180) <= _days(as_of, 365) and rng.random() < 0.45
            chain.append(o)
            venc = o.vencimento
            room = _days(as_of, -400 * (k - 1 - j)) if not last else as_of
            can_end = _days(venc, 1) <= room
            # Early extinctions follow art. 28, so none before the decree had been in force for a while.
            earliest_break = max(_days(cursor, 366), _EXTINCTIONS_FROM)
            can_break = earliest_break < min(venc, room)
            if not last:
                if can_end and (rng.random() < 0.5 or not can_break):
                    o.extinta_em, o.motivo_extincao = _days(venc, 1), "advento_termo"
                elif can_break:
                    o.extinguish(_rand_date(rng, earliest_break, min(venc, room)), rng.choices(
                        ("caducidade", "rescisao", "desistencia", "anulacao", "falencia"), (30, 20, 25, 10, 15))[0])
                else:
                    break
                gap = 0 if o.motivo_extincao == "advento_termo" and rng.random() < 0.8 else rng.randint(0, 60)
                cursor = _days(o.extinta_em, gap)
            elif venc < as_of:
                if rng.random() < 0.5:
                    o.extinta_em, o.motivo_extincao = _days(venc, 1), "advento_termo"
            elif earliest_break < _days(as_of, -30) and rng.random() < 0.06:
                o.extinguish(_rand_date(rng, earliest_break, _days(as_of, -30)),
                             rng.choice(("desistencia", "rescisao", "falencia")))
        return chain

    def _make_outorgas(self, n: int, n_cad: int) -> None:
        rng = self.rng
        random_lines = [ln for ln in self.lines if ln not in self.scenario.values()]
        n_planted = _PLANTED_OUTORGAS
        intl = [ln for ln in random_lines if ln.ambito == "internacional"]
        n_temp = max(1, n // 100) if intl else 0
        n_fret = max(1, n // 10)
        extra = n - n_planted - n_temp - n_fret - len(random_lines)
        chains: list[list[int]] = [[1] for _ in random_lines]
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
        for line, ks in zip(random_lines, chains):
            for k in ks:
                chain = self._chain(line, k)
                outorgas.extend(chain)
                line.opened = min(chain[0].inicio, line.opened or date.max)
        for _ in range(n_temp):  # art. 40: seasonal international service, permit holders only
            line = rng.choice(intl)
            year = rng.randint(2014, 2025)
            o = Outorga("autorizacao", "temporada_turistica", rng.choice(self.carriers), line,
                        date(year, 12, rng.choice((1, 10, 15))))
            o.fim = date(year + 1, rng.choice((2, 3)), rng.choice((15, 28)))
            outorgas.append(o)
        n_fret = n - n_planted - len(outorgas)
        for _ in range(n_fret):  # art. 8 II c/d: chartered service, no line
            o = Outorga("autorizacao", "fretamento", rng.choice(self.carriers), None,
                        _rand_date(rng, date(2012, 1, 1), _days(self.as_of, -20)))
            o.fim = _days(add_months(o.inicio, 12 * rng.choice((1, 2, 3))), -1)
            if rng.random() < 0.06:
                o.extinta_em = _rand_date(rng, _days(o.inicio, 30), min(o.fim, _days(self.as_of, -1)))
                o.motivo_extincao = rng.choice(("desistencia", "anulacao"))
            outorgas.append(o)
        self.outorgas = outorgas
        self._adjust_extinctions(n_cad - 1)
        self._plant_outorgas()
        self._make_caducidades()
        self._clear_impediments()

    def _adjust_extinctions(self, n_cad: int) -> None:
        """Exactly ``n_cad`` random permits end by caducidade; every motive of art. 28 appears."""
        rng = self.rng
        early = [o for o in self.outorgas if o.instrumento == "permissao" and o.motivo_extincao
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
            open_ = [o for o in self.outorgas if o.instrumento == "permissao" and o.extinta_em is None
                     and o.inicio < _days(self.as_of, -800) and o.vencimento > _days(self.as_of, -400)]
            if missing > len(open_):
                raise ValueError("scale too small: not enough permits to declare caducidades")
            for o in rng.sample(open_, missing):
                first = max(_days(o.inicio, 400), _EXTINCTIONS_FROM)
                o.extinguish(_rand_date(rng, first, min(o.vencimento, _days(self.as_of, -30))),
                             "caducidade")
        for motivo in ("rescisao", "anulacao", "falencia"):
            tally = {m: sum(o.motivo_extincao == m for o in early) for m in ("rescisao", "desistencia",
                                                                              "anulacao", "falencia")}
            if tally[motivo]:
                continue
            donors = [o for o in early if o.motivo_extincao in tally and tally[o.motivo_extincao] > 1]
            if donors:
                rng.choice(donors).motivo_extincao = motivo

    # Start dates of each planted carrier's scripted outorgas: none may fall in a bar of its own.
    _ROLES: dict[str, tuple[date, ...]] = {
        "A": (date(2011, 3, 14), date(2025, 1, 20), date(2026, 3, 1), date(2026, 3, 2)),
        "B": (date(2024, 3, 1),),
        "C": (date(2025, 2, 10),),
        "D": (date(2009, 6, 15),),
        "E": (date(1987, 5, 4), date(2023, 10, 9)),
        "F": (date(2023, 8, 1),),
        "G": (),
    }

    def _pick_planted_carriers(self) -> dict[str, Carrier]:
        bars: dict[int, list[tuple[date, date]]] = {}
        for o in self.outorgas:
            if o.motivo_extincao == "caducidade":
                bars.setdefault(id(o.carrier), []).append((o.extinta_em, impedimento_ate(o.extinta_em)))
        chosen: dict[str, Carrier] = {}
        pool = self.rng.sample(self.carriers, len(self.carriers))
        for role, days in self._ROLES.items():
            for c in pool:
                if c not in chosen.values() and not any(
                        s <= d <= e for s, e in bars.get(id(c), ()) for d in days):
                    chosen[role] = c
                    break
            else:
                raise ValueError("scale too small: no carrier free for the planted scenarios")
        return chosen

    def _plant_outorgas(self) -> None:
        """The scripted outorgas of the planted scenarios (module docstring)."""
        sc = self.scenario
        self.planted = p = self._pick_planted_carriers()
        a, b, c, d, e, f = (p[r] for r in "ABCDEF")
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
        fret = [Outorga("autorizacao", "fretamento", a, None, start, fim=_days(add_months(start, 12), -1),
                        planted=True)
                for start in (date(2025, 1, 20), date(2026, 3, 1), date(2026, 3, 2))]
        scripted = [o_a, o_b, o_c, o_d, o_f, o_e1, o_e2, *fret]
        assert len(scripted) == _PLANTED_OUTORGAS
        self.outorgas += scripted
        sc["caducidade"].opened = o_a.inicio
        sc["desistencia"].opened = o_d.inicio
        sc["art94"].opened = o_e1.inicio

    def _make_caducidades(self) -> None:
        rng = self.rng
        fundamentos = [f"29-1-{r}" for r in ("I", "II", "III", "IV", "V", "VI", "VII")]
        cads = []
        for o in self.outorgas:
            if o.motivo_extincao != "caducidade":
                continue
            c1 = _days(o.extinta_em, -rng.randint(150, 420))
            if o.planted:
                c1 = date(2023, 9, 11)
            cads.append(Caducidade(o, o.extinta_em, rng.choices(fundamentos, (3, 4, 3, 2, 3, 2, 1))[0],
                                   c1, _days(c1, rng.randint(20, 60))))
        # Art. 29 § 3 on its edges: no second notice, 10 and 15 days apart (findings), 16 days (none):
        # the first notice's 15 days run through c1 + 15 (art. 96), so the second is due from c1 + 16.
        flawed = rng.sample([c for c in cads if not c.outorga.planted], 4)
        flawed[0].comunicacao_2_em = None
        for cad, gap in zip(flawed[1:], (10, 15, 16)):
            cad.comunicacao_2_em = _days(cad.comunicacao_1_em, gap)
        self.caducidades = cads

    def _clear_impediments(self) -> None:
        """No random outorga starts while its carrier is barred (art. 29 § 6)."""
        rng = self.rng
        scripted = {id(c): self._ROLES[role] for role, c in self.planted.items()}

        def may_take(carrier: Carrier, o: Outorga) -> bool:
            """A caducidade may not bar a planted carrier on a day its scripted outorgas start."""
            if o.motivo_extincao != "caducidade":
                return True
            end = impedimento_ate(o.extinta_em)
            return not any(o.extinta_em <= d <= end for d in scripted.get(id(carrier), ()))

        for _ in range(100):
            bars: dict[int, list[tuple[date, date]]] = {}
            for cad in self.caducidades:
                bars.setdefault(id(cad.outorga.carrier), []).append((cad.data_declaracao, cad.impedimento_ate))

            def barred(carrier: Carrier, day: date, bars=bars) -> bool:
                return any(s <= day <= e for s, e in bars.get(id(carrier), ()))

            moved = False
            for o in self.outorgas:
                if not o.planted and barred(o.carrier, o.inicio):
                    candidates = [c for c in self.carriers if not barred(c, o.inicio) and may_take(c, o)]
                    if not candidates:
                        raise ValueError("scale too small: every carrier is barred (art. 29 § 6)")
                    o.carrier = rng.choice(candidates)
                    moved = True
            if not moved:
                return
        raise RuntimeError("could not clear the impediments of art. 29 § 6")

    def _number_outorgas(self) -> None:
        """Chronological ids (``OUT-000123``) and acts; caducidade acts and process numbers."""
        rng = self.rng
        ordered = sorted(enumerate(self.outorgas), key=lambda t: (t[1].inicio, t[0]))
        counters: dict[tuple[str, int], int] = {}

        def number(kind: str, year: int) -> int:
            if (kind, year) not in counters:
                counters[(kind, year)] = rng.randint(1, 30)
            counters[(kind, year)] += rng.randint(1, 6)
            return counters[(kind, year)]

        for i, (_, o) in enumerate(ordered, start=1):
            o.id = f"OUT-{i:06d}"
            if o.instrumento == "permissao":
                # Pre-decree permits were adapted by contract in 1994 (art. 94 sole paragraph).
                year = 1994 if o.inicio < DECREE_PUBLICATION else o.inicio.year
                o.ato = f"Contrato de adesão nº {number('contrato', year)}/{year}"
            else:  # art. 9 sole paragraph
                o.ato = f"Termo de obrigações nº {number('termo', o.inicio.year)}/{o.inicio.year}"
        self.outorgas = [o for _, o in ordered]
        seqs: set[int] = set()
        for cad in sorted(self.caducidades, key=lambda c: (c.data_declaracao, c.outorga.id)):
            year = cad.data_declaracao.year
            kind = "Portaria DTR" if year <= 2001 else "Deliberação ANTT"
            cad.ato = f"{kind} nº {number(kind, year)}/{year}"
            opened = _days(cad.comunicacao_2_em or cad.comunicacao_1_em, 16)
            opened = min(opened, _days(cad.data_declaracao, -10))
            seq = rng.randint(1, 99_999)
            while seq in seqs:
                seq = rng.randint(1, 99_999)
            seqs.add(seq)
            cad.processo = _nup(50000 if opened.year <= 2001 else 50500, seq, opened.year)

    # ---- fares ------------------------------------------------------------------------------------

    def _schedule(self, line: Line, permits: list[Outorga], future: bool) -> list[tuple[date, str, Decimal, str]]:
        """The line's fare events: (date, motivo, factor, ato); the first one sets the base fare."""
        rng = self.rng
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
            day = _rand_date(rng, date(2020, 1, 1), date(2025, 12, 31))
            if day > line.opened and day not in events:
                pct = Decimal(rng.randint(-30, 70)) / 10
                number = _resolution_number(day)
                events[day] = ("revisao", 1 + pct / 100, f"Resolução nº {number:,}/{day.year}")
        if future:
            day, pct, ato = FUTURE_REVISION
            events[day] = ("revisao", 1 + pct / 100, ato)
        sched = sorted((d, m, f, a) for d, (m, f, a) in events.items())
        while sched and sched[0][1] in ("reajuste", "revisao"):  # start at the base fare
            sched.pop(0)
        return [(d, m, f, a.replace(",", ".")) for d, m, f, a in sched]

    def _sections(self, line: Line) -> list[tuple[Place, Place]]:
        if line.sections is None:
            line.sections = []
            if line.ambito != "semiurbano":
                o, d = line.origem, line.destino
                total = _haversine_km(o, d)
                for m in MUNICIPIOS:
                    if m.name in (o.name, d.name) or m.uf == "AP":
                        continue
                    a, b = _haversine_km(o, m), _haversine_km(m, d)
                    if a + b <= total * 1.1 and min(a, b) >= total * 0.2:
                        if not o.abroad:
                            line.sections.append((o, m))
                        if not d.abroad:
                            line.sections.append((m, d))
        return line.sections

    def _make_fares(self, n: int) -> list[FareKey]:
        rng = self.rng
        order = list(self.scenario.values()) + [ln for ln in self.lines if ln not in self.scenario.values()]
        permits: dict[int, list[Outorga]] = {id(ln): [] for ln in order}
        for o in self.outorgas:
            if o.linha is not None and o.instrumento == "permissao":
                permits[id(o.linha)].append(o)
        future = {id(ln) for ln in order if rng.random() < 0.05}
        future.add(id(order[0]))  # at least one fare not yet in force
        schedules = {id(ln): self._schedule(ln, permits[id(ln)], id(ln) in future) for ln in order}
        noise = {id(ln): Decimal(rng.randint(90, 112)) / 100 for ln in order}
        keys: list[FareKey] = []
        used: set[tuple] = set()
        budget = n

        def add(line: Line, a: Place, b: Place, cat: str) -> None:
            nonlocal budget
            used.add((id(line), a.name, b.name, cat))
            sched = schedules[id(line)][:budget]
            base = (Decimal("0.125") * Decimal(str(round(_road_km(a, b), 1))) + Decimal("4.00"))
            value = _money(base * CATEGORIAS[cat] * noise[id(line)])
            rows = []
            for i, (day, motivo, factor, ato) in enumerate(sched):
                if i == 0 and motivo == "licitacao":  # priced at that date's level
                    for rday, pct, _ in REAJUSTES:
                        if rday <= day:
                            value = _money(value * (1 + pct / 100))
                elif i > 0:
                    value = _money(value * factor)
                rows.append((day, value, motivo, ato))
            keys.append(FareKey(line, a.name, b.name, cat, rows))
            budget -= len(rows)

        for line in order:
            if budget <= 0:
                break
            if line.ambito == "semiurbano":
                cat = "semiurbano"
            else:
                cat = rng.choices(("convencional_com_sanitario", "executivo", "convencional_sem_sanitario",
                                   "semileito"), (70, 12, 10, 8))[0]
            add(line, line.origem, line.destino, cat)
        candidates = [ln for ln in order if ln.ambito != "semiurbano"]
        attempts = 0
        while budget > 0 and candidates and attempts < 50 * n:
            attempts += 1
            line = rng.choice(candidates)
            a, b = line.origem, line.destino
            if rng.random() < 0.4 and self._sections(line):
                a, b = rng.choice(line.sections)
            cat = rng.choice(_ROAD_CATEGORIES)
            if (id(line), a.name, b.name, cat) not in used:
                add(line, a, b, cat)
        return keys

    # ---- promotions -------------------------------------------------------------------------------

    def _windows(self, first: date, last: date, lines_only: bool = True) -> list[tuple[Outorga, date, date]]:
        """(outorga, start, end) for every outorga in force some day of [first, last], clipped."""
        out = []
        for o in self.outorgas:
            if lines_only and o.linha is None:
                continue
            start, end = max(o.inicio, first), min(o.last_day, last)
            if start <= end:
                out.append((o, start, end))
        return out

    def _make_promotions(self, n: int) -> list[Promotion]:
        rng, as_of = self.rng, self.as_of
        by_line: dict[int, list[FareKey]] = {}
        for k in self.keys:
            by_line.setdefault(id(k.linha), []).append(k)
        windows = [w for w in self._windows(_PROMOTIONS_FROM, _days(as_of, 30)) if id(w[0].linha) in by_line
                   and w[0].modalidade != "fretamento"]
        if not windows:
            raise ValueError("scale too small: no line has both fares and an outorga for promotions")
        cum = list(itertools.accumulate((w[2] - w[1]).days + 1 for w in windows))
        promos: list[Promotion] = []

        def draw(latest: date | None = None) -> Promotion:
            latest = latest or _days(as_of, 30)
            while True:
                o, start, end = rng.choices(windows, cum_weights=cum)[0]
                key = rng.choice(by_line[id(o.linha)])
                start = max(start, key.rows[0][0])
                if start > min(end, latest):
                    continue
                inicio = _rand_date(rng, start, min(end, latest))
                maximum = key.rows[key.in_force(inicio)][1]
                valor = _money(maximum * Decimal(rng.randint(55, 92)) / 100)
                if valor <= 0 or valor >= maximum:
                    continue
                fim = min(_days(inicio, rng.randint(6, 90)), max(o.last_day, inicio))
                return Promotion(o.carrier, key, valor, _days(inicio, -rng.randint(30, 75)), inicio, fim)

        planted = self._planted_promotions(draw, by_line)
        for _ in range(n - len(planted)):
            promos.append(draw())
        return promos + planted

    def _planted_promotions(self, draw, by_line: dict[int, list[FareKey]]) -> list[Promotion]:
        rng, p, sc = self.rng, self.planted, self.scenario
        planted = []
        # Art. 6 sole paragraph I: 29 and 12 days' notice (findings), exactly 30 days (none).
        for days in (29, 12, 30):
            promo = draw(latest=self.as_of)
            promo.comunicado_em = _days(promo.inicio, -days)
            planted.append(promo)
        # Art. 6: promotional fare equal to / above the maximum (findings), one cent below (none).
        for price in (lambda m: m, lambda m: _money(m * Decimal("1.15")), lambda m: m - Decimal("0.01")):
            promo = draw()
            promo.valor = price(promo.key.rows[promo.key.in_force(promo.inicio)][1])
            planted.append(promo)
        # Starting on the day a higher fare comes into force, priced at the former maximum (none).
        while True:
            promo = draw()
            later = [i for i, r in enumerate(promo.key.rows) if i and r[2] == "reajuste"
                     and promo.inicio <= r[0] <= min(promo.fim, _days(self.as_of, 30))]
            if later:
                i = later[0]
                promo.inicio = promo.key.rows[i][0]
                promo.comunicado_em = _days(promo.inicio, -rng.randint(30, 60))
                promo.valor = promo.key.rows[i - 1][1]
                planted.append(promo)
                break
        # No outorga at all of G on the line (finding).
        g = p["G"]
        held = {id(o.linha) for o in self.outorgas if o.carrier is g and o.linha is not None}
        free_keys = [k for k in self.keys if id(k.linha) not in held and k.linha not in sc.values()
                     and k.rows[0][0] <= _days(self.as_of, -60)]
        if not free_keys:
            raise ValueError("scale too small: carrier G holds an outorga on every line with fares")
        key = rng.choice(free_keys)
        inicio = _rand_date(rng, max(key.rows[0][0], _PROMOTIONS_FROM), _days(self.as_of, -40))
        maximum = key.rows[key.in_force(inicio)][1]
        planted.append(Promotion(g, key, _money(maximum * Decimal("0.7")), _days(inicio, -45), inicio,
                                 _days(inicio, 30)))
        # D's promotion starts the day its permit is extinct (finding).
        key = by_line[id(sc["desistencia"])][0]
        maximum = key.rows[key.in_force(date(2023, 5, 10))][1]
        planted.append(Promotion(p["D"], key, _money(maximum * Decimal("0.75")), date(2023, 3, 28),
                                 date(2023, 5, 10), date(2023, 6, 30)))
        # B's promotion on the 180th day of its emergency authorisation, still in force (none).
        key = by_line[id(sc["caducidade"])][0]
        maximum = key.rows[key.in_force(date(2024, 8, 28))][1]
        planted.append(Promotion(p["B"], key, _money(maximum * Decimal("0.8")), date(2024, 7, 15),
                                 date(2024, 8, 28), date(2024, 8, 28)))
        return planted

    # ---- infractions ------------------------------------------------------------------------------

    def _planted_infractions(self) -> list[tuple[Carrier, Line, date, int]]:
        """(carrier, line, day, minute of day) of the planted infractions, all under 78-VI-a."""
        p, sc = self.planted, self.scenario
        return [
            (p["D"], sc["desistencia"], date(2023, 11, 27), 14 * 60 + 25),  # after giving up (finding)
            (p["B"], sc["caducidade"], date(2024, 8, 29), 6 * 60 + 10),  # day 181 (finding)
            (p["B"], sc["caducidade"], date(2024, 8, 28), 23 * 60 + 40),  # day 180 (none)
            (p["E"], sc["art94"], date(2019, 6, 10), 9 * 60 + 15),  # art. 94: in force (none)
            (p["E"], sc["art94"], date(2023, 10, 8), 22 * 60 + 5),  # art. 94 last day (none)
        ]

    def _situacao(self, day: date) -> tuple[str, date | None, date | None]:
        rng, as_of = self.rng, self.as_of
        notified = _days(day, rng.randint(2, 30))
        if notified > as_of or rng.random() < 0.004:
            return "autuado", None, None
        if (as_of - notified).days <= 21:
            return rng.choice(("notificado", "em_defesa")), notified, None
        decided = _days(notified, rng.randint(30, 400))
        if decided > as_of:
            return rng.choices(("em_defesa", "notificado"), (8, 2))[0], notified, None
        if (as_of - decided).days <= 7:
            return rng.choice(("julgado", "em_recurso")), notified, decided
        status = rng.choices(("pago", "julgado", "em_recurso", "cancelado", "arquivado"), (45, 15, 12, 10, 18))[0]
        return status, notified, decided

    def rows_infracoes(self) -> Iterator[dict]:
        rng, as_of = self.rng, self.as_of
        n = self.counts["infracoes"]
        planted = self._planted_infractions()
        last = _days(as_of, -1)
        windows = self._windows(_INFRACTIONS_FROM, last, lines_only=False)
        recent_from = _days(as_of, -75)
        recent = [i for i, w in enumerate(windows) if w[2] >= recent_from]
        cum_all = list(itertools.accumulate((w[2] - w[1]).days + 1 for w in windows))
        cum_recent = list(itertools.accumulate((windows[i][2] - max(windows[i][1], recent_from)).days + 1
                                               for i in recent))
        # Sort (day, minute, source) packed in one integer so auto numbers follow the calendar.
        packed = array("q")
        for _ in range(n - len(planted)):
            if recent and rng.random() < 0.06:
                j = recent[bisect.bisect_right(cum_recent, rng.random() * cum_recent[-1])]
                start = max(windows[j][1], recent_from)
            else:
                j = bisect.bisect_right(cum_all, rng.random() * cum_all[-1])
                start = windows[j][1]
            day = rng.randint(start.toordinal(), windows[j][2].toordinal())
            minute = rng.randint(300, 1439) if rng.random() < 0.9 else rng.randint(0, 299)
            packed.append((day << 32) | (minute << 21) | j)
        for k, (_, _, day, minute) in enumerate(planted):
            packed.append((day.toordinal() << 32) | (minute << 21) | (len(windows) + k))
        packed = array("q", sorted(packed))

        codes = enquadramento_rows()
        groups = sorted({c["grupo"] for c in codes}, key=("I", "II", "III", "IV", "V", "VI").index)
        by_group = {g: [c["codigo"] for c in codes if c["grupo"] == g] for g in groups}
        group_of = {c["codigo"]: c["grupo"] for c in codes}
        cum_codes = list(itertools.accumulate(_GROUP_WEIGHT[c["grupo"]] for c in codes))
        numero = rng.randint(1_200_000, 1_900_000)
        drawn = 0  # random rows so far: the first ones cover every group and every penalty
        for item in packed:
            day = date.fromordinal(item >> 32)
            minute = (item >> 21) & 0x7FF
            j = item & 0x1FFFFF
            if j < len(windows):
                o = windows[j][0]
                carrier, line = o.carrier, o.linha
                penalidade = _PENALIDADES[drawn] if drawn < len(_PENALIDADES) else None
                if drawn < len(groups):
                    code = rng.choice(by_group[groups[drawn]])
                else:
                    code = codes[bisect.bisect_right(cum_codes, rng.random() * cum_codes[-1])]["codigo"]
                if line is not None and rng.random() < (0.7 if group_of[code] == "III" else 0.08):
                    line = None
                drawn += 1
            else:
                carrier, line, _, _ = planted[j - len(windows)]
                code, penalidade = "78-VI-a", "multa"
            numero += rng.randint(1, 3)
            yield self._infraction(numero, carrier, line, day, minute, code, group_of[code], penalidade)

    def _infraction(self, numero: int, carrier: Carrier, line: Line | None, day: date, minute: int,
                    code: str, group: str, penalidade: str | None) -> dict:
        rng = self.rng
        if line is not None:
            place = rng.choice(line.brazilian_ends)
            roads = [r for r in line.itinerario.split(", ") if r.startswith("BR-")] or list(RODOVIAS[place.uf])
            if rng.random() < 0.7:
                local = f"{rng.choice(roads)}, km {rng.randint(1, max(2, min(int(line.extensao_km), 900)))}"
            else:
                local = "Terminal rodoviário"
        else:
            place = self.places[carrier.municipio]
            if group == "III" or rng.random() < 0.3:
                local = "Sede da transportadora"
            else:
                local = f"{rng.choice(RODOVIAS[place.uf])}, km {rng.randint(1, 700)}"
        placa = ""
        if group != "III" and rng.random() < 0.92:
            plate, converted = rng.choice(carrier.fleet)
            if converted and day.toordinal() >= converted:  # Mercosul plate: 5th character becomes a letter
                plate = plate[:4] + "ABCDEFGHIJ"[int(plate[4])] + plate[5:]
            placa = plate
        penalidade = penalidade or rng.choices(_PENALIDADES, (900, 65, 30, 5))[0]
        valor = None
        if penalidade == "multa" or (penalidade != "inidoneidade" and rng.random() < 0.7):
            valor = _MULTAS[group][day >= date(2019, 7, 1)]
        situacao, notificado, decidido = self._situacao(day)
        return {
            "numero_auto": f"{numero:08d}",
            "transportadora_cnpj": carrier.cnpj,
            "linha_prefixo": line.prefixo if line else None,
            "placa": placa,
            "data_hora": f"{day.isoformat()}T{minute // 60:02d}:{minute % 60:02d}",
            "uf": place.uf,
            "municipio": place.name,
            "local": local,
            "enquadramento": code,
            "penalidade": penalidade,
            "valor_multa": valor,
            "notificado_em": notificado,
            "decidido_em": decidido,
            "situacao": situacao,
        }

    # ---- table rows -------------------------------------------------------------------------------

    def rows_horarios(self, rng: random.Random) -> Iterator[dict]:
        """Departures of every line operated on REFERENCE_DATE, by the carriers in force there: one to
        four a day each way, in the line's whole-line fare categories, most of them every day."""
        operators: dict[int, list[Outorga]] = {}
        for o in self.outorgas:
            if o.linha is not None and o.inicio <= REFERENCE_DATE <= o.last_day:
                operators.setdefault(id(o.linha), []).append(o)
        categories: dict[int, list[str]] = {}
        for k in self.keys:
            if (k.origem, k.destino) == (k.linha.origem.name, k.linha.destino.name):
                categories.setdefault(id(k.linha), []).append(k.categoria)
        weekdays = ("segunda", "terca", "quarta", "quinta", "sexta", "sabado", "domingo")
        months = ("janeiro", "fevereiro", "marco", "abril", "maio", "junho", "julho", "agosto", "setembro",
                  "outubro", "novembro", "dezembro")
        for line in sorted(self.lines, key=lambda ln: ln.prefixo):
            cats = sorted(set(categories.get(id(line), []))) or ["convencional_com_sanitario"]
            for o in sorted(operators.get(id(line), []), key=lambda o: o.id):
                for sentido in ("ida", "volta"):
                    times = sorted(rng.sample(range(5 * 60, 23 * 60 + 1, 30), rng.randint(1, 4)))
                    for minute in times:
                        every_day = rng.random() < 0.7
                        days = {d: every_day or rng.random() < 0.5 for d in weekdays}
                        if not any(days.values()):
                            days["sexta"] = True
                        season = rng.random() < 0.1  # a summer-only departure
                        row = {"linha_prefixo": line.prefixo, "transportadora_cnpj": o.carrier.cnpj,
                               "sentido": sentido, "horario": f"{minute // 60:02d}:{minute % 60:02d}",
                               "categoria": rng.choice(cats), "tipo_veiculo": None, "data_autorizacao": o.inicio}
                        row.update(days)
                        row.update({m: (not season) or m in ("dezembro", "janeiro", "fevereiro") for m in months})
                        yield row

    def rows_secoes(self) -> Iterator[dict]:
        """The sections of the fares (art. 3 XXI), each with its road distance."""
        seen = set()
        for k in sorted(self.keys, key=lambda k: (k.linha.prefixo, k.origem, k.destino)):
            if (k.linha.prefixo, k.origem, k.destino) in seen:
                continue
            seen.add((k.linha.prefixo, k.origem, k.destino))
            places = {p.name: p for p in (k.linha.origem, k.linha.destino, *sum(k.linha.sections or [], ()))}
            a, b = places[k.origem], places[k.destino]
            yield {"linha_prefixo": k.linha.prefixo, "origem_municipio": a.name, "origem_uf": a.uf,
                   "destino_municipio": b.name, "destino_uf": b.uf, "extensao_km": f"{_road_km(a, b):.1f}",
                   "tipo_servico": None}

    def rows_transportadoras(self) -> list[dict]:
        return [
            {"cnpj": c.cnpj, "razao_social": c.razao_social, "nome_fantasia": c.nome_fantasia,
             "uf": c.uf, "municipio": c.municipio, "observacao": None}
            for c in sorted(self.carriers, key=lambda c: c.cnpj)
        ]

    def rows_linhas(self) -> list[dict]:
        return [
            {"prefixo": ln.prefixo,
             "descricao": f"{ln.origem.name}({ln.origem.uf}) - {ln.destino.name}({ln.destino.uf})",
             "origem_municipio": ln.origem.name, "origem_uf": ln.origem.uf,
             "destino_municipio": ln.destino.name, "destino_uf": ln.destino.uf,
             "ambito": ln.ambito, "itinerario": ln.itinerario, "extensao_km": f"{ln.extensao_km:.1f}"}
            for ln in sorted(self.lines, key=lambda ln: ln.prefixo)
        ]

    def rows_outorgas(self) -> list[dict]:
        return [
            {"id": o.id, "instrumento": o.instrumento, "modalidade": o.modalidade,
             "transportadora_cnpj": o.carrier.cnpj, "linha_prefixo": o.linha.prefixo if o.linha else None,
             "inicio": o.inicio, "fim": o.fim, "prorrogada": o.prorrogada, "extinta_em": o.extinta_em,
             "motivo_extincao": o.motivo_extincao, "ato": o.ato, "documento_url": None}
            for o in self.outorgas
        ]

    def rows_tarifas(self) -> Iterator[dict]:
        for k in sorted(self.keys, key=lambda k: (k.linha.prefixo, k.origem, k.destino, k.categoria)):
            for day, valor, motivo, ato in k.rows:
                yield {"linha_prefixo": k.linha.prefixo, "origem": k.origem, "destino": k.destino,
                       "categoria": k.categoria, "valor": valor, "vigencia_inicio": day, "motivo": motivo,
                       "ato": ato or None}

    def rows_tarifas_promocionais(self) -> list[dict]:
        rng = self.rng
        ordered = sorted(enumerate(self.promotions), key=lambda t: (t[1].comunicado_em, t[0]))
        seq: dict[int, int] = {}
        rows = []
        for _, pr in ordered:
            year = pr.comunicado_em.year
            if year not in seq:
                seq[year] = rng.randint(1_000, 9_000)
            seq[year] += rng.randint(1, 40)
            rows.append({
                "protocolo": _nup(50500, seq[year], year), "transportadora_cnpj": pr.carrier.cnpj,
                "linha_prefixo": pr.key.linha.prefixo, "origem": pr.key.origem, "destino": pr.key.destino,
                "categoria": pr.key.categoria, "valor": pr.valor, "comunicado_em": pr.comunicado_em,
                "inicio": pr.inicio, "fim": pr.fim,
            })
        return rows

    def rows_caducidades(self) -> list[dict]:
        return [
            {"ato": c.ato, "outorga_id": c.outorga.id, "transportadora_cnpj": c.outorga.carrier.cnpj,
             "data_declaracao": c.data_declaracao, "fundamento": c.fundamento, "processo": c.processo,
             "comunicacao_1_em": c.comunicacao_1_em, "comunicacao_2_em": c.comunicacao_2_em,
             "documento_url": None}
            for c in sorted(self.caducidades, key=lambda c: (c.data_declaracao, c.ato))
        ]


def _connected(a: str, b: str) -> bool:
    """Whether a bus can reasonably run between two UFs (Amapá has no road link; Amazonas and
    Roraima only reach the north-west)."""
    if "AP" in (a, b):
        return False
    north_west = ("AM", "RR")
    if a in north_west or b in north_west:
        return a in ("AM", "RR", "RO", "AC") and b in ("AM", "RR", "RO", "AC")
    return True
