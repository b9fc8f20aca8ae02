"""Maximum fares (arts. 6, 24 and 95): which row is in force on a day."""

from __future__ import annotations

import bisect
from collections import defaultdict
from datetime import date


class FareHistory:
    """The maximum-fare rows per key (line, section, category), sorted by ``vigencia_inicio``.

    A row is in force from its ``vigencia_inicio`` until the day before the next row of the same key
    (data contract, tarifas).
    """

    def __init__(self, rows):
        by_key: dict[tuple, list[tuple[date, float, int]]] = defaultdict(list)
        for i, (linha, origem, destino, categoria, inicio, valor) in enumerate(rows):
            by_key[(linha, origem, destino, categoria)].append((inicio, valor, i))
        self._starts = {}
        self._rows = {}
        for key, items in by_key.items():
            items.sort()
            self._starts[key] = [s for s, _, _ in items]
            self._rows[key] = items

    def in_force(self, key: tuple, day: date) -> tuple[date, float, int] | None:
        """``(vigencia_inicio, valor, row index)`` of the row in force on ``day``, or ``None``."""
        starts = self._starts.get(key)
        if not starts:
            return None
        pos = bisect.bisect_right(starts, day) - 1
        return self._rows[key][pos] if pos >= 0 else None
