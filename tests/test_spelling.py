"""One spelling of a number, an amount and a date (pipeline/contract/spelling.py), in Python and in the
browser (theme/static/js/comum.js): the same worked examples give the same text on both sides, and what the
pages, the findings and the calculators write is that text."""

from __future__ import annotations

from datetime import date, datetime

import pytest

from pipeline.contract import spelling
from pipeline.site import filters

EXAMPLES = spelling.examples()
PYTHON = {"numero": spelling.number, "reais": spelling.money, "data": spelling.day}


def _call(fn, example):
    return fn(example["valor"], example["casas"]) if "casas" in example else fn(example["valor"])


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: f"{e['funcao']}({e['valor']!r})")
def test_python_writes_each_worked_example(example):
    assert _call(PYTHON[example["funcao"]], example) == example["texto"]


def test_the_examples_cover_each_function_rounding_and_nothing():
    by_function = {f: [e for e in EXAMPLES if e["funcao"] == f] for f in PYTHON}
    assert all(len(v) >= 3 for v in by_function.values())
    assert any(e["valor"] is None and e["texto"] == "—" for e in EXAMPLES)
    assert {"valor": 2.675, "funcao": "reais", "texto": "R$ 2,68"} in EXAMPLES  # half up, not the binary 2,67


def test_the_page_filters_and_python_values_use_the_one_spelling():
    assert filters.reais(1234.5) == "R$\u00a01.234,50"  # no line break inside an amount on a page
    assert filters.data_br(date(2026, 3, 6)) == "06/03/2026" == filters.data_br("2026-03-06")
    assert filters.data_br(datetime(2026, 12, 24, 16, 0)) == "24/12/2026 16:00"
    assert filters.numero(1574016) == "1.574.016" and filters.mes_br("2026-09") == "09/2026"


_RUN = """(examples) => examples.map((e) => {
  const f = {numero: window.portal.numero, reais: window.portal.reais, data: window.portal.data}[e.funcao];
  return "casas" in e ? f(e.valor, e.casas) : f(e.valor);
})"""


@pytest.mark.browser
def test_the_browser_writes_each_worked_example(tab):
    tab.page.goto("/direitos/")
    got = tab.page.evaluate(_RUN, EXAMPLES)
    wrong = [(e, g) for e, g in zip(EXAMPLES, got) if g != e["texto"]]
    assert wrong == []
    assert tab.console_errors == []
