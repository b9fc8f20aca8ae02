"""Fielded command-line search over the published records, with Whoosh (``python -m pipeline search``).

The browser search is Pagefind's (see :func:`pipeline.build.index`); this index is for the command
line and is not published. It holds one document per line, carrier, outorga, caducidade and finding.
Text is folded to lower-case ASCII, so ``brasilia`` finds ``Brasília``. Fields: ``tipo``, ``chave``,
``titulo``, ``texto``, ``uf``, ``municipio``, ``cnpj``, ``prefixo``, ``situacao``, ``regra``.
Example queries: ``caldas``, ``uf:GO tipo:linha``, ``tipo:outorga situacao:vencida``, ``regra:promocao*``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from whoosh import index
from whoosh.analysis import CharsetFilter, StandardAnalyzer
from whoosh.fields import ID, KEYWORD, STORED, TEXT, Schema
from whoosh.qparser import MultifieldParser
from whoosh.support.charset import accent_map

from ..folders import staged
from ..identifiers import format_cnpj

_TEXT = StandardAnalyzer(minsize=1, stoplist=None) | CharsetFilter(accent_map)

SCHEMA = Schema(
    tipo=ID(stored=True),
    chave=ID(stored=True),
    titulo=TEXT(stored=True, analyzer=_TEXT),
    texto=TEXT(analyzer=_TEXT),
    uf=KEYWORD(lowercase=True, commas=True),
    municipio=TEXT(analyzer=_TEXT),
    cnpj=ID,
    prefixo=ID(analyzer=None),
    situacao=KEYWORD(lowercase=True),
    regra=ID,
    url=STORED,
)


@dataclass(frozen=True)
class Hit:
    tipo: str
    chave: str
    titulo: str
    url: str


def _documents(site):
    """Documents from the site's per-record views (:class:`pipeline.site.context.SiteData`)."""
    for ln in site.lines:
        ends = f"{ln['origem_municipio']} ({ln['origem_uf']}) – {ln['destino_municipio']} ({ln['destino_uf']})"
        yield dict(
            tipo="linha", chave=ln["prefixo"], titulo=f"Linha {ln['prefixo']}: {ends}",
            texto=" ".join(filter(None, [ln["descricao"], ln["itinerario"], ln["ambito"]]
                                  + [c["razao_social"] for c in ln["transportadoras"]])),
            uf=f"{ln['origem_uf']},{ln['destino_uf']}", municipio=f"{ln['origem_municipio']} {ln['destino_municipio']}",
            prefixo=ln["prefixo"].lower(), url=ln["url"],
        )
    for c in site.carriers:
        yield dict(
            tipo="transportadora", chave=c["cnpj"], titulo=f"{c['razao_social']} ({format_cnpj(c['cnpj'])})",
            texto=" ".join(filter(None, [c["nome_fantasia"], c["municipio"]])), uf=c["uf"],
            municipio=c["municipio"] or "", cnpj=c["cnpj"], url=c["url"],
        )
    for o in site.outorgas:
        yield dict(
            tipo="outorga", chave=o["id"], titulo=f"Outorga {o['id']}: {o['transportadora']['razao_social']}",
            texto=" ".join(filter(None, [o["ato"], o["instrumento"], o["modalidade"]])),
            cnpj=o["transportadora_cnpj"], prefixo=(o["linha_prefixo"] or "").lower(), situacao=o["situacao"],
            url=f"/outorgas/{o['slug']}/",
        )
    for c in site.caducidades:
        yield dict(
            tipo="caducidade", chave=c["ato"], titulo=f"Caducidade {c['ato']}: {c['transportadora']['razao_social']}",
            texto=" ".join(filter(None, [c["processo"], c["fundamento"]])), cnpj=c["transportadora_cnpj"],
            url=f"/caducidades/{c['slug']}/",
        )
    for f in site.findings:
        yield dict(
            tipo="achado", chave=f"{f['regra']} {f['chave']}", titulo=f["descricao"], texto=f["artigo"],
            regra=f["regra"], cnpj=(f["transportadora"] or {}).get("cnpj", ""), url="/achados/",
        )


def build_index(site, folder: Path) -> int:
    """(Re)create the index in ``folder``; returns the number of documents."""
    with staged(folder, "índice de busca gerado por python -m pipeline build") as staging:
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


def search(folder: Path, query: str, limit: int = 20) -> tuple[int, list[Hit]]:
    """Run ``query`` (Whoosh syntax, fields as above); returns the total and the first ``limit`` hits."""
    if not index.exists_in(folder):
        raise IndexMissing(f"não há índice de busca em {folder}: rode antes `python -m pipeline build`")
    try:
        ix = index.open_dir(folder)
        parser = MultifieldParser(["titulo", "texto", "municipio", "chave", "prefixo"], ix.schema)
        with ix.searcher() as searcher:
            results = searcher.search(parser.parse(query), limit=limit)
            hits = [Hit(r["tipo"], r["chave"], r["titulo"], r["url"]) for r in results]
            return len(results), hits
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
