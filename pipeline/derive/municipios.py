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


def per_place(names, ufs, fn) -> np.ndarray:
    """``[fn(resolve(m, uf)) for m, uf in zip(names, ufs)]``, as an object array: ``fn`` run once per distinct
    pair of name and UF (a national table names a few thousand places in millions of rows)."""
    a, first = pd.factorize(np.asarray(names, dtype=object))
    b, second = pd.factorize(np.asarray(ufs, dtype=object))
    if (a < 0).any() or (b < 0).any():  # a missing name or UF: each row asked as it is
        return np.fromiter((fn(resolve(m, u)) for m, u in zip(names, ufs)), dtype=object, count=len(a))
    pairs, where = np.unique(a.astype(np.int64) * max(len(second), 1) + b, return_inverse=True)
    n = max(len(second), 1)
    done = np.fromiter((fn(resolve(first[k // n], second[k % n])) for k in pairs.tolist()), dtype=object,
                       count=len(pairs))
    return done[where.reshape(-1)]


def add_codes(df: pd.DataFrame) -> None:
    """``origem_codigo_ibge`` and ``destino_codigo_ibge`` of each row (None where unresolved)."""
    for which in ("origem", "destino"):
        df[f"{which}_codigo_ibge"] = pd.Series(per_place(df[f"{which}_municipio"], df[f"{which}_uf"], _code),
                                               index=df.index, dtype=object)


def add_code(df: pd.DataFrame, municipio: str = "municipio", uf: str = "uf", code: str = "codigo_ibge") -> None:
    """The IBGE code of the one place of each row (a stop), None where unresolved."""
    df[code] = pd.Series(per_place(df[municipio], df[uf], _code), index=df.index, dtype=object)


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
