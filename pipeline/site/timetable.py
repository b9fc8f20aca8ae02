"""A line's timetable as a compact grid: per direction, one row per departure time with the weekdays it
runs on, instead of one row per timetable entry (Teresina-Timon has 668 entries on the real export)."""

from __future__ import annotations

import re

from .record import Record

_MIXED = re.compile(r"\s*MISTO\s*-\s*(?P<partes>\S.*)", re.I)


def mixed(vehicle: str | None) -> str | None:
    """The classes a vehicle the source calls mixed offers, in the source's words (``MISTO - LEITO /
    SEMI-LEITO`` -> ``leito / semi-leito``); None for any other vehicle."""
    m = _MIXED.fullmatch(vehicle or "")
    if not m:
        return None
    return " / ".join(" ".join(part.split()).lower() for part in re.split(r"\s+/\s+", m["partes"].strip()))


def service_class(categoria: str | None, classes: str | None, label) -> str:
    """The class a passenger reads for a departure: the category's label (``label``), or for a mixed vehicle
    (``classes``: :func:`mixed` of its text) "Misto: leito / semi-leito", as the source names its classes.
    The category of a mixed vehicle is the highest class it offers (pipeline/adapters/antt_horarios.py): it
    sets the fare ceiling, but a passenger may board either class, so the page does not name it alone."""
    return f"Misto: {classes}" if classes else label(categoria)


def grid(horarios: list[dict], weekdays: list[str], months: list[str], label) -> dict[str, list[Record]]:
    """``{"ida": rows, "volta": rows}``: each row a time, its weekdays (a flag per weekday, any entry at
    that time counting), the services at that time (``label(categoria)`` and carrier) and, when not
    all year, the months. ``horarios`` are the page records (pipeline/site/context.py)."""
    out: dict[str, dict[str, dict]] = {"ida": {}, "volta": {}}
    for h in horarios:
        row = out.setdefault(h["sentido"], {}).setdefault(h["horario"], {
            "dias": [False] * len(weekdays), "servicos": [], "meses": set()})
        for k, day in enumerate(weekdays):
            row["dias"][k] = row["dias"][k] or bool(h[day])
        service = (service_class(h["categoria"], mixed(h.get("tipo_veiculo")), label), h["transportadora"])
        if service not in row["servicos"]:
            row["servicos"].append(service)
        row["meses"].update(m for m in months if h[m])
    return {
        sentido: [Record(horario=t, dias=v["dias"], servicos=v["servicos"],
                         meses=None if len(v["meses"]) == len(months) else [m for m in months if m in v["meses"]])
                  for t, v in sorted(rows.items())]
        for sentido, rows in out.items()
    }
