"""Static SVG charts, drawn at build time: the fare history of a line (maximum fare per section and
category over time). The same figures are in the table beside each chart; the SVG is an image with a
title and a description for assistive technology."""

from __future__ import annotations

import math
from datetime import date
from html import escape

from markupsafe import Markup

from ..contract.spelling import day, money, month

WIDTH, HEIGHT = 640, 260
LEFT, RIGHT, TOP, BOTTOM = 64, 16, 16, 40
MAX_SERIES = 6
# distinguishable, and at least 3:1 against white (WCAG 1.4.11 non-text contrast)
COLOURS = ["#1f5f8b", "#b03a2e", "#1e7a46", "#7d3c98", "#9a5b00", "#2e4053"]


def fare_history_svg(fares: list[dict], as_of: date, label) -> Markup | None:
    """The step chart of the line's maximum fares, one series per (section, category) with at least
    two values, the MAX_SERIES longest; None when no series has a history to draw."""
    series: dict[tuple, list[tuple[date, float]]] = {}
    for f in fares:
        series.setdefault((f["origem"], f["destino"], f["categoria"]), []).append((f["vigencia_inicio"], float(f["valor"])))
    drawn = sorted((k for k, v in series.items() if len(v) > 1), key=lambda k: (-len(series[k]), k))[:MAX_SERIES]
    if not drawn:
        return None
    points = [p for k in drawn for p in series[k]]
    start = min(d for d, _ in points)
    end = max(max(d for d, _ in points), as_of)
    step = max(1, math.ceil(max(v for _, v in points) * 1.05 / 4 / 10)) * 10  # four ticks of whole tens of reais
    top = step * 4
    span = max((end - start).days, 1)

    def x(d: date) -> float:
        return LEFT + (WIDTH - LEFT - RIGHT) * (d - start).days / span

    def y(v: float) -> float:
        return TOP + (HEIGHT - TOP - BOTTOM) * (1 - v / top)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
             f'aria-labelledby="grafico-tarifas-titulo grafico-tarifas-desc" class="grafico">',
             '<title id="grafico-tarifas-titulo">Histórico das tarifas máximas</title>',
             f'<desc id="grafico-tarifas-desc">{len(drawn)} séries, de {day(start)} a '
             f'{day(end)}; os valores estão na tabela do histórico.</desc>',
             f'<line x1="{LEFT}" y1="{HEIGHT - BOTTOM}" x2="{WIDTH - RIGHT}" y2="{HEIGHT - BOTTOM}" stroke="#3d4247"/>',
             f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{HEIGHT - BOTTOM}" stroke="#3d4247"/>']
    for k in range(5):
        v = top * k / 4
        parts.append(f'<text x="{LEFT - 6}" y="{y(v) + 4:.1f}" text-anchor="end" font-size="13" fill="#1b1b1b">'
                     f'{_reais(v)}</text>')
    for d, anchor in ((start, "start"), (end, "end")):
        parts.append(f'<text x="{x(d):.1f}" y="{HEIGHT - BOTTOM + 16}" text-anchor="{anchor}" font-size="13" '
                     f'fill="#1b1b1b">{month(d.isoformat())}</text>')
    legend = []
    for n, key in enumerate(drawn):
        colour = COLOURS[n % len(COLOURS)]
        steps = sorted(series[key])
        # a step line: each value holds until the next one begins, the last until the reference date
        path = [f"M{x(steps[0][0]):.1f},{y(steps[0][1]):.1f}"]
        path += [f"H{x(d):.1f} V{y(v):.1f}" for d, v in steps[1:]]
        path.append(f"H{x(end):.1f}")
        parts.append(f'<path d="{" ".join(path)}" fill="none" stroke="{colour}" stroke-width="2"/>')
        for d, v in steps:
            parts.append(f'<circle cx="{x(d):.1f}" cy="{y(v):.1f}" r="3" fill="{colour}"/>')
        legend.append((colour, f"{key[0]} → {key[1]}, {label(key[2])}"))
    parts.append("</svg>")
    items = "".join(f'<li><span class="cor" style="background:{c}"></span>{escape(t)}</li>' for c, t in legend)
    return Markup("".join(parts) + f'<ul class="legenda">{items}</ul>')  # data text escaped above


def _reais(v: float) -> str:
    return money(v, 0)


def tickets_svg(months: list[dict]) -> Markup | None:
    """Bars of the tickets sold per travel month (Monitriip), paid and free stacked; None with fewer than two
    months. The figures are in the table beside it."""
    if len(months) < 2:
        return None
    top = max(m["bilhetes"] for m in months) or 1
    step = 10 ** max(0, len(str(top)) - 1)
    top = math.ceil(top / step) * step
    width = (WIDTH - LEFT - RIGHT) / len(months)

    def y(v: float) -> float:
        return TOP + (HEIGHT - TOP - BOTTOM) * (1 - v / top)

    first, last = months[0]["mes"], months[-1]["mes"]
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
             f'aria-labelledby="grafico-bilhetes-titulo grafico-bilhetes-desc" class="grafico">',
             '<title id="grafico-bilhetes-titulo">Bilhetes vendidos por mês da viagem</title>',
             f'<desc id="grafico-bilhetes-desc">{len(months)} meses, de {month(first)} a {month(last)}; pagos em azul, '
             'gratuitos em verde; os valores estão na tabela.</desc>',
             f'<line x1="{LEFT}" y1="{HEIGHT - BOTTOM}" x2="{WIDTH - RIGHT}" y2="{HEIGHT - BOTTOM}" stroke="#3d4247"/>']
    for k in range(5):
        v = top * k / 4
        parts.append(f'<text x="{LEFT - 6}" y="{y(v) + 4:.1f}" text-anchor="end" font-size="13" fill="#1b1b1b">'
                     f'{v:,.0f}</text>'.replace(",", "."))
    for n, m in enumerate(months):
        x = LEFT + n * width + width * 0.15
        paid_top, all_top = y(m["pagos"]), y(m["bilhetes"])
        parts.append(f'<rect x="{x:.1f}" y="{paid_top:.1f}" width="{width * 0.7:.1f}" '
                     f'height="{HEIGHT - BOTTOM - paid_top:.1f}" fill="{COLOURS[0]}"/>')
        if m["bilhetes"] > m["pagos"]:
            parts.append(f'<rect x="{x:.1f}" y="{all_top:.1f}" width="{width * 0.7:.1f}" '
                         f'height="{paid_top - all_top:.1f}" fill="{COLOURS[2]}"/>')
    for m, anchor in ((months[0], "start"), (months[-1], "end")):
        x = LEFT if anchor == "start" else WIDTH - RIGHT
        parts.append(f'<text x="{x}" y="{HEIGHT - BOTTOM + 16}" text-anchor="{anchor}" font-size="13" '
                     f'fill="#1b1b1b">{month(m["mes"])}</text>')
    parts.append("</svg>")
    legend = "".join(f'<li><span class="cor" style="background:{c}"></span>{t}</li>'
                     for c, t in ((COLOURS[0], "bilhetes pagos"), (COLOURS[2], "bilhetes gratuitos")))
    return Markup("".join(parts) + f'<ul class="legenda">{legend}</ul>')  # numbers and months only: nothing to escape
