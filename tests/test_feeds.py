"""The Atom feeds of what is new (pipeline/site/feeds.py), on the bundled sample as of 2026-11-29: each is
Atom, lists the latest rows of its table (the expectation computed apart, with pandas, from the derived
tables), links each entry to its page, dates from the data only (a finding by its record's date; as_of only
for a feed without entries), in Brasília's time with its offset, same bytes each time, hostile text escaped,
``limit`` honoured. Validity against RFC 4287 and the feeds' provenance: tests/test_feeds_rfc4287.py."""

from __future__ import annotations

import dataclasses
import html
import xml.etree.ElementTree as ET
from datetime import date, datetime
from pathlib import Path
from urllib.parse import urlparse

import pandas as pd
import pytest

from pipeline import SAMPLE_DIR
from pipeline.build import check
from pipeline.contract.clock import local_moment
from pipeline.contract.identifiers import slugify
from pipeline.contract.settings import Settings
from pipeline.derive import derive
from pipeline.publish import publish
from pipeline.site import feeds
from pipeline.site.context import SiteData
from pipeline.site.record import Record

AS_OF = date(2026, 11, 29)
SITE = "https://portal.exemplo.gov.br/portal"
A = "{http://www.w3.org/2005/Atom}"
PATHS = {f["registros"]: f["path"] for f in feeds.FEEDS}


@pytest.fixture(scope="module")
def data(schema, tmp_path_factory) -> SiteData:
    """The sample's SiteData, made with the build's own calls (pipeline/build/__init__.py)."""
    settings = Settings(data=(SAMPLE_DIR,), as_of=AS_OF)
    report = check(settings, schema)
    assert report.accepted
    derived = derive(report.accepted, schema, settings.as_of, coverage=report.coverage,
                     file_sources=report.file_sources)
    published = publish(derived, report, schema, tmp_path_factory.mktemp("feeds") / "dados")
    return SiteData.build(derived, schema, report, published.descriptor, published.lines)


@pytest.fixture(scope="module")
def written(data, tmp_path_factory) -> tuple[Path, list[str]]:
    out = tmp_path_factory.mktemp("feeds-site")
    return out, feeds.write(out, data, SITE, AS_OF)


def parse(path: Path) -> ET.Element:
    root = ET.parse(path).getroot()
    assert root.tag == f"{A}feed"
    return root


def entries(root: ET.Element) -> list[dict]:
    return [{"id": e.findtext(f"{A}id"), "title": e.findtext(f"{A}title"), "link": e.find(f"{A}link").get("href"),
             "updated": e.findtext(f"{A}updated"), "published": e.findtext(f"{A}published"),
             "summary": e.findtext(f"{A}summary")} for e in root.findall(f"{A}entry")]


def stamp(day) -> str:
    """A date as the feeds write it: its midnight in Brasília's legal time, with the offset (-03:00, or -02:00
    in a summer of horário de verão); a date-time (in no stated zone) by its day likewise."""
    moment = datetime.combine(pd.Timestamp(day).to_pydatetime().date(), datetime.min.time())
    return local_moment(moment).isoformat()


def instant(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def newest(df: pd.DataFrame, field: str, key: str, n: int) -> pd.DataFrame:
    return df.assign(_d=pd.to_datetime(df[field])).sort_values(["_d", key], ascending=[False, True]).head(n)


def test_four_atom_feeds_are_written_and_declared(written):
    out, paths = written
    assert paths == [f["path"] for f in feeds.FEEDS] == [
        "feeds/outorgas.atom.xml", "feeds/caducidades.atom.xml", "feeds/tarifas-promocionais.atom.xml",
        "feeds/achados.atom.xml"]
    assert all(f["titulo"] for f in feeds.FEEDS)
    for path in paths:
        root = parse(out / path)
        assert root.get("{http://www.w3.org/XML/1998/namespace}lang") == "pt-BR"
        assert root.findtext(f"{A}id") == f"{SITE}/{path}"
        assert root.find(f"{A}link[@rel='self']").get("href") == f"{SITE}/{path}"
        assert root.findtext(f"{A}title") and root.findtext(f"{A}author/{A}name")
        items = entries(root)
        assert items
        assert len({e["id"] for e in items}) == len(items)
        for e in items:
            assert urlparse(e["id"]).scheme == "https" and e["link"].startswith(SITE + "/")
            assert e["title"] and e["summary"]
        # the feed's date is its newest entry's (compared as instants: offsets differ in old summers)
        assert root.findtext(f"{A}updated") == max((e["updated"] for e in items), key=instant)


def test_outorgas_are_the_latest_by_start(data, written):
    out, _ = written
    items = entries(parse(out / PATHS["outorga"]))
    expected = newest(data.tables["outorgas"], "inicio", "id", feeds.LIMIT)
    assert len(items) == feeds.LIMIT < len(data.tables["outorgas"])
    by_id = {o["id"]: o for o in data.records["outorga"]}
    for e, (_, row) in zip(items, expected.iterrows(), strict=True):
        assert e["title"].startswith(f"Outorga {row['id']} — ")
        assert by_id[row["id"]]["transportadora"]["razao_social"] in e["title"]
        assert e["link"] == e["id"] == f"{SITE}/outorgas/{slugify(row['id'])}/" == SITE + by_id[row["id"]]["url"]
        assert e["updated"] == e["published"] == stamp(row["inicio"])
    first = expected.iloc[0]
    labels = data.schema.labels
    assert items[0]["title"] == (
        f"Outorga {first['id']} — {labels[('outorgas', 'instrumento', first['instrumento'])]} "
        f"{labels[('outorgas', 'modalidade', first['modalidade'])]}, "
        f"{by_id[first['id']]['transportadora']['razao_social']}")


def test_caducidades_are_the_latest_by_declaration(data, written):
    out, _ = written
    items = entries(parse(out / PATHS["caducidade"]))
    expected = newest(data.tables["caducidades"], "data_declaracao", "ato", feeds.LIMIT)
    assert len(items) == len(data.tables["caducidades"])  # fewer than the limit: all of them
    for e, (_, row) in zip(items, expected.iterrows(), strict=True):
        assert e["link"] == e["id"] == f"{SITE}/caducidades/{slugify(row['ato'])}/"
        assert e["updated"] == stamp(row["data_declaracao"])
        assert row["ato"] in e["title"]


def test_promotions_link_to_their_line_with_unique_ids(data, written):
    out, _ = written
    items = entries(parse(out / PATHS["linha.tarifas_promocionais"]))
    expected = newest(data.tables["tarifas_promocionais"], "comunicado_em", "protocolo", feeds.LIMIT)
    assert len(items) == feeds.LIMIT
    lines = {line["url"] for line in data.records["linha"]}
    for e, (_, row) in zip(items, expected.iterrows(), strict=True):
        page = f"/linhas/{slugify(row['linha_prefixo'])}/"
        assert page in lines and e["link"] == SITE + page
        assert e["id"] == f"{SITE}{page}#promocao-{slugify(row['protocolo'])}"
        assert e["updated"] == stamp(row["comunicado_em"])
        assert row["protocolo"] in e["title"]


# the date, in the record a finding concerns, that its rule looks at (pipeline/derive/findings.py), by rule
RECORD_DATES = {
    "promocao-sem-antecedencia": ("tarifas_promocionais", "protocolo", "comunicado_em"),
    "promocao-acima-do-maximo": ("tarifas_promocionais", "protocolo", "inicio"),
    "promocao-sem-outorga": ("tarifas_promocionais", "protocolo", "inicio"),
    "outorga-durante-impedimento": ("outorgas", "id", "inicio"),
    "caducidade-sem-comunicacoes": ("caducidades", "ato", "data_declaracao"),
    "operacao-apos-vencimento": ("infracoes", "numero_auto", "data_hora"),
}


def test_findings_are_dated_by_their_records_newest_first_and_link_their_record(data, written):
    out, _ = written
    root = parse(out / PATHS["findings"])
    items = entries(root)
    t = data.tables

    def record_date(row):
        table, key, field = RECORD_DATES[row["regra"]]
        assert row["tabela"] == table
        df = t[table]
        return df.loc[df[key] == row["chave"], field].iloc[0]

    achados = t["achados"].assign(_when=lambda df: [pd.Timestamp(stamp(record_date(r))) for _, r in df.iterrows()])
    achados = achados.sort_values(["regra", "chave", "tabela", "descricao"]).sort_values("_when", ascending=False,
                                                                                         kind="stable")
    assert len(items) == len(achados) > 0
    assert set(achados["regra"]) == set(RECORD_DATES)  # the sample triggers every rule
    promo_line = dict(zip(t["tarifas_promocionais"]["protocolo"], t["tarifas_promocionais"]["linha_prefixo"]))
    auto_line = dict(zip(t["infracoes"]["numero_auto"], t["infracoes"]["linha_prefixo"]))
    kinds = {"outorgas": "outorgas", "caducidades": "caducidades"}
    for e, (_, row) in zip(items, achados.iterrows(), strict=True):
        if row["tabela"] in kinds:
            page = f"/{kinds[row['tabela']]}/{slugify(row['chave'])}/"
        else:
            line = {"tarifas_promocionais": promo_line, "infracoes": auto_line}.get(row["tabela"], {}).get(row["chave"])
            page = f"/linhas/{slugify(line)}/" if line else f"/achados/#regra-{row['regra']}"
        assert e["link"] == SITE + page, row.to_dict()
        assert e["updated"] == e["published"] == stamp(record_date(row))
        assert row["chave"] in e["title"]
        assert html.unescape(e["summary"]).endswith(f"{row['descricao']} ({row['artigo']})")
    assert root.findtext(f"{A}updated") == items[0]["updated"]
    assert {e["updated"] for e in items} != {stamp(AS_OF)}  # the records' dates, not the calculations'


def test_the_same_input_gives_the_same_bytes(data, written, tmp_path):
    out, paths = written
    assert feeds.write(tmp_path, data, SITE, AS_OF) == paths
    for path in paths:
        assert (tmp_path / path).read_bytes() == (out / path).read_bytes()


def test_limit_is_honoured_and_an_empty_feed_is_dated_as_of(data, tmp_path):
    feeds.write(tmp_path / "3", data, SITE, AS_OF, limit=3)
    items = entries(parse(tmp_path / "3" / PATHS["outorga"]))
    expected = newest(data.tables["outorgas"], "inicio", "id", 3)
    assert [e["link"] for e in items] == [f"{SITE}/outorgas/{slugify(i)}/" for i in expected["id"]]
    for path in PATHS.values():
        assert len(entries(parse(tmp_path / "3" / path))) == 3
    feeds.write(tmp_path / "0", data, SITE, AS_OF, limit=0)
    for path in PATHS.values():
        root = parse(tmp_path / "0" / path)
        assert not entries(root)
        assert root.findtext(f"{A}updated") == stamp(AS_OF)  # never the clock
    with pytest.raises(ValueError):
        feeds.write(tmp_path / "x", data, SITE, AS_OF, limit=-1)


def test_without_a_site_url_ids_are_tag_uris_and_links_root_relative(data, tmp_path):
    feeds.write(tmp_path, data, "", AS_OF, limit=5)
    for path in PATHS.values():
        root = parse(tmp_path / path)
        assert root.findtext(f"{A}id") == f"tag:transporte-rodoviario-interestadual,2026:/{path}"
        items = entries(root)
        assert len({e["id"] for e in items}) == len(items) == 5
        assert all(e["id"].startswith("tag:transporte-rodoviario-interestadual,2026:/") for e in items)
        assert all(e["link"].startswith("/") and not e["link"].startswith("//") for e in items)
    # served under a sub-path: the links follow it, the ids do not change
    feeds.write(tmp_path / "sub", data, "", AS_OF, limit=5, base_path="/portal")
    for path in PATHS.values():
        here, there = entries(parse(tmp_path / path)), entries(parse(tmp_path / "sub" / path))
        assert [e["id"] for e in here] == [e["id"] for e in there]
        assert [("/portal" + e["link"]) for e in here] == [e["link"] for e in there]


EVIL = '</title><script>alert("x")</script> & <img src=x onerror=alert(1)>\r\nfim'


def test_hostile_text_is_escaped(data, tmp_path):
    o = data.records["outorga"][0]
    evil_outorga = Record(o, ato=EVIL, inicio=AS_OF, transportadora=Record(o["transportadora"], razao_social=EVIL))
    f = data.findings[0]
    evil_finding = Record(f, descricao=EVIL + "\ufffe\x0b", regra=f["regra"])
    hostile = dataclasses.replace(data, records={**data.records, "outorga": [evil_outorga] + data.records["outorga"][1:]},
                                  findings=[evil_finding] + data.findings[1:])
    feeds.write(tmp_path, hostile, SITE, AS_OF)
    for path in (PATHS["outorga"], PATHS["findings"]):
        raw = (tmp_path / path).read_bytes()
        assert b"<script" not in raw and b"<img" not in raw
    first = entries(parse(tmp_path / PATHS["outorga"]))[0]
    assert first["link"] == SITE + o["url"]
    assert first["title"].endswith(" ".join(EVIL.split()))  # the carrier's name, as text, on one line
    # the summary is type="html": once XML-decoded it is still escaped HTML, never markup
    assert "<script" not in first["summary"] and "&lt;script&gt;" in first["summary"]
    assert EVIL.replace("\r\n", "\n") in html.unescape(first["summary"])
    finding = next(e for e in entries(parse(tmp_path / PATHS["findings"])) if "alert" in e["summary"])
    assert "<script" not in finding["summary"]
    assert "\ufffd\ufffd" in finding["summary"]  # characters XML cannot carry are replaced
