"""A notice number typed in the search box shows its record (carrier, line, date, enquadramento and its
clause of art. 78, situação, deadlines) without a page per notice: the notices are written to
``/busca/autos/<last characters of the number>.json``, as many characters as keep a file to about 100
notices (:func:`suffix_length`: 4 characters at the national scale's 500,000 notices). The
search page (``theme/static/js/busca.js``) reads the length from its form (``data-autos-digitos``), the
names of a row's cells (``data-autos-campos``: :data:`FIELDS`) and the number as
:func:`~pipeline.site.identifiers.key` reduces it.

Each file maps the reduced number to one row, in the order of :data:`FIELDS` (compact: half a million
of them at national scale). The rows are made column by column, each distinct value labelled once."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..contract.identifiers import slugify
from ..publish.tabular import Coded, cell
from ..read.source import once_per_value
from . import urls
from .filters import FILTERS, clausula_url
from .identifiers import key

PER_FILE = 100
# What a notice number looks like once :func:`~pipeline.site.identifiers.key` has reduced it: at most three
# letters, then four digits or more (``AI 2021/000456`` -> ``AI2021000456``, ``123456789``). Where no source
# has notices, a query of this shape is told so instead of "0 resultados"; the search page reads the pattern
# from its form (``data-autos-forma``), so that it lives here alone. A SIGMA prefix (``GOTO0113002``, four
# letters) is not one.
NOTICE_SHAPE = r"^[A-Z]{0,3}[0-9]{4,}$"
# the row of a notice in its file, in this order (the search page hands the names to busca.js)
FIELDS = ["numero", "transportadora", "transportadora_url", "linha", "linha_url", "data_hora", "local",
          "enquadramento", "enquadramento_url", "grupo", "penalidade", "valor", "situacao", "prazo_defesa",
          "prazo_recurso"]


def place(local, municipio, uf) -> str | None:
    """Where a notice was drawn up, as a page and the search show it: ``BR-050, km 775 — BELEM/PA``; None when
    the source names no place."""
    return " — ".join(filter(None, [local, "/".join(filter(None, [municipio, uf]))])) or None


def places(local: list, municipio: list, uf: list) -> list[str | None]:
    """:func:`place` of each notice, from the three columns, once per distinct place."""
    return once_per_value(lambda where: place(*where), list(zip(local, municipio, uf)))


def shown(columns: dict[str, list], carriers: dict, label) -> dict[str, list]:
    """The cells of the notices listed on a line's or a carrier's page (``_tables.html`` ``infractions``) as the
    page shows them, from the notices' ``columns`` (``{name: values}``, a row a position): each cell made by the
    theme's filters (pipeline/site/filters.py) once per distinct value, not once per row of every page in the
    template. ``carriers``: ``{cnpj: carrier}``; ``label(field, value)``: the pt-BR label of a value of
    ``infracoes``. A notice whose carrier has no page names its CNPJ, formatted."""
    day, iso, money = FILTERS["data_br"], FILTERS["iso"], FILTERS["reais"]

    def carrier(cnpj):
        c = carriers.get(cnpj)
        return (c["razao_social"], c["url"]) if c else (FILTERS["cnpj"](cnpj), None)

    who = once_per_value(carrier, columns["transportadora_cnpj"])
    return {
        "numero_auto": columns["numero_auto"],
        "data_hora_iso": once_per_value(iso, columns["data_hora"]),
        "data_hora": once_per_value(day, columns["data_hora"]),
        "transportadora": [w[0] for w in who],
        "transportadora_url": [w[1] for w in who],
        "linha_prefixo": columns["linha_prefixo"],
        "linha_url": once_per_value(lambda p: urls.url("linha", slug=slugify(p)) if p else None,
                                    columns["linha_prefixo"]),
        "lugar": [p or "" for p in places(columns["local"], columns["municipio"], columns["uf"])],
        "enquadramento": columns["enquadramento"],
        "enquadramento_url": once_per_value(clausula_url, columns["enquadramento"]),
        "penalidade": once_per_value(lambda v: label("penalidade", v), columns["penalidade"]),
        "valor_multa": once_per_value(money, columns["valor_multa"]),
        "situacao": once_per_value(lambda v: label("situacao", v), columns["situacao"]),
        "prazo_defesa": once_per_value(day, columns["prazo_defesa"]),
        "prazo_recurso": once_per_value(day, columns["prazo_recurso"]),
    }


def suffix_length(count: int) -> int:
    """How many final characters of the number name a file: 10^n files of about ``PER_FILE`` notices."""
    return max(1, math.ceil(math.log10(count / PER_FILE))) if count > PER_FILE else 1


def keys(numbers: pd.Series) -> list[str]:
    """:func:`~pipeline.site.identifiers.key` of each number; most are letters and digits already."""
    plain = numbers.str.fullmatch(r"[0-9A-Za-z]+").fillna(False).tolist()
    return [n.upper() if ok else key(n) for n, ok in zip(numbers.tolist(), plain)]


def job_codes(keys: list[str], digits: int) -> np.ndarray:
    """What shares the notices among the page stage's jobs: a number of the last two characters of each key
    (the last one alone when a file is named by one character, -1 for an empty key), so that the notices of
    one file (the same last ``digits`` characters) are in one job, and the jobs are about even (the last
    character alone has ten values for numbers of digits, which left a fifth of the notices in one job)."""
    return np.array([_job_code(k, digits) for k in keys], dtype=np.int64)


def _job_code(key_: str, digits: int) -> int:
    if not key_:
        return -1
    before = ord(key_[-2]) if digits >= 2 and len(key_) >= 2 else 0
    return 10 * before + ord(key_[-1])


def job_count(count: int) -> int:
    """How many jobs share the notices' files: at least :data:`NOTICE_PARTS`, and no more than
    :data:`NOTICES_PER_JOB` notices in a job, which holds its notices' rows at once."""
    return max(NOTICE_PARTS, math.ceil(count / NOTICES_PER_JOB))


# the notices' files are shared among at least this many jobs: four per worker at the usual two
NOTICE_PARTS = 8
NOTICES_PER_JOB = 60_000


def _iso(column: pd.Series, unit: str) -> list:
    """ISO text of each date (``unit="D"``) or date and time to the minute (``"m"``), None where empty:
    numpy's vectorised formatting (pandas' strftime runs per value) of each distinct value once."""
    codes, distinct = pd.factorize(pd.to_datetime(column, errors="coerce"))  # NaT: -1
    texts = np.datetime_as_string(distinct.to_numpy(dtype="datetime64[ns]"), unit=unit).tolist()
    return np.array(texts + [None], dtype=object)[codes].tolist()


def shards(data, label, digits: int, part: int = 0, parts: int = 1) -> dict[str, dict[str, list]]:
    """``busca/autos/<suffix>.json`` -> ``{number reduced: its row}``, for the numbers whose job code
    (:func:`job_codes`) falls in ``part`` of ``parts`` (the page stage's jobs share them); ``label(field,
    value)`` gives the pt-BR label of an enum value of ``infracoes``. Every numeric suffix has its file,
    empty or not, so the search page never asks for one in vain."""
    inf = data.tables["infracoes"]
    every = data.notice_keys
    codes = data.notice_job_codes
    mine = np.flatnonzero((codes >= 0) & (codes % parts == part)).tolist()
    rows = inf.iloc[mine]
    carriers = data.carriers_by_cnpj

    def carrier(cnpj):
        c = carriers.get(cnpj)
        return (c["razao_social"], c["url"]) if c else (cnpj, None)

    coded = Coded(rows)
    who = coded.column("transportadora_cnpj", carrier)
    where = places(rows["local"].tolist(), rows["municipio"].tolist(), rows["uf"].tolist())
    columns = [
        rows["numero_auto"].tolist(),
        [w[0] for w in who], [w[1] for w in who],
        [p or None for p in rows["linha_prefixo"].tolist()],
        coded.column("linha_prefixo", lambda p: urls.url("linha", slug=slugify(p)) if p else None),
        _iso(rows["data_hora"], "m"),
        where,
        rows["enquadramento"].tolist(),
        coded.column("enquadramento", clausula_url),
        rows["grupo"].tolist(),
        coded.column("penalidade", lambda v: label("penalidade", v)),
        coded.column("valor_multa", lambda v: cell(v, "number")),
        coded.column("situacao", lambda v: label("situacao", v)),
        _iso(rows["prazo_defesa"], "D"),
        _iso(rows["prazo_recurso"], "D"),
    ]
    out: dict[str, dict[str, list]] = {}
    for k, row in zip([every[i] for i in mine], zip(*columns)):
        out.setdefault(k[-digits:], {})[k] = row  # a tuple: written as a JSON array
    for n in range(10 ** digits):
        suffix = str(n).zfill(digits)
        if _job_code(suffix, digits) % parts == part:
            out.setdefault(suffix, {})
    return {f"busca/autos/{k}.json": dict(sorted(v.items())) for k, v in sorted(out.items())}
