"""The regulator's lines-and-sections export (ANTT "linhas e seções") -> transportadoras, linhas, secoes.

One row per section (trecho with its own fare, art. 3 XXI) of a line: carrier, line (prefix,
description and its "- Via …" tail, ambit), the section's two ends, its extension and how it is run
(``outorga_secao``: authorisation, or authorisation by a court order). The 2021 layout and SIGMA's
"Empresas, Linhas e Seções" (2025-) share this header. ``numero_tar``, ``numero_lop`` and
``data_autorizacao`` have no place in the data contract and are left out; the export's permit columns
are not enough to make an outorga (no instrument, modality or term), so none is invented. These are
records of the regime that replaced Decreto nº 952/1993.
"""

from __future__ import annotations

import re

from ..contract.schema import Schema
from .base import Adapter, Layout, Row
from .common import Ends, fold_code, parse_place_code

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


# The export's words for how a section is run (outorga_secao) -> secoes.tipo_autorizacao. A court order
# keeps 14 % of SIGMA's sections running (AUTORIZAÇÃO JUDICIAL); any other word rejects the row.
AUTHORISATIONS = {"AUTORIZACAO": "autorizacao", "AUTORIZACAO JUDICIAL": "autorizacao_judicial"}


def ambit(text: str) -> str | None:
    return AMBITS.get(fold_code(text).replace("SEMI-URBANO", "SEMIURBANO").replace("SEMI URBANO", "SEMIURBANO"))


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
    return a_uf == b_uf and fold_code(a_mun) == fold_code(b_mun)


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


class LineSteps(Adapter):
    """The row steps of every SIGMA file whose rows name a line with its ambit and how it is run (the
    sections, the paralysed services, the history)."""

    def ambit(self, row: Row) -> str | None:
        row.values["ambito"] = ambit(row.cells["ambito_linha"])
        if row.values["ambito"] is None:
            return f'âmbito desconhecido: coluna "ambito_linha" = "{row.cells["ambito_linha"]}"'
        return None

    def authorisation(self, row: Row) -> str | None:
        text = row.cells["outorga_secao"]
        row.values["tipo_autorizacao"] = AUTHORISATIONS.get(fold_code(text)) if text.strip() else ""
        if row.values["tipo_autorizacao"] is None:
            return f'tipo de autorização desconhecido: coluna "outorga_secao" = "{text}"'
        return None

    def places(self, row: Row) -> str | None:
        section = row.values["secao"] = {}
        for side, mun_col, uf_col in (("origem", "municipio_origem", "uf_origem"),
                                      ("destino", "municipio_destino", "uf_destino")):
            mun = " ".join(row.cells[mun_col].split())
            uf = parse_place_code(row.cells[uf_col])
            if not mun:
                return f'seção sem {side}: coluna "{mun_col}" vazia'
            if uf is None:
                return f'UF ilegível: coluna "{uf_col}" = "{row.cells[uf_col]}" não é uma UF nem um país conhecido'
            section[f"{side}_municipio"], section[f"{side}_uf"] = mun, uf
        return None

    def add_line(self, row: Row) -> bool:
        """The row's carrier and line (a later row of the line that says otherwise: a conflict)."""
        self.carriers.add(row.cnpj, row.cells["razao_social"], row.n)
        descricao = " ".join(row.cells["descricao_linha"].split())
        ambito = row.values["ambito"]
        return self.lines.add(row.n, row.prefixo, row.ends, ambito, descricao_linha=descricao, cnpj=row.cnpj,
                              ambito_linha=ambito)

    def line_tables(self) -> dict[str, list[dict]]:
        return {"transportadoras": self.carriers.rows(), "linhas": [self.lines.rows[p] for p in sorted(self.lines.rows)]}


class LinesAndSections(LineSteps):
    """One row per section of a line -> transportadoras, linhas, secoes."""

    NAME = NAME
    TITLE = TITLE
    PRINCIPAL = "secoes"
    LAYOUTS = (Layout("2021 e SIGMA (2025-)", tuple(HEADER)),)
    STEPS = ("ambit", "places", "extension", "authorisation")

    def __init__(self, schema: Schema, report, layout: Layout):
        super().__init__(schema, report, layout)
        self.line_ends: dict[str, Ends] = {}
        self.sections: dict[tuple, dict] = {}  # primary key of secoes -> row
        self.section_line: dict[tuple, int] = {}

    def extension(self, row: Row) -> str | None:
        row.values["km"], why = parse_km(row.cells["extensao_secao"])
        return why

    def keep(self, row: Row) -> None:
        section, n, prefixo = row.values["secao"], row.n, row.prefixo
        pk = (prefixo, section["origem_municipio"], section["origem_uf"], section["destino_municipio"],
              section["destino_uf"])
        if pk in self.sections:
            self.report.merge(n, self.section_line[pk], "a mesma seção já foi lida; a transportadora desta linha "
                                                        "fica registrada")
        else:
            self.report.keep()
        if self.add_line(row):
            self.line_ends[prefixo] = row.ends
        new = {"linha_prefixo": prefixo, **section, "extensao_km": row.values["km"],
               "tipo_servico": row.cells["tipo_servico"].strip(), "tipo_autorizacao": row.values["tipo_autorizacao"]}
        if pk not in self.sections:
            self.sections[pk], self.section_line[pk] = new, n
            return
        for campo in ("extensao_km", "tipo_servico", "tipo_autorizacao"):
            if self.sections[pk][campo] != new[campo]:
                self.report.conflict("secao", " | ".join(pk), campo, _km_or_text(self.sections[pk][campo]),
                                     _km_or_text(new[campo]), n, self.section_line[pk])

    def tables(self) -> dict[str, list[dict]]:
        # A line's extension is its terminal-to-terminal section's (either direction), when listed.
        for s in self.sections.values():
            direction = _joins_terminals(s, self.line_ends[s["linha_prefixo"]])
            line = self.lines.rows[s["linha_prefixo"]]
            if direction and s["extensao_km"] is not None and (direction == "ida" or "extensao_km" not in line):
                line["extensao_km"] = s["extensao_km"]
        for s in self.sections.values():
            s["extensao_km"] = _km(s["extensao_km"])
        for line in self.lines.rows.values():
            line["extensao_km"] = _km(line.get("extensao_km"))
        return {**self.line_tables(), "secoes": list(self.sections.values())}


def _km_or_text(value) -> str:
    return _km(value) if isinstance(value, float) else ("" if value is None else str(value))
