"""Reference geography of the sample: real municipalities, foreign ends, federal highways, distances."""

from __future__ import annotations

import math
from dataclasses import dataclass


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
ALPHA2 = {"PRY": "PY", "BOL": "BO", "ARG": "AR", "URY": "UY", "CHL": "CL", "VEN": "VE"}
# The road on the foreign side of international lines, per country.
FOREIGN_ROADS = {
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

# Every place by name.
PLACES: dict[str, Place] = {p.name: p for p in MUNICIPIOS + ESTRANGEIROS}


def haversine_km(a: Place, b: Place) -> float:
    p1, p2 = math.radians(a.lat), math.radians(b.lat)
    dp, dl = p2 - p1, math.radians(b.lon - a.lon)
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * 6371.0 * math.asin(math.sqrt(h))


def road_km(a: Place, b: Place) -> float:
    """Road distance: the great-circle distance plus a quarter for the road's turns."""
    return haversine_km(a, b) * 1.25


def connected(a: str, b: str) -> bool:
    """Whether a bus can reasonably run between two UFs (Amapá has no road link; Amazonas and
    Roraima only reach the north-west)."""
    if "AP" in (a, b):
        return False
    north_west = ("AM", "RR")
    if a in north_west or b in north_west:
        return a in ("AM", "RR", "RO", "AC") and b in ("AM", "RR", "RO", "AC")
    return True
