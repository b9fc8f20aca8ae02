"""Publish stage: the derived tables as the portal's downloadable package under ``dados/``.

One module per output kind; :func:`publish` runs them all and returns the published descriptor.
"""

from __future__ import annotations

from pathlib import Path

from ..derive import Derived
from ..schema import Schema
from ..validation import Report
from . import datapackage, tabular


def publish(derived: Derived, report: Report, schema: Schema, out: Path) -> dict:
    out.mkdir(parents=True, exist_ok=True)
    tables = dict(derived.tables)
    tables["rejeitados"] = tabular.rejected_frame(report, schema)
    descriptor = datapackage.published_descriptor(schema, derived.as_of)
    for resource in descriptor["resources"]:
        tabular.write_csv(tables[resource["name"]], resource, out / resource["path"])
        tabular.write_json(tables[resource["name"]], resource, out / f"{resource['name']}.json")
    datapackage.write_json(descriptor, out / "datapackage.json")
    datapackage.write_json(report.to_dict(), out / "validacao.json")
    return descriptor
