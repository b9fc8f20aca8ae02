"""The section indexes at scale (pipeline/site/indexes.py): split by UF or paged, each page under
200 KB, names in pt-BR collation order, numbers in pt-BR form; on the real 2021 export."""

from __future__ import annotations

import csv
import html
import json
import re

import pytest
from bs4 import BeautifulSoup
from conftest import page_text

MAX_INDEX_BYTES = 200_000


def _rows(page) -> list[str]:
    soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
    return [th.get_text(strip=True) for th in soup.select("table.indice tbody th")]


@pytest.mark.slow
def test_real_export_indexes_are_split_and_small(real_only_site, real_package):
    pages = [real_only_site / "linhas" / "index.html", *(real_only_site / "linhas" / "uf").rglob("index.html"),
             *(real_only_site / "transportadoras").glob("**/pagina/*/index.html"),
             real_only_site / "transportadoras" / "index.html"]
    sizes = {p.relative_to(real_only_site).as_posix(): p.stat().st_size for p in pages}
    assert max(sizes.values()) < MAX_INDEX_BYTES, max(sizes.items(), key=lambda kv: kv[1])
    # every line that starts or ends in SP is on SP's pages, once
    with open(real_package / "linhas.csv", encoding="utf-8", newline="") as fh:
        sp = sorted(r["prefixo"] for r in csv.DictReader(fh) if "SP" in (r["origem_uf"], r["destino_uf"]))
    sp_pages = [real_only_site / "linhas" / "uf" / "sp" / "index.html",
                *sorted((real_only_site / "linhas" / "uf" / "sp" / "pagina").glob("*/index.html"),
                        key=lambda p: int(p.parent.name))]
    listed = [prefix for page in sp_pages for prefix in _rows(page)]
    assert sorted(listed) == sp and len(sp_pages) == -(-len(sp) // 200)
    assert "3.896 linhas" in page_text(real_only_site / "linhas" / "index.html")  # pt-BR thousands
    rows = json.loads((real_only_site / "linhas" / "uf" / "sp" / "linhas.json").read_text(encoding="utf-8"))
    # the filters' rows, their cells named by the form as filtros.js reads them
    form = (real_only_site / "linhas" / "index.html").read_text(encoding="utf-8")
    fields = json.loads(html.unescape(re.search(r'data-linhas-campos="([^"]*)"', form)[1]))
    assert sorted(dict(zip(fields, r))["prefixo"] for r in rows) == sp


@pytest.mark.slow
def test_names_sort_by_pt_br_collation_not_code_point(real_only_site):
    pages = [real_only_site / "transportadoras" / "index.html",
             *sorted((real_only_site / "transportadoras" / "pagina").glob("*/index.html"), key=lambda p: int(p.parent.name))]
    names = [name for page in pages for name in _rows(page)]
    assert names.index("VIAÇÃO ÁGUIA BRANCA S/A") < names.index("VIAÇÃO XAVANTE LTDA.")
    sp = _rows(real_only_site / "linhas" / "uf" / "sp" / "index.html")
    assert sp, "SP's first page lists lines"


def test_lines_index_links_each_uf_of_an_endpoint(site):
    from conftest import MINIMAL

    with open(MINIMAL / "linhas.csv", encoding="utf-8", newline="") as fh:
        ufs = sorted({r[f"{w}_uf"] for r in csv.DictReader(fh) for w in ("origem", "destino")})
    nav = BeautifulSoup((site / "linhas" / "index.html").read_text(encoding="utf-8"), "html.parser")
    assert [a["href"] for a in nav.select(".ufs-contagem a")] == [f"/linhas/uf/{uf.lower()}/" for uf in ufs]
    assert re.search(r"GO ?: \d+ linhas?", page_text(site / "linhas" / "index.html"))
    assert "Outorgas por identificador" in page_text(site / "outorgas" / "index.html")


def test_paged_lists_cut_at_200_rows_with_stable_urls():
    from pipeline.site.indexes import paged

    pages = paged("outorgas/", list(range(450)))
    assert [url for url, _ in pages] == ["outorgas/", "outorgas/pagina/2/", "outorgas/pagina/3/"]
    last = pages[-1][1]
    assert (last.number, last.first, last.last, last.total, last.paged) == (3, 401, 450, 450, True)
    assert [len(p.items) for _, p in pages] == [200, 200, 50]
    only = paged("transportadoras/", [1, 2])
    assert len(only) == 1 and not only[0][1].paged
