"""What changed between two published releases of the data package (``mudancas.json``).

Both releases are read as text (every cell a string, as written in the CSV) and compared table by
table with pandas merges: rows are matched by the table's ``primaryKey``; a table without one is
compared by whole rows, as a multiset (two identical rows count twice). Only columns present in both
releases are compared; the others are listed as ``colunas_novas`` / ``colunas_removidas``.
"""

from __future__ import annotations

import io
import json
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

_COUNT = "\x00ocorrencia"  # occurrence number of a repeated row in a table without primaryKey
_LISTS = ("incluidos", "removidos", "alterados")


class ChangesError(RuntimeError):
    """The previous release (or a table of the current one) cannot be read."""


@dataclass
class Package:
    """A published release: its descriptor and each resource's CSV as a frame of strings."""
    where: str
    descriptor: dict
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)


def _read_csv(data, label: str) -> pd.DataFrame:
    try:
        return pd.read_csv(data, dtype=str, keep_default_na=False, na_filter=False, encoding="utf-8")
    except (OSError, ValueError, pd.errors.ParserError) as exc:  # EmptyDataError and UnicodeDecodeError are ValueErrors
        raise ChangesError(f"Não foi possível ler a tabela {label}: {exc}") from exc


def _fetch(url: str) -> bytes:
    try:
        with urllib.request.urlopen(url, timeout=120) as response:  # noqa: S310 - http(s) only, checked
            return response.read()
    except (urllib.error.URLError, OSError, TimeoutError) as exc:
        raise ChangesError(f"Não foi possível baixar {url}: {exc}") from exc


def _local_folder(where: str) -> Path:
    """The folder holding ``datapackage.json``: ``where`` itself or, for a site's root, ``where/dados``."""
    for folder in (Path(where), Path(where) / "dados"):
        if (folder / "datapackage.json").is_file():
            return folder
    raise ChangesError(f"Pacote anterior não encontrado: não há datapackage.json em {where} (nem em {where}/dados).")


def load_previous(where: str) -> Package:
    """The release at ``where``: an ``http(s)://`` URL of a ``dados/`` folder, or a local folder holding
    ``datapackage.json`` (a ``dados/`` folder) or ``dados/datapackage.json`` (a site's root)."""
    where = str(where)
    remote = where.startswith(("http://", "https://"))
    base = where.rstrip("/") + "/" if remote else _local_folder(where)

    def source(path: str):
        if remote:
            return io.BytesIO(_fetch(base + path))
        if not (base / path).is_file():
            raise ChangesError(f"Pacote anterior incompleto: falta {base / path}.")
        return base / path

    label = f"{base}datapackage.json" if remote else str(base / "datapackage.json")
    try:
        descriptor = json.loads(source("datapackage.json").read().decode("utf-8") if remote
                                else (base / "datapackage.json").read_bytes().decode("utf-8"))
        resources = descriptor["resources"]
        paths = {r["name"]: r["path"] for r in resources}
    except (ValueError, KeyError, TypeError) as exc:
        raise ChangesError(f"Descritor inválido em {label}: {exc}") from exc
    tables = {name: _read_csv(source(path), f"{name} ({path}) de {where}") for name, path in paths.items()}
    return Package(where, descriptor, tables)


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
    except pd.errors.MergeError as exc:
        raise ChangesError(f"Chave primária repetida na tabela {name} ({', '.join(key)}): {exc}") from exc
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


def compare(previous: Package, current_dir: Path, current_descriptor: dict, limit: int | None = None) -> dict:
    """What changed from ``previous`` to the release in ``current_dir`` described by ``current_descriptor``.

    Every table of either release gets an entry (sorted by name) with counts, the rows themselves
    (sorted by key; at most ``limit`` per list, ``"truncado": true`` when cut) and a ``situacao``:
    ``alterada``, ``sem_mudancas``, ``nova`` (all rows included) or ``removida`` (all rows removed).
    A table's ``chave`` is its primaryKey when present in both releases, else ``[]`` and rows are
    compared whole (over the common columns) as a multiset."""
    current_dir = Path(current_dir)
    now = {r["name"]: r for r in current_descriptor["resources"]}
    before = {r["name"]: r for r in previous.descriptor["resources"]}
    tables = []
    for name in sorted(set(now) | set(before)):
        if name in now:
            path = current_dir / now[name]["path"]
            if not path.is_file():
                raise ChangesError(f"Pacote atual incompleto: falta {path}.")
            after = _read_csv(path, f"{name} de {current_dir}")
        else:
            after = previous.tables[name].iloc[0:0]
        old = previous.tables[name] if name in before else after.iloc[0:0]
        key = (now.get(name) or before[name])["schema"].get("primaryKey") or []
        entry = _compare_table(name, old, after, [key] if isinstance(key, str) else list(key), limit)
        if name not in before or name not in now:
            entry["situacao"] = "nova" if name not in before else "removida"
        tables.append(entry)
    return {"anterior": previous.descriptor.get("version"), "atual": current_descriptor.get("version"),
            "tabelas": tables}


def write(result: dict, out: Path) -> Path:
    """``result`` as compact UTF-8 JSON in ``out`` (or ``out/mudancas.json`` when ``out`` is a folder);
    the same result always gives the same bytes. Returns the file written."""
    out = Path(out)
    path = out / "mudancas.json" if out.is_dir() else out
    path.write_bytes((json.dumps(result, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8"))
    return path

