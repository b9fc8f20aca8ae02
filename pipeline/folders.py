"""Folders the tools write whole (the site, the Whoosh index, an ingested package, a generated sample).

Each is written into a staging folder beside its target and put in place only when complete; the
exchange is atomic (``renameat2`` with ``RENAME_EXCHANGE`` on Linux), so there is never a moment without
a complete folder, and a failure leaves the previous one as it was. A tool refuses to replace a folder
that exists, is not empty and was not made by the portal (the marker file): ``--out ~`` or ``--out /``
never swaps a user's folder away.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

# Written into every folder the tools replace as a whole.
OWNED_MARKER = ".gerado-pelo-portal"


def replaceable(folder: Path) -> bool:
    """Whether a tool may replace ``folder``: absent, empty, or made by the portal (the marker, or from
    builds before it: a site with ``dados/datapackage.json``, a Whoosh index)."""
    folder = Path(folder)
    if not folder.exists():
        return True
    if not folder.is_dir() or folder.is_symlink():
        return False
    return (
        not any(folder.iterdir())
        or (folder / OWNED_MARKER).is_file()
        or ((folder / "index.html").is_file() and (folder / "dados" / "datapackage.json").is_file())
        or any(folder.glob("_MAIN_*.toc"))
    )


def refusal(what: str, folder: Path) -> str | None:
    """The pt-BR reason a tool may not write ``folder`` (``what`` names the option), or None."""
    folder = Path(folder)
    resolved = folder.resolve()
    if resolved == Path(resolved.anchor) or resolved == Path.home():
        return f"a pasta {what} {folder} é a raiz ou a pasta pessoal: escolha uma pasta nova ou vazia"
    if not replaceable(folder):
        return (f"a pasta {what} {folder} já existe e não foi gerada pelo portal; seria substituída inteira: "
                "escolha uma pasta nova ou vazia")
    return None


_libc = None


def _exchange(a: Path, b: Path) -> bool:
    """Atomically exchange two paths (Linux ``renameat2(RENAME_EXCHANGE)``); False where unsupported."""
    global _libc
    if _libc is None:
        name = ctypes.util.find_library("c")
        _libc = ctypes.CDLL(name, use_errno=True) if name else False
    fn = getattr(_libc, "renameat2", None) if _libc else None
    if fn is None:
        return False
    at_fdcwd, rename_exchange = -100, 2
    if fn(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0:
        return True
    err = ctypes.get_errno()
    if err in (22, 38, 95):  # EINVAL, ENOSYS, EOPNOTSUPP: the file system cannot; fall back
        return False
    raise OSError(err, os.strerror(err), str(b))


def swap_into_place(staging: Path, out: Path) -> None:
    """Put the complete ``staging`` folder at ``out``; the previous ``out`` is removed afterwards."""
    staging, out = Path(staging), Path(out)
    if out.exists() and _exchange(staging, out):
        shutil.rmtree(staging, ignore_errors=True)  # staging now holds the previous folder
        return
    old = out.with_name(f".{out.name}.old")
    shutil.rmtree(old, ignore_errors=True)
    if out.exists():
        out.rename(old)
    staging.rename(out)
    shutil.rmtree(old, ignore_errors=True)


@contextmanager
def staged(out: Path, note: str) -> Iterator[Path]:
    """A fresh staging folder beside ``out`` (with the marker); swapped into place when the block ends
    without error, removed when it raises."""
    out = Path(out).resolve()
    staging = out.with_name(f".{out.name}.staging")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    try:
        (staging / OWNED_MARKER).write_text(note + "\n", encoding="utf-8")
        yield staging
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    swap_into_place(staging, out)
