"""Worked examples of the decree's rules (pipeline/legal)."""

from datetime import date

import pytest

from pipeline.legal import DECREE_PUBLICATION
from pipeline.legal import caducidades as cad
from pipeline.legal import infracoes as inf
from pipeline.legal import outorgas as out
from pipeline.legal import promocoes as promo
from pipeline.legal.dates import add_business_days, add_days, add_months, add_years, is_business_day

D = date


@pytest.mark.parametrize(
    "start, n, last",
    [
        (D(2026, 1, 10), 180, D(2026, 7, 9)),  # data contract's example (art. 96)
        (D(2024, 2, 28), 1, D(2024, 2, 29)),  # across a leap day
        (D(2025, 12, 31), 15, D(2026, 1, 15)),
    ],
)
def test_periods_in_days_exclude_the_first_day(start, n, last):
    assert add_days(start, n) == last


@pytest.mark.parametrize(
    "start, months, last",
    [
        (D(2012, 2, 29), 15 * 12, D(2027, 3, 1)),  # no 29 February in 2027: the following day
        (D(2024, 3, 31), 24, D(2026, 3, 31)),
        (D(2026, 1, 31), 1, D(2026, 3, 1)),  # no 31 February
        (D(2026, 3, 31), 1, D(2026, 5, 1)),  # no 31 April
        (D(2025, 12, 15), 1, D(2026, 1, 15)),  # across the year
        (D(2024, 2, 29), 48, D(2028, 2, 29)),  # leap year to leap year
    ],
)
def test_periods_in_months_follow_civil_code_132(start, months, last):
    assert add_months(start, months) == last


def test_years_are_twelve_months():
    assert add_years(D(2012, 2, 29), 15) == D(2027, 3, 1)


@pytest.mark.parametrize(
    "start, n, last, why",
    [
        (D(2026, 3, 6), 15, D(2026, 3, 27), "Friday: the weekend does not count"),
        (D(2024, 11, 14), 5, D(2024, 11, 25), "15/11 Republic and 20/11 Black Awareness (national from 2024)"),
        (D(2026, 4, 17), 5, D(2026, 4, 27), "21/04 Tiradentes falls on Tuesday"),
        (D(2025, 12, 19), 5, D(2025, 12, 29), "25/12 Christmas"),
        (D(2026, 6, 26), 1, D(2026, 6, 29), "notice on a Friday: Monday is the first business day"),
    ],
)
def test_business_days_skip_weekends_and_national_holidays(start, n, last, why):
    assert add_business_days(start, n) == last, why


def test_black_awareness_day_is_a_national_holiday_only_from_2024():
    assert not is_business_day(D(2024, 11, 20))
    assert is_business_day(D(2023, 11, 20))  # a Monday, not yet national


def test_permission_runs_fifteen_years_and_thirty_when_renewed():
    assert out.vencimento("permissao", "regular", D(2012, 2, 29), None, False) == D(2027, 3, 1)
    assert out.vencimento("permissao", "regular", D(2000, 5, 10), None, True) == D(2030, 5, 10)


def test_permits_before_the_decree_count_from_its_publication_art_94():
    assert DECREE_PUBLICATION == D(1993, 10, 8)
    assert out.vencimento("permissao", "regular", D(1988, 5, 10), None, False) == D(2008, 10, 8)
    assert out.vencimento("permissao", "regular", D(1988, 5, 10), None, True) == D(2023, 10, 8)
    assert out.vencimento("permissao", "regular", D(1993, 10, 8), None, False) == D(2008, 10, 8)  # on the day


def test_emergency_authorization_lasts_180_days_and_others_their_end():
    assert out.vencimento("autorizacao", "emergencial", D(2026, 1, 10), None, False) == D(2026, 7, 9)
    assert out.vencimento("autorizacao", "fretamento", D(2025, 1, 1), D(2025, 12, 31), False) == D(2025, 12, 31)
    assert out.vencimento("autorizacao", "fretamento", D(2025, 1, 1), None, False) is None


def test_situacao_on_the_last_day_is_still_vigente():
    assert out.situacao(D(2026, 7, 9), None, D(2026, 7, 9)) == "vigente"
    assert out.situacao(D(2026, 7, 9), None, D(2026, 7, 10)) == "vencida"
    assert out.situacao(D(2030, 1, 1), D(2026, 7, 10), D(2026, 7, 10)) == "extinta"
    assert out.situacao(D(2030, 1, 1), D(2026, 7, 11), D(2026, 7, 10)) == "vigente"


def test_caducidade_bar_runs_24_months_including_its_last_day():
    assert cad.impedimento_ate(D(2024, 2, 29)) == D(2026, 3, 1)
    assert cad.impedimento_vigente(D(2026, 3, 1), D(2026, 3, 1))
    assert not cad.impedimento_vigente(D(2026, 3, 1), D(2026, 3, 2))


def test_second_notice_only_after_the_first_fifteen_day_period():
    assert not cad.notices_ok(D(2020, 1, 10), D(2020, 1, 25))  # the period still runs on 25/01
    assert cad.notices_ok(D(2020, 1, 10), D(2020, 1, 26))
    assert not cad.notices_ok(D(2020, 1, 10), None)


def test_promotion_notice_of_thirty_days():
    assert promo.antecedencia_ok(promo.antecedencia_dias(D(2026, 5, 1), D(2026, 5, 31)))  # exactly 30
    assert not promo.antecedencia_ok(promo.antecedencia_dias(D(2026, 5, 2), D(2026, 5, 31)))
    assert promo.situacao(D(2026, 5, 31), D(2026, 6, 15), D(2026, 6, 15)) == "vigente"
    assert promo.situacao(D(2026, 5, 31), D(2026, 6, 15), D(2026, 6, 16)) == "encerrada"
    assert promo.situacao(D(2026, 5, 31), D(2026, 6, 15), D(2026, 5, 30)) == "futura"


def test_defence_and_appeal_deadlines():
    assert inf.prazo_defesa(D(2026, 3, 6)) == D(2026, 3, 27)
    assert inf.prazo_recurso(D(2025, 12, 19)) == D(2025, 12, 29)
    assert inf.prazo_defesa(None) is None
