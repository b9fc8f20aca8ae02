"""Jinja2 filters of the theme: pt-BR formats and links to the decree."""

from __future__ import annotations

import re
from datetime import date, datetime
from functools import lru_cache, wraps

from ..contract import spelling
from ..contract.identifiers import format_cnpj, slugify
from .coverage import named


def data_br(value) -> str:
    """2026-03-06 (a date, a datetime or ISO text) -> 06/03/2026; empty -> an em dash."""
    return spelling.day(value)


def iso(value) -> str:
    return value.isoformat() if isinstance(value, date | datetime) else ""


def reais(value) -> str:
    """1234.5 -> R$ 1.234,50, with no line break inside the amount."""
    return spelling.money(value).replace(" ", "\u00a0")


mes_br = spelling.month


def artigo_url(artigo: str) -> str:
    """'art. 29 § 6º' -> '/decreto/#art-29' (the first article named)."""
    m = re.search(r"art\.\s*(\d+)", artigo or "")
    return f"/decreto/#art-{m[1]}" if m else "/decreto/"


def clausula_url(codigo: str) -> str:
    """An enquadramento of art. 78 (``78-I-b``) -> the anchor of its clause on /decreto/
    (``/decreto/#art-78-inc-i-al-b``, as pipeline/legal/decree.py names them); the article when the
    code has no clause."""
    m = re.fullmatch(r"(\d+)-([IVXLC]+)(?:-([a-z]))?", codigo or "")
    if not m:
        return artigo_url(f"art. {codigo}")
    anchor = f"art-{m[1]}-inc-{m[2].lower()}" + (f"-al-{m[3]}" if m[3] else "")
    return f"/decreto/#{anchor}"


def tamanho(size) -> str:
    """A file's size in pt-BR: ``1,5 MB``, ``820 KB``, ``312 bytes``; "—" when unknown."""
    if size is None:
        return "—"
    for unit, scale in (("GB", 1024 ** 3), ("MB", 1024 ** 2), ("KB", 1024)):
        if size >= scale:
            return f"{numero(size / scale, 1)} {unit}"
    return f"{numero(size)} bytes"


def label(schema, table: str, field: str, value) -> str:
    """The pt-BR label of an enum value, from the schema's ``categories`` (the templates' ``rotulo``)."""
    try:
        found = schema.labels.get((table, field, value))
    except TypeError:  # an unhashable value has no label
        found = None
    if found is not None:
        return found
    return "—" if value in (None, "") else str(value)


def sim_nao(value) -> str:
    return "sim" if value else "não"


def _remembered(fn, size: int = 4096, typed: bool = False):
    """``fn`` answering each value (and further arguments) it has seen from memory: the pages show the same
    dates, amounts, counts, clauses and slugs thousands of times (a line's recent notices, a carrier's fares),
    and each filter call was a Python function at work again. A value that cannot be a key is worked out
    anew. ``typed``: values equal across types (True and 1) are remembered apart."""
    remembered = lru_cache(maxsize=size, typed=typed)(fn)

    @wraps(fn)
    def filter_(value, *args, **kwargs):
        try:
            return remembered(value, *args, **kwargs)
        except TypeError:  # unhashable
            return fn(value, *args, **kwargs)

    return filter_


numero = _remembered(spelling.number, typed=True)  # typed: True is not 1 (a bool is no number)


FILTERS = {
    "fontes": named,  # sources named as a page names them
    "data_br": _remembered(data_br),
    "iso": _remembered(iso),
    "reais": _remembered(reais),
    "numero": numero,
    "cnpj": _remembered(format_cnpj),
    "slug": _remembered(slugify),
    "artigo_url": artigo_url,
    "mes_br": mes_br,
    "clausula_url": _remembered(clausula_url),
    "sim_nao": sim_nao,
    "tamanho": tamanho,
}
