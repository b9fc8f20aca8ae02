"""Publish stage: the derived tables as the portal's downloadable package under ``dados/``.

One module per output kind; :func:`publish` runs them all and returns the published descriptor.
"""

from __future__ import annotations

from pathlib import Path

from ..contract.identifiers import mask_cpf
from ..contract.schema import Schema
from ..contract.settings import release_assets
from ..contract.spelling import number
from ..derive import Derived
from ..validate import Report
from . import archive, columnar, database, datapackage, extracts, hosting, spreadsheet, tabular
from .background import Background
from .provenance import Provenance

PACKAGE_ZIP = "pacote-completo.zip"
DATABASE = "portal.sqlite"
DATASETTE_METADATA = "metadata.json"
# each table's files besides the CSV the descriptor points to: (suffix, format's name, media type)
FORMATS = [
    ("csv", "CSV", "text/csv"),
    ("json", "JSON", "application/json"),
    ("parquet", "Parquet", "application/vnd.apache.parquet"),
    ("xlsx", "XLSX", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
]


def side_database(name: str) -> str:
    """The database of its own of a table written in batches (``database.SideTable``), in ``dados/`` until it
    becomes the portal's database or its rows are copied there (a dot file: never a download, nor kept in a
    version)."""
    return f".{name}.sqlite"


def formats(rows: int) -> list[tuple[str, str, str]]:
    """The download formats of a table of ``rows`` rows: every one of :data:`FORMATS` that serves a table of
    that size (pipeline/publish/hosting.py): no workbook for more rows than a sheet holds
    (``spreadsheet.MAX_ROWS``), no JSON array of more than ``hosting.JSON_MAX_ROWS`` rows."""
    return [f for f in FORMATS if (f[0] != "xlsx" or rows <= spreadsheet.MAX_ROWS)
            and (f[0] != "json" or rows <= hosting.JSON_MAX_ROWS)]


def formats_note(rows: int) -> str:
    """Why a table of ``rows`` rows lacks a format, in pt-BR ("" when it has them all)."""
    missing = [name for suffix, name, _ in FORMATS if (suffix, name) not in [f[:2] for f in formats(rows)]]
    if not missing:
        return ""
    why = []
    if rows > hosting.JSON_MAX_ROWS:
        why.append(f"o JSON é uma lista lida inteira na memória, e esta passa de {number(hosting.JSON_MAX_ROWS)} registros")
    if rows > spreadsheet.MAX_ROWS:
        why.append(f"uma planilha do Excel tem no máximo {number(spreadsheet.MAX_ROWS + 1)} linhas")
    return (f"Sem {' nem '.join(missing)} para esta tabela, de {number(rows)} registros: " + "; ".join(why) + ". "
            "Use o Parquet (tipado e compacto, lido em segundos) ou o CSV.")


def covered(schema: Schema, report: Report):
    """``covered(table)``: a source supplied the table, or the portal makes it (achados, rejeitados...).
    A table no source covers is unknown, not empty: no key into it, no row count of it."""
    return lambda name: name not in schema.tables or report.covered(name)


class Published:
    """The published descriptor, and the writers still at work beside the rest of the build: :meth:`wait`
    for them before the folder is put in place, :meth:`cancel` them when the build fails."""

    def __init__(self, descriptor: dict, background: list[Background] | None = None,
                 lines: dict[str, dict[str, str]] | None = None):
        self.descriptor = descriptor
        self.background = background or []
        self.lines = lines or {}  # table -> key -> the record's CSV line (tabular.verification_lines)

    def wait(self) -> None:
        try:
            for process in self.background:
                process.wait()
        except BaseException:
            self.cancel()
            raise

    def cancel(self) -> None:
        for process in self.background:
            process.cancel()


def publish(derived: Derived, report: Report, schema: Schema, out: Path, progress=None, *,
            in_background: bool = False, site_url: str = "", version: str = "", versions_url: str = "") -> Published:
    """Write every download into ``out``. With ``in_background`` the files are written by two forked
    processes while the caller goes on (the pages render meanwhile): one writes the workbook of the table
    with the most rows (the infractions at national scale, the longest file to write), the other everything else
    (CSV, JSON, Parquet, SQLite, the zip, the other workbooks). The descriptor, which the pages need, is
    made here first."""
    out.mkdir(parents=True, exist_ok=True)
    assets_url = release_assets(versions_url, version) if versions_url and version else ""
    tables = dict(derived.tables)
    tables["rejeitados"] = tabular.rejected_frame(report, schema)
    sources = [s.as_descriptor() for s in report.sources]
    for source, entry in zip(report.sources, sources):
        if source.relatorio is not None:  # the adapter's ingest report, CPF-shaped text masked (LGPD)
            target = out / "fontes" / source.id / source.relatorio.name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(mask_cpf(source.relatorio.read_text(encoding="utf-8")), encoding="utf-8")
            path = target.relative_to(out).as_posix()
            # a report too large for the site is served by the release only (pipeline/publish/hosting.py)
            entry["x-relatorio-de-ingestao"] = assets_url + hosting.asset_name(path) \
                if assets_url and target.stat().st_size > hosting.ON_PAGES_MAX_BYTES else path
    descriptor = datapackage.published_descriptor(
        schema, derived.as_of, sources, report.fictional, site_url, coverage=report.coverage,
        unchecked=derived.unchecked, unchecked_inconsistencies=derived.unchecked_inconsistencies,
        version=version, versions_url=versions_url)
    resources = descriptor["resources"]
    # the release's provenance record, written into every format in its own place (pipeline/publish/provenance.py)
    record = Provenance.from_descriptor(descriptor)

    batched = derived.batches  # tables written a batch at a time as they were read (pipeline/build/batches.py)
    rows = {r["name"]: derived.rows(r["name"]) if r["name"] in derived.tables else len(tables[r["name"]])
            for r in resources}
    with_workbook = {r["name"] for r in resources if ("xlsx", "XLSX") in [f[:2] for f in formats(rows[r["name"]])]}
    # the workbook written by a process of its own: the largest table's that has one (a table of more rows than
    # a sheet holds, the tickets, has none)
    largest = max((r["name"] for r in resources if r["name"] in with_workbook), key=rows.__getitem__, default=None)

    def spreadsheets(names, coded=None) -> None:
        for resource in resources:
            name = resource["name"]
            if name not in names or name not in with_workbook:
                continue
            df = tables[name] if name not in batched else _whole(out / f"{name}.parquet")
            spreadsheet.write_xlsx(df, resource, out / f"{name}.xlsx", derived.as_of, (coded or {}).get(name), record)

    def the_last_spreadsheet() -> None:
        spreadsheets({largest})

    def the_rest(progress=None) -> None:
        coded = {}  # each table's columns numbered once for its CSV, JSON, SQLite and XLSX (tabular.Coded)
        lines = {}  # the CSV files a carrier's files are cut from, and where their lines end (extracts.py)
        for done, resource in enumerate(resources, 1):
            if resource["name"] in batched:  # its CSV, JSON and Parquet are written; the Parquet gets the record
                resource.update(datapackage.size_and_hash(out / resource["path"]))
                columnar.restamp(out / f"{resource['name']}.parquet", resource, record)
                continue
            df = tables[resource["name"]]
            coded[resource["name"]] = table = tabular.Coded(df)
            ends = tabular.write_csv(df, resource, out / resource["path"], table, lines=resource["name"] in extracts.TABLES)
            if ends is not None:
                lines[resource["name"]] = (out / resource["path"], ends)
            resource.update(datapackage.size_and_hash(out / resource["path"]))  # in this process's copy
            if "json" in [f[0] for f in formats(len(df))]:
                tabular.write_json(df, resource, out / f"{resource['name']}.json", table)
            columnar.write_parquet(df, resource, out / f"{resource['name']}.parquet", record)
            if progress is not None:
                progress.advance(done, len(resources) + 1)
        _write_rest(derived, report, descriptor, tables, out, covered(schema, report), coded, record)
        extracts.write(tables, out, lines)  # one carrier's lines and timetable
        spreadsheets({r["name"] for r in resources} - {largest}, coded)
        if progress is not None:
            progress.advance(len(resources) + 1, len(resources) + 1)

    lines = tabular.verification_lines(tables, descriptor)  # the pages need them before the CSVs are done
    if not in_background:
        the_rest(progress)
        the_last_spreadsheet()
        return Published(descriptor, lines=lines)
    return Published(descriptor, [Background.start(the_rest), Background.start(the_last_spreadsheet)], lines)


def _write_rest(derived: Derived, report: Report, descriptor: dict, tables: dict, out: Path, covered,
                coded: dict, record: Provenance) -> None:
    resources = descriptor["resources"]
    datapackage.write_json(descriptor, out / "datapackage.json")
    datapackage.write_json(
        {**report.to_dict(), "completude": derived.completeness,
         "regras_nao_verificadas": derived.unchecked}, out / "validacao.json")
    sides = {name: out / side_database(name) for name in derived.batches}
    database.write_sqlite(tables, descriptor, out / DATABASE, covered, coded, sides, record)
    for side in sides.values():
        side.unlink(missing_ok=True)  # the first became the database
    database.write_metadata(descriptor, out / DATASETTE_METADATA, Path(DATABASE).stem)
    members = [out / "datapackage.json"] + [out / r["path"] for r in resources]
    archive.write_zip(out / PACKAGE_ZIP, members, out)


def _whole(parquet: Path):
    """A table written in batches, whole again from its Parquet file (for a workbook: at most a sheet's rows)."""
    import pandas as pd

    frames = list(columnar.read_frames(parquet))
    if not frames:
        import pyarrow.parquet as pq

        return pd.DataFrame({n: pd.Series([], dtype=object) for n in pq.read_schema(parquet).names})
    return pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]
