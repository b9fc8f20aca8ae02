"""What crawlers and catalogues read first: ``robots.txt`` and, when the build knows the site's public
address (``--site-url``), ``sitemap.xml`` listing every page with an absolute URL (and no date of change,
which the build does not know). The index's dates come from ``--as-of``, never from the clock, so the same
input gives the same bytes. A sitemap holds at most 50,000
URLs (sitemaps.org); past that, ``sitemap.xml`` is an index of ``sitemap-<n>.xml`` files."""

from __future__ import annotations

import os
from datetime import date
from pathlib import Path
from xml.sax.saxutils import escape

MAX_URLS = 50_000
_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"


def page_urls(site: Path, site_url: str) -> list[str]:
    """The absolute URL of every page of ``site`` (``index.html`` files), sorted."""
    # os.walk, one folder at a time (Path.rglob keeps every folder it has seen)
    paths = sorted(Path(root).relative_to(site).as_posix() for root, folders, files in os.walk(site)
                   if "index.html" in files and os.path.isfile(os.path.join(root, "index.html")))
    return [f"{site_url}/" if path == "." else f"{site_url}/{path}/" for path in paths]


def write(site: Path, site_url: str, as_of: date) -> int:
    """Write ``robots.txt`` (and the sitemap when ``site_url`` is known); returns the URLs listed."""
    robots = "User-agent: *\nAllow: /\n"
    if not site_url:
        (site / "robots.txt").write_text(robots, encoding="utf-8")
        return 0
    urls = page_urls(site, site_url)
    day = as_of.isoformat()
    chunks = [urls[i:i + MAX_URLS] for i in range(0, len(urls), MAX_URLS)] or [[]]

    def urlset(items: list[str]) -> str:
        # no <lastmod> per page: the build knows when it made a page, not when the page's facts last changed,
        # and a date that moves every night on every page would say that all of them did
        rows = "".join(f"<url><loc>{escape(u)}</loc></url>\n" for u in items)
        return f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{_NS}">\n{rows}</urlset>\n'

    if len(chunks) == 1:
        (site / "sitemap.xml").write_text(urlset(chunks[0]), encoding="utf-8")
    else:
        rows = ""
        for n, chunk in enumerate(chunks, 1):
            (site / f"sitemap-{n}.xml").write_text(urlset(chunk), encoding="utf-8")
            rows += f"<sitemap><loc>{escape(site_url)}/sitemap-{n}.xml</loc><lastmod>{day}</lastmod></sitemap>\n"
        (site / "sitemap.xml").write_text(
            f'<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="{_NS}">\n{rows}</sitemapindex>\n',
            encoding="utf-8")
    (site / "robots.txt").write_text(robots + f"Sitemap: {site_url}/sitemap.xml\n", encoding="utf-8")
    return len(urls)
