"""The whole build: read -> validate -> derive -> publish -> render -> index, into a staging folder
that replaces the output folder only when every stage succeeded (a failed build never replaces the
last good site)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pelican import Pelican
from pelican.log import console as pelican_console
from pelican.settings import read_settings

from .derive import Derived, derive
from .folders import staged
from .index import pagefind, whoosh
from .progress import Progress
from .publish import publish
from .publish.background import BackgroundError
from .read import read_source
from .schema import Schema, load_schema
from .settings import Settings
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
    with progress.stage("validação"):
        return validate(source, schema, lenient=settings.lenient)


def render(site: SiteData, settings: Settings, out: Path) -> int:
    """Render stage: Pelican with the portal's generators; returns the number of HTML pages."""
    pelican_settings = read_settings(
        str(settings.pelican_conf),
        override={
            "OUTPUT_PATH": str(out),
            "PORTAL_DATA": site,
            "DELETE_OUTPUT_DIRECTORY": False,
        },
    )
    with pelican_console.capture():  # Pelican's own summary; the CLI reports the build instead
        Pelican(pelican_settings).run()
    return sum(1 for _ in out.rglob("*.html"))


def build(settings: Settings, progress: Progress | None = None) -> BuildResult:
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
    with staged(settings.out, "site gerado por python -m pipeline build") as staging:
        with progress.stage("publicação"):  # the spreadsheets go on in a second process, beside the pages
            published = publish(derived, report, schema, staging / "dados", progress,
                                spreadsheets_in_background=True)
        try:
            with progress.stage("páginas"):
                site = SiteData.build(derived, schema, report, published.descriptor)
                pages = render(site, settings, staging)
                rebase(staging, settings.base_path)
            if settings.search_index:
                with progress.stage("índice de busca"):
                    try:
                        pagefind.index(staging)
                    except pagefind.PagefindError as exc:
                        raise BuildError(str(exc)) from None
                    whoosh.build_index(site, Path(settings.whoosh_dir))
        except BaseException:
            published.cancel()
            raise
        with progress.stage("planilhas (em paralelo)"):
            try:
                published.wait()
            except BackgroundError as exc:
                raise BuildError(f"as planilhas XLSX não puderam ser gravadas: {exc}") from None
    return BuildResult(report, derived, settings.out, pages, progress.timings())
