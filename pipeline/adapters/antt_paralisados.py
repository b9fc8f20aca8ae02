"""SIGMA's paralysed services ("Serviços Paralisados") -> transportadoras, linhas, paralisacoes.

The sections header with ``data_paralisacao`` at the end: one row per section of a line the regulator
publishes as paralysed, with the date. Dates were reported as ``MM/DD/YYYY`` in some rows (which ones is
not documented): the file is surveyed first (``common.parse_date_either``). Records of the regime that
replaced Decreto nº 952/1993: the date is published as stated, no rule of the decree applies to it.
"""

from __future__ import annotations

from .antt_linhas_secoes import HEADER, SECTION, LineRules
from .base import Layout
from .columnar import Conflicts, IngestReport, Judged, Rule, keep_once, key_order, line_rules
from .common import parse_date_either

NAME = "antt-servicos-paralisados"
TITLE = "Serviços paralisados"


class Paralysed(LineRules):
    """One row per paralysed section -> transportadoras, linhas, paralisacoes."""

    NAME = NAME
    TITLE = TITLE
    PRINCIPAL = "paralisacoes"
    LAYOUTS = (Layout("SIGMA (2025-)", (*HEADER, "data_paralisacao")),)
    MIXED_DATES = ("data_paralisacao",)

    def rules(self) -> list[Rule]:
        def since(text: str):
            day, why = parse_date_either(text, "data_paralisacao", self.mixed["data_paralisacao"])
            if why is None and not day:
                why = 'data da paralisação ausente: coluna "data_paralisacao" vazia'
            return (day,), why
        return [*line_rules(self.schema), self.ambit(), *self.places(), self.authorisation(),
                Rule("since", ("data_paralisacao",), ("data_paralisacao",), since), self.service()]

    def keep(self, judged: Judged, report: IngestReport) -> dict:
        v, lines, conflicts = judged.values, judged.rows.row_numbers, Conflicts()
        tables, _, _ = self.line_tables(judged, report, conflicts)
        keys = [v["prefixo"], *(v[c] for c in SECTION), v["data_paralisacao"]]
        kept = keep_once(report, conflicts, lines, keys,
                         [("tipo_servico", v["tipo_servico"]), ("tipo_autorizacao", v["tipo_autorizacao"]),
                          ("transportadora_cnpj", v["cnpj"])], self.PRINCIPAL,
                         "a mesma seção paralisada na mesma data já foi lida", lambda x: x or "")
        conflicts.report(report)
        kept = kept[key_order([k[kept] for k in keys])]
        table = {"linha_prefixo": v["prefixo"][kept], "transportadora_cnpj": v["cnpj"][kept],
                 **{c: v[c][kept] for c in (*SECTION, "data_paralisacao", "tipo_servico", "tipo_autorizacao")}}
        return {**tables, "paralisacoes": (table, len(kept))}
