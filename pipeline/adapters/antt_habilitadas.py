"""The regulator's licensed carriers ("Empresas Habilitadas") -> transportadoras, habilitacoes.

One row per carrier licensed for the regular interstate and international service (with its Termo de
Autorização, TAR, and its validity) or for the semi-urban one. Three layouts are known
(../shared/spec/antt-layouts.md): the regular file of 2025 on, the semi-urban file, and the regular file
of 2021. The market is the file's: its header tells which. These are records of the regime that replaced
Decreto nº 952/1993: the validity is published as stated, no rule of the decree is applied to it.
"""

from __future__ import annotations

from ..contract.schema import Schema
from .base import Adapter, Layout, Row
from .common import parse_date_br

NAME = "antt-empresas-habilitadas"
TITLE = "Empresas habilitadas"

REGULAR = Layout("regular (2025-)", ("razao_social", "cnpj", "numero_tar", "vigencia"))
SEMIURBAN = Layout("semiurbano", ("cnpj", "razao_social", "validade_habilitacao", "situacao_empresa"),
                   {"validade_habilitacao": "vigencia", "situacao_empresa": "situacao"})
REGULAR_2021 = Layout("regular (2021)", ("razao_social", "cnpj", "regime", "situacao", "modalidade", "validade"),
                      {"validade": "vigencia"})
MARKETS = {REGULAR.label: "regular", SEMIURBAN.label: "semiurbano", REGULAR_2021.label: "regular"}


class LicensedCarriers(Adapter):
    """One row per licensed carrier -> transportadoras (the carriers, those with no line included) and
    habilitacoes (market, TAR, validity, situation)."""

    NAME = NAME
    TITLE = TITLE
    PRINCIPAL = "habilitacoes"
    LAYOUTS = (REGULAR, SEMIURBAN, REGULAR_2021)
    STEPS = ("validity",)
    LINES = False

    def __init__(self, schema: Schema, report, layout: Layout):
        super().__init__(schema, report, layout)
        self.market = MARKETS[layout.label]

    def validity(self, row: Row) -> str | None:
        row.values["vigencia"], why = parse_date_br(row.cells["vigencia"], self.layout.columns[
            self.layout.names.index("vigencia")])
        return why

    def keep(self, row: Row) -> None:
        new = {"transportadora_cnpj": row.cnpj, "mercado": self.market,
               "numero_tar": " ".join(row.cells.get("numero_tar", "").split()),
               "vigencia": row.values["vigencia"],
               **{c: " ".join(row.cells.get(c, "").split()) for c in ("situacao", "regime", "modalidade")}}
        self.carriers.add(row.cnpj, row.cells["razao_social"], row.n)
        self.keep_once(row, (row.cnpj,), new, ("numero_tar", "vigencia", "situacao"),
                       "a mesma transportadora já foi lida neste arquivo")  # one market a file: the cnpj is the key

    def tables(self) -> dict[str, list[dict]]:
        return {"transportadoras": self.carriers.rows(), "habilitacoes": self.kept()}
