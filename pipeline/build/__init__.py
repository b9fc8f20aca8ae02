"""The whole build: read -> validate -> derive -> publish -> render -> index, into a staging folder
that replaces the output folder only when every stage succeeded (a failed build never replaces the
last good site)."""

from __future__ import annotations

import gc
import json
import os
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from markupsafe import Markup
from pelican import Pelican, signals
from pelican.log import console as pelican_console
from pelican.settings import read_settings

from ..contract.schema import Schema, load_schema
from ..contract.settings import Settings, release_assets
from ..derive import Derived, derive
from ..index import pagefind, whoosh
from ..publish import covered, datapackage, hosting, publish
from ..publish.background import Background, BackgroundError
from ..read import read_source
from ..release import catalog, changes, routes, versions
from ..site import CHANGES_LISTED, discovery, feeds, urls
from ..site.context import SiteData
from ..site.writer import Rendered, writer_for
from ..tools import memory
from ..tools.folders import exclusive, staged
from ..tools.parallel import WorkerError
from ..tools.progress import Progress
from ..validate import Report, validate
from . import batches


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
    warnings: list[str] = field(default_factory=list)  # what is published but over a budget (hosting.check)


def check(settings: Settings, schema: Schema | None = None, progress: Progress | None = None,
          out: Path | None = None, previous: str | None = None, sides: list | None = None) -> Report:
    """Read and validate (``python -m pipeline validate``). A table read in batches is read, validated and,
    when ``out`` is given (the build's ``dados/``), derived and written there as it is read
    (pipeline/build/batches.py). Its SQLite table may still be filling when the batches are done: given
    ``sides``, the check adds those tables to it, for the caller to wait for (or stop); else it waits here."""
    schema = schema or load_schema()
    progress = progress or Progress()
    # the tables read in batches, in a child process beside the rest (pipeline/build/batches.py)
    pending = batches.start(list(settings.data), schema, lenient=settings.lenient, as_of=settings.as_of,
                            allow_mixed=settings.allow_mixed_sources, out=out, previous=previous,
                            listed=CHANGES_LISTED, assets=settings.assets_prefix)
    handed = False
    try:
        with progress.stage("leitura"):
            source = read_source(list(settings.data), schema, progress, allow_mixed=settings.allow_mixed_sources)
        memory.give_back()  # what the reader made and let go (pipeline/tools/memory.py)
        gc.freeze()  # see build(): the rows read live until the end
        with progress.stage("validação"):
            report = validate(source, schema, lenient=settings.lenient)
        if pending is not None:
            with progress.stage("tabelas em lotes"):
                batches.attach(report, pending, lenient=settings.lenient)
            if sides is not None:
                sides += pending.sides.values()
                handed = True
            else:
                _wait_for(pending.sides.values())
    finally:
        if pending is not None:
            pending.cancel()
            if not handed:
                for side in pending.sides.values():
                    side.cancel()
    return report


def _wait_for(sides) -> None:
    """The SQLite tables of the batches filled (``database.SideTable``); a failure said as the build's."""
    for side in sides:
        try:
            side.wait()
        except WorkerError as exc:
            raise BuildError(f"as tabelas em lotes não puderam ser gravadas no banco SQLite: {exc}") from None


@contextmanager
def _stopped(sides: list):
    """The SQLite tables of the batches (``check``'s ``sides``) stopped when the build ends before waiting for them."""
    try:
        yield sides
    finally:
        for side in sides:
            side.cancel()


def render(site: SiteData, settings: Settings, out: Path, search_pages: Path | None = None) -> Rendered:
    """Render stage: Pelican with the portal's generators and the site's one writer (pipeline/site/writer.py,
    by the ``get_writer`` signal), which puts every page under the site's path (``SITEURL``), counts them and
    writes in ``search_pages``, when given, what Pagefind reads of each searched page. Returns the count and
    what is rendered once the release's files are written (pipeline/site, ``DataGenerator``)."""
    rendered = Rendered()
    writer = writer_for(rendered)

    def give_writer(pelican):
        return writer

    pelican_settings = read_settings(
        str(settings.pelican_conf),
        override={
            "OUTPUT_PATH": str(out),
            # the site's address, or its path alone: the pages' addresses and each record's JSON are under it
            "SITEURL": settings.site_url or settings.base_path,
            "PORTAL_DATA": site,
            "PORTAL_WORKERS": settings.workers,
            "PORTAL_SEARCH_PAGES": str(search_pages) if search_pages is not None else None,
            "PORTAL_VERSOES_URL": settings.versions_url,  # where each release is kept beside the site
            "DELETE_OUTPUT_DIRECTORY": False,
        },
    )
    signals.get_writer.connect(give_writer)
    try:
        with pelican_console.capture():  # Pelican's own summary; the CLI reports the build instead
            Pelican(pelican_settings).run()
    finally:
        signals.get_writer.disconnect(give_writer)
    return rendered


def build(settings: Settings, progress: Progress | None = None) -> BuildResult:
    """The whole build. The millions of objects each stage keeps to the end (rows, typed records, page
    contexts) are moved out of the cyclic garbage collector's sight once made (``gc.freeze``): otherwise
    every later collection walks them all again, a large share of the validation's time at national
    scale. Reference counting still frees them; they are handed back at the end.

    Nothing is written before the settings' folders are checked (apart, and the portal's to replace);
    then the build holds the lock of its output folders (``folders.exclusive``: a second build into them
    stops at once, naming this one) until it ends, however it ends."""
    settings.check_outputs()
    try:
        with exclusive(settings.out, settings.whoosh_index,
                       settings.release_folder):
            return _build(settings, progress)
    finally:
        gc.unfreeze()


def _build(settings: Settings, progress: Progress | None = None) -> BuildResult:
    schema = load_schema()
    progress = progress or Progress()
    with staged(settings.out, "site gerado por python -m pipeline build") as staging, \
            _release_staging(settings) as assets, \
            tempfile.TemporaryDirectory(prefix=f".{settings.out.resolve().name}.busca-",  # see remove_leftovers
                                        dir=staging.parent) as search_folder, _stopped([]) as sides:
        (staging / "dados").mkdir(parents=True, exist_ok=True)
        report = check(settings, schema, progress, out=staging / "dados", previous=settings.previous, sides=sides)
        if not report.accepted:
            raise BuildError(f"{len(report.errors)} erro(s) na entrada; o site anterior foi mantido", report)
        with progress.stage("derivação"):
            derived = derive(report.accepted, schema, settings.as_of, coverage=report.coverage,
                             file_sources=report.file_sources, typed_values=report.typed_values,
                             batches=report.batches)
            report.typed_values = {}  # derived: the typed values live on in the frames only
            report.let_rows_go()  # and the rows read: the frames hold what the later stages read
            memory.give_back()
        gc.freeze()
        previous = None
        if settings.previous:  # read before the long stages: an unreadable previous release fails the build now
            try:
                previous = changes.load_previous(settings.previous, streamed=set(report.batches),
                                                 assets=settings.assets_prefix)
            except changes.ChangesError as exc:
                raise BuildError(str(exc)) from None
        # the release's name, known before anything is written: every file cites where it is kept
        version = versions.input_version(settings.as_of, settings.data, _output_settings(settings))
        if sides:  # the tickets' SQLite inserts, beside the reading and the derive stage (batches.start)
            with progress.stage("tabelas em lotes no SQLite"):
                _wait_for(sides)
        with progress.stage("publicação"):  # the files are written by other processes, beside the pages
            published = publish(derived, report, schema, staging / "dados", in_background=True,
                                site_url=settings.site_url, version=version,
                                versions_url=settings.versions_url if assets is not None else "")
        searcher = searching = None
        try:
            with progress.stage("páginas"):
                site = SiteData.build(derived, schema, report, published.descriptor, published.lines)
                # what changed of each line, carrier and pair since the previous release: each page's feed
                done, followed, record_feeds, feeds_cut = _follow(previous, derived, published.descriptor, site,
                                                                  version, settings)
                site.record_feeds = {page: feeds.record_feed(page) for page in followed}
                memory.give_back()  # before the page workers fork
                gc.freeze()
                # the Whoosh index is written by another process while the pages render
                searcher = Background.start(partial(whoosh.build_index, site, settings.whoosh_index)) \
                    if settings.whoosh_index is not None else None
                search_pages = Path(search_folder) if settings.search_index else None
                rendered = render(site, settings, staging, search_pages)
                feeds.write(staging, site, settings.site_url, settings.as_of, base_path=settings.base_path)
                record_feeds.write(staging, followed)
                routes.write_index(staging / "dados", followed)
                if settings.search_index:  # Pagefind reads the searched pages while the downloads end and the
                    rendered.search_started = True  # release is written: the pages rendered then are not searched
                    searching = pagefind.start(staging, urls.search_globs(), search_pages)
            with progress.stage("downloads (em paralelo)"):
                try:
                    published.wait()
                except BackgroundError as exc:
                    raise BuildError(f"os arquivos de dados abertos não puderam ser gravados: {exc}") from None
            with progress.stage("versão e catálogos"):  # the download pages rendered with the release's facts
                _release(staging, settings, derived, rendered.late, previous, covered(schema, report), report.coverage,
                         version, assets, done)
                discovery.write(staging, settings.site_url, settings.as_of)  # robots.txt, sitemap.xml: every page
            if settings.search_index:
                with progress.stage("índice de busca"):
                    try:
                        searching.wait()
                        if searcher is not None:
                            searcher.wait()
                    except pagefind.PagefindError as exc:
                        raise BuildError(str(exc)) from None
                    except BackgroundError as exc:
                        raise BuildError(f"o índice de busca Whoosh não pôde ser gravado: {exc}") from None
        except BaseException:
            published.cancel()
            if searcher is not None:
                searcher.cancel()
            if searching is not None:
                searching.cancel()
            raise
        try:  # the site as GitHub Pages will take it, search index included (pipeline/publish/hosting.py)
            warnings = hosting.check(staging, assets, strict=assets is not None)[1]
            if feeds_cut:
                warnings.append(f"feeds das páginas {feeds_cut}")
        except hosting.HostingError as exc:
            raise BuildError(str(exc)) from None
    return BuildResult(report, derived, settings.out, rendered.pages, progress.timings(), warnings)


def _follow(previous, derived: Derived, descriptor: dict, site: SiteData, version: str,
            settings: Settings) -> tuple[dict[str, dict], dict[str, list[dict]], feeds.RecordFeeds, str | None]:
    """The followed tables compared whole with the previous release (pipeline/release/routes.py), and each of
    tonight's pages with the latest events that name it: tonight's and those the previous site carried, all
    the feeds within their share of the host (``routes.fit``); the feeds' writer; what was cut."""
    from ..places import resolve
    from ..site import label

    found = routes.Compared()
    tonight: list[dict] = []
    pages = feeds.record_pages(site)
    if previous is not None:
        try:
            found = routes.compared(previous, derived.tables, descriptor, CHANGES_LISTED)
        except changes.ChangesError as exc:
            raise BuildError(str(exc)) from None
        tonight = routes.events(found.rows, pages, routes.Dating.of(descriptor, settings.as_of), version,
                                lambda t, f, v: label(site.schema, t, f, v),
                                lambda name, uf: resolve(name, uf).chave, routes.grants_of(derived.tables.get("outorgas")),
                                lambda t, c: site.schema.tables[t].field(c).get("title") or c)
    carried = routes.read_carried(settings.previous)
    record_feeds = feeds.RecordFeeds(site, pages.titles, settings.site_url, settings.as_of, base_path=settings.base_path)
    followed, cut = routes.fit(routes.merged(carried, tonight, pages.exists), record_feeds.measure)
    return found.entries, followed, record_feeds, cut


def _output_settings(settings: Settings) -> dict:
    """The settings that reach a byte of the output (versions.input_version)."""
    return {name: str(getattr(settings, name)) for name in (
        "site_url", "base_path", "versions_url", "contact_email", "update_frequency", "vcge_theme", "vcge_label",
        "lenient", "allow_mixed_sources", "search_index")} | {"release": settings.release_folder is not None}


@contextmanager
def _release_staging(settings: Settings):
    """The folder the release's assets are written into (``--pasta-release``), staged and put in place with
    the site; None without one."""
    if settings.release_folder is None:
        yield None
        return
    with staged(settings.release_folder, "arquivos da release gerados por python -m pipeline build") as folder:
        yield folder


def _release(site: Path, settings: Settings, derived: Derived, late: list, previous, covered,
             coverage: dict[str, list[str]] | None = None, version: str = "", assets: Path | None = None,
             done: dict[str, dict] | None = None) -> None:
    """Once every download is written: what changed since the previous release (``--anterior``), each
    file's size and SHA-256 (``SHA256SUMS``), the catalogues (DCAT-AP, data.json), this release kept, the
    feed of changes and the download pages rendered with all of it (pipeline/release/versions.py).
    Every date is the data's or ``--as-of``.

    Without a release folder the release is kept under ``/dados/versoes/<versão>/`` beside the earlier ones
    (a local ``--anterior`` brings them). With one (``--pasta-release`` and ``--versoes-url``, the nightly
    job) every download goes into it, to be the night's GitHub Release ``<versão>``; the bulk files leave the
    site (pipeline/publish/hosting.py) and the site names their addresses there; the kept releases are
    listed by ``/dados/versoes.json``, carried from the previous site, folder or URL. The build then measures
    the site as GitHub Pages will take it: over its limit nothing is published (``hosting.HostingError``),
    over the budget the build warns."""
    out = site / "dados"
    descriptor = json.loads((out / "datapackage.json").read_text(encoding="utf-8"))
    mudancas = None
    previous_folder = None
    if previous is not None:
        try:
            failed = [b.changes_error for b in derived.batches.values() if b.changes_error]
            if failed:
                raise changes.ChangesError(failed[0])
            mudancas = changes.compare(previous, out, descriptor, limit=CHANGES_LISTED,
                                       streamed={n: b.changes for n, b in derived.batches.items() if b.changes},
                                       done=done)
        except changes.ChangesError as exc:
            raise BuildError(str(exc)) from None
        changes.write(mudancas, out / "mudancas.json")
        previous_folder = _local_dados(settings.previous)
    listed = versions.files(out, descriptor)
    versions.write_checksums(out, listed)
    # a table without dates of its own covers the period its sources state (a table the portal computes, none)
    stated_dates = {s.get("name"): s.get("date") for s in descriptor.get("sources", []) if s.get("date")}
    temporal = versions.temporal(derived.tables, descriptor, {
        name: [stated_dates[i] for i in ids if i in stated_dates] for name, ids in (coverage or {}).items()})
    temporal.update({name: (b.first_day, b.last_day) for name, b in derived.batches.items()})
    # rows per table; None for a table no source supplies (its rows are unknown: never "0 linhas")
    rows = {name: derived.rows(name) if covered(name) else None for name in derived.tables}
    placement = hosting.Placement()
    hosted = descriptor  # as the site publishes it: a table served by the release only at its address there
    if assets is None:
        kept = versions.keep_version(out, settings.as_of, previous_folder, listed)
        described = catalog.kept_versions(out, kept.names)
    else:
        downloads = listed + versions.reports(out)
        placement = hosting.place(downloads, release_assets(settings.versions_url, version))
        written = versions.write_assets(out, downloads, assets)
        index = versions.merged_index(versions.read_index(settings.previous),
                                     versions.index_entry(version, settings.as_of, descriptor, written))
        versions.write_index(out, index)
        kept = versions.Kept(version, [e["versao"] for e in index], True, True)
        (out / kept.folder).mkdir(parents=True)  # tonight's change log, for the feed of changes
        if mudancas is not None:
            os.link(out / "mudancas.json", out / kept.folder / "mudancas.json")
        described = [versions.described(e, settings.versions_url) for e in index]
        for path in placement.off_pages | {"datapackage.json"}:  # hard links to the assets: never written over
            (out / path).unlink()
        hosted = versions.hosted(descriptor, placement)
        datapackage.write_json(hosted, out / "datapackage.json")
        for f in listed:
            if f["path"] == "datapackage.json":
                f.update(bytes=(out / f["path"]).stat().st_size, sha256=datapackage.sha256(out / f["path"]))
            f["url"] = placement.url(f["path"])
        versions.write_checksums(out, listed)
    # the catalogues' and the pages' JSON-LD addresses: absolute, or under the site's path when only it is known
    args = (descriptor, listed, settings.site_url or settings.base_path, settings.as_of, temporal)
    # what the catalogues state besides the descriptor: the settings, each table's sources, the kept releases
    facts = catalog.Facts.from_settings(settings, coverage, described)
    datapackage.write_json(catalog.dcat(*args, rows=rows, facts=facts), out / CATALOGUE)
    datapackage.write_json(catalog.data_json(*args, rows=rows, facts=facts), site / "data.json")
    info = {
        "descriptor": hosted,
        "arquivos": listed,
        "por_tabela": {r["name"]: [f for f in listed if f["tabela"] == r["name"]] for r in descriptor["resources"]},
        "pacote": [f for f in listed if f["tabela"] is None],
        "versoes": kept.names,  # every kept version's name (AAAA-MM-DD-<código>), newest first
        "versao": kept.name,  # this release's
        "versao_guardada": kept.kept,  # False: a folder of its name, with another descriptor, was kept before and stays
        # where each kept version answers: its GitHub Release, or its folder under /dados/versoes/
        "endereco_versao": {v: datapackage.kept_address(v, settings.versions_url if assets is not None else "", "")
                            or f"/dados/versoes/{v}/" for v in kept.names},
        "na_release": assets is not None,
        # where each download answers (pipeline/publish/hosting.py): off the site, the release's asset
        "enderecos": {p: placement.url(p) for p in placement.off_pages},
        "citacao": descriptor.get("x-citacao") if assets is not None else datapackage.citation(
            descriptor["title"], settings.as_of, settings.site_url, descriptor.get("sources") or [], kept.name),
        "mudancas": mudancas,
        # the JSON-LD blocks, escaped for a <script> element by catalog.script_tag
        "schema_org": {None: Markup(catalog.script_tag(catalog.schema_org(*args, rows=rows, facts=facts))),
                       **{r["name"]: Markup(catalog.script_tag(catalog.schema_org(*args, table=r["name"], rows=rows,
                                                                                  facts=facts)))
                          for r in descriptor["resources"]}},
    }
    for render_again in late:
        render_again(info)
    feeds.write_changes(site, changes.kept_changes(out / versions.VERSIONS), hosted, settings.site_url,
                        settings.as_of, base_path=settings.base_path)
    versions.stamp(out, settings.as_of, out / kept.folder if kept.made else None)
    if assets is not None:
        versions.stamp(assets, settings.as_of)


CATALOGUE = "catalogo.jsonld"


def _local_dados(where: str) -> Path | None:
    """The previous release's ``dados/`` folder when ``--anterior`` names a folder (not a URL)."""
    if "://" in where:
        return None
    folder = Path(where)
    return folder / "dados" if (folder / "dados" / "datapackage.json").is_file() else folder
