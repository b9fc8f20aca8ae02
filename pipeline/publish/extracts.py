"""One carrier's records as downloads: its lines and its timetable, cut from the whole tables with the same
columns and the same cells (``tabular.write_csv``), at ``/dados/por-transportadora/<cnpj>/<table>.csv``.

A carrier's lines are those it has a departure or an outorga on in the sources, as its page lists them
(theme/templates/transportadora.html); its timetable, its own departures. Only carriers of the
``transportadoras`` table (a CNPJ of 14 digits: no other text becomes a path) with at least one row get a
file of that table. The carrier's page links them from :func:`counts`, made from the same tables."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd

FOLDER = "por-transportadora"
_CNPJ = re.compile(r"[0-9]{14}")


def rows(tables: dict[str, pd.DataFrame]) -> dict[str, dict[str, np.ndarray]]:
    """``{cnpj: {table: the positions of its rows}}``, for each carrier with a row of ``linhas`` or ``horarios``
    (in that order, as the page lists them)."""
    carriers = tables.get("transportadoras")
    if carriers is None or not len(carriers):
        return {}
    known = {c for c in carriers["cnpj"].tolist() if isinstance(c, str) and _CNPJ.fullmatch(c)}
    empty = pd.DataFrame({"transportadora_cnpj": [], "linha_prefixo": []})
    departures = tables.get("horarios", empty)
    grants = tables.get("outorgas", empty)
    lines = tables.get("linhas", pd.DataFrame({"prefixo": []}))
    out: dict[str, dict[str, np.ndarray]] = {}
    by_carrier = departures.groupby("transportadora_cnpj", sort=True).indices if len(departures) else {}
    prefixes: dict[str, set] = {}
    for frame in (departures, grants):
        if len(frame):
            for cnpj, prefix in zip(frame["transportadora_cnpj"].tolist(), frame["linha_prefixo"].tolist()):
                if cnpj in known and isinstance(prefix, str) and prefix:
                    prefixes.setdefault(cnpj, set()).add(prefix)
    line_prefixes = lines["prefixo"].to_numpy(dtype=object)
    for cnpj in sorted(known):
        mine = {}
        if cnpj in prefixes:
            mine["linhas"] = np.flatnonzero(np.isin(line_prefixes, sorted(prefixes[cnpj])))
        if cnpj in by_carrier:
            mine["horarios"] = np.sort(by_carrier[cnpj])
        mine = {t: p for t, p in mine.items() if len(p)}
        if mine:
            out[cnpj] = mine
    return out


def counts(tables: dict[str, pd.DataFrame]) -> dict[str, dict[str, int]]:
    """``{cnpj: {table: rows}}``: what a carrier's page offers to download."""
    return {cnpj: {t: len(p) for t, p in mine.items()} for cnpj, mine in rows(tables).items()}


def path(cnpj: str, table: str) -> str:
    """The file of a carrier's rows of ``table``, under ``/dados/``."""
    return f"{FOLDER}/{cnpj}/{table}.csv"


TABLES = ("linhas", "horarios")  # the tables a carrier's files cut


def write(tables: dict[str, pd.DataFrame], out: Path, written: dict[str, tuple[Path, np.ndarray]]) -> int:
    """Every carrier's files under ``out`` (the site's ``dados/``); returns how many were written. ``written``:
    each table of :data:`TABLES` as its whole CSV file, already written, and where that file's header and each
    of its rows end (``tabular.write_csv(..., lines=True)``). A carrier's file is the header and its rows' lines
    copied from those bytes: the bytes ``tabular.write_csv`` makes of its rows alone."""
    whole = {table: (memoryview(Path(csv_path).read_bytes()), ends) for table, (csv_path, ends) in written.items()}
    count = 0
    for cnpj, mine in rows(tables).items():
        for table, positions in mine.items():
            target = out / path(cnpj, table)
            target.parent.mkdir(parents=True, exist_ok=True)
            data, ends = whole[table]
            target.write_bytes(b"".join([data[:ends[0]], *(data[ends[p]:ends[p + 1]] for p in positions.tolist())]))
            count += 1
    return count
