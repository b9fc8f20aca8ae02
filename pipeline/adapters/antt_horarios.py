"""The regulator's timetable export (ANTT "quadro de horários") -> transportadoras, linhas, horarios.

One row per scheduled departure: carrier, line (prefix and description), vehicle type, direction,
time, and ``x`` flags for the weekdays and months it runs. The export says nothing about permits,
fares, the carrier's seat or the line's route and length: those fields stay empty (nothing invented).
"""

from __future__ import annotations

import re
from pathlib import Path

from ..schema import Schema, load_schema
from .common import (
    Carriers,
    IngestReport,
    Lines,
    RowChecker,
    SourceOptions,
    fold,
    parse_date_br,
    read_export,
    source_entry,
    write_package,
    write_report,
)

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
    key = fold(text)
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


def ingest(path: Path, out: Path, schema: Schema | None = None, options: SourceOptions | None = None) -> IngestReport:
    """Convert the timetable export at ``path`` into a source package in ``out``."""
    schema = schema or load_schema()
    export = read_export(path, HEADER)
    report = IngestReport(fonte=Path(path).name, adaptador=NAME, codificacao=export.encoding, principal="horarios")
    source = source_entry(TITLE, path, options or SourceOptions(), report)
    directions = schema["horarios"].field("sentido")["constraints"]["enum"]

    carriers = Carriers(report)
    lines = Lines(report)
    categories: dict[str, set[str]] = {}
    horarios: list[dict] = []

    checker = RowChecker(report, HEADER, schema)
    for n, raw in export.rows:
        start = checker.start(n, raw)
        if start is None:
            continue
        row, cnpj, prefixo, ends, why = start.row, start.cnpj, start.prefixo, start.ends, start.why
        categoria = vehicle_category(row["tipo_veiculo"]) if why is None else None
        if why is None and categoria is None:
            why = f'tipo de veículo desconhecido: coluna "tipo_veiculo" = "{row["tipo_veiculo"]}"'
        sentido = row["sentido"].strip().lower()
        if why is None and sentido not in directions:
            why = f'sentido ilegível: coluna "sentido" = "{row["sentido"]}" não é {" nem ".join(directions)}'
        horario = parse_time(row["horario"])
        if why is None and horario is None:
            why = f'horário ilegível: coluna "horario" = "{row["horario"]}" não é HH:MM'
        data = None
        if why is None:
            data, why = parse_date_br(row["data_autorizacao"], "data_autorizacao")
        if why is None:
            for col in FLAG_COLUMNS:
                if row[col].strip() not in ("", *_FLAG_TRUE):
                    why = f'marcação ilegível: coluna "{col}" = "{row[col]}" (esperado "x" ou vazio)'
                    break
        if why is not None:
            report.reject(n, why, raw)
            continue

        report.keep()
        carriers.add(cnpj, row["razao_social"], n)

        descricao = " ".join(row["descricao_linha"].split())
        # ambito settled after the loop unless a country is at one end
        lines.add(
            n, prefixo, ends, "internacional" if ends.international else None, descricao_linha=descricao, cnpj=cnpj
        )
        categories.setdefault(prefixo, set()).add(categoria)

        horarios.append(
            {
                "linha_prefixo": prefixo,
                "transportadora_cnpj": cnpj,
                "sentido": sentido,
                "horario": horario,
                "categoria": categoria,
                "tipo_veiculo": row["tipo_veiculo"].strip(),
                "data_autorizacao": data,
                **{field: row[col].strip() in _FLAG_TRUE for col, field in FLAG_COLUMNS.items()},
            }
        )

    # A country at either end makes the line internacional, even when its rows are SEMI-URBANO (the
    # enum has one value per line); otherwise semiurbano only when every kept row of it is.
    for prefixo, line in lines.rows.items():
        if line["ambito"] is None:
            line["ambito"] = "semiurbano" if categories[prefixo] == {"semiurbano"} else "interestadual"

    report.tabelas = write_package(
        out,
        {
            "transportadoras": carriers.rows(),
            "linhas": [lines.rows[p] for p in sorted(lines.rows)],
            "horarios": horarios,
        },
        schema,
        source,
    )
    report.check()
    write_report(out, report)
    return report
