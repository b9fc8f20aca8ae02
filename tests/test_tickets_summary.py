"""Monitriip's tickets summed per pair of places and month (pipeline/derive/tickets.py): what a pair's page
shows, worked out by hand on a few rows, from a frame and from a batch's columns as its reader numbered them."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from pipeline.contract.schema import load_schema
from pipeline.derive import derive_columns
from pipeline.derive.tickets import summary
from pipeline.read.columns import Columns
from pipeline.validate.distinct import Verdicts

# two spellings of São Paulo are one place; a free ticket is not paid; a paid ticket with no amount is paid
# but not in the amount's mean
ROWS = [  # mes_viagem, origem, destino, tipo_gratuidade, quantidade, valor_medio
    ("2025-02", ("SAO PAULO", "SP"), ("RIO DE JANEIRO", "RJ"), "", "10", "100.5"),
    ("2025-02", ("São Paulo", "SP"), ("RIO DE JANEIRO", "RJ"), "Idoso", "3", "0.0"),
    ("2025-01", ("SAO PAULO", "SP"), ("RIO DE JANEIRO", "RJ"), "", "4", ""),
    ("2025-01", ("RIO DE JANEIRO", "RJ"), ("SAO PAULO", "SP"), "", "2", "90.0"),
]
EXPECTED = [  # o, d, mes, bilhetes, pagos, pago_total, pago_com_valor
    ("rj/rio-de-janeiro", "sp/sao-paulo", "2025-01", 2, 2, 180.0, 2),
    ("sp/sao-paulo", "rj/rio-de-janeiro", "2025-01", 4, 4, 0.0, 0),
    ("sp/sao-paulo", "rj/rio-de-janeiro", "2025-02", 13, 10, 1005.0, 10),
]


def _texts() -> dict[str, list[str]]:
    schema = load_schema()
    cells = {f: [] for f in schema["bilhetes"].field_names}
    for month, (om, ou), (dm, du), free, n, value in ROWS:
        row = {"mes_viagem": month, "mes_emissao": month, "origem_municipio": om, "origem_uf": ou,
               "destino_municipio": dm, "destino_uf": du, "tipo_servico": "Convencional", "tipo_gratuidade": free,
               "quantidade": n, "valor_medio": value, "valor_desvio_padrao": "0.0"}
        for column in cells:
            cells[column].append(row[column])
    return cells


@pytest.mark.parametrize("numbered", [True, False], ids=["columns-numbered", "frame"])
def test_tickets_are_summed_per_pair_of_places_and_month(numbered):
    schema = load_schema()
    cells = _texts()
    batch = Columns.numbered("bilhetes", list(cells), list(cells.values()), np.arange(2, 2 + len(ROWS)), "b.csv")
    flagged, verdicts = Verdicts("bilhetes", schema).split(batch)
    assert not len(flagged)
    df, numbers = derive_columns("bilhetes", batch, verdicts, schema, {})
    got = summary(df, numbers if numbered else None)
    assert [tuple(r) for r in got.itertuples(index=False)] == EXPECTED
    assert got["bilhetes"].dtype == np.int64 and got["pago_total"].dtype == np.float64


def test_a_row_with_no_place_or_month_is_in_no_sum():
    frame = pd.DataFrame({"origem_municipio": ["SAO PAULO", "SAO PAULO"], "origem_uf": ["SP", "SP"],
                          "destino_municipio": ["RIO DE JANEIRO", "RIO DE JANEIRO"], "destino_uf": ["RJ", "RJ"],
                          "mes_viagem": ["2025-01", None], "tipo_gratuidade": [None, None], "quantidade": [5, 7],
                          "valor_medio": [10.0, 10.0]}, dtype=object)
    got = summary(frame)
    assert [tuple(r) for r in got.itertuples(index=False)] == [
        ("sp/sao-paulo", "rj/rio-de-janeiro", "2025-01", 5, 5, 50.0, 5)]
