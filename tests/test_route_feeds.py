"""Feeds that follow a route (issue 34): a line's, a carrier's and a pair of places' page gets an Atom feed of
what changed of it between releases (departures added or removed, a paralysis begun or ended, a licence or an
outorga changed), made from the change log, each entry dated by its source and linking to the page; the page
links its feed (``rel="alternate"`` and a visible link); a page that never changed has none. Three builds of
the fixture package, each given the one before as ``--anterior``, with the sources edited between them."""

from __future__ import annotations

import json
import re
import shutil
import xml.etree.ElementTree as ET
from datetime import date
from pathlib import Path

import pytest
from browser_support import _open, _serve, serious_violations
from conftest import MINIMAL, page_text
from test_feeds_rfc4287 import bozo, problems

from pipeline.build import build
from pipeline.contract.settings import Settings
from pipeline.release import routes
from pipeline.site.feeds import entry_sizes
from pipeline.site.links import broken_links

A = "{http://www.w3.org/2005/Atom}"
DAYS = (date(2026, 7, 1), date(2026, 7, 2), date(2026, 7, 3))
LINE, CARRIER, OTHER_LINE, OTHER_CARRIER = "12-0140-00", "11222333000181", "sprj0030026", "44555666000181"


def edit(folder: Path, name: str, old: str, new: str) -> None:
    text = (folder / name).read_text(encoding="utf-8")
    assert old in text, (name, old)
    (folder / name).write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.fixture(scope="module")
def nights(tmp_path_factory) -> list[Path]:
    """Night 1: the fixture package. Night 2: the 14:00 departure of 12-0140-00 moved to 15:30, SPRJ0030026's
    São Paulo -> Rio paralysis ended, a licence's validity extended. Night 3: a paralysis begun on 12-0140-00
    and outorga OUT-1 extinguished."""
    root = tmp_path_factory.mktemp("rotas")
    data = root / "pacote"
    shutil.copytree(MINIMAL, data)
    sites = []
    for n, day in enumerate(DAYS, 1):
        if n == 2:
            edit(data, "horarios.csv", f"{LINE},{CARRIER},ida,14:00", f"{LINE},{CARRIER},ida,15:30")
            edit(data, "paralisacoes.csv",
                 f"SPRJ0030026,{OTHER_CARRIER},SAO PAULO,SP,RIO DE JANEIRO,RJ,2026-06-10,Semileito,autorizacao\n", "")
            edit(data, "habilitacoes.csv", "123/2019,2027-12-31", "123/2019,2028-12-31")
        if n == 3:
            with open(data / "paralisacoes.csv", "a", encoding="utf-8") as fh:
                fh.write(f"{LINE},{CARRIER},BRASILIA,DF,CALDAS NOVAS,GO,2026-06-20,,autorizacao\n")
            edit(data, "outorgas.csv", "2012-02-29,,false,,,", "2012-02-29,,false,2026-06-25,desistencia,")
        out = root / f"noite{n}"
        build(Settings(data=(data,), out=out, as_of=day, search_index=False,
                       previous=str(sites[-1]) if sites else None))
        sites.append(out)
    return sites


def feeds_of(site: Path) -> list[str]:
    """Every feed of a record's page (the site's own feeds are under feeds/)."""
    return sorted(p.relative_to(site).as_posix() for p in site.glob("**/mudancas.atom.xml")
                  if not p.relative_to(site).as_posix().startswith("feeds/"))


def entries(site: Path, page: str) -> list[dict]:
    root = ET.parse(site / page.strip("/") / "mudancas.atom.xml").getroot()
    return [{"title": e.findtext(f"{A}title"), "summary": e.findtext(f"{A}summary"), "id": e.findtext(f"{A}id"),
             "updated": e.findtext(f"{A}updated"), "link": e.find(f"{A}link").get("href")}
            for e in root.findall(f"{A}entry")]


def pairs_listing(site: Path, prefix: str) -> set[str]:
    """The pair-of-places pages whose answer names the line, as a reader sees them."""
    return {p.parent.relative_to(site).as_posix() + "/mudancas.atom.xml" for p in site.glob("cidades/*/*/para/*/index.html")
            if prefix.upper() in page_text(p).upper()}


def test_a_first_release_has_no_feed_of_any_page_and_links_none(nights):
    first = nights[0]
    assert feeds_of(first) == []
    assert json.loads((first / "dados" / routes.INDEX).read_text(encoding="utf-8")) == {"eventos": []}
    assert "mudancas.atom.xml" not in (first / "linhas" / LINE / "index.html").read_text(encoding="utf-8")


def test_the_pages_whose_records_changed_get_a_feed_and_no_other(nights):
    second = nights[1]
    expected = {f"linhas/{LINE}/mudancas.atom.xml", f"transportadoras/{CARRIER}/mudancas.atom.xml",
                f"linhas/{OTHER_LINE}/mudancas.atom.xml", f"transportadoras/{OTHER_CARRIER}/mudancas.atom.xml",
                "cidades/sp/sao-paulo/para/rj-rio-de-janeiro/mudancas.atom.xml"} | pairs_listing(second, LINE)
    assert len(pairs_listing(second, LINE)) >= 2
    assert set(feeds_of(second)) == expected
    for path in feeds_of(second):
        assert problems(second / path) == [] and bozo(second / path) == "", path


def test_departures_moved_are_one_removed_and_one_added_each_dated_by_what_the_source_says(nights):
    second = nights[1]
    got = {e["title"]: e for e in entries(second, f"/linhas/{LINE}/")}
    assert set(got) == {f"Linha {LINE}: 1 partida(s) incluída(s) no quadro de horários",
                        f"Linha {LINE}: 1 partida(s) removida(s) no quadro de horários"}
    added = got[f"Linha {LINE}: 1 partida(s) incluída(s) no quadro de horários"]
    assert added["summary"].startswith("ida às 15:30, Executivo, seg, ter, qua, qui, sex.")
    assert "Datada pela data de autorização mais recente das partidas incluídas (29/02/2012)" in added["summary"]
    assert added["updated"] == "2012-02-29T00:00:00-03:00"
    removed = got[f"Linha {LINE}: 1 partida(s) removida(s) no quadro de horários"]
    assert "ida às 14:00, Executivo" in removed["summary"]
    # the fixture's source states no date of its file: the release's date, said
    assert "Datada pela data desta versão (a fonte não data a mudança) (02/07/2026)" in removed["summary"]
    assert all(e["link"] == f"/linhas/{LINE}/" for e in got.values())
    # the pair's feed says the same of the line
    pair = sorted(pairs_listing(second, LINE))[0].removesuffix("mudancas.atom.xml")
    assert {e["title"] for e in entries(second, "/" + pair)} == set(got)


def test_a_paralysis_ended_and_a_licence_changed_reach_their_pages(nights):
    second = nights[1]
    (ended,) = entries(second, "/cidades/sp/sao-paulo/para/rj-rio-de-janeiro/")
    assert ended["title"] == ("Linha SPRJ0030026: 1 trecho(s) fora da lista de serviços paralisados da fonte "
                              "(paralisação encerrada)")
    assert ended["summary"].startswith("SAO PAULO (SP) → RIO DE JANEIRO (RJ), paralisado desde 10/06/2026. Datada")
    carrier = {e["title"]: e["summary"] for e in entries(second, f"/transportadoras/{CARRIER}/")}
    assert "Validade: 31/12/2027 → 31/12/2028." in carrier["Habilitação alterada (mercado Regular)"]


def test_each_page_links_its_feed_and_an_unchanged_page_none(nights):
    second = nights[1]
    html = (second / "linhas" / LINE / "index.html").read_text(encoding="utf-8")
    assert (f'<link rel="alternate" type="application/atom+xml" href="/linhas/{LINE}/mudancas.atom.xml" '
            'title="Mudanças desta página (Atom)">') in html
    assert "Acompanhe as mudanças desta página" in page_text(second / "linhas" / LINE / "index.html")
    assert broken_links(second) == []
    unchanged = [p for p in second.glob("transportadoras/*/index.html") if not (p.parent / "mudancas.atom.xml").exists()]
    assert unchanged
    for page in unchanged:
        assert "mudancas.atom.xml" not in page.read_text(encoding="utf-8")


def test_a_later_release_keeps_the_earlier_entries_with_their_ids_and_dates_a_paralysis_by_its_day(nights):
    second, third = nights[1], nights[2]
    before = entries(second, f"/linhas/{LINE}/")
    after = entries(third, f"/linhas/{LINE}/")
    assert {(e["id"], e["title"], e["updated"]) for e in before} <= {(e["id"], e["title"], e["updated"]) for e in after}
    (begun,) = [e for e in after if "paralisado(s)" in e["title"]]
    assert begun["title"] == f"Linha {LINE}: 1 trecho(s) paralisado(s)"
    assert begun["summary"].startswith("BRASILIA (DF) → CALDAS NOVAS (GO), paralisado desde 20/06/2026. ")
    assert begun["updated"] == "2026-06-20T00:00:00-03:00"
    assert "Datada pela data de paralisação mais recente" in begun["summary"]
    extinct = next(e for e in after if e["title"] == "Outorga OUT-1: outorga alterada")
    assert extinct["updated"] == "2026-06-25T00:00:00-03:00"
    assert "Extinta em: — → 25/06/2026" in extinct["summary"]
    # newest first, by the source's date
    assert [e["updated"] for e in after] == sorted((e["updated"] for e in after), reverse=True)
    # the paralysed stretch's pair page has its feed; the carrier's has the outorga's entry too
    assert "Outorga OUT-1: outorga alterada" in {e["title"] for e in entries(third, f"/transportadoras/{CARRIER}/")}
    for path in feeds_of(third):
        assert problems(third / path) == [] and bozo(third / path) == "", path


def test_a_carried_index_is_read_as_hostile(nights, tmp_path):
    """A previous site's index with a path trick, a wrong shape and markup: the bad events are left out, the
    markup reaches the feed as text."""
    second = nights[1]
    good = json.loads((second / "dados" / routes.INDEX).read_text(encoding="utf-8"))["eventos"]
    event = dict(good[0], titulo="<script>alert(1)</script>")
    tricks = [dict(good[0], id=good[0]["id"][:-1] + "0", paginas=["/linhas/../../etc/"]),
              dict(good[0], id=good[0]["id"][:-1] + "1", data="2026-02-30"),
              dict(good[0], id="../../x", paginas=[f"/linhas/{LINE}/"]),
              dict(good[0], id=good[0]["id"][:-1] + "2", tipo="qualquer")]
    folder = tmp_path / "dados"
    folder.mkdir()
    (folder / routes.INDEX).write_text(json.dumps({"eventos": [event] + tricks}), encoding="utf-8")
    assert routes.read_carried(str(tmp_path)) == [event]
    (folder / routes.INDEX).write_text("{" * 100_000, encoding="utf-8")
    assert routes.read_carried(str(tmp_path)) == []


def test_the_same_releases_built_again_give_the_same_feeds(nights, tmp_path):
    again = tmp_path / "de-novo"
    build(Settings(data=(nights[2].parent / "pacote",), out=again, as_of=DAYS[2], search_index=False,
                   previous=str(nights[1])))
    assert feeds_of(again) == feeds_of(nights[2])
    for path in feeds_of(again):
        assert (again / path).read_bytes() == (nights[2] / path).read_bytes(), path
    assert re.search(rb'"eventos":\[\{', (again / "dados" / routes.INDEX).read_bytes())


def by_page(site: Path) -> dict[str, list[dict]]:
    """Each page's events, as the site's index lists them (newest first)."""
    pages: dict[str, list[dict]] = {}
    for e in json.loads((site / "dados" / routes.INDEX).read_text(encoding="utf-8"))["eventos"]:
        for page in e["paginas"]:
            if (site / page.strip("/") / "mudancas.atom.xml").is_file():
                pages.setdefault(page, []).append(e)
    return pages


def measured(site: Path):
    """``routes.fit``'s measure of each page's feed, read from the feed the build wrote."""
    return lambda page, events: entry_sizes((site / page.strip("/") / "mudancas.atom.xml").read_bytes())


def test_the_feeds_and_their_index_are_weighed_before_they_are_written(nights):
    for site in nights[1:]:
        pages = by_page(site)
        paths = [site / p for p in feeds_of(site)] + [site / "dados" / routes.INDEX]
        actual = sum(512 + -(-p.stat().st_size // 512) * 512 for p in paths)  # their share of a tar
        estimated = routes.weight(pages, measured(site))
        assert actual <= estimated <= actual + 1024 + 512 * len(pages), (site.name, actual, estimated)
        sizes = [entry_sizes((site / p).read_bytes()) for p in feeds_of(site)]
        assert [fixed + sum(each) for fixed, each in sizes] == [(site / p).stat().st_size for p in feeds_of(site)]


def test_feeds_over_their_share_of_the_host_keep_the_newest_entries_then_the_newest_pages(nights):
    pages, measure = by_page(nights[2]), measured(nights[2])
    full = routes.weight(pages, measure)
    assert routes.fit(pages, measure, full) == (pages, None)
    line = f"/linhas/{LINE}/"
    assert len(pages[line]) >= 4
    fitted, said = routes.fit(pages, measure, full - 1)
    assert all(events == pages[p][:len(events)] for p, events in fitted.items())
    assert max(len(v) for v in fitted.values()) < len(pages[line]) and "mudança(s) por página, as mais recentes" in said
    one_each = routes.weight({p: v[:1] for p, v in pages.items()}, measure)
    fitted, said = routes.fit(pages, measure, one_each - 1)
    assert len(fitted) == len(pages) - 1 and "não escrito(s)" in said
    oldest = max(pages, key=lambda p: (routes._newest_first(pages[p][0]), p))
    assert oldest not in fitted


@pytest.mark.parametrize("limit", [0, 1, None])
def test_the_change_log_entry_is_the_same_and_every_changed_row_is_kept_for_the_feeds(nights, limit):
    """The change log takes the followed tables' entries as the pages' feeds compared them
    (``changes.compare(done=...)``): the same entry as its own comparison; beside it, every changed row,
    however many the entry lists."""
    from pipeline.release import changes

    previous = changes.load_previous(str(nights[1]))
    current = changes.load_previous(str(nights[2]))
    now = {r["name"]: r for r in current.descriptor["resources"]}
    for name in routes.TABLES:
        key = now[name]["schema"].get("primaryKey") or []
        derived = changes.derived_fields(now[name])
        args = (name, previous.tables[name], current.tables[name], [key] if isinstance(key, str) else key, limit,
                derived, False)
        rows: dict = {}
        assert changes._compare_table(*args, rows) == (entry := changes._compare_table(*args)), name
        assert [len(rows[k]) for k in ("incluidos", "removidos", "alterados", "recalculados")] == \
            [entry[k] for k in ("incluidos", "removidos", "alterados", "recalculados")]
        assert list(rows["incluidos"].columns) == list(current.tables[name].columns)
        if limit is None:
            assert rows["alterados"] == entry["linhas"]["alterados"]
            assert rows["incluidos"].to_dict("records") == [r["registro"] for r in entry["linhas"]["incluidos"]]


@pytest.mark.parametrize("width", [360, 1280])
def test_the_feed_link_reads_on_a_phone_and_the_feed_opens(nights, browser, axe, width):
    """A passenger on the line's page finds the link, readable at 360 px and 1280 px with nothing cut, and it
    opens the feed; axe-core finds no serious WCAG 2.1 A/AA violation."""
    served = _serve(nights[1])
    url = next(served)
    tab = _open(browser, url, viewport={"width": width, "height": 800}, bypass_csp=True)  # axe: an inline script
    try:
        page = tab.page
        page.goto(f"/linhas/{LINE}/")
        link = page.get_by_role("link", name="Acompanhe as mudanças desta página")
        assert link.is_visible()
        box = link.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert serious_violations(page, axe) == []
        response = page.request.get(link.get_attribute("href"))
        assert response.ok and b"<feed" in response.body()
        assert tab.console_errors == []
    finally:
        tab.page.context.close()
        next(served, None)


def test_a_change_the_source_does_not_date_takes_its_files_day_else_the_releases():
    descriptor = {"sources": [{"name": "quadro", "date": "2026-06-15"}, {"name": "paralisados", "date": "2026-06"}],
                  "resources": [{"name": "horarios", "x-cobertura": {"situacao": "coberta", "fontes": ["quadro"]}},
                                {"name": "paralisacoes", "x-cobertura": {"situacao": "coberta", "fontes": ["paralisados"]}},
                                {"name": "habilitacoes", "x-cobertura": {"situacao": "coberta",
                                                                         "fontes": ["quadro", "paralisados"]}}]}
    dating = routes.Dating.of(descriptor, date(2026, 7, 1))
    assert dating.undated("horarios") == ("2026-06-15", "data do arquivo da fonte")
    for table in ("paralisacoes", "habilitacoes", "outorgas"):  # a month, two dates, no source: the release's
        assert dating.undated(table) == ("2026-07-01", "data desta versão (a fonte não data a mudança)")
