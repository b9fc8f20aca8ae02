"""Monitriip's tickets sold ("Monitriip - Bilhetes de Passagem") -> bilhetes.

One row per travel month, issue month, origin and destination, service type and kind of free ticket: the
number of tickets and the mean and standard deviation of the amount paid (decimal comma). No carrier
and no line. What the documentation leaves open is refused, never guessed: a month is read as ``MM/AAAA``
or ``AAAA-MM`` (the layout does not say which), an origin or destination as ``Município - UF``,
``MUNICÍPIO(UF)`` or ``UF/Município``; anything else rejects the row, naming the column and the value.
Records of the regime that replaced Decreto nº 952/1993: no rule of the decree applies to them.
"""

from __future__ import annotations

import re

from ..schema import Schema
from .base import Adapter, Layout, Row
from .common import parse_place

NAME = "antt-monitriip-bilhetes"
TITLE = "Monitriip: bilhetes de passagem"
HEADER = ("mes_emissao_bilhete", "mes_viagem", "ponto_origem_viagem", "ponto_destino_viagem", "tipo_servico",
          "tipo_gratuidade", "media_valor_total", "dp_valor_total", "quantidade_bilhetes")
_MONTH = (re.compile(r"(?P<m>0?[1-9]|1[0-2])/(?P<y>\d{4})"), re.compile(r"(?P<y>\d{4})-(?P<m>0[1-9]|1[0-2])"))
_AMOUNT = re.compile(r"\d{1,3}(\.\d{3})*(,\d+)?|\d+(,\d+)?")


def parse_month(value: str, column: str) -> tuple[str | None, str | None]:
    text = (value or "").strip()
    for pattern in _MONTH:
        if m := pattern.fullmatch(text):
            return f"{m['y']}-{int(m['m']):02d}", None
    return None, f'mês ilegível: coluna "{column}" = "{value}" não é MM/AAAA nem AAAA-MM'


def parse_amount(value: str, column: str, required: bool = False) -> tuple[float | None, str | None]:
    """An amount with a decimal comma (``1.234,56``); empty is None unless ``required``."""
    text = (value or "").strip()
    if not text and not required:
        return None, None
    if not _AMOUNT.fullmatch(text):
        return None, f'número ilegível: coluna "{column}" = "{value}" não é um número com vírgula decimal'
    return float(text.replace(".", "").replace(",", ".")), None


class Tickets(Adapter):
    """One row per published aggregate -> bilhetes."""

    NAME = NAME
    TITLE = TITLE
    PRINCIPAL = "bilhetes"
    LAYOUTS = (Layout("Monitriip (2019-)", HEADER),)
    STEPS = ("months", "places", "amounts")
    LINES = False
    CARRIER = False

    def __init__(self, schema: Schema, report, layout: Layout):
        super().__init__(schema, report, layout)
        self.rows: list[dict] = []

    def months(self, row: Row) -> str | None:
        for column, field in (("mes_viagem", "mes_viagem"), ("mes_emissao_bilhete", "mes_emissao")):
            row.values[field], why = parse_month(row.cells[column], column)
            if why:
                return why
        return None

    def places(self, row: Row) -> str | None:
        for column, side in (("ponto_origem_viagem", "origem"), ("ponto_destino_viagem", "destino")):
            found = parse_place(row.cells[column])
            if found is None:
                return (f'ponto ilegível: coluna "{column}" = "{row.cells[column]}" não está no formato Município - UF, '
                        "MUNICÍPIO(UF) nem UF/Município")
            row.values[f"{side}_municipio"], row.values[f"{side}_uf"] = found
        return None

    def amounts(self, row: Row) -> str | None:
        text = row.cells["quantidade_bilhetes"].strip()
        if not re.fullmatch(r"[0-9]{1,9}", text):
            return f'quantidade ilegível: coluna "quantidade_bilhetes" = "{text}" não é um número inteiro'
        row.values["quantidade"] = int(text)
        for column, field in (("media_valor_total", "valor_medio"), ("dp_valor_total", "valor_desvio_padrao")):
            row.values[field], why = parse_amount(row.cells[column], column)
            if why:
                return why
        return None

    def keep(self, row: Row) -> None:
        self.report.keep()
        self.rows.append({**{k: row.values[k] for k in (
            "mes_viagem", "mes_emissao", "origem_municipio", "origem_uf", "destino_municipio", "destino_uf",
            "quantidade")},
            "tipo_servico": " ".join(row.cells["tipo_servico"].split()),
            "tipo_gratuidade": " ".join(row.cells["tipo_gratuidade"].split()),
            "valor_medio": _money(row.values["valor_medio"]),
            "valor_desvio_padrao": _money(row.values["valor_desvio_padrao"])})

    def tables(self) -> dict[str, list[dict]]:
        return {"bilhetes": self.rows}


def _money(value: float | None) -> str | None:
    return None if value is None else repr(value)  # as published: the downloads show two decimals
