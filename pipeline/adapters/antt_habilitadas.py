"""The regulator's licensed carriers ("Empresas Habilitadas") -> transportadoras, habilitacoes.

One row per carrier licensed for the regular interstate and international service (with its Termo de
Autorização, TAR, and its validity) or for the semi-urban one. Three layouts are known
(../shared/spec/antt-layouts.md): the regular file of 2025 on, the semi-urban file, and the regular file
of 2021. The market is the file's: its header tells which. These are records of the regime that replaced
Decreto nº 952/1993: the validity is published as stated, no rule of the decree is applied to it.
"""

from __future__ import annotations

import numpy as np

from .base import Layout
from .columnar import (
    ColumnAdapter,
    Conflicts,
    IngestReport,
    Judged,
    Rule,
    carriers,
    folded,
    keep_once,
    key_order,
    line_rules,
)
from .common import parse_date_br

NAME = "antt-empresas-habilitadas"
TITLE = "Empresas habilitadas"

REGULAR = Layout("regular (2025-)", ("razao_social", "cnpj", "numero_tar", "vigencia"))
SEMIURBAN = Layout("semiurbano", ("cnpj", "razao_social", "validade_habilitacao", "situacao_empresa"),
                   {"validade_habilitacao": "vigencia", "situacao_empresa": "situacao"})
REGULAR_2021 = Layout("regular (2021)", ("razao_social", "cnpj", "regime", "situacao", "modalidade", "validade"),
                      {"validade": "vigencia"})
MARKETS = {REGULAR.label: "regular", SEMIURBAN.label: "semiurbano", REGULAR_2021.label: "regular"}


class LicensedCarriers(ColumnAdapter):
    """One row per licensed carrier -> transportadoras (the carriers, those with no line included) and
    habilitacoes (market, TAR, validity, situation)."""

    NAME = NAME
    TITLE = TITLE
    PRINCIPAL = "habilitacoes"
    LAYOUTS = (REGULAR, SEMIURBAN, REGULAR_2021)

    def rules(self) -> list[Rule]:
        shown = self.layout.columns[self.layout.names.index("vigencia")]  # the column as the file names it

        def validity(text: str):
            value, why = parse_date_br(text, shown)
            return (value,), why
        return [*line_rules(self.schema, lines=False), Rule("validity", ("vigencia",), ("vigencia",), validity),
                *(folded(c) for c in ("numero_tar", "situacao", "regime", "modalidade") if c in self.layout.names)]

    def keep(self, judged: Judged, report: IngestReport) -> dict:
        v, lines, conflicts, n = judged.values, judged.rows.row_numbers, Conflicts(), len(judged.rows)
        transportadoras = carriers(report, conflicts, v["cnpj"], v["razao_social"], lines)
        record = {"transportadora_cnpj": v["cnpj"], "mercado": np.full(n, MARKETS[self.layout.label], dtype=object),
                  **{c: v.get(c, np.full(n, "", dtype=object)) for c in ("numero_tar", "vigencia", "situacao",
                                                                         "regime", "modalidade")}}
        # one market a file: the cnpj is the key
        kept = keep_once(report, conflicts, lines, [v["cnpj"]], [(c, record[c]) for c in ("numero_tar", "vigencia", "situacao")],
                         self.PRINCIPAL, "a mesma transportadora já foi lida neste arquivo", lambda x: x or "", first_order=1)
        conflicts.report(report)
        kept = kept[key_order([v["cnpj"][kept]])]
        return {"transportadoras": transportadoras, "habilitacoes": ({k: c[kept] for k, c in record.items()}, len(kept))}
