"""Where each published file lives, by size: the limits of the hosts the portal is published to, named once.

The pages, and every file a page's script reads, are served by GitHub Pages. The downloads ride on Pages
while they are small; a bulk file goes only to the night's GitHub Release, as an asset whose address lasts
(``<versoes-url>/download/<versão>/<arquivo>``, GitHub's convention), and ``/dados/``, the catalogues and
the published ``datapackage.json`` give that address. Every download, small or bulk, is also an asset of the
release, so that the release alone is the whole package at its durable address.

A format that does not serve a table at its size is not made for it: no JSON array of more than
:data:`JSON_MAX_ROWS` rows (a reader loads the whole array into memory before the first row; the README's
bench section has the figures), no workbook of more rows than a sheet holds (``spreadsheet.MAX_ROWS``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

# GitHub Pages: "Published GitHub Pages sites may be no larger than 1 GB" (its usage limits); the artifact is
# the tar actions/upload-pages-artifact makes (--dereference --hard-dereference: a hard link counts in full)
PAGES_LIMIT = 1_000_000_000
# the portal's budget on Pages: half the limit, room for the network to grow; over it the build warns
PAGES_BUDGET = 500_000_000
# a download larger than this goes to the release only (when the build has one: --versoes-url and
# --pasta-release); smaller ones are served by Pages too
ON_PAGES_MAX_BYTES = 10 * 2**20
# a release asset must be under 2 GiB (GitHub's limit for a file in a release)
ASSET_LIMIT = 2 * 2**30
# the most rows a table's JSON array is written for
JSON_MAX_ROWS = 50_000
# tar's cost per file: a 512-byte header, and the content padded to 512 bytes
TAR_BLOCK = 512


def tar_bytes(sizes) -> int:
    """The size of a tar of files of these ``sizes`` (headers, padding, the two closing blocks, then
    tar's default record of 10,240 bytes), as upload-pages-artifact's ``tar`` writes it, folders included
    as headers of their own by the caller."""
    total = sum(TAR_BLOCK + -(-size // TAR_BLOCK) * TAR_BLOCK for size in sizes) + 2 * TAR_BLOCK
    return -(-total // 10_240) * 10_240


def artifact_bytes(site: Path) -> int:
    """What the Pages artifact of ``site`` weighs: each file in full (a hard link too, and a link to a file as
    its target) and each folder (a link to a folder is neither followed nor counted). Walked one folder at
    a time by ``os.scandir``, whose entries know their kind without asking the system again: ``Path.rglob``
    keeps every path it yields, which at the build's end set its peak memory."""
    sizes = [0]  # the root folder "." too
    folders = [os.fspath(site)]
    while folders:
        with os.scandir(folders.pop()) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    sizes.append(0)
                    folders.append(entry.path)
                elif entry.is_file():
                    sizes.append(entry.stat().st_size)
    return tar_bytes(sizes)


@dataclass
class Placement:
    """Where the files of one release live: the address of the release's assets and the files kept off Pages."""
    assets_url: str = ""  # <versoes-url>/download/<versão>/: where the release's assets answer; "" without one
    off_pages: set[str] = field(default_factory=set)  # paths under dados/ served by the release only

    def url(self, path: str) -> str:
        """The address of the download ``path`` (relative to ``dados/``): the release's asset when the file
        is not on Pages, else its path from the site's root (``/dados/`` + path)."""
        if path in self.off_pages:
            return self.assets_url + asset_name(path)
        return f"/dados/{path}"


def asset_name(path: str) -> str:
    """A download's name as a release asset, flat: ``fontes/<id>/ingest-report.json`` becomes
    ``fontes-<id>-ingest-report.json``."""
    return path.replace("/", "-")


def place(files: list[dict], assets_url: str) -> Placement:
    """Which of ``files`` (``release.files``) are served by the release only: those over
    :data:`ON_PAGES_MAX_BYTES`, when the build has a release (``assets_url``)."""
    if not assets_url:
        return Placement()
    return Placement(assets_url, {f["path"] for f in files if f["bytes"] > ON_PAGES_MAX_BYTES})


class HostingError(ValueError):
    """What would break a host's limit, in pt-BR: the build stops before anything is published."""


def check(site: Path, assets: Path | None, strict: bool = True) -> tuple[int, list[str]]:
    """The artifact's size, and a warning when it is over the budget; with ``strict`` (a site bound for
    GitHub Pages, with its release) :class:`HostingError` when the whole would break Pages' limit, or an
    asset the release's; without it, that too is a warning (a site served from elsewhere)."""
    total = artifact_bytes(site)
    if total > PAGES_LIMIT and not strict:
        return total, [f"o site tem {total / 1e6:,.0f} MB: não caberia no GitHub Pages (limite de "
                       f"{PAGES_LIMIT / 1e6:,.0f} MB); publique-o com --pasta-release e --versoes-url"]
    if total > PAGES_LIMIT:
        largest = sorted(((p.stat().st_size, p) for p in site.rglob("*") if p.is_file()), reverse=True)[:5]
        named = ", ".join(f"{p.relative_to(site)} ({s / 1e6:,.0f} MB)" for s, p in largest)
        raise HostingError(f"o site teria {total / 1e6:,.0f} MB no artefato do GitHub Pages, acima do limite de "
                           f"{PAGES_LIMIT / 1e6:,.0f} MB: não foi publicado (maiores arquivos: {named})")
    if assets is not None and assets.is_dir():
        for asset in sorted(assets.iterdir()):
            if asset.is_file() and asset.stat().st_size >= ASSET_LIMIT:
                raise HostingError(f"o arquivo {asset.name} da release teria {asset.stat().st_size / 2**30:.2f} GiB, "
                                   f"acima do limite de 2 GiB de um arquivo de release do GitHub: não foi publicado")
    warnings = []
    if total > PAGES_BUDGET:
        warnings.append(f"o site tem {total / 1e6:,.0f} MB no artefato do GitHub Pages, acima do orçamento de "
                        f"{PAGES_BUDGET / 1e6:,.0f} MB (o limite é {PAGES_LIMIT / 1e6:,.0f} MB)")
    return total, warnings
