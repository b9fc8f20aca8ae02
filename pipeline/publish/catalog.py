"""Catalogue metadata for harvesters: the published package (``pipeline/publish/datapackage.py``) and its
files described as DCAT-AP JSON-LD, as a Project Open Data ``data.json`` and as schema.org ``Dataset``
JSON-LD for the ``/dados/`` pages (Google Dataset Search).

Every function here is pure: it reads the published descriptor and the list of published files the build
passes, and returns a JSON-ready dict. The same input gives the same output (no clock, no random
blank-node ids: every node that is referenced has an IRI built from the site's address; the other nodes
are nested objects without ``@id``).

Inputs shared by the functions:

``descriptor``
    the published descriptor (:func:`pipeline.publish.datapackage.published_descriptor`).
``files``
    one dict per published file, in the order they should be listed::

        {"tabela": "infracoes", "path": "infracoes.csv", "formato": "CSV", "mediatype": "text/csv",
         "bytes": 123, "sha256": "<64 hex>"}

    ``tabela`` is ``None`` for the files of the whole package (``datapackage.json``,
    ``pacote-completo.zip``, ``portal.sqlite``). ``path`` is relative to ``<site>/dados/``.
``site_url``
    the site's public address without trailing slash (``https://portal.exemplo.gov.br``,
    ``https://x.github.io/portal``), or ``""`` when unknown. With ``""`` every IRI is written relative to
    the site root (``/dados/infracoes.csv``): a consumer resolves them against the URL it fetched the
    catalogue from (JSON-LD parsers need that base, e.g. rdflib's ``publicID``). Root-relative IRIs are
    only right for a site served at the root of its domain, and ``data.json`` validators require
    absolute URLs: the build should pass ``site_url`` whenever it knows it.
``as_of``
    the build's reference date (``dct:modified``, ``modified``, ``dateModified``).
``temporal``
    per table, ``(first, last)`` of its date columns, either of them ``None`` when unknown. A table
    missing from the mapping has an unknown coverage.
``rows`` (keyword, optional)
    per table, its number of rows, only used in the generated description sentence.

The records follow the regime described by Decreto nº 952/1993, which was revoked by Decreto nº
2.521/1998: the generated texts say so and never call it the law in force.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from datetime import date
from urllib.parse import quote

from .datapackage import FICTIONAL_LABEL

PORTAL_NAME = "Portal do transporte rodoviário interestadual de passageiros"
LANGUAGE = "pt-BR"
EU_LANGUAGE = "http://publications.europa.eu/resource/authority/language/POR"
EU_THEME_TRANSPORT = "http://publications.europa.eu/resource/authority/data-theme/TRAN"
EU_ACCESS_PUBLIC = "http://publications.europa.eu/resource/authority/access-right/PUBLIC"
EU_COUNTRY_BRAZIL = "http://publications.europa.eu/resource/authority/country/BRA"
GEONAMES_BRAZIL = "http://sws.geonames.org/3469034/"
IANA_MEDIA_TYPES = "https://www.iana.org/assignments/media-types/"
DATAPACKAGE_PROFILE = "https://datapackage.org/profiles/2.0/datapackage.json"
POD_SCHEMA = "https://project-open-data.cio.gov/v1.1/schema"

SPATIAL_NAME = "Brasil"
SPATIAL_NOTE = ("Linhas interestaduais no Brasil e linhas internacionais com ponto terminal no Brasil.")
REGIME_SENTENCE = ("Os registros seguem o regime descrito pelo Decreto nº 952/1993, revogado pelo Decreto nº "
                   "2.521/1998; o portal publica esses registros e não apresenta o decreto como norma em vigor.")

# a table no source of the release supplies (``rows`` maps it to None): its rows are unknown, not zero
NOT_COVERED_SENTENCE = ("Nenhuma fonte desta versão fornece esta tabela: ela está vazia porque os registros são "
                        "desconhecidos, não porque não existam.")

# Google Dataset Search: a description has 50 to 5,000 characters.
DESCRIPTION_MIN = 50
DESCRIPTION_MAX = 5000

# dct:format from the EU file-type authority list, by media type; media types without an entry there
# (JSON Lines, SQLite) are described by dcat:mediaType alone.
EU_FILE_TYPES = {
    "text/csv": "http://publications.europa.eu/resource/authority/file-type/CSV",
    "application/json": "http://publications.europa.eu/resource/authority/file-type/JSON",
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet":
        "http://publications.europa.eu/resource/authority/file-type/XLSX",
    "application/vnd.apache.parquet": "http://publications.europa.eu/resource/authority/file-type/PARQUET",
    "application/zip": "http://publications.europa.eu/resource/authority/file-type/ZIP",
}

# How the files of the whole package are named in the catalogue; others are named by their path.
PACKAGE_FILE_TITLES = {
    "datapackage.json": "Descritor do pacote (Frictionless Data Package)",
    "pacote-completo.zip": "Pacote completo (todas as tabelas e o descritor, ZIP)",
    "portal.sqlite": "Banco de dados SQLite com todas as tabelas",
}

DEFAULT_CONTACT = {"fn": PORTAL_NAME, "email": ""}

DCAT_CONTEXT = {
    "dcat": "http://www.w3.org/ns/dcat#",
    "dct": "http://purl.org/dc/terms/",
    "foaf": "http://xmlns.com/foaf/0.1/",
    "vcard": "http://www.w3.org/2006/vcard/ns#",
    "spdx": "http://spdx.org/rdf/terms#",
    "xsd": "http://www.w3.org/2001/XMLSchema#",
    "rdfs": "http://www.w3.org/2000/01/rdf-schema#",
}

_SHA256 = re.compile(r"[0-9a-fA-F]{64}\Z")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")

Temporal = Mapping[str, tuple[date | None, date | None]]


# --- inputs ---------------------------------------------------------------------------------------


def _site(site_url: str) -> str:
    site = (site_url or "").strip().rstrip("/")
    if site and not re.fullmatch(r"https?://[^/\s]+(/\S*)?", site, re.A):
        raise ValueError(f"site_url must be empty or an http(s) address: {site_url!r}")
    return site


def _url(site: str, path: str = "") -> str:
    """``<site>/<path>`` (root-relative when ``site`` is empty)."""
    return f"{site}/{path}"


def _file_path(path: str) -> str:
    """A published file's path under ``dados/``, percent-encoded; no way out of ``dados/``."""
    if not isinstance(path, str) or not path or path.startswith("/") or _SCHEME.match(path) or "\\" in path \
            or any(part in ("", ".", "..") for part in path.split("/")):
        raise ValueError(f"not a path under dados/: {path!r}")
    return quote(path, safe="/")


def _tables(descriptor: Mapping) -> dict[str, Mapping]:
    return {r["name"]: r for r in descriptor["resources"]}


def _checked_files(descriptor: Mapping, files: Sequence[Mapping]) -> list[Mapping]:
    tables = _tables(descriptor)
    for f in files:
        if f.get("tabela") is not None and f["tabela"] not in tables:
            raise ValueError(f"file {f.get('path')!r} of unknown table {f['tabela']!r}")
        _file_path(f["path"])
        n = f["bytes"]
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise ValueError(f"bytes of {f['path']!r} must be a non-negative integer: {n!r}")
        if not isinstance(f.get("sha256"), str) or not _SHA256.match(f["sha256"]):
            raise ValueError(f"sha256 of {f['path']!r} must be 64 hexadecimal digits")
        if not f.get("mediatype") or not f.get("formato"):
            raise ValueError(f"file {f['path']!r} needs mediatype and formato")
    return list(files)


def _coverage(descriptor: Mapping, temporal: Temporal | None, table: str | None) -> tuple[date | None, date | None]:
    """A table's (start, end); for the package (``table`` None) the earliest start and the latest end."""
    temporal = temporal or {}
    tables = _tables(descriptor)
    unknown = set(temporal) - set(tables)
    if unknown:
        raise ValueError(f"temporal coverage of unknown tables: {sorted(unknown)}")
    for name, (start, end) in temporal.items():
        if start is not None and end is not None and start > end:
            raise ValueError(f"temporal coverage of {name} ends before it starts: {start} > {end}")
    if table is not None:
        return tuple(temporal.get(table, (None, None)))  # type: ignore[return-value]
    starts = [s for s, _ in temporal.values() if s is not None]
    ends = [e for _, e in temporal.values() if e is not None]
    return (min(starts) if starts else None, max(ends) if ends else None)


def _contact(contact: Mapping | None) -> dict:
    c = dict(DEFAULT_CONTACT)
    c.update({k: v for k, v in (contact or {}).items() if v is not None})
    email = (c.get("email") or "").strip()
    if email.lower().startswith("mailto:"):
        email = email[len("mailto:"):]
    if email and not re.fullmatch(r"[^@\s]+@[^@\s]+", email, re.A):
        raise ValueError(f"not an e-mail address: {email!r}")
    c["email"] = email
    return c


# --- texts ----------------------------------------------------------------------------------------


def _fictional(descriptor: Mapping) -> bool:
    return bool(descriptor.get("x-ficticio"))


def _base_title(descriptor: Mapping, resource: Mapping) -> str:
    """The table's title without the fictional mark."""
    title = resource.get("title") or resource["name"]
    mark = f"{FICTIONAL_LABEL} — "
    return title[len(mark):] if title.startswith(mark) else title


def _title(descriptor: Mapping, resource: Mapping | None) -> str:
    """The title as published; a fictional build says so even if the descriptor lost the mark."""
    title = descriptor["title"] if resource is None else (resource.get("title") or resource["name"])
    if _fictional(descriptor) and FICTIONAL_LABEL not in title:
        title = f"{FICTIONAL_LABEL} — {title}"
    return title


def _number(n: int) -> str:
    return f"{n:,}".replace(",", ".")


def _plural(n: int, one: str, many: str) -> str:
    return f"{_number(n)} {one if n == 1 else many}"


def _licence_label(descriptor: Mapping) -> str:
    labels = [f"{lic.get('title') or lic.get('name')} ({lic['name']})" if lic.get("title") and lic.get("name")
              else (lic.get("title") or lic.get("name") or lic.get("path", ""))
              for lic in descriptor.get("licenses", [])]
    return "; ".join(x for x in labels if x) or "não informada"


def _sources_sentence(descriptor: Mapping) -> str:
    titles = [s.get("title") or s.get("name") for s in descriptor.get("sources", [])]
    titles = [t for t in titles if t]
    if not titles:
        return "As fontes estão descritas em datapackage.json."
    return f"{'Fonte' if len(titles) == 1 else 'Fontes'}: {'; '.join(titles)}."


def _formats(files: Sequence[Mapping]) -> str:
    seen: list[str] = []
    for f in files:
        if f["formato"] not in seen:
            seen.append(f["formato"])
    return ", ".join(seen)


def _clip(text: str, limit: int = DESCRIPTION_MAX) -> str:
    """``text`` cut to at most ``limit`` characters, at a word boundary, ending in "…"."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if space > limit // 2:
        cut = cut[:space]
    return cut.rstrip(" ,;:.—-") + "…"


def _table_description(descriptor: Mapping, resource: Mapping, files: Sequence[Mapping],
                       rows: Mapping[str, int] | None) -> str:
    """The table's description, then a generated paragraph: its size, formats, licence, sources and the
    decree's regime. Between 50 and 5,000 characters."""
    name = resource["name"]
    parts = []
    if _fictional(descriptor):
        parts.append(f"{FICTIONAL_LABEL}.")
    if resource.get("description"):
        parts.append(resource["description"].strip())
    size = _plural(len(resource.get("schema", {}).get("fields", [])), "coluna", "colunas")
    if rows and rows.get(name) is not None:
        size += f" e {_plural(int(rows[name]), 'linha', 'linhas')}"
    formats = _formats(files)
    parts.append(
        f"A tabela {_base_title(descriptor, resource)} ({name}) tem {size} e faz parte do pacote "
        f"\u201c{descriptor['title']}\u201d"
        + (f", publicada em {formats}" if formats else "")
        + f", sob a licença {_licence_label(descriptor)}."
    )
    if rows is not None and name in rows and rows[name] is None:
        parts.append(NOT_COVERED_SENTENCE)
    parts.append(_sources_sentence(descriptor))
    parts.append(REGIME_SENTENCE)
    return _clip(" ".join(parts))


def _package_description(descriptor: Mapping) -> str:
    parts = []
    description = (descriptor.get("description") or "").strip()
    if _fictional(descriptor) and FICTIONAL_LABEL not in description:
        parts.append(f"{FICTIONAL_LABEL}.")
    parts += [description, SPATIAL_NOTE, f"Licença: {_licence_label(descriptor)}.", _sources_sentence(descriptor),
              REGIME_SENTENCE]
    return _clip(" ".join(p for p in parts if p))


def _keywords(descriptor: Mapping, resource: Mapping | None) -> list[str]:
    words = list(descriptor.get("keywords", []))
    if resource is not None:
        words.append(_base_title(descriptor, resource))
    if _fictional(descriptor):
        words.append("dados fictícios")
    out: list[str] = []
    for w in words:
        if w and w not in out:
            out.append(w)
    return out


def _file_title(descriptor: Mapping, f: Mapping) -> str:
    if f.get("tabela") is None:
        return PACKAGE_FILE_TITLES.get(f["path"], f"{f['path']} ({f['formato']})")
    resource = _tables(descriptor)[f["tabela"]]
    return f"{_base_title(descriptor, resource)} ({f['formato']})"


def _licence_urls(descriptor: Mapping) -> list[str]:
    return [lic["path"] for lic in descriptor.get("licenses", []) if lic.get("path")]


def _source_urls(descriptor: Mapping) -> list[str]:
    return [s["path"] for s in descriptor.get("sources", [])
            if isinstance(s.get("path"), str) and re.match(r"^https?://", s["path"])]


def _interval(start: date | None, end: date | None, open_ended: bool) -> str | None:
    """``start/end`` (ISO 8601); with ``open_ended`` an unknown side is ``..`` (schema.org)."""
    if start is None and end is None:
        return None
    if start is None or end is None:
        if not open_ended:
            return None
        return f"{start.isoformat() if start else '..'}/{end.isoformat() if end else '..'}"
    return f"{start.isoformat()}/{end.isoformat()}"


# --- IRIs -----------------------------------------------------------------------------------------


class _Iris:
    def __init__(self, site: str):
        self.site = site

    def home(self) -> str:
        return _url(self.site)

    def portal(self) -> str:
        return _url(self.site, "#portal")

    def contact_page(self) -> str:
        return _url(self.site, "sobre/")

    def contact(self) -> str:
        return _url(self.site, "sobre/#contato")

    def data_page(self) -> str:
        return _url(self.site, "dados/")

    def catalog(self) -> str:
        return _url(self.site, "dados/#catalogo")

    def package(self) -> str:
        return _url(self.site, "dados/#pacote")

    def descriptor_file(self) -> str:
        return _url(self.site, "dados/datapackage.json")

    def table_page(self, table: str) -> str:
        return _url(self.site, f"dados/{quote(table)}/")

    def table(self, table: str) -> str:
        return _url(self.site, f"dados/{quote(table)}/#tabela")

    def table_schema(self, table: str) -> str:
        return _url(self.site, f"dados/datapackage.json#{quote(table)}")

    def download(self, path: str) -> str:
        return _url(self.site, f"dados/{_file_path(path)}")

    def distribution(self, path: str) -> str:
        return self.download(path) + "#distribuicao"


# --- DCAT-AP --------------------------------------------------------------------------------------


def _text(value: str) -> dict:
    return {"@value": value, "@language": LANGUAGE}


def _date(value: date) -> dict:
    return {"@value": value.isoformat(), "@type": "xsd:date"}


def _ref(iri: str) -> dict:
    return {"@id": iri}


def _dcat_licences(descriptor: Mapping) -> list[dict]:
    return [{"@id": u, "@type": "dct:LicenseDocument"} for u in _licence_urls(descriptor)]


def _dcat_distribution(descriptor: Mapping, f: Mapping, iris: _Iris, as_of: date) -> dict:
    url = iris.download(f["path"])
    node = {
        "@id": iris.distribution(f["path"]),
        "@type": "dcat:Distribution",
        "dct:title": _text(_file_title(descriptor, f)),
        "dcat:accessURL": _ref(url),
        "dcat:downloadURL": _ref(url),
        "dcat:mediaType": {"@id": IANA_MEDIA_TYPES + f["mediatype"], "@type": "dct:MediaType"},
    }
    if f["mediatype"] in EU_FILE_TYPES:
        node["dct:format"] = {"@id": EU_FILE_TYPES[f["mediatype"]], "@type": "dct:MediaTypeOrExtent"}
    node["dcat:byteSize"] = {"@value": str(f["bytes"]), "@type": "xsd:nonNegativeInteger"}
    node["spdx:checksum"] = {
        "@type": "spdx:Checksum",
        "spdx:algorithm": _ref("spdx:checksumAlgorithm_sha256"),
        "spdx:checksumValue": {"@value": f["sha256"].lower(), "@type": "xsd:hexBinary"},
    }
    node["dct:license"] = _dcat_licences(descriptor)
    node["dct:modified"] = _date(as_of)
    if f.get("tabela") is None and f["path"] == "datapackage.json":
        node["dct:conformsTo"] = _ref(DATAPACKAGE_PROFILE)
    elif f.get("tabela") is not None:
        node["dct:conformsTo"] = _ref(iris.table_schema(f["tabela"]))
    return node


def _dcat_temporal(start: date | None, end: date | None) -> dict | None:
    if start is None and end is None:
        return None
    period: dict = {"@type": "dct:PeriodOfTime"}
    if start is not None:
        period["dcat:startDate"] = _date(start)
    if end is not None:
        period["dcat:endDate"] = _date(end)
    return period


def _dcat_dataset(descriptor: Mapping, resource: Mapping | None, files: Sequence[Mapping], iris: _Iris,
                  as_of: date, temporal: Temporal | None, rows: Mapping[str, int] | None) -> dict:
    name = None if resource is None else resource["name"]
    own = [f for f in files if f.get("tabela") == name]
    if resource is None:
        iri, page, description = iris.package(), iris.data_page(), _package_description(descriptor)
    else:
        iri, page = iris.table(name), iris.table_page(name)
        description = _table_description(descriptor, resource, own, rows)
    node: dict = {
        "@id": iri,
        "@type": "dcat:Dataset",
        "dct:identifier": page,
        "dct:title": _text(_title(descriptor, resource)),
        "dct:description": _text(description),
        "dcat:keyword": [_text(k) for k in _keywords(descriptor, resource)],
        "dcat:theme": _ref(EU_THEME_TRANSPORT),
        "dct:language": _ref(EU_LANGUAGE),
        "dct:accessRights": _ref(EU_ACCESS_PUBLIC),
        "dct:publisher": _ref(iris.portal()),
        "dcat:contactPoint": _ref(iris.contact()),
        "dcat:landingPage": {"@id": page, "@type": "foaf:Document"},
        "dct:spatial": [_ref(GEONAMES_BRAZIL), _ref(EU_COUNTRY_BRAZIL)],
        "dct:modified": _date(as_of),
        "dct:license": _dcat_licences(descriptor),
    }
    period = _dcat_temporal(*_coverage(descriptor, temporal, name))
    if period:
        node["dct:temporal"] = period
    if resource is None:
        node["dct:conformsTo"] = _ref(DATAPACKAGE_PROFILE)
        node["dct:hasPart"] = [_ref(iris.table(t)) for t in _tables(descriptor)]
        sources = _source_urls(descriptor)
        if sources:
            node["dct:source"] = [_ref(u) for u in sources]
    else:
        node["dct:conformsTo"] = _ref(iris.table_schema(name))
        node["dct:isPartOf"] = _ref(iris.package())
    node["dcat:distribution"] = [_dcat_distribution(descriptor, f, iris, as_of) for f in own]
    return node


def dcat(descriptor: Mapping, files: Sequence[Mapping], site_url: str, as_of: date,
         temporal: Temporal | None = None, *, contact: Mapping | None = None,
         rows: Mapping[str, int] | None = None) -> dict:
    """A DCAT-AP catalogue (JSON-LD): the ``dcat:Catalog`` of the portal, a ``dcat:Dataset`` for the
    whole package (``<site>/dados/#pacote``, with the package-wide files as distributions) and one per
    table (``<site>/dados/<tabela>/#tabela``, with its files), every file a ``dcat:Distribution`` with
    its size and SHA-256 checksum.

    ``contact``: ``{"fn": name, "email": address}``; the contact point always links the site's
    ``/sobre/`` page and carries the e-mail only when one is given."""
    site = _site(site_url)
    iris = _Iris(site)
    files = _checked_files(descriptor, files)
    who = _contact(contact)
    publisher = {
        "@id": iris.portal(),
        "@type": ["foaf:Agent", "foaf:Organization"],
        "foaf:name": _text(PORTAL_NAME),
        "foaf:homepage": _ref(iris.home()),
    }
    contact_point: dict = {
        "@id": iris.contact(),
        "@type": "vcard:Kind",
        "vcard:fn": _text(who["fn"]),
        "vcard:hasURL": _ref(iris.contact_page()),
    }
    if who["email"]:
        contact_point["vcard:hasEmail"] = _ref(f"mailto:{who['email']}")
    datasets = [_dcat_dataset(descriptor, None, files, iris, as_of, temporal, rows)]
    datasets += [_dcat_dataset(descriptor, r, files, iris, as_of, temporal, rows)
                 for r in _tables(descriptor).values()]
    catalog = {
        "@id": iris.catalog(),
        "@type": "dcat:Catalog",
        "dct:title": _text(f"Catálogo de dados — {_title(descriptor, None)}"),
        "dct:description": _text(_package_description(descriptor)),
        "dct:publisher": _ref(iris.portal()),
        "dct:license": _dcat_licences(descriptor),
        "dct:issued": _date(as_of),
        "dct:modified": _date(as_of),
        "dct:language": _ref(EU_LANGUAGE),
        "dct:spatial": [_ref(GEONAMES_BRAZIL), _ref(EU_COUNTRY_BRAZIL)],
        "foaf:homepage": {"@id": iris.home(), "@type": "foaf:Document"},
        "dcat:themeTaxonomy": _ref("http://publications.europa.eu/resource/authority/data-theme"),
        "dcat:dataset": [_ref(d["@id"]) for d in datasets],
    }
    return {"@context": dict(DCAT_CONTEXT), "@graph": [catalog, publisher, contact_point, *datasets]}


# --- Project Open Data (data.json) ----------------------------------------------------------------


def _pod_distribution(descriptor: Mapping, f: Mapping, iris: _Iris) -> dict:
    d = {
        "@type": "dcat:Distribution",
        "title": _file_title(descriptor, f),
        "downloadURL": iris.download(f["path"]),
        "mediaType": f["mediatype"],
        "format": f["formato"],
    }
    if f.get("tabela") is not None:
        d["describedBy"] = iris.descriptor_file()
        d["describedByType"] = "application/json"
    return d


def data_json(descriptor: Mapping, files: Sequence[Mapping], site_url: str, as_of: date,
              temporal: Temporal | None = None, *, contact: Mapping | None = None,
              rows: Mapping[str, int] | None = None) -> dict:
    """The catalogue as Project Open Data metadata schema v1.1 (``data.json``): the whole package and
    each table, with their files as distributions.

    ``contact``: ``{"fn": name, "email": address}`` (default: the portal's name, no e-mail). POD
    requires ``contactPoint.hasEmail``: without an e-mail the contact point has ``fn`` only and the file
    will not pass a strict POD validator; the DCAT catalogue then points to the ``/sobre/`` page."""
    site = _site(site_url)
    iris = _Iris(site)
    files = _checked_files(descriptor, files)
    who = _contact(contact)
    contact_point = {"@type": "vcard:Contact", "fn": who["fn"]}
    if who["email"]:
        contact_point["hasEmail"] = f"mailto:{who['email']}"
    licences = _licence_urls(descriptor)
    datasets = []
    for resource in [None, *_tables(descriptor).values()]:
        name = None if resource is None else resource["name"]
        own = [f for f in files if f.get("tabela") == name]
        page = iris.data_page() if resource is None else iris.table_page(name)
        description = (_package_description(descriptor) if resource is None
                       else _table_description(descriptor, resource, own, rows))
        d = {
            "@type": "dcat:Dataset",
            "title": _title(descriptor, resource),
            "description": description,
            "keyword": _keywords(descriptor, resource),
            "modified": as_of.isoformat(),
            "publisher": {"@type": "org:Organization", "name": PORTAL_NAME},
            "contactPoint": dict(contact_point),
            "identifier": page,
            "accessLevel": "public",
        }
        if licences:
            d["license"] = licences[0]
        d["spatial"] = SPATIAL_NAME
        interval = _interval(*_coverage(descriptor, temporal, name), open_ended=False)
        if interval:
            d["temporal"] = interval
        d["language"] = [LANGUAGE]
        d["theme"] = ["Transporte"]
        d["landingPage"] = page
        d["describedBy"] = iris.descriptor_file()
        d["describedByType"] = "application/json"
        if resource is not None:
            d["isPartOf"] = iris.data_page()
        else:
            sources = _source_urls(descriptor)
            if sources:
                d["references"] = sources
        d["distribution"] = [_pod_distribution(descriptor, f, iris) for f in own]
        datasets.append(d)
    return {
        "@context": "https://project-open-data.cio.gov/v1.1/schema/catalog.jsonld",
        "@type": "dcat:Catalog",
        "conformsTo": POD_SCHEMA,
        "describedBy": "https://project-open-data.cio.gov/v1.1/schema/catalog.json",
        "dataset": datasets,
    }


# --- schema.org -----------------------------------------------------------------------------------


def _org_download(descriptor: Mapping, f: Mapping, iris: _Iris) -> dict:
    return {
        "@type": "DataDownload",
        "@id": iris.distribution(f["path"]),
        "name": _file_title(descriptor, f),
        "contentUrl": iris.download(f["path"]),
        "encodingFormat": f["mediatype"],
        "contentSize": f"{f['bytes']} B",
        "sha256": f["sha256"].lower(),
    }


def _org_dataset(descriptor: Mapping, resource: Mapping | None, files: Sequence[Mapping], iris: _Iris,
                 as_of: date, temporal: Temporal | None, rows: Mapping[str, int] | None, nested: bool) -> dict:
    name = None if resource is None else resource["name"]
    own = [f for f in files if f.get("tabela") == name]
    page = iris.data_page() if resource is None else iris.table_page(name)
    portal = {"@type": "Organization", "@id": iris.portal(), "name": PORTAL_NAME, "url": iris.home()}
    d: dict = {
        "@type": "Dataset",
        "@id": iris.package() if resource is None else iris.table(name),
        "name": _title(descriptor, resource),
        "description": (_package_description(descriptor) if resource is None
                        else _table_description(descriptor, resource, own, rows)),
        "url": page,
        "identifier": page,
        "keywords": _keywords(descriptor, resource),
        "isAccessibleForFree": True,
        "creator": portal,
        "publisher": portal,
        "dateModified": as_of.isoformat(),
        "version": descriptor.get("version") or as_of.isoformat(),
        "inLanguage": LANGUAGE,
        "spatialCoverage": {"@type": "Place", "name": SPATIAL_NAME, "description": SPATIAL_NOTE,
                            "sameAs": GEONAMES_BRAZIL},
    }
    licences = _licence_urls(descriptor)
    if licences:
        d["license"] = licences[0] if len(licences) == 1 else licences
    interval = _interval(*_coverage(descriptor, temporal, name), open_ended=True)
    if interval:
        d["temporalCoverage"] = interval
    if own:
        d["distribution"] = [_org_download(descriptor, f, iris) for f in own]
    if resource is not None and not nested:
        d["variableMeasured"] = [f.get("title") or f["name"] for f in resource.get("schema", {}).get("fields", [])]
    sources = _source_urls(descriptor)
    if sources:
        d["isBasedOn"] = sources
    catalog = {"@type": "DataCatalog", "@id": iris.catalog(), "name": f"Catálogo de dados — {PORTAL_NAME}",
               "url": iris.data_page()}
    if resource is None:
        d["includedInDataCatalog"] = catalog
        d["hasPart"] = [_org_dataset(descriptor, r, files, iris, as_of, temporal, rows, nested=True)
                        for r in _tables(descriptor).values()]
    elif not nested:
        d["includedInDataCatalog"] = catalog
        d["isPartOf"] = {"@type": "Dataset", "@id": iris.package(), "name": _title(descriptor, None),
                         "url": iris.data_page()}
    return d


def schema_org(descriptor: Mapping, files: Sequence[Mapping], site_url: str, as_of: date,
               temporal: Temporal | None = None, table: str | None = None, *,
               rows: Mapping[str, int] | None = None) -> dict:
    """A schema.org ``Dataset`` (JSON-LD) for the ``/dados/`` page (``table`` None: the whole package,
    with the package-wide files as ``distribution`` and every table in ``hasPart``) or for one table's
    page ``/dados/<tabela>/``. Descriptions have 50 to 5,000 characters (Google Dataset Search).

    The ``@context`` is the string ``https://schema.org``, as Google expects; an offline JSON-LD parser
    cannot fetch it and should be given ``{"@vocab": "https://schema.org/"}`` in its place."""
    site = _site(site_url)
    iris = _Iris(site)
    files = _checked_files(descriptor, files)
    if table is not None and table not in _tables(descriptor):
        raise KeyError(f"unknown table {table!r}")
    resource = None if table is None else _tables(descriptor)[table]
    return {"@context": "https://schema.org",
            **_org_dataset(descriptor, resource, files, iris, as_of, temporal, rows, nested=False)}


# --- HTML -----------------------------------------------------------------------------------------

# Inside JSON these characters only occur in strings, where their \\u escapes mean the same; escaped,
# no text can close the script element or open a comment (U+2028/2029 for old JavaScript parsers).
_SCRIPT_ESCAPES = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}


def script_tag(obj) -> str:
    """``<script type="application/ld+json">…</script>`` holding ``obj`` as JSON, safe to put in a page
    whatever its strings contain."""
    text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
    text = "".join(_SCRIPT_ESCAPES.get(ch, ch) for ch in text)
    return f'<script type="application/ld+json">{text}</script>'
