"""SIGMA's line history ("Histórico de Linhas") -> transportadoras, linhas, historico_linhas.

One row per event the regulator recorded of a line: date, protocol, description (the source spells its
column ``decricao_historico``), the service's situation. Dates were reported as ``MM/DD/YYYY`` in some
rows (which ones is not documented): the file is surveyed first (``common.parse_date_either``). Records
of the regime that replaced Decreto nº 952/1993: no rule of the decree applies to them.
"""

from __future__ import annotations

from .antt_linhas_secoes import LineSteps
from .base import Layout, Row
from .common import parse_date_either

NAME = "antt-historico-linhas"
TITLE = "Histórico de linhas"
HEADER = ("cnpj", "razao_social", "data_autorizacao", "prefixo", "descricao_linha", "tipo_servico", "outorga_secao",
          "data_atualizacao", "protocolo_historico", "decricao_historico", "situacao_servico", "ambito_linha")


class History(LineSteps):
    """One row per recorded event of a line -> transportadoras, linhas, historico_linhas."""

    NAME = NAME
    TITLE = TITLE
    PRINCIPAL = "historico_linhas"
    LAYOUTS = (Layout("SIGMA (2025-)", HEADER, {"decricao_historico": "descricao_historico"}),)
    STEPS = ("ambit", "authorisation", "dates", "protocol")
    MIXED_DATES = ("data_atualizacao", "data_autorizacao")

    def dates(self, row: Row) -> str | None:
        for column in self.MIXED_DATES:
            row.values[column], why = parse_date_either(row.cells[column], column, self.mixed[column])
            if why:
                return why
        if not row.values["data_atualizacao"]:
            return 'data do registro ausente: coluna "data_atualizacao" vazia'
        return None

    def protocol(self, row: Row) -> str | None:
        row.values["protocolo"] = " ".join(row.cells["protocolo_historico"].split())
        return None if row.values["protocolo"] else 'protocolo ausente: coluna "protocolo_historico" vazia'

    def keep(self, row: Row) -> None:
        key = (row.prefixo, row.values["protocolo"], row.values["data_atualizacao"])
        self.add_line(row)
        new = {"linha_prefixo": row.prefixo, "transportadora_cnpj": row.cnpj,
               "data_atualizacao": row.values["data_atualizacao"], "protocolo": row.values["protocolo"],
               "descricao": " ".join(row.cells["descricao_historico"].split()),
               "situacao_servico": " ".join(row.cells["situacao_servico"].split()),
               "tipo_servico": row.cells["tipo_servico"].strip(), "tipo_autorizacao": row.values["tipo_autorizacao"],
               "data_autorizacao": row.values["data_autorizacao"]}
        self.keep_once(row, key, new, ("descricao", "situacao_servico"), "o mesmo registro (linha, protocolo, data) já foi lido")

    def tables(self) -> dict[str, list[dict]]:
        return {**self.line_tables(), "historico_linhas": self.kept()}
