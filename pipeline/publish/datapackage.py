"""The published ``datapackage.json``: the input schemas plus derived fields, achados and rejeitados."""

from __future__ import annotations

import copy
import hashlib
import json
import re
from datetime import date
from pathlib import Path

from ..contract.clock import DATETIME_SENTENCE
from ..contract.schema import Schema
from ..contract.settings import release_page
from ..read.provenance import DECREE_REGIME, REGIME_KEY, table_regimes
from .provenance import (
    AS_OF_MEANING,
    COVERED,
    FICTIONAL_LABEL,
    LICENSE,
    MADE,
    NOT_COVERED,
    NOT_COVERED_SENTENCE,
    NOT_COVERED_TEXT,
    PORTAL,
    TableCoverage,
    rules_sentence,
)
from .tabular import FORMULA_GUARD

__all__ = ["FICTIONAL_LABEL", "LICENSE", "PORTAL", "citation", "published_descriptor", "sha256", "size_and_hash",
           "write_json"]


def citation(title: str, as_of: date, site_url: str = "", sources=(), version: str = "", versions_url: str = "") -> str:
    """The suggested citation (ABNT-like): the portal, as the compiler; what; which release; the public
    bodies whose data it is (each source's publisher, credited); where: the address that keeps this very
    release (``version``, known before anything is written: release.input_version), the release of the
    repository where every version is kept (``<versoes-url>/tag/<versão>``) or, without one, its folder
    ``/dados/versoes/<versão>/`` on the site; when the reader accessed it; the licence."""
    publishers = list(dict.fromkeys(s["publisher"] for s in sources if s.get("publisher")))
    credit = f" Dados de: {'; '.join(publishers)}." if publishers else ""
    release = f"Versão {version or as_of.isoformat()}"
    address = kept_address(version, versions_url, site_url)
    where = f" Disponível em: <{address}>. Acesso em: [data do seu acesso]." if address else ""
    return (f"{PORTAL}. {title}. {release}.{credit}{where} "
            f"Licença {LICENSE['title']} ({LICENSE['name']}).")


def kept_address(version: str, versions_url: str = "", site_url: str = "") -> str:
    """Where the release ``version`` is kept, at an address that lasts: its GitHub Release
    (``<versoes-url>/tag/<versão>``), or its folder under the site's ``/dados/versoes/``; "" when neither
    is known."""
    if version and versions_url:
        return release_page(versions_url, version)
    if site_url:
        return f"{site_url}/dados/{'versoes/' + version + '/' if version else ''}"
    return ""


def sha256(path: Path) -> str:
    """A file's SHA-256, hex, read a megabyte at a time."""
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        while chunk := fh.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def size_and_hash(path: Path) -> dict:
    """A file's ``bytes`` and ``hash`` as a Data Package resource states them (``sha256:<hex>``)."""
    return {"bytes": path.stat().st_size, "hash": f"sha256:{sha256(path)}"}


def published_descriptor(schema: Schema, as_of: date, sources: list[dict] | None = None,
                         fictional: bool = False, site_url: str = "", *,
                         coverage: dict[str, list[str]] | None = None, unchecked: dict[str, list[str]] | None = None,
                         unchecked_inconsistencies: dict[str, list[str]] | None = None,
                         version: str = "", versions_url: str = "") -> dict:
    """Each published table with its fields; derived fields are marked ``"derived": true`` and the
    source tables end with the ``fonte`` of each row. ``sources`` are the build's sources (entries of
    ``sources``); a build with a fictional source says so in the package's and every table's title.

    With ``coverage`` (table -> ids of the sources supplying it, ``Report.coverage``), each resource says
    where its rows come from (``x-cobertura``: the provenance record's part of it, pipeline/publish/provenance.py),
    and its description says so: a table no source covers, "As fontes deste site não incluem esta tabela"
    (never an implied zero); achados and inconsistências, which rules could not run (``unchecked`` and
    ``unchecked_inconsistencies``: rule -> the tables no source covers)."""
    src = schema.descriptor
    mark = f"{FICTIONAL_LABEL} — " if fictional else ""
    titles = {r["name"]: r.get("title", r["name"]) for r in list(src["resources"]) + list(src.get("publishedResources", []))}
    resources = []
    for r in list(src["resources"]) + list(src.get("publishedResources", [])):
        fields = copy.deepcopy(r["schema"]["fields"])
        for f in copy.deepcopy(r.get("derivedFields", [])):
            f["derived"] = True
            fields.append(f)
        if r["name"] in schema.tables:
            fields.append(copy.deepcopy(schema.provenance_field))
        for f in fields:
            if f.get("type") == "datetime":  # one spelling in every download, without an offset (tabular.cell)
                f["description"] = _published_datetime(f.get("description", ""))
                f["format"] = "default"
        table_schema = {k: copy.deepcopy(v) for k, v in r["schema"].items() if k != "fields"}
        table_schema["fields"] = fields
        table_schema.setdefault("$schema", "https://datapackage.org/profiles/2.0/tableschema.json")
        table_schema.setdefault("missingValues", [""])
        description = r.get("description", "")
        extra = {"x-regime": r["x-regime"]} if r.get("x-regime") else {}  # of all its records (read/provenance.py)
        if coverage is not None:
            covered = _coverage(r["name"], schema, coverage, sources or [], unchecked or {},
                                unchecked_inconsistencies or {})
            description = _described(description, covered, titles)
            extra["x-cobertura"] = covered.as_descriptor()
        resources.append(
            {
                "$schema": "https://datapackage.org/profiles/2.0/dataresource.json",
                "name": r["name"],
                "path": f"{r['name']}.csv",
                "title": mark + r.get("title", r["name"]),
                "description": description,
                "format": "csv",
                "mediatype": "text/csv",
                "encoding": "utf-8",
                "schema": table_schema,
                # for the SQLite database and Datasette (pipeline/publish/database.py): the text columns
                # of its full-text index, and the column that names a row where another table links to it;
                # whether its records carry the verification code of art. 12 (pipeline/site/verification.py);
                # and whether it is written a batch at a time (pipeline/build/batches.py: no full-text index of its own)
                **{k: copy.deepcopy(r[k]) for k in ("x-busca-texto", "x-rotulo", "x-codigo-verificacao", "x-em-lotes")
                   if k in r},
                **extra,
                "x-formulas-neutralizadas": FORMULA_GUARD,  # what its CSV changes (publish/tabular.py neutralise)
            }
        )
    description = src["description"]
    if coverage is not None and _package_coverage(schema, coverage, titles):
        # the schema's description names every table: a release whose sources do not cover them all names
        # what they cover, and what they do not
        description = PARTIAL_PACKAGE + _package_coverage(schema, coverage, titles)
    if fictional:
        description = f"{FICTIONAL_LABEL}: nada aqui descreve transportadoras, atos ou infrações reais. {description}"
    return {
        "$schema": "https://datapackage.org/profiles/2.0/datapackage.json",
        "name": src["name"],
        "title": mark + src["title"],
        "description": description,
        "version": as_of.isoformat(),
        **({"x-versao": version} if version else {}),
        "keywords": _keywords(src, coverage, sources or []),
        "licenses": [LICENSE],
        "sources": copy.deepcopy(sources or []),
        "x-ficticio": fictional,
        "x-data-de-referencia": as_of.isoformat(),
        "x-data-de-referencia-descricao": AS_OF_MEANING,
        "x-citacao": citation(mark + src["title"], as_of, site_url, sources or [], version, versions_url),
        "resources": resources,
    }


def _keywords(src: dict, coverage: dict[str, list[str]] | None, sources: list[dict]) -> list[str]:
    """What the package is about, for harvesters: the service, and of the tables only those a source covers
    (outorgas and tarifas only when a source has them; the decree only when a covered table's records are of
    its regime: pipeline/read/provenance.py); without coverage (a descriptor made apart), all of them."""
    words = ["transporte rodoviário", "ônibus"]
    if coverage is None:
        return words + ["Decreto 952/1993", "outorgas", "tarifas"]
    covered = {r["name"]: coverage.get(r["name"]) or [] for r in src["resources"]}
    regimes = table_regimes(covered, {r["name"]: r.get(REGIME_KEY, "") for r in src["resources"]},
                            {s.get("name"): s.get(REGIME_KEY, "") for s in sources})
    if any(DECREE_REGIME in found for found in regimes.values()):
        words.append("Decreto 952/1993")
    return words + [name for name in ("outorgas", "tarifas") if covered[name]]


def _published_datetime(description: str) -> str:
    """A date-time field's description as published: the input's format (``AAAA-MM-DDTHH:MM, segundos
    opcionais``) is not what the downloads hold, which carry seconds and the offset."""
    kept = re.sub(r",? no formato AAAA-MM-DDTHH:MM[^.]*\.", ".", description).strip()
    return f"{kept} {DATETIME_SENTENCE}".strip()


def _coverage(name: str, schema: Schema, coverage: dict, sources: list[dict], unchecked: dict,
              unchecked_inconsistencies: dict) -> TableCoverage:
    """The table's part of the provenance record: a source table is covered by the sources supplying it, or
    not covered; a table the portal makes (achados, inconsistências, municípios, rejeitados) is made from
    the sources, and a table of rule results names the rules that could not run."""
    if name in schema.tables:
        ids = tuple(coverage.get(name) or ())
        return TableCoverage(COVERED if ids else NOT_COVERED, ids)
    everything = tuple(s["name"] for s in sources)
    if name in ("achados", "inconsistencias"):
        from ..derive import findings, inconsistencies

        rules, missing = ((findings.RULES, unchecked) if name == "achados" else
                          (inconsistencies.RULES, unchecked_inconsistencies))
        return TableCoverage(MADE, everything, tuple(r.slug for r in rules if r.slug not in missing), tuple(
            {"regra": r.slug, "titulo": r.titulo, "artigo": getattr(r, "artigo", ""),
             "tabelas_ausentes": list(missing[r.slug])} for r in rules if r.slug in missing))
    return TableCoverage(MADE, everything)


def _described(description: str, covered: TableCoverage, titles: dict[str, str]) -> str:
    """The table's description in every format: a table no source covers says so first."""
    if covered.situacao == NOT_COVERED:
        return f"{NOT_COVERED_TEXT} {description}".strip()
    rules = rules_sentence(covered, titles)
    if rules and not covered.verificadas:  # no rule ran: the empty table says why first
        return f"{rules} {description}".strip()
    return f"{description} {rules}".strip()


PARTIAL_PACKAGE = "Dados publicados pelo portal sobre o transporte rodoviário interestadual e internacional de passageiros."


def _package_coverage(schema: Schema, coverage: dict, titles: dict[str, str]) -> str:
    """The package's description names what its sources cover, and what they do not."""
    tables = [r["name"] for r in schema.descriptor["resources"]]
    covered = [titles[t] for t in tables if coverage.get(t)]
    missing = [titles[t] for t in tables if not coverage.get(t)]
    if not missing:
        return ""
    said = f" Tabelas que as fontes desta versão cobrem: {', '.join(covered)}." if covered else ""
    return f"{said} {NOT_COVERED_SENTENCE.replace('esta tabela', 'estas tabelas')}: {', '.join(missing)}."


def write_json(data, path: Path) -> None:
    path.write_text(json.dumps(data, ensure_ascii=False, indent=2, sort_keys=False) + "\n", encoding="utf-8")
