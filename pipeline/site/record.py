"""The record type the templates read."""

from __future__ import annotations

import dataclasses


class Record(dict):
    """A record as the templates read it: ``linha.prefixo`` is found as an attribute. Jinja2 tries an
    attribute before an item, and for a plain dict that first try fails with an exception on every
    field of every row: a fifth of the page stage at national scale. Semantics are the dict's (a key
    named like a dict method is still shadowed by the method, as before)."""

    __slots__ = ()

    def __getattr__(self, name: str):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


def as_json(record: dict, depth: int = 1):
    """A record page's facts as JSON-ready data (``/linhas/<prefixo>/index.json`` beside the page): its
    own fields, and its related records (the carrier of an outorga, the timetable of a line, the counts
    of infractions per group...) with their own fields and ``url`` only, so a cycle (a carrier's outorgas
    point back to the carrier) ends there. Dates are ISO text."""
    if isinstance(record, dict):
        out = {}
        for key, value in record.items():
            if isinstance(value, dict):
                if depth >= 0:  # a related record: its own fields (and theirs, while depth lasts)
                    out[key] = as_json(value, depth - 1)
            elif isinstance(value, (list, tuple)):
                if depth > 0:
                    out[key] = [as_json(v, depth - 1) for v in value]
            else:
                out[key] = _scalar(value)
        return out
    if isinstance(record, (list, tuple)):
        return [as_json(v, depth) for v in record]
    return _scalar(record)


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
