"""SIGMA's operational scheme ("Pontos do Esquema Operacional") -> transportadoras, linhas, paradas.

One row per stop of a line's itinerary, in order, per vehicle type: ANTT's stop code and name
(``GO00105 TERMINAL RODOVIÁRIO DE ANÁPOLIS``), the municipality as ``Município - UF``, and ``Sim``/``Não``
flags (section point, support, snack, meal, driver change, vehicle change). The file holds only section
points. Records of the regime that replaced Decreto nº 952/1993: no rule of the decree applies to them.
"""

from __future__ import annotations

import re

from .base import Adapter, Layout, Row
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


class Stops(Adapter):
    """One row per stop -> transportadoras, linhas (ambit interstate unless a country is at an end),
    paradas."""

    NAME = NAME
    TITLE = TITLE
    PRINCIPAL = "paradas"
    LAYOUTS = (Layout("SIGMA (2025-)", HEADER),)
    STEPS = ("vehicle", "sequence", "stop", "place", "flags")

    def vehicle(self, row: Row) -> str | None:
        row.values["tipo_veiculo"] = " ".join(row.cells["tipo_veiculo"].split())
        return None if row.values["tipo_veiculo"] else 'tipo de veículo ausente: coluna "tipo_veiculo" vazia'

    def sequence(self, row: Row) -> str | None:
        text = row.cells["sequencia_ponto_linha"].strip()
        if not re.fullmatch(r"[0-9]{1,4}", text) or int(text) < 1:
            return f'sequência ilegível: coluna "sequencia_ponto_linha" = "{text}" não é um número inteiro maior que zero'
        row.values["sequencia"] = int(text)
        return None

    def stop(self, row: Row) -> str | None:
        m = _STOP.fullmatch(" ".join(row.cells["nome_ponto_parada"].split()))
        if not m:
            return (f'parada ilegível: coluna "nome_ponto_parada" = "{row.cells["nome_ponto_parada"]}" não começa pelo '
                    "código ANTT da parada (UF e cinco algarismos, como GO00105)")
        row.values["codigo_parada"], row.values["nome_parada"] = m["codigo"], m["nome"]
        return None

    def place(self, row: Row) -> str | None:
        found = parse_place(row.cells["municipio_uf"], ("Município - UF",))
        if found is None:
            return (f'município ilegível: coluna "municipio_uf" = "{row.cells["municipio_uf"]}" não está no formato '
                    "Município - UF")
        row.values["municipio"], row.values["uf"] = found
        return None

    def flags(self, row: Row) -> str | None:
        for column, field in FLAGS.items():
            value = YES_NO.get(fold_code(row.cells[column]))
            if value is None:
                return f'marcação ilegível: coluna "{column}" = "{row.cells[column]}" (esperado Sim ou Não)'
            row.values[field] = value
        return None

    def keep(self, row: Row) -> None:
        key = (row.prefixo, row.values["tipo_veiculo"], row.values["sequencia"])
        self.carriers.add(row.cnpj, row.cells["razao_social"], row.n)
        descricao = " ".join(row.cells["descricao_linha"].split())
        self.lines.add(row.n, row.prefixo, row.ends, "internacional" if row.ends.international else "interestadual",
                       descricao_linha=descricao, cnpj=row.cnpj)
        new = {"linha_prefixo": row.prefixo, "transportadora_cnpj": row.cnpj,
               **{k: row.values[k] for k in ("tipo_veiculo", "sequencia", "codigo_parada", "nome_parada", "municipio",
                                             "uf", *FLAGS.values())}}
        self.keep_once(row, key, new, ("codigo_parada", "municipio"), "a mesma posição do itinerário já foi lida")

    def tables(self) -> dict[str, list[dict]]:
        return {"transportadoras": self.carriers.rows(),
                "linhas": [self.lines.rows[p] for p in sorted(self.lines.rows)], "paradas": self.kept()}
