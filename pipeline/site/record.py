"""The record type the templates read."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from datetime import date, datetime, time

from ..read.source import once_per_value


class Record(dict):
    """A record as the templates read it: ``linha.prefixo`` is found as an attribute. Jinja2 tries an
    attribute before an item, and for a plain dict that first try fails with an exception on every
    field of every row, a costly part of the page stage at national scale. Semantics are the dict's (a key
    named like a dict method is still shadowed by the method, as before)."""

    __slots__ = ()

    def __getattr__(self, name: str):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


class MadeOnDemand(Sequence):
    """A list of records (:class:`Record`), each made when asked for (by :meth:`make`, from its position): a page
    renders in a worker process, which lets the records go with the page, instead of every record living
    through the whole page stage."""

    __slots__ = ()

    def make(self, i: int) -> Record:  # pragma: no cover - overridden
        raise NotImplementedError

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self.make(k) for k in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        return self.make(i)

    def __iter__(self):  # Sequence's own asks ``self[i]`` until an IndexError, with the checks above each time
        return map(self.make, range(len(self)))


class Rows(MadeOnDemand):
    """Some rows of a table, from ``columns`` (``{name: list of values}``, shared by every ``Rows`` of the
    table) at ``positions``: the latest notices of every carrier and line are kept as positions alone."""

    __slots__ = ("positions", "_names", "_values", "shown", "_json")

    def __init__(self, columns: dict[str, list], positions: Sequence[int], shown: dict[str, list] | None = None,
                 as_json: tuple[list, ...] | None = None):
        """``shown``: the same rows' cells as a page shows them (``{name: texts}``, position for position), given
        to the templates as :attr:`shown` (the records, in JSON, keep the values). ``as_json``: the columns
        as :func:`as_json` gives their values (:func:`json_columns`), shared by every ``Rows`` of the table."""
        self.positions, self._names, self._values = positions, tuple(columns), tuple(columns.values())
        self.shown = Rows(shown, positions) if shown is not None else None
        self._json = as_json

    def __len__(self) -> int:
        return len(self.positions)

    def values(self, name: str) -> list:
        """The column ``name`` of these rows, without making their records."""
        column = self._values[self._names.index(name)]
        return [column[at] for at in self.positions]

    def cells(self, at: int, columns: tuple[list, ...] | None = None):
        """The (name, value) pairs of the row at position ``at`` of the columns (or of ``columns``, as
        converted for JSON)."""
        return zip(self._names, [values[at] for values in (self._values if columns is None else columns)])

    def make(self, i: int) -> Record:
        return Record(self.cells(self.positions[i]))


_DICT_ATTRIBUTES = frozenset(dir(dict))  # what ``getattr`` finds on a dict or a Record: its methods


def attribute_lookup(environment):
    """The template's ``x.name`` (Jinja2's ``Environment.getattr``), first looking ``name`` up as an item
    of a :class:`Record` or a plain dict whose class has no attribute of that name, which is what
    ``Environment.getattr`` ends up doing for them, after a failed attribute lookup (for a Record, a call
    of :meth:`Record.__getattr__` too), a noticeable part of the rendering at national scale. Anything
    else, a missing key included, takes Jinja2's own path, so the result is the same."""
    slow = environment.getattr

    def getattr_(obj, attribute):
        if (type(obj) is Record or type(obj) is dict) and attribute not in _DICT_ATTRIBUTES:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return slow(obj, attribute)

    return getattr_


def addressed(facts, root: str):
    """``facts`` (:func:`as_json`) with each ``url`` (and ``…_url``) made the address a reader of the file can follow: the
    site's public address or sub-path (``root``: ``https://exemplo.github.io/portal``, ``/portal`` or ``""``)
    before the path from the site's root. The data files the pages' own scripts read carry the sub-path
    alone (pipeline/site/datafiles.py ``on_site``): the scripts follow them on whatever host serves the site."""
    if not root:
        return facts
    if isinstance(facts, dict):
        return {k: (root + v if (k == "url" or k.endswith("_url")) and isinstance(v, str) and v.startswith("/")
                    else addressed(v, root)) for k, v in facts.items()}
    if isinstance(facts, list):
        return [addressed(v, root) for v in facts]
    return facts


def as_json(record: dict, depth: int = 1, page: dict | None = None):
    """A record page's facts as JSON-ready data (``/linhas/<prefixo>/index.json`` beside the page): its
    own fields, and its related records (the carrier of an outorga, the timetable of a line, the counts
    of infractions per group...) with their own fields; a related record's own related records are given
    by their ``url`` only, and the page's record, which they point back to, not again (a line's timetable
    repeated the whole line and carrier in every row, which made the files large at national scale). Dates are
    ISO text."""
    if isinstance(record, dict):
        page = record if page is None else page
        out = {}
        for key, value in record.items():
            kind = type(value)
            if kind in _AS_IS:
                out[key] = value
            elif kind in _ISO:
                out[key] = value.isoformat()
            elif kind is float:
                out[key] = None if value != value else value
            elif isinstance(value, dict):
                if value is page:
                    continue
                if depth > 0 or "url" not in value:  # a related record, or a mapping such as counts
                    if depth >= 0:
                        out[key] = as_json(value, depth - 1, page)
                else:
                    out[key] = {"url": value["url"]}
            elif isinstance(value, Sequence) and not isinstance(value, (str, bytes)):  # a list, or one made on demand
                if depth > 0:
                    if type(value) is Rows and value._json is not None:  # rows of plain values, converted by column
                        out[key] = [dict(value.cells(at, value._json)) for at in value.positions]
                    else:
                        out[key] = [as_json(v, depth - 1, page) for v in value]
            else:
                out[key] = _scalar(value)
        return out
    if isinstance(record, Sequence) and not isinstance(record, (str, bytes)):
        return [as_json(v, depth, page) for v in record]
    return _scalar(record)


# the scalar types of the page contexts, converted without asking each value what it is: as they are, or as
# ISO text (a float NaN is None)
_AS_IS = frozenset({str, int, bool, type(None)})
_ISO = frozenset({date, datetime, time})


def _field(value):
    """What :func:`as_json` makes of a field that holds neither a record nor a list (its quick paths for a text,
    a number or a date give what :func:`_scalar` gives); a TypeError for a record or a list."""
    if isinstance(value, dict) or (isinstance(value, Sequence) and not isinstance(value, (str, bytes))):
        raise TypeError(f"not a plain value: {type(value).__name__}")
    return _scalar(value)


def json_columns(columns: dict[str, list]) -> tuple[list, ...] | None:
    """Each column of ``columns`` (``{name: values}``) as :func:`as_json` gives a record's fields, each distinct
    value converted once, for :class:`Rows` (``as_json``); None when some value is a record or a list."""
    try:
        return tuple(once_per_value(_field, values) for values in columns.values())
    except TypeError:
        return None


def _scalar(value):
    if value is None or isinstance(value, (str, bool, int)):
        return value
    if isinstance(value, float):
        return None if value != value else value
    if hasattr(value, "isoformat"):
        return value.isoformat()
    if dataclasses.is_dataclass(value):  # a resolved place (pipeline/places)
        return {k: _scalar(v) for k, v in dataclasses.asdict(value).items()}
    return str(value)
