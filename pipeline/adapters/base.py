"""The per-row loop of an adapter, and the layouts every adapter declares.

Six adapters run on the column engine (pipeline/adapters/columnar.py); Monitriip's runs here, one row at a
time, when its bulk path (pipeline/adapters/bulk.py) is off or words the rows DuckDB rejects.
:class:`Adapter` reads the export (decoding, the header against every layout the adapter declares,
text damaged by a wrong encoding refused whole), runs every row through the checks every export shares
(exact duplicates, width, CNPJ, razão social, prefix, description: :class:`~.common.RowChecker`) and then
through the adapter's own named row steps, in order, until one gives a reason to reject the row; it
accounts for every row (``lidas = mantidas + mescladas + duplicadas + rejeitadas``), writes the package
and the report. A subclass declares:

- ``NAME`` (the ``ingest`` argument), ``TITLE`` (the export's name at the regulator), ``PRINCIPAL`` (the
  table with one row per kept row);
- ``LAYOUTS``: every known header of its file (old and new), each a :class:`Layout` whose columns are
  renamed to the adapter's own names;
- ``STEPS``: the names of its row steps, each a method ``step(row) -> reason | None`` reading and
  writing ``row.values`` (a :class:`Row`);
- ``keep(row)``, what a row that passed every step adds to the tables (it tells the report whether
  the row was kept or merged), and ``tables()``, the package's tables once every row is read.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

from ..contract.schema import Schema, load_schema
from .common import (
    Ends,
    IngestError,
    IngestReport,
    RowChecker,
    SourceOptions,
    month_first_only,
    read_export,
    source_entry,
    write_package,
)


@dataclass(frozen=True)
class Layout:
    """One known header of an export: its columns as published (lower case, in order), and the name the
    adapter gives a column where it differs (``{"decricao_historico": "descricao_historico"}``)."""

    label: str  # how messages name the layout: "2021", "SIGMA (2025-)"
    columns: tuple[str, ...]
    rename: dict[str, str] = field(default_factory=dict)

    @property
    def names(self) -> list[str]:
        """The columns under the adapter's names, in the file's order."""
        return [self.rename.get(c, c) for c in self.columns]


@dataclass
class Row:
    """One export row on its way through the steps: its line, the cells as read, the cells by the
    adapter's column names, what the shared checks read (CNPJ, prefix, the line's ends) and ``values``,
    where each step leaves what it parsed for the next ones and for ``keep``."""

    n: int
    raw: list[str]
    cells: dict[str, str]
    cnpj: str
    prefixo: str
    ends: Ends | None
    values: dict = field(default_factory=dict)


class Adapter:
    NAME: ClassVar[str]
    TITLE: ClassVar[str]
    PRINCIPAL: ClassVar[str]
    LAYOUTS: ClassVar[tuple[Layout, ...]]
    STEPS: ClassVar[tuple[str, ...]] = ()
    LINES: ClassVar[bool] = True  # each row names a line (prefixo, descricao_linha), checked by the shared checks
    CARRIER: ClassVar[bool] = True  # each row names a carrier (cnpj, razao_social), checked likewise
    # date columns the regulator was reported to write MM/DD/YYYY in some rows: the file is surveyed first,
    # and ``self.mixed[column]`` says whether it has a date that can only be month first (common.parse_date_either)
    MIXED_DATES: ClassVar[tuple[str, ...]] = ()

    def __init__(self, schema: Schema, report: IngestReport, layout: Layout):
        self.schema, self.report, self.layout = schema, report, layout

    # --- declared by each adapter -----------------------------------------------------------------

    def keep(self, row: Row) -> None:
        """Add a row that passed every step to the tables; call ``self.report.keep()`` (or ``merge``)."""
        raise NotImplementedError

    def tables(self) -> dict[str, list[dict]]:
        """The package's tables, once every row is read."""
        raise NotImplementedError

    # --- the loop ----------------------------------------------------------------------------------

    @classmethod
    def run(cls, path: Path, out: Path, schema: Schema | None = None,
            options: SourceOptions | None = None) -> IngestReport:
        """Convert the export at ``path`` into a source package in ``out``."""
        schema = schema or load_schema()
        export = read_export(path, [list(layout.columns) for layout in cls.LAYOUTS])
        layout = cls.LAYOUTS[export.layout]
        report = IngestReport(fonte=Path(path).name, adaptador=cls.NAME, codificacao=export.encoding,
                              principal=cls.PRINCIPAL)
        source = source_entry(cls.TITLE, path, options or SourceOptions(), report)
        adapter = cls(schema, report, layout)
        steps: list[Callable[[Row], str | None]] = [getattr(adapter, name) for name in cls.STEPS]
        checker = RowChecker(report, layout.names, schema, lines=cls.LINES and cls.CARRIER, carrier=cls.CARRIER)
        rows = export.rows
        adapter.mixed = {}
        if cls.MIXED_DATES:  # a first pass over the file: which of its date columns mix two orders
            rows = list(rows)
            where = {c: layout.names.index(c) for c in cls.MIXED_DATES}
            adapter.mixed = {c: any(len(raw) > i and month_first_only(raw[i]) for _, raw in rows)
                             for c, i in where.items()}
        for n, raw in rows:
            start = checker.start(n, raw)
            if start is None:  # an exact duplicate or a row of the wrong width: reported by the checker
                continue
            row = Row(n, raw, start.row, start.cnpj, start.prefixo, start.ends)
            why = start.why
            for step in steps:
                if why is not None:
                    break
                why = step(row)
            if why is not None:
                report.reject(n, why, raw)
                continue
            adapter.keep(row)
        report.tabelas = write_package(out, adapter.tables(), schema, source)
        report.check()
        return report  # ingest() writes the report, with the places left unresolved


def detect(path: Path, adapters: dict[str, type[Adapter]]) -> str:
    """The name of the adapter one of whose layouts is the header of the file at ``path``; an
    :class:`IngestError` naming the file and the known layouts when none is (or more than one)."""
    from .common import read_header

    header = read_header(path)
    found = [name for name, adapter in adapters.items()
             if any(list(layout.columns) == header for layout in adapter.LAYOUTS)]
    if len(found) == 1:
        return found[0]
    known = "; ".join(f"{name} ({', '.join(layout.label for layout in a.LAYOUTS)})" for name, a in adapters.items())
    if not found:
        raise IngestError(f"{path}: o cabeçalho não é o de nenhuma exportação conhecida ({known}); informe o "
                          f"adaptador ou confira o arquivo. Cabeçalho lido: {';'.join(header)[:300]}")
    raise IngestError(f"{path}: o cabeçalho serve a mais de um adaptador ({', '.join(found)}); informe qual")
