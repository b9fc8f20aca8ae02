"""What changed between two published releases of the data package (``mudancas.json``).

Both releases are read as text (every cell a string, as written in the CSV) and compared table by
table with pandas merges: rows are matched by the table's ``primaryKey``; a table without one by its
whole row less the columns the portal computes, as a multiset (two identical rows count twice). What
the sources changed is kept apart from what the portal recomputed (the fields the descriptor marks
``"derived": true`` and the tables it makes whole): :func:`compare`. Only columns present in both
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
from datetime import date
from pathlib import Path

import numpy as np
import pandas as pd

from ..contract.identifiers import mask_cpf_in
from ..read.source import FIELD_LIMIT, csv_error_pt

_COUNT = "\x00ocorrencia"  # occurrence number of a repeated row in a table without primaryKey
_BEFORE = "\x00antes"  # suffix of the previous release's columns in a merge
_LISTS = ("incluidos", "removidos", "alterados", "recalculados")


class ChangesError(RuntimeError):
    """The previous release (or a table of the current one) cannot be read."""


@dataclass
class Package:
    """A published release: its descriptor and each resource's CSV as a frame of strings, but a table read
    in batches (pipeline/build/batches.py), whose CSV is named in ``files`` (a local path or a URL) and compared
    as a stream (:func:`compare_streamed`)."""
    where: str
    descriptor: dict
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    files: dict[str, Path | str] = field(default_factory=dict)
    name: str | None = None  # its version name (pipeline/release/versions.py version_of)


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


def _resources(descriptor, label: str, assets: str = "") -> dict[str, str]:
    """The previous descriptor's resources as {table: CSV file name}, each checked: a portal table name,
    a plain CSV name inside the same folder (or, with ``assets``, a release's asset under that address:
    ``<assets><versão>/<arquivo>.csv``, pipeline/publish/hosting.py), each table once."""
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
        if not isinstance(path, str) or not (_CSV_NAME.match(path) or _asset(path, assets)):
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


def _asset(path: str, assets: str) -> bool:
    """Whether ``path`` is a CSV among a release's assets at ``assets`` (``<versoes-url>/download/``)."""
    if not assets or not path.startswith(assets):
        return False
    version, _, name = path[len(assets):].partition("/")
    from .versions import version_name

    return version_name(version) and bool(_CSV_NAME.match(name))


def load_previous(where: str, streamed=frozenset(), assets: str = "") -> Package:
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
        if _asset(path, assets):  # served by the release only
            return _fetch(path, limit)
        return _fetch(base + path, limit) if remote else _regular_file(base / path, limit)

    label = f"{base}datapackage.json" if remote else str(base / "datapackage.json")
    raw = read("datapackage.json", MAX_DESCRIPTOR_BYTES)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ChangesError(f"Descritor inválido em {label}: não está em UTF-8.") from None
    if _nesting(text) > MAX_DEPTH:
        raise ChangesError(f"Descritor inválido em {label}: aninhado mais de {MAX_DEPTH} níveis.")
    try:
        descriptor = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise ChangesError(f"Descritor inválido em {label}: {exc}") from None
    paths = _resources(descriptor, label, assets)
    tables = {name: _read_csv(read(path, MAX_TABLE_BYTES), f"{name} ({path}) de {where}")
              for name, path in paths.items() if name not in streamed}
    files = {name: (path if _asset(path, assets) else base + path if remote else base / path)
             for name, path in paths.items() if name in streamed}
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
    return Package(where, descriptor, tables, files, _name_of(raw, descriptor.get("version")))


def _records(frame: pd.DataFrame, columns: list[str], names: list[str] | None = None) -> list[dict]:
    """Each row of ``frame`` as {name: cell} over ``columns`` (named ``names`` when given)."""
    names = columns if names is None else names
    return [dict(zip(names, row)) for row in zip(*(frame[c].tolist() for c in columns))] if columns \
        else [{} for _ in range(len(frame))]


def derived_fields(*resources) -> set[str]:
    """The fields the portal computes in these descriptor resources: ``"derived": true`` in the published
    descriptor (pipeline/publish/datapackage.py marks each of the schema's ``derivedFields``) or a copy of
    another table's column (``x-juncao``: a carrier's name beside its CNPJ, in the tables the portal makes
    too). Read defensively: a previous release's descriptor is input."""
    names = set()
    for r in resources:
        schema = r.get("schema") if isinstance(r, dict) else None
        fields = schema.get("fields") if isinstance(schema, dict) else None
        for f in fields if isinstance(fields, list) else []:
            if isinstance(f, dict) and (f.get("derived") is True or isinstance(f.get("x-juncao"), dict)) \
                    and isinstance(f.get("name"), str):
                names.add(f["name"])
    return names


def computed_tables() -> set[str]:
    """The tables the portal makes whole (the schema's ``publishedResources``: achados, inconsistencias,
    municipios, rejeitados): every change in them is recomputed, none is a source's."""
    from ..contract.schema import load_schema

    return {r["name"] for r in load_schema().descriptor.get("publishedResources", [])}


def _roles(common: list[str], key: list[str], derived, computed: bool) -> tuple[bool, list[str], list[str], list[str]]:
    """How a table's common columns are compared: whether rows are matched by the primary key; the columns
    that identify a row (the key, or for a table without one its whole row less the derived columns, as a
    multiset); the recomputed columns (the derived ones, or every other column of a table the portal
    makes); the rest, what the sources state."""
    keyed = bool(key) and all(k in common for k in key)
    if keyed:
        match = list(key)
    else:
        match = [c for c in common if c not in derived] or list(common)
    rest = [c for c in common if c not in match]
    recomputed = [c for c in rest if computed or c in derived]
    return keyed, match, recomputed, [c for c in rest if c not in recomputed]


def _entry(name: str, key: list[str], keyed: bool, before_columns, after_columns, recomputed: list[str],
           computed: bool, counts: dict[str, int], lines: dict[str, list]) -> dict:
    """One table's entry in ``mudancas.json``, the same for a whole table and one read in batches."""
    entry = {"tabela": name, "chave": list(key) if keyed else [],
             "colunas_novas": sorted(set(after_columns) - set(before_columns)),
             "colunas_removidas": sorted(set(before_columns) - set(after_columns)),
             "calculada": computed, "colunas_recalculadas": recomputed}
    entry.update(counts, linhas=lines)
    if any(len(lines[k]) < entry[k] for k in _LISTS):
        entry["truncado"] = True
    stated = entry["incluidos"] or entry["removidos"] or entry["alterados"] \
        or entry["colunas_novas"] or entry["colunas_removidas"]
    if computed:
        entry["situacao"] = "recalculada" if stated or entry["recalculados"] else "sem_mudancas"
    else:
        entry["situacao"] = "alterada" if stated else "recalculada" if entry["recalculados"] else "sem_mudancas"
    return entry


def _compare_table(name: str, before: pd.DataFrame, after: pd.DataFrame, key: list[str], limit: int | None,
                   derived=frozenset(), computed: bool = False, rows: dict | None = None) -> dict:
    """One table's entry: rows added, removed (whole), changed by the sources and recomputed, matched by
    ``key`` or, without one, by the whole row less its ``derived`` columns (see :func:`compare`).

    ``rows``, when given, receives every row of each change, not cut at ``limit``: the rows added and removed
    as frames of their cells (``incluidos``, ``removidos``: no object per row, a night may change them all),
    the rows changed and recomputed as the entry lists them (``alterados``, ``recalculados``)."""
    common = [c for c in after.columns if c in before.columns]
    keyed, match, recomputed, stated = _roles(common, key, derived, computed)
    on = match if keyed else match + [_COUNT]
    left, right = before.copy(), after.copy()
    if not keyed:  # multiset: the n-th copy of a row matches the n-th copy
        left[_COUNT] = left.groupby(match, sort=False).cumcount() if match else range(len(left))
        right[_COUNT] = right.groupby(match, sort=False).cumcount() if match else range(len(right))
    try:
        merged = left.merge(right, on=on, how="outer", suffixes=(_BEFORE, ""), indicator=True,
                            validate="one_to_one", sort=False)
    except pd.errors.MergeError:
        raise ChangesError(f"Chave primária repetida na tabela {name} ({', '.join(match)}).") from None
    merged = merged.sort_values(on, kind="stable")
    cut = (lambda f: f) if limit is None else (lambda f: f.head(limit))
    added, removed = merged[merged["_merge"] == "right_only"], merged[merged["_merge"] == "left_only"]
    both = merged[merged["_merge"] == "both"]

    def differ(columns):
        if not columns:
            return pd.DataFrame(index=both.index), pd.Series(False, index=both.index)
        frame = pd.DataFrame({c: both[c + _BEFORE] != both[c] for c in columns}, index=both.index)
        return frame, frame.any(axis=1)

    stated_diff, by_sources = differ(stated)
    recomputed_diff, by_portal = differ(recomputed)
    changed, recalculated = both[by_sources], both[~by_sources & by_portal]
    previous_names = [c + _BEFORE if c in common and c not in on else c for c in before.columns]

    def fields(frame, diff, columns):
        return [{c: {"antes": row[c + _BEFORE], "depois": row[c]} for c in columns if d[c]}
                for row, d in zip(_records(frame, [c + s for c in columns for s in (_BEFORE, "")]),
                                  _records(diff.loc[frame.index], columns))]

    lines = {
        "incluidos": [{"chave": k, "registro": r} for k, r in
                      zip(_records(cut(added), match), _records(cut(added), list(after.columns)))],
        "removidos": [{"chave": k, "registro": r} for k, r in
                      zip(_records(cut(removed), match), _records(cut(removed), previous_names, list(before.columns)))],
        "alterados": [{"chave": k, "campos": s, "recalculados": p} for k, s, p in
                      zip(_records(cut(changed), match), fields(cut(changed), stated_diff, stated),
                          fields(cut(changed), recomputed_diff, recomputed))],
        "recalculados": [{"chave": k, "campos": p} for k, p in
                         zip(_records(cut(recalculated), match), fields(cut(recalculated), recomputed_diff, recomputed))],
    }
    counts = {"incluidos": len(added), "removidos": len(removed), "alterados": len(changed),
              "recalculados": len(recalculated)}
    if rows is not None:
        rows["incluidos"] = added[list(after.columns)].reset_index(drop=True)
        rows["removidos"] = removed[previous_names].set_axis(list(before.columns), axis=1).reset_index(drop=True)
        rows["alterados"] = [{"chave": k, "campos": s, "recalculados": p} for k, s, p in
                             zip(_records(changed, match), fields(changed, stated_diff, stated),
                                 fields(changed, recomputed_diff, recomputed))]
        rows["recalculados"] = [{"chave": k, "campos": p} for k, p in
                                zip(_records(recalculated, match), fields(recalculated, recomputed_diff, recomputed))]
    return _entry(name, key, keyed, before.columns, after.columns, recomputed, computed, counts, lines)


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


def _hashed(rows, positions: list[int], others: list[int] | None = None) -> tuple[np.ndarray, ...]:
    """Two salted 64-bit hashes of each row's cells at ``positions`` (as pipeline/build/batches.py compares rows),
    and with ``others`` a third of its cells there (the recomputed columns: one hash, a difference only)."""
    a, b, d = [], [], []
    for cells in rows:
        common = tuple(cells[p] for p in positions)
        a.append(hash(("a", common)))
        b.append(hash(("b", common)))
        if others is not None:
            d.append(hash(("d", tuple(cells[p] for p in others))))
    hashes = (np.array(a, dtype=np.int64), np.array(b, dtype=np.int64))
    return hashes if others is None else hashes + (np.array(d, dtype=np.int64),)


def _occurrences(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Each row's copy number among the rows of the same hashes, in the file's order (the n-th copy of a
    row is matched with the n-th copy of the other release)."""
    n = len(a)
    if not n:
        return np.zeros(0, dtype=np.int32)
    order = np.lexsort((b, a))  # stable: equal rows stay in the file's order
    new = np.zeros(n, dtype=bool)
    new[0] = True
    for column in (a, b):
        ordered = column[order]
        new[1:] |= ordered[1:] != ordered[:-1]
        del ordered
    starts = np.flatnonzero(new)
    del new
    occurrence = np.empty(n, dtype=np.int32)
    occurrence[order] = np.arange(n, dtype=np.int64) - np.repeat(starts, np.diff(np.append(starts, n)))
    return occurrence


@dataclass
class _Matched:
    """How the rows of two releases of a table read in batches match (:func:`_match`), by row number in each
    file: the rows of each without a match, each row's copy number, and the matched rows whose recomputed
    cells differ (their numbers in the current file, ascending, and their matches' in the previous one)."""
    removed: np.ndarray  # bool, per previous row
    added: np.ndarray  # bool, per current row
    before_copy: np.ndarray
    after_copy: np.ndarray
    recomputed_after: np.ndarray
    recomputed_before: np.ndarray


def _match(before: tuple[np.ndarray, ...], after: tuple[np.ndarray, ...]) -> _Matched:
    """Match the rows of two files by their hashes (:func:`_hashed`), the n-th copy of a row with the n-th
    copy, as :func:`_compare_table` matches them, with arrays only (no object per row: a table read in
    batches has millions). A third hash on each side, of the recomputed cells, tells the matched rows
    whose recomputed cells differ."""
    nb, na = len(before[0]), len(after[0])
    before_copy, after_copy = _occurrences(before[0], before[1]), _occurrences(after[0], after[1])
    a = np.concatenate([before[0], after[0]])
    b = np.concatenate([before[1], after[1]])
    o = np.concatenate([before_copy, after_copy])
    order = np.lexsort((o, b, a))  # a row and copy is one row of each file: two equal neighbours are a match
    same = np.ones(max(len(order) - 1, 0), dtype=bool)
    for column in (a, b, o):
        ordered = column[order]
        same &= ordered[1:] == ordered[:-1]
        del ordered
    del a, b, o
    at = np.flatnonzero(same)
    del same
    first, second = order[at], order[at + 1]
    del order, at
    lo, hi = np.minimum(first, second), np.maximum(first, second) - nb  # a previous row, its current match
    del first, second
    removed, added = np.ones(nb, dtype=bool), np.ones(na, dtype=bool)
    removed[lo], added[hi] = False, False
    if len(before) > 2:
        differ = before[2][lo] != after[2][hi]
        lo, hi = lo[differ], hi[differ]
        by_row = np.argsort(hi, kind="stable")
        lo, hi = lo[by_row], hi[by_row]
    else:
        lo, hi = lo[:0], hi[:0]
    return _Matched(removed, added, before_copy, after_copy, hi, lo)


def _first_rows(rows, positions: list[int], chosen: np.ndarray, copies: np.ndarray, limit: int | None) -> list[tuple]:
    """The first ``limit`` of the ``chosen`` rows (a mask by row number) in the order of their cells at
    ``positions``, then of their copy number (:func:`_compare_table`'s order): [(row number, cells)]."""
    import heapq

    heap: list = []  # (negated order, row number, cells), the largest first
    for number, cells in enumerate(rows):
        if not chosen[number]:
            continue
        common = tuple(cells[p] for p in positions)
        if limit is not None and len(heap) >= limit and common > heap[0][0].order[0]:
            continue
        item = (_Reverse((common, int(copies[number]))), number, cells)
        if limit is None or len(heap) < limit:
            heapq.heappush(heap, item)
        elif item[0].order < heap[0][0].order:
            heapq.heapreplace(heap, item)
    return [(number, cells) for _, number, cells in sorted(heap, key=lambda x: x[0].order)]


def _rows_numbered(rows, numbers: set[int]) -> dict[int, list[str]]:
    """{row number: cells} for the rows of ``numbers``."""
    return {number: cells for number, cells in enumerate(rows) if number in numbers}


class _Reverse:
    """An order reversed: a heap of the smallest items keeps its largest on top."""

    __slots__ = ("order",)

    def __init__(self, order):
        self.order = order

    def __lt__(self, other):
        return self.order > other.order


def compare_streamed(name: str, previous: Package, current_csv: Path, current_columns: list[str],
                     limit: int | None = None, derived=()) -> dict:
    """:func:`compare`'s entry for a table without a key read in batches (pipeline/build/batches.py), whose rows
    are matched by the whole row less the ``derived`` columns (and those the previous release marks derived)
    as a multiset, as :func:`_compare_table` matches them, but never held: each row is hashed (two salted
    64-bit hashes of the cells that identify it, one of its derived cells), the rows matched with arrays,
    and the files read again for the first ``limit`` rows of each list."""
    source = previous.files.get(name)
    label_before = f"{name} de {previous.where}"
    before_columns = next(iter(_rows_of(source, label_before))) if source is not None else list(current_columns)
    common = [c for c in current_columns if c in before_columns]
    resources = previous.descriptor.get("resources") if isinstance(previous.descriptor, dict) else None
    derived = set(derived) | derived_fields(*[r for r in resources or [] if isinstance(r, dict) and r.get("name") == name])
    _, match, recomputed, _ = _roles(common, [], derived, False)
    after_at = [current_columns.index(c) for c in match]
    before_at = [before_columns.index(c) for c in match]
    after_others = [current_columns.index(c) for c in recomputed] if recomputed else None
    before_others = [before_columns.index(c) for c in recomputed] if recomputed else None

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

    matched = _match(_hashed(before_rows(), before_at, before_others), _hashed(after_rows(), after_at, after_others))
    added, removed, recalculated = int(matched.added.sum()), int(matched.removed.sum()), len(matched.recomputed_after)
    listed_added = _first_rows(after_rows(), after_at, matched.added, matched.after_copy, limit) if added else []
    listed_removed = _first_rows(before_rows(), before_at, matched.removed, matched.before_copy, limit) if removed else []
    listed_pairs, earlier = [], {}
    if recalculated:
        chosen = np.zeros(len(matched.added), dtype=bool)
        chosen[matched.recomputed_after] = True
        listed_pairs = _first_rows(after_rows(), after_at, chosen, matched.after_copy, limit)
        numbers = np.array([number for number, _ in listed_pairs], dtype=np.int64)
        partners = matched.recomputed_before[np.searchsorted(matched.recomputed_after, numbers)].tolist()
        found = _rows_numbered(before_rows(), set(partners))
        earlier = {number: found[partner] for number, partner in zip(numbers.tolist(), partners)}
    after_of = dict(zip(recomputed, after_others or []))
    before_of = dict(zip(recomputed, before_others or []))
    lines = {
        "incluidos": [{"chave": dict(zip(match, (cells[p] for p in after_at))),
                       "registro": dict(zip(current_columns, cells))} for _, cells in listed_added],
        "removidos": [{"chave": dict(zip(match, (cells[p] for p in before_at))),
                       "registro": dict(zip(before_columns, cells))} for _, cells in listed_removed],
        "alterados": [],
        "recalculados": [{"chave": dict(zip(match, (cells[p] for p in after_at))),
                          "campos": {c: {"antes": earlier[number][before_of[c]], "depois": cells[after_of[c]]}
                                     for c in recomputed if earlier[number][before_of[c]] != cells[after_of[c]]}}
                         for number, cells in listed_pairs],
    }
    counts = {"incluidos": added, "removidos": removed, "alterados": 0, "recalculados": recalculated}
    return _entry(name, [], False, before_columns, current_columns, recomputed, False, counts, lines)


def compare(previous: Package, current_dir: Path, current_descriptor: dict, limit: int | None = None,
            streamed: dict[str, dict] | None = None, computed=None, done: dict[str, dict] | None = None) -> dict:
    """What changed from ``previous`` to the release in ``current_dir`` described by ``current_descriptor``.

    Every table of either release gets an entry (sorted by name) with counts, the rows themselves (sorted
    by key; at most ``limit`` per list, ``"truncado": true`` when cut) and a ``situacao``: ``alterada``
    (the sources changed it), ``recalculada`` (only what the portal computes changed), ``sem_mudancas``,
    ``nova`` (all rows included) or ``removida`` (all rows removed).

    What the sources changed is kept apart from what the portal recomputed: a field either release marks
    ``"derived": true`` (situations, deadlines, flags as of ``--as-of``, a carrier's name copied beside its
    CNPJ, IBGE codes) is recomputed, and a row where only such fields differ is counted in ``recalculados``,
    not ``alterados``; a row the sources changed lists its stated fields in ``campos`` and its recomputed
    ones in ``recalculados``. The tables in ``computed`` (default: :func:`computed_tables`) are made by the
    portal: every change in them is recomputed (``"calculada": true``, ``situacao`` ``recalculada``).

    A table's ``chave`` is its primaryKey when present in both releases; else ``[]``, and a row is
    identified by its whole row less the recomputed columns (each row's ``chave`` then holds those cells),
    as a multiset (the n-th copy matches the n-th copy). A removed row is carried whole (``registro``), as
    an added one is. ``resumo`` adds up what the sources changed and what was recomputed, apart.

    ``done``: tables already compared the same way, at the same ``limit`` (pipeline/release/routes.py
    ``compared``, before the pages, for each page's feed): their entries are taken as made."""
    streamed = streamed or {}  # table -> its entry, made by compare_streamed (pipeline/build/batches.py)
    done = done or {}  # table -> its entry, made by routes.compared
    computed = computed_tables() if computed is None else set(computed)
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
        if name in done and name in now and name in before:
            tables.append(done[name])
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
        entry = _compare_table(name, old, after, [key] if isinstance(key, str) else list(key), limit,
                               derived_fields(*(r for r in (now.get(name), before.get(name)) if r)), name in computed)
        if name not in before or name not in now:
            entry["situacao"] = "nova" if name not in before else "removida"
        tables.append(entry)
    version = previous.descriptor.get("version")
    # a CPF in the previous release (published before the screen knew its shape) is never republished
    return _masked({"anterior": version if isinstance(version, str) else None,
                    "atual": current_descriptor.get("version"),
                    "versao_anterior": previous.name, "versao_atual": _version_of(current_dir, current_descriptor),
                    "resumo": summary(tables), "tabelas": tables})


_VERSION_FIELDS = ("versao_anterior", "versao_atual")


def _masked(result: dict) -> dict:
    """``result`` with every CPF masked (LGPD) but in its version names, which are the portal's own
    (``AAAA-MM-DD-<hash>``, pipeline/release/versions.py): a date and a hash whose digits may read as a CPF's
    by chance. A version field of any other shape is masked as the rest."""
    from .versions import VERSION_NAME

    kept = {k: result[k] for k in _VERSION_FIELDS
            if isinstance(result.get(k), str) and VERSION_NAME.match(result[k])}
    return {**mask_cpf_in(result), **kept}


def summary(tables: list[dict]) -> dict:
    """What the sources changed (rows included, removed and changed in the tables they supply) and what the
    portal recomputed (rows of those tables whose derived fields alone changed, and the rows of the tables
    it makes), apart. A change log written before this distinction counts its changed rows as the sources'."""
    def total(rows, kind):
        return sum(t.get(kind, 0) for t in rows if isinstance(t.get(kind, 0), int))

    stated = [t for t in tables if not t.get("calculada")]
    made = [t for t in tables if t.get("calculada")]
    return {"fontes": {k: total(stated, k) for k in ("incluidos", "removidos", "alterados")},
            "recalculados": total(stated, "recalculados"),
            "tabelas_calculadas": {k: total(made, k) for k in ("incluidos", "removidos", "recalculados")}}


def _version_of(folder: Path, descriptor: dict) -> str | None:
    """The version name (pipeline/release/versions.py ``version_of``) of the release whose
    ``datapackage.json`` is in ``folder``."""
    return _name_of(folder / "datapackage.json", descriptor.get("version"))


def _name_of(source, version) -> str | None:
    from .versions import name_of

    try:
        data = source if isinstance(source, bytes) else Path(source).read_bytes()
        return name_of(data, date.fromisoformat(version[:10])) if isinstance(version, str) else None
    except (OSError, ValueError):
        return None


FEED_ENTRIES = 20  # the releases the feed of changes lists


def kept_changes(versions: Path, limit: int = FEED_ENTRIES) -> list[tuple[str, dict]]:
    """``(versão, mudancas.json)`` of the kept releases under ``versions`` that were compared with the one
    before them, newest first, at most ``limit``; a change log this module did not write is left out."""
    from .versions import newest_first

    kept = [versions / name for name in newest_first(versions) if (versions / name / "mudancas.json").is_file()]
    return [(p.name, result) for p in kept if (result := read_kept(p / "mudancas.json")) is not None][:limit]


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
    return _masked(result)


def write(result: dict, out: Path) -> Path:
    """``result`` as compact UTF-8 JSON in ``out`` (or ``out/mudancas.json`` when ``out`` is a folder);
    the same result always gives the same bytes. Returns the file written."""
    out = Path(out)
    path = out / "mudancas.json" if out.is_dir() else out
    path.write_bytes((json.dumps(result, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8"))
    return path

