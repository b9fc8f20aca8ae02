"""Names as people type them put the record first: ``1001`` finds Auto Viação 1001's page, ``Brasília``
the page of Brasília (DF) before Brasília de Minas, ``goiania`` the page of Goiânia before the pages that
merely mention it. The search page (``tema/js/busca.js``) reads ``/busca/nomes/<xx>.json``, where ``xx``
is the first two characters of one word of the name as :func:`~pipeline.places.fold` writes it
(``AUTO VIACAO 1001 LTDA`` is in ``AU``, ``VI``, ``10`` and ``LT``), and ranks the names holding every
word typed before Pagefind's results: the name itself, then names that begin with it, then the others;
places before carriers (:func:`rank`, the same in ``busca.js``)."""

from __future__ import annotations

from ..places import fold

# what a name leads to, as the search page labels it
CITY, CARRIER = "Cidade", "Transportadora"


def entries(data) -> list[tuple[str, str, str, str]]:
    """``(folded name, label, url, kind)`` for every place and every carrier (its razão social and
    its nome fantasia)."""
    out = [(fold(c["nome"]), f"{c['nome']} ({c['uf']})", c["url"], CITY) for c in data.cities]
    for c in data.carriers:
        for name in dict.fromkeys(filter(None, (c["razao_social"], c["nome_fantasia"]))):
            if fold(name):
                out.append((fold(name), c["razao_social"], c["url"], CARRIER))
    return out


def shard_keys(data) -> list[str]:
    """The ``xx`` of every file of :func:`shards` (the search page asks only for those)."""
    return sorted({word[:2] for entry in entries(data) for word in entry[0].split()})


def shards(data) -> dict[str, list[list[str]]]:
    """``busca/nomes/<xx>.json`` -> the entries with a word beginning with ``xx``, sorted."""
    out: dict[str, set[tuple[str, str, str, str]]] = {}
    for entry in entries(data):
        for word in set(entry[0].split()):
            out.setdefault(word[:2], set()).add(entry)
    return {f"busca/nomes/{k}.json": [list(e) for e in sorted(v)] for k, v in sorted(out.items())}


def rank(typed: str, candidates: list[list[str]], limit: int = 5) -> list[list[str]]:
    """The candidates whose words begin with each word typed, best first (the rule ``busca.js``
    applies): the whole name typed, then a name that begins with what was typed, then the rest; places
    before carriers; then by name. One entry per URL."""
    query = fold(typed)
    words = query.split()
    if not words:
        return []
    hits = []
    for folded, label, url, kind in candidates:
        name_words = folded.split()
        if all(any(n.startswith(w) for n in name_words) for w in words):
            exact = 0 if folded == query else 1 if folded.startswith(query) else 2
            hits.append(((exact, kind != CITY, folded), [folded, label, url, kind]))
    seen, out = set(), []
    for _, hit in sorted(hits):
        if hit[2] not in seen:
            seen.add(hit[2])
            out.append(hit)
    return out[:limit]
