"""Inconsistencies between the regulator's publications (``inconsistencias``): where two of its files,
read together, contradict each other. They are not findings: no rule of Decreto nº 952/1993 applies to
the records of the later regime, and none is invoked. Each rule names the records and the sources it
rests on, and runs only when a source covers every table it reads.

Each rule is a function registered with its slug, title and input tables; it yields ``(tabela, chave,
descricao, fontes)`` per record concerned (``fontes``: the source ids compared).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

import pandas as pd

from ..contract.schema import Schema
from ..contract.spelling import day
from ..places import resolve
from .findings import run_covered


@dataclass(frozen=True)
class Rule:
    slug: str
    titulo: str
    tabelas: tuple[str, ...]  # the input tables: it runs only when a source covers each
    fn: Callable


RULES: list[Rule] = []


@dataclass(frozen=True)
class NotChecked:
    """A case a rule could not judge (a licence whose validity is not published): counted and said beside
    the rule's results, never folded into "none"."""

    tabela: str
    chave: str
    motivo: str


def rule(slug: str, titulo: str, tabelas: tuple[str, ...]):
    def register(fn):
        RULES.append(Rule(slug, titulo, tabelas, fn))
        return fn

    return register


def _br(d) -> str:
    return day(d) if d is not None and not pd.isna(d) else day(None)


def _plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _timetabled(t) -> dict[tuple[str, str], dict]:
    """(line, direction) -> {"n": departures listed, "fontes": their sources}."""
    out: dict[tuple[str, str], dict] = {}
    h = t["horarios"]
    for prefixo, sentido, fonte in zip(h["linha_prefixo"].tolist(), h["sentido"].tolist(), h["fonte"].tolist()):
        entry = out.setdefault((prefixo, sentido), {"n": 0, "fontes": set()})
        entry["n"] += 1
        entry["fontes"].add(fonte)
    return out


@rule("horario-em-secao-paralisada", "Horários numa ligação publicada como paralisada", ("horarios", "paralisacoes"))
def timetable_on_paralysed(t, as_of):
    lines = t["linhas"].set_index("prefixo")
    timetabled = _timetabled(t)
    p = t["paralisacoes"]
    for prefixo, om, ou, dm, du, since, fonte in zip(*(p[c].tolist() for c in (
            "linha_prefixo", "origem_municipio", "origem_uf", "destino_municipio", "destino_uf", "data_paralisacao",
            "fonte"))):
        if prefixo not in lines.index:
            continue
        line = lines.loc[prefixo]
        ends = (resolve(line["origem_municipio"], line["origem_uf"]), resolve(line["destino_municipio"], line["destino_uf"]))
        stopped = (resolve(om, ou), resolve(dm, du))
        sentido = "ida" if stopped == ends else "volta" if stopped == ends[::-1] else None
        listed = timetabled.get((prefixo, sentido)) if sentido else None
        if listed:
            yield ("linhas", prefixo,
                   f"A linha {prefixo} tem {_plural(listed['n'], 'partida', 'partidas')} no sentido {sentido} no quadro "
                   f"de horários, mas a ligação {om} ({ou}) → {dm} ({du}) está publicada como paralisada desde "
                   f"{_br(since)}.", sorted(listed["fontes"] | {fonte}))


def _licences(t) -> dict[str, list[tuple]]:
    h = t["habilitacoes"]
    out = defaultdict(list)
    for cnpj, mercado, tar, vigencia, fonte in zip(*(h[c].tolist() for c in (
            "transportadora_cnpj", "mercado", "numero_tar", "vigencia", "fonte"))):
        out[cnpj].append((mercado, tar, vigencia, fonte))
    return out


def _lines_of(t) -> dict[str, tuple[set, set]]:
    """carrier -> (its lines in the timetable, the timetable's sources)."""
    out: dict[str, tuple[set, set]] = {}
    h = t["horarios"]
    for cnpj, prefixo, fonte in zip(h["transportadora_cnpj"].tolist(), h["linha_prefixo"].tolist(), h["fonte"].tolist()):
        lines, sources = out.setdefault(cnpj, (set(), set()))
        lines.add(prefixo)
        sources.add(fonte)
    return out


def market_of(ambito: str) -> str | None:
    """The licence's market (``habilitacoes.mercado``) a line of ``ambito`` needs: a semi-urban line the
    semi-urban licence, an interstate or international one the regular licence; None when unknown."""
    return {"semiurbano": "semiurbano", "interestadual": "regular", "internacional": "regular"}.get(ambito)


MARKETS = {"regular": "regular", "semiurbano": "semiurbana"}  # how a sentence names a licence's market


@rule("linhas-com-habilitacao-vencida", "Linhas no quadro de horários de transportadora com habilitação vencida",
      ("habilitacoes", "horarios"))
def lines_with_lapsed_licence(t, as_of):
    """Each carrier's timetabled lines judged against its licence for their market (a semi-urban licence says
    nothing of an interstate line): lapsed when every licence of that market has a validity before ``as_of``.
    A market where the carrier holds no licence is another matter; one whose licence has no published
    validity, or a line of unknown scope, is a case not checked (:class:`NotChecked`)."""
    licences = _licences(t)
    scope = dict(zip(t["linhas"]["prefixo"].tolist(), t["linhas"]["ambito"].tolist()))
    for cnpj, (lines, sources) in sorted(_lines_of(t).items()):
        held = licences.get(cnpj)
        if not held:
            continue  # not licensed at all: not this rule's matter
        by_market: dict[str | None, list[str]] = defaultdict(list)
        for prefixo in sorted(lines):
            by_market[market_of(scope.get(prefixo, ""))].append(prefixo)
        for market, its_lines in sorted(by_market.items(), key=lambda x: (x[0] is None, x[0] or "")):
            if market is None:
                yield NotChecked("transportadoras", cnpj, f"{_plural(len(its_lines), 'linha', 'linhas')} sem âmbito "
                                                          "publicado, de que depende a habilitação exigida")
                continue
            of_market = [x for x in held if x[0] == market]
            if not of_market:
                continue
            dated = [x for x in of_market if x[2] is not None and not pd.isna(x[2])]
            if len(dated) < len(of_market):
                yield NotChecked("transportadoras", cnpj, f"habilitação {MARKETS.get(market, market)} sem validade "
                                                          "publicada")
                continue
            if any(x[2] >= as_of for x in dated):
                continue
            last = max(dated, key=lambda x: x[2])
            tar = f"TAR {last[1]}" if last[1] else "habilitação"
            yield ("transportadoras", cnpj,
                   f"A transportadora tem {_plural(len(its_lines), 'linha', 'linhas')} no quadro de horários "
                   f"({', '.join(its_lines[:5])}{'…' if len(its_lines) > 5 else ''}), mas sua {tar} "
                   f"({MARKETS.get(market, market)}) vale até {_br(last[2])}, antes de {_br(as_of)}.",
                   sorted(sources | {x[3] for x in of_market}))


@rule("linha-com-horarios-sem-secao", "Linha com horários e sem seção publicada", ("horarios", "secoes"))
def timetabled_line_without_section(t, as_of):
    sections = set(t["secoes"]["linha_prefixo"].tolist())
    fontes: dict[str, set] = defaultdict(set)
    for prefixo, fonte in zip(t["horarios"]["linha_prefixo"].tolist(), t["horarios"]["fonte"].tolist()):
        fontes[prefixo].add(fonte)
    covering = sorted(set(t["secoes"]["fonte"].tolist()))
    for prefixo in sorted(set(fontes) - sections):
        yield ("linhas", prefixo,
               f"A linha {prefixo} tem horários no quadro de horários, mas nenhuma seção nas publicações de seções.",
               sorted(fontes[prefixo] | set(covering)))


@rule("habilitada-sem-linha", "Transportadora habilitada sem linha no quadro de horários", ("habilitacoes", "horarios"))
def licensed_without_line(t, as_of):
    operating = set(t["horarios"]["transportadora_cnpj"].tolist())
    timetable_sources = set(t["horarios"]["fonte"].tolist())
    for cnpj, held in sorted(_licences(t).items()):
        if cnpj in operating:
            continue
        yield ("transportadoras", cnpj,
               "A transportadora está habilitada (" + "; ".join(
                   f"{m}{', TAR ' + tar if tar else ''}, até {_br(v)}" for m, tar, v, _ in held)
               + "), mas não tem linha no quadro de horários.", sorted({x[3] for x in held} | timetable_sources))


def find(tables: dict[str, pd.DataFrame], schema: Schema, as_of: date, covered: set[str] | None = None,
         not_checked: dict[str, list[NotChecked]] | None = None) -> tuple[pd.DataFrame, dict[str, list[str]]]:
    """Every inconsistency, in rule order, as the ``inconsistencias`` table; and, for each rule that could not
    run because no source covers one of its input tables, those tables (its silence is never a "none").
    The cases a rule that ran could not judge go into ``not_checked`` (rule -> them), when given."""
    h = tables["horarios"]  # a line's carrier in the timetable (the first listed), for its name beside the line
    line_carrier = dict(zip(h["linha_prefixo"].tolist()[::-1], h["transportadora_cnpj"].tolist()[::-1]))

    def rows(r):
        found = list(r.fn(tables, as_of))
        if not_checked is not None:
            not_checked[r.slug] = [x for x in found if isinstance(x, NotChecked)]
        return [{"regra": r.slug, "regra_titulo": r.titulo, "tabela": tabela, "chave": chave,
                 "transportadora_cnpj": chave if tabela == "transportadoras" else line_carrier.get(chave, ""),
                 "descricao": descricao, "fontes": " | ".join(fontes)}
                for tabela, chave, descricao, fontes in (x for x in found if not isinstance(x, NotChecked))]

    return run_covered(RULES, covered, rows, [f["name"] for f in schema.published_tables["inconsistencias"].fields])
