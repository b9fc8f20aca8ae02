"""The command line's search: :func:`run_search` is what ``python -m pipeline search`` prints from. At load
this module imports only :mod:`pathlib` (the query's limits are in pipeline/contract/limits.py);
:func:`run_search` imports the search modules, Whoosh among them, when called (tests/test_cli_search.py)."""

from __future__ import annotations

from pathlib import Path


def run_search(index_dir: Path | str, text: str, limit: int = 20, table: str | None = None) -> tuple[int, list, list[str]]:
    """The records ``text`` finds (restricted to the published table ``table``): the total, the first
    ``limit`` hits (:class:`pipeline.index.whoosh.Hit`), best first, and notes for the person ("Você quis
    dizer …?", a journey no line serves). First the records the query names, by the rule of
    pipeline/places/matching.py as the search page applies it (pipeline/index/lookups.py), then the text
    search's hits, ties ordered by service. Raises :class:`~pipeline.index.whoosh.BadQuery` for a query
    it cannot read and :class:`~pipeline.index.whoosh.IndexMissing` for a missing or damaged index."""
    from .lookups import first
    from .whoosh import TABLES, Hit, search

    total, hits = search(Path(index_dir), text, limit, table)
    named, notes = first(Path(index_dir), text)
    named = [Hit(*h) for h in named if table is None or TABLES[table] == h[0]]
    urls = {h.url for h in named}
    rest = [h for h in hits if h.url not in urls]
    return total + len(named) - (len(hits) - len(rest)), (named + rest)[:limit], notes
