"""The portal's cell grammar: the one parser of every typed value, used by validation (to accept or
refuse a cell) and by the derive stage (to type the accepted cells), so that whatever ``validate``
admits, every later stage can handle.

Frictionless is more lenient than the contract and than what the writers can publish: it takes
``inf``, ``1e309``, ``1_000``, `` 12.5``, Arabic-Indic or full-width digits, ``2020-1-5``, ``6:0``, a
year 9999 (whose deadlines overflow), integers past SQLite's 2^63, and a pattern followed by a newline.
Here each type has one ASCII shape, and a value outside it is an input error with its own rule slug.
"""

from __future__ import annotations

import math
import re
from datetime import date, datetime, time

# Dates outside this range are refused: the rules add up to 30 years and business days to them, and
# nothing the regulator records is older than the 20th century.
FIRST_DAY = date(1900, 1, 1)
LAST_DAY = date(2199, 12, 31)
MAX_INTEGER_DIGITS = 12  # numbers: at most 12 digits before the point (no amount or length comes close)
MAX_INTEGER = 2**53 - 1  # integers: exact in JSON, in SQLite and in a spreadsheet
MAX_TEXT = 20_000  # characters in one cell, as a spreadsheet counts them (UTF-16 units)

_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", re.A)
_DATETIME = re.compile(r"([0-9]{4}-[0-9]{2}-[0-9]{2})T([0-9]{2}):([0-9]{2})(?::([0-9]{2}))?", re.A)
_TIME = re.compile(r"([0-9]{2}):([0-9]{2})", re.A)
_NUMBER = re.compile(r"-?([0-9]+)(\.[0-9]+)?", re.A)
_INTEGER = re.compile(r"-?[0-9]+", re.A)
# C0 controls and DEL; tab, line feed and carriage return are text (a description may have lines)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_EDGE_SPACE = re.compile(r"^\s|\s$")


class CellError(ValueError):
    """A cell outside the grammar: ``regra`` is the rule slug, ``context`` fills its message."""

    def __init__(self, regra: str, **context):
        super().__init__(regra)
        self.regra = regra
        self.context = context


def _day(value: str) -> date:
    try:
        day = date.fromisoformat(value)
    except ValueError:
        raise CellError("data-invalida") from None
    if not FIRST_DAY <= day <= LAST_DAY:
        raise CellError("data-fora-do-intervalo", inicio=FIRST_DAY.year, fim=LAST_DAY.year)
    return day


def parse_date(text: str) -> date:
    if not _DATE.fullmatch(text):
        raise CellError("data-invalida")
    return _day(text)


def parse_datetime(text: str) -> datetime:
    m = _DATETIME.fullmatch(text)
    if not m:
        raise CellError("data-hora-formato")
    day = _day(m[1])
    hour, minute, second = int(m[2]), int(m[3]), int(m[4] or 0)
    if hour > 23 or minute > 59 or second > 59:
        raise CellError("data-hora-formato")
    return datetime(day.year, day.month, day.day, hour, minute, second)


def parse_time(text: str) -> time:
    m = _TIME.fullmatch(text)
    if not m or int(m[1]) > 23 or int(m[2]) > 59:
        raise CellError("horario-formato")
    return time(int(m[1]), int(m[2]))


def parse_number(text: str) -> float:
    m = _NUMBER.fullmatch(text)
    if not m:
        raise CellError("numero-formato")
    if len(m[1].lstrip("0")) > MAX_INTEGER_DIGITS:
        raise CellError("numero-grande", digitos=MAX_INTEGER_DIGITS)
    value = float(text)
    if not math.isfinite(value):  # pragma: no cover - excluded by the digit limit
        raise CellError("numero-formato")
    return value


def parse_integer(text: str) -> int:
    if not _INTEGER.fullmatch(text):
        raise CellError("inteiro-formato")
    value = int(text)
    if abs(value) > MAX_INTEGER:
        raise CellError("numero-grande", digitos=len(str(MAX_INTEGER)))
    return value


def parse_boolean(text: str) -> bool:
    if text not in ("true", "false"):
        raise CellError("booleano-formato")
    return text == "true"


def check_text(text: str, field: dict) -> str:
    """Text is hostile: no control characters, a bounded length, and no surrounding spaces in a
    value with a pattern or a list of allowed values (a trailing newline would slip past both)."""
    if _CONTROL.search(text):
        raise CellError("caractere-de-controle")
    # counted as a spreadsheet counts (UTF-16 units: an emoji is two), so that every published cell fits
    # a spreadsheet's 32,767; a text of at most MAX_TEXT / 2 characters cannot exceed it
    if len(text) > MAX_TEXT // 2 and (len(text) > MAX_TEXT or len(text.encode("utf-16-le")) // 2 > MAX_TEXT):
        raise CellError("texto-longo", limite=MAX_TEXT)
    constraints = field.get("constraints", {})
    if (constraints.get("pattern") or constraints.get("enum")) and _EDGE_SPACE.search(text):
        raise CellError("espacos-nas-pontas")
    return text


PARSERS = {
    "date": parse_date,
    "datetime": parse_datetime,
    "time": parse_time,
    "number": parse_number,
    "integer": parse_integer,
    "boolean": parse_boolean,
}


def parse(text: str, field: dict):
    """The typed value of a non-empty cell of ``field`` (a Table Schema field), or :class:`CellError`.
    Strings come back as they are, once they pass :func:`check_text`."""
    kind = field.get("type", "string")
    if kind == "string":
        return check_text(text, field)
    if _CONTROL.search(text):
        raise CellError("caractere-de-controle")
    return PARSERS[kind](text)


def blank(text: str) -> bool:
    """Empty, or only spaces: a required value of spaces is missing, not present."""
    return not text.strip()
