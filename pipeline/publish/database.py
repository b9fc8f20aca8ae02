"""All tables in one SQLite database, made with ``sqlite-utils`` from the published schema, for
``sqlite3`` users and for Datasette (``datasette portal.sqlite -m metadata.json``):

- each table with its primary key (NOT NULL) and the schema's other required columns NOT NULL;
- the schema's foreign keys, declared (``PRAGMA foreign_key_check`` is empty: the validation refused
  every dangling reference, and a reference to a table no source covers is left undeclared, since that
  table is empty here and the key is unknown rather than wrong) and indexed;
- a full-text index (FTS5) on the text columns the schema lists under ``x-busca-texto``;
- ``metadata.json`` beside it: titles, descriptions, licence, sources, column descriptions, the column
  that names a row (``x-rotulo``: Datasette shows it beside a link) and the full-text tables.

The rows go in through the connection's ``executemany`` in chunks (the national infractions are
500,000 rows; one dict per row, as ``insert_all`` wants, cost twice the time); sqlite-utils declares the
tables, keys, indexes and FTS. Money is REAL, dates ISO text, booleans 0/1.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pandas as pd
import sqlite_utils

from ..schema import Table
from .tabular import Appended, Coded, cell_of, kinds

_TYPES = {"integer": int, "number": float, "boolean": int, "money": float}


def _foreign_keys(resource: dict, present: set[str], covered) -> list[tuple[str, str, str]]:
    out = []
    for fk in resource["schema"].get("foreignKeys", []):
        fields = fk["fields"] if isinstance(fk["fields"], list) else [fk["fields"]]
        ref = fk["reference"]["fields"]
        ref = ref if isinstance(ref, list) else [ref]
        other = fk["reference"]["resource"] or resource["name"]
        if len(fields) == 1 and other in present and covered(other):
            out.append((fields[0], other, ref[0]))
    return out


def _referenced_first(resources: list[dict]) -> list[dict]:
    """The resources in an order where each table comes after those its foreign keys reference (the
    package's own order otherwise): sqlite-utils checks a reference when it creates the table."""
    names = {r["name"] for r in resources}
    done, order, pending = set(), [], list(resources)
    while pending:
        for r in pending:
            refs = {fk["reference"]["resource"] for fk in r["schema"].get("foreignKeys", [])} & names
            if refs <= done | {r["name"]}:
                break
        else:
            r = pending[0]  # a cycle: never in this package; keep going rather than loop
        pending.remove(r)
        done.add(r["name"])
        order.append(r)
    return order


def write_sqlite(tables: dict[str, pd.DataFrame], descriptor: dict, path: Path, covered=lambda name: True,
                 coded: dict[str, Coded] | None = None, batched: dict | None = None) -> None:
    """``covered(table)`` says whether a source supplied the table (see the module's note on keys);
    ``coded``, the tables' columns numbered already by the other writers (:class:`~.tabular.Coded`);
    ``batched``, table -> the database of its own a table written in batches has (:class:`SideTable`)."""
    path.unlink(missing_ok=True)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode = OFF")
    conn.execute("PRAGMA synchronous = OFF")
    db = sqlite_utils.Database(conn)
    present = {r["name"] for r in descriptor["resources"]}
    try:
        for resource in _referenced_first(descriptor["resources"]):
            name, fields = resource["name"], kinds(resource)
            required = {f["name"] for f in resource["schema"]["fields"] if (f.get("constraints") or {}).get("required")}
            pk = Table(resource).primary_key
            fks = _foreign_keys(resource, present, covered)
            db[name].create({n: _TYPES.get(t, str) for n, t in fields}, pk=pk or None,
                            not_null=set(pk) | required, foreign_keys=fks)
            side = (batched or {}).get(name)
            if side is None:
                insert(conn, name, fields, (coded or {}).get(name) or Coded(tables[name]))
            else:  # its rows were written as it was read (pipeline/batches.py): copied over by SQLite itself
                conn.execute("ATTACH DATABASE ? AS lotes", (str(side),))
                conn.execute(f'INSERT INTO "{name}" SELECT * FROM lotes."{name}"')
                conn.commit()
                conn.execute("DETACH DATABASE lotes")
            for column, _, _ in fks:
                db[name].create_index([column], find_unique_name=True)
            text = resource.get("x-busca-texto")
            if text:
                db[name].enable_fts(text, fts_version="FTS5", create_triggers=False, replace=True)
                db[name].populate_fts(text)
        conn.commit()
    finally:
        conn.close()


def insert(conn: sqlite3.Connection, name: str, fields: list[tuple[str, str]], table: Coded) -> None:
    """The rows of ``table`` (a table's columns numbered, :class:`~.tabular.Coded`) into the SQLite table
    ``name`` of columns ``fields`` (``tabular.kinds``)."""
    marks = ", ".join("?" for _ in fields)
    forms = [table.forms(n, cell_of(t)) for n, t in fields]
    for start, stop in table.spans():
        conn.executemany(f'INSERT INTO "{name}" VALUES ({marks})', table.rows(forms, start, stop))


class SideTable(Appended):
    """A table written in batches (pipeline/batches.py) into a database of its own, beside the release, that
    :func:`write_sqlite` copies into the portal's (``batched``) and that is then removed."""

    def __init__(self, resource: dict, path: Path):
        path.unlink(missing_ok=True)
        self.name, self.fields, self.path = resource["name"], kinds(resource), path
        self.conn = sqlite3.connect(path)
        self.conn.execute("PRAGMA journal_mode = OFF")
        self.conn.execute("PRAGMA synchronous = OFF")
        self.conn.execute(f'CREATE TABLE "{self.name}" ({", ".join(chr(34) + n + chr(34) for n, _ in self.fields)})')

    def add(self, df: pd.DataFrame) -> None:
        insert(self.conn, self.name, self.fields, Coded(df))

    def close(self, complete: bool = True) -> None:
        self.conn.commit()
        self.conn.close()
        if not complete:
            self.path.unlink(missing_ok=True)


def metadata(descriptor: dict, database: str = "portal") -> dict:
    """Datasette's ``metadata.json`` for the database, from the published descriptor."""
    licence = descriptor["licenses"][0]
    sources = descriptor.get("sources") or []
    tables = {}
    for r in descriptor["resources"]:
        entry = {
            "title": r.get("title", r["name"]),
            "description": r.get("description", ""),
            "columns": {f["name"]: " — ".join(x for x in (f.get("title"), f.get("description")) if x)
                        for f in r["schema"]["fields"]},
        }
        if r.get("x-rotulo"):
            entry["label_column"] = r["x-rotulo"]
        if r.get("x-busca-texto"):
            entry["fts_table"] = f"{r['name']}_fts"
            entry["fts_pk"] = "rowid"
        tables[r["name"]] = entry
    meta = {
        "title": descriptor["title"],
        "description": descriptor["description"],
        "license": licence["title"],
        "license_url": licence["path"],
        "databases": {database: {"tables": tables}},
    }
    if sources:
        meta["source"] = "; ".join(s.get("title", s.get("name", "")) for s in sources)
        urls = [s["path"] for s in sources if s.get("path")]
        if urls:
            meta["source_url"] = urls[0]
    return meta


def write_metadata(descriptor: dict, path: Path, database: str = "portal") -> None:
    path.write_text(json.dumps(metadata(descriptor, database), ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
