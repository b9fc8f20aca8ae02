"""The regulator's lines-and-sections export (ANTT "linhas e seções") -> transportadoras, linhas, secoes.

One row per section (trecho with its own fare, art. 3 XXI) of a line: carrier, line (prefix,
description, ambit), the section's two ends and its extension. ``numero_tar``, ``numero_lop``,
``outorga_secao`` and ``data_autorizacao`` have no place in the data contract and are left out; the
export's permit columns are not enough to make an outorga (no instrument, modality or term), so none
is invented.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..schema import Schema, load_schema
from .common import (
    Carriers,
    Ends,
    IngestReport,
    Lines,
    RowChecker,
    SourceOptions,
    fold,
    parse_place_code,
    read_export,
    source_entry,
    write_package,
    write_report,
)

TITLE = "Linhas e seções"  # the export's name at the regulator
NAME = "antt-linhas-secoes"

# The export's header, exactly (the file's first line).
HEADER = (
    "cnpj;razao_social;numero_tar;numero_lop;data_autorizacao;prefixo;descricao_linha;tipo_servico;"
    "municipio_origem;uf_origem;municipio_destino;uf_destino;extensao_secao;outorga_secao;ambito_linha"
).split(";")

# The export's words for a line's ambit -> linhas.ambito. Accents, case and the hyphen or space of
# SEMI-URBANO / SEMI URBANO are ignored; any other word rejects the row (no guessing).
AMBITS = {
    "INTERESTADUAL": "interestadual",
    "INTERNACIONAL": "internacional",
    "SEMIURBANO": "semiurbano",
}


def ambit(text: str) -> str | None:
    return AMBITS.get(fold(text).replace("SEMI-URBANO", "SEMIURBANO").replace("SEMI URBANO", "SEMIURBANO"))


def parse_km(value: str) -> tuple[float | None, str | None]:
    """Kilometres as the export writes them: decimal comma, ``.`` grouping thousands (``434,5``,
    ``1.109,6``, ``1.109``); a lone ``.`` not followed by exactly three digits is read as a decimal
    point (``434.5``). Empty -> None (the extension is optional)."""
    text = (value or "").strip()
    if not text:
        return None, None
    if "," in text or re.fullmatch(r"\d{1,3}(\.\d{3})+", text):
        text = text.replace(".", "").replace(",", ".")
    if re.fullmatch(r"\d+(\.\d+)?", text) and float(text) > 0:
        return float(text), None
    return None, f'extensão ilegível: coluna "extensao_secao" = "{value}" não é um número de quilômetros maior que zero'


def _km(value: float | None) -> str:
    if value is None:
        return ""
    return str(int(value)) if value == int(value) else repr(value)


def _same_place(a_mun: str, a_uf: str, b_mun: str, b_uf: str) -> bool:
    return a_uf == b_uf and fold(a_mun) == fold(b_mun)


def _joins_terminals(section: dict, ends: Ends) -> str | None:
    """``"ida"`` when the section runs from the line's origin to its destination, ``"volta"`` when it
    runs the other way, None otherwise (names compared without accents, case or extra spaces)."""
    start = (section["origem_municipio"], section["origem_uf"])
    end = (section["destino_municipio"], section["destino_uf"])
    origin = (ends.origem_municipio, ends.origem_uf)
    destination = (ends.destino_municipio, ends.destino_uf)
    if _same_place(*start, *origin) and _same_place(*end, *destination):
        return "ida"
    if _same_place(*start, *destination) and _same_place(*end, *origin):
        return "volta"
    return None


def ingest(path: Path, out: Path, schema: Schema | None = None, options: SourceOptions | None = None) -> IngestReport:
    """Convert the lines-and-sections export at ``path`` into a source package in ``out``."""
    schema = schema or load_schema()
    export = read_export(path, HEADER)
    report = IngestReport(fonte=Path(path).name, adaptador=NAME, codificacao=export.encoding, principal="secoes")
    source = source_entry(TITLE, path, options or SourceOptions(), report)

    carriers = Carriers(report)
    lines = Lines(report)
    line_ends: dict[str, Ends] = {}
    sections: dict[tuple, dict] = {}  # primary key of secoes -> row
    section_line: dict[tuple, int] = {}

    checker = RowChecker(report, HEADER, schema)
    for n, raw in export.rows:
        start = checker.start(n, raw)
        if start is None:
            continue
        row, cnpj, prefixo, ends, why = start.row, start.cnpj, start.prefixo, start.ends, start.why
        ambito = ambit(row["ambito_linha"])
        if why is None and ambito is None:
            why = f'âmbito desconhecido: coluna "ambito_linha" = "{row["ambito_linha"]}"'
        section = {}
        for side, mun_col, uf_col in (
            ("origem", "municipio_origem", "uf_origem"),
            ("destino", "municipio_destino", "uf_destino"),
        ):
            mun = " ".join(row[mun_col].split())
            uf = parse_place_code(row[uf_col])
            if why is None and not mun:
                why = f'seção sem {side}: coluna "{mun_col}" vazia'
            if why is None and uf is None:
                why = f'UF ilegível: coluna "{uf_col}" = "{row[uf_col]}" não é uma UF nem um país conhecido'
            section[f"{side}_municipio"], section[f"{side}_uf"] = mun, uf
        km = None
        if why is None:
            km, why = parse_km(row["extensao_secao"])
        if why is not None:
            report.reject(n, why, raw)
            continue

        pk = (
            prefixo,
            section["origem_municipio"],
            section["origem_uf"],
            section["destino_municipio"],
            section["destino_uf"],
        )
        if pk in sections:
            report.merge(n, section_line[pk], "a mesma seção já foi lida; a transportadora desta linha fica registrada")
        else:
            report.keep()
        carriers.add(cnpj, row["razao_social"], n)

        descricao = " ".join(row["descricao_linha"].split())
        if lines.add(n, prefixo, ends, ambito, descricao_linha=descricao, cnpj=cnpj, ambito_linha=ambito):
            line_ends[prefixo] = ends

        new = {"linha_prefixo": prefixo, **section, "extensao_km": km, "tipo_servico": row["tipo_servico"].strip()}
        if pk not in sections:
            sections[pk] = new
            section_line[pk] = n
        else:
            label = " | ".join(pk)
            for campo in ("extensao_km", "tipo_servico"):
                if sections[pk][campo] != new[campo]:
                    report.conflict(
                        "secao",
                        label,
                        campo,
                        _km_or_text(sections[pk][campo]),
                        _km_or_text(new[campo]),
                        n,
                        section_line[pk],
                    )

    # A line's extension is its terminal-to-terminal section's (either direction), when listed.
    for s in sections.values():
        direction = _joins_terminals(s, line_ends[s["linha_prefixo"]])
        line = lines.rows[s["linha_prefixo"]]
        if direction and s["extensao_km"] is not None and (direction == "ida" or "extensao_km" not in line):
            line["extensao_km"] = s["extensao_km"]

    for s in sections.values():
        s["extensao_km"] = _km(s["extensao_km"])
    for line in lines.rows.values():
        line["extensao_km"] = _km(line.get("extensao_km"))

    report.tabelas = write_package(
        out,
        {
            "transportadoras": carriers.rows(),
            "linhas": [lines.rows[p] for p in sorted(lines.rows)],
            "secoes": list(sections.values()),
        },
        schema,
        source,
    )
    report.check()
    write_report(out, report)
    return report


def _km_or_text(value) -> str:
    return _km(value) if isinstance(value, float) else ("" if value is None else str(value))
