"""Pagefind: the browser search's static index of the rendered pages, in ``out/pagefind/``.

Pagefind 1.5 writes its filter indexes (and the list of them in its metadata) in hash-map order, which
changes from run to run; the build must give byte-identical output, so :func:`normalise` rewrites those
files with their values sorted and names them by their content, as the zip of the package is normalised
(pipeline/publish/archive.py). The files are gzip'd CBOR after a ``pagefind_dcd`` signature.

Pagefind's bundle also follows the order in which the file system lists the pages. ext4 lists a large
folder by a hash of the names, seeded for each file system; tmpfs (``/dev/shm``) and others, in the order
the entries were made, which the page workers make in no fixed order: two builds of the same site in memory
gave two bundles. Pagefind is therefore given the pages in a folder made in the order of their paths
(:func:`_in_order`). Across file systems the bundle may still differ (ext4's seed).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import cbor2

_SIGNATURE = b"pagefind_dcd"


class PagefindError(RuntimeError):
    """Pagefind failed; the message carries its own output."""


class Running:
    """Pagefind at work over the searched pages (:func:`start`): :meth:`wait` for its bundle, or :meth:`cancel`."""

    def __init__(self, out: Path, proc: subprocess.Popen, ordered: tempfile.TemporaryDirectory, said):
        self.out, self.proc, self.ordered, self.said = Path(out), proc, ordered, said

    def wait(self) -> None:
        """Until Pagefind is done; its bundle normalised (see the module's note). Raises :class:`PagefindError`
        with Pagefind's own words when it failed."""
        try:
            code = self.proc.wait()
            self.said.seek(0)
            said = self.said.read().decode("utf-8", "replace").strip()
        finally:
            self._close()
        if code != 0:
            raise PagefindError(f"Pagefind falhou ao indexar o site: {said or f'código de saída {code}'}")
        normalise(self.out / "pagefind")

    def cancel(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        self._close()

    def _close(self) -> None:
        """What Pagefind said, and the folder of the pages in order, gone."""
        self.said.close()
        self.ordered.cleanup()


def start(out: Path, globs: list[str], pages: Path | None = None) -> Running:
    """Start Pagefind (the binary shipped by ``pagefind[bin]``) over the site in ``out``, reading only the
    pages that ``globs`` match (the searched page kinds, pipeline/site/urls.py); it writes its bundle in
    ``out/pagefind/`` while the caller goes on (the build writes the release meanwhile), until
    :meth:`Running.wait`. Pagefind parses every file its glob matches, even the pages it then leaves out
    for want of ``data-pagefind-body``; at national scale reading only the searched kinds makes it
    faster and lighter for the same pages.

    ``pages``, when given, is a folder holding what Pagefind reads of those pages (written beside each
    page by the site's writer, pipeline/site/writer.py ``pagefind_text``): the same bundle, byte for byte,
    in much less of Pagefind's time (tests/test_search_lookups.py)."""
    glob = "{" + ",".join(globs) + "}"
    ordered = tempfile.TemporaryDirectory(prefix=".em-ordem-", dir=pages)  # in ``pages``: gone with it
    said = tempfile.TemporaryFile()  # what Pagefind says, read if it fails (a pipe could fill and stop it)
    try:
        site = _in_order(pages if pages is not None else out, globs, Path(ordered.name), move=pages is not None)
        proc = subprocess.Popen(
            [sys.executable, "-m", "pagefind", "--site", str(site), "--glob", glob, "--silent",
             "--output-path", str(Path(out).resolve() / "pagefind")],
            stdin=subprocess.DEVNULL, stdout=said, stderr=subprocess.STDOUT,
        )
    except BaseException:
        said.close()
        ordered.cleanup()
        raise
    return Running(out, proc, ordered, said)


def index(out: Path, globs: list[str], pages: Path | None = None) -> None:
    """:func:`start` Pagefind and wait for its bundle."""
    start(out, globs, pages).wait()


def _in_order(site: Path, globs: list[str], into: Path, move: bool) -> Path:
    """The files of ``site`` that ``globs`` match, in ``into``, each folder's entries made in the order of the
    paths (see the module's note): moved there with ``move`` (the build's own folder of what Pagefind reads),
    a page's folder that holds that page alone moved whole (a folder made anew is an inode to allocate: some
    20,000 at national scale), else linked (or copied where links cannot be made). Returns ``into``."""
    site = Path(site)
    found = sorted({p.relative_to(site).as_posix() for g in globs for p in site.glob(g) if p.is_file()})
    for relative in found:
        target = into / relative
        if move and "/" in relative and not target.parent.exists() \
                and os.listdir((site / relative).parent) == [target.name]:
            target.parent.parent.mkdir(parents=True, exist_ok=True)
            os.replace((site / relative).parent, target.parent)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        if move:
            os.replace(site / relative, target)
            continue
        try:
            os.link(site / relative, target)
        except OSError:
            shutil.copyfile(site / relative, target)
    return into


def _read(path: Path):
    raw = gzip.decompress(path.read_bytes())
    if not raw.startswith(_SIGNATURE):
        raise PagefindError(f"{path.name}: não é um arquivo do Pagefind (assinatura ausente)")
    return cbor2.loads(raw[len(_SIGNATURE):])


def _write(folder: Path, prefix: str, digits: int, suffix: str, value) -> str:
    """Write ``value`` as Pagefind does, named by its content; returns the name's hash part."""
    data = gzip.compress(_SIGNATURE + cbor2.dumps(value), compresslevel=9, mtime=0)
    name = f"{prefix}_{hashlib.sha256(data).hexdigest()[:digits]}"
    (folder / f"{suffix.format(name)}").write_bytes(data)
    return name


def normalise(bundle: Path) -> None:
    """Sort each filter's values and the metadata's list of filters; rename what changed by content."""
    entry_path = bundle / "pagefind-entry.json"
    entry = json.loads(entry_path.read_text(encoding="utf-8"))
    for lang, info in entry["languages"].items():
        meta_path = bundle / f"pagefind.{info['hash']}.pf_meta"
        meta = _read(meta_path)
        filters = []
        for name, file_hash in meta[3]:  # [[filter name, file hash]]
            path = bundle / "filter" / f"{file_hash}.pf_filter"
            value = _read(path)  # [filter name, [[value, [page numbers]]]]
            value[1] = sorted(value[1], key=lambda item: item[0])
            path.unlink()
            filters.append([name, _write(bundle / "filter", lang, 7, "{}.pf_filter", value)])
        meta[3] = sorted(filters)
        meta_path.unlink()
        info["hash"] = _write(bundle, lang, 13, "pagefind.{}.pf_meta", meta)
    entry_path.write_text(json.dumps(entry, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
