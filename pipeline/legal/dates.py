"""Date arithmetic of the decree, in one place.

- Periods in days (art. 96): the start day is excluded and the last day included, so a period of N
  days from ``start`` ends on ``start + N`` days and is still running on that day.
- Periods in months or years (Código Civil, Lei 10.406/2002, art. 132 § 3): they end on the day of the
  same number in the final month, or on the following day when that month has no such day.
- Business days (dias úteis, arts. 84 and 92): Monday to Friday that are not national holidays of the
  ``holidays`` package's BR calendar; counting starts on the day after the start day (art. 96).
"""

from __future__ import annotations

from datetime import date, timedelta
from functools import lru_cache

import holidays

_BR = holidays.country_holidays("BR")


def add_days(start: date, days: int) -> date:
    """Last day of a period of ``days`` days from ``start`` (art. 96).

    >>> add_days(date(2026, 1, 10), 180)
    datetime.date(2026, 7, 9)
    """
    return start + timedelta(days=days)


def add_months(start: date, months: int) -> date:
    """Last day of a period of ``months`` months (Código Civil art. 132 § 3).

    The same day number in the final month, or the first day of the next month when the final month
    has no such day: 1 month from 2026-01-31 ends on 2026-03-01.
    """
    index = start.year * 12 + (start.month - 1) + months
    year, month = divmod(index, 12)
    month += 1
    try:
        return date(year, month, start.day)
    except ValueError:  # no such day in the final month: the following day, i.e. the 1st of the next
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
        return date(year, month, 1)


def add_years(start: date, years: int) -> date:
    """Last day of a period of ``years`` years (Código Civil art. 132 § 3): 15 years from 2012-02-29
    end on 2027-03-01."""
    return add_months(start, 12 * years)


def is_business_day(day: date) -> bool:
    """Monday to Friday and not a Brazilian national holiday (``holidays`` BR calendar)."""
    return day.weekday() < 5 and day not in _BR


@lru_cache(maxsize=65536)
def add_business_days(start: date, days: int) -> date:
    """Last day of a period of ``days`` business days from ``start`` (arts. 84, 92 and 96).

    Counting starts on the day after ``start``; only business days count, so the last day is always
    a business day. 15 business days from Friday 2026-03-06 end on Friday 2026-03-27.
    """
    day, counted = start, 0
    while counted < days:
        day += timedelta(days=1)
        if is_business_day(day):
            counted += 1
    return day
