"""Each finding of the data contract: one row that triggers it and one that barely does not."""

from __future__ import annotations

from datetime import date

import pytest

from pipeline.derive import derive
from pipeline.read import read_source
from pipeline.validate import validate


def derived(package, schema, as_of=date(2026, 6, 30)):
    report = validate(read_source(package.path, schema), schema)
    assert report.valid, [p.mensagem for p in report.errors]
    return derive(report.accepted, schema, as_of).tables


def found(tables, regra) -> list[str]:
    a = tables["achados"]
    return sorted(a.loc[a["regra"] == regra, "chave"])


PROMO = "{p},44555666000181,SPRJ0030026,SAO PAULO,RIO DE JANEIRO,leito_com_ar,{valor},{com},{ini},{fim}"


def test_promotion_notice_29_days_triggers_30_does_not(package, schema):
    t = derived(package, schema)
    assert found(t, "promocao-sem-antecedencia") == ["PROMO-2"]  # 29 days; PROMO-1 has exactly 30


@pytest.mark.parametrize("valor, triggers", [("195.40", True), ("195.39", False), ("200.00", True)])
def test_promotion_at_or_above_the_maximum(package, schema, valor, triggers):
    package.append(
        "tarifas_promocionais.csv",
        PROMO.format(p="P-MAX", valor=valor, com="2026-01-01", ini="2026-03-01", fim="2026-03-10"),
    )
    t = derived(package, schema)
    assert ("P-MAX" in found(t, "promocao-acima-do-maximo")) is triggers


def test_promotion_maximum_is_the_one_in_force_on_its_first_day(package, schema):
    # On 2027-06-30 the maximum for this key is R$ 92,10 (from 2027-01-01); PROMO-1 began on
    # 2026-05-31, when it was R$ 88,50: that is the maximum it must stay below.
    t = derived(package, schema, as_of=date(2027, 6, 30))
    promos = t["tarifas_promocionais"].set_index("protocolo")
    assert promos.loc["PROMO-1", "tarifa_maxima"] == 88.5
    assert promos.loc["PROMO-1", "situacao"] == "encerrada"
    fares = t["tarifas"]
    assert fares.loc[fares["vigente"] & (fares["categoria"] == "convencional_com_sanitario"), "valor"].tolist() == [
        92.1
    ]


def test_promotion_without_a_maximum_in_force_has_an_empty_maximum(package, schema):
    package.append(
        "tarifas_promocionais.csv",
        PROMO.format(p="P-OLD", valor="10.00", com="2009-01-01", ini="2009-12-31", fim="2009-12-31"),
    )
    t = derived(package, schema)
    promos = t["tarifas_promocionais"].set_index("protocolo")
    assert promos.loc["P-OLD", "tarifa_maxima"] is None  # the first fare starts on 2010-01-01
    assert "P-OLD" not in found(t, "promocao-acima-do-maximo")


@pytest.mark.parametrize(
    "inicio, triggers",
    [
        ("2026-07-09", False),  # OUT-3 (emergency, 180 days from 2026-01-10) runs on its last day
        ("2026-07-10", True),
        ("2026-01-10", False),  # its first day
        ("2026-01-09", True),
    ],
)
def test_promotion_without_outorga_in_force_on_its_first_day(package, schema, inicio, triggers):
    package.append(
        "tarifas_promocionais.csv",
        f"P-OUT,77888999000181,MSBO0010001,CORUMBA,SANTA CRUZ DE LA SIERRA,semileito,100.00,"
        f"2025-01-01,{inicio},{inicio}",
    )
    t = derived(package, schema)
    assert ("P-OUT" in found(t, "promocao-sem-outorga")) is triggers


@pytest.mark.parametrize("inicio, triggers", [("2022-04-15", True), ("2022-04-16", False), ("2020-04-15", True)])
def test_outorga_beginning_while_the_carrier_is_barred(package, schema, inicio, triggers):
    # Caducidade declared 2020-04-15: barred until 2022-04-15 inclusive (art. 29 § 6).
    package.edit(
        "outorgas.csv",
        "OUT-6,autorizacao,temporada_turistica,77888999000181,12-0140-00,2021-06-01,2021-12-31",
        f"OUT-6,autorizacao,temporada_turistica,77888999000181,12-0140-00,{inicio},2030-12-31",
    )
    t = derived(package, schema)
    assert ("OUT-6" in found(t, "outorga-durante-impedimento")) is triggers


@pytest.mark.parametrize("second, triggers", [("2020-01-25", True), ("2020-01-26", False), ("", True)])
def test_caducidade_notices_fifteen_days_apart(package, schema, second, triggers):
    package.edit("caducidades.csv", "2020-01-10,2020-01-20", f"2020-01-10,{second}")
    t = derived(package, schema)
    assert bool(found(t, "caducidade-sem-comunicacoes")) is triggers


@pytest.mark.parametrize(
    "when, triggers",
    [
        ("2020-03-01T23:59", False),  # OUT-4's last day (2005-03-01 + 15 years)
        ("2020-03-02T00:01", True),
        ("2021-06-01T10:00", False),  # OUT-6 (temporada turística) in force from that day
    ],
)
def test_infraction_on_a_line_after_the_carriers_outorga_ended(package, schema, when, triggers):
    package.edit("infracoes.csv", "2021-02-01T08:00:00", when)
    t = derived(package, schema)
    assert ("AI-0002" in found(t, "operacao-apos-vencimento")) is triggers


def test_findings_table_has_article_and_plain_description(package, schema):
    a = derived(package, schema)["achados"]
    row = a[a["regra"] == "outorga-durante-impedimento"].iloc[0]
    assert row["artigo"] == "art. 29 § 6º" and row["tabela"] == "outorgas" and row["chave"] == "OUT-6"
    assert "15/04/2022" in row["descricao"] and "Portaria DTR nº 45/2020" in row["descricao"]
