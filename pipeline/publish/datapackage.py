"""The published ``datapackage.json``: the input schemas plus derived fields, achados and rejeitados."""

from __future__ import annotations

import copy
import hashlib
import json
from datetime import date
from pathlib import Path

from ..schema import Schema

LICENSE = {
    "name": "CC-BY-4.0",
    "path": "https://creativecommons.org/licenses/by/4.0/",
    "title": "Creative Commons Atribuição 4.0 Internacional",
}


FICTIONAL_LABEL = "Dados fictícios, para demonstração"


PORTAL = "Portal do transporte rodoviário interestadual de passageiros"


def citation(title: str, as_of: date, site_url: str = "") -> str:
    """The suggested citation (ABNT-like): who, what, which release, where, under which licence."""
    where = f" Disponível em: <{site_url}/dados/>." if site_url else ""
    return (f"{PORTAL}. {title}. Versão {as_of.isoformat()}.{where} "
            f"Licença {LICENSE['title']} ({LICENSE['name']}).")


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
                         fictional: bool = False, site_url: str = "") -> dict:
    """Each published table with its fields; derived fields are marked ``"derived": true`` and the
    source tables end with the ``fonte`` of each row. ``sources`` are the build's sources (entries of
    ``sources``); a build with a fictional source says so in the package's and every table's title."""
    src = schema.descriptor
    mark = f"{FICTIONAL_LABEL} — " if fictional else ""
    resources = []
    for r in list(src["resources"]) + list(src.get("publishedResources", [])):
        fields = copy.deepcopy(r["schema"]["fields"])
        for f in copy.deepcopy(r.get("derivedFields", [])):
            f["derived"] = True
            fields.append(f)
        if r["name"] in schema.tables:
            fields.append(copy.deepcopy(schema.provenance_field))
        table_schema = {k: copy.deepcopy(v) for k, v in r["schema"].items() if k != "fields"}
        table_schema["fields"] = fields
        table_schema.setdefault("$schema", "https://datapackage.org/profiles/2.0/tableschema.json")
        table_schema.setdefault("missingValues", [""])
        resources.append(
            {
                "$schema": "https://datapackage.org/profiles/2.0/dataresource.json",
                "name": r["name"],
                "path": f"{r['name']}.csv",
                "title": mark + r.get("title", r["name"]),
                "description": r.get("description", ""),
                "format": "csv",
                "mediatype": "text/csv",
                "encoding": "utf-8",
                "schema": table_schema,
                # for the SQLite database and Datasette (pipeline/publish/database.py): the text columns
                # of its full-text index, and the column that names a row where another table links to it;
                # and whether its records carry the verification code of art. 12 (pipeline/site/verification.py)
                **{k: copy.deepcopy(r[k]) for k in ("x-busca-texto", "x-rotulo", "x-codigo-verificacao") if k in r},
            }
        )
    return {
        "$schema": "https://datapackage.org/profiles/2.0/datapackage.json",
        "name": src["name"],
        "title": mark + src["title"],
        "description": (f"{FICTIONAL_LABEL}: nada aqui descreve transportadoras, atos ou infrações reais. "
                        if fictional else "") + src["description"],
        "version": as_of.isoformat(),
        "keywords": ["transporte rodoviário", "ônibus", "Decreto 952/1993", "outorgas", "tarifas"],
        "licenses": [LICENSE],
        "sources": copy.deepcopy(sources or []),
        "x-ficticio": fictional,
        "x-data-de-referencia": as_of.isoformat(),
        "x-data-de-referencia-descricao": "data dos cálculos (situações, prazos, vigências), não a data dos dados: "
                                          "a data de cada fonte está em sources",
        "x-citacao": citation(mark + src["title"], as_of, site_url),
        "resources": resources,
    }


def write_json(data, path: Path) -> None:
    path.write_text(json.dumps(data, ensure_ascii=False, indent=2, sort_keys=False) + "\n", encoding="utf-8")
