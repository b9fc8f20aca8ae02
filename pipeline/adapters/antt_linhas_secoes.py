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

import numpy as np

from .base import Layout
from .columnar import (
    ColumnAdapter,
    Conflicts,
    IngestReport,
    Judged,
    Rule,
    keep_once,
    line_rules,
    line_tables,
    per_text,
)
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


class LineRules(ColumnAdapter):
    """The checks and tables of every SIGMA file whose rows name a line with its ambit and how it is run (the
    sections, the paralysed services, the history), run by column (pipeline/adapters/columnar.py)."""

    @staticmethod
    def ambit() -> Rule:
        def judge(text: str):
            value = ambit(text)
            return (value,), None if value else f'âmbito desconhecido: coluna "ambito_linha" = "{text}"'
        return Rule("ambit", ("ambito_linha",), ("ambito",), judge)

    @staticmethod
    def authorisation() -> Rule:
        def judge(text: str):
            value = AUTHORISATIONS.get(fold_code(text)) if text.strip() else ""
            return (value,), None if value is not None else f'tipo de autorização desconhecido: coluna "outorga_secao" = "{text}"'
        return Rule("authorisation", ("outorga_secao",), ("tipo_autorizacao",), judge)

    @staticmethod
    def places() -> list[Rule]:
        """The section's two ends, origin first: a name and a UF or a country each."""
        rules = []
        for side, mun_col, uf_col in (("origem", "municipio_origem", "uf_origem"),
                                      ("destino", "municipio_destino", "uf_destino")):
            def judge(mun_text: str, uf_text: str, side=side, mun_col=mun_col, uf_col=uf_col):
                mun, uf = " ".join(mun_text.split()), parse_place_code(uf_text)
                if not mun:
                    return None, f'seção sem {side}: coluna "{mun_col}" vazia'
                if uf is None:
                    return None, f'UF ilegível: coluna "{uf_col}" = "{uf_text}" não é uma UF nem um país conhecido'
                return (mun, uf), None
            rules.append(Rule(side, (mun_col, uf_col), (f"{side}_municipio", f"{side}_uf"), judge))
        return rules

    @staticmethod
    def service() -> Rule:
        return Rule("tipo_servico", ("tipo_servico",), ("tipo_servico",), lambda text: ((text.strip(),), None))

    @staticmethod
    def line_tables(judged: Judged, report: IngestReport, conflicts: Conflicts):
        """:func:`.columnar.line_tables`, a line's description, carrier and ambit compared."""
        v = judged.values
        return line_tables(report, conflicts, judged, v["ambito"],
                           [("descricao_linha", v["descricao_linha"]), ("cnpj", v["cnpj"]), ("ambito_linha", v["ambito"])])


SECTION = ("origem_municipio", "origem_uf", "destino_municipio", "destino_uf")


class LinesAndSections(LineRules):
    """One row per section of a line -> transportadoras, linhas, secoes."""

    NAME = NAME
    TITLE = TITLE
    PRINCIPAL = "secoes"
    LAYOUTS = (Layout("2021 e SIGMA (2025-)", tuple(HEADER)),)

    def rules(self) -> list[Rule]:
        def extension(text: str):
            km, why = parse_km(text)
            return (km,), why
        return [*line_rules(self.schema), self.ambit(), *self.places(),
                Rule("extension", ("extensao_secao",), ("extensao_km",), extension), self.authorisation(),
                self.service()]

    def keep(self, judged: Judged, report: IngestReport) -> dict:
        v, lines, conflicts = judged.values, judged.rows.row_numbers, Conflicts()
        tables, line_rows, line_ends = self.line_tables(judged, report, conflicts)
        kept = keep_once(report, conflicts, lines, [v["prefixo"], *(v[c] for c in SECTION)],
                         [(c, v[c]) for c in ("extensao_km", "tipo_servico", "tipo_autorizacao")], "secao",
                         "a mesma seção já foi lida; a transportadora desta linha fica registrada", _km_or_text)
        conflicts.report(report)
        sections = {"linha_prefixo": v["prefixo"][kept], **{c: v[c][kept] for c in SECTION},
                    "extensao_km": v["extensao_km"][kept], "tipo_servico": v["tipo_servico"][kept],
                    "tipo_autorizacao": v["tipo_autorizacao"][kept]}
        # A line's extension is its terminal-to-terminal section's (either direction), when listed: the last
        # such section from origin to destination, else the first the other way.
        km = sections["extensao_km"]
        going, coming = {}, {}
        for i in np.flatnonzero(np.not_equal(km, None).astype(bool)).tolist():
            section = {c: sections[c][i] for c in SECTION}
            prefixo = sections["linha_prefixo"][i]
            direction = _joins_terminals(section, line_ends[prefixo])
            if direction == "ida":
                going[prefixo] = km[i]
            elif direction == "volta":
                coming.setdefault(prefixo, km[i])
        for prefixo, line in line_rows.items():
            line["extensao_km"] = _km(going.get(prefixo, coming.get(prefixo)))
        sections["extensao_km"] = per_text(km, _km)
        return {**tables, "secoes": (sections, len(kept))}


def _km_or_text(value) -> str:
    return _km(value) if isinstance(value, float) else ("" if value is None else str(value))
