"""SIGMA's operational scheme ("Pontos do Esquema Operacional") -> transportadoras, linhas, paradas.

One row per stop of a line's itinerary, in order, per vehicle type: ANTT's stop code and name
(``GO00105 TERMINAL RODOVIÁRIO DE ANÁPOLIS``), the municipality as ``Município - UF``, and ``Sim``/``Não``
flags (section point, support, snack, meal, driver change, vehicle change). The file holds only section
points. Records of the regime that replaced Decreto nº 952/1993: no rule of the decree applies to them.
"""

from __future__ import annotations

import re

from .base import Layout
from .columnar import (
    ColumnAdapter,
    Conflicts,
    IngestReport,
    Judged,
    Rule,
    keep_once,
    key_order,
    line_rules,
    line_tables,
    per_text,
)
from .common import fold_code, parse_place

NAME = "antt-pontos-esquema-operacional"
TITLE = "Pontos do esquema operacional"
HEADER = ("cnpj", "razao_social", "data_autorizacao", "prefixo", "descricao_linha", "tipo_veiculo",
          "sequencia_ponto_linha", "nome_ponto_parada", "municipio_uf", "secao", "apoio", "lanche", "refeicao",
          "troca_de_motorista", "troca_de_veiculo")
FLAGS = {"secao": "secao", "apoio": "apoio", "lanche": "lanche", "refeicao": "refeicao",
         "troca_de_motorista": "troca_de_motorista", "troca_de_veiculo": "troca_de_veiculo"}  # source -> paradas
YES_NO = {"SIM": True, "NAO": False}
_STOP = re.compile(r"(?P<codigo>[A-Z]{2}\d{5})\s+(?P<nome>\S.*)")


def vehicle(text: str):
    folded = " ".join(text.split())
    return (folded,), None if folded else 'tipo de veículo ausente: coluna "tipo_veiculo" vazia'


def sequence(text: str):
    text = text.strip()
    if not re.fullmatch(r"[0-9]{1,4}", text) or int(text) < 1:
        return None, f'sequência ilegível: coluna "sequencia_ponto_linha" = "{text}" não é um número inteiro maior que zero'
    return (int(text),), None


def stop(text: str):
    m = _STOP.fullmatch(" ".join(text.split()))
    if not m:
        return None, (f'parada ilegível: coluna "nome_ponto_parada" = "{text}" não começa pelo '
                      "código ANTT da parada (UF e cinco algarismos, como GO00105)")
    return (m["codigo"], m["nome"]), None


def place(text: str):
    found = parse_place(text, ("Município - UF",))
    if found is None:
        return None, f'município ilegível: coluna "municipio_uf" = "{text}" não está no formato Município - UF'
    return found, None


def flag(column: str) -> Rule:
    def judge(text: str):
        value = YES_NO.get(fold_code(text))
        if value is None:
            return None, f'marcação ilegível: coluna "{column}" = "{text}" (esperado Sim ou Não)'
        return (value,), None
    return Rule(column, (column,), (FLAGS[column],), judge)


class Stops(ColumnAdapter):
    """One row per stop -> transportadoras, linhas (ambit interstate unless a country is at an end),
    paradas."""

    NAME = NAME
    TITLE = TITLE
    PRINCIPAL = "paradas"
    LAYOUTS = (Layout("SIGMA (2025-)", HEADER),)

    def rules(self) -> list[Rule]:
        return [*line_rules(self.schema), Rule("vehicle", ("tipo_veiculo",), ("tipo_veiculo",), vehicle),
                Rule("sequence", ("sequencia_ponto_linha",), ("sequencia",), sequence),
                Rule("stop", ("nome_ponto_parada",), ("codigo_parada", "nome_parada"), stop),
                Rule("place", ("municipio_uf",), ("municipio", "uf"), place), *(flag(c) for c in FLAGS)]

    def keep(self, judged: Judged, report: IngestReport) -> dict:
        v, lines, conflicts = judged.values, judged.rows.row_numbers, Conflicts()
        ambito = per_text(v["ends"], lambda ends: "internacional" if ends.international else "interestadual")
        tables, _, _ = line_tables(report, conflicts, judged, ambito,
                                   [("descricao_linha", v["descricao_linha"]), ("cnpj", v["cnpj"])])
        keys = [v["prefixo"], v["tipo_veiculo"], v["sequencia"]]
        kept = keep_once(report, conflicts, lines, keys,
                         [("codigo_parada", v["codigo_parada"]), ("municipio", v["municipio"])], self.PRINCIPAL,
                         "a mesma posição do itinerário já foi lida", lambda x: x or "")
        conflicts.report(report)
        kept = kept[key_order([k[kept] for k in keys])]
        table = {"linha_prefixo": v["prefixo"][kept], "transportadora_cnpj": v["cnpj"][kept],
                 **{k: v[k][kept] for k in ("tipo_veiculo", "sequencia", "codigo_parada", "nome_parada", "municipio",
                                            "uf", *FLAGS.values())}}
        return {**tables, "paradas": (table, len(kept))}
