"""Folders the tools write whole (the site, the Whoosh index, an ingested package, a generated sample).

Each is written into a staging folder beside its target and put in place only when complete; the
exchange is atomic (``renameat2`` with ``RENAME_EXCHANGE`` on Linux), so there is never a moment without
a complete folder, and a failure leaves the previous one as it was. A tool refuses to replace a folder
that exists, is not empty and was not made by the portal (the marker file): ``--out ~`` or ``--out /``
never swaps a user's folder away.

Each of these folders is written by one run at a time: :func:`exclusive` holds a lock file beside it
(``.<name>.lock``, outside the folder that is swapped) for the whole write, and a second run stops at once
naming the first. Holding it, a run removes what an earlier, killed run left beside the folder (its staging
folder, the previous folder of an unfinished swap, the build's temporary search folders).

The folders one command names must also be apart (:func:`overlap`): one inside another would be written
over, or swapped away, by the other.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import fcntl
import glob
import os
import re
import shlex
import shutil
import stat
import sys
from collections.abc import Collection, Iterator, Sequence
from contextlib import ExitStack, contextmanager
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


def _of(text: str) -> str:
    """``de`` joined to what follows, as Portuguese writes it: "da pasta", "do pacote", "de --out"."""
    for article, joined in (("a ", "da "), ("o ", "do "), ("as ", "das "), ("os ", "dos ")):
        if text.startswith(article):
            return joined + text[len(article):]
    return "de " + text


def overlap(folders: Sequence[tuple[str, Path | str]], read_only: Collection[str] = ()) -> str | None:
    """The pt-BR reason the ``folders`` one command names (pairs of the option and its path) may not be used
    together: two of them are the same folder, or one is inside the other (compared once resolved, so
    ``S``, ``./S`` and a link to ``S`` are one folder); None when they are apart. Two folders that are only
    read (their options in ``read_only``) may overlap."""
    named = [(label, Path(path), Path(path).resolve()) for label, path in folders]
    for i, (a_label, a, a_real) in enumerate(named):
        for b_label, b, b_real in named[i + 1:]:
            if a_label in read_only and b_label in read_only:
                continue
            if a_real == b_real:
                relation = f"{a_label} {a} e {b_label} {b} são a mesma pasta"
            elif b_real in a_real.parents:
                relation = f"{a_label} {a} fica dentro {_of(f'{b_label} {b}')}"
            elif a_real in b_real.parents:
                relation = f"{b_label} {b} fica dentro {_of(f'{a_label} {a}')}"
            else:
                continue
            return (f"{relation}: o que se grava num apagaria ou misturaria o conteúdo do outro; "
                    "use caminhos separados, nenhum dentro do outro")
    return None


# --- one run at a time -------------------------------------------------------------------------------


class FolderBusy(RuntimeError):
    """Another run holds the folder's lock; the message (pt-BR) names it."""


_PRINTABLE = re.compile(r"[\x00-\x1f\x7f]")
# the temporary search folders of builds before they were named after their output folder
_LEGACY_SEARCH = re.compile(r"\.busca-[a-z0-9_]{8}")


def lock_path(folder: Path) -> Path:
    """The lock file of ``folder``: beside it, never inside (the folder itself is swapped)."""
    folder = Path(folder).resolve()
    return folder.with_name(f".{folder.name}.lock")


def _holder(fd: int) -> str:
    """Who holds the lock, as its holder wrote it (PID, command), made safe to print."""
    try:
        text = os.pread(fd, 2048, 0).decode("utf-8", "replace")
    except OSError:
        text = ""
    pid, _, command = text.partition("\n")
    pid, command = pid.strip(), " ".join(_PRINTABLE.sub(" ", command).split())[:300]
    if not pid.isdigit():
        return "outro processo"
    return f"outro processo (PID {pid}" + (f": {command}" if command else "") + ")"


# the lock files this process holds open: a forked child closes its copies at once (_forked), so that it
# never keeps a folder locked after its parent died, and never lets go of its parent's lock file
_HELD: set[int] = set()


_PARENT = [0]  # the process forking, as the child finds it: a parent dead before the child asks to die with
# it (PR_SET_PDEATHSIG is not retroactive) is seen by the child's parent having changed


def _forking() -> None:
    _PARENT[0] = os.getpid()


def _forked() -> None:
    """In a child just forked: close the inherited locks' descriptors and die with the parent (Linux's
    PR_SET_PDEATHSIG), so that a killed build's workers do not keep its folders locked, nor go on writing
    and cleaning up after it."""
    for fd in list(_HELD):
        try:
            os.close(fd)
        except OSError:
            pass
    _HELD.clear()
    _die_with_parent()
    if _PARENT[0] and os.getppid() != _PARENT[0]:  # the parent died already: so does the child
        os._exit(1)


def _die_with_parent() -> None:
    try:
        import signal

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # not Linux: the lock's descriptors are closed all the same
        pass


if hasattr(os, "register_at_fork"):
    os.register_at_fork(before=_forking, after_in_child=_forked)


def _open_lock(path: Path, folder: Path) -> int:
    """The lock file opened for writing, never through a link (a link planted beside a shared folder would
    have its target overwritten): only a regular file of this user is taken."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW | os.O_NONBLOCK, 0o644)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise FolderBusy(f"o arquivo de trava {path} é um link simbólico: recusado (um programa não o cria; "
                             "apague-o se for seu)") from None
        raise
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode) or info.st_uid != os.geteuid():
        os.close(fd)
        what = "não é um arquivo comum" if not stat.S_ISREG(info.st_mode) else "é de outro usuário"
        raise FolderBusy(f"o arquivo de trava {path} {what}: recusado; a pasta {folder} não foi gravada")
    return fd


@contextmanager
def _lock(folder: Path) -> Iterator[None]:
    folder = Path(folder)
    path = lock_path(folder)
    path.parent.mkdir(parents=True, exist_ok=True)
    for _attempt in range(100):
        fd = _open_lock(path, folder)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _holder(fd)
            os.close(fd)
            raise FolderBusy(f"a pasta {folder} já está sendo gravada por {holder}; espere essa execução "
                             "terminar (ou encerre-a) e tente de novo") from None
        except BaseException:
            os.close(fd)
            raise
        # the previous holder removes the file as it lets go: a lock taken on the removed file locks nothing
        try:
            now, held = os.stat(path), os.fstat(fd)
            if (now.st_dev, now.st_ino) == (held.st_dev, held.st_ino):
                break
        except FileNotFoundError:
            pass
        os.close(fd)
    else:  # pragma: no cover - the file removed and made again a hundred times in a row
        raise FolderBusy(f"a pasta {folder} está sendo gravada por outras execuções; tente de novo")
    owner = os.getpid()
    _HELD.add(fd)
    try:
        command = shlex.join(getattr(sys, "orig_argv", sys.argv))[:500]
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{owner}\n{command}\n".encode("utf-8", "replace"), 0)
        yield
    finally:
        if os.getpid() == owner:  # a forked child never lets go of its parent's lock (its copy is closed)
            _HELD.discard(fd)
            try:
                path.unlink()  # still ours: no one else can lock it, nor make another one, while we hold it
            except OSError:
                pass
            os.close(fd)  # the kernel lets go of the lock here (or when the process dies, however it dies)


def remove_leftovers(folder: Path) -> None:
    """What earlier runs that were killed left beside ``folder``, by the names only the tools give: its
    staging folder, the previous folder of an unfinished swap (put back when the folder itself is missing:
    it is then the last complete one) and the build's temporary search folders. Call holding the lock."""
    folder = Path(folder).resolve()
    parent, name = folder.parent, folder.name
    if not parent.is_dir():
        return
    old = parent / f".{name}.old"
    if not folder.exists() and not folder.is_symlink() and old.is_dir() and not old.is_symlink():
        old.rename(folder)
    found = [parent / f".{name}.staging", old, *parent.glob(f".{glob.escape(name)}.busca-*")]
    found += [p for p in parent.glob(".busca-*") if _LEGACY_SEARCH.fullmatch(p.name)]
    for leftover in found:
        if leftover.is_dir() and not leftover.is_symlink():
            shutil.rmtree(leftover, ignore_errors=True)


@contextmanager
def exclusive(*folders: Path | None) -> Iterator[None]:
    """Hold the lock of each folder (None skipped) for the block, after removing what killed runs left
    beside it; raises :class:`FolderBusy` at once when another run holds one. Released on leaving the
    block, however it is left."""
    seen = set()
    with ExitStack() as held:
        for folder in folders:
            if folder is None or not Path(folder).resolve().name or Path(folder).resolve() in seen:
                continue  # the root has no "beside": the tools refuse to write it anyway
            seen.add(Path(folder).resolve())
            held.enter_context(_lock(Path(folder)))
            remove_leftovers(Path(folder))
        yield


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
