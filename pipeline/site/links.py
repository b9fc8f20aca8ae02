"""The site's own URLs: served from a sub-path (a GitHub Pages project site lives at
``https://<owner>.github.io/<repo>/``), and checked before anything is published.

Templates and hand-written pages write root-relative URLs (``/linhas/``); the site's writer puts them
under the base path as it writes each page (pipeline/site/writer.py). Pagefind finds its index next to its
script, so the search follows. :func:`broken_links` reads every page and lists the internal links, assets
and downloads that lead nowhere, fragments included.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote, urlparse

_REF = re.compile(r'\s(?:href|src|action)="([^"]*)"')
_ID = re.compile(r'\sid="([^"]+)"')


def broken_links(site: Path, base: str = "") -> list[tuple[str, str]]:
    """``(page, link)`` for each internal link of the site at ``site`` (served under ``base``) whose
    target file, or whose ``#fragment`` in that file, does not exist."""
    ids: dict[Path, set[str]] = {}

    def anchors(path: Path) -> set[str]:
        if path not in ids:
            ids[path] = set(_ID.findall(path.read_text(encoding="utf-8")))
        return ids[path]

    broken = []
    for page in sorted(site.rglob("*.html")):
        here = page.relative_to(site).as_posix()
        for ref in _REF.findall(page.read_text(encoding="utf-8")):
            parts = urlparse(ref.replace("&amp;", "&"))
            if parts.scheme or parts.netloc or not ref or ref.startswith(("#", "mailto:", "data:")):
                if ref.startswith("#") and ref[1:] and ref[1:] not in anchors(page):
                    broken.append((here, ref))
                continue
            path = unquote(parts.path)
            if base and not (path == base or path.startswith(base + "/")):
                broken.append((here, ref))  # would leave the sub-path the site is served from
                continue
            target = site / path[len(base):].lstrip("/")
            if path.endswith("/"):
                target = target / "index.html"
            if not target.is_file():
                broken.append((here, ref))
            elif parts.fragment and target.suffix == ".html" and parts.fragment not in anchors(target):
                broken.append((here, ref))
    return broken
