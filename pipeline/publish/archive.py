"""Zip files with fixed timestamps and order, so that the same input gives the same bytes."""

from __future__ import annotations

import zipfile
from pathlib import Path

FIXED_TIME = (1980, 1, 1, 0, 0, 0)


def _info(name: str) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name, date_time=FIXED_TIME)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o644 << 16
    return info


def write_zip(path: Path, members: list[Path], root: Path) -> None:
    """``members`` stored under their path relative to ``root``, in the given order."""
    with zipfile.ZipFile(path, "w") as zf:
        for member in members:
            zf.writestr(_info(member.relative_to(root).as_posix()), member.read_bytes())


def normalise_zip(path: Path, rewrite=None) -> None:
    """Rewrite a zip (e.g. an XLSX written by openpyxl) with fixed timestamps; ``rewrite`` maps a
    member's name to a function of its bytes (to drop a clock reading inside)."""
    rewrite = rewrite or {}
    with zipfile.ZipFile(path) as zf:
        entries = [(i.filename, zf.read(i)) for i in zf.infolist()]
    entries = [(name, rewrite[name](data) if name in rewrite else data) for name, data in entries]
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in entries:
            zf.writestr(_info(name), data)
