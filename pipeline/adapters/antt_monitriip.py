"""Monitriip's tickets sold ("Monitriip - Bilhetes de Passagem") -> bilhetes.

One row per travel month, issue month, origin and destination, service type and kind of free ticket: the
number of tickets and the mean and standard deviation of the amount paid (decimal comma). No carrier
and no line. What the documentation leaves open is refused, never guessed: a month is read as ``MM/AAAA``
or ``AAAA-MM`` (the layout does not say which), an origin or destination as ``Município - UF``,
``MUNICÍPIO(UF)`` or ``UF/Município``; anything else rejects the row, naming the column and the value.
Records of the regime that replaced Decreto nº 952/1993: no rule of the decree applies to them.

Eight years are 94 monthly files (``venda_passagem_MM_AAAA.csv``) and some 12 million rows: ``ingest`` takes
them together into one package, read and checked in bulk by DuckDB under these same rules (:mod:`.bulk`,
``bulk_query``); the package and the report are the ones the per-row loop writes (``BULK = False``).
"""

from __future__ import annotations

import os
import re
from typing import ClassVar

from ..contract.schema import Schema
from .base import Adapter, Layout, Row
from .common import parse_place

NAME = "antt-monitriip-bilhetes"
TITLE = "Monitriip: bilhetes de passagem"
HEADER = ("mes_emissao_bilhete", "mes_viagem", "ponto_origem_viagem", "ponto_destino_viagem", "tipo_servico",
          "tipo_gratuidade", "media_valor_total", "dp_valor_total", "quantidade_bilhetes")
_MONTH = (re.compile(r"(?P<m>0?[1-9]|1[0-2])/(?P<y>\d{4})"), re.compile(r"(?P<y>\d{4})-(?P<m>0[1-9]|1[0-2])"))
# [0-9], not \d: Python's \d takes other scripts' digits (and float() reads them), RE2's in the SQL does not
# an amount in reais: at most AMOUNT_DIGITS digits before the comma and six after (a mean fare of a billion
# reais is a broken cell; a float would write 17 digits as 1e+16 and 400 as inf, which no download takes)
AMOUNT_DIGITS = 9
_AMOUNT = re.compile(r"[0-9]{1,3}(\.[0-9]{3}){0,2}(,[0-9]{1,6})?|[0-9]{1,9}(,[0-9]{1,6})?")
_ANY_AMOUNT = re.compile(r"[0-9]{1,3}(\.[0-9]{3})*(,[0-9]+)?|[0-9]+(,[0-9]+)?")
_QUANTITY = re.compile(r"[0-9]{1,9}")


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
        if _ANY_AMOUNT.fullmatch(text):  # a number, but not an amount any download can carry
            shown = text if len(text) <= 24 else text[:24] + "…"
            return None, (f'valor fora do alcance: coluna "{column}" = "{shown}" tem mais de {AMOUNT_DIGITS} dígitos '
                          "antes da vírgula ou mais de 6 depois")
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
    SEVERAL_FILES: ClassVar[bool] = True  # ingest takes several files (the monthly ones) into one package
    BULK: ClassVar[bool] = True  # False: one file through the per-row loop of Adapter.run (what tests compare with)

    @classmethod
    def run(cls, path, out, schema=None, options=None):
        """Convert the export at ``path``, or the exports at a list of paths, into one package by :func:`.bulk.run`;
        with ``BULK`` off, one export by the loop of :meth:`Adapter.run <.base.Adapter.run>`."""
        if not cls.BULK and isinstance(path, (str, os.PathLike)):
            return super().run(path, out, schema, options)
        from . import bulk  # DuckDB, imported by the ingest that uses it

        return bulk.run(cls, path, out, schema, options)

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
        if not _QUANTITY.fullmatch(text):
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

    # --- the same steps in bulk (pipeline/adapters/bulk.py) -----------------------------------------

    LOOKED_UP = 6  # the months, places and service types: few distinct values, each read once by ``lookup``
    LOOKUP_FIELDS = ("mes", "municipio", "uf")

    @staticmethod
    def lookup(value: str) -> tuple[str | None, str | None, str | None]:
        """What ``months`` and ``places`` read in a value: its month, its municipality and UF (None: not one)."""
        municipio, uf = parse_place(value) or (None, None)
        return parse_month(value, "")[0], municipio, uf

    @classmethod
    def bulk_query(cls) -> str:
        """SQL: the rows of ``cur`` (a file's rows: ``line``, the cells ``c0``-``c8`` as read, NULL for empty)
        checked and converted as the steps check and convert them, in the columns :func:`.bulk.check` wants:
        ``line``; the row's key, ``k0``-``k8`` (each cell with its spaces folded, or the number ``fid`` of that
        text); ``blank``; ``bad`` (a step rejects the row); ``look`` (a cell Python must search for text
        damaged by a wrong encoding); the fields of ``bilhetes``. The first six columns come from table
        ``lookup`` (``lookup`` of each value); quantities and amounts are matched with ``amounts``' own
        patterns, a cell without spaces first, and converted as it converts them (``float``, then ``repr``)."""
        from .bulk import WHITESPACE, fullmatch, squeeze_spaces, strip

        joins = " ".join(f"JOIN lookup m{i} ON m{i}.v = coalesce(cur.c{i}, '')" for i in range(cls.LOOKED_UP))
        patterns = {6: f"(?:{_AMOUNT.pattern})?", 7: f"(?:{_AMOUNT.pattern})?", 8: _QUANTITY.pattern}  # amounts: or empty
        money = "CAST(CAST(replace(replace({}, '.', ''), ',', '.') AS DOUBLE) AS VARCHAR)"
        return f"""
            WITH cells AS (
                SELECT cur.line, {", ".join(f"m{i}.fid AS k{i}" for i in range(6))},
                       {" AND ".join(f"m{i}.blank" for i in range(6))} AS blank6,
                       {" OR ".join(f"m{i}.damaged" for i in range(6))} AS damaged,
                       m1.mes AS mes_viagem, m0.mes AS mes_emissao, m2.municipio AS origem_municipio,
                       m2.uf AS origem_uf, m3.municipio AS destino_municipio, m3.uf AS destino_uf,
                       m4.folded AS tipo_servico, m5.folded AS tipo_gratuidade,
                       {", ".join(f"coalesce(cur.c{i}, '') AS c{i}" for i in patterns)}
                FROM cur {joins}
            ), plain AS (
                SELECT *, {", ".join(f"{fullmatch(f'c{i}', p)} AS p{i}" for i, p in patterns.items())} FROM cells
            ), stripped AS (
                SELECT *, {", ".join(f"CASE WHEN p{i} THEN c{i} ELSE {strip(f'c{i}')} END AS s{i}" for i in patterns)}
                FROM plain
            ), checked AS (
                SELECT *, {", ".join(f"CASE WHEN p{i} THEN true ELSE {fullmatch(f's{i}', p)} END AS ok{i}" for i, p in patterns.items())}
                FROM stripped
            )
            SELECT line, k0, k1, k2, k3, k4, k5,
                   {", ".join(f"CASE WHEN p{i} THEN c{i} ELSE {squeeze_spaces(f'c{i}')} END AS k{i}" for i in patterns)},
                   blank6 AND {" AND ".join(fullmatch(f'c{i}', f'{WHITESPACE}*') for i in patterns)} AS blank,
                   mes_viagem IS NULL OR mes_emissao IS NULL OR origem_uf IS NULL OR destino_uf IS NULL
                       OR NOT (ok6 AND ok7 AND ok8) AS bad,
                   damaged OR NOT (ok6 AND ok7 AND ok8) AS look,
                   mes_viagem, mes_emissao, origem_municipio, origem_uf, destino_municipio, destino_uf,
                   tipo_servico, tipo_gratuidade,
                   CASE WHEN ok8 THEN CAST(CAST(s8 AS INTEGER) AS VARCHAR) END AS quantidade,
                   CASE WHEN ok6 AND s6 <> '' THEN {money.format('s6')} END AS valor_medio,
                   CASE WHEN ok7 AND s7 <> '' THEN {money.format('s7')} END AS valor_desvio_padrao
            FROM checked"""


def _money(value: float | None) -> str | None:
    return None if value is None else repr(value)  # as published: the downloads show two decimals
