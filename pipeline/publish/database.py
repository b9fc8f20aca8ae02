"""All tables in one SQLite database, made with ``sqlite-utils`` from the published schema, for
``sqlite3`` users and for Datasette (``datasette portal.sqlite -m metadata.json``):

- each table with its primary key (NOT NULL) and the schema's other required columns NOT NULL; a table
  without a key of its own (horários, achados, inconsistências, rejeitados, bilhetes) gets one, ``linha_csv``
  (INTEGER PRIMARY KEY: the record's number in the table's CSV, 1 for the first row), so that every row
  has a page by key in Datasette;
- the schema's foreign keys, declared (``PRAGMA foreign_key_check`` is empty: the validation refused
  every dangling reference, and a reference to a table no source covers is left undeclared, since that
  table is empty here and the key is unknown rather than wrong) and indexed;
- a full-text index (FTS5) on the text columns the schema lists under ``x-busca-texto`` and on the
  identifiers (:func:`search_columns`: CNPJs, prefixes, notice and protocol numbers...), so that
  Datasette's search box finds a CNPJ or a notice number; not on a table written in batches (its size);
- ``_metadados``: the release's provenance record (pipeline/publish/provenance.py), one row per
  ``(escopo, chave)``: ``escopo`` is ``pacote`` or a table's name; ``chave`` as in Parquet's metadata
  (``fontes``, ``cobertura``, ``data_de_referencia``, ``ficticio``, ``licenca``, ``citacao``...; the
  package's ``proveniencia`` is the whole record as JSON);
- ``metadata.json`` beside it: titles, descriptions (a table no source covers says so; achados, which
  rules did not run), licence and source of the database and of each table, the fictional label when
  the build is fictional, column descriptions, the column that names a row (``x-rotulo``: Datasette shows
  it beside a link) and the full-text tables.

The rows go in through the connection's ``executemany`` in chunks (the national infractions are
500,000 rows; one dict per row, as ``insert_all`` wants, cost twice the time); sqlite-utils declares the
tables, keys, indexes and FTS. Money is REAL, dates ISO text, booleans 0/1.
"""

from __future__ import annotations

import itertools
import json
import os
import sqlite3
from pathlib import Path

import numpy as np
import pandas as pd
import sqlite_utils

from ..contract.schema import Table, foreign_keys_of
from ..tools.parallel import Feed, WorkerError
from .provenance import NOT_COVERED, NOT_COVERED_TEXT, Provenance, source_text
from .tabular import Appended, Coded, Memo, cell_of, kinds

_TYPES = {"integer": int, "number": float, "boolean": int, "money": float}
ROW_KEY = "linha_csv"  # the key of a table without one of its own
ROW_KEY_DESCRIPTION = ("Número do registro no CSV publicado desta tabela (1 = a primeira linha de dados): chave "
                       "primária dada pelo banco a uma tabela sem chave própria; muda de uma versão para outra.")
METADATA_TABLE = "_metadados"


def row_key(resource: dict) -> str | None:
    """``linha_csv`` for a table without a primary key of its own, else None."""
    return None if Table(resource).primary_key else ROW_KEY


def search_columns(resource: dict) -> list[str]:
    """The columns of the table's full-text index: its text (``x-busca-texto``) and its identifiers, the
    text fields that are a key, point to one, or have a pattern (CNPJ, prefix, notice, protocol, act,
    plate, IBGE code), codes with a list of values and UFs aside. None for a table written in batches."""
    if resource.get("x-em-lotes"):
        return []
    out = list(resource.get("x-busca-texto") or [])
    schema = resource["schema"]
    keys = set(Table(resource).key_fields)
    for f in schema["fields"]:
        name, c = f["name"], f.get("constraints") or {}
        if f.get("type", "string") != "string" or name in out or c.get("enum") or f.get("categories"):
            continue
        if name == "uf" or name.endswith("_uf"):
            continue
        if name in keys or c.get("pattern") or name == "chave":
            out.append(name)
    return out


def _foreign_keys(resource: dict, present: set[str], covered) -> list[tuple[str, str, str]]:
    return [(fk.field, fk.referenced, fk.reference_field) for fk in foreign_keys_of(resource)
            if len(fk.fields) == 1 and fk.referenced in present and covered(fk.referenced)]


def _referenced_first(resources: list[dict]) -> list[dict]:
    """The resources in an order where each table comes after those its foreign keys reference (the
    package's own order otherwise): sqlite-utils checks a reference when it creates the table."""
    names = {r["name"] for r in resources}
    done, order, pending = set(), [], list(resources)
    while pending:
        for r in pending:
            refs = {fk.referenced for fk in foreign_keys_of(r)} & names
            if refs <= done | {r["name"]}:
                break
        else:
            r = pending[0]  # a cycle: never in this package; keep going rather than loop
        pending.remove(r)
        done.add(r["name"])
        order.append(r)
    return order


def write_sqlite(tables: dict[str, pd.DataFrame], descriptor: dict, path: Path, covered=lambda name: True,
                 coded: dict[str, Coded] | None = None, batched: dict | None = None,
                 record: Provenance | None = None) -> None:
    """``covered(table)`` says whether a source supplied the table (see the module's note on keys);
    ``coded``, the tables' columns numbered already by the other writers (:class:`~.tabular.Coded`);
    ``batched``, table -> the database of its own a table written in batches has (:class:`SideTable`);
    ``record``, the release's provenance (``_metadados``; by default read from ``descriptor``)."""
    path.unlink(missing_ok=True)
    sides = batched or {}
    # the first table written in batches has its rows in its own file already, in the table as made here: that file
    # becomes the database, and the other tables are made in it
    base = next((r["name"] for r in descriptor["resources"] if r["name"] in sides), None)
    if base is not None:
        os.replace(sides[base], path)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode = OFF")
    conn.execute("PRAGMA synchronous = OFF")
    db = sqlite_utils.Database(conn)
    present = {r["name"] for r in descriptor["resources"]}
    try:
        for resource in _referenced_first(descriptor["resources"]):
            name, fields = resource["name"], kinds(resource)
            fks = _foreign_keys(resource, present, covered)
            if name != base:
                create_table(db, resource, fks)
            text = search_columns(resource)
            if text:
                _empty_fts(db, name, text)
            side = sides.get(name)
            if side is None:
                insert(conn, name, fields, (coded or {}).get(name) or Coded(tables[name]))
            elif name != base:  # its rows were written as it was read (pipeline/build/batches.py): copied by SQLite
                listed = ", ".join(f'"{n}"' for n, _ in fields)
                conn.execute("ATTACH DATABASE ? AS lotes", (str(side),))
                conn.execute(f'INSERT INTO "{name}" ({listed}) SELECT {listed} FROM lotes."{name}" ORDER BY rowid')
                conn.commit()
                conn.execute("DETACH DATABASE lotes")
            for column, _, _ in fks:
                db[name].create_index([column], find_unique_name=True)
            if text:
                _fill_fts(db, name, text)
        write_metadata_table(conn, descriptor, record)
        conn.commit()
    finally:
        conn.close()


def _empty_fts(db: sqlite_utils.Database, name: str, columns: list[str]) -> None:
    """The full-text index of table ``name`` (FTS5 on ``columns``, its content the table, as sqlite-utils makes
    it), made while the table is empty, with FTS5's merging of segments as rows come in turned off."""
    db[name].enable_fts(columns, fts_version="FTS5", create_triggers=False, replace=True)
    db.execute(f'INSERT INTO "{name}_fts"("{name}_fts", rank) VALUES (\'automerge\', 0)')


def _fill_fts(db: sqlite_utils.Database, name: str, columns: list[str]) -> None:
    """The index :func:`_empty_fts` made, filled from the table's rows once and merged once into one b-tree
    ('optimize'), which a reader queries whole; then FTS5's merging as rows come in turned back on (its
    default, 4) for whoever adds rows to a copy. Merging as it filled did the work several times over."""
    db[name].populate_fts(columns)
    fts = f'"{name}_fts"'
    db.execute(f"INSERT INTO {fts}({fts}) VALUES ('optimize')")
    db.execute(f"INSERT INTO {fts}({fts}, rank) VALUES ('automerge', 4)")
    db.conn.commit()


def create_table(db: sqlite_utils.Database, resource: dict, fks: list[tuple[str, str, str]] = ()) -> None:
    """The table of ``resource``, empty: its columns typed, its key (``linha_csv`` for a table without one of its
    own: numbered by SQLite, 1, 2, ..., the rowid), its required columns NOT NULL, its foreign keys ``fks``."""
    required = {f["name"] for f in resource["schema"]["fields"] if (f.get("constraints") or {}).get("required")}
    pk = Table(resource).primary_key or [ROW_KEY]
    columns = {n: _TYPES.get(t, str) for n, t in kinds(resource)}
    if row_key(resource):
        columns = {ROW_KEY: int, **columns}
    db[resource["name"]].create(columns, pk=pk[0] if len(pk) == 1 else pk, not_null=set(pk) | required,
                                foreign_keys=list(fks))


def metadata_rows(descriptor: dict, record: Provenance | None = None) -> list[tuple[str, str, str]]:
    """The rows of ``_metadados``: ``(escopo, chave, valor)``, the package's first, then each table's."""
    record = record or Provenance.from_descriptor(descriptor)
    rows = [("pacote", k, v) for k, v in record.items()] + [("pacote", "proveniencia", record.as_json())]
    for r in descriptor["resources"]:  # each table's own items; the package's hold for every table
        rows += [(r["name"], k, v) for k, v in record.items(r["name"]) if k in _TABLE_ITEMS]
    return rows


_TABLE_ITEMS = ("titulo", "descricao", "cobertura", "fontes", "regras_nao_verificadas")


def write_metadata_table(conn: sqlite3.Connection, descriptor: dict, record: Provenance | None = None) -> None:
    """``_metadados`` (see the module's note), with its key (escopo, chave)."""
    conn.execute(f'CREATE TABLE "{METADATA_TABLE}" ("escopo" TEXT NOT NULL, "chave" TEXT NOT NULL, "valor" TEXT, '
                 'PRIMARY KEY ("escopo", "chave"))')
    conn.executemany(f'INSERT INTO "{METADATA_TABLE}" VALUES (?, ?, ?)', metadata_rows(descriptor, record))


ROWS_PER_INSERT = 32  # rows an INSERT statement holds: SQLite steps fewer statements (bench/tickets.py)


def insert(conn: sqlite3.Connection, name: str, fields: list[tuple[str, str]], table: Coded,
           converters: list | None = None) -> None:
    """The rows of ``table`` (a table's columns numbered, :class:`~.tabular.Coded`) into the SQLite table
    ``name`` of columns ``fields`` (``tabular.kinds``), each value as ``converters`` make it (by default
    ``tabular.cell_of`` its type)."""
    one = "(" + ", ".join("?" for _ in fields) + ")"
    listed = ", ".join(f'"{n}"' for n, _ in fields)  # a table without a key numbers its rows (linha_csv)
    many = f'INSERT INTO "{name}" ({listed}) VALUES ' + ", ".join([one] * ROWS_PER_INSERT)
    single = f'INSERT INTO "{name}" ({listed}) VALUES {one}'
    converters = converters or [cell_of(t) for _, t in fields]
    forms = [table.forms(n, convert) for (n, _), convert in zip(fields, converters)]
    for start, stop in table.spans():
        rows = table.rows(forms, start, stop)
        grouped = (stop - start) // ROWS_PER_INSERT * ROWS_PER_INSERT  # in statements of ROWS_PER_INSERT rows,
        cells = itertools.chain.from_iterable(itertools.islice(rows, grouped))  # in order
        conn.executemany(many, zip(*[cells] * (len(fields) * ROWS_PER_INSERT)))
        conn.executemany(single, rows)  # then the rest, one at a time


class SideTable(Appended):
    """A table written in batches (pipeline/build/batches.py) into a database file of its own, in ``dados/``, its
    table made as :func:`write_sqlite` makes it (:func:`create_table`; such a table has no foreign key). That
    file then becomes the portal's database, the other tables made in it (or, for a second such table, its rows
    are copied over). The rows are inserted by a process of its own (``parallel.Feed``, at ``nice``
    +``niceness``), on another core, while the batches go on: each batch reaches it as its columns' numbers and
    distinct values (``Coded.numbers``), which the CSV and JSON writers have made already.

    The process that makes it waits for its rows to be in (:meth:`close`, or :meth:`wait`). A process forked
    after it, which sends the batches, only ends its own messages when it closes it: the build makes the table
    before forking the process that reads the batches (``batches.start``), ends its own copy of the messages at
    once (:meth:`end`), and waits for the rows just before the publication needs them."""

    def __init__(self, resource: dict, path: Path, niceness: int = 0):
        assert not foreign_keys_of(resource), "a table written in batches has no foreign key"
        path.unlink(missing_ok=True)
        self.resource, self.name, self.fields, self.path = resource, resource["name"], kinds(resource), path
        self.ended = False
        self.feed = Feed(self._fill, niceness)

    def _fill(self, batches) -> None:
        """The child: each batch's rows inserted, the forms kept from one batch to the next (``Memo``)."""
        conn = sqlite3.connect(self.path)
        conn.execute("PRAGMA journal_mode = OFF")
        conn.execute("PRAGMA synchronous = OFF")
        create_table(sqlite_utils.Database(conn), self.resource)
        converters = [Memo(cell_of(t)) for _, t in self.fields]
        for length, numbered in batches:
            insert(conn, self.name, self.fields, Coded.of_numbers(numbered, length), converters)
        conn.commit()
        conn.close()

    def add(self, df: pd.DataFrame, coded: Coded | None = None) -> None:
        if self.ended:
            return
        coded = coded or Coded(df)
        try:
            self.feed.send((len(df), {n: _narrow(*coded.numbers(n)) for n, _ in self.fields}))
        except WorkerError:
            if os.getpid() == self.feed.maker:
                raise
            self.ended = True  # the inserts failed: the maker, waiting for them, says why

    def end(self) -> None:
        """This process sends no more batches."""
        self.feed.end()

    def wait(self) -> None:
        """The rows every process sent are in (raises ``parallel.WorkerError`` with the child's failure)."""
        self.feed.close()

    def cancel(self) -> None:
        self.feed.cancel()

    def close(self, complete: bool = True) -> None:
        try:
            self.feed.close()  # sent from a process forked after it: its messages ended, the maker waits
        finally:
            if not complete and os.getpid() == self.feed.maker:
                self.path.unlink(missing_ok=True)


def _narrow(codes: np.ndarray, values) -> tuple[np.ndarray, object]:
    """A column's numbers (-1: missing) in the smallest integer type that holds them: fewer bytes through the pipe
    to the process that inserts them."""
    return codes.astype(np.min_scalar_type(-max(len(values), 1)), copy=False), values  # signed: -1 is missing


def metadata(descriptor: dict, database: str = "portal") -> dict:
    """Datasette's ``metadata.json`` for the database, from the published descriptor and its provenance
    record: the title and description (with the fictional label when the build is fictional) at the top
    and on the database's page; licence and source for the database and each table (a table no source
    covers says so as its source and first in its description); column descriptions; full-text tables."""
    record = Provenance.from_descriptor(descriptor)
    licence = descriptor["licenses"][0]
    sources = descriptor.get("sources") or []
    common = {"license": licence["title"], "license_url": licence["path"]}
    source_url = next((s["path"] for s in sources if s.get("path")), "")
    tables = {}
    for r in descriptor["resources"]:
        name = r["name"]
        entry = {
            "title": r.get("title", name),
            "description": r.get("description", ""),
            **common,
            **_table_source(record, name),
            "columns": {f["name"]: " — ".join(x for x in (f.get("title"), f.get("description")) if x)
                        for f in r["schema"]["fields"]},
        }
        if row_key(r):
            entry["columns"] = {ROW_KEY: ROW_KEY_DESCRIPTION, **entry["columns"]}
        if r.get("x-rotulo"):
            entry["label_column"] = r["x-rotulo"]
        if search_columns(r):
            entry["fts_table"] = f"{name}_fts"
            entry["fts_pk"] = "rowid"
        tables[name] = entry
    tables[METADATA_TABLE] = {
        "title": "Metadados e proveniência",
        "description": "O registro de proveniência desta versão: fontes com datas e licenças, data dos cálculos, "
                       "licença do portal, dados fictícios ou não e a cobertura de cada tabela (escopo: pacote ou "
                       "o nome da tabela).",
        **common,
        "columns": {"escopo": "pacote, ou o nome da tabela de que a linha fala", "chave": "o item do registro",
                    "valor": "o seu texto (proveniencia: o registro inteiro em JSON)"},
    }
    source = {"source": "; ".join(source_text(s) for s in record.sources)} if record.sources else {}
    if source and source_url:
        source["source_url"] = source_url
    about = {"title": descriptor["title"], "description": descriptor["description"], **common, **source}
    return {**about, "databases": {database: {**about, "tables": tables}}}


def _table_source(record: Provenance, table: str) -> dict:
    """A table's ``source`` (and ``source_url``) for Datasette: its sources, or that none covers it."""
    c = record.coverage(table)
    if c is not None and c.situacao == NOT_COVERED:
        return {"source": NOT_COVERED_TEXT}
    sources = record.sources_of(table)
    if not sources:
        return {}
    out = {"source": "; ".join(source_text(s) for s in sources)}
    url = next((s["path"] for s in sources if s.get("path")), "")
    if url:
        out["source_url"] = url
    return out


def write_metadata(descriptor: dict, path: Path, database: str = "portal") -> None:
    path.write_text(json.dumps(metadata(descriptor, database), ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
