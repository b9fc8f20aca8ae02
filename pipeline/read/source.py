"""Read stage: a source folder (or several) into raw string tables, shaped by the project's schemas.

Cells stay text here; typing is the validation stage's job (Frictionless) and typed frames come from
:func:`typed_frame`. A folder may hold a ``datapackage.json``: only its resource paths are used to find
the files; the project's schemas always govern the columns and rules. A table missing from every
folder is empty, except ``enquadramentos``, which the decree supplies (art. 78).
"""

from __future__ import annotations

import codecs
import csv
import json
from collections import Counter
from dataclasses import dataclass, field
from operator import call
from pathlib import Path

import numpy as np
import pandas as pd

from ..contract.problems import Problem
from ..contract.schema import Schema, Table
from ..legal import enquadramentos
from .provenance import DECREE_SOURCE, Source, sources_of


def once_per_value(fn, values) -> list:
    """``[fn(v) for v in values]``, with ``fn`` run once per distinct value: the derive stage types a
    column and the writers turn one into text this way (a national table repeats most of its values:
    states, dates, amounts, codes). A column holds one type, so values equal for Python (1 and 1.0)
    give the same output."""
    try:
        done = {v: fn(v) for v in set(values)}
    except TypeError:  # an unhashable value
        return [fn(v) for v in values]
    return list(map(done.__getitem__, values))


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
    data_rows: int = 0  # records in the file, those too wide or too narrow to read included

    def file_of(self, pos: int) -> str:
        return self.row_sources[pos] if self.row_sources is not None else self.source

    def origin(self, pos: int) -> tuple[str, int]:
        """``(file, line)`` of the row at ``pos``."""
        return self.file_of(pos), self.row_numbers[pos]

    def column(self, name: str) -> tuple[str, ...]:
        """The cells of one column, made once, on first use, and again only if the rows were replaced or
        grew: of rows held by column (``read.columns.HeldRows``), that column alone; of rows in a list, every
        column at once (the table transposed)."""
        cache = self.__dict__.get("_transposed")
        if cache is None or cache[0] is not self.rows or cache[1] != len(self.rows):
            cache = (self.rows, len(self.rows), {})
            self.__dict__["_transposed"] = cache
        columns = cache[2]
        if name not in columns:
            if self.held is not None:
                columns[name] = self.rows.column(name)
            else:
                columns.update(zip(self.columns, zip(*self.rows) if self.rows else ((),) * len(self.columns)))
        return columns[name]

    @property
    def held(self):
        """The table's ``read.columns.Columns`` when its rows are held by column (``HeldRows``), else None."""
        from .columns import HeldRows

        return self.rows.columns if isinstance(self.rows, HeldRows) else None

    def empty_cells(self, name: str) -> int:
        """How many rows have column ``name`` empty (its text "")."""
        held = self.held
        if held is None:
            return self.column(name).count("")
        codes, texts = held.column(name)
        empty = np.flatnonzero(texts == "")
        return int(np.isin(codes, empty).sum()) if len(empty) else 0

    def let_columns_go(self) -> None:
        """Free the columns :meth:`column` made (they are made again if asked)."""
        self.__dict__.pop("_transposed", None)

    def let_go(self) -> None:
        """Free the rows, their lines and sources, and the columns :meth:`column` made of them."""
        self.rows, self.row_numbers, self.row_sources = [], [], None
        self.let_columns_go()

    def positions(self, name: str, refused) -> list[int]:
        """Positions of the rows whose ``name`` cell is refused by ``refused(text) -> bool``, asked once
        per distinct text (a verdict that depends on the text alone)."""
        column = self.column(name)
        bad = {text for text in set(column) if refused(text)}
        return [i for i, text in enumerate(column) if text in bad] if bad else []

    def frame(self) -> pd.DataFrame:
        """The rows as a frame of text, built column by column (every row has every column)."""
        return pd.DataFrame({c: np.array(self.column(c), dtype=object) for c in self.columns},
                            columns=self.columns, dtype=object)

    def rows_at(self, positions: list[int]):
        """The rows at ``positions``, held as this table holds its rows (by column, or in a list)."""
        return self.rows.take(positions) if self.held is not None else [self.rows[i] for i in positions]

    def without(self, origins: set[tuple[str, int]]) -> SourceTable:
        """The table less the rows at ``origins`` (``(file, line)`` pairs), held as this one is."""
        keep = [i for i in range(len(self.rows)) if self.origin(i) not in origins]
        return SourceTable(
            self.name, self.columns, self.rows_at(keep), [self.row_numbers[i] for i in keep], self.source,
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
    # table -> {"lidas": data rows in its files, "duplicadas": rows a later source repeats (same key)}
    counts: dict[str, dict[str, int]] = field(default_factory=dict)
    # a table read a batch at a time (``x-em-lotes``) -> its files, (path, as shown), in the folders' order:
    # its rows are read by pipeline/build/batches.py, and ``tables`` holds it empty
    batched: dict[str, list[tuple[Path, str]]] = field(default_factory=dict)


# A cell may be long (it is refused past cells.MAX_TEXT with a message); the csv module's own limit
# (128 KiB) would stop the whole file instead. The limit is process-wide and Frictionless changes it,
# so it is set again before every read.
FIELD_LIMIT = 16 * 1024 * 1024
# The widest header read: the widest table of the contract has some twenty columns; a file of 200,000
# columns is no table of it (and every check per column would cost its square).
MAX_COLUMNS = 1_000


def _resource_paths(folder: Path, pasta: str) -> tuple[dict[str, str], Problem | None]:
    """The ``path`` of each resource a folder's ``datapackage.json`` names (file names only; the
    project's schemas govern the columns). A descriptor that is not a JSON object whose resources are
    objects is an error: silently ignoring it could read the wrong files."""
    dp = folder / "datapackage.json"
    shown = f"{pasta}/datapackage.json"

    def bad(detail: str):
        return {}, Problem.of("descritor-invalido", "datapackage", shown, None, None, None, detalhe=detail)

    if not dp.exists():
        return {}, None
    try:
        desc = json.loads(dp.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        return bad(f"não pôde ser lido: {getattr(exc, 'strerror', None) or type(exc).__name__}")
    except ValueError as exc:
        return bad(f"JSON inválido: {exc.msg if hasattr(exc, 'msg') else exc}")
    if not isinstance(desc, dict):
        return bad("deveria ser um objeto JSON, com resources")
    resources = desc.get("resources", [])
    if not isinstance(resources, list) or not all(isinstance(r, dict) for r in resources):
        return bad("resources deveria ser uma lista de objetos")
    paths = {}
    for r in resources:
        path = r.get("path")
        if isinstance(r.get("name"), str) and path is not None:
            if not isinstance(path, str) or "\x00" in path or len(path) > 255:
                return bad(f"o recurso {r['name']} tem um path inválido (texto de até 255 caracteres, sem NUL)")
            paths[r["name"]] = path
    return paths, None


def _safe_child(folder: Path, relative: str) -> Path | None:
    """``folder/relative`` only when it stays inside ``folder`` (no ``..``, absolute or link tricks)."""
    try:
        candidate = (folder / relative).resolve()
        candidate.relative_to(folder.resolve())
    except (ValueError, OSError, RuntimeError):  # outside, NUL, too long, or a symlink loop
        return None
    return candidate


def _utf16(table: Table, shown: str) -> Problem:
    """The problem of a file in UTF-16 (told by its first two bytes)."""
    return Problem.of("codificacao", table.name, shown, 1, None, None, detalhe="o arquivo está em UTF-16; salve-o como UTF-8")


def read_csv_table(table: Table, path: Path, shown: str) -> tuple[SourceTable, list[Problem]]:
    """The whole file as one table, and the problems found reading it, as the tables read in batches are
    read (:func:`.columns.read_columns`): a plain file split by Arrow, any other by the csv module, with the
    same rows, lines and problems. Either way the table is held by column (``read.columns.HeldRows``): each
    column's distinct texts once, and each row's number among them."""
    from .columns import Columns, split_by_arrow, splits_by_arrow  # they read a file that is not plain by this module

    if splits_by_arrow(table, path):
        ((read, problems, data_rows),) = split_by_arrow(table, path, shown, None)
        return read.held(data_rows), problems
    ((read, problems),) = read_csv_batches(table, path, shown)
    return read if read.held is not None else Columns.of(read).held(read.data_rows), problems


def read_csv_batches(table: Table, path: Path, shown: str, size: int | None = None):
    """The file's rows ``size`` at a time: yields ``(SourceTable, problems found in its rows)``, the
    last one always (empty when the file ends on a full batch or cannot be read); with no ``size``, the
    whole file as one. The file is streamed, never decoded whole (a table of 12 million rows is a gigabyte
    of text, and a whole decoded text was held twice); a byte that is not UTF-8 is located by a second look."""
    problems: list[Problem] = []
    wanted = table.field_names

    def problem(slug, line, col=None, value=None, **ctx):
        problems.append(Problem.of(slug, table.name, shown, line, col, value, **ctx))

    out = SourceTable(table.name, wanted, source=shown)
    # a whole file's equal texts of a column are kept as one object: a national table repeats most of its
    # cells (dates, codes, places), and each cell the reader gives is a new object (pipeline/read/columns.py
    # does the same for the files Arrow splits)
    shared = [{}.setdefault for _ in wanted] if size is None else None
    # and it is held by column as it is read, each cell appended to its column (no list per row)
    columns = [[] for _ in wanted] if size is None else None
    appends = [c.append for c in columns] if size is None else None
    try:
        with open(path, "rb") as raw:
            head = raw.read(2)
        if head in (b"\xff\xfe", b"\xfe\xff"):  # UTF-16 is told by its first two bytes
            yield out, [_utf16(table, shown)]
            return
        fh = open(path, encoding="utf-8-sig", newline="")
    except OSError as exc:
        problem("arquivo-ilegivel", None, detalhe=exc.strerror or type(exc).__name__)
        yield out, problems
        return
    with fh:
        csv.field_size_limit(FIELD_LIMIT)
        reader = csv.reader(fh, strict=True)
        header, last = None, 0
        try:
            header = next(reader, None)
            if not header or not any(h.strip() for h in header):
                problem("arquivo-vazio", None)
                yield out, problems
                return
            if len(header) > MAX_COLUMNS:  # refused before any per-column work: the cost stays linear
                problem("colunas-demais", 1, None, str(len(header)), limite=MAX_COLUMNS, esperado=len(wanted))
                yield out, problems
                return
            header = [h.strip() for h in header]
            if len(header) == 1 and (";" in header[0] or "\t" in header[0]):
                problem("separador", 1, None, header[0],
                        separador="ponto e vírgula" if ";" in header[0] else "tabulação")
                yield out, problems
                return
            for col in sorted(c for c, n in Counter(header).items() if n > 1):
                problem("coluna-repetida", 1, col, col)
            lower = {h.lower(): h for h in header}
            for f in table.fields:
                if f["name"] not in header:
                    required = f.get("constraints", {}).get("required", False)
                    slug = "coluna-ausente" if required else "coluna-opcional-ausente"
                    found = lower.get(f["name"].lower())
                    hint = f' (o cabeçalho tem "{found}": os nomes das colunas são em minúsculas)' if found else ""
                    problems.append(Problem.of(slug, table.name, shown, 1, f["name"], None, grave=required, dica=hint))
            for col in header:
                if col not in wanted and col.lower() not in wanted:
                    problems.append(Problem.of("coluna-desconhecida", table.name, shown, 1, col, None, grave=False))
            first = {}
            for i, c in enumerate(header):
                first.setdefault(c, i)
            positions = [first.get(c) for c in wanted]
            same_order = positions == list(range(len(header)))  # the row is taken as read
            width = len(header)
            last = reader.line_num
            start = last + 1
            for cells in reader:
                start, last = last + 1, reader.line_num
                if not "".join(cells).strip():  # a blank line, or one of empty cells
                    continue
                if swallowed_lines(cells, start, last, width, ","):
                    problem("aspas-sem-fechamento", start, None, None, linhas=last - start, registro=cells[:1])
                    break
                out.data_rows += 1
                if len(cells) != width:
                    problem("largura-da-linha", start, None, str(len(cells)), esperado=width, registro=cells)
                    continue
                if not same_order:
                    cells = [cells[p] if p is not None else "" for p in positions]
                if columns is None:
                    out.rows.append(cells)
                else:  # any() runs the appends (each gives None) without a Python loop per cell
                    any(map(call, appends, map(call, shared, cells, cells)))
                out.row_numbers.append(start)
                if size is not None and len(out.rows) >= size:
                    yield out, problems
                    out, problems = SourceTable(table.name, wanted, source=shown), []
        except csv.Error as exc:  # located where the record that could not be read begins
            problem("csv-ilegivel", last + 1 if header else reader.line_num, detalhe=csv_error_pt(str(exc)))
        except UnicodeDecodeError:
            if size is None:  # a file read whole is refused whole: no row of it, one problem
                yield SourceTable(table.name, wanted, source=shown), [_undecodable(path, table, shown)]
                return
            problems.append(_undecodable(path, table, shown))
    if columns is not None:
        out = _held(out, columns)
    yield out, problems


def _held(read: SourceTable, columns: list[list[str]]) -> SourceTable:
    """The rows read whole, given as ``columns``, held by column (``read.columns.Columns.held``)."""
    from .columns import Columns

    return Columns.numbered(read.name, read.columns, columns, read.row_numbers, read.source).held(read.data_rows)


def _undecodable(path: Path, table: Table, shown: str) -> Problem:
    """The problem of a streamed file with a byte that is not UTF-8, naming its line (found by decoding
    the file again a block at a time: the text reader decodes ahead of the row it gives)."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    line = 1
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            try:
                decoder.decode(block)
            except UnicodeDecodeError as exc:
                at = max(exc.start - (len(exc.object) - len(block)), 0)
                byte = exc.object[exc.start:exc.start + 1].hex()
                return Problem.of("codificacao", table.name, shown, line + block[:at].count(b"\n"), None, None,
                                  detalhe=f"o byte 0x{byte} desta linha não é UTF-8; salve o arquivo como UTF-8")
            line += block.count(b"\n")
    return Problem.of("codificacao", table.name, shown, line, None, None,
                      detalhe="o arquivo termina no meio de um caractere UTF-8; salve o arquivo como UTF-8")


def swallowed_lines(cells: list[str], start: int, end: int, width: int, delimiter: str) -> bool:
    """Whether a record read from line ``start`` to ``end`` holds whole records in one cell: a quote
    opened at ``start`` and closed lines later turns every row between into text of one cell. A cell
    with a line break is legitimate; one whose later lines each look like a row (as many delimiters
    as the header needs) is taken as an unclosed quote and refused, never guessed at."""
    return end > start and any(line.count(delimiter) >= max(width - 1, 1)
                               for c in cells if "\n" in c or "\r" in c
                               for line in c.splitlines()[1:])


SEPARATORS = {",": "a vírgula", ";": "o ponto e vírgula"}  # a file's separator, as its errors name it


def csv_error_pt(message: str, delimiter: str = ",") -> str:
    """The csv module's error in pt-BR (its messages are English), for a file split by ``delimiter``."""
    if "field larger than field limit" in message:
        return "uma célula passa do tamanho máximo"
    if "unexpected end of data" in message:
        return "aspas abertas que não se fecham até o fim do arquivo"
    if "expected after" in message:
        return (f"aspas fechadas seguidas de outro caractere que não {SEPARATORS[delimiter]}; duplique as aspas "
                "dentro do texto")
    if "NUL" in message:
        return "o arquivo tem um caractere NUL"
    return "CSV malformado"


def without_repeats(part: SourceTable) -> tuple[SourceTable, list[Problem]]:
    """A table without a primary key as read from one file, each row that repeats an earlier row of the
    file cell for cell kept once, and each repeat reported (``read.repeats``, the rule of every such table)."""
    from .columns import Columns  # they read whole files by this module's reader
    from .repeats import Seen, first_rows

    if not part.rows:
        return part, []
    keep, problems = first_rows(Columns.of(part), Seen())
    if not problems:
        return part, []
    keep = keep.tolist()
    out = SourceTable(part.name, part.columns, part.rows_at(keep), [part.row_numbers[p] for p in keep], part.source)
    out.data_rows = part.data_rows
    return out, problems


def merge(table: Table, parts: list[SourceTable]) -> tuple[SourceTable, list[Problem]]:
    """One table from the same table of several sources, in the order given.

    Rows are matched on the primary key (on the whole row for a table without one): a row equal to
    one already taken is the same record and is kept once; a row with the key of another but other
    values is a conflict: the first source's row is kept and the other reported, with both places.
    """
    whole_row = not table.primary_key
    key_pos = [table.field_names.index(k) for k in table.primary_key] or list(range(len(table.field_names)))
    merged = SourceTable(table.name, table.field_names, source=parts[0].source, row_sources=[])
    taken: dict[tuple, int] = {}  # keys of the earlier sources only
    problems = []
    for part in parts:
        added: dict[tuple, int] = {}
        for pos, cells in enumerate(part.rows):
            key = tuple(cells[i] for i in key_pos)
            # a row without a key of its own is matched whole (empty cells included); a keyed row with
            # an empty key is never matched (validation reports it). Inside one source nothing is merged:
            # a repeated key there is that source's error, reported by validation.
            first = taken.get(key) if (whole_row or all(key)) else None
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
            added.setdefault(key, len(merged.rows))
            merged.rows.append(cells)
            merged.row_numbers.append(part.row_numbers[pos])
            merged.row_sources.append(part.file_of(pos))
        for key, at in added.items():
            taken.setdefault(key, at)
    return merged, problems


def read_source(
    folders: list[Path] | Path, schema: Schema, progress=None, *, allow_mixed: bool = False,
    only: set[str] | None = None,
) -> SourcePackage:
    """Read every table of ``schema`` (or those in ``only``) from every folder that has it, merged by
    :func:`merge`; ``progress.advance`` is told after each table. Files are named relative to their folder
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
    resource_paths = {}
    counts: dict[str, dict[str, int]] = {}
    batched: dict[str, list[tuple[Path, str]]] = {}
    for folder, src in zip(folders, sources):
        resource_paths[src.id], bad = _resource_paths(folder, src.pasta)
        if bad is not None:
            problems.append(bad)
    for done, (name, table) in enumerate(schema.tables.items()):
        if progress is not None:
            progress.advance(done, len(schema.tables))
        if only is not None and name not in only:
            continue
        parts: list[SourceTable] = []
        coverage[name] = []
        for folder, src in zip(folders, sources):
            rel = resource_paths[src.id].get(name, table.filename)
            path = _safe_child(folder, rel)
            link = folder / rel
            if path is None and link.is_symlink():  # a link that loops or cannot be followed
                problems.append(Problem.of("arquivo-ilegivel", name, f"{src.pasta}/{rel}", None, None, None,
                                           detalhe="link simbólico que não leva a um arquivo"))
                coverage[name].append(src.id)
            elif path is None:
                problems.append(
                    Problem.of("caminho-inseguro", name, f"{src.pasta}/datapackage.json", None, "path", rel)
                )
            elif path.exists() and not path.is_file():
                problems.append(Problem.of("arquivo-ilegivel", name, f"{src.pasta}/{rel}", None, None, None,
                                           detalhe="não é um arquivo"))
                coverage[name].append(src.id)
            elif path.is_file():
                shown = f"{src.pasta}/{path.relative_to(folder.resolve()).as_posix()}"
                coverage[name].append(src.id)
                file_sources[shown] = src.id
                if table.batched:  # read later, a batch at a time (pipeline/build/batches.py)
                    batched.setdefault(name, []).append((path, shown))
                    continue
                part, found = read_csv_table(table, path, shown)
                parts.append(part)
                problems += found
        if parts:  # rows a later source repeats are merged away: counted, never silently lost
            counts[name] = {"lidas": sum(p.data_rows for p in parts), "duplicadas": 0}
        if parts and not table.primary_key:  # a keyless row repeated whole inside one file is one record
            for i, part in enumerate(parts):
                parts[i], found = without_repeats(part)
                problems += found
                counts[name]["duplicadas"] += len(found)
        if name in batched:
            tables[name] = SourceTable(name, table.field_names, source=batched[name][0][1])
        elif len(parts) == 1:
            tables[name] = parts[0]
        elif parts:
            tables[name], found = merge(table, parts)
            problems += found
            counts[name]["duplicadas"] += sum(len(p.rows) for p in parts) - len(tables[name].rows)
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
            counts[name] = {"lidas": len(rows), "duplicadas": 0}
            coverage[name] = [DECREE_SOURCE.id]
            file_sources["decreto (art. 78)"] = DECREE_SOURCE.id
            sources.append(DECREE_SOURCE)
        else:
            tables[name] = SourceTable(name, table.field_names, source=f"{name}.csv (ausente)")
            notes.append(f"{name}: nenhuma fonte fornece esta tabela (não coberta)")
            counts[name] = {"lidas": 0, "duplicadas": 0}
    return SourcePackage(tables, problems, notes, sources, coverage, file_sources, counts, batched)
