"""What changed between two published releases of the data package (``mudancas.json``).

Both releases are read as text (every cell a string, as written in the CSV) and compared table by
table with pandas merges: rows are matched by the table's ``primaryKey``; a table without one is
compared by whole rows, as a multiset (two identical rows count twice). Only columns present in both
releases are compared; the others are listed as ``colunas_novas`` / ``colunas_removidas``.
"""

from __future__ import annotations

import csv
import http.client
import io
import json
import os
import re
import stat
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ..identifiers import mask_cpf_in
from ..read.source import FIELD_LIMIT, csv_error_pt

_COUNT = "\x00ocorrencia"  # occurrence number of a repeated row in a table without primaryKey
_LISTS = ("incluidos", "removidos", "alterados")


class ChangesError(RuntimeError):
    """The previous release (or a table of the current one) cannot be read."""


@dataclass
class Package:
    """A published release: its descriptor and each resource's CSV as a frame of strings, but a table read
    in batches (pipeline/batches.py), whose CSV is named in ``files`` (a local path or a URL) and compared
    as a stream (:func:`compare_streamed`)."""
    where: str
    descriptor: dict
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    files: dict[str, Path | str] = field(default_factory=dict)


class Everything:
    """``load_previous(where, streamed=Everything())``: no table read, each one named in ``files``."""

    def __contains__(self, name) -> bool:
        return True


# What a previous release may name: a table as the portal names its tables, a file as a plain CSV name in
# its own dados/ folder (no folder, no "..", no absolute path, no scheme)
_TABLE_NAME = re.compile(r"[a-z][a-z0-9_]{0,62}\Z")
_CSV_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,120}\.csv\Z")
MAX_DESCRIPTOR_BYTES = 16 * 1024 * 1024  # the portal's own descriptor is some 200 KB
MAX_TABLE_BYTES = 4 * 1024 ** 3  # a previous CSV larger than this is not a release of this portal
MAX_DEPTH = 64  # nesting of the previous descriptor (the portal's own is 6 deep)


def _read_csv(data: bytes, label: str) -> pd.DataFrame:
    """A previous release's CSV as a frame of strings, read as a source's CSV is read: UTF-8, the csv
    module's strict reader with the same cell limit, the same pt-BR messages (the line where it broke)."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise ChangesError(f"Não foi possível ler a tabela {label}: linha {line}: o byte "
                           f"0x{data[exc.start:exc.start + 1].hex()} não é UTF-8") from None
    csv.field_size_limit(FIELD_LIMIT)
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    try:
        header = next(reader, None)
        if not header:
            raise ChangesError(f"Não foi possível ler a tabela {label}: o arquivo está vazio")
        if len(set(header)) != len(header):
            raise ChangesError(f"Não foi possível ler a tabela {label}: coluna repetida no cabeçalho")
        rows = []
        for cells in reader:
            if len(cells) != len(header):
                raise ChangesError(f"Não foi possível ler a tabela {label}: linha {reader.line_num} tem "
                                   f"{len(cells)} células, o cabeçalho tem {len(header)}")
            rows.append(cells)
    except csv.Error as exc:
        raise ChangesError(f"Não foi possível ler a tabela {label}: linha {reader.line_num}: "
                           f"{csv_error_pt(str(exc))}") from None
    return pd.DataFrame(rows, columns=header, dtype=str) if rows else pd.DataFrame(columns=header, dtype=str)


def _fetch(url: str, limit: int) -> bytes:
    try:
        with urllib.request.urlopen(url, timeout=120) as response:  # noqa: S310 - http(s) only, checked
            data = response.read(limit + 1)
    except (urllib.error.URLError, OSError, TimeoutError, ValueError, http.client.HTTPException) as exc:
        raise ChangesError(f"Não foi possível baixar {url}: {exc}") from exc
    if len(data) > limit:
        raise ChangesError(f"Não foi possível baixar {url}: passa de {limit} bytes")
    return data


def _regular_file(path: Path, limit: int, read: bool = True) -> bytes:
    """The bytes of ``path``, a regular file that is not a symbolic link (nothing outside the previous
    release is read through a link), of at most ``limit`` bytes (not read when ``read`` is false)."""
    try:
        info = os.lstat(path)
    except OSError:
        raise ChangesError(f"Pacote anterior incompleto: falta {path}.") from None
    if stat.S_ISLNK(info.st_mode):
        raise ChangesError(f"Pacote anterior recusado: {path} é um link simbólico; "
                           "só arquivos da própria pasta dados/ são lidos.")
    if not stat.S_ISREG(info.st_mode):
        raise ChangesError(f"Pacote anterior recusado: {path} não é um arquivo.")
    if info.st_size > limit:
        raise ChangesError(f"Pacote anterior recusado: {path} passa de {limit} bytes.")
    if not read:
        return b""
    try:
        return path.read_bytes()
    except OSError as exc:
        raise ChangesError(f"Não foi possível ler {path}: {exc.strerror or type(exc).__name__}.") from None


def _local_folder(where: str) -> Path:
    """The folder holding ``datapackage.json``: ``where`` itself or, for a site's root, ``where/dados``
    (not through a link: ``dados`` must be the site's own folder)."""
    root = Path(where)
    for folder in (root, root / "dados"):
        if folder is not root and folder.is_symlink():
            raise ChangesError(f"Pacote anterior recusado: {folder} é um link simbólico.")
        if (folder / "datapackage.json").is_file() or (folder / "datapackage.json").is_symlink():
            return folder
    raise ChangesError(f"Pacote anterior não encontrado: não há datapackage.json em {where} (nem em {where}/dados).")


def _nesting(text: str) -> int:
    """The deepest run of open brackets in a JSON text (strings skipped), read before parsing: a text
    nested 200,000 deep would exhaust the parser's recursion."""
    level = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            level += 1
            deepest = max(deepest, level)
        elif ch in "]}":
            level -= 1
    return deepest


def _resources(descriptor, label: str) -> dict[str, str]:
    """The previous descriptor's resources as {table: CSV file name}, each checked: a portal table name,
    a plain CSV name inside the same folder, each table once."""
    def refuse(why: str):
        raise ChangesError(f"Descritor inválido em {label}: {why}.")

    if not isinstance(descriptor, dict):
        refuse("não é um objeto JSON")
    resources = descriptor.get("resources")
    if not isinstance(resources, list):
        refuse('falta a lista "resources"')
    paths: dict[str, str] = {}
    for n, r in enumerate(resources, 1):
        if not isinstance(r, dict):
            refuse(f"o recurso {n} não é um objeto")
        name, path, schema = r.get("name"), r.get("path"), r.get("schema", {})
        if not isinstance(name, str) or not _TABLE_NAME.match(name):
            refuse(f'o recurso {n} tem "name" {json.dumps(name, ensure_ascii=False)[:80]}: deve ser um nome de '
                   "tabela (minúsculas, dígitos e _)")
        if not isinstance(path, str) or not _CSV_NAME.match(path):
            refuse(f'o recurso {name} tem "path" {json.dumps(path, ensure_ascii=False)[:80]}: deve ser o nome de um '
                   "arquivo .csv da própria pasta (sem pastas, .. nem endereço)")
        if name in paths:
            refuse(f"a tabela {name} aparece duas vezes")
        key = schema.get("primaryKey", []) if isinstance(schema, dict) else None
        keys = [key] if isinstance(key, str) else key
        if not isinstance(keys, list) or not all(isinstance(k, str) for k in keys):
            refuse(f'o recurso {name} tem um "schema.primaryKey" que não é uma lista de nomes de coluna')
        paths[name] = path
    return paths


def load_previous(where: str, streamed=frozenset()) -> Package:
    """The release at ``where``: an ``http(s)://`` URL of a ``dados/`` folder, or a local folder holding
    ``datapackage.json`` (a ``dados/`` folder) or ``dados/datapackage.json`` (a site's root).

    Everything read is confined to that ``dados/`` folder and checked as a source is: resource paths
    are plain CSV names in it (no folder, no ``..``, no absolute path), no symbolic link is followed,
    the descriptor's size and nesting are bounded, and each CSV is read with a source's limits and
    messages (``ChangesError`` in pt-BR, never a traceback). The tables in ``streamed`` are not read: their
    files are named in ``Package.files``, for :func:`compare_streamed`."""
    where = str(where)
    remote = where.startswith(("http://", "https://"))
    base = where.rstrip("/") + "/" if remote else _local_folder(where)

    def read(path: str, limit: int) -> bytes:
        return _fetch(base + path, limit) if remote else _regular_file(base / path, limit)

    label = f"{base}datapackage.json" if remote else str(base / "datapackage.json")
    try:
        text = read("datapackage.json", MAX_DESCRIPTOR_BYTES).decode("utf-8")
    except UnicodeDecodeError:
        raise ChangesError(f"Descritor inválido em {label}: não está em UTF-8.") from None
    if _nesting(text) > MAX_DEPTH:
        raise ChangesError(f"Descritor inválido em {label}: aninhado mais de {MAX_DEPTH} níveis.")
    try:
        descriptor = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise ChangesError(f"Descritor inválido em {label}: {exc}") from None
    paths = _resources(descriptor, label)
    tables = {name: _read_csv(read(path, MAX_TABLE_BYTES), f"{name} ({path}) de {where}")
              for name, path in paths.items() if name not in streamed}
    files = {name: (base + path if remote else base / path) for name, path in paths.items() if name in streamed}
    for r in descriptor["resources"]:  # a key repeated in the previous release: said now, not mid-comparison
        if r["name"] in files:
            continue
        key = (r.get("schema") or {}).get("primaryKey") or []
        key = [key] if isinstance(key, str) else key
        frame = tables[r["name"]]
        if key and all(k in frame.columns for k in key):
            repeated = frame.duplicated(key, keep="first")
            if repeated.any():
                pos = int(repeated.to_numpy().argmax())
                value = " | ".join(frame.iloc[pos][k] for k in key)
                raise ChangesError(f"Chave primária repetida na tabela {r['name']} ({r['path']}) de {where}: "
                                   f'"{mask_cpf_in(value)}" ({", ".join(key)}) de novo na linha {pos + 2}.')
    return Package(where, descriptor, tables, files)


def _records(frame: pd.DataFrame, columns: list[str]) -> list[dict]:
    return [dict(zip(columns, row)) for row in zip(*(frame[c].tolist() for c in columns))] if columns else [{}] * len(frame)


def _compare_table(name: str, before: pd.DataFrame, after: pd.DataFrame, key: list[str], limit: int | None) -> dict:
    """One table's entry: rows added, removed and changed, matched by ``key`` (``[]``: whole row)."""
    common = [c for c in after.columns if c in before.columns]
    entry = {"tabela": name, "chave": key if key and all(k in common for k in key) else [],
             "colunas_novas": sorted(set(after.columns) - set(before.columns)),
             "colunas_removidas": sorted(set(before.columns) - set(after.columns))}
    key = entry["chave"] or common
    on = key if entry["chave"] else key + [_COUNT]
    left, right = before[common].copy(), after.copy()
    if not entry["chave"]:  # multiset: the n-th copy of a row matches the n-th copy
        left[_COUNT] = left.groupby(common, sort=False).cumcount() if common else range(len(left))
        right[_COUNT] = right.groupby(common, sort=False).cumcount() if common else range(len(right))
    try:
        merged = left.merge(right, on=on, how="outer", suffixes=("\x00antes", ""), indicator=True,
                            validate="one_to_one", sort=False)
    except pd.errors.MergeError:
        raise ChangesError(f"Chave primária repetida na tabela {name} ({', '.join(key)}).") from None
    merged = merged.sort_values(on, kind="stable")
    cut = (lambda f: f) if limit is None else (lambda f: f.head(limit))
    added, removed = merged[merged["_merge"] == "right_only"], merged[merged["_merge"] == "left_only"]
    both = merged[merged["_merge"] == "both"]
    compared = [c for c in common if c not in key]
    differs = pd.DataFrame({c: both[c + "\x00antes"] != both[c] for c in compared}, index=both.index)
    changed = both[differs.any(axis=1)] if compared else both.iloc[0:0]
    lines = {
        "incluidos": [{"chave": k, "registro": r} for k, r in
                      zip(_records(cut(added), key), _records(cut(added), list(after.columns)))],
        "removidos": [{"chave": k} for k in _records(cut(removed), key)],
        "alterados": [{"chave": k, "campos": {c: {"antes": row[c + "\x00antes"], "depois": row[c]}
                                              for c in compared if diff[c]}}
                      for k, row, diff in zip(_records(cut(changed), key),
                                              _records(cut(changed), [c + s for c in compared for s in ("\x00antes", "")]),
                                              _records(differs.loc[cut(changed).index], compared))],
    }
    entry.update(incluidos=len(added), removidos=len(removed), alterados=len(changed), linhas=lines)
    if any(len(lines[k]) < entry[k] for k in _LISTS):
        entry["truncado"] = True
    entry["situacao"] = "alterada" if entry["incluidos"] or entry["removidos"] or entry["alterados"] \
        or entry["colunas_novas"] or entry["colunas_removidas"] else "sem_mudancas"
    return entry


def _rows_of(source: Path | str, label: str):
    """A CSV's header and then its rows, read a block at a time with a source's reader, limits and messages:
    a local file (a regular file, not a link) or a URL (downloaded to a temporary file first)."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        if isinstance(source, str):
            path = Path(tmp) / "anterior.csv"
            try:
                with urllib.request.urlopen(source, timeout=120) as response, open(path, "wb") as fh:  # noqa: S310
                    got = 0
                    for block in iter(lambda: response.read(1 << 20), b""):
                        got += len(block)
                        if got > MAX_TABLE_BYTES:
                            raise ChangesError(f"Não foi possível baixar {source}: passa de {MAX_TABLE_BYTES} bytes")
                        fh.write(block)
            except (urllib.error.URLError, OSError, TimeoutError, ValueError, http.client.HTTPException) as exc:
                raise ChangesError(f"Não foi possível baixar {source}: {exc}") from exc
        else:
            path = source
            _regular_file(path, MAX_TABLE_BYTES, read=False)
        csv.field_size_limit(FIELD_LIMIT)
        with open(path, encoding="utf-8-sig", newline="") as fh:
            reader = csv.reader(fh, strict=True)
            try:
                header = next(reader, None)
                if not header:
                    raise ChangesError(f"Não foi possível ler a tabela {label}: o arquivo está vazio")
                yield header
                for cells in reader:
                    if len(cells) != len(header):
                        raise ChangesError(f"Não foi possível ler a tabela {label}: linha {reader.line_num} tem "
                                           f"{len(cells)} células, o cabeçalho tem {len(header)}")
                    yield cells
            except csv.Error as exc:
                raise ChangesError(f"Não foi possível ler a tabela {label}: linha {reader.line_num}: "
                                   f"{csv_error_pt(str(exc))}") from None
            except UnicodeDecodeError:
                raise ChangesError(f"Não foi possível ler a tabela {label}: perto da linha {reader.line_num + 1}: "
                                   "um byte não é UTF-8") from None


def _hashed(rows, positions: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """Two salted 64-bit hashes of each row's cells at ``positions`` (as pipeline/batches.py compares rows)."""
    a, b = [], []
    for cells in rows:
        common = tuple(cells[p] for p in positions)
        a.append(hash(("a", common)))
        b.append(hash(("b", common)))
    return np.array(a, dtype=np.int64), np.array(b, dtype=np.int64)


def _surplus(mine: tuple[np.ndarray, np.ndarray], theirs: tuple[np.ndarray, np.ndarray]) -> tuple[int, dict]:
    """How many rows of ``mine`` (hashes) exceed the copies of the same row in ``theirs``, and for each such
    row, how many copies ``theirs`` has (the n-th copy of a row matches the n-th copy)."""
    a = np.concatenate([mine[0], theirs[0]])
    b = np.concatenate([mine[1], theirs[1]])
    side = np.concatenate([np.ones(len(mine[0]), dtype=np.int64), np.zeros(len(theirs[0]), dtype=np.int64)])
    if not len(a):
        return 0, {}
    order = np.lexsort((b, a))
    a, b, side = a[order], b[order], side[order]
    new = np.ones(len(a), dtype=bool)
    new[1:] = (a[1:] != a[:-1]) | (b[1:] != b[:-1])
    starts = np.flatnonzero(new)
    own = np.add.reduceat(side, starts)
    other = np.diff(np.append(starts, len(a))) - own
    extra = own > other
    groups = starts[extra]
    return int((own - other)[extra].sum()), dict(zip(zip(a[groups].tolist(), b[groups].tolist()), other[extra].tolist()))


def _first_surplus(rows, positions: list[int], surplus: dict, limit: int | None) -> list[tuple]:
    """The first ``limit`` rows (in the order of their cells at ``positions``, then of their copy) that are
    beyond the copies the other release has: :func:`_compare_table`'s order for a table without a key. A
    row after the ``limit`` kept so far is not counted (its later copies cannot be listed either)."""
    import heapq

    heap: list = []  # (negated order, cells), the largest first
    copies: dict = {}
    for cells in rows:
        common = tuple(cells[p] for p in positions)
        hashes = (hash(("a", common)), hash(("b", common)))
        if hashes not in surplus:
            continue
        if limit is not None and len(heap) >= limit and common > heap[0][0].order[0]:
            continue
        copy = copies.get(common, 0)
        copies[common] = copy + 1
        if copy < surplus[hashes]:
            continue
        item = (_Reverse((common, copy)), cells)
        if limit is None or len(heap) < limit:
            heapq.heappush(heap, item)
        elif item[0].order < heap[0][0].order:
            heapq.heapreplace(heap, item)
    return [cells for _, cells in sorted(heap, key=lambda x: x[0].order)]


class _Reverse:
    """An order reversed: a heap of the smallest items keeps its largest on top."""

    __slots__ = ("order",)

    def __init__(self, order):
        self.order = order

    def __lt__(self, other):
        return self.order > other.order


def compare_streamed(name: str, previous: Package, current_csv: Path, current_columns: list[str],
                     limit: int | None = None) -> dict:
    """:func:`compare`'s entry for a table without a key read in batches (pipeline/batches.py), whose rows
    are compared whole as a multiset, as :func:`_compare_table` compares them, but never held: each row is
    hashed (two salted 64-bit hashes), the counts compared, and the files read again for the first
    ``limit`` rows of each list."""
    source = previous.files.get(name)
    label_before = f"{name} de {previous.where}"
    before_columns = next(iter(_rows_of(source, label_before))) if source is not None else list(current_columns)
    common = [c for c in current_columns if c in before_columns]
    after_at = [current_columns.index(c) for c in common]
    before_at = [before_columns.index(c) for c in common]

    def after_rows():
        rows = _rows_of(current_csv, f"{name} de {current_csv.parent}")
        next(rows)
        return rows

    def before_rows():
        if source is None:
            return iter(())
        rows = _rows_of(source, label_before)
        next(rows)
        return rows

    after, before = _hashed(after_rows(), after_at), _hashed(before_rows(), before_at)
    added, added_rows = _surplus(after, before)
    removed, removed_rows = _surplus(before, after)
    del after, before
    entry = {"tabela": name, "chave": [], "colunas_novas": sorted(set(current_columns) - set(before_columns)),
             "colunas_removidas": sorted(set(before_columns) - set(current_columns))}
    listed_added = _first_surplus(after_rows(), after_at, added_rows, limit) if added else []
    listed_removed = _first_surplus(before_rows(), before_at, removed_rows, limit) if removed else []
    lines = {
        "incluidos": [{"chave": dict(zip(common, (cells[p] for p in after_at))),
                       "registro": dict(zip(current_columns, cells))} for cells in listed_added],
        "removidos": [{"chave": dict(zip(common, (cells[p] for p in before_at)))} for cells in listed_removed],
        "alterados": [],
    }
    entry.update(incluidos=added, removidos=removed, alterados=0, linhas=lines)
    if len(listed_added) < added or len(listed_removed) < removed:
        entry["truncado"] = True
    entry["situacao"] = "alterada" if added or removed or entry["colunas_novas"] or entry["colunas_removidas"] \
        else "sem_mudancas"
    return entry


def compare(previous: Package, current_dir: Path, current_descriptor: dict, limit: int | None = None,
            streamed: dict[str, dict] | None = None) -> dict:
    """What changed from ``previous`` to the release in ``current_dir`` described by ``current_descriptor``.

    Every table of either release gets an entry (sorted by name) with counts, the rows themselves
    (sorted by key; at most ``limit`` per list, ``"truncado": true`` when cut) and a ``situacao``:
    ``alterada``, ``sem_mudancas``, ``nova`` (all rows included) or ``removida`` (all rows removed).
    A table's ``chave`` is its primaryKey when present in both releases, else ``[]`` and rows are
    compared whole (over the common columns) as a multiset."""
    streamed = streamed or {}  # table -> its entry, made by compare_streamed (pipeline/batches.py)
    current_dir = Path(current_dir)
    now = {r["name"]: r for r in current_descriptor["resources"]}
    before = {r["name"]: r for r in previous.descriptor["resources"]}
    tables = []
    for name in sorted(set(now) | set(before) | set(streamed)):
        if name in streamed:
            entry = dict(streamed[name])
            if name not in before:
                entry["situacao"] = "nova"
            tables.append(entry)
            continue
        if name in now:
            path = current_dir / now[name]["path"]
            if not path.is_file():
                raise ChangesError(f"Pacote atual incompleto: falta {path}.")
            after = _read_csv(path.read_bytes(), f"{name} de {current_dir}")
        else:
            after = previous.tables[name].iloc[0:0]
        old = previous.tables[name] if name in before else after.iloc[0:0]
        key = ((now.get(name) or before[name]).get("schema") or {}).get("primaryKey") or []
        entry = _compare_table(name, old, after, [key] if isinstance(key, str) else list(key), limit)
        if name not in before or name not in now:
            entry["situacao"] = "nova" if name not in before else "removida"
        tables.append(entry)
    version = previous.descriptor.get("version")
    # a CPF in the previous release (published before the screen knew its shape) is never republished
    return mask_cpf_in({"anterior": version if isinstance(version, str) else None,
                        "atual": current_descriptor.get("version"), "tabelas": tables})


def read_kept(path: Path) -> dict | None:
    """A kept release's ``mudancas.json`` (brought from the previous site), or None when it is not one
    this module wrote: a link, too large, too deep, or not of its shape. What it says is masked (LGPD)."""
    try:
        text = _regular_file(path, MAX_DESCRIPTOR_BYTES).decode("utf-8")
        if _nesting(text) > MAX_DEPTH:
            return None
        result = json.loads(text)
    except (ChangesError, ValueError, RecursionError):
        return None
    tables = result.get("tabelas") if isinstance(result, dict) else None
    shape = {"tabela": str, "situacao": str, "incluidos": int, "removidos": int, "alterados": int}
    if not isinstance(tables, list) or not all(
            isinstance(t, dict) and all(isinstance(t.get(k), kind) for k, kind in shape.items()) for t in tables):
        return None
    return mask_cpf_in(result)


def write(result: dict, out: Path) -> Path:
    """``result`` as compact UTF-8 JSON in ``out`` (or ``out/mudancas.json`` when ``out`` is a folder);
    the same result always gives the same bytes. Returns the file written."""
    out = Path(out)
    path = out / "mudancas.json" if out.is_dir() else out
    path.write_bytes((json.dumps(result, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8"))
    return path

