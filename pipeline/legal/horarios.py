"""Timetables: the frequency of a line (art. 3 XX)."""

from __future__ import annotations

WEEKDAYS = ("segunda", "terca", "quarta", "quinta", "sexta", "sabado", "domingo")


def weekly_trips(days: dict[str, bool]) -> int:
    """Trips a week of one scheduled departure: the number of weekdays it runs on.

    Art. 3 XX defines frequência as the number of trips in each direction, on a line, in a defined
    period; the portal's period is the week.
    """
    return sum(1 for d in WEEKDAYS if days.get(d))


def weekly_frequency(rows) -> dict[tuple[str, str], int]:
    """``{(linha_prefixo, sentido): trips a week}`` from timetable rows (dicts with the day flags)."""
    out: dict[tuple[str, str], int] = {}
    for r in rows:
        key = (r["linha_prefixo"], r["sentido"])
        out[key] = out.get(key, 0) + weekly_trips(r)
    return out
