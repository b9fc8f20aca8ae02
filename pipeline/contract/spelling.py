"""How the portal writes a number, an amount of money and a date in pt-BR: one spelling each, for the
pages, the messages and the datasets' sentences. The browser's twin is ``theme/static/js/comum.js``
(``portal.numero``, ``portal.reais``, ``portal.data``); the worked examples in ``exemplos-formatos.json``
beside this module are run through both by the tests.

Rounding is half up from the shortest decimal spelling of the value (``2.675`` is 2,68, as a person
reads it, not 2,67 as its binary float would round), the same on both sides.
"""

from __future__ import annotations

import json
from datetime import date, datetime
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from pathlib import Path

EMPTY = "—"  # what a missing value is written as
EXAMPLES = Path(__file__).with_name("exemplos-formatos.json")


def _decimal(value) -> Decimal | None:
    if value is None or isinstance(value, bool):
        return None
    try:
        d = value if isinstance(value, Decimal) else Decimal(repr(float(value)) if isinstance(value, float)
                                                             else str(value))
    except (InvalidOperation, ValueError, TypeError):
        return None
    return d if d.is_finite() else None


def number(value, decimals: int = 0) -> str:
    """1234567.891 with 2 decimals -> ``1.234.567,89``: thousands grouped by dots, a decimal comma; "—" for
    nothing (None, NaN, text that is no number)."""
    d = _decimal(value)
    if d is None:
        return EMPTY
    text = f"{d.quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP):,.{decimals}f}"
    return text.replace(",", "X").replace(".", ",").replace("X", ".")


def money(value, decimals: int = 2) -> str:
    """1234.5 -> ``R$ 1.234,50`` (a plain space: the pages make it a no-break one); "—" for nothing."""
    text = number(value, decimals)
    return text if text == EMPTY else f"R$ {text}"


def day(value) -> str:
    """A date as a person reads it: ``2026-03-06`` (a date or ISO text) -> ``06/03/2026``; a date-time, as
    ``2026-03-06T14:05:00-03:00`` or a datetime, -> ``06/03/2026 14:05`` (the wall-clock time written, with
    no offset); "—" for nothing."""
    if isinstance(value, datetime):
        return value.strftime("%d/%m/%Y %H:%M")
    if isinstance(value, date):
        return value.strftime("%d/%m/%Y")
    text = value if isinstance(value, str) else ""
    if len(text) < 10 or not (text[:4].isdigit() and text[4] == "-" and text[5:7].isdigit() and text[7] == "-"
                              and text[8:10].isdigit()):
        return EMPTY
    spelled = f"{text[8:10]}/{text[5:7]}/{text[:4]}"
    return spelled + (f" {text[11:16]}" if len(text) >= 16 and text[10] in "T " else "")


def month(value: str) -> str:
    """A month as the data writes it, ``2026-09``, as a person reads it: ``09/2026``; "—" for nothing."""
    return f"{value[5:7]}/{value[:4]}" if value and len(value) >= 7 else EMPTY


def join(items, conjunction: str = "e") -> str:
    """``["a", "b", "c"]`` -> "a, b e c" (pt-BR: no comma before the last one); "" for none."""
    items = [i for i in items if i]
    if len(items) < 2:
        return "".join(items)
    return f"{', '.join(items[:-1])} {conjunction} {items[-1]}"


def examples() -> list[dict]:
    """The worked examples both sides are tested with: ``{"funcao", "valor", "casas"?, "texto"}``."""
    return json.loads(EXAMPLES.read_text(encoding="utf-8"))
