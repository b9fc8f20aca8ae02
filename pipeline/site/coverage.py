"""What a page may say about a table: its rows; "none in the source <name>"; or "the sources of this
site do not include it" (data contract, "Coverage and provenance"). A page never turns a table that no
source covers into "nenhum", zero or a finding."""

from __future__ import annotations

from dataclasses import dataclass

from ..read.provenance import UNDECLARED, Source

# table -> (what "none" reads as, in the singular, gendered; what the table holds, in the plural)
PHRASES = {
    "transportadoras": ("Nenhuma transportadora registrada", "transportadoras"),
    "linhas": ("Nenhuma linha registrada", "linhas"),
    "secoes": ("Nenhuma seção registrada", "seções das linhas"),
    "horarios": ("Nenhum horário registrado", "quadros de horários"),
    "outorgas": ("Nenhuma outorga registrada", "outorgas (permissões e autorizações)"),
    "tarifas": ("Nenhuma tarifa máxima registrada", "tarifas máximas"),
    "tarifas_promocionais": ("Nenhuma tarifa promocional registrada", "tarifas promocionais"),
    "infracoes": ("Nenhum auto de infração registrado", "autos de infração"),
    "caducidades": ("Nenhuma caducidade registrada", "caducidades"),
    "enquadramentos": ("Nenhum enquadramento registrado", "enquadramentos do art. 78"),
    "habilitacoes": ("Nenhuma habilitação registrada", "empresas habilitadas (Termos de Autorização)"),
    "historico_linhas": ("Nenhum registro de histórico", "históricos das linhas"),
    "paralisacoes": ("Nenhuma paralisação registrada", "serviços paralisados"),
    "paradas": ("Nenhuma parada registrada", "esquemas operacionais (paradas das linhas)"),
    "bilhetes": ("Nenhum bilhete registrado", "bilhetes vendidos (Monitriip)"),
}


@dataclass(frozen=True)
class Coverage:
    """Which sources supply each table, and the sentences pages use for it."""

    sources: dict[str, Source]  # id -> source, in the build's order
    tables: dict[str, list[str]]  # table -> ids of the sources that supply it

    def covered(self, table: str) -> bool:
        return bool(self.tables.get(table))

    def sources_for(self, table: str, ids=None) -> list[Source]:
        """The sources of the rows given (their ``fonte`` ids) or, with none, of the whole table."""
        wanted = [i for i in dict.fromkeys(ids or []) if i in self.sources] or self.tables.get(table, [])
        return [self.sources[i] for i in wanted]

    @staticmethod
    def _name(s: Source) -> str:
        return s.nome_com_data

    def label(self, table: str, ids=None) -> str:
        """"ANTT, Quadro de horários 2021 (dados de 2021)"; several sources joined by "; "; a folder that
        declares no source reads "fonte não declarada (pasta x)"."""
        return "; ".join(self._name(s) for s in self.sources_for(table, ids))

    def label_ids(self, ids) -> str:
        """The sources named by their ids (a row of ``inconsistencias``), joined by "; "."""
        return "; ".join(self._name(self.sources[i]) for i in dict.fromkeys(ids) if i in self.sources)

    def absence(self, table: str, target: str) -> str:
        """The sentence for a record with no rows of ``table``: "none for <target> in the source X"
        when a source covers the table, else "the sources of this site do not include it"."""
        none, plural = PHRASES[table]
        if not self.covered(table):
            return f"As fontes deste site não incluem {plural}."
        sources = self.sources_for(table)
        if len(sources) == 1 and not sources[0].declarada:
            return f"{none} para {target} na pasta {sources[0].pasta} ({UNDECLARED})."
        where = "na fonte" if len(sources) == 1 else "nas fontes"
        return f"{none} para {target} {where} {self.label(table)}."

    def not_included(self, table: str) -> str:
        return f"As fontes deste site não incluem {PHRASES[table][1]}."
