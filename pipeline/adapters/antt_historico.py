"""SIGMA's line history ("Histórico de Linhas") -> transportadoras, linhas, historico_linhas.

One row per event the regulator recorded of a line: date, protocol, description (the source spells its
column ``decricao_historico``), the service's situation. Dates were reported as ``MM/DD/YYYY`` in some
rows (which ones is not documented): the file is surveyed first (``common.parse_date_either``). Records
of the regime that replaced Decreto nº 952/1993: no rule of the decree applies to them.
"""

from __future__ import annotations

from .antt_linhas_secoes import LineRules
from .base import Layout
from .columnar import Conflicts, IngestReport, Judged, Rule, folded, keep_once, key_order, line_rules
from .common import parse_date_either

NAME = "antt-historico-linhas"
TITLE = "Histórico de linhas"
HEADER = ("cnpj", "razao_social", "data_autorizacao", "prefixo", "descricao_linha", "tipo_servico", "outorga_secao",
          "data_atualizacao", "protocolo_historico", "decricao_historico", "situacao_servico", "ambito_linha")


class History(LineRules):
    """One row per recorded event of a line -> transportadoras, linhas, historico_linhas."""

    NAME = NAME
    TITLE = TITLE
    PRINCIPAL = "historico_linhas"
    LAYOUTS = (Layout("SIGMA (2025-)", HEADER, {"decricao_historico": "descricao_historico"}),)
    MIXED_DATES = ("data_atualizacao", "data_autorizacao")

    def rules(self) -> list[Rule]:
        def date_of(column: str) -> Rule:
            def judge(text: str):
                day, why = parse_date_either(text, column, self.mixed[column])
                return (day,), why
            return Rule(column, (column,), (column,), judge)

        def recorded(text: str):
            return (), None if text.strip() else 'data do registro ausente: coluna "data_atualizacao" vazia'

        def protocol(folded: str):
            return (folded,), None if folded else 'protocolo ausente: coluna "protocolo_historico" vazia'

        return [*line_rules(self.schema), self.ambit(), self.authorisation(),
                *(date_of(c) for c in self.MIXED_DATES), Rule("recorded", ("data_atualizacao",), (), recorded),
                Rule("protocol", ("protocolo_historico",), ("protocolo",), protocol, folded=True), self.service(),
                folded("descricao_historico"), folded("situacao_servico")]

    def keep(self, judged: Judged, report: IngestReport) -> dict:
        v, lines, conflicts = judged.values, judged.rows.row_numbers, Conflicts()
        tables, _, _ = self.line_tables(judged, report, conflicts)
        keys = [v["prefixo"], v["protocolo"], v["data_atualizacao"]]
        kept = keep_once(report, conflicts, lines, keys,
                         [("descricao", v["descricao_historico"]), ("situacao_servico", v["situacao_servico"])],
                         self.PRINCIPAL, "o mesmo registro (linha, protocolo, data) já foi lido", lambda x: x or "")
        conflicts.report(report)
        kept = kept[key_order([k[kept] for k in keys])]
        table = {"linha_prefixo": v["prefixo"][kept], "transportadora_cnpj": v["cnpj"][kept],
                 "data_atualizacao": v["data_atualizacao"][kept], "protocolo": v["protocolo"][kept],
                 "descricao": v["descricao_historico"][kept], "situacao_servico": v["situacao_servico"][kept],
                 "tipo_servico": v["tipo_servico"][kept], "tipo_autorizacao": v["tipo_autorizacao"][kept],
                 "data_autorizacao": v["data_autorizacao"][kept]}
        return {**tables, "historico_linhas": (table, len(kept))}
