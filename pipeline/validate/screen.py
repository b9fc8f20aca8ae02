"""Frictionless's verdict on a package, computed fast: the same errors, row by row and column by column,
as ``Package(descriptor).validate()`` over every row (:func:`full`), in a fraction of the time.

Frictionless stays the definition of valid; this module only avoids asking it the same question twice:

- **Cells.** Frictionless's verdict on a cell (missing value, type, constraints) depends on the cell's
  text alone: it is its field's cell reader (``Field.create_cell_reader``). Each reader runs once per
  distinct value of its column, not once per row.
- **Rows.** The rows holding a value a reader refused, and the wholly blank rows, are validated by
  Frictionless itself, with the same schemas less their keys: its own error objects, for those rows only.
- **Keys.** The only verdicts that depend on other rows (``unique``, ``primaryKey``, ``foreignKeys``)
  are checked here over the typed values the readers returned, with Frictionless's rules
  (``frictionless/resources/table.py``, 5.21): a later repeat is the error; a primary key whose cells
  are all missing is an error; a foreign key whose cells are all missing is skipped; the lookup holds
  every row of the referenced table, valid or not.

``tests/test_differential.py`` checks that both give the same verdicts on every fixture of the suite and
on Hypothesis-generated tables.
"""

from __future__ import annotations

import json
from copy import deepcopy

import numpy as np
from frictionless import Package
from frictionless import Schema as FrictionlessSchema
from frictionless import errors as ferrors

from ..contract.schema import foreign_keys_of
from ..read import SourceTable
from ..read.columns import Columns
from .cells import CellError, parse_datetime

Tables = dict[str, SourceTable]
# (table, position of the row or -1 for the header, order within the row, Frictionless error)
Located = tuple[str, int, int, object]


def _iso_datetime(field) -> bool:
    """A ``datetime`` field of format ``any`` whose only constraint is ``required``: Frictionless reads
    it with ``dateutil.parser.parse`` (about 60 µs a value, most of its time on a national package). A
    value in the portal's ISO shape (``AAAA-MM-DDTHH:MM[:SS]``, :func:`.cells.parse_datetime`) parses to
    the same ``datetime`` there, so those values skip it; any other value still goes to Frictionless's
    reader. tests/test_differential.py compares both on generated values."""
    return (field.type == "datetime" and field.format == "any"
            and set(field.constraints) <= {"required"})


def _to_str(v) -> str:
    return str(v) if v is not None else ""


def _descriptor(schema, tables: Tables, rows: dict[str, list[list[str]]], keys: bool) -> dict:
    descriptor = schema.source_descriptor()
    descriptor["resources"] = [r for r in descriptor["resources"] if r["name"] in tables]
    for r in descriptor["resources"]:
        for k in ("path", "encoding", "format", "mediatype"):
            r.pop(k, None)
        r["data"] = [tables[r["name"]].columns] + rows[r["name"]]
        if not keys:
            s = r["schema"]
            s.pop("primaryKey", None)
            s.pop("foreignKeys", None)
            for f in s["fields"]:
                f.get("constraints", {}).pop("unique", None)
    return descriptor


def _run(descriptor: dict) -> dict[str, list]:
    report = Package(descriptor).validate(limit_errors=10**9)
    return {task.name: list(task.errors) for task in report.tasks}


def full(tables: Tables, schema) -> list[Located]:
    """Frictionless over every row: the reference the fast path must equal (and the slow path's cost)."""
    found = _run(_descriptor(schema, tables, {n: list(t.rows) for n, t in tables.items()}, keys=True))
    out = []
    for name in found:
        for order, error in enumerate(found[name]):
            line = getattr(error, "row_number", None)
            out.append((name, line - 2 if line is not None else -1, order, error))
    return out


# Frictionless's errors of a resource with no row but its header (its header's own errors: a label blank,
# repeated, missing or out of place), by the resource's descriptor: they depend on nothing else
_HEADER_ERRORS: dict[str, list] = {}


def _run_flagged(descriptor: dict) -> dict[str, list]:
    """:func:`_run`, asking Frictionless only of the resources with a row to validate or a header it has
    not yet judged in this process."""
    asked, known = [], {}
    for r in descriptor["resources"]:
        key = json.dumps(r, sort_keys=True, ensure_ascii=False) if len(r["data"]) == 1 else None
        if key is not None and key in _HEADER_ERRORS:
            known[r["name"]] = deepcopy(_HEADER_ERRORS[key])
        else:
            asked.append((r, key))
    found = _run(dict(descriptor, resources=[r for r, _ in asked])) if asked else {}
    for r, key in asked:
        if key is not None:
            _HEADER_ERRORS[key] = deepcopy(found.get(r["name"], []))
    return {r["name"]: known[r["name"]] if r["name"] in known else found.get(r["name"], [])
            for r in descriptor["resources"]}


_READERS: dict[str, tuple[list, list]] = {}


def cell_readers(descriptor: dict) -> tuple[list, list]:
    """The Frictionless fields of a table schema's ``descriptor`` and each one's cell reader, made once per
    process for a given descriptor (a reader is a function of a cell's text alone)."""
    key = json.dumps(descriptor, sort_keys=True, ensure_ascii=False)
    if key not in _READERS:
        fields = FrictionlessSchema.from_descriptor(deepcopy(descriptor)).fields
        _READERS[key] = (fields, [f.create_cell_reader() for f in fields])
    return _READERS[key]


class _Typed:
    """One table's columns as Frictionless reads them: per column, the typed value of each distinct
    text (judged once, the rows' numbers among the texts spread by numpy: ``read.columns.Columns``); and
    the positions of the rows with a refused value."""

    def __init__(self, table: SourceTable, descriptor: dict):
        ffields, readers = cell_readers(descriptor)
        self.names = [f.name for f in ffields]
        held = Columns.of(table)  # a table held by column as it is; rows in a list numbered per column
        self.codes, self.distinct = zip(*(held.column(n) for n in self.names)) if self.names else ((), ())
        self.values: dict[str, dict[str, object]] = {}
        flagged = np.zeros(len(table.rows), dtype=bool)
        blank_row = None  # the rows whose every cell is a missing value, so far
        for name, field, reader, codes, texts in zip(self.names, ffields, readers, self.codes, self.distinct):
            values, refused, blank = {}, [], []
            iso = _iso_datetime(field)
            for number, text in enumerate(texts.tolist()):
                if iso and text:
                    try:
                        values[text] = parse_datetime(text)
                        continue
                    except CellError:
                        pass
                typed, notes = reader(text)
                values[text] = typed
                if notes:
                    refused.append(number)
                elif typed is None:
                    blank.append(number)
            self.values[name] = values
            if refused:
                flagged |= np.isin(codes, refused)
            missing = np.isin(codes, blank) if blank else np.zeros(len(codes), dtype=bool)
            blank_row = missing if blank_row is None else blank_row & missing
        if blank_row is not None:  # a blank row (every cell a missing value) is an error of its own
            flagged |= blank_row
        self.flagged = np.flatnonzero(flagged).tolist()

    def typed(self, name: str) -> list:
        i = self.names.index(name)
        values, texts = self.values[name], self.distinct[i]
        by_number = np.empty(len(texts), dtype=object)
        by_number[:] = [values[text] for text in texts.tolist()]
        return by_number[self.codes[i]].tolist()


def _key_errors(name: str, table: SourceTable, descriptor: dict, typed: dict[str, _Typed]) -> list[Located]:
    """unique, primaryKey and foreignKeys, as Frictionless checks them row after row."""
    out: list[Located] = []
    t = typed[name]
    fields = descriptor["schema"]["fields"]

    def cells(pos):
        return list(table.rows[pos])

    for number, f in enumerate(fields, start=1):
        if not f.get("constraints", {}).get("unique"):
            continue
        seen: dict = {}
        for pos, value in enumerate(t.typed(f["name"])):
            if value is None:
                continue
            match = seen.get(value)
            seen[value] = pos + 2
            if match:
                out.append((name, pos, 1, ferrors.UniqueError(
                    note=f"the same as in the row at position {match}", cells=cells(pos), row_number=pos + 2,
                    cell=str(value), field_name=f["name"], field_number=number)))
    key = descriptor["schema"].get("primaryKey") or []
    key = [key] if isinstance(key, str) else key
    if key:
        seen = {}
        for pos, tup in enumerate(_tuples(t, key)):
            if tup.count(None) == len(tup):
                out.append((name, pos, 2, ferrors.PrimaryKeyError(
                    note='cells composing the primary keys are all "None"', cells=cells(pos), row_number=pos + 2)))
                continue
            match = seen.get(tup)
            seen[tup] = pos + 2
            if match:
                out.append((name, pos, 2, ferrors.PrimaryKeyError(
                    note=f"the same as in the row at position {match}", cells=cells(pos), row_number=pos + 2)))
    for fk in foreign_keys_of(descriptor):
        source, ref_name, target = list(fk.fields), fk.referenced, list(fk.reference)
        lookup = {tup for tup in _tuples(typed[ref_name], target) if tup.count(None) != len(tup)}
        for pos, tup in enumerate(_tuples(t, source)):
            if tup in lookup or tup.count(None) == len(tup):
                continue
            note = (f'for "{", ".join(source)}": values "{", ".join(str(d) for d in tup)}" not found in the '
                    f'lookup table "{ref_name}" as "{", ".join(target)}"')
            out.append((name, pos, 3, ferrors.ForeignKeyError(
                note=note, cells=cells(pos), row_number=pos + 2, field_names=source,
                field_cells=[_to_str(v) for v in tup], reference_name=ref_name, reference_field_names=target)))
    return out


def _tuples(t: _Typed, names: list[str]):
    """The typed values of ``names`` row by row, as tuples (one-item tuples for a one-field key)."""
    if len(names) == 1:
        return zip(t.typed(names[0]))
    return zip(*(t.typed(k) for k in names))


# the types whose values the derive stage takes from the screen instead of parsing the text again
KEPT_TYPES = ("date", "datetime", "number", "integer", "boolean")


def fast(tables: Tables, schema, keep: dict | None = None) -> list[Located]:
    """The same errors as :func:`full`, in the same order, with Frictionless run only on flagged rows.
    ``keep``, when given, receives per table and field (of :data:`KEPT_TYPES`) each distinct text's
    typed value as Frictionless read it: the derive stage reuses them (pipeline/derive/typed.py)."""
    descriptor = schema.source_descriptor()
    # the tables given (all of them, but for a batch of a table read in batches: pipeline/build/batches.py)
    resources = {r["name"]: r for r in descriptor["resources"] if r["name"] in tables}
    typed = {name: _Typed(tables[name], r["schema"]) for name, r in resources.items()}
    if keep is not None:
        keep.clear()
        for name, r in resources.items():
            keep[name] = {f["name"]: typed[name].values[f["name"]] for f in r["schema"]["fields"]
                          if f.get("type", "string") in KEPT_TYPES}
    flagged_rows = {name: [tables[name].rows[i] for i in t.flagged] for name, t in typed.items()}
    found = _run_flagged(_descriptor(schema, tables, flagged_rows, keys=False))
    out: list[Located] = []
    for name in resources:
        positions = typed[name].flagged
        for error in found.get(name, []):
            line = getattr(error, "row_number", None)
            if line is None:
                out.append((name, -1, 0, error))
                continue
            pos = positions[line - 2]
            error.row_number = pos + 2  # the row's place in the whole table, as full() numbers it
            out.append((name, pos, 0, error))
        out += _key_errors(name, tables[name], resources[name], typed)
    order = {name: i for i, name in enumerate(resources)}
    # stable: within a row, cell errors (in Frictionless's own order) come before unique, key, foreign key
    return sorted(out, key=lambda e: (order[e[0]], e[1], e[2]))
