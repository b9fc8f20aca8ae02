"""The release, once every download is written: each file's size and SHA-256 (``SHA256SUMS``, the
catalogues and ``/dados/``), the release kept under ``/dados/versoes/<data>/`` beside the earlier ones,
and the files dated by the data's reference date rather than the build's clock (a web server's
``Last-Modified`` is then the release's date, the same in every rebuild).
"""

from __future__ import annotations

import os
import re
import shutil
from datetime import UTC, date, datetime, time
from pathlib import Path

import pandas as pd

from . import DATABASE, DATASETTE_METADATA, FORMATS, PACKAGE_ZIP
from .datapackage import sha256

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


def temporal(tables: dict[str, pd.DataFrame], descriptor: dict) -> dict[str, tuple[date | None, date | None]]:
    """Each table's first and last date over its date and date-time columns (the data's own dates, not
    the build's): the temporal coverage the catalogues state."""
    out = {}
    for r in descriptor["resources"]:
        df = tables.get(r["name"])
        days = []
        if df is not None and len(df):
            for f in r["schema"]["fields"]:
                if f.get("type") in ("date", "datetime") and f["name"] in df.columns:
                    values = [v for v in df[f["name"]].tolist() if isinstance(v, date)]
                    days += [min(values), max(values)] if values else []
        days = [d.date() if isinstance(d, datetime) else d for d in days]
        out[r["name"]] = (min(days), max(days)) if days else (None, None)
    return out


VERSION_NAME = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}\Z")  # a release is named by its reference date
_MEMBER_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,120}\Z")


def version_name(name: str) -> bool:
    """Whether ``name`` names a kept release: a real date, AAAA-MM-DD."""
    if not VERSION_NAME.match(name):
        return False
    try:
        date.fromisoformat(name)
    except ValueError:
        return False
    return True


def _kept_members(folder: Path) -> list[Path]:
    """The files of a previous kept release that are brought over: regular files (no link is followed
    or copied) with plain names, directly in the release's folder."""
    with os.scandir(folder) as entries:
        return sorted(Path(e.path) for e in entries
                      if e.is_file(follow_symlinks=False) and _MEMBER_NAME.match(e.name))


def keep_version(out: Path, as_of: date, previous: Path | None = None) -> tuple[list[str], bool]:
    """Keep this release's package (``datapackage.json``, the CSVs, the zip, ``SHA256SUMS``) under
    ``versoes/<as_of>/`` as hard links (no second copy on disk), and bring the earlier releases from the
    previous site's ``dados/versoes/`` when ``previous`` is such a folder: only folders named by a date
    (not links) and, in them, only regular files with plain names. Returns every kept release's date,
    newest first, and whether this release was kept. A kept version is never replaced: when the previous
    site kept one of this date with other files (``SHA256SUMS`` differs), that one stays, this release is
    published in ``dados/`` but not kept, and the download page says so (a second build of one date)."""
    versions = out / VERSIONS
    versions.mkdir(exist_ok=True)
    kept = previous / VERSIONS if previous is not None else None
    if kept is not None and kept.is_dir() and not kept.is_symlink():
        with os.scandir(kept) as entries:
            olds = sorted((e.name, Path(e.path)) for e in entries
                          if e.is_dir(follow_symlinks=False) and version_name(e.name))
        for name, old in olds:
            if name == as_of.isoformat() and _same_release(old, out):
                continue  # the same files: kept again below, from this build's
            if not (versions / name).exists():
                (versions / name).mkdir()
                for member in _kept_members(old):
                    _link_or_copy(member, versions / name / member.name)
    here = versions / as_of.isoformat()
    listed = sorted((p.name for p in versions.iterdir() if p.is_dir() and version_name(p.name)), reverse=True)
    if here.exists():  # brought from the previous site, with other files: it stays as it was published
        return listed, False
    here.mkdir()
    members = ["datapackage.json", PACKAGE_ZIP, CHECKSUMS, "mudancas.json"] + sorted(p.name for p in out.glob("*.csv"))
    for name in members:
        if (out / name).is_file():
            _link_or_copy(out / name, here / name)
    return sorted((p.name for p in versions.iterdir() if p.is_dir() and version_name(p.name)), reverse=True), True


def _same_release(kept: Path, out: Path) -> bool:
    """A kept version holds the files of the release in ``out``: the same ``SHA256SUMS`` (a file of the
    version itself, so a version that lost its own is never taken for this one)."""
    try:
        return (kept / CHECKSUMS).read_bytes() == (out / CHECKSUMS).read_bytes()
    except OSError:
        return False


def _link_or_copy(src, dst) -> None:
    try:
        os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst)


def stamp(folder: Path, as_of: date) -> None:
    """Date every file under ``folder`` at the reference date's midnight (UTC), except the earlier kept
    releases under ``versoes/``: they are hard links to the previous site's files, which keep their own
    dates."""
    moment = datetime.combine(as_of, time(), tzinfo=UTC).timestamp()
    earlier = [p for p in (folder / VERSIONS).glob("*") if p.name != as_of.isoformat()]
    for path in folder.rglob("*"):
        if path.is_file() and not any(path.is_relative_to(e) for e in earlier):
            os.utime(path, (moment, moment))
