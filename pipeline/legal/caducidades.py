"""Derived fields of caducidades, and the notices that must precede them."""

from __future__ import annotations

from datetime import date

from .dates import add_days, add_months

BAR_MONTHS = 24  # art. 29 § 6: barred from a new outorga for twenty-four months
NOTICE_DAYS = 15  # art. 29 § 3: fifteen days to correct after each notice


def impedimento_ate(data_declaracao: date) -> date:
    """Last day the carrier is barred from a new outorga: declaration + 24 months (art. 29 § 6;
    Código Civil art. 132 § 3)."""
    return add_months(data_declaracao, BAR_MONTHS)


def impedimento_vigente(impedimento_ate: date, as_of: date) -> bool:
    """The bar of art. 29 § 6 still runs on ``as_of`` (it runs on its last day too, art. 96)."""
    return as_of <= impedimento_ate


def barred_on(data_declaracao: date, day: date) -> bool:
    """Whether ``day`` falls within the bar that a declaration of caducidade starts (art. 29 § 6)."""
    return data_declaracao <= day <= impedimento_ate(data_declaracao)


def notices_ok(comunicacao_1: date | None, comunicacao_2: date | None) -> bool:
    """Art. 29 § 3: two notices, the second only after the first's fifteen-day period has ended.

    The first notice's period ends on ``comunicacao_1 + 15`` days and still runs that day (art. 96),
    so the second notice is regular from the following day on.
    """
    if comunicacao_1 is None or comunicacao_2 is None:
        return False
    return comunicacao_2 > add_days(comunicacao_1, NOTICE_DAYS)
