"""What changed of each line, carrier and pair of places between two releases: the change log's rows
(pipeline/release/changes.py, the same comparison of the published CSVs, with every changed row kept beside
the entry cut at ``CHANGES_LISTED``) read as the events a passenger or a journalist follows, each page's Atom
feed (pipeline/site/feeds.py ``RecordFeeds``):

- departures added or removed (``horarios``), one event per line, release and kind;
- stretches paralysed or no longer listed as paralysed (``paralisacoes``), one event per line, release and kind;
- a licence (``habilitacoes``) included, removed or changed, one per carrier and market;
- an outorga included, removed, or whose stated fields or situation changed (``outorgas``).

An event about many rows names the first :data:`LISTED` and counts the rest. A table is followed only where
both releases cover it (``x-cobertura``): rows of a table the previous release had no source for are unknown,
not new. The test company's rows are never followed.

Each event is dated by the source: paralysed stretches by the latest paralysis date, departures added by their
latest authorization date, an outorga by its start or extinction; where the source gives no date of the change
(departures or paralyses gone, a licence changed), by the date the source's file states in the descriptor when
it states a day, else by the release's date; the summary says which.

An event names the pages it concerns (``paginas``): its line's, each carrier's, and each pair of places whose
answer lists the line (paralysed stretches: the pairs of those stretches). Events of earlier releases are
carried from the previous site's ``dados/mudancas-por-registro.json`` (as ``versoes.json`` is,
pipeline/release/versions.py): each page keeps its :data:`LIMIT` latest, a page that is not in tonight's site
loses its own, and all the feeds with their index are fitted under :data:`FEEDS_MAX_BYTES` (:func:`fit`).
"""

from __future__ import annotations

import hashlib
import json
import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

import pandas as pd

from ..contract.schema import primary_key_of

TABLES = ("horarios", "paralisacoes", "habilitacoes", "outorgas")
INDEX = "mudancas-por-registro.json"  # beside /dados/versoes.json: the events each page's feed lists
LIMIT = 20  # entries per page's feed
# what the pages' feeds and their index may weigh together in the Pages artifact (a tar: pipeline/publish/hosting.py),
# measured before they are written: a night that changes every line's timetable must not push the site over its host
FEEDS_MAX_BYTES = 24 * 2**20
LISTED = 10  # departures or stretches named in one event (the rest counted)
MAX_INDEX_BYTES = 32 * 1024 * 1024
MAX_TEXT = 4000
MAX_PAGES = 5000  # pages one event names (a line's pairs of places)

# what a change is called, in pt-BR, by the kind of event (``tipo``)
TYPES = {
    "partidas_incluidas": "Partidas incluídas",
    "partidas_removidas": "Partidas removidas",
    "paralisacao_iniciada": "Paralisação iniciada",
    "paralisacao_encerrada": "Paralisação encerrada",
    "habilitacao_incluida": "Habilitação incluída",
    "habilitacao_removida": "Habilitação removida",
    "habilitacao_alterada": "Habilitação alterada",
    "outorga_incluida": "Outorga incluída",
    "outorga_removida": "Outorga removida",
    "outorga_alterada": "Outorga alterada",
    "outorga_situacao": "Situação da outorga recalculada",
}
WEEKDAYS = (("segunda", "seg"), ("terca", "ter"), ("quarta", "qua"), ("quinta", "qui"), ("sexta", "sex"),
            ("sabado", "sáb"), ("domingo", "dom"))
MONTHS = (("janeiro", "jan"), ("fevereiro", "fev"), ("marco", "mar"), ("abril", "abr"), ("maio", "mai"),
          ("junho", "jun"), ("julho", "jul"), ("agosto", "ago"), ("setembro", "set"), ("outubro", "out"),
          ("novembro", "nov"), ("dezembro", "dez"))
_EVENT_ID = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}(-[0-9a-f]{12})?/[a-z_]{1,40}/[0-9a-f]{16}\Z")
_PAGE = re.compile(r"/(?:[a-z0-9][a-z0-9-]{0,120}/){1,6}\Z")
_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}\Z")


@dataclass
class Pages:
    """Tonight's pages an event may name, from the site's records (pipeline/site/feeds.py ``record_pages``):
    each line's, each carrier's, each pair of places' answer (by the places' keys), the pairs whose answer
    lists a line, and each page's title."""
    line: dict[str, str] = field(default_factory=dict)  # prefix -> /linhas/<slug>/
    carrier: dict[str, str] = field(default_factory=dict)  # CNPJ -> /transportadoras/<cnpj>/
    pair: dict[tuple[str, str], str] = field(default_factory=dict)  # (place key, place key) -> its answer's URL
    pairs_of_line: dict[str, list[str]] = field(default_factory=dict)
    titles: dict[str, str] = field(default_factory=dict)  # page URL -> what its feed is titled after
    test_carriers: set[str] = field(default_factory=set)  # the export's test company: never followed

    def exists(self, url: str) -> bool:
        return url in self.titles

    def of_line(self, prefix: str, carriers=()) -> list[str]:
        """The pages of a line's event: the line's, its carriers', the pairs whose answer lists it."""
        found = [self.line.get(prefix)] + [self.carrier.get(c) for c in sorted(set(carriers))]
        return list(dict.fromkeys(u for u in found + self.pairs_of_line.get(prefix, []) if u))


def _current_text(df: pd.DataFrame, resource: dict) -> pd.DataFrame:
    """A table as its published CSV reads (pipeline/publish/tabular.py writes it; changes.py reads it back)."""
    from ..publish import tabular
    from .changes import _read_csv

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / resource["path"]
        tabular.write_csv(df, resource, path)
        return _read_csv(path.read_bytes(), resource["name"])


def _covered(resource: dict | None) -> bool:
    cover = resource.get("x-cobertura") if isinstance(resource, dict) else None
    return isinstance(cover, dict) and cover.get("situacao") == "coberta"


@dataclass
class Compared:
    """The followed tables compared with the previous release: each one's change-log entry, cut at the change
    log's limit (:func:`changes.compare` takes them as made, ``done``), and every row of each change
    (``changes._compare_table``'s ``rows``: the rows added and removed as frames), for the events."""
    entries: dict[str, dict] = field(default_factory=dict)
    rows: dict[str, dict] = field(default_factory=dict)


def compared(previous, tables: dict[str, pd.DataFrame], descriptor: dict, limit: int | None) -> Compared:
    """Each followed table that both releases cover, compared as :func:`changes.compare` compares it (the
    published CSV's text, the same key and derived fields, ``limit`` rows listed per change)."""
    from .changes import _compare_table, derived_fields

    now = {r["name"]: r for r in descriptor["resources"]}
    before = {r["name"]: r for r in previous.descriptor.get("resources") or [] if isinstance(r, dict)}
    found = Compared()
    for name in TABLES:
        if name not in tables or name not in previous.tables or not (_covered(now.get(name)) and _covered(before.get(name))):
            continue
        found.rows[name] = {}
        found.entries[name] = _compare_table(name, previous.tables[name], _current_text(tables[name], now[name]),
                                             primary_key_of(now[name]), limit,
                                             derived_fields(now[name], before[name]), False, found.rows[name])
    return found


def _each(frame: pd.DataFrame):
    """Each row of a frame of cells as {column: cell}, one at a time (a night may change a hundred thousand)."""
    columns = list(frame.columns)
    for cells in zip(*(frame[c].tolist() for c in columns)):
        yield dict(zip(columns, cells))


@dataclass
class Dating:
    """How events are dated: the release's date, and each followed table's source date when the descriptor
    states one whole day for it (one source, or all of its sources on that day)."""
    release: date
    source_days: dict[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, descriptor: dict, as_of: date) -> Dating:
        dates = {s.get("name"): s.get("date") for s in descriptor.get("sources") or [] if isinstance(s, dict)}
        days = {}
        for r in descriptor["resources"]:
            ids = ((r.get("x-cobertura") or {}).get("fontes") or []) if isinstance(r, dict) else []
            stated = {dates.get(i) for i in ids}
            if len(stated) == 1 and isinstance(day := next(iter(stated)), str) and _DAY.match(day):
                days[r["name"]] = day
        return cls(as_of, days)

    def undated(self, table: str) -> tuple[str, str]:
        """(date, what dated it) of a change the source does not date."""
        day = self.source_days.get(table)
        if day:
            return day, "data do arquivo da fonte"
        return self.release.isoformat(), "data desta versão (a fonte não data a mudança)"


def _br(day: str) -> str:
    return "/".join(reversed(day.split("-"))) if _DAY.match(day or "") else (day or "—")


def _flags(row: dict, names) -> list[str]:
    return [short for name, short in names if row.get(name) == "true"]


def _departure(row: dict, label: Callable) -> str:
    """ "ida às 06:00, semileito, seg a dom" (the months when not all)."""
    days = _flags(row, WEEKDAYS)
    said = "todos os dias" if len(days) == 7 else ", ".join(days) if days else "sem dia informado"
    months = _flags(row, MONTHS)
    season = "" if len(months) in (0, 12) else f", só em {', '.join(months)}"
    category = label("horarios", "categoria", row.get("categoria"))
    return f"{row.get('sentido') or '—'} às {row.get('horario') or '—'}, {category}, {said}{season}"


def _value(table: str, column: str, value: str, label: Callable) -> str:
    """A cell as a page shows it: a date in pt-BR, a category by its label, "—" for none."""
    if not value:
        return "—"
    return _br(value) if _DAY.match(value) else label(table, column, value)


def _changed(table: str, fields: dict, label: Callable, title: Callable) -> list[str]:
    """ "Validade: 31/12/2027 → 31/12/2028", a changed field each."""
    return [f"{title(table, c)}: {_value(table, c, v['antes'], label)} → {_value(table, c, v['depois'], label)}"
            for c, v in fields.items()]


def _event(version: str, kind: str, day: str, dated_by: str, title: str, summary: str, pages: list[str]) -> dict:
    digest = hashlib.sha256(json.dumps([kind, title, summary, pages], ensure_ascii=False).encode()).hexdigest()[:16]
    return {"id": f"{version}/{kind}/{digest}", "versao": version, "tipo": kind, "data": day, "datada_por": dated_by,
            "titulo": title, "resumo": summary, "paginas": pages}


def events(rows: dict[str, dict], pages: Pages, dating: Dating, version: str, label: Callable,
           place_key: Callable[[str, str], str], grants: dict[str, tuple[str, str]] | None = None,
           title: Callable[[str, str], str] = lambda table, column: column) -> list[dict]:
    """Tonight's events from every changed row of the followed tables (:attr:`Compared.rows`), naming tonight's
    pages; ``label(table, column, value)`` and ``title(table, column)`` say a value and a column in pt-BR (the
    schema's); ``grants``: each outorga's line and carrier (:func:`grants_of`), which a changed row's key
    does not give. Departures and paralyses make one event per line and kind of change, naming the first
    :data:`LISTED` and counting the rest."""
    found: list[dict] = []
    grants = grants or {}
    for kind, change in (("partidas_incluidas", "incluidos"), ("partidas_removidas", "removidos")):
        by_line = _by_line(rows.get("horarios", {}).get(change), pages)
        for prefix, rows_of in by_line.items():
            rows_of.sort(key=lambda x: (x.get("sentido", ""), x.get("horario", ""), x.get("categoria", "")))
            authorized = sorted(d for d in (x.get("data_autorizacao") or "" for x in rows_of) if _DAY.match(d))
            if kind == "partidas_incluidas" and authorized:
                day, dated_by = authorized[-1], "data de autorização mais recente das partidas incluídas"
            else:
                day, dated_by = dating.undated("horarios")
            said = "incluída(s)" if kind == "partidas_incluidas" else "removida(s)"
            found.append(_event(version, kind, day, dated_by,
                                f"Linha {prefix}: {len(rows_of)} partida(s) {said} no quadro de horários",
                                _listed([_departure(x, label) for x in rows_of]),
                                pages.of_line(prefix, [x.get("transportadora_cnpj") for x in rows_of])))
    for kind, change in (("paralisacao_iniciada", "incluidos"), ("paralisacao_encerrada", "removidos")):
        by_line = _by_line(rows.get("paralisacoes", {}).get(change), pages)
        for prefix, rows_of in by_line.items():
            rows_of.sort(key=lambda x: (x.get("data_paralisacao", ""), x.get("origem_municipio", ""),
                                        x.get("destino_municipio", "")), reverse=True)
            since = sorted(d for d in (x.get("data_paralisacao") or "" for x in rows_of) if _DAY.match(d))
            if kind == "paralisacao_iniciada" and since:
                day, dated_by = since[-1], "data de paralisação mais recente"
            else:
                day, dated_by = dating.undated("paralisacoes")
            stretches = [f"{x.get('origem_municipio', '')} ({x.get('origem_uf', '')}) → {x.get('destino_municipio', '')} "
                         f"({x.get('destino_uf', '')}), paralisado desde {_br(x.get('data_paralisacao') or '')}"
                         for x in rows_of]
            pairs = [pages.pair.get((place_key(x.get("origem_municipio", ""), x.get("origem_uf", "")),
                                     place_key(x.get("destino_municipio", ""), x.get("destino_uf", ""))))
                     for x in rows_of]
            named = [pages.line.get(prefix)] + [pages.carrier.get(c) for c in
                                                sorted({x.get("transportadora_cnpj") or "" for x in rows_of})] + pairs
            what = "trecho(s) paralisado(s)" if kind == "paralisacao_iniciada" else \
                "trecho(s) fora da lista de serviços paralisados da fonte (paralisação encerrada)"
            found.append(_event(version, kind, day, dated_by, f"Linha {prefix}: {len(rows_of)} {what}",
                                _listed(stretches), [u for u in dict.fromkeys(named) if u]))
    licences = rows.get("habilitacoes", {})
    for kind, change in (("habilitacao_incluida", "incluidos"), ("habilitacao_removida", "removidos"),
                         ("habilitacao_alterada", "alterados")):
        for r in _changes(licences.get(change), ("transportadora_cnpj", "mercado")):
            cnpj, market = r["chave"].get("transportadora_cnpj", ""), r["chave"].get("mercado", "")
            if cnpj in pages.test_carriers or cnpj not in pages.carrier:
                continue
            day, dated_by = dating.undated("habilitacoes")
            if change == "alterados":
                summary = "; ".join(_changed("habilitacoes", r["campos"], label, title))
            else:
                summary = "; ".join(f"{title('habilitacoes', c)}: {_value('habilitacoes', c, r['registro'].get(c) or '', label)}"
                                    for c in ("numero_tar", "vigencia", "situacao"))
            found.append(_event(version, kind, day, dated_by,
                                f"{TYPES[kind]} (mercado {label('habilitacoes', 'mercado', market)})",
                                f"{summary}.", [pages.carrier[cnpj]]))
    changed_grants = rows.get("outorgas", {})
    for kind, change in (("outorga_incluida", "incluidos"), ("outorga_removida", "removidos"),
                         ("outorga_alterada", "alterados"), ("outorga_situacao", "recalculados")):
        for r in _changes(changed_grants.get(change), ("id",)):
            found += _grant_event(r, kind, change, pages, dating, version, label, title, grants)
    return [e for e in found if e["paginas"]]


def _changes(changed, key: tuple[str, ...]) -> list[dict]:
    """A change of :attr:`Compared.rows` as the change log lists it: the rows changed or recomputed as they
    are, the rows added or removed (a frame) each as ``{"chave": {...}, "registro": {...}}``; [] for none."""
    if changed is None or isinstance(changed, list):
        return changed or []
    return [{"chave": {k: r.get(k, "") for k in key}, "registro": r} for r in _each(changed)]


def _by_line(frame: pd.DataFrame | None, pages: Pages) -> dict[str, list[dict]]:
    """The rows of ``frame`` (added or removed) by line, in the order of the lines' prefixes; the test
    company's left out."""
    by_line: dict[str, list[dict]] = {}
    for row in _each(frame) if frame is not None else ():
        if row.get("transportadora_cnpj") not in pages.test_carriers:
            by_line.setdefault(row.get("linha_prefixo", ""), []).append(row)
    return dict(sorted(by_line.items()))


def _listed(items: list[str]) -> str:
    """The first :data:`LISTED` of ``items``, then how many more."""
    more = f"; e mais {len(items) - LISTED}" if len(items) > LISTED else ""
    return "; ".join(items[:LISTED]) + more + "."


def _grant_event(r: dict, kind: str, change: str, pages: Pages, dating: Dating, version: str, label: Callable,
                 title: Callable, grants: dict) -> list[dict]:
    """An outorga's event (none for a recalculation that left its situation as it was)."""
    row = r.get("registro") or {}
    ident = r["chave"].get("id", "")
    fields = r.get("campos") or {}
    recomputed = r.get("recalculados") or {}
    if change == "recalculados" and "situacao" not in fields:
        return []  # a deadline's wording recomputed, the situation the same: nothing to follow
    situation = (fields if change == "recalculados" else recomputed).get("situacao")
    if change == "incluidos" and _DAY.match(row.get("inicio") or ""):
        day, dated_by = row["inicio"], "data de início da outorga"
    elif change == "alterados" and _DAY.match((fields.get("extinta_em") or {}).get("depois") or ""):
        day, dated_by = fields["extinta_em"]["depois"], "data da extinção da outorga"
    elif change == "recalculados":
        day, dated_by = dating.release.isoformat(), "data dos cálculos desta versão"
    else:
        day, dated_by = dating.undated("outorgas")
    said = _changed("outorgas", fields, label, title) if change == "alterados" else []
    if situation:
        said += _changed("outorgas", {"situacao": situation}, label, title)
    if change in ("incluidos", "removidos"):
        said = [f"{title('outorgas', c)}: {_value('outorgas', c, row.get(c) or '', label)}"
                for c in ("ato", "inicio", "situacao")]
    prefix, cnpj = row.get("linha_prefixo") or "", row.get("transportadora_cnpj") or ""
    if change in ("alterados", "recalculados"):
        prefix, cnpj = grants.get(ident, (prefix, cnpj))
    if cnpj in pages.test_carriers:
        return []
    named = [pages.line.get(prefix), pages.carrier.get(cnpj)]
    return [_event(version, kind, day, dated_by, f"Outorga {ident}: {TYPES[kind].lower()}",
                   "; ".join(said) + ".", [u for u in dict.fromkeys(named) if u])]


def grants_of(outorgas: pd.DataFrame | None) -> dict[str, tuple[str, str]]:
    """Each outorga's line prefix and carrier's CNPJ ("" for none), by its id."""
    if outorgas is None or not len(outorgas):
        return {}
    text = {c: ["" if v is None or v != v else str(v) for v in outorgas[c].tolist()]
            for c in ("id", "linha_prefixo", "transportadora_cnpj")}
    return {i: (p, c) for i, p, c in zip(text["id"], text["linha_prefixo"], text["transportadora_cnpj"])}


def read_carried(where: str | None) -> list[dict]:
    """The events the previous site's ``dados/mudancas-por-registro.json`` lists (``--anterior``, a folder or an
    http(s) URL of its ``dados/``); [] without one. It comes from outside: bounded, and an event not of the
    shape :func:`_event` writes is left out (its texts are escaped again when a feed is written)."""
    from .versions import read_carried as read

    loaded = read(where or "", INDEX, MAX_INDEX_BYTES)
    listed = loaded.get("eventos") if isinstance(loaded, dict) else None
    return [e for e in listed or [] if _shape(e)]


def _shape(e) -> bool:
    from .versions import version_name

    if not isinstance(e, dict) or not isinstance(e.get("id"), str) or not _EVENT_ID.match(e["id"]):
        return False
    if not isinstance(e.get("versao"), str) or not version_name(e["versao"]) or not e["id"].startswith(e["versao"] + "/"):
        return False
    if e.get("tipo") not in TYPES or not isinstance(e.get("data"), str) or not _DAY.match(e["data"]):
        return False
    try:
        date.fromisoformat(e["data"])
    except ValueError:
        return False
    texts = ("titulo", "resumo", "datada_por")
    if not all(isinstance(e.get(k), str) and len(e[k]) <= MAX_TEXT for k in texts):
        return False
    pages = e.get("paginas")
    return isinstance(pages, list) and 0 < len(pages) <= MAX_PAGES and all(
        isinstance(p, str) and _PAGE.match(p) and ".." not in p for p in pages)


def _newest_first(e: dict) -> tuple:
    return (-date.fromisoformat(e["data"]).toordinal(), _reverse(e["versao"]), e["id"])


def _reverse(text: str) -> tuple:
    return tuple(-ord(c) for c in text)


def merged(carried: list[dict], tonight: list[dict], exists: Callable[[str], bool],
           limit: int = LIMIT) -> dict[str, list[dict]]:
    """Each page of tonight's site with the :data:`LIMIT` latest events that name it, newest first (by the
    source's date, then the later release): tonight's and the carried ones, once each (the same data built
    again, with the first build as the previous release, compares equal and keeps the first build's events)."""
    unique = {e["id"]: e for e in carried + tonight}
    by_page: dict[str, list[dict]] = {}
    for e in sorted(unique.values(), key=_newest_first):
        for page in e["paginas"]:
            if exists(page):
                listed = by_page.setdefault(page, [])
                if len(listed) < limit:
                    listed.append(e)
    return by_page


def _tar_bytes(size: int) -> int:
    return 512 + -(-size // 512) * 512


Measure = Callable[[str, list[dict]], tuple[int, list[int]]]  # (page, events) -> (feed but entries, each entry)


def weight(by_page: dict[str, list[dict]], measure: Measure) -> int:
    """What the pages' feeds and their index (:func:`index`) weigh in the Pages artifact: each feed's share
    of a tar, as ``measure`` gives its bytes (pipeline/site/feeds.py ``RecordFeeds.measure``), and the index's
    (each event once, each page that lists it)."""
    return _weigh(by_page, {page: measure(page, events) for page, events in by_page.items()})


def _weigh(by_page: dict[str, list[dict]], measured: dict[str, tuple[int, list[int]]],
           indexed: dict[str, int] | None = None) -> int:
    weighing = _Weighing(measured, indexed)
    for page, events in by_page.items():
        weighing.add(page, events)
    return weighing.total


class _Weighing:
    """:func:`weight` added up page by page, each event counted once in the index."""

    def __init__(self, measured: dict[str, tuple[int, list[int]]], indexed: dict[str, int] | None = None):
        self.measured = measured
        self.indexed = {} if indexed is None else indexed  # an event's bytes in the index but its pages, by id
        self.total = 2 * 512 + len(b'{"eventos":[]}\n')  # the index's header, its last block, its frame
        self.seen: set[str] = set()

    def _indexed(self, e: dict) -> int:
        size = self.indexed.get(e["id"])
        if size is None:
            size = self.indexed[e["id"]] = len(json.dumps({**e, "paginas": []}, ensure_ascii=False,
                                                          separators=(",", ":")).encode()) + 1
        return size

    def of(self, page: str, events: list[dict]) -> int:
        fixed, entries = self.measured[page]
        feed = _tar_bytes(fixed + sum(entries[:len(events)]) + 4)  # 4: the count's digits, give or take
        indexed = sum(self._indexed(e) for e in events if e["id"] not in self.seen)
        listed = sum(len(json.dumps(page).encode()) + 1 for _ in events)
        return feed + indexed + listed

    def add(self, page: str, events: list[dict], size: int | None = None) -> None:
        self.total += self.of(page, events) if size is None else size
        self.seen.update(e["id"] for e in events)


def fit(by_page: dict[str, list[dict]], measure: Measure,
        budget: int = FEEDS_MAX_BYTES) -> tuple[dict[str, list[dict]], str | None]:
    """``by_page`` within ``budget`` (:func:`weight`): fewer entries per feed (halved, down to one), then, if
    still over, the feeds of the pages whose latest change is oldest left out; with what was cut, in pt-BR
    (None when nothing was). Each feed is rendered once, by ``measure``."""
    measured = {page: measure(page, events) for page, events in by_page.items()}
    indexed: dict[str, int] = {}  # each event's bytes in the index, measured once for every weighing below
    limit = max((len(v) for v in by_page.values()), default=0)
    fitted = by_page
    total = _weigh(fitted, measured, indexed)
    while limit > 1 and total > budget:
        limit //= 2
        fitted = {page: events[:limit] for page, events in by_page.items()}
        total = _weigh(fitted, measured, indexed)
    if total <= budget:
        return fitted, None if fitted is by_page else (
            f"reduzidos a {limit} mudança(s) por página, as mais recentes: juntos passariam de {_mib(budget)}")
    kept, weighing = {}, _Weighing(measured, indexed)
    for page, events in sorted(fitted.items(), key=lambda x: (_newest_first(x[1][0]), x[0])):
        size = weighing.of(page, events)
        if weighing.total + size > budget:
            break
        kept[page] = events
        weighing.add(page, events, size)
    return kept, (f"reduzidos à mudança mais recente de cada página, e {len(fitted) - len(kept)} feed(s) das "
                  f"páginas que mudaram há mais tempo não escrito(s): juntos passariam de {_mib(budget)}")


def _mib(n: int) -> str:
    return f"{n / 2**20:.0f} MiB" if n >= 2**20 else f"{n} bytes"


def index(by_page: dict[str, list[dict]]) -> dict:
    """``dados/mudancas-por-registro.json``: every event some page's feed lists, newest first, each naming the
    pages whose feed lists it (an event below a page's latest :data:`LIMIT` never comes back to it)."""
    listed: dict[str, dict] = {}
    pages: dict[str, set[str]] = {}
    for page, events in by_page.items():
        for e in events:
            listed.setdefault(e["id"], e)
            pages.setdefault(e["id"], set()).add(page)
    return {"eventos": [{**e, "paginas": [p for p in e["paginas"] if p in pages[e["id"]]]}
                        for e in sorted(listed.values(), key=_newest_first)]}


def write_index(out: Path, by_page: dict[str, list[dict]]) -> Path:
    path = out / INDEX
    path.write_text(json.dumps(index(by_page), ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
    return path
