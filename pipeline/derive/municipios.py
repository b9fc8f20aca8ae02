"""The places the lines serve: IBGE codes on ``linhas`` and ``secoes``, and the ``municipios`` table.

A line serves the places it starts and ends at, and those its sections (art. 3 XXI) start and end at.
Each is resolved by :func:`pipeline.places.resolve`; see there for what stays unresolved.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..places import UNRESOLVED, Place, resolve


def endpoints(df: pd.DataFrame, which: str) -> list[Place]:
    """The place of ``<which>_municipio``/``<which>_uf`` of each row."""
    return [resolve(m, uf) for m, uf in zip(df[f"{which}_municipio"], df[f"{which}_uf"])]


def numbers_of(values) -> tuple[np.ndarray, np.ndarray]:
    """Each value's number among the distinct values, and those values: a missing one (None, NaN) is None,
    numbered after the others."""
    codes, uniques = pd.factorize(np.asarray(values, dtype=object))
    distinct = np.empty(len(uniques) + 1, dtype=object)
    distinct[:-1], distinct[-1] = uniques, None
    return np.where(codes < 0, len(uniques), codes), distinct


def place_numbers(names: tuple, ufs: tuple, fn) -> tuple[np.ndarray, np.ndarray]:
    """``fn(resolve(name, uf))`` of each distinct pair of a name and a UF, and each row's number among those
    pairs: ``names`` and ``ufs`` as each row's number and the distinct values (:func:`numbers_of`, or a
    batch's columns as the reader numbered them). ``fn`` runs once per pair: a national table names a few
    thousand places in millions of rows."""
    (a, first), (b, second) = names, ufs
    n = max(len(second), 1)
    key = np.asarray(a, dtype=np.int64) * n + b
    if len(first) * n <= 4 * len(key) + (1 << 16):  # few possible pairs: marked in a table, no sort
        present = np.zeros(len(first) * n, dtype=bool)
        present[key] = True
        pairs, where = np.flatnonzero(present), (np.cumsum(present) - 1)[key]
    else:
        pairs, where = np.unique(key, return_inverse=True)
    done = np.fromiter((fn(resolve(first[k // n], second[k % n])) for k in pairs.tolist()), dtype=object,
                       count=len(pairs))
    return done, where.reshape(-1)


def add_codes(df: pd.DataFrame, numbers: dict | None = None) -> None:
    """``origem_codigo_ibge`` and ``destino_codigo_ibge`` of each row (None where unresolved). ``numbers``: the
    columns as a batch's reader numbered them (``{column: (each row's number, distinct values)}``), where
    it did; the codes' columns are numbered there too (:func:`_add`)."""
    for which in ("origem", "destino"):
        names, ufs = (column_numbers(df, numbers, f"{which}_{c}") for c in ("municipio", "uf"))
        _add(df, numbers, f"{which}_codigo_ibge", *place_numbers(names, ufs, _code))


def add_code(df: pd.DataFrame, numbers: dict | None = None, municipio: str = "municipio", uf: str = "uf",
             code: str = "codigo_ibge") -> None:
    """The IBGE code of the one place of each row (a stop), None where unresolved."""
    _add(df, numbers, code, *place_numbers(column_numbers(df, numbers, municipio), column_numbers(df, numbers, uf),
                                            _code))


def _add(df: pd.DataFrame, numbers: dict | None, column: str, done: np.ndarray, where: np.ndarray) -> None:
    """Column ``column`` of ``df``, each row's value ``done[where]``; with ``numbers``, numbered there as it is
    made (each row's number among the pairs: a value may repeat, which the writers allow)."""
    df[column] = pd.Series(done[where], index=df.index, dtype=object)
    if numbers is not None:
        numbers[column] = (where.astype(np.int32), done)


def column_numbers(df: pd.DataFrame, numbers: dict | None, column: str) -> tuple[np.ndarray, np.ndarray]:
    """Column ``column`` of ``df`` as each row's number and the distinct values: as ``numbers`` holds it (a batch's
    columns as its reader numbered them), else numbered here (:func:`numbers_of`)."""
    got = (numbers or {}).get(column)
    return got if got is not None else numbers_of(df[column])


def _code(place: Place) -> str | None:
    return place.codigo_ibge


def municipios(linhas: pd.DataFrame, secoes: pd.DataFrame, columns: list[str]) -> pd.DataFrame:
    """One row per place a line or section names, sorted by key."""
    spellings: dict[str, set[str]] = {}
    lines: dict[str, set[str]] = {}
    places: dict[str, Place] = {}
    for df, prefix in ((linhas, linhas["prefixo"]), (secoes, secoes["linha_prefixo"])):
        for which in ("origem", "destino"):
            for place, name, line in zip(endpoints(df, which), df[f"{which}_municipio"], prefix):
                places[place.chave] = place
                spellings.setdefault(place.chave, set()).add(name)
                lines.setdefault(place.chave, set()).add(line)
    rows = []
    for key in sorted(places):
        p = places[key]
        rows.append({"chave": key, "codigo_ibge": p.codigo_ibge, "nome": p.nome, "uf": p.uf,
                     "grafias_na_fonte": " | ".join(sorted(spellings[key])), "resolucao": p.resolucao,
                     "motivo": p.motivo or None, "linhas": len(lines[key])})
    return pd.DataFrame(rows, columns=columns, dtype=object)


def unresolved(table: pd.DataFrame) -> list[dict]:
    """The rows of ``municipios`` left without an IBGE code."""
    return [r for r in table.to_dict("records") if r["resolucao"] == UNRESOLVED]
