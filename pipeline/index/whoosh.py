"""Fielded command-line search over the published records, with Whoosh (``python -m pipeline search``).

The browser search is Pagefind's (pipeline/index/pagefind.py); this index is for the command line and is
not published. It holds one document per line, carrier, outorga, caducidade, municipality, enquadramento
(the clauses of art. 78 and their groups) and finding; the half million infraction notices of the
national scale stay out of it (indexing them would cost a minute of the nightly build): they are in the
published tables (``dados/infracoes.csv``, ``portal.sqlite``) and their numbers in the browser lookup.

Every word is lower-cased and folded to ASCII, so ``goiania`` finds ``Goiânia``. Names (of places and
carriers, the records' titles, a line's description) are not stemmed: the Portuguese stemmer makes one word of
``Caiçara`` and ``Caicó`` (``caic``); a word typed in the singular also finds its plural there (``transporte``,
``TRANSPORTES``: :func:`_plurals`). Descriptive free text (``texto``: the enquadramentos' clauses, observations,
acts) is stemmed, so ``passageiro`` finds ``passageiros``. A dash, slash or comma standing alone separates words
(``São Paulo - SP``, :func:`separators`). The fields a query may name are declared in :data:`FIELDS`, each with
the published columns it holds; ``--help`` lists them with those columns' titles, read from
``datasets/datapackage.json``.

This module is imported by ``python -m pipeline search``: it imports Whoosh and small modules only, never the
build's (pandas, Frictionless, Pelican; tests/test_cli_search.py).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path

from whoosh import index, query
from whoosh.analysis import CharsetFilter, LowercaseFilter, RegexTokenizer, StemFilter
from whoosh.collectors import TimeLimitCollector
from whoosh.fields import DATETIME, ID, KEYWORD, NUMERIC, STORED, TEXT, Schema
from whoosh.qparser import GtLtPlugin, MultifieldParser
from whoosh.query.qcore import _NullQuery
from whoosh.searching import TimeLimit
from whoosh.support.charset import accent_map

from ..contract import kinds
from ..contract.identifiers import format_cnpj
from ..contract.limits import MAX_QUERY, QUERY_SECONDS
from ..tools.folders import staged

# descriptive text, folded before stemming: the stemmer sees "goiania" whether "Goiânia" or "goiania" was written
_TEXT = RegexTokenizer() | LowercaseFilter() | CharsetFilter(accent_map) | StemFilter(lang="pt")
_NAME = RegexTokenizer() | LowercaseFilter() | CharsetFilter(accent_map)  # names: folded, not stemmed

# What each document is (``tipo``) and the published table it comes from (``--table``).
TABLES = {**{k.table: k.name for k in kinds.RECORD_KINDS}, "enquadramentos": "enquadramento", "achados": "achado"}

# The fields a query may name: ``(kind, the published columns it holds, an example)``. The kinds are
# those of the Whoosh schema below; the columns give ``--help`` their titles.
FIELDS: dict[str, tuple[str, tuple[str, ...], str]] = {
    "transportadora": ("texto", ("transportadoras.razao_social", "transportadoras.nome_fantasia"), "transportadora:gontijo"),
    "uf": ("código", ("linhas.origem_uf", "linhas.destino_uf", "transportadoras.uf", "municipios.uf"), "uf:GO"),
    "municipio": ("texto", ("linhas.origem_municipio", "linhas.destino_municipio", "municipios.nome"), "municipio:goiania"),
    "cnpj": ("código", ("transportadoras.cnpj",), "cnpj:04192453000118"),
    "prefixo": ("código", ("linhas.prefixo",), "prefixo:12-0140-00"),
    "ambito": ("código", ("linhas.ambito",), "ambito:internacional"),
    "situacao": ("código", ("outorgas.situacao",), "situacao:vigente"),
    "grupo": ("código", ("enquadramentos.grupo",), "grupo:IV"),
    "data": ("data", ("outorgas.inicio", "caducidades.data_declaracao"), "data:[2024-01-01 TO 2024-12-31]"),
    "valor": ("número", ("tarifas.valor",), "valor:[100 TO 500]"),
    "tipo": ("código", (), "tipo:linha"),
}

# A number or date is indexed at several precisions (Whoosh's tiers: one more term per ``shift_step`` bits), so
# that a range is read as a few terms. Each tier is a term made, sorted and written for every number: Whoosh's own
# steps (4 bits, 8 for a date) made 16 and 8 of them a value, a good part of the time the index takes to write.
# At 16 bits a range reads more terms and finds the same documents.
RANGE_STEP = 16


def _tiered(field):
    field.shift_step = RANGE_STEP
    return field


SCHEMA = Schema(
    tipo=ID(stored=True),
    chave=ID(stored=True),
    titulo=TEXT(stored=True, analyzer=_NAME),  # a name: "Caiçara" is not "Caicó"
    nomes=TEXT(analyzer=_NAME),  # names in a record's other columns: a line's description and itinerary
    texto=TEXT(analyzer=_TEXT),  # descriptive free text, stemmed
    transportadora=TEXT(analyzer=_NAME),
    uf=KEYWORD(lowercase=True),
    municipio=TEXT(analyzer=_NAME),
    cnpj=ID,
    prefixo=ID,
    ambito=KEYWORD(lowercase=True),
    situacao=KEYWORD(lowercase=True),
    grupo=KEYWORD(lowercase=True),
    data=_tiered(DATETIME(stored=True)),
    valor=_tiered(NUMERIC(float, stored=True)),
    linhas=_tiered(NUMERIC(int, stored=True)),  # how much service: lines serving a place, lines of a carrier (ties)
    url=STORED,
)
DEFAULT_FIELDS = ["titulo", "nomes", "texto", "transportadora", "municipio", "chave", "prefixo", "cnpj"]
NAME_FIELDS = frozenset(name for name, field in SCHEMA.items() if getattr(field, "analyzer", None) is _NAME)


@dataclass(frozen=True)
class Hit:
    tipo: str
    chave: str
    titulo: str
    url: str

    def as_dict(self) -> dict:
        return {"tipo": self.tipo, "chave": self.chave, "titulo": self.titulo, "url": self.url}


def fields_help(schema) -> str:
    """``--help``'s list of fields, each with the titles of the published columns it holds."""
    lines = []
    for name, (kind, columns, example) in FIELDS.items():
        titles = []
        for column in columns:
            table, field = column.split(".")
            tables = schema.published_tables if table in schema.published_tables else schema.tables
            titles.append(f"{tables[table].field(field).get('title', field)} ({column})")
        held = "; ".join(titles) if columns else "linha, transportadora, outorga, caducidade, cidade, enquadramento, achado"
        lines.append(f"  {name} ({kind}): {held}. Ex.: {example}")
    return "\n".join(lines)


def _day(value) -> datetime | None:
    if isinstance(value, datetime):
        return value
    if isinstance(value, date):
        return datetime(value.year, value.month, value.day)
    return None


def _names(carriers) -> str:
    return " ".join(filter(None, (n for c in carriers if c for n in (c["razao_social"], c["nome_fantasia"]))))


def _line(ln) -> dict:
    ends = f"{ln['origem_municipio']} ({ln['origem_uf']}) – {ln['destino_municipio']} ({ln['destino_uf']})"
    return dict(
        titulo=f"Linha {ln['prefixo']}: {ends}",
        nomes=" ".join(filter(None, [ln["descricao"], ln["itinerario"]])),  # places ("CAICO(RN) - ..."), roads
        transportadora=_names(ln["transportadoras"]), uf=f"{ln['origem_uf']} {ln['destino_uf']}",
        municipio=f"{ln['origem_municipio']} {ln['destino_municipio']}", prefixo=ln["prefixo"].lower(),
        ambito=ln["ambito"], situacao=" ".join(sorted({o["situacao"] for o in ln["outorgas"]})),
        grupo=" ".join(sorted(ln["infracoes_por_grupo"])),
        valor=sorted({float(f["valor"]) for f in ln["tarifas"] if f.get("vigente")}) or None,
    )


def _carrier(c) -> dict:
    return dict(
        titulo=f"{c['razao_social']} ({format_cnpj(c['cnpj'])})", texto=c["observacao"] or "",
        transportadora=_names([c]), uf=c["uf"], municipio=c["municipio"] or "", cnpj=c["cnpj"],
        situacao=" ".join(sorted({o["situacao"] for o in c["outorgas"]})),
        grupo=" ".join(sorted(c["infracoes_por_grupo"])), linhas=len(c["linhas"]),
    )


def _outorga(o) -> dict:
    return dict(
        titulo=f"Outorga {o['id']}: {o['transportadora']['razao_social']}",
        texto=" ".join(filter(None, [o["ato"], o["instrumento"], o["modalidade"]])),
        transportadora=_names([o["transportadora"]]), cnpj=o["transportadora_cnpj"],
        prefixo=(o["linha_prefixo"] or "").lower(), situacao=o["situacao"], data=_day(o["inicio"]),
    )


def _caducidade(c) -> dict:
    return dict(
        titulo=f"Caducidade {c['ato']}: {c['transportadora']['razao_social']}",
        texto=" ".join(filter(None, [c["processo"], c["fundamento"]])), transportadora=_names([c["transportadora"]]),
        cnpj=c["transportadora_cnpj"], data=_day(c["data_declaracao"]),
    )


def _city(c) -> dict:
    return dict(titulo=f"{c['nome']} ({c['uf']})", municipio=c["nome"], uf=c["uf"], linhas=c["linhas"])


# what the search knows of a record of each kind beyond its declaration (kind, key, title, url)
FIELDS_OF_KIND = {"linha": _line, "transportadora": _carrier, "outorga": _outorga, "caducidade": _caducidade,
                  "cidade": _city}


def kind_documents(kind, records: list[dict]):
    """A document per record of ``kind``, from its declaration (pipeline/contract/kinds.py: its name, key, the
    lookup's label as the title) and what :data:`FIELDS_OF_KIND` adds for it."""
    fields = FIELDS_OF_KIND.get(kind.name)
    for item in records:
        doc = dict(tipo=kind.name, chave=item[kind.key], url=item["url"],
                   titulo=kind.lookup_label.format_map(item) if kind.lookup_label else str(item[kind.key]))
        if fields is not None:
            doc.update(fields(item))
        yield doc


def _documents(site):
    """Documents from the site's per-record views (:class:`pipeline.site.context.SiteData`)."""
    from ..site.filters import clausula_url  # the build's: pipeline.site imports Pelican

    for kind in kinds.RECORD_KINDS:
        yield from kind_documents(kind, site.records[kind.name])
    enq = site.tables.get("enquadramentos")
    if enq is not None:
        for codigo, grupo, descricao in zip(enq["codigo"], enq["grupo"], enq["descricao"]):
            yield dict(tipo="enquadramento", chave=codigo, titulo=f"Art. 78, {codigo}: {descricao}", texto=descricao,
                       grupo=grupo, url=clausula_url(codigo))
    for f in site.findings:
        yield dict(
            tipo="achado", chave=f"{f['regra']} {f['chave']}", titulo=f["descricao"],
            texto=" ".join(filter(None, [f["descricao"], f["artigo"]])),  # the title is free text here: stemmed too
            transportadora=_names([f["transportadora"]]), cnpj=(f["transportadora"] or {}).get("cnpj", ""),
            url="/achados/",
        )


def build_index(site, folder: Path) -> int:
    """(Re)create the index in ``folder``, with the lists of names the command line ranks first
    (pipeline/index/lookups.py); returns the number of documents."""
    from .lookups import FILE, lists

    with staged(folder, "índice de busca gerado por python -m pipeline build") as staging:
        (staging / FILE).write_text(json.dumps(lists(site), ensure_ascii=False, sort_keys=True), encoding="utf-8")
        ix = index.create_in(staging, SCHEMA)
        writer = ix.writer()
        count = 0
        for doc in _documents(site):
            writer.add_document(**{k: v for k, v in doc.items() if v not in (None, "")})
            count += 1
        writer.commit()
    return count


class IndexMissing(RuntimeError):
    pass


class BadQuery(ValueError):
    """A query the parser cannot read; the message says why, in pt-BR, with an example."""


_NAMED = re.compile(r"(?<![\w\"])([A-Za-z_]\w*):")


def _check_syntax(text: str) -> None:
    for name in _NAMED.findall(text):
        if name not in FIELDS:
            raise BadQuery(f"campo desconhecido: {name!r}. Campos: {', '.join(FIELDS)}. Ex.: uf:GO transportadora:gontijo")
    if text.count('"') % 2:
        raise BadQuery('aspas sem par: feche a expressão. Ex.: "sao paulo"')
    depth = 0
    for ch in text:
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth < 0:
            break
    if depth:
        raise BadQuery("parênteses sem par. Ex.: (uf:GO OR uf:DF) tipo:linha")
    if text.count("[") != text.count("]"):
        raise BadQuery("intervalo sem colchete de fechamento. Ex.: data:[2024-01-01 TO 2024-12-31]")


# a word of punctuation alone, outside quotes: a dash, en or em dash, slash, bar, comma, semicolon, full stop...
# not the query syntax (parentheses, brackets, braces, quotes, *, ?, ^, ~, :, <, >, =)
_SEPARATOR = re.compile(r"(?<!\S)[^\w\s()\[\]{}\"'*?^~:<>=]+(?!\S)")


def separators(text: str) -> str:
    """``text`` with each word of punctuation alone dropped: in ``São Paulo - SP``, ``Goiânia – Brasília``,
    ``Goiânia / Brasília , DF`` it separates places, and Whoosh would otherwise look the ``-`` up in the
    identifier fields (``chave:-``) and find nothing. Inside a word a dash stays (``12-0140-00``,
    ``2024-01-01``); inside quotes, everything stays. ``-x`` is not negation in this parser (``NOT x`` is)."""
    parts = text.split('"')
    parts[::2] = [_SEPARATOR.sub(" ", part) for part in parts[::2]]  # outside quotes
    return '"'.join(parts)


def _plurals(word: str) -> tuple[str, ...]:
    """The regular plurals of a folded, lower-cased word (``transporte`` -> ``transportes``, ``natal`` ->
    ``natais``, ``estacao`` -> ``estacoes``): what a singular also finds in a name. The other way round is not
    done: ``santos`` does not find Santo André. Codes, numbers and words of two letters (UFs) have none."""
    if len(word) < 3 or not word.isalpha() or not word.isascii():
        return ()
    if word.endswith("ao"):
        return (word + "s", word[:-2] + "oes", word[:-2] + "aes")
    if word.endswith("m"):
        return (word[:-1] + "ns",)
    if word.endswith("l"):
        return (word[:-1] + "is",)
    if word[-1] in "rzs":
        return (word + "es",)
    if word[-1] in "aeiou":
        return (word + "s",)
    return ()


def _with_plurals(q):
    """A word looked up in a name field also finds its plurals (:func:`_plurals`); names are not stemmed."""
    if type(q) is query.Term and q.fieldname in NAME_FIELDS and isinstance(q.text, str):
        forms = _plurals(q.text)
        if forms:
            return query.Or([q, *(query.Term(q.fieldname, form, boost=q.boost) for form in forms)])
    return q


def _has_null(q) -> bool:
    """Whoosh reads an unreadable range or comparison as a query that matches nothing: say so instead."""
    return isinstance(q, _NullQuery) or any(_has_null(c) for c in q.children())


def parse(ix, text: str, table: str | None = None):
    """The Whoosh query for ``text`` (restricted to ``table``), or :class:`BadQuery`."""
    text = separators(text)
    if not text.strip():
        raise BadQuery("consulta vazia: escreva ao menos uma palavra. Ex.: goiania, transportadora:gontijo uf:GO")
    _check_syntax(text)
    parser = MultifieldParser(DEFAULT_FIELDS, ix.schema)
    parser.add_plugin(GtLtPlugin())
    try:
        q = parser.parse(text)
    except Exception as exc:  # whoosh raises bare errors for impossible dates in ranges
        raise BadQuery(f"valor inválido num intervalo ({exc}). Ex.: data:[2024-01-01 TO 2024-12-31], "
                       "valor:[100 TO 500]") from None
    q = q.accept(_with_plurals)
    if _has_null(q):
        raise BadQuery("intervalo ou comparação que não se lê: datas como 2024-01-01, números como 100 ou 99.90. "
                       "Ex.: data:[2024-01-01 TO 2024-12-31], valor:[100 TO 500], valor:>500")
    if table is not None:
        q = query.And([q, query.Term("tipo", TABLES[table])])
    return q


def search(folder: Path, text: str, limit: int = 20, table: str | None = None) -> tuple[int, list[Hit]]:
    """Run ``text`` (Whoosh syntax, the fields of :data:`FIELDS`); returns the total and the first
    ``limit`` hits, best first. :class:`BadQuery` for a query it cannot read."""
    if len(text) > MAX_QUERY:
        raise BadQuery(f"consulta longa demais ({len(text)} caracteres; o máximo é {MAX_QUERY}): use menos palavras")
    try:
        exists = index.exists_in(folder)
        ix = index.open_dir(folder) if exists else None
    except Exception as exc:  # noqa: BLE001 - a damaged table of contents raises whatever its bytes give
        raise IndexMissing(f"o índice de busca em {folder} está danificado ({type(exc).__name__}): gere-o de novo "
                           "com `python -m pipeline build`") from None
    if ix is None:
        raise IndexMissing(f"não há índice de busca em {folder}: rode antes `python -m pipeline build`")
    try:
        q = parse(ix, text, table)
        with ix.searcher() as searcher:
            # more than asked for: hits that tie on relevance are then ordered by service, the best served first
            collector = TimeLimitCollector(searcher.collector(limit=limit * 3), timelimit=QUERY_SECONDS, use_alarm=False)
            try:
                searcher.search_with_collector(q, collector)
            except TimeLimit:
                raise BadQuery(f"a consulta levou mais de {QUERY_SECONDS:.0f} s: use palavras mais específicas ou "
                               "campos (ex.: uf:GO transportadora:gontijo)") from None
            results = collector.results()
            ranked = sorted(results, key=lambda r: (-round(r.score, 6), -(r.get("linhas") or 0)))[:limit]
            hits = [Hit(r["tipo"], r["chave"], r["titulo"], r["url"]) for r in ranked]
            return len(results), hits
    except BadQuery:
        raise
    except (OSError, EOFError, ValueError, KeyError, index.IndexError) as exc:  # a truncated or damaged index
        raise IndexMissing(
            f"o índice de busca em {folder} está incompleto ou danificado ({type(exc).__name__}): "
            "gere-o de novo com `python -m pipeline build`"
        ) from None
    except Exception as exc:  # whoosh raises bare struct/pickle errors on damaged segment files
        if type(exc).__module__.split(".")[0] in ("struct", "pickle", "_pickle", "whoosh", "zlib"):
            raise IndexMissing(
                f"o índice de busca em {folder} está danificado ({type(exc).__name__}): gere-o de novo com "
                "`python -m pipeline build`") from None
        raise
