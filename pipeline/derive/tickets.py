"""Monitriip's tickets summed per pair of places and month of travel: what a pair's page shows of the
``bilhetes`` table (pipeline/site/cities.py). Summed batch by batch as the table is read
(pipeline/build/batches.py): eight years of tickets are never whole in memory."""

from __future__ import annotations

import pandas as pd

from .municipios import per_place

KEYS = ("o", "d", "mes")  # origin's and destination's place keys, travel month; then the sums


def summary(df: pd.DataFrame) -> pd.DataFrame:
    """Per (origin, destination, travel month): all tickets, the paid ones (no kind of free ticket), the
    amount paid for the paid ones that state it (mean amount times tickets) and how many those are."""
    def keys(which: str):
        return per_place(df[f"{which}_municipio"], df[f"{which}_uf"], lambda place: place.chave)

    origin, destination = keys("origem"), keys("destino")
    n = pd.to_numeric(df["quantidade"], errors="coerce").fillna(0).astype("int64")
    paid = df["tipo_gratuidade"].isna() | (df["tipo_gratuidade"] == "")
    value = pd.to_numeric(df["valor_medio"], errors="coerce")
    priced = paid & value.notna()
    frame = pd.DataFrame({"o": pd.Series(origin, dtype=object), "d": pd.Series(destination, dtype=object),
                          "mes": pd.Series(df["mes_viagem"].tolist(), dtype=object),
                          "bilhetes": n.to_numpy(), "pagos": n.where(paid, 0).to_numpy(),
                          "pago_total": (value * n).where(priced, 0.0).to_numpy(dtype=float),
                          "pago_com_valor": n.where(priced, 0).to_numpy()})
    return frame.groupby(list(KEYS), sort=True, as_index=False).sum()
