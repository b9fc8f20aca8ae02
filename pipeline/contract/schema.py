"""The project's table schemas, read from ``datasets/datapackage.json``.

That file is the single source of truth for tables, columns, types, constraints, titles and
descriptions, including the derived fields (``derivedFields`` of each resource) and the tables only
the portal publishes (``publishedResources``). Code asks this module; nothing restates a column list.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import orjson

from .. import SCHEMA_PATH

# Keys that belong to the portal, not to the Frictionless source descriptor.
_PORTAL_KEYS = ("derivedFields",)


def _names(value) -> tuple[str, ...]:
    """A Table Schema's field list as it may be written: one name or a list of them."""
    return (value,) if isinstance(value, str) else tuple(value or ())


@dataclass(frozen=True)
class ForeignKey:
    """A foreign key of a Table Schema, normalised once: ``fields`` of ``table`` refer to ``reference`` of
    ``referenced`` (the table itself when the descriptor's ``resource`` is empty)."""

    table: str
    fields: tuple[str, ...]
    referenced: str
    reference: tuple[str, ...]

    @property
    def field(self) -> str:
        """The one field of a single-field key (the portal's keys are all single-field but none)."""
        return self.fields[0]

    @property
    def reference_field(self) -> str:
        return self.reference[0]


def foreign_keys_of(resource: dict) -> list[ForeignKey]:
    """The foreign keys of a resource descriptor (``{"name", "schema": {"foreignKeys": ...}}``)."""
    out = []
    for fk in (resource.get("schema") or {}).get("foreignKeys") or []:
        ref = fk.get("reference") or {}
        out.append(ForeignKey(resource["name"], _names(fk.get("fields")), ref.get("resource") or resource["name"],
                              _names(ref.get("fields"))))
    return out


def primary_key_of(resource: dict) -> list[str]:
    """The primary key of a resource descriptor as a list of field names ([] without one)."""
    return list(_names((resource.get("schema") or {}).get("primaryKey")))


@dataclass(frozen=True)
class Table:
    """One resource of the package: its schema and the portal's additions."""

    descriptor: dict

    @property
    def name(self) -> str:
        return self.descriptor["name"]

    @property
    def title(self) -> str:
        return self.descriptor.get("title", self.name)

    @property
    def filename(self) -> str:
        return self.descriptor.get("path", f"{self.name}.csv")

    @property
    def fields(self) -> list[dict]:
        return self.descriptor["schema"]["fields"]

    @property
    def field_names(self) -> list[str]:
        return [f["name"] for f in self.fields]

    @property
    def key_fields(self) -> set[str]:
        """The columns that hold the table's primary key or a reference to another table."""
        return set(self.primary_key) | {k for fk in self.foreign_keys for k in fk.fields}

    @property
    def regime(self) -> str:
        """``x-regime``: the regime every record of the table belongs to, when the table has one only
        (pipeline/read/provenance.py ``REGIMES``); "" when its sources say."""
        return self.descriptor.get("x-regime", "")

    @property
    def batched(self) -> bool:
        """``x-em-lotes``: the table is read, validated, derived and published a batch of rows at a time,
        never whole in memory (pipeline/build/batches.py): eight years of Monitriip tickets are 12 million rows."""
        return bool(self.descriptor.get("x-em-lotes"))

    @property
    def derived_fields(self) -> list[dict]:
        return self.descriptor.get("derivedFields", [])

    @property
    def published_field_names(self) -> list[str]:
        return self.field_names + [f["name"] for f in self.derived_fields]

    @property
    def primary_key(self) -> list[str]:
        return primary_key_of(self.descriptor)

    @property
    def foreign_keys(self) -> list[ForeignKey]:
        return foreign_keys_of(self.descriptor)

    def field(self, name: str) -> dict:
        for f in self.fields + self.derived_fields:
            if f["name"] == name:
                return f
        raise KeyError(f"{self.name}.{name}")

    def fields_in_group(self, group: str) -> list[dict]:
        """The fields marked ``"x-grupo": group`` in the schema, in its order (e.g. horarios'
        ``dia_da_semana`` and ``mes`` flags)."""
        return [f for f in self.fields if f.get("x-grupo") == group]

    def enum(self, name: str) -> list[str]:
        """The allowed values of a field, in the schema's order."""
        return list(self.field(name)["constraints"]["enum"])

    def fields_of_type(self, *types: str, derived: bool = False) -> list[str]:
        pool = self.fields + (self.derived_fields if derived else [])
        return [f["name"] for f in pool if f.get("type", "string") in types]


class Schema:
    """The whole package descriptor with helpers; load once with :func:`load_schema`."""

    def __init__(self, descriptor: dict, path: Path | None = None):
        self.descriptor = descriptor
        self.path = path

    @cached_property
    def tables(self) -> dict[str, Table]:
        return {r["name"]: Table(r) for r in self.descriptor["resources"]}

    @cached_property
    def published_tables(self) -> dict[str, Table]:
        return {r["name"]: Table(r) for r in self.descriptor.get("publishedResources", [])}

    def __getitem__(self, name: str) -> Table:
        return self.tables[name]

    @cached_property
    def labels(self) -> dict[tuple[str, str, str], str]:
        """Every enum value's pt-BR label, from the fields' ``categories`` (derived fields included):
        ``(table, field, value) -> label``."""
        out = {}
        for name, table in self.tables.items():
            for f in table.fields + table.derived_fields:
                for c in f.get("categories", []):
                    out.setdefault((name, f["name"], c["value"]), c["label"])
        return out

    @property
    def provenance_field(self) -> dict:
        """The field every published source table gains: the id of the source of each row
        (``x-campo-fonte`` of the descriptor; data contract, "Published rows can be traced")."""
        return self.descriptor["x-campo-fonte"]

    @property
    def weekdays(self) -> list[str]:
        """The timetable's weekday columns, Monday first (``x-grupo: dia_da_semana``)."""
        return [f["name"] for f in self["horarios"].fields_in_group("dia_da_semana")]

    @property
    def months(self) -> list[str]:
        """The timetable's month columns, January first (``x-grupo: mes``)."""
        return [f["name"] for f in self["horarios"].fields_in_group("mes")]

    @property
    def categories(self) -> list[str]:
        """Service categories from the lowest class to the highest: the order of the enum of
        ``tarifas.categoria`` (the same in every table that has the field)."""
        return self["tarifas"].enum("categoria")

    def source_descriptor(self) -> dict:
        """A plain Frictionless descriptor of the source package (portal keys removed): a new copy each
        time, the caller's to change."""
        return orjson.loads(self._source_json)

    @cached_property
    def _source_json(self) -> bytes:
        """:meth:`source_descriptor` as JSON, made once (reading it back is several times faster than a
        deep copy, and validation asks for it once per table and batch)."""
        d = copy.deepcopy(self.descriptor)
        for key in ("publishedResources", "x-campo-fonte", "sources"):
            d.pop(key, None)
        for r in d["resources"]:
            for k in _PORTAL_KEYS:
                r.pop(k, None)
        return orjson.dumps(d)


def load_schema(path: Path = SCHEMA_PATH) -> Schema:
    with open(path, encoding="utf-8") as fh:
        return Schema(json.load(fh), Path(path))
