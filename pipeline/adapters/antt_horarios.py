"""The regulator's timetable export (ANTT "quadro de horários") -> transportadoras, linhas, horarios.

One row per scheduled departure: carrier, line (prefix and description), vehicle type, direction,
time, and ``x`` flags for the weekdays and months it runs. The export says nothing about permits,
fares, the carrier's seat or the line's route and length: those fields stay empty (nothing invented).
"""

from __future__ import annotations

import re

import numpy as np

from ..contract.schema import load_schema
from .base import Layout
from .columnar import ColumnAdapter, Conflicts, IngestReport, Judged, Rule, folded, line_rules, line_tables, per_text
from .common import fold_code, parse_date_br

TITLE = "Quadro de horários"  # the export's name at the regulator
NAME = "antt-horarios"

# The export's day and month columns, in its order; each stands for the horarios field in the same
# position of the schema's weekday and month fields (Monday first, January first).
EXPORT_DAY_COLUMNS = ("segunda_feira", "terca_feira", "quarta_feira", "quinta_feira", "sexta_feira", "sabado", "domingo")
EXPORT_MONTH_COLUMNS = tuple(
    "janeiro fevereiro marco abril maio junho julho agosto setembro outubro novembro dezembro".split()
)
_SCHEMA = load_schema()
FLAG_COLUMNS = {  # source column -> horarios field
    **dict(zip(EXPORT_DAY_COLUMNS, _SCHEMA.weekdays, strict=True)),
    **dict(zip(EXPORT_MONTH_COLUMNS, _SCHEMA.months, strict=True)),
}

# The export's header, exactly (the file's first line); the flags' source columns follow the time.
HEADER = "cnpj;razao_social;data_autorizacao;prefixo;descricao_linha;tipo_veiculo;sentido;horario".split(";")
HEADER += list(FLAG_COLUMNS)
# SIGMA's monthly "Horários" (2025-): the same columns and a "gratuidade" after the time
# (../shared/spec/antt-layouts.md; the day and month names are taken to be the 2021 export's: a file that
# spells them otherwise is refused by its header, naming the columns).
HEADER_SIGMA = HEADER[:HEADER.index("horario") + 1] + ["gratuidade"] + list(FLAG_COLUMNS)

# Service categories from the lowest class to the highest (the schema's enum order). A mixed vehicle
# ("MISTO - A / B") offers both classes; it is classified by the highest one it offers (the fare ceiling
# that can apply to a seat on it), and the source text is kept in horarios.tipo_veiculo.
CATEGORY_ORDER = tuple(_SCHEMA.categories)

# The export's vehicle types (accents and spacing ignored when matching) -> the contract's category.
VEHICLE_TYPES = {
    "CONVEN. C/ SANITARIO": "convencional_com_sanitario",
    "CONVEN. S/ SANITARIO": "convencional_sem_sanitario",
    "EXECUTIVO": "executivo",
    "SEMI-LEITO": "semileito",
    "LEITO COM AR": "leito_com_ar",
    "LEITO SEM AR": "leito_sem_ar",
    "CAMA": "cama",
    "SEMI-URBANO": "semiurbano",
    # SIGMA's service names (2025-), the later regime's: "Básica" is its basic service, filed as the
    # 2021 export's most common basic vehicle (convencional com sanitário); "Leito" alone as leito com ar,
    # as in the mixed types below. The source text stays in horarios.tipo_veiculo.
    "BASICA": "convencional_com_sanitario",
    "EXECUTIVA": "executivo",
    "SEMILEITO": "semileito",
    "LEITO": "leito_com_ar",
}

# The parts of a "MISTO - A / B" type that are not themselves a full vehicle type. "LEITO" alone is
# read as leito com ar: the 2021 export has 692 "LEITO COM AR" rows and not one "LEITO SEM AR".
# "CONVENCIONAL" alone is read as com sanitário (4,907 rows against 431 sem sanitário); in the only
# mixed type that has it (MISTO - CONVENCIONAL / SEMI-LEITO) the other part is higher anyway.
MIXED_PARTS = {
    **VEHICLE_TYPES,
    "LEITO": "leito_com_ar",
    "CONVENCIONAL": "convencional_com_sanitario",
}

# The mixed types of the 2021 export and their category (the highest of their parts); any other
# "MISTO - A / B" whose parts are all in MIXED_PARTS is classified by the same rule.
MIXED_VEHICLE_TYPES = {
    "MISTO - LEITO / SEMI-LEITO": "leito_com_ar",
    "MISTO - EXECUTIVO / LEITO COM AR": "leito_com_ar",
    "MISTO - CONVENCIONAL / SEMI-LEITO": "semileito",
}

_MIXED = re.compile(r"MISTO\s*-\s*(.+)")
_TIME = re.compile(r"(\d{1,2}):(\d{2})(?::00)?")
_FLAG_TRUE = {"x", "X"}


def vehicle_category(text: str) -> str | None:
    """The contract's category of a vehicle type of the export; None when unknown."""
    key = fold_code(text)
    if key in VEHICLE_TYPES:
        return VEHICLE_TYPES[key]
    if key in MIXED_VEHICLE_TYPES:
        return MIXED_VEHICLE_TYPES[key]
    m = _MIXED.fullmatch(key)
    if m:
        # the classes are separated by " / " (spaced); "C/ SANITARIO" has its own unspaced slash
        parts = [MIXED_PARTS.get(p) for p in re.split(r"\s+/\s+", m[1].strip())]
        if len(parts) >= 2 and all(parts):
            return max(parts, key=CATEGORY_ORDER.index)
    return None


def parse_time(value: str) -> str | None:
    m = _TIME.fullmatch((value or "").strip())
    if not m or int(m[1]) > 23 or int(m[2]) > 59:
        return None
    return f"{int(m[1]):02d}:{m[2]}"


class Timetable(ColumnAdapter):
    """One row per scheduled departure -> transportadoras, linhas, horarios."""

    NAME = NAME
    TITLE = TITLE
    PRINCIPAL = "horarios"
    LAYOUTS = (Layout("2021", tuple(HEADER)), Layout("SIGMA (2025-)", tuple(HEADER_SIGMA)))

    def rules(self) -> list[Rule]:
        directions = self.schema["horarios"].field("sentido")["constraints"]["enum"]

        def category(text: str):
            value = vehicle_category(text)
            return (value, text.strip()), None if value else f'tipo de veículo desconhecido: coluna "tipo_veiculo" = "{text}"'

        def direction(text: str):
            value = text.strip().lower()
            if value not in directions:
                return None, f'sentido ilegível: coluna "sentido" = "{text}" não é {" nem ".join(directions)}'
            return (value,), None

        def time(text: str):
            value = parse_time(text)
            return (value,), None if value else f'horário ilegível: coluna "horario" = "{text}" não é HH:MM'

        def authorised(text: str):
            value, why = parse_date_br(text, "data_autorizacao")
            return (value,), why

        def flag(column: str) -> Rule:
            def judge(text: str):
                value = text.strip()
                if value not in ("", *_FLAG_TRUE):
                    return None, f'marcação ilegível: coluna "{column}" = "{text}" (esperado "x" ou vazio)'
                return (value in _FLAG_TRUE,), None
            return Rule(column, (column,), (FLAG_COLUMNS[column],), judge)

        free = [folded("gratuidade")] if "gratuidade" in self.layout.names else []
        return [*line_rules(self.schema), Rule("category", ("tipo_veiculo",), ("categoria", "tipo_veiculo"), category),
                Rule("direction", ("sentido",), ("sentido",), direction), Rule("time", ("horario",), ("horario",), time),
                Rule("authorised", ("data_autorizacao",), ("data_autorizacao",), authorised),
                *(flag(c) for c in FLAG_COLUMNS), *free]

    def keep(self, judged: Judged, report: IngestReport) -> dict:
        v, conflicts = judged.values, Conflicts()
        report.keep(len(judged.rows))
        # A country at either end makes the line internacional, even when its rows are SEMI-URBANO (the enum
        # has one value per line); otherwise semiurbano only when every kept row of it is.
        international = per_text(v["ends"], lambda ends: ends.international)
        semiurban = set(v["prefixo"][v["categoria"] == "semiurbano"].tolist())
        other = set(v["prefixo"][v["categoria"] != "semiurbano"].tolist())
        ambito = np.where(international.astype(bool), "internacional",
                          np.where(np.isin(v["prefixo"], list(semiurban - other)), "semiurbano", "interestadual"))
        tables, _, _ = line_tables(report, conflicts, judged, ambito.astype(object),
                                   [("descricao_linha", v["descricao_linha"]), ("cnpj", v["cnpj"])])
        conflicts.report(report)
        n = len(judged.rows)
        table = {"linha_prefixo": v["prefixo"], "transportadora_cnpj": v["cnpj"],
                 **{k: v[k] for k in ("sentido", "horario", "categoria", "tipo_veiculo", "data_autorizacao")},
                 "gratuidade": v["gratuidade"] if "gratuidade" in v else np.full(n, "", dtype=object),
                 **{f: v[f] for f in FLAG_COLUMNS.values()}}
        return {**tables, "horarios": (table, n)}
