"""Pagefind: the browser search's static index of the rendered pages, in ``out/pagefind/``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


class PagefindError(RuntimeError):
    """Pagefind failed; the message carries its own output."""


def index(out: Path) -> None:
    """Run Pagefind (the binary shipped by ``pagefind[bin]``) over the site in ``out``."""
    proc = subprocess.run(
        [sys.executable, "-m", "pagefind", "--site", str(out), "--silent"], capture_output=True, text=True
    )
    if proc.returncode != 0:
        raise PagefindError(f"Pagefind falhou ao indexar o site: {proc.stderr.strip() or proc.stdout.strip()}")
