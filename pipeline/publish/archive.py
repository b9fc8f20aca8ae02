"""Zip files with fixed timestamps and order, so that the same input gives the same bytes.

The members are deflated by zlib-ng (:func:`member`), at the level zlib's default names (6): the same
format and nearly zlib's sizes in markedly less time, which matters for the largest files deflated (the
package's zip and the national infractions' workbook). zlib-ng is pinned, so the same input still gives
the same bytes.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

from zlib_ng import zlib_ng

FIXED_TIME = (1980, 1, 1, 0, 0, 0)
LEVEL = 6


def member(zf: zipfile.ZipFile, info: zipfile.ZipInfo, force_zip64: bool = False) -> _Blocks:
    """``zf.open(info, "w")`` for a deflated member, its data deflated by zlib-ng rather than zlib: the
    handle's compressor is swapped before anything is written (``zipfile`` has no setting for it;
    the CRC, sizes and headers stay ``zipfile``'s). zlib-ng's output depends on how its input is cut,
    so the data reaches it in blocks of :data:`BLOCK` bytes, whatever the writes: the bytes depend on the
    data only (tests/test_open_data.py writes the tables in chunks of 7 rows and compares)."""
    handle = zf.open(info, "w", force_zip64=force_zip64)
    if info.compress_type == zipfile.ZIP_DEFLATED:
        handle._compressor = zlib_ng.compressobj(LEVEL, zlib_ng.DEFLATED, -15)
    return _Blocks(handle)


BLOCK = 1 << 20


class _Blocks:
    """A member's handle that passes its data on in blocks of :data:`BLOCK` bytes."""

    def __init__(self, handle):
        self.handle, self.pending = handle, bytearray()

    def write(self, data: bytes) -> None:
        self.pending += data
        if len(self.pending) >= BLOCK:
            whole = len(self.pending) - len(self.pending) % BLOCK
            view = memoryview(self.pending)
            for start in range(0, whole, BLOCK):
                self.handle.write(view[start:start + BLOCK])
            view.release()
            del self.pending[:whole]

    def close(self) -> None:
        if self.pending:
            self.handle.write(bytes(self.pending))
            self.pending = bytearray()
        self.handle.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def write_member(zf: zipfile.ZipFile, info: zipfile.ZipInfo, data: bytes | str) -> None:
    """``zf.writestr(info, data)`` through :func:`member`."""
    data = data.encode("utf-8") if isinstance(data, str) else data
    info.file_size = len(data)  # as writestr does: the header's sizes (zip64 or not) follow from it
    with member(zf, info) as handle:
        handle.write(data)


def _info(name: str) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name, date_time=FIXED_TIME)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o644 << 16
    return info


def write_zip(path: Path, members: list[Path], root: Path) -> None:
    """``members`` stored under their path relative to ``root``, in the given order."""
    with zipfile.ZipFile(path, "w") as zf:
        for file in members:  # read a block at a time: a table read in batches makes a very large CSV
            info = _info(file.relative_to(root).as_posix())
            info.file_size = file.stat().st_size  # as write_member sets it: zip64 or not follows from it
            with open(file, "rb") as fh, member(zf, info) as handle:
                for block in iter(lambda: fh.read(BLOCK), b""):
                    handle.write(block)


def normalise_zip(path: Path, rewrite=None) -> None:
    """Rewrite a zip (e.g. an XLSX written by openpyxl) with fixed timestamps; ``rewrite`` maps a
    member's name to a function of its bytes (to drop a clock reading inside)."""
    rewrite = rewrite or {}
    with zipfile.ZipFile(path) as zf:
        entries = [(i.filename, zf.read(i)) for i in zf.infolist()]
    entries = [(name, rewrite[name](data) if name in rewrite else data) for name, data in entries]
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in entries:
            write_member(zf, _info(name), data)
