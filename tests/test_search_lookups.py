"""The search page's static lookups: names ranked by the rule of pipeline/places/matching.py (pipeline/site/names.py),
notice numbers sharded by their last digits (pipeline/site/notices.py), Pagefind's filters, and the
browser index kept byte-reproducible (pipeline/index/pagefind.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from pipeline.site import names, notices

CITY, CARRIER = names.CITY, names.CARRIER
CANDIDATES = [
    ["ASSIS BRASIL", "Assis Brasil (AC)", "/cidades/ac/assis-brasil/", CITY],
    ["BRASILIA", "Brasília (DF)", "/cidades/df/brasilia/", CITY],
    ["BRASILIA DE MINAS", "Brasília de Minas (MG)", "/cidades/mg/brasilia-de-minas/", CITY],
    ["UTB UNIAO TRANSPORTE BRASILIA LTDA", "UTB - UNIÃO TRANSPORTE BRASÍLIA LTDA.", "/transportadoras/3/", CARRIER],
    ["AUTO VIACAO 1001 LTDA", "AUTO VIAÇÃO 1001 LTDA.", "/transportadoras/1/", CARRIER],
    ["MIL E UM", "AUTO VIAÇÃO 1001 LTDA.", "/transportadoras/1/", CARRIER],  # its nome fantasia
]


def urls(typed: str) -> list[str]:
    return [hit[2] for hit in names.rank(typed, CANDIDATES)]


def test_the_name_itself_first_then_names_that_begin_with_it_then_the_rest():
    assert urls("Brasília") == ["/cidades/df/brasilia/", "/cidades/mg/brasilia-de-minas/", "/transportadoras/3/"]
    assert urls("brasilia de") == ["/cidades/mg/brasilia-de-minas/"]


def test_a_number_in_a_name_finds_the_carrier_once():
    assert urls("1001") == ["/transportadoras/1/"]
    assert urls("mil") == ["/transportadoras/1/"]
    assert urls("auto 1001") == ["/transportadoras/1/"]


def test_each_word_typed_must_begin_a_word_of_the_name():
    assert urls("bras") == ["/cidades/df/brasilia/", "/cidades/mg/brasilia-de-minas/", "/cidades/ac/assis-brasil/",
                            "/transportadoras/3/"]
    assert urls("xyz") == [] and urls("  ") == []


def test_a_name_mistyped_within_two_errors_is_offered_only_when_nothing_matches_better():
    # one error each, fewer words left over first ("brasil" is three errors away)
    assert urls("rasilia") == ["/cidades/df/brasilia/", "/cidades/mg/brasilia-de-minas/", "/transportadoras/3/"]
    assert urls("brazilia")[0] == "/cidades/df/brasilia/"
    # begins a word of each, so no typing error is looked for; the names that begin with it first
    assert urls("brasil") == ["/cidades/df/brasilia/", "/cidades/mg/brasilia-de-minas/", "/cidades/ac/assis-brasil/",
                              "/transportadoras/3/"]


def test_notice_files_hold_about_a_hundred_numbers():
    assert [notices.suffix_length(n) for n in (0, 30, 100, 1_000, 1_001, 500_000)] == [1, 1, 1, 1, 2, 4]


def test_a_notice_is_filed_under_its_last_digits_with_its_record(site):
    shard = json.loads((site / "busca" / "autos" / "1.json").read_text(encoding="utf-8"))
    record = dict(zip(notices.FIELDS, shard["AI0001"]))
    assert record["numero"] == "AI-0001"
    assert (record["transportadora"], record["transportadora_url"]) == ("VIACAO CERRADO LTDA", "/transportadoras/11222333000181/")
    assert (record["linha"], record["linha_url"]) == ("12-0140-00", "/linhas/12-0140-00/")
    assert (record["enquadramento"], record["enquadramento_url"], record["grupo"]) == (
        "78-IV-b", "/decreto/#art-78-inc-iv-al-b", "IV")
    assert record["data_hora"] == "2026-03-02T14:30" and record["valor"] == 1500
    assert record["local"] == "BR-040, km 12 — CALDAS NOVAS/GO"
    # every numeric suffix has its file, so the page never asks for one in vain
    assert sorted(p.stem for p in (site / "busca" / "autos").glob("*.json")) == [str(n) for n in range(10)]


def test_record_pages_carry_their_search_filters(site):
    page = BeautifulSoup((site / "linhas" / "12-0140-00" / "index.html").read_text(encoding="utf-8"), "html.parser")
    filters = {}
    for span in page.find("main").select("[data-pagefind-filter]"):
        filters.setdefault(span["data-pagefind-filter"], []).append(span.get_text())
        assert span.find_parent(attrs={"data-pagefind-ignore": True}) is not None  # not in the indexed text
    assert filters["tipo"] == ["Linha"] and filters["uf"] == ["DF", "GO"]
    assert "VIACAO CERRADO LTDA" in filters["transportadora"] and filters["ambito"] == ["Interestadual"]


def test_the_browser_index_is_the_same_bytes_however_pagefind_orders_its_filters(site, tmp_path):
    """The build indexes what Pagefind reads of each page (pipeline/site/writer.py ``pagefind_text``); here
    Pagefind reads the whole pages again: the same bundle, byte for byte."""
    import shutil

    from pipeline.index import pagefind
    from pipeline.site import urls as site_urls

    again = tmp_path / "again"
    shutil.copytree(site, again)
    shutil.rmtree(again / "pagefind")
    pagefind.index(again, site_urls.search_globs())
    first = {p.relative_to(site): p.read_bytes() for p in (site / "pagefind").rglob("*") if p.is_file()}
    second = {p.relative_to(again): p.read_bytes() for p in (again / "pagefind").rglob("*") if p.is_file()}
    assert first.keys() == second.keys() and all(first[k] == second[k] for k in first)
    assert list((site / "pagefind" / "filter").glob("*.pf_filter"))  # filters there to be ordered


@pytest.mark.skipif(not Path("/dev/shm").is_dir(), reason="no tmpfs (/dev/shm): its folders list in the order made")
def test_the_browser_index_is_the_same_bytes_whatever_order_the_pages_were_made_in(site):
    """Pagefind's bundle follows the order in which the file system lists the pages; in memory (tmpfs) that is
    the order they were made, which the page workers do not fix. The same pages, made in opposite orders, give the same
    bundle (pipeline/index/pagefind.py ``_in_order``)."""
    import os
    import shutil
    import tempfile

    from pipeline.index import pagefind
    from pipeline.site import urls as site_urls

    files = sorted(p.relative_to(site) for p in site.rglob("index.html"))
    bundles, listed = [], []
    for order in (files, files[::-1]):
        with tempfile.TemporaryDirectory(dir="/dev/shm") as tmp:
            pages, out = Path(tmp) / "paginas", Path(tmp) / "site"
            for relative in order:
                (pages / relative).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(site / relative, pages / relative)
            listed.append(os.listdir(pages / "linhas"))
            out.mkdir()
            pagefind.index(out, site_urls.search_globs(), pages)
            bundles.append({p.relative_to(out): p.read_bytes() for p in (out / "pagefind").rglob("*") if p.is_file()})
    assert listed[0] != listed[1]  # the folder lists its pages in the order they were made: the test can fail
    assert bundles[0].keys() == bundles[1].keys() and all(bundles[0][k] == bundles[1][k] for k in bundles[0])


def test_pagefind_is_given_the_body_less_the_ignored_tables_that_hold_no_filter():
    from pipeline.site.writer import pagefind_text

    page = ('<!DOCTYPE html><html lang="pt-BR"><head><title>T</title></head><body><nav>Menu</nav>'
            '<main id="conteudo" data-pagefind-body><h1>Linha 12-0140-00</h1>'
            '<table data-pagefind-ignore><tr><td>AUTO-1</td></tr></table>'
            '<div hidden data-pagefind-ignore><span data-pagefind-filter="uf">GO</span></div>'
            '<table data-pagefind-ignore><tr><td><span data-pagefind-filter="x">kept</span></td></tr></table>'
            '<p class="fonte" data-pagefind-ignore>Fonte: ANTT</p><p>Seções</p>'
            '<figure data-pagefind-ignore><svg><text>R$ 30</text></svg></figure>'
            '<table><tr><td>Tarifa</td></tr></table></main><footer>Rodapé</footer></body></html>')
    read = pagefind_text(page)
    assert "Fonte: ANTT" not in read and "R$ 30" not in read and "<p>Seções</p>" in read
    assert read.startswith('<!DOCTYPE html>\n<html lang="pt-BR"><head></head><body><main id="conteudo"')
    assert "AUTO-1" not in read and "Menu" not in read and "Rodapé" not in read
    assert '<span data-pagefind-filter="uf">GO</span>' in read and "kept" in read and "Tarifa" in read
    assert pagefind_text("<html><body><main>no body element</main></body></html>") is None


def test_once_pagefind_reads_the_pages_a_searched_page_cannot_be_added_and_a_page_without_a_body_is_not_given(tmp_path):
    """Pagefind starts when the pages are done, while the download pages are rendered with the release's facts
    (pipeline/build ``_build``): those have no ``data-pagefind-body``, and Pagefind is given no page without one
    (it would leave it out); a searched page with one, written then, would be missing from the index: it
    stops the build."""
    from pipeline.site.writer import Rendered, SearchStarted, writer_for

    rendered = Rendered()
    writer = writer_for(rendered)(str(tmp_path / "site"), settings={"PORTAL_SEARCH_PAGES": str(tmp_path / "busca")})
    bodied = '<!DOCTYPE html><html lang="pt-BR"><body><main data-pagefind-body><h1>Decreto</h1></main></body></html>'
    bare = '<!DOCTYPE html><html lang="pt-BR"><body><main><h1>Dados abertos</h1></main></body></html>'
    writer.write_page("decreto/index.html", bodied)
    writer.write_page("dados/index.html", bare)
    assert sorted(p.relative_to(tmp_path / "busca").as_posix() for p in (tmp_path / "busca").rglob("*.html")) == \
        ["decreto/index.html"]
    rendered.search_started = True
    writer.write_page("sobre/index.html", bare)  # not searched: written, nothing given to Pagefind
    assert "Dados abertos" in (tmp_path / "site" / "sobre" / "index.html").read_text(encoding="utf-8")
    with pytest.raises(SearchStarted, match="direitos/index.html: página da busca gravada depois"):
        writer.write_page("direitos/index.html", bodied)
    assert not (tmp_path / "busca" / "direitos").exists()


def test_a_cnpj_whose_leading_zeros_a_spreadsheet_dropped_is_found():
    """04192453000118 pasted from a spreadsheet that read it as a number is 4192453000118 (issue 35): the
    identifier lookup of the pages and of the command line (site/identifiers.py shards) finds it too."""
    from types import SimpleNamespace

    from pipeline.site.identifiers import shards

    carriers = [{"cnpj": "00418127000138", "url": "/transportadoras/00418127000138/", "razao_social": "A"},
                {"cnpj": "11222333000181", "url": "/transportadoras/11222333000181/", "razao_social": "B"}]
    data = SimpleNamespace(records={"cidade": [], "linha": [], "transportadora": carriers, "outorga": [],
                                    "caducidade": []})
    found = {k: v for shard in shards(data).values() for k, v in shard.items()}
    for typed in ("00418127000138", "0418127000138", "418127000138"):
        assert found[typed] == ["/transportadoras/00418127000138/", "A", "Transportadora"], typed
    assert "1222333000181" not in found  # a CNPJ without a leading zero gets no shorter key


def test_the_notice_files_are_shared_evenly_among_jobs_each_file_written_by_one():
    """/busca/autos/<sufixo>.json is written by the page stage's jobs: every file by one job alone, with all
    its notices (the same files as one job writing them all), and no job holding much more than its share
    of the notices' rows (a job holds them at once)."""
    from collections import Counter
    from datetime import date, datetime
    from types import SimpleNamespace

    import pandas as pd

    from pipeline.site import notices

    n = 30_000
    numbers = [f"{7_000_000 + 37 * i}" for i in range(n)] + ["AI-12", "5"]
    inf = pd.DataFrame({
        "numero_auto": numbers, "transportadora_cnpj": ["11222333000181"] * len(numbers),
        "linha_prefixo": [""] * len(numbers), "data_hora": [datetime(2020, 1, 2, 3, 4)] * len(numbers),
        "local": ["BR-040, km 1"] * len(numbers), "municipio": ["LUZIANIA"] * len(numbers), "uf": ["GO"] * len(numbers),
        "enquadramento": ["78-I-a"] * len(numbers), "grupo": ["I"] * len(numbers), "penalidade": ["multa"] * len(numbers),
        "valor_multa": [1250.0] * len(numbers), "situacao": ["pago"] * len(numbers),
        "prazo_defesa": [date(2020, 2, 1)] * len(numbers), "prazo_recurso": [None] * len(numbers)}, dtype=object)
    keys = notices.keys(inf["numero_auto"])
    digits = notices.suffix_length(len(numbers))
    data = SimpleNamespace(tables={"infracoes": inf}, notice_keys=keys, carriers_by_cnpj={},
                           notice_job_codes=notices.job_codes(keys, digits))
    label = lambda field, value: value  # noqa: E731
    whole = notices.shards(data, label, digits)
    parts = 8
    written, held = Counter(), []
    merged = {}
    for part in range(parts):
        files = notices.shards(data, label, digits, part, parts)
        written.update(files.keys())
        held.append(sum(len(rows) for rows in files.values()))
        merged.update(files)
    assert max(written.values()) == 1 and merged == whole
    assert sum(held) == len(numbers) and max(held) < 1.5 * len(numbers) / parts, held
    assert notices.job_count(3 * 500_000) == 25 and notices.job_count(1_000) == notices.NOTICE_PARTS
