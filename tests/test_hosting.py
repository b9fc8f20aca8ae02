"""Fits its host (issue 31): each published file where it belongs by size, every table downloadable with its
size and SHA-256, and each release kept whole, at an address that lasts, as a GitHub Release named as its
version. The release's builds run on the bundled sample with the size threshold lowered so that its largest
files leave the site, as a national night's do (bench/night.py measures the real sizes)."""

from __future__ import annotations

import functools
import hashlib
import http.server
import json
import shutil
import subprocess
import threading
from datetime import date
from pathlib import Path

import pytest
from conftest import page_text

from pipeline import SAMPLE_DIR
from pipeline.build import BuildError, build
from pipeline.contract.settings import Settings, SettingsError
from pipeline.publish import formats, formats_note, hosting
from pipeline.site.links import broken_links

SITE = "https://exemplo.github.io/portal"
RELEASES = "https://github.com/exemplo/portal/releases"
AS_OF = date(2026, 11, 29)
THRESHOLD = 150_000  # bytes: the sample's tickets, infractions, database and zip go to the release
JSON_ROWS = 1_000  # the sample's 1,824 tickets (read in batches) then get no JSON array, its 40 lines do


def _build(tmp: Path, name: str, previous: str = "", versions_url: str = RELEASES, site_url: str = SITE, **more):
    out, assets = tmp / name, tmp / f"{name}-release"
    build(Settings(data=(SAMPLE_DIR,), out=out, as_of=AS_OF, site_url=site_url, versions_url=versions_url,
                   release_folder=assets, previous=previous, whoosh_dir=tmp / f"busca-{name}", **more))
    return out, assets


@pytest.fixture(scope="module")
def night(tmp_path_factory):
    """The sample built as the nightly job builds it, with a release: the site and the release's folder."""
    patch = pytest.MonkeyPatch()
    patch.setattr(hosting, "ON_PAGES_MAX_BYTES", THRESHOLD)
    patch.setattr(hosting, "JSON_MAX_ROWS", JSON_ROWS)
    try:
        yield _build(tmp_path_factory.mktemp("noite"), "site")
    finally:
        patch.undo()


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_format_that_does_not_serve_a_table_at_its_size_is_not_made():
    assert [f[0] for f in formats(hosting.JSON_MAX_ROWS)] == ["csv", "json", "parquet", "xlsx"]
    assert [f[0] for f in formats(hosting.JSON_MAX_ROWS + 1)] == ["csv", "parquet", "xlsx"]
    assert [f[0] for f in formats(2_000_000)] == ["csv", "parquet"]
    assert formats_note(10) == ""
    note = formats_note(1_574_016)
    assert note.startswith("Sem JSON nem XLSX para esta tabela, de 1.574.016 registros") and "Parquet" in note


def test_the_artifact_is_measured_as_upload_pages_artifact_tars_it(night):
    site, _ = night
    tar = subprocess.run(["tar", "--dereference", "--hard-dereference", "--directory", str(site), "-cf", "-", "."],
                         capture_output=True, check=True).stdout
    assert hosting.artifact_bytes(site) == len(tar)


def test_links_to_files_are_measured_as_the_artifact_holds_them(tmp_path):
    """A hard link and a link to a file weigh their file in full, as upload-pages-artifact's tar holds them."""
    site = tmp_path / "site"
    (site / "dados" / "versoes" / "v1").mkdir(parents=True)
    (site / "dados" / "tabela.csv").write_bytes(b"a;b\n" * 7000)
    (site / "dados" / "versoes" / "v1" / "tabela.csv").hardlink_to(site / "dados" / "tabela.csv")
    (site / "ultima.csv").symlink_to("dados/tabela.csv")
    (site / "vazia").mkdir()
    tar = subprocess.run(["tar", "--dereference", "--hard-dereference", "--directory", str(site), "-cf", "-", "."],
                         capture_output=True, check=True).stdout
    assert hosting.artifact_bytes(site) == len(tar) == hosting.tar_bytes([0, 0, 0, 0, 0, 28_000, 28_000, 28_000])


def test_bulk_files_leave_the_site_and_every_file_is_in_the_release(night):
    site, assets = night
    dados = site / "dados"
    sums = dict(reversed(line.split("  ", 1)) for line in (dados / "SHA256SUMS").read_text().splitlines())
    off = {p for p in sums if not (dados / p).exists()}
    # the bulk files are off the site, and only they
    assert {"bilhetes.csv", "portal.sqlite", "infracoes.json"} <= off
    assert all((dados / p).stat().st_size <= THRESHOLD for p in sums if p not in off)
    # every download is an asset of the release, whole: its own SHA256SUMS passes there
    check = subprocess.run(["sha256sum", "--strict", "-c", "SHA256SUMS"], cwd=assets, capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr
    listed = {line.split("  ", 1)[1] for line in (assets / "SHA256SUMS").read_text().splitlines()}
    assert {p for p in sums if p != "datapackage.json"} <= listed and "datapackage.json" in listed
    for path in off:  # the site's SHA256SUMS states the asset's own hash
        assert sums[path] == _sha256(assets / path)
    assert all(a.stat().st_size < hosting.ASSET_LIMIT for a in assets.iterdir())


def test_the_site_names_each_bulk_file_at_its_durable_address(night):
    site, assets = night
    dados = site / "dados"
    descriptor = json.loads((dados / "datapackage.json").read_text(encoding="utf-8"))
    version = descriptor["x-versao"]
    base = f"{RELEASES}/download/{version}/"
    paths = {r["name"]: r["path"] for r in descriptor["resources"]}
    assert paths["bilhetes"] == base + "bilhetes.csv" and paths["linhas"] == "linhas.csv"
    # the release's own descriptor is the package: every path beside it
    packaged = json.loads((assets / "datapackage.json").read_text(encoding="utf-8"))
    assert all("/" not in r["path"] for r in packaged["resources"]) and packaged["x-versao"] == version
    # /dados/ and the table's page link the release's file; the catalogues give its address
    html = (dados / "index.html").read_text(encoding="utf-8")
    assert f'href="{base}portal.sqlite"' in html and 'href="/portal/dados/linhas.csv"' in html
    table = (dados / "bilhetes" / "index.html").read_text(encoding="utf-8")
    assert f'href="{base}bilhetes.csv"' in table
    text = page_text(dados / "bilhetes" / "index.html")  # each snippet reads the file where it is
    assert f'pd.read_parquet("{SITE}/dados/bilhetes.parquet")' in text and f'"{base}bilhetes.csv",' in text
    pod = json.loads((site / "data.json").read_text(encoding="utf-8"))
    urls = {d["downloadURL"] for ds in pod["dataset"] for d in ds.get("distribution", [])}
    assert base + "bilhetes.csv" in urls and f"{SITE}/dados/linhas.csv" in urls
    dcat = (dados / "catalogo.jsonld").read_text(encoding="utf-8")
    assert f'"{base}portal.sqlite"' in dcat
    # and nothing the site links is missing from it
    assert broken_links(site, "/portal") == []


def test_every_citation_points_at_the_release_that_keeps_this_version(night):
    import pyarrow.parquet as pq

    site, _ = night
    dados = site / "dados"
    version = json.loads((dados / "datapackage.json").read_text(encoding="utf-8"))["x-versao"]
    address = f"<{RELEASES}/tag/{version}>"
    assert address in json.loads((dados / "datapackage.json").read_text(encoding="utf-8"))["x-citacao"]
    assert address in page_text(dados / "index.html")
    metadata = pq.read_schema(dados / "linhas.parquet").metadata
    assert address in json.loads(metadata[b"proveniencia"])["citacao"]
    record = json.loads(next((site / "linhas").glob("*/index.json")).read_text(encoding="utf-8"))
    assert address in record["proveniencia"]["citacao"]


def test_the_version_is_the_same_for_the_same_input_and_another_for_another(night, tmp_path, monkeypatch):
    site, _ = night
    monkeypatch.setattr(hosting, "ON_PAGES_MAX_BYTES", THRESHOLD)
    again, _ = _build(tmp_path, "outra-vez")
    first = json.loads((site / "dados" / "datapackage.json").read_text(encoding="utf-8"))["x-versao"]
    assert json.loads((again / "dados" / "datapackage.json").read_text(encoding="utf-8"))["x-versao"] == first
    later = tmp_path / "depois"
    build(Settings(data=(SAMPLE_DIR,), out=later, as_of=date(2026, 11, 30), site_url=SITE, versions_url=RELEASES,
                   release_folder=tmp_path / "depois-release", whoosh_dir=tmp_path / "busca-depois"))
    name = json.loads((later / "dados" / "datapackage.json").read_text(encoding="utf-8"))["x-versao"]
    assert name.startswith("2026-11-30-") and name[11:] != first[11:]


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def test_versions_are_listed_from_the_previous_site_over_http_and_its_bulk_tables_read_from_its_release(
        night, tmp_path, monkeypatch):
    """The nightly job's case: a fresh runner, the live site's /dados/ as --anterior. Its versoes.json brings
    the kept versions, and the tables it serves only from its release are read there for the changes."""
    site, assets = night
    monkeypatch.setattr(hosting, "ON_PAGES_MAX_BYTES", THRESHOLD)
    version = json.loads((site / "dados" / "datapackage.json").read_text(encoding="utf-8"))["x-versao"]
    served = tmp_path / "servido"
    shutil.copytree(site, served / "portal")
    shutil.copytree(assets, served / "releases" / "download" / version)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(served)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    root = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        # the previous site names its bulk files under the releases' address the build is given
        text = (served / "portal" / "dados" / "datapackage.json").read_text(encoding="utf-8")
        (served / "portal" / "dados" / "datapackage.json").write_text(text.replace(RELEASES, root + "/releases"),
                                                                      encoding="utf-8")
        out = tmp_path / "segunda"
        build(Settings(data=(SAMPLE_DIR,), out=out, as_of=date(2026, 11, 30), site_url=SITE,
                       versions_url=root + "/releases", release_folder=tmp_path / "segunda-release",
                       previous=f"{root}/portal/dados/", whoosh_dir=tmp_path / "busca-segunda"))
    finally:
        server.shutdown()
    dados = out / "dados"
    listed = [e["versao"] for e in json.loads((dados / "versoes.json").read_text(encoding="utf-8"))["versoes"]]
    now = json.loads((dados / "datapackage.json").read_text(encoding="utf-8"))["x-versao"]
    assert listed == [now, version]
    html = (dados / "index.html").read_text(encoding="utf-8")
    assert f'href="{root}/releases/tag/{version}"' in html and f'href="{root}/releases/tag/{now}"' in html
    changes = json.loads((dados / "mudancas.json").read_text(encoding="utf-8"))
    assert changes["versao_anterior"] == version and changes["versao_atual"] == now
    tickets = next(t for t in changes["tabelas"] if t["tabela"] == "bilhetes")
    assert tickets["incluidos"] == tickets["removidos"] == 0  # read from the previous release, row for row
    # the DCAT series lists both versions at their releases
    assert f'"{root}/releases/tag/{version}#versao"' in (dados / "catalogo.jsonld").read_text(encoding="utf-8")


def test_a_site_over_pages_limit_is_not_published(tmp_path, monkeypatch):
    monkeypatch.setattr(hosting, "PAGES_LIMIT", 1_000_000)
    out = tmp_path / "site"
    out.mkdir()
    (out / "index.html").write_text("o site anterior", encoding="utf-8")
    (out / ".gerado-pelo-portal").write_text("", encoding="utf-8")
    with pytest.raises(BuildError) as caught:
        _build(tmp_path, "site")
    message = str(caught.value)
    assert "MB no artefato do GitHub Pages, acima do limite de 1 MB" in message
    assert "maiores arquivos: " in message and "não foi publicado" in message
    assert (out / "index.html").read_text(encoding="utf-8") == "o site anterior"  # the last good site stays


def test_over_the_budget_the_build_warns(tmp_path, monkeypatch):
    monkeypatch.setattr(hosting, "PAGES_BUDGET", 1_000_000)
    out = tmp_path / "site"
    result = build(Settings(data=(SAMPLE_DIR,), out=out, as_of=AS_OF, site_url=SITE, versions_url=RELEASES,
                            release_folder=tmp_path / "rel", whoosh_dir=tmp_path / "busca", search_index=False))
    assert len(result.warnings) == 1 and "acima do orçamento de 1 MB" in result.warnings[0]


def test_the_sample_release_fits_github_pages_limits(night):
    """The rule the nightly job relies on, on a build of the sample: the artifact under the budget, and no
    asset of the release at GitHub's limit (bench/night.py measures a national night against the same)."""
    site, assets = night
    total, warnings = hosting.check(site, assets)
    assert total < hosting.PAGES_BUDGET and warnings == []


def test_a_release_folder_needs_the_releases_address(tmp_path):
    with pytest.raises(SettingsError, match="--pasta-release pede --versoes-url"):
        Settings(data=(SAMPLE_DIR,), out=tmp_path / "s", release_folder=tmp_path / "r")


def test_a_table_too_long_for_a_json_array_has_none_and_its_page_says_why(night):
    site, assets = night
    # the tickets, read in batches, found longer than the limit: their JSON is not written (nor listed)
    assert not (assets / "bilhetes.json").exists() and not (site / "dados" / "bilhetes.json").exists()
    assert "bilhetes.json" not in (site / "dados" / "SHA256SUMS").read_text()
    assert (assets / "linhas.json").is_file()
    page = (site / "dados" / "bilhetes" / "index.html").read_text(encoding="utf-8")
    text = page_text(site / "dados" / "bilhetes" / "index.html")
    assert "Sem JSON para esta tabela, de 1.824 registros" in text and "Use o Parquet" in text
    assert "do JSON" not in text and "bilhetes.json" not in page
    first = text.index("Python (pandas), do Parquet: o mais rápido para esta tabela")
    assert first < text.index("Python (pandas), do CSV")
