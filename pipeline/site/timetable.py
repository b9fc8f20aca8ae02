"""A line's timetable as a compact grid: per direction, one row per departure time with the weekdays it
runs on, instead of one row per timetable entry (Teresina-Timon has 668 entries on the real export)."""

from __future__ import annotations

from .record import Record


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
        service = (label(h["categoria"]), h["transportadora"])
        if service not in row["servicos"]:
            row["servicos"].append(service)
        row["meses"].update(m for m in months if h[m])
    return {
        sentido: [Record(horario=t, dias=v["dias"], servicos=v["servicos"],
                         meses=None if len(v["meses"]) == len(months) else [m for m in months if m in v["meses"]])
                  for t, v in sorted(rows.items())]
        for sentido, rows in out.items()
    }
