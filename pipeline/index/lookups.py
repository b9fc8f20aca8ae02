"""The records a command-line query names, before the text search's hits, in the order the search page
gives them (theme/static/js/busca.js): an identifier as typed (``16.624.611/0001-40``, ``01000000``); a
journey's answer (``sao paulo rio de janeiro``) or the place typed (``santa maria rs``, ``curitba``); then
the places and carriers whose names match (``gontigo``). The rule is pipeline/places/matching.py's, applied to
the lists the build keeps beside the Whoosh index (:data:`FILE`), the same lists the pages publish
(``/cidades/index.json``, ``/busca/nomes/``, ``/busca/ids/``)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from ..contract import spelling
from ..places import fold_name, journeys, matching

FILE = "nomes.json"
# Whoosh syntax: a query that names a field, quotes, groups, ranges or operators is the text search's alone
_SYNTAX = re.compile(r"\w:|[\"()\[\]{}*?]|\b(?:AND|OR|NOT|TO)\b")
_UF_IN_PARENTHESES = re.compile(r"\(\s*[A-Za-z]{2,3}\s*\)")  # "Campinas (SP)": a place's UF, not a group


def lists(site) -> dict:
    """What :func:`first` reads, from the site's records (written by ``build_index``)."""
    from ..site import identifiers, names
    from ..site.cities import index_json

    ids: dict[str, list[str]] = {}
    for shard in identifiers.shards(site).values():
        ids.update(shard)
    return {"lugares": index_json(site.records["cidade"], site.records["linha"]), "nomes": sorted({tuple(e) for e in names.entries(site)}),
            "ids": dict(sorted(ids.items()))}


def _label(place: dict) -> str:
    return f"{place['nome']} ({place['uf']})"


def _one_change(places: list[dict], de: dict, para: dict, notes: list[str]) -> list[tuple[str, str, str, str]]:
    """The journeys with one change (pipeline/places/journeys.py) as the form offers them: each leg a hit, its
    pair's answer at its address; what the answer cannot know said in ``notes``."""
    found = journeys.one_change(places, places.index(de), places.index(para))
    if not found:
        return []
    shown = found[:journeys.OFFERED]
    notes.append(journeys.MESSAGES["baldeacao"].format(n=_count(len(found), "caminho", "caminhos"))
                 + (" " + journeys.MESSAGES["baldeacao_ordem"] if len(found) > 1 else ""))
    if len(found) > len(shown):
        notes.append(journeys.MESSAGES["baldeacao_mais"].format(n=len(found) - len(shown), m=len(shown)))
    notes.append(journeys.MESSAGES["baldeacao_aviso"])
    hits = []
    for journey in shown:
        via = places[journey["via"]]
        for k, (a, b) in enumerate(((de, via), (via, para))):
            weekly, km = journey["partidas"][k], journey["km"][k]
            hits.append(("baldeacao", f"{a['chave']} > {b['chave']}",
                         f"Por {_label(via)}, trecho {k + 1} de 2: de {_label(a)} para {_label(b)}, "
                         + (journeys.MESSAGES["trecho_sem_horarios"] if journey["sem_horarios"][k]
                            else f"{_count(weekly, 'partida', 'partidas')} por semana")
                         + (f", {spelling.number(km, 1)} km pela extensão das fontes" if km is not None else ""),
                         f"{a['url']}para/{b['chave'].replace('/', '-')}/"))
            if a["uf"] == b["uf"]:
                same = journeys.MESSAGES["trecho_mesmo_estado"].format(
                    de=_label(a), para=_label(b), estado=matching.states().get(a["uf"], a["uf"]))
                if same not in notes:
                    notes.append(same)
    return hits


def _count(n: int, one: str, many: str) -> str:
    return spelling.number(n) + " " + (one if n == 1 else many)


def first(folder: Path, text: str) -> tuple[list[tuple[str, str, str, str]], list[str]]:
    """``([(tipo, chave, titulo, url)], notes)``: the records ``text`` names, best first, and what to tell
    the person (a guess at a typing error, a journey no line serves). Nothing when the lists are missing
    (an index written before them) or the query uses Whoosh's syntax."""
    path = Path(folder) / FILE
    if _SYNTAX.search(_UF_IN_PARENTHESES.sub(" ", text)) or not path.is_file():
        return [], []
    data = json.loads(path.read_text(encoding="utf-8"))
    places, hits, notes = data["lugares"], [], []
    messages = matching.MESSAGES
    key = fold_name(text).replace(" ", "")  # an identifier as typed: site/identifiers.py key(), the pages' rule
    ident = data["ids"].get(key) if len(key) >= 4 else None
    if ident:
        url, label, kind = ident
        hits.append((kind.lower(), key, label, url))
    named, typo = matching.rank_names(text, data["nomes"])
    # a name matched as typed (the carrier VIAÇÃO CAIÇARA) outranks a place guessed from a typing error
    guesses = not named or typo
    answered = bool(ident)  # something matched as typed, not as a typing error
    journey = matching.find_journey(places, text)
    if journey:
        de, para = journey[0].best, journey[1].best
        linked = places.index(para) in de["destinos"]
        title = f"De {_label(de)} para {_label(para)}"
        if linked:
            from ..site.cities import answer_url

            hits.append(("ligacao", f"{de['chave']} > {para['chave']}", title, answer_url(places, de, para)))
        else:
            notes.append(matching.no_line(de, para))
            notes += [p["nota"] for p in (de, para) if p.get("nota")]  # named only in the test company's lines
            hits += _one_change(places, de, para, notes)
            hits.append(("cidade", de["chave"], f"{_label(de)}: " + ("linha de teste" if de.get("nota") else "destinos a partir daqui"),
                         de["url"]))
        if journey[0].level == matching.TYPO or journey[1].level == matching.TYPO:
            notes.append(messages["quis_dizer"].format(nome=title))
        else:
            answered = True
    else:
        found = matching.find_place(places, text)
        shown = found.items and (found.level == matching.EXACT or found.unique) and (guesses or found.level != matching.TYPO)
        # a place matched by a later word of its name only (itapemirim: Cachoeiro de Itapemirim) does not go
        # before the names matched as typed (the carrier VIAÇÃO ITAPEMIRIM): it keeps its place among them
        if shown and not found.initial and named and not typo:
            shown = False
        if shown:
            for k, p in enumerate(found.items[:1 if found.unique else 3]):
                part = matching.rules()["partes"].get(f"{p['uf']}/{found.spelling}", "") if k == 0 else ""
                hits.append(("cidade", p["chave"], _label(p) + (f" ({part})" if part else ""), p["url"]))
                if k == 0 and p.get("nota"):  # named only in the test company's lines: why it has no answer
                    notes.append(p["nota"])
            if found.level == matching.TYPO:
                notes.append(messages["quis_dizer"].format(nome=_label(found.best)))
            else:
                answered = True
    if typo and answered:  # names guessed from a typing error only where nothing matched as typed (Floripa: not Florínea)
        named = []
    for _, label, url, kind, *_ in named:  # the key from the address: /cidades/<uf>/<slug>/, /transportadoras/<cnpj>/
        path = url.strip("/").split("/")
        hits.append(("cidade", "/".join(path[1:]), label, url) if kind == "Cidade" else ("transportadora", path[-1], label, url))
    if typo and named and not notes:
        notes.append(messages["quis_dizer"].format(nome=named[0][1]))
    seen, out = set(), []
    for hit in hits:
        if hit[3] not in seen:
            seen.add(hit[3])
            out.append(hit)
    return out, notes
