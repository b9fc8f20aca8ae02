"""Every Atom feed the build writes is valid against RFC 4287 (issue 26), checked here without a network by
:func:`problems`, a checker of the RFC's MUSTs written for these tests (xml.etree): the fixture build, the
fictional sample, the real 2021 timetable export alone (outorgas, caducidades, promotions and infractions not
covered) and a build with ``--anterior`` (the feed of changes with an entry). feedparser, when installed in the
environment, must also read each feed without complaint (``bozo == 0``).

Beside validity, what the feeds say of their provenance: ``atom:rights`` names the licences of the data (each
source's) and of the portal's own work; ``atom:subtitle`` says what the feed lists, from which sources of
which date, and "Dados fictícios" for the sample; a feed of a table no source covers says so, never
"0 de 0"; a finding's entry is dated by its record's own date, never by ``--as-of``."""

from __future__ import annotations

import dataclasses
import json
import re
import xml.etree.ElementTree as ET
from datetime import date, datetime
from pathlib import Path

import pytest
from conftest import AS_OF, MINIMAL

from pipeline.build import build
from pipeline.contract.clock import local_moment
from pipeline.contract.settings import Settings
from pipeline.site import feeds
from pipeline.site.record import Record

A = "{http://www.w3.org/2005/Atom}"
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"

# RFC 3339 section 5.6 date-time, with the RFC 4287 section 3.3 constraint that "T" and "Z" be upper case
_RFC3339 = re.compile(r"(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})\Z")
# RFC 3987: an IRI has a scheme, then no character an IRI cannot hold (space, controls, <>"{}|\^`)
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")
_NOT_IRI = re.compile(r'[\x00-\x20\x7f<>"{}|\\^`]')
_LANG = re.compile(r"[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*\Z")  # RFC 3066, as xml:lang and hreflang use it


def _is_date(text: str | None) -> bool:
    m = _RFC3339.match(text or "")
    if not m:
        return False
    try:
        datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return False
    offset = m.group(8)
    return offset == "Z" or (int(offset[1:3]) < 24 and int(offset[4:6]) < 60)


def _is_iri(text: str | None, absolute: bool = True) -> bool:
    text = (text or "").strip() if text is not None else None
    if not text or _NOT_IRI.search(text):
        return False
    return bool(_SCHEME.match(text)) if absolute else True


def _once(parent: ET.Element, name: str, where: str, out: list[str], *, required: bool = True) -> ET.Element | None:
    found = parent.findall(f"{A}{name}")
    if len(found) > 1 or (required and not found):
        out.append(f"{where}: {len(found)} atom:{name} (RFC 4287: {'exactly' if required else 'at most'} one)")
    return found[0] if found else None


def _text_construct(element: ET.Element | None, where: str, out: list[str]) -> None:
    """RFC 4287 3.1: type is text, html or xhtml; text and html hold no child element; xhtml one xhtml:div."""
    if element is None:
        return
    kind = element.get("type", "text")
    if kind not in ("text", "html", "xhtml"):
        out.append(f"{where}: type={kind!r} (3.1: text, html or xhtml)")
    children = list(element)
    if kind in ("text", "html") and children:
        out.append(f"{where}: type={kind} with child elements (3.1.1: no child elements)")
    if kind == "xhtml" and (len(children) != 1 or children[0].tag != "{http://www.w3.org/1999/xhtml}div"):
        out.append(f"{where}: type=xhtml without exactly one xhtml:div (3.1.1.3)")


def _date_construct(element: ET.Element | None, where: str, out: list[str]) -> None:
    if element is not None and not _is_date(element.text):
        out.append(f"{where}: {element.text!r} is not an RFC 3339 date-time with a time zone (3.3)")


def _person(element: ET.Element, where: str, out: list[str]) -> None:
    """RFC 4287 3.2: exactly one atom:name; at most one atom:uri (an IRI) and one atom:email."""
    name = _once(element, "name", where, out)
    if name is not None and not (name.text or "").strip():
        out.append(f"{where}: an empty atom:name")
    uri = _once(element, "uri", where, out, required=False)
    if uri is not None and not _is_iri(uri.text, absolute=False):
        out.append(f"{where}: atom:uri {uri.text!r} is not an IRI reference (3.2.2)")
    _once(element, "email", where, out, required=False)


def _links(parent: ET.Element, where: str, out: list[str]) -> list[ET.Element]:
    """RFC 4287 4.2.7: every atom:link has an href (an IRI reference); at most one rel="alternate" (the
    default rel) per type and hreflang. Returns the alternate links."""
    alternates: dict[tuple[str | None, str | None], int] = {}
    found = []
    for link in parent.findall(f"{A}link"):
        href = link.get("href")
        if href is None or not _is_iri(href, absolute=False):
            out.append(f"{where}: atom:link href={href!r} is not an IRI reference (4.2.7.1)")
        if link.get("hreflang") is not None and not _LANG.match(link.get("hreflang")):
            out.append(f"{where}: atom:link hreflang={link.get('hreflang')!r} (4.2.7.4)")
        if link.get("length") is not None and not link.get("length").isdigit():
            out.append(f"{where}: atom:link length={link.get('length')!r} (4.2.7.6)")
        if link.get("rel", "alternate") == "alternate":
            key = (link.get("type"), link.get("hreflang"))
            alternates[key] = alternates.get(key, 0) + 1
            found.append(link)
    for (kind, lang), n in alternates.items():
        if n > 1:
            out.append(f"{where}: {n} atom:link rel=alternate of type={kind!r} hreflang={lang!r} (4.1.1, 4.1.2: at most one)")
    return found


def _id(parent: ET.Element, where: str, out: list[str]) -> str | None:
    element = _once(parent, "id", where, out)
    if element is None:
        return None
    if not _is_iri(element.text):
        out.append(f"{where}: atom:id {element.text!r} is not an absolute IRI (4.2.6)")
    return element.text


def problems(path: Path) -> list[str]:
    """What in the feed at ``path`` breaks a MUST of RFC 4287 (and the project's: entries' ids unique); [] when
    none does."""
    out: list[str] = []
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as exc:
        return [f"not well-formed XML: {exc}"]
    if root.tag != f"{A}feed":
        return [f"the root is {root.tag}, not atom:feed (4.1.1)"]
    if root.get(XML_LANG) is not None and not _LANG.match(root.get(XML_LANG)):
        out.append(f"feed: xml:lang={root.get(XML_LANG)!r}")
    _id(root, "feed", out)
    for name in ("title", "subtitle", "rights"):
        _text_construct(_once(root, name, "feed", out, required=name == "title"), f"feed/{name}", out)
    _date_construct(_once(root, "updated", "feed", out), "feed/updated", out)
    for name in ("generator", "icon", "logo"):
        _once(root, name, "feed", out, required=False)
    for i, person in enumerate(root.findall(f"{A}author") + root.findall(f"{A}contributor")):
        _person(person, f"feed/person[{i}]", out)
    _links(root, "feed", out)
    entries = root.findall(f"{A}entry")
    # 4.1.1: an atom:author in the feed, unless every entry has one (its own or its atom:source's); a feed
    # without entries then needs its own (as the W3C Feed Validation Service reads the rule: no entry has one)
    if not root.findall(f"{A}author") and (not entries or not all(
            e.findall(f"{A}author") or e.findall(f"{A}source/{A}author") for e in entries)):
        out.append("feed: no atom:author, and not every entry has one (4.1.1)")
    ids: dict[str, int] = {}
    for n, entry in enumerate(entries, 1):
        where = f"entry {n}"
        ident = _id(entry, where, out)
        if ident is not None:
            ids[ident] = ids.get(ident, 0) + 1
        _text_construct(_once(entry, "title", where, out), f"{where}/title", out)
        _date_construct(_once(entry, "updated", where, out), f"{where}/updated", out)
        _date_construct(_once(entry, "published", where, out, required=False), f"{where}/published", out)
        for name in ("summary", "rights"):
            _text_construct(_once(entry, name, where, out, required=False), f"{where}/{name}", out)
        content = _once(entry, "content", where, out, required=False)
        for i, person in enumerate(entry.findall(f"{A}author") + entry.findall(f"{A}contributor")):
            _person(person, f"{where}/person[{i}]", out)
        alternates = _links(entry, where, out)
        # 4.1.2: no atom:content, then an atom:link rel="alternate"; content with src, then an atom:summary
        if content is None and not alternates:
            out.append(f"{where}: neither atom:content nor atom:link rel=alternate (4.1.2)")
        if content is not None and content.get("src") is not None and entry.find(f"{A}summary") is None:
            out.append(f"{where}: atom:content src without atom:summary (4.1.2)")
        for category in entry.findall(f"{A}category"):
            if not category.get("term"):
                out.append(f"{where}: atom:category without term (4.2.2.1)")
    out += [f"{n} entries share the atom:id {i!r}" for i, n in ids.items() if n > 1]
    return out


def bozo(path: Path) -> str:
    """feedparser's complaint about the feed ("" when none, or when feedparser is not installed)."""
    try:
        import feedparser
    except ImportError:
        return ""
    parsed = feedparser.parse(path.read_bytes())
    return "" if not parsed.bozo else f"bozo: {parsed.get('bozo_exception')!r}"


def check_all(site: Path) -> dict[str, list[str]]:
    """Each feed of ``site`` (every ``*.atom.xml``) and its problems."""
    paths = sorted(site.glob("**/*.atom.xml"))
    assert paths, f"no feed under {site}"
    return {p.relative_to(site).as_posix(): problems(p) + ([b] if (b := bozo(p)) else []) for p in paths}


# --- the checker finds what it is for -----------------------------------------------------------------------

_GOOD = """<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="pt-BR"><title>t</title><link href="/x/" rel="alternate"/>
<id>tag:exemplo,2026:/f</id><updated>2026-06-30T00:00:00-03:00</updated>{author}
<entry><title>e</title><link href="/x/1/" rel="alternate"/><id>tag:exemplo,2026:/x/1/</id>
<updated>2026-06-29T00:00:00-03:00</updated><summary type="html">s</summary></entry>{more}</feed>"""
_AUTHOR = "<author><name>Portal</name></author>"


@pytest.mark.parametrize(("author", "more", "expected"), [
    (_AUTHOR, "", None),
    ("", "", "no atom:author"),  # the feed of changes before issue 26
    (_AUTHOR + "<id>tag:exemplo,2026:/g</id>", "", "2 atom:id"),
    (_AUTHOR, "<entry><title>e</title><id>tag:exemplo,2026:/2</id><updated>2026-06-29T00:00:00-03:00</updated></entry>",
     "neither atom:content nor atom:link rel=alternate"),
    (_AUTHOR, "<entry><title>e</title><link href='/2/'/><id>/x/2/</id><updated>2026-06-29T00:00:00-03:00</updated></entry>",
     "is not an absolute IRI"),
    (_AUTHOR, "<entry><title>e</title><link href='/2/'/><id>tag:e,2026:/2</id><updated>2026-06-29T00:00:00</updated></entry>",
     "with a time zone"),
    (_AUTHOR, "<entry><title>e</title><link href='/2/'/><id>tag:e,2026:/2</id><updated>2026-06-29t00:00:00z</updated></entry>",
     "with a time zone"),
    (_AUTHOR, "<entry><title>e</title><link href='/2/'/><link href='/3/' rel='alternate'/><id>tag:e,2026:/2</id>"
              "<updated>2026-06-29T00:00:00Z</updated></entry>", "2 atom:link rel=alternate"),
    (_AUTHOR, "<entry><link href='/2/'/><id>tag:e,2026:/2</id><updated>2026-06-29T00:00:00Z</updated></entry>",
     "0 atom:title"),
    (_AUTHOR, "<entry><title>e</title><link href='/2/'/><id>tag:exemplo,2026:/x/1/</id>"
              "<updated>2026-06-29T00:00:00Z</updated></entry>", "share the atom:id"),
])
def test_the_checker_finds_each_broken_must(tmp_path, author, more, expected):
    path = tmp_path / "f.atom.xml"
    path.write_text(_GOOD.format(author=author, more=more), encoding="utf-8")
    found = problems(path)
    if expected is None:
        assert found == []
    else:
        assert any(expected in p for p in found), found


def test_a_feed_without_entries_needs_its_own_author(tmp_path):
    path = tmp_path / "f.atom.xml"
    text = _GOOD.format(author="", more="")
    path.write_text(re.sub(r"<entry>.*</entry>", "", text, flags=re.S), encoding="utf-8")
    assert any("no atom:author" in p for p in problems(path))


# --- every feed of every build ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def compared_site(site, tmp_path_factory) -> Path:
    """The fixture package built again a month later with the golden build as ``--anterior``: the feed of
    changes has an entry."""
    out = tmp_path_factory.mktemp("feeds-anterior") / "site"
    build(Settings(data=(MINIMAL,), out=out, as_of=date(2026, 7, 31), previous=str(site), search_index=False))
    return out


BUILDS = ["site", "sample_site", pytest.param("real_only_site", marks=pytest.mark.slow), "compared_site"]


def feed(site: Path, name: str) -> ET.Element:
    return ET.parse(site / "feeds" / name).getroot()


def text(root: ET.Element, name: str) -> str:
    return root.findtext(f"{A}{name}") or ""


@pytest.mark.parametrize("build_name", BUILDS)
def test_every_feed_is_valid_atom(build_name, request):
    site = request.getfixturevalue(build_name)
    found = check_all(site)
    assert sorted(p for p in found if p.startswith("feeds/")) == [f"feeds/{n}.atom.xml" for n in (
        "achados", "caducidades", "mudancas", "outorgas", "tarifas-promocionais")]
    # besides, a page's own feed of what changed of it (tests/test_route_feeds.py), beside the page
    assert all(p.endswith("/mudancas.atom.xml") and (site / p).with_name("index.html").is_file()
               for p in found if not p.startswith("feeds/"))
    assert found == {path: [] for path in found}


@pytest.mark.parametrize("build_name", BUILDS)
def test_every_feed_states_its_provenance(build_name, request):
    """A subtitle saying what the feed lists, from which sources of which date, and the date of the
    calculations; rights giving the portal's licence and each source's; never "0 de 0"."""
    site = request.getfixturevalue(build_name)
    descriptor = json.loads((site / "dados" / "datapackage.json").read_text(encoding="utf-8"))
    fictional = bool(descriptor["x-ficticio"])
    for path in sorted((site / "feeds").glob("*.atom.xml")):
        root = ET.parse(path).getroot()
        subtitle, rights = text(root, "subtitle"), text(root, "rights")
        assert "0 de 0" not in subtitle and " 0 registro" not in subtitle, (path.name, subtitle)
        assert subtitle.startswith("Dados fictícios, para demonstração. ") == fictional, (path.name, subtitle)
        assert "Data dos cálculos" in subtitle
        assert rights.startswith("Licença do que o portal publica: Creative Commons Atribuição 4.0 Internacional "
                                 "(CC-BY-4.0), https://creativecommons.org/licenses/by/4.0/."), (path.name, rights)
        assert text(root, "author/" + A + "name") == "Portal do transporte rodoviário interestadual de passageiros"
        for entry in root.findall(f"{A}entry"):
            assert (entry.findtext(f"{A}summary") or "").startswith("Dados fictícios") == fictional
    # the feed of changes names every source of the release, its date and its licence
    changes = feed(site, "mudancas.atom.xml")
    for source in descriptor["sources"]:
        assert source["title"] in text(changes, "subtitle") and source["title"] in text(changes, "rights")
        if source.get("declared") is not False:
            day = "/".join(reversed(source["date"].split("-")))
            assert f"{source['title']} (dados de {day})" in text(changes, "subtitle")
            assert f"{source['title']}: {source['license']}" in text(changes, "rights")
        else:
            assert f"{source['title']}: licença não informada" in text(changes, "rights")


def test_the_sample_says_fictional_and_names_its_source(sample_site):
    for name in ("outorgas", "caducidades", "tarifas-promocionais", "achados", "mudancas"):
        root = feed(sample_site, f"{name}.atom.xml")
        assert "Dados fictícios, para demonstração" in text(root, "title")
        assert "Amostra fictícia do portal" in text(root, "subtitle")
        assert "(dados de 29/11/2026)" in text(root, "subtitle")
        assert "Licença da fonte: Projeto do portal, Amostra fictícia do portal (gerada por python -m pipeline " \
               "generate): CC-BY-4.0." in text(root, "rights")
    outorgas = text(feed(sample_site, "outorgas.atom.xml"), "subtitle")
    assert "50 de 80 registro(s) de outorgas (permissões e autorizações), do mais recente ao mais antigo pela " \
           "data de início." in outorgas


@pytest.mark.slow
def test_the_real_export_says_which_tables_its_sources_do_not_include(real_only_site):
    """The 2021 timetable alone: no outorga, caducidade, promotion or infraction, no finding rule runs; each feed
    says so (its title "fora das fontes deste site"), none says "0 de 0" or lists anything."""
    for name, plural in (("outorgas", "outorgas (permissões e autorizações)"), ("caducidades", "caducidades"),
                         ("tarifas-promocionais", "tarifas promocionais")):
        root = feed(real_only_site, f"{name}.atom.xml")
        assert text(root, "title").split(" — ")[0].endswith(" (fora das fontes deste site)")
        assert text(root, "subtitle").startswith(f"As fontes deste site não incluem {plural}: este feed não tem "
                                                 "entradas porque esses registros são desconhecidos")
        assert not root.findall(f"{A}entry")
        assert "ANTT" not in text(root, "rights")  # no source supplies what it would list
    findings = feed(real_only_site, "achados.atom.xml")
    assert text(findings, "subtitle").startswith(
        "Achados não verificados: nenhuma das 6 regras pôde ser verificada com as fontes deste site. As fontes deste "
        "site não incluem outorgas, tarifas máximas, promoções, infrações e caducidades.")
    assert not findings.findall(f"{A}entry")
    changes = feed(real_only_site, "mudancas.atom.xml")
    assert "ANTT — Agência Nacional de Transportes Terrestres, Quadro de horários 2021 (dados de 2021)" in \
        text(changes, "subtitle")
    assert "ANTT — Agência Nacional de Transportes Terrestres, Quadro de horários 2021: Dados abertos " \
           "governamentais (Decreto nº 8.777/2016)" in text(changes, "rights")


def test_the_feed_of_changes_has_its_entry_and_an_author(compared_site):
    root = feed(compared_site, "mudancas.atom.xml")
    (entry,) = root.findall(f"{A}entry")
    assert entry.findtext(f"{A}updated") == text(root, "updated") == "2026-07-31T00:00:00-03:00"
    assert "1 versão(ões) comparada(s) com a anterior" in text(root, "subtitle")
    assert text(root, "author/" + A + "name")


# --- the findings' dates, the rules' dates, the same bytes --------------------------------------------------


def test_every_finding_rule_names_the_date_its_entries_take(schema):
    """A rule added to pipeline/derive/findings.py needs its line in FINDING_DATES: a date of a table it reads,
    required by the schema (a record always has it)."""
    from pipeline.derive.findings import RULES

    assert set(feeds.FINDING_DATES) == {r.slug for r in RULES}
    for rule in RULES:
        table, field, named = feeds.FINDING_DATES[rule.slug]
        assert table in rule.tabelas and named
        (spec,) = [f for f in schema[table].fields if f["name"] == field]
        assert spec["type"] in ("date", "datetime") and spec.get("constraints", {}).get("required"), spec


@pytest.fixture(scope="module")
def data(schema, tmp_path_factory):
    """The fixture package's SiteData, made with the build's own calls (as tests/test_feeds.py does)."""
    from pipeline.build import check
    from pipeline.derive import derive
    from pipeline.publish import publish
    from pipeline.site.context import SiteData

    settings = Settings(data=(MINIMAL,), as_of=AS_OF)
    report = check(settings, schema)
    derived = derive(report.accepted, schema, settings.as_of, coverage=report.coverage,
                     file_sources=report.file_sources)
    published = publish(derived, report, schema, tmp_path_factory.mktemp("rfc4287") / "dados")
    return SiteData.build(derived, schema, report, published.descriptor, published.lines)


def test_findings_are_dated_by_their_records_in_brasilia_time(data, site, tmp_path):
    """Each entry of the findings feed carries the date of its record (its day's midnight, an infraction's
    too) with Brasília's offset; the feed's date is the newest; the build's own feed is the one
    written here (the same bytes from the same input)."""
    assert feeds.write(tmp_path, data, "", AS_OF) == [f["path"] for f in feeds.FEEDS]
    for f in feeds.FEEDS:
        assert (tmp_path / f["path"]).read_bytes() == (site / f["path"]).read_bytes()
    root = feed(tmp_path, "achados.atom.xml")
    dates = {e.find(f"{A}category").get("term"): e.findtext(f"{A}updated")
             for e in root.findall(f"{A}entry")}
    inf = data.tables["infracoes"]
    (numero,) = data.tables["achados"].query("regra == 'operacao-apos-vencimento'")["chave"]
    moment = inf.loc[inf["numero_auto"] == numero, "data_hora"].iloc[0]
    # the infraction's day at midnight in Brasília: its date-time's zone is not known (clock.py)
    assert dates["operacao-apos-vencimento"] == local_moment(datetime.combine(moment.date(), datetime.min.time())).isoformat()
    assert all(d.endswith(("-03:00", "-02:00")) for d in dates.values())
    assert text(root, "updated") == max(dates.values()) != f"{AS_OF.isoformat()}T00:00:00-03:00"


def test_a_finding_whose_record_has_no_date_is_dated_by_the_calculations_and_says_so(data, tmp_path):
    lost = Record(data.findings[0], chave="NAO-EXISTE")
    feeds.write(tmp_path, dataclasses.replace(data, findings=[lost]), "", AS_OF)
    root = feed(tmp_path, "achados.atom.xml")
    (entry,) = root.findall(f"{A}entry")
    assert entry.findtext(f"{A}updated") == text(root, "updated") == f"{AS_OF.isoformat()}T00:00:00-03:00"
    assert "não tem data própria: achado datado pela data dos cálculos, 30/06/2026." in entry.findtext(f"{A}summary")
    assert problems(tmp_path / "feeds" / "achados.atom.xml") == []


def test_with_a_site_url_every_feed_is_valid_with_absolute_addresses(data, tmp_path):
    feeds.write(tmp_path, data, "https://portal.exemplo.gov.br/portal", AS_OF)
    for f in feeds.FEEDS:
        path = tmp_path / f["path"]
        assert problems(path) == []
        root = ET.parse(path).getroot()
        assert text(root, "author/" + A + "uri") == "https://portal.exemplo.gov.br/portal/"
        assert all(e.findtext(f"{A}id").startswith("https://portal.exemplo.gov.br/portal/")
                   for e in root.findall(f"{A}entry"))


def test_the_feed_of_changes_gives_the_same_bytes_again(compared_site, tmp_path):
    descriptor = json.loads((compared_site / "dados" / "datapackage.json").read_text(encoding="utf-8"))
    from pipeline.release.changes import kept_changes

    feeds.write_changes(tmp_path, kept_changes(compared_site / "dados" / "versoes"), descriptor, "", date(2026, 7, 31))
    assert (tmp_path / "feeds" / "mudancas.atom.xml").read_bytes() == \
        (compared_site / "feeds" / "mudancas.atom.xml").read_bytes()
