"""The JSON files the pages' scripts read, as jobs the page stage splits over its workers with the pages:
the "De ... Para ..." form's places and answers (pipeline/site/cities.py), the constants of the rule that
matches names as typed (pipeline/places/matching.py), the lines' filters
(pipeline/site/indexes.py), the verification codes of art. 12 (pipeline/site/verification.py) and the
identifiers as typed (pipeline/site/identifiers.py). Each job returns ``{path under the site: value}``.

Every address of the site in them carries the sub-path the site is served from (:func:`on_site`), as the
pages' links do: the files are public, and a reader of ``/portal/cidades/index.json`` follows its ``url``s
as they are; the pages' scripts use them as they are too."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from ..contract.identifiers import slugify
from ..places.matching import rules
from . import identifiers, names, notices, urls, verification
from .cities import answers_json, index_json, sources_json
from .indexes import LINE_FIELDS, lines_json
from .record import addressed

# the files made of rows (compact lists), with the names of their cells: a cell named ``url`` or ``*_url``
# is an address of the site. In every other file, the ``url`` keys of its objects are.
ROWS = (("busca/nomes/", names.FIELDS), ("linhas/", LINE_FIELDS))  # [row...]
KEYED_ROWS = (("busca/ids/", identifiers.FIELDS), ("busca/autos/", notices.FIELDS))  # {key: row}
KEYED_ADDRESSES = ("verificar/",)  # {code: address}


def on_site(path: str, value, base: str):
    """``value`` of the file at ``path`` with every address of the site under ``base`` (``/portal``)."""
    if not base:
        return value

    def at(address):
        return base + address if isinstance(address, str) and address.startswith("/") else address

    def row(cells, fields):
        return [at(c) if f == "url" or f.endswith("_url") else c for f, c in zip(fields, cells, strict=True)]

    for prefix, fields in ROWS:
        if path.startswith(prefix):
            return [row(r, fields) for r in value]
    for prefix, fields in KEYED_ROWS:
        if path.startswith(prefix):
            return {k: row(r, fields) for k, r in value.items()}
    if path.startswith(KEYED_ADDRESSES):
        return {k: at(v) for k, v in value.items()}
    return addressed(value, base)


def verification_shards(data) -> dict[str, dict]:
    """``verificar/<xx>.json`` for every two hex digits, empty ones too: a code that matches nothing is
    not a 404."""
    shards: dict[str, dict[str, str]] = {}
    for rec in data.records["outorga"] + data.records["caducidade"]:
        digits = verification.normalise(rec["codigo_verificacao"])
        shards.setdefault(verification.shard(digits), {})[digits] = rec["url"]
    return {f"verificar/{n:02x}.json": dict(sorted(shards.get(f"{n:02x}", {}).items())) for n in range(256)}


def identifier_shards(data) -> dict[str, dict]:
    return {f"busca/ids/{name}.json": dict(sorted(keys.items())) for name, keys in identifiers.shards(data).items()}


Job = Callable[[], dict[str, object]]


def jobs(data, label: Callable[[str, str, object], str]) -> tuple[list[Job], list[Job]]:
    """The jobs, as (the long ones, the short ones): the page stage takes each long job alone, before the
    pages, and the short ones after them (``parallel.split``'s ``alone``). ``label(table, field, value)``
    gives an enum value's pt-BR label."""
    category = partial(label, "tarifas", "categoria")
    long = [lambda: {"cidades/index.json": index_json(data.records["cidade"], data.records["linha"]),
                     "cidades/fontes.json": sources_json(data.coverage), "busca/regras.json": rules()},
            partial(verification_shards, data), partial(identifier_shards, data), partial(names.shards, data)]
    # a job holds its notices' rows at once: in larger jobs those rows set the build's peak memory
    shared = notices.job_count(len(data.tables["infracoes"]))
    long += [partial(notices.shards, data, partial(label, "infracoes"), data.notice_digits, part, shared)
             for part in range(shared)]
    short = [lambda uf=uf, lines=lines: {urls.path("linhas_uf", slug=slugify(uf)) + "linhas.json": lines_json(lines, data.schema.categories)}
             for uf, lines in data.lines_by_uf.items()]
    short += [partial(answers_json, city, category) for city in data.records["cidade"]]
    return long, short


def work(pages: list, data, label: Callable[[str, str, object], str]) -> tuple[list, int]:
    """The page stage's items in the order it takes them: each long job, the ``pages`` (``(url, template,
    context)``), then the short jobs, a job as ``(None, None, job)``; and how many come first to be taken one
    at a time (``parallel.split``'s ``alone``)."""
    long, short = ([(None, None, job) for job in listed] for listed in jobs(data, label))
    return long + pages + short, len(long)
