"""Shared fixtures: the project's schema, copies of fixture packages to break on purpose, and one
golden build of the small fixture package (``tests/fixtures/pacote-minimo``) as of a fixed date."""

from __future__ import annotations

import contextlib
import fcntl
import html
import io
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import pytest

from pipeline import PROJECT_ROOT
from pipeline.build import build
from pipeline.contract.schema import load_schema
from pipeline.contract.settings import Settings

pytest_plugins = ["browser_support"]  # the browser and the served site, one session for every module

FIXTURES = Path(__file__).parent / "fixtures"
MINIMAL = FIXTURES / "pacote-minimo"
AS_OF = date(2026, 6, 30)
SHARED = PROJECT_ROOT.parent / "shared"


@pytest.fixture(scope="session")
def schema():
    return load_schema()


@pytest.fixture
def package(tmp_path):
    """A copy of the minimal package; ``edit(file, old, new)`` breaks it on purpose."""
    folder = tmp_path / "pacote"
    shutil.copytree(MINIMAL, folder)

    class Package:
        path = folder

        def edit(self, filename: str, old: str, new: str) -> None:
            target = folder / filename
            text = target.read_text(encoding="utf-8")
            assert old in text, f"{old!r} not in {filename}"
            target.write_text(text.replace(old, new, 1), encoding="utf-8")

        def append(self, filename: str, line: str) -> None:
            with open(folder / filename, "a", encoding="utf-8") as fh:
                fh.write(line + "\n")

    return Package()


def run_cli(*args: str, cwd: Path = PROJECT_ROOT) -> subprocess.CompletedProcess:
    """``python -m pipeline ...`` in a new interpreter: for tests about the process itself (its exit status,
    the cwd, the environment, everything it writes to fds 1 and 2, worker processes included)."""
    return subprocess.run([sys.executable, "-m", "pipeline", *args], cwd=cwd, capture_output=True, text=True)


@dataclass
class Result:
    returncode: int
    stdout: str
    stderr: str


def cli(*args: str) -> Result:
    """``python -m pipeline ...`` in this process: ``pipeline.__main__.main`` with ``sys.stdout`` and
    ``sys.stderr`` redirected (what it prints, and its return value as the exit code). About 0.7 s faster
    than :func:`run_cli`; relative paths resolve against the test process's cwd, so pass absolute ones."""
    from pipeline.__main__ import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(args))
        except SystemExit as exc:  # argparse: --help (0), a bad option (2)
            code = exc.code
            if not isinstance(code, int):
                if code is not None:
                    print(code, file=sys.stderr)
                code = 0 if code is None else 1
    return Result(code, out.getvalue(), err.getvalue())


def shared(tmp_path_factory, name: str, make: Callable[[Path], None]) -> Path:
    """A session fixture's folder made once for the whole run, not once per pytest-xdist worker: the first
    worker to ask makes it (``make(folder)``) in the run's common temporary folder, holding a lock; the
    others wait for the lock and take the folder as made. Such a folder is read, never changed."""
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # pytest-of-<user>/pytest-<n>/: every worker's basetemp is a folder of it
    folder, done = root / f"comum-{name}", root / f"comum-{name}.feito"
    with open(root / f"comum-{name}.trava", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            if folder.exists():  # a worker failed while making it
                shutil.rmtree(folder)
            folder.mkdir()
            make(folder)
            done.touch()
    return folder


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Path:
    """The golden build of the minimal package, as of 2026-06-30."""
    def make(folder):
        build(Settings(data=(MINIMAL,), out=folder / "site", as_of=AS_OF, whoosh_dir=folder / "busca"))
    return shared(tmp_path_factory, "golden", make) / "site"


REAL_EXPORT = SHARED / "data" / "antt" / "quadro-de-horarios-2021.csv"


@pytest.fixture(scope="session")
def real_package(tmp_path_factory) -> Path:
    """The regulator's real 2021 timetable export, ingested (read from ../shared, never copied)."""
    from pipeline.adapters import ingest

    if not REAL_EXPORT.is_file():
        pytest.skip("../shared/data/antt/quadro-de-horarios-2021.csv not found: the real export lives in shared/")
    return shared(tmp_path_factory, "real", lambda folder: ingest("antt-horarios", REAL_EXPORT,
                                                                  folder / "antt-horarios")) / "antt-horarios"


def real_excerpt(folder: Path) -> Path:
    """The real export's first lines (its header and the two departures of 12-0140-00, as the regulator wrote
    them) ingested into ``folder / "antt-horarios"``: a real package for a build that needs a real source,
    not all of it."""
    from pipeline.adapters import ingest

    if not REAL_EXPORT.is_file():
        pytest.skip("../shared/data/antt/quadro-de-horarios-2021.csv not found: the real export lives in shared/")
    excerpt = folder / REAL_EXPORT.name
    with open(REAL_EXPORT, "rb") as fh:
        excerpt.write_bytes(b"".join(fh.readline() for _ in range(3)))
    assert excerpt.read_bytes().count(b";12-0140-00;") == 2
    ingest("antt-horarios", excerpt, folder / "antt-horarios")
    return folder / "antt-horarios"


@pytest.fixture(scope="session")
def real_only_site(real_package, tmp_path_factory) -> Path:
    """A build of the ingested real export alone, as a new user would make it."""
    def make(folder):
        build(Settings(data=(real_package,), out=folder / "site", as_of=date(2026, 11, 29),
                       whoosh_dir=folder / "busca"))
    return shared(tmp_path_factory, "real-site", make) / "site"


@pytest.fixture(scope="session")
def sample_site(tmp_path_factory) -> Path:
    """A build of the bundled (fictional) sample, as ``make site`` makes it."""
    from pipeline import SAMPLE_DIR

    def make(folder):
        build(Settings(data=(SAMPLE_DIR,), out=folder / "site", as_of=date(2026, 11, 29),
                       whoosh_dir=folder / "busca"))
    return shared(tmp_path_factory, "sample-site", make) / "site"


def snapshot(folder: Path) -> dict[str, bytes | None]:
    """Every path under ``folder`` (hidden ones too), with the bytes of each file: equal snapshots, nothing
    was written, created or removed there."""
    return {str(p.relative_to(folder)): (p.read_bytes() if p.is_file() else None)
            for p in sorted(folder.rglob("*"))}


_TAG = re.compile(r"<script\b.*?</script>|<style\b.*?</style>|<[^>]+>", re.S | re.I)


def answer_json(site: Path, frm: str, to: str) -> dict | None:
    """The form's answer from the place keyed ``frm`` (``go/anapolis``) to ``to`` (``to/gurupi``), as the page's
    script reads it (pipeline/site/cities.py answers_json): the pair's own file, or its entry in the origin's
    ``destinos.json`` (a pair answered in the origin's row); None when neither has it."""
    import json

    other = to.replace("/", "-")
    pair = site / "cidades" / frm / "para" / f"{other}.json"
    if pair.is_file():
        return json.loads(pair.read_text(encoding="utf-8"))
    rows = site / "cidades" / frm / "destinos.json"
    if rows.is_file():
        read = json.loads(rows.read_text(encoding="utf-8"))
        if other in read["respostas"]:
            return {"de": read["de"], **read["respostas"][other]}
    return None


def all_answers(site: Path):
    """Every answer the form may read (:func:`answer_json`), pair files and the places' ``destinos.json``."""
    import json

    for f in sorted((site / "cidades").glob("*/*/para/*.json")):
        yield json.loads(f.read_text(encoding="utf-8"))
    for f in sorted((site / "cidades").glob("*/*/destinos.json")):
        read = json.loads(f.read_text(encoding="utf-8"))
        for answer in read["respostas"].values():
            yield {"de": read["de"], **answer}


def page_text(path: Path) -> str:
    """The text of an HTML file (tags, scripts and styles removed, entities decoded, whitespace folded)."""
    return " ".join(html.unescape(_TAG.sub(" ", path.read_text(encoding="utf-8"))).split())


_OOXML_ESCAPE = re.compile(r"_x([0-9A-Fa-f]{4})_")


def xlsx_text(value):
    """A text cell as a spreadsheet shows it: OOXML escapes (``_x000D_`` for a CR) decoded in one pass,
    as Excel does; openpyxl's reader leaves them as written."""
    return _OOXML_ESCAPE.sub(lambda m: chr(int(m[1], 16)), value) if isinstance(value, str) else value
