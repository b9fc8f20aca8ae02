"""The portal's Jinja2 templates: the stock ones, with a quicker ``escape``.

With autoescaping on, every ``{{ value }}`` of a template is ``escape(value)`` (MarkupSafe), which for a
text calls MarkupSafe's C escaping and then makes the result a ``Markup`` through ``Markup.__new__``, a
Python function that asks the text for ``__html__`` again; a ``Markup`` given to it (a macro's output, a
filter's) is made anew: two Python layers for each value a page prints. :func:`escape` gives the same
result (the same text, of type ``Markup``) for a text and a ``Markup`` without them, and leaves everything
else to MarkupSafe. :class:`PortalTemplate` puts it in place of MarkupSafe's in the module each template
compiles to (the name its code reads ``escape`` by)."""

from __future__ import annotations

import markupsafe
from jinja2 import Template
from markupsafe import Markup

_escape_text = markupsafe._escape_inner  # MarkupSafe's C escaping of a str, what ``markupsafe.escape`` calls
_new_text = str.__new__


def escape(value, /) -> Markup:
    """``markupsafe.escape(value)``: for a ``str``, its text escaped, as ``Markup``; a ``Markup`` (already safe)
    as it is; anything else by MarkupSafe."""
    if type(value) is str:
        return _new_text(Markup, _escape_text(value))
    if type(value) is Markup:
        return value
    return markupsafe.escape(value)


class PortalTemplate(Template):
    """A template whose ``{{ … }}`` escape by :func:`escape` (the environment's ``template_class``)."""

    @classmethod
    def from_code(cls, environment, code, globals, uptodate=None):
        template = super().from_code(environment, code, globals, uptodate)
        # the module the template compiled to: its functions read ``escape`` from there when they run
        template.root_render_func.__globals__["escape"] = escape
        return template
