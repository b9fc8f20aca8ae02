"""An expired licence is judged for the market of the lines it would cover (issue 35): a carrier's interstate
lines against its regular licence, whatever its semi-urban one says; a licence whose validity is not published
is a case not checked, counted and said, never folded into "0 inconsistências" (derive/inconsistencies.py)."""

from __future__ import annotations

from datetime import date

import pandas as pd
from conftest import page_text
from test_ingest import ANTT, rows, site_of

from pipeline.derive import inconsistencies
from pipeline.site.context import Tally

AS_OF = date(2026, 11, 29)
COVERED = {"habilitacoes", "horarios", "linhas"}


def tables(licences: list[tuple]) -> dict[str, pd.DataFrame]:
    linhas = pd.DataFrame({"prefixo": ["GOTO0113002", "DFGO0001001", "XX"], "ambito": ["interestadual", "semiurbano", ""]})
    horarios = pd.DataFrame({"linha_prefixo": ["GOTO0113002", "DFGO0001001", "XX"],
                             "transportadora_cnpj": ["00018127000138", "00018127000138", "32285454000142"],
                             "sentido": ["ida", "ida", "ida"], "fonte": ["sigma"] * 3})
    habilitacoes = pd.DataFrame(licences, columns=["transportadora_cnpj", "mercado", "numero_tar", "vigencia", "fonte"])
    return {"linhas": linhas, "horarios": horarios, "habilitacoes": habilitacoes}


def run(licences, schema):
    not_checked: dict[str, list] = {}
    found, _ = inconsistencies.find(tables(licences), schema, AS_OF, COVERED, not_checked)
    found = found[found["regra"] == "linhas-com-habilitacao-vencida"]
    return found, not_checked["linhas-com-habilitacao-vencida"]


def test_an_undated_licence_of_another_market_does_not_hide_the_expired_one(schema):
    found, not_checked = run([("00018127000138", "regular", "", date(2026, 3, 15), "hab-regular"),
                              ("00018127000138", "semiurbano", "", None, "hab-semiurbano"),
                              ("32285454000142", "regular", "123/2019", date(2027, 12, 31), "hab-regular")], schema)
    [row] = found.to_dict("records")
    assert row["chave"] == "00018127000138"
    assert row["descricao"] == ("A transportadora tem 1 linha no quadro de horários (GOTO0113002), mas sua habilitação "
                                "(regular) vale até 15/03/2026, antes de 29/11/2026.")
    # its semi-urban line under a licence with no published validity, and a line of unknown scope: not checked
    assert [(c.chave, c.motivo) for c in not_checked] == [
        ("00018127000138", "habilitação semiurbana sem validade publicada"),
        ("32285454000142", "1 linha sem âmbito publicado, de que depende a habilitação exigida")]


def test_a_licence_in_force_for_the_market_is_no_inconsistency(schema):
    found, not_checked = run([("00018127000138", "regular", "9/2020", date(2027, 1, 1), "hab-regular"),
                              ("00018127000138", "semiurbano", "", date(2025, 1, 1), "hab-semiurbano")], schema)
    [row] = found.to_dict("records")  # the semi-urban line: its own licence lapsed
    assert "DFGO0001001" in row["descricao"] and "(semiurbana) vale até 01/01/2025" in row["descricao"]
    assert not_checked == []


def test_the_cases_not_checked_are_said_beside_the_count():
    tally = Tally(0, 4, (), ("inconsistência", "inconsistências"), "Inconsistências não verificadas", 2)
    assert tally.text == "0 inconsistências (4 de 4 regras verificadas; 2 casos não verificados)"


def test_the_current_layouts_show_the_expired_licence_beside_the_undated_semi_urban_one(tmp_path):
    from pipeline.adapters import ingest

    sections = tmp_path / "secoes"
    ingest(None, ANTT / "linhas-secoes-sigma.csv", sections)
    site = site_of(tmp_path, sections, "horarios-sigma.csv", "habilitadas-regular.csv", "habilitadas-semiurbano.csv")
    found = {(r["regra"], r["chave"]) for r in rows(site / "dados", "inconsistencias")}
    assert ("linhas-com-habilitacao-vencida", "00018127000138") in found
    page = page_text(site / "achados" / "index.html")
    assert "Linhas no quadro de horários de transportadora com habilitação vencida" in page
