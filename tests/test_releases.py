"""Releases kept under ``/dados/versoes/`` and the change log between two builds (issue 26): a version's name is
never another release's, a kept file is never written or re-dated, each version's ``SHA256SUMS`` passes
``sha256sum -c`` in its own folder, and ``mudancas.json`` keeps what the sources changed apart from what the
portal recomputed, with removed rows whole."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import subprocess
from datetime import date
from pathlib import Path

import pytest
from conftest import AS_OF, page_text

from pipeline.build import build
from pipeline.contract.settings import Settings

MOMENT = 978_307_200  # 2001-01-01: a date no build gives, to see whether a kept file is re-dated


def make(data: Path, out: Path, as_of: date = AS_OF, previous: Path | None = None) -> Path:
    build(Settings(data=(data,), out=out, as_of=as_of, previous=str(previous) if previous else None,
                   search_index=False))
    return out


def versions(site: Path) -> list[str]:
    return sorted(p.name for p in (site / "dados" / "versoes").iterdir())


def kept_files(site: Path) -> dict[str, tuple[bytes, int, int]]:
    """Every file kept under the site's ``dados/versoes/``: its bytes, modification time and mode."""
    root = site / "dados" / "versoes"
    return {p.relative_to(root).as_posix(): (p.read_bytes(), p.stat().st_mtime_ns, p.stat().st_mode)
            for p in sorted(root.rglob("*")) if p.is_file()}


def assert_checksums_pass(version: Path) -> None:
    """``cd <version> && sha256sum -c SHA256SUMS``, and the file lists exactly the version's other files."""
    run = subprocess.run(["sha256sum", "--strict", "-c", "SHA256SUMS"], cwd=version, capture_output=True, text=True)
    assert run.returncode == 0, (version.name, run.stdout[-2000:], run.stderr[-2000:])
    listed = {line.split("  ", 1)[1] for line in (version / "SHA256SUMS").read_text(encoding="utf-8").splitlines()}
    assert listed == {p.name for p in version.iterdir()} - {"SHA256SUMS"}
    assert {"datapackage.json", "pacote-completo.zip", "tarifas.csv"} <= listed


def changes_of(site: Path) -> dict:
    return json.loads((site / "dados" / "mudancas.json").read_text(encoding="utf-8"))


def test_two_builds_of_one_date_keep_both_versions_unchanged_under_their_own_names(package, tmp_path):
    """A second build with the same --as-of and other data (a carrier renamed, an infraction removed), given the
    first: both releases are kept, under different names; the first one's files are not written or re-dated
    (through the hard links that keep them, in the first site too); ``sha256sum -c`` passes in each version; the
    rename is one change of the sources, its copies in other tables recomputed; the removed row is whole."""
    first = make(package.path, tmp_path / "primeira")
    (name,) = versions(first)
    assert re.fullmatch(r"2026-06-30-[0-9a-f]{12}", name)
    assert name == json.loads((first / "dados" / "datapackage.json").read_text(encoding="utf-8"))["x-versao"]
    for path in (first / "dados" / "versoes" / name).iterdir():
        os.utime(path, (MOMENT, MOMENT))  # as a server would keep them: any date but the build's own
    published = kept_files(first)

    package.edit("transportadoras.csv", "VIACAO CERRADO LTDA", "VIACAO CERRADO S.A.")
    text = (package.path / "infracoes.csv").read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    removed = next(csv.DictReader(io.StringIO(lines[0] + lines[-1])))["numero_auto"]
    (package.path / "infracoes.csv").write_text("".join(lines[:-1]), encoding="utf-8")
    second = make(package.path, tmp_path / "segunda", previous=first)

    assert kept_files(first) == published  # the first site's kept files: neither written nor re-dated
    both = versions(second)
    assert len(both) == 2 and name in both and all(v.startswith("2026-06-30-") for v in both)
    assert {k: v for k, v in kept_files(second).items() if k.startswith(name + "/")} == published
    (other,) = set(both) - {name}
    assert (second / "dados" / "versoes" / other / "infracoes.csv").read_bytes() == \
        (second / "dados" / "infracoes.csv").read_bytes()
    for version in both:
        assert_checksums_pass(second / "dados" / "versoes" / version)
    assert (second / "dados" / "versoes" / other / "mudancas.json").read_bytes() == \
        (second / "dados" / "mudancas.json").read_bytes()

    log = changes_of(second)
    assert (log["versao_anterior"], log["versao_atual"]) == (name, other)
    assert log["resumo"]["fontes"] == {"incluidos": 0, "removidos": 1, "alterados": 1}
    tables = {t["tabela"]: t for t in log["tabelas"]}
    assert [(t, e["alterados"]) for t, e in tables.items() if e["alterados"]] == [("transportadoras", 1)]
    assert tables["transportadoras"]["linhas"]["alterados"][0]["campos"] == {
        "razao_social": {"antes": "VIACAO CERRADO LTDA", "depois": "VIACAO CERRADO S.A."}}
    copies = [t for t, e in tables.items() if any("transportadora_nome" in r["campos"] for r in e["linhas"]["recalculados"])]
    assert {"horarios", "outorgas", "infracoes"} <= set(copies)
    assert (tables["horarios"]["incluidos"], tables["horarios"]["removidos"]) == (0, 0)  # no key: not remove + add
    assert log["resumo"]["recalculados"] >= 3
    row = tables["infracoes"]["linhas"]["removidos"]
    first_rows = list(csv.DictReader(io.StringIO((first / "dados" / "infracoes.csv").read_text(encoding="utf-8"))))
    assert row == [{"chave": {"numero_auto": removed}, "registro": next(r for r in first_rows if r["numero_auto"] == removed)}]

    page = page_text(second / "dados" / "mudancas" / "index.html")
    assert "Pelas fontes: 0 incluído(s), 1 removido(s), 1 alterado(s)." in page
    assert f"Removidos de infracoes {removed} :" in page
    listing = page_text(second / "dados" / "index.html")
    assert f"{other[11:]} (esta versão)" in listing and name[11:] in listing and "não foi guardada" not in listing
    feed = (second / "feeds" / "mudancas.atom.xml").read_text(encoding="utf-8")
    assert f"/dados/versoes/{other}/mudancas.json" in feed


def test_one_fare_edited_is_one_change_of_the_sources_and_the_flags_it_moves_are_recomputed(package, tmp_path):
    """A fare edited, and the next release a date later, when another fare of the same key comes in force: the
    change log says 1 changed by the sources and, apart, the rows whose derived fields alone were recomputed
    (``vigente`` of the fare now in force, situations, the findings)."""
    first = make(package.path, tmp_path / "primeira")
    package.edit("tarifas.csv", ",88.50,", ",89.00,")
    later = date(2027, 1, 15)
    second = make(package.path, tmp_path / "segunda", later, previous=first)

    log = changes_of(second)
    assert log["resumo"]["fontes"] == {"incluidos": 0, "removidos": 0, "alterados": 1}
    recomputed = log["resumo"]["recalculados"]
    assert recomputed >= 2
    fares = next(t for t in log["tabelas"] if t["tabela"] == "tarifas")
    assert (fares["situacao"], fares["alterados"], fares["recalculados"]) == ("alterada", 1, 1)
    (edited,) = fares["linhas"]["alterados"]
    assert edited["campos"] == {"valor": {"antes": "88.50", "depois": "89.00"}}
    assert edited["recalculados"] == {"vigente": {"antes": "true", "depois": "false"}}
    (moved,) = fares["linhas"]["recalculados"]
    assert moved["chave"]["vigencia_inicio"] == "2027-01-01"
    assert moved["campos"] == {"vigente": {"antes": "false", "depois": "true"}}
    assert all(t["alterados"] == 0 for t in log["tabelas"] if t["tabela"] != "tarifas")

    page = page_text(second / "dados" / "mudancas" / "index.html")
    assert "Pelas fontes: 0 incluído(s), 0 removido(s), 1 alterado(s)." in page
    assert f"Recalculados pelo portal: {recomputed} registro(s)" in page
    assert "tarifas alterada pelas fontes 0 0 1 1" in page
    assert "vigencia_inicio" not in page.split("Alterados pelas fontes em tarifas", 1)[1].split("Recalculados", 1)[0]
    for version in versions(second):
        assert_checksums_pass(second / "dados" / "versoes" / version)


@pytest.mark.slow
def test_the_same_data_built_again_is_the_same_version_kept_as_it_was_published(package, tmp_path):
    """The same input and --as-of give the same version, byte for byte (its name from its content); built again
    with the first as --anterior, the release is the one kept: its folder stays as published (the same files,
    dates and inodes), none is added, and the page says nothing of a release not kept."""
    first = make(package.path, tmp_path / "primeira")
    twin = make(package.path, tmp_path / "gemea")
    assert kept_files(first) == kept_files(twin)
    (name,) = versions(first)
    for path in (first / "dados" / "versoes" / name).iterdir():
        os.utime(path, (MOMENT, MOMENT))
    published = kept_files(first)
    inodes = {p.name: p.stat().st_ino for p in (first / "dados" / "versoes" / name).iterdir()}

    again = make(package.path, tmp_path / "de-novo", previous=first)
    assert versions(again) == [name] and kept_files(again) == published == kept_files(first)
    assert {p.name: p.stat().st_ino for p in (again / "dados" / "versoes" / name).iterdir()} == inodes
    assert (again / "dados" / "datapackage.json").read_bytes() == (first / "dados" / "datapackage.json").read_bytes()
    assert "não foi guardada" not in page_text(again / "dados" / "index.html")
    assert_checksums_pass(again / "dados" / "versoes" / name)
    assert changes_of(again)["resumo"]["fontes"] == {"incluidos": 0, "removidos": 0, "alterados": 0}


def test_the_feed_of_changes_says_the_sources_changes_first_and_links_each_changed_record(package, tmp_path):
    """A subscriber reads what the sources changed before what the portal recomputed, the total first, and
    follows a link to each record the sources changed (issue 35)."""
    import html as htmllib
    import xml.etree.ElementTree as ET

    first = make(package.path, tmp_path / "primeira")
    package.edit("transportadoras.csv", "VIACAO CERRADO LTDA", "VIACAO CERRADO S.A.")
    second = make(package.path, tmp_path / "segunda", date(2026, 7, 31), previous=first)
    atom = "{http://www.w3.org/2005/Atom}"
    (entry,) = ET.parse(second / "feeds" / "mudancas.atom.xml").getroot().findall(f"{atom}entry")
    summary = entry.findtext(f"{atom}summary")
    assert summary.startswith("Pelas fontes: 0 incluído(s), 0 removido(s), 1 alterado(s) "
                              "(transportadoras: 0 incluído(s), 0 removido(s), 1 alterado(s)")
    said = htmllib.unescape(re.sub(r"<[^>]+>", " ", summary))
    portal = said.find("Recalculadas pelo portal:")
    assert portal > said.find("transportadoras:") and "achados:" in said[portal:]  # the portal's tables after
    links = re.findall(r'<a href="([^"]+)">([^<]+)</a> \(transportadoras, alterado\)', summary)
    assert links == [("/transportadoras/11222333000181/", "11222333000181")]
    assert "VIACAO CERRADO S.A." in page_text(second / "transportadoras" / "11222333000181" / "index.html")
