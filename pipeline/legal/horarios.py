"""Timetables: the frequency of a line (art. 3 XX)."""

from __future__ import annotations

from collections.abc import Iterable


def weekly_trips(days: dict[str, bool], weekdays: Iterable[str]) -> int:
    """Trips a week of one scheduled departure: the number of weekdays it runs on.

    Art. 3 XX defines frequência as the number of trips in each direction, on a line, in a defined
    period; the portal's period is the week. ``weekdays`` are the timetable's weekday columns (the
    schema's ``dia_da_semana`` fields).
    """
    return sum(1 for d in weekdays if days.get(d))


def weekly_frequency(rows, weekdays: Iterable[str]) -> dict[tuple[str, str], int]:
    """``{(linha_prefixo, sentido): trips a week}`` from timetable rows (dicts with the day flags)."""
    weekdays = tuple(weekdays)
    out: dict[tuple[str, str], int] = {}
    for r in rows:
        key = (r["linha_prefixo"], r["sentido"])
        out[key] = out.get(key, 0) + weekly_trips(r, weekdays)
    return out
