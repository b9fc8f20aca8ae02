"""Shared fixtures: the project's schema, copies of fixture packages to break on purpose, and one
golden build of the small fixture package (``tests/fixtures/pacote-minimo``) as of a fixed date."""

from __future__ import annotations

import shutil
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest

from pipeline import PROJECT_ROOT
from pipeline.build import build
from pipeline.schema import load_schema
from pipeline.settings import Settings

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
    return subprocess.run([sys.executable, "-m", "pipeline", *args], cwd=cwd, capture_output=True, text=True)


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Path:
    """The golden build of the minimal package, as of 2026-06-30."""
    out = tmp_path_factory.mktemp("golden") / "site"
    build(Settings(data=(MINIMAL,), out=out, as_of=AS_OF, whoosh_dir=out.parent / "busca"))
    return out
