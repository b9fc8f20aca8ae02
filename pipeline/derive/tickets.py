"""Monitriip's tickets summed per pair of places and month of travel: what a pair's page shows of the
``bilhetes`` table (pipeline/site/cities.py). Summed batch by batch as the table is read
(pipeline/build/batches.py): eight years of tickets are never whole in memory."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .municipios import column_numbers, place_numbers

KEYS = ("o", "d", "mes")  # origin's and destination's place keys, travel month; then the sums


def summary(df: pd.DataFrame, numbers: dict | None = None) -> pd.DataFrame:
    """Per (origin, destination, travel month), sorted: all tickets, the paid ones (no kind of free ticket),
    the amount paid for the paid ones that state it (mean amount times tickets) and how many those are.
    ``numbers``: the columns as a batch's reader numbered them (``{column: (each row's number, distinct
    values)}``), where it did; each distinct value is then read once, and the rows are summed by the
    numbers of their keys, sorted as the keys' texts are."""
    def column(name: str) -> tuple[np.ndarray, np.ndarray]:
        return column_numbers(df, numbers, name)

    def per_value(name: str, fn) -> np.ndarray:  # fn of each distinct value, spread to the rows
        codes, values = column(name)
        return np.asarray(fn(pd.Series(values, dtype=object)))[codes]

    def sorted_numbers(done: np.ndarray, where: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        codes, keys = pd.factorize(done, sort=True)  # numbered in the keys' order
        return codes[where], np.asarray(keys, dtype=object)

    origin, origins = sorted_numbers(*place_numbers(column("origem_municipio"), column("origem_uf"), _key))
    destination, destinations = sorted_numbers(*place_numbers(column("destino_municipio"), column("destino_uf"),
                                                              _key))
    codes, values = column("mes_viagem")
    month, months = sorted_numbers(values, codes)
    n = per_value("quantidade", lambda v: pd.to_numeric(v, errors="coerce").fillna(0).astype("int64"))
    paid = per_value("tipo_gratuidade", lambda v: v.isna() | (v == ""))
    value = per_value("valor_medio", lambda v: pd.to_numeric(v, errors="coerce").astype(float))
    priced = paid & ~np.isnan(value)
    kept = (origin >= 0) & (destination >= 0) & (month >= 0)  # a row with no key is in no sum (as pandas groups)
    if not kept.all():
        origin, destination, month, n, paid, value, priced = (a[kept] for a in (origin, destination, month, n, paid,
                                                                                  value, priced))
    frame = pd.DataFrame({"o": origin, "d": destination, "mes": month, "bilhetes": n, "pagos": np.where(paid, n, 0),
                          "pago_total": np.where(priced, value * n, 0.0), "pago_com_valor": np.where(priced, n, 0)})
    out = frame.groupby(list(KEYS), sort=True, as_index=False).sum()
    for key, texts in zip(KEYS, (origins, destinations, months)):
        out[key] = pd.Series(texts[out[key].to_numpy()], dtype=object)
    return out


def _key(place) -> str:
    return place.chave
