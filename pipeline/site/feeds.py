"""Atom feeds of what is new: the latest outorgas, caducidades and promotional fares, and the findings,
under ``feeds/``, written with Pelican's feed machinery (``feedgenerator.Atom1Feed``).

Every feed is valid Atom (RFC 4287; tests/test_feeds_rfc4287.py checks its MUSTs): one id, title and updated,
an author (the portal), and each entry with one id, title, updated and its rel="alternate" link.

Dates come from the data, never from the clock, so the same input gives the same bytes (feedgenerator falls
back to "now" for a feed without entries and for an entry without a date, and neither fallback is ever
reached here): an outorga by its start, a caducidade by its declaration, a promotion by its communication to
the regulator, a finding by the date of the record it concerns that its rule looked at (``FINDING_DATES``:
an outorga's start, a caducidade's declaration, a promotion's communication or start, an infraction's date
and time). A finding whose record has no such date (none today: the schema requires each of them) is dated
by ``--as-of``, the date of the calculations that found it, and its summary says so. A feed's date is its
newest entry's, or ``--as-of`` when it has none. A date is the day's midnight in Brasília's legal time, with
the offset (``-03:00``, ``-02:00`` in the summers of horário de verão: pipeline/contract/clock.py
``local_moment``): a midnight written in UTC would show the day before in Brazil. An infraction's date-time
is the source's wall clock in no stated zone (clock.py): its entry is dated by its day, likewise. Entries are sorted newest first, then by key
(the findings by rule, key, table, description).

Provenance (data contract, "Coverage and provenance"): each feed's ``atom:subtitle`` says what it lists and
how many, in which order, from which sources of which date, the date of the calculations, and "Dados
fictícios, para demonstração" first when a source is fictional (its entries' summaries begin so too); its
``atom:rights`` gives the licence of what the portal publishes and each source's licence. A feed of a table
no source covers has no entries, its title ends "(fora das fontes deste site)" and its subtitle says "As
fontes deste site não incluem ...", never "0 de 0"; the findings feed counts findings only over the rules
that ran (``SiteData.findings_tally``) and names the tables the others lack.

URLs: with ``--site-url`` every id and link is absolute (``<site-url>/outorgas/<slug>/``), as Atom asks.
Without it the feeds are still written, with root-relative links (prefixed by ``base_path`` when the site
is served under one: the site's writer, pipeline/site/writer.py, writes HTML only) and with ``tag:`` URIs as ids
(RFC 4151; Atom ids must be absolute IRIs), named after the data package (``tag:<name>,2026:/outorgas/x/``)
so that they do not change from one build to the next.

Every text is the data's, hence hostile: feedgenerator escapes XML, and the summaries, which Atom
declares ``type="html"``, are HTML-escaped first, so a ``<script>`` in a description reaches a feed reader
as text. Characters XML 1.0 cannot carry are replaced by U+FFFD.

``FEEDS`` declares the feeds (path, pt-BR title, the SiteData list, the date field) for the templates:
``<link rel="alternate" type="application/atom+xml" href="/{{ f.path }}" title="{{ f.titulo }}">``.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from datetime import date, datetime
from pathlib import Path

from feedgenerator import Atom1Feed

from ..contract.clock import local_moment
from ..contract.identifiers import slugify
from ..contract.kinds import BY_NAME, KIND_OF_TABLE
from ..publish.datapackage import FICTIONAL_LABEL, LICENSE, PORTAL
from ..read.provenance import STALE
from ..release.versions import version_date
from . import urls
from .coverage import NOUNS, PHRASES, join
from .filters import data_br, numero, reais

# path: under the site; titulo: pt-BR; registros: the records listed, a kind of SiteData.records or the
# findings ("linha.tarifas_promocionais": each line's promotions, there being no list of them); data: the date field (None: the findings, dated by their
# records, FINDING_DATES); tabela: the table listed (None: the findings, made by the portal); ordem: how the
# subtitle says the entries are dated; pagina: the page the feed stands for (its rel="alternate" link)
FEEDS: list[dict[str, str | None]] = [
    {"path": "feeds/outorgas.atom.xml", "titulo": "Novas outorgas", "registros": "outorga",
     "data": "inicio", "tabela": "outorgas", "ordem": "pela data de início", "pagina": "/outorgas/"},
    {"path": "feeds/caducidades.atom.xml", "titulo": "Caducidades declaradas", "registros": "caducidade",
     "data": "data_declaracao", "tabela": "caducidades", "ordem": "pela data da declaração",
     "pagina": "/caducidades/"},
    {"path": "feeds/tarifas-promocionais.atom.xml", "titulo": "Tarifas promocionais comunicadas",
     "registros": "linha.tarifas_promocionais", "data": "comunicado_em", "tabela": "tarifas_promocionais",
     "ordem": "pela data da comunicação ao regulador", "pagina": "/dados/"},
    {"path": "feeds/achados.atom.xml", "titulo": "Achados", "registros": "findings", "data": None,
     "tabela": None, "ordem": "pela data do registro em causa", "pagina": "/achados/"},
]

# The date of a finding's entry: the date, in the record the finding concerns, that its rule looked at
# (pipeline/derive/findings.py), with how the subtitle names it. Every rule is named here
# (tests/test_feeds_rfc4287.py); a rule added without a line falls back on its record's table's date
# (TABLE_DATES), then on --as-of, said in the entry.
FINDING_DATES: dict[str, tuple[str, str, str]] = {
    "promocao-sem-antecedencia": ("tarifas_promocionais", "comunicado_em", "a comunicação da promoção"),
    "promocao-acima-do-maximo": ("tarifas_promocionais", "inicio", "o início da promoção"),
    "promocao-sem-outorga": ("tarifas_promocionais", "inicio", "o início da promoção"),
    "outorga-durante-impedimento": ("outorgas", "inicio", "o início da outorga"),
    "caducidade-sem-comunicacoes": ("caducidades", "data_declaracao", "a declaração da caducidade"),
    "operacao-apos-vencimento": ("infracoes", "data_hora", "a data do auto de infração"),
}
TABLE_DATES = {"outorgas": "inicio", "caducidades": "data_declaracao", "tarifas_promocionais": "comunicado_em",
               "infracoes": "data_hora"}

LIMIT = 50
TAG_DATE = "2026"  # the date part of the tag: ids (RFC 4151); fixed forever, or every id would change
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _text(value) -> str:
    """A text as XML 1.0 can carry it."""
    return _NOT_XML.sub("\ufffd", "" if value is None else str(value))


def _line(value) -> str:
    """A title's text: on one line (a carrier's name may hold a carriage return)."""
    return " ".join(_text(value).split())


def _summary(text: str, fictional: bool) -> str:
    """The summary, HTML-escaped (Atom ``type="html"``)."""
    if fictional:
        text = f"{FICTIONAL_LABEL}. " + text
    return html.escape(_text(text), quote=False)


def _carrier(record: dict) -> str:
    carrier = record.get("transportadora")
    return carrier["razao_social"] if carrier else record.get("transportadora_cnpj", "")


def _moment(value) -> datetime | None:
    """A record's date or date-time as an Atom date: its day's midnight with Brasília's offset
    (``local_moment``; a date-time's zone is not known, pipeline/contract/clock.py); None for none."""
    if isinstance(value, datetime):
        if value != value:  # NaT: a datetime unequal to itself
            return None
        return local_moment(datetime.combine(value.date(), datetime.min.time()))
    if isinstance(value, date):
        return local_moment(datetime.combine(value, datetime.min.time()))
    return None


def _br_source_date(day: str) -> str:
    """A source's date (AAAA, AAAA-MM or AAAA-MM-DD) in pt-BR form."""
    return "/".join(reversed(day.split("-"))) if day else "data não informada"


def _source_name(entry: dict) -> str:
    """A source entry of the published descriptor as the subtitle names it: "ANTT — …, Quadro de horários 2021
    (dados de 2021)"; "fonte não declarada (pasta x)" for a folder that declares none."""
    title = _line(entry.get("title") or entry.get("name", ""))
    if entry.get("declared") is False:
        return title
    stale = entry.get(STALE) if isinstance(entry.get(STALE), dict) else {}
    failed = f"; a atualização de {_br_source_date(str(stale['em']))} falhou" if stale.get("em") else ""
    return f"{title} (dados de {_br_source_date(str(entry.get('date') or ''))}{_line(failed)})"


def _sources_sentence(entries: list[dict], of: str = "") -> str:
    """ "Fonte: X (dados de 2021)." or "Fontes: X (…); Y (…)." (``of`` after the noun); "" for none."""
    if not entries:
        return ""
    return f"{'Fonte' if len(entries) == 1 else 'Fontes'}{of}: {'; '.join(_source_name(e) for e in entries)}."


def _rights(entries: list[dict], licences) -> str:
    """``atom:rights``: the licence of what the portal publishes (the descriptor's ``licenses``), then each
    source's licence ("não informada" when its folder does not say), as /dados/ states them."""
    def named(lic: dict) -> str:  # "Creative Commons Atribuição 4.0 Internacional (CC-BY-4.0), https://…"
        title, name, path = (_line(lic.get(k)) for k in ("title", "name", "path"))
        text = f"{title} ({name})" if title and name and title != name else title or name
        return ", ".join(x for x in (text, path) if x)

    own = [lic for lic in licences or () if isinstance(lic, dict)] or [LICENSE]
    text = f"Licença do que o portal publica: {'; '.join(named(lic) for lic in own)}."
    if entries:
        each = "; ".join(f"{_line(e.get('title') or e.get('name', ''))}: {_line(e.get('license')) or 'licença não informada'}"
                         for e in entries)
        text += f" {'Licença da fonte' if len(entries) == 1 else 'Licenças das fontes'}: {each}."
    return _text(text)


def records(data, feed: dict) -> list[dict]:
    """The SiteData records a feed of ``FEEDS`` lists, unsorted."""
    parent, _, child = feed["registros"].partition(".")
    rows = data.records[parent] if parent in data.records else getattr(data, parent)
    return [r for row in rows for r in row.get(child, [])] if child else list(rows)


# Each feed's entry for a record: (title, the page's URL, the entry's unique URL, summary text).
Entry = tuple[str, str, str, str]


def _outorga(o: dict, label: Callable) -> Entry:
    title = (f"Outorga {o['id']} — {label('outorgas', 'instrumento', o['instrumento'])} "
             f"{label('outorgas', 'modalidade', o['modalidade'])}, {_carrier(o)}")
    line = f", linha {o['linha_prefixo']}" if o.get("linha_prefixo") else ""
    summary = f"{o['ato']}. Início em {data_br(o['inicio'])}{line}."
    return title, o["url"], o["url"], summary


def _caducidade(c: dict, label: Callable) -> Entry:
    title = f"Caducidade {c['ato']} — outorga {c['outorga_id']}, {_carrier(c)}"
    summary = (f"Caducidade da outorga {c['outorga_id']} de {_carrier(c)}, declarada em "
               f"{data_br(c['data_declaracao'])}. Fundamento: {label('caducidades', 'fundamento', c['fundamento'])}.")
    return title, c["url"], c["url"], summary


def _promocao(p: dict, label: Callable) -> Entry:
    # no page per promotion: the link is its line's page, which lists it; the id names it on that page
    title = f"Promoção {p['protocolo']} — {p['origem']} → {p['destino']}, {_carrier(p)}"
    summary = (f"Linha {p['linha_prefixo']}, {label('tarifas_promocionais', 'categoria', p['categoria'])}: "
               f"{reais(p['valor'])} de {data_br(p['inicio'])} a {data_br(p['fim'])}, "
               f"comunicada em {data_br(p['comunicado_em'])}.")
    url = p["linha"]["url"]
    return title, url, f"{url}#promocao-{slugify(p['protocolo'])}", summary


def _achado(f: dict, pages: dict[tuple[str, str], str]) -> Entry:
    # linked as /achados/ links it: the outorga's or caducidade's page, else the line's page, which lists it
    url = pages.get((f["tabela"], f["chave"])) or (f["linha"]["url"] if f.get("linha") else None)
    url = url or f"/achados/#regra-{f['regra']}"
    title = f"{f.get('titulo') or f['regra']} — {f['chave']}"
    if f.get("transportadora"):
        title += f", {f['transportadora']['razao_social']}"
    unique = f"/achados/#achado-{slugify(f['regra'])}-{slugify(f['tabela'])}-{slugify(f['chave'])}"
    return title, url, unique, f"{f['descricao']} ({f['artigo']})" if f.get("artigo") else f["descricao"]


def _addresses(site_url: str, base_path: str, package: str) -> tuple[Callable[[str], str], Callable[[str], str]]:
    """``href(url)``, a link (absolute with ``site_url``, else root-relative under ``base_path``), and
    ``unique(url)``, an entry's id (absolute, else a ``tag:`` URI named after the data package)."""
    site_url, base_path = site_url.rstrip("/"), base_path.rstrip("/")
    authority = slugify(package) or "portal"
    return ((lambda url: (site_url or base_path) + url),
            (lambda url: site_url + url if site_url else f"tag:{authority},{TAG_DATE}:{url}"))


class _Feed(Atom1Feed):
    """An Atom feed whose ``updated`` is given (a date, or an aware date-time), never the clock's."""

    def __init__(self, *args, updated: date | datetime, **kwargs):
        super().__init__(*args, **kwargs)
        self._updated = updated if isinstance(updated, datetime) else _moment(updated)

    def latest_post_date(self):
        return self._updated


def _descriptor_sources(descriptor: dict, ids=None) -> list[dict]:
    """The published descriptor's ``sources`` entries (of ``ids``, in the descriptor's order, when given)."""
    entries = [e for e in descriptor.get("sources") or [] if isinstance(e, dict)]
    return entries if ids is None else [e for e in entries if e.get("name") in set(ids)]


def _fictional(descriptor: dict) -> bool:
    return bool(descriptor.get("x-ficticio")) or any(e.get("fictional") is True for e in _descriptor_sources(descriptor))


def _date_field(finding: dict) -> tuple[str, str | None]:
    """The table and date field whose value dates a finding's entry (``FINDING_DATES``, else ``TABLE_DATES``)."""
    table, field, _ = FINDING_DATES.get(finding["regra"], (None, None, None))
    return (table, field) if table == finding["tabela"] else (finding["tabela"], TABLE_DATES.get(finding["tabela"]))


def _finding_dates(data, findings: list[dict]) -> list:
    """Each finding's date: the value of its date field (``_date_field``) in the record it concerns, looked up
    in the published tables by the record's key; None when the record or its date is missing."""
    wanted: dict[tuple[str, str], set] = {}
    for f in findings:
        table, field = _date_field(f)
        if field is not None:
            wanted.setdefault((table, field), set()).add(f["chave"])
    values = {}
    for (table, field), keys in wanted.items():
        df = data.tables.get(table)
        key = data.schema[table].primary_key if table in data.schema.tables else []
        if df is not None and len(key) == 1 and field in df.columns:
            values[(table, field)] = {k: v for k, v in zip(df[key[0]].tolist(), df[field].tolist()) if k in keys}
    return [values.get(_date_field(f), {}).get(f["chave"]) for f in findings]


def _rules_ran(data) -> list:
    """The finding rules that ran (every input table covered), in their order."""
    from ..derive.findings import RULES

    return [r for r in RULES if r.slug not in (data.unchecked or {})]


def _findings_subtitle(data, shown: int) -> str:
    """What the findings feed may say of its count (never "0" where no rule ran) and of the tables the rules
    that could not run lack."""
    tally = data.findings_tally
    lacking = {t for tables in (data.unchecked or {}).values() for t in tables}
    missing = (f" As fontes deste site não incluem {join([n for t, n in NOUNS.items() if t in lacking])}."
               if lacking else "")
    if not tally.verified:
        return f"{tally.text}.{missing}"
    named = list(dict.fromkeys(FINDING_DATES[r.slug][2] for r in _rules_ran(data) if r.slug in FINDING_DATES))
    listed = (f"{numero(shown)} de {numero(tally.found)} achado(s), do mais recente ao mais antigo pela data do "
              f"registro em causa ({join(named, 'ou')})") if tally.found else "Nenhum achado nas regras verificadas"
    return f"{tally.text}.{missing} {listed}."


def _table_subtitle(data, feed: dict, shown: int, total: int) -> str:
    """What a feed of one table lists: the latest rows of how many, or none in its source, or that no source
    of this site includes the table (data contract, "Coverage and provenance")."""
    table = feed["tabela"]
    coverage = data.coverage
    if coverage is not None and not coverage.covered(table):
        return (f"{coverage.not_included(table).rstrip('.')}: este feed não tem entradas porque esses "
                "registros são desconhecidos, não porque não existam.")
    if total == 0:
        none = PHRASES[table][0]
        ids = coverage.tables.get(table, []) if coverage is not None else []
        where = "nas fontes" if len(ids) > 1 else "na fonte"
        return f"{none} {where} deste site." if ids else f"{none}."
    return (f"{numero(shown)} de {numero(total)} registro(s) de {PHRASES[table][1]}, do mais recente ao mais "
            f"antigo {feed['ordem']}.")


def write(out: Path, data, site_url: str, as_of: date, limit: int = LIMIT, *, base_path: str = "") -> list[str]:
    """Write the feeds of ``FEEDS`` under ``out`` (the site's folder), each with the ``limit`` latest
    entries; returns their paths (``feeds/outorgas.atom.xml``...). ``base_path`` prefixes the
    root-relative links when there is no ``site_url`` (which already holds the site's sub-path)."""
    from . import label as schema_label  # here: the package's __init__ may import this module

    if limit < 0:
        raise ValueError(f"limit must be 0 or more, not {limit}")
    href, unique = _addresses(site_url, base_path, data.schema.descriptor.get("name", ""))

    def label(table: str, field: str, value) -> str:
        return schema_label(data.schema, table, field, value)

    pages = {("outorgas", o["id"]): o["url"] for o in data.records["outorga"]}
    pages |= {("caducidades", c["ato"]): c["url"] for c in data.records["caducidade"]}
    makers = {
        "outorga": lambda r: _outorga(r, label),
        "caducidade": lambda r: _caducidade(r, label),
        "linha.tarifas_promocionais": lambda r: _promocao(r, label),
        "findings": lambda r: _achado(r, pages),
    }
    name = data.descriptor.get("title") or data.schema.descriptor.get("title") or PORTAL  # says when fictional
    fictional = bool(getattr(data, "fictional", False)) or _fictional(data.descriptor)
    coverage = data.coverage
    licences = data.descriptor.get("licenses")
    written = []
    for feed in FEEDS:
        field = feed["data"]
        rows = records(data, feed)
        table = feed["tabela"]
        covered = table is None or coverage is None or coverage.covered(table)
        notes: dict[int, str] = {}  # id(record) -> the sentence of a finding dated by as_of
        if field is None:
            dated = []
            for r, value in zip(rows, _finding_dates(data, rows), strict=True):
                moment = _moment(value)
                if moment is None:
                    moment = _moment(as_of)
                    notes[id(r)] = (f" O registro em causa não tem data própria: achado datado pela data dos "
                                    f"cálculos, {data_br(as_of)}.")
                dated.append((moment, r))
            dated.sort(key=lambda x: (x[1]["regra"], x[1]["chave"], x[1]["tabela"], x[1]["descricao"]))
            dated.sort(key=lambda x: x[0], reverse=True)  # stable: newest first, then by rule and key
            # the sources of the tables the rules that ran read
            ids = [i for r in _rules_ran(data) for t in r.tabelas
                   for i in (coverage.tables.get(t, []) if coverage is not None else [])]
        else:
            key = BY_NAME[feed["registros"]].key if feed["registros"] in BY_NAME else "protocolo"
            dated = [(_moment(r[field]), r) for r in rows]
            dated = sorted(((d, r) for d, r in dated if d is not None),  # the schema requires the date
                           key=lambda x: (-x[0].timestamp(), str(x[1][key])))
            ids = coverage.tables.get(table, []) if coverage is not None else None
        dated = dated[:limit]
        sources = _descriptor_sources(data.descriptor, ids) if covered else []
        what = _findings_subtitle(data, len(dated)) if field is None else _table_subtitle(data, feed, len(dated), len(rows))
        subtitle = " ".join(x for x in (
            f"{FICTIONAL_LABEL}." if fictional else "", what, _sources_sentence(sources),
            f"Data dos cálculos (situações, prazos, vigências): {data_br(as_of)}.") if x)
        outside = "" if covered else " (fora das fontes deste site)"
        atom = _Feed(
            title=f"{feed['titulo']}{outside} — {_line(name)}", link=href(feed["pagina"]), description=_text(subtitle),
            language="pt-BR", author_name=PORTAL, author_link=site_url.rstrip("/") + "/" if site_url else None,
            feed_url=href("/" + feed["path"]), feed_guid=unique("/" + feed["path"]),
            feed_copyright=_rights(sources, licences),
            updated=max((d for d, _ in dated), default=_moment(as_of)),
        )
        seen: set[str] = set()
        for when, record in dated:
            title, url, ident, summary = makers[feed["registros"]](record)
            base = ident = unique(ident)
            n = 1
            while ident in seen:  # slugs of distinct keys may meet: ids stay unique, in a fixed order
                n += 1
                ident = f"{base}{'-' if '#' in base else '#'}{n}"
            seen.add(ident)
            atom.add_item(title=_line(title), link=href(url),
                          description=_summary(summary + notes.get(id(record), ""), fictional),
                          unique_id=ident, pubdate=when, updateddate=when,
                          categories=[_line(record["regra"])] if field is None else ())
        target = out / feed["path"]
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes((atom.writeString("utf-8") + "\n").encode("utf-8"))
        written.append(feed["path"])
    return written


def _recomputed(table: dict) -> str:
    """", N recalculado(s)": the rows whose derived fields alone changed (pipeline/release/changes.py)."""
    n = table.get("recalculados")
    return f", {n} recalculado(s)" if isinstance(n, int) and not isinstance(n, bool) and n else ""


LINKED_RECORDS = 20  # records linked per table and kind of change in an entry of the feed of changes


def _changes_summary(result: dict, href: Callable[[str], str]) -> tuple[str, str]:
    """An entry of the feed of changes: what the sources changed first, in all and table by table, then the
    tables the portal recomputed; and, as HTML, a link to the page of each record the sources included or
    changed (up to :data:`LINKED_RECORDS` a table and kind: the rest are in the release's mudancas.json)."""
    changed = [t for t in result["tabelas"] if t["situacao"] != "sem_mudancas"]
    if not changed:
        return "Nenhum registro mudou.", ""
    # the tables the sources changed (rows, columns, the table itself); the others the portal recomputed
    stated = [t for t in changed if not t.get("calculada") and (
        t["incluidos"] or t["removidos"] or t["alterados"] or t.get("colunas_novas") or t.get("colunas_removidas")
        or t["situacao"] in ("nova", "removida"))]
    made = [t for t in changed if t not in stated]

    def counts(t: dict) -> str:
        if not t.get("calculada") and t not in stated:  # a source's table whose derived fields alone changed
            return f"{t['tabela']}: {t.get('recalculados', 0)} recalculado(s)"
        return (f"{t['tabela']}: {t['incluidos']} incluído(s), {t['removidos']} removido(s), "
                f"{t['alterados']} alterado(s){_recomputed(t)}")

    total = (result.get("resumo") or {}).get("fontes") or {
        k: sum(t.get(k, 0) for t in stated) for k in ("incluidos", "removidos", "alterados")}
    parts = [f"Pelas fontes: {total['incluidos']} incluído(s), {total['removidos']} removido(s), "
             f"{total['alterados']} alterado(s)" + (f" ({'; '.join(counts(t) for t in stated)})" if stated else "") + "."]
    if made:
        parts.append(f"Recalculadas pelo portal: {'; '.join(counts(t) for t in made)}.")
    links = []
    for t in stated:
        kind = KIND_OF_TABLE.get(t["tabela"])
        if kind is None:
            continue
        key = BY_NAME[kind].key
        for change, said in (("incluidos", "incluído"), ("alterados", "alterado")):
            rows = (t.get("linhas") or {}).get(change) or []
            keys = [str(r["chave"][key]) for r in rows if isinstance(r.get("chave"), dict) and r["chave"].get(key)]
            for value in keys[:LINKED_RECORDS]:
                slug = slugify(value)
                if slug:
                    links.append(f'<li><a href="{html.escape(href(urls.url(kind, slug=slug)))}">'
                                 f"{html.escape(value)}</a> ({t['tabela']}, {said})</li>")
            if t.get(change, 0) > min(len(keys), LINKED_RECORDS):
                links.append(f"<li>e mais {t[change] - min(len(keys), LINKED_RECORDS)} {said}(s) em "
                             f"{t['tabela']}: ver mudancas.json</li>")
    return " ".join(parts), f"<ul>{''.join(links)}</ul>" if links else ""


CHANGES = {"path": "feeds/mudancas.atom.xml", "titulo": "Mudanças entre versões dos dados abertos",
           "pagina": "/dados/mudancas/"}


def write_changes(out: Path, entries: list[tuple[str, dict]], descriptor: dict, site_url: str, as_of: date, *,
                  base_path: str = "") -> str:
    """The feed of the releases' changes: an entry per kept release that was compared with the one before
    it, ``entries`` as ``(versão, mudancas.json)``, newest first (the release stage reads them:
    pipeline/release/changes.py ``kept_changes``), dated by the release's date. Written even before any
    comparison, then without entries. Its title, subtitle and rights come from this release's published
    ``descriptor``: the package's title, its sources with their dates and licences, fictional or not."""

    href, unique = _addresses(site_url, base_path, descriptor["name"])
    fictional = _fictional(descriptor)
    sources = _descriptor_sources(descriptor)
    compared = (f"{numero(len(entries))} versão(ões) comparada(s) com a anterior, da mais recente à mais antiga"
                if entries else "nenhuma versão foi comparada ainda com uma anterior")
    subtitle = " ".join(x for x in (
        f"{FICTIONAL_LABEL}." if fictional else "",
        f"Registros incluídos, removidos e alterados em cada versão publicada dos dados abertos, tabela por tabela: "
        f"{compared}.",
        _sources_sentence(sources, " desta versão"),
        f"Data dos cálculos desta versão: {data_br(as_of)}.") if x)
    package_title = descriptor.get("title") or PORTAL  # says when fictional
    atom = _Feed(title=f"{CHANGES['titulo']} — {_line(package_title)}", link=href(CHANGES["pagina"]), language="pt-BR",
                 description=_text(subtitle), author_name=PORTAL,
                 author_link=site_url.rstrip("/") + "/" if site_url else None,
                 feed_url=href("/" + CHANGES["path"]), feed_guid=unique("/" + CHANGES["path"]),
                 feed_copyright=_rights(sources, descriptor.get("licenses")),
                 updated=version_date(entries[0][0]) if entries else as_of)
    for name, result in entries:
        day = version_date(name)
        summary, links = _changes_summary(result, href)
        when = _moment(day)
        url = f"/dados/versoes/{name}/"
        code = f" ({name[11:]})" if len(name) > 10 else ""  # two releases of one date: told apart by their code
        atom.add_item(title=f"Versão de {data_br(day)}{code} (comparada com a de {_line(str(result.get('anterior') or '—'))})",
                      link=href(url + "mudancas.json"), description=_summary(summary, fictional) + links,
                      unique_id=unique(url),
                      pubdate=when, updateddate=when)
    target = out / CHANGES["path"]
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes((atom.writeString("utf-8") + "\n").encode("utf-8"))
    return CHANGES["path"]


RECORD_FEED = "mudancas.atom.xml"  # beside a page whose line, carrier or pair changed: /linhas/<prefixo>/mudancas.atom.xml


def record_feed(page: str) -> str:
    """The feed of what changed of the record at ``page`` (a page's URL, ``/linhas/12-0140-00/``)."""
    return page + RECORD_FEED


def record_pages(data):
    """The pages an event of what changed may name (pipeline/release/routes.py ``Pages``), from the site's
    records: each line's, each carrier's but the test company's (whose rows are never followed), each pair of
    places' answer that has a page of its own (``cities.own_page``), the pairs whose answer lists a line (served or paralysed), and each page's title."""
    from ..release.routes import Pages
    from .cities import is_test_carrier

    pages = Pages()
    for line in data.records.get("linha", []):
        pages.line[line["prefixo"]] = line["url"]
        pages.titles[line["url"]] = f"Linha {line['prefixo']}" + (
            f" — {line['descricao']}" if line.get("descricao") else "")
    for carrier in data.records.get("transportadora", []):
        if is_test_carrier(carrier):
            pages.test_carriers.add(carrier["cnpj"])
            continue
        pages.carrier[carrier["cnpj"]] = carrier["url"]
        pages.titles[carrier["url"]] = str(carrier.get("razao_social") or carrier["cnpj"])
    for city in data.records.get("cidade", []):
        for answer in city["destinos"]:
            if not answer["pagina"]:  # a pair answered in its place's row has no page to follow
                continue
            other = answer["outra"]
            url = answer["url"]
            pages.pair[(city["chave"], other["chave"])] = url
            pages.titles[url] = f"{city['nome']} ({city['uf']}) → {other['nome']} ({other['uf']})"
            for item in list(answer["linhas"]) + list(answer["paralisadas"]):
                pages.pairs_of_line.setdefault(item["linha"]["prefixo"], []).append(url)
    return pages


def entry_sizes(rendered: bytes) -> tuple[int, list[int]]:
    """A feed's bytes but its entries', and each entry's (the end of the feed counted with the rest)."""
    parts = rendered.split(b"<entry>")  # the texts are escaped: only the markup opens an entry
    if len(parts) == 1:
        return len(rendered), []
    entries = [len(p) + len(b"<entry>") for p in parts[1:]]
    entries[-1] -= len(b"</feed>\n")  # the feed's end, after its last entry
    return len(parts[0]) + len(b"</feed>\n"), entries


class RecordFeeds:
    """The feed of each page whose line, carrier or pair of places changed (pipeline/release/routes.py: the page
    with the events that name it, newest first), written beside the page, titled after ``titles``
    (``routes.Pages``); a page without an event has none. Each entry is an event of the change log, dated by
    its source (said in its summary) and linking to the page; its id names the page and the event, so it
    never changes. :meth:`measure` gives a feed's bytes before it is written, for ``routes.fit``."""

    def __init__(self, data, titles: dict[str, str], site_url: str, as_of: date, *, base_path: str = ""):
        from ..release.routes import TABLES

        self.titles, self.site_url, self.as_of = titles, site_url, as_of
        self.href, self.unique = _addresses(site_url, base_path, data.schema.descriptor.get("name", ""))
        self.fictional = bool(getattr(data, "fictional", False)) or _fictional(data.descriptor)
        coverage = data.coverage
        ids = [i for t in TABLES for i in (coverage.tables.get(t, []) if coverage is not None else [])]
        self.sources = _descriptor_sources(data.descriptor, ids)
        self.licences = data.descriptor.get("licenses")
        self.name = data.descriptor.get("title") or data.schema.descriptor.get("title") or PORTAL
        self.measured: dict[str, tuple[list[dict], bytes]] = {}  # page -> the events measured, their feed

    def render(self, page: str, events: list[dict]) -> bytes:
        from ..release.routes import TYPES

        subtitle = " ".join(x for x in (
            f"{FICTIONAL_LABEL}." if self.fictional else "",
            f"O que mudou desta página entre versões dos dados abertos (partidas incluídas ou removidas, paralisações "
            f"iniciadas ou encerradas, habilitações e outorgas cuja situação mudou): {numero(len(events))} "
            "mudança(s), da mais recente à mais antiga pela data da fonte.",
            _sources_sentence(self.sources), f"Data dos cálculos desta versão: {data_br(self.as_of)}.") if x)
        path = record_feed(page)
        atom = _Feed(title=f"Mudanças: {_line(self.titles.get(page, page))} — {_line(self.name)}", link=self.href(page),
                     description=_text(subtitle), language="pt-BR", author_name=PORTAL,
                     author_link=self.site_url.rstrip("/") + "/" if self.site_url else None,
                     feed_url=self.href(path), feed_guid=self.unique(path),
                     feed_copyright=_rights(self.sources, self.licences),
                     updated=max((_moment(date.fromisoformat(e["data"])) for e in events), default=_moment(self.as_of)))
        for e in events:
            when = _moment(date.fromisoformat(e["data"]))
            summary = (f"{e['resumo']} Datada pela {e['datada_por']} ({data_br(date.fromisoformat(e['data']))}); "
                       f"versão dos dados {e['versao']}.")
            atom.add_item(title=_line(e["titulo"]), link=self.href(page), description=_summary(summary, self.fictional),
                          unique_id=self.unique(f"{page}#mudanca-{e['id'].replace('/', '-')}"),
                          pubdate=when, updateddate=when, categories=[TYPES[e["tipo"]]])
        return (atom.writeString("utf-8") + "\n").encode("utf-8")

    def measure(self, page: str, events: list[dict]) -> tuple[int, list[int]]:
        """The bytes of the page's feed but its entries, and each entry's, read from the feed rendered once:
        the feed of the first ``k`` events weighs the first plus the first ``k`` of the others (give or take
        the digits of its count). The feed is kept, to be written as it is if its events are not cut."""
        rendered = self.render(page, events)
        self.measured[page] = (events, rendered)
        return entry_sizes(rendered)

    def write(self, out: Path, by_page: dict[str, list[dict]]) -> list[str]:
        """Each page's feed beside it; returns their paths."""
        written = []
        for page, events in sorted(by_page.items()):
            if not events:
                continue
            path = record_feed(page).lstrip("/")
            target = out / path
            target.parent.mkdir(parents=True, exist_ok=True)
            kept, rendered = self.measured.pop(page, (None, b""))
            target.write_bytes(rendered if kept is events else self.render(page, events))
            written.append(path)
        self.measured.clear()
        return written
