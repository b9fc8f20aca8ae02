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
must report, and :mod:`.scenarios` describes and writes them.

Modules, one per thing made: :mod:`.places` (reference geography), :mod:`.carriers`, :mod:`.lines`
(lines, prefixes, sections), :mod:`.outorgas`, :mod:`.caducidades`, :mod:`.fares`, :mod:`.promotions`,
:mod:`.infractions`, :mod:`.timetables`, :mod:`.scenarios` (the planted rows), :mod:`.helpers`, and
:mod:`.world`, which calls them in the order of the random draws. The legal rules (terms, bars,
notices, the fare in force) come from :mod:`pipeline.legal`.
"""

from __future__ import annotations

import random
import shutil
from collections.abc import Iterable, Mapping
from datetime import date
from pathlib import Path

from .. import SCHEMA_PATH
from ..contract.schema import load_schema
from ..contract.settings import SettingsError
from ..legal.enquadramentos import rows as enquadramento_rows
from ..read.writer import write_table
from ..tools.folders import refusal, staged
from . import scenarios
from .caducidades import rows_caducidades
from .carriers import rows_transportadoras
from .fares import CATEGORIAS, rows_tarifas
from .habilitacoes import rows_habilitacoes
from .infractions import rows_infracoes
from .lines import rows_linhas, rows_secoes
from .outorgas import rows_outorgas
from .promotions import rows_tarifas_promocionais
from .regime_atual import rows_bilhetes, rows_historico_linhas, rows_paradas, rows_paralisacoes
from .timetables import rows_horarios
from .world import World

__all__ = [
    "CATEGORIAS",
    "DEFAULT_SEED",
    "MINIMUM_SCALE",
    "PLANTED_FINDINGS",
    "REFERENCE_DATE",
    "SCALES",
    "generate",
]

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
        "bilhetes_detalhados": 1,  # a real month of Monitriip's detail (some 130,000 rows a month)
    },
}
# eight years of Monitriip (January 2019 to October 2026: 94 months) beside the national package
SCALES["national-8-years"] = {**SCALES["national"], "meses_de_bilhetes": 94}

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


def generate(scale: str | Mapping[str, int], seed: int, out: Path) -> dict[str, int]:
    """Write a source data package for ``scale`` (a name of :data:`SCALES` or a dict of counts).

    Returns the number of rows written per table. Same ``scale`` and ``seed`` give identical bytes.
    """
    counts = _resolve_scale(scale)
    reason = refusal("de saída (--out)", Path(out))
    if reason:
        raise SettingsError(reason)
    with staged(Path(out), "amostra fictícia gerada por python -m pipeline generate") as staging:
        return _write(counts, seed, staging)


def _write(counts: dict[str, int], seed: int, out: Path) -> dict[str, int]:
    schema = load_schema()
    world = World(random.Random(seed), counts, REFERENCE_DATE)
    tables: dict[str, Iterable[dict]] = {
        "transportadoras": rows_transportadoras(world.carriers),
        "linhas": rows_linhas(world.lines),
        "outorgas": rows_outorgas(world.outorgas),
        "tarifas": rows_tarifas(world.keys),
        "tarifas_promocionais": rows_tarifas_promocionais(world.rng, world.promotions),
        "caducidades": rows_caducidades(world.caducidades),
        "infracoes": rows_infracoes(world.rng, world.outorgas,
                                    scenarios.planted_infractions(world.roles, world.scenario),
                                    counts["infracoes"], world.as_of),
        "enquadramentos": enquadramento_rows(),
        # Its own random stream, so that adding the timetable left every other table as it was.
        "horarios": rows_horarios(random.Random(seed * 1_000_003 + 20), world.lines, world.outorgas, world.keys,
                                  world.as_of, schema),
        "secoes": rows_secoes(world.keys),
        # its own random stream too: the tables of the regime after the decree leave the others as they were
        "habilitacoes": rows_habilitacoes(random.Random(seed * 1_000_003 + 30), world.carriers, world.as_of),
        "historico_linhas": rows_historico_linhas(random.Random(seed * 1_000_003 + 40), world.lines, world.outorgas,
                                                  world.as_of),
        "paralisacoes": rows_paralisacoes(random.Random(seed * 1_000_003 + 50), world.lines, world.outorgas,
                                          world.as_of),
        "paradas": rows_paradas(random.Random(seed * 1_000_003 + 60), world.lines, world.outorgas),
        "bilhetes": rows_bilhetes(random.Random(seed * 1_000_003 + 70), world.lines, world.as_of,
                                  counts.get("meses_de_bilhetes", 12), bool(counts.get("bilhetes_detalhados"))),
    }
    missing = [name for name in schema.tables if name not in tables]
    if missing:
        raise KeyError(f"the generator does not know the tables {missing}")
    # Written in this order (tarifas_promocionais and infracoes draw numbers from world.rng, the latter
    # as it is written), so that the output does not depend on the order of resources in the descriptor.
    written = {}
    for name, rows in tables.items():
        table = schema[name]
        written[name] = write_table(out / table.filename, table.field_names, rows)
    shutil.copyfile(SCHEMA_PATH, out / "datapackage.json")
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
