"""Issue 25: the queries people type put the expected record first, on the real 2021 export.

The query set (tests/fixtures/consultas/busca-exportacao-real.csv, written by the project) holds each kind
the issue lists: cities with and without accents, typing errors, nicknames, ``cidade uf``, journeys,
carriers' brand words, CNPJ and line prefixes as typed. The browser's search (/busca/, Pagefind and the
lookups of busca.js) must put the expected record first for at least 95 % of them; the command line
(``python -m pipeline search``), for at least 90 %."""

from __future__ import annotations

import csv
from pathlib import Path
from urllib.parse import quote

import pytest
from browser_support import _open, _serve
from playwright.sync_api import expect

QUERIES = Path(__file__).parent / "fixtures" / "consultas" / "busca-exportacao-real.csv"


def queries() -> list[dict]:
    with open(QUERIES, encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def test_the_query_set_holds_every_kind_the_issue_lists():
    kinds = {q["tipo"] for q in queries()}
    assert kinds == {"cidade com acento", "cidade sem acento", "erro de digitação", "apelido", "cidade e UF", "par",
                     "transportadora", "CNPJ", "prefixo"}
    assert len(queries()) >= 70


def share(results: dict[str, str]) -> tuple[float, list[str]]:
    """The share of queries whose first result is the expected one, and the misses, each with what came first."""
    misses = [f"{q['consulta']!r}: esperado {q['primeiro']}, veio {results[q['consulta']]}" for q in queries()
              if results[q["consulta"]] != q["primeiro"]]
    return 1 - len(misses) / len(queries()), misses


@pytest.fixture(scope="module")
def real_search_url(real_only_site):
    yield from _serve(real_only_site)


@pytest.mark.slow
@pytest.mark.browser
def test_the_browser_search_puts_the_expected_record_first_for_95_percent(browser, real_search_url):
    tab = _open(browser, real_search_url)
    page = tab.page
    results = {}
    try:
        for q in queries():
            page.goto("/busca/?q=" + quote(q["consulta"]))
            expect(page.locator("#estado-busca")).to_contain_text("encontrad")
            first = page.locator("#resultados li h2 a").first
            results[q["consulta"]] = first.get_attribute("href") if first.count() else None
        assert tab.console_errors == []
    finally:
        page.context.close()
    ratio, misses = share(results)
    print(f"navegador: {ratio:.1%} das {len(results)} consultas com o registro esperado em primeiro; falhas: {misses}")
    assert ratio >= 0.95, misses
