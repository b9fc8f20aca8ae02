"""Catalogue metadata for harvesters (pipeline/release/catalog.py): DCAT-AP and schema.org JSON-LD read
by an RDF parser, data.json with the Project Open Data required fields, stable output, absolute URLs
under a sub-path, and JSON-LD that cannot break out of its script element."""

from __future__ import annotations

import hashlib
import json
import re
from datetime import date

import pytest
from rdflib import Graph, Literal, Namespace, URIRef
from rdflib.namespace import RDF

from pipeline.contract.schema import load_schema
from pipeline.publish.datapackage import FICTIONAL_LABEL, published_descriptor
from pipeline.release import catalog

AS_OF = date(2026, 11, 29)
SITE = "https://x.github.io/portal"
DCAT = Namespace("http://www.w3.org/ns/dcat#")
DCT = Namespace("http://purl.org/dc/terms/")
SPDX = Namespace("http://spdx.org/rdf/terms#")
SDO = Namespace("https://schema.org/")

FORMATS = [
    ("csv", "CSV", "text/csv"),
    ("json", "JSON", "application/json"),
    ("jsonl", "JSON Lines", "application/jsonl"),
    ("xlsx", "XLSX", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
    ("parquet", "Parquet", "application/vnd.apache.parquet"),
]
PACKAGE_FILES = [
    ("datapackage.json", "JSON", "application/json"),
    ("pacote-completo.zip", "ZIP", "application/zip"),
    ("portal.sqlite", "SQLite", "application/vnd.sqlite3"),
]


@pytest.fixture(scope="module")
def descriptor():
    return published_descriptor(load_schema(), AS_OF, [], fictional=True)


@pytest.fixture(scope="module")
def files(descriptor):
    out = []
    for i, r in enumerate(descriptor["resources"]):
        for j, (ext, label, mediatype) in enumerate(FORMATS):
            path = f"{r['name']}.{ext}"
            out.append({"tabela": r["name"], "path": path, "formato": label, "mediatype": mediatype,
                        "bytes": 1000 * i + j, "sha256": hashlib.sha256(path.encode()).hexdigest()})
    for k, (path, label, mediatype) in enumerate(PACKAGE_FILES):
        out.append({"tabela": None, "path": path, "formato": label, "mediatype": mediatype,
                    "bytes": 10_000_000 + k, "sha256": hashlib.sha256(path.encode()).hexdigest()})
    return out


@pytest.fixture(scope="module")
def temporal():
    return {
        "infracoes": (date(2020, 1, 2), date(2026, 3, 6)),
        "outorgas": (date(1994, 5, 1), None),
        "tarifas": (None, None),
    }


def _graph(obj, public_id=f"{SITE}/dados/catalogo.jsonld") -> Graph:
    return Graph().parse(data=json.dumps(obj), format="json-ld", publicID=public_id)


def _schema_org_graph(obj) -> Graph:
    # https://schema.org cannot be fetched offline: the same vocabulary, given inline.
    assert obj["@context"] == "https://schema.org"
    return _graph({**obj, "@context": {"@vocab": "https://schema.org/"}}, public_id=f"{SITE}/dados/")


# --- DCAT-AP --------------------------------------------------------------------------------------


def test_dcat_parses_as_rdf_with_a_catalog_and_a_dataset_per_table(descriptor, files, temporal):
    g = _graph(catalog.dcat(descriptor, files, SITE, AS_OF, temporal))
    catalogs = list(g.subjects(RDF.type, DCAT.Catalog))
    assert len(catalogs) == 1
    (cat,) = catalogs
    datasets = set(g.objects(cat, DCAT.dataset))
    assert datasets == set(g.subjects(RDF.type, DCAT.Dataset))
    tables = [r["name"] for r in descriptor["resources"]]
    for name in tables:
        assert URIRef(f"{SITE}/dados/{name}/#tabela") in datasets
    assert len(datasets) == len(tables) + 1  # and the whole package
    assert (cat, DCT.license, URIRef("https://creativecommons.org/licenses/by/4.0/")) in g
    assert (cat, DCT.language, URIRef("http://publications.europa.eu/resource/authority/language/POR")) in g
    assert (cat, DCT.modified, Literal(AS_OF)) in g
    publisher = g.value(cat, DCT.publisher)
    assert str(g.value(publisher, URIRef("http://xmlns.com/foaf/0.1/name"))) == catalog.PORTAL_NAME
    assert FICTIONAL_LABEL in str(g.value(cat, DCT.title))


def test_dcat_every_file_is_a_distribution_with_size_and_checksum(descriptor, files, temporal):
    g = _graph(catalog.dcat(descriptor, files, SITE, AS_OF, temporal))
    rows = g.query("""
        PREFIX dcat: <http://www.w3.org/ns/dcat#>
        PREFIX dct: <http://purl.org/dc/terms/>
        PREFIX spdx: <http://spdx.org/rdf/terms#>
        SELECT ?dataset ?url ?size ?sum ?licence ?media WHERE {
            ?dataset a dcat:Dataset ; dcat:distribution ?d .
            ?d a dcat:Distribution ; dcat:downloadURL ?url ; dcat:accessURL ?access ; dcat:byteSize ?size ;
               dct:license ?licence ; dcat:mediaType ?media ;
               spdx:checksum [ spdx:algorithm spdx:checksumAlgorithm_sha256 ; spdx:checksumValue ?sum ] .
        }""")
    found = {str(r.url): r for r in rows}
    assert len(found) == len(files)
    for f in files:
        row = found[f"{SITE}/dados/{f['path']}"]
        assert row.size.datatype == URIRef("http://www.w3.org/2001/XMLSchema#nonNegativeInteger")
        assert int(row.size) == f["bytes"]
        assert str(row.sum) == f["sha256"]
        assert str(row.licence) == "https://creativecommons.org/licenses/by/4.0/"
        assert str(row.media) == "https://www.iana.org/assignments/media-types/" + f["mediatype"]
        expected = f"{SITE}/dados/#pacote" if f["tabela"] is None else f"{SITE}/dados/{f['tabela']}/#tabela"
        assert str(row.dataset) == expected


def test_dcat_temporal_coverage_where_known(descriptor, files, temporal):
    g = _graph(catalog.dcat(descriptor, files, SITE, AS_OF, temporal))

    def period(table):
        return g.value(URIRef(f"{SITE}/dados/{table}/#tabela"), DCT.temporal)

    p = period("infracoes")
    assert g.value(p, DCAT.startDate) == Literal(date(2020, 1, 2))
    assert g.value(p, DCAT.endDate) == Literal(date(2026, 3, 6))
    p = period("outorgas")
    assert g.value(p, DCAT.startDate) == Literal(date(1994, 5, 1)) and g.value(p, DCAT.endDate) is None
    assert period("tarifas") is None and period("linhas") is None
    package = g.value(URIRef(f"{SITE}/dados/#pacote"), DCT.temporal)
    assert g.value(package, DCAT.startDate) == Literal(date(1994, 5, 1))
    assert g.value(package, DCAT.endDate) == Literal(date(2026, 3, 6))
    spatial = set(g.objects(URIRef(f"{SITE}/dados/infracoes/#tabela"), DCT.spatial))
    assert URIRef("https://sws.geonames.org/3469034/") in spatial


def test_dcat_without_site_url_writes_root_relative_iris(descriptor, files):
    obj = catalog.dcat(descriptor, files, "", AS_OF, {})
    assert "https://x.github.io" not in json.dumps(obj)
    g = _graph(obj, public_id="https://portal.exemplo.gov.br/dados/catalogo.jsonld")
    urls = {str(u) for u in g.objects(None, DCAT.downloadURL)}
    assert "https://portal.exemplo.gov.br/dados/infracoes.csv" in urls


# --- data.json ------------------------------------------------------------------------------------

POD_REQUIRED = ("title", "description", "keyword", "modified", "publisher", "contactPoint", "identifier",
                "accessLevel")


def test_data_json_has_the_pod_required_fields(descriptor, files, temporal):
    obj = catalog.data_json(descriptor, files, SITE, AS_OF, temporal,
                            facts=catalog.Facts(contact_email="dados@exemplo.gov.br"))
    assert obj["conformsTo"] == "https://project-open-data.cio.gov/v1.1/schema"
    datasets = obj["dataset"]
    assert len(datasets) == len(descriptor["resources"]) + 1
    for d in datasets:
        for key in POD_REQUIRED:
            assert d.get(key), (d.get("title"), key)
        assert d["accessLevel"] == "public" and d["modified"] == "2026-11-29"
        assert d["publisher"]["name"] and d["contactPoint"]["fn"]
        assert d["contactPoint"]["hasEmail"] == "mailto:dados@exemplo.gov.br"
        assert d["license"] == "https://creativecommons.org/licenses/by/4.0/"
        assert d["identifier"].startswith(f"{SITE}/dados/")
        assert d["describedBy"] == f"{SITE}/dados/datapackage.json"
        assert d["describedByType"] == "application/json"
        assert isinstance(d["keyword"], list) and all(d["keyword"])
        for dist in d["distribution"]:
            assert dist["downloadURL"].startswith(f"{SITE}/dados/") and dist["mediaType"]
    by_id = {d["identifier"]: d for d in datasets}
    infracoes = by_id[f"{SITE}/dados/infracoes/"]
    assert infracoes["temporal"] == "2020-01-02/2026-03-06"
    assert "temporal" not in by_id[f"{SITE}/dados/outorgas/"]  # POD has no open-ended interval
    assert infracoes["landingPage"] == f"{SITE}/dados/infracoes/"
    assert {x["downloadURL"] for x in infracoes["distribution"]} == {
        f"{SITE}/dados/infracoes.{ext}" for ext, _, _ in FORMATS}
    assert FICTIONAL_LABEL in infracoes["title"]
    all_urls = {x["downloadURL"] for d in datasets for x in d["distribution"]}
    assert all_urls == {f"{SITE}/dados/{f['path']}" for f in files}


def test_data_json_without_an_email_has_no_invented_address(descriptor, files):
    obj = catalog.data_json(descriptor, files, SITE, AS_OF, {})
    for d in obj["dataset"]:
        assert d["contactPoint"] == {"@type": "vcard:Contact", "fn": catalog.PORTAL_NAME}


# --- schema.org -----------------------------------------------------------------------------------


def _check_schema_org(g: Graph, subject: URIRef):
    assert (subject, RDF.type, SDO.Dataset) in g
    assert FICTIONAL_LABEL in str(g.value(subject, SDO.name))
    description = str(g.value(subject, SDO.description))
    assert 50 <= len(description) <= 5000
    assert "revogado pelo Decreto nº 2.521/1998" in description
    assert str(g.value(subject, SDO.license)) == "https://creativecommons.org/licenses/by/4.0/"
    creator = g.value(subject, SDO.creator)
    assert (creator, RDF.type, SDO.Organization) in g and str(g.value(creator, SDO.name))
    assert str(g.value(subject, SDO.dateModified)) == "2026-11-29"
    assert str(g.value(subject, SDO.inLanguage)) == "pt-BR"
    place = g.value(subject, SDO.spatialCoverage)
    assert (place, RDF.type, SDO.Place) in g and str(g.value(place, SDO.name)) == "Brasil"
    return description


def test_schema_org_for_every_table_page(descriptor, files, temporal):
    for r in descriptor["resources"]:
        name = r["name"]
        obj = catalog.schema_org(descriptor, files, SITE, AS_OF, temporal, table=name)
        assert obj["isAccessibleForFree"] is True and obj["url"] == f"{SITE}/dados/{name}/"
        g = _schema_org_graph(obj)
        subject = URIRef(f"{SITE}/dados/{name}/#tabela")
        _check_schema_org(g, subject)
        downloads = {str(g.value(d, SDO.contentUrl)): d for d in g.objects(subject, SDO.distribution)}
        assert set(downloads) == {f"{SITE}/dados/{name}.{ext}" for ext, _, _ in FORMATS}
        for f in (f for f in files if f["tabela"] == name):
            d = downloads[f"{SITE}/dados/{f['path']}"]
            assert (d, RDF.type, SDO.DataDownload) in g
            assert str(g.value(d, SDO.encodingFormat)) == f["mediatype"]
            assert str(g.value(d, SDO.sha256)) == f["sha256"]
            assert str(g.value(d, SDO.contentSize)) == f"{f['bytes']} B"
    obj = catalog.schema_org(descriptor, files, SITE, AS_OF, temporal, table="infracoes")
    assert obj["temporalCoverage"] == "2020-01-02/2026-03-06"
    assert catalog.schema_org(descriptor, files, SITE, AS_OF, temporal, "outorgas")["temporalCoverage"] == "1994-05-01/.."
    assert "temporalCoverage" not in catalog.schema_org(descriptor, files, SITE, AS_OF, temporal, "tarifas")
    fields = next(r for r in descriptor["resources"] if r["name"] == "infracoes")["schema"]["fields"]
    assert obj["variableMeasured"] == [f.get("title") or f["name"] for f in fields]


def test_schema_org_for_the_whole_package(descriptor, files, temporal):
    obj = catalog.schema_org(descriptor, files, SITE, AS_OF, temporal)
    g = _schema_org_graph(obj)
    subject = URIRef(f"{SITE}/dados/#pacote")
    _check_schema_org(g, subject)
    urls = {str(g.value(d, SDO.contentUrl)) for d in g.objects(subject, SDO.distribution)}
    assert urls == {f"{SITE}/dados/{p}" for p, _, _ in PACKAGE_FILES}
    parts = set(g.objects(subject, SDO.hasPart))
    assert len(parts) == len(descriptor["resources"])
    for part in parts:
        assert 50 <= len(str(g.value(part, SDO.description))) <= 5000
    assert (g.value(subject, SDO.includedInDataCatalog), RDF.type, SDO.DataCatalog) in g
    assert obj["temporalCoverage"] == "1994-05-01/2026-03-06"


def test_schema_org_description_is_padded_and_clipped(descriptor, files):
    short = json.loads(json.dumps(descriptor))
    short["resources"][0]["description"] = "Curta."
    obj = catalog.schema_org(short, files, SITE, AS_OF, {}, table=short["resources"][0]["name"])
    assert len(obj["description"]) >= 50 and "colunas" in obj["description"]
    long = json.loads(json.dumps(descriptor))
    long["resources"][0]["description"] = "palavra " * 2000
    obj = catalog.schema_org(long, files, SITE, AS_OF, {}, table=long["resources"][0]["name"])
    assert len(obj["description"]) <= 5000 and obj["description"].endswith("…")
    assert not re.search(r"\bpalavr…$", obj["description"])  # cut between words


# --- shared properties ----------------------------------------------------------------------------


def test_output_is_deterministic(descriptor, files, temporal):
    for build in (catalog.dcat, catalog.data_json, catalog.schema_org):
        first = json.dumps(build(descriptor, files, SITE, AS_OF, temporal), ensure_ascii=False)
        again = json.dumps(build(json.loads(json.dumps(descriptor)), [dict(f) for f in files], SITE, AS_OF,
                                 dict(temporal)), ensure_ascii=False)
        assert first == again
        assert "_:" not in first  # no blank-node labels


def test_urls_are_absolute_under_a_site_sub_path(descriptor, files, temporal):
    for site in (SITE, SITE + "/"):
        d = catalog.data_json(descriptor, files, site, AS_OF, temporal)
        infracoes = next(x for x in d["dataset"] if x["identifier"].endswith("/dados/infracoes/"))
        assert f"{SITE}/dados/infracoes.csv" in {x["downloadURL"] for x in infracoes["distribution"]}
        s = catalog.schema_org(descriptor, files, site, AS_OF, temporal, table="infracoes")
        assert f"{SITE}/dados/infracoes.csv" in {x["contentUrl"] for x in s["distribution"]}
        assert s["creator"]["@type"] == "Organization" and s["creator"]["name"]
    g = _graph(catalog.dcat(descriptor, files, SITE, AS_OF, temporal), public_id="https://elsewhere.example/c.jsonld")
    urls = {str(u) for u in g.objects(None, DCAT.downloadURL)}
    assert all(u.startswith(f"{SITE}/dados/") for u in urls)


def test_bad_input_is_refused(descriptor, files):
    with pytest.raises(ValueError):
        catalog.dcat(descriptor, [dict(files[0], path="../segredo.csv")], SITE, AS_OF, {})
    with pytest.raises(ValueError):
        catalog.dcat(descriptor, [dict(files[0], tabela="nao_existe")], SITE, AS_OF, {})
    with pytest.raises(ValueError):
        catalog.dcat(descriptor, [dict(files[0], sha256="xyz")], SITE, AS_OF, {})
    with pytest.raises(ValueError):
        catalog.dcat(descriptor, files, "javascript:alert(1)", AS_OF, {})
    with pytest.raises(ValueError):
        catalog.dcat(descriptor, files, SITE, AS_OF, {"infracoes": (date(2026, 1, 2), date(2026, 1, 1))})


def test_script_tag_cannot_be_closed_by_hostile_text(descriptor, files):
    hostile = json.loads(json.dumps(descriptor))
    payload = "</script><script>alert(1)</script> <!-- & "
    hostile["resources"][0]["description"] = payload
    obj = catalog.schema_org(hostile, files, SITE, AS_OF, {}, table=hostile["resources"][0]["name"])
    tag = catalog.script_tag(obj)
    assert tag.startswith('<script type="application/ld+json">') and tag.endswith("</script>")
    inner = tag[len('<script type="application/ld+json">'):-len("</script>")]
    assert "<" not in inner and ">" not in inner and "&" not in inner
    assert "\\u003c/script\\u003e" in inner
    assert payload in json.loads(inner)["description"]  # the text itself is intact once parsed


# --- publishers, dates, frequency, themes, kept releases (issue 26) -------------------------------

ANTT = "ANTT — Agência Nacional de Transportes Terrestres"
DECREE = {"name": "decreto-952-1993", "title": "Presidência da República, Decreto nº 952/1993, art. 78",
          "path": "https://www.planalto.gov.br/ccivil_03/decreto/antigos/d0952.htm",
          "publisher": "Presidência da República", "date": "1993-10-08", "fictional": False, "declared": True}
REAL = {"name": "antt-horarios", "title": f"{ANTT}, Quadro de horários", "path": "https://dados.antt.gov.br/",
        "publisher": ANTT, "date": "2026-10", "fictional": False, "declared": True}


@pytest.fixture(scope="module")
def real_descriptor():
    return published_descriptor(load_schema(), AS_OF, [dict(REAL), dict(DECREE)])


def _coverage(descriptor):
    """Every table from the regulator's source but the decree's enquadramentos; the portal's own tables
    (achados...) in no source's coverage."""
    tables = {r["name"] for r in descriptor["resources"]}
    cover = {t: ["antt-horarios"] for t in tables - {"achados", "inconsistencias", "municipios", "rejeitados"}}
    cover["enquadramentos"] = ["decreto-952-1993"]
    return cover


def test_the_publisher_is_the_public_body_behind_each_source(real_descriptor, files):
    facts = catalog.Facts(coverage=_coverage(real_descriptor))
    g = _graph(catalog.dcat(real_descriptor, files, SITE, AS_OF, {}, facts=facts))
    foaf = Namespace("http://xmlns.com/foaf/0.1/")

    def publisher(table):
        node = g.value(URIRef(f"{SITE}/dados/{table}/#tabela" if table else f"{SITE}/dados/#pacote"), DCT.publisher)
        return str(g.value(node, foaf.name)), g.value(node, DCT.type)

    national = URIRef("http://purl.org/adms/publishertype/NationalAuthority")
    official = "Agência Nacional de Transportes Terrestres"  # the source's "ANTT — ..." split: name, acronym
    assert publisher("infracoes") == (official, national)
    assert publisher("achados") == (official, national)  # computed by the portal from the regulator's data
    assert publisher(None) == (official, national)
    assert publisher("enquadramentos") == ("Presidência da República", national)
    antt = g.value(URIRef(f"{SITE}/dados/infracoes/#tabela"), DCT.publisher)
    skos = Namespace("http://www.w3.org/2004/02/skos/core#")
    assert str(g.value(antt, skos.altLabel)) == "ANTT"
    assert str(g.value(antt, DCT.identifier)) == "04.898.488/0001-77"
    assert str(g.value(antt, foaf.homepage)) == "https://www.gov.br/antt/pt-br"
    # the catalogue itself is the portal's
    cat = next(g.subjects(RDF.type, DCAT.Catalog))
    assert str(g.value(g.value(cat, DCT.publisher), foaf.name)) == catalog.PORTAL_NAME
    data = catalog.data_json(real_descriptor, files, SITE, AS_OF, {}, facts=facts)
    assert {d["publisher"]["name"] for d in data["dataset"]} == {official, "Presidência da República"}
    org = catalog.schema_org(real_descriptor, files, SITE, AS_OF, {}, table="infracoes", facts=facts)
    assert org["creator"] == org["publisher"] and org["publisher"]["name"] == official
    assert org["publisher"]["@type"] == "Organization"
    assert (org["publisher"]["alternateName"], org["publisher"]["identifier"]) == ("ANTT", "04.898.488/0001-77")
    # a fictional source that names the regulator is nobody's: no real body's identity is lent to it
    fake = published_descriptor(load_schema(), AS_OF, [dict(REAL, fictional=True, publisher=ANTT)])
    g = _graph(catalog.dcat(fake, files, SITE, AS_OF, {}, facts=catalog.Facts(coverage=_coverage(fake))))
    node = g.value(URIRef(f"{SITE}/dados/infracoes/#tabela"), DCT.publisher)
    assert str(g.value(node, foaf.name)).startswith(ANTT) and g.value(node, DCT.identifier) is None


def test_a_fictional_or_undeclared_source_is_said_so(descriptor, files):
    sample = json.loads(json.dumps(descriptor))
    sample["sources"] = [{"name": "amostra-ficticia", "publisher": "Projeto do portal", "date": "2026-11-29",
                          "fictional": True}]
    data = catalog.data_json(sample, files, SITE, AS_OF, {})
    assert all(d["publisher"]["name"] == f"Projeto do portal ({FICTIONAL_LABEL.lower()})" for d in data["dataset"])
    undeclared = json.loads(json.dumps(descriptor))
    undeclared["sources"] = [{"name": "nao-declarada-x", "publisher": "", "date": "", "declared": False}, DECREE]
    g = _graph(catalog.dcat(undeclared, files, SITE, AS_OF, {}))
    assert g.value(URIRef(f"{SITE}/dados/#pacote"), DCT.publisher) is None  # never the decree's for the folder
    data = catalog.data_json(undeclared, files, SITE, AS_OF, {})
    assert data["dataset"][0]["publisher"]["name"] == catalog.UNDECLARED_PUBLISHER


def test_issued_and_modified_are_the_sources_dates_not_the_calculation_date(real_descriptor, files):
    facts = catalog.Facts(coverage=_coverage(real_descriptor))
    for as_of in (AS_OF, date(2027, 3, 1)):  # --as-of moves, the data does not: nor do the dates
        g = _graph(catalog.dcat(real_descriptor, files, SITE, as_of, {}, facts=facts))
        table = URIRef(f"{SITE}/dados/infracoes/#tabela")
        gym = URIRef("http://www.w3.org/2001/XMLSchema#gYearMonth")
        assert g.value(table, DCT.issued) == Literal("2026-10", datatype=gym)
        assert g.value(table, DCT.modified) == Literal("2026-10", datatype=gym)
        package = URIRef(f"{SITE}/dados/#pacote")
        # the package is the portal's publication: issued by its first release (this one: none was kept
        # before), not by the decree's 1993 (issue 35)
        assert g.value(package, DCT.issued) == g.value(package, DCT.modified) == Literal(as_of)
        enquadramentos = URIRef(f"{SITE}/dados/enquadramentos/#tabela")
        assert g.value(enquadramentos, DCT.modified) == Literal(date(1993, 10, 8))
        for d in g.objects(table, DCAT.distribution):
            assert g.value(d, DCT.modified) == Literal("2026-10", datatype=gym)
        data = catalog.data_json(real_descriptor, files, SITE, as_of, {}, facts=facts)
        infracoes = next(d for d in data["dataset"] if d["identifier"].endswith("/infracoes/"))
        assert (infracoes["issued"], infracoes["modified"]) == ("2026-10", "2026-10")
        org = catalog.schema_org(real_descriptor, files, SITE, as_of, {}, table="infracoes", facts=facts)
        assert (org["datePublished"], org["dateModified"]) == ("2026-10", "2026-10")


def _release(version: str, day: str, hashes: dict) -> dict:
    return {"versao": version, "data": day, "titulo": "Transporte", "ficticio": False, "licenses": [],
            "sources": [], "hashes": hashes,
            "arquivos": [{"tabela": None, "path": f"versoes/{version}/pacote-completo.zip", "formato": "ZIP",
                          "mediatype": "application/zip", "bytes": 10, "sha256": "a" * 64}]}


def test_without_source_dates_the_kept_releases_date_the_content(files):
    descriptor = published_descriptor(load_schema(), AS_OF, [])
    for r in descriptor["resources"]:
        r["hash"] = "sha256:" + hashlib.sha256(r["name"].encode()).hexdigest()
    now = {r["name"]: r["hash"].removeprefix("sha256:") for r in descriptor["resources"]}
    changed = dict(now, infracoes="f" * 64)
    facts = catalog.Facts(versions=[_release("2026-11-01-aaaaaaaaaaaa", "2026-11-01", now),  # newest first
                                    _release("2026-10-01-bbbbbbbbbbbb", "2026-10-01", changed),
                                    _release("2026-09-01-cccccccccccc", "2026-09-01", changed)])
    data = catalog.data_json(descriptor, files, SITE, AS_OF, {}, facts=facts)
    by_id = {d["identifier"]: d for d in data["dataset"]}
    # byte-identical since the release of 2026-11-01: modified stays there as --as-of moves on
    assert by_id[f"{SITE}/dados/infracoes/"]["modified"] == "2026-11-01"
    assert by_id[f"{SITE}/dados/infracoes/"]["issued"] == "2026-09-01"
    assert by_id[f"{SITE}/dados/linhas/"]["modified"] == "2026-09-01"  # the same in every release kept
    # the package: issued by the first release kept, changed last when its tables were (infracoes, 2026-11-01)
    assert (by_id[f"{SITE}/dados/"]["issued"], by_id[f"{SITE}/dados/"]["modified"]) == ("2026-09-01", "2026-11-01")
    assert catalog.data_json(descriptor, files, SITE, AS_OF, {})["dataset"][1]["modified"] == AS_OF.isoformat()


def test_kept_releases_are_a_dataset_series_with_stable_files(descriptor, files):
    facts = catalog.Facts(versions=[_release("2026-11-29-aaaaaaaaaaaa", "2026-11-29", {}),
                                    _release("2026-11-28-bbbbbbbbbbbb", "2026-11-28", {})])
    g = _graph(catalog.dcat(descriptor, files, SITE, AS_OF, {}, facts=facts))
    series = URIRef(f"{SITE}/dados/versoes/#serie")
    assert (series, RDF.type, DCAT.DatasetSeries) in g
    members = set(g.subjects(DCAT.inSeries, series))
    assert members == {URIRef(f"{SITE}/dados/versoes/{v}/#versao")
                       for v in ("2026-11-29-aaaaaaaaaaaa", "2026-11-28-bbbbbbbbbbbb")}
    cat = next(g.subjects(RDF.type, DCAT.Catalog))
    assert members <= set(g.objects(cat, DCAT.dataset))
    assert members == set(g.objects(URIRef(f"{SITE}/dados/#pacote"), DCT.hasVersion))
    version = URIRef(f"{SITE}/dados/versoes/2026-11-28-bbbbbbbbbbbb/#versao")
    assert g.value(version, DCT.issued) == Literal(date(2026, 11, 28))
    (dist,) = g.objects(version, DCAT.distribution)
    assert str(g.value(dist, DCAT.downloadURL)) == f"{SITE}/dados/versoes/2026-11-28-bbbbbbbbbbbb/pacote-completo.zip"
    assert g.value(dist, URIRef("http://data.europa.eu/r5r/availability")) == URIRef(catalog.EU_STABLE)


def test_frequency_themes_contact_and_descriptions_come_from_the_settings(descriptor, files):
    from pipeline.contract.settings import Settings

    settings = Settings(contact_email="mailto:dados@antt.gov.br", update_frequency="DAILY")
    facts = catalog.Facts.from_settings(settings)
    g = _graph(catalog.dcat(descriptor, files, SITE, AS_OF, {}, facts=facts))
    table = URIRef(f"{SITE}/dados/infracoes/#tabela")
    daily = URIRef("http://publications.europa.eu/resource/authority/frequency/DAILY")
    assert g.value(table, DCT.accrualPeriodicity) == daily and (daily, RDF.type, DCT.Frequency) in g
    vcge = URIRef("http://vocab.e.gov.br/id/governo#transporte-rodoviario")
    assert set(g.objects(table, DCAT.theme)) == {URIRef(catalog.EU_THEME_TRANSPORT), vcge}
    skos = Namespace("http://www.w3.org/2004/02/skos/core#")
    assert str(g.value(vcge, skos.prefLabel)) == "Transporte Rodoviário"
    assert g.value(vcge, skos.inScheme) == URIRef("http://vocab.e.gov.br/id/governo#esquema")
    contact = g.value(table, DCAT.contactPoint)
    assert g.value(contact, URIRef("http://www.w3.org/2006/vcard/ns#hasEmail")) == URIRef("mailto:dados@antt.gov.br")
    for d in g.objects(table, DCAT.distribution):
        assert "Autos de infração" in str(g.value(d, DCT.description))
    data = catalog.data_json(descriptor, files, SITE, AS_OF, {}, facts=facts)
    assert {d["accrualPeriodicity"] for d in data["dataset"]} == {"R/P1D"}
    assert all(x["description"] for d in data["dataset"] for x in d["distribution"])


@pytest.mark.parametrize("email", ["dados", "a b@gov.br", "x@@gov.br", "dados@exemplo", "dados@example.com",
                                   "contato@portal.example", "dados@localhost", "dados@foo.test"])
def test_a_contact_email_that_reaches_no_one_is_refused(email):
    from pipeline.contract.settings import Settings, SettingsError

    with pytest.raises(SettingsError, match="--contato-email"):
        Settings(contact_email=email)
    with pytest.raises(ValueError):
        catalog.data_json(published_descriptor(load_schema(), AS_OF, []), [], SITE, AS_OF, {},
                          facts=catalog.Facts(contact_email=email))


def test_other_settings_of_the_catalogues_are_checked():
    from pipeline.contract.settings import Settings, SettingsError

    with pytest.raises(SettingsError, match="--frequencia"):
        Settings(update_frequency="sometimes")
    with pytest.raises(SettingsError, match="VCGE"):
        Settings(vcge_theme="transporte")
    assert Settings(contact_email=" Dados@ANTT.gov.br ").contact_email == "Dados@ANTT.gov.br"


@pytest.mark.slow
def test_a_table_no_source_supplies_takes_no_sources_date_nor_publisher(real_only_site):
    """ANTT's 2021 timetable supplies lines, timetables and carriers; the outorgas and the sections it does not.
    Those tables are empty: their catalogue entries are dated by the release that published them and
    published by the portal, never 'issued 1993-10-08 by ANTT' (issue 35)."""
    data = json.loads((real_only_site / "data.json").read_text(encoding="utf-8"))
    by_table = {d["identifier"].rstrip("/").rsplit("/", 1)[-1]: d for d in data["dataset"]}
    for table in ("outorgas", "secoes", "tarifas", "bilhetes"):
        entry = by_table[table]
        assert (entry["issued"], entry["modified"]) == ("2026-11-29", "2026-11-29"), table
        assert entry["publisher"]["name"] == "Portal do transporte rodoviário interestadual de passageiros", table
    assert by_table["linhas"]["issued"] == "2021"
    assert by_table["linhas"]["publisher"]["name"] == "Agência Nacional de Transportes Terrestres"
    assert by_table["achados"]["publisher"]["name"].startswith("Portal do transporte")


@pytest.mark.slow
def test_keywords_name_only_what_the_sources_cover(real_only_site):
    """The real timetable has no outorga nor fare, and no record of the decree's regime: no keyword says so."""
    package = json.loads((real_only_site / "dados" / "datapackage.json").read_text(encoding="utf-8"))
    assert package["keywords"] == ["transporte rodoviário", "ônibus"]
    catalogue = json.loads((real_only_site / "data.json").read_text(encoding="utf-8"))
    assert not any(w in {"outorgas", "tarifas", "Decreto 952/1993"} for d in catalogue["dataset"] for w in d["keyword"])


@pytest.mark.slow
def test_a_table_without_dates_covers_the_period_its_source_states(real_only_site):
    """The carriers and lines of ANTT's 2021 timetable have no date column: they cover the year the source
    states for its data (2021). A table no source supplies, and a table the portal computes, state no period
    (issue 35: temporal coverage missing on the real build)."""
    data = json.loads((real_only_site / "data.json").read_text(encoding="utf-8"))
    by_table = {d["identifier"].rstrip("/").rsplit("/", 1)[-1]: d for d in data["dataset"]}
    assert by_table["transportadoras"]["temporal"] == by_table["linhas"]["temporal"] == "2021-01-01/2021-12-31"
    assert by_table["horarios"]["temporal"] == "1955-04-27/2020-10-14"  # its own dates (data_autorizacao)
    for table in ("outorgas", "secoes", "achados", "municipios"):
        assert "temporal" not in by_table[table], table
    g = Graph().parse(data=(real_only_site / "dados" / "catalogo.jsonld").read_text(encoding="utf-8"),
                      format="json-ld", publicID="https://exemplo.org/")
    starts = sorted(str(g.value(node, Namespace("http://www.w3.org/ns/dcat#").startDate))
                    for node in g.objects(None, DCT.temporal))
    assert starts.count("2021-01-01") == 2  # the DCAT of the carriers and of the lines says the same


def test_a_stated_date_is_a_period():
    from pipeline.release.versions import period

    assert period("2021") == (date(2021, 1, 1), date(2021, 12, 31))
    assert period("2024-02") == (date(2024, 2, 1), date(2024, 2, 29))
    assert period("2026-09-15") == (date(2026, 9, 15), date(2026, 9, 15))
    assert period("2026-13") == period("") == period("setembro") == (None, None)
