"""The whole build: read -> validate -> derive -> publish -> render -> index, into a staging folder
that replaces the output folder only when every stage succeeded (a failed build never replaces the
last good site)."""

from __future__ import annotations

import gc
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from pelican import Pelican, signals
from pelican.log import console as pelican_console
from pelican.settings import read_settings

from .derive import Derived, derive
from .folders import staged
from .index import pagefind, whoosh
from .progress import Progress
from .publish import publish
from .publish.background import Background, BackgroundError
from .read import read_source
from .schema import Schema, load_schema
from .settings import Settings
from .site import discovery, urls
from .site.context import SiteData
from .site.links import rebase
from .validate import Report, validate


class BuildError(RuntimeError):
    """A stage failed; ``report`` holds the validation report when that was the cause."""

    def __init__(self, message: str, report: Report | None = None):
        super().__init__(message)
        self.report = report


@dataclass
class BuildResult:
    report: Report
    derived: Derived
    out: Path
    pages: int = 0
    timings: dict[str, float] = field(default_factory=dict)


def check(settings: Settings, schema: Schema | None = None, progress: Progress | None = None) -> Report:
    """Read and validate only (``python -m pipeline validate``)."""
    schema = schema or load_schema()
    progress = progress or Progress()
    with progress.stage("leitura"):
        source = read_source(list(settings.data), schema, progress, allow_mixed=settings.allow_mixed_sources)
    gc.freeze()  # see build(): the rows read live until the end
    with progress.stage("validação"):
        return validate(source, schema, lenient=settings.lenient)


def render(site: SiteData, settings: Settings, out: Path) -> int:
    """Render stage: Pelican with the portal's generators; returns the number of HTML pages: the portal's
    generators count theirs as they write them (``PORTAL_PAGES``), Pelican's own (the pages of
    ``content/``) are counted by its ``content_written`` signal."""
    pages = [0]

    def written(path, context=None):
        if str(path).endswith(".html"):
            pages[0] += 1

    pelican_settings = read_settings(
        str(settings.pelican_conf),
        override={
            "OUTPUT_PATH": str(out),
            "PORTAL_DATA": site,
            "PORTAL_WORKERS": settings.workers,
            "PORTAL_PAGES": pages,
            "DELETE_OUTPUT_DIRECTORY": False,
        },
    )
    signals.content_written.connect(written)
    try:
        with pelican_console.capture():  # Pelican's own summary; the CLI reports the build instead
            Pelican(pelican_settings).run()
    finally:
        signals.content_written.disconnect(written)
    return pages[0]


def build(settings: Settings, progress: Progress | None = None) -> BuildResult:
    """The whole build. The millions of objects each stage keeps to the end (rows, typed records, page
    contexts) are moved out of the cyclic garbage collector's sight once made (``gc.freeze``): otherwise
    every later collection walks them all again, which cost a third of the validation's time at
    national scale. Reference counting still frees them; they are handed back at the end."""
    try:
        return _build(settings, progress)
    finally:
        gc.unfreeze()


def _build(settings: Settings, progress: Progress | None = None) -> BuildResult:
    settings.check_outputs()
    schema = load_schema()
    progress = progress or Progress()
    report = check(settings, schema, progress)
    if not report.accepted:
        raise BuildError(f"{len(report.errors)} erro(s) na entrada; o site anterior foi mantido", report)
    with progress.stage("derivação"):
        derived = derive(
            report.accepted, schema, settings.as_of, coverage=report.coverage, file_sources=report.file_sources
        )
    gc.freeze()
    with staged(settings.out, "site gerado por python -m pipeline build") as staging:
        with progress.stage("publicação"):  # the files are written by other processes, beside the pages
            published = publish(derived, report, schema, staging / "dados", in_background=True)
        searcher = None
        try:
            with progress.stage("páginas"):
                site = SiteData.build(derived, schema, report, published.descriptor)
                gc.freeze()
                # the Whoosh index is written by another process while the pages render
                searcher = Background.start(partial(whoosh.build_index, site, Path(settings.whoosh_dir))) \
                    if settings.search_index else None
                pages = render(site, settings, staging)
                rebase(staging, settings.base_path)
                discovery.write(staging, settings.site_url, settings.as_of)  # robots.txt, sitemap.xml
            published.start_later()  # the XLSX workbooks, beside Pagefind
            if settings.search_index:
                with progress.stage("índice de busca"):
                    try:
                        pagefind.index(staging, urls.search_globs())
                        searcher.wait()
                    except pagefind.PagefindError as exc:
                        raise BuildError(str(exc)) from None
                    except BackgroundError as exc:
                        raise BuildError(f"o índice de busca Whoosh não pôde ser gravado: {exc}") from None
        except BaseException:
            published.cancel()
            if searcher is not None:
                searcher.cancel()
            raise
        with progress.stage("downloads (em paralelo)"):
            try:
                published.wait()
            except BackgroundError as exc:
                raise BuildError(f"os arquivos de dados abertos não puderam ser gravados: {exc}") from None
    return BuildResult(report, derived, settings.out, pages, progress.timings())
