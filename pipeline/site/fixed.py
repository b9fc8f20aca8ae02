"""The parts of a page that do not change from page to page, rendered once: the header (but for which menu
entry is the page's own) and the footer (the regime of the records, the sources, the reference date). Each
was a Jinja ``{% include %}`` on every one of the national scale's twenty thousand pages, a new context and
the same text made again each time.

``{{ parte_fixa("_footer.html") }}`` gives what ``{% include "_footer.html" %}`` gave, made once per Jinja
environment (one per generator and build, copied into each worker process) and per distinct set of the
arguments it is given. A fixed part sees the settings (the upper-case names: ``SITENAME``, ``PORTAL_DATA``),
the environment's globals and filters, and its arguments: nothing of the page. What varies from page to page
is passed to it: the header is given the menu's entries that are the page's own (``urls.current``).
"""

from __future__ import annotations

from weakref import WeakKeyDictionary

from jinja2 import Environment, pass_context
from markupsafe import Markup

_MADE: WeakKeyDictionary[Environment, dict] = WeakKeyDictionary()


@pass_context
def fixed_part(context, name: str, **given) -> Markup:
    """The partial ``name`` rendered from the settings and ``given`` (hashable values), once (see the module)."""
    made = _MADE.setdefault(context.environment, {})
    key = (name, tuple(sorted(given.items())))
    html = made.get(key)
    if html is None:
        settings = {k: v for k, v in context.get_all().items() if k.isupper()}
        html = made[key] = Markup(context.environment.get_template(name).render(settings, **given))
    return html
