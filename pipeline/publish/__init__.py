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
from .background import Background

PACKAGE_ZIP = "pacote-completo.zip"
DATABASE = "portal.sqlite"


class Published:
    """The published descriptor, and the spreadsheets still being written beside the rest of the build
    (:meth:`wait` before the folder is put in place; :meth:`cancel` when the build fails)."""

    def __init__(self, descriptor: dict, background: Background | None = None):
        self.descriptor = descriptor
        self.background = background

    def wait(self) -> None:
        if self.background is not None:
            self.background.wait()

    def cancel(self) -> None:
        if self.background is not None:
            self.background.cancel()


def publish(derived: Derived, report: Report, schema: Schema, out: Path, progress=None, *,
            spreadsheets_in_background: bool = False) -> Published:
    """Write every download into ``out``. The XLSX files, the slowest format, can be written by a second
    process while the pages are rendered (``spreadsheets_in_background``; the caller then waits)."""
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
    descriptor = datapackage.published_descriptor(schema, derived.as_of, sources, report.fictional)
    resources = descriptor["resources"]

    def spreadsheets() -> None:
        for resource in resources:
            spreadsheet.write_xlsx(tables[resource["name"]], resource, out / f"{resource['name']}.xlsx",
                                   derived.as_of)

    background = Background.start(spreadsheets) if spreadsheets_in_background else None
    try:
        for done, resource in enumerate(resources, 1):
            df = tables[resource["name"]]
            tabular.write_csv(df, resource, out / resource["path"])
            tabular.write_json(df, resource, out / f"{resource['name']}.json")
            if progress is not None:
                progress.advance(done, len(resources) + 1)
        if background is None:
            spreadsheets()
        _write_rest(derived, report, descriptor, tables, out)
    except BaseException:
        if background is not None:
            background.cancel()
        raise
    if progress is not None:
        progress.advance(len(resources) + 1, len(resources) + 1)
    return Published(descriptor, background)


def _write_rest(derived: Derived, report: Report, descriptor: dict, tables: dict, out: Path) -> None:
    resources = descriptor["resources"]
    datapackage.write_json(descriptor, out / "datapackage.json")
    datapackage.write_json(
        {**report.to_dict(), "completude": derived.completeness,
         "regras_nao_verificadas": derived.unchecked}, out / "validacao.json")
    database.write_sqlite(tables, descriptor, out / DATABASE)
    members = [out / "datapackage.json"] + [out / r["path"] for r in resources]
    archive.write_zip(out / PACKAGE_ZIP, members, out)
