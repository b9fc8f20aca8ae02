"""Pagefind: the browser search's static index of the rendered pages, in ``out/pagefind/``."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path


class PagefindError(RuntimeError):
    """Pagefind failed; the message carries its own output."""


def start(out: Path) -> subprocess.Popen:
    """Start Pagefind (the binary shipped by ``pagefind[bin]``) over the site in ``out``; it runs beside
    the build (the Whoosh index is written meanwhile) until :func:`finish`."""
    log = tempfile.TemporaryFile()  # not a pipe: nobody reads it until Pagefind ends, so it must not fill up
    proc = subprocess.Popen([sys.executable, "-m", "pagefind", "--site", str(out), "--silent"],
                            stdout=log, stderr=subprocess.STDOUT)
    proc.log = log
    return proc


def finish(proc: subprocess.Popen) -> None:
    proc.wait()
    proc.log.seek(0)
    output = proc.log.read().decode("utf-8", "replace").strip()
    proc.log.close()
    if proc.returncode != 0:
        raise PagefindError(f"Pagefind falhou ao indexar o site: {output}")


def index(out: Path) -> None:
    """Run Pagefind over the site in ``out`` and wait for it."""
    finish(start(out))
