"""Read stage: a source folder (or several) into raw string tables, shaped by the project's schemas.

Cells stay text here; typing is the validation stage's job (Frictionless) and typed frames come from
:func:`typed_frame`. A folder may hold a ``datapackage.json``: only its resource paths are used to find
the files; the project's schemas always govern the columns and rules. A table missing from every
folder is empty, except ``enquadramentos``, which the decree supplies (art. 78).
"""

from __future__ import annotations

import csv
import json
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from ..legal import enquadramentos
from ..problems import Problem
from ..schema import Schema, Table
from .provenance import DECREE_SOURCE, Source, sources_of


@dataclass
class SourceTable:
    """One table as read: header-aligned string rows, each with its file and line number.

    A table merged from several folders keeps, per row, the file it came from (``row_sources``);
    otherwise every row comes from ``source``.
    """

    name: str
    columns: list[str]
    rows: list[list[str]] = field(default_factory=list)
    row_numbers: list[int] = field(default_factory=list)
    source: str = ""  # file path shown in messages, or a note such as "decreto (art. 78)"
    row_sources: list[str] | None = None

    def file_of(self, pos: int) -> str:
        return self.row_sources[pos] if self.row_sources is not None else self.source

    def origin(self, pos: int) -> tuple[str, int]:
        """``(file, line)`` of the row at ``pos``."""
        return self.file_of(pos), self.row_numbers[pos]

    def frame(self) -> pd.DataFrame:
        df = pd.DataFrame(self.rows, columns=self.columns, dtype=object)
        return df.fillna("")

    def without(self, origins: set[tuple[str, int]]) -> SourceTable:
        """The table less the rows at ``origins`` (``(file, line)`` pairs)."""
        keep = [i for i in range(len(self.rows)) if self.origin(i) not in origins]
        return SourceTable(
            self.name, self.columns, [self.rows[i] for i in keep], [self.row_numbers[i] for i in keep], self.source,
            [self.file_of(i) for i in keep] if self.row_sources is not None else None,
        )


@dataclass
class SourcePackage:
    tables: dict[str, SourceTable]
    problems: list[Problem]  # structural problems found while reading (encoding, header, row width)
    notes: list[str]  # what was assumed: empty tables, tables supplied by the project
    sources: list[Source] = field(default_factory=list)  # every source used, folders first
    coverage: dict[str, list[str]] = field(default_factory=dict)  # table -> ids of the sources that supply it
    file_sources: dict[str, str] = field(default_factory=dict)  # file as shown -> its source's id

    def source_of_row(self, table: SourceTable, pos: int) -> str:
        """The id of the source the row at ``pos`` of ``table`` came from."""
        return self.file_sources[table.file_of(pos)]

    @property
    def fictional(self) -> bool:
        return any(s.ficticia for s in self.sources)


def _resource_paths(folder: Path) -> dict[str, str]:
    dp = folder / "datapackage.json"
    if not dp.is_file():
        return {}
    try:
        desc = json.loads(dp.read_text(encoding="utf-8"))
        return {r["name"]: r["path"] for r in desc.get("resources", []) if isinstance(r.get("path"), str)}
    except (ValueError, KeyError, TypeError):
        return {}


def _safe_child(folder: Path, relative: str) -> Path | None:
    """``folder/relative`` only when it stays inside ``folder`` (no ``..`` or absolute tricks)."""
    candidate = (folder / relative).resolve()
    try:
        candidate.relative_to(folder.resolve())
    except ValueError:
        return None
    return candidate


def read_csv_table(table: Table, path: Path, shown: str) -> tuple[SourceTable, list[Problem]]:
    problems: list[Problem] = []
    wanted = table.field_names
    out = SourceTable(table.name, wanted, source=shown)
    try:
        with open(path, encoding="utf-8-sig", newline="") as fh:
            reader = csv.reader(fh)
            header = next(reader, None)
            if header is None:
                return out, problems
            header = [h.strip() for h in header]
            for f in table.fields:
                if f["name"] not in header:
                    required = f.get("constraints", {}).get("required", False)
                    slug = "coluna-ausente" if required else "coluna-opcional-ausente"
                    problems.append(Problem.of(slug, table.name, shown, 1, f["name"], None, grave=required))
            for col in header:
                if col not in wanted:
                    problems.append(Problem.of("coluna-desconhecida", table.name, shown, 1, col, None, grave=False))
            positions = [header.index(c) if c in header else None for c in wanted]
            width = len(header)
            for cells in reader:
                line = reader.line_num
                if not any(c.strip() for c in cells):
                    continue
                if len(cells) != width:
                    problems.append(
                        Problem.of(
                            "largura-da-linha",
                            table.name,
                            shown,
                            line,
                            None,
                            str(len(cells)),
                            esperado=width,
                            registro=cells,
                        )
                    )
                    continue
                out.rows.append([cells[p] if p is not None else "" for p in positions])
                out.row_numbers.append(line)
    except UnicodeDecodeError as exc:
        problems.append(Problem.of("codificacao", table.name, shown, None, None, None, detalhe=str(exc)))
    return out, problems


def merge(table: Table, parts: list[SourceTable]) -> tuple[SourceTable, list[Problem]]:
    """One table from the same table of several sources, in the order given.

    Rows are matched on the primary key (on the whole row for a table without one): a row equal to
    one already taken is the same record and is kept once; a row with the key of another but other
    values is a conflict: the first source's row is kept and the other reported, with both places.
    """
    key_pos = [table.field_names.index(k) for k in table.primary_key] or list(range(len(table.field_names)))
    merged = SourceTable(table.name, table.field_names, source=parts[0].source, row_sources=[])
    taken: dict[tuple, int] = {}
    problems = []
    for part in parts:
        for pos, cells in enumerate(part.rows):
            key = tuple(cells[i] for i in key_pos)
            first = taken.get(key) if all(key) else None
            if first is not None:
                if merged.rows[first] != cells:
                    differ = [c for c, a, b in zip(table.field_names, merged.rows[first], cells) if a != b]
                    file, line = merged.origin(first)
                    problems.append(Problem.of(
                        "conflito-entre-fontes", table.name, part.source, part.row_numbers[pos], ", ".join(differ),
                        " | ".join(cells[table.field_names.index(c)] for c in differ), grave=False, registro=cells,
                        primeira=f"{file}, linha {line}",
                    ))
                continue
            taken[key] = len(merged.rows)
            merged.rows.append(cells)
            merged.row_numbers.append(part.row_numbers[pos])
            merged.row_sources.append(part.file_of(pos))
    return merged, problems


def read_source(
    folders: list[Path] | Path, schema: Schema, progress=None, *, allow_mixed: bool = False
) -> SourcePackage:
    """Read every table of ``schema`` from every folder that has it, merged by :func:`merge`;
    ``progress.advance`` is told after each table. Files are named relative to their folder
    (``pasta/linhas.csv``), never by a path of the build machine. Raises
    :class:`~pipeline.read.provenance.SourceMixError` for fictional and real folders together."""
    if isinstance(folders, (str, Path)):
        folders = [Path(folders)]
    folders = [Path(f) for f in folders]
    sources = sources_of(folders, allow_mixed=allow_mixed)
    tables: dict[str, SourceTable] = {}
    problems: list[Problem] = []
    notes: list[str] = []
    coverage: dict[str, list[str]] = {}
    file_sources: dict[str, str] = {}
    for done, (name, table) in enumerate(schema.tables.items()):
        if progress is not None:
            progress.advance(done, len(schema.tables))
        parts: list[SourceTable] = []
        coverage[name] = []
        for folder, src in zip(folders, sources):
            rel = _resource_paths(folder).get(name, table.filename)
            path = _safe_child(folder, rel)
            if path is None:
                problems.append(
                    Problem.of("caminho-inseguro", name, f"{src.pasta}/datapackage.json", None, "path", rel)
                )
            elif path.is_file():
                shown = f"{src.pasta}/{path.relative_to(folder.resolve()).as_posix()}"
                part, found = read_csv_table(table, path, shown)
                parts.append(part)
                problems += found
                coverage[name].append(src.id)
                file_sources[shown] = src.id
        if len(parts) == 1:
            tables[name] = parts[0]
        elif parts:
            tables[name], found = merge(table, parts)
            problems += found
            notes.append(f"{name}: reunida de {len(parts)} fontes ({', '.join(p.source for p in parts)})")
        elif name == "enquadramentos":
            rows = enquadramentos.rows()
            tables[name] = SourceTable(
                name,
                table.field_names,
                [[r[c] for c in table.field_names] for r in rows],
                list(range(2, len(rows) + 2)),
                "decreto (art. 78)",
            )
            notes.append("enquadramentos fornecidos pelo projeto a partir do art. 78 do decreto")
            coverage[name] = [DECREE_SOURCE.id]
            file_sources["decreto (art. 78)"] = DECREE_SOURCE.id
            sources.append(DECREE_SOURCE)
        else:
            tables[name] = SourceTable(name, table.field_names, source=f"{name}.csv (ausente)")
            notes.append(f"{name}: nenhuma fonte fornece esta tabela (não coberta)")
    return SourcePackage(tables, problems, notes, sources, coverage, file_sources)
