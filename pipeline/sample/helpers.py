"""Small helpers shared by the sample's modules: random days, cents, act and process numbers.

Date arithmetic comes from :mod:`pipeline.legal.dates` (``add_days``, ``add_years``), not from here.
"""

from __future__ import annotations

import itertools
import random
from datetime import date
from decimal import ROUND_HALF_UP, Decimal


def rand_date(rng: random.Random, first: date, last: date) -> date:
    """A day drawn uniformly from ``first`` to ``last``, both included."""
    return date.fromordinal(rng.randint(first.toordinal(), last.toordinal()))


def money(value: Decimal) -> Decimal:
    """``value`` rounded to the cent, half up."""
    return value.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def nup(unit: int, seq: int, year: int) -> str:
    """A process number in the federal NUP layout (``50500.012345/2019-11``) with its check digits."""
    digits = f"{unit:05d}{seq:06d}{year:04d}"
    for _ in range(2):
        total = sum(int(c) * w for c, w in zip(reversed(digits), itertools.count(2)))
        digits += str((11 - total % 11) % 10)
    return f"{unit:05d}.{seq:06d}/{year}-{digits[-2:]}"


class ActNumbers:
    """Running numbers of acts, one series per (kind, year): each series starts at a random number
    and grows by small random steps, so numbers look issued among other acts."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self._last: dict[tuple[str, int], int] = {}

    def next(self, kind: str, year: int) -> int:
        if (kind, year) not in self._last:
            self._last[(kind, year)] = self.rng.randint(1, 30)
        self._last[(kind, year)] += self.rng.randint(1, 6)
        return self._last[(kind, year)]
