"""What the pages show: the derived tables arranged per record, built once for all generators.

The pages are made from the :class:`SiteData` the build hands over and from what the release stage hands
it as data, never from the files of earlier stages.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from functools import cached_property, partial

import numpy as np
import pandas as pd

from ..contract.identifiers import slugify
from ..contract.kinds import BY_NAME, RECORD_KINDS, RecordKind
from ..contract.schema import Schema
from ..derive import Derived
from ..legal import DECREE_PUBLICATION
from ..read.columns import numbered
from ..read.provenance import Source
from ..validate import Report
from . import notices, urls, verification
from .cities import arrange_cities, collation_key, tickets_by_pair
from .coverage import NOUNS, Coverage, join
from .filters import label, numero
from .indexes import lines_by_uf
from .record import Record, Rows, json_columns

# Infraction notices listed on a carrier's or a line's page (and in its JSON), the most recent first; the
# page gives the full count per group and links to every notice in /dados/, and the search finds any
# notice by its number. A longer list made most of a line's page, inside a collapsed <details>, and was
# the costliest part of the page stage's rendering at national scale.
RECENT_INFRACTIONS = 20


def _linked(row: dict, kind: str, key: str, **more) -> Record:
    """A record of a kind with its own page: its ``slug`` and its ``url`` (pipeline/site/urls.py)."""
    slug = slugify(key)
    return Record(row, slug=slug, url=urls.url(kind, slug=slug), **more)


def _in_order(kind: RecordKind, records) -> list[dict]:
    """The records of ``kind`` in its declared order (pipeline/contract/kinds.py ``order``, ``collated``)."""
    if not kind.order:
        return list(records)
    return sorted(records, key=lambda r: tuple(collation_key(r[f]) if f in kind.collated else r[f] for f in kind.order))


def _columns(df: pd.DataFrame) -> list[list]:
    """Each column's values as ``DataFrame.to_dict("records")`` gives them (numpy scalars as Python's,
    datetimes as Timestamps), converted a whole column at a time: much faster than to_dict, which boxes
    cell by cell (a noticeable part of the page stage at national scale)."""
    return [df[name].tolist() for name in df.columns]


def _records(df: pd.DataFrame) -> list[Record]:
    """The rows as records (:func:`_columns`' values)."""
    names = list(df.columns)
    return [Record(zip(names, values)) for values in zip(*_columns(df))]


def _among_recent(df: pd.DataFrame, keys: tuple[str, ...], n: int) -> np.ndarray:
    """The index of the rows of ``df`` that may be among the ``n`` most recent (``data_hora``) of their value
    of some column of ``keys``: each such owner's rows as recent as its ``n``-th, ties included. Ranked by the
    distinct times alone (numbers to numpy), so that only these rows are then sorted by time and number."""
    codes, times = pd.factorize(df["data_hora"], sort=False)
    if (codes < 0).any():  # a notice without a time (validation refuses one): every row
        return df.index
    rank = np.empty(len(times), dtype=np.int64)
    rank[np.argsort(np.asarray(times, dtype=object), kind="stable")[::-1]] = np.arange(len(times))
    age = rank[codes]  # 0: the most recent time
    keep = np.zeros(len(df), dtype=bool)
    for key in keys:
        owner = numbered(df[key].to_numpy(dtype=object))[0]
        by_owner = np.lexsort((age, owner))  # each owner's rows, the most recent first
        starts = np.flatnonzero(np.r_[True, owner[by_owner][1:] != owner[by_owner][:-1]])
        sizes = np.diff(np.r_[starts, len(by_owner)])
        limit = np.full(owner.max() + 1 if len(owner) else 0, np.iinfo(np.int64).max)
        full = sizes >= n
        limit[owner[by_owner[starts[full]]]] = age[by_owner[starts[full] + n - 1]]
        keep |= age <= limit[owner]
    return df.index[keep]


@dataclass(frozen=True)
class Tally:
    """What a page may say of how many results a set of rules gave (the findings, the inconsistencies
    between publications): a number only over the rules that ran, and the rules that could not run
    (an input table no source covers) named beside it; never "0" where no rule ran.

    ``lead`` (the number, or "não verificados") and ``rest`` read together: ``text``."""

    found: int
    rules: int  # how many rules there are
    unchecked: tuple[str, ...]  # the titles of those that could not run
    noun: tuple[str, str]  # ("achado", "achados")
    unverified: str  # the noun with "não verificados", capitalised: "Achados não verificados"
    cases_not_checked: int = 0  # cases the rules that ran could not judge (a licence with no validity)

    @property
    def checked(self) -> int:
        return self.rules - len(self.unchecked)

    @property
    def verified(self) -> bool:
        """At least one rule ran: there is a number to give."""
        return self.checked > 0

    @property
    def lead(self) -> str:
        return numero(self.found) if self.verified else self.unverified

    @property
    def missing(self) -> str:
        """"2 regras não verificadas: A; B" ("" when every rule ran)."""
        n = len(self.unchecked)
        if not n:
            return ""
        return f"{numero(n)} {'regra não verificada' if n == 1 else 'regras não verificadas'}: {'; '.join(self.unchecked)}"

    @property
    def rest(self) -> str:
        if not self.verified:
            return (f": {'a única regra' if self.rules == 1 else f'nenhuma das {numero(self.rules)} regras'} "
                    "pôde ser verificada com as fontes deste site")
        noun = self.noun[0] if self.found == 1 else self.noun[1]
        n = self.cases_not_checked
        cases = f"; {numero(n)} {'caso não verificado' if n == 1 else 'casos não verificados'}" if n else ""
        if not self.unchecked:
            return f" {noun} ({numero(self.checked)} de {numero(self.rules)} regras verificadas{cases})"
        where = "na única regra verificada" if self.checked == 1 else f"nas {numero(self.checked)} regras verificadas"
        return f" {noun} {where}{cases}; {self.missing}"

    @property
    def text(self) -> str:
        return self.lead + self.rest


@dataclass
class SiteData:
    """Per-record views of the published tables, plus the report and the published descriptor."""

    schema: Schema
    as_of: date
    report: Report
    descriptor: dict
    tables: dict[str, pd.DataFrame]
    # the records of each kind with a page (pipeline/contract/kinds.py), by the kind's name, in its declared order
    records: dict[str, list[dict]] = field(default_factory=dict)
    carriers_by_cnpj: dict[str, dict] = field(default_factory=dict)
    findings: list[dict] = field(default_factory=list)
    counts: dict[str, int | None] = field(default_factory=dict)  # None: no source covers the table
    coverage: Coverage | None = None
    unchecked: dict[str, list[str]] = field(default_factory=dict)  # finding rule -> uncovered inputs
    inconsistencies: list[dict] = field(default_factory=list)  # between the regulator's publications
    unchecked_inconsistencies: dict[str, list[str]] = field(default_factory=dict)  # their rules that could not run
    # each inconsistency rule that ran -> the cases it could not judge (derive/inconsistencies.py NotChecked)
    not_checked_inconsistencies: dict[str, list] = field(default_factory=dict)
    completeness: dict = field(default_factory=dict)
    decree_publication: date = DECREE_PUBLICATION
    lines_published: dict[str, dict[str, str]] = field(default_factory=dict)  # table -> key -> its CSV line
    # a page -> its feed of what changed of it (pipeline/release/routes.py): only pages with an entry
    record_feeds: dict[str, str] = field(default_factory=dict)
    # a table read in batches (pipeline/build/batches.py) -> its ``batches.Batched``: its count, its first rows and
    # its summary for the pages (tickets per pair and month); ``tables`` holds it empty
    batches: dict = field(default_factory=dict)

    @classmethod
    def build(cls, derived: Derived, schema: Schema, report: Report, descriptor: dict,
              lines: dict[str, dict[str, str]] | None = None) -> SiteData:
        """The pages' data; ``lines``: the published CSV line of each act with a verification code
        (``Published.lines``)."""
        data = cls(schema, derived.as_of, report, descriptor, derived.tables, lines_published=lines or {},
                   coverage=Coverage({s.id: s for s in report.sources}, report.coverage,
                                     {name: table.regime for name, table in schema.tables.items()}),
                   unchecked=derived.unchecked, completeness=derived.completeness,
                   unchecked_inconsistencies=derived.unchecked_inconsistencies,
                   not_checked_inconsistencies=derived.not_checked_inconsistencies,
                   batches=derived.batches)
        data._arrange()
        return data

    def rows(self, name: str) -> int:
        """The rows published of a table."""
        return self.batches[name].kept if name in self.batches else len(self.tables[name])

    def head(self, name: str):
        """A table's first rows (up to a thousand: the examples of its dictionary), None when unknown."""
        if name in self.batches:
            return self.batches[name].head
        df = self.tables.get(name)
        return df.head(1000) if df is not None else None

    def summary(self, name: str):
        """A table read in batches summed for the pages (pipeline/build/batches.py ``SUMMARIES``), None if not one."""
        return self.batches[name].summary if name in self.batches else None

    @cached_property
    def notice_keys(self) -> list[str]:
        """Each infraction's number as the search reduces it (once per process that asks)."""
        return notices.keys(self.tables["infracoes"]["numero_auto"])

    @cached_property
    def notice_job_codes(self):
        """What shares the notices among the jobs that write their files (``notices.job_codes``)."""
        return notices.job_codes(self.notice_keys, self.notice_digits)

    @property
    def notice_digits(self) -> int:
        """How many final characters of a notice's number name its file under ``/busca/autos/``."""
        return notices.suffix_length(len(self.tables["infracoes"]))

    @cached_property
    def lines_by_uf(self) -> dict[str, list[dict]]:
        """Each UF with the lines that start or end there, in pt-BR order (pipeline/site/indexes.py):
        the index pages and the filters' JSON both read it."""
        return lines_by_uf(self.records["linha"])

    @property
    def fictional(self) -> bool:
        """A source of the build is fictional: every page says so."""
        return self.report.fictional

    @property
    def sources(self) -> list[Source]:
        return list(self.report.sources)

    def covered(self, table: str) -> bool:
        return self.coverage.covered(table)

    @property
    def rules_checked(self) -> int:
        """How many finding rules ran (the others lack a covered input table)."""
        from ..derive.findings import RULES

        return len(RULES) - len(self.unchecked)

    @cached_property
    def findings_tally(self) -> Tally:
        """How many findings the pages may claim, and over which rules (the home page, /achados/, /dados/)."""
        from ..derive.findings import RULES

        return Tally(len(self.findings), len(RULES), tuple(r.titulo for r in RULES if r.slug in self.unchecked),
                     ("achado", "achados"), "Achados não verificados")

    @cached_property
    def inconsistencies_tally(self) -> Tally:
        """The same for the inconsistencies between the regulator's publications."""
        from ..derive.inconsistencies import RULES

        return Tally(len(self.inconsistencies), len(RULES),
                     tuple(r.titulo for r in RULES if r.slug in self.unchecked_inconsistencies),
                     ("inconsistência", "inconsistências"), "Inconsistências não verificadas",
                     sum(len(cases) for cases in self.not_checked_inconsistencies.values()))

    def not_checked_reasons(self, rule: str) -> list[tuple[str, int]]:
        """Why the cases of an inconsistency rule were not judged, each reason with its count, most first."""
        counts: dict[str, int] = {}
        for case in self.not_checked_inconsistencies.get(rule, []):
            counts[case.motivo] = counts.get(case.motivo, 0) + 1
        return sorted(counts.items(), key=lambda x: (-x[1], x[0]))

    @cached_property
    def verification_codes(self) -> int:
        """How many acts carry a verification code (art. 12; pipeline/site/verification.py): none when no
        source covers the tables of acts, or they have no rows."""
        return sum(1 for r in self.records["outorga"] + self.records["caducidade"] if r.get("codigo_verificacao"))

    @property
    def no_verification_codes(self) -> str:
        """Why /verificar/ can find no code in this build; "" when some act has one."""
        if self.verification_codes:
            return ""
        missing = [NOUNS[t] for t in verification.TABLES if not self.covered(t)]
        empty = [NOUNS[t] for t in verification.TABLES if self.covered(t)]
        if not empty:
            why = f"as fontes deste site não incluem {join(missing, 'nem')}, os atos que o trazem"
        elif not missing:
            why = f"não há {join(empty, 'nem')} nas fontes deste site"
        else:
            why = f"as fontes deste site não incluem {join(missing, 'nem')} e não trazem {join(empty, 'nem')}"
        return f"Nenhum ato desta versão dos dados tem código de verificação: {why}. Não há código a verificar aqui."

    def _arrange(self) -> None:
        t = self.tables

        def linked(kind: str, *lists: str) -> dict[str, Record]:
            """The records of a kind with a page (pipeline/contract/kinds.py), by key, each with its slug, its url and a
            new empty list under each name of ``lists``."""
            k = BY_NAME[kind]
            return {r[k.key]: _linked(r, kind, r[k.key], **{name: [] for name in lists}) for r in _records(t[k.table])}

        carriers, lines = linked("transportadora"), linked("linha")
        for d in list(carriers.values()) + list(lines.values()):
            d.update(achados=[], infracoes=[], infracoes_por_grupo={}, infracoes_total=0, linhas=[],
                     transportadoras=[], conflitos=[])
        outorgas = linked("outorga", "achados", "conflitos")
        caducidades = linked("caducidade", "achados", "conflitos")
        horarios = self.schema["horarios"]
        days = [(f["name"], f["title"][:3].lower()) for f in horarios.fields_in_group("dia_da_semana")]
        months = [(f["name"], f["title"].lower()) for f in horarios.fields_in_group("mes")]
        rows = {
            "outorgas": list(outorgas.values()),
            "caducidades": list(caducidades.values()),
            "tarifas": _records(t["tarifas"]),
            "secoes": _records(t["secoes"]),
            "horarios": [Record(r, dias=[short for day, short in days if r[day]],
                                meses=[name for m, name in months if r[m]], todos_os_dias=len(days),
                                todos_os_meses=len(months)) for r in _records(t["horarios"])],
            "tarifas_promocionais": [Record(r, achados=[]) for r in _records(t["tarifas_promocionais"])],
            "habilitacoes": _records(t["habilitacoes"]),
            "paralisacoes": _records(t["paralisacoes"]),
            "historico_linhas": _records(t["historico_linhas"]),
            "paradas": _records(t["paradas"]),
        }
        # the related records, through the schema's foreign keys (the infractions, half a million at
        # national scale, are counted and cut per page by _arrange_infractions instead)
        parents = {"transportadoras": carriers, "linhas": lines, "outorgas": outorgas}
        for table, records in rows.items():
            self._link(table, records, parents)
        operates = {(o["transportadora_cnpj"], o["linha_prefixo"]) for o in outorgas.values() if o["linha"]}
        operates |= set(zip(t["horarios"]["transportadora_cnpj"], t["horarios"]["linha_prefixo"]))
        for cnpj, prefixo in sorted(operates):
            carriers[cnpj]["linhas"].append(lines[prefixo])
            lines[prefixo]["transportadoras"].append(carriers[cnpj])
        promos = {p["protocolo"]: p for p in rows["tarifas_promocionais"]}
        self._arrange_infractions(carriers, lines)
        findings = self._arrange_findings(carriers, lines, outorgas, caducidades, promos)
        self.carriers_by_cnpj = carriers  # a line's infractions may name a carrier that no longer operates it
        made = {"transportadora": carriers, "linha": lines, "outorga": outorgas, "caducidade": caducidades}
        records = {name: _in_order(BY_NAME[name], made[name].values()) for name in made}
        self.findings = findings
        self._verification_codes({"outorgas": outorgas, "caducidades": caducidades})  # verification.TABLES
        records["cidade"] = arrange_cities(records["linha"], self.schema.weekdays,
                                           tickets_by_pair(self.summary("bilhetes")), self.coverage)
        self.records = {k.name: records[k.name] for k in RECORD_KINDS}  # in the declared order of the kinds
        self._arrange_conflicts({"linhas": lines, "transportadoras": carriers, "outorgas": outorgas,
                                 "caducidades": caducidades})
        counts = {
            "linhas": ("linhas", len(lines)),
            "transportadoras": ("transportadoras", len(carriers)),
            "outorgas": ("outorgas", len(outorgas)),
            "outorgas_vigentes": ("outorgas", sum(1 for o in outorgas.values() if o["situacao"] == "vigente")),
            "caducidades": ("caducidades", len(caducidades)),
            "tarifas": ("tarifas", len(t["tarifas"])),
            "promocoes": ("tarifas_promocionais", len(promos)),
            "infracoes": ("infracoes", len(t["infracoes"])),
            "horarios": ("horarios", len(t["horarios"])),
            "cidades": ("linhas", len(self.records["cidade"])),
        }
        self.counts = {k: (n if self.covered(table) else None) for k, (table, n) in counts.items()}
        self.counts["achados"] = len(findings)
        # inconsistencies between publications: each with the record it concerns (a line or a carrier)
        self.inconsistencies = [Record(r, linha=lines.get(r["chave"]) if r["tabela"] == "linhas" else None,
                                       transportadora=carriers.get(r["transportadora_cnpj"]))
                                for r in _records(t["inconsistencias"])]
        for d in list(carriers.values()) + list(lines.values()):
            d["inconsistencias"] = []
        for r in self.inconsistencies:  # on the page of the record it concerns
            concerned = r["linha"] if r["linha"] is not None else carriers.get(r["chave"]) \
                if r["tabela"] == "transportadoras" else None
            if concerned is not None:
                concerned["inconsistencias"].append(r)

    def _link(self, table: str, records: list[Record], parents: dict[str, dict]) -> None:
        """Each foreign key of ``table`` whose field is named ``<record>_<referenced field>``
        (``transportadora_cnpj`` -> ``transportadoras.cnpj``) gives each of ``records`` the record it
        refers to (``outorga.transportadora``; None where the key is empty, as an outorga without a line)
        and that record the list of them under the table's name (``transportadora.outorgas``)."""
        for fk in self.schema[table].foreign_keys:
            ref, field = fk.referenced, fk.field
            name = field.removesuffix("_" + fk.reference_field)
            if ref not in parents or name == field:  # enquadramento: a code of the law, no page of its own
                continue
            index = parents[ref]
            for parent in index.values():
                parent.setdefault(table, [])
            for rec in records:
                parent = index.get(rec[field]) if rec[field] else None
                rec[name] = parent
                if parent is not None:
                    parent[table].append(rec)

    def _verification_codes(self, tables: dict[str, dict]) -> None:
        """Art. 12: each act's ``codigo_verificacao``, from its line of the published CSV as the publish stage
        wrote it (``lines``; pipeline/site/verification.py)."""
        for name, records in tables.items():
            lines = self.lines_published.get(name, {})
            for key, rec in records.items():
                if key in lines:
                    rec["codigo_verificacao"] = verification.code(lines[key])

    def _arrange_conflicts(self, pages: dict[str, dict]) -> None:
        """Attach each conflict between sources to the page of its record and, through the schema's
        foreign keys, to the pages of the records it refers to (a fare's line, a promotion's carrier)."""
        for p in self.report.conflicts:
            table = self.schema[p.tabela]
            row = dict(zip(table.field_names, p.registro))
            targets = []
            if p.tabela in pages and table.primary_key:
                targets.append(pages[p.tabela].get(row.get(table.primary_key[0])))
            for fk in table.foreign_keys:
                if fk.referenced in pages and fk.referenced != p.tabela:
                    targets.append(pages[fk.referenced].get(row.get(fk.field)))
            for target in targets:
                if target is not None:
                    target["conflitos"].append(p)

    def _arrange_infractions(self, carriers: dict, lines: dict) -> None:
        """Counts per group of art. 78 and the most recent notices, per carrier and per line."""
        inf = self.tables["infracoes"]
        if inf.empty:
            return
        recent = {}
        for key, owners in (("transportadora_cnpj", carriers), ("linha_prefixo", lines)):
            pairs = inf[[key, "grupo"]]
            if key == "linha_prefixo":
                pairs = pairs[pairs[key].astype(bool)]
            for (owner, grupo), n in pairs.groupby([key, "grupo"]).size().items():
                owners[owner]["infracoes_por_grupo"][grupo] = int(n)
                owners[owner]["infracoes_total"] += int(n)
        # the notices some owner may list, newest first (by number where the time is the same): sorting every
        # notice by its time and number (texts and datetimes) raised the build's peak memory more than any step
        candidates = inf.loc[_among_recent(inf, ("transportadora_cnpj", "linha_prefixo"), RECENT_INFRACTIONS),
                             ["data_hora", "numero_auto", "transportadora_cnpj", "linha_prefixo"]]
        order = candidates.sort_values(["data_hora", "numero_auto"], ascending=[False, True]).index
        for key in ("transportadora_cnpj", "linha_prefixo"):
            owner_of = candidates[key].loc[order]
            if key == "linha_prefixo":
                owner_of = owner_of[owner_of.astype(bool)]
            # the most recent of each owner, in that order
            recent[key] = owner_of.groupby(owner_of, sort=False).head(RECENT_INFRACTIONS)
        # the notices some page lists, once: each owner keeps their positions, its records are made as its page
        # renders (record.Rows)
        shown = pd.Index(recent["transportadora_cnpj"].index).union(recent["linha_prefixo"].index, sort=False)
        columns = {name: values for name, values in zip(inf.columns, _columns(inf.loc[shown]))}
        cells = notices.shown(columns, carriers, partial(label, self.schema, "infracoes"))  # as the pages show them
        in_json = json_columns(columns)  # as the pages' JSON gives them
        for key, owners in (("transportadora_cnpj", carriers), ("linha_prefixo", lines)):
            positions = shown.get_indexer(recent[key].index)
            for owner, at in pd.Series(positions).groupby(recent[key].to_numpy(), sort=False).indices.items():
                owners[owner]["infracoes"] = Rows(columns, positions[at].tolist(), cells, in_json)

    def _arrange_findings(self, carriers, lines, outorgas, caducidades, promos) -> list[dict]:
        """Attach each finding to every page it concerns (record, line, carrier)."""
        inf, achados = self.tables["infracoes"], self.tables["achados"]
        named = inf[inf["numero_auto"].isin(set(achados["chave"][achados["tabela"] == "infracoes"]))]  # by a finding
        inf_owner = dict(zip(named["numero_auto"], zip(named["transportadora_cnpj"], named["linha_prefixo"])))
        from ..derive.findings import RULES

        titles = {rule.slug: rule.titulo for rule in RULES}
        out = []
        for r in _records(self.tables["achados"]):
            f = Record(r, titulo=titles.get(r["regra"], r["regra"]))
            targets = []
            if r["tabela"] == "outorgas":
                o = outorgas[r["chave"]]
                targets = [o, o["transportadora"], o["linha"]]
            elif r["tabela"] == "caducidades":
                c = caducidades[r["chave"]]
                targets = [c, c["transportadora"], c["outorga"]]
            elif r["tabela"] == "tarifas_promocionais":
                p = promos[r["chave"]]
                targets = [p, p["transportadora"], p["linha"]]
            elif r["tabela"] == "infracoes":
                cnpj, prefixo = inf_owner[r["chave"]]
                targets = [carriers.get(cnpj), lines.get(prefixo)]
            for target in targets:
                if target is not None:
                    target["achados"].append(f)
            f["transportadora"] = next((x for x in targets if x is not None and "razao_social" in x), None)
            f["linha"] = next((x for x in targets if x is not None and "prefixo" in x), None)
            out.append(f)
        return out
