"""Findings (achados): facts in the data that the decree forbids. They are not input errors: they are
published in the table ``achados`` and on the pages of the records concerned.

Each rule is a function registered with its slug and the article it applies; it returns
``(tabela, chave, descricao)`` for each record that triggers it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass

import pandas as pd

from ..contract.schema import Schema
from ..contract.spelling import day, money
from ..legal import caducidades as cad
from ..legal import outorgas as out
from ..legal import promocoes as promo


@dataclass(frozen=True)
class Rule:
    slug: str
    artigo: str  # e.g. "art. 29 § 6º"; the page links it to /decreto/#art-N
    titulo: str
    tabelas: tuple[str, ...]  # the input tables it reads: it runs only when a source covers each
    fn: Callable


RULES: list[Rule] = []


def rule(slug: str, artigo: str, titulo: str, tabelas: tuple[str, ...]):
    def register(fn):
        RULES.append(Rule(slug, artigo, titulo, tabelas, fn))
        return fn

    return register


_br, _money = day, money  # the one pt-BR spelling (contract/spelling.py)


def _outorgas_by_carrier_line(t) -> dict[tuple, list[tuple]]:
    o = t["outorgas"]
    index = defaultdict(list)
    for cnpj, linha, inicio, venc, ext in zip(
        o["transportadora_cnpj"], o["linha_prefixo"], o["inicio"], o["vencimento"], o["extinta_em"]
    ):
        if linha:
            index[(cnpj, linha)].append((inicio, venc, ext))
    return index


@rule("promocao-sem-antecedencia", "art. 6º parágrafo único I",
      f"Promoção sem {promo.NOTICE_DAYS} dias de antecedência", ("tarifas_promocionais",))
def promotion_without_notice(t):
    p = t["tarifas_promocionais"]
    for protocolo, ok, dias in zip(p["protocolo"], p["antecedencia_ok"], p["antecedencia_dias"]):
        if not ok:
            yield (
                "tarifas_promocionais",
                protocolo,
                f"A promoção {protocolo} foi comunicada com {dias} dias de antecedência; o decreto exigia no mínimo "
                f"{promo.NOTICE_DAYS}.",
            )


@rule("promocao-acima-do-maximo", "art. 6º; art. 82 IV", "Promoção igual ou acima da tarifa máxima",
      ("tarifas_promocionais", "tarifas"))
def promotion_above_maximum(t):
    p = t["tarifas_promocionais"]
    for protocolo, valor, maxima in zip(p["protocolo"], p["valor"], p["tarifa_maxima"]):
        if promo.acima_do_maximo(valor, maxima):
            yield (
                "tarifas_promocionais",
                protocolo,
                f"A promoção {protocolo} cobra {_money(valor)}, não menos que a tarifa máxima em vigor no seu início ({_money(maxima)}).",
            )


@rule("promocao-sem-outorga", "art. 1º; art. 78 VI a", "Promoção sem outorga na linha",
      ("tarifas_promocionais", "outorgas"))
def promotion_without_outorga(t):
    index = _outorgas_by_carrier_line(t)
    p = t["tarifas_promocionais"]
    for protocolo, cnpj, linha, inicio in zip(
        p["protocolo"], p["transportadora_cnpj"], p["linha_prefixo"], p["inicio"]
    ):
        if not any(out.in_force_on(i, v, e, inicio) for i, v, e in index.get((cnpj, linha), [])):
            yield (
                "tarifas_promocionais",
                protocolo,
                f"Em {_br(inicio)}, início da promoção {protocolo}, a transportadora não tinha outorga em vigor na linha {linha}.",
            )


@rule("outorga-durante-impedimento", "art. 29 § 6º", "Outorga durante impedimento por caducidade",
      ("outorgas", "caducidades"))
def outorga_while_barred(t):
    c = t["caducidades"]
    bars = defaultdict(list)
    for ato, cnpj, outorga_id, declarada in zip(
        c["ato"], c["transportadora_cnpj"], c["outorga_id"], c["data_declaracao"]
    ):
        bars[cnpj].append((ato, outorga_id, declarada))
    o = t["outorgas"]
    for oid, cnpj, inicio in zip(o["id"], o["transportadora_cnpj"], o["inicio"]):
        for ato, subject, declarada in bars.get(cnpj, []):
            if oid != subject and cad.barred_on(declarada, inicio):
                yield (
                    "outorgas",
                    oid,
                    f"A outorga {oid} começa em {_br(inicio)}, quando a transportadora estava impedida até "
                    f"{_br(cad.impedimento_ate(declarada))} pela caducidade declarada no ato {ato}.",
                )


@rule("caducidade-sem-comunicacoes", "art. 29 § 3º", "Caducidade sem as duas comunicações prévias",
      ("caducidades",))
def caducidade_without_notices(t):
    c = t["caducidades"]
    for ato, c1, c2 in zip(c["ato"], c["comunicacao_1_em"], c["comunicacao_2_em"]):
        if cad.notices_ok(c1, c2):
            continue
        if c1 is None or c2 is None:
            falta = (
                "a primeira"
                if c1 is None and c2 is not None
                else "a segunda"
                if c2 is None and c1 is not None
                else "as duas"
            )
            text = f"Falta {falta} comunicação prévia à transportadora exigida antes do processo de caducidade."
        else:
            text = (
                f"A segunda comunicação ({_br(c2)}) veio antes de terminar o prazo de {cad.NOTICE_DAYS} dias da primeira "
                f"({_br(c1)}), que ia até {_br(cad.add_days(c1, cad.NOTICE_DAYS))}."
            )
        yield ("caducidades", ato, f"{ato}: {text}")


@rule("operacao-apos-vencimento", "art. 1º; art. 78 VI a", "Operação após o fim da outorga",
      ("infracoes", "outorgas"))
def operation_after_end(t):
    index = _outorgas_by_carrier_line(t)
    i = t["infracoes"]
    for numero, cnpj, linha, quando in zip(  # lists: iterating the Series boxed each value again
        i["numero_auto"].tolist(), i["transportadora_cnpj"].tolist(), i["linha_prefixo"].tolist(),
        i["data_hora"].tolist()
    ):
        held = index.get((cnpj, linha)) if linha else None
        if not held:
            continue
        day = quando.date()
        if any(out.in_force_on(s, v, e, day) for s, v, e in held):
            continue
        ended = [
            min(x for x in (v, e) if x is not None)
            for s, v, e in held
            if (v is not None and v < day) or (e is not None and e <= day)
        ]
        if ended:
            yield (
                "infracoes",
                numero,
                f"O auto {numero} registra operação na linha {linha} em {_br(day)}, depois do fim da outorga "
                f"da transportadora nessa linha ({_br(max(ended))}).",
            )


def find(
    tables: dict[str, pd.DataFrame], schema: Schema, covered: set[str] | None = None
) -> tuple[pd.DataFrame, dict[str, list[str]]]:
    """Every finding, in rule order then table order, as the ``achados`` table; and, for each rule
    that could not run because no source covers one of its input tables, those tables. A rule that
    did not run says nothing: its silence is never a "no finding"."""
    carriers = _carrier_of(tables, schema)

    def rows(r):
        return [{"regra": r.slug, "regra_titulo": r.titulo, "artigo": r.artigo, "tabela": tabela, "chave": chave,
                 "transportadora_cnpj": carriers.get(tabela, {}).get(chave, ""), "descricao": descricao}
                for tabela, chave, descricao in r.fn(tables)]

    return run_covered(RULES, covered, rows, [f["name"] for f in schema.published_tables["achados"].fields])


def run_covered(rules, covered: set[str] | None, rows, columns: list[str]) -> tuple[pd.DataFrame, dict[str, list[str]]]:
    """The rows ``rows(rule)`` gives for each of ``rules`` (each with ``slug`` and ``tabelas``) whose input
    tables are all ``covered`` (all when None), as a frame of ``columns``; and each rule that did not run
    with the tables no source covers (its silence is never a "none"). Findings and inconsistencies share it."""
    out, unchecked = [], {}
    for r in rules:
        missing = [name for name in r.tabelas if covered is not None and name not in covered]
        if missing:
            unchecked[r.slug] = missing
        else:
            out += rows(r)
    return pd.DataFrame([[row.get(c) for c in columns] for row in out], columns=columns, dtype=object), unchecked


def _carrier_of(tables: dict[str, pd.DataFrame], schema: Schema) -> dict[str, dict[str, str]]:
    """For each table with a one-field key and a ``transportadora_cnpj``: key -> the carrier's CNPJ (the
    carrier a finding on that record concerns)."""
    out = {}
    for name, df in tables.items():
        key = schema[name].primary_key if name in schema.tables else []
        if len(key) == 1 and "transportadora_cnpj" in df.columns:
            out[name] = dict(zip(df[key[0]], df["transportadora_cnpj"]))
    return out
