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


def published_descriptor(schema: Schema, as_of: date) -> dict:
    """Each published table with its fields; derived fields are marked ``"derived": true``."""
    src = schema.descriptor
    resources = []
    for r in list(src["resources"]) + list(src.get("publishedResources", [])):
        fields = copy.deepcopy(r["schema"]["fields"])
        for f in copy.deepcopy(r.get("derivedFields", [])):
            f["derived"] = True
            fields.append(f)
        table_schema = {k: copy.deepcopy(v) for k, v in r["schema"].items() if k != "fields"}
        table_schema["fields"] = fields
        table_schema.setdefault("$schema", "https://datapackage.org/profiles/2.0/tableschema.json")
        table_schema.setdefault("missingValues", [""])
        resources.append(
            {
                "$schema": "https://datapackage.org/profiles/2.0/dataresource.json",
                "name": r["name"],
                "path": f"{r['name']}.csv",
                "title": r.get("title", r["name"]),
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
        "title": src["title"],
        "description": src["description"],
        "version": as_of.isoformat(),
        "keywords": ["transporte rodoviário", "ônibus", "Decreto 952/1993", "outorgas", "tarifas"],
        "licenses": [LICENSE],
        "sources": copy.deepcopy(src.get("sources", [])),
        "x-data-de-referencia": as_of.isoformat(),
        "resources": resources,
    }


def write_json(data, path: Path) -> None:
    path.write_text(json.dumps(data, ensure_ascii=False, indent=2, sort_keys=False) + "\n", encoding="utf-8")
