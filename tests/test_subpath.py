"""The site served from a sub-path, as a GitHub Pages project site is (``https://<owner>.github.io/<repo>/``):
built with ``--base-path /portal`` and served over HTTP under ``/portal/``, every internal link, asset,
search-index file and download answers."""

from __future__ import annotations

import functools
import re
import threading
import urllib.request
from datetime import date
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urljoin, urlparse

import pytest
from conftest import MINIMAL

from pipeline.build import build
from pipeline.contract.settings import Settings, SettingsError
from pipeline.site.links import broken_links

REF = re.compile(r'\s(?:href|src|action)="([^"#]*)[^"]*"')


class Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002
        pass


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    root = tmp_path_factory.mktemp("pages")
    site = root / "portal"
    build(Settings(data=(MINIMAL,), out=site, as_of=date(2026, 6, 30), base_path="/portal",
                   whoosh_dir=root / "busca"))
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(root)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield site, f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def fetch(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, b""


def test_every_link_asset_and_download_answers_under_the_sub_path(served):
    site, origin = served
    start = origin + "/portal/"
    seen, queue, failures = set(), [start], []
    while queue:
        url = queue.pop()
        if url in seen:
            continue
        seen.add(url)
        status, body = fetch(url)
        if status != 200:
            failures.append((url, status))
            continue
        if url.endswith("/") or url.endswith(".html"):
            for ref in REF.findall(body.decode("utf-8")):
                target = urljoin(url, ref)
                parts = urlparse(target)
                if parts.netloc != urlparse(origin).netloc or not ref or ref.startswith("data:"):
                    continue
                assert parts.path.startswith("/portal/"), (url, ref)  # nothing escapes the sub-path
                queue.append(target.split("?")[0])
    assert failures == []
    pages = [u for u in seen if u.endswith("/")]
    assert len(pages) == len(list(site.rglob("index.html")))  # every page reached from the home page
    downloads = {urlparse(u).path for u in seen if "/dados/" in u and not u.endswith("/")}
    for name in ("linhas.csv", "linhas.json", "linhas.xlsx", "portal.sqlite", "pacote-completo.zip",
                 "datapackage.json"):
        assert f"/portal/dados/{name}" in downloads
    assert "/portal/tema/js/busca.js" in {urlparse(u).path for u in seen}
    # the search page's script imports Pagefind's module from the sub-path (tema/js/busca.js)
    assert fetch(origin + "/portal/pagefind/pagefind.js")[0] == 200


def test_the_search_index_is_found_next_to_its_script(served):
    site, origin = served
    status, entry = fetch(origin + "/portal/pagefind/pagefind-entry.json")
    assert status == 200 and b'"languages"' in entry
    for path in sorted((site / "pagefind").rglob("*"))[:20]:
        if path.is_file():
            assert fetch(f"{origin}/portal/{path.relative_to(site).as_posix()}")[0] == 200


def test_the_catalogues_json_ld_and_feeds_give_addresses_that_answer_under_the_sub_path(served):
    """``--base-path`` without ``--site-url``: no absolute address is known, so every address the catalogues,
    the pages' JSON-LD and the feeds give is under the sub-path (a root-relative ``/dados/...`` 404s there)."""
    site, origin = served
    texts = {"data.json": (site / "data.json").read_text(encoding="utf-8"),
             "dados/catalogo.jsonld": (site / "dados" / "catalogo.jsonld").read_text(encoding="utf-8"),
             "dados/index.html (JSON-LD)": "".join(re.findall(r'<script type="application/ld\+json">(.*?)</script>',
                                                            (site / "dados" / "index.html").read_text(encoding="utf-8"),
                                                            re.S))}
    texts |= {str(p.relative_to(site)): p.read_text(encoding="utf-8") for p in sorted((site / "feeds").glob("*.xml"))}
    assert len(texts) > 3
    checked = 0
    for name, text in texts.items():
        rooted = re.findall(r'"(/[^"\s]*)"|href="(/[^"]*)"', text)
        addresses = [a or b for a, b in rooted if not (a or b).startswith("//")]
        assert addresses, name
        outside = [a for a in addresses if not a.startswith("/portal/")]
        assert outside == [], (name, outside[:5])
        for address in sorted(set(addresses))[:15]:  # and they answer
            if "#" not in address:
                assert fetch(origin + address)[0] == 200, (name, address)
                checked += 1
    assert checked > 10


def test_the_places_json_files_give_addresses_that_answer_under_the_sub_path(served):
    """The places' record JSON and the pairs' answers (a pair without a page names its place's row, and an
    answer its way back): every address they give is under the sub-path, and the page it names answers."""
    site, origin = served
    files = sorted((site / "cidades").rglob("*.json"))
    addresses = set()
    for path in files:
        text = path.read_text(encoding="utf-8")
        found = [a for a in re.findall(r'"(/[^"\s]*)"', text) if not a.startswith("//")]
        outside = [a for a in found if not a.startswith("/portal/")]
        assert outside == [], (path.relative_to(site), outside[:5])
        addresses.update(found)
    assert any("#para-" in a for a in addresses)  # some pair is answered in its place's row
    for address in sorted(addresses):
        page, _, anchor = address.partition("#")
        status, body = fetch(origin + page)
        assert status == 200, address
        if anchor:
            assert f'id="{anchor}"'.encode() in body, address


def test_the_link_checker_finds_what_a_sub_path_breaks(served, tmp_path):
    site, _ = served
    assert broken_links(site, "/portal") == []
    page = site / "sobre" / "index.html"
    original = page.read_text(encoding="utf-8")
    try:
        page.write_text(original.replace('href="/portal/dados/"', 'href="/dados/"', 1)
                        .replace('href="/portal/decreto/#art-12"', 'href="/portal/decreto/#art-999"', 1),
                        encoding="utf-8")
        assert set(broken_links(site, "/portal")) == {("sobre/index.html", "/dados/"),
                                                     ("sobre/index.html", "/portal/decreto/#art-999")}
    finally:
        page.write_text(original, encoding="utf-8")


def test_a_malformed_base_path_is_refused(tmp_path):
    with pytest.raises(SettingsError, match="deve ser vazio ou como /portal"):
        Settings(data=(MINIMAL,), out=tmp_path / "s", base_path="portal sem barra")
