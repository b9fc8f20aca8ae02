"""The record type the templates read."""

from __future__ import annotations


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
