"""Every catalogue the build writes, checked by the validators of its standard (issue 26), on the fixture
build, the bundled sample and the regulator's real export:

- ``dados/catalogo.jsonld`` with pySHACL against DCAT-AP 3.0.1's shapes (``../shared/standards/
  dcat-ap-3.0.1``): the mandatory ones (``shapes.ttl``) and the classes of linked objects (``range.ttl``)
  give no violation; of the recommended ones (``shapes_recommended.ttl``) each warning left is one
  :data:`EXPLAINED` lists with the reason it cannot honestly be filled; the controlled-vocabulary shapes
  (``mdr-vocabularies.shape.ttl``) leave only what :data:`EXPLAINED_VOCABULARIES` explains;
- ``data.json`` with jsonschema against Project Open Data v1.1 (``../shared/standards/pod-1.1``), in its
  non-federal profile: the schema as published makes ``bureauCode`` and ``programCode`` required of every
  dataset, but they are codes of US federal agencies (OMB Circular A-11), which the v1.1 text requires of
  federal agencies only and a Brazilian portal has none of; the test's copy of ``dataset.json`` drops just
  those two entries of ``required`` (the files in ``shared/`` are read, never copied or changed);
- each ``/dados/`` page's schema.org ``Dataset`` against what Google Dataset Search documents.

A build as the nightly job deploys it (``--site-url``, a contact e-mail, the daily frequency) must pass
all of them, ``uri`` formats included. The default builds of ``tests/conftest.py`` (no site address, no
e-mail) pass DCAT-AP the same, and data.json misses only what its settings did not give: the e-mail
(``contactPoint.hasEmail``, which POD requires and the portal never invents). pySHACL takes well under a
second a catalogue (about 0.1 s to 0.4 s a shapes file on these builds); the real export's build is the
slow part."""

from __future__ import annotations

import copy
import json
import re
from collections import Counter
from datetime import date
from functools import cache
from pathlib import Path

import jsonschema
import pyshacl
import pytest
from conftest import AS_OF, MINIMAL, SHARED
from rdflib import Graph, Namespace, URIRef
from rdflib.namespace import RDF, SH

from pipeline import SAMPLE_DIR
from pipeline.build import build
from pipeline.contract.settings import Settings

STANDARDS = SHARED / "standards"
DCAT_AP = STANDARDS / "dcat-ap-3.0.1"
POD = STANDARDS / "pod-1.1"
SITE = "https://portal.exemplo.gov.br/portal"
EMAIL = "dados@portal.exemplo.gov.br"  # a test's address: exemplo.gov.br is the tests' site, not a real one
BASE = "https://portal.exemplo.gov.br/"  # resolves the root-relative IRIs of a build without --site-url
DCAT = "http://www.w3.org/ns/dcat#"
DCT = "http://purl.org/dc/terms/"

pytestmark = pytest.mark.skipif(not STANDARDS.is_dir(), reason="../shared/standards not found")

# Recommended properties (shapes_recommended.ttl) a build may leave empty, and why each cannot honestly be
# filled: (path, a test of the focus node's IRI, the reason).
EXPLAINED = [
    (DCT + "publisher", re.compile(r"/dados/"),
     "a folder without a descriptor (the fixture package) declares no publisher: the catalogue names none "
     "rather than the portal or the decree's Presidência da República"),
    (DCT + "temporal", re.compile(r"/dados/"),
     "a table without a date column, or no row with a date (uncovered, empty), has no known period; a kept "
     "release's period is in its own datapackage.json, not recomputed"),
    (DCT + "type", re.compile(r"#portal$|#publicador-"),
     "the kind of body (ADMS publisher type) is known only for the public bodies catalog.PUBLIC_BODIES lists: "
     "not for the portal that publishes the catalogue, nor the sample's fictional 'Projeto do portal'"),
    (DCT + "format", re.compile(r"/portal\.sqlite#"),
     "the EU file-type vocabulary has no SQLite entry: the distribution has its IANA media type "
     "(application/vnd.sqlite3) alone"),
    (DCAT + "bbox", re.compile(r"sws\.geonames\.org|country/BRA"),
     "the coverage is Brazil and international lines with a terminal in Brazil: a bounding box of Brazil would "
     "misstate them; the place is named by its EU and GeoNames URIs, whose geometry their authorities publish"),
    (DCAT + "centroid", re.compile(r"sws\.geonames\.org|country/BRA"), "as for dcat:bbox"),
]
# Results of the controlled-vocabulary shapes (mdr-vocabularies.shape.ttl) that stay, and why.
EXPLAINED_VOCABULARIES = [
    ("Violation", "http://spdx.org/rdf/terms#algorithm",
     "the shape wants the checksum algorithm under https://spdx.org/rdf/terms, but SPDX's namespace, which "
     "DCAT-AP 3.0.1 itself uses (spdx:checksumAlgorithm_sha256), is http://spdx.org/rdf/terms#"),
    ("Warning", DCT + "publisher",
     "the publishers are Brazilian public bodies, not in the EU corporate-body vocabulary"),
    ("Warning", DCAT + "theme",
     "the VCGE theme dados.gov.br asks for is not an EU data theme (the EU's TRAN is given beside it)"),
]


# --- validators -----------------------------------------------------------------------------------


@cache
def _shapes(name: str) -> Graph:
    return Graph().parse(DCAT_AP / name, format="turtle")


def shacl(site: Path, name: str) -> list[dict]:
    """The top-level results of one DCAT-AP shapes file on a build's catalogue."""
    data = Graph().parse(site / "dados" / "catalogo.jsonld", format="json-ld",
                         publicID=BASE + "dados/catalogo.jsonld")
    _, report, _ = pyshacl.validate(data, shacl_graph=_shapes(name), inference="none", allow_warnings=True)
    out = []
    for r in report.objects(None, SH.result):
        path = report.value(r, SH.resultPath)
        out.append({"severity": str(report.value(r, SH.resultSeverity)).split("#")[-1],
                    "path": str(path) if isinstance(path, URIRef) else str(path),
                    "focus": str(report.value(r, SH.focusNode)),
                    "message": str(report.value(r, SH.resultMessage))})
    return out


def unexplained(results: list[dict]) -> list[dict]:
    return [r for r in results if not any(r["path"] == path and where.search(r["focus"])
                                          for path, where, _ in EXPLAINED)]


def check_dcat(site: Path) -> dict[str, Counter]:
    """DCAT-AP on a build: no violation of the mandatory, range and recommended shapes, every recommended
    warning explained, the vocabulary shapes' results explained. Returns the counts per file."""
    counts = {}
    for name in ("shapes.ttl", "range.ttl", "shapes_recommended.ttl", "mdr-vocabularies.shape.ttl"):
        results = shacl(site, name)
        counts[name] = Counter(r["severity"] for r in results)
        if name == "mdr-vocabularies.shape.ttl":
            left = [r for r in results
                    if (r["severity"], r["path"]) not in {(s, p) for s, p, _ in EXPLAINED_VOCABULARIES}]
            assert left == [], left[:5]
            continue
        assert [r for r in results if r["severity"] == "Violation"] == [], (name, results[:5])
        assert unexplained(results) == [], (name, unexplained(results)[:5])
    return counts


def pod_validator(formats: bool = True):
    """Project Open Data v1.1's catalog.json with the schemas it references, in the non-federal profile
    (the module's docstring says why); with ``formats``, a URI must be absolute (RFC 3986)."""
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT4

    registry = Registry()
    for path in POD.glob("*.json"):
        schema = json.loads(path.read_text(encoding="utf-8"))
        if path.name == "dataset.json":  # the non-federal profile: only these two US-federal codes dropped
            schema = copy.deepcopy(schema)
            schema["required"] = [k for k in schema["required"] if k not in ("bureauCode", "programCode")]
        registry = registry.with_resource(schema["id"].rstrip("#"), Resource(schema, DRAFT4))
    checker = jsonschema.FormatChecker(formats=())
    if formats:
        from rfc3986 import exceptions, uri_reference, validators

        absolute_uri = validators.Validator().require_presence_of("scheme", "host").check_validity_of(
            "scheme", "userinfo", "host", "port", "path", "query", "fragment")

        @checker.checks("uri")
        def absolute(value) -> bool:
            if not isinstance(value, str):
                return True
            try:
                absolute_uri.validate(uri_reference(value))
            except exceptions.ValidationError:
                return False
            return True

    catalog = json.loads((POD / "catalog.json").read_text(encoding="utf-8"))
    return jsonschema.Draft4Validator(catalog, registry=registry, format_checker=checker)


def pod_errors(site: Path, formats: bool = True) -> list:
    data = json.loads((site / "data.json").read_text(encoding="utf-8"))
    return list(pod_validator(formats).iter_errors(data))


SDO = "https://schema.org/"
# Google Dataset Search: name and description required; the rest recommended
RECOMMENDED = ("url", "identifier", "keywords", "license", "creator", "publisher", "spatialCoverage",
               "distribution", "isAccessibleForFree", "dateModified", "datePublished", "temporalCoverage")


def schema_org_problems(site: Path) -> list[str]:
    """What each /dados/ page's JSON-LD misses of Google's Dataset properties ("temporalCoverage" only
    where the table has dated rows)."""
    from bs4 import BeautifulSoup

    temporal = json.loads((site / "data.json").read_text(encoding="utf-8"))
    dated = {d["landingPage"].rstrip("/").rsplit("/", 1)[-1] for d in temporal["dataset"] if d.get("temporal")}
    problems, pages = [], 0
    for page in sorted((site / "dados").rglob("index.html")):
        soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
        for tag in soup.find_all("script", type="application/ld+json"):
            obj = json.loads(tag.string)
            if obj.get("@type") != "Dataset":
                continue
            pages += 1
            where = page.parent.relative_to(site).as_posix()
            if not obj.get("name") or not 50 <= len(obj.get("description", "")) <= 5000:
                problems.append(f"{where}: name, or a description of 50 to 5000 characters")
            for key in RECOMMENDED:
                if key == "temporalCoverage" and where.rsplit("/", 1)[-1] not in dated | {"dados"}:
                    continue  # no date in the table: no period to state (said in EXPLAINED for DCAT)
                if not obj.get(key) and obj.get(key) is not False:
                    problems.append(f"{where}: no {key}")
            for role in ("creator", "publisher"):
                if obj.get(role, {}).get("@type") != "Organization" or not obj[role].get("name"):
                    problems.append(f"{where}: {role} is not an Organization with a name")
            for d in obj.get("distribution", []):
                if d.get("@type") != "DataDownload" or not d.get("encodingFormat") or not d.get("contentUrl"):
                    problems.append(f"{where}: a distribution without DataDownload, encodingFormat or contentUrl")
            if obj.get("isAccessibleForFree") is not True:
                problems.append(f"{where}: isAccessibleForFree")
            g = Graph().parse(data=json.dumps({**obj, "@context": {"@vocab": SDO}}), format="json-ld",
                              publicID=BASE + "dados/")
            if not list(g.subjects(RDF.type, URIRef(SDO + "Dataset"))):
                problems.append(f"{where}: no schema:Dataset once parsed")
    assert pages >= 2, "no /dados/ page with a Dataset"
    return problems


# --- builds as deployed ---------------------------------------------------------------------------


def deployed(data: Path, out: Path, as_of: date, **overrides) -> Path:
    build(Settings(data=(data,), out=out, as_of=as_of, whoosh_dir=out.parent / "busca", search_index=False,
                   site_url=SITE, contact_email=EMAIL, update_frequency="DAILY", **overrides))
    return out


@pytest.fixture(scope="module")
def deployed_fixture(tmp_path_factory) -> Path:
    return deployed(MINIMAL, tmp_path_factory.mktemp("catalogue-fixture") / "site", AS_OF)


@pytest.fixture(scope="module")
def deployed_sample(tmp_path_factory) -> Path:
    return deployed(SAMPLE_DIR, tmp_path_factory.mktemp("catalogue-sample") / "site", date(2026, 11, 29))


def _check_deployed(site: Path) -> None:
    check_dcat(site)
    assert pod_errors(site) == []
    assert schema_org_problems(site) == []
    data = json.loads((site / "data.json").read_text(encoding="utf-8"))
    assert {d["contactPoint"]["hasEmail"] for d in data["dataset"]} == {f"mailto:{EMAIL}"}


def test_the_fixture_build_as_deployed_passes_every_validator(deployed_fixture):
    _check_deployed(deployed_fixture)


def test_the_sample_build_as_deployed_passes_every_validator(deployed_sample):
    _check_deployed(deployed_sample)
    data = json.loads((deployed_sample / "data.json").read_text(encoding="utf-8"))
    # the sources' tables by their publisher, the tables the portal computes (achados...) by the portal
    assert {d["publisher"]["name"] for d in data["dataset"]} == {
        "Projeto do portal (dados fictícios, para demonstração)",
        "Portal do transporte rodoviário interestadual de passageiros (dados fictícios, para demonstração)"}
    made = {d["identifier"].rsplit("/", 2)[-2] for d in data["dataset"] if d["publisher"]["name"].startswith("Portal")}
    assert made == {"achados", "inconsistencias", "municipios", "rejeitados"}
    assert {(d["issued"], d["modified"]) for d in data["dataset"]} == {("2026-11-29", "2026-11-29")}  # the sample's


@pytest.mark.slow
def test_the_real_export_build_as_deployed_passes_every_validator(real_package, tmp_path_factory):
    site = deployed(real_package, tmp_path_factory.mktemp("catalogue-real") / "site", date(2026, 11, 29))
    _check_deployed(site)
    data = json.loads((site / "data.json").read_text(encoding="utf-8"))
    by_id = {d["identifier"].removeprefix(SITE): d for d in data["dataset"]}
    assert by_id["/dados/horarios/"]["publisher"]["name"] == "Agência Nacional de Transportes Terrestres"
    assert by_id["/dados/enquadramentos/"]["publisher"]["name"] == "Presidência da República"
    assert by_id["/dados/horarios/"]["modified"] == "2021"  # the export's date, not --as-of
    g = Graph().parse(site / "dados" / "catalogo.jsonld", format="json-ld")
    # no recommended warning on the real export but the explained ones, and no publisher left out
    assert not [r for r in shacl(site, "shapes_recommended.ttl") if r["path"] == DCT + "publisher"]
    assert g.value(URIRef(SITE + "/dados/horarios/#tabela"), URIRef(DCT + "modified")).datatype == \
        URIRef("http://www.w3.org/2001/XMLSchema#gYear")


# --- the default builds of conftest.py ------------------------------------------------------------


def _check_default(site: Path) -> None:
    """A build without --site-url nor a contact e-mail: DCAT-AP the same; data.json misses the e-mail
    alone (its root-relative addresses are read without the uri format, which needs --site-url)."""
    check_dcat(site)
    errors = pod_errors(site, formats=False)
    assert errors and {(e.validator, e.message) for e in errors} == {("required", "'hasEmail' is a required property")}
    assert schema_org_problems(site) == []


def test_the_default_fixture_build(site):
    _check_default(site)


@pytest.mark.slow
def test_the_default_sample_build(sample_site):
    _check_default(sample_site)


@pytest.mark.slow
def test_the_default_real_export_build(real_only_site):
    _check_default(real_only_site)


def test_the_published_pod_schema_fails_only_on_the_us_federal_codes(deployed_fixture):
    """The profile drops exactly bureauCode and programCode: against the schema as published, those are
    the only errors."""
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT4

    registry = Registry()
    for path in POD.glob("*.json"):
        schema = json.loads(path.read_text(encoding="utf-8"))
        registry = registry.with_resource(schema["id"].rstrip("#"), Resource(schema, DRAFT4))
    validator = jsonschema.Draft4Validator(json.loads((POD / "catalog.json").read_text(encoding="utf-8")),
                                           registry=registry)
    data = json.loads((deployed_fixture / "data.json").read_text(encoding="utf-8"))
    messages = Counter(e.message for e in validator.iter_errors(data))
    assert messages == {"'bureauCode' is a required property": len(data["dataset"]),
                        "'programCode' is a required property": len(data["dataset"])}


def test_a_second_release_keeps_the_first_in_the_series_and_its_unchanged_dates(deployed_fixture, tmp_path):
    """With --anterior the kept releases are datasets of the series, and a table whose CSV did not change
    keeps the modified date of the release that first had it (the fixture's folder declares no date)."""
    second = deployed(MINIMAL, tmp_path / "site", date(2026, 7, 15), previous=str(deployed_fixture))
    check_dcat(second)
    assert pod_errors(second) == []
    g = Graph().parse(second / "dados" / "catalogo.jsonld", format="json-ld")
    dcat, dct = Namespace(DCAT), Namespace(DCT)
    series = URIRef(SITE + "/dados/versoes/#serie")
    members = sorted(str(m) for m in g.subjects(dcat.inSeries, series))
    assert len(members) == 2 and members[0].startswith(SITE + "/dados/versoes/2026-06-30-")
    for member in members:
        for dist in g.objects(URIRef(member), dcat.distribution):
            url = str(g.value(dist, dcat.downloadURL))
            assert (second / url.removeprefix(SITE + "/")).is_file(), url
    linhas = URIRef(SITE + "/dados/linhas/#tabela")
    assert str(g.value(linhas, dct.modified)) == "2026-06-30"  # byte-identical CSV: not moved to 2026-07-15
