"""Publish stage: the derived tables as the portal's downloadable package under ``dados/``.

One module per output kind; :func:`publish` runs them all and returns the published descriptor.
"""

from __future__ import annotations

from pathlib import Path

from ..derive import Derived
from ..identifiers import mask_cpf
from ..schema import Schema
from ..validate import Report
from . import archive, database, datapackage, spreadsheet, tabular

PACKAGE_ZIP = "pacote-completo.zip"
DATABASE = "portal.sqlite"


def publish(derived: Derived, report: Report, schema: Schema, out: Path, progress=None) -> dict:
    out.mkdir(parents=True, exist_ok=True)
    tables = dict(derived.tables)
    tables["rejeitados"] = tabular.rejected_frame(report, schema)
    sources = [s.as_descriptor() for s in report.sources]
    for source, entry in zip(report.sources, sources):
        if source.relatorio is not None:  # the adapter's ingest report, CPF-shaped text masked (LGPD)
            target = out / "fontes" / source.id / source.relatorio.name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(mask_cpf(source.relatorio.read_text(encoding="utf-8")), encoding="utf-8")
            entry["x-relatorio-de-ingestao"] = target.relative_to(out).as_posix()
    fictional = any(s.ficticia for s in report.sources)
    descriptor = datapackage.published_descriptor(schema, derived.as_of, sources, fictional)
    resources = descriptor["resources"]
    for done, resource in enumerate(resources, 1):
        df = tables[resource["name"]]
        tabular.write_csv(df, resource, out / resource["path"])
        tabular.write_json(df, resource, out / f"{resource['name']}.json")
        spreadsheet.write_xlsx(df, resource, out / f"{resource['name']}.xlsx", derived.as_of)
        if progress is not None:
            progress.advance(done, len(resources) + 1)
    datapackage.write_json(descriptor, out / "datapackage.json")
    datapackage.write_json(
        {**report.to_dict(), "completude": derived.completeness,
         "regras_nao_verificadas": derived.unchecked}, out / "validacao.json")
    database.write_sqlite(tables, descriptor, out / DATABASE)
    members = [out / "datapackage.json"] + [out / r["path"] for r in resources]
    archive.write_zip(out / PACKAGE_ZIP, members, out)
    if progress is not None:
        progress.advance(len(resources) + 1, len(resources) + 1)
    return descriptor
