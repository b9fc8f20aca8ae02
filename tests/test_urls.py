"""URLs in one place (pipeline/site/urls.py): pages are written where their kind's pattern says, links
go there, no template spells a record's path, and Pagefind reads exactly the searched pages."""

from __future__ import annotations

import json
import re

import pytest
from bs4 import BeautifulSoup

from pipeline import PROJECT_ROOT
from pipeline.site import urls


def soup(site, url: str) -> BeautifulSoup:
    return BeautifulSoup((site / url.strip("/") / "index.html").read_text(encoding="utf-8"), "html.parser")


def test_patterns_give_the_contracts_urls():
    assert urls.url("linha", slug="12-0140-00") == "/linhas/12-0140-00/"
    assert urls.url("transportadora", slug="11222333000181") == "/transportadoras/11222333000181/"
    assert urls.url("cidade", slug="df/brasilia") == "/cidades/df/brasilia/"
    assert urls.pair({"slug": "df/brasilia"}, {"slug": "go/caldas-novas"}) == "/cidades/df/brasilia/para/go-caldas-novas/"


@pytest.mark.parametrize("index, kind, key, url", [
    ("/outorgas/", "outorga", "OUT-1", "/outorgas/out-1/"),
    ("/transportadoras/", "transportadora", "11222333000181", "/transportadoras/11222333000181/"),
    ("/caducidades/", "caducidade", "Portaria DTR nº 45/2020", "/caducidades/portaria-dtr-no-45-2020/"),
    ("/linhas/uf/df/", "linha", "12-0140-00", "/linhas/12-0140-00/"),
])
def test_each_record_is_written_and_linked_at_its_kinds_url(site, index, kind, key, url):
    from pipeline.contract.identifiers import slugify

    assert urls.url(kind, slug=slugify(key)) == url  # the address a reader sees, spelled out
    assert (site / url.strip("/") / "index.html").is_file()
    assert soup(site, index).find("a", href=url) is not None


def test_related_records_come_through_the_foreign_keys(site):
    """An outorga names its carrier and line; a caducidade its outorga; the line lists its outorga."""
    outorga = soup(site, "/outorgas/out-1/")
    assert outorga.find("a", href="/transportadoras/11222333000181/") is not None
    assert outorga.find("a", href="/linhas/12-0140-00/") is not None
    caducidade = soup(site, "/caducidades/portaria-dtr-no-45-2020/")
    assert caducidade.find("a", href="/outorgas/out-4/") is not None
    assert soup(site, "/linhas/12-0140-00/").find("a", href="/outorgas/out-1/") is not None


SPELLED = re.compile(r"""["'](/(?:linhas|transportadoras|outorgas|caducidades|cidades)/)["']?\s*(?:~|\{\{)""")


def test_no_template_spells_a_records_path():
    spelled = {p.name: m[1] for p in (PROJECT_ROOT / "theme" / "templates").glob("*.html")
               for m in SPELLED.finditer(p.read_text(encoding="utf-8"))}
    assert spelled == {}


def test_pagefind_reads_every_searched_page_and_only_those(site):
    marked = [p for p in site.rglob("*.html") if "data-pagefind-body" in p.read_text(encoding="utf-8")]
    entry = json.loads((site / "pagefind" / "pagefind-entry.json").read_text(encoding="utf-8"))
    assert [lang["page_count"] for lang in entry["languages"].values()] == [len(marked)]
    assert not any(p.is_relative_to(site / "outorgas") for p in marked)


def test_each_kind_of_record_is_declared_once_and_every_consumer_reads_it(site, schema):
    """pipeline/contract/kinds.py: a new kind of record page is one declaration plus its template."""
    from pipeline.contract import kinds
    from pipeline.index import whoosh
    from pipeline.validate.checks import SLUG_KEYS

    for k in kinds.RECORD_KINDS:
        assert (PROJECT_ROOT / "theme" / "templates" / f"{k.name}.html").is_file(), k.name
        assert urls.KINDS[k.name].pattern == k.pattern
        assert (site / k.index / "index.html").is_file() and (f"/{k.index}/", k.menu) in urls.menu()
        assert whoosh.TABLES[k.table] == k.name
        if k.table in schema.tables:  # a source's table: its key is checked as a safe address
            assert SLUG_KEYS[k.table] == k.key
        if k.browser_search:
            assert k.glob in urls.search_globs()
    # the identifier lookup (/busca/ids/) answers an identifier as typed for each kind looked up
    ids = {}
    for shard in (site / "busca" / "ids").glob("*.json"):
        ids.update(json.loads(shard.read_text(encoding="utf-8")))
    kinds_found = {entry[2] for entry in ids.values()}
    assert kinds_found == {k.lookup_type for k in kinds.RECORD_KINDS if k.lookup_label}
    assert ids["12014000"] == ["/linhas/12-0140-00/", "Linha 12-0140-00", "Linha"]
