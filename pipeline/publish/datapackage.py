"""The published ``datapackage.json``: the input schemas plus derived fields, achados and rejeitados."""

from __future__ import annotations

import copy
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


def published_descriptor(schema: Schema, as_of: date, sources: list[dict] | None = None,
                         fictional: bool = False) -> dict:
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
        "resources": resources,
    }


def write_json(data, path: Path) -> None:
    path.write_text(json.dumps(data, ensure_ascii=False, indent=2, sort_keys=False) + "\n", encoding="utf-8")
