"""The release, once every download is written: each file's size and SHA-256 (``SHA256SUMS``, the
catalogues and ``/dados/``), the release kept under ``/dados/versoes/<data>-<código>/`` beside the earlier
ones (:func:`keep_version`: a name no other release shares, a ``SHA256SUMS`` of its own, files never
written or re-dated once kept), and the files dated by the data's reference date rather than the build's
clock (a web server's ``Last-Modified`` is then the release's date, the same in every rebuild).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time
from pathlib import Path

import pandas as pd

from ..contract.settings import release_assets
from ..publish import DATABASE, DATASETTE_METADATA, FORMATS, PACKAGE_ZIP
from ..publish.datapackage import sha256

CHECKSUMS = "SHA256SUMS"
VERSIONS = "versoes"
_PACKAGE_FILES = [  # (file, format, media type) of the package as a whole
    ("datapackage.json", "JSON (Frictionless Data Package)", "application/json"),
    (PACKAGE_ZIP, "ZIP", "application/zip"),
    (DATABASE, "SQLite", "application/vnd.sqlite3"),
    (DATASETTE_METADATA, "JSON (metadados do Datasette)", "application/json"),
    ("validacao.json", "JSON", "application/json"),
]


def files(out: Path, descriptor: dict) -> list[dict]:
    """Every download of the release, with its table (None for the package's own files), format, media
    type, size and SHA-256, in the order ``/dados/`` lists them."""
    listed = []
    for r in descriptor["resources"]:
        for suffix, name, mediatype in FORMATS:
            listed.append((r["name"], f"{r['name']}.{suffix}", name, mediatype))
    listed += [(None, path, name, mediatype) for path, name, mediatype in _PACKAGE_FILES]
    # each CSV's size and hash were stated in the descriptor when it was written: not read again here
    known = {r["path"]: (r["bytes"], r["hash"].removeprefix("sha256:")) for r in descriptor["resources"] if "hash" in r}
    out_files = []
    for table, path, name, mediatype in listed:
        target = out / path
        if target.is_file():
            size, digest = known.get(path) or (target.stat().st_size, sha256(target))
            out_files.append({"tabela": table, "path": path, "formato": name, "mediatype": mediatype,
                              "bytes": size, "sha256": digest})
    return out_files


def write_checksums(out: Path, listed: list[dict]) -> None:
    """``SHA256SUMS`` as ``sha256sum -c`` reads it (run in ``/dados/``)."""
    lines = "".join(f"{f['sha256']}  {f['path']}\n" for f in sorted(listed, key=lambda f: f["path"]))
    (out / CHECKSUMS).write_text(lines, encoding="utf-8")


def temporal(tables: dict[str, pd.DataFrame], descriptor: dict,
             stated: dict[str, list[str]] | None = None) -> dict[str, tuple[date | None, date | None]]:
    """Each table's first and last date over its date and date-time columns (the data's own dates, not
    the build's): the temporal coverage the catalogues state. A table with rows but no date of its own
    (the carriers and lines of an export) covers the period its sources state for their data (``stated``:
    per table, each source's ``data``, AAAA, AAAA-MM or AAAA-MM-DD: :func:`period`); a table with no row, or
    whose sources state no date, covers no period."""
    out = {}
    for r in descriptor["resources"]:
        df = tables.get(r["name"])
        days = []
        if df is not None and len(df):
            for f in r["schema"]["fields"]:
                if f.get("type") in ("date", "datetime") and f["name"] in df.columns:
                    values = [v for v in df[f["name"]].tolist() if isinstance(v, date)]
                    days += [min(values), max(values)] if values else []
            if not days:
                days = [d for text in (stated or {}).get(r["name"], []) for d in period(text) if d is not None]
        days = [d.date() if isinstance(d, datetime) else d for d in days]
        out[r["name"]] = (min(days), max(days)) if days else (None, None)
    return out


def period(text: str) -> tuple[date | None, date | None]:
    """The first and last day of a source's stated date: a year (``2021``), a month (``2026-09``) or a day;
    ``(None, None)`` for anything else."""
    from calendar import monthrange

    try:
        if re.fullmatch(r"[0-9]{4}", text):
            return date(int(text), 1, 1), date(int(text), 12, 31)
        if re.fullmatch(r"[0-9]{4}-[0-9]{2}", text):
            year, month = int(text[:4]), int(text[5:])
            return date(year, month, 1), date(year, month, monthrange(year, month)[1])
        day = date.fromisoformat(text) if re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", text) else None
        return day, day
    except ValueError:
        return None, None


# a release is kept as AAAA-MM-DD-<the first 12 hex digits of its datapackage.json's SHA-256>; releases kept
# before versions had that code are named by their date alone, and are brought over as they are
VERSION_NAME = re.compile(r"([0-9]{4}-[0-9]{2}-[0-9]{2})(-[0-9a-f]{12})?\Z")
CODE_DIGITS = 12
_MEMBER_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,120}\Z")


def version_name(name: str) -> bool:
    """Whether ``name`` names a kept release: a real date, AAAA-MM-DD, and its code (or none, for a release
    kept before versions had one)."""
    return version_date(name) is not None


def version_date(name: str) -> date | None:
    """The reference date of the kept release ``name`` (None when it names none)."""
    match = VERSION_NAME.match(name)
    if not match:
        return None
    try:
        return date.fromisoformat(match[1])
    except ValueError:
        return None


# what the portal's code is: every file whose change can change a byte of what it publishes
_CODE = ("pipeline", "theme", "content", "datasets/datapackage.json", "pelican.conf.py", "requirements.lock")


def input_version(as_of: date, folders, settings: dict) -> str:
    """A release's version name, known before anything is written, so that every file can cite the address
    where this release is kept (``<versoes-url>/tag/<versão>``): the reference date and the first 12 hex
    digits of the SHA-256 of what the build is made of: each source folder's files (names and bytes), the
    settings that reach the output (``settings``) and the portal's own code (pipeline/, theme/, content/, the schemas, the pinned
    dependencies). The build is reproducible, so one name is one package: the same input and ``--as-of``
    give the same name and the same tables, and any other input another name. The change log against the
    previous release is not part of it: a release built again keeps the name, and the copy kept first."""
    from .. import PROJECT_ROOT

    digest = hashlib.sha256()

    def feed(label: str, path: Path) -> None:
        digest.update(f"{label}\0{path.stat().st_size}\0".encode())
        with open(path, "rb") as fh:
            while chunk := fh.read(1 << 20):
                digest.update(chunk)

    digest.update(json.dumps({"as_of": as_of.isoformat(), **settings}, sort_keys=True, default=str).encode())
    for n, folder in enumerate(folders):
        folder = Path(folder)
        for path in sorted(p for p in folder.rglob("*") if p.is_file() and not p.is_symlink()):
            feed(f"fonte{n}/{path.relative_to(folder).as_posix()}", path)
    for part in _CODE:
        root = PROJECT_ROOT / part
        paths = [root] if root.is_file() else sorted(
            p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc")
        for path in paths:
            feed(path.relative_to(PROJECT_ROOT).as_posix(), path)
    return f"{as_of.isoformat()}-{digest.hexdigest()[:CODE_DIGITS]}"


def name_of(descriptor_bytes: bytes, as_of: date) -> str:
    """The version name of the release whose ``datapackage.json`` is ``descriptor_bytes``: the one it states
    (``x-versao``, :func:`input_version`), or for a release published before descriptors stated it, the
    name :func:`version_of` gives."""
    try:
        stated = json.loads(descriptor_bytes.decode("utf-8")).get("x-versao")
    except (ValueError, UnicodeDecodeError, AttributeError, RecursionError):
        stated = None
    if isinstance(stated, str) and version_name(stated):
        return stated
    return version_of(descriptor_bytes, as_of)


def version_of(descriptor_bytes: bytes, as_of: date) -> str:
    """A release's version name: its reference date and the first 12 hex digits of the SHA-256 of its
    ``datapackage.json`` (which states each CSV's size and SHA-256, so that the code changes whenever a
    table does): two releases of one date never share a name, and one release always has the same
    (``sha256sum datapackage.json`` gives it)."""
    return f"{as_of.isoformat()}-{hashlib.sha256(descriptor_bytes).hexdigest()[:CODE_DIGITS]}"


def newest_first(versions: Path) -> list[str]:
    """The names of the versions kept in ``versions``, newest first: by date and, among releases of one
    date, by the chain their ``mudancas.json`` state (a release compared with another of its date is the
    later one; ``versao_anterior``), then by name."""
    names = [p.name for p in versions.iterdir() if p.is_dir() and not p.is_symlink() and version_name(p.name)]
    days: dict = {}
    for name in names:
        days.setdefault(version_date(name), []).append(name)
    before: dict[str, str] = {}
    for group in days.values():
        if len(group) > 1:
            from .changes import read_kept

            for name in group:
                log = read_kept(versions / name / "mudancas.json") if (versions / name / "mudancas.json").is_file() else None
                earlier = log.get("versao_anterior") if log else None
                if isinstance(earlier, str) and earlier in group and earlier != name:
                    before[name] = earlier

    def depth(name: str) -> int:  # how many releases of its date precede it (a loop counts no further)
        seen = {name}
        while (name := before.get(name)) is not None and name not in seen:
            seen.add(name)
        return len(seen) - 1

    return sorted(names, key=lambda n: (version_date(n), depth(n), n), reverse=True)


def _kept_members(folder: Path) -> list[Path]:
    """The files of a previous kept release that are brought over: regular files (no link is followed
    or copied) with plain names, directly in the release's folder."""
    with os.scandir(folder) as entries:
        return sorted(Path(e.path) for e in entries
                      if e.is_file(follow_symlinks=False) and _MEMBER_NAME.match(e.name))


@dataclass
class Kept:
    """What :func:`keep_version` did: this release's version ``name``, every kept version's name (newest
    first), whether this release is kept under ``versoes/<name>/`` (``kept``) and whether this build made
    that folder (``made``: False when the previous site kept the same release already, which stays as it
    was published)."""
    name: str
    names: list[str] = field(default_factory=list)
    kept: bool = True
    made: bool = True

    @property
    def folder(self) -> str:
        return f"{VERSIONS}/{self.name}"


def keep_version(out: Path, as_of: date, previous: Path | None = None, listed: list[dict] | None = None) -> Kept:
    """Keep this release's package under ``versoes/<data>-<código>/`` (:func:`version_of`): its
    ``datapackage.json``, each table's CSV, the zip, ``mudancas.json`` when there is one, as hard links to
    the files of ``out`` (no second copy on disk), and a ``SHA256SUMS`` of its own listing exactly those
    files, relative to the version's folder (``cd versoes/<versão> && sha256sum -c SHA256SUMS``). The
    hashes are those of ``listed`` (:func:`files`) where it names the file.

    The earlier releases are brought from the previous site's ``dados/versoes/`` when ``previous`` is such
    a folder: only folders with a version's name (not links) and, in them, only regular files with plain
    names, as hard links (a copy, dates and all, where a link cannot be made). A kept file is never written
    again, nor re-dated (:func:`stamp` leaves them alone). When the previous site kept this very release
    (the same ``datapackage.json``: the same data, built again), that folder stays as it was published and
    none is made; a folder of this release's name with another descriptor (not made by the portal) stays
    too, and this release is then not kept (``Kept.kept`` False: the download page says so)."""
    versions = out / VERSIONS
    versions.mkdir(exist_ok=True)
    descriptor = (out / "datapackage.json").read_bytes()
    name = name_of(descriptor, as_of)
    earlier = previous / VERSIONS if previous is not None else None
    if earlier is not None and earlier.is_dir() and not earlier.is_symlink():
        with os.scandir(earlier) as entries:
            olds = sorted((e.name, Path(e.path)) for e in entries
                          if e.is_dir(follow_symlinks=False) and version_name(e.name))
        for old_name, old in olds:
            if not (versions / old_name).exists():
                (versions / old_name).mkdir()
                for member in _kept_members(old):
                    _link_or_copy(member, versions / old_name / member.name)
    here = versions / name
    if here.exists():  # brought from the previous site: it stays as it was published
        try:
            same = (here / "datapackage.json").read_bytes() == descriptor
        except OSError:
            same = False
        return Kept(name, newest_first(versions), same, False)
    here.mkdir()
    resources = json.loads(descriptor.decode("utf-8"))["resources"]
    members = ["datapackage.json", PACKAGE_ZIP, "mudancas.json"] + sorted(r["path"] for r in resources)
    digests = {f["path"]: f["sha256"] for f in listed or []}
    lines = []
    for member in members:
        if (out / member).is_file():
            _link_or_copy(out / member, here / member)
            lines.append(f"{digests.get(member) or sha256(out / member)}  {member}\n")
    (here / CHECKSUMS).write_text("".join(sorted(lines, key=lambda line: line.split("  ", 1)[1])), encoding="utf-8")
    return Kept(name, newest_first(versions))


def _link_or_copy(src, dst) -> None:
    try:
        os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst)


def stamp(folder: Path, as_of: date, made: Path | None = None) -> None:
    """Date every file this build wrote under ``folder`` at the reference date's midnight (UTC): every file
    outside ``versoes/``, and under it only the version folder ``made`` by this build. The versions
    brought from the previous site are hard links to its files: they keep their own dates (setting one
    would re-date the previous release's file too)."""
    moment = datetime.combine(as_of, time(), tzinfo=UTC).timestamp()
    versions = folder / VERSIONS
    for path in folder.rglob("*"):
        if path.is_relative_to(versions) and (made is None or not path.is_relative_to(made)):
            continue
        if path.is_file() and not path.is_symlink():
            os.utime(path, (moment, moment))


# --- the release kept as a GitHub Release (--pasta-release, --versoes-url: pipeline/publish/hosting.py) ---

INDEX = "versoes.json"  # beside /dados/: every release kept as a GitHub Release, newest first
_MAX_INDEX_BYTES = 8 * 2**20
_INDEX_ENTRIES = 5000


def reports(out: Path) -> list[dict]:
    """Each source's ingest report published under ``fontes/`` (pipeline/publish), as a file of the release."""
    found = []
    for path in sorted((out / "fontes").glob("*/*.json")) if (out / "fontes").is_dir() else []:
        if path.is_file() and not path.is_symlink():
            found.append({"tabela": None, "path": path.relative_to(out).as_posix(), "formato": "JSON",
                          "mediatype": "application/json", "bytes": path.stat().st_size, "sha256": sha256(path)})
    return found


def write_assets(out: Path, listed: list[dict], assets: Path, extra: tuple[str, ...] = ("mudancas.json",)) -> list[dict]:
    """Every file of ``listed`` (and ``extra``, when written) into ``assets`` under its asset name (flat:
    ``hosting.asset_name``), as hard links where the file system allows, and ``SHA256SUMS`` of them all
    (``sha256sum -c SHA256SUMS`` in a folder with the release's files downloaded). Returns the assets."""
    from ..publish.hosting import asset_name

    written = list(listed)
    for name in extra:
        if (out / name).is_file():
            written.append({"tabela": None, "path": name, "bytes": (out / name).stat().st_size,
                            "sha256": sha256(out / name)})
    for f in written:
        _link_or_copy(out / f["path"], assets / asset_name(f["path"]))
    write_checksums(assets, [{**f, "path": asset_name(f["path"])} for f in written])
    return written


def hosted(descriptor: dict, placement) -> dict:
    """The descriptor published on the site: each table whose CSV is served by the release only has the
    CSV's durable address there as its ``path`` (Data Package v2 allows a URL); the rest as written. An
    ingest report kept off the site is named by its address there already (pipeline/publish)."""
    import copy

    out = copy.deepcopy(descriptor)
    for r in out["resources"]:
        if r["path"] in placement.off_pages:
            r["path"] = placement.url(r["path"])
    return out


def index_entry(version: str, as_of: date, descriptor: dict, assets: list[dict]) -> dict:
    """This release in ``versoes.json``: what the catalogues state of a kept release (catalog.kept_versions),
    the files named as assets (their addresses are made from ``--versoes-url`` when read)."""
    from ..publish.hosting import asset_name

    named = {asset_name(f["path"]): f for f in assets}
    files = [{"nome": n, "bytes": named[n]["bytes"], "sha256": named[n]["sha256"]}
             for n in _ASSET_FILES if n in named]
    return {"versao": version, "data": as_of.isoformat(), "titulo": descriptor.get("title", ""),
            "ficticio": bool(descriptor.get("x-ficticio")), "licenses": descriptor.get("licenses", []),
            "sources": [{k: v for k, v in s.items() if k != "x-relatorio-de-ingestao"} for s in descriptor.get("sources", [])],
            "hashes": {r["name"]: r["hash"].removeprefix("sha256:") for r in descriptor["resources"] if "hash" in r},
            "arquivos": files}


# the files of a kept release the catalogues describe, with their format and media type (_PACKAGE_FILES)
_ASSET_FILES = {path: (name, mediatype) for path, name, mediatype in _PACKAGE_FILES
                if path in ("datapackage.json", PACKAGE_ZIP)}


def read_index(where: str) -> list[dict]:
    """The kept releases listed by the previous site's ``dados/versoes.json`` (``--anterior``, a folder or
    an http(s) URL); [] when it has none (a site published before releases were kept this way). The file
    comes from outside and is read with care: bounded, and an entry that is not of the shape
    :func:`index_entry` writes is left out; no address is taken from it (they are made again from
    ``--versoes-url``)."""
    loaded = read_carried(where, INDEX, _MAX_INDEX_BYTES)
    entries = loaded.get("versoes") if isinstance(loaded, dict) else None
    return [e for e in (entries or [])[:_INDEX_ENTRIES] if _entry_shape(e)]


def read_carried(where: str, name: str, limit: int):
    """The JSON file ``name`` beside the previous site's ``dados/`` (``--anterior``: a folder, the site's or
    its ``dados/``, or the http(s) URL of its ``dados/``), parsed; None when there is none or it cannot be
    read: no link followed, at most ``limit`` bytes, UTF-8 JSON (a text nested too deep is refused)."""
    if not where:
        return None
    from .changes import ChangesError, _fetch, _regular_file

    try:
        if where.startswith(("http://", "https://")):
            raw = _fetch(where.rstrip("/") + "/" + name, limit)
        else:
            folder = Path(where)
            folder = folder / "dados" if (folder / "dados").is_dir() else folder
            if not (folder / name).exists():
                return None
            raw = _regular_file(folder / name, limit)
        return json.loads(raw.decode("utf-8"))
    except (ChangesError, ValueError, UnicodeDecodeError, RecursionError):
        return None


def _entry_shape(e) -> bool:
    if not isinstance(e, dict) or not isinstance(e.get("versao"), str) or not version_name(e["versao"]):
        return False
    if e.get("data") != str(version_date(e["versao"])) or not isinstance(e.get("titulo"), str):
        return False
    files = e.get("arquivos")
    return isinstance(files, list) and all(
        isinstance(f, dict) and f.get("nome") in _ASSET_FILES and isinstance(f.get("bytes"), int) and f["bytes"] >= 0
        and isinstance(f.get("sha256"), str) and re.fullmatch(r"[0-9a-f]{64}", f["sha256"]) for f in files) \
        and isinstance(e.get("hashes", {}), dict) and isinstance(e.get("sources", []), list) \
        and isinstance(e.get("licenses", []), list)


def merged_index(earlier: list[dict], entry: dict) -> list[dict]:
    """The kept releases with this one, newest first (by date, then the later written first); a release
    of the same name is kept as it was first listed."""
    names = {e["versao"] for e in earlier}
    entries = ([entry] if entry["versao"] not in names else []) + earlier
    return sorted(entries, key=lambda e: e["data"], reverse=True)


def write_index(out: Path, entries: list[dict]) -> None:
    (out / INDEX).write_text(json.dumps({"versoes": entries}, ensure_ascii=False, separators=(",", ":")) + "\n",
                             encoding="utf-8")


def described(entry: dict, versions_url: str) -> dict:
    """A kept release of the index as the catalogues describe one (catalog.kept_versions's shape), its files
    at their addresses in the release ``<versoes-url>/download/<versão>/``."""
    base = release_assets(versions_url, entry["versao"])
    return {"versao": entry["versao"], "data": entry["data"], "titulo": entry["titulo"],
            "ficticio": bool(entry.get("ficticio")),
            "licenses": [x for x in entry.get("licenses", []) if isinstance(x, dict)],
            "sources": [x for x in entry.get("sources", []) if isinstance(x, dict)],
            "hashes": {k: v for k, v in entry.get("hashes", {}).items()
                       if isinstance(k, str) and isinstance(v, str) and re.fullmatch(r"[0-9a-f]{64}", v)},
            "arquivos": [{"tabela": None, "path": f"versoes/{entry['versao']}/{f['nome']}", "url": base + f["nome"],
                          "formato": _ASSET_FILES[f["nome"]][0], "mediatype": _ASSET_FILES[f["nome"]][1],
                          "bytes": f["bytes"], "sha256": f["sha256"]} for f in entry["arquivos"]]}
