"""robots.txt and sitemap.xml (pipeline/site/discovery.py), and the --site-url setting that gives the
absolute URLs (issue 8, discovery)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from datetime import date

import pytest
from conftest import AS_OF, MINIMAL

from pipeline.build import build
from pipeline.contract.settings import Settings, SettingsError
from pipeline.site import discovery

NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
SITE_URL = "https://exemplo.github.io/portal"


@pytest.fixture(scope="module")
def published(tmp_path_factory):
    out = tmp_path_factory.mktemp("publicado") / "site"
    build(Settings(data=(MINIMAL,), out=out, as_of=AS_OF, site_url=SITE_URL + "/", search_index=False))
    return out


def test_the_sitemap_lists_every_page_with_its_absolute_url_and_no_date_it_does_not_know(published):
    root = ET.fromstring((published / "sitemap.xml").read_bytes())
    locs = [u.findtext("s:loc", namespaces=NS) for u in root.findall("s:url", NS)]
    pages = sorted(p.parent.relative_to(published).as_posix() for p in published.rglob("index.html"))
    assert locs == [SITE_URL + "/" if p == "." else f"{SITE_URL}/{p}/" for p in pages]
    assert f"{SITE_URL}/linhas/12-0140-00/" in locs and not any("404" in u for u in locs)
    # the build's date is not the date a page's facts last changed (issue 35): no page claims one
    assert [u.find("s:lastmod", NS) for u in root.findall("s:url", NS)] == [None] * len(locs)


def test_robots_points_to_the_sitemap_and_links_follow_the_public_path(published):
    assert (published / "robots.txt").read_text(encoding="utf-8") == (
        f"User-agent: *\nAllow: /\nSitemap: {SITE_URL}/sitemap.xml\n")
    assert 'href="/portal/linhas/"' in (published / "index.html").read_text(encoding="utf-8")  # base path from the URL


def test_without_a_public_address_there_is_no_sitemap(site):
    assert (site / "robots.txt").read_text(encoding="utf-8") == "User-agent: *\nAllow: /\n"
    assert not (site / "sitemap.xml").exists()


def test_past_fifty_thousand_urls_the_sitemap_is_an_index(tmp_path, monkeypatch):
    for n in range(5):
        (tmp_path / f"p{n}").mkdir()
        (tmp_path / f"p{n}" / "index.html").write_text("x", encoding="utf-8")
    monkeypatch.setattr(discovery, "MAX_URLS", 2)
    assert discovery.write(tmp_path, "https://x.org", date(2026, 1, 2)) == 5
    index = ET.fromstring((tmp_path / "sitemap.xml").read_bytes())
    assert [s.findtext("s:loc", namespaces=NS) for s in index.findall("s:sitemap", NS)] == [
        "https://x.org/sitemap-1.xml", "https://x.org/sitemap-2.xml", "https://x.org/sitemap-3.xml"]
    last = ET.fromstring((tmp_path / "sitemap-3.xml").read_bytes())
    assert [u.findtext("s:loc", namespaces=NS) for u in last.findall("s:url", NS)] == ["https://x.org/p4/"]


@pytest.mark.parametrize("url, base, says", [
    ("ftp://exemplo.org", "", "deve ser como https://"),
    ("https://exemplo.org/a?b=1", "", "sem ?, # nem espaços"),
    ("https://exemplo.org/portal", "/outro", "não combinam: o caminho do endereço público é /portal"),
])
def test_a_wrong_site_url_is_refused_with_a_message(url, base, says):
    with pytest.raises(SettingsError, match=says.replace("?", r"\?")):
        Settings(data=(MINIMAL,), site_url=url, base_path=base)


def test_the_site_url_gives_the_base_path():
    s = Settings(data=(MINIMAL,), site_url="https://exemplo.github.io/portal/")
    assert (s.site_url, s.base_path) == ("https://exemplo.github.io/portal", "/portal")
