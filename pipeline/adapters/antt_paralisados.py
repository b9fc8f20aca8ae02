"""SIGMA's paralysed services ("Serviços Paralisados") -> transportadoras, linhas, paralisacoes.

The sections header with ``data_paralisacao`` at the end: one row per section of a line the regulator
publishes as paralysed, with the date. Dates were reported as ``MM/DD/YYYY`` in some rows (which ones is
not documented): the file is surveyed first (``common.parse_date_either``). Records of the regime that
replaced Decreto nº 952/1993: the date is published as stated, no rule of the decree applies to it.
"""

from __future__ import annotations

from .antt_linhas_secoes import HEADER, LineSteps
from .base import Layout, Row
from .common import parse_date_either

NAME = "antt-servicos-paralisados"
TITLE = "Serviços paralisados"


class Paralysed(LineSteps):
    """One row per paralysed section -> transportadoras, linhas, paralisacoes."""

    NAME = NAME
    TITLE = TITLE
    PRINCIPAL = "paralisacoes"
    LAYOUTS = (Layout("SIGMA (2025-)", (*HEADER, "data_paralisacao")),)
    STEPS = ("ambit", "places", "authorisation", "since")
    MIXED_DATES = ("data_paralisacao",)

    def since(self, row: Row) -> str | None:
        row.values["data"], why = parse_date_either(row.cells["data_paralisacao"], "data_paralisacao",
                                                    self.mixed["data_paralisacao"])
        if why is None and not row.values["data"]:
            why = 'data da paralisação ausente: coluna "data_paralisacao" vazia'
        return why

    def keep(self, row: Row) -> None:
        s = row.values["secao"]
        key = (row.prefixo, s["origem_municipio"], s["origem_uf"], s["destino_municipio"], s["destino_uf"],
               row.values["data"])
        self.add_line(row)
        new = {"linha_prefixo": row.prefixo, "transportadora_cnpj": row.cnpj, **s, "data_paralisacao": row.values["data"],
               "tipo_servico": row.cells["tipo_servico"].strip(), "tipo_autorizacao": row.values["tipo_autorizacao"]}
        self.keep_once(row, key, new, ("tipo_servico", "tipo_autorizacao", "transportadora_cnpj"),
                       "a mesma seção paralisada na mesma data já foi lida")

    def tables(self) -> dict[str, list[dict]]:
        return {**self.line_tables(), "paralisacoes": self.kept()}
