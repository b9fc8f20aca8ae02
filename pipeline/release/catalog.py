"""Catalogue metadata for harvesters: the published package (``pipeline/publish/datapackage.py``) and its
files described as DCAT-AP JSON-LD, as a Project Open Data ``data.json`` and as schema.org ``Dataset``
JSON-LD for the ``/dados/`` pages (Google Dataset Search).

Every function here but :func:`kept_versions` is pure: it reads the published descriptor and the list of
published files the build passes, and returns a JSON-ready dict. The same input gives the same output (no clock, no random
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
    ``https://x.github.io/portal``), the path it is served under when only that is known (``/portal``:
    ``--base-path`` without ``--site-url``), or ``""`` when neither is. Without an address every IRI is
    written relative to the site root (``/portal/dados/infracoes.csv``): a consumer resolves them against the
    URL it fetched the catalogue from (JSON-LD parsers need that base, e.g. rdflib's ``publicID``). Root-relative IRIs are
    only right for a site served at the root of its domain, and ``data.json`` validators require
    absolute URLs: the build should pass ``site_url`` whenever it knows it.
``as_of``
    the build's reference date: the release's version and the catalogue's ``dct:modified``.
``temporal``
    per table, ``(first, last)`` of its date columns, either of them ``None`` when unknown. A table
    missing from the mapping has an unknown coverage.
``rows`` (keyword, optional)
    per table, its number of rows, only used in the generated description sentence.
``facts`` (keyword, optional)
    a :class:`Facts`: what the catalogues state besides the descriptor, each declared once: the settings
    (contact e-mail, update frequency, VCGE theme: ``pipeline/contract/settings.py``), which sources supply each
    table, and the kept releases (:func:`kept_versions`, the one function here that reads the disk).

Who publishes what, and of when (facts of the sources, never the build's clock):

- a dataset's ``dct:publisher`` is the public body behind its sources (the ``publisher`` of the
  descriptor's ``sources``, e.g. ANTT for the regulator's exports; for the fictional sample the source says
  "Projeto do portal", and the name carries the fictional mark); a table the portal computes, or that no
  source supplies, takes the package's, the publisher of the first declared source. A folder that declares
  no source has no known publisher: the DCAT dataset then has none, and data.json and schema.org say
  "publicador não declarado pela fonte". The catalogue itself is published by the portal.
- ``dct:issued`` and ``dct:modified`` of a dataset are the oldest and the newest ``date`` of its sources
  (the data's dates: ``AAAA``, ``AAAA-MM`` or ``AAAA-MM-DD``, typed ``xsd:gYear``, ``xsd:gYearMonth`` or
  ``xsd:date``): they move when a source brings new data, not when ``--as-of`` moves. Where no source
  declares a date, and for a table the portal makes (one no source supplies, empty, or one it computes:
  achados, inconsistências, municípios, rejeitados, published by the portal, not by a source's body), they
  come from the kept releases: issued is the first release that published the table,
  modified the first of the latest run of releases whose CSV has the table's present SHA-256 (this release's
  date when none had it). A kept release is issued and modified on its own date, and never changes.
- ``as_of`` dates what the release itself is: the package's ``dcat:version``, the catalogue's
  ``dct:modified`` (it lists this release) and schema.org ``version``.

The generated texts say which regime the records belong to, per table, as each source and the schema
declare it (pipeline/read/provenance.py ``regime_sentence``): the one Decreto nº 952/1993 described, revoked
by Decreto nº 2.521/1998, or the one that replaced it; they never call the decree the law in force.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from urllib.parse import quote

from ..contract.identifiers import slugify
from ..contract.settings import EU_FREQUENCY, FREQUENCIES, VCGE_ROAD_TRANSPORT, VCGE_SCHEME, check_email, release_page
from ..contract.spelling import number
from ..publish.datapackage import FICTIONAL_LABEL
from ..publish.provenance import MADE, NOT_COVERED, Provenance
from ..publish.provenance import NOT_COVERED_SENTENCE as DESCRIBED_NOT_COVERED
from ..publish.tabular import FORMULA_GUARD

PORTAL_NAME = "Portal do transporte rodoviário interestadual de passageiros"
LANGUAGE = "pt-BR"
EU_LANGUAGE = "http://publications.europa.eu/resource/authority/language/POR"
EU_THEME_TRANSPORT = "http://publications.europa.eu/resource/authority/data-theme/TRAN"
EU_ACCESS_PUBLIC = "http://publications.europa.eu/resource/authority/access-right/PUBLIC"
EU_COUNTRY_BRAZIL = "http://publications.europa.eu/resource/authority/country/BRA"
GEONAMES_BRAZIL = "https://sws.geonames.org/3469034/"  # GeoNames' https URI, the form DCAT-AP's shapes expect
EU = "http://publications.europa.eu/resource/authority/"
EU_THEMES = EU + "data-theme"
EU_AVAILABLE = EU + "planned-availability/AVAILABLE"  # the files of /dados/: replaced by each release
EU_STABLE = EU + "planned-availability/STABLE"  # a kept release's files: never replaced
ADMS_PUBLISHER_TYPES = "http://purl.org/adms/publishertype/1.0"
ADMS_LICENCE_TYPES = "http://purl.org/adms/licencetype/1.0"
SPDX_SHA256 = "http://spdx.org/rdf/terms#checksumAlgorithm_sha256"
IANA_MEDIA_TYPES = "https://www.iana.org/assignments/media-types/"
DATAPACKAGE_PROFILE = "https://datapackage.org/profiles/2.0/datapackage.json"
POD_SCHEMA = "https://project-open-data.cio.gov/v1.1/schema"

SPATIAL_NAME = "Brasil"
SPATIAL_NOTE = ("Linhas interestaduais no Brasil e linhas internacionais com ponto terminal no Brasil.")

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

# Each distribution's description (DCAT-AP recommends one): what the file is, by its name in dados/ (the
# package's files) or its suffix (a table's files).
FILE_DESCRIPTIONS = {
    "csv": "CSV em UTF-8 (RFC 4180), separado por vírgulas, com linha de cabeçalho; valores em reais sempre com "
           f"duas casas decimais; {FORMULA_GUARD.removeprefix('no CSV, ')}.",
    "json": "JSON: uma lista de registros, um registro compacto por linha, com os campos do CSV.",
    "parquet": "Parquet com os tipos de cada coluna e, nos metadados, os títulos e as descrições das colunas.",
    "xlsx": "Planilha XLSX para o Excel em português: datas como datas, valores no formato R$, cabeçalho "
            "\u201cTítulo [nome]\u201d congelado com filtro, uma coluna de rótulo ao lado de cada coluna codificada "
            "e a aba dicionario.",
    "datapackage.json": "Descritor Frictionless Data Package v2 do pacote: tabelas, colunas, tipos, restrições, "
                        "chaves, fontes, campos derivados e o tamanho e o SHA-256 de cada CSV.",
    "pacote-completo.zip": "Arquivo ZIP com o descritor datapackage.json e o CSV de cada tabela.",
    "portal.sqlite": "Banco de dados SQLite com todas as tabelas, chaves primárias e estrangeiras, índices e busca "
                     "textual (FTS5) nas colunas de texto.",
    "metadata.json": "Metadados do Datasette para o portal.sqlite: títulos, descrições, licença, fontes e a "
                     "descrição de cada coluna (datasette portal.sqlite -m metadata.json).",
    "validacao.json": "Relatório da validação da entrada em JSON: erros, avisos e conflitos entre fontes, cada um "
                      "com arquivo, linha, coluna, valor e regra.",
}

@dataclass(frozen=True)
class PublicBody:
    """A public body that publishes sources, as the catalogues name it: its official name, its kind in the ADMS
    publisher type vocabulary (DCAT-AP recommends dct:type on every agent), its acronym, its CNPJ (printed)
    and its home page."""

    name: str
    kind: str
    acronym: str = ""
    cnpj: str = ""
    homepage: str = ""


# Matched by official name in a source's "publisher" ("ANTT — Agência Nacional de Transportes Terrestres"); a
# body not listed here is named as the source names it, with no type.
PUBLIC_BODIES = (
    PublicBody("Agência Nacional de Transportes Terrestres", "NationalAuthority", "ANTT", "04.898.488/0001-77",
               "https://www.gov.br/antt/pt-br"),
    PublicBody("Presidência da República", "NationalAuthority"),
)
PUBLISHER_TYPE_LABELS = {"NationalAuthority": "Autoridade nacional"}
UNDECLARED_PUBLISHER = "publicador não declarado pela fonte"

# the controlled vocabularies the DCAT catalogue takes its concepts from (DCAT-AP asks each scheme a title)
SCHEME_TITLES = {
    EU + "language": "Línguas (vocabulário controlado da UE)",
    EU_THEMES: "Temas de dados (vocabulário controlado da UE)",
    EU + "country": "Países (vocabulário controlado da UE)",
    EU + "access-right": "Direitos de acesso (vocabulário controlado da UE)",
    EU + "frequency": "Frequências (vocabulário controlado da UE)",
    EU + "file-type": "Tipos de arquivo (vocabulário controlado da UE)",
    EU + "planned-availability": "Disponibilidade prevista (vocabulário controlado da UE)",
    ADMS_PUBLISHER_TYPES: "Tipos de publicador (ADMS)",
    ADMS_LICENCE_TYPES: "Tipos de licença (ADMS)",
    VCGE_SCHEME: "Vocabulário Controlado do Governo Eletrônico (VCGE 2)",
}

# adms licence types of the licences the portal publishes under (DCAT-AP recommends dct:type on a licence)
LICENCE_TYPES = {"https://creativecommons.org/licenses/by/4.0/": "Attribution"}

DCAT_CONTEXT = {
    "dcat": "http://www.w3.org/ns/dcat#",
    "dct": "http://purl.org/dc/terms/",
    "dcatap": "http://data.europa.eu/r5r/",
    "foaf": "http://xmlns.com/foaf/0.1/",
    "vcard": "http://www.w3.org/2006/vcard/ns#",
    "spdx": "http://spdx.org/rdf/terms#",
    "skos": "http://www.w3.org/2004/02/skos/core#",
    "xsd": "http://www.w3.org/2001/XMLSchema#",
    "rdfs": "http://www.w3.org/2000/01/rdf-schema#",
}


@dataclass(frozen=True)
class Facts:
    """What the catalogues state besides the descriptor and the files, each declared once: the settings
    (:meth:`from_settings`), which sources supply each table, and the kept releases."""

    contact_email: str = ""
    frequency: str = "IRREG"  # a key of pipeline.contract.settings.FREQUENCIES
    vcge_theme: str = VCGE_ROAD_TRANSPORT
    vcge_label: str = "Transporte Rodoviário"
    # table -> names of the sources that supply it (descriptor "sources" names; the build passes
    # Report.coverage; None: each resource's own "x-cobertura" in the descriptor, when it has one); a table
    # missing here, or mapped to no source, is one the portal computes or no source supplies: the package's
    # sources answer for it
    coverage: Mapping[str, Sequence[str]] | None = None
    versions: Sequence[Mapping] = field(default=())  # the kept releases, as kept_versions() reads them
    # where each release is kept as a GitHub Release (--versoes-url), when the build has one: a version's
    # address is then <versoes-url>/tag/<versão> (pipeline/publish/hosting.py)
    versions_url: str = ""

    @classmethod
    def from_settings(cls, settings, coverage=None, versions=()) -> Facts:
        return cls(contact_email=settings.contact_email, frequency=settings.update_frequency,
                   vcge_theme=settings.vcge_theme, vcge_label=settings.vcge_label, coverage=coverage,
                   versions=tuple(versions),
                   versions_url=settings.versions_url if settings.release_folder is not None else "")

_SHA256 = re.compile(r"[0-9a-fA-F]{64}\Z")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")

Temporal = Mapping[str, tuple[date | None, date | None]]


# --- inputs ---------------------------------------------------------------------------------------


def _site(site_url: str) -> str:
    site = (site_url or "").strip().rstrip("/")
    if site and not re.fullmatch(r"https?://[^/\s]+(/\S*)?|/[^/\s]\S*", site, re.A):
        raise ValueError(f"site_url must be empty, an http(s) address or the site's path: {site_url!r}")
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


def _facts(facts: Facts | None) -> Facts:
    facts = facts or Facts()
    email = check_email(facts.contact_email)  # the settings refuse a bad address; so does this, for any caller
    if facts.frequency not in FREQUENCIES:
        raise ValueError(f"unknown update frequency {facts.frequency!r}: one of {sorted(FREQUENCIES)}")
    return Facts(email, facts.frequency, facts.vcge_theme, facts.vcge_label, facts.coverage, tuple(facts.versions),
                 facts.versions_url)


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


def _plural(n: int, one: str, many: str) -> str:
    return f"{number(n)} {one if n == 1 else many}"


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
    if rows is not None and name in rows and rows[name] is None and \
            not (resource.get("description") or "").startswith(DESCRIBED_NOT_COVERED):
        parts.append(NOT_COVERED_SENTENCE)  # unless the table's own description already says so
    parts.append(_sources_sentence(descriptor))
    parts.append(Provenance.from_descriptor(dict(descriptor)).regime_text(name))  # of its own records
    return _clip(" ".join(parts))


def _package_description(descriptor: Mapping) -> str:
    parts = []
    description = (descriptor.get("description") or "").strip()
    if _fictional(descriptor) and FICTIONAL_LABEL not in description:
        parts.append(f"{FICTIONAL_LABEL}.")
    parts += [description, SPATIAL_NOTE, f"Licença: {_licence_label(descriptor)}.", _sources_sentence(descriptor),
              Provenance.from_descriptor(dict(descriptor)).regime_text()]
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
        folder, _, name = f["path"].rpartition("/")
        title = PACKAGE_FILE_TITLES.get(name, f"{name} ({f['formato']})")
        return f"{title} — versão {folder.rsplit('/', 1)[-1]}" if folder else title
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


# --- sources: who published each dataset, and of when ---------------------------------------------

_SOURCE_DATE = re.compile(r"[0-9]{4}(-[0-9]{2}(-[0-9]{2})?)?\Z")


def _all_sources(descriptor: Mapping) -> list[Mapping]:
    return [s for s in descriptor.get("sources", []) if isinstance(s, Mapping)]


def _situation(descriptor: Mapping, table: str | None) -> str | None:
    """A table's coverage as its ``x-cobertura`` states it (provenance's NOT_COVERED, MADE, ...), None when unsaid."""
    entry = _tables(descriptor).get(table, {}).get("x-cobertura") if table is not None else None
    return entry.get("situacao") if isinstance(entry, Mapping) else None


def _uncovered(descriptor: Mapping, table: str | None) -> bool:
    """The table is one no source of the release supplies: empty, and dated, published and described by no
    source's facts."""
    return _situation(descriptor, table) == NOT_COVERED


def _by_the_portal(descriptor: Mapping, table: str | None) -> bool:
    """The portal, not a source, makes the table: one no source supplies (empty), or one it computes from
    them (findings, inconsistencies, places, rejected rows): it publishes it, dated by its releases."""
    return _situation(descriptor, table) in (NOT_COVERED, MADE)


def _dataset_publisher(descriptor: Mapping, sources: Sequence[Mapping], table: str | None) -> str | None:
    """Who publishes a dataset: its sources' body; the portal for a table the portal makes."""
    if _by_the_portal(descriptor, table):
        return _publisher_name({"publisher": PORTAL_NAME, "fictional": _fictional(descriptor)})
    return _publisher(sources)


def _sources(descriptor: Mapping, facts: Facts, table: str | None) -> list[Mapping]:
    """The sources behind a dataset: those that supply the table; the whole package's for the package and a
    table the portal computes (findings, inconsistencies...); none for a table no source supplies, whose dates
    are then the releases' (``_dates``) and whose publisher is the portal."""
    if _uncovered(descriptor, table):
        return []
    everything = _all_sources(descriptor)
    names = None
    if table is not None:
        names = (facts.coverage or {}).get(table)
        if facts.coverage is None:  # the published descriptor's own record (x-cobertura), when it has one
            entry = _tables(descriptor).get(table, {}).get("x-cobertura")
            names = entry.get("fontes") if isinstance(entry, Mapping) else None
    if not names:
        return everything
    chosen = [s for s in everything if s.get("name") in set(names)]
    return chosen or everything


def _publisher_name(source: Mapping) -> str:
    name = " ".join(str(source.get("publisher") or "").split())
    if name and source.get("fictional") and FICTIONAL_LABEL not in name:
        name = f"{name} ({FICTIONAL_LABEL.lower()})"
    return name


def _publisher(sources: Sequence[Mapping]) -> str | None:
    """The public body behind ``sources``: the first source's publisher (folders come in --data order, the
    decree the project supplies last); None when it declares none (a folder without a descriptor: the
    decree's publisher is not taken for the folder's)."""
    return (_publisher_name(sources[0]) or None) if sources else None


def _body_named(name: str) -> PublicBody | None:
    """The public body whose official name ``name`` holds, if any."""
    folded = name.casefold()
    return next((b for b in PUBLIC_BODIES if b.name.casefold() in folded), None)


def _publisher_type(name: str) -> str | None:
    body = _body_named(name)
    return body.kind if body is not None else None


def _official(name: str | None) -> str | None:
    """A publisher's name as the catalogues give it: a known public body's official name."""
    body = public_body(name) if name else None
    return body.name if body is not None else name


def public_body(name: str) -> PublicBody | None:
    """The public body a real source's publisher names; None for another, or for a fictional source (whose
    publisher is nobody's: no real body's CNPJ or home page is given to it)."""
    return None if FICTIONAL_LABEL.casefold() in name.casefold() else _body_named(name)


def _source_dates(sources: Sequence[Mapping]) -> list[str]:
    return [s["date"] for s in sources if isinstance(s.get("date"), str) and _SOURCE_DATE.match(s["date"])]


def _day(value: str) -> str:
    """A source date's sort key: 2021 < 2021-06 < 2021-06-30."""
    return value + "-00" * ((10 - len(value)) // 3)


def _hashes(descriptor: Mapping) -> dict[str, str]:
    out = {}
    for r in descriptor.get("resources", []):
        if isinstance(r, Mapping) and isinstance(r.get("hash"), str) and isinstance(r.get("name"), str):
            out[r["name"]] = r["hash"].removeprefix("sha256:").lower()
    return out


def _history(descriptor: Mapping, as_of: date, facts: Facts) -> list[tuple[str, dict[str, str]]]:
    """(release date, table -> CSV SHA-256) of this release and each earlier kept one, newest first."""
    kept = [(v["data"], dict(v.get("hashes") or {})) for v in facts.versions]
    return [(as_of.isoformat(), _hashes(descriptor)), *sorted(kept, key=lambda k: k[0], reverse=True)]


def _released(descriptor: Mapping, as_of: date, facts: Facts, table: str | None) -> tuple[str, str]:
    """(issued, modified) of a dataset where no source dates it, from the kept releases: the first release
    that published the table, and the first of the latest run of releases with its present SHA-256."""
    history = _history(descriptor, as_of, facts)
    if table is None:  # the package: its first release, and the first of the latest run with the same tables
        since = history[0][0]
        for d, hashes in history[1:]:
            if hashes != history[0][1]:
                break
            since = d
        return history[-1][0], since
    first = min((d for d, hashes in history if table in hashes), default=history[0][0])
    present = history[0][1].get(table)
    since = history[0][0]
    for d, hashes in history[1:]:
        if present is None or hashes.get(table) != present:
            break
        since = d
    return first, since


def _dates(descriptor: Mapping, as_of: date, facts: Facts, table: str | None) -> tuple[str, str]:
    """(issued, modified) of a dataset: the oldest and the newest date of its sources (the data's dates);
    where a source declares no date, what the kept releases say of the table counts with them. The package,
    which the portal assembles, and a table the portal makes are dated by the releases that published them:
    the decree's 1993 is not when the package was issued."""
    if table is None or _by_the_portal(descriptor, table):  # the releases that published it, not the sources
        return _released(descriptor, as_of, facts, table)
    sources = _sources(descriptor, facts, table)
    days = _source_dates(sources)
    if days and len(days) == len(sources):
        return min(days, key=_day), max(days, key=_day)
    first, since = _released(descriptor, as_of, facts, table)  # a source of unknown date: the releases say
    return min([*days, first], key=_day), max([*days, since], key=_day)


# --- kept releases (the one reader of the disk) ---------------------------------------------------

_KEPT_FILES = [  # what each kept release is catalogued with: (file, format, media type)
    ("pacote-completo.zip", "ZIP", "application/zip"),
    ("datapackage.json", "JSON (Frictionless Data Package)", "application/json"),
]
_MAX_KEPT_DESCRIPTOR = 16 * 1024 * 1024


def _regular(path: Path) -> bool:
    try:
        return path.is_file() and not path.is_symlink()
    except OSError:
        return False


def kept_versions(dados: Path, names: Sequence[str]) -> list[dict]:
    """Each kept release under ``dados/versoes/<versão>/`` named in ``names`` (pipeline/release/versions.py
    ``keep_version``), in that order (newest first), as the catalogues describe it: its name and date, the
    title, sources, licences
    and fictional mark of its own descriptor, each CSV's SHA-256 it states, and its zip and descriptor with
    size and SHA-256 (from its own ``SHA256SUMS``; hashed here when that file does not list them). A release
    brought from an earlier site is read with care: regular files only, a descriptor of bounded size, and a
    part that cannot be read is left out rather than trusted."""
    from .versions import version_date

    out = []
    for name in dict.fromkeys(names):
        day = version_date(name)
        folder = Path(dados) / "versoes" / name
        if day is None or not folder.is_dir() or folder.is_symlink():
            continue
        descriptor: dict = {}
        path = folder / "datapackage.json"
        if _regular(path) and path.stat().st_size <= _MAX_KEPT_DESCRIPTOR:
            try:
                loaded = json.loads(path.read_text(encoding="utf-8"))
                descriptor = loaded if isinstance(loaded, dict) else {}
            except (OSError, ValueError, RecursionError):
                descriptor = {}
        sums: dict[str, str] = {}
        if _regular(folder / "SHA256SUMS"):
            for line in (folder / "SHA256SUMS").read_text(encoding="utf-8", errors="replace").splitlines():
                digest, _, member = line.partition("  ")
                if _SHA256.match(digest):
                    sums[member] = digest.lower()
        files = []
        for member, label, mediatype in _KEPT_FILES:
            target = folder / member
            if not _regular(target):
                continue
            digest = sums.get(member)
            if digest is None:
                h = hashlib.sha256()
                with open(target, "rb") as fh:
                    for block in iter(lambda: fh.read(1 << 20), b""):
                        h.update(block)
                digest = h.hexdigest()
            files.append({"tabela": None, "path": f"versoes/{name}/{member}", "formato": label,
                          "mediatype": mediatype, "bytes": os.stat(target).st_size, "sha256": digest})
        licences = [lic for lic in descriptor.get("licenses", []) if isinstance(lic, dict)]
        sources = [s for s in descriptor.get("sources", []) if isinstance(s, dict)]
        out.append({"versao": name, "data": day.isoformat(), "titulo": descriptor.get("title") if isinstance(descriptor.get("title"), str) else "",
                    "ficticio": bool(descriptor.get("x-ficticio")), "licenses": licences, "sources": sources,
                    "hashes": _hashes(descriptor), "arquivos": files})
    return out


# --- IRIs -----------------------------------------------------------------------------------------


class _Iris:
    def __init__(self, site: str, versions_url: str = ""):
        self.site = site
        self.versions_url = versions_url.rstrip("/")

    def file_url(self, f: Mapping) -> str:
        """Where a file answers: its ``url`` when it is served from elsewhere (a release's asset,
        pipeline/publish/hosting.py), else its path under the site's ``/dados/``."""
        url = f.get("url")
        return url if isinstance(url, str) and url.startswith(("https://", "http://")) else self.download(f["path"])

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

    def publisher(self, name: str) -> str:
        return _url(self.site, f"dados/#publicador-{slugify(name) or 'fonte'}")

    def series(self) -> str:
        return _url(self.site, "dados/versoes/#serie")

    def version_folder(self, version: str) -> str:
        if self.versions_url:  # kept as a GitHub Release of that name
            return release_page(self.versions_url, quote(version))
        return _url(self.site, f"dados/versoes/{quote(version)}/")

    def version(self, version: str) -> str:
        return self.version_folder(version) + "#versao"

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

def _file_description(descriptor: Mapping, f: Mapping) -> str:
    """What a published file is, in a sentence or two (the distribution's description)."""
    name = f["path"].rsplit("/", 1)[-1]
    if f.get("tabela") is None:
        what = FILE_DESCRIPTIONS.get(name, f"Arquivo {f['formato']} do pacote.")
        if f["path"].startswith("versoes/"):
            what += f" Cópia guardada na versão {f['path'].split('/')[1]}, num endereço que não muda."
        return what
    resource = _tables(descriptor)[f["tabela"]]
    what = FILE_DESCRIPTIONS.get(name.rsplit(".", 1)[-1], f"Arquivo {f['formato']}.")
    return f"Tabela {_base_title(descriptor, resource)} ({f['tabela']}) em {f['formato']}. {what}"


# --- DCAT-AP --------------------------------------------------------------------------------------


def _text(value: str) -> dict:
    return {"@value": value, "@language": LANGUAGE}


def _date(value: date) -> dict:
    return {"@value": value.isoformat(), "@type": "xsd:date"}


def _when(value: str) -> dict:
    """A source or release date (AAAA, AAAA-MM, AAAA-MM-DD) with the XML Schema type of its precision."""
    kind = {4: "xsd:gYear", 7: "xsd:gYearMonth"}.get(len(value), "xsd:date")
    return {"@value": value, "@type": kind}


def _ref(iri: str) -> dict:
    return {"@id": iri}


class _Graph:
    """The nodes of the DCAT catalogue besides the catalogue and its datasets: agents and the concepts of
    the controlled vocabularies it uses, each described once (typed, in its scheme, labelled), so that the
    objects linked from the datasets carry the classes DCAT-AP's range shapes check."""

    def __init__(self, iris: _Iris, facts: Facts):
        self.iris, self.facts, self.nodes = iris, facts, {}

    def node(self, iri: str, **props) -> dict:
        self.nodes.setdefault(iri, {"@id": iri, **props})
        return _ref(iri)

    def concept(self, iri: str, scheme: str, label: str, *types: str) -> dict:
        self.node(scheme, **{"@type": "skos:ConceptScheme", "dct:title": _text(SCHEME_TITLES.get(scheme, scheme))})
        return self.node(iri, **{"@type": [*types, "skos:Concept"], "skos:inScheme": _ref(scheme),
                                 "skos:prefLabel": _text(label)})

    def scheme(self, iri: str) -> dict:
        return self.node(iri, **{"@type": "skos:ConceptScheme", "dct:title": _text(SCHEME_TITLES.get(iri, iri))})

    def language(self) -> dict:
        return self.concept(EU_LANGUAGE, EU + "language", "português", "dct:LinguisticSystem")

    def themes(self) -> list[dict]:
        return [self.concept(EU_THEME_TRANSPORT, EU_THEMES, "Transportes"),
                self.concept(self.facts.vcge_theme, VCGE_SCHEME, self.facts.vcge_label)]

    def taxonomies(self) -> list[dict]:
        return [self.scheme(EU_THEMES), self.scheme(VCGE_SCHEME)]

    def spatial(self) -> list[dict]:
        return [self.node(GEONAMES_BRAZIL, **{"@type": "dct:Location", "skos:prefLabel": _text(SPATIAL_NAME)}),
                self.concept(EU_COUNTRY_BRAZIL, EU + "country", SPATIAL_NAME, "dct:Location")]

    def access(self) -> dict:
        return self.concept(EU_ACCESS_PUBLIC, EU + "access-right", "público", "dct:RightsStatement")

    def frequency(self) -> dict:
        code = self.facts.frequency
        return self.concept(EU_FREQUENCY + code, EU + "frequency", FREQUENCIES[code][0], "dct:Frequency")

    def availability(self, stable: bool) -> dict:
        iri, label = (EU_STABLE, "estável") if stable else (EU_AVAILABLE, "disponível")
        return self.concept(iri, EU + "planned-availability", label)

    def file_type(self, iri: str) -> dict:
        return self.concept(iri, EU + "file-type", iri.rsplit("/", 1)[-1], "dct:MediaTypeOrExtent")

    def standard(self, iri: str) -> dict:
        return self.node(iri, **{"@type": "dct:Standard"})

    def licences(self, licences: Sequence[Mapping]) -> list[dict]:
        out = []
        for lic in licences:
            if not lic.get("path"):
                continue
            props: dict = {"@type": "dct:LicenseDocument"}
            if lic.get("title"):
                props["rdfs:label"] = _text(lic["title"])
            kind = LICENCE_TYPES.get(lic["path"])
            if kind:
                props["dct:type"] = self.concept(f"http://purl.org/adms/licencetype/{kind}", ADMS_LICENCE_TYPES,
                                                 kind)
            out.append(self.node(lic["path"], **props))
        return out

    def publisher(self, name: str | None) -> dict | None:
        if not name:
            return None
        props: dict = {"@type": ["foaf:Agent", "foaf:Organization"], "foaf:name": _text(name)}
        body = public_body(name)
        if body is not None:  # its official name, its acronym apart, its CNPJ and its home page
            props["foaf:name"] = _text(body.name)
            if body.acronym:
                props["skos:altLabel"] = _text(body.acronym)
            if body.cnpj:
                props["dct:identifier"] = body.cnpj
            if body.homepage:
                props["foaf:homepage"] = {"@id": body.homepage, "@type": "foaf:Document"}
        kind = _publisher_type(name)
        if kind:
            props["dct:type"] = self.concept(f"http://purl.org/adms/publishertype/{kind}", ADMS_PUBLISHER_TYPES,
                                             PUBLISHER_TYPE_LABELS.get(kind, kind))
        return self.node(self.iris.publisher(name), **props)


def _dcat_distribution(descriptor: Mapping, f: Mapping, iris: _Iris, graph: _Graph, modified: str,
                       licences: Sequence[Mapping], stable: bool = False) -> dict:
    url = iris.file_url(f)
    node = {
        "@id": iris.file_url(f) + "#distribuicao",
        "@type": "dcat:Distribution",
        "dct:title": _text(_file_title(descriptor, f)),
        "dct:description": _text(_file_description(descriptor, f)),
        "dcat:accessURL": _ref(url),
        "dcat:downloadURL": _ref(url),
        "dcat:mediaType": {"@id": IANA_MEDIA_TYPES + f["mediatype"], "@type": "dct:MediaType"},
    }
    if f["mediatype"] in EU_FILE_TYPES:
        node["dct:format"] = graph.file_type(EU_FILE_TYPES[f["mediatype"]])
    node["dcat:byteSize"] = {"@value": str(f["bytes"]), "@type": "xsd:nonNegativeInteger"}
    node["spdx:checksum"] = {
        "@type": "spdx:Checksum",
        "spdx:algorithm": graph.node(SPDX_SHA256, **{"@type": "spdx:ChecksumAlgorithm"}),
        "spdx:checksumValue": {"@value": f["sha256"].lower(), "@type": "xsd:hexBinary"},
    }
    node["dct:license"] = graph.licences(licences)
    node["dcatap:availability"] = graph.availability(stable)
    node["dct:modified"] = _when(modified)
    if f.get("tabela") is None and f["path"].rsplit("/", 1)[-1] == "datapackage.json":
        node["dct:conformsTo"] = graph.standard(DATAPACKAGE_PROFILE)
    elif f.get("tabela") is not None:
        node["dct:conformsTo"] = graph.standard(iris.table_schema(f["tabela"]))
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


def _provenance(sources: Sequence[Mapping]) -> str:
    parts = []
    for s in sources:
        label = s.get("title") or s.get("name") or ""
        when = f", dados de {s['date']}" if s.get("date") else ""
        where = f", {s['path']}" if isinstance(s.get("path"), str) and s["path"] else ""
        parts.append(f"{label}{when}{where}")
    return ("Fontes: " + "; ".join(p for p in parts if p) + ".") if any(parts) else "Fonte não declarada."


def _dcat_common(descriptor: Mapping, resource: Mapping | None, graph: _Graph, publisher: str | None) -> dict:
    """The properties every dataset of the catalogue shares with the package."""
    node: dict = {
        "dcat:keyword": [_text(k) for k in _keywords(descriptor, resource)],
        "dcat:theme": graph.themes(),
        "dct:language": graph.language(),
        "dct:accessRights": graph.access(),
        "dcat:contactPoint": _ref(graph.iris.contact()),
        "dct:spatial": graph.spatial(),
        "dct:accrualPeriodicity": graph.frequency(),
    }
    who = graph.publisher(publisher)
    if who:
        node["dct:publisher"] = who
    return node


def _dcat_dataset(descriptor: Mapping, resource: Mapping | None, files: Sequence[Mapping], iris: _Iris,
                  graph: _Graph, as_of: date, temporal: Temporal | None, rows: Mapping[str, int] | None,
                  facts: Facts) -> dict:
    name = None if resource is None else resource["name"]
    own = [f for f in files if f.get("tabela") == name]
    if resource is None:
        iri, page, description = iris.package(), iris.data_page(), _package_description(descriptor)
    else:
        iri, page = iris.table(name), iris.table_page(name)
        description = _table_description(descriptor, resource, own, rows)
    sources = _sources(descriptor, facts, name)
    issued, modified = _dates(descriptor, as_of, facts, name)
    licences = descriptor.get("licenses", [])
    node: dict = {
        "@id": iri,
        "@type": "dcat:Dataset",
        "dct:identifier": page,
        "dct:title": _text(_title(descriptor, resource)),
        "dct:description": _text(description),
        **_dcat_common(descriptor, resource, graph, _dataset_publisher(descriptor, sources, name)),
        "dcat:landingPage": {"@id": page, "@type": "foaf:Document"},
        "dct:issued": _when(issued),
        "dct:modified": _when(modified),
        "dct:license": graph.licences(licences),
        "dct:provenance": {"@type": "dct:ProvenanceStatement", "rdfs:label": _text(_provenance(sources))},
    }
    pages = [s["path"] for s in sources if isinstance(s.get("path"), str) and re.match(r"^https?://", s["path"])]
    if pages:
        node["foaf:page"] = [{"@id": u, "@type": "foaf:Document"} for u in dict.fromkeys(pages)]
    period = _dcat_temporal(*_coverage(descriptor, temporal, name))
    if period:
        node["dct:temporal"] = period
    if resource is None:
        node["dct:conformsTo"] = graph.standard(DATAPACKAGE_PROFILE)
        node["dct:hasPart"] = [_ref(iris.table(t)) for t in _tables(descriptor)]
        if descriptor.get("version"):
            node["dcat:version"] = str(descriptor["version"])
        if facts.versions:
            node["dct:hasVersion"] = [_ref(iris.version(v["versao"])) for v in facts.versions]
    else:
        node["dct:conformsTo"] = graph.standard(iris.table_schema(name))
        node["dct:isPartOf"] = _ref(iris.package())
    node["dcat:distribution"] = [_dcat_distribution(descriptor, f, iris, graph, modified, licences) for f in own]
    return node


def _version_descriptor(version: Mapping, current: Mapping) -> dict:
    """A kept release's descriptor as far as the texts need it (its own title, sources and licences)."""
    return {"title": version.get("titulo") or current["title"], "sources": version.get("sources") or [],
            "licenses": version.get("licenses") or [], "x-ficticio": version.get("ficticio", False),
            "resources": [], "keywords": current.get("keywords", [])}


def _dcat_series(descriptor: Mapping, iris: _Iris, graph: _Graph, facts: Facts) -> dict:
    kept = sorted(v["data"] for v in facts.versions)
    node: dict = {
        "@id": iris.series(),
        "@type": "dcat:DatasetSeries",
        "dct:title": _text(f"Versões guardadas — {_title(descriptor, None)}"),
        "dct:description": _text(_clip(
            "Cada versão publicada do pacote, guardada na pasta dados/versoes/ do site com o descritor, os CSV, o ZIP e "
            "as somas SHA-256, num endereço que não muda: uma versão guardada nunca é substituída. "
            + _package_description(descriptor))),
        "dcat:contactPoint": _ref(iris.contact()),
        "dct:accrualPeriodicity": graph.frequency(),
        "dct:spatial": graph.spatial(),
        "dct:issued": _when(kept[0]),
        "dct:modified": _when(kept[-1]),
    }
    who = graph.publisher(_publisher(_all_sources(descriptor)))
    if who:
        node["dct:publisher"] = who
    return node


def _dcat_version(descriptor: Mapping, version: Mapping, iris: _Iris, graph: _Graph) -> dict:
    kept = _version_descriptor(version, descriptor)
    name, day = version["versao"], version["data"]
    files = version.get("arquivos") or []
    node: dict = {
        "@id": iris.version(name),
        "@type": "dcat:Dataset",
        "dct:identifier": iris.version_folder(name),
        "dct:title": _text(f"{_title(kept, None)} — versão {name}"),
        "dct:description": _text(_clip(
            f"A versão {name} do pacote (dados calculados em {day}), guardada na pasta dados/versoes/{name}/ do site, num "
            "endereço que não muda. " + _package_description(kept))),
        **_dcat_common(kept, None, graph, _publisher(kept["sources"])),
        "dcat:landingPage": {"@id": iris.data_page(), "@type": "foaf:Document"},
        "dct:issued": _when(day),
        "dct:modified": _when(day),
        "dcat:version": name,
        "dcat:inSeries": _ref(iris.series()),
        "dct:license": graph.licences(kept["licenses"]),
        "dct:provenance": {"@type": "dct:ProvenanceStatement", "rdfs:label": _text(_provenance(kept["sources"]))},
        "dcat:distribution": [_dcat_distribution(kept, f, iris, graph, day, kept["licenses"], stable=True)
                              for f in files],
    }
    return node


def dcat(descriptor: Mapping, files: Sequence[Mapping], site_url: str, as_of: date,
         temporal: Temporal | None = None, *, rows: Mapping[str, int] | None = None,
         facts: Facts | None = None) -> dict:
    """A DCAT-AP 3 catalogue (JSON-LD): the ``dcat:Catalog`` of the portal, a ``dcat:Dataset`` for the
    whole package (``<site>/dados/#pacote``, with the package-wide files as distributions) and one per
    table (``<site>/dados/<tabela>/#tabela``, with its files), every file a ``dcat:Distribution`` with
    its description, size and SHA-256 checksum; each kept release a ``dcat:Dataset`` of the
    ``dcat:DatasetSeries`` ``<site>/dados/versoes/#serie`` (with its zip and descriptor at their stable
    addresses), and a version of the package. Every object a dataset links (agents, licences, standards,
    the controlled vocabularies' concepts) is typed as DCAT-AP's range shapes ask.

    The contact point always links the site's ``/sobre/`` page and carries the e-mail only when the
    settings give one (``--contato-email``): the catalogue never invents an address."""
    site = _site(site_url)
    facts = _facts(facts)
    iris = _Iris(site, facts.versions_url)
    files = _checked_files(descriptor, files)
    for v in facts.versions:
        _checked_files(descriptor, v.get("arquivos") or [])
    graph = _Graph(iris, facts)
    portal = {
        "@id": iris.portal(),
        "@type": ["foaf:Agent", "foaf:Organization"],
        "foaf:name": _text(PORTAL_NAME),
        "foaf:homepage": _ref(iris.home()),
    }
    contact_point: dict = {
        "@id": iris.contact(),
        "@type": "vcard:Kind",
        "vcard:fn": _text(PORTAL_NAME),
        "vcard:hasURL": _ref(iris.contact_page()),
    }
    if facts.contact_email:
        contact_point["vcard:hasEmail"] = _ref(f"mailto:{facts.contact_email}")
    datasets = [_dcat_dataset(descriptor, None, files, iris, graph, as_of, temporal, rows, facts)]
    datasets += [_dcat_dataset(descriptor, r, files, iris, graph, as_of, temporal, rows, facts)
                 for r in _tables(descriptor).values()]
    versions = [_dcat_version(descriptor, v, iris, graph) for v in facts.versions]
    series = [_dcat_series(descriptor, iris, graph, facts)] if versions else []
    first = min([v["data"] for v in facts.versions] + [as_of.isoformat()])
    catalog = {
        "@id": iris.catalog(),
        "@type": "dcat:Catalog",
        "dct:title": _text(f"Catálogo de dados — {_title(descriptor, None)}"),
        "dct:description": _text(_package_description(descriptor)),
        "dct:publisher": _ref(iris.portal()),
        "dct:license": graph.licences(descriptor.get("licenses", [])),
        "dct:issued": _when(first),
        "dct:modified": _date(as_of),
        "dct:language": graph.language(),
        "dct:spatial": graph.spatial(),
        "foaf:homepage": {"@id": iris.home(), "@type": "foaf:Document"},
        "dcat:themeTaxonomy": graph.taxonomies(),
        "dcat:dataset": [_ref(d["@id"]) for d in datasets + versions],
    }
    shared = [graph.nodes[k] for k in sorted(graph.nodes)]
    return {"@context": dict(DCAT_CONTEXT),
            "@graph": [catalog, portal, contact_point, *datasets, *series, *versions, *shared]}


# --- Project Open Data (data.json) ----------------------------------------------------------------


def _pod_distribution(descriptor: Mapping, f: Mapping, iris: _Iris) -> dict:
    d = {
        "@type": "dcat:Distribution",
        "title": _file_title(descriptor, f),
        "description": _file_description(descriptor, f),
        "downloadURL": iris.file_url(f),
        "mediaType": f["mediatype"],
        "format": f["formato"],
    }
    if f.get("tabela") is not None:
        d["describedBy"] = iris.descriptor_file()
        d["describedByType"] = "application/json"
    return d


def data_json(descriptor: Mapping, files: Sequence[Mapping], site_url: str, as_of: date,
              temporal: Temporal | None = None, *, rows: Mapping[str, int] | None = None,
              facts: Facts | None = None) -> dict:
    """The catalogue as Project Open Data metadata schema v1.1 (``data.json``): the whole package and
    each table, with their files as distributions.

    POD v1.1 is the US federal profile: its schema requires ``bureauCode`` and ``programCode`` (OMB
    codes of US federal agencies), which a Brazilian portal has none of and does not invent; the file
    follows the schema in everything else (the portal's tests validate it against the v1.1 schema less
    those two required entries: the non-federal profile). POD requires ``contactPoint.hasEmail``: without
    a contact e-mail in the settings (``--contato-email``) the contact point has ``fn`` only, and the file
    does not pass the schema on that point."""
    site = _site(site_url)
    facts = _facts(facts)
    iris = _Iris(site, facts.versions_url)
    files = _checked_files(descriptor, files)
    contact_point = {"@type": "vcard:Contact", "fn": PORTAL_NAME}
    if facts.contact_email:
        contact_point["hasEmail"] = f"mailto:{facts.contact_email}"
    licences = _licence_urls(descriptor)
    datasets = []
    for resource in [None, *_tables(descriptor).values()]:
        name = None if resource is None else resource["name"]
        own = [f for f in files if f.get("tabela") == name]
        page = iris.data_page() if resource is None else iris.table_page(name)
        description = (_package_description(descriptor) if resource is None
                       else _table_description(descriptor, resource, own, rows))
        sources = _sources(descriptor, facts, name)
        issued, modified = _dates(descriptor, as_of, facts, name)
        d = {
            "@type": "dcat:Dataset",
            "title": _title(descriptor, resource),
            "description": description,
            "keyword": _keywords(descriptor, resource),
            "issued": issued,
            "modified": modified,
            "accrualPeriodicity": FREQUENCIES[facts.frequency][1],
            "publisher": {"@type": "org:Organization", "name": _official(_dataset_publisher(descriptor, sources, name))
                          or UNDECLARED_PUBLISHER},
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
        d["theme"] = ["Transportes", facts.vcge_label]
        d["landingPage"] = page
        d["describedBy"] = iris.descriptor_file()
        d["describedByType"] = "application/json"
        if resource is not None:
            d["isPartOf"] = iris.data_page()
        else:
            sources_urls = _source_urls(descriptor)
            if sources_urls:
                d["references"] = sources_urls
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
        "@id": iris.file_url(f) + "#distribuicao",
        "name": _file_title(descriptor, f),
        "description": _file_description(descriptor, f),
        "contentUrl": iris.file_url(f),
        "encodingFormat": f["mediatype"],
        "contentSize": f"{f['bytes']} B",
        "sha256": f["sha256"].lower(),
    }


def _org_dataset(descriptor: Mapping, resource: Mapping | None, files: Sequence[Mapping], iris: _Iris,
                 as_of: date, temporal: Temporal | None, rows: Mapping[str, int] | None, nested: bool,
                 facts: Facts) -> dict:
    name = None if resource is None else resource["name"]
    own = [f for f in files if f.get("tabela") == name]
    page = iris.data_page() if resource is None else iris.table_page(name)
    publisher = _dataset_publisher(descriptor, _sources(descriptor, facts, name), name)
    body = {"@type": "Organization", "name": publisher or UNDECLARED_PUBLISHER}
    if publisher:
        body["@id"] = iris.publisher(publisher)
        known = public_body(publisher)
        if known is not None:  # as the DCAT catalogue names it (_Graph.publisher)
            body["name"] = known.name
            body |= {k: v for k, v in (("alternateName", known.acronym), ("identifier", known.cnpj),
                                       ("url", known.homepage)) if v}
    issued, modified = _dates(descriptor, as_of, facts, name)
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
        "creator": body,
        "publisher": body,
        "datePublished": issued,
        "dateModified": modified,
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
        d["hasPart"] = [_org_dataset(descriptor, r, files, iris, as_of, temporal, rows, True, facts)
                        for r in _tables(descriptor).values()]
    elif not nested:
        d["includedInDataCatalog"] = catalog
        d["isPartOf"] = {"@type": "Dataset", "@id": iris.package(), "name": _title(descriptor, None),
                         "url": iris.data_page()}
    return d


def schema_org(descriptor: Mapping, files: Sequence[Mapping], site_url: str, as_of: date,
               temporal: Temporal | None = None, table: str | None = None, *,
               rows: Mapping[str, int] | None = None, facts: Facts | None = None) -> dict:
    """A schema.org ``Dataset`` (JSON-LD) for the ``/dados/`` page (``table`` None: the whole package,
    with the package-wide files as ``distribution`` and every table in ``hasPart``) or for one table's
    page ``/dados/<tabela>/``, with the properties Google Dataset Search documents: name, a description
    of 50 to 5,000 characters, url, identifier, keywords, license, creator and publisher (the public body
    behind the sources, as an ``Organization``), temporal and spatial coverage, each file a
    ``DataDownload`` (``encodingFormat``, ``contentUrl``), ``isAccessibleForFree``, ``datePublished`` and
    ``dateModified`` (the data's dates, as in the DCAT catalogue).

    The ``@context`` is the string ``https://schema.org``, as Google expects; an offline JSON-LD parser
    cannot fetch it and should be given ``{"@vocab": "https://schema.org/"}`` in its place."""
    site = _site(site_url)
    facts = _facts(facts)
    iris = _Iris(site, facts.versions_url)
    files = _checked_files(descriptor, files)
    if table is not None and table not in _tables(descriptor):
        raise KeyError(f"unknown table {table!r}")
    resource = None if table is None else _tables(descriptor)[table]
    return {"@context": "https://schema.org",
            **_org_dataset(descriptor, resource, files, iris, as_of, temporal, rows, False, facts)}


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
