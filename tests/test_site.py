"""Golden build of the minimal fixture package (as of 2026-06-30): key pages asserted structurally."""

from __future__ import annotations

import gzip
import json
import re
from datetime import date, datetime, timedelta
from pathlib import Path
from urllib.parse import urlparse

import pytest
from bs4 import BeautifulSoup
from conftest import AS_OF, MINIMAL
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.build import build
from pipeline.contract.settings import Settings


def soup(site: Path, url: str) -> BeautifulSoup:
    path = site / url.strip("/") / "index.html" if url != "/" else site / "index.html"
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def text(node) -> str:
    return " ".join(node.get_text(" ").split())


def rows(table) -> list[list[str]]:
    return [[text(c) for c in tr.find_all(["th", "td"])] for tr in table.find("tbody").find_all("tr")]


def table_by_caption(page: BeautifulSoup, caption: str):
    for table in page.find_all("table"):
        if table.caption and caption in text(table.caption):
            return table
    raise AssertionError(f"no table captioned {caption!r}")


def test_every_page_kind_exists(site):
    for url in [
        "/",
        "/linhas/",
        "/linhas/12-0140-00/",
        "/linhas/msbo0010001/",
        "/transportadoras/",
        "/transportadoras/11222333000181/",
        "/outorgas/",
        "/outorgas/out-1/",
        "/caducidades/",
        "/caducidades/portaria-dtr-no-45-2020/",
        "/achados/",
        "/direitos/",
        "/decreto/",
        "/dados/",
        "/dados/qualidade/",
        "/busca/",
        "/sobre/",
        "/metodologia/",
        "/copias/",
    ]:
        page = soup(site, url)
        assert page.html["lang"] == "pt-BR", url
        assert len(page.find_all("h1")) == 1, url
        assert page.find("main", id="conteudo"), url


def _menu_current(site: Path, url: str) -> list[str]:
    nav = soup(site, url).find("nav", attrs={"aria-label": "Seções do portal"})
    return [text(a) for a in nav.find_all("a", attrs={"aria-current": "page"})]


def test_each_page_marks_its_own_menu_entry_and_no_other(site):
    """The header is made once per set of current entries (pipeline/site/fixed.py), not once per page."""
    assert _menu_current(site, "/") == []
    assert _menu_current(site, "/linhas/") == ["Linhas"]
    assert _menu_current(site, "/linhas/12-0140-00/") == ["Linhas"]
    assert _menu_current(site, "/transportadoras/11222333000181/") == ["Transportadoras"]
    assert _menu_current(site, "/dados/qualidade/") == ["Dados abertos"]
    assert _menu_current(site, "/sobre/") == []  # a page of content/ (Pelican's generator), not in the menu
    assert _menu_current(site, "/linhas/") == ["Linhas"]  # asked again: each page as written


def test_every_page_of_a_build_has_that_build_s_footer(tmp_path):
    """The footer is made once per build: two builds in one process, of two reference dates, each show theirs,
    on the portal's pages and on those of content/ alike."""
    for as_of in (date(2026, 6, 30), date(2025, 1, 2)):
        out = tmp_path / as_of.isoformat()
        build(Settings(data=(MINIMAL,), out=out, as_of=as_of, search_index=False))
        footers = {str(soup(out, url).find("footer")) for url in ("/", "/linhas/12-0140-00/", "/sobre/", "/decreto/")}
        assert len(footers) == 1
        assert f'<time datetime="{as_of.isoformat()}">{as_of:%d/%m/%Y}</time>' in footers.pop()


def test_home_shows_counts_and_search_form(site):
    page = soup(site, "/")
    numbers = [text(li) for li in page.select("ul.numeros li")]
    assert "3 linhas" in numbers
    assert "3 transportadoras" in numbers
    assert "2 de 6 outorgas vigentes pelas regras de 1993" in numbers
    assert "6 achados (6 de 6 regras verificadas)" in numbers
    form = page.find("form", role="search")
    assert form["action"] == "/busca/" and form.find("input", attrs={"name": "q"})


def test_line_page_shows_fare_in_force_outorgas_and_findings(site):
    page = soup(site, "/linhas/12-0140-00/")
    assert text(page.h1) == "Linha 12-0140-00: BRASILIA (DF) – CALDAS NOVAS (GO)"
    in_force = rows(table_by_caption(page, "Tarifas máximas vigentes em 30/06/2026"))
    assert [
        "BRASILIA → CALDAS NOVAS",
        "Convencional com sanitário",
        "R$ 88,50",
        "01/01/2025",
        "Reajuste (art. 24 § 1º)",
    ] in in_force
    assert not any("R$ 92,10" in r for r in in_force)  # from 2027: not yet in force
    outorgas = {r[0]: r for r in rows(table_by_caption(page, "Permissões e autorizações nesta linha"))}
    assert outorgas["OUT-1"][-2:] == ["01/03/2027", "Vigente"]  # 15 years from 29/02/2012 (CC art. 132 § 3)
    assert outorgas["OUT-4"][-1] == "Extinta"
    rules = {li["data-regra"] for li in page.select("section.achados li.achado")}
    assert rules == {
        "promocao-sem-antecedencia",
        "promocao-acima-do-maximo",
        "promocao-sem-outorga",
        "outorga-durante-impedimento",
        "operacao-apos-vencimento",
    }
    link = page.select_one('li.achado[data-regra="outorga-durante-impedimento"] a')
    assert link["href"] == "/decreto/#art-29"


def test_carrier_page_lists_outorgas_caducidade_and_infractions_by_group(site):
    page = soup(site, "/transportadoras/77888999000181/")
    assert text(page.h1) == "TRANSPORTES FRONTEIRA LTDA"
    assert "77.888.999/0001-81" in text(page.find("dl"))
    ids = [r[0] for r in rows(table_by_caption(page, "Permissões e autorizações da transportadora"))]
    assert ids == ["OUT-4", "OUT-6", "OUT-3"]  # by start date
    caducidade = page.find("a", href="/caducidades/portaria-dtr-no-45-2020/")
    assert caducidade and "15/04/2022" in text(caducidade.parent)
    by_group = rows(table_by_caption(page, "Autos por grupo de multa"))
    assert by_group == [["Grupo VI", "1"]]


def test_outorga_page_explains_term_and_art_94(site):
    page = soup(site, "/outorgas/out-2/")
    fields = dict(zip([text(d) for d in page.select("dl.ficha dt")], page.select("dl.ficha dd")))
    assert text(fields["Vencimento"]).startswith("08/10/2023")  # 08/10/1993 + 15 + 15 years (art. 94)
    assert fields["Vencimento"].find("a", href="/decreto/#art-94")
    assert "Vencida" in text(page.select_one("p.situacao"))


def test_caducidade_page_shows_bar_and_notice_finding(site):
    page = soup(site, "/caducidades/portaria-dtr-no-45-2020/")
    fields = {text(dt): text(dd) for dt, dd in zip(page.select("dl.ficha dt"), page.select("dl.ficha dd"))}
    assert fields["Impedida de nova outorga até"].startswith("15/04/2022 — impedimento encerrado")
    assert [li["data-regra"] for li in page.select("li.achado")] == ["caducidade-sem-comunicacoes"]


def test_rights_page_transcribes_the_articles_of_art_34(site):
    page = soup(site, "/direitos/")
    anchors = [s["id"] for s in page.select("section.artigo")]
    assert anchors == ["art-32", "art-33", "art-35", "art-37", "art-65", "art-66", "art-67", "art-68", "art-69"]
    assert page.find("a", href="/decreto/#art-34")


def test_decree_page_has_every_article_anchor(site):
    page = soup(site, "/decreto/")
    anchors = [s["id"] for s in page.select("section.artigo")]
    assert anchors == [f"art-{n}" for n in range(1, 102)]
    art96 = page.find("section", id="art-96")
    assert "excluir-se-á o dia de início" in text(art96)


def test_data_page_links_every_table_and_documents_derived_fields(site):
    page = soup(site, "/dados/")
    hrefs = {a["href"] for a in page.find_all("a")}
    for name in [
        "transportadoras",
        "linhas",
        "outorgas",
        "tarifas",
        "tarifas_promocionais",
        "infracoes",
        "caducidades",
        "enquadramentos",
        "achados",
        "rejeitados",
    ]:
        assert f"/dados/{name}.csv" in hrefs and f"/dados/{name}.json" in hrefs
        assert (site / "dados" / f"{name}.csv").is_file()
        assert f"/dados/{name}/" in hrefs  # the table's dictionary
    dictionary = soup(site, "/dados/outorgas/")
    assert [text(tr.th) for tr in dictionary.select("tr.derivado")] == [
        "vencimento", "vencimento_fundamento", "situacao", "transportadora_nome"]


def test_hostile_text_is_escaped_everywhere(site):
    for html in site.rglob("*.html"):
        page = BeautifulSoup(html.read_text(encoding="utf-8"), "html.parser")
        for script in page.find_all("script"):
            if script.get("type") == "application/ld+json":  # data, not code: JSON that closes no element
                assert json.loads(script.string) and "</" not in script.string, html
                continue
            assert script.get("src", "").startswith(("/pagefind/", "/tema/")), html
        assert not page.find("img"), html
    carrier = soup(site, "/transportadoras/44555666000181/")
    assert text(carrier.h1) == "EXPRESSO <script>alert('x')</script> S.A."


def test_internal_links_resolve(site):
    broken = []
    for html in site.rglob("*.html"):
        page = BeautifulSoup(html.read_text(encoding="utf-8"), "html.parser")
        for a in page.find_all(["a", "link", "script"]):
            ref = a.get("href") or a.get("src")
            if not ref or urlparse(ref).scheme or ref.startswith("#"):
                continue
            path = urlparse(ref).path
            target = site / path.lstrip("/")
            if path.endswith("/"):
                target = target / "index.html"
            if not target.exists():
                broken.append((str(html.relative_to(site)), ref))
            fragment = urlparse(ref).fragment
            if fragment and target.suffix == ".html":
                if not re.search(f'id="{re.escape(fragment)}"', target.read_text(encoding="utf-8")):
                    broken.append((str(html.relative_to(site)), ref))
    assert broken == []


def test_same_input_and_date_give_byte_identical_output(site, tmp_path):
    again = tmp_path / "again"
    build(Settings(data=(MINIMAL,), out=again, as_of=AS_OF, whoosh_dir=tmp_path / "busca"))
    first = {p.relative_to(site): p.read_bytes() for p in site.rglob("*") if p.is_file()}
    second = {p.relative_to(again): p.read_bytes() for p in again.rglob("*") if p.is_file()}
    assert first.keys() == second.keys()
    assert [k for k in first if first[k] != second[k]] == []


@pytest.mark.parametrize("url", ["/linhas/12-0140-00/", "/transportadoras/11222333000181/", "/caducidades/portaria-dtr-no-45-2020/"])
def test_record_pages_are_indexed_for_search(site, url):
    assert soup(site, url).find("main").has_attr("data-pagefind-body")
    assert (site / "pagefind" / "pagefind-ui.js").is_file()


def test_outorgas_are_found_by_number_and_on_their_line_not_as_pages_of_their_own(site):
    """The outorga pages stay out of Pagefind's index (half of it at national scale); the number typed in
    the search box finds the record through the identifier lookup, and the line's indexed page lists it."""
    assert not soup(site, "/outorgas/out-1/").find("main").has_attr("data-pagefind-body")
    shard = json.loads((site / "busca" / "ids" / "OU.json").read_text(encoding="utf-8"))
    assert shard["OUT1"] == ["/outorgas/out-1/", "Outorga OUT-1", "Outorga"]
    line = soup(site, "/linhas/12-0140-00/")
    assert line.find("main").has_attr("data-pagefind-body")
    assert line.find("a", href="/outorgas/out-1/").find_parent(attrs={"data-pagefind-ignore": True}) is None


def test_the_browser_search_leaves_out_the_source_lines_and_the_chart_of_a_line_page(site):
    """"Fonte: ..." is the same on every page of a source and the chart's text is its axes: neither is a
    word to find a line by; the line's own names and numbers are indexed."""
    line = soup(site, "/linhas/12-0140-00/")
    sources = line.find("main").find_all("p", class_="fonte")
    assert sources and all(p.has_attr("data-pagefind-ignore") for p in sources)
    assert line.find("figure", class_="historico-tarifas").has_attr("data-pagefind-ignore")
    assert line.find("h1").find_parent(attrs={"data-pagefind-ignore": True}) is None


def indexed(site: Path, url: str) -> str:
    """The text Pagefind indexed for the page at ``url``: its fragment's ``content`` in the site's bundle."""
    for path in (site / "pagefind" / "fragment").glob("*.pf_fragment"):
        raw = gzip.decompress(path.read_bytes())
        fragment = json.loads(raw[len(b"pagefind_dcd"):])
        if fragment["url"] == url:
            return " ".join(fragment["content"].split())
    raise AssertionError(f"{url} is not in Pagefind's index")


@pytest.mark.parametrize("url, named, shown_only", [
    # a line: its title, record card, outorgas' numbers, carriers, instruments and kinds of service (no filter
    # gives those); not its lists, counts, dates, headings and sentences (the stops, the timetable, the
    # infractions by group, the outorgas' situação, which a filter gives)
    ("/linhas/12-0140-00/",
     ["Linha 12-0140-00: BRASILIA (DF) – CALDAS NOVAS (GO)", "BR-040, GO-139", "OUT-1 VIACAO CERRADO LTDA",
      "OUT-6 TRANSPORTES FRONTEIRA LTDA. Autorização. Temporada turística", "Promoção sem 30 dias de antecedência"],
     ["Trechos com fracionamento", "RODOVIARIA DE CRISTALINA", "Horários e frequência", "viagens por semana",
      "Tarifas máximas", "Autos por grupo de multa", "Permissões e autorizações nesta linha", "Vencida",
      "Fatos nos dados que o Decreto", "Promoções registradas", "Fonte:"]),
    ("/linhas/sprj0030026/",
     ["Linha SPRJ0030026: SAO PAULO (SP) – RIO DE JANEIRO (RJ)", "2 trechos desta linha estão paralisados",
      "OUT-2 EXPRESSO"],
     ["Trechos que o regulador publica como paralisados", "50500.023456/2025-21", "Nenhum achado",
      "regime que substituiu"]),
    # a carrier: its name, CNPJ, outorgas' numbers and lines, the places its lines join; not the labels and
    # the download list every carrier's page repeats
    ("/transportadoras/11222333000181/",
     ["VIACAO CERRADO LTDA", "11.222.333/0001-81", "OUT-1 12-0140-00", "BRASILIA (DF) – CALDAS NOVAS (GO)"],
     ["Permissões e autorizações da transportadora", "Habilitação da transportadora como o regulador a publica",
      "Baixar as linhas e os horários", "Linhas em que a transportadora tem outorga", "Como abrir um CSV"]),
])
def test_the_browser_search_indexes_a_record_page_by_what_names_it(site, url, named, shown_only):
    """What Pagefind indexed of a page (read from its bundle) holds the words that find that record and
    leaves out the words the page shows but every page of its kind repeats or that no one searches a record
    by: at national scale those were most of Pagefind's text and of its memory."""
    shown = " ".join(soup(site, url).find("main").get_text(" ").split())
    words = indexed(site, url)
    for phrase in named:
        assert phrase in words, (url, phrase)
    for phrase in shown_only:
        assert phrase in shown, (url, phrase)  # on the page...
        assert phrase not in words, (url, phrase)  # ...but not a word to find it by


def test_bundled_sample_shows_every_finding(tmp_path):
    from pipeline import SAMPLE_DIR
    from pipeline.derive.findings import RULES

    result = build(Settings(data=(SAMPLE_DIR,), out=tmp_path / "s", as_of=AS_OF, search_index=False))
    assert result.report.valid
    assert set(result.derived.tables["achados"]["regra"]) == {r.slug for r in RULES}
    assert len(RULES) == 6
    page = soup(tmp_path / "s", "/achados/")
    assert len(page.select("dl.regras dt")) == 6


def test_line_page_shows_weekly_frequency_and_departures(site):
    page = soup(site, "/linhas/12-0140-00/")
    section = page.find("h2", id="horarios-titulo").parent
    assert "12 viagens por semana na ida" in text(section) and "7 na volta" in text(section)
    # the grid: a row per time, a column per weekday, ✓ where it runs (an empty cell where it does not)
    ida = rows(table_by_caption(page, "Partidas na ida"))
    assert ida[1][0] == "14:00" and ida[1][1:8] == ["✓"] * 5 + [""] * 2
    assert ida[1][8] == "Executivo, VIACAO CERRADO LTDA"
    volta = rows(table_by_caption(page, "Partidas na volta"))
    assert volta[0][1:8] == ["✓"] * 7
    assert volta[0][8] == "Convencional com sanitário, VIACAO CERRADO LTDA (só em janeiro, fevereiro, dezembro)"
    other = soup(site, "/linhas/sprj0030026/")
    # the fixture folder declares no source: the page says so, and says "none" only because it covers horarios
    assert text(other.find("h2", id="horarios-titulo").parent).endswith(
        "Nenhum horário registrado para esta linha na pasta pacote-minimo (fonte não declarada).")


def test_line_page_lists_its_sections(site):
    page = soup(site, "/linhas/12-0140-00/")
    assert rows(table_by_caption(page, "Trechos com fracionamento")) == [
        ["BRASILIA (DF) → CALDAS NOVAS (GO)", "298,5 km"], ["BRASILIA (DF) → CRISTALINA (GO)", "131,2 km"]]


def test_line_page_timetable_grid_fare_chart_and_fare_board(site):
    import csv as _csv

    from bs4 import BeautifulSoup as _Soup
    from conftest import MINIMAL

    soup = _Soup((site / "linhas" / "12-0140-00" / "index.html").read_text(encoding="utf-8"), "html.parser")
    with open(MINIMAL / "horarios.csv", encoding="utf-8", newline="") as fh:
        ida = {r["horario"] for r in _csv.DictReader(fh) if r["linha_prefixo"] == "12-0140-00" and r["sentido"] == "ida"}
    grid = next(t for t in soup.select("table.grade-horarios") if "Partidas na ida" in t.caption.get_text())
    assert [th.get_text() for th in grid.select("tbody th")] == sorted(ida)  # one row per time, not per entry
    assert [th.get_text() for th in grid.select("thead th")][1:8] == ["Seg", "Ter", "Qua", "Qui", "Sex", "Sáb", "Dom"]
    board = soup.select_one("#quadro-de-precos")
    assert "o quadro de preços que o ônibus devia levar" in board.caption.get_text()
    assert board.select_one('a[href="/decreto/#art-52-par-3"]')
    svg = soup.select_one("figure.historico-tarifas svg")
    assert svg["role"] == "img" and svg.title.get_text() == "Histórico das tarifas máximas"
    assert len(svg.select("circle")) >= 3  # 80,00, 88,50 and 92,10 for BRASILIA - CALDAS NOVAS
    assert "88,50" in soup.select_one("details").get_text()  # the same figures, in the table beside
    infractions = soup.select_one('section[aria-labelledby="infracoes-titulo"]')
    notices = rows(table_by_caption(infractions, "Autos mais recentes"))  # the fixture's two, each with its carrier
    assert [(r[0], r[2], r[4]) for r in notices] == [("AI-0001", "VIACAO CERRADO LTDA", "78-IV-b"),
                                                     ("AI-0002", "TRANSPORTES FRONTEIRA LTDA", "78-VI-a")]
    assert infractions.select_one('tbody a[href="/decreto/#art-78-inc-iv-al-b"]')  # the clause's anchor
    assert infractions.select_one('tbody a[href="/transportadoras/11222333000181/"]')


def test_clause_links_go_to_the_clause_anchor():
    from pipeline.site.filters import clausula_url

    assert clausula_url("78-V-a") == "/decreto/#art-78-inc-v-al-a"
    assert clausula_url("78-II") == "/decreto/#art-78-inc-ii"
    assert clausula_url("bogus") == "/decreto/"


def test_long_infraction_lists_are_collapsed_with_their_full_count(sample_site):
    import re as _re

    from bs4 import BeautifulSoup as _Soup

    from pipeline.site.context import RECENT_INFRACTIONS

    seen = cut = 0
    for page in sorted((sample_site / "transportadoras").glob("*/index.html")):
        summary = _Soup(page.read_text(encoding="utf-8"), "html.parser").find(
            "summary", string=_re.compile("^Autos mais recentes"))
        if summary is None:
            continue
        shown, total = (int(n.replace(".", "")) for n in _re.findall(r"[\d.]+", summary.get_text()))
        rows = summary.parent.select("tbody tr")
        assert len(rows) == shown == min(total, RECENT_INFRACTIONS)  # the most recent; all in /dados/
        assert summary.parent.has_attr("open") == (shown <= 10), page  # collapsed past a screenful
        seen += shown > 10
        cut += total > shown
    assert seen, "the sample has a carrier with more than a screenful of notices"
    assert cut, "the sample has a carrier with more notices than a page lists"


def test_each_page_lists_its_owner_s_latest_notices_as_the_published_table_orders_them(sample_site):
    """A carrier's and a line's page (and its index.json) list the owner's most recent notices, newest first
    (a tie by the notice's number), every field as infracoes.csv publishes it: recounted from the CSV."""
    import csv as _csv
    import json as _json

    from pipeline.site.context import RECENT_INFRACTIONS

    with open(sample_site / "dados" / "infracoes.csv", encoding="utf-8", newline="") as fh:
        notices = list(_csv.DictReader(fh))
    notices.sort(key=lambda n: n["numero_auto"])
    notices.sort(key=lambda n: n["data_hora"], reverse=True)
    checked = 0
    for folder, key in (("transportadoras", "transportadora_cnpj"), ("linhas", "linha_prefixo")):
        for page in sorted((sample_site / folder).glob("*/index.json")):
            facts = _json.loads(page.read_text(encoding="utf-8"))
            owner = facts["cnpj"] if folder == "transportadoras" else facts["prefixo"]
            expected = [n for n in notices if n[key] == owner][:RECENT_INFRACTIONS]
            listed = facts["infracoes"]
            assert [n["numero_auto"] for n in listed] == [n["numero_auto"] for n in expected], page
            for got, want in zip(listed, expected):
                assert got["data_hora"] == want["data_hora"] and got["local"] == want["local"]
                assert got["transportadora_nome"] == want["transportadora_nome"]
                assert f"{got['valor_multa']:.2f}" == want["valor_multa"] if want["valor_multa"] else got["valor_multa"] is None
            html = (page.parent / "index.html").read_text(encoding="utf-8")
            assert all(f'<th scope="row">{n["numero_auto"]}</th>' in html for n in expected), page
            checked += len(expected)
    assert checked > RECENT_INFRACTIONS * 2


@pytest.mark.parametrize("local, municipio, uf, shown", [
    ("BR-050, km 775", "BELEM", "PA", "BR-050, km 775 — BELEM/PA"),
    ("", "BELEM", "PA", "BELEM/PA"),  # no dash before the place when the source names no local
    ("BR-050, km 775", "", "PA", "BR-050, km 775 — PA"),
    ("BR-050, km 775", None, None, "BR-050, km 775"),
    ("", "", "", None),
])
def test_a_notice_s_place_is_one_rule_for_its_page_row_and_its_search_file(local, municipio, uf, shown):
    from pipeline.site import notices

    assert notices.place(local, municipio, uf) == shown


def test_each_listed_notice_shows_its_own_published_row_in_pt_br(sample_site):
    """Every row of a line's and a carrier's list of notices, as a reader sees it, recomputed from infracoes.csv
    and the labels the published descriptor gives: the page's cells are made apart from the records
    (pipeline/site/notices.py ``shown``), so each must still be its own notice's."""
    import csv as _csv
    import json as _json

    with open(sample_site / "dados" / "infracoes.csv", encoding="utf-8", newline="") as fh:
        notices = {n["numero_auto"]: n for n in _csv.DictReader(fh)}
    descriptor = _json.loads((sample_site / "dados" / "datapackage.json").read_text(encoding="utf-8"))
    fields = {f["name"]: f for r in descriptor["resources"] if r["name"] == "infracoes" for f in r["schema"]["fields"]}
    labels = {name: {c["value"]: c["label"] for c in fields[name]["categories"]} for name in ("penalidade", "situacao")}
    carriers = {page.parent.name for page in (sample_site / "transportadoras").glob("*/index.html")}

    def day(iso):  # a date, or a date and time to the minute
        return "—" if not iso else f"{iso[8:10]}/{iso[5:7]}/{iso[:4]}" + (f" {iso[11:16]}" if iso[11:] else "")

    def money(text):
        if not text:
            return "—"
        whole, cents = f"{float(text):.2f}".split(".")
        return f"R$\u00a0{int(whole):,}".replace(",", ".") + f",{cents}"

    checked = set()
    for folder in ("linhas", "transportadoras"):
        for page in sorted((sample_site / folder).glob("*/index.html")):
            summary = soup(sample_site, f"/{folder}/{page.parent.name}/").find("summary", string=re.compile("^Autos mais"))
            if summary is None:
                continue
            rows = summary.parent.select("tbody tr")
            listed = _json.loads((page.parent / "index.json").read_text(encoding="utf-8"))["infracoes"]
            assert [text(tr.th) for tr in rows] == [n["numero_auto"] for n in listed], page  # the records' order
            for tr in rows:
                cells = tr.find_all(["th", "td"])
                n = notices[text(cells[0])]
                assert cells[1].time["datetime"] == n["data_hora"], page
                assert text(cells[1]) == day(n["data_hora"]), page
                if folder == "linhas":
                    cnpj = n["transportadora_cnpj"]
                    link = cells[2].a
                    assert (link["href"] == f"/transportadoras/{cnpj}/") if cnpj in carriers else link is None, page
                    if link is not None:
                        assert text(link) == n["transportadora_nome"], page
                else:
                    assert text(cells[2]) == (n["linha_prefixo"] or "—"), page
                    if n["linha_prefixo"]:
                        assert cells[2].a["href"] == f"/linhas/{n['linha_prefixo'].lower()}/", page
                place = " — ".join(filter(None, [n["local"], "/".join(filter(None, [n["municipio"], n["uf"]]))]))
                assert text(cells[3]) == text(BeautifulSoup(place, "html.parser")), page
                assert text(cells[4]) == n["enquadramento"] and cells[4].a["href"].startswith("/decreto/#art-78"), page
                assert text(cells[5]) == labels["penalidade"][n["penalidade"]], page
                assert cells[6].get_text() == money(n["valor_multa"]), page
                assert text(cells[7]) == labels["situacao"][n["situacao"]], page
                assert [text(cells[8]), text(cells[9])] == [day(n["prazo_defesa"]), day(n["prazo_recurso"])], page
                checked.add((folder, n["numero_auto"]))
    assert len({k for f, k in checked if f == "linhas"}) > 20 and len({k for f, k in checked if f != "linhas"}) > 20


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 6), st.sampled_from(["A", "B", "C"]), st.sampled_from(["", "L1", "L2"])),
                max_size=60),
       st.integers(1, 5))
def test_the_notices_sorted_for_the_pages_hold_every_owner_s_most_recent(rows, n):
    """Only the notices that may be among an owner's ``n`` most recent are sorted by time and number
    (context._among_recent): a notice is among them exactly when, for its carrier or its line, it is as recent
    as that owner's ``n``-th (ties included), so each owner's first ``n`` by time and number are all there."""
    import pandas as pd

    from pipeline.site.context import _among_recent

    start = datetime(2021, 3, 1, 8, 0)
    df = pd.DataFrame({"numero_auto": [f"AI-{i:03d}" for i in range(len(rows))][::-1],
                       "data_hora": [start + timedelta(hours=h) for h, _, _ in rows],
                       "transportadora_cnpj": [c for _, c, _ in rows], "linha_prefixo": [p for _, _, p in rows]},
                      index=range(100, 100 + len(rows)))
    got = set(_among_recent(df, ("transportadora_cnpj", "linha_prefixo"), n))
    expected = set()
    for key in ("transportadora_cnpj", "linha_prefixo"):
        for _, group in df.groupby(key):
            ranked = group.sort_values(["data_hora", "numero_auto"], ascending=[False, True])
            nth = ranked["data_hora"].iloc[min(n, len(ranked)) - 1]
            expected |= set(group.index[group["data_hora"] >= nth])
            assert set(ranked.index[:n]) <= got
    assert got == expected


class _Html:
    def __html__(self):
        return "<b>já seguro</b>"


class _Text(str):
    pass


@given(st.text())
def test_the_templates_escape_writes_what_markupsafe_writes(value):
    """pipeline/site/templating.py: the same text, of type Markup, as MarkupSafe's escape, for any text, the
    markup a macro or a filter returns, and everything else a page prints."""
    import markupsafe
    from jinja2 import Environment, Undefined

    from pipeline.site.templating import PortalTemplate, escape

    for given_ in (value, markupsafe.Markup(value), _Text(value), None, 12, 1.5, True, _Html(), Undefined(),
                   "<script>alert('x')</script> & \"S.A.\""):
        assert escape(given_) == markupsafe.escape(given_) and type(escape(given_)) is markupsafe.Markup
    env = Environment(autoescape=True)
    env.template_class = PortalTemplate
    page = env.from_string("<p>{{ a }}|{{ b }}|{{ c }}</p>").render(a=value, b=markupsafe.Markup("<i>x</i>"), c=_Html())
    assert page == f"<p>{markupsafe.escape(value)}|<i>x</i>|<b>já seguro</b></p>"


def test_a_pages_listed_rows_give_the_same_json_by_column():
    """pipeline/site/record.py: a page's rows kept by column (a line's latest notices) are written to its
    index.json from their columns converted once, exactly as each row's record would be."""
    from decimal import Decimal

    import pandas as pd

    from pipeline.site.record import Rows, as_json, json_columns

    columns = {"numero_auto": ["A1", "A2", "A3"], "data_hora": [pd.Timestamp("2021-03-01 10:05"), datetime(2021, 3, 2, 9),
                                                                 None],
               "prazo": [date(2021, 4, 1), date(2021, 4, 1), None], "valor": [Decimal("1000.50"), float("nan"), 3.5],
               "grupo": [1, 2, None]}  # a column holds one type
    by_column, by_record = Rows(columns, [2, 0, 1], as_json=json_columns(columns)), Rows(columns, [2, 0, 1])
    page = {"slug": "x", "infracoes": by_column}
    assert json.dumps(as_json(page)) == json.dumps(as_json({"slug": "x", "infracoes": by_record}))
    assert as_json(page) == {"slug": "x", "infracoes": [
        {"numero_auto": "A3", "data_hora": None, "prazo": None, "valor": 3.5, "grupo": None},
        {"numero_auto": "A1", "data_hora": "2021-03-01T10:05:00", "prazo": "2021-04-01", "valor": "1000.50",
         "grupo": 1},
        {"numero_auto": "A2", "data_hora": "2021-03-02T09:00:00", "prazo": "2021-04-01", "valor": None, "grupo": 2}]}
    assert json_columns({"a": ["x", {"url": "/linhas/x/"}]}) is None and json_columns({"a": [["x"]]}) is None


def test_rows_made_on_demand_read_the_same_by_loop_and_by_position():
    """pipeline/site/record.py: a page's rows made when asked for (a line's latest notices, a pair's months of
    tickets) give the same records in a template's loop, by position and sliced."""
    from jinja2 import Environment

    from pipeline.site.cities import MonthlyTickets
    from pipeline.site.record import Rows

    columns = {"numero_auto": ["A1", "A2", "A3", "A4"], "uf": ["GO", "DF", "SP", "MG"]}
    rows = Rows(columns, [3, 0, 2])
    assert list(rows) == [rows[0], rows[1], rows[-1]] == rows[0:3] == [
        {"numero_auto": "A4", "uf": "MG"}, {"numero_auto": "A1", "uf": "GO"}, {"numero_auto": "A3", "uf": "SP"}]
    page = Environment(autoescape=True).from_string("{% for r in rows %}{{ r.numero_auto }}/{{ r.uf }} {% endfor %}")
    assert page.render(rows=rows) == "A4/MG A1/GO A3/SP "
    sums = {"mes": ["2025-01", "2025-02", "2025-03"], "bilhetes": [10, 20, 30], "pagos": [8, 20, 0],
            "pago_com_valor": [8, 20, 0], "pago_total": [8000, 30000, 0]}
    months = MonthlyTickets(sums, 1, 3)
    assert list(months) == [months[0], months[1]] == [
        {"mes": "2025-02", "bilhetes": 20, "pagos": 20, "gratuitos": 0, "valor_medio_pago": 1500.0},
        {"mes": "2025-03", "bilhetes": 30, "pagos": 0, "gratuitos": 30, "valor_medio_pago": None}]
