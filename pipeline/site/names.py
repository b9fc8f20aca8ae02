"""Names as people type them put the record first: ``1001`` finds Auto Viação 1001's page, ``Brasília``
the page of Brasília (DF) before Brasília de Minas, ``goiania`` the page of Goiânia before the pages that
merely mention it. The search page (``theme/static/js/busca.js``) reads ``/busca/nomes/<xx>.json``, where ``xx``
is the first two characters of one word of the name as :func:`~pipeline.places.fold_name` writes it
(``AUTO VIACAO 1001 LTDA`` is in ``AU``, ``VI``, ``10`` and ``LT``), and ranks them before Pagefind's
results by the rule of pipeline/places/matching.py (:func:`rank`; ``nomes.js`` in the browser): the name itself,
then names that begin with what was typed, then the others, then names mistyped within two errors
(``gontigo``); equal matches by how many lines the place or carrier has."""

from __future__ import annotations

from ..places import fold_name
from ..places.matching import rank_names

# what a name leads to, as the search page labels it
CITY, CARRIER = "Cidade", "Transportadora"


# the cells of an entry of :func:`shards`, in order
FIELDS = ["nome", "rotulo", "url", "tipo", "linhas"]


def entries(data) -> list[tuple[str, str, str, str, int]]:
    """``(folded name, label, url, kind, lines)`` for every place and every carrier (its razão social and
    its nome fantasia); ``lines``: how many lines serve the place or the carrier operates."""
    out = [(fold_name(c["nome"]), f"{c['nome']} ({c['uf']})", c["url"], CITY, c["linhas"]) for c in data.records["cidade"]]
    for c in data.records["transportadora"]:
        for name in dict.fromkeys(filter(None, (c["razao_social"], c["nome_fantasia"]))):
            if fold_name(name):
                out.append((fold_name(name), c["razao_social"], c["url"], CARRIER, len(c["linhas"])))
    return out


def shard_keys(data) -> list[str]:
    """The ``xx`` of every file of :func:`shards` (the search page asks only for those)."""
    return sorted({word[:2] for entry in entries(data) for word in entry[0].split()})


def shards(data) -> dict[str, list[list]]:
    """``busca/nomes/<xx>.json`` -> the entries with a word beginning with ``xx``, sorted."""
    out: dict[str, set[tuple[str, str, str, str]]] = {}
    for entry in entries(data):
        for word in set(entry[0].split()):
            out.setdefault(word[:2], set()).add(entry)
    return {f"busca/nomes/{k}.json": [list(e) for e in sorted(v)] for k, v in sorted(out.items())}


def rank(typed: str, candidates: list[list], limit: int = 5) -> list[list]:
    """The candidates (entries of :func:`shards`) that match what was typed, best first, one per URL."""
    return rank_names(typed, candidates, limit)[0]
