"""What a page may say about a table: its rows; "none in the source <name>"; or "the sources of this
site do not include it" (data contract, "Coverage and provenance"). A page never turns a table that no
source covers into "nenhum", zero or a finding, and its title, summary (``<meta name="description">``) and
introduction name only what the sources cover (:meth:`Coverage.listing`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..contract.spelling import join
from ..read.provenance import REVOKED, UNDECLARED, Source, regime_phrase, regime_sentence, table_regimes
from .record import Rows

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

# table -> how a title, a summary or an introduction names its records: a plural noun in lower case
NOUNS = {
    "transportadoras": "transportadoras",
    "linhas": "linhas",
    "secoes": "seções",
    "horarios": "horários",
    "outorgas": "outorgas",
    "tarifas": "tarifas máximas",
    "tarifas_promocionais": "promoções",
    "infracoes": "infrações",
    "caducidades": "caducidades",
    "enquadramentos": "enquadramentos",
    "habilitacoes": "habilitações",
    "historico_linhas": "históricos das linhas",
    "paralisacoes": "paralisações",
    "paradas": "paradas",
    "bilhetes": "bilhetes vendidos",
}

# What the whole site holds, in the order its subtitle names it (the home page, the default summary)
SITE_TABLES = ("linhas", "horarios", "tarifas", "transportadoras", "outorgas", "tarifas_promocionais",
               "infracoes", "caducidades")
# After a title whose subject is a table no source covers (its index, its data dictionary)
OUTSIDE = "fora das fontes deste site"


def named(sources) -> str:
    """How a page names several sources: each as ``Source.nome_com_data`` ("ANTT — Agência Nacional de Transportes
    Terrestres, Quadro de horários 2026 (dados de 09/2026)"), joined by "; ", but the sources of one publisher
    named once, at the first of them, their titles joined ("ANTT — …: Linhas e seções 2026 e Quadro de
    horários 2026 (dados de 09/2026)", one date when they share it, else each its own): the regulator's files,
    each naming the publisher again, made every page's sentence of sources a wall of text on a phone."""
    groups: dict[tuple, list[Source]] = {}
    for s in sources:
        alone = not (s.declarada and s.publicador and s.titulo)
        groups.setdefault(("fonte", id(s)) if alone else ("publicador", s.publicador), []).append(s)
    parts = []
    for group in groups.values():
        if len(group) == 1:
            parts.append(group[0].nome_com_data)
            continue
        dated = [(s.titulo, s.nome_com_data[len(s.rotulo):]) for s in group]  # " (dados de 09/2026)"
        if len({d for _, d in dated}) == 1:
            parts.append(f"{group[0].publicador}: {join([t for t, _ in dated])}{dated[0][1]}")
        else:
            parts.append(f"{group[0].publicador}: {join([t + d for t, d in dated])}")
    return "; ".join(parts)


@dataclass(frozen=True)
class Coverage:
    """Which sources supply each table, and the sentences pages use for it."""

    sources: dict[str, Source]  # id -> source, in the build's order
    tables: dict[str, list[str]]  # table -> ids of the sources that supply it
    # table -> the regime all its records belong to, when the schema says (pipeline/contract/schema.py ``regime``)
    table_regimes: dict[str, str] = field(default_factory=dict)
    # (table, ids) -> label: the same few sentences on every page of a kind
    _labels: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    def covered(self, table: str) -> bool:
        return bool(self.tables.get(table))

    def sources_for(self, table: str, ids=None) -> list[Source]:
        """The sources of the rows given (their ``fonte`` ids) or, with none, of the whole table."""
        wanted = [i for i in dict.fromkeys(ids or []) if i in self.sources] or self.tables.get(table, [])
        return [self.sources[i] for i in wanted]

    def label(self, table: str, ids=None) -> str:
        """"ANTT, Quadro de horários 2021 (dados de 2021)"; several sources named together (:func:`named`); a
        folder that declares no source reads "fonte não declarada (pasta x)"."""
        key = (table, tuple(dict.fromkeys(ids or ())))
        text = self._labels.get(key)
        if text is None:
            text = self._labels[key] = named(self.sources_for(table, key[1]))
        return text

    def label_of(self, table: str, rows=None) -> str:
        """:meth:`label` of the sources of ``rows`` (records with a ``fonte``, or a :class:`~.record.Rows`,
        whose column is read without making its records), or of the whole table when there are none."""
        if not rows:
            return self.label(table)
        if isinstance(rows, Rows):
            return self.label(table, rows.values("fonte"))
        return self.label(table, [r.get("fonte") if isinstance(r, dict) else getattr(r, "fonte", None) for r in rows])

    def label_ids(self, ids) -> str:
        """The sources named by their ids (a row of ``inconsistencias``), together (:func:`named`)."""
        return named([self.sources[i] for i in dict.fromkeys(ids) if i in self.sources])

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

    def listing(self, *tables: str, capital: bool = False) -> str:
        """The covered ones among ``tables`` (all, with none named), named and joined ("horários, tarifas
        máximas e infrações"): all that a title, a summary or an introduction may promise; "" when no
        source covers any."""
        text = join([NOUNS[t] for t in tables or NOUNS if self.covered(t)])
        return text[:1].upper() + text[1:] if capital else text

    def missing(self, *tables: str, conjunction: str = "e") -> str:
        """The others: those among ``tables`` (all, with none named) that no source covers, joined."""
        return join([NOUNS[t] for t in tables or NOUNS if not self.covered(t)], conjunction)

    def regimes(self) -> dict[str, set[str]]:
        """Each covered table's regimes (pipeline/read/provenance.py ``regimes_of``): the schema's, else its
        sources' declared ones."""
        return table_regimes({name: ids for name, ids in self.tables.items() if name in NOUNS}, self.table_regimes,
                             {i: s.regime for i, s in self.sources.items()})

    def regime_text(self) -> str:
        """What every page says of the regime of its records, per table where they differ, and of the
        decree's revocation (:data:`REVOKED` alone when no source says which regime its records are of)."""
        return regime_sentence(self.regimes(), NOUNS) or REVOKED

    def subtitle(self) -> str:
        """The site's summary, of what its sources cover and of which regime: "Linhas, horários e
        transportadoras: registros do regime que substituiu o Decreto nº 952/1993" for ANTT's 2021 timetable
        alone (pelican.conf.py ``SITESUBTITLE`` when there are no data)."""
        listing, phrase = self.listing(*SITE_TABLES, capital=True) or "Registros", regime_phrase(self.regimes())
        return f"{listing}: {phrase}" if phrase else listing

    def outside(self, table: str) -> str:
        """" (fora das fontes deste site)" after a title whose subject is ``table`` when no source covers
        it; "" when one does."""
        return "" if self.covered(table) else f" ({OUTSIDE})"

    @staticmethod
    def join(items, conjunction: str = "e") -> str:
        """:func:`join`, for the templates."""
        return join(items, conjunction)
